//! Presenting a [`Report`]: plain-text tables, the full JSON report, CSV, and SVG plots
//! (plotters, SVG backend; text is drawn as SVG `<text>`, no font files needed).
//!
//! Every figure is the measure of the report's [`Metric`](crate::eval::run::Metric): precision
//! `P = common / extract`, recall `R = common / gold`, `F1 = 2PR / (P + R)` per page (Gottron
//! 2009, section 3; Mohammadzadeh 2013, Formula 4.1; for the character measures Arias Moreno et
//! al. 2009, section 5.2), and a group's figure is the mean of its per-page values (macro average,
//! `REFERENCE.md`). Counts are in the metric's unit (tokens or chars). Times are milliseconds per
//! page or seconds in total, as labelled.
//!
//! The plots need the `plots` cargo feature (on by default); without it [`write_dir`] writes
//! `report.json` only ([`PLOTS`] says which).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[cfg(feature = "plots")]
use plotters::prelude::*;
use serde_json::{json, Value};

use crate::error::{Error, Result};
use crate::eval::run::{GroupBy, Report, Summary};

/// For an option enum: `NAMES` (the command-line names, in declaration order), `name()` and a
/// case-insensitive `FromStr` whose error ([`Error::Param`]) lists the names.
macro_rules! named_options {
    ($t:ident, $what:literal, [$($v:ident = $n:literal),+ $(,)?]) => {
        impl $t {
            /// The command-line names, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($n),+];

            /// The command-line name.
            pub fn name(self) -> &'static str {
                match self {
                    $($t::$v => $n,)+
                }
            }
        }

        impl std::str::FromStr for $t {
            type Err = Error;

            /// Parses a command-line name (case-insensitive, trimmed). Errors: [`Error::Param`]
            /// listing the names.
            fn from_str(s: &str) -> Result<$t> {
                [$($t::$v),+]
                    .into_iter()
                    .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
                    .ok_or_else(|| {
                        Error::Param(format!(
                            "unknown {} {s:?}; known: {}",
                            $what,
                            Self::NAMES.join(", ")
                        ))
                    })
            }
        }
    };
}

/// The layout of [`table`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableBy {
    /// Algorithms as rows, corpora as columns.
    Corpus,
    /// One row per site (the host of the gold URL, per corpus), algorithms as columns: there are
    /// usually far more sites than algorithms, so this keeps the table readable in a terminal.
    Site,
    /// One row per (algorithm, page): P, R, F1 and the extract and gold sizes.
    Page,
    /// One row per page type (the gold's `page_type`, per corpus; pages without one in the row
    /// [`crate::eval::run::NO_PAGE_TYPE`]), algorithms as columns.
    Type,
}

named_options!(
    TableBy,
    "table grouping",
    [
        Corpus = "corpus",
        Site = "site",
        Page = "page",
        Type = "type"
    ]
);

/// The output format of an evaluation (`cescope eval --format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A text table ([`table`]).
    Table,
    /// The full report as JSON ([`to_json`]).
    Json,
    /// One line per (corpus, algorithm, page) ([`csv`]).
    Csv,
}

named_options!(
    Format,
    "output format",
    [Table = "table", Json = "json", Csv = "csv"]
);

