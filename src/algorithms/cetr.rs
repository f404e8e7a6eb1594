//! `cetr` — Content Extraction via Tag Ratios (Weninger, Hsu & Han 2010), as given in
//! Mohammadzadeh (2013), section 3.3.3.1, Algorithm 9 and Figure 3.11.
//!
//! 1. **Preprocessing** (Algorithm 9): script, remark (comment) and style elements are removed
//!    ("these codes are accounted for non-tag text"), then the document is read line by line.
//! 2. **Tag ratio per line** (Algorithm 9): `x` = non-tag characters of line `i`, `y` = tags of
//!    line `i` (`y = 0` counts as 1), `T_i = x / y` (Figure 3.11: `<div id="author">James
//!    Smith</div>` has 11 text characters and 2 tags, `TR = 5.5`).
//! 3. **Gaussian smoothing** of the histogram T ("this function can prevent removing short
//!    paragraph lines which might be a part of the main content, such as the page title"):
//!    `T'` = T convolved with a Gaussian of standard deviation σ (parameter `sigma`).
//! 4. **Clustering** of the lines "into the content and the non-content area" by k-means
//!    (MacQueen). The thesis does not say over what; cescope follows the CETR paper's final
//!    model (parameter `method`):
//!    - `2d` (default, the CETR paper's 2-D model): each line is the point `(T'_i, G_i)` where
//!      `G_i = |mean(T'_{i+1} … T'_{i+α}) − T'_i|` is the absolute smoothed derivative over a
//!      window of α lines (parameter `alpha`, 3 as in the CETR paper); k-means with `k`
//!      clusters (3); the cluster whose centroid is nearest the origin is non-content, every
//!      other cluster is content.
//!    - `1d` (the paper's CETR-KM): the same on `T'_i` alone.
//!    - `threshold` (the paper's CETR-TM): a line is content when `T'_i > λ·σ(T')`, σ(T') the
//!      standard deviation of the smoothed ratios (parameter `lambda`).
//! 5. **Extraction**: the content text of the content lines.
//!
//! Choices where the thesis is silent (documented, tested):
//! - **Lines** (parameter `lines`): `virtual` (default): cescope's virtual lines
//!   ([`crate::page::lines`]: scripts, styles and comments removed, every block-level tag on a
//!   line of its own, white-space-only lines never made), so a minified one-line page and its
//!   pretty-printed twin give the same extraction, as every line-based algorithm of cescope
//!   does (the original has a single point for a one-line page). `raw`: as the original, the
//!   physical lines of the source after the removal; lines left with neither text nor tags
//!   (empty or white space, or only scripts / styles / comments) are dropped from the
//!   histogram, so smoothing and the derivative look across them.
//! - **Non-tag characters**: the content text of the line with character references decoded
//!   and white space collapsed as a browser does (a run between two characters of one text run
//!   counts 1, leading and trailing runs 0; [`crate::page::lines::content_chars`]), so
//!   indentation does not count; "James Smith" is 11 as in Figure 3.11.
//! - **Tags**: start and end tags, doctypes and CDATA sections, each counted once on the line
//!   where it starts (a tag spread over several lines counts on its first).
//! - **Smoothing**: σ = 1 line by default (the value of the public reimplementation in the
//!   `dragnet` library), kernel radius ⌈3σ⌉, weights outside the histogram dropped and the rest
//!   renormalised ([`crate::extract::signal::Edge::Renormalize`]). The derivative of the last line, which
//!   has no lines after it, uses the line before it: `|mean(T'_{n−2}, T'_{n−1}) − T'_{n−1}|`.
//! - **k-means seeding**: k-means++ from a fixed seed (parameter `seed`), one run
//!   ([`crate::extract::cluster`]): the same page and parameters always give the same
//!   selection. When all lines fall into one cluster nothing is content.

use std::borrow::Cow;
use std::ops::Range;

