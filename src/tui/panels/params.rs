//! The parameter bar's panel: which parameter of the active algorithm has the focus, and the
//! slider keys — Tab / Shift-Tab move the focus, `+` / `-` (and the big steps) step the focused
//! parameter, `0` resets it to its default. The values themselves belong to the algorithms
//! (the app's `AlgoState::params`): the panel asks the app to change them and run the
//! algorithm again.

use super::Handled;
use crate::tui::keymap::Action;

/// The parameter bar's state: the focused parameter (index into the active algorithm's
/// parameter specs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ParamsPanel {
    focus: usize,
}

/// What the parameter bar asks of the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamAsk {
    /// Step the focused parameter by this many steps (negative: down; a choice or a flag moves
    /// one step whatever the number) and run the algorithm again.
    Step(i32),
    /// Reset the focused parameter to its default and run the algorithm again.
    Reset,
}

impl ParamsPanel {
    /// The focused parameter (index into the active algorithm's parameter specs).
    pub fn focus(&self) -> usize {
        self.focus
    }

    /// Focuses parameter `k` (a click on its slider; the first when another algorithm becomes
    /// active).
    pub fn set_focus(&mut self, k: usize) {
        self.focus = k;
    }

    /// The parameter bar's actions; `n` is the number of parameters of the active algorithm.
    /// Tab / Shift-Tab move the focus round them; the slider keys ask for a step or a reset.
    pub fn handle(&mut self, a: Action, n: usize) -> Handled<ParamAsk> {
        match a {
            Action::NextParam | Action::PrevParam => {
                if n > 0 {
                    self.focus = if a == Action::NextParam {
                        (self.focus + 1) % n
                    } else {
                        (self.focus + n - 1) % n
                    };
                }
                Handled::Consumed
            }
            Action::ParamInc => Handled::Ask(ParamAsk::Step(1)),
            Action::ParamDec => Handled::Ask(ParamAsk::Step(-1)),
            Action::ParamIncBig => Handled::Ask(ParamAsk::Step(10)),
            Action::ParamDecBig => Handled::Ask(ParamAsk::Step(-10)),
            Action::ParamReset => Handled::Ask(ParamAsk::Reset),
            _ => Handled::NotConsumed,
        }
    }
}
