//! The command-line tree (clap) and the code behind each subcommand.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;

use cescope::algorithms::{self, ParamKind, Params};
use cescope::bench;
use cescope::eval::report::{Format as EvalFormat, TableBy};
use cescope::eval::run::Metric;
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

// `optimize` has many options; the command is parsed once, so its size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open a page, a directory of pages or a ground-truth.json corpus in the inspector
    /// (also `cescope PATH`).
    Inspect {
        /// The page file, directory or ground-truth.json.
        path: PathBuf,
        /// The algorithm active at start.
        #[arg(long, short, default_value = "danag")]
        algo: String,
        /// Keymap: `default`, `vim` or a TOML file (a user override in the config directory's
        /// cescope/keymap.toml is merged on top).
        #[arg(long, default_value = "default")]
        keymap: String,
        /// Decode with this encoding (a WHATWG label), overriding detection.
        #[arg(long, value_name = "LABEL")]
        encoding: Option<String>,
        /// Skip syntect highlighting (colours come from cescope's byte classes only).
        #[arg(long)]
        no_syntax: bool,
        /// The annotator's name for gold files (default: `annotator` in the config directory's
        /// cescope/config.toml, else $USER).
        #[arg(long)]
        annotator: Option<String>,
        /// Directory of gold files (default: `gold/` beside the pages' folder, else inside it).
        #[arg(long, value_name = "DIR")]
        gold_dir: Option<PathBuf>,
    },
    /// Extract the main content of one page (`-` reads standard input; .gz is read transparently),
    /// or stream many with --input: WARC, JSONL or a directory of pages, one JSONL record out per
    /// page (id, url, algo, text, headline?, error?, bytes), on all cores, constant memory.
    Extract {
        /// The page: a path, `-` for standard input.
        #[arg(required_unless_present = "input", conflicts_with = "input")]
        file: Option<PathBuf>,
        /// Batch input: a WARC (.warc, .warc.gz) or JSONL (.jsonl, .jsonl.gz) file, `-` for
        /// standard input, or a directory of pages.
        #[arg(long, value_name = "FILE|DIR|-")]
        input: Option<PathBuf>,
        /// Format of --input (default: guessed from its name; required for `-`).
        #[arg(long, value_name = "FORMAT", requires = "input", value_parser = named::<cescope::batch::InputFormat>(&cescope::batch::InputFormat::NAMES))]
        input_format: Option<cescope::batch::InputFormat>,
        /// Batch output: `jsonl` (one extraction record per page) or `pages` (the input as JSONL
        /// pages {id, url, html, gold fields}, no extraction: a corpus or WARC turned into the
        /// JSONL that `cescope eval` and Spark read).
        #[arg(long, value_enum, default_value = "jsonl", requires = "input")]
        output: BatchOutput,
        /// Batch: worker threads (default: one per core).
        #[arg(long, value_name = "N", requires = "input", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
        /// Batch: write records as they finish instead of in input order.
        #[arg(long, requires = "input")]
        unordered: bool,
        /// Batch: also find each page's headline with this finder (see `cescope algos`).
        #[arg(long, value_name = "FINDER", requires = "input")]
        headline: Option<String>,
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
    /// Find the headline of one page: ranked candidates with scores and source byte ranges
    /// (TitleFinder, Mohammadzadeh 2013, chapter 5; `-` reads standard input).
    Title {
        /// The page: a path, `-` for standard input.
        file: PathBuf,
        /// Headline finder (see `cescope algos`): tf, tfidf, osm, aggregate, title, largest.
        #[arg(long, short, default_value = cescope::headline::DEFAULT_FINDER)]
        method: String,
        /// How many candidates to show, best first.
        #[arg(long, default_value_t = 1)]
        top: usize,
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
    },
    /// Evaluate algorithms against the gold standards of corpora (mean of per-page P / R / F1).
    Eval {
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
    },
    /// Optimise an algorithm's parameters on gold standards with a genetic search (Gottron 2009,
    /// section 4): fitness = mean word-LCS F1 on the training corpus, as `cescope eval` prints it.
    Optimize {
        /// The algorithm whose parameters are searched (see `cescope algos`).
        #[arg(long, short, required_unless_present_any = ["filter_set", "search_sets"], conflicts_with_all = ["filter_set", "search_sets"])]
        algo: Option<String>,
        /// A filter-set file (TOML) whose members' parameters are searched.
        #[arg(long, value_name = "FILE", conflicts_with = "search_sets")]
        filter_set: Option<PathBuf>,
        /// Search over filter sets instead: which members (--candidates), their order, serial /
        /// union / intersection / vote, vote weights and threshold; --out writes the winner as a
        /// set file that `--algo FILE` runs.
        #[arg(long, conflicts_with_all = ["only", "set"])]
        search_sets: bool,
        /// The algorithms a searched filter set may use (default: the paper's dsc, bte, accb, lqf).
        #[arg(
            long,
            value_name = "NAMES",
            value_delimiter = ',',
            default_value = "dsc,bte,accb,lqf",
            requires = "search_sets"
        )]
        candidates: Vec<String>,
        /// The largest number of members of a searched filter set.
        #[arg(long, value_name = "N", default_value_t = 3, requires = "search_sets")]
        max_members: usize,
        /// Training corpus: a directory of pages, a ground-truth.json, or a directory holding one.
        #[arg(long, required = true, value_name = "CORPUS")]
        train: Vec<PathBuf>,
        /// Test corpus (repeatable): the best setting and the defaults are scored on it.
        #[arg(long, value_name = "CORPUS")]
        test: Vec<PathBuf>,
        /// Search only these parameters (comma-separated); the others keep their defaults (or
        /// --set values).
        #[arg(long, value_name = "NAMES", value_delimiter = ',')]
        only: Option<Vec<String>>,
        /// Fix a parameter: NAME=VALUE (repeatable); the injected individual uses it too.
        #[arg(long = "set", short = 's', value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// Stop after N generations in a row without improvement (the paper's K).
        #[arg(long, value_name = "N", default_value_t = 5)]
        generations: usize,
        /// Stop after N generations in all.
        #[arg(long, value_name = "N", default_value_t = 50)]
        max_generations: usize,
        /// Individuals per generation.
        #[arg(long, value_name = "N", default_value_t = 20)]
        population: usize,
        /// The fittest N become parents and are carried over (default: a quarter of the
        /// population, at least 2).
        #[arg(long, value_name = "N")]
        parents: Option<usize>,
        /// Share of children made by recombination (the rest by mutation).
        #[arg(long, value_name = "P", default_value_t = 0.5)]
        crossover: f64,
        /// Probability that a mutation changes a gene (default: 1 / number of parameters).
        #[arg(long, value_name = "P")]
        mutation_rate: Option<f64>,
        /// Standard deviation of a numeric mutation, as a share of the parameter's range.
        #[arg(long, value_name = "S", default_value_t = 0.1)]
        deviation: f64,
        /// Seed of every random draw (same seed, same run, whatever --threads).
        #[arg(long, value_name = "N", default_value_t = 13)]
        seed: u64,
        /// Train on a seeded subset of N training pages.
        #[arg(long, value_name = "N")]
        sample: Option<usize>,
        /// Worker threads (default: one per core).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
        /// How many of the top individuals to list.
        #[arg(long, value_name = "N", default_value_t = 10)]
        top: usize,
        /// Output format.
        #[arg(long, short, value_enum, default_value = "text")]
        format: TextOrJson,
        /// Write the best setting to FILE as command-line arguments (`cescope eval CORPUS $(cat FILE)`).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Plot every configuration tried (SVG, like Gottron 2009, Fig. 4).
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
        /// The plot's axes: two parameter names X,Y, or one (Y is then the train F1). Default: the
        /// first two numeric parameters, else the first parameter against F1.
        #[arg(long, value_name = "X[,Y]", requires = "plot")]
        plot_axes: Option<String>,
    },
    /// Gold standards: mark pages by CSS selector, import / export the Scrapinghub format, check
    /// gold files, inter-annotator agreement.
    Gold {
        #[command(subcommand)]
        command: GoldCommand,
    },
}

