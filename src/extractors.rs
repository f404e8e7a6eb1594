//! The one registry: every extractor and every headline finder a user can name, in one place.
//! The command line, the inspector, `bench`, `eval`, the optimiser and the guidelines look names
//! up here, so a name works the same wherever it is typed.
//!
//! - Extractors ([`registry`]): the algorithms ([`crate::algorithms::all`]), the shipped filter
//!   sets ([`crate::algorithms::combine::shipped`]) — what `--algo all` stands for — and the
//!   shipped trained model [`LEARNED`] (`models/learned.json`, compiled in), which is named but
//!   not in `all` ([`Registry::trained`]); besides names, filter-set files (`FILE.toml`,
//!   [`crate::algorithms::combine`]) and model files of learned methods (`FILE.json`,
//!   [`crate::learn`]) ([`find`]).
//! - Headline finders ([`headlines`]): TitleFinder and the baselines
//!   ([`crate::algorithms::headline::all`]) and the shipped headline ranker
//!   [`LEARNED_HEADLINE`] (`models/headline.json`), the default ([`DEFAULT_HEADLINE`]), named
//!   but not in `all`; besides names, headline model files ([`find_headline`]).
//!
//! **May import**: everything below it — `crate::extract`, `crate::algorithms`, `crate::learn`
//! and the layers under them. It sits above both algorithms and learned methods (a learned
//! method's model is an extractor built on the algorithms), so nothing below imports it;
//! `tests/module_graph.rs` checks it.

use std::path::Path;
use std::sync::{Arc, LazyLock};

use crate::algorithms::{self, combine};
use crate::error::{Error, Result};
use crate::extract::headline::HeadlineFinder;
use crate::extract::{Algorithm, Extractor};

/// The algorithm the inspector starts with when none is named.
pub const DEFAULT_ALGORITHM: &str = "danag";

/// A shipped trained model in a [`Registry`]: a user can name it, but `all` leaves it out (it
/// was trained on the shared dev corpora, so `eval --algo all` on them would score it on its own
/// training pages). Loaded on first use.
pub struct Trained<T: ?Sized> {
    /// The name it is found by (lower case).
    pub name: &'static str,
    /// Loads it (the model is compiled in; loaded once per process). Errors: [`Error::Model`].
    pub load: fn() -> Result<Arc<T>>,
}

/// The nameable entries of one kind ([`Extractor`]s or [`HeadlineFinder`]s), in display order:
/// what `all` stands for ([`Registry::all`]), then the shipped trained models
/// ([`Registry::trained`]).
pub struct Registry<T: ?Sized> {
    items: Vec<Arc<T>>,
    trained: Vec<Trained<T>>,
}

impl<T: Algorithm + ?Sized> Registry<T> {
    /// A registry of `items` and `trained` models (names must be unique; the registry tests
    /// check it).
    pub fn new(items: Vec<Arc<T>>, trained: Vec<Trained<T>>) -> Registry<T> {
        Registry { items, trained }
    }

    /// What `all` stands for, in display order (no trained model).
    pub fn all(&self) -> &[Arc<T>] {
        &self.items
    }

    /// The number of entries `all` stands for.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether `all` stands for none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The entries `all` stands for, as a list (shared, cheap to clone).
    pub fn to_vec(&self) -> Vec<Arc<T>> {
        self.items.clone()
    }

