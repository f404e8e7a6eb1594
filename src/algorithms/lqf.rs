//! `lqf` — the Link Quota Filter (Mantratzis et al. 2005; Gupta et al. 2003), as given in
//! Mohammadzadeh (2013), section 3.2.4, Algorithm 3 (after Gottron 2009's thesis).
//!
//! For every block-level DOM element `n` ([`crate::page::dom::Dom::is_block`], the same block
//! list as the virtual lines), Algorithm 3 computes the **link quota**
//! `q(n) = t_link / t_tot`: the characters of hyperlinked text over all characters of text in
//! `n`, where the text of nested block elements is left out ("C ← C \ descendants(m)" for every
//! block descendant `m`). A block whose quota exceeds the threshold `t` is deleted ("If the value
//! of the calculated ratio is greater than the threshold defined by the user, the DOM node will be
//! deleted"); the text that remains is the main content.
//!
//! What "the DOM node is deleted" takes with it is open, because the quota measures only the
//! block's *own* text: parameter `delete`. With `own-text` (the default) a deleted block loses the
//! text its quota measured and its nested blocks are judged on their own quotas; with `subtree`
//! it loses its whole subtree, as a literal node deletion would. `own-text` is the default
//! because `subtree` lets a wrapper `<div>` whose only own text is a "skip to content" link
//! delete the whole page (on the shared corpora it empties 17 of 98 scrapinghub-dev pages and
//! 353 of 1497 wcxb-dev pages), which the thesis' LQF figures (Tables 4.4–4.6, F1 0.69–0.93)
//! do not show.
//!
//! Choices where the pseudo-code is open (documented, and tested):
//! - Algorithm 3 iterates over all descendants and, for a non-block element `m` that is not a
//!   link, adds `length(getText(m))` and `Linkquota(m) · length(getText(m))`; taken literally,
//!   the text of an inline element (`<span>`, `<b>`) would then be counted once for the element
//!   and again for its own text nodes. cescope counts every text node once, as link text when it
//!   is inside an `<a>` — the same quota the recursion intends (`Linkquota(m) · length(m)` *is*
//!   the link text inside `m`).
//! - `length` counts characters without white space (as the line-based algorithms count "kept
//!   characters", thesis 4.5), so source indentation does not dilute a quota.
//! - A block with no text of its own (`t_tot = 0`) has no quota and is not deleted (its nested
//!   blocks are judged on their own).
//! - Text outside every block element (e.g. directly in `<body>` is inside the `body` block) is
//!   kept; text in `<head>` (the `title`) and text the DOM marks as not shown (scripts, styles,
//!   templates, `<noscript>` with scripting on) is never main content.
//!
//! Parameter `t` (threshold): 0.25 by default; the thesis also studies 0.5 and 0.75
//! (Tables 4.4–4.6, "LQF-25/50/75").

use crate::extract::explain::{self as ex, TextLine};
use crate::extract::trace::{
    runs, Agg, Key, Marks, Missing, Phase, Positions, Role, Scalar, Series,
};
use crate::extract::trace::{Trace, Unit};
use crate::extract::{AlgoInfo, Choice, StaticInfo};
use crate::extract::{Extraction, Extractor, ParamKind, ParamSpec, ParamValue, Params};
use crate::page::dom::{Dom, NodeKind};
use crate::page::lex::Tag;
use crate::page::Page;
use crate::selection::Selection;
use std::borrow::Cow;

/// The link-quota threshold `t` (Mohammadzadeh 2013, 3.2.4 and Tables 4.4–4.6).
pub const T_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("t"),
    kind: ParamKind::Float {
        min: 0.0,
        max: 1.0,
        step: 0.05,
    },
    default: ParamValue::Float(0.25),
    help: "a block whose link quota exceeds t is deleted (0.25; 0.5 and 0.75 also studied)",
    source: "Mohammadzadeh 2013, 3.2.4, Algorithm 3; Tables 4.4-4.6 (LQF-25/50/75)",
};

/// What a deleted block takes with it (the pseudo-code is open here; see the module
/// documentation).
pub const DELETE_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("delete"),
    kind: ParamKind::Choice {
        choices: <Delete as Choice>::NAMES,
    },
    default: ParamValue::choice("own-text"),
    help: "own-text: a deleted block loses the text its quota measured (nested blocks are judged on their own); subtree: it loses its whole subtree",
    source: "Mohammadzadeh 2013, 3.2.4, Algorithm 3 (nested blocks excluded from the quota); cescope's choice",
};