/// Runs the parsed command. Errors are input errors (exit code 1).
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Inspect {
            path,
            algo,
            keymap,
            encoding,
            no_syntax,
            annotator,
            gold_dir,
        } => inspect(
            &path, &algo, &keymap, encoding, no_syntax, annotator, gold_dir,
        ),
        Command::Extract {
            input: Some(input),
            input_format,
            output,
            threads,
            unordered,
            headline,
            algo,
            set,
            encoding,
            ..
        } => extract_batch(
            &input,
            input_format,
            output,
            threads,
            unordered,
            headline.as_deref(),
            &algo,
            &set,
            encoding,
        ),
        Command::Extract {
            file,
            algo,
            set,
            format,
            encoding,
            ..
        } => extract(
            file.context("give a page file (or --input for a batch)")?,
            &algo,
            &set,
            format,
            encoding,
        ),
        Command::Title {
            file,
            method,
            top,
            set,
            format,
            encoding,
        } => title_cmd(file, &method, top, &set, format, encoding),
        Command::Algos { names, format } => algos_cmd(names, format),
        Command::Bench {
            inputs,
            algo,
            format,
            repeat,
            inspector,
            headline,
            fitness,
            seed,
            only,
        } => {
            if let Some(n) = fitness {
                bench_fitness_cmd(&inputs, &algo, only.as_deref(), n, seed, format)
            } else if headline {
                bench_headline_cmd(&inputs, &algo, format, repeat)
            } else if inspector {
                inspector_bench(&inputs, &algo, format)
            } else {
                bench_cmd(&inputs, &algo, format, repeat)
            }
        }
        Command::Eval {
            corpora,
            algo,
            set,
            by,
            format,
            threads,
            headline: true,
            ..
        } => eval_headline_cmd(&corpora, &algo, &set, by, format, threads),
        Command::Eval {
            corpora,
            algo,
            set,
            metric,
            by,
            prf,
            format,
            report,
            scatter,
            threads,
            headline: false,
        } => eval_cmd(
            &corpora,
            &algo,
            &set,
            metric,
            by,
            prf,
            format,
            report.as_deref(),
            scatter.as_deref(),
            threads,
        ),
        Command::Gold { command } => gold_cmd(command),
        Command::Optimize {
            algo,
            filter_set,
            search_sets,
            candidates,
            max_members,
            train,
            test,
            only,
            set,
            generations,
            max_generations,
            population,
            parents,
            crossover,
            mutation_rate,
            deviation,
            seed,
            sample,
            threads,
            top,
            format,
            out,
            plot,
            plot_axes,
        } => {
            let opts = cescope::optimize::GaOptions {
                population,
                parents: parents.unwrap_or((population / 4).max(2)),
                patience: generations,
                max_generations,
                crossover,
                mutation_rate,
                deviation,
                seed,
            };
            let name = match (&algo, &filter_set) {
                _ if search_sets => String::new(),
                (Some(a), _) => a.clone(),
                (None, Some(f)) => f.display().to_string(),
                (None, None) => {
                    anyhow::bail!("give --algo NAME, --filter-set FILE or --search-sets")
                }
            };
            let sets = search_sets.then_some((candidates.as_slice(), max_members));
            let job = OptimizeJob {
                algo: &name,
                sets,
                train: &train,
                test: &test,
                only: only.as_deref(),
                set: &set,
                sample,
                top,
                format,
                out: out.as_deref(),
                plot: plot.as_deref(),
                plot_axes: plot_axes.as_deref(),
            };
            match threads {
                Some(n) => rayon::ThreadPoolBuilder::new()
                    .num_threads(n as usize)
                    .build()
                    .context("starting the worker threads")?
                    .install(|| optimize_cmd(&job, &opts)),
                None => optimize_cmd(&job, &opts),
            }
        }
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
    let mut warnings: Vec<String> = page.warnings().to_vec();
    warnings.extend(extractor.warnings(&page, &x));
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
                "warnings": warnings,
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
    for w in &warnings {
        eprintln!("cescope: warning: {w}");
    }
    Ok(())
}

