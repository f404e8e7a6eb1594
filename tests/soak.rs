//! Soak test of the inspector (issue 8, item 8): random key, mouse and resize events go through
//! the real event loop (`cescope::tui::event_loop`, the one `cescope inspect` runs) on a ratatui
//! `TestBackend` that changes size like a terminal, over the sample pages (a corpus directory, so
//! page changes are part of the walk, and single pages). After every event the selection, line
//! and trace invariants are checked; memory (RSS) and the thread count must stay bounded.
//!
//! - `cargo test --test soak` runs a short walk (CI);
//! - `CESCOPE_SOAK_EVENTS=1000000 cargo test --release --test soak -- --ignored --nocapture`
//!   runs the long walk and prints its figures (events, time, peak RSS). `CESCOPE_SOAK_SEED`
//!   picks another walk.
#![cfg(feature = "tui")] // needs the inspector

#[path = "../fuzz/src/checks.rs"]
mod checks;

use std::cell::Cell;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use cescope::tui::app::{App, AppOptions, Mode};
use cescope::tui::keymap::{Action, KeySpec, Keymap};
use cescope::tui::{event_loop, EventSource, Polled};
use ratatui::backend::{Backend, ClearType, TestBackend, WindowSize};
use ratatui::buffer::Cell as BufCell;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Size};
use ratatui::Terminal;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

// ---------------------------------------------------------------------------------------------
// A terminal that can be resized: a TestBackend whose size follows a shared cell, as a real
// terminal's size changes before the terminal sends the resize event.
// ---------------------------------------------------------------------------------------------

struct ResizableBackend {
    inner: TestBackend,
    size: Rc<Cell<Size>>,
}

impl ResizableBackend {
    fn sync(&mut self) {
        let want = self.size.get();
        let have = self.inner.buffer().area;
        if (have.width, have.height) != (want.width, want.height) {
            self.inner.resize(want.width, want.height);
        }
    }
}

impl Backend for ResizableBackend {
    type Error = <TestBackend as Backend>::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a BufCell)>,
    {
        self.sync();
        self.inner.draw(content)
    }
    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.hide_cursor()
    }
    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.show_cursor()
    }
    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        self.inner.get_cursor_position()
    }
    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        self.inner.set_cursor_position(position)
    }
    fn clear(&mut self) -> Result<(), Self::Error> {
        self.sync();
        self.inner.clear()
    }
    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        self.sync();
        self.inner.clear_region(clear_type)
    }
    fn size(&self) -> Result<Size, Self::Error> {
        Ok(self.size.get())
    }
    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        self.sync();
        self.inner.window_size()
    }
    fn flush(&mut self) -> Result<(), Self::Error> {
        self.inner.flush()
    }
}

// ---------------------------------------------------------------------------------------------
// The random event source
// ---------------------------------------------------------------------------------------------

/// xorshift64*: a small deterministic generator, so a failing walk replays from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len() as u64) as usize]
    }
}

#[derive(Debug, Default)]
struct Figures {
    events: u64,
    keys: u64,
    mice: u64,
    resizes: u64,
    other: u64,
    quits: u64,
    checks: u64,
    annotating: u64,
    gold_files: usize,
    docs_seen: usize,
    peak_rss_kib: u64,
    warm_rss_kib: u64,
    max_threads: u64,
}

/// Random events: bound keys of the keymap (so actions really run), random keys with random
/// modifiers and kinds, mouse events anywhere on (and just off) the screen, resizes from 0×0 to
/// 260×90, and focus / paste events the loop ignores. Checks the app before handing out each
/// event, i.e. after every event the loop handled.
struct SoakEvents {
    rng: Rng,
    left: u64,
    size: Rc<Cell<Size>>,
    bound: Vec<KeySpec>,
    fig: Figures,
    seen_lines: Vec<(usize, usize)>,
    warm_at: u64,
}

impl SoakEvents {
    fn new(seed: u64, events: u64, size: Rc<Cell<Size>>, keymap: &Keymap) -> SoakEvents {
        let bound = Action::ALL
            .iter()
            .flat_map(|&a| keymap.keys(a).iter().copied())
            // Quit is exercised too, but rarely, so walks stay long.
            .filter(|k| !keymap.keys(Action::Quit).contains(k))
            .collect();
        SoakEvents {
            rng: Rng(seed | 1),
            left: events,
            size,
            bound,
            fig: Figures::default(),
            seen_lines: Vec::new(),
            warm_at: events / 5,
        }
    }

