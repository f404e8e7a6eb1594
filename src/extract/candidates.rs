//! The candidate table of an extraction: every candidate region or block the algorithm
//! considered, from its trace alone, so it works for every registered algorithm — the
//! inspector's region / block table.
//!
//! Rows are the spans of the trace's [`Role::Candidates`] marks (DANA's regions of Formula 4.3,
//! LQF's blocks with text, …); an algorithm without candidates gives its [`Role::Selected`]
//! spans instead. For each row: its span in the trace's unit and on the page (bytes), the sum
//! over the span of every summable series of that unit (content / code / combined signals and
//! sizes, [`Agg::Sum`]), the units between it and its neighbours, whether it is the seed and
//! whether it is selected, and the algorithm's own verdict — the last sentence of
//! [`super::Extractor::explain`] at the span's first unit.

use std::ops::Range;

use serde::Serialize;

use super::trace::{location_bytes, revealed, Agg, Location, Role, Step, Trace, Unit};
use super::{unfolded, Extraction, Extractor};
use crate::page::Page;

/// One candidate region or block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CandidateRow {
    /// 1-based number in document order (DANA's `r1`, `r2`, …).
    pub number: usize,
    /// The span in the table's unit, half-open.
    pub span: Range<usize>,
    /// The span on the page: from the first byte of its first unit to the last byte of its last
    /// unit (`None` when the trace cannot place it).
    pub bytes: Option<Range<usize>>,
    /// `(series label, sum over the span)` for each summable series of the table's unit.
    pub sums: Vec<(String, f64)>,
    /// Units between the previous candidate's end and this one's start.
    pub before: Option<usize>,
    /// Units between this one's end and the next candidate's start.
    pub after: Option<usize>,
    /// The span overlaps a [`Role::Seed`] mark.
    pub seed: bool,
    /// The span overlaps a [`Role::Selected`] mark.
    pub selected: bool,
    /// The algorithm's verdict at the span's first unit (last sentence of its explanation).
    pub why: String,
}

/// The candidate table of one extraction.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CandidateTable {
    /// The label of the marks the rows come from (e.g. "regions (Formula 4.3)").
    pub label: String,
    /// The unit of the spans.
    pub unit: Unit,
    /// The rows, in document order.
    pub rows: Vec<CandidateRow>,
}

fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

fn location(unit: Unit, i: usize) -> Location {
    match unit {
        Unit::VirtualLine => Location::Line(i),
        Unit::Token => Location::Token(i),
        Unit::Node => Location::Node(i),
        _ => Location::Byte(i),
    }
}

/// The candidate table of `x` (made by `e` on `page`) as known at `step` of `e`'s phases
/// (`None`: the whole run): only revealed marks make rows, seed and selected columns
/// ([`revealed`]; in an unfolding phase only the spans revealed so far, [`unfolded`]), and
/// the verdicts are [`super::Extractor::explain`]'s at that step. `None` when the trace has
/// neither candidate nor selected marks (revealed), or when they are in raw lines (which have
/// no stable numbering). O(rows × (span + explain)).
pub fn candidate_table(
    e: &dyn Extractor,
    page: &Page,
    x: &Extraction,
    step: Option<Step>,
) -> Option<CandidateTable> {
    let partial = step.and_then(|s| Some(unfolded(e, x, s.phase, s.unfolded?)));
    let t: &Trace = &partial.as_ref().unwrap_or(x).trace;
    let phases = e.phases();
    let shown = |key: &str| revealed(phases, step.map(|s| s.phase), key);
    let marks = t
        .marks
        .iter()
        .find(|m| m.role == Role::Candidates && shown(&m.key))
        .or_else(|| {
            t.marks
                .iter()
                .find(|m| m.role == Role::Selected && shown(&m.key))
        })?;
    if marks.unit == Unit::RawLine {
        return None;
    }
    let unit = marks.unit;
    let seeds: Vec<&Range<usize>> = t
        .marks
        .iter()
        .filter(|m| m.role == Role::Seed && m.unit == unit && shown(&m.key))
        .flat_map(|m| &m.spans)
        .collect();
    let selected: Vec<&Range<usize>> = t
        .marks
        .iter()
        .filter(|m| m.role == Role::Selected && m.unit == unit && shown(&m.key))
        .flat_map(|m| &m.spans)
        .collect();
    let summable: Vec<_> = t
        .series
        .iter()
        .filter(|s| s.unit == unit && s.agg == Agg::Sum && shown(&s.key))
        .filter(|s| {
            matches!(
                s.role,
                Role::ContentSignal | Role::CodeSignal | Role::CombinedSignal | Role::Size
            )
        })
        .collect();
    let spans = &marks.spans;
    let rows = spans
        .iter()
        .enumerate()
        .map(|(k, span)| {
            let first = location_bytes(t, page, location(unit, span.start));
            let last = location_bytes(t, page, location(unit, span.end.saturating_sub(1)));
            let bytes = match (first, last) {
                (Some(a), Some(b)) => Some(a.start..b.end.max(a.start)),
                _ => None,
            };
            let sums = summable
                .iter()
                .map(|s| {
                    let v: f64 = s.values.get(span.clone()).map_or(0.0, |v| v.iter().sum());
                    (s.label.clone(), v)
                })
                .collect();
            let why = e
                .explain(page, x, location(unit, span.start), step)
                .pop()
                .unwrap_or_default();
            CandidateRow {
                number: k + 1,
                span: span.clone(),
                bytes,
                sums,
                before: k
                    .checked_sub(1)
                    .map(|p| span.start.saturating_sub(spans[p].end)),
                after: spans.get(k + 1).map(|n| n.start.saturating_sub(span.end)),
                seed: seeds.iter().any(|s| overlaps(s, span)),
                selected: selected.iter().any(|s| overlaps(s, span)),
                why,
            }
        })
        .collect();
    Some(CandidateTable {
        label: marks.label.clone(),
        unit,
        rows,
    })
}
