//! Marking the main content of a page with a CSS selector (`cescope gold mark`, issue #4).
//!
//! The selector is matched on the page's positioned DOM ([`Page::dom`], issue 21: one HTML
//! model), with scraper's selector grammar and the `selectors` crate's matching
//! ([`crate::page::dom::Selector`]), so every element is the tree builder's element and every
//! range is a byte range of the decoded text — the offsets gold files use. A matching element
//! covers its **source region** ([`crate::page::Dom::region`]: its start tag, its end tag and
//! everything the tree builder put inside it, a set of ranges where foster parenting or the
//! adoption agency moved content); the main content is the union of the matches' regions
//! (nested or overlapping matches merge), and [`Page::render`] gives its text.
//!
//! Elements end where the tree builder ends them: `<div><p>a<p>b</div>` has two paragraphs, `a`
//! and `b`; a void element (`<img>`) is its start tag only; an element never closed ends with
//! its last descendant. `<noscript>` content is markup (the page's scripting flag, off by
//! default), so a selector finds the posts a forum serves there. The selectors are scraper's:
//! type, class, id and attribute selectors, the descendant, child and sibling combinators,
//! selector lists (`h1, div.story > p`), structural pseudo-classes (`:nth-child`,
//! `:first-of-type`, …), `:not`, `:is`, `:where`, `:has`; no pseudo-elements. (Until issue 21
//! lol_html matched them on its own reading of the page; it remains a test oracle:
//! `tests/dom.rs` checks both give the same matches where their models of the page agree.)

use std::ops::Range;

use super::Gold;
use crate::page::dom::{NodeId, Selector};
use crate::page::{ByteClass, Page};
use crate::selection::Selection;

/// What can go wrong marking a page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MarkError {
    /// The CSS selector cannot be parsed (or uses a feature scraper's grammar does not have).
    #[error("invalid CSS selector {selector:?}: {message}")]
    InvalidSelector {
        /// The selector as given.
        selector: String,
        /// The parser's explanation.
        message: String,
    },
}

/// One element matched by a selector: byte offsets into the page's decoded text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementMatch {
    /// The element in [`Page::dom`].
    pub node: NodeId,
    /// Its start tag.
    pub start_tag: Range<usize>,
    /// The end tag that closed it, if one did (not for a void element, nor one closed
    /// implicitly or never).
    pub end_tag: Option<Range<usize>>,
    /// Its source region ([`crate::page::Dom::region`]): start tag, end tag, and the source of
    /// every node inside it.
    pub region: Selection,
}

impl ElementMatch {
    /// The smallest range holding the whole element: start tag to end tag, or to the end of
    /// its last descendant.
    pub fn range(&self) -> Range<usize> {
        let r = self.region.ranges();
        match (r.first(), r.last()) {
            (Some(a), Some(b)) => a.start..b.end,
            _ => self.start_tag.clone(),
        }
    }

    /// Everything between the start tag and the end tag (or the element's end); `None` for an
    /// element with nothing inside it.
    pub fn content(&self) -> Option<Range<usize>> {
        let r = self.range();
        let end = self.end_tag.as_ref().map_or(r.end, |e| e.start);
        (self.start_tag.end < end).then_some(self.start_tag.end..end)
    }
}

/// Parses `selector` (scraper's grammar).
pub fn parse_selector(selector: &str) -> Result<Selector, MarkError> {
    Selector::parse(selector).map_err(|message| MarkError::InvalidSelector {
        selector: selector.to_string(),
        message,
    })
}

/// The elements of `page` matching `selector`, in document order. O(elements × selector size)
/// on the page's DOM (built on first use). Elements without a start tag in the source (the
/// `html`, `head`, `body` the tree builder implies, its clones, the empty `p` of a stray `</p>`)
/// are left out: they cover no markup of their own to mark.
pub fn select_elements(page: &Page, selector: &str) -> Result<Vec<ElementMatch>, MarkError> {
    let sel = parse_selector(selector)?;
    let dom = page.dom();
    Ok(dom
        .select(&sel)
        .into_iter()
        .filter_map(|node| {
            let start_tag = dom
                .spans(node)
                .first()
                .filter(|r| !page.text()[(*r).clone()].starts_with("</"))?
                .clone();
            Some(ElementMatch {
                node,
                start_tag,
                end_tag: dom.end_tag(node),
                region: dom.region(node),
            })
        })
        .collect())
}

