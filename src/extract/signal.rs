//! One-dimensional signal tools shared by the algorithms that smooth a per-character, per-token
//! or per-line signal with a Gaussian: Content Code Blurring (Gottron 2008; Mohammadzadeh 2013,
//! Algorithm 7, "weight vector w of length 2δ + 1") and CETR's smoothing of the tag-ratio
//! histogram (Weninger et al. 2010; Mohammadzadeh 2013, Algorithm 9). One implementation of the
//! kernel and of the convolution, so both read the same way. The convolutions are generic over
//! the float type ([`Float`]: f64 for the callers' signals, f32 inside [`blur_until`]).
//!
//! Also the one maximum-sum search ([`max_subsequence`], Mohammadzadeh 2013, Algorithm 8 and
//! Formula 3.5): BTE's optimum of Formula 3.3 over ±1 token scores and MSS's maximum-scoring
//! token subsequence over Naive Bayes scores `p − θ` are both this search.

pub use num_traits::Float;
use num_traits::Zero;

/// The maximum-scoring contiguous subsequence of `s` (Mohammadzadeh 2013, Formula 3.5,
/// `(a, b) = argmax_{(x, y)} Σ_{i=x..=y} s_i`), found in one pass as Algorithm 8 finds it
/// ("Finding the Maximum Subsequence in a Linear Time", after Pasternack & Roth 2009 and
/// Ruzzo & Tompa 1999): a running `sum` from `start`, the best so far replaced **only when
/// `sum` is strictly greater** than its value (the best starts at −∞, so the first element is
/// always taken), and `sum` reset to 0 with `start` moved past `i` **when it falls below 0**
/// (a sum of exactly 0 keeps its start).
///
/// Returns `(i, j, sum)`: the subsequence is `s[i..=j]` (0-based, inclusive) and `sum` its
/// total; `None` for an empty input. Ties: of several subsequences with the maximal sum, the one
/// that ends first wins, and of those the one that starts first (a zero-sum prefix is kept, since
/// only a negative sum resets) — the first maximum of Algorithm 5's scan order "smallest start,
/// then smallest end" as well (BTE's property test checks it against that O(N²) scan). An
/// all-negative input gives its first largest element alone (Algorithm 8 always returns a
/// non-empty subsequence). Generic over the score type: `i64` for BTE, `f64` for MSS; a NaN
/// score never panics but makes the result unspecified.
///
/// BTE (Formula 3.3) maps onto it with `s_n = +1` for a word token and `−1` for a tag token:
/// `T(i, j) = tags(B) + Σ_{n=i..=j} s_n`, so the range maximising `T` is this subsequence
/// ([`crate::algorithms::bte::optimum`]). O(N) time, O(1) memory.
pub fn max_subsequence<T>(s: impl IntoIterator<Item = T>) -> Option<(usize, usize, T)>
where
    T: Copy + PartialOrd + Zero,
{
    let mut best: Option<(usize, usize, T)> = None;
    let (mut start, mut sum) = (0usize, T::zero());
    for (i, x) in s.into_iter().enumerate() {
        sum = sum + x;
        if best.is_none_or(|(_, _, b)| sum > b) {
            best = Some((start, i, sum));
        }
        if sum < T::zero() {
            start = i + 1;
            sum = T::zero();
        }
    }
    best
}

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
pub fn convolve_into<T: Float>(x: &[T], w: &[T], edge: Edge, out: &mut Vec<T>) {
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
        let mut acc = T::zero();
        for k in lo..hi {
            acc = acc + x[i + k - c] * w[k];
        }
        match edge {
            Edge::Zero => {}
            Edge::Renormalize => {
                if lo > 0 || hi < w.len() {
                    let inside = w[lo..hi].iter().fold(T::zero(), |a, &b| a + b);
                    if inside > T::zero() {
                        acc = acc / inside;
                    }
                }
            }
            Edge::Clamp => {
                let before = w[..lo].iter().fold(T::zero(), |a, &b| a + b);
                let after = w[hi..].iter().fold(T::zero(), |a, &b| a + b);
                acc = acc + before * x[0] + after * x[n - 1];
            }
        }
        out.push(acc);
    }
}

