//! `cescope eval`: algorithms (or headline finders) against gold standards.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;

use cescope::eval::report::{Format as EvalFormat, TableBy};
use cescope::eval::run::Metric;
use cescope::extract::Params;

use super::{named, with_threads};

/// Evaluate algorithms against the gold standards of corpora (mean of per-page P / R / F1).
// The doc comments are the help texts, shown as written (no Markdown).
#[allow(clippy::doc_markdown)]
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Corpora: directories of pages, ground-truth.json files, or directories holding one.
    #[arg(required = true, value_name = "CORPUS")]
    corpora: Vec<PathBuf>,
    /// Algorithm name, comma-separated names, or `all`.
    #[arg(long, short, default_value = "all")]
    algo: String,
    /// Set a parameter of every selected algorithm that has it: NAME=VALUE (repeatable).
    #[arg(long = "set", short = 's', value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Measure: word-sequence LCS, character LCSequence or character LCString.
    #[arg(long, short, default_value = "word", value_parser = named::<Metric>(&Metric::NAMES))]
    metric: Metric,
    /// Table columns / rows: per corpus, per site (host of the gold URL), per page, or per page
    /// type (the gold's `page_type`, e.g. in WCXB; pages without one in a row `(none)`).
    #[arg(long, default_value = "corpus", value_parser = named::<TableBy>(&TableBy::NAMES))]
    by: TableBy,
    /// Show precision / recall / F1 in every cell, not only F1.
    #[arg(long)]
    prf: bool,
    /// Output format (json: the full report; csv: one line per corpus, algorithm and page).
    #[arg(long, short, default_value = "table", value_parser = named::<EvalFormat>(&EvalFormat::NAMES))]
    format: EvalFormat,
    /// Also write report.json and SVG plots (F1 histograms, F1 scatter) into DIR.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// The two algorithms of the scatter plot: x,y (default: the first two selected).
    #[arg(long, value_name = "A,B", requires = "report")]
    scatter: Option<String>,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Evaluate headline finders instead (--algo names them; default all): exact match after
    /// white-space normalisation (A, B, C; recall, precision, F1; Mohammadzadeh 2013,
    /// Table 5.3) and word F1, on the pages whose gold has a headline.
    #[arg(long, conflicts_with_all = ["report", "scatter", "metric", "prf"])]
    headline: bool,
    /// Also score pages whose cescope gold file is still a draft or flagged (by default they
    /// are left out with a note: a draft is the output of the extractor that made it, not gold).
    #[arg(long)]
    drafts: bool,
    /// Finish every extract with this guideline before scoring (a preset name or a TOML file,
    /// see `cescope guideline list`): score a benchmark under its own definition of main
    /// content, e.g. `--guideline with-comments` on a gold that keeps comments.
    #[arg(long, value_name = "NAME|FILE", conflicts_with = "headline")]
    guideline: Option<String>,
}

/// The gold `cescope eval` scores against: reviewed gold only, unless `--drafts`.
fn gold_source(args: &EvalArgs) -> &'static dyn cescope::eval::run::GoldSource {
    use cescope::eval::run;
    if args.drafts {
        &run::CorpusOrGoldFiles
    } else {
        &run::ReviewedGold
    }
}

/// `cescope eval`: the headline finders with `--headline`, else the algorithms.
pub fn run(args: &EvalArgs) -> Result<()> {
    if args.headline {
        headline(args)
    } else {
        algos(args)
    }
}

