use super::*;

fn parse(t: &str) -> Dom {
    let d = Dom::parse(t, &DomOptions::default());
    if let Err(e) = d.validate(t) {
        panic!("{e}\nin {t:?}");
    }
    d
}

/// The first element named `name`.
fn el(d: &Dom, name: &str) -> NodeId {
    d.elements()
        .find(|&(i, _)| d.tag_name(i) == Some(name))
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("no <{name}>"))
}

fn src<'a>(t: &'a str, r: &Range<usize>) -> &'a str {
    &t[r.clone()]
}

#[test]
fn nested_blocks_have_nested_regions() {
    let t = "<html><body><div id=a><p>one <b>two</b></p><div>three</div></div></body></html>";
    let d = parse(t);
    let a = el(&d, "div");
    assert_eq!(d.attr(a, "id"), Some("a"));
    assert_eq!(src(t, &d.spans(a)[0]), "<div id=a>");
    assert_eq!(src(t, &d.end_tag(a).unwrap()), "</div>");
    let region = d.region(a);
    assert_eq!(region.ranges().len(), 1, "contiguous");
    assert_eq!(
        src(t, &region.ranges()[0]),
        "<div id=a><p>one <b>two</b></p><div>three</div></div>"
    );
    let kids: Vec<_> = d.children(a).map(|c| d.tag_name(c).unwrap()).collect();
    assert_eq!(kids, ["p", "div"]);
    let p = el(&d, "p");
    assert_eq!(d.parent(p), Some(a));
    assert_eq!(d.depth(p), d.depth(a) + 1);
    assert!(d.is_block(a) && d.is_block(p) && !d.is_block(el(&d, "b")));
    assert_eq!(d.text(a), "one twothree");
    assert_eq!(d.text_chars(a), 12);
}

#[test]
fn unclosed_p_ends_at_next_block() {
    let t = "<body><p>first<div>second</div></body>";
    let d = parse(t);
    let p = el(&d, "p");
    assert_eq!(d.end_tag(p), None);
    assert_eq!(src(t, &d.hull(p).unwrap()), "<p>first");
    let div = el(&d, "div");
    assert_eq!(d.parent(div), d.parent(p), "the div is the p's sibling");
}

#[test]
fn foster_parented_text_makes_a_split_region() {
    let t = "<body><div><table>stray<tr><td>cell</td></tr></table></div></body>";
    let d = parse(t);
    let table = el(&d, "table");
    let div = el(&d, "div");
    // "stray" is moved before the table: a child of the div, not of the table.
    let stray = d
        .text_nodes()
        .find(|&(i, _)| d.node_text(i) == Some("stray"))
        .map(|(i, _)| i)
        .unwrap();
    assert_eq!(d.parent(stray), Some(div));
    assert!(stray < table);
    assert_eq!(src(t, &d.spans(stray)[0]), "stray");
    let region = d.region(table);
    assert_eq!(region.ranges().len(), 2, "{region:?}");
    assert_eq!(src(t, &region.ranges()[0]), "<table>");
    assert!(src(t, &region.ranges()[1]).starts_with("<tr>"));
    assert!(d.region(div).ranges().len() == 1);
}

#[test]
fn misnested_formatting_uses_the_adoption_agency() {
    let t = "<body><p><b>1<i>2</b>3</i></p></body>";
    let d = parse(t);
    let is: Vec<NodeId> = d
        .elements()
        .filter(|&(i, _)| d.tag_name(i) == Some("i"))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(is.len(), 2, "the <i> is cloned after </b>");
    assert_eq!(src(t, &d.spans(is[0])[0]), "<i>");
    assert!(d.spans(is[1]).is_empty(), "the clone has no start tag");
    assert_eq!(src(t, &d.end_tag(el(&d, "b")).unwrap()), "</b>");
    assert_eq!(d.text(is[1]), "3");
    let three = t.find('3').unwrap();
    assert_eq!(d.region(is[1]), Selection::from_range(three..three + 1));
}

