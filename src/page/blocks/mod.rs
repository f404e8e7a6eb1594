//! Atomic text blocks: the page's text cut where a reader's eye sees a new block, each with its
//! byte ranges, DOM place, shallow text features and visibility (Kohlschütter, Fankhauser and
//! Nejdl 2010, "Boilerplate detection using shallow text features"; Mohammadzadeh 2013,
//! section 3.3.2.1). The unit of the block table, of the projections of selections and DOM
//! series ([`project`]) and of the learned methods.
//!
//! **Segmentation.** "Atomic text blocks are those blocks which are separated by one or more
//! HTML tags, except for `<a>` tags" (thesis 3.3.2.1). Like boilerpipe, cescope also keeps
//! inline formatting inside a block. Built from the positioned DOM ([`Dom`], the one reference
//! for what is text): the text nodes in document order, where an element **inside** the block
//! (it neither starts nor ends one) is one of [`INLINE_TAGS`]:
//!
//! `a abbr acronym b bdi bdo big br cite code data del dfn em font i img ins kbd label mark nobr
//! q s samp small span strike strong sub sup time tt u var wbr`
//!
//! and every other element — block-level, form, table, media, unknown or foreign (SVG, MathML)
//! — starts a new block where it opens and where it closes. `br` and `img` separate tokens
//! (white space) without ending the block, so a forum post's lines stay one block. Against
//! boilerpipe's `DefaultTagActionMap` (which keeps `a`, `b`, `i`, `u`, `em`, `strong`, `span`,
//! `sup`, `sub`, `code`, `tt`, `var`, `font`, `strike`, `abbr`, `acronym` inline): cescope also
//! keeps the rest of HTML's phrasing formatting (`cite`, `q`, `small`, `mark`, `time`, …) and
//! `br` / `img` inside, as the learning prototype did (`../shared/notes/learning-prototype.md`), whose block
//! ceiling (blocks labelled from the gold) was ≥ 0.96 F1 on every page type but forums.
//!
//! Text the DOM does not show as page text ([`Dom::is_non_text`]: `script`, `style`,
//! `template`, and `<noscript>` when the DOM was parsed with scripting on) is in no block, and
//! such an element is no boundary either (a reader sees neither it nor a break; boilerpipe
//! splits there); comments likewise. A block is a run of text nodes holding at least
//! one token; white-space-only text at its ends is left out (its byte ranges are trimmed to the
//! first and last non-white-space byte). Blocks outside `<body>` (the `<title>`) are blocks too;
//! their [`Blocks::path`] says where they are.
//!
//! **Features** ([`Features`], one pass, no allocation per block): words, average word and
//! sentence length, link density, text density (80-column wrap), upper-case word counts and
//! ratios, full stops per word, date tokens, vertical bars; enclosing elements ([`Within`]:
//! `h1`–`h6`, `p`, `div` and some structural tags); absolute and relative position
//! ([`Blocks::relative_position`]); visibility ([`Visibility`]).
//!
//! Built by [`Blocks::build`] in one pass over the DOM's nodes, O(nodes + text); a [`Page`]
//! builds its blocks on first use ([`Page::blocks`]).
//!
//! [`Page`]: crate::page::Page
//! [`Page::blocks`]: crate::page::Page::blocks

use std::ops::Range;

use super::dom::{Dom, NodeId, NodeKind};
use super::lex::Tag;

mod features;
pub mod keywords;
pub mod like;
pub mod project;
pub mod records;

pub use features::{is_date_token, Features, WRAP_COLUMNS};
pub use like::{likeness_text, Alike, Scope};
pub use project::NodeLines;
pub use records::{Record, RecordGroup, RecordOptions, Records};

/// The elements that stay inside an atomic text block (see the module documentation); every
/// other element ends the block. HTML namespace only, lower case, sorted (searched by
/// [`slice::binary_search`]).
pub const INLINE_TAGS: &[&str] = &[
    "a", "abbr", "acronym", "b", "bdi", "bdo", "big", "br", "cite", "code", "data", "del", "dfn",
    "em", "font", "i", "img", "ins", "kbd", "label", "mark", "nobr", "q", "s", "samp", "small",
    "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr",
];

