//! The lexer: classifies every byte of a page's decoded UTF-8 text.
//!
//! The output is a list of [`Span`]s that tile the text exactly (sorted, contiguous, non-empty,
//! covering `0..text.len()`), each with a [`ByteClass`] and, for tags, an interned tag name. It
//! is the "per-byte classification" of `DESIGN.md`, stored run-length encoded: a 1 MB page has
//! some tens of thousands of spans instead of a million class bytes. [`Lexed::class_at`] answers
//! for one byte; [`Lexed::byte_classes`] materialises the per-byte array when a view needs it.
//!
//! The rules are the WHATWG HTML tokenizer's, with the few tree-construction decisions that
//! switch it (module `context`), so that the classes agree byte for byte with the positioned
//! DOM's reading of the page ([`crate::page::Dom::class_spans`], the reference for what is
//! text; `tests/html_model.rs` checks it on arbitrary bytes, generated HTML and every corpus
//! page, and lists the one known difference, mis-nested SVG / MathML):
//!
//! - `<` starts markup only before an ASCII letter (start tag), `/` + letter (end tag), `!` or
//!   `?`; any other `<` is text (`a < b`), and so is `</` at the end of the file.
//! - Attributes follow the tokenizer's attribute states: a value in double or single quotes may
//!   contain `>`, a quote opens a value only where a value starts (after `=`), an unquoted value
//!   ends at white space or `>`; `/` right before `>` marks the tag self-closing.
//! - Comments: `<!-- … -->`, also closed by `--!>`; the abrupt forms `<!-->` and `<!--->`; an
//!   unclosed comment runs to the end of the file. `<!…>` other than a doctype (or a CDATA
//!   section in SVG / MathML) is a bogus comment up to the next `>` — `<![CDATA[ a > b ]]>` in
//!   HTML content too, so ` b ]]>` is text, as a browser shows it; `</` followed by a
//!   non-letter is a bogus comment too.
//! - `<!DOCTYPE …>` (any case) and `<?…>` (processing instructions, bogus comments in HTML) are
//!   [`ByteClass::Declaration`].
//! - Raw-text elements in HTML content: the bodies of `script` and `style` are
//!   [`ByteClass::Script`] / [`ByteClass::Style`] up to `</script` / `</style` (any case)
//!   followed by white space, `/` or `>` — so `"</div>"` inside a script is script. Script data
//!   follows the escape states: after `<!--`, a `<script>` makes the next `</script` part of the
//!   script (`<script><!--<script>var a="</script>";</script>` is one script), `-->` ends the
//!   escape. RCDATA (`title`, `textarea`) and the other raw-text elements (`xmp`, `iframe`,
//!   `noembed`, `noframes`) are content text up to their end tag; `plaintext` makes the rest of
//!   the file text. An unclosed raw-text element runs to the end of the file.
//! - `<noscript>`: markup by default; with [`LexOptions::scripting`] its body is raw text, as
//!   [`ByteClass::Script`] (a browser with JavaScript never shows it).
//! - SVG and MathML (`<svg>`, `<math>` up to their end tag, or an HTML tag that leaves them):
//!   no raw text (`<style>` there is an element whose text is [`ByteClass::Style`], `<title/>`
//!   is empty), and `<![CDATA[ … ]]>` is a CDATA section: its delimiters are
//!   [`ByteClass::Cdata`], its content character data.
//! - A tag cut off by the end of the file is markup up to the end (the standard drops it).
//! - Tag names are matched ASCII case-insensitively (`<P>`, `</SCRIPT>`).
//!
//! The lexer is a single forward pass with `memchr` searches: O(n) time, no recursion (100 000
//! nested `div`s are just 200 000 spans), and it never panics on any `&str`.

use memchr::memchr;

mod context;

pub(crate) use context::script_end;

use context::{Context, Raw, RawKind};

/// What a byte of the decoded text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum ByteClass {
    /// Content text (including RCDATA of `title` / `textarea`); character references undecoded.
    Text = 0,
    /// A start or end tag, from `<` to `>` inclusive.
    Tag = 1,
    /// The body of a `script` element, and of a `noscript` element on a page read with
    /// scripting on ([`LexOptions::scripting`]).
    Script = 2,
    /// The body of a `style` element.
    Style = 3,
    /// A comment or bogus comment, delimiters included.
    Comment = 4,
    /// A doctype or processing instruction.
    Declaration = 5,
    /// The delimiters `<![CDATA[` and `]]>` of a CDATA section (in SVG / MathML; its content is
    /// text, elsewhere `<![CDATA[` opens a bogus comment).
    Cdata = 6,
}

impl ByteClass {
    /// All classes, in discriminant order.
    pub const ALL: [ByteClass; 7] = [
        ByteClass::Text,
        ByteClass::Tag,
        ByteClass::Script,
        ByteClass::Style,
        ByteClass::Comment,
        ByteClass::Declaration,
        ByteClass::Cdata,
    ];

