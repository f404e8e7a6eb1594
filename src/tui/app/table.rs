//! The region / block table (`b`): the candidate regions or blocks of the active algorithm —
//! and of a pinned second one (`P`) — from their traces ([`candidate_table`]); the headline
//! candidates panel (`#`): the headline finder's ranked candidates (the shipped ranker unless
//! `--headline` names another), candidates with the same text merged into one row with their
//! count, tags and DOM paths ([`crate::extract::headline::group_candidates`]); `Y` takes the highlighted
//! one as the gold headline; the text block table (`B`, [`super::blocks`]): the page's atomic
//! text blocks with the shown algorithms' verdicts, ← / → choose the sort column; and the
//! records panel (`L`, [`super::units`]): a record group's records, `I` / `X` keep / strike
//! one. Movement keys move the highlighted row, Enter jumps to it.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::extract::candidates::{candidate_table, CandidateTable};
use crate::tui::keymap::Action;

use std::sync::Arc;

use super::{App, TableKind};
use crate::tui::panels::table::TableAsk;
use crate::tui::panels::Handled;

/// Most headline candidates the panel lists.
pub const HEADLINE_ROWS: usize = 20;

/// One row of the headline panel: the candidates with one text, merged
/// ([`crate::extract::headline::CandidateGroup`]).
pub type HeadlineRow = crate::extract::headline::CandidateGroup;

impl App {
    /// The candidate table of algorithm `i` on the open page (with the verdicts of the current
    /// step), if it has a result and candidates.
    pub fn table_of(&self, i: usize) -> Option<CandidateTable> {
        let a = self.algos.get(i)?;
        let (x, d) = (a.result.as_ref()?, self.doc.as_ref()?);
        let step = if i == self.active {
            self.step_at()
        } else {
            None
        };
        candidate_table(a.extractor.as_ref(), &d.page, x, step)
    }

    /// The headline finder of the panel and the suggestion ([`super::AppOptions::headline`],
    /// loaded when the app was made), `None` when it cannot be loaded (the command line checks
    /// the name first).
    pub fn headline_finder(&self) -> Option<Arc<dyn crate::extract::headline::HeadlineFinder>> {
        self.headline_finder.clone()
    }

    /// The headline candidates of the headline finder ([`App::headline_finder`]) on the open
    /// page, merged by text ([`crate::extract::headline::group_candidates`]), best first, at most
    /// [`HEADLINE_ROWS`] rows; computed once per page ([`super::Doc::headlines`]).
    pub fn headline_rows(&self) -> Arc<Vec<HeadlineRow>> {
        let Some(d) = self.doc.as_ref() else {
            return Arc::default();
        };
        d.headlines
            .get_or_init(|| {
                let Some(f) = self.headline_finder() else {
                    return Arc::default();
                };
                let found = f.run(&d.page, &crate::extract::Params::defaults(f.params()));
                Arc::new(crate::extract::headline::group_candidates(
                    &d.page,
                    &found,
                    HEADLINE_ROWS,
                ))
            })
            .clone()
    }

    /// The headline finder as the headline panel names it: the family its description starts
    /// with (up to the first comma or colon) followed by its name unless the family already
    /// names it — `TitleFinder tf`, `learned headline ranker`; the bare name when the
    /// description has no such start.
    pub fn headline_finder_label(&self) -> String {
        let Some(f) = self.headline_finder() else {
            return self.opts.headline.clone();
        };
        match f.describe().split([',', ':']).next() {
            Some(family) if family.len() < f.describe().len() => {
                let family = family.trim();
                if family.split_whitespace().any(|w| w == f.name()) {
                    family.to_string()
                } else {
                    format!("{family} {}", f.name())
                }
            }
            _ => f.name().to_string(),
        }
    }

    /// The byte range of the highlighted row of the table overlay, if any.
    fn table_target(&self) -> Option<std::ops::Range<usize>> {
        let row = self.table.row();
        match self.table.kind() {
            TableKind::Regions => self
                .table_of(self.active)
                .and_then(|t| t.rows.get(row).and_then(|r| r.bytes.clone())),
            // Enter jumps to the row's first occurrence on the page.
            TableKind::Headlines => self
                .headline_rows()
                .get(row)
                .map(|r| r.first_occurrence().range.clone()),
            TableKind::Blocks => self.block_row().map(|r| r.start..r.end),
            TableKind::Records => self.record_list().and_then(|l| {
                let r = l.rows.get(row.min(l.rows.len().saturating_sub(1)))?;
                Some(r.start..r.start + 1)
            }),
        }
    }

    /// The headline candidate highlighted in the headline panel, when it is shown: its
    /// best-ranked occurrence's range (what `Y` takes) and its text.
    pub(crate) fn highlighted_headline(&self) -> Option<(std::ops::Range<usize>, String)> {
        if !self.table.shows(TableKind::Headlines) {
            return None;
        }
        self.headline_rows()
            .get(self.table.row())
            .map(|r| (r.best_occurrence().range.clone(), r.text.clone()))
    }

    /// An action while the table is shown: the table panel takes it
    /// ([`crate::tui::panels::table::TablePanel::handle`]) with the number of rows of the
    /// table it shows, and the app carries out what it asks (another sort column of the block
    /// table, keeping or striking a record). Returns false for actions the table does not
    /// take (they apply as usual).
    pub(crate) fn table_key(&mut self, a: Action) -> bool {
        let (rows, groups) = match self.table.kind() {
            TableKind::Regions => (self.table_of(self.active).map_or(0, |t| t.rows.len()), 0),
            TableKind::Headlines => (self.headline_rows().len(), 0),
            TableKind::Blocks => {
                self.refresh_block_view();
                (self.table.block_view().map_or(0, |v| v.order.len()), 0)
            }
            TableKind::Records => self
                .record_list()
                .map_or((0, 1), |l| (l.rows.len(), l.groups)),
        };
        match self.table.handle(a, rows, groups) {
            Handled::NotConsumed => false,
            Handled::Consumed => true,
            Handled::Ask(TableAsk::Sort(by)) => {
                self.block_sort_step(by);
                true
            }
            Handled::Ask(TableAsk::KeepRecord(keep)) => {
                self.keep_record(keep);
                true
            }
        }
    }

    /// Enter while the table is shown: jump to the highlighted row's first line and close the
    /// table. Returns false for other keys.
    pub(crate) fn table_enter(&mut self, ev: &KeyEvent) -> bool {
        if !self.table.is_open() || ev.code != KeyCode::Enter {
            return false;
        }
        if self.table.kind() == TableKind::Blocks {
            self.refresh_block_view();
        }
        match self.table_target() {
            Some(b) => {
                // A span starting with white space (a virtual line's leading line break) jumps
                // to the line of its first visible character.
                let text = self.doc.as_ref().map_or("", |d| d.page.text());
                let skip = text
                    .get(b.clone())
                    .map_or(0, |s| s.len() - s.trim_start().len());
                self.jump_to_byte(b.start + skip);
                self.table.close();
            }
            None => self.status = Some(("this row has no position on the page".into(), false)),
        }
        true
    }
}
