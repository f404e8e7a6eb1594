//! A trained block classifier as an [`Extractor`]: each atomic text block of the page gets a
//! probability of being main content from the model; the blocks with probability ≥ `threshold`
//! are selected (their text, in the normal form).
//!
//! Trace (node unit = the page's blocks in order, each placed by its extent, so a text line
//! shows the probability of the block its text belongs to): `p` (content signal, the
//! probability), `threshold` (threshold scalar), `blocks` (candidates: every block), `selected`
//! (selected: the blocks at or above the threshold, and those the short-result fallback
//! added), `fallback` (info scalar: 1 when the fallback added blocks), `fallback_blocks`
//! (candidates: the blocks it offered, the page's largest record group). The inspector draws the
//! probabilities as bars and the threshold as a slider with no knowledge of the model.
//!
//! **Short-result fallback** (parameter `records_fallback`, on for the stacked model — the
//! shipped `learned` — and off for the other block methods; [`select_blocks`]): when the
//! blocks at or above the threshold hold fewer than [`SHORT_CHARS`] characters of text and the
//! page's largest record group ([`crate::page::blocks::Records::largest`], what the `records`
//! extractor selects) holds more, that group's blocks are selected too. The character bound is
//! trafilatura's (`MIN_EXTRACTED_SIZE` = 250 in its `settings.cfg`: an extract shorter than
//! that is "rescued" by a fallback extraction; Mozilla Readability.js retries below 500
//! characters, `DEFAULT_CHAR_THRESHOLD`, which also fires on short articles the model found
//! whole — a 69-word news brief). Why (docs/learning.md): fitted on article
//! corpora, the model drops nearly everything on a page that has no article — a listing of
//! cards, a collection grid, a forum thread whose posts look like comments — and such a page's
//! main content is its items, as records, not one block.

use std::borrow::Cow;

use super::MethodInfo;
use crate::extract::explain::{self as ex, TextLine};
use crate::extract::trace::{
    runs, Key, Marks, Missing, Phase, Positions, Role, Scalar, Series, Trace, Unit,
};
use crate::extract::Capabilities;
use crate::extract::{
    AlgoInfo, Algorithm, Extraction, Extractor, ParamKind, ParamSpec, ParamValue, Params,
};
use crate::page::{MemoKey, Page};
use crate::selection::Selection;

/// A fitted model's verdict on one block's feature row.
pub trait BlockScorer: Send + Sync {
    /// The probability that the block is main content, in `[0, 1]`.
    fn probability(&self, row: &[f64]) -> f64;
    /// Why, one sentence each: the decision path (a tree) or the largest weight × feature
    /// terms (a linear model); `names` are the feature names of the row.
    fn explain(&self, row: &[f64], names: &[String]) -> Vec<String>;
    /// The probability of every block of a page, in block order, from its rows (row-major,
    /// `width` values per block; a last partial row counts as a row): one value per row, each
    /// in `[0, 1]`. Default: [`BlockScorer::probability`] of each row on its own; a sequence
    /// model (the CRF's marginals, [`crate::learn::crf`]) overrides it to see the whole page.
    fn probabilities(&self, rows: &[f64], width: usize) -> Vec<f64> {
        rows.chunks(width.max(1))
            .map(|r| self.probability(r))
            .collect()
    }
}

/// The feature rows of a page's blocks, row-major (as many values per block as the model has
/// feature names).
pub type Featurize = fn(&Page) -> Vec<f64>;

/// A featurizer that carries its own settings (the stack's member extractors): what
/// [`BlockClassifier::with_rows`] takes.
pub type FeaturizeWith = Box<dyn Fn(&Page) -> Vec<f64> + Send + Sync>;

/// The trace items the block classifier reads back in its explanation: built and read by
/// these [`Key`]s.
const P: Key<Series> = Key::new("p");
const THRESHOLD: Key<Scalar> = Key::new("threshold");
const FALLBACK: Key<Scalar> = Key::new("fallback");
const SELECTED: Key<Marks> = Key::new("selected");

/// The fewest characters of text a selection must hold before the short-result fallback
/// leaves it alone (trafilatura's `MIN_EXTRACTED_SIZE`: 250 characters).
pub const SHORT_CHARS: usize = 250;

