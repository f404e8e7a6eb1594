use super::*;
use crate::page::units::Units;

/// A blog article with a byline, a caption, a fact box, related links and a comment section
/// (hand-made).
const BLOG: &str = r#"<html><head><title>Bridge | Herald</title></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/n">News</a></li></ul></nav>
<main><article class="post">
<h1>Council approves the bridge</h1>
<p class="byline">By Ana Lopes</p>
<div class="entry-content">
<p>The council approved the new bridge on Tuesday after a long debate about its cost and its look.</p>
<figure><img src="b.jpg"><figcaption>The bridge as the architects drew it.</figcaption></figure>
<p>Work starts in spring and is planned to end in 2027, the mayor said to the press on Tuesday.</p>
<aside class="factbox"><p>The old bridge was built in 1910 and carried horses and carts.</p></aside>
<p>The new bridge will carry trams, bicycles and people, but no cars, the plans say in detail.</p>
</div></article>
<div id="comments"><h3>3 Comments</h3>
<ol class="comment-list">
<li class="comment"><p class="author">Rui</p><p>Finally a bridge for the trams, long overdue in this town.</p></li>
<li class="comment"><p class="author">Eva</p><p>Too expensive for what it is, in my opinion, honestly.</p></li>
<li class="comment"><p class="author">Max</p><p>Will there be a path for walkers too, or only trams?</p></li>
</ol></div></main>
<footer><p>About us</p></footer></body></html>"#;

/// The page, its units (headline: the `<h1>`) and the selection of the blocks whose text
/// starts with one of `starts`.
fn setup(html: &str, starts: &[&str]) -> (Page, Units, Selection) {
    let page = Page::from_text("p.html", html);
    let blocks = page.blocks();
    let h1 = (0..blocks.len())
        .find(|&i| blocks.get(i).within.heading() == Some(1))
        .map(|i| blocks.get(i).extent.clone());
    let units = Units::find(&page, h1);
    let sel = Selection::from_ranges(
        (0..blocks.len())
            .filter(|&i| {
                let t = blocks.text(page.dom(), i);
                starts.iter().any(|s| t.starts_with(s))
            })
            .flat_map(|i| blocks.ranges(i).to_vec()),
    );
    (page, units, sel)
}

fn text(page: &Page, sel: &Selection) -> String {
    page.render(sel)
}

const BODY: &[&str] = &["The council", "Work starts", "The new bridge"];

#[test]
fn every_preset_parses_cites_its_source_and_decides_every_kind() {
    assert!(PRESETS.len() >= 5);
    for (name, _) in PRESETS {
        let g = Guideline::preset(name).unwrap_or_else(|| panic!("preset {name} parses"));
        assert_eq!(&g.name, name);
        assert!(g.source.len() > 100, "{name} cites its source");
        assert!(!g.title.is_empty());
        for k in UnitKind::ALL {
            assert!(g.why(k).is_some(), "{name} gives a reason for {k}");
        }
        assert!(!g.is_identity());
        assert_eq!(g.hash().len(), 64);
    }
    for want in [
        "article",
        "with-comments",
        "l3s-gn1",
        "cleaneval",
        "forum",
        "dragnet",
    ] {
        assert!(Guideline::preset(want).is_some(), "{want}");
    }
}

#[test]
fn article_drops_the_comments_and_with_comments_keeps_them() {
    let (page, units, sel) = setup(BLOG, BODY);
    // The extractor took the body and the comments (a draft that kept too much).
    let with_comments_sel = sel.union(&setup(BLOG, &["Finally", "Too expensive", "Will there"]).2);
    let article = Guideline::preset("article").unwrap();
    let a = article.apply(&page, &with_comments_sel, &units);
    let t = text(&page, &a.selection);
    assert!(t.contains("The council approved"));
    assert!(!t.contains("Finally a bridge"), "{t}");
    assert!(!t.contains("3 Comments"));
    assert!(a.units[&UnitKind::Comments] > 0);
    // with-comments adds the whole comment section to the body alone.
    let wc = Guideline::preset("with-comments").unwrap();
    let b = wc.apply(&page, &sel, &units);
    let t = text(&page, &b.selection);
    for want in [
        "3 Comments",
        "Finally a bridge",
        "Too expensive",
        "Will there",
        "Rui",
    ] {
        assert!(t.contains(want), "{want} in {t}");
    }
    // …and the headline, the byline, the caption and the fact box (its other choices).
    for want in [
        "Council approves",
        "By Ana Lopes",
        "architects drew",
        "built in 1910",
    ] {
        assert!(t.contains(want), "{want} in {t}");
    }
    // Never the menu or the footer.
    assert!(!t.contains("Home") && !t.contains("About us"));
    assert_eq!(b.added.union(&sel), b.selection);
    assert!(b.removed.is_empty());
}

