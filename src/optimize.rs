//! Genetic optimisation of extractor parameters (Gottron 2009, *An Evolutionary Approach to
//! Automatically Optimise Web Content Extraction*, section 4, Fig. 2–4, Tables 2–3).
//!
//! The process of the paper's Fig. 3, as published:
//!
//! 1. **Individuals** are parameter settings drawn from the extractor's [`ParamSpec`]s ("the
//!    parameter description", Fig. 2): ints and floats on their step grid within their range,
//!    switches, choices. The search is written against the [`SearchSpace`] trait (random
//!    individual, recombination, mutation, to an extractor and its parameters, described as a
//!    `--set` list); [`ParamSpace`] is the space of one extractor's parameters.
//! 2. **Generation 0** is the injected individuals (the published defaults, [`Params::defaults`],
//!    "to inject individuals known to perform good", section 4) plus random individuals within
//!    the ranges, up to the population size.
//! 3. **Fitness** is the mean word-LCS F1 over a training corpus ([`TrainingSet::fitness`]) —
//!    the figure `cescope eval` prints for that setting (same rendering, same measure, same
//!    macro average; pages are loaded, decoded and lexed once, gold texts tokenised once).
//!    Every distinct individual is evaluated once (memoised); [`Outcome::evaluations`] counts
//!    the distinct evaluations.
//! 4. **Parents**: the fittest [`GaOptions::parents`] individuals of the population.
//! 5. **Offspring**: each child is made "either by randomly combining the values of two of the
//!    better individuals, or by mutating the values of such an individual" (section 4):
//!    recombination (probability [`GaOptions::crossover`]) takes each gene from one of two
//!    distinct parents at random (uniform crossover); mutation ("random deviations of the
//!    parameter values") moves each gene with probability [`GaOptions::mutation_rate`] by a
//!    Gaussian deviation of [`GaOptions::deviation`] × its range, snapped to the step grid and
//!    clamped to the range (at least one gene always changes); a switch flips, a choice takes
//!    another value.
//! 6. **Stop** "until we do not find any improvements for several generations in a row":
//!    after [`GaOptions::patience`] generations without a better best fitness, or after
//!    [`GaOptions::max_generations`].
//!
//! Where the paper is silent, the choices (each an option of [`GaOptions`]): population 20,
//! 5 parents, half the children by recombination; elitism — the parents are carried over into
//! the next generation (they cost nothing: their fitness is memoised), so the best fitness of a
//! population never drops; ties in fitness are broken by evaluation order (the earlier
//! individual ranks first, so the injected defaults win ties); a child that is already in the
//! generation is drawn again (up to 32 times).
//!
//! **Reproducible**: every random draw is made on the calling thread from one seeded
//! [`Xoshiro256PlusPlus`]; only fitness evaluation is parallel (rayon, over the new individuals
//! of a generation and over pages), and its results are collected in order, so the same seed
//! gives the same run whatever the thread count.

use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::path::Path;
use std::sync::Arc;

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Serialize;
use serde_json::{json, Value};

use crate::algorithms::{
    Extraction, Extractor, Location, ParamKind, ParamSpec, ParamValue, Params, Phase,
};
use crate::error::{Error, Result};
use crate::eval::run::EvalPage;
use crate::metrics::{mean, GoldWords};
use crate::page::{DecodeOptions, Page};

/// The random number generator of the optimiser (seeded, [`Xoshiro256PlusPlus`]).
pub type Rng = Xoshiro256PlusPlus;

/// A fresh generator for `seed`.
pub fn rng(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// Uniform in `[0, 1)`, 53 random bits.
fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Uniform in `0..n` (`n > 0`), by rejection (unbiased).
fn below(rng: &mut Rng, n: u64) -> u64 {
    if n <= 1 {
        return 0;
    }
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = rng.next_u64();
        if x < zone {
            return x % n;
        }
    }
}

/// Standard normal deviate (Box–Muller).
fn gaussian(rng: &mut Rng) -> f64 {
    let u1 = 1.0 - unit(rng); // (0, 1]
    let u2 = unit(rng);
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

// ---------------------------------------------------------------------------------------------
// Search spaces
// ---------------------------------------------------------------------------------------------

/// A space the genetic search walks: how to draw, recombine and mutate individuals, and how an
/// individual becomes an extractor with parameters (Gottron 2009, section 4: "a blueprint for
/// all individuals", Fig. 2). Implemented for the parameters of one extractor ([`ParamSpace`]);
/// a filter-set space implements it the same way.
///
/// Individuals are plain values (`Eq + Hash`), so a setting is evaluated once ([`evolve`]
/// memoises fitness by individual). Every method that draws takes the one seeded generator.
pub trait SearchSpace: Sync {
    /// One point of the space.
    type Individual: Clone + Eq + Hash + Send + Sync + fmt::Debug;
    /// The names of the genes (coordinates), in order: the columns of the top-individuals
    /// table and the axes of the plot.
    fn gene_names(&self) -> Vec<String>;
    /// The plot's axes when none are named ([`plot_axes`]): gene indices for x and (`None`:
    /// F1) y. Default: the first gene against F1.
    fn default_plot_axes(&self) -> (usize, Option<usize>) {
        (0, None)
    }
    /// A random individual within the ranges (uniform over each gene's values).
    fn random(&self, rng: &mut Rng) -> Self::Individual;
    /// The individuals injected into generation 0 (the published defaults).
    fn injected(&self) -> Vec<Self::Individual>;
    /// A child of `a` and `b`: each gene from one of them.
    fn recombine(
        &self,
        a: &Self::Individual,
        b: &Self::Individual,
        rng: &mut Rng,
    ) -> Self::Individual;
    /// A mutant of `a`: each gene changed with probability `rate` (at least one changes when
    /// any can) by a random deviation of about `deviation` × the gene's range.
    fn mutate(
        &self,
        a: &Self::Individual,
        rate: f64,
        deviation: f64,
        rng: &mut Rng,
    ) -> Self::Individual;
    /// The extractor and parameters an individual stands for.
    fn configure(&self, ind: &Self::Individual) -> (Arc<dyn Extractor>, Params);
    /// Each gene's value as text, aligned with [`SearchSpace::gene_names`].
    fn values(&self, ind: &Self::Individual) -> Vec<String>;
    /// Each gene's value as a number for plotting (a switch 0 / 1, a choice its index).
    fn coords(&self, ind: &Self::Individual) -> Vec<f64>;
    /// The individual as command-line arguments that reproduce it (e.g. `--algo danag --set
    /// gap=12 --set smoothing=none`); [`optimize`](crate::optimize)'s `--out` file.
    fn describe(&self, ind: &Self::Individual) -> String;
    /// True if the extractors of this space need the DOM ([`Extractor::needs_dom`]); the
    /// training pages then build it once, up front.
    fn needs_dom(&self) -> bool;
    /// The text `--out` writes for an individual: by default [`SearchSpace::describe`] and a
    /// newline; a filter-set space writes a set file.
    fn out_file(&self, ind: &Self::Individual) -> String {
        format!("{}\n", self.describe(ind))
    }
}

/// One gene of a [`ParamSpace`] individual: a parameter value in hashable form (a float by its
/// bits; values on the grid are rounded to the step's decimals, so equal values have equal
/// bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Gene {
    /// An integer value.
    Int(i64),
    /// A real value, as `f64::to_bits`.
    Float(u64),
    /// A switch.
    Bool(bool),
    /// A choice, by index into its list.
    Choice(usize),
}

