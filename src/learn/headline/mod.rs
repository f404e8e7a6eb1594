//! Learned headlines (issue 22, item 5): a pointwise ranker of headline candidates, trained on
//! gold headlines.
//!
//! **Rows**: every candidate of a page with its named features
//! ([`crate::algorithms::headline::candidates::candidates`]: TitleFinder's `cos_tf` / `cos_tfidf` / `osm`
//! and rank, the cosine to `og:title`, `title` prefix / containment, heading level,
//! `first_of_level`, emphasis, link, class, chrome, article, words, position, and the `title`
//! element's whole text and parts as candidates). **Labels**: a row is 1 when its text equals
//! the gold headline after white-space normalisation ([`crate::extract::headline::normalize_ws`]) —
//! exactly the match `cescope eval --headline` counts as `A` (Mohammadzadeh 2013, Table 5.3),
//! so the ranker is trained for the measure it is judged by; a page may have several positive
//! rows (the `title`'s part and the `h1` it names), and a page whose gold headline is no
//! candidate has none (it still contributes its negatives).
//!
//! **Fit** ([`fit`]): gradient-boosted trees by [`gbt::fit`] (binary log-loss, perpetual,
//! budget [`BUDGET`], at most [`MAX_ROWS`] rows, a seeded sample beyond), on the rows of the
//! training pages pooled in page order. **Prediction** ([`pick`], and the finder of
//! [`finder`]): the candidate with the highest probability is the headline (ties: the first in
//! candidate order).
//!
//! **Cross-validation** ([`cross_validate`]): k folds grouped by site ([`folds::assign`]; the
//! pages of one site are never both trained and scored on) — or one corpus left out at a time
//! ([`cross_validate_with`], [`folds::by_corpus`]) — the corpora pooled for training
//! and scored per corpus with the counting of `cescope eval --headline`
//! ([`crate::eval::headline::score`], [`HeadlineReport::table`]), next to the registered
//! finders run on the same pages. Deterministic: the folds come from the seed, the fits are
//! deterministic whatever the number of threads ([`gbt`]).

pub mod finder;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use super::data;
use super::folds;
use super::gbt::{self, Forest, GbtParams};
use super::model::{self, CorpusRecord, ModelFile, Training};
use crate::algorithms::headline::candidates::{candidates, FEATURES};
use crate::error::{Error, Result};
use crate::eval::headline::{
    configure, evaluate, score, with_headline, FinderResult, HeadlineReport, HeadlineResult,
};
use crate::extract::headline::{normalize_ws, HeadlineFinder};
use crate::extract::Params;
use crate::page::{DecodeOptions, Page};
use finder::{order, LearnedFinder, RowScorer};

/// perpetual's complexity budget for the headline ranker (its default).
pub const BUDGET: f32 = 0.5;

/// The most candidate rows a ranker is fitted on (a seeded sample beyond).
pub const MAX_ROWS: usize = 200_000;

/// The name the cross-validated ranker has in the table of [`cross_validate`].
pub const NAME: &str = "learned";

/// The candidates of one page as training or scoring data.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageRows {
    /// The feature rows, row-major, [`FEATURES`]`.len()` values per candidate.
    pub rows: Vec<f64>,
    /// Each candidate's text, white space normalised.
    pub texts: Vec<String>,
    /// Each candidate's label: its text equals the gold headline (white space normalised).
    pub labels: Vec<bool>,
}

impl PageRows {
    /// The number of candidates.
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    /// True without candidates.
    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// The feature row of candidate `i` (`i < len()`).
    pub fn row(&self, i: usize) -> &[f64] {
        let w = FEATURES.len();
        &self.rows[i * w..(i + 1) * w]
    }
}

/// The candidates of `page` with their features and their labels against `gold` (the gold
/// headline; compared after white-space normalisation, nothing else). O(candidates · depth).
pub fn prepare(page: &Page, gold: &str) -> PageRows {
    let gold = normalize_ws(gold);
    let mut out = PageRows::default();
    for r in candidates(page) {
        out.labels.push(!gold.is_empty() && r.text == gold);
        out.rows.extend_from_slice(&r.features);
        out.texts.push(r.text);
    }
    out
}

