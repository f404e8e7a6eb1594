//! The extraction contract and its machinery: what an extractor is, what it hands back, and
//! what every algorithm builds on. No algorithm lives here (they are in `crate::algorithms`,
//! the learned ones in `crate::learn`), and nothing here knows which extractors exist (that is
//! `crate::extractors`, the one registry).
//!
//! An [`Extractor`] is pure and deterministic: `run(&Page, &Params) -> Extraction`, no I/O, no
//! global state, safe to call from many threads (`Send + Sync`). Its parameters are described by
//! [`ParamSpec`]s — name, kind, published default, range, step and source — which drive the
//! command line's `--set`, `cescope algos`, the inspector's sliders and the genetic optimiser
//! ("the parameter description", Gottron 2009, Fig. 2). An extractor reads every value through
//! its spec (`params.int(&GAP)`), so the published default is written once, in the spec.
//!
//! An [`Extraction`] is a [`Selection`] plus a [`Trace`]: what the algorithm computed, described
//! well enough that no view needs to know the algorithm ([`trace`]): every series, mark set and
//! scalar declares a key, a label, a [`Unit`] (virtual line, raw line, token, DOM node, byte) and
//! a [`Role`] (content / code / combined signal, size, threshold, candidates, seed, selected,
//! bound, …); token and node indices are placed on the page by [`Trace::positions`].
//! [`to_lines`] aggregates any trace to the lines a view shows. [`Algorithm::phases`] names, per
//! step, the trace keys it reveals ([`Phase`]); [`Extractor::explain`] explains a [`Location`]
//! (line, byte, token, node), by default from the trace alone ([`explain_generic`]).
//!
//! The room holds:
//!
//! - this file: [`Extraction`], [`AlgoInfo`], [`Algorithm`], [`Extractor`], the default
//!   explanation and step mode's unfolding ([`unfold_order`], [`unfolded`]);
//! - [`params`] (parameter specs and the typed values an algorithm reads), [`trace`] (units,
//!   roles, series, marks, scalars, [`to_lines`], the generic explanation, phases);
//! - [`explain`] (what the DOM algorithms' own explanations start from), [`candidates`] (the
//!   region / block table of any trace);
//! - what several algorithms compute alike: [`signal`] (the one Gaussian and convolution, the
//!   one maximum-sum search), [`cluster`] (k-means via linfa), [`preprocess`] (the hyperlink
//!   filters of Mohammadzadeh 2013, 4.6.1);
//! - [`headline`]: the sibling contract of headline finders ([`headline::HeadlineFinder`]) and
//!   what every finder shares.
//!
//! **May import**: `crate::page`, `crate::selection`, `crate::error`, `crate::metrics`,
//! `crate::lang` (the layers below). Never `crate::algorithms`, `crate::learn`,
//! `crate::extractors` or anything above them; `tests/module_graph.rs` checks it.

pub mod candidates;
pub mod cluster;
pub mod explain;
pub mod headline;
pub mod params;
pub mod preprocess;
pub mod signal;
pub mod trace;

pub use params::{find_spec, Choice, ParamKind, ParamSpec, ParamType, ParamValue, Params, Text};
pub use trace::{
    explain_generic, explain_generic_known, revealed, to_lines, Agg, Item, Key, Keys, LineMarks,
    LineSeries, LineTrace, Location, Marks, Missing, Phase, Positions, Role, Scalar, Series, Step,
    Trace, Unit,
};

use std::borrow::Cow;

use serde::Serialize;

use crate::page::Page;
use crate::selection::Selection;

/// The result of one run: the selection and the trace.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Extraction {
    /// What the algorithm selected, as byte ranges over the decoded text.
    pub selection: Selection,
    /// How it got there.
    pub trace: Trace,
}

