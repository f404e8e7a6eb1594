//! The normal form of selections, and masked pages (the page "as left by the previous filter" of
//! a serial filter set, Weissig & Gottron, *Combinations of Content Extraction Algorithms*,
//! section 3).
//!
//! **Normal form.** A selection in normal form covers **content text only**: bytes the lexer
//! classes as [`ByteClass::Text`] (character data outside tags, scripts, styles, comments,
//! declarations and CDATA; RCDATA such as `title` text counts as text). Tags are never part of a
//! normal-form selection, so "the `<p>` element" and "the text of the `<p>` element" are the same
//! selection, and union, intersection and weighted voting of selections made by different
//! extractors, or by an annotator who marked whole elements, compare like with like. White space
//! inside text is kept (it is text); [`Page::normalize`] maps any selection to normal form.
//!
//! **Masked page.** [`Page::masked`] keeps every byte offset valid: the masked page's text has the
//! same length as the original, all markup (tags, scripts, styles, comments, declarations) is
//! unchanged, content text inside the kept selection is unchanged, and every other content-text
//! byte is replaced by an ASCII space. Because a space is one byte, the result is valid UTF-8
//! whatever characters were blanked, and because blanking never creates a `<` or removes one,
//! the masked text lexes into exactly the same spans as the original (tested). Any extractor can
//! run on a masked page, and its selection is already a selection over the original page.

use super::lex::ByteClass;
use super::Page;
use crate::selection::Selection;

impl Page {
    /// All content text of the page as a selection (the bytes of every [`ByteClass::Text`] span):
    /// the largest normal-form selection. O(spans).
    pub fn content_text(&self) -> Selection {
        Selection::from_ranges(
            self.lexed()
                .spans
                .iter()
                .filter(|s| s.class == ByteClass::Text)
                .map(|s| s.range()),
        )
    }

    /// `sel` in normal form: its intersection with [`Page::content_text`], clipped to the page.
    /// Idempotent. O(k + spans) for k ranges.
    pub fn normalize(&self, sel: &Selection) -> Selection {
        sel.intersection(&self.content_text())
    }

    /// True when `sel` is in normal form for this page (see the module documentation).
    pub fn is_normal(&self, sel: &Selection) -> bool {
        self.normalize(sel) == *sel
    }

    /// The page with every content-text byte outside `keep` replaced by a space (see the module
    /// documentation): same length, same markup, same byte offsets, same lexing. The masked page
    /// keeps the original's name, raw bytes (so its SHA-256 names the page it came from) and
    /// encoding; its lexing, lines and other lazy parts are rebuilt on first use.
    /// O(text length).
    pub fn masked(&self, keep: &Selection) -> Page {
        let text = self.text();
        let mut bytes = text.as_bytes().to_vec();
        let removed = self.content_text().difference(keep);
        for r in removed.ranges() {
            // Whole characters only: a character is removed when its first byte is, so a range
            // that cuts a character (an ill-formed selection) never leaves half of it behind.
            let start = ceil_char_boundary(text, r.start);
            let end = ceil_char_boundary(text, r.end);
            if start < end {
                bytes[start..end].fill(b' ');
            }
        }
        // Whole characters were replaced by ASCII spaces, so the bytes are still UTF-8.
        let masked = String::from_utf8(bytes).unwrap_or_else(|e| {
            String::from_utf8_lossy(e.as_bytes()).into_owned() // unreachable; keeps no panic
        });
        self.with_text(masked)
    }
}

/// The smallest char boundary of `s` at or after `i` (`s.len()` past the end).
fn ceil_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const PAGE: &str = "<html><head><title>T</title><style>p{}</style></head><body>\
        <ul><li><a href=\"/\">Home</a></li></ul><p>Grüße aus <b>Köln</b> &amp; mehr</p>\
        <!-- c --><script>var a = '<p>';</script></body></html>";

    #[test]
    fn normal_form_is_text_only() {
        let p = Page::from_text("t.html", PAGE);
        let all = Selection::from_range(0..PAGE.len());
        let n = p.normalize(&all);
        assert_eq!(n, p.content_text());
        for r in n.ranges() {
            assert!(!PAGE[r.clone()].contains('<'), "{:?}", &PAGE[r.clone()]);
        }
        assert!(p.is_normal(&n));
        assert!(!p.is_normal(&all));
        // The <p> element and the text of the <p> element are the same selection.
        let ps = PAGE.find("<p>Gr").unwrap();
        let pe = PAGE.find("</p>").unwrap() + 4;
        let elem = p.normalize(&Selection::from_range(ps..pe));
        assert_eq!(p.render(&elem), "Grüße aus Köln & mehr");
    }

    #[test]
    fn masked_page_blanks_removed_text_only() {
        let p = Page::from_text("t.html", PAGE);
        let ps = PAGE.find("<p>Gr").unwrap();
        let pe = PAGE.find("</p>").unwrap() + 4;
        let keep = p.normalize(&Selection::from_range(ps..pe));
        let m = p.masked(&keep);
        assert_eq!(m.text().len(), PAGE.len());
        assert!(!m.text().contains("Home"));
        assert!(m.text().contains("<a href=\"/\">    </a>"));
        assert!(m.text().contains("var a = '<p>';"));
        assert_eq!(m.render(&m.content_text()), "Grüße aus Köln & mehr");
        assert_eq!(m.sha256(), p.sha256());
    }

    #[test]
    fn masking_a_cut_character_keeps_length_and_validity() {
        let p = Page::from_text("t.html", "<p>ü</p>");
        // Keep only the first byte of the two-byte ü: the character stays whole.
        let m = p.masked(&Selection::from_range(3..4));
        assert_eq!(m.text(), "<p>ü</p>");
        // Keep only its second byte: the character is removed whole.
        let m = p.masked(&Selection::from_range(4..5));
        assert_eq!(m.text(), "<p>  </p>");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn masked_page_invariants(
            text in "(<p>|</p>|<a href=x>|</a>|<b>|<script>|</script>|<!--|-->|[a-zäöü <&;]{0,8}){0,30}",
            keep in proptest::collection::vec((0usize..200, 0usize..40), 0..6),
        ) {
            let p = Page::from_text("p.html", text.clone());
            let keep = Selection::from_ranges(keep.iter().map(|&(s, l)| s..s + l));
            let m = p.masked(&keep);
            prop_assert_eq!(m.text().len(), text.len());
            // The same spans, the same classes.
            let a: Vec<_> = p.lexed().spans.iter().map(|s| (s.start, s.end, s.class)).collect();
            let b: Vec<_> = m.lexed().spans.iter().map(|s| (s.start, s.end, s.class)).collect();
            prop_assert_eq!(a, b);
            let kept = p.normalize(&keep);
            let content = p.content_text();
            for (i, c) in text.char_indices() {
                let blanked = content.contains(i) && !kept.contains(i);
                let got = &m.text()[i..i + c.len_utf8()];
                if blanked {
                    prop_assert!(got.bytes().all(|b| b == b' '), "char at {} not blanked", i);
                } else {
                    prop_assert_eq!(got, &text[i..i + c.len_utf8()]);
                }
            }
            // Normal form is idempotent and masking by everything is the identity.
            prop_assert_eq!(p.normalize(&kept), kept.clone());
            let whole = p.masked(&p.content_text());
            prop_assert_eq!(whole.text(), text.as_str());
        }
    }
}
