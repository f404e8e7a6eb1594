//! `fe` and `kfe` — FeatureExtractor and K-FeatureExtractor (Debnath, Mitra, Pal & Giles 2005),
//! as given in Mohammadzadeh (2013), section 3.2.3 and Algorithm 2.
//!
//! 1. **Blocks** (Algorithm 2): starting from `B = {root}`, for each block-defining element `t`
//!    of `T` in turn, every block `b` with a descendant of type `t` is replaced by
//!    `getBlocks(b, t)`, its descendants of type `t`. `T` is `<table>`, `<tr>`, `<p>`, `<hr>` and
//!    `<ul>` (the thesis lists "<table>, <tr>, <p>, <hr>, and" — the last name is lost in the
//!    text; `<ul>` is Debnath et al.'s list element). The root is `<body>` (the document when
//!    there is none).
//! 2. **Features** per block: the desired (main content) features of the thesis' list — Text,
//!    Text-Tag (`<h1>`…`<h6>`), List (`<li>`), Style-sheet (inline style elements `<b>`, `<i>`,
//!    `<em>`, `<strong>`, `<u>`, `<font>`, `<small>`, `<big>`) — and the remaining features:
//!    links, images (`<img>`), forms (`<input>`, `<select>`, `<textarea>`, `<button>`) and
//!    scripts / objects (`<script>`, `<iframe>`, `<object>`, `<embed>`).
//! 3. **Winner basket**: a block whose desired feature values sum to at least the sum of its
//!    remaining ones ("if the sum of feature values related to the desired features is greater
//!    than or equal to the sum of feature values corresponding to the remaining features").
//! 4. **Winner**: "feature values will be calculated once again for a new set of blocks": each
//!    basket block's desired values over those of the whole basket; FE keeps the block with the
//!    highest value, K-FE clusters the values with k-means ([`crate::extract::cluster`]) and keeps the
//!    blocks of the highest cluster ("K-FE uses an adaptive k-means clustering to address K
//!    blocks from the winner baskets").
//! 5. **Extraction**: the text of the winner block(s).
//!
//! Choices where the thesis is silent (documented, tested):
//! - **`getBlocks` on nested elements**: the pseudo-code replaces `b` inside the loop over `B`,
//!   so blocks it adds are visited too; cescope repeats the replacement until no block has a
//!   descendant of type `t`, i.e. a block with `t` descendants becomes the innermost `t`
//!   elements of its subtree (those with no `t` descendant). Blocks stay disjoint. Text of `b`
//!   outside the new blocks belongs to no block any more (`B ← (B \ b) ∪ getBlocks(b, t)`).
//! - **Feature values** are counts of occurrences: a word of text (as
//!   [`crate::metrics::words`] splits words) is one occurrence of Text, a word of link text one of
//!   Link, an element one of its element feature. A block with no feature at all (`<hr>`) is not
//!   put in the basket.
//! - **Step 4 value**: `v(b) = D(b) / Σ_{b' ∈ basket} D(b')`, `D` the sum of desired counts
//!   (parameter `desired`: all four desired features, or Text alone).
//! - **Empty basket**: every block with a desired value counts as the basket.
//! - **K-FE's k** (parameter `k`, default 2): the number of k-means clusters of the basket's
//!   values (1-D); it shrinks when the basket has fewer distinct values ("adaptive"). Seeded
//!   k-means++ (parameter `seed`), so runs are deterministic.

use crate::extract::cluster::kmeans;
use crate::extract::explain::{self as ex, TextLine};
use crate::extract::trace::{
    runs, Agg, Key, Marks, Missing, Phase, Positions, Role, Scalar, Series,
};
use crate::extract::trace::{Trace, Unit};
use crate::extract::{AlgoInfo, Algorithm, Choice};
use crate::extract::{Extraction, Extractor, ParamKind, ParamSpec, ParamValue, Params};
use crate::metrics::is_word_char;
use crate::page::dom::{Dom, NodeId, NodeKind};
use crate::page::lex::Tag;
use crate::page::Page;
use crate::selection::Selection;
use std::borrow::Cow;

crate::choice_enum! {
    /// The desired feature set ([`DESIRED_SPEC`]).
    pub enum Desired {
        /// Text, text tags h1-h6, list items and style elements.
        TextTagsListsStyles = "text-tags-lists-styles",
        /// Text alone.
        Text = "text",
    }
}