    /// Lower-case name, as used in JSON and the inspector's legend.
    pub fn name(self) -> &'static str {
        match self {
            ByteClass::Text => "text",
            ByteClass::Tag => "tag",
            ByteClass::Script => "script",
            ByteClass::Style => "style",
            ByteClass::Comment => "comment",
            ByteClass::Declaration => "declaration",
            ByteClass::Cdata => "cdata",
        }
    }
}

/// Tag names cescope's algorithms care about, interned so spans stay small. Every other name is
/// [`Tag::Other`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Tag {
    Other = 0,
    A,
    Address,
    Article,
    Aside,
    Blockquote,
    Body,
    Br,
    Button,
    Caption,
    Center,
    Dd,
    Details,
    Dialog,
    Dir,
    Div,
    Dl,
    Dt,
    Fieldset,
    Figcaption,
    Figure,
    Footer,
    Form,
    Frameset,
    H1,
    H2,
    H3,
    H4,
    H5,
    H6,
    Head,
    Header,
    Hgroup,
    Hr,
    Html,
    Iframe,
    Img,
    Legend,
    Li,
    Link,
    Main,
    Menu,
    Meta,
    Nav,
    Noembed,
    Noframes,
    Noscript,
    Ol,
    Optgroup,
    Option,
    P,
    Plaintext,
    Pre,
    Script,
    Section,
    Select,
    Style,
    Summary,
    Table,
    Tbody,
    Td,
    Textarea,
    Tfoot,
    Th,
    Thead,
    Title,
    Tr,
    Ul,
    Xmp,
}

/// Every interned tag with its name, in discriminant order (which is also alphabetical order);
/// names are lower case and at most 10 bytes long.
const TAG_NAMES: &[(&str, Tag)] = &[
    ("a", Tag::A),
    ("address", Tag::Address),
    ("article", Tag::Article),
    ("aside", Tag::Aside),
    ("blockquote", Tag::Blockquote),
    ("body", Tag::Body),
    ("br", Tag::Br),
    ("button", Tag::Button),
    ("caption", Tag::Caption),
    ("center", Tag::Center),
    ("dd", Tag::Dd),
    ("details", Tag::Details),
    ("dialog", Tag::Dialog),
    ("dir", Tag::Dir),
    ("div", Tag::Div),
    ("dl", Tag::Dl),
    ("dt", Tag::Dt),
    ("fieldset", Tag::Fieldset),
    ("figcaption", Tag::Figcaption),
    ("figure", Tag::Figure),
    ("footer", Tag::Footer),
    ("form", Tag::Form),
    ("frameset", Tag::Frameset),
    ("h1", Tag::H1),
    ("h2", Tag::H2),
    ("h3", Tag::H3),
    ("h4", Tag::H4),
    ("h5", Tag::H5),
    ("h6", Tag::H6),
    ("head", Tag::Head),
    ("header", Tag::Header),
    ("hgroup", Tag::Hgroup),
    ("hr", Tag::Hr),
    ("html", Tag::Html),
    ("iframe", Tag::Iframe),
    ("img", Tag::Img),
    ("legend", Tag::Legend),
    ("li", Tag::Li),
    ("link", Tag::Link),
    ("main", Tag::Main),
    ("menu", Tag::Menu),
    ("meta", Tag::Meta),
    ("nav", Tag::Nav),
    ("noembed", Tag::Noembed),
    ("noframes", Tag::Noframes),
    ("noscript", Tag::Noscript),
    ("ol", Tag::Ol),
    ("optgroup", Tag::Optgroup),
    ("option", Tag::Option),
    ("p", Tag::P),
    ("plaintext", Tag::Plaintext),
    ("pre", Tag::Pre),
    ("script", Tag::Script),
    ("section", Tag::Section),
    ("select", Tag::Select),
    ("style", Tag::Style),
    ("summary", Tag::Summary),
    ("table", Tag::Table),
    ("tbody", Tag::Tbody),
    ("td", Tag::Td),
    ("textarea", Tag::Textarea),
    ("tfoot", Tag::Tfoot),
    ("th", Tag::Th),
    ("thead", Tag::Thead),
    ("title", Tag::Title),
    ("tr", Tag::Tr),
    ("ul", Tag::Ul),
    ("xmp", Tag::Xmp),
];

/// Tag-name lookup by perfect hashing: the lexer interns every tag name it meets, so this is on
/// the hot path (one lookup per tag, about one per 30 bytes of a typical page).
///
/// A name of 1 to 10 bytes, lower-cased, is packed with its length into a 128-bit key
/// ([`name_key`]); [`name_slot`] folds the key to 64 bits and hashes it multiplicatively
/// (Knuth's multiplicative hashing) to one of 256 slots. [`NAME_SLOTS`] maps a slot to `1 +` the
/// index of the one name of [`TAG_NAMES`] that hashes there (0: none), and the lookup compares
/// the whole key with that name's key, so an unknown name can never be mistaken for a known one.
/// [`NAME_HASH`] was chosen so that the 68 names fall into 68 different slots; the table is built
/// at compile time and the build fails if a name is added that collides (then pick another odd
/// multiplier).
mod name_hash {
    use super::{Tag, TAG_NAMES};

