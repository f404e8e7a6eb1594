//! One-dimensional signal tools shared by the algorithms that smooth a per-character, per-token
//! or per-line signal with a Gaussian: Content Code Blurring (Gottron 2008; Mohammadzadeh 2013,
//! Algorithm 7, "weight vector w of length 2δ + 1") and CETR's smoothing of the tag-ratio
//! histogram (Weninger et al. 2010; Mohammadzadeh 2013, Algorithm 9). One implementation of the
//! kernel and of the convolution, so both read the same way.

/// Gaussian weights `w[j] ∝ exp(−j² / (2σ²))` for `j = −radius ..= radius`, normalised to sum 1.
/// Length `2·radius + 1` (index `radius` is `j = 0`). A non-positive or non-finite `sigma` gives
/// the identity kernel `[1]` padded with zeros.
pub fn gaussian_kernel(radius: usize, sigma: f64) -> Vec<f64> {
    let mut w = vec![0.0; 2 * radius + 1];
    if !(sigma.is_finite() && sigma > 0.0) {
        w[radius] = 1.0;
        return w;
    }
    for (i, x) in w.iter_mut().enumerate() {
        let j = i as f64 - radius as f64;
        *x = (-(j * j) / (2.0 * sigma * sigma)).exp();
    }
    let sum: f64 = w.iter().sum();
    w.iter_mut().for_each(|x| *x /= sum);
    w
}

/// What a convolution does where the kernel reaches past either end of the signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    /// Weights that fall outside are dropped and the rest renormalised to sum 1 (a constant
    /// signal stays constant up to the ends).
    Renormalize,
    /// The signal is 0 outside.
    Zero,
    /// The signal repeats its first / last value outside.
    Clamp,
}

/// Convolves `x` with the odd-length kernel `w` (centre at `w.len() / 2`), handling the ends by
/// `edge`. Output length = `x.len()`. O(`x.len()` · `w.len()`) time; an empty `x` gives an empty
/// vector; an even-length `w` is treated as if its last weight were its centre's right
/// neighbour (centre `w.len() / 2`).
pub fn convolve(x: &[f64], w: &[f64], edge: Edge) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len());
    convolve_into(x, w, edge, &mut out);
    out
}

/// [`convolve`] into a reused buffer (cleared first), for iterated blurring without
/// reallocation.
pub fn convolve_into(x: &[f64], w: &[f64], edge: Edge, out: &mut Vec<f64>) {
    out.clear();
    let n = x.len();
    if n == 0 {
        return;
    }
    if w.is_empty() {
        out.extend_from_slice(x);
        return;
    }
    let c = w.len() / 2;
    for i in 0..n {
        // Kernel index k covers signal index i + k − c.
        let lo = c.saturating_sub(i);
        let hi = (n - i + c).min(w.len());
        let mut acc = 0.0;
        for k in lo..hi {
            acc += x[i + k - c] * w[k];
        }
        match edge {
            Edge::Zero => {}
            Edge::Renormalize => {
                if lo > 0 || hi < w.len() {
                    let inside: f64 = w[lo..hi].iter().sum();
                    if inside > 0.0 {
                        acc /= inside;
                    }
                }
            }
            Edge::Clamp => {
                let before: f64 = w[..lo].iter().sum();
                let after: f64 = w[hi..].iter().sum();
                acc += before * x[0] + after * x[n - 1];
            }
        }
        out.push(acc);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn kernel_is_symmetric_normalised_and_peaked() {
        let w = gaussian_kernel(2, 1.0);
        assert_eq!(w.len(), 5);
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((w[0] - w[4]).abs() < 1e-15 && (w[1] - w[3]).abs() < 1e-15);
        // exp(-1/2) / exp(0) between neighbours of the centre.
        assert!((w[1] / w[2] - (-0.5f64).exp()).abs() < 1e-12);
        assert_eq!(gaussian_kernel(1, 0.0), vec![0.0, 1.0, 0.0]);
    }

    #[test]
    fn convolution_by_hand() {
        let w = [0.25, 0.5, 0.25];
        let x = [0.0, 1.0, 0.0, 0.0];
        // Inside: 0.25·x[i−1] + 0.5·x[i] + 0.25·x[i+1].
        assert!(close(
            &convolve(&x, &w, Edge::Zero),
            &[0.25, 0.5, 0.25, 0.0]
        ));
        // Ends renormalised by the weights inside: i = 0 → (0.5·0 + 0.25·1) / 0.75.
        assert!(close(
            &convolve(&x, &w, Edge::Renormalize),
            &[1.0 / 3.0, 0.5, 0.25, 0.0]
        ));
        // Clamp repeats the end values: i = 3 → 0.25·0 + 0.5·0 + 0.25·x[3].
        let y = [1.0, 0.0, 0.0, 2.0];
        assert!(close(
            &convolve(&y, &w, Edge::Clamp),
            &[0.75, 0.25, 0.5, 1.5]
        ));
        // A constant stays constant under Renormalize and Clamp.
        let k = [3.0; 6];
        assert!(close(
            &convolve(&k, &gaussian_kernel(4, 2.0), Edge::Renormalize),
            &k
        ));
        assert!(close(
            &convolve(&k, &gaussian_kernel(4, 2.0), Edge::Clamp),
            &k
        ));
        assert!(convolve(&[], &w, Edge::Zero).is_empty());
        // A kernel longer than the signal.
        assert_eq!(
            convolve(&[2.0], &gaussian_kernel(5, 1.0), Edge::Renormalize),
            vec![2.0]
        );
    }
}