/// Fits the ranker on the candidates of `pages`, pooled in the given order (see the module
/// documentation). Errors: [`Error::Train`] when there are no candidates, no candidate equals
/// its page's gold headline, or every one does; perpetual's own errors.
pub fn fit(pages: &[&PageRows], seed: u64) -> Result<Forest> {
    let n: usize = pages.iter().map(|p| p.len()).sum();
    let mut rows = Vec::with_capacity(n * FEATURES.len());
    let mut labels = Vec::with_capacity(n);
    for p in pages {
        if p.rows.len() != p.len() * FEATURES.len() || p.labels.len() != p.len() {
            return Err(Error::Train(format!(
                "a page's candidate rows are malformed ({} values, {} texts, {} labels, {} \
                 features per row)",
                p.rows.len(),
                p.len(),
                p.labels.len(),
                FEATURES.len()
            )));
        }
        rows.extend_from_slice(&p.rows);
        labels.extend_from_slice(&p.labels);
    }
    if n == 0 || !labels.iter().any(|&l| l) || labels.iter().all(|&l| l) {
        return Err(Error::Train(format!(
            "the training pages have {n} headline candidates, {} of them the gold headline: \
             the ranker needs candidates of both kinds (pages whose gold headline is one of \
             their candidates)",
            labels.iter().filter(|&&l| l).count()
        )));
    }
    gbt::fit(
        &rows,
        FEATURES.len(),
        &labels,
        None,
        GbtParams {
            budget: BUDGET,
            max_rows: MAX_ROWS,
            seed,
        },
    )
}

/// The index of the candidate `forest` scores highest on `page` (ties: the first; the ranking
/// rule of the finder, [`order`]), `None` without candidates. O(candidates · trees · depth).
pub fn pick(forest: &Forest, page: &PageRows) -> Option<usize> {
    let scores: Vec<f64> = (0..page.len())
        .map(|i| forest.probability(page.row(i)))
        .collect();
    order(&scores).first().map(|&(i, _)| i)
}

/// A fitted ranker scores a candidate row by its probability of being the headline.
impl RowScorer for Forest {
    fn score(&self, row: &[f64]) -> f64 {
        self.probability(row)
    }
}

/// A headline finder named `name` ranking candidates by `forest`. Errors: [`Error::Model`]
/// when the forest is not one over [`FEATURES`] (wrong width, malformed trees).
pub fn finder(name: &str, forest: Forest) -> Result<Arc<dyn HeadlineFinder>> {
    forest.check(FEATURES.len()).map_err(|e| Error::Model {
        file: format!("headline ranker {name}"),
        message: e,
    })?;
    Ok(Arc::new(LearnedFinder::new(
        name,
        "learned headline ranker: gradient-boosted trees over TitleFinder's candidates and \
         features (cescope, issue 22 item 5)",
        Arc::new(forest),
    )))
}

/// Cross-validates the ranker on the pages of `corpora` that have a gold headline (see the
/// module documentation): `k` folds grouped by site from `seed`, trained on all corpora
/// pooled; returns the report of `cescope eval --headline` with the finders `peers` (e.g.
/// `tf`, `title`, `largest`, as `crate::extractors::resolve_headlines` finds them) run on the
/// same pages and the ranker last, named [`NAME`], each page scored by the fold that did not
/// train on it. A page that cannot be read has no candidates (no headline, as in the
/// evaluation). Errors: those of [`data::gather`] and [`configure`]; [`Error::Train`] when no
/// page has a gold headline, from [`folds::assign`] (fewer sites than folds), or from [`fit`].
pub fn cross_validate(
    corpora: &[PathBuf],
    k: usize,
    seed: u64,
    peers: Vec<Arc<dyn HeadlineFinder>>,
) -> Result<HeadlineReport> {
    cross_validate_with(corpora, folds::Scheme::Sites(k), seed, peers)
}

