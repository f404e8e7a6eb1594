//! `cescope bench`: single-threaded throughput of the page model and of each extractor (in a
//! one-thread rayon pool, [`single_threaded`], so no library parallelises inside a row).
//!
//! Method: every page of the inputs is read and decompressed into memory first (not timed).
//! Then, per row, each page is processed from its raw bytes in memory:
//!
//! - `page-model`: decoding + lexing + virtual lines ([`Page::from_bytes`], [`Page::lexed`],
//!   [`Page::lines`]) — what every line-based extractor needs before it starts;
//! - `dom`: decoding + the positioned DOM ([`Page::dom`]), without lexing or lines — what a
//!   DOM-based extractor needs before it starts;
//! - `blocks`: decoding + the positioned DOM + the atomic text blocks with their features
//!   ([`Page::blocks`]) — what a block-based (learned) method needs before it starts;
//! - `block-context`: `blocks` + the record groups ([`Page::records`]) + the DOM context of
//!   every block ([`BlockContext`]) — the feature rows of a stacked block classifier before
//!   any member extractor runs;
//! - `units`: `blocks` + the record groups + the guideline's units of every block
//!   ([`Units::find`], without a headline) — the stacked classifier's `unit_KIND` features;
//! - one row per extractor: **end to end** from the bytes — decoding, whatever parts of the page
//!   model the extractor asks for (lazily), and the run itself;
//! - for an extractor that wraps another program's text (a reference extractor, [`TextStage`]),
//!   two more rows with its stages apart: `NAME:crate` (decoding and the program's run) and
//!   `NAME:align` (the alignment of its text to the page alone).
//!
//! Only the work is timed (`timed_pass`): [`Page::from_bytes`] takes the page's bytes by
//! value, so each pass hands it a fresh copy (and name) made before the clock starts, and the
//! page is dropped after the clock stops; a pass's time is the sum of its per-page times.
//!
//! Each row is measured `repeat` times over all pages and the fastest pass is reported (the
//! least disturbed by other load on a shared machine). MB = 10^6 bytes of HTML input
//! (decompressed); `mb_per_s` = bytes / seconds / 10^6; `ms_per_page` = seconds × 1000 / pages.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::corpus;
use crate::error::Result;
use crate::extract::TextStage;
use crate::extract::{Algorithm, Extractor, Params};
use crate::learn::context::BlockContext;
use crate::page::units::Units;
use crate::page::{decode, DecodeOptions, Page};
use std::sync::Arc;

/// One row of the benchmark table.
#[derive(Debug, Clone, Serialize)]
pub struct BenchRow {
    /// Extractor name, `page-model`, `dom`, `blocks`, `block-context` or `units`.
    pub algo: String,
    /// Number of pages.
    pub pages: usize,
    /// Total input bytes (decompressed HTML).
    pub bytes: u64,
    /// Seconds for the fastest pass over all pages.
    pub seconds: f64,
    /// Throughput in MB (10^6 bytes) of HTML input per second.
    pub mb_per_s: f64,
    /// Milliseconds per page.
    pub ms_per_page: f64,
}

/// Pages loaded into memory for benchmarking: (name, raw bytes).
pub fn load_inputs(inputs: &[PathBuf]) -> Result<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    for input in inputs {
        if input.is_file() && corpus::is_page_file(input) {
            out.push((input.display().to_string(), decode::read_input(input)?));
            continue;
        }
        let c = corpus::open(input)?;
        for p in c.pages {
            out.push((p.id.clone(), decode::read_input(&p.path)?));
        }
    }
    Ok(out)
}

fn row(algo: &str, pages: &[(String, Vec<u8>)], seconds: f64) -> BenchRow {
    let bytes: u64 = pages.iter().map(|p| p.1.len() as u64).sum();
    let seconds = seconds.max(1e-9);
    BenchRow {
        algo: algo.to_string(),
        pages: pages.len(),
        bytes,
        seconds,
        mb_per_s: bytes as f64 / seconds / 1e6,
        ms_per_page: seconds * 1000.0 / pages.len().max(1) as f64,
    }
}

fn best_of(repeat: usize, mut pass: impl FnMut() -> f64) -> f64 {
    (0..repeat.max(1))
        .map(|_| pass())
        .fold(f64::INFINITY, f64::min)
}

/// Runs the benchmark over `pages` for `algos`; the first rows are the page model, the DOM,
/// the blocks and the blocks' DOM context.
/// Pages that fail to decode (binary, …) are skipped in every row.
pub fn run(
    pages: &[(String, Vec<u8>)],
    algos: &[Arc<dyn Extractor>],
    repeat: usize,
) -> Vec<BenchRow> {
    single_threaded(|| run_rows(pages, algos, repeat))
}

/// Runs `f` in a rayon pool of one thread, so libraries that parallelise inside an algorithm
/// (linfa's k-means for CETR and K-FE) are measured single-threaded like everything else; if
/// the pool cannot be made, `f` runs as is.
pub fn single_threaded<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
        Ok(pool) => pool.install(f),
        Err(_) => f(),
    }
}