#[test]
fn noscript_follows_the_scripting_flag() {
    let t = "<body><noscript><p>no js</p></noscript></body>";
    let on = Dom::parse(
        t,
        &DomOptions {
            scripting_enabled: true,
        },
    );
    on.validate(t).unwrap();
    let ns = el(&on, "noscript");
    assert_eq!(on.children(ns).count(), 1);
    let c = on.children(ns).next().unwrap();
    assert_eq!(on.kind(c), NodeKind::Text);
    assert_eq!(on.node_text(c), Some("<p>no js</p>"));
    assert!(on.is_non_text(c));
    assert_eq!(on.text_chars(0), 0);
    // Off is the default.
    let off = parse(t);
    let p = el(&off, "p");
    assert_eq!(off.parent(p), Some(el(&off, "noscript")));
    assert_eq!(off.text_chars(0), 5);
}

#[test]
fn script_text_is_raw() {
    let t = "<body><div><script>if (a<b) s = '</div>';</script>after</div></body>";
    let d = parse(t);
    let s = el(&d, "script");
    let c = d.children(s).next().unwrap();
    assert_eq!(d.node_text(c), Some("if (a<b) s = '</div>';"));
    assert_eq!(src(t, &d.spans(c)[0]), "if (a<b) s = '</div>';");
    assert_eq!(src(t, &d.end_tag(s).unwrap()), "</script>");
    assert_eq!(d.text(el(&d, "div")), "after");
}

#[test]
fn cdata_in_svg_is_text_without_delimiters() {
    let t = "<body><svg><style><![CDATA[a<b]]></style></svg><p><![CDATA[x]]></p></body>";
    let d = parse(t);
    let style = el(&d, "style");
    assert!(!d.is_html_element(style));
    let c = d.children(style).next().unwrap();
    assert_eq!(d.node_text(c), Some("a<b"));
    assert_eq!(src(t, &d.spans(c)[0]), "a<b");
    // Outside foreign content, CDATA is a bogus comment.
    let p = el(&d, "p");
    let c = d.children(p).next().unwrap();
    assert_eq!(d.kind(c), NodeKind::Comment);
    assert_eq!(src(t, &d.spans(c)[0]), "<![CDATA[x]]>");
}

#[test]
fn character_references_map_to_their_source() {
    let t = "<body><p>a &amp; b&nbsp;c&#x41;</p><table>  <tr><td>x &lt; y</td></tr></table></body>";
    let d = parse(t);
    let p = el(&d, "p");
    let c = d.children(p).next().unwrap();
    assert_eq!(d.node_text(c), Some("a & b\u{a0}cA"));
    assert_eq!(src(t, &d.spans(c)[0]), "a &amp; b&nbsp;c&#x41;");
    assert_eq!(d.text_chars(p), 8);
}

#[test]
fn hidden_is_inherited() {
    let t = "<body><div style='color:red; DISPLAY : None !important'><p>a</p></div>\
             <div hidden><span>b</span></div><div aria-hidden=TRUE>c</div>\
             <div aria-hidden=false style='display:nonex'><i>d</i></div></body>";
    let d = parse(t);
    let hidden: Vec<&str> = d
        .text_nodes()
        .filter(|&(i, _)| d.is_hidden(i))
        .map(|(i, _)| d.node_text(i).unwrap())
        .collect();
    assert_eq!(hidden, ["a", "b", "c"]);
    assert!(!d.is_hidden(el(&d, "i")));
}

#[test]
fn anchor_text_and_lines() {
    let t = "<body>\n<div>\n<a href=x>link <b>bold</b></a> plain\n</div>\n</body>";
    let page = crate::page::Page::from_text("t.html", t);
    let d = page.dom();
    let div = el(d, "div");
    assert_eq!(d.text_chars(div), "\nlink bold plain\n".chars().count());
    assert_eq!(d.anchor_chars(div), "link bold".len());
    assert_eq!(d.anchor_chars(el(d, "b")), 4);
    let lines = page.lines();
    let r = d.lines(div, lines);
    assert!(!r.is_empty());
    let first = &lines.lines[r.start];
    let last = &lines.lines[r.end - 1];
    assert!(first.range().contains(&t.find("<div>").unwrap()));
    assert!(last.range().contains(&t.find("</div>").unwrap()));
    for i in r {
        let l = lines.lines[i].range();
        assert!(d.region(div).intersects(l.clone()) || d.hull(div).unwrap().contains(&l.start));
    }
}

