//! The review queue and the annotation flow never lose or invent work (issue 19): the queue
//! holds only unfinished pages, an empty main content and a headline suggestion need the
//! annotator's word, a recovery file is what the review shows and is never deleted by it, and
//! typing inside the review does not end it.

#![cfg(feature = "tui")]

use crate::common;

use std::path::{Path, PathBuf};

use cescope::gold::{self, Gold, GoldStatus, SaveMode};
use cescope::page::Page;
use cescope::selection::Selection;
use cescope::tui::app::App;
use common::tui::{current, keys, message, opts_with_gold, sample, screen};

/// A page with navigation, a headline and two paragraphs.
fn page_html(n: &str) -> String {
    format!(
        "<html><head><title>Story {n} | Herald</title></head><body>\n<ul><li><a href=/>Home</a></li><li><a href=/w>World</a></li></ul>\n<h1>Story {n} makes the news</h1>\n<p>The first paragraph of story {n} tells what happened on Monday in the old town by the river.</p>\n<p>The second paragraph of story {n} says what the council will do about it before the winter.</p>\n<footer>Contact us</footer>\n</body></html>\n"
    )
}

/// A folder `pages/` with one page per name, and an empty gold folder beside it.
fn folder(names: &[&str]) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pages");
    let gold_dir = tmp.path().join("gold");
    std::fs::create_dir(&dir).unwrap();
    std::fs::create_dir(&gold_dir).unwrap();
    for n in names {
        std::fs::write(dir.join(format!("{n}.html")), page_html(n)).unwrap();
    }
    (tmp, dir, gold_dir)
}

/// Writes a gold file for page `n`: main content from the first `<p>` to the end (empty when
/// `empty`), draft or final.
fn write_gold(dir: &Path, gold_dir: &Path, n: &str, draft: bool, empty: bool) {
    let html = page_html(n);
    let page = Page::from_text(format!("{n}.html"), html.clone());
    assert_eq!(
        page.sha256_hex(),
        Page::load(&dir.join(format!("{n}.html")), &Default::default())
            .unwrap()
            .sha256_hex()
    );
    let mut g = Gold::new(&page, "tester");
    if !empty {
        let start = html.find("<p>").unwrap();
        g.set_main_content(&page, Selection::from_range(start..html.len()));
    }
    g.draft = draft;
    gold::save(&gold_dir.join(format!("{n}.json")), &g, SaveMode::New).unwrap();
}

fn load(gold_dir: &Path, n: &str) -> Option<Gold> {
    let p = gold_dir.join(format!("{n}.json"));
    p.is_file().then(|| gold::load(&p).unwrap())
}

/// `V` on a page without gold goes to the first page of the queue (a draft) and never makes
/// the page without gold a review item; `a` there writes nothing for it. Before the fix the
/// page without gold was shown as `review: draft` and `a` saved it as a final gold file with an
/// empty main content.
#[test]
fn review_never_writes_a_page_without_gold() {
    let (_tmp, dir, gold_dir) = folder(&["a", "b", "c"]);
    write_gold(&dir, &gold_dir, "b", true, false);
    let mut app = App::open(&dir, opts_with_gold(&gold_dir)).unwrap();
    assert_eq!(current(&app), "a");
    keys(&mut app, "V");
    assert!(app.review.is_active());
    assert_eq!(current(&app), "b", "the queue holds only b");
    keys(&mut app, "a");
    assert!(!load(&gold_dir, "b").unwrap().draft, "b accepted");
    assert!(load(&gold_dir, "a").is_none(), "a is never written");
    assert!(load(&gold_dir, "c").is_none(), "c is never written");
    assert!(
        message(&app).contains("no further draft"),
        "{}",
        message(&app)
    );
    // Still in review: another `a` is a review key (refused or done), never the next algorithm.
    let active = app.active;
    keys(&mut app, "a");
    assert_eq!(app.active, active);

    // A folder with nothing to review: V says so and does not start a review.
    let (_tmp2, dir2, gold2) = folder(&["x", "y"]);
    let mut app = App::open(&dir2, opts_with_gold(&gold2)).unwrap();
    keys(&mut app, "V");
    assert!(!app.review.is_active());
    assert!(
        message(&app).contains("nothing to review"),
        "{}",
        message(&app)
    );
    assert!(std::fs::read_dir(&gold2).unwrap().next().is_none());
}

