//! How the source view lays text out, shared by drawing ([`super::ui`]) and mouse hit tests
//! ([`super::app`]) so that neither depends on the other for it.

use std::ops::Range;

use unicode_width::UnicodeWidthChar;

/// The characters of `range` as the source view shows them: `(byte offset, shown char,
/// display width)`. Newlines show as `↵` (the white space after a newline collapses into it),
/// tabs as spaces, control characters as `·`; with `trim_leading`, white space at the start is
/// skipped.
pub fn display_chars(
    text: &str,
    range: Range<usize>,
    trim_leading: bool,
) -> impl Iterator<Item = (usize, char, usize)> + '_ {
    let start = range.start;
    let mut after_newline = trim_leading;
    text[range].char_indices().filter_map(move |(off, ch)| {
        let shown = if ch == '\n' {
            if after_newline {
                return None;
            }
            after_newline = true;
            '↵'
        } else if ch.is_whitespace() && after_newline {
            return None;
        } else {
            after_newline = false;
            if ch == '\t' {
                ' '
            } else if ch.is_control() {
                '·'
            } else {
                ch
            }
        };
        let w = UnicodeWidthChar::width(shown).unwrap_or(1).max(1);
        Some((start + off, shown, w))
    })
}

/// `s` in at most `max` characters, cut at its end with `…` (a URL keeps its site and the
/// start of its path).
pub fn shorten_end(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
    if max > 0 {
        t.push('…');
    }
    t
}
