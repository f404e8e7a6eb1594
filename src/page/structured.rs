//! Rendering a [`Selection`] with its structure: clean HTML, or Markdown (GitHub-flavoured).
//!
//! [`Page::render`] gives the selected text as plain lines; [`Page::render_as`] gives it in a
//! [`Format`]: the same text with its headings, paragraphs, lists, tables, code blocks, block
//! quotes and line breaks, built from the positioned DOM ([`crate::page::dom`]).
//!
//! **Which nodes.** A node *holds selected text* when some selected byte of one of its text nodes
//! ([`crate::page::dom::Dom::spans`]) decodes to a character that is not white space — the text
//! [`Page::render`] shows. Starting from the document, every element holding selected text is
//! kept with the children that hold selected text; a text node all of whose bytes are selected is
//! kept whole, a partly selected one is cut to its selected parts (character references decoded
//! per part, as [`Page::render`] decodes them; an unselected gap inside it becomes one space).
//! Inside a kept element, between two children that hold selected text, white-space text is kept
//! and unselected text becomes one space (so words never run together); a selected table row
//! keeps all its cells (unselected ones empty, so the columns stay aligned); nothing else without
//! selected text is kept, except, with [`RenderOptions::images`], the images that lie between
//! selected content or directly inside a kept element, `<hr>` between selected content, and
//! `<br>` directly inside a kept element (a line break ends a line in [`Page::render`] too, so
//! `a<span><br>b</span>` stays two lines). So a selection that covers part of a table or list keeps the rows or items it covers.
//!
//! **Clean HTML** ([`Format::Html`], [`Page::render_html`]): the kept elements serialised with
//! no `script`, `style`, `template`, comments, or raw `noscript` text, and with attributes
//! limited to what the structure needs: `href` of `a` (with [`RenderOptions::links`]; without it
//! links are unwrapped to their text), `src` and `alt` of `img` (with
//! [`RenderOptions::images`]; a missing or `data:` `src` is taken from `data-src`, and an image
//! without a usable source is dropped), `class="language-…"` on the `code` of a code block
//! (from a `language-X` or `lang-X` class of the `pre`, its `code`, or the `pre`'s parent),
//! `start` of `ol`, `value` of `li`, `colspan` / `rowspan` of table cells. No `style`, `class`,
//! `id`, event (`on…`) or layout attribute survives. Elements are kept under their own name when
//! HTML gives them structure or meaning (`p`, `h1`–`h6`, lists, tables, `pre`, `code`,
//! `blockquote`, `em`, `strong`, `figure`, sectioning elements, …); any other block-level
//! element ([`crate::page::Tag::is_block`]) becomes a `div` (so block boundaries survive, as
//! they do in [`Page::render`]); any other element (`span`, `font`, custom elements, SVG,
//! MathML) is unwrapped to its content; `title` becomes a `p`. A `pre` (also `listing`, `xmp`,
//! `plaintext`) is written as `<pre><code>` holding its text only (inline markup dropped, `<br>`
//! as a line break, leading blank lines and trailing white space trimmed), so every code block
//! becomes a fenced block in Markdown. Kept elements nest at most [`MAX_NESTING`] deep; deeper
//! ones are unwrapped. Block-level end tags are followed by a newline for readability. The
//! result is an HTML fragment (no `<html>` / `<body>`), UTF-8, with `&`, `<`, `>` (and `"` in
//! attributes) escaped.
//!
//! **Markdown** ([`Format::Markdown`], [`Page::render_markdown`]): that clean HTML converted by
//! the `htmd` crate (a turndown.js port): ATX headings (`## Title`), `-` bullets and `1.` items
//! nested by indentation, GitHub-flavoured pipe tables for tables with a header row, fenced code
//! blocks with the language after the fence (```` ```rust ````), `>` block quotes,
//! `**strong**` / `*em*`, two-space line breaks, links `[text](href)` and images `![alt](src)`
//! with the options. Markdown punctuation in the text is backslash-escaped (`\*`, `\_`, `\[`),
//! a `|` inside a table cell is written `&#124;`. A table's header row is the first row of its
//! `thead`, or else its first row when that has a `th` cell and no other cell with text (a
//! corner cell); every other row is a data row, its `th` cells (row headers) included, and an
//! empty cell stays an empty column (the HTML handed to htmd is written for this: rows without
//! `thead` / `tbody`, `th` only in the header row, a placeholder in empty cells that is removed
//! afterwards). A table without a header row (also one whose header row the selection leaves
//! out) is written as its cells' text, one paragraph each.

