//! Shared preprocessing: the hyperlink filters of Mohammadzadeh (2013), section 4.6.1, "the
//! second preprocessing step" of AdDANAg.
//!
//! - **Filter 1** (Algorithm 2) removes every hyperlink with its anchor text. It *is* the
//!   preprocessing of ACCB (thesis section 3.3.1.3: "all anchor tags are removed from HTML files
//!   during preprocessing").
//! - **Filter 2** (Algorithm 3) removes the attributes of every anchor tag, leaving `<a>`.
//! - **Filter 3** (Algorithm 4) replaces the attributes of every anchor start tag with a
//!   placeholder of `LT − 7` characters, `LT` being the length of the anchor text, so that a
//!   hyperlink's code balances its text; AdDANAg uses it.
//!
//! The filters never rewrite the page: [`link_filter`] gives the content and code counts per
//! virtual line as they would be after the filter, and the byte ranges Filter 1 removes, so
//! every selection stays a set of byte ranges over the original decoded text.

use std::ops::Range;

use crate::page::lex::{flags, ByteClass, Tag};
use crate::page::lines::{self, content_chars, is_removed};
use crate::page::text::normalise_ws;
use crate::page::Page;

crate::choice_enum! {
    /// A hyperlink filter of Mohammadzadeh (2013), section 4.6.1, named as the parameter
    /// choices spell it (AdDANAg's default first).
    pub enum LinkFilter {
        /// Filter 3 (Algorithm 4): replace the attributes of every anchor start tag with a
        /// placeholder of `LT − 7` characters ([`placeholder_len`]).
        Filter3 = "filter3",
        /// Filter 1 (Algorithm 2): remove every hyperlink with its anchor text (ACCB's
        /// preprocessing).
        Filter1 = "filter1",
        /// Filter 2 (Algorithm 3): remove the attributes of every anchor tag, leaving `<a>`.
        Filter2 = "filter2",
        /// No filter (the counts of DANAg).
        None = "none",
    }
}

/// Filter 3's placeholder length for an anchor text of `lt` characters: `LT − 7`, the 7 being
/// the length of `<a></a>` (thesis section 4.6.1.3, Algorithm 4). For `LT < 7` the thesis'
/// `new String("-", LT − 7)` has no meaning; cescope uses an empty placeholder, so a short anchor
/// text ("Home") keeps the 7 code characters of `<a></a>` and its line stays code-heavy.
pub fn placeholder_len(lt: usize) -> usize {
    lt.saturating_sub(7)
}

/// Content and code counts per virtual line after a hyperlink filter (Mohammadzadeh 2013,
/// section 4.6.1). Units: characters kept by the virtual-line preprocessing (section 4.3.1; white
/// space runs count 1), indexed by virtual line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LineCounts {
    /// Content characters per line (text outside tags, entities decoded), after the filter;
    /// never negative.
    pub content: Vec<i64>,
    /// Code characters per line: `length − content` (Formula 4.5's `T2 = Length − T1`), after
    /// the filter; never negative.
    pub code: Vec<i64>,
    /// All kept characters per line (`Length`), after the filter (may be below `content` only
    /// when a filter removed more than a line held; `code` is clamped at 0 then).
    pub length: Vec<i64>,
    /// Byte ranges over the decoded text removed by Filter 1 (each anchor element from its
    /// start tag to the end of its end tag), sorted; empty for the other filters. The text in
    /// them is no longer part of the page for the algorithm (ACCB's preprocessing).
    pub removed: Vec<Range<usize>>,
}

/// Applies `filter` to the page's virtual lines and counts content and code characters per
/// line (Mohammadzadeh 2013, section 4.6.1; Filter 1 = Algorithm 2, Filter 2 = Algorithm 3,
/// Filter 3 = Algorithm 4). [`LinkFilter::None`] gives the counts of DANAg (Formula 4.5).
///
/// An anchor is an `<a …>` start tag up to the next `</a>` or the next `<a …>` (browsers close
/// an open anchor there) or the end of the page; scripts, styles and comments are not part of
/// it (they are removed by the first preprocessing). Filter 3's `LT` is the number of
/// characters of the anchor text after entity decoding and white-space normalisation. The
/// counts are computed from the lexer's spans without rewriting the page, so every byte
/// offset stays valid. Cost: O(spans).
pub fn link_filter(page: &Page, filter: LinkFilter) -> LineCounts {
    let lines = &page.lines().lines;
    let mut length: Vec<i64> = lines.iter().map(|l| l.length as i64).collect();
    let mut content: Vec<i64> = lines.iter().map(|l| l.content as i64).collect();
    let mut removed = Vec::new();
    if filter != LinkFilter::None {
        let text = page.text();
        let spans = &page.lexed().spans;
        // The open anchor: (line of its start tag, kept chars of the start tag, start byte,
        // anchor text so far).
        struct Open {
            line: usize,
            tag_chars: i64,
            start: usize,
            text: String,
        }
        let mut open: Option<Open> = None;
        let close = |o: Open,
                     end: usize,
                     length: &mut Vec<i64>,
                     removed: &mut Vec<Range<usize>>| match filter {
            LinkFilter::Filter3 => {
                let lt = normalise_ws(&o.text).chars().count();
                // `<a` + placeholder + `>`: with `</a>` the anchor's code is 7 + (LT − 7) = LT,
                // the balance Filter 3 aims at (the space of `<a _____>` is not counted).
                let new = 3 + placeholder_len(lt) as i64;
                length[o.line] += new - o.tag_chars;
            }
            LinkFilter::Filter2 => length[o.line] += 3 - o.tag_chars,
            LinkFilter::Filter1 => removed.push(o.start..end),
            LinkFilter::None => {}
        };
        for (li, line) in lines.iter().enumerate() {
            for s in &spans[line.span_range()] {
                if is_removed(s) {
                    continue;
                }
                let slice = &text[s.range()];
                let is_a = s.class == ByteClass::Tag && s.tag == Tag::A;
                if is_a {
                    if let Some(o) = open.take() {
                        close(o, s.start as usize, &mut length, &mut removed);
                    }
                    if s.flags & flags::END != 0 {
                        if filter == LinkFilter::Filter1 {
                            // The end tag belongs to the removed element.
                            length[li] -= kept_chars(slice);
                            if let Some(r) = removed.last_mut() {
                                if r.end == s.start as usize {
                                    r.end = s.end as usize;
                                }
                            }
                        }
                        continue;
                    }
                    let tag_chars = kept_chars(slice);
                    if filter == LinkFilter::Filter1 {
                        length[li] -= tag_chars;
                    }
                    open = Some(Open {
                        line: li,
                        tag_chars,
                        start: s.start as usize,
                        text: String::new(),
                    });
                    continue;
                }
                if let Some(o) = open.as_mut() {
                    if filter == LinkFilter::Filter1 {
                        length[li] -= kept_chars(slice);
                        if s.class == ByteClass::Text {
                            content[li] -= content_chars(slice) as i64;
                        }
                    } else if s.class == ByteClass::Text {
                        if slice.contains('&') {
                            o.text.push_str(&htmlize::unescape(slice));
                        } else {
                            o.text.push_str(slice);
                        }
                    }
                }
            }
        }
        if let Some(o) = open.take() {
            close(o, text.len(), &mut length, &mut removed);
        }
    }
    let content: Vec<i64> = content.iter().map(|&c| c.max(0)).collect();
    let code: Vec<i64> = length
        .iter()
        .zip(&content)
        .map(|(&l, &c)| (l - c).max(0))
        .collect();
    LineCounts {
        content,
        code,
        length,
        removed,
    }
}

