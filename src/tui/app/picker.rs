//! The algorithm picker: choosing the active algorithm by name among the ~30 registered ones,
//! as command palettes do. A key opens it ([`crate::tui::keymap::Action::PickAlgorithm`]);
//! typed text filters the list (a case-insensitive substring of the name, names that start
//! with it first), ↑ / ↓ move, Enter makes the highlighted algorithm active, Esc cancels. While
//! it is open every key goes to it ([`super::Overlay::Picker`]): nothing typed there falls
//! through to a command.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{App, Mode, Overlay};

/// The picker's state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Picker {
    /// What has been typed.
    pub query: String,
    /// The highlighted row of [`App::picker_matches`] (clamped to the list when drawn and
    /// chosen).
    pub row: usize,
}

impl App {
    /// Opens the picker with an empty query, the active algorithm highlighted (in place of
    /// the help, and ending any typing).
    pub(crate) fn open_picker(&mut self) {
        let mut p = Picker::default();
        p.row = self
            .matches_for(&p.query)
            .iter()
            .position(|&i| i == self.active)
            .unwrap_or(0);
        self.overlay = Overlay::Picker(p);
        self.mode = Mode::Normal;
    }

    /// The algorithms (indices into [`App::algos`]) whose name contains `query` (ASCII case
    /// ignored): those whose name starts with it first, each group in registry order.
    fn matches_for(&self, query: &str) -> Vec<usize> {
        let q = query.trim().to_lowercase();
        let mut m: Vec<(bool, usize)> = self
            .algos
            .iter()
            .enumerate()
            .filter_map(|(i, a)| {
                let name = a.extractor.name().to_lowercase();
                name.contains(&q).then(|| (!name.starts_with(&q), i))
            })
            .collect();
        m.sort();
        m.into_iter().map(|(_, i)| i).collect()
    }

    /// The picker, when it is open.
    pub fn picker(&self) -> Option<&Picker> {
        match &self.overlay {
            Overlay::Picker(p) => Some(p),
            _ => None,
        }
    }

    /// The picker's list for its current query (empty when it is closed).
    pub fn picker_matches(&self) -> Vec<usize> {
        self.picker()
            .map_or_else(Vec::new, |p| self.matches_for(&p.query))
    }

    /// A key while the picker is open. Every key is the picker's: text filters, Backspace
    /// deletes, ↑ / ↓ (and Tab / Shift-Tab, Page Up / Down) move, Enter chooses, Esc (or
    /// Ctrl-C) cancels; other keys do nothing.
    pub(crate) fn picker_key(&mut self, ev: KeyEvent) {
        let matches = self.picker_matches();
        let last = matches.len().saturating_sub(1);
        let Overlay::Picker(p) = &mut self.overlay else {
            return;
        };
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        match ev.code {
            KeyCode::Esc => self.close_picker(None),
            KeyCode::Char('c') if ctrl => self.close_picker(None),
            KeyCode::Enter => match matches.get(p.row.min(last)).copied() {
                Some(i) => self.close_picker(Some(i)),
                None => {
                    let msg = format!("no algorithm name contains {:?}", p.query);
                    self.status = Some((msg, true));
                }
            },
            KeyCode::Down | KeyCode::Tab => p.row = (p.row + 1).min(last),
            KeyCode::Up | KeyCode::BackTab => p.row = p.row.saturating_sub(1),
            KeyCode::PageDown => p.row = (p.row + 10).min(last),
            KeyCode::PageUp => p.row = p.row.saturating_sub(10),
            KeyCode::Backspace => {
                p.query.pop();
                p.row = 0;
            }
            KeyCode::Char(c) if !ctrl && !c.is_control() => {
                p.query.push(c);
                p.row = 0;
            }
            _ => {}
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
