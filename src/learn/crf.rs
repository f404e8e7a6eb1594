//! `crf` — a linear-chain conditional random field over the page's atomic text blocks
//! (Gibson, Wellner and Lubar 2007, "Adaptive web-page content identification", as surveyed in
//! Mohammadzadeh 2013, section 3.3.2.2: the blocks of a page are labelled as one sequence,
//! content / not content, and of the sequence labelling models compared there the CRF did
//! best). Lafferty, McCallum and Pereira 2001 define the model.
//!
//! **Sequence.** One page is one sequence: its atomic text blocks ([`crate::page::blocks`]) in
//! page order, each labelled `content` or `boilerplate` as the other block methods label them
//! (at least half of the block's text bytes in the gold selection, [`BlockData`]). The model
//! scores a labelling `y` of the blocks `x` by `Σ_t Σ_a w(a, y_t)·x_t(a) + Σ_t T(y_{t−1}, y_t)`:
//! state weights `w` per (attribute, label) and a 2 × 2 transition matrix `T`.
//!
//! **Attributes** (CRFsuite's `(name, value)` pairs, [`vocabulary`]), from the block's own
//! shallow text features ([`BASE_FEATURES`], Kohlschütter et al. 2010) — the transitions carry
//! the label context that the shallow rows get from the previous / next block's features:
//! - `bias` (1): an intercept per label (CRFsuite has none of its own);
//! - the nine numeric features as **weights**: counts (`num_words`, `avg_word_length`,
//!   `avg_sentence_length`, `text_density`, `date_tokens`, `vertical_bars`) as `ln(1 + x)`,
//!   ratios (`link_density`, `upper_ratio`, `full_stop_ratio`) as they are, in `[0, 1]`;
//! - the same features' strongest three also **discretised** as one-hot bins: `num_words` and
//!   `text_density` in powers of two (`num_words=0`, `=1`, `=2..3`, … `=128+`), `link_density`
//!   in six bins (`=0`, `=0..0.1`, … `=0.75..1`), and `rel_position` in deciles
//!   (`rel_position=0` … `=9`). A log-linear model is linear in each attribute's value; the bins
//!   let it weigh a range on its own (Kohlschütter et al.'s trees split `num_words` and
//!   `link_density` at thresholds, and very short blocks are neither clearly content nor
//!   boilerplate), while the scaled values keep the order inside a bin;
//! - the tag flags `h1` … `h6`, `p`, `div` (1 when set);
//! - of the neighbours, when [`NEIGHBOURS`] is on (it is): `prev_` / `next_` `num_words` and
//!   `link_density` (scaled as above) and their bins, `first` / `last` at the ends. The
//!   transitions model how labels follow each other, not what the neighbours look like: a
//!   block's neighbours' features are still evidence for its own label (a CRF's state features
//!   may look at the whole observation sequence). Measured by 5-fold cross-validation grouped by
//!   site on the dev corpora: without them wcxb-dev falls from 0.751 to 0.721 F1 (forums 0.559 →
//!   0.383), scrapinghub-dev moves from 0.845 to 0.856 (within its noise of 98 pages).
//!
//! Attributes with value 0 are left out (they add nothing to a score).
//!
//! **Training.** [`crfs`] 0.4, the pure-Rust port of CRFsuite (Okazaki 2007): L-BFGS on the
//! negative log-likelihood with CRFsuite's defaults — L2 coefficient `c2 = 1`, no L1 (`c1 =
//! 0`), convergence ε = 10⁻⁵ and a 10-iteration improvement test δ = 10⁻⁵, More–Thuente line
//! search — capped at [`MAX_ITERATIONS`] iterations; state features only for (attribute,
//! label) pairs seen in training (CRFsuite's default). The trainer writes a CRFsuite model file
//! (into a temporary folder, [`tempfile`]); its feature table is read back exactly (the label
//! and attribute names through [`crfs::Model`]) into the body below. Single-threaded and
//! seedless: the same pages in the same order give the same weights.
//!
//! **Body** ([`CrfBody`]): the training settings, the transition weights, and one row of state
//! weights per attribute, named — JSON, deterministic, checked on load ([`CrfBody::check`]: an
//! attribute this cescope does not generate, a duplicate, a weight that is not finite is
//! refused with the reason). cescope scores with its own forward–backward pass over the body
//! (crfs' tagger gives the Viterbi labels only; the unit tests check that the Viterbi path of
//! the body equals crfs' on the model file it came from).
//!
//! **Probability** of a block: its marginal `P(y_t = content | x)` by forward–backward (log
//! space, O(blocks)), the [`BlockClassifier`]'s signal; the threshold slider cuts it.
//!
//! **Explanation** of a block: its probability from its own attributes alone (no
//! transitions), the largest `weight × value` terms of its content − boilerplate score, and
//! the transition weights that turn that into the sequence marginal.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, LazyLock};

