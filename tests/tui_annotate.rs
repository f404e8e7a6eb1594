//! Annotating in the inspector: taking a draft, striking and restoring lines, the headline,
//! saving with backups, recovery files and read-only gold, undo to the saved state, the review
//! flow, the headline candidates and the reading view. Snapshots keep their names from
//! `tests/tui.rs` (`tui__…`).

#![cfg(feature = "tui")]

use crate::common;

use cescope::tui::app::{App, View};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use common::tui::{
    cursor_text, enter, keys, line_starting, mouse, opts_with_gold, sample, screen, tui_snapshot,
    type_text,
};

/// Moves the cursor to the first display line whose text contains `needle`.
fn goto_line(app: &mut App, needle: &str) {
    let text = app.doc.as_ref().unwrap().page.text().to_string();
    let i = (0..app.line_count())
        .find(|&i| text[app.line_range(i).unwrap()].contains(needle))
        .unwrap_or_else(|| panic!("no line contains {needle:?}"));
    app.source.set_cursor(i);
    app.source.set_top(i.saturating_sub(3));
}

#[test]
fn annotate_take_remove_headline_save_reopen() {
    let gold_dir = tempfile::tempdir().unwrap();
    let page = sample("news-article.html");
    let mut app = App::open(&page, opts_with_gold(gold_dir.path())).unwrap();
    // Take DANAg's selection as the draft.
    keys(&mut app, "T");
    let danag = app.active_algo().result.as_ref().unwrap().selection.clone();
    assert_eq!(app.ann.as_ref().unwrap().gold.main_selection(), danag);
    assert!(app.ann.as_ref().unwrap().dirty);
    // Remove one paragraph line, then undo and redo it.
    goto_line(&mut app, "Margaret Ellison, 71");
    let removed = app.line_range(app.source.cursor()).unwrap();
    keys(&mut app, "D");
    let after_remove = app.ann.as_ref().unwrap().gold.main_selection();
    assert!(!after_remove.intersects(removed.clone()));
    keys(&mut app, "u");
    assert_eq!(app.ann.as_ref().unwrap().gold.main_selection(), danag);
    app.handle_key(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL));
    assert_eq!(
        app.ann.as_ref().unwrap().gold.main_selection(),
        after_remove
    );
    // Mark the headline (the <h1> text line).
    goto_line(&mut app, "Castlebridge flood barrier delayed again");
    keys(&mut app, "H");
    let head = app
        .ann
        .as_ref()
        .unwrap()
        .gold
        .headline
        .clone()
        .expect("headline");
    assert!(
        head.text
            .starts_with("Castlebridge flood barrier delayed again"),
        "{head:?}"
    );
    // The recovery file holds the unsaved work.
    let gold_path = gold_dir.path().join("news-article.json");
    assert!(cescope::gold::recovery_path(&gold_path).exists());
    assert!(!gold_path.exists());
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("[+] unsaved"), "{s}");
    tui_snapshot!("annotating", s);
    // Save.
    keys(&mut app, "S");
    assert!(gold_path.exists());
    assert!(!cescope::gold::recovery_path(&gold_path).exists());
    assert!(!app.ann.as_ref().unwrap().dirty);
    let on_disk = cescope::gold::load(&gold_path).unwrap();
    assert_eq!(on_disk.main_selection(), after_remove);
    assert_eq!(on_disk.annotator, "tester");
    assert!(!on_disk.draft);
    assert!(on_disk.main_content.text.contains("long-promised barrier"));
    assert!(!on_disk.main_content.text.contains("Margaret Ellison, 71"));
    assert_eq!(on_disk.headline.as_ref().unwrap().text, head.text);
    let page_obj = cescope::page::Page::load(&page, &Default::default()).unwrap();
    assert!(cescope::gold::check(&on_disk, Some(&page_obj)).is_empty());
    // Reopen: the same state, not dirty; the gold overlay and P/R/F1 come from the file.
    let app2 = App::open(&page, opts_with_gold(gold_dir.path())).unwrap();
    let ann = app2.ann.as_ref().unwrap();
    assert!(!ann.dirty && ann.existed);
    assert_eq!(ann.gold.main_selection(), after_remove);
    assert_eq!(ann.gold.headline_range(), on_disk.headline_range());
    assert!(app2.active_algo().prf.is_some());
}

