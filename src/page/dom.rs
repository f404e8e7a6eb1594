//! The positioned DOM: an HTML5 tree of the page whose every node knows the source bytes it came
//! from.
//!
//! Route (`notes/tech.md` § a): html5gum's spec tokenizer reports each token with its byte span
//! in the decoded text ([`crate::page::Page::text`]); an emitter here turns the tokens into
//! html5ever tokens and feeds html5ever's `TreeBuilder` (the WHATWG tree construction, with
//! implied tags, foster parenting and the adoption agency); the tree builder calls a tree sink
//! that wraps `scraper::HtmlTreeSink` and stamps every node it creates or extends with the span
//! of the token being processed. The tree builder also drives the tokenizer's state (raw text,
//! RCDATA, script data, CDATA in foreign content), so tokens are split as a browser splits them.
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
//! Storage: the tree scraper builds (`scraper::Html`) is flattened into this module's own arena
//! right after parsing and dropped — `scraper::Html` is not `Sync` (tendrils, `OnceCell`), and a
//! [`crate::page::Page`] is shared between threads. Names are html5ever atoms; text, comment and
//! attribute values are copied once into one string buffer.
//!
//! Nodes are numbered densely in document order ([`NodeId`], a pre-order index; the document
//! node is 0), so a subtree is the contiguous index range [`Dom::subtree`] and per-node series
//! can be plain vectors.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;
use std::sync::OnceLock;

use ego_tree::NodeId as EgoId;
use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    Doctype as HDoctype, Tag as HTag, TagKind, Token as HToken, TokenSink, TokenSinkResult,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{ns, Attribute, LocalName, QualName};
use html5gum::emitters::callback::{Callback, CallbackEmitter, CallbackEvent};
use html5gum::{Emitter, ForwardingEmitter, Span, State, Tokenizer};
use scraper::{Html, HtmlTreeSink, Node};

use super::lex::Tag;
use super::lines::VirtualLines;
use crate::selection::Selection;

/// A node of a [`Dom`]: its index in document (pre-)order, 0 = the document node. Dense, so it
/// can index per-node vectors (a trace unit).
pub type NodeId = usize;

/// Options of [`Dom::parse`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DomOptions {
    /// The HTML "scripting flag": when true (browsers' default), the content of `<noscript>` is
    /// one raw text node; when false it is parsed as markup.
    pub scripting_enabled: bool,
}

impl Default for DomOptions {
    fn default() -> Self {
        DomOptions {
            scripting_enabled: true,
        }
    }
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
const F_HIDDEN: u8 = 1;
const F_ANCHOR: u8 = 2;
const F_NONTEXT: u8 = 4;
const F_HTML_NS: u8 = 8;

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
}

