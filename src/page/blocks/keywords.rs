//! What the class names, ids and roles of a page's elements say of them, and the short blocks
//! that announce the end of an article's text: the one keyword matcher ([`KeywordSet`]) with
//! its tables — the learner's keyword groups ([`KEYWORD_GROUPS`], the `kw_*` features of
//! `crate::learn::context::BlockContext`, also read by the headline candidates) and whatever other table a
//! module needs (the unit kinds of [`crate::page::units`]) — the ARIA / microdata landmarks
//! ([`LANDMARKS`]) and the end-of-text markers ([`end_marker`]).
//!
//! **Matching.** A `class` or `id` value is split into words at every character that is not
//! an ASCII letter or digit and lower-cased; a word matches a keyword it starts with
//! (`comments`, `commentlist` match `comment`), or equals it for keywords written with a
//! trailing `=` (`ad=` matches `ad`, not `address`). No paper defines these lists: they are
//! cescope's, after the learning prototype (`../shared/notes/learning-prototype.md`) and
//! boilerpipe's `TerminatingBlocksFinder` (Kohlschütter et al. 2010's implementation).

use std::sync::{Arc, LazyLock};

use aho_corasick::AhoCorasick;
use html5ever::local_name;
use rustc_hash::FxHashMap;

use super::Blocks;
use crate::page::dom::{Dom, NodeId, NodeKind};
use crate::page::{MemoKey, Page};

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

/// The `class` / `id` keywords of the guideline's unit rules ([`crate::page::units`], whose
/// module documentation says what each group decides), matched by [`KeywordSet`].
pub const UNIT_KEYWORDS: &[(&str, &[&str])] = &[
    (
        "byline",
        &[
            "author",
            "byline",
            "dateline",
            "posted",
            "postedby",
            "published",
            "pubdate",
            "timestamp",
            "date",
            "updated",
            "meta=",
            "time=",
            "submitted",
        ],
    ),
    ("caption", &["caption", "credit", "figcaption"]),
    (
        "comment",
        &["comment", "disqus", "respond", "discussion", "commento"],
    ),
    ("post", &["post", "message", "reply", "answer", "thread"]),
    // Wrappers of an article's text: a group inside one is the article's sections, not a
    // thread's posts (the size rule of posts only).
    ("article", &["article", "story", "articlebody"]),
    (
        "related",
        &[
            "related",
            "similar",
            "recommend",
            "popular",
            "trending",
            "yarpp",
            "outbrain",
            "taboola",
            "morestories",
            "readnext",
        ],
    ),
    (
        "supplemental",
        &[
            "infobox",
            "factbox",
            "pullquote",
            "sidebox",
            "bio=",
            "authorbio",
            "aside=",
            "boxout",
        ],
    ),
];

/// The matcher of [`UNIT_KEYWORDS`].
pub static UNIT_KEYWORD_SET: LazyLock<KeywordSet> =
    LazyLock::new(|| KeywordSet::new(UNIT_KEYWORDS));

