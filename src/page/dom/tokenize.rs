//! The tokenizer adapter: html5gum's positioned tokens turned into html5ever tokens and fed to
//! the tree builder, with the current token's span handed to the tree sink.

use std::convert::Infallible;

use html5ever::interface::Tracer;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    Doctype as HDoctype, Tag as HTag, TagKind, Token as HToken, TokenSink, TokenSinkResult,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{ns, Attribute, LocalName, QualName};
use html5gum::emitters::callback::{Callback, CallbackEmitter, CallbackEvent};
use html5gum::{Emitter, ForwardingEmitter, Span, State, Tokenizer};

use super::sink::{PosSink, Stamp, TextSrc, TokKind};
use super::tree::{Id, Tree};
use super::DomOptions;

/// Tokenizes `text` with html5gum and builds the tree from it through the positioned sink: the
/// tree and the span stamps of its nodes (see the module documentation of [`super`]).
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
        let cb = Cb {
            tb: &tb,
            text,
            whole: StrTendril::from_slice(text),
            tag: None,
            attrs: Vec::new(),
            tag_start: 0,
            skip_value: false,
            next_state: None,
            stack: Vec::new(),
            suppressed: Vec::new(),
        };
        let em = Em {
            inner: CallbackEmitter::new(cb),
        };
        let Ok(()) = Tokenizer::new_with_emitter(text, em).finish();
    }
    tb.sink.into_parts()
}