    /// The entries `all` stands for, in display order.
    pub fn iter(&self) -> std::slice::Iter<'_, Arc<T>> {
        self.items.iter()
    }

    /// The names `all` stands for, in display order.
    pub fn names(&self) -> Vec<&str> {
        self.items.iter().map(|e| e.name()).collect()
    }

    /// The shipped trained models: nameable, not in `all`.
    pub fn trained(&self) -> &[Trained<T>] {
        &self.trained
    }

    /// Every name a user can give: [`Registry::names`], then the trained models' names.
    pub fn every_name(&self) -> Vec<&str> {
        let mut v = self.names();
        v.extend(self.trained.iter().map(|t| t.name));
        v
    }

    /// Every nameable entry, in display order: [`Registry::all`], then the trained models that
    /// load (what the inspector offers).
    pub fn nameable(&self) -> Vec<Arc<T>> {
        let mut v = self.items.clone();
        v.extend(self.trained.iter().filter_map(|t| (t.load)().ok()));
        v
    }

    /// The entry named `name` (ASCII case-insensitive, surrounding white space ignored), a
    /// trained model included. `Ok(None)` when no entry has that name. Errors: a trained
    /// model's load error ([`Error::Model`]).
    pub fn lookup(&self, name: &str) -> Result<Option<Arc<T>>> {
        let name = name.trim();
        if let Some(e) = self
            .items
            .iter()
            .find(|e| e.name().eq_ignore_ascii_case(name))
        {
            return Ok(Some(Arc::clone(e)));
        }
        match self
            .trained
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
        {
            Some(t) => (t.load)().map(Some),
            None => Ok(None),
        }
    }

    /// `all` or a comma-separated list of names, each looked up with `find` (so a caller can
    /// accept more than names, e.g. filter-set files). Errors: `find`'s.
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

impl<'a, T: ?Sized> IntoIterator for &'a Registry<T> {
    type Item = &'a Arc<T>;
    type IntoIter = std::slice::Iter<'a, Arc<T>>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

/// The name of the shipped learned model: `cescope train --method stack` on the four shared
/// dev corpora (scrapinghub-dev, MIT; wcxb-dev, CC-BY-4.0; readability, Apache-2.0;
/// cleaneval-dev, no licence stated; `models/README.md` gives the command), the file
/// `models/learned.json` compiled into the binary. It is not in `all` ([`registry`]): it was
/// trained on those corpora, so an `eval --algo all` on them would score it on its own
/// training pages; name it to use it.
pub const LEARNED: &str = "learned";

/// The shipped model's bytes.
const LEARNED_JSON: &[u8] = include_bytes!("../models/learned.json");

/// The shipped learned model ([`LEARNED`]), loaded once. Errors: [`Error::Model`] (a build
/// whose compiled-in file does not match its learning code — the tests check it does).
pub fn learned() -> Result<Arc<dyn Extractor>> {
    static MODEL: LazyLock<std::result::Result<Arc<dyn Extractor>, String>> = LazyLock::new(|| {
        crate::learn::model::load_bytes(Path::new("models/learned.json"), LEARNED, LEARNED_JSON)
            .map_err(|e| match e {
                Error::Model { message, .. } => message,
                other => other.to_string(),
            })
    });
    MODEL.clone().map_err(|message| Error::Model {
        file: "models/learned.json (compiled in)".into(),
        message,
    })
}

/// The name of the shipped headline ranker: `cescope train --method headline` (the learned
/// ranker of [`crate::learn::headline`]) on the two shared dev corpora with gold headlines
/// (wcxb-dev, CC-BY-4.0; readability, Apache-2.0), the file `models/headline.json` compiled
/// into the binary. A headline finder's name ([`find_headline`]): it does not clash with the
/// block model [`LEARNED`], which is an extractor's name. Not in the headline finders' `all`
/// ([`resolve_headlines`]): it was trained on those corpora.
pub const LEARNED_HEADLINE: &str = "learned";

/// The headline finder used where none is named: `cescope title`, `cescope extract --input
/// … --headline`, the inspector's headline suggestion and `#` panel. The shipped ranker
/// ([`LEARNED_HEADLINE`]): cross-validated exact match 0.717 on readability and 0.674 on
/// wcxb-dev against TitleFinder `tf`'s 0.442 / 0.581 (docs/headlines.md).
pub const DEFAULT_HEADLINE: &str = LEARNED_HEADLINE;

/// The shipped headline ranker's bytes.
const HEADLINE_JSON: &[u8] = include_bytes!("../models/headline.json");

/// The shipped headline ranker ([`LEARNED_HEADLINE`]), loaded once. Errors: [`Error::Model`]
/// (a build whose compiled-in file does not match its learning code — the tests check it
/// does).
pub fn learned_headline() -> Result<Arc<dyn HeadlineFinder>> {
    type Loaded = std::result::Result<Arc<dyn HeadlineFinder>, String>;
    static MODEL: LazyLock<Loaded> = LazyLock::new(|| {
        crate::learn::headline::load_bytes(
            Path::new("models/headline.json"),
            LEARNED_HEADLINE,
            HEADLINE_JSON,
        )
        .map_err(|e| match e {
            Error::Model { message, .. } => message,
            other => other.to_string(),
        })
    });
    MODEL.clone().map_err(|message| Error::Model {
        file: "models/headline.json (compiled in)".into(),
        message,
    })
}

/// Every extractor a user can name ([`Registry`]): the algorithms
/// ([`crate::algorithms::all`]) and the shipped filter sets ([`combine::shipped`]) — `all` —
/// then the shipped trained model [`LEARNED`]. Built once per process.
pub fn registry() -> &'static Registry<dyn Extractor> {
    static ALL: LazyLock<Registry<dyn Extractor>> = LazyLock::new(|| {
        let mut all = algorithms::all().to_vec();
        all.extend(
            combine::shipped()
                .iter()
                .map(|s| Arc::new(s.clone()) as Arc<dyn Extractor>),
        );
        Registry::new(
            all,
            vec![Trained {
                name: LEARNED,
                load: learned,
            }],
        )
    });
    &ALL
}

