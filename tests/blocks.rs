//! Atomic text blocks on a hand-made page: every feature of every block computed by hand
//! (Kohlschütter et al. 2010's shallow text features, the 80-column text-density wrap
//! included), and `cescope blocks` as JSON and CSV.

use crate::common;

use cescope::page::blocks::{Features, Visibility, Within};
use cescope::page::Page;
use cescope::selection::Selection;

use common::{run, stderr, stdout};

/// A small news page: a title, a link menu, a headline, a byline, one long paragraph (three
/// wrapped lines) and a hidden note.
const PAGE: &str = r#"<!DOCTYPE html>
<html><head><title>Harbour news | Example Gazette</title></head>
<body>
<div id="nav" class="menu top"><a href="/">Home</a> | <a href="/news">News</a> | <a href="/sport">Sport</a></div>
<div id="content" class="post">
<h1>Harbour wall to be <em>rebuilt</em></h1>
<p>Posted on Monday, 12.03.2024 at 10:30 by the NEWS desk.</p>
<p>The old harbour wall, built in 1987, will be rebuilt next spring. Engineers say the work will take eighteen months. Residents of the town welcomed the news at a meeting on Tuesday evening, where the mayor answered questions. <a href="/more">Read more</a>!</p>
<p hidden>Hidden note for editors.</p>
</div>
</body></html>
"#;

/// The features each block must have, counted by hand.
fn expected() -> Vec<Features> {
    vec![
        // "Harbour news | Example Gazette": 5 tokens, `|` no word; 7+4+7+7 word chars.
        Features {
            tokens: 5,
            words: 4,
            chars: 30,
            word_chars: 25,
            linked_words: 0,
            sentences: 1,
            full_stops: 0,
            upper_words: 3,
            all_caps_words: 0,
            date_tokens: 0,
            vertical_bars: 1,
            commas: 0,
            lines: 1,
            wrapped_tokens: 0,
        },
        // "Home | News | Sport": the three words are links, the bars are not.
        Features {
            tokens: 5,
            words: 3,
            chars: 19,
            word_chars: 13,
            linked_words: 3,
            sentences: 1,
            full_stops: 0,
            upper_words: 3,
            all_caps_words: 0,
            date_tokens: 0,
            vertical_bars: 2,
            commas: 0,
            lines: 1,
            wrapped_tokens: 0,
        },
        // "Harbour wall to be rebuilt" (the <em> stays inside): 7+4+2+2+7.
        Features {
            tokens: 5,
            words: 5,
            chars: 26,
            word_chars: 22,
            linked_words: 0,
            sentences: 1,
            full_stops: 0,
            upper_words: 1,
            all_caps_words: 0,
            date_tokens: 0,
            vertical_bars: 0,
            commas: 0,
            lines: 1,
            wrapped_tokens: 0,
        },
        // "Posted on Monday, 12.03.2024 at 10:30 by the NEWS desk.": word chars
        // 6+2+6+10+2+5+2+3+4+4 = 44 (`Monday,` → 6, `desk.` → 4); capitals Posted, Monday, NEWS;
        // dates Monday, 12.03.2024, 10:30; one full stop, one sentence; one comma.
        Features {
            tokens: 10,
            words: 10,
            chars: 55,
            word_chars: 44,
            linked_words: 0,
            sentences: 1,
            full_stops: 1,
            upper_words: 3,
            all_caps_words: 1,
            date_tokens: 3,
            vertical_bars: 0,
            commas: 1,
            lines: 1,
            wrapped_tokens: 0,
        },
        // The long paragraph, 40 tokens, 235 chars, wrapped at 80 columns:
        //   "The old harbour wall, built in 1987, will be rebuilt next spring. Engineers say"
        //       14 tokens, 79 columns
        //   "the work will take eighteen months. Residents of the town welcomed the news at a"
        //       15 tokens, exactly 80 columns (still fits)
        //   "meeting on Tuesday evening, where the mayor answered questions. Read more!"
        //       11 tokens: the last line, left out of the density
        // so ρ = (14 + 15) / 2 = 14.5. Links: `Read` and `more!` (the `!` follows the </a>).
        // Sentences end at spring. months. questions. more! — three full stops. Capitals: The,
        // Engineers, Residents, Tuesday, Read; dates 1987 and Tuesday; commas after wall, 1987 and
        // evening.
        Features {
            tokens: 40,
            words: 40,
            chars: 235,
            word_chars: 189,
            linked_words: 2,
            sentences: 4,
            full_stops: 3,
            upper_words: 5,
            all_caps_words: 0,
            date_tokens: 2,
            vertical_bars: 0,
            commas: 3,
            lines: 3,
            wrapped_tokens: 29,
        },
        // "Hidden note for editors."
        Features {
            tokens: 4,
            words: 4,
            chars: 24,
            word_chars: 20,
            linked_words: 0,
            sentences: 1,
            full_stops: 1,
            upper_words: 1,
            all_caps_words: 0,
            date_tokens: 0,
            vertical_bars: 0,
            commas: 0,
            lines: 1,
            wrapped_tokens: 0,
        },
    ]
}

