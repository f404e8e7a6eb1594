//! `stack` — the stacked block classifier (issue 22, item 3): gradient-boosted trees
//! ([`super::gbt`]) over each atomic text block's shallow text features, its DOM context and
//! record units, and the verdicts of cescope's own extractors on it. CombinE (Weissig and
//! Gottron, paper 002) combines extractors by fixed rules (serial, union, intersection,
//! voting); this is the combination **learned** from gold standards. The idea of classifying
//! blocks from features is Kohlschütter et al. 2010 (thesis 3.3.2.1); the DOM context and
//! verdict features are cescope's, after the learning prototype's evidence
//! (`../shared/notes/learning-prototype.md`: DOM context carried most of the signal, and four
//! fast extractors as members matched sixteen).
//!
//! **Features** (one row per block, [`feature_names`]):
//! - the 53 shallow features of the block and its neighbours ([`super::shallow::block_rows`]);
//! - the block's DOM context and record units ([`BlockContext`]: distances to structural tags,
//!   class / id keyword groups and ARIA / microdata landmarks, the word share / link density /
//!   blocks of its container and four ancestors, repeated paths, its record group, depth,
//!   hidden, page size, where it sits relative to the container a Readability-style scorer
//!   picks, what the page declares itself to be, [`crate::page::declared`], and where the
//!   article's text ends: prose before the block's record group, end-of-text markers after
//!   boilerpipe's `TerminatingBlocksFinder`, the page's shape);
//! - for each member extractor `m` ([`MEMBERS`] by default, any registered extractors with
//!   `cescope train --members`, [`Members`]; run with its default parameters on the page): `m_block`, the fraction of the block's text bytes `m` selects
//!   ([`crate::page::Blocks::project`]); `m_prev`, `m_next`, the same for the neighbouring
//!   blocks (0 past the ends); `m_parent`, the word-weighted mean of `m_block` over the blocks
//!   whose container has the same parent element (the block's surroundings: a paragraph among
//!   selected paragraphs, a link among unselected links); `m_coverage`, the share of the page's
//!   words `m` selects (an extractor that keeps the whole page says little);
//! - `members_mean`: the mean of the members' `m_block`;
//! - `unit_KIND` for ten unit kinds of the guideline's page model ([`Units::find`], without a
//!   headline: bylines, captions, tables, code, comments, forum posts, post metadata, related
//!   lists, supplemental boxes, link lists): 1 when the block is in a unit of that kind. The
//!   corpora disagree on what main content is mostly by such units (comments, captions,
//!   related lists, `../shared/notes/guidelines.md`); a block's kind lets the model tell a
//!   comment section from the article above it where their shallow features and the
//!   members' verdicts look alike (fitted without scrapinghub-dev, the model without these
//!   features kept MacRumors' long top-rated comments; with them, scrapinghub-dev left out
//!   scores 0.943 instead of 0.922 — docs/learning.md).
//!
//! **Members**: CETD (Sun et al. 2011, thesis Formulas 3.1-3.2), LQF (Gottron 2009, thesis
//! Algorithm 3) and BTE (Finn et al. 2001, thesis Algorithm 5) — the extractors the best single
//! runs on the dev corpora are built from (CETD; the serial set LQF → BTE), and cheap on the
//! page's shared DOM and tokens (BTE 0.2 ms, CETD and LQF about 0.3 ms a page beyond the DOM).
//! Cross-validated against other member sets (docs/learning.md): adding CETR, or
//! `lqf_bte` instead of LQF, moved F1 by less than the fold noise and cost 0.7 and 1.4 ms a
//! page. They are cescope's own extractors, so the shipped model measures cescope (a
//! reference extractor is not one of its members).
//!
//! **Unlabelled unit kinds** (`cescope train --unlabelled KIND,…`,
//! [`Learner::with_unlabelled`]): blocks whose `unit_KIND` is 1 for one of those kinds get
//! sample weight 0 ([`block_weights`]), so the fit learns no definition of them from the gold
//! and a guideline decides them at extraction; measured by leave one corpus out
//! (docs/learning.md) it is not the shipped default.
//!
//! **Other members**: `cescope train --method stack --members a,b,…` takes the verdicts of any
//! registered extractor instead (cescope's algorithms, the
//! shipped filter sets, the reference extractors `readability` and `trafilatura` when built
//! with them), in the order given; the model file records them (`members`, written only when
//! they are not [`MEMBERS`], so a default model's file is unchanged) and loading it runs them.
//!
//! **Labels** as every block method: main content when at least half of the block's text
//! bytes are in the gold ([`BlockData`]). **Fit**: perpetual with budget [`BUDGET`] on at most
//! [`MAX_ROWS`] blocks (a seeded sample beyond), each block weighted by its share of its
//! page's words ([`block_weights`]: every page counts the same, as in the macro mean the
//! stack is judged by — or each corpus, with `--balance corpora`). **Explanations**: for a block, the features
//! that moved its log-odds most (Saabas contributions, [`Forest::contributions`]).