struct Cb<'a, 't> {
    tb: &'a TreeBuilder<Id, PosSink<'t>>,
    text: &'t str,
    /// `text` as one tendril: character data that is its own source goes to the tree builder
    /// as a slice of it (shared, no copy per token).
    whole: StrTendril,
    tag: Option<HTag>,
    /// The attributes of `tag` so far, moved into it when the tag closes (one allocation of
    /// the right size per tag instead of a vector grown attribute by attribute).
    attrs: Vec<Attribute>,
    tag_start: usize,
    skip_value: bool,
    next_state: Option<State>,
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
            TokenSinkResult::Script(_) => Some(State::Data),
            TokenSinkResult::Plaintext => Some(State::PlainText),
            TokenSinkResult::RawData(RawKind::Rcdata) => Some(State::RcData),
            TokenSinkResult::RawData(RawKind::Rawtext) => Some(State::RawText),
            TokenSinkResult::RawData(_) => Some(State::ScriptData),
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

impl<'a, 't> Cb<'a, 't> {
    /// Character data with source bytes that are in no token inside it: CDATA delimiters in
    /// foreign content (`a<![CDATA[b]]>c`) and `</>` (which the tokenizer drops in data, not
    /// in raw text: `strip_empty_end` says it was dropped here). One text
    /// source per piece between them, CDATA content literal, the rest decoded.
    fn push_split(&mut self, start: usize, end: usize, mut in_cdata: bool, strip_empty_end: bool) {
        let foreign = self
            .tb
            .adjusted_current_node_present_but_not_in_html_namespace();
        let text = self.text;
        let norm = |s: &str| s.replace("\r\n", "\n").replace('\r', "\n");
        let mut q = self.sink().texts.borrow_mut();
        // NUL: kept as U+FFFD in foreign content and raw text (the tokenizer or the tree
        // builder replaces it), dropped by the tree builder in HTML data.
        let fffd = foreign || !strip_empty_end;
        let mut push = |a: usize, b: usize, cdata: bool| {
            let seg = &text[a..b];
            if a >= b {
                return;
            }
            let nul = |s: String| {
                if fffd {
                    s.replace('\0', "\u{FFFD}")
                } else {
                    s
                }
            };
            let dec = if cdata {
                seg.contains(['\r', '\0']).then(|| nul(norm(seg)))
            } else {
                seg.contains(['&', '\r', '\0'])
                    .then(|| nul(norm(&htmlize::unescape(seg))))
            };
            q.push_back(TextSrc {
                cur: a,
                end: b,
                dec,
                dpos: 0,
            });
        };
        let mut pos = start;
        while pos < end {
            let rest = &text[pos..end];
            if in_cdata {
                let b = rest.find("]]>").map_or(end, |j| pos + j);
                push(pos, b, true);
                pos = (b + 3).min(end);
                in_cdata = false;
                continue;
            }
            let empty_end = if strip_empty_end {
                rest.find("</>")
            } else {
                None
            };
            let cdata = if foreign {
                rest.find("<![CDATA[")
            } else {
                None
            };
            match (empty_end, cdata) {
                (Some(e), c) if c.is_none_or(|c| e < c) => {
                    push(pos, pos + e, false);
                    pos += e + 3;
                }
                (_, Some(c)) => {
                    push(pos, pos + c, false);
                    pos += c + 9;
                    in_cdata = true;
                }
                _ => {
                    push(pos, end, false);
                    break;
                }
            }
        }
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

/// html5gum hands out UTF-8 (its input is a `&str`); the lossy path is only a safety net.
fn to_str(b: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(b) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(b),
    }
}

impl<'a, 't> Callback<Infallible, usize> for Cb<'a, 't> {
    fn handle_event(&mut self, event: CallbackEvent<'_>, span: Span<usize>) -> Option<Infallible> {
        match event {
            CallbackEvent::OpenStartTag { name } => {
                self.tag = Some(HTag {
                    kind: TagKind::StartTag,
                    name: LocalName::from(&*to_str(name)),
                    self_closing: false,
                    attrs: Vec::new(),
                    had_duplicate_attributes: false,
                });
                self.attrs.clear();
                self.tag_start = span.start;
                self.skip_value = false;
            }
            CallbackEvent::AttributeName { name } => {
                if let Some(tag) = self.tag.as_mut() {
                    let local = LocalName::from(&*to_str(name));
                    if self.attrs.iter().any(|a| a.name.local == local) {
                        tag.had_duplicate_attributes = true;
                        self.skip_value = true;
                    } else {
                        self.skip_value = false;
                        self.attrs.push(Attribute {
                            name: QualName::new(None, ns!(), local),
                            value: StrTendril::new(),
                        });
                    }
                }
            }
            CallbackEvent::AttributeValue { value } => {
                if self.tag.is_some() && !self.skip_value {
                    // `span` is the value's own source (html5gum emits a value whole); when
                    // the value is that source (no character reference), a slice of it.
                    let src = self
                        .text
                        .get(span.start..span.end)
                        .filter(|s| s.as_bytes() == value);
                    if let Some(a) = self.attrs.last_mut() {
                        match src {
                            Some(s) if a.value.is_empty() => {
                                a.value = slice(&self.whole, span.start, s)
                            }
                            _ => a.value.push_slice(&to_str(value)),
                        }
                    }
                }
            }
            CallbackEvent::CloseStartTag { self_closing } => {
                if let Some(mut tag) = self.tag.take() {
                    tag.attrs = self.attrs.drain(..).collect();
                    tag.self_closing = self_closing;
                    let start = self.tag_start;
                    self.start_tag(tag, (start, span.end));
                }
            }
            CallbackEvent::EndTag { name } => {
                let name = LocalName::from(&*to_str(name));
                self.end_tag(name, (span.start, span.end));
            }
            CallbackEvent::String { value } => {
                let mut start = span.start;
                let end = span.end.max(start);
                let src = self.text.get(start..end).unwrap_or("");
                let mut in_cdata = false;
                if src.starts_with("<![CDATA[") && !value.starts_with(b"<![CDATA[") {
                    start += 9;
                    in_cdata = true;
                }
                let src = self.text.get(start..end).unwrap_or("");
                // Asked only when it matters (a NUL, a CDATA delimiter): one look at the tree
                // builder's current node.
                let foreign = || {
                    self.tb
                        .adjusted_current_node_present_but_not_in_html_namespace()
                };
                let has_nul = memchr::memchr(0, value).is_some();
                let foreign_nul = has_nul && foreign();
                let literal = src.as_bytes() == value;
                if literal && !foreign_nul {
                    self.sink().texts.borrow_mut().push_back(TextSrc {
                        cur: start,
                        end,
                        dec: None,
                        dpos: 0,
                    });
                } else if literal {
                    // In SVG / MathML the tree builder keeps a NUL the tokenizer passed through
                    // (data, CDATA) as U+FFFD; elsewhere it drops it.
                    self.sink().texts.borrow_mut().push_back(TextSrc {
                        cur: start,
                        end,
                        dec: Some(to_str(value).replace('\0', "\u{FFFD}")),
                        dpos: 0,
                    });
                } else if (src.contains("</>") && !value.windows(3).any(|w| w == b"</>"))
                    || ((src.contains("<![CDATA[") || src.contains("]]>")) && foreign())
                {
                    // `</>` is dropped in data (no raw text in foreign content, where a CDATA
                    // section may hold a literal `</>`), kept in raw text.
                    let data = foreign() || !value.windows(3).any(|w| w == b"</>");
                    self.push_split(start, end, in_cdata, data);
                } else {
                    self.sink().texts.borrow_mut().push_back(TextSrc {
                        cur: start,
                        end,
                        dec: Some(if foreign_nul {
                            to_str(value).replace('\0', "\u{FFFD}")
                        } else {
                            to_str(value).into_owned()
                        }),
                        dpos: 0,
                    });
                }
                if !has_nul {
                    // The common case: one run of character data, already UTF-8 when it is
                    // the source itself.
                    if !value.is_empty() {
                        let t = if literal {
                            slice(&self.whole, start, src)
                        } else {
                            StrTendril::from_slice(&to_str(value))
                        };
                        self.process(TokKind::Text, (start, end), HToken::CharacterTokens(t));
                    }
                    return None;
                }
                let mut first = true;
                for part in value.split(|&b| b == 0) {
                    if !first {
                        self.process(TokKind::Text, (start, end), HToken::NullCharacterToken);
                    }
                    first = false;
                    if !part.is_empty() {
                        let t = StrTendril::from_slice(&to_str(part));
                        self.process(TokKind::Text, (start, end), HToken::CharacterTokens(t));
                    }
                }
            }
            CallbackEvent::Comment { value } => {
                let t = StrTendril::from_slice(&to_str(value));
                self.process(
                    TokKind::Comment,
                    (span.start, span.end),
                    HToken::CommentToken(t),
                );
                self.sink().texts.borrow_mut().clear();
            }
            CallbackEvent::Doctype {
                name,
                public_identifier,
                system_identifier,
                force_quirks,
            } => {
                let t = |b: &[u8]| StrTendril::from_slice(&to_str(b));
                let d = HDoctype {
                    name: Some(name).filter(|n| !n.is_empty()).map(t),
                    public_id: public_identifier.map(t),
                    system_id: system_identifier.map(t),
                    force_quirks,
                };
                // The text queue is kept: html5ever ignores a doctype after the initial mode
                // before anything else, so text pending in a table (`<table>x<!DOCTYPE html>`)
                // is inserted only at the next token.
                self.process(
                    TokKind::Doctype,
                    (span.start, span.end),
                    HToken::DoctypeToken(d),
                );
            }
            CallbackEvent::Error(_) => {}
        }
        None
    }
}

struct Em<'a, 't> {
    inner: CallbackEmitter<Cb<'a, 't>, Infallible, usize>,
}

impl<'a, 't> ForwardingEmitter for Em<'a, 't> {
    type Token = Infallible;

    fn inner(&mut self) -> &mut impl Emitter<Token = Infallible> {
        &mut self.inner
    }

    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn emit_eof(&mut self) {
        self.inner.emit_eof();
        let cb = self.inner.callback_mut();
        cb.process(TokKind::None, (0, 0), HToken::EOFToken);
        cb.tb.end();
    }

    fn emit_current_tag(&mut self) -> Option<State> {
        let _naive = self.inner.emit_current_tag();
        let next = self.inner.callback_mut().next_state.take();
        if next.is_some() {
            // The tree builder switched the tokenizer (raw text, RCDATA, script data): the next
            // character data starts here, not at the previous text token (tech.md pitfall 1).
            self.inner.init_string();
        }
        next
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&mut self) -> bool {
        self.inner
            .callback_mut()
            .tb
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}
