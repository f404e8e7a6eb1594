//! `density` — Density, also called LICEA (Arias Moreno, Deschacht & Moens 2009, *Language
//! Independent Content Extraction from Web Pages*, section 4; Mohammadzadeh 2013, 3.3.3.2).
//!
//! 1. **The string array L** — the page is parsed in source order; text is appended to the last
//!    string of `L = {s_1, …, s_n}`, and every markup tag "that modifies the structure of the
//!    Web page" appends a new empty string. Other tags (`<b>`, `<a href…>`, `<font>`, …) are
//!    ignored, and so are scripts, style definitions and comments.
//! 2. **Cutoff** — `s_max` is the (first) longest string, of length `maxL`;
//!    `cutoffL = maxL · c1`.
//! 3. **Region growing** — `R = {s_max}`; a string `s_i` is added to `R` iff
//!    `length(s_i) > cutoffL` and some `s_j ∈ R` has `|i − j| < c2`, until nothing can be
//!    added ([`grow`], O(n)).
//! 4. **Extraction** — all strings from the leftmost `s_l` to the rightmost `s_r` of `R`,
//!    inclusive (short strings between them too).
//!
//! Parameters as published: `c1 = 0.333`, `c2 = 4` (section 4).
//!
//! Choices (documented and tested):
//! - **Structural tags** (parameter `tags`). The paper lists `<p>`, `<table>`, `<br>`, `<div>`,
//!   `<h1>`, `<h2>`, … and `<li>`, "but not limited to", pointing to XHTML 1.0. `xhtml` is that
//!   list completed from XHTML 1.0's block and table structure: `p div table caption thead tbody
//!   tfoot tr td th br hr h1–h6 ul ol li dl dt dd pre blockquote address form fieldset legend
//!   center dir menu noscript`, plus `title` (so the head's title is a string of its own instead
//!   of being glued to the first text of the body). `html5` (the default) adds the elements
//!   HTML5 introduced for page structure, which 2009 pages did not have: `article section nav
//!   aside header footer main figure figcaption details summary dialog hgroup`, and the form
//!   controls `select optgroup option textarea` (each renders as a box of its own; without
//!   them a country drop-down becomes one long string).
//! - **Which tag events start a string** (parameter `boundaries`). The paper's parser "visits
//!   every node", and a structural tag "encountered" extends L: `start` (default) — start tags
//!   only, as a node visit sees each element once; `start-end` — end tags of structural
//!   elements too (what a SAX-style callback that also reports end tags would do), so text
//!   after `</p>` inside a `<div>` is a string of its own.
//! - **Empty strings** (parameter `empty`). As published (`keep`, the default), every
//!   structural tag extends L, also right after another one, so `<div><div><div><p>` between
//!   two paragraphs puts them 4 strings apart — at `c2 = 4` too far to join. Modern pages wrap
//!   paragraphs, figures and ads in many nested `div`s; `merge` lets a run of structural tags
//!   with no text between them add one string only, so the distance counts text blocks.
//! - **Parsing** — cescope's lexer ([`crate::page::lex`]) gives the tags and text in source
//!   order, the event stream of the paper's stream parser (the HotJava parser); no DOM is
//!   built. Text of `title` and `textarea` counts; scripts, styles, comments, declarations and
//!   CDATA do not.
//! - **Length** — characters of the string without white space; a character reference
//!   (`&amp;`, `&#160;`) counts as one character. The paper ignores spaces when it evaluates
//!   (section 5.3), and not counting them keeps the source layout (indentation, newlines around
//!   block tags) from changing a length: a pretty-printed page and its minified twin give the
//!   same L (the layout property test of `tests/properties.rs`).
//! - A page without text (`maxL = 0`) selects nothing. Ties for `s_max` go to the first.

use std::borrow::Cow;
use std::ops::Range;

use crate::extract::trace::{runs, Marks, Phase, Positions, Role, Scalar, Series, Trace, Unit};
use crate::extract::{AlgoInfo, Choice, StaticInfo};
use crate::extract::{Extraction, Extractor, ParamKind, ParamSpec, ParamValue, Params};
use crate::page::lex::{flags, ByteClass, Tag};
use crate::page::Page;
use crate::selection::Selection;