use crate::extract::cluster::kmeans;
use crate::extract::signal::{convolve, gaussian_kernel, Edge};
use crate::extract::trace::{runs, Agg, Marks, Phase, Role, Scalar, Series, Trace, Unit};
use crate::extract::{AlgoInfo, Choice, StaticInfo};
use crate::extract::{Extraction, Extractor, ParamKind, ParamSpec, ParamValue, Params};
use crate::page::lex::ByteClass;
use crate::page::lines::raw_lines;
use crate::page::lines::{content_chars, is_removed};
use crate::page::Page;
use crate::selection::Selection;

/// The line unit (see the module documentation).
pub const LINES_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("lines"),
    kind: ParamKind::Choice {
        choices: <Lines as Choice>::NAMES,
    },
    default: ParamValue::choice("virtual"),
    help: "virtual: cescope's virtual lines (layout-independent); raw: the source's physical lines, empty ones dropped (as the original)",
    source: "Weninger et al. 2010; Mohammadzadeh 2013, Algorithm 9 (line by line); virtual lines: cescope's choice",
};

/// The clustering model.
pub const METHOD_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("method"),
    kind: ParamKind::Choice {
        choices: <Method as Choice>::NAMES,
    },
    default: ParamValue::choice("2d"),
    help: "2d: k-means on (smoothed ratio, absolute derivative); 1d: k-means on the smoothed ratio (CETR-KM); threshold: ratio > lambda * std (CETR-TM)",
    source: "Weninger et al. 2010 (2-D model, CETR-KM, CETR-TM); Mohammadzadeh 2013, 3.3.3.1 (k-means)",
};

/// σ of the Gaussian smoothing, in lines.
pub const SIGMA_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("sigma"),
    kind: ParamKind::Float {
        min: 0.0,
        max: 10.0,
        step: 0.5,
    },
    default: ParamValue::Float(1.0),
    help: "standard deviation (lines) of the Gaussian smoothing of the tag ratios; 0 = no smoothing",
    source: "Mohammadzadeh 2013, 3.3.3.1 (Gaussian smoothing); value 1 as the dragnet reimplementation (thesis silent)",
};

/// α, the derivative window of the 2-D model, in lines.
pub const ALPHA_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("alpha"),
    kind: ParamKind::Int {
        min: 1,
        max: 20,
        step: 1,
    },
    default: ParamValue::Int(3),
    help: "lines after line i averaged for the absolute derivative G_i (2d model)",
    source: "Weninger et al. 2010, 2-D model, alpha = 3",
};

/// k, the number of k-means clusters.
pub const K_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("k"),
    kind: ParamKind::Int {
        min: 2,
        max: 10,
        step: 1,
    },
    default: ParamValue::Int(3),
    help: "k-means clusters; the one nearest the origin is non-content (2d, 1d)",
    source: "Weninger et al. 2010, k = 3; Mohammadzadeh 2013, 3.3.3.1 (k-means)",
};

/// λ of the threshold method.
pub const LAMBDA_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("lambda"),
    kind: ParamKind::Float {
        min: 0.0,
        max: 5.0,
        step: 0.1,
    },
    default: ParamValue::Float(1.0),
    help: "threshold method: a line is content when its smoothed ratio exceeds lambda * std of the smoothed ratios",
    source: "Weninger et al. 2010, CETR-TM (tau = lambda * sigma); default 1: cescope's choice",
};

/// Seed of the k-means++ initialisation.
pub const SEED_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("seed"),
    kind: ParamKind::Int {
        min: 0,
        max: 1_000_000,
        step: 1,
    },
    default: ParamValue::Int(42),
    help: "seed of the k-means++ initialisation (the same seed gives the same clusters)",
    source: "cescope's choice (determinism)",
};

crate::choice_enum! {
    /// The lines CETR measures ([`LINES_SPEC`]).
    pub enum Lines {
        /// cescope's virtual lines.
        Virtual = "virtual",
        /// The physical lines of the source.
        Raw = "raw",
    }
}