#[test]
fn every_feature_of_a_hand_made_page() {
    let page = Page::from_text("harbour.html", PAGE);
    let dom = page.dom();
    let blocks = page.blocks();
    let texts: Vec<String> = (0..blocks.len()).map(|i| blocks.text(dom, i)).collect();
    assert_eq!(
        texts,
        vec![
            "Harbour news | Example Gazette",
            "Home | News | Sport",
            "Harbour wall to be rebuilt",
            "Posted on Monday, 12.03.2024 at 10:30 by the NEWS desk.",
            "The old harbour wall, built in 1987, will be rebuilt next spring. Engineers say \
             the work will take eighteen months. Residents of the town welcomed the news at a \
             meeting on Tuesday evening, where the mayor answered questions. Read more!",
            "Hidden note for editors.",
        ]
    );
    let paths: Vec<String> = (0..blocks.len()).map(|i| blocks.path(dom, i)).collect();
    assert_eq!(
        paths,
        vec![
            "html > head > title",
            "html > body > div#nav.menu.top",
            "html > body > div#content.post > h1",
            "html > body > div#content.post > p",
            "html > body > div#content.post > p",
            "html > body > div#content.post > p",
        ]
    );
    let got: Vec<Features> = blocks.blocks().iter().map(|b| b.features).collect();
    let want = expected();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "block {i}: {}", texts[i]);
    }
    assert_eq!(got.len(), want.len());

    // The paper's ratios from the counts.
    let f = &got[4];
    assert_eq!(f.text_density(), 14.5);
    assert_eq!(f.link_density(), 2.0 / 40.0);
    assert_eq!(f.avg_word_length(), 189.0 / 40.0);
    assert_eq!(f.avg_sentence_length(), 10.0);
    assert_eq!(f.full_stop_ratio(), 3.0 / 40.0);
    assert_eq!(f.upper_ratio(), 5.0 / 40.0);
    assert_eq!(got[1].link_density(), 1.0);
    assert_eq!(got[1].text_density(), 5.0, "one line: all its tokens");
    assert_eq!(got[3].all_caps_ratio(), 0.1);
    assert_eq!(got[0].avg_word_length(), 6.25);

    // Enclosing elements, positions, visibility.
    let within: Vec<Within> = blocks.blocks().iter().map(|b| b.within).collect();
    assert!(within[0].contains(Within::HEAD));
    assert!(within[1].contains(Within::DIV) && !within[1].contains(Within::P));
    assert_eq!(within[2].heading(), Some(1));
    assert!(within[3].contains(Within::P) && within[3].contains(Within::DIV));
    assert_eq!(within[3].heading(), None);
    let rel: Vec<f64> = (0..6).map(|i| blocks.relative_position(i)).collect();
    assert_eq!(rel, vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
    let hidden: Vec<bool> = blocks
        .blocks()
        .iter()
        .map(|b| b.visibility.contains(Visibility::HIDDEN))
        .collect();
    assert_eq!(hidden, vec![false, false, false, false, false, true]);

    // Byte ranges: the source text of each block, trimmed.
    let first = &PAGE[blocks.get(3).extent.clone()];
    assert_eq!(
        first,
        "Posted on Monday, 12.03.2024 at 10:30 by the NEWS desk."
    );
    let nav: Vec<&str> = blocks.ranges(1).iter().map(|r| &PAGE[r.clone()]).collect();
    assert_eq!(nav, vec!["Home", " | ", "News", " | ", "Sport"]);
    let read = PAGE.find("Read more").unwrap();
    assert_eq!(blocks.at(read), Some(4));

    // A selection of the headline and half the byline's bytes.
    let h1 = PAGE.find("Harbour wall").unwrap()..PAGE.find("rebuilt</em>").unwrap() + 7;
    let by = blocks.get(3).extent.clone();
    let sel = Selection::from_ranges([h1, by.start..by.start + 11]);
    let proj = blocks.project(&sel);
    assert_eq!(proj[..4], [0.0, 0.0, 1.0, 11.0 / 55.0]);
}

