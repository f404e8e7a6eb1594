use super::*;
use crate::extract::trace::Location;
use crate::extract::Algorithm;

/// The toy page of the hand computation: an article paragraph, a one-entry menu, a script.
const TOY: &str = "<p>Apple pie</p><ul><li>Home</li></ul><script>var x = 1;</script>";

fn gold_of(page: &Page, needle: &str) -> Selection {
    let a = page.text().find(needle).expect("needle in page");
    page.normalize(&Selection::from_range(a..a + needle.len()))
}

#[test]
fn tokens_are_tags_stems_and_numbers_with_their_parent_tags() {
    let p = Page::from_text("t.html", TOY);
    let toks = tokens(&p);
    let t: Vec<(&str, &str)> = toks
        .iter()
        .map(|t| (t.name.as_str(), t.parent.as_str()))
        .collect();
    assert_eq!(
        t,
        [
            ("<p>", "body"),
            ("appl", "p"),
            ("pie", "p"),
            ("</p>", "body"),
            ("<ul>", "body"),
            ("<li>", "ul"),
            ("home", "li"),
            ("</li>", "ul"),
            ("</ul>", "body"),
        ],
        "script and style tags and text removed, words Porter2-stemmed"
    );
    let p = Page::from_text("n.html", "<P CLASS=x>In 2009 we ran &amp; 3rd</P>");
    let names: Vec<String> = tokens(&p).into_iter().map(|t| t.name).collect();
    assert_eq!(names, ["<p>", "in", "1", "we", "ran", "3rd", "</p>"]);
    // Labels: words by the gold, tags inside the gold's extent only.
    let p = Page::from_text("l.html", "<div><p>a b</p><p>c</p></div><p>d</p>");
    let toks = tokens(&p);
    let gold = gold_of(&p, "a b</p><p>c");
    let l: Vec<(&str, bool)> = toks
        .iter()
        .map(|t| t.name.as_str())
        .zip(labels(&toks, &gold))
        .collect();
    assert_eq!(
        l,
        [
            ("<div>", false),
            ("<p>", false),
            ("a", true),
            ("b", true),
            ("</p>", true),
            ("<p>", true),
            ("c", true),
            ("</p>", false),
            ("</div>", false),
            ("<p>", false),
            ("d", false),
            ("</p>", false),
        ]
    );
}

/// Naive Bayes by hand on the toy page. Tokens and labels (content = 1): `<p>` 0, appl 1,
/// pie 1, `</p>` 0, `<ul>` 0, `<li>` 0, home 0, `</li>` 0, `</ul>` 0; parents body, p, p,
/// body, body, ul, li, ul, body; 9 distinct trigrams, 4 distinct parents.
///
/// Trained on the page twice: N1 = 4, N0 = 14. For `appl` (trigram `appl pie </p>` [0, 2],
/// parent `p` [0, 4]): odds = (5/20 ÷ 15/20) · ((2+1)/(4+9) ÷ 1/(14+9)) · ((4+1)/(4+4) ÷
/// 1/(14+4)) = 1/3 · 69/13 · 90/8 = 776.25/39, p = 776.25/815.25.
///
/// Trained once, every trigram is seen once and dropped (MIN_COUNT 2), as is the parent `li`:
/// for `home`, odds = (3/11 ÷ 8/11) · (1/(2+9) ÷ 1/(7+9)) · (1/(2+4) ÷ 1/(7+4)) = 3/8 · 16/11 ·
/// 11/6 = 1, p = 0.5.
#[test]
fn naive_bayes_posterior_by_hand() {
    let p = Page::from_text("t.html", TOY);
    let gold = gold_of(&p, "Apple pie");
    let once = MssCounts::from_page(&p, &gold);
    assert_eq!(once.tokens, [7, 2]);
    assert_eq!(once.trigrams.len(), 9);
    assert_eq!(once.trigrams["appl pie </p>"], [0, 1]);
    assert_eq!(once.trigrams["</ul> $ $"], [1, 0]);
    assert_eq!(once.parents["body"], [4, 0]);
    assert_eq!(once.parents["p"], [0, 2]);
    let mut twice = once.clone();
    twice.merge(&once);
    assert_eq!(twice.tokens, [14, 4]);
    assert_eq!(twice.pages, 2);

    let m = MssModel::from_counts(&twice);
    assert_eq!((m.trigram_vocabulary, m.parent_vocabulary), (9, 4));
    let probs = m.probabilities(&p);
    assert_eq!(probs.len(), 9);
    assert_eq!(&p.text()[probs[1].0.clone()], "Apple");
    let odds: f64 = (5.0 / 15.0) * ((3.0 / 13.0) / (1.0 / 23.0)) * ((5.0 / 8.0) / (1.0 / 18.0));
    assert!((odds - 776.25 / 39.0).abs() < 1e-12);
    assert!(
        (probs[1].1 - 776.25 / 815.25).abs() < 1e-12,
        "{}",
        probs[1].1
    );
    // home: trigram `<li> home </li>` [2, 0], parent li [2, 0].
    let odds: f64 = (5.0 / 15.0) * ((1.0 / 13.0) / (3.0 / 23.0)) * ((1.0 / 8.0) / (3.0 / 18.0));
    assert!((probs[6].1 - odds / (1.0 + odds)).abs() < 1e-12);

    let m1 = MssModel::from_counts(&once);
    assert!(m1.trigrams.is_empty(), "trigrams seen once are dropped");
    assert_eq!(
        m1.parents.keys().collect::<Vec<_>>(),
        ["body", "p", "ul"],
        "li seen once is dropped"
    );
    assert_eq!(m1.trigram_vocabulary, 9);
    let home = m1.probabilities(&p)[6].1;
    assert!((home - 0.5).abs() < 1e-12, "{home}");
}