crate::choice_enum! {
    /// How lines are classified ([`METHOD_SPEC`]).
    pub enum Method {
        /// k-means over (smoothed ratio, derivative), Algorithm 2.
        TwoD = "2d",
        /// k-means over the smoothed ratio alone.
        OneD = "1d",
        /// The smoothed ratio above lambda times its standard deviation.
        Threshold = "threshold",
    }
}

crate::typed_params! {
    /// CETR's parameters (Weninger, Hsu & Han 2010).
    pub struct CetrParams {
        /// How lines are classified.
        pub method: Method = METHOD_SPEC,
        /// The lines measured.
        pub lines: Lines = LINES_SPEC,
        /// The Gaussian smoothing's sigma.
        pub sigma: f64 = SIGMA_SPEC,
        /// The derivative's window.
        pub alpha: i64 = ALPHA_SPEC,
        /// The number of clusters.
        pub k: i64 = K_SPEC,
        /// The threshold method's factor.
        pub lambda: f64 = LAMBDA_SPEC,
        /// The k-means seed.
        pub seed: i64 = SEED_SPEC,
    }
}

/// CETR, registered as `cetr`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cetr;

/// Step 2 of the module documentation for one page: the kept lines and their counts.
#[derive(Debug, Clone, PartialEq)]
pub struct TagRatios {
    /// [`Unit::RawLine`] or [`Unit::VirtualLine`].
    pub unit: Unit,
    /// Number of lines of the unit on the page (kept or not).
    pub units: usize,
    /// The kept lines (indices into the unit), ascending; the histogram's x axis.
    pub lines: Vec<usize>,
    /// Non-tag characters of each kept line (chars, white space collapsed).
    pub text: Vec<u32>,
    /// Tags of each kept line.
    pub tags: Vec<u32>,
    /// `T_i = text / max(tags, 1)` of each kept line (Algorithm 9).
    pub ratio: Vec<f64>,
    /// Byte range of each kept line.
    pub ranges: Vec<Range<usize>>,
}

fn finish(unit: Unit, ranges_all: &[Range<usize>], x: &[u32], y: &[u32]) -> TagRatios {
    let mut t = TagRatios {
        unit,
        units: ranges_all.len(),
        lines: Vec::new(),
        text: Vec::new(),
        tags: Vec::new(),
        ratio: Vec::new(),
        ranges: Vec::new(),
    };
    for i in 0..ranges_all.len() {
        if x[i] > 0 || y[i] > 0 {
            t.lines.push(i);
            t.text.push(x[i]);
            t.tags.push(y[i]);
            t.ratio.push(x[i] as f64 / y[i].max(1) as f64);
            t.ranges.push(ranges_all[i].clone());
        }
    }
    t
}

/// Algorithm 9 over the physical lines of the page ([`raw_lines`]) after removing scripts,
/// styles and comments; lines with neither text nor tags are dropped. O(n).
pub fn raw_tag_ratios(page: &Page) -> TagRatios {
    let text = page.text();
    let lines = raw_lines(text);
    let n = lines.len();
    let (mut x, mut y) = (vec![0u32; n], vec![0u32; n]);
    let mut li = 0;
    for s in &page.lexed().spans {
        if is_removed(s) {
            continue;
        }
        let r = s.range();
        while li + 1 < n && lines[li].end <= r.start {
            li += 1;
        }
        match s.class {
            ByteClass::Text => {
                let (mut start, mut l) = (r.start, li);
                while start < r.end && l < n {
                    let end = r.end.min(lines[l].end);
                    x[l] += content_chars(&text[start..end]);
                    start = end;
                    l += 1;
                }
            }
            ByteClass::Tag | ByteClass::Declaration | ByteClass::Cdata => y[li] += 1,
            _ => {}
        }
    }
    finish(Unit::RawLine, &lines, &x, &y)
}

