//! The region / block table (`b`): the candidate regions or blocks of the active algorithm —
//! and of a pinned second one (`P`) — from their traces ([`candidate_table`]); movement keys
//! move the highlighted row, Enter jumps to it.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::algorithms::candidates::{candidate_table, CandidateTable};
use crate::tui::keymap::Action;

use super::App;

impl App {
    /// The candidate table of algorithm `i` on the open page (with the verdicts of the current
    /// step), if it has a result and candidates.
    pub fn table_of(&self, i: usize) -> Option<CandidateTable> {
        let a = self.algos.get(i)?;
        let (x, d) = (a.result.as_ref()?, self.doc.as_ref()?);
        let step = if i == self.active { self.step } else { None };
        candidate_table(a.extractor.as_ref(), &d.page, x, step)
    }

    /// An action while the table is shown: movement moves the highlighted row, the table key
    /// and Esc close it. Returns false for other actions (they apply as usual).
    pub(crate) fn table_key(&mut self, a: Action) -> bool {
        let n = self.table_of(self.active).map_or(0, |t| t.rows.len());
        let last = n.saturating_sub(1);
        match a {
            Action::CursorDown => self.table_row = (self.table_row + 1).min(last),
            Action::CursorUp => self.table_row = self.table_row.saturating_sub(1),
            Action::PageDown => self.table_row = (self.table_row + 10).min(last),
            Action::PageUp => self.table_row = self.table_row.saturating_sub(10),
            Action::Top => self.table_row = 0,
            Action::Bottom => self.table_row = last,
            Action::Cancel | Action::ToggleTable => self.table = false,
            _ => return false,
        }
        true
    }

    /// Enter while the table is shown: jump to the highlighted row's first line and close the
    /// table. Returns false for other keys.
    pub(crate) fn table_enter(&mut self, ev: &KeyEvent) -> bool {
        if !self.table || ev.code != KeyCode::Enter {
            return false;
        }
        let start = self
            .table_of(self.active)
            .and_then(|t| t.rows.get(self.table_row).and_then(|r| r.bytes.clone()));
        match start {
            Some(b) => {
                // A span starting with white space (a virtual line's leading line break) jumps
                // to the line of its first visible character.
                let text = self.doc.as_ref().map_or("", |d| d.page.text());
                let skip = text
                    .get(b.clone())
                    .map_or(0, |s| s.len() - s.trim_start().len());
                self.jump_to_byte(b.start + skip);
                self.table = false;
            }
            None => self.status = Some(("this row has no position on the page".into(), false)),
        }
        true
    }
}