#[test]
fn second_save_keeps_a_backup_and_quit_asks_first() {
    let gold_dir = tempfile::tempdir().unwrap();
    let page = sample("news-article.html");
    let mut app = App::open(&page, opts_with_gold(gold_dir.path())).unwrap();
    keys(&mut app, "TS");
    let gold_path = gold_dir.path().join("news-article.json");
    let first = std::fs::read_to_string(&gold_path).unwrap();
    // A new session edits the existing file: the first save keeps a backup.
    let mut app = App::open(&page, opts_with_gold(gold_dir.path())).unwrap();
    goto_line(&mut app, "Margaret Ellison, 71");
    keys(&mut app, "D");
    // Quitting with unsaved changes asks first; a second q quits.
    keys(&mut app, "q");
    assert!(!app.quit);
    assert!(app.status.as_ref().unwrap().0.contains("unsaved changes"));
    keys(&mut app, "S");
    let bak = gold_dir.path().join("news-article.json.bak");
    assert_eq!(std::fs::read_to_string(&bak).unwrap(), first);
    keys(&mut app, "q");
    assert!(app.quit);
}

#[test]
fn recovery_is_offered_and_hash_mismatch_is_read_only() {
    let gold_dir = tempfile::tempdir().unwrap();
    let page = sample("news-article.html");
    let mut app = App::open(&page, opts_with_gold(gold_dir.path())).unwrap();
    keys(&mut app, "T");
    drop(app); // "crash" without saving: only the recovery file exists
    let mut app = App::open(&page, opts_with_gold(gold_dir.path())).unwrap();
    assert!(app.ann.as_ref().unwrap().recovery_offered);
    assert!(app.status.as_ref().unwrap().0.contains("recovery"));
    keys(&mut app, "R");
    assert!(!app
        .ann
        .as_ref()
        .unwrap()
        .gold
        .main_content
        .ranges
        .is_empty());
    keys(&mut app, "S");
    // The same gold file against another page opens read-only.
    let other = sample("minified-news.html");
    let gold_path = gold_dir.path().join("news-article.json");
    std::fs::copy(&gold_path, gold_dir.path().join("minified-news.json")).unwrap();
    let mut app = App::open(&other, opts_with_gold(gold_dir.path())).unwrap();
    let ann = app.ann.as_ref().unwrap();
    assert!(ann.read_only.as_ref().unwrap().contains("read-only"));
    keys(&mut app, "T");
    assert!(!app.ann.as_ref().unwrap().dirty, "read-only refuses edits");
    assert!(app.status.as_ref().unwrap().0.contains("read-only"));
    // Malformed JSON: a clear error with line and column, and the file stays untouched.
    let bad = gold_dir.path().join("wiki-article.json");
    std::fs::write(&bad, "{\n  \"schema\": \"cescope-gold\",\n  oops\n}\n").unwrap();
    let app = App::open(
        &sample("wiki-article.html"),
        opts_with_gold(gold_dir.path()),
    )
    .unwrap();
    let msg = &app.status.as_ref().unwrap().0;
    assert!(
        msg.contains("wiki-article.json:3:3"),
        "line and column: {msg}"
    );
    assert_eq!(
        std::fs::read_to_string(&bad).unwrap(),
        "{\n  \"schema\": \"cescope-gold\",\n  oops\n}\n"
    );
}