use std::fmt;
use std::ops::Range;

use super::dom::{Dom, NodeKind};
use super::Page;
use crate::error::{Error, Result};
use crate::selection::Selection;

/// Kept elements nest at most this deep in [`Page::render_html`]'s output (deeper ones are
/// unwrapped to their content), which bounds the Markdown converter's recursion on deeply nested
/// pages. Unit: elements.
pub const MAX_NESTING: usize = 100;

/// The form of an extract: plain text (as [`Page::render`] gives it), Markdown or clean HTML
/// (module documentation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// Plain text: one line per virtual line ([`Page::render`]); the default.
    #[default]
    Text,
    /// GitHub-flavoured Markdown of the selected subtrees.
    Markdown,
    /// The selected subtrees as clean HTML (an HTML fragment).
    Html,
}

impl Format {
    /// The names [`Format::from_str`](std::str::FromStr) accepts and [`fmt::Display`] writes:
    /// `text`, `markdown`, `html`.
    pub const NAMES: [&'static str; 3] = ["text", "markdown", "html"];

    /// The format's name (one of [`Format::NAMES`]).
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Markdown => "markdown",
            Format::Html => "html",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Format {
    type Err = Error;

    /// Parses a format name (ASCII case-insensitive, trimmed; `md` is `markdown`). Errors:
    /// [`Error::Param`] naming the known formats.
    fn from_str(s: &str) -> Result<Format> {
        match s.trim().to_ascii_lowercase().as_str() {
            "text" => Ok(Format::Text),
            "markdown" | "md" => Ok(Format::Markdown),
            "html" => Ok(Format::Html),
            _ => Err(Error::Param(format!(
                "unknown output format {s:?}; known: {}",
                Format::NAMES.join(", ")
            ))),
        }
    }
}

/// What [`Page::render_as`] keeps beside the text in the Markdown and HTML formats (plain text
/// ignores them). Both off by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct RenderOptions {
    /// Keep links: `a` elements with their `href` (`[text](href)` in Markdown). Off: a link is
    /// its text. `javascript:` links are always unwrapped.
    pub links: bool,
    /// Keep images: `img` with `src` and `alt` (`![alt](src)` in Markdown) where they lie in the
    /// selected content (module documentation). Off: no images.
    pub images: bool,
}

/// The selected part of one text node.
#[derive(Debug, Clone)]
enum TextSel {
    /// No byte selected.
    None,
    /// Every byte selected: the node's own text.
    All,
    /// Some bytes selected: their decoded text, unselected gaps as one space (or a newline
    /// when the gap held one).
    Part(String),
}

/// Stands in an empty table cell of the HTML handed to the Markdown converter (which drops
/// empty cells, shifting the row's later cells one column left); removed from its output.
const EMPTY_CELL: char = '\u{E000}';

/// The kept elements' walk state (module documentation).
struct Writer<'a> {
    dom: &'a Dom,
    opts: RenderOptions,
    /// Writing for the Markdown converter: tables as header row + data rows (module
    /// documentation), empty cells holding [`EMPTY_CELL`].
    for_markdown: bool,
    /// Per table element: its header row, once looked up ([`Writer::header_row`]).
    header_rows: std::collections::HashMap<usize, Option<usize>>,
    /// Per node: the selected part of a text node.
    texts: Vec<TextSel>,
    /// Per node: does its subtree hold selected text?
    holds: Vec<bool>,
    out: String,
}

/// How a node is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// It holds selected text: written with its kept content.
    Kept,
    /// It holds none but lies between selected content (or is an image or a `br` of a kept
    /// element): only its images (and itself when it is a `br` / `hr`) are written.
    Between,
    /// An unselected cell of a kept table row: written empty.
    EmptyCell,
}

