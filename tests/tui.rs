//! Rendering snapshots of the inspector (ratatui `TestBackend` + insta), driven by scripted key
//! events through the same `App::handle_key` the terminal loop uses: the main screens, panels
//! and popups, the region tables, the status bar and the legend at several sizes, awkward
//! pages, and the README's teaching walkthrough. Highlighting is off and extractions run inline
//! so every frame is deterministic. The algorithms' views are tested in `tui_algorithms.rs`,
//! annotation in `tui_annotate.rs`, moving about in `tui_navigate.rs`; the helpers they share
//! are in `common/tui.rs`.

#![cfg(feature = "tui")]

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use cescope::tui::app::{App, AppOptions, View};
use cescope::tui::keymap::Keymap;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Color;
use ratatui::Terminal;

use common::tui::{
    axis_colour, cursor_text, explain_text, gap, gold_corpus, keys, line_starting, opts,
    opts_with_gold, render, row_of_line, sample, screen, teaching_with_gold, tui_snapshot,
    type_text,
};

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

/// The legend's names (source panel title) as they are drawn: each `▌name`.
fn legend_names(s: &str) -> Vec<String> {
    let title = s.lines().next().unwrap();
    title
        .split('▌')
        .skip(1)
        .map(|t| t.split_whitespace().next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn main_screen() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    keys(&mut app, "}");
    tui_snapshot!("main_screen", screen(&mut app, 110, 32));
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
    tui_snapshot!("gap_5", screen(&mut app, 110, 32));
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
    tui_snapshot!("two_overlays", t.backend().to_string());
}

#[test]
fn explain_and_step_mode() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    keys(&mut app, "}");
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("selected"), "{s}");
    tui_snapshot!("explain", s);
    keys(&mut app, "s...");
    assert_eq!(app.step, Some(3));
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("step 4/7 — regions"), "{s}");
    tui_snapshot!("step_regions", s);
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
    tui_snapshot!("help", s);
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

#[test]
fn corpus_mode() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-pages");
    let mut app = App::open(&dir, opts()).unwrap();
    wait_for_encodings(&mut app);
    assert_eq!(app.corpus.as_ref().unwrap().entries.len(), 11);
    keys(&mut app, ">>");
    assert_eq!(app.corpus.as_ref().unwrap().current, 2);
    tui_snapshot!("corpus", screen(&mut app, 120, 32));
    // Filter by name, then the next page stays within the filter.
    keys(&mut app, "Flegacy\n");
    let c = app.corpus.as_ref().unwrap();
    assert_eq!(c.visible().len(), 2);
    assert!(c.entries[c.current].id.starts_with("legacy"));
    tui_snapshot!("corpus_filtered", screen(&mut app, 120, 32));
}

/// Issue 30, item 6: the page filter starts from an empty input (the last filter is not left
/// in it to be typed after), Ctrl-U clears what was typed, control keys are not typed, and the
/// list shows each page's id.
#[test]
fn page_filter_starts_empty_and_ctrl_u_clears_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-pages");
    let mut app = App::open(&dir, opts()).unwrap();
    wait_for_encodings(&mut app);
    let filter = |app: &App| app.corpus.as_ref().unwrap().filter.clone();
    let visible = |app: &App| app.corpus.as_ref().unwrap().visible().len();
    keys(&mut app, "Flegacy\n");
    assert_eq!(visible(&app), 2);
    // A new `F`: the input is empty (every page listed) rather than `legacy` typed on.
    keys(&mut app, "F");
    assert_eq!(filter(&app), "");
    assert_eq!(visible(&app), 11);
    let s = screen(&mut app, 120, 32);
    assert!(s.contains("/▏ draft|flagged"), "{s}");
    type_text(&mut app, "wiki");
    assert_eq!(filter(&app), "wiki");
    let ctrl = |c: char| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
    app.handle_key(ctrl('u'));
    assert_eq!(filter(&app), "", "Ctrl-U clears the input");
    app.handle_key(ctrl('w'));
    assert_eq!(filter(&app), "", "a control key is not typed");
    type_text(&mut app, "news");
    app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert_eq!(filter(&app), "news");
    // The list names each page by its id.
    let s = screen(&mut app, 120, 32);
    assert!(s.contains("news-article"), "{s}");
}

