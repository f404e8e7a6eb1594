//! The genetic algorithm (Gottron 2009, section 4, Fig. 3): generations, parents, offspring by
//! recombination and mutation, the stop rule.

use std::collections::HashMap;

use rayon::prelude::*;
use serde::Serialize;

use super::*;
use crate::error::{Error, Result};
use crate::metrics::mean;

// ---------------------------------------------------------------------------------------------
// The genetic algorithm
// ---------------------------------------------------------------------------------------------

/// The options of the genetic search. Defaults: see the module documentation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GaOptions {
    /// Individuals per generation (≥ 2).
    pub population: usize,
    /// The fittest individuals that become parents and are carried over (1 ≤ parents <
    /// population).
    pub parents: usize,
    /// Stop after this many generations in a row without a better best fitness (the paper's
    /// "several generations", K).
    pub patience: usize,
    /// Stop after this many generations in all (generation 0 included).
    pub max_generations: usize,
    /// Probability that a child is made by recombination of two parents (else by mutation of
    /// one), in `[0, 1]`.
    pub crossover: f64,
    /// Probability that a mutation changes a gene; `None`: 1 / number of genes.
    pub mutation_rate: Option<f64>,
    /// Standard deviation of a numeric mutation as a share of the parameter's range (at least
    /// one grid step).
    pub deviation: f64,
    /// The seed of every random draw.
    pub seed: u64,
}

impl Default for GaOptions {
    fn default() -> Self {
        GaOptions {
            population: 20,
            parents: 5,
            patience: 5,
            max_generations: 50,
            crossover: 0.5,
            mutation_rate: None,
            deviation: 0.1,
            seed: 13,
        }
    }
}

impl GaOptions {
    /// The number of parents when none is given: a quarter of the population, at least 2
    /// (5 of the default 20).
    pub fn default_parents(population: usize) -> usize {
        (population / 4).max(2)
    }

    /// Checks the ranges. Errors: [`Error::Param`] naming the option.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: &str| Err(Error::Param(m.to_string()));
        if self.population < 2 {
            return bad("--population must be at least 2");
        }
        if self.parents == 0 || self.parents >= self.population {
            return bad("--parents must be at least 1 and smaller than --population");
        }
        if self.patience == 0 {
            return bad("--generations (K, generations without improvement) must be at least 1");
        }
        if self.max_generations == 0 {
            return bad("--max-generations must be at least 1");
        }
        if !(0.0..=1.0).contains(&self.crossover) {
            return bad("--crossover must be in 0..=1");
        }
        if let Some(r) = self.mutation_rate {
            if !(r > 0.0 && r <= 1.0) {
                return bad("--mutation-rate must be in (0, 1]");
            }
        }
        if !(self.deviation > 0.0 && self.deviation.is_finite()) {
            return bad("--deviation must be a positive number");
        }
        Ok(())
    }
}

/// One individual that was evaluated.
#[derive(Debug, Clone, PartialEq)]
pub struct Tried<I> {
    /// The individual.
    pub individual: I,
    /// Its fitness (mean word-LCS F1 on the training pages).
    pub fitness: f64,
    /// The generation it was first evaluated in (0: the initial population).
    pub generation: usize,
    /// True for an injected individual (the published defaults).
    pub injected: bool,
}

/// What one generation looked like.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GenerationStats {
    /// Generation number (0: the initial population).
    pub generation: usize,
    /// Individuals in the population.
    pub population: usize,
    /// Individuals evaluated for the first time in this generation.
    pub new_evaluations: usize,
    /// Best fitness of the population.
    pub best: f64,
    /// Mean fitness of the population.
    pub mean: f64,
    /// Best fitness seen so far.
    pub best_so_far: f64,
}

/// Why the search stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// [`GaOptions::patience`] generations in a row without improvement.
    NoImprovement,
    /// [`GaOptions::max_generations`] reached.
    MaxGenerations,
    /// Every individual of a generation was already known and no new one could be drawn (a
    /// small space searched through).
    Exhausted,
}

/// The result of [`evolve`].
#[derive(Debug, Clone)]
pub struct Outcome<I> {
    /// Every distinct individual evaluated, in evaluation order.
    pub tried: Vec<Tried<I>>,
    /// Indices into `tried`, fittest first (ties: earlier evaluation first).
    pub ranking: Vec<usize>,
    /// One entry per generation.
    pub history: Vec<GenerationStats>,
    /// Why it stopped.
    pub stop: StopReason,
}

impl<I> Outcome<I> {
    /// Number of distinct fitness evaluations (each ran over all training pages).
    pub fn evaluations(&self) -> usize {
        self.tried.len()
    }

    /// The fittest individual.
    pub fn best(&self) -> &Tried<I> {
        &self.tried[self.ranking[0]]
    }

    /// The first injected individual (the defaults), if any.
    pub fn injected(&self) -> Option<&Tried<I>> {
        self.tried.iter().find(|t| t.injected)
    }
}

/// Ranks indices of `tried` by fitness, descending; ties by index (earlier first). NaN last.
fn rank<I>(tried: &[Tried<I>], idx: &mut [usize]) {
    idx.sort_by(|&a, &b| {
        let (fa, fb) = (tried[a].fitness, tried[b].fitness);
        fb.partial_cmp(&fa)
            .unwrap_or_else(|| fa.is_nan().cmp(&fb.is_nan()))
            .then(a.cmp(&b))
    });
}

