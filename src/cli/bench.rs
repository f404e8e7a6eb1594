//! `cescope bench`: throughput of the page model, the algorithms, the headline finders, the
//! inspector and the optimiser's fitness.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use serde_json::json;

use cescope::algorithms::{self, Params};
use cescope::bench;

use super::TableOrJson;
#[cfg(not(feature = "tui"))]
use super::NO_TUI;

#[cfg(not(feature = "tui"))]
pub(super) fn inspector_bench(
    _inputs: &[PathBuf],
    _algo: &str,
    _format: TableOrJson,
) -> Result<()> {
    anyhow::bail!(NO_TUI)
}

#[cfg(feature = "tui")]
pub(super) fn inspector_bench(inputs: &[PathBuf], algo: &str, format: TableOrJson) -> Result<()> {
    let name = if algo == "all" {
        "danag"
    } else {
        algo.split(',').next().unwrap_or("danag")
    };
    algorithms::find(name)?;
    let mut rows = Vec::new();
    for p in inputs {
        rows.extend(cescope::tui::bench::measure(p, name)?);
    }
    let mut out = std::io::stdout().lock();
    match format {
        TableOrJson::Table => write!(out, "{}", cescope::tui::bench::table(&rows))?,
        TableOrJson::Json => {
            serde_json::to_writer_pretty(&mut out, &rows)?;
            writeln!(out)?;
        }
    }
    Ok(())
}

pub(super) fn bench_cmd(
    inputs: &[PathBuf],
    algo: &str,
    format: TableOrJson,
    repeat: usize,
) -> Result<()> {
    let algos = algorithms::resolve(algo)?;
    let pages = bench::load_inputs(inputs).context("loading benchmark inputs")?;
    print_bench(&bench::run(&pages, &algos, repeat), bench::table, format)
}

/// Prints benchmark rows as `table` lays them out, or as JSON.
pub(super) fn print_bench(
    rows: &[bench::BenchRow],
    table: fn(&[bench::BenchRow]) -> String,
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

pub(super) fn bench_headline_cmd(
    inputs: &[PathBuf],
    algo: &str,
    format: TableOrJson,
    repeat: usize,
) -> Result<()> {
    let finders = cescope::headline::resolve(algo)?;
    let pages = bench::load_inputs(inputs).context("loading benchmark inputs")?;
    print_bench(
        &bench::run_headline(&pages, &finders, repeat),
        bench::headline_table,
        format,
    )
}

/// `cescope bench --fitness N`: the optimiser's fitness evaluations per second.
pub(super) fn bench_fitness_cmd(
    inputs: &[PathBuf],
    algo: &str,
    only: Option<&[String]>,
    n: usize,
    seed: u64,
    format: TableOrJson,
) -> Result<()> {
    use cescope::eval::run;
    use cescope::optimize::{fitness_bench, ParamSpace, SearchSpace, TrainingSet};
    let first = algo.split(',').next().unwrap_or(algo);
    let e: std::sync::Arc<dyn algorithms::Extractor> = algorithms::find(first.trim())?.into();
    let space = ParamSpace::new(e.clone(), Params::defaults(e.params()), only)?;
    let (pages, notes) = run::gather_with(inputs, &run::CorpusOrGoldFiles)?;
    for n in &notes {
        eprintln!("cescope: note: {n}");
    }
    let t = Instant::now();
    let training = TrainingSet::load(&pages, space.needs_dom())?;
    let load = t.elapsed().as_secs_f64();
    let r = fitness_bench(&space, &training, n, seed);
    let mut out = std::io::stdout().lock();
    match format {
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