/// Issue 30, item 6: a JavaScript shell (no text outside `<script>` and `<title>`) is named as
/// such in the status bar; a page with text is not.
#[test]
fn a_javascript_shell_is_named_in_the_status_bar() {
    let dir = tempfile::tempdir().unwrap();
    let shell = dir.path().join("app.html");
    std::fs::write(
        &shell,
        "<!doctype html><html><head><title>Acme</title><script src=/main.js></script></head>\
         <body><div id=root></div><script>boot()</script></body></html>",
    )
    .unwrap();
    let mut app = App::open(&shell, opts()).unwrap();
    assert!(app.doc.as_ref().unwrap().shell.is_shell());
    let s = screen(&mut app, 140, 30);
    assert!(s.contains(" JS SHELL "), "{s}");
    assert!(s.contains("JavaScript shell: 0 words"), "{s}");
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    assert!(!screen(&mut app, 140, 30).contains("JS SHELL"));
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
    let v = app.source.cursor();
    assert!(v > 0);
    keys(&mut app, "r");
    assert_eq!(app.view(), View::Raw);
    assert_eq!(
        app.line_count(),
        1,
        "the minified page is one physical line"
    );
    assert_eq!(app.source.cursor(), 0);
    keys(&mut app, "r");
    assert_eq!(app.source.cursor(), v, "back on the same virtual line");
    let _ = screen(&mut app, 100, 30);
    // Round trips on a page whose raw lines hold several virtual lines never drift.
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    let _ = screen(&mut app, 100, 30);
    // The headline text: the second virtual line of the raw line `<h1 …>text</h1>`.
    app.source.set_cursor(line_starting(&app, "<h1") + 1);
    let v = app.source.cursor();
    assert!(cursor_text(&app).starts_with("Castlebridge"));
    for _ in 0..5 {
        keys(&mut app, "rr");
        let _ = screen(&mut app, 100, 30);
    }
    assert_eq!(app.source.cursor(), v, "five round trips");
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
    let line = app.source.cursor();
    assert_eq!(
        app.line_class(line),
        Some(cescope::tui::app::LineClass::FalsePositive)
    );
    let s = screen(&mut app, 110, 32);
    assert!(s.contains(&format!("F1 {:.3}", prf.f1)), "{s}");
    tui_snapshot!("compare", s);
    // A slider move updates P / R / F1.
    keys(&mut app, "[[");
    let after = app.active_algo().prf.unwrap();
    assert_eq!(gap(&app), 0);
    let s = screen(&mut app, 110, 32);
    assert!(s.contains(&format!("F1 {:.3}", after.f1)), "{s}");
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
    tui_snapshot!("size_80x24", s);
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
        let mut app = App::open(&path, opts_with_gold(gold_dir.path())).unwrap();
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

/// The page list shows the start of a 64-digit id and the site and path of the gold's URL, the
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
        "abababab… river-news.example/local/2024/flood-barrier-delayed?ref=rss",
        "the id's first digits (issue 30: ids in the list), then the URL"
    );
    assert_eq!(e.html_bytes, Some(html.len() as u64));
    assert!(e.bytes < html.len() as u64 / 10, "stored compressed");
    assert!(app.corpus.as_ref().unwrap().list_open);
    let s = screen(&mut app, 120, 32);
    // The URL is cut at its end in the row, and shown whole (wrapped) below the list.
    assert!(s.contains("   abababab… river-n"), "{s}");
    assert!(
        s.contains("│river-news.example/local/202") && s.contains("│rss "),
        "{s}"
    );
    assert!(s.contains("51K"), "decompressed size: {s}");
    let row = s.lines().nth(1).unwrap();
    assert!(!row.contains(&id[..16]), "not the whole hex id: {s}");
    assert!(s.contains("✓0 ⚑0 ✎0 /1"), "{s}");
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
    let mut app = App::open(&gt, opts_with_gold(gold_dir.path())).unwrap();
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
    tui_snapshot!("status_bar_widths", all);
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
    tui_snapshot!("legend", s);
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
    app.source.set_cursor(big);
    app.source.set_top(big);
    let s = screen(&mut app, 110, 32);
    let row = s.lines().nth(1).unwrap();
    assert!(
        row.contains(&format!("{}▸", t1.values[big] as i64)),
        "{row}"
    );
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
    // The count depends on the build (the opt-in `reference` feature registers two more): it
    // is checked here, then written as NN so that one snapshot holds for every build.
    let s = screen(&mut app, 110, 32);
    let title = s.lines().next().unwrap();
    let more: usize = title
        .split(" more")
        .next()
        .and_then(|t| t.rsplit('+').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no \"+N more\" in {title}"));
    assert_eq!(legend_names(&s).len() + more, app.algos.len(), "{title}");
    let s = s.replacen(&format!("+{more} more"), "+NN more", 1);
    tui_snapshot!("legend_many_overlays", s);
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
    let of_all = format!("choose the active algorithm — 2 of {} ·", app.algos.len());
    assert!(s.contains(&of_all), "{s}");
    assert!(s.contains("PICK ALGORITHM"), "{s}");
    // The registry's size depends on the build (the opt-in `reference` feature adds two).
    let s = s.replacen(&of_all, "choose the active algorithm — 2 of NN ·", 1);
    tui_snapshot!("picker", s);
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
            .explain(
                &page,
                &x,
                cescope::extract::Location::Line(app.source.cursor()),
                None,
            )
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

