//! `ccb`, `accb`, `tccb` — Content Code Blurring (Gottron 2008), as given in Mohammadzadeh
//! (2013), section 3.3.1.3 and Algorithm 7, with the parameters of Gottron (2009), section 5.2
//! and Tables 2–3.
//!
//! 1. **Content code vector (CCV).** Every character of the page that is not white space and
//!    not part of a comment, script or style gets one element: 0 when it is inside a tag, 1
//!    otherwise (Algorithm 7, first loop). TCCB builds the vector over tokens instead of
//!    characters ([`crate::page::tokens`]: a tag token is 0, a word token 1).
//! 2. **Blurring.** The vector is convolved with a Gaussian weight vector `w` of length
//!    `2r + 1` (Algorithm 7's `2δ + 1`, δ = r, the "r elements on the right and r elements on
//!    the left" of thesis 3.3.1.3), again and again "until no change is seen in CCV elements";
//!    the result is the content code ratio (CCR).
//! 3. **Extraction.** The content characters (TCCB: words) whose CCR exceeds the threshold `t`
//!    are the main content; every other content character is masked (Algorithm 7, last loop).
//!
//! The variants (registered separately, same code):
//! - `ccb` — characters, every tag counts as code.
//! - `accb` — "In ACCB, all anchor-tags are ignored during the creation of the CCV" (thesis
//!   3.3.1.3): the characters of `<a …>` and `</a>` get no element, so links inside a paragraph
//!   do not break it up while the link text still counts as content. Parameter `anchors` also
//!   offers `filter1`, the thesis' reading in 4.6.1.1 (Algorithm 2, Filter 1 of
//!   [`super::preprocess`]): the whole hyperlink, text included, is removed before the vector
//!   is built (so link text is never main content).
//! - `tccb` — tokens (Gottron 2009, section 5.2).
//!
//! Choices where the sources are silent (each a parameter where a user could want another):
//! - **σ of the Gaussian** (`sigma`, as a fraction of r; default 0.333, i.e. σ ≈ 13
//!   characters for ACCB's r = 40): neither source gives it. With σ = r/3 the weight vector of
//!   `2r + 1` elements spans ±3σ, 99.7 % of the Gaussian's mass — the usual truncation of a
//!   sampled Gaussian, so `r` alone sets the reach. (σ = r/2, a flatter kernel cut off at
//!   e^(−2) of its peak, gave a lower word F1 on both scrapinghub-dev and readability for all
//!   three variants; see the README.)
//! - **Stop criterion** (`epsilon`, default 0.01; `max_iter`, default 100): iterated blurring of
//!   a finite vector converges to a constant (the page's mean), so "until no change" taken
//!   literally would blur the whole page flat, and in floating point it would take thousands of
//!   passes. cescope stops after the first pass in which no element changes by more than
//!   `epsilon` — i.e. when the values have settled to two decimals, the precision at which `t`
//!   is set — or after `max_iter` passes. For a step between code and content the largest
//!   change per pass falls roughly as 0.12 / k after k passes whatever σ is, so ε = 0.01 stops
//!   after about a dozen passes (an effective blur of σ·√k ≈ 3.5σ). A smaller ε blurs the
//!   page much further (ε = 0.001 lowered F1 by 0.1–0.15 on scrapinghub-dev).
//! - **Ends of the page**: the weights that fall outside the vector are dropped and the rest
//!   renormalised ([`Edge::Renormalize`]), so content at the very start or end is not diluted
//!   by imaginary code.
//! - **"Resolved entities"**: a character reference (`&amp;`, `&#160;`, `&#x41;`, with its `;`)
//!   is one character; one that decodes to white space (`&nbsp;`) is white space.
//! - **White space** is Unicode white space (`char::is_whitespace`), inside tags too.
//!   Declarations (`<!DOCTYPE …>`) and CDATA sections get no element, like comments: the
//!   thesis' preprocessing (2.1.3) removes them; so do the `<script>` / `<style>` tags
//!   themselves with their bodies ([`crate::page::lines::is_removed`]).
//! - The selection is every run of content elements above `t`, from the first byte of its first
//!   to the last byte of its last element (the white space and tags in between, which normal
//!   form then drops); a content element at or below `t` ends a run, code elements do not.
//!
//! **Speed.** Each pass is an exact `2r + 1`-tap convolution computed by
//! [`signal::convolve_fast_into`] (register-blocked and vectorised, the symmetric kernel
//! folded; equal to the plain loop up to rounding, tested), about `r + 1` multiplications and
//! `2r + 1` additions per element and pass; the data-driven stop criterion needs 10–25 passes
//! on real pages. The thesis measured ACCB at 0.40 MB/s and TCCB at 15.9–17.1 MB/s
//! (Table 4.7); see docs/speed.md for cescope's figures.
//!
//! **Trace.** `ccb` / `accb` (unit virtual line, so the trace stays small on large pages):
//! `ccv` (content signal, content characters per line), `code` (code signal, tag characters per
//! line), `ccr` (combined signal, the largest blurred value of a character on the line), `t`
//! (threshold), `selected` (the runs kept, unit byte). `tccb` (unit token, positions = token
//! byte ranges): `ccv` / `code` 1 per word / tag token, `ccr` per token, `selected` token runs.
//! Scalars `iterations` and `change` (the passes made and the
//! largest change in the last one) and `sigma` (σ in elements) are informational.

