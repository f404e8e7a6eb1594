//! `cetd` — Content Extraction via Text Density (Sun, Song & Liao 2011, "DOM based content
//! extraction via text density", SIGIR '11), as described in Mohammadzadeh (2013), section 3.2.7,
//! Formulas 3.1 and 3.2 and Algorithm 4.
//!
//! Every element `i` of the `<body>` subtree gets
//!
//! - `C_i`, its characters, `T_i`, its tags (descendant elements), `LC_i`, its hyperlink
//!   characters, `LT_i`, its hyperlink tags, and `NLC_i = C_i − LC_i`;
//! - a **text density** (Formula 3.1, Algorithm 4) `TD_i = C_i / T_i`, or the **composite text
//!   density** (Formula 3.2)
//!   `CTD_i = C_i/T_i · log_{ln(C_i/NLC_i · LC_i + LC_b/C_b · C_i + e)}(C_i/LC_i · T_i/LT_i)`,
//!   where `LC_b / C_b` is the share of hyperlink characters in the whole `<body>`;
//! - a **DensitySum**: the sum of its children's densities (its own density when it has no
//!   child element).
//!
//! The element with the largest DensitySum is the heart of the main content; the **threshold**
//! `t` is the smallest density on the path from that element up to `<body>` (or the density of
//! `<body>` itself, parameter `threshold`). Extraction then walks down from `<body>` through the
//! elements whose density is at least `t`; for each such element, the element with the largest
//! DensitySum in its subtree is content, with its whole subtree. The text of the content
//! elements is the main content.
//!
//! The thesis' Formula 3.2 is garbled in print (`C_i / −LC_i`); cescope follows the original
//! paper and its authors' public implementation (github.com/FeiSun/ContentExtraction,
//! `textdensity.cpp`, read to compare, not copied), where the base is
//! `ln(C_i · LC_i / NLC_i + LC_b/C_b · C_i + e)`. Choices where the text is silent (the first
//! five as in the authors' implementation):
//!
//! - **Edge cases.** `C_i = 0` gives density 0. Otherwise `T_i`, `LC_i`, `LT_i` and `NLC_i` are
//!   read as 1 when they are 0 (Algorithm 4's `if N.TagNumber == 0 then N.TagNumber ← 1`,
//!   applied to every denominator). The base is then `ln(x)` with `x > e`, so `ln(base) > 0`:
//!   no division by zero, no NaN. The log's argument `C_i·T_i / (LC_i·LT_i)` is never below 1
//!   here, because `LC_i ≤ C_i` and `LT_i ≤ T_i` (and a 0 read as 1 only on the side of a
//!   count that is itself at least 1): CTD ≥ 0, and exactly 0 for an element of links only
//!   (`C = LC`, `T = LT`), such as a menu. ([`ctd`] of inconsistent counts would be negative.)
//! - **Hyperlinks** are `<a>`, `<button>` and `<select>` elements ("hyperlink and sth like
//!   that"). Hyperlink characters are the characters inside one. Hyperlink tags `LT_i` are the
//!   descendant elements of `i` that are hyperlinks, lie inside one, or hold only hyperlinks
//!   (all their characters and tags are hyperlink characters and tags, and they have at least
//!   one hyperlink tag — a `<li>` around one `<a>`).
//! - **Tags** `T_i` count the element descendants of `i` (text nodes and comments are not
//!   tags); a leaf element has `T = 0`, read as 1.
//! - **What is not on the page** does not count: elements whose text is not shown (`script`,
//!   `style`, `template`, `noscript` when scripting is on — the browser's default `display: none`)
//!   and elements hidden by attribute or inline style ([`Dom::is_hidden`]) are neither tags nor
//!   characters, and never content (the authors remove `display: none` elements before
//!   counting). `<head>` is never content: the tree is the `<body>` subtree (the `<html>`
//!   element's on a `<frameset>` page without a body).
//! - **DensitySum ties** go to the first element in document order (the original scans in
//!   document order and replaces only on a strictly larger value).
//! - **Characters** are counted without white space (cescope's choice, as the line-based
//!   algorithms count kept characters, thesis 4.5; the original counts the browser's rendered
//!   text, where white space is collapsed), so source indentation and layout do not change a
//!   density and a masked page's blanked text counts 0.
//! - **Text directly in an element that has child elements** is a child of its own in the
//!   DensitySum: a text node is scored by the same formula as a leaf element with `T = 0` (the
//!   original scores such text runs with a hand-written special case that lacks the `+ 1` the
//!   formula gives inside the base's logarithm; otherwise the same).
//! - **Text of the path elements** (the ancestors of a content element, which the original
//!   keeps so the content stays in the tree) is not content unless it lies inside a content
//!   element: the original outputs the remaining document's text, in which the text directly
//!   inside those ancestors survives as a by-product of removing elements only.
//!
//! Parameters: `density` (`ctd`, Formula 3.2, the default; `td`, Formula 3.1) and `threshold`
//! (`path-min`, the authors' implementation, the default; `body`, the density of `<body>`, as the
//! thesis puts it: "`<body>` tag's text [density] is practically considered as the threshold").
//! Since `<body>` is on the path, `path-min ≤ body`: `path-min` keeps at least as much.
//! `scripting` (default false) is the HTML scripting flag of the DOM CETD reads: the authors ran
//! their code in a browser with JavaScript disabled, so `<noscript>` content is page text (forum
//! software such as Discourse serves its posts there). When it equals the page's own flag
//! ([`Page::scripting`], off unless the page was loaded with `--scripting`) CETD reuses
//! [`Page::dom`], as the other DOM algorithms; otherwise it parses its own DOM ([`Dom::parse`],
//! one more O(n) parse).
//!
//! Cost: three O(nodes) passes over the DOM plus one over the text nodes' characters.