/// Algorithm 9 over the page's virtual lines ([`Page::lines`]; scripts, styles and comments are
/// already removed there). O(n).
pub fn virtual_tag_ratios(page: &Page) -> TagRatios {
    let vl = &page.lines().lines;
    let spans = &page.lexed().spans;
    let ranges: Vec<Range<usize>> = vl.iter().map(|l| l.range()).collect();
    let x: Vec<u32> = vl.iter().map(|l| l.content).collect();
    let y: Vec<u32> = vl
        .iter()
        .map(|l| {
            spans[l.span_range()]
                .iter()
                .filter(|s| {
                    !is_removed(s)
                        && matches!(
                            s.class,
                            ByteClass::Tag | ByteClass::Declaration | ByteClass::Cdata
                        )
                })
                .count() as u32
        })
        .collect();
    finish(Unit::VirtualLine, &ranges, &x, &y)
}

/// Gaussian smoothing of the tag ratios: standard deviation `sigma` (lines), radius ⌈3σ⌉,
/// renormalised at the ends ([`crate::extract::signal`]). `sigma <= 0` returns the input.
pub fn smooth(ratio: &[f64], sigma: f64) -> Vec<f64> {
    if sigma.is_nan() || sigma <= 0.0 {
        return ratio.to_vec();
    }
    let radius = (3.0 * sigma).ceil() as usize;
    convolve(ratio, &gaussian_kernel(radius, sigma), Edge::Renormalize)
}

/// The absolute smoothed derivative of the 2-D model: `G_i = |mean(T'_{i+1..=i+α}) − T'_i|`
/// (the window clipped at the end); the last line uses `|mean(T'_{n−2}, T'_{n−1}) − T'_{n−1}|`;
/// a single line has `G = 0`. Same length as `s`. O(n).
pub fn derivative(s: &[f64], alpha: usize) -> Vec<f64> {
    let n = s.len();
    let alpha = alpha.max(1);
    // prefix[i] = s[0] + … + s[i-1].
    let mut prefix = Vec::with_capacity(n + 1);
    prefix.push(0.0);
    for v in s {
        prefix.push(prefix.last().copied().unwrap_or(0.0) + v);
    }
    (0..n)
        .map(|i| {
            let (a, b) = if i + 1 < n {
                (i + 1, (i + 1 + alpha).min(n))
            } else {
                (i.saturating_sub(1), n)
            };
            ((prefix[b] - prefix[a]) / (b - a) as f64 - s[i]).abs()
        })
        .collect()
}

fn std_dev(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let m = v.iter().sum::<f64>() / v.len() as f64;
    (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len() as f64).sqrt()
}

const PHASES: &[Phase] = &[
            Phase::new("preprocessing", "scripts, remarks (comments) and styles removed; lines with neither text nor tags dropped (Algorithm 9)", &["kept_lines"]),
            Phase::new("tag ratios", "per line: non-tag characters x (right), tags y (left), T = x / max(y, 1) (Algorithm 9, Figure 3.11)", &["text", "tags", "ratio"]),
            Phase::new("smoothing", "T' = T convolved with a Gaussian of standard deviation sigma lines", &["smoothed"]),
            Phase::new("derivative", "G_i = |mean(T'_{i+1..i+alpha}) - T'_i|, the absolute smoothed derivative (2-D model)", &["derivative"]),
            Phase::new("clustering", "k-means on (T', G) (or T' alone; or T' > lambda * std(T')): the cluster nearest the origin is non-content", &["cluster", "clusters"]),
            Phase::new("extraction", "the content text of the lines in content clusters is the main content", &["content"]),
        ];

static INFO: AlgoInfo = AlgoInfo::new(
    "cetr",
    "CETR: tag ratio per line, Gaussian smoothing, k-means into content / non-content (Weninger et al. 2010; Mohammadzadeh 2013, 3.3.3.1, Algorithm 9)",
    "Weninger et al. 2010; Mohammadzadeh 2013, 3.3.3.1, Algorithm 9",
    CetrParams::SPECS,
    PHASES,
);

impl StaticInfo for Cetr {
    const INFO: &'static AlgoInfo = &INFO;
}

