//! The source panel: which display lines it shows
//! ([`View`]: virtual lines, raw lines or the reading view), the cursor's display line, the
//! first line on screen, the horizontal scroll, the height of the last frame, the last search
//! and its matches, the jump list and where a jump placed the view. The histogram beside it
//! ([`super::histogram`]) shows the same lines, row for row: it reads this panel's first line
//! and cursor and has no scroll of its own.
//!
//! What the lines are is the page's: every method that needs them takes the byte ranges of the
//! display lines of the panel's view (`lines`, [`crate::tui::app::Doc::lines`]; empty without a
//! page), so the panel maps bytes to lines and back without seeing the app. The navigation keys
//! (cursor motions, page up / down, top / bottom, horizontal scroll, search next / previous,
//! jump list back / forward) are [`SourcePanel::handle`]'s; what needs the whole app — jumps to
//! the active algorithm's regions, the gold's differences, a block, the selection of a page
//! just opened; the raw / reading toggle, which keeps the visual-mode anchor on its text —
//! stays in the app and calls the panel's methods ([`SourcePanel::jump_to_line`],
//! [`SourcePanel::switch_view`], [`SourcePanel::open_at_byte`], …).

use std::ops::Range;

use super::Handled;
use crate::page::find::{find_all, Case};
use crate::tui::keymap::Action;

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

/// Which display lines the source panel shows. Exactly one at a time; it also names the entry
/// of the caches kept per kind of display line (`crate::tui::app::PerView`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// Virtual lines ([`crate::page::Page::lines`]), the default.
    #[default]
    Virtual,
    /// The raw (physical) lines of the source.
    Raw,
    /// The reading view: the page's text as a reader sees it
    /// ([`crate::page::Page::reading_lines`]).
    Reading,
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

/// What the source panel asks of the app: a message for the status bar, `(text, is_error)`
/// (where a search match is, that nothing was found, the end of the jump list).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceAsk {
    /// Show this message in the status bar (`true`: an error, which stops a count's repeats).
    Status(String, bool),
}

/// The source panel's state.
#[derive(Debug, Clone, PartialEq)]
pub struct SourcePanel {
    /// Which display lines are shown (`r` and `w` switch).
    view: View,
    /// The source lines (virtual or raw) the reading view returns to (`w`).
    source_view: View,
    /// First display line on screen.
    top: usize,
    /// The cursor's display line.
    cursor: usize,
    /// Horizontal scroll in characters.
    hscroll: usize,
    /// Text rows of the source view in the last frame.
    height: usize,
    /// The last search in the source and its matches.
    search: Option<Search>,
    /// The jump list: positions (byte offsets) the cursor jumped from.
    jumps: Vec<usize>,
    /// Where in `jumps` the cursor is (`jumps.len()` = after the newest).
    jump_at: usize,
    /// The byte the cursor was on at the last raw / virtual toggle.
    toggle_byte: Option<usize>,
    /// The last view placed by a jump: (cursor line, top, view height)
    /// ([`SourcePanel::place_view`]).
    placed: Option<(usize, usize, usize)>,
    /// The page was opened while the active algorithm ran on a worker: (cursor, top) at
    /// opening ([`SourcePanel::wait_for_selection`]).
    open_pending: Option<(usize, usize)>,
}

impl Default for SourcePanel {
    /// Virtual lines, the cursor on the first, a height of 20 rows until the first frame.
    fn default() -> Self {
        SourcePanel {
            view: View::Virtual,
            source_view: View::Virtual,
            top: 0,
            cursor: 0,
            hscroll: 0,
            height: 20,
            search: None,
            jumps: Vec::new(),
            jump_at: 0,
            toggle_byte: None,
            placed: None,
            open_pending: None,
        }
    }
}

/// The display line of `lines` containing byte `b` (in the reading view, the first line ending
/// after it); 0 without lines.
pub fn line_at_byte(lines: &[Range<usize>], b: usize) -> usize {
    lines
        .partition_point(|r| r.end <= b)
        .min(lines.len().saturating_sub(1))
}

