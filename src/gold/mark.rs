//! Marking the main content of a page with a CSS selector (`cescope gold mark`, issue #4).
//!
//! The page's **decoded** UTF-8 text ([`Page::text`]) is fed to lol_html, a streaming HTML
//! parser with CSS selector matching, so every source location it reports is a byte offset into
//! the decoded text — the offsets gold files use. Each element matching the selector covers the
//! bytes from the `<` of its start tag to the `>` of its end tag; the main content is the union
//! of those ranges (nested or overlapping matches merge), and [`Page::render`] gives its text.
//!
//! Elements without their own end tag follow lol_html's model of the page, which has no HTML
//! tree construction: a void element (`<img>`) and an element still open at the end of the page
//! cover only their start tag (no text: select the container instead); an element left open
//! until an ancestor's end tag (`<div><p>a<p>b</div>`: lol_html does not close a `<p>` at the
//! next `<p>`, so the first `<p>` holds both paragraphs) runs to the start of that end tag. The
//! selectors
//! are the ones lol_html supports: type, class, id, attribute selectors, `:nth-child`,
//! `:first-child`, `:nth-of-type`, `:first-of-type`, `:not(…)`, the descendant and child
//! combinators, and selector lists (`h1, div.story > p`); no sibling combinators.

use std::borrow::Cow;
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

use lol_html::html_content::{Element, EndTag};
use lol_html::{ElementContentHandlers, HtmlRewriter, Selector, Settings};

use super::Gold;
use crate::page::{ByteClass, Page};
use crate::selection::Selection;

/// What can go wrong marking a page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MarkError {
    /// The CSS selector cannot be parsed (or uses a feature lol_html does not support).
    #[error("invalid CSS selector {selector:?}: {message}")]
    InvalidSelector {
        /// The selector as given.
        selector: String,
        /// lol_html's explanation.
        message: String,
    },
    /// The HTML parser gave up on the page.
    #[error("cannot parse {page} for selector {selector:?}: {message}")]
    Parse {
        /// The page's name.
        page: String,
        /// The selector being matched.
        selector: String,
        /// lol_html's explanation.
        message: String,
    },
}

/// One element matched by a selector: byte offsets into the page's decoded text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ElementMatch {
    /// The `<` of the start tag.
    pub start: usize,
    /// Just after the `>` of the start tag.
    pub start_tag_end: usize,
    /// Where the element's content ends: the `<` of its end tag, or of the ancestor's end tag
    /// that closes it; `None` for a void element or one never closed.
    pub end_tag_start: Option<usize>,
    /// Just after the `>` of its own end tag; the `<` of the closing ancestor's end tag; or
    /// [`ElementMatch::start_tag_end`] when the element is void or never closed.
    pub end: usize,
    /// True when the element was closed by an ancestor's end tag instead of its own.
    pub implicit_end: bool,
}

impl ElementMatch {
    /// The whole element, start tag to end tag (only the start tag without an end tag).
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }

    /// The element's content between its tags (`None` without an end tag).
    pub fn content(&self) -> Option<Range<usize>> {
        self.end_tag_start.map(|e| self.start_tag_end..e)
    }
}

/// Checks that `selector` is a CSS selector lol_html can match.
pub fn parse_selector(selector: &str) -> Result<Selector, MarkError> {
    selector
        .parse::<Selector>()
        .map_err(|e| MarkError::InvalidSelector {
            selector: selector.to_string(),
            message: e.to_string().trim_end_matches('.').to_string(),
        })
}

/// The elements of `page` matching `selector`, in document order (by start tag). O(page bytes ×
/// selector size), one pass of lol_html over the decoded text (non-strict parsing, no charset
/// switching: the text is already decoded).
pub fn select_elements(page: &Page, selector: &str) -> Result<Vec<ElementMatch>, MarkError> {
    let sel = parse_selector(selector)?;
    let found: Rc<RefCell<Vec<ElementMatch>>> = Rc::default();
    let handlers = {
        let found = Rc::clone(&found);
        ElementContentHandlers::default().element(move |el: &mut Element<'_, '_>| {
            let loc = el.source_location().bytes();
            let idx = {
                let mut f = found.borrow_mut();
                f.push(ElementMatch {
                    start: loc.start,
                    start_tag_end: loc.end,
                    end_tag_start: None,
                    end: loc.end,
                    implicit_end: false,
                });
                f.len() - 1
            };
            if el.can_have_content() {
                let found = Rc::clone(&found);
                let name = el.tag_name();
                el.on_end_tag(Box::new(move |end: &mut EndTag<'_>| {
                    let loc = end.source_location().bytes();
                    let own = end.name() == name;
                    let mut f = found.borrow_mut();
                    f[idx].end_tag_start = Some(loc.start);
                    f[idx].end = if own { loc.end } else { loc.start };
                    f[idx].implicit_end = !own;
                    Ok(())
                }))?;
            }
            Ok(())
        })
    };
    let settings = Settings::new()
        .with_strict(false)
        .append_element_content_handler((Cow::Owned(sel), handlers));
    let parse_err = |e: lol_html::errors::RewritingError| MarkError::Parse {
        page: page.name().to_string(),
        selector: selector.to_string(),
        message: e.to_string(),
    };
    let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
    rewriter.write(page.text().as_bytes()).map_err(parse_err)?;
    rewriter.end().map_err(parse_err)?;
    let mut out = std::mem::take(&mut *found.borrow_mut());
    let len = page.text().len();
    out.retain(|m| m.start < m.end && m.end <= len);
    out.sort_by_key(|m| m.start);
    Ok(out)
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

/// The headline range for `selector`: the content of the first matching element that has an end
/// tag and content text, tightened to that text ([`tighten_to_text`]).
pub fn headline_range(page: &Page, selector: &str) -> Result<Option<Range<usize>>, MarkError> {
    Ok(select_elements(page, selector)?
        .iter()
        .filter_map(ElementMatch::content)
        .find_map(|r| tighten_to_text(page, r)))
}

/// A draft gold standard whose main content is the union of the elements matching `selector`
/// ([`select_elements`]) and whose headline is [`headline_range`] of `headline` (none when not
/// given or not found). The gold records the selectors in its notes. An empty main content means
/// the selector matched nothing (or only elements without end tags).
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
        Selection::from_ranges(matches.iter().map(|m| m.range())),
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
        assert_eq!(m[0].end_tag_start, None);
        // Closed by `</body>`: runs to the start of that end tag.
        assert!(m[1].implicit_end);
        assert_eq!(
            &PAGE[m[1].range()],
            "<p class=open>unclosed<footer>Foot</footer>"
        );
        let t = "<div class=s><p>a<p>b</div><div class=s>open";
        let page = Page::from_text("t.html", t);
        let m = select_elements(&page, "p, div").unwrap();
        let got: Vec<&str> = m.iter().map(|m| &t[m.range()]).collect();
        assert_eq!(
            got,
            [
                "<div class=s><p>a<p>b</div>",
                "<p>a<p>b",
                "<p>b",
                "<div class=s>"
            ]
        );
        assert_eq!(
            mark_page(&page, "p", None, "t").unwrap().main_content.text,
            "a\nb"
        );
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
        for bad in ["div[", "", "a + b", "p::before"] {
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
