//! `shallow` — boilerplate detection with shallow text features (Kohlschütter, Fankhauser and
//! Nejdl 2010, "Boilerplate detection using shallow text features", WSDM; Mohammadzadeh 2013,
//! section 3.3.2.1): every atomic text block ([`crate::page::blocks`]) is classified as main
//! content or boilerplate by a decision tree over its shallow features and those of its
//! neighbours. Also the feature rows every block method shares ([`block_rows`]: the linear SVM
//! of [`crate::learn::svm`] now, the CRF and the stacked classifier later).
//!
//! **Features** (one row per block, [`feature_names`]): for the current, the previous and the
//! next block (the paper's local context; a missing neighbour is all zeros), the
//! [`BASE_FEATURES`] — number of words, average word length, average sentence length, link
//! density, text density, upper-case word ratio, full-stop ratio, date tokens, vertical bars,
//! and whether the block lies in an `h1` … `h6`, a `p`, a `div` — prefixed `curr_`, `prev_`,
//! `next_`; then the block's absolute position (its index) and relative position
//! ([`crate::page::Blocks::relative_position`]). 53 features.
//!
//! **Labels.** A block is main content when at least half of its text bytes are in the gold
//! selection ([`crate::page::Blocks::project`] ≥ 0.5).
//!
//! **The tree** (linfa-trees, CART-style binary splits on thresholds): split criterion
//! **entropy** (information gain, as the C4.5 / J48 trees the paper trained in Weka), **max
//! depth 12**, **at least 32 training blocks per leaf** (64 to split). linfa-trees does no
//! post-pruning (C4.5's confidence pruning), so depth and leaf size are what keep the tree
//! from learning single blocks: leaves of 32 blocks give probabilities with a resolution of a
//! few percent, and depth 12 is deep enough for the paper's reported trees (a handful of
//! features decide most blocks) on 10⁵ blocks. The tree is fitted on at most
//! [`MAX_TREE_ROWS`] blocks (a seeded sample when there are more: linfa scans every row per
//! node and feature); the leaves' probabilities are then counted on **all** training blocks,
//! `(main + 1) / (blocks + 2)` (Laplace), so the tree gives a probability, not only a label.

use std::sync::Arc;

use ndarray::{Array1, Array2};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::classifier::{fallback_blocks, select_blocks, BlockClassifier, BlockScorer};
use super::model::ModelFile;
use super::{Learner, MethodInfo};
use crate::error::{Error, Result};
use crate::extract::Extractor;
use crate::page::blocks::{Blocks, Within};
use crate::page::Page;
use crate::selection::Selection;

/// The per-block features, before the `curr_` / `prev_` / `next_` prefix.
pub const BASE_FEATURES: [&str; 17] = [
    "num_words",
    "avg_word_length",
    "avg_sentence_length",
    "link_density",
    "text_density",
    "upper_ratio",
    "full_stop_ratio",
    "date_tokens",
    "vertical_bars",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "div",
];

/// Features per row: three blocks of [`BASE_FEATURES`] and the two positions.
pub const N_FEATURES: usize = 3 * BASE_FEATURES.len() + 2;

/// The most blocks a tree is fitted on (a seeded sample beyond).
pub const MAX_TREE_ROWS: usize = 120_000;

/// The feature names, in row order: `curr_num_words` … `curr_div`, `prev_…`, `next_…`,
/// `abs_position`, `rel_position`.
pub fn feature_names() -> Vec<String> {
    let mut v = Vec::with_capacity(N_FEATURES);
    for side in ["curr", "prev", "next"] {
        v.extend(BASE_FEATURES.iter().map(|f| format!("{side}_{f}")));
    }
    v.push("abs_position".into());
    v.push("rel_position".into());
    v
}

/// The [`BASE_FEATURES`] of block `i`.
fn base(blocks: &Blocks, i: usize) -> [f64; BASE_FEATURES.len()] {
    let b = blocks.get(i);
    let f = &b.features;
    let flag = |w: Within| if b.within.contains(w) { 1.0 } else { 0.0 };
    [
        f64::from(f.words),
        f.avg_word_length(),
        f.avg_sentence_length(),
        f.link_density(),
        f.text_density(),
        f.upper_ratio(),
        f.full_stop_ratio(),
        f64::from(f.date_tokens),
        f64::from(f.vertical_bars),
        flag(Within::H[0]),
        flag(Within::H[1]),
        flag(Within::H[2]),
        flag(Within::H[3]),
        flag(Within::H[4]),
        flag(Within::H[5]),
        flag(Within::P),
        flag(Within::DIV),
    ]
}