/// The desired feature set.
pub const DESIRED_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("desired"),
    kind: ParamKind::Choice {
        choices: <Desired as Choice>::NAMES,
    },
    default: ParamValue::choice("text-tags-lists-styles"),
    help: "desired (main content) features: text, text tags h1-h6, list items and style elements; or text alone",
    source: "Mohammadzadeh 2013, 3.2.3 (features of Debnath et al. for the main content blocks)",
};

/// K-FE's number of k-means clusters.
pub const K_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("k"),
    kind: ParamKind::Int {
        min: 2,
        max: 10,
        step: 1,
    },
    default: ParamValue::Int(2),
    help: "k-means clusters of the winner basket's values; the blocks of the highest cluster are kept",
    source: "Mohammadzadeh 2013, 3.2.3 (K-FE: adaptive k-means); k = 2: cescope's choice (thesis silent)",
};

/// Seed of K-FE's k-means++ initialisation.
pub const SEED_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("seed"),
    kind: ParamKind::Int {
        min: 0,
        max: 1_000_000,
        step: 1,
    },
    default: ParamValue::Int(42),
    help: "seed of the k-means++ initialisation (the same seed gives the same clusters)",
    source: "cescope's choice (determinism)",
};

crate::typed_params! {
    /// FE's parameters (Debnath et al. 2005; Mohammadzadeh 2013, 3.2.3).
    pub struct FeParams {
        /// The desired feature set.
        pub desired: Desired = DESIRED_SPEC,
    }
}

crate::typed_params! {
    /// K-FE's parameters (Debnath et al. 2005; Mohammadzadeh 2013, 3.2.3).
    pub struct KfeParams {
        /// The desired feature set.
        pub desired: Desired = DESIRED_SPEC,
        /// The number of k-means clusters.
        pub k: i64 = K_SPEC,
        /// The k-means seed.
        pub seed: i64 = SEED_SPEC,
    }
}

/// The block-defining elements `T` of Algorithm 2, in order.
pub const BLOCK_TAGS: [&str; 5] = ["table", "tr", "p", "hr", "ul"];

/// FeatureExtractor (`fe`) or K-FeatureExtractor (`kfe`).
#[derive(Debug, Clone, Copy)]
pub struct FeatureExtractor {
    k_means: bool,
}

impl FeatureExtractor {
    /// FeatureExtractor, registered as `fe`.
    pub fn fe() -> Self {
        FeatureExtractor { k_means: false }
    }
    /// K-FeatureExtractor, registered as `kfe`.
    pub fn kfe() -> Self {
        FeatureExtractor { k_means: true }
    }
}

/// Feature counts of one block (occurrences; see the module documentation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Features {
    /// Words of text outside links.
    pub text: u32,
    /// `<h1>`…`<h6>` elements.
    pub text_tags: u32,
    /// `<li>` elements.
    pub lists: u32,
    /// Inline style elements.
    pub styles: u32,
    /// Words of link text.
    pub links: u32,
    /// `<img>` elements.
    pub images: u32,
    /// Form controls.
    pub forms: u32,
    /// Scripts and embedded objects.
    pub scripts: u32,
}

impl Features {
    /// `D`: the sum of the desired features (all four, or Text alone).
    pub fn desired(&self, text_only: bool) -> u32 {
        if text_only {
            self.text
        } else {
            self.text + self.text_tags + self.lists + self.styles
        }
    }

    /// The sum of the remaining features (with `text_only`, the other desired ones count here).
    pub fn other(&self, text_only: bool) -> u32 {
        let rest = self.links + self.images + self.forms + self.scripts;
        if text_only {
            rest + self.text_tags + self.lists + self.styles
        } else {
            rest
        }
    }
}

fn is_tag(dom: &Dom, id: NodeId, name: &str) -> bool {
    dom.kind(id) == NodeKind::Element && dom.is_html_element(id) && dom.tag_name(id) == Some(name)
}