/// Renders a text table of columns, the first `left` columns left-aligned, the rest right-aligned,
/// two spaces apart.
fn render(rows: &[Vec<String>], left: usize) -> String {
    let ncol = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..ncol)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            let pad = width[c] - cell.chars().count();
            if c < left {
                line.push_str(cell);
                line.extend(std::iter::repeat_n(' ', pad));
            } else {
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A summary cell: `F1 (empty)`, or `P / R / F1 (empty)` with `prf`, three decimals.
pub fn cell(s: &Summary, prf: bool) -> String {
    if prf {
        format!(
            "{:.3} / {:.3} / {:.3} ({})",
            s.precision, s.recall, s.f1, s.empty
        )
    } else {
        format!("{:.3} ({})", s.f1, s.empty)
    }
}

/// The evaluation table as text.
///
/// * [`TableBy::Corpus`]: algorithms as rows, one column per corpus (header `name (pages)`), each
///   cell the macro-averaged F1 and, in parentheses, the number of empty extracts, e.g.
///   `0.866 (0)`; with `prf` the cells are `P / R / F1 (empty)`.
/// * [`TableBy::Site`]: one row per site (corpus, host, pages), one column per algorithm, same
///   cells.
/// * [`TableBy::Type`]: as `Site`, one row per page type (corpus, type, pages).
/// * [`TableBy::Page`]: one row per (algorithm, page): P, R, F1, extract and gold sizes in the
///   metric's unit (`prf` is implied), and `yes` in the last column, `js shell`, for a
///   JavaScript shell ([`crate::page::shell`]).
///
/// The first line names the metric and how to read the cells. When some pages are JavaScript
/// shells, the grouped tables end with the per-corpus means without them.
pub fn table(report: &Report, by: TableBy, prf: bool) -> String {
    let m = report.metric;
    let what = if prf { "P / R / F1" } else { "F1" };
    let multi = report.corpora.len() > 1;
    let mut rows: Vec<Vec<String>> = Vec::new();
    let (head, left) = match by {
        TableBy::Corpus | TableBy::Site | TableBy::Type => (
            format!(
                "{what}, {}; mean of per-page values, (n) = empty extracts\n",
                m.describe()
            ),
            if by == TableBy::Corpus { 1 } else { 2 },
        ),
        TableBy::Page => (
            format!(
                "P / R / F1 per page, {}; extract and gold in {}\n",
                m.describe(),
                m.unit()
            ),
            3,
        ),
    };
    match by {
        TableBy::Corpus => rows = corpus_rows(report, &report.summarize(GroupBy::Corpus), prf),
        TableBy::Site | TableBy::Type => {
            let (group_by, key) = if by == TableBy::Site {
                (GroupBy::Site, "site")
            } else {
                (GroupBy::Type, "type")
            };
            let groups = report.summarize(group_by);
            let mut header = vec!["corpus".into(), key.into(), "pages".into()];
            header.extend(report.algos.iter().map(|a| a.name.clone()));
            rows.push(header);
            for g in &groups {
                let mut r = vec![
                    g.corpus.clone(),
                    g.label(false),
                    g.summaries.first().map_or(0, |s| s.pages).to_string(),
                ];
                r.extend(g.summaries.iter().map(|s| cell(s, prf)));
                rows.push(r);
            }
        }
        TableBy::Page => {
            rows.push(
                [
                    "algo", "corpus", "page", "P", "R", "F1", "extract", "gold", "js shell",
                ]
                .map(String::from)
                .to_vec(),
            );
            for a in &report.algos {
                for (p, r) in report.pages.iter().zip(&a.results) {
                    rows.push(vec![
                        a.name.clone(),
                        p.corpus.clone(),
                        p.id.clone(),
                        format!("{:.3}", r.prf.precision),
                        format!("{:.3}", r.prf.recall),
                        format!("{:.3}", r.prf.f1),
                        r.prf.extract_len.to_string(),
                        r.prf.gold_len.to_string(),
                        if p.js_shell { "yes" } else { "" }.to_string(),
                    ]);
                }
            }
        }
    }
    // With a single corpus the corpus column of the per-site and per-page tables says nothing.
    let drop_corpus = !multi && by != TableBy::Corpus;
    let drop_at = if matches!(by, TableBy::Site | TableBy::Type) {
        0
    } else {
        1
    };
    if drop_corpus {
        for r in &mut rows {
            r.remove(drop_at);
        }
    }
    let left = if drop_corpus { left - 1 } else { left };
    let mut out = head + &render(&rows, left);
    let shells = report.shells();
    if shells > 0 && by != TableBy::Page {
        // The means again without the JavaScript shells, per corpus.
        let _ = writeln!(
            out,
            "\nJavaScript shells (almost no text outside <script> and <title>: what a browser shows \
             is written by scripts): {shells} of {} pages; {what} without them:",
            report.pages.len()
        );
        let rows = corpus_rows(
            report,
            &report.summarize_without_shells(GroupBy::Corpus),
            prf,
        );
        out.push_str(&render(&rows, 1));
    }
    out
}

/// The rows of the per-corpus table over `groups` (one per corpus): the header `algo`,
/// `name (pages)`…, then one row per algorithm with a [`cell`] per corpus.
fn corpus_rows(report: &Report, groups: &[crate::eval::run::Group], prf: bool) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut header = vec!["algo".to_string()];
    header.extend(groups.iter().map(|g| {
        format!(
            "{} ({})",
            g.corpus,
            g.summaries.first().map_or(0, |s| s.pages)
        )
    }));
    rows.push(header);
    for (a, algo) in report.algos.iter().enumerate() {
        let mut r = vec![algo.name.clone()];
        r.extend(groups.iter().map(|g| cell(&g.summaries[a], prf)));
        rows.push(r);
    }
    rows
}

