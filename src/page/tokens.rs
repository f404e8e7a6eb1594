//! The tag / word token stream of a page: the unit of the token-based algorithms (BTE, DSC,
//! TCCB; Mohammadzadeh 2013, sections 3.3.1.1–3.3.1.3).
//!
//! Finn's BTE "identifies all tokens present in the web document … they belong to HTML tags or
//! they are words placed in a text segment" (thesis 3.3.1.1). cescope takes the tokens from its
//! lexer ([`crate::page::lex`]): every tag span (start or end tag, `<` to `>`) is one
//! [`TokenKind::Tag`] token, and every maximal run of non-white-space characters inside a
//! content-text span is one [`TokenKind::Word`] token. Scripts, styles, comments, declarations and
//! CDATA sections produce no tokens — the preprocessing of the thesis (section 2.1.3) removes
//! them before any algorithm sees the page. A word never spans a tag: `foo<b>bar</b>` is the four
//! tokens `foo`, `<b>`, `bar`, `</b>`, as in Finn's tokeniser, which splits at tags first.

use std::ops::Range;

use super::lex::ByteClass;
use super::Page;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenKind {
    /// A start or end tag (value 1 in BTE's vector B).
    Tag,
    /// A word of content text (value 0 in B).
    Word,
}

/// One token: its kind and its byte range in the decoded text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// Tag or word.
    pub kind: TokenKind,
    /// Bytes `start..end` of the page's decoded text.
    pub range: Range<usize>,
}

impl Page {
    /// The page's tag / word tokens in text order (see the module documentation). O(n) in the
    /// text length; about one token per 6 bytes of a typical page.
    pub fn tokens(&self) -> Vec<Token> {
        let text = self.text().as_bytes();
        let spans = &self.lexed().spans;
        let mut out = Vec::with_capacity(spans.len() * 2);
        for s in spans {
            match s.class {
                ByteClass::Tag => out.push(Token {
                    kind: TokenKind::Tag,
                    range: s.range(),
                }),
                ByteClass::Text => {
                    let r = s.range();
                    let mut i = r.start;
                    while i < r.end {
                        while i < r.end && is_space(text[i]) {
                            i += 1;
                        }
                        let start = i;
                        while i < r.end && !is_space(text[i]) {
                            i += 1;
                        }
                        if start < i {
                            out.push(Token {
                                kind: TokenKind::Word,
                                range: start..i,
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }
}

/// ASCII white space as HTML defines it (space, tab, LF, FF, CR). Non-ASCII bytes (parts of
/// UTF-8 sequences) are never white space, so tokens always end on character boundaries.
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_words() {
        let p = Page::from_text(
            "t.html",
            "<p>Hello  wörld<!-- x --><b>a</b>\n<script>var x;</script></p>",
        );
        let t: Vec<(TokenKind, &str)> = p
            .tokens()
            .iter()
            .map(|t| (t.kind, &p.text()[t.range.clone()]))
            .collect();
        use TokenKind::*;
        assert_eq!(
            t,
            vec![
                (Tag, "<p>"),
                (Word, "Hello"),
                (Word, "wörld"),
                (Tag, "<b>"),
                (Word, "a"),
                (Tag, "</b>"),
                (Tag, "<script>"),
                (Tag, "</script>"),
                (Tag, "</p>"),
            ]
        );
    }
}
