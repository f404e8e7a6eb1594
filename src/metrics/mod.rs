//! Evaluation metrics of the main-content-extraction (MCE) literature.
//!
//! * **Word-sequence LCS** (Gottron 2007; Gottron 2009, section 3; Mohammadzadeh 2013, Formula 4.1):
//!   both texts become token sequences ([`words`]), the overlap is the length of their longest common
//!   (not necessarily contiguous) subsequence, and precision / recall / F1 follow ([`word_prf`]). This is
//!   the measure behind the corpus figures of `REFERENCE.md` (mean of the per-page F1, [`mean`]).
//! * **Character LCSequence and LCString** (Arias Moreno, Deschacht and Moens 2009, sections 5.2 and
//!   5.3): white space is removed from both texts, the overlap is the longest common subsequence
//!   ([`lcsequence_prf`]) or the longest common substring ([`lcstring_prf`]) of the remaining
//!   characters.
//!
//! The longest-common-subsequence length is computed bit-parallel ([`lcs_len`], Allison and Dix 1986,
//! Hyyrö 2004) and the longest common substring with a suffix automaton ([`lcstring_len`]); both have
//! slow dynamic-programming oracles in the test module.
//!
//! Units: everything word-based counts **tokens**; everything character-based counts Unicode scalar
//! values (**chars**, not bytes).
//!
//! This module sits below both [`crate::eval`] (scoring extracts) and [`crate::gold`] (locating
//! plain-text gold standards in pages): it owns the one word tokeniser ([`words`], built on the
//! positions-aware [`word_spans`]) and the one LCS family — lengths bit-parallel ([`lcs_len`]),
//! matched pairs by Hirschberg's divide and conquer with bit-parallel rows and a full-table
//! traceback for small problems ([`align`]). The O(n·m) dynamic-programming references stay in the
//! test module.

pub mod align;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Precision / recall / F1 with the counts behind them.
///
/// The counts are tokens for [`word_prf`] and chars (white space removed) for [`lcsequence_prf`] and
/// [`lcstring_prf`]. `common` is the overlap (LCS or longest-common-substring length), `extract_len`
/// the size of the automatic extract, `gold_len` the size of the gold standard.
///
/// `precision = common / extract_len`, `recall = common / gold_len`,
/// `f1 = 2 · precision · recall / (precision + recall)` (Gottron 2009, section 3; Mohammadzadeh 2013,
/// Formula 4.1; Arias Moreno et al. 2009, section 5.2). Edge cases (`REFERENCE.md`): both sides empty
/// → all three values 1.0; exactly one side empty → all three 0.0; `f1` is 0.0 when
/// `precision + recall` is 0. No value is ever NaN.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Prf {
    /// `common / extract_len`, in `[0, 1]`.
    pub precision: f64,
    /// `common / gold_len`, in `[0, 1]`.
    pub recall: f64,
    /// Harmonic mean of precision and recall, in `[0, 1]`.
    pub f1: f64,
    /// Overlap size (tokens or chars): LCS or longest-common-substring length.
    pub common: usize,
    /// Size of the extract (tokens or chars).
    pub extract_len: usize,
    /// Size of the gold standard (tokens or chars).
    pub gold_len: usize,
}