fn summary_json(s: &Summary) -> Value {
    json!({
        "pages": s.pages,
        "precision": s.precision,
        "recall": s.recall,
        "f1": s.f1,
        "empty": s.empty,
    })
}

/// The full report as JSON:
///
/// ```text
/// { "metric", "metric_description", "unit", "corpora": [{"name", "pages"}], "threads",
///   "wall_seconds",
///   "js_shells",
///   "algos": [{"name", "params", "run_seconds", "overall": summary,
///              "overall_without_js_shells": summary,
///              "by_corpus": [{"corpus", ...summary, "without_js_shells": summary}]}],
///   "by_site": [{"corpus", "site", "algos": [{"algo", ...summary}]}],
///   "by_type": [{"corpus", "page_type", "algos": [...]}],   (only when some page has a type)
///   "pages": [{"corpus", "id", "path", "site", "url", "page_type"?, "bytes", "load_ms", "error",
///              "js_shell",
///              "results": [{"algo", "precision", "recall", "f1", "common", "extract_len",
///                           "gold_len", "empty", "run_ms"}]}] }
/// ```
///
/// A summary is `{"pages", "precision", "recall", "f1", "empty"}` (means of per-page values and
/// the number of empty extracts); `run_seconds` is the CPU time of the extractor summed over pages.
pub fn to_json(report: &Report) -> Value {
    let by_corpus = report.summarize(GroupBy::Corpus);
    let no_shells = report.summarize_without_shells(GroupBy::Corpus);
    let by_site = report.summarize(GroupBy::Site);
    let algos: Vec<Value> = report
        .algos
        .iter()
        .enumerate()
        .map(|(a, algo)| {
            json!({
                "name": algo.name,
                "params": algo.params,
                "run_seconds": algo.run_seconds,
                "overall": summary_json(&report.overall(a)),
                "overall_without_js_shells": summary_json(&report.overall_without_shells(a)),
                "by_corpus": by_corpus.iter().map(|g| {
                    let mut v = summary_json(&g.summaries[a]);
                    v["corpus"] = json!(g.corpus);
                    let without = no_shells
                        .iter()
                        .find(|h| h.corpus == g.corpus)
                        .map_or(Summary { pages: 0, precision: 0.0, recall: 0.0, f1: 0.0, empty: 0 }, |h| h.summaries[a].clone());
                    v["without_js_shells"] = summary_json(&without);
                    v
                }).collect::<Vec<_>>(),
            })
        })
        .collect();
    let groups_json = |groups: &[crate::eval::run::Group], key: &str| -> Vec<Value> {
        groups
            .iter()
            .map(|g| {
                json!({
                    "corpus": g.corpus,
                    key: if key == "site" { &g.site } else { &g.page_type },
                    "algos": g.summaries.iter().zip(&report.algos).map(|(s, a)| {
                        let mut v = summary_json(s);
                        v["algo"] = json!(a.name);
                        v
                    }).collect::<Vec<_>>(),
                })
            })
            .collect()
    };
    let sites = groups_json(&by_site, "site");
    let pages: Vec<Value> = report
        .pages
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
            v["results"] = report
                .algos
                .iter()
                .map(|a| {
                    let mut r = serde_json::to_value(a.results[i]).unwrap_or(Value::Null);
                    r["algo"] = json!(a.name);
                    r
                })
                .collect::<Vec<_>>()
                .into();
            v
        })
        .collect();
    let mut out = json!({
        "metric": report.metric,
        "metric_description": report.metric.describe(),
        "unit": report.metric.unit(),
        "corpora": by_corpus.iter().map(|g| json!({
            "name": g.corpus,
            "pages": g.summaries.first().map_or(0, |s| s.pages),
        })).collect::<Vec<_>>(),
        "threads": report.threads,
        "wall_seconds": report.wall_seconds,
        "js_shells": report.shells(),
        "algos": algos,
        "by_site": sites,
        "pages": pages,
    });
    if report.pages.iter().any(|p| p.page_type.is_some()) {
        out["by_type"] = groups_json(&report.summarize(GroupBy::Type), "page_type").into();
    }
    out
}

