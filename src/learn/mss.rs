//! `mss` — Maximum Subsequence Segmentation with Naive Bayes token scores (Pasternack & Roth
//! 2009, as surveyed in Mohammadzadeh 2013, section 3.3.1.4, Formula 3.5 and Algorithm 8).
//!
//! **Tokens** (the thesis' list, step by step):
//! - "removing everything between `<script>` and `<style>` tags": the page's tag / word token
//!   stream ([`Page::tokens`]) has no script or style text; their own tags are dropped too;
//! - "break up the HTML document into a list of tags, words and numbers": the tags are the
//!   tag tokens of [`Page::tokens`], written `<name>` / `</name>` (lower case, attributes
//!   dropped); the words and numbers are the project's one word tokeniser
//!   ([`crate::metrics::words`], lower-cased `\w+` runs) over the page's content text, with
//!   their byte ranges ([`PageWords`]; character references decoded);
//! - "apply porter stemming to all words": rust-stemmers' English stemmer, which is Porter's
//!   revised **Porter2 / Snowball English** stemmer, not the original 1980 Porter stemmer;
//! - "generalize numeric tokens, all numbers stemmed to 1": a word of numeric characters only
//!   becomes `1`.
//!
//! Tags and words are merged in text order (a word that the content text joins across an
//! inline tag, `foo<b>bar</b>`, comes before that tag).
//!
//! **Features** (two types, as published): the **trigram** — the token and its two successors
//! (`$` past the end of the page) — and the **parent tag** — the tag name of the token's parent
//! element in the page's DOM ([`Page::dom`]): for a word the element holding its text node,
//! for a tag the parent of the element it opens or closes (`#root` at the top, `?` for a tag
//! the HTML parser ignored).
//!
//! **Labels** from a gold selection in the normal form (content text only): a word is content
//! when its bytes intersect the gold; a tag is content when the nearest word before it and the
//! nearest word after it are both content (it lies inside the gold's extent: between two gold
//! words with no other word between them); tags before the first or after the last word are
//! boilerplate.
//!
//! **Naive Bayes** over the two features with **Laplace (add-one) smoothing**: for class `c`
//! (content / boilerplate) with `N_c` training tokens, `P(c) = (N_c + 1) / (N + 2)` and, for
//! each feature type `f` with `V_f` distinct values seen in training,
//! `P(f = v | c) = (count(v, c) + 1) / (N_c + V_f)`. A value never seen (or pruned from the
//! model, see [`MIN_COUNT`]) contributes only that smoothing, `1 / (N_c + V_f)`. The posterior
//! `p = P(content | trigram, parent)` of every token is turned into the score
//! `f(p) = p − θ` (θ = 0.5 as published: scores in `[−0.5, 0.5]`; the parameter `theta` moves
//! it), and the selection is the **maximum-scoring subsequence** of the page's token scores
//! (Formula 3.5), found by the one search of Algorithm 8 ([`max_subsequence`], shared with
//! BTE): the bytes from its first token to its last, in the normal form.
//!
//! Training is additive: [`MssCounts::from_page`] counts one page, [`MssCounts::merge`] adds
//! pages, [`MssModel::from_counts`] turns the sums into a model (deterministic serialisation:
//! sorted maps), [`Mss::new`] wraps a model as an extractor.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::{Learner, MethodInfo, ModelFile};
use crate::error::{Error, Result};
use crate::extract::explain::{self as ex, TextLine};
use crate::extract::signal::max_subsequence;
use crate::extract::trace::{Key, Missing};
use crate::extract::trace::{Marks, Phase, Positions, Role, Scalar, Series};
use crate::extract::{
    AlgoInfo, Extraction, Extractor, ParamKind, ParamSpec, ParamValue, Params, Trace, Unit,
};
use crate::page::dom::{Dom, NodeKind};
use crate::page::locate::PageWords;
use crate::page::tokens::TokenKind;
use crate::page::Page;
use crate::selection::Selection;

/// The score offset θ of `f(p) = p − θ`.
pub const THETA_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("theta"),
    kind: ParamKind::Float {
        min: 0.0,
        max: 1.0,
        step: 0.01,
    },
    default: ParamValue::Float(0.5),
    help: "score offset: each token scores p(content) − theta, the selection is the maximum-scoring subsequence (0.5: scores in [−0.5, 0.5] as published)",
    source: "Pasternack & Roth 2009; Mohammadzadeh 2013, 3.3.1.4, f(p) = p − 0.5",
};