/// The number of decimals of `step` as written (`0.01` → 2), at most 12.
fn decimals(step: f64) -> i32 {
    let s = format!("{step}");
    s.split_once('.').map(|(_, d)| d.len()).unwrap_or(0).min(12) as i32
}

/// Number of grid steps in `min..=max` (the grid is `min + k·step`, `k` in `0..=n`).
fn grid_steps(min: f64, max: f64, step: f64) -> i64 {
    if step.is_nan() || step <= 0.0 || max <= min {
        0
    } else {
        ((max - min) / step + 1e-9).floor() as i64
    }
}

/// Grid point `k` of a float spec, rounded to the step's decimals.
fn float_at(min: f64, step: f64, k: i64) -> f64 {
    let scale = 10f64.powi(decimals(step).max(decimals(min)));
    ((min + k as f64 * step) * scale).round() / scale
}

/// True if `v` is a value of `spec` on its step grid and in its range (ints: `min + k·step`;
/// floats within 1e-9 of `min + k·step`; switches and listed choices always).
pub fn on_grid(spec: &ParamSpec, v: &ParamValue) -> bool {
    match (&spec.kind, v) {
        (ParamKind::Int { min, max, step }, ParamValue::Int(x)) => {
            min <= x && x <= max && (*step <= 0 || (x - min) % step == 0)
        }
        (ParamKind::Float { min, max, step }, ParamValue::Float(x)) => {
            if !(min <= x && x <= max) {
                return false;
            }
            if step.is_nan() || *step <= 0.0 {
                return true;
            }
            let k = ((x - min) / step).round() as i64;
            (float_at(*min, *step, k) - x).abs() < 1e-9
        }
        (ParamKind::Bool, ParamValue::Bool(_)) => true,
        (ParamKind::Choice { choices }, ParamValue::Choice(c)) => choices.contains(c),
        _ => false,
    }
}

/// The parameters of one extractor as a search space (Gottron 2009, Fig. 2): one [`Gene`] per
/// free parameter; the others keep the values of the base setting.
pub struct ParamSpace {
    extractor: Arc<dyn Extractor>,
    base: Params,
    free: Vec<ParamSpec>,
    /// What `--algo` names the extractor with in [`SearchSpace::describe`] (its name, or the
    /// set file it was loaded from).
    algo_arg: String,
}

impl ParamSpace {
    /// The space of `extractor`'s parameters named in `only` (all of them when `None`); the
    /// others keep the values of `base` (which should be complete for the extractor, e.g.
    /// [`Params::defaults`] with `--set` assignments applied). The injected individual is
    /// `base` itself. Errors: [`Error::Param`] for a name in `only` that the extractor lacks,
    /// or when no parameter is left to search.
    pub fn new(
        extractor: Arc<dyn Extractor>,
        base: Params,
        only: Option<&[String]>,
    ) -> Result<ParamSpace> {
        let specs = extractor.params();
        let free: Vec<ParamSpec> = match only {
            None => specs.to_vec(),
            Some(names) => {
                let mut free = Vec::new();
                for n in names {
                    let s = crate::algorithms::find_spec(specs, n).map_err(|e| match e {
                        Error::Param(m) => Error::Param(format!("{}: {m}", extractor.name())),
                        e => e,
                    })?;
                    if !free.iter().any(|f: &ParamSpec| f.name == s.name) {
                        free.push(s.clone());
                    }
                }
                free
            }
        };
        if free.is_empty() {
            return Err(Error::Param(format!(
                "{} has no parameter to optimise",
                extractor.name()
            )));
        }
        Ok(ParamSpace {
            algo_arg: extractor.name().to_string(),
            extractor,
            base,
            free,
        })
    }

    /// The same space, described with `--algo ARG` (e.g. the filter-set file it was loaded
    /// from, which `--algo` reads again) instead of the extractor's name.
    pub fn with_algo_arg(mut self, arg: &str) -> ParamSpace {
        self.algo_arg = arg.to_string();
        self
    }

    /// The parameters searched, in gene order.
    pub fn specs(&self) -> &[ParamSpec] {
        &self.free
    }

    /// The extractor.
    pub fn extractor(&self) -> &Arc<dyn Extractor> {
        &self.extractor
    }

    /// The parameter value a gene stands for.
    pub fn value(&self, spec: &ParamSpec, g: &Gene) -> ParamValue {
        match (&spec.kind, g) {
            (ParamKind::Int { .. }, Gene::Int(v)) => ParamValue::Int(*v),
            (ParamKind::Float { .. }, Gene::Float(b)) => ParamValue::Float(f64::from_bits(*b)),
            (ParamKind::Bool, Gene::Bool(b)) => ParamValue::Bool(*b),
            (ParamKind::Choice { choices }, Gene::Choice(i)) => {
                ParamValue::Choice(choices.get(*i).copied().unwrap_or(""))
            }
            _ => spec.default.clone(),
        }
    }

    /// The gene of a parameter value (a value of the wrong kind gives the spec's default).
    pub fn gene(spec: &ParamSpec, v: &ParamValue) -> Gene {
        match (&spec.kind, v) {
            (ParamKind::Int { .. }, ParamValue::Int(x)) => Gene::Int(*x),
            (ParamKind::Float { .. }, ParamValue::Float(x)) => Gene::Float(x.to_bits()),
            (ParamKind::Bool, ParamValue::Bool(b)) => Gene::Bool(*b),
            (ParamKind::Choice { choices }, ParamValue::Choice(c)) => {
                Gene::Choice(choices.iter().position(|x| x == c).unwrap_or(0))
            }
            _ if spec.default != *v => ParamSpace::gene(spec, &spec.default),
            _ => Gene::Int(0),
        }
    }

    /// A uniformly random grid value of `spec`.
    fn random_gene(spec: &ParamSpec, rng: &mut Rng) -> Gene {
        match &spec.kind {
            ParamKind::Int { min, max, step } => {
                let step = (*step).max(1);
                let n = ((max - min) / step).max(0) as u64;
                Gene::Int(min + below(rng, n + 1) as i64 * step)
            }
            ParamKind::Float { min, max, step } => {
                let n = grid_steps(*min, *max, *step) as u64;
                Gene::Float(float_at(*min, *step, below(rng, n + 1) as i64).to_bits())
            }
            ParamKind::Bool => Gene::Bool(below(rng, 2) == 1),
            ParamKind::Choice { choices } => {
                Gene::Choice(below(rng, choices.len().max(1) as u64) as usize)
            }
        }
    }

