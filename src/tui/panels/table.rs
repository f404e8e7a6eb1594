//! The table panel (`b`, `#`, `B`, `L`): which table is shown over the main area — the active
//! algorithm's candidate regions or blocks, the headline candidates, the page's text blocks or
//! a record group's records — its highlighted row, the text block table's view and sort column,
//! and the record group shown. Movement keys move the highlighted row, Esc closes it, ← / →
//! choose the block table's sort column or the records' group; what the rows are is the app's
//! (it passes their number), and so are Enter's jump and the records' keep / strike, which the
//! panel asks for.

use std::sync::Arc;

use super::Handled;
use crate::eval::blocks::{BlockRow, BlockTable};
use crate::tui::keymap::Action;

/// What the table overlay shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    /// The active algorithm's candidate regions or blocks.
    Regions,
    /// The headline candidates of the default headline finder.
    Headlines,
    /// The page's atomic text blocks ([`BlockView`]).
    Blocks,
    /// A record group's records, to keep or strike (`crate::tui::app::RecordList`).
    Records,
}

/// A column of the block table, in display order ([`block_columns`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockColumn {
    /// The block's number (document order).
    Index,
    /// Words.
    Words,
    /// Link density (words inside `<a>` / words).
    LinkDensity,
    /// Text density (words per 80-column line).
    TextDensity,
    /// Visibility flags.
    Visibility,
    /// The verdict of the table's `k`-th algorithm.
    Verdict(usize),
    /// The gold standard's share of the block (with a gold standard).
    Gold,
    /// The active algorithm's share minus the gold's (with a gold standard and a result of
    /// the active algorithm); sorted by the words it puts wrong (|Δ| × words), most first.
    Disagreement,
    /// The container's DOM path.
    Path,
}

impl BlockColumn {
    /// Numbers sort largest first, the number and the path in document / text order.
    pub fn descending(self) -> bool {
        !matches!(self, BlockColumn::Index | BlockColumn::Path)
    }
}

/// What a [`BlockView`] was made for: page, (algorithm, result) pairs, gold revision, active
/// algorithm, sort column.
pub type BlockKey = (u64, Vec<(usize, usize)>, u64, usize, usize);

/// The block table of the open page for the algorithms shown, sorted; rebuilt when the page,
/// a shown algorithm's result, the gold standard, the active algorithm or the sort column
/// changes.
#[derive(Debug, Clone)]
pub struct BlockView {
    /// What the table was made for.
    key: BlockKey,
    /// The table: one verdict column per shown algorithm with a result.
    pub table: Arc<BlockTable>,
    /// The gold standard's share of each block ([`crate::page::Blocks::project`]), when the
    /// page has a gold standard.
    pub gold: Option<Arc<Vec<f64>>>,
    /// The active algorithm's verdict column in [`BlockView::table`], when it has one.
    pub active: Option<usize>,
    /// Row indices in display (sorted) order.
    pub order: Vec<usize>,
}

impl BlockView {
    /// The columns of this table, in display order ([`block_columns`]).
    pub fn columns(&self) -> Vec<BlockColumn> {
        block_columns(self.table.algos.len(), self.gold.is_some())
    }

    /// The gold's share of row `r`'s block, with a gold standard.
    pub fn gold_share(&self, r: &BlockRow) -> Option<f64> {
        self.gold.as_ref()?.get(r.index).copied()
    }

    /// The active algorithm's share of row `r`'s block minus the gold's, in `[-1, 1]`: positive
    /// where it selects more than the gold (false positive), negative where less.
    pub fn disagreement(&self, r: &BlockRow) -> Option<f64> {
        Some(r.verdicts.get(self.active?)? - self.gold_share(r)?)
    }
}

/// The table panel's state.
#[derive(Debug, Clone)]
pub struct TablePanel {
    /// Shown (over the main area, beneath a popup).
    open: bool,
    /// What it shows.
    kind: TableKind,
    /// The highlighted row (clamped to the table where it is read).
    row: usize,
    /// The text block table made for the open page and the algorithms shown (the app's
    /// `refresh_block_view`).
    blocks: Option<BlockView>,
    /// The block table's sort column (index into [`block_columns`]).
    sort_column: usize,
    /// The user chose the block table's sort column (← / →); until then a page with a gold
    /// standard opens the table sorted by the disagreement with it
    /// ([`TablePanel::sort_by_disagreement`]).
    sort_chosen: bool,
    /// The record group the records panel shows (← / → choose).
    records_group: usize,
}

impl Default for TablePanel {
    /// Closed, on the region table's first row, no block view.
    fn default() -> Self {
        TablePanel {
            open: false,
            kind: TableKind::Regions,
            row: 0,
            blocks: None,
            sort_column: 0,
            sort_chosen: false,
            records_group: 0,
        }
    }
}

