//! The tokenizer: the page's text read by the HTML tokenizer's rules (HTML Standard 13.2.5), each
//! token handed to html5ever's tree builder with its byte span in the decoded text, and the
//! current token's span handed to the tree sink.
//!
//! The extents of tags, comments, raw text and script data are the lexer's
//! ([`crate::page::lex::scan_tag`], `comment_end`, `find_end_tag`, `script_end`: one reading of
//! where markup is for the byte classes and for the tree); this module adds what a token
//! carries: names in lower case, attribute values and character data with their character
//! references decoded (htmlize: the Standard's named and numeric references, the attribute
//! rule for references without `;`), CR LF and CR read as LF, NUL as U+FFFD where the tokenizer
//! replaces it, comment and doctype data. The tree builder drives the text states (RCDATA,
//! RAWTEXT, script data, PLAINTEXT: what it returns for a start tag) and says where CDATA
//! sections are (foreign content), as it drives a browser's tokenizer.

use std::borrow::Cow;
use std::ops::Range;

use html5ever::interface::Tracer;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    Doctype as HDoctype, Tag as HTag, TagKind, Token as HToken, TokenSink, TokenSinkResult,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{ns, Attribute, LocalName, QualName};
use memchr::memchr;
use rustc_hash::{FxHashMap, FxHashSet};

use super::sink::{PosSink, Stamp, TextSrc, TokKind};
use super::tree::{Id, Tree};
use super::DomOptions;
use crate::page::lex::{self, flags, TagVisitor};

/// How the tokenizer reads the character data at the current position: the data state, or the
/// text state the tree builder switched it to after a start tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read {
    /// Markup and text (13.2.5.1).
    Data,
    /// RCDATA (`title`, `textarea`): text with character references, to the end tag.
    Rcdata,
    /// RAWTEXT (`style`, `xmp`, `iframe`, `noembed`, `noframes`, `noscript` with scripting).
    Rawtext,
    /// Script data, with its escape states.
    ScriptData,
    /// PLAINTEXT: the rest of the file.
    Plaintext,
}

/// How a run of character data is decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chars {
    /// Data: character references decoded, NUL kept (the tree builder drops it or replaces it).
    Data,
    /// RCDATA: character references decoded, NUL as U+FFFD.
    Rcdata,
    /// RAWTEXT, script data, PLAINTEXT: NUL as U+FFFD.
    Raw,
    /// A CDATA section: as written (NUL kept).
    Cdata,
}

/// Tokenizes `text` and builds the tree from it through the positioned sink: the tree and the
/// span stamps of its nodes (see the module documentation of [`super`]).
pub(super) fn parse(text: &str, opts: &DomOptions) -> (Tree, Vec<Stamp>) {
    let sink = PosSink::new(text.len());
    sink.text.set(text);
    let tb = TreeBuilder::new(
        sink,
        TreeBuilderOpts {
            scripting_enabled: opts.scripting_enabled,
            ..Default::default()
        },
    );
    {
        let mut cb = Cb {
            tb: &tb,
            text,
            whole: StrTendril::from_slice(text),
            next_state: None,
            last_start: LocalName::from(""),
            atoms: FxHashMap::default(),
            tag_atoms: vec![None; 256],
            stack: Vec::new(),
            suppressed: Vec::new(),
        };
        cb.run();
    }
    tb.sink.into_parts()
}

struct Cb<'a, 't> {
    tb: &'a TreeBuilder<Id, PosSink<'t>>,
    text: &'t str,
    /// `text` as one tendril: character data and attribute values that are their own source go
    /// to the tree builder as slices of it (shared, no copy per token).
    whole: StrTendril,
    /// The text state the tree builder asked for with the token just processed.
    next_state: Option<Read>,
    /// The name of the last start tag (whose end tag ends RCDATA and RAWTEXT).
    last_start: LocalName,
    /// Tag and attribute names met so far, by their source bytes (any case): one atom lookup
    /// per distinct spelling instead of one per tag.
    atoms: FxHashMap<&'t [u8], LocalName>,
    /// The atoms of the tags the lexer interns, by [`lex::Tag`] discriminant.
    tag_atoms: Vec<Option<LocalName>>,
    /// Elements opened by a start tag and not yet closed (as far as end tags tell).
    stack: Vec<(Id, LocalName)>,
    /// Start tags ignored by the depth cap ([`MAX_DEPTH`]), innermost last, so their end tags
    /// are ignored too.
    suppressed: Vec<LocalName>,
}

