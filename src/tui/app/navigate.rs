//! Finding things in the inspector: search in the source (`/`, `n`, `N`, matches highlighted),
//! go to a line (`:`), jumps to the active algorithm's seed region, first and last selected
//! line, and to the headline, and a jump list (`'` back, `` ` `` forward). Positions in the jump
//! list are byte offsets, so they survive switching between virtual and raw lines.

use std::ops::Range;

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::extract::Role;
use crate::page::find::{find_all, Case};

use super::{App, Mode};

/// Most matches a search keeps (the status bar says when there are more).
pub const MAX_MATCHES: usize = 100_000;
/// Most positions the jump list keeps.
const MAX_JUMPS: usize = 100;

/// Rows of context a jump keeps above (and, where the page has them, below) its target in a
/// view of `h` rows: a third of the view, so the lines before the target (a headline above
/// a paragraph, the line a region follows) stay in sight.
pub fn context_rows(h: usize) -> usize {
    h / 3
}

/// The last search: its text and its matches as byte ranges over the page text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Search {
    /// What was searched for.
    pub query: String,
    /// Matches, left to right (at most [`MAX_MATCHES`]).
    pub matches: Vec<Range<usize>>,
    /// The match the cursor was last moved to.
    pub current: Option<usize>,
}

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
        if query.is_empty() {
            self.search = None;
            return;
        }
        let matches = find_all(doc.page.text(), query, Case::Smart, MAX_MATCHES);
        self.search = Some(Search {
            query: query.to_string(),
            matches,
            current: None,
        });
    }

    /// Moves the cursor to the next (or previous) match after (before) the cursor line,
    /// wrapping around. `from_cursor_line`: a fresh search may match on the cursor line itself.
    pub(crate) fn search_step(&mut self, forward: bool, from_cursor_line: bool) {
        let Some(s) = self.search.as_ref() else {
            self.status = Some(("no search yet: press / to search".into(), false));
            return;
        };
        if s.matches.is_empty() {
            self.status = Some((format!("not found: {}", s.query), true));
            return;
        }
        let Some(here) = self.line_range(self.cursor) else {
            return;
        };
        let n = s.matches.len();
        let idx = if forward {
            let after = if from_cursor_line {
                here.start
            } else {
                here.end
            };
            let i = s.matches.partition_point(|m| m.start < after);
            if i == n {
                0
            } else {
                i
            }
        } else {
            let i = s.matches.partition_point(|m| m.start < here.start);
            if i == 0 {
                n - 1
            } else {
                i - 1
            }
        };
        let start = s.matches[idx].start;
        let more = if n == MAX_MATCHES { "+" } else { "" };
        let msg = format!("/{}  match {} of {n}{more}", s.query, idx + 1);
        if let Some(s) = self.search.as_mut() {
            s.current = Some(idx);
        }
        self.jump_to_byte(start);
        self.status = Some((msg, false));
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

    /// Moves the cursor to display line `line`, recording the jump in the jump list.
    pub fn jump_to_line(&mut self, line: usize) {
        let n = self.line_count();
        if n == 0 {
            return;
        }
        let line = line.min(n - 1);
        self.record_jump();
        self.cursor = line;
        self.place_view(line);
    }

    /// Places the view after a jump to display line `line` (the cursor's): a line already on
    /// screen with [`context_rows`] above it (and as many below, where the page has them) keeps
    /// the view; otherwise the view starts [`context_rows`] above it. Either way the view never
    /// shows empty rows below the page's end while lines above are hidden: on a page that fits
    /// the screen, `top` is 0. The placement is remembered, so a frame of another height
    /// (the first frame, a resized terminal) places the view again ([`App::settle_view`]).
    pub(crate) fn place_view(&mut self, line: usize) {
        let n = self.line_count();
        if n == 0 {
            self.top = 0;
            return;
        }
        let line = line.min(n - 1);
        let h = self.view_height.max(1);
        let ctx = context_rows(h);
        let above = ctx.min(line);
        let below = ctx.min(n - 1 - line);
        let in_view = line >= self.top + above && line + below < self.top + h;
        if !in_view {
            self.top = line - above;
        }
        self.top = self.top.min(n.saturating_sub(h));
        self.placed = Some((line, self.top, h));
    }

    /// Fits the view to a source panel of `rows` text rows; the drawing code calls it before
    /// every frame. A view a jump placed is fitted to the new height ([`App::settle_view`]),
    /// the cursor stays on a line of the page and on screen, and the highlighter is asked for
    /// the lines shown.
    pub fn fit_view(&mut self, rows: usize) {
        self.view_height = rows;
        self.settle_view();
        let n = self.line_count();
        if self.cursor >= n {
            self.cursor = n.saturating_sub(1);
        }
        if self.top > self.cursor || self.cursor >= self.top + self.view_height {
            self.top = self
                .cursor
                .saturating_sub(self.view_height.saturating_sub(1).min(self.cursor));
        }
        self.request_highlight();
    }

    /// Called by the drawing code once the frame's view height is known. A view placed by a
    /// jump for another height (the first frame, a resized terminal, an explain panel that
    /// grew), with cursor and view unmoved since, is fitted to this one: placed again when the
    /// cursor lacks its context there ([`App::place_view`]), else only kept from showing empty
    /// rows below the page's end.
    pub fn settle_view(&mut self) {
        let Some((line, top, h)) = self.placed else {
            return;
        };
        if line != self.cursor || top != self.top {
            self.placed = None;
            return;
        }
        let now = self.view_height.max(1);
        if h == now {
            return;
        }
        let n = self.line_count();
        let above = context_rows(now).min(line);
        if line < self.top + above || line >= self.top + now {
            self.place_view(line);
        } else {
            self.top = self.top.min(n.saturating_sub(now));
            self.placed = Some((line, self.top, now));
        }
    }

    /// Moves the cursor to the display line holding byte `b` of the page text, recording the
    /// jump in the jump list.
    pub fn jump_to_byte(&mut self, b: usize) {
        let line = self.line_at_byte(b);
        self.jump_to_line(line);
    }

    /// Pushes the cursor position (as a byte offset) on the jump list, dropping the forward
    /// history.
    fn record_jump(&mut self) {
        let Some(here) = self.line_range(self.cursor).map(|r| r.start) else {
            return;
        };
        self.jumps.truncate(self.jump_at);
        if self.jumps.last() != Some(&here) {
            self.jumps.push(here);
        }
        if self.jumps.len() > MAX_JUMPS {
            self.jumps.remove(0);
        }
        self.jump_at = self.jumps.len();
    }

    /// Back (`back`) or forward in the jump list.
    pub(crate) fn jump_history(&mut self, back: bool) {
        let here = self.line_range(self.cursor).map_or(0, |r| r.start);
        if back {
            if self.jump_at == 0 {
                self.status = Some(("at the start of the jump list".into(), false));
                return;
            }
            // Leaving the newest position: remember it so forward returns to it.
            if self.jump_at == self.jumps.len() && self.jumps.last() != Some(&here) {
                self.jumps.push(here);
            }
            self.jump_at -= 1;
        } else {
            if self.jump_at + 1 >= self.jumps.len() {
                self.status = Some(("at the end of the jump list".into(), false));
                return;
            }
            self.jump_at += 1;
        }
        let b = self.jumps[self.jump_at];
        self.cursor = self.line_at_byte(b);
        self.place_view(self.cursor);
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
