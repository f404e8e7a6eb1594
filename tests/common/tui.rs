//! Helpers for tests that drive the inspector (`App`) with scripted keys and read the screen
//! from a ratatui `TestBackend`.

use std::path::{Path, PathBuf};

use cescope::tui::app::{App, AppOptions};
use cescope::tui::keymap::Keymap;
use cescope::tui::ui;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
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

/// The screen after drawing `app` (twice: the first frame learns the view height) on a
/// `w` × `h` test terminal.
pub fn screen(app: &mut App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::draw(f, app)).unwrap();
    t.draw(|f| ui::draw(f, app)).unwrap();
    t.backend().to_string()
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
