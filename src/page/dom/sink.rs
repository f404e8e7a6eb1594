//! The tree sink: builds the tree ([`super::tree`], what scraper's `HtmlTreeSink` would build)
//! and stamps every node it creates or extends with the source span of the token being
//! processed.

use std::cell::{Cell, Ref, RefCell};
use std::collections::VecDeque;
use std::ops::Range;
use std::sync::LazyLock;

use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::{expanded_name, local_name, ns, Attribute, LocalName, QualName};

use super::tree::{self, Data, Id, Tree};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TokKind {
    None,
    Start,
    End,
    Text,
    Comment,
    Doctype,
}

/// Source bytes per node the sink's arena and stamps are sized for ([`PosSink::new`]).
const NODE_BYTES: usize = 32;

#[derive(Debug)]
pub(super) struct Stamp {
    pub(super) node: Id,
    pub(super) span: Range<usize>,
    pub(super) end_tag: bool,
}

/// Character data waiting to be inserted: its source span (`cur..end`) and, when the decoded
/// text differs from the source (character references, CR), the decoded text from `dpos`.
#[derive(Debug)]
pub(super) struct TextSrc {
    pub(super) cur: usize,
    pub(super) end: usize,
    pub(super) dec: Option<String>,
    pub(super) dpos: usize,
}