crate::typed_params! {
    /// MSS's parameters.
    pub struct MssParams {
        /// The score offset θ.
        pub theta: f64 = THETA_SPEC,
    }
}

/// Features whose training count (both classes together) is below this are left out of a
/// model ([`MssModel::from_counts`]): a value seen once carries almost no evidence, and on the
/// dev corpora most trigrams are seen once, so dropping them keeps the model file small. Such
/// a value then scores as unseen (smoothing only); the vocabulary sizes `V_f` still count it.
/// Measured on scrapinghub-dev + wcxb-dev (1,595 pages; 2,613,545 distinct trigrams): kept
/// 622,788 trigrams, a 15.7 MB JSON model; a threshold of 3 gives 7.4 MB and 5 gives 3.6 MB, at
/// a grouped-CV F1 of 0.673 / 0.670 / 0.664 on wcxb-dev (0.835 on scrapinghub-dev for all
/// three). A site's template repeats on every page of it, so two gold pages of a site already
/// keep its menu and footer features.
pub const MIN_COUNT: u64 = 2;

/// The trigram's padding past the last token (no word is `$`, no tag starts with it).
const END: &str = "$";

/// Class indices of the count pairs: `[boilerplate, content]`.
const CONTENT: usize = 1;

/// One token of a page as MSS reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MssToken {
    /// Bytes of the decoded text.
    pub range: Range<usize>,
    /// True for a tag token.
    pub is_tag: bool,
    /// The normalised token: `<p>` / `</p>` for a tag, the stem for a word, `1` for a number.
    pub name: String,
    /// The parent element's tag name in the DOM (`#root`, `?`: see the module documentation).
    pub parent: String,
}

/// The page's MSS tokens in text order (see the module documentation). O(text) plus
/// O(nodes log nodes) to place tokens in the DOM.
pub fn tokens(page: &Page) -> Vec<MssToken> {
    let text = page.text();
    let stemmer = crate::lang::stemmer("en");
    let pw = PageWords::new(page);
    let mut out: Vec<MssToken> = Vec::with_capacity(pw.len() * 2);
    for t in page.tokens() {
        if t.kind != TokenKind::Tag {
            continue;
        }
        let name = tag_name(&text[t.range.clone()]);
        if matches!(
            name.as_str(),
            "<script>" | "</script>" | "<style>" | "</style>"
        ) {
            continue;
        }
        out.push(MssToken {
            range: t.range,
            is_tag: true,
            name,
            parent: String::new(),
        });
    }
    for (k, w) in pw.tokens().iter().enumerate() {
        let name = if w.chars().all(char::is_numeric) {
            "1".to_string()
        } else {
            match &stemmer {
                Some(s) => s.stem(w).into_owned(),
                None => w.clone(),
            }
        };
        out.push(MssToken {
            range: pw.word_range(k),
            is_tag: false,
            name,
            parent: String::new(),
        });
    }
    // Stable: at one start, a tag (pushed first) before a word.
    out.sort_by_key(|t| t.range.start);
    let owners = Owners::new(page.dom());
    for t in &mut out {
        t.parent = owners.parent_tag(page.dom(), t.range.start);
    }
    out
}

/// `<name>` / `</name>` of a tag token's source (`<DIV class=x>` → `<div>`); the name is the
/// ASCII letters, digits, `-`, `_` and `:` after `<` or `</`.
fn tag_name(source: &str) -> String {
    let (open, rest) = match source.strip_prefix("</") {
        Some(r) => ("</", r),
        None => ("<", source.strip_prefix('<').unwrap_or(source)),
    };
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':'))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    format!("{open}{name}>")
}

/// The DOM nodes owning byte offsets: every node's own spans and every end tag, sorted.
struct Owners {
    spans: Vec<(usize, usize, usize)>,
}

impl Owners {
    fn new(dom: &Dom) -> Owners {
        let mut spans = Vec::new();
        for id in 0..dom.len() {
            spans.extend(dom.spans(id).iter().map(|r| (r.start, r.end, id)));
            spans.extend(dom.end_tag(id).map(|r| (r.start, r.end, id)));
        }
        spans.sort_unstable();
        Owners { spans }
    }