/// `s` as one CSV field (RFC 4180): quoted when it holds a comma, quote or line break.
pub(crate) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The per-page results as CSV (RFC 4180 quoting), one line per (corpus, algorithm, page) in
/// that order, after the header
/// `corpus,algo,page,site,precision,recall,f1,common,extract_len,gold_len,empty,run_ms,error,js_shell`.
/// Counts are in the metric's unit; `run_ms` in milliseconds; `js_shell` is `true` for a
/// JavaScript shell ([`crate::page::shell`]).
pub fn csv(report: &Report) -> String {
    let mut out = String::from(
        "corpus,algo,page,site,precision,recall,f1,common,extract_len,gold_len,empty,run_ms,error,js_shell\n",
    );
    for corpus in &report.corpora {
        for a in &report.algos {
            for (p, r) in report.pages.iter().zip(&a.results) {
                if p.corpus != *corpus {
                    continue;
                }
                let _ = writeln!(
                    out,
                    "{},{},{},{},{},{},{},{},{},{},{},{:.3},{},{}",
                    csv_field(&p.corpus),
                    csv_field(&a.name),
                    csv_field(&p.id),
                    csv_field(&p.site),
                    r.prf.precision,
                    r.prf.recall,
                    r.prf.f1,
                    r.prf.common,
                    r.prf.extract_len,
                    r.prf.gold_len,
                    r.empty,
                    r.run_ms,
                    csv_field(p.error.as_deref().unwrap_or("")),
                    p.js_shell,
                );
            }
        }
    }
    out
}

/// Writes `data` to `path` atomically ([`crate::fsio::write`]: temporary file and rename,
/// never through a symbolic link), replacing an earlier file.
fn write_file(path: &Path, data: &[u8]) -> Result<()> {
    let opts = crate::fsio::write::WriteOptions::default();
    crate::fsio::write::write_bytes(path, &opts, data)?;
    Ok(())
}

/// Whether this build draws the SVG plots (the `plots` cargo feature).
pub const PLOTS: bool = cfg!(feature = "plots");

fn plot_err(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::io(path, std::io::Error::other(e.to_string()))
}

/// Counts of `values` in 10 bins of width 0.1 over `[0, 1]`: bin `i` holds `[i/10, (i+1)/10)`,
/// the last bin also 1.0.
pub fn f1_bins(values: &[f64]) -> [usize; 10] {
    let mut bins = [0; 10];
    for &v in values {
        let i = ((v * 10.0).floor().max(0.0) as usize).min(9);
        bins[i] += 1;
    }
    bins
}