/// `c1`: the cutoff length is `maxL · c1` (Arias et al. 2009, section 4).
pub const C1_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("c1"),
    kind: ParamKind::Float {
        min: 0.0,
        max: 1.0,
        step: 0.01,
    },
    default: ParamValue::Float(0.333),
    help: "a string joins the region only when it is longer than c1 x the longest string (maxL)",
    source: "Arias, Deschacht & Moens 2009, section 4 (c1 = 0.333)",
};

/// `c2`: a string joins the region only within distance `< c2` (strings) of a string in it.
pub const C2_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("c2"),
    kind: ParamKind::Int {
        min: 1,
        max: 100,
        step: 1,
    },
    default: ParamValue::Int(4),
    help:
        "a string joins the region only when |i - j| < c2 (strings) for some string j already in it",
    source: "Arias, Deschacht & Moens 2009, section 4 (c2 = 4)",
};

crate::choice_enum! {
    /// Which tags are structural ([`TAGS_SPEC`]).
    pub enum TagSet {
        /// The XHTML list plus HTML5 sectioning elements and form controls.
        Html5 = "html5",
        /// The paper's list completed from XHTML 1.0.
        Xhtml = "xhtml",
    }
}

/// Which tags are structural (see the module documentation).
pub const TAGS_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("tags"),
    kind: ParamKind::Choice {
        choices: <TagSet as Choice>::NAMES,
    },
    default: ParamValue::choice("html5"),
    help: "structural tags: xhtml = the paper's list completed from XHTML 1.0; html5 = xhtml + HTML5 sectioning elements and form controls",
    source: "Arias, Deschacht & Moens 2009, section 4 (p, table, br, div, h1, h2, ..., li; XHTML 1.0); cescope's choice for html5",
};

crate::choice_enum! {
    /// Which events of a structural tag start a new string ([`BOUNDARIES_SPEC`]).
    pub enum Boundaries {
        /// A structural start tag.
        Start = "start",
        /// Its start and end tags.
        StartEnd = "start-end",
    }
}

/// Which events of a structural tag start a new string (see the module documentation).
pub const BOUNDARIES_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("boundaries"),
    kind: ParamKind::Choice {
        choices: <Boundaries as Choice>::NAMES,
    },
    default: ParamValue::choice("start"),
    help: "start: a structural start tag starts a new string; start-end: its end tag does too",
    source: "Arias, Deschacht & Moens 2009, section 4 (\"if a markup-tag that modifies the structure ... is encountered\"); cescope's choice",
};

crate::choice_enum! {
    /// What a structural tag does when the last string is still empty ([`EMPTY_SPEC`]).
    pub enum Empty {
        /// Every structural tag adds a string, as published.
        Keep = "keep",
        /// Runs of structural tags with no text between them add one.
        Merge = "merge",
    }
}

/// What a structural tag does when the last string is still empty (see the module
/// documentation).
pub const EMPTY_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("empty"),
    kind: ParamKind::Choice {
        choices: <Empty as Choice>::NAMES,
    },
    default: ParamValue::choice("keep"),
    help: "keep: every structural tag adds a string, as published; merge: runs of structural tags with no text between them add one (nested div wrappers do not stretch the c2 distance)",
    source: "Arias, Deschacht & Moens 2009, section 4 (\"L is extended with one empty string\"); cescope's choice for merge",
};

/// Is `tag` structural in the paper's XHTML sense (see the module documentation)?
pub fn is_structural_xhtml(tag: Tag) -> bool {
    use Tag::*;
    matches!(
        tag,
        P | Div
            | Table
            | Caption
            | Thead
            | Tbody
            | Tfoot
            | Tr
            | Td
            | Th
            | Br
            | Hr
            | H1
            | H2
            | H3
            | H4
            | H5
            | H6
            | Ul
            | Ol
            | Li
            | Dl
            | Dt
            | Dd
            | Pre
            | Blockquote
            | Address
            | Form
            | Fieldset
            | Legend
            | Center
            | Dir
            | Menu
            | Noscript
            | Title
    )
}

