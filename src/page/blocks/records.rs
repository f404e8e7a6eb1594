//! Records: posts, comments and listing items as units of the block model (Mohammadzadeh 2013,
//! section 7.2.2, "Posts Identifications and Main Content Extraction from Weblogs": a weblog is
//! "comprised of some posts", and the comments of a post "are often classified under the same
//! sub-tree of the DOM tree").
//!
//! The thesis leaves the detection open; cescope's rule, stated so a user can check it in the
//! inspector:
//!
//! - A **record** is an element whose subtree holds text in at least
//!   [`RecordOptions::min_blocks`] atomic text blocks (default 2: a post has at least an author
//!   line and a body; a paragraph or a menu entry is one block, so a run of `<p>` or of `<li><a>`
//!   is not a record group).
//! - A **record group** is the set of at least [`RecordOptions::min_records`] records (default 3)
//!   among the element children of one parent sharing one **signature** ([`signature`]): the
//!   tag name and the first class name with its digits removed (`li.comment`,
//!   `div.topic-body`; `post-17` and `post-18` give `post-`). Only the first class counts
//!   because frameworks append per-record classes (`even` / `odd`, `depth-2`, `bypostauthor`)
//!   after the stable one. Members need not be adjacent (an advertisement between two posts
//!   does not split the group).
//! - Groups nest (a reply thread inside a comment); every group is kept, and a block belongs to
//!   its **innermost** record ([`Records::of_block`]).
//!
//! Units: node ids of the page's [`Dom`], block indices of its [`Blocks`], words
//! ([`super::Features::words`]). Built in O(nodes · log blocks) by [`Records::build`]; a page
//! builds its records on first use ([`crate::page::Page::records`]).

use std::ops::Range;

use rustc_hash::FxHashMap;

use super::{node_label, Blocks};
use crate::page::dom::{Dom, NodeId, NodeKind};

/// What makes a record (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordOptions {
    /// Records of one signature under one parent needed for a group (≥ 2; default 3).
    pub min_records: usize,
    /// Atomic text blocks with text a record's subtree holds at least (≥ 1; default 2).
    pub min_blocks: usize,
}

impl Default for RecordOptions {
    fn default() -> Self {
        RecordOptions {
            min_records: 3,
            min_blocks: 2,
        }
    }
}

/// One record: an element repeated with its siblings (a post, a comment, a listing item).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The element.
    pub node: NodeId,
    /// Its group ([`Records::groups`]).
    pub group: usize,
    /// The blocks its subtree holds (indices into [`Blocks`], contiguous).
    pub blocks: Range<usize>,
    /// Words of those blocks.
    pub words: usize,
}

/// A record group: the records of one signature under one parent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordGroup {
    /// The parent element the records are children of.
    pub parent: NodeId,
    /// The shared signature ([`signature`]).
    pub signature: String,
    /// Its records ([`Records::records`]), in document order.
    pub records: Range<usize>,
    /// Words of all its records.
    pub words: usize,
    /// Groups it lies inside (0: outermost).
    pub depth: usize,
}

/// The records and record groups of a page, groups in document order of their first record,
/// records numbered group by group.
#[derive(Debug, Clone, Default)]
pub struct Records {
    records: Vec<Record>,
    groups: Vec<RecordGroup>,
    /// For each block, its innermost record (`u32::MAX`: none).
    block_record: Vec<u32>,
}

