//! The DOM context of each atomic text block: where in the page's structure a block sits, as
//! numbers a learner can split on. Kohlschütter et al. 2010 (thesis 3.3.2.1) classify a block
//! from its own shallow text features and its neighbours'; the learning prototype
//! (`../shared/notes/learning-prototype.md`) found that the block's **DOM context** carries more
//! of the signal than either (+0.06 F1 on scrapinghub-dev over the shallow features alone). No
//! paper defines these features: the list is cescope's, after that evidence.
//!
//! Per block ([`BlockContext::row`], names in [`BlockContext::names`], all `f32`):
//!
//! - `tag_<name>`: levels (elements) from the block's container up to the nearest element named
//!   `<name>` ([`CONTEXT_TAGS`]: `article`, `main`, `nav`, `aside`, `footer`, `li`, `td`, `form`,
//!   …); 0 when the container is one, [`NONE`] when there is none.
//! - `kw_<group>`: levels up to the nearest element whose `class` or `id` names a keyword of the
//!   group ([`KEYWORD_GROUPS`]: content, article, post, nav, menu, breadcrumb, share, related,
//!   comment, footer, sidebar, ad, cookie, …); a `class` / `id` is split into lower-case words at
//!   every character that is not an ASCII letter or digit, and a word matches a keyword it starts
//!   with (`comments`, `commentlist` match `comment`), or equals it for keywords written with a
//!   trailing `=` (`ad=` matches `ad`, not `address`). [`NONE`] when there is none.
//! - `lm_<name>`: levels up to the nearest ARIA landmark or schema.org microdata element of
//!   that kind ([`LANDMARKS`]: `role=main`, `role=navigation`, `role=complementary`,
//!   `role=contentinfo`, …, `itemprop=articleBody`, comments, headline); [`NONE`] when there is
//!   none.
//! - `anc<k>_word_share`, `anc<k>_link_density`, `anc<k>_blocks` for k = 0 (the container) to
//!   4 (its fourth ancestor element): the share of the page's words in that element's blocks,
//!   the share of those words inside links, and how many blocks it holds (0, 0, 0 past the root).
//! - `path_blocks`, `path_word_share`: how many blocks of the page have the same container path
//!   (each step the tag and first class name, digits removed: [`crate::page::blocks::records::signature`]),
//!   and the share of the page's words they hold — repeated paths are posts, cards, comments.
//! - `record_group_records`, `record_group_word_share`, `record_position`: the block's innermost
//!   record group ([`crate::page::blocks::Records`]): its number of records, its share of the page's words,
//!   the record's relative position in the group (0 first … 1 last); 0, 0, 0 outside records.
//! - `depth` (the container's depth in elements), `hidden` (1 when the block's text is hidden or
//!   inside `<noscript>`, [`crate::page::blocks::Visibility`]), `page_words`, `page_blocks`.
//!
//! - `rdb_top_distance`, `rdb_article_distance`, `rdb_best_share`: where the block sits relative
//!   to the container a Readability-style scorer would pick (`ReadabilityScores`): levels up
//!   to the top candidate ([`NONE`] when it is not an ancestor), levels up to the nearest element
//!   of the "article" (the top candidate and the siblings Readability appends to it), and the
//!   best final score among the block's ancestors over the top candidate's (0 to 1).
//! - `lead_prose_words`, `lead_prose_share`: how much prose comes before the block's record
//!   group — the words of the earlier blocks that are in no record group and mostly not linked
//!   (link density < 0.5) — and that over itself plus the group's words (0 outside a group;
//!   outside a group `lead_prose_words` counts the prose before the block itself). An article's
//!   comments or related-article cards follow the article's prose; a forum's posts or a
//!   listing's items follow little of it.
//! - `end_marker`, `end_markers_before`, `end_marker_distance`, `end_marker_lead_words`:
//!   end-of-text markers, after boilerpipe's `TerminatingBlocksFinder` (Kohlschütter et al.
//!   2010's implementation): a short block (fewer than 15 words, at least 8 characters) that
//!   names a comment section or related articles ([`crate::page::blocks::keywords::end_marker`]). Whether the block is one,
//!   how many come before it, blocks since the nearest at or before it ([`NONE`] when none),
//!   and the prose words before the first one (0 when none precedes: boilerpipe's
//!   `IgnoreBlocksAfterContentFilter` drops what follows a marker once enough text came
//!   before it; here the learner decides).
//! - `page_record_share`, `page_largest_group_share`, `page_end_markers`: the page's shape,
//!   the same for every block — the share of its words in record groups, the largest group's
//!   share, its number of end markers (a forum thread is mostly records; an article with
//!   comments is prose, then a marker, then records).
//! - `decl_<kind>`: what the page declares itself to be (`og:type`, schema.org types;
//!   [`crate::page::declared`]), the same for every block of a page: how many declarations
//!   name the kind (article, documentation, forum, product, collection, faq, website,
//!   organization).
//!
//! Built in O(nodes + blocks · depth) with one bit mask per element; no allocation per block
//! beyond the row.