/// The region table (`b`) of the active algorithm on the teaching page: both regions with
/// their T1 / T2 sums, the lines between them, seed and selected, DANAg's verdicts; ↓ and Enter
/// jump to the second region.
#[test]
fn region_table_lists_and_jumps() {
    let mut app = App::open(&sample("teaching.html"), opts()).unwrap();
    // The page opens at DANAg's first selected line: 10, "River rises".
    assert_eq!(app.source.cursor(), 9);
    keys(&mut app, "b");
    assert!(app.table.is_open());
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
    tui_snapshot!("region_table", s);
    keys(&mut app, "J");
    app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert!(!app.table.is_open(), "Enter closes the table");
    assert_eq!(app.source.cursor(), 17, "on r2's first line (18)");
    // Back where we were with the jump list.
    keys(&mut app, "'");
    assert_eq!(app.source.cursor(), 9);
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
    tui_snapshot!("side_by_side_explain", s);
    keys(&mut app, "b");
    let s = screen(&mut app, 160, 40);
    assert!(
        s.contains("addanag: regions") && s.contains("danag: regions"),
        "{s}"
    );
    tui_snapshot!("side_by_side_tables", s);
    // Unpinning returns to one explain panel.
    keys(&mut app, "\u{1b}P");
    assert_eq!(app.second, None);
    assert!(!screen(&mut app, 160, 40).contains("explain — danag"));
}

/// The README's "Teach with step mode: DANAg on one screen", key by key as written there, with each
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
    assert_eq!((app.source.cursor(), app.source.top()), (9, 0));
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

