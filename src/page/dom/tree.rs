//! The tree the tree builder builds: an arena of nodes linked by index (parent, siblings,
//! first / last child), with the operations html5ever's `TreeSink` asks for. It replaces
//! scraper's `Html` (an `ego_tree` of scraper nodes) under the positioned sink, doing what
//! scraper's `HtmlTreeSink` does, operation for operation, so the same page gives the same
//! tree: an element's attributes sorted by name (`add_attrs_if_missing` inserts in order), text
//! appended next to a text node merged into it, a `<template>` holding its contents as a
//! fragment child, a node moved by `append` / `insert_before` detached from where it was, the
//! links updated as `ego_tree` updates them. [`super::flatten`] numbers it in pre-order into
//! the [`super::Dom`]; no scraper node is built and dropped per page.
//!
//! Node ids ([`Id`]) are indices in creation order; the document is 0. Operations on an id the
//! arena does not hold do nothing (the tree builder only hands back ids it was given).

use html5ever::tendril::StrTendril;
use html5ever::{ns, QualName};

/// A node's index in the arena (creation order; the document is 0).
pub(super) type Id = usize;

/// No node.
const NIL: u32 = u32::MAX;

/// What a node is, with its data (the tree builder's tendrils, kept until the DOM copies them).
#[derive(Debug)]
pub(super) enum Data {
    Document,
    /// A `<!DOCTYPE>`: its name.
    Doctype(StrTendril),
    Comment(StrTendril),
    Text(StrTendril),
    /// An element: its name and attributes, sorted by name (scraper's order).
    Element(QualName, Vec<(QualName, StrTendril)>),
    /// A `<template>`'s contents.
    Fragment,
    ProcessingInstruction,
}

#[derive(Debug)]
struct Node {
    parent: u32,
    prev: u32,
    next: u32,
    first: u32,
    last: u32,
    data: Data,
}

/// The arena (see the module documentation).
#[derive(Debug)]
pub(super) struct Tree {
    nodes: Vec<Node>,
}

fn opt(i: u32) -> Option<Id> {
    (i != NIL).then_some(i as usize)
}

/// An index as a link; ids never reach `u32::MAX` (the arena would need 4 billion nodes of
/// at least 48 bytes, far past any page cescope reads).
fn link(i: Id) -> u32 {
    u32::try_from(i).unwrap_or(NIL)
}

impl Tree {
    /// A tree holding the document node alone, with room for `nodes` nodes before the arena
    /// grows.
    pub(super) fn with_capacity(nodes: usize) -> Tree {
        let mut t = Tree {
            nodes: Vec::with_capacity(nodes.max(1)),
        };
        t.orphan(Data::Document);
        t
    }

    /// Number of nodes made (detached ones included).
    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// A new node without parent or siblings.
    pub(super) fn orphan(&mut self, data: Data) -> Id {
        self.nodes.push(Node {
            parent: NIL,
            prev: NIL,
            next: NIL,
            first: NIL,
            last: NIL,
            data,
        });
        self.nodes.len() - 1
    }

    pub(super) fn data(&self, id: Id) -> Option<&Data> {
        self.nodes.get(id).map(|n| &n.data)
    }

    pub(super) fn parent(&self, id: Id) -> Option<Id> {
        self.nodes.get(id).and_then(|n| opt(n.parent))
    }

    pub(super) fn first_child(&self, id: Id) -> Option<Id> {
        self.nodes.get(id).and_then(|n| opt(n.first))
    }

    pub(super) fn last_child(&self, id: Id) -> Option<Id> {
        self.nodes.get(id).and_then(|n| opt(n.last))
    }

    pub(super) fn next_sibling(&self, id: Id) -> Option<Id> {
        self.nodes.get(id).and_then(|n| opt(n.next))
    }

    pub(super) fn prev_sibling(&self, id: Id) -> Option<Id> {
        self.nodes.get(id).and_then(|n| opt(n.prev))
    }

    /// The element's name; `None` for other nodes.
    pub(super) fn name(&self, id: Id) -> Option<&QualName> {
        match self.data(id) {
            Some(Data::Element(name, _)) => Some(name),
            _ => None,
        }
    }

    /// Is `id` an element in the HTML namespace named one of `names`?
    pub(super) fn is_html_named(&self, id: Id, names: &[&str]) -> bool {
        self.name(id)
            .is_some_and(|n| n.ns == ns!(html) && names.contains(&&*n.local))
    }

    /// Is `a` an ancestor of `b` or `b` itself?
    pub(super) fn is_ancestor_or_self(&self, a: Id, b: Id) -> bool {
        let mut cur = Some(b);
        while let Some(c) = cur {
            if c == a {
                return true;
            }
            cur = self.parent(c);
        }
        false
    }