/// [`cross_validate`] with the folds of `scheme`: `k` folds grouped by site, or leave one
/// corpus out ([`folds::by_corpus`]: each corpus — of those with gold headlines — scored by the
/// ranker fitted on the others). Errors: those of [`cross_validate`]; [`Error::Train`] from
/// [`folds::by_corpus`] when fewer than 2 corpora have pages with a gold headline.
pub fn cross_validate_with(
    corpora: &[PathBuf],
    scheme: folds::Scheme,
    seed: u64,
    peers: Vec<Arc<dyn HeadlineFinder>>,
) -> Result<HeadlineReport> {
    super::check_fitter(METHOD, Some(gbt::FITTER), super::CAN_FIT)?;
    let (pages, _notes) = data::gather(corpora)?;
    let (pages, _dropped) = with_headline(pages);
    if pages.is_empty() {
        return Err(Error::Train(
            "no page with a gold headline in the given corpora".into(),
        ));
    }
    let finders = configure(peers, &[])?;
    let prepared = prepare_pages(&pages);
    let sites: Vec<&str> = pages.iter().map(|p| p.site.as_str()).collect();
    let names: Vec<&str> = pages.iter().map(|p| p.corpus.as_str()).collect();
    let (k, fold_of) = folds::deal(scheme, &sites, &names, seed)?;
    let mut results: Vec<Option<HeadlineResult>> = vec![None; pages.len()];
    for f in 0..k {
        let train: Vec<&PageRows> = prepared
            .iter()
            .zip(&fold_of)
            .filter(|(_, &g)| g != f)
            .map(|(p, _)| p)
            .collect();
        let forest = fit(&train, seed)?;
        for (i, p) in prepared.iter().enumerate() {
            if fold_of[i] != f {
                continue;
            }
            let gold = normalize_ws(pages[i].gold.headline.as_deref().unwrap_or(""));
            let found = pick(&forest, p).map(|j| p.texts[j].clone());
            results[i] = Some(score(found, &gold, 0.0));
        }
    }
    let mut report = evaluate(&pages, &finders);
    report.finders.push(FinderResult {
        name: NAME.to_string(),
        params: Params::default(),
        results: results
            .into_iter()
            .map(|r| r.unwrap_or_else(|| score(None, "", 0.0)))
            .collect(),
    });
    Ok(report)
}

/// The `method` of a headline ranker's model file.
pub const METHOD: &str = "headline";

/// A model file (schema [`model::SCHEMA`], method [`METHOD`], features [`FEATURES`], the
/// fitted forest as its body, threshold 0.5 — unused: the best candidate is the headline) for
/// a ranker fitted on `pages` ([`fit`]) from `corpora` with `seed`. Errors: those of [`fit`].
pub fn model_of(
    pages: &[&PageRows],
    corpora: Vec<CorpusRecord>,
    seed: u64,
) -> Result<ModelFile<Forest>> {
    Ok(ModelFile {
        schema: model::SCHEMA,
        method: METHOD.to_string(),
        members: None,
        features: FEATURES.iter().map(|f| f.to_string()).collect(),
        training: Training {
            corpora,
            seed,
            folds: None,
            balance: None,
            unlabelled: None,
        },
        cv: None,
        loco: None,
        cescope_version: env!("CARGO_PKG_VERSION").to_string(),
        threshold: 0.5,
        body: fit(pages, seed)?,
    })
}

/// Fits the ranker on every page of `corpora` with a gold headline and returns its model file
/// ([`model_of`]; write it with [`ModelFile::to_bytes`] and [`model::write`]) and the notes of
/// [`data::gather`] (pages left out: no gold, unfinished gold files). Errors: those of
/// [`data::gather`]; [`Error::Train`] when no page has a gold headline, from [`fit`], or in a
/// build without the learners ([`super::check_fitter`]).
pub fn train(corpora: &[PathBuf], seed: u64) -> Result<(ModelFile<Forest>, Vec<String>)> {
    super::check_fitter(METHOD, Some(gbt::FITTER), super::CAN_FIT)?;
    let (pages, notes) = data::gather(corpora)?;
    let (pages, _dropped) = with_headline(pages);
    if pages.is_empty() {
        return Err(Error::Train(
            "no page with a gold headline in the given corpora".into(),
        ));
    }
    let prepared = prepare_pages(&pages);
    let records =
        super::train::corpus_records(pages.iter().map(|p| (p.corpus.as_str(), p.site.as_str())));
    let refs: Vec<&PageRows> = prepared.iter().collect();
    Ok((model_of(&refs, records, seed)?, notes))
}

