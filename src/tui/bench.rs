//! Latency benchmarks of the inspector (`cescope bench --inspector PAGE...`).
//!
//! Frames are drawn into a ratatui `TestBackend` of 160 × 48 cells: everything the real loop
//! does except writing the changed cells to the terminal. Measured per page:
//!
//! - `open`: from the file on disk to the first frame (load, decode, lex, virtual lines, the
//!   active algorithm's run, highlighter start-up, first draw). syntect refines colours off the
//!   UI thread afterwards and is not waited for.
//! - `slider`: one parameter change of the active algorithm (the extractor re-runs) and the next
//!   frame; 40 changes, median and worst.
//! - `scroll`: one page down and the next frame, through the whole page (at most 400 frames),
//!   median and worst.
//! - `redraw`: a mouse move that changes nothing and the next frame (the real loop draws one
//!   after every event), 100 frames: what was worked out for the last frame is read again
//!   (`crate::tui::ui::prepare`), only the drawing is done.
//! - `rework`: the same frame worked out again ([`App::changed`] before it), 100 frames: what a
//!   redraw with nothing changed cost before the frame's work was kept.

use std::path::Path;
use std::time::{Duration, Instant};

use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyModifiers, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use serde::Serialize;

use super::app::{App, AppOptions};
use super::keymap::Action;
use super::ui;

/// One measured quantity for one page, in milliseconds.
#[derive(Debug, Clone, Serialize)]
pub struct LatencyRow {
    /// The page file name.
    pub page: String,
    /// Page size in bytes (decoded text).
    pub bytes: usize,
    /// `open`, `slider`, `scroll`, `redraw` or `rework`.
    pub what: &'static str,
    /// Number of samples.
    pub samples: usize,
    /// Median, milliseconds.
    pub median_ms: f64,
    /// Worst, milliseconds.
    pub max_ms: f64,
}

fn row(page: &str, bytes: usize, what: &'static str, mut v: Vec<Duration>) -> LatencyRow {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    LatencyRow {
        page: page.to_string(),
        bytes,
        what,
        samples: v.len(),
        median_ms: v.get(v.len() / 2).map_or(0.0, |d| ms(*d)),
        max_ms: v.last().map_or(0.0, |d| ms(*d)),
    }
}

/// Measures one page with the given algorithm active. Errors: the page cannot be opened.
pub fn measure(path: &Path, algo: &str) -> crate::Result<Vec<LatencyRow>> {
    let opts = AppOptions {
        algo: algo.to_string(),
        ..AppOptions::default()
    };
    let mut term = Terminal::new(TestBackend::new(160, 48)).expect("test backend");
    let t = Instant::now();
    let mut app = App::open(path, opts)?;
    term.draw(|f| ui::frame(f, &mut app)).expect("draw");
    let open = t.elapsed();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bytes = app.doc.as_ref().map_or(0, |d| d.page.text().len());

    let mut slider = Vec::new();
    for k in 0..40 {
        let t = Instant::now();
        app.apply(if k % 2 == 0 {
            Action::ParamInc
        } else {
            Action::ParamDec
        });
        term.draw(|f| ui::frame(f, &mut app)).expect("draw");
        slider.push(t.elapsed());
    }

    let mut scroll = Vec::new();
    let n = app.line_count();
    while app.source.cursor() + 1 < n && scroll.len() < 400 {
        let t = Instant::now();
        app.apply(Action::PageDown);
        term.draw(|f| ui::frame(f, &mut app)).expect("draw");
        scroll.push(t.elapsed());
    }
    let mut redraw = Vec::new();
    for k in 0..100u16 {
        let t = Instant::now();
        app.handle_mouse(MouseEvent {
            kind: MouseEventKind::Moved,
            column: k % 160,
            row: k % 48,
            modifiers: KeyModifiers::NONE,
        });
        term.draw(|f| ui::frame(f, &mut app)).expect("draw");
        redraw.push(t.elapsed());
    }
    // The same frames, each worked out again as if something had changed: what a redraw cost
    // before a frame with nothing changed reused the last one's work.
    let mut rework = Vec::new();
    for _ in 0..100 {
        let t = Instant::now();
        app.changed();
        term.draw(|f| ui::frame(f, &mut app)).expect("draw");
        rework.push(t.elapsed());
    }
    Ok(vec![
        row(&name, bytes, "open", vec![open]),
        row(&name, bytes, "slider", slider),
        row(&name, bytes, "scroll", scroll),
        row(&name, bytes, "redraw", redraw),
        row(&name, bytes, "rework", rework),
    ])
}

/// Formats rows as a table.
pub fn table(rows: &[LatencyRow]) -> String {
    let mut s = format!(
        "{:<28} {:>10} {:<7} {:>7} {:>10} {:>10}\n",
        "page", "bytes", "what", "samples", "median ms", "max ms"
    );
    for r in rows {
        let name: String = r.page.chars().take(28).collect();
        s.push_str(&format!(
            "{:<28} {:>10} {:<7} {:>7} {:>10.2} {:>10.2}\n",
            name, r.bytes, r.what, r.samples, r.median_ms, r.max_ms
        ));
    }
    s
}
