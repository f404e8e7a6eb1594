//! `bte` — Body Text Extraction (Finn, Kushmerick & Smyth 2001), as described in Mohammadzadeh
//! (2013), section 3.3.1.1, Formula 3.3 and Algorithm 5.
//!
//! The page is a sequence of N tokens `B_0 … B_{N−1}` ([`crate::page::tokens`]): `B_n = 1` for a
//! tag token and `0` for a word token. BTE selects the one continuous token range `[i, j]` that
//! maximises Formula 3.3, "the number of tag tokens before i, plus the word tokens inside, plus the
//! tag tokens after j" — the plateau of the cumulative tag-token curve `d(n) = Σ_{k≤n} B_k`
//! (Formula 3.4, thesis Fig. 3.5). The word tokens of that range are the main content.
//!
//! Algorithm 5 finds the optimum by trying every `(i, j)` (O(N³) as printed, O(N²) with its
//! lookup tables); cescope finds the same optimum in O(N) as a maximum-sum sub-array
//! ([`optimum`], property-tested against the O(N²) definition [`optimum_quadratic`]). BTE has no
//! parameters.

use crate::extract::signal::max_subsequence;
use crate::extract::trace::{Marks, Phase, Positions, Role, Scalar, Series, Trace, Unit};
use crate::extract::{AlgoInfo, StaticInfo, NO_PARAMS};
use crate::extract::{Extraction, Extractor, Params};
use crate::page::tokens::TokenKind;
use crate::page::Page;
use crate::selection::Selection;

/// Body Text Extraction (no parameters).
#[derive(Debug, Clone, Default)]
pub struct Bte;

const PHASES: &[Phase] = &[
    Phase::new(
        "tokens",
        "the page as tag tokens (B = 1) and word tokens (B = 0)",
        &["tags", "words"],
    ),
    Phase::new(
        "cumulative tags",
        "d(n) = number of tag tokens up to n (Formula 3.4); the main content is a plateau",
        &["d"],
    ),
    Phase::new(
        "optimum",
        "the range [i, j] maximising T(i, j) (Formula 3.3), found in O(N)",
        &["plateau", "T"],
    ),
    Phase::new(
        "extraction",
        "the words of the range are the main content",
        &[],
    ),
];

static INFO: AlgoInfo = AlgoInfo::new(
    "bte",
    "Body Text Extraction: the token range with most words inside and most tags outside (Mohammadzadeh 2013, 3.3.1.1, Formula 3.3, Algorithm 5)",
    "Mohammadzadeh 2013, 3.3.1.1, Formula 3.3, Algorithm 5",
    NO_PARAMS,
    PHASES,
);

impl StaticInfo for Bte {
    const INFO: &'static AlgoInfo = &INFO;
}

impl Extractor for Bte {
    /// Trace (token unit, positions = each token's byte range): `tags` (code signal, 1 per tag
    /// token), `words` (content signal, 1 per word token), `d` (the cumulative tag count of
    /// Formula 3.4, a size series aggregated by maximum, so a plateau shows as equal bars),
    /// `plateau` (the selected range `[i, j]`, selected) and the scalar `T` (the optimum of
    /// Formula 3.3).
    fn run(&self, page: &Page, _params: &Params) -> Extraction {
        let tokens = page.tokens();
        let b: Vec<bool> = tokens.iter().map(|t| t.kind == TokenKind::Tag).collect();
        let mut d = Vec::with_capacity(b.len());
        let mut tags = 0.0;
        for &is_tag in &b {
            tags += is_tag as u8 as f64;
            d.push(tags);
        }
        let best = optimum(&b);
        let (selection, plateau, t) = match best {
            Some((i, j)) => {
                let range = tokens[i].range.start..tokens[j].range.end;
                let t = objective(&b, i, j);
                (
                    page.normalize(&Selection::from_range(range)),
                    std::iter::once(i..j + 1).collect(),
                    t,
                )
            }
            None => (Selection::new(), Vec::new(), 0),
        };
        let series = token_curve_series(&b, d);
        Extraction {
            selection,
            trace: Trace {
                series,
                scalars: vec![Scalar::new(
                    "T",
                    "T(i, j) at the optimum (Formula 3.3)",
                    None,
                    Role::Info,
                    t as f64,
                )],
                marks: vec![Marks::new(
                    "plateau",
                    "the range [i, j] maximising T (Formula 3.3)",
                    Unit::Token,
                    Role::Selected,
                    plateau,
                )],
                positions: vec![Positions {
                    unit: Unit::Token,
                    ranges: tokens.into_iter().map(|t| t.range).collect(),
                }],
            },
        }
    }
}