use std::borrow::Cow;
use std::ops::Range;

use super::preprocess::{link_filter, LinkFilter};
use super::signal::{self, Edge};
use super::trace::{Agg, Marks, Phase, Positions, Role, Scalar, Series, Trace, Unit};
use super::{AlgoInfo, Algorithm, Choice};
use super::{Extraction, Extractor, ParamKind, ParamSpec, ParamValue, Params};
use crate::page::lex::{ByteClass, Tag};
use crate::page::lines::is_removed;
use crate::page::tokens::TokenKind;
use crate::page::Page;
use crate::selection::Selection;

const fn r_spec(default: i64, help: &'static str, source: &'static str) -> ParamSpec {
    ParamSpec {
        name: Cow::Borrowed("r"),
        kind: ParamKind::Int {
            min: 1,
            max: 200,
            step: 1,
        },
        default: ParamValue::Int(default),
        help,
        source,
    }
}

/// The neighbourhood `r` of CCB (characters): Gottron 2009 gives r = 40 for ACCB; the thesis
/// gives no separate value for plain CCB, so it shares ACCB's.
pub const R_CCB: ParamSpec = r_spec(
    40,
    "neighbourhood: the Gaussian weight vector has 2r + 1 elements (characters)",
    "Mohammadzadeh 2013, 3.3.1.3, Algorithm 7 (2δ + 1); r = 40 as for ACCB (Gottron 2009, 5.2)",
);

/// The neighbourhood `r` of ACCB (characters; Gottron 2009, section 5.2 and Table 2: r = 40).
pub const R_ACCB: ParamSpec = r_spec(
    40,
    "neighbourhood: the Gaussian weight vector has 2r + 1 elements (characters)",
    "Gottron 2009, 5.2 and Tables 2-3 (ACCB r = 40); Mohammadzadeh 2013, Table 4.7 (ACCB-40)",
);

/// The neighbourhood `r` of TCCB (tokens; Gottron 2009, section 5.2: r = 25; Table 3 also
/// studies 16, 18, 23, 24).
pub const R_TCCB: ParamSpec = r_spec(
    25,
    "neighbourhood: the Gaussian weight vector has 2r + 1 elements (tokens)",
    "Gottron 2009, 5.2 and Tables 2-3 (TCCB r = 25; 18 also studied); Mohammadzadeh 2013, Table 4.7 (TCCB-18/25)",
);

/// The threshold `t` on the content code ratio (Gottron 2009, section 5.2: t = 0.75).
pub const T_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("t"),
    kind: ParamKind::Float {
        min: 0.0,
        max: 1.0,
        step: 0.01,
    },
    default: ParamValue::Float(0.75),
    help: "content elements whose blurred ratio (CCR) exceeds t are main content",
    source: "Gottron 2009, 5.2 and Tables 2-3 (t = 0.75); Mohammadzadeh 2013, Algorithm 7",
};

/// σ of the Gaussian weights as a fraction of `r` (the sources give none; see the module
/// documentation).
pub const SIGMA_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("sigma"),
    kind: ParamKind::Float {
        min: 0.05,
        max: 4.0,
        step: 0.05,
    },
    default: ParamValue::Float(0.333),
    help: "σ of the Gaussian weights as a fraction of r (0.333: the 2r + 1 weights span ±3σ)",
    source: "cescope's choice; Mohammadzadeh 2013, 3.3.1.3 (\"Gaussian distribution function\") gives no σ",
};

/// The stop criterion: stop after the first pass that changes no element by `epsilon` or more.
pub const EPSILON_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("epsilon"),
    kind: ParamKind::Float {
        min: 0.0001,
        max: 0.5,
        step: 0.001,
    },
    default: ParamValue::Float(0.01),
    help: "stop blurring after a pass in which no element changed by epsilon or more",
    source: "cescope's reading of \"until no change is seen\", Mohammadzadeh 2013, 3.3.1.3 and Algorithm 7 (stop criterion SC)",
};

/// The most blurring passes (a cap on the stop criterion).
pub const MAX_ITER_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("max_iter"),
    kind: ParamKind::Int {
        min: 1,
        max: 200,
        step: 1,
    },
    default: ParamValue::Int(100),
    help: "at most this many blurring passes",
    source: "cescope's choice (a cap on Algorithm 7's stop criterion)",
};