    /// Longest interned name, in bytes (`blockquote`, `figcaption`).
    pub(super) const MAX_NAME: usize = 10;

    /// The multiplier of the hash (odd; found by a search for a collision-free one).
    const NAME_HASH: u64 = 0x4a28_19ea_a323_3a21;

    /// Bits of the slot number: 2^8 = 256 slots.
    const SLOT_BITS: u32 = 8;

    /// The key of a name of at most [`MAX_NAME`] bytes that is already lower case: bytes 0..len
    /// little-endian, byte 15 the length (so `a` and `a\0` differ).
    pub(super) const fn name_key(lower: &[u8]) -> u128 {
        let mut buf = [0u8; 16];
        let mut i = 0;
        while i < lower.len() {
            buf[i] = lower[i];
            i += 1;
        }
        buf[15] = lower.len() as u8;
        u128::from_le_bytes(buf)
    }

    /// The slot of a key, in `0..256`.
    pub(super) const fn name_slot(key: u128) -> usize {
        let lo = key as u64;
        let hi = (key >> 64) as u64;
        ((lo ^ hi.rotate_left(17)).wrapping_mul(NAME_HASH) >> (64 - SLOT_BITS)) as usize
    }

    /// The key of each name of [`TAG_NAMES`], by index.
    pub(super) const NAME_KEYS: [u128; TAG_NAMES.len()] = {
        let mut keys = [0u128; TAG_NAMES.len()];
        let mut i = 0;
        while i < TAG_NAMES.len() {
            keys[i] = name_key(TAG_NAMES[i].0.as_bytes());
            i += 1;
        }
        keys
    };

    /// Slot → `1 +` index into [`TAG_NAMES`], 0 for an empty slot. Built at compile time; a
    /// collision is a compile error.
    pub(super) const NAME_SLOTS: [u8; 1 << SLOT_BITS] = {
        let mut slots = [0u8; 1 << SLOT_BITS];
        let mut i = 0;
        while i < TAG_NAMES.len() {
            let s = name_slot(NAME_KEYS[i]);
            assert!(
                slots[s] == 0,
                "two tag names share a hash slot: change NAME_HASH"
            );
            slots[s] = (i + 1) as u8;
            i += 1;
        }
        slots
    };

    /// The tag of a name of any case; [`Tag::Other`] for names not in [`TAG_NAMES`].
    #[inline]
    pub(super) fn lookup(name: &[u8]) -> Tag {
        if name.is_empty() || name.len() > MAX_NAME {
            return Tag::Other;
        }
        // The packing of `name_key`, built in registers (a byte buffer read back as one
        // integer stalls the store-to-load forwarding).
        let (mut lo, mut hi) = (0u64, (name.len() as u64) << 56);
        for (i, &c) in name.iter().enumerate() {
            let c = u64::from(c.to_ascii_lowercase());
            if i < 8 {
                lo |= c << (8 * i);
            } else {
                hi |= c << (8 * (i - 8));
            }
        }
        let key = u128::from(lo) | (u128::from(hi) << 64);
        match NAME_SLOTS[name_slot(key)] {
            0 => Tag::Other,
            i => {
                let i = i as usize - 1;
                if NAME_KEYS[i] == key {
                    TAG_NAMES[i].1
                } else {
                    Tag::Other
                }
            }
        }
    }
}

impl Tag {
    /// Interns an ASCII tag name (any case); unknown names are [`Tag::Other`]. O(1): one hash
    /// and one 16-byte comparison (see `name_hash`).
    #[inline]
    pub fn from_name(name: &[u8]) -> Tag {
        name_hash::lookup(name)
    }

    /// The lower-case name, or `"?"` for [`Tag::Other`]. O(1): `TAG_NAMES` lists the tags in
    /// discriminant order.
    pub fn name(self) -> &'static str {
        match self {
            Tag::Other => "?",
            t => TAG_NAMES[t as usize - 1].0,
        }
    }

    /// Block-level elements: their start tags and end tags are virtual-line boundaries (see
    /// [`crate::page::lines`]). The list is HTML's block-level / flow-structuring elements plus
    /// `br`, `hr`, table parts, list items, form structure and `head` elements that occupy their
    /// own lines in pretty-printed sources.
    pub fn is_block(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Address
                | Article
                | Aside
                | Blockquote
                | Body
                | Br
                | Caption
                | Center
                | Dd
                | Details
                | Dialog
                | Dir
                | Div
                | Dl
                | Dt
                | Fieldset
                | Figcaption
                | Figure
                | Footer
                | Form
                | Frameset
                | H1
                | H2
                | H3
                | H4
                | H5
                | H6
                | Head
                | Header
                | Hgroup
                | Hr
                | Html
                | Iframe
                | Legend
                | Li
                | Link
                | Main
                | Menu
                | Meta
                | Nav
                | Noscript
                | Ol
                | Optgroup
                | Option
                | P
                | Pre
                | Section
                | Select
                | Summary
                | Table
                | Tbody
                | Td
                | Textarea
                | Tfoot
                | Th
                | Thead
                | Title
                | Tr
                | Ul
        )
    }
}

