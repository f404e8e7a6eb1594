//! Gradient-boosted decision trees for the learned methods that need more than one tree (the
//! stacked block classifier, [`crate::learn::stack`]): fitted by the `perpetual` crate (a
//! pure-Rust gradient-boosting machine whose one hyper-parameter is a complexity `budget`),
//! then **copied into cescope's own body** ([`Forest`]), which is what a model file holds and
//! what scores at run time.
//!
//! Why a copy: perpetual keeps each tree's nodes in a `HashMap` (its serialisation order
//! changes from run to run, so its own JSON would break the byte-identical model files of
//! `cescope train`), and a flat pre-order array walks faster than a map lookup per node. The
//! copy is exact: [`Forest::log_odds`] gives perpetual's own `predict` (test
//! `the_copy_predicts_what_perpetual_predicts`).
//!
//! **Fitting** ([`fit`]): binary log-loss (`Objective::LogLoss`), labels 1 = main content,
//! perpetual's default 256 bins per feature, a fixed seed, a fixed memory limit
//! ([`MEMORY_LIMIT_GB`]), on as many threads as the calling rayon pool has (the training
//! pipeline runs its fits side by side, each on one thread: `crate::learn::train`).
//! perpetual splits the histogram work by feature, so the trees do not depend on the number
//! of threads: the model files of `cescope train` are byte-identical with 1 and 2 threads
//! (`tests/learn.rs`; on wcxb-dev's 1,497 pages a fit took 62.5 s on one thread and 44.8 s on
//! two, same bytes). Rows beyond [`GbtParams::max_rows`] are a seeded sample.
//!
//! **Scoring**: `log_odds(row) = base + Σ_trees leaf(row)`, `probability = 1 / (1 + e^−log_odds)`.
//! **Explanations** ([`Forest::contributions`]): the path-based attribution of Saabas (also
//! XGBoost's `approx_contribs`): along each tree's path, the change of the node value from a
//! node to the child taken is credited to the node's split feature, so `bias + Σ contributions
//! = log_odds` exactly, with `bias = base + Σ_trees root value`.

use serde::{Deserialize, Serialize};

use super::forest_code::{fingerprint, TreeArrays, LEAF};
use crate::error::{Error, Result};

/// The settings of a fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GbtParams {
    /// perpetual's complexity budget (more budget: a smaller learning rate and more trees).
    pub budget: f32,
    /// The most rows fitted on (a seeded sample beyond).
    pub max_rows: usize,
    /// The seed of the sample and of perpetual.
    pub seed: u64,
}

/// The crate that fits the trees (feature `train`): the [`super::MethodInfo::fitter`] of every
/// method fitted here (`stack`, the headline ranker).
pub const FITTER: &str = "perpetual";

/// perpetual's memory limit, in GB. perpetual sizes its pool of node histograms (up to 10 000
/// histograms of bins × features each), and so the most nodes a tree may grow, from the
/// smaller of this limit and the memory sysinfo reports free. cescope's stand-in for sysinfo
/// (`vendor/sysinfo`, applied by `[patch.crates-io]` in `Cargo.toml`) reports 64 GiB, so this
/// limit alone decides and a fit does not depend on the machine, its page cache or the fits
/// running beside it: the training pipeline runs its fits side by side
/// (`crate::learn::train`). The pool does bound the trees: the shipped model's largest
/// trees have 1 383 nodes, the pool's size. With the real sysinfo, a Linux machine (cgroup v1)
/// whose page cache filled its memory reported under a GB free, shrank the pool and changed
/// the trees. A fit of the shipped model's size holds about 3 GB.
pub const MEMORY_LIMIT_GB: f32 = 2.0;

/// One fitted tree, its nodes in pre-order (the root first, each child after its parent), as
/// parallel arrays (compact in JSON).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GbtTree {
    /// The split feature of each node (an index into the row), `u32::MAX` at a leaf.
    pub feature: Vec<u32>,
    /// The split threshold: rows with `value < threshold` go left (0 at a leaf).
    pub threshold: Vec<f64>,
    /// The left child (0 at a leaf).
    pub left: Vec<u32>,
    /// The right child (0 at a leaf).
    pub right: Vec<u32>,
    /// Where a missing value (NaN) goes: true = left (false at a leaf).
    pub missing_left: Vec<bool>,
    /// The node's value (log-odds units): a leaf's output; an inner node's value as if it were
    /// a leaf (used by the explanations).
    pub value: Vec<f32>,
}