/// The landmarks whose distance from the block is a feature (`lm_<name>`): the name, then
/// the `(attribute, value)` pairs that make an element one (values compared whole, ASCII
/// case-insensitively; an `itemtype` URL by its last path segment). ARIA landmark roles
/// (WAI-ARIA 1.2, section 5.3.4) say what a region is for; schema.org microdata properties
/// and types mark an article's body, its headline and its comments.
pub const LANDMARKS: &[(&str, &[(&str, &str)])] = &[
    ("main", &[("role", "main")]),
    (
        "navigation",
        &[
            ("role", "navigation"),
            ("role", "menu"),
            ("role", "menubar"),
            ("role", "tablist"),
        ],
    ),
    ("complementary", &[("role", "complementary")]),
    ("contentinfo", &[("role", "contentinfo")]),
    ("banner", &[("role", "banner")]),
    ("article", &[("role", "article"), ("role", "feed")]),
    (
        "dialog",
        &[
            ("role", "dialog"),
            ("role", "alertdialog"),
            ("role", "alert"),
        ],
    ),
    ("search", &[("role", "search")]),
    (
        "body",
        &[
            ("itemprop", "articlebody"),
            ("itemprop", "reviewbody"),
            ("itemprop", "text"),
            ("itemprop", "description"),
            ("itemprop", "maincontentofpage"),
        ],
    ),
    (
        "comment",
        &[
            ("itemprop", "comment"),
            ("itemprop", "comments"),
            ("itemprop", "suggestedanswer"),
            ("itemprop", "acceptedanswer"),
            ("itemprop", "review"),
            ("itemtype", "comment"),
            ("itemtype", "answer"),
            ("itemtype", "review"),
        ],
    ),
    (
        "headline",
        &[
            ("itemprop", "headline"),
            ("itemprop", "name"),
            ("itemprop", "alternativeheadline"),
        ],
    ),
];

/// The [`LANDMARKS`] element `id` is, bit g for landmark g.
pub fn landmark_mask(dom: &Dom, id: NodeId) -> u16 {
    dom.attrs_local(id)
        .filter_map(|(name, v)| Some(landmark_bits(LandmarkAttr::of(name)?, v)))
        .fold(0, |m, b| m | b)
}

/// The attributes [`LANDMARKS`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum LandmarkAttr {
    Role,
    Itemprop,
    Itemtype,
}

impl LandmarkAttr {
    /// The attribute named `name`, if [`LANDMARKS`] reads it.
    fn of(name: &html5ever::LocalName) -> Option<LandmarkAttr> {
        if *name == local_name!("role") {
            Some(LandmarkAttr::Role)
        } else if *name == local_name!("itemprop") {
            Some(LandmarkAttr::Itemprop)
        } else if *name == local_name!("itemtype") {
            Some(LandmarkAttr::Itemtype)
        } else {
            None
        }
    }

    /// The name [`LANDMARKS`] spells it with.
    fn name(self) -> &'static str {
        match self {
            LandmarkAttr::Role => "role",
            LandmarkAttr::Itemprop => "itemprop",
            LandmarkAttr::Itemtype => "itemtype",
        }
    }
}

/// The [`LANDMARKS`] an attribute `attr` with value `value` names, bit g for landmark g: each
/// white-space separated word of the value (of an `itemtype` URL, its last segment after `/`,
/// `:` or `#`) against the landmark's pairs, ASCII case-insensitive.
fn landmark_bits(attr: LandmarkAttr, value: &str) -> u16 {
    let name = attr.name();
    let mut mask = 0u16;
    for word in value.split_ascii_whitespace() {
        let word = if attr == LandmarkAttr::Itemtype {
            word.rsplit(['/', ':', '#']).next().unwrap_or("")
        } else {
            word
        };
        for (g, (_, pairs)) in LANDMARKS.iter().enumerate() {
            if pairs
                .iter()
                .any(|(a, val)| *a == name && val.eq_ignore_ascii_case(word))
            {
                mask |= 1 << g;
            }
        }
    }
    mask
}

/// Phrases of the short blocks that announce a **comment section** (lower case; matched
/// anywhere in the block's lower-cased text): after boilerpipe's `TerminatingBlocksFinder`
/// (Kohlschütter et al. 2010's implementation: blocks of fewer than 15 words and at least 8
/// characters that start with "comments", "N comments", "post a comment", contain "add your
/// comment", "reader comments", …), with the languages of the dev corpora.
pub const COMMENT_MARKERS: &[&str] = &[
    "comment",
    "coment",
    "komment",
    "komentar",
    "replies",
    "responses",
    "respuestas",
    "respostas",
    "reacties",
    "leave a reply",
    "have your say",
    "what you think",
    "rate this",
];