/// The names `all` stands for, in display order (the algorithms and shipped filter sets; not
/// [`LEARNED`]).
pub fn names() -> Vec<&'static str> {
    registry().names()
}

/// Looks an extractor up by name (ASCII case-insensitive): a name of the [`registry`]
/// ([`LEARNED`] included); else a name ending in `.json` is a model file
/// ([`crate::learn::load_model`]); else a name ending in `.toml` or naming an existing file is
/// a filter-set file ([`combine::load`]), so `--algo FILE` works wherever a name does. Errors:
/// [`Error::UnknownAlgorithm`], [`Error::Model`], [`Error::FilterSet`].
pub fn find(name: &str) -> Result<Arc<dyn Extractor>> {
    if let Some(e) = registry().lookup(name)? {
        return Ok(e);
    }
    let trimmed = name.trim();
    if is_json_name(trimmed) {
        return crate::learn::load_model(Path::new(trimmed));
    }
    let path = Path::new(name);
    if name.ends_with(".toml") || path.is_file() {
        return Ok(Arc::new(combine::load(path)?));
    }
    Err(Error::UnknownAlgorithm {
        name: name.to_string(),
        known: format!(
            "{}, or a filter-set FILE.toml or a model FILE.json{NOT_BUILT}",
            registry().every_name().join(", ")
        ),
    })
}

/// What the unknown-algorithm error of [`find`] adds in a build without the opt-in reference
/// extractors (Cargo feature `reference`, off by default).
#[cfg(feature = "reference")]
const NOT_BUILT: &str = "";
#[cfg(not(feature = "reference"))]
const NOT_BUILT: &str = " (the reference extractors `trafilatura` and `readability` are in builds \
     with the `reference` feature: cargo build --release --features reference)";

/// Resolves `all` (the registered extractors) or a comma-separated list of names, set files
/// and model files ([`find`]).
pub fn resolve(spec: &str) -> Result<Vec<Arc<dyn Extractor>>> {
    registry().resolve(spec, find)
}

/// True when `name` names a JSON file (ends in `.json`, ASCII case-insensitive).
fn is_json_name(name: &str) -> bool {
    let trimmed = name.trim();
    trimmed
        .rsplit('.')
        .next()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("json") && trimmed.contains('.'))
}

/// Every headline finder a user can name ([`Registry`]): TitleFinder's `tf`, `tfidf`, `osm`,
/// `aggregate` and the baselines `title`, `largest` ([`crate::algorithms::headline::all`]) —
/// `all` — then the shipped headline ranker [`LEARNED_HEADLINE`]. Built once per process.
pub fn headlines() -> &'static Registry<dyn HeadlineFinder> {
    static ALL: LazyLock<Registry<dyn HeadlineFinder>> = LazyLock::new(|| {
        Registry::new(
            algorithms::headline::all(),
            vec![Trained {
                name: LEARNED_HEADLINE,
                load: learned_headline,
            }],
        )
    });
    &ALL
}

