//! Rendering snapshots of the inspector (ratatui `TestBackend` + insta), driven by scripted key
//! events through the same `App::handle_key` the terminal loop uses. Highlighting is off and
//! extractions run inline so every frame is deterministic.

#![cfg(feature = "tui")]

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cescope::tui::app::{App, AppOptions, View};
use cescope::tui::keymap::Keymap;
use cescope::tui::ui;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Color;
use ratatui::Terminal;

use common::tui::{keys, sample};

/// Deterministic options: no syntect, inline runs, and a gold directory that does not exist
/// (so the project's own `gold/` files do not change the screens; annotation tests pass their
/// own temporary gold directory).
fn opts() -> AppOptions {
    AppOptions {
        keymap: Keymap::builtin("default").unwrap(),
        syntax: false,
        inline_jobs: true,
        gold_dir: Some(std::env::temp_dir().join("cescope-tests-no-gold-here")),
        ..AppOptions::default()
    }
}

/// The active algorithm's `gap` value.
fn gap(app: &App) -> i64 {
    match app.active_algo().params.get("gap") {
        Some(cescope::algorithms::ParamValue::Int(v)) => *v,
        v => panic!("gap is {v:?}"),
    }
}

fn render(app: &mut App, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::draw(f, app)).unwrap();
    // Draw twice: the first frame learns the view height, the second uses it.
    t.draw(|f| ui::draw(f, app)).unwrap();
    t
}

fn screen(app: &mut App, w: u16, h: u16) -> String {
    render(app, w, h).backend().to_string()
}

#[test]
fn main_screen() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    keys(&mut app, "}");
    insta::assert_snapshot!("main_screen", screen(&mut app, 110, 32));
}

#[test]
fn gap_slider_moves_and_reruns() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    let before = app.active_algo().result.clone().unwrap();
    // Focus is on `gap` (20): ten steps down, then five single steps: gap 5.
    keys(&mut app, "[-----");
    assert_eq!(gap(&app), 5);
    let after = app.active_algo().result.clone().unwrap();
    assert!(
        after.selection.len_bytes() * 2 < before.selection.len_bytes(),
        "a small gap stops at the subheading between the article's paragraphs"
    );
    keys(&mut app, "}");
    insta::assert_snapshot!("gap_5", screen(&mut app, 110, 32));
    keys(&mut app, "0");
    assert_eq!(gap(&app), 20);
    assert_eq!(
        app.active_algo().result.as_ref().unwrap().selection,
        before.selection
    );
}

#[test]
fn two_overlays() {
    let mut app = App::open(&sample("wiki-article.html"), opts()).unwrap();
    // danag is active; overlaid (`o`), it keeps its column when addanag becomes active.
    keys(&mut app, "oa");
    assert_eq!(app.active_algo().extractor.name(), "addanag");
    assert_eq!(app.gutter_columns().len(), 2);
    keys(&mut app, "(");
    let t = render(&mut app, 110, 32);
    // Both gutter columns carry marks somewhere on screen, in their own colours.
    let buf = t.backend().buffer();
    let cols: Vec<Color> = (0..32)
        .flat_map(|y| (1..3).map(move |x| (x, y)))
        .filter(|&(x, y)| buf[(x, y)].symbol() == "▌")
        .map(|(x, y)| buf[(x, y)].fg)
        .collect();
    assert!(cols.contains(&app.algos[3].color), "addanag's column");
    insta::assert_snapshot!("two_overlays", t.backend().to_string());
}

#[test]
fn explain_and_step_mode() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    keys(&mut app, "}");
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("selected"), "{s}");
    insta::assert_snapshot!("explain", s);
    keys(&mut app, "s...");
    assert_eq!(app.step, Some(3));
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("step 4/7 — regions"), "{s}");
    insta::assert_snapshot!("step_regions", s);
}

#[test]
fn help_overlay() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    keys(&mut app, "?");
    let s = screen(&mut app, 180, 60);
    for row in app.opts.keymap.help_rows() {
        assert!(
            s.contains(row.description),
            "help lacks {:?}",
            row.description
        );
    }
    insta::assert_snapshot!("help", s);
    // On a small screen End / Home scroll the help (they used to close it).
    assert_eq!(app.help_scroll(), Some(0));
    screen(&mut app, 100, 24);
    app.handle_key(KeyEvent::new(KeyCode::End, KeyModifiers::NONE));
    screen(&mut app, 100, 24);
    assert!(app.help_scroll() > Some(0), "End scrolls the help");
    app.handle_key(KeyEvent::new(KeyCode::Home, KeyModifiers::NONE));
    assert_eq!(app.help_scroll(), Some(0), "Home scrolls it back");
    // Any other action closes help.
    keys(&mut app, "\u{1b}");
    assert_eq!(app.help_scroll(), None);
}

fn wait_for_encodings(app: &mut App) {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(10) {
        app.poll_background();
        if app
            .corpus
            .as_ref()
            .unwrap()
            .entries
            .iter()
            .all(|e| e.encoding.is_some())
        {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the corpus scan did not finish");
}

#[test]
fn corpus_mode() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-pages");
    let mut app = App::open(&dir, opts()).unwrap();
    wait_for_encodings(&mut app);
    assert_eq!(app.corpus.as_ref().unwrap().entries.len(), 10);
    keys(&mut app, ">>");
    assert_eq!(app.corpus.as_ref().unwrap().current, 2);
    insta::assert_snapshot!("corpus", screen(&mut app, 120, 32));
    // Filter by name, then the next page stays within the filter.
    keys(&mut app, "Flegacy\n");
    let c = app.corpus.as_ref().unwrap();
    assert_eq!(c.visible().len(), 2);
    assert!(c.entries[c.current].id.starts_with("legacy"));
    insta::assert_snapshot!("corpus_filtered", screen(&mut app, 120, 32));
}

#[test]
fn small_terminal_gets_a_message() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    let s = screen(&mut app, 60, 20);
    assert!(s.contains("at least 80x24"), "{s}");
}

#[test]
fn raw_lines_toggle_keeps_position() {
    let mut app = App::open(&sample("minified-news.html"), opts()).unwrap();
    keys(&mut app, "}");
    let v = app.cursor;
    assert!(v > 0);
    keys(&mut app, "r");
    assert_eq!(app.view(), View::Raw);
    assert_eq!(
        app.line_count(),
        1,
        "the minified page is one physical line"
    );
    assert_eq!(app.cursor, 0);
    keys(&mut app, "r");
    assert_eq!(app.cursor, v, "back on the same virtual line");
    let _ = screen(&mut app, 100, 30);
    // Round trips on a page whose raw lines hold several virtual lines never drift.
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    let _ = screen(&mut app, 100, 30);
    // The headline text: the second virtual line of the raw line `<h1 …>text</h1>`.
    app.cursor = line_starting(&app, "<h1") + 1;
    let v = app.cursor;
    assert!(cursor_text(&app).starts_with("Castlebridge"));
    for _ in 0..5 {
        keys(&mut app, "rr");
        let _ = screen(&mut app, 100, 30);
    }
    assert_eq!(app.cursor, v, "five round trips");
}

/// `r` and `w` choose one view at a time: `w` returns to the source lines it was entered from,
/// `r` in the reading view goes to the raw lines.
#[test]
fn reading_view_returns_to_the_lines_it_came_from() {
    use View::{Raw, Reading, Virtual};
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    assert_eq!(app.view(), Virtual);
    let seen: Vec<View> = "rwwwrrww"
        .chars()
        .map(|k| {
            keys(&mut app, &k.to_string());
            app.view()
        })
        .collect();
    assert_eq!(
        seen,
        [Raw, Reading, Raw, Reading, Raw, Virtual, Reading, Virtual]
    );
}

/// One popup at a time, from the keyboard: a key other than a movement closes the help (and
/// does nothing else), and while the picker is open every key is typed into it.
#[test]
fn help_and_picker_are_never_open_together() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    keys(&mut app, "?");
    assert_eq!(app.help_scroll(), Some(0));
    keys(&mut app, "p");
    assert_eq!((app.help_scroll(), app.picker()), (None, None));
    keys(&mut app, "p?");
    assert_eq!(app.help_scroll(), None);
    assert_eq!(app.picker().map(|p| p.query.as_str()), Some("?"));
    let s = screen(&mut app, 110, 32);
    assert!(
        s.contains("PICK ALGORITHM") && !s.contains(" help — keymap"),
        "{s}"
    );
}

#[test]
fn selection_is_shaded_in_the_source() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    keys(&mut app, "}J");
    let t = render(&mut app, 110, 32);
    let buf = t.backend().buffer();
    let shaded = (0..32u16)
        .flat_map(|y| (0..70u16).map(move |x| (x, y)))
        .filter(|&(x, y)| matches!(buf[(x, y)].bg, Color::Rgb(..)))
        .count();
    assert!(shaded > 50, "selected text is shaded ({shaded} cells)");
}

/// A small ground-truth corpus: one page with navigation, an article and a footer.
fn gold_corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("html")).unwrap();
    let nav: String = (0..25)
        .map(|i| format!("<li><a href=\"/section/{i}/index.html\">Section {i}</a></li>\n"))
        .collect();
    let paras = [
        "The harbour board approved a plan on Monday to dredge the old channel before the winter storms arrive.",
        "Fishermen have complained for years that silt makes the entrance dangerous at low tide, especially for larger boats.",
        "Work will start in October and cost about two million pounds, the board said in a statement after the meeting.",
    ];
    let body: String = paras.iter().map(|p| format!("<p>{p}</p>\n")).collect();
    let html = format!(
        "<html><head><title>Harbour</title></head><body>\n<ul>\n{nav}</ul>\n<div class=\"story\">\n<h1>Channel to be dredged</h1>\n{body}<p>Share this story on social media and follow us for more local news every day.</p>\n</div>\n<ul>\n{nav}</ul>\n</body></html>\n"
    );
    std::fs::write(dir.path().join("html/harbour.html"), html).unwrap();
    let gold = serde_json::json!({"harbour": {"articleBody": paras.join("\n\n"), "url": "https://news.example/harbour"}});
    std::fs::write(dir.path().join("ground-truth.json"), gold.to_string()).unwrap();
    dir
}