impl Dom {
    /// Parses `text` (a page's decoded text) into a positioned DOM. Never fails: any input gives
    /// a tree (the HTML parsing algorithm has no errors, only recoveries). O(n) in the text
    /// size, plus O(n log n) at worst for ordering merged text spans.
    pub fn parse(text: &str, opts: &DomOptions) -> Dom {
        let sink = PosSink::new();
        sink.text.set(text);
        let tb = TreeBuilder::new(
            sink,
            TreeBuilderOpts {
                scripting_enabled: opts.scripting_enabled,
                ..Default::default()
            },
        );
        {
            let cb = Cb {
                tb: &tb,
                text,
                tag: None,
                tag_start: 0,
                skip_value: false,
                next_state: None,
                stack: Vec::new(),
                suppressed: Vec::new(),
            };
            let em = Em {
                inner: CallbackEmitter::new(cb),
            };
            let Ok(()) = Tokenizer::new_with_emitter(text, em).finish();
        }
        let (html, stamps) = tb.sink.into_parts();
        build(html, stamps, text.len(), *opts)
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

    /// Is the node's text not shown as page text: inside `<script>`, `<style>`, `<template>`,
    /// or `<noscript>` when scripting is enabled (an element of those kinds included)?
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

// ---------------------------------------------------------------------------------------------
// Building the index.

/// A cheap hasher for ego-tree node ids (a `usize` index inside), used once per node while
/// flattening.
#[derive(Default)]
struct IdHasher(u64);
impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}
type IdMap = HashMap<EgoId, u32, BuildHasherDefault<IdHasher>>;

/// `hidden`, `aria-hidden="true"` or inline `display: none` among `attrs` (name, value).
fn is_hidden_element<'a>(attrs: impl Iterator<Item = (&'a str, &'a str)>) -> bool {
    for (name, value) in attrs {
        match name {
            "hidden" => return true,
            "aria-hidden" if value.trim().eq_ignore_ascii_case("true") => return true,
            "style" => {
                for decl in value.split(';') {
                    if let Some((p, v)) = decl.split_once(':') {
                        let v = v.trim();
                        if p.trim().eq_ignore_ascii_case("display")
                            && v.get(..4).is_some_and(|h| h.eq_ignore_ascii_case("none"))
                            && v[4..].trim_start().chars().next().is_none_or(|c| c == '!')
                        {
                            return true;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    false
}

fn build(html: Html, stamps: Vec<Stamp>, text_len: usize, opts: DomOptions) -> Dom {
    let mut nodes: Vec<NodeInfo> = Vec::with_capacity(html.tree.values().len());
    let mut map: IdMap = HashMap::with_capacity_and_hasher(nodes.capacity(), Default::default());
    let mut strings = String::with_capacity(text_len / 2);
    let mut attrs: Vec<(LocalName, (usize, usize))> = Vec::new();
    let mut stack: Vec<u32> = Vec::new();
    for edge in html.tree.root().traverse() {
        match edge {
            ego_tree::iter::Edge::Open(n) => {
                let id = nodes.len() as u32;
                let parent = stack.last().copied().unwrap_or(NONE);
                let pflags = if parent == NONE {
                    0
                } else {
                    nodes[parent as usize].flags & !F_HTML_NS
                };
                let mut push_str = |t: &str| {
                    let a = strings.len();
                    strings.push_str(t);
                    (a, strings.len())
                };
                let mut str_range = (0, 0);
                let mut attr_range = (0, 0);
                let mut name = None;
                let (kind, tag, mut flags) = match n.value() {
                    Node::Document => (NodeKind::Document, Tag::Other, 0),
                    Node::Fragment => (NodeKind::Fragment, Tag::Other, F_NONTEXT),
                    Node::Doctype(d) => {
                        str_range = push_str(d.name());
                        (NodeKind::Doctype, Tag::Other, 0)
                    }
                    Node::Comment(c) => {
                        str_range = push_str(&c.comment);
                        (NodeKind::Comment, Tag::Other, 0)
                    }
                    Node::Text(t) => {
                        str_range = push_str(&t.text);
                        (NodeKind::Text, Tag::Other, 0)
                    }
                    Node::ProcessingInstruction(_) => {
                        (NodeKind::ProcessingInstruction, Tag::Other, 0)
                    }
                    Node::Element(e) => {
                        let html_ns = e.name.ns == ns!(html);
                        let local: &str = &e.name.local;
                        let tag = if html_ns {
                            Tag::from_name(local.as_bytes())
                        } else {
                            Tag::Other
                        };
                        let a0 = attrs.len() as u32;
                        for (qn, v) in e.attrs.iter() {
                            let r = push_str(v);
                            attrs.push((qn.local.clone(), r));
                        }
                        attr_range = (a0, attrs.len() as u32);
                        name = Some(e.name.local.clone());
                        let mut f = 0;
                        if html_ns {
                            f |= F_HTML_NS;
                        }
                        let own_attrs = attrs[a0 as usize..]
                            .iter()
                            .map(|(n, (s, e))| (&**n, &strings[*s..*e]));
                        if is_hidden_element(own_attrs) {
                            f |= F_HIDDEN;
                        }
                        if html_ns && local == "a" {
                            f |= F_ANCHOR;
                        }
                        if html_ns
                            && (matches!(tag, Tag::Script | Tag::Style)
                                || local == "template"
                                || (tag == Tag::Noscript && opts.scripting_enabled))
                        {
                            f |= F_NONTEXT;
                        }
                        (NodeKind::Element, tag, f)
                    }
                };
                flags |= pflags;
                map.insert(n.id(), id);
                nodes.push(NodeInfo {
                    parent,
                    depth: stack.len() as u32,
                    end: id + 1,
                    span_start: 0,
                    span_len: 0,
                    end_tag: None,
                    hull: (usize::MAX, 0),
                    kind,
                    tag,
                    flags,
                    name,
                    str_range,
                    attr_range,
                });
                stack.push(id);
            }
            ego_tree::iter::Edge::Close(_) => {
                if let Some(id) = stack.pop() {
                    nodes[id as usize].end = nodes.len() as u32;
                }
            }
        }
    }
    drop(html);
    // Counting sort of the stamps by node.
    let mut own: Vec<(u32, Range<usize>)> = Vec::with_capacity(stamps.len());
    for s in stamps {
        let Some(&id) = map.get(&s.node) else {
            continue; // a node removed from the tree
        };
        let (a, b) = (s.span.start.min(text_len), s.span.end.min(text_len));
        if a >= b {
            continue;
        }
        let n = &mut nodes[id as usize];
        if s.end_tag {
            n.end_tag = Some((a, b));
        } else {
            n.span_len += 1;
            own.push((id, a..b));
        }
    }
    let mut acc = 0u32;
    for n in nodes.iter_mut() {
        n.span_start = acc;
        acc += n.span_len;
    }
    let mut fill: Vec<u32> = nodes.iter().map(|n| n.span_start).collect();
    let mut spans: Vec<Range<usize>> = vec![0..0; own.len()];
    for (id, r) in own {
        let f = &mut fill[id as usize];
        spans[*f as usize] = r;
        *f += 1;
    }
    for n in nodes.iter_mut() {
        let s = &mut spans[n.span_start as usize..(n.span_start + n.span_len) as usize];
        if !s.windows(2).all(|w| w[0].start <= w[1].start) {
            s.sort_by_key(|r| r.start);
        }
        let mut h = n.hull;
        for r in s.iter() {
            h = (h.0.min(r.start), h.1.max(r.end));
        }
        if let Some((a, b)) = n.end_tag {
            h = (h.0.min(a), h.1.max(b));
        }
        n.hull = h;
    }
    for i in (1..nodes.len()).rev() {
        let (h, p) = (nodes[i].hull, nodes[i].parent);
        if p != NONE {
            let ph = &mut nodes[p as usize].hull;
            *ph = (ph.0.min(h.0), ph.1.max(h.1));
        }
    }
    Dom {
        nodes,
        strings,
        attrs,
        spans,
        opts,
        counts: OnceLock::new(),
    }
}

// ---------------------------------------------------------------------------------------------
// The tree sink: scraper's sink plus span stamps.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TokKind {
    None,
    Start,
    End,
    Text,
    Comment,
    Doctype,
}

#[derive(Debug)]
struct Stamp {
    node: EgoId,
    span: Range<usize>,
    end_tag: bool,
}

/// Character data waiting to be inserted: its source span (`cur..end`) and, when the decoded
/// text differs from the source (character references, CR), the decoded text from `dpos`.
#[derive(Debug)]
struct TextSrc {
    cur: usize,
    end: usize,
    dec: Option<String>,
    dpos: usize,
}

struct PosSink<'t> {
    inner: HtmlTreeSink,
    text: Cell<&'t str>,
    kind: Cell<TokKind>,
    span: Cell<(usize, usize)>,
    name: RefCell<Option<LocalName>>,
    /// The element created for the current start tag.
    created: Cell<Option<EgoId>>,
    last_inserted: Cell<Option<EgoId>>,
    stamps: RefCell<Vec<Stamp>>,
    texts: RefCell<VecDeque<TextSrc>>,
    scratch: RefCell<Vec<Range<usize>>>,
}

fn names_match(token: &LocalName, elem: &LocalName) -> bool {
    token == elem || token.eq_ignore_ascii_case(elem) || (&**token == "image" && &**elem == "img")
}

/// Advances a source offset over one decoded character `c` written literally (CR LF and CR read
/// as LF); `None` if the source does not hold `c` there.
fn advance_literal(src: &str, pos: usize, c: char) -> Option<usize> {
    let rest = src.get(pos..)?;
    if rest.starts_with(c) {
        return Some(pos + c.len_utf8());
    }
    if c == '\n' && rest.starts_with('\r') {
        return Some(pos + if rest.starts_with("\r\n") { 2 } else { 1 });
    }
    None
}

/// How many source bytes of `src` decode to the first `dlen` bytes of `dec` (the decoded text of
/// `src`: character references resolved, CR LF / CR as LF, NUL possibly as U+FFFD). `None`
/// when the two cannot be aligned. A reference is matched by trying its possible lengths,
/// longest first, and keeping the first after which source and decoded text agree again.
fn map_prefix(src: &str, dec: &str, dlen: usize) -> Option<usize> {
    let (sb, db) = (src.as_bytes(), dec.as_bytes());
    let (mut i, mut j) = (0usize, 0usize);
    // Do src[i..] and dec[j..] agree up to the next special source byte (or both end)?
    let agree = |i: usize, j: usize| -> bool {
        let mut k = 0;
        loop {
            let (a, b) = (sb.get(i + k), db.get(j + k));
            match (a, b) {
                (None, None) => return true,
                (Some(b'&' | b'\r' | 0), _) => return true,
                (Some(x), Some(y)) if x == y => {
                    k += 1;
                    if k >= 16 {
                        return true;
                    }
                }
                _ => return false,
            }
        }
    };
    while j < dlen {
        let c = *sb.get(i)?;
        let d = *db.get(j)?;
        match c {
            b'\r' if d == b'\n' => {
                i += if sb.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
                j += 1;
            }
            0 if d == 0 => {
                i += 1;
                j += 1;
            }
            0 if dec[j..].starts_with('\u{FFFD}') => {
                i += 1;
                j += 3;
            }
            b'&' => {
                // Candidate ends of a reference starting here.
                let mut k = i + 1;
                if sb.get(k) == Some(&b'#') {
                    k += 1;
                    if matches!(sb.get(k), Some(b'x' | b'X')) {
                        k += 1;
                    }
                }
                while sb.get(k).is_some_and(|b| b.is_ascii_alphanumeric()) {
                    k += 1;
                }
                if sb.get(k) == Some(&b';') {
                    k += 1;
                }
                let mut found = None;
                'outer: for end in (i + 2..=k).rev() {
                    // A reference decodes to one or two chars.
                    let mut dj = j;
                    for _ in 0..2 {
                        let Some(ch) = dec.get(dj..).and_then(|s| s.chars().next()) else {
                            break;
                        };
                        dj += ch.len_utf8();
                        if agree(end, dj) {
                            found = Some((end, dj));
                            break 'outer;
                        }
                    }
                }
                match found {
                    Some((end, dj)) if !(d == b'&' && agree(i + 1, j + 1)) || end == i + 1 => {
                        i = end;
                        j = dj;
                    }
                    _ if d == b'&' => {
                        i += 1;
                        j += 1;
                    }
                    _ => return None,
                }
            }
            _ if c == d => {
                i += 1;
                j += 1;
            }
            _ => return None,
        }
    }
    (j == dlen).then_some(i)
}

impl<'t> PosSink<'t> {
    fn new() -> Self {
        PosSink {
            inner: HtmlTreeSink::new(Html::new_document()),
            text: Cell::new(""),
            kind: Cell::new(TokKind::None),
            span: Cell::new((0, 0)),
            name: RefCell::new(None),
            created: Cell::new(None),
            last_inserted: Cell::new(None),
            stamps: RefCell::new(Vec::new()),
            texts: RefCell::new(VecDeque::new()),
            scratch: RefCell::new(Vec::new()),
        }
    }

    fn into_parts(self) -> (Html, Vec<Stamp>) {
        (self.inner.0.into_inner(), self.stamps.into_inner())
    }

    fn stamp(&self, node: EgoId, span: Range<usize>, end_tag: bool) {
        self.stamps.borrow_mut().push(Stamp {
            node,
            span,
            end_tag,
        });
    }

    /// Finds the source span of `part`, the next piece of character data the tree builder
    /// inserts (pieces come in source order; pieces the tree builder dropped are white space or
    /// NUL and are skipped).
    fn text_spans(&self, part: &str) {
        let mut out = self.scratch.borrow_mut();
        out.clear();
        if let Some(r) = self.text_span(part, &mut out) {
            out.push(r);
        }
    }

    fn text_span(&self, mut part: &str, out: &mut Vec<Range<usize>>) -> Option<Range<usize>> {
        if part.is_empty() {
            return None;
        }
        let src = self.text.get();
        let mut q = self.texts.borrow_mut();
        loop {
            let more = q.len() > 1;
            let e = q.front_mut()?;
            let rem: &str = match &e.dec {
                None => src.get(e.cur..e.end).unwrap_or(""),
                Some(d) => d.get(e.dpos..).unwrap_or(""),
            };
            if rem.starts_with(part) {
                if part.len() == rem.len() {
                    let r = e.cur..e.end;
                    q.pop_front();
                    return Some(r);
                }
                if e.dec.is_none() {
                    let r = e.cur..e.cur + part.len();
                    e.cur += part.len();
                    return Some(r);
                }
                // Decoded text differs from the source: align the two.
                let start = e.cur;
                let seg = src.get(start..e.end).unwrap_or("");
                match map_prefix(seg, rem, part.len()) {
                    Some(n) => {
                        e.cur = start + n;
                        e.dpos += part.len();
                        return Some(start..start + n);
                    }
                    None => {
                        // Cannot align: give the piece the rest of the token.
                        let end = e.end;
                        q.pop_front();
                        return Some(start..end);
                    }
                }
            }
            // The piece continues in the next entry (text split around CDATA delimiters).
            if more && !rem.is_empty() && part.starts_with(rem) {
                out.push(e.cur..e.end);
                part = &part[rem.len()..];
                q.pop_front();
                continue;
            }
            // Skip one dropped character (white space or NUL), or the whole entry.
            match rem.chars().next() {
                Some(c) if c.is_ascii_whitespace() || c == '\0' => {
                    let np = if e.dec.is_none() {
                        Some(e.cur + 1)
                    } else {
                        advance_literal(src, e.cur, c)
                    };
                    match np {
                        Some(np) if np <= e.end => {
                            e.cur = np;
                            e.dpos += c.len_utf8();
                        }
                        _ => {
                            q.pop_front();
                        }
                    }
                }
                _ => {
                    q.pop_front();
                }
            }
        }
    }

    fn text_node_after(&self, node: Option<EgoId>) {
        if let Some(id) = node {
            self.last_inserted.set(Some(id));
        }
    }
}

impl<'t> TreeSink for PosSink<'t> {
    type Handle = EgoId;
    type Output = Self;
    type ElemName<'a>
        = <HtmlTreeSink as TreeSink>::ElemName<'a>
    where
        Self: 'a;

    fn finish(self) -> Self {
        self
    }

    fn parse_error(&self, _msg: std::borrow::Cow<'static, str>) {}

    fn get_document(&self) -> EgoId {
        self.inner.get_document()
    }

    fn elem_name<'a>(&'a self, target: &'a EgoId) -> Self::ElemName<'a> {
        self.inner.elem_name(target)
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> EgoId {
        let kind = self.kind.get();
        let matches = matches!(kind, TokKind::Start | TokKind::End)
            && self
                .name
                .borrow()
                .as_ref()
                .is_some_and(|t| names_match(t, &name.local));
        let name_local = name.local.clone();
        let h = self.inner.create_element(name, attrs, flags);
        if matches {
            if kind == TokKind::Start {
                self.created.set(Some(h));
            } else if matches!(&*name_local, "p" | "br") {
                // `</p>` with no open `<p>` and `</br>` create an element (the spec's only
                // end tags that do; adoption-agency clones are created on end tags too).
                self.created.set(Some(h));
                let (a, b) = self.span.get();
                self.stamp(h, a..b, false);
            }
        }
        h
    }

    fn create_comment(&self, text: StrTendril) -> EgoId {
        let h = self.inner.create_comment(text);
        if self.kind.get() == TokKind::Comment {
            let (a, b) = self.span.get();
            self.stamp(h, a..b, false);
        }
        h
    }

    fn create_pi(&self, target: StrTendril, data: StrTendril) -> EgoId {
        self.inner.create_pi(target, data)
    }

    fn append(&self, parent: &EgoId, child: NodeOrText<EgoId>) {
        match child {
            NodeOrText::AppendNode(id) => {
                self.inner.append(parent, NodeOrText::AppendNode(id));
                self.last_inserted.set(Some(id));
            }
            NodeOrText::AppendText(t) => {
                self.text_spans(&t);
                self.inner.append(parent, NodeOrText::AppendText(t));
                let node = self
                    .inner
                    .0
                    .borrow()
                    .tree
                    .get(*parent)
                    .and_then(|p| p.last_child())
                    .map(|c| c.id());
                if let Some(n) = node {
                    for s in self.scratch.borrow_mut().drain(..) {
                        self.stamp(n, s, false);
                    }
                }
                self.text_node_after(node);
            }
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &EgoId,
        prev_element: &EgoId,
        child: NodeOrText<EgoId>,
    ) {
        let has_parent = self
            .inner
            .0
            .borrow()
            .tree
            .get(*element)
            .is_some_and(|e| e.parent().is_some());
        if has_parent {
            self.append_before_sibling(element, child)
        } else {
            self.append(prev_element, child)
        }
    }

    fn append_doctype_to_document(
        &self,
        name: StrTendril,
        public_id: StrTendril,
        system_id: StrTendril,
    ) {
        self.inner
            .append_doctype_to_document(name, public_id, system_id);
        if self.kind.get() == TokKind::Doctype {
            let last = self
                .inner
                .0
                .borrow()
                .tree
                .root()
                .last_child()
                .map(|c| c.id());
            if let Some(n) = last {
                let (a, b) = self.span.get();
                self.stamp(n, a..b, false);
            }
        }
    }

    fn mark_script_already_started(&self, node: &EgoId) {
        self.inner.mark_script_already_started(node)
    }

    fn pop(&self, node: &EgoId) {
        self.inner.pop(node)
    }

    fn get_template_contents(&self, target: &EgoId) -> EgoId {
        self.inner.get_template_contents(target)
    }

    fn same_node(&self, x: &EgoId, y: &EgoId) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.inner.set_quirks_mode(mode)
    }

    fn append_before_sibling(&self, sibling: &EgoId, new_node: NodeOrText<EgoId>) {
        match new_node {
            NodeOrText::AppendNode(id) => {
                self.inner
                    .append_before_sibling(sibling, NodeOrText::AppendNode(id));
                self.last_inserted.set(Some(id));
            }
            NodeOrText::AppendText(t) => {
                self.text_spans(&t);
                self.inner
                    .append_before_sibling(sibling, NodeOrText::AppendText(t));
                let node = self
                    .inner
                    .0
                    .borrow()
                    .tree
                    .get(*sibling)
                    .filter(|s| s.parent().is_some())
                    .and_then(|s| s.prev_sibling())
                    .filter(|p| p.value().is_text())
                    .map(|c| c.id());
                if let Some(n) = node {
                    for s in self.scratch.borrow_mut().drain(..) {
                        self.stamp(n, s, false);
                    }
                }
                self.text_node_after(node);
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &EgoId, attrs: Vec<Attribute>) {
        self.inner.add_attrs_if_missing(target, attrs)
    }

    fn remove_from_parent(&self, target: &EgoId) {
        self.inner.remove_from_parent(target)
    }

    fn reparent_children(&self, node: &EgoId, new_parent: &EgoId) {
        self.inner.reparent_children(node, new_parent)
    }
}

// ---------------------------------------------------------------------------------------------
// The emitter: html5gum events → html5ever tokens, with the current token's span.

struct Cb<'a, 't> {
    tb: &'a TreeBuilder<EgoId, PosSink<'t>>,
    text: &'t str,
    tag: Option<HTag>,
    tag_start: usize,
    skip_value: bool,
    next_state: Option<State>,
    /// Elements opened by a start tag and not yet closed (as far as end tags tell).
    stack: Vec<(EgoId, LocalName)>,
    /// Start tags ignored by the depth cap ([`MAX_DEPTH`]), innermost last, so their end tags
    /// are ignored too.
    suppressed: Vec<LocalName>,
}

/// The deepest nesting of elements the DOM builds. Browsers cap it too (Blink's parser stops
/// nesting at 512 and inserts deeper elements as siblings): without a cap, html5ever's scope
/// checks make a page of 100 000 nested `<div>`s cost O(depth²) (39 s measured, release build).
/// Past the cap, further start tags (and their matching end tags) are ignored — their bytes are
/// in no node, like other tags the tree builder ignores — and their text goes into the deepest
/// element. Real pages nest a few dozen levels.
pub const MAX_DEPTH: usize = 512;

/// HTML void elements (no content, no end tag).
fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "basefont"
            | "bgsound"
            | "br"
            | "col"
            | "embed"
            | "frame"
            | "hr"
            | "img"
            | "input"
            | "keygen"
            | "link"
            | "meta"
            | "param"
            | "source"
            | "track"
            | "wbr"
    )
}

impl<'a, 't> Cb<'a, 't> {
    fn sink(&self) -> &PosSink<'t> {
        &self.tb.sink
    }

    fn process(&mut self, kind: TokKind, span: (usize, usize), token: HToken) {
        let s = self.sink();
        s.kind.set(kind);
        s.span.set(span);
        let r = self.tb.process_token(token, 1);
        self.next_state = match r {
            TokenSinkResult::Continue | TokenSinkResult::EncodingIndicator(_) => None,
            TokenSinkResult::Script(_) => Some(State::Data),
            TokenSinkResult::Plaintext => Some(State::PlainText),
            TokenSinkResult::RawData(RawKind::Rcdata) => Some(State::RcData),
            TokenSinkResult::RawData(RawKind::Rawtext) => Some(State::RawText),
            TokenSinkResult::RawData(_) => Some(State::ScriptData),
        };
    }

    /// Is the tree at least [`MAX_DEPTH`] deep at the insertion point? Checked only when our
    /// own stack is that long (it over-counts elements closed implicitly, e.g. unclosed `<p>`s),
    /// by walking at most [`MAX_DEPTH`] ancestors of the last inserted node.
    fn too_deep(&self) -> bool {
        if self.stack.len() < MAX_DEPTH {
            return false;
        }
        let Some(last) = self.sink().last_inserted.get() else {
            return false;
        };
        let tree = self.sink().inner.0.borrow();
        tree.tree
            .get(last)
            .is_some_and(|n| n.ancestors().take(MAX_DEPTH).count() >= MAX_DEPTH)
    }

    fn start_tag(&mut self, tag: HTag, span: (usize, usize)) {
        if !is_void(&tag.name) && !tag.self_closing && self.too_deep() {
            self.suppressed.push(tag.name);
            return;
        }
        let name = tag.name.clone();
        let self_closing = tag.self_closing;
        *self.sink().name.borrow_mut() = Some(name.clone());
        self.sink().created.set(None);
        self.process(TokKind::Start, span, HToken::TagToken(tag));
        if let Some(h) = self.sink().created.take() {
            self.sink().stamp(h, span.0..span.1, false);
            // The element's own name (`<image>` makes an `img`).
            let elem = self.sink().inner.0.borrow().tree.get(h).and_then(|n| {
                n.value()
                    .as_element()
                    .map(|e| (e.name.ns == ns!(html), e.name.local.clone()))
            });
            let (html_ns, name) = elem.unwrap_or((true, name));
            let void = if html_ns {
                is_void(&name)
            } else {
                self_closing
            };
            if !void {
                self.stack.push((h, name));
            }
        }
        self.sink().texts.borrow_mut().clear();
    }

    fn end_tag(&mut self, name: LocalName, span: (usize, usize)) {
        if self.suppressed.last() == Some(&name) {
            self.suppressed.pop();
            return;
        }
        // Which open element does this end tag close? The nearest one of that name (from the
        // top of our stack) that is an ancestor-or-self of the last inserted node.
        let matched = {
            let last = self.sink().last_inserted.get();
            let tree = &self.sink().inner.0;
            let tree = tree.borrow();
            let mut found = None;
            for (k, (h, n)) in self.stack.iter().enumerate().rev() {
                if *n != name {
                    continue;
                }
                let open = last.is_some_and(|l| {
                    l == *h
                        || tree
                            .tree
                            .get(l)
                            .is_some_and(|ln| ln.ancestors().any(|a| a.id() == *h))
                });
                if open {
                    found = Some(k);
                }
                break;
            }
            found
        };
        *self.sink().name.borrow_mut() = Some(name.clone());
        self.sink().created.set(None);
        self.process(
            TokKind::End,
            span,
            HToken::TagToken(HTag {
                kind: TagKind::EndTag,
                name,
                self_closing: false,
                attrs: Vec::new(),
                had_duplicate_attributes: false,
            }),
        );
        let created = self.sink().created.take().is_some();
        if let (Some(k), false) = (matched, created) {
            let h = self.stack[k].0;
            self.sink().stamp(h, span.0..span.1, true);
            self.stack.truncate(k);
        }
        self.sink().texts.borrow_mut().clear();
    }
}

impl<'a, 't> Cb<'a, 't> {
    /// Character data with source bytes that are in no token inside it: CDATA delimiters in
    /// foreign content (`a<![CDATA[b]]>c`) and `</>` (which the tokenizer drops in data, not
    /// in raw text: `strip_empty_end` says it was dropped here). One text
    /// source per piece between them, CDATA content literal, the rest decoded.
    fn push_split(&mut self, start: usize, end: usize, mut in_cdata: bool, strip_empty_end: bool) {
        let foreign = self
            .tb
            .adjusted_current_node_present_but_not_in_html_namespace();
        let text = self.text;
        let norm = |s: &str| s.replace("\r\n", "\n").replace('\r', "\n");
        let mut q = self.sink().texts.borrow_mut();
        let mut push = |a: usize, b: usize, cdata: bool| {
            let seg = &text[a..b];
            if a >= b {
                return;
            }
            let dec = if cdata {
                seg.contains('\r').then(|| norm(seg))
            } else {
                seg.contains(['&', '\r', '\0'])
                    .then(|| norm(&htmlize::unescape(seg)).replace('\0', "\u{FFFD}"))
            };
            q.push_back(TextSrc {
                cur: a,
                end: b,
                dec,
                dpos: 0,
            });
        };
        let mut pos = start;
        while pos < end {
            let rest = &text[pos..end];
            if in_cdata {
                let b = rest.find("]]>").map_or(end, |j| pos + j);
                push(pos, b, true);
                pos = (b + 3).min(end);
                in_cdata = false;
                continue;
            }
            let empty_end = if strip_empty_end {
                rest.find("</>")
            } else {
                None
            };
            let cdata = if foreign {
                rest.find("<![CDATA[")
            } else {
                None
            };
            match (empty_end, cdata) {
                (Some(e), c) if c.is_none_or(|c| e < c) => {
                    push(pos, pos + e, false);
                    pos += e + 3;
                }
                (_, Some(c)) => {
                    push(pos, pos + c, false);
                    pos += c + 9;
                    in_cdata = true;
                }
                _ => {
                    push(pos, end, false);
                    break;
                }
            }
        }
    }
}

/// html5gum hands out UTF-8 (its input is a `&str`); the lossy path is only a safety net.
fn to_str(b: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(b) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(b),
    }
}

impl<'a, 't> Callback<Infallible, usize> for Cb<'a, 't> {
    fn handle_event(&mut self, event: CallbackEvent<'_>, span: Span<usize>) -> Option<Infallible> {
        match event {
            CallbackEvent::OpenStartTag { name } => {
                self.tag = Some(HTag {
                    kind: TagKind::StartTag,
                    name: LocalName::from(&*to_str(name)),
                    self_closing: false,
                    attrs: Vec::new(),
                    had_duplicate_attributes: false,
                });
                self.tag_start = span.start;
                self.skip_value = false;
            }
            CallbackEvent::AttributeName { name } => {
                if let Some(tag) = self.tag.as_mut() {
                    let local = LocalName::from(&*to_str(name));
                    if tag.attrs.iter().any(|a| a.name.local == local) {
                        tag.had_duplicate_attributes = true;
                        self.skip_value = true;
                    } else {
                        self.skip_value = false;
                        tag.attrs.push(Attribute {
                            name: QualName::new(None, ns!(), local),
                            value: StrTendril::new(),
                        });
                    }
                }
            }
            CallbackEvent::AttributeValue { value } => {
                if let Some(tag) = self.tag.as_mut() {
                    if !self.skip_value {
                        if let Some(a) = tag.attrs.last_mut() {
                            a.value.push_slice(&to_str(value));
                        }
                    }
                }
            }
            CallbackEvent::CloseStartTag { self_closing } => {
                if let Some(mut tag) = self.tag.take() {
                    tag.self_closing = self_closing;
                    let start = self.tag_start;
                    self.start_tag(tag, (start, span.end));
                }
            }
            CallbackEvent::EndTag { name } => {
                let name = LocalName::from(&*to_str(name));
                self.end_tag(name, (span.start, span.end));
            }
            CallbackEvent::String { value } => {
                let mut start = span.start;
                let end = span.end.max(start);
                let src = self.text.get(start..end).unwrap_or("");
                let mut in_cdata = false;
                if src.starts_with("<![CDATA[") && !value.starts_with(b"<![CDATA[") {
                    start += 9;
                    in_cdata = true;
                }
                let src = self.text.get(start..end).unwrap_or("");
                if src.as_bytes() == value {
                    self.sink().texts.borrow_mut().push_back(TextSrc {
                        cur: start,
                        end,
                        dec: None,
                        dpos: 0,
                    });
                } else if (src.contains("</>") && !value.windows(3).any(|w| w == b"</>"))
                    || ((src.contains("<![CDATA[") || src.contains("]]>"))
                        && self
                            .tb
                            .adjusted_current_node_present_but_not_in_html_namespace())
                {
                    self.push_split(start, end, in_cdata, !value.windows(3).any(|w| w == b"</>"));
                } else {
                    self.sink().texts.borrow_mut().push_back(TextSrc {
                        cur: start,
                        end,
                        dec: Some(to_str(value).into_owned()),
                        dpos: 0,
                    });
                }
                let mut first = true;
                for part in value.split(|&b| b == 0) {
                    if !first {
                        self.process(TokKind::Text, (start, end), HToken::NullCharacterToken);
                    }
                    first = false;
                    if !part.is_empty() {
                        let t = StrTendril::from_slice(&to_str(part));
                        self.process(TokKind::Text, (start, end), HToken::CharacterTokens(t));
                    }
                }
            }
            CallbackEvent::Comment { value } => {
                let t = StrTendril::from_slice(&to_str(value));
                self.process(
                    TokKind::Comment,
                    (span.start, span.end),
                    HToken::CommentToken(t),
                );
                self.sink().texts.borrow_mut().clear();
            }
            CallbackEvent::Doctype {
                name,
                public_identifier,
                system_identifier,
                force_quirks,
            } => {
                let t = |b: &[u8]| StrTendril::from_slice(&to_str(b));
                let d = HDoctype {
                    name: Some(name).filter(|n| !n.is_empty()).map(t),
                    public_id: public_identifier.map(t),
                    system_id: system_identifier.map(t),
                    force_quirks,
                };
                self.process(
                    TokKind::Doctype,
                    (span.start, span.end),
                    HToken::DoctypeToken(d),
                );
                self.sink().texts.borrow_mut().clear();
            }
            CallbackEvent::Error(_) => {}
        }
        None
    }
}

struct Em<'a, 't> {
    inner: CallbackEmitter<Cb<'a, 't>, Infallible, usize>,
}

impl<'a, 't> ForwardingEmitter for Em<'a, 't> {
    type Token = Infallible;

    fn inner(&mut self) -> &mut impl Emitter<Token = Infallible> {
        &mut self.inner
    }

    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn emit_eof(&mut self) {
        self.inner.emit_eof();
        let cb = self.inner.callback_mut();
        cb.process(TokKind::None, (0, 0), HToken::EOFToken);
        cb.tb.end();
    }

    fn emit_current_tag(&mut self) -> Option<State> {
        let _naive = self.inner.emit_current_tag();
        let next = self.inner.callback_mut().next_state.take();
        if next.is_some() {
            // The tree builder switched the tokenizer (raw text, RCDATA, script data): the next
            // character data starts here, not at the previous text token (tech.md pitfall 1).
            self.inner.init_string();
        }
        next
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&mut self) -> bool {
        self.inner
            .callback_mut()
            .tb
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(t: &str) -> Dom {
        let d = Dom::parse(t, &DomOptions::default());
        if let Err(e) = d.validate(t) {
            panic!("{e}\nin {t:?}");
        }
        d
    }

    /// The first element named `name`.
    fn el(d: &Dom, name: &str) -> NodeId {
        d.elements()
            .find(|&(i, _)| d.tag_name(i) == Some(name))
            .map(|(i, _)| i)
            .unwrap_or_else(|| panic!("no <{name}>"))
    }

    fn src<'a>(t: &'a str, r: &Range<usize>) -> &'a str {
        &t[r.clone()]
    }

    #[test]
    fn nested_blocks_have_nested_regions() {
        let t = "<html><body><div id=a><p>one <b>two</b></p><div>three</div></div></body></html>";
        let d = parse(t);
        let a = el(&d, "div");
        assert_eq!(d.attr(a, "id"), Some("a"));
        assert_eq!(src(t, &d.spans(a)[0]), "<div id=a>");
        assert_eq!(src(t, &d.end_tag(a).unwrap()), "</div>");
        let region = d.region(a);
        assert_eq!(region.ranges().len(), 1, "contiguous");
        assert_eq!(
            src(t, &region.ranges()[0]),
            "<div id=a><p>one <b>two</b></p><div>three</div></div>"
        );
        let kids: Vec<_> = d.children(a).map(|c| d.tag_name(c).unwrap()).collect();
        assert_eq!(kids, ["p", "div"]);
        let p = el(&d, "p");
        assert_eq!(d.parent(p), Some(a));
        assert_eq!(d.depth(p), d.depth(a) + 1);
        assert!(d.is_block(a) && d.is_block(p) && !d.is_block(el(&d, "b")));
        assert_eq!(d.text(a), "one twothree");
        assert_eq!(d.text_chars(a), 12);
    }

    #[test]
    fn unclosed_p_ends_at_next_block() {
        let t = "<body><p>first<div>second</div></body>";
        let d = parse(t);
        let p = el(&d, "p");
        assert_eq!(d.end_tag(p), None);
        assert_eq!(src(t, &d.hull(p).unwrap()), "<p>first");
        let div = el(&d, "div");
        assert_eq!(d.parent(div), d.parent(p), "the div is the p's sibling");
    }

    #[test]
    fn foster_parented_text_makes_a_split_region() {
        let t = "<body><div><table>stray<tr><td>cell</td></tr></table></div></body>";
        let d = parse(t);
        let table = el(&d, "table");
        let div = el(&d, "div");
        // "stray" is moved before the table: a child of the div, not of the table.
        let stray = d
            .text_nodes()
            .find(|&(i, _)| d.node_text(i) == Some("stray"))
            .map(|(i, _)| i)
            .unwrap();
        assert_eq!(d.parent(stray), Some(div));
        assert!(stray < table);
        assert_eq!(src(t, &d.spans(stray)[0]), "stray");
        let region = d.region(table);
        assert_eq!(region.ranges().len(), 2, "{region:?}");
        assert_eq!(src(t, &region.ranges()[0]), "<table>");
        assert!(src(t, &region.ranges()[1]).starts_with("<tr>"));
        assert!(d.region(div).ranges().len() == 1);
    }

    #[test]
    fn misnested_formatting_uses_the_adoption_agency() {
        let t = "<body><p><b>1<i>2</b>3</i></p></body>";
        let d = parse(t);
        let is: Vec<NodeId> = d
            .elements()
            .filter(|&(i, _)| d.tag_name(i) == Some("i"))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(is.len(), 2, "the <i> is cloned after </b>");
        assert_eq!(src(t, &d.spans(is[0])[0]), "<i>");
        assert!(d.spans(is[1]).is_empty(), "the clone has no start tag");
        assert_eq!(src(t, &d.end_tag(el(&d, "b")).unwrap()), "</b>");
        assert_eq!(d.text(is[1]), "3");
        let three = t.find('3').unwrap();
        assert_eq!(d.region(is[1]), Selection::from_range(three..three + 1));
    }

    #[test]
    fn noscript_follows_the_scripting_flag() {
        let t = "<body><noscript><p>no js</p></noscript></body>";
        let on = parse(t);
        let ns = el(&on, "noscript");
        assert_eq!(on.children(ns).count(), 1);
        let c = on.children(ns).next().unwrap();
        assert_eq!(on.kind(c), NodeKind::Text);
        assert_eq!(on.node_text(c), Some("<p>no js</p>"));
        assert!(on.is_non_text(c));
        assert_eq!(on.text_chars(0), 0);
        let off = Dom::parse(
            t,
            &DomOptions {
                scripting_enabled: false,
            },
        );
        off.validate(t).unwrap();
        let p = el(&off, "p");
        assert_eq!(off.parent(p), Some(el(&off, "noscript")));
        assert_eq!(off.text_chars(0), 5);
    }

    #[test]
    fn script_text_is_raw() {
        let t = "<body><div><script>if (a<b) s = '</div>';</script>after</div></body>";
        let d = parse(t);
        let s = el(&d, "script");
        let c = d.children(s).next().unwrap();
        assert_eq!(d.node_text(c), Some("if (a<b) s = '</div>';"));
        assert_eq!(src(t, &d.spans(c)[0]), "if (a<b) s = '</div>';");
        assert_eq!(src(t, &d.end_tag(s).unwrap()), "</script>");
        assert_eq!(d.text(el(&d, "div")), "after");
    }

    #[test]
    fn cdata_in_svg_is_text_without_delimiters() {
        let t = "<body><svg><style><![CDATA[a<b]]></style></svg><p><![CDATA[x]]></p></body>";
        let d = parse(t);
        let style = el(&d, "style");
        assert!(!d.is_html_element(style));
        let c = d.children(style).next().unwrap();
        assert_eq!(d.node_text(c), Some("a<b"));
        assert_eq!(src(t, &d.spans(c)[0]), "a<b");
        // Outside foreign content, CDATA is a bogus comment.
        let p = el(&d, "p");
        let c = d.children(p).next().unwrap();
        assert_eq!(d.kind(c), NodeKind::Comment);
        assert_eq!(src(t, &d.spans(c)[0]), "<![CDATA[x]]>");
    }

    #[test]
    fn character_references_map_to_their_source() {
        let t =
            "<body><p>a &amp; b&nbsp;c&#x41;</p><table>  <tr><td>x &lt; y</td></tr></table></body>";
        let d = parse(t);
        let p = el(&d, "p");
        let c = d.children(p).next().unwrap();
        assert_eq!(d.node_text(c), Some("a & b\u{a0}cA"));
        assert_eq!(src(t, &d.spans(c)[0]), "a &amp; b&nbsp;c&#x41;");
        assert_eq!(d.text_chars(p), 8);
    }

    #[test]
    fn hidden_is_inherited() {
        let t = "<body><div style='color:red; DISPLAY : None !important'><p>a</p></div>\
                 <div hidden><span>b</span></div><div aria-hidden=TRUE>c</div>\
                 <div aria-hidden=false style='display:nonex'><i>d</i></div></body>";
        let d = parse(t);
        let hidden: Vec<&str> = d
            .text_nodes()
            .filter(|&(i, _)| d.is_hidden(i))
            .map(|(i, _)| d.node_text(i).unwrap())
            .collect();
        assert_eq!(hidden, ["a", "b", "c"]);
        assert!(!d.is_hidden(el(&d, "i")));
    }

    #[test]
    fn anchor_text_and_lines() {
        let t = "<body>\n<div>\n<a href=x>link <b>bold</b></a> plain\n</div>\n</body>";
        let page = crate::page::Page::from_text("t.html", t);
        let d = page.dom();
        let div = el(d, "div");
        assert_eq!(d.text_chars(div), "\nlink bold plain\n".chars().count());
        assert_eq!(d.anchor_chars(div), "link bold".len());
        assert_eq!(d.anchor_chars(el(d, "b")), 4);
        let lines = page.lines();
        let r = d.lines(div, lines);
        assert!(!r.is_empty());
        let first = &lines.lines[r.start];
        let last = &lines.lines[r.end - 1];
        assert!(first.range().contains(&t.find("<div>").unwrap()));
        assert!(last.range().contains(&t.find("</div>").unwrap()));
        for i in r {
            let l = lines.lines[i].range();
            assert!(d.region(div).intersects(l.clone()) || d.hull(div).unwrap().contains(&l.start));
        }
    }

    #[test]
    fn ids_are_dense_in_document_order() {
        let t = "<!DOCTYPE html><!-- c --><html><head><title>T</title></head><body>x</body></html>";
        let d = parse(t);
        assert_eq!(d.kind(0), NodeKind::Document);
        assert_eq!(d.kind(1), NodeKind::Doctype);
        assert_eq!(d.kind(2), NodeKind::Comment);
        assert_eq!(src(t, &d.spans(1)[0]), "<!DOCTYPE html>");
        assert_eq!(src(t, &d.spans(2)[0]), "<!-- c -->");
        let names: Vec<_> = d
            .elements()
            .map(|(i, depth)| (d.tag_name(i).unwrap(), depth))
            .collect();
        assert_eq!(names, [("html", 1), ("head", 2), ("title", 3), ("body", 2)]);
        assert_eq!(d.subtree(0), 0..d.len());
    }

    #[test]
    fn dom_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Dom>();
    }

    #[test]
    fn nesting_is_capped_and_text_is_kept() {
        let n = 3 * MAX_DEPTH;
        let html = format!(
            "{}<p>deep text</p>{}",
            "<div>".repeat(n),
            "</div>".repeat(n)
        );
        let dom = Dom::parse(&html, &DomOptions::default());
        dom.validate(&html).unwrap();
        let deepest = (0..dom.len()).map(|i| dom.depth(i)).max().unwrap();
        assert!(deepest <= MAX_DEPTH + 4, "depth {deepest}");
        assert!((MAX_DEPTH - 4..).contains(&deepest), "depth {deepest}");
        assert_eq!(dom.text(0).trim(), "deep text");
        // Unclosed paragraphs (closed implicitly) never trigger the cap: every <p> stays.
        let html = "<p>x".repeat(2 * MAX_DEPTH);
        let dom = Dom::parse(&html, &DomOptions::default());
        let ps = (0..dom.len())
            .filter(|&i| dom.tag_name(i) == Some("p"))
            .count();
        assert_eq!(ps, 2 * MAX_DEPTH);
    }
}