/// Flags of a tag span.
pub mod flags {
    /// The span is an end tag (`</…>`).
    pub const END: u8 = 1;
    /// The start tag ends with `/>`.
    pub const SELF_CLOSING: u8 = 2;
    /// The tag was cut off by the end of the file.
    pub const UNTERMINATED: u8 = 4;
}

/// One lexical run of the text: bytes `start..end` of one class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First byte (inclusive).
    pub start: u32,
    /// Last byte (exclusive).
    pub end: u32,
    /// What the bytes are.
    pub class: ByteClass,
    /// For [`ByteClass::Tag`] spans, the interned tag name; [`Tag::Other`] otherwise.
    pub tag: Tag,
    /// For tag spans, a combination of [`flags`].
    pub flags: u8,
}

impl Span {
    /// The byte range.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// True for a start tag of `tag`.
    pub fn is_start(&self, tag: Tag) -> bool {
        self.class == ByteClass::Tag && self.tag == tag && self.flags & flags::END == 0
    }

    /// True for an end tag of `tag`.
    pub fn is_end(&self, tag: Tag) -> bool {
        self.class == ByteClass::Tag && self.tag == tag && self.flags & flags::END != 0
    }
}

/// The lexed page: spans tiling the text.
#[derive(Debug, Clone, Default)]
pub struct Lexed {
    /// Spans in text order; they tile `0..text.len()` exactly.
    pub spans: Vec<Span>,
}

impl Lexed {
    /// The class of byte `offset`, by binary search over the spans (O(log spans)); `None` past
    /// the end.
    pub fn class_at(&self, offset: usize) -> Option<ByteClass> {
        self.span_index_at(offset).map(|i| self.spans[i].class)
    }

    /// Index of the span containing byte `offset`.
    pub fn span_index_at(&self, offset: usize) -> Option<usize> {
        let i = self.spans.partition_point(|s| (s.end as usize) <= offset);
        (i < self.spans.len() && (self.spans[i].start as usize) <= offset).then_some(i)
    }

    /// One [`ByteClass`] per byte of the text (n bytes of memory).
    pub fn byte_classes(&self) -> Vec<ByteClass> {
        let len = self.spans.last().map_or(0, |s| s.end as usize);
        let mut out = vec![ByteClass::Text; len];
        for s in &self.spans {
            out[s.range()].fill(s.class);
        }
        out
    }

    /// Total bytes per class, indexed by the class discriminant.
    pub fn class_totals(&self) -> [usize; 7] {
        let mut t = [0usize; 7];
        for s in &self.spans {
            t[s.class as usize] += (s.end - s.start) as usize;
        }
        t
    }
}

struct Lexer {
    spans: Vec<Span>,
}

impl Lexer {
    fn push(&mut self, start: usize, end: usize, class: ByteClass, tag: Tag, flags: u8) {
        if end <= start {
            return;
        }
        // Merge adjacent text runs (a stray `<` leaves text on both sides).
        if class == ByteClass::Text {
            if let Some(last) = self.spans.last_mut() {
                if last.class == ByteClass::Text && last.end as usize == start {
                    last.end = end as u32;
                    return;
                }
            }
        }
        self.spans.push(Span {
            start: start as u32,
            end: end as u32,
            class,
            tag,
            flags,
        });
    }
}

pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

/// Options of [`lex_with`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LexOptions {
    /// The HTML scripting flag, as [`crate::page::DomOptions::scripting_enabled`]: when true,
    /// the content of `<noscript>` is raw text, classed [`ByteClass::Script`] (a browser with
    /// JavaScript never shows it); when false (the default) it is markup and text.
    pub scripting: bool,
}

/// Lexes `text` with the default options (scripting off); see the module documentation for
/// the rules.
///
/// Texts over 4 GiB − 1 bytes are not supported (offsets are `u32`); the loader refuses inputs
/// over 1 GiB, so callers never reach that.
pub fn lex(text: &str) -> Lexed {
    lex_with(text, LexOptions::default())
}

