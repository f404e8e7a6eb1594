//! The inspector's gutter marks exactly what is selected (issue 19, item 4): for every registered
//! algorithm on every sample page, a line of the reading view carries the algorithm's gutter
//! mark if and only if it holds selected text; so does every line of the source view that
//! shows content text.
//!
//! "Holds selected text" is the extract's own notion. `cescope extract` prints
//! [`Page::render`] of the selection: one output line per virtual line on which the selection
//! has content text that is not all white space. A reading line shows one virtual line, so it
//! holds selected text iff `render` of the selection clipped to the line's byte range is not
//! empty — and then that rendering is exactly the extract's line from it. The test checks both:
//! the marks against that definition, and that the marked lines' renderings, joined, are the
//! extract (so no selected text lies outside the reading lines and no marked line is missing
//! from the extract).
//!
//! The marks are read from the screen: the real `ui::frame` into a `TestBackend` tall enough to
//! show the whole page, the gutter column at the source view's left edge.

#![cfg(feature = "tui")]

use std::path::{Path, PathBuf};

use cescope::page::Page;
use cescope::selection::Selection;
use cescope::tui::app::{App, AppOptions, View};
use cescope::tui::keymap::Keymap;
use cescope::tui::ui;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;

fn opts(algo: &str) -> AppOptions {
    AppOptions {
        keymap: Keymap::builtin("default").unwrap(),
        syntax: false,
        inline_jobs: true,
        algo: algo.into(),
        // No gold file: the gutter has the active algorithm's column only.
        gold_dir: Some(std::env::temp_dir().join("cescope-tests-no-gold-here")),
        ..AppOptions::default()
    }
}

fn sample_pages() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-pages");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    v.sort();
    v
}

/// The extract's text from the byte range `r` of the page: `render` of the selection clipped
/// to `r` (empty when the extract has no line from there).
fn rendered_in(page: &Page, sel: &Selection, r: std::ops::Range<usize>) -> String {
    page.render(&sel.intersection(&Selection::from_range(r)))
}

/// Opens `page` with `algo` active and no other overlay.
fn open(page: &Path, algo: &str) -> App {
    App::open(page, opts(algo)).unwrap()
}