use crate::extract::explain::{self as ex, TextLine};
use crate::extract::trace::{runs, Agg, Marks, Phase, Positions, Role, Scalar, Series};
use crate::extract::trace::{Key, Missing, Trace, Unit};
use crate::extract::{AlgoInfo, Choice, StaticInfo};
use crate::extract::{Extraction, Extractor, ParamKind, ParamSpec, ParamValue, Params};
use crate::page::dom::{Dom, DomOptions, NodeId, NodeKind};
use crate::page::lex::Tag;
use crate::page::Page;
use crate::selection::Selection;
use std::borrow::Cow;

/// The density measure (Sun et al. 2011; Mohammadzadeh 2013, Formulas 3.1 and 3.2).
pub const DENSITY_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("density"),
    kind: ParamKind::Choice {
        choices: <Density as Choice>::NAMES,
    },
    default: ParamValue::choice("ctd"),
    help: "ctd: composite text density, links penalised (Formula 3.2); td: text density C/T (Formula 3.1)",
    source: "Mohammadzadeh 2013, 3.2.7, Formulas 3.1 and 3.2; Sun et al. 2011",
};

/// Where the threshold comes from (the thesis and the authors' implementation differ; see the
/// module documentation).
pub const THRESHOLD_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("threshold"),
    kind: ParamKind::Choice {
        choices: <ThresholdRule as Choice>::NAMES,
    },
    default: ParamValue::choice("path-min"),
    help: "path-min: the smallest density from the max-DensitySum element up to <body> (authors' code); body: the density of <body> (thesis 3.2.7)",
    source: "Sun et al. 2011 (authors' implementation, GetThreshold); Mohammadzadeh 2013, 3.2.7",
};

/// The HTML scripting flag of the DOM CETD reads (the authors ran their code in a browser with
/// JavaScript disabled, so `<noscript>` content was page text).
pub const SCRIPTING_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("scripting"),
    kind: ParamKind::Bool,
    default: ParamValue::Bool(false),
    help: "false: <noscript> content is page text (the authors' browser ran without JavaScript); true: it is not (as a browser with scripts reads it)",
    source: "Sun et al. 2011 (authors' implementation: JavascriptEnabled false); cescope's choice",
};

crate::choice_enum! {
    /// The density measure of [`DENSITY_SPEC`].
    pub enum Density {
        /// Composite text density, Formula 3.2.
        Ctd = "ctd",
        /// Text density, Formula 3.1.
        Td = "td",
    }
}

crate::choice_enum! {
    /// The threshold rule of [`THRESHOLD_SPEC`].
    pub enum ThresholdRule {
        /// The smallest density on the path from the max-DensitySum element up to `<body>`.
        PathMin = "path-min",
        /// The density of `<body>`.
        Body = "body",
    }
}

/// Text density `TD = C / T` (Formula 3.1, Algorithm 4) of a node with `c` characters and `t`
/// tags: 0 when `c = 0`; `t = 0` reads as 1. Characters per tag.
pub fn td(c: u64, t: u64) -> f64 {
    if c == 0 {
        return 0.0;
    }
    c as f64 / t.max(1) as f64
}

/// Composite text density (Formula 3.2, as in Sun et al. 2011) of a node with `c` characters,
/// `t` tags, `lc` hyperlink characters and `lt` hyperlink tags, where `ratio` is `LC_b / C_b`
/// of `<body>` (in `0..=1`):
/// `C/T · ln(C·T / (LC·LT)) / ln(ln(C·LC/NLC + ratio·C + e))` with `NLC = C − LC`.
/// 0 when `c = 0`; `t`, `lc`, `lt` and `NLC` read as 1 when 0. Finite for every input; at least
/// 0 when `lc ≤ c` and `lt ≤ t` (as counted by [`analyse`]), negative otherwise.
pub fn ctd(c: u64, t: u64, lc: u64, lt: u64, ratio: f64) -> f64 {
    if c == 0 {
        return 0.0;
    }
    let nlc = c.saturating_sub(lc).max(1) as f64;
    let (c, t, lc, lt) = (
        c as f64,
        t.max(1) as f64,
        lc.max(1) as f64,
        lt.max(1) as f64,
    );
    let ratio = if ratio.is_finite() {
        ratio.max(0.0)
    } else {
        0.0
    };
    let base = (c * lc / nlc + ratio * c + std::f64::consts::E).ln();
    (c / t) * ((c * t) / (lc * lt)).ln() / base.ln()
}

/// Is `id` a hyperlink in the sense of the authors' implementation: `<a>`, `<button>` or
/// `<select>`?
fn is_link(dom: &Dom, id: NodeId) -> bool {
    dom.kind(id) == NodeKind::Element && matches!(dom.tag(id), Tag::A | Tag::Button | Tag::Select)
}

