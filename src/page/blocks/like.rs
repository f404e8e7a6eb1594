//! Units of the page for editing a selection a unit at a time: a block, its record, its record
//! group, and the blocks **like** it — the queries behind the inspector's keep / strike keys
//! (an annotator fixing a forum thread strikes every `#14` post number, every `Click to
//! expand...` and every reaction count at once, and keeps every post).
//!
//! - [`Scope::Block`]: the atomic text block itself ([`Blocks`]).
//! - [`Scope::Record`]: the block's innermost record (a post, a comment, an item:
//!   [`Records::of_block`]) — all the blocks of its subtree.
//! - [`Scope::Group`]: every record of that record's group ([`Records::group_blocks`]).
//! - [`Scope::SamePath`]: every block whose container has the same **signature path** as the
//!   block's — each element from the root down as its tag and first class name, digits removed
//!   ([`super::records::signature_path_hashes`], the path the block context's `path_blocks`
//!   counts): the post number of every post, the author line of every post.
//! - [`Scope::SameText`]: every block with the same **likeness text** ([`likeness_text`]):
//!   `#14` ≡ `#15`, `12 likes` ≡ `3 Likes`, every `Click to expand...`.
//!
//! Units: block indices of the page's [`Blocks`] (document order), node ids of its DOM.
//! [`Alike`] holds the per-block keys, built once per page in O(nodes + block text).

use super::records::{signature_path_hashes, Records};
use super::Blocks;
use crate::page::dom::Dom;

/// How far an edit reaches around one block: a unit of the page (see the module
/// documentation), in the order an annotator widens a choice — the block, its record, its
/// group, then the blocks like it. (Not [`crate::page::units::Unit`], a unit *kind* found on
/// the page.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// The block itself.
    Block,
    /// The block's innermost record.
    Record,
    /// Every record of that record's group.
    Group,
    /// Every block whose container has the same signature path.
    SamePath,
    /// Every block with the same normalised text.
    SameText,
}

impl Scope {
    /// Every unit, narrowest first.
    pub const ALL: [Scope; 5] = [
        Scope::Block,
        Scope::Record,
        Scope::Group,
        Scope::SamePath,
        Scope::SameText,
    ];

    /// Its name in messages: `block`, `record`, `record group`, `same path`, `same text`.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Block => "block",
            Scope::Record => "record",
            Scope::Group => "record group",
            Scope::SamePath => "same path",
            Scope::SameText => "same text",
        }
    }

    /// True for the units that gather blocks from all over the page by likeness (same path,
    /// same text) rather than by place.
    pub fn is_like(self) -> bool {
        matches!(self, Scope::SamePath | Scope::SameText)
    }
}

/// A block's text for "alike" comparisons ([`Scope::SameText`]): lower-cased, white space
/// collapsed to one space, each run of ASCII decimal digits replaced by one `#` — so `#14` and
/// `#15`, `12 likes` and `3 Likes` are alike. The one likeness of text: the unit kinds
/// ([`crate::page::units`]) read it too. Allocates; O(text).
pub fn likeness_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_digits = false;
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
            in_digits = false;
        }
        for c in word.chars() {
            if c.is_ascii_digit() {
                if !in_digits {
                    out.push('#');
                    in_digits = true;
                }
            } else {
                in_digits = false;
                out.extend(c.to_lowercase());
            }
        }
    }
    out
}

/// The keys by which blocks are alike: for each block of a page, the signature path hash of
/// its container and its likeness text ([`likeness_text`] of [`Blocks::text`]).
#[derive(Debug, Clone, Default)]
pub struct Alike {
    path: Vec<u64>,
    text: Vec<String>,
}

