//! The popup drawn over the screen that takes the keys: none, the help (`?`) or the algorithm
//! picker (`p`, [`super::picker`]). The help is a panel of its own here: movement scrolls it,
//! Quit quits, any other action closes it (and then applies as usual).

use super::picker::Picker;
use super::Handled;
use crate::tui::keymap::Action;

/// The popup drawn over the screen that takes the keys: at most one. From the keyboard the
/// two never meet: every key but a movement closes the help first, and while the picker is
/// open every key is the picker's.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Overlay {
    /// No popup.
    #[default]
    None,
    /// The help (`?`): movement scrolls it, any other key closes it. `scroll` is its first row
    /// shown (clamped to its length when drawn).
    Help {
        /// First row shown.
        scroll: usize,
    },
    /// The algorithm picker (`p`): typed text filters its list, ↑ / ↓ move, Enter chooses, Esc
    /// cancels ([`super::picker`]).
    Picker(Picker),
}

/// What the help asks of the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpAsk {
    /// Quit the inspector (Quit while the help is shown).
    Quit,
}

impl Overlay {
    /// An action while the help is shown: movement scrolls it (the bottom is clamped to the
    /// help's length when drawn), Quit asks to quit, any other action closes it and is
    /// consumed. [`Handled::NotConsumed`] when the help is not shown.
    pub fn handle(&mut self, a: Action) -> Handled<HelpAsk> {
        let Overlay::Help { scroll } = self else {
            return Handled::NotConsumed;
        };
        match a {
            Action::CursorDown => *scroll += 1,
            Action::CursorUp => *scroll = scroll.saturating_sub(1),
            Action::PageDown => *scroll += 10,
            Action::PageUp => *scroll = scroll.saturating_sub(10),
            Action::Top => *scroll = 0,
            // Clamped to the help's length when drawn.
            Action::Bottom => *scroll = usize::MAX / 2,
            Action::Quit => return Handled::Ask(HelpAsk::Quit),
            _ => *self = Overlay::None,
        }
        Handled::Consumed
    }

    /// `?`: opens the help at its top (in place of the picker), or closes it.
    pub fn toggle_help(&mut self) {
        *self = match self {
            Overlay::Help { .. } => Overlay::None,
            _ => Overlay::Help { scroll: 0 },
        };
    }

    /// Closes the help; false when it was not shown (Esc then goes on to the next thing it
    /// closes).
    pub fn close_help(&mut self) -> bool {
        let open = matches!(self, Overlay::Help { .. });
        if open {
            *self = Overlay::None;
        }
        open
    }

    /// The help's first row shown, when the help is shown.
    pub fn help_scroll(&self) -> Option<usize> {
        match self {
            Overlay::Help { scroll } => Some(*scroll),
            _ => None,
        }
    }

    /// Clamps the help's scroll to `max` (its last first row on the screen being drawn).
    pub fn clamp_help(&mut self, max: usize) {
        if let Overlay::Help { scroll } = self {
            *scroll = (*scroll).min(max);
        }
    }

    /// The picker, when it is open.
    pub fn picker(&self) -> Option<&Picker> {
        match self {
            Overlay::Picker(p) => Some(p),
            _ => None,
        }
    }

    /// The picker, when it is open, to hand it a key.
    pub fn picker_mut(&mut self) -> Option<&mut Picker> {
        match self {
            Overlay::Picker(p) => Some(p),
            _ => None,
        }
    }
}