use std::sync::LazyLock;

use rustc_hash::FxHashMap;

#[cfg(test)]
use crate::page::blocks::keywords::keyword_mask;
use crate::page::blocks::keywords::{PageMarks, KEYWORD_GROUPS, LANDMARKS};
use crate::page::blocks::records::signature_path_hashes;
use crate::page::blocks::Blocks;
use crate::page::declared::Declared;
use crate::page::dom::{Dom, NodeId, NodeKind};
use crate::page::lex::Tag;
use crate::page::Page;

/// The value of a distance feature when no such element encloses the block (larger than any
/// distance: the DOM caps nesting at 512 elements, distances are capped at 63).
pub const NONE: f32 = 64.0;

/// The largest distance reported; farther elements count as this far.
const CAP: usize = 63;

/// The tags whose distance from the block is a feature (`tag_<name>`), sorted (searched by
/// [`slice::binary_search`]).
pub const CONTEXT_TAGS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "button",
    "details",
    "dialog",
    "dl",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "header",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "td",
    "th",
    "tr",
    "ul",
];

/// The index in [`CONTEXT_TAGS`] of an element named `name`, if it is one.
fn context_tag_of_name(name: &str) -> Option<u8> {
    CONTEXT_TAGS
        .binary_search(&name)
        .ok()
        .and_then(|k| u8::try_from(k).ok())
}

/// [`context_tag_of_name`] by interned tag ([`Tag`] as an index; [`Tag::Other`]'s row is
/// `None`, and such elements are looked up by name), so that the elements of a page are not
/// each searched by their name's bytes.
static CONTEXT_TAG_OF: LazyLock<[Option<u8>; 256]> = LazyLock::new(|| {
    let mut table = [None; 256];
    for name in CONTEXT_TAGS {
        let t = Tag::from_name(name.as_bytes());
        if t != Tag::Other {
            table[t as usize] = context_tag_of_name(name);
        }
    }
    table
});

/// Ancestor levels with their own aggregate features (the container and 4 above it).
const ANCESTORS: usize = 5;

/// The feature names, in row order.
static NAMES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut v: Vec<String> = CONTEXT_TAGS.iter().map(|t| format!("tag_{t}")).collect();
    v.extend(KEYWORD_GROUPS.iter().map(|(g, _)| format!("kw_{g}")));
    v.extend(LANDMARKS.iter().map(|(g, _)| format!("lm_{g}")));
    for k in 0..ANCESTORS {
        v.push(format!("anc{k}_word_share"));
        v.push(format!("anc{k}_link_density"));
        v.push(format!("anc{k}_blocks"));
    }
    v.extend(
        [
            "path_blocks",
            "path_word_share",
            "record_group_records",
            "record_group_word_share",
            "record_position",
            "depth",
            "hidden",
            "page_words",
            "page_blocks",
            "rdb_top_distance",
            "rdb_article_distance",
            "rdb_best_share",
            "lead_prose_words",
            "lead_prose_share",
            "end_marker",
            "end_markers_before",
            "end_marker_distance",
            "end_marker_lead_words",
            "page_record_share",
            "page_largest_group_share",
            "page_end_markers",
        ]
        .map(String::from),
    );
    v.extend(Declared::names());
    v
});

/// The DOM context features of every block of a page: a row-major matrix, one row of
/// [`BlockContext::names`]`().len()` values per block, in block order.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockContext {
    values: Vec<f32>,
    blocks: usize,
}

