//! k-means clustering for the algorithms that cluster their units: CETR's lines (Weninger, Hsu &
//! Han 2010; Mohammadzadeh 2013, 3.3.3.1: "by using the k-means clustering method originally
//! proposed by MacQueen, the resulting histogram is clustered into the content and the
//! non-content area") and K-FeatureExtractor's blocks (Debnath et al. 2005; Mohammadzadeh 2013,
//! 3.2.3: "K-FE uses an adaptive k-means clustering to address K blocks from the winner
//! baskets").
//!
//! One wrapper around one crate (`linfa-clustering`'s k-means with k-means++ seeding; its centroid update counts the old
//! centroid as one more member ("m_k-means"), so the centroids reported here are recomputed as
//! the exact means of their members), so
//! every algorithm clusters the same way. Deterministic: the random generator is seeded from the
//! caller's `seed`, so the same points, `k` and seed give the same clusters on every run and
//! thread. Clusters are numbered by the distance of their centroid from the origin (cluster 0 is
//! the one nearest the origin), so labels do not depend on the crate's internal order.

use linfa::traits::{Fit, Predict};
use linfa::DatasetBase;
use linfa_clustering::KMeans;
use ndarray::Array2;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256Plus;

/// k-means runs (k-means++ seeding each time; the run with the least inertia is kept). One:
/// linfa's iterations cost about 2 ms per run on 4 000 2-D points, more restarts made CETR miss
/// the 20 MB/s goal, and on CETR's and K-FE's few well-separated 1-D / 2-D groups a single
/// k-means++ seeding finds the same clusters.
const RUNS: usize = 1;

/// The result of [`kmeans`].
#[derive(Debug, Clone, PartialEq)]
pub struct Clusters {
    /// Cluster of each point, `0..centroids.len()`; one per input point.
    pub labels: Vec<usize>,
    /// Centroid of each cluster (each of the input dimension), ordered by Euclidean distance
    /// from the origin, nearest first (ties by the coordinates).
    pub centroids: Vec<Vec<f64>>,
}

impl Clusters {
    /// Squared Euclidean distance of centroid `c` from the origin.
    pub fn norm2(&self, c: usize) -> f64 {
        self.centroids[c].iter().map(|x| x * x).sum()
    }
}

/// Clusters `n = points.len() / dim` points of dimension `dim` (row-major: point `i` is
/// `points[i·dim .. (i+1)·dim]`) into at most `k` clusters by k-means (Lloyd's algorithm,
/// k-means++ seeding from `seed`, one run).
///
/// Never fails and never panics: no points (or `dim = 0`) give no labels and no centroids; a
/// trailing partial point is ignored; non-finite coordinates count as 0; `k = 0` counts as 1;
/// when the points have fewer than `k` distinct values, `k` becomes that number (so no cluster is
/// empty); should the crate report an error, all points form one cluster. O(runs · iterations ·
/// n · k · dim) time.
pub fn kmeans(points: &[f64], dim: usize, k: usize, seed: u64) -> Clusters {
    let n = points.len().checked_div(dim).unwrap_or(0);
    if n == 0 {
        return Clusters {
            labels: Vec::new(),
            centroids: Vec::new(),
        };
    }
    let data: Vec<f64> = points[..n * dim]
        .iter()
        .map(|&x| if x.is_finite() { x } else { 0.0 })
        .collect();
    let k = k.max(1).min(distinct(&data, dim, k.max(1)));
    let raw = if k <= 1 {
        None
    } else {
        fit(&data, n, dim, k, seed)
    };
    let (labels, centroids) = raw.unwrap_or_else(|| (vec![0; n], vec![mean(&data, dim)]));
    order_by_norm(labels, centroids)
}

/// The number of distinct points, counted up to `cap` (enough to know whether k-means can make
/// `cap` non-empty clusters). O(n · cap · dim).
fn distinct(data: &[f64], dim: usize, cap: usize) -> usize {
    let mut seen: Vec<&[f64]> = Vec::with_capacity(cap);
    for p in data.chunks_exact(dim) {
        if !seen.contains(&p) {
            seen.push(p);
            if seen.len() >= cap {
                break;
            }
        }
    }
    seen.len()
}

fn mean(data: &[f64], dim: usize) -> Vec<f64> {
    let n = (data.len() / dim).max(1) as f64;
    let mut m = vec![0.0; dim];
    for p in data.chunks_exact(dim) {
        for (a, x) in m.iter_mut().zip(p) {
            *a += x;
        }
    }
    m.iter_mut().for_each(|a| *a /= n);
    m
}

type Raw = (Vec<usize>, Vec<Vec<f64>>);