/// The blocks a block classifier selects, in block order, and whether the short-result
/// fallback added any (see the module documentation): the blocks whose probability in `p` is
/// at least `threshold`; then, when `fallback` holds blocks (the page's largest record group,
/// sorted block indices) and the selected blocks' text (`chars(i)`: characters of block `i`'s
/// text as a reader sees it) is shorter than [`SHORT_CHARS`] characters and than the group's,
/// the group's blocks as well. Indices of `fallback` past `p` are ignored. O(blocks).
pub fn select_blocks(
    p: &[f64],
    threshold: f64,
    fallback: &[usize],
    chars: impl Fn(usize) -> usize,
) -> (Vec<bool>, bool) {
    let mut sel: Vec<bool> = p.iter().map(|&x| x >= threshold).collect();
    if fallback.is_empty() {
        return (sel, false);
    }
    let mut have = 0usize;
    for i in (0..sel.len()).filter(|&i| sel[i]) {
        have += chars(i);
        if have >= SHORT_CHARS {
            return (sel, false);
        }
    }
    let group: usize = fallback
        .iter()
        .filter(|&&i| i < sel.len())
        .map(|&i| chars(i))
        .sum();
    if group <= have {
        return (sel, false);
    }
    let mut added = false;
    for &i in fallback {
        if let Some(s) = sel.get_mut(i) {
            added |= !*s;
            *s = true;
        }
    }
    (sel, added)
}

/// The largest record group's blocks of `page` (sorted; empty without a group): what the
/// short-result fallback offers ([`select_blocks`]).
pub fn fallback_blocks(page: &Page) -> Vec<usize> {
    let records = page.records();
    records
        .largest()
        .map(|g| records.group_blocks(g))
        .unwrap_or_default()
}

/// The parameter that switches the short-result fallback on or off.
fn fallback_spec(on: bool) -> ParamSpec {
    ParamSpec {
        name: Cow::Borrowed("records_fallback"),
        kind: ParamKind::Bool,
        default: ParamValue::Bool(on),
        help: "when the selected blocks hold fewer than 250 characters, also select the page's largest record group if it holds more (a listing's items, a thread's posts)",
        source: "trafilatura's MIN_EXTRACTED_SIZE (250 characters, its rescue of short extracts); cescope's record groups (page::blocks::records)",
    }
}

const PHASES: &[Phase] = &[
    Phase::new(
        "probabilities",
        "each atomic text block's features go through the trained model: its probability of being main content",
        &["p", "blocks"],
    ),
    Phase::new(
        "threshold",
        "the blocks whose probability reaches the threshold are selected",
        &["threshold", "selected"],
    ),
    Phase::new(
        "fallback",
        "a selection shorter than 250 characters takes the page's largest record group too, when that holds more",
        &["fallback", "fallback_blocks"],
    ),
];

/// A block classifier loaded from a model file.
pub struct BlockClassifier {
    info: AlgoInfo,
    names: Vec<String>,
    threshold: ParamSpec,
    fallback: ParamSpec,
    featurize: FeaturizeWith,
    /// The page memo key of the rows: one key per featurizer ([`MethodInfo::name`], or the
    /// key given to [`BlockClassifier::with_rows`]).
    rows_key: MemoKey<Vec<f64>>,
    scorer: Box<dyn BlockScorer>,
}

impl BlockClassifier {
    /// The extractor `name` of a model of `method` with feature `names`, default `threshold`,
    /// rows from `featurize` and verdicts from `scorer`.
    pub fn new(
        name: &str,
        method: &'static MethodInfo,
        names: Vec<String>,
        threshold: f64,
        featurize: Featurize,
        scorer: Box<dyn BlockScorer>,
    ) -> BlockClassifier {
        BlockClassifier::with_rows(
            name,
            method,
            names,
            threshold,
            method.name,
            Box::new(featurize),
            scorer,
        )
    }

    /// As [`BlockClassifier::new`], with rows from `featurize` kept in the page's memo under
    /// `rows_key` — a key of its own for each distinct featurizer (two featurizers under one
    /// key would read each other's rows).
    pub fn with_rows(
        name: &str,
        method: &'static MethodInfo,
        names: Vec<String>,
        threshold: f64,
        rows_key: &'static str,
        featurize: FeaturizeWith,
        scorer: Box<dyn BlockScorer>,
    ) -> BlockClassifier {
        let spec = ParamSpec {
            name: Cow::Borrowed("threshold"),
            kind: ParamKind::Float {
                min: 0.0,
                max: 1.0,
                step: 0.05,
            },
            default: ParamValue::Float(threshold.clamp(0.0, 1.0)),
            help: "blocks whose probability of main content is at least this are selected (default: the model file's)",
            source: "the model file (cescope train)",
        };
        let fallback = fallback_spec(false);
        let info = AlgoInfo {
            name: Cow::Owned(name.to_string()),
            description: Cow::Owned(format!("learned ({}): {}", method.name, method.description)),
            source: Cow::Borrowed(method.source),
            params: Cow::Owned(vec![spec.clone(), fallback.clone()]),
            phases: Cow::Borrowed(PHASES),
            needs_dom: true,
        };
        BlockClassifier {
            info,
            names,
            threshold: spec,
            fallback,
            featurize,
            rows_key: MemoKey::new(rows_key),
            scorer,
        }
    }

