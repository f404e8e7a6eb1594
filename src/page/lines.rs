//! Virtual lines: the unit of the line-based algorithms.
//!
//! The thesis preprocesses a page before counting characters per line: "all JavaScript and CSS
//! codes and comments are removed from the HTML file … In addition in this step, we normalize
//! line length and, thereby, render the approach independent from the actual line format of the
//! source code" (Mohammadzadeh 2013, section 4.3.1); the R2L paper splits one-line files "as if
//! each HTML tag places on one line" (Mohammadzadeh et al. 2011, section 4.1). The thesis does not
//! spell the normalisation out, so cescope uses this rule (**block-tag line normalisation**):
//!
//! 1. The page's physical line breaks are ignored: they are white space like any other.
//! 2. Every start or end tag of a block-level element ([`Tag::is_block`]: `p`, `div`, `li`,
//!    `td`, `h1`…`h6`, `hr`, `table`, `section`, …) stands on a virtual line of its own: a line
//!    ends before and after it. `br` ends a line after itself only, so it stays with the text it
//!    breaks. Inline markup (`a`, `b`, `span`, `img`, …) stays on the line of its text. This is
//!    the R2L paper's "as if each HTML tag places on one line", restricted to block tags so that
//!    a paragraph with links stays one line (thesis Listing 4.2).
//! 3. Comments, `script` and `style` elements (tags and bodies) are removed: they count for
//!    nothing and never end a line.
//! 4. A line with nothing left to count (only white space, comments or scripts) is never made:
//!    its bytes join the following line (the last such run joins the line before it).
//!
//! So a minified one-line page and its pretty-printed twin have the same virtual lines up to
//! white space, and since white space is not counted (below) they give the same counts.
//!
//! Every byte of the text belongs to exactly one virtual line: the lines tile `0..text.len()`.
//!
//! **Counts** are in Unicode scalar values (characters). ASCII white space is normalised the way
//! a browser collapses it: a run of white space *between* two other characters of the same span
//! counts as one character, leading and trailing runs and white-space-only text count nothing.
//! So indentation and line breaks never change a count, while the spaces between words still do
//! (measured on scrapinghub-dev, ignoring white space entirely lowers DANAg's F1 by 0.016):
//!
//! - `length`: characters of everything the preprocessing keeps (text, tags, doctype, CDATA).
//! - `content`: characters of the content text after decoding character references
//!   (`&amp;` counts 1) — what the thesis' parser "extracts as words" for DANAg (section 4.5.1).
//! - `rtl` and `ascii`: characters of the sets S1 and S2 of R2L (section 4.3.2) among the kept
//!   characters, see [`is_rtl`].

use std::ops::Range;

use super::lex::{ByteClass, Lexed, Span, Tag};

/// One virtual line with its counts (see the module documentation for the units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VLine {
    /// First byte of the line in the decoded text.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// Index of the first lexer span of the line.
    pub first_span: u32,
    /// One past the index of the last lexer span of the line.
    pub end_span: u32,
    /// Kept characters, white space excluded ("Length" of Formula 4.5).
    pub length: u32,
    /// Decoded content-text characters, white space excluded (T1 of DANAg, Formula 4.5).
    pub content: u32,
    /// Kept characters of right-to-left scripts (S1, T1 of R2L / DANA).
    pub rtl: u32,
    /// Kept ASCII characters, white space excluded (S2, T2 of R2L / DANA).
    pub ascii: u32,
}

impl VLine {
    /// The byte range of the line.
    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The range of lexer span indices of the line.
    pub fn span_range(&self) -> Range<usize> {
        self.first_span as usize..self.end_span as usize
    }
}

/// The virtual lines of a page.
#[derive(Debug, Clone, Default)]
pub struct VirtualLines {
    /// Lines in text order; they tile the text.
    pub lines: Vec<VLine>,
}

impl VirtualLines {
    /// Number of lines.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// True when the page has no lines (empty text).
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Index of the line containing byte `offset` (O(log lines)); the last line for offsets at
    /// or past the end; `None` for an empty page.
    pub fn line_of(&self, offset: usize) -> Option<usize> {
        if self.lines.is_empty() {
            return None;
        }
        let i = self.lines.partition_point(|l| (l.end as usize) <= offset);
        Some(i.min(self.lines.len() - 1))
    }
}