crate::choice_enum! {
    /// What a deleted block takes with it ([`DELETE_SPEC`]).
    pub enum Delete {
        /// The text its quota measured (nested blocks are judged on their own).
        OwnText = "own-text",
        /// Its whole subtree.
        Subtree = "subtree",
    }
}

crate::typed_params! {
    /// LQF's parameters (Mohammadzadeh 2013, 3.2.4).
    pub struct LqfParams {
        /// The link-quota threshold `t`.
        pub t: f64 = T_SPEC,
        /// What a deleted block takes with it.
        pub delete: Delete = DELETE_SPEC,
    }
}

/// The Link Quota Filter.
#[derive(Debug, Clone, Default)]
pub struct Lqf;

/// Per-block counts of Algorithm 3 for one DOM.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BlockQuotas {
    /// The block elements, in document order (the trace's node unit indexes this list).
    pub blocks: Vec<usize>,
    /// `t_tot` of each block: its own text characters (nested blocks excluded, white space
    /// excluded).
    pub total: Vec<u64>,
    /// `t_link` of each block: the part of `total` inside `<a>` elements.
    pub link: Vec<u64>,
    /// For every DOM node, the number of its nearest block ancestor-or-self in [`Self::blocks`]
    /// (`usize::MAX` outside every block).
    pub owner: Vec<usize>,
}

impl BlockQuotas {
    /// The quota `t_link / t_tot` of block `k` (`None` when the block has no text of its own).
    pub fn quota(&self, k: usize) -> Option<f64> {
        (self.total[k] > 0).then(|| self.link[k] as f64 / self.total[k] as f64)
    }
}

/// The block elements of `dom` in document order and, for every DOM node, the number (index
/// into the first vector) of its nearest block ancestor-or-self (`usize::MAX` outside every
/// block): the "own text, nested blocks excluded" table of Algorithm 3, shared by the other
/// per-block filters (the stop-word filter, [`super::sw`]). O(nodes).
pub fn block_owners(dom: &Dom) -> (Vec<usize>, Vec<usize>) {
    let n = dom.len();
    let mut index_of = vec![usize::MAX; n]; // node -> block number
    let mut blocks = Vec::new();
    for (id, _) in dom.blocks() {
        index_of[id] = blocks.len();
        blocks.push(id);
    }
    // owner[i] = block number of node i's nearest block ancestor-or-self (pre-order: a parent
    // precedes its children, so one forward pass suffices).
    let mut owner = vec![usize::MAX; n];
    #[allow(clippy::needless_range_loop)] // owner[id] reads owner[parent(id)]
    for id in 0..n {
        owner[id] = if index_of[id] != usize::MAX {
            index_of[id]
        } else {
            dom.parent(id).map_or(usize::MAX, |p| owner[p])
        };
    }
    (blocks, owner)
}

/// Algorithm 3 for every block of `dom` in one O(nodes + text) pass: each shown text node's
/// non-white-space characters go to its nearest block ancestor ("nested blocks excluded").
pub fn block_quotas(dom: &Dom) -> BlockQuotas {
    let (blocks, owner) = block_owners(dom);
    let mut q = BlockQuotas {
        total: vec![0; blocks.len()],
        link: vec![0; blocks.len()],
        blocks,
        owner: Vec::new(),
    };
    for (id, _) in dom.text_nodes() {
        let k = owner[id];
        if dom.is_non_text(id) || k == usize::MAX {
            continue;
        }
        let chars = dom.non_space_chars(id) as u64;
        q.total[k] += chars;
        if dom.in_anchor(id) {
            q.link[k] += chars;
        }
    }
    q.owner = owner;
    q
}

/// The trace items LQF reads back in its explanation: built and read by
/// these [`Key`]s.
const LINK: Key<Series> = Key::new("link");
const TEXT: Key<Series> = Key::new("text");
const T: Key<Scalar> = Key::new("t");
const KEPT: Key<Marks> = Key::new("kept");
const DELETED: Key<Marks> = Key::new("deleted");

const PHASES: &[Phase] = &[
            Phase::new("blocks", "each block element's own text, nested blocks excluded: link text (left) and other text (right)", &["link", "text", "blocks"]),
            Phase::new("link quota", "q = link text / all text per block (Algorithm 3), against the threshold t", &["quota", "t"]),
            Phase::new("deletion", "blocks with q > t lose their text (delete=own-text) or their subtree (delete=subtree); the remaining text is the main content", &["kept", "deleted"]),
        ];

static INFO: AlgoInfo = AlgoInfo::new(
    "lqf",
    "Link Quota Filter: delete DOM blocks whose link text / text exceeds t (Mohammadzadeh 2013, 3.2.4, Algorithm 3)",
    "Mohammadzadeh 2013, 3.2.4, Algorithm 3",
    LqfParams::SPECS,
    PHASES,
).with_dom();