/// The content text of `range`, tightened to its first and last non-white-space content-text
/// character ([`ByteClass::Text`] of the lexer); `None` when it holds no such text.
pub fn tighten_to_text(page: &Page, range: Range<usize>) -> Option<Range<usize>> {
    let text = page.text();
    let lexed = page.lexed();
    let mut first: Option<usize> = None;
    let mut last: Option<usize> = None;
    let mut si = lexed.span_index_at(range.start)?;
    while let Some(s) = lexed.spans.get(si) {
        if s.start as usize >= range.end {
            break;
        }
        si += 1;
        if s.class != ByteClass::Text {
            continue;
        }
        let a = (s.start as usize).max(range.start);
        let b = (s.end as usize).min(range.end);
        let Some(piece) = text.get(a..b) else {
            continue;
        };
        if let Some((i, _)) = piece.char_indices().find(|(_, c)| !c.is_whitespace()) {
            first.get_or_insert(a + i);
            let (j, c) = piece
                .char_indices()
                .rev()
                .find(|(_, c)| !c.is_whitespace())
                .expect("a non-space character exists");
            last = Some(a + j + c.len_utf8());
        }
    }
    Some(first?..last?)
}

/// The headline range for `selector`: the content of the first matching element that has
/// content text, tightened to that text ([`tighten_to_text`]).
pub fn headline_range(page: &Page, selector: &str) -> Result<Option<Range<usize>>, MarkError> {
    Ok(select_elements(page, selector)?
        .iter()
        .filter_map(ElementMatch::content)
        .find_map(|r| tighten_to_text(page, r)))
}

/// A draft gold standard whose main content is the union of the elements matching `selector`
/// ([`select_elements`]) and whose headline is [`headline_range`] of `headline` (none when not
/// given or not found). The gold records the selectors in its notes. An empty main content means
/// the selector matched nothing (or only elements without text).
pub fn mark_page(
    page: &Page,
    selector: &str,
    headline: Option<&str>,
    annotator: &str,
) -> Result<Gold, MarkError> {
    let matches = select_elements(page, selector)?;
    let head = match headline {
        Some(h) => headline_range(page, h)?,
        None => None,
    };
    let mut gold = Gold::new(page, annotator);
    gold.set_main_content(
        page,
        Selection::from_ranges(matches.iter().flat_map(|m| m.region.ranges().to_vec())),
    );
    if head.is_some() {
        // Found by a selector, page by page: a suggestion until an annotator confirms it.
        gold.suggest_headline(page, head);
    }
    gold.notes = match headline {
        Some(h) => format!("marked by selector {selector:?}, headline {h:?} (cescope gold mark)"),
        None => format!("marked by selector {selector:?} (cescope gold mark)"),
    };
    Ok(gold)
}