use serde::{Deserialize, Serialize};

use super::classifier::{BlockClassifier, BlockScorer};
use super::model::ModelFile;
use super::shallow::{block_rows, feature_names, fmt, BlockData, BASE_FEATURES, N_FEATURES};
use super::{Learner, MethodInfo};
#[cfg(feature = "train")]
use crate::error::Error;
use crate::error::Result;
use crate::extract::Extractor;
use crate::page::Page;
use crate::selection::Selection;

/// Whether a block's attributes include its neighbours' word counts and link densities (see
/// the module documentation).
pub const NEIGHBOURS: bool = true;

/// The most L-BFGS iterations of one fit. On the dev corpora (1 595 pages, 173 weights) the fit
/// reaches it, the objective changing by 0.07 % over the last 100 iterations; CRFsuite's own
/// default has no cap.
pub const MAX_ITERATIONS: usize = 300;

/// CRFsuite's L2 coefficient (its default).
pub const C2: f64 = 1.0;

/// CRFsuite's L1 coefficient (its default: none).
pub const C1: f64 = 0.0;

/// The label names in the CRFsuite model, index 0 and 1 of the body's pairs.
pub const LABELS: [&str; 2] = ["boilerplate", "content"];

/// The numeric base features given as scaled attribute weights, with their index in
/// [`BASE_FEATURES`] and whether they are counts (scaled `ln(1 + x)`) or ratios (as they are).
const NUMERIC: [(usize, bool); 9] = [
    (0, true),  // num_words
    (1, true),  // avg_word_length
    (2, true),  // avg_sentence_length
    (3, false), // link_density
    (4, true),  // text_density
    (5, false), // upper_ratio
    (6, false), // full_stop_ratio
    (7, true),  // date_tokens
    (8, true),  // vertical_bars
];

/// The powers-of-two bins of a count.
const COUNT_BINS: [&str; 9] = [
    "0", "1", "2..3", "4..7", "8..15", "16..31", "32..63", "64..127", "128+",
];

/// The bins of a ratio in `[0, 1]`.
const RATIO_BINS: [&str; 6] = [
    "0",
    "0..0.1",
    "0.1..0.25",
    "0.25..0.5",
    "0.5..0.75",
    "0.75..1",
];

fn count_bin(x: f64) -> usize {
    let mut b = 0;
    let mut edge = 1.0;
    while b + 1 < COUNT_BINS.len() && x >= edge {
        b += 1;
        edge *= 2.0;
    }
    b
}

fn ratio_bin(x: f64) -> usize {
    match x {
        x if x <= 0.0 => 0,
        x if x <= 0.1 => 1,
        x if x <= 0.25 => 2,
        x if x <= 0.5 => 3,
        x if x <= 0.75 => 4,
        _ => 5,
    }
}

fn decile(x: f64) -> usize {
    ((x.clamp(0.0, 1.0) * 10.0) as usize).min(9)
}

/// Every attribute name the CRF can generate, in a fixed order: `bias`, the scaled numeric
/// features, the flags, the bins, then (with [`NEIGHBOURS`]) the neighbour attributes.
pub fn vocabulary() -> &'static [String] {
    static V: LazyLock<Vec<String>> = LazyLock::new(|| {
        let mut v = vec!["bias".to_string()];
        v.extend(NUMERIC.iter().map(|&(j, _)| BASE_FEATURES[j].to_string()));
        v.extend(BASE_FEATURES[9..].iter().map(|f| f.to_string()));
        for f in ["num_words", "text_density"] {
            v.extend(COUNT_BINS.iter().map(|b| format!("{f}={b}")));
        }
        v.extend(RATIO_BINS.iter().map(|b| format!("link_density={b}")));
        v.extend((0..10).map(|d| format!("rel_position={d}")));
        if NEIGHBOURS {
            for side in ["prev", "next"] {
                v.push(format!("{side}_num_words"));
                v.push(format!("{side}_link_density"));
                v.extend(COUNT_BINS.iter().map(|b| format!("{side}_num_words={b}")));
                v.extend(
                    RATIO_BINS
                        .iter()
                        .map(|b| format!("{side}_link_density={b}")),
                );
            }
            v.push("first".into());
            v.push("last".into());
        }
        v
    });
    &V
}

