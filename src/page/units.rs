//! Unit kinds: the parts of a page that the written definitions of main content decide about
//! — the headline, bylines and datelines, figure captions, tables, code blocks, comment
//! sections, forum posts and their metadata lines, related-article lists, supplemental boxes
//! and link lists — recognised on the block and record model ([`super::blocks`],
//! [`super::blocks::records`]), so that a guideline ([`crate::guideline`]) can add or remove
//! whole units of a kind from any extractor's selection, an annotator can read what a block
//! is (`cescope blocks`' `unit` column) and agreement can be reported kind by kind.
//!
//! Public benchmarks decide these kinds differently (`../shared/notes/guidelines.md`): the
//! scrapinghub benchmark's `articleBody` leaves the headline out, Dragnet (Peters & Lecocq
//! 2013) has a task with comments and one without, L3S-GN1 (Kohlschütter et al. 2010) labels
//! headline, full text, supplemental, related content and comments apart. No paper gives rules
//! to recognise the kinds; the rules below are cescope's, each stated so that a user can check
//! it in the inspector, and each read from what the block features already measure (tags,
//! `class` / `id` words, ARIA / microdata landmarks, record groups, end-of-text markers, link
//! density, the prose before a record group). Keyword matching is the one of
//! [`super::blocks::keywords`] (a `class` / `id` word matches a keyword it starts with; a
//! keyword written with `=` must be equal) over the units' own table ([`UNIT_KEYWORDS`]; its
//! masks are computed once per page with the learner's, [`PageMarks`]).
//!
//! The rules ("the headline" is the block(s) of the headline range given to [`Units::find`];
//! "outermost" means not inside another element found by the same rule; a **page wrapper** —
//! `html`, `body`, `main`, or an element around the headline — is never a unit):
//!
//! - **headline**: the blocks of the headline range (a `<title>` candidate is not a block of
//!   the body: none).
//! - **byline** (bylines and datelines): a block of at most 20 words in no record group, not
//!   in `nav`, `footer`, `aside` or a form, not in a table, code or caption unit, with (a) a `class` / `id` naming an author or a date
//!   (`author`, `byline`, `dateline`, `posted`, `published`, `date`, `timestamp`, `meta=`, …)
//!   on its container or up to 3 elements above, or (b) `itemprop` `author`, `datePublished`,
//!   `dateModified`, `dateCreated` or `creator` there, or (c) an `<address>` container or a
//!   `<time>` element around its text, or (d) text starting with "By", "Posted by", "Written
//!   by", "Posted on" or "Published", or (e) mostly unlinked text with a date token
//!   ([`super::blocks::is_date_token`]) in at most 8 words or two in at most 15.
//! - **caption**: the outermost `<figcaption>` elements and elements whose `class` / `id` names
//!   a caption (`caption`, `credit`) beside a picture (the element or its parent holds an
//!   `img`, `picture`, `video`, `svg` or `iframe`), holding at most 100 words.
//! - **table**: the outermost **data tables**, after Mozilla Readability's `_markDataTables`
//!   (the rule the Readability reference extractor uses): `role="presentation"` or
//!   `datatable="0"` → layout; a `summary` attribute or a `<caption>` with text → data; a
//!   `col`, `colgroup`, `tfoot`, `thead` or `th` inside → data; a nested table → layout; 10
//!   or more rows or more than 4 columns → data; rows × columns > 10 → data; else layout
//!   (cells counted with their `colspan`).
//! - **code**: the outermost `<pre>` elements, and a block whose text lies inside one `<code>`
//!   element.
//! - **comments**: (a) the records of a record group whose record element, parent or
//!   grandparent has a `class` / `id` naming comments (`comment`, `disqus`, `respond`,
//!   `discussion`) or is a comment landmark (`itemprop=comment`, `itemtype=…/Comment`, …), or
//!   that follows a comment end-of-text marker ("3 Comments", "Leave a reply":
//!   [`super::blocks::keywords::COMMENT_MARKERS`]) by at most 5 blocks after at least 50 words
//!   of prose; (b) the outermost elements named so, not page wrappers; (c) a comment marker
//!   block, mostly unlinked, after at least 50 words of prose; (d) a `<form>` with a
//!   `<textarea>` after a comment marker or named so. A record group inside a comment record
//!   is comments too (replies). Never in a region **beside the content** — a `nav`, `aside`
//!   or `footer`, or an element named navigation, menu, sidebar, widget or footer, or inside
//!   one — so a "Recent comments" widget is no comment section; (a) by its names only.
//! - **posts** (forum posts): the records of a record group beside no content region (as
//!   above) that is not related, nor comments — records named as comments are posts on a page
//!   that declares a forum and no article ([`super::declared`]; forum software marks each
//!   reply a schema.org `Comment`) — has mostly unlinked text
//!   (link density < 0.35, at least 8 words a record on average), whose records are not table
//!   rows or cells (a layout table's rows), that is not a listing of articles (half of the
//!   records or more open with a title — a heading `h1`–`h4` of at least 3 words — and two
//!   thirds of those titles differ; a thread's subject lines, "Re: …", repeat), and whose
//!   record element or parent has a `class` / `id` naming posts (`post`, `message`, `reply`,
//!   `answer`, `thread`), or which is the largest group of a page that declares a forum and no article, or
//!   the page's largest group with at least 5 records, 40 % of its words, 15 words a record on
//!   average and no record with half of the group's words (a page cut into a few big parts is
//!   no thread), not inside an article's wrapper (an `<article>` element above the records, a
//!   record or one of its 3 nearest ancestors whose `class` / `id` names an `article` or
//!   `story` or whose `itemprop` marks the body text: `articleBody`, `reviewBody`, `text`,
//!   `description`, `mainContentOfPage`; an article cut into same-class sections is no
//!   thread). Each post is one unit, numbered in the thread; a comment unit found by its
//!   names that is a post's record is dropped.
//! - **post_meta** (the metadata lines of posts and comments: author, date, number, reactions,
//!   "Reply"): in a posts or comments group, a block of at most 6 words that is not its
//!   record's largest block and whose path inside the record (each step the tag and first
//!   class, [`super::blocks::records::signature`], from the nearest element with the
//!   record's signature, so a nested reply counts as a record) recurs in at least half of the records (and
//!   at least 3), or whose text recurs in at least 3 records ([`likeness_text`]: `#14` and
//!   `#15` alike).
//! - **related**: (a) the records of a record group named related (`related`, `similar`,
//!   `recommend`, `popular`, `trending`, …: record element and up to 3 elements above) or
//!   following a related end-of-text marker ("Related articles", "You may also like":
//!   [`super::blocks::keywords::RELATED_MARKERS`]) with link density ≥ 0.3; (b) the outermost
//!   elements named so with at least 2 blocks, mostly linked (≥ 0.4) or short (≤ 12 words a
//!   block on average); (c) a related marker after at least 50 words of prose and the run of
//!   linked (≥ 0.5) or short (≤ 12 words) blocks after it, up to 40 blocks.
//! - **supplemental**: the outermost `<aside>` elements and elements named as boxes beside the
//!   text (`infobox`, `factbox`, `pullquote`, `sidebox`, `bio`, …; not `callout`, which
//!   documentation sites and shops use for content: admonitions, product features), not page
//!   wrappers, holding at most 40 % of the page's words.
//! - **link_list**: the outermost `ul`, `ol`, `dl` and `menu` elements of at least 2 blocks
//!   whose words are mostly linked (≥ 0.7) and short (≤ 12 words a block on average).
//!
//! A block can be in several units (a caption inside a comment); [`KindSet::primary`] names
//! one for display. Units: node ids of the page's [`Dom`], block indices of its
//! [`Blocks`], words ([`super::blocks::Features::words`]). Built in O(nodes + blocks · depth)
//! by [`Units::find`].