/// The pages that decode with `opts` (the others would measure an error path), copied.
fn decodable(pages: &[(String, Vec<u8>)], opts: &DecodeOptions) -> Vec<(String, Vec<u8>)> {
    pages
        .iter()
        .filter(|(_, b)| decode::decode(b, opts).is_ok())
        .cloned()
        .collect()
}

fn run_rows(
    pages: &[(String, Vec<u8>)],
    algos: &[Arc<dyn Extractor>],
    repeat: usize,
) -> Vec<BenchRow> {
    let opts = DecodeOptions::default();
    let pages = decodable(pages, &opts);
    let mut rows = Vec::new();
    let secs = best_of(repeat, || {
        timed_pass(&pages, &opts, |p| {
            std::hint::black_box(p.lines().len());
        })
    });
    rows.push(row("page-model", &pages, secs));
    rows.push(dom_row(&pages, &opts, repeat));
    let secs = best_of(repeat, || {
        timed_pass(&pages, &opts, |p| {
            std::hint::black_box(p.blocks().len());
        })
    });
    rows.push(row("blocks", &pages, secs));
    let secs = best_of(repeat, || {
        timed_pass(&pages, &opts, |p| {
            let c = BlockContext::build(p);
            std::hint::black_box(c.len());
        })
    });
    rows.push(row("block-context", &pages, secs));
    let secs = best_of(repeat, || {
        timed_pass(&pages, &opts, |p| {
            std::hint::black_box(Units::find(p, None).units().len());
        })
    });
    rows.push(row("units", &pages, secs));
    for e in algos {
        rows.push(algo_row(
            e.as_ref(),
            &pages,
            &opts,
            repeat,
            |e, p, params| e.run(p, params).selection.len_bytes(),
        ));
        if let Some(stage) = e.capabilities().text_stage {
            let params = Params::defaults(e.params());
            rows.extend(stage_rows(e.name(), stage, &pages, &opts, &params, repeat));
        }
    }
    rows
}

/// The `dom` row: decoding + the positioned DOM ([`Page::dom`]) of every page, timed as every
/// row is ([`timed_pass`]).
fn dom_row(pages: &[(String, Vec<u8>)], opts: &DecodeOptions, repeat: usize) -> BenchRow {
    let secs = best_of(repeat, || {
        timed_pass(pages, opts, |p| {
            std::hint::black_box(p.dom().len());
        })
    });
    row("dom", pages, secs)
}

/// The row of one algorithm (an extractor or a headline finder) with its published defaults,
/// end to end from the bytes: `run` does its work on a decoded page and returns a size (kept
/// from the optimiser by `black_box`).
fn algo_row<T: Algorithm + ?Sized>(
    a: &T,
    pages: &[(String, Vec<u8>)],
    opts: &DecodeOptions,
    repeat: usize,
    run: impl Fn(&T, &Page, &Params) -> usize,
) -> BenchRow {
    let params = Params::defaults(a.params());
    let secs = best_of(repeat, || {
        timed_pass(pages, opts, |p| {
            std::hint::black_box(run(a, p, &params));
        })
    });
    row(a.name(), pages, secs)
}

/// The two stages of an extractor that wraps another program's text ([`TextStage`]), timed
/// apart: `NAME:crate` — decoding and the program's run on the decoded text (what the program
/// costs on its own); `NAME:align` — the alignment alone (the page's lexing, virtual lines and
/// words, the word LCS, the trace), the page decoded and the output made before the clock starts.
fn stage_rows(
    name: &str,
    stage: &dyn TextStage,
    pages: &[(String, Vec<u8>)],
    opts: &DecodeOptions,
    params: &Params,
    repeat: usize,
) -> [BenchRow; 2] {
    let secs = best_of(repeat, || {
        timed_pass(pages, opts, |p| {
            std::hint::black_box(stage.output(p, params).text.len());
        })
    });
    let crate_row = row(&format!("{name}:crate"), pages, secs);
    let secs = best_of(repeat, || {
        let mut total = Duration::ZERO;
        for (page_name, raw) in pages {
            let Ok(p) = Page::from_bytes(page_name.as_str(), raw.clone(), opts) else {
                continue;
            };
            let out = stage.output(&p, params);
            let t = Instant::now();
            std::hint::black_box(stage.locate(&p, params, &out).selection.len_bytes());
            total += t.elapsed();
        }
        total.as_secs_f64()
    });
    [crate_row, row(&format!("{name}:align"), pages, secs)]
}