    /// `g` moved by a random deviation (see [`SearchSpace::mutate`]); unchanged only when the
    /// parameter has a single value.
    fn mutate_gene(spec: &ParamSpec, g: &Gene, deviation: f64, rng: &mut Rng) -> Gene {
        // Grid index k in 0..=n, moved by a rounded Gaussian step of sd max(1, deviation·n).
        let shift = |k: i64, n: i64, rng: &mut Rng| -> i64 {
            if n <= 0 {
                return 0;
            }
            let sd = (deviation * n as f64).max(1.0);
            let mut d = (gaussian(rng) * sd).round() as i64;
            if d == 0 {
                d = if below(rng, 2) == 0 { -1 } else { 1 };
            }
            let mut to = (k + d).clamp(0, n);
            if to == k {
                to = if k == 0 { 1 } else { k - 1 };
            }
            to
        };
        match (&spec.kind, g) {
            (ParamKind::Int { min, max, step }, Gene::Int(v)) => {
                let step = (*step).max(1);
                let n = ((max - min) / step).max(0);
                let k = ((v - min) as f64 / step as f64).round() as i64;
                Gene::Int(min + shift(k.clamp(0, n), n, rng) * step)
            }
            (ParamKind::Float { min, max, step }, Gene::Float(b)) => {
                let n = grid_steps(*min, *max, *step);
                let v = f64::from_bits(*b);
                let k = if *step > 0.0 {
                    ((v - min) / step).round() as i64
                } else {
                    0
                };
                Gene::Float(float_at(*min, *step, shift(k.clamp(0, n), n, rng)).to_bits())
            }
            (ParamKind::Bool, Gene::Bool(b)) => Gene::Bool(!b),
            (ParamKind::Choice { choices }, Gene::Choice(i)) => {
                let n = choices.len();
                if n <= 1 {
                    *g
                } else {
                    // Another choice, uniformly.
                    let j = below(rng, n as u64 - 1) as usize;
                    Gene::Choice(if j >= *i { j + 1 } else { j })
                }
            }
            _ => ParamSpace::random_gene(spec, rng),
        }
    }

    /// True if the parameter has more than one value.
    fn variable(spec: &ParamSpec) -> bool {
        match &spec.kind {
            ParamKind::Int { min, max, .. } => max > min,
            ParamKind::Float { min, max, step } => grid_steps(*min, *max, *step) > 0,
            ParamKind::Bool => true,
            ParamKind::Choice { choices } => choices.len() > 1,
        }
    }
}

impl SearchSpace for ParamSpace {
    type Individual = Vec<Gene>;

    fn gene_names(&self) -> Vec<String> {
        self.free.iter().map(|s| s.name.to_string()).collect()
    }

    /// The first two numeric parameters against each other, else the first against F1.
    fn default_plot_axes(&self) -> (usize, Option<usize>) {
        let numeric: Vec<usize> = (0..self.free.len())
            .filter(|&i| {
                matches!(
                    self.free[i].kind,
                    ParamKind::Int { .. } | ParamKind::Float { .. }
                )
            })
            .collect();
        match numeric.as_slice() {
            [x, y, ..] => (*x, Some(*y)),
            [x] => (*x, None),
            [] => (0, None),
        }
    }

    fn random(&self, rng: &mut Rng) -> Vec<Gene> {
        self.free
            .iter()
            .map(|s| ParamSpace::random_gene(s, rng))
            .collect()
    }

    fn injected(&self) -> Vec<Vec<Gene>> {
        vec![self
            .free
            .iter()
            .map(|s| {
                let v = self.base.get(s.name).unwrap_or(&s.default);
                ParamSpace::gene(s, v)
            })
            .collect()]
    }

    fn recombine(&self, a: &Vec<Gene>, b: &Vec<Gene>, rng: &mut Rng) -> Vec<Gene> {
        a.iter()
            .zip(b)
            .map(|(x, y)| if below(rng, 2) == 0 { *x } else { *y })
            .collect()
    }

    fn mutate(&self, a: &Vec<Gene>, rate: f64, deviation: f64, rng: &mut Rng) -> Vec<Gene> {
        let mut out = a.clone();
        let mut changed = false;
        for (i, spec) in self.free.iter().enumerate() {
            if unit(rng) < rate && ParamSpace::variable(spec) {
                out[i] = ParamSpace::mutate_gene(spec, &a[i], deviation, rng);
                changed = true;
            }
        }
        let movable: Vec<usize> = (0..self.free.len())
            .filter(|&i| ParamSpace::variable(&self.free[i]))
            .collect();
        if !changed && !movable.is_empty() {
            let i = movable[below(rng, movable.len() as u64) as usize];
            out[i] = ParamSpace::mutate_gene(&self.free[i], &a[i], deviation, rng);
        }
        out
    }

    fn configure(&self, ind: &Vec<Gene>) -> (Arc<dyn Extractor>, Params) {
        let mut p = self.base.clone();
        for (spec, g) in self.free.iter().zip(ind) {
            p.set(spec.name, self.value(spec, g));
        }
        (self.extractor.clone(), p)
    }

    fn values(&self, ind: &Vec<Gene>) -> Vec<String> {
        self.free
            .iter()
            .zip(ind)
            .map(|(s, g)| self.value(s, g).to_string())
            .collect()
    }

    fn coords(&self, ind: &Vec<Gene>) -> Vec<f64> {
        ind.iter()
            .map(|g| match g {
                Gene::Int(v) => *v as f64,
                Gene::Float(b) => f64::from_bits(*b),
                Gene::Bool(b) => f64::from(u8::from(*b)),
                Gene::Choice(i) => *i as f64,
            })
            .collect()
    }

    fn describe(&self, ind: &Vec<Gene>) -> String {
        let (_, p) = self.configure(ind);
        let mut s = format!("--algo {}", self.algo_arg);
        for (k, v) in p.iter() {
            s.push_str(&format!(" --set {k}={v}"));
        }
        s
    }

    fn needs_dom(&self) -> bool {
        self.extractor.needs_dom()
    }
}

/// Filter sets as a search space (beyond Gottron 2009, whose section 6 names it as future
/// work: "optimisation has to be extended to the order and the structure in which the filters
/// are applied"): which members (from a candidate list; the same algorithm may appear more
/// than once, as in 3XDSC), in which order, combined how (serial / union / intersection /
/// vote, Weissig & Gottron, sections 3–4), with which vote weights and threshold. Members run
/// with their published defaults (search their parameters with a set file and
/// [`ParamSpace`]).
///
/// Genes: the member list (1 to `max_members` candidates, in order), the combination, one
/// weight per member on the grid 1, 2, 3, and the vote threshold as a share of the summed
/// weights on the grid 0.1, 0.2, …, 1.0 (a share keeps the threshold meaningful when members
/// or weights change). The injected individuals are the candidates' serial chain and their
/// union and intersection, and each candidate alone.
pub struct SetSpace {
    candidates: Vec<Arc<dyn Extractor>>,
    max_members: usize,
}

/// A filter set of a [`SetSpace`], see there.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SetGenes {
    /// Indices into the candidates, in member order (1 to `max_members`).
    pub members: Vec<usize>,
    /// 0 serial, 1 union, 2 intersection, 3 vote.
    pub combine: usize,
    /// One vote weight per member, 1..=3.
    pub weights: Vec<u8>,
    /// Vote threshold in tenths of the summed weights, 1..=10.
    pub share: u8,
}

const COMBINES: [&str; 4] = ["serial", "union", "intersection", "vote"];
const MAX_WEIGHT: u64 = 3;

impl SetSpace {
    /// The space over `candidates` (registered algorithm names, e.g. the paper's `dsc, bte,
    /// accb, lqf`), sets of 1 to `max_members` members. Errors: [`Error::UnknownAlgorithm`]
    /// for an unknown name; [`Error::Param`] for no candidate or `max_members` 0 or more than
    /// [`crate::algorithms::combine::MAX_MEMBERS`].
    pub fn new(candidates: &[String], max_members: usize) -> Result<SetSpace> {
        if candidates.is_empty() {
            return Err(Error::Param("--candidates: no algorithm named".to_string()));
        }
        if max_members == 0 || max_members > crate::algorithms::combine::MAX_MEMBERS {
            return Err(Error::Param(format!(
                "--max-members must be in 1..={}",
                crate::algorithms::combine::MAX_MEMBERS
            )));
        }
        let candidates = candidates
            .iter()
            .map(|n| crate::algorithms::find(n.trim()).map(Arc::from))
            .collect::<Result<Vec<Arc<dyn Extractor>>>>()?;
        Ok(SetSpace {
            candidates,
            max_members,
        })
    }