use std::sync::{Arc, LazyLock};

use rustc_hash::FxHashMap;

use super::classifier::{BlockClassifier, BlockScorer};
use super::context::BlockContext;
use super::gbt::{self, Forest, GbtParams};
use super::model::ModelFile;
use super::shallow::{self, fmt, BlockData};
use super::{Learner, MethodInfo};
use crate::error::{Error, Result};
use crate::extract::{Extractor, Params};
use crate::page::units::{KindSet, UnitKind, Units};
use crate::page::Page;
use crate::selection::Selection;

/// The default member extractors whose verdicts are features, in feature order (see the module
/// documentation for the choice): what a model file without `members` has.
pub const MEMBERS: [&str; 3] = ["cetd", "lqf", "bte"];

/// The verdict features per member, after the member's name and `_`.
pub const VERDICTS: [&str; 5] = ["block", "prev", "next", "parent", "coverage"];

/// perpetual's complexity budget for the stack (its default is 0.5; see
/// docs/learning.md for the cross-validated choice).
pub const BUDGET: f32 = 0.5;

/// The most blocks a model is fitted on (a seeded sample beyond).
pub const MAX_ROWS: usize = 400_000;

/// The member extractors of a stacked model, resolved among the member candidates
/// (cescope's algorithms and shipped filter sets): their names (as registered), in feature order,
/// the feature names of a row and the page memo key of the rows.
#[derive(Clone)]
pub struct Members {
    names: Vec<String>,
    /// `None` only for a default member the registry lacks (never in a build that passes its
    /// tests): its verdicts are zeros.
    extractors: Vec<Option<Arc<dyn Extractor>>>,
    features: Arc<Vec<String>>,
    /// The key of the rows in the page's memo ([`Page::memo`]): `stack` for the default
    /// members, `stack:a,b,…` otherwise, so models with other members never share rows.
    key: &'static str,
}

impl std::fmt::Debug for Members {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Members").field(&self.names).finish()
    }
}

/// The feature names of a row with members `names` (see the module documentation).
fn names_with(names: &[String]) -> Vec<String> {
    let mut v = shallow::feature_names();
    v.extend(BlockContext::names().iter().cloned());
    for m in names {
        v.extend(VERDICTS.iter().map(|f| format!("{m}_{f}")));
    }
    v.push("members_mean".into());
    v.extend(unit_kinds().map(|k| format!("unit_{}", k.name())));
    v
}

/// The unit kinds whose membership is a feature (`unit_KIND`, after `members_mean`), in
/// [`UnitKind::ALL`] order: every kind but the headline (the units are found without a
/// headline finder, [`Units::find`]).
fn unit_kinds() -> impl Iterator<Item = UnitKind> {
    UnitKind::ALL
        .into_iter()
        .filter(|k| *k != UnitKind::Headline)
}

/// `key` as a `&'static str`, leaked once per distinct key in the process (a process loads a
/// handful of member lists: the memo keys of their models' rows).
fn interned(key: String) -> &'static str {
    static KEYS: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut keys = KEYS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(k) = keys.iter().find(|k| **k == key) {
        return k;
    }
    let k: &'static str = Box::leak(key.into_boxed_str());
    keys.push(k);
    k
}

/// Every extractor a stacked model can take as a member, built once: the algorithms
/// ([`crate::algorithms::all`], the reference extractors included) and the shipped filter sets
/// ([`crate::algorithms::combine::shipped`]) — what the registry above the learners
/// (`crate::extractors`) lists as `all`, looked up here without it (the learners sit below
/// the registry).
fn candidates() -> &'static [Arc<dyn Extractor>] {
    static ALL: LazyLock<Vec<Arc<dyn Extractor>>> = LazyLock::new(|| {
        let mut v = crate::algorithms::all().to_vec();
        v.extend(
            crate::algorithms::combine::shipped()
                .iter()
                .map(|s| Arc::new(s.clone()) as Arc<dyn Extractor>),
        );
        v
    });
    &ALL
}

/// The member candidate named `name` (ASCII case-insensitive, trimmed).
fn candidate(name: &str) -> Option<Arc<dyn Extractor>> {
    let name = name.trim();
    candidates()
        .iter()
        .find(|e| e.name().eq_ignore_ascii_case(name))
        .cloned()
}

