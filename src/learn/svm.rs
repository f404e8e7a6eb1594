//! `svm` — the shallow-text block classifier as a linear SVM (Kohlschütter, Fankhauser and
//! Nejdl 2010, who report decision trees and linear SVMs alike; Mohammadzadeh 2013, 3.3.2.1),
//! over the same features as [`crate::learn::shallow`] ([`block_rows`]).
//!
//! **Scaling.** The features are counts with long tails (words, positions) next to ratios in
//! `[0, 1]`: each is mapped through `ln(1 + x)` (all are ≥ 0; a ratio barely changes) and then
//! standardised with the training sample's mean and standard deviation (a constant feature
//! keeps scale 1). The model file keeps the means and scales, so a page is scaled as the
//! training data were.
//!
//! **Fitting.** linfa-svm's SMO solver, C-SVC with C = 1 and a linear kernel, libsvm's
//! stopping tolerance 10⁻³ (no shrinking: linfa-svm 0.8.1's overflows on this data). Its kernel
//! matrix is dense (n² entries), so the SVM is fitted on a seeded sample of at most
//! [`MAX_SVM_ROWS`] blocks (72 MB of kernel at 3 000); the hyperplane is read back as one weight
//! per feature (the decision value of a unit vector) and a bias.
//!
//! **Probability.** Platt scaling (Platt 1999): `p = 1 / (1 + exp(A·d + B))` for the decision
//! value `d = w·x + b`, with `A`, `B` fitted by linfa's Newton method on the sample's decision
//! values; the default threshold 0.5 is then close to the SVM's own boundary `d = 0`.
//!
//! **Explanation** of a block: its probability and the largest `weight × feature` terms of its
//! decision value (feature scaled), signed.

use linfa::composing::platt_scaling::platt_newton_method;
use linfa::prelude::*;
use linfa::Platt;
use ndarray::{Array1, Array2};
use serde::{Deserialize, Serialize};

use super::classifier::BlockScorer;
use super::shallow::{check_classes, fmt, sample_rows, BlockFit, OnShallowFeatures, N_FEATURES};
use super::MethodInfo;
use crate::error::{Error, Result};

/// The most blocks the SVM is fitted on (a seeded sample beyond).
pub const MAX_SVM_ROWS: usize = 3_000;

/// The fitted linear SVM: the model file's body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SvmBody {
    /// Per feature, the mean of `ln(1 + x)` over the training sample.
    pub mean: Vec<f64>,
    /// Per feature, the standard deviation of `ln(1 + x)` (1 for a constant feature).
    pub scale: Vec<f64>,
    /// Per feature, the hyperplane's weight on the scaled feature.
    pub weights: Vec<f64>,
    /// The hyperplane's bias: decision value `d = weights · z + bias`.
    pub bias: f64,
    /// Platt's `A`.
    pub platt_a: f64,
    /// Platt's `B`: `p = 1 / (1 + exp(A·d + B))`.
    pub platt_b: f64,
}

/// `ln(1 + x)` of a non-negative feature (negative values, which the features never have,
/// count as 0).
fn squash(x: f64) -> f64 {
    x.max(0.0).ln_1p()
}

impl SvmBody {
    /// The scaled row.
    fn scaled(&self, row: &[f64]) -> Vec<f64> {
        row.iter()
            .zip(self.mean.iter().zip(&self.scale))
            .map(|(&x, (&m, &s))| (squash(x) - m) / s)
            .collect()
    }

    /// The decision value of a row.
    pub fn decision(&self, row: &[f64]) -> f64 {
        self.scaled(row)
            .iter()
            .zip(&self.weights)
            .map(|(z, w)| z * w)
            .sum::<f64>()
            + self.bias
    }

    /// Checks lengths and finiteness (a loaded file before use).
    pub fn check(&self, n: usize) -> std::result::Result<(), String> {
        if self.mean.len() != n || self.scale.len() != n || self.weights.len() != n {
            return Err(format!("the SVM body needs {n} means, scales and weights"));
        }
        let all = self
            .mean
            .iter()
            .chain(&self.scale)
            .chain(&self.weights)
            .chain([&self.bias, &self.platt_a, &self.platt_b]);
        if all.clone().any(|v| !v.is_finite()) || self.scale.iter().any(|&s| s <= 0.0) {
            return Err("the SVM body has a value that is not finite or a scale ≤ 0".into());
        }
        Ok(())
    }
}