    fn key(&mut self) -> Event {
        let r = &mut self.rng;
        let (code, mods) = match r.below(40) {
            0..=24 => {
                let k = *r.pick(&self.bound);
                (k.code, k.modifiers)
            }
            25 => (KeyCode::Char('q'), KeyModifiers::NONE),
            _ => {
                let code = match r.below(6) {
                    0 => KeyCode::Char(char::from(32 + r.below(95) as u8)),
                    1 => KeyCode::Char(*r.pick(&['é', 'س', '中', '\u{0}', '\u{7f}'])),
                    2 => KeyCode::F(r.below(13) as u8),
                    3 => *r.pick(&[
                        KeyCode::Enter,
                        KeyCode::Esc,
                        KeyCode::Backspace,
                        KeyCode::Tab,
                        KeyCode::BackTab,
                        KeyCode::Delete,
                        KeyCode::Insert,
                    ]),
                    4 => *r.pick(&[
                        KeyCode::Up,
                        KeyCode::Down,
                        KeyCode::Left,
                        KeyCode::Right,
                        KeyCode::Home,
                        KeyCode::End,
                        KeyCode::PageUp,
                        KeyCode::PageDown,
                    ]),
                    _ => KeyCode::Null,
                };
                (code, KeyModifiers::from_bits_truncate(r.below(64) as u8))
            }
        };
        let kind = match r.below(20) {
            0 => KeyEventKind::Release,
            1 => KeyEventKind::Repeat,
            _ => KeyEventKind::Press,
        };
        Event::Key(KeyEvent::new_with_kind(code, mods, kind))
    }

    fn mouse(&mut self) -> Event {
        let s = self.size.get();
        let r = &mut self.rng;
        let button = *r.pick(&[MouseButton::Left, MouseButton::Left, MouseButton::Right]);
        let kind = match r.below(9) {
            0 | 1 => MouseEventKind::Down(button),
            2 => MouseEventKind::Up(button),
            3 | 4 => MouseEventKind::Drag(button),
            5 => MouseEventKind::Moved,
            6 => MouseEventKind::ScrollDown,
            7 => MouseEventKind::ScrollUp,
            _ => *r.pick(&[MouseEventKind::ScrollLeft, MouseEventKind::ScrollRight]),
        };
        Event::Mouse(MouseEvent {
            kind,
            column: r.below(u64::from(s.width) + 3) as u16,
            row: r.below(u64::from(s.height) + 3) as u16,
            modifiers: KeyModifiers::from_bits_truncate(r.below(8) as u8),
        })
    }

    fn resize(&mut self) -> Event {
        let r = &mut self.rng;
        let (w, h) = match r.below(8) {
            0 => (r.below(12) as u16, r.below(6) as u16),
            1 => (80, 24),
            _ => (20 + r.below(241) as u16, 8 + r.below(83) as u16),
        };
        self.size.set(Size::new(w, h));
        Event::Resize(w, h)
    }

    fn check(&mut self, app: &App) {
        self.fig.checks += 1;
        self.fig.annotating += u64::from(app.ann.is_some());
        check_app(app, &mut self.seen_lines);
        self.fig.docs_seen = self.seen_lines.len();
        // Memory and threads: sampled, since reading /proc costs a syscall or two.
        if self.fig.checks.is_multiple_of(64) {
            if let Some((rss, threads)) = proc_status() {
                self.fig.peak_rss_kib = self.fig.peak_rss_kib.max(rss);
                self.fig.max_threads = self.fig.max_threads.max(threads);
                if self.fig.events >= self.warm_at && self.fig.warm_rss_kib == 0 {
                    self.fig.warm_rss_kib = rss;
                }
            }
        }
    }
}

impl EventSource for SoakEvents {
    fn next_event(&mut self, app: &App, timeout: Duration) -> std::io::Result<Polled> {
        self.check(app);
        if self.left == 0 {
            return Ok(Polled::Closed);
        }
        // While draining (timeout zero), stop half of the time, so frames are drawn between
        // single events as well as after bursts.
        if timeout.is_zero() && self.rng.below(2) == 0 {
            return Ok(Polled::Timeout);
        }
        if self.rng.below(50) == 0 {
            return Ok(Polled::Timeout);
        }
        self.left -= 1;
        self.fig.events += 1;
        let ev = match self.rng.below(100) {
            0..=64 => {
                self.fig.keys += 1;
                self.key()
            }
            65..=92 => {
                self.fig.mice += 1;
                self.mouse()
            }
            93..=96 => {
                self.fig.resizes += 1;
                self.resize()
            }
            _ => {
                self.fig.other += 1;
                match self.rng.below(3) {
                    0 => Event::FocusGained,
                    1 => Event::FocusLost,
                    _ => Event::Paste("<p>pasted</p>".into()),
                }
            }
        };
        Ok(Polled::Event(ev))
    }
}