/// The index of an attribute name in [`vocabulary`].
fn vocabulary_index(name: &str) -> Option<usize> {
    static I: LazyLock<HashMap<&'static str, usize>> = LazyLock::new(|| {
        vocabulary()
            .iter()
            .enumerate()
            .map(|(i, s)| (s.as_str(), i))
            .collect()
    });
    I.get(name).copied()
}

/// The index of a name the generator itself uses (always in the vocabulary).
fn known(name: &str) -> usize {
    vocabulary_index(name).unwrap_or(0)
}

/// Offsets into [`vocabulary`] of each attribute group, computed once.
struct Layout {
    numeric: usize,
    flags: usize,
    words_bins: usize,
    density_bins: usize,
    link_bins: usize,
    position: usize,
    /// `[prev, next]`: scaled words, scaled link density, word bins, link bins.
    sides: [(usize, usize, usize, usize); 2],
    first: usize,
    last: usize,
}

static LAYOUT: LazyLock<Layout> = LazyLock::new(|| {
    let side = |s: &str| {
        (
            known(&format!("{s}_num_words")),
            known(&format!("{s}_link_density")),
            known(&format!("{s}_num_words=0")),
            known(&format!("{s}_link_density=0")),
        )
    };
    Layout {
        numeric: known("num_words"),
        flags: known("h1"),
        words_bins: known("num_words=0"),
        density_bins: known("text_density=0"),
        link_bins: known("link_density=0"),
        position: known("rel_position=0"),
        sides: [side("prev"), side("next")],
        first: known("first"),
        last: known("last"),
    }
});

/// `ln(1 + x)` of a non-negative count (negative values count as 0).
fn squash(x: f64) -> f64 {
    x.max(0.0).ln_1p()
}

/// One block's attributes: `(index into` [`vocabulary`]`, value)`, values ≠ 0.
pub type Attributes = Vec<(usize, f64)>;

/// The attributes of one block from its shallow row ([`block_rows`]: `curr_`, `prev_`, `next_`
/// [`BASE_FEATURES`], `abs_position`, `rel_position`; a short row reads as zeros).
pub fn attributes(row: &[f64]) -> Attributes {
    let l = &*LAYOUT;
    let at = |j: usize| row.get(j).copied().filter(|v| v.is_finite()).unwrap_or(0.0);
    let b = BASE_FEATURES.len();
    let mut out = Vec::with_capacity(32);
    out.push((0, 1.0));
    for (k, &(j, count)) in NUMERIC.iter().enumerate() {
        let v = if count {
            squash(at(j))
        } else {
            at(j).clamp(0.0, 1.0)
        };
        if v != 0.0 {
            out.push((l.numeric + k, v));
        }
    }
    for k in 0..8 {
        if at(9 + k) != 0.0 {
            out.push((l.flags + k, 1.0));
        }
    }
    out.push((l.words_bins + count_bin(at(0)), 1.0));
    out.push((l.density_bins + count_bin(at(4)), 1.0));
    out.push((l.link_bins + ratio_bin(at(3)), 1.0));
    out.push((l.position + decile(at(3 * b + 1)), 1.0));
    if NEIGHBOURS {
        for (s, &(words, link, words_bins, link_bins)) in l.sides.iter().enumerate() {
            let o = (s + 1) * b;
            // A missing neighbour is all zeros in the row, and has no words.
            let present = (0..b).any(|j| at(o + j) != 0.0);
            if !present {
                out.push((if s == 0 { l.first } else { l.last }, 1.0));
                continue;
            }
            let w = squash(at(o));
            if w != 0.0 {
                out.push((words, w));
            }
            let d = at(o + 3).clamp(0.0, 1.0);
            if d != 0.0 {
                out.push((link, d));
            }
            out.push((words_bins + count_bin(at(o)), 1.0));
            out.push((link_bins + ratio_bin(at(o + 3)), 1.0));
        }
    }
    out
}

