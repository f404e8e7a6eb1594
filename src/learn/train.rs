//! The training pipeline of every learned method (`cescope train`): gather the pages, prepare
//! each once, cross-validate grouped by site and / or leaving one corpus out, fit on all
//! training pages, score a test set, and produce the model file's bytes.
//!
//! Deterministic: the pages are prepared in parallel but kept in page order, every fit runs on
//! pages in that order with a seed derived from `--seed` (fold `f` gets its own), the folds and
//! the final fit run side by side but the folds' scores are put back per page before any sum,
//! and the averages are summed in page order — so the same job gives the same bytes with 1 or
//! 2 threads.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use super::data::{self, PageMeta, Prepared};
use super::folds;
use super::model::{CorpusRecord, Figures, ModelFile, ScoreRow, Training, SCHEMA};
use super::Learner;
use crate::error::{Error, Result};
use crate::eval::run::Metric;
use crate::metrics::Prf;
use crate::page::units::KindSet;

/// How a fit weighs its training pages against each other (`cescope train --balance`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Balance {
    /// Every page weighs the same (the default): a corpus weighs as much as it has pages.
    #[default]
    Pages,
    /// Every training corpus weighs the same: a page of a corpus of `n` pages weighs
    /// `N / (C · n)` (`N` pages, `C` corpora in the fit), so a large corpus's definition of main
    /// content does not drown the others' — as the leave-one-corpus-out mean weighs each
    /// corpus the same. Only for a method that [weighs pages](Learner::weighs_pages).
    Corpora,
}

impl Balance {
    /// The word `--balance` takes and a model file's `training.balance` records.
    pub fn name(self) -> &'static str {
        match self {
            Balance::Pages => "pages",
            Balance::Corpora => "corpora",
        }
    }

    /// The weight of each page of a fit whose pages come from `corpora` (one corpus name per
    /// page, in page order): all 1 for [`Balance::Pages`]; for [`Balance::Corpora`], each
    /// corpus's pages sum to `N / C`, so the weights still average 1. O(pages).
    pub fn weights(self, corpora: &[&str]) -> Vec<f64> {
        match self {
            Balance::Pages => vec![1.0; corpora.len()],
            Balance::Corpora => {
                let mut count: BTreeMap<&str, usize> = BTreeMap::new();
                for c in corpora {
                    *count.entry(c).or_default() += 1;
                }
                let n = corpora.len() as f64;
                let k = count.len() as f64;
                corpora.iter().map(|c| n / (k * count[c] as f64)).collect()
            }
        }
    }
}

/// What to train on and how.
#[derive(Debug, Clone, Default)]
pub struct TrainJob {
    /// Training corpora (`ground-truth.json` corpora or folders of pages with gold files).
    pub train: Vec<PathBuf>,
    /// Test corpora: scored with the final model; none of their pages may be a training page.
    pub test: Vec<PathBuf>,
    /// `--folds K`: cross-validate grouped by site first.
    pub folds: Option<usize>,
    /// `--folds corpus`: cross-validate leaving one training corpus out first (each corpus
    /// scored by a model fitted on the others, [`folds::by_corpus`]); needs at least 2
    /// training corpora. May be combined with `folds` (both are run, on the same prepared
    /// pages).
    pub loco: bool,
    /// `--members a,b,…`: the member extractors of a method that has them (the stacked
    /// classifier, [`super::stack`]), registered extractor names; `None` for the method's
    /// default members. Errors for a method without members ([`Learner::with_members`]).
    pub members: Option<Vec<String>>,
    /// `--unlabelled KINDS`: the unit kinds whose blocks every fit leaves unlabelled
    /// ([`Learner::with_unlabelled`]); `None`: every block is labelled by the gold. Errors for
    /// a method whose rows do not mark unit kinds.
    pub unlabelled: Option<KindSet>,
    /// `--balance`: how each fit weighs its pages ([`Balance`]). Errors for
    /// [`Balance::Corpora`] with a method that does not [weigh pages](Learner::weighs_pages).
    pub balance: Balance,
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
    /// The cross-validation figures (`--folds K`).
    pub cv: Option<Figures>,
    /// The leave-one-corpus-out figures (`--folds corpus`): rows per corpus (and its page
    /// types), each corpus scored by the model fitted on the other corpora.
    pub loco: Option<Figures>,
    /// The test figures (`--test`).
    pub test: Option<Figures>,
    /// Pages left out (no gold, unreadable), one line each.
    pub notes: Vec<String>,
    /// Training pages used.
    pub pages: usize,
    /// With `--folds K`: each training page's description and its cross-validated score (the
    /// fold's model, which never saw the page's site), in page order; empty otherwise.
    pub cv_pages: Vec<(PageMeta, Prf)>,
    /// With `--folds corpus`: the same, each page scored by the model that never saw its
    /// corpus; empty otherwise.
    pub loco_pages: Vec<(PageMeta, Prf)>,
    /// Wall-clock seconds of the two stages: reading and featurising the pages; fitting (the
    /// cross-validation folds, site-grouped and leave-one-corpus-out, and the final fit, run
    /// side by side: [`run_fits`]).
    pub seconds: [f64; 2],
    /// Wall-clock seconds of each fit (a fold's includes scoring its pages): the final fit
    /// first, then the site-grouped folds, then the leave-one-corpus-out folds, each in fold
    /// order.
    pub fit_seconds: Vec<f64>,
    /// How many fits ran at a time (each on one thread when more than one).
    pub lanes: usize,
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

/// One fit of a training job: the final fit on every training page, or fold `f` of a
/// cross-validation whose folds are `fold_of` (one fold number per prepared page).
#[derive(Debug, Clone, Copy)]
enum Fit<'a> {
    Final,
    /// `loco`: a fold of the leave-one-corpus-out cross-validation (else site-grouped).
    Fold {
        loco: bool,
        fold_of: &'a [usize],
        f: usize,
    },
}