impl SourcePanel {
    /// Which display lines are shown.
    pub fn view(&self) -> View {
        self.view
    }

    /// The cursor's display line.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The first display line on screen.
    pub fn top(&self) -> usize {
        self.top
    }

    /// The horizontal scroll, in characters.
    pub fn hscroll(&self) -> usize {
        self.hscroll
    }

    /// Text rows of the source view in the last frame (20 before the first).
    pub fn height(&self) -> usize {
        self.height
    }

    /// The last search and its matches, if any.
    pub fn search(&self) -> Option<&Search> {
        self.search.as_ref()
    }

    /// Puts the cursor on display line `line` as is (the next frame keeps it on the page and
    /// on screen): for callers that place it themselves, as the tests do.
    pub fn set_cursor(&mut self, line: usize) {
        self.cursor = line;
    }

    /// Makes display line `top` the first on screen as is (see [`SourcePanel::set_cursor`]).
    pub fn set_top(&mut self, top: usize) {
        self.top = top;
    }

    /// A page was opened: the cursor and the view at its start, and the positions and matches,
    /// which belong to the page they were found on, forgotten. The view (virtual, raw, reading)
    /// stays.
    pub fn page_opened(&mut self) {
        *self = SourcePanel {
            view: self.view,
            source_view: self.source_view,
            height: self.height,
            ..SourcePanel::default()
        };
    }

    /// A navigation key: cursor motions, page up / down, top / bottom, horizontal scroll,
    /// search next / previous and the jump list, over display lines `lines`; other actions are
    /// not the panel's. What it has to say goes to the status bar ([`SourceAsk::Status`]).
    pub fn handle(&mut self, a: Action, lines: &[Range<usize>]) -> Handled<SourceAsk> {
        let n = lines.len();
        let h = self.height.max(1);
        match a {
            Action::CursorDown => self.move_cursor(1, n),
            Action::CursorUp => self.move_cursor(-1, n),
            Action::PageDown => {
                self.top = (self.top + h).min(n.saturating_sub(1));
                self.move_cursor(h as isize, n);
            }
            Action::PageUp => {
                self.top = self.top.saturating_sub(h);
                self.move_cursor(-(h as isize), n);
            }
            Action::Top => {
                self.cursor = 0;
                self.ensure_visible(n);
            }
            Action::Bottom => {
                self.cursor = n.saturating_sub(1);
                self.ensure_visible(n);
            }
            Action::ScrollLeft => self.hscroll = self.hscroll.saturating_sub(8),
            Action::ScrollRight => self.hscroll += 8,
            Action::SearchNext | Action::SearchPrev => {
                return self.search_step(a == Action::SearchNext, false, lines);
            }
            Action::JumpBack | Action::JumpForward => {
                return self.jump_history(a == Action::JumpBack, lines);
            }
            _ => return Handled::NotConsumed,
        }
        Handled::Consumed
    }

    /// Keeps the cursor on a line of a page of `n` lines and on screen, scrolling as little as
    /// it can.
    pub fn ensure_visible(&mut self, n: usize) {
        if n == 0 {
            self.cursor = 0;
            self.top = 0;
            return;
        }
        self.cursor = self.cursor.min(n - 1);
        let h = self.height.max(1);
        if self.cursor < self.top {
            self.top = self.cursor;
        } else if self.cursor >= self.top + h {
            self.top = self.cursor + 1 - h;
        }
        self.top = self.top.min(n.saturating_sub(1));
    }

    /// Moves the cursor `delta` lines (clamped to a page of `n` lines), keeping it on screen.
    pub fn move_cursor(&mut self, delta: isize, n: usize) {
        let last = (n as isize - 1).max(0);
        self.cursor = (self.cursor as isize + delta).clamp(0, last) as usize;
        self.ensure_visible(n);
    }

    /// Puts the cursor on display line `line` and keeps it on screen (a click).
    pub fn go_to(&mut self, line: usize, n: usize) {
        self.cursor = line;
        self.ensure_visible(n);
    }