/// Accepting an empty main content needs "this page has no main content" (`E`); `a` alone
/// refuses with a message. Before the fix `a` saved the empty draft as final.
#[test]
fn empty_main_content_needs_an_explicit_declaration() {
    let (_tmp, dir, gold_dir) = folder(&["a", "b"]);
    write_gold(&dir, &gold_dir, "a", true, true);
    write_gold(&dir, &gold_dir, "b", true, false);
    let mut app = App::open(&dir, opts_with_gold(&gold_dir)).unwrap();
    keys(&mut app, "V");
    assert_eq!(current(&app), "a");
    keys(&mut app, "a");
    assert!(
        load(&gold_dir, "a").unwrap().draft,
        "refused: still a draft"
    );
    assert!(
        message(&app).contains("main content is empty"),
        "{}",
        message(&app)
    );
    assert_eq!(current(&app), "a", "a refusal does not move on");
    keys(&mut app, "E");
    let a = load(&gold_dir, "a").unwrap();
    assert!(!a.draft && a.main_content.text.is_empty());
    assert!(a.declares_no_main_content(), "{:?}", a.notes);
    assert!(
        gold::check_review(&a).is_empty(),
        "{:?}",
        gold::check_review(&a)
    );
    assert_eq!(current(&app), "b", "E moves on");
    // E on a page with main content refuses.
    keys(&mut app, "E");
    assert!(load(&gold_dir, "b").unwrap().draft);
    assert!(message(&app).contains("not empty"), "{}", message(&app));
}

/// `T` on a page, leave it (`>` twice leaves a recovery file), come back (`<`), `V`, `f`:
/// the review shows the recovery file's work and flags it, and the recovery file stays. Before
/// the fix the recovery file was deleted and replaced by an empty flagged draft.
#[test]
fn review_shows_and_keeps_the_recovery_file() {
    let (_tmp, dir, gold_dir) = folder(&["a", "b"]);
    let mut app = App::open(&dir, opts_with_gold(&gold_dir)).unwrap();
    keys(&mut app, "T");
    let drafted = app.ann.as_ref().unwrap().gold.main_selection();
    assert!(!drafted.is_empty());
    keys(&mut app, ">>");
    assert_eq!(current(&app), "b");
    let recovery = gold::recovery_path(&gold_dir.join("a.json"));
    assert!(
        recovery.is_file(),
        "leaving unsaved work keeps a recovery file"
    );
    keys(&mut app, "<");
    assert_eq!(current(&app), "a");
    keys(&mut app, "V");
    assert!(app.review.is_active());
    assert_eq!(
        current(&app),
        "a",
        "unsaved work puts the page in the queue"
    );
    assert_eq!(
        app.ann.as_ref().unwrap().gold.main_selection(),
        drafted,
        "the review shows the recovery file's content"
    );
    keys(&mut app, "f");
    let a = load(&gold_dir, "a").unwrap();
    assert!(a.draft && a.is_flagged());
    assert_eq!(
        a.main_selection(),
        drafted,
        "the flagged draft holds the work"
    );
    assert!(
        recovery.is_file(),
        "the review never deletes a recovery file"
    );
    assert!(load(&gold_dir, "b").is_none());
}

/// Typing a line number inside the review does not end it, so a review key never falls
/// through to another command; Esc ends it and says so. Before the fix `:5` Enter silently
/// left the review and the next `a` switched the algorithm.
#[test]
fn typing_inside_the_review_does_not_end_it() {
    let (_tmp, dir, gold_dir) = folder(&["a", "b"]);
    write_gold(&dir, &gold_dir, "a", true, false);
    write_gold(&dir, &gold_dir, "b", true, false);
    let mut app = App::open(&dir, opts_with_gold(&gold_dir)).unwrap();
    let active = app.active;
    keys(&mut app, "V:5\n");
    assert!(app.review.is_active(), "still reviewing after :5 Enter");
    assert_eq!(app.source.cursor(), 4);
    keys(&mut app, "a");
    assert_eq!(app.active, active, "a is accept, not the next algorithm");
    assert!(!load(&gold_dir, "a").unwrap().draft);
    assert_eq!(current(&app), "b");
    keys(&mut app, "/council\n");
    assert!(app.review.is_active());
    keys(&mut app, "\u{1b}");
    assert!(!app.review.is_active());
    assert!(message(&app).contains("review ended"), "{}", message(&app));
    keys(&mut app, "a");
    assert_ne!(
        app.active, active,
        "after the review, a is the next algorithm"
    );
    assert!(load(&gold_dir, "b").unwrap().draft);
}

