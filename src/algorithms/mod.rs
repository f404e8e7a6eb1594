//! The extractor contract, parameters, traces and the registry of algorithms.
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
//! [`to_lines`] aggregates any trace to the lines a view shows. [`Extractor::phases`] names, per
//! step, the trace keys it reveals ([`Phase`]); [`Extractor::explain`] explains a [`Location`]
//! (line, byte, token, node), by default from the trace alone ([`explain_generic`]).
//!
//! Shared preprocessing (the hyperlink filters of Mohammadzadeh 2013, 4.6.1) is in
//! [`preprocess`].

pub mod bte;
pub mod candidates;
pub mod ccb;
pub mod cetd;
pub mod cetr;
pub mod cluster;
pub mod combine;
pub mod crunch;
pub mod dana;
pub mod density;
pub mod dsc;
pub mod explain;
pub mod fe;
pub mod headline;
pub mod lqf;
pub mod params;
pub mod plain;
pub mod preprocess;
#[cfg(feature = "reference")]
pub mod readability;
pub mod records;
pub mod reference;
pub mod shallow_rules;
pub mod signal;
pub mod sw;
pub mod trace;
#[cfg(feature = "reference")]
pub mod trafilatura;

pub use params::{find_spec, Choice, ParamKind, ParamSpec, ParamType, ParamValue, Params, Text};
pub use trace::{
    explain_generic, explain_generic_known, revealed, to_lines, Agg, Keys, LineMarks, LineSeries,
    LineTrace, Location, Marks, Phase, Positions, Role, Scalar, Series, Step, Trace, Unit,
};

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

use serde::Serialize;

use crate::error::{Error, Result};
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
    /// The key of the marks that phase `step` reveals one span at a time, if it plays out
    /// stepwise (DANA's gap expansion: region by region from the seed). Step mode then walks
    /// those spans in [`unfold_order`] before moving to the next phase. Default: none.
    fn unfolds(&self, step: usize) -> Option<&'static str> {
        let _ = step;
        None
    }
    /// For an extractor that wraps another program's text output (a reference extractor,
    /// [`reference`]): its two stages, the program's run and the alignment of its text to the
    /// page, so `cescope bench` times them apart. Default: none.
    fn text_stage(&self) -> Option<&dyn reference::TextStage> {
        None
    }
    /// The key of the trace series that holds each atomic text block's **probability of main
    /// content**, when the extractor computes one (a learned block classifier's `p`): role
    /// [`Role::ContentSignal`], unit [`Unit::Node`] numbered as the page's blocks
    /// ([`Page::blocks`], one value per block, in block order), values in `[0, 1]`. What the
    /// active-learning order of the review queue reads (`crate::learn::active`). Default: none
    /// (the extractor has no probability signal).
    fn block_probability(&self) -> Option<&'static str> {
        None
    }
    /// Doubts about the run `x` on `page` that did not stop it, one sentence each (a reference
    /// extractor's output that aligned to the page below [`reference::MIN_SHARE`]); `eval` and
    /// `extract` print them. Default: none.
    fn warnings(&self, page: &Page, x: &Extraction) -> Vec<String> {
        let _ = (page, x);
        Vec::new()
    }
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

/// A list of registered algorithms of one kind ([`Extractor`]s, headline finders), in display
/// order, looked up by name.
pub struct Registry<T: ?Sized> {
    items: Vec<Arc<T>>,
}

impl<T: Algorithm + ?Sized> Registry<T> {
    /// A registry of `items` (names must be unique; the registry tests check it).
    pub fn new(items: Vec<Arc<T>>) -> Registry<T> {
        Registry { items }
    }

    /// All entries, in display order.
    pub fn all(&self) -> &[Arc<T>] {
        &self.items
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The entries as a list (shared, cheap to clone).
    pub fn to_vec(&self) -> Vec<Arc<T>> {
        self.items.clone()
    }

    /// The entries, in display order.
    pub fn iter(&self) -> std::slice::Iter<'_, Arc<T>> {
        self.items.iter()
    }

    /// The names, in display order.
    pub fn names(&self) -> Vec<&str> {
        self.items.iter().map(|e| e.name()).collect()
    }

