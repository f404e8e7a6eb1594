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
pub mod fe;
pub mod headline;
pub mod lqf;
pub mod plain;
pub mod preprocess;
#[cfg(feature = "reference")]
pub mod readability;
pub mod reference;
pub mod signal;
pub mod sw;
pub mod trace;
#[cfg(feature = "reference")]
pub mod trafilatura;

pub use trace::{
    explain_generic, explain_generic_known, revealed, to_lines, Agg, LineMarks, LineSeries,
    LineTrace, Location, Marks, Phase, Positions, Role, Scalar, Series, Step, Trace, Unit,
};

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::page::Page;
use crate::selection::Selection;

/// The type and range of a parameter.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ParamKind {
    /// An integer in `min..=max`, moved by `step`.
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
        /// Slider step.
        step: i64,
    },
    /// A real number in `min..=max`, moved by `step`.
    Float {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
        /// Slider step.
        step: f64,
    },
    /// A switch.
    Bool,
    /// One of a fixed list of names.
    Choice {
        /// The allowed names.
        choices: &'static [&'static str],
    },
}

/// A parameter value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ParamValue {
    /// For [`ParamKind::Int`].
    Int(i64),
    /// For [`ParamKind::Float`].
    Float(f64),
    /// For [`ParamKind::Bool`].
    Bool(bool),
    /// For [`ParamKind::Choice`].
    Choice(&'static str),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Float(v) => write!(f, "{v}"),
            ParamValue::Bool(v) => write!(f, "{v}"),
            ParamValue::Choice(v) => write!(f, "{v}"),
        }
    }
}

/// The description of one parameter of an algorithm.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParamSpec {
    /// Name used by `--set NAME=VALUE` and the sliders.
    pub name: &'static str,
    /// Type and range.
    #[serde(flatten)]
    pub kind: ParamKind,
    /// The default, as published.
    pub default: ParamValue,
    /// One line of help.
    pub help: &'static str,
    /// Where the parameter and its default come from.
    pub source: &'static str,
}

impl ParamSpec {
    /// Parses `text` as a value of this parameter, checking kind and range.
    pub fn parse(&self, text: &str) -> Result<ParamValue> {
        let bad = |why: String| Error::Param(format!("{}={text}: {why}", self.name));
        match &self.kind {
            ParamKind::Int { min, max, .. } => {
                let v: i64 = text
                    .trim()
                    .parse()
                    .map_err(|_| bad("expected an integer".into()))?;
                if v < *min || v > *max {
                    return Err(bad(format!("out of range {min}..={max}")));
                }
                Ok(ParamValue::Int(v))
            }
            ParamKind::Float { min, max, .. } => {
                let v: f64 = text
                    .trim()
                    .parse()
                    .map_err(|_| bad("expected a number".into()))?;
                if !v.is_finite() || v < *min || v > *max {
                    return Err(bad(format!("out of range {min}..={max}")));
                }
                Ok(ParamValue::Float(v))
            }
            ParamKind::Bool => match text.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "1" => Ok(ParamValue::Bool(true)),
                "false" | "no" | "off" | "0" => Ok(ParamValue::Bool(false)),
                _ => Err(bad("expected true or false".into())),
            },
            ParamKind::Choice { choices } => choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(text.trim()))
                .map(|c| ParamValue::Choice(c))
                .ok_or_else(|| bad(format!("expected one of {}", choices.join(", ")))),
        }
    }

    /// The value one step up (`dir > 0`) or down from `v`, clamped to the range; choices cycle.
    pub fn step(&self, v: &ParamValue, dir: i32) -> ParamValue {
        match (&self.kind, v) {
            (ParamKind::Int { min, max, step }, ParamValue::Int(x)) => {
                ParamValue::Int((x + step * dir as i64).clamp(*min, *max))
            }
            (ParamKind::Float { min, max, step }, ParamValue::Float(x)) => {
                ParamValue::Float((x + step * dir as f64).clamp(*min, *max))
            }
            (ParamKind::Bool, ParamValue::Bool(b)) => ParamValue::Bool(!b),
            (ParamKind::Choice { choices }, ParamValue::Choice(c)) => {
                let i = choices.iter().position(|x| x == c).unwrap_or(0) as i64;
                let n = choices.len() as i64;
                ParamValue::Choice(choices[((i + dir as i64).rem_euclid(n)) as usize])
            }
            _ => self.default.clone(),
        }
    }
}

