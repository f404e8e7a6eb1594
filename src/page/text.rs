//! Rendering a [`Selection`] of a page to plain text.
//!
//! Only content text is rendered: the parts of the selected byte ranges that the lexer classed
//! as [`ByteClass::Text`], with character references decoded. Pieces on different virtual lines
//! (i.e. separated by a block boundary, see [`crate::page::lines`]) are put on different output
//! lines; pieces on the same virtual line are joined directly when only markup lies between them
//! (`foo<b>bar</b>` → `foobar`, as a browser shows it) and with one space when unselected text or
//! white space lies between them. White space is normalised: runs collapse to one space, lines are
//! trimmed, empty lines dropped.

use super::lex::ByteClass;
use super::Page;
use crate::selection::Selection;

impl Page {
    /// The selected content text of the page, one output line per virtual line that has selected
    /// text (see the module documentation). O(selected bytes + log spans per range).
    pub fn render(&self, sel: &Selection) -> String {
        let text = self.text();
        let spans = &self.lexed().spans;
        let lines = self.lines();
        let mut out = String::new();
        let mut line_buf = String::new();
        let mut cur_line: Option<usize> = None;
        let mut last_end: Option<usize> = None;
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
        for r in sel.ranges() {
            let r = r.start.min(text.len())..r.end.min(text.len());
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
                if line != cur_line {
                    flush(&mut line_buf, &mut out);
                    cur_line = line;
                } else if let Some(prev) = last_end {
                    if gap_has_text_or_space(self, prev, a) {
                        line_buf.push(' ');
                    }
                }
                let piece = &text[a..b];
                if piece.contains('&') {
                    line_buf.push_str(&htmlize::unescape(piece));
                } else {
                    line_buf.push_str(piece);
                }
                last_end = Some(b);
            }
        }
        flush(&mut line_buf, &mut out);
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
    fn partial_ranges_and_separators() {
        let p = Page::from_text("t", "<p>alpha beta gamma</p>");
        // select "alpha" and "gamma" only: unselected text between → a space
        let s = Selection::from_ranges([3..8, 14..19]);
        assert_eq!(p.render(&s), "alpha gamma");
        assert_eq!(p.render(&Selection::default()), "");
    }

    #[test]
    fn ws_normalisation() {
        assert_eq!(normalise_ws("  a \n\t b  "), "a b");
        assert_eq!(normalise_ws("\u{a0}x"), "x");
    }
}