impl GbtTree {
    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.feature.len()
    }

    /// True without nodes.
    pub fn is_empty(&self) -> bool {
        self.feature.is_empty()
    }

    /// The child a row takes at inner node `k`.
    #[inline]
    fn child(&self, k: usize, row: &[f64]) -> usize {
        let v = row
            .get(self.feature[k] as usize)
            .copied()
            .unwrap_or(f64::NAN);
        let left = if v.is_nan() {
            self.missing_left[k]
        } else {
            v < self.threshold[k]
        };
        if left {
            self.left[k] as usize
        } else {
            self.right[k] as usize
        }
    }

    /// The leaf value `row` reaches.
    #[inline]
    pub fn predict(&self, row: &[f64]) -> f64 {
        let mut k = 0;
        // Children come after their parent ([`GbtTree::check`]): at most `len` steps.
        while self.feature[k] != LEAF {
            k = self.child(k, row);
        }
        f64::from(self.value[k])
    }

    /// [`TreeArrays::check`] of this tree.
    fn check(&self, width: usize) -> std::result::Result<(), String> {
        self.arrays().check(width)
    }

    /// The tree's arrays as [`super::forest_code`] reads them (its check, its code, its
    /// fingerprint).
    fn arrays(&self) -> TreeArrays<'_> {
        TreeArrays {
            feature: &self.feature,
            threshold: &self.threshold,
            left: &self.left,
            right: &self.right,
            missing_left: &self.missing_left,
            value: &self.value,
        }
    }
}

/// A fitted ensemble: what a model file's body holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Forest {
    /// Features per row.
    pub width: usize,
    /// The initial log-odds (perpetual's base score).
    pub base: f64,
    /// The trees, in boosting order.
    pub trees: Vec<GbtTree>,
}

impl Forest {
    /// `base + Σ_trees leaf(row)`: the log-odds of main content. `row` has [`Forest::width`]
    /// values (a shorter row reads NaN — missing — for the rest).
    pub fn log_odds(&self, row: &[f64]) -> f64 {
        self.base + self.trees.iter().map(|t| t.predict(row)).sum::<f64>()
    }

    /// The probability of main content, in `[0, 1]`.
    pub fn probability(&self, row: &[f64]) -> f64 {
        sigmoid(self.log_odds(row))
    }

    /// Saabas contributions (see the module documentation): `(bias, per-feature
    /// contribution)` in log-odds units, `bias + Σ contributions = log_odds(row)`.
    pub fn contributions(&self, row: &[f64]) -> (f64, Vec<f64>) {
        let mut c = vec![0.0; self.width];
        let mut bias = self.base;
        for t in &self.trees {
            let mut k = 0;
            bias += f64::from(t.value[0]);
            while t.feature[k] != LEAF {
                let next = t.child(k, row);
                if let Some(slot) = c.get_mut(t.feature[k] as usize) {
                    *slot += f64::from(t.value[next]) - f64::from(t.value[k]);
                }
                k = next;
            }
        }
        (bias, c)
    }

    /// Checks a loaded body: every tree well formed (arrays of one length, features below
    /// `width`, children after their parent and in range, finite values), `width` as expected.
    pub fn check(&self, width: usize) -> std::result::Result<(), String> {
        if self.width != width {
            return Err(format!(
                "the forest has {} features per row, the method {width}",
                self.width
            ));
        }
        if !self.base.is_finite() {
            return Err("the base score is not a finite number".into());
        }
        for (i, t) in self.trees.iter().enumerate() {
            t.check(width).map_err(|e| format!("tree {i}: {e}"))?;
        }
        Ok(())
    }

    /// The number of nodes over all trees.
    pub fn nodes(&self) -> usize {
        self.trees.iter().map(GbtTree::len).sum()
    }
}

/// One node of a [`Compiled`] forest, 16 bytes: four to a cache line, a tree's parallel
/// arrays gathered into one record so a step down the tree reads one place. Nodes are laid
/// out in pre-order with the left child right after its parent, so only the right child is
/// stored.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Node {
    /// The split threshold; at a leaf, the leaf's value (an `f32` widened exactly).
    threshold: f64,
    /// The right child, an index into [`Compiled::nodes`] (0 at a leaf).
    right: u32,
    /// The split feature, [`LEAF16`] at a leaf.
    feature: u16,
    /// Where a missing value (NaN) goes: 1 = left.
    missing_left: u16,
}

/// [`Node::feature`] of a leaf.
const LEAF16: u16 = u16::MAX;