const ANCHORS_HELP: &str = "keep: anchor tags are code; ignore-tags: anchor tags get no element (ACCB); filter1: hyperlinks with their text are removed (Filter 1)";

/// What happens to hyperlinks when the character vector is built: `keep` (plain CCB),
/// `ignore-tags` (ACCB, thesis 3.3.1.3), `filter1` (the hyperlink with its text removed,
/// thesis 4.6.1.1, Algorithm 2).
pub const ANCHORS_CCB: ParamSpec = ParamSpec {
    name: Cow::Borrowed("anchors"),
    kind: ParamKind::Choice {
        choices: <Anchors as Choice>::NAMES,
    },
    default: ParamValue::choice("keep"),
    help: ANCHORS_HELP,
    source: "Mohammadzadeh 2013, 3.3.1.3 (CCB); 4.6.1.1, Algorithm 2 (Filter 1)",
};

/// [`ANCHORS_CCB`] with ACCB's default, `ignore-tags`.
pub const ANCHORS_ACCB: ParamSpec = ParamSpec {
    name: Cow::Borrowed("anchors"),
    kind: ParamKind::Choice {
        choices: <Anchors as Choice>::NAMES,
    },
    help: ANCHORS_HELP,
    default: ParamValue::choice("ignore-tags"),
    source: "Mohammadzadeh 2013, 3.3.1.3 (\"In ACCB, all anchor-tags are ignored during the creation of the CCV\"); 4.6.1.1, Algorithm 2 (Filter 1)",
};

crate::choice_enum! {
    /// How hyperlinks enter the character vector (parameter `anchors`).
    pub enum Anchors {
        /// Anchor tags are code like every tag (CCB).
        Keep = "keep",
        /// Anchor tags get no element; their text is content (ACCB, thesis 3.3.1.3).
        IgnoreTags = "ignore-tags",
        /// Whole hyperlinks, text included, get no element (Filter 1, thesis Algorithm 2).
        Filter1 = "filter1",
    }
}

/// Which member of the family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Content Code Blurring over characters.
    CcbFamily,
    /// Adapted CCB: characters, anchor tags ignored.
    Accb,
    /// Token-based CCB.
    Tccb,
}

/// The Content Code Blurring family (see the module documentation).
#[derive(Debug, Clone)]
pub struct CcbFamily {
    variant: Variant,
}

impl CcbFamily {
    /// CCB, registered as `ccb`.
    pub fn ccb() -> Self {
        CcbFamily {
            variant: Variant::CcbFamily,
        }
    }

    /// ACCB, registered as `accb`.
    pub fn accb() -> Self {
        CcbFamily {
            variant: Variant::Accb,
        }
    }

    /// TCCB, registered as `tccb`.
    pub fn tccb() -> Self {
        CcbFamily {
            variant: Variant::Tccb,
        }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }
}

/// The parameters of one run of a [`CcbFamily`] member, read once ([`CcbParams::read`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CcbParams {
    /// The neighbourhood `r` (characters; TCCB: tokens).
    pub r: usize,
    /// The threshold `t` on the content code ratio.
    pub t: f64,
    /// σ of the Gaussian as a fraction of `r`.
    pub sigma: f64,
    /// The stop criterion.
    pub epsilon: f64,
    /// The most blurring passes.
    pub max_iter: usize,
    /// How hyperlinks enter the character vector (TCCB: not used, [`Anchors::Keep`]).
    pub anchors: Anchors,
}

impl CcbParams {
    /// The values of `params` for `variant` (each absent one: its spec's default).
    pub fn read(variant: Variant, params: &Params) -> CcbParams {
        let (r, anchors) = match variant {
            Variant::CcbFamily => (&R_CCB, Some(&ANCHORS_CCB)),
            Variant::Accb => (&R_ACCB, Some(&ANCHORS_ACCB)),
            Variant::Tccb => (&R_TCCB, None),
        };
        CcbParams {
            r: params.read::<i64>(r).max(1) as usize,
            t: params.read(&T_SPEC),
            sigma: params.read(&SIGMA_SPEC),
            epsilon: params.read(&EPSILON_SPEC),
            max_iter: params.read::<i64>(&MAX_ITER_SPEC).max(1) as usize,
            anchors: anchors.map_or(Anchors::Keep, |a| params.read(a)),
        }
    }
}

