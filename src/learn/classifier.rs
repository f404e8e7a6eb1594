//! A trained block classifier as an [`Extractor`]: each atomic text block of the page gets a
//! probability of being main content from the model; the blocks with probability ≥ `threshold`
//! are selected (their text, in the normal form).
//!
//! Trace (node unit = the page's blocks in order, each placed by its extent, so a text line
//! shows the probability of the block its text belongs to): `p` (content signal, the
//! probability), `threshold` (threshold scalar), `blocks` (candidates: every block), `selected`
//! (selected: the blocks at or above the threshold). The inspector draws the probabilities as
//! bars and the threshold as a slider with no knowledge of the model.

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
];

/// A block classifier loaded from a model file.
pub struct BlockClassifier {
    info: AlgoInfo,
    names: Vec<String>,
    threshold: ParamSpec,
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
        let info = AlgoInfo {
            name: Cow::Owned(name.to_string()),
            description: Cow::Owned(format!("learned ({}): {}", method.name, method.description)),
            source: Cow::Borrowed(method.source),
            params: Cow::Owned(vec![spec.clone()]),
            phases: Cow::Borrowed(PHASES),
            needs_dom: true,
        };
        BlockClassifier {
            info,
            names,
            threshold: spec,
            featurize,
            rows_key: MemoKey::new(rows_key),
            scorer,
        }
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
        let p = self.probabilities(page);
        let blocks = page.blocks();
        let mut sel = Vec::new();
        for (i, &pi) in p.iter().enumerate() {
            if pi >= t {
                sel.extend(blocks.ranges(i).iter().cloned());
            }
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
            scalars: vec![Scalar::new(
                THRESHOLD,
                "threshold",
                None,
                Role::Threshold,
                t,
            )],
            marks: vec![
                Marks::new(
                    "blocks",
                    "atomic text blocks",
                    Unit::Node,
                    Role::Candidates,
                    runs(0..n),
                ),
                Marks::new(
                    "selected",
                    "blocks at or above the threshold",
                    Unit::Node,
                    Role::Selected,
                    runs((0..n).filter(|&i| p[i] >= t)),
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
        let verdict = if p >= t {
            format!("p = {} ≥ threshold {} → selected", ex::num(p), ex::num(t))
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
        let x = c.run(&page, &Params::defaults(c.params()));
        let line = page
            .lines()
            .line_of(page.text().find("Menu").unwrap())
            .unwrap();
        let why = c.explain(&page, &x, crate::extract::Location::Line(line), None);
        assert!(why.iter().any(|s| s.contains("long = 0")), "{why:?}");
        assert_eq!(CALLS.load(Ordering::SeqCst) - before, 1);
        // A new page is featurised again.
        let other = Page::from_text("u.html", "<p>One two three four.</p>");
        assert_eq!(c.probabilities(&other).len(), other.blocks().len());
        assert_eq!(CALLS.load(Ordering::SeqCst) - before, 2);
    }
}