    /// The filter set an individual stands for. Errors: those of
    /// [`crate::algorithms::combine::FilterSet::new`] (none for individuals of this space).
    pub fn filter_set(&self, ind: &SetGenes) -> Result<crate::algorithms::combine::FilterSet> {
        use crate::algorithms::combine::{Combine, FilterSet, Member};
        let total: f64 = ind.weights.iter().map(|&w| f64::from(w)).sum();
        let combine = match ind.combine {
            0 => Combine::Serial,
            1 => Combine::Union,
            2 => Combine::Intersection,
            _ => Combine::Vote {
                threshold: (total * f64::from(ind.share) / 10.0 * 100.0).round() / 100.0,
            },
        };
        let members = ind
            .members
            .iter()
            .zip(&ind.weights)
            .map(|(&m, &w)| Member::algo(self.candidates[m].clone()).with_weight(f64::from(w)))
            .collect();
        FilterSet::new("optimized", None, combine, members)
    }

    fn random_weight(rng: &mut Rng) -> u8 {
        1 + below(rng, MAX_WEIGHT) as u8
    }

    /// One form per distinct set: a single member is `serial` (one member alone is the same
    /// set whatever the combination); outside `vote` the weights are 1 and the threshold share
    /// 5 (they play no part); a union or intersection does not depend on the members' order or
    /// repeats (members sorted, repeats dropped), a vote not on their order (members sorted
    /// with their weights). So equal sets are one individual and evaluated once.
    pub fn canonical(mut ind: SetGenes) -> SetGenes {
        if ind.combine == 1 || ind.combine == 2 {
            ind.members.sort_unstable();
            ind.members.dedup();
            ind.weights.truncate(ind.members.len());
        }
        if ind.members.len() == 1 {
            ind.combine = 0;
        }
        if ind.combine != 3 {
            ind.weights.iter_mut().for_each(|w| *w = 1);
            ind.share = 5;
        } else {
            let mut pairs: Vec<(usize, u8)> = ind
                .members
                .iter()
                .copied()
                .zip(ind.weights.iter().copied())
                .collect();
            pairs.sort_unstable();
            ind.members = pairs.iter().map(|p| p.0).collect();
            ind.weights = pairs.iter().map(|p| p.1).collect();
        }
        ind
    }
}

impl SearchSpace for SetSpace {
    type Individual = SetGenes;

    fn gene_names(&self) -> Vec<String> {
        ["members", "combine", "weights", "threshold"]
            .map(String::from)
            .to_vec()
    }

    fn random(&self, rng: &mut Rng) -> SetGenes {
        let n = 1 + below(rng, self.max_members as u64) as usize;
        let k = self.candidates.len() as u64;
        SetSpace::canonical(SetGenes {
            members: (0..n).map(|_| below(rng, k) as usize).collect(),
            combine: below(rng, COMBINES.len() as u64) as usize,
            weights: (0..n).map(|_| SetSpace::random_weight(rng)).collect(),
            share: 1 + below(rng, 10) as u8,
        })
    }

    fn injected(&self) -> Vec<SetGenes> {
        let n = self.candidates.len().min(self.max_members);
        let all: Vec<usize> = (0..n).collect();
        let mut out: Vec<SetGenes> = (0..3)
            .map(|combine| {
                SetSpace::canonical(SetGenes {
                    members: all.clone(),
                    combine,
                    weights: vec![1; n],
                    share: 5,
                })
            })
            .collect();
        out.dedup();
        out.extend((0..self.candidates.len()).map(|i| SetGenes {
            members: vec![i],
            combine: 0,
            weights: vec![1],
            share: 5,
        }));
        out
    }

    fn recombine(&self, a: &SetGenes, b: &SetGenes, rng: &mut Rng) -> SetGenes {
        // The member list (with its weights) from one parent, per position from either where
        // both have one; combination and threshold from either.
        let (long, short) = if below(rng, 2) == 0 { (a, b) } else { (b, a) };
        let mut members = long.members.clone();
        let mut weights = long.weights.clone();
        for i in 0..short.members.len().min(members.len()) {
            if below(rng, 2) == 0 {
                members[i] = short.members[i];
                weights[i] = short.weights[i];
            }
        }
        SetSpace::canonical(SetGenes {
            members,
            weights,
            combine: if below(rng, 2) == 0 {
                a.combine
            } else {
                b.combine
            },
            share: if below(rng, 2) == 0 { a.share } else { b.share },
        })
    }

    fn mutate(&self, a: &SetGenes, rate: f64, _deviation: f64, rng: &mut Rng) -> SetGenes {
        let k = self.candidates.len() as u64;
        let mut out = a.clone();
        let mut tries = 0;
        while out == *a && tries < 64 {
            tries += 1;
            for op in 0..6 {
                if unit(rng) >= rate.max(1.0 / 6.0) {
                    continue;
                }
                let n = out.members.len();
                match op {
                    // Replace a member.
                    0 if k > 1 => {
                        let i = below(rng, n as u64) as usize;
                        out.members[i] = below(rng, k) as usize;
                    }
                    // Add a member at a random place.
                    1 if n < self.max_members => {
                        let i = below(rng, n as u64 + 1) as usize;
                        out.members.insert(i, below(rng, k) as usize);
                        out.weights.insert(i, SetSpace::random_weight(rng));
                    }
                    // Remove a member.
                    2 if n > 1 => {
                        let i = below(rng, n as u64) as usize;
                        out.members.remove(i);
                        out.weights.remove(i);
                    }
                    // Swap two members (the order matters for serial sets).
                    3 if n > 1 => {
                        let i = below(rng, n as u64) as usize;
                        let j = below(rng, n as u64) as usize;
                        out.members.swap(i, j);
                        out.weights.swap(i, j);
                    }
                    // Another combination.
                    4 => out.combine = below(rng, COMBINES.len() as u64) as usize,
                    // A weight and the threshold move by one step.
                    5 => {
                        let i = below(rng, n as u64) as usize;
                        let w = i64::from(out.weights[i]) + if below(rng, 2) == 0 { -1 } else { 1 };
                        out.weights[i] = w.clamp(1, MAX_WEIGHT as i64) as u8;
                        let s = i64::from(out.share) + if below(rng, 2) == 0 { -1 } else { 1 };
                        out.share = s.clamp(1, 10) as u8;
                    }
                    _ => {}
                }
            }
            out = SetSpace::canonical(out);
        }
        out
    }

    fn configure(&self, ind: &SetGenes) -> (Arc<dyn Extractor>, Params) {
        match self.filter_set(ind) {
            Ok(set) => {
                let p = Params::defaults(set.params());
                (Arc::new(set), p)
            }
            // Not reached for individuals of this space (1..=MAX_MEMBERS members, threshold
            // ≥ 0); the first candidate alone stands in.
            Err(_) => {
                let e = self.candidates[0].clone();
                let p = Params::defaults(e.params());
                (e, p)
            }
        }
    }