use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::sync::LazyLock;

use rustc_hash::{FxHashMap, FxHasher};

pub use super::blocks::keywords::UNIT_KEYWORDS;
use super::blocks::keywords::{EndMarker, PageMarks, KEYWORD_GROUPS, LANDMARKS, UNIT_KEYWORD_SET};
pub use super::blocks::like::likeness_text;
use super::blocks::{records, Blocks, Records, Within};
use super::declared::Declared;
use super::dom::{Dom, NodeId, NodeKind};
use super::lex::Tag;
use super::Page;
use crate::selection::Selection;

/// The kinds of unit a guideline decides about (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitKind {
    /// The page's headline.
    Headline,
    /// Bylines and datelines of an article.
    Byline,
    /// Figure and photo captions.
    Caption,
    /// Data tables.
    Table,
    /// Code blocks.
    Code,
    /// A comment section: comments, its heading, its form.
    Comments,
    /// Forum posts (each post a unit, numbered in its thread).
    Posts,
    /// The metadata lines of posts and comments: author, date, number, reactions.
    PostMeta,
    /// Lists of related articles.
    Related,
    /// Boxes beside the text: fact boxes, pull quotes, author bios, asides.
    Supplemental,
    /// Lists whose items are mostly links.
    LinkList,
}

impl UnitKind {
    /// Every kind, in the order guidelines and tables list them.
    pub const ALL: [UnitKind; 11] = [
        UnitKind::Headline,
        UnitKind::Byline,
        UnitKind::Caption,
        UnitKind::Table,
        UnitKind::Code,
        UnitKind::Comments,
        UnitKind::Posts,
        UnitKind::PostMeta,
        UnitKind::Related,
        UnitKind::Supplemental,
        UnitKind::LinkList,
    ];

    /// The name used in guideline files and tables: `headline`, `byline`, `caption`, `table`,
    /// `code`, `comments`, `posts`, `post_meta`, `related`, `supplemental`, `link_list`.
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Headline => "headline",
            UnitKind::Byline => "byline",
            UnitKind::Caption => "caption",
            UnitKind::Table => "table",
            UnitKind::Code => "code",
            UnitKind::Comments => "comments",
            UnitKind::Posts => "posts",
            UnitKind::PostMeta => "post_meta",
            UnitKind::Related => "related",
            UnitKind::Supplemental => "supplemental",
            UnitKind::LinkList => "link_list",
        }
    }

    /// What the kind is, in a few words (help texts, `cescope guideline show`).
    pub fn describe(self) -> &'static str {
        match self {
            UnitKind::Headline => "the page's headline",
            UnitKind::Byline => "bylines and datelines of the article",
            UnitKind::Caption => "figure and photo captions",
            UnitKind::Table => "data tables (not layout tables)",
            UnitKind::Code => "code blocks",
            UnitKind::Comments => "comment sections: comments, their heading and form",
            UnitKind::Posts => "forum posts (each post of a thread)",
            UnitKind::PostMeta => {
                "metadata lines of posts and comments: author, date, number, reactions"
            }
            UnitKind::Related => "lists of related articles",
            UnitKind::Supplemental => "boxes beside the text: fact boxes, pull quotes, bios",
            UnitKind::LinkList => "lists whose items are mostly links",
        }
    }

    /// The kind named `name` ([`UnitKind::name`]; `-` may stand for `_`, ASCII
    /// case-insensitive).
    pub fn from_name(name: &str) -> Option<UnitKind> {
        let n = name.trim().replace('-', "_");
        UnitKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(&n))
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

impl std::fmt::Display for UnitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The order in which a block's kinds are named when it has several ([`KindSet::primary`]):
/// the most specific first (a caption inside a comment is a caption).
const PRECEDENCE: [UnitKind; 11] = [
    UnitKind::Headline,
    UnitKind::PostMeta,
    UnitKind::Caption,
    UnitKind::Code,
    UnitKind::Table,
    UnitKind::Byline,
    UnitKind::Comments,
    UnitKind::Related,
    UnitKind::Posts,
    UnitKind::LinkList,
    UnitKind::Supplemental,
];