/// The headline benchmark (`cescope bench --headline`): a `dom` row (decoding + the positioned
/// DOM, which every finder needs), then one row per headline finder, end to end from the bytes
/// (decoding, DOM, the finder's run), with its default parameters; measured as [`run`] measures
/// extractors. Report them with [`headline_table`] (KB/s, as Mohammadzadeh 2013, Table 5.4).
pub fn run_headline(
    pages: &[(String, Vec<u8>)],
    finders: &[Arc<dyn crate::extract::headline::HeadlineFinder>],
    repeat: usize,
) -> Vec<BenchRow> {
    let opts = DecodeOptions::default();
    let pages = decodable(pages, &opts);
    let mut rows = vec![dom_row(&pages, &opts, repeat)];
    for f in finders {
        rows.push(algo_row(
            f.as_ref(),
            &pages,
            &opts,
            repeat,
            |f, p, params| f.run(p, params).candidates.len(),
        ));
    }
    rows
}

/// Formats headline benchmark rows with throughput in KB/s (KB = 10^3 bytes of HTML input), the
/// unit of Mohammadzadeh 2013, Table 5.4.
pub fn headline_table(rows: &[BenchRow]) -> String {
    let mut s = format!(
        "{:<12} {:>6} {:>12} {:>9} {:>10} {:>11}\n",
        "method", "pages", "bytes", "seconds", "KB/s", "ms/page"
    );
    for r in rows {
        s.push_str(&format!(
            "{:<12} {:>6} {:>12} {:>9.3} {:>10.1} {:>11.3}\n",
            r.algo,
            r.pages,
            r.bytes,
            r.seconds,
            r.mb_per_s * 1e3,
            r.ms_per_page
        ));
    }
    s
}

/// One pass over `pages`: for each, decodes a copy of its bytes into a [`Page`] and calls
/// `work` on it (pages that fail to decode get no call). Returns the seconds spent in decoding
/// and `work` only: the copy is made before the clock starts and the page is dropped after it
/// stops. Every row of [`run`] is measured with it.
fn timed_pass(
    pages: &[(String, Vec<u8>)],
    opts: &DecodeOptions,
    mut work: impl FnMut(&Page),
) -> f64 {
    let mut total = Duration::ZERO;
    for (name, raw) in pages {
        let (name, raw) = (name.clone(), raw.clone());
        let t = Instant::now();
        let page = Page::from_bytes(name, raw, opts);
        if let Ok(p) = &page {
            work(p);
        }
        total += t.elapsed();
        drop(page);
    }
    total.as_secs_f64()
}

/// Formats rows as an aligned text table (the name column as wide as the longest name, at least
/// 12).
pub fn table(rows: &[BenchRow]) -> String {
    let w = rows.iter().map(|r| r.algo.len()).max().unwrap_or(0).max(12);
    let mut s = format!(
        "{:<w$} {:>6} {:>12} {:>9} {:>9} {:>11}\n",
        "algo",
        "pages",
        "bytes",
        "seconds",
        "MB/s",
        "ms/page",
        w = w
    );
    for r in rows {
        s.push_str(&format!(
            "{:<w$} {:>6} {:>12} {:>9.3} {:>9.1} {:>11.3}\n",
            r.algo,
            r.pages,
            r.bytes,
            r.seconds,
            r.mb_per_s,
            r.ms_per_page,
            w = w
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_have_consistent_units() {
        let pages = vec![
            ("a".to_string(), b"<p>hello world</p>".to_vec()),
            (
                "b".to_string(),
                vec![0x89, b'P', b'N', b'G', 13, 10, 26, 10],
            ),
        ];
        let algos = crate::extractors::registry();
        let rows = run(&pages, algos.all(), 1);
        let staged: Vec<&str> = algos
            .iter()
            .filter(|e| e.capabilities().text_stage.is_some())
            .map(|e| e.name())
            .collect();
        assert_eq!(rows.len(), algos.len() + 5 + 2 * staged.len());
        for n in &staged {
            let at = rows.iter().position(|r| r.algo == *n).unwrap();
            assert_eq!(rows[at + 1].algo, format!("{n}:crate"));
            assert_eq!(rows[at + 2].algo, format!("{n}:align"));
        }
        assert_eq!(rows[0].algo, "page-model");
        assert_eq!(rows[1].algo, "dom");
        assert_eq!(rows[2].algo, "blocks");
        assert_eq!(rows[3].algo, "block-context");
        assert_eq!(rows[4].algo, "units");
        for r in &rows {
            assert_eq!(r.pages, 1, "the PNG is skipped");
            assert_eq!(r.bytes, 18);
            assert!((r.mb_per_s - r.bytes as f64 / r.seconds / 1e6).abs() < 1e-6);
        }
        assert!(table(&rows).contains("danag"));
    }

    #[test]
    fn headline_rows_are_dom_then_every_finder() {
        let pages = vec![(
            "a".to_string(),
            b"<title>Hello world</title><h1>Hello world</h1>".to_vec(),
        )];
        let finders = crate::extractors::headlines();
        let rows = run_headline(&pages, finders.all(), 1);
        assert_eq!(rows.len(), finders.len() + 1);
        assert_eq!(rows[0].algo, "dom");
        assert_eq!(rows[1].algo, "tf");
        let t = headline_table(&rows);
        assert!(t.contains("KB/s") && t.contains("largest"));
    }
}