/// Loads a headline ranker's model file as a finder named after the file's stem. Errors:
/// [`Error::Model`] naming the file: unreadable, not JSON, another schema or method, another
/// feature list, a malformed forest.
pub fn load(path: &Path) -> Result<Arc<dyn HeadlineFinder>> {
    let (name, bytes) = model::read(path)?;
    load_bytes(path, &name, &bytes)
}

/// A headline ranker's model file `bytes` as a finder named `name` (`path` names the file in
/// errors). Errors: as [`load`].
pub fn load_bytes(path: &Path, name: &str, bytes: &[u8]) -> Result<Arc<dyn HeadlineFinder>> {
    let bad = |message: String| Error::Model {
        file: crate::fsio::write::printable_path(path),
        message,
    };
    let method = model::method_of(path, bytes)?;
    if method != METHOD {
        return Err(bad(format!(
            "method {method:?} is not a headline ranker ({METHOD:?}; train one with `cescope \
             train --method headline`)"
        )));
    }
    let m: ModelFile<Forest> = model::parse_body(path, bytes)?;
    let want: Vec<String> = FEATURES.iter().map(|f| f.to_string()).collect();
    model::check_features(path, &m.features, &want)?;
    m.body.check(FEATURES.len()).map_err(bad)?;
    finder(name, m.body)
}