/// [`convolve_into`] computed faster, with the same result up to rounding: the interior
/// (every index whose window lies inside the signal) is computed a block of outputs at a time
/// in registers, a loop the compiler vectorises, and a symmetric kernel (every Gaussian) is
/// folded (`w[c]·x[i] + Σ_j w[c+j]·(x[i−j] + x[i+j])`, half the multiplications; a difference
/// of at most a few ulps per element, tested against [`convolve`]); a non-symmetric kernel is
/// summed in [`convolve_into`]'s order, bit for bit. The `w.len() / 2` indices at each end,
/// where `edge` matters, are computed by [`convolve_into`] itself on the end slices. Same
/// contract and O(`x.len()` · `w.len()`) operations, several times faster for kernels of tens
/// of taps (Content Code Blurring's `2r + 1 = 81`). `out` is cleared first.
pub fn convolve_fast_into<T: Float>(x: &[T], w: &[T], edge: Edge, out: &mut Vec<T>) {
    let n = x.len();
    let c = w.len() / 2;
    // Short signals, even kernels and empty kernels: the plain loop.
    if w.len().is_multiple_of(2) || n < 2 * (2 * c + 1) {
        convolve_into(x, w, edge, out);
        return;
    }
    out.clear();
    out.resize(n, T::zero());
    let mut end = Vec::with_capacity(2 * c + 1);
    // Index i < c only reads x[..i + c + 1] ⊂ x[..2c + 1], and is clipped there only at 0.
    convolve_into(&x[..2 * c + 1], w, edge, &mut end);
    out[..c].copy_from_slice(&end[..c]);
    // Index i ≥ n − c only reads x[i − c..] ⊂ x[n − 2c − 1..].
    convolve_into(&x[n - 2 * c - 1..], w, edge, &mut end);
    out[n - c..].copy_from_slice(&end[c + 1..]);
    // Interior, LANES outputs at a time held in registers (the compiler vectorises the
    // fixed-size inner loops). A symmetric kernel (every Gaussian) is folded,
    // out[i] = w[c]·x[i] + Σ_{j=1..c} w[c+j]·(x[i−j] + x[i+j]): half the multiplications, the
    // same result up to rounding (≤ 1e−15 per element for weights summing to 1); any other
    // kernel is summed k ascending from 0 as in `convolve_into`, the same bits.
    const LANES: usize = 16;
    let symmetric = (1..=c).all(|j| w[c - j] == w[c + j]);
    let mut i = c;
    while i + LANES <= n - c {
        let mut acc = [T::zero(); LANES];
        if symmetric {
            for (a, &xv) in acc.iter_mut().zip(&x[i..i + LANES]) {
                *a = xv * w[c];
            }
            for j in 1..=c {
                let wj = w[c + j];
                let lo = &x[i - j..i - j + LANES];
                let hi = &x[i + j..i + j + LANES];
                for ((a, &l), &h) in acc.iter_mut().zip(lo).zip(hi) {
                    *a = *a + (l + h) * wj;
                }
            }
        } else {
            for (k, &wk) in w.iter().enumerate() {
                let xs = &x[i + k - c..i + k - c + LANES];
                for (a, &xv) in acc.iter_mut().zip(xs) {
                    *a = *a + xv * wk;
                }
            }
        }
        out[i..i + LANES].copy_from_slice(&acc);
        i += LANES;
    }
    for (j, o) in out.iter_mut().enumerate().take(n - c).skip(i) {
        let mut acc = T::zero();
        for (k, &wk) in w.iter().enumerate() {
            acc = acc + x[j + k - c] * wk;
        }
        *o = acc;
    }
}

/// What [`blur_until`] did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Blurred {
    /// Blurring passes applied (at least 1 for a non-empty signal, at most the cap).
    pub iterations: usize,
    /// The largest absolute change of one element in the last pass (0 for an empty signal).
    pub last_change: f64,
}