/// Output of `cescope extract --input`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum BatchOutput {
    /// One extraction record per page: id, url, algo, text, headline?, error?, bytes.
    Jsonl,
    /// The input pages as JSONL page records (id, url, html, gold fields), not extracted.
    Pages,
}

/// `cescope extract --input …`: streams the input through the extractor (or, with `--output
/// pages`, converts it to JSONL pages); records on standard output, the summary on standard
/// error.
#[allow(clippy::too_many_arguments)]
fn extract_batch(
    input: &std::path::Path,
    format: Option<cescope::batch::InputFormat>,
    output: BatchOutput,
    threads: Option<u16>,
    unordered: bool,
    headline: Option<&str>,
    algo: &str,
    set: &[String],
    encoding: Option<String>,
) -> Result<()> {
    use cescope::batch::{self, InputFormat, PipelineOptions};
    use std::io::IsTerminal;
    let format = match format.or_else(|| InputFormat::guess(input)) {
        Some(f) => f,
        None => anyhow::bail!(
            "cannot tell the format of {} from its name; give --input-format {}",
            shown(input),
            InputFormat::NAMES.join("|")
        ),
    };
    let extractor = algorithms::find(algo)?;
    let mut params = Params::defaults(extractor.params());
    for s in set {
        params.set_str(extractor.params(), s)?;
    }
    let headline = match headline {
        Some(name) => {
            let f = cescope::headline::find(name)?;
            let p = Params::defaults(f.params());
            Some((f, p))
        }
        None => None,
    };
    let decode = DecodeOptions {
        encoding_override: encoding,
        ..Default::default()
    };
    let mut opts = PipelineOptions::new(threads.map_or(0, usize::from));
    opts.ordered = !unordered;
    let source = batch::open(input, format)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let summary = match output {
        BatchOutput::Jsonl => {
            let job = batch::ExtractJob {
                extractor,
                params,
                headline,
                decode,
            };
            batch::extract_stream(
                source,
                &job,
                &opts,
                &mut out,
                std::io::stderr().is_terminal(),
            )?
        }
        BatchOutput::Pages => batch::pages_stream(source, &decode, &opts, &mut out, &mut |w| {
            eprintln!("cescope: warning: {w}")
        })?,
    };
    eprintln!("cescope: {summary}");
    Ok(())
}

