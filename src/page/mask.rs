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
//!
//! **Pruned page.** [`Page::pruned`] is the page as a *node-removing* filter leaves it — what
//! the serial filter sets of Weissig & Gottron pass on by default: "the output document of one
//! filter provides the input for the next one" (section 3), and "the CE filters at most remove
//! nodes from the DOM-tree" (section 4). It is the masked page with, in addition, the whole
//! source region ([`crate::page::dom::Dom::region`]: tags, text, comments, scripts) of every
//! **removed element** blanked to spaces — same length, so every byte offset stays valid, and
//! white space of the same byte length, so the result is UTF-8.
//!
//! Which elements a filter removed is plain for a DOM filter (LQF deletes blocks), but line- and
//! token-based filters (DSC, BTE, ACCB) select text, not nodes, and the paper does not say
//! what their output document keeps. cescope's reading, the same for every member: an element
//! (any node of the positioned DOM) is removed when its subtree holds at least one word — a
//! run of non-white-space bytes in a text node shown as text (not under
//! [`crate::page::dom::Dom::is_non_text`]) — and none of its words is kept (`keep` meets none
//! of their bytes). So
//! - an element all of whose text a filter dropped goes with its markup — for LQF exactly the
//!   deleted link lists and menus, for BTE everything outside its token range that holds text;
//! - an element that keeps one word stays, with all its markup (the kept word must stay inside
//!   its ancestors); its removed text is blanked as on the masked page;
//! - an element without words (an `<img>`, a `<br>`, an empty `<div>`, a `<script>`) stays unless
//!   it lies inside a removed one: no filter judged it, and a filter such as LQF that judges
//!   blocks by their text would not have removed it.
//!
//! Bytes in no DOM node that lie inside a removed element's source hull (end tags the tree
//! builder ignored, CDATA delimiters) are blanked with it, so a stray `</div>` that the removed
//! element held cannot close a kept ancestor when the next filter parses the pruned page.
//! Bytes of other nodes inside that hull (text moved out of a `<table>` by foster parenting) are
//! never blanked with it: only the removed nodes' own spans are. Kept bytes never change.

use std::ops::Range;

use super::lex::ByteClass;
use super::tokens::is_space;
use super::Page;
use crate::selection::Selection;

impl Page {
    /// All content text of the page as a selection (the bytes of every [`ByteClass::Text`] span):
    /// the largest normal-form selection. O(spans) on first use (built once per page and
    /// kept), a copy afterwards.
    pub fn content_text(&self) -> Selection {
        self.content_text_ref().clone()
    }

    /// [`Page::content_text`] without the copy.
    fn content_text_ref(&self) -> &Selection {
        self.content_text.get_or_init(|| {
            Selection::from_ranges(
                self.lexed()
                    .spans
                    .iter()
                    .filter(|s| s.class == ByteClass::Text)
                    .map(|s| s.range()),
            )
        })
    }

    /// `sel` in normal form: its intersection with [`Page::content_text`], clipped to the page.
    /// Idempotent. O(k + spans) for k ranges.
    pub fn normalize(&self, sel: &Selection) -> Selection {
        sel.intersection(self.content_text_ref())
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
        self.blanked(&self.content_text_ref().difference(keep))
    }

    /// The page as left by a filter that removed the elements none of whose words `keep`
    /// holds, markup and all (see the module documentation): [`Page::masked`] plus the source
    /// regions of the removed elements blanked. Same length and byte offsets; kept bytes and
    /// the markup of kept elements unchanged. Builds the DOM of `self` (memoised); O(n log n).
    pub fn pruned(&self, keep: &Selection) -> Page {
        let removed = self.removed_elements(keep);
        let blank = self
            .content_text_ref()
            .union(&removed)
            .difference(&self.normalize(keep));
        self.blanked(&blank)
    }