/// How an element takes part in segmentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Ends the block where it opens and where it closes.
    Separator,
    /// Stays inside the block.
    Inline,
    /// Inside the block, white space between tokens (`br`, `img`).
    Space,
}

/// The role of element `id` ([`INLINE_TAGS`]).
fn role(dom: &Dom, id: NodeId) -> Role {
    if !dom.is_html_element(id) {
        return Role::Separator;
    }
    // The interned tags (block, table, form, head and raw-text elements) are separators but
    // for `a`, `br` and `img`; only the others need their name read.
    match dom.tag(id) {
        Tag::A => return Role::Inline,
        Tag::Br | Tag::Img => return Role::Space,
        Tag::Other => {}
        _ => return Role::Separator,
    }
    let name = dom.tag_name(id).unwrap_or("");
    if INLINE_TAGS.binary_search(&name).is_ok() {
        Role::Inline
    } else {
        Role::Separator
    }
}

/// A set of flags over the elements enclosing a block (its container and the container's
/// ancestors): the paper's "presence of a particular headline tag (`<h1>` … `<h6>`), a
/// paragraph tag `<p>`, a division tag `<div>`" (thesis 3.3.2.1), and some structural tags a
/// learner may use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Within(u32);

impl Within {
    /// Inside `<h1>` … `<h6>`: `H[level - 1]`.
    pub const H: [Within; 6] = [
        Within(1),
        Within(1 << 1),
        Within(1 << 2),
        Within(1 << 3),
        Within(1 << 4),
        Within(1 << 5),
    ];
    /// Inside `<p>`.
    pub const P: Within = Within(1 << 6);
    /// Inside `<div>`.
    pub const DIV: Within = Within(1 << 7);
    /// Inside `<li>`.
    pub const LI: Within = Within(1 << 8);
    /// Inside `<td>` or `<th>`.
    pub const CELL: Within = Within(1 << 9);
    /// Inside `<pre>`.
    pub const PRE: Within = Within(1 << 10);
    /// Inside `<blockquote>`.
    pub const BLOCKQUOTE: Within = Within(1 << 11);
    /// Inside `<article>`.
    pub const ARTICLE: Within = Within(1 << 12);
    /// Inside `<main>`.
    pub const MAIN: Within = Within(1 << 13);
    /// Inside `<nav>`.
    pub const NAV: Within = Within(1 << 14);
    /// Inside `<header>`.
    pub const HEADER: Within = Within(1 << 15);
    /// Inside `<footer>`.
    pub const FOOTER: Within = Within(1 << 16);
    /// Inside `<aside>`.
    pub const ASIDE: Within = Within(1 << 17);
    /// Inside `<form>`.
    pub const FORM: Within = Within(1 << 18);
    /// Inside `<head>` (the `<title>`).
    pub const HEAD: Within = Within(1 << 19);

    /// Every flag with its tag name (`"h1"` … `"head"`), in bit order.
    pub const NAMES: [(Within, &'static str); 20] = [
        (Within::H[0], "h1"),
        (Within::H[1], "h2"),
        (Within::H[2], "h3"),
        (Within::H[3], "h4"),
        (Within::H[4], "h5"),
        (Within::H[5], "h6"),
        (Within::P, "p"),
        (Within::DIV, "div"),
        (Within::LI, "li"),
        (Within::CELL, "td"),
        (Within::PRE, "pre"),
        (Within::BLOCKQUOTE, "blockquote"),
        (Within::ARTICLE, "article"),
        (Within::MAIN, "main"),
        (Within::NAV, "nav"),
        (Within::HEADER, "header"),
        (Within::FOOTER, "footer"),
        (Within::ASIDE, "aside"),
        (Within::FORM, "form"),
        (Within::HEAD, "head"),
    ];

    /// The flag of one element's tag, empty for the others.
    fn of(tag: Tag) -> Within {
        match tag {
            Tag::H1 => Within::H[0],
            Tag::H2 => Within::H[1],
            Tag::H3 => Within::H[2],
            Tag::H4 => Within::H[3],
            Tag::H5 => Within::H[4],
            Tag::H6 => Within::H[5],
            Tag::P => Within::P,
            Tag::Div => Within::DIV,
            Tag::Li => Within::LI,
            Tag::Td | Tag::Th => Within::CELL,
            Tag::Pre => Within::PRE,
            Tag::Blockquote => Within::BLOCKQUOTE,
            Tag::Article => Within::ARTICLE,
            Tag::Main => Within::MAIN,
            Tag::Nav => Within::NAV,
            Tag::Header => Within::HEADER,
            Tag::Footer => Within::FOOTER,
            Tag::Aside => Within::ASIDE,
            Tag::Form => Within::FORM,
            Tag::Head => Within::HEAD,
            _ => Within(0),
        }
    }

    /// Are all flags of `other` set?
    pub fn contains(self, other: Within) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union.
    #[must_use]
    pub fn with(self, other: Within) -> Within {
        Within(self.0 | other.0)
    }

    /// The level (1–6) of the highest-ranking heading enclosing the block, if any.
    pub fn heading(self) -> Option<u8> {
        (0u8..6)
            .find(|&l| self.contains(Within::H[l as usize]))
            .map(|l| l + 1)
    }

    /// The names of the flags set, in bit order.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Within::NAMES
            .into_iter()
            .filter(move |(w, _)| self.contains(*w))
            .map(|(_, n)| n)
    }
}