/// Writes the F1 distribution of every algorithm on every corpus to `path` (SVG): a grid with
/// one row per algorithm and one column per corpus, each panel a histogram of the per-page F1
/// of that corpus' pages in 10 bins over `[0, 1]` (`f1_bins`), all panels on the same
/// page-count scale, captioned with the algorithm, the corpus, its mean F1 and page count —
/// the numbers of the table's per-corpus cells (corpora are never pooled).
#[cfg(feature = "plots")]
pub fn plot_histograms(report: &Report, path: &Path) -> Result<()> {
    let groups = report.summarize(GroupBy::Corpus);
    let (rows, cols) = (report.algos.len().max(1), groups.len().max(1));
    // Page indices of each corpus.
    let members: Vec<Vec<usize>> = groups
        .iter()
        .map(|g| {
            (0..report.pages.len())
                .filter(|&i| report.pages[i].corpus == g.corpus)
                .collect()
        })
        .collect();
    let bins: Vec<Vec<[usize; 10]>> = (0..report.algos.len())
        .map(|a| {
            let f = report.f1s(a);
            members
                .iter()
                .map(|m| f1_bins(&m.iter().map(|&i| f[i]).collect::<Vec<_>>()))
                .collect()
        })
        .collect();
    let ymax = bins
        .iter()
        .flatten()
        .flat_map(|b| b.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1) as u32;
    let mut svg = String::new();
    let root = SVGBackend::with_string(&mut svg, (520 * cols as u32, 240 * rows as u32))
        .into_drawing_area();
    root.fill(&WHITE).map_err(|e| plot_err(path, e))?;
    for (k, panel) in root.split_evenly((rows, cols)).iter().enumerate() {
        let (a, c) = (k / cols, k % cols);
        let (Some(algo), Some(group)) = (report.algos.get(a), groups.get(c)) else {
            continue;
        };
        let color = Palette99::pick(a).to_rgba();
        let mut chart = ChartBuilder::on(panel)
            .caption(
                format!(
                    "{}: {} F1 ({}), mean {:.3}, {} pages",
                    algo.name,
                    group.corpus,
                    report.metric.name(),
                    group.summaries[a].f1,
                    members[c].len()
                ),
                ("sans-serif", 15),
            )
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(40)
            .build_cartesian_2d(0f64..1f64, 0u32..ymax + ymax / 6 + 2)
            .map_err(|e| plot_err(path, e))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(11)
            .x_label_formatter(&|x| format!("{x:.1}"))
            .x_desc("F1")
            .y_desc("pages")
            .draw()
            .map_err(|e| plot_err(path, e))?;
        let b = bins[a][c];
        chart
            .draw_series(b.iter().enumerate().map(|(i, &n)| {
                let mut r = Rectangle::new(
                    [(i as f64 / 10.0, 0), ((i + 1) as f64 / 10.0, n as u32)],
                    color.filled(),
                );
                r.set_margin(0, 0, 2, 2);
                r
            }))
            .map_err(|e| plot_err(path, e))?;
        chart
            .draw_series(b.iter().enumerate().filter(|(_, &n)| n > 0).map(|(i, &n)| {
                Text::new(
                    n.to_string(),
                    ((i as f64 + 0.45) / 10.0, n as u32 + ymax / 9 + 1),
                    ("sans-serif", 11),
                )
            }))
            .map_err(|e| plot_err(path, e))?;
    }
    root.present().map_err(|e| plot_err(path, e))?;
    drop(root);
    write_file(path, svg.as_bytes())
}

/// The pages where two per-page F1 lists differ most: indices of at most `n` pages with
/// `|x − y| ≥ min_gap`, largest difference first (ties by index).
pub fn outliers(x: &[f64], y: &[f64], n: usize, min_gap: f64) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..x.len().min(y.len()))
        .filter(|&i| (x[i] - y[i]).abs() >= min_gap)
        .collect();
    idx.sort_by(|&i, &j| {
        (y[j] - x[j])
            .abs()
            .total_cmp(&(y[i] - x[i]).abs())
            .then(i.cmp(&j))
    });
    idx.truncate(n);
    idx
}

/// A short name for page `i` of a report in a plot: its site and the start of its id.
#[cfg(feature = "plots")]
fn page_label(report: &Report, i: usize) -> String {
    let p = &report.pages[i];
    let id: String = p.id.chars().take(10).collect();
    if p.site == "unknown" || p.site.is_empty() {
        id
    } else {
        format!("{} {id}", p.site.trim_start_matches("www."))
    }
}

/// Wins of `x` over `y` per page: `(x better, y better, ties)`, ties within 1e-9.
pub fn wins(x: &[f64], y: &[f64]) -> (usize, usize, usize) {
    let mut w = (0, 0, 0);
    for (a, b) in x.iter().zip(y) {
        if (a - b).abs() <= 1e-9 {
            w.2 += 1;
        } else if a > b {
            w.0 += 1;
        } else {
            w.1 += 1;
        }
    }
    w
}

/// How many of the pages where a scatter's two algorithms differ most are labelled.
pub const OUTLIER_LABELS: usize = 12;
/// The smallest F1 difference a labelled scatter outlier has.
pub const OUTLIER_GAP: f64 = 0.3;