impl Extractor for Cetr {
    /// Trace (unit: virtual or raw lines, parameter `lines`; dropped lines hold 0): `text`
    /// (content signal, non-tag chars), `tags` (code signal, tags), `ratio` (size, `T`),
    /// `smoothed` (combined signal, `T'`), `derivative` (info, `G`), `cluster` (label: cluster
    /// number, 0 = nearest the origin = non-content, −1 for dropped lines; threshold method: 1
    /// content, 0 not), `kept_lines` (candidates: lines with text or tags), `content` (selected), scalars
    /// `clusters` (info, clusters made) and, for the threshold method, `tau` (threshold; no phase
    /// names it, so step mode shows it at the last phase).
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let p = CetrParams::read(params);
        let tr = match p.lines {
            Lines::Raw => raw_tag_ratios(page),
            Lines::Virtual => virtual_tag_ratios(page),
        };
        let smoothed = smooth(&tr.ratio, p.sigma);
        let alpha = p.alpha.max(1) as usize;
        let g = derivative(&smoothed, alpha);
        let k = p.k.max(1) as usize;
        let seed = p.seed.max(0) as u64;
        let n = tr.lines.len();

        let mut scalars = Vec::new();
        let (labels, content): (Vec<usize>, Vec<bool>) = match p.method {
            Method::Threshold => {
                let tau = p.lambda * std_dev(&smoothed);
                scalars.push(Scalar::new(
                    "tau",
                    "threshold tau = lambda * std(T')",
                    None,
                    Role::Threshold,
                    tau,
                ));
                let c: Vec<bool> = smoothed.iter().map(|&v| v > tau).collect();
                let made = c.iter().any(|&b| b) as usize + c.iter().any(|&b| !b) as usize;
                scalars.push(Scalar::new(
                    "clusters",
                    "classes made (content / non-content)",
                    None,
                    Role::Info,
                    made as f64,
                ));
                (c.iter().map(|&b| b as usize).collect(), c)
            }
            m @ (Method::OneD | Method::TwoD) => {
                let (points, dim) = if m == Method::OneD {
                    (smoothed.clone(), 1)
                } else {
                    let mut p = Vec::with_capacity(2 * n);
                    for (a, b) in smoothed.iter().zip(&g) {
                        p.push(*a);
                        p.push(*b);
                    }
                    (p, 2)
                };
                let cl = kmeans(&points, dim, k, seed);
                scalars.push(Scalar::new(
                    "clusters",
                    "k-means clusters made",
                    None,
                    Role::Info,
                    cl.centroids.len() as f64,
                ));
                let c = cl.labels.iter().map(|&l| l != 0).collect();
                (cl.labels, c)
            }
        };

        let selection = page.normalize(&Selection::from_ranges(
            (0..n).filter(|&i| content[i]).map(|i| tr.ranges[i].clone()),
        ));