/// Why a block is not shown to a reader: flags of the elements around all of its text.
///
/// - [`Visibility::HIDDEN`], [`Visibility::ARIA_HIDDEN`], [`Visibility::DISPLAY_NONE`]: the
///   block's text lies inside an element the DOM hides ([`Dom::is_hidden`]: the `hidden`
///   attribute, `aria-hidden="true"`, inline `display: none`; no style sheets are read); the
///   flag names the cause on the **outermost** such element (one flag; nested causes inside
///   it are not listed).
/// - [`Visibility::NOSCRIPT`]: inside a `<noscript>` element parsed as markup (a reader
///   without JavaScript sees it; a browser with scripting does not).
///
/// A block is flagged only when all of its text is (a hidden `<span>` inside a visible
/// paragraph does not flag the paragraph's block).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Visibility(u8);

impl Visibility {
    /// Inside an element with the `hidden` attribute.
    pub const HIDDEN: Visibility = Visibility(1);
    /// Inside an element with `aria-hidden="true"`.
    pub const ARIA_HIDDEN: Visibility = Visibility(2);
    /// Inside an element with inline `display: none`.
    pub const DISPLAY_NONE: Visibility = Visibility(4);
    /// Inside `<noscript>`.
    pub const NOSCRIPT: Visibility = Visibility(8);

    /// Every flag with its name, in bit order.
    pub const NAMES: [(Visibility, &'static str); 4] = [
        (Visibility::HIDDEN, "hidden"),
        (Visibility::ARIA_HIDDEN, "aria-hidden"),
        (Visibility::DISPLAY_NONE, "display:none"),
        (Visibility::NOSCRIPT, "noscript"),
    ];

    /// Are all flags of `other` set?
    pub fn contains(self, other: Visibility) -> bool {
        self.0 & other.0 == other.0
    }

    /// No flag set: shown to every reader.
    pub fn is_visible(self) -> bool {
        self.0 == 0
    }

    /// Hidden from every reader (one of the three hiding flags; `<noscript>` alone is not).
    pub fn is_hidden(self) -> bool {
        self.0 & 7 != 0
    }

    /// The names of the flags set (`"hidden"`, `"aria-hidden"`, `"display:none"`,
    /// `"noscript"`), in bit order.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Visibility::NAMES
            .into_iter()
            .filter(move |(v, _)| self.contains(*v))
            .map(|(_, n)| n)
    }

    /// The cause by which element `id` hides itself, when it is the outermost hidden element
    /// of its ancestry (the DOM hides it, not its parent); `None` otherwise. Read from the
    /// element's own attributes in the order of [`Visibility::NAMES`].
    fn hiding(dom: &Dom, id: NodeId) -> Option<Visibility> {
        if !dom.is_hidden(id) || dom.parent(id).is_some_and(|p| dom.is_hidden(p)) {
            return None;
        }
        Some(if dom.attr(id, "hidden").is_some() {
            Visibility::HIDDEN
        } else if dom
            .attr(id, "aria-hidden")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
        {
            Visibility::ARIA_HIDDEN
        } else {
            Visibility::DISPLAY_NONE
        })
    }
}