/// Algorithm 2: the blocks of `dom` (disjoint subtrees, in document order) for the block tags
/// `tags`, starting from `<body>` (see the module documentation for nested elements). O(nodes ·
/// tags).
pub fn blocks(dom: &Dom, tags: &[&str]) -> Vec<NodeId> {
    let n = dom.len();
    let root = (0..n)
        .find(|&i| dom.tag(i) == Tag::Body && dom.is_html_element(i))
        .unwrap_or(0);
    let mut b = vec![root];
    let mut has_below = vec![false; n];
    for t in tags {
        // has_below[i]: some strict descendant of i is a `t` (children have larger ids).
        has_below.iter_mut().for_each(|x| *x = false);
        for id in (1..n).rev() {
            if let Some(p) = dom.parent(id) {
                if has_below[id] || is_tag(dom, id, t) {
                    has_below[p] = true;
                }
            }
        }
        let mut next = Vec::with_capacity(b.len());
        for &blk in &b {
            if !has_below[blk] {
                next.push(blk);
                continue;
            }
            // The innermost `t` elements strictly below `blk`.
            next.extend(
                dom.subtree(blk)
                    .skip(1)
                    .filter(|&id| is_tag(dom, id, t) && !has_below[id]),
            );
        }
        b = next;
    }
    b
}

fn word_count(s: &str) -> u32 {
    let mut n = 0;
    let mut in_word = false;
    for c in s.chars() {
        let w = is_word_char(c);
        if w && !in_word {
            n += 1;
        }
        in_word = w;
    }
    n
}

/// The feature counts of the subtree of `block`. O(subtree).
pub fn features(dom: &Dom, block: NodeId) -> Features {
    let mut f = Features::default();
    for id in dom.subtree(block) {
        match dom.kind(id) {
            NodeKind::Text if !dom.is_non_text(id) => {
                let w = dom.node_text(id).map_or(0, word_count);
                if dom.in_anchor(id) {
                    f.links += w;
                } else {
                    f.text += w;
                }
            }
            NodeKind::Element if dom.is_html_element(id) => {
                let counter = match dom.tag_name(id).unwrap_or("") {
                    "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => &mut f.text_tags,
                    "li" => &mut f.lists,
                    "b" | "i" | "em" | "strong" | "u" | "font" | "small" | "big" => &mut f.styles,
                    "img" => &mut f.images,
                    "input" | "select" | "textarea" | "button" => &mut f.forms,
                    "script" | "iframe" | "object" | "embed" => &mut f.scripts,
                    _ => continue,
                };
                *counter += 1;
            }
            _ => {}
        }
    }
    f
}

/// The trace items FE reads back in its explanation: built and read by
/// these [`Key`]s.
const DESIRED: Key<Series> = Key::new("desired");
const OTHER: Key<Series> = Key::new("other");
const VALUE: Key<Series> = Key::new("value");
const WINNER: Key<Marks> = Key::new("winner");
const IN_BASKET: Key<Marks> = Key::new("basket");

const BLOCKS: Phase = Phase::new(
    "blocks",
    "the page is split into blocks at <table>, <tr>, <p>, <hr>, <ul> (Algorithm 2)",
    &["blocks"],
);
const FEATURES: Phase = Phase::new("features", "per block: desired features (text, h1-h6, li, style elements; right) and the rest (links, images, forms, scripts; left)", &["desired", "other"]);
const BASKET: Phase = Phase::new(
    "winner basket",
    "blocks whose desired features sum to at least the rest form the winner basket",
    &["basket", "basket_size"],
);
const KFE_PHASES: &[Phase] = &[
    BLOCKS,
    FEATURES,
    BASKET,
    Phase::new(
        "values",
        "each basket block's desired features over those of the whole basket",
        &["value"],
    ),
    Phase::new(
        "k-means",
        "k-means on the values; the blocks of the highest cluster are the K winners (K-FE)",
        &["cluster", "winner"],
    ),
];
const FE_PHASES: &[Phase] = &[
    BLOCKS,
    FEATURES,
    BASKET,
    Phase::new("winner", "each basket block's desired features over those of the whole basket; the highest is the winner block (FE)", &["value", "winner"]),
];

static FE_INFO: AlgoInfo = AlgoInfo::new(
    "fe",
    "FeatureExtractor: blocks (Algorithm 2), feature winner basket, one winner block (Debnath et al. 2005; Mohammadzadeh 2013, 3.2.3)",
    "Debnath et al. 2005; Mohammadzadeh 2013, 3.2.3, Algorithm 2",
    FeParams::SPECS,
    FE_PHASES,
).with_dom();
static KFE_INFO: AlgoInfo = AlgoInfo::new(
    "kfe",
    "K-FeatureExtractor: blocks (Algorithm 2), feature winner basket, K blocks by k-means (Debnath et al. 2005; Mohammadzadeh 2013, 3.2.3)",
    "Debnath et al. 2005; Mohammadzadeh 2013, 3.2.3, Algorithm 2",
    KfeParams::SPECS,
    KFE_PHASES,
).with_dom();

