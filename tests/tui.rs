//! Rendering snapshots of the inspector (ratatui `TestBackend` + insta), driven by scripted key
//! events through the same `App::handle_key` the terminal loop uses. Highlighting is off and
//! extractions run inline so every frame is deterministic.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cescope::tui::app::{App, AppOptions};
use cescope::tui::keymap::Keymap;
use cescope::tui::ui;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Color;
use ratatui::Terminal;

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample-pages")
        .join(name)
}

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

fn keys(app: &mut App, s: &str) {
    for c in s.chars() {
        let code = match c {
            '\t' => KeyCode::Tab,
            '\n' => KeyCode::Enter,
            '\u{1b}' => KeyCode::Esc,
            'J' => KeyCode::Down,
            'K' => KeyCode::Up,
            c => KeyCode::Char(c),
        };
        app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
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
    assert_eq!(app.active_algo().params.int("gap", 0), 5);
    let after = app.active_algo().result.clone().unwrap();
    assert!(
        after.selection.len_bytes() * 2 < before.selection.len_bytes(),
        "a small gap stops at the subheading between the article's paragraphs"
    );
    keys(&mut app, "}");
    insta::assert_snapshot!("gap_5", screen(&mut app, 110, 32));
    keys(&mut app, "0");
    assert_eq!(app.active_algo().params.int("gap", 0), 20);
    assert_eq!(
        app.active_algo().result.as_ref().unwrap().selection,
        before.selection
    );
}

#[test]
fn two_overlays() {
    let mut app = App::open(&sample("wiki-article.html"), opts()).unwrap();
    // danag is active with its overlay; switch to addanag (its overlay turns on too).
    keys(&mut app, "a");
    assert_eq!(app.active_algo().extractor.name(), "addanag");
    assert_eq!(app.algos.iter().filter(|a| a.overlay).count(), 2);
    keys(&mut app, "}");
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
    let s = screen(&mut app, 180, 44);
    for row in app.opts.keymap.help_rows() {
        assert!(
            s.contains(row.description),
            "help lacks {:?}",
            row.description
        );
    }
    insta::assert_snapshot!("help", s);
    // Any other action closes help.
    keys(&mut app, "\u{1b}");
    assert!(!app.help);
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
    assert_eq!(app.corpus.as_ref().unwrap().entries.len(), 9);
    keys(&mut app, "nn");
    assert_eq!(app.corpus.as_ref().unwrap().current, 2);
    insta::assert_snapshot!("corpus", screen(&mut app, 120, 32));
    // Filter by name, then the next page stays within the filter.
    keys(&mut app, "/legacy\n");
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
    assert!(app.raw_lines);
    assert_eq!(
        app.line_count(),
        1,
        "the minified page is one physical line"
    );
    assert_eq!(app.cursor, 0);
    keys(&mut app, "r");
    assert!(app.cursor <= v);
    let _ = screen(&mut app, 100, 30);
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
    assert_eq!(app.active_algo().params.int("gap", 0), 0);
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
    app.handle_mouse(mouse(
        MouseEventKind::ScrollDown,
        r.source.x + 5,
        r.source.y + 2,
    ));
    assert_eq!(app.top, 3);
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
    assert_eq!(app.active_algo().params.int("gap", -1), 200);
    app.handle_mouse(mouse(MouseEventKind::Down(MouseButton::Left), s.x, s.y));
    assert_eq!(app.active_algo().params.int("gap", -1), 0);
    // A click on a choice cycles it.
    let c = app.rects.params[1];
    app.handle_mouse(mouse(MouseEventKind::Down(MouseButton::Left), c.x + 1, c.y));
    assert_eq!(app.active_algo().params.choice("smoothing", ""), "none");
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