/// Everything CETD computes on one DOM. Per-node vectors are indexed by [`NodeId`] over the whole
/// DOM (nodes outside the tree or not on the page hold 0).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Analysis {
    /// The root of the tree: the `<body>` element (the first element, `<html>`, when there is
    /// none, as on a `<frameset>` page).
    pub root: NodeId,
    /// The elements of the tree that are on the page, in document order: the trace's node unit.
    pub elements: Vec<NodeId>,
    /// `C_i`: characters (white space excluded) of the node's shown text.
    pub chars: Vec<u64>,
    /// `T_i`: descendant elements that are on the page (tags).
    pub tags: Vec<u64>,
    /// `LC_i`: the part of `C_i` inside hyperlinks.
    pub link_chars: Vec<u64>,
    /// `LT_i`: hyperlink tags among the descendants (see the module documentation).
    pub link_tags: Vec<u64>,
    /// `LC_b / C_b` of the root (0 when the root has no characters).
    pub ratio: f64,
    /// TD or CTD of every element and text node (characters per tag, log-weighted for CTD).
    pub density: Vec<f64>,
    /// DensitySum of every element: the sum of its children's densities, or its own density
    /// when it has no child element.
    pub density_sum: Vec<f64>,
    /// The element with the largest DensitySum (first in document order on ties).
    pub max_node: NodeId,
    /// The elements from `max_node` up to the root, `max_node` first.
    pub path: Vec<NodeId>,
    /// The threshold `t` (a density).
    pub threshold: f64,
    /// The elements chosen as content, each with its subtree: the max-DensitySum element of the
    /// subtree of each element reached from the root through densities `≥ t`. Document order.
    pub targets: Vec<NodeId>,
    /// For every node: is it inside (or one of) the [`Analysis::targets`]?
    pub content: Vec<bool>,
}

/// Runs CETD's counting, densities, DensitySum, threshold and marking on `dom` (Sun et al.
/// 2011; Mohammadzadeh 2013, 3.2.7, Algorithm 4). O(nodes + text characters).
pub fn analyse(dom: &Dom, density: Density, rule: ThresholdRule) -> Analysis {
    let n = dom.len();
    let root = dom
        .elements()
        .find(|&(id, _)| dom.tag(id) == Tag::Body && dom.is_html_element(id))
        .or_else(|| dom.elements().next())
        .map_or(0, |(id, _)| id);
    let range = if n == 0 { 0..0 } else { dom.subtree(root) };
    let off_page = |id: NodeId| dom.is_hidden(id) || dom.is_non_text(id);

    // Pre-order: inside a hyperlink?
    let mut in_link = vec![false; n];
    for id in range.clone() {
        in_link[id] =
            is_link(dom, id) || (id != root && dom.parent(id).is_some_and(|p| in_link[p]));
    }

    // Post-order (reverse pre-order): counts, pushed from each node to its parent.
    let mut a = Analysis {
        root,
        chars: vec![0; n],
        tags: vec![0; n],
        link_chars: vec![0; n],
        link_tags: vec![0; n],
        density: vec![0.0; n],
        density_sum: vec![0.0; n],
        content: vec![false; n],
        ..Default::default()
    };
    for id in range.clone().rev() {
        if off_page(id) {
            continue;
        }
        let elem = match dom.kind(id) {
            NodeKind::Text => {
                let c = dom.non_space_chars(id) as u64;
                a.chars[id] = c;
                if in_link[id] {
                    a.link_chars[id] = c;
                }
                false
            }
            NodeKind::Element => {
                if is_link(dom, id) {
                    a.link_tags[id] = a.tags[id];
                }
                true
            }
            _ => continue,
        };
        if id == root {
            continue;
        }
        let Some(p) = dom.parent(id) else { continue };
        a.chars[p] += a.chars[id];
        a.link_chars[p] += a.link_chars[id];
        if elem {
            let (t, lt) = (a.tags[id], a.link_tags[id]);
            let all_link = lt == t && a.chars[id] == a.link_chars[id] && lt != 0;
            a.tags[p] += t + 1;
            a.link_tags[p] += lt + u64::from(is_link(dom, id) || all_link);
        }
    }
    a.ratio = if a.chars[root] == 0 {
        0.0
    } else {
        a.link_chars[root] as f64 / a.chars[root] as f64
    };

    // Densities and DensitySum (post-order again), with the subtree's best DensitySum.
    let mut has_child_elem = vec![false; n];
    let mut child_sum = vec![0.0; n];
    let mut best: Vec<(f64, NodeId)> = vec![(f64::NEG_INFINITY, usize::MAX); n];
    for id in range.clone().rev() {
        let kind = dom.kind(id);
        if off_page(id) || !matches!(kind, NodeKind::Text | NodeKind::Element) {
            continue;
        }
        let d = match density {
            Density::Td => td(a.chars[id], a.tags[id]),
            Density::Ctd => ctd(
                a.chars[id],
                a.tags[id],
                a.link_chars[id],
                a.link_tags[id],
                a.ratio,
            ),
        };
        a.density[id] = d;
        if kind == NodeKind::Element {
            a.density_sum[id] = if has_child_elem[id] { child_sum[id] } else { d };
            if a.density_sum[id] >= best[id].0 {
                best[id] = (a.density_sum[id], id);
            }
        }
        if id == root {
            continue;
        }
        let Some(p) = dom.parent(id) else { continue };
        child_sum[p] += d;
        if kind == NodeKind::Element {
            has_child_elem[p] = true;
            let (b, bp) = (best[id], best[p]);
            if b.0 > bp.0 || (b.0 == bp.0 && b.1 < bp.1) {
                best[p] = b;
            }
        }
    }
    if n == 0 {
        return a;
    }
    a.max_node = if best[root].1 == usize::MAX {
        root
    } else {
        best[root].1
    };

    // The threshold: along the path from the max node up to the root.
    let mut x = a.max_node;
    loop {
        a.path.push(x);
        if x == root {
            break;
        }
        match dom.parent(x) {
            Some(p) if range.contains(&p) => x = p,
            _ => break,
        }
    }
    a.threshold = match rule {
        ThresholdRule::PathMin => a
            .path
            .iter()
            .map(|&x| a.density[x])
            .fold(f64::INFINITY, f64::min),
        ThresholdRule::Body => a.density[root],
    };

    // Marking (pre-order): walk down through densities >= t; each element reached marks the
    // max-DensitySum element of its subtree (with that subtree) as content.
    let t = a.threshold;
    let mut active = vec![false; n];
    let mut target = vec![false; n];
    for id in range.clone() {
        if off_page(id) || dom.kind(id) != NodeKind::Element {
            if let Some(p) = dom.parent(id).filter(|_| id != root) {
                a.content[id] = a.content[p] && !off_page(id);
            }
            continue;
        }
        a.elements.push(id);
        let parent = dom.parent(id).filter(|_| id != root);
        let parent_content = parent.is_some_and(|p| a.content[p]);
        active[id] = a.density[id] >= t && parent.is_none_or(|p| active[p]);
        if active[id] && !parent_content && best[id].1 != usize::MAX && !target[best[id].1] {
            target[best[id].1] = true;
        }
        a.content[id] = parent_content || target[id];
        if target[id] {
            a.targets.push(id);
        }
    }
    a
}