impl BlockScorer for SvmBody {
    fn probability(&self, row: &[f64]) -> f64 {
        let f = self.platt_a * self.decision(row) + self.platt_b;
        // The stable form of 1 / (1 + e^f).
        if f >= 0.0 {
            (-f).exp() / (1.0 + (-f).exp())
        } else {
            1.0 / (1.0 + f.exp())
        }
    }

    /// The decision value and its largest terms: `decision value 1.42 = bias -0.3 + terms;
    /// largest: +0.96 curr_num_words (57), -0.41 curr_link_density (0.6), …`.
    fn explain(&self, row: &[f64], names: &[String]) -> Vec<String> {
        let z = self.scaled(row);
        let mut terms: Vec<(f64, usize)> = z
            .iter()
            .zip(&self.weights)
            .enumerate()
            .map(|(j, (z, w))| (z * w, j))
            .collect();
        terms.sort_by(|a, b| b.0.abs().total_cmp(&a.0.abs()).then(a.1.cmp(&b.1)));
        let top: Vec<String> = terms
            .iter()
            .take(5)
            .map(|&(t, j)| {
                format!(
                    "{}{} {}",
                    if t >= 0.0 { "+" } else { "" },
                    fmt(t),
                    super::reading::read(
                        names.get(j).map_or("?", String::as_str),
                        row.get(j).copied().unwrap_or(0.0)
                    )
                )
            })
            .collect();
        vec![
            format!(
                "decision value {} (bias {}); Platt: p = 1 / (1 + exp({} × d + {}))",
                fmt(self.decision(row)),
                fmt(self.bias),
                fmt(self.platt_a),
                fmt(self.platt_b)
            ),
            format!("largest weight × feature terms: {}", top.join(", ")),
        ]
    }
}

/// Fits the linear SVM (see the module documentation) on rows (row-major, [`N_FEATURES`]
/// each) and labels. Errors: [`Error::Train`].
pub fn fit_svm(rows: &[f64], labels: &[bool], seed: u64) -> Result<SvmBody> {
    check_classes(labels)?;
    let pick = sample_rows(labels.len(), MAX_SVM_ROWS, seed);
    let y: Array1<bool> = pick.iter().map(|&i| labels[i]).collect();
    if y.iter().all(|&l| l) || y.iter().all(|&l| !l) {
        return Err(Error::Train(
            "the SVM's sample of blocks holds one class only".into(),
        ));
    }
    let mut x = Array2::<f64>::zeros((pick.len(), N_FEATURES));
    for (r, &i) in pick.iter().enumerate() {
        for j in 0..N_FEATURES {
            x[[r, j]] = squash(rows[i * N_FEATURES + j]);
        }
    }
    let n = pick.len() as f64;
    let mut mean = vec![0.0; N_FEATURES];
    let mut scale = vec![1.0; N_FEATURES];
    for j in 0..N_FEATURES {
        let col = x.column(j);
        let m = col.iter().sum::<f64>() / n;
        let var = col.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / n;
        mean[j] = m;
        if var > 1e-12 {
            scale[j] = var.sqrt();
        }
    }
    for mut row in x.rows_mut() {
        for j in 0..N_FEATURES {
            row[j] = (row[j] - mean[j]) / scale[j];
        }
    }
    let (weights, bias) = solve(Dataset::new(x.clone(), y.clone()))?;
    let mut body = SvmBody {
        mean,
        scale,
        weights,
        bias,
        platt_a: -1.0,
        platt_b: 0.0,
    };
    let d: Array1<f64> = x
        .rows()
        .into_iter()
        .map(|r| body.weights.iter().zip(r).map(|(w, z)| w * z).sum::<f64>() + bias)
        .collect();
    let params = Platt::<f64, ()>::params()
        .check()
        .map_err(|e| Error::Train(format!("Platt scaling: {e}")))?;
    let (a, b) = platt_newton_method(d.view(), y.view(), &params)
        .map_err(|e| Error::Train(format!("Platt scaling: {e}")))?;
    body.platt_a = a;
    body.platt_b = b;
    body.check(N_FEATURES).map_err(Error::Train)?;
    Ok(body)
}

