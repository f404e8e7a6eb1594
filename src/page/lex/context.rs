//! What the lexer needs from HTML tree construction: the few decisions of the tree builder that
//! change how the tokenizer reads the following bytes, followed without building a tree.
//!
//! - **Raw text.** In HTML content, `script` (script data), `style`, `xmp`, `iframe`, `noembed`,
//!   `noframes` (RAWTEXT), `title`, `textarea` (RCDATA) and `plaintext` switch the tokenizer;
//!   `noscript` does too when the page is read with scripting on ([`super::LexOptions`]).
//! - **Foreign content** (SVG and MathML). Inside `<svg>` / `<math>` no element is raw text,
//!   a self-closing tag (`<title/>`) has no content, and `<![CDATA[ … ]]>` is a CDATA section
//!   (elsewhere a bogus comment). The open foreign elements are kept as a stack of
//!   [`Frame`]s: a start tag pushes one, its end tag pops it (and those above it); an HTML
//!   "break-out" start tag (`<div>`, `<p>`, `<b>`, … the list of the HTML Standard's foreign
//!   content rules) and `</p>` / `</br>` leave foreign content, and so does an end tag that
//!   matches no open foreign element but names an HTML element (the missing `</svg>` of
//!   `<a><svg><path></a>`: the tree builder closes the `<a>` and the SVG with it, when that
//!   element is open — which the lexer does not know, see below). The HTML integration points
//!   (SVG `foreignObject`, `desc`, `title`; MathML `mi`, `mo`, `mn`, `ms`, `mtext`) hold HTML
//!   content again until their own end tag.
//! - Text inside a foreign `script` / `style` element (an SVG `<style>`'s CSS) is
//!   [`ByteClass::Script`] / [`ByteClass::Style`], as the DOM classes it
//!   ([`crate::page::Dom::class_spans`]).
//!
//! Inside an integration point, HTML elements opened there are counted (start tags of non-void
//! elements up, end tags down): while one is open, `<![CDATA[` is a bogus comment again.
//!
//! Not followed (the lexer does not track the HTML elements that are open): an end tag inside
//! foreign content that matches no open foreign element — the tree builder leaves the SVG if
//! it names an open HTML element and ignores it otherwise, the lexer leaves on any HTML name;
//! MathML `annotation-xml` as an integration point. `tests/html_model.rs` lists the known
//! differences.

use super::{ByteClass, Tag};

/// The deepest stack of open foreign elements followed; deeper start tags push nothing.
const MAX_FRAMES: usize = 1024;

/// An open SVG / MathML element.
#[derive(Debug, Clone, Copy)]
struct Frame {
    /// Its name: a byte range of the text.
    name: (u32, u32),
    /// In the MathML namespace (else SVG).
    math: bool,
    /// An HTML integration point: its content is HTML.
    integration: bool,
    /// The class of text directly inside it.
    class: ByteClass,
    /// For an integration point: HTML elements opened in it and not closed (as far as start
    /// and end tags count them), during which `<![CDATA[` is a bogus comment again.
    html_open: u32,
}

/// How a raw-text element's content is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RawKind {
    /// RAWTEXT / RCDATA: to the element's end tag.
    Text,
    /// Script data: to `</script`, with the escape states of `<!--` / `<script>` inside.
    Script,
    /// `plaintext`: to the end of the file.
    Plaintext,
}

/// A raw-text element just opened: its content's class and how to find its end.
#[derive(Debug, Clone, Copy)]
pub(super) struct Raw {
    /// The element (its name ends the content).
    pub(super) tag: Tag,
    /// The class of its content.
    pub(super) class: ByteClass,
    /// How the content ends.
    pub(super) kind: RawKind,
}

/// The tree-construction state the lexer follows (see the module documentation).
#[derive(Debug)]
pub(super) struct Context {
    frames: Vec<Frame>,
    scripting: bool,
}

/// `name` (a tag name of the source, any case) is one of `list` (lower case).
fn name_in(name: &[u8], list: &[&str]) -> bool {
    list.iter().any(|n| n.as_bytes().eq_ignore_ascii_case(name))
}

/// HTML elements whose start tag leaves foreign content (HTML Standard, 13.2.6.5, "A start tag
/// whose tag name is one of …"); `font` only with a `color`, `face` or `size` attribute.
fn is_breakout(name: &[u8], tag: &[u8]) -> bool {
    const BREAKOUT: &[&str] = &[
        "b",
        "big",
        "blockquote",
        "body",
        "br",
        "center",
        "code",
        "dd",
        "div",
        "dl",
        "dt",
        "em",
        "embed",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "hr",
        "i",
        "img",
        "li",
        "listing",
        "menu",
        "meta",
        "nobr",
        "ol",
        "p",
        "pre",
        "ruby",
        "s",
        "small",
        "span",
        "strong",
        "strike",
        "sub",
        "sup",
        "table",
        "tt",
        "u",
        "ul",
        "var",
    ];
    if name_in(name, BREAKOUT) {
        return true;
    }
    name.eq_ignore_ascii_case(b"font") && {
        let attrs = tag.to_ascii_lowercase();
        [&b"color"[..], b"face", b"size"]
            .iter()
            .any(|a| memchr::memmem::find(&attrs, a).is_some())
    }
}

