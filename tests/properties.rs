//! Property tests: arbitrary input never panics anywhere in the pipeline, and the page-model
//! invariants (spans and virtual lines tile the text, selections stay on char boundaries) hold.

use cescope::extractors::registry;

use cescope::extract::Params;
use cescope::page::{DecodeOptions, Page};
use proptest::prelude::*;

/// HTML-ish fragments, so random inputs reach the interesting lexer states.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("<".to_string()),
        Just(">".to_string()),
        Just("</".to_string()),
        Just("<!--".to_string()),
        Just("-->".to_string()),
        Just("--!>".to_string()),
        Just("<!".to_string()),
        Just("<?".to_string()),
        Just("<![CDATA[".to_string()),
        Just("]]>".to_string()),
        Just("<script>".to_string()),
        Just("</script>".to_string()),
        Just("<style>".to_string()),
        Just("</STYLE >".to_string()),
        Just("<title>".to_string()),
        Just("<textarea>".to_string()),
        Just("<plaintext>".to_string()),
        Just("<p>".to_string()),
        Just("</p>".to_string()),
        Just("<div class=\"a>b\">".to_string()),
        Just("</div>".to_string()),
        Just("<a href='x'>".to_string()),
        Just("</a>".to_string()),
        Just("<br/>".to_string()),
        Just("\"".to_string()),
        Just("'".to_string()),
        Just("=".to_string()),
        Just("&amp;".to_string()),
        Just("&#x6;".to_string()),
        Just("&".to_string()),
        Just(" ".to_string()),
        Just("\n".to_string()),
        Just("\0".to_string()),
        Just("سلام".to_string()),
        Just("می‌شود".to_string()),
        "[a-zA-Z ]{1,12}",
    ]
}

/// Inline content: words, whole links and line breaks, between which nothing is inserted.
fn inline_run() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(
        prop_oneof![
            // Links as whole inline units: an unclosed `<a>` would swallow the white space
            // inserted around the next block tag into its anchor text, which Filter 3 (AdDANAg)
            // measures.
            Just("<a href=x>a link</a>".to_string()),
            Just("<br>".to_string()),
            Just("سلام دنیا".to_string()),
            "[a-zA-Z][a-zA-Z .,]{0,40}[a-zA-Z.]",
        ],
        1..4,
    )
}

/// `open`, the parts of `inner`, `close`.
fn wrap(open: &str, inner: Vec<String>, close: &str) -> Vec<String> {
    let mut v = vec![open.to_string()];
    v.extend(inner);
    v.push(close.to_string());
    v
}

/// Well-formed block structure as separate parts (each tag one part): paragraphs and headings
/// of inline content, nested in divisions, lists and tables up to three levels. Well-formed,
/// because the parser drops a misplaced tag (`<td>` outside a table, a stray `</div>`) or moves
/// text out of a table (foster parenting), which glues the words around it in the compact page
/// only — the two layouts then differ for a browser too, and the case says nothing about
/// layout. (Generating tags freely, four cases in five were such; the test then ran out of
/// proptest's 1,024 global rejects on some seeds.)
fn layout_parts() -> impl Strategy<Value = Vec<String>> {
    let leaf = prop_oneof![
        inline_run(),
        inline_run().prop_map(|r| wrap("<p>", r, "</p>")),
        inline_run().prop_map(|r| wrap("<h1>", r, "</h1>")),
    ];
    leaf.prop_recursive(3, 48, 4, |inner| {
        let kids = proptest::collection::vec(inner, 1..4).prop_map(|v| v.concat());
        prop_oneof![
            kids.clone()
                .prop_map(|k| wrap("<div class=a>", k, "</div>")),
            proptest::collection::vec(kids.clone(), 1..4).prop_map(|items| {
                let items = items
                    .into_iter()
                    .flat_map(|i| wrap("<li>", i, "</li>"))
                    .collect();
                wrap("<ul>", items, "</ul>")
            }),
            proptest::collection::vec(kids, 1..4).prop_map(|cells| {
                let cells = cells
                    .into_iter()
                    .flat_map(|c| wrap("<td>", c, "</td>"))
                    .collect();
                wrap("<table>", wrap("<tr>", cells, "</tr>"), "</table>")
            }),
        ]
    })
}

/// Block-level tags of [`layout_parts`], around which inserted white space is insignificant.
fn is_block_tag(p: &str) -> bool {
    p.starts_with('<') && !p.starts_with("<a") && !p.contains("<br")
}

