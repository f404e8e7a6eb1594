//! A whole search as `cescope optimize` runs it: gather the training and test corpora, draw the
//! sample, load the training pages once, run the genetic search ([`optimize`]) and score the
//! best individual and the defaults on each test corpus ([`test_score`]). The caller (the CLI)
//! only prints: progress arrives through [`Progress`].

use std::path::PathBuf;
use std::time::Instant;

use crate::error::{Error, Result};
use crate::eval::run::{gather_with, EvalPage, ReviewedGold};

use super::{optimize, sample, test_score, GaOptions, GenerationStats, Outcome, SearchSpace};
use super::{TestScore, TrainingSet};

/// The corpora of a study.
#[derive(Debug, Clone, Copy)]
pub struct Corpora<'a> {
    /// Training corpora (corpus folders or folders of cescope gold files).
    pub train: &'a [PathBuf],
    /// Test corpora, each scored on its own.
    pub test: &'a [PathBuf],
    /// Train on a seeded random sample of this many pages ([`sample`]; `None`: all pages).
    pub sample: Option<usize>,
}

/// What a running study reports, in this order: notes while gathering, warnings while
/// loading, one `Loaded`, then one `Generation` per generation.
#[derive(Debug)]
pub enum Progress<'a> {
    /// A note about the corpora (pages without gold, unusable gold files).
    Note(&'a str),
    /// A training page that could not be loaded (skipped).
    Warning(&'a str),
    /// The training pages are loaded: `pages` of `of` gathered, in `secs` seconds.
    Loaded {
        /// Training pages loaded.
        pages: usize,
        /// Pages gathered (before the sample).
        of: usize,
        /// Seconds since the study began.
        secs: f64,
    },
    /// A generation ended; `evaluations` distinct evaluations so far.
    Generation(&'a GenerationStats, usize),
}

/// The result of [`study`].
#[derive(Debug)]
pub struct Study<I> {
    /// The search's outcome (every individual tried, ranked).
    pub outcome: Outcome<I>,
    /// Training pages the fitness was measured on.
    pub train_pages: usize,
    /// One score per test corpus, in the order given.
    pub scores: Vec<TestScore>,
    /// Seconds from the start to the end of the search (gathering and loading included).
    pub search_secs: f64,
    /// Seconds from the start to the end of the test scores.
    pub total_secs: f64,
}

/// Runs a whole study of `space` with `opts` (validated first). Errors: invalid options
/// ([`GaOptions::validate`]), unreadable corpora, a training or test corpus with no page with
/// a gold standard ([`Error::Corpus`]). Reviewed gold only ([`ReviewedGold`]): a gold file still
/// a draft or flagged is left out with a note, as `cescope train` leaves it out.
pub fn study<S: SearchSpace>(
    space: &S,
    corpora: Corpora<'_>,
    opts: &GaOptions,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Study<S::Individual>> {
    opts.validate()?;
    let t0 = Instant::now();
    let mut gather = |dirs: &[PathBuf], what: String| -> Result<Vec<EvalPage>> {
        let (pages, notes) = gather_with(dirs, &ReviewedGold)?;
        for n in &notes {
            progress(Progress::Note(n));
        }
        if pages.is_empty() {
            return Err(Error::Corpus(format!(
                "no page with a gold standard in the {what}"
            )));
        }
        Ok(pages)
    };
    let pages = gather(corpora.train, "training corpus".into())?;
    let tests = corpora
        .test
        .iter()
        .map(|t| {
            gather(
                std::slice::from_ref(t),
                format!("test corpus {}", t.display()),
            )
        })
        .collect::<Result<Vec<_>>>()?;
    let of = pages.len();
    let pages = match corpora.sample {
        Some(n) => sample(pages, n, opts.seed),
        None => pages,
    };
    let training = TrainingSet::load(&pages, space.needs_dom())?;
    for n in training.notes() {
        progress(Progress::Warning(n));
    }
    progress(Progress::Loaded {
        pages: training.len(),
        of,
        secs: t0.elapsed().as_secs_f64(),
    });
    let outcome = optimize(space, &training, opts, &mut |g, evals| {
        progress(Progress::Generation(g, evals));
    })?;
    let search_secs = t0.elapsed().as_secs_f64();
    let scores = corpora
        .test
        .iter()
        .zip(&tests)
        .map(|(t, pages)| {
            let name = pages
                .first()
                .map_or_else(|| t.display().to_string(), |p| p.corpus.clone());
            test_score(space, &outcome, &name, pages)
        })
        .collect();
    Ok(Study {
        outcome,
        train_pages: training.len(),
        scores,
        search_secs,
        total_secs: t0.elapsed().as_secs_f64(),
    })
}
