//! What the inspector shows of the page's atomic text blocks ([`crate::page::blocks`]): the
//! path bar (the cursor line's block: its DOM path, key features and visibility) and the block
//! table (`B`): every block with its features and the verdict of each algorithm shown (the
//! fraction of its text selected, [`BlockTable`], as `cescope blocks` computes it), with a gold
//! standard the gold's share and the active algorithm's disagreement with it, sortable by
//! column, Enter jumps to the block's first text line.
//!
//! The blocks need the DOM. A page's blocks are built once, off the UI thread (inline in tests);
//! until they are there the path bar is empty and the table says so.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::{App, Doc};
use crate::eval::blocks::{BlockRow, BlockTable};
use crate::page::blocks::Visibility;

/// A column of the block table, in display order ([`App::block_columns`]).
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

/// The cursor line's block as the path bar shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct PathBar {
    /// The container's DOM path, `html > body > div#content.post > p`.
    pub path: String,
    /// Words.
    pub words: u32,
    /// Link density.
    pub link_density: f64,
    /// Text density.
    pub text_density: f64,
    /// The visibility flags' names (`noscript`, `display:none`, …); empty when shown.
    pub visibility: Vec<&'static str>,
    /// The step of [`PathBar::path`] (0 = `html`) that hides the block — its outermost
    /// `<noscript>`, else the outermost hiding element — which a clipped path keeps.
    pub hiding_step: Option<usize>,
}