/// Undoing back to the saved state clears the unsaved mark and removes the recovery file, so
/// reopening offers nothing; edits while another session's recovery file is offered never
/// overwrite it.
#[test]
fn undo_to_the_saved_state_is_not_unsaved() {
    let gold_dir = tempfile::tempdir().unwrap();
    let page = sample("news-article.html");
    let recovery = gold_dir.path().join(".news-article.json.recover");
    let mut app = App::open(&page, opts_with_gold(gold_dir.path())).unwrap();
    keys(&mut app, "TS");
    assert!(!app.ann.as_ref().unwrap().dirty);
    // A change, then undo: back at the saved state.
    app.source.set_cursor(line_starting(&app, "<footer"));
    keys(&mut app, "i");
    assert!(app.ann.as_ref().unwrap().dirty);
    let s = screen(&mut app, 120, 32);
    assert!(s.contains("[+] unsaved"), "{s}");
    keys(&mut app, "u");
    assert!(!app.ann.as_ref().unwrap().dirty, "undo to the saved state");
    let s = screen(&mut app, 120, 32);
    assert!(!s.contains("[+] unsaved"), "{s}");
    drop(app);
    let app = App::open(&page, opts_with_gold(gold_dir.path())).unwrap();
    assert!(
        !app.ann.as_ref().unwrap().recovery_offered,
        "no identical recovery file offered"
    );

    // Another session's unsaved work in the recovery file is kept while it is offered.
    let mut app = App::open(&page, opts_with_gold(gold_dir.path())).unwrap();
    app.source.set_cursor(line_starting(&app, "<footer"));
    keys(&mut app, "i");
    drop(app); // "crash"
    let kept = std::fs::read(&recovery).unwrap();
    let mut app = App::open(&page, opts_with_gold(gold_dir.path())).unwrap();
    assert!(app.ann.as_ref().unwrap().recovery_offered);
    app.source.set_cursor(line_starting(&app, "<footer") + 1);
    keys(&mut app, "i");
    assert!(app.ann.as_ref().unwrap().dirty);
    assert_eq!(
        std::fs::read(&recovery).unwrap(),
        kept,
        "recovery file kept"
    );
    assert!(app.status.as_ref().unwrap().0.contains("not autosaved"));
}

/// Fewer keys from a draft: `T` takes the draft and puts the cursor on its first line; `i` / `D`
/// on the cursor line then move the cursor to the next line (so repeating the key strikes a run
/// of lines), while on a visual range they leave the cursor where it is.
#[test]
fn draft_fixing_keys_move_on() {
    let gold_dir = tempfile::tempdir().unwrap();
    let mut app = App::open(
        &sample("news-article.html"),
        opts_with_gold(gold_dir.path()),
    )
    .unwrap();
    keys(&mut app, "w");
    app.handle_key(KeyEvent::new(KeyCode::End, KeyModifiers::NONE)); // away from the draft
    let end = app.source.cursor();
    keys(&mut app, "T");
    let first = app
        .active_algo()
        .result
        .as_ref()
        .unwrap()
        .selection
        .ranges()[0]
        .start;
    let c = app.source.cursor();
    assert_ne!(c, end);
    assert!(
        app.line_range(c).unwrap().contains(&first),
        "T puts the cursor on the draft's first line"
    );
    let ann_sel = |app: &App| app.ann.as_ref().unwrap().gold.main_selection();
    let line = |app: &App, i: usize| app.line_range(i).unwrap();
    // D on the cursor line: the line leaves the annotation, the cursor moves on.
    keys(&mut app, "D");
    assert_eq!(app.source.cursor(), c + 1);
    assert!(!ann_sel(&app).intersects(line(&app, c)));
    keys(&mut app, "D");
    assert_eq!(app.source.cursor(), c + 2);
    assert!(!ann_sel(&app).intersects(line(&app, c + 1)));
    // i puts a line back and moves on too.
    app.source.set_cursor(c);
    keys(&mut app, "i");
    assert_eq!(app.source.cursor(), c + 1);
    assert!(ann_sel(&app).intersects(line(&app, c)));
    // On a visual range the cursor stays at the range's end.
    keys(&mut app, "v");
    app.source.set_cursor(c + 2);
    keys(&mut app, "D");
    assert_eq!(app.source.cursor(), c + 2);
    assert!(!ann_sel(&app).intersects(line(&app, c + 2)));
    // A key that changes nothing does not move the cursor.
    keys(&mut app, "D");
    assert_eq!(app.source.cursor(), c + 2, "the line was already out");
}

