//! Rendering a [`Selection`] of a page to plain text.
//!
//! Only content text is rendered: the parts of the selected byte ranges that the lexer classed
//! as [`ByteClass::Text`], with character references decoded. Pieces on different virtual lines
//! (i.e. separated by a block boundary, see [`crate::page::lines`]) are put on different output
//! lines; pieces on the same virtual line are joined directly when only markup lies between them
//! (`foo<b>bar</b>` → `foobar`, as a browser shows it) and with one space when unselected text or
//! white space lies between them. White space is normalised: runs collapse to one space, lines are
//! trimmed, empty lines dropped.

use std::ops::{ControlFlow, Range};

use super::lex::ByteClass;
use super::Page;
use crate::selection::Selection;

/// One piece of content text: a [`ByteClass::Text`] span (or its selected part).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Piece {
    /// Its virtual line.
    line: Option<usize>,
    /// Start and end byte over the page text.
    start: usize,
    end: usize,
    /// A space separates it from the previous piece of the same line.
    spaced: bool,
}

/// One line of the reading view ([`Page::reading_lines`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadingLine {
    /// The virtual line it shows.
    pub line: usize,
    /// The byte range of that virtual line.
    pub range: std::ops::Range<usize>,
    /// Its text as a reader sees it: character references decoded, white space collapsed.
    pub text: String,
    /// For each char of `text`, the byte of the page text where it comes from (a decoded
    /// reference maps to its `&`, a collapsed run of white space to its first byte).
    pub starts: Vec<usize>,
}

impl Page {
    /// The content-text pieces of `sel`, in document order (the one walk behind
    /// [`Page::render`] and [`Page::reading_lines`]).
    fn pieces(&self, sel: &Selection) -> Vec<Piece> {
        let mut out: Vec<Piece> = Vec::new();
        self.walk_pieces(sel, 0..self.text().len(), |p| {
            out.push(p);
            ControlFlow::Continue(())
        });
        out
    }

    /// Hands the content-text pieces of `sel` clipped to the byte range `within` to `visit`, in
    /// document order, until it breaks. O(log ranges + the selected bytes visited).
    fn walk_pieces(
        &self,
        sel: &Selection,
        within: Range<usize>,
        mut visit: impl FnMut(Piece) -> ControlFlow<()>,
    ) {
        let text = self.text();
        let spans = &self.lexed().spans;
        let lines = self.lines();
        let within = within.start.min(text.len())..within.end.min(text.len());
        let ranges = sel.ranges();
        let first = ranges.partition_point(|r| r.end <= within.start);
        let mut last: Option<Piece> = None;
        for r in &ranges[first..] {
            if r.start >= within.end {
                break;
            }
            let r = r.start.max(within.start)..r.end.min(within.end);
            let Some(mut si) = self.lexed().span_index_at(r.start) else {
                continue;
            };
            while si < spans.len() && (spans[si].start as usize) < r.end {
                let s = spans[si];
                si += 1;
                if s.class != ByteClass::Text {
                    continue;
                }
                let a = (s.start as usize).max(r.start);
                let b = (s.end as usize).min(r.end);
                if a >= b || !text.is_char_boundary(a) || !text.is_char_boundary(b) {
                    continue;
                }
                let line = lines.line_of(a);
                let spaced = match last {
                    Some(p) if p.line == line => gap_has_text_or_space(self, p.end, a),
                    _ => false,
                };
                let piece = Piece {
                    line,
                    start: a,
                    end: b,
                    spaced,
                };
                if visit(piece).is_break() {
                    return;
                }
                last = Some(piece);
            }
        }
    }