#[test]
fn gold_status_and_compare_overlay() {
    let dir = gold_corpus();
    let mut app = App::open(dir.path(), opts()).unwrap();
    wait_for_encodings(&mut app);
    let prf = app.active_algo().prf.expect("P/R/F1 against the gold");
    assert!(prf.recall > 0.99, "{prf:?}");
    assert!(
        prf.precision < 1.0,
        "the share line is a false positive: {prf:?}"
    );
    keys(&mut app, "c");
    keys(&mut app, "x");
    assert!(app.compare);
    keys(&mut app, "f");
    let line = app.cursor;
    assert_eq!(
        app.line_class(line),
        Some(cescope::tui::app::LineClass::FalsePositive)
    );
    let s = screen(&mut app, 110, 32);
    assert!(s.contains(&format!("F1 {:.3}", prf.f1)), "{s}");
    insta::assert_snapshot!("compare", s);
    // A slider move updates P / R / F1.
    keys(&mut app, "[[");
    let after = app.active_algo().prf.unwrap();
    assert_eq!(gap(&app), 0);
    let s = screen(&mut app, 110, 32);
    assert!(s.contains(&format!("F1 {:.3}", after.f1)), "{s}");
}

fn annotate_opts(gold_dir: &Path) -> AppOptions {
    AppOptions {
        gold_dir: Some(gold_dir.to_path_buf()),
        annotator: "tester".into(),
        ..opts()
    }
}

/// Moves the cursor to the first display line whose text contains `needle`.
fn goto_line(app: &mut App, needle: &str) {
    let text = app.doc.as_ref().unwrap().page.text().to_string();
    let i = (0..app.line_count())
        .find(|&i| text[app.line_range(i).unwrap()].contains(needle))
        .unwrap_or_else(|| panic!("no line contains {needle:?}"));
    app.cursor = i;
    app.top = i.saturating_sub(3);
}

#[test]
fn annotate_take_remove_headline_save_reopen() {
    let gold_dir = tempfile::tempdir().unwrap();
    let page = sample("news-article.html");
    let mut app = App::open(&page, annotate_opts(gold_dir.path())).unwrap();
    // Take DANAg's selection as the draft.
    keys(&mut app, "T");
    let danag = app.active_algo().result.as_ref().unwrap().selection.clone();
    assert_eq!(app.ann.as_ref().unwrap().gold.main_selection(), danag);
    assert!(app.ann.as_ref().unwrap().dirty);
    // Remove one paragraph line, then undo and redo it.
    goto_line(&mut app, "Margaret Ellison, 71");
    let removed = app.line_range(app.cursor).unwrap();
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
    insta::assert_snapshot!("annotating", s);
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
    let app2 = App::open(&page, annotate_opts(gold_dir.path())).unwrap();
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
    let mut app = App::open(&page, annotate_opts(gold_dir.path())).unwrap();
    keys(&mut app, "TS");
    let gold_path = gold_dir.path().join("news-article.json");
    let first = std::fs::read_to_string(&gold_path).unwrap();
    // A new session edits the existing file: the first save keeps a backup.
    let mut app = App::open(&page, annotate_opts(gold_dir.path())).unwrap();
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
    let mut app = App::open(&page, annotate_opts(gold_dir.path())).unwrap();
    keys(&mut app, "T");
    drop(app); // "crash" without saving: only the recovery file exists
    let mut app = App::open(&page, annotate_opts(gold_dir.path())).unwrap();
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
    let mut app = App::open(&other, annotate_opts(gold_dir.path())).unwrap();
    let ann = app.ann.as_ref().unwrap();
    assert!(ann.read_only.as_ref().unwrap().contains("read-only"));
    keys(&mut app, "T");
    assert!(!app.ann.as_ref().unwrap().dirty, "read-only refuses edits");
    assert!(app.status.as_ref().unwrap().0.contains("read-only"));
    // Malformed JSON: a clear error with line and column, and the file stays untouched.
    let bad = gold_dir.path().join("wiki-article.json");
    std::fs::write(&bad, "{\n  \"schema\": \"cescope-gold\",\n  oops\n}\n").unwrap();
    let app = App::open(&sample("wiki-article.html"), annotate_opts(gold_dir.path())).unwrap();
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

#[test]
fn slow_runs_go_to_a_worker_and_stale_results_are_dropped() {
    let o = AppOptions {
        inline_jobs: false,
        inline_limit: 0, // every run goes to the worker thread
        ..opts()
    };
    let mut app = App::open(&sample("news-article.html"), o).unwrap();
    // Three quick changes: gap 21, 22, 23; only the last result may land.
    keys(&mut app, "+++");
    assert!(app.active_algo().busy);
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("running"), "busy indicator: {s}");
    let t = Instant::now();
    while app.active_algo().busy && t.elapsed() < Duration::from_secs(10) {
        app.poll_background();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(!app.active_algo().busy);
    let x = app.active_algo().result.clone().unwrap();
    assert_eq!(x.trace.scalar("gap"), Some(23.0), "the newest request wins");
}

#[test]
fn works_at_80_by_24() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    keys(&mut app, "}");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("danag"), "{s}");
    assert!(s.contains("explain"), "{s}");
    insta::assert_snapshot!("size_80x24", s);
}

#[test]
fn mouse_wheel_histogram_click_and_slider_click() {
    use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mouse = |kind, column, row| MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    };
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    let _ = screen(&mut app, 110, 32);
    // The wheel scrolls three lines.
    let r = app.rects.clone();
    let top = app.top;
    app.handle_mouse(mouse(
        MouseEventKind::ScrollDown,
        r.source.x + 5,
        r.source.y + 2,
    ));
    assert_eq!(app.top, top + 3);
    // A click on the histogram moves the cursor to that row.
    app.handle_mouse(mouse(
        MouseEventKind::Down(MouseButton::Left),
        r.histogram.x + 2,
        r.histogram.y + 4,
    ));
    assert_eq!(app.cursor, app.top + 4);
    // A click on the overview jumps through the page.
    app.handle_mouse(mouse(
        MouseEventKind::Down(MouseButton::Left),
        r.overview.x,
        r.overview.y + r.overview.height - 1,
    ));
    assert!(
        app.cursor > app.line_count() * 8 / 10,
        "cursor {}",
        app.cursor
    );
    // A click at the right end of the gap slider sets the largest gap; at the left end, 0.
    let _ = screen(&mut app, 110, 32);
    let s = app.rects.params[0];
    app.handle_mouse(mouse(
        MouseEventKind::Down(MouseButton::Left),
        s.x + s.width - 1,
        s.y,
    ));
    assert_eq!(gap(&app), 200);
    app.handle_mouse(mouse(MouseEventKind::Down(MouseButton::Left), s.x, s.y));
    assert_eq!(gap(&app), 0);
    // A click on a choice cycles it.
    let c = app.rects.params[1];
    app.handle_mouse(mouse(MouseEventKind::Down(MouseButton::Left), c.x + 1, c.y));
    assert_eq!(
        app.active_algo()
            .params
            .get("smoothing")
            .unwrap()
            .to_string(),
        "none"
    );
    // Dragging over the source selects characters for annotation.
    let _ = screen(&mut app, 110, 32);
    let r = app.rects.clone();
    app.handle_mouse(mouse(
        MouseEventKind::Down(MouseButton::Left),
        r.source_text_x,
        r.source.y + 1,
    ));
    app.handle_mouse(mouse(
        MouseEventKind::Drag(MouseButton::Left),
        r.source_text_x + 5,
        r.source.y + 1,
    ));
    let sel = app
        .ann
        .as_ref()
        .unwrap()
        .char_sel
        .clone()
        .expect("a character range");
    assert!(
        sel.end > sel.start && sel.end - sel.start <= 6 * 4,
        "{sel:?}"
    );
}