/// What the table panel asks of the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableAsk {
    /// ← / → in the text block table: move the sort column this many columns (wrapping) and
    /// make the view again.
    Sort(isize),
    /// `I` / `X` in the records panel: keep (`true`) or strike the highlighted record.
    KeepRecord(bool),
}

impl TablePanel {
    /// Is the table shown?
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// What the table shows (or showed last).
    pub fn kind(&self) -> TableKind {
        self.kind
    }

    /// Is the table shown, showing `kind`?
    pub fn shows(&self, kind: TableKind) -> bool {
        self.open && self.kind == kind
    }

    /// The highlighted row.
    pub fn row(&self) -> usize {
        self.row
    }

    /// Highlights row `row`.
    pub fn set_row(&mut self, row: usize) {
        self.row = row;
    }

    /// Closes the table.
    pub fn close(&mut self) {
        self.open = false;
    }

    /// `b` / `#` / `B`: shows the table of `kind` at its first row, or closes it when it shows
    /// that table already. Returns true when the text block table opened (the app then makes
    /// its view and places its row).
    pub fn toggle(&mut self, kind: TableKind) -> bool {
        self.open = !self.shows(kind);
        self.kind = kind;
        self.row = 0;
        self.open && kind == TableKind::Blocks
    }

    /// Shows the records panel on record group `group`, row `row` highlighted.
    pub fn open_records(&mut self, group: usize, row: usize) {
        self.records_group = group;
        self.open = true;
        self.kind = TableKind::Records;
        self.row = row;
    }

    /// The record group the records panel shows (clamped to the page's groups where read).
    pub fn records_group(&self) -> usize {
        self.records_group
    }

    /// A page was opened: its views and record group start anew, and the records panel (of
    /// the last page's records) closes.
    pub fn page_opened(&mut self) {
        self.blocks = None;
        self.records_group = 0;
        if self.shows(TableKind::Records) {
            self.open = false;
        }
    }

    /// An action while the table is shown; `rows` is the number of rows of the table shown,
    /// `groups` the page's record groups (the records panel). Movement moves the highlighted
    /// row, Esc closes the table; in the text block table ← / → ask for another sort column,
    /// in the records panel they choose the group and `I` / `X` ask to keep / strike the
    /// highlighted record. Other actions are not the table's.
    pub fn handle(&mut self, a: Action, rows: usize, groups: usize) -> Handled<TableAsk> {
        match (self.kind, a) {
            (TableKind::Blocks, Action::ScrollLeft | Action::ScrollRight) => {
                return Handled::Ask(TableAsk::Sort(if a == Action::ScrollLeft { -1 } else { 1 }))
            }
            (TableKind::Records, Action::ScrollLeft | Action::ScrollRight) => {
                let n = groups.max(1);
                let by = if a == Action::ScrollLeft { n - 1 } else { 1 };
                self.records_group = (self.records_group.min(n - 1) + by) % n;
                self.row = 0;
                return Handled::Consumed;
            }
            (TableKind::Records, Action::KeepUnit | Action::StrikeUnit) => {
                return Handled::Ask(TableAsk::KeepRecord(a == Action::KeepUnit))
            }
            _ => {}
        }
        let last = rows.saturating_sub(1);
        match a {
            Action::CursorDown => self.row = (self.row + 1).min(last),
            Action::CursorUp => self.row = self.row.saturating_sub(1),
            Action::PageDown => self.row = (self.row + 10).min(last),
            Action::PageUp => self.row = self.row.saturating_sub(10),
            Action::Top => self.row = 0,
            Action::Bottom => self.row = last,
            Action::Cancel => self.open = false,
            _ => return Handled::NotConsumed,
        }
        Handled::Consumed
    }

    /// The text block table's view, when made.
    pub fn block_view(&self) -> Option<&BlockView> {
        self.blocks.as_ref()
    }

    /// Forgets the text block table's view (the page's blocks are not built).
    pub fn clear_blocks(&mut self) {
        self.blocks = None;
    }

    /// The sort column clamped to a table of `n` columns (`n` ≥ 1).
    pub fn clamp_sort(&mut self, n: usize) -> usize {
        self.sort_column = self.sort_column.min(n.saturating_sub(1));
        self.sort_column
    }

    /// Is the block view made for `key` (nothing to make again)?
    pub fn blocks_fit(&self, key: &BlockKey) -> bool {
        self.blocks.as_ref().is_some_and(|v| v.key == *key)
    }