/// One atomic text block. Units: node ids of the page's [`Dom`], byte offsets into the decoded
/// text ([`crate::page::Page::text`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The element whose text the block is: the nearest enclosing element that is not one of
    /// [`INLINE_TAGS`] (for text directly in the document, the document node).
    pub container: NodeId,
    /// The DOM nodes from the block's first to its last text node (half-open, pre-order ids);
    /// every text node in this range belongs to the block, with the inline elements around
    /// them.
    pub nodes: Range<NodeId>,
    /// From the first byte of its first range to the end of its last ([`Blocks::ranges`]).
    pub extent: Range<usize>,
    /// The shallow text features.
    pub features: Features,
    /// The enclosing elements.
    pub within: Within,
    /// Why its text is not shown, if it is not.
    pub visibility: Visibility,
    /// Its ranges in [`Blocks`]' range list.
    ranges: (u32, u32),
}

/// The atomic text blocks of a page, in document order (see the module documentation).
#[derive(Debug, Clone, Default)]
pub struct Blocks {
    blocks: Vec<Block>,
    ranges: Vec<Range<usize>>,
    /// Extents in increasing, non-overlapping order (so [`Blocks::at`] can search).
    sorted: bool,
}

/// An element open during the walk.
#[derive(Debug, Clone, Copy)]
struct Frame {
    /// One past its subtree.
    end: NodeId,
    role: Role,
    /// The nearest separator at or above it.
    container: NodeId,
    within: Within,
    visibility: Visibility,
}

/// The block being built.
#[derive(Debug)]
struct Open {
    first: NodeId,
    last: NodeId,
    container: NodeId,
    within: Within,
    visibility: Visibility,
    scanner: features::Scanner,
    /// Where its ranges start in the range list, and where they end after its last text node
    /// with a token (later white-space-only text is dropped).
    ranges_from: usize,
    ranges_to: usize,
}

impl Blocks {
    /// Segments the text of `dom` (parsed from `text`) into atomic text blocks with their
    /// features. One pass over the nodes, O(nodes + text bytes); no allocation per block beyond
    /// the block list and the range list.
    pub fn build(text: &str, dom: &Dom) -> Blocks {
        let mut b = Blocks {
            blocks: Vec::new(),
            ranges: Vec::with_capacity(dom.len() / 2),
            sorted: true,
        };
        let root = Frame {
            end: dom.len(),
            role: Role::Separator,
            container: 0,
            within: Within::default(),
            visibility: Visibility::default(),
        };
        let mut stack: Vec<Frame> = vec![root];
        let mut open: Option<Open> = None;
        let mut id = 1;
        while id < dom.len() {
            while stack.len() > 1 && stack.last().is_some_and(|f| f.end <= id) {
                if stack.pop().is_some_and(|f| f.role == Role::Separator) {
                    b.close(open.take(), text);
                }
            }
            let top = *stack.last().unwrap_or(&root);
            match dom.kind(id) {
                NodeKind::Element | NodeKind::Fragment if dom.is_non_text(id) => {
                    // Not page text, and not shown: no text, no boundary.
                    id = dom.subtree(id).end;
                    continue;
                }
                NodeKind::Element => {
                    let role = role(dom, id);
                    let mut f = Frame {
                        end: dom.subtree(id).end,
                        role,
                        container: top.container,
                        within: top.within,
                        visibility: top.visibility,
                    };
                    if let Some(v) = Visibility::hiding(dom, id) {
                        f.visibility = Visibility(f.visibility.0 | v.0);
                    }
                    if dom.tag(id) == Tag::Noscript {
                        f.visibility = Visibility(f.visibility.0 | Visibility::NOSCRIPT.0);
                    }
                    match role {
                        Role::Separator => {
                            b.close(open.take(), text);
                            f.container = id;
                            f.within = f.within.with(Within::of(dom.tag(id)));
                        }
                        Role::Space => {
                            if let Some(o) = open.as_mut() {
                                o.scanner.space();
                            }
                        }
                        Role::Inline => {}
                    }
                    stack.push(f);
                }
                NodeKind::Text if !dom.is_non_text(id) => {
                    b.text_node(&mut open, dom, id, &top);
                }
                _ => {}
            }
            id += 1;
        }
        b.close(open.take(), text);
        b
    }

