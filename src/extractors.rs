//! Every extractor a user can name, in one place: the registered algorithms and shipped filter
//! sets ([`crate::algorithms::registry`]), filter-set files (`FILE.toml`,
//! [`crate::algorithms::combine`]) and model files of learned methods (`FILE.json`,
//! [`crate::learn`]). The command line, the inspector, `bench` and `eval` look names up here,
//! so `--algo FILE.json` works wherever an algorithm name does.
//!
//! Why a facade: `learn` builds on `algorithms` (its models are extractors, its features come
//! from the page's blocks), so `algorithms::find` cannot load model files without a module
//! cycle (`tests/module_graph.rs`); this module sits above both. The shipped learned model
//! ([`LEARNED`], the `stack` method trained on the dev corpora, `models/learned.json` compiled
//! in) is found here by name, beside the algorithms; so is the shipped headline ranker
//! ([`LEARNED_HEADLINE`], `models/headline.json`), the default headline finder
//! ([`DEFAULT_HEADLINE`]).

use std::path::Path;
use std::sync::{Arc, LazyLock};

use crate::algorithms::{self, Extractor, Registry};
use crate::error::{Error, Result};

/// The name of the shipped learned model: `cescope train --method stack` on the three shared
/// dev corpora (scrapinghub-dev, MIT; wcxb-dev, CC-BY-4.0; readability, Apache-2.0), the file
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
pub fn learned_headline() -> Result<Arc<dyn crate::headline::HeadlineFinder>> {
    type Loaded = std::result::Result<Arc<dyn crate::headline::HeadlineFinder>, String>;
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

/// The registered extractors, in display order ([`algorithms::registry`]).
pub fn registry() -> &'static Registry<dyn Extractor> {
    algorithms::registry()
}

/// The names of the registered extractors, in display order.
pub fn names() -> Vec<&'static str> {
    algorithms::names()
}

/// Looks an extractor up by name (ASCII case-insensitive): a registered name; [`LEARNED`]; else a name
/// ending in `.json` is a model file ([`crate::learn::load_model`]); else a filter-set file
/// (`.toml`, or any other existing file, [`algorithms::find`]). Errors:
/// [`Error::UnknownAlgorithm`], [`Error::Model`], [`Error::FilterSet`].
pub fn find(name: &str) -> Result<Arc<dyn Extractor>> {
    if let Some(e) = registry().get(name) {
        return Ok(e);
    }
    let trimmed = name.trim();
    if trimmed.eq_ignore_ascii_case(LEARNED) {
        return learned();
    }
    if is_json_name(trimmed) {
        return crate::learn::load_model(Path::new(trimmed));
    }
    algorithms::find(name).map_err(|e| match e {
        Error::UnknownAlgorithm { name, known } => Error::UnknownAlgorithm {
            name,
            known: format!("{known}, {LEARNED}, or a filter-set FILE.toml or a model FILE.json"),
        },
        other => other,
    })
}

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

/// Looks a headline finder up by name (ASCII case-insensitive): a registered finder
/// ([`crate::headline::find`]: TitleFinder's `tf`, `tfidf`, `osm`, `aggregate` and the
/// baselines `title`, `largest`); [`LEARNED_HEADLINE`] (the shipped ranker); else a name
/// ending in `.json` is the model file of a learned headline ranker
/// ([`crate::learn::headline::load`], written by `cescope train --method headline`). Errors:
/// [`Error::UnknownAlgorithm`], [`Error::Model`].
pub fn find_headline(name: &str) -> Result<Arc<dyn crate::headline::HeadlineFinder>> {
    if let Some(f) = crate::headline::registry().get(name) {
        return Ok(f);
    }
    let trimmed = name.trim();
    if trimmed.eq_ignore_ascii_case(LEARNED_HEADLINE) {
        return learned_headline();
    }
    if is_json_name(trimmed) {
        return crate::learn::headline::load(Path::new(trimmed));
    }
    crate::headline::find(name).map_err(|e| match e {
        Error::UnknownAlgorithm { name, known } => Error::UnknownAlgorithm {
            name,
            known: format!(
                "{known}, {LEARNED_HEADLINE} (the shipped ranker), or a learned headline model \
                 FILE.json"
            ),
        },
        other => other,
    })
}

/// Resolves `all` (the registered headline finders; not the shipped ranker, see
/// [`LEARNED_HEADLINE`]) or a comma-separated list of finder names and headline model files
/// ([`find_headline`]).
pub fn resolve_headlines(spec: &str) -> Result<Vec<Arc<dyn crate::headline::HeadlineFinder>>> {
    crate::headline::registry().resolve(spec, find_headline)
}

/// Every extractor and headline finder a user can name, with its parameters, as JSON (what
/// `cescope algos --format json` prints and the Python package's `cescope.algorithms()`
/// returns): an array of `{name, description, params: [ParamSpec…]}` — the registered
/// extractors in display order, then the shipped learned model (`kind: "learned"`), the
/// registered headline finders (`kind: "headline"`) and the shipped headline ranker (`kind:
/// "learned headline"`). A shipped model that does not load is left out.
pub fn catalogue() -> serde_json::Value {
    use serde_json::json;
    let mut v: Vec<serde_json::Value> = registry()
        .iter()
        .map(|e| json!({"name": e.name(), "description": e.describe(), "params": e.params()}))
        .collect();
    if let Ok(e) = learned() {
        v.push(json!({"name": e.name(), "kind": "learned", "description": e.describe(), "params": e.params()}));
    }
    v.extend(crate::headline::registry().iter().map(|f| {
        json!({"name": f.name(), "kind": "headline", "description": f.describe(), "params": f.params()})
    }));
    if let Ok(f) = learned_headline() {
        v.push(json!({"name": f.name(), "kind": "learned headline", "description": f.describe(), "params": f.params()}));
    }
    serde_json::Value::Array(v)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(all, crate::headline::names());
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
        let h = f.run(&page, &crate::algorithms::Params::default());
        let best = h.best().unwrap();
        assert_eq!(
            crate::headline::normalize_ws(&page.text()[best.range.clone()]),
            best.text
        );
        h.trace.validate(&page).unwrap();
    }
}
