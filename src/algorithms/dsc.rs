//! `dsc` — Document Slope Curves (Pinto et al. 2002), as given in Mohammadzadeh (2013), section
//! 3.3.1.2, Formula 3.4 and Algorithm 6.
//!
//! The page is the token vector `B_0 … B_{N−1}` of BTE ([`crate::page::tokens`]; `B_n = 1` for a
//! tag token, `0` for a word token). Algorithm 6:
//!
//! 1. **Slope curve** — `d(n) = Σ_{k≤n} B_k` (Formula 3.4), the cumulative tag count.
//! 2. **Window size** ([`window_size`]) — `w = 8`; `w = 50` when `N > 5000`; otherwise, when
//!    `N ≥ 200`, `w = ⌈0.00875·N + 6.25⌉` (the straight line from 8 tokens at N = 200 to 50
//!    at N = 5000). cescope evaluates the ceiling in integers, `⌈(7N + 5000) / 800⌉`, so the
//!    boundaries N = 200 (w = 8) and N = 5000 (w = 50) are exact.
//! 3. **Window slopes** — windows start at `i = 0, w/2, 2·(w/2), …` while `i ≤ N − 1 − w`;
//!    each has the slope `s_i = (d[i + w − 1] − d[i]) / w` and is **low-slope** when
//!    `s_i < 0.5 · s_total`, with `s_total = d[N − 1] / N` the average slope of the page.
//! 4. **Low-slope regions** — a flag `lr` and the history `h` of the previous two windows'
//!    low-slope bits: a region starts (`lr ← 1`) at the third low-slope window in a row and ends
//!    (`lr ← 0`) at the third non-low window in a row; every window writes `lr` into
//!    `L[i … i + w − 1]`, so a later window overwrites the overlapping half of the one before.
//! 5. **Extraction** — the word tokens with `L = 1` are the main content.
//!
//! Choices where Algorithm 6 is ambiguous or silent (each documented, tested, and where a user
//! could want the other choice, a parameter):
//! - **The `else` branch.** As printed, the `else` follows the inner `if`; read that way, a region
//!   could never end (`lr` is only ever set to 1), contradicting the text ("the region ends when
//!   it reaches three continuous parts having an average slope greater than Av"). cescope reads
//!   the `else` as belonging to `if lr = 0`: while in a region, `lr ← 0` only when the current
//!   window and both windows of the history are non-low (all three 0).
//! - **The end threshold.** The text says a region ends at three windows with a slope greater
//!   than `Av`; the pseudo-code ends it at three windows that are not low-slope (slope
//!   `≥ 0.5 · s_total`). cescope follows the pseudo-code (one threshold for both).
//! - **`w/2` for odd `w`** — integer division (`⌊w/2⌋`, at least 1), as index arithmetic must.
//! - **Window slope** — literally `(d[i + w − 1] − d[i]) / w`: the tags among the `w − 1` tokens
//!   after `i`, divided by `w`.
//! - **The tail** — tokens after the last window (between 1 and `⌊w/2⌋` of them) and all tokens of
//!   a page with `N ≤ w` are never written and keep `L = 0`, as in the pseudo-code. A page
//!   without tags (`s_total = 0`) has no low-slope window and so no content.
//! - **Where a region begins and ends** (parameter `history`): `literal` (the default) marks
//!   exactly what Algorithm 6 writes — the region starts with the third low-slope window (the
//!   first two are only history) and keeps the two non-low windows that end it. `symmetric`
//!   follows the prose ("three continuous parts with low slope … can act as the beginning"):
//!   the region starts with the first of the three low-slope windows and ends with the last
//!   low-slope window before the three non-low ones.
//! - The factor 0.5 is the parameter `factor`, and the window size can be fixed by `window`
//!   (0, the default, is the rule above).

use std::borrow::Cow;
use std::ops::Range;

use crate::extract::trace::{
    runs, Agg, Marks, Phase, Positions, Role, Scalar, Series, Trace, Unit,
};
use crate::extract::{AlgoInfo, Choice, StaticInfo};
use crate::extract::{Extraction, Extractor, ParamKind, ParamSpec, ParamValue, Params};
use crate::page::tokens::TokenKind;
use crate::page::Page;
use crate::selection::Selection;