impl Members {
    /// The members named `names` (registered extractor names, ASCII case-insensitive, in
    /// feature order). Errors: [`Error::Train`] for an empty list, a name the registry does not
    /// know (listing the names it knows) or a name given twice.
    pub fn new(names: &[impl AsRef<str>]) -> Result<Members> {
        if names.is_empty() {
            return Err(Error::Train(format!(
                "no member extractor named (the default members are {})",
                MEMBERS.join(",")
            )));
        }
        let mut canonical: Vec<String> = Vec::with_capacity(names.len());
        let mut extractors = Vec::with_capacity(names.len());
        for n in names {
            let n = n.as_ref();
            let Some(e) = candidate(n) else {
                let known: Vec<&str> = candidates().iter().map(|e| e.name()).collect();
                return Err(Error::Train(format!(
                    "unknown member extractor {:?}; a member can be any registered extractor: {}",
                    n.trim(),
                    known.join(", ")
                )));
            };
            if canonical.iter().any(|c| c == e.name()) {
                return Err(Error::Train(format!(
                    "member extractor {} is named twice",
                    e.name()
                )));
            }
            canonical.push(e.name().to_string());
            extractors.push(Some(e));
        }
        let key = if canonical == MEMBERS {
            "stack"
        } else {
            interned(format!("stack:{}", canonical.join(",")))
        };
        Ok(Members {
            features: Arc::new(names_with(&canonical)),
            names: canonical,
            extractors,
            key,
        })
    }

    /// The default members ([`MEMBERS`]), looked up once.
    pub fn default_members() -> &'static Members {
        static DEFAULT: LazyLock<Members> = LazyLock::new(|| {
            let names: Vec<String> = MEMBERS.iter().map(|m| m.to_string()).collect();
            Members {
                features: Arc::new(names_with(&names)),
                extractors: MEMBERS.iter().map(|m| candidate(m)).collect(),
                names,
                key: "stack",
            }
        });
        &DEFAULT
    }

    /// The members' names, in feature order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Whether these are the default members ([`MEMBERS`], in that order).
    pub fn is_default(&self) -> bool {
        self.names == MEMBERS
    }

    /// The feature names of a row, in row order (see the module documentation).
    pub fn feature_names(&self) -> &[String] {
        &self.features
    }

    /// Values per row.
    pub fn width(&self) -> usize {
        self.features.len()
    }

    /// Each member's verdict on each block ([`crate::page::Blocks::project`] of its
    /// selection): one vector of block fractions per member, in member order (zeros for a
    /// member the registry lacks).
    pub fn verdicts(&self, page: &Page) -> Vec<Vec<f64>> {
        let blocks = page.blocks();
        self.extractors
            .iter()
            .map(|e| match e {
                Some(e) => {
                    let x = e.run(page, &Params::defaults(e.params()));
                    blocks.project(&x.selection)
                }
                None => vec![0.0; blocks.len()],
            })
            .collect()
    }
}

/// The feature names with the default members, in row order (see the module documentation).
pub fn feature_names() -> Vec<String> {
    Members::default_members().feature_names().to_vec()
}

/// Values per row with the default members.
pub fn width() -> usize {
    Members::default_members().width()
}

/// The default members' verdicts on each block ([`Members::verdicts`]).
pub fn member_verdicts(page: &Page) -> Vec<Vec<f64>> {
    Members::default_members().verdicts(page)
}

/// The feature rows of a page's blocks with the default members ([`rows_with`]).
pub fn stack_rows(page: &Page) -> Vec<f64> {
    rows_with(page, Members::default_members())
}

/// The feature rows of a page's blocks ([`Members::feature_names`]), row-major: `blocks ×`
/// [`Members::width`] values. Runs the member extractors on the page (sharing its DOM and
/// blocks).
pub fn rows_with(page: &Page, members: &Members) -> Vec<f64> {
    let blocks = page.blocks();
    let n = blocks.len();
    let w = members.width();
    if n == 0 {
        return Vec::new();
    }
    let shallow_rows = shallow::block_rows(blocks);
    let context = BlockContext::build(page);
    let verdicts = members.verdicts(page);
    let dom = page.dom();

    // Blocks grouped by their container's parent element, and word weights.
    let words: Vec<f64> = blocks
        .blocks()
        .iter()
        .map(|b| f64::from(b.features.words))
        .collect();
    let page_words: f64 = words.iter().sum();
    let parent_of: Vec<usize> = blocks
        .blocks()
        .iter()
        .map(|b| dom.parent(b.container).unwrap_or(b.container))
        .collect();
    let mut group: FxHashMap<usize, usize> = FxHashMap::default();
    let group_of: Vec<usize> = parent_of
        .iter()
        .map(|&p| {
            let next = group.len();
            *group.entry(p).or_insert(next)
        })
        .collect();
    let groups = group.len();

    let units = Units::find(page, None);
    let mut out = Vec::with_capacity(n * w);
    let m = verdicts.len();
    // Per member: parent-group means and page coverage.
    let mut parent_mean = vec![vec![0.0; groups]; m];
    let mut coverage = vec![0.0; m];
    for (k, v) in verdicts.iter().enumerate() {
        let mut num = vec![0.0; groups];
        let mut den = vec![0.0; groups];
        let mut covered = 0.0;
        for i in 0..n {
            // A block without words still counts a little, so a group of them has a mean.
            let wt = words[i].max(0.01);
            num[group_of[i]] += wt * v[i];
            den[group_of[i]] += wt;
            covered += words[i] * v[i];
        }
        for g in 0..groups {
            parent_mean[k][g] = if den[g] > 0.0 { num[g] / den[g] } else { 0.0 };
        }
        coverage[k] = if page_words > 0.0 {
            covered / page_words
        } else {
            0.0
        };
    }
    let sw = shallow::N_FEATURES;
    for i in 0..n {
        out.extend_from_slice(&shallow_rows[i * sw..(i + 1) * sw]);
        out.extend(context.row(i).iter().map(|&x| f64::from(x)));
        let mut sum = 0.0;
        for (k, v) in verdicts.iter().enumerate() {
            sum += v[i];
            out.push(v[i]);
            out.push(if i > 0 { v[i - 1] } else { 0.0 });
            out.push(v.get(i + 1).copied().unwrap_or(0.0));
            out.push(parent_mean[k][group_of[i]]);
            out.push(coverage[k]);
        }
        out.push(sum / m.max(1) as f64);
        let kinds = units.kinds(i);
        out.extend(unit_kinds().map(|k| if kinds.contains(k) { 1.0 } else { 0.0 }));
    }
    debug_assert_eq!(out.len(), n * w);
    out
}

