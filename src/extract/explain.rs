//! What the DOM algorithms' own explanations start from: the text on the cursor line, the
//! atomic block it belongs to ([`crate::page::blocks`]) and the algorithm's elements around it
//! (its trace's node unit), found the way the histogram draws node series ([`NodeLines`]), so
//! explain speaks of the element whose bar the line shows. Each algorithm words its decision in
//! its own file (`lqf`, `cetd`, `crunch`, `sw`, `fe`); this module only locates, names and
//! formats.

use std::ops::Range;

use super::trace::{Key, Location, Marks, Missing, Series, Step, Trace, Unit};
use super::{explain_default, is_whole_run, Extraction, Extractor};
use crate::page::blocks::{dom_path, node_label, Blocks, NodeLines, Visibility};
use crate::page::dom::{Dom, NodeKind};
use crate::page::Page;
use crate::selection::Selection;

/// An extractor's explanation at `at` as known at `step` ([`Extractor::explain`]'s default):
/// for a line of text in the whole run ([`is_whole_run`], [`text_line`]) the algorithm's own
/// wording ([`Extractor::explain_text_line`]) when it has one; elsewhere (lines of markup only,
/// other units), in step mode before the last phase, and for algorithms without their own
/// wording, the generic one ([`explain_default`]).
pub fn on_text_lines<E: Extractor + ?Sized>(
    e: &E,
    page: &Page,
    x: &Extraction,
    at: Location,
    step: Option<Step>,
) -> Vec<String> {
    if is_whole_run(e.phases(), step) {
        if let Some(line) = text_line(page, &x.trace, at) {
            let said = e.explain_text_line(page, &x.trace, &line);
            if !said.is_empty() {
                return said;
            }
        } else if let (Location::Line(l), Some(_)) = (at, x.trace.positions(Unit::Node)) {
            // A DOM algorithm decides about elements and blocks, not about a line of tags:
            // name the text blocks around it, then the trace's values there, instead of the
            // trace's node intervals.
            if let Some(mut said) = markup_line(page, x, l) {
                let values = explain_default(e, page, x, at, step);
                let prefix = format!("line {}: ", l + 1);
                let v = values.first().and_then(|v| v.strip_prefix(&prefix));
                // (A trace of marks only has no values to give.)
                if let Some(v) = v.filter(|v| !v.starts_with("nothing computed")) {
                    said.insert(1, format!("the trace's values here: {v}"));
                }
                return said;
            }
        }
    }
    explain_default(e, page, x, at, step)
}

/// How much of block `i`'s text `x` selects, in words: `selected`, `partly selected (40%)`,
/// `not selected`.
fn block_verdict(page: &Page, x: &Extraction, i: usize) -> String {
    let blocks = page.blocks();
    let own = Selection::from_ranges(blocks.ranges(i).iter().cloned());
    let total = own.len_bytes();
    let got = own.intersection(&x.selection).len_bytes();
    if total == 0 || got == 0 {
        "not selected".to_string()
    } else if got >= total {
        "selected".to_string()
    } else {
        format!(
            "partly selected ({:.0}%)",
            100.0 * got as f64 / total as f64
        )
    }
}

/// Block `i` named for an explanation: `text block #12 “Council approves the…” (line 40,
/// selected)` — its number ([`Blocks::number`]), the start of its text, its first virtual line
/// (1-based) and how much of it `x` selects.
fn block_named(page: &Page, x: &Extraction, i: usize) -> String {
    let blocks = page.blocks();
    let line = blocks
        .ranges(i)
        .first()
        .and_then(|r| page.lines().line_of(r.start))
        .map_or(String::new(), |l| format!("line {}, ", l + 1));
    format!(
        "text block #{} “{}” ({line}{})",
        Blocks::number(i),
        blocks.snippet(page.dom(), i, 32),
        block_verdict(page, x, i)
    )
}

