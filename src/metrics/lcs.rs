//! The longest-common-subsequence length (bit-parallel) and the longest-common-substring length
//! (suffix automaton) of two symbol sequences, with their O(n·m) dynamic-programming test
//! oracles; the measures of [`super`] and the alignment of [`super::align`] build on them.

use rustc_hash::FxHashMap;

/// Length of the longest common subsequence of two symbol sequences (tokens from
/// [`intern`](super::intern), or chars as `u32`), bit-parallel.
///
/// Algorithm: common prefix and suffix are stripped; then the shorter sequence (length `m`) becomes a
/// bit vector of ⌈m/64⌉ words and the longer one (length `n`) is scanned with Hyyrö's update
/// `V ← (V + (V & M[c])) | (V & ¬M[c])` (Allison and Dix 1986; Hyyrö 2004, "Bit-parallel LCS-length
/// computation revisited"), with the carry propagated across words; the LCS length is the number of
/// zero bits of `V`. Symbols of the longer sequence that do not occur in the shorter one are
/// skipped (their mask is zero and leaves `V` unchanged). The match masks `M[c]` of frequent symbols
/// are stored densely (one tight add-with-carry loop over all words); those of rare symbols sparsely
/// (only their non-zero 64-bit words), and a carry skips the all-ones words it would pass through
/// unchanged with the help of a summary bitset.
///
/// Complexity: O(⌈m/64⌉·n) time in the worst case (much less for large alphabets, where each symbol
/// touches only the words it occurs in), O(m log m) set-up, O(m) memory (at most 32 bytes per
/// position). 20 000 × 20 000 random tokens take about 2 ms (large alphabets) to 12 ms (alphabets
/// of 2–100 symbols) in a release build on a 2-core machine.
pub fn lcs_len(a: &[u32], b: &[u32]) -> usize {
    let (prefix, suffix) = common_ends(a, b);
    let (a, b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let (pattern, text) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if pattern.is_empty() {
        return prefix + suffix;
    }
    prefix + suffix + bit_parallel_lcs(pattern, text)
}

/// Match masks `M[c]` of a pattern, one row per symbol that occurs in it. A row is stored densely
/// (all ⌈m/64⌉ words, the fast loop) when at least a quarter of its words are non-zero, else
/// sparsely (only the non-zero words, with their indices), so the table never takes more than
/// 32 bytes per pattern position.
struct MatchTable {
    rows: FxHashMap<u32, Row>,
    /// Sparse rows: word indices and masks, in increasing word order within a row.
    word_idx: Vec<usize>,
    masks: Vec<u64>,
    /// Dense rows, `nwords` words each.
    dense: Vec<u64>,
}

#[derive(Clone, Copy)]
enum Row {
    /// Range into `word_idx` / `masks`.
    Sparse(usize, usize),
    /// Offset into `dense`.
    Dense(usize),
}

impl MatchTable {
    fn new(pattern: &[u32]) -> MatchTable {
        let nwords = pattern.len().div_ceil(64);
        let mut occ: Vec<(u32, usize)> = pattern.iter().copied().zip(0..).collect();
        occ.sort_unstable();
        let mut table = MatchTable {
            rows: FxHashMap::default(),
            word_idx: Vec::new(),
            masks: Vec::new(),
            dense: Vec::new(),
        };
        let mut i = 0;
        while i < occ.len() {
            let sym = occ[i].0;
            let start = table.word_idx.len();
            while i < occ.len() && occ[i].0 == sym {
                let (w, bit) = (occ[i].1 / 64, occ[i].1 % 64);
                if table.word_idx.len() > start && table.word_idx[table.word_idx.len() - 1] == w {
                    *table.masks.last_mut().expect("non-empty") |= 1 << bit;
                } else {
                    table.word_idx.push(w);
                    table.masks.push(1 << bit);
                }
                i += 1;
            }
            let end = table.word_idx.len();
            let row = if 4 * (end - start) >= nwords {
                let offset = table.dense.len();
                table.dense.resize(offset + nwords, 0);
                for e in start..end {
                    table.dense[offset + table.word_idx[e]] = table.masks[e];
                }
                table.word_idx.truncate(start);
                table.masks.truncate(start);
                Row::Dense(offset)
            } else {
                Row::Sparse(start, end)
            };
            table.rows.insert(sym, row);
        }
        table
    }
}

/// The bit vector `V` of Hyyrö's algorithm plus a summary bitset `nz` (bit `w` set iff word `w` of
/// `V` is not all ones), so that a carry can skip all-ones words, which it leaves unchanged.
struct BitState {
    v: Vec<u64>,
    nz: Vec<u64>,
}

impl BitState {
    #[inline]
    fn set(&mut self, w: usize, value: u64) {
        self.v[w] = value;
        let bit = 1u64 << (w % 64);
        if value == !0 {
            self.nz[w / 64] &= !bit;
        } else {
            self.nz[w / 64] |= bit;
        }
    }

    /// One step of Hyyrö's update with a dense match row (`row.len() == v.len()`); rebuilds `nz`.
    #[inline]
    fn step_dense(&mut self, row: &[u64]) {
        let mut carry = 0u64;
        for (nz, (vs, ms)) in self
            .nz
            .iter_mut()
            .zip(self.v.chunks_mut(64).zip(row.chunks(64)))
        {
            let mut bits = 0u64;
            for (k, (v, &mask)) in vs.iter_mut().zip(ms).enumerate() {
                let old = *v;
                // Add with carry in and out (compiles to `add` + `adc`).
                let sum = u128::from(old) + u128::from(old & mask) + u128::from(carry);
                carry = (sum >> 64) as u64;
                let new = (sum as u64) | (old & !mask);
                *v = new;
                bits |= u64::from(new != !0) << k;
            }
            *nz = bits;
        }
    }

    /// One step of Hyyrö's update with a sparse match row (non-zero words `word_idx`, increasing,
    /// with their `masks`): only those words and the words a carry reaches are touched.
    #[inline]
    fn step_sparse(&mut self, word_idx: &[usize], masks: &[u64]) {
        let mut carry = false;
        let mut next = 0; // first word not yet updated in this step
        for (&w, &mask) in word_idx.iter().zip(masks) {
            if carry {
                carry = self.propagate(next, w);
            }
            let old = self.v[w];
            let (s1, c1) = old.overflowing_add(old & mask);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            carry = c1 | c2;
            self.set(w, s2 | (old & !mask));
            next = w + 1;
        }
        if carry {
            self.propagate(next, self.v.len()); // the carry out of the top word is dropped
        }
    }

    /// First word index in `[from, end)` whose `V` word is not all ones.
    #[inline]
    fn next_not_full(&self, from: usize, end: usize) -> Option<usize> {
        if from >= end {
            return None;
        }
        let mut i = from / 64;
        let mut word = self.nz[i] & (!0u64 << (from % 64));
        loop {
            if word != 0 {
                let w = i * 64 + word.trailing_zeros() as usize;
                return (w < end).then_some(w);
            }
            i += 1;
            if i * 64 >= end {
                return None;
            }
            word = self.nz[i];
        }
    }

    /// Adds an incoming carry at word `from` where the match mask is zero for all words in
    /// `[from, end)` (there `V ← (V + carry) | V`). Returns the carry out of word `end - 1`.
    #[inline]
    fn propagate(&mut self, from: usize, end: usize) -> bool {
        match self.next_not_full(from, end) {
            // All-ones words: `!0 + 1` overflows to 0 and `| !0` restores them; the carry passes on.
            None => true,
            Some(w) => {
                let old = self.v[w];
                self.set(w, (old + 1) | old); // no overflow: `old != !0`
                false
            }
        }
    }
}

/// Lengths of the common prefix and of the common suffix of `a` and `b`, not overlapping (the
/// suffix is counted after the prefix is removed). Every LCS can be taken to match them. O(n).
pub(crate) fn common_ends(a: &[u32], b: &[u32]) -> (usize, usize) {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (prefix, suffix)
}

fn bit_parallel_lcs(pattern: &[u32], text: &[u32]) -> usize {
    let table = MatchTable::new(pattern);
    let nwords = pattern.len().div_ceil(64);
    let mut st = BitState {
        v: vec![!0u64; nwords],
        nz: vec![0u64; nwords.div_ceil(64)],
    };
    for c in text {
        // A symbol absent from the pattern has an all-zero mask: `V` stays as it is.
        match table.rows.get(c) {
            None => {}
            Some(&Row::Dense(offset)) => st.step_dense(&table.dense[offset..offset + nwords]),
            Some(&Row::Sparse(start, end)) => {
                st.step_sparse(&table.word_idx[start..end], &table.masks[start..end]);
            }
        }
    }
    // Bits above `pattern.len()` in the last word never see a match and stay 1.
    st.v.iter().map(|w| w.count_zeros() as usize).sum()
}

// ---------------------------------------------------------------------------------------------------
// Longest common substring
// ---------------------------------------------------------------------------------------------------

/// Length of the longest common contiguous substring of two symbol sequences (chars as `u32`, or
/// token ids), with a suffix automaton.
///
/// The suffix automaton (Blumer et al. 1985) of the shorter sequence is built online; the longer one
/// is then run through it, following suffix links on a mismatch, and the longest matched run is the
/// answer. Transitions live in one hash map keyed by (state, symbol), so large alphabets (CJK) cost
/// no more than small ones.
///
/// Complexity: O(n + m) expected time, O(m) memory (at most `2m` states and `3m` transitions), `m`
/// the shorter length.
pub fn lcstring_len(a: &[u32], b: &[u32]) -> usize {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if short.is_empty() {
        return 0;
    }
    let sam = SuffixAutomaton::new(short);
    let (mut state, mut len, mut best) = (0u32, 0usize, 0usize);
    for &c in long {
        loop {
            if let Some(next) = sam.next(state, c) {
                state = next;
                len += 1;
                break;
            }
            if state == 0 {
                len = 0;
                break;
            }
            state = sam.link[state as usize];
            len = sam.len[state as usize] as usize;
        }
        best = best.max(len);
    }
    best
}

/// Suffix automaton with transitions in a global hash map and, per state, a linked list of its
/// outgoing symbols (needed to copy transitions when a state is cloned).
struct SuffixAutomaton {
    len: Vec<u32>,
    link: Vec<u32>,
    /// First entry of each state's outgoing-symbol list in `edge_sym` / `edge_next` (`NONE` = empty).
    head: Vec<u32>,
    edge_sym: Vec<u32>,
    edge_next: Vec<u32>,
    trans: FxHashMap<u64, u32>,
}

const NONE: u32 = u32::MAX;

impl SuffixAutomaton {
    fn new(s: &[u32]) -> SuffixAutomaton {
        let cap = 2 * s.len() + 1;
        assert!(
            cap < NONE as usize,
            "sequence too long for the suffix automaton"
        );
        let mut sam = SuffixAutomaton {
            len: Vec::with_capacity(cap),
            link: Vec::with_capacity(cap),
            head: Vec::with_capacity(cap),
            edge_sym: Vec::with_capacity(3 * s.len()),
            edge_next: Vec::with_capacity(3 * s.len()),
            trans: FxHashMap::with_capacity_and_hasher(3 * s.len(), Default::default()),
        };
        sam.add_state(0, NONE);
        let mut last = 0u32;
        for &c in s {
            let cur = sam.add_state(sam.len[last as usize] + 1, 0);
            let mut p = last;
            while p != NONE && sam.next(p, c).is_none() {
                sam.add_edge(p, c, cur);
                p = sam.link[p as usize];
            }
            if p != NONE {
                let q = sam.next(p, c).expect("checked above");
                if sam.len[p as usize] + 1 == sam.len[q as usize] {
                    sam.link[cur as usize] = q;
                } else {
                    let clone = sam.add_state(sam.len[p as usize] + 1, sam.link[q as usize]);
                    let mut e = sam.head[q as usize];
                    while e != NONE {
                        let sym = sam.edge_sym[e as usize];
                        let target = sam.next(q, sym).expect("listed edge exists");
                        sam.add_edge(clone, sym, target);
                        e = sam.edge_next[e as usize];
                    }
                    while p != NONE && sam.next(p, c) == Some(q) {
                        sam.trans.insert(key(p, c), clone);
                        p = sam.link[p as usize];
                    }
                    sam.link[q as usize] = clone;
                    sam.link[cur as usize] = clone;
                }
            }
            last = cur;
        }
        sam
    }

    fn add_state(&mut self, len: u32, link: u32) -> u32 {
        let id = self.len.len() as u32;
        self.len.push(len);
        self.link.push(link);
        self.head.push(NONE);
        id
    }

    fn add_edge(&mut self, from: u32, sym: u32, to: u32) {
        self.trans.insert(key(from, sym), to);
        let e = self.edge_sym.len() as u32;
        self.edge_sym.push(sym);
        self.edge_next.push(self.head[from as usize]);
        self.head[from as usize] = e;
    }

    #[inline]
    fn next(&self, state: u32, sym: u32) -> Option<u32> {
        self.trans.get(&key(state, sym)).copied()
    }
}

#[inline]
fn key(state: u32, sym: u32) -> u64 {
    (u64::from(state) << 32) | u64::from(sym)
}

/// The O(n·m) dynamic-programming references the fast measures are tested against (also used by
/// the tests of [`align`](super::align)).
#[cfg(test)]
pub(crate) mod reference {
    /// Length of the longest common subsequence by the textbook dynamic programme, two rows.
    ///
    /// Slow reference implementation (test oracle for [`lcs_len`]): O(n·m) time, O(min(n, m)) memory.
    pub(crate) fn lcs_len_dp(a: &[u32], b: &[u32]) -> usize {
        let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
        let mut prev = vec![0usize; short.len() + 1];
        let mut cur = vec![0usize; short.len() + 1];
        for &x in long {
            for (j, &y) in short.iter().enumerate() {
                cur[j + 1] = if x == y {
                    prev[j] + 1
                } else {
                    prev[j + 1].max(cur[j])
                };
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        prev[short.len()]
    }

    /// Length of the longest common contiguous substring by dynamic programming.
    ///
    /// Slow reference implementation (test oracle for [`lcstring_len`]): O(n·m) time, O(min(n, m))
    /// memory (one row of "common suffix ending here" lengths).
    pub(crate) fn lcstring_len_dp(a: &[u32], b: &[u32]) -> usize {
        let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
        let mut row = vec![0usize; short.len() + 1];
        let mut best = 0;
        for &x in long {
            // Right to left so that `row[j]` still holds the previous row's value.
            for j in (0..short.len()).rev() {
                row[j + 1] = if short[j] == x { row[j] + 1 } else { 0 };
                best = best.max(row[j + 1]);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::reference::{lcs_len_dp, lcstring_len_dp};
    use super::*;
    use proptest::prelude::*;

    fn chars(s: &str) -> Vec<u32> {
        s.chars().map(u32::from).collect()
    }

    /// Deterministic pseudo-random sequence (SplitMix64) over `0..alphabet`.
    fn random_seq(seed: u64, len: usize, alphabet: u32) -> Vec<u32> {
        let mut x = seed;
        (0..len)
            .map(|_| {
                x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = x;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                ((z ^ (z >> 31)) % u64::from(alphabet)) as u32
            })
            .collect()
    }

    /// `a` with every `k`-th element replaced and every `k+1`-th dropped: similar but not equal.
    fn mutate(a: &[u32], k: usize, alphabet: u32) -> Vec<u32> {
        a.iter()
            .enumerate()
            .filter(|(i, _)| i % (k + 1) != k)
            .map(|(i, &x)| if i % k == 0 { (x + 1) % alphabet } else { x })
            .collect()
    }

    // --- LCS / LCString engines -------------------------------------------------------------------

    #[test]
    fn lcs_small_cases() {
        assert_eq!(lcs_len(&[], &[]), 0);
        assert_eq!(lcs_len(&[1, 2, 3], &[]), 0);
        assert_eq!(lcs_len(&[1, 2, 3], &[1, 2, 3]), 3);
        assert_eq!(lcs_len(&[1, 2, 3], &[3, 2, 1]), 1);
        assert_eq!(lcs_len(&[1, 2, 3, 4, 1], &[3, 4, 1, 2, 1, 3]), 3);
        assert_eq!(lcs_len(&chars("ABCBDAB"), &chars("BDCABA")), 4);
        assert_eq!(lcs_len_dp(&chars("ABCBDAB"), &chars("BDCABA")), 4);
        assert_eq!(lcstring_len(&chars("xabcdy"), &chars("zabcdw")), 4);
        assert_eq!(lcstring_len(&chars("aaaa"), &chars("aa")), 2);
        assert_eq!(lcstring_len(&[], &[1]), 0);
        assert_eq!(lcstring_len_dp(&[], &[]), 0);
    }

    /// Exercises carries across many words: the pattern's only matches sit at word boundaries.
    #[test]
    fn lcs_word_boundaries() {
        for m in [1, 63, 64, 65, 127, 128, 129, 200, 640] {
            let a: Vec<u32> = (0..m as u32).map(|i| i % 3).collect();
            for n in [1, 64, 65, 129, 300] {
                let b = random_seq((m * 1000 + n) as u64, n, 3);
                assert_eq!(lcs_len(&a, &b), lcs_len_dp(&a, &b), "m={m} n={n}");
                let ones = vec![7u32; n];
                let mut a1 = vec![1u32; m];
                a1[m - 1] = 7;
                assert_eq!(lcs_len(&a1, &ones), 1);
                assert_eq!(lcs_len(&vec![7u32; m], &ones), m.min(n));
            }
        }
    }

    /// A carry that crosses an all-ones word must land on the next match word, not on a later
    /// word that happens to hold a zero.
    #[test]
    fn lcs_carry_skips_full_words() {
        // The bit vector is built on the shorter side, so the text gets a long tail of symbols
        // that do not occur in the pattern.
        // 16 words, so the rows of 1 and 2 are stored sparsely.
        let mut a = vec![9u32; 1024];
        (a[63], a[128], a[200]) = (1, 1, 2);
        let text = |head: &[u32]| -> Vec<u32> { head.iter().copied().chain([50; 1100]).collect() };
        assert_eq!(lcs_len(&a, &text(&[2, 1])), 1);
        assert_eq!(lcs_len_dp(&a, &text(&[2, 1])), 1);
        assert_eq!(lcs_len(&a, &text(&[1, 2, 1])), 2);
        assert_eq!(lcs_len(&text(&[1, 2, 1]), &a), 2);
    }

    #[test]
    fn large_deterministic_check_3000() {
        // Patterns mostly of symbols absent from the text leave many all-ones words.
        let a = random_seq(7, 3000, 300);
        let b = random_seq(8, 3000, 3);
        assert_eq!(lcs_len(&a, &b), lcs_len_dp(&a, &b));
        assert_eq!(lcs_len(&b, &a), lcs_len_dp(&a, &b));
        for (seed, alphabet) in [(1, 4), (2, 50), (3, 5000)] {
            let a = random_seq(seed, 3000, alphabet);
            let b = random_seq(seed + 100, 2900, alphabet);
            assert_eq!(lcs_len(&a, &b), lcs_len_dp(&a, &b), "alphabet {alphabet}");
            assert_eq!(lcstring_len(&a, &b), lcstring_len_dp(&a, &b));
            // Near-identical sequences: long LCS, long carry chains, long common substrings.
            let c = mutate(&a, 37, alphabet);
            assert_eq!(lcs_len(&a, &c), lcs_len_dp(&a, &c), "alphabet {alphabet}");
            assert_eq!(lcstring_len(&a, &c), lcstring_len_dp(&a, &c));
        }
    }

    fn seq(alphabet: u32) -> impl Strategy<Value = Vec<u32>> {
        prop::collection::vec(0..alphabet, 0..300)
    }

    proptest! {
        #[test]
        fn lcs_matches_dp_small_alphabet(a in seq(3), b in seq(3)) {
            prop_assert_eq!(lcs_len(&a, &b), lcs_len_dp(&a, &b));
        }

        #[test]
        fn lcs_matches_dp_large_alphabet(a in seq(200), b in seq(200)) {
            prop_assert_eq!(lcs_len(&a, &b), lcs_len_dp(&a, &b));
        }

        #[test]
        fn lcs_matches_dp_sparse_matches(
            runs in prop::collection::vec((0u32..6, 0usize..150), 0..8),
            b in seq(6),
        ) {
            // A few matching symbols separated by long runs of a symbol absent from `b`, and the
            // bit vector on `a`: many all-ones words for carries to cross.
            let a: Vec<u32> = runs
                .iter()
                .flat_map(|&(sym, run)| std::iter::once(sym).chain(std::iter::repeat_n(9, run)))
                .collect();
            let tail = a.len().saturating_sub(b.len());
            let b: Vec<u32> = b.into_iter().chain(std::iter::repeat_n(1000, tail)).collect();
            prop_assert_eq!(lcs_len(&a, &b), lcs_len_dp(&a, &b));
        }

        #[test]
        fn lcs_matches_dp_any_u32(a in prop::collection::vec(any::<u32>(), 0..150),
                                  extra in seq(4)) {
            // Shared elements so that the LCS is not trivially 0.
            let b: Vec<u32> = a.iter().copied().step_by(2).chain(extra).collect();
            prop_assert_eq!(lcs_len(&a, &b), lcs_len_dp(&a, &b));
        }

        #[test]
        fn lcs_matches_dp_similar(a in seq(8), k in 2usize..40) {
            let b = mutate(&a, k, 8);
            prop_assert_eq!(lcs_len(&a, &b), lcs_len_dp(&a, &b));
            prop_assert_eq!(lcs_len(&b, &a), lcs_len_dp(&a, &b));
        }

        #[test]
        fn lcstring_matches_dp(a in seq(3), b in seq(3)) {
            prop_assert_eq!(lcstring_len(&a, &b), lcstring_len_dp(&a, &b));
        }

        #[test]
        fn lcstring_matches_dp_large_alphabet(a in seq(40), k in 2usize..40) {
            let b = mutate(&a, k, 40);
            prop_assert_eq!(lcstring_len(&a, &b), lcstring_len_dp(&a, &b));
        }

        #[test]
        fn lcstring_matches_dp_strings(a in "[ab ]{0,120}", b in "[abc]{0,120}") {
            let (x, y) = (chars(&a), chars(&b));
            prop_assert_eq!(lcstring_len(&x, &y), lcstring_len_dp(&x, &y));
        }

    }
}