/// An element's signature: its tag name, then `.` and its first class name with ASCII digits
/// removed, if it has a class (`div.topic-body`, `li.comment`, `article.post-`, `tr`).
pub fn signature(dom: &Dom, id: NodeId) -> String {
    let mut bytes = Vec::new();
    push_signature(dom, id, &mut bytes);
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Appends the bytes of element `id`'s [`signature`] to `out`: the one definition that
/// [`signature`] and [`signature_path_hashes`] read (only ASCII digit bytes are dropped from
/// the class name, so the bytes stay UTF-8).
fn push_signature(dom: &Dom, id: NodeId, out: &mut Vec<u8>) {
    out.extend_from_slice(dom.tag_name(id).unwrap_or("").as_bytes());
    let class = dom
        .attr_local(id, &html5ever::local_name!("class"))
        .and_then(|c| c.split_ascii_whitespace().next());
    if let Some(c) = class {
        out.push(b'.');
        out.extend(c.bytes().filter(|b| !b.is_ascii_digit()));
    }
}

/// For every node of `dom` (indexed by node id), a 64-bit hash of its **signature path**: the
/// [`signature`]s of the elements from the root down to it (a text or other non-element node
/// carries its parent's; the document node 0). Two nodes with the same signature path have the
/// same hash (different paths collide with probability about 2⁻⁶⁴ per pair); the path of a
/// post's body in a forum thread is the same in every post (`… > article.message > div >
/// div.bbWrapper`), whatever the post's number. Read by the block context's `path_blocks` and
/// by [`super::like::Alike`]. One pre-order pass, no allocation per node; O(nodes + markup).
pub fn signature_path_hashes(dom: &Dom) -> Vec<u64> {
    use std::hash::Hasher;
    let mut out = vec![0u64; dom.len()];
    // One element's signature bytes, hashed in one call (the same bytes give the same hash
    // however the signature was put together).
    let mut sig: Vec<u8> = Vec::with_capacity(64);
    for id in 0..dom.len() {
        let parent = dom.parent(id).map_or(0, |p| out[p]);
        out[id] = if dom.kind(id) == NodeKind::Element {
            sig.clear();
            push_signature(dom, id, &mut sig);
            let mut h = rustc_hash::FxHasher::default();
            h.write_u64(parent);
            h.write(&sig);
            // A separator no signature byte equals (0xff is never in UTF-8), so `a` + `bc`
            // and `ab` + `c` differ.
            h.write_u8(0xff);
            h.finish()
        } else {
            parent
        };
    }
    out
}

/// The signature path of node `id` written out, the [`signature`]s of its elements from
/// `<html>` down joined by ` > ` (`html > body > div.block-body > article.message`): what
/// [`signature_path_hashes`] hashes, for display. Allocates; O(depth).
pub fn signature_path(dom: &Dom, id: NodeId) -> String {
    let mut chain = Vec::new();
    let mut cur = Some(id);
    while let Some(n) = cur {
        if dom.kind(n) == NodeKind::Element {
            chain.push(signature(dom, n));
        }
        cur = dom.parent(n);
    }
    chain.reverse();
    chain.join(" > ")
}

impl Records {
    /// Finds the record groups of `dom` (whose atomic text blocks are `blocks`) by the rule of
    /// the module documentation. Options below their minimum (`min_records` 2, `min_blocks`
    /// 1) are raised to it. O(nodes · log blocks).
    pub fn build(dom: &Dom, blocks: &Blocks, opts: &RecordOptions) -> Records {
        let min_records = opts.min_records.max(2);
        let min_blocks = opts.min_blocks.max(1);
        let bs = blocks.blocks();
        // The blocks whose first text node lies in the subtree of `id` (blocks are in document
        // order, so by their first node).
        let blocks_in = |id: NodeId| -> Range<usize> {
            let sub = dom.subtree(id);
            let a = bs.partition_point(|b| b.nodes.start < sub.start);
            let z = bs.partition_point(|b| b.nodes.start < sub.end);
            a..z.max(a)
        };
        let words_of = |r: &Range<usize>| -> usize {
            bs[r.clone()]
                .iter()
                .map(|b| b.features.words as usize)
                .sum()
        };
        let mut found: Vec<(RecordGroup, Vec<Record>)> = Vec::new();
        let mut by_sig: FxHashMap<String, Vec<(NodeId, Range<usize>)>> = FxHashMap::default();
        for parent in 0..dom.len() {
            if !matches!(dom.kind(parent), NodeKind::Element | NodeKind::Document)
                || dom.is_non_text(parent)
                || blocks_in(parent).len() < min_records * min_blocks
            {
                continue;
            }
            by_sig.clear();
            for child in dom.children(parent) {
                if dom.kind(child) != NodeKind::Element || dom.is_non_text(child) {
                    continue;
                }
                let r = blocks_in(child);
                if r.len() >= min_blocks {
                    by_sig
                        .entry(signature(dom, child))
                        .or_default()
                        .push((child, r));
                }
            }
            for (sig, members) in by_sig.drain() {
                if members.len() < min_records {
                    continue;
                }
                let records: Vec<Record> = members
                    .into_iter()
                    .map(|(node, r)| Record {
                        node,
                        group: 0,
                        words: words_of(&r),
                        blocks: r,
                    })
                    .collect();
                let group = RecordGroup {
                    parent,
                    signature: sig,
                    records: 0..0,
                    words: records.iter().map(|r| r.words).sum(),
                    depth: 0,
                };
                found.push((group, records));
            }
        }
        found.sort_by_key(|(_, rs)| rs[0].node);
        let mut out = Records {
            records: Vec::new(),
            groups: Vec::with_capacity(found.len()),
            block_record: vec![u32::MAX; bs.len()],
        };
        for (g, (mut group, records)) in found.into_iter().enumerate() {
            let from = out.records.len();
            out.records
                .extend(records.into_iter().map(|r| Record { group: g, ..r }));
            group.records = from..out.records.len();
            out.groups.push(group);
        }
        // Innermost record of every block, and each group's depth: visit records outer first
        // (an enclosing record has a smaller node id than the records inside it).
        let mut order: Vec<usize> = (0..out.records.len()).collect();
        order.sort_by_key(|&k| out.records[k].node);
        for &k in &order {
            let r = &out.records[k];
            let g = r.group;
            if out.groups[g].records.start == k {
                out.groups[g].depth = out
                    .block_record
                    .get(r.blocks.start)
                    .filter(|&&o| o != u32::MAX)
                    .map_or(0, |&o| out.groups[out.records[o as usize].group].depth + 1);
            }
            for b in r.blocks.clone() {
                out.block_record[b] = k as u32;
            }
        }
        out
    }

    /// The records, group by group (each group's records contiguous, in document order).
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The record groups, in document order of their first record.
    pub fn groups(&self) -> &[RecordGroup] {
        &self.groups
    }

    /// True when the page has no record group.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// The innermost record holding block `i`, if any (a block index past the page's blocks
    /// gives `None`).
    pub fn of_block(&self, i: usize) -> Option<usize> {
        self.block_record
            .get(i)
            .filter(|&&k| k != u32::MAX)
            .map(|&k| k as usize)
    }

    /// The group of block `i`'s innermost record ([`Records::of_block`]), if any.
    pub fn group_of_block(&self, i: usize) -> Option<usize> {
        self.of_block(i).map(|k| self.records[k].group)
    }

    /// The blocks of group `g`: the blocks of all its records (a nested record's too), sorted,
    /// each once; empty for a group index past the last. O(blocks of the group).
    pub fn group_blocks(&self, g: usize) -> Vec<usize> {
        let Some(group) = self.groups.get(g) else {
            return Vec::new();
        };
        let mut out: Vec<usize> = Vec::new();
        for r in &self.records[group.records.clone()] {
            // Records of a group are disjoint siblings in document order.
            let from = out
                .last()
                .map_or(r.blocks.start, |&l| r.blocks.start.max(l + 1));
            out.extend(from..r.blocks.end);
        }
        out
    }

    /// The record that starts first at or after block `i` — whose first block is the smallest
    /// not less than `i` — of every group; of records starting at the same block, the
    /// outermost. `None` when none does. "Next record" from block `b` is
    /// `first_starting_from(b + 1)`. O(records).
    pub fn first_starting_from(&self, i: usize) -> Option<usize> {
        (0..self.records.len())
            .filter(|&k| self.records[k].blocks.start >= i)
            .min_by_key(|&k| (self.records[k].blocks.start, self.records[k].node))
    }

    /// The record that starts last before block `i` — whose first block is the greatest less
    /// than `i`, so from inside a record that record — of every group; of records starting at
    /// the same block, the outermost. `None` when none does. "Previous record" from block `b`
    /// is `last_starting_before(b)`. O(records).
    pub fn last_starting_before(&self, i: usize) -> Option<usize> {
        (0..self.records.len())
            .filter(|&k| self.records[k].blocks.start < i)
            .min_by_key(|&k| {
                (
                    std::cmp::Reverse(self.records[k].blocks.start),
                    self.records[k].node,
                )
            })
    }

    /// The record series over blocks, for algorithms and learners: for each block, the group
    /// of its innermost record (`None`: in no record).
    pub fn block_groups(&self) -> Vec<Option<usize>> {
        (0..self.block_record.len())
            .map(|i| self.of_block(i).map(|k| self.records[k].group))
            .collect()
    }

    /// The group with the most words (the first of equals), if any.
    pub fn largest(&self) -> Option<usize> {
        (0..self.groups.len())
            .rev()
            .max_by_key(|&g| self.groups[g].words)
    }

    /// Record `k` in words, for explanations: "record 2 of 14 `div.topic-body` under
    /// `div.posts` (group 1: 1,203 words)". `dom` must be the DOM the records were built from.
    pub fn describe(&self, dom: &Dom, k: usize) -> String {
        let r = &self.records[k];
        let g = &self.groups[r.group];
        format!(
            "record {} of {} `{}` under `{}` (group {}, depth {}: {} words; this record {} words)",
            k - g.records.start + 1,
            g.records.len(),
            g.signature,
            if dom.kind(g.parent) == NodeKind::Element {
                node_label(dom, g.parent)
            } else {
                "the document".to_string()
            },
            r.group,
            g.depth,
            g.words,
            r.words
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::Page;

    fn records(html: &str) -> (Page, Records) {
        let p = Page::from_text("t.html", html);
        let r = Records::build(p.dom(), p.blocks(), &RecordOptions::default());
        (p, r)
    }

    fn comment(class: &str, who: &str, body: &str, replies: &str) -> String {
        format!("<li class=\"{class}\"><cite>{who}</cite><p>{body}</p>{replies}</li>")
    }

    #[test]
    fn groups_by_tag_and_first_class_and_nests() {
        let replies = format!(
            "<ol class=children>{}{}{}</ol>",
            comment("comment odd depth-2", "r1", "reply one", ""),
            comment("comment even depth-2", "r2", "reply two", ""),
            comment("comment odd depth-2", "r3", "reply three", ""),
        );
        let html = format!(
            "<body><nav><ul><li><a href=/>Home</a></li><li><a href=/a>A</a></li>\
             <li><a href=/b>B</a></li></ul></nav>\
             <article><p>one</p><p>two</p><p>three</p><p>four</p></article>\
             <ol class=comments>{}{}{}<li class=\"pingback\"><p>x</p><p>y</p></li></ol></body>",
            comment(
                "comment even thread-even depth-1",
                "ann",
                "hello there",
                &replies
            ),
            comment("comment odd thread-odd depth-1", "bob", "second one", ""),
            comment("comment-7 even depth-1", "cy", "a third", ""),
        );
        let (_, r) = records(&html);
        // The nav's one-block items and the article's paragraphs are no records. Of the
        // comment list's items only two sign `li.comment` (the first class; even / odd after
        // it ignored): `comment-7` signs `li.comment-`, so the list makes no group; the three
        // replies do.
        let sigs: Vec<(&str, usize, usize)> = r
            .groups()
            .iter()
            .map(|g| (g.signature.as_str(), g.records.len(), g.depth))
            .collect();
        assert_eq!(sigs, vec![("li.comment", 3, 0)], "{sigs:?}");
        // Both levels qualify once the third comment signs `li.comment` too.
        let html2 = html.replace("comment-7 even", "comment even");
        let (p2, r2) = records(&html2);
        let sigs2: Vec<(&str, usize, usize)> = r2
            .groups()
            .iter()
            .map(|g| (g.signature.as_str(), g.records.len(), g.depth))
            .collect();
        assert_eq!(sigs2, vec![("li.comment", 3, 0), ("li.comment", 3, 1)]);
        let blocks = p2.blocks();
        let dom2 = p2.dom();
        let block_of = |needle: &str| {
            (0..blocks.len())
                .find(|&i| blocks.text(dom2, i).contains(needle))
                .unwrap()
        };
        // A reply's block belongs to its reply record (innermost), the outer comment's body to
        // the outer record; the article's paragraphs to none.
        let reply = r2.of_block(block_of("reply two")).unwrap();
        assert_eq!(r2.records()[reply].group, 1);
        let outer = r2.of_block(block_of("hello there")).unwrap();
        assert_eq!(r2.records()[outer].group, 0);
        assert_eq!(r2.of_block(block_of("three")), None);
        let groups = r2.block_groups();
        assert_eq!(groups[block_of("second one")], Some(0));
        // Words: the outer group holds all six bodies and names.
        let words = |g: &RecordGroup| g.words;
        assert_eq!(words(&r2.groups()[1]), 3 * 3, "r1 reply one ×3");
        assert_eq!(
            words(&r2.groups()[0]),
            (1 + 2 + 9) + (1 + 2) + (1 + 2),
            "three comments (name, body), the first with its replies"
        );
        assert_eq!(r2.largest(), Some(0));
        let d = r2.describe(dom2, reply);
        assert!(
            d.starts_with("record 2 of 3 `li.comment` under `ol.children`"),
            "{d}"
        );
    }

    #[test]
    fn group_blocks_and_record_motions() {
        let replies = format!(
            "<ol class=children>{}{}{}</ol>",
            comment("comment", "r1", "reply one", ""),
            comment("comment", "r2", "reply two", ""),
            comment("comment", "r3", "reply three", ""),
        );
        let html = format!(
            "<body><h1>Title</h1><p>intro</p><ol class=comments>{}<li class=ad><p>ad</p></li>{}{}</ol>\
             <p>after</p></body>",
            comment("comment", "ann", "hello there", &replies),
            comment("comment", "bob", "second one", ""),
            comment("comment", "cy", "a third", ""),
        );
        let (p, r) = records(&html);
        let blocks = p.blocks();
        let dom = p.dom();
        let text = |i: usize| blocks.text(dom, i);
        let block_of = |needle: &str| (0..blocks.len()).find(|&i| text(i) == needle).unwrap();
        assert_eq!(r.groups().len(), 2);
        // The outer group: the three comments with the replies inside the first, without the
        // advertisement between them; sorted, each once.
        let outer: Vec<String> = r.group_blocks(0).into_iter().map(text).collect();
        assert_eq!(
            outer,
            [
                "ann",
                "hello there",
                "r1",
                "reply one",
                "r2",
                "reply two",
                "r3",
                "reply three",
                "bob",
                "second one",
                "cy",
                "a third"
            ]
        );
        assert_eq!(r.group_blocks(1).len(), 6);
        assert!(r.group_blocks(2).is_empty());
        assert_eq!(r.group_of_block(block_of("reply two")), Some(1));
        assert_eq!(r.group_of_block(block_of("second one")), Some(0));
        assert_eq!(r.group_of_block(block_of("intro")), None);

        // Motions: from the intro to the first comment (the outer record, not the reply that
        // starts later); from inside a reply to the next reply; from the last comment on, none.
        let start = |k: usize| text(r.records()[k].blocks.start);
        let next = |b: &str| r.first_starting_from(block_of(b) + 1).map(start);
        assert_eq!(next("intro").as_deref(), Some("ann"));
        assert_eq!(next("ann").as_deref(), Some("r1"));
        assert_eq!(next("reply one").as_deref(), Some("r2"));
        assert_eq!(next("reply three").as_deref(), Some("bob"));
        assert_eq!(next("a third"), None);
        // Previous: from inside a record to its own start, from its start to the one before.
        let prev = |b: &str| r.last_starting_before(block_of(b)).map(start);
        assert_eq!(prev("second one").as_deref(), Some("bob"));
        assert_eq!(prev("bob").as_deref(), Some("r3"));
        assert_eq!(prev("after").as_deref(), Some("cy"));
        assert_eq!(prev("ann"), None);
        assert_eq!(r.first_starting_from(blocks.len() + 3), None);
        assert_eq!(r.first_starting_from(0).map(start).as_deref(), Some("ann"));
        assert_eq!(
            r.last_starting_before(blocks.len()).map(start).as_deref(),
            Some("cy")
        );
    }

    #[test]
    fn fewer_than_three_or_single_block_members_make_no_group() {
        let two =
            "<div><div class=p><b>a</b><p>x y</p></div><div class=p><b>b</b><p>z</p></div></div>";
        assert!(records(two).1.is_empty());
        let flat = "<ul><li>a b</li><li>c d</li><li>e f</li><li>g h</li></ul>";
        assert!(records(flat).1.is_empty());
        let (p, r) = records(
            &flat
                .replace("<li>", "<li><b>n</b><div>")
                .replace("</li>", "</div></li>"),
        );
        assert_eq!(r.groups().len(), 1);
        assert_eq!(r.groups()[0].records.len(), 4);
        assert_eq!(r.groups()[0].signature, "li");
        assert_eq!(r.of_block(p.blocks().len()), None);
    }
}