/// One step of the (iterative) walk.
enum Task {
    /// Write node `id` in `mode`, `depth` kept elements deep.
    Node { id: usize, mode: Mode, depth: usize },
    /// Write this text as is (already escaped).
    Raw(&'static str),
    /// Write the end tag of `name`.
    Close(&'static str),
}

impl Page {
    /// The selected content of `sel` in `format`: [`Format::Text`] is exactly [`Page::render`]
    /// (`opts` ignored), [`Format::Html`] is [`Page::render_html`], [`Format::Markdown`] is
    /// [`Page::render_markdown`]. Never fails: any page and selection (any byte ranges, also
    /// beyond the text or off char boundaries, which are skipped) give a best-effort string,
    /// empty when nothing is selected. O(page nodes + selected bytes) plus, for Markdown, the
    /// converter's parse of the clean HTML.
    pub fn render_as(&self, sel: &Selection, format: Format, opts: &RenderOptions) -> String {
        match format {
            Format::Text => self.render(sel),
            Format::Html => self.render_html(sel, opts),
            Format::Markdown => self.render_markdown(sel, opts),
        }
    }

    /// The elements of the positioned DOM that hold the selected text of `sel`, as a clean HTML
    /// fragment (see the module documentation for what is kept). Empty when `sel` holds no
    /// text. O(page nodes + selected bytes); builds the DOM on first use.
    pub fn render_html(&self, sel: &Selection, opts: &RenderOptions) -> String {
        Writer::new(self, sel, *opts, false).write()
    }

    /// The selected content of `sel` as GitHub-flavoured Markdown: [`Page::render_html`]
    /// converted by the `htmd` crate (module documentation). Should the converter fail or panic
    /// (a bug), the plain text ([`Page::render`]) is returned instead. Empty when `sel` holds no
    /// text.
    pub fn render_markdown(&self, sel: &Selection, opts: &RenderOptions) -> String {
        let html = Writer::new(self, sel, *opts, true).write();
        if html.is_empty() {
            return String::new();
        }
        match markdown_of_html(&html) {
            Some(md) if md.contains(EMPTY_CELL) => md.replace(EMPTY_CELL, ""),
            Some(md) => md,
            None => self.render(sel),
        }
    }
}

/// Converts a clean HTML fragment (as [`Page::render_html`] writes it) to Markdown with htmd:
/// `-` bullets, ATX headings, fenced code. `None` when the converter fails or panics.
fn markdown_of_html(html: &str) -> Option<String> {
    use htmd::options::{BulletListMarker, Options};
    let run = || {
        let converter = htmd::HtmlToMarkdown::builder()
            .options(Options {
                bullet_list_marker: BulletListMarker::Dash,
                ul_bullet_spacing: 1,
                ol_number_spacing: 1,
                ..Options::default()
            })
            .scripting_enabled(false)
            .build();
        converter.convert(html).ok()
    };
    std::panic::catch_unwind(run).ok().flatten()
}

/// Kept block elements: written under their own name (module documentation), and the HTML
/// output starts a new line after their end tag (`hr` is void).
const BLOCK_ELEMENTS: &[&str] = &[
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "table",
    "caption",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "blockquote",
    "hr",
    "figure",
    "figcaption",
    "details",
    "summary",
    "address",
    "article",
    "section",
    "main",
    "header",
    "footer",
    "aside",
    "nav",
    "div",
];

/// Kept table cells and inline elements: written under their own name, on the line they are
/// on (`br` is void).
const INLINE_ELEMENTS: &[&str] = &[
    "th", "td", "code", "em", "strong", "b", "i", "u", "s", "del", "ins", "sub", "sup", "mark",
    "small", "kbd", "samp", "var", "cite", "q", "abbr", "br",
];

/// Elements written under their own name (module documentation); `br`, `hr`, `img` are void.
fn kept_name(name: &str) -> Option<&'static str> {
    BLOCK_ELEMENTS
        .iter()
        .chain(INLINE_ELEMENTS)
        .find(|&&k| k == name)
        .copied()
}

/// Elements after whose end tag the HTML output starts a new line.
fn is_block_name(name: &str) -> bool {
    name == "pre" || BLOCK_ELEMENTS.contains(&name)
}

/// Elements whose text is preformatted (written as `<pre><code>`).
fn is_pre_name(name: &str) -> bool {
    matches!(name, "pre" | "listing" | "xmp" | "plaintext")
}

/// The language of a `language-X` / `lang-X` class token, sanitised to `[A-Za-z0-9_+#.-]`.
fn language_of(class: &str) -> Option<String> {
    class.split_ascii_whitespace().find_map(|t| {
        let lang = t
            .strip_prefix("language-")
            .or_else(|| t.strip_prefix("lang-"))?;
        let lang: String = lang
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '#' | '.' | '-'))
            .collect();
        (!lang.is_empty()).then_some(lang)
    })
}