/// The window size `w` in tokens; 0 selects the rule of Algorithm 6 ([`window_size`]).
pub const WINDOW_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("window"),
    kind: ParamKind::Int {
        min: 0,
        max: 1000,
        step: 1,
    },
    default: ParamValue::Int(0),
    help: "window size w in tokens; 0 = Algorithm 6's rule (8; ceil(0.00875 N + 6.25) for N >= 200; 50 for N > 5000)",
    source: "Mohammadzadeh 2013, 3.3.1.2, Algorithm 6 (Pinto et al. 2002)",
};

/// The low-slope factor: a window is low-slope when its slope is below `factor · s_total`.
pub const FACTOR_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("factor"),
    kind: ParamKind::Float {
        min: 0.0,
        max: 2.0,
        step: 0.05,
    },
    default: ParamValue::Float(0.5),
    help: "a window is low-slope when its slope is below factor x the page's average slope",
    source: "Mohammadzadeh 2013, 3.3.1.2, Algorithm 6 (0.5 * s_total)",
};

crate::choice_enum! {
    /// Where a low-slope region begins and ends ([`HISTORY_SPEC`]).
    pub enum History {
        /// `L` as Algorithm 6 writes it (a region starts at the third low window).
        Literal = "literal",
        /// It starts at the first of the three and ends at the last low window.
        Symmetric = "symmetric",
    }
}

/// Where a low-slope region begins and ends (see the module documentation).
pub const HISTORY_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("history"),
    kind: ParamKind::Choice {
        choices: <History as Choice>::NAMES,
    },
    default: ParamValue::choice("literal"),
    help: "literal: L as Algorithm 6 writes it (a region starts at the 3rd low window); symmetric: it starts at the 1st of the three and ends at the last low window",
    source: "Mohammadzadeh 2013, 3.3.1.2, Algorithm 6 and its prose; cescope's choice",
};

/// The window size of Algorithm 6 for `n` tokens: 8 for `n < 200`, `⌈0.00875·n + 6.25⌉` for
/// `200 ≤ n ≤ 5000` (computed exactly as `⌈(7n + 5000) / 800⌉`), 50 for `n > 5000`. In tokens.
pub fn window_size(n: usize) -> usize {
    if n > 5000 {
        50
    } else if n >= 200 {
        (7 * n + 5000).div_ceil(800)
    } else {
        8
    }
}

/// One window of Algorithm 6.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// First token `i`; the window covers tokens `i … i + w − 1`.
    pub start: usize,
    /// `s_i = (d[i + w − 1] − d[i]) / w` (tags per token).
    pub slope: f64,
    /// `ls`: the slope is below the threshold.
    pub low: bool,
    /// `lr` after this window: inside a low-slope region.
    pub in_region: bool,
}

/// What Algorithm 6 computes for one token vector.
#[derive(Debug, Clone, PartialEq)]
pub struct SlopeCurve {
    /// `d(n)`, the cumulative tag count (Formula 3.4), one per token.
    pub d: Vec<u32>,
    /// The window size `w` used (tokens).
    pub w: usize,
    /// The step between window starts, `⌊w/2⌋` (at least 1; tokens).
    pub step: usize,
    /// `s_total = d[N − 1] / N` (0 for no tokens).
    pub s_total: f64,
    /// The low-slope threshold `factor · s_total`.
    pub threshold: f64,
    /// The windows in order.
    pub windows: Vec<Window>,
    /// `L`: one flag per token, true in a low-slope region.
    pub l: Vec<bool>,
}

