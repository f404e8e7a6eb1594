//! Headline finders end to end: `cescope title`, `cescope eval --headline`, `cescope algos`, and
//! (ignored without `../shared/corpus`) the finders on the shared corpora.

use crate::common;

use common::{cescope, stderr, stdout};

/// The title names the site too; the headline is the h1; a sidebar repeats one word.
const PAGE: &str = "<html><head><title>Council approves new bridge | Town Gazette</title>\
    <script>var title = 'Council approves new bridge';</script></head><body>\
    <div class=logo>Town Gazette</div><h1>Council approves new bridge</h1>\
    <p>The council approved the new bridge on Tuesday after a long debate.</p>\
    <aside>Bridge club meets on Friday</aside></body></html>";

fn write(dir: &std::path::Path, name: &str, body: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p
}

#[test]
fn title_ranks_candidates_with_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "p.html", PAGE);
    let out = cescope().arg("title").arg(&f).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text.lines().next().unwrap();
    let cols: Vec<&str> = line.split('\t').collect();
    assert_eq!(cols[2], "Council approves new bridge");
    let (a, b) = cols[1].split_once("..").unwrap();
    let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
    assert_eq!(&PAGE[a..b], "Council approves new bridge");
    assert_eq!(text.lines().count(), 1, "--top defaults to 1");

    let out = cescope()
        .args([
            "title", "--method", "largest", "--top", "5", "--format", "json",
        ])
        .arg(&f)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["method"], "largest");
    assert_eq!(v["candidates"][0]["text"], "Council approves new bridge");
    assert_eq!(v["candidates"].as_array().unwrap().len(), 1);

    let out = cescope()
        .args(["title", "--method", "title"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(stdout(&out).contains("Council approves new bridge | Town Gazette"));

    let out = cescope()
        .args(["title", "--method", "bogus"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("tfidf"), "{}", stderr(&out));
}

/// A forum thread: the `title` is "thread - site name - slogan", the header repeats the site
/// name and slogan, the `h1` is the thread's title. TitleFinder (`tf`) takes the header's site
/// name (the longest text like the title); the shipped ranker takes the `h1`.
const FORUM: &str = "<!DOCTYPE html>\n<html><head><title>Slugs on my lettuce? - Green Fingers Forum - \
    the friendly gardening community</title></head>\n<body>\n<header><div class=\"site-name\">Green \
    Fingers Forum - the friendly gardening community</div>\n<nav><a href=\"/\">Forums</a> <a \
    href=\"/members\">Members</a> <a href=\"/search\">Search</a></nav></header>\n<main>\n<h1 \
    class=\"thread-title\">Slugs on my lettuce?</h1>\n<div class=\"post\"><p>Every night something \
    eats my lettuce down to the stalks. I found slime trails on the path this morning, so I \
    think it is slugs. What do you all use against them?</p></div>\n<div class=\"post\"><p>Beer \
    traps work for me. Sink a jar into the soil near the lettuce and fill it with cheap beer; \
    check it every morning.</p></div>\n<div class=\"post\"><p>Copper tape around the raised bed \
    keeps them out of mine, and I go out with a torch after rain.</p></div>\n</main>\n<footer><p>\
    Green Fingers Forum © 2024</p></footer>\n</body></html>\n";

/// `title --format json` on `f` with `args`: (method, [(text, start, end)]).
fn title_json(f: &std::path::Path, args: &[&str]) -> (String, Vec<(String, usize, usize)>) {
    let out = cescope()
        .arg("title")
        .args(args)
        .args(["--format", "json"])
        .arg(f)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cands = v["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["text"].as_str().unwrap().to_string(),
                c["range"]["start"].as_u64().unwrap() as usize,
                c["range"]["end"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    (v["method"].as_str().unwrap().to_string(), cands)
}

/// `cescope title` without `--method` is the shipped ranker: the same candidates as `--method
/// learned`; TitleFinder stays selectable by name and gives its own answer. On the forum page
/// TitleFinder picks the site name and the shipped ranker the `h1`.
#[test]
fn title_defaults_to_the_shipped_ranker() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "forum.html", FORUM);
    let (method, default) = title_json(&f, &["--top", "5"]);
    assert_eq!(method, cescope::extractors::DEFAULT_HEADLINE);
    assert_eq!(method, "learned");
    let (_, learned) = title_json(&f, &["--top", "5", "--method", "learned"]);
    assert_eq!(default, learned);
    let (tf, tf_found) = title_json(&f, &["--method", "tf"]);
    assert_eq!(tf, "tf");
    assert_eq!(
        tf_found[0].0,
        "Green Fingers Forum - the friendly gardening community"
    );
    let h1 = FORUM.find("<h1").unwrap();
    let (text, a, b) = &default[0];
    assert_eq!(text, "Slugs on my lettuce?");
    assert!(*a > h1 && &FORUM[*a..*b] == text, "the h1's text: {a}..{b}");
    // Text output: the same best candidate as `--method learned`.
    let plain = |args: &[&str]| {
        let out = cescope().arg("title").args(args).arg(&f).output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    assert_eq!(plain(&[]), plain(&["--method", "learned"]));
    assert_ne!(plain(&[]), plain(&["--method", "tf"]));
}

/// `extract --input DIR --headline` without a finder uses the shipped ranker; a named finder
/// is used as named.
#[test]
fn extract_headline_defaults_to_the_shipped_ranker() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "forum.html", FORUM);
    let headline = |args: &[&str]| -> String {
        let out = cescope()
            .arg("extract")
            .args(args)
            .arg("--input")
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let v: serde_json::Value =
            serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
        v["headline"].as_str().unwrap_or_default().to_string()
    };
    let (_, learned) = title_json(&dir.path().join("forum.html"), &["--method", "learned"]);
    assert_eq!(headline(&["--headline"]), learned[0].0);
    let (_, tf) = title_json(&dir.path().join("forum.html"), &["--method", "tf"]);
    assert_eq!(headline(&["--headline", "tf"]), tf[0].0);
    assert_ne!(learned[0].0, tf[0].0);
    // `--headline` before another option takes no value from it.
    let out = cescope()
        .args(["extract", "--headline", "--algo", "bte", "--input"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    assert_eq!(v["algo"], "bte");
    assert_eq!(v["headline"].as_str(), Some(learned[0].0.as_str()));
}

#[test]
fn eval_headline_counts_exact_matches() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("html")).unwrap();
    write(&dir.path().join("html"), "a.html", PAGE);
    write(
        &dir.path().join("html"),
        "b.html",
        "<title>Rain | Site</title><h1>Site</h1><p>Rain</p>",
    );
    write(
        &dir.path().join("html"),
        "c.html",
        "<p>no gold headline</p>",
    );
    write(
        dir.path(),
        "ground-truth.json",
        r#"{"a": {"articleBody": "x", "headline": "Council  approves new bridge", "url": "http://a.org/1"},
            "b": {"articleBody": "x", "headline": "Rain falls", "url": "http://b.org/1"},
            "c": {"articleBody": "x"}}"#,
    );
    let out = cescope()
        .args([
            "eval",
            "--headline",
            "--algo",
            "tf,title",
            "--format",
            "json",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("skipped 1 page(s)"),
        "{}",
        stderr(&out)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let g = &v["groups"][0]["summaries"];
    // tf: a is exact (white space normalised), b gives a wrong headline: A = 1, B = 1, C = 1.
    assert_eq!(
        (g[0]["a"].as_u64(), g[0]["b"].as_u64(), g[0]["c"].as_u64()),
        (Some(1), Some(1), Some(1))
    );
    assert_eq!(g[0]["f1"], 0.5);
    // title: never exact here; A = 0.
    assert_eq!(g[1]["a"], 0);
    let out = cescope()
        .args(["eval", "--headline", "--by", "site"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let t = stdout(&out);
    assert!(t.contains("a.org") && t.contains("macro average"), "{t}");
}

#[test]
fn algos_lists_the_headline_finders() {
    let out = cescope().arg("algos").output().unwrap();
    let t = stdout(&out);
    assert!(
        t.contains("headline finders") && t.contains("Formula 5.2"),
        "{t}"
    );
    let out = cescope()
        .args(["algos", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let heads: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["kind"] == "headline")
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert_eq!(heads, cescope::extractors::headline_names());
    // The shipped ranker is listed after them, as the default.
    assert!(
        t.contains("the shipped headline ranker (--method learned"),
        "{t}"
    );
    let shipped: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["kind"] == "learned headline")
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert_eq!(shipped, [cescope::extractors::LEARNED_HEADLINE]);
}

/// On the shared corpora every finder runs on every page without panicking, and TitleFinder's
/// headline, where it finds one, is text of the page at its range.
#[test]
#[ignore = "needs ../shared/corpus"]
fn finders_on_the_shared_corpora() {
    use cescope::extract::Params;
    use cescope::page::{DecodeOptions, Page};
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");
    for c in ["readability", "wcxb-dev"] {
        let corpus = cescope::corpus::open(&std::path::Path::new(root).join(c)).unwrap();
        for p in corpus.pages.iter().step_by(7) {
            let page = Page::load(&p.path, &DecodeOptions::default()).unwrap();
            for f in cescope::extractors::headlines() {
                let h = f.run(&page, &Params::defaults(f.params()));
                h.trace.validate(&page).unwrap();
                if let Some(b) = h.best() {
                    assert!(page.text().get(b.range.clone()).is_some(), "{} {}", c, p.id);
                }
            }
        }
    }
}

/// The candidate table of the learned headline ranker (`headline::candidates`) on the shared
/// corpora: how often the gold headline is one of the candidates exactly (the ceiling of any
/// ranker over them) against how often TitleFinder's pick among them (`tf_rank` 0) is; prints
/// both per corpus.
#[test]
#[ignore = "needs ../shared/corpus"]
fn headline_candidates_hold_the_gold() {
    use cescope::algorithms::headline::candidates::{candidates, gold_candidate, FEATURES};
    use cescope::page::{DecodeOptions, Page};
    let at = |name: &str| FEATURES.iter().position(|f| *f == name).unwrap();
    let (rank, whole, part) = (at("tf_rank"), at("title_whole"), at("title_part"));
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");
    for c in ["readability", "wcxb-dev"] {
        let corpus = cescope::corpus::open(&std::path::Path::new(root).join(c)).unwrap();
        let (mut pages, mut held, mut in_body, mut tf) = (0, 0, 0, 0);
        for p in &corpus.pages {
            let Some(gold) = p.gold.as_ref().and_then(|g| g.headline.clone()) else {
                continue;
            };
            if cescope::extract::headline::normalize_ws(&gold).is_empty() {
                continue;
            }
            let page = Page::load(&p.path, &DecodeOptions::default()).unwrap();
            let rows = candidates(&page);
            pages += 1;
            if gold_candidate(&rows, &gold).is_some() {
                held += 1;
            }
            let body: Vec<_> = rows
                .into_iter()
                .filter(|r| r.features[whole] + r.features[part] == 0.0)
                .collect();
            if let Some(k) = gold_candidate(&body, &gold) {
                in_body += 1;
                tf += usize::from(body[k].features[rank] == 0.0);
            }
        }
        println!("{c}: {pages} pages with a gold headline; gold among the candidates {held} (in the body {in_body}); TitleFinder's pick {tf}");
        assert!(
            pages > 0 && held >= in_body && in_body >= tf && held > 0,
            "{c}"
        );
    }
}

mod no_panic {
    use cescope::extract::Params;
    use cescope::page::{DecodeOptions, Page};
    use proptest::prelude::*;

    fn fragment() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("<title>".to_string()),
            Just("</title>".to_string()),
            Just("<head>".to_string()),
            Just("<h1>".to_string()),
            Just("</h2>".to_string()),
            Just("<p>".to_string()),
            Just("<div>".to_string()),
            Just("</div>".to_string()),
            Just("<svg><title>".to_string()),
            Just("<script>".to_string()),
            Just("<!--".to_string()),
            Just("&amp;".to_string()),
            Just("'\",:".to_string()),
            Just("İstanbul ".to_string()),
            Just("سلام ".to_string()),
            Just(" ".to_string()),
            "[a-zA-Z ]{1,12}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Every headline finder, with every parameter combination that changes the code path,
        /// and the bounded DANA family run on arbitrary markup without panicking; candidates are
        /// ranked, inside the text, and the traces validate.
        #[test]
        fn finders_never_panic(parts in proptest::collection::vec(fragment(), 0..40)) {
            let html = parts.concat();
            let page = Page::from_bytes("p", html.into_bytes(), &DecodeOptions::default()).unwrap();
            for f in cescope::extractors::headlines() {
                let mut p = Params::defaults(f.params());
                for s in ["fragment=inline", "stop_words=true", "stemming=true"] {
                    let _ = p.set_str(f.params(), s);
                }
                for params in [Params::defaults(f.params()), p] {
                    let h = f.run(&page, &params);
                    prop_assert!(h.trace.validate(&page).is_ok());
                    for c in &h.candidates {
                        prop_assert!(page.text().get(c.range.clone()).is_some());
                    }
                    for w in h.candidates.windows(2) {
                        prop_assert!(w[0].score >= w[1].score);
                    }
                }
            }
            for name in ["r2l", "danag", "addanag"] {
                let e = cescope::extractors::find(name).unwrap();
                for b in ["headline", "headline+gap"] {
                    let mut p = Params::defaults(e.params());
                    p.set_str(e.params(), &format!("bound={b}")).unwrap();
                    let x = e.run(&page, &p);
                    prop_assert!(x.trace.validate(&page).is_ok());
                    prop_assert!(page.is_normal(&x.selection));
                }
            }
        }
    }
}

/// The inspector's `take_headline` key (`Y`) makes the default finder's suggestion (the shipped
/// ranker) the gold headline, undoably.
#[cfg(feature = "tui")]
#[test]
fn inspector_takes_the_suggested_headline() {
    use cescope::tui::app::{App, AppOptions};
    use cescope::tui::keymap::Keymap;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let gold_dir = tempfile::tempdir().unwrap();
    let page =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-pages/news-article.html");
    let opts = AppOptions {
        keymap: Keymap::builtin("default").unwrap(),
        syntax: false,
        inline_jobs: true,
        gold_dir: Some(gold_dir.path().to_path_buf()),
        annotator: "tester".into(),
        ..AppOptions::default()
    };
    let mut app = App::open(&page, opts).unwrap();
    let key = |app: &mut App, c: char| {
        app.handle_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
    };
    let p = cescope::page::Page::load(&page, &Default::default()).unwrap();
    let f = cescope::extractors::find_headline(cescope::extractors::DEFAULT_HEADLINE).unwrap();
    let want = f.run(&p, &cescope::extract::Params::defaults(f.params()));
    let head = |app: &App| {
        app.ann
            .as_ref()
            .unwrap()
            .gold
            .headline
            .as_ref()
            .map(|h| h.text.clone())
    };
    // A first annotation starts with the suggestion.
    assert_eq!(
        head(&app).as_deref(),
        Some(want.best().unwrap().text.as_str())
    );
    // Mark another line as the headline, then Y takes the suggestion back; undo returns to the
    // hand-marked one.
    app.source.set_cursor(
        (0..app.line_count())
            .find(|&i| p.text()[app.line_range(i).unwrap()].trim() == "Most read")
            .expect("the 'Most read' line"),
    );
    key(&mut app, 'H');
    let marked = head(&app);
    assert_ne!(marked.as_deref(), Some(want.best().unwrap().text.as_str()));
    key(&mut app, 'Y');
    assert_eq!(
        head(&app).as_deref(),
        Some(want.best().unwrap().text.as_str())
    );
    key(&mut app, 'u');
    assert_eq!(head(&app), marked);
}

/// The learned headline ranker (`learn::headline`) cross-validated on readability and wcxb-dev
/// pooled (3 folds grouped by site, seed 1), scored per corpus as `cescope eval --headline`
/// scores, next to TitleFinder (`tf`) and the baselines on the same pages; prints the table.
/// Three folds, not the five of docs/headlines.md's table (`cescope train --method headline
/// --folds 5`, the same function): the check is that every page is scored once by a fold that
/// did not train on it, and three folds fit 3 × 2/3 of the pages instead of 5 × 4/5.
#[test]
#[ignore = "needs ../shared/corpus"]
fn learned_headlines_cross_validated() {
    use cescope::eval::run::GroupBy;
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus"));
    let corpora = [root.join("readability"), root.join("wcxb-dev")];
    let peers = cescope::extractors::resolve_headlines("tf,title,largest").unwrap();
    let report = cescope::learn::headline::cross_validate(&corpora, 3, 1, peers).unwrap();
    let table = report.table(GroupBy::Corpus);
    println!("{table}");
    let groups = report.summarize(GroupBy::Corpus);
    assert_eq!(groups.len(), 2);
    let learned = report.finders.len() - 1;
    assert_eq!(report.finders[learned].name, "learned");
    for g in &groups {
        let s = g.summaries[learned];
        // Every page is scored once, by the fold that did not train on it.
        assert_eq!(s.pages, g.summaries[0].pages, "{}", g.label);
        assert!(s.a > 0, "{}: the ranker found no headline", g.label);
    }
}