/// linfa's k-means; `None` on any error it reports.
fn fit(data: &[f64], n: usize, dim: usize, k: usize, seed: u64) -> Option<Raw> {
    let records = Array2::from_shape_vec((n, dim), data.to_vec()).ok()?;
    let dataset = DatasetBase::from(records.clone());
    let model = KMeans::params_with_rng(k, Xoshiro256Plus::seed_from_u64(seed))
        .n_runs(RUNS)
        .fit(&dataset)
        .ok()?;
    let labels: Vec<usize> = model.predict(&records).to_vec();
    let kk = model.centroids().nrows();
    if labels.len() != n || labels.iter().any(|&l| l >= kk) {
        return None;
    }
    // The centroids as the exact means of their members (the crate's are approximate).
    let mut centroids = vec![vec![0.0; dim]; kk];
    let mut count = vec![0usize; kk];
    for (p, &l) in data.chunks_exact(dim).zip(&labels) {
        count[l] += 1;
        for (a, x) in centroids[l].iter_mut().zip(p) {
            *a += x;
        }
    }
    for (c, &m) in centroids.iter_mut().zip(&count) {
        c.iter_mut().for_each(|a| *a /= m.max(1) as f64);
    }
    Some((labels, centroids))
}

/// Renumbers clusters by centroid distance from the origin (nearest = 0), dropping clusters no
/// point belongs to.
fn order_by_norm(labels: Vec<usize>, centroids: Vec<Vec<f64>>) -> Clusters {
    let mut used = vec![false; centroids.len()];
    for &l in &labels {
        used[l] = true;
    }
    let norm = |c: &[f64]| c.iter().map(|x| x * x).sum::<f64>();
    let mut order: Vec<usize> = (0..centroids.len()).filter(|&c| used[c]).collect();
    order.sort_by(|&a, &b| {
        norm(&centroids[a])
            .total_cmp(&norm(&centroids[b]))
            .then_with(|| {
                centroids[a]
                    .iter()
                    .zip(&centroids[b])
                    .map(|(x, y)| x.total_cmp(y))
                    .find(|o| o.is_ne())
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
    });
    let mut rank = vec![0; centroids.len()];
    for (r, &c) in order.iter().enumerate() {
        rank[c] = r;
    }
    Clusters {
        labels: labels.into_iter().map(|l| rank[l]).collect(),
        centroids: order.iter().map(|&c| centroids[c].clone()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_obvious_groups_by_hand() {
        // Points 0, 1, 2 near the origin and 100, 101, 102 far away (1-D): the two centroids are
        // the group means 1 and 101, the near group is cluster 0.
        let c = kmeans(&[100.0, 0.0, 101.0, 1.0, 2.0, 102.0], 1, 2, 7);
        assert_eq!(c.labels, vec![1, 0, 1, 0, 0, 1]);
        assert_eq!(c.centroids, vec![vec![1.0], vec![101.0]]);
        assert_eq!(c.norm2(1), 101.0 * 101.0);
    }

    #[test]
    fn two_dimensions_and_determinism() {
        // Three groups in 2-D around (0,0), (10,0) and (0,10): the far two tie in distance from
        // the origin and are ordered by their coordinates ((0,10) before (10,0)).
        let pts = [
            0.0, 0.0, 0.0, 1.0, 10.0, 0.0, 11.0, 0.0, 0.0, 10.0, 0.0, 11.0, 1.0, 0.0, 10.0, 1.0,
            1.0, 10.0,
        ];
        let a = kmeans(&pts, 2, 3, 1);
        assert_eq!(a.labels, vec![0, 0, 2, 2, 1, 1, 0, 2, 1]);
        assert_eq!(a, kmeans(&pts, 2, 3, 1), "same seed, same clusters");
        // Centroid of group 0: mean of (0,0), (0,1), (1,0) = (1/3, 1/3).
        assert!((a.centroids[0][0] - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn degenerate_inputs() {
        assert!(kmeans(&[], 1, 3, 0).labels.is_empty());
        assert!(kmeans(&[1.0, 2.0], 0, 3, 0).labels.is_empty());
        // Fewer distinct points than k: k shrinks, no empty cluster.
        let c = kmeans(&[5.0, 5.0, 5.0], 1, 3, 0);
        assert_eq!((c.labels, c.centroids), (vec![0, 0, 0], vec![vec![5.0]]));
        let c = kmeans(&[1.0, 9.0, 1.0], 1, 5, 0);
        assert_eq!(c.labels, vec![0, 1, 0]);
        // Non-finite values count as 0; k = 0 counts as 1.
        let c = kmeans(&[f64::NAN, f64::INFINITY, 4.0], 1, 0, 0);
        assert_eq!(c.centroids, vec![vec![4.0 / 3.0]]);
        // A trailing partial point is ignored.
        assert_eq!(kmeans(&[1.0, 2.0, 3.0], 2, 2, 0).labels.len(), 1);
    }
}
