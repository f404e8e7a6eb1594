//! Tests of the DANA family: explain, headline bounds, the formulas.

use super::*;
use crate::extract::candidates::{candidate_table, CandidateRow};
use crate::extract::{unfolded, unfolding};

/// Step mode: the explanation of a line in a joined (non-seed) region says only what is
/// known at each step of DANAg's phases.
#[test]
fn explain_grows_with_the_phases() {
    let nav: String = (0..6)
        .map(|i| format!("<div><a href=\"/section/number/{i}\">s</a></div>\n"))
        .collect();
    let html = format!(
        "<body>\n<p>{}</p>\n{nav}<p>{}</p>\n</body>",
        "Long article text with many words. ".repeat(8),
        "A shorter closing paragraph of the article."
    );
    let page = Page::from_text("t", html);
    let e = DanaFamily::danag();
    let x = e.run(&page, &Params::defaults(e.params()));
    let closing = page
        .lines()
        .lines
        .iter()
        .position(|l| page.text()[l.range()].contains("shorter closing"))
        .unwrap();
    let at = Location::Line(closing);
    let say = |step: Option<usize>| e.explain(&page, &x, at, step.map(Step::phase)).join("; ");
    let names: Vec<&str> = e.phases().iter().map(|p| p.name.as_ref()).collect();
    let step = |name: &str| Some(names.iter().position(|n| *n == name).unwrap());
    let s = say(step("preprocessing"));
    assert!(
        s.contains("characters of content and code") && !s.contains("T1"),
        "{s}"
    );
    let s = say(step("T1 / T2"));
    // T1 of the closing line: its 43 characters of text (spaces included).
    assert!(
        s.contains("T1 (content chars) = 43") && !s.contains("diff"),
        "{s}"
    );
    let s = say(step("smoothing"));
    assert!(s.contains("diff = ") && !s.contains("region"), "{s}");
    let s = say(step("regions"));
    assert!(s.contains("in region r2") && !s.contains("seed"), "{s}");
    let s = say(step("seed"));
    assert!(
        s.contains("the seed region is r1") && !s.contains("gap") && !s.contains("selected"),
        "{s}"
    );
    // The seed's own lines name it without Algorithm 1's verdict before the gap expansion.
    let seed_line = x.trace.marks("seed").unwrap().spans[0].start;
    let on_seed = e
        .explain(
            &page,
            &x,
            Location::Line(seed_line),
            step("seed").map(Step::phase),
        )
        .join("; ");
    assert!(
        on_seed.contains("is the seed region") && !on_seed.contains("selected"),
        "{on_seed}"
    );
    let s = say(step("gap expansion"));
    assert!(s.contains("<= gap 20") && s.contains("selected"), "{s}");
    // Played region by region: with only the seed revealed, r2 is not reached yet; with
    // both, it joins.
    let gap = step("gap expansion").unwrap();
    let unfolded = |k: usize| {
        e.explain(
            &page,
            &x,
            at,
            Some(Step {
                phase: gap,
                unfolded: Some(k),
            }),
        )
        .join("; ")
    };
    let s = unfolded(1);
    assert!(
        s.contains("r2 is not reached yet") && !s.contains("selected"),
        "{s}"
    );
    assert_eq!(unfolded(2), say(step("gap expansion")));
    assert_eq!(say(None), say(step("extraction")));
    assert_eq!(e.explain(&page, &x, at, None).join("; "), say(None));
}

#[test]
fn formula_4_2_by_hand() {
    // T1 = [0, 10, 50, 40, 0], T2 = [30, 5, 10, 0, 20]
    // d = T1 - T2 = [-30, 5, 40, 40, -20]
    // diff_0 = 0 + -30 + 5 = -25; diff_1 = -30 + 5 + 40 = 15; diff_2 = 5 + 40 + 40 = 85
    // diff_3 = 40 + 40 - 20 = 60; diff_4 = 40 - 20 + 0 = 20
    let t1 = [0, 10, 50, 40, 0];
    let t2 = [30, 5, 10, 0, 20];
    assert_eq!(smooth(&t1, &t2, true), vec![-25, 15, 85, 60, 20]);
    assert_eq!(smooth(&t1, &t2, false), vec![-30, 5, 40, 40, -20]);
    assert_eq!(smooth(&[], &[], true), Vec::<i64>::new());
    assert_eq!(smooth(&[7], &[2], true), vec![5]);
}

#[test]
fn regions_formula_4_3() {
    let diff = [1, 2, 0, -3, 4, 0, 5];
    assert_eq!(
        regions(&diff),
        vec![
            Region { x: 0, y: 1 },
            Region { x: 4, y: 4 },
            Region { x: 6, y: 6 }
        ]
    );
    assert!(regions(&[0, -1]).is_empty());
}