    fn values(&self, ind: &SetGenes) -> Vec<String> {
        let names: Vec<&str> = ind
            .members
            .iter()
            .map(|&m| self.candidates[m].name())
            .collect();
        let total: u32 = ind.weights.iter().map(|&w| u32::from(w)).sum();
        let vote = ind.combine == 3;
        vec![
            names.join(if ind.combine == 0 { ">" } else { "," }),
            COMBINES[ind.combine.min(3)].to_string(),
            if vote {
                ind.weights
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            } else {
                "-".to_string()
            },
            if vote {
                format!(
                    "{}",
                    (f64::from(total) * f64::from(ind.share) / 10.0 * 100.0).round() / 100.0
                )
            } else {
                "-".to_string()
            },
        ]
    }

    fn coords(&self, ind: &SetGenes) -> Vec<f64> {
        vec![
            ind.members.len() as f64,
            ind.combine as f64,
            ind.weights.iter().map(|&w| f64::from(w)).sum(),
            f64::from(ind.share) / 10.0,
        ]
    }

    fn describe(&self, ind: &SetGenes) -> String {
        let v = self.values(ind);
        match ind.combine {
            3 => format!("vote({}; weights {}; threshold {})", v[0], v[2], v[3]),
            _ => format!("{}({})", v[1], v[0]),
        }
    }

    fn needs_dom(&self) -> bool {
        self.candidates.iter().any(|c| c.needs_dom())
    }

    fn out_file(&self, ind: &SetGenes) -> String {
        match self.filter_set(ind) {
            Ok(set) => set.to_toml(),
            Err(e) => format!("# {e}\n"),
        }
    }
}

/// An [`Arc`]-shared extractor as a boxed one (for [`crate::eval::run::evaluate`], which takes
/// boxes): every method delegates.
pub struct Shared(pub Arc<dyn Extractor>);

impl Extractor for Shared {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn describe(&self) -> &'static str {
        self.0.describe()
    }
    fn params(&self) -> &[ParamSpec] {
        self.0.params()
    }
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        self.0.run(page, params)
    }
    fn needs_dom(&self) -> bool {
        self.0.needs_dom()
    }
    fn explain(&self, page: &Page, x: &Extraction, at: Location) -> Vec<String> {
        self.0.explain(page, x, at)
    }
    fn explain_step(
        &self,
        page: &Page,
        x: &Extraction,
        at: Location,
        step: Option<crate::algorithms::Step>,
    ) -> Vec<String> {
        self.0.explain_step(page, x, at, step)
    }
    fn unfolds(&self, step: usize) -> Option<&'static str> {
        self.0.unfolds(step)
    }
    fn phases(&self) -> &'static [Phase] {
        self.0.phases()
    }
}

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

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

/// Test-corpus F1 of the best individual and of the defaults.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TestScore {
    /// Corpus name.
    pub corpus: String,
    /// Pages with a gold standard.
    pub pages: usize,
    /// Mean word-LCS F1 of the best individual.
    pub best: f64,
    /// Mean word-LCS F1 of the injected defaults.
    pub defaults: f64,
}

/// Scores the best individual and the injected defaults of `outcome` on `pages` (one test
/// corpus, from [`crate::eval::run::gather_with`]) with `cescope eval`'s own evaluation
/// ([`crate::eval::run::evaluate`], word measure), `corpus` naming it.
pub fn test_score<S: SearchSpace>(
    space: &S,
    outcome: &Outcome<S::Individual>,
    corpus: &str,
    pages: &[EvalPage],
) -> TestScore {
    use crate::eval::run::{evaluate, Metric};
    let best = space.configure(&outcome.best().individual);
    let defaults = outcome
        .injected()
        .map(|t| space.configure(&t.individual))
        .unwrap_or_else(|| best.clone());
    let algos: Vec<(Box<dyn Extractor>, Params)> = vec![
        (Box::new(Shared(best.0)), best.1),
        (Box::new(Shared(defaults.0)), defaults.1),
    ];
    let rep = evaluate(pages, &algos, Metric::Word, false);
    TestScore {
        corpus: corpus.to_string(),
        pages: rep.pages.len(),
        best: rep.overall(0).f1,
        defaults: rep.overall(1).f1,
    }
}

