//! The positioned DOM: an HTML5 tree of the page whose every node knows the source bytes it came
//! from.
//!
//! Route (`notes/tech.md` § a): cescope's tokenizer (`tokenize.rs`: the HTML tokenizer's rules
//! over the lexer's extents of tags, comments and raw text) hands each token with its byte span
//! in the decoded text ([`crate::page::Page::text`]) to html5ever's `TreeBuilder` (the WHATWG
//! tree construction, with implied tags, foster parenting and the adoption agency); the tree
//! builder calls a tree sink that builds the tree scraper's `HtmlTreeSink` would build
//! (`tree.rs`) and stamps every node it creates or extends with the span of the token being
//! processed. The tree builder also drives the tokenizer's state (raw text, RCDATA, script
//! data, CDATA in foreign content), so tokens are split as a browser splits them.
//!
//! What each node is stamped with (**byte ranges into the decoded text**):
//! - an element: its start tag (`<div class=x>`, `<` to `>`), and, in a separate field, the end
//!   tag that closed it where one can be matched (an element closed implicitly has none); an
//!   element created from an end tag (`</p>` with no open `<p>`, `</br>`) has that end tag as
//!   its own span; elements the tree builder implies (`html`, `head`, `body`, `tbody`) or clones
//!   (adoption agency, reconstructed formatting elements) have none;
//! - a text node: the spans of the character data it holds (several when the tree builder merged
//!   text from different places into one node); decoding the character references of the
//!   spans' source gives the node's text (except inside CDATA sections, whose `&` is literal);
//! - a comment / doctype: the whole `<!-- … -->` / `<!DOCTYPE …>`.
//!
//! An element's **source region** ([`Dom::region`]) is the union of its own span, its end tag
//! and the spans of all its descendants: a set of ranges ([`Selection`]), not one range, because
//! foster parenting (text inside `<table>` outside cells goes before the table) and the adoption
//! agency (`<b><i></b></i>`) move nodes away from their source position.
//!
//! Bytes in no node: CDATA delimiters `<![CDATA[` / `]]>`, tags the tree builder ignores (a
//! second `<body>`, stray end tags), white space the tree builder drops (before `<html>`, …).
//!
//! Storage: the tree the sink builds (linked by index, holding the tree builder's tendrils) is
//! flattened into this module's own arena right after parsing and dropped — tendrils are not
//! `Sync`, and a [`crate::page::Page`] is shared between threads. Names are html5ever atoms;
//! text, comment and attribute values are copied once into one string buffer.
//!
//! Nodes are numbered densely in document order ([`NodeId`], a pre-order index; the document
//! node is 0), so a subtree is the contiguous index range [`Dom::subtree`] and per-node series
//! can be plain vectors.
//!
//! Files: this one holds the [`Dom`] type and the queries algorithms call; `tokenize.rs` the
//! tokenizer (the page's text → html5ever tokens with their spans, [`MAX_DEPTH`]);
//! `sink.rs` the tree sink that stamps nodes with spans; `tree.rs` the tree it builds (what
//! scraper's sink would build: the same operations, without scraper's nodes); `flatten.rs` the
//! arena built from that tree; `classes.rs` the DOM's byte classes ([`Dom::class_spans`], the
//! reference the lexer agrees with); `select.rs` CSS selectors on the tree ([`Selector`],
//! [`Dom::select`]).

use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use html5ever::LocalName;

use super::lex::Tag;
use super::lines::VirtualLines;
use crate::selection::Selection;

mod classes;
mod flatten;
mod select;
mod sink;
mod tokenize;
mod tree;

pub use select::Selector;
pub use tokenize::MAX_DEPTH;

/// A node of a [`Dom`]: its index in document (pre-)order, 0 = the document node. Dense, so it
/// can index per-node vectors (a trace unit).
pub type NodeId = usize;

/// Options of [`Dom::parse`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DomOptions {
    /// The HTML "scripting flag". False (the default): the content of `<noscript>` is parsed as
    /// markup, as a crawler or a reader without JavaScript sees it and as extractors that parse
    /// HTML without running its scripts read it (Discourse forums keep their posts there). True (a browser with JavaScript): it
    /// is one raw text node, which [`Dom::is_non_text`] excludes from the page's text.
    pub scripting_enabled: bool,
}

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// The document (node 0).
    Document,
    /// `<!DOCTYPE …>`.
    Doctype,
    /// A comment (also a bogus comment such as `<?php … ?>`).
    Comment,
    /// Character data.
    Text,
    /// An element.
    Element,
    /// A `<template>`'s content fragment.
    Fragment,
    /// A processing instruction (never produced by the HTML parser).
    ProcessingInstruction,
}