/// Phrases of the short blocks that announce a list of **related articles** (lower case;
/// matched anywhere in the block's lower-cased text): cescope's addition to boilerpipe's
/// comment markers, in the languages of the dev corpora.
pub const RELATED_MARKERS: &[&str] = &[
    "related",
    "relacionad",
    "you may also",
    "you might also",
    "you may like",
    "you might like",
    "also like",
    "recommended",
    "more from",
    "more stories",
    "read next",
    "leia também",
    "veja também",
    "pode gostar",
    "te puede interesar",
    "lee também",
    "lire aussi",
    "auch interessant",
    "das könnte",
    "potrebbe interessarti",
    "vedi anche",
];

/// What an end-of-text marker announces ([`end_marker`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndMarker {
    /// A comment section ([`COMMENT_MARKERS`]).
    Comments,
    /// Related articles ([`RELATED_MARKERS`]).
    Related,
}

/// Is block `i` an end-of-text marker — a short block that announces the end of an article's
/// text: fewer than 15 words, at least 8 characters, and one of [`COMMENT_MARKERS`] or
/// [`RELATED_MARKERS`] in its lower-cased text — and which kind? A block naming both is a
/// comment marker. After boilerpipe's `TerminatingBlocksFinder` (Kohlschütter et al. 2010's
/// implementation). O(block text).
pub fn end_marker(dom: &Dom, blocks: &Blocks, i: usize) -> Option<EndMarker> {
    end_marker_in(dom, blocks, i, &mut String::new())
}

/// [`end_marker`] with `buf` for the block's text (reused across blocks: no allocation per
/// block once it is large enough).
fn end_marker_in(dom: &Dom, blocks: &Blocks, i: usize, buf: &mut String) -> Option<EndMarker> {
    let b = blocks.get(i);
    if b.features.words >= 15 || b.extent.len() < 8 {
        return None;
    }
    blocks.text_into(dom, i, buf);
    // `str::to_lowercase`, which an ASCII text needs no copy for.
    let lower;
    let text = if buf.is_ascii() {
        buf.make_ascii_lowercase();
        buf.as_str()
    } else {
        lower = buf.to_lowercase();
        lower.as_str()
    };
    if text.chars().count() < 8 {
        return None;
    }
    MARKERS.find(text.as_bytes())
}

/// [`COMMENT_MARKERS`] and [`RELATED_MARKERS`] in one Aho-Corasick automaton (the
/// `aho-corasick` crate), the comment phrases first: a block's text is read once, whatever the
/// number of phrases (the same answer as searching for each phrase in turn: a comment phrase
/// anywhere wins).
struct MarkerTable {
    phrases: Option<AhoCorasick>,
}

impl MarkerTable {
    fn new() -> MarkerTable {
        // Building fails only past the crate's size limits, which a few dozen short phrases
        // are far below; then no block is a marker (test `end_markers_say_what_they_announce`).
        let phrases = AhoCorasick::new(COMMENT_MARKERS.iter().chain(RELATED_MARKERS)).ok();
        MarkerTable { phrases }
    }

    /// [`EndMarker::Comments`] if a comment phrase occurs in `text`, else
    /// [`EndMarker::Related`] if a related phrase does. O(text + matches).
    fn find(&self, text: &[u8]) -> Option<EndMarker> {
        let mut related = false;
        for m in self.phrases.as_ref()?.find_overlapping_iter(text) {
            if m.pattern().as_usize() < COMMENT_MARKERS.len() {
                return Some(EndMarker::Comments);
            }
            related = true;
        }
        related.then_some(EndMarker::Related)
    }
}

/// The end-marker phrases, indexed once.
static MARKERS: LazyLock<MarkerTable> = LazyLock::new(MarkerTable::new);

/// One keyword of a [`KeywordSet`], ready to match.
#[derive(Debug, Clone)]
struct Keyword {
    /// The keyword without its trailing `=`.
    word: &'static str,
    /// True for keywords written with a trailing `=` (equality, not prefix).
    exact: bool,
    /// Its group's bit.
    bit: u64,
}

