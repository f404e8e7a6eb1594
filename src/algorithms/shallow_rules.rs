//! `numwords_rules` / `density_rules` — the published shallow-text decision trees of
//! Kohlschütter, Fankhauser & Nejdl 2010 ("Boilerplate detection using shallow text features",
//! WSDM 2010; Mohammadzadeh 2013, 3.3.2.1), fixed rules that need no training.
//!
//! The paper learns C4.8 decision trees over the shallow features of each atomic text block
//! and of its neighbours, and reports that two features — the **number of words** and the
//! **link density** of the previous, current and next block — already make a simple,
//! competitive classifier; it prints that tree, and the authors' library boilerpipe implements
//! it as `NumWordsRulesClassifier` (and the densitometric variant over **text density** instead
//! of the number of words as `DensityRulesClassifier`). The thresholds here are boilerpipe's
//! (0.333333, 0.555556; 16, 15, 4, 40, 17 words; text densities 9, 10, 4, 11, 0), compared as it
//! compares them (`≤`). Each block of the page ([`crate::page::Page::blocks`], with
//! [`Features::words`], [`Features::link_density`] and [`Features::text_density`] as the paper
//! defines them) is classified with its neighbours in document order; the first block's
//! previous and the last block's next are an empty block (no words, link and text density 0),
//! as boilerpipe's `EMPTY_START`. The text of the content blocks is the main content.
//!
//! Only the classifier: boilerpipe's extractors that use it add block fusion and other filters
//! (its `NumWordsRulesExtractor` is this classifier alone). Blocks are taken as the block model
//! gives them, hidden ones included (the paper reads no style sheets).

use crate::extract::explain::{self as ex, TextLine};
use crate::extract::trace::{runs, Marks, Phase, Positions, Role, Series, Trace, Unit};
use crate::extract::{AlgoInfo, Algorithm, Extraction, Extractor, Params, NO_PARAMS};
use crate::page::blocks::{node_label, Block, Features};
use crate::page::Page;
use crate::selection::Selection;

/// Which of the two published trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Number of words and link density (`NumWordsRulesClassifier`).
    NumWords,
    /// Text density and link density (`DensityRulesClassifier`).
    Density,
}

/// One of the published two-feature rule sets as an extractor.
#[derive(Debug, Clone)]
pub struct ShallowRules {
    variant: Variant,
}

impl ShallowRules {
    /// The number-of-words rules (`numwords_rules`).
    pub fn numwords() -> ShallowRules {
        ShallowRules {
            variant: Variant::NumWords,
        }
    }

    /// The densitometric rules (`density_rules`).
    pub fn density() -> ShallowRules {
        ShallowRules {
            variant: Variant::Density,
        }
    }

    /// Which tree.
    pub fn variant(&self) -> Variant {
        self.variant
    }
}

const NUMWORDS_PHASES: &[Phase] = &[
    Phase::new(
        "blocks",
        "the atomic text blocks with their number of words and link density",
        &["words", "link_density"],
    ),
    Phase::new(
        "rules",
        "the published tree over the previous, current and next block: content or boilerplate (Kohlschütter et al. 2010)",
        &["class", "content"],
    ),
];

const DENSITY_PHASES: &[Phase] = &[
    Phase::new(
        "blocks",
        "the atomic text blocks with their number of words, link density and text density",
        &["words", "link_density", "text_density"],
    ),
    Phase::new(
        "rules",
        "the published densitometric tree over the previous, current and next block (Kohlschütter et al. 2010)",
        &["class", "content"],
    ),
];

static NUMWORDS_INFO: AlgoInfo = AlgoInfo::new(
    "numwords_rules",
    "Shallow-text rules: number of words and link density of the previous / current / next block, the published decision tree (Kohlschütter et al. 2010; boilerpipe's NumWordsRulesClassifier; Mohammadzadeh 2013, 3.3.2.1)",
    "Kohlschütter, Fankhauser & Nejdl 2010 (WSDM), the two-feature tree; Mohammadzadeh 2013, 3.3.2.1",
    NO_PARAMS,
    NUMWORDS_PHASES,
)
.with_dom();

