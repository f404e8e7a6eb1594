//! The command-line tree (clap) and the dispatch to the code behind each subcommand, one file
//! per command.

mod algos;
mod bench;
mod eval;
mod extract;
mod gold;
mod inspect;
mod optimize;
mod title;

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};

use cescope::eval::report::{Format as EvalFormat, TableBy};
use cescope::eval::run::Metric;

use algos::algos_cmd;
use bench::{bench_cmd, bench_fitness_cmd, bench_headline_cmd, inspector_bench};
use eval::{eval_cmd, eval_headline_cmd};
use extract::{extract, extract_batch, BatchOutput};
use gold::gold_cmd;
use inspect::inspect;
use optimize::{optimize_cmd, OptimizeJob};
use title::title_cmd;

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

/// A path or text from a file, with control characters escaped for the terminal.
pub(crate) fn shown(p: &std::path::Path) -> String {
    cescope::fsio::write::printable_path(p)
}

pub(crate) fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    cescope::fsio::write::printable(s)
}

/// What a build without the inspector says when asked for it.
#[cfg(not(feature = "tui"))]
pub(crate) const NO_TUI: &str =
    "this build of cescope has no inspector (built without the `tui` feature); rebuild with default features";

/// A clap value parser for a library option enum: the possible values are `names` (shown in
/// `--help` and in clap's error for anything else), each parsed by the type's `FromStr`.
fn named<T>(names: &'static [&'static str]) -> impl clap::builder::TypedValueParser<Value = T>
where
    T: std::str::FromStr<Err = cescope::Error> + Clone + Send + Sync + 'static,
{
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(names).try_map(|s| s.parse::<T>())
}