/// True for the code points cescope counts as right-to-left script characters (the set S1 of
/// R2L, Mohammadzadeh et al. 2011 section 3, thesis section 4.3.2). The papers define S1 as "all
/// characters belonging to UCS R2L languages"; cescope takes the Unicode blocks of the scripts
/// written right to left:
///
/// - U+0590–U+08FF: Hebrew, Arabic, Syriac, Arabic Supplement, Thaana, NKo, Samaritan, Mandaic,
///   Syriac Supplement, Arabic Extended-B and Extended-A (Arabic-Indic and Persian digits and
///   Arabic punctuation such as U+060C included);
/// - U+FB1D–U+FDFF: Hebrew and Arabic Presentation Forms-A;
/// - U+FE70–U+FEFC: Arabic Presentation Forms-B;
/// - U+10800–U+10FFF and U+1E800–U+1EFFF: the right-to-left blocks of the supplementary planes
///   (e.g. Adlam, Arabic Mathematical Alphabetic Symbols);
/// - U+200C ZERO WIDTH NON-JOINER, which Persian writes inside words (می‌شود).
///
/// S2 is the 128 ASCII characters. Everything else (Latin-1, CJK, U+00A0 …) is in neither set.
pub fn is_rtl(c: char) -> bool {
    matches!(c as u32,
        0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFC | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF | 0x200C)
}

#[inline]
fn is_ascii_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

/// Counts of one byte slice: (non-white-space chars, rtl chars, non-white-space ASCII chars).
#[inline]
fn count_kept(s: &str) -> (u32, u32, u32) {
    let b = s.as_bytes();
    let mut ascii = 0u32;
    let mut other = 0u32;
    let mut rtl = 0u32;
    let ws_runs = internal_ws_runs(b);
    if b.is_ascii() {
        for &c in b {
            ascii += (!is_ascii_ws(c)) as u32;
        }
        return (ascii + ws_runs, 0, ascii + ws_runs);
    }
    for c in s.chars() {
        if c.is_ascii() {
            ascii += (!is_ascii_ws(c as u8)) as u32;
        } else {
            other += 1;
            rtl += is_rtl(c) as u32;
        }
    }
    (ascii + other + ws_runs, rtl, ascii + ws_runs)
}

fn internal_ws_runs(b: &[u8]) -> u32 {
    let mut n = 0;
    let mut seen = false;
    let mut pending = false;
    for &c in b {
        if is_ascii_ws(c) {
            pending = seen;
        } else {
            if pending {
                n += 1;
                pending = false;
            }
            seen = true;
        }
    }
    n
}

/// Kept characters of a slice as counted for `length` (white space normalised, see the module
/// documentation).
#[inline]
pub fn kept_chars(s: &str) -> u32 {
    count_kept(s).0
}

/// Characters of a text span after decoding character references (white space normalised).
#[inline]
pub fn content_chars(raw: &str) -> u32 {
    if memchr::memchr(b'&', raw.as_bytes()).is_some() {
        let dec = htmlize::unescape(raw);
        count_kept(&dec).0
    } else {
        count_kept(raw).0
    }
}

/// Is this span removed by the preprocessing (comments, scripts and styles with their tags)?
#[inline]
pub fn is_removed(s: &Span) -> bool {
    match s.class {
        ByteClass::Comment | ByteClass::Script | ByteClass::Style => true,
        ByteClass::Tag => matches!(s.tag, Tag::Script | Tag::Style),
        _ => false,
    }
}

