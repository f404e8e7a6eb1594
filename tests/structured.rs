//! Structured output (`Page::render_as`, `ExtractJob::format`, `extract --format markdown|html`):
//! a hand-made page with a table, a code block, nested lists, headings, a block quote, a link
//! and an image; bad inputs; the command line; and (ignored) the corpus check that Markdown
//! stripped of its marks scores as the plain text does.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use cescope::batch::{ExtractJob, InputRecord};
use cescope::page::{DecodeOptions, Format, Page, RenderOptions};
use cescope::selection::Selection;

/// A hand-made article page: navigation, a script and a footer around the article; event,
/// style, class and id attributes and a script inside it.
const PAGE: &str = r#"<!DOCTYPE html>
<html><head><title>Rust notes</title><style>p { color: red }</style>
<script>var x = "<p>not text</p>";</script></head>
<body>
<nav class="menu"><a href="/">Home</a> | <a href="/about">About</a></nav>
<article id="post" class="post" style="margin: 0">
<h2 class="title">Comparing crates</h2>
<p onclick="track()">The <a href="https://crates.io/crates/htmd" onmouseover="x()">htmd</a> crate
converts <em>HTML</em> to <strong>Markdown</strong>.<br>It keeps tables.</p>
<script>document.write("<b>injected</b>");</script>
<img src="/img/chart.png" alt="A chart" width="300" style="border: 1px" onerror="bad()">
<h3>The table</h3>
<table class="data" border="1" cellpadding="4">
<thead><tr><th>Crate</th><th>License</th><th>Stars</th></tr></thead>
<tbody>
<tr><td>htmd</td><td>Apache-2.0</td><td>300</td></tr>
<tr><td>html2md</td><td>MIT</td><td>100</td></tr>
</tbody>
</table>
<h3>The code</h3>
<pre class="highlight"><code class="language-rust">fn main() {
    let v: Vec&lt;u8&gt; = vec![1, 2];
    if v.len() &lt; 3 &amp;&amp; true {
        println!("{:?}", v);
    }
}</code></pre>
<ul>
<li>First item
<ul><li>Nested one</li><li>Nested <span style="color:red">two</span></li></ul>
</li>
<li>Second item</li>
</ul>
<blockquote><p>Quoted wisdom here.</p></blockquote>
</article>
<footer>Copyright 2024</footer>
</body></html>
"#;

/// The byte range of the `<article>` element in the page's text.
fn article_range(page: &Page) -> std::ops::Range<usize> {
    let t = page.text();
    let a = t.find("<article").expect("the page has an article");
    let b = t.find("</article>").expect("the page has an article end");
    a..b
}

/// The selection of the `<article>` element's text (normal form).
fn article(page: &Page) -> Selection {
    page.normalize(&Selection::from_range(article_range(page)))
}

/// Render options with links and images kept or not.
fn keep(links: bool, images: bool) -> RenderOptions {
    RenderOptions { links, images }
}

fn markdown(page: &Page, sel: &Selection, opts: RenderOptions) -> String {
    page.render_as(sel, Format::Markdown, &opts)
}