/// A page of the toy site's template: a menu, an article, a footer.
fn site_page(title: &str, paragraphs: &[&str]) -> String {
    let mut h = String::from("<html><head><title>Site</title></head><body>\n<div id=nav><ul>\n");
    for (i, m) in ["Home", "News", "Sport", "Weather", "About", "Contact"]
        .iter()
        .enumerate()
    {
        h.push_str(&format!("<li><a href=/{i}>{m}</a></li>\n"));
    }
    h.push_str("</ul></div>\n<div id=article><h1>");
    h.push_str(title);
    h.push_str("</h1>\n");
    for p in paragraphs {
        h.push_str(&format!("<p>{p}</p>\n"));
    }
    h.push_str("</div>\n<div id=footer><p>Copyright 2024 Example Ltd</p>\n<a href=/privacy>Privacy policy</a> <a href=/terms>Terms</a></div>\n</body></html>");
    h
}

#[test]
fn mss_trained_on_two_pages_extracts_the_article_of_a_third() {
    let a = Page::from_text(
        "a.html",
        site_page(
            "Harbour reopens after storm",
            &[
                "The harbour reopened on Monday after the storm damaged two piers and a crane.",
                "Engineers worked through the weekend, and the first ferry left at noon with passengers.",
                "Officials said the repairs will continue for another month while traffic returns.",
            ],
        ),
    );
    let b = Page::from_text(
        "b.html",
        site_page(
            "Library extends opening hours",
            &[
                "The city library will stay open until nine in the evening from next week onwards.",
                "Readers asked for longer hours in a survey, and the council agreed to fund more staff.",
                "A new reading room for children opens in the spring with a small cafe beside it.",
            ],
        ),
    );
    let c = Page::from_text(
        "c.html",
        site_page(
            "Market adds evening stalls",
            &[
                "Traders at the old market will open evening stalls on Fridays during the summer.",
                "The first night drew a crowd of several hundred people and a brass band played.",
            ],
        ),
    );
    // Trained on two pages of the site (features seen once are dropped, MIN_COUNT): the
    // template's menu and footer repeat, the articles' words do not.
    let article = |p: &Page| {
        let art = p.text().find("<h1>").unwrap() + 4;
        let end = p.text().find("</div>\n<div id=footer>").unwrap();
        p.normalize(&Selection::from_range(art..end))
    };
    let mut counts = MssCounts::from_page(&a, &article(&a));
    counts.merge(&MssCounts::from_page(&c, &article(&c)));
    let model = Arc::new(MssModel::from_counts(&counts));
    let e = Mss::new(model);
    assert_eq!(e.info().name, "mss");
    let x = e.run(&b, &Params::default());
    x.trace.validate(&b).unwrap();
    assert!(b.is_normal(&x.selection));
    let text = b.render(&x.selection);
    for w in [
        "Library extends",
        "nine in the evening",
        "small cafe beside it",
    ] {
        assert!(text.contains(w), "{w:?} missing from {text:?}");
    }
    for w in ["Home", "Contact", "Copyright", "Privacy"] {
        assert!(!text.contains(w), "{w:?} selected in {text:?}");
    }
    // The explanation of a line: its tokens' scores and the verdict.
    let line_of = |needle: &str| {
        let at = b.text().find(needle).unwrap();
        Location::Line(b.lines().line_of(at).unwrap())
    };
    let said = e.explain(&b, &x, line_of("Readers asked"), None).join("; ");
    assert!(
        said.contains("tokens scored p − 0.50: Readers +0.")
            && said.contains("in the maximum subsequence (tokens ")
            && said.ends_with("→ selected"),
        "{said}"
    );
    let said = e.explain(&b, &x, line_of("Weather"), None).join("; ");
    assert!(
        said.contains("Weather -") && said.ends_with("→ not selected"),
        "{said}"
    );
    // θ moves the selection: at θ = 0 every score is ≥ 0, the whole page is one subsequence.
    let mut params = Params::default();
    params.set(&THETA_SPEC, ParamValue::Float(0.0)).unwrap();
    let all = b.render(&e.run(&b, &params).selection);
    assert!(all.contains("Home") && all.contains("Terms"), "{all}");
}

/// The model file does not depend on the order pages were merged in (sorted maps).
#[test]
fn model_serialisation_is_deterministic() {
    let a = Page::from_text("a.html", TOY);
    let b = Page::from_text("b.html", "<div><p>Pear tart</p><p>Menu</p></div>");
    let ca = MssCounts::from_page(&a, &gold_of(&a, "Apple pie"));
    let cb = MssCounts::from_page(&b, &gold_of(&b, "Pear tart"));
    let mut ab = ca.clone();
    ab.merge(&cb);
    ab.merge(&cb);
    let mut ba = cb.clone();
    ba.merge(&ca);
    ba.merge(&cb);
    let ja = serde_json::to_string(&MssModel::from_counts(&ab)).unwrap();
    let jb = serde_json::to_string(&MssModel::from_counts(&ba)).unwrap();
    assert_eq!(ja, jb);
    let back: MssModel = serde_json::from_str(&ja).unwrap();
    assert_eq!(back, MssModel::from_counts(&ab));
    // An empty model (no training) scores every token 0.5 and never panics.
    let e = Mss::new(Arc::new(MssModel::default()));
    let x = e.run(&a, &Params::default());
    x.trace.validate(&a).unwrap();
    let x = e.run(&Page::from_text("e.html", ""), &Params::default());
    assert!(x.selection.is_empty());
}