/// The feature rows of a page's blocks ([`feature_names`]), row-major: `blocks.len() ×`
/// [`N_FEATURES`] values. O(blocks).
pub fn block_rows(blocks: &Blocks) -> Vec<f64> {
    let n = blocks.len();
    let bases: Vec<[f64; BASE_FEATURES.len()]> = (0..n).map(|i| base(blocks, i)).collect();
    let zero = [0.0; BASE_FEATURES.len()];
    let mut rows = Vec::with_capacity(n * N_FEATURES);
    for i in 0..n {
        rows.extend_from_slice(&bases[i]);
        rows.extend_from_slice(if i > 0 { &bases[i - 1] } else { &zero });
        rows.extend_from_slice(bases.get(i + 1).unwrap_or(&zero));
        rows.push(i as f64);
        rows.push(blocks.relative_position(i));
    }
    rows
}

/// The training data of one page for a block method: feature rows, labels, and each block's
/// text (what scoring a prediction needs without the page).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BlockData {
    /// Values per row: [`N_FEATURES`] for the shallow features, more for a method with more.
    pub width: usize,
    /// Row-major feature rows, `width` per block.
    pub rows: Vec<f64>,
    /// Main content (≥ half of the block's text bytes in the gold selection)?
    pub labels: Vec<bool>,
    /// Each block's text as a reader sees it ([`Blocks::text`]).
    pub texts: Vec<String>,
    /// The blocks the short-result fallback offers ([`select_blocks`]): the page's largest
    /// record group, sorted, for a method whose extractor has the fallback on (`stack`, which
    /// adds them with [`BlockData::with_fallback`]); empty otherwise, and then
    /// [`BlockData::extract_text`] has no fallback.
    pub fallback: Vec<usize>,
}

impl BlockData {
    /// The rows, labels and texts of `page`'s blocks against `gold` (normal form).
    pub fn of(page: &Page, gold: &Selection) -> BlockData {
        BlockData::with_rows(page, gold, block_rows(page.blocks()), N_FEATURES)
    }

    /// The labels and texts of `page`'s blocks against `gold` (normal form) with feature
    /// `rows` built by the method (row-major, `width` per block, in block order).
    pub fn with_rows(page: &Page, gold: &Selection, rows: Vec<f64>, width: usize) -> BlockData {
        let blocks = page.blocks();
        let dom = page.dom();
        debug_assert_eq!(rows.len(), blocks.len() * width);
        BlockData {
            width,
            rows,
            labels: blocks.project(gold).into_iter().map(|f| f >= 0.5).collect(),
            texts: (0..blocks.len()).map(|i| blocks.text(dom, i)).collect(),
            fallback: Vec::new(),
        }
    }

    /// The same data with the short-result fallback's blocks of `page` (the page these data
    /// were made from): [`fallback_blocks`], the page's largest record group.
    pub fn with_fallback(mut self, page: &Page) -> BlockData {
        self.fallback = fallback_blocks(page);
        self
    }

    /// Row `i`.
    pub fn row(&self, i: usize) -> &[f64] {
        &self.rows[i * self.width..(i + 1) * self.width]
    }

    /// The number of blocks.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// True without blocks.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The text of the blocks whose probability under `scorer` is at least `threshold`, one
    /// block per line, in page order — and, when [`BlockData::fallback`] holds blocks, those
    /// the short-result fallback adds ([`select_blocks`]): what the extractor selects, as text.
    pub fn extract_text(&self, scorer: &dyn BlockScorer, threshold: f64) -> String {
        let mut p = scorer.probabilities(&self.rows, self.width);
        p.resize(self.len(), f64::NAN);
        let (chosen, _) = select_blocks(&p, threshold, &self.fallback, |i| {
            self.texts.get(i).map_or(0, |t| t.chars().count())
        });
        let mut out = String::new();
        for i in (0..self.len()).filter(|&i| chosen[i]) {
            out.push_str(&self.texts[i]);
            out.push('\n');
        }
        out
    }
}