/// A finished (non-draft) gold standard with an empty main content and no headline, for a page
/// that has no main content (a home page, a list of teasers); its notes declare it
/// ([`super::NO_MAIN_CONTENT`]).
pub fn empty_gold(page: &Page, annotator: &str) -> Gold {
    let mut gold = Gold::new(page, annotator);
    gold.draft = false;
    gold.notes = format!("{} (cescope gold mark --empty)", super::NO_MAIN_CONTENT);
    gold
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<html><body><nav><a href=/>Home</a></nav>\n<h1>  Big <b>news</b> </h1>\
        <div class=story><p>First para.</p><div class=story><p>Nested.</p></div></div>\
        <aside>Ad</aside><div class=story><img src=x><p>Second &amp; last.</p></div>\
        <p class=open>unclosed<footer>Foot</footer></body></html>";

    #[test]
    fn elements_and_ranges_index_the_decoded_text() {
        let page = Page::from_text("t.html", PAGE);
        let m = select_elements(&page, "div.story").unwrap();
        assert_eq!(m.len(), 3);
        assert!(PAGE[m[0].range()].starts_with("<div class=story><p>First"));
        assert!(PAGE[m[0].range()].ends_with("</div></div>"));
        let g = mark_page(&page, "div.story", Some("h1"), "t").unwrap();
        assert_eq!(g.main_content.ranges.len(), 2, "nested matches merge");
        assert_eq!(g.main_content.text, "First para.\nNested.\nSecond & last.");
        let h = g.headline.as_ref().unwrap();
        assert_eq!(&PAGE[h.range[0]..h.range[1]], "Big <b>news");
        assert_eq!(h.text, "Big news");
        assert!(g.draft);
        assert!(super::super::check(&g, Some(&page)).is_empty());
    }

    #[test]
    fn non_ascii_offsets_are_text_offsets() {
        let page = Page::from_text("t.html", "<p>ß€</p><p class=x>Grüße</p>");
        let g = mark_page(&page, "p.x", None, "t").unwrap();
        assert_eq!(g.main_content.ranges, vec![[12, 34]]);
        assert_eq!(g.main_content.text, "Grüße");
    }

    #[test]
    fn void_unclosed_and_implicitly_closed_elements() {
        let page = Page::from_text("t.html", PAGE);
        let m = select_elements(&page, "img, p.open").unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(&PAGE[m[0].range()], "<img src=x>");
        assert_eq!(m[0].end_tag, None);
        assert_eq!(m[0].content(), None);
        // Closed by `<footer>`, as the tree builder closes it.
        assert_eq!(&PAGE[m[1].range()], "<p class=open>unclosed");
        assert_eq!(m[1].end_tag, None);
        let t = "<div class=s><p>a<p>b</div><div class=s>open";
        let page = Page::from_text("t.html", t);
        let m = select_elements(&page, "p, div").unwrap();
        let got: Vec<&str> = m.iter().map(|m| &t[m.range()]).collect();
        assert_eq!(
            got,
            [
                "<div class=s><p>a<p>b</div>",
                "<p>a",
                "<p>b",
                "<div class=s>open"
            ]
        );
        assert_eq!(
            mark_page(&page, "p", None, "t").unwrap().main_content.text,
            "a\nb"
        );
    }

    /// Text the tree builder moves (foster parenting) belongs to the element it is put in: the
    /// region is a set of ranges.
    #[test]
    fn regions_follow_the_tree() {
        let t = "<div class=c><table>stray<tr><td>cell</td></tr></table></div>";
        let page = Page::from_text("t.html", t);
        let m = select_elements(&page, "table").unwrap();
        assert_eq!(m.len(), 1);
        assert_eq!(
            m[0].region.ranges().len(),
            2,
            "the stray text is not the table's"
        );
        let g = mark_page(&page, "table", None, "t").unwrap();
        assert_eq!(g.main_content.text, "cell");
        let g = mark_page(&page, "div.c", None, "t").unwrap();
        assert_eq!(g.main_content.text, "stray\ncell");
    }

    /// `<noscript>` content is markup (scripting off, the default): a forum's posts there are
    /// found by their selector; read with scripting on, they are not elements.
    #[test]
    fn selectors_reach_into_noscript() {
        let t = "<body><noscript><div class=post><p>First post.</p></div>\
                 <div class=post><p>Second post.</p></div></noscript></body>";
        let page = Page::from_text("t.html", t);
        let g = mark_page(&page, "div.post", None, "t").unwrap();
        assert_eq!(g.main_content.text, "First post.\nSecond post.");
        let on = page.with_scripting(true);
        assert!(select_elements(&on, "div.post").unwrap().is_empty());
    }

    #[test]
    fn selector_lists_and_no_match() {
        let page = Page::from_text("t.html", PAGE);
        let g = mark_page(&page, "h1, aside", None, "t").unwrap();
        assert_eq!(g.main_content.text, "Big news\nAd");
        let g = mark_page(&page, "article", Some("h2"), "t").unwrap();
        assert!(g.main_content.ranges.is_empty() && g.headline.is_none());
    }

    #[test]
    fn invalid_selectors_are_named() {
        let page = Page::from_text("t.html", PAGE);
        for bad in ["div[", "", "a >", "p::before", "p:hover"] {
            let e = mark_page(&page, bad, None, "t").unwrap_err();
            assert!(
                matches!(&e, MarkError::InvalidSelector { selector, .. } if selector == bad),
                "{bad}: {e}"
            );
            assert!(e.to_string().contains(&format!("{bad:?}")));
        }
        assert!(matches!(
            mark_page(&page, "p", Some("h1["), "t"),
            Err(MarkError::InvalidSelector { .. })
        ));
    }

    #[test]
    fn empty_gold_is_final() {
        let page = Page::from_text("t.html", PAGE);
        let g = empty_gold(&page, "t");
        assert!(!g.draft && g.main_content.ranges.is_empty() && g.main_content.text.is_empty());
        assert!(super::super::check(&g, Some(&page)).is_empty());
    }
}