    /// The tag name of the parent element of the node owning byte `at`: `#root` when the
    /// parent is no element, `?` when no node owns the byte.
    fn parent_tag(&self, dom: &Dom, at: usize) -> String {
        let k = self.spans.partition_point(|s| s.0 <= at);
        let Some(&(_, end, id)) = k.checked_sub(1).map(|k| &self.spans[k]) else {
            return "?".into();
        };
        if at >= end {
            return "?".into();
        }
        let mut parent = dom.parent(id);
        // A text node's parent is its element; an element's is the one around it.
        while let Some(p) = parent {
            if dom.kind(p) == NodeKind::Element {
                return dom.tag_name(p).unwrap_or("?").to_ascii_lowercase();
            }
            if dom.kind(p) == NodeKind::Document {
                break;
            }
            parent = dom.parent(p);
        }
        "#root".into()
    }
}

/// The trigram of token `i`: its name and its two successors' (`$` past the end), joined by a
/// space.
fn trigram(toks: &[MssToken], i: usize) -> String {
    let at = |k: usize| toks.get(k).map_or(END, |t| t.name.as_str());
    format!("{} {} {}", at(i), at(i + 1), at(i + 2))
}

/// Content labels of `toks` from `gold` (see the module documentation).
fn labels(toks: &[MssToken], gold: &Selection) -> Vec<bool> {
    let words: Vec<Option<bool>> = toks
        .iter()
        .map(|t| (!t.is_tag).then(|| gold.intersects(t.range.clone())))
        .collect();
    // The label of the nearest word after each token.
    let mut next = vec![false; toks.len()];
    let mut after = false;
    for i in (0..toks.len()).rev() {
        next[i] = after;
        if let Some(w) = words[i] {
            after = w;
        }
    }
    let mut before = false;
    let mut out = Vec::with_capacity(toks.len());
    for i in 0..toks.len() {
        match words[i] {
            Some(w) => {
                out.push(w);
                before = w;
            }
            None => out.push(before && next[i]),
        }
    }
    out
}

/// Additive Naive Bayes counts of one or more pages: tokens per class and, per feature value,
/// its count per class (`[boilerplate, content]`). Merging is addition, so the order pages are
/// merged in does not change the sums.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MssCounts {
    /// Training tokens per class.
    pub tokens: [u64; 2],
    /// Pages counted.
    pub pages: u64,
    /// Trigram → count per class.
    pub trigrams: FxHashMap<String, [u64; 2]>,
    /// Parent tag → count per class.
    pub parents: FxHashMap<String, [u64; 2]>,
}

impl MssCounts {
    /// The counts of one page whose main content is `gold` (a selection over the page's
    /// decoded text, normally the normal form: content text only). O(tokens).
    pub fn from_page(page: &Page, gold: &Selection) -> MssCounts {
        let toks = tokens(page);
        let labels = labels(&toks, gold);
        let mut c = MssCounts {
            pages: 1,
            ..MssCounts::default()
        };
        for (i, t) in toks.iter().enumerate() {
            let y = labels[i] as usize;
            c.tokens[y] += 1;
            c.trigrams.entry(trigram(&toks, i)).or_default()[y] += 1;
            c.parents.entry(t.parent.clone()).or_default()[y] += 1;
        }
        c
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &MssCounts) {
        self.tokens[0] += other.tokens[0];
        self.tokens[1] += other.tokens[1];
        self.pages += other.pages;
        for (map, from) in [
            (&mut self.trigrams, &other.trigrams),
            (&mut self.parents, &other.parents),
        ] {
            for (k, v) in from {
                let e = map.entry(k.clone()).or_default();
                e[0] += v[0];
                e[1] += v[1];
            }
        }
    }
}

/// A trained MSS Naive Bayes model ([`MssModel::from_counts`]): class counts, vocabulary sizes
/// and the feature counts kept ([`MIN_COUNT`]). Serialised deterministically (sorted maps).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MssModel {
    /// Training tokens per class, `[boilerplate, content]`.
    pub tokens: [u64; 2],
    /// Pages trained on.
    pub pages: u64,
    /// Distinct trigrams seen in training (`V` of the trigram feature), pruned ones included.
    pub trigram_vocabulary: u64,
    /// Distinct parent tags seen in training.
    pub parent_vocabulary: u64,
    /// The pruning threshold the model was built with.
    pub min_count: u64,
    /// Trigram → count per class, for trigrams seen at least `min_count` times.
    pub trigrams: BTreeMap<String, [u64; 2]>,
    /// Parent tag → count per class, for tags seen at least `min_count` times.
    pub parents: BTreeMap<String, [u64; 2]>,
}

