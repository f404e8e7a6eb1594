//! Moving about the inspector: the mouse, search and go to line, the jump list and the jumps to
//! the headline, seed and false positives / negatives, and where a page opens. Snapshots keep
//! their names from `tests/tui.rs` (`tui__…`).

#![cfg(feature = "tui")]

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use cescope::eval::diff::DiffKind;
use cescope::tui::app::{App, AppOptions};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use common::tui::{
    cursor_text, enter, gap, gold_corpus, keys, mouse, opts, render, row_of_line, sample, screen,
    tui_snapshot, type_text,
};

/// Is the cursor on the line of the active algorithm's first selected byte?
fn at_first_selected(app: &App) -> bool {
    let x = app.active_algo().result.clone().expect("a result");
    let first = x.selection.ranges().first().expect("a selection").start;
    app.line_range(app.source.cursor())
        .unwrap()
        .contains(&first)
}

#[test]
fn mouse_wheel_histogram_click_and_slider_click() {
    use ratatui::crossterm::event::{MouseButton, MouseEventKind};
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    let _ = screen(&mut app, 110, 32);
    // The wheel scrolls three lines.
    let r = app.rects.clone();
    let top = app.source.top();
    app.handle_mouse(mouse(
        MouseEventKind::ScrollDown,
        r.source.x + 5,
        r.source.y + 2,
    ));
    assert_eq!(app.source.top(), top + 3);
    // A click on the histogram moves the cursor to that row.
    app.handle_mouse(mouse(
        MouseEventKind::Down(MouseButton::Left),
        r.histogram.x + 2,
        r.histogram.y + 4,
    ));
    assert_eq!(app.source.cursor(), app.source.top() + 4);
    // A click on the overview jumps through the page.
    app.handle_mouse(mouse(
        MouseEventKind::Down(MouseButton::Left),
        r.overview.x,
        r.overview.y + r.overview.height - 1,
    ));
    assert!(
        app.source.cursor() > app.line_count() * 8 / 10,
        "cursor {}",
        app.source.cursor()
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
    let n = app.source.search().unwrap().matches.len();
    assert!(n >= 4, "lower case query matches either case: {n}");
    enter(&mut app);
    assert!(cursor_text(&app).to_lowercase().contains("flood barrier"));
    let first = app.source.cursor();
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
    tui_snapshot!("search", s);
    keys(&mut app, "n");
    assert!(app.source.cursor() > first);
    let second = app.source.cursor();
    keys(&mut app, "N");
    assert_eq!(app.source.cursor(), first);
    // Upper case makes the search case-sensitive.
    keys(&mut app, "/");
    type_text(&mut app, "Flood barrier");
    enter(&mut app);
    assert!(app.source.search().unwrap().matches.len() < n);
    assert!(cursor_text(&app).contains("Flood barrier"));

    // Go to line 40, then back through the jump list, and forward again.
    keys(&mut app, ":");
    type_text(&mut app, "40");
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("go to line :40▏"), "{s}");
    tui_snapshot!("goto_prompt", s);
    enter(&mut app);
    assert_eq!(app.source.cursor(), 39);
    let before_back = app.source.cursor();
    keys(&mut app, "'");
    assert_ne!(app.source.cursor(), 39);
    keys(&mut app, "`");
    assert_eq!(app.source.cursor(), before_back);
    // A line that does not exist is an error, the cursor stays.
    keys(&mut app, ":");
    type_text(&mut app, "99999");
    enter(&mut app);
    assert_eq!(app.source.cursor(), 39);
    assert!(screen(&mut app, 110, 32).contains("no line \"99999\""));
    // Esc cancels typing.
    keys(&mut app, ":");
    type_text(&mut app, "1");
    keys(&mut app, "\u{1b}");
    assert_eq!(app.source.cursor(), 39);

    // First and last selected line of the active algorithm.
    let x = app.active_algo().result.clone().unwrap();
    let sel = x.selection.ranges();
    keys(&mut app, "(");
    assert!(app
        .line_range(app.source.cursor())
        .unwrap()
        .contains(&sel[0].start));
    keys(&mut app, ")");
    let last = sel.last().unwrap().end - 1;
    assert!(app.line_range(app.source.cursor()).unwrap().contains(&last));
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
    let opened = app.source.cursor();
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
        .find(|m| m.role == cescope::extract::Role::Seed)
        .expect("DANAg marks its seed region");
    assert_eq!(app.source.cursor(), seed.spans[0].start);
    // Back twice: the seed jump, then the headline jump.
    keys(&mut app, "''");
    assert_eq!(app.source.cursor(), opened);
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
        assert_eq!(app.source.cursor(), 13);
        let view = app.source.height();
        // The screen is filled as far as the page allows.
        assert!(
            app.source.top() + view >= n || app.source.top() == 0,
            "{w}x{h}: top {} of {n} lines in {view} rows leaves rows empty\n{s}",
            app.source.top()
        );
        assert!(
            row_of_line(&s, n.min(app.source.top() + view)).is_some(),
            "{s}"
        );
        // The cursor has context above it: the headline (line 9) is on screen.
        let ctx = cescope::tui::app::context_rows(view).min(13);
        assert!(
            app.source.cursor() - app.source.top() >= ctx,
            "{w}x{h}: top {}",
            app.source.top()
        );
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
    let ctx = cescope::tui::app::context_rows(app.source.height());
    assert_eq!(app.source.cursor() - app.source.top(), ctx);
    // A jump to a line already on screen with context does not move the view.
    let top = app.source.top();
    keys(&mut app, &format!(":{}\n", n / 2 + 2));
    assert_eq!(app.source.top(), top);
    // The last line: the view ends with it, full.
    keys(&mut app, &format!(":{n}\n"));
    screen(&mut app, 110, 32);
    assert_eq!(app.source.top() + app.source.height(), n);
}