/// Every action, in turn and repeated, on awkward pages (empty, only a comment, NUL bytes, an
/// unclosed script, one huge line) never panics and always draws.
#[test]
fn every_action_on_awkward_pages() {
    use cescope::tui::keymap::Action;
    let dir = tempfile::tempdir().unwrap();
    let gold_dir = tempfile::tempdir().unwrap();
    let pages: Vec<(&str, Vec<u8>)> = vec![
        ("empty.html", vec![]),
        ("comment.html", b"<!-- only a comment".to_vec()),
        ("nul.html", b"<p>a\0b</p>\0<p>text with \0 nul</p>".to_vec()),
        ("script.html", b"<p>x</p><script>var a = '</div>';".to_vec()),
        (
            "long.html",
            "<span>word </span>".repeat(20_000).into_bytes(),
        ),
    ];
    for (name, bytes) in pages {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let mut app = App::open(&path, annotate_opts(gold_dir.path())).unwrap();
        for round in 0..2 {
            for &a in Action::ALL {
                if matches!(a, Action::Quit | Action::Filter) {
                    continue;
                }
                app.apply(a);
                if round == 1 {
                    app.apply(a);
                }
                let _ = screen(&mut app, 100, 30);
            }
        }
        let _ = screen(&mut app, 80, 24);
    }
    // A binary file is refused before any terminal work, with a clear error.
    let png = dir.path().join("x.png");
    std::fs::write(&png, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01").unwrap();
    let err = App::open(&png, opts())
        .err()
        .expect("a PNG is not a page")
        .to_string();
    assert!(err.contains("PNG"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Generic views: test-only extractors of other units (not in the registry), drawn from roles.

use cescope::algorithms::{
    Extraction, Extractor, Marks, ParamSpec, Params, Positions, Role, Scalar, Series, Trace, Unit,
};
use cescope::page::{ByteClass, Page, Tag};
use cescope::selection::Selection;
use std::ops::Range;
use std::sync::Arc;

/// Token unit: each tag is a code token (-1), each word a content token (+1); selects the
/// maximum-sum run of tokens (the shape of BTE's plateau).
struct TokenTest;

impl Extractor for TokenTest {
    fn name(&self) -> &'static str {
        "token-test"
    }
    fn describe(&self) -> &'static str {
        "test double: token-unit trace"
    }
    fn params(&self) -> &[ParamSpec] {
        &[]
    }
    fn run(&self, page: &Page, _: &Params) -> Extraction {
        let text = page.text();
        let mut pos: Vec<Range<usize>> = Vec::new();
        let mut word = Vec::new();
        for s in &page.lexed().spans {
            match s.class {
                ByteClass::Tag => {
                    pos.push(s.range());
                    word.push(false);
                }
                ByteClass::Text => {
                    let base = s.start as usize;
                    let mut at = None;
                    for (i, c) in text[s.range()]
                        .char_indices()
                        .chain([(s.range().len(), ' ')])
                    {
                        match (at, c.is_whitespace()) {
                            (None, false) => at = Some(i),
                            (Some(a), true) => {
                                pos.push(base + a..base + i);
                                word.push(true);
                                at = None;
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        // Kadane: the run with the largest sum of +1 / -1.
        let (mut best, mut best_r, mut cur, mut start) = (0i64, 0..0, 0i64, 0);
        for (i, &w) in word.iter().enumerate() {
            if cur <= 0 {
                cur = 0;
                start = i;
            }
            cur += if w { 1 } else { -1 };
            if cur > best {
                best = cur;
                best_r = start..i + 1;
            }
        }
        let sel =
            Selection::from_ranges(best_r.clone().filter(|&i| word[i]).map(|i| pos[i].clone()));
        let f = |b: bool| {
            word.iter()
                .map(|&w| (w == b) as u8 as f64)
                .collect::<Vec<_>>()
        };
        let trace = Trace {
            series: vec![
                Series::new("w", "words", Unit::Token, Role::ContentSignal, f(true)),
                Series::new("t", "tags", Unit::Token, Role::CodeSignal, f(false)),
            ],
            marks: vec![Marks::new(
                "p",
                "plateau",
                Unit::Token,
                Role::Selected,
                if best_r.is_empty() {
                    vec![]
                } else {
                    vec![best_r]
                },
            )],
            positions: vec![Positions {
                unit: Unit::Token,
                ranges: pos,
            }],
            ..Default::default()
        };
        Extraction {
            selection: sel,
            trace,
        }
    }
}

/// Node unit: every `<p>` and `<li>` element is a node; its link quota (anchor text / text) is
/// the only (combined) signal, `t` a threshold scalar; nodes under `t` are kept.
struct NodeTest;

impl Extractor for NodeTest {
    fn name(&self) -> &'static str {
        "node-test"
    }
    fn describe(&self) -> &'static str {
        "test double: node-unit trace"
    }
    fn params(&self) -> &[ParamSpec] {
        &[]
    }
    fn run(&self, page: &Page, _: &Params) -> Extraction {
        let t = 0.25;
        let text = page.text();
        let mut nodes: Vec<Range<usize>> = Vec::new();
        let mut quota = Vec::new();
        let mut open: Option<(usize, usize, usize)> = None; // start, text chars, link chars
        let mut in_a = false;
        for s in &page.lexed().spans {
            let is_block = s.tag == Tag::P || s.tag == Tag::Li;
            if s.class == ByteClass::Tag && is_block && s.is_start(s.tag) {
                open = Some((s.start as usize, 0, 0));
            } else if s.class == ByteClass::Tag && is_block {
                if let Some((a, all, link)) = open.take() {
                    nodes.push(a..s.end as usize);
                    quota.push(if all == 0 {
                        0.0
                    } else {
                        link as f64 / all as f64
                    });
                }
            } else if s.class == ByteClass::Tag && s.tag == Tag::A {
                in_a = s.is_start(Tag::A);
            } else if s.class == ByteClass::Text {
                let n = text[s.range()].trim().chars().count();
                if let Some(o) = open.as_mut() {
                    o.1 += n;
                    if in_a {
                        o.2 += n;
                    }
                }
            }
        }
        let kept: Vec<Range<usize>> = (0..nodes.len())
            .filter(|&i| quota[i] < t)
            .map(|i| i..i + 1)
            .collect();
        let sel = Selection::from_ranges(kept.iter().map(|k| nodes[k.start].clone()));
        let trace = Trace {
            series: vec![
                Series::new("q", "link quota", Unit::Node, Role::CombinedSignal, quota)
                    .with_agg(cescope::algorithms::Agg::Max),
            ],
            scalars: vec![Scalar::new("t", "t", None, Role::Threshold, t)],
            marks: vec![
                Marks::new(
                    "b",
                    "blocks",
                    Unit::Node,
                    Role::Candidates,
                    (0..nodes.len()).map(|i| i..i + 1).collect(),
                ),
                Marks::new("k", "kept blocks", Unit::Node, Role::Selected, kept),
            ],
            positions: vec![Positions {
                unit: Unit::Node,
                ranges: nodes,
            }],
        };
        Extraction {
            selection: sel,
            trace,
        }
    }
}

/// A small page: a menu of links, an article, a footer of links; one element per raw line.
fn links_page() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let menu: String = (0..4)
        .map(|i| format!("<li><a href=\"/s/{i}\">Section {i}</a></li>\n"))
        .collect();
    let html = format!(
        "<html><body>\n<ul>\n{menu}</ul>\n<p>The river rose overnight and the town <a href=\"/t\">council</a> opened the hall for families who had to leave their homes.</p>\n<p>By morning the water had reached the market square and the bridge was closed.</p>\n<ul>\n{menu}</ul>\n</body></html>\n"
    );
    let path = dir.path().join("links.html");
    std::fs::write(&path, html).unwrap();
    (dir, path)
}

/// The first display line whose text, leading white space trimmed, starts with `prefix`.
fn line_starting(app: &App, prefix: &str) -> usize {
    let page = &app.doc.as_ref().unwrap().page;
    (0..app.line_count())
        .find(|&i| {
            page.text()[app.line_range(i).unwrap()]
                .trim_start()
                .starts_with(prefix)
        })
        .unwrap_or_else(|| panic!("no line starts with {prefix:?}"))
}

/// The colour of the histogram's axis cell on display line `line` of the last drawn frame.
fn axis_colour(app: &App, t: &Terminal<TestBackend>, line: usize) -> Color {
    let h = app.rects.histogram;
    let row = h.y + (line - app.top) as u16;
    t.backend().buffer()[(h.x + h.width / 2, row)].fg
}

fn open_with(path: &Path, e: Arc<dyn Extractor>) -> App {
    let mut app = App::open(path, opts()).unwrap();
    let i = app.add_extractor(e);
    app.set_active(i);
    app
}

#[test]
fn token_unit_trace_is_drawn_on_lines() {
    let (_dir, path) = links_page();
    let mut app = open_with(&path, Arc::new(TokenTest));
    // The trace fits the page, and the plateau covers the article.
    let x = app.active_algo().result.clone().unwrap();
    let page = app.doc.as_ref().unwrap().page.clone();
    x.trace.validate(&page).unwrap();
    assert!(page.render(&x.selection).contains("market square"));
    // Cursor on the first article line.
    let line = (0..app.line_count())
        .find(|&i| page.text()[app.line_range(i).unwrap()].contains("river rose"))
        .unwrap();
    app.cursor = line;
    let t = render(&mut app, 100, 30);
    let s = t.backend().to_string();
    // Two-sided: code (tags) left, content (words) right, titled by the series' keys.
    assert!(s.contains("t ◀ │ ▶ w"), "{s}");
    // The explain panel counts the words of that line (tokens aggregated to the line): its
    // text without tags, split at white space.
    let mut plain = String::new();
    let mut in_tag = false;
    for c in page.text()[app.line_range(line).unwrap()].chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                plain.push(' ');
            }
            c if !in_tag => plain.push(c),
            _ => {}
        }
    }
    let words = plain.split_whitespace().count();
    assert!(words > 10);
    assert!(
        s.contains(&format!(
            "words = {words} (content signal), tags = 2 (code signal)"
        )),
        "{s}"
    );
    assert!(s.contains("in plateau #1"), "{s}");
    // The axis marks the plateau's lines in green.
    let h = app.rects.histogram;
    let axis = h.x + (h.width / 2);
    let row = h.y + (line - app.top) as u16;
    assert_eq!(t.backend().buffer()[(axis, row)].fg, Color::Green);
    insta::assert_snapshot!("token_unit", s);
    // Raw lines: the same tokens aggregate to the physical lines.
    keys(&mut app, "r");
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("raw lines"), "{s}");
}

#[test]
fn node_unit_trace_is_drawn_with_its_threshold() {
    let (_dir, path) = links_page();
    let mut app = open_with(&path, Arc::new(NodeTest));
    let x = app.active_algo().result.clone().unwrap();
    let page = app.doc.as_ref().unwrap().page.clone();
    x.trace.validate(&page).unwrap();
    let text = page.render(&x.selection);
    assert!(
        text.contains("market square") && !text.contains("Section 2"),
        "{text}"
    );
    // Cursor on the `<li>` line of the first menu item (a node with quota 1).
    let line = line_starting(&app, "<li>");
    app.cursor = line;
    let t = render(&mut app, 100, 30);
    let s = t.backend().to_string();
    // Only a combined signal: the histogram shows it, titled by its label.
    assert!(s.contains("link quota"), "{s}");
    assert!(s.contains("link quota = 1 (combined signal)"), "{s}");
    assert!(s.contains("t = 0.250 (threshold)"), "{s}");
    assert!(s.contains("in blocks #1"), "{s}");
    // The threshold is a marker line on every row of the page.
    let buf = t.backend().buffer();
    let h = app.rects.histogram;
    let markers = (h.y..h.y + h.height)
        .filter(|&y| (h.x..h.x + h.width).any(|x| buf[(x, y)].symbol() == "┊"))
        .count();
    assert!(
        markers >= app.line_count().min(h.height as usize) - 1,
        "{markers}"
    );
    insta::assert_snapshot!("node_unit", s);
}

#[test]
fn addanag_step_mode_shows_its_filter_step() {
    let mut app = App::open(&sample("wiki-article.html"), opts()).unwrap();
    keys(&mut app, "a");
    assert_eq!(app.active_algo().extractor.phases()[1].name, "filter");
    keys(&mut app, "s");
    let s0 = screen(&mut app, 110, 32);
    assert!(s0.contains("step 1/8 — preprocessing"), "{s0}");
    keys(&mut app, ".");
    // Go to a line whose size the filter changes.
    let x = app.active_algo().result.clone().unwrap();
    let before = &x.trace.series("length").unwrap().values;
    let after = &x.trace.series("filtered").unwrap().values;
    let line = (0..before.len())
        .find(|&i| after[i] < before[i])
        .expect("the wiki page has links");
    app.cursor = line;
    app.top = line.saturating_sub(3);
    let t = render(&mut app, 110, 32);
    let s = t.backend().to_string();
    assert!(s.contains("step 2/8 — filter"), "{s}");
    // The filtered size is drawn, the unfiltered one as a marker.
    assert!(s.contains('┊'), "{s}");
    // No region or selection is revealed yet: the axis is plain and the gutter empty.
    let h = app.rects.histogram;
    let axis = h.x + h.width / 2;
    assert!((h.y..h.y + h.height).all(|y| t.backend().buffer()[(axis, y)].symbol() == "│"));
    insta::assert_snapshot!("step_addanag_filter", s);
    // T1 / T2, then the combined signal from smoothing on.
    keys(&mut app, ".");
    assert!(screen(&mut app, 110, 32).contains("step 3/8 — T1 / T2"));
}

/// Every word of `hay` that equals `needle` (ASCII case-insensitive), bounded by non-word
/// characters.
fn has_word(hay: &str, needle: &str) -> bool {
    let h = hay.to_ascii_lowercase();
    let n = needle.to_ascii_lowercase();
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    h.match_indices(&n)
        .any(|(i, _)| !word(h[..i].chars().next_back()) && !word(h[i + n.len()..].chars().next()))
}

#[test]
fn tui_names_no_algorithm_and_no_series() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui");
    let page = Page::load(&sample("wiki-article.html"), &Default::default()).unwrap();
    let mut keys: Vec<String> = Vec::new();
    for e in cescope::algorithms::registry() {
        let x = e.run(&page, &Params::defaults(e.params()));
        keys.extend(x.trace.keys().map(str::to_string));
    }
    keys.sort();
    keys.dedup();
    assert!(keys.iter().any(|k| k == "T1"), "{keys:?}");
    let names = cescope::algorithms::names();
    let mut found = Vec::new();
    for f in std::fs::read_dir(&dir).unwrap() {
        let path = f.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        // Comments may use ordinary words that happen to be algorithm names ("plain text");
        // the code may not.
        let src: String = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        for n in &names {
            if has_word(&src, n) {
                found.push(format!("{file}: algorithm {n}"));
            }
        }
        for k in &keys {
            if src.contains(&format!("\"{k}\""))
                || (k.len() > 1 && has_word(&src, k) && k.chars().next().unwrap().is_uppercase())
            {
                found.push(format!("{file}: trace key {k}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "src/tui names algorithms or trace items: {found:?}"
    );
    assert!(has_word("a DANAg b", "danag") && !has_word("addanag", "danag"));
}

/// The registered token-unit algorithm (BTE) and the all-text baseline are drawn by the generic
/// views: BTE's tags left / words right, its plateau green on the axis, its own phases in step
/// mode; `plain` selects every line with text.
#[test]
fn bte_and_plain_from_the_registry_are_drawn() {
    let (_dir, path) = links_page();
    let bte: Arc<dyn Extractor> = Arc::from(cescope::algorithms::find("bte").unwrap());
    let mut app = open_with(&path, bte);
    let page = app.doc.as_ref().unwrap().page.clone();
    let line = (0..app.line_count())
        .find(|&i| page.text()[app.line_range(i).unwrap()].contains("river rose"))
        .unwrap();
    app.cursor = line;
    let t = render(&mut app, 100, 30);
    let s = t.backend().to_string();
    assert!(s.contains("tags ◀ │ ▶ words"), "{s}");
    assert_eq!(axis_colour(&app, &t, line), Color::Green);
    insta::assert_snapshot!("bte", s);
    // Step mode walks BTE's own phases.
    keys(&mut app, "s");
    assert!(screen(&mut app, 100, 30).contains("tokens"));
    keys(&mut app, "..");
    assert!(screen(&mut app, 100, 30).contains("optimum"));

    let plain: Arc<dyn Extractor> = Arc::from(cescope::algorithms::find("plain").unwrap());
    let mut app = open_with(&path, plain);
    let x = app.active_algo().result.clone().unwrap();
    assert!(page.render(&x.selection).contains("Section 0"));
    let s = screen(&mut app, 100, 30);
    insta::assert_snapshot!("plain", s);
}

/// The registered node-unit algorithm (LQF) is drawn by the generic views: link characters left,
/// other characters right, the kept blocks green on the axis, its own phases in step mode.
#[test]
fn lqf_from_the_registry_is_drawn() {
    let (_dir, path) = links_page();
    let lqf: Arc<dyn Extractor> = Arc::from(cescope::algorithms::find("lqf").unwrap());
    let mut app = open_with(&path, lqf);
    let page = app.doc.as_ref().unwrap().page.clone();
    let x = app.active_algo().result.clone().unwrap();
    let text = page.render(&x.selection);
    assert!(
        text.contains("market square") && !text.contains("Section 0"),
        "{text}"
    );
    let line = line_starting(&app, "<p>");
    app.cursor = line;
    let t = render(&mut app, 100, 30);
    let s = t.backend().to_string();
    assert!(s.contains("link ◀ │ ▶ text"), "{s}");
    assert_eq!(axis_colour(&app, &t, line), Color::Green);
    insta::assert_snapshot!("lqf", s);
    keys(&mut app, "s");
    assert!(screen(&mut app, 100, 30).contains("blocks"));
    keys(&mut app, "..");
    assert!(screen(&mut app, 100, 30).contains("deletion"));
}

/// Switching algorithms in step mode keeps the step inside the new algorithm's phases (AdDANAg
/// has 8, BTE 4; found by the long soak walk).
#[test]
fn step_mode_survives_switching_to_an_algorithm_with_fewer_phases() {
    let (_dir, path) = links_page();
    let bte: Arc<dyn Extractor> = Arc::from(cescope::algorithms::find("bte").unwrap());
    let mut app = App::open(&path, opts()).unwrap();
    let addanag = app
        .algos
        .iter()
        .position(|a| a.extractor.name() == "addanag")
        .unwrap();
    app.set_active(addanag);
    keys(&mut app, "s.......");
    assert_eq!(app.step, Some(7));
    let i = app.add_extractor(bte);
    app.set_active(i);
    assert_eq!(app.step, Some(3));
    assert!(screen(&mut app, 100, 30).contains("extraction"));
}

/// Every registered algorithm, from the registry alone: chosen as the active algorithm it is
/// drawn (snapshot `algo_NAME`), overlaid with every other algorithm at once, stepped through its
/// own phases (each step's header names the phase) and explained at a line of the article.
#[test]
fn every_registered_algorithm_is_drawn_overlaid_stepped_and_explained() {
    for e in cescope::algorithms::registry() {
        let name = e.name();
        let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
        let i = app
            .algos
            .iter()
            .position(|a| a.extractor.name() == name)
            .unwrap_or_else(|| panic!("{name} is not offered by the inspector"));
        app.set_active(i);
        assert!(app.active_algo().result.is_some(), "{name} ran");
        app.cursor = line_starting(&app, "<p>");
        let s = screen(&mut app, 110, 32);
        assert!(s.contains(name), "{name}: the status names it\n{s}");
        insta::assert_snapshot!(format!("algo_{name}"), s);

        // Overlaid with all the others (each chosen and overlaid with `o`): every
        // algorithm's result is computed and the frame draws without losing the active one.
        for j in 0..app.algos.len() {
            app.set_active(j);
            if !app.algos[j].overlay {
                keys(&mut app, "o");
            }
        }
        app.set_active(i);
        assert!(app.algos.iter().all(|a| a.overlay), "{name}: all overlaid");
        let s = screen(&mut app, 110, 32);
        assert!(s.contains(name), "{name} with all overlays\n{s}");
        assert!(
            app.algos.iter().all(|a| a.result.is_some()),
            "{name}: all ran"
        );

        // Step mode walks its own phases.
        keys(&mut app, "s");
        let n = e.phases().len();
        for (k, p) in e.phases().iter().enumerate() {
            assert_eq!(app.step, Some(k), "{name}");
            let s = screen(&mut app, 110, 32);
            let header = format!("step {}/{n} — {}", k + 1, p.name);
            assert!(s.contains(&header), "{name}: {header:?}\n{s}");
            next_phase(&mut app);
        }
        keys(&mut app, "s");
        assert_eq!(app.step, None, "{name}");

        // Explain names the line it explains.
        let page = app.doc.as_ref().unwrap().page.clone();
        let x = app.active_algo().result.clone().unwrap();
        let said = e.explain(
            &page,
            &x,
            cescope::algorithms::Location::Byte(app.line_range(app.cursor).unwrap().start),
        );
        assert!(!said.is_empty(), "{name}: explain says something");
    }
}

/// Typing `s` into the app as text (any character, unlike [`keys`] which maps a few to keys).
fn type_text(app: &mut App, s: &str) {
    for c in s.chars() {
        app.handle_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
}

fn enter(app: &mut App) {
    app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
}

fn cursor_text(app: &App) -> String {
    let page = &app.doc.as_ref().unwrap().page;
    page.text()[app.line_range(app.cursor).unwrap()].to_string()
}

/// Search (`/`, `n`, `N`, smart case, matches highlighted), go to a line (`:`), jumps to the first
/// / last selected line and the headline, and the jump list (`'` back, `` ` `` forward).
#[test]
fn search_goto_and_jump_list() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    keys(&mut app, "/");
    type_text(&mut app, "flood barrier");
    // Matches are found while typing and shown in the prompt.
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("/flood barrier▏"), "{s}");
    let n = app.search.as_ref().unwrap().matches.len();
    assert!(n >= 4, "lower case query matches either case: {n}");
    enter(&mut app);
    assert!(cursor_text(&app).to_lowercase().contains("flood barrier"));
    let first = app.cursor;
    let t = render(&mut app, 110, 32);
    let s = t.backend().to_string();
    assert!(s.contains(&format!("match 1 of {n}")), "{s}");
    // The current match is shaded in the source.
    let buf = t.backend().buffer();
    assert!(
        (0..32u16)
            .any(|y| (0..110u16).any(|x| buf[(x, y)].bg == cescope::tui::ui::CURRENT_MATCH_BG)),
        "current match shaded"
    );
    insta::assert_snapshot!("search", s);
    keys(&mut app, "n");
    assert!(app.cursor > first);
    let second = app.cursor;
    keys(&mut app, "N");
    assert_eq!(app.cursor, first);
    // Upper case makes the search case-sensitive.
    keys(&mut app, "/");
    type_text(&mut app, "Flood barrier");
    enter(&mut app);
    assert!(app.search.as_ref().unwrap().matches.len() < n);
    assert!(cursor_text(&app).contains("Flood barrier"));

    // Go to line 40, then back through the jump list, and forward again.
    keys(&mut app, ":");
    type_text(&mut app, "40");
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("go to line :40▏"), "{s}");
    insta::assert_snapshot!("goto_prompt", s);
    enter(&mut app);
    assert_eq!(app.cursor, 39);
    let before_back = app.cursor;
    keys(&mut app, "'");
    assert_ne!(app.cursor, 39);
    keys(&mut app, "`");
    assert_eq!(app.cursor, before_back);
    // A line that does not exist is an error, the cursor stays.
    keys(&mut app, ":");
    type_text(&mut app, "99999");
    enter(&mut app);
    assert_eq!(app.cursor, 39);
    assert!(screen(&mut app, 110, 32).contains("no line \"99999\""));
    // Esc cancels typing.
    keys(&mut app, ":");
    type_text(&mut app, "1");
    keys(&mut app, "\u{1b}");
    assert_eq!(app.cursor, 39);

    // First and last selected line of the active algorithm.
    let x = app.active_algo().result.clone().unwrap();
    let sel = x.selection.ranges();
    keys(&mut app, "(");
    assert!(app.line_range(app.cursor).unwrap().contains(&sel[0].start));
    keys(&mut app, ")");
    let last = sel.last().unwrap().end - 1;
    assert!(app.line_range(app.cursor).unwrap().contains(&last));
    let _ = second;
}

/// The headline jump goes to the gold's headline (a corpus page's `headline` found in the
/// source); the seed jump to the active algorithm's seed region.
#[test]
fn jump_to_headline_and_seed() {
    let dir = gold_corpus();
    let gt = dir.path().join("ground-truth.json");
    let mut gold: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&gt).unwrap()).unwrap();
    gold["harbour"]["headline"] = "Channel to be dredged".into();
    std::fs::write(&gt, gold.to_string()).unwrap();
    let mut app = App::open(&gt, opts()).unwrap();
    let opened = app.cursor;
    assert!(
        cursor_text(&app).contains("The harbour board"),
        "opens at the gold's first line"
    );
    keys(&mut app, "^");
    assert!(
        cursor_text(&app).contains("Channel to be dredged"),
        "{:?}",
        cursor_text(&app)
    );
    keys(&mut app, "*");
    let lt = app.line_trace(app.active).unwrap();
    let seed = lt
        .marks
        .iter()
        .find(|m| m.role == cescope::algorithms::Role::Seed)
        .expect("DANAg marks its seed region");
    assert_eq!(app.cursor, seed.spans[0].start);
    // Back twice: the seed jump, then the headline jump.
    keys(&mut app, "''");
    assert_eq!(app.cursor, opened);
}

