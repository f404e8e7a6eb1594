use super::*;
use crate::page::Page;
use crate::selection::Selection;

/// The blocks of `html` as (text, path).
fn blocks_of(html: &str) -> Vec<(String, String)> {
    let p = Page::from_text("t.html", html);
    let b = p.blocks();
    (0..b.len())
        .map(|i| (b.text(p.dom(), i), b.path(p.dom(), i)))
        .collect()
}

fn texts(html: &str) -> Vec<String> {
    blocks_of(html).into_iter().map(|(t, _)| t).collect()
}

#[test]
fn inline_tags_stay_block_tags_split() {
    let html = "<html><body><div id=main class='post big'>Intro <a href=x>link</a> text\
        <p>First <b>bold</b>er<br>line two</p><ul><li>one</li><li>two</li></ul>tail</div>\
        </body></html>";
    assert_eq!(
        blocks_of(html),
        vec![
            (
                "Intro link text".to_string(),
                "html > body > div#main.post.big".to_string()
            ),
            (
                "First bolder line two".to_string(),
                "html > body > div#main.post.big > p".to_string()
            ),
            (
                "one".to_string(),
                "html > body > div#main.post.big > ul > li".to_string()
            ),
            (
                "two".to_string(),
                "html > body > div#main.post.big > ul > li".to_string()
            ),
            (
                "tail".to_string(),
                "html > body > div#main.post.big".to_string()
            ),
        ]
    );
}

#[test]
fn scripts_comments_and_white_space_make_no_block_and_no_boundary() {
    assert_eq!(
        texts("<title> T </title><p>foo<script>var x = '<p>';</script>bar <!-- c --> baz</p>\n\n<p>  </p>"),
        vec!["T", "foobar baz"]
    );
    assert!(texts("").is_empty());
    assert!(texts("<p> \n </p><script>x</script>").is_empty());
}

#[test]
fn ranges_are_trimmed_source_spans() {
    let html = "<p>\n  Hello &amp; <i>good</i> bye \n</p>";
    let p = Page::from_text("t.html", html);
    let b = p.blocks();
    assert_eq!(b.len(), 1);
    let rs: Vec<&str> = b.ranges(0).iter().map(|r| &html[r.clone()]).collect();
    assert_eq!(rs, vec!["Hello &amp; ", "good", " bye"]);
    assert_eq!(
        b.get(0).extent,
        html.find("Hello").unwrap()..html.find(" \n</p>").unwrap()
    );
    assert_eq!(b.at(html.find("good").unwrap()), Some(0));
    assert_eq!(b.at(html.find("<i>").unwrap()), None);
    assert_eq!(b.at(0), None);
    let text_node = p.dom().text_nodes().nth(1).unwrap().0;
    assert_eq!(b.of_node(text_node), Some(0));
    assert_eq!(b.of_node(0), None);
}