/// The deepest nesting of elements the DOM builds. Browsers cap it too (Blink's parser stops
/// nesting at 512 and inserts deeper elements as siblings): without a cap, html5ever's scope
/// checks make a page of 100 000 nested `<div>`s cost O(depth²) (39 s measured, release build).
/// Past the cap, further start tags (and their matching end tags) are ignored — their bytes are
/// in no node, like other tags the tree builder ignores — and their text goes into the deepest
/// element. Real pages nest a few dozen levels.
pub const MAX_DEPTH: usize = 512;

/// HTML void elements (no content, no end tag).
// Inlined whatever the split into codegen units (docs/speed.md, 2026-11-30).
#[inline]
fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "basefont"
            | "bgsound"
            | "br"
            | "col"
            | "embed"
            | "frame"
            | "hr"
            | "img"
            | "input"
            | "keygen"
            | "link"
            | "meta"
            | "param"
            | "source"
            | "track"
            | "wbr"
    )
}

impl<'a, 't> Cb<'a, 't> {
    fn sink(&self) -> &PosSink<'t> {
        &self.tb.sink
    }

    fn process(&mut self, kind: TokKind, span: (usize, usize), token: HToken) {
        let s = self.sink();
        s.kind.set(kind);
        s.span.set(span);
        let r = self.tb.process_token(token, 1);
        self.next_state = match r {
            TokenSinkResult::Continue | TokenSinkResult::EncodingIndicator(_) => None,
            TokenSinkResult::Script(_) => Some(Read::Data),
            TokenSinkResult::Plaintext => Some(Read::Plaintext),
            TokenSinkResult::RawData(RawKind::Rcdata) => Some(Read::Rcdata),
            TokenSinkResult::RawData(RawKind::Rawtext) => Some(Read::Rawtext),
            TokenSinkResult::RawData(_) => Some(Read::ScriptData),
        };
    }

    /// Is the tree at least [`MAX_DEPTH`] deep at the insertion point? Checked only when our
    /// own stack is that long (it over-counts elements closed implicitly, e.g. unclosed `<p>`s),
    /// by walking at most [`MAX_DEPTH`] ancestors of the last inserted node.
    fn too_deep(&self) -> bool {
        if self.stack.len() < MAX_DEPTH {
            return false;
        }
        let Some(last) = self.sink().last_inserted.get() else {
            return false;
        };
        self.sink().tree.borrow().ancestors_up_to(last, MAX_DEPTH) >= MAX_DEPTH
    }

    /// The elements the tree builder still holds: on its stack of open elements, in its list
    /// of active formatting elements, or as its `<form>` pointer. O(open elements).
    fn open_handles(&self) -> Vec<Id> {
        struct Collect(std::cell::RefCell<Vec<Id>>);
        impl Tracer for Collect {
            type Handle = Id;
            fn trace_handle(&self, node: &Id) {
                self.0.borrow_mut().push(*node);
            }
        }
        let c = Collect(std::cell::RefCell::new(Vec::new()));
        self.tb.trace_handles(&c);
        c.0.into_inner()
    }

    /// Is `h` one of `html`, `head`, `body`, whose end tags end them in the source although the
    /// tree builder keeps `html` and `body` open (and its `<head>` pointer)?
    fn document_part(&self, h: Id) -> bool {
        self.sink()
            .tree
            .borrow()
            .is_html_named(h, &["html", "head", "body"])
    }

    fn start_tag(&mut self, tag: HTag, span: (usize, usize)) {
        if !is_void(&tag.name) && !tag.self_closing && self.too_deep() {
            self.suppressed.push(tag.name);
            return;
        }
        let name = tag.name.clone();
        self.last_start = name.clone();
        let self_closing = tag.self_closing;
        *self.sink().name.borrow_mut() = Some(name.clone());
        self.sink().created.set(None);
        self.process(TokKind::Start, span, HToken::TagToken(tag));
        if let Some(h) = self.sink().created.take() {
            self.sink().stamp(h, span.0..span.1, false);
            // The element's own name (`<image>` makes an `img`).
            let elem = self
                .sink()
                .tree
                .borrow()
                .name(h)
                .map(|e| (e.ns == ns!(html), e.local.clone()));
            let (html_ns, name) = elem.unwrap_or((true, name));
            let void = if html_ns {
                is_void(&name)
            } else {
                self_closing
            };
            if !void {
                self.stack.push((h, name));
            }
        }
        self.sink().texts.borrow_mut().clear();
    }

    fn end_tag(&mut self, name: LocalName, span: (usize, usize)) {
        if self.suppressed.last() == Some(&name) {
            self.suppressed.pop();
            return;
        }
        // Which open element does this end tag close? The nearest one of that name (from the
        // top of our stack) that is an ancestor-or-self of the last inserted node.
        let matched = {
            let last = self.sink().last_inserted.get();
            let tree = self.sink().tree.borrow();
            let mut found = None;
            for (k, (h, n)) in self.stack.iter().enumerate().rev() {
                if *n != name {
                    continue;
                }
                let open = last.is_some_and(|l| tree.is_ancestor_or_self(*h, l));
                if open {
                    found = Some(k);
                }
                break;
            }
            found
        };
        *self.sink().name.borrow_mut() = Some(name.clone());
        self.sink().created.set(None);
        let errors = self.sink().errors.get();
        self.process(
            TokKind::End,
            span,
            HToken::TagToken(HTag {
                kind: TagKind::EndTag,
                name,
                self_closing: false,
                attrs: Vec::new(),
                had_duplicate_attributes: false,
            }),
        );
        let created = self.sink().created.take().is_some();
        if let (Some(k), false) = (matched, created) {
            let h = self.stack[k].0;
            if self.sink().errors.get() == errors {
                // Processed without a parse error: the end tag closed its element and every
                // element above it.
                self.sink().stamp(h, span.0..span.1, true);
                self.stack.truncate(k);
            } else {
                // Only an end tag that closed its element is its end tag: the tree builder
                // ignores some, always with a parse error (`</div>` inside a table row, `</svg>`
                // inside `<svg><title><table>`); and an element above it may stay open
                // (`<form><div></form>`: the form alone leaves the stack).
                let open = self.open_handles();
                if self.document_part(h) || !open.contains(&h) {
                    self.sink().stamp(h, span.0..span.1, true);
                    let above: Vec<_> = self
                        .stack
                        .drain(k..)
                        .skip(1)
                        .filter(|(e, _)| open.contains(e))
                        .collect();
                    self.stack.extend(above);
                }
            }
        }
        self.sink().texts.borrow_mut().clear();
    }
}