/// Undoing back to the saved state clears the unsaved mark and removes the recovery file, so
/// reopening offers nothing; edits while another session's recovery file is offered never
/// overwrite it.
#[test]
fn undo_to_the_saved_state_is_not_unsaved() {
    let gold_dir = tempfile::tempdir().unwrap();
    let page = sample("news-article.html");
    let recovery = gold_dir.path().join(".news-article.json.recover");
    let mut app = App::open(&page, annotate_opts(gold_dir.path())).unwrap();
    keys(&mut app, "TS");
    assert!(!app.ann.as_ref().unwrap().dirty);
    // A change, then undo: back at the saved state.
    app.cursor = line_starting(&app, "<footer");
    keys(&mut app, "i");
    assert!(app.ann.as_ref().unwrap().dirty);
    let s = screen(&mut app, 120, 32);
    assert!(s.contains("[+] unsaved"), "{s}");
    keys(&mut app, "u");
    assert!(!app.ann.as_ref().unwrap().dirty, "undo to the saved state");
    let s = screen(&mut app, 120, 32);
    assert!(!s.contains("[+] unsaved"), "{s}");
    drop(app);
    let app = App::open(&page, annotate_opts(gold_dir.path())).unwrap();
    assert!(
        !app.ann.as_ref().unwrap().recovery_offered,
        "no identical recovery file offered"
    );

    // Another session's unsaved work in the recovery file is kept while it is offered.
    let mut app = App::open(&page, annotate_opts(gold_dir.path())).unwrap();
    app.cursor = line_starting(&app, "<footer");
    keys(&mut app, "i");
    drop(app); // "crash"
    let kept = std::fs::read(&recovery).unwrap();
    let mut app = App::open(&page, annotate_opts(gold_dir.path())).unwrap();
    assert!(app.ann.as_ref().unwrap().recovery_offered);
    app.cursor = line_starting(&app, "<footer") + 1;
    keys(&mut app, "i");
    assert!(app.ann.as_ref().unwrap().dirty);
    assert_eq!(
        std::fs::read(&recovery).unwrap(),
        kept,
        "recovery file kept"
    );
    assert!(app.status.as_ref().unwrap().0.contains("not autosaved"));
}