/// The shipped model's trees as code, written by `build.rs` from `models/learned.json`
/// ([`super::forest_code`]): `WIDTH`, `FINGERPRINT` and `TREES` (one function per tree, from a
/// row to its leaf's value); empty when the build could not write them.
#[allow(clippy::all, clippy::pedantic)]
mod shipped {
    include!(concat!(env!("OUT_DIR"), "/shipped_forest.rs"));
}

/// A [`Forest`] laid out for scoring: every tree's nodes in one array of compact records
/// (16-byte nodes), re-laid in pre-order (left child next) and checked once when compiled, so
/// that a row's walk reads one record per step and ends at a leaf. The scores are bit for
/// bit [`Forest::log_odds`]'s: each row's leaf values are added in tree order from the same
/// start, then the base (test `compiled_scores_are_the_forests_bits`). On the shipped model's
/// rows of scrapinghub-dev (52 trees, 42 000 nodes) the walk is about a quarter faster than
/// the forest's: 0.34–0.45 against 0.47–0.63 ms a page in one interleaved run.
///
/// **The shipped model's trees run as code.** When the forest is the one `build.rs` wrote as
/// Rust code (the same [`super::forest_code::fingerprint`]: the model compiled into the
/// binary, or a model file with the same trees), whole rows go through that code instead of
/// the walk: the same comparisons and the same additions in the same order, so the same bits
/// (test `the_shipped_trees_as_code_score_the_forests_bits`), about twice as fast
/// (docs/speed.md, "The shipped trees as code"). Every other forest is walked.
#[derive(Debug, Clone)]
pub struct Compiled {
    forest: Forest,
    /// Empty when the forest does not pass [`Compiled::new`]'s checks: then every row is
    /// scored by [`Forest::log_odds`].
    nodes: Vec<Node>,
    /// The root of each tree in `nodes`, in boosting order.
    roots: Vec<u32>,
    /// True when [`shipped::TREES`] are this forest's trees as code.
    as_code: bool,
}

impl Compiled {
    /// The compiled layout of `forest` (which it keeps, for [`Compiled::forest`]). O(nodes).
    /// A forest that would fail [`Forest::check`] against its own width, is 65 535 features
    /// wide or more, or has more nodes than a `u32` counts, is kept as is and scored by
    /// [`Forest::log_odds`].
    pub fn new(forest: Forest) -> Compiled {
        let packed = if forest.check(forest.width).is_ok() && forest.width < usize::from(LEAF16) {
            Self::pack(&forest)
        } else {
            None
        };
        let (nodes, roots) = packed.unwrap_or_default();
        let as_code = !nodes.is_empty() && Self::is_shipped(&forest);
        Compiled {
            forest,
            nodes,
            roots,
            as_code,
        }
    }

    /// Is `forest` the forest whose trees `build.rs` wrote as code ([`shipped`])? Same width,
    /// as many trees, the same fingerprint. O(nodes).
    fn is_shipped(forest: &Forest) -> bool {
        if shipped::FINGERPRINT.is_none()
            || forest.width != shipped::WIDTH
            || forest.trees.len() != shipped::TREES.len()
        {
            return false;
        }
        let trees: Vec<TreeArrays<'_>> = forest.trees.iter().map(GbtTree::arrays).collect();
        shipped::FINGERPRINT == Some(fingerprint(forest.width, &trees))
    }

    /// True when whole rows are scored by the shipped trees as code (see [`Compiled`]).
    pub fn runs_as_code(&self) -> bool {
        self.as_code
    }

    /// The nodes and roots of a checked forest, each tree re-laid in pre-order with the left
    /// child next; `None` past `u32` indices or on a malformed tree.
    fn pack(forest: &Forest) -> Option<(Vec<Node>, Vec<u32>)> {
        let mut nodes: Vec<Node> = Vec::with_capacity(forest.nodes());
        let mut roots = Vec::with_capacity(forest.trees.len());
        // (node of the tree, the compiled node whose right child it is)
        let mut stack: Vec<(usize, Option<usize>)> = Vec::new();
        for t in &forest.trees {
            roots.push(u32::try_from(nodes.len()).ok()?);
            let start = nodes.len();
            stack.push((0, None));
            while let Some((k, right_of)) = stack.pop() {
                // Checked forests have children after their parent: each node once.
                if nodes.len() - start >= t.len() {
                    return None;
                }
                let here = nodes.len();
                if let Some(p) = right_of {
                    nodes[p].right = u32::try_from(here).ok()?;
                }
                if t.feature[k] == LEAF {
                    nodes.push(Node {
                        threshold: f64::from(t.value[k]),
                        right: 0,
                        feature: LEAF16,
                        missing_left: 0,
                    });
                } else {
                    nodes.push(Node {
                        threshold: t.threshold[k],
                        right: 0,
                        feature: u16::try_from(t.feature[k]).ok()?,
                        missing_left: u16::from(t.missing_left[k]),
                    });
                    stack.push((t.right[k] as usize, Some(here)));
                    stack.push((t.left[k] as usize, None));
                }
            }
        }
        Some((nodes, roots))
    }

