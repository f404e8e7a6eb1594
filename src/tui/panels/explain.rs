//! The explain panel's state: shown or not (`e`), the first row of its text shown (the mouse
//! wheel scrolls a text longer than the panel can grow; back to the top at every key), and the
//! height it was fitted to, so that it grows to fit its text and does not shrink while the page,
//! the algorithms it explains and the screen width stay the same.

use super::Handled;
use crate::tui::keymap::Action;

/// What the explain panel's height was fitted to: page (the app's count of pages opened),
/// active and pinned algorithm, screen width.
pub type ExplainFit = (u64, usize, Option<usize>, u16);

/// The explain panel's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explain {
    shown: bool,
    scroll: usize,
    fit: Option<(ExplainFit, u16)>,
}

impl Default for Explain {
    /// Shown, at the top of its text, not yet fitted.
    fn default() -> Self {
        Explain {
            shown: true,
            scroll: 0,
            fit: None,
        }
    }
}

impl Explain {
    /// Is the panel shown?
    pub fn shown(&self) -> bool {
        self.shown
    }

    /// Shows the panel (step mode does, to say what each step does).
    pub fn show(&mut self) {
        self.shown = true;
    }

    /// The first row of the panel's text shown.
    pub fn scroll(&self) -> usize {
        self.scroll
    }

    /// Back to the top of the text (at every key).
    pub fn scroll_to_top(&mut self) {
        self.scroll = 0;
    }

    /// The mouse wheel over the panel: one row down (at most to `overflow`, the rows of text
    /// below the panel's last row in the last frame) or up.
    pub fn wheel(&mut self, down: bool, overflow: usize) {
        self.scroll = if down {
            (self.scroll + 1).min(overflow)
        } else {
            self.scroll.saturating_sub(1)
        };
    }

    /// Clamps the scroll to `overflow` (after a frame: the rows of text below the panel).
    pub fn clamp_scroll(&mut self, overflow: usize) {
        self.scroll = self.scroll.min(overflow);
    }

    /// The panel's height (borders included) when its text needs `need` rows and the frame is
    /// `fit` (page, algorithms, width): it grows to fit, and does not shrink while `fit` stays
    /// the same — so moving the cursor or stepping through the phases does not make the source
    /// view jump.
    pub fn rows(&mut self, fit: ExplainFit, need: u16) -> u16 {
        let rows = match self.fit {
            Some((k, r)) if k == fit => r.max(need),
            _ => need,
        };
        self.fit = Some((fit, rows));
        rows
    }

    /// The explain panel's own action: `e` shows or hides it.
    pub fn handle(&mut self, a: Action) -> Handled {
        match a {
            Action::ToggleExplain => {
                self.shown = !self.shown;
                Handled::Consumed
            }
            _ => Handled::NotConsumed,
        }
    }
}