impl Prf {
    /// Precision, recall and F1 from an overlap size and the two sequence sizes (any unit).
    ///
    /// Applies the edge-case rules of `REFERENCE.md`: `extract_len == gold_len == 0` → 1.0 everywhere,
    /// exactly one of them 0 → 0.0 everywhere. F1 is computed as `2·common / (extract_len + gold_len)`,
    /// which equals `2PR / (P + R)` whenever `P + R > 0` and is exact for ratios such as Gottron's
    /// `8/11`; it is 0.0 when `common` is 0.
    ///
    /// `common` must not exceed `min(extract_len, gold_len)` (checked in debug builds). O(1).
    pub fn from_counts(common: usize, extract_len: usize, gold_len: usize) -> Prf {
        debug_assert!(
            common <= extract_len.min(gold_len),
            "overlap larger than a side"
        );
        let (precision, recall, f1) = match (extract_len, gold_len) {
            (0, 0) => (1.0, 1.0, 1.0),
            (0, _) | (_, 0) => (0.0, 0.0, 0.0),
            (e, g) => {
                let c = common as f64;
                (c / e as f64, c / g as f64, 2.0 * c / (e as f64 + g as f64))
            }
        };
        Prf {
            precision,
            recall,
            f1,
            common,
            extract_len,
            gold_len,
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Tokeniser
// ---------------------------------------------------------------------------------------------------

/// Whether `c` counts as a word character for [`words`]: `c.is_alphanumeric() || c == '_'`.
///
/// This mimics Python's `re` `\w` in str mode (`str.isalnum()` or `_`). Known differences, all rare
/// in running text:
/// * Rust's `is_alphabetic` is the Unicode `Alphabetic` property, which also contains the combining
///   marks listed as `Other_Alphabetic` (e.g. Arabic harakat U+064B–U+0657, most Indic vowel signs
///   such as Devanagari U+093E–U+094C, Hebrew points) and a few symbols (circled letters Ⓐ–ⓩ).
///   Python's `isalpha` only takes letters (Lu, Ll, Lt, Lm, Lo), so Python splits `"مَدْرَسَة"` into
///   five one-letter tokens and `"हिन्दी"` into `ह न द`; here the vowelled Arabic word stays one
///   token (the harakat, sukun U+0652 included, are `Other_Alphabetic`) and `"हिन्दी"` gives
///   `हिन दी` (split only at the virama U+094D, which is not `Other_Alphabetic`).
/// * Other combining marks (Mn / Mc without `Other_Alphabetic`, e.g. U+0301, U+0307, U+094D) and
///   joiners (ZWJ U+200D, ZWNJ U+200C) are not word characters in either, so Persian `"می‌خواهم"`
///   (with ZWNJ) is two tokens in both.
/// * Digits and numbers (Nd, Nl, No, e.g. `²`, `Ⅻ`, `٣`) are word characters in both.
#[inline]
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Word tokens of `text` as in `REFERENCE.md`: maximal runs of [`is_word_char`] characters (`\w+`
/// as in Python's `re.findall(r"\w+", ...)`) over the case-folded text.
///
/// Case folding is [`str::to_lowercase`] (full Unicode lowercase mapping, with the final-sigma rule),
/// **not** Unicode full case folding (Python's `str.casefold`). The two differ only for a handful of
/// characters: `"Straße"` → `straße` but `"STRASSE"` → `strasse` (two different tokens here; both are
/// `strasse` under `casefold`), final `ς` stays `ς` (casefold: `σ`), ligatures such as `ﬁ` stay
/// (casefold: `fi`), `ſ` stays (casefold: `s`). Lowercasing can add characters: `"İ"` becomes `i` +
/// U+0307, and U+0307 is not a word character, so `"İstanbul"` → `["i", "stanbul"]`, as in Python.
///
/// Punctuation, white space and symbols separate tokens; `_` and digits belong to tokens
/// (`"snake_case x2"` → `["snake_case", "x2"]`). Scripts without spaces (CJK, Thai) give one token per
/// run of letters, e.g. `"中文信息处理"` is one token. Unit: tokens. O(len) time and memory.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    scan_words(text, |token, _| out.push(token.to_owned()));
    out
}

/// The tokens of [`words`] with the byte range of `text` each comes from: the same tokens in the
/// same order (`word_spans(t)` mapped to its first components equals `words(t)`), each range
/// running from the start of the original char whose lower-case form begins the token to the end
/// of the char whose lower-case form ends it (lower-casing can turn one char into several, e.g.
/// `"İ"` → `i` + U+0307, so a token may end inside the lower-case form of its last char; the range
/// still covers that whole char). Ranges are on char boundaries, non-empty, strictly increasing
/// and non-overlapping except that two tokens from one such char share it.
///
/// Unit: byte ranges over `text`. O(len) time and memory. Used by the gold importer to map
/// tokens back to page bytes.
pub fn word_spans(text: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    scan_words(text, |token, range| out.push((token.to_owned(), range)));
    out
}

/// The one tokeniser behind [`words`] and [`word_spans`]: lower-cases `text` as a whole (so the
/// final-sigma rule sees the context) and calls `emit(token, source byte range)` for every maximal
/// run of [`is_word_char`] chars of the lower-cased text. Each original char is mapped to as many
/// lower-case chars as [`char::to_lowercase`] gives (which is what [`str::to_lowercase`] yields
/// per char, final sigma included); should the two ever disagree, the remaining lower-case chars
/// are still tokenised, so the tokens always equal the runs of the lower-cased text.
fn scan_words(text: &str, mut emit: impl FnMut(&str, std::ops::Range<usize>)) {
    let lower = text.to_lowercase();
    let mut lc = lower.char_indices();
    // (start in `lower`, start in `text`) of the current run; end in `text` of its last char.
    let mut run: Option<(usize, usize)> = None;
    let mut run_end = 0;
    let mut step =
        |li: usize, lch: char, from: usize, to: usize, run: &mut Option<(usize, usize)>| {
            if is_word_char(lch) {
                run.get_or_insert((li, from));
                run_end = to;
            } else if let Some((ls, os)) = run.take() {
                emit(&lower[ls..li], os..run_end);
            }
        };
    for (i, c) in text.char_indices() {
        let n = if c.is_ascii() {
            1
        } else {
            c.to_lowercase().count()
        };
        for _ in 0..n {
            let Some((li, lch)) = lc.next() else { break };
            step(li, lch, i, i + c.len_utf8(), &mut run);
        }
    }
    for (li, lch) in lc {
        step(li, lch, text.len(), text.len(), &mut run);
    }
    step(lower.len(), ' ', text.len(), text.len(), &mut run);
}

/// The tokens of [`words`], without their byte ranges and without lower-casing the whole text
/// first: [`str::to_lowercase`] is [`char::to_lowercase`] char by char except for the final-sigma
/// rule of `Σ` (U+03A3), so a text without `Σ` is lower-cased char by char into one reused token
/// buffer; a text with `Σ` goes through [`scan_words`]. O(len) time, O(longest token) memory.
fn scan_tokens(text: &str, mut emit: impl FnMut(&str)) {
    if text.contains('\u{03A3}') {
        return scan_words(text, |token, _| emit(token));
    }
    let mut token = String::new();
    for c in text.chars() {
        if c.is_ascii() {
            if c.is_ascii_alphanumeric() || c == '_' {
                token.push(c.to_ascii_lowercase());
            } else if !token.is_empty() {
                emit(&token);
                token.clear();
            }
        } else {
            for l in c.to_lowercase() {
                if is_word_char(l) {
                    token.push(l);
                } else if !token.is_empty() {
                    emit(&token);
                    token.clear();
                }
            }
        }
    }
    if !token.is_empty() {
        emit(&token);
    }
}

/// Maps the tokens of both sequences to `u32` ids through one shared dictionary: equal tokens get
/// equal ids, on either side. Ids are dense, assigned in order of first appearance (`a` first).
///
/// Returns `(ids of a, ids of b)`, same lengths as the inputs. O(total length) expected time.
///
/// # Panics
/// If there are more than `u32::MAX` distinct tokens.
pub fn intern(a: &[String], b: &[String]) -> (Vec<u32>, Vec<u32>) {
    fn map<'a>(dict: &mut HashMap<&'a str, u32>, seq: &'a [String]) -> Vec<u32> {
        seq.iter()
            .map(|t| {
                let next = u32::try_from(dict.len()).expect("more than u32::MAX distinct tokens");
                *dict.entry(t.as_str()).or_insert(next)
            })
            .collect()
    }
    let mut dict = HashMap::with_capacity(a.len().max(b.len()));
    let ia = map(&mut dict, a);
    let ib = map(&mut dict, b);
    (ia, ib)
}

// ---------------------------------------------------------------------------------------------------
// Measures
// ---------------------------------------------------------------------------------------------------

/// Word-sequence LCS precision / recall / F1 (Gottron 2007; Gottron 2009, section 3; Mohammadzadeh
/// 2013, Formula 4.1), the measure of `REFERENCE.md`.
///
/// Both texts are tokenised with [`words`]; `common` is the length of the longest common subsequence
/// of the two token sequences ([`lcs_len`]); `precision = common / |extract|`,
/// `recall = common / |gold|`, `f1 = 2PR / (P + R)`. Both empty → 1.0; one empty → 0.0 (see
/// [`Prf::from_counts`]). Unit: tokens.
///
/// Gottron's example: gold *Title Some text in the body*, extract *Title Copyright Some text in* →
/// `recall = 4/6`, `precision = 4/5`, `f1 = 8/11`.
///
/// Complexity: O(len) tokenising plus [`lcs_len`], i.e. O(⌈m/64⌉·n) worst case for `m ≤ n` tokens.
pub fn word_prf(extract: &str, gold: &str) -> Prf {
    let e = words(extract);
    let g = words(gold);
    let (ie, ig) = intern(&e, &g);
    Prf::from_counts(lcs_len(&ie, &ig), ie.len(), ig.len())
}

/// A gold text tokenised once ([`words`]) and interned, for scoring many extracts against the
/// same gold (the genetic optimiser's fitness, [`crate::optimize`]). [`GoldWords::prf`] gives
/// exactly [`word_prf`]`(extract, gold)`: the same tokens and the same LCS length, only the
/// gold's tokenising and interning are not repeated. Unit: tokens.
#[derive(Clone, Default)]
pub struct GoldWords {
    dict: IdMap<String, u32>,
    ids: Vec<u32>,
}

impl std::fmt::Debug for GoldWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GoldWords")
            .field("tokens", &self.ids.len())
            .field("distinct", &self.dict.len())
            .finish()
    }
}