    /// The forest this was compiled from.
    pub fn forest(&self) -> &Forest {
        &self.forest
    }

    /// [`Forest::log_odds`] of every row of `rows` (row-major, `width` values per row; a last
    /// partial row counts as a row and reads NaN for what it lacks): one value per row.
    /// O(rows × trees × depth).
    ///
    /// Whole rows of the forest's width are walked tree by tree over blocks of [`ROW_BLOCK`]
    /// rows (each tree's nodes stay in cache while the block's rows go through it); every row
    /// still adds its leaf values in tree order from the same start, then the base, so its score
    /// is [`Forest::log_odds`]'s to the bit (test `compiled_scores_are_the_forests_bits`). Other
    /// rows (a forest that did not compile, another width, a last partial row) are scored by
    /// [`Forest::log_odds`].
    pub fn log_odds_rows(&self, rows: &[f64], width: usize) -> Vec<f64> {
        let width = width.max(1);
        if self.nodes.is_empty() || width != self.forest.width {
            return rows
                .chunks(width)
                .map(|r| self.forest.log_odds(r))
                .collect();
        }
        let mut acc: Vec<f64> = vec![std::iter::empty::<f64>().sum(); rows.len() / width];
        if self.as_code && width == shipped::WIDTH {
            // Tree by tree over blocks of rows, as the walk goes (a tree's code stays hot).
            let arrays: Vec<&[f64; shipped::WIDTH]> = rows
                .chunks_exact(width)
                .filter_map(|r| r.try_into().ok())
                .collect();
            for start in (0..arrays.len()).step_by(ROW_BLOCK) {
                let end = (start + ROW_BLOCK).min(arrays.len());
                for tree in shipped::TREES {
                    for r in start..end {
                        acc[r] += tree(arrays[r]);
                    }
                }
            }
            return self.finish(acc, rows, width);
        }
        let whole: Vec<&[f64]> = rows.chunks_exact(width).collect();
        let missing: Vec<bool> = whole.iter().map(|r| r.iter().any(|v| v.is_nan())).collect();
        for start in (0..whole.len()).step_by(ROW_BLOCK) {
            let end = (start + ROW_BLOCK).min(whole.len());
            for &root in &self.roots {
                for r in start..end {
                    acc[r] += if missing[r] {
                        self.leaf::<true>(root, whole[r])
                    } else {
                        self.leaf::<false>(root, whole[r])
                    };
                }
            }
        }
        self.finish(acc, rows, width)
    }

    /// The scores of [`Compiled::log_odds_rows`] from the sums `acc` of the whole rows' leaf
    /// values: the base added to each, then the last partial row of `rows`, if any.
    fn finish(&self, acc: Vec<f64>, rows: &[f64], width: usize) -> Vec<f64> {
        let partial = rows.chunks_exact(width).remainder();
        acc.into_iter()
            .map(|a| self.forest.base + a)
            .chain((!partial.is_empty()).then(|| self.forest.log_odds(partial)))
            .collect()
    }

    /// The value of the leaf `row` reaches in the tree at `root`. Without `MISSING` the row
    /// has no NaN (most rows): no step asks where a missing value goes.
    #[inline]
    fn leaf<const MISSING: bool>(&self, root: u32, row: &[f64]) -> f64 {
        let mut k = root as usize;
        // Laid out by `pack`: the left child is next, the right child after the left
        // subtree, so the walk moves forward and ends at a leaf.
        while let Some(n) = self.nodes.get(k) {
            if n.feature == LEAF16 {
                return n.threshold;
            }
            let v = row.get(usize::from(n.feature)).copied().unwrap_or(f64::NAN);
            let left = if MISSING && v.is_nan() {
                n.missing_left != 0
            } else {
                v < n.threshold
            };
            k = if left { k + 1 } else { n.right as usize };
        }
        0.0
    }
}