/// What a [`BlockView`] was made for: page, (algorithm, result) pairs, gold revision, active
/// algorithm, sort column.
type BlockKey = (u64, Vec<(usize, usize)>, u64, usize, usize);

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
    /// The columns of this table, in display order ([`App::block_columns`]).
    pub fn columns(&self) -> Vec<BlockColumn> {
        App::block_columns(self.table.algos.len(), self.gold.is_some())
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

impl Doc {
    /// Have the page's blocks been built ([`crate::page::Page::blocks`])?
    pub fn blocks_ready(&self) -> bool {
        self.blocks_ready.load(Ordering::Acquire)
    }

    /// Builds the page's blocks: at once when `inline`, else on a worker thread (the DOM takes
    /// a while on a large page); [`Doc::blocks_ready`] says when they are there.
    pub(super) fn build_blocks(&self, inline: bool) {
        let page = Arc::clone(&self.page);
        let ready = Arc::clone(&self.blocks_ready);
        let build = move || {
            let _ = page.blocks();
            ready.store(true, Ordering::Release);
        };
        if inline {
            build();
        } else {
            std::thread::spawn(build);
        }
    }
}

impl App {
    /// The cursor's block: the block a block or record motion (`J` / `K`, `z` / `Z`) chose on
    /// the cursor line, else the one holding the line's first byte of block text
    /// ([`crate::page::Blocks::on_line`]); `None` for a line without block text or while the
    /// blocks are being built.
    pub fn cursor_block(&self) -> Option<usize> {
        let d = self.doc.as_ref().filter(|d| d.blocks_ready())?;
        let range = self.line_range(self.cursor)?;
        let blocks = d.page.blocks();
        if let Some((at, b)) = self.unit_cursor {
            if at == range.start && b < blocks.len() {
                return Some(b);
            }
        }
        blocks.on_line(d.page.text(), range)
    }

    /// The path bar of the cursor's block ([`App::cursor_block`]).
    pub fn path_bar(&self) -> Option<PathBar> {
        let i = self.cursor_block()?;
        let page = &self.doc.as_ref()?.page;
        let blocks = page.blocks();
        let b = blocks.get(i);
        let dom = page.dom();
        let hiding_step = blocks
            .noscript(dom, i)
            .or_else(|| blocks.hidden_by(dom, i))
            .map(|id| crate::page::blocks::dom_path(dom, id).split(" > ").count() - 1);
        Some(PathBar {
            path: blocks.path(dom, i),
            hiding_step,
            words: b.features.words,
            link_density: b.features.link_density(),
            text_density: b.features.text_density(),
            visibility: b.visibility.names().collect(),
        })
    }

    /// The algorithms whose verdicts the block table shows: the gutter's columns (the overlaid
    /// ones and the active one) and the pinned one, those with a result.
    fn block_algos(&self) -> Vec<usize> {
        let mut v = self.gutter_columns();
        if let Some(p) = self.pinned() {
            if !v.contains(&p) {
                v.push(p);
            }
        }
        v.retain(|&i| self.algos[i].result.is_some());
        v
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

    /// The column the block table is sorted by.
    pub fn block_sort(&self) -> BlockColumn {
        let cols = self
            .block_view
            .as_ref()
            .map_or_else(|| App::block_columns(0, false), BlockView::columns);
        cols[self.block_sort_column.min(cols.len() - 1)]
    }

    /// Makes the block table of the open page current ([`App::block_view`]), when its blocks
    /// are built: kept while the page, the shown algorithms' results and the sort column stay.
    pub(crate) fn refresh_block_view(&mut self) {
        let Some(d) = self.doc.as_ref().filter(|d| d.blocks_ready()) else {
            self.block_view = None;
            return;
        };
        let algos = self.block_algos();
        let results: Vec<(usize, usize)> = algos
            .iter()
            .filter_map(|&i| {
                let x = self.algos[i].result.as_ref()?;
                Some((i, Arc::as_ptr(x) as usize))
            })
            .collect();
        let gold = d.gold.as_ref();
        let cols = App::block_columns(algos.len(), gold.is_some());
        self.block_sort_column = self.block_sort_column.min(cols.len() - 1);
        let key = (
            self.doc_id,
            results,
            self.gold_rev,
            self.active,
            self.block_sort_column,
        );
        if self.block_view.as_ref().is_some_and(|v| v.key == key) {
            return;
        }
        let active = algos.iter().position(|&i| i == self.active);
        let verdicts: Vec<(&str, &crate::selection::Selection)> = algos
            .iter()
            .filter_map(|&i| {
                let a = &self.algos[i];
                Some((a.extractor.name(), &a.result.as_ref()?.selection))
            })
            .collect();
        let (table, gold) = match self.block_view.take() {
            // Another sort, or another active algorithm, of the same table.
            Some(v) if v.key.0 == key.0 && v.key.1 == key.1 && v.key.2 == key.2 => {
                (v.table, v.gold)
            }
            _ => (
                Arc::new(BlockTable::new(&d.page, &verdicts)),
                gold.map(|g| Arc::new(d.page.blocks().project(g))),
            ),
        };
        let mut view = BlockView {
            key,
            table,
            gold,
            active,
            order: Vec::new(),
        };
        view.order = sorted(&view, cols[self.block_sort_column]);
        self.block_view = Some(view);
    }

    /// Opens the block table (`B`): with a gold standard, and unless the user has chosen a
    /// sort column, sorted by the disagreement with the gold and at its first row (the block
    /// the active algorithm gets most wrong); otherwise at the cursor line's block.
    pub(crate) fn open_block_table(&mut self) {
        self.refresh_block_view();
        let by_gold =
            !self.block_sort_chosen && self.block_view.as_ref().is_some_and(|v| v.gold.is_some());
        if by_gold {
            let cols = self.block_view.as_ref().map(BlockView::columns);
            if let Some(k) =
                cols.and_then(|c| c.iter().position(|&c| c == BlockColumn::Disagreement))
            {
                self.block_sort_column = k;
                self.refresh_block_view();
                self.table_row = 0;
                return;
            }
        }
        self.table_row = self.block_row_of_cursor().unwrap_or(0);
    }

    /// Moves the block table's sort column `by` columns right (negative: left), wrapping.
    pub(crate) fn block_sort_step(&mut self, by: isize) {
        self.block_sort_chosen = true;
        let n = self
            .block_view
            .as_ref()
            .map_or_else(|| App::block_columns(0, false), BlockView::columns)
            .len() as isize;
        self.block_sort_column = (self.block_sort_column as isize + by).rem_euclid(n) as usize;
        self.table_row = 0;
        self.refresh_block_view();
    }

    /// The block table's row (in its sorted order) of the cursor line's block, if any: the
    /// table opens there.
    pub(crate) fn block_row_of_cursor(&self) -> Option<usize> {
        let b = self.cursor_block()?;
        let v = self.block_view.as_ref()?;
        v.order.iter().position(|&r| v.table.rows[r].index == b)
    }

    /// The highlighted row of the block table, when it is shown and built.
    pub fn block_row(&self) -> Option<&BlockRow> {
        let v = self.block_view.as_ref()?;
        let k = *v
            .order
            .get(self.table_row.min(v.order.len().saturating_sub(1)))?;
        v.table.rows.get(k)
    }
}

/// Short names of the visibility flags for the table's narrow column (`hid`, `aria`, `d:n`,
/// `ns`), joined by `,`.
pub fn visibility_short(names: &[&str]) -> String {
    names
        .iter()
        .map(
            |n| match Visibility::NAMES.iter().position(|(_, m)| m == n) {
                Some(0) => "hid",
                Some(1) => "aria",
                Some(2) => "d:n",
                Some(3) => "ns",
                _ => "?",
            },
        )
        .collect::<Vec<_>>()
        .join(",")
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