static DENSITY_INFO: AlgoInfo = AlgoInfo::new(
    "density_rules",
    "Shallow-text rules: text density and link density of the previous / current / next block, the published densitometric tree (Kohlschütter et al. 2010; boilerpipe's DensityRulesClassifier)",
    "Kohlschütter, Fankhauser & Nejdl 2010 (WSDM), the densitometric tree; Mohammadzadeh 2013, 3.3.2.1",
    NO_PARAMS,
    DENSITY_PHASES,
)
.with_dom();

impl Algorithm for ShallowRules {
    fn info(&self) -> &AlgoInfo {
        match self.variant {
            Variant::NumWords => &NUMWORDS_INFO,
            Variant::Density => &DENSITY_INFO,
        }
    }
}

/// The tests a block passes through the tree, in words, and the leaf reached.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RulePath {
    /// One test per node on the way down: `link density 0.12 ≤ 0.333`.
    pub tests: Vec<String>,
    /// The leaf's number, in the order the leaves are written in the tree (1-based; see
    /// [`classify`]).
    pub leaf: u8,
    /// The verdict.
    pub content: bool,
}

impl RulePath {
    /// `value ≤ limit`, recorded (`limit` written as `shown`).
    fn le(&mut self, name: &str, value: f64, limit: f64, shown: &str) -> bool {
        let yes = value <= limit;
        let op = if yes { "≤" } else { ">" };
        self.tests
            .push(format!("{name} {} {op} {shown}", ex::num(value)));
        yes
    }

    /// The leaf `leaf` with `content`.
    fn leaf(&mut self, leaf: u8, content: bool) {
        self.leaf = leaf;
        self.content = content;
    }
}

/// Classifies the block `curr` between `prev` and `next` by the published tree of `variant`,
/// recording the path. Thresholds as boilerpipe writes them (link densities 0.333333 and
/// 0.555556). Leaves, numbered in the order the tree is written:
///
/// | leaf | number-of-words tree | densitometric tree |
/// |---|---|---|
/// | 1 | link density > 0.333 → boilerplate | the same |
/// | 2 | (prev ld ≤ 0.556) words > 16 → content | (prev ld ≤ 0.556) td > 9, next td = 0 → boilerplate |
/// | 3 | words ≤ 16, next words > 15 → content | td > 9, next td > 0 → content |
/// | 4 | words ≤ 16, next ≤ 15, prev words ≤ 4 → boilerplate | td ≤ 9, next td > 10 → content |
/// | 5 | words ≤ 16, next ≤ 15, prev words > 4 → content | td ≤ 9, next ≤ 10, prev td ≤ 4 → boilerplate |
/// | 6 | (prev ld > 0.556) words > 40 → content | td ≤ 9, next ≤ 10, prev td > 4 → content |
/// | 7 | words ≤ 40, next words ≤ 17 → boilerplate | (prev ld > 0.556) next td ≤ 11 → boilerplate |
/// | 8 | words ≤ 40, next words > 17 → content | next td > 11 → content |
pub fn classify(variant: Variant, prev: &Features, curr: &Features, next: &Features) -> RulePath {
    let mut p = RulePath::default();
    let w = |f: &Features| f64::from(f.words);
    let td = |f: &Features| f.text_density();
    if !p.le("link density", curr.link_density(), 0.333333, "0.333") {
        p.leaf(1, false);
        return p;
    }
    let prev_linked = !p.le("prev link density", prev.link_density(), 0.555556, "0.556");
    match (variant, prev_linked) {
        (Variant::NumWords, false) => {
            if !p.le("words", w(curr), 16.0, "16") {
                p.leaf(2, true);
            } else if !p.le("next words", w(next), 15.0, "15") {
                p.leaf(3, true);
            } else if p.le("prev words", w(prev), 4.0, "4") {
                p.leaf(4, false);
            } else {
                p.leaf(5, true);
            }
        }
        (Variant::NumWords, true) => {
            if !p.le("words", w(curr), 40.0, "40") {
                p.leaf(6, true);
            } else if p.le("next words", w(next), 17.0, "17") {
                p.leaf(7, false);
            } else {
                p.leaf(8, true);
            }
        }
        (Variant::Density, false) => {
            if !p.le("text density", td(curr), 9.0, "9") {
                // boilerpipe: `next.getTextDensity() == 0`, the next block has no words.
                let none = td(next) == 0.0;
                let op = if none { "=" } else { ">" };
                p.tests
                    .push(format!("next text density {} {op} 0", ex::num(td(next))));
                p.leaf(if none { 2 } else { 3 }, !none);
            } else if !p.le("next text density", td(next), 10.0, "10") {
                p.leaf(4, true);
            } else if p.le("prev text density", td(prev), 4.0, "4") {
                p.leaf(5, false);
            } else {
                p.leaf(6, true);
            }
        }
        (Variant::Density, true) => {
            if p.le("next text density", td(next), 11.0, "11") {
                p.leaf(7, false);
            } else {
                p.leaf(8, true);
            }
        }
    }
    p
}

