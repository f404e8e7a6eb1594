//! The command-line tree (clap) and the code behind each subcommand.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;

use cescope::algorithms::{self, ParamKind, Params};
use cescope::bench;
use cescope::page::{DecodeOptions, Page};

/// cescope — main content extraction (MCE) from web pages.
#[derive(Debug, Parser)]
#[command(name = "cescope", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum TextOrJson {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum TableOrJson {
    Table,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Extract the main content of one page (`-` reads standard input; .gz is read transparently).
    Extract {
        /// The page: a path, `-` for standard input.
        file: PathBuf,
        /// Algorithm name (see `cescope algos`).
        #[arg(long, short, default_value = "danag")]
        algo: String,
        /// Set a parameter: NAME=VALUE (repeatable).
        #[arg(long = "set", short = 's', value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// Output format.
        #[arg(long, short, value_enum, default_value = "text")]
        format: TextOrJson,
        /// Decode with this encoding (a WHATWG label), overriding detection.
        #[arg(long, value_name = "LABEL")]
        encoding: Option<String>,
    },
    /// List the algorithms with their parameters, published defaults, ranges and sources.
    Algos {
        /// Print only the names, one per line.
        #[arg(long)]
        names: bool,
        /// Output format.
        #[arg(long, short, value_enum, default_value = "text")]
        format: TextOrJson,
    },
    /// Measure single-threaded throughput (MB/s, ms/page) of the page model and the algorithms.
    Bench {
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
    },
}

/// Runs the parsed command. Errors are input errors (exit code 1).
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Extract {
            file,
            algo,
            set,
            format,
            encoding,
        } => extract(file, &algo, &set, format, encoding),
        Command::Algos { names, format } => algos_cmd(names, format),
        Command::Bench {
            inputs,
            algo,
            format,
            repeat,
        } => bench_cmd(&inputs, &algo, format, repeat),
    }
}

fn extract(
    file: PathBuf,
    algo: &str,
    set: &[String],
    format: TextOrJson,
    encoding: Option<String>,
) -> Result<()> {
    let extractor = algorithms::find(algo)?;
    let mut params = Params::defaults(extractor.params());
    for s in set {
        params.set_str(extractor.params(), s)?;
    }
    let opts = DecodeOptions {
        encoding_override: encoding,
        ..Default::default()
    };
    let t0 = Instant::now();
    let page = Page::load(&file, &opts)?;
    let t_load = t0.elapsed();
    let t1 = Instant::now();
    let x = extractor.run(&page, &params);
    let t_run = t1.elapsed();
    let text = page.render(&x.selection);
    let mut out = std::io::stdout().lock();
    match format {
        TextOrJson::Text => {
            if !text.is_empty() {
                writeln!(out, "{text}")?;
            }
        }
        TextOrJson::Json => {
            let ranges: Vec<[usize; 2]> = x
                .selection
                .ranges()
                .iter()
                .map(|r| [r.start, r.end])
                .collect();
            let v = json!({
                "file": file.display().to_string(),
                "algo": extractor.name(),
                "params": params,
                "encoding": page.encoding().name(),
                "encoding_source": page.encoding_source(),
                "had_errors": page.had_errors(),
                "warnings": page.warnings(),
                "sha256": page.sha256_hex(),
                "bytes": page.raw().len(),
                "text_bytes": page.text().len(),
                "virtual_lines": page.lines().len(),
                "selection": ranges,
                "selected_bytes": x.selection.len_bytes(),
                "text": text,
                "timing_ms": {
                    "load": t_load.as_secs_f64() * 1e3,
                    "run": t_run.as_secs_f64() * 1e3,
                },
            });
            serde_json::to_writer_pretty(&mut out, &v)?;
            writeln!(out)?;
        }
    }
    for w in page.warnings() {
        eprintln!("cescope: warning: {w}");
    }
    Ok(())
}

fn kind_text(k: &ParamKind) -> String {
    match k {
        ParamKind::Int { min, max, step } => format!("int {min}..={max} step {step}"),
        ParamKind::Float { min, max, step } => format!("float {min}..={max} step {step}"),
        ParamKind::Bool => "bool".into(),
        ParamKind::Choice { choices } => format!("one of {}", choices.join("|")),
    }
}

fn algos_cmd(names: bool, format: TextOrJson) -> Result<()> {
    let reg = algorithms::registry();
    let mut out = std::io::stdout().lock();
    if names {
        for e in &reg {
            writeln!(out, "{}", e.name())?;
        }
        return Ok(());
    }
    match format {
        TextOrJson::Text => {
            for e in &reg {
                writeln!(out, "{}\n  {}", e.name(), e.describe())?;
                for p in e.params() {
                    writeln!(
                        out,
                        "  --set {}={:<12} {}\n      {}\n      source: {}",
                        p.name,
                        p.default.to_string(),
                        kind_text(&p.kind),
                        p.help,
                        p.source
                    )?;
                }
            }
        }
        TextOrJson::Json => {
            let v: Vec<_> = reg
                .iter()
                .map(|e| json!({"name": e.name(), "description": e.describe(), "params": e.params()}))
                .collect();
            serde_json::to_writer_pretty(&mut out, &v)?;
            writeln!(out)?;
        }
    }
    Ok(())
}

fn bench_cmd(inputs: &[PathBuf], algo: &str, format: TableOrJson, repeat: usize) -> Result<()> {
    let algos = algorithms::resolve(algo)?;
    let pages = bench::load_inputs(inputs).context("loading benchmark inputs")?;
    let rows = bench::run(&pages, &algos, repeat);
    let mut out = std::io::stdout().lock();
    match format {
        TableOrJson::Table => write!(out, "{}", bench::table(&rows))?,
        TableOrJson::Json => {
            serde_json::to_writer_pretty(&mut out, &rows)?;
            writeln!(out)?;
        }
    }
    Ok(())
}