impl StaticInfo for Lqf {
    const INFO: &'static AlgoInfo = &INFO;
}

impl Extractor for Lqf {
    /// Trace (node unit = the page's block elements in document order; positions = each block's
    /// outer byte extent): `link` (code signal, link characters of the block's own text), `text`
    /// (content signal, its other characters), `quota` (combined signal, `t_link / t_tot`, 0 for a
    /// block without text; maximum per line), `t` (threshold), `blocks` (candidates: blocks with
    /// text), `deleted` (blocks with `q > t`, bound), `kept` (selected: blocks with text that
    /// survive, i.e. neither deleted nor inside a deleted block).
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let LqfParams { t, delete } = LqfParams::read(params);
        let whole_subtree = delete == Delete::Subtree;
        let dom = page.dom();
        let q = block_quotas(dom);
        let nb = q.blocks.len();
        let deleted: Vec<bool> = (0..nb).map(|k| q.quota(k).is_some_and(|x| x > t)).collect();

        // Walk the tree: skip the head and (with `delete=subtree`) deleted subtrees; collect the
        // shown text whose owning block (nearest block ancestor-or-self) is not deleted.
        let mut sel = Vec::new();
        let mut survives = vec![false; nb];
        let mut id = 0;
        while id < dom.len() {
            let k = q.owner[id];
            if k != usize::MAX && q.blocks[k] == id {
                // `id` is block number k.
                if (whole_subtree && deleted[k]) || dom.tag(id) == Tag::Head {
                    id = dom.subtree(id).end;
                    continue;
                }
                survives[k] = !deleted[k];
            }
            let kept_owner = k == usize::MAX || !deleted[k];
            if dom.kind(id) == NodeKind::Text && !dom.is_non_text(id) && kept_owner {
                sel.extend(dom.spans(id).iter().cloned());
            }
            id += 1;
        }
        let selection = page.normalize(&Selection::from_ranges(sel));

        let runs_of = |pred: &dyn Fn(usize) -> bool| runs((0..nb).filter(|&k| pred(k)));
        let has_text = |k: usize| q.total[k] > 0;
        let positions = q
            .blocks
            .iter()
            .map(|&id| dom.hull(id).unwrap_or(0..0))
            .collect();
        let trace = Trace {
            series: vec![
                Series::new(
                    LINK,
                    "link chars (own text, nested blocks excluded)",
                    Unit::Node,
                    Role::CodeSignal,
                    q.link.iter().map(|&x| x as f64).collect(),
                ),
                Series::new(
                    TEXT,
                    "non-link chars (own text)",
                    Unit::Node,
                    Role::ContentSignal,
                    q.total
                        .iter()
                        .zip(&q.link)
                        .map(|(&a, &l)| (a - l) as f64)
                        .collect(),
                ),
                Series::new(
                    "quota",
                    "link quota q (Algorithm 3)",
                    Unit::Node,
                    Role::CombinedSignal,
                    (0..nb).map(|k| q.quota(k).unwrap_or(0.0)).collect(),
                )
                .with_agg(Agg::Max),
            ],
            scalars: vec![Scalar::new(T, "threshold t", None, Role::Threshold, t)],
            marks: vec![
                Marks::new(
                    "blocks",
                    "blocks with text",
                    Unit::Node,
                    Role::Candidates,
                    runs_of(&has_text),
                ),
                Marks::new(
                    DELETED,
                    "deleted blocks (q > t)",
                    Unit::Node,
                    Role::Bound,
                    runs_of(&|k| deleted[k]),
                ),
                Marks::new(
                    KEPT,
                    "kept blocks",
                    Unit::Node,
                    Role::Selected,
                    runs_of(&|k| survives[k] && has_text(k)),
                ),
            ],
            positions: vec![Positions {
                unit: Unit::Node,
                ranges: positions,
            }],
        };
        Extraction { selection, trace }
    }

    /// On a line of text (the whole run): the block whose own text it is — the element the
    /// line's bar shows — with the decisive comparison of Algorithm 3, `link quota q = 12 / 29
    /// = 0.41 > t 0.25 → the block's text is removed`, or why a block under the threshold lost
    /// its text anyway (a deleted ancestor with `delete=subtree`, `<head>`), and what hides the
    /// block. Elsewhere, and in step mode before the last phase, [`crate::extract::explain_default`].
    fn explain_text_line(&self, page: &Page, trace: &Trace, line: &TextLine) -> Vec<String> {
        ex::or_missing(explain_line(page, trace, line))
    }
}