        let spread = |v: &dyn Fn(usize) -> f64, dropped: f64| -> Vec<f64> {
            let mut out = vec![dropped; tr.units];
            for (j, &line) in tr.lines.iter().enumerate() {
                out[line] = v(j);
            }
            out
        };
        let unit = tr.unit;
        let trace = Trace {
            series: vec![
                Series::new(
                    "text",
                    "x: non-tag chars",
                    unit,
                    Role::ContentSignal,
                    spread(&|j| tr.text[j] as f64, 0.0),
                ),
                Series::new(
                    "tags",
                    "y: tags",
                    unit,
                    Role::CodeSignal,
                    spread(&|j| tr.tags[j] as f64, 0.0),
                ),
                Series::new(
                    "ratio",
                    "tag ratio T = x / max(y, 1)",
                    unit,
                    Role::Size,
                    spread(&|j| tr.ratio[j], 0.0),
                )
                .with_agg(Agg::Max),
                Series::new(
                    "smoothed",
                    "smoothed ratio T'",
                    unit,
                    Role::CombinedSignal,
                    spread(&|j| smoothed[j], 0.0),
                )
                .with_agg(Agg::Max),
                Series::new(
                    "derivative",
                    "absolute derivative G",
                    unit,
                    Role::Info,
                    spread(&|j| g[j], 0.0),
                )
                .with_agg(Agg::Max),
                Series::new(
                    "cluster",
                    "cluster (0 = non-content)",
                    unit,
                    Role::Label,
                    spread(&|j| labels[j] as f64, -1.0),
                ),
            ],
            scalars,
            marks: vec![
                Marks::new(
                    "kept_lines",
                    "lines with text or tags",
                    unit,
                    Role::Candidates,
                    runs(tr.lines.iter().copied()),
                ),
                Marks::new(
                    "content",
                    "content lines",
                    unit,
                    Role::Selected,
                    runs((0..n).filter(|&i| content[i]).map(|i| tr.lines[i])),
                ),
            ],
            positions: Vec::new(),
        };
        Extraction { selection, trace }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
    }

    /// The snippet of Figure 3.11, with line 4 and 5 texts of known length.
    const SNIPPET: &str = "<div id=\"topnav\">\n\
        <div id=\"storyPageContent2\">\n\
        <div id=\"author\">James Smith</div>\n\
        OKLAHOMA CITY - Police were told that\n\
        The Oklahoman reported Sunday. <br><br> Jones had\n\
        </div></div>\n";

    #[test]
    fn tag_ratios_of_figure_3_11() {
        let p = Page::from_text("t.html", SNIPPET);
        let tr = raw_tag_ratios(&p);
        assert_eq!(tr.lines, vec![0, 1, 2, 3, 4, 5]);
        // 1: one tag, no text; 2: the same; 3: "James Smith" = 11 chars, 2 tags;
        // 4: "OKLAHOMA CITY - Police were told that" = 8+1+4+1+1+1+6+1+4+1+4+1+4 = 37, no tag
        // (y = 0 counts 1); 5: "The Oklahoman reported Sunday." = 30 and "Jones had" = 9 in
        // two text runs (the run " " between the br tags counts nothing, the leading space of
        // " Jones had" neither) = 39, two tags; 6: two end tags.
        assert_eq!(tr.text, vec![0, 0, 11, 37, 39, 0]);
        assert_eq!(tr.tags, vec![1, 1, 2, 0, 2, 2]);
        assert!(close(&tr.ratio, &[0.0, 0.0, 5.5, 37.0, 19.5, 0.0]));
    }

    #[test]
    fn scripts_styles_comments_and_empty_lines_are_dropped() {
        let html = "<p>a b</p>\n\n   \n<script>\nvar x = 1;\n</script>\n<!-- c\nc -->\n<style>p{}</style>\n<p>cd</p>";
        let p = Page::from_text("t.html", html);
        let tr = raw_tag_ratios(&p);
        // Raw lines 0 `<p>a b</p>` (3 chars "a b", 2 tags) and 9 `<p>cd</p>` (2, 2) remain.
        assert_eq!(tr.lines, vec![0, 9]);
        assert_eq!((tr.text.clone(), tr.tags.clone()), (vec![3, 2], vec![2, 2]));
        assert!(close(&tr.ratio, &[1.5, 1.0]));
        // Virtual lines: `<p>`, `a b`, `</p>`, `<p>`, `cd`, `</p>` (scripts etc. joined away).
        let v = virtual_tag_ratios(&p);
        assert_eq!(v.text, vec![0, 3, 0, 0, 2, 0]);
        assert_eq!(v.tags, vec![1, 0, 1, 1, 0, 1]);
    }

    #[test]
    fn smoothing_and_derivative_by_hand() {
        // sigma = 1, radius 3: weights w_j ∝ exp(-j²/2), j = -3..3. An impulse at line 6 of 13
        // gives the kernel itself on lines 3..=9 (where the kernel lies inside the histogram).
        let w = gaussian_kernel(3, 1.0);
        let mut x = [0.0; 13];
        x[6] = 1.0;
        let s = smooth(&x, 1.0);
        assert!(close(&s[3..10], &w));
        // w_1 / w_0 = exp(-1/2); line 0 is out of the impulse's reach.
        assert!((s[7] / s[6] - (-0.5f64).exp()).abs() < 1e-12);
        assert_eq!(s[0], 0.0);
        // At the ends the weights inside are renormalised: an impulse at line 0 of 2 lines
        // gives w_0 / (w_0 + w_1) and w_1 / (w_0 + w_1) (w_{-1}.. fall outside).
        let s = smooth(&[1.0, 0.0], 1.0);
        let e = (-0.5f64).exp();
        assert!(close(&s, &[1.0 / (1.0 + e), e / (1.0 + e)]));
        assert_eq!(smooth(&[1.0, 5.0], 0.0), vec![1.0, 5.0]);
        // G with alpha = 2 on T' = [1, 3, 5, 5]:
        // G0 = |(3+5)/2 - 1| = 3; G1 = |(5+5)/2 - 3| = 2; G2 = |5 - 5| = 0 (window clipped);
        // G3 (last) = |(5+5)/2 - 5| = 0.
        assert!(close(
            &derivative(&[1.0, 3.0, 5.0, 5.0], 2),
            &[3.0, 2.0, 0.0, 0.0]
        ));
        // Last line after a jump: |(2+4)/2 - 4| = 1.
        assert!(close(&derivative(&[2.0, 4.0], 3), &[2.0, 1.0]));
        assert!(close(&derivative(&[7.0], 3), &[0.0]));
        assert!(derivative(&[], 3).is_empty());
    }

    fn page_with_article() -> String {
        let mut html = String::from("<html><body>\n");
        for i in 0..12 {
            html.push_str(&format!(
                "<div class=\"nav\"><ul><li><a href=\"/{i}\">Menu {i}</a></li></ul></div>\n"
            ));
        }
        for i in 0..8 {
            html.push_str(&format!(
                "<p>Paragraph {i} of the article has a good many words of running text in it, \
                 enough to stand well above every line of the menu.</p>\n"
            ));
        }
        for i in 0..12 {
            html.push_str(&format!(
                "<div class=\"foot\"><span><a href=\"/f{i}\">Footer {i}</a></span></div>\n"
            ));
        }
        html.push_str("</body></html>\n");
        html
    }

    #[test]
    fn extracts_the_article_lines_with_every_method() {
        let html = page_with_article();
        let p = Page::from_text("t.html", html.as_str());
        for (method, lines) in [
            ("2d", "raw"),
            ("1d", "raw"),
            ("threshold", "raw"),
            ("2d", "virtual"),
        ] {
            let mut params = Params::defaults(CetrParams::SPECS);
            params
                .set(&METHOD_SPEC, ParamValue::choice(method))
                .unwrap();
            params.set(&LINES_SPEC, ParamValue::choice(lines)).unwrap();
            let x = Cetr.run(&p, &params);
            x.trace.validate(&p).unwrap();
            assert!(p.is_normal(&x.selection));
            let text = p.render(&x.selection);
            for i in 0..8 {
                assert!(
                    text.contains(&format!("Paragraph {i} of the article")),
                    "{method}/{lines}: {text}"
                );
            }
            assert!(!text.contains("Menu 0"), "{method}/{lines}: {text}");
            assert!(!text.contains("Footer 11"), "{method}/{lines}: {text}");
            // Deterministic.
            assert_eq!(x, Cetr.run(&p, &params));
        }
    }

    #[test]
    fn empty_and_tagless_pages() {
        for html in ["", "   \n  ", "just text", "<p></p>"] {
            let p = Page::from_text("t.html", html);
            let x = Cetr.run(&p, &Params::defaults(CetrParams::SPECS));
            x.trace.validate(&p).unwrap();
            assert!(p.is_normal(&x.selection));
        }
    }
}
