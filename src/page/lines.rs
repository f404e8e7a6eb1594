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

/// What one byte contributes to the counts of [`count_kept`], as bit flags of [`BYTE_FLAGS`].
mod byte_flag {
    /// ASCII white space (space, tab, LF, CR, FF): counts nothing by itself.
    pub const WS: u8 = 1;
    /// An ASCII character other than white space: one character of `length` and of `ascii`.
    pub const ASCII: u8 = 2;
    /// The first byte of a non-ASCII UTF-8 sequence: one character of `length`.
    pub const LEAD: u8 = 4;
    /// A lead byte of a character that may be right-to-left (U+0580 and above, lead byte 0xD6
    /// or more): [`super::is_rtl`] decides.
    pub const MAYBE_RTL: u8 = 8;
    /// `&`: the text may hold character references.
    pub const AMP: u8 = 16;
}

/// [`byte_flag`]s of each byte value (continuation bytes 0x80–0xBF have none).
const BYTE_FLAGS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0usize;
    while b < 256 {
        t[b] = match b as u8 {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0c => byte_flag::WS,
            b'&' => byte_flag::ASCII | byte_flag::AMP,
            0x00..=0x7f => byte_flag::ASCII,
            0x80..=0xbf => 0,
            0xc0..=0xd5 => byte_flag::LEAD,
            _ => byte_flag::LEAD | byte_flag::MAYBE_RTL,
        };
        b += 1;
    }
    t
};

/// The counts of one slice (see the module documentation for the units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Kept {
    /// Kept characters: non-white-space characters plus one per white-space run between two of
    /// them (`length`).
    chars: u32,
    /// Characters of right-to-left scripts ([`is_rtl`]).
    rtl: u32,
    /// Non-white-space ASCII characters plus the inner white-space runs.
    ascii: u32,
    /// The slice contains `&` (so its decoded content may count differently).
    has_amp: bool,
}

/// Counts a slice in one pass over its bytes, with no branch per byte. An inner white-space run
/// is counted where a non-white-space byte follows a white-space byte (minus the leading run, if
/// any). The bytes are read eight at a time as one `u64` and classified by word arithmetic
/// ([`swar`]); the last `len % 8` bytes go one by one through [`BYTE_FLAGS`]. Only slices with a
/// byte of U+0580 or above are decoded a second time, to count right-to-left characters.
#[inline]
fn count_kept(s: &str) -> Kept {
    let b = s.as_bytes();
    let (words, tail) = b.as_chunks::<8>();
    let mut t = swar::count_words(words);
    for &c in tail {
        let f = BYTE_FLAGS[c as usize];
        let ws = f & byte_flag::WS != 0;
        t.ascii += u32::from(f & byte_flag::ASCII != 0);
        t.lead += u32::from(f & byte_flag::LEAD != 0);
        // Counted at the first byte of the character that ends the run.
        t.ws_to_char += u32::from(t.last_ws & !ws);
        t.last_ws = ws;
        t.any |= f;
    }
    // `ws_to_char` counts every white-space run followed by a character; a run at the very
    // start is not between two characters.
    let leading_run = b
        .first()
        .is_some_and(|&c| BYTE_FLAGS[c as usize] & byte_flag::WS != 0);
    let runs = t.ws_to_char - u32::from(leading_run && t.ws_to_char > 0);
    let rtl = if t.any & byte_flag::MAYBE_RTL != 0 {
        s.chars().filter(|&c| is_rtl(c)).count() as u32
    } else {
        0
    };
    Kept {
        chars: t.ascii + t.lead + runs,
        rtl,
        ascii: t.ascii + runs,
        has_amp: t.any & byte_flag::AMP != 0,
    }
}

/// Running sums of [`count_kept`] over the bytes seen so far.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    /// Non-white-space ASCII bytes.
    ascii: u32,
    /// Lead bytes of non-ASCII characters.
    lead: u32,
    /// Non-white-space bytes that follow a white-space byte.
    ws_to_char: u32,
    /// The last byte seen was white space.
    last_ws: bool,
    /// The union of the [`byte_flag`]s seen (only `MAYBE_RTL` and `AMP` are read).
    any: u8,
}