    /// The same classifier with the short-result fallback on by default ([`select_blocks`];
    /// `--set records_fallback=false` still turns it off).
    pub fn with_records_fallback(mut self) -> BlockClassifier {
        self.fallback = fallback_spec(true);
        self.info.params = Cow::Owned(vec![self.threshold.clone(), self.fallback.clone()]);
        self
    }

    /// The same classifier described as `description` (what `cescope algos` and the inspector
    /// show) instead of its method's description.
    pub fn with_description(mut self, description: String) -> BlockClassifier {
        self.info.description = std::borrow::Cow::Owned(description);
        self
    }

    /// The feature rows of `page`'s blocks (row-major, one row of the model's feature count
    /// per block, in block order), computed once per page and method and kept in the page's
    /// memo ([`Page::memo`]): a slider move or an explanation re-scores the rows without
    /// re-running the member extractors and the featurizer.
    fn rows(&self, page: &Page) -> std::sync::Arc<Vec<f64>> {
        page.memo(self.rows_key, || (self.featurize)(page))
    }

    /// The probability of every block of `page`, in block order.
    pub fn probabilities(&self, page: &Page) -> Vec<f64> {
        let rows = self.rows(page);
        let n = self.names.len().max(1);
        self.scorer
            .probabilities(&rows, n)
            .into_iter()
            .map(|p| p.clamp(0.0, 1.0))
            .collect()
    }
}

impl Algorithm for BlockClassifier {
    fn info(&self) -> &AlgoInfo {
        &self.info
    }
}

impl Extractor for BlockClassifier {
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let t: f64 = params.read(&self.threshold);
        let on: bool = params.read(&self.fallback);
        let p = self.probabilities(page);
        let blocks = page.blocks();
        let offered = if on {
            fallback_blocks(page)
        } else {
            Vec::new()
        };
        let dom = page.dom();
        // One buffer for the blocks' texts the fallback counts (a slider move re-runs this).
        let buf = std::cell::RefCell::new(String::new());
        let (chosen, fired) = select_blocks(&p, t, &offered, |i| {
            let mut b = buf.borrow_mut();
            blocks.text_into(dom, i, &mut b);
            b.chars().count()
        });
        let mut sel = Vec::new();
        for i in (0..chosen.len()).filter(|&i| chosen[i]) {
            sel.extend(blocks.ranges(i).iter().cloned());
        }
        let selection = page.normalize(&Selection::from_ranges(sel));
        let n = p.len();
        let trace = Trace {
            series: vec![Series::new(
                P,
                "probability of main content",
                Unit::Node,
                Role::ContentSignal,
                p.clone(),
            )],
            scalars: vec![
                Scalar::new(THRESHOLD, "threshold", None, Role::Threshold, t),
                Scalar::new(
                    FALLBACK,
                    "1 when the short-result fallback added the largest record group",
                    None,
                    Role::Info,
                    f64::from(u8::from(fired)),
                ),
            ],
            marks: vec![
                Marks::new(
                    "blocks",
                    "atomic text blocks",
                    Unit::Node,
                    Role::Candidates,
                    runs(0..n),
                ),
                Marks::new(
                    SELECTED.name(),
                    "blocks at or above the threshold (and the fallback's, when it fired)",
                    Unit::Node,
                    Role::Selected,
                    runs((0..n).filter(|&i| chosen[i])),
                ),
                Marks::new(
                    "fallback_blocks",
                    "the blocks the short-result fallback offers: the page's largest record group",
                    Unit::Node,
                    Role::Candidates,
                    runs(offered.iter().copied().filter(|&i| i < n)),
                ),
            ],
            positions: vec![Positions {
                unit: Unit::Node,
                ranges: blocks.blocks().iter().map(|b| b.extent.clone()).collect(),
            }],
        };
        Extraction { selection, trace }
    }

    fn needs_dom(&self) -> bool {
        true
    }

    /// `p`: one probability per block, in block order.
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            block_probability: Some(P),
            ..Capabilities::default()
        }
    }

    /// On a line of text: its block's probability against the threshold — `text block #12
    /// (lines 40–43): p = 0.91 ≥ threshold 0.5 → selected` (numbered as every view numbers
    /// blocks, [`crate::page::Blocks::number`]) — then the model's reasons for that block
    /// ([`BlockScorer::explain`]).
    fn explain_text_line(&self, page: &Page, trace: &Trace, line: &TextLine) -> Vec<String> {
        ex::or_missing(self.explain_line(page, trace, line))
    }
}