/// Every page of `pages` read and turned into candidate rows against its gold headline, in
/// parallel and in page order; a page that cannot be read has no candidates.
fn prepare_pages(pages: &[crate::eval::run::EvalPage]) -> Vec<PageRows> {
    let opts = DecodeOptions::default();
    pages
        .par_iter()
        .map(|ep| {
            let gold = ep.gold.headline.as_deref().unwrap_or("");
            Page::load(&ep.path, &opts)
                .map(|page| prepare(&page, gold))
                .unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOPICS: &[&str] = &[
        "rain in spain",
        "floods hit the valley",
        "new bridge opens",
        "mayor resigns after vote",
        "school wins chess cup",
        "river levels fall",
        "harvest comes early",
        "museum reopens doors",
        "train fares rise again",
        "storm cuts power lines",
        "city plants new trees",
        "local team reaches final",
    ];

    /// A toy news page: the `title` is "Daily News: <topic>" (no separator, so no `title`
    /// part equals the headline), the `h1` is the topic, and a longer paragraph repeating the
    /// topic's words comes before or after it.
    fn toy(k: usize) -> (Page, String) {
        let topic = TOPICS[k % TOPICS.len()];
        let head = format!(
            "{} {}",
            topic,
            ["today", "now", "at last", "this week"][k % 4]
        );
        let para = format!(
            "<p>Daily News reports that {head}, and {topic} is what everyone in town talked \
             about all day long, said the paper's editor number {k}.</p>"
        );
        let h1 = format!("<h1>{head}</h1>");
        let (a, b) = if k.is_multiple_of(3) {
            (&para, &h1)
        } else {
            (&h1, &para)
        };
        let html = format!(
            "<html><head><title>Daily News: {head}</title></head><body>\
             <nav><a href=/>Home</a> <a href=/w>Weather</a></nav>{a}{b}\
             <p>More stories {k}.</p><footer><h2>Contact</h2></footer></body></html>"
        );
        (Page::from_text("toy.html", &html), head)
    }

    fn toy_rows(n: usize) -> Vec<PageRows> {
        (0..n)
            .map(|k| {
                let (page, gold) = toy(k);
                prepare(&page, &gold)
            })
            .collect()
    }

    #[test]
    fn an_h1_matching_the_title_beats_a_longer_paragraph() {
        let pages = toy_rows(48);
        // Exactly one candidate per page is the gold headline: the h1.
        for p in &pages {
            assert_eq!(p.labels.iter().filter(|&&l| l).count(), 1);
        }
        let refs: Vec<&PageRows> = pages.iter().collect();
        let forest = fit(&refs, 3).unwrap();
        let f = finder("mine", forest.clone()).unwrap();
        // Unseen pages (other numbers and topic / suffix combinations).
        for k in [100, 101, 102, 103, 205] {
            let (page, gold) = toy(k);
            let h = f.run(&page, &Params::default());
            let best = h.best().unwrap();
            assert_eq!(best.text, gold, "page {k}");
            h.trace.validate(&page).unwrap();
            let rows = prepare(&page, &gold);
            let i = pick(&forest, &rows).unwrap();
            assert_eq!(rows.texts[i], gold);
            let heading = FEATURES.iter().position(|f| *f == "heading").unwrap();
            assert_eq!(rows.row(i)[heading], 1.0, "page {k}: the h1 itself");
            assert_eq!(&page.text()[best.range.clone()], gold);
            // The paragraph, longer and just as similar to the title, scores lower.
            let para = rows
                .texts
                .iter()
                .position(|t| t.starts_with("Daily News reports"))
                .unwrap();
            assert!(forest.probability(rows.row(i)) > forest.probability(rows.row(para)));
        }
    }

    #[test]
    fn fits_are_deterministic_and_bad_data_are_errors() {
        let pages = toy_rows(30);
        let refs: Vec<&PageRows> = pages.iter().collect();
        let a = serde_json::to_string(&fit(&refs, 5).unwrap()).unwrap();
        let b = serde_json::to_string(&fit(&refs, 5).unwrap()).unwrap();
        assert_eq!(a, b);
        // No positive: a clear error.
        let (page, _) = toy(1);
        let none = prepare(&page, "not on the page");
        assert!(none.labels.iter().all(|&l| !l));
        let e = fit(&[&none], 1).unwrap_err().to_string();
        assert!(e.contains("both kinds"), "{e}");
        assert!(fit(&[], 1).is_err());
        let mut bad = pages[0].clone();
        bad.rows.pop();
        assert!(fit(&[&bad], 1)
            .unwrap_err()
            .to_string()
            .contains("malformed"));
        // A forest over other features is refused.
        let wrong = Forest {
            width: 3,
            ..Forest::default()
        };
        assert!(finder("x", wrong).is_err());
        assert_eq!(
            pick(&serde_json::from_str(&a).unwrap(), &PageRows::default()),
            None
        );
        // An empty gold headline labels nothing.
        assert!(prepare(&page, " \n").labels.iter().all(|&l| !l));
    }

    #[test]
    fn model_files_round_trip_and_bad_files_are_errors() {
        let pages = toy_rows(30);
        let refs: Vec<&PageRows> = pages.iter().collect();
        let m = model_of(&refs, Vec::new(), 2).unwrap();
        let bytes = m.to_bytes();
        assert_eq!(bytes, model_of(&refs, Vec::new(), 2).unwrap().to_bytes());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("heads.json");
        model::write(&path, &bytes).unwrap();
        let f = load(&path).unwrap();
        assert_eq!(f.name(), "heads");
        let (page, gold) = toy(77);
        assert_eq!(f.run(&page, &Params::default()).best().unwrap().text, gold);
        let text = String::from_utf8(bytes).unwrap();
        for (from, to, why) in [
            (
                "\"method\": \"headline\"",
                "\"method\": \"stack\"",
                "not a headline ranker",
            ),
            ("\"schema\": 1", "\"schema\": 9", "schema 9"),
            ("\"cos_tf\"", "\"cosine\"", "feature"),
            ("\"width\": 23", "\"width\": 2", "features per row"),
        ] {
            assert!(text.contains(from), "{from}");
            let e = load_bytes(&path, "x", text.replacen(from, to, 1).as_bytes())
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(e.contains(why) && e.contains("heads.json"), "{why}: {e}");
        }
        assert!(load_bytes(&path, "x", b"{").is_err());
        assert!(load(&dir.path().join("missing.json")).is_err());
    }
}