/// What every algorithm says about itself — extractors, headline finders, filter sets and
/// learned methods alike: the registered name, a one-line description, the source it
/// implements, its parameters and its phases for step mode. The views, commands and tests read
/// an algorithm only through this and its trace. Built-in algorithms keep one in a `static`
/// (all fields borrowed); a filter set loaded from a file or a trained model owns its texts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlgoInfo {
    /// Registered name (`--algo NAME`, `--method NAME`), lower case.
    pub name: Text,
    /// One-line description, with the source paper in parentheses.
    pub description: Text,
    /// The paper, section and formula / algorithm numbers it implements.
    pub source: Text,
    /// The parameters, with published defaults ([`ParamSpec`]).
    pub params: Cow<'static, [ParamSpec]>,
    /// The phases for step mode, in order, each with the trace keys it reveals ([`Phase`]).
    pub phases: Cow<'static, [Phase]>,
    /// True if the algorithm needs the DOM (and so is slower to start on a fresh page).
    pub needs_dom: bool,
}

impl AlgoInfo {
    /// The info of a built-in algorithm, from literals (usable in `static`s).
    pub const fn new(
        name: &'static str,
        description: &'static str,
        source: &'static str,
        params: &'static [ParamSpec],
        phases: &'static [Phase],
    ) -> AlgoInfo {
        AlgoInfo {
            name: Cow::Borrowed(name),
            description: Cow::Borrowed(description),
            source: Cow::Borrowed(source),
            params: Cow::Borrowed(params),
            phases: Cow::Borrowed(phases),
            needs_dom: false,
        }
    }

    /// The same info for an algorithm that needs the DOM ([`AlgoInfo::needs_dom`]).
    #[must_use]
    pub const fn with_dom(mut self) -> AlgoInfo {
        self.needs_dom = true;
        self
    }
}

/// The parameters of an algorithm without parameters.
pub const NO_PARAMS: &[ParamSpec] = &[];

/// The one phase of an algorithm that does not describe its steps.
pub const ONE_PHASE: &[Phase] = &[Phase::new(
    "run",
    "the algorithm runs and selects the main content",
    &[],
)];

/// The descriptive part of every algorithm ([`AlgoInfo`]), shared by [`Extractor`] and
/// [`headline::HeadlineFinder`]; the accessors read the info.
pub trait Algorithm: Send + Sync {
    /// Name, description, source, parameters and phases.
    fn info(&self) -> &AlgoInfo;
    /// Registered name (`--algo NAME`).
    fn name(&self) -> &str {
        &self.info().name
    }
    /// One-line description with the source paper.
    fn describe(&self) -> &str {
        &self.info().description
    }
    /// The parameters, with published defaults.
    fn params(&self) -> &[ParamSpec] {
        &self.info().params
    }
    /// The phases for step mode, in order, each with the trace keys it reveals ([`Phase`],
    /// [`revealed`]).
    fn phases(&self) -> &[Phase] {
        &self.info().phases
    }
}

/// An algorithm whose [`AlgoInfo`] is a `static` (the built-in single algorithms): one line
/// gives it [`Algorithm`].
pub trait StaticInfo: Send + Sync {
    /// The algorithm's info.
    const INFO: &'static AlgoInfo;
}

impl<T: StaticInfo> Algorithm for T {
    fn info(&self) -> &AlgoInfo {
        T::INFO
    }
}

/// A main content extraction algorithm.
pub trait Extractor: Algorithm {
    /// Runs the algorithm. Pure and deterministic; never panics on any page.
    fn run(&self, page: &Page, params: &Params) -> Extraction;
    /// True if the algorithm needs the DOM ([`AlgoInfo::needs_dom`]).
    fn needs_dom(&self) -> bool {
        self.info().needs_dom
    }
    /// The algorithm's decision at `at`, in words, for the inspector's explain panel (one
    /// string per sentence; the first names the location), as known at `step` of
    /// [`Algorithm::phases`] (`None`: the whole run). Step mode shows it, so the text at phase
    /// k says only what phases up to k computed. The default: on a line of text in the whole
    /// run the algorithm's own wording ([`Extractor::explain_text_line`]), elsewhere (or when it
    /// has none) [`explain_default`], which reads the trace alone ([`explain::on_text_lines`]).
    fn explain(
        &self,
        page: &Page,
        x: &Extraction,
        at: Location,
        step: Option<Step>,
    ) -> Vec<String> {
        explain::on_text_lines(self, page, x, at, step)
    }
    /// The algorithm's own wording of its decision on a line of text (whole run; for a DOM
    /// algorithm the element whose bar the line shows, [`explain::TextLine`]), one string per
    /// sentence. Empty (the default): the generic explanation.
    fn explain_text_line(
        &self,
        page: &Page,
        trace: &Trace,
        line: &explain::TextLine,
    ) -> Vec<String> {
        let _ = (page, trace, line);
        Vec::new()
    }
    /// What this extractor can do beyond a run and its explanation, each capability asked for
    /// by the one caller that needs it ([`Capabilities`]: step mode's unfolding, bench's text
    /// stage, active learning's block probability). Default: none of them.
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities::default()
    }
    /// Doubts about the run `x` on `page` that did not stop it, one sentence each (a reference
    /// extractor's output that aligned poorly to the page, `crate::algorithms::reference`);
    /// `eval` and `extract` print them. Default: none.
    fn warnings(&self, page: &Page, x: &Extraction) -> Vec<String> {
        let _ = (page, x);
        Vec::new()
    }
}