/// Runs the genetic search of Gottron 2009, section 4 (Fig. 3) over `space` with `fitness`
/// (e.g. `|ind| { let (e, p) = space.configure(ind); training.fitness(&*e, &p) }`), as
/// described in the module documentation. `fitness` is called once per distinct individual,
/// in parallel (rayon) over the new individuals of a generation; `on_generation` is called
/// after each generation (progress display). Deterministic for a given `opts.seed`.
/// Errors: [`Error::Param`] from [`GaOptions::validate`].
pub fn evolve<S: SearchSpace>(
    space: &S,
    fitness: &(dyn Fn(&S::Individual) -> f64 + Sync),
    opts: &GaOptions,
    on_generation: &mut dyn FnMut(&GenerationStats, usize),
) -> Result<Outcome<S::Individual>> {
    opts.validate()?;
    let mut rng = rng(opts.seed);
    let genes = space.gene_names().len().max(1);
    let rate = opts.mutation_rate.unwrap_or(1.0 / genes as f64);
    let mut tried: Vec<Tried<S::Individual>> = Vec::new();
    let mut memo: HashMap<S::Individual, usize> = HashMap::new();

    // Generation 0: the injected individuals, then random ones.
    let mut population: Vec<S::Individual> = Vec::new();
    let mut injected = Vec::new();
    for ind in space.injected() {
        if !population.contains(&ind) {
            injected.push(ind.clone());
            population.push(ind);
        }
    }
    let mut misses = 0;
    while population.len() < opts.population && misses < 32 * opts.population {
        let ind = space.random(&mut rng);
        if population.contains(&ind) {
            misses += 1;
        } else {
            population.push(ind);
        }
    }

    let mut history = Vec::new();
    let mut best_so_far = f64::NEG_INFINITY;
    let mut stall = 0;
    let mut generation = 0;
    let stop = loop {
        // Evaluate the new individuals (in parallel, collected in order).
        let new: Vec<S::Individual> = population
            .iter()
            .filter(|i| !memo.contains_key(*i))
            .cloned()
            .collect();
        let scores: Vec<f64> = new.par_iter().map(fitness).collect();
        for (ind, f) in new.iter().zip(scores) {
            memo.insert(ind.clone(), tried.len());
            tried.push(Tried {
                individual: ind.clone(),
                fitness: f,
                generation,
                injected: injected.contains(ind),
            });
        }
        let mut idx: Vec<usize> = population.iter().map(|i| memo[i]).collect();
        rank(&tried, &mut idx);
        let best = tried[idx[0]].fitness;
        let improved = best > best_so_far;
        if improved {
            best_so_far = best;
            stall = 0;
        } else {
            stall += 1;
        }
        let stats = GenerationStats {
            generation,
            population: population.len(),
            new_evaluations: new.len(),
            best,
            mean: mean(idx.iter().map(|&i| tried[i].fitness)),
            best_so_far,
        };
        on_generation(&stats, tried.len());
        history.push(stats);
        if generation > 0 && stall >= opts.patience {
            break StopReason::NoImprovement;
        }
        if generation + 1 >= opts.max_generations {
            break StopReason::MaxGenerations;
        }
        // The next generation: the parents, then their children.
        let parents: Vec<S::Individual> = idx
            .iter()
            .take(opts.parents)
            .map(|&i| tried[i].individual.clone())
            .collect();
        let mut next = parents.clone();
        let mut fresh = 0;
        let mut misses = 0;
        while next.len() < opts.population && misses < 32 * opts.population {
            let child = if parents.len() >= 2 && unit(&mut rng) < opts.crossover {
                let a = below(&mut rng, parents.len() as u64) as usize;
                let mut b = below(&mut rng, parents.len() as u64 - 1) as usize;
                if b >= a {
                    b += 1;
                }
                space.recombine(&parents[a], &parents[b], &mut rng)
            } else {
                let a = below(&mut rng, parents.len() as u64) as usize;
                space.mutate(&parents[a], rate, opts.deviation, &mut rng)
            };
            if next.contains(&child) {
                misses += 1;
                continue;
            }
            if !memo.contains_key(&child) {
                fresh += 1;
            }
            next.push(child);
        }
        population = next;
        generation += 1;
        if fresh == 0 && population.len() < opts.population {
            // Nothing new could be drawn: evaluate nothing more, but record the generation.
            let mut idx: Vec<usize> = population.iter().map(|i| memo[i]).collect();
            rank(&tried, &mut idx);
            let stats = GenerationStats {
                generation,
                population: population.len(),
                new_evaluations: 0,
                best: tried[idx[0]].fitness,
                mean: mean(idx.iter().map(|&i| tried[i].fitness)),
                best_so_far,
            };
            on_generation(&stats, tried.len());
            history.push(stats);
            break StopReason::Exhausted;
        }
    };
    let mut ranking: Vec<usize> = (0..tried.len()).collect();
    rank(&tried, &mut ranking);
    Ok(Outcome {
        tried,
        ranking,
        history,
        stop,
    })
}

/// [`evolve`] with the fitness of [`TrainingSet::fitness`] for each individual's configured
/// extractor ([`SearchSpace::configure`]).
pub fn optimize<S: SearchSpace>(
    space: &S,
    training: &TrainingSet,
    opts: &GaOptions,
    on_generation: &mut dyn FnMut(&GenerationStats, usize),
) -> Result<Outcome<S::Individual>> {
    let fitness = |ind: &S::Individual| {
        let (e, p) = space.configure(ind);
        training.fitness(&*e, &p)
    };
    evolve(space, &fitness, opts, on_generation)
}
