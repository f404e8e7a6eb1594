use super::*;
use crate::extract::explain::explain_at;

/// `n` distinct words.
fn words(tag: &str, n: usize) -> String {
    (0..n)
        .map(|i| format!("{tag}{i}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Blocks (words W, link density LD) chosen so that the number-of-words tree takes every leaf
/// ([`classify`]'s table): the leaf each should reach, by hand.
fn branch_page() -> (Page, Vec<u8>) {
    let link = |t: &str| format!("<p><a href=/{t}>{t}</a></p>\n");
    let text = |t: &str, n: usize| format!("<p>{}</p>\n", words(t, n));
    let blocks = [
        // prev: empty; LD 1 > 0.333 → 1.
        (link("Home"), 1),
        // prev LD 1 > 0.556; W 45 > 40 → 6.
        (text("long", 45), 6),
        // prev LD 0; W 10 ≤ 16; next W 20 > 15 → 3.
        (text("ten", 10), 3),
        // prev LD 0; W 20 > 16 → 2.
        (text("twenty", 20), 2),
        // W 10 ≤ 16; next W 3 ≤ 15; prev W 20 > 4 → 5.
        (text("again", 10), 5),
        // W 3; next W 3 ≤ 15; prev W 10 > 4 → 5.
        (text("three", 3), 5),
        // W 3; next W 1 (a link) ≤ 15; prev W 3 ≤ 4 → 4.
        (text("few", 3), 4),
        // LD 1 → 1.
        (link("News"), 1),
        // prev LD 1; W 30 ≤ 40; next W 20 > 17 → 8.
        (text("thirty", 30), 8),
        // prev LD 0; W 20 > 16 → 2.
        (text("more", 20), 2),
        // LD 1 → 1.
        (link("About"), 1),
        // prev LD 1; W 5 ≤ 40; next: empty, 0 ≤ 17 → 7.
        (text("tail", 5), 7),
    ];
    let mut html = String::from("<html><body>\n");
    for (b, _) in &blocks {
        html.push_str(b);
    }
    html.push_str("</body></html>");
    (
        Page::from_text("branches.html", html),
        blocks.iter().map(|(_, l)| *l).collect(),
    )
}

#[test]
fn numwords_rules_take_every_branch_of_the_published_tree() {
    let (page, leaves) = branch_page();
    let blocks = page.blocks().blocks();
    assert_eq!(blocks.len(), leaves.len());
    let got: Vec<u8> = (0..blocks.len())
        .map(|k| classify_block(Variant::NumWords, blocks, k).leaf)
        .collect();
    assert_eq!(got, leaves);
    let e = ShallowRules::numwords();
    assert_eq!(e.name(), "numwords_rules");
    let x = e.run(&page, &Params::default());
    x.trace.validate(&page).unwrap();
    assert!(page.is_normal(&x.selection));
    let text = page.render(&x.selection);
    for w in [
        "long0", "ten9", "twenty0", "again0", "three2", "thirty29", "more19",
    ] {
        assert!(text.contains(w), "{w} missing from {text:?}");
    }
    for w in ["Home", "few0", "News", "About", "tail0"] {
        assert!(!text.contains(w), "{w} selected in {text:?}");
    }
    let class = &x.trace.series("class").unwrap().values;
    assert_eq!(class, &[0., 1., 1., 1., 1., 1., 0., 0., 1., 1., 0., 0.]);
    assert_eq!(
        x.trace.marks("content").unwrap().spans,
        vec![1..6, 8..10],
        "runs of content blocks"
    );
    // The explanation gives the path with the block's numbers.
    let said = explain_at(&e, &page, &x, "thirty0");
    assert!(
        said.contains("block 9 of 12 <p>")
            && said.contains(
                "link density 0 ≤ 0.333, prev link density 1 > 0.556, words 30 ≤ 40, next words 20 > 17 → content"
            ),
        "{said}"
    );
    let said = explain_at(&e, &page, &x, "few0");
    assert!(
        said.contains("words 3 ≤ 16, next words 1 ≤ 15, prev words 3 ≤ 4 → boilerplate"),
        "{said}"
    );
}

/// The densitometric tree, leaf by leaf, on hand-made features: one line (ρ = its tokens), a
/// linked block, and an empty neighbour.
#[test]
fn density_rules_take_every_branch_of_the_published_tree() {
    let f = |tokens: u32, linked: u32| Features {
        tokens,
        words: tokens,
        linked_words: linked,
        lines: 1,
        ..Features::default()
    };
    let (empty, linked) = (Features::default(), f(4, 4));
    let leaf = |p: &Features, c: &Features, n: &Features| {
        let r = classify(Variant::Density, p, c, n);
        (r.leaf, r.content)
    };
    assert_eq!(leaf(&empty, &linked, &f(20, 0)), (1, false));
    assert_eq!(leaf(&empty, &f(12, 0), &empty), (2, false));
    assert_eq!(leaf(&empty, &f(12, 0), &f(1, 0)), (3, true));
    assert_eq!(leaf(&empty, &f(5, 0), &f(11, 0)), (4, true));
    assert_eq!(leaf(&f(4, 0), &f(5, 0), &f(10, 0)), (5, false));
    assert_eq!(leaf(&f(5, 0), &f(5, 0), &f(10, 0)), (6, true));
    assert_eq!(leaf(&linked, &f(30, 0), &f(11, 0)), (7, false));
    assert_eq!(leaf(&linked, &f(30, 0), &f(12, 0)), (8, true));
    let r = classify(Variant::Density, &linked, &f(30, 0), &f(12, 0));
    assert_eq!(
        r.tests.join(", "),
        "link density 0 ≤ 0.333, prev link density 1 > 0.556, next text density 12 > 11"
    );
    // On a page: the densitometric extractor runs, validates and names itself.
    let (page, _) = branch_page();
    let e = ShallowRules::density();
    assert_eq!(e.name(), "density_rules");
    let x = e.run(&page, &Params::default());
    x.trace.validate(&page).unwrap();
    assert!(!page.render(&x.selection).contains("Home"));
}