/// Is `tag` structural in the `html5` set: [`is_structural_xhtml`] plus HTML5 sectioning
/// elements and form controls (see the module documentation)?
pub fn is_structural_html5(tag: Tag) -> bool {
    use Tag::*;
    is_structural_xhtml(tag)
        || matches!(
            tag,
            Article
                | Section
                | Nav
                | Aside
                | Header
                | Footer
                | Main
                | Figure
                | Figcaption
                | Details
                | Summary
                | Dialog
                | Hgroup
                | Select
                | Optgroup
                | Option
                | Textarea
        )
}

/// The string array L of one page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StringArray {
    /// `length(s_k)` in characters, white space not counted (see the module documentation).
    pub len: Vec<usize>,
    /// The byte range of the source each string covers: from the structural tag that started
    /// it (0 for the first string) to the next one (the end of the text for the last). The
    /// ranges tile the text.
    pub range: Vec<Range<usize>>,
}

/// Builds L from the page's lexer spans: `structural` says which tags start a new string,
/// `ends` whether end tags do too, `merge_empty` whether a structural tag after a string that
/// is still empty starts no new one (parameter `empty`). Always at least one string.
/// O(text length).
pub fn string_array(
    page: &Page,
    structural: fn(Tag) -> bool,
    ends: bool,
    merge_empty: bool,
) -> StringArray {
    let text = page.text().as_bytes();
    let mut starts = vec![0usize];
    let mut len = vec![0usize];
    for s in &page.lexed().spans {
        match s.class {
            ByteClass::Tag => {
                let is_end = s.flags & flags::END != 0;
                let merge = merge_empty && len.last() == Some(&0);
                if structural(s.tag) && (ends || !is_end) && !merge {
                    starts.push(s.start as usize);
                    len.push(0);
                }
            }
            ByteClass::Text => {
                let last = len.len() - 1; // L always has a string
                let cur = &mut len[last];
                let bytes = &text[s.range()];
                let mut k = 0;
                while k < bytes.len() {
                    let c = bytes[k];
                    k += 1;
                    // White space and UTF-8 continuation bytes add no character.
                    if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0c) || c & 0xC0 == 0x80 {
                        continue;
                    }
                    if c == b'&' {
                        k += reference_len(&bytes[k..]);
                    }
                    *cur += 1;
                }
            }
            _ => {}
        }
    }
    let mut range = Vec::with_capacity(starts.len());
    for (k, &a) in starts.iter().enumerate() {
        range.push(a..starts.get(k + 1).copied().unwrap_or(text.len()));
    }
    StringArray { len, range }
}

/// After a `&`: the bytes of a character reference's rest (`amp;`, `#160;`, `#x41;`: name or
/// number and the `;`, at most 32 bytes), or 0 when none follows (a bare `&`).
fn reference_len(rest: &[u8]) -> usize {
    let n = rest
        .iter()
        .take(32)
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'#')
        .count();
    if n > 0 && rest.get(n) == Some(&b';') {
        n + 1
    } else {
        0
    }
}

/// The high-density region of section 4.
#[derive(Debug, Clone, PartialEq)]
pub struct Region {
    /// Index of `s_max`, the first longest string.
    pub smax: usize,
    /// `maxL`, its length (characters).
    pub max_len: usize,
    /// `cutoffL = maxL · c1` (characters).
    pub cutoff: f64,
    /// The strings of R, ascending (`s_max` included).
    pub r: Vec<usize>,
}

impl Region {
    /// The strings from the leftmost to the rightmost of R, inclusive (`l..r + 1`).
    pub fn span(&self) -> Range<usize> {
        match (self.r.first(), self.r.last()) {
            (Some(&a), Some(&b)) => a..b + 1,
            _ => 0..0,
        }
    }
}