/// All rows and labels of some pages, in order: `(rows, labels)` with `rows` row-major (the
/// pages' rows must be of one width).
pub fn stack(pages: &[&BlockData]) -> (Vec<f64>, Vec<bool>) {
    let n: usize = pages.iter().map(|p| p.len()).sum();
    let width = pages.first().map_or(N_FEATURES, |p| p.width);
    let mut rows = Vec::with_capacity(n * width);
    let mut labels = Vec::with_capacity(n);
    for p in pages {
        rows.extend_from_slice(&p.rows);
        labels.extend_from_slice(&p.labels);
    }
    (rows, labels)
}

/// A seeded sample of `max` of `n` row indices, in increasing order (all when `n ≤ max`).
pub fn sample_rows(n: usize, max: usize, seed: u64) -> Vec<usize> {
    if n <= max {
        return (0..n).collect();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut v = rand::seq::index::sample(&mut rng, n, max).into_vec();
    v.sort_unstable();
    v
}

/// Errors unless both classes occur among `labels`.
pub fn check_classes(labels: &[bool]) -> Result<()> {
    let pos = labels.iter().filter(|&&l| l).count();
    if pos == 0 || pos == labels.len() {
        return Err(Error::Train(format!(
            "the training pages have {} blocks, {pos} of them main content: a classifier needs \
             blocks of both kinds",
            labels.len()
        )));
    }
    Ok(())
}

/// One node of a fitted tree, in pre-order (the root first; children after their parent).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Node {
    /// Rows with `feature < below` go to `left`, the others to `right` (node indices).
    Split {
        /// The feature index ([`feature_names`]).
        feature: usize,
        /// The threshold.
        below: f64,
        /// The node for smaller values.
        left: usize,
        /// The node for the others.
        right: usize,
    },
    /// A leaf: the probability of main content and the training blocks it was counted on.
    Leaf {
        /// `(main + 1) / (blocks + 2)`.
        p: f64,
        /// Training blocks that reached it.
        blocks: usize,
        /// Of which main content.
        main: usize,
    },
}

/// The fitted tree: the model file's body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TreeBody {
    /// The nodes in pre-order; `nodes[0]` is the root.
    pub nodes: Vec<Node>,
}

impl TreeBody {
    /// The leaf row `row` reaches, and the splits on the way (node indices).
    fn path(&self, row: &[f64]) -> (usize, Vec<usize>) {
        let mut k = 0;
        let mut splits = Vec::new();
        // Pre-order with children after parents ([`TreeBody::check`]): at most `nodes` steps.
        for _ in 0..=self.nodes.len() {
            match self.nodes.get(k) {
                Some(Node::Split {
                    feature,
                    below,
                    left,
                    right,
                }) => {
                    splits.push(k);
                    let v = row.get(*feature).copied().unwrap_or(0.0);
                    k = if v < *below { *left } else { *right };
                }
                _ => break,
            }
        }
        (k, splits)
    }

    /// Checks indices: every split's feature below `n_features`, its children after it and in
    /// the list, a leaf's probability in `[0, 1]`. A loaded file's tree passes it before use.
    pub fn check(&self, n_features: usize) -> std::result::Result<(), String> {
        if self.nodes.is_empty() {
            return Err("the tree has no node".into());
        }
        for (k, n) in self.nodes.iter().enumerate() {
            match n {
                Node::Split {
                    feature,
                    below,
                    left,
                    right,
                } => {
                    if *feature >= n_features || !below.is_finite() {
                        return Err(format!("node {k}: bad feature {feature} or threshold"));
                    }
                    for c in [left, right] {
                        if *c <= k || *c >= self.nodes.len() {
                            return Err(format!("node {k}: child {c} out of order"));
                        }
                    }
                }
                Node::Leaf { p, .. } => {
                    if !(0.0..=1.0).contains(p) {
                        return Err(format!("node {k}: probability {p} outside [0, 1]"));
                    }
                }
            }
        }
        Ok(())
    }
}