/// Builds the virtual lines of `text` from its lexed spans (see the module documentation).
/// O(n) in the text length.
pub fn build(text: &str, lexed: &Lexed) -> VirtualLines {
    let mut lines: Vec<VLine> = Vec::with_capacity(lexed.spans.len() / 4 + 1);
    let mut cur = VLine::default();
    let spans = &lexed.spans;
    let close = |cur: &mut VLine, lines: &mut Vec<VLine>, at: u32, span_idx: u32| {
        cur.end = at;
        cur.end_span = span_idx;
        lines.push(*cur);
        *cur = VLine {
            start: at,
            first_span: span_idx,
            ..VLine::default()
        };
    };
    for (i, s) in spans.iter().enumerate() {
        let i = i as u32;
        if is_removed(s) {
            continue;
        }
        let block = s.class == ByteClass::Tag && s.tag.is_block();
        if block && s.tag != Tag::Br && cur.length > 0 {
            close(&mut cur, &mut lines, s.start, i);
        }
        let slice = &text[s.range()];
        let (len, rtl, ascii) = count_kept(slice);
        cur.length += len;
        cur.rtl += rtl;
        cur.ascii += ascii;
        if s.class == ByteClass::Text {
            cur.content += if len == 0 { 0 } else { content_chars(slice) };
        }
        if block && cur.length > 0 {
            close(&mut cur, &mut lines, s.end, i + 1);
        }
    }
    let n = text.len() as u32;
    if cur.start < n {
        if cur.length == 0 && !lines.is_empty() {
            let last = lines.last_mut().expect("non-empty");
            last.end = n;
            last.end_span = spans.len() as u32;
        } else {
            cur.end = n;
            cur.end_span = spans.len() as u32;
            lines.push(cur);
        }
    }
    VirtualLines { lines }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::lex::lex;

    fn lines_of(t: &str) -> Vec<String> {
        let lx = lex(t);
        build(t, &lx)
            .lines
            .iter()
            .map(|l| t[l.range()].to_string())
            .collect()
    }

    #[test]
    fn block_tags_break_lines() {
        let t = "<div><p>Hello <b>big</b> world</p><p>Two</p></div>";
        assert_eq!(
            lines_of(t),
            vec![
                "<div>",
                "<p>",
                "Hello <b>big</b> world",
                "</p>",
                "<p>",
                "Two",
                "</p>",
                "</div>"
            ]
        );
    }

    #[test]
    fn whitespace_and_scripts_join_the_next_line() {
        let t = "<p>a</p>\n  <script>x()</script>\n<!-- c -->\n<p>b</p>\n";
        assert_eq!(
            lines_of(t),
            vec![
                "<p>",
                "a",
                "</p>",
                "\n  <script>x()</script>\n<!-- c -->\n<p>",
                "b",
                "</p>\n"
            ]
        );
    }

    #[test]
    fn br_ends_a_line() {
        assert_eq!(
            lines_of("one<br>two<br/>three"),
            vec!["one<br>", "two<br/>", "three"]
        );
    }

    #[test]
    fn lines_tile_the_text() {
        let t = "  <html><head><title>T</title></head><body>x<p>y</p> z </body></html>  ";
        let lx = lex(t);
        let vl = build(t, &lx);
        let mut at = 0;
        for l in &vl.lines {
            assert_eq!(l.start, at);
            at = l.end;
        }
        assert_eq!(at as usize, t.len());
        assert_eq!(vl.line_of(0), Some(0));
        assert_eq!(vl.line_of(t.len() + 5), Some(vl.len() - 1));
    }

    #[test]
    fn counts() {
        let t = "<p class=\"x\">A &amp; b</p>";
        let lx = lex(t);
        let vl = build(t, &lx);
        assert_eq!(vl.len(), 3);
        // `<p class="x">`: 12 non-white-space chars + 1 inner white-space run
        assert_eq!(vl.lines[0].length, 13);
        assert_eq!(vl.lines[0].content, 0);
        let l = vl.lines[1];
        // `A &amp; b`: 7 non-white-space chars + 2 inner runs; decoded "A & b" = 5
        assert_eq!(l.length, 9);
        assert_eq!(l.content, 5);
        assert_eq!(l.ascii, 9);
        assert_eq!(l.rtl, 0);
        assert_eq!(vl.lines[2].length, 4);
    }

    #[test]
    fn rtl_counts() {
        let t = "<p>سلام دنیا hi</p>";
        let lx = lex(t);
        let l = build(t, &lx).lines[1];
        assert_eq!(l.rtl, 8);
        assert_eq!(l.ascii, 4); // "hi" + two inner white-space runs
        assert_eq!(l.content, 12);
        assert!(is_rtl('\u{200C}') && is_rtl('ی') && !is_rtl('é') && !is_rtl('a'));
    }

    #[test]
    fn minified_and_pretty_have_same_counts() {
        let pretty = "<html>\n <body>\n  <div>\n   <p>\n    Some text\n   </p>\n  </div>\n </body>\n</html>\n";
        let mini = "<html><body><div><p>Some text</p></div></body></html>";
        let a = build(pretty, &lex(pretty));
        let b = build(mini, &lex(mini));
        let key = |v: &VirtualLines| {
            v.lines
                .iter()
                .map(|l| (l.length, l.content, l.rtl, l.ascii))
                .collect::<Vec<_>>()
        };
        assert_eq!(key(&a), key(&b));
    }

    #[test]
    fn empty_and_comment_only() {
        assert!(lines_of("").is_empty());
        assert_eq!(lines_of("<!-- only -->"), vec!["<!-- only -->"]);
    }
}