impl Algorithm for FeatureExtractor {
    fn info(&self) -> &AlgoInfo {
        if self.k_means {
            &KFE_INFO
        } else {
            &FE_INFO
        }
    }
}

impl Extractor for FeatureExtractor {
    /// Trace (node unit = the blocks of Algorithm 2 in document order; positions = each block's
    /// outer byte extent): `desired` (content signal, `D`), `other` (code signal, the remaining
    /// features), `value` (combined signal, `D / ΣD` over the basket, 0 outside it), `blocks`
    /// (candidates), `basket` (seed: the winner basket), `winner` (selected), scalar
    /// `basket_size` (info); K-FE also `cluster` (label: k-means cluster of basket blocks,
    /// highest = kept, −1 outside the basket).
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let text_only = FeParams::read(params).desired == Desired::Text;
        let dom = page.dom();
        let b = blocks(dom, &BLOCK_TAGS);
        let nb = b.len();
        let f: Vec<Features> = b.iter().map(|&id| features(dom, id)).collect();
        let d: Vec<u32> = f.iter().map(|x| x.desired(text_only)).collect();
        let o: Vec<u32> = f.iter().map(|x| x.other(text_only)).collect();

        let mut basket: Vec<usize> = (0..nb).filter(|&i| d[i] > 0 && d[i] >= o[i]).collect();
        if basket.is_empty() {
            basket = (0..nb).filter(|&i| d[i] > 0).collect();
        }
        let total: f64 = basket.iter().map(|&i| d[i] as f64).sum();
        let mut value = vec![0.0; nb];
        for &i in &basket {
            value[i] = d[i] as f64 / total;
        }

        let mut cluster = vec![-1.0; nb];
        let winners: Vec<usize> = if self.k_means {
            let pts: Vec<f64> = basket.iter().map(|&i| value[i]).collect();
            let KfeParams { k, seed, .. } = KfeParams::read(params);
            let k = k.max(1) as usize;
            let seed = seed.max(0) as u64;
            let cl = kmeans(&pts, 1, k, seed);
            // Values are >= 0, so the highest cluster is the one farthest from the origin.
            let top = cl.centroids.len().saturating_sub(1);
            for (j, &i) in basket.iter().enumerate() {
                cluster[i] = cl.labels[j] as f64;
            }
            basket
                .iter()
                .enumerate()
                .filter(|&(j, _)| cl.labels[j] == top)
                .map(|(_, &i)| i)
                .collect()
        } else {
            // The first block with the highest value.
            let mut best: Option<usize> = None;
            for &i in &basket {
                if best.is_none_or(|w| value[i] > value[w]) {
                    best = Some(i);
                }
            }
            best.into_iter().collect()
        };

        let mut sel = Vec::new();
        for &w in &winners {
            for id in dom.subtree(b[w]) {
                if dom.kind(id) == NodeKind::Text && !dom.is_non_text(id) {
                    sel.extend(dom.spans(id).iter().cloned());
                }
            }
        }
        let selection = page.normalize(&Selection::from_ranges(sel));