/// The review flow (`V`): draft gold files are visited one after the other; `a` accepts (saved
/// final), `f` flags (a `[flagged]` note, still a draft), `n` adds a typed note, `s` skips, Esc
/// leaves.
#[test]
fn review_drafts_with_single_keys() {
    let tmp = tempfile::tempdir().unwrap();
    // A fixed folder name: the page list's title shows it.
    let dir = tmp.path().join("drafts");
    std::fs::create_dir(&dir).unwrap();
    let gold_dir = tempfile::tempdir().unwrap();
    let names = ["a", "b", "c"];
    for n in names {
        let html = format!(
            "<html><body><h1>Story {n}</h1><p>Text of story {n}, with words.</p></body></html>"
        );
        let path = dir.join(format!("{n}.html"));
        std::fs::write(&path, &html).unwrap();
        let page = cescope::page::Page::from_text(format!("{n}.html"), html.clone());
        let mut g = cescope::gold::Gold::new(&page, "tester");
        let start = html.find("<p>").unwrap();
        g.set_main_content(
            &page,
            cescope::selection::Selection::from_range(start..html.len()),
        );
        g.draft = n != "b"; // b is already final
        cescope::gold::save(
            &gold_dir.path().join(format!("{n}.json")),
            &g,
            cescope::gold::SaveMode::New,
        )
        .unwrap();
    }
    let load = |n: &str| cescope::gold::load(&gold_dir.path().join(format!("{n}.json"))).unwrap();
    let mut app = App::open(&dir, opts_with_gold(gold_dir.path())).unwrap();
    let current = |app: &App| {
        let c = app.corpus.as_ref().unwrap();
        c.entries[c.current].id.clone()
    };
    assert_eq!(current(&app), "a");
    keys(&mut app, "V");
    let s = screen(&mut app, 110, 30);
    assert!(s.contains("REVIEW") && s.contains("a accept"), "{s}");
    tui_snapshot!("review", s);
    // A note, then accept: a is final with the note; the review moves on to c (b is final).
    keys(&mut app, "n");
    type_text(&mut app, "headline checked");
    enter(&mut app);
    keys(&mut app, "a");
    let a = load("a");
    assert!(
        !a.draft && a.notes.contains("headline checked"),
        "{:?}",
        a.notes
    );
    assert_eq!(current(&app), "c");
    // Flag c: still a draft, flagged.
    keys(&mut app, "f");
    let c = load("c");
    assert!(c.draft && c.notes.contains("[flagged]"));
    // Only c is left to review (flagged): skip comes back to it, accept clears the flag.
    keys(&mut app, "s");
    assert_eq!(current(&app), "c");
    keys(&mut app, "a");
    let c = load("c");
    assert!(!c.draft && !c.notes.contains("[flagged]"));
    assert!(screen(&mut app, 110, 30).contains("no further draft or flagged page"));
    keys(&mut app, "\u{1b}");
    assert!(!screen(&mut app, 110, 30).contains("REVIEW"));
    assert!(!load("b").draft);
}

/// The headline candidates panel (`#`): the shipped ranker's candidates merged by text, with
/// score, count, line and tags; Enter jumps to one, `Y` takes the highlighted one as the gold
/// headline; a page annotated for the first time starts with the ranker's suggestion as its
/// headline.
#[test]
fn headline_panel_and_prefilled_suggestion() {
    let gold_dir = tempfile::tempdir().unwrap();
    let mut app = App::open(
        &sample("news-article.html"),
        opts_with_gold(gold_dir.path()),
    )
    .unwrap();
    let head = |app: &App| {
        app.ann
            .as_ref()
            .unwrap()
            .gold
            .headline
            .as_ref()
            .map(|h| h.text.clone())
            .unwrap_or_default()
    };
    assert!(
        head(&app).starts_with("Castlebridge flood barrier delayed again"),
        "pre-filled: {:?}",
        head(&app)
    );
    assert!(
        !app.ann.as_ref().unwrap().dirty,
        "a suggestion is not an edit"
    );
    keys(&mut app, "#");
    let s = screen(&mut app, 120, 32);
    assert!(
        s.contains("headline candidates (learned headline ranker)"),
        "{s}"
    );
    let rows = app.headline_rows();
    assert!(rows.len() >= 2, "{rows:?}");
    tui_snapshot!("headline_panel", s);
    // The second candidate: jump to it, then take it.
    keys(&mut app, "J");
    app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert!(!app.table.is_open());
    assert!(app
        .line_range(app.source.cursor())
        .unwrap()
        .contains(&rows[1].first_occurrence().range.start));
    keys(&mut app, "#J");
    keys(&mut app, "Y");
    assert_eq!(head(&app), rows[1].text, "the highlighted candidate");
    assert!(app.ann.as_ref().unwrap().dirty);
    keys(&mut app, "u");
    assert!(
        head(&app).starts_with("Castlebridge"),
        "undo restores the suggestion"
    );
}