/// One token's Naive Bayes evidence: the log-likelihood ratio (content over boilerplate) of the
/// prior and of each feature.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Evidence {
    /// `ln P(content) − ln P(boilerplate)`.
    pub prior: f64,
    /// The trigram's log-likelihood ratio.
    pub trigram: f64,
    /// The parent tag's log-likelihood ratio.
    pub parent: f64,
}

impl Evidence {
    /// The posterior `P(content | trigram, parent)`, in `[0, 1]`.
    pub fn probability(&self) -> f64 {
        let lo = self.prior + self.trigram + self.parent;
        1.0 / (1.0 + (-lo).exp())
    }
}

impl MssModel {
    /// The model of the summed counts `c`: vocabulary sizes from all values, feature counts of
    /// the values seen at least [`MIN_COUNT`] times.
    pub fn from_counts(c: &MssCounts) -> MssModel {
        let keep = |m: &FxHashMap<String, [u64; 2]>| -> BTreeMap<String, [u64; 2]> {
            m.iter()
                .filter(|(_, v)| v[0] + v[1] >= MIN_COUNT)
                .map(|(k, v)| (k.clone(), *v))
                .collect()
        };
        MssModel {
            tokens: c.tokens,
            pages: c.pages,
            trigram_vocabulary: c.trigrams.len() as u64,
            parent_vocabulary: c.parents.len() as u64,
            min_count: MIN_COUNT,
            trigrams: keep(&c.trigrams),
            parents: keep(&c.parents),
        }
    }

    /// Laplace-smoothed log-likelihood ratio of a feature value with counts `n` (absent:
    /// unseen) in a feature type of `v` distinct values.
    fn ratio(&self, n: Option<&[u64; 2]>, v: u64) -> f64 {
        let n = n.copied().unwrap_or([0, 0]);
        let p = |c: usize| (n[c] as f64 + 1.0) / ((self.tokens[c] + v) as f64).max(1.0);
        p(CONTENT).ln() - p(1 - CONTENT).ln()
    }

    /// The prior's log ratio `ln P(content) − ln P(boilerplate)` (add-one smoothed).
    fn prior(&self) -> f64 {
        let total = (self.tokens[0] + self.tokens[1]) as f64;
        ((self.tokens[CONTENT] as f64 + 1.0) / (total + 2.0)).ln()
            - ((self.tokens[1 - CONTENT] as f64 + 1.0) / (total + 2.0)).ln()
    }

    /// The evidence of one token with trigram `tri` and parent tag `parent`, given the
    /// [`MssModel::prior`].
    fn evidence_of(&self, prior: f64, tri: &str, parent: &str) -> Evidence {
        Evidence {
            prior,
            trigram: self.ratio(self.trigrams.get(tri), self.trigram_vocabulary),
            parent: self.ratio(self.parents.get(parent), self.parent_vocabulary),
        }
    }

    /// The evidence for every token of `page` ([`tokens`]), in text order.
    pub fn evidence(&self, page: &Page) -> Vec<(MssToken, Evidence)> {
        let toks = tokens(page);
        let prior = self.prior();
        let ev: Vec<Evidence> = (0..toks.len())
            .map(|i| self.evidence_of(prior, &trigram(&toks, i), &toks[i].parent))
            .collect();
        toks.into_iter().zip(ev).collect()
    }

    /// `P(content)` of every token of `page`: its bytes and its posterior, in text order.
    pub fn probabilities(&self, page: &Page) -> Vec<(Range<usize>, f64)> {
        self.evidence(page)
            .into_iter()
            .map(|(t, e)| (t.range, e.probability()))
            .collect()
    }
}

/// The MSS extractor: a trained [`MssModel`] scores the tokens, the maximum-scoring
/// subsequence is the main content (see the module documentation).
#[derive(Debug, Clone)]
pub struct Mss {
    model: Arc<MssModel>,
    info: AlgoInfo,
}

impl Mss {
    /// MSS with `model`.
    pub fn new(model: Arc<MssModel>) -> Mss {
        Mss::named(model, "mss")
    }

    /// MSS with `model`, named `name` (a model file loads as the extractor named after the
    /// file, [`crate::extractors`]).
    pub fn named(model: Arc<MssModel>, name: &str) -> Mss {
        let mut info = INFO.clone();
        info.name = Cow::Owned(name.to_string());
        Mss { model, info }
    }