    /// Adds text node `id` (inside `top`) to the open block, opening one at its first token.
    fn text_node(&mut self, open: &mut Option<Open>, dom: &Dom, id: NodeId, top: &Frame) {
        let s = dom.node_text(id).unwrap_or("");
        let solid = !features::is_blank(s);
        let o = match open {
            Some(o) => o,
            None if !solid => {
                dom.remember_non_space_chars(id, 0);
                return;
            }
            None => open.insert(Open {
                first: id,
                last: id,
                container: top.container,
                within: top.within,
                visibility: top.visibility,
                scanner: features::Scanner::default(),
                ranges_from: self.ranges.len(),
                ranges_to: self.ranges.len(),
            }),
        };
        let chars = o.scanner.feed(s, dom.in_anchor(id));
        dom.remember_non_space_chars(id, chars);
        self.ranges.extend(dom.spans(id).iter().cloned());
        if solid {
            o.visibility = Visibility(o.visibility.0 & top.visibility.0);
            o.last = id;
            o.ranges_to = self.ranges.len();
        }
    }

    /// Ends the open block: its ranges sorted and trimmed of white space at both ends, its
    /// features finished.
    fn close(&mut self, open: Option<Open>, text: &str) {
        let Some(o) = open else {
            return;
        };
        self.ranges.truncate(o.ranges_to);
        let rs = &mut self.ranges[o.ranges_from..];
        if !rs.windows(2).all(|w| w[0].start <= w[1].start) {
            rs.sort_by_key(|r| r.start);
        }
        trim_ranges(&mut self.ranges, o.ranges_from, text.as_bytes());
        let rs = &self.ranges[o.ranges_from..];
        let (Some(first), Some(last)) = (rs.first(), rs.last()) else {
            self.ranges.truncate(o.ranges_from);
            return;
        };
        let extent = first.start..rs.iter().map(|r| r.end).max().unwrap_or(last.end);
        let features = o.scanner.finish();
        if features.tokens == 0 {
            self.ranges.truncate(o.ranges_from);
            return;
        }
        if let Some(prev) = self.blocks.last() {
            if extent.start < prev.extent.end {
                self.sorted = false;
            }
        }
        self.blocks.push(Block {
            container: o.container,
            nodes: o.first..o.last + 1,
            extent,
            features,
            within: o.within,
            visibility: o.visibility,
            ranges: (o.ranges_from as u32, self.ranges.len() as u32),
        });
    }

    /// The number block `i` (an index into [`Blocks::blocks`], 0-based) has wherever cescope
    /// shows a block to a person: `i + 1`, so `#1` is the page's first block (the `<title>`'s
    /// when it has one). The block table of `cescope blocks` and of the inspector (`B`), the
    /// explanations (`text block #12`) and the jumps all use it; `index` in the JSON and CSV
    /// of `cescope blocks` stays the 0-based position beside it (`number`).
    pub const fn number(i: usize) -> usize {
        i + 1
    }

    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// True when the page has no text block.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The blocks in document order.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// Block `i`. Panics if `i >= self.len()`.
    pub fn get(&self, i: usize) -> &Block {
        &self.blocks[i]
    }

    /// The byte ranges of block `i`'s text in the decoded text: the source spans of its text
    /// nodes (character references still encoded), sorted, white space at both ends trimmed.
    /// Usually one range per text node; never empty.
    pub fn ranges(&self, i: usize) -> &[Range<usize>] {
        let (a, b) = self.blocks[i].ranges;
        &self.ranges[a as usize..b as usize]
    }

    /// Bytes of block `i`'s ranges.
    pub fn len_bytes(&self, i: usize) -> usize {
        self.ranges(i).iter().map(|r| r.end - r.start).sum()
    }

    /// The relative position of block `i` in the page, in `[0, 1]`: `i / (n − 1)` for `n`
    /// blocks (0 for the only block). The absolute position is `i` itself (thesis 3.3.2.1: "the
    /// absolute and relative position of a text block in an HTML document").
    pub fn relative_position(&self, i: usize) -> f64 {
        if self.blocks.len() <= 1 {
            0.0
        } else {
            i as f64 / (self.blocks.len() - 1) as f64
        }
    }