impl GoldWords {
    /// Tokenises and interns `gold`. O(len) time and memory.
    pub fn new(gold: &str) -> GoldWords {
        let mut dict: IdMap<String, u32> = IdMap::default();
        let mut ids = Vec::new();
        scan_words(gold, |token, _| {
            let next = u32::try_from(dict.len()).unwrap_or(u32::MAX - 1);
            let id = match dict.get(token) {
                Some(&id) => id,
                None => {
                    dict.insert(token.to_owned(), next);
                    next
                }
            };
            ids.push(id);
        });
        GoldWords { dict, ids }
    }

    /// Number of gold tokens.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True when the gold has no token.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Word-sequence LCS precision / recall / F1 of `extract` against this gold: equal to
    /// [`word_prf`]`(extract, gold)`. Extract tokens absent from the gold all get one id that no
    /// gold token has (they can never be part of the LCS). Complexity as [`word_prf`].
    pub fn prf(&self, extract: &str) -> Prf {
        let mut ie = Vec::new();
        scan_tokens(extract, |token| {
            ie.push(self.dict.get(token).copied().unwrap_or(u32::MAX));
        });
        Prf::from_counts(lcs_len(&ie, &self.ids), ie.len(), self.ids.len())
    }
}

/// Character LCSequence precision / recall / F1 (Arias Moreno, Deschacht and Moens 2009, section 5.2,
/// "longest common subsequence metric").
///
/// All white space ([`char::is_whitespace`], the Unicode `White_Space` property, which includes
/// U+00A0) is removed from both texts first (section 5.3: "All results reported ignore any spaces");
/// no case folding. With `s_max` the longest common subsequence of the remaining chars:
/// `precision = length(s_max) / length(t_automatic)`, `recall = length(s_max) / length(t_manual)`,
/// `F1 = 2·P·R / (P + R)`. Edge cases as [`Prf::from_counts`]. Unit: chars (Unicode scalar values).
///
/// Complexity: O(⌈m/64⌉·n) time ([`lcs_len`]), O(m) memory, `m ≤ n` the two stripped lengths.
pub fn lcsequence_prf(extract: &str, gold: &str) -> Prf {
    let e = non_whitespace_chars(extract);
    let g = non_whitespace_chars(gold);
    Prf::from_counts(lcs_len(&e, &g), e.len(), g.len())
}