#[test]
fn algorithm_1_gap_boundary() {
    // r0 = [0, 2], r1 = [10, 12], r2 = [20, 25]
    let rs = [
        Region { x: 0, y: 2 },
        Region { x: 10, y: 12 },
        Region { x: 20, y: 25 },
    ];
    // d(r0, r1) = 10 - 2 + 1 = 9; d(r1, r2) = 20 - 12 + 1 = 9
    assert_eq!(distance(rs[0], rs[1]), 9);
    // distance = gap joins
    assert_eq!(expand(&rs, 1, 9), 0..3);
    // distance = gap + 1 does not
    assert_eq!(expand(&rs, 1, 8), 1..2);
    // growth stops at the first distance over gap
    let rs2 = [
        Region { x: 0, y: 0 },
        Region { x: 30, y: 30 },
        Region { x: 33, y: 40 },
    ];
    assert_eq!(expand(&rs2, 2, 5), 1..3);
}

#[test]
fn seed_is_region_with_most_chars() {
    let rs = [Region { x: 0, y: 0 }, Region { x: 2, y: 3 }];
    let t1 = [100, 0, 60, 60];
    assert_eq!(seed_region(&rs, &t1), Some(1));
    assert_eq!(seed_region(&[], &t1), None);
}

#[test]
fn rtl_runs_join_words() {
    let s = "خبر مهم (news) امروز";
    let runs = rtl_runs(s);
    assert_eq!(runs.len(), 2);
    assert_eq!(&s[runs[0].clone()], "خبر مهم");
    assert_eq!(&s[runs[1].clone()], "امروز");
}

fn article_page() -> String {
    let menu: String = (0..30)
        .map(|i| {
            format!("<li><a href=\"/section/{i}/index.html\" class=\"nav-link\">Sec {i}</a></li>\n")
        })
        .collect();
    let paras: String = (0..8)
        .map(|i| format!("<p>Paragraph {i} of the story tells at length what happened in the town when the river rose overnight and people had to leave their homes.</p>\n"))
        .collect();
    format!("<html><head><title>T</title></head><body><ul>{menu}</ul><div class=\"article\"><h1>Flood</h1>{paras}</div><ul>{menu}</ul></body></html>")
}

#[test]
fn danag_finds_article_not_menu() {
    let page = Page::from_text("t", article_page());
    for e in [DanaFamily::danag(), DanaFamily::addanag()] {
        let x = e.run(&page, &Params::defaults(e.params()));
        let text = page.render(&x.selection);
        assert!(text.contains("Paragraph 0 of the story"), "{}", e.name());
        assert!(text.contains("Paragraph 7 of the story"), "{}", e.name());
        assert!(!text.contains("Sec 3"), "{}: {text}", e.name());
        assert!(x.trace.series("diff").is_some());
        assert_eq!(x.trace.marks("seed").unwrap().spans.len(), 1);
    }
}

#[test]
fn r2l_keeps_only_rtl_characters() {
    let menu: String = (0..20)
        .map(|i| format!("<li><a href=\"/news/category/{i}\">Link {i}</a></li>"))
        .collect();
    let paras: String = (0..6)
        .map(|_| "<p>این یک متن طولانی فارسی است که محتوای اصلی صفحه را تشکیل می‌دهد و باید استخراج شود (BBC).</p>".to_string())
        .collect();
    let page = Page::from_text(
        "fa",
        format!("<body><ul>{menu}</ul><div>{paras}</div><ul>{menu}</ul></body>"),
    );
    let e = DanaFamily::r2l();
    let x = e.run(&page, &Params::defaults(e.params()));
    let text = page.render(&x.selection);
    assert!(text.contains("این یک متن طولانی"));
    assert!(!text.contains("BBC") && !text.contains("Link"));
    let e = DanaFamily::dana();
    let x = e.run(&page, &Params::defaults(e.params()));
    let text = page.render(&x.selection);
    assert!(text.contains("BBC") && !text.contains("Link 3"));
}

#[test]
fn explain_says_why() {
    let page = Page::from_text("t", article_page());
    let e = DanaFamily::danag();
    let x = e.run(&page, &Params::defaults(e.params()));
    let sel = &x.trace.marks("selected").unwrap().spans;
    let seed = x.trace.marks("seed").unwrap().spans[0].clone();
    let inside = e.explain(&page, &x, Location::Line(seed.start), None);
    assert!(
        inside.iter().any(|l| l.contains("seed region")),
        "{inside:?}"
    );
    let first_sel = sel[0].start;
    assert!(e
        .explain(&page, &x, Location::Line(first_sel), None)
        .iter()
        .any(|l| l.contains("selected")));
    let outside = e.explain(&page, &x, Location::Line(0), None);
    assert!(
        outside.iter().any(|l| l.contains("not selected")),
        "{outside:?}"
    );
    assert!(outside[0].starts_with("line 1: T1 (content chars) = "));
    assert_eq!(e.phases().len(), 7);
    // A byte location explains its virtual line.
    let b = page.lines().lines[seed.start].start as usize;
    assert_eq!(
        e.explain(&page, &x, Location::Byte(b), None),
        e.explain(&page, &x, Location::Line(seed.start), None)
    );
    x.trace.validate(&page).unwrap();
}

