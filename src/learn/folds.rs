//! Cross-validation folds, two ways of dealing the training pages:
//!
//! - [`assign`]: k folds grouped by site — the pages of one site are never in both a training
//!   and a test fold (a model must not be scored on a template it has seen), deterministic from
//!   a seed. The sites are sorted, shuffled with ChaCha8 seeded by `seed` (the same order on
//!   every platform and thread count), then dealt out one by one to the fold with the fewest
//!   pages so far (the lowest fold on ties), so folds are balanced in pages, not only in sites.
//! - [`by_corpus`]: leave one corpus out — one fold per training corpus, so each model is scored
//!   on a corpus (an era, a site mix, a definition of main content) it never saw a page of.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::error::{Error, Result};

/// How the training pages are dealt into folds (`cescope train --folds K|corpus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// `--folds K`: K folds grouped by site ([`assign`]).
    Sites(usize),
    /// `--folds corpus`: one fold per corpus, leave one corpus out ([`by_corpus`]).
    Corpora,
}

impl std::str::FromStr for Scheme {
    type Err = String;

    /// `corpus` (ASCII case-insensitive) or a number of folds. Errors: anything else, with a
    /// message saying what `--folds` takes (the number itself is checked by [`assign`]).
    fn from_str(s: &str) -> std::result::Result<Scheme, String> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("corpus") {
            return Ok(Scheme::Corpora);
        }
        t.parse::<usize>().map(Scheme::Sites).map_err(|_| {
            format!("{s:?} is neither a number of folds nor `corpus` (leave one corpus out)")
        })
    }
}

/// The folds of `scheme`: their number and the fold of every page, given each page's site
/// and corpus (aligned). Errors: those of [`assign`] and [`by_corpus`].
pub fn deal(
    scheme: Scheme,
    sites: &[&str],
    corpora: &[&str],
    seed: u64,
) -> Result<(usize, Vec<usize>)> {
    match scheme {
        Scheme::Sites(k) => Ok((k, assign(sites, k, seed)?)),
        Scheme::Corpora => {
            let (fold_of, names) = by_corpus(corpora)?;
            Ok((names.len(), fold_of))
        }
    }
}