/// One attribute's state weights.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StateWeights {
    /// The attribute's name ([`vocabulary`]).
    pub attribute: String,
    /// The weight of the pair (attribute, `boilerplate`).
    pub boilerplate: f64,
    /// The weight of the pair (attribute, `content`).
    pub content: f64,
}

/// The fitted CRF: the model file's body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrfBody {
    /// How it was trained: `crfs <version> lbfgs`.
    pub trainer: String,
    /// L1 coefficient.
    pub c1: f64,
    /// L2 coefficient.
    pub c2: f64,
    /// Iteration cap.
    pub max_iterations: usize,
    /// `transitions[a][b]`: the weight of label `b` following label `a` (0 = boilerplate,
    /// 1 = content).
    pub transitions: [[f64; 2]; 2],
    /// The state weights of every attribute that has one, in the model's attribute order.
    pub state: Vec<StateWeights>,
}

impl CrfBody {
    /// Checks a loaded body: every attribute one this cescope generates ([`vocabulary`]), none
    /// twice, every weight and coefficient finite. Errors: the first problem, as a sentence.
    pub fn check(&self) -> std::result::Result<(), String> {
        let mut seen = BTreeSet::new();
        for s in &self.state {
            if vocabulary_index(&s.attribute).is_none() {
                return Err(format!(
                    "the CRF body has state weights for {:?}, an attribute this cescope does not \
                     generate",
                    s.attribute
                ));
            }
            if !seen.insert(s.attribute.as_str()) {
                return Err(format!(
                    "the CRF body has state weights for {:?} twice",
                    s.attribute
                ));
            }
            if !s.boilerplate.is_finite() || !s.content.is_finite() {
                return Err(format!(
                    "the CRF body's weights for {:?} are not finite",
                    s.attribute
                ));
            }
        }
        let all = self
            .transitions
            .iter()
            .flatten()
            .chain([&self.c1, &self.c2]);
        if all.clone().any(|v| !v.is_finite()) {
            return Err(
                "the CRF body has a transition weight or coefficient that is not finite".into(),
            );
        }
        Ok(())
    }
}

/// A body ready to score: state weights by vocabulary index.
pub struct CrfScorer {
    weights: Vec<[f64; 2]>,
    transitions: [[f64; 2]; 2],
}

/// `ln(e^a + e^b)`.
fn log_add(a: f64, b: f64) -> f64 {
    let m = a.max(b);
    if m == f64::NEG_INFINITY {
        m
    } else {
        m + ((a - m).exp() + (b - m).exp()).ln()
    }
}

impl CrfScorer {
    /// The scorer of a checked body (attributes outside the vocabulary are ignored).
    pub fn new(body: &CrfBody) -> CrfScorer {
        let mut weights = vec![[0.0; 2]; vocabulary().len()];
        for s in &body.state {
            if let Some(i) = vocabulary_index(&s.attribute) {
                weights[i] = [s.boilerplate, s.content];
            }
        }
        CrfScorer {
            weights,
            transitions: body.transitions,
        }
    }

    /// The state scores `[boilerplate, content]` of one block's attributes.
    fn state(&self, attrs: &Attributes) -> [f64; 2] {
        let mut s = [0.0; 2];
        for &(a, v) in attrs {
            if let Some(w) = self.weights.get(a) {
                s[0] += w[0] * v;
                s[1] += w[1] * v;
            }
        }
        s
    }