impl BlockClassifier {
    /// [`Extractor::explain_text_line`]'s sentences, reading the trace through its typed keys.
    /// Errors: [`Missing`] when the trace lacks an item it reads.
    fn explain_line(
        &self,
        page: &Page,
        trace: &Trace,
        line: &TextLine,
    ) -> Result<Vec<String>, Missing> {
        let k = line.block;
        let p = ex::value(trace, P, k)?;
        let t = trace.scalar_of(THRESHOLD)?;
        let by_fallback = p < t && trace.is_marked(SELECTED, k)?;
        let verdict = if p >= t {
            format!("p = {} ≥ threshold {} → selected", ex::num(p), ex::num(t))
        } else if by_fallback {
            format!(
                "p = {} < threshold {}, but the blocks at or above it held fewer than \
                 {SHORT_CHARS} characters and this block is in the page's largest record \
                 group → selected by the short-result fallback",
                ex::num(p),
                ex::num(t)
            )
        } else {
            format!(
                "p = {} < threshold {} → not selected",
                ex::num(p),
                ex::num(t)
            )
        };
        let first = format!(
            "text block #{} ({}): {verdict}",
            crate::page::Blocks::number(k),
            ex::element_lines(page, trace, k)
        );
        let rows = self.rows(page);
        let n = self.names.len();
        let reasons = rows
            .get(k * n..(k + 1) * n)
            .map(|row| self.scorer.explain(row, &self.names))
            .unwrap_or_default();
        Ok(ex::sentences(page, line, first, reasons))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    static CALLS: AtomicUsize = AtomicUsize::new(0);

    /// One feature per block: 1 for a block of more than two words, else 0; counts its calls.
    fn featurize(page: &Page) -> Vec<f64> {
        CALLS.fetch_add(1, Ordering::SeqCst);
        page.blocks()
            .blocks()
            .iter()
            .map(|b| if b.features.words > 2 { 1.0 } else { 0.0 })
            .collect()
    }

    /// The probability is the feature, pulled into (0.1, 0.9).
    struct Toy;
    impl BlockScorer for Toy {
        fn probability(&self, row: &[f64]) -> f64 {
            0.1 + 0.8 * row[0]
        }
        fn explain(&self, row: &[f64], names: &[String]) -> Vec<String> {
            vec![format!("{} = {}", names[0], row[0])]
        }
    }

    static TOY: MethodInfo = MethodInfo {
        name: "classifier-test",
        description: "a toy",
        source: "none",
        fitter: None,
    };

    /// The explanation, at its default parameters, of the line holding `needle`.
    fn why_at(c: &BlockClassifier, page: &Page, needle: &str) -> Vec<String> {
        let x = c.run(page, &Params::defaults(c.params()));
        let line = page
            .lines()
            .line_of(page.text().find(needle).unwrap())
            .unwrap();
        c.explain(page, &x, crate::extract::Location::Line(line), None)
    }

    #[test]
    fn select_blocks_falls_back_to_the_group_only_when_short() {
        let p = [0.9, 0.1, 0.1, 0.1, 0.9];
        // Block 0 and 4 selected; the group is blocks 1–3.
        let group = [1, 2, 3];
        let sizes = |selected: usize, grouped: usize| {
            move |i: usize| {
                if matches!(i, 0 | 4) {
                    selected
                } else {
                    grouped
                }
            }
        };
        // Long enough (2 × 125 = 250 characters): left alone.
        let (sel, fired) = select_blocks(&p, 0.5, &group, sizes(125, 1000));
        assert_eq!(sel, [true, false, false, false, true]);
        assert!(!fired);
        // Short (2 × 124 = 248), and the group holds more: the group is added.
        let (sel, fired) = select_blocks(&p, 0.5, &group, sizes(124, 100));
        assert_eq!(sel, [true, true, true, true, true]);
        assert!(fired);
        // Short, but the group holds no more than the selection (3 × 80 = 240 < 248): alone.
        let (sel, fired) = select_blocks(&p, 0.5, &group, sizes(124, 80));
        assert_eq!(sel, [true, false, false, false, true]);
        assert!(!fired);
        // Nothing selected, no group: nothing.
        let (sel, fired) = select_blocks(&[0.1, 0.2], 0.5, &[], |_| 10);
        assert_eq!(sel, [false, false]);
        assert!(!fired);
        // Nothing selected: the group, its indices past the blocks ignored.
        let (sel, fired) = select_blocks(&[0.1, 0.2], 0.5, &[1, 7], |_| 10);
        assert_eq!(sel, [false, true]);
        assert!(fired);
    }

    /// A listing of three cards whose words the toy scores low: on by the switch, the run
    /// selects the cards (the largest record group) and says so in its trace; off, nothing.
    #[test]
    fn the_fallback_selects_a_listings_records_when_switched_on() {
        fn none(page: &Page) -> Vec<f64> {
            vec![0.0; page.blocks().len()]
        }
        let cards: String = (1..=3)
            .map(|k| {
                format!(
                    "<div class=card><h2><a href=/{k}>Card {k} title</a></h2>\
                     <p>Short text of card {k}, a few words.</p></div>"
                )
            })
            .collect();
        let page = Page::from_text(
            "t.html",
            format!("<html><body><div class=list>{cards}</div></body></html>"),
        );
        assert!(
            !fallback_blocks(&page).is_empty(),
            "the cards are a record group"
        );
        let off = BlockClassifier::new("toy", &TOY, vec!["x".into()], 0.5, none, Box::new(Toy));
        let on = BlockClassifier::new("toy", &TOY, vec!["x".into()], 0.5, none, Box::new(Toy))
            .with_records_fallback();
        let run = |c: &BlockClassifier, set: Option<bool>| {
            let mut p = Params::defaults(c.params());
            if let Some(b) = set {
                p.set_named(c.params(), "records_fallback", ParamValue::Bool(b))
                    .unwrap();
            }
            let e = c.run(&page, &p);
            let fired = e.trace.scalar_of(FALLBACK).ok();
            (page.render(&e.selection), fired)
        };
        let (text, fired) = run(&on, None);
        for k in 1..=3 {
            assert!(text.contains(&format!("Card {k} title")), "{text}");
            assert!(text.contains(&format!("Short text of card {k}")), "{text}");
        }
        assert_eq!(fired, Some(1.0));
        let why = why_at(&on, &page, "Short text of card 2");
        assert!(
            why.iter().any(|s| s.contains("short-result fallback")),
            "{why:?}"
        );
        let (text, fired) = run(&on, Some(false));
        assert!(text.trim().is_empty(), "{text}");
        assert_eq!(fired, Some(0.0));
        let (text, _) = run(&off, None);
        assert!(
            text.trim().is_empty(),
            "off by default for other block methods: {text}"
        );
    }

    /// The rows are computed once per page: re-running at other thresholds (a slider) and
    /// explaining lines score the page's memoised rows.
    #[test]
    fn thresholds_select_and_the_rows_are_computed_once_per_page() {
        let c = BlockClassifier::new(
            "toy",
            &TOY,
            vec!["long".into()],
            0.5,
            featurize,
            Box::new(Toy),
        );
        let page = Page::from_text(
            "t.html",
            "<html><body><p>One two three four.</p><p>Menu</p><p>Five six seven.</p></body></html>",
        );
        let at = |t: f64| {
            let mut p = Params::defaults(c.params());
            p.set_named(c.params(), "threshold", ParamValue::Float(t))
                .unwrap();
            page.render(&c.run(&page, &p).selection)
        };
        let before = CALLS.load(Ordering::SeqCst);
        let half = at(0.5);
        assert!(half.contains("One two three four") && half.contains("Five six seven"));
        assert!(!half.contains("Menu"), "{half}");
        assert!(at(0.05).contains("Menu"));
        assert_eq!(at(0.95), "");
        let why = why_at(&c, &page, "Menu");
        assert!(why.iter().any(|s| s.contains("long = 0")), "{why:?}");
        assert_eq!(CALLS.load(Ordering::SeqCst) - before, 1);
        // A new page is featurised again.
        let other = Page::from_text("u.html", "<p>One two three four.</p>");
        assert_eq!(c.probabilities(&other).len(), other.blocks().len());
        assert_eq!(CALLS.load(Ordering::SeqCst) - before, 2);
    }
}