    /// Puts the cursor on display line `line` with the view centred on it (a click on the
    /// overview).
    pub fn center_on(&mut self, line: usize, n: usize) {
        self.cursor = line;
        self.top = self.cursor.saturating_sub(self.height / 2);
        self.ensure_visible(n);
    }

    /// The mouse wheel: the view three lines down (`down`) or up on a page of `n` lines, the
    /// cursor carried along when it would leave the screen.
    pub fn wheel(&mut self, down: bool, n: usize) {
        if down {
            self.top = (self.top + 3).min(n.saturating_sub(1));
            if self.cursor < self.top {
                self.cursor = self.top;
            }
        } else {
            self.top = self.top.saturating_sub(3);
            if self.cursor >= self.top + self.height {
                self.cursor = self.top + self.height.saturating_sub(1);
            }
        }
    }

    /// Runs a search for `query` over the page text `text` (smart case; see
    /// [`crate::page::find::Case::Smart`]); an empty query clears it.
    pub fn set_search(&mut self, text: &str, query: &str) {
        if query.is_empty() {
            self.search = None;
            return;
        }
        let matches = find_all(text, query, Case::Smart, MAX_MATCHES);
        self.search = Some(Search {
            query: query.to_string(),
            matches,
            current: None,
        });
    }

    /// Moves the cursor to the next (or previous) match after (before) the cursor line,
    /// wrapping around. `from_cursor_line`: a fresh search may match on the cursor line itself.
    pub fn search_step(
        &mut self,
        forward: bool,
        from_cursor_line: bool,
        lines: &[Range<usize>],
    ) -> Handled<SourceAsk> {
        let Some(s) = self.search.as_mut() else {
            return Handled::Ask(SourceAsk::Status(
                "no search yet: press / to search".into(),
                false,
            ));
        };
        if s.matches.is_empty() {
            return Handled::Ask(SourceAsk::Status(format!("not found: {}", s.query), true));
        }
        let Some(here) = lines.get(self.cursor).cloned() else {
            return Handled::Consumed;
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
        s.current = Some(idx);
        self.jump_to_byte(start, lines);
        Handled::Ask(SourceAsk::Status(msg, false))
    }

    /// Moves the cursor to display line `line` (clamped to the page), recording the jump in
    /// the jump list, and places the view ([`SourcePanel::place_view`]).
    pub fn jump_to_line(&mut self, line: usize, lines: &[Range<usize>]) {
        let n = lines.len();
        if n == 0 {
            return;
        }
        let line = line.min(n - 1);
        self.record_jump(lines);
        self.cursor = line;
        self.place_view(line, n);
    }

    /// Moves the cursor to the display line holding byte `b` of the page text, recording the
    /// jump in the jump list.
    pub fn jump_to_byte(&mut self, b: usize, lines: &[Range<usize>]) {
        self.jump_to_line(line_at_byte(lines, b), lines);
    }

    /// Places the view after a jump to display line `line` (the cursor's) on a page of `n`
    /// lines: a line already on screen with [`context_rows`] above it (and as many below, where
    /// the page has them) keeps the view; otherwise the view starts [`context_rows`] above it.
    /// Either way the view never shows empty rows below the page's end while lines above are
    /// hidden: on a page that fits the screen, `top` is 0. The placement is remembered, so a
    /// frame of another height (the first frame, a resized terminal) places the view again
    /// ([`SourcePanel::settle`]).
    pub fn place_view(&mut self, line: usize, n: usize) {
        if n == 0 {
            self.top = 0;
            return;
        }
        let line = line.min(n - 1);
        let h = self.height.max(1);
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

    /// Fits the view to a source panel of `rows` text rows on a page of `n` lines (before every
    /// frame): a view a jump placed is fitted to the new height ([`SourcePanel::settle`]), and
    /// the cursor stays on a line of the page and on screen.
    pub fn fit(&mut self, rows: usize, n: usize) {
        self.height = rows;
        self.settle(n);
        if self.cursor >= n {
            self.cursor = n.saturating_sub(1);
        }
        if self.top > self.cursor || self.cursor >= self.top + self.height {
            self.top = self
                .cursor
                .saturating_sub(self.height.saturating_sub(1).min(self.cursor));
        }
    }

    /// Once the frame's height is known: a view placed by a jump for another height (the first
    /// frame, a resized terminal, an explain panel that grew), with cursor and view unmoved
    /// since, is fitted to this one — placed again when the cursor lacks its context there
    /// ([`SourcePanel::place_view`]), else only kept from showing empty rows below the page's
    /// end.
    pub fn settle(&mut self, n: usize) {
        let Some((line, top, h)) = self.placed else {
            return;
        };
        if line != self.cursor || top != self.top {
            self.placed = None;
            return;
        }
        let now = self.height.max(1);
        if h == now {
            return;
        }
        let above = context_rows(now).min(line);
        if line < self.top + above || line >= self.top + now {
            self.place_view(line, n);
        } else {
            self.top = self.top.min(n.saturating_sub(now));
            self.placed = Some((line, self.top, now));
        }
    }

    /// Pushes the cursor position (as a byte offset) on the jump list, dropping the forward
    /// history.
    fn record_jump(&mut self, lines: &[Range<usize>]) {
        let Some(here) = lines.get(self.cursor).map(|r| r.start) else {
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
    pub fn jump_history(&mut self, back: bool, lines: &[Range<usize>]) -> Handled<SourceAsk> {
        let here = lines.get(self.cursor).map_or(0, |r| r.start);
        if back {
            if self.jump_at == 0 {
                return Handled::Ask(SourceAsk::Status(
                    "at the start of the jump list".into(),
                    false,
                ));
            }
            // Leaving the newest position: remember it so forward returns to it.
            if self.jump_at == self.jumps.len() && self.jumps.last() != Some(&here) {
                self.jumps.push(here);
            }
            self.jump_at -= 1;
        } else {
            if self.jump_at + 1 >= self.jumps.len() {
                return Handled::Ask(SourceAsk::Status(
                    "at the end of the jump list".into(),
                    false,
                ));
            }
            self.jump_at += 1;
        }
        let b = self.jumps[self.jump_at];
        self.cursor = line_at_byte(lines, b);
        self.place_view(self.cursor, lines.len());
        Handled::Consumed
    }

    /// The view `r` switches to: raw lines, or back to virtual lines (from the reading view:
    /// raw lines).
    pub fn raw_toggle(&self) -> View {
        if self.view == View::Raw {
            View::Virtual
        } else {
            View::Raw
        }
    }

    /// The view `w` switches to: the reading view, or back to the source lines it was entered
    /// from.
    pub fn reading_toggle(&self) -> View {
        if self.view == View::Reading {
            self.source_view
        } else {
            View::Reading
        }
    }

    /// Switches to view `to`, keeping the cursor on the text it was on and as many rows from
    /// the top; `lines_of` gives the display lines of a view. Toggling back and forth without
    /// moving comes back to the same line: the byte the cursor stood on before the previous
    /// toggle is kept while the cursor stays on its line (a raw line holds several virtual
    /// lines, so mapping line starts back and forth would drift up a few lines per round trip).
    pub fn switch_view<'a>(&mut self, to: View, lines_of: impl Fn(View) -> &'a [Range<usize>]) {
        let here = lines_of(self.view)
            .get(self.cursor)
            .cloned()
            .unwrap_or(0..0);
        let byte = match self.toggle_byte {
            Some(b) if here.start <= b && (b < here.end || here.is_empty()) => b,
            _ => here.start,
        };
        let rows_above = self.cursor.saturating_sub(self.top);
        self.view = to;
        if to != View::Reading {
            self.source_view = to;
        }
        let lines = lines_of(to);
        self.cursor = line_at_byte(lines, byte);
        self.top = self.cursor.saturating_sub(rows_above);
        self.toggle_byte = Some(byte);
        self.ensure_visible(lines.len());
    }

    /// Puts the cursor of a page just opened on the display line holding byte `b` and places
    /// the view there (no jump recorded).
    pub fn open_at_byte(&mut self, b: usize, lines: &[Range<usize>]) {
        self.open_pending = None;
        self.cursor = line_at_byte(lines, b);
        self.place_view(self.cursor, lines.len());
    }

    /// The page was opened while the algorithm that places its view still runs: remember where
    /// the view is, so that its result can place it ([`SourcePanel::unmoved_since_open`]).
    pub fn wait_for_selection(&mut self) {
        self.open_pending = Some((self.cursor, self.top));
    }

    /// Nothing to wait for to place the view of the page opened.
    pub fn stop_waiting(&mut self) {
        self.open_pending = None;
    }

    /// The awaited result arrived: is the view where it was when the page opened (then the app
    /// places it)? A view the user moved meanwhile stays, and nothing is awaited any more.
    pub fn unmoved_since_open(&mut self) -> bool {
        if self.open_pending == Some((self.cursor, self.top)) {
            true
        } else {
            self.open_pending = None;
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten lines of ten bytes each.
    fn lines() -> Vec<Range<usize>> {
        (0..10).map(|i| i * 10..i * 10 + 10).collect()
    }

    #[test]
    fn motions_keep_the_cursor_on_the_page_and_on_screen() {
        let l = lines();
        let mut p = SourcePanel::default();
        p.fit(4, l.len());
        assert_eq!(p.handle(Action::CursorUp, &l), Handled::Consumed);
        assert_eq!((p.cursor(), p.top()), (0, 0));
        for _ in 0..5 {
            p.handle(Action::CursorDown, &l);
        }
        assert_eq!((p.cursor(), p.top()), (5, 2));
        p.handle(Action::Bottom, &l);
        assert_eq!((p.cursor(), p.top()), (9, 6));
        p.handle(Action::PageUp, &l);
        assert_eq!((p.cursor(), p.top()), (5, 2));
        p.handle(Action::Top, &l);
        assert_eq!((p.cursor(), p.top()), (0, 0));
        assert_eq!(p.handle(Action::Quit, &l), Handled::NotConsumed);
    }

    #[test]
    fn search_steps_wrap_and_the_jump_list_returns() {
        let l = lines();
        let text: String = (0..10).map(|i| format!("line {i}   \n")).collect();
        let mut p = SourcePanel::default();
        p.fit(4, l.len());
        p.set_search(&text, "line 7");
        let said = p.search_step(true, true, &l);
        assert_eq!(
            said,
            Handled::Ask(SourceAsk::Status("/line 7  match 1 of 1".into(), false))
        );
        assert_eq!(p.cursor(), 7);
        assert_eq!(p.handle(Action::JumpBack, &l), Handled::Consumed);
        assert_eq!(p.cursor(), 0);
        assert_eq!(p.handle(Action::JumpForward, &l), Handled::Consumed);
        assert_eq!(p.cursor(), 7);
        assert!(matches!(
            p.handle(Action::JumpForward, &l),
            Handled::Ask(SourceAsk::Status(_, false))
        ));
        // The next match wraps around to the only one.
        p.handle(Action::CursorDown, &l);
        p.handle(Action::SearchNext, &l);
        assert_eq!(p.cursor(), 7);
        p.set_search(&text, "nowhere");
        assert!(matches!(
            p.handle(Action::SearchNext, &l),
            Handled::Ask(SourceAsk::Status(_, true))
        ));
    }

    #[test]
    fn a_view_switch_and_back_keeps_the_byte() {
        // Raw lines of 20 bytes, each two virtual lines of 10.
        let v = lines();
        let r: Vec<Range<usize>> = (0..5).map(|i| i * 20..i * 20 + 20).collect();
        let of = |w: View| -> &[Range<usize>] {
            if w == View::Raw {
                &r
            } else {
                &v
            }
        };
        let mut p = SourcePanel::default();
        p.fit(4, v.len());
        p.go_to(7, v.len());
        p.switch_view(p.raw_toggle(), of);
        assert_eq!((p.view(), p.cursor()), (View::Raw, 3));
        p.switch_view(p.raw_toggle(), of);
        assert_eq!((p.view(), p.cursor()), (View::Virtual, 7));
    }
}
