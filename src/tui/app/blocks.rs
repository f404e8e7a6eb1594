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

use super::{block_columns, App, BlockColumn, Doc};
use crate::eval::blocks::{BlockRow, BlockTable};
use crate::page::blocks::Visibility;

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
        let range = self.line_range(self.source.cursor())?;
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

    /// The column the block table is sorted by.
    pub fn block_sort(&self) -> BlockColumn {
        self.table.block_sort()
    }

    /// Makes the block table of the open page current (the table panel's
    /// [`crate::tui::panels::table::TablePanel::block_view`]), when its blocks are built: kept
    /// while the page, the shown algorithms' results and the sort column stay.
    pub(crate) fn refresh_block_view(&mut self) {
        let Some(d) = self.doc.as_ref().filter(|d| d.blocks_ready()) else {
            self.table.clear_blocks();
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
        let cols = block_columns(algos.len(), gold.is_some());
        let sort = self.table.clamp_sort(cols.len());
        let key = (self.doc_id, results, self.gold_rev, self.active, sort);
        if self.table.blocks_fit(&key) {
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
        self.table.set_blocks(key, active, cols[sort], || {
            (
                Arc::new(BlockTable::new(&d.page, &verdicts)),
                gold.map(|g| Arc::new(d.page.blocks().project(g))),
            )
        });
    }

    /// Opens the block table (`B`): with a gold standard, and unless the user has chosen a
    /// sort column, sorted by the disagreement with the gold and at its first row (the block
    /// the active algorithm gets most wrong); otherwise at the cursor line's block.
    pub(crate) fn open_block_table(&mut self) {
        self.refresh_block_view();
        if self.table.sort_by_disagreement() {
            self.refresh_block_view();
            self.table.set_row(0);
            return;
        }
        let row = self.block_row_of_cursor().unwrap_or(0);
        self.table.set_row(row);
    }

    /// Moves the block table's sort column `by` columns right (negative: left), wrapping.
    pub(crate) fn block_sort_step(&mut self, by: isize) {
        self.table.sort_step(by);
        self.refresh_block_view();
    }

    /// The block table's row (in its sorted order) of the cursor line's block, if any: the
    /// table opens there.
    pub(crate) fn block_row_of_cursor(&self) -> Option<usize> {
        let b = self.cursor_block()?;
        let v = self.table.block_view()?;
        v.order.iter().position(|&r| v.table.rows[r].index == b)
    }

    /// The highlighted row of the block table, when it is shown and built.
    pub fn block_row(&self) -> Option<&BlockRow> {
        self.table.block_row()
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
