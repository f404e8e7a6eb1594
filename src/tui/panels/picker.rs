//! The algorithm picker: choosing the active algorithm by name among the ~30 registered ones,
//! as command palettes do. A key opens it ([`crate::tui::keymap::Action::PickAlgorithm`]);
//! typed text filters the list (a case-insensitive substring of the name, names that start
//! with it first), ↑ / ↓ move, Enter makes the highlighted algorithm active, Esc cancels. While
//! it is open every key goes to it ([`super::overlay::Overlay::Picker`]): nothing typed there
//! falls through to a command.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::Handled;

/// The picker's state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Picker {
    /// What has been typed.
    pub query: String,
    /// The highlighted row of the list of [`matches`] (clamped to the list when drawn and
    /// chosen).
    pub row: usize,
}

/// What the picker asks of the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PickerAsk {
    /// Close the picker; `Some(i)` makes algorithm `i` (index into the app's algorithms)
    /// active.
    Close(Option<usize>),
    /// Enter on an empty list: say so (an error in the status bar).
    Refuse(String),
}

/// The algorithms (indices into `names`, the algorithms' names in registry order) whose name
/// contains `query` (ASCII case ignored): those whose name starts with it first, each group in
/// registry order.
pub fn matches<'a>(names: impl IntoIterator<Item = &'a str>, query: &str) -> Vec<usize> {
    let q = query.trim().to_lowercase();
    let mut m: Vec<(bool, usize)> = names
        .into_iter()
        .enumerate()
        .filter_map(|(i, name)| {
            let name = name.to_lowercase();
            name.contains(&q).then(|| (!name.starts_with(&q), i))
        })
        .collect();
    m.sort();
    m.into_iter().map(|(_, i)| i).collect()
}

impl Picker {
    /// A picker with an empty query whose highlighted row is `row`.
    pub fn at(row: usize) -> Picker {
        Picker {
            query: String::new(),
            row,
        }
    }

    /// A key while the picker is open; `matches` is its list for the current query
    /// ([`matches`]). Every key is the picker's: text filters, Backspace deletes, ↑ / ↓ (and
    /// Tab / Shift-Tab, Page Up / Down) move, Enter chooses, Esc (or Ctrl-C) cancels; other
    /// keys do nothing.
    pub fn handle_key(&mut self, ev: KeyEvent, matches: &[usize]) -> Handled<PickerAsk> {
        let last = matches.len().saturating_sub(1);
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        match ev.code {
            KeyCode::Esc => return Handled::Ask(PickerAsk::Close(None)),
            KeyCode::Char('c') if ctrl => return Handled::Ask(PickerAsk::Close(None)),
            KeyCode::Enter => {
                return Handled::Ask(match matches.get(self.row.min(last)).copied() {
                    Some(i) => PickerAsk::Close(Some(i)),
                    None => {
                        PickerAsk::Refuse(format!("no algorithm name contains {:?}", self.query))
                    }
                })
            }
            KeyCode::Down | KeyCode::Tab => self.row = (self.row + 1).min(last),
            KeyCode::Up | KeyCode::BackTab => self.row = self.row.saturating_sub(1),
            KeyCode::PageDown => self.row = (self.row + 10).min(last),
            KeyCode::PageUp => self.row = self.row.saturating_sub(10),
            KeyCode::Backspace => {
                self.query.pop();
                self.row = 0;
            }
            KeyCode::Char(c) if !ctrl && !c.is_control() => {
                self.query.push(c);
                self.row = 0;
            }
            _ => {}
        }
        Handled::Consumed
    }
}
