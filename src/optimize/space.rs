//! Search spaces of the optimiser (Gottron 2009, section 4, Fig. 2): the genes of one
//! extractor's parameters ([`ParamSpace`]) and of filter sets ([`SetSpace`]).

use std::fmt;
use std::hash::Hash;
use std::sync::Arc;

use super::*;
use crate::error::{Error, Result};
use crate::extract::{Algorithm, Extractor, ParamKind, ParamSpec, ParamValue, Params};

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
pub(super) fn decimals(step: f64) -> i32 {
    let s = format!("{step}");
    s.split_once('.').map(|(_, d)| d.len()).unwrap_or(0).min(12) as i32
}

/// Number of grid steps in `min..=max` (the grid is `min + k·step`, `k` in `0..=n`).
pub(super) fn grid_steps(min: f64, max: f64, step: f64) -> i64 {
    if step.is_nan() || step <= 0.0 || max <= min {
        0
    } else {
        ((max - min) / step + 1e-9).floor() as i64
    }
}

/// Grid point `k` of a float spec, rounded to the step's decimals.
pub(super) fn float_at(min: f64, step: f64, k: i64) -> f64 {
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
        (ParamKind::Choice { choices }, ParamValue::Choice(c)) => choices.contains(&c.as_ref()),
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
                    let s = crate::extract::find_spec(specs, n).map_err(|e| match e {
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
            (ParamKind::Choice { choices }, Gene::Choice(i)) => choices
                .get(*i)
                .map_or_else(|| spec.default.clone(), |c| ParamValue::choice(c)),
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
                let v = self.base.get(&s.name).unwrap_or(&s.default);
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
            // A gene stands for a value on the spec's grid, in its range: always accepted.
            let _ = p.set(spec, self.value(spec, g));
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
            .map(|n| crate::extractors::find(n.trim()))
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
