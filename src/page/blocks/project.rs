//! Projections onto blocks and onto the lines their text occupies.
//!
//! - A [`Selection`] (any extractor's, a gold standard's) projects onto the blocks as the
//!   fraction of each block's text bytes it selects ([`Blocks::project`]): a block-level
//!   verdict, the unit of the block table and of the learned methods.
//! - A DOM-node series (a value per element, as DOM algorithms' traces give with a node's outer
//!   byte extent as its position) projects onto **display lines** ([`NodeLines`]): each line
//!   that holds block text shows the value of the innermost element whose extent holds that
//!   text, so an element's value is drawn on every line of its text rather than on the line of
//!   its start tag alone, and the lines of the element's whole extent can be marked.
//!
//! Display lines are any sorted, disjoint byte ranges a view shows as lines: virtual lines,
//! raw lines, or the reading view's lines ([`crate::page::lines::lines_over`]).

use std::ops::Range;

use super::Blocks;
use crate::page::lines::{lines_over, solid};
use crate::selection::Selection;

/// Bytes of `r` that `sel` selects. O(log ranges + ranges overlapping `r`).
fn selected_in(sel: &Selection, r: &Range<usize>) -> usize {
    let rs = sel.ranges();
    let first = rs.partition_point(|s| s.end <= r.start);
    rs[first..]
        .iter()
        .take_while(|s| s.start < r.end)
        .map(|s| s.end.min(r.end) - s.start.max(r.start))
        .sum()
}

impl Blocks {
    /// Bytes of block `i`'s text ([`Blocks::ranges`]) that `sel` selects.
    pub fn selected_bytes(&self, i: usize, sel: &Selection) -> usize {
        self.ranges(i).iter().map(|r| selected_in(sel, r)).sum()
    }

    /// The byte ranges of the blocks `ids` ([`Blocks::ranges`]) as one selection: what
    /// keeping or striking those blocks adds to or removes from a main content. In normal form
    /// (block ranges are content text). Ids past the last block are skipped. O(k log k) for k
    /// ranges.
    pub fn selection_of(&self, ids: &[usize]) -> Selection {
        Selection::from_ranges(
            ids.iter()
                .filter(|&&i| i < self.len())
                .flat_map(|&i| self.ranges(i).iter().cloned()),
        )
    }

    /// How many of the blocks `ids` keeping them (`keep`) or striking them would change in the
    /// main content `sel`: for keeping, the blocks `sel` does not hold whole; for striking, the
    /// blocks of which `sel` holds any byte. Ids past the last block are skipped.
    pub fn changes(&self, ids: &[usize], sel: &Selection, keep: bool) -> usize {
        ids.iter()
            .filter(|&&i| i < self.len())
            .filter(|&&i| {
                let got = self.selected_bytes(i, sel);
                if keep {
                    got < self.len_bytes(i)
                } else {
                    got > 0
                }
            })
            .count()
    }

    /// `sel` projected onto the blocks: for each block, the fraction of its text bytes
    /// ([`Blocks::ranges`], white space inside the block included) that `sel` selects, in
    /// `[0, 1]`. A normal-form selection that holds a block's text whole gives 1. Bytes, not
    /// characters: a character reference (`&amp;`) weighs its source bytes. O(block ranges ·
    /// log selection ranges).
    pub fn project(&self, sel: &Selection) -> Vec<f64> {
        (0..self.len())
            .map(|i| {
                let total = self.len_bytes(i);
                if total == 0 {
                    0.0
                } else {
                    self.selected_bytes(i, sel) as f64 / total as f64
                }
            })
            .collect()
    }

    /// The display lines that block `i`'s text occupies, first to last (white space at the ends
    /// of its ranges left out); empty when none does (`display` leaves its bytes out). `text`
    /// is the page's decoded text.
    pub fn lines(&self, i: usize, text: &str, display: &[Range<usize>]) -> Range<usize> {
        let mut out: Option<Range<usize>> = None;
        for r in self.ranges(i) {
            if let Some(l) = lines_over(display, solid(text.as_bytes(), r.clone())) {
                out = Some(match out {
                    Some(o) => o.start.min(l.start)..o.end.max(l.end),
                    None => l,
                });
            }
        }
        out.unwrap_or(0..0)
    }

    /// The first byte of block text in the byte range `line` (a byte that is not ASCII white
    /// space inside some block's ranges) — what [`Blocks::text_starts`] gives for one display
    /// line, found through [`Blocks::overlapping`]: O(log blocks + the ranges of the blocks
    /// overlapping `line`).
    pub fn text_start_in(&self, text: &str, line: Range<usize>) -> Option<usize> {
        let bytes = text.as_bytes();
        let mut first: Option<usize> = None;
        for i in self.overlapping(line.clone()) {
            for r in self.ranges(i) {
                let a = r.start.max(line.start);
                let z = r.end.min(line.end).min(bytes.len());
                if a >= z || first.is_some_and(|q| q <= a) {
                    continue;
                }
                if let Some(k) = bytes[a..z].iter().position(|c| !c.is_ascii_whitespace()) {
                    first = Some(first.map_or(a + k, |q| q.min(a + k)));
                }
            }
        }
        first
    }