/// Draws the whole current view of `app` (reading or source) from its first line with the
/// real `ui::frame` and returns, per display line, whether its gutter cell carries the mark.
fn drawn_marks(app: &mut App) -> Vec<bool> {
    let n = app.line_count();
    let h = u16::try_from(n + 24).unwrap().max(24);
    let mut t = Terminal::new(TestBackend::new(100, h)).unwrap();
    app.source.set_top(0);
    app.source.set_cursor(0);
    t.draw(|f| ui::frame(f, app)).unwrap();
    assert_eq!(
        app.gutter_columns(),
        vec![app.active],
        "one gutter column, the active algorithm's"
    );
    let src = app.rects.source;
    assert_eq!(app.source.top(), 0);
    assert!(src.height as usize >= n, "the whole page is on screen");
    let buf = t.backend().buffer();
    (0..n)
        .map(|i| {
            let y = src.y + i as u16;
            // The line number right of the gutter proves the row is display line i.
            let row: String = (src.x..src.x + src.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect();
            let after_gutter = &row[row.char_indices().nth(1).unwrap().0..];
            assert!(
                after_gutter
                    .trim_start()
                    .starts_with(&format!("{} ", i + 1)),
                "row {i} shows line {}: {row:?}",
                i + 1
            );
            match buf[(src.x, y)].symbol() {
                "▌" => true,
                " " => false,
                s => panic!("unexpected gutter cell {s:?} on row {i}"),
            }
        })
        .collect()
}

/// Switches to the reading view (`reading`) or the source with the `w` key.
fn toggle_reading(app: &mut App, reading: bool) {
    if (app.view() == View::Reading) != reading {
        app.handle_key(KeyEvent::new(KeyCode::Char('w'), KeyModifiers::NONE));
    }
    assert_eq!(app.view() == View::Reading, reading, "w switches the view");
}

/// The reading lines where the drawn gutter and the extract disagree, described; empty when
/// they agree.
fn reading_mismatches(app: &mut App, what: &str) -> Vec<String> {
    toggle_reading(app, true);
    let marks = drawn_marks(app);
    let doc = app.doc.as_ref().unwrap();
    let sel = &app.active_algo().result.as_ref().unwrap().selection;
    let mut out = Vec::new();
    let mut from_marked: Vec<String> = Vec::new();
    for (l, &marked) in doc.reading.iter().zip(&marks) {
        let shown = rendered_in(&doc.page, sel, l.range.clone());
        let holds = !shown.is_empty();
        if marked != holds {
            out.push(format!(
                "{what}: reading line {:?} marked {marked}, selected text {shown:?}",
                l.text.chars().take(40).collect::<String>()
            ));
        }
        if marked {
            from_marked.push(shown);
        }
    }
    // The marked lines' selected text is the extract, line for line.
    if out.is_empty() && from_marked.join("\n") != doc.page.render(sel) {
        out.push(format!("{what}: the marked lines' text is not the extract"));
    }
    out
}

/// The same in the source view (virtual lines), on every line that shows content text; lines
/// of markup only keep the algorithm's own decision (its trace's Selected marks), which this
/// does not check.
fn source_mismatches(app: &mut App, what: &str) -> Vec<String> {
    toggle_reading(app, false);
    let marks = drawn_marks(app);
    let doc = app.doc.as_ref().unwrap();
    let sel = &app.active_algo().result.as_ref().unwrap().selection;
    let mut out = Vec::new();
    for (i, &marked) in marks.iter().enumerate() {
        let r = app.line_range(i).unwrap();
        if doc
            .page
            .render(&Selection::from_range(r.clone()))
            .is_empty()
        {
            continue;
        }
        let shown = rendered_in(&doc.page, sel, r);
        let holds = !shown.is_empty();
        if marked != holds {
            out.push(format!(
                "{what}: virtual line {} marked {marked}, selected text {shown:?}",
                i + 1
            ));
        }
    }
    out
}

#[test]
fn gutter_marks_exactly_the_lines_with_selected_text_for_every_algorithm_and_sample_page() {
    let names: Vec<String> = cescope::extractors::registry()
        .iter()
        .map(|e| e.name().to_string())
        .collect();
    let pages = sample_pages();
    assert!(names.len() >= 20 && pages.len() >= 8);
    let (mut reading, mut source) = (Vec::new(), Vec::new());
    let (mut pairs, mut bad_pairs) = (0, 0);
    for page in &pages {
        for name in &names {
            let what = format!("{} {name}", page.file_name().unwrap().to_string_lossy());
            let mut app = open(page, name);
            let r = reading_mismatches(&mut app, &what);
            let s = source_mismatches(&mut app, &what);
            pairs += 1;
            bad_pairs += usize::from(!r.is_empty() || !s.is_empty());
            reading.extend(r);
            source.extend(s);
        }
    }
    eprintln!(
        "{pairs} algorithm x page pairs, {bad_pairs} with a mismatch: {} reading lines, {} source lines",
        reading.len(),
        source.len()
    );
    assert!(
        reading.is_empty() && source.is_empty(),
        "{} reading and {} source lines (in {bad_pairs} of {pairs} pairs):\n{}",
        reading.len(),
        source.len(),
        reading
            .iter()
            .chain(&source)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The case: Discourse page 0504 of wcxb-dev with CETD. Reading line 11 "1 Like" (the
/// first post's like count) comes after the selected post's closing `</div>`, on a line of its
/// own that CETD did not select.
#[test]
#[ignore = "needs ../shared/corpus"]
fn discourse_like_count_is_not_marked_by_cetd() {
    let page =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/wcxb-dev/html/0504.html.gz");
    let mut app = open(&page, "cetd");
    toggle_reading(&mut app, true);
    let marks = drawn_marks(&mut app);
    let doc = app.doc.as_ref().unwrap();
    assert_eq!(doc.reading[10].text, "1 Like");
    assert!(!marks[10], "reading line 11 \"1 Like\" is not selected");
    assert!(marks[9], "reading line 10, the post's last paragraph, is");
    assert_eq!(
        reading_mismatches(&mut app, "0504 cetd"),
        Vec::<String>::new()
    );
    assert_eq!(
        source_mismatches(&mut app, "0504 cetd"),
        Vec::<String>::new()
    );
}