/// Is `s` only white space (or empty)?
fn blank(s: &str) -> bool {
    s.chars().all(char::is_whitespace)
}

/// A positive integer attribute value, as written (`colspan="2"`), when it is one.
fn count_attr(v: &str) -> Option<u32> {
    v.trim().parse::<u32>().ok().filter(|&n| n > 0)
}

/// The text of `src` (a piece of a text node's source) as the node would hold it: character
/// references decoded (as [`Page::render`] decodes them), CR LF and CR read as LF, NUL dropped.
fn decode_piece(src: &str, out: &mut String) {
    let dec = if src.contains('&') {
        htmlize::unescape(src)
    } else {
        std::borrow::Cow::Borrowed(src)
    };
    if dec.contains(['\r', '\0']) {
        out.push_str(
            &dec.replace("\r\n", "\n")
                .replace('\r', "\n")
                .replace('\0', ""),
        );
    } else {
        out.push_str(&dec);
    }
}

impl<'a> Writer<'a> {
    /// Finds the selected part of every text node and which nodes hold selected text.
    /// O(nodes + text nodes · log ranges + selected bytes).
    fn new(page: &'a Page, sel: &Selection, opts: RenderOptions, for_markdown: bool) -> Writer<'a> {
        let dom = page.dom();
        let n = dom.len();
        let mut texts = vec![TextSel::None; n];
        let mut holds = vec![false; n];
        if !sel.is_empty() {
            for (id, spans) in dom.text_nodes() {
                if dom.is_non_text(id) {
                    continue;
                }
                let t = text_sel(page.text(), spans, sel);
                holds[id] = match &t {
                    TextSel::None => false,
                    TextSel::All => !blank(dom.node_text(id).unwrap_or("")),
                    TextSel::Part(s) => !blank(s),
                };
                texts[id] = t;
            }
            // Children come after their parents (pre-order): one backward pass.
            for id in (1..n).rev() {
                if holds[id] {
                    if let Some(p) = dom.parent(id) {
                        holds[p] = true;
                    }
                }
            }
        }
        Writer {
            dom,
            opts,
            for_markdown,
            header_rows: std::collections::HashMap::new(),
            texts,
            holds,
            out: String::new(),
        }
    }

    /// The clean HTML of the kept nodes (module documentation).
    fn write(mut self) -> String {
        if self.holds.first() != Some(&true) {
            return String::new();
        }
        let mut stack: Vec<Task> = Vec::new();
        self.push_children(0, 0, &mut stack);
        while let Some(task) = stack.pop() {
            match task {
                Task::Raw(s) => self.out.push_str(s),
                Task::Close(name) => {
                    self.out.push_str("</");
                    self.out.push_str(name);
                    self.out.push('>');
                    if is_block_name(name) {
                        self.out.push('\n');
                    }
                }
                Task::Node { id, mode, depth } => self.node(id, mode, depth, &mut stack),
            }
        }
        let trimmed = self.out.trim_end().len();
        self.out.truncate(trimmed);
        self.out
    }

    /// Writes (or schedules) node `id` in `mode`.
    fn node(&mut self, id: usize, mode: Mode, depth: usize, stack: &mut Vec<Task>) {
        let dom = self.dom;
        match dom.kind(id) {
            NodeKind::Text => {
                if mode == Mode::Kept {
                    self.text(id);
                }
                return;
            }
            NodeKind::Element => {}
            _ => return,
        }
        let html = dom.is_html_element(id);
        let name = if html {
            dom.tag_name(id).unwrap_or("")
        } else {
            ""
        };
        match mode {
            Mode::Between => {
                match name {
                    "img" => self.image(id),
                    "br" => self.out.push_str("<br>"),
                    "hr" => self.out.push_str("<hr>\n"),
                    _ => {
                        if self.opts.images {
                            // Only images inside: one contiguous id range (pre-order).
                            let inner: Vec<usize> = dom
                                .subtree(id)
                                .skip(1)
                                .filter(|&c| {
                                    dom.is_html_element(c) && dom.tag_name(c) == Some("img")
                                })
                                .collect();
                            for c in inner {
                                self.image(c);
                            }
                        }
                    }
                }
                return;
            }
            Mode::EmptyCell => {
                let cell = self.cell_name(id, name);
                self.open(id, cell);
                if self.for_markdown {
                    self.out.push(EMPTY_CELL);
                }
                self.out.push_str("</");
                self.out.push_str(cell);
                self.out.push('>');
                return;
            }
            Mode::Kept => {}
        }
        if is_pre_name(name) {
            self.pre(id);
            return;
        }
        if name == "img" {
            self.image(id);
            return;
        }
        if matches!(name, "br" | "hr") {
            self.out
                .push_str(if name == "br" { "<br>" } else { "<hr>\n" });
            return;
        }
        let out_name = match name {
            _ if depth >= MAX_NESTING => None,
            "a" => self.link_target(id).map(|_| "a"),
            "title" => Some("p"),
            _ if !html => None,
            _ => kept_name(name).or_else(|| dom.tag(id).is_block().then_some("div")),
        };
        // The document's own wrappers are never written; for Markdown, a table is its rows.
        let out_name = match name {
            "html" | "head" | "body" => None,
            "thead" | "tbody" | "tfoot" if self.for_markdown => None,
            "td" | "th" if out_name.is_some() => Some(self.cell_name(id, name)),
            _ => out_name,
        };
        let depth = match out_name {
            Some(o) => {
                self.open(id, o);
                stack.push(Task::Close(o));
                depth + 1
            }
            None => depth,
        };
        self.push_children(id, depth, stack);
    }

    /// Schedules the children of kept node `id` (module documentation: kept children, white
    /// space and one space for unselected text between them, cells of a kept row, images).
    fn push_children(&mut self, id: usize, depth: usize, stack: &mut Vec<Task>) {
        let dom = self.dom;
        let kids: Vec<usize> = dom.children(id).collect();
        let first = kids.iter().position(|&c| self.holds[c]);
        let last = kids.iter().rposition(|&c| self.holds[c]);
        let row = dom.is_html_element(id) && dom.tag_name(id) == Some("tr");
        let mut tasks: Vec<Task> = Vec::with_capacity(kids.len());
        for (i, &c) in kids.iter().enumerate() {
            let between = matches!((first, last), (Some(f), Some(l)) if f < i && i < l);
            if self.holds[c] {
                tasks.push(Task::Node {
                    id: c,
                    mode: Mode::Kept,
                    depth,
                });
                continue;
            }
            match dom.kind(c) {
                NodeKind::Text if between && !dom.is_non_text(c) => {
                    let t = dom.node_text(c).unwrap_or("");
                    // White space stays white space; unselected words become one space.
                    tasks.push(Task::Raw(if t.contains('\n') && blank(t) {
                        "\n"
                    } else {
                        " "
                    }));
                }
                NodeKind::Element => {
                    let name = dom.tag_name(c).unwrap_or("");
                    let html = dom.is_html_element(c);
                    if row && html && matches!(name, "td" | "th") {
                        tasks.push(Task::Node {
                            id: c,
                            mode: Mode::EmptyCell,
                            depth,
                        });
                    } else if between || (html && matches!(name, "img" | "br")) {
                        tasks.push(Task::Node {
                            id: c,
                            mode: Mode::Between,
                            depth,
                        });
                    }
                }
                _ => {}
            }
        }
        stack.extend(tasks.into_iter().rev());
    }

    /// The name cell `id` (a `td` or `th` named `name`) is written under: as it is in clean HTML;
    /// for Markdown, `th` in its table's header row ([`Writer::header_row`]) and `td` elsewhere
    /// (the converter takes only `td` cells from other rows, and a `th` anywhere as a header).
    fn cell_name(&mut self, id: usize, name: &str) -> &'static str {
        if !self.for_markdown {
            return if name == "th" { "th" } else { "td" };
        }
        let dom = self.dom;
        let row = dom.parent(id);
        let table = row.and_then(|r| {
            let p = dom.parent(r)?;
            if dom.tag_name(p) == Some("table") {
                Some(p)
            } else {
                dom.parent(p).filter(|&t| dom.tag_name(t) == Some("table"))
            }
        });
        let header = match table {
            Some(t) => *self
                .header_rows
                .entry(t)
                .or_insert_with(|| header_row(dom, t)),
            None => None,
        };
        if header.is_some() && header == row {
            "th"
        } else {
            "td"
        }
    }