/// A product page (written for this test): four links read "Men's Shoes" (menu, breadcrumb, a
/// related card, the footer); the `h1` names the product.
const PRODUCT: &str =
    "<!DOCTYPE html>\n<html><head><title>Trail Runner 2 - Stride</title></head>\n\
<body>\n<header><a class=\"logo\" href=\"/\">Stride</a>\n<nav><ul class=\"menu\">\n\
<li><a href=\"/men\">Men's Shoes</a></li>\n<li><a href=\"/women\">Women's Shoes</a></li>\n\
<li><a href=\"/sale\">Sale</a></li>\n</ul></nav></header>\n\
<ol class=\"crumbs\"><li><a href=\"/men\">Men's Shoes</a></li><li>Trail Runner 2</li></ol>\n\
<main><div class=\"product\">\n<h1 class=\"product-title\">Trail Runner 2</h1>\n\
<p class=\"price\">£95</p>\n\
<p>A light trail shoe with a grippy sole and a breathable upper, made for long days on rough \
ground.</p>\n</div>\n\
<section class=\"related\"><h2>You may also like</h2>\n\
<div class=\"card\"><a href=\"/men/a\">Men's Shoes</a></div>\n</section></main>\n\
<footer><ul><li><a href=\"/men\">Men's Shoes</a></li><li><a href=\"/about\">About Stride</a></li>\
</ul></footer>\n\
</body></html>\n";