/// The optional capabilities of an [`Extractor`] ([`Extractor::capabilities`]): each is needed
/// by one caller, so the trait itself keeps only what every extractor has (a run, its
/// explanation, its warnings). A wrapper (a guideline over an extractor) passes its inner
/// extractor's on.
#[derive(Clone, Copy, Default)]
pub struct Capabilities<'a> {
    /// Phases that play out span by span in step mode (DANA's gap expansion, region by region
    /// from the seed): [`unfolding`] walks those spans in [`unfold_order`].
    pub unfolding: Option<&'a dyn Unfolding>,
    /// For an extractor that wraps another program's text output (a reference extractor,
    /// `crate::algorithms::reference`): its two stages, the program's run and the alignment of
    /// its text to the page, so `cescope bench` times them apart.
    pub text_stage: Option<&'a dyn TextStage>,
    /// The key of the trace series that holds each atomic text block's **probability of main
    /// content**, when the extractor computes one (a learned block classifier's `p`): role
    /// [`Role::ContentSignal`], unit [`Unit::Node`] numbered as the page's blocks
    /// ([`Page::blocks`], one value per block, in block order), values in `[0, 1]`. What the
    /// active-learning order of the review queue reads (`crate::learn::active`).
    pub block_probability: Option<Key<Series>>,
}

/// An extractor whose step mode plays a phase out span by span ([`Capabilities::unfolding`]).
pub trait Unfolding: Send + Sync {
    /// The key of the marks that phase `step` reveals one span at a time, if it does (DANA's
    /// gap expansion: `selected`, region by region from the seed); `None` for a phase shown
    /// at once.
    fn unfolds(&self, step: usize) -> Option<Key<Marks>>;
}

/// True when `step` shows the whole run of an algorithm with `phases` (no step, or its last
/// phase): an algorithm with its own explanation gives it then and [`explain_default`] before.
pub fn is_whole_run(phases: &[Phase], step: Option<Step>) -> bool {
    step.is_none_or(|s| s.phase + 1 >= phases.len())
}

/// The explanation at `at` from the trace alone, as known at `step`: for the whole run
/// ([`is_whole_run`]) [`explain_generic`] — every series' value there with label and unit,
/// the threshold and bound scalars, the marks that contain it with their roles; before, the
/// same with only the trace items revealed so far ([`revealed`]) and the unfolding marks cut
/// to the revealed spans ([`unfolded`]).
pub fn explain_default<E: Extractor + ?Sized>(
    e: &E,
    page: &Page,
    x: &Extraction,
    at: Location,
    step: Option<Step>,
) -> Vec<String> {
    let phases = e.phases();
    match step {
        Some(s) if !is_whole_run(phases, step) => {
            let known = |k: &str| revealed(phases, Some(s.phase), k);
            match s.unfolded {
                Some(k) => {
                    let y = unfolded(e, x, s.phase, k);
                    explain_generic_known(page, &y.trace, at, &known)
                }
                None => explain_generic_known(page, &x.trace, at, &known),
            }
        }
        _ => explain_generic(page, &x.trace, at),
    }
}