    /// Makes the block view for `key`, sorted by `sort`, with `active` the active algorithm's
    /// verdict column: the table and the gold's shares of the last view are kept when only
    /// the active algorithm or the sort column changed, else `make` builds them.
    pub fn set_blocks(
        &mut self,
        key: BlockKey,
        active: Option<usize>,
        sort: BlockColumn,
        make: impl FnOnce() -> (Arc<BlockTable>, Option<Arc<Vec<f64>>>),
    ) {
        let (table, gold) = match self.blocks.take() {
            // Another sort, or another active algorithm, of the same table.
            Some(v) if v.key.0 == key.0 && v.key.1 == key.1 && v.key.2 == key.2 => {
                (v.table, v.gold)
            }
            _ => make(),
        };
        let mut view = BlockView {
            key,
            table,
            gold,
            active,
            order: Vec::new(),
        };
        view.order = sorted(&view, sort);
        self.blocks = Some(view);
    }

    /// The column the block table is sorted by.
    pub fn block_sort(&self) -> BlockColumn {
        let cols = self
            .blocks
            .as_ref()
            .map_or_else(|| block_columns(0, false), BlockView::columns);
        cols[self.sort_column.min(cols.len() - 1)]
    }

    /// Opening the block table with a gold standard, unless the user has chosen a sort
    /// column: sorts it by the disagreement with the gold (the app makes the view again and
    /// highlights the first row). False when it does not (no gold, a chosen column).
    pub fn sort_by_disagreement(&mut self) -> bool {
        if self.sort_chosen || self.blocks.as_ref().is_none_or(|v| v.gold.is_none()) {
            return false;
        }
        let cols = self.blocks.as_ref().map(BlockView::columns);
        match cols.and_then(|c| c.iter().position(|&c| c == BlockColumn::Disagreement)) {
            Some(k) => {
                self.sort_column = k;
                true
            }
            None => false,
        }
    }

    /// Moves the block table's sort column `by` columns right (negative: left), wrapping, at
    /// the first row; the user has chosen it (the app then makes the view again).
    pub fn sort_step(&mut self, by: isize) {
        self.sort_chosen = true;
        let n = self
            .blocks
            .as_ref()
            .map_or_else(|| block_columns(0, false), BlockView::columns)
            .len() as isize;
        self.sort_column = (self.sort_column as isize + by).rem_euclid(n) as usize;
        self.row = 0;
    }

    /// The highlighted row of the block table, when it is built.
    pub fn block_row(&self) -> Option<&BlockRow> {
        let v = self.blocks.as_ref()?;
        let k = *v.order.get(self.row.min(v.order.len().saturating_sub(1)))?;
        v.table.rows.get(k)
    }
}

/// The block table's columns, in display order, for `algos` verdict columns and, with
/// `gold`, the gold's share and the disagreement with it.
pub fn block_columns(algos: usize, gold: bool) -> Vec<BlockColumn> {
    let mut c = vec![
        BlockColumn::Index,
        BlockColumn::Words,
        BlockColumn::LinkDensity,
        BlockColumn::TextDensity,
        BlockColumn::Visibility,
    ];
    c.extend((0..algos).map(BlockColumn::Verdict));
    if gold {
        c.push(BlockColumn::Gold);
        c.push(BlockColumn::Disagreement);
    }
    c.push(BlockColumn::Path);
    c
}

/// The rows' order of `view` for sort column `col`: numbers largest first (the disagreement
/// by the words it puts wrong, |Δ| × words), the number and the path ascending; ties in
/// document order.
fn sorted(view: &BlockView, col: BlockColumn) -> Vec<usize> {
    let rows = &view.table.rows;
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let num = |r: &BlockRow| -> f64 {
        match col {
            BlockColumn::Index | BlockColumn::Path => 0.0,
            BlockColumn::Words => f64::from(r.features.words),
            BlockColumn::LinkDensity => r.features.link_density(),
            BlockColumn::TextDensity => r.features.text_density(),
            BlockColumn::Visibility => r.visibility.len() as f64,
            BlockColumn::Verdict(k) => r.verdicts.get(k).copied().unwrap_or(0.0),
            BlockColumn::Gold => view.gold_share(r).unwrap_or(0.0),
            // The words it gets wrong: a whole paragraph missed before a missed label.
            BlockColumn::Disagreement => {
                view.disagreement(r).map_or(0.0, f64::abs) * f64::from(r.features.words)
            }
        }
    };
    match col {
        BlockColumn::Index => {}
        BlockColumn::Path => order.sort_by(|&a, &b| rows[a].path.cmp(&rows[b].path)),
        _ => order.sort_by(|&a, &b| num(&rows[b]).total_cmp(&num(&rows[a]))),
    }
    order
}