/// `src`, the page text from byte `start`, as a tendril: a slice of `whole` (the page text as
/// one tendril: shared, no copy), or a copy where a slice cannot be made.
fn slice(whole: &StrTendril, start: usize, src: &str) -> StrTendril {
    u32::try_from(start)
        .ok()
        .zip(u32::try_from(src.len()).ok())
        .and_then(|(a, n)| whole.try_subtendril(a, n).ok())
        .unwrap_or_else(|| StrTendril::from_slice(src))
}

/// `s` with CR LF and lone CR read as LF (the input stream's preprocessing, 13.2.3.5).
fn newlines(s: &str) -> Cow<'_, str> {
    if memchr(b'\r', s.as_bytes()).is_none() {
        return Cow::Borrowed(s);
    }
    Cow::Owned(s.replace("\r\n", "\n").replace('\r', "\n"))
}

/// `s` with NUL as U+FFFD.
fn nul_to_fffd(s: Cow<'_, str>) -> Cow<'_, str> {
    if memchr(0, s.as_bytes()).is_none() {
        return s;
    }
    Cow::Owned(s.replace('\0', "\u{FFFD}"))
}

/// The character data `src` decoded as `how` reads it; `None` when that is `src` itself.
fn decode_chars(src: &str, how: Chars) -> Option<String> {
    let b = src.as_bytes();
    // Most runs hold none of the three bytes that change anything: one search for all three.
    memchr::memchr3(b'&', b'\r', 0, b)?;
    let refs = matches!(how, Chars::Data | Chars::Rcdata) && memchr(b'&', b).is_some();
    let nul = matches!(how, Chars::Rcdata | Chars::Raw) && memchr(0, b).is_some();
    if !refs && !nul && memchr(b'\r', b).is_none() {
        return None;
    }
    let mut s = newlines(src);
    if refs {
        s = Cow::Owned(htmlize::unescape(s).into_owned());
    }
    if nul {
        s = nul_to_fffd(s);
    }
    (s != src).then(|| s.into_owned())
}

/// A tag or attribute name as the tokenizer keeps it: ASCII upper case lowered, NUL as U+FFFD.
fn lower_name(raw: &str) -> Cow<'_, str> {
    if !raw.bytes().any(|c| c.is_ascii_uppercase() || c == 0) {
        return Cow::Borrowed(raw);
    }
    Cow::Owned(raw.to_ascii_lowercase().replace('\0', "\u{FFFD}"))
}