/// Issue 19, item 5: `f` / `m` (next false positive / false negative) wrap around to the
/// first one, saying so, instead of stopping at the last. Issue 30, item 4: they go to the
/// word-level differences ([`cescope::eval::diff`]), the cursor on the first text line of each.
#[test]
fn false_positive_and_negative_jumps_wrap_around() {
    let dir = gold_corpus();
    let mut app = App::open(&dir.path().join("ground-truth.json"), opts()).unwrap();
    screen(&mut app, 110, 32);
    // The first lines of the runs of words of each kind, in page order.
    let starts = |app: &App, want: DiffKind| -> Vec<usize> {
        let mut v: Vec<usize> = app
            .word_diffs()
            .unwrap()
            .iter()
            .filter(|d| d.kind == want)
            .map(|d| app.line_at_byte(d.bytes.start))
            .collect();
        v.dedup();
        v
    };
    let fp_starts = starts(&app, DiffKind::Extra);
    assert!(fp_starts.len() >= 2, "the headline and the share line");
    app.handle_key(KeyEvent::new(KeyCode::End, KeyModifiers::NONE));
    keys(&mut app, "f");
    assert_eq!(
        app.source.cursor(),
        fp_starts[0],
        "wrapped to the first false positive"
    );
    assert!(cursor_text(&app).contains("Channel to be dredged"));
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("wrapped around"), "{s}");
    assert!(s.contains("false positive: 4 words"), "{s}");
    keys(&mut app, "f");
    assert_eq!(app.source.cursor(), fp_starts[1]);
    assert!(!screen(&mut app, 110, 32).contains("wrapped around"));
    // DANAg with a gap of 0 misses the white space between the paragraphs (false negatives
    // line by line), but no word of the gold.
    keys(&mut app, "[[");
    use cescope::tui::app::LineClass;
    assert!((0..app.line_count()).any(|i| app.line_class(i) == Some(LineClass::FalseNegative)));
    let here = app.source.cursor();
    keys(&mut app, "m");
    assert_eq!(app.source.cursor(), here, "nothing to go to");
    assert!(
        common::tui::message(&app).contains("no word-level false negative"),
        "{}",
        common::tui::message(&app)
    );
    // TCCB misses words in two places.
    keys(&mut app, "ptccb\n");
    assert_eq!(app.active_algo().extractor.name(), "tccb");
    let fn_starts = starts(&app, DiffKind::Missing);
    assert_eq!(fn_starts.len(), 2, "tccb misses two runs of the gold");
    app.handle_key(KeyEvent::new(KeyCode::End, KeyModifiers::NONE));
    keys(&mut app, "m");
    assert_eq!(app.source.cursor(), fn_starts[0]);
    assert!(screen(&mut app, 110, 32).contains("wrapped around"));
    for &next in fn_starts.iter().skip(1) {
        keys(&mut app, "m");
        assert_eq!(app.source.cursor(), next);
    }
}

/// A page whose gold holds the words of three paragraphs exactly (no white space between them,
/// no tags), for the algorithm `plain`, which selects all the page's text: its false positives
/// are the title, the white space between the tags and one paragraph. Returns the temporary
/// folder (page and gold) and the app.
fn white_space_page(algo: &str) -> (tempfile::TempDir, App) {
    use cescope::gold::{self, Gold, SaveMode};
    use cescope::page::Page;
    use cescope::selection::Selection;
    let tmp = tempfile::tempdir().unwrap();
    let html = "<html><head><title>Tides</title></head><body>\n<div class=\"story\">\n  \
        <p>Alpha beta gamma delta epsilon.</p>\n\n  <p>Zeta eta theta iota kappa.</p>\n</div>\n\
        <p>Lambda mu nu.</p>\n<div>\n  <p>Xi omicron pi rho sigma tau.</p>\n</div>\n</body></html>\n";
    let path = tmp.path().join("tides.html");
    std::fs::write(&path, html).unwrap();
    let gold_dir = tmp.path().join("gold");
    std::fs::create_dir(&gold_dir).unwrap();
    let page = Page::from_text("tides.html", html);
    let at = |t: &str| {
        let s = html.find(t).unwrap();
        s..s + t.len()
    };
    let mut g = Gold::new(&page, "tester");
    g.set_main_content(
        &page,
        Selection::from_ranges([
            at("Alpha beta gamma delta epsilon."),
            at("Zeta eta theta iota kappa."),
            at("Xi omicron pi rho sigma tau."),
        ]),
    );
    gold::save(&gold_dir.join("tides.json"), &g, SaveMode::New).unwrap();
    let o = AppOptions {
        algo: algo.into(),
        ..common::tui::opts_with_gold(&gold_dir)
    };
    let app = App::open(&path, o).unwrap();
    (tmp, app)
}