    /// The model.
    pub fn model(&self) -> &MssModel {
        &self.model
    }
}

/// The trace items MSS reads back in its explanation: built and read by
/// these [`Key`]s.
const SCORE: Key<Series> = Key::new("score");
const THETA: Key<Scalar> = Key::new("theta");
const SUM: Key<Scalar> = Key::new("sum");
const SUBSEQUENCE: Key<Marks> = Key::new("subsequence");

const PHASES: &[Phase] = &[
    Phase::new(
        "tokens",
        "tags, Porter2-stemmed words and numbers (as 1), scripts and styles removed",
        &[],
    ),
    Phase::new(
        "Naive Bayes",
        "p = P(content | trigram, parent tag) per token (Laplace-smoothed Naive Bayes); score p − θ",
        &["p", "score", "theta"],
    ),
    Phase::new(
        "maximum subsequence",
        "the token subsequence with the largest score sum (Formula 3.5, Algorithm 8)",
        &["subsequence", "sum"],
    ),
    Phase::new(
        "extraction",
        "the words of the subsequence are the main content",
        &[],
    ),
];

static INFO: AlgoInfo = AlgoInfo::new(
    "mss",
    "Maximum Subsequence Segmentation: Naive Bayes token scores (trigram, parent tag) p − θ, the maximum-scoring subsequence (Pasternack & Roth 2009; Mohammadzadeh 2013, 3.3.1.4, Algorithm 8)",
    "Pasternack & Roth 2009; Mohammadzadeh 2013, 3.3.1.4, Formula 3.5, Algorithm 8",
    MssParams::SPECS,
    PHASES,
)
.with_dom();

impl crate::extract::Algorithm for Mss {
    fn info(&self) -> &AlgoInfo {
        &self.info
    }
}

impl Extractor for Mss {
    /// Trace (token unit, positions = each token's bytes): `p` (the posterior per token, info),
    /// `score` (`p − θ`, a combined signal: summed on a line), the scalars `theta` and `sum`
    /// (the subsequence's score), `subsequence` (the maximum-scoring token range, selected).
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let theta = MssParams::read(params).theta;
        let probs = self.model.probabilities(page);
        let scores: Vec<f64> = probs.iter().map(|(_, p)| p - theta).collect();
        let best = max_subsequence(scores.iter().copied());
        let (selection, spans, sum) = match best {
            Some((i, j, sum)) => {
                let end = probs[i..=j].iter().map(|(r, _)| r.end).max().unwrap_or(0);
                (
                    page.normalize(&Selection::from_range(probs[i].0.start..end)),
                    std::iter::once(i..j + 1).collect(),
                    sum,
                )
            }
            None => (Selection::new(), Vec::new(), 0.0),
        };
        let trace = Trace {
            series: vec![
                Series::new(
                    "p",
                    "P(content | trigram, parent tag)",
                    Unit::Token,
                    Role::Info,
                    probs.iter().map(|(_, p)| *p).collect(),
                ),
                Series::new(
                    SCORE,
                    "token score p − θ",
                    Unit::Token,
                    Role::CombinedSignal,
                    scores,
                ),
            ],
            scalars: vec![
                Scalar::new(THETA, "θ of f(p) = p − θ", None, Role::Info, theta),
                Scalar::new(
                    SUM,
                    "score sum of the maximum subsequence (Formula 3.5)",
                    None,
                    Role::Info,
                    sum,
                ),
            ],
            marks: vec![Marks::new(
                SUBSEQUENCE,
                "the maximum-scoring token subsequence (Algorithm 8)",
                Unit::Token,
                Role::Selected,
                spans,
            )],
            positions: vec![Positions {
                unit: Unit::Token,
                ranges: probs.into_iter().map(|(r, _)| r).collect(),
            }],
        };
        Extraction { selection, trace }
    }

    /// On a line of text, in the whole run: the line's tokens with their scores `p − θ`, the
    /// line's score sum, and whether the line lies in the maximum subsequence — `line 12: 9
    /// tokens scored p − 0.50: the +0.41, quick +0.38, <a> −0.12, …; line sum +1.90; in the
    /// maximum subsequence (tokens 40–388, sum 61.30) → selected`. Elsewhere, and in step
    /// mode before the last phase, [`crate::extract::explain_default`].
    fn explain_text_line(&self, page: &Page, trace: &Trace, line: &TextLine) -> Vec<String> {
        ex::or_missing(explain_line(page, trace, line.line).map(Option::unwrap_or_default))
    }
}