    /// The entry named `name` (ASCII case-insensitive, surrounding white space ignored).
    pub fn get(&self, name: &str) -> Option<Arc<T>> {
        self.items
            .iter()
            .find(|e| e.name().eq_ignore_ascii_case(name.trim()))
            .cloned()
    }

    /// The entry named `name`. Errors: [`Error::UnknownAlgorithm`] listing the names there are.
    pub fn find(&self, name: &str) -> Result<Arc<T>> {
        self.get(name).ok_or_else(|| Error::UnknownAlgorithm {
            name: name.to_string(),
            known: self.names().join(", "),
        })
    }

    /// `all` or a comma-separated list of names, each looked up with `find` (so a caller can
    /// accept more than registered names, e.g. filter-set files). Errors: `find`'s.
    pub fn resolve(
        &self,
        spec: &str,
        find: impl Fn(&str) -> Result<Arc<T>>,
    ) -> Result<Vec<Arc<T>>> {
        if spec.trim().eq_ignore_ascii_case("all") {
            return Ok(self.items.clone());
        }
        spec.split(',').map(|n| find(n.trim())).collect()
    }
}

/// The order in which an unfolding phase ([`Extractor::unfolds`]) reveals `spans`: the span
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

/// The unfolding phase `step` of `e` on `x` ([`Extractor::unfolds`]): the key of the marks it
/// reveals one span at a time and their reveal order ([`unfold_order`], from the first span
/// of the trace's seed marks in the same unit). `None` when `step` does not unfold or the
/// trace has no such marks.
pub fn unfolding<E: Extractor + ?Sized>(
    e: &E,
    x: &Extraction,
    step: usize,
) -> Option<(&'static str, Vec<usize>)> {
    let key = e.unfolds(step)?;
    let m = x.trace.marks(key)?;
    let seed = x
        .trace
        .marks
        .iter()
        .find(|s| s.role == Role::Seed && s.unit == m.unit)
        .and_then(|s| s.spans.first());
    Some((key, unfold_order(&m.spans, seed)))
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

/// The algorithm the inspector starts with when none is named.
pub const DEFAULT_ALGORITHM: &str = "danag";

impl<'a, T: ?Sized> IntoIterator for &'a Registry<T> {
    type Item = &'a Arc<T>;
    type IntoIter = std::slice::Iter<'a, Arc<T>>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

/// All registered extractors, in display order: the single algorithms, then the shipped
/// filter sets ([`combine::shipped`]). Built once per process.
pub fn registry() -> &'static Registry<dyn Extractor> {
    static ALL: LazyLock<Registry<dyn Extractor>> = LazyLock::new(|| {
        let mut all = singles().to_vec();
        all.extend(
            combine::shipped()
                .iter()
                .map(|s| Arc::new(s.clone()) as Arc<dyn Extractor>),
        );
        Registry::new(all)
    });
    &ALL
}

/// The registered single algorithms (no filter sets), in display order: the papers'
/// algorithms, then the reference extractors (feature `reference`). Filter sets are built from
/// these ([`combine::shipped`]).
fn singles() -> &'static [Arc<dyn Extractor>] {
    static SINGLES: LazyLock<Vec<Arc<dyn Extractor>>> = LazyLock::new(|| {
        #[cfg_attr(not(feature = "reference"), allow(unused_mut))]
        let mut v: Vec<Arc<dyn Extractor>> = vec![
            Arc::new(dana::DanaFamily::r2l()),
            Arc::new(dana::DanaFamily::dana()),
            Arc::new(dana::DanaFamily::danag()),
            Arc::new(dana::DanaFamily::addanag()),
            Arc::new(plain::Plain),
            Arc::new(bte::Bte),
            Arc::new(lqf::Lqf),
            Arc::new(dsc::Dsc),
            Arc::new(density::Density),
            Arc::new(cetd::Cetd),
            Arc::new(sw::Sw),
            Arc::new(crunch::Crunch),
            Arc::new(cetr::Cetr),
            Arc::new(fe::FeatureExtractor::fe()),
            Arc::new(fe::FeatureExtractor::kfe()),
            Arc::new(ccb::CcbFamily::ccb()),
            Arc::new(ccb::CcbFamily::accb()),
            Arc::new(ccb::CcbFamily::tccb()),
            Arc::new(records::RecordGroups),
            Arc::new(shallow_rules::ShallowRules::numwords()),
            Arc::new(shallow_rules::ShallowRules::density()),
        ];
        #[cfg(feature = "reference")]
        v.extend([
            Arc::new(reference::Reference::new(trafilatura::Trafilatura)) as Arc<dyn Extractor>,
            Arc::new(reference::Reference::new(readability::Readability)),
        ]);
        v
    });
    &SINGLES
}