#[test]
fn visibility_flags_name_the_cause() {
    let html = "<div hidden><p>a</p></div><div aria-hidden=true>b</div>\
        <div style='color:red; display : none'>c</div><p>d <span hidden>e</span></p>\
        <span hidden>f</span><noscript><p>g</p></noscript>";
    let p = Page::from_text("t.html", html);
    let b = p.blocks();
    let vis: Vec<(String, Vec<&str>)> = (0..b.len())
        .map(|i| (b.text(p.dom(), i), b.get(i).visibility.names().collect()))
        .collect();
    let want = |t: &str, v: &[&'static str]| (t.to_string(), v.to_vec());
    let mut expected = vec![
        want("a", &["hidden"]),
        want("b", &["aria-hidden"]),
        want("c", &["display:none"]),
        want("d e", &[]),
        want("f", &["hidden"]),
    ];
    // <noscript> is one raw text node when the DOM is parsed with scripting on, markup when off.
    if !p.dom().options().scripting_enabled {
        expected.push(want("g", &["noscript"]));
        let g = b.len() - 1;
        assert!(b.noscript(p.dom(), g).is_some());
    }
    assert_eq!(vis, expected);
    let hider = b.hidden_by(p.dom(), 0).unwrap();
    assert_eq!(p.dom().tag_name(hider), Some("div"));
    assert_eq!(b.hidden_by(p.dom(), 3), None);
}

#[test]
fn noscript_parsed_as_markup_is_flagged() {
    let html = "<body><noscript><div class=post><p>Post text</p></div></noscript></body>";
    let dom = Dom::parse(
        html,
        &crate::page::DomOptions {
            scripting_enabled: false,
        },
    );
    let b = Blocks::build(html, &dom);
    assert_eq!(b.len(), 1);
    assert!(b.get(0).visibility.contains(Visibility::NOSCRIPT));
    assert!(!b.get(0).visibility.is_hidden());
    assert_eq!(b.path(&dom, 0), "html > body > noscript > div.post > p");
    assert_eq!(dom.tag_name(b.noscript(&dom, 0).unwrap()), Some("noscript"));
}

#[test]
fn within_flags_and_positions() {
    let html = "<div><h2>Head <em>line</em></h2><article><p>Para</p></article></div><nav>x</nav>";
    let p = Page::from_text("t.html", html);
    let b = p.blocks();
    assert_eq!(b.len(), 3);
    let w: Vec<Vec<&str>> = b
        .blocks()
        .iter()
        .map(|x| x.within.names().collect())
        .collect();
    assert_eq!(
        w,
        vec![vec!["h2", "div"], vec!["p", "div", "article"], vec!["nav"]]
    );
    assert_eq!(b.get(0).within.heading(), Some(2));
    assert_eq!(b.get(1).within.heading(), None);
    assert_eq!(b.relative_position(0), 0.0);
    assert_eq!(b.relative_position(1), 0.5);
    assert_eq!(b.relative_position(2), 1.0);
}

#[test]
fn date_tokens() {
    for t in [
        "2024",
        "(1999),",
        "2024-01-05",
        "5/1/24",
        "05.01.2024",
        "12:30",
        "9:05:59",
        "May",
        "Sept.",
        "Monday,",
    ] {
        assert!(is_date_token(t.as_bytes()), "{t}");
    }
    for t in [
        "may",
        "1850",
        "12345",
        "3.5",
        "1/2",
        "2-3",
        "12:3",
        "1:2:3:4",
        "Mayday",
        "a-b-c",
        "2024-01-05-07",
        "---",
        "",
    ] {
        assert!(!is_date_token(t.as_bytes()), "{t}");
    }
}

#[test]
fn features_by_hand() {
    // Tokens: "The", "NASA", "report,", "|", "May", "2024.", "Read", "it!", "x.y"
    let p = Page::from_text(
        "t.html",
        "<p>The NASA report, | May 2024. <a href=#>Read it</a>! x.y</p>",
    );
    let f = p.blocks().get(0).features;
    assert_eq!(f.tokens, 9);
    assert_eq!(f.words, 8);
    assert_eq!(f.linked_words, 2, "Read, it! (partly in the link)");
    assert_eq!(f.upper_words, 4, "The NASA May Read");
    assert_eq!(f.all_caps_words, 1);
    assert_eq!(f.date_tokens, 2);
    assert_eq!(f.vertical_bars, 1);
    assert_eq!(f.full_stops, 1);
    assert_eq!(f.sentences, 3, "…2024. | Read it! | x.y");
    // The: 3, NASA 4, report 6, May 3, 2024 4, Read 4, it 2, x.y 3.
    assert_eq!(f.word_chars, 29);
    let text = "The NASA report, | May 2024. Read it! x.y";
    assert_eq!(f.chars as usize, text.chars().count());
    assert_eq!(f.lines, 1);
    assert_eq!(f.text_density(), 9.0);
}

#[test]
fn text_density_leaves_out_the_last_wrapped_line() {
    // 30 tokens of 9 chars: 8 per 80-column line (8·9 + 7 = 79), so lines of 8, 8, 8, 6.
    let words = vec!["abcdefghi"; 30].join(" ");
    let p = Page::from_text("t.html", format!("<p>{words}</p>"));
    let f = p.blocks().get(0).features;
    assert_eq!((f.tokens, f.lines, f.wrapped_tokens), (30, 4, 24));
    assert_eq!(f.text_density(), 8.0);
    // A token longer than a line stands alone.
    let long = "x".repeat(100);
    let p = Page::from_text("t.html", format!("<p>a {long} b</p>"));
    let f = p.blocks().get(0).features;
    assert_eq!((f.lines, f.wrapped_tokens), (3, 2));
    assert_eq!(f.text_density(), 1.0);
}

#[test]
fn selections_project_onto_blocks() {
    let html = "<p>Hello world</p><p>Second one</p>";
    let p = Page::from_text("t.html", html);
    let b = p.blocks();
    let hello = html.find("Hello").unwrap();
    let sel = Selection::from_ranges([hello..hello + 5, html.find("Second").unwrap()..html.len()]);
    assert_eq!(b.project(&sel), vec![5.0 / 11.0, 1.0]);
    assert_eq!(b.project(&Selection::new()), vec![0.0, 0.0]);
    assert_eq!(b.project(&p.content_text()), vec![1.0, 1.0]);
}

#[test]
fn node_series_are_drawn_on_their_text_lines() {
    // Raw lines: 0 `<div id=a>`, 1 `<p>one`, 2 `two</p>`, 3 `<p>three</p>`, 4 `</div>`.
    let html = "<div id=a>\n<p>one\ntwo</p>\n<p>three</p>\n</div>";
    let p = Page::from_text("t.html", html);
    // The raw lines (split after each newline), built here: `page` sits below the traces.
    let mut display = Vec::new();
    let mut from = 0;
    for (i, b) in html.bytes().enumerate() {
        if b == b'\n' {
            display.push(from..i + 1);
            from = i + 1;
        }
    }
    display.push(from..html.len());
    assert_eq!(display.len(), 5);
    let dom = p.dom();
    let els: Vec<NodeId> = dom
        .elements()
        .map(|(i, _)| i)
        .filter(|&i| matches!(dom.tag_name(i), Some("div" | "p")))
        .collect();
    let extents: Vec<Range<usize>> = els.iter().map(|&i| dom.hull(i).unwrap()).collect();
    let nl = NodeLines::new(p.blocks(), html, &extents, &display);
    // div 0, p 1, p 2: the div's own lines hold no text, each p's text lines show the p.
    assert_eq!(nl.owner, vec![None, Some(1), Some(1), Some(2), None]);
    assert_eq!(nl.extent, vec![0..5, 1..3, 3..4]);
    assert_eq!(
        nl.values(&[10.0, 20.0, 30.0]),
        vec![None, Some(20.0), Some(20.0), Some(30.0), None]
    );
    assert_eq!(nl.lines_of(1).collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(p.blocks().lines(0, html, &display), 1..3);
    // Without the paragraphs, their text lines show the div.
    let nl = NodeLines::new(p.blocks(), html, &extents[..1], &display);
    assert_eq!(nl.owner, vec![None, Some(0), Some(0), Some(0), None]);
}

#[test]
fn word_characters_are_the_tokenisers() {
    // The scanner tests letters and numbers apart; together they are `metrics::is_word_char`.
    for c in (0x80u32..0x3_2000).filter_map(char::from_u32) {
        assert_eq!(
            c.is_alphabetic() || c.is_numeric(),
            crate::metrics::is_word_char(c),
            "{c:?}"
        );
    }
}

#[test]
fn inline_tags_are_not_interned_as_separators() {
    // `role` reads the name only of elements whose interned tag is `Other`: an inline tag that
    // the lexer starts to intern must be added to `role`'s own match.
    assert!(
        INLINE_TAGS.windows(2).all(|w| w[0] < w[1]),
        "sorted, for the search"
    );
    for name in INLINE_TAGS {
        let tag = Tag::from_name(name.as_bytes());
        assert!(
            matches!(tag, Tag::Other | Tag::A | Tag::Br | Tag::Img),
            "{name} is interned as {tag:?}"
        );
    }
    let html: String = INLINE_TAGS
        .iter()
        .map(|t| format!("<{t}>w{t} "))
        .collect::<Vec<_>>()
        .concat();
    let p = Page::from_text("t.html", format!("<p>{html}</p>"));
    assert_eq!(
        p.blocks().len(),
        1,
        "every inline tag stays inside the block"
    );
}

#[test]
fn blocks_starting_from_and_before_an_offset() {
    let html = "<p>one</p>\n<div><span>x</span></div>\n<p>two</p><p>three</p>";
    let p = Page::from_text("t.html", html);
    let b = p.blocks();
    let start = |i: usize| b.get(i).extent.start;
    assert_eq!(b.len(), 4);
    // From an offset inside markup: the next block to start, the last one started.
    let in_markup = html.find("<div>").unwrap();
    assert_eq!(b.starting_from(in_markup), Some(1));
    assert_eq!(b.starting_before(in_markup), Some(0));
    // At a block's first byte: that block from it, the one before before it.
    assert_eq!(b.starting_from(start(2)), Some(2));
    assert_eq!(b.starting_before(start(2)), Some(1));
    assert_eq!(b.starting_before(0), None);
    assert_eq!(b.starting_from(html.len()), None);
    assert_eq!(b.starting_before(html.len()), Some(3));
}

/// The segmentation records each text node's non-white-space characters for CETD and LQF
/// (`Dom::remember_non_space_chars`, which checks them in debug builds against the DOM's own
/// count): with Unicode white space (no-break space, em space, vertical tab), a blank node,
/// non-ASCII letters and text outside any block, the counts read after the blocks are the
/// counts of a DOM that never saw them.
#[test]
fn blocks_record_the_character_counts_cetd_reads() {
    let html = "<p>a\u{a0}b \u{2003} c\u{0b}d</p><p> \u{a0} </p><div>x<b>é y</b></div>\
                <script>var x = 1;</script><p hidden>gone</p>";
    let page = Page::from_text("t.html", html);
    assert!(!page.blocks().is_empty());
    let dom = page.dom();
    let fresh = crate::page::Dom::parse(page.text(), &crate::page::DomOptions::default());
    let mut counted = Vec::new();
    for (id, _) in dom.text_nodes() {
        assert_eq!(
            dom.non_space_chars(id),
            fresh.non_space_chars(id),
            "node {id}"
        );
        counted.push(dom.non_space_chars(id));
    }
    assert!(counted.contains(&4), "a b c d: {counted:?}");
}