/// A set of unit kinds (the kinds of the units a block is in).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct KindSet(u16);

impl FromIterator<UnitKind> for KindSet {
    fn from_iter<I: IntoIterator<Item = UnitKind>>(kinds: I) -> KindSet {
        let mut set = KindSet::default();
        for k in kinds {
            set.insert(k);
        }
        set
    }
}

impl KindSet {
    /// Is `k` in the set?
    pub fn contains(self, k: UnitKind) -> bool {
        self.0 & k.bit() != 0
    }

    /// No kind.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    fn insert(&mut self, k: UnitKind) {
        self.0 |= k.bit();
    }

    /// The kinds in the set, in [`UnitKind::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = UnitKind> {
        UnitKind::ALL.into_iter().filter(move |k| self.contains(*k))
    }

    /// The kind to name the block by: the first of the set in the order headline, post_meta,
    /// caption, code, table, byline, comments, related, posts, link_list, supplemental.
    pub fn primary(self) -> Option<UnitKind> {
        PRECEDENCE.into_iter().find(|k| self.contains(*k))
    }
}

/// One unit: an element (or a block) of one kind and the blocks it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Its kind.
    pub kind: UnitKind,
    /// The element that makes it (for a one-block unit, the block's container).
    pub node: NodeId,
    /// Its blocks (indices into [`Blocks`], contiguous, never empty).
    pub blocks: Range<usize>,
    /// For a post: its place in the thread, `(k, n)` = post k (0 = the first) of n.
    pub post: Option<(usize, usize)>,
    /// The record group it comes from (posts, comments and related records, post_meta),
    /// an index into [`Records::groups`].
    pub group: Option<usize>,
    /// The rule that made it, in words (explanations, `cescope blocks --why`).
    pub why: String,
}

/// The units of a page, in the order they were found (kind by kind), and each block's kinds.
#[derive(Debug, Clone, Default)]
pub struct Units {
    units: Vec<Unit>,
    kinds: Vec<KindSet>,
}

/// The index of the comment landmark in [`LANDMARKS`].
static COMMENT_LANDMARK: LazyLock<u16> = LazyLock::new(|| {
    LANDMARKS
        .iter()
        .position(|(n, _)| *n == "comment")
        .map_or(0, |g| 1 << g)
});

/// The bit of the body-text landmark (`itemprop` articleBody, reviewBody, text, description,
/// mainContentOfPage) in [`LANDMARKS`] masks.
static BODY_LANDMARK: LazyLock<u16> = LazyLock::new(|| {
    LANDMARKS
        .iter()
        .position(|(n, _)| *n == "body")
        .map_or(0, |g| 1 << g)
});

/// The per-page facts the rules read, computed once.
struct Facts<'a> {
    dom: &'a Dom,
    blocks: &'a Blocks,
    records: &'a Records,
    /// The page's keyword masks ([`UNIT_KEYWORDS`] ones in [`PageMarks::units`]), landmarks
    /// and end markers, shared with the learner's block context.
    marks: &'a PageMarks,
    /// Prefix sums of words and linked words over blocks (length blocks + 1).
    words: Vec<u64>,
    linked: Vec<u64>,
    /// Prose words before block i (blocks in no record, link density < 0.5), length + 1.
    prose: Vec<u64>,
    /// The headline's blocks.
    headline: Option<Range<usize>>,
    /// What the page declares itself to be.
    declared: Declared,
    page_words: u64,
    /// Whether each node is, or lies inside, a page region beside the content: a `nav`,
    /// `aside` or `footer` element, or one whose `class` / `id` names navigation, a menu, a
    /// sidebar, a widget or a footer (the learner's keyword groups,
    /// [`super::blocks::keywords::KEYWORD_GROUPS`]).
    away: Vec<bool>,
}

impl Facts<'_> {
    fn bit(name: &str) -> u64 {
        UNIT_KEYWORD_SET.bit(name)
    }

    /// The blocks whose first text node lies in the subtree of `id`.
    fn blocks_in(&self, id: NodeId) -> Range<usize> {
        let sub = self.dom.subtree(id);
        let bs = self.blocks.blocks();
        let a = bs.partition_point(|b| b.nodes.start < sub.start);
        let z = bs.partition_point(|b| b.nodes.start < sub.end);
        a..z.max(a)
    }

    fn words_of(&self, r: &Range<usize>) -> u64 {
        self.words[r.end] - self.words[r.start]
    }

    fn link_density(&self, r: &Range<usize>) -> f64 {
        let w = self.words_of(r);
        if w == 0 {
            0.0
        } else {
            (self.linked[r.end] - self.linked[r.start]) as f64 / w as f64
        }
    }

    /// A page wrapper: `html`, `body`, `main`, or an element around the headline.
    fn is_wrapper(&self, id: NodeId) -> bool {
        if matches!(self.dom.tag(id), Tag::Html | Tag::Body | Tag::Main) {
            return true;
        }
        self.headline.as_ref().is_some_and(|h| {
            let r = self.blocks_in(id);
            r.start <= h.start && h.start < r.end
        })
    }

    /// The keyword groups of `id` and its ancestors up to `up` elements above, ORed.
    fn kw_up(&self, id: NodeId, up: usize) -> u64 {
        self.ored_up(id, up, &self.marks.units)
    }

    /// The landmark bits of `id` and its ancestors up to `up` elements above, ORed.
    fn landmark_up(&self, id: NodeId, up: usize) -> u16 {
        self.ored_up(id, up, &self.marks.landmarks)
    }

    /// `masks` (one per node) of `id` and its element ancestors up to `up` elements above,
    /// ORed.
    fn ored_up<T: Copy + Default + std::ops::BitOrAssign>(
        &self,
        id: NodeId,
        up: usize,
        masks: &[T],
    ) -> T {
        let mut m = T::default();
        let mut cur = Some(id);
        let mut level = 0;
        while let Some(e) = cur {
            if self.dom.kind(e) == NodeKind::Element {
                if level > up {
                    break;
                }
                m |= masks[e];
                level += 1;
            }
            cur = self.dom.parent(e);
        }
        m
    }

    fn tag_name(&self, id: NodeId) -> &str {
        self.dom.tag_name(id).unwrap_or("")
    }
}