#[test]
fn headline_bound_cuts_at_the_article_subtree() {
    let paras: String = (0..8)
        .map(|i| format!("<p>Paragraph {i} of the story tells at length what happened in the town when the river rose overnight and people had to leave.</p>\n"))
        .collect();
    let html = format!(
        "<html><head><title>Flood closes the old bridge | Gazette</title></head><body>\
         <div class=article><h1>Flood closes the old bridge</h1>\n{paras}</div>\n\
         <div class=footer><p>Footer notes about the newspaper, its owners, its printing press and its long history in the valley since 1850.</p></div></body></html>"
    );
    let page = Page::from_text("t", html);
    let e = DanaFamily::danag();
    let run = |bound: &'static str| {
        let mut p = Params::defaults(e.params());
        p.set(&BOUND_SPEC, ParamValue::choice(bound)).unwrap();
        let x = e.run(&page, &p);
        x.trace.validate(&page).unwrap();
        (page.render(&x.selection), x)
    };
    let (free, x) = run("none");
    assert!(
        free.contains("Footer notes"),
        "the gap reaches the footer: {free}"
    );
    assert!(x.trace.marks("bounds").unwrap().spans.is_empty());
    for bound in ["headline", "headline+gap"] {
        let (bounded, x) = run(bound);
        assert!(bounded.contains("Paragraph 0 of") && bounded.contains("Paragraph 7 of"));
        assert!(!bounded.contains("Footer notes"), "{bound}: {bounded}");
        assert!(
            !bounded.contains("Flood closes"),
            "{bound}: the headline is the upper bound"
        );
        let b = &x.trace.marks("bounds").unwrap().spans;
        assert_eq!(b.len(), 1);
        let sel = &x.trace.marks("selected").unwrap().spans;
        assert!(sel
            .iter()
            .all(|r| b[0].start <= r.start && r.end <= b[0].end));
        // Explain gives the bounded verdict, not Algorithm 1's chain from the seed.
        let line_of = |needle: &str| {
            page.lines()
                .lines
                .iter()
                .position(|l| page.text()[l.range()].contains(needle))
                .unwrap()
        };
        let inside = e
            .explain(&page, &x, Location::Line(line_of("Paragraph 7 of")), None)
            .join("; ");
        // (The paragraphs form the seed region, which says so.)
        assert!(inside.ends_with("-> selected"), "{bound}: {inside}");
        let outside = e
            .explain(&page, &x, Location::Line(line_of("Footer notes")), None)
            .join("; ");
        assert!(
            outside.contains("outside the headline bounds") && outside.ends_with("-> not selected"),
            "{bound}: {outside}"
        );
    }
    // Without a title there is no headline: the bound changes nothing.
    let page = Page::from_text("t", article_page().replace("<title>T</title>", ""));
    let seed = Region {
        x: 0,
        y: page.lines().len() - 1,
    };
    assert_eq!(headline_bounds(&page, seed), None);
}

#[test]
fn empty_page() {
    let page = Page::from_text("e", "");
    for e in crate::algorithms::all() {
        let x = e.run(&page, &Params::defaults(e.params()));
        assert!(x.selection.is_empty());
    }
}

/// DANAg's gap expansion unfolds the selected regions from the seed outwards.
#[test]
fn the_gap_expansion_unfolds() {
    let dana = DanaFamily::danag();
    let names: Vec<&str> = dana.phases().iter().map(|p| p.name.as_ref()).collect();
    let gap = names.iter().position(|n| *n == "gap expansion").unwrap();
    assert_eq!(
        dana.capabilities()
            .unfolding
            .and_then(|u| u.unfolds(gap))
            .map(|k| k.name()),
        Some("selected")
    );
    assert_eq!(dana.unfolds(0), None);
}