fn title_cmd(
    file: PathBuf,
    method: &str,
    top: usize,
    set: &[String],
    format: TextOrJson,
    encoding: Option<String>,
) -> Result<()> {
    let finder = cescope::headline::find(method)?;
    let mut params = Params::defaults(finder.params());
    for s in set {
        params.set_str(finder.params(), s)?;
    }
    let opts = DecodeOptions {
        encoding_override: encoding,
        ..Default::default()
    };
    let page = Page::load(&file, &opts)?;
    let found = finder.run(&page, &params);
    let best = &found.candidates[..top.min(found.candidates.len())];
    let mut out = std::io::stdout().lock();
    match format {
        TextOrJson::Text => {
            for c in best {
                writeln!(
                    out,
                    "{:.4}\t{}..{}\t{}",
                    c.score,
                    c.range.start,
                    c.range.end,
                    printable(&c.text)
                )?;
            }
        }
        TextOrJson::Json => {
            let v = json!({
                "file": file.display().to_string(),
                "method": finder.name(),
                "params": params,
                "candidates": best,
            });
            serde_json::to_writer_pretty(&mut out, &v)?;
            writeln!(out)?;
        }
    }
    for w in page.warnings() {
        eprintln!("cescope: warning: {w}");
    }
    if found.candidates.is_empty() {
        eprintln!(
            "cescope: note: {}: no headline candidate ({} found none)",
            shown(&file),
            finder.name()
        );
    }
    Ok(())
}

#[cfg(feature = "tui")]
fn inspect(
    path: &std::path::Path,
    algo: &str,
    keymap: &str,
    encoding: Option<String>,
    no_syntax: bool,
    annotator: Option<String>,
    gold_dir: Option<PathBuf>,
) -> Result<()> {
    algorithms::find(algo)?;
    let keymap = cescope::tui::keymap::Keymap::load(keymap)?.with_user_overrides()?;
    let opts = cescope::tui::AppOptions {
        keymap,
        syntax: !no_syntax,
        decode: DecodeOptions {
            encoding_override: encoding,
            ..Default::default()
        },
        inline_jobs: false,
        inline_limit: cescope::tui::AppOptions::default().inline_limit,
        algo: algo.to_string(),
        gold_dir,
        annotator: cescope::config::annotator(annotator),
    };
    cescope::tui::run(path, opts)
}

/// What a build without the inspector says when asked for it.
#[cfg(not(feature = "tui"))]
const NO_TUI: &str =
    "this build of cescope has no inspector (built without the `tui` feature); rebuild with default features";

#[cfg(not(feature = "tui"))]
fn inspect(
    _path: &std::path::Path,
    _algo: &str,
    _keymap: &str,
    _encoding: Option<String>,
    _no_syntax: bool,
    _annotator: Option<String>,
    _gold_dir: Option<PathBuf>,
) -> Result<()> {
    anyhow::bail!(NO_TUI)
}

fn kind_text(k: &ParamKind) -> String {
    match k {
        ParamKind::Int { min, max, step } => format!("int {min}..={max} step {step}"),
        ParamKind::Float { min, max, step } => format!("float {min}..={max} step {step}"),
        ParamKind::Bool => "bool".into(),
        ParamKind::Choice { choices } => format!("one of {}", choices.join("|")),
    }
}