/// The headline finders' names `all` stands for, in display order (not [`LEARNED_HEADLINE`]).
pub fn headline_names() -> Vec<&'static str> {
    headlines().names()
}

/// Looks a headline finder up by name (ASCII case-insensitive): a name of [`headlines`]
/// ([`LEARNED_HEADLINE`], the shipped ranker, included); else a name ending in `.json` is the
/// model file of a learned headline ranker ([`crate::learn::headline::load`], written by
/// `cescope train --method headline`). Errors: [`Error::UnknownAlgorithm`], [`Error::Model`].
pub fn find_headline(name: &str) -> Result<Arc<dyn HeadlineFinder>> {
    if let Some(f) = headlines().lookup(name)? {
        return Ok(f);
    }
    let trimmed = name.trim();
    if is_json_name(trimmed) {
        return crate::learn::headline::load(Path::new(trimmed));
    }
    Err(Error::UnknownAlgorithm {
        name: name.to_string(),
        known: format!(
            "{}, {LEARNED_HEADLINE} (the shipped ranker), or a learned headline model FILE.json",
            headline_names().join(", ")
        ),
    })
}

/// Resolves `all` (the registered headline finders; not the shipped ranker, see
/// [`LEARNED_HEADLINE`]) or a comma-separated list of finder names and headline model files
/// ([`find_headline`]).
pub fn resolve_headlines(spec: &str) -> Result<Vec<Arc<dyn HeadlineFinder>>> {
    headlines().resolve(spec, find_headline)
}