/// Section 4's region growing over the string lengths `len`: `R = {s_max}`, then every string
/// longer than `cutoffL = maxL · c1` within distance `< c2` of a string of R joins R, until no
/// more can. `None` when `len` is empty or `maxL = 0`. O(n): R is the chain of long strings
/// reachable from `s_max` in steps shorter than `c2`, found by one scan to each side.
pub fn grow(len: &[usize], c1: f64, c2: usize) -> Option<Region> {
    let (mut smax, mut max_len) = (0, 0);
    for (k, &l) in len.iter().enumerate() {
        if l > max_len {
            (smax, max_len) = (k, l);
        }
    }
    if max_len == 0 {
        return None;
    }
    let cutoff = max_len as f64 * c1;
    let long = |k: usize| len[k] as f64 > cutoff;
    let mut r = Vec::new();
    // To the left: the nearest member of R is the last one added.
    let mut last = smax;
    for k in (0..smax).rev() {
        if last - k >= c2 {
            break;
        }
        if long(k) {
            r.push(k);
            last = k;
        }
    }
    r.reverse();
    r.push(smax);
    let mut last = smax;
    for k in smax + 1..len.len() {
        if k - last >= c2 {
            break;
        }
        if long(k) {
            r.push(k);
            last = k;
        }
    }
    Some(Region {
        smax,
        max_len,
        cutoff,
        r,
    })
}

/// Density / LICEA.
#[derive(Debug, Clone, Default)]
pub struct Density;

crate::typed_params! {
    /// Density's parameters (Arias, Deschacht & Moens 2009, section 4).
    pub struct DensityParams {
        /// The cutoff factor `c1`.
        pub c1: f64 = C1_SPEC,
        /// The distance `c2` in strings.
        pub c2: i64 = C2_SPEC,
        /// Which tags are structural.
        pub tags: TagSet = TAGS_SPEC,
        /// Which events of a structural tag start a string.
        pub boundaries: Boundaries = BOUNDARIES_SPEC,
        /// Whether empty strings merge.
        pub empty: Empty = EMPTY_SPEC,
    }
}

const PHASES: &[Phase] = &[
    Phase::new(
        "string array",
        "text between structural tags as the strings of L, with their lengths (section 4)",
        &["length"],
    ),
    Phase::new(
        "cutoff",
        "the longest string s_max and cutoffL = maxL x c1",
        &["cutoff", "maxL", "smax"],
    ),
    Phase::new(
        "region growing",
        "add every string longer than cutoffL within |i - j| < c2 of a string of R",
        &["R", "c2"],
    ),
    Phase::new(
        "extraction",
        "all strings from the leftmost to the rightmost string of R are the main content",
        &["region"],
    ),
];

static INFO: AlgoInfo = AlgoInfo::new(
    "density",
    "Density (LICEA): the densest run of long text strings between structural tags (Arias, Deschacht & Moens 2009, section 4; Mohammadzadeh 2013, 3.3.3.2)",
    "Arias, Deschacht & Moens 2009, section 4; Mohammadzadeh 2013, 3.3.3.2",
    DensityParams::SPECS,
    PHASES,
);

impl StaticInfo for Density {
    const INFO: &'static AlgoInfo = &INFO;
}

impl Extractor for Density {
    /// Trace (token unit = the strings of L; positions = the source range of each string, from
    /// its structural tag to the next): `length` (content signal, characters), scalars
    /// `cutoff` (threshold), `maxL` (info) and `c2` (bound, in strings: the reach within which
    /// a long string would have joined), marks `smax` (seed), `R` (candidates: the strings of
    /// R) and `region` (selected: `s_l … s_r`).
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let p = DensityParams::read(params);
        let c1 = p.c1;
        let c2 = p.c2.max(1) as usize;
        let structural = match p.tags {
            TagSet::Xhtml => is_structural_xhtml,
            TagSet::Html5 => is_structural_html5,
        };
        let ends = p.boundaries == Boundaries::StartEnd;
        let merge = p.empty == Empty::Merge;
        let l = string_array(page, structural, ends, merge);
        let region = grow(&l.len, c1, c2);

