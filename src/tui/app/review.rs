//! The review flow (`V`): pages whose gold file is still a draft (from `gold mark`, `gold
//! import` or an earlier session) or flagged are reviewed one after the other with single keys —
//! `a` accept (saved as final), `f` flag (a `[flagged]` note, kept a draft), `s` skip, `n` a note
//! (typed, Enter) — and `Esc` leaves the review.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{App, Mode};
use crate::gold;

/// The note that marks a gold file as flagged for another look.
pub const FLAG: &str = "[flagged]";

impl App {
    /// True when the open page's gold is a draft or flagged.
    pub fn needs_review(&self) -> bool {
        self.ann
            .as_ref()
            .is_some_and(|a| a.gold.draft || a.gold.notes.contains(FLAG))
    }

    /// Enters review mode (on the open page if it needs review, else on the next one that does).
    pub(crate) fn start_review(&mut self) {
        if self.ann.is_none() {
            self.status = Some(("no page to review".into(), false));
            return;
        }
        self.mode = Mode::Review;
        if !self.needs_review() {
            self.next_review();
        }
        self.review_status();
    }

    fn review_status(&mut self) {
        if self.mode != Mode::Review {
            return;
        }
        let what = if self.needs_review() {
            "draft — review it"
        } else {
            "final"
        };
        self.status = Some((
            format!("review: {what}: a accept, f flag, s skip, n note, Esc leaves"),
            false,
        ));
    }

    /// A key in review mode (or while a note is typed).
    pub(crate) fn review_key(&mut self, ev: KeyEvent) {
        if self.mode == Mode::Note {
            match ev.code {
                KeyCode::Esc => {
                    self.input.clear();
                    self.mode = Mode::Review;
                    self.review_status();
                }
                KeyCode::Enter => {
                    let note = std::mem::take(&mut self.input);
                    self.mode = Mode::Review;
                    self.add_note(note.trim());
                }
                KeyCode::Backspace => {
                    self.input.pop();
                }
                KeyCode::Char(c) if !c.is_control() => self.input.push(c),
                _ => {}
            }
            return;
        }
        match ev.code {
            KeyCode::Esc => {
                self.mode = Mode::Normal;
                self.status = Some(("review ended".into(), false));
            }
            KeyCode::Char('a') => {
                if let Some(ann) = self.ann.as_mut() {
                    ann.gold.notes = ann.gold.notes.replace(FLAG, "").trim().to_string();
                }
                self.save_gold_as(false);
                if self.ann.as_ref().is_some_and(|a| !a.dirty) {
                    self.next_review();
                }
            }
            KeyCode::Char('f') => {
                if let Some(ann) = self.ann.as_mut() {
                    if !ann.gold.notes.contains(FLAG) {
                        let sep = if ann.gold.notes.is_empty() { "" } else { " " };
                        ann.gold.notes = format!("{}{sep}{FLAG}", ann.gold.notes);
                    }
                }
                self.save_gold_as(true);
                if self.ann.as_ref().is_some_and(|a| !a.dirty) {
                    self.next_review();
                }
            }
            KeyCode::Char('s') => self.next_review(),
            KeyCode::Char('n') => {
                self.mode = Mode::Note;
                self.input.clear();
            }
            _ => {
                // Everything else works as usual inside the review (move, select, edit).
                self.mode = Mode::Normal;
                self.handle_key(ev);
                if self.mode == Mode::Normal {
                    self.mode = Mode::Review;
                }
            }
        }
    }

    /// Appends `note` to the gold's notes (an edit: undo takes it back, the recovery file keeps
    /// it, saving writes it).
    fn add_note(&mut self, note: &str) {
        if note.is_empty() {
            self.review_status();
            return;
        }
        let Some(ann) = self.ann.as_mut() else {
            return;
        };
        if ann.read_only.is_some() {
            self.status = Some(("read-only: the note is not added".into(), true));
            return;
        }
        ann.undo.push(ann.snapshot());
        ann.redo.clear();
        let sep = if ann.gold.notes.is_empty() { "" } else { "\n" };
        ann.gold.notes = format!("{}{sep}{note}", ann.gold.notes);
        ann.refresh_dirty();
        self.status = Some((format!("note added: {note}"), false));
    }

    /// Opens the next corpus page whose gold file is a draft or flagged (reading the gold files
    /// of the pages after the current one, in list order); says so when none is left.
    fn next_review(&mut self) {
        let Some(c) = &self.corpus else {
            self.status = Some(("review: no further page (not a corpus)".into(), false));
            return;
        };
        let vis = c.visible();
        let pos = vis.iter().position(|&i| i == c.current).unwrap_or(0);
        let gold_dir = self.opts.gold_dir.clone();
        let next = vis
            .iter()
            .cycle()
            .skip(pos + 1)
            .take(vis.len().saturating_sub(1))
            .copied()
            .find(|&i| {
                let path = gold::gold_path_for(&c.entries[i].path, gold_dir.as_deref());
                gold::load(&path).is_ok_and(|g| g.draft || g.notes.contains(FLAG))
            });
        match next {
            Some(i) => {
                if self.confirm_leave(crate::tui::keymap::Action::NextPage) {
                    self.open_entry(i);
                    self.review_status();
                }
            }
            None => {
                self.status = Some(("review: no further draft or flagged page".into(), false));
            }
        }
    }
}