const CCB_SPECS: &[ParamSpec] = &[
    R_CCB,
    T_SPEC,
    SIGMA_SPEC,
    EPSILON_SPEC,
    MAX_ITER_SPEC,
    ANCHORS_CCB,
];
const ACCB_SPECS: &[ParamSpec] = &[
    R_ACCB,
    T_SPEC,
    SIGMA_SPEC,
    EPSILON_SPEC,
    MAX_ITER_SPEC,
    ANCHORS_ACCB,
];
const TCCB_SPECS: &[ParamSpec] = &[R_TCCB, T_SPEC, SIGMA_SPEC, EPSILON_SPEC, MAX_ITER_SPEC];

/// The content code vector of a page: one element per character (or token) in text order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ccv {
    /// Byte range over the decoded text of each element (a character, a character reference,
    /// or a token); `u32` offsets, as the lexer's (8 bytes per element).
    pub ranges: Vec<Range<u32>>,
    /// 1.0 for content, 0.0 for code, per element.
    pub values: Vec<f64>,
    /// Byte ranges left out of the page before the vector was built (the hyperlinks removed by
    /// Filter 1, [`Anchors::Filter1`]); never part of the selection. Sorted.
    pub removed: Vec<Range<usize>>,
}

impl Ccv {
    fn push(&mut self, r: Range<usize>, content: bool) {
        self.ranges.push(r.start as u32..r.end as u32);
        self.values.push(if content { 1.0 } else { 0.0 });
    }
}

/// The character content code vector of Algorithm 7 (Mohammadzadeh 2013, first loop): one
/// element per character that is not white space and not in a comment, script or style (nor
/// a declaration or CDATA section); 0 inside a tag, 1 outside. A character reference is one
/// character. `anchors` says what happens to hyperlinks ([`Anchors`]). O(text length).
pub fn char_vector(page: &Page, anchors: Anchors) -> Ccv {
    let text = page.text();
    let spans = &page.lexed().spans;
    let removed = match anchors {
        Anchors::Filter1 => link_filter(page, LinkFilter::Filter1).removed,
        _ => Vec::new(),
    };
    let mut k = 0;
    let mut v = Ccv {
        ranges: Vec::with_capacity(text.len() / 2),
        values: Vec::with_capacity(text.len() / 2),
        removed: Vec::new(),
    };
    for s in spans {
        let r = s.range();
        while k < removed.len() && removed[k].end <= r.start {
            k += 1;
        }
        if removed.get(k).is_some_and(|x| x.start <= r.start) {
            continue;
        }
        match s.class {
            ByteClass::Tag => {
                if is_removed(s) || (anchors == Anchors::IgnoreTags && s.tag == Tag::A) {
                    continue;
                }
                for (i, ch) in text[r.clone()].char_indices() {
                    if !ch.is_whitespace() {
                        let at = r.start + i;
                        v.push(at..at + ch.len_utf8(), false);
                    }
                }
            }
            ByteClass::Text => push_text(&mut v, text, r),
            _ => {}
        }
    }
    v.removed = removed;
    v
}

/// Content elements of one text span: characters that are not white space, a character
/// reference counting as the one character it stands for.
fn push_text(v: &mut Ccv, text: &str, r: Range<usize>) {
    let s = &text[r.clone()];
    let mut it = s.char_indices().peekable();
    while let Some((i, ch)) = it.next() {
        if ch == '&' {
            if let Some(len) = reference_len(&s.as_bytes()[i..]) {
                let decoded = htmlize::unescape(&s[i..i + len]);
                if !decoded.chars().all(char::is_whitespace) {
                    v.push(r.start + i..r.start + i + len, true);
                }
                while it.peek().is_some_and(|&(j, _)| j < i + len) {
                    it.next();
                }
                continue;
            }
        }
        if !ch.is_whitespace() {
            v.push(r.start + i..r.start + i + ch.len_utf8(), true);
        }
    }
}

/// The length in bytes of the character reference at the start of `b` (`&name;`, `&#123;`,
/// `&#x1F;`, at most 32 bytes), if there is one.
fn reference_len(b: &[u8]) -> Option<usize> {
    let end = b.iter().take(33).position(|&c| c == b';')?;
    let body = &b[1..end];
    let ok = match body {
        [b'#', b'x' | b'X', hex @ ..] => !hex.is_empty() && hex.iter().all(u8::is_ascii_hexdigit),
        [b'#', dec @ ..] => !dec.is_empty() && dec.iter().all(u8::is_ascii_digit),
        [first, rest @ ..] => {
            first.is_ascii_alphabetic() && rest.iter().all(u8::is_ascii_alphanumeric)
        }
        [] => false,
    };
    ok.then_some(end + 1)
}

/// The token content code vector of TCCB: one element per token of [`Page::tokens`], 0 for a
/// tag token, 1 for a word token. O(text length).
pub fn token_vector(page: &Page) -> Ccv {
    let tokens = page.tokens();
    let mut v = Ccv {
        ranges: Vec::with_capacity(tokens.len()),
        values: Vec::with_capacity(tokens.len()),
        removed: Vec::new(),
    };
    for t in tokens {
        v.push(t.range, t.kind == TokenKind::Word);
    }
    v
}

