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

use std::path::Path;
use std::time::{Duration, Instant};

use ratatui::backend::TestBackend;
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
    /// `open`, `slider` or `scroll`.
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
    Ok(vec![
        row(&name, bytes, "open", vec![open]),
        row(&name, bytes, "slider", slider),
        row(&name, bytes, "scroll", scroll),
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
