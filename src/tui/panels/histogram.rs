//! The histogram panel beside the source: what it draws (the content / code signals, or the
//! combined signal: `ToggleDiffView`) and its clicks — a bar puts the cursor on its line, the
//! overview column centres the view on the part of the page it stands for.
//!
//! The histogram has no scroll of its own, by design: its rows are the source panel's display
//! lines, row for row, so that a bar stands beside its line. Its first row and its cursor row
//! are the source panel's ([`super::source::SourcePanel::top`],
//! [`super::source::SourcePanel::cursor`]), passed in as arguments; a click asks the app to move
//! the source panel's cursor ([`HistogramAsk`]) rather than keeping a second copy of it.

use ratatui::layout::{Position, Rect};

use super::Handled;
use crate::tui::keymap::Action;

/// What the histogram panel asks of the app: moves of the source panel's cursor, whose lines
/// the histogram shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistogramAsk {
    /// Put the cursor on display line `.0` and keep it on screen (a click on a bar).
    GoTo(usize),
    /// Put the cursor on display line `.0` with the view centred on it (a click on the
    /// overview column).
    CenterOn(usize),
}

/// The histogram panel's state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistogramPanel {
    /// The combined signal is drawn instead of the content / code signals (where the active
    /// algorithm has both).
    combined: bool,
}

impl HistogramPanel {
    /// Is the combined signal drawn instead of the content / code signals?
    pub fn combined(&self) -> bool {
        self.combined
    }

    /// The histogram's key: `ToggleDiffView` switches between the content / code signals and
    /// the combined signal. Other actions are not the panel's.
    pub fn handle(&mut self, a: Action) -> Handled<HistogramAsk> {
        match a {
            Action::ToggleDiffView => {
                self.combined = !self.combined;
                Handled::Consumed
            }
            _ => Handled::NotConsumed,
        }
    }

    /// A click (or a drag) at `p`, with the bars drawn in `bars` and the overview column in
    /// `overview` (the areas of the last frame, [`crate::tui::app::Rects`]), the source panel's
    /// first line on screen `top`, and a page of `n` display lines: a bar asks for the cursor
    /// on its line, the overview for the view centred on the line at that fraction of the
    /// page. Clicks elsewhere are not the panel's.
    pub fn click(
        &self,
        p: Position,
        bars: Rect,
        overview: Rect,
        top: usize,
        n: usize,
    ) -> Handled<HistogramAsk> {
        if overview.contains(p) && overview.height > 0 {
            let frac = f64::from(p.y - overview.y) / f64::from(overview.height);
            Handled::Ask(HistogramAsk::CenterOn((frac * n as f64) as usize))
        } else if bars.contains(p) {
            Handled::Ask(HistogramAsk::GoTo(top + usize::from(p.y - bars.y)))
        } else {
            Handled::NotConsumed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_toggle_switches_the_signals_and_other_keys_pass() {
        let mut h = HistogramPanel::default();
        assert!(!h.combined());
        assert_eq!(h.handle(Action::ToggleDiffView), Handled::Consumed);
        assert!(h.combined());
        assert_eq!(h.handle(Action::CursorDown), Handled::NotConsumed);
        assert!(h.combined());
        h.handle(Action::ToggleDiffView);
        assert!(!h.combined());
    }

    #[test]
    fn clicks_ask_for_the_source_line_beside_them() {
        let h = HistogramPanel::default();
        let bars = Rect::new(50, 2, 20, 10);
        let overview = Rect::new(71, 2, 1, 10);
        // A bar: the source's top plus the row.
        assert_eq!(
            h.click(Position::new(55, 5), bars, overview, 40, 200),
            Handled::Ask(HistogramAsk::GoTo(43))
        );
        // The overview: the row's fraction of the page (row 5 of 10 of 200 lines).
        assert_eq!(
            h.click(Position::new(71, 7), bars, overview, 40, 200),
            Handled::Ask(HistogramAsk::CenterOn(100))
        );
        // Elsewhere, and an empty overview: not the panel's.
        assert_eq!(
            h.click(Position::new(10, 5), bars, overview, 40, 200),
            Handled::NotConsumed
        );
        let none = Rect::new(71, 2, 1, 0);
        assert_eq!(
            h.click(Position::new(71, 2), Rect::default(), none, 0, 200),
            Handled::NotConsumed
        );
    }
}