/// The queue as annotators expect it: progress by status, single keys that move on, the
/// page list's status marks, and `F` filtering by status.
#[test]
fn review_progress_statuses_and_filter() {
    let (_tmp, dir, gold_dir) = folder(&["a", "b", "c", "d"]);
    write_gold(&dir, &gold_dir, "a", false, false);
    write_gold(&dir, &gold_dir, "b", true, false);
    write_gold(&dir, &gold_dir, "c", true, false);
    let mut app = App::open(&dir, opts_with_gold(&gold_dir)).unwrap();
    let status = |app: &App, n: &str| {
        let c = app.corpus.as_ref().unwrap();
        c.entries.iter().find(|e| e.id == n).unwrap().status
    };
    assert_eq!(status(&app, "a"), GoldStatus::Final);
    assert_eq!(status(&app, "b"), GoldStatus::Draft);
    assert_eq!(status(&app, "d"), GoldStatus::None);
    keys(&mut app, "V");
    assert_eq!(current(&app), "b");
    assert_eq!(
        app.review_progress(),
        "review 2 / 4 · 1 final · 0 flagged · 2 draft"
    );
    let s = screen(&mut app, 120, 30);
    assert!(
        s.contains("REVIEW 2 / 4 · 1 final · 0 flagged · 2 draft"),
        "{s}"
    );
    // The page list marks final, draft and none apart.
    assert!(
        s.contains("✓  a") && s.contains("✎  b") && s.contains("   d"),
        "{s}"
    );
    keys(&mut app, "f");
    assert_eq!(status(&app, "b"), GoldStatus::Flagged);
    assert_eq!(current(&app), "c");
    assert_eq!(
        app.review_progress(),
        "review 3 / 4 · 1 final · 1 flagged · 1 draft"
    );
    assert!(screen(&mut app, 120, 30).contains("⚑  b"));
    keys(&mut app, "s");
    assert_eq!(
        current(&app),
        "b",
        "skip moves on, wrapping to the flagged page"
    );
    // F filters by status: only the flagged page is listed.
    keys(&mut app, "\u{1b}");
    keys(&mut app, "Fflagged\n");
    let c = app.corpus.as_ref().unwrap();
    let vis: Vec<&str> = c
        .visible()
        .iter()
        .map(|&i| c.entries[i].id.as_str())
        .collect();
    assert_eq!(vis, ["b"]);
}

/// A page annotated for the first time gets TitleFinder's headline as a suggestion: marked as
/// such, not written by a save until confirmed (`Y`); `gold check`'s review warnings name an
/// unconfirmed headline. Before the fix the suggestion was saved as the headline.
#[test]
fn headline_suggestion_is_saved_only_once_confirmed() {
    let gold_dir = tempfile::tempdir().unwrap();
    let page = sample("news-article.html");
    let mut app = App::open(&page, opts_with_gold(gold_dir.path())).unwrap();
    let ann = app.ann.as_ref().unwrap();
    assert!(ann.headline_unconfirmed(), "a suggestion");
    assert!(!ann.dirty, "a suggestion is not an edit");
    let s = screen(&mut app, 140, 32);
    assert!(s.contains("headline? Y confirms"), "{s}");
    keys(&mut app, "TS");
    let saved = gold::load(&gold_dir.path().join("news-article.json")).unwrap();
    assert!(saved.headline.is_none(), "not confirmed: not saved");
    assert!(!saved.main_content.text.is_empty());
    assert!(
        message(&app).contains("suggestion was not saved"),
        "{}",
        message(&app)
    );
    keys(&mut app, "Y");
    assert!(!app.ann.as_ref().unwrap().headline_unconfirmed());
    assert!(app.ann.as_ref().unwrap().dirty, "confirming is an edit");
    keys(&mut app, "S");
    let saved = gold::load(&gold_dir.path().join("news-article.json")).unwrap();
    let h = saved.headline.clone().expect("confirmed: saved");
    assert!(
        h.confirmed && h.text.starts_with("Castlebridge flood barrier"),
        "{h:?}"
    );
    // The save names the gold file's full path.
    let full = std::path::absolute(gold_dir.path().join("news-article.json")).unwrap();
    assert!(
        message(&app).contains(&full.display().to_string()),
        "{}",
        message(&app)
    );

    // An unconfirmed headline in a gold file (gold mark --headline) is a review warning, and
    // the review's `a` refuses it until it is confirmed or left out with a second `a`.
    let mut g = saved.clone();
    g.headline.as_mut().unwrap().confirmed = false;
    g.draft = true;
    let w = gold::check_review(&g);
    assert!(
        w.iter().any(|w| w.contains("headline not confirmed")),
        "{w:?}"
    );
    gold::save(
        &gold_dir.path().join("news-article.json"),
        &g,
        SaveMode::Overwrite,
    )
    .unwrap();
    let mut app = App::open(&page, opts_with_gold(gold_dir.path())).unwrap();
    keys(&mut app, "V");
    assert!(app.review.is_active());
    keys(&mut app, "a");
    assert!(
        message(&app).contains("is a suggestion"),
        "{}",
        message(&app)
    );
    assert!(
        gold::load(&gold_dir.path().join("news-article.json"))
            .unwrap()
            .draft
    );
    keys(&mut app, "Ya");
    let done = gold::load(&gold_dir.path().join("news-article.json")).unwrap();
    assert!(!done.draft && done.headline.is_some_and(|h| h.confirmed));
}