/// The explanation of virtual line `line` when it holds no block text (tags, white space,
/// text the DOM does not show) for an extractor whose decisions are about elements: one
/// sentence naming the text blocks around it in words — `line 41: markup only, between text
/// block #12 “Council approves…” (line 40, selected) and text block #13 “Weather” (line 44,
/// not selected)`, or the block whose markup it is (`markup inside text block #12 …`) — and a
/// pointer to those blocks' own lines for the reasons. `None` when `line` is not a line of the
/// page. O(blocks).
pub fn markup_line(page: &Page, x: &Extraction, line: usize) -> Option<Vec<String>> {
    let range = page.lines().lines.get(line)?.range();
    let blocks = page.blocks();
    let all = blocks.blocks();
    let inside = all
        .iter()
        .position(|b| b.extent.start < range.start && range.end <= b.extent.end);
    let what = match inside {
        Some(i) => format!("markup inside {}", block_named(page, x, i)),
        None => {
            let before = all.iter().rposition(|b| b.extent.end <= range.start);
            let after = all.iter().position(|b| b.extent.start >= range.end);
            match (before, after) {
                (Some(b), Some(a)) => format!(
                    "between {} and {}",
                    block_named(page, x, b),
                    block_named(page, x, a)
                ),
                (Some(b), None) => {
                    format!("after the last text block, {}", block_named(page, x, b))
                }
                (None, Some(a)) => {
                    format!("before the first text block, {}", block_named(page, x, a))
                }
                (None, None) => "the page has no text block".to_string(),
            }
        }
    };
    Some(vec![
        format!(
            "line {}: markup only (no text a reader sees), {what}",
            line + 1
        ),
        "explain on a block's text line gives the algorithm's reasons for it".to_string(),
    ])
}

/// For tests: `e`'s explanation (whole run) of the virtual line holding the first `needle` of
/// `page`'s text, its sentences joined by `; `. Panics when `needle` is not in the text.
#[cfg(test)]
pub(crate) fn explain_at(e: &dyn Extractor, page: &Page, x: &Extraction, needle: &str) -> String {
    let at = page.text().find(needle).expect("the needle is in the page");
    let line = page.lines().line_of(at).expect("a line holds it");
    e.explain(page, x, Location::Line(line), None).join("; ")
}

/// A line of text as a DOM algorithm sees it (a token algorithm, whose trace has no node unit,
/// gets the same with an empty [`TextLine::chain`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextLine {
    /// The virtual line (0-based).
    pub line: usize,
    /// The line's first byte of block text ([`crate::page::Blocks::text_start_in`]).
    pub byte: usize,
    /// The atomic block holding that byte (index into [`Page::blocks`]).
    pub block: usize,
    /// The trace's node-unit items whose extents hold that byte, outermost first
    /// ([`NodeLines::holding`]); the last is the element the line shows. Empty when the text
    /// lies in none of them, or the trace has no node unit (a token algorithm).
    pub chain: Vec<usize>,
}

impl TextLine {
    /// The element the line shows (the innermost of [`TextLine::chain`]).
    pub fn element(&self) -> Option<usize> {
        self.chain.last().copied()
    }
}

/// The text line at `at` for `trace` (whose node positions, if any, place its elements):
/// `None` when `at` is not a virtual line, or the line holds no block text (markup only, or
/// text the DOM does not show). O(nodes + blocks on the line).
pub fn text_line(page: &Page, trace: &Trace, at: Location) -> Option<TextLine> {
    let Location::Line(line) = at else {
        return None;
    };
    let range = page.lines().lines.get(line)?.range();
    let blocks = page.blocks();
    let byte = blocks.text_start_in(page.text(), range)?;
    let block = blocks.at(byte)?;
    Some(TextLine {
        line,
        byte,
        block,
        chain: trace
            .positions(Unit::Node)
            .map_or_else(Vec::new, |extents| NodeLines::holding(extents, byte)),
    })
}

/// Item `k` of a node-unit series of `trace` ([`Trace::value_at`]). Errors: [`Missing`] when
/// the series or its index `k` is not in the trace.
pub fn value(trace: &Trace, key: Key<Series>, k: usize) -> Result<f64, Missing> {
    trace.value_at(key, k)
}