impl Units {
    /// Recognises the units of `page` by the rules of the module documentation. `headline` is
    /// the headline's byte range, when a headline finder gave one (the guideline module asks
    /// the default finder); without it there is no headline unit and a page wrapper is only
    /// `html`, `body` or `main`. O(nodes + blocks · depth).
    pub fn find(page: &Page, headline: Option<Range<usize>>) -> Units {
        let dom = page.dom();
        let blocks = page.blocks();
        let records = page.records();
        let n = blocks.len();
        let mut words = Vec::with_capacity(n + 1);
        let mut linked = Vec::with_capacity(n + 1);
        let mut prose = Vec::with_capacity(n + 1);
        words.push(0u64);
        linked.push(0u64);
        prose.push(0u64);
        for (i, b) in blocks.blocks().iter().enumerate() {
            let f = &b.features;
            words.push(words[i] + u64::from(f.words));
            linked.push(linked[i] + u64::from(f.linked_words));
            let is_prose = records.of_block(i).is_none() && f.link_density() < 0.5;
            prose.push(prose[i] + if is_prose { u64::from(f.words) } else { 0 });
        }
        let headline = headline.and_then(|h| {
            let hit: Vec<usize> = blocks
                .overlapping(h)
                .into_iter()
                .filter(|&i| !blocks.get(i).within.contains(Within::HEAD))
                .collect();
            Some(*hit.first()?..*hit.last()? + 1)
        });
        let marks = PageMarks::of(page);
        let facts = Facts {
            dom,
            blocks,
            records,
            away: away_regions(dom, &marks.groups),
            marks: &marks,
            declared: Declared::of_page(page),
            page_words: words[n],
            words,
            linked,
            prose,
            headline,
        };
        let mut units = Units {
            units: Vec::new(),
            kinds: vec![KindSet::default(); n],
        };
        if let Some(h) = facts.headline.clone() {
            units.push(Unit {
                kind: UnitKind::Headline,
                node: blocks.get(h.start).container,
                blocks: h,
                post: None,
                group: None,
                why: "the headline finder's headline".into(),
            });
        }
        units.find_elements(&facts);
        units.find_bylines(&facts);
        let classes = units.find_groups(&facts);
        units.drop_post_comments();
        units.find_markers(&facts);
        units.find_post_meta(&facts, &classes);
        units
    }

    fn push(&mut self, u: Unit) {
        if u.blocks.is_empty() {
            return;
        }
        for k in u.blocks.clone() {
            if let Some(s) = self.kinds.get_mut(k) {
                s.insert(u.kind);
            }
        }
        self.units.push(u);
    }

