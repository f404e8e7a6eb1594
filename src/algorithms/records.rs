//! `records` — the largest record group as the main content: posts and comments as units
//! (Mohammadzadeh 2013, section 7.2.2, a future direction the thesis names without an
//! algorithm; the record rule is cescope's, [`crate::page::blocks::records`]).
//!
//! The page's record groups — at least `min_records` sibling elements of one signature, each
//! holding text in at least `min_blocks` atomic text blocks — are found on the block model;
//! the group with the most words is selected whole: the text of every block of its records.
//! On a forum thread that is the posts, on a listing page the items; on an article page it is
//! usually the comments or a link list, so `records` is a probe of how far the record units
//! carry, not a general extractor. A page without a group extracts nothing.

use crate::extract::explain::{self as ex, TextLine};
use crate::extract::trace::{
    Key, Marks, Missing, Phase, Positions, Role, Scalar, Series, Trace, Unit,
};
use crate::extract::{AlgoInfo, StaticInfo};
use crate::extract::{Extraction, Extractor, ParamKind, ParamSpec, ParamValue, Params};
use crate::page::blocks::{RecordOptions, Records};
use crate::page::Page;
use crate::selection::Selection;
use std::borrow::Cow;

/// Records of one signature under one parent needed for a group.
pub const MIN_RECORDS_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("min_records"),
    kind: ParamKind::Int {
        min: 2,
        max: 20,
        step: 1,
    },
    default: ParamValue::Int(3),
    help: "sibling elements of one signature needed for a record group (3: 'repeated at least three times')",
    source: "cescope's record rule (page::blocks::records), after Mohammadzadeh 2013, 7.2.2",
};

/// Atomic text blocks a record's subtree must hold.
pub const MIN_BLOCKS_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("min_blocks"),
    kind: ParamKind::Int {
        min: 1,
        max: 10,
        step: 1,
    },
    default: ParamValue::Int(2),
    help: "text blocks a record must hold (2: a post has an author line and a body; a paragraph or a menu entry has one)",
    source: "cescope's record rule (page::blocks::records)",
};

crate::typed_params! {
    /// The record rule's parameters.
    pub struct RecordsParams {
        /// Records needed for a group.
        pub min_records: i64 = MIN_RECORDS_SPEC,
        /// Blocks a record holds at least.
        pub min_blocks: i64 = MIN_BLOCKS_SPEC,
    }
}

/// The largest record group.
#[derive(Debug, Clone, Default)]
pub struct RecordGroups;

/// The trace items Records reads back in its explanation: built and read by
/// these [`Key`]s.
const GROUPS: Key<Scalar> = Key::new("groups");
const CHOSEN: Key<Marks> = Key::new("chosen");
const GROUP: Key<Series> = Key::new("group");
const WORDS: Key<Series> = Key::new("words");

const PHASES: &[Phase] = &[
    Phase::new(
        "records",
        "sibling elements of one signature holding text in several blocks, repeated at least min_records times: the record groups",
        &["words", "group", "records"],
    ),
    Phase::new(
        "largest group",
        "the group with the most words is selected whole",
        &["groups", "chosen"],
    ),
];

static INFO: AlgoInfo = AlgoInfo::new(
    "records",
    "Record groups: the largest group of repeated sibling posts / comments / items, selected whole (Mohammadzadeh 2013, 7.2.2; cescope's rule)",
    "Mohammadzadeh 2013, 7.2.2 (future direction); cescope's record rule",
    RecordsParams::SPECS,
    PHASES,
)
.with_dom();

impl StaticInfo for RecordGroups {
    const INFO: &'static AlgoInfo = &INFO;
}

impl Extractor for RecordGroups {
    /// Trace (node unit = the records, group by group; positions = each record element's outer
    /// byte extent): `words` (content signal, words of each record), `group` (label: its group
    /// number), `groups` scalar (how many), `records` (candidates: each group's records as one
    /// interval), `chosen` (selected: the records of the largest group).
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let p = RecordsParams::read(params);
        let opts = RecordOptions {
            min_records: usize::try_from(p.min_records).unwrap_or(3),
            min_blocks: usize::try_from(p.min_blocks).unwrap_or(2),
        };
        let built;
        let records: &Records = if opts == RecordOptions::default() {
            page.records()
        } else {
            built = Records::build(page.dom(), page.blocks(), &opts);
            &built
        };
        let dom = page.dom();
        let blocks = page.blocks();
        let chosen = records.largest();
        let mut sel = Vec::new();
        if let Some(g) = chosen {
            for r in &records.records()[records.groups()[g].records.clone()] {
                for b in r.blocks.clone() {
                    sel.extend(blocks.ranges(b).iter().cloned());
                }
            }
        }
        let selection = page.normalize(&Selection::from_ranges(sel));
        let rs = records.records();
        let trace = Trace {
            series: vec![
                Series::new(
                    WORDS,
                    "words of the record",
                    Unit::Node,
                    Role::ContentSignal,
                    rs.iter().map(|r| r.words as f64).collect(),
                ),
                Series::new(
                    GROUP,
                    "record group number",
                    Unit::Node,
                    Role::Label,
                    rs.iter().map(|r| r.group as f64).collect(),
                ),
            ],
            scalars: vec![Scalar::new(
                GROUPS,
                "record groups found",
                None,
                Role::Info,
                records.groups().len() as f64,
            )],
            marks: vec![
                Marks::new(
                    "records",
                    "record groups (one interval per group)",
                    Unit::Node,
                    Role::Candidates,
                    records.groups().iter().map(|g| g.records.clone()).collect(),
                ),
                Marks::new(
                    CHOSEN,
                    "the largest group's records",
                    Unit::Node,
                    Role::Selected,
                    chosen
                        .map(|g| records.groups()[g].records.clone())
                        .into_iter()
                        .collect(),
                ),
            ],
            positions: vec![Positions {
                unit: Unit::Node,
                ranges: rs
                    .iter()
                    .map(|r| dom.hull(r.node).unwrap_or(0..0))
                    .collect(),
            }],
        };
        Extraction { selection, trace }
    }

    /// On a line of text (the whole run): the record whose bar the line shows (innermost) with
    /// its lines and words, its group's words (words: [`crate::page::blocks::Features::words`])
    /// against the largest group's — `record <li.col> (lines 244–270; 97 words) of group 1
    /// (1330 words in all); the largest of 2 groups → selected whole`. Elsewhere, and in step
    /// mode before the last phase, [`crate::extract::explain_default`].
    fn explain_text_line(&self, page: &Page, trace: &Trace, line: &TextLine) -> Vec<String> {
        ex::or_missing(explain_line(page, trace, line))
    }
}