/// Issue 30, item 4: `f` / `m` skip differences of white space or markup only — lines where
/// the algorithm selects the white space between tags that the gold leaves out — land on the
/// first text line of a difference in words, and say how many words differ there.
#[test]
fn false_positive_and_negative_jumps_skip_white_space_and_markup() {
    let (_tmp, mut app) = white_space_page("plain");
    screen(&mut app, 110, 40);
    assert!(cursor_text(&app).contains("Alpha"), "opens at the gold");
    // Lines whose only difference is white space: false positives line by line, none in words.
    use cescope::tui::app::LineClass;
    let lambda = common::tui::line_starting(&app, "Lambda");
    let ws_fp = (app.source.cursor() + 1..lambda)
        .find(|&i| app.line_class(i) == Some(LineClass::FalsePositive));
    assert!(
        ws_fp.is_some(),
        "a white-space line before the real false positive"
    );
    keys(&mut app, "f");
    assert_eq!(app.source.cursor(), lambda, "{:?}", cursor_text(&app));
    let s = screen(&mut app, 110, 40);
    assert!(
        s.contains(&format!("false positive: 3 words (line {})", lambda + 1)),
        "{s}"
    );
    assert!(app.compare, "the compare overlay is on");
    // The next one wraps around to the title.
    keys(&mut app, "f");
    assert!(
        cursor_text(&app).contains("Tides"),
        "{:?}",
        cursor_text(&app)
    );
    assert!(common::tui::message(&app).contains("false positive: 1 word (line"));
    // `plain` misses no word of the gold.
    keys(&mut app, "m");
    assert!(
        common::tui::message(&app).contains("no word-level false negative"),
        "{}",
        common::tui::message(&app)
    );
    // With compare on, `}` / `{` walk both kinds: from the title forward to `Lambda`, back
    // to the title.
    keys(&mut app, "}");
    assert_eq!(app.source.cursor(), lambda);
    keys(&mut app, "{");
    assert!(cursor_text(&app).contains("Tides"));
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
    assert!(
        row_of_line(&s, app.source.cursor() + 1).is_some(),
        "on screen\n{s}"
    );
    assert!(
        app.source.cursor() > 0 && app.source.top() < app.source.cursor(),
        "with context above"
    );
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
    assert!(app.source.cursor() > 0, "{}", cursor_text(&app));
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
    assert_eq!(app.source.cursor(), 0, "cetd is still running");
    wait(&mut app);
    assert!(at_first_selected(&app));
    // The user moved before the result came: the view stays where the user put it.
    let mut app = App::open(&sample("news-article.html"), worker).unwrap();
    keys(&mut app, "JJ");
    wait(&mut app);
    assert!(app.active_algo().result.is_some());
    assert_eq!(app.source.cursor(), 2);
}

/// Words of a corpus' gold text that are not in the page at all are missed by every extractor
/// but lie on no line: `m` says how many, so that a low recall and "nothing to go to" do not
/// seem to disagree.
#[test]
fn gold_words_not_in_the_page_are_counted_when_nothing_is_left_to_jump_to() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("html")).unwrap();
    let paras = [
        "The harbour reopened to fishing boats this week after three months of dredging.",
        "Fishermen said the catch was good and prices at the market were already falling.",
    ];
    let body: String = paras.iter().map(|p| format!("<p>{p}</p>\n")).collect();
    std::fs::write(
        dir.path().join("html/h.html"),
        format!("<html><head><title>Harbour</title></head><body>\n{body}</body></html>\n"),
    )
    .unwrap();
    let gold = format!("{} {} The mayor visited on Friday.", paras[0], paras[1]);
    let gt = serde_json::json!({"h": {"articleBody": gold}});
    std::fs::write(dir.path().join("ground-truth.json"), gt.to_string()).unwrap();
    let mut app = App::open(&dir.path().join("ground-truth.json"), opts()).unwrap();
    assert_eq!(app.gold_words_not_on_page(), Some((5, 32)));
    keys(&mut app, "m");
    let said = common::tui::message(&app);
    assert!(
        said.contains("no word-level false negative")
            && said.contains("5 of the gold's 32 words are not in this page's HTML at all"),
        "{said}"
    );
}
