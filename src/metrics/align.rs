//! Exact longest-common-subsequence alignment of two token sequences in linear memory, and the
//! compaction of an alignment into as few contiguous runs as possible.
//!
//! [`align`] is Hirschberg's divide and conquer (Hirschberg 1975) whose row computations are
//! bit-parallel (Allison and Dix 1986; Hyyrö 2004): the longer sequence is split in half, one
//! bit-parallel pass from each end gives the LCS lengths of the halves against every prefix /
//! suffix of the other sequence, the best split point is taken and both halves recurse. Time
//! O(m·n/64) per level, about 4·m·n/64 word operations in all; memory O(m + n). Small problems
//! are solved with a plain dynamic-programming table ([`lcs_pairs`]).
//!
//! Used by the gold importer (`gold::import`) to locate a plain-text gold standard's words in a page.

/// Below this many DP cells a subproblem is solved with a full table.
const SMALL: usize = 1 << 14;

/// Per-call scratch indexed by token id.
struct Scratch {
    /// Row of a symbol in the match table, `u32::MAX` when none.
    row_of: Vec<u32>,
    /// Generation stamps: `seen[c] == gen` when `c` occurs in the current text.
    seen: Vec<u32>,
    gen: u32,
}

/// An exact LCS of `a` and `b` (tokens `< alphabet`) as matched index pairs `(i, j)`,
/// `a[i] == b[j]`, strictly increasing in both. O(m·n/64) time, O(m + n + alphabet) memory.
///
/// # Panics
/// If a token is not below `alphabet` (ids from [`crate::metrics::intern`] are below the number
/// of distinct tokens).
pub fn align(a: &[u32], b: &[u32], alphabet: usize) -> Vec<(usize, usize)> {
    let mut s = Scratch {
        row_of: vec![u32::MAX; alphabet],
        seen: vec![0; alphabet],
        gen: 0,
    };
    let mut out = Vec::new();
    rec(a, 0, b, 0, &mut out, &mut s);
    out
}

fn rec(a: &[u32], a0: usize, b: &[u32], b0: usize, out: &mut Vec<(usize, usize)>, s: &mut Scratch) {
    let (pre, suf) = super::common_ends(a, b);
    out.extend((0..pre).map(|k| (a0 + k, b0 + k)));
    let (a, b) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
    let (a0, b0) = (a0 + pre, b0 + pre);
    let (m, n) = (a.len(), b.len());
    if m > 0 && n > 0 {
        if m == 1 || n == 1 {
            single(a, a0, b, b0, out);
        } else if m * n <= SMALL {
            dp(a, a0, b, b0, out);
        } else if m >= n {
            let mid = m / 2;
            let f = prefix_lcs(b, &a[..mid], s);
            let rb: Vec<u32> = b.iter().rev().copied().collect();
            let ra: Vec<u32> = a[mid..].iter().rev().copied().collect();
            let g = prefix_lcs(&rb, &ra, s);
            let j = best_split(&f, &g);
            rec(&a[..mid], a0, &b[..j], b0, out, s);
            rec(&a[mid..], a0 + mid, &b[j..], b0 + j, out, s);
        } else {
            let mid = n / 2;
            let f = prefix_lcs(a, &b[..mid], s);
            let ra: Vec<u32> = a.iter().rev().copied().collect();
            let rb: Vec<u32> = b[mid..].iter().rev().copied().collect();
            let g = prefix_lcs(&ra, &rb, s);
            let i = best_split(&f, &g);
            rec(&a[..i], a0, &b[..mid], b0, out, s);
            rec(&a[i..], a0 + i, &b[mid..], b0 + mid, out, s);
        }
    }
    let (ea, eb) = (a0 + m, b0 + n);
    out.extend((0..suf).map(|k| (ea + k, eb + k)));
}

/// `f[j]` = LCS(·, p[..j]) and `g[k]` = LCS(·, p[len-k..]): the first `j` maximising
/// `f[j] + g[len - j]`.
fn best_split(f: &[u32], g: &[u32]) -> usize {
    let len = f.len() - 1;
    let mut best = 0;
    let mut best_v = 0;
    for j in 0..=len {
        let v = f[j] + g[len - j];
        if v > best_v || j == 0 {
            best_v = v;
            best = j;
        }
    }
    best
}