    /// The bytes of the elements removed by a filter that kept `keep` ([`Page::pruned`]): the
    /// regions of the outermost removed elements, and the bytes in no node inside their hulls.
    fn removed_elements(&self, keep: &Selection) -> Selection {
        let dom = self.dom();
        let text = self.text().as_bytes();
        let kept = keep.ranges();
        // 0: no words, 1: words and none kept, 2: a word kept; propagated to the ancestors
        // (ids are in pre-order, so every parent has a smaller id than its children).
        let mut state = vec![0u8; dom.len()];
        for (id, spans) in dom.text_nodes() {
            if dom.is_non_text(id) {
                continue;
            }
            for r in spans {
                if has_word(text, r.clone()) {
                    state[id] = state[id].max(1);
                    if keeps_word(kept, text, r) {
                        state[id] = 2;
                        break;
                    }
                }
            }
        }
        for id in (1..dom.len()).rev() {
            if let Some(p) = dom.parent(id) {
                state[p] = state[p].max(state[id]);
            }
        }
        let mut own = Vec::new();
        let mut hulls = Vec::new();
        let mut id = 0;
        while id < dom.len() {
            if state[id] == 1 {
                own.extend(dom.region(id).ranges().iter().cloned());
                hulls.extend(dom.hull(id));
                id = dom.subtree(id).end;
            } else {
                id += 1;
            }
        }
        if own.is_empty() {
            return Selection::new();
        }
        let stray = Selection::from_ranges(hulls).difference(&dom.region(0));
        Selection::from_ranges(own).union(&stray)
    }