#[test]
fn blocks_command_json_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("harbour.html"), PAGE).unwrap();
    let o = run(
        dir.path(),
        &[
            "blocks",
            "harbour.html",
            "--algo",
            "plain,lqf",
            "--format",
            "json",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["algos"], serde_json::json!(["plain", "lqf"]));
    let b = v["blocks"].as_array().unwrap();
    assert_eq!(b.len(), 6);
    let para = &b[4];
    assert_eq!(para["path"], "html > body > div#content.post > p");
    assert_eq!(para["tag"], "p");
    assert_eq!(para["features"]["words"], 40);
    assert_eq!(para["features"]["text_density"], 14.5);
    assert_eq!(para["features"]["link_density"], 0.05);
    assert_eq!(para["features"]["date_tokens"], 2);
    assert_eq!(b[1]["id"], "nav");
    assert_eq!(b[1]["class"], "menu top");
    assert_eq!(b[5]["visibility"], serde_json::json!(["hidden"]));
    assert_eq!(b[2]["heading"], 1);
    // `plain` keeps all text; LQF removes the link menu (link quota 1 > 0.25).
    assert_eq!(para["verdicts"]["plain"], 1.0);
    assert_eq!(b[1]["verdicts"]["lqf"], 0.0);
    assert_eq!(para["verdicts"]["lqf"], 1.0);
    // Unit kinds: the byline ("Posted on …") and the article's prose (none).
    assert_eq!(b[3]["units"], serde_json::json!(["byline"]));
    assert_eq!(para["units"], serde_json::json!([]));

    let o = run(dir.path(), &["blocks", "harbour.html", "--format", "csv"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = stdout(&o);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 7);
    assert!(lines[0].starts_with("index,number,path,tag,id,class,start,end,tokens,words,"));
    assert!(
        lines[0].ends_with(",visibility,record_group,record,group_records,unit,text"),
        "{}",
        lines[0]
    );
    assert!(lines[5].contains(",14.5000,"), "{}", lines[5]);

    let o = run(dir.path(), &["blocks", "harbour.html", "--algo", "nosuch"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("nosuch"), "{}", stderr(&o));
}

/// HTML-ish fragments that reach the segmentation's cases: inline and block tags, links,
/// hidden elements, scripts, comments, entities, non-ASCII text, unclosed and stray tags.
fn fragment() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    prop_oneof![
        Just("<p>".to_string()),
        Just("</p>".to_string()),
        Just("<div hidden>".to_string()),
        Just("<div style='display:none'>".to_string()),
        Just("</div>".to_string()),
        Just("<a href=x>".to_string()),
        Just("</a>".to_string()),
        Just("<b>".to_string()),
        Just("</b>".to_string()),
        Just("<br>".to_string()),
        Just("<img src=x>".to_string()),
        Just("<table><td>".to_string()),
        Just("</table>".to_string()),
        Just("<noscript>".to_string()),
        Just("</noscript>".to_string()),
        Just("<script>a<b</script>".to_string()),
        Just("<!-- c -->".to_string()),
        Just("<title>".to_string()),
        Just("<svg><text>".to_string()),
        Just("&amp;".to_string()),
        Just("&nbsp;".to_string()),
        Just(" | ".to_string()),
        Just("\n ".to_string()),
        Just("NASA 2024-01-05. ".to_string()),
        Just("می‌شود ".to_string()),
        Just("«Ärger» … ".to_string()),
        "[a-zA-Z .,!?]{1,30}",
    ]
}

/// The block invariants of `page`, the first violation described: ranges are sorted,
/// disjoint, non-empty source bytes on char boundaries inside the extent; blocks follow each
/// other in node order; the counts agree with each other and with the block's text; `at` finds
/// each range's block; projections stay in [0, 1]; every line a node series draws on lies in
/// the extent of the element drawn.
fn invariants(page: &Page) -> Result<(), String> {
    let html = page.text();
    let (dom, blocks) = (page.dom(), page.blocks());
    let fail = |i: usize, what: &str| Err(format!("block {i}: {what}"));
    let mut last_node = 0;
    for (i, b) in blocks.blocks().iter().enumerate() {
        let rs = blocks.ranges(i);
        if rs.is_empty() {
            return fail(i, "no ranges");
        }
        for (k, r) in rs.iter().enumerate() {
            if r.start >= r.end || r.end > html.len() {
                return fail(i, &format!("range {r:?}"));
            }
            if !html.is_char_boundary(r.start) || !html.is_char_boundary(r.end) {
                return fail(i, &format!("range {r:?} off char boundaries"));
            }
            if r.start < b.extent.start || r.end > b.extent.end {
                return fail(i, &format!("range {r:?} outside {:?}", b.extent));
            }
            if k > 0 && rs[k - 1].end > r.start {
                return fail(i, &format!("ranges overlap: {rs:?}"));
            }
            if blocks.at(r.start) != Some(i) {
                return fail(i, &format!("at({}) = {:?}", r.start, blocks.at(r.start)));
            }
        }
        if b.nodes.start < last_node || b.nodes.start >= b.nodes.end {
            return fail(i, &format!("nodes {:?} after {last_node}", b.nodes));
        }
        last_node = b.nodes.end;
        let f = &b.features;
        let consistent = f.tokens >= 1
            && f.words <= f.tokens
            && f.linked_words <= f.words
            && f.all_caps_words <= f.upper_words
            && f.upper_words <= f.words
            && f.sentences <= f.words
            && f.lines >= 1
            && (f.wrapped_tokens < f.tokens || f.lines == 1);
        if !consistent {
            return fail(i, &format!("counts {f:?}"));
        }
        let text = blocks.text(dom, i);
        if text.split_whitespace().count() != f.tokens as usize
            || text.chars().count() != f.chars as usize
        {
            return fail(i, &format!("{text:?} against {f:?}"));
        }
    }
    if let Some(v) = blocks
        .project(&Selection::from_range(0..html.len() / 2))
        .into_iter()
        .find(|v| !(0.0..=1.0).contains(v))
    {
        return Err(format!("projection {v}"));
    }
    let display = cescope::page::lines::raw_lines(html);
    let extents: Vec<std::ops::Range<usize>> = (0..dom.len())
        .map(|id| dom.hull(id).unwrap_or(0..0))
        .collect();
    let nl = cescope::page::blocks::NodeLines::new(blocks, html, &extents, &display);
    for (l, o) in nl.owner.iter().enumerate() {
        if let Some(item) = *o {
            if !nl.extent[item].contains(&l) {
                return Err(format!("line {l} outside {:?}", nl.extent[item]));
            }
        }
    }
    Ok(())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// The block invariants ([`invariants`]) on generated pages.
    #[test]
    fn block_invariants(parts in proptest::collection::vec(fragment(), 0..60)) {
        let page = Page::from_text("gen.html", parts.concat());
        if let Err(e) = invariants(&page) {
            proptest::prop_assert!(false, "{}", e);
        }
    }
}

/// The block invariants ([`invariants`]) on every page of the shared corpora.
#[test]
#[ignore = "needs ../shared/corpus"]
fn corpus_pages_keep_the_block_invariants() {
    use cescope::page::DecodeOptions;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let (mut n, mut blocks, mut failures) = (0, 0, Vec::new());
    for name in ["scrapinghub-dev", "readability", "wcxb-dev"] {
        let c = cescope::corpus::open(&root.join(name)).unwrap();
        for p in &c.pages {
            let Ok(page) = Page::load(&p.path, &DecodeOptions::default()) else {
                continue;
            };
            n += 1;
            blocks += page.blocks().len();
            if let Err(e) = invariants(&page) {
                failures.push(format!("{name}/{}: {e}", p.id));
            }
        }
    }
    assert!(n > 200 && blocks > 100 * n, "pages {n}, blocks {blocks}");
    assert!(
        failures.is_empty(),
        "{} of {n} pages:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A DOM algorithm's node series drawn on its elements' text lines: LQF's per-block link
/// characters, which its trace places at each block's start tag, shown on the virtual lines of
/// the block's text (where the inspector draws it), the block's extent covering its tags too.
#[test]
fn a_dom_trace_is_drawn_on_the_text_lines() {
    use cescope::extract::trace::Unit;
    use cescope::extract::Params;
    use cescope::extractors::find;
    let html = "<div class=story><p>Some text <a href=x>link</a> and more text</p>\
        <ul><li><a href=a>One</a></li><li><a href=b>Two</a></li></ul></div>";
    let page = Page::from_text("t.html", html);
    let lqf = find("lqf").unwrap();
    let x = lqf.run(&page, &Params::defaults(lqf.params()));
    let extents = x.trace.positions(Unit::Node).unwrap();
    let link = &x.trace.series("link").unwrap().values;
    let display: Vec<std::ops::Range<usize>> =
        page.lines().lines.iter().map(|l| l.range()).collect();
    let nl = cescope::page::blocks::NodeLines::new(page.blocks(), html, extents, &display);
    let line_of = |s: &str| page.lines().line_of(html.find(s).unwrap()).unwrap();
    let (text, p_tag) = (line_of("Some text"), line_of("<p>"));
    assert_ne!(text, p_tag, "the paragraph's text is on a line of its own");
    let p = nl.owner[text].expect("the text line shows an element");
    assert_eq!(&html[extents[p].clone()][..3], "<p>");
    assert_eq!(
        nl.values(link)[text],
        Some(4.0),
        "link chars of the paragraph"
    );
    assert_eq!(nl.owner[p_tag], None, "a line of markup only shows nothing");
    assert!(nl.extent[p].contains(&p_tag) && nl.extent[p].contains(&text));
    let one = nl.owner[line_of("One")].unwrap();
    assert_eq!(&html[extents[one].clone()][..4], "<li>");
    assert_eq!(nl.values(link)[line_of("One")], Some(3.0));
}

/// The issue's case as the inspector aggregates it (`to_lines`): LQF on a story `<div>` with an
/// `<h2>` and two paragraphs. Each element's link quota, link and non-link characters are on
/// the virtual lines of its text — the heading's on the heading text's line, each paragraph's on
/// its text's line — and not on the lines of their tags; the extents kept beside cover the tags
/// too. (Before, every value sat on its element's start-tag line: the text lines showed 0.)
#[test]
fn lqf_values_land_on_the_text_lines() {
    use cescope::extract::trace::Unit;
    use cescope::extract::{to_lines, Params};
    use cescope::extractors::find;
    let html = "<body>\n<div class=story>\n<h2>Storm closes the harbour</h2>\n\
        <p>Boats stayed in port on Monday, <a href=/w>the weather office</a> said.</p>\n\
        <p>The ferry will sail again on Wednesday morning.</p>\n</div>\n</body>";
    let page = Page::from_text("t.html", html);
    let lqf = find("lqf").unwrap();
    let x = lqf.run(&page, &Params::defaults(lqf.params()));
    let display: Vec<std::ops::Range<usize>> =
        page.lines().lines.iter().map(|l| l.range()).collect();
    let lt = to_lines(&x.trace, &page, &display);
    let series = |key: &str| &lt.series.iter().find(|s| s.key == key).unwrap().values;
    let line = |s: &str| page.lines().line_of(html.find(s).unwrap()).unwrap();
    // The paragraph with the link: "Boatsstayedinportonmonday," 26 characters of other text and
    // "theweatheroffice" 16 of link text before "said." (5 more): q = 16 / 47.
    let boats = line("Boats");
    assert_ne!(boats, line("<p>Boats"), "the text is on a line of its own");
    assert_eq!(series("link")[boats], 16.0);
    assert_eq!(series("text")[boats], 31.0);
    assert!((series("quota")[boats] - 16.0 / 47.0).abs() < 1e-12);
    // The heading and the second paragraph: their own text, no links.
    assert_eq!(series("text")[line("Storm")], 21.0);
    assert_eq!(series("text")[line("The ferry")], 40.0);
    assert_eq!(series("link")[line("The ferry")], 0.0);
    // The lines of the tags carry nothing.
    for tag in ["<h2>", "<p>Boats", "<p>The ferry", "<div class=story>"] {
        assert_eq!(series("text")[line(tag)], 0.0, "{tag}");
        assert_eq!(series("quota")[line(tag)], 0.0, "{tag}");
    }
    // The placement: the text line shows the paragraph, whose extent covers its tags.
    let nodes = lt.nodes.as_ref().expect("a node trace keeps its placement");
    let p = nodes.owner[boats].unwrap();
    let extents = x.trace.positions(Unit::Node).unwrap();
    assert!(html[extents[p].clone()].starts_with("<p>Boats"));
    assert!(nodes.extent[p].contains(&line("<p>Boats")) && nodes.extent[p].contains(&boats));
}