// ---------------------------------------------------------------------------------------------
// Invariants
// ---------------------------------------------------------------------------------------------

/// `ranges` tile `0..len` in order, on char boundaries of `text`.
fn assert_tiles(text: &str, ranges: &[Range<usize>], what: &str) {
    let mut at = 0;
    for (i, r) in ranges.iter().enumerate() {
        assert_eq!(
            r.start,
            at,
            "{what}: line {i} does not follow line {}",
            i.max(1) - 1
        );
        assert!(r.start <= r.end, "{what}: line {i} {r:?} is reversed");
        assert!(
            text.is_char_boundary(r.start) && text.is_char_boundary(r.end),
            "{what}: line {i} {r:?} off char boundaries"
        );
        at = r.end;
    }
    assert_eq!(at, text.len(), "{what}: lines do not cover the text");
}

fn check_app(app: &App, seen_lines: &mut Vec<(usize, usize)>) {
    assert!(
        app.active < app.algos.len(),
        "active algorithm out of range"
    );
    if let Some(c) = &app.corpus {
        assert!(c.current < c.entries.len(), "corpus page out of range");
    }
    let Some(doc) = &app.doc else {
        return;
    };
    let text = doc.page.text();
    // Display lines: both line sets tile the page (checked once per document).
    let id = (
        std::sync::Arc::as_ptr(&doc.vlines) as usize,
        std::sync::Arc::as_ptr(&doc.rlines) as usize,
    );
    if !seen_lines.contains(&id) {
        assert_tiles(text, &doc.vlines, "virtual lines");
        assert_tiles(text, &doc.rlines, "raw lines");
        assert_eq!(doc.vlines.len(), doc.page.lines().len());
        seen_lines.push(id);
    }
    let n = app.line_count();
    if n == 0 {
        assert_eq!(app.source.cursor(), 0, "cursor on an empty page");
    } else {
        assert!(
            app.source.cursor() < n,
            "cursor {} past {n} lines",
            app.source.cursor()
        );
        assert!(
            app.source.top() < n,
            "top {} past {n} lines",
            app.source.top()
        );
        for i in [0, app.source.top(), app.source.cursor(), n - 1] {
            let r = app.line_range(i).expect("line in range has a range");
            assert!(r.end <= text.len());
            let _ = app.line_class(i);
        }
        assert!(app.virtual_of(app.source.cursor()) < doc.vlines.len().max(1));
    }
    // Selections and traces of every algorithm.
    for a in &app.algos {
        let name = a.extractor.name();
        for spec in a.extractor.params() {
            let v = a
                .params
                .get(&spec.name)
                .expect("every parameter has a value");
            assert!(
                spec.parse(&v.to_string()).is_ok(),
                "{name}: {}={v} outside its range",
                spec.name
            );
        }
        if let Some(x) = &a.result {
            checks::assert_selection(text, &x.selection, name);
            if let Err(e) = x.trace.validate(&doc.page) {
                panic!("{name}: trace invalid: {e}");
            }
        }
    }
    let params = app.active_algo().extractor.params().len();
    assert!(
        app.params.focus() < params.max(1),
        "focused slider out of range"
    );
    if let Some(s) = app.step {
        assert!(
            s < app.active_algo().extractor.phases().len(),
            "step out of range"
        );
    }
    if let Some(g) = &doc.gold {
        checks::assert_selection(text, g, "gold overlay");
    }
    if let Some(ann) = &app.ann {
        checks::assert_selection(text, &ann.gold.main_selection(), "annotation");
        if let Some(h) = ann.gold.headline_range() {
            assert!(h.start <= h.end && h.end <= text.len(), "headline {h:?}");
        }
        if let Some(r) = &ann.char_sel {
            assert!(
                r.start < r.end && r.end <= text.len(),
                "char selection {r:?}"
            );
            assert!(
                text.is_char_boundary(r.start) && text.is_char_boundary(r.end),
                "char selection {r:?} off char boundaries"
            );
        }
        if let Some(v) = ann.visual {
            assert!(v < n.max(1), "visual anchor {v} past {n} lines");
        }
        if let Some(t) = app.annotation_target() {
            assert!(
                t.start <= t.end && t.end <= text.len(),
                "annotation target {t:?}"
            );
        }
    }
    if app.mode == Mode::Filter {
        assert!(app.corpus.is_some(), "filter mode without a corpus");
    }
}