/// Rows per block of [`Compiled::log_odds_rows`]' tree-by-tree walk.
const ROW_BLOCK: usize = 64;

/// `1 / (1 + e^−x)`.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Copies perpetual's tree (nodes in a map, the root numbered 0) into pre-order arrays.
#[cfg(feature = "train")]
fn copy_tree(t: &perpetual::tree::core::Tree) -> std::result::Result<GbtTree, String> {
    let mut out = GbtTree::default();
    // (perpetual node number, index of the parent's slot to patch, is left child)
    let mut stack: Vec<(usize, Option<(usize, bool)>)> = vec![(0, None)];
    let mut guard = 0usize;
    while let Some((num, parent)) = stack.pop() {
        guard += 1;
        if guard > t.nodes.len() + 1 {
            return Err("perpetual's tree has a cycle".into());
        }
        let node = t
            .nodes
            .get(&num)
            .ok_or_else(|| format!("perpetual's tree lacks node {num}"))?;
        let k = out.len();
        if let Some((p, is_left)) = parent {
            let k32 = u32::try_from(k).map_err(|_| "tree too large")?;
            if is_left {
                out.left[p] = k32;
            } else {
                out.right[p] = k32;
            }
        }
        out.value.push(node.weight_value);
        if node.is_leaf {
            out.feature.push(LEAF);
            out.threshold.push(0.0);
            out.left.push(0);
            out.right.push(0);
            out.missing_left.push(false);
        } else {
            if node.left_cats.is_some() {
                return Err("categorical splits are not used".into());
            }
            out.feature
                .push(u32::try_from(node.split_feature).map_err(|_| "feature index too large")?);
            out.threshold.push(node.split_value);
            out.left.push(0);
            out.right.push(0);
            out.missing_left.push(
                node.missing_node == node.left_child || node.missing_node != node.right_child,
            );
            // Pre-order: the left subtree first, so push the right child below it.
            stack.push((node.right_child, Some((k, false))));
            stack.push((node.left_child, Some((k, true))));
        }
    }
    Ok(out)
}

/// Fits gradient-boosted trees on row-major `rows` (`width` values each) and `labels`, each
/// row weighted by `weights` (one per label; `None`: all 1) in the log-loss (see the module
/// documentation). Errors: [`Error::Train`] (no rows, one class only, rows
/// not a multiple of `width`, weights not one finite non-negative number per row,
/// perpetual's own errors).
pub fn fit(
    rows: &[f64],
    width: usize,
    labels: &[bool],
    weights: Option<&[f64]>,
    params: GbtParams,
) -> Result<Forest> {
    fit_parts(&[rows], width, labels, weights, params)
}

/// [`fit`] on rows given in parts (one per page, say), row-major, each part a whole number of
/// rows of `width` values, the parts together one row per label: the same forest as [`fit`] on
/// the parts concatenated, without the concatenated copy (on the shipped model's training
/// set, 0.8 GB per fit). Errors: as [`fit`].
pub fn fit_parts(
    parts: &[&[f64]],
    width: usize,
    labels: &[bool],
    weights: Option<&[f64]>,
    params: GbtParams,
) -> Result<Forest> {
    let values: usize = parts.iter().map(|p| p.len()).sum();
    if width == 0 || values != labels.len() * width || parts.iter().any(|p| p.len() % width != 0) {
        return Err(Error::Train(format!(
            "{values} values for {} rows of {width} features",
            labels.len()
        )));
    }
    super::shallow::check_classes(labels)?;
    if weights
        .is_some_and(|w| w.len() != labels.len() || w.iter().any(|x| !x.is_finite() || *x < 0.0))
    {
        return Err(Error::Train(format!(
            "the sample weights are not one finite, non-negative number per row ({} rows)",
            labels.len()
        )));
    }
    let row: Vec<&[f64]> = parts.iter().flat_map(|p| p.chunks_exact(width)).collect();
    let pick = super::shallow::sample_rows(labels.len(), params.max_rows, params.seed);
    let n = pick.len();
    // perpetual's Matrix is column-major.
    let mut cols = vec![0.0; n * width];
    for (r, &i) in pick.iter().enumerate() {
        for (j, &v) in row[i].iter().enumerate() {
            cols[j * n + r] = v;
        }
    }
    drop(row);
    let y: Vec<f64> = pick
        .iter()
        .map(|&i| f64::from(u8::from(labels[i])))
        .collect();
    let w: Option<Vec<f64>> = weights.map(|w| pick.iter().map(|&i| w[i]).collect());
    boost(&cols, width, &y, w.as_deref(), params)
}