/// Does a node-unit mark set of `trace` hold item `k`? ([`Trace::is_marked`].) Errors:
/// [`Missing`] when the mark set is not in the trace.
pub fn marked(trace: &Trace, key: Key<Marks>, k: usize) -> Result<bool, Missing> {
    trace.is_marked(key, k)
}

/// The first of `items` for which `pred` holds, where `pred` reads the trace. Errors: the first
/// [`Missing`] `pred` meets before a match.
pub fn try_find(
    items: impl IntoIterator<Item = usize>,
    mut pred: impl FnMut(usize) -> Result<bool, Missing>,
) -> Result<Option<usize>, Missing> {
    for k in items {
        if pred(k)? {
            return Ok(Some(k));
        }
    }
    Ok(None)
}

/// Every index a mark set of `trace` holds, ascending. Errors: [`Missing`] when the trace has
/// no such mark set.
pub fn indices(trace: &Trace, key: Key<Marks>) -> Result<Vec<usize>, Missing> {
    Ok(trace
        .get(key)?
        .spans
        .iter()
        .flat_map(Clone::clone)
        .collect())
}

/// An explanation built from typed trace reads: its sentences, or — when the algorithm's own
/// trace lacks an item it reads back (a bug, never a page's fault) — one sentence saying so,
/// instead of an explanation with a made-up number in it.
pub fn or_missing(explained: Result<Vec<String>, Missing>) -> Vec<String> {
    explained.unwrap_or_else(|e| vec![format!("cannot explain this line: {e}")])
}

/// A number as explanations write ratios and densities: two decimals (`0.41`), three below
/// 0.1 (`0.042`), a whole number without them (`12`).
pub fn num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else if v.abs() < 0.1 {
        format!("{v:.3}")
    } else {
        format!("{v:.2}")
    }
}

/// The element of `page.dom()` that trace item `k` (extent `extents[k]`) is: the one whose
/// outer extent ([`Dom::hull`]) is the item's, looked for first among the ancestors of
/// `line`'s text, then (for an item elsewhere) among all elements in document order. `None`
/// when no element has that extent (an algorithm that parsed its own DOM differently).
/// O(depth), or O(nodes) for an item off the line's ancestry.
fn dom_element(page: &Page, extents: &[Range<usize>], k: usize, line: &TextLine) -> Option<usize> {
    let dom: &Dom = page.dom();
    let want = extents.get(k)?;
    let is = |id: usize| dom.kind(id) == NodeKind::Element && dom.hull(id).as_ref() == Some(want);
    let mut cur = Some(page.blocks().get(line.block).nodes.start);
    while let Some(id) = cur {
        if is(id) {
            return Some(id);
        }
        cur = dom.parent(id);
    }
    (0..dom.len()).find(|&id| is(id))
}

/// Trace item `k` named for an explanation: `<div#content.post>` (its tag, id and classes,
/// [`node_label`]), or `element #k` when no element of the page's DOM has its extent.
pub fn element_name(page: &Page, trace: &Trace, k: usize, line: &TextLine) -> String {
    let extents = trace.positions(Unit::Node).unwrap_or(&[]);
    match dom_element(page, extents, k, line) {
        Some(id) => format!("<{}>", node_label(page.dom(), id)),
        None => format!("element #{k}"),
    }
}

/// The 1-based virtual lines of trace item `k`'s extent, `lines 30–41` (or `line 30`).
pub fn element_lines(page: &Page, trace: &Trace, k: usize) -> String {
    let Some(r) = trace.positions(Unit::Node).and_then(|p| p.get(k)) else {
        return String::new();
    };
    let lines = page.lines();
    let a = lines.line_of(r.start).unwrap_or(0) + 1;
    let z = lines
        .line_of(r.end.saturating_sub(1).max(r.start))
        .unwrap_or(0)
        + 1;
    if a == z {
        format!("line {a}")
    } else {
        format!("lines {a}–{z}")
    }
}