/// Iterated blurring: repeats `x ← convolve(x, w, edge)` until the largest change of one
/// element in a pass is below `eps` (that pass is kept), or after `max_iter` passes
/// (Gottron 2008; Mohammadzadeh 2013, Algorithm 7, "repeat … until stop criterion SC is met":
/// at least one pass; `max_iter` 0 counts as 1). Each pass is [`convolve_fast_into`], so the
/// result equals the same number of [`convolve`] passes up to rounding. O(passes · `x.len()` ·
/// `w.len()`) time, one extra buffer of `x.len()`.
pub fn blur_until(x: &mut Vec<f64>, w: &[f64], edge: Edge, eps: f64, max_iter: usize) -> Blurred {
    let mut done = Blurred {
        iterations: 0,
        last_change: 0.0,
    };
    if x.is_empty() {
        return done;
    }
    // The passes run in f32: twice the values per vector register, and a blurred ratio in
    // [0, 1] loses nothing a threshold or a stop criterion ε ≥ 1e−4 could see (f32 keeps ~7
    // digits; tested against f64 passes).
    let w32: Vec<f32> = w.iter().map(|&v| v as f32).collect();
    let mut cur: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let mut next: Vec<f32> = Vec::with_capacity(x.len());
    loop {
        convolve_fast_into(&cur, &w32, edge, &mut next);
        let change = cur
            .iter()
            .zip(&next)
            .fold(0.0f32, |m, (a, b)| m.max((a - b).abs())) as f64;
        std::mem::swap(&mut cur, &mut next);
        done.iterations += 1;
        done.last_change = change;
        if change < eps || done.iterations >= max_iter.max(1) {
            x.clear();
            x.extend(cur.iter().map(|&v| v as f64));
            return done;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The thesis' example (Mohammadzadeh 2013, 3.3.1.4): (4, −5, 3, −5, 1, 2, −2, 2, −2, 1, 5)
    /// → (1, 2, −2, 2, −2, 1, 5), indexes 4..=10, sum 7. By hand: the running sum is 4, −1
    /// (reset), 3, −2 (reset), 1, 3, 1, 3, 1, 2, 7; the best is replaced at 4 (4), at 10 (7).
    #[test]
    fn algorithm_8_on_the_thesis_example() {
        let s = [4i64, -5, 3, -5, 1, 2, -2, 2, -2, 1, 5];
        assert_eq!(max_subsequence(s), Some((4, 10, 7)));
        let (i, j, _) = max_subsequence(s).unwrap();
        assert_eq!(&s[i..=j], &[1, 2, -2, 2, -2, 1, 5]);
        // The same in f64 (MSS's scores).
        let f: Vec<f64> = s.iter().map(|&x| x as f64 / 10.0).collect();
        let (i, j, sum) = max_subsequence(f.iter().copied()).unwrap();
        assert_eq!((i, j), (4, 10));
        assert!((sum - 0.7).abs() < 1e-12);
    }

    #[test]
    fn algorithm_8_edge_cases() {
        // Empty: nothing.
        assert_eq!(max_subsequence(Vec::<i64>::new()), None);
        // All negative: the first largest element alone (the best starts at −∞).
        assert_eq!(max_subsequence([-3i64, -1, -2, -1]), Some((1, 1, -1)));
        assert_eq!(max_subsequence([-0.5f64]), Some((0, 0, -0.5)));
        // Strictly greater: a later equal sum does not replace the first (3 at 0..=0, then
        // 3 again at 2..=2 after a reset).
        assert_eq!(max_subsequence([3i64, -4, 3]), Some((0, 0, 3)));
        // A zero-sum prefix keeps its start (no reset at 0): 1, −1, 2 → 0..=2, sum 2.
        assert_eq!(max_subsequence([1i64, -1, 2]), Some((0, 2, 2)));
        // Zeros: the first 0 wins, nothing longer is strictly greater.
        assert_eq!(max_subsequence([0i64, 0, 0]), Some((0, 0, 0)));
    }

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

    #[test]
    fn fast_convolution_equals_the_plain_loop() {
        // A deterministic pseudo-random 0/1 signal (a content code vector) and sums of it.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in [0usize, 1, 2, 5, 9, 10, 11, 40, 163, 5000] {
            let x: Vec<f64> = (0..n).map(|_| (next() % 2) as f64).collect();
            for radius in [0usize, 1, 2, 4, 40] {
                let w = gaussian_kernel(radius, radius as f64 / 2.0);
                for edge in [Edge::Renormalize, Edge::Zero, Edge::Clamp] {
                    let mut fast = Vec::new();
                    convolve_fast_into(&x, &w, edge, &mut fast);
                    assert!(
                        close(&fast, &convolve(&x, &w, edge)),
                        "n {n} r {radius} {edge:?}"
                    );
                    // A non-symmetric kernel: the same bits as the plain loop.
                    let skew: Vec<f64> = w
                        .iter()
                        .enumerate()
                        .map(|(k, v)| v * (k + 1) as f64)
                        .collect();
                    convolve_fast_into(&x, &skew, edge, &mut fast);
                    assert_eq!(fast, convolve(&x, &skew, edge), "n {n} r {radius} {edge:?}");
                }
            }
        }
        // Iterated: 30 passes of the fast and of the plain convolution stay together.
        let x0: Vec<f64> = (0..3000).map(|_| (next() % 2) as f64).collect();
        let w = gaussian_kernel(40, 20.0);
        let (mut a, mut b) = (x0.clone(), x0);
        let mut tmp = Vec::new();
        for _ in 0..30 {
            convolve_fast_into(&a, &w, Edge::Renormalize, &mut tmp);
            std::mem::swap(&mut a, &mut tmp);
            b = convolve(&b, &w, Edge::Renormalize);
        }
        assert!(a.iter().zip(&b).all(|(p, q)| (p - q).abs() < 1e-12));
        // An even kernel falls back to the plain loop.
        let x = [1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0];
        let mut fast = Vec::new();
        convolve_fast_into(&x, &[0.5, 0.5], Edge::Zero, &mut fast);
        assert_eq!(fast, convolve(&x, &[0.5, 0.5], Edge::Zero));
    }

    #[test]
    fn blur_until_stops_at_the_criterion_or_the_cap() {
        let w = [0.25, 0.5, 0.25];
        // [0, 1, 0] under Renormalize: pass 1 gives [1/3, 1/2, 1/3] (changes 1/3, 1/2, 1/3),
        // pass 2 gives [(0.5·1/3 + 0.25·1/2) / 0.75, 0.25/3 + 0.25 + 0.25/3, …] =
        // [7/18, 5/12, 7/18] (largest change 1/2 − 5/12 = 1/12).
        let mut x = vec![0.0, 1.0, 0.0];
        let b = blur_until(&mut x, &w, Edge::Renormalize, 0.1, 50);
        assert_eq!(b.iterations, 2);
        // The passes run in f32: equal to the fractions up to f32 rounding.
        let near = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6);
        assert!((b.last_change - 1.0 / 12.0).abs() < 1e-6);
        assert!(near(&x, &[7.0 / 18.0, 5.0 / 12.0, 7.0 / 18.0]));
        // The cap wins over an unreachable criterion; 0 means one pass (repeat … until).
        let mut x = vec![0.0, 1.0, 0.0];
        assert_eq!(
            blur_until(&mut x, &w, Edge::Renormalize, 0.0, 3).iterations,
            3
        );
        let mut x = vec![0.0, 1.0, 0.0];
        assert_eq!(
            blur_until(&mut x, &w, Edge::Renormalize, 0.0, 0).iterations,
            1
        );
        assert!(near(&x, &[1.0 / 3.0, 0.5, 1.0 / 3.0]));
        // A constant signal changes by 0 < eps after one pass.
        let mut x = vec![1.0; 7];
        assert_eq!(
            blur_until(&mut x, &w, Edge::Renormalize, 1e-9, 9).iterations,
            1
        );
        let mut e: Vec<f64> = Vec::new();
        assert_eq!(blur_until(&mut e, &w, Edge::Zero, 0.1, 9).iterations, 0);
    }

    /// blur_until's f32 passes against the same passes in f64 on a long 0/1 signal and the
    /// published ACCB kernel (r 40, σ r/3): within 1e-5 after 25 passes.
    #[test]
    fn f32_passes_match_f64_passes() {
        let w = gaussian_kernel(40, 40.0 / 3.0);
        let x: Vec<f64> = (0..5000)
            .map(|i| ((i * 7919) % 13 < 6 || (i / 300) % 2 == 0) as u8 as f64)
            .collect();
        let mut ref64 = x.clone();
        let mut buf = Vec::new();
        for _ in 0..25 {
            convolve_fast_into(&ref64, &w, Edge::Renormalize, &mut buf);
            std::mem::swap(&mut ref64, &mut buf);
        }
        let mut y = x;
        let b = blur_until(&mut y, &w, Edge::Renormalize, 0.0, 25);
        assert_eq!(b.iterations, 25);
        let worst = y
            .iter()
            .zip(&ref64)
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        assert!(worst < 1e-5, "largest difference {worst}");
    }
}