    /// Every unit.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The units of kind `k`.
    pub fn of_kind(&self, k: UnitKind) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.kind == k)
    }

    /// The units block `i` is in.
    pub fn at_block(&self, i: usize) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.blocks.contains(&i))
    }

    /// The kinds of the units block `i` is in (empty past the last block).
    pub fn kinds(&self, i: usize) -> KindSet {
        self.kinds.get(i).copied().unwrap_or_default()
    }

    /// The text of `u`: the byte ranges of its blocks ([`Blocks::ranges`]), a normal-form
    /// selection.
    pub fn selection(&self, blocks: &Blocks, u: &Unit) -> Selection {
        Selection::from_ranges(
            u.blocks
                .clone()
                .flat_map(|i| blocks.ranges(i).iter().cloned()),
        )
    }

    /// Elements found by their tag or names: code, tables, captions, comment / related /
    /// supplemental containers, link lists, comment forms.
    fn find_elements(&mut self, f: &Facts) {
        let dom = f.dom;
        // One past the subtree of the last unit found per rule (outermost only).
        let mut until = [0usize; 8];
        let comment_bit = Facts::bit("comment");
        let related_bit = Facts::bit("related");
        let supplemental_bit = Facts::bit("supplemental");
        let caption_bit = Facts::bit("caption");
        for id in 0..dom.len() {
            if dom.kind(id) != NodeKind::Element {
                continue;
            }
            let tag = dom.tag(id);
            let name = f.tag_name(id);
            let label = || records::signature(dom, id);
            // Code: <pre>.
            if tag == Tag::Pre {
                self.outermost(
                    f,
                    &mut until,
                    0,
                    id,
                    UnitKind::Code,
                    "a <pre> element".into(),
                );
            }
            // Tables: data tables after Readability's _markDataTables.
            if tag == Tag::Table && id >= until[1] && !f.is_wrapper(id) {
                if let Some(why) = data_table(dom, id) {
                    self.outermost(f, &mut until, 1, id, UnitKind::Table, why);
                }
            }
            // Captions.
            let kw = f.marks.units[id];
            if name == "figcaption" || (kw & caption_bit != 0 && beside_a_picture(dom, id)) {
                let r = f.blocks_in(id);
                if !r.is_empty() && f.words_of(&r) <= 100 && !f.is_wrapper(id) {
                    let why = if name == "figcaption" {
                        "a <figcaption> element".to_string()
                    } else {
                        format!("`{}` names a caption", label())
                    };
                    self.outermost(f, &mut until, 2, id, UnitKind::Caption, why);
                }
            }
            // Comment sections named so.
            let landmark = f.marks.landmarks[id];
            if (kw & comment_bit != 0 || landmark & *COMMENT_LANDMARK != 0)
                && id >= until[3]
                && !f.is_wrapper(id)
                && !f.holds_most_prose(id)
                && !f.away[id]
            {
                let why = if kw & comment_bit != 0 {
                    format!("`{}` names a comment section", label())
                } else {
                    format!("`{}` is a comment landmark", label())
                };
                self.outermost(f, &mut until, 3, id, UnitKind::Comments, why);
            }
            // Related lists named so.
            if kw & related_bit != 0 && id >= until[4] && !f.is_wrapper(id) {
                let r = f.blocks_in(id);
                let mean = f.words_of(&r) as f64 / r.len().max(1) as f64;
                if r.len() >= 2 && (f.link_density(&r) >= 0.4 || mean <= 12.0) {
                    self.outermost(
                        f,
                        &mut until,
                        4,
                        id,
                        UnitKind::Related,
                        format!("`{}` names related articles", label()),
                    );
                }
            }
            // Supplemental boxes.
            if (tag == Tag::Aside || kw & supplemental_bit != 0)
                && id >= until[5]
                && !f.is_wrapper(id)
            {
                let r = f.blocks_in(id);
                if (f.words_of(&r) as f64) <= 0.4 * f.page_words as f64 {
                    let why = if tag == Tag::Aside {
                        "an <aside> element".to_string()
                    } else {
                        format!("`{}` names a box beside the text", label())
                    };
                    self.outermost(f, &mut until, 5, id, UnitKind::Supplemental, why);
                }
            }
            // Link lists.
            if matches!(name, "ul" | "ol" | "dl" | "menu") && id >= until[6] && !f.is_wrapper(id) {
                let r = f.blocks_in(id);
                let mean = f.words_of(&r) as f64 / r.len().max(1) as f64;
                if r.len() >= 2 && f.link_density(&r) >= 0.7 && mean <= 12.0 {
                    let why = format!(
                        "a <{name}> of {} blocks, link density {:.2}",
                        r.len(),
                        f.link_density(&r)
                    );
                    self.outermost(f, &mut until, 6, id, UnitKind::LinkList, why);
                }
            }
            // Comment forms: a <form> with a <textarea>, named so or after a comment marker.
            if tag == Tag::Form && id >= until[7] {
                let sub = dom.subtree(id);
                let textarea = (sub.start..sub.end).any(|d| {
                    dom.kind(d) == NodeKind::Element && dom.tag_name(d) == Some("textarea")
                });
                if textarea {
                    let r = f.blocks_in(id);
                    let after_marker = (0..r.start.min(f.blocks.len()))
                        .rev()
                        .take(40)
                        .any(|j| f.marks.end_marker(j) == Some(EndMarker::Comments));
                    if kw & comment_bit != 0 || after_marker {
                        self.outermost(
                            f,
                            &mut until,
                            7,
                            id,
                            UnitKind::Comments,
                            "a form with a text area after a comment heading".into(),
                        );
                    }
                }
            }
            // Code: a block whose text lies inside one <code> element.
            if name == "code" {
                let r = f.blocks_in(id);
                for i in r {
                    let b = f.blocks.get(i);
                    let sub = dom.subtree(id);
                    if b.nodes.start > id
                        && b.nodes.end <= sub.end
                        && dom.contains(b.container, id)
                        && b.container != id
                        && !b.within.contains(Within::PRE)
                        && !self.kinds(i).contains(UnitKind::Code)
                    {
                        self.push(Unit {
                            kind: UnitKind::Code,
                            node: id,
                            blocks: i..i + 1,
                            post: None,
                            group: None,
                            why: "its text lies inside one <code> element".into(),
                        });
                    }
                }
            }
        }
    }

    /// Adds element `id` as a unit of `kind` unless it lies inside the last unit found by rule
    /// `slot` (`until[slot]`: one past that unit's subtree) or holds no block.
    fn outermost(
        &mut self,
        f: &Facts,
        until: &mut [usize; 8],
        slot: usize,
        id: NodeId,
        kind: UnitKind,
        why: String,
    ) -> bool {
        if id < until[slot] {
            return false;
        }
        let blocks = f.blocks_in(id);
        if blocks.is_empty() {
            return false;
        }
        until[slot] = f.dom.subtree(id).end;
        self.push(Unit {
            kind,
            node: id,
            blocks,
            post: None,
            group: None,
            why,
        });
        true
    }

    /// Bylines and datelines: short blocks outside records named as authors or dates.
    fn find_bylines(&mut self, f: &Facts) {
        let dom = f.dom;
        let byline_bit = Facts::bit("byline");
        for (i, b) in f.blocks.blocks().iter().enumerate() {
            let words = b.features.words;
            if words == 0
                || words > 20
                || f.records.of_block(i).is_some()
                || b.within.contains(Within::NAV)
                || b.within.contains(Within::FOOTER)
                || b.within.contains(Within::ASIDE)
                || b.within.contains(Within::HEAD)
                || b.within.contains(Within::FORM)
                || f.headline.as_ref().is_some_and(|h| h.contains(&i))
                || [UnitKind::Table, UnitKind::Code, UnitKind::Caption]
                    .into_iter()
                    .any(|k| self.kinds(i).contains(k))
            {
                continue;
            }
            let why = if f.kw_up(b.container, 3) & byline_bit != 0 {
                Some("a class or id names an author or a date".to_string())
            } else if let Some(p) = itemprop_up(dom, b.container, 3) {
                Some(format!("itemprop={p}"))
            } else if f.tag_name(b.container) == "address" || inside_tag(dom, b, "time") {
                Some("an <address> or <time> element".to_string())
            } else {
                let text = f.blocks.text(dom, i);
                let lower = text.to_lowercase();
                let by = [
                    "by ",
                    "posted by ",
                    "written by ",
                    "posted on ",
                    "published ",
                ]
                .into_iter()
                .find(|p| lower.starts_with(p));
                let dates = b.features.date_tokens;
                if let Some(p) = by {
                    Some(format!("starts with \"{}\"", p.trim_end()))
                } else if b.features.link_density() < 0.5
                    && ((words <= 8 && dates >= 1) || (words <= 15 && dates >= 2))
                {
                    Some(format!("{dates} date token(s) in {words} words"))
                } else {
                    None
                }
            };
            if let Some(why) = why {
                self.push(Unit {
                    kind: UnitKind::Byline,
                    node: b.container,
                    blocks: i..i + 1,
                    post: None,
                    group: None,
                    why,
                });
            }
        }
    }

    /// Record groups as comments, posts or related records; returns each group's class.
    fn find_groups(&mut self, f: &Facts) -> Vec<Option<UnitKind>> {
        let dom = f.dom;
        let groups = f.records.groups();
        let recs = f.records.records();
        let mut class: Vec<Option<UnitKind>> = vec![None; groups.len()];
        let comment_bit = Facts::bit("comment");
        let post_bit = Facts::bit("post");
        let article_bit = Facts::bit("article");
        let related_bit = Facts::bit("related");
        // A thread: the page declares a forum (a discussion posting, a question, a comment…)
        // and no article.
        let declared = f.declared.kinds();
        let forum = declared.contains(&"forum") && !declared.contains(&"article");
        let largest = f.records.largest();
        for (g, group) in groups.iter().enumerate() {
            if group.records.is_empty() {
                continue;
            }
            let first = &recs[group.records.start];
            let first_block = first.blocks.start;
            // A group inside a record of a comments or related group inherits its class.
            let outer = groups[..g].iter().enumerate().find_map(|(o, og)| {
                let inside = recs[og.records.clone()]
                    .iter()
                    .any(|r| r.node != group.parent && dom.contains(r.node, group.parent));
                (inside && matches!(class[o], Some(UnitKind::Comments | UnitKind::Related)))
                    .then_some(class[o])
                    .flatten()
            });
            let span: Vec<Range<usize>> = recs[group.records.clone()]
                .iter()
                .map(|r| r.blocks.clone())
                .collect();
            let (w, l) = span.iter().fold((0u64, 0u64), |(w, l), r| {
                (w + f.words_of(r), l + (f.linked[r.end] - f.linked[r.start]))
            });
            let ld = if w == 0 { 0.0 } else { l as f64 / w as f64 };
            let count = group.records.len();
            let mean = w as f64 / count as f64;
            // The largest record's words, and whether the records are table rows or cells (a
            // layout table's rows are no posts).
            let biggest = span.iter().map(|r| f.words_of(r)).max().unwrap_or(0);
            let table_rows = matches!(
                f.tag_name(first.node),
                "tr" | "td" | "th" | "tbody" | "thead" | "tfoot"
            );
            let near = |id: NodeId, up: usize| f.kw_up(id, up);
            let kc = near(first.node, 2) & comment_bit != 0
                || f.landmark_up(first.node, 2) & *COMMENT_LANDMARK != 0;
            let kp = near(first.node, 1) & post_bit != 0;
            // Inside an article's wrapper: an `<article>` element above the records, or a
            // record or one of its 3 nearest ancestors named as an article or story, or
            // whose `itemprop` marks the body text (the `body` landmark: articleBody, …).
            let in_article = near(first.node, 3) & article_bit != 0
                || f.landmark_up(first.node, 3) & *BODY_LANDMARK != 0
                || std::iter::successors(dom.parent(first.node), |&a| dom.parent(a))
                    .filter(|&a| dom.kind(a) == NodeKind::Element)
                    .take(3)
                    .any(|a| f.tag_name(a) == "article");
            let kr = near(first.node, 3) & related_bit != 0;
            let lead = f.prose[first_block];
            let marker = (first_block.saturating_sub(5)..first_block)
                .rev()
                .find_map(|j| f.marks.end_marker(j));
            // Records that open with a title of their own (a heading h1–h4 of at least 3
            // words), and how many distinct titles they have: a listing's titles differ, a
            // thread's subject lines ("Re: …") repeat.
            let titles: Vec<String> = recs[group.records.clone()]
                .iter()
                .filter_map(|r| {
                    r.blocks.clone().find(|&i| {
                        let b = f.blocks.get(i);
                        b.within.heading().is_some_and(|h| h <= 4) && b.features.words >= 3
                    })
                })
                .map(|i| {
                    likeness_text(&f.blocks.text(dom, i))
                        .trim_start_matches("re: ")
                        .to_string()
                })
                .collect();
            let mut distinct = titles.clone();
            distinct.sort_unstable();
            distinct.dedup();
            let listing = 2 * titles.len() >= count && 3 * distinct.len() >= 2 * titles.len();
            let sig = records::signature(dom, first.node);
            let (kind, why) = if let Some(k) = outer {
                (Some(k), format!("replies inside a {k} record"))
            } else if kr || (marker == Some(EndMarker::Related) && ld >= 0.3) {
                let why = if kr {
                    format!("records `{sig}` named as related articles")
                } else {
                    "records after a related-articles heading".to_string()
                };
                (Some(UnitKind::Related), why)
            } else if f.away[group.parent] {
                (None, String::new())
            } else if (kc || (marker == Some(EndMarker::Comments) && lead >= 50)) && !forum {
                let why = if kc {
                    format!("records `{sig}` named as comments")
                } else {
                    format!("records after a comment heading, {lead} words of prose before")
                };
                (Some(UnitKind::Comments), why)
            } else if ld < 0.35
                && mean >= 8.0
                && !listing
                && !table_rows
                && (kp
                    || (kc && forum)
                    || (forum && largest == Some(g))
                    || (largest == Some(g)
                        && !in_article
                        && count >= 5
                        && w as f64 >= 0.4 * f.page_words as f64
                        && mean >= 15.0
                        && 2 * biggest <= w))
            {
                let why = if kp {
                    format!("records `{sig}` named as posts")
                } else if forum {
                    format!("records `{sig}` on a page that declares a forum and no article")
                } else {
                    format!(
                        "the page's largest record group `{sig}` ({} records, {:.0} % of its \
                         words)",
                        count,
                        100.0 * w as f64 / f.page_words.max(1) as f64
                    )
                };
                (Some(UnitKind::Posts), why)
            } else {
                (None, String::new())
            };
            class[g] = kind;
            let Some(kind) = kind else { continue };
            for (k, r) in recs[group.records.clone()].iter().enumerate() {
                self.push(Unit {
                    kind,
                    node: r.node,
                    blocks: r.blocks.clone(),
                    post: (kind == UnitKind::Posts).then_some((k, count)),
                    group: Some(g),
                    why: why.clone(),
                });
            }
        }
        class
    }

    /// A post named as a comment (forum software marks each reply `itemtype=…/Comment`) is a
    /// post: comment units found by their names whose element is a post's record element go,
    /// and the blocks' kinds are made again. Comments inside a post (a question-and-answer
    /// site's comments under an answer) stay.
    fn drop_post_comments(&mut self) {
        let posts: Vec<NodeId> = self.of_kind(UnitKind::Posts).map(|u| u.node).collect();
        if posts.is_empty() {
            return;
        }
        self.units.retain(|u| {
            !(u.kind == UnitKind::Comments && u.group.is_none() && posts.contains(&u.node))
        });
        let n = self.kinds.len();
        self.kinds = vec![KindSet::default(); n];
        for u in &self.units {
            for k in u.blocks.clone() {
                if let Some(s) = self.kinds.get_mut(k) {
                    s.insert(u.kind);
                }
            }
        }
    }

    /// End-of-text markers: a comment heading, a related heading and the run after it.
    fn find_markers(&mut self, f: &Facts) {
        let n = f.blocks.len();
        let mut i = 0;
        while i < n {
            let Some(m) = f.marks.end_marker(i) else {
                i += 1;
                continue;
            };
            let lead = f.prose[i];
            let b = f.blocks.get(i);
            if lead < 50 || b.features.link_density() >= 0.5 || f.away[b.container] {
                i += 1;
                continue;
            }
            match m {
                EndMarker::Comments => {
                    self.push(Unit {
                        kind: UnitKind::Comments,
                        node: b.container,
                        blocks: i..i + 1,
                        post: None,
                        group: None,
                        why: format!("a comment heading after {lead} words of prose"),
                    });
                    i += 1;
                }
                EndMarker::Related => {
                    let mut end = i + 1;
                    while end < n && end - i <= 40 {
                        let c = &f.blocks.get(end).features;
                        let k = self.kinds(end);
                        if (c.link_density() < 0.5 && c.words > 12)
                            || k.contains(UnitKind::Posts)
                            || k.contains(UnitKind::Comments)
                            || f.marks.end_marker(end).is_some()
                        {
                            break;
                        }
                        end += 1;
                    }
                    self.push(Unit {
                        kind: UnitKind::Related,
                        node: b.container,
                        blocks: i..end,
                        post: None,
                        group: None,
                        why: format!(
                            "a related-articles heading after {lead} words of prose and the {} \
                             linked or short blocks after it",
                            end - i - 1
                        ),
                    });
                    i = end;
                }
            }
        }
    }

    /// The metadata lines of posts and comments.
    fn find_post_meta(&mut self, f: &Facts, classes: &[Option<UnitKind>]) {
        let dom = f.dom;
        let recs = f.records.records();
        for (g, group) in f.records.groups().iter().enumerate() {
            if !matches!(
                classes.get(g).copied().flatten(),
                Some(UnitKind::Posts | UnitKind::Comments)
            ) {
                continue;
            }
            let count = group.records.len();
            let sig = group.signature.clone();
            // Distinct records per path inside the record and per likeness text.
            let mut by_path: FxHashMap<u64, (usize, usize)> = FxHashMap::default();
            let mut by_text: FxHashMap<String, (usize, usize)> = FxHashMap::default();
            let mut candidates: Vec<(usize, u64, String)> = Vec::new();
            for (k, r) in recs[group.records.clone()].iter().enumerate() {
                let largest = r
                    .blocks
                    .clone()
                    .max_by_key(|&i| (f.blocks.get(i).features.words, std::cmp::Reverse(i)));
                for i in r.blocks.clone() {
                    let b = f.blocks.get(i);
                    let path = relative_path(dom, r.node, b.container, &sig);
                    let seen = by_path.entry(path).or_insert((0, usize::MAX));
                    if seen.1 != k {
                        *seen = (seen.0 + 1, k);
                    }
                    if b.features.words > 6 || Some(i) == largest {
                        continue;
                    }
                    let text = likeness_text(&f.blocks.text(dom, i));
                    let seen = by_text.entry(text.clone()).or_insert((0, usize::MAX));
                    if seen.1 != k {
                        *seen = (seen.0 + 1, k);
                    }
                    candidates.push((i, path, text));
                }
            }
            let half = count.div_ceil(2).max(3);
            for (i, path, text) in candidates {
                let in_paths = by_path.get(&path).map_or(0, |s| s.0);
                let in_texts = by_text.get(&text).map_or(0, |s| s.0);
                let why = if in_paths >= half {
                    format!("a short line at the same place in {in_paths} of {count} records")
                } else if in_texts >= 3 {
                    format!("the same short text in {in_texts} of {count} records")
                } else {
                    continue;
                };
                self.push(Unit {
                    kind: UnitKind::PostMeta,
                    node: f.blocks.get(i).container,
                    blocks: i..i + 1,
                    post: None,
                    group: Some(g),
                    why,
                });
            }
        }
    }
}