/// [`count_kept`] eight bytes at a time ("SIMD within a register"): each test below sets the
/// high bit of every byte of a little-endian `u64` word that passes it, with no carry between
/// bytes, so each result is exact per byte. Per-byte counters are summed in byte lanes and
/// folded to `u32` every 255 words, before a lane can overflow.
mod swar {
    use super::{byte_flag, Tally};

    /// `0x01` in every byte.
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    /// The high bit of every byte.
    const HIGH: u64 = ONES * 0x80;
    /// The low seven bits of every byte.
    const LOW7: u64 = ONES * 0x7f;

    /// High bit of each byte of `x` that is 0.
    #[inline]
    fn zero_bytes(x: u64) -> u64 {
        !(((x & LOW7) + LOW7) | x) & HIGH
    }

    /// High bit of each byte of `w` equal to `b`.
    #[inline]
    fn bytes_eq(w: u64, b: u8) -> u64 {
        zero_bytes(w ^ (ONES * u64::from(b)))
    }

    /// High bit of each byte of `w` that is at least `b`, among bytes whose high bit is the
    /// same as `b`'s (the caller masks with `w` or `!w`). `(byte & 0x7f) + 0x80 - (b & 0x7f)`
    /// stays below 0x100, so no carry crosses into the next byte.
    #[inline]
    fn low7_at_least(w: u64, b: u8) -> u64 {
        ((w & LOW7) + ONES * u64::from(0x80 - (b & 0x7f))) & HIGH
    }

    /// High bit of each byte of `w` that is ASCII white space: 0x09, 0x0A, 0x0C, 0x0D, 0x20.
    #[inline]
    pub(super) fn ws_bytes(w: u64) -> u64 {
        let ascii = !w & HIGH;
        let tab_to_cr = ascii & low7_at_least(w, 0x09) & !low7_at_least(w, 0x0e);
        (tab_to_cr & !bytes_eq(w, 0x0b)) | bytes_eq(w, b' ')
    }