        let (selection, smax, r, span, cutoff, max_len) = match &region {
            Some(g) => {
                let span = g.span();
                let bytes = l.range[span.start].start..l.range[span.end - 1].end;
                (
                    page.normalize(&Selection::from_range(bytes)),
                    std::iter::once(g.smax..g.smax + 1).collect(),
                    runs(g.r.iter().copied()),
                    std::iter::once(span).collect(),
                    g.cutoff,
                    g.max_len,
                )
            }
            None => (Selection::new(), vec![], vec![], vec![], 0.0, 0),
        };
        let trace = Trace {
            series: vec![Series::new(
                "length",
                "length of string s_i (chars)",
                Unit::Token,
                Role::ContentSignal,
                l.len.iter().map(|&x| x as f64).collect(),
            )],
            scalars: vec![
                Scalar::new(
                    "cutoff",
                    "cutoffL = maxL x c1 (chars)",
                    None,
                    Role::Threshold,
                    cutoff,
                ),
                Scalar::new(
                    "maxL",
                    "maxL, length of s_max (chars)",
                    None,
                    Role::Info,
                    max_len as f64,
                ),
                Scalar::new(
                    "c2",
                    "c2: strings join R within |i - j| < c2",
                    Some(Unit::Token),
                    Role::Bound,
                    c2 as f64,
                ),
            ],
            marks: vec![
                Marks::new(
                    "smax",
                    "s_max, the longest string",
                    Unit::Token,
                    Role::Seed,
                    smax,
                ),
                Marks::new(
                    "R",
                    "R: long strings joined to s_max",
                    Unit::Token,
                    Role::Candidates,
                    r,
                ),
                Marks::new(
                    "region",
                    "s_l ... s_r, leftmost to rightmost string of R",
                    Unit::Token,
                    Role::Selected,
                    span,
                ),
            ],
            positions: vec![Positions {
                unit: Unit::Token,
                ranges: l.range,
            }],
        };
        Extraction { selection, trace }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Algorithm;

    #[test]
    fn c2_rule_at_the_boundary() {
        // maxL = 100 (string 0), c1 = 0.333: cutoffL = 33.3; a 40-char string at distance d.
        let at = |d: usize| {
            let mut len = vec![0; d + 1];
            len[0] = 100;
            len[d] = 40;
            grow(&len, 0.333, 4).unwrap().r
        };
        // |i - j| < c2: distance c2 - 1 = 3 joins, c2 = 4 and c2 + 1 = 5 do not.
        assert_eq!(at(3), vec![0, 3]);
        assert_eq!(at(4), vec![0]);
        assert_eq!(at(5), vec![0]);
        // The same to the left of s_max.
        assert_eq!(grow(&[40, 0, 0, 100], 0.333, 4).unwrap().r, vec![0, 3]);
        assert_eq!(grow(&[40, 0, 0, 0, 100], 0.333, 4).unwrap().r, vec![4]);
        // Chains: 6 is at distance 6 from s_max but 3 from string 3, which joined first.
        let g = grow(&[100, 0, 0, 40, 0, 0, 40, 0, 0, 0, 40], 0.333, 4).unwrap();
        assert_eq!(g.r, vec![0, 3, 6]);
        assert_eq!(g.span(), 0..7);
    }

    #[test]
    fn cutoff_is_strict_and_empty_pages_select_nothing() {
        // c1 = 0.5, maxL = 100: cutoffL = 50; length 50 is not > 50, length 51 is.
        assert_eq!(grow(&[100, 50], 0.5, 4).unwrap().r, vec![0]);
        assert_eq!(grow(&[100, 51], 0.5, 4).unwrap().r, vec![0, 1]);
        assert_eq!(grow(&[100, 51], 0.5, 4).unwrap().cutoff, 50.0);
        // Ties for s_max go to the first.
        assert_eq!(grow(&[7, 9, 9], 0.333, 1).unwrap().smax, 1);
        assert_eq!(grow(&[0, 0], 0.333, 4), None);
        assert_eq!(grow(&[], 0.333, 4), None);
    }