/// What a [`Fit`] gives: the final fit's body, or the scores of the fold's pages, each with
/// its page index.
enum Fitted<B> {
    Final(B),
    Fold(Vec<(usize, Prf)>),
}

/// What a [`Fit`] gave and its wall-clock seconds.
type Timed<B> = (Fitted<B>, f64);

/// Where a lane of [`run_fits`] puts a fit's outcome (`None`: the fit did not run).
type Slot<B> = Mutex<Option<Result<Timed<B>>>>;

/// Runs every fit of `fits` (in any order, see below) and returns what each gave, in the order
/// of `fits`. A fold `f` fits `l` on the pages whose `fold_of` is not `f` (seed
/// [`fold_seed`]) and scores the pages whose `fold_of` is `f`; the final fit fits on every page
/// with `seed` itself.
///
/// Fits run side by side, as many at a time as the calling rayon pool has threads ("lanes"),
/// each on one thread (in a one-thread pool: a library that parallelises inside a fit,
/// perpetual's histograms, then runs single-threaded, which its results do not depend on), in
/// the order of `fits` as lanes free up; a single fit, or a pool of one thread, runs them one
/// after another on the pool. Side by side is faster than one after another on all threads: a
/// fit of the stack does not keep two cores busy (docs/learning.md, "Training time"); the
/// memory of as many fits is held at once. `done` is called once per fit. The result does not
/// depend on the order the fits run in or on the thread count (perpetual's trees depend
/// neither on its thread count nor, with `vendor/sysinfo`, on the memory free: [`gbt`]).
/// Returns each fit's result and wall-clock seconds, and the number of lanes. Errors: the
/// learner's fit (the first in `fits` order).
///
/// [`gbt`]: crate::learn::gbt
#[allow(clippy::too_many_arguments)]
fn run_fits<L: Learner>(
    l: &L,
    prepared: &[Prepared<L::PageData>],
    fits: &[Fit<'_>],
    seed: u64,
    balance: Balance,
    score: &(impl Fn(&L::Body, &Prepared<L::PageData>) -> Prf + Sync),
    done: &(dyn Fn() + Sync),
) -> Result<(Vec<Timed<L::Body>>, usize)> {
    let fit_one = |fit: &Fit<'_>| -> Result<Timed<L::Body>> {
        let clock = std::time::Instant::now();
        let out = match *fit {
            Fit::Final => {
                let all: Vec<&L::PageData> = prepared.iter().map(|p| &p.data).collect();
                let corpora: Vec<&str> = prepared.iter().map(|p| p.meta.corpus.as_str()).collect();
                Fitted::Final(l.fit(&all, &balance.weights(&corpora), seed)?)
            }
            Fit::Fold { fold_of, f, .. } => {
                let kept: Vec<&Prepared<L::PageData>> = prepared
                    .iter()
                    .zip(fold_of)
                    .filter(|(_, &g)| g != f)
                    .map(|(p, _)| p)
                    .collect();
                let train: Vec<&L::PageData> = kept.iter().map(|p| &p.data).collect();
                let corpora: Vec<&str> = kept.iter().map(|p| p.meta.corpus.as_str()).collect();
                let body = l.fit(&train, &balance.weights(&corpora), fold_seed(seed, f))?;
                Fitted::Fold(
                    prepared
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| fold_of[*i] == f)
                        .map(|(i, p)| (i, score(&body, p)))
                        .collect(),
                )
            }
        };
        done();
        Ok((out, clock.elapsed().as_secs_f64()))
    };
    let lanes = rayon::current_num_threads().min(fits.len()).max(1);
    if lanes == 1 {
        let fitted = fits.iter().map(fit_one).collect::<Result<_>>()?;
        return Ok((fitted, 1));
    }
    // `lanes` threads of our own, each taking the next fit until none is left: exactly `lanes`
    // fits at a time (a rayon worker waiting for a fit in another pool would steal and start
    // the next fit meanwhile: all of them at once, each holding its memory). A lane that cannot
    // start leaves its fits to the others; with none, every fit is an error below.
    let next = AtomicUsize::new(0);
    let slots: Vec<Slot<L::Body>> = fits.iter().map(|_| Mutex::new(None)).collect();
    let lane = || {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let (Some(fit), Some(slot)) = (fits.get(i), slots.get(i)) else {
                break;
            };
            let out = match &pool {
                Ok(pool) => pool.install(|| fit_one(fit)),
                Err(_) => fit_one(fit),
            };
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(out);
        }
    };
    std::thread::scope(|scope| {
        for n in 0..lanes {
            let _ = std::thread::Builder::new()
                .name(format!("cescope-fit-{n}"))
                .spawn_scoped(scope, lane);
        }
    });
    let fitted = slots
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .unwrap_or_else(|| Err(Error::Train("a fit did not run".into())))
        })
        .collect::<Result<_>>()?;
    Ok((fitted, lanes))
}