/// The shipped extractor's scorer: the forest compiled for scoring a page's rows together
/// ([`gbt::Compiled`]; the same probabilities as the forest's, bit for bit).
impl BlockScorer for gbt::Compiled {
    fn probability(&self, row: &[f64]) -> f64 {
        self.forest().probability(row)
    }

    fn explain(&self, row: &[f64], names: &[String]) -> Vec<String> {
        BlockScorer::explain(self.forest(), row, names)
    }

    fn probabilities(&self, rows: &[f64], width: usize) -> Vec<f64> {
        self.log_odds_rows(rows, width)
            .into_iter()
            .map(gbt::sigmoid)
            .collect()
    }
}

impl BlockScorer for Forest {
    fn probability(&self, row: &[f64]) -> f64 {
        Forest::probability(self, row)
    }

    /// The features that moved the block's log-odds most: `cetd_block 1 → +2.31` (Saabas
    /// contributions in log-odds units; the five largest by magnitude), after the prior.
    fn explain(&self, row: &[f64], names: &[String]) -> Vec<String> {
        let (bias, c) = self.contributions(row);
        let mut order: Vec<usize> = (0..c.len()).filter(|&j| c[j] != 0.0).collect();
        order.sort_by(|&a, &b| c[b].abs().total_cmp(&c[a].abs()).then(a.cmp(&b)));
        let terms: Vec<String> = order
            .iter()
            .take(5)
            .map(|&j| {
                let name = names.get(j).map_or("?", String::as_str);
                let v = row.get(j).copied().unwrap_or(f64::NAN);
                format!("{} → {:+.2}", super::reading::read(name, v), c[j])
            })
            .collect();
        vec![
            format!(
                "log-odds {} = prior {} + the features' contributions",
                fmt(self.log_odds(row)),
                fmt(bias)
            ),
            if terms.is_empty() {
                "no feature moved the score".to_string()
            } else {
                format!("moved most by: {}", terms.join(", "))
            },
        ]
    }
}

/// The sample weight of every block of `pages` (in [`shallow::stack`]'s row order): the
/// block's share of its page's words (tokens of [`crate::metrics::words`]; a block without
/// words counts as half a word) times its page's weight (`weights`, one per page: 1 unless the
/// job balances its corpora, [`crate::learn::train::Balance`]; a missing weight counts as 1),
/// scaled so the weights average 1. The score the stack is judged by is a macro mean over
/// pages of word-level F1, so each page weighs the same and, within a page, each word:
/// unweighted, a forum page of 2 000 blocks outweighs forty articles and a one-word link as
/// much as a paragraph. A block whose row holds 1 in one of the `unlabelled` columns (the
/// `unit_KIND` columns of [`Learner::with_unlabelled`]'s kinds) weighs 0, and its page's other
/// blocks share the page's weight (a page of such blocks alone weighs nothing). Cross-validated
/// in docs/learning.md. O(text).
pub fn block_weights(pages: &[&BlockData], weights: &[f64], unlabelled: &[usize]) -> Vec<f64> {
    let mut w = Vec::with_capacity(pages.iter().map(|p| p.len()).sum());
    for (i, p) in pages.iter().enumerate() {
        let page = weights.get(i).copied().unwrap_or(1.0);
        let start = w.len();
        w.extend(p.texts.iter().enumerate().map(|(b, t)| {
            if unlabelled.iter().any(|&c| p.row(b).get(c) == Some(&1.0)) {
                0.0
            } else {
                (crate::metrics::words(t).len() as f64).max(0.5)
            }
        }));
        let total: f64 = w[start..].iter().sum();
        if total > 0.0 {
            for x in &mut w[start..] {
                *x = *x / total * page;
            }
        }
    }
    let mean = w.iter().sum::<f64>() / w.len().max(1) as f64;
    if mean > 0.0 {
        for x in &mut w {
            *x /= mean;
        }
    }
    w
}