/// Issue 31, item 3: a frame is worked out again (`ui::prepare`) after every change of what it
/// shows — a cursor move, a page down, a parameter step, another algorithm, the histogram's
/// signals, a table, the explain panel, a click on the histogram, a resized terminal — and each
/// of them changes the screen. (In the tests' set-up a frame prepare skips is also worked out
/// and compared, so a change that forgot to mark the app changed fails here too.)
#[test]
fn every_change_works_the_frame_out_again() {
    let mut app = App::open(&sample("wiki-article.html"), opts()).unwrap();
    let mut t = Terminal::new(TestBackend::new(120, 40)).unwrap();
    // The screen with its colours (the cursor's row on the histogram's axis is a colour).
    let draw = |app: &mut App, t: &mut Terminal<TestBackend>| {
        t.draw(|f| cescope::tui::ui::frame(f, app)).unwrap();
        t.backend().buffer().clone()
    };
    draw(&mut app, &mut t);
    let mut last = draw(&mut app, &mut t);
    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }
    type Change = Box<dyn Fn(&mut App)>;
    let changes: Vec<(&str, Change)> = vec![
        (
            "cursor down",
            Box::new(|a| a.handle_key(key(KeyCode::Down))),
        ),
        (
            "page down",
            Box::new(|a| a.handle_key(key(KeyCode::PageDown))),
        ),
        ("parameter up", Box::new(|a| keys(a, "++"))),
        ("histogram signals", Box::new(|a| keys(a, "d"))),
        ("next algorithm", Box::new(|a| keys(a, "a"))),
        ("region table", Box::new(|a| keys(a, "b"))),
        ("table closed", Box::new(|a| keys(a, "\u{1b}"))),
        ("explain panel", Box::new(|a| keys(a, "e"))),
    ];
    for (what, change) in &changes {
        let before = app.frame_recomputes();
        change(&mut app);
        let now = draw(&mut app, &mut t);
        assert!(app.frame_recomputes() > before, "{what}: not worked out");
        assert_ne!(now, last, "{what}: the screen did not change");
        last = now;
    }
    // A click on a histogram bar moves the cursor to its line.
    let h = app.rects.histogram;
    let row = if app.source.cursor() == app.source.top() + 5 {
        6
    } else {
        5
    };
    let line = app.source.top() + usize::from(row);
    let before = app.frame_recomputes();
    app.handle_mouse(ratatui::crossterm::event::MouseEvent {
        kind: ratatui::crossterm::event::MouseEventKind::Down(
            ratatui::crossterm::event::MouseButton::Left,
        ),
        column: h.x + 1,
        row: h.y + row,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(app.source.cursor(), line);
    let now = draw(&mut app, &mut t);
    assert!(app.frame_recomputes() > before, "click: not worked out");
    assert_ne!(now, last, "click: the screen did not change");
    // A resized terminal.
    let before = app.frame_recomputes();
    t.backend_mut().resize(100, 30);
    let now = draw(&mut app, &mut t);
    assert!(app.frame_recomputes() > before, "resize: not worked out");
    assert_eq!((now.area.width, now.area.height), (100, 30));
}

/// Issue 31, item 3: a frame drawn again with nothing changed — a second draw, a mouse move, a
/// key release — is not worked out again, and shows the same screen.
#[test]
fn a_redraw_with_nothing_changed_works_nothing_out() {
    use ratatui::crossterm::event::{KeyEventKind, MouseEvent, MouseEventKind};
    let mut app = App::open(&sample("wiki-article.html"), opts()).unwrap();
    keys(&mut app, "eb");
    let mut t = render(&mut app, 120, 40);
    let first = t.backend().to_string();
    let n = app.frame_recomputes();
    assert!(n >= 1);
    for k in 0..5u16 {
        app.handle_mouse(MouseEvent {
            kind: MouseEventKind::Moved,
            column: 10 + k,
            row: 10,
            modifiers: KeyModifiers::NONE,
        });
        let mut release = KeyEvent::new(KeyCode::Down, KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        app.handle_key(release);
        t.draw(|f| cescope::tui::ui::frame(f, &mut app)).unwrap();
        assert_eq!(t.backend().to_string(), first);
    }
    assert_eq!(
        app.frame_recomputes(),
        n,
        "a frame with nothing changed was worked out"
    );
    // The next key is a change.
    keys(&mut app, "J");
    t.draw(|f| cescope::tui::ui::frame(f, &mut app)).unwrap();
    assert_eq!(app.frame_recomputes(), n + 1);
}

/// The safety net of the frame kept: in the tests' set-up (a debug build, inline jobs) a change
/// made behind the app's back — a field set directly, without `App::changed` — is found
/// at the next frame instead of leaving a stale screen.
#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "stale frame")]
fn a_change_behind_the_apps_back_is_caught() {
    let mut app = App::open(&sample("wiki-article.html"), opts()).unwrap();
    let mut t = render(&mut app, 120, 40);
    let n = app.frame_recomputes();
    t.draw(|f| cescope::tui::ui::frame(f, &mut app)).unwrap();
    assert_eq!(app.frame_recomputes(), n, "nothing changed: kept");
    // Step mode turned on by setting the field, not by its key.
    app.step = Some(0);
    t.draw(|f| cescope::tui::ui::frame(f, &mut app)).unwrap();
}