/// The page list shows the site and path end of the gold's URL instead of a 64-digit id, the
/// decompressed size of a `.gz` page, and a title that fits the panel.
#[test]
fn corpus_list_shows_sites_and_html_sizes() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("html")).unwrap();
    let id = "ab".repeat(32);
    let html = format!(
        "<html><body><p>{}</p></body></html>",
        "Some words of an article. ".repeat(2000)
    );
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(html.as_bytes()).unwrap();
    std::fs::write(
        dir.path().join(format!("html/{id}.html.gz")),
        gz.finish().unwrap(),
    )
    .unwrap();
    let gold = serde_json::json!({ &id: {"articleBody": "Some words", "url": "https://www.river-news.example/local/2024/flood-barrier-delayed?ref=rss"}});
    std::fs::write(dir.path().join("ground-truth.json"), gold.to_string()).unwrap();
    let mut app = App::open(&dir.path().join("ground-truth.json"), opts()).unwrap();
    wait_for_encodings(&mut app);
    let e = &app.corpus.as_ref().unwrap().entries[0];
    assert_eq!(
        e.label(),
        "river-news.example/local/2024/flood-barrier-delayed?ref=rss"
    );
    assert_eq!(e.html_bytes, Some(html.len() as u64));
    assert!(e.bytes < html.len() as u64 / 10, "stored compressed");
    assert!(app.corpus.as_ref().unwrap().list_open);
    let s = screen(&mut app, 120, 32);
    // The URL is cut at its end in the row, and shown whole (wrapped) below the list.
    assert!(s.contains("   river-news.exampl… "), "{s}");
    assert!(
        s.contains("│river-news.example/local/202") && s.contains("│rss "),
        "{s}"
    );
    assert!(s.contains("51K"), "decompressed size: {s}");
    let row = s.lines().nth(1).unwrap();
    assert!(!row.contains("abababab"), "no hex id in the list: {s}");
    assert!(s.contains("✓0 ⚑0 ✎0 /1"), "{s}");
}

/// Step mode at every step of DANAg and AdDANAg, on a line of a region the gap expansion
/// joins: the histogram, gutter and explain text show only what each phase revealed (one
/// snapshot per algorithm holds every step's screen).
#[test]
fn step_mode_at_every_step_of_danag_and_addanag() {
    for name in ["danag", "addanag"] {
        let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
        let i = app
            .algos
            .iter()
            .position(|a| a.extractor.name() == name)
            .unwrap();
        app.set_active(i);
        keys(&mut app, "}}");
        keys(&mut app, "s");
        let n = app.active_algo().extractor.phases().len();
        let mut all = String::new();
        let mut explains = Vec::new();
        for k in 0..n {
            assert_eq!(app.step, Some(k));
            let s = screen(&mut app, 110, 32);
            let explain: String = s
                .lines()
                .skip_while(|l| !l.contains("┌ explain"))
                .collect::<Vec<_>>()
                .join("\n");
            explains.push(explain);
            all.push_str(&format!("=== step {} ===\n{s}\n", k + 1));
            next_phase(&mut app);
        }
        // Each step says something the one before did not (the text grows or changes).
        for w in explains.windows(2) {
            assert_ne!(w[0], w[1], "{name}: two steps explain alike");
        }
        insta::assert_snapshot!(format!("steps_{name}"), all);
    }
}

/// The region table (`b`) of the active algorithm on the teaching page: both regions with
/// their T1 / T2 sums, the lines between them, seed and selected, DANAg's verdicts; ↓ and Enter
/// jump to the second region.
#[test]
fn region_table_lists_and_jumps() {
    let mut app = App::open(&sample("teaching.html"), opts()).unwrap();
    // The page opens at DANAg's first selected line: 10, "River rises".
    assert_eq!(app.cursor, 9);
    keys(&mut app, "b");
    assert!(app.table);
    let s = screen(&mut app, 120, 32);
    assert!(s.contains("danag: regions"), "{s}");
    let row1 = s.lines().find(|l| l.contains("   1  9–14")).expect("row 1");
    assert!(
        row1.contains("47") && row1.contains("seed") && row1.contains("✓"),
        "{row1}"
    );
    let row2 = s
        .lines()
        .find(|l| l.contains("   2  18–20"))
        .expect("row 2");
    assert!(row2.contains("37") && row2.contains("<= gap 20"), "{row2}");
    insta::assert_snapshot!("region_table", s);
    keys(&mut app, "J");
    app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert!(!app.table, "Enter closes the table");
    assert_eq!(app.cursor, 17, "on r2's first line (18)");
    // Back where we were with the jump list.
    keys(&mut app, "'");
    assert_eq!(app.cursor, 9);
}

/// Two algorithms side by side: DANAg pinned (`P`), AdDANAg chosen; the explain panel and the
/// region table show both, on the same line.
#[test]
fn side_by_side_explain_and_tables() {
    let mut app = App::open(&sample("wiki-article.html"), opts()).unwrap();
    keys(&mut app, "P");
    assert_eq!(app.second, Some(app.active));
    keys(&mut app, "a");
    assert_eq!(app.active_algo().extractor.name(), "addanag");
    keys(&mut app, "}");
    let s = screen(&mut app, 160, 40);
    assert!(
        s.contains("explain — addanag") && s.contains("explain — danag"),
        "{s}"
    );
    insta::assert_snapshot!("side_by_side_explain", s);
    keys(&mut app, "b");
    let s = screen(&mut app, 160, 40);
    assert!(
        s.contains("addanag: regions") && s.contains("danag: regions"),
        "{s}"
    );
    insta::assert_snapshot!("side_by_side_tables", s);
    // Unpinning returns to one explain panel.
    keys(&mut app, "\u{1b}P");
    assert_eq!(app.second, None);
    assert!(!screen(&mut app, 160, 40).contains("explain — danag"));
}