/// The token-level series BTE and DSC share (token unit): `tags` (code signal, 1 per tag
/// token), `words` (content signal, 1 per word token) and `d`, the cumulative tag count of
/// Formula 3.4 (a size, aggregated by maximum so a plateau shows as equal bars). `b[n]` is true
/// for a tag token; `d` has one value per token.
pub fn token_curve_series(b: &[bool], d: Vec<f64>) -> Vec<Series> {
    vec![
        Series::new(
            "tags",
            "tag tokens",
            Unit::Token,
            Role::CodeSignal,
            b.iter().map(|&x| x as u8 as f64).collect(),
        ),
        Series::new(
            "words",
            "word tokens",
            Unit::Token,
            Role::ContentSignal,
            b.iter().map(|&x| (!x) as u8 as f64).collect(),
        ),
        Series::new(
            "d",
            "d(n), cumulative tag tokens (Formula 3.4)",
            Unit::Token,
            Role::Size,
            d,
        )
        .with_agg(crate::extract::trace::Agg::Max),
    ]
}

/// Formula 3.3 for one range `[i, j]` (inclusive) of the token vector `b` (`true` = tag): tags
/// before `i` + words in `[i, j]` + tags after `j`. O(N).
pub fn objective(b: &[bool], i: usize, j: usize) -> i64 {
    let before = b[..i].iter().filter(|&&x| x).count();
    let inside = b[i..=j].iter().filter(|&&x| !x).count();
    let after = b[j + 1..].iter().filter(|&&x| x).count();
    (before + inside + after) as i64
}

/// The token range `(i, j)` (inclusive) maximising Finn's objective (Mohammadzadeh 2013,
/// Formula 3.3)
///
/// `T(i, j) = Σ_{n<i} B_n + Σ_{n=i..=j} (1 − B_n) + Σ_{n>j} B_n`
///
/// over a token vector `b` (`true` = tag token, B = 1; `false` = word token, B = 0), in O(N)
/// time and O(1) memory. Since `T(i, j) = tags(B) + Σ_{n=i..=j} s_n` with `s_n = +1` for a word
/// and `−1` for a tag, the optimum is the maximum-sum subsequence of `s`: the one search of
/// Algorithm 8 ([`max_subsequence`], shared with MSS).
///
/// Ties are broken as Algorithm 5 breaks them — it scans `i` and then `j` upwards and replaces
/// the best only on a strictly greater `T`, so the first maximum in that order (smallest `i`,
/// then smallest `j`) wins; Algorithm 8's rule (replace only on a strictly greater sum, reset
/// only below 0) picks the same range (property-tested against [`optimum_quadratic`]). When no
/// `T` exceeds 0 Algorithm 5 returns its initial `(0, N − 1)`, and so does this. `None` for an
/// empty vector. (Algorithm 5's lookup tables count `B_i` and `B_j` on both sides of the range,
/// an off-by-one against Formula 3.3; cescope follows the formula.)
pub fn optimum(b: &[bool]) -> Option<(usize, usize)> {
    let n = b.len();
    let tags = b.iter().filter(|&&x| x).count() as i64;
    let (i, j, s) = max_subsequence(b.iter().map(|&is_tag| if is_tag { -1i64 } else { 1 }))?;
    Some(if tags + s > 0 { (i, j) } else { (0, n - 1) })
}