    /// The marginals `P(y_t = content | x)` of a sequence of blocks' attributes, by
    /// forward–backward in log space. O(blocks). Empty for an empty sequence.
    pub fn marginals(&self, seq: &[Attributes]) -> Vec<f64> {
        let n = seq.len();
        if n == 0 {
            return Vec::new();
        }
        let states: Vec<[f64; 2]> = seq.iter().map(|a| self.state(a)).collect();
        let t = &self.transitions;
        let mut alpha = vec![[0.0; 2]; n];
        alpha[0] = states[0];
        for i in 1..n {
            for y in 0..2 {
                alpha[i][y] =
                    states[i][y] + log_add(alpha[i - 1][0] + t[0][y], alpha[i - 1][1] + t[1][y]);
            }
        }
        let mut beta = vec![[0.0; 2]; n];
        for i in (0..n - 1).rev() {
            for y in 0..2 {
                beta[i][y] = log_add(
                    t[y][0] + states[i + 1][0] + beta[i + 1][0],
                    t[y][1] + states[i + 1][1] + beta[i + 1][1],
                );
            }
        }
        (0..n)
            .map(|i| {
                let b = alpha[i][0] + beta[i][0];
                let c = alpha[i][1] + beta[i][1];
                let p = 1.0 / (1.0 + (b - c).exp());
                if p.is_finite() {
                    p
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// The most likely labelling (Viterbi), `true` = content: what crfs' tagger returns for
    /// the same weights.
    pub fn viterbi(&self, seq: &[Attributes]) -> Vec<bool> {
        let n = seq.len();
        if n == 0 {
            return Vec::new();
        }
        let t = &self.transitions;
        let mut score = self.state(&seq[0]);
        let mut back = vec![[0usize; 2]; n];
        for (i, attrs) in seq.iter().enumerate().skip(1) {
            let s = self.state(attrs);
            let mut next = [0.0; 2];
            for y in 0..2 {
                let from0 = score[0] + t[0][y];
                let from1 = score[1] + t[1][y];
                back[i][y] = usize::from(from1 > from0);
                next[y] = from0.max(from1) + s[y];
            }
            score = next;
        }
        let mut y = usize::from(score[1] > score[0]);
        let mut out = vec![false; n];
        for i in (0..n).rev() {
            out[i] = y == 1;
            y = back[i][y];
        }
        out
    }
}

/// A body's scorer as a block scorer.
struct Scorer {
    crf: CrfScorer,
}

impl BlockScorer for Scorer {
    /// One block on its own: the marginal of a sequence of one block (no transitions).
    fn probability(&self, row: &[f64]) -> f64 {
        self.crf
            .marginals(&[attributes(row)])
            .first()
            .copied()
            .unwrap_or(0.0)
    }

    /// The whole page as one sequence: each block's marginal.
    fn probabilities(&self, rows: &[f64], width: usize) -> Vec<f64> {
        let seq: Vec<Attributes> = rows.chunks(width.max(1)).map(attributes).collect();
        self.crf.marginals(&seq)
    }

    /// The block's own evidence, its strongest terms, and the transitions.
    fn explain(&self, row: &[f64], _names: &[String]) -> Vec<String> {
        let attrs = attributes(row);
        let s = self.crf.state(&attrs);
        let alone = 1.0 / (1.0 + (s[0] - s[1]).exp());
        let mut terms: Vec<(f64, usize, f64)> = attrs
            .iter()
            .filter_map(|&(a, v)| {
                let w = self.crf.weights.get(a)?;
                Some(((w[1] - w[0]) * v, a, v))
            })
            .collect();
        terms.sort_by(|a, b| b.0.abs().total_cmp(&a.0.abs()).then(a.1.cmp(&b.1)));
        let top: Vec<String> = terms
            .iter()
            .take(5)
            .map(|&(t, a, v)| {
                format!(
                    "{}{} {} ({})",
                    if t >= 0.0 { "+" } else { "" },
                    fmt(t),
                    vocabulary().get(a).map_or("?", String::as_str),
                    fmt(v)
                )
            })
            .collect();
        let t = &self.crf.transitions;
        vec![
            format!(
                "on its own (no transitions) the CRF's state score content − boilerplate is {}: \
                 p = {}",
                fmt(s[1] - s[0]),
                fmt(alone)
            ),
            format!(
                "largest weight × attribute terms (content − boilerplate; attribute values in \
                 parentheses, counts as ln(1 + x)): {}",
                top.join(", ")
            ),
            format!(
                "transition weights, which the sequence's marginal p adds: content → content {}, \
                 content → boilerplate {}, boilerplate → content {}, boilerplate → boilerplate {}",
                fmt(t[1][1]),
                fmt(t[1][0]),
                fmt(t[0][1]),
                fmt(t[0][0])
            ),
        ]
    }
}

/// Reads a little-endian `u32` at `at`.
#[cfg(feature = "train")]
fn u32_at(buf: &[u8], at: usize) -> Option<u32> {
    let b = buf.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Reads a little-endian `f64` at `at`.
#[cfg(feature = "train")]
fn f64_at(buf: &[u8], at: usize) -> Option<f64> {
    let b = buf.get(at..at.checked_add(8)?)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    Some(f64::from_le_bytes(a))
}

/// The weights of a CRFsuite model file (as crfs' trainer writes it): label and attribute
/// names through [`crfs::Model`], the feature table — at the header's `off_features` (byte 28),
/// a chunk `FEAT`, size, count, then 20 bytes per feature: type (0 state, 1 transition),
/// source, target, weight — read here, exactly. Errors: [`Error::Train`] naming what is off.
///
/// Only for the file the trainer has just written: crfs' reader does not check every offset of
/// a damaged file (a model file's body is cescope's JSON, checked by [`CrfBody::check`], never
/// CRFsuite bytes).
#[cfg(feature = "train")]
pub fn body_from_crfsuite(bytes: &[u8]) -> Result<CrfBody> {
    let bad = |what: &str| Error::Train(format!("the CRF trainer's model file: {what}"));
    let model = crfs::Model::new(bytes).map_err(|e| bad(&e.to_string()))?;
    let label_of = |id: u32| -> Result<usize> {
        let name = model
            .to_label(id)
            .ok_or_else(|| bad(&format!("label {id} has no name")))?;
        LABELS
            .iter()
            .position(|l| *l == name)
            .ok_or_else(|| bad(&format!("unknown label {name:?}")))
    };
    let off = u32_at(bytes, 28).ok_or_else(|| bad("no header"))? as usize;
    if bytes.get(off..off + 4) != Some(b"FEAT".as_slice()) {
        return Err(bad("no feature chunk"));
    }
    let count = u32_at(bytes, off + 8).ok_or_else(|| bad("no feature count"))? as usize;
    let mut transitions = [[0.0; 2]; 2];
    let mut state: Vec<Option<StateWeights>> = vec![None; model.num_attrs() as usize];
    for k in 0..count {
        let at = off + 12 + 20 * k;
        let field = |d: usize| u32_at(bytes, at + d).ok_or_else(|| bad("a short feature"));
        let (kind, source, target) = (field(0)?, field(4)?, field(8)?);
        let weight = f64_at(bytes, at + 12).ok_or_else(|| bad("a short feature"))?;
        let to = label_of(target)?;
        match kind {
            0 => {
                let name = model
                    .to_attr(source)
                    .ok_or_else(|| bad(&format!("attribute {source} has no name")))?;
                let slot = state
                    .get_mut(source as usize)
                    .ok_or_else(|| bad("attribute out of range"))?;
                let s = slot.get_or_insert_with(|| StateWeights {
                    attribute: name.to_string(),
                    boilerplate: 0.0,
                    content: 0.0,
                });
                if to == 0 {
                    s.boilerplate = weight;
                } else {
                    s.content = weight;
                }
            }
            1 => transitions[label_of(source)?][to] = weight,
            _ => return Err(bad(&format!("feature {k} has type {kind}"))),
        }
    }
    Ok(CrfBody {
        trainer: "crfs 0.4 lbfgs".into(),
        c1: C1,
        c2: C2,
        max_iterations: MAX_ITERATIONS,
        transitions,
        state: state.into_iter().flatten().collect(),
    })
}

/// One training sequence: the attributes and labels (`true` = content) of a page's blocks.
pub type Sequence = (Vec<Attributes>, Vec<bool>);

/// The attribute sequence of a page's rows (row-major, [`N_FEATURES`] each).
pub fn sequence_of(rows: &[f64]) -> Vec<Attributes> {
    rows.chunks(N_FEATURES).map(attributes).collect()
}

/// Fits the CRF on sequences (see the module documentation; empty sequences are skipped) and
/// returns the trained CRFsuite model file's bytes. Errors: [`Error::Train`] (one class only,
/// the trainer's errors).
#[cfg(feature = "train")]
pub fn train_crfsuite(seqs: &[Sequence]) -> Result<Vec<u8>> {
    let labels: Vec<bool> = seqs.iter().flat_map(|s| s.1.iter().copied()).collect();
    super::shallow::check_classes(&labels)?;
    let err = |e: std::io::Error| Error::Train(format!("CRF (crfs L-BFGS): {e}"));
    let mut trainer = crfs::Trainer::lbfgs()
        .with_c1(C1)
        .and_then(|t| t.with_c2(C2))
        .and_then(|t| t.with_max_iterations(MAX_ITERATIONS))
        .map_err(err)?;
    let vocab = vocabulary();
    for (attrs, labels) in seqs {
        if attrs.is_empty() || attrs.len() != labels.len() {
            continue;
        }
        let xseq: Vec<Vec<crfs::Attribute>> = attrs
            .iter()
            .map(|a| {
                a.iter()
                    .map(|&(i, v)| crfs::Attribute::new(vocab[i].as_str(), v))
                    .collect()
            })
            .collect();
        let yseq: Vec<&str> = labels.iter().map(|&l| LABELS[usize::from(l)]).collect();
        trainer.append(&xseq, &yseq).map_err(err)?;
    }
    let dir =
        tempfile::tempdir().map_err(|e| Error::Train(format!("CRF: a temporary folder: {e}")))?;
    let path = dir.path().join("model.crfsuite");
    trainer.train(&path).map_err(err)?;
    std::fs::read(&path).map_err(|e| Error::Train(format!("CRF: reading the trained model: {e}")))
}

/// Fits the CRF on sequences and reads its weights ([`train_crfsuite`],
/// [`body_from_crfsuite`]). Errors: [`Error::Train`].
#[cfg(feature = "train")]
pub fn fit_crf(seqs: &[Sequence]) -> Result<CrfBody> {
    let bytes = train_crfsuite(seqs)?;
    let body = body_from_crfsuite(&bytes)?;
    body.check().map_err(Error::Train)?;
    Ok(body)
}

/// In a build without the learners (feature `train`): [`super::fitter_missing`].
#[cfg(not(feature = "train"))]
pub fn fit_crf(_seqs: &[Sequence]) -> Result<CrfBody> {
    Err(super::fitter_missing(INFO.name, "crfs"))
}

/// The CRF method (`--method crf`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Crf;

static INFO: MethodInfo = MethodInfo {
    name: "crf",
    description: "a linear-chain CRF labelling the page's blocks as one sequence over their shallow text features (Gibson et al. 2007)",
    source: "Gibson, Wellner and Lubar 2007; Mohammadzadeh 2013, 3.3.2.2; Lafferty et al. 2001; trained by crfs (CRFsuite, Okazaki 2007)",
    fitter: Some("crfs"),
};

impl Learner for Crf {
    type PageData = BlockData;
    type Body = CrfBody;

    fn info(&self) -> &'static MethodInfo {
        &INFO
    }

    /// The rows are the shallow rows ([`feature_names`]); the CRF's attributes are made from
    /// them ([`attributes`]).
    fn feature_names(&self) -> Vec<String> {
        feature_names()
    }

    fn prepare(&self, page: &Page, gold: &Selection) -> BlockData {
        BlockData::of(page, gold)
    }

    fn check_body(&self, body: &CrfBody) -> std::result::Result<(), String> {
        body.check()
    }

    fn fit(&self, pages: &[&BlockData], _weights: &[f64], _seed: u64) -> Result<CrfBody> {
        let seqs: Vec<Sequence> = pages
            .iter()
            .map(|p| (sequence_of(&p.rows), p.labels.clone()))
            .collect();
        fit_crf(&seqs)
    }

    fn extract_text(&self, body: &CrfBody, page: &BlockData, threshold: f64) -> String {
        page.extract_text(&scorer(body), threshold)
    }

    fn extractor(&self, name: &str, model: ModelFile<CrfBody>) -> Arc<dyn Extractor> {
        let scorer = scorer(&model.body);
        Arc::new(BlockClassifier::new(
            name,
            &INFO,
            model.features,
            model.threshold,
            |page: &Page| block_rows(page.blocks()),
            Box::new(scorer),
        ))
    }
}

fn scorer(body: &CrfBody) -> Scorer {
    Scorer {
        crf: CrfScorer::new(body),
    }
}

#[cfg(test)]
mod tests;