        let mut series = vec![
            Series::new(
                DESIRED,
                "desired features D (text words, h1-h6, li, style elements)",
                Unit::Node,
                Role::ContentSignal,
                d.iter().map(|&x| x as f64).collect(),
            ),
            Series::new(
                OTHER,
                "remaining features (link words, img, form controls, scripts)",
                Unit::Node,
                Role::CodeSignal,
                o.iter().map(|&x| x as f64).collect(),
            ),
            Series::new(
                VALUE,
                "value D / sum of D over the basket",
                Unit::Node,
                Role::CombinedSignal,
                value,
            )
            .with_agg(Agg::Max),
        ];
        if self.k_means {
            series.push(Series::new(
                "cluster",
                "k-means cluster (highest = kept)",
                Unit::Node,
                Role::Label,
                cluster,
            ));
        }
        let mut winners_sorted = winners.clone();
        winners_sorted.sort_unstable();
        let trace = Trace {
            series,
            scalars: vec![Scalar::new(
                "basket_size",
                "blocks in the winner basket",
                None,
                Role::Info,
                basket.len() as f64,
            )],
            marks: vec![
                Marks::new(
                    "blocks",
                    "blocks (Algorithm 2)",
                    Unit::Node,
                    Role::Candidates,
                    runs(0..nb),
                ),
                Marks::new(
                    IN_BASKET,
                    "winner basket",
                    Unit::Node,
                    Role::Seed,
                    runs(basket.iter().copied()),
                ),
                Marks::new(
                    WINNER,
                    if self.k_means {
                        "winner blocks"
                    } else {
                        "winner block"
                    },
                    Unit::Node,
                    Role::Selected,
                    runs(winners_sorted),
                ),
            ],
            positions: vec![Positions {
                unit: Unit::Node,
                ranges: b.iter().map(|&id| dom.hull(id).unwrap_or(0..0)).collect(),
            }],
        };
        Extraction { selection, trace }
    }

    /// On a line of text (the whole run): the block of Algorithm 2 holding it with its desired
    /// and remaining feature sums, and the decisive comparison — `D 4 < remaining 9 → not in
    /// the winner basket`, or the block's value `D / ΣD` against the winner's (FE) or against
    /// the lowest value of the highest k-means cluster (K-FE); and what hides the block.
    /// Elsewhere, and in step mode before the last phase, [`crate::extract::explain_default`].
    fn explain_text_line(&self, page: &Page, trace: &Trace, line: &TextLine) -> Vec<String> {
        ex::or_missing(explain_line(page, trace, line, self.k_means))
    }
}

