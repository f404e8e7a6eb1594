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
//!
//! Files: this one holds the P / R / F1 API, the tokeniser and the measures; `lcs.rs` the two
//! length engines (LCS, longest common substring) and their test oracles; `align.rs` the
//! alignment.

pub mod align;
mod lcs;

use lcs::common_ends;
#[cfg(test)]
pub(crate) use lcs::reference;
pub use lcs::{lcs_len, lcstring_len};

use std::collections::HashMap;

use rustc_hash::FxHashMap;

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
    dict: FxHashMap<String, u32>,
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
        let mut dict: FxHashMap<String, u32> = FxHashMap::default();
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
