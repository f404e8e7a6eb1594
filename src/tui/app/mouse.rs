//! The mouse: the wheel scrolls the source or the explain panel; clicks and drags on the
//! source, histogram, overview, sliders and page list.

use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Position;

use super::{App, View};
use crate::tui::panels::histogram::HistogramAsk;
use crate::tui::panels::Handled;

impl App {
    /// Handles one mouse event (wheel scrolls; clicks on the histogram, overview, sliders and
    /// corpus list).
    pub fn handle_mouse(&mut self, ev: MouseEvent) {
        let p = Position::new(ev.column, ev.row);
        // The events handled below change the app; the others (a move, a release, another
        // button) leave it, and the frame, as they were.
        if matches!(
            ev.kind,
            MouseEventKind::ScrollDown
                | MouseEventKind::ScrollUp
                | MouseEventKind::Down(MouseButton::Left)
                | MouseEventKind::Drag(MouseButton::Left)
        ) {
            self.changed();
        }
        match ev.kind {
            MouseEventKind::ScrollDown if self.rects.explain.contains(p) => {
                self.explain.wheel(true, self.rects.explain_overflow);
            }
            MouseEventKind::ScrollUp if self.rects.explain.contains(p) => {
                self.explain.wheel(false, self.rects.explain_overflow);
            }
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
                let n = self.line_count();
                self.source.wheel(ev.kind == MouseEventKind::ScrollDown, n);
            }
            MouseEventKind::Down(MouseButton::Left) | MouseEventKind::Drag(MouseButton::Left) => {
                let r = self.rects.clone();
                let n = self.line_count();
                // The histogram's bars and overview show the source's lines: a click there
                // moves the source panel's cursor.
                let hist = self
                    .histogram
                    .click(p, r.histogram, r.overview, self.source.top(), n);
                if let Handled::Ask(ask) = hist {
                    match ask {
                        HistogramAsk::GoTo(line) => self.source.go_to(line, n),
                        HistogramAsk::CenterOn(line) => self.source.center_on(line, n),
                    }
                } else if r.source.contains(p) {
                    let line = self.source.top() + (p.y - r.source.y) as usize;
                    let col = p.x.saturating_sub(r.source_text_x) as usize;
                    let byte = self.byte_at(line, col);
                    let dragging = matches!(ev.kind, MouseEventKind::Drag(_));
                    let reading = self.view() == View::Reading;
                    let text = self.doc.as_ref().map_or("", |d| d.page.text());
                    // The end of the character at `lo` (which may take several bytes).
                    let one_char = |lo: usize| {
                        lo + text
                            .get(lo..)
                            .and_then(|t| t.chars().next())
                            .map_or(0, char::len_utf8)
                    };
                    if let (Some(ann), Some(b)) = (self.ann.as_mut(), byte) {
                        if dragging {
                            if let Some(a) = ann.drag_anchor {
                                ann.visual = None;
                                let (lo, hi) = (a.min(b), a.max(b));
                                let mut end = hi.max(one_char(lo)).max(one_char(hi));
                                let mut lo = lo;
                                if reading {
                                    // The reading view selects whole words.
                                    (lo, end) = snap_to_words(text, lo, end);
                                }
                                ann.char_sel = (end > lo).then_some(lo..end);
                            }
                        } else {
                            ann.drag_anchor = Some(b);
                            ann.char_sel = None;
                        }
                    }
                    self.source.go_to(line, n);
                } else if let Some(k) = r.params.iter().position(|rc| rc.contains(p)) {
                    let rc = r.params[k];
                    let frac = (p.x - rc.x) as f64 / (rc.width.max(2) - 1) as f64;
                    self.set_param_fraction(k, frac);
                } else if r.corpus.contains(p) {
                    if let Some(c) = &self.corpus {
                        let row = (p.y - r.corpus.y) as usize;
                        let vis = c.visible();
                        let pos = vis.iter().position(|&i| i == c.current).unwrap_or(0);
                        let first = pos.saturating_sub(r.corpus.height as usize / 2);
                        if let Some(&i) = vis.get(first + row) {
                            self.open_entry(i);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// `lo..hi` widened to whole words of `text`: left while the char before `lo` is alphanumeric,
/// right while the char at `hi` is.
fn snap_to_words(text: &str, mut lo: usize, mut hi: usize) -> (usize, usize) {
    let word = |c: char| c.is_alphanumeric() || c == '\'' || c == '’';
    while let Some(c) = text.get(..lo).and_then(|t| t.chars().next_back()) {
        if !word(c) {
            break;
        }
        lo -= c.len_utf8();
    }
    while let Some(c) = text.get(hi..).and_then(|t| t.chars().next()) {
        if !word(c) {
            break;
        }
        hi += c.len_utf8();
    }
    (lo, hi)
}
