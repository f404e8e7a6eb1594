//! The training pipeline of every learned method (`cescope train`): gather the pages, prepare
//! each once, cross-validate grouped by site, fit on all training pages, score a test set,
//! and produce the model file's bytes.
//!
//! Deterministic: the pages are prepared in parallel but kept in page order, every fit runs on
//! pages in that order with a seed derived from `--seed` (fold `f` gets its own), the folds are
//! fitted in parallel but their scores are put back per page before any sum, and the averages
//! are summed in page order — so the same job gives the same bytes with 1 or 2 threads.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use rayon::prelude::*;

use super::data::{self, PageMeta, Prepared};
use super::folds;
use super::model::{CorpusRecord, Figures, ModelFile, ScoreRow, Training, SCHEMA};
use super::Learner;
use crate::error::{Error, Result};
use crate::eval::run::Metric;
use crate::metrics::Prf;

/// What to train on and how.
#[derive(Debug, Clone, Default)]
pub struct TrainJob {
    /// Training corpora (`ground-truth.json` corpora or folders of pages with gold files).
    pub train: Vec<PathBuf>,
    /// Test corpora: scored with the final model; none of their pages may be a training page.
    pub test: Vec<PathBuf>,
    /// `--folds K`: cross-validate grouped by site first.
    pub folds: Option<usize>,
    /// The seed of every random draw.
    pub seed: u64,
    /// Draw a progress bar on standard error.
    pub progress: bool,
}

/// What [`run`] produced.
#[derive(Debug, Clone)]
pub struct Trained {
    /// The model file's bytes ([`ModelFile::to_bytes`]).
    pub bytes: Vec<u8>,
    /// The cross-validation figures (`--folds`).
    pub cv: Option<Figures>,
    /// The test figures (`--test`).
    pub test: Option<Figures>,
    /// Pages left out (no gold, unreadable), one line each.
    pub notes: Vec<String>,
    /// Training pages used.
    pub pages: usize,
    /// With `--folds`: each training page's description and its cross-validated score (the
    /// fold's model, which never saw the page's site), in page order; empty otherwise.
    pub cv_pages: Vec<(PageMeta, Prf)>,
    /// Wall-clock seconds of the three stages: reading and featurising the pages, the
    /// cross-validation folds (0 without `--folds`), the final fit.
    pub seconds: [f64; 3],
}

/// A progress bar on standard error, or nothing.
struct Bar(Option<indicatif::ProgressBar>);