impl BlockContext {
    /// The feature names, in row order (see the module documentation).
    pub fn names() -> &'static [String] {
        &NAMES
    }

    /// The context of every block of `page` ([`Page::blocks`], with its record groups
    /// [`Page::records`], its keyword masks, landmarks and end markers [`PageMarks::of`] and its
    /// declarations [`Declared::of_page`], each computed once per page and shared with the
    /// guideline's units). O(nodes + blocks · depth): one pass over the elements gives each
    /// its tag index and path hash; one walk up from each block's container gives the
    /// distances and the ancestors' aggregates.
    pub fn build(page: &Page) -> BlockContext {
        let (dom, blocks, records) = (page.dom(), page.blocks(), page.records());
        let marks = PageMarks::of(page);
        let width = NAMES.len();
        let n = blocks.len();
        let elements = Elements::of(dom, &marks);
        let page_words: u32 = blocks.blocks().iter().map(|b| b.features.words).sum();
        let share = |w: u32| {
            if page_words == 0 {
                0.0
            } else {
                w as f32 / page_words as f32
            }
        };

        // Words, linked words and blocks under each node.
        let mut under = vec![[0u32; 3]; dom.len()];
        for b in blocks.blocks() {
            let mut cur = Some(b.container);
            while let Some(e) = cur {
                let a = &mut under[e];
                a[0] += b.features.words;
                a[1] += b.features.linked_words;
                a[2] += 1;
                cur = dom.parent(e);
            }
        }

        let rdb = ReadabilityScores::of(dom, blocks, &under);
        let declared = Declared::of_page(page).counts();

        // Blocks and words per container path.
        let mut per_path: FxHashMap<u64, (u32, u32)> = FxHashMap::default();
        for b in blocks.blocks() {
            let e = per_path.entry(elements.path[b.container]).or_default();
            e.0 += 1;
            e.1 += b.features.words;
        }

        // Prose words before each block: words of the blocks before it that are in no record
        // group and mostly not linked (link density < 0.5); and the page's words in records.
        let mut prose_before = Vec::with_capacity(n + 1);
        prose_before.push(0u32);
        let mut record_words = 0u32;
        for (j, b) in blocks.blocks().iter().enumerate() {
            let in_record = records.of_block(j).is_some();
            if in_record {
                record_words += b.features.words;
            }
            let prose = !in_record && b.features.link_density() < 0.5;
            let last = prose_before[j];
            prose_before.push(last + if prose { b.features.words } else { 0 });
        }

        // End-of-text markers and, for each block, the nearest one at or before it.
        let marker: Vec<bool> = (0..n).map(|j| marks.end_marker(j).is_some()).collect();

        // Page-level structure: the share of the page's words in records, the largest record
        // group's share, the number of end markers.
        let largest_group = records.groups().iter().map(|g| g.words).max().unwrap_or(0);
        let page_markers = marker.iter().filter(|&&m| m).count();
        let page_level = [
            share(record_words),
            share(u32::try_from(largest_group).unwrap_or(u32::MAX)),
            page_markers.min(CAP) as f32,
        ];

        let mut values = vec![0.0f32; n * width];
        let mut markers_before = 0u32;
        let mut last_marker: Option<usize> = None;
        // Prose before the first marker; 0 until one is seen.
        let mut first_marker_lead = 0u32;
        for (i, (b, row)) in blocks
            .blocks()
            .iter()
            .zip(values.chunks_exact_mut(width.max(1)))
            .enumerate()
        {
            let (tags, rest) = row.split_at_mut(CONTEXT_TAGS.len());
            let (kws, rest) = rest.split_at_mut(KEYWORD_GROUPS.len());
            let (lms, rest) = rest.split_at_mut(LANDMARKS.len());
            tags.fill(NONE);
            kws.fill(NONE);
            lms.fill(NONE);
            let (anc, rest) = rest.split_at_mut(ANCESTORS * 3);

            // Walk up from the container: distances and ancestor aggregates.
            let mut level = 0usize;
            let mut cur = Some(b.container);
            while let Some(e) = cur {
                if dom.kind(e) == NodeKind::Element {
                    let d = level.min(CAP) as f32;
                    if let Some(t) = elements.tag[e] {
                        let slot = &mut tags[usize::from(t)];
                        if *slot == NONE {
                            *slot = d;
                        }
                    }
                    let mut m = elements.mask[e];
                    while m != 0 {
                        let g = m.trailing_zeros() as usize;
                        m &= m - 1;
                        if kws[g] == NONE {
                            kws[g] = d;
                        }
                    }
                    let mut m = elements.landmark[e];
                    while m != 0 {
                        let g = m.trailing_zeros() as usize;
                        m &= m - 1;
                        if lms[g] == NONE {
                            lms[g] = d;
                        }
                    }
                    if level < ANCESTORS {
                        let a = under[e];
                        anc[level * 3] = share(a[0]);
                        anc[level * 3 + 1] = if a[0] == 0 {
                            0.0
                        } else {
                            a[1] as f32 / a[0] as f32
                        };
                        anc[level * 3 + 2] = a[2] as f32;
                    }
                    level += 1;
                }
                cur = dom.parent(e);
            }

            let (paths, group) = per_path
                .get(&elements.path[b.container])
                .copied()
                .unwrap_or_default();
            rest[0] = paths as f32;
            rest[1] = share(group);
            // Prose before the block's record group (before the block outside a group).
            let (mut lead, mut group_words) = (prose_before[i], 0);
            if let Some(k) = records.of_block(i) {
                let r = &records.records()[k];
                let g = &records.groups()[r.group];
                lead = prose_before[records.records()[g.records.start].blocks.start];
                group_words = g.words;
                let count = g.records.len();
                rest[2] = count as f32;
                rest[3] = share(u32::try_from(g.words).unwrap_or(u32::MAX));
                rest[4] = if count > 1 {
                    (k - g.records.start) as f32 / (count - 1) as f32
                } else {
                    0.0
                };
            }
            rest[5] = level.saturating_sub(1) as f32;
            rest[6] = f32::from(u8::from(!b.visibility.is_visible()));
            rest[7] = page_words as f32;
            rest[8] = n as f32;
            let (top, article, best) = rdb.of_block(dom, b.container);
            rest[9] = top;
            rest[10] = article;
            rest[11] = best;
            rest[12] = lead as f32;
            rest[13] = if group_words == 0 {
                0.0
            } else {
                lead as f32 / (lead as f32 + group_words as f32)
            };
            if marker[i] {
                if last_marker.is_none() {
                    first_marker_lead = prose_before[i];
                }
                last_marker = Some(i);
            }
            rest[14] = f32::from(u8::from(marker[i]));
            rest[15] = markers_before.min(CAP as u32) as f32;
            rest[16] = last_marker.map_or(NONE, |m| (i - m).min(CAP) as f32);
            rest[17] = first_marker_lead as f32;
            markers_before += u32::from(marker[i]);
            rest[18..21].copy_from_slice(&page_level);
            for (slot, &c) in rest[21..].iter_mut().zip(&declared) {
                *slot = f32::from(c);
            }
        }
        BlockContext { values, blocks: n }
    }

    /// Number of rows (blocks).
    pub fn len(&self) -> usize {
        self.blocks
    }

    /// Is there no block?
    pub fn is_empty(&self) -> bool {
        self.blocks == 0
    }

    /// The features of block `i`, in [`BlockContext::names`] order. Panics past the last block.
    pub fn row(&self, i: usize) -> &[f32] {
        let w = NAMES.len();
        &self.values[i * w..(i + 1) * w]
    }

    /// The value of feature `name` for block `i`, `None` for an unknown name.
    pub fn get(&self, i: usize, name: &str) -> Option<f32> {
        NAMES.iter().position(|n| n == name).map(|k| self.row(i)[k])
    }
}