/// `out[i]` = LCS(p[..i], t) for `i` in `0..=p.len()`, bit-parallel over `p` (Hyyrö's
/// `V ← (V + (V & M[c])) | (V & ¬M[c])`; the zeros of `V` below bit `i` count LCS(p[..i], t)).
/// O(⌈|p|/64⌉·|t|) time.
fn prefix_lcs(p: &[u32], t: &[u32], s: &mut Scratch) -> Vec<u32> {
    let w = p.len().div_ceil(64);
    s.gen = s.gen.wrapping_add(1);
    if s.gen == 0 {
        s.seen.fill(0);
        s.gen = 1;
    }
    for &c in t {
        s.seen[c as usize] = s.gen;
    }
    let mut syms: Vec<u32> = Vec::new();
    let mut masks: Vec<u64> = Vec::new();
    for (i, &c) in p.iter().enumerate() {
        if s.seen[c as usize] != s.gen {
            continue;
        }
        let mut r = s.row_of[c as usize];
        if r == u32::MAX {
            r = syms.len() as u32;
            s.row_of[c as usize] = r;
            syms.push(c);
            masks.resize(masks.len() + w, 0);
        }
        masks[r as usize * w + i / 64] |= 1u64 << (i % 64);
    }
    let mut v = vec![!0u64; w];
    for &c in t {
        let r = s.row_of[c as usize];
        if r == u32::MAX {
            continue;
        }
        let m = &masks[r as usize * w..(r as usize + 1) * w];
        let mut carry = false;
        for (vk, &mk) in v.iter_mut().zip(m) {
            let u = *vk & mk;
            let (s1, c1) = vk.overflowing_add(u);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            carry = c1 || c2;
            *vk = s2 | (*vk & !mk);
        }
    }
    for &c in &syms {
        s.row_of[c as usize] = u32::MAX;
    }
    let mut out = Vec::with_capacity(p.len() + 1);
    out.push(0u32);
    let mut acc = 0u32;
    for i in 0..p.len() {
        if (v[i / 64] >> (i % 64)) & 1 == 0 {
            acc += 1;
        }
        out.push(acc);
    }
    out
}

/// One side of length 1: its first match on the other side.
fn single(a: &[u32], a0: usize, b: &[u32], b0: usize, out: &mut Vec<(usize, usize)>) {
    if a.len() == 1 {
        if let Some(j) = b.iter().position(|&y| y == a[0]) {
            out.push((a0, b0 + j));
        }
    } else if let Some(i) = a.iter().position(|&x| x == b[0]) {
        out.push((a0 + i, b0));
    }
}

/// Full-table LCS with traceback, for small problems.
fn dp(a: &[u32], a0: usize, b: &[u32], b0: usize, out: &mut Vec<(usize, usize)>) {
    out.extend(lcs_pairs(a, b).into_iter().map(|(i, j)| (a0 + i, b0 + j)));
}