impl Bar {
    fn new(on: bool, len: usize) -> Bar {
        Bar(on.then(|| {
            let b = indicatif::ProgressBar::with_draw_target(
                Some(len as u64),
                indicatif::ProgressDrawTarget::stderr(),
            );
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{spinner} {msg:12} {bar:40} {pos}/{len} {elapsed_precise} (eta {eta})",
            ) {
                b.set_style(style);
            }
            b
        }))
    }

    fn inc(&self) {
        if let Some(b) = &self.0 {
            b.inc(1);
        }
    }

    fn say(&self, msg: &'static str) {
        if let Some(b) = &self.0 {
            b.set_message(msg);
        }
    }

    fn done(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

/// The seed of fold `f`'s fit (the final fit uses `seed` itself).
fn fold_seed(seed: u64, f: usize) -> u64 {
    seed ^ (f as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Errors when a test page is also a training page (same file, compared by canonical path).
fn refuse_overlap(
    train: &[crate::eval::run::EvalPage],
    test: &[crate::eval::run::EvalPage],
) -> Result<()> {
    let canon = |p: &PathBuf| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
    let seen: BTreeSet<PathBuf> = train.iter().map(|p| canon(&p.path)).collect();
    let both: Vec<&crate::eval::run::EvalPage> = test
        .iter()
        .filter(|p| seen.contains(&canon(&p.path)))
        .collect();
    if let Some(first) = both.first() {
        return Err(Error::Train(format!(
            "{} test page{} also training page{} (first: {}); a model is never scored on pages \
             it trained on",
            both.len(),
            if both.len() == 1 { " is" } else { "s are" },
            if both.len() == 1 { "" } else { "s" },
            crate::fsio::write::printable_path(&first.path)
        )));
    }
    Ok(())
}

/// Runs the pipeline for learner `l` (see the module documentation). Errors: those of
/// [`data::gather`] (missing corpus, no gold), [`folds::assign`] (`--folds` below 2, fewer
/// sites than folds), overlapping test pages, and the learner's fit ([`Error::Train`]).
pub fn run<L: Learner>(l: &L, job: &TrainJob) -> Result<Trained> {
    let (train_pages, mut notes) = data::gather(&job.train)?;
    let test_pages = if job.test.is_empty() {
        Vec::new()
    } else {
        let (t, n) = data::gather(&job.test)?;
        notes.extend(n);
        refuse_overlap(&train_pages, &t)?;
        t
    };
    if let Some(k) = job.folds {
        // Before any page is read: a job that cannot be cross-validated fails at once.
        let sites: Vec<&str> = train_pages.iter().map(|p| p.site.as_str()).collect();
        folds::assign(&sites, k, job.seed)?;
    }
    let fits = job.folds.unwrap_or(0) + 1;
    let bar = Bar::new(job.progress, train_pages.len() + test_pages.len() + fits);
    let clock = std::time::Instant::now();
    bar.say("reading");
    let prepare =
        |page: &crate::page::Page, gold: &crate::selection::Selection| l.prepare(page, gold);
    let tick = || bar.inc();
    let (prepared, n) = data::prepare_all(&train_pages, &prepare, &tick);
    notes.extend(n);
    let (tested, n) = data::prepare_all(&test_pages, &prepare, &tick);
    notes.extend(n);
    if prepared.is_empty() {
        bar.done();
        return Err(Error::Train("no training page could be read".into()));
    }
    let threshold = l.default_threshold();
    let score = |body: &L::Body, p: &Prepared<L::PageData>| -> Prf {
        Metric::Word.prf(&l.extract_text(body, &p.data, threshold), &p.gold_text)
    };

    let read_secs = clock.elapsed().as_secs_f64();
    bar.say("fitting");
    let mut cv_pages = Vec::new();
    let cv = match job.folds {
        Some(k) => {
            let sites: Vec<&str> = prepared.iter().map(|p| p.meta.site.as_str()).collect();
            let fold_of = folds::assign(&sites, k, job.seed)?;
            let fit_fold = |f: usize| -> Result<Vec<(usize, Prf)>> {
                let train: Vec<&L::PageData> = prepared
                    .iter()
                    .zip(&fold_of)
                    .filter(|(_, &g)| g != f)
                    .map(|(p, _)| &p.data)
                    .collect();
                let body = l.fit(&train, fold_seed(job.seed, f))?;
                let scored = prepared
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| fold_of[*i] == f)
                    .map(|(i, p)| (i, score(&body, p)))
                    .collect();
                bar.inc();
                Ok(scored)
            };
            let per_fold: Vec<Result<Vec<(usize, Prf)>>> = if l.parallel_folds() {
                (0..k).into_par_iter().map(fit_fold).collect()
            } else {
                (0..k).map(fit_fold).collect()
            };
            let mut prf = vec![Prf::from_counts(0, 0, 0); prepared.len()];
            for fold in per_fold {
                for (i, s) in fold? {
                    prf[i] = s;
                }
            }
            let metas: Vec<&PageMeta> = prepared.iter().map(|p| &p.meta).collect();
            let rows = figures(&metas, &prf);
            cv_pages = prepared.iter().map(|p| p.meta.clone()).zip(prf).collect();
            Some(Figures { folds: k, rows })
        }
        None => None,
    };
    let cv_secs = clock.elapsed().as_secs_f64() - read_secs;
    let all: Vec<&L::PageData> = prepared.iter().map(|p| &p.data).collect();
    let body = l.fit(&all, job.seed)?;
    bar.inc();
    let fit_secs = clock.elapsed().as_secs_f64() - read_secs - cv_secs;
    let test = (!tested.is_empty()).then(|| {
        let prf: Vec<Prf> = tested.par_iter().map(|p| score(&body, p)).collect();
        let metas: Vec<&PageMeta> = tested.iter().map(|p| &p.meta).collect();
        Figures {
            folds: 0,
            rows: figures(&metas, &prf),
        }
    });
    bar.done();
    let model = ModelFile {
        schema: SCHEMA,
        method: l.info().name.to_string(),
        features: l.feature_names(),
        training: Training {
            corpora: corpus_records(
                prepared
                    .iter()
                    .map(|p| (p.meta.corpus.as_str(), p.meta.site.as_str())),
            ),
            seed: job.seed,
            folds: job.folds,
        },
        cv: cv.clone(),
        cescope_version: env!("CARGO_PKG_VERSION").to_string(),
        threshold,
        body,
    };
    Ok(Trained {
        bytes: model.to_bytes(),
        cv,
        test,
        notes,
        pages: prepared.len(),
        cv_pages,
        seconds: [read_secs, cv_secs, fit_secs],
    })
}

/// The training record of each corpus of `pages` (each page's corpus and site), in the order
/// the corpora first appear: its pages, its distinct sites and its licence. Used by every
/// model file's `training` (block methods here, the headline ranker).
pub(crate) fn corpus_records<'a>(
    pages: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Vec<CorpusRecord> {
    let mut order: Vec<&str> = Vec::new();
    let mut by: BTreeMap<&str, (usize, BTreeSet<&str>)> = BTreeMap::new();
    for (corpus, site) in pages {
        if !by.contains_key(corpus) {
            order.push(corpus);
        }
        let e = by.entry(corpus).or_default();
        e.0 += 1;
        e.1.insert(site);
    }
    order
        .into_iter()
        .map(|name| {
            let (pages, sites) = &by[name];
            CorpusRecord {
                licence: data::licence_of(name).to_string(),
                pages: *pages,
                sites: sites.len(),
                name: name.to_string(),
            }
        })
        .collect()
}

/// Per-page cross-validation scores ([`Trained::cv_pages`]) as CSV (RFC 4180 quoting): the
/// header `corpus,id,site,page_type,precision,recall,f1`, then one line per page in page order,
/// scores to 4 decimals.
pub fn cv_pages_csv(pages: &[(PageMeta, Prf)]) -> String {
    use crate::eval::report::csv_field;
    let mut out = String::from("corpus,id,site,page_type,precision,recall,f1\n");
    for (m, p) in pages {
        out.push_str(&format!(
            "{},{},{},{},{:.4},{:.4},{:.4}\n",
            csv_field(&m.corpus),
            csv_field(&m.id),
            csv_field(&m.site),
            csv_field(m.page_type.as_deref().unwrap_or("")),
            p.precision,
            p.recall,
            p.f1
        ));
    }
    out
}

/// Macro averages of `prf` (aligned with `metas`) per corpus (in page order), each followed by
/// its page types (sorted) when the corpus labels them.
pub fn figures(metas: &[&PageMeta], prf: &[Prf]) -> Vec<ScoreRow> {
    let mut order: Vec<&str> = Vec::new();
    for m in metas {
        if !order.contains(&m.corpus.as_str()) {
            order.push(&m.corpus);
        }
    }
    let row = |corpus: &str, page_type: Option<&str>, idx: &[usize]| {
        let n = idx.len().max(1) as f64;
        let mean = |f: &dyn Fn(&Prf) -> f64| idx.iter().map(|&i| f(&prf[i])).sum::<f64>() / n;
        ScoreRow {
            corpus: corpus.to_string(),
            page_type: page_type.map(str::to_string),
            pages: idx.len(),
            precision: mean(&|p| p.precision),
            recall: mean(&|p| p.recall),
            f1: mean(&|p| p.f1),
        }
    };
    let mut rows = Vec::new();
    for c in order {
        let idx: Vec<usize> = (0..metas.len()).filter(|&i| metas[i].corpus == c).collect();
        rows.push(row(c, None, &idx));
        let mut types: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for &i in &idx {
            if let Some(t) = metas[i].page_type.as_deref() {
                types.entry(t).or_default().push(i);
            }
        }
        for (t, members) in types {
            rows.push(row(c, Some(t), &members));
        }
    }
    rows
}

/// The figures as an aligned table: `corpus  type  pages  P  R  F1`.
pub fn table(f: &Figures) -> String {
    let mut out = format!(
        "{:<22} {:<14} {:>6} {:>7} {:>7} {:>7}\n",
        "corpus", "page type", "pages", "P", "R", "F1"
    );
    for r in &f.rows {
        out.push_str(&format!(
            "{:<22} {:<14} {:>6} {:>7.3} {:>7.3} {:>7.3}\n",
            r.corpus,
            r.page_type.as_deref().unwrap_or("(all)"),
            r.pages,
            r.precision,
            r.recall,
            r.f1
        ));
    }
    out
}