/// The status bar at 80, 120 and 200 columns keeps the essentials: the modes (step, visual),
/// the active algorithm, its P / R / F1 and its parameters on row 1; the page name on row 2,
/// a long one shortened in the middle.
#[test]
fn status_bar_keeps_the_essentials_at_every_width() {
    let dir = gold_corpus();
    let long = format!("{}.html", "0123456789abcdef".repeat(4));
    std::fs::rename(
        dir.path().join("html/harbour.html"),
        dir.path().join("html").join(&long),
    )
    .unwrap();
    let gt = dir.path().join("ground-truth.json");
    let text = std::fs::read_to_string(&gt)
        .unwrap()
        .replace("\"harbour\"", &format!("\"{}\"", &long[..64]));
    std::fs::write(&gt, text).unwrap();
    let gold_dir = tempfile::tempdir().unwrap();
    let mut app = App::open(&gt, annotate_opts(gold_dir.path())).unwrap();
    keys(&mut app, "cs.v");
    let mut all = String::new();
    for w in [80u16, 120, 200] {
        let s = screen(&mut app, w, 30);
        let rows: Vec<&str> = s.lines().collect();
        let (top, bottom) = (rows[rows.len() - 2], rows[rows.len() - 1]);
        for must in ["STEP 2/7", "VISUAL", "danag", "F1 ", "gap=20"] {
            assert!(top.contains(must), "{w} columns: {must:?} in {top}");
        }
        // Whole when it fits (other facts give way first), else shortened in the middle.
        assert!(
            bottom.contains(" 0123456789") && bottom.contains("def.html"),
            "{w}: {bottom}"
        );
        assert_eq!(w == 80, bottom.contains('…'), "{w}: {bottom}");
        all.push_str(&format!("{w}:\n{top}\n{bottom}\n"));
    }
    insta::assert_snapshot!("status_bar_widths", all);
}

/// The reading view (`w`): the page's text, one block per line, with the overlays and gold;
/// lines selected there (visual mode) and mouse drags (snapped to whole words) map back to
/// byte ranges of the source.
#[test]
fn reading_view_annotates_on_text() {
    use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let gold_dir = tempfile::tempdir().unwrap();
    let mut app = App::open(&sample("news-article.html"), annotate_opts(gold_dir.path())).unwrap();
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
    let line_text = app.doc.as_ref().unwrap().reading[app.cursor].text.clone();
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
    let row = (app.cursor - app.top) as u16;
    let mouse = |kind, column, row| MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    };
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
    insta::assert_snapshot!("reading_view", screen(&mut app, 110, 32));
    // Back to the source on the same text.
    let byte = app.line_range(app.cursor).unwrap().start;
    keys(&mut app, "w");
    assert_eq!(app.view(), View::Virtual);
    assert!(app.line_range(app.cursor).unwrap().contains(&byte));
}

/// Fewer keys from a draft: `T` takes the draft and puts the cursor on its first line; `i` / `D`
/// on the cursor line then move the cursor to the next line (so repeating the key strikes a run
/// of lines), while on a visual range they leave the cursor where it is.
#[test]
fn draft_fixing_keys_move_on() {
    let gold_dir = tempfile::tempdir().unwrap();
    let mut app = App::open(&sample("news-article.html"), annotate_opts(gold_dir.path())).unwrap();
    keys(&mut app, "w");
    app.handle_key(KeyEvent::new(KeyCode::End, KeyModifiers::NONE)); // away from the draft
    let end = app.cursor;
    keys(&mut app, "T");
    let first = app
        .active_algo()
        .result
        .as_ref()
        .unwrap()
        .selection
        .ranges()[0]
        .start;
    let c = app.cursor;
    assert_ne!(c, end);
    assert!(
        app.line_range(c).unwrap().contains(&first),
        "T puts the cursor on the draft's first line"
    );
    let ann_sel = |app: &App| app.ann.as_ref().unwrap().gold.main_selection();
    let line = |app: &App, i: usize| app.line_range(i).unwrap();
    // D on the cursor line: the line leaves the annotation, the cursor moves on.
    keys(&mut app, "D");
    assert_eq!(app.cursor, c + 1);
    assert!(!ann_sel(&app).intersects(line(&app, c)));
    keys(&mut app, "D");
    assert_eq!(app.cursor, c + 2);
    assert!(!ann_sel(&app).intersects(line(&app, c + 1)));
    // i puts a line back and moves on too.
    app.cursor = c;
    keys(&mut app, "i");
    assert_eq!(app.cursor, c + 1);
    assert!(ann_sel(&app).intersects(line(&app, c)));
    // On a visual range the cursor stays at the range's end.
    keys(&mut app, "v");
    app.cursor = c + 2;
    keys(&mut app, "D");
    assert_eq!(app.cursor, c + 2);
    assert!(!ann_sel(&app).intersects(line(&app, c + 2)));
    // A key that changes nothing does not move the cursor.
    keys(&mut app, "D");
    assert_eq!(app.cursor, c + 2, "the line was already out");
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
    let mut app = App::open(&dir, annotate_opts(gold_dir.path())).unwrap();
    let current = |app: &App| {
        let c = app.corpus.as_ref().unwrap();
        c.entries[c.current].id.clone()
    };
    assert_eq!(current(&app), "a");
    keys(&mut app, "V");
    let s = screen(&mut app, 110, 30);
    assert!(s.contains("REVIEW") && s.contains("a accept"), "{s}");
    insta::assert_snapshot!("review", s);
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

/// The gutter's legend (source title) names each column in column order; an overlaid
/// algorithm's column keeps its place when another algorithm becomes active; the histogram
/// states its scale and shows the number of a clipped bar.
#[test]
fn legend_stable_gutter_and_histogram_scale() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    keys(&mut app, "oa"); // danag overlaid, addanag active
    keys(&mut app, "}");
    let t = render(&mut app, 110, 32);
    let s = t.backend().to_string();
    let title = s.lines().next().unwrap();
    let (d, a) = (
        title.find("▌danag").unwrap(),
        title.find("▌addanag").unwrap(),
    );
    assert!(d < a, "legend in column order: {title}");
    let col_of = |t: &Terminal<TestBackend>, color: Color| {
        let buf = t.backend().buffer();
        (1..4u16)
            .find(|&x| (1..30u16).any(|y| buf[(x, y)].symbol() == "▌" && buf[(x, y)].fg == color))
    };
    let danag = app
        .algos
        .iter()
        .position(|x| x.extractor.name() == "danag")
        .unwrap();
    let danag_color = app.algos[danag].color;
    let before = col_of(&t, danag_color).expect("danag's column");
    assert!(col_of(&t, app.active_algo().color).expect("addanag's column") > before);
    assert!(s.contains("full bar = "), "{s}");
    insta::assert_snapshot!("legend", s);
    // Another algorithm active: danag's column stays where it was, addanag's goes.
    keys(&mut app, "a");
    let t = render(&mut app, 110, 32);
    assert_eq!(col_of(&t, danag_color), Some(before), "stable column");
    let title = t.backend().to_string().lines().next().unwrap().to_string();
    assert!(!title.contains("addanag"), "{title}");
    keys(&mut app, "A");
    // A line longer than the scale shows its number at the clipped end.
    let lt = app.line_trace(app.active).unwrap();
    let t1 = lt.series.iter().find(|x| x.key == "T1").unwrap();
    let scale = app.rects.hist_scale;
    let big = (0..t1.values.len())
        .find(|&i| t1.values[i] > scale)
        .expect("a clipped line");
    app.cursor = big;
    app.top = big;
    let s = screen(&mut app, 110, 32);
    let row = s.lines().nth(1).unwrap();
    assert!(
        row.contains(&format!("{}▸", t1.values[big] as i64)),
        "{row}"
    );
}

/// The headline candidates panel (`#`): TitleFinder's ranked candidates with score and line;
/// Enter jumps to one, `Y` takes the highlighted one as the gold headline; a page annotated for
/// the first time starts with TitleFinder's suggestion as its headline.
#[test]
fn headline_panel_and_prefilled_suggestion() {
    let gold_dir = tempfile::tempdir().unwrap();
    let mut app = App::open(&sample("news-article.html"), annotate_opts(gold_dir.path())).unwrap();
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
    assert!(s.contains("headline candidates (TitleFinder tf)"), "{s}");
    let rows = app.headline_rows();
    assert!(rows.len() >= 2, "{rows:?}");
    insta::assert_snapshot!("headline_panel", s);
    // The second candidate: jump to it, then take it.
    keys(&mut app, "J");
    app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert!(!app.table);
    assert!(app
        .line_range(app.cursor)
        .unwrap()
        .contains(&rows[1].range.start));
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

/// The names of the active algorithm's phases, in order.
fn phase_names(app: &App) -> Vec<&'static str> {
    let phases = app.active_algo().extractor.phases();
    phases.iter().map(|p| p.name).collect()
}

/// Step mode plays DANAg's gap expansion region by region from the seed: on the teaching page
/// the seed r1 first, then r2 (d = 5 <= gap 20), then the extraction phase.
#[test]
fn gap_expansion_plays_region_by_region() {
    let mut app = App::open(&sample("teaching.html"), opts()).unwrap();
    let names = phase_names(&app);
    let gap = names.iter().position(|n| *n == "gap expansion").unwrap();
    keys(&mut app, "s");
    for _ in 0..gap {
        keys(&mut app, ".");
    }
    assert_eq!((app.step, app.substep), (Some(gap), Some(1)));
    let t = render(&mut app, 110, 32);
    // Only the seed region (lines 9-14) is green on the axis; r2 (18-20) is still a candidate.
    assert_eq!(axis_colour(&app, &t, 12), Color::Yellow, "seed");
    assert_eq!(axis_colour(&app, &t, 18), Color::Blue, "r2 not yet joined");
    let s = t.backend().to_string();
    assert!(s.contains("gap expansion (1 revealed"), "{s}");
    insta::assert_snapshot!("gap_expansion_1", s);
    keys(&mut app, ".");
    assert_eq!((app.step, app.substep), (Some(gap), Some(2)));
    let t = render(&mut app, 110, 32);
    assert_eq!(axis_colour(&app, &t, 18), Color::Green, "r2 joined");
    keys(&mut app, ".");
    assert_eq!((app.step, app.substep), (Some(gap + 1), None));
    // Backwards: into the phase with every region shown, then one fewer.
    keys(&mut app, ",");
    assert_eq!((app.step, app.substep), (Some(gap), Some(2)));
    keys(&mut app, ",");
    assert_eq!(app.substep, Some(1));
}

