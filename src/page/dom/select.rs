//! CSS selectors matched on the positioned DOM: scraper's selector grammar and the `selectors`
//! crate's matching (the engine scraper and Servo use), run against this module's own tree
//! through an implementation of `selectors::Element` for a node handle — the way scraper does
//! for its `ElementRef`, so a selector selects here what it selects in scraper.
//!
//! What is supported is scraper's: type, universal, class, id and attribute selectors (all
//! operators), the four combinators (descendant, child, `+`, `~`), selector lists, structural
//! pseudo-classes (`:first-child`, `:nth-child(…)`, `:nth-of-type(…)`, `:last-child`,
//! `:only-child`, `:empty`, `:root`, …) and `:not(…)`, `:is(…)`, `:where(…)`, `:has(…)`; no
//! pseudo-elements and no state pseudo-classes (`:hover`). Attributes are matched by local
//! name (the DOM keeps no attribute namespaces: `xlink:href` is `href`).

use html5ever::{ns, LocalName, Namespace};
use scraper::selector::{CssLocalName, CssString, NonTSPseudoClass, PseudoElement, Simple};
use selectors::attr::{AttrSelectorOperation, CaseSensitivity, NamespaceConstraint};
use selectors::bloom::BloomFilter;
use selectors::matching::{
    self, ElementSelectorFlags, MatchingContext, MatchingForInvalidation, MatchingMode,
    NeedsSelectorFlags, QuirksMode, SelectorCaches,
};
use selectors::parser::{ParseRelative, SelectorList, SelectorParseErrorKind};
use selectors::OpaqueElement;

use super::{Dom, NodeId, NodeKind};

/// A parsed CSS selector list (`h1, div.story > p`), to match with [`Dom::select`].
#[derive(Debug, Clone)]
pub struct Selector {
    list: SelectorList<Simple>,
}

impl Selector {
    /// Parses `css` with scraper's grammar. Errors: the reason, in scraper's words
    /// (`"Token was not expected"`, `"Unexpected EOL"`, …), or naming what the grammar lacks
    /// (`"unsupported pseudo-class or pseudo-element"` for `:hover` or `::before`).
    pub fn parse(css: &str) -> Result<Selector, String> {
        let mut parser = cssparser::Parser::new(css);
        SelectorList::parse(&scraper::selector::Parser, &mut parser, ParseRelative::No)
            .map(|list| Selector { list })
            .map_err(|e| match e.kind {
                cssparser::ParseErrorKind::Custom(
                    SelectorParseErrorKind::UnsupportedPseudoClassOrElement,
                ) => "unsupported pseudo-class or pseudo-element (none of state, such as :hover, \
                      nor pseudo-elements, such as ::before, select an element of a page)"
                    .to_string(),
                cssparser::ParseErrorKind::Custom(
                    k @ (SelectorParseErrorKind::PseudoElementExpectedColon
                    | SelectorParseErrorKind::PseudoElementExpectedIdent),
                ) => scraper::error::SelectorErrorKind::from(k).to_string(),
                cssparser::ParseErrorKind::Custom(k) => format!("not a valid selector: {k:?}"),
                cssparser::ParseErrorKind::Basic(k) => {
                    scraper::error::SelectorErrorKind::from(k).to_string()
                }
            })
    }
}

impl Dom {
    /// The elements matching `sel`, in document order. O(elements × selector).
    pub fn select(&self, sel: &Selector) -> Vec<NodeId> {
        let mut caches = SelectorCaches::default();
        let mut ctx = MatchingContext::new(
            MatchingMode::Normal,
            None,
            &mut caches,
            QuirksMode::NoQuirks,
            NeedsSelectorFlags::No,
            MatchingForInvalidation::No,
        );
        self.elements()
            .map(|(id, _)| id)
            .filter(|&id| {
                let el = El { dom: self, id };
                sel.list
                    .slice()
                    .iter()
                    .any(|s| matching::matches_selector(s, 0, None, &el, &mut ctx))
            })
            .collect()
    }

    /// The namespace of element `id`: HTML, MathML or SVG, as the tree builder created it.
    fn namespace(&self, id: NodeId) -> Namespace {
        match self.nodes[id].flags & (super::F_HTML_NS | super::F_MATH_NS) {
            super::F_HTML_NS => ns!(html),
            super::F_MATH_NS => ns!(mathml),
            _ => ns!(svg),
        }
    }

    /// The element siblings of `id` (its parent's element children), in document order.
    fn element_siblings(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.parent(id)
            .into_iter()
            .flat_map(|p| self.children(p))
            .filter(|&c| self.kind(c) == NodeKind::Element)
    }
}

/// An element of a [`Dom`], as the `selectors` crate sees it.
#[derive(Debug, Clone, Copy)]
struct El<'a> {
    dom: &'a Dom,
    id: NodeId,
}

impl<'a> El<'a> {
    fn at(&self, id: NodeId) -> El<'a> {
        El { dom: self.dom, id }
    }

    fn name(&self) -> Option<&'a LocalName> {
        self.dom.nodes[self.id].name.as_ref()
    }
}