/// Character LCString precision / recall / F1 (Arias Moreno, Deschacht and Moens 2009, section 5.2,
/// "longest common substring metric").
///
/// As [`lcsequence_prf`] (white space removed, no case folding, same formulas), but `s_max` is the
/// longest common *contiguous* substring of the two stripped char sequences ([`lcstring_len`]).
/// Unit: chars.
///
/// Complexity: O(n + m) expected time and O(m) memory (suffix automaton of the shorter side).
pub fn lcstring_prf(extract: &str, gold: &str) -> Prf {
    let e = non_whitespace_chars(extract);
    let g = non_whitespace_chars(gold);
    Prf::from_counts(lcstring_len(&e, &g), e.len(), g.len())
}

/// The chars of `text` that are not white space, as `u32` scalar values.
fn non_whitespace_chars(text: &str) -> Vec<u32> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(u32::from)
        .collect()
}

/// Mean of per-page values, the corpus figure of `REFERENCE.md` (macro average over pages).
///
/// Returns 0.0 for an empty input (never NaN by itself; a NaN or infinite input propagates). Uses
/// compensated (Neumaier) summation, so the result does not depend noticeably on the order or number
/// of pages. O(number of values), O(1) memory.
pub fn mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (mut sum, mut comp, mut n) = (0.0_f64, 0.0_f64, 0_usize);
    for x in values {
        let t = sum + x;
        if sum.abs() >= x.abs() {
            comp += (sum - t) + x;
        } else {
            comp += (x - t) + sum;
        }
        sum = t;
        n += 1;
    }
    if n == 0 {
        0.0
    } else {
        (sum + comp) / n as f64
    }
}