/// [`Lqf::explain_text_line`]'s sentences, reading the trace through its typed keys. Errors:
/// [`Missing`] when the trace lacks an item it reads.
fn explain_line(page: &Page, trace: &Trace, line: &TextLine) -> Result<Vec<String>, Missing> {
    let Some(k) = line.element() else {
        return Ok(ex::sentences(
            page,
            line,
            "its text lies in no block element, and LQF keeps text outside every block".into(),
            Vec::new(),
        ));
    };
    let name = ex::element_name(page, trace, k, line);
    let link = ex::value(trace, LINK, k)?;
    let total = link + ex::value(trace, TEXT, k)?;
    let t = trace.scalar_of(T)?;
    let first = format!(
        "own text of the block {name} ({}; nested blocks excluded): {} of {} characters in links",
        ex::element_lines(page, trace, k),
        ex::num(link),
        ex::num(total)
    );
    let q = if total > 0.0 { link / total } else { 0.0 };
    let quota = format!(
        "link quota q = {} / {} = {}",
        ex::num(link),
        ex::num(total),
        ex::num(q)
    );
    let kept = ex::marked(trace, KEPT, k)?;
    let deleted_above = ex::try_find(line.chain.iter().rev().skip(1).copied(), |a| {
        ex::marked(trace, DELETED, a)
    })?;
    let decision = if total == 0.0 {
        "no own text: no link quota, the block is not deleted (Algorithm 3)".to_string()
    } else if ex::marked(trace, DELETED, k)? {
        format!(
            "{quota} > t {} → the block's text is removed (Mohammadzadeh 2013, 3.2.4, Algorithm 3)",
            ex::num(t)
        )
    } else if let (false, Some(a)) = (kept, deleted_above) {
        let (al, at) = (ex::value(trace, LINK, a)?, ex::value(trace, TEXT, a)?);
        format!(
            "{quota} ≤ t {t}, but the block {} around it has link quota {} > t {t}, and \
             delete=subtree removes its whole subtree",
            ex::element_name(page, trace, a, line),
            ex::num(al / (al + at).max(1.0)),
            t = ex::num(t)
        )
    } else if !kept {
        format!(
            "{quota} ≤ t {}, but text in <head> is never main content",
            ex::num(t)
        )
    } else {
        format!("{quota} ≤ t {} → the block's text is kept", ex::num(t))
    };
    Ok(ex::sentences(page, line, first, vec![decision]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::trace::{Location, Step};
    use crate::extract::Algorithm;

    fn run(html: &str, t: f64) -> (Page, Extraction) {
        let p = Page::from_text("t.html", html);
        let lqf = Lqf;
        let mut params = Params::defaults(lqf.params());
        params.set(&T_SPEC, ParamValue::Float(t)).unwrap();
        let x = lqf.run(&p, &params);
        (p, x)
    }

    /// Nested blocks by hand: the outer div holds 20 chars of its own text (10 of them a link),
    /// an inner list of links (all link text) and a paragraph (no links).
    #[test]
    fn nested_blocks_by_hand() {
        let html = "<html><head><title>Title</title></head><body>\
            <div>abcdefghij<a href=x>klmnopqrst</a>\
              <ul><li><a href=1>Home</a></li><li><a href=2>News</a></li></ul>\
              <p>Plain article text <b>here</b>.</p>\
            </div></body></html>";
        let p = Page::from_text("t.html", html);
        let q = block_quotas(p.dom());
        let names: Vec<String> = q
            .blocks
            .iter()
            .map(|&id| p.dom().tag_name(id).unwrap_or("").to_string())
            .collect();
        let k = |name: &str| names.iter().position(|n| n == name).unwrap();
        // div: own text = 20 chars, 10 of them link text; the ul and p are nested blocks.
        assert_eq!((q.total[k("div")], q.link[k("div")]), (20, 10));
        assert_eq!(q.quota(k("div")), Some(0.5));
        // li: all link text; ul: no text of its own (only nested li blocks).
        assert_eq!(q.quota(k("li")), Some(1.0));
        assert_eq!(q.quota(k("ul")), None);
        // p: "Plainarticletexthere." = 21 chars, no links; inline <b> counted once.
        assert_eq!((q.total[k("p")], q.link[k("p")]), (21, 0));

        // t = 0.25: the div (0.5) loses its own text; its nested paragraph survives.
        let (p, x) = run(html, 0.25);
        assert_eq!(p.render(&x.selection), "Plain article text here.");
        // With delete=subtree, the paragraph goes with the div.
        let lqf = Lqf;
        let mut params = Params::defaults(lqf.params());
        params
            .set(&DELETE_SPEC, ParamValue::choice("subtree"))
            .unwrap();
        assert_eq!(p.render(&lqf.run(&p, &params).selection), "");
        // t = 0.5: the div survives (0.5 is not > 0.5), the link items go, the title never counts.
        let (p, x) = run(html, 0.5);
        let text = p.render(&x.selection);
        assert!(
            text.contains("abcdefghij") && text.contains("Plain article text here."),
            "{text}"
        );
        assert!(!text.contains("Home") && !text.contains("Title"), "{text}");
        x.trace.validate(&p).unwrap();
        assert!(p.is_normal(&x.selection));
    }

    #[test]
    fn removes_link_lists_keeps_the_article() {
        let mut html = String::from("<body><div id=nav>");
        for i in 0..10 {
            html.push_str(&format!("<a href=/{i}>Section {i}</a> "));
        }
        html.push_str("</div><div id=main><p>The article has a <a href=/r>reference</a> and a lot of text around it.</p></div></body>");
        let (p, x) = run(&html, 0.25);
        let text = p.render(&x.selection);
        assert!(
            text.contains("The article has a reference and a lot of text around it."),
            "{text}"
        );
        assert!(!text.contains("Section"), "{text}");
    }

    /// Explain on a text line names the block that owns it and its link quota against t, with
    /// the numbers by hand: the menu's own text is "Home page" (8 characters, a link) and "and
    /// more" (7): q = 8 / 15 ≈ 0.53 > 0.25, removed; the paragraph's is "Plain words here" (14)
    /// and "link" (4, a link): q = 4 / 18 ≈ 0.22, kept. A hidden block says what hides it.
    /// The explanation reads `t` back through its typed key: a trace without it (a renamed or
    /// dropped item) gives a sentence naming the missing item, never `t 0`.
    #[test]
    fn explain_names_a_missing_trace_item_instead_of_a_default() {
        let html = "<html><body><div id=menu><a href=/a>Home page</a> and more</div></body></html>";
        let (p, mut x) = run(html, 0.25);
        let whole = ex::explain_at(&Lqf, &p, &x, "Home page");
        assert!(whole.contains("> t 0.25"), "{whole}");
        x.trace.scalars.retain(|s| s.key != T.name());
        let said = ex::explain_at(&Lqf, &p, &x, "Home page");
        assert!(
            said.contains("cannot explain this line: the trace has no scalar \"t\""),
            "{said}"
        );
        assert!(!said.contains("t 0"), "{said}");
    }

    #[test]
    fn explain_gives_the_blocks_link_quota_against_t() {
        let html = "<html><head><title>T</title></head><body>\n<div id=menu>\n\
            <a href=/a>Home page</a> and more\n</div>\n<p>Plain words here <a href=/r>link</a></p>\n\
            <div style=\"display:none\"><p>Hidden words</p></div>\n</body></html>";
        let (p, x) = run(html, 0.25);
        let explain = |s: &str| ex::explain_at(&Lqf, &p, &x, s);
        let menu = explain("Home page");
        assert!(menu.contains("block <div#menu>"), "{menu}");
        assert!(menu.contains("8 of 15 characters in links"), "{menu}");
        assert!(
            menu.contains("link quota q = 8 / 15 = 0.53 > t 0.25 → the block's text is removed"),
            "{menu}"
        );
        let para = explain("Plain words");
        assert!(
            para.contains("link quota q = 4 / 18 = 0.22 ≤ t 0.25 → the block's text is kept"),
            "{para}"
        );
        let hidden = explain("Hidden words");
        assert!(
            hidden.contains("the block is hidden from readers by <div> (display:none)"),
            "{hidden}"
        );
        // A line of markup only names the text blocks around it and keeps the trace's values
        // there, without the node intervals; step mode before the last phase keeps the
        // generic explanation.
        let tag = p
            .lines()
            .line_of(html.find("<div id=menu>").unwrap())
            .unwrap();
        let generic = Lqf.explain(&p, &x, Location::Line(tag), None).join("; ");
        assert!(generic.contains("(combined signal)"), "{generic}");
        assert!(
            generic.contains(
                "markup only (no text a reader sees), between text block #1 “T” (line 4, \
                 not selected) and text block #2 “Home page and more” (line 9, not selected)"
            ),
            "{generic}"
        );
        assert!(!generic.contains("of nodes"), "{generic}");
        let line = p.lines().line_of(html.find("Home page").unwrap()).unwrap();
        let early = Lqf.explain(&p, &x, Location::Line(line), Some(Step::phase(0)));
        assert!(!early.join(" ").contains("removed"), "{early:?}");
    }
}