/// Formula 3.3 evaluated for every `(i, j)` with `i ≤ j`, scanned as Algorithm 5 scans them:
/// O(N²) with prefix sums. The reference for [`optimum`] (property-tested); not used on pages.
pub fn optimum_quadratic(b: &[bool]) -> Option<(usize, usize)> {
    let n = b.len();
    if n == 0 {
        return None;
    }
    let mut prefix = vec![0i64; n + 1]; // tags in b[..k]
    for (k, &x) in b.iter().enumerate() {
        prefix[k + 1] = prefix[k] + x as i64;
    }
    let mut best = (0usize, n - 1);
    let mut t_max = 0i64;
    for i in 0..n {
        for j in i..n {
            let before = prefix[i];
            let inside_words = (j + 1 - i) as i64 - (prefix[j + 1] - prefix[i]);
            let after = prefix[n] - prefix[j + 1];
            let t = before + inside_words + after;
            if t > t_max {
                t_max = t;
                best = (i, j);
            }
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn hand_computed_optimum() {
        // tokens: T T W W T W W W T T  (T = tag, W = word)
        let b: Vec<bool> = "TTWWTWWWTT".chars().map(|c| c == 'T').collect();
        // Best range: words 2..=7 with one tag inside: 2 tags before + 5 words + 2 tags after = 9.
        assert_eq!(optimum(&b), Some((2, 7)));
        assert_eq!(objective(&b, 2, 7), 9);
        assert_eq!(optimum_quadratic(&b), Some((2, 7)));
        assert_eq!(optimum(&[]), None);
        // Only tags: no range beats T = 0 except single tags at the ends... T(0,0) = 0 + 0 + 2.
        assert_eq!(
            optimum(&[true, true, true]),
            optimum_quadratic(&[true, true, true])
        );
    }

    #[test]
    fn bte_selects_the_article_not_the_menu() {
        let mut html = String::from("<html><body><ul>");
        for i in 0..15 {
            html.push_str(&format!("<li><a href=/{i}>Menu {i}</a></li>"));
        }
        html.push_str("</ul><div><p>");
        html.push_str(&"Main content words without markup in this long paragraph ".repeat(8));
        html.push_str("</p><p>");
        html.push_str(&"A second paragraph of the same article text ".repeat(6));
        html.push_str("</p></div><div class=footer><a href=/a>About</a> <a href=/b>Contact</a></div></body></html>");
        let p = Page::from_text("t.html", html);
        let x = Bte.run(&p, &Params::default());
        x.trace.validate(&p).unwrap();
        let text = p.render(&x.selection);
        assert!(text.starts_with("Main content words"), "{text}");
        assert!(text.contains("A second paragraph"), "{text}");
        assert!(!text.contains("Menu") && !text.contains("About"), "{text}");
        assert!(p.is_normal(&x.selection));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        /// The O(N) optimum equals Algorithm 5's O(N²) scan, ties included.
        #[test]
        fn linear_optimum_matches_the_definition(b in proptest::collection::vec(any::<bool>(), 0..60)) {
            prop_assert_eq!(optimum(&b), optimum_quadratic(&b));
            if let Some((i, j)) = optimum(&b) {
                // And it is a maximum of Formula 3.3 over all ranges.
                let best = (0..b.len())
                    .flat_map(|i| (i..b.len()).map(move |j| (i, j)))
                    .map(|(i, j)| objective(&b, i, j))
                    .max()
                    .unwrap();
                prop_assert!(objective(&b, i, j) == best || best == 0);
            }
        }
    }

    /// Every token vector up to 12 tokens: the shared search (Algorithm 8) gives Algorithm 5's
    /// range, ties included.
    #[test]
    fn linear_optimum_matches_the_definition_exhaustively() {
        for n in 0..=12usize {
            for bits in 0u32..(1 << n) {
                let b: Vec<bool> = (0..n).map(|k| bits >> k & 1 == 1).collect();
                assert_eq!(optimum(&b), optimum_quadratic(&b), "{b:?}");
            }
        }
    }
}