#[test]
fn l3s_keeps_headline_caption_and_box_but_no_comments() {
    let (page, units, sel) = setup(BLOG, BODY);
    let g = Guideline::preset("l3s-gn1").unwrap();
    let t = text(&page, &g.apply(&page, &sel, &units).selection);
    for want in ["Council approves", "architects drew", "built in 1910"] {
        assert!(t.contains(want), "{want} in {t}");
    }
    assert!(!t.contains("Finally"));
}

#[test]
fn article_removes_headline_byline_caption_and_box_inside_a_selection() {
    // An extractor that took the whole article element.
    let (page, units, sel) = setup(
        BLOG,
        &[
            "Council approves",
            "By Ana",
            "The council",
            "The bridge as",
            "Work starts",
            "The old bridge",
            "The new bridge",
        ],
    );
    let g = Guideline::preset("article").unwrap();
    let a = g.apply(&page, &sel, &units);
    let t = text(&page, &a.selection);
    assert_eq!(
        t.split('\n').filter(|l| !l.trim().is_empty()).count(),
        3,
        "only the three paragraphs: {t}"
    );
    for gone in ["Council approves", "By Ana", "architects", "1910"] {
        assert!(!t.contains(gone), "{gone} in {t}");
    }
    assert_eq!(a.selection.union(&a.removed), sel);
}

#[test]
fn extracted_everywhere_changes_nothing() {
    let (page, units, sel) = setup(BLOG, BODY);
    let g = Guideline::parse("name = \"none\"\n", "test").unwrap();
    assert!(g.is_identity());
    let a = g.apply(&page, &sel, &units);
    assert_eq!(a.selection, sel);
    assert!(a.added.is_empty() && a.removed.is_empty());
    // A guideline that decides only a kind the page lacks changes nothing either.
    let g = Guideline::parse("name = \"t\"\n[units]\ntable = \"out\"\n", "test").unwrap();
    assert_eq!(g.apply(&page, &sel, &units).selection, sel);
}

#[test]
fn nothing_is_added_to_an_empty_selection() {
    let (page, units, _) = setup(BLOG, BODY);
    let g = Guideline::preset("with-comments").unwrap();
    let a = g.apply(&page, &Selection::new(), &units);
    assert!(a.selection.is_empty());
}

/// A forum thread (hand-made) of five posts.
fn thread() -> String {
    let mut s = String::from("<html><body><h1>Which design?</h1><div class=\"block-body\">");
    for k in 1..=5 {
        s.push_str(&format!(
            "<article class=\"message\"><div class=\"message-user\">user{k}</div>\
             <div class=\"message-attribution\"><a href=\"#p{k}\">#{k}</a></div>\
             <div class=\"message-body\">Post number {k} says the arch design is better for the river.</div>\
             <div class=\"reactions\">{k} likes</div></article>"
        ));
    }
    s.push_str("</div></body></html>");
    s
}

#[test]
fn forum_posts_all_first_and_their_metadata() {
    let html = thread();
    // The extractor took the first two posts' bodies.
    let (page, units, sel) = setup(&html, &["Post number 1", "Post number 2"]);
    let forum = Guideline::preset("forum").unwrap();
    let t = text(&page, &forum.apply(&page, &sel, &units).selection);
    for k in 1..=5 {
        assert!(t.contains(&format!("Post number {k}")), "post {k} in {t}");
        assert!(!t.contains(&format!("user{k}")), "author {k} out: {t}");
    }
    assert!(!t.contains("likes") && !t.contains('#'), "{t}");
    assert!(t.contains("Which design?"), "the thread's title: {t}");
    // `first`: only the first post stays.
    let first = Guideline::parse("name = \"f\"\n[units]\nposts = \"first\"\n", "t").unwrap();
    let t = text(&page, &first.apply(&page, &sel, &units).selection);
    assert!(t.contains("Post number 1"));
    assert!(!t.contains("Post number 2"), "{t}");
}