/// A table of keyword groups ready to match `class` / `id` words (see the module
/// documentation): group g of the table is bit g of a mask, so a table has at most 64 groups.
/// The keywords are indexed by their first byte: a word is compared only with the keywords it
/// could start with.
#[derive(Debug, Clone)]
pub struct KeywordSet {
    groups: &'static [(&'static str, &'static [&'static str])],
    by_first_byte: Vec<Vec<Keyword>>,
}

impl KeywordSet {
    /// The matcher of `groups` (name, keywords). Groups past the 64th are ignored.
    pub fn new(groups: &'static [(&'static str, &'static [&'static str])]) -> KeywordSet {
        let mut t: Vec<Vec<Keyword>> = (0..256).map(|_| Vec::new()).collect();
        for (g, (_, keywords)) in groups.iter().enumerate().take(64) {
            for k in *keywords {
                let (word, exact) = match k.strip_suffix('=') {
                    Some(w) => (w, true),
                    None => (*k, false),
                };
                if let Some(&b) = word.as_bytes().first() {
                    t[usize::from(b)].push(Keyword {
                        word,
                        exact,
                        bit: 1 << g,
                    });
                }
            }
        }
        KeywordSet {
            groups,
            by_first_byte: t,
        }
    }

    /// The bit of the group named `name` (0 for an unknown name).
    pub fn bit(&self, name: &str) -> u64 {
        self.groups
            .iter()
            .take(64)
            .position(|(n, _)| *n == name)
            .map_or(0, |g| 1 << g)
    }

    /// The groups a lower-case word matches, bit g for group g.
    pub fn mask(&self, word: &str) -> u64 {
        self.mask_bytes(word.as_bytes())
    }

    /// [`KeywordSet::mask`] of a word's bytes.
    fn mask_bytes(&self, word: &[u8]) -> u64 {
        let Some(&first) = word.first() else {
            return 0;
        };
        let mut mask = 0u64;
        for k in &self.by_first_byte[usize::from(first)] {
            let hit = if k.exact {
                word == k.word.as_bytes()
            } else {
                word.starts_with(k.word.as_bytes())
            };
            if hit {
                mask |= k.bit;
            }
        }
        mask
    }

    /// The groups the `class` and `id` attributes of every node of `dom` name, indexed by node
    /// id (0 for text nodes and elements without a match): [`element_masks_of`] with this
    /// table alone.
    pub fn element_masks(&self, dom: &Dom) -> Vec<u64> {
        let [masks] = element_masks_of([self], dom);
        masks
    }
}

/// The groups the `class` and `id` attributes of every node of `dom` name in each of the
/// tables `sets` (one vector per table, indexed by node id; 0 for text nodes and elements
/// without a match), in one pass over the elements: [`element_marks`] without the landmarks.
pub fn element_masks_of<const N: usize>(sets: [&KeywordSet; N], dom: &Dom) -> [Vec<u64>; N] {
    element_marks(sets, dom).0
}