// ---------------------------------------------------------------------------------------------------
// Longest common subsequence
// ---------------------------------------------------------------------------------------------------

/// Small multiplicative hasher for `u32` / `u64` keys (std's SipHash is needlessly slow here).
#[derive(Default, Clone, Copy)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 ^= self.0 >> 29;
    }
}

type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// Length of the longest common subsequence of two symbol sequences (tokens from [`intern`], or
/// chars as `u32`), bit-parallel.
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
    rows: IdMap<u32, Row>,
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
            rows: IdMap::default(),
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
    trans: IdMap<u64, u32>,
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
            trans: IdMap::with_capacity_and_hasher(3 * s.len(), Default::default()),
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
/// the tests of [`align`]).
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

    #[test]
    fn gold_words_scores_as_word_prf() {
        let gold = "Title Some text in the body, the body again";
        let g = GoldWords::new(gold);
        assert_eq!(g.len(), 9);
        for extract in [
            "Title Copyright Some text in",
            "",
            "nothing shared here",
            "body body body the the Title",
            "TITLE sOmE Straße İstanbul text_x2 in ΟΔΟΣ Σ",
            gold,
        ] {
            assert_eq!(g.prf(extract), word_prf(extract, gold), "{extract:?}");
        }
        let empty = GoldWords::new("  ,; ");
        assert!(empty.is_empty());
        assert_eq!(empty.prf(""), word_prf("", "  ,; "));
        assert_eq!(empty.prf("a b"), word_prf("a b", ""));
    }

    proptest! {
        #[test]
        fn gold_words_matches_word_prf(e in "[abc XY_.9ßİΣσ\u{0301}]{0,40}", g in "[abc XY_.9ßİΣσ]{0,40}") {
            prop_assert_eq!(GoldWords::new(&g).prf(&e), word_prf(&e, &g));
        }

        #[test]
        fn scan_tokens_gives_the_words(t in "[abc XY_.9ßİΣσ\u{0301}\u{0130}é]{0,40}") {
            let mut got = Vec::new();
            scan_tokens(&t, |w| got.push(w.to_string()));
            prop_assert_eq!(got, words(&t));
        }
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

    // --- papers' examples -------------------------------------------------------------------------

    /// Gottron 2009, section 3: r = 4/6, p = 4/5, F1 = 8/11.
    #[test]
    fn gottron_2009_worked_example() {
        let gold = "Title Some text in the body";
        let extract = "Title Copyright Some text in";
        let prf = word_prf(extract, gold);
        assert_eq!(prf.common, 4);
        assert_eq!(prf.extract_len, 5);
        assert_eq!(prf.gold_len, 6);
        assert_eq!(prf.recall, 4.0 / 6.0);
        assert_eq!(prf.precision, 4.0 / 5.0);
        assert_eq!(prf.f1, 8.0 / 11.0);
        let (p, r) = (prf.precision, prf.recall);
        assert!((2.0 * p * r / (p + r) - prf.f1).abs() < 1e-15);
        // The full page text of the example against the gold: the extract adds two words.
        let page = word_prf("Title Copyright Some text in the body Commercial", gold);
        assert_eq!((page.common, page.recall, page.precision), (6, 1.0, 0.75));
    }

    /// Arias Moreno et al. 2009, section 5.2, LCString example. The paper names the substring
    /// " jumps over the brown " (22 chars with white space, which `lcstring_len` finds on the raw
    /// strings) but gives "length 20" (the words without the outer spaces); with white space removed,
    /// as the paper's measure does (section 5.3), it is "jumpsoverthebrown", 17 chars of 26.
    #[test]
    fn arias_2009_lcstring_example() {
        let a = "the dog jumps over the brown fox";
        let b = "the fox jumps over the brown dog";
        assert_eq!(lcstring_len(&chars(a), &chars(b)), 22);
        assert_eq!(" jumps over the brown ".chars().count(), 22);
        assert_eq!(lcstring_len_dp(&chars(a), &chars(b)), 22);
        let prf = lcstring_prf(a, b);
        assert_eq!((prf.common, prf.extract_len, prf.gold_len), (17, 26, 26));
        assert_eq!(prf.precision, 17.0 / 26.0);
        assert_eq!(prf.recall, 17.0 / 26.0);
        assert_eq!(prf.f1, 17.0 / 26.0);
    }

    /// Arias Moreno et al. 2009, section 5.2, LCSequence example. The paper quotes
    /// "the jumps over the brown " (25 chars, stated as "length 23"), a common subsequence but not a
    /// longest one: "the o jumps over the brown o" (28 chars) is common too. Without white space the
    /// LCS is "theojumpsoverthebrowno", 22 of 26 chars.
    #[test]
    fn arias_2009_lcsequence_example() {
        let a = "the dog jumps over the brown fox";
        let b = "the fox jumps over the brown dog";
        assert_eq!(lcs_len(&chars(a), &chars(b)), 28);
        assert_eq!(lcs_len_dp(&chars(a), &chars(b)), 28);
        let quoted = chars("the jumps over the brown ");
        assert_eq!(lcs_len(&quoted, &chars(a)), quoted.len());
        assert_eq!(lcs_len(&quoted, &chars(b)), quoted.len());
        let prf = lcsequence_prf(a, b);
        assert_eq!((prf.common, prf.extract_len, prf.gold_len), (22, 26, 26));
        assert_eq!(prf.f1, 22.0 / 26.0);
        // LCString is never longer than LCSequence.
        assert!(lcstring_prf(a, b).common <= prf.common);
    }

    #[test]
    fn char_measures_ignore_white_space_and_keep_case() {
        let prf = lcsequence_prf("Main  content\n\there", "Maincontent here");
        assert_eq!(prf.f1, 1.0);
        let prf = lcstring_prf("a\u{a0}b c", "abc");
        assert_eq!((prf.common, prf.extract_len), (3, 3));
        let prf = lcsequence_prf("ABC", "abc");
        assert_eq!(prf.common, 0);
        // Chars, not bytes.
        let prf = lcstring_prf("شبکه عصبی", "شبکه");
        assert_eq!((prf.common, prf.extract_len, prf.gold_len), (4, 8, 4));
        assert_eq!(prf.recall, 1.0);
        assert_eq!(prf.precision, 0.5);
    }

    /// Precision is relative to the extract, recall to the gold (not swapped).
    #[test]
    fn precision_is_relative_to_the_extract() {
        let prf = word_prf("a b", "a b c d");
        assert_eq!((prf.precision, prf.recall), (1.0, 0.5));
        let prf = lcsequence_prf("ab", "abcd");
        assert_eq!((prf.precision, prf.recall), (1.0, 0.5));
        let prf = lcstring_prf("abxcd", "ab");
        assert_eq!((prf.precision, prf.recall), (0.4, 1.0));
    }

    // --- edge cases -------------------------------------------------------------------------------

    #[test]
    fn edge_cases_of_all_measures() {
        for f in [word_prf, lcsequence_prf, lcstring_prf] {
            let both_empty = f("", "");
            assert_eq!(
                (both_empty.precision, both_empty.recall, both_empty.f1),
                (1.0, 1.0, 1.0)
            );
            // White space / punctuation only counts as empty.
            assert_eq!(f(" \n ", "\t").f1, 1.0);
            for one_empty in [
                f("", "some gold text"),
                f("an extract", ""),
                f("  ", "gold"),
            ] {
                assert_eq!(
                    (one_empty.precision, one_empty.recall, one_empty.f1),
                    (0.0, 0.0, 0.0)
                );
            }
            let same = f("The same text, twice.", "The same text, twice.");
            assert_eq!((same.precision, same.recall, same.f1), (1.0, 1.0, 1.0));
            let disjoint = f("xyz xyz", "abc");
            assert_eq!(
                (disjoint.precision, disjoint.recall, disjoint.f1),
                (0.0, 0.0, 0.0)
            );
        }
        // Only punctuation: no word tokens on either side → both empty for the word measure.
        assert_eq!(word_prf("...", "!!!").f1, 1.0);
        assert_eq!(word_prf("...", "word").f1, 0.0);
    }

    #[test]
    fn prf_from_counts_and_serialize_shape() {
        let prf = Prf::from_counts(3, 4, 6);
        assert_eq!(prf.precision, 0.75);
        assert_eq!(prf.recall, 0.5);
        assert_eq!(prf.f1, 0.6);
        assert_eq!(Prf::from_counts(0, 4, 6).f1, 0.0);
        assert_eq!(Prf::from_counts(0, 0, 0).f1, 1.0);
        assert_eq!(Prf::from_counts(0, 0, 6).recall, 0.0);
        fn is_serialize<T: serde::Serialize>() {}
        is_serialize::<Prf>();
    }

    #[test]
    fn mean_of_values() {
        assert_eq!(mean(std::iter::empty()), 0.0);
        assert_eq!(mean([0.5]), 0.5);
        assert_eq!(mean([1.0, 0.0, 0.5, 0.5]), 0.5);
        assert_eq!(mean(vec![0.1; 10]), 0.1);
        assert_eq!(mean([1e16, 1.0, -1e16]), 1.0 / 3.0);
        let prfs = [word_prf("a b", "a b"), word_prf("a", "b")];
        assert_eq!(mean(prfs.iter().map(|p| p.f1)), 0.5);
    }

    // --- tokeniser --------------------------------------------------------------------------------

    #[test]
    fn tokeniser_punctuation_digits_underscores() {
        assert_eq!(
            words("Hello, World! It's 2009-03-01; x_1 = __init__ (3.14)."),
            ["hello", "world", "it", "s", "2009", "03", "01", "x_1", "__init__", "3", "14"]
        );
        assert_eq!(
            words("e-mail \u{2014} co\u{00AD}op"),
            ["e", "mail", "co", "op"]
        );
        assert_eq!(words("x² ½ Ⅻ ٣٤"), ["x²", "½", "ⅻ", "٣٤"]);
        assert!(words("  \n\t ... --- !!! ").is_empty());
        assert!(words("").is_empty());
    }

    /// The tokeniser as first written (lower-case the whole text, cut it into runs of word
    /// chars): the reference [`words`] and [`word_spans`] must agree with.
    fn words_reference(text: &str) -> Vec<String> {
        let lower = text.to_lowercase();
        let mut out = Vec::new();
        let mut start: Option<usize> = None;
        for (i, c) in lower.char_indices() {
            if is_word_char(c) {
                start.get_or_insert(i);
            } else if let Some(s) = start.take() {
                out.push(lower[s..i].to_owned());
            }
        }
        if let Some(s) = start {
            out.push(lower[s..].to_owned());
        }
        out
    }

    /// `word_spans` tokens are `words`, and its ranges are char-aligned, non-empty, in order.
    fn check_spans(text: &str) {
        let spans = word_spans(text);
        let tokens: Vec<String> = spans.iter().map(|(t, _)| t.clone()).collect();
        assert_eq!(tokens, words_reference(text), "{text:?}");
        assert_eq!(words(text), tokens, "{text:?}");
        let mut prev_end = 0;
        for (t, r) in &spans {
            assert!(r.start < r.end && r.end <= text.len(), "{t} {r:?}");
            assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
            // A range may start inside the previous one only when both come from one char.
            assert!(
                r.start >= prev_end
                    || text[r.start..].chars().next().map(char::len_utf8) == Some(r.end - r.start)
            );
            prev_end = r.end;
            assert!(text[r.clone()]
                .chars()
                .any(|c| c.to_lowercase().any(is_word_char)));
        }
    }

    #[test]
    fn word_spans_give_source_bytes() {
        let text = "Hello, wor_ld! İstanbul ΟΔΟΣ x2";
        let spans = word_spans(text);
        let got: Vec<(&str, &str)> = spans
            .iter()
            .map(|(t, r)| (t.as_str(), &text[r.clone()]))
            .collect();
        assert_eq!(
            got,
            [
                ("hello", "Hello"),
                ("wor_ld", "wor_ld"),
                ("i", "İ"),
                ("stanbul", "stanbul"),
                ("οδος", "ΟΔΟΣ"),
                ("x2", "x2"),
            ]
        );
        for t in [
            "",
            " ",
            "a",
            "İİ",
            "ΣΑΣ.x ΣΑΣ",
            "ǅemal ﬁne Straße",
            "中文信息处理 abc",
            "\u{0130}\u{301}x",
        ] {
            check_spans(t);
        }
    }

    #[test]
    fn tokeniser_case_folding() {
        assert_eq!(words("HeLLo WORLD"), ["hello", "world"]);
        // to_lowercase, not full case folding: ß stays, so these are different tokens (Python's
        // casefold would give "strasse" twice; Python's lower agrees with this).
        assert_eq!(words("Straße STRASSE"), ["straße", "strasse"]);
        assert_eq!(word_prf("Straße", "STRASSE").f1, 0.0);
        // Final sigma rule of to_lowercase; casefold would give σ.
        assert_eq!(words("ΟΔΟΣ"), ["οδος"]);
        // İ lowercases to i + U+0307 (a non-word mark), splitting the word as Python does.
        assert_eq!(words("İstanbul"), ["i", "stanbul"]);
        assert_eq!(words("ÉCOLE École école"), ["école", "école", "école"]);
    }

    #[test]
    fn tokeniser_arabic_farsi_cjk() {
        // Arabic without diacritics: one token per word; Arabic-Indic digits are digits.
        assert_eq!(
            words("اللغة العربية، جميلة. ١٢٣"),
            ["اللغة", "العربية", "جميلة", "١٢٣"]
        );
        // Farsi: the ZWNJ (U+200C) inside "می‌خواهم" and "کتاب‌ها" splits, as in Python.
        assert_eq!(
            words("من کتاب‌ها را می‌خواهم؟"),
            ["من", "کتاب", "ها", "را", "می", "خواهم"]
        );
        // Harakat are Other_Alphabetic in Rust: vowelled Arabic stays one token (Python splits).
        assert_eq!(words("مَدْرَسَة"), ["مَدْرَسَة"]);
        // CJK has no spaces: a run of ideographs is one token; CJK punctuation separates.
        assert_eq!(
            words("中文信息处理。日本語のテキスト"),
            ["中文信息处理", "日本語のテキスト"]
        );
        assert_eq!(words("한국어 텍스트"), ["한국어", "텍스트"]);
        // Devanagari: vowel signs are Other_Alphabetic, the virama U+094D is not (Python: ह न द).
        assert_eq!(words("हिन्दी"), ["हिन", "दी"]);
        // Circled letters are Other_Alphabetic (Python: no word characters).
        assert_eq!(words("Ⓐb"), ["ⓐb"]);
        // Decomposed accents (U+0301, not Other_Alphabetic) split, as in Python.
        assert_eq!(words("cafe\u{301}"), ["cafe"]);
        assert!(is_word_char('_') && is_word_char('ß') && !is_word_char('\u{200c}'));
    }

    #[test]
    fn intern_shares_ids() {
        let a: Vec<String> = ["x", "y", "x"].map(String::from).to_vec();
        let b: Vec<String> = ["y", "z", "x"].map(String::from).to_vec();
        let (ia, ib) = intern(&a, &b);
        assert_eq!(ia, [0, 1, 0]);
        assert_eq!(ib, [1, 2, 0]);
        assert_eq!(intern(&[], &[]), (vec![], vec![]));
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
        fn word_spans_match_the_reference_tokeniser(text in "\\PC{0,80}") {
            check_spans(&text);
        }

        #[test]
        fn word_spans_match_the_reference_on_mixed_case(text in "[aAİıΣσς.ǅ_ 1-]{0,40}") {
            check_spans(&text);
        }

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

        #[test]
        fn measures_are_bounded(e in "\\PC{0,80}", g in "\\PC{0,80}") {
            for prf in [word_prf(&e, &g), lcsequence_prf(&e, &g), lcstring_prf(&e, &g)] {
                for x in [prf.precision, prf.recall, prf.f1] {
                    prop_assert!((0.0..=1.0).contains(&x));
                }
                prop_assert!(prf.common <= prf.extract_len.min(prf.gold_len));
            }
            prop_assert!(lcstring_prf(&e, &g).common <= lcsequence_prf(&e, &g).common);
        }
    }
}
