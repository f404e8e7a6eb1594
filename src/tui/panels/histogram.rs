//! The histogram panel beside the source: what it draws (the content / code signals, or the
//! combined signal: `ToggleDiffView`) and its clicks — a bar puts the cursor on its line, the
//! overview column centres the view on the part of the page it stands for — and what a frame
//! of it shows ([`HistogramFrame`], worked out before the frame is drawn).
//!
//! The histogram has no scroll of its own, by design: its rows are the source panel's display
//! lines, row for row, so that a bar stands beside its line. Its first row and its cursor row
//! are the source panel's ([`super::source::SourcePanel::top`],
//! [`super::source::SourcePanel::cursor`]), passed in as arguments; a click asks the app to move
//! the source panel's cursor ([`HistogramAsk`]) rather than keeping a second copy of it.

use std::ops::Range;
use std::sync::Arc;

use ratatui::layout::{Position, Rect};

use super::Handled;
use crate::extract::LineTrace;
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

/// What the histogram draws, chosen from the roles of the active algorithm's series alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HistMode {
    /// The code signal left of the axis, the content signal right.
    TwoSided,
    /// The combined signal, signed.
    Combined,
    /// A size series, grey, right of the axis.
    Size,
    /// Nothing revealed yet.
    #[default]
    Empty,
}

/// What a frame of the histogram shows, worked out before the frame is drawn (with the rest of
/// the frame, by `crate::tui::ui::prepare`) so that drawing only reads it: the series chosen,
/// their scale, the candidate-set columns and the overview's selected lines. Series and marks
/// are indices into the trace's `series` and `marks`.
#[derive(Debug, Clone, PartialEq)]
pub struct HistogramFrame {
    /// The title: the drawn series by key (`code ◀ │ ▶ content`, or the label of the one
    /// series), or the step-mode marker.
    pub title: String,
    /// The active algorithm's line trace, an unfolding phase's marks cut to the spans revealed
    /// so far; `None` while the algorithm has no result ("running…").
    pub trace: Option<Arc<LineTrace>>,
    /// What is drawn.
    pub mode: HistMode,
    /// The series left of the axis.
    pub left: Option<usize>,
    /// The series right of the axis (the combined signal: both sides, by sign).
    pub right: Option<usize>,
    /// Revealed thresholds and superseded sizes, drawn as marker lines.
    pub markers: Vec<usize>,
    /// Revealed threshold scalars: a marker at the same value on every line.
    pub scalar_marks: Vec<f64>,
    /// What a full half-width bar stands for (longer bars are clipped and show their number).
    pub scale: f64,
    /// The revealed candidate sets with a column each, when there are several (marks).
    pub strip: Vec<usize>,
    /// The display lines the overview column shows selected (the active algorithm's decision,
    /// once step mode has revealed it).
    pub overview: Vec<Range<usize>>,
}

impl Default for HistogramFrame {
    /// No trace, nothing drawn, a scale of 1.
    fn default() -> Self {
        HistogramFrame {
            title: " histogram ".to_string(),
            trace: None,
            mode: HistMode::Empty,
            left: None,
            right: None,
            markers: Vec::new(),
            scalar_marks: Vec::new(),
            scale: 1.0,
            strip: Vec::new(),
            overview: Vec::new(),
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