/// The keyword groups of every node in each of the tables `sets` (as [`element_masks_of`]) and
/// its [`landmark_mask`], indexed by node id (0 for text nodes and elements without a match),
/// in one pass over the elements and one walk of each element's attributes. Pages repeat
/// their attribute values (every item of a menu, every post): each distinct `class` / `id`
/// value is split into words and matched once, against every table, and each distinct `role`
/// / `itemprop` / `itemtype` value once against [`LANDMARKS`]. A `class` / `id` word is a run
/// of ASCII letters and digits (every other byte, those of non-ASCII characters included,
/// separates words), lower-cased. O(nodes + distinct values · words).
pub fn element_marks<const N: usize>(
    sets: [&KeywordSet; N],
    dom: &Dom,
) -> ([Vec<u64>; N], Vec<u16>) {
    let mut out: [Vec<u64>; N] = std::array::from_fn(|_| vec![0u64; dom.len()]);
    let mut landmarks = vec![0u16; dom.len()];
    let mut word: Vec<u8> = Vec::new();
    let mut seen: FxHashMap<&str, [u64; N]> = FxHashMap::default();
    let mut seen_landmarks: FxHashMap<(LandmarkAttr, &str), u16> = FxHashMap::default();
    for id in 0..dom.len() {
        if dom.kind(id) != NodeKind::Element {
            continue;
        }
        let mut mask = [0u64; N];
        let mut landmark = 0u16;
        for (name, v) in dom.attrs_local(id) {
            if *name == local_name!("class") || *name == local_name!("id") {
                let m = seen.entry(v).or_insert_with(|| {
                    let mut m = [0u64; N];
                    for w in v.as_bytes().split(|b| !b.is_ascii_alphanumeric()) {
                        if w.is_empty() {
                            continue;
                        }
                        word.clear();
                        word.extend(w.iter().map(u8::to_ascii_lowercase));
                        for (m, set) in m.iter_mut().zip(sets) {
                            *m |= set.mask_bytes(&word);
                        }
                    }
                    m
                });
                for (a, b) in mask.iter_mut().zip(m.iter()) {
                    *a |= b;
                }
            } else if let Some(attr) = LandmarkAttr::of(name) {
                landmark |= *seen_landmarks
                    .entry((attr, v))
                    .or_insert_with(|| landmark_bits(attr, v));
            }
        }
        for (o, m) in out.iter_mut().zip(mask) {
            o[id] = m;
        }
        landmarks[id] = landmark;
    }
    (out, landmarks)
}

/// What the tables of this module say of one page, computed once per page ([`PageMarks::of`])
/// and read by the learner's block context (`crate::learn::context::BlockContext`), the
/// guideline's units ([`crate::page::units::Units::find`]) and the guideline's scopes, which
/// used to compute each of them again.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageMarks {
    /// The [`KEYWORD_GROUPS`] each node's `class` / `id` names, by node id.
    pub groups: Vec<u64>,
    /// The [`UNIT_KEYWORDS`] groups each node's `class` / `id` names, by node id.
    pub units: Vec<u64>,
    /// [`landmark_mask`] of every element (0 for other nodes), by node id.
    pub landmarks: Vec<u16>,
    /// [`end_marker`] of every block, by block index.
    pub end_markers: Vec<Option<EndMarker>>,
}

impl PageMarks {
    /// The marks of `page` (its DOM and blocks), computed on first use and kept in the page's
    /// memo ([`Page::memo`]). O(nodes + block text).
    pub fn of(page: &Page) -> Arc<PageMarks> {
        const MARKS: MemoKey<PageMarks> = MemoKey::new("keywords::page_marks");
        page.memo(MARKS, || PageMarks::build(page.dom(), page.blocks()))
    }

    /// The marks of the page parsed as `dom` and segmented into `blocks`.
    pub fn build(dom: &Dom, blocks: &Blocks) -> PageMarks {
        let ([groups, units], landmarks) =
            element_marks([&LEARNER_KEYWORDS, &UNIT_KEYWORD_SET], dom);
        PageMarks {
            groups,
            units,
            landmarks,
            end_markers: {
                let mut buf = String::new();
                (0..blocks.len())
                    .map(|i| end_marker_in(dom, blocks, i, &mut buf))
                    .collect()
            },
        }
    }

    /// The end marker of block `i` (`None` past the last block).
    pub fn end_marker(&self, i: usize) -> Option<EndMarker> {
        self.end_markers.get(i).copied().flatten()
    }
}

/// The matcher of [`KEYWORD_GROUPS`].
static LEARNER_KEYWORDS: LazyLock<KeywordSet> = LazyLock::new(|| KeywordSet::new(KEYWORD_GROUPS));

