//! Finding things in the inspector: typing a search in the source (`/`, matches highlighted;
//! `n`, `N` are the source panel's) and a line number (`:`), and the jumps that need the app —
//! to the active algorithm's seed region, first and last selected line, and to the headline.
//! The cursor, the search's matches and the jump list are the source panel's
//! ([`crate::tui::panels::source`]); positions in the jump list are byte offsets, so they
//! survive switching between virtual and raw lines.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::extract::Role;
use crate::page::find::{find_all, Case};
use crate::tui::panels::source::SourceAsk;
use crate::tui::panels::Handled;

use super::doc::page_lines;
use super::{App, Mode};

impl App {
    /// Starts typing a search (`/`).
    pub(crate) fn start_search(&mut self) {
        self.mode = Mode::Search;
        self.input.clear();
    }

    /// Starts typing a line number (`:`).
    pub(crate) fn start_goto(&mut self) {
        self.mode = Mode::GotoLine;
        self.input.clear();
    }

    /// A key while a search or a line number is typed: text edits the input (a search is run
    /// as it is typed, so the matches show at once), Enter commits, Esc cancels.
    pub(crate) fn input_key(&mut self, ev: KeyEvent) {
        match ev.code {
            KeyCode::Esc => {
                self.mode = Mode::Normal;
                self.input.clear();
            }
            KeyCode::Enter => {
                let mode = std::mem::replace(&mut self.mode, Mode::Normal);
                let text = std::mem::take(&mut self.input);
                match mode {
                    Mode::Search => {
                        self.set_search(&text);
                        self.search_step(true, true);
                    }
                    Mode::GotoLine => self.goto_line_text(&text),
                    _ => {}
                }
            }
            KeyCode::Backspace => {
                self.input.pop();
                if self.mode == Mode::Search {
                    let q = self.input.clone();
                    self.set_search(&q);
                }
            }
            KeyCode::Char(c) if !c.is_control() => {
                if self.mode == Mode::GotoLine && !c.is_ascii_digit() {
                    self.status = Some(("a line number: digits only".into(), true));
                    return;
                }
                self.input.push(c);
                if self.mode == Mode::Search {
                    let q = self.input.clone();
                    self.set_search(&q);
                }
            }
            _ => {}
        }
    }

    /// Runs a search for `query` over the page text (smart case; see
    /// [`crate::page::find::Case::Smart`]); an empty query clears it.
    fn set_search(&mut self, query: &str) {
        let Some(doc) = self.doc.as_ref() else {
            return;
        };
        self.source.set_search(doc.page.text(), query);
    }

    /// Moves the cursor to the next (or previous) match after (before) the cursor line,
    /// wrapping around, and says which match it is. `from_cursor_line`: a fresh search may
    /// match on the cursor line itself.
    pub(crate) fn search_step(&mut self, forward: bool, from_cursor_line: bool) {
        let lines = page_lines(&self.doc, self.source.view());
        if let Handled::Ask(SourceAsk::Status(msg, error)) =
            self.source.search_step(forward, from_cursor_line, lines)
        {
            self.status = Some((msg, error));
        }
    }

    fn goto_line_text(&mut self, text: &str) {
        match text.parse::<usize>() {
            Ok(n) if n >= 1 && n <= self.line_count() => self.jump_to_line(n - 1),
            _ => {
                self.status = Some((
                    format!("no line {text:?}: lines are 1 to {}", self.line_count()),
                    true,
                ))
            }
        }
    }

    /// Moves the cursor to display line `line`, recording the jump in the jump list
    /// ([`crate::tui::panels::source::SourcePanel::jump_to_line`]).
    pub fn jump_to_line(&mut self, line: usize) {
        let lines = page_lines(&self.doc, self.source.view());
        self.source.jump_to_line(line, lines);
    }