/// Readability-style content scores of the page's elements — cescope's reading of Mozilla
/// Readability's `_grabArticle` (the arc90 algorithm; no paper of `../shared/papers` defines it,
/// the learning prototype used "inside the best Readability-style container" as a feature):
///
/// 1. every block of at least 25 characters scores `1 + commas + min(⌊chars / 100⌋, 3)`;
/// 2. the score is added to up to five ancestor elements of the block's container: in full to its
///    parent, halved to its grandparent, divided by `3 · level` above (level 2, 3, 4);
/// 3. an element is initialised, when first scored, by its tag: `div` +5; `pre`, `td`,
///    `blockquote` +3; `address`, `ol`, `ul`, `dl`, `dd`, `dt`, `li`, `form` −3; `h1`–`h6`,
///    `th` −5 (Readability's class / id weight is left out: the `kw_*` features carry it);
/// 4. each element's final score is its score × (1 − link density of its blocks' words);
///    the **top candidate** has the largest final score (the first in document order on ties);
/// 5. the **article** is the top candidate and its siblings whose final score is at least
///    max(10, 0.2 × top) (Readability's sibling threshold).
///
/// Readability's retries with relaxed flags, its promotion of a common ancestor and its
/// sibling-paragraph rule are left out. Units: scores are Readability points.
struct ReadabilityScores {
    /// The final score of each node (0 for nodes never scored), indexed by node id.
    fin: Vec<f32>,
    /// The top candidate, if any element was scored.
    top: Option<NodeId>,
    /// Article membership (the top candidate and its appended siblings), indexed by node id.
    article: Vec<bool>,
}

impl ReadabilityScores {
    /// Readability's tag initialisation (step 3).
    fn initial(tag: &str) -> f32 {
        match tag {
            "div" => 5.0,
            "pre" | "td" | "blockquote" => 3.0,
            "address" | "ol" | "ul" | "dl" | "dd" | "dt" | "li" | "form" => -3.0,
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "th" => -5.0,
            _ => 0.0,
        }
    }

    /// Scores the page (steps 1–5); `under[e]` = words, linked words and blocks under node
    /// `e`.
    fn of(dom: &Dom, blocks: &Blocks, under: &[[u32; 3]]) -> ReadabilityScores {
        let n = dom.len();
        let mut score = vec![0.0f32; n];
        let mut scored = vec![false; n];
        let mut order: Vec<NodeId> = Vec::new();
        for b in blocks.blocks() {
            if b.features.chars < 25 {
                continue;
            }
            let s = 1.0 + b.features.commas as f32 + (b.features.chars / 100).min(3) as f32;
            let mut level = 0usize;
            let mut cur = dom.parent(b.container);
            while let Some(e) = cur {
                if level == 5 {
                    break;
                }
                if dom.kind(e) == NodeKind::Element {
                    if !scored[e] {
                        scored[e] = true;
                        score[e] = Self::initial(dom.tag_name(e).unwrap_or(""));
                        order.push(e);
                    }
                    let divider = match level {
                        0 => 1.0,
                        1 => 2.0,
                        l => 3.0 * l as f32,
                    };
                    score[e] += s / divider;
                    level += 1;
                }
                cur = dom.parent(e);
            }
        }
        let mut fin = vec![0.0f32; n];
        let mut top: Option<NodeId> = None;
        order.sort_unstable();
        for &e in &order {
            let [words, linked, _] = under[e];
            let density = if words == 0 {
                0.0
            } else {
                linked as f32 / words as f32
            };
            fin[e] = score[e] * (1.0 - density);
            if top.is_none_or(|t| fin[e] > fin[t]) {
                top = Some(e);
            }
        }
        let mut article = vec![false; n];
        if let Some(t) = top {
            article[t] = true;
            let threshold = (0.2 * fin[t]).max(10.0);
            let parent = dom.parent(t);
            for &e in &order {
                if e != t && parent.is_some() && dom.parent(e) == parent && fin[e] >= threshold {
                    article[e] = true;
                }
            }
        }
        ReadabilityScores { fin, top, article }
    }