/// perpetual's fit of the column-major matrix `cols` (`y.len()` rows of `width` values), its
/// labels `y` (0 or 1) and row weights `w`, copied into a checked [`Forest`]. Errors:
/// [`Error::Train`] (perpetual's own errors, a tree that does not copy).
#[cfg(feature = "train")]
fn boost(
    cols: &[f64],
    width: usize,
    y: &[f64],
    w: Option<&[f64]>,
    params: GbtParams,
) -> Result<Forest> {
    let matrix = perpetual::Matrix::new(cols, y.len(), width);
    let mut booster = perpetual::PerpetualBooster::default()
        .set_objective(perpetual::objective::Objective::LogLoss)
        .set_budget(params.budget)
        .set_num_threads(Some(rayon::current_num_threads().max(1)))
        .set_seed(params.seed)
        .set_memory_limit(Some(MEMORY_LIMIT_GB))
        .set_log_iterations(0);
    booster
        .fit(&matrix, y, w, None)
        .map_err(|e| Error::Train(format!("gradient boosting (perpetual): {e}")))?;
    let trees = booster
        .get_prediction_trees()
        .iter()
        .map(copy_tree)
        .collect::<std::result::Result<Vec<_>, String>>()
        .map_err(|e| Error::Train(format!("copying perpetual's trees: {e}")))?;
    let forest = Forest {
        width,
        base: booster.base_score,
        trees,
    };
    forest.check(width).map_err(Error::Train)?;
    Ok(forest)
}

