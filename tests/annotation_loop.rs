//! The annotation loop (issue 22, item 6): `T` drafts from any extractor, learned models
//! loaded with `--algo MODEL.json` included; the page list and the review queue ordered by a
//! model's uncertainty (`O`: pages whose blocks sit nearest p = 0.5 first, active learning),
//! on a worker thread without touching the annotation in progress; and `cescope train` on a
//! gold folder made in the inspector, whose model then drafts the next page.

#![cfg(feature = "tui")]

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cescope::extract::Params;
use cescope::gold::{self, SaveMode};
use cescope::learn::active::{self, PageUncertainty};
use cescope::learn::{find_method, TrainJob};
use cescope::page::Page;
use cescope::tui::app::{App, AppOptions};
use common::tui::{current, keys, message, opts_with_gold, sample, screen};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Trains `method` on the sample pages and their gold files (made with cescope: `gold mark`,
/// reviewed in the inspector) and writes it as `dir/NAME.json`.
fn model(dir: &Path, method: &str, name: &str) -> PathBuf {
    let job = TrainJob {
        train: vec![Path::new(ROOT).join("sample-pages")],
        test: Vec::new(),
        folds: None,
        seed: 7,
        progress: false,
        ..TrainJob::default()
    };
    let trained = find_method(method).unwrap().train(&job).unwrap();
    let path = dir.join(format!("{name}.json"));
    cescope::learn::model::write(&path, &trained.bytes).unwrap();
    path
}

/// Inspector options with `algo` active, gold files in `gold_dir`.
fn opts(gold_dir: &Path, algo: &Path) -> AppOptions {
    AppOptions {
        algo: algo.to_str().unwrap().to_string(),
        ..opts_with_gold(gold_dir)
    }
}

/// Copies sample pages into `dir/pages` (without `cescope.toml`, so their gold goes to
/// `dir/pages/gold`) and, when `draft`, their project gold files as drafts.
fn pages(dir: &Path, names: &[&str], draft: bool) -> (PathBuf, PathBuf) {
    let pages = dir.join("pages");
    let gold_dir = pages.join("gold");
    std::fs::create_dir_all(&gold_dir).unwrap();
    for n in names {
        std::fs::copy(
            sample(&format!("{n}.html")),
            pages.join(format!("{n}.html")),
        )
        .unwrap();
        if draft {
            let mut g = gold::load(&Path::new(ROOT).join(format!("gold/{n}.json"))).unwrap();
            g.draft = true;
            gold::save(&gold_dir.join(format!("{n}.json")), &g, SaveMode::New).unwrap();
        }
    }
    (pages, gold_dir)
}

/// Polls `app`'s background work until `done` holds (at most 60 s).
fn wait(app: &mut App, done: impl Fn(&App) -> bool) {
    let t = Instant::now();
    while !done(app) {
        app.poll_background();
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "background work never finished"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The page ids of the list in display order.
fn listed(app: &App) -> Vec<String> {
    let c = app.corpus.as_ref().unwrap();
    c.visible()
        .into_iter()
        .map(|i| c.entries[i].id.clone())
        .collect()
}

/// `T` with a model file as the active algorithm (`--algo MODEL.json`), for every learned
/// method: the draft is the model's selection, main content of the article (its text, not its
/// navigation), and the cursor goes to its start.
#[test]
fn t_drafts_from_a_model_file_of_every_learned_method() {
    let dir = tempfile::tempdir().unwrap();
    for method in cescope::learn::method_names() {
        let path = model(dir.path(), method, &format!("m_{method}"));
        let gold_dir = tempfile::tempdir().unwrap();
        let mut app =
            App::open(&sample("news-article.html"), opts(gold_dir.path(), &path)).unwrap();
        assert_eq!(app.active_algo().extractor.name(), format!("m_{method}"));
        keys(&mut app, "T");
        let sel = app.active_algo().result.as_ref().unwrap().selection.clone();
        assert!(!sel.is_empty(), "{method} selects nothing");
        let ann = app.ann.as_ref().unwrap();
        assert_eq!(ann.gold.main_selection(), sel, "{method}");
        assert!(ann.dirty, "{method}");
        assert!(
            ann.gold.main_content.text.contains("riverside town"),
            "{method}: {}",
            ann.gold.main_content.text
        );
        assert!(
            message(&app).contains(&format!("main content taken from m_{method}")),
            "{method}: {}",
            message(&app)
        );
        let first = app.line_range(app.source.cursor()).unwrap();
        assert!(
            sel.intersects(first),
            "{method}: the cursor is on the draft"
        );
        // Saved through the inspector, the draft is a gold file a model trains on.
        keys(&mut app, "S");
        let saved = gold::load(&gold_dir.path().join("news-article.json")).unwrap();
        assert_eq!(saved.main_selection(), sel, "{method}");
    }
}

/// Off the UI thread (as in the terminal), `T` before the model's result is in says so and
/// changes nothing; once it is in, `T` takes it.
#[test]
fn t_waits_for_a_model_running_on_a_worker() {
    let dir = tempfile::tempdir().unwrap();
    let path = model(dir.path(), "shallow", "worker");
    let gold_dir = tempfile::tempdir().unwrap();
    let mut o = opts(gold_dir.path(), &path);
    o.inline_jobs = false;
    let mut app = App::open(&sample("news-article.html"), o).unwrap();
    if app.active_algo().result.is_none() {
        keys(&mut app, "T");
        assert!(message(&app).contains("still running"), "{}", message(&app));
        assert!(!app.ann.as_ref().unwrap().dirty);
    }
    wait(&mut app, |a| a.active_algo().result.is_some());
    keys(&mut app, "T");
    assert!(app.ann.as_ref().unwrap().dirty);
    assert!(app
        .ann
        .as_ref()
        .unwrap()
        .gold
        .main_content
        .text
        .contains("riverside town"));
}

const NAMES: [&str; 6] = [
    "news-article",
    "no-main-content",
    "slashdot-story",
    "teaching",
    "wiki-article",
    "minified-news",
];

/// `O` orders the page list by the model's uncertainty, as the library computes it (nearest
/// 0.5 first; an unreadable page, without a value, at the end), shows each page's value, and
/// `V` then starts at the most uncertain draft and `s` walks the queue in that order. `O`
/// again is page order.
#[test]
fn o_orders_the_list_and_the_review_by_uncertainty() {
    let dir = tempfile::tempdir().unwrap();
    let path = model(dir.path(), "shallow", "loop");
    let (pages, gold_dir) = pages(dir.path(), &NAMES, true);
    // Unreadable (binary), first in page order: it goes to the end.
    std::fs::write(
        pages.join("aaa-broken.html"),
        [0u8, 1, 2, 0, 0xff, 0].repeat(200),
    )
    .unwrap();
    let mut app = App::open(&pages, opts(&gold_dir, &path)).unwrap();
    let page_order = listed(&app);
    assert_eq!(page_order[0], "aaa-broken");

    // The library's values and order.
    let e = cescope::extractors::find(path.to_str().unwrap()).unwrap();
    let params = Params::defaults(e.params());
    let c = app.corpus.as_ref().unwrap();
    let values: Vec<Option<f64>> = c
        .entries
        .iter()
        .map(|en| {
            Page::load(&en.path, &Default::default())
                .ok()
                .and_then(|p| active::page_uncertainty(e.as_ref(), &params, &p).value())
        })
        .collect();
    let want: Vec<String> = active::uncertainty_order(&values)
        .into_iter()
        .map(|i| c.entries[i].id.clone())
        .collect();
    let known: Vec<f64> = values.iter().flatten().copied().collect();
    assert_eq!(known.len(), NAMES.len(), "{values:?}");
    assert!(
        known.windows(2).any(|w| w[0] != w[1]),
        "the pages differ: {known:?}"
    );
    assert_ne!(want, page_order, "the order changes something");
    assert_eq!(want.last().unwrap(), "aaa-broken");

    keys(&mut app, "O");
    assert_eq!(listed(&app), want);
    assert!(message(&app).contains("ordered by uncertainty under loop"));
    assert!(
        message(&app).contains("1 without a probability signal"),
        "{}",
        message(&app)
    );
    let s = screen(&mut app, 160, 40);
    assert!(s.contains("↓ uncertainty · loop"), "{s}");
    let top = values.iter().flatten().copied().fold(0.0, f64::max);
    assert!(s.contains(&format!("{top:.2}")), "{top:.2} listed:\n{s}");
    assert!(s.contains("–"), "the broken page shows no value:\n{s}");

    // The review starts at the most uncertain draft and follows the order.
    keys(&mut app, "V");
    assert!(app.review.is_active());
    assert_eq!(current(&app), want[0]);
    keys(&mut app, "s");
    assert_eq!(current(&app), want[1]);
    keys(&mut app, "\u{1b}");

    // Back to page order.
    keys(&mut app, "O");
    assert_eq!(listed(&app), page_order);
    assert!(app.corpus.as_ref().unwrap().order.is_none());
    assert!(!screen(&mut app, 160, 40).contains("uncertainty"));
}

/// On a worker thread: the list keeps its order until every page has its value, the
/// annotation in progress stays as it is (unsaved, in its recovery file), and the final order
/// is the same as computed inline.
#[test]
fn ordering_on_a_worker_never_touches_the_annotation() {
    let dir = tempfile::tempdir().unwrap();
    let path = model(dir.path(), "shallow", "bg");
    let (pages, gold_dir) = pages(dir.path(), &NAMES, true);
    let mut inline = App::open(&pages, opts(&gold_dir, &path)).unwrap();
    keys(&mut inline, "O");
    let want = listed(&inline);

    let mut o = opts(&gold_dir, &path);
    o.inline_jobs = false;
    let mut app = App::open(&pages, o).unwrap();
    let page_order = listed(&app);
    wait(&mut app, |a| a.active_algo().result.is_some());
    // Unsaved work on the open page: its first line of main content struck (the page opens
    // there).
    keys(&mut app, "D");
    let edited = app.ann.as_ref().unwrap().gold.clone();
    assert!(app.ann.as_ref().unwrap().dirty);
    let open = current(&app);
    keys(&mut app, "O");
    assert!(
        message(&app).contains("computing each page's uncertainty"),
        "{}",
        message(&app)
    );
    if !app.corpus.as_ref().unwrap().order.as_ref().unwrap().ready() {
        assert_eq!(listed(&app), page_order, "no reordering while it fills");
    }
    wait(&mut app, |a| {
        a.corpus.as_ref().unwrap().order.as_ref().unwrap().ready()
    });
    assert_eq!(listed(&app), want);
    assert_eq!(current(&app), open, "still on the same page");
    let ann = app.ann.as_ref().unwrap();
    assert!(ann.dirty);
    assert_eq!(ann.gold.main_selection(), edited.main_selection());
    assert!(gold::recovery_is_newer(&ann.path));
    // `O` while it computes cancels it: page order again.
    keys(&mut app, "OO");
    keys(&mut app, "O");
    assert_eq!(listed(&app), page_order);
}

/// An algorithm without a per-block probability (DANAg) leaves the list as it is and says
/// why; a single page has no list to order.
#[test]
fn without_a_probability_signal_the_order_stays() {
    let dir = tempfile::tempdir().unwrap();
    let (pages, gold_dir) = pages(dir.path(), &NAMES, true);
    let mut app = App::open(&pages, opts_with_gold(&gold_dir)).unwrap();
    let before = listed(&app);
    keys(&mut app, "O");
    assert!(
        message(&app).contains("danag gives no per-block probability"),
        "{}",
        message(&app)
    );
    assert!(app.corpus.as_ref().unwrap().order.is_none());
    assert_eq!(listed(&app), before);
    let mut one = App::open(&sample("teaching.html"), opts_with_gold(&gold_dir)).unwrap();
    keys(&mut one, "O");
    assert!(message(&one).contains("not a corpus"), "{}", message(&one));
}

/// `cescope train --method METHOD --train PAGES --out OUT --threads 1`.
fn train(method: &str, pages: &Path, out: &Path) -> std::process::Output {
    common::run(
        Path::new(ROOT),
        &[
            "train",
            "--method",
            method,
            "--train",
            pages.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--threads",
            "1",
        ],
    )
}

/// The loop end to end: a model trained on the project's gold drafts each page of a fresh
/// folder in the inspector (`T`), the annotator saves (`S`: the inspector's own save path),
/// `cescope train` learns from that gold folder, and its model, loaded with `--algo`, drafts a
/// page's main content (the article's text, not its navigation) — and orders the folder by
/// uncertainty.
#[test]
fn cescope_train_on_a_gold_folder_made_in_the_inspector() {
    let dir = tempfile::tempdir().unwrap();
    let first = model(dir.path(), "shallow", "first");
    let names = [
        "news-article",
        "slashdot-story",
        "wiki-article",
        "minified-news",
    ];
    let (pages, gold_dir) = pages(dir.path(), &names, false);
    for n in names {
        let mut app = App::open(&pages.join(format!("{n}.html")), opts(&gold_dir, &first)).unwrap();
        keys(&mut app, "T");
        keys(&mut app, "S");
        assert!(
            message(&app).starts_with("saved "),
            "{n}: {}",
            message(&app)
        );
    }
    for n in names {
        let g = gold::load(&gold_dir.join(format!("{n}.json"))).unwrap();
        assert!(!g.draft && !g.main_content.text.is_empty(), "{n}");
    }
    let out = dir.path().join("second.json");
    let o = train("shallow", &pages, &out);
    assert!(o.status.success(), "{}", common::stderr(&o));
    assert!(
        common::stderr(&o).contains("shallow trained on 4 pages"),
        "{}",
        common::stderr(&o)
    );
    // The new model drafts a page in the inspector.
    let other = tempfile::tempdir().unwrap();
    let mut app = App::open(&sample("news-article.html"), opts(other.path(), &out)).unwrap();
    assert_eq!(app.active_algo().extractor.name(), "second");
    keys(&mut app, "T");
    let text = app.ann.as_ref().unwrap().gold.main_content.text.clone();
    assert!(text.contains("riverside town"), "{text}");
    assert!(!text.contains("Bitesize"), "no navigation: {text}");
    let project = gold::load(&Path::new(ROOT).join("gold/news-article.json")).unwrap();
    let f1 = cescope::metrics::word_prf(&text, &project.main_content.text).f1;
    assert!(f1 > 0.8, "F1 {f1} against the project's gold");
    // And orders the folder it learned from.
    let mut app = App::open(&pages, opts(&gold_dir, &out)).unwrap();
    keys(&mut app, "O");
    let c = app.corpus.as_ref().unwrap();
    assert!(c.order.as_ref().unwrap().ready());
    assert!(c
        .entries
        .iter()
        .all(|e| matches!(e.uncertainty, Some(PageUncertainty::Value(_)))));
}

/// `cescope train` on a gold folder learns only from reviewed gold: a draft (what `T` made,
/// not yet saved as final) and a flagged file are left out with a note, the finished files
/// train the model; a folder of drafts only has nothing to train on. `cescope eval` scores
/// reviewed gold only too, unless `--drafts`.
#[test]
fn cescope_train_leaves_drafts_and_flagged_gold_out() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["news-article", "slashdot-story", "wiki-article", "teaching"];
    let (pages, gold_dir) = pages(dir.path(), &names, true);
    // Two of the four drafts reviewed (final), one flagged.
    for n in ["news-article", "wiki-article"] {
        let p = gold_dir.join(format!("{n}.json"));
        let mut g = gold::load(&p).unwrap();
        g.draft = false;
        gold::save(&p, &g, SaveMode::Overwrite).unwrap();
    }
    let p = gold_dir.join("teaching.json");
    let mut g = gold::load(&p).unwrap();
    g.notes = format!("{} look again", gold::FLAGGED);
    gold::save(&p, &g, SaveMode::Overwrite).unwrap();
    assert_eq!(gold::GoldStatus::of_file(&p), gold::GoldStatus::Flagged);

    let out = dir.path().join("m.json");
    let o = train("shallow", &pages, &out);
    let err = common::stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("shallow trained on 2 pages"), "{err}");
    assert!(
        err.contains("slashdot-story") && err.contains("still a draft"),
        "{err}"
    );
    assert!(
        err.contains("teaching") && err.contains("still flagged"),
        "{err}"
    );
    // The headline ranker reads the same gold, and says what it left out.
    let o = train("headline", &pages, &dir.path().join("h.json"));
    let err = common::stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("headline trained on 2 pages"), "{err}");
    assert!(
        err.contains("slashdot-story") && err.contains("still a draft"),
        "{err}"
    );

    // `cescope eval` scores reviewed gold only, naming what it left out; `--drafts` scores
    // the drafts and the flagged file too.
    let eval = |extra: &[&str]| {
        let mut args = vec![
            "eval",
            pages.to_str().unwrap(),
            "--algo",
            "lqf",
            "--by",
            "page",
            "--format",
            "csv",
        ];
        args.extend_from_slice(extra);
        let o = common::run(Path::new(ROOT), &args);
        assert!(o.status.success(), "{}", common::stderr(&o));
        let scored: Vec<String> = names
            .iter()
            .filter(|n| common::stdout(&o).contains(&format!(",{n},")))
            .map(|n| n.to_string())
            .collect();
        (scored, common::stderr(&o))
    };
    let (scored, err) = eval(&[]);
    assert_eq!(scored, ["news-article", "wiki-article"], "{err}");
    assert!(
        err.contains("slashdot-story") && err.contains("still a draft"),
        "{err}"
    );
    assert!(err.contains("still flagged"), "{err}");
    let (scored, err) = eval(&["--drafts"]);
    assert_eq!(scored, names, "{err}");

    // Only drafts: refused, nothing written.
    for n in ["news-article", "wiki-article", "teaching"] {
        let p = gold_dir.join(format!("{n}.json"));
        let mut g = gold::load(&p).unwrap();
        g.draft = true;
        g.notes.clear();
        gold::save(&p, &g, SaveMode::Overwrite).unwrap();
    }
    let none = dir.path().join("none.json");
    let o = train("shallow", &pages, &none);
    assert!(!o.status.success());
    assert!(
        common::stderr(&o).contains("still a draft"),
        "{}",
        common::stderr(&o)
    );
    assert!(!none.exists());
}