    #[test]
    fn string_array_splits_at_structural_tags_only() {
        let p = Page::from_text(
            "t",
            "<div>  Hello \n <b>big</b>  world </div><p>x &amp; y<!-- no --></p>",
        );
        let l = string_array(&p, is_structural_html5, false, false);
        // s0: before <div> (empty); s1: "Hello big world" (13 chars: <b> is not structural,
        // white space does not count); s2: "x & y" (3: &amp; is one character).
        assert_eq!(l.len, vec![0, 13, 3]);
        let div_end = p.text().find("<p>").unwrap();
        assert_eq!(l.range, vec![0..0, 0..div_end, div_end..p.text().len()]);

        let p = Page::from_text("t", "<div><p>one</p>two</div>");
        // start: "one" and "two" are one string; start-end: </p> and </div> start strings.
        assert_eq!(
            string_array(&p, is_structural_html5, false, false).len,
            vec![0, 0, 6]
        );
        assert_eq!(
            string_array(&p, is_structural_html5, true, false).len,
            vec![0, 0, 3, 3, 0]
        );
        // <section> is structural in html5 only.
        let p = Page::from_text("t", "<section>ab</section><section>cd</section>");
        assert_eq!(
            string_array(&p, is_structural_html5, false, false).len,
            vec![0, 2, 2]
        );
        assert_eq!(
            string_array(&p, is_structural_xhtml, false, false).len,
            vec![4]
        );
    }

    #[test]
    fn merge_empty_counts_text_blocks() {
        let p = Page::from_text(
            "t",
            "<div><div><div><p>one</p></div></div><div><div><p>two</p>",
        );
        // keep: s0 "", div "", div "", div "", p "one", div "", div "", p "two": 8 strings,
        // "one" (4) and "two" (7) are 3 apart.  merge: the divs and p before "one" extend the
        // empty s0; the divs and p after it give one new string: ["one", "two"], 1 apart.
        assert_eq!(
            string_array(&p, is_structural_html5, false, false).len,
            vec![0, 0, 0, 0, 3, 0, 0, 3]
        );
        assert_eq!(
            string_array(&p, is_structural_html5, false, true).len,
            vec![3, 3]
        );
    }

    #[test]
    fn lengths_ignore_the_source_layout() {
        // Found by the layout property test: with collapsed (not removed) white space, the
        // newline inserted around `</li>` made "ab cd" one character longer than "abcd" and
        // moved the cutoff. Without white space both give 4.
        let compact = Page::from_text("a", "<a href=x>x</a><ul>ab</li>cd<p>");
        let spaced = Page::from_text("b", "<a href=x>x</a>\n  <ul>\n  ab\n  </li>\n  cd\n  <p>\n");
        let a = string_array(&compact, is_structural_html5, false, false);
        let b = string_array(&spaced, is_structural_html5, false, false);
        assert_eq!(a.len, vec![1, 4, 0]);
        assert_eq!(a.len, b.len);
    }

    #[test]
    fn density_selects_from_leftmost_to_rightmost_long_string() {
        let para = "Main article text with many words in one long paragraph here. ";
        let mut html = String::from("<html><body><ul>");
        for i in 0..12 {
            html.push_str(&format!("<li><a href=/{i}>Menu item {i}</a></li>"));
        }
        html.push_str("</ul><div class=article><p>");
        html.push_str(&para.repeat(4));
        html.push_str("</p><div>Advertisement</div><p>");
        html.push_str(&para.repeat(3));
        html.push_str("</p></div><div>Footer one</div><div>Footer two</div><div>Footer three</div><div>Footer four</div><p>Copyright notice and a long line of legal small print text that is long enough. Reproduction prohibited.</p></body></html>");
        let p = Page::from_text("t.html", html);
        let d = Density;
        let x = d.run(&p, &Params::defaults(d.params()));
        x.trace.validate(&p).unwrap();
        assert!(p.is_normal(&x.selection));
        let text = p.render(&x.selection);
        // The two paragraphs are 2 strings apart (< c2), so the short advertisement string
        // between them is inside s_l ... s_r; the menu and the footer are not. maxL = 4 x 51 =
        // 204 non-space chars, cutoffL = 0.333 x 204 = 67.9; the copyright line (88 chars) is
        // long but 5 strings after the second paragraph (the four footer divs between): not < c2.
        assert!(text.starts_with("Main article text"), "{text}");
        assert!(text.contains("Advertisement"), "{text}");
        assert!(!text.contains("Menu") && !text.contains("Footer"), "{text}");
        assert!(!text.contains("Copyright"), "{text}");
        assert_eq!(x.trace.marks("R").unwrap().spans.len(), 2);
    }
}
