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
//! - `anc<k>_word_share`, `anc<k>_link_density`, `anc<k>_blocks` for k = 0 (the container) to
//!   4 (its fourth ancestor element): the share of the page's words in that element's blocks,
//!   the share of those words inside links, and how many blocks it holds (0, 0, 0 past the root).
//! - `path_blocks`, `path_word_share`: how many blocks of the page have the same container path
//!   (each step the tag and first class name, digits removed: [`super::records::signature`]),
//!   and the share of the page's words they hold — repeated paths are posts, cards, comments.
//! - `record_group_records`, `record_group_word_share`, `record_position`: the block's innermost
//!   record group ([`super::Records`]): its number of records, its share of the page's words,
//!   the record's relative position in the group (0 first … 1 last); 0, 0, 0 outside records.
//! - `depth` (the container's depth in elements), `hidden` (1 when the block's text is hidden or
//!   inside `<noscript>`, [`super::Visibility`]), `page_words`, `page_blocks`.
//!
//! Built in O(nodes + blocks · depth) with one bit mask per element; no allocation per block
//! beyond the row.

use std::hash::{Hash, Hasher};
use std::sync::LazyLock;

use rustc_hash::{FxHashMap, FxHasher};

use super::records::Records;
use super::Blocks;
use crate::page::dom::{Dom, NodeKind};

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

/// The `class` / `id` keyword groups whose distance from the block is a feature
/// (`kw_<group>`): the group's name, then its keywords (a word of the `class` / `id` matches a
/// keyword it starts with; one ending in `=` must be equal).
pub const KEYWORD_GROUPS: &[(&str, &[&str])] = &[
    ("content", &["content", "maincontent"]),
    ("article", &["article"]),
    ("post", &["post", "entry"]),
    ("body", &["body"]),
    ("text", &["text", "prose", "rich"]),
    ("story", &["story", "news"]),
    ("main", &["main"]),
    ("nav", &["nav"]),
    ("menu", &["menu", "dropdown"]),
    ("breadcrumb", &["breadcrumb", "crumb"]),
    ("pagination", &["pagination", "pager", "paging"]),
    ("share", &["share", "sharing"]),
    ("social", &["social", "facebook", "twitter", "follow"]),
    ("related", &["related", "similar", "more"]),
    ("recommend", &["recommend", "popular", "trending", "most"]),
    ("comment", &["comment", "disqus", "respond", "discussion"]),
    ("reply", &["reply", "replies", "answer"]),
    ("footer", &["footer", "foot"]),
    ("header", &["header", "masthead", "head="]),
    ("sidebar", &["sidebar", "side", "rail", "aside"]),
    ("widget", &["widget", "module"]),
    (
        "ad",
        &["ad=", "ads=", "advert", "adsense", "adslot", "dfp", "gpt"],
    ),
    ("promo", &["promo", "sponsor", "partner", "teaser"]),
    ("cookie", &["cookie", "consent", "gdpr", "privacy"]),
    ("modal", &["modal", "popup", "overlay", "lightbox"]),
    (
        "subscribe",
        &["subscribe", "newsletter", "signup", "register"],
    ),
    ("card", &["card", "tile", "teaser"]),
    ("author", &["author", "byline", "bio"]),
    ("meta", &["meta", "date", "time", "dateline", "timestamp"]),
    ("tag", &["tag", "category", "categories", "topic", "label"]),
    ("caption", &["caption", "credit"]),
    ("title", &["title", "headline", "heading"]),
    (
        "hidden",
        &["hidden", "hide", "sr=", "screen", "visually", "offscreen"],
    ),
    ("banner", &["banner", "hero"]),
    ("legal", &["copyright", "legal", "disclaimer", "terms"]),
    ("search", &["search"]),
    ("login", &["login", "account", "user", "profile"]),
    ("button", &["button", "btn", "toolbar", "action"]),
    (
        "image",
        &["image", "img", "photo", "thumb", "media", "gallery"],
    ),
    ("list", &["list", "item", "items"]),
];

/// Ancestor levels with their own aggregate features (the container and 4 above it).
const ANCESTORS: usize = 5;

