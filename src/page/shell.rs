//! JavaScript shells: pages whose HTML holds (almost) no text outside `<script>` and `<title>`
//! — a single-page application's `<div id="root"></div>` and its scripts — so that what a
//! reader sees is written by JavaScript after loading and no extractor working on the HTML can
//! find it. A gold standard made in a browser has main content there that the HTML does not
//! hold, so such a page scores 0 for every extractor; the evaluation reports means with and
//! without them, and the inspector names them in the status bar.
//!
//! **The rule** ([`ShellCheck::is_shell`]): the page has at least one `<script>` element and
//! fewer than [`SHELL_MAX_WORDS`] words of text outside `<script>`, `<style>` and `<title>`
//! (the words of [`crate::metrics::words`], character references decoded, in the lexer's text:
//! [`ByteClass::Text`]). `<title>` is left out because every shell has one. The text of
//! `<noscript>` counts: it is in the HTML, extractors read it (a page read without scripting),
//! and some sites put their whole content there for readers without JavaScript (Discourse
//! forums do); a shell's "You need to enable JavaScript to run this app." is 9 words. A page
//! without any script is not a shell however little text it has (an empty page, an image
//! gallery, a page of nothing but a heading), nor is a page with a menu, a footer or a cookie
//! notice and no article (its words are in the HTML).
//!
//! The threshold, 20 words, is cescope's choice: a "loading…" line, an "enable JavaScript"
//! notice or a skip link stay under it; a 404 page's message with its menu does not. Read from the lexer alone (no DOM), O(text) with an early stop at the
//! threshold, so an evaluation of line-based extractors pays no DOM for it.

use super::lex::{ByteClass, Tag};
use super::Page;

/// Below this many words of text outside `<script>`, `<style>` and `<title>`, a page with a
/// script is a JavaScript shell (see the module documentation).
pub const SHELL_MAX_WORDS: usize = 20;

/// What [`Page::shell_check`] counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ShellCheck {
    /// Words of text outside `<script>`, `<style>` and `<title>`, counted up to
    /// [`SHELL_MAX_WORDS`] (the count stops there: a page with more says
    /// `SHELL_MAX_WORDS`).
    pub words: usize,
    /// `<script>` start tags.
    pub scripts: usize,
    /// Bytes inside `<script>` elements (and `<noscript>` on a page read with scripting on).
    pub script_bytes: usize,
}

impl ShellCheck {
    /// Is the page a JavaScript shell: a script and fewer than [`SHELL_MAX_WORDS`] words?
    pub fn is_shell(&self) -> bool {
        self.scripts > 0 && self.words < SHELL_MAX_WORDS
    }

    /// One line for the user: `JavaScript shell: 3 words of text outside <script> and <title>,
    /// 12 scripts (48 KB)`; `None` for a page that is not a shell.
    pub fn describe(&self) -> Option<String> {
        self.is_shell().then(|| {
            format!(
                "JavaScript shell: {} word{} of text outside <script> and <title>, {} script{} ({} bytes of script)",
                self.words,
                if self.words == 1 { "" } else { "s" },
                self.scripts,
                if self.scripts == 1 { "" } else { "s" },
                self.script_bytes
            )
        })
    }
}

impl Page {
    /// Counts what makes the page a JavaScript shell or not ([`ShellCheck`]; the rule is in
    /// the [module documentation](self)). From the lexer only; O(text bytes), the word count
    /// stopping at [`SHELL_MAX_WORDS`].
    pub fn shell_check(&self) -> ShellCheck {
        let text = self.text();
        let mut c = ShellCheck::default();
        // Inside <title> (its text is left out).
        let mut skip_title = false;
        for s in &self.lexed().spans {
            match s.class {
                ByteClass::Tag => {
                    if s.is_start(Tag::Script) {
                        c.scripts += 1;
                    } else if s.is_start(Tag::Title) {
                        skip_title = true;
                    } else if s.is_end(Tag::Title) {
                        skip_title = false;
                    }
                }
                ByteClass::Script => c.script_bytes += s.range().len(),
                ByteClass::Text if !skip_title && c.words < SHELL_MAX_WORDS => {
                    let piece = text.get(s.range()).unwrap_or("");
                    let n = if piece.contains('&') {
                        crate::metrics::words(&htmlize::unescape(piece)).len()
                    } else {
                        crate::metrics::words(piece).len()
                    };
                    c.words = (c.words + n).min(SHELL_MAX_WORDS);
                }
                _ => {}
            }
        }
        c
    }

    /// Is the page a JavaScript shell ([`Page::shell_check`], [`ShellCheck::is_shell`])?
    pub fn is_script_shell(&self) -> bool {
        self.shell_check().is_shell()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(html: &str) -> ShellCheck {
        Page::from_text("t.html", html).shell_check()
    }

    /// A React-style shell: a title, an empty root, a `<noscript>` asking for JavaScript (9
    /// words), a loading line and the scripts.
    const SHELL: &str = "<!doctype html><html><head><title>Acme Dashboard &mdash; the \
        best dashboard for your whole team and company</title>\
        <script src=/static/js/main.3f2a.js></script><style>body{margin:0}</style></head>\
        <body><noscript>You need to enable JavaScript to run this app.</noscript>\
        <div id=root>Loading…</div>\
        <script>window.__STATE__={\"article\":\"Lots of words that the page writes later on, \
        many many words of it\"};</script></body></html>";

    #[test]
    fn a_shell_is_one() {
        let c = check(SHELL);
        assert_eq!(c.words, 10, "the <noscript> notice and `Loading`");
        assert_eq!(c.scripts, 2);
        assert!(c.script_bytes > 50, "{c:?}");
        assert!(c.is_shell());
        let said = c.describe().unwrap();
        assert!(
            said.starts_with("JavaScript shell: 10 words of text"),
            "{said}"
        );
    }

    #[test]
    fn a_normal_page_is_not_one() {
        let article: String = (0..5)
            .map(|i| format!("<p>Paragraph {i} of the council's report on the harbour plan.</p>"))
            .collect();
        let html = format!(
            "<html><head><title>Harbour</title><script src=/a.js></script></head>\
             <body><h1>Harbour plan</h1>{article}<script>track()</script></body></html>"
        );
        let c = check(&html);
        assert_eq!(c.words, SHELL_MAX_WORDS, "counting stops at the threshold");
        assert!(!c.is_shell());
        assert_eq!(c.describe(), None);
    }

    #[test]
    fn a_page_without_main_content_is_not_a_shell() {
        // A 404 page: its menu and message are text in the HTML.
        let menu: String = ["Home", "News", "Sport", "Weather", "Culture", "Contact us"]
            .iter()
            .map(|m| format!("<li><a href=/{m}>{m}</a></li>"))
            .collect();
        let html = format!(
            "<html><head><title>Not found</title><script src=/analytics.js></script></head>\
             <body><ul>{menu}</ul><h1>Page not found</h1><p>Sorry, the page you asked for \
             has moved or never existed.</p><footer>&copy; 2024 Example News</footer></body></html>"
        );
        assert!(!check(&html).is_shell(), "{:?}", check(&html));
        // A page with almost no text but no script: not a shell either.
        let empty =
            check("<html><head><title>Gallery</title></head><body><img src=a.jpg></body></html>");
        assert_eq!((empty.words, empty.scripts), (0, 0));
        assert!(!empty.is_shell());
    }
}