pub(super) struct PosSink<'t> {
    pub(super) tree: RefCell<Tree>,
    pub(super) text: Cell<&'t str>,
    pub(super) kind: Cell<TokKind>,
    pub(super) span: Cell<(usize, usize)>,
    pub(super) name: RefCell<Option<LocalName>>,
    /// The element created for the current start tag.
    pub(super) created: Cell<Option<Id>>,
    pub(super) last_inserted: Cell<Option<Id>>,
    stamps: RefCell<Vec<Stamp>>,
    pub(super) texts: RefCell<VecDeque<TextSrc>>,
    scratch: RefCell<Vec<Range<usize>>>,
    /// Parse errors the tree builder reported so far: a token it processed without one was not
    /// ignored (the tokenizer adapter checks end tags only after an error).
    pub(super) errors: Cell<u32>,
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
    /// A sink for a page of `text_len` bytes: its arena and stamps sized for the nodes such a
    /// page has (about one per 32 bytes on the dev corpora), so they rarely grow.
    pub(super) fn new(text_len: usize) -> Self {
        let nodes = text_len / NODE_BYTES + 64;
        PosSink {
            tree: RefCell::new(Tree::with_capacity(nodes)),
            text: Cell::new(""),
            kind: Cell::new(TokKind::None),
            span: Cell::new((0, 0)),
            name: RefCell::new(None),
            created: Cell::new(None),
            last_inserted: Cell::new(None),
            stamps: RefCell::new(Vec::with_capacity(nodes)),
            texts: RefCell::new(VecDeque::new()),
            scratch: RefCell::new(Vec::new()),
            errors: Cell::new(0),
        }
    }

    pub(super) fn into_parts(self) -> (Tree, Vec<Stamp>) {
        (self.tree.into_inner(), self.stamps.into_inner())
    }

    pub(super) fn stamp(&self, node: Id, span: Range<usize>, end_tag: bool) {
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
            // Skip one dropped character (white space or NUL, also a NUL decoded as U+FFFD
            // where the tree builder dropped it: at an integration point in SVG), or the whole
            // entry.
            let nul_fffd = |c: char, e: &TextSrc| {
                c == '\u{FFFD}' && e.dec.is_some() && src.as_bytes().get(e.cur) == Some(&0)
            };
            match rem.chars().next() {
                Some(c) if c.is_ascii_whitespace() || c == '\0' || nul_fffd(c, e) => {
                    let np = if e.dec.is_none() || c == '\u{FFFD}' {
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

    fn text_node_after(&self, node: Option<Id>) {
        if let Some(id) = node {
            self.last_inserted.set(Some(id));
        }
    }
}

/// The name [`TreeSink::elem_name`] gives a node that is not an element (the tree builder asks
/// only for elements' names; scraper's sink panics instead).
static NO_NAME: LazyLock<QualName> = LazyLock::new(|| QualName::new(None, ns!(), local_name!("")));

impl<'t> TreeSink for PosSink<'t> {
    type Handle = Id;
    type Output = Self;
    type ElemName<'a>
        = Ref<'a, QualName>
    where
        Self: 'a;

    fn finish(self) -> Self {
        self
    }

    fn parse_error(&self, _msg: std::borrow::Cow<'static, str>) {
        self.errors.set(self.errors.get().wrapping_add(1));
    }

    fn get_document(&self) -> Id {
        0
    }

    fn elem_name<'a>(&'a self, target: &'a Id) -> Self::ElemName<'a> {
        Ref::map(self.tree.borrow(), |t| t.name(*target).unwrap_or(&NO_NAME))
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, _flags: ElementFlags) -> Id {
        let kind = self.kind.get();
        let matches = matches!(kind, TokKind::Start | TokKind::End)
            && self
                .name
                .borrow()
                .as_ref()
                .is_some_and(|t| names_match(t, &name.local));
        let name_local = name.local.clone();
        // A `<template>` holds its contents in a fragment child (as scraper's sink makes it).
        let template = name.expanded() == expanded_name!(html "template");
        let h = {
            let mut t = self.tree.borrow_mut();
            let h = t.orphan(tree::element(name, attrs));
            if template {
                let f = t.orphan(Data::Fragment);
                t.append_id(h, f);
            }
            h
        };
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

    fn create_comment(&self, text: StrTendril) -> Id {
        let h = self.tree.borrow_mut().orphan(Data::Comment(text));
        if self.kind.get() == TokKind::Comment {
            let (a, b) = self.span.get();
            self.stamp(h, a..b, false);
        }
        h
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Id {
        self.tree.borrow_mut().orphan(Data::ProcessingInstruction)
    }

    fn append(&self, parent: &Id, child: NodeOrText<Id>) {
        match child {
            NodeOrText::AppendNode(id) => {
                self.tree.borrow_mut().append_id(*parent, id);
                self.last_inserted.set(Some(id));
            }
            NodeOrText::AppendText(t) => {
                self.text_spans(&t);
                let node = self.tree.borrow_mut().append_text(*parent, t);
                if let Some(n) = node {
                    for s in self.scratch.borrow_mut().drain(..) {
                        self.stamp(n, s, false);
                    }
                }
                self.text_node_after(node);
            }
        }
    }

    fn append_based_on_parent_node(&self, element: &Id, prev_element: &Id, child: NodeOrText<Id>) {
        let has_parent = self.tree.borrow().parent(*element).is_some();
        if has_parent {
            self.append_before_sibling(element, child)
        } else {
            self.append(prev_element, child)
        }
    }

    fn append_doctype_to_document(
        &self,
        name: StrTendril,
        _public_id: StrTendril,
        _system_id: StrTendril,
    ) {
        let n = {
            let mut t = self.tree.borrow_mut();
            let n = t.orphan(Data::Doctype(name));
            t.append_id(0, n);
            n
        };
        if self.kind.get() == TokKind::Doctype {
            let (a, b) = self.span.get();
            self.stamp(n, a..b, false);
        }
    }

    fn get_template_contents(&self, target: &Id) -> Id {
        // The fragment made with the template (its first child); the template itself should
        // the tree builder ever ask for one without (scraper's sink panics there).
        self.tree.borrow().first_child(*target).unwrap_or(*target)
    }

    fn same_node(&self, x: &Id, y: &Id) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &Id, new_node: NodeOrText<Id>) {
        match new_node {
            NodeOrText::AppendNode(id) => {
                let mut t = self.tree.borrow_mut();
                // Moved from where it was, inserted only next to a sibling that has a parent.
                t.detach(id);
                if t.parent(*sibling).is_some() {
                    t.insert_id_before(*sibling, id);
                }
                drop(t);
                self.last_inserted.set(Some(id));
            }
            NodeOrText::AppendText(text) => {
                self.text_spans(&text);
                let node = self.tree.borrow_mut().insert_text_before(*sibling, text);
                if let Some(n) = node {
                    for s in self.scratch.borrow_mut().drain(..) {
                        self.stamp(n, s, false);
                    }
                }
                self.text_node_after(node);
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &Id, attrs: Vec<Attribute>) {
        self.tree.borrow_mut().add_attrs_if_missing(*target, attrs)
    }

    fn remove_from_parent(&self, target: &Id) {
        self.tree.borrow_mut().detach(*target)
    }

    fn reparent_children(&self, node: &Id, new_parent: &Id) {
        self.tree.borrow_mut().reparent_append(*new_parent, *node)
    }
}