    /// Writes the start tag `<name …>` of element `id` with the attributes it keeps.
    fn open(&mut self, id: usize, name: &str) {
        let dom = self.dom;
        self.out.push('<');
        self.out.push_str(name);
        let attr = |out: &mut String, k: &str, v: &str| {
            out.push(' ');
            out.push_str(k);
            out.push_str("=\"");
            out.push_str(&htmlize::escape_attribute(v));
            out.push('"');
        };
        match name {
            "a" => {
                if let Some(href) = self.link_target(id) {
                    attr(&mut self.out, "href", href);
                }
            }
            "ol" => {
                if let Some(n) = dom.attr(id, "start").and_then(count_attr) {
                    attr(&mut self.out, "start", &n.to_string());
                }
            }
            "li" => {
                if let Some(n) = dom.attr(id, "value").and_then(count_attr) {
                    attr(&mut self.out, "value", &n.to_string());
                }
            }
            "td" | "th" => {
                for k in ["colspan", "rowspan"] {
                    if let Some(n) = dom.attr(id, k).and_then(count_attr).filter(|&n| n > 1) {
                        attr(&mut self.out, k, &n.to_string());
                    }
                }
            }
            _ => {}
        }
        self.out.push('>');
    }

    /// The `href` a kept link is written with: with [`RenderOptions::links`], a non-empty
    /// `href` that is not `javascript:`; `None` otherwise (the link is unwrapped).
    fn link_target(&self, id: usize) -> Option<&'a str> {
        if !self.opts.links {
            return None;
        }
        let href = self.dom.attr(id, "href")?.trim();
        let js = href
            .get(..11)
            .is_some_and(|p| p.eq_ignore_ascii_case("javascript:"));
        (!href.is_empty() && !js).then_some(href)
    }

    /// Writes image `id` as `<img src alt>` with [`RenderOptions::images`] and a usable source.
    fn image(&mut self, id: usize) {
        if !self.opts.images {
            return;
        }
        let dom = self.dom;
        let usable = |s: &&str| {
            let s = s.trim();
            !s.is_empty() && !s.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("data:"))
        };
        let Some(src) = dom
            .attr(id, "src")
            .filter(usable)
            .or_else(|| dom.attr(id, "data-src").filter(usable))
        else {
            return;
        };
        self.out.push_str("<img src=\"");
        self.out.push_str(&htmlize::escape_attribute(src.trim()));
        self.out.push_str("\" alt=\"");
        self.out.push_str(&htmlize::escape_attribute(
            dom.attr(id, "alt").unwrap_or(""),
        ));
        self.out.push_str("\">");
    }

    /// Writes kept text node `id`: its selected text, escaped.
    fn text(&mut self, id: usize) {
        match &self.texts[id] {
            TextSel::None => {}
            TextSel::All => {
                let t = self.dom.node_text(id).unwrap_or("");
                self.out.push_str(&htmlize::escape_text(t));
            }
            TextSel::Part(s) => self.out.push_str(&htmlize::escape_text(s.as_str())),
        }
    }

    /// Writes preformatted element `id` as `<pre><code class="language-…">text</code></pre>`:
    /// its text nodes' kept text in document order, white space kept, `<br>` as a newline,
    /// inline markup dropped; leading blank lines and trailing white space trimmed.
    fn pre(&mut self, id: usize) {
        let dom = self.dom;
        let mut text = String::new();
        let mut lang: Option<String> = None;
        let class_lang = |n: usize| dom.attr(n, "class").and_then(language_of);
        for c in dom.subtree(id) {
            match dom.kind(c) {
                NodeKind::Text if !dom.is_non_text(c) => match &self.texts[c] {
                    TextSel::All => text.push_str(dom.node_text(c).unwrap_or("")),
                    TextSel::Part(s) => text.push_str(s),
                    TextSel::None => {
                        let t = dom.node_text(c).unwrap_or("");
                        if blank(t) {
                            text.push_str(t);
                        } else {
                            text.push(' ');
                        }
                    }
                },
                NodeKind::Element => {
                    if lang.is_none() && matches!(dom.tag_name(c), Some("code" | "pre")) {
                        lang = class_lang(c);
                    }
                    if dom.tag_name(c) == Some("br") {
                        text.push('\n');
                    }
                }
                _ => {}
            }
        }
        let lang = lang.or_else(|| dom.parent(id).and_then(class_lang));
        // Drop leading blank lines (keep the first line's indentation) and trailing space.
        let start = text
            .char_indices()
            .take_while(|(_, ch)| ch.is_whitespace())
            .filter(|(_, ch)| *ch == '\n')
            .map(|(i, _)| i + 1)
            .last()
            .unwrap_or(0);
        let body = text[start..].trim_end();
        if body.is_empty() {
            return;
        }
        self.out.push_str("<pre><code");
        if let Some(l) = lang {
            self.out.push_str(" class=\"language-");
            self.out.push_str(&l);
            self.out.push('"');
        }
        self.out.push('>');
        self.out.push_str(&htmlize::escape_text(body));
        self.out.push_str("</code></pre>\n");
    }
}