const NONE: u32 = u32::MAX;
/// A node whose [`Dom::non_space_chars`] is not counted yet.
const NOT_COUNTED: u32 = u32::MAX;
const F_HIDDEN: u8 = 1;
const F_ANCHOR: u8 = 2;
const F_NONTEXT: u8 = 4;
const F_HTML_NS: u8 = 8;
/// An element in the MathML namespace (neither this nor [`F_HTML_NS`]: SVG). Not inherited.
const F_MATH_NS: u8 = 16;

/// The characters of `s` that are not white space ([`char::is_whitespace`]); an ASCII text is
/// counted byte by byte (its white space is tab, line feed, vertical tab, form feed, carriage
/// return and space).
fn count_non_space(s: &str) -> usize {
    if s.is_ascii() {
        s.bytes()
            .filter(|b| !matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' '))
            .count()
    } else {
        s.chars().filter(|c| !c.is_whitespace()).count()
    }
}

#[derive(Debug, Clone)]
struct NodeInfo {
    parent: u32,
    depth: u32,
    /// One past the last node of the subtree (pre-order).
    end: u32,
    /// Own spans: `spans[span_start..span_start + span_len]`.
    span_start: u32,
    span_len: u32,
    end_tag: Option<(usize, usize)>,
    /// Smallest start / largest end over the region (`usize::MAX, 0` when empty).
    hull: (usize, usize),
    kind: NodeKind,
    tag: Tag,
    flags: u8,
    /// An element's local name.
    name: Option<LocalName>,
    /// Text of a text node / comment, doctype name: `strings[str_range]`.
    str_range: (usize, usize),
    /// An element's attributes: `attrs[attr_range]`.
    attr_range: (u32, u32),
}

/// Per-node character counts, prefix-summed in document order (built on first use).
#[derive(Debug)]
struct Counts {
    /// `text[i]` = visible text chars in nodes `0..i`.
    text: Vec<u64>,
    /// `anchor[i]` = visible text chars inside `<a>` in nodes `0..i`.
    anchor: Vec<u64>,
}

/// The positioned DOM of one page (see the module documentation).
#[derive(Debug)]
pub struct Dom {
    nodes: Vec<NodeInfo>,
    strings: String,
    /// (name, value range in `strings`).
    attrs: Vec<(LocalName, (usize, usize))>,
    spans: Vec<Range<usize>>,
    opts: DomOptions,
    counts: OnceLock<Counts>,
    /// [`Dom::non_space_chars`] of each node once counted ([`NOT_COUNTED`] before).
    non_space: OnceLock<Vec<AtomicU32>>,
}

impl Dom {
    /// Parses `text` (a page's decoded text) into a positioned DOM. Never fails: any input gives
    /// a tree (the HTML parsing algorithm has no errors, only recoveries). O(n) in the text
    /// size, plus O(n log n) at worst for ordering merged text spans.
    pub fn parse(text: &str, opts: &DomOptions) -> Dom {
        let (html, stamps) = tokenize::parse(text, opts);
        flatten::build(html, stamps, text.len(), *opts)
    }

    /// The options the DOM was parsed with.
    pub fn options(&self) -> DomOptions {
        self.opts
    }

    /// Number of nodes (the document node included).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never true (the document node always exists); here for API symmetry.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The kind of node `id`. Panics (as every per-node accessor) if `id >= self.len()`.
    pub fn kind(&self, id: NodeId) -> NodeKind {
        self.nodes[id].kind
    }

    /// The interned tag of an element ([`Tag::Other`] for unknown names and for non-elements).
    pub fn tag(&self, id: NodeId) -> Tag {
        self.nodes[id].tag
    }

    /// An element's local name (lower case for HTML elements, e.g. `"div"`; `"foreignObject"`
    /// in SVG); `None` for other nodes.
    pub fn tag_name(&self, id: NodeId) -> Option<&str> {
        self.nodes[id].name.as_deref()
    }