#[test]
fn ids_are_dense_in_document_order() {
    let t = "<!DOCTYPE html><!-- c --><html><head><title>T</title></head><body>x</body></html>";
    let d = parse(t);
    assert_eq!(d.kind(0), NodeKind::Document);
    assert_eq!(d.kind(1), NodeKind::Doctype);
    assert_eq!(d.kind(2), NodeKind::Comment);
    assert_eq!(src(t, &d.spans(1)[0]), "<!DOCTYPE html>");
    assert_eq!(src(t, &d.spans(2)[0]), "<!-- c -->");
    let names: Vec<_> = d
        .elements()
        .map(|(i, depth)| (d.tag_name(i).unwrap(), depth))
        .collect();
    assert_eq!(names, [("html", 1), ("head", 2), ("title", 3), ("body", 2)]);
    assert_eq!(d.subtree(0), 0..d.len());
}

#[test]
fn dom_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Dom>();
}

#[test]
fn nesting_is_capped_and_text_is_kept() {
    let n = 3 * MAX_DEPTH;
    let html = format!(
        "{}<p>deep text</p>{}",
        "<div>".repeat(n),
        "</div>".repeat(n)
    );
    let dom = Dom::parse(&html, &DomOptions::default());
    dom.validate(&html).unwrap();
    let deepest = (0..dom.len()).map(|i| dom.depth(i)).max().unwrap();
    assert!(deepest <= MAX_DEPTH + 4, "depth {deepest}");
    assert!((MAX_DEPTH - 4..).contains(&deepest), "depth {deepest}");
    assert_eq!(dom.text(0).trim(), "deep text");
    // Unclosed paragraphs (closed implicitly) never trigger the cap: every <p> stays.
    let html = "<p>x".repeat(2 * MAX_DEPTH);
    let dom = Dom::parse(&html, &DomOptions::default());
    let ps = (0..dom.len())
        .filter(|&i| dom.tag_name(i) == Some("p"))
        .count();
    assert_eq!(ps, 2 * MAX_DEPTH);
}

/// A NUL in SVG (in a CDATA section or not): the tree builder makes it U+FFFD; the text node
/// still covers its source (it had no spans at all; found by `tests/html_model.rs`).
#[test]
fn nul_in_foreign_cdata_keeps_its_span() {
    for t in [
        "<svg><![CDATA[\0<div>",
        "<svg><![CDATA[\0a]]>b",
        "<svg><![CDATA[a\0\0b]]></svg>",
        "<svg>a\0b</svg>",
        "<svg><title>\0a</title></svg>",
    ] {
        let d = parse(t);
        let (id, spans) = d.text_nodes().next().unwrap();
        assert!(!spans.is_empty(), "{t:?}");
        assert!(
            d.node_text(id).unwrap().starts_with(['\u{FFFD}', 'a']),
            "{t:?}"
        );
    }
}

/// Text pending in a table when a (ignored) doctype comes keeps its span (found by
/// `tests/html_model.rs`).
#[test]
fn table_text_before_a_late_doctype_keeps_its_span() {
    let t = "<table>--><!DOCTYPE html>";
    let d = parse(t);
    let (_, spans) = d.text_nodes().next().unwrap();
    assert_eq!(&t[spans[0].clone()], "-->");
    assert_eq!(spans.len(), 1);
}

/// `</>` in SVG text (dropped by the tokenizer) before a CDATA section holding a literal `</>`
/// (found by `tests/html_model.rs`: the text had no spans).
#[test]
fn empty_end_tag_before_foreign_cdata() {
    let t = "<svg>text</><![CDATA[<div></>";
    let d = parse(t);
    let (_, spans) = d.text_nodes().next().unwrap();
    assert_eq!(&t[spans[0].clone()], "text");
}