impl Facts<'_> {
    /// Does `id` hold at least 80 % of the page's prose (words in no record, mostly
    /// unlinked)? Only asked when no headline is known: then such an element is the article,
    /// whatever its name says.
    fn holds_most_prose(&self, id: NodeId) -> bool {
        if self.headline.is_some() {
            return false;
        }
        let total = *self.prose.last().unwrap_or(&0);
        let r = self.blocks_in(id);
        let inside = self.prose[r.end] - self.prose[r.start];
        total > 0 && inside as f64 >= 0.8 * total as f64
    }
}

/// [`Facts::away`] of every node, parents before children (the DOM is in pre-order), from the
/// learner's keyword `masks` of every node ([`PageMarks::groups`]).
fn away_regions(dom: &Dom, masks: &[u64]) -> Vec<bool> {
    let bit = |name: &str| {
        KEYWORD_GROUPS
            .iter()
            .position(|(n, _)| *n == name)
            .map_or(0u64, |g| 1 << g)
    };
    let away_bits = ["nav", "menu", "sidebar", "widget", "footer"]
        .into_iter()
        .fold(0u64, |m, n| m | bit(n));
    let mut away = vec![false; dom.len()];
    for id in 0..dom.len() {
        let inherited = dom.parent(id).is_some_and(|p| away[p]);
        away[id] = inherited
            || (dom.kind(id) == NodeKind::Element
                && (matches!(dom.tag(id), Tag::Nav | Tag::Aside | Tag::Footer)
                    || masks[id] & away_bits != 0));
    }
    away
}