impl BlockScorer for TreeBody {
    fn probability(&self, row: &[f64]) -> f64 {
        match self.nodes.get(self.path(row).0) {
            Some(Node::Leaf { p, .. }) => *p,
            _ => 0.0,
        }
    }

    /// The decision path: each split as `curr_link_density 0.62 ≥ 0.331`, then the leaf.
    fn explain(&self, row: &[f64], names: &[String]) -> Vec<String> {
        let (leaf, splits) = self.path(row);
        let steps: Vec<String> = splits
            .iter()
            .filter_map(|&k| match &self.nodes[k] {
                Node::Split { feature, below, .. } => {
                    let v = row.get(*feature).copied().unwrap_or(0.0);
                    let name = names.get(*feature).map_or("?", String::as_str);
                    let op = if v < *below { "<" } else { "≥" };
                    let read = super::reading::reading(name, v)
                        .map_or_else(String::new, |r| format!(" ({r})"));
                    Some(format!("{name} {} {op} {}{read}", fmt(v), fmt(*below)))
                }
                Node::Leaf { .. } => None,
            })
            .collect();
        let mut out = vec![if steps.is_empty() {
            "decision path: the tree is one leaf".to_string()
        } else {
            format!("decision path: {}", steps.join(" → "))
        }];
        if let Some(Node::Leaf { blocks, main, .. }) = self.nodes.get(leaf) {
            out.push(format!(
                "its leaf held {blocks} training blocks, {main} of them main content"
            ));
        }
        out
    }
}

/// A number for an explanation: up to three decimals, no trailing zeros.
pub fn fmt(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// linfa's tree as [`Node`]s in pre-order (leaves' counts filled later).
#[cfg(feature = "train")]
fn convert(node: &linfa_trees::TreeNode<f64, bool>, out: &mut Vec<Node>) -> usize {
    let k = out.len();
    let kids = node.children();
    match (node.is_leaf(), kids[0].as_deref(), kids[1].as_deref()) {
        (false, Some(l), Some(r)) => {
            let (feature, below, _) = node.split();
            out.push(Node::Split {
                feature,
                below,
                left: 0,
                right: 0,
            });
            let left = convert(l, out);
            let right = convert(r, out);
            out[k] = Node::Split {
                feature,
                below,
                left,
                right,
            };
        }
        _ => out.push(Node::Leaf {
            p: 0.5,
            blocks: 0,
            main: 0,
        }),
    }
    k
}

/// Fits the tree on rows (row-major, [`N_FEATURES`] each) and labels (see the module
/// documentation for the settings). Errors: [`Error::Train`].
pub fn fit_tree(rows: &[f64], labels: &[bool], seed: u64) -> Result<TreeBody> {
    check_classes(labels)?;
    let n = labels.len();
    let pick = sample_rows(n, MAX_TREE_ROWS, seed);
    let mut x = Array2::<f64>::zeros((pick.len(), N_FEATURES));
    let mut y = Array1::<bool>::from_elem(pick.len(), false);
    // Main-content blocks weigh 1 + 2⁻¹⁰, the others 1: linfa-trees breaks a tie between the
    // classes' weights by hash-map order (random per process), which could make two runs prune
    // differently; with these weights the classes never weigh exactly the same.
    let mut w = Array1::<f32>::from_elem(pick.len(), 1.0);
    for (j, &i) in pick.iter().enumerate() {
        x.row_mut(j).assign(&ndarray::ArrayView1::from(
            &rows[i * N_FEATURES..(i + 1) * N_FEATURES],
        ));
        y[j] = labels[i];
        if labels[i] {
            w[j] = 1.0 + 1.0 / 1024.0;
        }
    }
    let mut body = TreeBody {
        nodes: grow(x, y, w)?,
    };
    let mut counts = vec![(0usize, 0usize); body.nodes.len()];
    for i in 0..n {
        let leaf = body.path(&rows[i * N_FEATURES..(i + 1) * N_FEATURES]).0;
        counts[leaf].0 += 1;
        counts[leaf].1 += usize::from(labels[i]);
    }
    for (node, (blocks, main)) in body.nodes.iter_mut().zip(counts) {
        if let Node::Leaf { .. } = node {
            *node = Node::Leaf {
                p: (main as f64 + 1.0) / (blocks as f64 + 2.0),
                blocks,
                main,
            };
        }
    }
    Ok(body)
}

/// linfa-trees' fit of the sampled rows `x`, their labels `y` and weights `w` (see the module
/// documentation for the settings), as [`Node`]s in pre-order with the leaves' counts still to
/// fill. Errors: [`Error::Train`] (linfa's).
#[cfg(feature = "train")]
fn grow(x: Array2<f64>, y: Array1<bool>, w: Array1<f32>) -> Result<Vec<Node>> {
    use linfa::prelude::*;
    use linfa_trees::{DecisionTree, SplitQuality};
    let ds = Dataset::new(x, y)
        .with_weights(w)
        .with_feature_names(feature_names());
    let tree = DecisionTree::<f64, bool>::params()
        .split_quality(SplitQuality::Entropy)
        .max_depth(Some(12))
        .min_weight_leaf(32.0)
        .min_weight_split(64.0)
        .fit(&ds)
        .map_err(|e| crate::error::Error::Train(format!("decision tree: {e}")))?;
    let mut nodes = Vec::new();
    convert(tree.root_node(), &mut nodes);
    Ok(nodes)
}

/// In a build without the learners (feature `train`): [`super::fitter_missing`].
#[cfg(not(feature = "train"))]
fn grow(_x: Array2<f64>, _y: Array1<bool>, _w: Array1<f32>) -> Result<Vec<Node>> {
    Err(super::fitter_missing(INFO.name, "linfa-trees"))
}

/// A classifier fitted on the shallow-feature rows of blocks ([`block_rows`]): what a block
/// method adds to the shared features — its fit, its body's check, its name. Every such method
/// is a [`Learner`] through [`OnShallowFeatures`].
pub trait BlockFit: Send + Sync + 'static {
    /// The fitted model (a model file's body), which scores a row.
    type Body: BlockScorer + Serialize + serde::de::DeserializeOwned + Send + Sync + 'static;
    /// Name, description, source.
    fn info(&self) -> &'static MethodInfo;
    /// Fits on row-major rows ([`N_FEATURES`] each) and labels. Errors: [`Error::Train`].
    fn fit(&self, rows: &[f64], labels: &[bool], seed: u64) -> Result<Self::Body>;
    /// Checks a loaded body ([`Learner::check_body`]).
    fn check(&self, body: &Self::Body) -> std::result::Result<(), String>;
}

