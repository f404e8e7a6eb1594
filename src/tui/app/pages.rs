//! The corpus in the app: opening, stepping through and scanning its pages, and carrying out
//! what the page list asks (its state and keys: [`crate::tui::panels::pages`]).

use std::path::PathBuf;
use std::sync::mpsc::channel;

use ratatui::crossterm::event::KeyEvent;

use super::{App, Mode, PageEntry};
use crate::page::{decode, Page};
use crate::tui::panels::pages::PagesAsk;
use crate::tui::panels::Handled;

impl App {
    pub(super) fn start_encoding_scan(&mut self, entries: &[PageEntry]) {
        let (tx, rx) = channel();
        let paths: Vec<PathBuf> = entries.iter().map(|e| e.path.clone()).collect();
        let opts = self.opts.decode.clone();
        std::thread::spawn(move || {
            for (i, p) in paths.iter().enumerate() {
                let (enc, len) = match decode::read_input(p) {
                    Ok(b) => match decode::decode(&b, &opts) {
                        Ok(d) => (d.encoding.name().to_string(), b.len() as u64),
                        Err(_) => ("error".to_string(), b.len() as u64),
                    },
                    Err(_) => ("error".to_string(), 0),
                };
                if tx.send((i, enc, len)).is_err() {
                    return;
                }
            }
        });
        self.info_rx = Some(rx);
    }

    /// Opens corpus entry `i` (index into `entries`).
    pub fn open_entry(&mut self, i: usize) {
        self.changed();
        let Some(c) = self.corpus.as_mut() else {
            return;
        };
        if i >= c.entries.len() {
            return;
        }
        c.current = i;
        let e = c.entries[i].clone();
        match Page::load(&e.path, &self.opts.decode) {
            Ok(page) => {
                if let Some(c) = self.corpus.as_mut() {
                    c.entries[i].encoding = Some(page.encoding().name().to_string());
                    c.entries[i].html_bytes = Some(page.raw().len() as u64);
                }
                self.set_doc(&e.path, page, e.gold.as_ref());
                self.status = None;
            }
            Err(err) => {
                self.doc = None;
                self.ann = None;
                self.status = Some((format!("{}: {err}", e.id), true));
            }
        }
    }

    pub(super) fn next_unannotated(&mut self) {
        let Some(c) = &self.corpus else {
            return;
        };
        match c.next_unannotated() {
            Some(i) => self.open_entry(i),
            None => self.status = Some(("every page has a gold standard".into(), false)),
        }
    }

    pub(super) fn page_step(&mut self, forward: bool) {
        let Some(c) = &self.corpus else {
            self.status = Some(("not a corpus: no next page".into(), false));
            return;
        };
        if let Some(next) = c.step_target(forward) {
            self.open_entry(next);
        }
    }

    /// A key while the page list's filter is typed: the page list takes it
    /// ([`crate::tui::panels::pages::CorpusState::filter_key`]); the app ends the typing and
    /// opens the page it names when it asks.
    pub(super) fn filter_key(&mut self, ev: KeyEvent) {
        let Some(c) = self.corpus.as_mut() else {
            self.mode = Mode::Normal;
            return;
        };
        if let Handled::Ask(PagesAsk::FilterDone(open)) = c.filter_key(ev) {
            self.mode = Mode::Normal;
            if let Some(i) = open {
                self.open_entry(i);
            }
        }
    }
}
