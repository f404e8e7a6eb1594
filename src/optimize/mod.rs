//! Genetic optimisation of extractor parameters (Gottron 2009, *An Evolutionary Approach to
//! Automatically Optimise Web Content Extraction*, section 4, Fig. 2–4, Tables 2–3).
//!
//! The process of the paper's Fig. 3, as published:
//!
//! 1. **Individuals** are parameter settings drawn from the extractor's [`crate::extract::ParamSpec`]s ("the
//!    parameter description", Fig. 2): ints and floats on their step grid within their range,
//!    switches, choices. The search is written against the [`SearchSpace`] trait (random
//!    individual, recombination, mutation, to an extractor and its parameters, described as a
//!    `--set` list); [`ParamSpace`] is the space of one extractor's parameters.
//! 2. **Generation 0** is the injected individuals (the published defaults, [`crate::extract::Params::defaults`],
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
//! [`Rng`]; only fitness evaluation is parallel (rayon, over the new individuals
//! of a generation and over pages), and its results are collected in order, so the same seed
//! gives the same run whatever the thread count.

mod fitness;
mod ga;
mod plot;
mod report;
mod space;
mod study;
#[cfg(test)]
mod tests;

pub use fitness::*;
pub use ga::*;
pub use plot::*;
pub use report::*;
pub use space::*;
pub use study::*;

use rand::{Rng as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

/// The random number generator of the optimiser (seeded, [`ChaCha8Rng`]: portable and
/// reproducible across platforms and versions of `rand_chacha`).
pub type Rng = ChaCha8Rng;

/// A fresh generator for `seed`.
pub fn rng(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// Uniform in `[0, 1)`.
fn unit(rng: &mut Rng) -> f64 {
    rng.gen::<f64>()
}

/// Uniform in `0..n` (`n > 0`; `n ≤ 1` gives 0), unbiased.
fn below(rng: &mut Rng, n: u64) -> u64 {
    if n <= 1 {
        return 0;
    }
    rng.gen_range(0..n)
}

/// A standard normal deviate.
fn gaussian(rng: &mut Rng) -> f64 {
    StandardNormal.sample(rng)
}