/// The path of block `k` of `blocks` between its neighbours (an empty block — no words, link
/// and text density 0 — before the first and after the last, as boilerpipe's `EMPTY_START`).
fn classify_block(variant: Variant, blocks: &[Block], k: usize) -> RulePath {
    let empty = Features::default();
    let f = |i: Option<usize>| {
        i.and_then(|i| blocks.get(i))
            .map_or(&empty, |b| &b.features)
    };
    classify(variant, f(k.checked_sub(1)), f(Some(k)), f(Some(k + 1)))
}

impl Extractor for ShallowRules {
    /// Trace (node unit = the atomic text blocks in document order; positions = each block's
    /// extent): `words` (content signal), `link_density` (info), `text_density` (info, the
    /// densitometric variant), `class` (label: 1 content, 0 boilerplate), `content` (selected:
    /// runs of content blocks).
    fn run(&self, page: &Page, _params: &Params) -> Extraction {
        let blocks = page.blocks();
        let paths: Vec<RulePath> = (0..blocks.len())
            .map(|k| classify_block(self.variant, blocks.blocks(), k))
            .collect();
        let selection = page.normalize(&Selection::from_ranges(
            (0..blocks.len())
                .filter(|&i| paths[i].content)
                .flat_map(|i| blocks.ranges(i).iter().cloned()),
        ));
        let per = |f: &dyn Fn(&Features) -> f64| -> Vec<f64> {
            blocks.blocks().iter().map(|b| f(&b.features)).collect()
        };
        let mut series = vec![
            Series::new(
                "words",
                "words of the block",
                Unit::Node,
                Role::ContentSignal,
                per(&|f| f64::from(f.words)),
            ),
            Series::new(
                "link_density",
                "link density (words in <a> / words)",
                Unit::Node,
                Role::Info,
                per(&|f| f.link_density()),
            ),
        ];
        if self.variant == Variant::Density {
            series.push(Series::new(
                "text_density",
                "text density (words per wrapped line of 80 columns)",
                Unit::Node,
                Role::Info,
                per(&|f| f.text_density()),
            ));
        }
        series.push(Series::new(
            "class",
            "class (1 content, 0 boilerplate)",
            Unit::Node,
            Role::Label,
            paths.iter().map(|p| p.content as u8 as f64).collect(),
        ));
        let trace = Trace {
            series,
            scalars: Vec::new(),
            marks: vec![Marks::new(
                "content",
                "blocks the rules call content",
                Unit::Node,
                Role::Selected,
                runs((0..blocks.len()).filter(|&i| paths[i].content)),
            )],
            positions: vec![Positions {
                unit: Unit::Node,
                ranges: blocks.blocks().iter().map(|b| b.extent.clone()).collect(),
            }],
        };
        Extraction { selection, trace }
    }

    /// On a line of text: its block (tag, id, classes) and the tree's path with the block's and
    /// its neighbours' numbers — `block <p.story>: link density 0.12 ≤ 0.333, prev link density
    /// 0.6 > 0.556, words 52 > 40 → content`.
    fn explain_text_line(&self, page: &Page, _trace: &Trace, line: &TextLine) -> Vec<String> {
        let k = line.block;
        let blocks = page.blocks().blocks();
        let p = classify_block(self.variant, blocks, k);
        let name = node_label(page.dom(), blocks[k].container);
        let first = format!(
            "block {} of {} <{name}>",
            crate::page::Blocks::number(k),
            blocks.len()
        );
        let verdict = if p.content { "content" } else { "boilerplate" };
        ex::sentences(
            page,
            line,
            first,
            vec![format!("{} → {verdict}", p.tests.join(", "))],
        )
    }
}

#[cfg(test)]
mod tests;