/// linfa-svm's linear SVM on the scaled sample `ds`: one weight per feature (the decision value
/// of a unit vector) and the bias. Errors: [`Error::Train`] (linfa's).
#[cfg(feature = "train")]
fn solve(ds: Dataset<f64, bool, ndarray::Ix1>) -> Result<(Vec<f64>, f64)> {
    use linfa_svm::Svm;
    let svm = Svm::<f64, bool>::params()
        .linear_kernel()
        .pos_neg_weights(1.0, 1.0)
        // libsvm's stopping tolerance: linfa's default (1e-7) runs SMO for minutes on a few
        // thousand overlapping blocks. No shrinking: linfa-svm 0.8.1's shrinking overflows an
        // index (solver_smo.rs:655) on such data.
        .eps(1e-3)
        .fit(&ds)
        .map_err(|e| Error::Train(format!("linear SVM: {e}")))?;
    let mut weights = vec![0.0; N_FEATURES];
    for (j, w) in weights.iter_mut().enumerate() {
        let mut e = Array1::<f64>::zeros(N_FEATURES);
        e[j] = 1.0;
        *w = svm.weighted_sum(&e);
    }
    Ok((weights, -svm.rho))
}

/// In a build without the learners (feature `train`): [`super::fitter_missing`].
#[cfg(not(feature = "train"))]
fn solve(_ds: Dataset<f64, bool, ndarray::Ix1>) -> Result<(Vec<f64>, f64)> {
    Err(super::fitter_missing(INFO.name, "linfa-svm"))
}

/// The linear SVM's fit ([`fit_svm`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct SvmFit;

/// The linear-SVM method (`--method svm`).
pub type LinearSvm = OnShallowFeatures<SvmFit>;

static INFO: MethodInfo = MethodInfo {
    name: "svm",
    description: "a linear SVM over the shallow text features of each block and its neighbours, Platt-scaled (Kohlschütter et al. 2010)",
    source: "Kohlschütter, Fankhauser and Nejdl 2010, sections 4-5; Mohammadzadeh 2013, 3.3.2.1; Platt 1999",
    fitter: Some("linfa-svm"),
};

impl BlockFit for SvmFit {
    type Body = SvmBody;

    fn info(&self) -> &'static MethodInfo {
        &INFO
    }

    fn fit(&self, rows: &[f64], labels: &[bool], seed: u64) -> Result<SvmBody> {
        fit_svm(rows, labels, seed)
    }

    fn check(&self, body: &SvmBody) -> std::result::Result<(), String> {
        body.check(N_FEATURES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_linear_svm_separates_by_link_density_and_names_its_terms() {
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for i in 0..300 {
            let mut r = vec![0.0; N_FEATURES];
            r[0] = (5 + i % 40) as f64;
            r[3] = (i % 10) as f64 / 10.0;
            labels.push(r[3] < 0.5);
            rows.extend(r);
        }
        let body = fit_svm(&rows, &labels, 3).unwrap();
        let mut r = vec![0.0; N_FEATURES];
        r[0] = 20.0;
        r[3] = 0.9;
        let low = body.probability(&r);
        r[3] = 0.0;
        let high = body.probability(&r);
        assert!(low < 0.2 && high > 0.8, "{low} {high}");
        assert!(body.weights[3] < 0.0, "link density weighs against content");
        let said = body
            .explain(&r, &super::super::shallow::feature_names())
            .join("; ");
        assert!(
            said.contains("0% of its words in links [curr_link_density 0]"),
            "{said}"
        );
        // Deterministic.
        assert_eq!(fit_svm(&rows, &labels, 3).unwrap(), body);
        let mut bad = body.clone();
        bad.scale[2] = 0.0;
        assert!(bad.check(N_FEATURES).is_err());
    }
}