/// `.` until step mode reaches the next phase (an unfolding phase takes several; at the last
/// phase `.` stays put).
fn next_phase(app: &mut App) {
    let start = app.step;
    for _ in 0..1000 {
        keys(app, ".");
        if app.step != start || app.substep.is_none() {
            return;
        }
    }
}

/// A filter set's members are candidate sets of its trace: the histogram gives each its own
/// column (its number on the lines it selects), revealed member by member in step mode.
#[test]
fn filter_set_members_get_a_column_each() {
    let o = AppOptions {
        algo: "mix4".into(),
        ..opts()
    };
    let mut app = App::open(&sample("news-article.html"), o).unwrap();
    keys(&mut app, "(");
    let s = screen(&mut app, 160, 40);
    assert!(s.contains("columns 1–3: candidate sets"), "{s}");
    assert!(
        s.contains("││123 "),
        "all three members on the first selected line: {s}"
    );
    keys(&mut app, "s.");
    let s = screen(&mut app, 160, 40);
    assert!(s.contains("││12 "), "step 2 reveals two members: {s}");
    assert!(!s.contains("││123"), "{s}");
}

/// The screen row that shows display line `line` (1-based, the number after the gutter).
fn row_of_line(s: &str, line: usize) -> Option<usize> {
    s.lines().position(|l| {
        let body = l.trim_matches('"').trim_start_matches('│');
        let digits: String = body
            .trim_start_matches([' ', '▌'])
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        digits == line.to_string()
    })
}

/// Issue 19, item 5: a jump keeps the lines above its target in sight and never leaves the
/// screen half empty. On the teaching page (23 lines) `:14` used to put line 12 at the top,
/// hiding the headline (line 9) and leaving the rows below line 23 empty.
#[test]
fn jump_keeps_context_and_fills_the_screen() {
    let mut app = App::open(&sample("teaching.html"), opts()).unwrap();
    let n = app.line_count();
    assert_eq!(n, 23);
    for (w, h) in [(110u16, 32u16), (160, 48), (80, 24)] {
        screen(&mut app, w, h);
        keys(&mut app, ":14\n");
        let s = screen(&mut app, w, h);
        assert_eq!(app.cursor, 13);
        let view = app.view_height;
        // The screen is filled as far as the page allows.
        assert!(
            app.top + view >= n || app.top == 0,
            "{w}x{h}: top {} of {n} lines in {view} rows leaves rows empty\n{s}",
            app.top
        );
        assert!(row_of_line(&s, n.min(app.top + view)).is_some(), "{s}");
        // The cursor has context above it: the headline (line 9) is on screen.
        let ctx = cescope::tui::app::context_rows(view).min(13);
        assert!(app.cursor - app.top >= ctx, "{w}x{h}: top {}", app.top);
        if view >= 20 {
            assert!(row_of_line(&s, 9).is_some(), "{w}x{h}: the headline\n{s}");
        }
        keys(&mut app, ":1\n");
    }
    // On a long page a jump far down puts a third of the view above its target.
    let mut app = App::open(&sample("wiki-article.html"), opts()).unwrap();
    screen(&mut app, 110, 32);
    let n = app.line_count();
    keys(&mut app, &format!(":{}\n", n / 2));
    screen(&mut app, 110, 32);
    let ctx = cescope::tui::app::context_rows(app.view_height);
    assert_eq!(app.cursor - app.top, ctx);
    // A jump to a line already on screen with context does not move the view.
    let top = app.top;
    keys(&mut app, &format!(":{}\n", n / 2 + 2));
    assert_eq!(app.top, top);
    // The last line: the view ends with it, full.
    keys(&mut app, &format!(":{n}\n"));
    screen(&mut app, 110, 32);
    assert_eq!(app.top + app.view_height, n);
}

/// Issue 19, item 5: `f` / `m` (next false-positive / false-negative region) wrap around to
/// the first one, saying so, instead of stopping at the last.
#[test]
fn false_positive_and_negative_jumps_wrap_around() {
    let dir = gold_corpus();
    let mut app = App::open(&dir.path().join("ground-truth.json"), opts()).unwrap();
    screen(&mut app, 110, 32);
    use cescope::tui::app::LineClass;
    let starts = |app: &App, want: LineClass| -> Vec<usize> {
        (0..app.line_count())
            .filter(|&i| {
                app.line_class(i) == Some(want) && (i == 0 || app.line_class(i - 1) != Some(want))
            })
            .collect()
    };
    let fp_starts = starts(&app, LineClass::FalsePositive);
    assert!(fp_starts.len() >= 2, "the headline and the share line");
    app.handle_key(KeyEvent::new(KeyCode::End, KeyModifiers::NONE));
    keys(&mut app, "f");
    assert_eq!(
        app.cursor, fp_starts[0],
        "wrapped to the first false-positive region"
    );
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("wrapped around"), "{s}");
    keys(&mut app, "f");
    assert_eq!(app.cursor, fp_starts[1]);
    assert!(!screen(&mut app, 110, 32).contains("wrapped around"));
    // False negatives: a gap of 0 leaves paragraphs out.
    keys(&mut app, "[[");
    let fn_starts = starts(&app, LineClass::FalseNegative);
    assert!(!fn_starts.is_empty(), "gap 0 misses some of the gold");
    app.handle_key(KeyEvent::new(KeyCode::End, KeyModifiers::NONE));
    keys(&mut app, "m");
    assert_eq!(app.cursor, fn_starts[0]);
    assert!(screen(&mut app, 110, 32).contains("wrapped around"));
    for &next in fn_starts.iter().skip(1) {
        keys(&mut app, "m");
        assert_eq!(app.cursor, next);
    }
}

/// Is the cursor on the line of the active algorithm's first selected byte?
fn at_first_selected(app: &App) -> bool {
    let x = app.active_algo().result.clone().expect("a result");
    let first = x.selection.ranges().first().expect("a selection").start;
    app.line_range(app.cursor).unwrap().contains(&first)
}

/// Issue 19, item 5: a page opens at its main content — the gold standard's first line when it
/// has one, else the active algorithm's first selected line — not at `<head>`; also a corpus
/// page opened with `>`, and when the algorithm runs on a worker thread (unless the user moved
/// before its result arrived).
#[test]
fn pages_open_at_the_selection() {
    // No gold: DANAg's first selected line.
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    assert!(at_first_selected(&app));
    let s = screen(&mut app, 110, 32);
    assert!(row_of_line(&s, app.cursor + 1).is_some(), "on screen\n{s}");
    assert!(app.cursor > 0 && app.top < app.cursor, "with context above");
    // Gold (a ground-truth corpus): the gold's first line, not the algorithm's.
    let dir = gold_corpus();
    let app = App::open(&dir.path().join("ground-truth.json"), opts()).unwrap();
    assert!(
        cursor_text(&app).contains("The harbour board"),
        "{:?}",
        cursor_text(&app)
    );
    // A corpus page opened with `>`.
    let pages = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-pages");
    let mut app = App::open(&pages, opts()).unwrap();
    keys(&mut app, ">");
    assert!(at_first_selected(&app), "{}", cursor_text(&app));
    assert!(app.cursor > 0, "{}", cursor_text(&app));
    // A DOM algorithm runs on a worker thread: the view goes to its selection on arrival.
    let worker = AppOptions {
        inline_jobs: false,
        algo: "cetd".into(),
        ..opts()
    };
    let wait = |app: &mut App| {
        let t = Instant::now();
        while app.active_algo().result.is_none() && t.elapsed() < Duration::from_secs(20) {
            app.poll_background();
            std::thread::sleep(Duration::from_millis(5));
        }
        app.poll_background();
    };
    let mut app = App::open(&sample("news-article.html"), worker.clone()).unwrap();
    assert_eq!(app.cursor, 0, "cetd is still running");
    wait(&mut app);
    assert!(at_first_selected(&app));
    // The user moved before the result came: the view stays where the user put it.
    let mut app = App::open(&sample("news-article.html"), worker).unwrap();
    keys(&mut app, "JJ");
    wait(&mut app);
    assert!(app.active_algo().result.is_some());
    assert_eq!(app.cursor, 2);
}

/// The legend's names (source panel title) as they are drawn: each `▌name`.
fn legend_names(s: &str) -> Vec<String> {
    let title = s.lines().next().unwrap();
    title
        .split('▌')
        .skip(1)
        .map(|t| t.split_whitespace().next().unwrap_or("").to_string())
        .collect()
}

/// Issue 19, item 6: the active algorithm always shows its overlay; others only when overlaid
/// explicitly (`o`). Cycling with `a` leaves no trail of gutter columns, and the legend never
/// ends mid-name ("+N more" when the names do not fit).
#[test]
fn cycling_algorithms_leaves_no_overlay_trail() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    let names: Vec<String> = app
        .algos
        .iter()
        .map(|a| a.extractor.name().to_string())
        .collect();
    // danag to cetd: seven presses.
    keys(&mut app, "aaaaaaa");
    assert_eq!(app.active_algo().extractor.name(), "cetd");
    let s = screen(&mut app, 110, 32);
    assert_eq!(app.gutter_columns(), vec![app.active], "one column");
    assert_eq!(legend_names(&s), ["cetd"], "{s}");
    // Overlaid explicitly, cetd stays when the next one is active.
    keys(&mut app, "oa");
    assert_eq!(app.active_algo().extractor.name(), "sw");
    let s = screen(&mut app, 110, 32);
    assert_eq!(legend_names(&s), ["cetd", "sw"], "{s}");
    // And goes with `o` again (on cetd, active).
    keys(&mut app, "Ao");
    keys(&mut app, "a");
    let s = screen(&mut app, 110, 32);
    assert_eq!(legend_names(&s), ["sw"], "{s}");
    // A full cycle with every algorithm overlaid: the legend holds whole names and says how
    // many it leaves out.
    for _ in 0..app.algos.len() {
        keys(&mut app, "oa");
    }
    for w in [80u16, 110, 160] {
        let s = screen(&mut app, w, 32);
        let title = s.lines().next().unwrap();
        for n in legend_names(&s) {
            assert!(
                names.contains(&n) || n == "gold",
                "{w}: {n:?} cut in {title}"
            );
        }
        assert!(title.contains(" more"), "{w}: {title}");
        assert!(
            legend_names(&s).contains(&app.active_algo().extractor.name().to_string()),
            "the active one is named: {title}"
        );
    }
    insta::assert_snapshot!("legend_many_overlays", screen(&mut app, 110, 32));
}