/// Does element `id`, or its parent, hold a picture (`img`, `picture`, `video`, `svg`,
/// `iframe`)? A caption describes one; a typographic `caption` class elsewhere is no caption.
fn beside_a_picture(dom: &Dom, id: NodeId) -> bool {
    let around = dom
        .parent(id)
        .filter(|&p| dom.kind(p) == NodeKind::Element)
        .unwrap_or(id);
    let sub = dom.subtree(around);
    (sub.start..sub.end).any(|d| {
        dom.kind(d) == NodeKind::Element
            && matches!(
                dom.tag_name(d),
                Some("img" | "picture" | "video" | "svg" | "iframe")
            )
    })
}

/// The first byline `itemprop` (`author`, `datePublished`, `dateModified`, `dateCreated`,
/// `creator`) on `id` or up to `up` elements above.
fn itemprop_up(dom: &Dom, id: NodeId, up: usize) -> Option<String> {
    const PROPS: [&str; 5] = [
        "author",
        "datepublished",
        "datemodified",
        "datecreated",
        "creator",
    ];
    let mut cur = Some(id);
    let mut level = 0;
    while let Some(e) = cur {
        if dom.kind(e) == NodeKind::Element {
            if level > up {
                break;
            }
            if let Some(v) = dom.attr(e, "itemprop") {
                if let Some(p) = v
                    .split_ascii_whitespace()
                    .find(|w| PROPS.iter().any(|p| p.eq_ignore_ascii_case(w)))
                {
                    return Some(p.to_string());
                }
            }
            level += 1;
        }
        cur = dom.parent(e);
    }
    None
}