impl selectors::Element for El<'_> {
    type Impl = Simple;

    fn opaque(&self) -> OpaqueElement {
        OpaqueElement::new(&self.dom.nodes[self.id])
    }

    fn parent_element(&self) -> Option<Self> {
        self.dom
            .parent(self.id)
            .filter(|&p| self.dom.kind(p) == NodeKind::Element)
            .map(|p| self.at(p))
    }

    fn parent_node_is_shadow_root(&self) -> bool {
        false
    }

    fn containing_shadow_host(&self) -> Option<Self> {
        None
    }

    fn is_pseudo_element(&self) -> bool {
        false
    }

    fn prev_sibling_element(&self) -> Option<Self> {
        self.dom
            .element_siblings(self.id)
            .take_while(|&s| s != self.id)
            .last()
            .map(|s| self.at(s))
    }

    fn next_sibling_element(&self) -> Option<Self> {
        self.dom
            .element_siblings(self.id)
            .skip_while(|&s| s != self.id)
            .nth(1)
            .map(|s| self.at(s))
    }

    fn first_element_child(&self) -> Option<Self> {
        self.dom
            .children(self.id)
            .find(|&c| self.dom.kind(c) == NodeKind::Element)
            .map(|c| self.at(c))
    }

    fn is_html_element_in_html_document(&self) -> bool {
        self.dom.is_html_element(self.id)
    }

    fn has_local_name(&self, name: &CssLocalName) -> bool {
        self.name() == Some(&name.0)
    }

    fn has_namespace(&self, ns: &Namespace) -> bool {
        self.dom.namespace(self.id) == *ns
    }

    fn is_same_type(&self, other: &Self) -> bool {
        self.name() == other.name() && self.dom.namespace(self.id) == other.dom.namespace(other.id)
    }

    fn attr_matches(
        &self,
        _ns: &NamespaceConstraint<&Namespace>,
        local_name: &CssLocalName,
        operation: &AttrSelectorOperation<&CssString>,
    ) -> bool {
        self.dom
            .attrs(self.id)
            .any(|(n, v)| *n == *local_name.0 && operation.eval_str(v))
    }

    fn match_non_ts_pseudo_class(
        &self,
        _pc: &NonTSPseudoClass,
        _context: &mut MatchingContext<'_, Self::Impl>,
    ) -> bool {
        false
    }

    fn match_pseudo_element(
        &self,
        _pe: &PseudoElement,
        _context: &mut MatchingContext<'_, Self::Impl>,
    ) -> bool {
        false
    }

    fn apply_selector_flags(&self, _flags: ElementSelectorFlags) {}

    fn is_link(&self) -> bool {
        self.dom.tag_name(self.id) == Some("link")
    }

    fn is_html_slot_element(&self) -> bool {
        true
    }

    fn has_id(&self, id: &CssLocalName, case_sensitivity: CaseSensitivity) -> bool {
        self.dom
            .attr(self.id, "id")
            .is_some_and(|v| case_sensitivity.eq(id.0.as_bytes(), v.as_bytes()))
    }

    fn has_class(&self, name: &CssLocalName, case_sensitivity: CaseSensitivity) -> bool {
        self.dom.attr(self.id, "class").is_some_and(|v| {
            v.split_ascii_whitespace()
                .any(|c| case_sensitivity.eq(name.0.as_bytes(), c.as_bytes()))
        })
    }

    fn has_custom_state(&self, _name: &CssLocalName) -> bool {
        false
    }

    fn imported_part(&self, _name: &CssLocalName) -> Option<CssLocalName> {
        None
    }

    fn is_part(&self, _name: &CssLocalName) -> bool {
        false
    }

    fn is_empty(&self) -> bool {
        !self
            .dom
            .children(self.id)
            .any(|c| matches!(self.dom.kind(c), NodeKind::Element | NodeKind::Text))
    }

    fn is_root(&self) -> bool {
        self.dom
            .parent(self.id)
            .is_some_and(|p| self.dom.kind(p) == NodeKind::Document)
    }

    fn add_element_unique_hashes(&self, _filter: &mut BloomFilter) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::DomOptions;

    fn names(dom: &Dom, css: &str) -> Vec<String> {
        let sel = Selector::parse(css).unwrap();
        dom.select(&sel)
            .into_iter()
            .map(|i| {
                let mut s = dom.tag_name(i).unwrap().to_string();
                if let Some(id) = dom.attr(i, "id") {
                    s.push('#');
                    s.push_str(id);
                }
                s
            })
            .collect()
    }

    #[test]
    fn selectors_match_as_in_scraper() {
        let t = "<body><div id=a class='x y'><p id=p1>one</p><p id=p2 lang=en-GB>two</p>\
                 <span id=s></span></div><ul><li id=l1>a<li id=l2>b</ul>\
                 <svg id=g><foreignObject id=f><p id=p3>in svg</p></foreignObject></svg></body>";
        let dom = Dom::parse(t, &DomOptions::default());
        // The same selectors on scraper's own tree of the same text.
        let html = scraper::Html::parse_document(t);
        for css in [
            "p",
            "div.x.y > p",
            "#a p:first-child",
            "p + p",
            "p ~ span",
            "[lang|=en]",
            "li:nth-child(2)",
            "span:empty",
            ":root",
            "div:has(> span)",
            "p:not(#p1)",
            "foreignObject p",
            "svg, ul > li:last-child",
            "*:is(p, li)[id$='2']",
        ] {
            let sel = scraper::Selector::parse(css).unwrap();
            let want: Vec<String> = html
                .select(&sel)
                .map(|e| {
                    let mut s = e.value().name().to_string();
                    if let Some(id) = e.value().id() {
                        s.push('#');
                        s.push_str(id);
                    }
                    s
                })
                .collect();
            assert_eq!(names(&dom, css), want, "{css}");
        }
    }

    #[test]
    fn bad_selectors_are_errors() {
        for bad in ["div[", "", "p::before", "a >"] {
            assert!(Selector::parse(bad).is_err(), "{bad}");
        }
        // The reason names what is wrong and where, never "report this to the developer".
        for bad in ["p:hover", "p::before"] {
            let e = Selector::parse(bad).unwrap_err();
            assert!(
                e.starts_with("unsupported pseudo-class or pseudo-element"),
                "{bad}: {e}"
            );
        }
        assert_eq!(Selector::parse("div[").unwrap_err(), "Unexpected EOL");
    }
}