/// The cross-validated score of each of `pages` pages (in page order): from the folds of
/// `fitted` of the leave-one-corpus-out cross-validation when `loco`, else of the
/// site-grouped one (`fits[i]` gave `fitted[i]`).
fn scores_of<B>(fits: &[Fit<'_>], fitted: &[Timed<B>], pages: usize, loco: bool) -> Vec<Prf> {
    let mut prf = vec![Prf::from_counts(0, 0, 0); pages];
    for (fit, (out, _)) in fits.iter().zip(fitted) {
        if let (Fit::Fold { loco: l, .. }, Fitted::Fold(scored)) = (fit, out) {
            if *l == loco {
                for &(i, s) in scored {
                    prf[i] = s;
                }
            }
        }
    }
    prf
}

/// Runs the pipeline for learner `l` (see the module documentation). Errors: those of
/// [`data::gather`] (missing corpus, no gold), [`folds::assign`] (`--folds` below 2, fewer
/// sites than folds), [`folds::by_corpus`] (`--folds corpus` with fewer than 2 training
/// corpora), overlapping test pages, [`Error::Train`] for `--balance corpora` with a method
/// that does not weigh pages, and the learner's fit ([`Error::Train`]).
pub fn run<L: Learner>(l: &L, job: &TrainJob) -> Result<Trained> {
    if job.balance != Balance::Pages && !l.weighs_pages() {
        return Err(Error::Train(format!(
            "--balance {}: the {} method cannot weigh its pages (only stack does)",
            job.balance.name(),
            l.info().name
        )));
    }
    let (train_pages, mut notes) = data::gather(&job.train)?;
    let test_pages = if job.test.is_empty() {
        Vec::new()
    } else {
        let (t, n) = data::gather(&job.test)?;
        notes.extend(n);
        refuse_overlap(&train_pages, &t)?;
        t
    };
    // Before any page is read: a job that cannot be cross-validated fails at once.
    if let Some(k) = job.folds {
        let sites: Vec<&str> = train_pages.iter().map(|p| p.site.as_str()).collect();
        folds::assign(&sites, k, job.seed)?;
    }
    let loco_folds = if job.loco {
        let corpora: Vec<&str> = train_pages.iter().map(|p| p.corpus.as_str()).collect();
        folds::by_corpus(&corpora)?.1.len()
    } else {
        0
    };
    let n_fits = job.folds.unwrap_or(0) + loco_folds + 1;
    let bar = Bar::new(job.progress, train_pages.len() + test_pages.len() + n_fits);
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
    let metas: Vec<&PageMeta> = prepared.iter().map(|p| &p.meta).collect();
    let with_meta = |prf: Vec<Prf>| prepared.iter().map(|p| p.meta.clone()).zip(prf).collect();
    // The folds of each cross-validation: site-grouped (`--folds K`), leaving one corpus out
    // (`--folds corpus`; the corpora of the pages read: a corpus whose pages all failed to
    // read has no fold).
    let by_site = match job.folds {
        Some(k) => {
            let sites: Vec<&str> = prepared.iter().map(|p| p.meta.site.as_str()).collect();
            Some((folds::assign(&sites, k, job.seed)?, k))
        }
        None => None,
    };
    let by_corpus = if job.loco {
        let corpora: Vec<&str> = prepared.iter().map(|p| p.meta.corpus.as_str()).collect();
        let (fold_of, names) = folds::by_corpus(&corpora)?;
        Some((fold_of, names.len()))
    } else {
        None
    };
    // Every fit of the job, the final fit first (the largest: it starts while the folds run).
    let mut fits = vec![Fit::Final];
    for (loco, split) in [(false, &by_site), (true, &by_corpus)] {
        if let Some((fold_of, k)) = split {
            fits.extend((0..*k).map(|f| Fit::Fold { loco, fold_of, f }));
        }
    }
    let (fitted, lanes) = run_fits(l, &prepared, &fits, job.seed, job.balance, &score, &tick)?;
    let fit_seconds: Vec<f64> = fitted.iter().map(|(_, s)| *s).collect();
    let fit_secs = clock.elapsed().as_secs_f64() - read_secs;
    // One cross-validation's figures and per-page scores (leave-one-corpus-out when `loco`).
    let figures_of = |loco: bool, k: usize| {
        let prf = scores_of(&fits, &fitted, prepared.len(), loco);
        let rows = figures(&metas, &prf);
        (Figures { folds: k, rows }, with_meta(prf))
    };
    let (cv, cv_pages) = by_site.as_ref().map(|(_, k)| figures_of(false, *k)).unzip();
    let (loco, loco_pages) = by_corpus
        .as_ref()
        .map(|(_, k)| figures_of(true, *k))
        .unzip();
    let (cv_pages, loco_pages) = (cv_pages.unwrap_or_default(), loco_pages.unwrap_or_default());
    let Some(body) = fitted.into_iter().find_map(|(f, _)| match f {
        Fitted::Final(b) => Some(b),
        Fitted::Fold(_) => None,
    }) else {
        bar.done();
        return Err(Error::Train("the final fit gave no model".into()));
    };
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
        members: l.recorded_members(),
        features: l.feature_names(),
        training: Training {
            corpora: corpus_records(
                prepared
                    .iter()
                    .map(|p| (p.meta.corpus.as_str(), p.meta.site.as_str())),
            ),
            seed: job.seed,
            folds: job.folds,
            balance: (job.balance != Balance::Pages).then(|| job.balance.name().to_string()),
            unlabelled: job
                .unlabelled
                .filter(|k| !k.is_empty())
                .map(|k| k.iter().map(|k| k.name().to_string()).collect()),
        },
        cv: cv.clone(),
        loco: loco.clone(),
        cescope_version: env!("CARGO_PKG_VERSION").to_string(),
        threshold,
        body,
    };
    Ok(Trained {
        bytes: model.to_bytes(),
        cv,
        loco,
        test,
        notes,
        pages: prepared.len(),
        cv_pages,
        loco_pages,
        seconds: [read_secs, fit_secs],
        fit_seconds,
        lanes,
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
    rows_table(&f.rows)
}

/// `rows` as an aligned table with its header.
fn rows_table(rows: &[ScoreRow]) -> String {
    let mut out = format!(
        "{:<22} {:<14} {:>6} {:>7} {:>7} {:>7}\n",
        "corpus", "page type", "pages", "P", "R", "F1"
    );
    for r in rows {
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

/// The macro mean over the corpora of `f` (each corpus's row of all its pages; its page-type
/// rows are not counted): precision, recall and F1 averaged with every corpus weighing the
/// same, whatever its number of pages — for leave-one-corpus-out figures, the
/// **leave-one-corpus-out mean**. `corpus` is `mean of N corpora`, `pages` the sum. `None`
/// when `f` has no corpus row.
pub fn corpus_mean(f: &Figures) -> Option<ScoreRow> {
    let corpora: Vec<&ScoreRow> = f.rows.iter().filter(|r| r.page_type.is_none()).collect();
    if corpora.is_empty() {
        return None;
    }
    let n = corpora.len() as f64;
    let mean = |g: &dyn Fn(&ScoreRow) -> f64| corpora.iter().map(|r| g(r)).sum::<f64>() / n;
    Some(ScoreRow {
        corpus: format!("mean of {} corpora", corpora.len()),
        page_type: None,
        pages: corpora.iter().map(|r| r.pages).sum(),
        precision: mean(&|r| r.precision),
        recall: mean(&|r| r.recall),
        f1: mean(&|r| r.f1),
    })
}

/// Leave-one-corpus-out figures as one table per left-out corpus (its row and its page types'
/// rows, under `left out: NAME — fitted on the other corpora`), then the leave-one-corpus-out
/// mean ([`corpus_mean`]) as a last table of one row.
pub fn loco_table(f: &Figures) -> String {
    let mut out = String::new();
    let mut start = 0;
    while start < f.rows.len() {
        let corpus = &f.rows[start].corpus;
        let end = f.rows[start..]
            .iter()
            .position(|r| &r.corpus != corpus)
            .map_or(f.rows.len(), |k| start + k);
        out.push_str(&format!(
            "left out: {corpus} — fitted on the other corpora\n{}\n",
            rows_table(&f.rows[start..end])
        ));
        start = end;
    }
    if let Some(m) = corpus_mean(f) {
        out.push_str("leave-one-corpus-out mean (every corpus weighs the same):\n");
        out.push_str(&rows_table(&[m]));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::extract::Extractor;
    use crate::learn::{MethodInfo, ModelFile};
    use crate::page::Page;
    use crate::selection::Selection;

    static TOY: MethodInfo = MethodInfo {
        name: "fold-spy",
        description: "remembers the pages it was fitted on",
        source: "none",
        fitter: None,
    };

    /// A learner that remembers the pages (file names) each fit saw, and extracts a page's
    /// gold text only when that fit saw exactly the pages of the *other* corpora (a page's
    /// corpus is its file name's prefix before `-`): a fold that trained on a page of the
    /// corpus it is scored on, or missed a page of another corpus, scores 0.
    struct FoldSpy {
        /// Every training page's file name.
        all: Vec<&'static str>,
    }

    fn corpus_of(name: &str) -> &str {
        name.split('-').next().unwrap_or(name)
    }

    impl Learner for FoldSpy {
        type PageData = (String, String);
        type Body = Vec<String>;

        fn info(&self) -> &'static MethodInfo {
            &TOY
        }

        fn feature_names(&self) -> Vec<String> {
            Vec::new()
        }

        fn prepare(&self, page: &Page, gold: &Selection) -> (String, String) {
            (page.name().to_string(), page.render(gold))
        }

        fn fit(
            &self,
            pages: &[&(String, String)],
            _weights: &[f64],
            _seed: u64,
        ) -> Result<Vec<String>> {
            Ok(pages.iter().map(|p| p.0.clone()).collect())
        }

        fn extract_text(&self, body: &Vec<String>, page: &(String, String), _t: f64) -> String {
            let own = corpus_of(&page.0);
            let others: Vec<&str> = self
                .all
                .iter()
                .copied()
                .filter(|n| corpus_of(n) != own)
                .collect();
            if *body == others {
                page.1.clone()
            } else {
                String::new()
            }
        }

        fn extractor(&self, _name: &str, _model: ModelFile<Vec<String>>) -> Arc<dyn Extractor> {
            unreachable!("the spy is never loaded")
        }
    }

    /// A `ground-truth.json` corpus `dir/name` of hand-made pages `name-1.html`, …, one site
    /// each, the first paragraph as gold.
    fn corpus(dir: &std::path::Path, name: &str, pages: usize) -> PathBuf {
        let root = dir.join(name);
        std::fs::create_dir_all(root.join("html")).unwrap();
        let mut gt = serde_json::Map::new();
        for i in 1..=pages {
            let id = format!("{name}-{i}");
            let body =
                format!("The {name} story number {i} tells of rivers and the towns along them.");
            std::fs::write(
                root.join("html").join(format!("{id}.html")),
                format!(
                    "<html><body><p>{body}</p><ul><li><a href=/a>Home</a></li>\
                     <li><a href=/b>About</a></li></ul></body></html>"
                ),
            )
            .unwrap();
            gt.insert(
                id,
                serde_json::json!({"articleBody": body, "url": format!("https://{name}{i}.example/")}),
            );
        }
        std::fs::write(
            root.join("ground-truth.json"),
            serde_json::to_vec(&gt).unwrap(),
        )
        .unwrap();
        root
    }

    /// Leave-one-corpus-out: each corpus is scored only by the fit on all pages of the other
    /// corpora (never on one of its own pages), the rows are per left-out corpus, the mean
    /// weighs each corpus the same, and the site-grouped folds run beside it in the same job.
    #[test]
    fn each_corpus_is_scored_by_the_fit_on_the_other_corpora() {
        let dir = tempfile::tempdir().unwrap();
        let news = corpus(dir.path(), "news", 3);
        let blogs = corpus(dir.path(), "blogs", 2);
        let wiki = corpus(dir.path(), "wiki", 2);
        let spy = FoldSpy {
            all: vec![
                "news-1.html",
                "news-2.html",
                "news-3.html",
                "blogs-1.html",
                "blogs-2.html",
                "wiki-1.html",
                "wiki-2.html",
            ],
        };
        let job = TrainJob {
            train: vec![news, blogs, wiki],
            loco: true,
            folds: Some(2),
            seed: 3,
            ..TrainJob::default()
        };
        let t = run(&spy, &job).unwrap();
        let loco = t.loco.clone().unwrap();
        assert_eq!(loco.folds, 3);
        let rows: Vec<(&str, usize, f64)> = loco
            .rows
            .iter()
            .map(|r| (r.corpus.as_str(), r.pages, r.f1))
            .collect();
        assert_eq!(
            rows,
            [("news", 3, 1.0), ("blogs", 2, 1.0), ("wiki", 2, 1.0)]
        );
        assert_eq!(t.loco_pages.len(), 7);
        assert!(t.loco_pages.iter().all(|(_, p)| p.f1 == 1.0));
        // Site-grouped folds mix the corpora: some page is scored by a fit that saw its corpus.
        let cv = t.cv.clone().unwrap();
        assert_eq!(cv.folds, 2);
        assert!(t.cv_pages.iter().any(|(_, p)| p.f1 == 0.0));
        // The model file stores both, and the final fit saw every page.
        let m: ModelFile<Vec<String>> = serde_json::from_slice(&t.bytes).unwrap();
        assert_eq!(m.loco, Some(loco.clone()));
        assert_eq!(m.cv, Some(cv));
        assert_eq!(m.body.len(), 7);
        assert_eq!(m.members, None);
        // The mean weighs each corpus the same (not each page).
        let mut f = loco.clone();
        f.rows[0].f1 = 0.0;
        let mean = corpus_mean(&f).unwrap();
        assert!((mean.f1 - 2.0 / 3.0).abs() < 1e-12, "{mean:?}");
        assert_eq!(mean.pages, 7);
        let table = loco_table(&loco);
        for c in ["left out: news", "left out: blogs", "left out: wiki"] {
            assert!(table.contains(c), "{table}");
        }
        assert!(
            table.contains("leave-one-corpus-out mean") && table.contains("mean of 3 corpora"),
            "{table}"
        );
    }

    /// Leaving a corpus out needs two of them; the job fails before any page is read.
    #[test]
    fn leave_one_corpus_out_of_one_corpus_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let news = corpus(dir.path(), "news", 3);
        let spy = FoldSpy { all: Vec::new() };
        let job = TrainJob {
            train: vec![news],
            loco: true,
            ..TrainJob::default()
        };
        let e = run(&spy, &job).unwrap_err().to_string();
        assert!(
            e.contains("--folds corpus") && e.contains("1 corpus (news)"),
            "{e}"
        );
    }
}