/// A count before a command repeats it, as in vim: `16` ↓ moves 16 lines, `2D` strikes two
/// lines; `0` alone keeps its keymap action (the slider's published default), and a count is
/// shown until its command comes.
#[test]
fn a_count_repeats_movements_and_strikes() {
    let gold_dir = tempfile::tempdir().unwrap();
    let mut app = App::open(
        &sample("news-article.html"),
        opts_with_gold(gold_dir.path()),
    )
    .unwrap();
    // In the reading view every line holds text; T goes to the draft's first line.
    keys(&mut app, "wT");
    let start = app.source.cursor();
    keys(&mut app, "16");
    assert_eq!(app.count, Some(16));
    assert!(screen(&mut app, 120, 32).contains(" 16… "));
    keys(&mut app, "J");
    assert_eq!(app.source.cursor(), start + 16);
    keys(&mut app, "14K");
    assert_eq!(app.source.cursor(), start + 2);
    assert_eq!(app.count, None);
    let line = |app: &App, i: usize| Selection::from_range(app.line_range(i).unwrap());
    let sel = |app: &App| app.ann.as_ref().unwrap().gold.main_selection();
    let c = app.source.cursor();
    assert!(sel(&app).intersects(line(&app, c).ranges()[0].clone()));
    keys(&mut app, "2D");
    assert_eq!(
        app.source.cursor(),
        c + 2,
        "two lines struck, the cursor moved past them"
    );
    for i in [c, c + 1] {
        assert!(
            !sel(&app).intersects(line(&app, i).ranges()[0].clone()),
            "line {i}"
        );
    }
    // H on the cursor line marks the headline (confirmed) and moves on, as i / D do.
    let h = app.source.cursor();
    keys(&mut app, "H");
    assert_eq!(app.source.cursor(), h + 1);
    let ann = app.ann.as_ref().unwrap();
    assert!(!ann.headline_unconfirmed());
    assert!(app
        .line_range(h)
        .unwrap()
        .contains(&ann.gold.headline_range().unwrap().start));
    // 0 alone is the keymap's param_reset: the gap slider back to its default after a change.
    keys(&mut app, "[0");
    assert_eq!(
        app.active_algo().params.get("gap"),
        Some(&cescope::extract::ParamValue::Int(20))
    );
    assert_eq!(app.count, None);
}

/// The review removes the recovery file its own edits wrote once they are saved (a confirmed
/// headline, then `a`), and keeps one from an earlier session; the save's full path stays in
/// the status bar.
#[test]
fn review_cleans_up_only_its_own_recovery_files() {
    let (_tmp, dir, gold_dir) = folder(&["a", "b"]);
    write_gold(&dir, &gold_dir, "a", true, false);
    write_gold(&dir, &gold_dir, "b", true, false);
    let mut app = App::open(&dir, opts_with_gold(&gold_dir)).unwrap();
    keys(&mut app, "V");
    // An edit in the review writes a recovery file; accepting saves it and removes it.
    app.source.set_cursor(0);
    keys(&mut app, "i");
    let rec_a = gold::recovery_path(&gold_dir.join("a.json"));
    assert!(rec_a.is_file());
    keys(&mut app, "a");
    assert!(
        !rec_a.is_file(),
        "this session's recovery file goes with the save"
    );
    let full = std::path::absolute(gold_dir.join("a.json")).unwrap();
    assert!(
        message(&app).contains(&format!("saved {}", full.display())),
        "{}",
        message(&app)
    );
    assert_eq!(current(&app), "b");
}