/// Content Extraction via Text Density.
#[derive(Debug, Clone, Default)]
pub struct Cetd;

/// The label of the `density` series with `density=td`.
/// The trace items CETD reads back in its explanation: built and read by
/// these [`Key`]s.
const DENSITY: Key<Series> = Key::new("density");
const DSUM: Key<Series> = Key::new("dsum");
const T: Key<Scalar> = Key::new("t");
const PATH: Key<Marks> = Key::new("path");
const TARGETS: Key<Marks> = Key::new("targets");
const CONTENT: Key<Marks> = Key::new("content");

const TD_LABEL: &str = "text density TD = C/T (Formula 3.1)";
/// The label of the `density` series with `density=ctd`.
const CTD_LABEL: &str = "composite text density CTD (Formula 3.2)";

crate::typed_params! {
    /// CETD's parameters (Sun et al. 2011; Mohammadzadeh 2013, 3.2.7).
    pub struct CetdParams {
        /// The density measure.
        pub density: Density = DENSITY_SPEC,
        /// Where the threshold comes from.
        pub threshold: ThresholdRule = THRESHOLD_SPEC,
        /// The HTML scripting flag of the DOM CETD reads.
        pub scripting: bool = SCRIPTING_SPEC,
    }
}

const PHASES: &[Phase] = &[
            Phase::new("densities", "per element: characters C, tags T, link characters LC, link tags LT; text density C/T (Formula 3.1) or composite text density (Formula 3.2)", &["chars", "tags", "link_chars", "link_tags", "ratio", "density"]),
            Phase::new("DensitySum", "DensitySum = the sum of the children's densities; the element with the largest one", &["dsum", "max", "dsum_max"]),
            Phase::new("threshold", "t = the smallest density on the path from that element up to <body> (threshold=path-min) or the density of <body> (threshold=body)", &["t", "path"]),
            Phase::new("extraction", "from <body> down through densities >= t, each element's max-DensitySum descendant is content with its subtree; their text is the main content", &["targets", "content"]),
        ];

static INFO: AlgoInfo = AlgoInfo::new(
    "cetd",
    "Content Extraction via Text Density: the max-DensitySum DOM nodes under a density threshold from <body> (Sun et al. 2011; Mohammadzadeh 2013, 3.2.7, Formulas 3.1-3.2, Algorithm 4)",
    "Sun et al. 2011; Mohammadzadeh 2013, 3.2.7, Formulas 3.1-3.2, Algorithm 4",
    CetdParams::SPECS,
    PHASES,
).with_dom();

impl StaticInfo for Cetd {
    const INFO: &'static AlgoInfo = &INFO;
}

impl Extractor for Cetd {
    /// Trace (node unit = the `<body>` subtree's elements that are on the page, in document
    /// order; positions = each element's outer byte extent): `density` (combined signal, TD or
    /// CTD, maximum per line), `dsum` (size, DensitySum, maximum per line), `chars`, `tags`,
    /// `link_chars`, `link_tags` (info, the counts C, T, LC, LT), `max` (seed: the
    /// max-DensitySum element), `path` (bound: it and its
    /// ancestors up to `<body>`), `targets` (candidates: the elements marked as content),
    /// `content` (selected: the targets and their descendants); scalars `t` (threshold),
    /// `ratio` (`LC_b / C_b`) and `dsum_max` (the largest DensitySum).
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let CetdParams {
            density,
            threshold: rule,
            scripting,
        } = CetdParams::read(params);
        // The page's shared DOM when it was parsed with the same scripting flag.
        let own;
        let dom = if scripting == page.scripting() {
            page.dom()
        } else {
            own = Dom::parse(
                page.text(),
                &DomOptions {
                    scripting_enabled: scripting,
                },
            );
            &own
        };
        let a = analyse(dom, density, rule);

        let mut sel = Vec::new();
        for (id, spans) in dom.text_nodes() {
            if a.content.get(id).copied().unwrap_or(false) {
                sel.extend(spans.iter().cloned());
            }
        }
        let selection = page.normalize(&Selection::from_ranges(sel));