    /// Is `id` an element in the HTML namespace (not SVG / MathML)?
    pub fn is_html_element(&self, id: NodeId) -> bool {
        self.nodes[id].kind == NodeKind::Element && self.nodes[id].flags & F_HTML_NS != 0
    }

    /// The value of attribute `name` (lower case) of an element; `None` if absent or not an
    /// element.
    pub fn attr(&self, id: NodeId, name: &str) -> Option<&str> {
        self.attrs(id).find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// [`Dom::attr`] by interned name (`html5ever::local_name!("class")`): one integer
    /// comparison per attribute instead of a string comparison, for the lookups made on every
    /// element of a page.
    pub fn attr_local(&self, id: NodeId, name: &LocalName) -> Option<&str> {
        let (a, b) = self.nodes[id].attr_range;
        self.attrs[a as usize..b as usize]
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, (s, e))| &self.strings[*s..*e])
    }

    /// An element's attributes as `(interned name, value)`, in the order [`Dom::attrs`] gives
    /// them (a repeated attribute is kept once, with its first value); empty for other nodes.
    /// For passes over every element that read several attributes: one walk of the element's
    /// attributes instead of one [`Dom::attr_local`] per name.
    pub fn attrs_local(&self, id: NodeId) -> impl Iterator<Item = (&LocalName, &str)> + '_ {
        let (a, b) = self.nodes[id].attr_range;
        self.attrs[a as usize..b as usize]
            .iter()
            .map(|(n, (s, e))| (n, &self.strings[*s..*e]))
    }

    /// The `content` of element `id` when it is a `<meta>` whose `property` (or, without one,
    /// `name`) is `key`, trimmed and ASCII case-insensitive (`og:title`, `og:type`); `None`
    /// otherwise, or without a `content`. O(attributes).
    pub fn meta_content(&self, id: NodeId, key: &str) -> Option<&str> {
        if self.tag_name(id) != Some("meta") {
            return None;
        }
        let named = self
            .attr(id, "property")
            .or_else(|| self.attr(id, "name"))
            .is_some_and(|p| p.trim().eq_ignore_ascii_case(key));
        named.then(|| self.attr(id, "content")).flatten()
    }

    /// An element's attributes as `(name, value)`, sorted by name (scraper's order; a repeated
    /// attribute keeps its first value); empty for other nodes.
    pub fn attrs(&self, id: NodeId) -> impl Iterator<Item = (&str, &str)> + '_ {
        let (a, b) = self.nodes[id].attr_range;
        self.attrs[a as usize..b as usize]
            .iter()
            .map(|(n, (s, e))| (&**n, &self.strings[*s..*e]))
    }

    /// The decoded text of a text node or comment, the name of a doctype; `None` for other
    /// nodes.
    pub fn node_text(&self, id: NodeId) -> Option<&str> {
        let n = &self.nodes[id];
        matches!(
            n.kind,
            NodeKind::Text | NodeKind::Comment | NodeKind::Doctype
        )
        .then(|| &self.strings[n.str_range.0..n.str_range.1])
    }

    /// The parent of `id` (`None` for the document).
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        let p = self.nodes[id].parent;
        (p != NONE).then_some(p as usize)
    }

    /// The children of `id`, in document order.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        Children {
            dom: self,
            next: id + 1,
            end: self.nodes[id].end as usize,
        }
    }

    /// Depth of `id` (nodes): the document is 0, `<html>` 1, `<body>` 2, ….
    pub fn depth(&self, id: NodeId) -> usize {
        self.nodes[id].depth as usize
    }

    /// The nodes of the subtree rooted at `id`, `id` included: a contiguous id range because ids
    /// are in pre-order.
    pub fn subtree(&self, id: NodeId) -> Range<NodeId> {
        id..self.nodes[id].end as usize
    }

    /// Is `a` an ancestor of `b` or `b` itself? O(1).
    pub fn contains(&self, a: NodeId, b: NodeId) -> bool {
        self.subtree(a).contains(&b)
    }

    /// All elements in document order, with their depth (nodes, as [`Dom::depth`]).
    pub fn elements(&self) -> impl Iterator<Item = (NodeId, usize)> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.kind == NodeKind::Element)
            .map(|(i, n)| (i, n.depth as usize))
    }

    /// Is `id` a block-level element? The same list as the lexer and virtual lines use
    /// ([`Tag::is_block`]), so a DOM block and a virtual-line break agree.
    pub fn is_block(&self, id: NodeId) -> bool {
        self.nodes[id].kind == NodeKind::Element && self.nodes[id].tag.is_block()
    }

    /// The block-level elements ([`Dom::is_block`]) in document order, with their depth.
    pub fn blocks(&self) -> impl Iterator<Item = (NodeId, usize)> + '_ {
        self.elements().filter(|&(i, _)| self.is_block(i))
    }

    /// The text nodes in document order with their source byte ranges ([`Dom::spans`]).
    pub fn text_nodes(&self) -> impl Iterator<Item = (NodeId, &[Range<usize>])> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.kind == NodeKind::Text)
            .map(|(i, _)| (i, self.spans(i)))
    }

    /// The node's own source byte ranges, sorted: an element's start tag (or the end tag it was
    /// created from), a text node's character data, a comment or doctype whole. Empty for the
    /// document, implied elements and clones. See the module documentation.
    pub fn spans(&self, id: NodeId) -> &[Range<usize>] {
        let n = &self.nodes[id];
        &self.spans[n.span_start as usize..(n.span_start + n.span_len) as usize]
    }

    /// The byte range of the end tag that closed element `id`, where one could be matched.
    pub fn end_tag(&self, id: NodeId) -> Option<Range<usize>> {
        self.nodes[id].end_tag.map(|(a, b)| a..b)
    }

    /// The node's source region (byte ranges): own spans ∪ end tag ∪ all descendants' spans and
    /// end tags. O(subtree nodes).
    pub fn region(&self, id: NodeId) -> Selection {
        let mut v = Vec::new();
        for i in self.subtree(id) {
            v.extend(self.spans(i).iter().cloned());
            if let Some(e) = self.end_tag(i) {
                v.push(e);
            }
        }
        Selection::from_ranges(v)
    }

    /// The smallest byte range holding the node's whole region; `None` when the region is empty
    /// (e.g. an implied `<head>` with nothing in it). O(1).
    pub fn hull(&self, id: NodeId) -> Option<Range<usize>> {
        let (a, b) = self.nodes[id].hull;
        (a < b).then_some(a..b)
    }

    /// The virtual lines (indices into `lines`, normally [`crate::page::Page::lines`] of the same
    /// page) that the node's region touches, first to last; empty when the region is empty.
    pub fn lines(&self, id: NodeId, lines: &VirtualLines) -> Range<usize> {
        match self.hull(id) {
            Some(h) => match (lines.line_of(h.start), lines.line_of(h.end - 1)) {
                (Some(a), Some(b)) => a..b + 1,
                _ => 0..0,
            },
            None => 0..0,
        }
    }

    /// Is the node hidden: it or an ancestor has the `hidden` attribute, `aria-hidden="true"`,
    /// or `display: none` in its inline `style`? (No style sheets are read.)
    pub fn is_hidden(&self, id: NodeId) -> bool {
        self.nodes[id].flags & F_HIDDEN != 0
    }

    /// Is the node inside an `<a>` element (or an `<a>` itself)?
    pub fn in_anchor(&self, id: NodeId) -> bool {
        self.nodes[id].flags & F_ANCHOR != 0
    }

    /// Is the node's text not shown as page text: inside `<script>` or `<style>` (also SVG /
    /// MathML ones), `<template>`, or `<noscript>` when the DOM was parsed with scripting on
    /// (an element of those kinds included)?
    pub fn is_non_text(&self, id: NodeId) -> bool {
        self.nodes[id].flags & F_NONTEXT != 0
    }

    fn counts(&self) -> &Counts {
        self.counts.get_or_init(|| {
            let mut text = Vec::with_capacity(self.nodes.len() + 1);
            let mut anchor = Vec::with_capacity(self.nodes.len() + 1);
            let (mut t, mut a) = (0u64, 0u64);
            text.push(0);
            anchor.push(0);
            for (i, n) in self.nodes.iter().enumerate() {
                if n.kind == NodeKind::Text && n.flags & F_NONTEXT == 0 {
                    let c = self.node_text(i).map_or(0, |s| s.chars().count()) as u64;
                    t += c;
                    if n.flags & F_ANCHOR != 0 {
                        a += c;
                    }
                }
                text.push(t);
                anchor.push(a);
            }
            Counts { text, anchor }
        })
    }

    /// Characters of node `id`'s own text ([`Dom::node_text`]: a text node's, a comment's, a
    /// doctype's name) that are not white space ([`char::is_whitespace`]); 0 for other nodes.
    /// The character count of CETD and LQF (thesis Formulas 3.1–3.2, Algorithm 3), which
    /// both run in the stacked classifier: recorded by the block segmentation for the nodes it
    /// reads ([`Dom::remember_non_space_chars`]), counted for any other node when first asked,
    /// O(its text), then O(1).
    pub fn non_space_chars(&self, id: NodeId) -> usize {
        let Some(slot) = self.non_space_slots().get(id) else {
            return 0;
        };
        match slot.load(Ordering::Relaxed) {
            NOT_COUNTED => {
                let n = self.node_text(id).map_or(0, count_non_space);
                // Two threads asking at once both count the same number.
                slot.store(
                    u32::try_from(n).unwrap_or(NOT_COUNTED - 1),
                    Ordering::Relaxed,
                );
                n
            }
            n => n as usize,
        }
    }

    /// Records `n` as [`Dom::non_space_chars`] of node `id`, for a caller that counted it while
    /// reading the node's text anyway (the block segmentation's scanner,
    /// [`crate::page::Blocks`]), so CETD and LQF do not read that text again. `n` must be what
    /// [`Dom::non_space_chars`] counts (checked in debug builds). O(1).
    pub(crate) fn remember_non_space_chars(&self, id: NodeId, n: usize) {
        debug_assert_eq!(
            n,
            self.node_text(id).map_or(0, count_non_space),
            "node {id}"
        );
        if let Some(slot) = self.non_space_slots().get(id) {
            slot.store(
                u32::try_from(n).unwrap_or(NOT_COUNTED - 1),
                Ordering::Relaxed,
            );
        }
    }

    /// The memo of [`Dom::non_space_chars`], one slot per node ([`NOT_COUNTED`] until set).
    fn non_space_slots(&self) -> &[AtomicU32] {
        self.non_space.get_or_init(|| {
            (0..self.nodes.len())
                .map(|_| AtomicU32::new(NOT_COUNTED))
                .collect()
        })
    }

    /// Characters (Unicode scalar values, white space included) of the text of `id`'s subtree,
    /// text under [`Dom::is_non_text`] excluded. O(1) after a first O(n) call.
    pub fn text_chars(&self, id: NodeId) -> usize {
        let c = self.counts();
        let r = self.subtree(id);
        (c.text[r.end] - c.text[r.start]) as usize
    }

    /// Characters of the anchor text of `id`'s subtree: [`Dom::text_chars`] counted only for
    /// text nodes inside an `<a>` ([`Dom::in_anchor`]; if `id` is itself inside a link, all its
    /// text is anchor text). O(1) after a first O(n) call.
    pub fn anchor_chars(&self, id: NodeId) -> usize {
        let c = self.counts();
        let r = self.subtree(id);
        (c.anchor[r.end] - c.anchor[r.start]) as usize
    }

    /// The text of `id`'s subtree (text nodes concatenated in document order, decoded, white
    /// space as in the source; text under [`Dom::is_non_text`] excluded). O(subtree).
    pub fn text(&self, id: NodeId) -> String {
        let mut s = String::new();
        for i in self.subtree(id) {
            let n = &self.nodes[i];
            if n.kind == NodeKind::Text && n.flags & F_NONTEXT == 0 {
                s.push_str(self.node_text(i).unwrap_or(""));
            }
        }
        s
    }
}