/// In a build without the learners (feature `train`): [`super::fitter_missing`] (`cescope
/// train` says so before it reads a page, [`super::check_fitter`]).
#[cfg(not(feature = "train"))]
fn boost(_: &[f64], _: usize, _: &[f64], _: Option<&[f64]>, _: GbtParams) -> Result<Forest> {
    Err(super::fitter_missing("gradient-boosting", FITTER))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// Rows of 3 features where the label is `x0 + 2·x1 > 1.2` with x2 noise.
    fn toy() -> (Vec<f64>, Vec<bool>) {
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for i in 0..600u32 {
            let x0 = f64::from(i % 17) / 16.0;
            let x1 = f64::from((i * 7) % 13) / 12.0;
            let x2 = f64::from((i * 11) % 5);
            rows.extend([x0, x1, x2]);
            labels.push(x0 + 2.0 * x1 > 1.2);
        }
        (rows, labels)
    }

    fn params() -> GbtParams {
        GbtParams {
            budget: 0.5,
            max_rows: 10_000,
            seed: 7,
        }
    }

    #[test]
    fn learns_a_rule_and_the_contributions_add_up() {
        let (rows, labels) = toy();
        let f = fit(&rows, 3, &labels, None, params()).unwrap();
        assert!(!f.trees.is_empty());
        f.check(3).unwrap();
        let right = (0..labels.len())
            .filter(|&i| (f.probability(&rows[i * 3..i * 3 + 3]) >= 0.5) == labels[i])
            .count();
        assert!(
            right * 100 >= labels.len() * 95,
            "{right} of {}",
            labels.len()
        );
        for i in [0, 5, 123, 599] {
            let row = &rows[i * 3..i * 3 + 3];
            let (bias, c) = f.contributions(row);
            let sum = bias + c.iter().sum::<f64>();
            assert!(
                (sum - f.log_odds(row)).abs() < 1e-9,
                "{sum} vs {}",
                f.log_odds(row)
            );
        }
        // x2 is noise: the rule's features move the scores more.
        let mut moved = [0.0; 3];
        for i in 0..labels.len() {
            let (_, c) = f.contributions(&rows[i * 3..i * 3 + 3]);
            for j in 0..3 {
                moved[j] += c[j].abs();
            }
        }
        assert!(moved[1] > moved[2] && moved[0] > moved[2], "{moved:?}");
    }

    #[test]
    fn the_copy_predicts_what_perpetual_predicts() {
        let (rows, labels) = toy();
        let n = labels.len();
        let mut cols = vec![0.0; n * 3];
        for i in 0..n {
            for j in 0..3 {
                cols[j * n + i] = rows[i * 3 + j];
            }
        }
        let y: Vec<f64> = labels.iter().map(|&l| f64::from(u8::from(l))).collect();
        let matrix = perpetual::Matrix::new(&cols, n, 3);
        let mut b = perpetual::PerpetualBooster::default()
            .set_objective(perpetual::objective::Objective::LogLoss)
            .set_budget(0.5)
            .set_num_threads(Some(1))
            .set_seed(7);
        b.fit(&matrix, &y, None, None).unwrap();
        let theirs = b.predict(&matrix, false);
        let ours = fit(&rows, 3, &labels, None, params()).unwrap();
        for i in 0..n {
            let mine = ours.log_odds(&rows[i * 3..i * 3 + 3]);
            assert!(
                (mine - theirs[i]).abs() < 1e-9,
                "row {i}: {mine} vs {}",
                theirs[i]
            );
        }
    }

    /// The compiled layout scores every row as the forest does, to the bit: rows of the toy
    /// set, rows with missing (NaN) values, a short last row, and a forest of several trees.
    #[test]
    fn compiled_scores_are_the_forests_bits() {
        let (mut rows, labels) = toy();
        let f = fit(&rows, 3, &labels, None, params()).unwrap();
        assert!(f.trees.len() > 1, "{} trees", f.trees.len());
        for i in (0..rows.len()).step_by(7) {
            rows[i] = f64::NAN;
        }
        let c = Compiled::new(f.clone());
        assert_eq!(c.nodes.len(), f.nodes(), "the fast walk is taken");
        // Whole rows (600, some with NaN): the tree-by-tree walk over blocks of rows.
        assert!(rows.len() / 3 > 2 * ROW_BLOCK);
        let whole = c.log_odds_rows(&rows, 3);
        let want: Vec<f64> = rows.chunks(3).map(|r| f.log_odds(r)).collect();
        assert_eq!(
            whole.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            want.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
        // A last partial row: scored by the forest, the whole rows before it by the walk.
        rows.truncate(rows.len() - 1);
        let got = c.log_odds_rows(&rows, 3);
        let want: Vec<f64> = rows.chunks(3).map(|r| f.log_odds(r)).collect();
        assert_eq!(got.len(), labels.len());
        assert_eq!(
            got.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            want.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
        assert_eq!(c.forest(), &f);
        // No rows, no scores; a forest without trees gives its base.
        assert!(c.log_odds_rows(&[], 3).is_empty());
        let bare = Compiled::new(Forest {
            width: 3,
            base: 0.25,
            trees: Vec::new(),
        });
        assert_eq!(bare.log_odds_rows(&[1.0, 2.0, 3.0], 3), vec![0.25]);
    }

    /// The shipped model's forest (`models/learned.json`, as the binary compiles it in).
    fn shipped_forest() -> Forest {
        let model: serde_json::Value =
            serde_json::from_slice(include_bytes!("../../models/learned.json")).unwrap();
        serde_json::from_value(model["body"].clone()).unwrap()
    }

    fn bits(x: &[f64]) -> Vec<u64> {
        x.iter().map(|v| v.to_bits()).collect()
    }

    /// The shipped model runs as code (build.rs), and the code scores every row as the forest
    /// does, to the bit: the feature rows of the sample pages, and rows made to reach the
    /// edges of the comparisons (each feature at one of its thresholds, just below one, NaN,
    /// zero). A forest that differs in one threshold is walked, and scored as its forest.
    #[test]
    fn the_shipped_trees_as_code_score_the_forests_bits() {
        let f = shipped_forest();
        let c = Compiled::new(f.clone());
        assert!(c.runs_as_code(), "build.rs wrote the shipped trees");
        let w = f.width;
        // Per feature: its thresholds, the floats just below them, and NaN, 0, 1.
        let mut values: Vec<Vec<f64>> = vec![vec![f64::NAN, 0.0, 1.0]; w];
        for t in &f.trees {
            for k in 0..t.len() {
                if let Some(v) = values.get_mut(t.feature[k] as usize) {
                    v.extend([t.threshold[k], t.threshold[k].next_down()]);
                }
            }
        }
        let mut rows = Vec::new();
        for i in 0..3000usize {
            for (j, v) in values.iter().enumerate() {
                // Each row a different mix (a multiplicative hash of row and feature).
                let h = (i.wrapping_mul(2_654_435_761) ^ j.wrapping_mul(40_503)) >> 3;
                rows.push(v[h % v.len()]);
            }
        }
        for name in [
            "news-article.html",
            "blog-comments.html",
            "wiki-article.html",
        ] {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("sample-pages")
                .join(name);
            let page = crate::page::Page::from_bytes(
                name,
                std::fs::read(path).unwrap(),
                &Default::default(),
            )
            .unwrap();
            let page_rows = crate::learn::stack::stack_rows(&page);
            assert!(page_rows.len() >= w, "{name} has blocks");
            rows.extend(page_rows);
        }
        let want: Vec<f64> = rows.chunks(w).map(|r| f.log_odds(r)).collect();
        assert_eq!(bits(&c.log_odds_rows(&rows, w)), bits(&want));
        // A partial last row: the forest scores it, the code the rows before it.
        let got = c.log_odds_rows(&rows[..rows.len() - 1], w);
        let want_short: Vec<f64> = rows[..rows.len() - 1]
            .chunks(w)
            .map(|r| f.log_odds(r))
            .collect();
        assert_eq!(bits(&got), bits(&want_short));

        let mut other = f.clone();
        let k = other.trees[0]
            .feature
            .iter()
            .position(|&x| x != LEAF)
            .unwrap();
        other.trees[0].threshold[k] += 0.25;
        let walked = Compiled::new(other.clone());
        assert!(!walked.runs_as_code(), "another forest is walked");
        let want: Vec<f64> = rows.chunks(w).map(|r| other.log_odds(r)).collect();
        assert_eq!(bits(&walked.log_odds_rows(&rows, w)), bits(&want));
    }

    #[test]
    fn fits_are_deterministic_and_bad_bodies_are_refused() {
        let (rows, labels) = toy();
        let a = serde_json::to_string(&fit(&rows, 3, &labels, None, params()).unwrap()).unwrap();
        let b = serde_json::to_string(&fit(&rows, 3, &labels, None, params()).unwrap()).unwrap();
        assert_eq!(a, b);
        assert!(fit(&rows, 3, &vec![true; labels.len()], None, params()).is_err());
        assert!(fit(&rows[1..], 3, &labels, None, params()).is_err());
        let mut bad: Forest = serde_json::from_str(&a).unwrap();
        assert!(bad.check(4).is_err());
        if let Some(t) = bad.trees.iter_mut().find(|t| t.len() > 1) {
            t.left[0] = 0;
        }
        assert!(bad.check(3).is_err());
        let mut short: Forest = serde_json::from_str(&a).unwrap();
        short.trees[0].value.pop();
        assert!(short.check(3).is_err());
    }

    /// Rows given in parts (uneven ones, an empty one) fit the forest the concatenated rows
    /// fit, weights included; a part that splits a row, or values that are not one row per
    /// label, are errors.
    #[test]
    fn fitting_parts_is_fitting_their_concatenation() {
        let (rows, labels) = toy();
        let weights: Vec<f64> = (0..labels.len()).map(|i| 1.0 + (i % 3) as f64).collect();
        let whole = fit(&rows, 3, &labels, Some(&weights), params()).unwrap();
        let (a, rest) = rows.split_at(3 * 7);
        let (b, c) = rest.split_at(3 * 400);
        let parts = fit_parts(&[a, &[], b, c], 3, &labels, Some(&weights), params()).unwrap();
        assert_eq!(parts, whole);
        let (d, e) = rows.split_at(3 * 7 + 1);
        assert!(fit_parts(&[d, e], 3, &labels, None, params()).is_err());
        assert!(fit_parts(&[a, b], 3, &labels, None, params()).is_err());
    }

    #[test]
    fn weights_decide_between_conflicting_labels() {
        // One feature; rows with x = 1 are labelled both ways, x = 0 always false. Which
        // label x = 1 gets follows the weights.
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for i in 0..400u32 {
            rows.push(f64::from(i % 2));
            labels.push(i % 2 == 1 && i % 4 == 1);
        }
        let heavy = |on: bool| -> Vec<f64> {
            labels
                .iter()
                .zip(&rows)
                .map(|(&l, &x)| if x == 1.0 && l == on { 4.0 } else { 1.0 })
                .collect()
        };
        let p = |w: &[f64]| {
            fit(&rows, 1, &labels, Some(w), params())
                .unwrap()
                .probability(&[1.0])
        };
        let for_true = p(&heavy(true));
        let for_false = p(&heavy(false));
        assert!(for_true > 0.6, "{for_true}");
        assert!(for_false < 0.4, "{for_false}");
        // Bad weights are errors, not panics.
        assert!(fit(&rows, 1, &labels, Some(&[1.0]), params()).is_err());
        let mut nan = vec![1.0; labels.len()];
        nan[3] = f64::NAN;
        assert!(fit(&rows, 1, &labels, Some(&nan), params()).is_err());
    }
}