/// Lexes `text` (see the module documentation for the rules) with `opts`.
pub fn lex_with(text: &str, opts: LexOptions) -> Lexed {
    let b = text.as_bytes();
    let n = b.len();
    let mut lx = Lexer {
        spans: Vec::with_capacity(n / 24 + 4),
    };
    let mut cx = Context::new(opts.scripting);
    let mut pos = 0usize; // start of the pending text run
    let mut scan = 0usize; // where to look for the next '<'
    while scan < n {
        let Some(off) = memchr(b'<', &b[scan..]) else {
            break;
        };
        let lt = scan + off;
        let next = b.get(lt + 1).copied().unwrap_or(0);
        let end;
        let mut raw: Option<Raw> = None;
        if next.is_ascii_alphabetic() {
            lx.push(pos, lt, cx.text_class(), Tag::Other, 0);
            let (e, tag, fl, name_end) = lex_tag(b, lt + 1);
            lx.push(lt, e, ByteClass::Tag, tag, fl);
            if fl & flags::UNTERMINATED == 0 {
                let self_closing = fl & flags::SELF_CLOSING != 0;
                raw = cx.start_tag(b, (lt + 1, name_end), tag, self_closing, &b[lt..e]);
            }
            end = e;
        } else if next == b'/' && lt + 2 < n {
            let n2 = b[lt + 2];
            lx.push(pos, lt, cx.text_class(), Tag::Other, 0);
            if n2.is_ascii_alphabetic() {
                let (e, tag, fl, name_end) = lex_tag(b, lt + 2);
                lx.push(lt, e, ByteClass::Tag, tag, fl | flags::END);
                if fl & flags::UNTERMINATED == 0 {
                    cx.end_tag(b, (lt + 2, name_end));
                }
                end = e;
            } else if n2 == b'>' {
                end = lt + 3;
                lx.push(lt, end, ByteClass::Tag, Tag::Other, flags::END);
            } else {
                end = to_gt(b, lt + 2);
                lx.push(lt, end, ByteClass::Comment, Tag::Other, 0);
            }
        } else if next == b'!' {
            lx.push(pos, lt, cx.text_class(), Tag::Other, 0);
            let rest = &b[lt + 2..];
            if rest.starts_with(b"--") {
                end = comment_end(b, lt + 4);
                lx.push(lt, end, ByteClass::Comment, Tag::Other, 0);
            } else if rest.starts_with(b"[CDATA[") && cx.cdata() {
                // A CDATA section (in SVG / MathML): delimiters apart, the content is
                // character data of the element it is in; unclosed, it runs to the end.
                let body = lt + 9;
                lx.push(lt, body, ByteClass::Cdata, Tag::Other, 0);
                match memchr::memmem::find(&b[body..], b"]]>") {
                    Some(i) => {
                        lx.push(body, body + i, cx.text_class(), Tag::Other, 0);
                        end = body + i + 3;
                        lx.push(body + i, end, ByteClass::Cdata, Tag::Other, 0);
                    }
                    None => {
                        end = n;
                        lx.push(body, end, cx.text_class(), Tag::Other, 0);
                    }
                }
            } else if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
                end = to_gt(b, lt + 2);
                lx.push(lt, end, ByteClass::Declaration, Tag::Other, 0);
            } else {
                // A bogus comment (also `<![CDATA[` in HTML content) up to the next `>`.
                end = to_gt(b, lt + 2);
                lx.push(lt, end, ByteClass::Comment, Tag::Other, 0);
            }
        } else if next == b'?' {
            lx.push(pos, lt, cx.text_class(), Tag::Other, 0);
            end = to_gt(b, lt + 2);
            lx.push(lt, end, ByteClass::Declaration, Tag::Other, 0);
        } else {
            // A '<' that starts no markup (also `</` at the end of the file) is text; keep
            // the pending run open.
            scan = lt + 1;
            continue;
        }
        pos = end;
        scan = end;
        if let Some(r) = raw {
            let body_end = match r.kind {
                RawKind::Plaintext => n,
                RawKind::Script => context::script_end(b, end),
                RawKind::Text => find_end_tag(b, end, r.tag.name().as_bytes()),
            };
            lx.push(end, body_end, r.class, Tag::Other, 0);
            pos = body_end;
            scan = body_end;
        }
    }
    lx.push(pos, n, cx.text_class(), Tag::Other, 0);
    Lexed { spans: lx.spans }
}

/// The byte offset of the next `>` at or after `from`; `None` when there is none (a bogus
/// comment or doctype then runs to the end of the input).
pub(crate) fn next_gt(b: &[u8], from: usize) -> Option<usize> {
    memchr(b'>', b.get(from..).unwrap_or(&[])).map(|i| from + i)
}

/// Position just past the next `>` at or after `from`, or the end of the input.
fn to_gt(b: &[u8], from: usize) -> usize {
    next_gt(b, from).map_or(b.len(), |g| g + 1)
}

/// The end (just past its `>`) of the closing of a comment whose body starts at `body` (just
/// after `<!--`): the abrupt `<!-->` and `<!--->` (end at most `body + 2`), else the first `>`
/// after `--` or `--!` (13.2.5.43–13.2.5.52). `None` for a comment the end of the input cuts
/// off. Byte offsets.
pub(crate) fn comment_close(b: &[u8], body: usize) -> Option<usize> {
    let rest = b.get(body..)?;
    if rest.starts_with(b">") {
        return Some(body + 1);
    }
    if rest.starts_with(b"->") {
        return Some(body + 2);
    }
    let mut from = body;
    while let Some(gt) = next_gt(b, from) {
        let before = &b[body..gt];
        if before.ends_with(b"--") || before.ends_with(b"--!") {
            return Some(gt + 1);
        }
        from = gt + 1;
    }
    None
}