fn kept_chars(s: &str) -> i64 {
    lines::kept_chars(s) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_3_placeholder() {
        // "BBC Web Site" has LT = 12 → 5 underscores (thesis example)
        assert_eq!(placeholder_len(12), 5);
        assert_eq!(placeholder_len(7), 0);
        assert_eq!(placeholder_len(3), 0);
        assert_eq!(placeholder_len(0), 0);
    }

    fn t(c: &LineCounts, i: usize) -> (i64, i64) {
        (c.content[i], c.code[i])
    }

    #[test]
    fn filters_on_one_line_by_hand() {
        // The anchor line of `<p><a href="http://www.BBC.com/">BBC Web Site</a></p>` (virtual
        // line 1; `<p>` and `</p>` stand on lines of their own). Kept characters:
        // `<a href="http://www.BBC.com/">` 29 + 1 inner white-space run = 30, `BBC Web Site`
        // 10 + 2 = 12, `</a>` 4. DANAg: T1 = 12, Length = 46 → T2 = 34.
        // Filter 3: LT = 12 → placeholder 5 → start tag `<a_____>` = 8 → Length = 24, T2 = 12:
        // the anchor's code equals its text, diff = 0 (the purpose of Filter 3).
        // Filter 2: `<a>` → Length = 19, T2 = 7. Filter 1: the anchor is removed → 0 / 0.
        let p = Page::from_text(
            "t",
            "<p><a href=\"http://www.BBC.com/\">BBC Web Site</a></p>",
        );
        assert_eq!(t(&link_filter(&p, LinkFilter::None), 1), (12, 34));
        assert_eq!(link_filter(&p, LinkFilter::None).length[1], 46);
        assert_eq!(t(&link_filter(&p, LinkFilter::Filter3), 1), (12, 12));
        assert_eq!(t(&link_filter(&p, LinkFilter::Filter2), 1), (12, 7));
        let f1 = link_filter(&p, LinkFilter::Filter1);
        assert_eq!(t(&f1, 1), (0, 0));
        assert_eq!(f1.removed, vec![3..p.text().len() - 4]);
        assert!(link_filter(&p, LinkFilter::Filter3).removed.is_empty());
        // A short anchor text (LT = 4 < 7): empty placeholder, the 7 chars of `<a></a>` stay.
        let p = Page::from_text("t", "<p><a href=\"/home/index.html\">Home</a></p>");
        assert_eq!(t(&link_filter(&p, LinkFilter::Filter3), 1), (4, 7));
    }

    #[test]
    fn unclosed_anchor_ends_at_the_next_or_the_page_end() {
        // Two anchors, the first never closed: it ends where the second starts.
        let p = Page::from_text("t", "<a href=\"/x\">one<a href=\"/y\">two</a>");
        let f1 = link_filter(&p, LinkFilter::Filter1);
        let text = p.text();
        let second = text.rfind("<a").unwrap();
        assert_eq!(f1.removed, vec![0..second, second..text.len()]);
        assert!(f1.content.iter().all(|&c| c == 0));
        // Filter 3 on an unclosed anchor at the page end never panics.
        let p = Page::from_text("t", "<a href=\"/x\">dangling");
        assert_eq!(
            link_filter(&p, LinkFilter::Filter3)
                .content
                .iter()
                .sum::<i64>(),
            8
        );
        assert_eq!(
            <LinkFilter as crate::extract::Choice>::from_name("filter2"),
            Some(LinkFilter::Filter2)
        );
        assert_eq!(
            <LinkFilter as crate::extract::Choice>::from_name("nope"),
            None
        );
    }
}