#[test]
fn question_and_answers_drops_comments_inside_posts() {
    let mut html = String::from("<html><body><h1>How to build a bridge?</h1><div id=answers>");
    for k in 1..=3 {
        html.push_str(&format!(
            "<div class=\"answer\"><div class=\"post-text\">Answer {k}: use an arch, it spreads the load well over the span.</div>\
             <ul class=\"comments\"><li class=\"comment\">Comment {k} on the answer, short but not too short.</li></ul></div>"
        ));
    }
    html.push_str("</div></body></html>");
    let (page, units, sel) = setup(&html, &["Answer 1", "Comment 1"]);
    let qa = Guideline::parse(
        "name = \"qa\"\n[units]\nposts = \"question-and-answers\"\n",
        "t",
    )
    .unwrap();
    let t = text(&page, &qa.apply(&page, &sel, &units).selection);
    for k in 1..=3 {
        assert!(t.contains(&format!("Answer {k}")), "{t}");
        assert!(!t.contains(&format!("Comment {k}")), "{t}");
    }
}

#[test]
fn bad_files_are_refused_with_the_key_named() {
    let e = Guideline::parse("name = \"x\"\n[units]\nfootnotes = \"in\"\n", "g.toml")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("g.toml: [units] footnotes: no such unit kind"),
        "{e}"
    );
    let e = Guideline::parse("name = \"x\"\n[units]\ncomments = \"maybe\"\n", "g.toml")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("comments = \"maybe\": takes in, out or extracted"),
        "{e}"
    );
    let e = Guideline::parse("name = \"x\"\n[units]\ncaption = \"first\"\n", "g.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("takes in, out or extracted"), "{e}");
    let e = Guideline::parse("name = \"\"\n", "g.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("`name` is empty"), "{e}");
    let e = Guideline::parse("nam = \"x\"\n", "g.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown field"), "{e}");
    let e = Guideline::load("/no/such/guideline.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a preset (article, "), "{e}");
}

#[test]
fn the_hash_follows_the_choices_only() {
    let a = Guideline::parse(
        "name = \"a\"\ntitle = \"one\"\n[units]\ncomments = \"out\"\n",
        "t",
    )
    .unwrap();
    let b = Guideline::parse(
        "name = \"b\"\ntitle = \"two\"\n[units]\ncomments = \"out\"\n[why]\ncomments = \"x\"\n",
        "t",
    )
    .unwrap();
    let c = Guideline::parse("name = \"a\"\n[units]\ncomments = \"in\"\n", "t").unwrap();
    assert_eq!(a.hash(), b.hash());
    assert_ne!(a.hash(), c.hash());
    // `extracted` written out is the same as left out.
    let d = Guideline::parse(
        "name = \"a\"\n[units]\ncomments = \"out\"\ntable = \"extracted\"\n",
        "t",
    )
    .unwrap();
    assert_eq!(a.hash(), d.hash());
    assert_eq!(a.reference().name, "a");
    assert_eq!(a.summary(), "a: comments out");
}

/// Every kind of the article side on one hand-made page: byline, caption, data table, code,
/// a link list inside the text, a fact box, related links, comments with their metadata.
const EVERY_KIND: &str = r#"<html><head><title>Bridge | Herald</title></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/n">News</a></li><li><a href="/s">Sport</a></li></ul></nav>
<main><article class="post">
<h1>Council approves the bridge</h1>
<p class="byline">By Ana Lopes</p>
<div class="entry-content">
<p>The council approved the new bridge on Tuesday after a long debate about its cost and its look.</p>
<figure><img src="b.jpg"><figcaption>The bridge as the architects drew it.</figcaption></figure>
<table><thead><tr><th>Year</th><th>Cost</th></tr></thead><tr><td>2025</td><td>4 M</td></tr></table>
<pre><code>span = 120 m</code></pre>
<ul><li><a href="/a">Earlier story one</a></li><li><a href="/b">Earlier story two</a></li></ul>
<aside class="factbox"><p>The old bridge was built in 1910 and carried horses and carts.</p></aside>
<p>The new bridge will carry trams, bicycles and people, but no cars, the plans say in detail.</p>
</div></article>
<div class="related-posts"><h3>More news</h3><ul><li><a href="/c">Road works begin</a></li><li><a href="/d">New school opens</a></li></ul></div>
<div id="comments"><h3>3 Comments</h3>
<ol class="comment-list">
<li class="comment"><p class="author">Rui</p><p>Finally a bridge for the trams, long overdue in this town.</p></li>
<li class="comment"><p class="author">Eva</p><p>Too expensive for what it is, in my opinion, honestly.</p></li>
<li class="comment"><p class="author">Max</p><p>Will there be a path for walkers too, or only trams?</p></li>
</ol></div></main>
<footer><p>About us</p></footer></body></html>"#;