/// The header row of `table` for Markdown: the first row of its `thead`; without one, its first
/// row when that has a `th` cell and every other cell is without text (a corner cell). `None`
/// otherwise: the table has no header, and the converter writes its cells' text.
fn header_row(dom: &Dom, table: usize) -> Option<usize> {
    let is = |id: usize, name: &str| dom.is_html_element(id) && dom.tag_name(id) == Some(name);
    let mut first = None;
    for c in dom.children(table) {
        if is(c, "tr") {
            first = first.or(Some(c));
        } else if is(c, "thead") || is(c, "tbody") || is(c, "tfoot") {
            let row = dom.children(c).find(|&r| is(r, "tr"));
            if is(c, "thead") && row.is_some() {
                return row;
            }
            first = first.or(row);
        }
    }
    let row = first?;
    let text = |cell: usize| {
        dom.subtree(cell).any(|n| {
            dom.kind(n) == NodeKind::Text
                && !dom.is_non_text(n)
                && !blank(dom.node_text(n).unwrap_or(""))
        })
    };
    let cells: Vec<usize> = dom
        .children(row)
        .filter(|&c| is(c, "td") || is(c, "th"))
        .collect();
    let has_th = cells.iter().any(|&c| is(c, "th"));
    let others_empty = cells.iter().all(|&c| is(c, "th") || !text(c));
    (has_th && others_empty).then_some(row)
}