/// The order in which an unfolding phase ([`Unfolding::unfolds`]) reveals `spans`: the span
/// overlapping `seed` first (else the first), then outwards, the nearer neighbour (in units
/// between them) first, the left one on ties — the order in which Algorithm 1's gap expansion
/// reaches regions from the seed. Returns indices into `spans`.
pub fn unfold_order(
    spans: &[std::ops::Range<usize>],
    seed: Option<&std::ops::Range<usize>>,
) -> Vec<usize> {
    if spans.is_empty() {
        return Vec::new();
    }
    let start = seed
        .and_then(|s| {
            spans
                .iter()
                .position(|r| r.start < s.end && s.start < r.end)
        })
        .unwrap_or(0);
    let mut order = vec![start];
    let (mut lo, mut hi) = (start, start);
    while order.len() < spans.len() {
        let left = lo
            .checked_sub(1)
            .map(|l| spans[lo].start.saturating_sub(spans[l].end));
        let right =
            (hi + 1 < spans.len()).then(|| spans[hi + 1].start.saturating_sub(spans[hi].end));
        match (left, right) {
            (Some(l), Some(r)) if l <= r => {
                lo -= 1;
                order.push(lo);
            }
            (Some(_), None) => {
                lo -= 1;
                order.push(lo);
            }
            _ => {
                hi += 1;
                order.push(hi);
            }
        }
    }
    order
}

/// The unfolding phase `step` of `e` on `x` ([`Unfolding::unfolds`]): the key of the marks it
/// reveals one span at a time and their reveal order ([`unfold_order`], from the first span
/// of the trace's seed marks in the same unit). `None` when `step` does not unfold or the
/// trace has no such marks.
pub fn unfolding<E: Extractor + ?Sized>(
    e: &E,
    x: &Extraction,
    step: usize,
) -> Option<(&'static str, Vec<usize>)> {
    let key = e.capabilities().unfolding?.unfolds(step)?;
    let m = x.trace.get(key).ok()?;
    let seed = x
        .trace
        .marks
        .iter()
        .find(|s| s.role == Role::Seed && s.unit == m.unit)
        .and_then(|s| s.spans.first());
    Some((key.name(), unfold_order(&m.spans, seed)))
}

/// `x` as known after the first `k` spans of the unfolding phase `step` of `e`
/// ([`unfolding`]): the unfolding marks keep those `k` spans (in document order), everything
/// else is `x`'s. Step mode explains with it, so the text at "k revealed" says nothing about
/// the spans still to come. Outside an unfolding phase, a copy of `x`. O(size of the trace).
pub fn unfolded<E: Extractor + ?Sized>(e: &E, x: &Extraction, step: usize, k: usize) -> Extraction {
    let mut out = x.clone();
    if let Some((key, order)) = unfolding(e, x, step) {
        if let Some(m) = out.trace.marks.iter_mut().find(|m| m.key == key) {
            let keep: Vec<usize> = order.into_iter().take(k).collect();
            m.spans = std::mem::take(&mut m.spans)
                .into_iter()
                .enumerate()
                .filter(|(j, _)| keep.contains(j))
                .map(|(_, r)| r)
                .collect();
        }
    }
    out
}

/// A wrapped program's text output for one page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Output {
    /// The extracted main content as plain text (empty when the program failed).
    pub text: String,
    /// Why the program produced no text (its error, or its panic message), if it failed.
    pub failure: Option<String>,
}

/// An extractor made of two stages: another program's run producing text, then cescope's
/// alignment of that text to the page. `cescope bench` times the stages apart; the corpus test
/// compares F1 of [`TextStage::output`] with F1 of the aligned selection.
pub trait TextStage: Send + Sync {
    /// The program's text output for `page` with `params`. Never panics (a panic of the
    /// program becomes [`Output::failure`]).
    fn output(&self, page: &Page, params: &Params) -> Output;
    /// `output` located in `page`: the selection in normal form and the trace.
    /// `Extractor::run` is `locate(page, params, &output(page, params))`.
    fn locate(&self, page: &Page, params: &Params, output: &Output) -> Extraction;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unfold_order_goes_outwards_from_the_seed() {
        // Spans at 0..2, 5..7, 8..9, 20..22; seed 5..7: then 8..9 (1 between) before 0..2
        // (3 between), then 20..22.
        let spans = [0..2, 5..7, 8..9, 20..22];
        assert_eq!(unfold_order(&spans, Some(&(5..7))), vec![1, 2, 0, 3]);
        assert_eq!(unfold_order(&spans, None), vec![0, 1, 2, 3]);
        assert!(unfold_order(&[], None).is_empty());
    }
}