impl Dom {
    /// Checks the span invariants against `text` (the text the DOM was parsed from) and returns
    /// the first violation, described in one line. Used by the tests; O(n log n).
    ///
    /// 1. every own span and end tag is non-empty, inside `text` and on char boundaries;
    /// 2. a child's hull lies inside its parent's hull, and ids are in document order;
    /// 3. a start tag starts with `<` and ends with `>`, an end tag starts with `</`, a comment
    ///    or doctype starts with `<`;
    /// 4. a text node's text is its spans' source with character references decoded (raw text
    ///    elements: taken literally), CR LF / CR read as LF, NUL and U+FFFD ignored;
    /// 5. no two own spans or end tags (of any nodes) overlap.
    pub fn validate(&self, text: &str) -> Result<(), String> {
        let mut all: Vec<(Range<usize>, NodeId)> = Vec::new();
        for id in 0..self.len() {
            let mut own: Vec<Range<usize>> = self.spans(id).to_vec();
            own.extend(self.end_tag(id));
            for r in &own {
                if r.start >= r.end || text.get(r.clone()).is_none() {
                    return Err(format!(
                        "node {id}: span {r:?} empty or not on char boundaries"
                    ));
                }
                all.push((r.clone(), id));
            }
            if let Some(p) = self.parent(id) {
                if p >= id || !self.contains(p, id) {
                    return Err(format!("node {id}: parent {p} not before it"));
                }
                if let (Some(c), Some(ph)) = (self.hull(id), self.hull(p)) {
                    if c.start < ph.start || c.end > ph.end {
                        return Err(format!("node {id}: hull {c:?} outside parent's {ph:?}"));
                    }
                } else if self.hull(id).is_some() {
                    return Err(format!("node {id}: has a region, parent {p} none"));
                }
            }
            let slice = |r: &Range<usize>| &text[r.clone()];
            match self.kind(id) {
                NodeKind::Element => {
                    for r in self.spans(id) {
                        let s = slice(r);
                        if !s.starts_with('<') || !s.ends_with('>') {
                            return Err(format!("element {id}: tag span {r:?} is {s:?}"));
                        }
                    }
                    if let Some(r) = self.end_tag(id) {
                        let s = slice(&r);
                        if !s.starts_with("</") {
                            return Err(format!("element {id}: end tag {r:?} is {s:?}"));
                        }
                    }
                }
                NodeKind::Comment | NodeKind::Doctype => {
                    for r in self.spans(id) {
                        if !slice(r).starts_with('<') {
                            return Err(format!("node {id}: span {r:?} is {:?}", slice(r)));
                        }
                    }
                }
                NodeKind::Text => {
                    let raw = self.parent(id).is_some_and(|p| {
                        self.is_html_element(p)
                            && matches!(
                                self.tag_name(p),
                                Some(
                                    "script"
                                        | "style"
                                        | "xmp"
                                        | "iframe"
                                        | "noembed"
                                        | "noframes"
                                        | "plaintext"
                                )
                            )
                            || (self.tag_name(p) == Some("noscript") && self.opts.scripting_enabled)
                    });
                    let norm = |s: &str| -> String {
                        s.replace("\r\n", "\n")
                            .replace('\r', "\n")
                            .replace(['\0', '\u{FFFD}'], "")
                    };
                    let mut src = String::new();
                    for r in self.spans(id) {
                        let s = slice(r);
                        let cdata = text[..r.start].ends_with("<![CDATA[");
                        if raw
                            || (cdata && !self.parent(id).is_some_and(|p| self.is_html_element(p)))
                        {
                            src.push_str(s);
                        } else {
                            src.push_str(&htmlize::unescape(s));
                        }
                    }
                    let want = self.node_text(id).unwrap_or("");
                    if norm(&src) != norm(want) {
                        return Err(format!(
                            "text node {id}: spans {:?} decode to {:?}, node text is {:?}",
                            self.spans(id),
                            src,
                            want
                        ));
                    }
                }
                _ => {}
            }
        }
        all.sort_by_key(|(r, _)| r.start);
        for w in all.windows(2) {
            if w[0].0.end > w[1].0.start {
                return Err(format!(
                    "spans overlap: {:?} (node {}) and {:?} (node {})",
                    w[0].0, w[0].1, w[1].0, w[1].1
                ));
            }
        }
        Ok(())
    }
}

/// Iterator over a node's children ([`Dom::children`]).
#[derive(Debug, Clone)]
pub struct Children<'a> {
    dom: &'a Dom,
    next: usize,
    end: usize,
}

impl Iterator for Children<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        if self.next >= self.end {
            return None;
        }
        let c = self.next;
        self.next = self.dom.nodes[c].end as usize;
        Some(c)
    }
}

#[cfg(test)]
mod tests;