/// End of a comment whose body starts at `body` (just after `<!--`): [`comment_close`], or the
/// end of the input for an unclosed one.
fn comment_end(b: &[u8], body: usize) -> usize {
    comment_close(b, body).unwrap_or(b.len())
}

/// What [`scan_tag`] reports besides a tag's extent: its attributes' names and values as byte
/// ranges of the text, in source order (a value belongs to the name reported before it; an
/// attribute without `=` reports no value). The lexer ignores them ([`Extent`]); the DOM's
/// tokenizer decodes them (`page::dom::tokenize`).
pub(crate) trait TagVisitor {
    /// An attribute name: bytes `r` (source case; its first byte may be `=`).
    fn name(&mut self, r: std::ops::Range<usize>);
    /// The value of the last named attribute: bytes `r` (quotes excluded; undecoded).
    fn value(&mut self, r: std::ops::Range<usize>);
}

/// A [`TagVisitor`] that keeps nothing: the tag's extent alone.
pub(crate) struct Extent;

impl TagVisitor for Extent {
    #[inline(always)]
    fn name(&mut self, _r: std::ops::Range<usize>) {}
    #[inline(always)]
    fn value(&mut self, _r: std::ops::Range<usize>) {}
}

fn lex_tag(b: &[u8], name_start: usize) -> (usize, Tag, u8, usize) {
    scan_tag(b, name_start, &mut Extent)
}

/// Scans a tag whose name starts at `name_start` (just after `<` or `</`), reporting its
/// attributes to `v`. Returns the end (just past `>`, or the end of the input with
/// [`flags::UNTERMINATED`]), the interned name, flags and the end of the name (bytes).
///
/// The tag states of the HTML tokenizer (HTML Standard 13.2.5.8 tag name, 13.2.5.32–13.2.5.40
/// attributes, 13.2.5.40 self-closing start tag): a tag name ends at white space, `/` or `>`;
/// an attribute name at white space, `/`, `>` or `=` (its first character may be `=`); a
/// quote opens a value only where a value starts (after `=` and optional white space), so
/// `a"b`, `x=y"` and `x=="` hold no quoted value; an unquoted value ends at white space or
/// `>`; `/` marks the tag self-closing only right before its `>`, elsewhere it separates
/// attributes.
pub(crate) fn scan_tag<V: TagVisitor>(
    b: &[u8],
    name_start: usize,
    v: &mut V,
) -> (usize, Tag, u8, usize) {
    let n = b.len();
    let mut i = name_start;
    while i < n && !is_ws(b[i]) && b[i] != b'/' && b[i] != b'>' {
        i += 1;
    }
    let name_end = i;
    let tag = Tag::from_name(&b[name_start..i]);
    let cut = (n, tag, flags::UNTERMINATED, name_end);
    loop {
        // Before attribute name (also after a value, and after `/` not followed by `>`).
        while i < n && is_ws(b[i]) {
            i += 1;
        }
        let Some(&c) = b.get(i) else { return cut };
        match c {
            b'>' => return (i + 1, tag, 0, name_end),
            b'/' => {
                if b.get(i + 1) == Some(&b'>') {
                    return (i + 2, tag, flags::SELF_CLOSING, name_end);
                }
                i += 1;
                continue;
            }
            _ => {}
        }
        // Attribute name: its first character is taken whatever it is (`=` included).
        let a = i;
        i += 1;
        while i < n && !is_ws(b[i]) && !matches!(b[i], b'/' | b'>' | b'=') {
            i += 1;
        }
        v.name(a..i);
        // After attribute name.
        while i < n && is_ws(b[i]) {
            i += 1;
        }
        if i >= n {
            return cut;
        }
        if b[i] != b'=' {
            continue;
        }
        // Before attribute value.
        i += 1;
        while i < n && is_ws(b[i]) {
            i += 1;
        }
        let Some(&c) = b.get(i) else { return cut };
        match c {
            b'"' | b'\'' => match memchr(c, &b[i + 1..]) {
                Some(e) => {
                    v.value(i + 1..i + 1 + e);
                    i += e + 2;
                }
                None => return cut,
            },
            b'>' => return (i + 1, tag, 0, name_end),
            _ => {
                let s = i;
                while i < n && !is_ws(b[i]) && b[i] != b'>' {
                    i += 1;
                }
                v.value(s..i);
            }
        }
    }
}