/// An LCS of `a` and `b` as matched index pairs `(i, j)` (`a[i] == b[j]`, strictly increasing
/// in both), by the full O(m·n) table and a traceback from the end that steps up (drops an `a`
/// symbol) on ties; so where a symbol can be matched at several places, the traceback takes the
/// last. O(m·n) time and memory (4 bytes per cell): for small problems only (the subproblems of
/// [`align`], a headline against a few lines).
pub fn lcs_pairs(a: &[u32], b: &[u32]) -> Vec<(usize, usize)> {
    let (m, n) = (a.len(), b.len());
    let w = n + 1;
    let mut t = vec![0u32; (m + 1) * w];
    for i in 1..=m {
        for j in 1..=n {
            t[i * w + j] = if a[i - 1] == b[j - 1] {
                t[(i - 1) * w + j - 1] + 1
            } else {
                t[(i - 1) * w + j].max(t[i * w + j - 1])
            };
        }
    }
    let mut pairs = Vec::with_capacity(t[m * w + n] as usize);
    let (mut i, mut j) = (m, n);
    while i > 0 && j > 0 {
        if a[i - 1] == b[j - 1] {
            pairs.push((i - 1, j - 1));
            i -= 1;
            j -= 1;
        } else if t[(i - 1) * w + j] >= t[i * w + j - 1] {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    pairs.reverse();
    pairs
}

/// Above this many candidate positions in all, [`compact`] leaves the alignment as it is.
pub const COMPACT_LIMIT: usize = 4_000_000;

/// Moves the `b` side of an alignment to equal tokens elsewhere (same `a` indices, same count,
/// still strictly increasing) so that the matched positions of `b` form as few runs of
/// consecutive positions as possible, and among those the shortest overall span. Exact dynamic
/// programming over the candidate positions of each match (the occurrences of its token in `b`
/// between its leftmost and rightmost feasible places): O(candidates) time and 12 bytes of
/// memory per candidate; skipped (alignment returned unchanged) above [`COMPACT_LIMIT`]
/// candidates (48 MB).
///
/// # Panics
/// If a token of `b` is not below `alphabet`, or `pairs` is not an alignment of some sequence
/// with `b` (indices in range, strictly increasing).
pub fn compact(pairs: &[(usize, usize)], b: &[u32], alphabet: usize) -> Vec<(usize, usize)> {
    let k = pairs.len();
    if k < 2 {
        return pairs.to_vec();
    }
    // Occurrence lists of every token of b.
    let mut start = vec![0usize; alphabet + 1];
    for &c in b {
        start[c as usize + 1] += 1;
    }
    for i in 0..alphabet {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut occ = vec![0u32; b.len()];
    for (j, &c) in b.iter().enumerate() {
        occ[fill[c as usize]] = j as u32;
        fill[c as usize] += 1;
    }
    let occ_of = |c: u32| &occ[start[c as usize]..start[c as usize + 1]];
    // Leftmost and rightmost feasible positions (greedy), as index windows into occurrences.
    let sym: Vec<u32> = pairs.iter().map(|&(_, j)| b[j]).collect();
    let mut lo = vec![0usize; k];
    let mut prev: i64 = -1;
    for t in 0..k {
        let o = occ_of(sym[t]);
        lo[t] = o.partition_point(|&x| (x as i64) <= prev);
        prev = o[lo[t]] as i64;
    }
    let mut hi = vec![0usize; k];
    let mut next: i64 = b.len() as i64;
    for t in (0..k).rev() {
        let o = occ_of(sym[t]);
        hi[t] = o.partition_point(|&x| (x as i64) < next);
        next = o[hi[t] - 1] as i64;
    }
    let total: usize = (0..k).map(|t| hi[t] - lo[t]).sum();
    if total > COMPACT_LIMIT {
        return pairs.to_vec();
    }
    // Layer t: candidates occ_of(sym[t])[lo[t]..hi[t]] at offsets base[t].. in the flat arrays.
    // Cost (breaks, span so far); parent = flat index of the previous layer's choice.
    let mut base = Vec::with_capacity(k + 1);
    base.push(0usize);
    for t in 0..k {
        base.push(base[t] + hi[t] - lo[t]);
    }
    // Costs packed as breaks · 2^40 + span (span and positions stay far below 2^39), so that
    // integer order is the lexicographic order of (breaks, span).
    const BREAK: i64 = 1 << 40;
    let mut cost: Vec<i64> = vec![0; total];
    let mut parent: Vec<u32> = vec![u32::MAX; total];
    for t in 1..k {
        let prev_c = &occ_of(sym[t - 1])[lo[t - 1]..hi[t - 1]];
        let cur_c = &occ_of(sym[t])[lo[t]..hi[t]];
        let (pb, cb) = (base[t - 1], base[t]);
        // Sweep: best (breaks, span - pos) over previous candidates strictly before q.
        let mut pi = 0usize;
        let mut best: Option<(i64, usize)> = None;
        for (qi, &q) in cur_c.iter().enumerate() {
            while pi < prev_c.len() && prev_c[pi] < q {
                let key = cost[pb + pi] - i64::from(prev_c[pi]);
                if best.is_none_or(|(b, _)| key < b) {
                    best = Some((key, pb + pi));
                }
                pi += 1;
            }
            let Some((key, from)) = best else {
                // Not reachable (cannot happen inside the feasible windows).
                cost[cb + qi] = i64::MAX / 2;
                continue;
            };
            let mut choice = (key + BREAK + i64::from(q), from);
            // Adjacent continuation: previous candidate at q - 1, no break.
            if pi > 0 && prev_c[pi - 1] + 1 == q {
                let adj = cost[pb + pi - 1] + 1;
                if adj <= choice.0 {
                    choice = (adj, pb + pi - 1);
                }
            }
            cost[cb + qi] = choice.0;
            parent[cb + qi] = choice.1 as u32;
        }
    }
    // Best end, then trace back.
    let last = base[k - 1]..base[k];
    let mut at = last
        .clone()
        .min_by_key(|&x| cost[x])
        .expect("the last layer has a candidate");
    let mut out = vec![(0usize, 0usize); k];
    for t in (0..k).rev() {
        let pos = occ_of(sym[t])[lo[t] + (at - base[t])] as usize;
        out[t] = (pairs[t].0, pos);
        if t > 0 {
            at = parent[at] as usize;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::reference::lcs_len_dp as lcs_dp;

    fn valid(a: &[u32], b: &[u32], pairs: &[(usize, usize)]) {
        for w in pairs.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1);
        }
        for &(i, j) in pairs {
            assert_eq!(a[i], b[j]);
        }
    }

    fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn alignment_is_an_exact_lcs() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        for round in 0..300 {
            let alpha = [2u64, 4, 20, 200][round % 4];
            let m = (rng(&mut seed) % 400) as usize;
            let n = (rng(&mut seed) % 700) as usize;
            let a: Vec<u32> = (0..m).map(|_| (rng(&mut seed) % alpha) as u32).collect();
            let mut b: Vec<u32> = (0..n).map(|_| (rng(&mut seed) % alpha) as u32).collect();
            if round % 3 == 0 {
                // Embed a in b, as a gold text inside a page.
                let at = b.len() / 3;
                b.splice(at..at, a.iter().copied());
            }
            let pairs = align(&a, &b, alpha as usize);
            valid(&a, &b, &pairs);
            assert_eq!(pairs.len(), lcs_dp(&a, &b), "round {round}");
            let c = compact(&pairs, &b, alpha as usize);
            valid(&a, &b, &c);
            assert_eq!(c.len(), pairs.len());
            let runs = |p: &[(usize, usize)]| p.windows(2).filter(|w| w[1].1 != w[0].1 + 1).count();
            assert!(runs(&c) <= runs(&pairs));
        }
    }

    #[test]
    fn table_traceback_is_an_exact_lcs_taking_the_last_match() {
        let mut seed = 0x0bad_5eed_u64;
        for round in 0..300 {
            let alpha = [2u64, 3, 10, 50][round % 4];
            let m = (rng(&mut seed) % 40) as usize;
            let n = (rng(&mut seed) % 60) as usize;
            let a: Vec<u32> = (0..m).map(|_| (rng(&mut seed) % alpha) as u32).collect();
            let b: Vec<u32> = (0..n).map(|_| (rng(&mut seed) % alpha) as u32).collect();
            let pairs = lcs_pairs(&a, &b);
            valid(&a, &b, &pairs);
            assert_eq!(pairs.len(), lcs_dp(&a, &b), "round {round}");
        }
        // One symbol against repeats: the traceback from the end takes the last occurrence.
        assert_eq!(lcs_pairs(&[7], &[7, 1, 7, 2]), [(0, 2)]);
        assert_eq!(lcs_pairs(&[7, 7], &[7]), [(1, 0)]);
        assert!(lcs_pairs(&[1], &[2]).is_empty());
    }

    #[test]
    fn compaction_pulls_stray_matches_into_the_article() {
        // page: "the menu of the site ... the cat of the town", gold: "the cat of the town"
        let b = [1, 9, 3, 1, 8, 7, 1, 2, 3, 1, 4];
        let a = [1, 2, 3, 1, 4];
        let pairs = align(&a, &b, 10);
        assert_eq!(pairs.len(), 5);
        let c = compact(&pairs, &b, 10);
        assert_eq!(c.iter().map(|p| p.1).collect::<Vec<_>>(), [6, 7, 8, 9, 10]);
    }
}