    /// The block whose text holds byte `offset` (a cursor), if any. O(log blocks) (O(blocks)
    /// on a page whose tree moved text out of source order, e.g. foster parenting).
    pub fn at(&self, offset: usize) -> Option<usize> {
        let holds = |i: usize| self.ranges(i).iter().any(|r| r.contains(&offset));
        if self.sorted {
            let i = self.blocks.partition_point(|b| b.extent.end <= offset);
            (i < self.blocks.len() && holds(i)).then_some(i)
        } else {
            (0..self.blocks.len()).find(|&i| holds(i))
        }
    }

    /// The first block whose text starts at or after byte `offset` (its extent's start), if
    /// any: where a "next block" motion from a line without block text goes. O(log blocks)
    /// (O(blocks) on a page whose tree moved text out of source order).
    pub fn starting_from(&self, offset: usize) -> Option<usize> {
        if self.sorted {
            let i = self.blocks.partition_point(|b| b.extent.start < offset);
            (i < self.blocks.len()).then_some(i)
        } else {
            (0..self.blocks.len()).find(|&i| self.blocks[i].extent.start >= offset)
        }
    }

    /// The last block whose text starts before byte `offset`, if any: where a "previous
    /// block" motion from a line without block text goes. O(log blocks) (O(blocks) on a page
    /// whose tree moved text out of source order).
    pub fn starting_before(&self, offset: usize) -> Option<usize> {
        if self.sorted {
            self.blocks
                .partition_point(|b| b.extent.start < offset)
                .checked_sub(1)
        } else {
            (0..self.blocks.len())
                .rev()
                .find(|&i| self.blocks[i].extent.start < offset)
        }
    }

    /// The blocks whose extent overlaps the byte range `r` (e.g. a display line), in document
    /// order.
    pub fn overlapping(&self, r: Range<usize>) -> Vec<usize> {
        let hit = |b: &Block| b.extent.start < r.end && r.start < b.extent.end;
        if self.sorted {
            let a = self.blocks.partition_point(|b| b.extent.end <= r.start);
            (a..self.blocks.len())
                .take_while(|&i| self.blocks[i].extent.start < r.end)
                .filter(|&i| hit(&self.blocks[i]))
                .collect()
        } else {
            (0..self.blocks.len())
                .filter(|&i| hit(&self.blocks[i]))
                .collect()
        }
    }

    /// The block holding text node `id`, if any. O(log blocks).
    pub fn of_node(&self, id: NodeId) -> Option<usize> {
        let i = self.blocks.partition_point(|b| b.nodes.end <= id);
        (i < self.blocks.len() && self.blocks[i].nodes.contains(&id)).then_some(i)
    }

    /// Block `i`'s text as a reader sees it: its text nodes' decoded text, `br` and `img` as a
    /// space, white space collapsed to one space and trimmed ([`Features::chars`] characters).
    /// `dom` must be the DOM the blocks were built from. Allocates; O(block).
    pub fn text(&self, dom: &Dom, i: usize) -> String {
        let mut out = String::new();
        self.text_into(dom, i, &mut out);
        out
    }

    /// [`Blocks::text`] written into `out` (cleared first), so a caller that reads many
    /// blocks' texts reuses one buffer. O(block).
    pub fn text_into(&self, dom: &Dom, i: usize, out: &mut String) {
        out.clear();
        // A white space run (or `br` / `img`) seen since the last word: one space before the
        // next word, none at the ends.
        let mut gap = false;
        for id in self.blocks[i].nodes.clone() {
            match dom.kind(id) {
                NodeKind::Text if !dom.is_non_text(id) => {
                    for c in dom.node_text(id).unwrap_or("").chars() {
                        if c.is_whitespace() {
                            gap = true;
                        } else {
                            if gap && !out.is_empty() {
                                out.push(' ');
                            }
                            gap = false;
                            out.push(c);
                        }
                    }
                }
                NodeKind::Element if role(dom, id) == Role::Space => gap = true,
                _ => {}
            }
        }
    }