/// The fold (`0..k`) of every page, given each page's site. Errors: [`Error::Train`] when `k`
/// is below 2 or there are fewer sites than folds. O(pages · log pages).
pub fn assign(sites: &[&str], k: usize, seed: u64) -> Result<Vec<usize>> {
    if k < 2 {
        return Err(Error::Train(format!(
            "--folds {k}: cross-validation needs at least 2 folds"
        )));
    }
    let mut distinct: Vec<&str> = sites.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() < k {
        return Err(Error::Train(format!(
            "--folds {k}: the training pages come from {} site{} ({}), and folds are grouped by \
             site (a site's pages never in both a training and a test fold); {}",
            distinct.len(),
            if distinct.len() == 1 { "" } else { "s" },
            shown(&distinct),
            if distinct.len() < 2 {
                "cross-validation needs pages of at least 2 sites (gold files record a site \
                 through their url)"
                    .to_string()
            } else {
                format!(
                    "use at most {} folds or add pages of other sites",
                    distinct.len()
                )
            }
        )));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    distinct.shuffle(&mut rng);
    let mut count_of: std::collections::BTreeMap<&str, usize> = Default::default();
    for s in sites {
        *count_of.entry(s).or_insert(0) += 1;
    }
    let mut load = vec![0usize; k];
    let mut fold_of: std::collections::BTreeMap<&str, usize> = Default::default();
    for s in distinct {
        let f = (0..k).min_by_key(|&f| (load[f], f)).unwrap_or(0);
        load[f] += count_of[s];
        fold_of.insert(s, f);
    }
    Ok(sites.iter().map(|s| fold_of[s]).collect())
}

/// Leave-one-corpus-out folds: the fold of every page, given each page's corpus — fold `f` is
/// the `f`-th distinct corpus in order of first appearance (the order of `--train`) — and the
/// corpus names in fold order. Errors: [`Error::Train`] when the pages come from fewer than 2
/// corpora. O(pages · corpora).
pub fn by_corpus(corpora: &[&str]) -> Result<(Vec<usize>, Vec<String>)> {
    let mut names: Vec<&str> = Vec::new();
    let fold_of = corpora
        .iter()
        .map(|c| match names.iter().position(|n| n == c) {
            Some(f) => f,
            None => {
                names.push(c);
                names.len() - 1
            }
        })
        .collect();
    if names.len() < 2 {
        return Err(Error::Train(format!(
            "--folds corpus: the training pages come from {} {} ({}); leaving one corpus \
             out needs at least 2 training corpora (give several to --train)",
            names.len(),
            if names.len() == 1 {
                "corpus"
            } else {
                "corpora"
            },
            if names.is_empty() {
                "none".to_string()
            } else {
                shown(&names)
            }
        )));
    }
    Ok((fold_of, names.into_iter().map(str::to_string).collect()))
}

/// The first few names, for a message.
fn shown(names: &[&str]) -> String {
    const N: usize = 3;
    let mut s = names[..names.len().min(N)].join(", ");
    if names.len() > N {
        s.push_str(", …");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sites() -> Vec<String> {
        // 40 pages of 13 sites, uneven: site i has 1 + i % 5 pages.
        let mut v = Vec::new();
        for i in 0..13 {
            for _ in 0..(1 + i % 5) {
                v.push(format!("site{i}.example"));
            }
        }
        v
    }

    #[test]
    fn a_site_never_straddles_folds_and_the_assignment_is_stable() {
        let owned = sites();
        let s: Vec<&str> = owned.iter().map(String::as_str).collect();
        let folds = assign(&s, 5, 7).unwrap();
        assert_eq!(folds.len(), s.len());
        for (i, a) in s.iter().enumerate() {
            for (j, b) in s.iter().enumerate() {
                if a == b {
                    assert_eq!(folds[i], folds[j], "{a} is in two folds");
                }
            }
        }
        // Every fold is used and roughly balanced in pages.
        let mut load = [0usize; 5];
        for &f in &folds {
            load[f] += 1;
        }
        assert!(load.iter().all(|&n| n > 0), "{load:?}");
        assert!(
            load.iter().max().unwrap() - load.iter().min().unwrap() <= 5,
            "{load:?}"
        );
        // Stable: the same seed gives the same folds, whatever the page order of equal sites.
        assert_eq!(assign(&s, 5, 7).unwrap(), folds);
        let reversed: Vec<&str> = s.iter().rev().copied().collect();
        let back: Vec<usize> = assign(&reversed, 5, 7).unwrap().into_iter().rev().collect();
        assert_eq!(back, folds);
        // Another seed deals the sites differently.
        assert_ne!(assign(&s, 5, 8).unwrap(), folds);
    }

    #[test]
    fn too_few_folds_or_sites_are_errors() {
        let e = assign(&["a", "b"], 1, 0).unwrap_err().to_string();
        assert!(e.contains("at least 2 folds"), "{e}");
        let e = assign(&["unknown", "unknown", "unknown"], 5, 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("1 site (unknown)"), "{e}");
        assert_eq!(assign(&["a", "b", "a"], 2, 0).unwrap().len(), 3);
    }

    #[test]
    fn schemes_parse_and_deal() {
        assert_eq!(" Corpus".parse::<Scheme>(), Ok(Scheme::Corpora));
        assert_eq!("5".parse::<Scheme>(), Ok(Scheme::Sites(5)));
        let e = "sites".parse::<Scheme>().unwrap_err();
        assert!(e.contains("neither a number of folds nor `corpus`"), "{e}");
        let (k, f) = deal(Scheme::Corpora, &["s", "t", "u"], &["x", "y", "x"], 1).unwrap();
        assert_eq!((k, f), (2, vec![0, 1, 0]));
        let (k, f) = deal(Scheme::Sites(2), &["s", "t", "s"], &["x", "x", "x"], 1).unwrap();
        assert_eq!(k, 2);
        assert_eq!(f[0], f[2]);
        assert_ne!(f[0], f[1]);
    }

    #[test]
    fn leave_one_corpus_out_deals_one_fold_per_corpus_in_order() {
        let (folds, names) = by_corpus(&["b", "a", "b", "c", "a"]).unwrap();
        assert_eq!(folds, [0, 1, 0, 2, 1]);
        assert_eq!(names, ["b", "a", "c"]);
        let e = by_corpus(&["only", "only"]).unwrap_err().to_string();
        assert!(
            e.contains("from 1 corpus (only)") && e.contains("at least 2 training corpora"),
            "{e}"
        );
        let e = by_corpus(&[]).unwrap_err().to_string();
        assert!(e.contains("0 corpora (none)"), "{e}");
    }
}