/// The groups a lower-case `class` / `id` word matches, bit g for group g of
/// [`KEYWORD_GROUPS`] (see the module documentation).
pub fn keyword_mask(word: &str) -> u64 {
    LEARNER_KEYWORDS.mask(word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::Page;

    #[test]
    fn a_second_table_matches_by_the_same_rule() {
        static T: &[(&str, &[&str])] = &[("a", &["foo", "bar="]), ("b", &["foobar"])];
        let k = KeywordSet::new(T);
        assert_eq!(k.bit("a"), 1);
        assert_eq!(k.bit("b"), 2);
        assert_eq!(k.bit("zzz"), 0);
        assert_eq!(k.mask("foobarbaz"), 3, "prefix of both groups");
        assert_eq!(k.mask("bar"), 1);
        assert_eq!(k.mask("barn"), 0, "bar= matches only itself");
        let page = Page::from_text(
            "t.html",
            "<div class='x Foo-Box' id='bar'><p class=foobar>t</p><p>u</p></div>",
        );
        let m = k.element_masks(page.dom());
        let dom = page.dom();
        let masks: Vec<(String, u64)> = (0..dom.len())
            .filter(|&i| dom.kind(i) == NodeKind::Element && m[i] != 0)
            .map(|i| (dom.tag_name(i).unwrap_or("").to_string(), m[i]))
            .collect();
        assert_eq!(masks, [("div".to_string(), 1), ("p".to_string(), 3)]);
    }

    #[test]
    fn one_pass_marks_are_the_per_element_marks() {
        let page = Page::from_text(
            "t.html",
            "<main role='MAIN' class='post-body'><article itemprop=articleBody \
             itemtype='https://schema.org/Comment' id=c1><p role='navigation banner'>x</p>\
             <p role=navigation class=post-body>y</p></article>\
             <div itemprop='comment' data-x=1 class='Related'>z</div></main>",
        );
        let dom = page.dom();
        let marks = PageMarks::build(dom, page.blocks());
        let groups = LEARNER_KEYWORDS.element_masks(dom);
        let g = |name: &str| {
            1u16 << LANDMARKS
                .iter()
                .position(|(n, _)| *n == name)
                .expect("a landmark")
        };
        let mut by_tag = Vec::new();
        assert_eq!(marks.groups, groups);
        for id in 0..dom.len() {
            assert_eq!(marks.landmarks[id], landmark_mask(dom, id), "node {id}");
            if dom.kind(id) == NodeKind::Element && marks.landmarks[id] != 0 {
                by_tag.push((
                    dom.tag_name(id).unwrap_or("").to_string(),
                    marks.landmarks[id],
                ));
            }
        }
        // Each attribute's words count, a value met twice is read the same, case is ignored.
        assert_eq!(
            by_tag,
            [
                ("main".to_string(), g("main")),
                ("article".to_string(), g("body") | g("comment")),
                ("p".to_string(), g("navigation") | g("banner")),
                ("p".to_string(), g("navigation")),
                ("div".to_string(), g("comment")),
            ]
        );
    }

    #[test]
    fn end_markers_say_what_they_announce() {
        let page = Page::from_text(
            "t.html",
            "<h2>3 Comments so far</h2><h2>Related articles</h2><h2>Comments and related</h2>\
             <h2>Related: what you think</h2><h2>Trending now on the site</h2>\
             <p>short</p><h2>Leave a reply to this comment now, please, if you have more than \
             fifteen words to say about it all</h2>",
        );
        let (dom, blocks) = (page.dom(), page.blocks());
        let kinds: Vec<Option<EndMarker>> = (0..blocks.len())
            .map(|i| end_marker(dom, blocks, i))
            .collect();
        assert_eq!(
            kinds,
            [
                Some(EndMarker::Comments),
                Some(EndMarker::Related),
                Some(EndMarker::Comments),
                // A comment phrase after a related one still wins.
                Some(EndMarker::Comments),
                None,
                None,
                None
            ]
        );
    }
}