    /// How many ancestors `id` has, counting at most `cap`.
    pub(super) fn ancestors_up_to(&self, id: Id, cap: usize) -> usize {
        let mut n = 0;
        let mut cur = self.parent(id);
        while let Some(c) = cur {
            if n >= cap {
                break;
            }
            n += 1;
            cur = self.parent(c);
        }
        n
    }

    /// Removes `id` from its parent's children (ego_tree's `detach`).
    pub(super) fn detach(&mut self, id: Id) {
        let Some(n) = self.nodes.get_mut(id) else {
            return;
        };
        let Some(parent) = opt(n.parent) else {
            return;
        };
        let (prev, next) = (n.prev, n.next);
        n.parent = NIL;
        n.prev = NIL;
        n.next = NIL;
        if let Some(p) = opt(prev) {
            self.nodes[p].next = next;
        }
        if let Some(x) = opt(next) {
            self.nodes[x].prev = prev;
        }
        let p = &mut self.nodes[parent];
        let me = link(id);
        if p.first == p.last {
            p.first = NIL;
            p.last = NIL;
        } else if p.first == me {
            p.first = next;
        } else if p.last == me {
            p.last = prev;
        }
    }

    /// Makes `child` the last child of `parent`, detached from where it was first (ego_tree's
    /// `append_id`; nothing when it is already the last child).
    pub(super) fn append_id(&mut self, parent: Id, child: Id) {
        if parent == child || parent >= self.nodes.len() || child >= self.nodes.len() {
            return;
        }
        let last = self.nodes[parent].last;
        let c = link(child);
        if last == c {
            return;
        }
        self.detach(child);
        let n = &mut self.nodes[child];
        n.parent = link(parent);
        n.prev = last;
        if let Some(l) = opt(last) {
            self.nodes[l].next = c;
        }
        let p = &mut self.nodes[parent];
        if p.first == NIL {
            p.first = c;
        }
        p.last = c;
    }

    /// Puts `new` right before `sibling` (which has a parent), detached from where it was
    /// first (ego_tree's `insert_id_before`).
    pub(super) fn insert_id_before(&mut self, sibling: Id, new: Id) {
        if sibling == new || sibling >= self.nodes.len() || new >= self.nodes.len() {
            return;
        }
        self.detach(new);
        let Some(parent) = opt(self.nodes[sibling].parent) else {
            return;
        };
        let prev = self.nodes[sibling].prev;
        let nw = link(new);
        let n = &mut self.nodes[new];
        n.parent = link(parent);
        n.prev = prev;
        n.next = link(sibling);
        if let Some(p) = opt(prev) {
            self.nodes[p].next = nw;
        }
        self.nodes[sibling].prev = nw;
        let p = &mut self.nodes[parent];
        if p.first == link(sibling) {
            p.first = nw;
        }
    }

    /// Moves all children of `from` to the end of `to`'s children, in order (ego_tree's
    /// `reparent_from_id_append`).
    pub(super) fn reparent_append(&mut self, to: Id, from: Id) {
        if to == from || to >= self.nodes.len() || from >= self.nodes.len() {
            return;
        }
        let (first, last) = (self.nodes[from].first, self.nodes[from].last);
        if first == NIL {
            return;
        }
        self.nodes[from].first = NIL;
        self.nodes[from].last = NIL;
        let mut cur = opt(first);
        while let Some(c) = cur {
            self.nodes[c].parent = link(to);
            cur = opt(self.nodes[c].next);
        }
        let old_last = self.nodes[to].last;
        match opt(old_last) {
            None => {
                self.nodes[to].first = first;
            }
            Some(ol) => {
                self.nodes[ol].next = first;
                self.nodes[first as usize].prev = old_last;
            }
        }
        self.nodes[to].last = last;
    }

    /// Appends `text` as the last child of `parent`, merged into the last child when that is a
    /// text node (scraper's `append`); the text node that holds it.
    pub(super) fn append_text(&mut self, parent: Id, text: StrTendril) -> Option<Id> {
        if parent >= self.nodes.len() {
            return None;
        }
        if let Some(last) = self.merge_text(self.last_child(parent), &text) {
            return Some(last);
        }
        let id = self.orphan(Data::Text(text));
        self.append_id(parent, id);
        Some(id)
    }

    /// Appends `text` to node `into` when it is a text node (how the tree builder's text merges
    /// into a text neighbour); the node, `None` when there is no such node or it is not text.
    fn merge_text(&mut self, into: Option<Id>, text: &StrTendril) -> Option<Id> {
        let id = into?;
        match &mut self.nodes.get_mut(id)?.data {
            Data::Text(t) => {
                t.push_tendril(text);
                Some(id)
            }
            _ => None,
        }
    }