    /// Does `sel` hold content text within the byte range `within` — does the extract
    /// ([`Page::render`] of `sel`) show text that comes from there? True iff `render` of `sel`
    /// clipped to `within` is not empty: some selected [`ByteClass::Text`] byte there is, with
    /// character references decoded, not white space. For a virtual line (a line of the reading
    /// view) that clipped rendering is exactly the extract's line from it, so this is the
    /// inspector's gutter mark. Stops at the first such piece: O(log ranges + the selected
    /// bytes before it).
    pub fn holds_selected_text(&self, sel: &Selection, within: Range<usize>) -> bool {
        let text = self.text();
        let mut found = false;
        self.walk_pieces(sel, within, |p| {
            let piece = &text[p.start..p.end];
            let shows = if piece.contains('&') {
                htmlize::unescape(piece).chars().any(|c| !c.is_whitespace())
            } else {
                piece.chars().any(|c| !c.is_whitespace())
            };
            found = shows;
            if shows {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        found
    }

    /// Does the byte range `within` hold content text at all (text a reader sees, not only
    /// markup and white space)? [`Page::holds_selected_text`] with everything selected.
    pub fn holds_text(&self, within: Range<usize>) -> bool {
        self.holds_selected_text(&Selection::from_range(within.clone()), within)
    }

    /// The selected content text of the page, one output line per virtual line that has selected
    /// text (see the module documentation). O(selected bytes + log spans per range).
    pub fn render(&self, sel: &Selection) -> String {
        let text = self.text();
        let mut out = String::new();
        let mut line_buf = String::new();
        let flush = |line_buf: &mut String, out: &mut String| {
            let norm = normalise_ws(line_buf);
            if !norm.is_empty() {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&norm);
            }
            line_buf.clear();
        };
        let mut cur_line = None;
        for p in self.pieces(sel) {
            if Some(p.line) != cur_line {
                flush(&mut line_buf, &mut out);
                cur_line = Some(p.line);
            } else if p.spaced {
                line_buf.push(' ');
            }
            let piece = &text[p.start..p.end];
            if piece.contains('&') {
                line_buf.push_str(&htmlize::unescape(piece));
            } else {
                line_buf.push_str(piece);
            }
        }
        flush(&mut line_buf, &mut out);
        out
    }

    /// The page as a reader sees it, for the inspector's reading view: one [`ReadingLine`] per
    /// virtual line with content text, its text exactly as [`Page::render`] gives that line, and
    /// for every char the source byte it comes from (so selections made on the text map back to
    /// byte ranges). O(text).
    pub fn reading_lines(&self) -> Vec<ReadingLine> {
        let text = self.text();
        let all = Selection::from_range(0..text.len());
        let vlines = &self.lines().lines;
        let mut out: Vec<ReadingLine> = Vec::new();
        // Raw chars of the current line with their source bytes, before white-space collapsing.
        let mut raw: Vec<(char, usize)> = Vec::new();
        let mut cur: Option<usize> = None;
        let flush =
            |cur: Option<usize>, raw: &mut Vec<(char, usize)>, out: &mut Vec<ReadingLine>| {
                let mut t = String::new();
                let mut starts = Vec::new();
                let mut pending: Option<usize> = None;
                for &(c, b) in raw.iter() {
                    if c.is_whitespace() {
                        if !t.is_empty() && pending.is_none() {
                            pending = Some(b);
                        }
                    } else {
                        if let Some(pb) = pending.take() {
                            t.push(' ');
                            starts.push(pb);
                        }
                        t.push(c);
                        starts.push(b);
                    }
                }
                raw.clear();
                if let (Some(line), false) = (cur, t.is_empty()) {
                    if let Some(v) = vlines.get(line) {
                        out.push(ReadingLine {
                            line,
                            range: v.range(),
                            text: t,
                            starts,
                        });
                    }
                }
            };
        for p in self.pieces(&all) {
            let Some(line) = p.line else {
                continue;
            };
            if Some(line) != cur {
                flush(cur, &mut raw, &mut out);
                cur = Some(line);
            } else if p.spaced {
                raw.push((' ', p.start));
            }
            let piece = &text[p.start..p.end];
            // Segments from one `&` to the next: each decodes as `render` decodes it (the same
            // `htmlize::unescape`, which also knows references without `;`); the chars the
            // decoding left alone keep their own bytes, the rest map to the `&`.
            let mut seg_start = 0;
            while seg_start < piece.len() {
                let first = piece[seg_start..].chars().next().map_or(1, char::len_utf8);
                let next = piece[seg_start + first..]
                    .find('&')
                    .map_or(piece.len(), |k| seg_start + first + k);
                let seg = &piece[seg_start..next];
                let at = p.start + seg_start;
                if seg.starts_with('&') {
                    let dec = htmlize::unescape(seg);
                    // The smallest j whose tail seg[j..] the decoding kept as is.
                    let keep = (0..=seg.len().min(64))
                        .filter(|&j| seg.is_char_boundary(j))
                        .find(|&j| {
                            let tail = &seg[j..];
                            dec.len() >= tail.len()
                                && dec.is_char_boundary(dec.len() - tail.len())
                                && dec.ends_with(tail)
                        })
                        .unwrap_or(0);
                    let tail_len = seg.len() - keep;
                    for c in dec[..dec.len() - tail_len].chars() {
                        raw.push((c, at));
                    }
                    for (k, c) in seg[keep..].char_indices() {
                        raw.push((c, at + keep + k));
                    }
                } else {
                    for (k, c) in seg.char_indices() {
                        raw.push((c, at + k));
                    }
                }
                seg_start = next;
            }
        }
        flush(cur, &mut raw, &mut out);
        out
    }
}

/// Does the gap `a..b` hold content text or white space (then a space separates the pieces)?
fn gap_has_text_or_space(page: &Page, a: usize, b: usize) -> bool {
    if a >= b {
        return false;
    }
    let spans = &page.lexed().spans;
    let Some(mut si) = page.lexed().span_index_at(a) else {
        return false;
    };
    while si < spans.len() && (spans[si].start as usize) < b {
        let s = spans[si];
        if s.class == ByteClass::Text && (s.start as usize).max(a) < (s.end as usize).min(b) {
            return true;
        }
        si += 1;
    }
    false
}

/// Collapses runs of white space (Unicode) to one space and trims.
pub fn normalise_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending = false;
    for c in s.chars() {
        if c.is_whitespace() {
            pending = !out.is_empty();
        } else {
            if pending {
                out.push(' ');
                pending = false;
            }
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)]
mod tests {
    use super::*;

    fn all(p: &Page) -> Selection {
        Selection::from_ranges([0..p.text().len()])
    }

    #[test]
    fn renders_blocks_as_lines() {
        let p = Page::from_text(
            "t",
            "<html><head><title>T</title><script>x</script></head><body><p>Hello <b>big</b>   world &amp; more</p>\n<p>Two</p><span>a</span><span>b</span></body></html>",
        );
        assert_eq!(p.render(&all(&p)), "T\nHello big world & more\nTwo\nab");
    }

    #[test]
    fn reading_lines_are_the_rendered_lines_with_their_sources() {
        let html = "<html><head><title>T</title><script>x</script></head><body><p>Hello <b>big</b>   world &amp; more</p>\n<p>Two</p><span>a</span><span>b</span></body></html>";
        let p = Page::from_text("t", html);
        let lines = p.reading_lines();
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts.join("\n"), p.render(&all(&p)));
        let hello = &lines[1];
        assert_eq!(hello.text, "Hello big world & more");
        assert_eq!(hello.starts.len(), hello.text.chars().count());
        for (c, &b) in hello.text.chars().zip(&hello.starts) {
            match c {
                // The decoded reference maps to its `&`; a collapsed run to its first byte.
                '&' => assert!(html[b..].starts_with("&amp;")),
                ' ' => assert!(html[b..].starts_with(' ')),
                c => assert!(html[b..].starts_with(c), "{c:?} at {b}"),
            }
        }
        assert!(hello.range.contains(&hello.starts[0]));
        assert!(Page::from_text("t", "<p> </p>").reading_lines().is_empty());
        // A `&` followed by multi-byte text within 32 bytes (no panic on a char boundary).
        let p = Page::from_text("t", "<p>&mdash; تصوير: أحمد رشدي & more; x</p>");
        let l = &p.reading_lines()[0];
        assert_eq!(l.text, p.render(&all(&p)));
    }

    #[test]
    fn partial_ranges_and_separators() {
        let p = Page::from_text("t", "<p>alpha beta gamma</p>");
        // select "alpha" and "gamma" only: unselected text between → a space
        let s = Selection::from_ranges([3..8, 14..19]);
        assert_eq!(p.render(&s), "alpha gamma");
        assert_eq!(p.render(&Selection::default()), "");
    }

    #[test]
    fn holds_selected_text_on_lines() {
        let html = "<p>alpha &nbsp; beta</p>\n<div>  <b>x</b>&amp;</div>";
        let p = Page::from_text("t", html);
        let lines = p.reading_lines();
        assert_eq!(lines.len(), 2);
        let at = |s: &str| html.find(s).unwrap();
        // Only the white space and the `&nbsp;` between the words: nothing a reader sees.
        let gap = Selection::from_range(at("alpha") + 5..at("beta"));
        assert!(!p.holds_selected_text(&gap, lines[0].range.clone()));
        assert_eq!(p.render(&gap), "");
        let beta = Selection::from_range(at("beta")..at("beta") + 1);
        assert!(p.holds_selected_text(&beta, lines[0].range.clone()));
        assert!(!p.holds_selected_text(&beta, lines[1].range.clone()));
        // Markup only, and the decoded `&amp;`.
        let tag = Selection::from_range(at("<b>")..at("<b>") + 3);
        assert!(!p.holds_selected_text(&tag, lines[1].range.clone()));
        let amp = Selection::from_range(at("&amp;")..at("&amp;") + 5);
        assert!(p.holds_selected_text(&amp, lines[1].range.clone()));
        assert!(p.holds_text(lines[1].range.clone()));
        assert!(!p.holds_text(0..3), "`<p>`");
    }

    proptest::proptest! {
        /// The definition: a range holds selected text iff rendering the selection clipped to
        /// it gives text.
        #[test]
        fn holds_selected_text_is_render_of_the_clip(
            rs in proptest::collection::vec((0usize..90, 0usize..12), 0..6),
            w in (0usize..90, 0usize..40),
        ) {
            let html = "<p>one &amp; two</p>\n<p> &nbsp; </p><ul><li>three<b>four</b></li></ul> five";
            let p = Page::from_text("t", html);
            let sel = Selection::from_ranges(rs.iter().map(|&(s, l)| s..s + l));
            let within = w.0..w.0 + w.1;
            let clip = sel.intersection(&Selection::from_range(within.clone()));
            proptest::prop_assert_eq!(
                p.holds_selected_text(&sel, within.clone()),
                !p.render(&clip).is_empty()
            );
        }
    }

    #[test]
    fn ws_normalisation() {
        assert_eq!(normalise_ws("  a \n\t b  "), "a b");
        assert_eq!(normalise_ws("\u{a0}x"), "x");
    }
}