/// An end tag the tree builder ignores (or that finds its element already closed) is no
/// element's end tag: `</div>` inside a table row is ignored, so div#a has no end tag (it used
/// to get that `</div>`), and its bytes are in no node; `</li>` after `</ul>` closed the `<li>`
/// finds none open.
#[test]
fn ignored_end_tags_end_no_element() {
    let t = "<div id=a><table><tr><td>x</td></div></tr></table>";
    let d = parse(t);
    let a = el(&d, "div");
    assert_eq!(d.end_tag(a), None, "{:?}", d.end_tag(a).map(|r| src(t, &r)));
    let stray = t.find("</div>").unwrap();
    assert!(d.class_spans(t).iter().all(|(r, _)| !r.contains(&stray)));
    // The same `</div>` ignored, and a later one that closes div#a.
    let t = "<div id=a><table><tr><td>x</td></div></tr></table>y</div>z";
    let d = parse(t);
    let a = el(&d, "div");
    assert_eq!(d.end_tag(a), Some(t.rfind("</div>").unwrap()..t.len() - 1));
    let t = "<ul><li>a</ul></li>b";
    let d = parse(t);
    let li = el(&d, "li");
    assert_eq!(d.end_tag(li), None);
    assert_eq!(d.end_tag(el(&d, "ul")), Some(9..14));
}

/// `</form>` removes only the form from the tree builder's open elements: a `<div>` opened
/// inside it stays open and its own `</div>` is its end tag (the DOM used to drop it from its
/// stack with the form, so that `</div>` was taken for the outer div's, or for none).
#[test]
fn elements_left_open_by_a_form_end_tag_keep_their_end_tags() {
    let t = "<div id=o><form><div id=i>a</form>b</div>c</div>";
    let d = parse(t);
    let div = |id: &str| {
        d.elements()
            .find(|&(i, _)| d.attr(i, "id") == Some(id))
            .map(|(i, _)| i)
            .unwrap()
    };
    let first = t.find("</div>").unwrap();
    assert_eq!(d.end_tag(div("i")), Some(first..first + 6));
    assert_eq!(d.end_tag(div("o")), Some(t.len() - 6..t.len()));
    let form = el(&d, "form");
    let f = t.find("</form>").unwrap();
    assert_eq!(d.end_tag(form), Some(f..f + 7));
    // Its region: its start tag and text, then (after the form's end tag) its text and end tag.
    let start = t.find("<div id=i>").unwrap();
    assert_eq!(d.region(div("i")).ranges(), [start..f, f + 7..first + 6]);
}

#[test]
fn non_space_chars_count_what_is_not_white_space() {
    let t = "<p>a b\tc</p><p>\u{a0}é\u{2003}x <!-- c d --></p>";
    let d = parse(t);
    let texts: Vec<(usize, usize)> = d
        .text_nodes()
        .map(|(i, _)| {
            (
                d.non_space_chars(i),
                d.node_text(i).unwrap().chars().count(),
            )
        })
        .collect();
    // "a b\tc": 3 of 5; "\u{a0}é\u{2003}x ": é and x (no-break and em spaces are white space).
    assert_eq!(texts, [(3, 5), (2, 5)]);
    // Asked again: the remembered count.
    assert_eq!(d.non_space_chars(d.text_nodes().next().unwrap().0), 3);
    let comment = (0..d.len())
        .find(|&i| d.kind(i) == NodeKind::Comment)
        .unwrap();
    assert_eq!(d.non_space_chars(comment), 2);
    assert_eq!(
        d.non_space_chars(0),
        0,
        "the document has no text of its own"
    );
    // ASCII text, counted byte by byte: vertical tab, form feed and carriage return are white
    // space, the control character U+001C is not (as `char::is_whitespace` says).
    let d = parse("<p>a\u{b}b\u{c}c\rd\u{1c}e f</p>");
    let p = d.text_nodes().next().unwrap().0;
    let text = d.node_text(p).unwrap();
    let want = text.chars().filter(|c| !c.is_whitespace()).count();
    assert_eq!((d.non_space_chars(p), want), (7, 7), "{text:?}");
}