    /// Puts `text` right before `sibling` when `sibling` has a parent, merged into the previous
    /// sibling when that is a text node (scraper's `append_before_sibling`); the text node that
    /// holds it, `None` when `sibling` has no parent.
    pub(super) fn insert_text_before(&mut self, sibling: Id, text: StrTendril) -> Option<Id> {
        self.parent(sibling)?;
        if let Some(prev) = self.merge_text(self.prev_sibling(sibling), &text) {
            return Some(prev);
        }
        let id = self.orphan(Data::Text(text));
        self.insert_id_before(sibling, id);
        Some(id)
    }

    /// Adds the attributes an element lacks, keeping them sorted by name (scraper's
    /// `add_attrs_if_missing`).
    pub(super) fn add_attrs_if_missing(&mut self, id: Id, attrs: Vec<html5ever::Attribute>) {
        let Some(Node {
            data: Data::Element(_, have),
            ..
        }) = self.nodes.get_mut(id)
        else {
            return;
        };
        for a in attrs {
            if let Err(at) = have.binary_search_by(|(name, _)| name.cmp(&a.name)) {
                have.insert(at, (a.name, a.value));
            }
        }
    }
}

/// An element's data as scraper makes it (`Element::new`): the attributes sorted by name.
pub(super) fn element(name: QualName, attrs: Vec<html5ever::Attribute>) -> Data {
    let mut attrs: Vec<(QualName, StrTendril)> =
        attrs.into_iter().map(|a| (a.name, a.value)).collect();
    attrs.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Data::Element(name, attrs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn children(t: &Tree, id: Id) -> Vec<Id> {
        let mut v = Vec::new();
        let mut c = t.first_child(id);
        while let Some(x) = c {
            v.push(x);
            c = t.next_sibling(x);
        }
        // The backward links agree with the forward ones.
        let mut back = Vec::new();
        let mut c = t.last_child(id);
        while let Some(x) = c {
            back.push(x);
            c = t.prev_sibling(x);
        }
        back.reverse();
        assert_eq!(v, back);
        for &x in &v {
            assert_eq!(t.parent(x), Some(id));
        }
        v
    }

    #[test]
    fn links_follow_appends_moves_and_reparenting() {
        let mut t = Tree::with_capacity(16);
        let [a, b, c, d] = [0; 4].map(|_| t.orphan(Data::Fragment));
        t.append_id(0, a);
        t.append_id(0, b);
        t.append_id(0, c);
        assert_eq!(children(&t, 0), [a, b, c]);
        // Appending the last child again changes nothing; appending another moves it.
        t.append_id(0, c);
        t.append_id(0, a);
        assert_eq!(children(&t, 0), [b, c, a]);
        t.insert_id_before(b, d);
        assert_eq!(children(&t, 0), [d, b, c, a]);
        t.insert_id_before(d, a);
        assert_eq!(children(&t, 0), [a, d, b, c]);
        t.detach(d);
        assert_eq!(children(&t, 0), [a, b, c]);
        assert_eq!(t.parent(d), None);
        // Reparenting appends all of the root's children after d's own, in order.
        let g = t.orphan(Data::Fragment);
        t.append_id(d, g);
        t.reparent_append(d, 0);
        assert!(children(&t, 0).is_empty());
        assert_eq!(children(&t, d), [g, a, b, c]);
        t.reparent_append(0, d);
        assert_eq!(children(&t, 0), [g, a, b, c]);
        assert!(children(&t, d).is_empty());
        // A node never becomes its own child.
        t.append_id(g, g);
        assert_eq!(t.parent(g), Some(0));
    }

    #[test]
    fn text_merges_with_a_text_neighbour() {
        let mut t = Tree::with_capacity(16);
        let p = t.orphan(Data::Fragment);
        t.append_id(0, p);
        let x = t.append_text(p, StrTendril::from_slice("one ")).unwrap();
        assert_eq!(t.append_text(p, StrTendril::from_slice("two")), Some(x));
        let e = t.orphan(Data::Fragment);
        t.append_id(p, e);
        assert_eq!(
            t.insert_text_before(e, StrTendril::from_slice("!")),
            Some(x)
        );
        assert!(matches!(t.data(x), Some(Data::Text(s)) if &**s == "one two!"));
        let y = t
            .insert_text_before(x, StrTendril::from_slice("zero "))
            .unwrap();
        assert_ne!(x, y);
        assert_eq!(children(&t, p), [y, x, e]);
        // No parent, no insertion.
        let lone = t.orphan(Data::Fragment);
        assert_eq!(
            t.insert_text_before(lone, StrTendril::from_slice("?")),
            None
        );
    }
}
