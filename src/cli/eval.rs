//! `cescope eval`: algorithms (or headline finders) against gold standards.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use serde_json::json;

use cescope::algorithms::{self, Params};
use cescope::eval::report::{Format as EvalFormat, TableBy};
use cescope::eval::run::Metric;

/// `cescope eval`: gathers the pages with gold, runs every selected algorithm on each (in
/// parallel over pages), prints the table / JSON / CSV on standard output, notes and the wall time
/// on standard error, and with `--report DIR` writes report.json and the SVG plots.
#[allow(clippy::too_many_arguments)]
pub(super) fn eval_cmd(
    corpora: &[PathBuf],
    algo: &str,
    set: &[String],
    metric: Metric,
    by: TableBy,
    prf: bool,
    format: EvalFormat,
    report_dir: Option<&std::path::Path>,
    scatter: Option<&str>,
    threads: Option<u16>,
) -> Result<()> {
    use cescope::eval::run;

    let t0 = Instant::now();
    let algos = run::configure(algorithms::resolve(algo)?, set)?;
    let names: Vec<&str> = algos.iter().map(|(e, _)| e.name()).collect();
    let find = |n: &str| {
        names
            .iter()
            .position(|a| a.eq_ignore_ascii_case(n.trim()))
            .with_context(|| {
                format!(
                    "--scatter: {:?} is not among the evaluated algorithms ({})",
                    n.trim(),
                    names.join(", ")
                )
            })
    };
    let scatter = match scatter {
        Some(s) => {
            let (x, y) = s
                .split_once(',')
                .with_context(|| format!("--scatter {s:?}: expected two names, A,B"))?;
            Some((find(x)?, find(y)?))
        }
        None => (names.len() >= 2).then_some((0, 1)),
    };
    let jsonl = corpora
        .iter()
        .filter(|c| cescope::batch::eval::is_jsonl(c))
        .count();
    let rep = if jsonl > 0 {
        if jsonl < corpora.len() {
            anyhow::bail!("give JSONL files or corpora (directories, ground-truth.json), not both");
        }
        let opts = cescope::batch::PipelineOptions::new(threads.map_or(0, usize::from));
        let (rep, notes) = cescope::batch::eval::evaluate_jsonl(corpora, &algos, metric, &opts)?;
        for n in &notes {
            eprintln!("cescope: note: {n}");
        }
        if rep.pages.is_empty() {
            anyhow::bail!("no record with a gold standard (articleBody) in the given JSONL files");
        }
        rep
    } else {
        eval_dirs(corpora, &algos, metric, threads)?
    };
    print_eval(rep, by, prf, format, report_dir, scatter, t0)
}

/// The directory / ground-truth form of `cescope eval`: gathers the pages, evaluates them.
pub(super) fn eval_dirs(
    corpora: &[PathBuf],
    algos: &[(Box<dyn algorithms::Extractor>, Params)],
    metric: Metric,
    threads: Option<u16>,
) -> Result<cescope::eval::run::Report> {
    use cescope::eval::run;
    use std::io::IsTerminal;
    let (pages, notes) = run::gather_with(corpora, &run::CorpusOrGoldFiles)?;
    for n in &notes {
        eprintln!("cescope: note: {n}");
    }
    if pages.is_empty() {
        anyhow::bail!("no page with a gold standard in the given corpora");
    }
    let progress = std::io::stderr().is_terminal();
    Ok(match threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n as usize)
            .build()
            .context("starting the worker threads")?
            .install(|| run::evaluate(&pages, algos, metric, progress)),
        None => run::evaluate(&pages, algos, metric, progress),
    })
}