/// One entry of `cescope algos`: name, description, and each parameter with its default, kind,
/// help and source.
fn write_entry(
    out: &mut impl Write,
    name: &str,
    describe: &str,
    params: &[cescope::algorithms::ParamSpec],
) -> std::io::Result<()> {
    writeln!(out, "{name}\n  {describe}")?;
    for p in params {
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
    Ok(())
}

fn algos_cmd(names: bool, format: TextOrJson) -> Result<()> {
    let reg = algorithms::registry();
    let mut out = std::io::stdout().lock();
    if names {
        for e in reg {
            writeln!(out, "{}", e.name())?;
        }
        return Ok(());
    }
    match format {
        TextOrJson::Text => {
            for e in reg {
                write_entry(&mut out, e.name(), e.describe(), e.params())?;
            }
            writeln!(
                out,
                "\nheadline finders (cescope title --method NAME, cescope eval --headline)"
            )?;
            for f in cescope::headline::registry() {
                write_entry(&mut out, f.name(), f.describe(), f.params())?;
            }
        }
        TextOrJson::Json => {
            let mut v: Vec<_> = reg
                .iter()
                .map(|e| json!({"name": e.name(), "description": e.describe(), "params": e.params()}))
                .collect();
            v.extend(cescope::headline::registry().iter().map(|f| {
                json!({"name": f.name(), "kind": "headline", "description": f.describe(), "params": f.params()})
            }));
            serde_json::to_writer_pretty(&mut out, &v)?;
            writeln!(out)?;
        }
    }
    Ok(())
}

#[cfg(not(feature = "tui"))]
fn inspector_bench(_inputs: &[PathBuf], _algo: &str, _format: TableOrJson) -> Result<()> {
    anyhow::bail!(NO_TUI)
}

#[cfg(feature = "tui")]
fn inspector_bench(inputs: &[PathBuf], algo: &str, format: TableOrJson) -> Result<()> {
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

fn bench_cmd(inputs: &[PathBuf], algo: &str, format: TableOrJson, repeat: usize) -> Result<()> {
    let algos = algorithms::resolve(algo)?;
    let pages = bench::load_inputs(inputs).context("loading benchmark inputs")?;
    print_bench(&bench::run(&pages, &algos, repeat), bench::table, format)
}

/// Prints benchmark rows as `table` lays them out, or as JSON.
fn print_bench(
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

fn bench_headline_cmd(
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
fn bench_fitness_cmd(
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
    let e: std::sync::Arc<dyn algorithms::Extractor> = algorithms::find(first.trim())?;
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

/// The arguments of `cescope optimize` besides the GA options.
struct OptimizeJob<'a> {
    algo: &'a str,
    /// `--search-sets`: the candidates and the largest number of members.
    sets: Option<(&'a [String], usize)>,
    train: &'a [PathBuf],
    test: &'a [PathBuf],
    only: Option<&'a [String]>,
    set: &'a [String],
    sample: Option<usize>,
    top: usize,
    format: TextOrJson,
    out: Option<&'a std::path::Path>,
    plot: Option<&'a std::path::Path>,
    plot_axes: Option<&'a str>,
}

/// `cescope optimize`: loads the training pages once, runs the genetic search, scores the best
/// setting and the defaults on the test corpora, prints the table (or JSON), writes --out and
/// --plot.
fn optimize_cmd(job: &OptimizeJob, opts: &cescope::optimize::GaOptions) -> Result<()> {
    use cescope::optimize::{self as opt, ParamSpace};

    opts.validate()?;
    if let Some((candidates, max_members)) = job.sets {
        let space = opt::SetSpace::new(candidates, max_members)?;
        let axes = opt::plot_axes(&space, job.plot_axes)?;
        return search(&space, job, opts, Some(axes));
    }
    let e: std::sync::Arc<dyn algorithms::Extractor> = algorithms::find(job.algo)?;
    let mut base = Params::defaults(e.params());
    for s in job.set {
        base.set_str(e.params(), s)?;
    }
    let space = ParamSpace::new(e.clone(), base, job.only)?.with_algo_arg(job.algo);
    let axes = opt::plot_axes(&space, job.plot_axes)?;
    search(&space, job, opts, Some(axes))
}

/// The search of `cescope optimize` over any space: gathers and loads the pages, runs the GA,
/// scores the test corpora, prints and writes.
fn search<S: cescope::optimize::SearchSpace>(
    space: &S,
    job: &OptimizeJob,
    opts: &cescope::optimize::GaOptions,
    axes: Option<(usize, Option<usize>)>,
) -> Result<()> {
    use cescope::eval::run;
    use cescope::optimize::{self as opt, TrainingSet};
    use std::io::IsTerminal;

    let t0 = Instant::now();
    let (pages, notes) = run::gather_with(job.train, &run::CorpusOrGoldFiles)?;
    for n in &notes {
        eprintln!("cescope: note: {n}");
    }
    if pages.is_empty() {
        anyhow::bail!("no page with a gold standard in the training corpus");
    }
    let mut tests = Vec::new();
    for t in job.test {
        let (pages, notes) = run::gather_with(std::slice::from_ref(t), &run::CorpusOrGoldFiles)?;
        for n in &notes {
            eprintln!("cescope: note: {n}");
        }
        if pages.is_empty() {
            anyhow::bail!(
                "no page with a gold standard in the test corpus {}",
                t.display()
            );
        }
        tests.push(pages);
    }
    let all = pages.len();
    let pages = match job.sample {
        Some(n) => opt::sample(pages, n, opts.seed),
        None => pages,
    };
    let training = TrainingSet::load(&pages, space.needs_dom())?;
    for n in training.notes() {
        eprintln!("cescope: warning: {n}");
    }
    eprintln!(
        "cescope: training on {} of {all} page(s), loaded in {:.2} s",
        training.len(),
        t0.elapsed().as_secs_f64()
    );
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
        {
            b.set_style(style);
        }
        b.enable_steady_tick(std::time::Duration::from_millis(200));
        b
    });
    let mut on_gen = |g: &opt::GenerationStats, evals: usize| {
        if let Some(b) = &bar {
            b.set_message(format!(
                "generation {}: best F1 {:.4}, population mean {:.4}; {evals} evaluations",
                g.generation, g.best_so_far, g.mean
            ));
        }
    };
    let outcome = opt::optimize(space, &training, opts, &mut on_gen)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let search = t0.elapsed().as_secs_f64();
    let scores: Vec<opt::TestScore> = job
        .test
        .iter()
        .zip(&tests)
        .map(|(t, pages)| {
            let name = pages
                .first()
                .map_or_else(|| t.display().to_string(), |p| p.corpus.clone());
            opt::test_score(space, &outcome, &name, pages)
        })
        .collect();
    let mut out = std::io::stdout().lock();
    match job.format {
        TextOrJson::Text => write!(out, "{}", opt::table(space, &outcome, job.top, &scores))?,
        TextOrJson::Json => {
            serde_json::to_writer_pretty(&mut out, &opt::to_json(space, &outcome, opts, &scores))?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    if let Some(path) = job.out {
        opt::write_best(space, &outcome, path)?;
        eprintln!("cescope: wrote {}", path.display());
    }
    if let (Some(path), Some((x, y))) = (job.plot, axes) {
        opt::plot(space, &outcome, x, y, path)?;
        eprintln!("cescope: wrote {}", path.display());
    }
    eprintln!(
        "cescope: {} distinct evaluations x {} pages in {:.2} s wall ({} thread(s)), {:.2} s with the test corpora",
        outcome.evaluations(),
        training.len(),
        search,
        rayon::current_num_threads(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `cescope eval`: gathers the pages with gold, runs every selected algorithm on each (in
/// parallel over pages), prints the table / JSON / CSV on standard output, notes and the wall time
/// on standard error, and with `--report DIR` writes report.json and the SVG plots.
#[allow(clippy::too_many_arguments)]
fn eval_cmd(
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
fn eval_dirs(
    corpora: &[PathBuf],
    algos: &[(std::sync::Arc<dyn algorithms::Extractor>, Params)],
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
fn print_eval(
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
fn eval_headline_cmd(
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

// ---------------------------------------------------------------------------------------------
// cescope gold
// ---------------------------------------------------------------------------------------------

/// The subcommands of `cescope gold`.
#[derive(Debug, Subcommand)]
pub enum GoldCommand {
    /// Mark the main content of pages by a CSS selector and write draft gold files.
    // One of --selector / --empty is required: a group, so that clap's message names both.
    #[command(group(clap::ArgGroup::new("content").required(true).args(["selector", "empty"])))]
    Mark {
        /// Page files or directories of pages.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// CSS selector of the main-content elements: the main content is the union of every
        /// matching element, start tag to end tag (a list `h1, div.story > p` is allowed).
        #[arg(long, value_name = "CSS")]
        selector: Option<String>,
        /// CSS selector of the headline: the text of the first matching element.
        #[arg(long, value_name = "CSS")]
        headline: Option<String>,
        /// The pages have no main content: write finished (non-draft) gold files with an empty
        /// main content and no headline.
        #[arg(long, conflicts_with_all = ["selector", "headline"])]
        empty: bool,
        /// Directory of gold files (default: `gold/` beside the pages' folder, else inside it).
        #[arg(long, value_name = "DIR")]
        gold_dir: Option<PathBuf>,
        /// The annotator's name (default: `annotator` in cescope/config.toml, else $USER).
        #[arg(long, value_name = "NAME")]
        annotator: Option<String>,
        /// Replace existing gold files, keeping each previous file as a backup (`.bak`).
        #[arg(long)]
        force: bool,
    },
    /// Import plain-text gold standards (Scrapinghub format) as gold files with byte ranges.
    Import {
        /// The format of the input.
        #[arg(long, value_enum)]
        from: GoldImportFormat,
        /// The ground-truth file (id -> {articleBody, headline?, url?}), or a directory holding
        /// ground-truth.json.
        #[arg(value_name = "GROUND_TRUTH")]
        ground_truth: PathBuf,
        /// Where the pages are (`DIR/<id>.html`, `.htm`, optionally `.gz`; default: the
        /// ground truth's `html/` folder or its own folder).
        #[arg(long, value_name = "DIR")]
        pages: Option<PathBuf>,
        /// Directory the gold files are written to (`OUT/<id>.json`).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// The annotator's name (default: `annotator` in cescope/config.toml, else $USER).
        #[arg(long, value_name = "NAME")]
        annotator: Option<String>,
        /// Replace existing gold files, keeping each previous file as a backup (`.bak`).
        #[arg(long)]
        force: bool,
    },
    /// Export the gold files of a directory (Scrapinghub JSON or CleanEval-style text).
    Export {
        /// The output format.
        #[arg(long, value_enum)]
        to: GoldExportFormat,
        /// Directory of gold files (`*.json`).
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// scrapinghub: the output file (default: standard output); text: the output directory
        /// (required), one `<id>.txt` per page.
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
    },
    /// Validate gold files: JSON, schema, ranges, and — when the page is found — hash and text.
    Check {
        /// Directory of gold files (`*.json`), or one gold file.
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// Where the pages are (default: the gold directory's parent and sibling folders).
        #[arg(long, value_name = "DIR")]
        pages: Option<PathBuf>,
    },
    /// Inter-annotator agreement: word-LCS F1 and headline equality per page in both dirs.
    Agree {
        /// The first annotator's gold directory.
        #[arg(value_name = "DIR_A")]
        dir_a: PathBuf,
        /// The second annotator's gold directory.
        #[arg(value_name = "DIR_B")]
        dir_b: PathBuf,
    },
}

/// Input formats of `cescope gold import`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum GoldImportFormat {
    /// ground-truth.json of the Article Extraction Benchmark: id -> {articleBody, headline?, url?}.
    Scrapinghub,
}

/// Output formats of `cescope gold export`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum GoldExportFormat {
    /// One JSON object id -> {articleBody, headline?, url?}.
    Scrapinghub,
    /// CleanEval-style text, one `<id>.txt` per page.
    Text,
}

fn gold_cmd(command: GoldCommand) -> Result<()> {
    use cescope::gold::commands::{self as gc, ExportFormat};
    match command {
        GoldCommand::Mark {
            paths,
            selector,
            headline,
            empty,
            gold_dir,
            annotator,
            force,
        } => gold_mark(&gc::MarkOptions {
            paths,
            selector,
            headline,
            empty,
            gold_dir,
            annotator: cescope::config::annotator(annotator),
            force,
        }),
        GoldCommand::Import {
            from: GoldImportFormat::Scrapinghub,
            ground_truth,
            pages,
            out,
            annotator,
            force,
        } => gold_import(&gc::ImportOptions {
            ground_truth,
            pages,
            out,
            annotator: cescope::config::annotator(annotator),
            force,
        }),
        GoldCommand::Export { to, dir, out } => gold_export(&gc::ExportOptions {
            format: match to {
                GoldExportFormat::Scrapinghub => ExportFormat::Scrapinghub,
                GoldExportFormat::Text => ExportFormat::Text,
            },
            dir,
            out,
            write: Default::default(),
        }),
        GoldCommand::Check { dir, pages } => gold_check(&dir, pages.as_deref()),
        GoldCommand::Agree { dir_a, dir_b } => gold_agree(&dir_a, &dir_b),
    }
}

/// A path or text from a file, with control characters escaped for the terminal.
fn shown(p: &std::path::Path) -> String {
    cescope::fsio::write::printable_path(p)
}

fn save_status(s: &cescope::gold::commands::SaveStatus) -> String {
    use cescope::gold::commands::SaveStatus;
    match s {
        SaveStatus::Saved(o) => match &o.backup {
            Some(b) => format!("replaced {} (backup {})", shown(&o.path), shown(b)),
            None if o.replaced => format!("replaced {}", shown(&o.path)),
            None => format!("wrote {}", shown(&o.path)),
        },
        SaveStatus::Exists => "skipped (exists)".to_string(),
        SaveStatus::Unreadable(e) | SaveStatus::Unwritable(e) => {
            format!("not written: {}", printable(e))
        }
        SaveStatus::NoMatch => "not written: the selector matched nothing".to_string(),
    }
}

fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    cescope::fsio::write::printable(s)
}

fn gold_mark(opts: &cescope::gold::commands::MarkOptions) -> Result<()> {
    use cescope::gold::commands::{mark_pages, SaveStatus};
    let report = mark_pages(opts)?;
    let selector = opts.selector.as_deref().unwrap_or_default();
    let mut out = std::io::stdout().lock();
    for p in &report.pages {
        let page = shown(&p.page);
        match &p.status {
            SaveStatus::Unreadable(e) => {
                eprintln!("cescope: warning: {}", printable(e));
                continue;
            }
            SaveStatus::NoMatch => {
                eprintln!(
                    "cescope: warning: {page}: selector {selector:?} matched nothing; no gold written"
                );
                continue;
            }
            _ => {}
        }
        if p.no_text {
            eprintln!(
                "cescope: warning: {page}: the matching elements hold no text (void or unclosed elements?)"
            );
        }
        if p.headline_missing {
            eprintln!(
                "cescope: note: {page}: headline selector {:?} matched no element with text",
                opts.headline.as_deref().unwrap_or_default()
            );
        }
        match &p.status {
            SaveStatus::Exists => eprintln!(
                "cescope: note: {} exists; not replaced (--force replaces it, keeping a backup)",
                shown(&p.gold_path)
            ),
            SaveStatus::Unwritable(e) => eprintln!("cescope: warning: {}", printable(e)),
            s => {
                let head = p
                    .headline
                    .as_ref()
                    .map(|h| format!(", headline \"{}\"", printable(h)))
                    .unwrap_or_default();
                writeln!(
                    out,
                    "{page}: {} ranges, {} words{head}{}: {}",
                    p.ranges,
                    p.words,
                    if p.draft { " (draft)" } else { "" },
                    save_status(s)
                )?;
            }
        }
    }
    out.flush()?;
    let unmatched: Vec<String> = report.unmatched().iter().map(|p| shown(p)).collect();
    let matched = report.matched();
    if !unmatched.is_empty() && matched > 0 {
        eprintln!(
            "cescope: warning: the selector matched nothing on {} page(s): {}",
            unmatched.len(),
            unmatched.join(", ")
        );
    }
    if matched == 0 && !unmatched.is_empty() {
        anyhow::bail!(
            "selector {selector:?} matched nothing on any of the {} page(s)",
            unmatched.len()
        );
    }
    let failed = report.failed();
    if failed > 0 {
        anyhow::bail!("{failed} page(s) could not be read or written");
    }
    Ok(())
}

fn gold_import(opts: &cescope::gold::commands::ImportOptions) -> Result<()> {
    use cescope::gold::commands::{import, SaveStatus};
    let t0 = Instant::now();
    let report = import(opts)?;
    for id in &report.missing {
        eprintln!(
            "cescope: warning: no page file for id {}; skipped",
            printable(id)
        );
    }
    let width = report
        .pages
        .iter()
        .map(|p| printable(&p.id).chars().count())
        .max()
        .unwrap_or(2)
        .max(2);
    let mut out = std::io::stdout().lock();
    let (mut n, mut high, mut sum, mut skipped) = (0usize, 0usize, 0.0, 0usize);
    for p in &report.pages {
        let id = printable(&p.id);
        let Some(stats) = &p.stats else {
            if let SaveStatus::Unreadable(e) = &p.status {
                eprintln!("cescope: warning: {id}: {}", printable(e));
            }
            continue;
        };
        n += 1;
        sum += stats.coverage;
        let low = stats.coverage < 0.95;
        high += usize::from(!low);
        skipped += usize::from(p.status == SaveStatus::Exists);
        let head = stats
            .headline_f1
            .map_or_else(|| "-".to_string(), |f| format!("{f:.3}"));
        writeln!(
            out,
            "{id:<width$}  coverage {:.3} ({}/{} words)  {} ranges  headline {head}  {}{}",
            stats.coverage,
            stats.matched,
            stats.gold_words,
            stats.ranges,
            save_status(&p.status),
            if low { "  LOW" } else { "" }
        )?;
    }
    writeln!(
        out,
        "{n} pages, {high} with coverage >= 95 %, mean coverage {:.3}, {:.2} s{}",
        if n == 0 { 0.0 } else { sum / n as f64 },
        t0.elapsed().as_secs_f64(),
        if skipped > 0 {
            format!(
                " ({skipped} not written: gold file exists; --force replaces, keeping a backup)"
            )
        } else {
            String::new()
        }
    )?;
    out.flush()?;
    let failed = report.pages.iter().filter(|p| p.status.failed()).count();
    if failed > 0 {
        anyhow::bail!("{failed} page(s) could not be read or written");
    }
    Ok(())
}

fn gold_export(opts: &cescope::gold::commands::ExportOptions) -> Result<()> {
    let report = cescope::gold::commands::export(opts)?;
    if let Some(text) = &report.stdout {
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())?;
        out.flush()?;
    } else if let Some(to) = &opts.out {
        eprintln!(
            "cescope: exported {} page(s) ({} draft(s)) to {}",
            report.pages,
            report.drafts,
            shown(to)
        );
    }
    Ok(())
}

fn gold_check(dir: &std::path::Path, pages: Option<&std::path::Path>) -> Result<()> {
    let report = cescope::gold::commands::check_files(dir, pages)?;
    let mut out = std::io::stdout().lock();
    for f in &report.files {
        let name = shown(&f.file);
        if let Some(e) = &f.error {
            writeln!(out, "{}", printable(e))?;
        } else if f.problems.is_empty() {
            let note = f
                .note
                .as_ref()
                .map(|n| format!(" ({})", printable(n)))
                .unwrap_or_default();
            writeln!(out, "OK {name}{note}")?;
        } else {
            for p in &f.problems {
                writeln!(out, "{name}: {}", printable(&p.message))?;
            }
        }
        for w in &f.warnings {
            writeln!(out, "{name}: warning: {}", printable(w))?;
        }
    }
    let bad = report.bad();
    let warned = report
        .files
        .iter()
        .filter(|f| !f.warnings.is_empty())
        .count();
    writeln!(
        out,
        "{} files, {bad} with problems, {warned} with warnings",
        report.files.len()
    )?;
    out.flush()?;
    if bad > 0 {
        anyhow::bail!("{bad} of {} gold file(s) have problems", report.files.len());
    }
    Ok(())
}

fn gold_agree(dir_a: &std::path::Path, dir_b: &std::path::Path) -> Result<()> {
    let report = cescope::gold::commands::agree_dirs(dir_a, dir_b)?;
    let width = report
        .pages
        .iter()
        .map(|p| printable(&p.id).chars().count())
        .max()
        .unwrap_or(2)
        .max(2);
    let mut out = std::io::stdout().lock();
    for p in &report.pages {
        let head = match p.agreement.headline_match {
            Some(true) => "equal",
            Some(false) => "differ",
            None => "-",
        };
        let version = if p.same_version {
            ""
        } else {
            "  (annotated on different versions of the page)"
        };
        writeln!(
            out,
            "{:<width$}  F1 {:.3}  headline {head}{version}",
            printable(&p.id),
            p.agreement.f1
        )?;
    }
    for (dir, only) in [(dir_a, &report.only_a), (dir_b, &report.only_b)] {
        if !only.is_empty() {
            let ids: Vec<String> = only.iter().map(|s| printable(s).into_owned()).collect();
            writeln!(out, "only in {}: {}", shown(dir), ids.join(", "))?;
        }
    }
    let Some(mean) = report.mean_f1() else {
        out.flush()?;
        anyhow::bail!(
            "no page is annotated in both {} and {}",
            shown(dir_a),
            shown(dir_b)
        );
    };
    let (equal, heads) = report.headlines();
    writeln!(
        out,
        "{} pages in both: mean F1 {mean:.3}, headlines equal {equal} of {heads}",
        report.pages.len()
    )?;
    out.flush()?;
    Ok(())
}

/// A clap value parser for a library option enum: the possible values are `names` (shown in
/// `--help` and in clap's error for anything else), each parsed by the type's `FromStr`.
fn named<T>(names: &'static [&'static str]) -> impl clap::builder::TypedValueParser<Value = T>
where
    T: std::str::FromStr<Err = cescope::Error> + Clone + Send + Sync + 'static,
{
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(names).try_map(|s| s.parse::<T>())
}