/// Issue 19, item 6: the picker (`p`) chooses the active algorithm by name: typing filters
/// (substring, case-insensitive), ↓ moves, Enter chooses, Esc cancels; nothing typed in it
/// falls through to a command.
#[test]
fn algorithm_picker_by_name() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    let danag = app.active;
    keys(&mut app, "p");
    assert!(app.picker().is_some());
    assert_eq!(app.picker_matches().len(), app.algos.len());
    type_text(&mut app, "CET");
    let m: Vec<&str> = app
        .picker_matches()
        .iter()
        .map(|&i| app.algos[i].extractor.name())
        .collect();
    assert_eq!(m, ["cetd", "cetr"]);
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("choose the active algorithm — 2 of"), "{s}");
    assert!(s.contains("PICK ALGORITHM"), "{s}");
    insta::assert_snapshot!("picker", s);
    keys(&mut app, "J\n");
    assert_eq!(app.active_algo().extractor.name(), "cetr");
    assert!(app.picker().is_none());
    // Keys typed in the picker are text: q does not quit, a does not cycle, Esc cancels.
    keys(&mut app, "p");
    type_text(&mut app, "qa");
    assert!(!app.quit);
    assert_eq!(app.active_algo().extractor.name(), "cetr");
    assert!(app.picker_matches().is_empty());
    assert!(screen(&mut app, 110, 32).contains("no algorithm name contains \"qa\""));
    keys(&mut app, "\n");
    assert!(
        app.picker().is_some(),
        "Enter with no match keeps the picker"
    );
    keys(&mut app, "\u{1b}");
    assert!(app.picker().is_none());
    assert_eq!(app.active_algo().extractor.name(), "cetr");
    // A prefix match comes first: "dana" lists dana and danag before addanag.
    keys(&mut app, "p");
    type_text(&mut app, "dana");
    let m: Vec<&str> = app
        .picker_matches()
        .iter()
        .map(|&i| app.algos[i].extractor.name())
        .collect();
    assert_eq!(m, ["dana", "danag", "addanag"]);
    keys(&mut app, "J\n");
    assert_eq!(app.active, danag);
    // The key is in both keymaps, so the help lists it.
    for km in ["default", "vim"] {
        let map = Keymap::builtin(km).unwrap();
        let label = map.keys_label(cescope::tui::keymap::Action::PickAlgorithm);
        assert!(label.contains('p'), "{km}: {label}");
    }
}

/// The text of the explain panel(s) on screen, borders removed, rows joined by spaces.
fn explain_text(s: &str) -> String {
    let rows: Vec<&str> = s
        .lines()
        .skip_while(|l| !l.contains("┌ explain"))
        .skip(1)
        .take_while(|l| !l.trim_matches('"').starts_with('└'))
        .collect();
    rows.iter()
        .map(|l| l.trim_matches('"').trim_matches('│').trim())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Issue 19, item 7: the explain panel shows its whole text (it was cut at three lines: cetr
/// ended "…; in content"), at every size.
#[test]
fn explain_panel_is_not_cut() {
    for name in ["cetr", "danag", "mix4"] {
        let o = AppOptions {
            algo: name.into(),
            ..opts()
        };
        let mut app = App::open(&sample("news-article.html"), o).unwrap();
        keys(&mut app, "}");
        let page = app.doc.as_ref().unwrap().page.clone();
        let x = app.active_algo().result.clone().unwrap();
        let said = app
            .active_algo()
            .extractor
            .explain(&page, &x, cescope::algorithms::Location::Line(app.cursor))
            .join("; ");
        let norm = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        for (w, h) in [(80u16, 24u16), (110, 32), (160, 48)] {
            let s = screen(&mut app, w, h);
            let shown = norm(&explain_text(&s));
            assert!(
                shown.contains(&norm(&said)),
                "{name} {w}x{h}: explain cut\nsaid: {said}\nshown: {shown}\n{s}"
            );
        }
    }
}

/// The teaching page with its gold standard (the project's `gold/teaching.json`, read only).
fn teaching_with_gold() -> App {
    let o = AppOptions {
        gold_dir: Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("gold")),
        ..opts()
    };
    App::open(&sample("teaching.html"), o).unwrap()
}

/// Issue 19, item 7: step mode gives nothing away. On the teaching page, with its gold: the
/// status bar shows P / R / F1 only at the extraction (last) step; the seed phase does not say
/// "selected"; at "1 revealed" of the gap expansion a line of r2 is "not reached yet", at "2
/// revealed" it joins; the overview column shows no selection before it is decided; the
/// focused slider is marked.
#[test]
fn step_mode_hides_later_phases_and_the_scores() {
    let mut app = teaching_with_gold();
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("F1 1.000"), "teaching.html has its gold: {s}");
    assert!(s.contains("▸ gap "), "the focused slider is marked: {s}");
    keys(&mut app, "s:19\n");
    let phases = phase_names(&app);
    let mut all = String::new();
    loop {
        let step = app.step.unwrap();
        let s = screen(&mut app, 110, 32);
        all.push_str(&format!("=== {:?} {:?} ===\n{s}\n", app.step, app.substep));
        let status = s.lines().rev().nth(1).unwrap();
        let last = step + 1 == phases.len();
        assert_eq!(
            status.contains("F1 1.000"),
            last,
            "step {}: {status}",
            step + 1
        );
        assert_eq!(s.contains("chars selected"), last, "step {}", step + 1);
        let explain = explain_text(&s);
        // The overview column (the screen's last histogram column) shows the selection only
        // once the gap expansion has revealed it.
        let overview_marked = s.lines().skip(1).take(20).any(|l| {
            let cols: Vec<char> = l.chars().collect();
            cols.len() >= 2 && cols[cols.len() - 2] == '▐'
        });
        match phases[step] {
            "gap expansion" => match app.substep {
                Some(1) => {
                    assert!(explain.contains("r2 is not reached yet"), "{explain}");
                    assert!(!explain.contains("-> selected"), "{explain}");
                }
                Some(2) => assert!(
                    explain.contains("d(r1, r2) = 5 <= gap 20") && explain.contains("-> selected"),
                    "{explain}"
                ),
                k => panic!("substep {k:?}"),
            },
            "extraction" => assert!(explain.contains("-> selected"), "{explain}"),
            _ => {
                assert!(!explain.contains("selected"), "{}: {explain}", phases[step]);
                assert!(!overview_marked, "{}: overview\n{s}", phases[step]);
            }
        }
        if last {
            break;
        }
        keys(&mut app, ".");
    }
    // The seed phase names the seed without the verdict, also on the seed's own lines.
    keys(&mut app, "s");
    keys(&mut app, "s....:14\n");
    assert_eq!(phases[app.step.unwrap()], "seed");
    let explain = explain_text(&screen(&mut app, 110, 32));
    assert!(
        explain.contains("r1 is the seed region") && !explain.contains("selected"),
        "{explain}"
    );
    insta::assert_snapshot!("teaching_steps", all);
}

/// The README's "Teaching: DANAg on one screen", key by key as written there, with each
/// number it states checked on screen (the page's gold from the project's `gold/`).
#[test]
fn teaching_walkthrough_as_in_the_readme() {
    let mut app = teaching_with_gold();
    let see = |app: &mut App, keys_: &str, want: &[&str]| {
        keys(app, keys_);
        let s = screen(app, 160, 48);
        let flat = s
            .lines()
            .map(|l| l.trim_matches('"').trim_matches('│').trim())
            .collect::<Vec<_>>()
            .join(" ");
        let flat = flat.split_whitespace().collect::<Vec<_>>().join(" ");
        for w in want {
            assert!(
                flat.contains(w),
                "after {keys_:?}: {w:?} not on screen\n{s}"
            );
        }
        s
    };
    // Open: the whole page on screen, the cursor on line 10.
    let s = see(&mut app, "", &["P 1.000 R 1.000 F1 1.000"]);
    assert_eq!((app.cursor, app.top), (9, 0));
    assert!(row_of_line(&s, 1).is_some() && row_of_line(&s, 23).is_some());
    // 1. preprocessing
    let s = see(&mut app, "s", &["STEP 1/7", "23 virtual lines"]);
    assert!(!s.contains("F1 1.000"), "P / R / F1 wait for the last step");
    // 2. T1 / T2
    see(
        &mut app,
        ".",
        &["line 10: T1 (content chars) = 11, T2 (code chars, Formula 4.5) = 0"],
    );
    see(
        &mut app,
        ":9\n",
        &["line 9: T1 (content chars) = 0, T2 (code chars, Formula 4.5) = 4"],
    );
    see(
        &mut app,
        ":8\n",
        &["line 8: T1 (content chars) = 0, T2 (code chars, Formula 4.5) = 5"],
    );
    // 3. smoothing
    see(
        &mut app,
        ":9\n.",
        &["step 3/7 — smoothing", "line 9:", "diff = 2 (Formula 4.2)"],
    );
    // 4. regions
    see(&mut app, ".", &["in region r1 = [9, 14] (sum of T1 = 47)"]);
    see(
        &mut app,
        ":19\n",
        &["in region r2 = [18, 20] (sum of T1 = 37)"],
    );
    // 5. seed
    see(
        &mut app,
        ".",
        &["step 5/7 — seed", "the seed region is r1 (sum of T1 = 47)"],
    );
    // 6. gap expansion
    see(&mut app, ".", &["1 revealed", "r2 is not reached yet"]);
    let t = render(&mut app, 160, 48);
    assert_eq!(axis_colour(&app, &t, 18), Color::Blue, "r2 still blue");
    see(
        &mut app,
        ".",
        &[
            "2 revealed",
            "d(r1, r2) = 5 <= gap 20 on the way from the seed r1 -> selected",
        ],
    );
    let t = render(&mut app, 160, 48);
    assert_eq!(axis_colour(&app, &t, 18), Color::Green, "r2 joined");
    let s = see(&mut app, "", &["▸ gap"]);
    assert!(!s.contains("F1 1.000"));
    see(&mut app, "[", &["gap=10"]);
    see(
        &mut app,
        "------",
        &[
            "gap=4",
            "the chain from the seed r1 breaks at d(r1, r2) = 5 > gap 4 -> not selected",
        ],
    );
    see(
        &mut app,
        "+",
        &[
            "gap=5",
            "d(r1, r2) = 5 <= gap 5 on the way from the seed r1 -> selected",
        ],
    );
    // 7. extraction
    see(
        &mut app,
        ".",
        &["STEP 7/7", "84 chars selected", "P 1.000 R 1.000 F1 1.000"],
    );
}