/// Tokens listed by name in one explanation, at most.
const SHOWN: usize = 12;

/// MSS's explanation of virtual line `line` (`None` when the line has no token). Errors:
/// [`Missing`] when the trace lacks an item it reads.
fn explain_line(page: &Page, trace: &Trace, line: usize) -> Result<Option<Vec<String>>, Missing> {
    let Some(range) = page.lines().lines.get(line).map(|l| l.range()) else {
        return Ok(None);
    };
    let Some(pos) = trace.positions(Unit::Token) else {
        return Ok(None);
    };
    let first = pos.partition_point(|r| r.start < range.start);
    let last = pos.partition_point(|r| r.start < range.end);
    if first >= last {
        return Ok(None);
    }
    let scores = &trace.get(SCORE)?.values;
    let score = |k: usize| ex::value(trace, SCORE, k);
    let theta = trace.scalar_of(THETA)?;
    let text = page.text();
    let mut listed: Vec<String> = Vec::new();
    for (k, r) in pos
        .iter()
        .enumerate()
        .take(last.min(first + SHOWN))
        .skip(first)
    {
        let s = text.get(r.clone()).unwrap_or_default();
        let s = if s.starts_with('<') {
            tag_name(s)
        } else {
            s.to_string()
        };
        listed.push(format!("{s} {:+.2}", score(k)?));
    }
    if last - first > SHOWN {
        listed.push("…".into());
    }
    let line_sum: f64 = scores
        .get(first..last)
        .ok_or(Missing {
            kind: "series",
            key: SCORE.name().to_string(),
            index: Some(last.saturating_sub(1)),
        })?
        .iter()
        .sum();
    let sub = trace.get(SUBSEQUENCE)?.spans.first().cloned();
    let sum = trace.scalar_of(SUM)?;
    let inside = sub
        .as_ref()
        .map_or(0, |s| (first..last).filter(|k| s.contains(k)).count());
    let verdict = match &sub {
        None => "the page has no token, so nothing is selected".to_string(),
        Some(s) => {
            let (how, then) = if inside == last - first {
                ("in", "selected")
            } else if inside == 0 {
                ("outside", "not selected")
            } else {
                ("partly in", "partly selected")
            };
            format!(
                "{how} the maximum subsequence (tokens {}–{}, sum {:.2}) → {then}",
                s.start + 1,
                s.end,
                sum
            )
        }
    };
    Ok(Some(vec![
        format!(
            "line {}: {} tokens scored p − {}: {}",
            line + 1,
            last - first,
            ex::num(theta),
            listed.join(", ")
        ),
        format!("line sum {line_sum:+.2}"),
        verdict,
    ]))
}

/// MSS as a learned method (`cescope train --method mss`): a page is prepared into its
/// Naive Bayes counts ([`MssCounts`], kept per distinct feature value) and, for scoring
/// without the page, each token's features and the page's words; fitting sums the counts
/// ([`MssModel::from_counts`]); the model file's threshold is θ.
#[derive(Debug, Clone, Copy, Default)]
pub struct MssMethod;

static METHOD: MethodInfo = MethodInfo {
    name: "mss",
    description: "Maximum Subsequence Segmentation: Naive Bayes token scores over trigram + parent tag, the maximum-scoring subsequence (Pasternack & Roth 2009)",
    source: "Pasternack & Roth 2009; Mohammadzadeh 2013, 3.3.1.4, Formula 3.5, Algorithm 8",
    fitter: None,
};

/// One page prepared for MSS ([`MssMethod`]): its distinct feature values with their counts
/// per class, each token's features as indices into them, and its words for scoring.
#[derive(Debug, Clone, Default)]
pub struct MssPage {
    /// Tokens per class, `[boilerplate, content]`.
    tokens: [u64; 2],
    /// Distinct trigrams, then distinct parent tags.
    values: Vec<String>,
    /// Where the parent tags start in `values`.
    parents_from: usize,
    /// Count per class of each value.
    counts: Vec<[u64; 2]>,
    /// Per token: its trigram's and its parent tag's index in `values`.
    features: Vec<(u32, u32)>,
    /// The page's words in text order, each followed by a space.
    words: String,
    /// Per token: the byte in `words` where its word starts (a tag: where the next word does).
    at: Vec<u32>,
}