    /// The block a display line (the byte range `line`) belongs to: the block holding its
    /// first byte of block text ([`Blocks::text_start_in`]), `None` for a line without block
    /// text (markup only, or text the DOM does not show). The path bar's and the DOM
    /// algorithms' explanations' block. O(log blocks + blocks on the line).
    pub fn on_line(&self, text: &str, line: Range<usize>) -> Option<usize> {
        self.at(self.text_start_in(text, line)?)
    }

    /// For every display line, the first byte of block text on it (a byte that is not ASCII
    /// white space inside some block's ranges), `None` for lines without block text.
    /// O(block bytes + block ranges · log lines).
    pub fn text_starts(&self, text: &str, display: &[Range<usize>]) -> Vec<Option<usize>> {
        let bytes = text.as_bytes();
        let mut first: Vec<Option<usize>> = vec![None; display.len()];
        for r in &self.ranges {
            let r = solid(bytes, r.clone());
            let Some(ls) = lines_over(display, r.clone()) else {
                continue;
            };
            for l in ls {
                let a = r.start.max(display[l].start);
                let z = r.end.min(display[l].end).min(bytes.len());
                if a >= z {
                    continue;
                }
                if let Some(k) = bytes[a..z].iter().position(|c| !c.is_ascii_whitespace()) {
                    let p = a + k;
                    if first[l].is_none_or(|q| p < q) {
                        first[l] = Some(p);
                    }
                }
            }
        }
        first
    }
}

/// A node-unit series placed on display lines (see the module documentation): which item each
/// line shows, and the lines each item's extent covers.
///
/// Items are indexed as the series is (a trace's node unit: its own numbering, placed by its
/// positions, each an element's outer byte extent — e.g. [`crate::page::Dom::hull`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeLines {
    /// For each display line, the item whose value it shows: the innermost item whose extent
    /// holds the line's first byte of block text ([`Blocks::text_starts`]); `None` for lines
    /// without block text or outside every extent. Innermost: of the extents holding the byte,
    /// the one that starts last, then ends first, then comes last in the series.
    pub owner: Vec<Option<usize>>,
    /// For each item, the display lines its extent overlaps (white space at its ends left
    /// out), first to last; empty when it overlaps none.
    pub extent: Vec<Range<usize>>,
}

impl NodeLines {
    /// Places the items with byte extents `extents` on `display` by the text of `blocks` (the
    /// page's blocks, `text` its decoded text). Extents that nest (DOM hulls do) give each
    /// text line its innermost element. O(items · log items + lines + block bytes).
    pub fn new(
        blocks: &Blocks,
        text: &str,
        extents: &[Range<usize>],
        display: &[Range<usize>],
    ) -> NodeLines {
        let bytes = text.as_bytes();
        let starts = blocks.text_starts(text, display);
        let mut order: Vec<usize> = (0..extents.len())
            .filter(|&i| extents[i].start < extents[i].end)
            .collect();
        order.sort_by(|&a, &b| outer_first(extents, a, b));
        let mut owner = vec![None; display.len()];
        let mut stack: Vec<usize> = Vec::new();
        let mut next = 0;
        for (l, p) in starts.iter().enumerate() {
            let Some(p) = *p else { continue };
            while next < order.len() && extents[order[next]].start <= p {
                stack.push(order[next]);
                next += 1;
            }
            while stack.last().is_some_and(|&i| extents[i].end <= p) {
                stack.pop();
            }
            owner[l] = stack.last().copied();
        }
        let extent = extents
            .iter()
            .map(|r| {
                if r.start >= r.end {
                    return 0..0;
                }
                lines_over(display, solid(bytes, r.clone())).unwrap_or(0..0)
            })
            .collect();
        NodeLines { owner, extent }
    }

    /// The value each display line shows: `series[owner]`, `None` where the line has no owner
    /// (or the series is shorter).
    pub fn values(&self, series: &[f64]) -> Vec<Option<f64>> {
        self.owner
            .iter()
            .map(|o| o.and_then(|i| series.get(i).copied()))
            .collect()
    }

    /// The items whose extents hold byte `p` (of block text), outermost first, so the last is
    /// the one [`NodeLines::owner`] gives a line starting its block text at `p` (innermost: the
    /// extent that starts last, then ends first, then comes last in the series; for extents
    /// that nest or are disjoint, as DOM hulls are, the chain is the line's element and its
    /// ancestors among the items). For explanations, which look at one line: O(items + chain ·
    /// log chain).
    pub fn holding(extents: &[Range<usize>], p: usize) -> Vec<usize> {
        let mut chain: Vec<usize> = (0..extents.len())
            .filter(|&i| extents[i].start <= p && p < extents[i].end)
            .collect();
        chain.sort_by(|&a, &b| outer_first(extents, a, b));
        chain
    }

    /// The display lines that show item `i`'s value, in order.
    pub fn lines_of(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.owner
            .iter()
            .enumerate()
            .filter(move |(_, o)| **o == Some(i))
            .map(|(l, _)| l)
    }
}

/// The order of nested extents: by start, the longer first, then by index — so in a sweep
/// the innermost extent holding a byte is the last one pushed that has not ended.
fn outer_first(extents: &[Range<usize>], a: usize, b: usize) -> std::cmp::Ordering {
    let (x, y) = (&extents[a], &extents[b]);
    x.start
        .cmp(&y.start)
        .then(y.end.cmp(&x.end))
        .then(a.cmp(&b))
}