/// The spec named `name` (surrounding white space ignored) in `specs`. Errors:
/// [`Error::Param`] naming the parameters there are.
pub fn find_spec<'a>(specs: &'a [ParamSpec], name: &str) -> Result<&'a ParamSpec> {
    specs.iter().find(|s| s.name == name.trim()).ok_or_else(|| {
        let known: Vec<_> = specs.iter().map(|s| s.name).collect();
        Error::Param(format!(
            "unknown parameter {:?}; this algorithm has: {}",
            name.trim(),
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ))
    })
}

/// Parameter values of one run, by name. Always complete for the algorithm they were made for
/// (see [`Params::defaults`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Params {
    values: BTreeMap<&'static str, ParamValue>,
}

impl Params {
    /// The published defaults of `specs`.
    pub fn defaults(specs: &[ParamSpec]) -> Params {
        Params {
            values: specs.iter().map(|s| (s.name, s.default.clone())).collect(),
        }
    }

    /// Applies one `NAME=VALUE` assignment. Errors: [`Error::Param`] for an unknown name, a
    /// missing `=`, or a value of the wrong kind or out of range.
    pub fn set_str(&mut self, specs: &[ParamSpec], assignment: &str) -> Result<()> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| Error::Param(format!("{assignment:?}: expected NAME=VALUE")))?;
        let spec = find_spec(specs, name)?;
        self.values.insert(spec.name, spec.parse(value)?);
        Ok(())
    }

    /// Sets a value directly (the caller guarantees it fits the spec).
    pub fn set(&mut self, name: &'static str, v: ParamValue) {
        self.values.insert(name, v);
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&ParamValue> {
        self.values.get(name)
    }

    /// The integer value of `spec`: the value set for `spec.name`, else `spec.default`.
    /// Extractors read every parameter this way, so the published default lives in one place
    /// (the spec). A spec whose default is not an integer is a programming error (the registry
    /// test `specs_are_consistent` catches it); it reads as 0.
    pub fn int(&self, spec: &ParamSpec) -> i64 {
        match (self.values.get(spec.name), &spec.default) {
            (Some(ParamValue::Int(v)), _) | (_, ParamValue::Int(v)) => *v,
            _ => 0,
        }
    }

    /// The real value of `spec` (an integer value converts), else `spec.default`; a
    /// non-numeric default reads as 0.0 (see [`Params::int`]).
    pub fn float(&self, spec: &ParamSpec) -> f64 {
        let num = |v: &ParamValue| match v {
            ParamValue::Float(x) => Some(*x),
            ParamValue::Int(x) => Some(*x as f64),
            _ => None,
        };
        self.values
            .get(spec.name)
            .and_then(num)
            .or_else(|| num(&spec.default))
            .unwrap_or(0.0)
    }

    /// The switch value of `spec`, else `spec.default`; a non-bool default reads as false.
    pub fn bool(&self, spec: &ParamSpec) -> bool {
        match (self.values.get(spec.name), &spec.default) {
            (Some(ParamValue::Bool(v)), _) | (_, ParamValue::Bool(v)) => *v,
            _ => false,
        }
    }

    /// The choice value of `spec`, else `spec.default`; a non-choice default reads as "".
    pub fn choice(&self, spec: &ParamSpec) -> &'static str {
        match (self.values.get(spec.name), &spec.default) {
            (Some(ParamValue::Choice(v)), _) | (_, ParamValue::Choice(v)) => v,
            _ => "",
        }
    }

    /// `name=value` pairs in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &ParamValue)> {
        self.values.iter().map(|(k, v)| (*k, v))
    }
}

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (k, v) in &self.values {
            if !first {
                write!(f, " ")?;
            }
            first = false;
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}