/// Algorithm 6 on the token vector `b` (`true` = tag token): window size `w` (tokens, at least
/// 1; callers pass [`window_size`] for the published rule), low-slope factor `factor` (0.5 as
/// published), and `symmetric` for the prose's region bounds instead of the pseudo-code's (see
/// the module documentation). O(N).
pub fn slope_curve(b: &[bool], w: usize, factor: f64, symmetric: bool) -> SlopeCurve {
    let n = b.len();
    let w = w.max(1);
    let step = (w / 2).max(1);
    let mut d = Vec::with_capacity(n);
    let mut acc = 0u32;
    for &t in b {
        acc += t as u32;
        d.push(acc);
    }
    let s_total = if n == 0 { 0.0 } else { acc as f64 / n as f64 };
    let threshold = factor * s_total;
    let mut l = vec![false; n];
    let mut windows = Vec::new();
    let (mut h0, mut h1, mut lr) = (false, false, false);
    let mut i = 0;
    // for i = 0 … N − 1 − w (inclusive), step w/2
    while n > w && i <= n - 1 - w {
        let slope = (d[i + w - 1] - d[i]) as f64 / w as f64;
        let ls = slope < threshold;
        let was = lr;
        if !lr {
            if ls && h0 && h1 {
                lr = true;
            }
        } else if !ls && !h0 && !h1 {
            lr = false;
        }
        l[i..i + w].fill(lr);
        if symmetric && lr != was {
            if lr {
                // The region begins with the first of the three low windows.
                let from = i.saturating_sub(2 * step);
                l[from..i].fill(true);
            } else {
                // The region ends with the last low window (three windows back).
                let end = (i.saturating_sub(3 * step) + w).min(i);
                l[end..i].fill(false);
            }
        }
        windows.push(Window {
            start: i,
            slope,
            low: ls,
            in_region: lr,
        });
        h1 = h0;
        h0 = ls;
        i += step;
    }
    SlopeCurve {
        d,
        w,
        step,
        s_total,
        threshold,
        windows,
        l,
    }
}

/// Document Slope Curves.
#[derive(Debug, Clone, Default)]
pub struct Dsc;

crate::typed_params! {
    /// DSC's parameters (Mohammadzadeh 2013, 3.3.1.2, Algorithm 6).
    pub struct DscParams {
        /// The window size `w` in tokens (0: Algorithm 6's rule).
        pub window: i64 = WINDOW_SPEC,
        /// The low-slope factor.
        pub factor: f64 = FACTOR_SPEC,
        /// Where a low-slope region begins and ends.
        pub history: History = HISTORY_SPEC,
    }
}

const PHASES: &[Phase] = &[
            Phase::new("tokens", "the page as tag tokens (B = 1) and word tokens (B = 0)", &["tags", "words"]),
            Phase::new("slope curve", "d(n) = number of tag tokens up to n (Formula 3.4); content is where it is flat", &["d"]),
            Phase::new("window slopes", "windows of w tokens, step w/2; slope s_i = (d[i+w-1] - d[i]) / w against 0.5 x the average slope (Algorithm 6)", &["slope", "threshold", "s_total", "w", "low"]),
            Phase::new("low-slope regions", "a region starts at the 3rd low window in a row and ends at the 3rd non-low window in a row (history h)", &["regions"]),
            Phase::new("extraction", "the word tokens with L = 1 are the main content", &[]),
        ];

static INFO: AlgoInfo = AlgoInfo::new(
    "dsc",
    "Document Slope Curves: windows of the cumulative tag curve with low slope are content (Pinto et al. 2002; Mohammadzadeh 2013, 3.3.1.2, Algorithm 6)",
    "Pinto et al. 2002; Mohammadzadeh 2013, 3.3.1.2, Algorithm 6",
    DscParams::SPECS,
    PHASES,
);

impl StaticInfo for Dsc {
    const INFO: &'static AlgoInfo = &INFO;
}

impl Extractor for Dsc {
    /// Trace (token unit, positions = each token's byte range): `tags` (code signal, 1 per tag
    /// token), `words` (content signal, 1 per word token), `d` (Formula 3.4, size, maximum per
    /// line), `slope` (combined signal, maximum per line: each token carries the slope of the
    /// last window that covers it, as `L` carries that window's flag; tokens in no window 0),
    /// `low` (candidates: the low-slope windows, merged), `regions` (selected: runs of `L = 1`),
    /// and the scalars `threshold` (`factor · s_total`, threshold), `s_total` and `w` (info).
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let tokens = page.tokens();
        let b: Vec<bool> = tokens.iter().map(|t| t.kind == TokenKind::Tag).collect();
        let p = DscParams::read(params);
        let w = match p.window {
            x if x > 0 => x as usize,
            _ => window_size(b.len()),
        };
        let factor = p.factor;
        let symmetric = p.history == History::Symmetric;
        let c = slope_curve(&b, w, factor, symmetric);

