//! Helpers for tests that drive the inspector (`App`) with scripted keys and read the screen
//! from a ratatui `TestBackend`.

use std::path::{Path, PathBuf};

use cescope::tui::app::{App, AppOptions};
use cescope::tui::keymap::Keymap;
use cescope::tui::ui;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};
use ratatui::style::Color;
use ratatui::Terminal;

/// A sample page of the project.
pub fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample-pages")
        .join(name)
}

/// Deterministic options (no syntect, inline runs) that read and write gold files in
/// `gold_dir`, as annotator "tester".
pub fn opts_with_gold(gold_dir: &Path) -> AppOptions {
    AppOptions {
        keymap: Keymap::builtin("default").unwrap(),
        syntax: false,
        inline_jobs: true,
        gold_dir: Some(gold_dir.to_path_buf()),
        annotator: "tester".into(),
        ..AppOptions::default()
    }
}

/// Types `s` key by key: `\t` Tab, `\n` Enter, `\u{1b}` Esc, `J` / `K` down / up, any other
/// character itself.
pub fn keys(app: &mut App, s: &str) {
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

/// `app` drawn twice on a `w` × `h` test terminal: the first frame learns the view height,
/// the second uses it.
pub fn render(app: &mut App, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::frame(f, app)).unwrap();
    t.draw(|f| ui::frame(f, app)).unwrap();
    t
}

/// The screen after drawing `app` ([`render`]) on a `w` × `h` test terminal.
pub fn screen(app: &mut App, w: u16, h: u16) -> String {
    render(app, w, h).backend().to_string()
}

/// The status bar's message, or "".
pub fn message(app: &App) -> String {
    app.status.as_ref().map(|s| s.0.clone()).unwrap_or_default()
}

/// The id of the corpus page that is open.
pub fn current(app: &App) -> String {
    let c = app.corpus.as_ref().unwrap();
    c.entries[c.current].id.clone()
}

/// Deterministic options: no syntect, inline runs, and a gold directory that does not exist
/// (so the project's own `gold/` files do not change the screens; annotation tests pass their
/// own temporary gold directory).
pub fn opts() -> AppOptions {
    AppOptions {
        keymap: Keymap::builtin("default").unwrap(),
        syntax: false,
        inline_jobs: true,
        gold_dir: Some(std::env::temp_dir().join("cescope-tests-no-gold-here")),
        ..AppOptions::default()
    }
}

/// The active algorithm's `gap` value.
pub fn gap(app: &App) -> i64 {
    match app.active_algo().params.get("gap") {
        Some(cescope::extract::ParamValue::Int(v)) => *v,
        v => panic!("gap is {v:?}"),
    }
}

/// A small ground-truth corpus: one page with navigation, an article and a footer.
pub fn gold_corpus() -> tempfile::TempDir {
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

/// The first display line whose text, leading white space trimmed, starts with `prefix`.
pub fn line_starting(app: &App, prefix: &str) -> usize {
    let page = &app.doc.as_ref().unwrap().page;
    (0..app.line_count())
        .find(|&i| {
            page.text()[app.line_range(i).unwrap()]
                .trim_start()
                .starts_with(prefix)
        })
        .unwrap_or_else(|| panic!("no line starts with {prefix:?}"))
}

/// Typing `s` into the app as text (any character, unlike [`keys`] which maps a few to keys).
pub fn type_text(app: &mut App, s: &str) {
    for c in s.chars() {
        app.handle_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
}

pub fn enter(app: &mut App) {
    app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
}

pub fn cursor_text(app: &App) -> String {
    let page = &app.doc.as_ref().unwrap().page;
    page.text()[app.line_range(app.source.cursor()).unwrap()].to_string()
}

/// The screen row that shows display line `line` (1-based, the number after the gutter).
pub fn row_of_line(s: &str, line: usize) -> Option<usize> {
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

/// The text of the explain panel(s) on screen, borders removed, rows joined by spaces.
pub fn explain_text(s: &str) -> String {
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

/// The teaching page with its gold standard (the project's `gold/teaching.json`, read only).
pub fn teaching_with_gold() -> App {
    let o = AppOptions {
        gold_dir: Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("gold")),
        ..opts()
    };
    App::open(&sample("teaching.html"), o).unwrap()
}

/// The colour of the histogram's axis cell on display line `line` of the last drawn frame.
pub fn axis_colour(app: &App, t: &Terminal<TestBackend>, line: usize) -> Color {
    let h = app.rects.histogram;
    let row = h.y + (line - app.source.top()) as u16;
    t.backend().buffer()[(h.x + h.width / 2, row)].fg
}

/// A mouse event of `kind` at screen cell (`column`, `row`), no modifier keys.
pub fn mouse(kind: MouseEventKind, column: u16, row: u16) -> MouseEvent {
    MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }
}

/// `insta::assert_snapshot!` under the name the snapshot had when every inspector test was in
/// the test binary `tests/tui.rs`: `tui__NAME`. insta names a snapshot after the test's module
/// path (`suite::tui_algorithms` since the test files became modules of `tests/suite.rs`), so
/// the inspector's snapshots keep their files this way, whichever file their test is in.
#[allow(unused_macros)]
macro_rules! tui_snapshot {
    ($name:expr, $value:expr) => {{
        let mut settings = insta::Settings::clone_current();
        settings.set_prepend_module_to_snapshot(false);
        settings.bind(|| insta::assert_snapshot!(format!("tui__{}", $name), $value));
    }};
}
#[allow(unused_imports)]
pub(crate) use tui_snapshot;