/// For every preset, on pages with every kind and several base selections: no byte of a
/// kind chosen `out` is left; every unit of a kind chosen `in` that belongs to the content
/// (and is not removed by an `out` kind) is selected, but for its blocks inside a form; with
/// posts `first`, no later post is left; the extractor's other bytes are untouched.
#[test]
fn every_preset_does_what_its_choices_say() {
    let thread_html = thread();
    let pages: Vec<(&str, &[&str])> = vec![
        (EVERY_KIND, BODY),
        (
            EVERY_KIND,
            &[
                "Council",
                "By Ana",
                "The council",
                "Year",
                "Rui",
                "Finally",
                "Road works",
            ],
        ),
        (thread_html.as_str(), &["Post number 1", "Post number 3"]),
        (
            thread_html.as_str(),
            &["user1", "#1", "Post number 1", "1 likes", "Post number 2"],
        ),
    ];
    for (name, _) in PRESETS {
        let g = Guideline::preset(name).unwrap();
        for (html, starts) in &pages {
            let (page, units, sel) = setup(html, starts);
            let blocks = page.blocks();
            let result = g.apply(&page, &sel, &units).selection;
            let scope = content_scope(&page, &sel);
            // A unit around the whole content is never removed: leave it out of the checks.
            let around = |u: &crate::page::units::Unit| {
                scope
                    .as_ref()
                    .is_some_and(|s| page.dom().contains(u.node, s.node))
            };
            let of_kind = |k: UnitKind| {
                units
                    .of_kind(k)
                    .filter(|u| !around(u))
                    .fold(Selection::new(), |s, u| {
                        s.union(&units.selection(blocks, u))
                    })
            };
            let mut removed = Selection::new();
            for k in UnitKind::ALL {
                if g.choice(k) == Choice::Out {
                    removed = removed.union(&of_kind(k));
                }
            }
            for k in UnitKind::ALL {
                let c = g.choice(k);
                let here = of_kind(k);
                if c == Choice::Out {
                    assert!(
                        result.intersection(&here).is_empty(),
                        "{name}: {k} out, left: {:?}",
                        page.render(&result.intersection(&here))
                    );
                }
                if c == Choice::In && !sel.is_empty() {
                    let scope = scope.unwrap();
                    for u in units.of_kind(k) {
                        let belongs = if k == UnitKind::Posts {
                            units.of_kind(UnitKind::Posts).any(|p| {
                                p.group == u.group
                                    && belongs(&page, &scope, p.node, &p.blocks, UnitKind::Posts)
                            })
                        } else {
                            belongs(&page, &scope, u.node, &u.blocks, k)
                        };
                        if !belongs {
                            continue;
                        }
                        let want = Selection::from_ranges(
                            u.blocks
                                .clone()
                                .filter(|&i| !blocks.get(i).within.contains(Within::FORM))
                                .flat_map(|i| blocks.ranges(i).to_vec()),
                        )
                        .difference(&removed);
                        assert_eq!(
                            want.difference(&result),
                            Selection::new(),
                            "{name}: {k} in, missing {:?}",
                            page.render(&want.difference(&result))
                        );
                    }
                }
                if c == Choice::First {
                    for u in units
                        .of_kind(k)
                        .filter(|u| u.post.is_some_and(|(i, _)| i > 0) && !around(u))
                    {
                        let left = result.intersection(&units.selection(blocks, u));
                        assert!(left.is_empty(), "{name}: a later post left");
                    }
                }
            }
            // Outside every unit (but those around the content), the extractor's selection
            // stands.
            let all_units = UnitKind::ALL
                .iter()
                .fold(Selection::new(), |s, &k| s.union(&of_kind(k)));
            assert_eq!(
                result.difference(&all_units),
                sel.difference(&all_units),
                "{name}: bytes outside the units changed"
            );
        }
    }
}

/// A unit around the whole extracted content is the content: `out` does not remove it (a
/// product description inside an `<aside>`).
#[test]
fn a_unit_around_the_content_is_never_removed() {
    let html = "<html><body><h1>Wool runner</h1><nav><a href=/>Shop</a> <a href=/m>Men</a></nav>\
        <aside class=\"details\"><p>The wool runner is a light shoe made of merino wool for every day.</p>\
        <p>It is washable, soft and warm in winter, cool in summer.</p></aside>\
        <div class=\"shipping\"><p>Free shipping on orders over fifty pounds, returns within thirty days, \
        customer service seven days a week by phone, chat or email, and a repair service for every shoe \
        we have ever made, in every size and colour we sell.</p></div></body></html>";
    let (page, units, sel) = setup(html, &["The wool runner", "It is washable"]);
    assert_eq!(units.of_kind(UnitKind::Supplemental).count(), 1);
    let g = Guideline::preset("article").unwrap();
    assert_eq!(g.choice(UnitKind::Supplemental), Choice::Out);
    assert_eq!(g.apply(&page, &sel, &units).selection, sel);
}
