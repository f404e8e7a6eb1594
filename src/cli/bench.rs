//! `cescope bench`: throughput of the page model, the algorithms, the headline finders, the
//! inspector and the optimiser's fitness.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;

use cescope::bench;
use cescope::extract::Params;

use super::TableOrJson;

/// Measure single-threaded throughput (MB/s, ms/page) of the page model and the algorithms.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Page files, directories of pages, or ground-truth.json corpora.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Algorithm name, comma-separated names, or `all`.
    #[arg(long, short, default_value = "all")]
    algo: String,
    /// Output format.
    #[arg(long, short, value_enum, default_value = "table")]
    format: TableOrJson,
    /// Passes over all pages per row; the fastest is reported.
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Measure the inspector's latencies instead (open → first frame, slider change →
    /// frame, scrolling frames) on each page file given, with the first algorithm of --algo.
    #[arg(long)]
    inspector: bool,
    /// Measure the headline finders instead (--algo names them; default all), in KB/s as
    /// Mohammadzadeh 2013, Table 5.4; DOM build included.
    #[arg(long, conflicts_with = "inspector")]
    headline: bool,
    /// Measure the optimiser's fitness instead: N evaluations (mean word F1 over every
    /// page of the corpus with gold) of random settings of the first algorithm of --algo,
    /// memo off, on all cores; prints evaluations/s.
    #[arg(long, value_name = "N", conflicts_with_all = ["inspector", "headline"])]
    fitness: Option<usize>,
    /// Seed of the random settings of --fitness.
    #[arg(long, value_name = "N", default_value_t = 13, requires = "fitness")]
    seed: u64,
    /// With --fitness: vary only these parameters (comma-separated), as `optimize --only`.
    #[arg(
        long,
        value_name = "NAMES",
        value_delimiter = ',',
        requires = "fitness"
    )]
    only: Option<Vec<String>>,
}

/// `cescope bench`: the fitness, headline-finder, inspector or algorithm benchmark, as the flags
/// choose; the table or JSON on standard output. Errors: unknown names, unreadable inputs.
pub fn run(args: &BenchArgs) -> Result<()> {
    if let Some(n) = args.fitness {
        fitness(args, n)
    } else if args.headline {
        let finders = cescope::extractors::resolve_headlines(&args.algo)?;
        let pages = bench::load_inputs(&args.inputs).context("loading benchmark inputs")?;
        let rows = bench::run_headline(&pages, &finders, args.repeat);
        print(&rows, bench::headline_table, args.format)
    } else if args.inspector {
        inspector(args)
    } else {
        let algos = cescope::extractors::resolve(&args.algo)?;
        let pages = bench::load_inputs(&args.inputs).context("loading benchmark inputs")?;
        let rows = bench::run(&pages, &algos, args.repeat);
        print(&rows, bench::table, args.format)
    }
}

/// Prints benchmark rows as `table` lays them out, or as JSON.
fn print<R: serde::Serialize>(
    rows: &[R],
    table: fn(&[R]) -> String,
    format: TableOrJson,
) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match format {
        TableOrJson::Table => write!(out, "{}", table(rows))?,
        TableOrJson::Json => {
            serde_json::to_writer_pretty(&mut out, rows)?;
            writeln!(out)?;
        }
    }
    Ok(())
}

/// `cescope bench --inspector`: the inspector's frame latencies on each page, with the first
/// algorithm of `--algo` (the default algorithm for `all`).
#[cfg(feature = "tui")]
fn inspector(args: &BenchArgs) -> Result<()> {
    use cescope::extractors::DEFAULT_ALGORITHM;
    let name = if args.algo == "all" {
        DEFAULT_ALGORITHM
    } else {
        args.algo.split(',').next().unwrap_or(DEFAULT_ALGORITHM)
    };
    cescope::extractors::find(name)?;
    let mut rows = Vec::new();
    for p in &args.inputs {
        rows.extend(cescope::tui::bench::measure(p, name)?);
    }
    print(&rows, cescope::tui::bench::table, args.format)
}

/// Without the `tui` feature there is no inspector to measure: says so.
#[cfg(not(feature = "tui"))]
fn inspector(_args: &BenchArgs) -> Result<()> {
    anyhow::bail!(super::NO_TUI)
}

/// `cescope bench --fitness N`: the optimiser's fitness evaluations per second.
fn fitness(args: &BenchArgs, n: usize) -> Result<()> {
    use cescope::eval::run;
    use cescope::optimize::{fitness_bench, ParamSpace, SearchSpace, TrainingSet};
    let first = args.algo.split(',').next().unwrap_or(&args.algo);
    let e: std::sync::Arc<dyn cescope::extract::Extractor> =
        cescope::extractors::find(first.trim())?;
    let space = ParamSpace::new(
        e.clone(),
        Params::defaults(e.params()),
        args.only.as_deref(),
    )?;
    let (pages, notes) = run::gather_with(&args.inputs, &run::CorpusOrGoldFiles)?;
    for n in &notes {
        eprintln!("cescope: note: {n}");
    }
    let t = Instant::now();
    let training = TrainingSet::load(&pages, space.needs_dom())?;
    let load = t.elapsed().as_secs_f64();
    let r = fitness_bench(&space, &training, n, args.seed);
    let mut out = std::io::stdout().lock();
    match args.format {
        TableOrJson::Table => {
            writeln!(
                out,
                "fitness of {} ({}): {} evaluations ({} distinct settings, memo off) x {} pages in {:.2} s on {} thread(s): {:.1} evaluations/s (pages loaded and lexed once in {:.2} s, not counted)",
                e.name(),
                space.gene_names().join(", "),
                r.evaluations,
                r.distinct,
                r.pages,
                r.seconds,
                r.threads,
                r.per_second,
                load
            )?;
        }
        TableOrJson::Json => {
            serde_json::to_writer_pretty(
                &mut out,
                &json!({"algo": e.name(), "load_seconds": load, "bench": r}),
            )?;
            writeln!(out)?;
        }
    }
    Ok(())
}