/// [`Records::explain_text_line`]'s sentences, reading the trace through its typed keys. Errors:
/// [`Missing`] when the trace lacks an item it reads.
fn explain_line(page: &Page, trace: &Trace, line: &TextLine) -> Result<Vec<String>, Missing> {
    let groups = trace.scalar_of(GROUPS)?;
    let chosen = trace.get(CHOSEN)?.spans.first().cloned();
    let group = &trace.get(GROUP)?.values;
    let words = &trace.get(WORDS)?.values;
    let group_words = |g: f64| -> f64 {
        group
            .iter()
            .zip(words)
            .filter(|&(&h, _)| h == g)
            .map(|(_, &w)| w)
            .sum()
    };
    let chosen_words = match &chosen {
        Some(r) => group_words(ex::value(trace, GROUP, r.start)?),
        None => 0.0,
    };
    let Some(k) = line.element() else {
        let why = if groups == 0.0 {
            "the page has no record group (min_records siblings of one signature, each with min_blocks blocks of text), so nothing is selected".to_string()
        } else {
            format!(
                "its text lies in no record → not selected (the largest of {} groups holds {} words)",
                ex::num(groups),
                ex::num(chosen_words)
            )
        };
        return Ok(ex::sentences(page, line, why, Vec::new()));
    };
    let g = ex::value(trace, GROUP, k)?;
    let in_chosen = chosen.as_ref().is_some_and(|r| r.contains(&k));
    let first = format!(
        "record {} ({}; {} words) of group {} ({} words in all)",
        ex::element_name(page, trace, k, line),
        ex::element_lines(page, trace, k),
        ex::num(ex::value(trace, WORDS, k)?),
        ex::num(g),
        ex::num(group_words(g))
    );
    let verdict = if in_chosen {
        format!("the largest of {} groups → selected whole", ex::num(groups))
    } else {
        format!(
            "the largest group holds {} words → not selected",
            ex::num(chosen_words)
        )
    };
    let mut said = ex::sentences(page, line, first, vec![verdict]);
    // The first sentence named the record already: drop the shared record note.
    if let Some(note) = ex::record_note(page, line) {
        said.retain(|s| *s != note);
    }
    Ok(said)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Algorithm;

    fn post(who: &str, body: &str) -> String {
        format!("<div class=\"post\"><span class=who>{who}</span><p>{body}</p></div>")
    }

    #[test]
    fn selects_the_largest_group_whole() {
        let html = format!(
            "<html><body><ul class=nav><li><a href=/>Home</a></li><li><a href=/a>About</a></li>\
             <li><a href=/b>Blog</a></li></ul><div id=thread>{}{}{}</div>\
             <div id=side><div class=box><h3>One</h3><p>tiny</p></div><div class=box><h3>Two</h3>\
             <p>tiny</p></div><div class=box><h3>Three</h3><p>tiny</p></div></div></body></html>",
            post("ann", "first post with several words in it"),
            post("bob", "second post also has several words"),
            post("cy", "third post closes the thread here"),
        );
        let page = Page::from_text("t.html", html);
        let e = RecordGroups;
        let x = e.run(&page, &Params::default());
        x.trace.validate(&page).unwrap();
        let text = page.render(&x.selection);
        for w in ["ann", "first post", "bob", "third post closes"] {
            assert!(text.contains(w), "{w:?} missing from {text:?}");
        }
        for w in ["Home", "One", "tiny"] {
            assert!(!text.contains(w), "{w:?} selected in {text:?}");
        }
        assert_eq!(x.trace.scalars[0].value, 2.0, "the posts and the boxes");
        // A stricter rule finds no group: nothing is extracted.
        let mut params = Params::default();
        params.set(&MIN_RECORDS_SPEC, ParamValue::Int(4)).unwrap();
        let y = e.run(&page, &params);
        assert!(y.selection.is_empty());
        assert_eq!(e.info().name, "records");
        let said = ex::explain_at(&e, &page, &x, "second post");
        assert!(
            said.contains("of group 0 (22 words in all)")
                && said.contains("the largest of 2 groups → selected whole")
                && !said.contains("the block is in record"),
            "{said}"
        );
        let said = ex::explain_at(&e, &page, &x, "Two");
        assert!(
            said.contains("of group 1 (")
                && said.contains("the largest group holds 22 words → not selected"),
            "{said}"
        );
    }
}