impl Alike {
    /// The keys of every block of `blocks`, which were built from `dom`. O(nodes + block
    /// text).
    pub fn build(dom: &Dom, blocks: &Blocks) -> Alike {
        let paths = signature_path_hashes(dom);
        Alike {
            path: blocks
                .blocks()
                .iter()
                .map(|b| paths.get(b.container).copied().unwrap_or(0))
                .collect(),
            text: (0..blocks.len())
                .map(|i| likeness_text(&blocks.text(dom, i)))
                .collect(),
        }
    }

    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.text.len()
    }

    /// True when the page has no block.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Block `i`'s normalised text (`None` past the last block).
    pub fn text(&self, i: usize) -> Option<&str> {
        self.text.get(i).map(String::as_str)
    }

    /// The blocks whose container has the same signature path as block `i`'s, `i` among them,
    /// in document order; empty when `i` is past the last block. O(blocks).
    pub fn same_path(&self, i: usize) -> Vec<usize> {
        let Some(&key) = self.path.get(i) else {
            return Vec::new();
        };
        (0..self.path.len())
            .filter(|&j| self.path[j] == key)
            .collect()
    }

    /// The blocks with the same normalised text as block `i`, `i` among them, in document
    /// order; empty when `i` is past the last block. O(block text).
    pub fn same_text(&self, i: usize) -> Vec<usize> {
        let Some(key) = self.text.get(i) else {
            return Vec::new();
        };
        (0..self.text.len())
            .filter(|&j| self.text[j] == *key)
            .collect()
    }

    /// The blocks that disagree with the blocks like them: given for each block whether a
    /// selection keeps it (`kept`, one flag per block, e.g. [`Blocks::project`] ≥ 0.5), the
    /// blocks of every same-path class ([`Alike::same_path`]) that holds both kept and unkept
    /// blocks, in the class's minority state (both states when they are as many). Where a draft
    /// is inconsistent — nineteen post bodies kept and one not, one quote title kept and six not
    /// — and so where keeping or striking [`Scope::SamePath`] changes something. In document
    /// order; blocks past `kept`'s end count as unkept. O(blocks).
    pub fn odd_ones(&self, kept: &[bool]) -> Vec<usize> {
        let is_kept = |i: usize| kept.get(i).copied().unwrap_or(false);
        let mut counts: rustc_hash::FxHashMap<u64, (usize, usize)> =
            rustc_hash::FxHashMap::default();
        for (i, &p) in self.path.iter().enumerate() {
            let c = counts.entry(p).or_default();
            if is_kept(i) {
                c.0 += 1;
            } else {
                c.1 += 1;
            }
        }
        (0..self.path.len())
            .filter(|&i| {
                let (k, u) = counts.get(&self.path[i]).copied().unwrap_or_default();
                k > 0 && u > 0 && if is_kept(i) { k <= u } else { u <= k }
            })
            .collect()
    }

    /// The blocks of `unit` around block `i` ([`Scope`]), in document order: empty when `i` is
    /// past the last block, or for [`Scope::Record`] / [`Scope::Group`] when the block is in no
    /// record. `records` must be built from the same blocks.
    pub fn unit(&self, records: &Records, unit: Scope, i: usize) -> Vec<usize> {
        if i >= self.len() {
            return Vec::new();
        }
        match unit {
            Scope::Block => vec![i],
            Scope::Record => records
                .of_block(i)
                .map(|k| records.records()[k].blocks.clone().collect())
                .unwrap_or_default(),
            Scope::Group => records
                .group_of_block(i)
                .map(|g| records.group_blocks(g))
                .unwrap_or_default(),
            Scope::SamePath => self.same_path(i),
            Scope::SameText => self.same_text(i),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::Page;
    use crate::selection::Selection;

    /// A forum thread of `n` posts, XenForo-like: each post an `article.message` with the
    /// author, a `#N` post number, the body, a `Click to expand...` under a quote in every
    /// second post, and a reaction count.
    fn thread(n: usize) -> String {
        let mut posts = String::new();
        for k in 1..=n {
            let quote = if k % 2 == 0 {
                "<blockquote class=bbCodeBlock><div class=quote>earlier words</div>\
                 <div class=expandLink>Click to expand...</div></blockquote>"
            } else {
                ""
            };
            posts.push_str(&format!(
                "<article class=\"message message--post js-post-{k}\">\
                 <div class=message-user><a class=username href=/u/{k}>user{k}</a></div>\
                 <ul class=attribution><li><time>Jul {k}, 2022</time></li><li><a href=/p/{k}>#{k}</a></li></ul>\
                 <div class=bbWrapper>{quote}Body of post number {k} with a few words.</div>\
                 <div class=reactions><a href=/r/{k}>{} likes</a></div></article>\n",
                k * 3
            ));
        }
        format!(
            "<html><head><title>Thread</title></head><body><nav><a href=/>Forums</a></nav>\
             <h1>A thread</h1><div class=block-body>{posts}</div>\
             <footer><p>Contact us</p></footer></body></html>"
        )
    }

    fn block_of(p: &Page, needle: &str) -> usize {
        let b = p.blocks();
        (0..b.len())
            .find(|&i| b.text(p.dom(), i) == needle)
            .unwrap_or_else(|| panic!("no block {needle:?}"))
    }

    #[test]
    fn likeness_text_folds_case_space_and_digit_runs() {
        assert_eq!(likeness_text("#14"), "##");
        assert_eq!(likeness_text("#14"), likeness_text("#15"));
        assert_eq!(likeness_text("12 likes"), likeness_text(" 3  Likes "));
        assert_eq!(likeness_text("Jul 9, 2022"), "jul #, #");
        assert_eq!(likeness_text("Click  to\nexpand..."), "click to expand...");
        assert_ne!(likeness_text("3 likes"), likeness_text("3 replies"));
        for s in ["#14", "1,234.5 views", "Ünïcode 42 ÀB", "  a  b  "] {
            let once = likeness_text(s);
            assert_eq!(likeness_text(&once), once, "idempotent on {s:?}");
        }
        assert_eq!(likeness_text(""), "");
    }

    #[test]
    fn like_this_by_path_and_by_text_counts() {
        let p = Page::from_text("t.html", thread(6));
        let alike = Alike::build(p.dom(), p.blocks());
        let dom = p.dom();
        let blocks = p.blocks();
        assert_eq!(alike.len(), blocks.len());
        let texts =
            |v: &[usize]| -> Vec<String> { v.iter().map(|&i| blocks.text(dom, i)).collect() };

        // Same text: every post number, whatever its digits; not the dates or the bodies.
        let n14 = block_of(&p, "#4");
        let same = alike.same_text(n14);
        assert_eq!(texts(&same), ["#1", "#2", "#3", "#4", "#5", "#6"]);
        // Every `Click to expand...` (three posts quote), every reaction count.
        assert_eq!(alike.same_text(block_of(&p, "Click to expand...")).len(), 3);
        assert_eq!(
            texts(&alike.same_text(block_of(&p, "3 likes"))),
            ["3 likes", "6 likes", "9 likes", "12 likes", "15 likes", "18 likes"]
        );
        // Author names differ in text (user1 ≡ user2 only by their digits here)...
        assert_eq!(alike.same_text(block_of(&p, "user1")).len(), 6);
        // ...and the page's one-off blocks are like themselves only.
        let h1 = block_of(&p, "A thread");
        assert_eq!(alike.same_text(h1), vec![h1]);

        // Same path: the post numbers and the dates sit in `li`s of the same list, so they
        // share a path; the bodies share theirs with nothing else (the quotes are deeper).
        let by_path = alike.same_path(n14);
        assert_eq!(by_path.len(), 12, "{:?}", texts(&by_path));
        let body = block_of(&p, "Body of post number 2 with a few words.");
        assert_eq!(alike.same_path(body).len(), 6);
        let expand = block_of(&p, "Click to expand...");
        assert_eq!(alike.same_path(expand), alike.same_text(expand));
        assert_eq!(alike.same_path(h1), vec![h1]);

        // Out of range: nothing, no panic.
        assert!(alike.same_text(blocks.len()).is_empty());
        assert!(alike.same_path(blocks.len() + 5).is_empty());
        assert_eq!(alike.text(blocks.len()), None);
        assert_eq!(alike.text(n14), Some("##"));
    }

    #[test]
    fn odd_ones_disagree_with_their_kin() {
        let p = Page::from_text("t.html", thread(6));
        let alike = Alike::build(p.dom(), p.blocks());
        let blocks = p.blocks();
        let dom = p.dom();
        let text = |i: usize| blocks.text(dom, i);
        // Keep every post body but the fourth, and the first post number only.
        let kept: Vec<bool> = (0..blocks.len())
            .map(|i| {
                let t = text(i);
                (t.starts_with("Body of post") && !t.contains("number 4")) || t == "#1"
            })
            .collect();
        let odd: Vec<String> = alike.odd_ones(&kept).into_iter().map(text).collect();
        // The unkept body among five kept; the one kept number (it shares its path with the
        // dates, all unkept: twelve blocks, one kept).
        assert_eq!(odd, ["#1", "Body of post number 4 with a few words."]);
        // Two of a kind, one kept: both disagree.
        let mut two: Vec<bool> = (0..blocks.len())
            .map(|i| text(i) == "Click to expand...")
            .collect();
        let expands: Vec<usize> = (0..blocks.len())
            .filter(|&i| text(i) == "Click to expand...")
            .collect();
        two[expands[0]] = false;
        assert_eq!(
            alike.odd_ones(&two),
            vec![expands[0]],
            "2 kept, 1 not: the one"
        );
        two[expands[1]] = false;
        assert_eq!(
            alike.odd_ones(&two),
            vec![expands[2]],
            "1 kept, 2 not: the kept one"
        );
        // A uniform page, or flags too short: none.
        assert!(alike.odd_ones(&vec![true; blocks.len()]).is_empty());
        assert!(alike.odd_ones(&[]).is_empty());
    }

    #[test]
    fn units_around_a_block() {
        let p = Page::from_text("t.html", thread(5));
        let alike = Alike::build(p.dom(), p.blocks());
        let records = p.records();
        let blocks = p.blocks();
        let dom = p.dom();
        assert_eq!(records.groups().len(), 1, "the posts make one group");
        let g = &records.groups()[0];
        assert_eq!(g.signature, "article.message");
        assert_eq!(g.records.len(), 5);

        let body3 = block_of(&p, "Body of post number 3 with a few words.");
        assert_eq!(alike.unit(records, Scope::Block, body3), vec![body3]);
        let record = alike.unit(records, Scope::Record, body3);
        let texts: Vec<String> = record.iter().map(|&i| blocks.text(dom, i)).collect();
        assert_eq!(
            texts,
            [
                "user3",
                "Jul 3, 2022",
                "#3",
                "Body of post number 3 with a few words.",
                "9 likes"
            ]
        );
        let group = alike.unit(records, Scope::Group, body3);
        // Five posts of five blocks, two of them quoting (two more blocks each).
        assert_eq!(group.len(), 5 * 5 + 2 * 2);
        assert!(group.windows(2).all(|w| w[0] < w[1]), "sorted, each once");
        // Outside every record: no record, no group; the block and its likes still.
        let h1 = block_of(&p, "A thread");
        assert!(alike.unit(records, Scope::Record, h1).is_empty());
        assert!(alike.unit(records, Scope::Group, h1).is_empty());
        assert_eq!(alike.unit(records, Scope::SameText, h1), vec![h1]);
        assert!(alike.unit(records, Scope::Block, blocks.len()).is_empty());

        // A unit as a selection: its blocks' byte ranges, whose text is the blocks' text.
        let sel = blocks.selection_of(&alike.unit(records, Scope::SameText, block_of(&p, "#2")));
        assert_eq!(p.render(&sel).split_whitespace().count(), 5);
        assert!(p.is_normal(&sel));
        let main = Selection::from_ranges(blocks.ranges(body3).iter().cloned());
        assert_eq!(blocks.changes(&record, &main, true), record.len() - 1);
        assert_eq!(blocks.changes(&record, &main, false), 1);
    }
}