/// The headline panel (`#`) merges candidates with the same text into one row with their
/// count, tags and DOM paths; the highlighted row lists its occurrences; Enter jumps to the
/// first occurrence, `Y` takes the best-ranked one. The panel is the default finder's (the
/// shipped ranker) unless `--headline` names another (TitleFinder stays selectable).
#[test]
fn headline_panel_merges_identical_texts() {
    let dir = tempfile::tempdir().unwrap();
    let page_path = dir.path().join("product.html");
    std::fs::write(&page_path, PRODUCT).unwrap();
    let gold_dir = dir.path().join("gold");
    let mut app = App::open(&page_path, opts_with_gold(&gold_dir)).unwrap();
    let page = app.doc.as_ref().unwrap().page.clone();
    let rows = app.headline_rows();
    // The panel is the shipped ranker's, merged: one row per text.
    let f = cescope::extractors::find_headline(cescope::extractors::DEFAULT_HEADLINE).unwrap();
    let found = f.run(&page, &cescope::extract::Params::defaults(f.params()));
    assert_eq!(
        rows[..],
        cescope::extract::headline::group_candidates(&page, &found, 20)[..]
    );
    assert_eq!(
        rows[0].text,
        found.best().unwrap().text,
        "the suggested row first"
    );
    let mut texts: Vec<&str> = rows.iter().map(|r| r.text.as_str()).collect();
    texts.sort_unstable();
    texts.dedup();
    assert_eq!(texts.len(), rows.len(), "no text twice");
    let k = rows
        .iter()
        .position(|r| r.text == "Men's Shoes")
        .expect("the menu line is a candidate");
    let shoes = &rows[k];
    assert_eq!(shoes.count(), 4);
    let tags: Vec<&str> = shoes.occurrences.iter().map(|o| o.tag.as_str()).collect();
    assert_eq!(tags, ["a"; 4]);
    let paths: Vec<&str> = shoes.occurrences.iter().map(|o| o.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "html > body > header > nav > ul.menu > li > a",
            "html > body > ol.crumbs > li > a",
            "html > body > main > section.related > div.card > a",
            "html > body > footer > ul > li > a",
        ]
    );
    // The first annotation starts with the best row's best occurrence.
    let head = |app: &App| app.ann.as_ref().unwrap().gold.headline.clone();
    assert_eq!(
        head(&app).map(|h| h.text),
        Some(rows[0].text.clone()),
        "pre-filled suggestion"
    );
    // The panel: the merged row with its count and tag; highlighted, its occurrences' paths.
    keys(&mut app, "#");
    keys(&mut app, &"J".repeat(k));
    let s = screen(&mut app, 120, 32);
    assert!(
        s.contains("headline candidates (learned headline ranker)"),
        "{s}"
    );
    let row_line = s
        .lines()
        .find(|l| l.contains("Men's Shoes") && l.contains("  4  "))
        .unwrap_or_else(|| panic!("a merged row with count 4: {s}"));
    assert!(row_line.contains(" a "), "{row_line}");
    assert!(s.contains(&format!("row {}: 4 occurrences", k + 1)), "{s}");
    for p in &paths {
        assert!(s.contains(p), "{p}: {s}");
    }
    tui_snapshot!("headline_panel_merged", s);
    // Enter jumps to the first occurrence (the menu).
    enter(&mut app);
    assert!(!app.table.is_open());
    assert!(app
        .line_range(app.source.cursor())
        .unwrap()
        .contains(&shoes.first_occurrence().range.start));
    // Y on the row takes its best-ranked occurrence.
    keys(&mut app, "#");
    keys(&mut app, &"J".repeat(k));
    keys(&mut app, "Y");
    let h = head(&app).unwrap();
    assert_eq!(h.text, "Men's Shoes");
    let taken = app.ann.as_ref().unwrap().gold.headline_range().unwrap();
    assert_eq!(taken, shoes.best_occurrence().range);
    assert!(app.ann.as_ref().unwrap().dirty);

    // TitleFinder stays selectable: --headline tf.
    let opts = cescope::tui::app::AppOptions {
        headline: "tf".into(),
        ..opts_with_gold(&dir.path().join("gold-tf"))
    };
    let mut app = App::open(&page_path, opts).unwrap();
    let tf = cescope::extractors::find_headline("tf").unwrap();
    let found = tf.run(&page, &cescope::extract::Params::defaults(tf.params()));
    assert_eq!(
        app.headline_rows()[..],
        cescope::extract::headline::group_candidates(&page, &found, 20)[..]
    );
    keys(&mut app, "#");
    let s = screen(&mut app, 120, 32);
    assert!(s.contains("headline candidates (TitleFinder tf)"), "{s}");
}

/// The reading view (`w`): the page's text, one block per line, with the overlays and gold;
/// lines selected there (visual mode) and mouse drags (snapped to whole words) map back to
/// byte ranges of the source.
#[test]
fn reading_view_annotates_on_text() {
    use ratatui::crossterm::event::{MouseButton, MouseEventKind};
    let gold_dir = tempfile::tempdir().unwrap();
    let mut app = App::open(
        &sample("news-article.html"),
        opts_with_gold(gold_dir.path()),
    )
    .unwrap();
    keys(&mut app, "T"); // the draft: DANAg's selection
    keys(&mut app, "w");
    assert_eq!(app.view(), View::Reading);
    keys(&mut app, ")"); // the draft's last line
    let last = cursor_text(&app);
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("reading view"), "{s}");
    // Text as a reader sees it: references decoded, no markup.
    assert!(s.contains("£") || !s.contains("&pound;"), "{s}");
    assert!(!s.contains("<p>"), "{s}");
    // Remove the draft's last line in the reading view.
    let page = app.doc.as_ref().unwrap().page.clone();
    let ann_text = |app: &App| app.ann.as_ref().unwrap().gold.main_content.text.clone();
    let line_text = app.doc.as_ref().unwrap().reading[app.source.cursor()]
        .text
        .clone();
    assert!(ann_text(&app).contains(&line_text), "{line_text:?}");
    keys(&mut app, "vD");
    assert!(
        !ann_text(&app).contains(&line_text),
        "{line_text:?} removed"
    );
    let _ = last;
    // A mouse drag inside a word selects the whole words it touches.
    let _ = screen(&mut app, 110, 32);
    let r = app.rects.clone();
    let row = (app.source.cursor() - app.source.top()) as u16;
    app.handle_mouse(mouse(
        MouseEventKind::Down(MouseButton::Left),
        r.source_text_x + 1,
        r.source.y + row,
    ));
    app.handle_mouse(mouse(
        MouseEventKind::Drag(MouseButton::Left),
        r.source_text_x + 6,
        r.source.y + row,
    ));
    let sel = app
        .ann
        .as_ref()
        .unwrap()
        .char_sel
        .clone()
        .expect("a drag selection");
    let picked = &page.text()[sel.clone()];
    let first_words: Vec<&str> = line_text.split(' ').collect();
    assert!(
        picked.starts_with(first_words[0]),
        "{picked:?} starts at a word start ({line_text:?})"
    );
    let after = page.text()[sel.end..].chars().next().unwrap_or(' ');
    assert!(!after.is_alphanumeric(), "{picked:?} ends at a word end");
    tui_snapshot!("reading_view", screen(&mut app, 110, 32));
    // Back to the source on the same text.
    let byte = app.line_range(app.source.cursor()).unwrap().start;
    keys(&mut app, "w");
    assert_eq!(app.view(), View::Virtual);
    assert!(app.line_range(app.source.cursor()).unwrap().contains(&byte));
}

