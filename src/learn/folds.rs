//! k-fold cross-validation grouped by site: the pages of one site are never in both a training
//! and a test fold (a model must not be scored on a template it has seen), deterministic from
//! a seed.
//!
//! The sites are sorted, shuffled with ChaCha8 seeded by `seed` (the same order on every
//! platform and thread count), then dealt out one by one to the fold with the fewest pages so
//! far (the lowest fold on ties), so folds are balanced in pages, not only in sites.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::error::{Error, Result};

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
}