/// The top `top` individuals like Gottron 2009, Table 2 (rank, one column per gene, train F1),
/// then the defaults' train F1, the number of distinct evaluations, generations and the stop
/// reason, and `tests` (F1 per test corpus, best vs defaults). Plain text, aligned columns.
pub fn table<S: SearchSpace>(
    space: &S,
    outcome: &Outcome<S::Individual>,
    top: usize,
    tests: &[TestScore],
) -> String {
    let names = space.gene_names();
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut head = vec!["rank".to_string()];
    head.extend(names.iter().cloned());
    head.push("train F1".to_string());
    head.push("gen".to_string());
    rows.push(head);
    for (r, &i) in outcome.ranking.iter().take(top).enumerate() {
        let t = &outcome.tried[i];
        let mut row = vec![format!("{}", r + 1)];
        row.extend(space.values(&t.individual));
        row.push(format!("{:.4}", t.fitness));
        row.push(format!(
            "{}{}",
            t.generation,
            if t.injected { " (defaults)" } else { "" }
        ));
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| {
            rows.iter()
                .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut s = String::new();
    for r in &rows {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(c, v)| format!("{v:>w$}", w = widths[c]))
            .collect();
        s.push_str(cells.join("  ").trim_end());
        s.push('\n');
    }
    let best = outcome.best();
    s.push_str(&format!(
        "\nbest:     {}  train F1 {:.4}\n",
        space.describe(&best.individual),
        best.fitness
    ));
    if let Some(d) = outcome.injected() {
        let rank = outcome
            .ranking
            .iter()
            .position(|&i| outcome.tried[i].individual == d.individual)
            .map_or(0, |r| r + 1);
        s.push_str(&format!(
            "defaults: {}  train F1 {:.4} (rank {rank})\n",
            space.describe(&d.individual),
            d.fitness
        ));
    }
    s.push_str(&format!(
        "{} distinct evaluations in {} generations; stopped: {}\n",
        outcome.evaluations(),
        outcome.history.len(),
        match outcome.stop {
            StopReason::NoImprovement => "no improvement",
            StopReason::MaxGenerations => "--max-generations reached",
            StopReason::Exhausted => "no new individual could be drawn",
        }
    ));
    if !tests.is_empty() {
        let w = tests
            .iter()
            .map(|t| t.corpus.chars().count())
            .max()
            .unwrap_or(0)
            .max(11);
        s.push_str(&format!(
            "\n{:<w$}  {:>5}  {:>8}  {:>8}  {:>7}\n",
            "test corpus", "pages", "best F1", "default", "diff"
        ));
        for t in tests {
            s.push_str(&format!(
                "{:<w$}  {:>5}  {:>8.4}  {:>8.4}  {:>+7.4}\n",
                t.corpus,
                t.pages,
                t.best,
                t.defaults,
                t.best - t.defaults
            ));
        }
    }
    s
}

/// The outcome as JSON: options, genes, every individual tried (values, setting, fitness,
/// generation, injected) in evaluation order, the ranking (indices into `tried`), history,
/// best and defaults, and `tests`.
pub fn to_json<S: SearchSpace>(
    space: &S,
    outcome: &Outcome<S::Individual>,
    opts: &GaOptions,
    tests: &[TestScore],
) -> Value {
    let item = |t: &Tried<S::Individual>| {
        json!({
            "values": space.values(&t.individual),
            "setting": space.describe(&t.individual),
            "fitness": t.fitness,
            "generation": t.generation,
            "injected": t.injected,
        })
    };
    json!({
        "options": opts,
        "genes": space.gene_names(),
        "evaluations": outcome.evaluations(),
        "generations": outcome.history.len(),
        "stop": outcome.stop,
        "best": item(outcome.best()),
        "defaults": outcome.injected().map(item),
        "history": outcome.history,
        "ranking": outcome.ranking,
        "tried": outcome.tried.iter().map(item).collect::<Vec<_>>(),
        "tests": tests,
    })
}

/// Writes [`SearchSpace::out_file`] of the best individual to `path` atomically: for a
/// [`ParamSpace`] command-line arguments (`--algo NAME --set NAME=VALUE …`) that `cescope eval
/// CORPUS $(cat FILE)` or `cescope extract PAGE $(cat FILE)` take; for a [`SetSpace`] a
/// filter-set TOML file that `--algo FILE` runs. Errors: [`Error::Write`].
pub fn write_best<S: SearchSpace>(
    space: &S,
    outcome: &Outcome<S::Individual>,
    path: &Path,
) -> Result<()> {
    let text = space.out_file(&outcome.best().individual);
    let opts = crate::fsio::write::WriteOptions::default();
    crate::fsio::write::write_bytes(path, &opts, text.as_bytes())?;
    Ok(())
}

/// Whether this build draws the SVG plot (the `plots` cargo feature).
pub const PLOTS: bool = cfg!(feature = "plots");

/// The plot axes named by `--plot-axes X[,Y]` (gene names, [`SearchSpace::gene_names`]) as gene
/// indices; `None`: [`SearchSpace::default_plot_axes`]. Y `None` plots F1. Errors:
/// [`Error::Param`] for a name that is not a gene, listing the genes.
pub fn plot_axes<S: SearchSpace>(space: &S, axes: Option<&str>) -> Result<(usize, Option<usize>)> {
    let Some(a) = axes else {
        return Ok(space.default_plot_axes());
    };
    let names = space.gene_names();
    let find = |n: &str| {
        names.iter().position(|g| g == n.trim()).ok_or_else(|| {
            Error::Param(format!(
                "--plot-axes: {:?} is not a searched gene ({})",
                n.trim(),
                names.join(", ")
            ))
        })
    };
    Ok(match a.split_once(',') {
        Some((x, y)) => (find(x)?, Some(find(y)?)),
        None => (find(a)?, None),
    })
}

/// Draws every configuration tried, like Gottron 2009, Fig. 4 ("distribution of parameters …
/// while searching for optimal configuration"): one point per distinct individual on genes
/// `x` and `y` (indices into [`SearchSpace::gene_names`]; with `y` `None` the vertical axis is
/// the train F1), coloured from grey (low F1) to blue (high), the defaults as a black cross,
/// the best as a red circle; written to `path` as SVG, atomically. Errors: [`Error::Param`]
/// for a gene index out of range or a build without the `plots` feature; [`Error::Io`],
/// [`Error::Write`].
pub fn plot<S: SearchSpace>(
    space: &S,
    outcome: &Outcome<S::Individual>,
    x: usize,
    y: Option<usize>,
    path: &Path,
) -> Result<()> {
    let names = space.gene_names();
    if x >= names.len() || y.is_some_and(|y| y >= names.len()) {
        return Err(Error::Param(format!(
            "plot axes: the genes are {}",
            names.join(", ")
        )));
    }
    #[cfg(feature = "plots")]
    {
        plot_svg(space, outcome, x, y, path)
    }
    #[cfg(not(feature = "plots"))]
    {
        let _ = (outcome, path);
        Err(Error::Param(
            "this build has no plots (built without the `plots` feature)".to_string(),
        ))
    }
}

#[cfg(feature = "plots")]
fn plot_svg<S: SearchSpace>(
    space: &S,
    outcome: &Outcome<S::Individual>,
    x: usize,
    y: Option<usize>,
    path: &Path,
) -> Result<()> {
    use plotters::prelude::*;
    let err = |e: &dyn fmt::Display| Error::io(path, std::io::Error::other(e.to_string()));
    let names = space.gene_names();
    let pts: Vec<(f64, f64, f64)> = outcome
        .tried
        .iter()
        .map(|t| {
            let c = space.coords(&t.individual);
            let py = y.map_or(t.fitness, |y| c[y]);
            (c[x], py, t.fitness)
        })
        .collect();
    let range = |v: &mut dyn Iterator<Item = f64>| {
        let (lo, hi) = v.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(x), b.max(x))
        });
        let pad = ((hi - lo) * 0.05).max(1e-3);
        (lo - pad)..(hi + pad)
    };
    let xr = range(&mut pts.iter().map(|p| p.0));
    let yr = range(&mut pts.iter().map(|p| p.1));
    let (fmin, fmax) = pts
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.2), b.max(p.2))
        });
    let ylabel = y.map_or("train F1".to_string(), |y| names[y].clone());
    let best = outcome.best();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 640)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "{} configurations tried: {} vs {} (best train F1 {:.4})",
                    pts.len(),
                    names[x],
                    ylabel,
                    best.fitness
                ),
                ("sans-serif", 16),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(xr, yr)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc(names[x].clone())
            .y_desc(ylabel)
            .draw()
            .map_err(|e| err(&e))?;
        chart
            .draw_series(pts.iter().map(|&(a, b, f)| {
                let t = if fmax > fmin {
                    (f - fmin) / (fmax - fmin)
                } else {
                    1.0
                };
                let c = RGBColor(
                    (190.0 * (1.0 - t)) as u8,
                    (190.0 * (1.0 - t)) as u8,
                    (190.0 + 65.0 * t) as u8,
                );
                Circle::new((a, b), 3, c.filled())
            }))
            .map_err(|e| err(&e))?;
        if let Some(d) = outcome.injected() {
            let c = space.coords(&d.individual);
            let p = (c[x], y.map_or(d.fitness, |y| c[y]));
            chart
                .draw_series([Cross::new(p, 6, BLACK.stroke_width(2))])
                .map_err(|e| err(&e))?;
        }
        let c = space.coords(&best.individual);
        let p = (c[x], y.map_or(best.fitness, |y| c[y]));
        chart
            .draw_series([Circle::new(p, 7, RED.stroke_width(2))])
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    let opts = crate::fsio::write::WriteOptions::default();
    crate::fsio::write::write_bytes(path, &opts, svg.as_bytes())?;
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::{self, ParamKind, ParamValue};
    use crate::selection::Selection;

    /// A fake extractor for a toy problem with a known optimum: it selects the first `n` words
    /// of the page (`flag` changes nothing).
    struct FirstWords;

    static FIRST_WORDS_SPECS: [ParamSpec; 2] = [
        ParamSpec {
            name: "n",
            kind: ParamKind::Int {
                min: 0,
                max: 100,
                step: 1,
            },
            default: ParamValue::Int(80),
            help: "words to select",
            source: "test",
        },
        ParamSpec {
            name: "flag",
            kind: ParamKind::Bool,
            default: ParamValue::Bool(false),
            help: "no effect",
            source: "test",
        },
    ];

    impl Extractor for FirstWords {
        fn name(&self) -> &'static str {
            "first-words"
        }
        fn describe(&self) -> &'static str {
            "the first n words (test)"
        }
        fn params(&self) -> &[ParamSpec] {
            &FIRST_WORDS_SPECS
        }
        fn run(&self, page: &Page, params: &Params) -> Extraction {
            let n = params.int(&FIRST_WORDS_SPECS[0]) as usize;
            let text = page.text();
            let mut sel = Selection::new();
            let mut start = None;
            let mut count = 0;
            for (i, c) in text.char_indices() {
                if c.is_ascii_alphanumeric() {
                    start.get_or_insert(i);
                } else if let Some(s) = start.take() {
                    if count < n && s > 2 {
                        sel.push(s..i);
                    }
                    count += usize::from(s > 2);
                }
            }
            Extraction {
                selection: sel,
                trace: Default::default(),
            }
        }
    }

    /// A page of 100 words `w0 … w99` whose gold is the first 37: F1 of `n` words is
    /// 2·min(n, 37) / (n + 37), highest at n = 37 only.
    fn toy() -> (ParamSpace, TrainingSet) {
        let words: Vec<String> = (0..100).map(|i| format!("w{i}")).collect();
        let page = Page::from_text("toy.html", format!("<p>{}</p>", words.join(" ")));
        let gold = words[..37].join(" ");
        let e: Arc<dyn Extractor> = Arc::new(FirstWords);
        let space = ParamSpace::new(e.clone(), Params::defaults(e.params()), None).unwrap();
        (space, TrainingSet::from_pages(vec![(page, gold)]).unwrap())
    }

    #[test]
    fn toy_fitness_is_the_known_curve() {
        let (space, training) = toy();
        for n in [0i64, 10, 37, 50, 100] {
            let (e, p) = space.configure(&vec![Gene::Int(n), Gene::Bool(false)]);
            let want = 2.0 * (n.min(37) as f64) / (n as f64 + 37.0);
            assert!((training.fitness(&*e, &p) - want).abs() < 1e-12, "n = {n}");
        }
    }

    #[test]
    fn the_search_finds_the_known_optimum() {
        let (space, training) = toy();
        let opts = GaOptions {
            population: 10,
            parents: 3,
            patience: 8,
            max_generations: 100,
            ..GaOptions::default()
        };
        let out = optimize(&space, &training, &opts, &mut |_, _| {}).unwrap();
        assert_eq!(out.best().individual[0], Gene::Int(37), "{:?}", out.best());
        assert!((out.best().fitness - 1.0).abs() < 1e-12);
        // Far fewer evaluations than the 202 points of the space.
        assert!(out.evaluations() < 202);
        // The best fitness seen never drops from one generation to the next.
        for w in out.history.windows(2) {
            assert!(w[1].best_so_far >= w[0].best_so_far);
            assert!(w[1].best >= w[0].best, "the parents are carried over");
        }
    }

    #[test]
    fn same_seed_same_run_whatever_the_threads() {
        let (space, training) = toy();
        let opts = GaOptions {
            population: 8,
            parents: 2,
            seed: 99,
            ..GaOptions::default()
        };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| optimize(&space, &training, &opts, &mut |_, _| {}).unwrap())
        };
        let (a, b, c) = (run(1), run(2), run(1));
        for other in [&b, &c] {
            assert_eq!(a.tried, other.tried);
            assert_eq!(a.history, other.history);
            assert_eq!(a.ranking, other.ranking);
        }
        let d = optimize(
            &space,
            &training,
            &GaOptions { seed: 100, ..opts },
            &mut |_, _| {},
        )
        .unwrap();
        assert_ne!(a.tried, d.tried, "another seed, another run");
    }

    #[test]
    fn the_defaults_are_injected_into_generation_zero() {
        let (space, training) = toy();
        let out = optimize(&space, &training, &GaOptions::default(), &mut |_, _| {}).unwrap();
        let d = out.injected().expect("an injected individual");
        assert_eq!(d.generation, 0);
        assert_eq!(d.individual, vec![Gene::Int(80), Gene::Bool(false)]);
        assert_eq!(out.tried[0].individual, d.individual, "evaluated first");
        assert_eq!(out.history[0].population, GaOptions::default().population);
        // --set values are what is injected.
        let e: Arc<dyn Extractor> = Arc::new(FirstWords);
        let mut base = Params::defaults(e.params());
        base.set_str(e.params(), "n=5").unwrap();
        let space = ParamSpace::new(e, base, Some(&["n".to_string()])).unwrap();
        assert_eq!(space.injected(), vec![vec![Gene::Int(5)]]);
        assert_eq!(space.gene_names(), ["n"]);
    }

    #[test]
    fn mutation_stays_in_range_and_on_the_grid_for_every_extractor() {
        let mut rng = rng(7);
        for e in algorithms::registry() {
            if e.params().is_empty() {
                continue;
            }
            let e: Arc<dyn Extractor> = e.into();
            let space = ParamSpace::new(e.clone(), Params::defaults(e.params()), None).unwrap();
            let mut ind = space.random(&mut rng);
            for _ in 0..300 {
                for deviation in [0.01, 0.1, 2.0] {
                    let m = space.mutate(&ind, 0.5, deviation, &mut rng);
                    assert_ne!(m, ind, "{}: a mutation changes a gene", e.name());
                    let (_, p) = space.configure(&m);
                    for s in space.specs() {
                        let v = p.get(s.name).unwrap();
                        assert!(on_grid(s, v), "{} {}={v}: off the grid", e.name(), s.name);
                        // The value also passes the spec's own parser (kind and range).
                        assert_eq!(s.parse(&v.to_string()).unwrap(), *v);
                    }
                    ind = m;
                }
            }
            let r = space.random(&mut rng);
            let (_, p) = space.configure(&r);
            for s in space.specs() {
                assert!(
                    on_grid(s, p.get(s.name).unwrap()),
                    "{} {}",
                    e.name(),
                    s.name
                );
            }
        }
    }

    #[test]
    fn recombination_takes_each_gene_from_a_parent() {
        let mut rng = rng(3);
        let e: Arc<dyn Extractor> = algorithms::find("addanag").unwrap().into();
        let space = ParamSpace::new(e.clone(), Params::defaults(e.params()), None).unwrap();
        let mut from_a = 0;
        let mut from_b = 0;
        for _ in 0..200 {
            let (a, b) = (space.random(&mut rng), space.random(&mut rng));
            let c = space.recombine(&a, &b, &mut rng);
            assert_eq!(c.len(), a.len());
            for i in 0..c.len() {
                assert!(c[i] == a[i] || c[i] == b[i], "gene {i} from neither parent");
                if a[i] != b[i] {
                    from_a += usize::from(c[i] == a[i]);
                    from_b += usize::from(c[i] == b[i]);
                }
            }
        }
        assert!(from_a > 0 && from_b > 0, "both parents contribute");
    }

    #[test]
    fn set_space_individuals_are_valid_sets_and_round_trip_through_toml() {
        use crate::algorithms::combine;
        let cands: Vec<String> = ["dsc", "bte", "accb", "lqf"].map(String::from).to_vec();
        let space = SetSpace::new(&cands, 3).unwrap();
        let mut rng = rng(11);
        let valid = |g: &SetGenes| {
            (1..=3).contains(&g.members.len())
                && g.weights.len() == g.members.len()
                && g.members.iter().all(|&m| m < 4)
                && g.weights.iter().all(|&w| (1..=3).contains(&w))
                && (1..=10).contains(&g.share)
                && g.combine < 4
                && *g == SetSpace::canonical(g.clone())
        };
        let inj = space.injected();
        assert_eq!(
            inj[0].members,
            [0, 1, 2],
            "the serial chain, capped at 3 members"
        );
        assert!(inj.iter().all(valid));
        let mut a = space.random(&mut rng);
        for _ in 0..500 {
            let b = space.random(&mut rng);
            assert!(valid(&b), "{b:?}");
            let c = space.recombine(&a, &b, &mut rng);
            assert!(valid(&c), "{c:?}");
            // Each member from a parent (positions move when the child's form is canonical).
            for m in &c.members {
                assert!(a.members.contains(m) || b.members.contains(m));
            }
            let m = space.mutate(&c, 0.2, 0.1, &mut rng);
            assert!(valid(&m), "{m:?}");
            assert_ne!(m, c, "a mutation changes the set");
            a = m;
        }
        // The written set file reads back to a set with the same members and combination.
        let u = SetSpace::canonical(SetGenes {
            members: vec![2, 1, 2],
            combine: 1,
            weights: vec![1, 3, 2],
            share: 2,
        });
        assert_eq!((u.members, u.weights, u.share), (vec![1, 2], vec![1, 1], 5));
        let g = SetGenes {
            members: vec![3, 1],
            combine: 3,
            weights: vec![2, 1],
            share: 6,
        };
        let v = SetSpace::canonical(g.clone());
        assert_eq!((v.members, v.weights), (vec![1, 3], vec![1, 2]));
        // (The written set file reads back; `g` as drawn, not canonical, keeps its order.)
        let text = space.out_file(&g);
        let set = combine::parse(&text, Path::new(".")).unwrap();
        let names: Vec<&str> = set.members().iter().map(|m| m.extractor().name()).collect();
        assert_eq!(names, ["lqf", "bte"]);
        assert_eq!(set.combine(), combine::Combine::Vote { threshold: 1.8 });
        assert_eq!(set.members()[0].weight(), 2.0);
        assert_eq!(space.values(&g), ["lqf,bte", "vote", "2,1", "1.8"]);
        assert!(SetSpace::new(&["nope".to_string()], 3).is_err());
        assert!(SetSpace::new(&cands, 0).is_err());
    }

    #[test]
    fn grid_points_are_clean_decimals() {
        assert_eq!(float_at(0.0, 0.01, 30), 0.3);
        assert_eq!(float_at(0.05, 0.05, 14), 0.75);
        assert_eq!(grid_steps(0.0, 1.0, 0.01), 100);
        let sw = algorithms::find("sw").unwrap();
        let t_en = &sw.params()[0];
        assert!(on_grid(t_en, &ParamValue::Float(0.31)));
        assert!(!on_grid(t_en, &ParamValue::Float(0.315)));
        assert!(!on_grid(t_en, &ParamValue::Float(1.5)));
    }

    #[test]
    fn bad_options_and_spaces_are_refused() {
        let (space, training) = toy();
        for bad in [
            GaOptions {
                population: 1,
                ..GaOptions::default()
            },
            GaOptions {
                parents: 20,
                ..GaOptions::default()
            },
            GaOptions {
                crossover: 1.5,
                ..GaOptions::default()
            },
            GaOptions {
                patience: 0,
                ..GaOptions::default()
            },
        ] {
            assert!(optimize(&space, &training, &bad, &mut |_, _| {}).is_err());
        }
        let e: Arc<dyn Extractor> = Arc::new(FirstWords);
        let p = Params::defaults(e.params());
        assert!(ParamSpace::new(e.clone(), p.clone(), Some(&["nope".into()])).is_err());
        let plain: Arc<dyn Extractor> = algorithms::find("plain").unwrap().into();
        assert!(ParamSpace::new(plain, Params::default(), None).is_err());
        assert!(TrainingSet::from_pages(Vec::new()).is_err());
        assert!(TrainingSet::load(&[], false).is_err());
    }

    #[test]
    fn plot_axes_by_name_and_by_default() {
        let space_of = |name: &str| {
            let e: Arc<dyn Extractor> = algorithms::find(name).unwrap().into();
            ParamSpace::new(e.clone(), Params::defaults(e.params()), None).unwrap()
        };
        // DANAg: gap is its one numeric parameter → gap against F1.
        let danag = space_of("danag");
        assert_eq!(danag.gene_names()[0], "gap");
        assert_eq!(plot_axes(&danag, None).unwrap(), (0, None));
        // ACCB: its first two numeric parameters against each other.
        let accb = space_of("accb");
        let (x, y) = plot_axes(&accb, None).unwrap();
        let y = y.expect("two numeric parameters");
        for i in [x, y] {
            assert!(matches!(
                accb.specs()[i].kind,
                ParamKind::Int { .. } | ParamKind::Float { .. }
            ));
        }
        assert!(x < y);
        let names = accb.gene_names();
        let named = format!("{}, {}", names[y], names[x]);
        assert_eq!(plot_axes(&accb, Some(&named)).unwrap(), (y, Some(x)));
        assert!(
            plot_axes(&accb, Some("gap")).is_err(),
            "not an ACCB parameter"
        );
        // A set search: members against F1 unless named.
        let sets = SetSpace::new(&["dsc".to_string(), "bte".to_string()], 2).unwrap();
        assert_eq!(plot_axes(&sets, None).unwrap(), (0, None));
        assert_eq!(plot_axes(&sets, Some("combine")).unwrap(), (1, None));
    }

    #[test]
    fn a_sample_is_seeded_and_keeps_order() {
        let pages: Vec<EvalPage> = (0..50)
            .map(|i| EvalPage {
                corpus: "c".into(),
                id: format!("{i:02}"),
                path: format!("{i}.html").into(),
                gold: Default::default(),
                site: "unknown".into(),
                gold_sha256: None,
            })
            .collect();
        let ids = |v: Vec<EvalPage>| v.into_iter().map(|p| p.id).collect::<Vec<_>>();
        let a = ids(sample(pages.clone(), 10, 1));
        assert_eq!(a.len(), 10);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(a, ids(sample(pages.clone(), 10, 1)));
        assert_ne!(a, ids(sample(pages.clone(), 10, 2)));
        assert_eq!(ids(sample(pages.clone(), 99, 1)).len(), 50);
    }

    #[test]
    fn fitness_of_the_defaults_is_evals_mean_f1() {
        use crate::eval::run::{evaluate, gather_with, CorpusOrGoldFiles, Metric};
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/sample-pages");
        let (pages, _) = gather_with(&[dir.into()], &CorpusOrGoldFiles).unwrap();
        assert!(pages.len() >= 5, "sample pages with gold files");
        for name in ["danag", "accb", "lqf", "sw"] {
            let e: Arc<dyn Extractor> = algorithms::find(name).unwrap().into();
            let training = TrainingSet::load(&pages, e.needs_dom()).unwrap();
            let params = Params::defaults(e.params());
            let fit = training.fitness(&*e, &params);
            let rep = evaluate(
                &pages,
                &[(algorithms::find(name).unwrap(), params)],
                Metric::Word,
                false,
            );
            assert_eq!(fit, rep.overall(0).f1, "{name}");
            assert!(fit > 0.0 && fit <= 1.0);
        }
    }
}