/// The blurring of Algorithm 7: the Gaussian weight vector of length `2r + 1` with
/// σ = `sigma · r` (elements), applied to `ccv` until no element changes by `epsilon` or more
/// in a pass, or `max_iter` passes ([`signal::blur_until`]; ends renormalised). Returns the
/// content code ratio (one value in 0..=1 per element) and what the blurring did.
pub fn blur(
    ccv: &[f64],
    r: usize,
    sigma: f64,
    epsilon: f64,
    max_iter: usize,
) -> (Vec<f64>, signal::Blurred) {
    let w = signal::gaussian_kernel(r, sigma * r as f64);
    let mut c = ccv.to_vec();
    let b = signal::blur_until(&mut c, &w, Edge::Renormalize, epsilon, max_iter);
    (c, b)
}

/// The runs of content elements whose ratio exceeds `t`, as half-open element index ranges
/// `[first, last + 1)`: a content element at or below `t` ends a run, code elements do not
/// (Algorithm 7, extraction loop). O(elements).
pub fn selected_runs(ccv: &[f64], ccr: &[f64], t: f64) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut open: Option<Range<usize>> = None;
    for (i, (&c, &x)) in ccv.iter().zip(ccr).enumerate() {
        if c < 0.5 {
            continue; // code: neither kept nor masked
        }
        if x > t {
            match open.as_mut() {
                Some(run) => run.end = i + 1,
                None => open = Some(i..i + 1),
            }
        } else if let Some(run) = open.take() {
            out.push(run);
        }
    }
    out.extend(open);
    out
}

const PHASES: &[Phase] = &[
    Phase::new("vector", "the content code vector: 1 per content element, 0 per tag element; white space, comments, scripts and styles skipped (Algorithm 7, first loop)", &["ccv", "code"]),
    Phase::new("blurring", "Gaussian blurring with 2r + 1 weights, repeated until no element changes by epsilon (Algorithm 7, iterative blurring): the content code ratio", &["ccr", "iterations", "change", "sigma"]),
    Phase::new("extraction", "content elements whose ratio exceeds t are main content (Algorithm 7, extraction)", &["t", "selected"]),
];

static CCB_INFO: AlgoInfo = AlgoInfo::new(
    "ccb",
    "Content Code Blurring: character content code vector blurred with a Gaussian until stable, ratio > t (Gottron 2008; Mohammadzadeh 2013, 3.3.1.3, Algorithm 7)",
    "Gottron 2008; Mohammadzadeh 2013, 3.3.1.3, Algorithm 7",
    CCB_SPECS,
    PHASES,
);
static ACCB_INFO: AlgoInfo = AlgoInfo::new(
    "accb",
    "Adapted CCB: CCB with anchor tags ignored in the content code vector (Gottron 2008; Mohammadzadeh 2013, 3.3.1.3; Gottron 2009, 5.2)",
    "Gottron 2008; Mohammadzadeh 2013, 3.3.1.3; Gottron 2009, 5.2",
    ACCB_SPECS,
    PHASES,
);
static TCCB_INFO: AlgoInfo = AlgoInfo::new(
    "tccb",
    "Token-based CCB: the content code vector over tag / word tokens (Gottron 2009, 5.2; Mohammadzadeh 2013, 3.3.1.3)",
    "Gottron 2009, 5.2; Mohammadzadeh 2013, 3.3.1.3",
    TCCB_SPECS,
    PHASES,
);

impl Algorithm for CcbFamily {
    fn info(&self) -> &AlgoInfo {
        match self.variant {
            Variant::CcbFamily => &CCB_INFO,
            Variant::Accb => &ACCB_INFO,
            Variant::Tccb => &TCCB_INFO,
        }
    }
}

impl Extractor for CcbFamily {
    /// See the module documentation for the trace.
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let CcbParams {
            r,
            t,
            sigma,
            epsilon,
            max_iter,
            anchors,
        } = CcbParams::read(self.variant, params);
        let ccv = match self.variant {
            Variant::Tccb => token_vector(page),
            _ => char_vector(page, anchors),
        };
        let (ccr, blurred) = blur(&ccv.values, r, sigma, epsilon, max_iter);
        let runs = selected_runs(&ccv.values, &ccr, t);
        let bytes = |run: &Range<usize>| {
            ccv.ranges[run.start].start as usize..ccv.ranges[run.end - 1].end as usize
        };
        let mut selection = Selection::from_ranges(runs.iter().map(bytes));
        if !ccv.removed.is_empty() {
            selection = selection.difference(&Selection::from_ranges(ccv.removed.iter().cloned()));
        }
        let selection = page.normalize(&selection);