/// A block method on the shared shallow features: pages become [`BlockData`], the fitted body
/// scores blocks in a [`BlockClassifier`].
#[derive(Debug, Clone, Copy, Default)]
pub struct OnShallowFeatures<F>(pub F);

impl<F: BlockFit> Learner for OnShallowFeatures<F> {
    type PageData = BlockData;
    type Body = F::Body;

    fn info(&self) -> &'static MethodInfo {
        self.0.info()
    }

    fn feature_names(&self) -> Vec<String> {
        feature_names()
    }

    fn prepare(&self, page: &Page, gold: &Selection) -> BlockData {
        BlockData::of(page, gold)
    }

    fn fit(&self, pages: &[&BlockData], _weights: &[f64], seed: u64) -> Result<F::Body> {
        let (rows, labels) = stack(pages);
        self.0.fit(&rows, &labels, seed)
    }

    fn check_body(&self, body: &F::Body) -> std::result::Result<(), String> {
        self.0.check(body)
    }

    fn extract_text(&self, body: &F::Body, page: &BlockData, threshold: f64) -> String {
        page.extract_text(body, threshold)
    }

    fn extractor(&self, name: &str, model: ModelFile<F::Body>) -> Arc<dyn Extractor> {
        Arc::new(BlockClassifier::new(
            name,
            self.0.info(),
            model.features,
            model.threshold,
            |page: &Page| block_rows(page.blocks()),
            Box::new(model.body),
        ))
    }
}

/// The decision tree's fit ([`fit_tree`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct TreeFit;

/// The decision-tree method (`--method shallow`).
pub type Shallow = OnShallowFeatures<TreeFit>;