/// The names of all registered extractors, in display order.
pub fn names() -> Vec<&'static str> {
    registry().names()
}

/// Looks an extractor up by name (ASCII case-insensitive). A name that is not registered but
/// ends in `.toml` or names an existing file is read as a filter-set file ([`combine::load`]),
/// so `--algo FILE` works wherever a name does. Errors: [`Error::UnknownAlgorithm`],
/// [`Error::FilterSet`].
pub fn find(name: &str) -> Result<Arc<dyn Extractor>> {
    if let Some(e) = registry().get(name) {
        return Ok(e);
    }
    let path = std::path::Path::new(name);
    if name.ends_with(".toml") || path.is_file() {
        return Ok(Arc::new(combine::load(path)?));
    }
    Err(Error::UnknownAlgorithm {
        name: name.to_string(),
        known: names().join(", "),
    })
}

/// Resolves `all` or a comma-separated list of names and filter-set files ([`find`]).
pub fn resolve(spec: &str) -> Result<Vec<Arc<dyn Extractor>>> {
    registry().resolve(spec, find)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_parse_and_validate() {
        let e = find("danag").unwrap();
        let gap = &e.params()[0];
        let smoothing = &e.params()[1];
        let mut p = Params::defaults(e.params());
        assert_eq!(p.read::<i64>(gap), 20);
        p.set_str(e.params(), "gap=7").unwrap();
        assert_eq!(p.read::<i64>(gap), 7);
        assert!(p.set_str(e.params(), "gap=-1").is_err());
        assert!(p.set_str(e.params(), "gap=x").is_err());
        assert!(p.set_str(e.params(), "nope=1").is_err());
        assert!(p.set_str(e.params(), "gap").is_err());
        p.set_str(e.params(), "smoothing=NONE").unwrap();
        assert_eq!(p.read::<dana::Smoothing>(smoothing), dana::Smoothing::None);
        // An absent value reads as the spec's default, never as a literal of the algorithm.
        assert_eq!(Params::default().read::<i64>(gap), 20);
        assert_eq!(
            Params::default().read::<dana::Smoothing>(smoothing),
            dana::Smoothing::ThreeLine
        );
        let r2l = find("r2l").unwrap();
        assert_eq!(
            Params::default().read::<i64>(&r2l.params()[0]),
            8,
            "R2L's published gap"
        );
    }

    #[test]
    fn phases_name_trace_items_and_traces_validate() {
        let page = Page::from_text(
            "t",
            "<ul><li><a href=\"/a/b/c\">x</a></li></ul><p>Some words of text here, and more.</p>",
        );
        for e in registry() {
            let x = e.run(&page, &Params::defaults(e.params()));
            x.trace.validate(&page).unwrap();
            let keys: Vec<&str> = x.trace.keys().collect();
            for p in e.phases() {
                for k in p.reveals.iter() {
                    assert!(
                        keys.contains(&k),
                        "{}: phase {} names {k}",
                        e.name(),
                        p.name
                    );
                }
            }
            // Every drawn item (not Info) is revealed by some phase before the last.
            for s in &x.trace.series {
                assert!(
                    e.phases()
                        .iter()
                        .any(|p| p.reveals.contains(s.key.as_str())),
                    "{}: series {} is in no phase",
                    e.name(),
                    s.key
                );
            }
        }
        let add = find("addanag").unwrap();
        let names: Vec<&str> = add.phases().iter().map(|p| p.name.as_ref()).collect();
        assert_eq!(
            names,
            [
                "preprocessing",
                "filter",
                "T1 / T2",
                "smoothing",
                "regions",
                "seed",
                "gap expansion",
                "extraction"
            ]
        );
    }

    #[test]
    fn specs_are_consistent() {
        for e in registry() {
            for s in e.params() {
                let ok = match (&s.kind, &s.default) {
                    (ParamKind::Int { min, max, .. }, ParamValue::Int(v)) => min <= v && v <= max,
                    (ParamKind::Float { min, max, .. }, ParamValue::Float(v)) => {
                        min <= v && v <= max
                    }
                    (ParamKind::Bool, ParamValue::Bool(_)) => true,
                    (ParamKind::Choice { choices }, ParamValue::Choice(c)) => {
                        choices.contains(&c.as_ref())
                    }
                    _ => false,
                };
                assert!(ok, "{} {}: default does not fit its kind", e.name(), s.name);
                // The spec's own text form parses back to the default.
                assert_eq!(s.parse(&s.default.to_string()).unwrap(), s.default);
            }
        }
    }

    /// Every parameter of every registered extractor and headline finder (registry-driven, so
    /// a new algorithm is checked without a line here): a misspelt name, a value of the wrong
    /// kind and an unknown choice are errors where they are written, and a refused write
    /// changes nothing.
    #[test]
    fn bad_parameter_writes_are_errors_for_every_algorithm() {
        let mut all: Vec<(String, Vec<ParamSpec>)> = registry()
            .iter()
            .map(|e| (e.name().to_string(), e.params().to_vec()))
            .collect();
        all.extend(
            headline::registry()
                .iter()
                .map(|f| (f.name().to_string(), f.params().to_vec())),
        );
        let mut checked = 0;
        for (name, specs) in &all {
            let mut p = Params::defaults(specs);
            let before = p.clone();
            assert!(
                p.set_str(specs, "no_such_parameter=1").is_err(),
                "{name}: a misspelt name"
            );
            for s in specs {
                let wrong = match &s.kind {
                    ParamKind::Int { .. } | ParamKind::Float { .. } => ParamValue::Bool(true),
                    ParamKind::Bool => ParamValue::Int(1),
                    ParamKind::Choice { .. } => ParamValue::Float(0.5),
                };
                assert!(p.set(s, wrong).is_err(), "{name} {}: a wrong kind", s.name);
                let text = match &s.kind {
                    ParamKind::Int { .. } => "1.5",
                    ParamKind::Float { .. } => "high",
                    ParamKind::Bool => "maybe",
                    ParamKind::Choice { .. } => "no-such-choice",
                };
                assert!(
                    p.set_str(specs, &format!("{}={text}", s.name)).is_err(),
                    "{name} {}={text}",
                    s.name
                );
                if let ParamKind::Choice { .. } = s.kind {
                    assert!(
                        p.set(s, ParamValue::choice("no-such-choice")).is_err(),
                        "{name} {}: an unknown choice",
                        s.name
                    );
                }
                checked += 1;
            }
            assert_eq!(p, before, "{name}: refused writes changed the values");
        }
        assert!(checked > 40, "only {checked} parameters seen");
    }

    /// Every spec of every extractor reads back through the typed reader ([`Params::read`])
    /// what was written, and its published default when nothing was: each spec's kind and
    /// default agree with the Rust type the algorithms read it as.
    #[test]
    fn typed_reads_return_what_was_written() {
        for e in registry().iter() {
            for s in e.params() {
                let other = s.step(&s.default, 1);
                let mut p = Params::default();
                p.set(s, other.clone()).unwrap();
                let back = match &s.kind {
                    ParamKind::Int { .. } => ParamValue::Int(p.read::<i64>(s)),
                    ParamKind::Float { .. } => ParamValue::Float(p.read::<f64>(s)),
                    ParamKind::Bool => ParamValue::Bool(p.read::<bool>(s)),
                    ParamKind::Choice { .. } => p.get(&s.name).cloned().unwrap(),
                };
                assert_eq!(back, other, "{} {}", e.name(), s.name);
                let d = Params::default();
                let default = match &s.kind {
                    ParamKind::Int { .. } => ParamValue::Int(d.read::<i64>(s)),
                    ParamKind::Float { .. } => ParamValue::Float(d.read::<f64>(s)),
                    ParamKind::Bool => ParamValue::Bool(d.read::<bool>(s)),
                    ParamKind::Choice { .. } => s.default.clone(),
                };
                assert_eq!(default, s.default, "{} {}", e.name(), s.name);
            }
        }
    }

    #[test]
    fn unfold_order_goes_outwards_from_the_seed() {
        // Spans at 0..2, 5..7, 8..9, 20..22; seed 5..7: then 8..9 (1 between) before 0..2
        // (3 between), then 20..22.
        let spans = [0..2, 5..7, 8..9, 20..22];
        assert_eq!(unfold_order(&spans, Some(&(5..7))), vec![1, 2, 0, 3]);
        assert_eq!(unfold_order(&spans, None), vec![0, 1, 2, 3]);
        assert!(unfold_order(&[], None).is_empty());
        let dana = find("danag").unwrap();
        let names: Vec<&str> = dana.phases().iter().map(|p| p.name.as_ref()).collect();
        let gap = names.iter().position(|n| *n == "gap expansion").unwrap();
        assert_eq!(dana.unfolds(gap), Some("selected"));
        assert_eq!(dana.unfolds(0), None);
    }

    /// `unfolded` keeps the first k spans of the unfolding marks in the reveal order (the
    /// seed's first), everything else as it was; outside an unfolding phase it changes nothing.
    #[test]
    fn unfolded_keeps_the_spans_revealed_so_far() {
        let page = Page::from_text(
            "teaching.html",
            include_str!("../../sample-pages/teaching.html"),
        );
        let e = find("danag").unwrap();
        let x = e.run(&page, &Params::defaults(e.params()));
        let gap = e
            .phases()
            .iter()
            .position(|p| p.name == "gap expansion")
            .unwrap();
        let (key, order) = unfolding(e.as_ref(), &x, gap).unwrap();
        assert_eq!((key, order), ("selected", vec![0, 1]));
        let one = unfolded(e.as_ref(), &x, gap, 1);
        assert_eq!(one.trace.marks("selected").unwrap().spans, vec![8..14]);
        assert_eq!(one.trace.series, x.trace.series);
        assert_eq!(one.selection, x.selection);
        assert_eq!(unfolded(e.as_ref(), &x, gap, 5), x);
        assert_eq!(unfolded(e.as_ref(), &x, 0, 1), x, "phase 0 does not unfold");
        assert!(unfolding(e.as_ref(), &x, 0).is_none());
    }

    #[test]
    fn registry_names_unique() {
        let n = names();
        let mut m = n.clone();
        m.sort();
        m.dedup();
        assert_eq!(n.len(), m.len());
        assert!(find("R2L").is_ok());
        assert!(matches!(find("bogus"), Err(Error::UnknownAlgorithm { .. })));
        assert_eq!(resolve("all").unwrap().len(), n.len());
    }

    #[test]
    fn step_clamps_and_cycles() {
        let e = find("addanag").unwrap();
        let gap = e.params().iter().find(|s| s.name == "gap").unwrap();
        assert_eq!(gap.step(&ParamValue::Int(0), -1), ParamValue::Int(0));
        assert_eq!(gap.step(&ParamValue::Int(3), 1), ParamValue::Int(4));
        let f = e.params().iter().find(|s| s.name == "filter").unwrap();
        let first = f.step(&f.default, 1);
        assert_ne!(first, f.default);
        // Real steps do not accumulate binary noise: 0.5 + 0.05 + 0.05 shows as 0.6.
        let t = ParamSpec {
            name: "t".into(),
            kind: ParamKind::Float {
                min: 0.0,
                max: 1.0,
                step: 0.05,
            },
            default: ParamValue::Float(0.5),
            help: "",
            source: "",
        };
        let twice = t.step(&t.step(&t.default, 1), 1);
        assert_eq!(twice, ParamValue::Float(0.6));
        assert_eq!(twice.to_string(), "0.6");
        assert_eq!(t.step(&ParamValue::Float(0.98), 1), ParamValue::Float(1.0));
    }
}