        let scalars = vec![
            Scalar::new("t", "threshold t", None, Role::Threshold, t),
            Scalar::new(
                "iterations",
                "blurring passes",
                None,
                Role::Info,
                blurred.iterations as f64,
            ),
            Scalar::new(
                "change",
                "largest change in the last pass",
                None,
                Role::Info,
                blurred.last_change,
            ),
            Scalar::new(
                "sigma",
                if self.variant == Variant::Tccb {
                    "σ of the Gaussian (tokens)"
                } else {
                    "σ of the Gaussian (characters)"
                },
                None,
                Role::Info,
                sigma * r as f64,
            ),
        ];
        let code_of = |v: &f64| 1.0 - v;
        let trace = if self.variant == Variant::Tccb {
            Trace {
                series: vec![
                    Series::new(
                        "ccv",
                        "content tokens (CCV = 1)",
                        Unit::Token,
                        Role::ContentSignal,
                        ccv.values.clone(),
                    ),
                    Series::new(
                        "code",
                        "tag tokens (CCV = 0)",
                        Unit::Token,
                        Role::CodeSignal,
                        ccv.values.iter().map(code_of).collect(),
                    ),
                    Series::new(
                        "ccr",
                        "content code ratio (blurred CCV)",
                        Unit::Token,
                        Role::CombinedSignal,
                        ccr,
                    )
                    .with_agg(Agg::Max),
                ],
                scalars,
                marks: vec![Marks::new(
                    "selected",
                    "words with ratio > t",
                    Unit::Token,
                    Role::Selected,
                    runs,
                )],
                positions: vec![Positions {
                    unit: Unit::Token,
                    ranges: ccv
                        .ranges
                        .iter()
                        .map(|r| r.start as usize..r.end as usize)
                        .collect(),
                }],
            }
        } else {
            // Per virtual line (what the views show; a per-byte series would cost 24 bytes
            // of trace per byte of page): content and tag characters summed, the ratio's
            // largest value.
            let lines = &page.lines().lines;
            let nl = lines.len();
            let mut content = vec![0.0; nl];
            let mut code = vec![0.0; nl];
            let mut ratio = vec![0.0f64; nl];
            let mut li = 0;
            for ((rg, &c), &x) in ccv.ranges.iter().zip(&ccv.values).zip(&ccr) {
                if nl == 0 {
                    break;
                }
                while li + 1 < nl && lines[li].end <= rg.start {
                    li += 1;
                }
                if c > 0.5 {
                    content[li] += 1.0;
                } else {
                    code[li] += 1.0;
                }
                ratio[li] = ratio[li].max(x);
            }
            let marks = runs.iter().map(bytes).collect();
            Trace {
                series: vec![
                    Series::new(
                        "ccv",
                        "content characters (CCV = 1)",
                        Unit::VirtualLine,
                        Role::ContentSignal,
                        content,
                    ),
                    Series::new(
                        "code",
                        "tag characters (CCV = 0)",
                        Unit::VirtualLine,
                        Role::CodeSignal,
                        code,
                    ),
                    Series::new(
                        "ccr",
                        "content code ratio (blurred CCV), largest on the line",
                        Unit::VirtualLine,
                        Role::CombinedSignal,
                        ratio,
                    )
                    .with_agg(Agg::Max),
                ],
                scalars,
                marks: vec![Marks::new(
                    "selected",
                    "content with ratio > t",
                    Unit::Byte,
                    Role::Selected,
                    marks,
                )],
                positions: Vec::new(),
            }
        };
        Extraction { selection, trace }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(e: &CcbFamily, sets: &[&str]) -> Params {
        let mut p = Params::defaults(e.params());
        for s in sets {
            p.set_str(e.params(), s).unwrap();
        }
        p
    }

    /// The r = 1 kernel with σ = r/2 = 0.5: w = [a, b, a], b = 1 / (1 + 2e^−2),
    /// a = e^−2 / (1 + 2e^−2) (gaussian_kernel: exp(−j² / (2σ²)) = exp(−2 j²), normalised).
    fn ab() -> (f64, f64) {
        let e = (-2.0f64).exp();
        (e / (1.0 + 2.0 * e), 1.0 / (1.0 + 2.0 * e))
    }