/// `cescope eval`: gathers the pages with gold, runs every selected algorithm on each (in
/// parallel over pages), prints the table / JSON / CSV on standard output, notes and the wall time
/// on standard error, and with `--report DIR` writes report.json and the SVG plots.
fn algos(args: &EvalArgs) -> Result<()> {
    use cescope::eval::run;

    let t0 = Instant::now();
    let guideline = super::guideline(args.guideline.as_deref())?;
    let extractors = cescope::extractors::resolve(&args.algo)?
        .into_iter()
        .map(|e| cescope::guideline::guided(e, guideline.as_ref()))
        .collect();
    if let Some(g) = &guideline {
        eprintln!(
            "cescope: note: every extract finished by the guideline {}",
            g.summary()
        );
    }
    let algos = run::configure(extractors, &args.set)?;
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
    let scatter = match &args.scatter {
        Some(s) => {
            let (x, y) = s
                .split_once(',')
                .with_context(|| format!("--scatter {s:?}: expected two names, A,B"))?;
            Some((find(x)?, find(y)?))
        }
        None => (names.len() >= 2).then_some((0, 1)),
    };
    let corpora = &args.corpora;
    let jsonl = corpora
        .iter()
        .filter(|c| cescope::batch::eval::is_jsonl(c))
        .count();
    let rep = if jsonl > 0 {
        if jsonl < corpora.len() {
            anyhow::bail!("give JSONL files or corpora (directories, ground-truth.json), not both");
        }
        let opts = cescope::batch::PipelineOptions::new(args.threads.map_or(0, usize::from));
        let (rep, notes) =
            cescope::batch::eval::evaluate_jsonl(corpora, &algos, args.metric, &opts)?;
        for n in &notes {
            eprintln!("cescope: note: {n}");
        }
        if rep.pages.is_empty() {
            anyhow::bail!("no record with a gold standard (articleBody) in the given JSONL files");
        }
        rep
    } else {
        eval_dirs(args, &algos)?
    };
    print_eval(&rep, args, scatter, t0)
}

/// The directory / ground-truth form of `cescope eval`: gathers the pages, evaluates them.
fn eval_dirs(
    args: &EvalArgs,
    algos: &[(std::sync::Arc<dyn cescope::extract::Extractor>, Params)],
) -> Result<cescope::eval::run::Report> {
    use cescope::eval::run;
    use std::io::IsTerminal;
    let (pages, notes) = run::gather_with(&args.corpora, gold_source(args))?;
    for n in &notes {
        eprintln!("cescope: note: {n}");
    }
    if pages.is_empty() {
        anyhow::bail!(
            "no page with a gold standard in the given corpora{}",
            if args.drafts {
                ""
            } else {
                " (gold files still a draft or flagged are scored only with --drafts)"
            }
        );
    }
    let progress = std::io::stderr().is_terminal();
    with_threads(args.threads, || {
        run::evaluate(&pages, algos, args.metric, progress)
    })
}

/// Prints an evaluation report (warnings, table / JSON / CSV, report directory, wall time).
fn print_eval(
    rep: &cescope::eval::run::Report,
    args: &EvalArgs,
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
    match args.format {
        EvalFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &report::to_json(rep))?;
            writeln!(out)?;
        }
        EvalFormat::Csv => write!(out, "{}", report::csv(rep))?,
        EvalFormat::Table => write!(out, "{}", report::table(rep, args.by, args.prf))?,
    }
    out.flush()?;
    if let Some(dir) = &args.report {
        if !report::PLOTS {
            eprintln!(
                "cescope: note: this build has no plots (built without the `plots` feature): writing report.json, skipping the SVGs"
            );
        } else if scatter.is_none() {
            eprintln!("cescope: note: one algorithm only, no scatter plot");
        }
        let written = report::write_dir(rep, dir, scatter)?;
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
fn headline(args: &EvalArgs) -> Result<()> {
    use cescope::eval::headline as eh;
    use cescope::eval::run::{self, GroupBy};
    let t0 = Instant::now();
    let finders = eh::configure(
        cescope::extractors::resolve_headlines(&args.algo)?,
        &args.set,
    )?;
    let group = match args.by {
        TableBy::Corpus => GroupBy::Corpus,
        TableBy::Site => GroupBy::Site,
        TableBy::Type => GroupBy::Type,
        TableBy::Page => anyhow::bail!("--headline groups by corpus, site or type, not by page"),
    };
    if args
        .corpora
        .iter()
        .any(|c| cescope::batch::eval::is_jsonl(c))
    {
        anyhow::bail!(
            "eval --headline reads corpora (directories, ground-truth.json), not JSONL files yet"
        );
    }
    let (pages, notes) = run::gather_with(&args.corpora, gold_source(args))?;
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
    let rep = with_threads(args.threads, || eh::evaluate(&pages, &finders))?;
    for p in &rep.pages {
        if let Some(e) = &p.error {
            let at = cescope::error::escape_controls(&format!("{}/{}", p.corpus, p.id));
            eprintln!("cescope: warning: {at}: {e} (counted as no headline)");
        }
    }
    let mut out = std::io::stdout().lock();
    match args.format {
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
