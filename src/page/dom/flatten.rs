//! Flattening the tree builder's tree ([`super::tree`]) into the [`Dom`] arena: dense pre-order
//! ids, own spans sorted per node, hulls, inherited flags.

use std::ops::Range;
use std::sync::OnceLock;

use html5ever::{ns, LocalName};

use super::sink::Stamp;
use super::tree::{Data, Tree};
use super::{
    Dom, DomOptions, NodeInfo, NodeKind, F_ANCHOR, F_HIDDEN, F_HTML_NS, F_MATH_NS, F_NONTEXT, NONE,
};
use crate::page::lex::Tag;

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

/// The pre-order of `tree` from the document: `(id, true)` when a node opens, `(id, false)`
/// when it closes (after its subtree). Detached nodes are not visited.
fn walk(tree: &Tree, mut f: impl FnMut(usize, bool)) {
    let mut cur = 0;
    loop {
        f(cur, true);
        if let Some(c) = tree.first_child(cur) {
            cur = c;
            continue;
        }
        loop {
            f(cur, false);
            if cur == 0 {
                return;
            }
            if let Some(n) = tree.next_sibling(cur) {
                cur = n;
                break;
            }
            match tree.parent(cur) {
                Some(p) => cur = p,
                None => return,
            }
        }
    }
}

pub(super) fn build(tree: Tree, stamps: Vec<Stamp>, text_len: usize, opts: DomOptions) -> Dom {
    let mut nodes: Vec<NodeInfo> = Vec::with_capacity(tree.len());
    // Arena ids → our pre-order ids (`NONE`: detached, in no tree).
    let mut map: Vec<u32> = vec![NONE; tree.len()];
    // The decoded text and attribute values: at most about the source's size.
    let mut strings = String::with_capacity(text_len);
    let mut attrs: Vec<(LocalName, (usize, usize))> = Vec::with_capacity(tree.len());
    let mut stack: Vec<u32> = Vec::new();
    walk(&tree, |n, open| {
        if !open {
            if let Some(id) = stack.pop() {
                nodes[id as usize].end = nodes.len() as u32;
            }
            return;
        }
        let id = nodes.len() as u32;
        let parent = stack.last().copied().unwrap_or(NONE);
        let pflags = if parent == NONE {
            0
        } else {
            nodes[parent as usize].flags & !(F_HTML_NS | F_MATH_NS)
        };
        let mut push_str = |t: &str| {
            let a = strings.len();
            strings.push_str(t);
            (a, strings.len())
        };
        let mut str_range = (0, 0);
        let mut attr_range = (0, 0);
        let mut name = None;
        let (kind, tag, mut flags) = match tree.data(n) {
            None | Some(Data::Document) => (NodeKind::Document, Tag::Other, 0),
            Some(Data::Fragment) => (NodeKind::Fragment, Tag::Other, F_NONTEXT),
            Some(Data::Doctype(d)) => {
                str_range = push_str(d);
                (NodeKind::Doctype, Tag::Other, 0)
            }
            Some(Data::Comment(c)) => {
                str_range = push_str(c);
                (NodeKind::Comment, Tag::Other, 0)
            }
            Some(Data::Text(t)) => {
                str_range = push_str(t);
                (NodeKind::Text, Tag::Other, 0)
            }
            Some(Data::ProcessingInstruction) => (NodeKind::ProcessingInstruction, Tag::Other, 0),
            Some(Data::Element(qn, own)) => {
                let html_ns = qn.ns == ns!(html);
                let local: &str = &qn.local;
                let tag = if html_ns {
                    Tag::from_name(local.as_bytes())
                } else {
                    Tag::Other
                };
                let a0 = attrs.len() as u32;
                for (an, v) in own {
                    let r = push_str(v);
                    attrs.push((an.local.clone(), r));
                }
                attr_range = (a0, attrs.len() as u32);
                name = Some(qn.local.clone());
                let mut f = 0;
                if html_ns {
                    f |= F_HTML_NS;
                } else if qn.ns == ns!(mathml) {
                    f |= F_MATH_NS;
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
                // Script and style also in SVG / MathML (an inline SVG's CSS), as
                // the lexer classes them.
                if matches!(local, "script" | "style")
                    || (html_ns
                        && (local == "template"
                            || (tag == Tag::Noscript && opts.scripting_enabled)))
                {
                    f |= F_NONTEXT;
                }
                (NodeKind::Element, tag, f)
            }
        };
        flags |= pflags;
        if let Some(slot) = map.get_mut(n) {
            *slot = id;
        }
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
    });
    drop(tree);
    // Counting sort of the stamps by node.
    let mut own: Vec<(u32, Range<usize>)> = Vec::with_capacity(stamps.len());
    for s in stamps {
        let Some(&id) = map.get(s.node).filter(|&&id| id != NONE) else {
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
        non_space: OnceLock::new(),
    }
}