    /// For a block whose container is `container`: levels up to the top candidate, levels up
    /// to the nearest article element ([`NONE`] when neither encloses it), and the best final
    /// score among its enclosing elements over the top candidate's (0 when no element scored).
    fn of_block(&self, dom: &Dom, container: NodeId) -> (f32, f32, f32) {
        let Some(t) = self.top else {
            return (NONE, NONE, 0.0);
        };
        let (mut to_top, mut to_article, mut best) = (NONE, NONE, 0.0f32);
        let mut level = 0usize;
        let mut cur = Some(container);
        while let Some(e) = cur {
            if dom.kind(e) == NodeKind::Element {
                let d = level.min(CAP) as f32;
                if e == t && to_top == NONE {
                    to_top = d;
                }
                if self.article[e] && to_article == NONE {
                    to_article = d;
                }
                best = best.max(self.fin[e]);
                level += 1;
            }
            cur = dom.parent(e);
        }
        let share = if self.fin[t] > 0.0 {
            (best / self.fin[t]).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (to_top, to_article, share)
    }
}

/// What the walk up from a block reads of each node, computed once per page in one pre-order
/// pass (a parent before its children), indexed by node id; the keyword masks and landmarks
/// are the page's [`PageMarks`].
struct Elements<'m> {
    /// The element's index in [`CONTEXT_TAGS`].
    tag: Vec<Option<u8>>,
    /// The [`KEYWORD_GROUPS`] its `class` / `id` names (bit g for group g).
    mask: &'m [u64],
    /// The [`LANDMARKS`] it is (bit g for landmark g).
    landmark: &'m [u16],
    /// A hash of its signature path ([`signature_path_hashes`]: each element's
    /// [`crate::page::blocks::records::signature`], tag and first class without digits, from the root down).
    /// Text nodes carry their parent's.
    path: Vec<u64>,
}