/// `unfolded` keeps the first k spans of the unfolding marks in the reveal order (the
/// seed's first), everything else as it was; outside an unfolding phase it changes nothing.
#[test]
fn unfolded_keeps_the_spans_revealed_so_far() {
    let page = Page::from_text(
        "teaching.html",
        include_str!("../../../sample-pages/teaching.html"),
    );
    let e = DanaFamily::danag();
    let x = e.run(&page, &Params::defaults(e.params()));
    let gap = e
        .phases()
        .iter()
        .position(|p| p.name == "gap expansion")
        .unwrap();
    let (key, order) = unfolding(&e, &x, gap).unwrap();
    assert_eq!((key, order), ("selected", vec![0, 1]));
    let one = unfolded(&e, &x, gap, 1);
    assert_eq!(one.trace.marks("selected").unwrap().spans, vec![8..14]);
    assert_eq!(one.trace.series, x.trace.series);
    assert_eq!(one.selection, x.selection);
    assert_eq!(unfolded(&e, &x, gap, 5), x);
    assert_eq!(unfolded(&e, &x, 0, 1), x, "phase 0 does not unfold");
    assert!(unfolding(&e, &x, 0).is_none());
}

/// The teaching page's two regions (sample-pages/teaching.html, worked by hand in
/// tests/sample_pages.rs): r1 = lines 9–14 with T1 = 11 + 36 = 47, r2 = lines 18–20 with
/// T1 = 37; three lines between them; r1 is the seed, both are selected at gap 20, r2 is
/// not at gap 4.
#[test]
fn danag_regions_of_the_teaching_page() {
    let page = Page::from_text(
        "teaching.html",
        include_str!("../../../sample-pages/teaching.html"),
    );
    let e = DanaFamily::danag();
    let mut params = Params::defaults(e.params());
    let x = e.run(&page, &params);
    let t = candidate_table(&e, &page, &x, None).unwrap();
    assert_eq!(t.unit, Unit::VirtualLine);
    assert_eq!(t.rows.len(), 2);
    let (r1, r2) = (&t.rows[0], &t.rows[1]);
    assert_eq!((r1.span.clone(), r2.span.clone()), (8..14, 17..20));
    let t1 = |r: &CandidateRow| r.sums.iter().find(|s| s.0.starts_with("T1")).unwrap().1;
    assert_eq!((t1(r1), t1(r2)), (47.0, 37.0));
    assert_eq!(
        (r1.before, r1.after, r2.before, r2.after),
        (None, Some(3), Some(3), None)
    );
    assert!(r1.seed && !r2.seed && r1.selected && r2.selected);
    assert!(r1.why.contains("seed region"), "{}", r1.why);
    assert!(r2.why.contains("<= gap 20"), "{}", r2.why);
    assert!(page.text()[r1.bytes.clone().unwrap()].starts_with("\n<h1>"));
    params.set_str(e.params(), "gap=4").unwrap();
    let x = e.run(&page, &params);
    let t = candidate_table(&e, &page, &x, None).unwrap();
    assert!(!t.rows[1].selected);
    assert!(t.rows[1].why.contains("> gap 4"), "{}", t.rows[1].why);
}

/// In step mode the table shows what the phases so far computed: no rows before the
/// regions, no seed before the seed phase, no selection before the gap expansion, which
/// selects region by region; no sums of series not computed yet.
#[test]
fn table_in_step_mode_reveals_phase_by_phase() {
    let page = Page::from_text(
        "teaching.html",
        include_str!("../../../sample-pages/teaching.html"),
    );
    let e = DanaFamily::danag();
    let x = e.run(&page, &Params::defaults(e.params()));
    let phase = |name: &str| e.phases().iter().position(|p| p.name == name).unwrap();
    let at = |name: &str, unfolded: Option<usize>| {
        candidate_table(
            &e,
            &page,
            &x,
            Some(Step {
                phase: phase(name),
                unfolded,
            }),
        )
    };
    assert!(at("smoothing", None).is_none(), "no regions yet");
    let t = at("regions", None).unwrap();
    assert_eq!(t.rows.len(), 2);
    assert!(t.rows.iter().all(|r| !r.seed && !r.selected));
    let t = at("seed", None).unwrap();
    assert!(t.rows[0].seed && !t.rows[0].selected && !t.rows[1].selected);
    let t = at("gap expansion", Some(1)).unwrap();
    assert!(t.rows[0].selected && !t.rows[1].selected);
    assert!(
        t.rows[1].why.contains("not reached yet"),
        "{}",
        t.rows[1].why
    );
    let t = at("gap expansion", Some(2)).unwrap();
    assert!(t.rows[0].selected && t.rows[1].selected);
    let t = at("T1 / T2", None);
    assert!(t.is_none());
    let sums: Vec<String> = at("regions", None).unwrap().rows[0]
        .sums
        .iter()
        .map(|s| s.0.clone())
        .collect();
    assert!(sums.iter().any(|s| s.starts_with("T1")), "{sums:?}");
}