/// The stacked block classifier (`--method stack`) with its member extractors (default:
/// [`MEMBERS`]).
#[derive(Debug, Clone)]
pub struct Stack {
    members: Members,
    /// The unit kinds whose blocks the fit leaves unlabelled (weight 0,
    /// [`Learner::with_unlabelled`]); none by default.
    unlabelled: KindSet,
}

impl Default for Stack {
    fn default() -> Stack {
        Stack::new(Members::default_members().clone())
    }
}

impl Stack {
    /// The stack with `members` as its member extractors.
    pub fn new(members: Members) -> Stack {
        Stack {
            members,
            unlabelled: KindSet::default(),
        }
    }

    /// The columns of the rows that mark the unlabelled kinds (`unit_KIND`).
    fn unlabelled_columns(&self) -> Vec<usize> {
        let names = self.members.feature_names();
        self.unlabelled
            .iter()
            .filter_map(|k| {
                let name = format!("unit_{}", k.name());
                names.iter().position(|n| *n == name)
            })
            .collect()
    }

    /// Its member extractors.
    pub fn members(&self) -> &Members {
        &self.members
    }
}

static INFO: MethodInfo = MethodInfo {
    name: "stack",
    description: "gradient-boosted trees over each block's shallow features, DOM context, records and the verdicts of cetd, lqf and bte",
    source: "Kohlschütter et al. 2010 (block classification); Weissig and Gottron (CombinE), learned; features per the learning prototype",
    fitter: Some(gbt::FITTER),
};

impl Learner for Stack {
    type PageData = BlockData;
    type Body = Forest;