    #[test]
    fn vector_of_a_tiny_page_by_hand() {
        // `<b>ab</b> c`: `<b>` 3 code, `a` `b` content, `</b>` 4 code, the space skipped, `c`.
        let p = Page::from_text("t", "<b>ab</b> c");
        let v = char_vector(&p, Anchors::Keep);
        assert_eq!(v.values, [0., 0., 0., 1., 1., 0., 0., 0., 0., 1.].to_vec());
        assert_eq!(v.ranges[3], 3..4);
        assert_eq!(v.ranges[9], 10..11);
        // Comments, scripts (with their tags), styles, white space inside tags: no elements;
        // `&amp;` is one content character, `&nbsp;` is white space.
        let p = Page::from_text(
            "t",
            "<!-- x --><script>var a;</script><style>p{}</style><i  >x&amp;y&nbsp;</i>",
        );
        let v = char_vector(&p, Anchors::Keep);
        let s = p.text();
        let amp = s.find("&amp;").unwrap();
        // `<i>` (3 kept of `<i  >`), `x`, `&amp;`, `y`, `</i>` (4).
        assert_eq!(v.values.len(), 3 + 3 + 4);
        assert_eq!(v.ranges[4], amp as u32..amp as u32 + 5);
        assert_eq!(v.values.iter().sum::<f64>(), 3.0);
    }

    #[test]
    fn one_and_two_passes_with_r_1_by_hand() {
        // CCV of `<b>ab</b>`: [0, 0, 0, 1, 1, 0, 0, 0, 0].
        let ccv = [0., 0., 0., 1., 1., 0., 0., 0., 0.];
        let (a, b) = ab();
        // One pass: ccr[3] = a·0 + b·1 + a·1 = a + b (≈ 0.893); ccr[2] = a·1 = a.
        let (c1, info) = blur(&ccv, 1, 0.5, 0.0, 1);
        assert_eq!(info.iterations, 1);
        assert!((c1[3] - (a + b)).abs() < 1e-6 && (c1[4] - (a + b)).abs() < 1e-6);
        assert!((c1[2] - a).abs() < 1e-6 && c1[0].abs() < 1e-6);
        // Two passes: ccr[3] = a·c1[2] + b·c1[3] + a·c1[4] = a² + (a + b)² (≈ 0.810).
        let (c2, _) = blur(&ccv, 1, 0.5, 0.0, 2);
        assert!((c2[3] - (a * a + (a + b) * (a + b))).abs() < 1e-6);
        // With t = 0.75 both content elements stay one run after two passes; t = 0.85 keeps
        // them after one pass (a + b > 0.85) but not after two (a² + (a + b)² < 0.85).
        assert_eq!(selected_runs(&ccv, &c2, 0.75), vec![3..5]);
        assert_eq!(selected_runs(&ccv, &c1, 0.85), vec![3..5]);
        assert!(selected_runs(&ccv, &c2, 0.85).is_empty());
    }

    #[test]
    fn runs_cross_code_but_not_masked_content() {
        // content above t, code, content above t, content below t, content above t.
        let ccv = [1., 0., 1., 1., 1.];
        let ccr = [0.9, 0.1, 0.8, 0.5, 0.9];
        assert_eq!(selected_runs(&ccv, &ccr, 0.75), vec![0..3, 4..5]);
    }

    #[test]
    fn ccb_extracts_by_hand_on_a_tiny_page() {
        // `<b>ab</b>` with r = 1, σ = 0.5, one pass: `a` and `b` have a + b > 0.75.
        let p = Page::from_text("t", "<b>ab</b>");
        let e = CcbFamily::ccb();
        let x = e.run(&p, &params(&e, &["r=1", "max_iter=1", "sigma=0.5"]));
        x.trace.validate(&p).unwrap();
        assert_eq!(p.render(&x.selection), "ab");
        assert_eq!(x.trace.scalar("iterations"), Some(1.0));
        // Per virtual line: 2 content and 3 + 4 tag characters in all, and the largest ratio
        // of the text's line is a + b.
        let sum = |k: &str| x.trace.series(k).unwrap().values.iter().sum::<f64>();
        assert_eq!((sum("ccv"), sum("code")), (2.0, 7.0));
        let (a, b) = ab();
        let top = x
            .trace
            .series("ccr")
            .unwrap()
            .values
            .iter()
            .cloned()
            .fold(0.0, f64::max);
        assert!((top - (a + b)).abs() < 1e-6);
        let x = e.run(
            &p,
            &params(&e, &["r=1", "max_iter=1", "sigma=0.5", "t=0.9"]),
        );
        assert!(x.selection.is_empty());
    }