/// With `--guideline`, every algorithm's draft is finished by it, the status bar names it,
/// `G` says its choices, and a saved gold file records it (name and hash); without one,
/// nothing of this shows.
#[test]
fn a_guideline_finishes_drafts_and_is_saved_with_the_gold() {
    let gold_dir = tempfile::tempdir().unwrap();
    let page = sample("blog-comments.html");
    let guideline = cescope::guideline::Guideline::preset("with-comments").unwrap();
    let hash = guideline.hash();
    let mut opts = opts_with_gold(gold_dir.path());
    opts.algo = "learned".into();
    opts.guideline = Some(std::sync::Arc::new(guideline));
    let mut app = App::open(&page, opts).unwrap();
    let s = screen(&mut app, 160, 40);
    assert!(s.contains("guideline with-comments"), "{s}");
    keys(&mut app, "G");
    let msg = common::tui::message(&app);
    assert!(
        msg.starts_with("guideline with-comments: headline in"),
        "{msg}"
    );
    assert!(msg.contains("comments in"), "{msg}");
    // The draft holds the comments (the learned model alone leaves them out).
    keys(&mut app, "T");
    let text = app.ann.as_ref().unwrap().gold.main_content.text.clone();
    assert!(text.contains("ladybird larva"), "{text}");
    keys(&mut app, "S");
    let on_disk = cescope::gold::load(&gold_dir.path().join("blog-comments.json")).unwrap();
    let g = on_disk.guideline.expect("the guideline is recorded");
    assert_eq!(
        (g.name.as_str(), g.sha256.as_str()),
        ("with-comments", hash.as_str())
    );

    // Without a guideline: no status fact, `G` says so, the draft is the model's own.
    let gold_dir = tempfile::tempdir().unwrap();
    let mut opts = opts_with_gold(gold_dir.path());
    opts.algo = "learned".into();
    let mut app = App::open(&page, opts).unwrap();
    let s = screen(&mut app, 160, 40);
    assert!(!s.contains("guideline"), "{s}");
    keys(&mut app, "G");
    assert!(common::tui::message(&app).starts_with("no guideline"));
    keys(&mut app, "T");
    let text = app.ann.as_ref().unwrap().gold.main_content.text.clone();
    assert!(!text.contains("ladybird larva"), "{text}");
}

