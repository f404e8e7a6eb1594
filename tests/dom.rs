//! The positioned DOM (`cescope::page::dom`): span invariants on the sample pages and on
//! arbitrary input; html5ever's own tokenizer as a differential oracle for the DOM's tokenizer
//! (the same tree, node for node: `same_tree_as_html5ever`); and lol_html as a differential oracle for where tags, text and comments are
//! and for `gold mark`'s selector matches (`same_matches`: the same elements on the sample pages
//! and on well-formed generated pages, where lol_html's model of the page is the tree
//! builder's).
//!
//! lol_html reads `<noscript>` as a browser with JavaScript does (raw text), so the comparison
//! parses the DOM with scripting on; the DOM's default is off (`DomOptions`).
//!
//! Known, documented differences from lol_html (not failures):
//! - lol_html reports no stray end tags and the DOM stamps only end tags it can match to an open
//!   element, so only "DOM end tags ⊆ lol_html end tags" is checked;
//! - start tags the tree builder ignores (a second `<body>`, `<tr>` outside a table, …) are in
//!   lol_html's list and in no DOM node: only "DOM start tags ⊆ lol_html start tags" is checked;
//! - text the tree builder drops (white space before `<html>` or in table context, NUL) is text
//!   for lol_html and in no DOM node: the bytes lol_html alone calls text must be ASCII white
//!   space or NUL;
//! - CDATA sections in foreign content: the DOM's text excludes `<![CDATA[` and `]]>`, and so
//!   does the comparison (their bytes are ignored on both sides);
//! - lol_html's element extents (an unclosed `<p>` lasting to its parent's end tag) are not
//!   compared: the DOM's extents follow the tree builder.

use std::cell::RefCell;
use std::ops::Range;
use std::path::Path;
use std::rc::Rc;

use cescope::page::{DecodeOptions, Dom, DomOptions, NodeKind, Page};
use cescope::selection::Selection;
use lol_html::html_content::{Comment, Element, EndTag, TextChunk};
use lol_html::{DocumentContentHandlers, ElementContentHandlers, HtmlRewriter, Selector, Settings};
use proptest::prelude::*;

use crate::common;

fn sample_pages() -> Vec<Page> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-pages");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "html") {
            out.push(Page::load(&p, &DecodeOptions::default()).unwrap());
        }
    }
    assert!(out.len() >= 5, "sample pages found: {}", out.len());
    out
}

#[derive(Debug, Default)]
struct Lol {
    start_tags: Vec<Range<usize>>,
    end_tags: Vec<Range<usize>>,
    text: Vec<Range<usize>>,
    comments: Vec<Range<usize>>,
}

/// Where lol_html (non-strict) sees start tags, end tags, text chunks and comments.
fn lol(text: &str) -> Lol {
    let found: Rc<RefCell<Lol>> = Rc::default();
    let (f1, f2, f3) = (found.clone(), found.clone(), found.clone());
    let elements = ElementContentHandlers::default().element(move |el: &mut Element<'_, '_>| {
        f1.borrow_mut()
            .start_tags
            .push(el.source_location().bytes());
        if el.can_have_content() {
            let f = f1.clone();
            let name = el.tag_name();
            el.on_end_tag(Box::new(move |end: &mut EndTag<'_>| {
                if end.name() == name {
                    f.borrow_mut().end_tags.push(end.source_location().bytes());
                }
                Ok(())
            }))?;
        }
        Ok(())
    });
    let doc = DocumentContentHandlers::default()
        .text(move |t: &mut TextChunk<'_>| {
            let r = t.source_location().bytes();
            if r.start < r.end {
                f2.borrow_mut().text.push(r);
            }
            Ok(())
        })
        .comments(move |c: &mut Comment<'_>| {
            f3.borrow_mut().comments.push(c.source_location().bytes());
            Ok(())
        });
    let settings = Settings::new()
        .with_strict(false)
        .append_element_content_handler((
            std::borrow::Cow::Owned("*".parse::<Selector>().unwrap()),
            elements,
        ))
        .append_document_content_handler(doc);
    let mut rw = HtmlRewriter::new(settings, |_: &[u8]| {});
    let ok = rw.write(text.as_bytes()).is_ok() && rw.end().is_ok();
    assert!(ok, "lol_html failed");
    Rc::try_unwrap(found).unwrap().into_inner()
}