/// The cells of the Markdown table rows (lines starting with `|`), trimmed.
fn table_rows(md: &str) -> Vec<Vec<String>> {
    md.lines()
        .filter(|l| l.trim_start().starts_with('|'))
        .map(|l| {
            let l = l.trim();
            l.trim_start_matches('|')
                .trim_end_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn markdown_keeps_the_table_as_a_gfm_table() {
    let page = Page::from_text("t.html", PAGE);
    let md = markdown(&page, &article(&page), RenderOptions::default());
    let rows = table_rows(&md);
    assert_eq!(rows.len(), 4, "header, delimiter, two rows:\n{md}");
    assert_eq!(rows[0], ["Crate", "License", "Stars"], "{md}");
    assert!(
        rows[1].len() == 3
            && rows[1]
                .iter()
                .all(|c| c.len() >= 3 && c.chars().all(|ch| ch == '-' || ch == ':')),
        "GFM delimiter row: {:?}",
        rows[1]
    );
    assert_eq!(rows[2], ["htmd", "Apache-2.0", "300"]);
    assert_eq!(rows[3], ["html2md", "MIT", "100"]);
    // The table's lines are contiguous (one table, not three).
    let lines: Vec<&str> = md.lines().collect();
    let first = lines.iter().position(|l| l.starts_with('|')).unwrap();
    assert!(lines[first..first + 4].iter().all(|l| l.starts_with('|')));
}

#[test]
fn markdown_keeps_the_code_block_as_a_rust_fence() {
    let page = Page::from_text("t.html", PAGE);
    let md = markdown(&page, &article(&page), RenderOptions::default());
    let lines: Vec<&str> = md.lines().collect();
    let open = lines
        .iter()
        .position(|l| *l == "```rust")
        .unwrap_or_else(|| panic!("no ```rust fence:\n{md}"));
    let close = open
        + 1
        + lines[open + 1..]
            .iter()
            .position(|l| *l == "```")
            .unwrap_or_else(|| panic!("the fence is not closed:\n{md}"));
    // The code's lines, indentation and characters as written (references decoded, no escapes).
    assert_eq!(
        lines[open + 1..close],
        [
            "fn main() {",
            "    let v: Vec<u8> = vec![1, 2];",
            "    if v.len() < 3 && true {",
            "        println!(\"{:?}\", v);",
            "    }",
            "}",
        ]
    );
}

#[test]
fn markdown_keeps_headings_lists_quotes_and_line_breaks() {
    let page = Page::from_text("t.html", PAGE);
    let md = markdown(&page, &article(&page), RenderOptions::default());
    let lines: Vec<&str> = md.lines().collect();
    let at = |want: &str| {
        lines
            .iter()
            .position(|l| *l == want)
            .unwrap_or_else(|| panic!("no line {want:?} in:\n{md}"))
    };
    assert_eq!(at("## Comparing crates"), 0, "{md}");
    let table = at("### The table");
    let code = at("### The code");
    assert!(table < code);
    // Nested list: the nested items indented under their parent, the parent's sibling not.
    let first = at("- First item");
    let n1 = lines
        .iter()
        .position(|l| l.trim_start() == "- Nested one")
        .unwrap_or_else(|| panic!("no nested item:\n{md}"));
    let n2 = lines
        .iter()
        .position(|l| l.trim_start() == "- Nested two")
        .unwrap();
    let second = at("- Second item");
    assert!(first < n1 && n1 < n2 && n2 < second, "{md}");
    let indent = |l: &str| l.len() - l.trim_start().len();
    assert!(indent(lines[n1]) >= 2 && indent(lines[n1]) == indent(lines[n2]));
    assert_eq!(at("> Quoted wisdom here."), lines.len() - 1);
    // Emphasis, and the <br> as a Markdown hard line break (two spaces) before the next line.
    let p = lines
        .iter()
        .position(|l| l.starts_with("The htmd crate"))
        .unwrap_or_else(|| panic!("no paragraph:\n{md}"));
    assert_eq!(
        lines[p], "The htmd crate converts *HTML* to **Markdown**.  ",
        "{md}"
    );
    assert_eq!(lines[p + 1], "It keeps tables.");
    // Outside the selection: nothing.
    for gone in [
        "Home",
        "About",
        "Copyright",
        "Rust notes",
        "not text",
        "injected",
    ] {
        assert!(!md.contains(gone), "{gone:?} in:\n{md}");
    }
}

#[test]
fn links_and_images_only_when_asked() {
    let page = Page::from_text("t.html", PAGE);
    let sel = article(&page);
    let plain = markdown(&page, &sel, RenderOptions::default());
    assert!(!plain.contains("]("), "{plain}");
    assert!(!plain.contains("chart"), "{plain}");
    let links = markdown(&page, &sel, keep(true, false));
    assert!(
        links.contains("The [htmd](https://crates.io/crates/htmd) crate"),
        "{links}"
    );
    assert!(!links.contains("![A chart"), "{links}");
    let images = markdown(&page, &sel, keep(false, true));
    assert!(images.contains("![A chart](/img/chart.png)"), "{images}");
    assert!(!images.contains("](https"), "{images}");
    let both = markdown(&page, &sel, keep(true, true));
    assert!(both.contains("![A chart](/img/chart.png)"), "{both}");
    let html = page.render_as(&sel, Format::Html, &keep(true, true));
    assert!(
        html.contains(r#"<img src="/img/chart.png" alt="A chart">"#),
        "{html}"
    );
    assert!(
        html.contains(r#"<a href="https://crates.io/crates/htmd">htmd</a>"#),
        "{html}"
    );
}

/// Attributes written in `html` (every `name=` inside a tag).
fn attribute_names(html: &str) -> Vec<String> {
    let mut names = Vec::new();
    for tag in html.split('<').skip(1) {
        let tag = tag.split('>').next().unwrap_or("");
        for part in tag.split_whitespace().skip(1) {
            if let Some((name, _)) = part.split_once('=') {
                names.push(name.to_ascii_lowercase());
            }
        }
    }
    names
}

#[test]
fn html_is_the_selection_cleaned() {
    let page = Page::from_text("t.html", PAGE);
    let all = keep(true, true);
    // The normal-form selection, and the raw byte range of the whole article (which covers
    // the script's text too): both come out clean.
    for sel in [article(&page), Selection::from_range(article_range(&page))] {
        let html = page.render_as(&sel, Format::Html, &all);
        let lower = html.to_ascii_lowercase();
        for bad in [
            "<script",
            "document.write",
            "injected",
            "<style",
            "color",
            "onclick",
            "onmouseover",
            "onerror",
            "track()",
            "style=",
            "class=\"post",
            "class=\"title",
            "class=\"data",
            "id=",
            "border",
            "cellpadding",
            "width",
            "<span",
            "<nav",
            "home",
            "copyright",
        ] {
            assert!(!lower.contains(bad), "{bad:?} in:\n{html}");
        }
        let names = attribute_names(&html);
        assert!(
            names
                .iter()
                .all(|n| ["href", "src", "alt", "class"].contains(&n.as_str())),
            "{names:?}"
        );
        // The one class left is the code block's language.
        assert_eq!(html.matches("class=").count(), 1, "{html}");
        assert!(html.contains(r#"<pre><code class="language-rust">fn main() {"#));
        assert!(html.contains("Vec&lt;u8&gt;"), "{html}");
        assert!(html.contains("<th>Crate</th><th>License</th><th>Stars</th>"));
        assert!(html.contains("<h2>Comparing crates</h2>"));
        assert!(html.contains("<li>Nested two</li>"), "{html}");
        assert!(html.contains("<blockquote><p>Quoted wisdom here.</p>"));
    }
}

/// Tables as pages write them: a second header row, row headers (`th` in body rows), an empty
/// cell, a pipe in a cell, a header with a corner cell, an infobox without a header row.
const TABLES: &str = r#"<html><body><main>
<table><thead><tr><th>Film</th><th>Year</th><th>Notes</th></tr>
<tr><td>title</td><td>release</td><td>plot</td></tr></thead>
<tbody><tr><th scope="row"><i>Repeat Showing</i></th><td>1947</td><td>Either | or</td></tr>
<tr><th scope="row">Second Reel</th><td></td><td>Scientists travel</td></tr></tbody></table>
<table><tr><td></td><th>North</th><th>South</th></tr>
<tr><th>Rain</th><td>12</td><td>7</td></tr></table>
<table><tr><th>Born</th><td>1950</td></tr><tr><th>Died</th><td>2020</td></tr></table>
</main></body></html>"#;

#[test]
fn markdown_tables_keep_their_columns() {
    let page = Page::from_text("tables.html", TABLES);
    let all = Selection::from_range(0..page.text().len());
    let md = markdown(&page, &all, RenderOptions::default());
    let rows = table_rows(&md);
    assert_eq!(rows.len(), 8, "{md}");
    assert_eq!(rows[0], ["Film", "Year", "Notes"]);
    assert_eq!(rows[2], ["title", "release", "plot"]);
    assert_eq!(rows[3], ["*Repeat Showing*", "1947", "Either &#124; or"]);
    assert_eq!(rows[4], ["Second Reel", "", "Scientists travel"]);
    assert_eq!(rows[5], ["", "North", "South"]);
    assert_eq!(rows[7], ["Rain", "12", "7"]);
    // No header row: the cells' text, in order.
    let tail = &md[md.find("| Rain").unwrap()..];
    let words: Vec<&str> = tail.split_whitespace().skip(7).collect();
    assert_eq!(words, ["Born", "1950", "Died", "2020"], "{md}");
    assert!(!md.contains('\u{E000}'));
    // The clean HTML keeps the page's own table structure.
    let html = page.render_as(&all, Format::Html, &RenderOptions::default());
    assert!(html.contains("<thead><tr><th>Film</th>"), "{html}");
    assert!(
        html.contains("<tr><th><i>Repeat Showing</i></th><td>1947</td>"),
        "{html}"
    );
    assert!(html.contains("<tr><th>Second Reel</th><td></td>"), "{html}");
    // A selection of the header and a row's two first cells: the row keeps its three columns.
    let t = page.text();
    let cut = |a: usize, b: usize| {
        let sel = page.normalize(&Selection::from_range(a..b));
        markdown(&page, &sel, RenderOptions::default())
    };
    let head = t.find("Film").unwrap();
    let end = t.find("1947").unwrap() + 4;
    let md = cut(head, end);
    assert_eq!(table_rows(&md).len(), 4, "{md}");
    assert_eq!(table_rows(&md)[3], ["*Repeat Showing*", "1947", ""], "{md}");
    // Without the header row: the cells' text.
    let a = t.find("Second Reel").unwrap();
    let b = t.find("Scientists travel").unwrap() + "Scientists".len();
    let md = cut(a, b);
    assert!(table_rows(&md).is_empty(), "{md}");
    assert_eq!(
        md.split_whitespace().collect::<Vec<_>>(),
        ["Second", "Reel", "Scientists"]
    );
}

#[test]
fn line_breaks_inside_inline_elements_stay() {
    // A ranking written as `<br>` inside nested spans: one entry per line, as in the text.
    let src = "<p>Ranks:<span> <br>1. Finland <span> <br>2. Norway<span> <br>3. Chile</span></span></span></p>";
    let page = Page::from_text("br.html", src);
    let all = Selection::from_range(0..page.text().len());
    let md = markdown(&page, &all, RenderOptions::default());
    let lines: Vec<&str> = md.lines().map(str::trim).collect();
    assert_eq!(
        lines,
        ["Ranks:", "1\\. Finland", "2\\. Norway", "3\\. Chile"],
        "{md}"
    );
    assert_eq!(
        cescope::metrics::words(&strip_marks(&md)),
        cescope::metrics::words(&page.render(&all))
    );
}

#[test]
fn text_format_is_render() {
    let page = Page::from_text("t.html", PAGE);
    for sel in [
        article(&page),
        Selection::from_range(0..page.text().len()),
        Selection::new(),
    ] {
        let opts = keep(true, true);
        assert_eq!(page.render_as(&sel, Format::Text, &opts), page.render(&sel));
    }
}

#[test]
fn a_partial_selection_keeps_what_it_covers() {
    let page = Page::from_text("t.html", PAGE);
    let t = page.text();
    // Only the second body row's first two cells: one row with three cells, the last empty.
    let a = t.find("<td>html2md").unwrap();
    let b = t.find("MIT</td>").unwrap() + "MIT".len();
    let sel = page.normalize(&Selection::from_range(a..b));
    let html = page.render_as(&sel, Format::Html, &RenderOptions::default());
    assert!(
        html.contains("<tr><td>html2md</td><td>MIT</td><td></td></tr>"),
        "{html}"
    );
    assert!(!html.contains("htmd<"), "{html}");
    // Half a paragraph: only its selected words.
    let a = t.find("converts").unwrap();
    let b = a + "converts".len();
    let md = page.render_as(
        &Selection::from_range(a..b),
        Format::Markdown,
        &RenderOptions::default(),
    );
    assert_eq!(md, "converts");
}

#[test]
fn bad_inputs_give_a_result() {
    let opts = keep(true, true);
    let page = Page::from_text("t.html", PAGE);
    // Nothing selected, a selection beyond the text, off char boundaries.
    for f in [Format::Markdown, Format::Html] {
        assert_eq!(page.render_as(&Selection::new(), f, &opts), "");
        let n = page.text().len();
        let _ = page.render_as(&Selection::from_range(n..n + 100), f, &opts);
        let _ = page.render_as(&Selection::from_range(0..usize::MAX / 2), f, &opts);
    }
    let multi = Page::from_text("m.html", "<p>caf\u{e9} \u{4e2d}\u{6587} na\u{ef}ve</p>");
    for i in 0..multi.text().len() {
        for f in [Format::Markdown, Format::Html] {
            let _ = multi.render_as(&Selection::from_range(i..i + 2), f, &opts);
        }
    }
    // No body, no markup, an empty page, markup only.
    for src in [
        "<html><head><title>Only a title</title></head></html>",
        "just some words, no markup at all",
        "",
        "<table><tr><td></td></tr></table><ul><li></li></ul><pre></pre>",
        "<pre><code class=\"language-\">x</code></pre><table><tr><td>a</td></tr><tr><th>b</th><th>c</th></tr></table>",
    ] {
        let p = Page::from_text("b.html", src);
        let all = Selection::from_range(0..p.text().len());
        for f in [Format::Text, Format::Markdown, Format::Html] {
            let out = p.render_as(&all, f, &opts);
            if src.starts_with("just") {
                assert_eq!(out, "just some words, no markup at all");
            }
        }
    }
    // Deep nesting: 20,000 nested divs and 5,000 nested lists around one word each level.
    for (open, close) in [("<div>", "</div>"), ("<ul><li>x ", "</li></ul>")] {
        let n = if open == "<div>" { 20_000 } else { 5_000 };
        let src = format!("{}deepest words{}", open.repeat(n), close.repeat(n));
        let p = Page::from_text("deep.html", &src);
        let all = Selection::from_range(0..p.text().len());
        let md = p.render_as(&all, Format::Markdown, &opts);
        assert!(md.contains("deepest words"), "{}", &md[..md.len().min(300)]);
        let html = p.render_as(&all, Format::Html, &opts);
        assert!(html.contains("deepest words"));
        // Kept elements nest at most MAX_NESTING deep.
        let opened = html.matches("<ul>").count() + html.matches("<div>").count();
        assert!(
            opened <= cescope::page::structured::MAX_NESTING,
            "{opened} elements"
        );
    }
}

#[test]
fn format_names_parse() {
    assert_eq!("markdown".parse::<Format>().unwrap(), Format::Markdown);
    assert_eq!(" MD ".parse::<Format>().unwrap(), Format::Markdown);
    assert_eq!("html".parse::<Format>().unwrap(), Format::Html);
    assert_eq!("Text".parse::<Format>().unwrap(), Format::Text);
    for f in [Format::Text, Format::Markdown, Format::Html] {
        assert_eq!(f.to_string().parse::<Format>().unwrap(), f);
    }
    let e = "xml".parse::<Format>().unwrap_err().to_string();
    assert!(
        e.contains("\"xml\"") && e.contains("text, markdown, html"),
        "{e}"
    );
}

#[test]
fn the_batch_job_renders_in_its_format() {
    let extractor = cescope::extractors::find("learned").unwrap();
    let params = cescope::extract::Params::defaults(extractor.params());
    let record = || InputRecord {
        id: "a".into(),
        url: None,
        content_type: None,
        gold: None,
        body: Ok(PAGE.as_bytes().to_vec()),
    };
    let mut job = ExtractJob::new(Arc::clone(&extractor), params.clone());
    let text = job.run(record());
    let page = Page::from_bytes("a", PAGE.as_bytes().to_vec(), &DecodeOptions::default()).unwrap();
    let x = extractor.run(&page, &params);
    assert_eq!(text.text, page.render(&x.selection));
    job.format = Format::Markdown;
    let md = job.run(record());
    assert!(md.error.is_none());
    assert_eq!(
        md.text,
        page.render_as(&x.selection, Format::Markdown, &RenderOptions::default())
    );
    assert!(md.text.contains("| htmd "), "{}", md.text);
    assert_ne!(md.text, text.text);
    job.format = Format::Html;
    job.render.links = true;
    let html = job.run(record());
    assert!(html.text.contains("<td>html2md</td>"), "{}", html.text);
}

// ---------------------------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------------------------

fn cescope() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cescope"))
}

fn stdout_of(args: &[&str], file: &Path) -> String {
    let out = cescope().args(args).arg(file).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn sample_page(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample-pages")
        .join(name)
}

#[test]
fn cli_one_page_formats() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("notes.html");
    std::fs::write(&f, PAGE).unwrap();
    // --format text is the default, byte for byte (also on the sample pages).
    for p in [
        f.clone(),
        sample_page("news-article.html"),
        sample_page("wiki-article.html"),
    ] {
        let plain = stdout_of(&["extract"], &p);
        assert!(!plain.is_empty());
        assert_eq!(stdout_of(&["extract", "--format", "text"], &p), plain);
        assert_eq!(stdout_of(&["extract", "-f", "text"], &p), plain);
    }
    // `plain` selects the whole page: the structure of every part shows.
    let md = stdout_of(&["extract", "--algo", "plain", "--format", "markdown"], &f);
    assert!(md.contains("| htmd    | Apache-2.0 | 300   |"), "{md}");
    assert!(md.contains("```rust\nfn main() {\n"), "{md}");
    assert!(md.contains("\n  - Nested one\n"), "{md}");
    assert!(!md.contains("]("), "{md}");
    let md = stdout_of(
        &[
            "extract", "--algo", "plain", "--format", "markdown", "--links",
        ],
        &f,
    );
    assert!(md.contains("[htmd](https://crates.io/crates/htmd)"), "{md}");
    let html = stdout_of(
        &["extract", "--algo", "plain", "--format", "html", "--images"],
        &f,
    );
    assert!(html.contains("<th>Crate</th>"), "{html}");
    assert!(html.contains(r#"<img src="/img/chart.png""#), "{html}");
    assert!(!html.contains("onclick") && !html.contains("<script"));
    // json still works and carries the plain text.
    let v: serde_json::Value =
        serde_json::from_str(&stdout_of(&["extract", "--format", "json"], &f)).unwrap();
    assert_eq!(
        format!("{}\n", v["text"].as_str().unwrap()),
        stdout_of(&["extract"], &f)
    );
    // Unknown formats and options that need markup are errors that say so.
    let out = cescope()
        .args(["extract", "--format", "xml"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("markdown") && err.contains("html"), "{err}");
    let out = cescope()
        .args(["extract", "--links"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--format markdown or html"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn cli_batch_formats() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("pages.jsonl");
    let lines: Vec<String> = [("a", PAGE), ("b", "<p>A short page about bridges.</p>")]
        .iter()
        .map(|(id, html)| serde_json::json!({"id": id, "html": html}).to_string())
        .collect();
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let texts = |args: &[&str]| -> Vec<String> {
        let out = stdout_of(&[&["extract"], args, &["--input"]].concat(), &input);
        out.lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                assert!(v.get("error").is_none(), "{l}");
                v["text"].as_str().unwrap().to_string()
            })
            .collect()
    };
    let plain = texts(&[]);
    assert_eq!(plain.len(), 2);
    assert_eq!(texts(&["--format", "text"]), plain);
    let md = texts(&["--algo", "plain", "--format", "markdown", "--threads", "2"]);
    assert!(
        md[0].contains("| Crate   | License    | Stars |"),
        "{}",
        md[0]
    );
    assert!(md[0].contains("```rust"), "{}", md[0]);
    // The single-page form gives the same Markdown as the batch record.
    let f = dir.path().join("a.html");
    std::fs::write(&f, PAGE).unwrap();
    assert_eq!(
        stdout_of(&["extract", "--algo", "plain", "--format", "markdown"], &f),
        format!("{}\n", md[0])
    );
    let html = texts(&["--algo", "plain", "--format", "html", "--links"]);
    assert!(
        html[0].contains(r#"<a href="https://crates.io/crates/htmd">"#),
        "{}",
        html[0]
    );
}

// ---------------------------------------------------------------------------------------------
// The corpora: Markdown stripped of its marks scores as the text does
// ---------------------------------------------------------------------------------------------

/// `md` without its Markdown marks: code fences dropped (their content kept), heading, quote
/// and list markers, table pipes and delimiter rows, emphasis stars and backslash escapes
/// removed, `&#124;` (a pipe in a cell) read as `|`. A reading of Markdown for the word metric only (links and images are off).
fn strip_marks(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let mut in_code = false;
    for line in md.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            in_code = !in_code;
            out.push('\n');
            continue;
        }
        if in_code {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let delimiter_row = t.starts_with('|')
            && t.contains('-')
            && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '));
        if delimiter_row {
            out.push('\n');
            continue;
        }
        let mut t = t;
        loop {
            let before = t;
            t = t.trim_start_matches('>').trim_start();
            if let Some(rest) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
                t = rest;
            }
            let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits > 0 {
                if let Some(rest) = t[digits..].strip_prefix(". ") {
                    t = rest;
                }
            }
            if t.starts_with('#') {
                let rest = t.trim_start_matches('#');
                if rest.starts_with(' ') || rest.is_empty() {
                    t = rest;
                }
            }
            if t == before {
                break;
            }
        }
        // A pipe inside a table cell is written as a character reference.
        let t = t.replace("&#124;", "|");
        let mut chars = t.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek().is_some_and(char::is_ascii_punctuation) => {
                    if let Some(n) = chars.next() {
                        out.push(n);
                    }
                }
                '|' => out.push(' '),
                '*' => {}
                _ => out.push(c),
            }
        }
        out.push('\n');
    }
    out
}

#[test]
fn strip_marks_reads_the_hand_made_page() {
    let page = Page::from_text("t.html", PAGE);
    let sel = article(&page);
    let md = markdown(&page, &sel, RenderOptions::default());
    let text = page.render(&sel);
    assert_eq!(
        cescope::metrics::words(&strip_marks(&md)),
        cescope::metrics::words(&text)
    );
    assert_eq!(
        strip_marks(
            "## A \\_b\\_ c\n\n| x | y |\n| --- | --- |\n| 1 | 2 |\n> - **q**\n```rust\nfn\n```"
        ),
        "A _b_ c\n\n  x   y  \n\n  1   2  \nq\n\nfn\n\n"
    );
}

/// A corpus of `../shared/corpus`, or of `$CESCOPE_SHARED/corpus` when that is set (a git
/// worktree outside the main checkout's folder).
fn corpus_dir(name: &str) -> PathBuf {
    let shared = std::env::var_os("CESCOPE_SHARED").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        PathBuf::from,
    );
    shared.join("corpus").join(name)
}

/// Mean word-LCS F1 against the gold of `learned`'s plain text and of its Markdown stripped of
/// its marks ([`strip_marks`]) over a corpus, with the page count and the page ids where the two
/// differ most.
fn text_and_markdown_f1(name: &str) -> (f64, f64, usize, Vec<(f64, String)>) {
    use rayon::prelude::*;
    let (pages, _) = cescope::eval::run::gather(&[corpus_dir(name)]).expect("corpus opens");
    let extractor = cescope::extractors::find("learned").unwrap();
    let params = cescope::extract::Params::defaults(extractor.params());
    let per_page: Vec<(f64, f64, String)> = pages
        .par_iter()
        .map(|p| {
            let gold = p.gold.article_body.as_str();
            let (text, md) = match Page::load(&p.path, &DecodeOptions::default()) {
                Ok(page) => {
                    let x = extractor.run(&page, &params);
                    let md =
                        page.render_as(&x.selection, Format::Markdown, &RenderOptions::default());
                    (page.render(&x.selection), strip_marks(&md))
                }
                Err(_) => (String::new(), String::new()),
            };
            let t = cescope::metrics::word_prf(&text, gold).f1;
            let m = cescope::metrics::word_prf(&md, gold).f1;
            (t, m, p.id.clone())
        })
        .collect();
    let n = per_page.len().max(1) as f64;
    let t = per_page.iter().map(|r| r.0).sum::<f64>() / n;
    let m = per_page.iter().map(|r| r.1).sum::<f64>() / n;
    let mut worst: Vec<(f64, String)> = per_page
        .iter()
        .map(|r| (r.0 - r.1, r.2.clone()))
        .filter(|r| r.0.abs() > 1e-9)
        .collect();
    worst.sort_by(|a, b| b.0.abs().total_cmp(&a.0.abs()));
    worst.truncate(5);
    (t, m, per_page.len(), worst)
}

#[test]
#[ignore = "needs ../shared/corpus"]
fn markdown_scores_as_text_on_the_corpora() {
    let mut failed = Vec::new();
    for name in [
        "scrapinghub-dev",
        "readability",
        "wcxb-dev",
        "cleaneval-dev",
    ] {
        let (t, m, n, worst) = text_and_markdown_f1(name);
        eprintln!(
            "{name:16} {n:5} pages  learned word F1: text {t:.4}  markdown {m:.4}  Δ {:+.4}",
            m - t
        );
        for (d, id) in &worst {
            eprintln!("    {id}: text − markdown {d:+.4}");
        }
        if (t - m).abs() > 0.005 {
            failed.push(format!("{name}: text {t:.4}, markdown {m:.4}"));
        }
    }
    assert!(failed.is_empty(), "{failed:?}");
}
