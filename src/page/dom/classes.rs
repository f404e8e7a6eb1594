//! The DOM's reading of the source bytes: which bytes are text, markup, script / style and
//! comment, as the HTML tree construction decided. This is cescope's **one reference** for what
//! is text; the lexer's per-byte classes ([`crate::page::lex`]) are checked against it by a
//! differential test (`tests/html_model.rs`: arbitrary bytes, HTML-ish fragments and every page of
//! the shared corpora, in both scripting modes).

use std::ops::Range;

use super::{Dom, NodeKind};
use crate::page::lex::ByteClass;

impl Dom {
    /// Every source byte range a node was made from, with the [`ByteClass`] the DOM gives it,
    /// sorted by start (the ranges never overlap, see [`Dom::validate`]). `text` is the text the
    /// DOM was parsed from.
    ///
    /// - an element's start tag and end tag: [`ByteClass::Tag`];
    /// - a comment: [`ByteClass::Comment`], except a bogus comment that starts with `<?` (a
    ///   processing instruction in the source): [`ByteClass::Declaration`], as the lexer names
    ///   it; a doctype: [`ByteClass::Declaration`];
    /// - the character data of a text node whose parent is a `script` element (in any
    ///   namespace), or a `noscript` element when the DOM was parsed with scripting on (its
    ///   content is then raw text a browser with JavaScript never shows): [`ByteClass::Script`];
    ///   of a `style` element: [`ByteClass::Style`]; of any other text node:
    ///   [`ByteClass::Text`].
    ///
    /// Bytes in no range are in no node: tags the tree builder ignored (stray end tags, a second
    /// `<body>`, tags past [`super::MAX_DEPTH`]), `</>`, the delimiters of CDATA sections in
    /// SVG / MathML, white space and NUL the tree builder dropped, and the text of a
    /// `<frameset>` document. O(nodes + spans log spans).
    pub fn class_spans(&self, text: &str) -> Vec<(Range<usize>, ByteClass)> {
        let mut out = Vec::with_capacity(self.spans.len() + self.nodes.len() / 2);
        for id in 0..self.len() {
            let class = match self.kind(id) {
                NodeKind::Element => ByteClass::Tag,
                NodeKind::Doctype => ByteClass::Declaration,
                NodeKind::Comment => ByteClass::Comment,
                NodeKind::Text => self.text_class(id),
                _ => continue,
            };
            for r in self.spans(id) {
                let c = if class == ByteClass::Comment
                    && text.get(r.clone()).is_some_and(|s| s.starts_with("<?"))
                {
                    ByteClass::Declaration
                } else {
                    class
                };
                out.push((r.clone(), c));
            }
            if let Some(e) = self.end_tag(id) {
                out.push((e, ByteClass::Tag));
            }
        }
        out.sort_by_key(|(r, _)| r.start);
        out
    }

    /// The class of a text node's character data (see [`Dom::class_spans`]).
    fn text_class(&self, id: super::NodeId) -> ByteClass {
        let Some(p) = self.parent(id) else {
            return ByteClass::Text;
        };
        match self.tag_name(p) {
            Some("script") => ByteClass::Script,
            Some("style") => ByteClass::Style,
            Some("noscript") if self.opts.scripting_enabled && self.is_html_element(p) => {
                ByteClass::Script
            }
            _ => ByteClass::Text,
        }
    }
}