static INFO: MethodInfo = MethodInfo {
    name: "shallow",
    description: "a decision tree over the shallow text features of each block and its neighbours (Kohlschütter et al. 2010)",
    source: "Kohlschütter, Fankhauser and Nejdl 2010, sections 4-5; Mohammadzadeh 2013, 3.3.2.1",
    fitter: Some("linfa-trees"),
};

impl BlockFit for TreeFit {
    type Body = TreeBody;

    fn info(&self) -> &'static MethodInfo {
        &INFO
    }

    fn fit(&self, rows: &[f64], labels: &[bool], seed: u64) -> Result<TreeBody> {
        fit_tree(rows, labels, seed)
    }

    fn check(&self, body: &TreeBody) -> std::result::Result<(), String> {
        body.check(N_FEATURES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One feature vector of a hand-made page, computed by hand (issue 22's acceptance).
    #[test]
    fn the_feature_vector_of_a_hand_made_page() {
        let page = Page::from_text(
            "t.html",
            "<html><body><div><h1>Big News</h1>\
             <p>The cat sat. It was <a href=/x>very happy</a> on May 5.</p>\
             <p>Home | About</p></div></body></html>",
        );
        let blocks = page.blocks();
        assert_eq!(blocks.len(), 3);
        let rows = block_rows(blocks);
        assert_eq!(rows.len(), 3 * N_FEATURES);
        let names = feature_names();
        assert_eq!(names.len(), N_FEATURES);
        assert_eq!(names[0], "curr_num_words");
        assert_eq!(names[17 + 3], "prev_link_density");
        assert_eq!(names[52], "rel_position");
        // The middle block: "The cat sat. It was very happy on May 5." — 10 words, 10 tokens.
        let row = &rows[N_FEATURES..2 * N_FEATURES];
        let curr = [
            10.0,        // words
            29.0 / 10.0, // word characters: 3+3+3+2+3+4+5+2+3+1 ("sat." → 3, "5." → 1)
            5.0,         // 2 sentences ("The cat sat." and the rest) of 10 words
            0.2,         // "very happy" linked: 2 / 10
            10.0,        // 40 characters, one wrapped line: text density = its tokens
            0.3,         // The, It, May
            0.2,         // "sat." and "5."
            1.0,         // "May"
            0.0,         // no vertical bar
            0.0,         // h1
            0.0,
            0.0,
            0.0,
            0.0,
            0.0, // h6
            1.0, // in a <p>
            1.0, // in a <div>
        ];
        assert_eq!(&row[..17], &curr[..], "curr");
        // The previous block, "Big News" in an <h1> inside the <div>.
        let prev = [
            2.0, 3.5, 2.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0,
        ];
        assert_eq!(&row[17..34], &prev[..], "prev");
        // The next block, "Home | About": 3 tokens, 2 words, one bar.
        let next = [
            2.0, 4.5, 2.0, 0.0, 3.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0,
        ];
        assert_eq!(&row[34..51], &next[..], "next");
        assert_eq!(&row[51..], &[1.0, 0.5], "positions");
        // The first block has no previous block: zeros.
        assert!(rows[17..34].iter().all(|&v| v == 0.0));
    }

    #[test]
    fn a_tree_learns_a_rule_and_explains_its_path() {
        // Blocks with link density ≥ 0.5 are boilerplate, the others content.
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for i in 0..400 {
            let mut r = vec![0.0; N_FEATURES];
            r[0] = (i % 37) as f64;
            r[3] = (i % 10) as f64 / 10.0;
            labels.push(r[3] < 0.5);
            rows.extend(r);
        }
        let t = fit_tree(&rows, &labels, 1).unwrap();
        t.check(N_FEATURES).unwrap();
        let mut r = vec![0.0; N_FEATURES];
        r[3] = 0.9;
        assert!(t.probability(&r) < 0.1);
        r[3] = 0.1;
        assert!(t.probability(&r) > 0.9);
        let said = t.explain(&r, &feature_names()).join("; ");
        assert!(said.contains("curr_link_density 0.1 < 0.45"), "{said}");
        assert!(fit_tree(&rows, &vec![true; 400], 1).is_err());
        let bad = TreeBody {
            nodes: vec![Node::Split {
                feature: 0,
                below: 1.0,
                left: 0,
                right: 0,
            }],
        };
        assert!(bad.check(N_FEATURES).is_err());
    }
}