/// HTML void elements (no content, no end tag).
fn is_void(name: &[u8]) -> bool {
    name_in(
        name,
        &[
            "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img",
            "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
        ],
    )
}

/// An end tag that, matching no open foreign element, is taken to close an HTML element around
/// the SVG / MathML: an interned HTML tag or a common inline container.
fn closes_html(name: &[u8]) -> bool {
    Tag::from_name(name) != Tag::Other
        || name_in(
            name,
            &[
                "span", "button", "label", "b", "i", "em", "strong", "small", "code", "u", "s",
                "font", "nobr", "abbr", "cite", "q", "sub", "sup", "mark", "time", "picture",
            ],
        )
}

impl Context {
    pub(super) fn new(scripting: bool) -> Context {
        Context {
            frames: Vec::new(),
            scripting,
        }
    }

    /// Are start tags read as HTML (no open foreign element, or an integration point)?
    fn html(&self) -> bool {
        self.frames.last().is_none_or(|f| f.integration)
    }

    /// The class of text at this point.
    #[inline]
    pub(super) fn text_class(&self) -> ByteClass {
        self.frames.last().map_or(ByteClass::Text, |f| f.class)
    }

    /// Is `<![CDATA[` a CDATA section here (inside SVG / MathML) rather than a bogus comment?
    pub(super) fn cdata(&self) -> bool {
        self.frames
            .last()
            .is_some_and(|f| !f.integration || f.html_open == 0)
    }

    /// Pops the foreign elements above the innermost integration point.
    fn leave_foreign(&mut self) {
        while self.frames.last().is_some_and(|f| !f.integration) {
            self.frames.pop();
        }
    }

    fn push(&mut self, name: (usize, usize), math: bool, b: &[u8]) {
        if self.frames.len() >= MAX_FRAMES {
            return;
        }
        let n = &b[name.0..name.1];
        let integration = if math {
            name_in(n, &["mi", "mo", "mn", "ms", "mtext"])
        } else {
            name_in(n, &["foreignobject", "desc", "title"])
        };
        let class = if integration {
            ByteClass::Text
        } else if n.eq_ignore_ascii_case(b"script") {
            ByteClass::Script
        } else if n.eq_ignore_ascii_case(b"style") {
            ByteClass::Style
        } else {
            ByteClass::Text
        };
        self.frames.push(Frame {
            name: (name.0 as u32, name.1 as u32),
            math,
            integration,
            class,
            html_open: 0,
        });
    }

    /// A start tag: its name (a byte range of `b`), interned tag, self-closing flag and whole
    /// source (`tag`). Returns the raw-text element it opens, if any.
    pub(super) fn start_tag(
        &mut self,
        b: &[u8],
        name: (usize, usize),
        tag: Tag,
        self_closing: bool,
        source: &[u8],
    ) -> Option<Raw> {
        let n = &b[name.0..name.1];
        if !self.html() {
            if is_breakout(n, source) {
                self.leave_foreign();
            } else {
                if !self_closing {
                    let math = self.frames.last().is_some_and(|f| f.math);
                    self.push(name, math, b);
                }
                return None;
            }
        }
        if n.eq_ignore_ascii_case(b"svg") || n.eq_ignore_ascii_case(b"math") {
            if !self_closing {
                self.push(name, n.len() == 4, b);
            }
            return None;
        }
        if let Some(f) = self.frames.last_mut() {
            // An HTML element opened inside an integration point.
            if !is_void(n) {
                f.html_open += 1;
            }
        }
        let (class, kind) = match tag {
            Tag::Script => (ByteClass::Script, RawKind::Script),
            Tag::Style => (ByteClass::Style, RawKind::Text),
            Tag::Title | Tag::Textarea | Tag::Xmp | Tag::Iframe | Tag::Noembed | Tag::Noframes => {
                (ByteClass::Text, RawKind::Text)
            }
            Tag::Noscript if self.scripting => (ByteClass::Script, RawKind::Text),
            Tag::Plaintext => (ByteClass::Text, RawKind::Plaintext),
            _ => return None,
        };
        Some(Raw { tag, class, kind })
    }