    /// Sum of the eight byte lanes of `acc` (each at most 255).
    #[inline]
    fn lane_sum(acc: u64) -> u32 {
        const EVEN: u64 = 0x00ff_00ff_00ff_00ff;
        let pairs = (acc & EVEN) + ((acc >> 8) & EVEN);
        (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
    }

    /// The tally of whole words, in order.
    pub(super) fn count_words(words: &[[u8; 8]]) -> Tally {
        let mut t = Tally::default();
        // High bit of byte 0 set when the byte before the current word was white space.
        let mut carry = 0u64;
        let (mut amp, mut maybe_rtl) = (0u64, 0u64);
        for group in words.chunks(255) {
            let (mut ascii, mut lead, mut to_char) = (0u64, 0u64, 0u64);
            for word in group {
                let w = u64::from_le_bytes(*word);
                let ws = ws_bytes(w);
                let before_ws = (ws << 8) | carry;
                carry = ws >> 56;
                ascii += ((!w & HIGH) & !ws) >> 7;
                // Lead bytes are 0b11xx_xxxx: bit 6 moved up to bit 7.
                lead += (w & (w << 1) & HIGH) >> 7;
                to_char += (before_ws & !ws & HIGH) >> 7;
                amp |= bytes_eq(w, b'&');
                maybe_rtl |= w & low7_at_least(w, 0xd6);
            }
            t.ascii += lane_sum(ascii);
            t.lead += lane_sum(lead);
            t.ws_to_char += lane_sum(to_char);
        }
        t.last_ws = carry != 0;
        if amp != 0 {
            t.any |= byte_flag::AMP;
        }
        if maybe_rtl != 0 {
            t.any |= byte_flag::MAYBE_RTL;
        }
        t
    }
}

/// Kept characters of a slice as counted for `length` (white space normalised, see the module
/// documentation).
#[inline]
pub fn kept_chars(s: &str) -> u32 {
    count_kept(s).chars
}

/// Characters of a text span after decoding character references (white space normalised).
#[inline]
pub fn content_chars(raw: &str) -> u32 {
    content_of(raw, count_kept(raw))
}

/// [`content_chars`] of `raw` whose [`count_kept`] is `kept`: the same count unless `raw` holds
/// a `&`, then the count of the decoded text.
#[inline]
fn content_of(raw: &str, kept: Kept) -> u32 {
    if kept.has_amp {
        count_kept(&htmlize::unescape(raw)).chars
    } else {
        kept.chars
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
        let kept = count_kept(slice);
        cur.length += kept.chars;
        cur.rtl += kept.rtl;
        cur.ascii += kept.ascii;
        if s.class == ByteClass::Text && kept.chars > 0 {
            cur.content += content_of(slice, kept);
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

// Display lines: any sorted, disjoint list of byte ranges a view shows as lines (virtual
// lines, raw lines, the reading view's lines). Shared by the traces' line aggregation and the
// block projections.

/// The display line holding byte `b` of `display` (the byte ranges of the lines a view shows,
/// sorted and contiguous); past the end: the last line. O(log lines).
pub fn display_line_of(display: &[Range<usize>], b: usize) -> usize {
    display
        .partition_point(|r| r.end <= b)
        .min(display.len().saturating_sub(1))
}

/// The display lines that overlap the byte range `b`: from the first line ending after its
/// start to the last line starting before its end; `None` when there is none (`b` empty, or
/// in a gap between display lines — the reading view leaves out lines of markup only).
pub fn lines_over(display: &[Range<usize>], b: Range<usize>) -> Option<Range<usize>> {
    let a = display.partition_point(|r| r.end <= b.start);
    let z = display.partition_point(|r| r.start < b.end);
    (a < z).then_some(a..z)
}

/// `r` without the ASCII white space at its ends (a virtual line's trailing newline and the
/// next raw line's indentation are not part of what it shows); `r` itself when it is all white
/// space or out of the text.
pub fn solid(text: &[u8], r: Range<usize>) -> Range<usize> {
    let Some(b) = text.get(r.clone()) else {
        return r;
    };
    match b.iter().position(|c| !c.is_ascii_whitespace()) {
        Some(a) => {
            let z = b
                .iter()
                .rposition(|c| !c.is_ascii_whitespace())
                .unwrap_or(a);
            r.start + a..r.start + z + 1
        }
        None => r,
    }
}

/// The byte ranges of the physical lines of `text`: each ends after its `\n` (the last one at
/// the end of the text). Never empty: an empty text has one empty line.
pub fn raw_lines(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in memchr::memchr_iter(b'\n', text.as_bytes()) {
        out.push(start..i + 1);
        start = i + 1;
    }
    if start < text.len() || out.is_empty() {
        out.push(start..text.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_lines_split_after_newlines() {
        assert_eq!(raw_lines(""), vec![0..0]);
        assert_eq!(raw_lines("a\nb"), vec![0..2, 2..3]);
        assert_eq!(raw_lines("a\n"), vec![0..2]);
    }

    use crate::page::lex::lex;
    use proptest::strategy::Strategy;

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

    /// The three-pass `count_kept` this module had before it was made single-pass, kept as the
    /// reference: (kept chars, rtl chars, ascii chars).
    fn count_kept_reference(s: &str) -> (u32, u32, u32) {
        fn ws(b: u8) -> bool {
            matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
        }
        let (mut runs, mut seen, mut pending) = (0, false, false);
        for &c in s.as_bytes() {
            if ws(c) {
                pending = seen;
            } else {
                if pending {
                    runs += 1;
                    pending = false;
                }
                seen = true;
            }
        }
        let (mut ascii, mut other, mut rtl) = (0u32, 0u32, 0u32);
        for c in s.chars() {
            if c.is_ascii() {
                ascii += u32::from(!ws(c as u8));
            } else {
                other += 1;
                rtl += u32::from(is_rtl(c));
            }
        }
        (ascii + other + runs, rtl, ascii + runs)
    }

    /// Strings over an alphabet that exercises every branch: all five white-space bytes, `&`
    /// and references, other ASCII, Latin-1, characters at the edges of each right-to-left
    /// block, ZWNJ, CJK and a supplementary-plane character.
    fn tricky_text() -> impl proptest::strategy::Strategy<Value = String> {
        let alphabet = vec![
            ' ',
            '\t',
            '\n',
            '\r',
            '\u{c}',
            '&',
            ';',
            'a',
            'Z',
            '<',
            '\u{0}',
            '\u{7f}',
            '\u{a0}',
            'é',
            '\u{57f}',
            '\u{580}',
            '\u{58f}',
            '\u{590}',
            'س',
            '\u{7ff}',
            '\u{800}',
            '\u{8ff}',
            '\u{900}',
            '\u{200b}',
            '\u{200c}',
            '\u{fb1c}',
            '\u{fb1d}',
            '\u{fdff}',
            '\u{fe6f}',
            '\u{fe70}',
            '\u{fefc}',
            '\u{fefd}',
            '中',
            '\u{107ff}',
            '\u{10800}',
            '\u{1e800}',
            '\u{1efff}',
            '\u{1f000}',
            '\u{1f600}',
        ];
        proptest::collection::vec(proptest::sample::select(alphabet), 0..40)
            .prop_map(|v| v.into_iter().collect())
    }

    #[test]
    fn swar_white_space_is_exact_for_every_byte_pair() {
        // Every value next to every value, in every lane: no false hit, no miss, no carry.
        for v in 0..=255u8 {
            for u in 0..=255u8 {
                for lane in 0..7 {
                    let mut word = [b'x'; 8];
                    word[lane] = v;
                    word[lane + 1] = u;
                    let expected = word.iter().enumerate().fold(0u64, |m, (k, &c)| {
                        let ws = BYTE_FLAGS[c as usize] & byte_flag::WS != 0;
                        m | (u64::from(ws) << (8 * k + 7))
                    });
                    assert_eq!(
                        swar::ws_bytes(u64::from_le_bytes(word)),
                        expected,
                        "{word:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn count_kept_on_long_uniform_runs() {
        // Runs long enough for a byte lane of a SWAR counter to reach its 255 limit.
        for unit in [
            "a",
            " ",
            "a ",
            "\u{5d0}",
            "\u{5d0} ",
            "中",
            "&amp;",
            "\n\t",
            "\u{10800}x",
        ] {
            for len in [2039usize, 2040, 2041, 2048, 4096, 4097] {
                let s = unit.repeat(len.div_ceil(unit.len()));
                let k = count_kept(&s);
                assert_eq!(
                    (k.chars, k.rtl, k.ascii),
                    count_kept_reference(&s),
                    "{unit:?} × {len}"
                );
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn count_kept_matches_reference_on_long_text(parts in proptest::collection::vec(tricky_text(), 0..120)) {
            // Up to ~19 000 bytes: several 255-word groups of the SWAR counters.
            let s = parts.concat();
            let k = count_kept(&s);
            proptest::prop_assert_eq!((k.chars, k.rtl, k.ascii), count_kept_reference(&s));
            proptest::prop_assert_eq!(k.has_amp, s.contains('&'));
        }

        #[test]
        fn count_kept_matches_reference(s in tricky_text()) {
            let k = count_kept(&s);
            proptest::prop_assert_eq!((k.chars, k.rtl, k.ascii), count_kept_reference(&s));
            proptest::prop_assert_eq!(k.has_amp, s.contains('&'));
        }

        #[test]
        fn count_kept_matches_reference_on_any_string(s in "\\PC*") {
            let k = count_kept(&s);
            proptest::prop_assert_eq!((k.chars, k.rtl, k.ascii), count_kept_reference(&s));
        }

        #[test]
        fn content_chars_matches_reference(s in tricky_text(), refs in proptest::sample::subsequence(
            vec!["&amp;", "&lt;", "&#1587;", "&#x200C;", "&nbsp;", "&bogus;", "& "], 0..4)) {
            let s = format!("{s}{}", refs.concat());
            let expected = if s.contains('&') {
                count_kept_reference(&htmlize::unescape(&s)).0
            } else {
                count_kept_reference(&s).0
            };
            proptest::prop_assert_eq!(content_chars(&s), expected);
        }
    }

    #[test]
    fn empty_and_comment_only() {
        assert!(lines_of("").is_empty());
        assert_eq!(lines_of("<!-- only -->"), vec!["<!-- only -->"]);
    }
}