impl MssPage {
    /// Prepares `page` with gold selection `gold` (see [`MssCounts::from_page`]).
    fn new(page: &Page, gold: &Selection) -> MssPage {
        let toks = tokens(page);
        let labels = labels(&toks, gold);
        let mut out = MssPage::default();
        let mut index: FxHashMap<String, u32> = FxHashMap::default();
        let mut tri_ids = Vec::with_capacity(toks.len());
        for i in 0..toks.len() {
            tri_ids.push(intern(&mut index, &mut out.values, trigram(&toks, i)));
        }
        out.parents_from = out.values.len();
        index.clear();
        let text = page.text();
        for (i, t) in toks.iter().enumerate() {
            let parent = intern(&mut index, &mut out.values, t.parent.clone());
            out.features.push((tri_ids[i], parent));
            out.at
                .push(u32::try_from(out.words.len()).unwrap_or(u32::MAX));
            if !t.is_tag {
                out.words.push_str(text.get(t.range.clone()).unwrap_or(""));
                out.words.push(' ');
            }
        }
        out.counts = vec![[0; 2]; out.values.len()];
        for (&(tri, parent), &y) in out.features.iter().zip(&labels) {
            let y = usize::from(y);
            out.tokens[y] += 1;
            out.counts[tri as usize][y] += 1;
            out.counts[parent as usize][y] += 1;
        }
        out
    }
}

/// The index of `value` in `values`, appended if new.
fn intern(index: &mut FxHashMap<String, u32>, values: &mut Vec<String>, value: String) -> u32 {
    if let Some(&k) = index.get(&value) {
        return k;
    }
    let k = u32::try_from(values.len()).unwrap_or(u32::MAX);
    values.push(value.clone());
    index.insert(value, k);
    k
}

impl Learner for MssMethod {
    type PageData = MssPage;
    type Body = MssModel;

    fn info(&self) -> &'static MethodInfo {
        &METHOD
    }

    fn feature_names(&self) -> Vec<String> {
        vec!["trigram".to_string(), "parent_tag".to_string()]
    }

    fn prepare(&self, page: &Page, gold: &Selection) -> MssPage {
        MssPage::new(page, gold)
    }

    fn check_body(&self, body: &MssModel) -> std::result::Result<(), String> {
        if body.trigram_vocabulary < body.trigrams.len() as u64
            || body.parent_vocabulary < body.parents.len() as u64
        {
            return Err("a vocabulary is smaller than the feature values it holds".into());
        }
        Ok(())
    }

    /// Sums the pages' counts (page order does not matter: addition) into a model.
    fn fit(&self, pages: &[&MssPage], _weights: &[f64], _seed: u64) -> Result<MssModel> {
        let mut c = MssCounts::default();
        for p in pages {
            c.tokens[0] += p.tokens[0];
            c.tokens[1] += p.tokens[1];
            c.pages += 1;
            for (k, v) in p.values.iter().enumerate() {
                let map = if k < p.parents_from {
                    &mut c.trigrams
                } else {
                    &mut c.parents
                };
                let n = p.counts[k];
                if let Some(e) = map.get_mut(v) {
                    e[0] += n[0];
                    e[1] += n[1];
                } else {
                    map.insert(v.clone(), n);
                }
            }
        }
        if c.tokens[0] + c.tokens[1] == 0 {
            return Err(Error::Train("MSS: the training pages hold no token".into()));
        }
        Ok(MssModel::from_counts(&c))
    }

    /// The words of the maximum-scoring subsequence of `p − threshold` (θ).
    fn extract_text(&self, body: &MssModel, page: &MssPage, threshold: f64) -> String {
        let prior = body.prior();
        let scores = page.features.iter().map(|&(tri, parent)| {
            body.evidence_of(
                prior,
                &page.values[tri as usize],
                &page.values[parent as usize],
            )
            .probability()
                - threshold
        });
        match max_subsequence(scores) {
            Some((i, j, _)) => {
                let start = page.at[i] as usize;
                let end = page.at.get(j + 1).map_or(page.words.len(), |&e| e as usize);
                page.words
                    .get(start..end)
                    .unwrap_or("")
                    .trim_end()
                    .to_string()
            }
            None => String::new(),
        }
    }

    fn extractor(&self, name: &str, model: ModelFile<MssModel>) -> Arc<dyn Extractor> {
        Arc::new(Mss::named(Arc::new(model.body), name))
    }
}

#[cfg(test)]
mod tests;