/// Every extractor and headline finder a user can name, with its parameters, as JSON (what
/// `cescope algos --format json` prints and the Python package's `cescope.algorithms()`
/// returns): an array of `{name, description, params: [ParamSpec…]}` — the registered
/// extractors in display order, then the shipped learned model (`kind: "learned"`), the
/// registered headline finders (`kind: "headline"`) and the shipped headline ranker (`kind:
/// "learned headline"`). A shipped model that does not load is left out.
pub fn catalogue() -> serde_json::Value {
    use serde_json::json;
    let reg = registry();
    let mut v: Vec<serde_json::Value> = reg
        .iter()
        .map(|e| json!({"name": e.name(), "description": e.describe(), "params": e.params()}))
        .collect();
    for e in reg.trained().iter().filter_map(|t| (t.load)().ok()) {
        v.push(json!({"name": e.name(), "kind": "learned", "description": e.describe(), "params": e.params()}));
    }
    let heads = headlines();
    v.extend(heads.iter().map(|f| {
        json!({"name": f.name(), "kind": "headline", "description": f.describe(), "params": f.params()})
    }));
    for f in heads.trained().iter().filter_map(|t| (t.load)().ok()) {
        v.push(json!({"name": f.name(), "kind": "learned headline", "description": f.describe(), "params": f.params()}));
    }
    serde_json::Value::Array(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::dana::Smoothing;
    use crate::extract::{ParamKind, ParamSpec, ParamValue, Params};
    use crate::page::Page;

    #[test]
    fn names_set_files_and_model_files_resolve_here() {
        assert_eq!(find("DANAG").unwrap().name(), "danag");
        let e = find("no-such-thing").err().unwrap().to_string();
        assert!(e.contains("model FILE.json"), "{e}");
        let e = find("/no/such/model.json").err().unwrap().to_string();
        assert!(e.starts_with("model /no/such/model.json"), "{e}");
        assert_eq!(resolve("danag,bte").unwrap().len(), 2);
    }

    #[test]
    fn headline_finders_and_headline_model_files_resolve_here() {
        assert_eq!(find_headline("TF").unwrap().name(), "tf");
        let e = find_headline("nope").err().unwrap().to_string();
        assert!(e.contains("headline model FILE.json"), "{e}");
        let e = find_headline("/no/such/heads.json")
            .err()
            .unwrap()
            .to_string();
        assert!(e.starts_with("model /no/such/heads.json"), "{e}");
        // An extractor's model file is not a headline ranker.
        let e = find_headline("models/learned.json")
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("not a headline ranker"), "{e}");
        assert_eq!(resolve_headlines("tf,largest").unwrap().len(), 2);
    }

    #[test]
    fn the_shipped_headline_ranker_is_the_default_and_not_in_all() {
        assert_eq!(DEFAULT_HEADLINE, LEARNED_HEADLINE);
        let f = find_headline(DEFAULT_HEADLINE).unwrap();
        assert_eq!(f.name(), LEARNED_HEADLINE);
        assert_eq!(find_headline(" Learned ").unwrap().name(), LEARNED_HEADLINE);
        // TitleFinder and the baselines keep their names.
        for n in ["tf", "tfidf", "osm", "aggregate", "title", "largest"] {
            assert_eq!(find_headline(n).unwrap().name(), n);
        }
        let all: Vec<String> = resolve_headlines("all")
            .unwrap()
            .iter()
            .map(|f| f.name().to_string())
            .collect();
        assert_eq!(all, headline_names());
        assert!(!all.iter().any(|n| n == LEARNED_HEADLINE));
        assert_eq!(
            resolve_headlines("tf,learned").unwrap()[1].name(),
            LEARNED_HEADLINE
        );
        // The extractor of the same name is still the block model.
        assert_eq!(
            find(LEARNED).unwrap().describe(),
            learned().unwrap().describe()
        );
        let e = find_headline("nope").err().unwrap().to_string();
        assert!(e.contains("learned (the shipped ranker)"), "{e}");
        // It runs: on a page whose title names the site and an h1 its headline, the best
        // candidate is text of the page at its range.
        let page = crate::page::Page::from_text(
            "t",
            "<title>Rain in Spain | Daily News</title><p>Daily News</p><h1>Rain in Spain</h1>\
             <p>It rained in Spain all week.</p>",
        );
        let h = f.run(&page, &crate::extract::Params::default());
        let best = h.best().unwrap();
        assert_eq!(
            crate::extract::headline::normalize_ws(&page.text()[best.range.clone()]),
            best.text
        );
        h.trace.validate(&page).unwrap();
    }

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
        assert_eq!(p.read::<Smoothing>(smoothing), Smoothing::None);
        // An absent value reads as the spec's default, never as a literal of the algorithm.
        assert_eq!(Params::default().read::<i64>(gap), 20);
        assert_eq!(
            Params::default().read::<Smoothing>(smoothing),
            Smoothing::ThreeLine
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
            headlines()
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

    /// The shipped filter sets are registered at the end of `all`, after the single
    /// algorithms; the trained model follows, outside `all`.
    #[test]
    fn shipped_sets_follow_the_algorithms() {
        let sets: Vec<&str> = combine::shipped().iter().map(|s| s.name()).collect();
        let all = names();
        assert_eq!(&all[all.len() - sets.len()..], sets.as_slice());
        assert_eq!(all.len(), algorithms::all().len() + sets.len());
        assert_eq!(registry().every_name().last(), Some(&LEARNED));
        assert!(find("MIX4").is_ok());
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

    /// Every registered algorithm gives a table or none without panicking, and every row is
    /// inside its unit's range.
    #[test]
    fn every_algorithm_on_a_small_page() {
        let page = Page::from_text(
            "t",
            "<ul><li><a href=\"/a\">A</a></li></ul><p>Some words of text here, and more of them.</p><div><a href=\"/b\">B</a></div><p>More text.</p>",
        );
        for e in registry() {
            let x = e.run(&page, &Params::defaults(e.params()));
            if let Some(t) =
                crate::extract::candidates::candidate_table(e.as_ref(), &page, &x, None)
            {
                for r in &t.rows {
                    assert!(r.span.start < r.span.end, "{}", e.name());
                    if let Some(b) = &r.bytes {
                        assert!(b.end <= page.text().len(), "{}", e.name());
                    }
                }
            }
        }
    }
}