    /// An end tag with its name (a byte range of `b`).
    pub(super) fn end_tag(&mut self, b: &[u8], name: (usize, usize)) {
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        if top.integration && top.html_open > 0 {
            // Closes (as far as the lexer counts) an HTML element opened in the integration
            // point.
            top.html_open -= 1;
            return;
        }
        // The current node is a foreign element (an integration point included): the foreign
        // content rules.
        let n = &b[name.0..name.1];
        if name_in(n, &["p", "br"]) {
            self.leave_foreign();
            return;
        }
        let is = |f: &Frame| b[f.name.0 as usize..f.name.1 as usize].eq_ignore_ascii_case(n);
        for k in (0..self.frames.len()).rev() {
            if is(&self.frames[k]) {
                self.frames.truncate(k);
                return;
            }
            // Below frame k is an HTML element: the bottom of foreign content, or an HTML
            // element opened inside an integration point.
            if k == 0 || (self.frames[k - 1].integration && self.frames[k - 1].html_open > 0) {
                break;
            }
        }
        if closes_html(n) {
            self.leave_foreign();
        }
    }
}

/// Is `b[at..]` the end tag `</name` followed by white space, `/` or `>` (ASCII
/// case-insensitive; at the end of the file it is not an end tag)?
pub(super) fn is_end_tag(b: &[u8], at: usize, name: &[u8]) -> bool {
    let after = at + 2 + name.len();
    b.get(at + 1) == Some(&b'/')
        && after < b.len()
        && b[at + 2..after].eq_ignore_ascii_case(name)
        && is_delimiter(b[after])
}

/// White space, `/` or `>`: what ends a tag name.
fn is_delimiter(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0c | b'/' | b'>')
}

/// Where a `script` element's content that starts at `from` ends: the `<` of its end tag, or
/// the end of the file. Follows the script data states of the HTML tokenizer: `<!--` enters
/// the escaped state, where `<script` (then white space, `/` or `>`) enters the double-escaped
/// state, in which `</script` does not end the script but returns to the escaped state; `-->`
/// returns to plain script data from both. So
/// `<script><!--<script>var a="</script>";</script>` is one script.
pub(crate) fn script_end(b: &[u8], from: usize) -> usize {
    #[derive(PartialEq)]
    enum S {
        Data,
        Escaped,
        Double,
    }
    let n = b.len();
    let mut s = S::Data;
    let mut i = from;
    // Dashes before a `>` close an escape only from here on.
    let mut dashes_from = from;
    while i < n {
        if s == S::Data {
            let Some(off) = memchr::memchr(b'<', &b[i..]) else {
                return n;
            };
            let lt = i + off;
            if is_end_tag(b, lt, b"script") {
                return lt;
            }
            if b[lt + 1..].starts_with(b"!--") {
                s = S::Escaped;
                dashes_from = lt + 2;
                i = lt + 4;
            } else {
                i = lt + 1;
            }
            continue;
        }
        let Some(off) = memchr::memchr2(b'<', b'>', &b[i..]) else {
            return n;
        };
        let j = i + off;
        if b[j] == b'>' {
            if j >= dashes_from + 2 && &b[j - 2..j] == b"--" {
                s = S::Data;
            }
            i = j + 1;
            continue;
        }
        if is_end_tag(b, j, b"script") {
            if s == S::Escaped {
                return j;
            }
            s = S::Escaped;
            i = j + 9;
            dashes_from = i;
            continue;
        }
        if s == S::Escaped
            && b.len() > j + 7
            && b[j + 1..j + 7].eq_ignore_ascii_case(b"script")
            && is_delimiter(b[j + 7])
        {
            s = S::Double;
            i = j + 8;
            dashes_from = i;
            continue;
        }
        i = j + 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_escapes() {
        fn end(s: &str) -> &str {
            &s[script_end(s.as_bytes(), 0)..]
        }
        assert_eq!(end("a</script>b"), "</script>b");
        assert_eq!(
            end("<!--<script>var a=\"</script>\";</script>x"),
            "</script>x"
        );
        // `-->` leaves the escapes; then `</script` ends the script.
        assert_eq!(end("<!--<script>x--></script>y"), "</script>y");
        assert_eq!(end("<!-- x --></script>y"), "</script>y");
        assert_eq!(end("<!-->a</script>y"), "</script>y");
        // Escaped (not double): `</script` ends.
        assert_eq!(end("<!-- a </script> b"), "</script> b");
        // `<scripts>` does not double-escape.
        assert_eq!(end("<!--<scripts></script>z"), "</script>z");
        // Double-escaped, never closed: to the end.
        assert_eq!(end("<!--<script></script>"), "");
        // No delimiter at the end of the file: not an end tag.
        assert_eq!(end("a</script"), "");
        assert_eq!(end("a</SCRIPT\n>"), "</SCRIPT\n>");
    }
}