    #[test]
    fn accb_ignores_anchor_tags_and_filter1_removes_links() {
        let p = Page::from_text("t", "<p>ab <a href=\"/x\">cd</a> ef</p>");
        // CCB: `<p>` 3, a b, `<a href="/x">` 12 kept (the space skipped), c d, `</a>` 4, e f,
        // `</p>` 4.
        let keep = char_vector(&p, Anchors::Keep);
        assert_eq!(keep.values.len(), 3 + 2 + 12 + 2 + 4 + 2 + 4);
        // ACCB: the anchor's tags have no elements, its text stays content.
        let accb = char_vector(&p, Anchors::IgnoreTags);
        assert_eq!(
            accb.values,
            [0., 0., 0., 1., 1., 1., 1., 1., 1., 0., 0., 0., 0.].to_vec()
        );
        // Filter 1: the whole link is gone.
        let f1 = char_vector(&p, Anchors::Filter1);
        assert_eq!(
            f1.values,
            [0., 0., 0., 1., 1., 1., 1., 0., 0., 0., 0.].to_vec()
        );
        // With r = 1 and one pass, ACCB keeps the link text (its neighbours are content),
        // Filter 1 never does.
        let e = CcbFamily::accb();
        let x = e.run(&p, &params(&e, &["r=1", "max_iter=1", "sigma=0.5"]));
        assert_eq!(p.render(&x.selection), "ab cd ef");
        let x = e.run(
            &p,
            &params(&e, &["r=1", "max_iter=1", "sigma=0.5", "anchors=filter1"]),
        );
        assert_eq!(p.render(&x.selection), "ab ef");
    }

    #[test]
    fn tccb_on_a_tiny_token_page_by_hand() {
        // Tokens `<p>` one two `</p>` `<p>` three `</p>`: CCV [0, 1, 1, 0, 0, 1, 0].
        let p = Page::from_text("t", "<p>one two</p><p>three</p>");
        let v = token_vector(&p);
        assert_eq!(v.values, [0., 1., 1., 0., 0., 1., 0.].to_vec());
        let (a, b) = ab();
        // r = 1, one pass: one = a·0 + b·1 + a·1 = a + b; two = a + b; three = b (its
        // neighbours are tags), and b ≈ 0.787.
        let e = CcbFamily::tccb();
        let x = e.run(&p, &params(&e, &["r=1", "max_iter=1", "sigma=0.5"]));
        x.trace.validate(&p).unwrap();
        assert!(a + b > 0.75 && b > 0.75, "b ≈ 0.787 also exceeds 0.75");
        // So with t = 0.75 all three words stay; with t = 0.8 only `one two`.
        assert_eq!(p.render(&x.selection), "one two\nthree");
        let x = e.run(
            &p,
            &params(&e, &["r=1", "max_iter=1", "sigma=0.5", "t=0.8"]),
        );
        assert_eq!(p.render(&x.selection), "one two");
        assert_eq!(x.trace.marks[0].spans, vec![1..3]);
    }

    #[test]
    fn defaults_select_the_article_not_the_menu() {
        let mut html = String::from("<html><body><ul>");
        for i in 0..15 {
            html.push_str(&format!(
                "<li class=\"menu-item\"><a href=\"/section/{i}\">Menu {i}</a></li>"
            ));
        }
        html.push_str("</ul><div><p>");
        html.push_str(&"Main content words without markup in this long paragraph ".repeat(12));
        html.push_str("</p><p>");
        html.push_str(&"A second paragraph of the same article text ".repeat(10));
        html.push_str("</p></div><div class=\"footer\"><a href=\"/about\">About</a> <a href=\"/contact\">Contact</a></div></body></html>");
        let p = Page::from_text("t.html", html);
        for e in [CcbFamily::ccb(), CcbFamily::accb(), CcbFamily::tccb()] {
            let x = e.run(&p, &Params::defaults(e.params()));
            x.trace.validate(&p).unwrap();
            assert!(p.is_normal(&x.selection));
            let text = p.render(&x.selection);
            assert!(text.contains("Main content words"), "{}: {text}", e.name());
            assert!(text.contains("A second paragraph"), "{}: {text}", e.name());
            assert!(!text.contains("Menu"), "{}: {text}", e.name());
            assert!(x.trace.scalar("iterations").unwrap() >= 1.0);
        }
    }

    #[test]
    fn reference_lengths() {
        assert_eq!(reference_len(b"&amp;x"), Some(5));
        assert_eq!(reference_len(b"&#160;"), Some(6));
        assert_eq!(reference_len(b"&#x1F;"), Some(6));
        assert_eq!(reference_len(b"& b;"), None);
        assert_eq!(reference_len(b"&;"), None);
        assert_eq!(reference_len(b"&#x;"), None);
        assert_eq!(reference_len(b"&amp"), None);
    }

    #[test]
    fn empty_and_tag_only_pages() {
        for e in [CcbFamily::ccb(), CcbFamily::accb(), CcbFamily::tccb()] {
            for s in ["", "<br>", "   ", "text only"] {
                let p = Page::from_text("t", s);
                let x = e.run(&p, &Params::defaults(e.params()));
                x.trace.validate(&p).unwrap();
                assert!(p.is_normal(&x.selection));
            }
        }
        // A page of text only: every element is 1 and stays 1.
        let p = Page::from_text("t", "text only");
        let e = CcbFamily::ccb();
        let x = e.run(&p, &Params::defaults(e.params()));
        assert_eq!(p.render(&x.selection), "text only");
    }
}