/// The data of a comment whose body (after `<!--`) is `body`, `closed` when a `-->` / `--!>`
/// (or the abrupt `>` / `->` at its start) ended it and that closing is not in `body` (13.2.5.43
/// to 13.2.5.52): `--` and `--!` before the `>` are not data; at the end of the file the dashes
/// and `--!` the comment states held back are dropped.
fn comment_data(body: &str, closed: bool) -> &str {
    body.strip_suffix("--!")
        .or_else(|| body.strip_suffix("--"))
        .or_else(|| body.strip_suffix('-').filter(|_| !closed))
        .unwrap_or(body)
}

/// A doctype token from the bytes after `<!DOCTYPE` up to its `>` (`closed`) or the end of the
/// file: the DOCTYPE states of 13.2.5.53 to 13.2.5.68 (name in lower case, the public and
/// system identifiers, the force-quirks flag).
fn doctype(body: &str, closed: bool) -> HDoctype {
    #[derive(Clone, Copy, PartialEq)]
    enum D {
        Start,
        BeforeName,
        Name,
        AfterName,
        AfterPublicKeyword,
        BeforePublic,
        Public(u8),
        AfterPublic,
        Between,
        AfterSystemKeyword,
        BeforeSystem,
        System(u8),
        AfterSystem,
        Bogus,
    }
    let body = nul_to_fffd(newlines(body));
    let b = body.as_bytes();
    // The tokenizer's white space (CR is read as LF by now).
    let ws = lex::is_ws;
    let (mut name, mut public, mut system) = (None::<Vec<u8>>, None::<Vec<u8>>, None::<Vec<u8>>);
    let mut quirks = false;
    let mut s = D::Start;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let keyword = |k: &[u8]| b.len() >= i + 6 && b[i..i + 6].eq_ignore_ascii_case(k);
        match s {
            D::Start => {
                s = D::BeforeName;
                if ws(c) {
                    i += 1;
                }
                continue;
            }
            D::BeforeName if ws(c) => {}
            D::BeforeName => {
                name = Some(vec![c.to_ascii_lowercase()]);
                s = D::Name;
            }
            D::Name if ws(c) => s = D::AfterName,
            D::Name => name
                .get_or_insert_with(Vec::new)
                .push(c.to_ascii_lowercase()),
            D::AfterName if ws(c) => {}
            D::AfterName if keyword(b"public") => {
                s = D::AfterPublicKeyword;
                i += 6;
                continue;
            }
            D::AfterName if keyword(b"system") => {
                s = D::AfterSystemKeyword;
                i += 6;
                continue;
            }
            D::AfterPublicKeyword | D::BeforePublic if c == b'"' || c == b'\'' => {
                public = Some(Vec::new());
                s = D::Public(c);
            }
            D::AfterPublicKeyword if ws(c) => s = D::BeforePublic,
            D::BeforePublic | D::Between | D::BeforeSystem | D::AfterSystem if ws(c) => {}
            D::Public(q) | D::System(q) if c == q => {
                s = if matches!(s, D::Public(_)) {
                    D::AfterPublic
                } else {
                    D::AfterSystem
                };
            }
            D::Public(_) => public.get_or_insert_with(Vec::new).push(c),
            D::System(_) => system.get_or_insert_with(Vec::new).push(c),
            D::AfterPublic if ws(c) => s = D::Between,
            D::AfterPublic | D::Between | D::AfterSystemKeyword | D::BeforeSystem
                if c == b'"' || c == b'\'' =>
            {
                system = Some(Vec::new());
                s = D::System(c);
            }
            D::AfterSystemKeyword if ws(c) => s = D::BeforeSystem,
            D::AfterSystem => s = D::Bogus,
            D::Bogus => {}
            _ => {
                // Anything else after the name: a bogus doctype, in quirks mode.
                quirks = true;
                s = D::Bogus;
                continue;
            }
        }
        i += 1;
    }
    // The `>` (or the end of the file) in the state reached.
    quirks |= match s {
        D::Name | D::AfterName | D::AfterPublic | D::Between | D::AfterSystem => !closed,
        D::Bogus => false,
        _ => true,
    };
    let t = |v: Vec<u8>| StrTendril::from(String::from_utf8_lossy(&v).into_owned());
    HDoctype {
        name: name.map(t),
        public_id: public.map(t),
        system_id: system.map(t),
        force_quirks: quirks,
    }
}