/// (VmRSS, Threads) of this process in KiB and threads, where /proc is there.
fn proc_status() -> Option<(u64, u64)> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| {
        s.lines()
            .find(|l| l.starts_with(name))?
            .split_whitespace()
            .nth(1)?
            .parse::<u64>()
            .ok()
    };
    Some((field("VmRSS:")?, field("Threads:")?))
}

fn peak_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

// ---------------------------------------------------------------------------------------------
// The walk
// ---------------------------------------------------------------------------------------------

/// A temporary gold directory holding copies of the project's gold files, so gold overlays,
/// comparison and annotation (with saves) are part of the walk without touching `gold/`.
fn gold_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(Path::new(ROOT).join("gold")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
        }
    }
    dir
}

fn soak(path: &Path, seed: u64, events: u64, syntax: bool) -> Figures {
    let gold = gold_copy();
    let opts = AppOptions {
        keymap: Keymap::builtin(if seed.is_multiple_of(2) {
            "default"
        } else {
            "vim"
        })
        .unwrap(),
        syntax,
        gold_dir: Some(gold.path().to_path_buf()),
        annotator: "soak".into(),
        ..AppOptions::default()
    };
    let mut app = App::open(path, opts.clone()).unwrap();
    let size = Rc::new(Cell::new(Size::new(120, 40)));
    let backend = ResizableBackend {
        inner: TestBackend::new(120, 40),
        size: size.clone(),
    };
    let mut terminal = Terminal::new(backend).unwrap();
    let mut events = SoakEvents::new(seed, events, size, &opts.keymap);
    loop {
        event_loop(&mut terminal, &mut app, &mut events).unwrap();
        if !app.quit {
            break; // the source is closed
        }
        // The user quit: start the same loop again on the same state.
        events.fig.quits += 1;
        app.quit = false;
    }
    events.fig.gold_files = std::fs::read_dir(gold.path()).map_or(0, |d| d.count());
    events.fig
}

fn report(label: &str, f: &Figures, elapsed: Duration) {
    eprintln!(
        "soak {label}: {} events ({} keys, {} mouse, {} resizes, {} ignored kinds, {} quits), {} checks \
         ({} while annotating), {} documents, {} files in the gold folder at the end, {:.1} s, {:.0} events/s; RSS after warm-up {} KiB, highest sampled {} KiB, \
         VmHWM {} KiB; at most {} threads",
        f.events,
        f.keys,
        f.mice,
        f.resizes,
        f.other,
        f.quits,
        f.checks,
        f.annotating,
        f.docs_seen,
        f.gold_files,
        elapsed.as_secs_f64(),
        f.events as f64 / elapsed.as_secs_f64().max(1e-9),
        f.warm_rss_kib,
        f.peak_rss_kib,
        peak_rss_kib().unwrap_or(0),
        f.max_threads,
    );
}