/// The result of one run: the selection and the trace.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Extraction {
    /// What the algorithm selected, as byte ranges over the decoded text.
    pub selection: Selection,
    /// How it got there.
    pub trace: Trace,
}

/// A main content extraction algorithm.
pub trait Extractor: Send + Sync {
    /// Registered name (`--algo NAME`).
    fn name(&self) -> &'static str;
    /// One-line description with the source paper.
    fn describe(&self) -> &'static str;
    /// The parameters, with published defaults.
    fn params(&self) -> &[ParamSpec];
    /// Runs the algorithm. Pure and deterministic; never panics on any page.
    fn run(&self, page: &Page, params: &Params) -> Extraction;
    /// True if the algorithm needs the DOM (and so is slower to start on a fresh page).
    fn needs_dom(&self) -> bool {
        false
    }
    /// The algorithm's decision at `at`, in words, for the inspector's explain panel (one
    /// string per sentence; the first names the location). The default,
    /// [`explain_generic`], reads the trace alone: every series' value there with label and
    /// unit, the threshold and bound scalars, and the marks that contain it with their roles.
    fn explain(&self, page: &Page, x: &Extraction, at: Location) -> Vec<String> {
        explain_generic(page, &x.trace, at)
    }
    /// The explanation at `at` as known at `step` of [`Extractor::phases`] (`None`: the whole
    /// run, i.e. [`Extractor::explain`]). Step mode shows it, so the text at phase k says only
    /// what phases up to k computed, and within a phase that unfolds only what the spans
    /// revealed so far show. The default: [`Extractor::explain`] at the last phase, before it
    /// [`explain_generic_known`] with the trace items revealed so far ([`revealed`]) and the
    /// unfolding marks cut to the revealed spans ([`unfolded`]).
    fn explain_step(
        &self,
        page: &Page,
        x: &Extraction,
        at: Location,
        step: Option<Step>,
    ) -> Vec<String> {
        let phases = self.phases();
        match step {
            Some(s) if s.phase + 1 < phases.len() => {
                let known = |k: &str| revealed(phases, Some(s.phase), k);
                match s.unfolded {
                    Some(k) => {
                        let y = unfolded(self, x, s.phase, k);
                        explain_generic_known(page, &y.trace, at, &known)
                    }
                    None => explain_generic_known(page, &x.trace, at, &known),
                }
            }
            _ => self.explain(page, x, at),
        }
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
    /// Doubts about the run `x` on `page` that did not stop it, one sentence each (a reference
    /// extractor's output that aligned to the page below [`reference::MIN_SHARE`]); `eval` and
    /// `extract` print them. Default: none.
    fn warnings(&self, page: &Page, x: &Extraction) -> Vec<String> {
        let _ = (page, x);
        Vec::new()
    }
    /// The phases of the algorithm for step mode, in order, each with the trace keys it
    /// reveals ([`Phase`], [`revealed`]). The default is one phase that reveals everything.
    fn phases(&self) -> &'static [Phase] {
        &[Phase {
            name: "run",
            what: "the algorithm runs and selects the main content",
            reveals: &[],
        }]
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

/// All registered extractors, in display order: the single algorithms, then the shipped
/// filter sets ([`combine::shipped`]).
pub fn registry() -> Vec<Box<dyn Extractor>> {
    let mut all = singles();
    all.extend(
        combine::shipped()
            .iter()
            .map(|s| Box::new(s.clone()) as Box<dyn Extractor>),
    );
    all
}

/// The registered single algorithms (no filter sets), in display order: the papers'
/// algorithms, then the reference extractors (feature `reference`).
fn singles() -> Vec<Box<dyn Extractor>> {
    #[cfg_attr(not(feature = "reference"), allow(unused_mut))]
    let mut v: Vec<Box<dyn Extractor>> = vec![
        Box::new(dana::DanaFamily::r2l()),
        Box::new(dana::DanaFamily::dana()),
        Box::new(dana::DanaFamily::danag()),
        Box::new(dana::DanaFamily::addanag()),
        Box::new(plain::Plain),
        Box::new(bte::Bte),
        Box::new(lqf::Lqf::default()),
        Box::new(dsc::Dsc::default()),
        Box::new(density::Density::default()),
        Box::new(cetd::Cetd::default()),
        Box::new(sw::Sw::default()),
        Box::new(crunch::Crunch::default()),
        Box::new(cetr::Cetr),
        Box::new(fe::FeatureExtractor::fe()),
        Box::new(fe::FeatureExtractor::kfe()),
        Box::new(ccb::CcbFamily::ccb()),
        Box::new(ccb::CcbFamily::accb()),
        Box::new(ccb::CcbFamily::tccb()),
    ];
    #[cfg(feature = "reference")]
    v.extend([
        Box::new(reference::Reference(trafilatura::Trafilatura)) as Box<dyn Extractor>,
        Box::new(reference::Reference(readability::Readability)),
    ]);
    v
}

/// The names of all registered extractors.
pub fn names() -> Vec<&'static str> {
    registry().iter().map(|e| e.name()).collect()
}

/// Looks an extractor up by name (ASCII case-insensitive). A name that is not registered but
/// ends in `.toml` or names an existing file is read as a filter-set file ([`combine::load`]),
/// so `--algo FILE` works wherever a name does. Errors: [`Error::UnknownAlgorithm`],
/// [`Error::FilterSet`].
pub fn find(name: &str) -> Result<Box<dyn Extractor>> {
    if let Some(e) = registry()
        .into_iter()
        .find(|e| e.name().eq_ignore_ascii_case(name))
    {
        return Ok(e);
    }
    let path = std::path::Path::new(name);
    if name.ends_with(".toml") || path.is_file() {
        return Ok(Box::new(combine::load(path)?));
    }
    Err(Error::UnknownAlgorithm {
        name: name.to_string(),
        known: names().join(", "),
    })
}

/// Resolves `all` or a comma-separated list of names.
pub fn resolve(spec: &str) -> Result<Vec<Box<dyn Extractor>>> {
    if spec.eq_ignore_ascii_case("all") {
        return Ok(registry());
    }
    spec.split(',')
        .map(|n| find(n.trim()))
        .collect::<Result<Vec<_>>>()
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
        assert_eq!(p.int(gap), 20);
        p.set_str(e.params(), "gap=7").unwrap();
        assert_eq!(p.int(gap), 7);
        assert!(p.set_str(e.params(), "gap=-1").is_err());
        assert!(p.set_str(e.params(), "gap=x").is_err());
        assert!(p.set_str(e.params(), "nope=1").is_err());
        assert!(p.set_str(e.params(), "gap").is_err());
        p.set_str(e.params(), "smoothing=NONE").unwrap();
        assert_eq!(p.choice(smoothing), "none");
        // An absent value reads as the spec's default, never as a literal of the algorithm.
        assert_eq!(Params::default().int(gap), 20);
        assert_eq!(Params::default().choice(smoothing), "three-line");
        let r2l = find("r2l").unwrap();
        assert_eq!(
            Params::default().int(&r2l.params()[0]),
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
                for k in p.reveals {
                    assert!(keys.contains(k), "{}: phase {} names {k}", e.name(), p.name);
                }
            }
            // Every drawn item (not Info) is revealed by some phase before the last.
            for s in &x.trace.series {
                assert!(
                    e.phases()
                        .iter()
                        .any(|p| p.reveals.contains(&s.key.as_str())),
                    "{}: series {} is in no phase",
                    e.name(),
                    s.key
                );
            }
        }
        let add = find("addanag").unwrap();
        let names: Vec<&str> = add.phases().iter().map(|p| p.name).collect();
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
                    (ParamKind::Choice { choices }, ParamValue::Choice(c)) => choices.contains(c),
                    _ => false,
                };
                assert!(ok, "{} {}: default does not fit its kind", e.name(), s.name);
                // The spec's own text form parses back to the default.
                assert_eq!(s.parse(&s.default.to_string()).unwrap(), s.default);
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
        let names: Vec<&str> = dana.phases().iter().map(|p| p.name).collect();
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
    }
}