/// Byte ranges of CDATA delimiters (`<![CDATA[` and the next `]]>`) that fall outside every
/// comment of the DOM, i.e. CDATA sections in foreign content.
fn cdata_delimiters(text: &str, dom: &Dom) -> Selection {
    let comments = Selection::from_ranges(
        (0..dom.len())
            .filter(|&i| dom.kind(i) == NodeKind::Comment)
            .flat_map(|i| dom.spans(i).to_vec()),
    );
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find("<![CDATA[") {
        let a = from + i;
        from = a + 9;
        if comments.contains(a) {
            continue;
        }
        out.push(a..a + 9);
        if let Some(j) = text[from..].find("]]>") {
            out.push(from + j..from + j + 3);
            from += j + 3;
        }
    }
    Selection::from_ranges(out)
}

/// Compares the DOM of `text` with lol_html; returns the first disagreement. With
/// `strict_end_tags`, every end tag the DOM matched must be one lol_html matched too (true on
/// well-formed pages; on mis-nested input lol_html closes elements at an ancestor's end tag and
/// then calls the element's own end tag stray, e.g. `<td><template></td></template>` outside a
/// table); otherwise the DOM's end tag must only name its element.
fn differential(text: &str, strict_end_tags: bool) -> Result<(), String> {
    // lol_html reads `<noscript>` as a browser with JavaScript does: raw text.
    let dom = Dom::parse(
        text,
        &DomOptions {
            scripting_enabled: true,
        },
    );
    dom.validate(text)?;
    let lol = lol(text);
    let lol_start: std::collections::HashSet<_> = lol.start_tags.iter().cloned().collect();
    let lol_end: std::collections::HashSet<_> = lol.end_tags.iter().cloned().collect();
    for id in (0..dom.len()).filter(|&i| dom.kind(i) == NodeKind::Element) {
        for r in dom.spans(id) {
            if !text[r.clone()].starts_with("</") && !lol_start.contains(r) {
                return Err(format!(
                    "start tag {r:?} {:?} not a lol_html start tag",
                    &text[r.clone()]
                ));
            }
        }
        if let Some(r) = dom.end_tag(id) {
            let name = dom.tag_name(id).unwrap_or("?");
            let tag = text[r.clone()][2..].trim_end_matches('>');
            if !tag
                .get(..name.len())
                .is_some_and(|t| t.eq_ignore_ascii_case(name))
            {
                return Err(format!("end tag {r:?} {tag:?} does not name <{name}>"));
            }
            if strict_end_tags && !lol_end.contains(&r) {
                return Err(format!(
                    "end tag {r:?} {:?} of <{}> not a lol_html end tag",
                    &text[r.clone()],
                    dom.tag_name(id).unwrap_or("?")
                ));
            }
        }
    }
    // Comments: the same set.
    let mut dom_comments: Vec<Range<usize>> = (0..dom.len())
        .filter(|&i| dom.kind(i) == NodeKind::Comment)
        .flat_map(|i| dom.spans(i).to_vec())
        .collect();
    let mut lol_comments = lol.comments.clone();
    dom_comments.sort_by_key(|r| r.start);
    lol_comments.sort_by_key(|r| r.start);
    if dom_comments != lol_comments {
        return Err(format!(
            "comments differ: DOM {dom_comments:?}, lol_html {lol_comments:?}"
        ));
    }
    // Text: the DOM's text bytes are lol_html text bytes; lol_html's extra text bytes are
    // white space or NUL the tree builder dropped. CDATA delimiters are ignored on both sides.
    let cdata = cdata_delimiters(text, &dom);
    let dom_text = Selection::from_ranges(dom.text_nodes().flat_map(|(_, s)| s.to_vec()));
    let lol_text = Selection::from_ranges(lol.text.iter().cloned());
    for r in dom_text.ranges() {
        for b in r.clone() {
            if !lol_text.contains(b) && !cdata.contains(b) {
                return Err(format!(
                    "DOM text byte {b} ({:?} in {:?}) is not lol_html text",
                    text.as_bytes()[b] as char,
                    &text[r.clone()]
                ));
            }
        }
    }
    for r in lol_text.ranges() {
        for b in r.clone() {
            let c = text.as_bytes()[b];
            if !dom_text.contains(b) && !cdata.contains(b) && !c.is_ascii_whitespace() && c != 0 {
                return Err(format!(
                    "lol_html text byte {b} ({:?} in {:?}) is in no DOM text node",
                    c as char,
                    &text[r.clone()]
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn sample_pages_keep_the_span_invariants() {
    for page in sample_pages() {
        let dom = page.dom();
        if let Err(e) = dom.validate(page.text()) {
            panic!("{}: {e}", page.name());
        }
        assert!(dom.elements().count() > 10, "{}", page.name());
        // Every text byte of the DOM is inside <body>'s or <head>'s region or the html's.
        let html = dom
            .elements()
            .find(|&(i, _)| dom.tag_name(i) == Some("html"))
            .unwrap()
            .0;
        for (i, spans) in dom.text_nodes() {
            for r in spans {
                assert!(dom.region(html).intersects(r.clone()) || dom.parent(i) == Some(0));
            }
        }
    }
}

#[test]
fn sample_pages_agree_with_lol_html() {
    for page in sample_pages() {
        if let Err(e) = differential(page.text(), true) {
            panic!("{}: {e}", page.name());
        }
    }
}

#[test]
fn sample_pages_regions_nest() {
    for page in sample_pages() {
        let dom = page.dom();
        for (id, _) in dom.elements() {
            let region = dom.region(id);
            for c in dom.children(id) {
                let cr = dom.region(c);
                assert_eq!(
                    cr.intersection(&region),
                    cr,
                    "{}: child {c} of {id} outside its region",
                    page.name()
                );
            }
        }
    }
}

/// The tree as html5ever builds it with its own tokenizer (scraper's sink, the tree builder the
/// DOM uses): one line per node in document order, indented by its depth — kind, name (and whether it is in the HTML
/// namespace), attributes sorted, text. With the DOM's lines ([`dom_tree`]), a differential
/// oracle for the DOM's tokenizer: the same tree builder fed by an independent tokenizer.
fn html5ever_tree(text: &str, scripting: bool) -> Vec<String> {
    use html5ever::tendril::TendrilSink;
    use scraper::node::Node;
    let opts = html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts {
            scripting_enabled: scripting,
            ..Default::default()
        },
        ..Default::default()
    };
    let sink = scraper::HtmlTreeSink::new(scraper::Html::new_document());
    let html = html5ever::parse_document(sink, opts).one(text);
    html.tree
        .root()
        .descendants()
        .map(|n| (n.ancestors().count(), n))
        .map(|(depth, n)| {
            match n.value() {
                Node::Document => "document".to_string(),
                Node::Fragment => "fragment".to_string(),
                Node::Doctype(d) => format!("doctype {:?}", d.name()),
                Node::Comment(c) => format!("comment {:?}", &**c),
                Node::Text(t) => format!("text {:?}", &**t),
                Node::Element(e) => {
                    let mut attrs: Vec<_> = e.attrs().collect();
                    attrs.sort();
                    let html = e.name.ns == html5ever::ns!(html);
                    format!("<{} html={html}> {attrs:?}", e.name())
                }
                Node::ProcessingInstruction(_) => "pi".to_string(),
            }
            .replacen("", &" ".repeat(depth), 1)
        })
        .collect()
}

/// The number of ancestors of `i`.
fn depth(d: &Dom, mut i: usize) -> usize {
    let mut n = 0;
    while let Some(p) = d.parent(i) {
        n += 1;
        i = p;
    }
    n
}

/// The DOM's tree in [`html5ever_tree`]'s lines.
fn dom_tree(d: &Dom) -> Vec<String> {
    (0..d.len())
        .map(|i| {
            match d.kind(i) {
                NodeKind::Document => "document".to_string(),
                NodeKind::Fragment => "fragment".to_string(),
                NodeKind::Doctype => format!("doctype {:?}", d.node_text(i).unwrap_or("")),
                NodeKind::Comment => format!("comment {:?}", d.node_text(i).unwrap_or("")),
                NodeKind::Text => format!("text {:?}", d.node_text(i).unwrap_or("")),
                NodeKind::Element => {
                    let mut attrs: Vec<_> = d.attrs(i).collect();
                    attrs.sort();
                    let name = d.tag_name(i).unwrap_or("");
                    format!("<{name} html={}> {attrs:?}", d.is_html_element(i))
                }
                NodeKind::ProcessingInstruction => "pi".to_string(),
            }
            .replacen("", &" ".repeat(depth(d, i)), 1)
        })
        .collect()
}

/// The DOM of `text` is html5ever's tree, node for node, with scripting off and on. The first
/// differing node is reported with its neighbours.
fn same_tree_as_html5ever(text: &str) -> Result<(), String> {
    for scripting in [false, true] {
        let dom = Dom::parse(
            text,
            &DomOptions {
                scripting_enabled: scripting,
            },
        );
        let (ours, theirs) = (dom_tree(&dom), html5ever_tree(text, scripting));
        if ours != theirs {
            let k = ours.iter().zip(&theirs).take_while(|(a, b)| a == b).count();
            let from = k.saturating_sub(2);
            return Err(format!(
                "scripting {scripting}: node {k} differs\n  DOM:       {:?}\n  html5ever: {:?}",
                ours.get(from..(k + 2).min(ours.len())),
                theirs.get(from..(k + 2).min(theirs.len())),
            ));
        }
    }
    Ok(())
}

/// Hand-written cases for the tokenizer's corners: character references (named with and
/// without `;`, the attribute rule, numeric ones of every range), CR, NUL in each text state,
/// every comment ending, doctypes, bogus comments, `</>`, raw text, script escapes, CDATA,
/// attribute syntax, tags cut off by the end of the file.
const TOKENIZER_CASES: &[&str] = &[
    "a &amp; b &lt;c&gt; &notit; &notin; &copy2024 &#169; &#xA9; &#x110000; &#0; &#128; &#xD800; &#13;x &#x80;&#159; &",
    "<a href=\"?a=1&copy=2&amp;b=3&copy;\" title='&notit; &no' alt=x&lt;y data-x=&copy=>t</a>",
    "<p class=A CLASS=b Class=\"c\" id=x id=y>dup</p>",
    "<DIV ID=Up><P>Upper</P></DIV>",
    "<a =b c==d e= 'f' g=\"h\"i j/k/>x</a><br/><img src=a/>",
    "x\r\ny\rz<p title=\"a\r\nb\">\r</p><!--\r\n-->",
    "a\0b<p>\0</p><title>\0t</title><script>\0s</script><textarea>\0</textarea><svg>\0<![CDATA[\0]]></svg>",
    "<!----><!---><!--><!-- a --!><!-- b ---><!-- c --!--><!-- <!-- d -- >--><p>x",
    "<!-- unclosed -",
    "<!-- unclosed --",
    "<!-- unclosed --!",
    "<!-- unclosed",
    "<!DOCTYPE html><p>x",
    "<!doctype HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://www.w3.org/TR/html4/strict.dtd\"><p>x",
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\"><table><p>quirks?</table>",
    "<!DOCTYPE html SYSTEM 'about:legacy-compat'><p>x",
    "<!DOCTYPE><p>a<table><tr><td>in the p in quirks mode</table>",
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.0 Transitional//EN\"><p>a<table><td>b</table>",
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\" \"x\"><p>a<table><td>b</table>",
    "<!DOCTYPE html SYSTEM \"x\" junk><p>a<table><td>b</table>",
    "<!DOCTYPE html PUBLIC \"x\" junk><p>a<table><td>b</table>",
    "<!DOCTYPE html bogus><table><p>x</table>",
    "<!DOCTYPE html PUBLIC\"a\"'b'>x",
    "<!DOCTYPE html PUBLIC \"a\" 'b' extra>x",
    "<!DOCTYPE html PUBLIC \"unclosed>x",
    "<!DOCTYPE",
    "<?php echo 1 ?><!bogus><! ><![CDATA[x]]></ x></3>x</>y</",
    "<title>a <b> &amp; </title ><textarea>\n<p>x</textarea><xmp>&amp;<b></xmp>",
    "<style>a</style b=c><script>if(a<b)</script/x><p>y",
    "<script><!--<script>var a=\"</script>\";</script>--></script><p>z",
    "<script><!-- x --></script><iframe><p>f</iframe><noembed>&amp;</noembed>",
    "<noscript><p>ns &amp;</p></noscript><noframes><b>x</noframes>",
    "<plaintext><p>all &amp; text</p>",
    "<svg><title>t<b>x</b></title><style>s<b></style><![CDATA[a<b>]]><desc><![CDATA[y]]></desc></svg>",
    "<math><mi>x</mi><annotation-xml><svg></svg></annotation-xml></math><p>after",
    "<svg viewBox=\"0 0 1 1\" xlink:href=a><foreignObject><p>html</p></foreignObject></svg>",
    "<table><tr><td>a</td></tr>stray &amp;<tr></table>",
    "<p a='unterminated",
    "<p a=\"x\"",
    "<div",
    "</div",
    "<p>text</p></p></br><image src=x>",
    "<template><p>in template</p></template><select><option>a<option>b</select>",
    "<body a=1><body b=2><html c=3>x",
    "<pre>\nfirst line</pre><listing>\n\nx</listing>",
    "&#x41;&#65;&#x;&#;&#x0a;&AMP;&AMP&amp",
];

#[test]
fn hand_written_cases_are_html5evers_tree() {
    for t in TOKENIZER_CASES {
        if let Err(e) = same_tree_as_html5ever(t) {
            panic!("{t:?}: {e}");
        }
    }
}

/// Repeated attribute names are dropped (the first one wins) among a tag's first attributes and
/// past the point where the tokenizer switches to a set of the names seen.
#[test]
fn many_attributes_keep_the_first_of_each_name() {
    let mut t = String::from("<p");
    for i in 0..2000 {
        t.push_str(&format!(" a{i}={i}"));
    }
    t.push_str(" a5=x a50=y a1999=z A7=w>text</p>");
    same_tree_as_html5ever(&t).unwrap();
    let dom = Dom::parse(&t, &DomOptions::default());
    let p = (0..dom.len())
        .find(|&i| dom.tag_name(i) == Some("p"))
        .unwrap();
    assert_eq!(dom.attrs(p).count(), 2000);
    for (name, want) in [("a5", "5"), ("a7", "7"), ("a50", "50"), ("a1999", "1999")] {
        assert_eq!(dom.attr(p, name), Some(want), "{name}");
    }
}

#[test]
fn sample_pages_are_html5evers_tree() {
    for page in sample_pages() {
        if let Err(e) = same_tree_as_html5ever(page.text()) {
            panic!("{}: {e}", page.name());
        }
    }
}

#[test]
fn hand_written_cases_agree_with_lol_html() {
    for t in [
        "<div><p>a<div>b</div></div>",
        "<table>stray<tr><td>cell</td></tr></table>",
        "<p><b>1<i>2</b>3</i></p>",
        "<noscript><p>x</p></noscript>",
        "<script>var s = '</div>'; if (a<b) {}</script><div>after</div>",
        "<svg><style><![CDATA[a<b]]></style></svg>",
        "<title>a &amp; b</title><textarea><b>x</b></textarea>",
        "<!-- c --><!----><!-- a --!><p title=\"c>d\" data-q='a>b'>x</p>",
        "\r\n<p>\r\nline\r\n</p>",
        "<ul><li>one<li>two</ul>",
        "<svg><g>a<![CDATA[x&amp;]]>b&amp;c</g></svg>",
        "<p><select></p>",
        "text</>text &amp;</>x",
        "<p><image src=a></image>x</p>",
        "<style>\r\n</></style><p>a\r\n</>b</p>",
        "<body><p>x</p></body>\n</html>\n",
    ] {
        if let Err(e) = differential(t, true) {
            panic!("{t:?}: {e}");
        }
    }
}

/// The start tags of the elements lol_html matches with `css` (its streaming matcher on its own
/// reading of the page).
fn lol_matches(text: &str, css: &str) -> Vec<Range<usize>> {
    let found: Rc<RefCell<Vec<Range<usize>>>> = Rc::default();
    let f = found.clone();
    let handlers = ElementContentHandlers::default().element(move |el: &mut Element<'_, '_>| {
        f.borrow_mut().push(el.source_location().bytes());
        Ok(())
    });
    let settings = Settings::new()
        .with_strict(false)
        .append_element_content_handler((
            std::borrow::Cow::Owned(css.parse::<Selector>().unwrap()),
            handlers,
        ));
    let mut rw = HtmlRewriter::new(settings, |_: &[u8]| {});
    assert!(rw.write(text.as_bytes()).is_ok() && rw.end().is_ok());
    let mut v = Rc::try_unwrap(found).unwrap().into_inner();
    v.sort_by_key(|r| r.start);
    v
}

/// Selectors both matchers support (lol_html has no sibling combinators and no `:has`), made
/// from the page: its tag names, classes and ids, and a few combinations.
fn oracle_selectors(dom: &Dom) -> Vec<String> {
    let mut v: Vec<String> = [
        "div > p",
        "ul li",
        "p:first-child",
        "li:nth-child(2)",
        "a[href]",
        "div p:not(.x)",
        "div *",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut seen = std::collections::HashSet::new();
    for (id, _) in dom.elements() {
        if !dom.is_html_element(id) {
            continue;
        }
        let name = dom.tag_name(id).unwrap_or("").to_string();
        let class = dom
            .attr(id, "class")
            .and_then(|c| c.split_ascii_whitespace().next())
            .filter(|c| c.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-'))
            .map(|c| format!(".{c}"));
        for sel in std::iter::once(name.clone()).chain(class) {
            if !sel.is_empty() && seen.insert(sel.clone()) && seen.len() < 40 {
                v.push(sel);
            }
        }
    }
    v
}

/// `gold mark`'s matcher (the positioned DOM, scraper's selectors) against lol_html on `text`:
/// the same elements, by their start tags. The DOM is read with scripting on, as lol_html reads
/// `<noscript>`. Only meaningful where the two models of the page agree ([`differential`]), and
/// only over elements of the DOM made from a start tag.
fn same_matches(text: &str) -> Result<(), String> {
    let page = Page::from_text("t.html", text).with_scripting(true);
    let dom = page.dom();
    // Start tags the tree builder ignored (a second `<body>`) make no element to match.
    let elements: std::collections::HashSet<Range<usize>> = dom
        .elements()
        .flat_map(|(i, _)| dom.spans(i).to_vec())
        .collect();
    for css in oracle_selectors(dom) {
        let ours: Vec<Range<usize>> = cescope::gold::mark::select_elements(&page, &css)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|m| m.start_tag)
            .collect();
        let mut theirs = lol_matches(text, &css);
        theirs.retain(|r| elements.contains(r));
        if ours != theirs {
            let show = |v: &[Range<usize>]| -> Vec<String> {
                v.iter()
                    .take(6)
                    .map(|r| text[r.clone()].to_string())
                    .collect()
            };
            return Err(format!(
                "{css}: {} matches, lol_html {}: {:?} vs {:?}",
                ours.len(),
                theirs.len(),
                show(&ours),
                show(&theirs)
            ));
        }
    }
    Ok(())
}

/// Does every element the source opens (but `html`, `head`, `body` and void elements) end at
/// its own end tag? lol_html implies no end tags (`<p>a<p>b` nests for it), so only then do
/// the two agree on which element contains which.
fn explicitly_closed(text: &str) -> bool {
    const VOID: &[&str] = &[
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr", "html", "head", "body",
    ];
    let dom = Dom::parse(
        text,
        &DomOptions {
            scripting_enabled: true,
        },
    );
    let closed = dom.elements().all(|(i, _)| {
        dom.spans(i).is_empty()
            || !dom.is_html_element(i)
            || VOID.contains(&dom.tag_name(i).unwrap_or(""))
            || dom.end_tag(i).is_some()
    });
    closed
}

#[test]
fn gold_mark_matches_lol_html_on_the_sample_pages() {
    for page in sample_pages() {
        if let Err(e) = same_matches(page.text()) {
            panic!("{}: {e}", page.name());
        }
    }
}

/// HTML-like input built from tricky pieces. No foreign content here: lol_html's tree-builder
/// simulator leaves `<svg>` / `<math>` differently from the HTML tree builder when an HTML
/// element breaks out of it (`<b><svg></b><title>…`: RCDATA for the DOM, SVG for lol_html) —
/// see [`svgish`]. No `<frameset>` either: the tree builder drops all text in it.
fn htmlish() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "<div>",
        "</div>",
        "<p>",
        "</p>",
        "<table>",
        "</table>",
        "<tr>",
        "<td>",
        "</td>",
        "<b>",
        "</b>",
        "<i>",
        "</i>",
        "<a href=x>",
        "</a>",
        "<ul>",
        "<li>",
        "<br>",
        "<br/>",
        "<img src=a>",
        "<!-- c -->",
        "<!-->",
        "text",
        "  ",
        "\n",
        "\r\n",
        "&amp;",
        "&lt",
        "&#x41;",
        "&nbsp;",
        "<",
        ">",
        "&",
        "\"",
        "'",
        "=",
        "</",
        "<span class='a>b'>",
        "</span>",
        "<title>",
        "</title>",
        "<script>",
        "</script>",
        "<style>",
        "</style>",
        "<textarea>",
        "</textarea>",
        "<![CDATA[x]]>",
        "<noscript>",
        "</noscript>",
        "<select>",
        "<option>",
        "<h1>",
        "</h1>",
        "<body>",
        "<html>",
        "</body>",
        "</html>",
        "<head>",
        "é",
        "日本",
        "\u{0}",
        "<form>",
        "</form>",
        "<pre>",
        "<template>",
        "</template>",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|v| v.concat())
}

/// Well-formed pages (every element closed by its own end tag, as [`explicitly_closed`] asks)
/// with classes and ids to select by, raw text, comments and `<noscript>`.
fn well_formed() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(vec![
        "text",
        " ",
        "&amp; more",
        "<a href=x>link</a>",
        "<a>no href</a>",
        "<br>",
        "<img src=a>",
        "<!-- <div class=a> -->",
        "<script>if (a<b) { s = '<div class=a>'; }</script>",
        "<style>.a{}</style>",
        "<noscript><div class=a>n</div></noscript>",
        "<p class=a>para</p>",
        "<p>para <b>bold</b></p>",
    ])
    .prop_map(str::to_string);
    leaf.prop_recursive(4, 40, 5, |inner| {
        (
            prop::sample::select(vec!["div", "span", "section", "article", "aside"]),
            prop::sample::select(vec!["", " class=a", " class='a b'", " id=m", " class=x"]),
            prop::collection::vec(inner, 0..5),
        )
            .prop_map(|(name, attrs, kids)| format!("<{name}{attrs}>{}</{name}>", kids.concat()))
    })
    .prop_map(|t| format!("<html><body>{t}</body></html>"))
}

/// SVG content without HTML break-out elements and without HTML integration points
/// (`<desc>`, `<title>`, `<foreignObject>`: inside them lol_html treats `<![CDATA[` as a bogus
/// comment, where the tokenizer spec — the adjusted current node is an SVG element — reads a
/// CDATA section): CDATA sections, entities, raw `<style>`.
fn svgish() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(vec![
        "<![CDATA[x&amp;]]>",
        "<![CDATA[a<b]]>",
        "text",
        " ",
        "&amp;",
        "&lt;",
        "<!-- c -->",
        "<path d='M0>1'/>",
        "\r\n",
        "<style>a{}</style>",
        "<![CDATA[\r\n]]>",
    ])
    .prop_map(str::to_string);
    // Well nested: lol_html's simulator follows `<svg>` … `</svg>` but not an HTML end tag that
    // closes the `<svg>` from inside (`<g><svg></g>`), which the tree builder honours.
    let tree = leaf.prop_recursive(4, 40, 5, |inner| {
        (
            prop::sample::select(vec!["svg", "g"]),
            prop::collection::vec(inner, 0..5),
        )
            .prop_map(|(name, kids)| format!("<{name}>{}</{name}>", kids.concat()))
    });
    prop::collection::vec(tree, 0..4)
        .prop_map(|v| format!("<body><svg>{}</svg><p>after</p>", v.concat()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_bytes_keep_the_span_invariants(bytes in proptest::collection::vec(any::<u8>(), 0..1500)) {
        if let Ok(page) = Page::from_bytes("p.html", bytes, &DecodeOptions::default()) {
            let dom = page.dom();
            prop_assert!(dom.validate(page.text()).is_ok(), "{:?}", dom.validate(page.text()));
            let on = Dom::parse(page.text(), &DomOptions { scripting_enabled: true });
            prop_assert!(on.validate(page.text()).is_ok(), "{:?}", on.validate(page.text()));
            for id in 0..dom.len() {
                prop_assert!(dom.text_chars(id) >= dom.anchor_chars(id));
            }
        }
    }

    #[test]
    fn arbitrary_bytes_are_html5evers_tree(bytes in proptest::collection::vec(any::<u8>(), 0..1500)) {
        if let Ok(page) = Page::from_bytes("p.html", bytes, &DecodeOptions::default()) {
            let r = same_tree_as_html5ever(page.text());
            prop_assert!(r.is_ok(), "{:?}", r);
        }
    }

    #[test]
    fn htmlish_input_is_html5evers_tree(t in htmlish()) {
        let r = same_tree_as_html5ever(&t);
        prop_assert!(r.is_ok(), "{:?}", r);
    }

    #[test]
    fn svg_input_is_html5evers_tree(t in svgish()) {
        let r = same_tree_as_html5ever(&t);
        prop_assert!(r.is_ok(), "{:?}", r);
    }

    #[test]
    fn htmlish_input_agrees_with_lol_html(t in htmlish()) {
        let r = differential(&t, false);
        prop_assert!(r.is_ok(), "{:?}", r);
    }

    #[test]
    fn gold_mark_matches_lol_html_on_well_formed_pages(t in well_formed()) {
        prop_assert!(differential(&t, true).is_ok() && explicitly_closed(&t), "{}", t);
        let r = same_matches(&t);
        prop_assert!(r.is_ok(), "{:?}", r);
    }

    #[test]
    fn gold_mark_matches_lol_html_where_the_models_agree(t in htmlish()) {
        if differential(&t, true).is_ok() && explicitly_closed(&t) {
            let r = same_matches(&t);
            prop_assert!(r.is_ok(), "{:?}", r);
        }
    }

    #[test]
    fn svg_input_agrees_with_lol_html(t in svgish()) {
        let r = differential(&t, false);
        prop_assert!(r.is_ok(), "{:?}", r);
    }
}

/// Runs `check` on every page of the shared corpora; fails with every page it refused.
fn every_corpus_page(check: impl Fn(&str) -> Result<(), String>) {
    let mut failures = Vec::new();
    let n = common::for_each_corpus_page(|name, page| {
        if let Err(e) = check(page.text()) {
            failures.push(format!("{name}: {e}"));
        }
    });
    assert!(n > 200, "pages checked: {n}");
    assert!(
        failures.is_empty(),
        "{} of {n} pages:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The span invariants and the lol_html comparison on every page of the shared corpora. End
/// tags are compared loosely (real pages are mis-nested; see [`differential`]).
#[test]
#[ignore = "needs ../shared/corpus"]
fn corpus_pages_keep_the_invariants_and_agree_with_lol_html() {
    every_corpus_page(|t| differential(t, false));
}

/// Every corpus page's DOM is html5ever's tree (its own tokenizer), scripting off and on.
#[test]
#[ignore = "needs ../shared/corpus"]
fn corpus_pages_are_html5evers_tree() {
    every_corpus_page(same_tree_as_html5ever);
}