/// The feature names, in row order.
static NAMES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut v: Vec<String> = CONTEXT_TAGS.iter().map(|t| format!("tag_{t}")).collect();
    v.extend(KEYWORD_GROUPS.iter().map(|(g, _)| format!("kw_{g}")));
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
        ]
        .map(String::from),
    );
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

    /// The context of every block of `blocks` (segmented from `dom`), with the record groups
    /// `records` built from them. O(nodes + blocks · depth): one pass over the elements gives
    /// each its tag index, keyword mask and path hash; one walk up from each block's container
    /// gives the distances and the ancestors' aggregates.
    pub fn build(dom: &Dom, blocks: &Blocks, records: &Records) -> BlockContext {
        let width = NAMES.len();
        let n = blocks.len();
        let elements = Elements::of(dom);
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

        // Blocks and words per container path.
        let mut per_path: FxHashMap<u64, (u32, u32)> = FxHashMap::default();
        for b in blocks.blocks() {
            let e = per_path.entry(elements.path[b.container]).or_default();
            e.0 += 1;
            e.1 += b.features.words;
        }

        let mut values = vec![0.0f32; n * width];
        for (i, (b, row)) in blocks
            .blocks()
            .iter()
            .zip(values.chunks_exact_mut(width.max(1)))
            .enumerate()
        {
            let (tags, rest) = row.split_at_mut(CONTEXT_TAGS.len());
            let (kws, rest) = rest.split_at_mut(KEYWORD_GROUPS.len());
            tags.fill(NONE);
            kws.fill(NONE);
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
            if let Some(k) = records.of_block(i) {
                let r = &records.records()[k];
                let g = &records.groups()[r.group];
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

/// What the walk up from a block reads of each node, computed once per page in one pre-order
/// pass (a parent before its children), indexed by node id.
struct Elements {
    /// The element's index in [`CONTEXT_TAGS`].
    tag: Vec<Option<u8>>,
    /// The [`KEYWORD_GROUPS`] its `class` / `id` names (bit g for group g).
    mask: Vec<u64>,
    /// A hash of its path: each element's [`super::records::signature`] (tag, first class without digits) from
    /// the root down, built from the parent's hash without allocating. Text nodes carry their
    /// parent's.
    path: Vec<u64>,
}

impl Elements {
    fn of(dom: &Dom) -> Elements {
        let n = dom.len();
        let mut out = Elements {
            tag: vec![None; n],
            mask: vec![0; n],
            path: vec![0; n],
        };
        let mut word = String::new();
        for id in 0..n {
            let parent_path = dom.parent(id).map_or(0, |p| out.path[p]);
            if dom.kind(id) != NodeKind::Element {
                out.path[id] = parent_path;
                continue;
            }
            let name = dom.tag_name(id).unwrap_or("");
            out.tag[id] = CONTEXT_TAGS
                .binary_search(&name)
                .ok()
                .and_then(|k| u8::try_from(k).ok());
            let mut h = FxHasher::default();
            parent_path.hash(&mut h);
            name.hash(&mut h);
            if let Some(first) = dom
                .attr(id, "class")
                .and_then(|c| c.split_ascii_whitespace().next())
            {
                h.write_u8(b'.');
                for byte in first.bytes().filter(|b| !b.is_ascii_digit()) {
                    h.write_u8(byte);
                }
            }
            out.path[id] = h.finish();
            let mut mask = 0u64;
            for attr in ["class", "id"] {
                let Some(v) = dom.attr(id, attr) else {
                    continue;
                };
                for w in v.split(|c: char| !c.is_ascii_alphanumeric()) {
                    if w.is_empty() {
                        continue;
                    }
                    word.clear();
                    word.extend(w.chars().map(|c| c.to_ascii_lowercase()));
                    mask |= keyword_mask(&word);
                }
            }
            out.mask[id] = mask;
        }
        out
    }
}

/// The groups a lower-case `class` / `id` word matches, bit g for group g of
/// [`KEYWORD_GROUPS`] (see the module documentation).
pub fn keyword_mask(word: &str) -> u64 {
    let mut mask = 0u64;
    for (g, (_, keywords)) in KEYWORD_GROUPS.iter().enumerate() {
        let hit = keywords.iter().any(|k| match k.strip_suffix('=') {
            Some(exact) => word == exact,
            None => word.starts_with(k),
        });
        if hit {
            mask |= 1 << g;
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::Page;

    fn context(html: &str) -> (Page, BlockContext) {
        let page = Page::from_text("t.html", html);
        let ctx = BlockContext::build(page.dom(), page.blocks(), page.records());
        (page, ctx)
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