/// Writes a per-page F1 scatter of algorithms `x` and `y` (indices into [`Report::algos`]) to
/// `path` (SVG): one point per page at (F1 of x, F1 of y), the diagonal `y = x`, a title
/// naming the axes and counting the pages where each algorithm wins (and ties), and the
/// [`OUTLIER_LABELS`] pages where they differ most (by at least [`OUTLIER_GAP`]) labelled with
/// their site and id ([`outliers`]).
#[cfg(feature = "plots")]
pub fn plot_scatter(report: &Report, x: usize, y: usize, path: &Path) -> Result<()> {
    let (fx, fy) = (report.f1s(x), report.f1s(y));
    let (nx, ny) = (&report.algos[x].name, &report.algos[y].name);
    let (wx, wy, ties) = wins(&fx, &fy);
    let mut svg = String::new();
    let root = SVGBackend::with_string(&mut svg, (760, 760)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| plot_err(path, e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "per-page F1 ({}): x = {nx}, y = {ny}; {nx} better on {wx}, {ny} better on {wy}, tie {ties}",
                report.metric.name()
            ),
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(48)
        .build_cartesian_2d(-0.02f64..1.02f64, -0.02f64..1.02f64)
        .map_err(|e| plot_err(path, e))?;
    chart
        .configure_mesh()
        .x_labels(11)
        .y_labels(11)
        .x_label_formatter(&|v| format!("{v:.1}"))
        .y_label_formatter(&|v| format!("{v:.1}"))
        .x_desc(format!("{nx} F1"))
        .y_desc(format!("{ny} F1"))
        .draw()
        .map_err(|e| plot_err(path, e))?;
    chart
        .draw_series(LineSeries::new([(0.0, 0.0), (1.0, 1.0)], BLACK.mix(0.5)))
        .map_err(|e| plot_err(path, e))?;
    chart
        .draw_series(
            fx.iter()
                .zip(&fy)
                .map(|(&a, &b)| Circle::new((a, b), 3, BLUE.mix(0.55).filled())),
        )
        .map_err(|e| plot_err(path, e))?;
    // The pages where the two disagree most are named (site and id), so they can be opened.
    chart
        .draw_series(
            outliers(&fx, &fy, OUTLIER_LABELS, OUTLIER_GAP)
                .into_iter()
                .map(|i| {
                    Text::new(
                        page_label(report, i),
                        (fx[i] + 0.01, fy[i] + 0.01),
                        ("sans-serif", 11),
                    )
                }),
        )
        .map_err(|e| plot_err(path, e))?;
    root.present().map_err(|e| plot_err(path, e))?;
    drop(chart);
    drop(root);
    write_file(path, svg.as_bytes())
}

/// Writes `report.json` ([`to_json`]), `f1-histogram.svg` ([`plot_histograms`]) and, when
/// `scatter` names two algorithms, `f1-scatter.svg` ([`plot_scatter`]) into `dir` (created if
/// missing), each atomically (temporary file and rename; a symbolic link in the way is
/// refused). Without the `plots` feature ([`PLOTS`] false) only `report.json` is written.
/// Returns the paths written. Errors: [`Error::Io`], [`Error::Write`].
pub fn write_dir(
    report: &Report,
    dir: &Path,
    scatter: Option<(usize, usize)>,
) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut written = Vec::new();
    let json_path = dir.join("report.json");
    let text =
        serde_json::to_string_pretty(&to_json(report)).map_err(|e| plot_err(&json_path, e))?;
    write_file(&json_path, (text + "\n").as_bytes())?;
    written.push(json_path);
    #[cfg(feature = "plots")]
    {
        let hist = dir.join("f1-histogram.svg");
        plot_histograms(report, &hist)?;
        written.push(hist);
        if let Some((x, y)) = scatter {
            let sc = dir.join("f1-scatter.svg");
            plot_scatter(report, x, y, &sc)?;
            written.push(sc);
        }
    }
    #[cfg(not(feature = "plots"))]
    let _ = scatter;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_and_wins() {
        assert_eq!(
            f1_bins(&[0.0, 0.05, 0.1, 0.95, 1.0, 0.5]),
            [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]
        );
        assert_eq!(wins(&[1.0, 0.5, 0.2], &[0.5, 0.5, 0.3]), (1, 1, 1));
    }

    #[test]
    fn csv_quoting_and_alignment() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
        let t = render(
            &[
                vec!["algo".into(), "x".into()],
                vec!["danag".into(), "0.5 (0)".into()],
            ],
            1,
        );
        assert_eq!(t, "algo         x\ndanag  0.5 (0)\n");
    }
}
