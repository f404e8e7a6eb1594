//! The review panel (`V`): whether a review of draft gold files is on, and its single keys —
//! `a` accept, `E` no main content, `f` flag, `s` skip, `n` a note, Esc ends it. What each
//! means for the gold file (saving, moving to the next page of the queue) is the app's: the
//! panel asks for it. The review is a state beside the input modes: typing a line number or a
//! search does not end it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::Handled;

/// The review's state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Review {
    /// A review is on.
    active: bool,
    /// The last review key was an `a` that was refused for an unconfirmed headline: a second
    /// `a` accepts without a headline.
    pending_accept: bool,
    /// The review opened a page whose blocks were still being built: the records panel opens
    /// when they arrive, if the page has records.
    records_on_ready: bool,
}

/// What a review key asks of the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewAsk {
    /// `a`: save the page as final and go to the next; `again` when the previous key was an
    /// `a` refused for an unconfirmed headline (this one leaves the headline out).
    Accept {
        /// The second `a` in a row.
        again: bool,
    },
    /// `E`: the page has no main content (saved as final) and go to the next.
    NoMainContent,
    /// `f`: flag the page (kept a draft) and go to the next.
    Flag,
    /// `s`: go to the next page of the queue without writing.
    Skip,
    /// `n`: type a note.
    Note,
    /// Esc: end the review.
    End,
}

impl Review {
    /// Is a review on?
    pub fn is_active(&self) -> bool {
        self.active
    }

    /// Starts the review (no `a` pending).
    pub fn start(&mut self) {
        self.active = true;
        self.pending_accept = false;
    }

    /// Ends the review.
    pub fn end(&mut self) {
        self.active = false;
        self.pending_accept = false;
    }

    /// An `a` was refused for an unconfirmed headline: the next `a` accepts without it.
    pub fn refused_accept(&mut self) {
        self.pending_accept = true;
    }

    /// Whether the records panel opens when the open page's blocks arrive (set when the review
    /// opens a page whose blocks are being built).
    pub fn set_records_on_ready(&mut self, on: bool) {
        self.records_on_ready = on;
    }

    /// Takes the wish to open the records panel when the blocks arrive (false afterwards).
    pub fn take_records_on_ready(&mut self) -> bool {
        std::mem::take(&mut self.records_on_ready)
    }

    /// A key while reviewing (not typing a note). `busy`: a table is open, or a visual or
    /// mouse selection is on — Esc then goes to them, not to the review. Keys with a modifier
    /// other than Shift, and keys that are not the review's, are not consumed (they work as
    /// usual); any key ends a pending second `a`.
    pub fn handle_key(&mut self, ev: KeyEvent, busy: bool) -> Handled<ReviewAsk> {
        if !ev.modifiers.is_empty() && ev.modifiers != KeyModifiers::SHIFT {
            return Handled::NotConsumed;
        }
        let pending = std::mem::take(&mut self.pending_accept);
        Handled::Ask(match ev.code {
            // Esc first drops a visual or mouse selection, or closes a table (the records
            // panel), as outside the review.
            KeyCode::Esc if busy => return Handled::NotConsumed,
            KeyCode::Esc => ReviewAsk::End,
            KeyCode::Char('a') => ReviewAsk::Accept { again: pending },
            KeyCode::Char('E') => ReviewAsk::NoMainContent,
            KeyCode::Char('f') => ReviewAsk::Flag,
            KeyCode::Char('s') => ReviewAsk::Skip,
            KeyCode::Char('n') => ReviewAsk::Note,
            _ => return Handled::NotConsumed,
        })
    }
}