/// The selected part of a text node whose source spans are `spans` (byte ranges of `text`).
/// O(spans · log ranges + selected bytes).
fn text_sel(text: &str, spans: &[Range<usize>], sel: &Selection) -> TextSel {
    let ranges = sel.ranges();
    // The covered pieces of every span, in order.
    let mut pieces: Vec<Range<usize>> = Vec::new();
    let mut total = 0usize;
    for s in spans {
        total += s.end - s.start;
        let first = ranges.partition_point(|r| r.end <= s.start);
        for r in &ranges[first..] {
            if r.start >= s.end {
                break;
            }
            let a = r.start.max(s.start);
            let b = r.end.min(s.end);
            if a < b {
                pieces.push(a..b);
            }
        }
    }
    if pieces.is_empty() {
        return TextSel::None;
    }
    let covered: usize = pieces.iter().map(|p| p.end - p.start).sum();
    if covered == total {
        return TextSel::All;
    }
    let mut out = String::new();
    // The gaps: before the first piece, between pieces, after the last (within the spans).
    let gap = |out: &mut String, g: Range<usize>| {
        if g.start < g.end {
            let src = text.get(g).unwrap_or(" ");
            out.push(if src.contains('\n') { '\n' } else { ' ' });
        }
    };
    let mut at = spans.first().map_or(0, |s| s.start);
    for p in &pieces {
        // Span boundaries between pieces are not gaps when nothing lies between in the spans.
        let unselected: usize = spans
            .iter()
            .map(|s| s.end.min(p.start).saturating_sub(s.start.max(at)))
            .sum();
        if unselected > 0 {
            gap(&mut out, at..p.start);
        }
        if let Some(src) = text.get(p.clone()) {
            decode_piece(src, &mut out);
        }
        at = p.end;
    }
    let end = spans.last().map_or(at, |s| s.end);
    if end > at {
        gap(&mut out, at..end);
    }
    TextSel::Part(out)
}