/// Memory is bounded: after warm-up (a fifth of the walk) RSS may grow by at most half again plus
/// 64 MiB, and the worker threads do not pile up.
fn assert_bounded(f: &Figures) {
    // One backup per gold file (issue 8, item 4): at most a gold file, its `.bak` and its
    // recovery file per sample page (nine of them), however many saves the walk made.
    assert!(
        f.gold_files <= 3 * 9,
        "{} files piled up in the gold folder",
        f.gold_files
    );
    if f.warm_rss_kib > 0 {
        let limit = f.warm_rss_kib + f.warm_rss_kib / 2 + 64 * 1024;
        assert!(
            f.peak_rss_kib <= limit,
            "RSS grew from {} KiB after warm-up to {} KiB",
            f.warm_rss_kib,
            f.peak_rss_kib
        );
    }
    assert!(f.max_threads <= 64, "{} threads", f.max_threads);
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn pages() -> Vec<PathBuf> {
    let s = Path::new(ROOT).join("sample-pages");
    vec![
        s.clone(),
        s.join("arabic-news.html"),
        s.join("wiki-article.html"),
        s.join("minified-news.html"),
    ]
}

/// The CI walk: a few thousand events over the corpus and three single pages.
#[test]
fn soak_short() {
    let seed = env_u64("CESCOPE_SOAK_SEED", 0x5eed);
    for (i, p) in pages().iter().enumerate() {
        let t = Instant::now();
        let f = soak(p, seed + i as u64, 600, false);
        report(&format!("short {}", p.display()), &f, t.elapsed());
        assert!(
            f.checks >= f.events,
            "the app was not checked after every event"
        );
        assert!(f.docs_seen >= 1);
        assert_bounded(&f);
    }
}

/// The long walk (figures for docs/safety.md): `CESCOPE_SOAK_EVENTS` events per page set
/// (default 20 000), syntax highlighting on, as in the real inspector.
#[test]
#[ignore = "long run: CESCOPE_SOAK_EVENTS=N cargo test --release --test soak -- --ignored"]
fn soak_long() {
    let seed = env_u64("CESCOPE_SOAK_SEED", 0x5eed);
    let events = env_u64("CESCOPE_SOAK_EVENTS", 20_000);
    let total = Instant::now();
    let mut all = 0;
    for (i, p) in pages().iter().enumerate() {
        let t = Instant::now();
        let f = soak(p, seed + i as u64, events, true);
        report(&format!("long {}", p.display()), &f, t.elapsed());
        assert_bounded(&f);
        all += f.events;
    }
    eprintln!(
        "soak long total: {all} events in {:.1} s, VmHWM {} KiB",
        total.elapsed().as_secs_f64(),
        peak_rss_kib().unwrap_or(0)
    );
}

/// Inspector options of the regression tests: no syntect, inline runs, gold files in `gold`.
fn regression_opts(gold: &Path) -> AppOptions {
    AppOptions {
        syntax: false,
        inline_jobs: true,
        gold_dir: Some(gold.to_path_buf()),
        annotator: "soak".into(),
        ..AppOptions::default()
    }
}

/// Regression (found by the soak walk): the visual-mode anchor is a display line; toggling raw /
/// virtual lines left it on the old line number, past the single raw line of a minified page.
#[test]
fn visual_anchor_follows_the_raw_lines_toggle() {
    let gold = gold_copy();
    let opts = regression_opts(gold.path());
    let page = Path::new(ROOT).join("sample-pages/minified-news.html");
    let mut app = App::open(&page, opts).unwrap();
    for _ in 0..40 {
        app.apply(Action::CursorDown);
    }
    let anchor_text = app.line_range(app.source.cursor()).unwrap().start;
    app.apply(Action::Visual);
    app.apply(Action::ToggleRawLines);
    assert_eq!(app.line_count(), 1, "the minified page is one raw line");
    let ann = app.ann.as_ref().unwrap();
    assert_eq!(
        ann.visual,
        Some(0),
        "the anchor moves to the raw line holding its text"
    );
    let target = app.annotation_target().unwrap();
    assert!(target.contains(&anchor_text));
    app.apply(Action::ToggleRawLines);
    let v = app.ann.as_ref().unwrap().visual.unwrap();
    assert!(app.line_range(v).unwrap().start <= anchor_text);
}

/// Regression (found by the long soak walk): a mouse drag that starts and ends on one character
/// selected one byte, which on a multi-byte character (Arabic, 2 bytes) is not a char boundary.
#[test]
fn a_drag_on_one_character_selects_the_whole_character() {
    let gold = gold_copy();
    let opts = regression_opts(gold.path());
    let page = Path::new(ROOT).join("sample-pages/arabic-news.html");
    let mut app = App::open(&page, opts).unwrap();
    let mut t = Terminal::new(TestBackend::new(120, 40)).unwrap();
    // Find an Arabic letter on screen inside the source view.
    let mut found = None;
    for _ in 0..200 {
        t.draw(|f| cescope::tui::ui::frame(f, &mut app)).unwrap();
        let src = app.rects.source;
        let buf = t.backend().buffer();
        found = (src.y..src.y + src.height)
            .flat_map(|y| (src.x..src.x + src.width).map(move |x| (x, y)))
            .find(|&(x, y)| {
                buf[(x, y)]
                    .symbol()
                    .chars()
                    .next()
                    .is_some_and(|c| ('\u{0621}'..='\u{064A}').contains(&c))
            });
        if found.is_some() {
            break;
        }
        app.apply(Action::PageDown);
    }
    let (x, y) = found.expect("an Arabic letter is shown");
    for kind in [
        MouseEventKind::Down(MouseButton::Left),
        MouseEventKind::Drag(MouseButton::Left),
    ] {
        app.handle_mouse(MouseEvent {
            kind,
            column: x,
            row: y,
            modifiers: KeyModifiers::NONE,
        });
    }
    let text = app.doc.as_ref().unwrap().page.text().to_string();
    let sel = app
        .ann
        .as_ref()
        .unwrap()
        .char_sel
        .clone()
        .expect("a drag selects");
    assert!(
        text.is_char_boundary(sel.start) && text.is_char_boundary(sel.end),
        "{sel:?}"
    );
    assert_eq!(text[sel].chars().count(), 1);
    app.apply(Action::Include);
    let ann = app.ann.as_ref().unwrap();
    checks::assert_selection(&text, &ann.gold.main_selection(), "after include");
}