        let els = &a.elements;
        let per = |v: &dyn Fn(NodeId) -> f64| -> Vec<f64> { els.iter().map(|&id| v(id)).collect() };
        let unit_of = |id: NodeId| els.binary_search(&id).ok();
        let marks_of = |pred: &dyn Fn(NodeId) -> bool| {
            runs(
                els.iter()
                    .enumerate()
                    .filter(|&(_, &id)| pred(id))
                    .map(|(k, _)| k),
            )
        };
        let mut path_units: Vec<usize> = a.path.iter().filter_map(|&x| unit_of(x)).collect();
        path_units.sort_unstable();
        let name = match density {
            Density::Td => TD_LABEL,
            Density::Ctd => CTD_LABEL,
        };
        let max_node = a.max_node;
        let trace = Trace {
            series: vec![
                Series::new(
                    DENSITY,
                    name,
                    Unit::Node,
                    Role::CombinedSignal,
                    per(&|id| a.density[id]),
                )
                .with_agg(Agg::Max),
                Series::new(
                    DSUM,
                    "DensitySum (sum of the children's densities)",
                    Unit::Node,
                    Role::Size,
                    per(&|id| a.density_sum[id]),
                )
                .with_agg(Agg::Max),
                Series::new(
                    "chars",
                    "characters C",
                    Unit::Node,
                    Role::Info,
                    per(&|id| a.chars[id] as f64),
                ),
                Series::new(
                    "tags",
                    "tags T",
                    Unit::Node,
                    Role::Info,
                    per(&|id| a.tags[id] as f64),
                ),
                Series::new(
                    "link_chars",
                    "link characters LC",
                    Unit::Node,
                    Role::Info,
                    per(&|id| a.link_chars[id] as f64),
                ),
                Series::new(
                    "link_tags",
                    "link tags LT",
                    Unit::Node,
                    Role::Info,
                    per(&|id| a.link_tags[id] as f64),
                ),
            ],
            scalars: vec![
                Scalar::new(
                    T,
                    "threshold t (a density)",
                    None,
                    Role::Threshold,
                    a.threshold,
                ),
                Scalar::new("ratio", "LC_b / C_b of <body>", None, Role::Info, a.ratio),
                Scalar::new(
                    "dsum_max",
                    "largest DensitySum",
                    None,
                    Role::Info,
                    a.density_sum.get(max_node).copied().unwrap_or(0.0),
                ),
            ],
            marks: vec![
                Marks::new(
                    "max",
                    "element with the largest DensitySum",
                    Unit::Node,
                    Role::Seed,
                    runs(unit_of(max_node)),
                ),
                Marks::new(
                    PATH,
                    "path from it up to <body>",
                    Unit::Node,
                    Role::Bound,
                    runs(path_units),
                ),
                Marks::new(
                    TARGETS,
                    "elements marked as content",
                    Unit::Node,
                    Role::Candidates,
                    runs(a.targets.iter().filter_map(|&x| unit_of(x))),
                ),
                Marks::new(
                    CONTENT,
                    "content elements",
                    Unit::Node,
                    Role::Selected,
                    marks_of(&|id| a.content[id]),
                ),
            ],
            positions: vec![Positions {
                unit: Unit::Node,
                ranges: els.iter().map(|&id| dom.hull(id).unwrap_or(0..0)).collect(),
            }],
        };
        Extraction { selection, trace }
    }

    /// On a line of text (the whole run): the element the line's bar shows (the innermost
    /// element around its text) with its density and DensitySum, and the decisive comparison:
    /// the first element on the path from `<body>` down to it whose density is below the
    /// threshold (`CTD 3.20 < threshold t 4.10 (the smallest density on the path …) → not
    /// content`), or the content element it lies in, or — every density on the path at least
    /// `t` — the max-DensitySum element that was taken instead; and what hides the block.
    /// Elsewhere, and in step mode before the last phase, [`crate::extract::explain_default`].
    fn explain_text_line(&self, page: &Page, trace: &Trace, line: &TextLine) -> Vec<String> {
        ex::or_missing(explain_line(page, trace, line))
    }
}