    /// The page with the bytes of `blank` replaced by spaces, whole characters only (a
    /// character goes when its first byte is in `blank`).
    fn blanked(&self, blank: &Selection) -> Page {
        let text = self.text();
        let mut bytes = text.as_bytes().to_vec();
        for r in blank.ranges() {
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

/// Does `text[r]` hold a non-white-space byte (a word, as [`Page::tokens`] counts words)?
fn has_word(text: &[u8], r: Range<usize>) -> bool {
    text.get(r).is_some_and(|b| b.iter().any(|&c| !is_space(c)))
}

/// Does a range of `kept` (sorted, disjoint) meet a non-white-space byte of `text[r]`?
fn keeps_word(kept: &[Range<usize>], text: &[u8], r: &Range<usize>) -> bool {
    let k = kept.partition_point(|s| s.end <= r.start);
    kept[k..]
        .iter()
        .take_while(|s| s.start < r.end)
        .any(|s| has_word(text, s.start.max(r.start)..s.end.min(r.end)))
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

    /// Up to five `(start, length)` ranges over a generated page.
    fn keeps() -> impl Strategy<Value = Vec<(usize, usize)>> {
        proptest::collection::vec((0usize..200, 0usize..40), 0..6)
    }

    /// A generated page and a selection of `(start, length)` ranges over it.
    fn page_and_keep(text: &str, keep: &[(usize, usize)]) -> (Page, Selection) {
        let keep = Selection::from_ranges(keep.iter().map(|&(s, l)| s..s + l));
        (Page::from_text("p.html", text), keep)
    }

    /// The page's bytes `r` are all spaces.
    fn blank(p: &Page, r: std::ops::Range<usize>) -> bool {
        p.text().as_bytes()[r].iter().all(|b| *b == b' ')
    }

    #[test]
    fn pruned_page_removes_the_elements_whose_words_all_went() {
        let html = "<div id=a><h2>Kept words</h2><ul><li><a href=x>one link</a></li>\
            <li><a href=y>two</a></li></ul><p>more <a href=z>kept</a> and <b>gone</b></p>\
            <img src=i><!-- c --><script>s()</script></div><p>gone too</p>";
        let p = Page::from_text("t.html", html);
        let at = |s: &str| html.find(s).unwrap();
        let keep = Selection::from_ranges([
            at("Kept")..at("</h2>"),
            at("more")..at("more") + 5,
            at("kept</a>")..at("kept</a>") + 4,
        ]);
        let m = p.pruned(&keep);
        assert_eq!(m.text().len(), html.len());
        // The list and the last paragraph go with their tags; <b> lost its only word.
        assert!(blank(&m, at("<ul>")..at("<p>more")), "{}", m.text());
        assert!(blank(&m, at("<b>")..at("</p><img")));
        assert!(blank(&m, at("<p>gone too")..html.len()));
        // Kept elements keep their markup (the <a> holding "kept" too); word-less elements
        // outside removed ones stay; removed text inside a kept element is blanked.
        for kept in [
            "<div id=a><h2>Kept words</h2>",
            "<p>more <a href=z>kept</a>     ",
            "<img src=i><!-- c --><script>s()</script></div>",
        ] {
            assert!(m.text().contains(kept), "{kept} in {}", m.text());
        }
        let left = m.render(&m.content_text());
        assert_eq!(
            left.split_whitespace().collect::<Vec<_>>(),
            ["Kept", "words", "more", "kept"]
        );
        // Every byte the masked page blanks is blanked here too; the raw bytes name the page.
        let masked = p.masked(&keep);
        for (i, b) in masked.text().bytes().enumerate() {
            if b == b' ' && html.as_bytes()[i] != b' ' {
                assert_eq!(m.text().as_bytes()[i], b' ', "byte {i}");
            }
        }
        assert_eq!(m.sha256(), p.sha256());
        // Keeping all content text changes nothing.
        assert_eq!(p.pruned(&p.content_text()).text(), html);
    }

    #[test]
    fn pruning_never_blanks_other_nodes_and_takes_stray_tags_with_it() {
        // Foster parenting moves "moved" before the table: pruning the table keeps it.
        let html = "<table>moved<tr><td>cell</td></tr></table><p>x</p>";
        let p = Page::from_text("t.html", html);
        let keep = Selection::from_range(7..12);
        let m = p.pruned(&keep);
        assert_eq!(
            m.text(),
            format!("{}moved{}", " ".repeat(7), " ".repeat(38))
        );
        // A stray end tag (no open element of that name) belongs to no node: pruned with the
        // list that holds it, so that no filter down the chain meets it without the list.
        let html = "<div id=a><ul><li>gone</li></x-y></ul><p>kept</p></div>";
        let p = Page::from_text("t.html", html);
        let at = html.find("kept").unwrap();
        let m = p.pruned(&Selection::from_range(at..at + 4));
        let (ul, p_at) = (html.find("<ul>").unwrap(), html.find("<p>").unwrap());
        assert!(blank(&m, ul..p_at), "{:?}", m.text());
        assert_eq!(&m.text()[..ul], "<div id=a>");
        assert_eq!(&m.text()[p_at..], "<p>kept</p></div>");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn pruned_page_invariants(
            text in "(<p>|</p>|<div>|</div>|<ul><li>|</li>|<a href=x>|</a>|<b>|<table>|<td>|</table>|<script>|</script>|<!--|-->|[a-zäö <&;]{0,8}){0,30}",
            keep in keeps(),
        ) {
            let (p, keep) = page_and_keep(&text, &keep);
            let m = p.pruned(&keep);
            prop_assert_eq!(m.text().len(), text.len());
            let masked = p.masked(&keep);
            let kept = p.normalize(&keep);
            for (i, c) in text.char_indices() {
                let got = &m.text()[i..i + c.len_utf8()];
                let was = &text[i..i + c.len_utf8()];
                // Every byte is kept or blanked; kept text is kept; masked blanks are blanks.
                prop_assert!(got == was || got.bytes().all(|b| b == b' '), "byte {}", i);
                if kept.contains(i) {
                    prop_assert_eq!(got, was);
                }
                if masked.text().as_bytes()[i] != text.as_bytes()[i] {
                    prop_assert!(got.bytes().all(|b| b == b' '));
                }
            }
            // A text node with a kept word keeps its ancestors' tags.
            let dom = p.dom();
            let bytes = text.as_bytes();
            for (id, spans) in dom.text_nodes() {
                let kept_word = spans.iter().any(|r| {
                    r.clone().any(|i| kept.contains(i) && !is_space(bytes[i]))
                });
                if !kept_word || dom.is_non_text(id) {
                    continue;
                }
                let mut a = dom.parent(id);
                while let Some(e) = a {
                    for r in dom.spans(e).iter().cloned().chain(dom.end_tag(e)) {
                        prop_assert_eq!(&m.text()[r.clone()], &text[r]);
                    }
                    a = dom.parent(e);
                }
            }
        }

        #[test]
        fn masked_page_invariants(
            text in "(<p>|</p>|<a href=x>|</a>|<b>|<script>|</script>|<!--|-->|[a-zäöü <&;]{0,8}){0,30}",
            keep in keeps(),
        ) {
            let (p, keep) = page_and_keep(&text, &keep);
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
