//! The fitness of the optimiser: mean word-LCS F1 over a training corpus loaded once
//! ([`TrainingSet`]), and its benchmark ([`fitness_bench`]).

use rayon::prelude::*;
use serde::Serialize;

use super::*;
use crate::error::{Error, Result};
use crate::eval::run::EvalPage;
use crate::extract::{Extractor, Params};
use crate::metrics::{mean, GoldWords};
use crate::page::{DecodeOptions, Page};

// ---------------------------------------------------------------------------------------------
// Fitness
// ---------------------------------------------------------------------------------------------

/// One training page: the page, decoded and lexed once, and its gold text tokenised once.
struct TrainingPage {
    page: Option<Page>,
    gold: GoldWords,
}

/// The training corpus of the fitness function: every page read, decoded and lexed once (lines
/// built; the DOM too when asked for), every gold `articleBody` tokenised once
/// ([`GoldWords`]). Pages stay in memory for the whole search (about the size of their HTML,
/// several times that with the DOM).
pub struct TrainingSet {
    pages: Vec<TrainingPage>,
    notes: Vec<String>,
}

impl TrainingSet {
    /// Loads `pages` (from [`crate::eval::run::gather`] / `gather_with`) in parallel with
    /// the default decoding, as `cescope eval` does; builds lexing and virtual lines, and the
    /// DOM when `dom`. A page that cannot be loaded is kept as an empty extract (as in `eval`)
    /// and named in [`TrainingSet::notes`]. Errors: [`Error::Corpus`] when `pages` is empty.
    pub fn load(pages: &[EvalPage], dom: bool) -> Result<TrainingSet> {
        if pages.is_empty() {
            return Err(Error::Corpus(
                "no training page with a gold standard".to_string(),
            ));
        }
        let opts = DecodeOptions::default();
        let loaded: Vec<(TrainingPage, Option<String>)> = pages
            .par_iter()
            .map(|ep| {
                let gold = GoldWords::new(&ep.gold.article_body);
                match Page::load(&ep.path, &opts) {
                    Ok(page) => {
                        page.lines();
                        if dom {
                            page.dom();
                        }
                        (
                            TrainingPage {
                                page: Some(page),
                                gold,
                            },
                            None,
                        )
                    }
                    Err(e) => (
                        TrainingPage { page: None, gold },
                        Some(crate::error::escape_controls(&format!(
                            "{}/{}: {} (counted as an empty extract)",
                            ep.corpus,
                            ep.id,
                            crate::error::report(&e)
                        ))),
                    ),
                }
            })
            .collect();
        let mut out = TrainingSet {
            pages: Vec::with_capacity(loaded.len()),
            notes: Vec::new(),
        };
        for (p, note) in loaded {
            out.pages.push(p);
            out.notes.extend(note);
        }
        Ok(out)
    }

    /// A training set from pages already in memory, each with its gold text (tests, toy
    /// problems). Errors: [`Error::Corpus`] when `pages` is empty.
    pub fn from_pages(pages: Vec<(Page, String)>) -> Result<TrainingSet> {
        if pages.is_empty() {
            return Err(Error::Corpus(
                "no training page with a gold standard".to_string(),
            ));
        }
        Ok(TrainingSet {
            pages: pages
                .into_iter()
                .map(|(page, gold)| TrainingPage {
                    page: Some(page),
                    gold: GoldWords::new(&gold),
                })
                .collect(),
            notes: Vec::new(),
        })
    }

    /// Number of pages.
    pub fn len(&self) -> usize {
        self.pages.len()
    }

    /// True when there is no page (never, for a set built by [`TrainingSet::load`]).
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// Pages that could not be loaded, one line each.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The fitness of a setting: the mean over the pages of the word-LCS F1 of the rendered
    /// extract against the gold (Gottron 2009, section 4: "the average F1 value"), in `[0, 1]`
    /// — equal to `cescope eval`'s mean F1 ([`crate::eval::run::evaluate`] with
    /// [`crate::eval::run::Metric::Word`]) on the same pages. Parallel over pages (rayon).
    pub fn fitness(&self, extractor: &dyn Extractor, params: &Params) -> f64 {
        let f1s: Vec<f64> = self
            .pages
            .par_iter()
            .map(|tp| match &tp.page {
                Some(page) => {
                    let x = extractor.run(page, params);
                    tp.gold.prf(&page.render(&x.selection)).f1
                }
                None => tp.gold.prf("").f1,
            })
            .collect();
        mean(f1s)
    }
}

/// A seeded subset of `n` of `pages` (all when `n >= pages.len()`), kept in their order; the
/// same seed gives the same subset.
pub fn sample(pages: Vec<EvalPage>, n: usize, seed: u64) -> Vec<EvalPage> {
    if n >= pages.len() {
        return pages;
    }
    let mut rng = rng(seed ^ 0x5A4D_504C_4553_4545);
    let mut idx: Vec<usize> = (0..pages.len()).collect();
    // Partial Fisher–Yates: the first n positions are a uniform sample.
    for i in 0..n {
        let j = i + below(&mut rng, (idx.len() - i) as u64) as usize;
        idx.swap(i, j);
    }
    let mut keep = idx[..n].to_vec();
    keep.sort_unstable();
    let mut keep = keep.into_iter().peekable();
    pages
        .into_iter()
        .enumerate()
        .filter_map(|(i, p)| {
            if keep.peek() == Some(&i) {
                keep.next();
                Some(p)
            } else {
                None
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Benchmark
// ---------------------------------------------------------------------------------------------

/// What [`fitness_bench`] measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FitnessBench {
    /// Fitness evaluations run (each over all pages; no memo: a repeated individual is
    /// evaluated again).
    pub evaluations: usize,
    /// How many of them were distinct individuals.
    pub distinct: usize,
    /// Pages per evaluation.
    pub pages: usize,
    /// Wall-clock seconds for all evaluations (pages already loaded and lexed).
    pub seconds: f64,
    /// Evaluations per second.
    pub per_second: f64,
    /// Worker threads.
    pub threads: usize,
}

/// The fitness benchmark (`cescope bench CORPUS --fitness N`): draws `n` random individuals of
/// `space` (seeded; the first is the injected defaults) and evaluates every one of them on
/// `training` with the memo off, in parallel on the current rayon pool as [`evolve`] does
/// (over individuals and pages). Page loading is not timed (it happens once per search).
pub fn fitness_bench<S: SearchSpace>(
    space: &S,
    training: &TrainingSet,
    n: usize,
    seed: u64,
) -> FitnessBench {
    let mut rng = rng(seed);
    let mut inds: Vec<S::Individual> = space.injected().into_iter().take(n).collect();
    while inds.len() < n {
        inds.push(space.random(&mut rng));
    }
    let distinct = {
        let mut seen = std::collections::HashSet::new();
        inds.iter().filter(|i| seen.insert((*i).clone())).count()
    };
    let t = std::time::Instant::now();
    let total: f64 = inds
        .par_iter()
        .map(|i| {
            let (e, p) = space.configure(i);
            training.fitness(&*e, &p)
        })
        .sum();
    std::hint::black_box(total);
    let seconds = t.elapsed().as_secs_f64().max(1e-9);
    FitnessBench {
        evaluations: n,
        distinct,
        pages: training.len(),
        seconds,
        per_second: n as f64 / seconds,
        threads: rayon::current_num_threads(),
    }
}