/// Issue 30, item 6: `S` with an empty main content asks (y / n) instead of writing an empty
/// gold file silently: `n` (or Esc) writes nothing; `y` declares that the page has no main
/// content (the `[no main content]` note) and saves, and the file passes `gold check`.
#[test]
fn saving_an_empty_main_content_asks_first() {
    use cescope::gold::{self, NO_MAIN_CONTENT};
    let gold_dir = tempfile::tempdir().unwrap();
    let page = sample("news-article.html");
    let gold_path = gold_dir.path().join("news-article.json");
    let mut app = App::open(&page, opts_with_gold(gold_dir.path())).unwrap();
    assert!(app
        .ann
        .as_ref()
        .unwrap()
        .gold
        .main_content
        .ranges
        .is_empty());
    keys(&mut app, "S");
    assert!(!gold_path.exists(), "asked, not written");
    let s = screen(&mut app, 140, 32);
    assert!(s.contains("SAVE EMPTY? y / n"), "{s}");
    assert!(s.contains("the main content is empty"), "{s}");
    // `n` goes back without writing.
    keys(&mut app, "n");
    assert!(!gold_path.exists(), "n: not written");
    assert!(common::tui::message(&app).starts_with("not saved"));
    // Esc, and any other key, too (the key does nothing else: `q` does not quit).
    keys(&mut app, "S\u{1b}");
    assert!(!gold_path.exists(), "Esc: not written");
    keys(&mut app, "Sq");
    assert!(!gold_path.exists() && !app.quit, "q: not written, not quit");
    assert_eq!(app.mode, cescope::tui::app::Mode::Normal);
    // `y`: declared and saved.
    keys(&mut app, "Sy");
    assert!(gold_path.exists(), "{}", common::tui::message(&app));
    assert!(common::tui::message(&app).contains("saved "));
    let saved = gold::load(&gold_path).unwrap();
    assert!(saved.main_content.ranges.is_empty());
    assert!(saved.notes.contains(NO_MAIN_CONTENT), "{:?}", saved.notes);
    assert!(!saved.draft);
    let page_obj = cescope::page::Page::load(&page, &Default::default()).unwrap();
    assert!(gold::check(&saved, Some(&page_obj)).is_empty());
    assert!(
        gold::check_review(&saved).is_empty(),
        "{:?}",
        gold::check_review(&saved)
    );
    // Declared: a second `S` saves without asking.
    keys(&mut app, "S");
    assert_eq!(app.mode, cescope::tui::app::Mode::Normal);
}

/// Issue 30, item 6: `E` declares that the page has no main content — the main content is
/// emptied and `[no main content]` noted in one edit, `u` takes both back — and `S` then saves
/// without asking; marking main content again drops the note.
#[test]
fn e_declares_no_main_content_in_one_undo_step() {
    use cescope::gold::{self, NO_MAIN_CONTENT};
    let gold_dir = tempfile::tempdir().unwrap();
    let page = sample("news-article.html");
    let gold_path = gold_dir.path().join("news-article.json");
    let mut app = App::open(&page, opts_with_gold(gold_dir.path())).unwrap();
    keys(&mut app, "T");
    let draft = app.ann.as_ref().unwrap().gold.main_selection();
    assert!(!draft.is_empty());
    keys(&mut app, "E");
    let g = &app.ann.as_ref().unwrap().gold;
    assert!(g.main_content.ranges.is_empty());
    assert!(g.declares_no_main_content(), "{:?}", g.notes);
    assert!(
        common::tui::message(&app).starts_with("declared: this page has no main content"),
        "{}",
        common::tui::message(&app)
    );
    // One undo step takes back both.
    keys(&mut app, "u");
    let g = &app.ann.as_ref().unwrap().gold;
    assert_eq!(g.main_selection(), draft);
    assert!(!g.declares_no_main_content());
    keys(&mut app, "E");
    keys(&mut app, "E");
    assert!(common::tui::message(&app).contains("already declared"));
    // Declared: `S` saves at once.
    keys(&mut app, "S");
    assert!(common::tui::message(&app).starts_with("saved "));
    let saved = gold::load(&gold_path).unwrap();
    assert!(saved.main_content.ranges.is_empty() && saved.notes.contains(NO_MAIN_CONTENT));
    // Marking a line of text as main content again: the page has main content after all.
    goto_line(&mut app, "Margaret Ellison, 71");
    keys(&mut app, "i");
    let g = &app.ann.as_ref().unwrap().gold;
    assert!(!g.main_content.ranges.is_empty());
    assert!(!g.declares_no_main_content(), "{:?}", g.notes);
}