/// [`Cetd::explain_text_line`]'s sentences, reading the trace through its typed keys.
fn explain_line(page: &Page, trace: &Trace, line: &TextLine) -> Result<Vec<String>, Missing> {
    let Some(e) = line.element() else {
        return Ok(ex::sentences(
            page,
            line,
            "its text lies outside the <body> subtree CETD reads: not content".into(),
            Vec::new(),
        ));
    };
    let d = |k: usize| ex::value(trace, DENSITY, k);
    let dsum = |k: usize| ex::value(trace, DSUM, k);
    let name = |k: usize| ex::element_name(page, trace, k, line);
    let measure = if trace.get(DENSITY)?.label == TD_LABEL {
        "TD"
    } else {
        "CTD"
    };
    let t = trace.scalar_of(T)?;
    let path = ex::indices(trace, PATH)?;
    let path_min = path
        .iter()
        .try_fold(f64::INFINITY, |m, &k| Ok::<f64, Missing>(m.min(d(k)?)))?;
    let source = if path_min == t {
        "the smallest density on the path from the max-DensitySum element up to <body>"
    } else {
        "the density of <body>"
    };
    let first = format!(
        "text of {} ({}; {measure} {}, DensitySum {})",
        name(e),
        ex::element_lines(page, trace, e),
        ex::num(d(e)?),
        ex::num(dsum(e)?)
    );
    let cite = "(Sun et al. 2011; Mohammadzadeh 2013, 3.2.7)";
    let decision = if ex::marked(trace, CONTENT, e)? {
        let target = ex::try_find(line.chain.iter().copied(), |k| {
            ex::marked(trace, TARGETS, k)
        })?
        .unwrap_or(e);
        format!(
            "inside {} (DensitySum {}), the max-DensitySum element of a subtree reached from \
                 <body> through {measure} ≥ threshold t {} ({source}) → content, with its whole \
                 subtree {cite}",
            name(target),
            ex::num(dsum(target)?),
            ex::num(t)
        )
    } else if let Some(c) = ex::try_find(line.chain.iter().copied(), |k| Ok(d(k)? < t))? {
        let at = if c == e {
            String::new()
        } else {
            format!(" of {} around it", name(c))
        };
        format!(
            "{measure} {}{at} < threshold t {} ({source}) → the walk from <body> stops there: \
                 not content {cite}",
            ex::num(d(c)?),
            ex::num(t)
        )
    } else {
        // Reached, yet not inside the max-DensitySum element of a reached subtree: name the
        // one taken in the innermost subtree around the text that has one.
        let extents = trace.positions(Unit::Node).unwrap_or(&[]);
        let inside = |k: usize, a: usize| {
            extents
                .get(a)
                .zip(extents.get(k))
                .is_some_and(|(a, k)| a.start <= k.start && k.end <= a.end)
        };
        let targets = ex::indices(trace, TARGETS)?;
        let taken = line
            .chain
            .iter()
            .rev()
            .find_map(|&a| targets.iter().find(|&&k| inside(k, a)).map(|&k| (a, k)));
        match taken {
            Some((a, k)) => format!(
                "{measure} ≥ threshold t {} on the whole path from <body> down to it, but of the \
                     subtree of {} only its max-DensitySum element {} ({}, DensitySum {}) is \
                     content → not content {cite}",
                ex::num(t),
                name(a),
                name(k),
                ex::element_lines(page, trace, k),
                ex::num(dsum(k)?)
            ),
            None => format!(
                "{measure} ≥ threshold t {} on the whole path from <body> down to it, but no \
                     max-DensitySum element around it was taken → not content {cite}",
                ex::num(t)
            ),
        }
    };
    Ok(ex::sentences(page, line, first, vec![decision]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Algorithm;
    use std::f64::consts::E;

    fn run_with(html: &str, density: &'static str, threshold: &'static str) -> (Page, Extraction) {
        let p = Page::from_text("t.html", html);
        let cetd = Cetd;
        let mut params = Params::defaults(cetd.params());
        params
            .set(&DENSITY_SPEC, ParamValue::choice(density))
            .unwrap();
        params
            .set(&THRESHOLD_SPEC, ParamValue::choice(threshold))
            .unwrap();
        let x = cetd.run(&p, &params);
        x.trace.validate(&p).unwrap();
        assert!(p.is_normal(&x.selection));
        (p, x)
    }

    fn id_of(dom: &Dom, tag: &str) -> NodeId {
        dom.elements()
            .map(|(id, _)| id)
            .find(|&id| dom.tag_name(id) == Some(tag))
            .unwrap()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * b.abs().max(1.0)
    }

    /// The three-node tree: `<body>` holding one `<p>`, which holds a link between two
    /// runs of text. Every number worked out by hand from Formulas 3.1 and 3.2.
    #[test]
    fn three_node_tree_by_hand() {
        let html = "<html><head><title>T</title></head><body><p>abcdefgh<a href=x>qr</a>ijklmnop</p></body></html>";
        let p = Page::from_text("t.html", html);
        let dom = p.dom();
        let (body, para, a) = (id_of(dom, "body"), id_of(dom, "p"), id_of(dom, "a"));
        let x = analyse(dom, Density::Ctd, ThresholdRule::PathMin);
        assert_eq!(x.root, body);
        // Counts. a: C = 2 ("qr"), all link, no tags (LT = T = 0).
        // p: C = 8 + 2 + 8 = 18, LC = 2, T = 1 (the a), LT = 1 (the a is a hyperlink).
        // body: C = 18, LC = 2, T = 2 (p, a), LT = 1 (p is not all link: C 18 != LC 2).
        let counts = |id| (x.chars[id], x.tags[id], x.link_chars[id], x.link_tags[id]);
        assert_eq!(counts(a), (2, 0, 2, 0));
        assert_eq!(counts(para), (18, 1, 2, 1));
        assert_eq!(counts(body), (18, 2, 2, 1));
        // LC_b / C_b = 2 / 18 = 1/9.
        assert!(close(x.ratio, 1.0 / 9.0));
        // CTD(a): C = 2, T = 0 -> 1, LC = 2, LT = 0 -> 1: C/T · ln(2·1 / (2·1)) = 0.
        assert_eq!(x.density[a], 0.0);
        // CTD(p): 18/1 · ln(18·1 / (2·1)) / ln ln(18·2/16 + 18/9 + e)
        //       = 18 · ln 9 / ln ln(2.25 + 2 + e) ≈ 18 · 2.1972 / 0.6634 ≈ 59.62.
        let base = (2.25 + 2.0 + E).ln().ln();
        let ctd_p = 18.0 * 9f64.ln() / base;
        assert!(close(x.density[para], ctd_p), "{}", x.density[para]);
        // CTD(body): 18/2 · ln(18·2 / (2·1)) / the same base = 9 · ln 18 / 0.6634 ≈ 39.21.
        let ctd_body = 9.0 * 18f64.ln() / base;
        assert!(close(x.density[body], ctd_body), "{}", x.density[body]);
        // A run of 8 non-link characters scored as a leaf: C = 8, T, LC, LT -> 1, NLC = 8:
        // 8 · ln 8 / ln ln(8·1/8 + 8/9 + e) ≈ 16.636 / 0.4237 ≈ 39.26.
        let ctd_run = 8.0 * 8f64.ln() / (1.0 + 8.0 / 9.0 + E).ln().ln();
        // DensitySum(p) = two runs + CTD(a) = 2 · 39.26 + 0 ≈ 78.52; DensitySum(body) = CTD(p)
        // ≈ 59.62 (its only child); DensitySum(a) = CTD(a) = 0 (no child element).
        assert!(close(x.density_sum[para], 2.0 * ctd_run));
        assert!(close(x.density_sum[body], ctd_p));
        assert_eq!(x.density_sum[a], 0.0);
        // So the max is p; the path is p, body; t = min(59.62, 39.21) = CTD(body).
        assert_eq!(x.max_node, para);
        assert_eq!(x.path, vec![para, body]);
        assert!(close(x.threshold, ctd_body));
        // body's CTD >= t, so the max of its subtree (p) is content with its link.
        assert_eq!(x.targets, vec![para]);
        assert!(x.content[para] && x.content[a] && !x.content[body]);
        let (p, ex) = run_with(html, "ctd", "path-min");
        assert_eq!(p.render(&ex.selection), "abcdefghqrijklmnop");
        assert_eq!(ex.trace.scalar("t"), Some(x.threshold));

        // TD (Formula 3.1): TD(a) = 2/1, TD(p) = 18/1, TD(body) = 18/2 = 9; DensitySum(p) =
        // 8 + 2 + 8 = 18 = DensitySum(body) = TD(p): a tie, which goes to body (first in
        // document order); the path is body alone, t = 9, and body is content.
        let y = analyse(dom, Density::Td, ThresholdRule::PathMin);
        assert_eq!(
            (y.density[a], y.density[para], y.density[body]),
            (2.0, 18.0, 9.0)
        );
        assert_eq!((y.density_sum[para], y.density_sum[body]), (18.0, 18.0));
        assert_eq!(y.max_node, body);
        assert_eq!(y.threshold, 9.0);
        assert_eq!(y.targets, vec![body]);
    }

    #[test]
    fn composite_density_edge_cases() {
        // No characters: 0, whatever else.
        assert_eq!(ctd(0, 0, 0, 0, 0.0), 0.0);
        assert_eq!(ctd(0, 5, 0, 3, 0.5), 0.0);
        assert_eq!(td(0, 0), 0.0);
        // T = 0 reads as 1 (Algorithm 4).
        assert_eq!(td(7, 0), 7.0);
        assert_eq!(td(7, 2), 3.5);
        // All link text: NLC = 0 -> 1, argument C·T/(LC·LT) = 1, log = 0.
        assert_eq!(ctd(5, 0, 5, 0, 1.0), 0.0);
        // No links: LC, LT -> 1: C/T · ln(C·T) / ln ln(C/C + ratio·C + e); with ratio 0,
        // C = 10, T = 2: 5 · ln 20 / ln ln(1 + e).
        let want = 5.0 * 20f64.ln() / (1.0 + E).ln().ln();
        assert!(close(ctd(10, 2, 0, 0, 0.0), want));
        // A bad ratio reads as 0; huge counts stay finite.
        assert!(close(ctd(10, 2, 0, 0, f64::NAN), want));
        assert!(ctd(u64::MAX / 2, 1, 1, 1, 1.0).is_finite());
    }

    #[test]
    fn keeps_the_article_drops_the_menu() {
        let html = "<html><body>\
            <div id=nav><ul><li><a href=/1>Home</a></li><li><a href=/2>News</a></li><li><a href=/3>Sport</a></li></ul></div>\
            <div id=main><p>The first paragraph of the article has quite a lot of plain text in it.</p>\
            <p>The second paragraph has more text and one <a href=/r>reference</a> in the middle of it.</p></div>\
            </body></html>";
        let (p, x) = run_with(html, "ctd", "path-min");
        let text = p.render(&x.selection);
        assert!(
            text.contains("The first paragraph") && text.contains("reference"),
            "{text}"
        );
        assert!(!text.contains("Home") && !text.contains("Sport"), "{text}");
        // A menu of links only has CTD 0: every count equals its link count, so ln(1) = 0.
        let a = analyse(p.dom(), Density::Ctd, ThresholdRule::PathMin);
        let ul = id_of(p.dom(), "ul");
        assert_eq!((a.tags[ul], a.link_tags[ul]), (6, 6));
        assert_eq!(a.chars[ul], a.link_chars[ul]);
        assert_eq!(a.density[ul], 0.0);
        // LC <= C and LT <= T everywhere, so no composite density is negative.
        for &id in &a.elements {
            assert!(a.link_chars[id] <= a.chars[id] && a.link_tags[id] <= a.tags[id]);
            assert!(a.density[id] >= 0.0);
        }
    }

    #[test]
    fn threshold_rules_follow_their_definitions() {
        let html = "<body><div><p>Some text of a paragraph here.</p><p>And <a href=/x>more</a> text.</p></div><div><a href=/a>a</a> <a href=/b>b</a></div></body>";
        let p = Page::from_text("t.html", html);
        let pm = analyse(p.dom(), Density::Ctd, ThresholdRule::PathMin);
        let body = analyse(p.dom(), Density::Ctd, ThresholdRule::Body);
        assert_eq!(body.threshold, body.density[body.root]);
        let min = pm
            .path
            .iter()
            .map(|&x| pm.density[x])
            .fold(f64::INFINITY, f64::min);
        assert_eq!(pm.threshold, min);
        assert_eq!(pm.path.last(), Some(&pm.root));
        assert!(pm.threshold <= body.threshold);
    }

    /// Scripts, styles and hidden elements are not on the page: neither tags nor characters.
    /// White space is not counted, so indentation changes nothing.
    #[test]
    fn off_page_nodes_and_white_space_do_not_count() {
        let html = "<body><p>abc<script>var xxxxx = 1;</script><style>p{}</style></p><div hidden>zzzz</div><span style='display:none'>yy</span></body>";
        let p = Page::from_text("t.html", html);
        let a = analyse(p.dom(), Density::Ctd, ThresholdRule::PathMin);
        assert_eq!((a.chars[a.root], a.tags[a.root]), (3, 1));
        let (p, x) = run_with(html, "ctd", "path-min");
        assert_eq!(p.render(&x.selection), "abc");

        let tight = "<body><div><p>One two three.</p><p>Four <a href=/>five</a>.</p></div></body>";
        let loose = "<body>\n  <div>\n    <p>One two three.</p>\n    <p>Four <a href=/>five</a>.</p>\n  </div>\n</body>";
        let da = analyse(
            Page::from_text("a", tight).dom(),
            Density::Ctd,
            ThresholdRule::PathMin,
        );
        let pl = Page::from_text("b", loose);
        let db = analyse(pl.dom(), Density::Ctd, ThresholdRule::PathMin);
        let dens =
            |a: &Analysis| -> Vec<f64> { a.elements.iter().map(|&i| a.density[i]).collect() };
        assert_eq!(dens(&da), dens(&db));
        assert_eq!(da.targets.len(), db.targets.len());
    }

    /// `<noscript>` content is page text with scripting off (the default, as the authors' browser
    /// without JavaScript) and not with scripting on.
    #[test]
    fn noscript_follows_the_scripting_flag() {
        let html = "<body><noscript><p>Posts served without scripts.</p></noscript></body>";
        let p = Page::from_text("t.html", html);
        let cetd = Cetd;
        let mut params = Params::defaults(cetd.params());
        assert_eq!(
            p.render(&cetd.run(&p, &params).selection),
            "Posts served without scripts."
        );
        params.set(&SCRIPTING_SPEC, ParamValue::Bool(true)).unwrap();
        assert!(cetd.run(&p, &params).selection.is_empty());
    }

    #[test]
    fn degenerate_pages_do_not_panic() {
        for html in [
            "",
            "   ",
            "plain text without tags",
            "<frameset><frame src=a></frameset>",
            "<body hidden><p>gone</p></body>",
            "<body><script>only()</script></body>",
            "<a href=x>only a link</a>",
            "<body><p></p><p></p></body>",
        ] {
            for d in ["ctd", "td"] {
                for t in ["path-min", "body"] {
                    let (p, x) = run_with(html, d, t);
                    assert!(x.trace.scalar("t").is_some_and(f64::is_finite), "{html}");
                    let _ = p.render(&x.selection);
                }
            }
        }
        // Text without tags is in the implied body: all of it is content.
        let (p, x) = run_with("plain text without tags", "ctd", "path-min");
        assert_eq!(p.render(&x.selection), "plain text without tags");
        // A hidden body has nothing on the page.
        let (_, x) = run_with("<body hidden><p>gone</p></body>", "ctd", "path-min");
        assert!(x.selection.is_empty());
    }

    /// Explain on text lines, with TD (Formula 3.1) worked out by hand (characters without
    /// white space over descendant elements, 0 read as 1): each `<p>` of `div#f` has TD 10,
    /// `div#f` 30 / 3 = 10 with DensitySum 30 (the largest), `div#e` 32 / 4 = 8 with
    /// DensitySum 2 (its text "xx") + 10, the links' `div#b` 4 / 2 = 2, `<body>` 36 / 8 = 4.5.
    /// The path from `div#f` up to `<body>` has densities 10, 8, 4.5: t = 4.5. From `<body>`
    /// (4.5 ≥ t) the max-DensitySum element `div#f` is content; `div#b` (2 < t) stops the
    /// walk; `div#e`'s own text "xx" is reached but not content.
    #[test]
    fn explain_gives_the_density_against_the_threshold() {
        let html = "<html><body><div id=e>\nxx\n<div id=f>\n<p>aaaaaaaaaa</p>\n\
            <p>bbbbbbbbbb</p>\n<p>cccccccccc</p>\n</div></div>\n\
            <div id=b><a href=x>ll</a><a href=y>mm</a></div></body></html>";
        let (p, x) = run_with(html, "td", "path-min");
        assert_eq!(p.render(&x.selection), "aaaaaaaaaa\nbbbbbbbbbb\ncccccccccc");
        assert_eq!(x.trace.scalar("t"), Some(4.5));
        let explain = |s: &str| ex::explain_at(&Cetd, &p, &x, s);
        let links = explain("ll");
        assert!(
            links.contains(
                "TD 2 of <div#b> around it < threshold t 4.50 (the smallest density on the path \
                 from the max-DensitySum element up to <body>) → the walk from <body> stops \
                 there: not content"
            ),
            "{links}"
        );
        let para = explain("bbbb");
        assert!(para.contains("text of <p> ("), "{para}");
        assert!(para.contains("TD 10, DensitySum 10"), "{para}");
        assert!(
            para.contains("inside <div#f> (DensitySum 30), the max-DensitySum element"),
            "{para}"
        );
        assert!(para.contains("→ content"), "{para}");
        let own = explain("xx");
        assert!(own.contains("text of <div#e> (lines"), "{own}");
        assert!(own.contains("TD 8, DensitySum 12"), "{own}");
        assert!(
            own.contains("of the subtree of <div#e> only its max-DensitySum element <div#f>"),
            "{own}"
        );
        assert!(
            own.contains("DensitySum 30) is content → not content"),
            "{own}"
        );
        // With the density of <body> as the threshold the text says so.
        let (p, x) = run_with(html, "td", "body");
        let line = p.lines().line_of(html.find("ll").unwrap()).unwrap();
        let body = Cetd
            .explain(&p, &x, crate::extract::trace::Location::Line(line), None)
            .join("; ");
        assert!(body.contains("< threshold t 4.50 (the"), "{body}");
    }
}