/// Collects a start tag's attributes for the tree builder from [`lex::scan_tag`]'s ranges: names
/// lowered, a repeated name dropped with its value (13.2.5.33), values decoded by the attribute
/// rules (references without `;` kept before `=` or an alphanumeric).
struct Attrs<'c, 't> {
    text: &'t str,
    whole: &'c StrTendril,
    atoms: &'c mut FxHashMap<&'t [u8], LocalName>,
    out: Vec<Attribute>,
    /// The names so far, once there are [`MANY_ATTRS`] of them.
    seen: Option<FxHashSet<LocalName>>,
    /// The last name was a repeat: its value is dropped too.
    skip: bool,
    duplicate: bool,
}

/// Attributes of one tag past which [`Attrs`] finds repeated names with a set.
const MANY_ATTRS: usize = 32;

/// The atom of the name at `r` of `text`, from `atoms` when that spelling was met before.
// Inlined whatever the split into codegen units (docs/speed.md, 2026-11-30).
#[inline]
fn atom<'t>(
    atoms: &mut FxHashMap<&'t [u8], LocalName>,
    text: &'t str,
    r: Range<usize>,
) -> LocalName {
    let raw = &text[r];
    if let Some(a) = atoms.get(raw.as_bytes()) {
        return a.clone();
    }
    let a = LocalName::from(&*lower_name(raw));
    atoms.insert(raw.as_bytes(), a.clone());
    a
}

impl TagVisitor for Attrs<'_, '_> {
    fn name(&mut self, r: Range<usize>) {
        let local = atom(self.atoms, self.text, r);
        // A linear search among a tag's first attributes; a set past them, so a tag with
        // very many attributes costs O(attributes), not O(attributes²).
        let repeated = if self.out.len() < MANY_ATTRS {
            self.out.iter().any(|a| a.name.local == local)
        } else {
            let seen = self
                .seen
                .get_or_insert_with(|| self.out.iter().map(|a| a.name.local.clone()).collect());
            !seen.insert(local.clone())
        };
        if repeated {
            self.duplicate = true;
            self.skip = true;
        } else {
            self.skip = false;
            self.out.push(Attribute {
                name: QualName::new(None, ns!(), local),
                value: StrTendril::new(),
            });
        }
    }

    fn value(&mut self, r: Range<usize>) {
        if self.skip {
            return;
        }
        let Some(a) = self.out.last_mut() else { return };
        let src = &self.text[r.clone()];
        if memchr::memchr3(b'&', b'\r', 0, src.as_bytes()).is_none() {
            a.value = slice(self.whole, r.start, src);
            return;
        }
        let v = nul_to_fffd(Cow::Owned(
            htmlize::unescape_attribute(newlines(src)).into_owned(),
        ));
        a.value = StrTendril::from(v.into_owned());
    }
}