    fn info(&self) -> &'static MethodInfo {
        &INFO
    }

    fn feature_names(&self) -> Vec<String> {
        self.members.feature_names().to_vec()
    }

    /// The stack with members `names` ([`Members::new`]'s errors).
    fn with_members(&self, names: &[String]) -> Result<Stack> {
        Ok(Stack {
            members: Members::new(names)?,
            unlabelled: self.unlabelled,
        })
    }

    /// The stack whose fit gives no weight to blocks in units of `kinds` (their `unit_KIND`
    /// feature is 1). Errors for the headline, which the rows do not mark.
    fn with_unlabelled(&self, kinds: KindSet) -> Result<Stack> {
        if kinds.contains(UnitKind::Headline) {
            return Err(Error::Train(
                "--unlabelled headline: the stack's rows do not mark the headline (its units \
                 are found without a headline finder); name other unit kinds"
                    .into(),
            ));
        }
        Ok(Stack {
            members: self.members.clone(),
            unlabelled: kinds,
        })
    }

    /// The members when they are not [`MEMBERS`].
    fn recorded_members(&self) -> Option<Vec<String>> {
        (!self.members.is_default()).then(|| self.members.names().to_vec())
    }

    fn prepare(&self, page: &Page, gold: &Selection) -> BlockData {
        BlockData::with_rows(
            page,
            gold,
            rows_with(page, &self.members),
            self.members.width(),
        )
        // The extractor has the short-result fallback on: cross-validation scores it too.
        .with_fallback(page)
    }

    fn check_body(&self, body: &Forest) -> std::result::Result<(), String> {
        body.check(self.members.width())
    }

    fn weighs_pages(&self) -> bool {
        true
    }

    fn fit(&self, pages: &[&BlockData], weights: &[f64], seed: u64) -> Result<Forest> {
        // The pages' rows as they are (no concatenated copy: 0.8 GB per fit of the shipped
        // model's training set, and the fits run side by side).
        let parts: Vec<&[f64]> = pages.iter().map(|p| p.rows.as_slice()).collect();
        let labels: Vec<bool> = pages
            .iter()
            .flat_map(|p| p.labels.iter().copied())
            .collect();
        let weights = block_weights(pages, weights, &self.unlabelled_columns());
        if !weights.is_empty() && weights.iter().all(|&w| w == 0.0) {
            return Err(Error::Train(format!(
                "every training block is in a unit of the unlabelled kinds ({}): nothing is \
                 left to learn from",
                self.unlabelled
                    .iter()
                    .map(UnitKind::name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        gbt::fit_parts(
            &parts,
            self.members.width(),
            &labels,
            Some(&weights),
            GbtParams {
                budget: BUDGET,
                max_rows: MAX_ROWS,
                seed,
            },
        )
    }

    fn extract_text(&self, body: &Forest, page: &BlockData, threshold: f64) -> String {
        // With the short-result fallback (the blocks `prepare` gave), as the extractor runs.
        page.extract_text(body, threshold)
    }

    fn extractor(&self, name: &str, model: ModelFile<Forest>) -> Arc<dyn Extractor> {
        let members = self.members.clone();
        let c = BlockClassifier::with_rows(
            name,
            &INFO,
            model.features,
            model.threshold,
            members.key,
            Box::new(move |page: &Page| rows_with(page, &members)),
            Box::new(gbt::Compiled::new(model.body)),
        )
        .with_records_fallback();
        if self.members.is_default() {
            return Arc::new(c);
        }
        Arc::new(c.with_description(format!(
            "learned (stack): gradient-boosted trees over each block's shallow features, DOM \
             context, records and the verdicts of {}",
            self.members.names().join(", ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-made page: an article of two paragraphs and a menu of three links in a `<ul>`.
    fn article_and_menu() -> Page {
        Page::from_text(
            "t.html",
            "<html><body><div id=main><p>One two three four five six seven eight nine ten \
             eleven twelve.</p><p>Alpha beta gamma delta epsilon zeta eta theta iota.</p></div>\
             <ul><li><a href=/a>Home</a></li><li><a href=/b>News</a></li>\
             <li><a href=/c>About</a></li></ul></body></html>",
        )
    }

    /// The verdict features of [`article_and_menu`], computed by hand.
    #[test]
    fn verdict_features_of_a_hand_made_page() {
        let page = article_and_menu();
        let n = page.blocks().len();
        assert_eq!(n, 5);
        let rows = stack_rows(&page);
        let w = width();
        assert_eq!(rows.len(), n * w);
        let names = feature_names();
        assert_eq!(names.len(), w);
        let col = |name: &str| names.iter().position(|x| x == name).unwrap();
        let verdicts = member_verdicts(&page);
        assert_eq!(verdicts.len(), MEMBERS.len());
        // BTE keeps the article's paragraphs and not the menu.
        let bte = &verdicts[2];
        assert_eq!(bte[..2], [1.0, 1.0], "{bte:?}");
        assert_eq!(bte[2..], [0.0, 0.0, 0.0], "{bte:?}");
        let row = |i: usize| &rows[i * w..(i + 1) * w];
        // Block 1 (the second paragraph): its own verdict 1, previous 1, next (Home) 0.
        assert_eq!(row(1)[col("bte_block")], 1.0);
        assert_eq!(row(1)[col("bte_prev")], 1.0);
        assert_eq!(row(1)[col("bte_next")], 0.0);
        // Its container <p>'s parent is div#main, which holds both paragraphs: mean 1.
        assert_eq!(row(1)[col("bte_parent")], 1.0);
        // The menu items' containers are <li>s whose parent is... each <li> itself holds the
        // <a>: the container is the <li>, its parent the <ul>: mean 0.
        assert_eq!(row(3)[col("bte_parent")], 0.0);
        // Coverage: 21 of the page's 24 words.
        let cov = row(0)[col("bte_coverage")];
        assert!((cov - 21.0 / 24.0).abs() < 1e-12, "{cov}");
        // The mean of the three members' verdicts on block 0.
        let mean: f64 = verdicts.iter().map(|v| v[0]).sum::<f64>() / 3.0;
        assert_eq!(row(0)[col("members_mean")], mean);
        // The shallow part is the shallow method's row, the context part BlockContext's.
        assert_eq!(
            &row(2)[..shallow::N_FEATURES],
            &shallow::block_rows(page.blocks())[2 * shallow::N_FEATURES..3 * shallow::N_FEATURES]
        );
        let ctx = BlockContext::build(&page);
        assert_eq!(
            row(2)[col("tag_li")],
            f64::from(ctx.get(2, "tag_li").unwrap())
        );
    }

    /// Each page weighs the same and, within a page, each block by its words (half a word
    /// for a block without any): a page of 12 + 0 words and one of 3 + 1 words.
    #[test]
    fn block_weights_by_hand() {
        let data = |texts: &[&str]| BlockData {
            width: 1,
            rows: vec![0.0; texts.len()],
            labels: vec![false; texts.len()],
            texts: texts.iter().map(|t| t.to_string()).collect(),
            fallback: Vec::new(),
        };
        let a = data(&[
            "one two three four five six seven eight nine ten eleven twelve",
            "—",
        ]);
        let b = data(&["x y z", "w"]);
        let w = block_weights(&[&a, &b], &[1.0, 1.0], &[]);
        // Unscaled: 12 / 12.5, 0.5 / 12.5, 3 / 4, 1 / 4; their mean is 2 / 4 = 0.5.
        let expect = [12.0 / 12.5, 0.5 / 12.5, 0.75, 0.25].map(|x| x / 0.5);
        assert_eq!(w.len(), 4);
        for (x, e) in w.iter().zip(expect) {
            assert!((x - e).abs() < 1e-12, "{w:?}");
        }
        assert!(block_weights(&[], &[], &[]).is_empty());
        // Page weights scale each page's share: page b counts three times page a.
        let w = block_weights(&[&a, &b], &[0.5, 1.5], &[]);
        let unscaled = [12.0 / 12.5 * 0.5, 0.5 / 12.5 * 0.5, 0.75 * 1.5, 0.25 * 1.5];
        let mean = unscaled.iter().sum::<f64>() / 4.0;
        for (x, e) in w.iter().zip(unscaled.map(|x| x / mean)) {
            assert!((x - e).abs() < 1e-12, "{w:?}");
        }
        assert!((w[2] + w[3]) / (w[0] + w[1]) > 2.99);
    }

    /// A block whose row marks an unlabelled kind weighs nothing; its page's other blocks
    /// share the page's weight; a page of unlabelled blocks alone weighs nothing.
    #[test]
    fn unlabelled_blocks_weigh_nothing() {
        // Rows of width 2: column 1 is the unit column of the unlabelled kind.
        let data = |texts: &[&str], marks: &[f64]| BlockData {
            width: 2,
            rows: marks.iter().flat_map(|&m| [0.0, m]).collect(),
            labels: vec![true; texts.len()],
            texts: texts.iter().map(|t| t.to_string()).collect(),
            fallback: Vec::new(),
        };
        let a = data(&["x y z", "a comment of five words"], &[0.0, 1.0]);
        let b = data(&["only a comment"], &[1.0]);
        let c = data(&["w"], &[0.0]);
        let w = block_weights(&[&a, &b, &c], &[1.0, 1.0, 1.0], &[1]);
        // Unscaled: a's first block holds all of a's weight (1), its comment 0, b nothing,
        // c's block 1; the mean is 2 / 4.
        assert_eq!(w, vec![2.0, 0.0, 0.0, 2.0]);
        // Without the column, the comment counts by its words.
        let w = block_weights(&[&a, &b, &c], &[1.0, 1.0, 1.0], &[]);
        assert!(w[1] > w[0] && w[2] > 0.0, "{w:?}");
    }

    /// `--unlabelled` is recorded by kind, refused for the headline, and kept with members.
    #[test]
    fn unlabelled_kinds_are_a_stack_setting() {
        let kinds: KindSet = [UnitKind::Comments, UnitKind::Caption]
            .into_iter()
            .collect();
        let s = Stack::default().with_unlabelled(kinds).unwrap();
        let names = s.members.feature_names();
        let cols: Vec<&str> = s
            .unlabelled_columns()
            .iter()
            .map(|&c| names[c].as_str())
            .collect();
        assert_eq!(cols, ["unit_caption", "unit_comments"]);
        let m = s.with_members(&["bte".into(), "plain".into()]).unwrap();
        assert_eq!(m.unlabelled, kinds);
        assert_eq!(m.unlabelled_columns().len(), 2);
        let headline: KindSet = [UnitKind::Headline].into_iter().collect();
        let e = Stack::default().with_unlabelled(headline).unwrap_err();
        assert!(e.to_string().contains("headline"), "{e}");
        // Pages whose every block is unlabelled leave nothing to fit: a clear error.
        let width = s.members.width();
        let comments = s.unlabelled_columns()[1];
        let mut rows = vec![0.0; 2 * width];
        rows[comments] = 1.0;
        rows[width + comments] = 1.0;
        let data = BlockData {
            width,
            rows,
            labels: vec![true, false],
            texts: vec!["a comment".into(), "another".into()],
            fallback: Vec::new(),
        };
        let e = s.fit(&[&data], &[1.0], 1).unwrap_err().to_string();
        assert!(
            e.contains("every training block") && e.contains("caption, comments"),
            "{e}"
        );
    }

    /// What cross-validation scores (the prepared page's text at the threshold) is what the
    /// extractor selects: the stack's rows are wider than the shallow rows, and scoring them in
    /// chunks of the shallow width once gave other blocks.
    #[test]
    fn the_scored_text_is_the_extractors_selection() {
        let html = "<html><body><div id=main><p>One two three four five six seven eight nine \
             ten eleven twelve.</p><p>Alpha beta gamma delta epsilon zeta eta theta.</p></div>\
             <ul><li><a href=/a>Home</a></li><li><a href=/b>News</a></li></ul></body></html>";
        let page = Page::from_text("t.html", html);
        let data = Stack::default().prepare(&page, &Selection::default());
        assert_eq!(data.width, width());
        // A forest that says "content" exactly when bte_block (a late column) is 1.
        let col = u32::try_from(
            feature_names()
                .iter()
                .position(|n| n == "bte_block")
                .unwrap(),
        )
        .unwrap();
        let tree = gbt::GbtTree {
            feature: vec![col, u32::MAX, u32::MAX],
            threshold: vec![0.5, 0.0, 0.0],
            left: vec![1, 0, 0],
            right: vec![2, 0, 0],
            missing_left: vec![true, false, false],
            value: vec![0.0, -5.0, 5.0],
        };
        let f: Forest = serde_json::from_value(serde_json::json!({
            "width": width(), "base": 0.0, "trees": [tree],
        }))
        .unwrap();
        f.check(width()).unwrap();
        let text = Stack::default().extract_text(&f, &data, 0.5);
        assert_eq!(
            text,
            "One two three four five six seven eight nine ten eleven twelve.\n\
             Alpha beta gamma delta epsilon zeta eta theta.\n"
        );
    }

    #[test]
    fn every_member_is_registered() {
        let d = Members::default_members();
        assert!(d.extractors.iter().all(Option::is_some), "{MEMBERS:?}");
        assert_eq!(d.names(), MEMBERS);
        assert!(d.is_default());
    }

    /// Other members: their verdicts replace the default members' columns, named after them
    /// in the order given; the rest of the row is the same.
    #[test]
    fn other_members_give_their_own_verdict_columns() {
        let page = article_and_menu();
        let m = Members::new(&[" BTE", "plain"]).unwrap();
        assert_eq!(m.names(), ["bte", "plain"]);
        assert!(!m.is_default());
        let names = m.feature_names();
        let col = |name: &str| names.iter().position(|x| x == name);
        assert!(col("cetd_block").is_none() && col("lqf_parent").is_none());
        assert_eq!(m.width(), width() - VERDICTS.len());
        let rows = rows_with(&page, &m);
        let n = page.blocks().len();
        assert_eq!(rows.len(), n * m.width());
        let default = stack_rows(&page);
        let w = width();
        let dcol = |name: &str| feature_names().iter().position(|x| x == name).unwrap();
        let plain = m.verdicts(&page)[1].clone();
        // plain keeps the whole page's text: every block is fully selected.
        assert!(plain.iter().all(|&v| v == 1.0), "{plain:?}");
        for i in 0..n {
            let row = &rows[i * m.width()..(i + 1) * m.width()];
            let drow = &default[i * w..(i + 1) * w];
            // The shared part (shallow and context features) is the same.
            let shared = dcol("cetd_block");
            assert_eq!(row[..shared], drow[..shared], "block {i}");
            assert_eq!(row[col("bte_block").unwrap()], drow[dcol("bte_block")]);
            assert_eq!(row[col("plain_block").unwrap()], 1.0);
            assert_eq!(row[col("plain_coverage").unwrap()], 1.0);
            let mean = (drow[dcol("bte_block")] + 1.0) / 2.0;
            assert_eq!(row[col("members_mean").unwrap()], mean, "block {i}");
        }
        // The stack records other members, never the default ones (however they are spelt).
        let stack = Stack::default()
            .with_members(&["bte".into(), "plain".into()])
            .unwrap();
        assert_eq!(
            stack.recorded_members(),
            Some(vec!["bte".to_string(), "plain".to_string()])
        );
        assert_eq!(stack.feature_names(), names);
        let same = Stack::default()
            .with_members(&["CETD".into(), "lqf ".into(), "bte".into()])
            .unwrap();
        assert_eq!(same.recorded_members(), None);
        assert_eq!(same.feature_names(), feature_names());
        assert_eq!(Stack::default().recorded_members(), None);
        // Two member lists never share the page memo's rows.
        assert_eq!(same.members().key, "stack");
        assert_eq!(stack.members().key, "stack:bte,plain");
        assert!(std::ptr::eq(
            stack.members().key,
            Members::new(&["bte", "plain"]).unwrap().key
        ));
    }

    #[test]
    fn unknown_repeated_or_no_members_are_clear_errors() {
        let e = Members::new(&["cetd", "nope"]).unwrap_err().to_string();
        assert!(
            e.contains("unknown member extractor \"nope\"")
                && e.contains("any registered extractor: ")
                && e.contains("cetd")
                && e.contains("bte"),
            "{e}"
        );
        let e = Members::new(&["bte", "BTE"]).unwrap_err().to_string();
        assert!(e.contains("bte is named twice"), "{e}");
        let e = Members::new(&[] as &[&str]).unwrap_err().to_string();
        assert!(e.contains("no member extractor named"), "{e}");
    }

    #[test]
    fn a_page_without_blocks_has_no_rows() {
        let page = Page::from_text(
            "e.html",
            "<html><body><script>var a;</script></body></html>",
        );
        assert_eq!(page.blocks().len(), 0);
        assert!(stack_rows(&page).is_empty());
    }

    #[test]
    fn explains_with_the_largest_contributions() {
        // Two features; the label is feature 0 > 0.5.
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for i in 0..400u32 {
            let a = f64::from(i % 20) / 20.0;
            rows.extend([a, f64::from(i % 3)]);
            labels.push(a > 0.5);
        }
        let f = gbt::fit(
            &rows,
            2,
            &labels,
            None,
            GbtParams {
                budget: 0.5,
                max_rows: 1000,
                seed: 1,
            },
        )
        .unwrap();
        let names = vec!["a".to_string(), "b".to_string()];
        let said = BlockScorer::explain(&f, &[0.9, 1.0], &names).join("; ");
        assert!(said.contains("moved most by: a 0.9 → +"), "{said}");
        assert!(said.starts_with("log-odds "), "{said}");
    }
}