    /// The start of block `i`'s text ([`Blocks::text`]) for naming the block in a sentence: at
    /// most `chars` characters, cut after a whole word where there is one and marked `…`.
    pub fn snippet(&self, dom: &Dom, i: usize, chars: usize) -> String {
        let t = self.text(dom, i);
        if t.chars().count() <= chars {
            return t;
        }
        let cut: String = t.chars().take(chars.saturating_sub(1)).collect();
        let cut = match cut.rfind(' ') {
            Some(k) if k > 0 => cut[..k].to_string(),
            _ => cut,
        };
        format!("{cut}…")
    }

    /// The DOM path of block `i`'s container, e.g. `html > body > div#content.post > p`
    /// ([`dom_path`]).
    pub fn path(&self, dom: &Dom, i: usize) -> String {
        dom_path(dom, self.blocks[i].container)
    }

    /// The outermost element that hides block `i`'s text ([`Visibility`]), if any: for the path
    /// bar and explanations.
    pub fn hidden_by(&self, dom: &Dom, i: usize) -> Option<NodeId> {
        outermost(dom, self.blocks[i].nodes.start, |id| {
            Visibility::hiding(dom, id).is_some()
        })
    }

    /// The outermost `<noscript>` element around block `i`, if any.
    pub fn noscript(&self, dom: &Dom, i: usize) -> Option<NodeId> {
        outermost(dom, self.blocks[i].nodes.start, |id| {
            dom.kind(id) == NodeKind::Element && dom.tag(id) == Tag::Noscript
        })
    }
}

/// The outermost ancestor of `id` (itself included) for which `is` holds.
fn outermost(dom: &Dom, id: NodeId, is: impl Fn(NodeId) -> bool) -> Option<NodeId> {
    let mut found = None;
    let mut cur = Some(id);
    while let Some(n) = cur {
        if is(n) {
            found = Some(n);
        }
        cur = dom.parent(n);
    }
    found
}

/// Drops the white space at both ends of the ranges `ranges[from..]` (sorted): leading and
/// trailing ranges of ASCII white space only are removed, the first and last trimmed.
fn trim_ranges(ranges: &mut Vec<Range<usize>>, from: usize, text: &[u8]) {
    let blank = |r: &Range<usize>| {
        text.get(r.clone())
            .is_none_or(|b| b.iter().all(u8::is_ascii_whitespace))
    };
    while ranges.len() > from && ranges.last().is_some_and(blank) {
        ranges.pop();
    }
    let lead = ranges[from..].iter().take_while(|r| blank(r)).count();
    ranges.drain(from..from + lead);
    let ws = |i: &usize| text.get(*i).is_some_and(u8::is_ascii_whitespace);
    if let Some(r) = ranges.get_mut(from) {
        while ws(&r.start) && r.start < r.end {
            r.start += 1;
        }
    }
    if ranges.len() > from {
        if let Some(r) = ranges.last_mut() {
            while r.end > r.start && ws(&(r.end - 1)) {
                r.end -= 1;
            }
        }
    }
}

/// The DOM path of node `id`: its ancestors from `<html>` down to it, each as
/// `tag#id.class1.class2` (the `id` attribute after `#`, the `class` attribute's names after
/// dots), joined by ` > `, e.g. `html > body > div#content.post > p`. The document node is left
/// out; a text node is named by its parent's path. Allocates; O(depth).
pub fn dom_path(dom: &Dom, id: NodeId) -> String {
    let mut chain = Vec::new();
    let mut cur = Some(id);
    while let Some(n) = cur {
        if dom.kind(n) == NodeKind::Element {
            chain.push(n);
        }
        cur = dom.parent(n);
    }
    let mut s = String::new();
    for (k, &n) in chain.iter().rev().enumerate() {
        if k > 0 {
            s.push_str(" > ");
        }
        s.push_str(&node_label(dom, n));
    }
    s
}

/// One element as `tag#id.class1.class2` ([`dom_path`]'s steps).
pub fn node_label(dom: &Dom, id: NodeId) -> String {
    let mut s = dom.tag_name(id).unwrap_or("").to_string();
    if let Some(v) = dom.attr(id, "id").filter(|v| !v.trim().is_empty()) {
        s.push('#');
        s.push_str(v.trim());
    }
    if let Some(c) = dom.attr(id, "class") {
        for name in c.split_ascii_whitespace() {
            s.push('.');
            s.push_str(name);
        }
    }
    s
}

#[cfg(test)]
mod tests;