/// Is block `b`'s text inside one element named `tag` below its container (an inline
/// element around the whole block, e.g. `<time>`)?
fn inside_tag(dom: &Dom, b: &super::blocks::Block, tag: &str) -> bool {
    let mut cur = dom.parent(b.nodes.start);
    while let Some(e) = cur {
        if e == b.container {
            return false;
        }
        if dom.tag_name(e) == Some(tag) {
            return b.nodes.end <= dom.subtree(e).end;
        }
        cur = dom.parent(e);
    }
    false
}

/// A hash of the path down to `container` (inclusive) from its nearest ancestor that is
/// `record` or has the record's signature `sig` (exclusive) — so a reply nested inside a
/// comment has the same paths as the comment — each step the element's
/// [`records::signature`].
fn relative_path(dom: &Dom, record: NodeId, container: NodeId, sig: &str) -> u64 {
    let mut steps = Vec::new();
    let mut cur = Some(container);
    while let Some(e) = cur {
        if e == record {
            break;
        }
        if dom.kind(e) == NodeKind::Element {
            let s = records::signature(dom, e);
            if s == sig {
                break;
            }
            steps.push(s);
        }
        cur = dom.parent(e);
    }
    let mut h = FxHasher::default();
    steps.iter().rev().for_each(|s| s.hash(&mut h));
    h.finish()
}

/// Is `table` a data table? Mozilla Readability's `_markDataTables`, in its order (see the
/// module documentation): `Some(reason)` for a data table, `None` for a layout table.
fn data_table(dom: &Dom, table: NodeId) -> Option<String> {
    if dom
        .attr(table, "role")
        .is_some_and(|r| r.trim().eq_ignore_ascii_case("presentation"))
    {
        return None;
    }
    if dom
        .attr(table, "datatable")
        .is_some_and(|v| v.trim() == "0")
    {
        return None;
    }
    if dom
        .attr(table, "summary")
        .is_some_and(|v| !v.trim().is_empty())
    {
        return Some("a table with a summary".into());
    }
    let sub = dom.subtree(table);
    let elements = || (sub.start + 1..sub.end).filter(|&d| dom.kind(d) == NodeKind::Element);
    if dom
        .children(table)
        .any(|c| dom.tag_name(c) == Some("caption") && !dom.text(c).trim().is_empty())
    {
        return Some("a table with a caption".into());
    }
    if let Some(d) = elements().find(|&d| {
        matches!(
            dom.tag_name(d),
            Some("col" | "colgroup" | "tfoot" | "thead" | "th")
        )
    }) {
        return Some(format!(
            "a table with <{}>",
            dom.tag_name(d).unwrap_or_default()
        ));
    }
    if elements().any(|d| dom.tag(d) == Tag::Table) {
        return None;
    }
    let (mut rows, mut cols) = (0usize, 0usize);
    for tr in elements().filter(|&d| dom.tag_name(d) == Some("tr")) {
        let span = |d: NodeId, a: &str| {
            dom.attr(d, a)
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(1)
                .clamp(1, 1000)
        };
        rows += span(tr, "rowspan");
        let cells: usize = dom
            .children(tr)
            .filter(|&c| matches!(dom.tag_name(c), Some("td" | "th")))
            .map(|c| span(c, "colspan"))
            .sum();
        cols = cols.max(cells);
    }
    if rows >= 10 || cols > 4 {
        Some(format!("a table of {rows} rows and {cols} columns"))
    } else if rows * cols > 10 {
        Some(format!("a table of {rows} × {cols} cells"))
    } else {
        None
    }
}

#[cfg(test)]
mod tests;
