//! The algorithm picker's part in the app: opening it, its list for the algorithms, and
//! carrying out what it asks (its state and keys: [`crate::tui::panels::picker`]).

use ratatui::crossterm::event::KeyEvent;

use super::{App, Mode, Overlay};
use crate::tui::panels::picker::{self, Picker, PickerAsk};
use crate::tui::panels::Handled;

impl App {
    /// Opens the picker with an empty query, the active algorithm highlighted (in place of
    /// the help, and ending any typing).
    pub(crate) fn open_picker(&mut self) {
        let row = self
            .matches_for("")
            .iter()
            .position(|&i| i == self.active)
            .unwrap_or(0);
        self.overlay = Overlay::Picker(Picker::at(row));
        self.mode = Mode::Normal;
    }

    /// The algorithms (indices into [`App::algos`]) whose name contains `query`
    /// ([`picker::matches`]).
    fn matches_for(&self, query: &str) -> Vec<usize> {
        picker::matches(self.algos.iter().map(|a| a.extractor.name()), query)
    }

    /// The picker, when it is open.
    pub fn picker(&self) -> Option<&Picker> {
        self.overlay.picker()
    }

    /// The picker's list for its current query (empty when it is closed).
    pub fn picker_matches(&self) -> Vec<usize> {
        self.picker()
            .map_or_else(Vec::new, |p| self.matches_for(&p.query))
    }

    /// A key while the picker is open: the picker takes it ([`Picker::handle_key`]), and the
    /// app closes it or makes the chosen algorithm active when it asks.
    pub(crate) fn picker_key(&mut self, ev: KeyEvent) {
        let matches = self.picker_matches();
        let Some(p) = self.overlay.picker_mut() else {
            return;
        };
        match p.handle_key(ev, &matches) {
            Handled::Ask(PickerAsk::Close(chosen)) => self.close_picker(chosen),
            Handled::Ask(PickerAsk::Refuse(msg)) => self.status = Some((msg, true)),
            Handled::Consumed | Handled::NotConsumed => {}
        }
    }

    /// Closes the picker; `Some(i)` makes algorithm `i` active.
    fn close_picker(&mut self, chosen: Option<usize>) {
        self.overlay = Overlay::None;
        self.mode = Mode::Normal;
        if let Some(i) = chosen {
            self.set_active(i);
            let name = self.algos[i].extractor.name();
            self.status = Some((format!("{name} is the active algorithm"), false));
        }
    }
}