    /// Fits the view to a source panel of `rows` text rows; the frame's set-up calls it before
    /// every frame. A view a jump placed is fitted to the new height, the cursor stays on a
    /// line of the page and on screen
    /// ([`crate::tui::panels::source::SourcePanel::fit`]), and the highlighter is asked for
    /// the lines shown.
    pub fn fit_view(&mut self, rows: usize) {
        let n = self.line_count();
        self.source.fit(rows, n);
        self.request_highlight();
    }

    /// Moves the cursor to the display line holding byte `b` of the page text, recording the
    /// jump in the jump list.
    pub fn jump_to_byte(&mut self, b: usize) {
        let lines = page_lines(&self.doc, self.source.view());
        self.source.jump_to_byte(b, lines);
    }

    /// Jumps to the first display line of the active algorithm's marks with `role` (the seed
    /// region for [`Role::Seed`]).
    pub(crate) fn jump_role(&mut self, role: Role, what: &str) {
        let line = self.line_trace(self.active).and_then(|lt| {
            let m = lt.marks.iter().find(|m| m.role == role)?;
            m.spans.first().map(|r| first_text_line(&lt, r))
        });
        match line {
            Some(l) => self.jump_to_line(l),
            None => {
                let name = self.active_algo().extractor.name();
                self.status = Some((format!("{name} has no {what} on this page"), false));
            }
        }
    }

    /// Jumps to the first (`first`) or last line of the active algorithm's selection that holds
    /// selected text: white space alone (a wrapper's indentation a DOM algorithm kept) does not
    /// count, unless the selection is nothing else.
    pub(crate) fn jump_selected(&mut self, first: bool) {
        let text = self.doc.as_ref().map_or("", |d| d.page.text());
        let sel = self.active_algo().result.as_ref().map(|x| {
            let r = x.selection.ranges();
            let solid = |r: &std::ops::Range<usize>| {
                let s = text.get(r.clone())?;
                if first {
                    s.find(|c: char| !c.is_whitespace()).map(|k| r.start + k)
                } else {
                    s.rfind(|c: char| !c.is_whitespace()).map(|k| r.start + k)
                }
            };
            if first {
                r.iter()
                    .find_map(solid)
                    .or_else(|| r.first().map(|r| r.start))
            } else {
                r.iter()
                    .rev()
                    .find_map(solid)
                    .or_else(|| r.last().map(|r| r.end.saturating_sub(1)))
            }
        });
        match sel.flatten() {
            Some(b) => self.jump_to_byte(b),
            None => {
                let name = self.active_algo().extractor.name();
                self.status = Some((format!("{name} selects nothing on this page"), false));
            }
        }
    }

    /// Jumps to the headline: the one being annotated, else the gold's headline text found in
    /// the page.
    pub(crate) fn jump_headline(&mut self) {
        let annotated = self
            .ann
            .as_ref()
            .and_then(|a| a.gold.headline_range())
            .map(|r| r.start);
        let from_gold = || {
            let d = self.doc.as_ref()?;
            let h = d.gold_headline.as_deref()?.trim();
            find_all(d.page.text(), h, Case::AsciiInsensitive, 1)
                .first()
                .map(|r| r.start)
        };
        match annotated.or_else(from_gold) {
            Some(b) => self.jump_to_byte(b),
            None => {
                self.status = Some((
                    "no headline: none annotated, and the gold's is not in the source as is".into(),
                    false,
                ))
            }
        }
    }
}

/// The line a jump to the display-line span `span` of a trace's marks goes to: its first line
/// that shows an element's value when the marks are of DOM nodes (the element's first text
/// line, where its bar is, rather than its start tag's), else its first line.
pub(crate) fn first_text_line(
    lt: &crate::extract::LineTrace,
    span: &std::ops::Range<usize>,
) -> usize {
    lt.nodes
        .as_ref()
        .and_then(|nl| {
            span.clone()
                .find(|&l| nl.owner.get(l).is_some_and(Option::is_some))
        })
        .unwrap_or(span.start)
}