fn check_page(p: &Page) -> Result<(), TestCaseError> {
    let n = p.text().len();
    let spans = &p.lexed().spans;
    let mut at = 0u32;
    for s in spans {
        prop_assert_eq!(s.start, at);
        prop_assert!(s.end > s.start);
        at = s.end;
    }
    prop_assert_eq!(at as usize, n);
    let mut at = 0u32;
    for l in &p.lines().lines {
        prop_assert_eq!(l.start, at);
        prop_assert!(l.end > l.start);
        at = l.end;
    }
    prop_assert_eq!(at as usize, n);
    // The reading view is the rendered page, line for line, every char placed in the text.
    let reading = p.reading_lines();
    let joined: Vec<&str> = reading.iter().map(|l| l.text.as_str()).collect();
    prop_assert_eq!(
        joined.join("\n"),
        p.render(&cescope::selection::Selection::from_range(0..n))
    );
    for l in &reading {
        prop_assert_eq!(l.starts.len(), l.text.chars().count());
        prop_assert!(l
            .starts
            .iter()
            .all(|&b| b < n && p.text().is_char_boundary(b)));
    }
    for e in registry() {
        let x = e.run(p, &Params::defaults(e.params()));
        for r in x.selection.ranges() {
            prop_assert!(r.end <= n);
            prop_assert!(p.text().is_char_boundary(r.start) && p.text().is_char_boundary(r.end));
        }
        let _ = p.render(&x.selection);
        // Every trace item fits the page: one value per unit, marks inside, positions in the
        // text (whatever the algorithm and its units).
        if let Err(err) = x.trace.validate(p) {
            prop_assert!(false, "{}: {}", e.name(), err);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        if let Ok(p) = Page::from_bytes("fuzz", bytes, &DecodeOptions::default()) {
            check_page(&p)?;
        }
    }

    #[test]
    fn html_like_input_never_panics(parts in proptest::collection::vec(fragment(), 0..80)) {
        let html: String = parts.concat();
        // The fragments include NUL: a page of little else is refused as binary data, a clear
        // error (`Error::Binary`); any other outcome is a page that must hold the invariants.
        match Page::from_bytes("fuzz", html.into_bytes(), &DecodeOptions::default()) {
            Ok(p) => check_page(&p)?,
            Err(e) => prop_assert!(matches!(e, cescope::error::Error::Binary { .. }), "{}", e),
        }
    }

    /// Layout invariance (DESIGN.md: "a minified one-line page and its pretty-printed twin give
    /// (nearly) the same extraction"): inserting newlines and indentation around tags changes
    /// neither the virtual lines' counts nor any registered extractor's extract. White space is
    /// inserted only around block-level tags, where HTML ignores it (around inline tags such as
    /// `<a>` it would separate words, as in a browser), in well-formed pages ([`layout_parts`]); a
    /// case where it changes the page's words anyway is discarded (none in 600 generated).
    #[test]
    fn whitespace_layout_does_not_change_extraction(parts in proptest::collection::vec(layout_parts(), 1..6).prop_map(|v| v.concat())) {
        let compact: String = parts.concat();
        let spaced: String = parts
            .iter()
            .map(|p| if is_block_tag(p) { format!("\n  {p}\n") } else { p.clone() })
            .collect();
        let a = Page::from_text("a", compact);
        let b = Page::from_text("b", spaced);
        // A tag the parser drops in its place (`<td>` outside a table, a stray `</li>`) is no
        // block boundary: white space around it separates words a browser shows glued
        // (`…دنیا<td>سلام…`), so the two pages have different text and nothing is compared.
        // Both the lines' text (plain) and the DOM's text nodes (where the parser merges the
        // text around a dropped tag into one node) must have the same words.
        let all_words = |p: &Page| {
            let plain = cescope::extractors::find("plain").unwrap();
            cescope::metrics::words(&p.render(&plain.run(p, &Params::defaults(plain.params())).selection))
        };
        // Words per text node: a node that merged the text around a dropped tag differs.
        let dom_words = |p: &Page| {
            let dom = p.dom();
            dom.text_nodes()
                .map(|(id, _)| cescope::metrics::words(dom.node_text(id).unwrap_or_default()))
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
        };
        prop_assume!(all_words(&a) == all_words(&b) && dom_words(&a) == dom_words(&b));
        let key = |p: &Page| p.lines().lines.iter().map(|l| (l.length, l.content, l.rtl, l.ascii)).collect::<Vec<_>>();
        prop_assert_eq!(key(&a), key(&b));
        // cescope's own algorithms only: a reference extractor (`text_stage`) is its crate's
        // behaviour as is, and both crates' outputs change with white space between block tags
        // (trafilatura: `<a>a link</a></p>سلام دنیا` keeps the trailing text only when compact).
        for e in registry().iter().filter(|e| e.capabilities().text_stage.is_none()) {
            let params = Params::defaults(e.params());
            let xa = a.render(&e.run(&a, &params).selection);
            let xb = b.render(&e.run(&b, &params).selection);
            prop_assert_eq!(xa, xb, "{} depends on the source layout", e.name());
        }
    }
}