/// The sentence naming what hides `line`'s block, from the block model's visibility: the
/// outermost element that hides it (`hidden`, `aria-hidden`, inline `display: none`) and the
/// `<noscript>` it lies in (with the path to it); `None` for a block every reader sees.
pub fn visibility_note(page: &Page, line: &TextLine) -> Option<String> {
    let blocks = page.blocks();
    let b = blocks.get(line.block);
    if b.visibility.is_visible() {
        return None;
    }
    let dom = page.dom();
    let mut parts = Vec::new();
    if b.visibility.is_hidden() {
        let cause = Visibility::NAMES
            .iter()
            .filter(|(v, _)| b.visibility.contains(*v) && *v != Visibility::NOSCRIPT)
            .map(|(_, n)| *n)
            .collect::<Vec<_>>()
            .join(", ");
        match blocks.hidden_by(dom, line.block) {
            Some(id) => parts.push(format!(
                "hidden from readers by <{}> ({cause})",
                node_label(dom, id)
            )),
            None => parts.push(format!("hidden from readers ({cause})")),
        }
    }
    if b.visibility.contains(Visibility::NOSCRIPT) {
        match blocks.noscript(dom, line.block) {
            Some(id) => parts.push(format!(
                "inside <{}> under {} (shown only without JavaScript)",
                node_label(dom, id),
                dom.parent(id)
                    .map_or_else(String::new, |p| dom_path(dom, p))
            )),
            None => parts.push("inside <noscript> (shown only without JavaScript)".into()),
        }
    }
    Some(format!("the block is {}", parts.join(" and ")))
}

/// The sentence naming the record (post, comment, listing item: [`crate::page::Records`])
/// `line`'s block lies in, innermost first: `the block is in record 2 of 14 \`li.comment\` under
/// \`ol.comments\` (…)`; `None` outside every record.
pub fn record_note(page: &Page, line: &TextLine) -> Option<String> {
    let records = page.records();
    let k = records.of_block(line.block)?;
    Some(format!(
        "the block is in {}",
        records.describe(page.dom(), k)
    ))
}

/// The explanation's first sentence: `line 42: text of <p.story>`, then `rest`, then the
/// visibility note when the block is hidden or in `<noscript>` and the record note when it lies
/// in a record, each a sentence of its own.
pub fn sentences(page: &Page, line: &TextLine, first: String, rest: Vec<String>) -> Vec<String> {
    let mut out = vec![format!("line {}: {first}", line.line + 1)];
    out.extend(rest);
    out.extend(visibility_note(page, line));
    out.extend(record_note(page, line));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of markup between two blocks names both, with how much of each is selected;
    /// one after the last block names the last.
    #[test]
    fn markup_lines_name_the_blocks_around_them() {
        let html = "<html><body>\n<p>Council approves the plan for the harbour.</p>\n<div>\n\
            <p>Weather</p>\n</div>\n</body></html>";
        let page = Page::from_text("t.html", html);
        let mut x = Extraction::default();
        let line_of = |needle: &str| page.lines().line_of(html.find(needle).unwrap()).unwrap();
        // Select the first block's first words only.
        let a = html.find("Council").unwrap();
        x.selection = Selection::from_range(a..a + "Council approves".len());
        let div = line_of("<div>");
        let between = markup_line(&page, &x, div).unwrap();
        assert_eq!(
            between[0],
            format!(
                "line {}: markup only (no text a reader sees), between text block #1 “Council \
                 approves the plan for…” (line {}, partly selected (38%)) and text block #2 \
                 “Weather” (line {}, not selected)",
                div + 1,
                line_of("Council") + 1,
                line_of("Weather") + 1
            )
        );
        let after = markup_line(&page, &x, line_of("</body>")).unwrap();
        assert!(
            after[0].contains("after the last text block, text block #2 “Weather”"),
            "{after:?}"
        );
        assert_eq!(markup_line(&page, &x, 999), None);
    }
}