        // Selection: each run of L = 1 from its first to its last word token.
        let regions = runs((0..b.len()).filter(|&k| c.l[k]));
        let mut sel = Vec::new();
        for r in &regions {
            let mut words = tokens[r.clone()]
                .iter()
                .filter(|t| t.kind == TokenKind::Word);
            if let Some(first) = words.next() {
                let end = words.next_back().unwrap_or(first).range.end;
                sel.push(first.range.start..end);
            }
        }
        let selection = page.normalize(&Selection::from_ranges(sel));

        let mut slope = vec![0.0; b.len()];
        let mut low: Vec<Range<usize>> = Vec::new();
        for win in &c.windows {
            let r = win.start..win.start + c.w;
            slope[r.clone()].fill(win.slope);
            if win.low {
                match low.last_mut() {
                    Some(last) if last.end >= r.start => last.end = r.end,
                    _ => low.push(r),
                }
            }
        }
        let mut series =
            super::bte::token_curve_series(&b, c.d.iter().map(|&x| x as f64).collect());
        series.extend([Series::new(
            "slope",
            "window slope s_i (tags per token, Algorithm 6)",
            Unit::Token,
            Role::CombinedSignal,
            slope,
        )
        .with_agg(Agg::Max)]);
        Extraction {
            selection,
            trace: Trace {
                series,
                scalars: vec![
                    Scalar::new(
                        "threshold",
                        "low-slope threshold factor x s_total",
                        None,
                        Role::Threshold,
                        c.threshold,
                    ),
                    Scalar::new(
                        "s_total",
                        "average slope s_total = d[N-1] / N",
                        None,
                        Role::Info,
                        c.s_total,
                    ),
                    Scalar::new(
                        "w",
                        "window size w",
                        Some(Unit::Token),
                        Role::Info,
                        c.w as f64,
                    ),
                ],
                marks: vec![
                    Marks::new(
                        "low",
                        "low-slope windows (s_i < threshold)",
                        Unit::Token,
                        Role::Candidates,
                        low,
                    ),
                    Marks::new(
                        "regions",
                        "low-slope regions (L = 1)",
                        Unit::Token,
                        Role::Selected,
                        regions,
                    ),
                ],
                positions: vec![Positions {
                    unit: Unit::Token,
                    ranges: tokens.into_iter().map(|t| t.range).collect(),
                }],
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Algorithm;

    #[test]
    fn window_size_rule() {
        // N < 200: 8.  N = 200: 0.00875 * 200 + 6.25 = 1.75 + 6.25 = 8 exactly.
        assert_eq!(window_size(0), 8);
        assert_eq!(window_size(199), 8);
        assert_eq!(window_size(200), 8);
        // N = 201: 1.75875 + 6.25 = 8.00875 -> 9.  N = 1000: 8.75 + 6.25 = 15 exactly.
        assert_eq!(window_size(201), 9);
        assert_eq!(window_size(1000), 15);
        // N = 5000: 43.75 + 6.25 = 50 exactly; N > 5000: 50.
        assert_eq!(window_size(5000), 50);
        assert_eq!(window_size(5001), 50);
        assert_eq!(window_size(1_000_000), 50);
    }

    /// 16 tags, 24 words, 16 tags (N = 56), w = 8, step 4.
    fn plateau() -> Vec<bool> {
        let mut b = vec![true; 16];
        b.extend([false; 24]);
        b.extend([true; 16]);
        b
    }

    #[test]
    fn hand_computed_regions() {
        let c = slope_curve(&plateau(), 8, 0.5, false);
        // s_total = 32 / 56; threshold = 16 / 56 = 0.2857.
        assert_eq!(c.s_total, 32.0 / 56.0);
        assert_eq!(c.threshold, 16.0 / 56.0);
        // Windows at i = 0, 4, ..., 44 (i <= N - 1 - w = 47): 12 windows.
        let starts: Vec<usize> = c.windows.iter().map(|w| w.start).collect();
        assert_eq!(starts, (0..=44).step_by(4).collect::<Vec<_>>());
        // d[k] = k + 1 (k < 16), 16 (16 <= k < 40), k - 23 (k >= 40).
        // s_0 = (d[7] - d[0]) / 8 = 7/8; s_12 = (d[19] - d[12]) / 8 = (16 - 13) / 8 = 3/8;
        // s_16 ... s_32 = 0; s_36 = (d[43] - d[36]) / 8 = (20 - 16) / 8 = 4/8; s_40 = 7/8.
        let slopes: Vec<f64> = c.windows.iter().map(|w| w.slope).collect();
        let e = |x: f64| x / 8.0;
        assert_eq!(
            slopes,
            [7., 7., 7., 3., 0., 0., 0., 0., 0., 4., 7., 7.].map(e)
        );
        let low: Vec<bool> = c.windows.iter().map(|w| w.low).collect();
        assert_eq!(
            low,
            [false, false, false, false, true, true, true, true, true, false, false, false]
        );
        // lr turns 1 at the third low window (i = 24) and 0 at the third non-low window in a
        // row (i = 44): the two non-low windows at 36 and 40 stay in the region (the else branch
        // needs all three of ls, h[0], h[1] to be 0).
        let lr: Vec<bool> = c.windows.iter().map(|w| w.in_region).collect();
        assert_eq!(
            lr,
            [false, false, false, false, false, false, true, true, true, true, true, false]
        );
        // L: windows 24..40 write 1 on 24..48; window 44 writes 0 on 44..52; 52..56 is the
        // unwritten tail. So L = 1 exactly on 24..44: the last 16 of the 24 words, 4 tags.
        let ones: Vec<usize> = (0..56).filter(|&k| c.l[k]).collect();
        assert_eq!(ones, (24..44).collect::<Vec<_>>());
        // d itself (Formula 3.4).
        assert_eq!(c.d[15], 16);
        assert_eq!(c.d[39], 16);
        assert_eq!(c.d[55], 32);
    }

    #[test]
    fn symmetric_history_bounds() {
        // The region starts with the first of the three low windows (i = 16) and ends with the
        // last low window (i = 32, tokens 32..40): L = 1 exactly on the 24 words 16..40.
        let c = slope_curve(&plateau(), 8, 0.5, true);
        let ones: Vec<usize> = (0..56).filter(|&k| c.l[k]).collect();
        assert_eq!(ones, (16..40).collect::<Vec<_>>());
    }

    #[test]
    fn short_pages_odd_windows_and_no_tags() {
        // N <= w: no window, L all 0.  N = w + 1: one window at i = 0.
        assert!(slope_curve(&[true; 8], 8, 0.5, false).windows.is_empty());
        assert_eq!(slope_curve(&[true; 9], 8, 0.5, false).windows.len(), 1);
        // Odd w = 9: step floor(9 / 2) = 4; N = 30: i = 0, 4, ..., 20 (<= 30 - 1 - 9).
        let c = slope_curve(&[false; 30], 9, 0.5, false);
        assert_eq!(c.step, 4);
        assert_eq!(c.windows.len(), 6);
        // No tags: s_total = 0, no slope is below 0, nothing is content.
        assert!(c.windows.iter().all(|w| !w.low));
        assert!(c.l.iter().all(|&x| !x));
        assert!(slope_curve(&[], 8, 0.5, false).l.is_empty());
    }

    #[test]
    fn dsc_selects_article_words_not_the_menu() {
        let mut html = String::from("<html><body><ul>");
        for i in 0..20 {
            html.push_str(&format!("<li><a href=/{i}>Menu{i}</a></li>"));
        }
        html.push_str("</ul><div><p>");
        html.push_str(&"article words flow on without any markup at all ".repeat(12));
        html.push_str("</p></div><ul>");
        for i in 0..20 {
            html.push_str(&format!("<li><a href=/f{i}>Foot{i}</a></li>"));
        }
        html.push_str("</ul></body></html>");
        let p = Page::from_text("t.html", html);
        let d = Dsc;
        let x = d.run(&p, &Params::defaults(d.params()));
        x.trace.validate(&p).unwrap();
        assert!(p.is_normal(&x.selection));
        let text = p.render(&x.selection);
        assert!(text.contains("without any markup"), "{text}");
        // Literal Algorithm 6 keeps the two non-low windows that end a region, so the first
        // footer link may come along; the menu before the region never does.
        assert!(!text.contains("Menu") && !text.contains("Foot1"), "{text}");
        // With symmetric bounds the region is exactly the article.
        let mut params = Params::defaults(d.params());
        params.set_str(d.params(), "history=symmetric").unwrap();
        let text = p.render(&d.run(&p, &params).selection);
        assert!(text.starts_with("article words"), "{text}");
        assert!(!text.contains("Menu") && !text.contains("Foot"), "{text}");
    }
}