impl Elements<'_> {
    fn of<'m>(dom: &Dom, marks: &'m PageMarks) -> Elements<'m> {
        let n = dom.len();
        let mut out = Elements {
            tag: vec![None; n],
            mask: &marks.groups,
            landmark: &marks.landmarks,
            path: signature_path_hashes(dom),
        };
        for id in 0..n {
            if dom.kind(id) != NodeKind::Element {
                continue;
            }
            out.tag[id] = match dom.tag(id) {
                // Not interned (foreign or unknown names): searched by name.
                Tag::Other => context_tag_of_name(dom.tag_name(id).unwrap_or("")),
                // Interned: its row of the table.
                t => CONTEXT_TAG_OF[t as usize],
            };
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_tags_by_interned_tag_agree_with_their_names() {
        // Every context tag is interned, so no element of a common page is searched by name.
        for (k, name) in CONTEXT_TAGS.iter().enumerate() {
            let t = Tag::from_name(name.as_bytes());
            assert_ne!(t, Tag::Other, "{name} is not interned");
            assert_eq!(CONTEXT_TAG_OF[t as usize], Some(k as u8), "{name}");
        }
        // Interned tags that are no context tag have no row.
        for name in ["div", "span", "a", "img", "body", "script", "h4"] {
            let t = Tag::from_name(name.as_bytes());
            assert_eq!(
                CONTEXT_TAG_OF[t as usize],
                context_tag_of_name(name),
                "{name}"
            );
            assert_eq!(context_tag_of_name(name), None);
        }
        assert_eq!(CONTEXT_TAG_OF[Tag::Other as usize], None);
    }

    fn context(html: &str) -> (Page, BlockContext) {
        let page = Page::from_text("t.html", html);
        let ctx = BlockContext::build(&page);
        (page, ctx)
    }

    #[test]
    fn readability_scores_computed_by_hand() {
        // Blocks: 0 the nav link (35 chars, no comma: 1 point), 1 the first paragraph (68
        // chars, 2 commas: 3 points), 2 the second (53 chars, 1 comma: 2 points).
        // div#nav: 5 (div) + 1 = 6, all its words linked → final 0. div#main: 5 + 3 + 2 = 10,
        // no link → final 10, the top candidate (no sibling reaches max(10, 2)). body: halves
        // 0.5 + 1.5 + 1 = 3, 7 of its 26 words linked → 3 · 19/26. html: thirds of a sixth…
        // (1 + 3 + 2) / 6 = 1 → 19/26.
        let html = "<html><body>\
            <div id=nav><p><a href=/a>First link text that is long enough</a></p></div>\
            <div id=main>\
            <p>Alpha, beta, gamma: a paragraph of more than twenty-five characters.</p>\
            <p>Second paragraph, also long enough to be scored here.</p>\
            </div></body></html>";
        let (page, ctx) = context(html);
        assert_eq!(page.blocks().len(), 3);
        let commas: Vec<u32> = page
            .blocks()
            .blocks()
            .iter()
            .map(|b| b.features.commas)
            .collect();
        assert_eq!(commas, [0, 2, 1]);
        let get = |i: usize, f: &str| ctx.get(i, f).unwrap();
        // The paragraphs: the top candidate is their parent (one level up), best share 1.
        for i in [1, 2] {
            assert_eq!(get(i, "rdb_top_distance"), 1.0);
            assert_eq!(get(i, "rdb_article_distance"), 1.0);
            assert_eq!(get(i, "rdb_best_share"), 1.0);
        }
        // The nav link: outside; its best ancestor is body, 3 · 19/26 of 10.
        assert_eq!(get(0, "rdb_top_distance"), NONE);
        assert_eq!(get(0, "rdb_article_distance"), NONE);
        let want = 3.0 * 19.0 / 26.0 / 10.0;
        assert!(
            (get(0, "rdb_best_share") - want).abs() < 1e-6,
            "{}",
            get(0, "rdb_best_share")
        );
    }

    #[test]
    fn readability_appends_siblings_above_the_threshold() {
        // Two sibling divs of paragraphs: div#a 5 + 4·3 = 17, div#b 5 + 3·3 = 14 ≥ max(10,
        // 0.2 · 17): div#b is appended to the article but is not the top candidate.
        let p = "<p>One, two, and more words in a long enough paragraph.</p>";
        let html = format!(
            "<html><body><div id=a>{}</div><div id=b>{}</div></body></html>",
            p.repeat(4),
            p.repeat(3)
        );
        let (page, ctx) = context(&html);
        assert_eq!(page.blocks().len(), 7);
        assert_eq!(ctx.get(0, "rdb_top_distance"), Some(1.0));
        assert_eq!(ctx.get(6, "rdb_top_distance"), Some(NONE));
        assert_eq!(ctx.get(6, "rdb_article_distance"), Some(1.0));
        let share = ctx.get(6, "rdb_best_share").unwrap();
        assert!((share - 14.0 / 17.0).abs() < 1e-6, "{share}");
    }

    #[test]
    fn keyword_words_match_by_prefix_or_exactly() {
        let g = |name: &str| 1u64 << KEYWORD_GROUPS.iter().position(|(n, _)| *n == name).unwrap();
        assert_eq!(keyword_mask("commentlist") & g("comment"), g("comment"));
        assert_eq!(keyword_mask("ad") & g("ad"), g("ad"));
        assert_eq!(keyword_mask("address") & g("ad"), 0);
        assert_eq!(keyword_mask("header") & g("ad"), 0);
        assert_eq!(keyword_mask("head") & g("header"), g("header"));
        assert_eq!(keyword_mask("xyz"), 0);
        assert_eq!(keyword_mask(""), 0);
    }

    #[test]
    fn the_first_byte_index_matches_every_keyword_of_every_group() {
        // The definition, keyword by keyword, against the indexed lookup: every keyword, a
        // longer word, a shorter one and one with another first letter.
        let naive = |word: &str| -> u64 {
            let mut m = 0;
            for (g, (_, kws)) in KEYWORD_GROUPS.iter().enumerate() {
                if kws.iter().any(|k| match k.strip_suffix('=') {
                    Some(e) => word == e,
                    None => word.starts_with(k),
                }) {
                    m |= 1 << g;
                }
            }
            m
        };
        let mut words = 0;
        for (_, kws) in KEYWORD_GROUPS {
            for k in *kws {
                let k = k.trim_end_matches('=');
                for w in [
                    k.to_string(),
                    format!("{k}s"),
                    k[..k.len() - 1].to_string(),
                    format!("x{k}"),
                ] {
                    assert_eq!(keyword_mask(&w), naive(&w), "{w}");
                    words += usize::from(naive(&w) != 0);
                }
            }
        }
        assert!(words > 100, "only {words} words matched a group");
    }

    #[test]
    fn a_hand_made_page_has_the_distances_and_shares_computed_by_hand() {
        // Blocks: 0 "Home About" (nav, 2 linked words), 1 "Title here" (h1), 2 the paragraph
        // (6 words, 1 linked), 3 "Share this" (div.share-box), 4 the footer line (2 words).
        let html = "<html><body>\
            <nav id=top-menu><ul><li><a href=/>Home</a> <a href=/a>About</a></li></ul></nav>\
            <div id=main-content><article class=post-body>\
            <h1>Title here</h1>\
            <p>One two three <a href=x>four</a> five six</p>\
            <div class='share-box'>Share this</div>\
            </article></div>\
            <footer>Copyright notice</footer></body></html>";
        let (page, ctx) = context(html);
        assert_eq!(ctx.len(), 5, "{:?}", page.blocks());
        let f = |i: usize, name: &str| ctx.get(i, name).unwrap();
        // Block 0: container <li>; ul 1 up, nav 2 up (id top-menu: kw menu at 2).
        assert_eq!(f(0, "tag_li"), 0.0);
        assert_eq!(f(0, "tag_ul"), 1.0);
        assert_eq!(f(0, "tag_nav"), 2.0);
        assert_eq!(f(0, "kw_menu"), 2.0);
        assert_eq!(f(0, "tag_article"), NONE);
        assert_eq!(f(0, "anc0_link_density"), 1.0);
        // Block 2: <p> in article.post-body (1 up: kw post, body) in div#main-content (2 up).
        assert_eq!(f(2, "tag_p"), 0.0);
        assert_eq!(f(2, "tag_article"), 1.0);
        assert_eq!(f(2, "kw_post"), 1.0);
        assert_eq!(f(2, "kw_body"), 1.0);
        assert_eq!(f(2, "kw_content"), 2.0);
        assert_eq!(f(2, "kw_main"), 2.0);
        assert_eq!(f(2, "kw_nav"), NONE);
        // Page words: 2 + 2 + 6 + 2 + 2 = 14; the paragraph holds 6, its article 10.
        assert_eq!(f(2, "page_words"), 14.0);
        assert_eq!(f(2, "page_blocks"), 5.0);
        assert!((f(2, "anc0_word_share") - 6.0 / 14.0).abs() < 1e-6);
        assert!((f(2, "anc0_link_density") - 1.0 / 6.0).abs() < 1e-6);
        assert!((f(2, "anc1_word_share") - 10.0 / 14.0).abs() < 1e-6);
        assert_eq!(f(2, "anc1_blocks"), 3.0);
        // html > body > div > article > p: depth 4 (html is 0).
        assert_eq!(f(2, "depth"), 4.0);
        // Block 3: div.share-box → kw share at 0.
        assert_eq!(f(3, "kw_share"), 0.0);
        // Block 4: footer.
        assert_eq!(f(4, "tag_footer"), 0.0);
        assert_eq!(f(4, "hidden"), 0.0);
        // Every path is used once here.
        assert_eq!(f(2, "path_blocks"), 1.0);
        assert_eq!(f(2, "record_group_records"), 0.0);
    }

    #[test]
    fn landmarks_and_declarations_by_hand() {
        // Blocks: 0 the nav link (role=navigation 2 up), 1 the headline (itemprop=headline on
        // the h1 itself), 2 the body paragraph (itemprop=articleBody 1 up, role=main 3 up),
        // 3 the comment (itemtype …/Comment 1 up), 4 the footer (role=contentinfo).
        let html = r#"<html><head><meta property="og:type" content="article">
            <script type="application/ld+json">{"@type":"NewsArticle"}</script></head><body>
            <div role=navigation><ul><li><a href=/>Home</a></li></ul></div>
            <main role=main><div itemscope itemtype="https://schema.org/NewsArticle">
            <h1 itemprop=headline>Title here</h1>
            <div itemprop=articleBody><p>One two three four</p></div>
            <div itemscope itemtype="http://schema.org/Comment"><p>Nice one</p></div>
            </div></main>
            <footer role=contentinfo>Copyright notice</footer></body></html>"#;
        let (page, ctx) = context(html);
        assert_eq!(ctx.len(), 5, "{:?}", page.blocks());
        let f = |i: usize, name: &str| ctx.get(i, name).unwrap();
        assert_eq!(f(0, "lm_navigation"), 2.0);
        assert_eq!(f(0, "lm_main"), NONE);
        assert_eq!(f(1, "lm_headline"), 0.0);
        assert_eq!(f(1, "lm_main"), 2.0);
        assert_eq!(f(2, "lm_body"), 1.0);
        assert_eq!(f(2, "lm_main"), 3.0);
        assert_eq!(f(2, "lm_comment"), NONE);
        assert_eq!(f(3, "lm_comment"), 1.0);
        assert_eq!(f(3, "lm_body"), NONE);
        assert_eq!(f(4, "lm_contentinfo"), 0.0);
        // og:type article, JSON-LD NewsArticle, microdata NewsArticle: 3 for every block;
        // microdata Comment: forum 1.
        for i in 0..5 {
            assert_eq!(f(i, "decl_article"), 3.0);
            assert_eq!(f(i, "decl_forum"), 1.0);
            assert_eq!(f(i, "decl_product"), 0.0);
        }
    }

    #[test]
    fn lead_prose_and_end_markers_by_hand() {
        // Blocks: 0 the menu link (link density 1: not prose), 1 the article paragraph (6
        // words), 2 the heading "3 Comments" (an end marker), 3–8 three comments of two blocks
        // each (a record group of 3 records, 3 × (2 + 3) = 15 words), 9 a short "Top" link.
        let comment = |w: &str| {
            format!("<li class=comment><b class=author>Ann {w}</b><p>Good point {w}</p></li>")
        };
        let comments: String = ["one", "two", "three"].into_iter().map(comment).collect();
        let html = format!(
            "<body><nav><a href=/>Home page</a></nav><article><p>Six words of the article \
             text.</p></article><h3>3 Comments</h3><ol>{comments}</ol><a href=#>Top</a></body>"
        );
        let (page, ctx) = context(&html);
        assert_eq!(ctx.len(), 10, "{:?}", page.blocks());
        let f = |i: usize, name: &str| ctx.get(i, name).unwrap();
        // Prose before: the menu is linked, so 0 before the article, 6 after it.
        assert_eq!(f(0, "lead_prose_words"), 0.0);
        assert_eq!(f(1, "lead_prose_words"), 0.0);
        assert_eq!(f(2, "lead_prose_words"), 6.0);
        // In the comments: prose before the group's first block, 6 (the article) + 2 (the
        // heading, in no record): 8; share 8 / (8 + 15).
        for i in 3..9 {
            assert_eq!(f(i, "lead_prose_words"), 8.0, "block {i}");
            assert!(
                (f(i, "lead_prose_share") - 8.0 / 23.0).abs() < 1e-6,
                "block {i}"
            );
        }
        assert_eq!(f(1, "lead_prose_share"), 0.0);
        // End markers: the heading only ("Top" is short, the comments' texts are long or
        // carry no marker phrase).
        let markers: Vec<f32> = (0..10).map(|i| f(i, "end_marker")).collect();
        assert_eq!(markers, [0., 0., 1., 0., 0., 0., 0., 0., 0., 0.]);
        assert_eq!(f(1, "end_marker_distance"), NONE);
        assert_eq!(f(2, "end_marker_distance"), 0.0);
        assert_eq!(f(5, "end_marker_distance"), 3.0);
        assert_eq!(f(2, "end_markers_before"), 0.0);
        assert_eq!(f(3, "end_markers_before"), 1.0);
        assert_eq!(f(1, "end_marker_lead_words"), 0.0);
        assert_eq!(f(9, "end_marker_lead_words"), 6.0);
        // Page level, the same for every block: words 2 + 6 + 2 + 15 + 1 = 26, 15 in records,
        // one group, one marker.
        for i in 0..10 {
            assert!((f(i, "page_record_share") - 15.0 / 26.0).abs() < 1e-6);
            assert!((f(i, "page_largest_group_share") - 15.0 / 26.0).abs() < 1e-6);
            assert_eq!(f(i, "page_end_markers"), 1.0);
        }
    }

    #[test]
    fn repeated_paths_and_records_are_counted() {
        let post = |(k, w): (usize, &str)| {
            format!("<div class='post-{k}'><span class=author>Ann {w}</span><p>Reply {w} here</p></div>")
        };
        let posts: String = ["one", "two", "three"]
            .into_iter()
            .enumerate()
            .map(post)
            .collect();
        let html = format!("<body><div class=thread>{posts}</div><p hidden>Gone</p></body>");
        let (_page, ctx) = context(&html);
        // 3 posts × 2 blocks + the hidden paragraph.
        assert_eq!(ctx.len(), 7);
        let f = |i: usize, name: &str| ctx.get(i, name).unwrap();
        // The three <p> of the posts share one path (div.post- with digits removed).
        assert_eq!(f(1, "path_blocks"), 3.0);
        assert_eq!(f(1, "record_group_records"), 3.0);
        assert_eq!(f(1, "record_position"), 0.0);
        assert_eq!(f(5, "record_position"), 1.0);
        // Words: 3 × (2 + 3) = 15 in the posts, 1 hidden: 16.
        assert!((f(1, "record_group_word_share") - 15.0 / 16.0).abs() < 1e-6);
        assert!((f(1, "path_word_share") - 9.0 / 16.0).abs() < 1e-6);
        assert_eq!(f(6, "hidden"), 1.0);
        assert_eq!(ctx.row(0).len(), BlockContext::names().len());
    }
}