/// Finds the start of the end tag `</name` (ASCII case-insensitive, followed by white space,
/// `/` or `>`; not at the end of the file) at or after `from`; returns `b.len()` if there is
/// none.
pub(crate) fn find_end_tag(b: &[u8], from: usize, name: &[u8]) -> usize {
    let n = b.len();
    let mut i = from;
    while i < n {
        let Some(off) = memchr(b'<', &b[i..]) else {
            return n;
        };
        let lt = i + off;
        if context::is_end_tag(b, lt, name) {
            return lt;
        }
        i = lt + 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(text: &str) -> Vec<(String, ByteClass)> {
        lex(text)
            .spans
            .iter()
            .map(|s| (text[s.range()].to_string(), s.class))
            .collect()
    }

    fn check_tiling(text: &str) {
        let lx = lex(text);
        let mut at = 0u32;
        for s in &lx.spans {
            assert_eq!(s.start, at, "spans must be contiguous in {text:?}");
            assert!(s.end > s.start, "empty span in {text:?}");
            at = s.end;
        }
        assert_eq!(at as usize, text.len());
    }

    use ByteClass::{Cdata, Comment, Declaration, Script, Style, Text};

    #[test]
    fn simple_document() {
        let t = "<!DOCTYPE html><html><p class=x>Hi &amp; bye</p></html>";
        check_tiling(t);
        let c = classes(t);
        assert_eq!(c[0], ("<!DOCTYPE html>".into(), Declaration));
        assert_eq!(c[3], ("Hi &amp; bye".into(), Text));
        let lx = lex(t);
        assert!(lx.spans[2].is_start(Tag::P));
        assert!(lx.spans[4].is_end(Tag::P));
    }

    #[test]
    fn comment_containing_tags() {
        let t = "a<!-- <div class=\"ad\"> -->b";
        let c = classes(t);
        assert_eq!(c[1], ("<!-- <div class=\"ad\"> -->".into(), Comment));
        assert_eq!(c[2], ("b".into(), Text));
    }

    #[test]
    fn comment_forms() {
        assert_eq!(classes("<!---->x")[0].0, "<!---->");
        assert_eq!(classes("<!-->x")[0].0, "<!-->");
        assert_eq!(classes("<!--->x")[0].0, "<!--->");
        assert_eq!(classes("<!-- a --!>x")[0].0, "<!-- a --!>");
        assert_eq!(classes("<!-- a -> b -->x")[0].0, "<!-- a -> b -->");
        assert_eq!(classes("<!bogus>x")[0], ("<!bogus>".into(), Comment));
        assert_eq!(classes("</ x>y")[0], ("</ x>".into(), Comment));
    }

    #[test]
    fn unclosed_comment_runs_to_end() {
        let t = "<p>a</p><!-- never closed <p>b</p>";
        check_tiling(t);
        let c = classes(t);
        assert_eq!(
            c.last().unwrap(),
            &("<!-- never closed <p>b</p>".into(), Comment)
        );
    }

    #[test]
    fn script_containing_end_div() {
        let t = "<script>var s = \"</div>\"; if (a < b && c > d) {}</script><p>x</p>";
        check_tiling(t);
        let c = classes(t);
        assert_eq!(
            c[1],
            ("var s = \"</div>\"; if (a < b && c > d) {}".into(), Script)
        );
        assert_eq!(c[2], ("</script>".into(), ByteClass::Tag));
        assert_eq!(c[4], ("x".into(), Text));
    }

    #[test]
    fn unclosed_script_runs_to_end() {
        let t = "<p>a</p><script>document.write('<p>b</p>')";
        check_tiling(t);
        let c = classes(t);
        assert_eq!(
            c.last().unwrap(),
            &("document.write('<p>b</p>')".into(), Script)
        );
    }

    #[test]
    fn quoted_gt_in_attributes() {
        let t = "<a title=\"c>d\" data-q='a>b'>link</a>";
        let c = classes(t);
        assert_eq!(
            c[0],
            ("<a title=\"c>d\" data-q='a>b'>".into(), ByteClass::Tag)
        );
        assert_eq!(c[1], ("link".into(), Text));
    }

    #[test]
    fn unquoted_and_stray_quotes() {
        let t = "<img alt=x src=y.png>z";
        assert_eq!(classes(t)[1], ("z".into(), Text));
        // A quote inside an attribute name does not open a value.
        let t = "<div a\"b>z";
        assert_eq!(classes(t)[1], ("z".into(), Text));
    }

    #[test]
    fn upper_case_tags() {
        let t = "<P>x</P><SCRIPT>y</div></SCRIPT><Style>z</STYLE>";
        check_tiling(t);
        let lx = lex(t);
        assert!(lx.spans[0].is_start(Tag::P));
        let c = classes(t);
        assert_eq!(c[4], ("y</div>".into(), Script));
        assert_eq!(c[7], ("z".into(), Style));
    }

    #[test]
    fn rcdata_title_and_textarea_are_text() {
        let t = "<title>A <b>bold</b> title</title><textarea><p>x</p></textarea>";
        let c = classes(t);
        assert_eq!(c[1], ("A <b>bold</b> title".into(), Text));
        assert_eq!(c[4], ("<p>x</p>".into(), Text));
    }

    #[test]
    fn end_tag_name_must_be_delimited() {
        let t = "<script>a</scripts>b</script >c";
        let c = classes(t);
        assert_eq!(c[1], ("a</scripts>b".into(), Script));
        assert_eq!(c[2], ("</script >".into(), ByteClass::Tag));
    }

    #[test]
    fn stray_lt_is_text() {
        let t = "1 < 2 and <3 <> x";
        let c = classes(t);
        assert_eq!(c, vec![(t.to_string(), Text)]);
    }

    #[test]
    fn cdata_and_pi() {
        // In SVG: a CDATA section, its content character data.
        let t = "<svg><![CDATA[ raw <b> ]]></svg><?php echo 1 ?>x";
        let c = classes(t);
        assert_eq!(c[1], ("<![CDATA[".into(), Cdata));
        assert_eq!(c[2], (" raw <b> ".into(), Text));
        assert_eq!(c[3], ("]]>".into(), Cdata));
        assert_eq!(c[5], ("<?php echo 1 ?>".into(), Declaration));
        // In HTML content: a bogus comment to the next `>` (the standard's reading).
        let t = "<p><![CDATA[ a > b ]]></p>";
        let c = classes(t);
        assert_eq!(c[1], ("<![CDATA[ a >".into(), Comment));
        assert_eq!(c[2], (" b ]]>".into(), Text));
        // Unclosed: the same, the text after it stays text.
        let t = "<p><![CDATA[ x ></p><p>Post text</p>";
        check_tiling(t);
        let c = classes(t);
        assert_eq!(c[1], ("<![CDATA[ x >".into(), Comment));
        assert!(c.contains(&("Post text".into(), Text)), "{c:?}");
    }

    #[test]
    fn tag_cut_off_at_eof() {
        let t = "<p>a</p><div class=\"x";
        check_tiling(t);
        let lx = lex(t);
        let last = lx.spans.last().unwrap();
        assert_eq!(last.class, ByteClass::Tag);
        assert!(last.flags & flags::UNTERMINATED != 0);
    }

    #[test]
    fn class_at_and_byte_classes() {
        let t = "ab<i>c</i>";
        let lx = lex(t);
        assert_eq!(lx.class_at(0), Some(Text));
        assert_eq!(lx.class_at(2), Some(ByteClass::Tag));
        assert_eq!(lx.class_at(5), Some(Text));
        assert_eq!(lx.class_at(10), None);
        assert_eq!(lx.byte_classes().len(), t.len());
        assert_eq!(lx.class_totals()[Text as usize], 3);
    }

    #[test]
    fn deep_nesting_is_flat() {
        let t = "<div>".repeat(100_000) + "x" + &"</div>".repeat(100_000);
        let lx = lex(&t);
        assert_eq!(lx.spans.len(), 200_001);
    }

    #[test]
    fn tag_interning() {
        assert_eq!(Tag::from_name(b"DIV"), Tag::Div);
        assert_eq!(Tag::from_name(b"blockquote"), Tag::Blockquote);
        assert_eq!(Tag::from_name(b"custom-element"), Tag::Other);
        assert_eq!(Tag::Div.name(), "div");
        assert_eq!(Tag::Other.name(), "?");
        // TAG_NAMES lists the tags in discriminant order (`Tag::name` indexes it) and every
        // name fits the hash key.
        for (i, (name, tag)) in TAG_NAMES.iter().enumerate() {
            assert_eq!(*tag as usize, i + 1, "{name}");
            assert_eq!(tag.name(), *name);
            assert!(!name.is_empty() && name.len() <= name_hash::MAX_NAME);
            assert_eq!(Tag::from_name(name.to_ascii_uppercase().as_bytes()), *tag);
        }
        assert!(TAG_NAMES.windows(2).all(|w| w[0].0 < w[1].0));
        // Near misses: a prefix, an extension, a NUL-padded name, a non-ASCII case fold.
        for miss in [
            &b"di"[..],
            b"divv",
            b"a\0",
            b"h7",
            b"scrip",
            b"\xC4\xB0mg",
            b"",
        ] {
            assert_eq!(Tag::from_name(miss), Tag::Other, "{miss:?}");
        }
    }

    /// The old lookup, kept as the reference: ASCII case-insensitive equality with each name.
    fn from_name_reference(name: &[u8]) -> Tag {
        TAG_NAMES
            .iter()
            .find(|(n, _)| n.as_bytes().eq_ignore_ascii_case(name))
            .map_or(Tag::Other, |(_, t)| *t)
    }

    proptest::proptest! {
        #[test]
        fn from_name_matches_reference_on_any_bytes(name in proptest::collection::vec(proptest::num::u8::ANY, 0..12)) {
            proptest::prop_assert_eq!(Tag::from_name(&name), from_name_reference(&name));
        }

        #[test]
        fn from_name_matches_reference_on_mixed_case_names(
            i in 0..TAG_NAMES.len(),
            upper in proptest::collection::vec(proptest::bool::ANY, 10),
            edit in proptest::option::of((0usize..10, proptest::num::u8::ANY)),
        ) {
            let mut name: Vec<u8> = TAG_NAMES[i].0.bytes().zip(&upper)
                .map(|(c, &u)| if u { c.to_ascii_uppercase() } else { c })
                .collect();
            if let Some((at, b)) = edit {
                let at = at % name.len();
                name[at] = b;
            }
            proptest::prop_assert_eq!(Tag::from_name(&name), from_name_reference(&name));
        }
    }
}