impl<'t> Cb<'_, 't> {
    /// The tokenizer's loop over the whole text: markup found where the lexer finds it, each
    /// token processed by the tree builder as soon as it is complete.
    fn run(&mut self) {
        let text = self.text;
        let b = text.as_bytes();
        let n = b.len();
        let mut read = Read::Data;
        let mut pos = 0usize; // start of the pending character data
        let mut scan = 0usize; // where to look for the next '<'
        while scan < n {
            match read {
                Read::Data => {}
                Read::Plaintext => {
                    self.chars(pos, n, Chars::Raw);
                    pos = n;
                    break;
                }
                Read::Rcdata | Read::Rawtext | Read::ScriptData => {
                    let end = if read == Read::ScriptData {
                        lex::script_end(b, scan)
                    } else {
                        lex::find_end_tag(b, scan, self.last_start.as_bytes())
                    };
                    let how = if read == Read::Rcdata {
                        Chars::Rcdata
                    } else {
                        Chars::Raw
                    };
                    self.chars(pos, end, how);
                    pos = end;
                    scan = end;
                    read = Read::Data;
                    continue;
                }
            }
            let Some(off) = memchr(b'<', &b[scan..]) else {
                break;
            };
            let lt = scan + off;
            let next = b.get(lt + 1).copied().unwrap_or(0);
            let end;
            if next.is_ascii_alphabetic() {
                self.chars(pos, lt, Chars::Data);
                let mut v = Attrs {
                    text,
                    whole: &self.whole,
                    atoms: &mut self.atoms,
                    out: Vec::new(),
                    seen: None,
                    skip: false,
                    duplicate: false,
                };
                let (e, tag, fl, name_end) = lex::scan_tag(b, lt + 1, &mut v);
                if fl & flags::UNTERMINATED != 0 {
                    // Cut off by the end of the file: the tokenizer drops the tag.
                    return self.eof();
                }
                let (attrs, duplicate) = (v.out, v.duplicate);
                let name = self.tag_atom(tag, lt + 1..name_end);
                let tag = HTag {
                    kind: TagKind::StartTag,
                    name,
                    self_closing: fl & flags::SELF_CLOSING != 0,
                    attrs,
                    had_duplicate_attributes: duplicate,
                };
                self.start_tag(tag, (lt, e));
                end = e;
            } else if next == b'/' && lt + 2 < n {
                let n2 = b[lt + 2];
                self.chars(pos, lt, Chars::Data);
                if n2.is_ascii_alphabetic() {
                    let (e, tag, fl, name_end) = lex::scan_tag(b, lt + 2, &mut lex::Extent);
                    if fl & flags::UNTERMINATED != 0 {
                        return self.eof();
                    }
                    let name = self.tag_atom(tag, lt + 2..name_end);
                    self.end_tag(name, (lt, e));
                    end = e;
                } else if n2 == b'>' {
                    // `</>`: dropped.
                    end = lt + 3;
                } else {
                    end = self.bogus_comment(lt, lt + 2);
                }
            } else if next == b'!' {
                self.chars(pos, lt, Chars::Data);
                let rest = &b[lt + 2..];
                if rest.starts_with(b"--") {
                    let body = lt + 4;
                    let data = match lex::comment_close(b, body) {
                        // The abrupt `<!-->` and `<!--->` hold no data.
                        Some(e) if e <= body + 2 => {
                            end = e;
                            ""
                        }
                        Some(e) => {
                            end = e;
                            comment_data(&text[body..e - 1], true)
                        }
                        None => {
                            end = n;
                            comment_data(&text[body.min(n)..], false)
                        }
                    };
                    self.comment(data, (lt, end));
                } else if rest.starts_with(b"[CDATA[")
                    && self
                        .tb
                        .adjusted_current_node_present_but_not_in_html_namespace()
                {
                    // A CDATA section: its content is character data, as written.
                    let content = lt + 9;
                    let close = memchr::memmem::find(&b[content..], b"]]>");
                    let stop = close.map_or(n, |i| content + i);
                    self.chars(content, stop, Chars::Cdata);
                    end = close.map_or(n, |i| content + i + 3);
                } else if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
                    let gt = lex::next_gt(b, lt + 9);
                    let d = doctype(&text[lt + 9..gt.unwrap_or(n)], gt.is_some());
                    end = gt.map_or(n, |g| g + 1);
                    self.process(TokKind::Doctype, (lt, end), HToken::DoctypeToken(d));
                } else {
                    end = self.bogus_comment(lt, lt + 2);
                }
            } else if next == b'?' {
                self.chars(pos, lt, Chars::Data);
                end = self.bogus_comment(lt, lt + 1);
            } else {
                // A '<' that starts no markup is character data.
                scan = lt + 1;
                continue;
            }
            pos = end;
            scan = end;
            if let Some(r) = self.next_state.take() {
                read = r;
            }
        }
        self.chars(pos, n, Chars::Data);
        self.eof()
    }

    /// The atom of the tag name at `r`, `tag` its interned [`lex::Tag`]: the tags cescope
    /// knows from a table filled once per parse, other names through [`atom`].
    fn tag_atom(&mut self, tag: lex::Tag, r: Range<usize>) -> LocalName {
        if tag == lex::Tag::Other {
            return atom(&mut self.atoms, self.text, r);
        }
        self.tag_atoms[tag as usize]
            .get_or_insert_with(|| LocalName::from(tag.name()))
            .clone()
    }

    fn eof(&mut self) {
        self.process(TokKind::None, (0, 0), HToken::EOFToken);
        self.tb.end();
    }

    /// A bogus comment from `lt` whose data starts at `data` and runs to the next `>` (or the
    /// end of the file); returns its end.
    fn bogus_comment(&mut self, lt: usize, data: usize) -> usize {
        let text = self.text;
        let n = text.len();
        let gt = lex::next_gt(text.as_bytes(), data);
        let end = gt.map_or(n, |g| g + 1);
        self.comment(&text[data.min(n)..gt.unwrap_or(n)], (lt, end));
        end
    }

    fn comment(&mut self, data: &str, span: (usize, usize)) {
        let data = nul_to_fffd(newlines(data));
        self.process(
            TokKind::Comment,
            span,
            HToken::CommentToken(StrTendril::from_slice(&data)),
        );
        self.sink().texts.borrow_mut().clear();
    }

    /// Character data at `start..end` read as `how`: queued with its source for the sink's
    /// spans, then handed to the tree builder (NUL in data as its own token, which the tree
    /// builder drops, or keeps as U+FFFD in SVG / MathML).
    fn chars(&mut self, start: usize, end: usize, how: Chars) {
        if start >= end {
            return;
        }
        let src = &self.text[start..end];
        let dec = decode_chars(src, how);
        let value: &str = dec.as_deref().unwrap_or(src);
        let literal = dec.is_none();
        // A literal run was searched for NUL already (`decode_chars`).
        let has_nul = !(literal && how != Chars::Data && how != Chars::Cdata)
            && memchr(0, value.as_bytes()).is_some();
        let foreign_nul = has_nul
            && self
                .tb
                .adjusted_current_node_present_but_not_in_html_namespace();
        // In SVG / MathML the tree builder keeps a NUL the tokenizer passed through (data,
        // CDATA) as U+FFFD; elsewhere it drops it.
        let queued = match (literal, foreign_nul) {
            (true, false) => None,
            (_, true) => Some(value.replace('\0', "\u{FFFD}")),
            (false, false) => Some(value.to_owned()),
        };
        self.sink().texts.borrow_mut().push_back(TextSrc {
            cur: start,
            end,
            dec: queued,
            dpos: 0,
        });
        if !has_nul {
            let t = match dec {
                None => slice(&self.whole, start, src),
                Some(d) => StrTendril::from(d),
            };
            self.process(TokKind::Text, (start, end), HToken::CharacterTokens(t));
            return;
        }
        let mut first = true;
        for part in value.split('\0') {
            if !first {
                self.process(TokKind::Text, (start, end), HToken::NullCharacterToken);
            }
            first = false;
            if !part.is_empty() {
                let t = StrTendril::from_slice(part);
                self.process(TokKind::Text, (start, end), HToken::CharacterTokens(t));
            }
        }
    }
}