/// [`FeatureExtractor`]'s explanation of a line of text (see [`Extractor::explain`]), from its
/// trace; `k_means` for K-FE.
fn explain_line(
    page: &Page,
    trace: &Trace,
    line: &TextLine,
    k_means: bool,
) -> Result<Vec<String>, Missing> {
    let cite = "(Debnath et al. 2005; Mohammadzadeh 2013, 3.2.3)";
    let Some(k) = line.element() else {
        return Ok(ex::sentences(
            page,
            line,
            "its text lies in no block of Algorithm 2 (no <table>, <tr>, <p>, <hr> or <ul> \
             holds it where the decomposition ended)"
                .into(),
            vec![format!("→ not content {cite}")],
        ));
    };
    let name = |b: usize| ex::element_name(page, trace, b, line);
    let desired = ex::value(trace, DESIRED, k)?;
    let other = ex::value(trace, OTHER, k)?;
    let value = |b: usize| ex::value(trace, VALUE, b);
    let first = format!(
        "in the block {} ({}): desired features D = {} (text words, h1-h6, li, style \
         elements), remaining features {} (link words, img, form controls, scripts)",
        name(k),
        ex::element_lines(page, trace, k),
        ex::num(desired),
        ex::num(other)
    );
    let winners = ex::indices(trace, WINNER)?;
    let decision = if !ex::marked(trace, IN_BASKET, k)? {
        if desired < other {
            format!(
                "D {} < remaining {} → not in the winner basket → not content {cite}",
                ex::num(desired),
                ex::num(other)
            )
        } else {
            format!("no desired feature → not in the winner basket → not content {cite}")
        }
    } else if winners.contains(&k) {
        if k_means {
            format!(
                "in the winner basket; value D / ΣD = {} is in the highest k-means cluster → \
                 one of the K winner blocks: content {cite}",
                ex::num(value(k)?)
            )
        } else {
            format!(
                "in the winner basket; value D / ΣD = {}, the highest → the winner block: \
                 content {cite}",
                ex::num(value(k)?)
            )
        }
    } else if k_means {
        let lowest = winners
            .iter()
            .try_fold(f64::INFINITY, |m, &w| Ok::<f64, Missing>(m.min(value(w)?)))?;
        format!(
            "in the winner basket, but its value D / ΣD = {} is below the highest k-means \
             cluster (from {}) → not among the K winners {cite}",
            ex::num(value(k)?),
            ex::num(lowest)
        )
    } else {
        match winners.first() {
            Some(&w) if value(k)? == value(w)? => format!(
                "in the winner basket; its value D / ΣD = {} ties with the winner block {} ({}), \
                 which comes first → not content {cite}",
                ex::num(value(k)?),
                name(w),
                ex::element_lines(page, trace, w)
            ),
            Some(&w) => format!(
                "in the winner basket, but its value D / ΣD = {} < {} of the winner block {} \
                 ({}) → not content {cite}",
                ex::num(value(k)?),
                ex::num(value(w)?),
                name(w),
                ex::element_lines(page, trace, w)
            ),
            None => format!("no winner block → not content {cite}"),
        }
    };
    Ok(ex::sentences(page, line, first, vec![decision]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(e: FeatureExtractor, html: &str) -> (Page, Extraction) {
        let p = Page::from_text("t.html", html);
        let x = e.run(&p, &Params::defaults(e.params()));
        x.trace.validate(&p).unwrap();
        assert!(p.is_normal(&x.selection));
        (p, x)
    }

    fn names(p: &Page, b: &[NodeId]) -> Vec<String> {
        b.iter()
            .map(|&id| p.dom().tag_name(id).unwrap_or("#").to_string())
            .collect()
    }

    #[test]
    fn algorithm_2_blocks_by_hand() {
        // t = table: body has a table below it -> B = {table}; t = tr: -> the two trs; t = p:
        // the first tr holds two <p> -> replaced by them; t = ul: the ul in the second tr
        // replaces it.
        let html = "<body><table><tr><td><p>a b</p><p>c</p></td></tr>\
                    <tr><td>x<ul><li>l</li></ul></td></tr></table><p>after</p></body>";
        let p = Page::from_text("t.html", html);
        let b = blocks(p.dom(), &BLOCK_TAGS);
        // The trailing <p> is outside the table: body -> [table] loses it (B <- (B \ b) ∪
        // getBlocks(b, t)), as Algorithm 2 is written.
        assert_eq!(names(&p, &b), ["p", "p", "ul"]);
        // Nested tables: the innermost one is the block.
        let p = Page::from_text(
            "t.html",
            "<table><tr><td><table><tr><td>in</td></tr></table></td></tr></table>",
        );
        let b = blocks(p.dom(), &["table"]);
        assert_eq!(b.len(), 1);
        assert_eq!(p.dom().text(b[0]), "in");
        // No block tag at all: the body is the one block.
        let p = Page::from_text("t.html", "<div>only a div</div>");
        assert_eq!(names(&p, &blocks(p.dom(), &BLOCK_TAGS)), ["body"]);
    }

    #[test]
    fn features_by_hand() {
        let p = Page::from_text(
            "t.html",
            "<body><p>One two <b>three</b> <a href=x>four five</a><img src=i>\
             <script>var no = 1;</script></p></body>",
        );
        let b = blocks(p.dom(), &BLOCK_TAGS);
        let f = features(p.dom(), b[0]);
        // Text words: one, two, three = 3; styles: <b> = 1; links: four, five = 2; images 1;
        // scripts 1 (its text is not counted).
        assert_eq!(
            f,
            Features {
                text: 3,
                styles: 1,
                links: 2,
                images: 1,
                scripts: 1,
                ..Default::default()
            }
        );
        assert_eq!((f.desired(false), f.other(false)), (4, 4));
        assert_eq!((f.desired(true), f.other(true)), (3, 5));
    }

    /// Two-block FE pages: a link list and an article paragraph.
    #[test]
    fn fe_two_blocks_by_hand() {
        let html = "<body><ul><li><a href=1>Home</a></li><li><a href=2>News page</a></li></ul>\
                    <p>The article text is here.</p></body>";
        let (p, x) = run(FeatureExtractor::fe(), html);
        // Blocks: body -> [p] at t = p? No: T is table, tr, p, hr, ul in order. t = p: body has
        // a <p> descendant -> B = {p}; the ul is lost. So one block: D = 5 words, other 0.
        assert_eq!(x.trace.series("desired").unwrap().values, vec![5.0]);
        assert_eq!(p.render(&x.selection), "The article text is here.");
        // Two <p> blocks: "Home News page" links (D = 0, other = 3: not in the basket) and the
        // article (D = 5, other = 0). Values: 5 / 5 = 1 for the article.
        let html = "<body><p><a href=1>Home</a> <a href=2>News page</a></p>\
                    <p>The article text is here.</p></body>";
        let (p, x) = run(FeatureExtractor::fe(), html);
        let tr = &x.trace;
        assert_eq!(tr.series("desired").unwrap().values, vec![0.0, 5.0]);
        assert_eq!(tr.series("other").unwrap().values, vec![3.0, 0.0]);
        assert_eq!(tr.series("value").unwrap().values, vec![0.0, 1.0]);
        assert_eq!(tr.marks("basket").unwrap().spans, vec![1..2]);
        assert_eq!(tr.marks("winner").unwrap().spans, vec![1..2]);
        assert_eq!(p.render(&x.selection), "The article text is here.");
    }

    #[test]
    fn fe_takes_one_winner_kfe_the_top_cluster() {
        // Four basket blocks with D = 12, 11, 2, 1 words: values 12/26, 11/26, 2/26, 1/26. FE
        // keeps the first (12); K-FE with k = 2 clusters {12, 11} against {2, 1} and keeps both
        // long paragraphs.
        let html = "<body>\
            <p>w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12</p>\
            <p>v1 v2 v3 v4 v5 v6 v7 v8 v9 v10 v11</p>\
            <p>short one</p><p>tiny</p></body>";
        let (p, x) = run(FeatureExtractor::fe(), html);
        let v = &x.trace.series("value").unwrap().values;
        assert!((v[0] - 12.0 / 26.0).abs() < 1e-12 && (v[3] - 1.0 / 26.0).abs() < 1e-12);
        assert_eq!(
            p.render(&x.selection),
            "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12"
        );
        let (p, x) = run(FeatureExtractor::kfe(), html);
        let text = p.render(&x.selection);
        assert!(text.contains("w12") && text.contains("v11"), "{text}");
        assert!(!text.contains("short") && !text.contains("tiny"), "{text}");
        assert_eq!(
            x.trace.series("cluster").unwrap().values,
            vec![1.0, 1.0, 0.0, 0.0]
        );
    }

    #[test]
    fn empty_pages_select_nothing() {
        for html in [
            "",
            "<hr>",
            "<p><a href=x>only a link</a></p>",
            "<img src=x>",
        ] {
            for e in [FeatureExtractor::fe(), FeatureExtractor::kfe()] {
                let (p, x) = run(e, html);
                if html.contains("only a link") {
                    // Empty basket, no block with desired features: nothing.
                    assert_eq!(p.render(&x.selection), "");
                }
                assert!(x.selection.ranges().len() <= 1);
            }
        }
    }

    /// Explain on text lines, by hand: Algorithm 2 splits `<body>` into its three `<p>`s (the
    /// `<ul>` after them is then outside every block). The first has D = 5 text words, the
    /// second D = 2, the third D = 1 against 3 link words (not in the basket). ΣD = 7 over the
    /// basket: values 5 / 7 ≈ 0.71 (the winner) and 2 / 7 ≈ 0.29. K-FE with k = 2 puts the two
    /// values in two clusters and keeps the higher.
    #[test]
    fn explain_gives_the_decisive_feature_comparison() {
        let html = "<body>\n<p>one two three four five</p>\n<p>six seven</p>\n\
            <p><a href=a>l1 l2 l3</a> t</p>\n<ul><li><a href=b>menu item</a></li></ul>\n</body>";
        for (e, kfe) in [
            (FeatureExtractor::fe(), false),
            (FeatureExtractor::kfe(), true),
        ] {
            let (p, x) = run(e, html);
            assert_eq!(p.render(&x.selection), "one two three four five");
            let explain = |s: &str| ex::explain_at(&e, &p, &x, s);
            let win = explain("one two");
            assert!(win.contains("desired features D = 5 (text words"), "{win}");
            let second = explain("six");
            if kfe {
                assert!(
                    second.contains(
                        "value D / ΣD = 0.29 is below the highest k-means cluster (from 0.71)"
                    ),
                    "{second}"
                );
                assert!(win.contains("one of the K winner blocks: content"), "{win}");
            } else {
                assert!(
                    second.contains("value D / ΣD = 0.29 < 0.71 of the winner block <p>"),
                    "{second}"
                );
                assert!(
                    win.contains("value D / ΣD = 0.71, the highest → the winner block"),
                    "{win}"
                );
            }
            let links = explain("l1");
            assert!(
                links.contains("D 1 < remaining 3 → not in the winner basket → not content"),
                "{links}"
            );
            let menu = explain("menu item");
            assert!(menu.contains("no block of Algorithm 2"), "{menu}");
        }
    }
}