/// Prints an evaluation report (warnings, table / JSON / CSV, report directory, wall time).
pub(super) fn print_eval(
    rep: cescope::eval::run::Report,
    by: TableBy,
    prf: bool,
    format: EvalFormat,
    report_dir: Option<&std::path::Path>,
    scatter: Option<(usize, usize)>,
    t0: Instant,
) -> Result<()> {
    use cescope::eval::report;
    for p in &rep.pages {
        let at = cescope::error::escape_controls(&format!("{}/{}", p.corpus, p.id));
        if let Some(e) = &p.error {
            eprintln!("cescope: warning: {at}: {e} (counted as an empty extract)");
        }
        for w in &p.warnings {
            eprintln!("cescope: warning: {at}: {w}");
        }
    }
    let mut out = std::io::stdout().lock();
    match format {
        EvalFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &report::to_json(&rep))?;
            writeln!(out)?;
        }
        EvalFormat::Csv => write!(out, "{}", report::csv(&rep))?,
        EvalFormat::Table => write!(out, "{}", report::table(&rep, by, prf))?,
    }
    out.flush()?;
    if let Some(dir) = report_dir {
        if !report::PLOTS {
            eprintln!(
                "cescope: note: this build has no plots (built without the `plots` feature): writing report.json, skipping the SVGs"
            );
        } else if scatter.is_none() {
            eprintln!("cescope: note: one algorithm only, no scatter plot");
        }
        let written = report::write_dir(&rep, dir, scatter)?;
        for w in written {
            eprintln!("cescope: wrote {}", w.display());
        }
    }
    eprintln!(
        "cescope: evaluated {} page(s) × {} algorithm(s) in {:.2} s wall ({} thread(s))",
        rep.pages.len(),
        rep.algos.len(),
        t0.elapsed().as_secs_f64(),
        rep.threads
    );
    Ok(())
}

/// `cescope eval --headline`: the headline finders on the pages with a gold headline; the
/// table (or the JSON report) on standard output, notes on standard error.
pub(super) fn eval_headline_cmd(
    corpora: &[PathBuf],
    algo: &str,
    set: &[String],
    by: TableBy,
    format: EvalFormat,
    threads: Option<u16>,
) -> Result<()> {
    use cescope::eval::headline as eh;
    use cescope::eval::run::{self, GroupBy};
    let t0 = Instant::now();
    let finders = eh::configure(cescope::headline::resolve(algo)?, set)?;
    let group = match by {
        TableBy::Corpus => GroupBy::Corpus,
        TableBy::Site => GroupBy::Site,
        TableBy::Type => GroupBy::Type,
        TableBy::Page => anyhow::bail!("--headline groups by corpus, site or type, not by page"),
    };
    if corpora.iter().any(|c| cescope::batch::eval::is_jsonl(c)) {
        anyhow::bail!(
            "eval --headline reads corpora (directories, ground-truth.json), not JSONL files yet"
        );
    }
    let (pages, notes) = run::gather_with(corpora, &run::CorpusOrGoldFiles)?;
    for n in &notes {
        eprintln!("cescope: note: {n}");
    }
    let (pages, dropped) = eh::with_headline(pages);
    if dropped > 0 {
        eprintln!("cescope: note: skipped {dropped} page(s) whose gold has no headline");
    }
    if pages.is_empty() {
        anyhow::bail!("no page with a gold headline in the given corpora");
    }
    let rep = match threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n as usize)
            .build()
            .context("starting the worker threads")?
            .install(|| eh::evaluate(&pages, &finders)),
        None => eh::evaluate(&pages, &finders),
    };
    for p in &rep.pages {
        if let Some(e) = &p.error {
            let at = cescope::error::escape_controls(&format!("{}/{}", p.corpus, p.id));
            eprintln!("cescope: warning: {at}: {e} (counted as no headline)");
        }
    }
    let mut out = std::io::stdout().lock();
    match format {
        EvalFormat::Json => {
            serde_json::to_writer_pretty(
                &mut out,
                &json!({"report": rep, "groups": rep.summarize(group)}),
            )?;
            writeln!(out)?;
        }
        EvalFormat::Csv => anyhow::bail!("--headline writes a table or JSON, not CSV"),
        EvalFormat::Table => write!(out, "{}", rep.table(group))?,
    }
    out.flush()?;
    eprintln!(
        "cescope: evaluated {} page(s) × {} headline finder(s) in {:.2} s wall",
        rep.pages.len(),
        rep.finders.len(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}
