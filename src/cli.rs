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
        /// Measure the inspector's latencies instead (open → first frame, slider change →
        /// frame, scrolling frames) on each page file given, with the first algorithm of --algo.
        #[arg(long)]
        inspector: bool,
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
        #[arg(long, short, default_value = "word", value_parser = ["word", "lcsequence", "lcstring"])]
        metric: String,
        /// Table columns / rows: per corpus, per site (host of the gold URL) or per page.
        #[arg(long, default_value = "corpus", value_parser = ["corpus", "site", "page"])]
        by: String,
        /// Show precision / recall / F1 in every cell, not only F1.
        #[arg(long)]
        prf: bool,
        /// Output format (json: the full report; csv: one line per corpus, algorithm and page).
        #[arg(long, short, default_value = "table", value_parser = ["table", "json", "csv"])]
        format: String,
        /// Also write report.json and SVG plots (F1 histograms, F1 scatter) into DIR.
        #[arg(long, value_name = "DIR")]
        report: Option<PathBuf>,
        /// The two algorithms of the scatter plot: x,y (default: the first two selected).
        #[arg(long, value_name = "A,B", requires = "report")]
        scatter: Option<String>,
        /// Worker threads (default: one per core).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
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
            inspector,
        } => {
            if inspector {
                inspector_bench(&inputs, &algo, format)
            } else {
                bench_cmd(&inputs, &algo, format, repeat)
            }
        }
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
        } => eval_cmd(
            &corpora,
            &algo,
            &set,
            &metric,
            &by,
            prf,
            &format,
            report.as_deref(),
            scatter.as_deref(),
            threads,
        ),
        Command::Gold { command } => gold_cmd(command),
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
        annotator: annotator
            .or_else(cescope::tui::app::configured_annotator)
            .unwrap_or_else(cescope::tui::app::default_annotator),
    };
    cescope::tui::run(path, opts)
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

/// `cescope eval`: gathers the pages with gold, runs every selected algorithm on each (in
/// parallel over pages), prints the table / JSON / CSV on standard output, notes and the wall time
/// on standard error, and with `--report DIR` writes report.json and the SVG plots.
#[allow(clippy::too_many_arguments)]
fn eval_cmd(
    corpora: &[PathBuf],
    algo: &str,
    set: &[String],
    metric: &str,
    by: &str,
    prf: bool,
    format: &str,
    report_dir: Option<&std::path::Path>,
    scatter: Option<&str>,
    threads: Option<u16>,
) -> Result<()> {
    use cescope::eval::report::{self, TableBy};
    use cescope::eval::run::{self, Metric};
    use std::io::IsTerminal;

    let t0 = Instant::now();
    let metric: Metric = metric.parse()?;
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
    let (pages, notes) = run::gather_with(corpora, &run::CorpusOrGoldFiles)?;
    for n in &notes {
        eprintln!("cescope: note: {n}");
    }
    if pages.is_empty() {
        anyhow::bail!("no page with a gold standard in the given corpora");
    }
    let progress = std::io::stderr().is_terminal();
    let rep = match threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n as usize)
            .build()
            .context("starting the worker threads")?
            .install(|| run::evaluate(&pages, &algos, metric, progress)),
        None => run::evaluate(&pages, &algos, metric, progress),
    };
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
        "json" => {
            serde_json::to_writer_pretty(&mut out, &report::to_json(&rep))?;
            writeln!(out)?;
        }
        "csv" => write!(out, "{}", report::csv(&rep))?,
        _ => {
            let by = match by {
                "site" => TableBy::Site,
                "page" => TableBy::Page,
                _ => TableBy::Corpus,
            };
            write!(out, "{}", report::table(&rep, by, prf))?;
        }
    }
    out.flush()?;
    if let Some(dir) = report_dir {
        if scatter.is_none() {
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

// ---------------------------------------------------------------------------------------------
// cescope gold
// ---------------------------------------------------------------------------------------------

/// The subcommands of `cescope gold`.
#[derive(Debug, Subcommand)]
pub enum GoldCommand {
    /// Mark the main content of pages by a CSS selector and write draft gold files.
    Mark {
        /// Page files or directories of pages.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// CSS selector of the main-content elements: the main content is the union of every
        /// matching element, start tag to end tag (a list `h1, div.story > p` is allowed).
        #[arg(long, value_name = "CSS", required_unless_present = "empty")]
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
    match command {
        GoldCommand::Mark {
            paths,
            selector,
            headline,
            empty,
            gold_dir,
            annotator,
            force,
        } => gold_mark(
            &paths,
            selector.as_deref(),
            headline.as_deref(),
            empty,
            gold_dir.as_deref(),
            gold_annotator(annotator),
            force,
        ),
        GoldCommand::Import {
            from: GoldImportFormat::Scrapinghub,
            ground_truth,
            pages,
            out,
            annotator,
            force,
        } => gold_import(
            &ground_truth,
            pages.as_deref(),
            &out,
            &gold_annotator(annotator),
            force,
        ),
        GoldCommand::Export { to, dir, out } => gold_export(to, &dir, out.as_deref()),
        GoldCommand::Check { dir, pages } => gold_check(&dir, pages.as_deref()),
        GoldCommand::Agree { dir_a, dir_b } => gold_agree(&dir_a, &dir_b),
    }
}

fn gold_annotator(given: Option<String>) -> String {
    given
        .or_else(cescope::tui::app::configured_annotator)
        .unwrap_or_else(cescope::tui::app::default_annotator)
}

/// Saves `gold` as a new file, or — with `force` — replacing an existing one after a backup.
/// `Ok(None)` when the file exists and `force` is off.
fn gold_save(
    path: &std::path::Path,
    gold: &cescope::gold::Gold,
    force: bool,
) -> Result<Option<cescope::gold::SaveOutcome>> {
    use cescope::gold::{save, GoldError, SaveMode};
    let mode = if force {
        SaveMode::Backup
    } else {
        SaveMode::New
    };
    match save(path, gold, mode) {
        Ok(o) => Ok(Some(o)),
        Err(GoldError::Exists { .. }) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

fn save_status(o: &cescope::gold::SaveOutcome) -> String {
    match &o.backup {
        Some(b) => format!("replaced {} (backup {})", o.path.display(), b.display()),
        None if o.replaced => format!("replaced {}", o.path.display()),
        None => format!("wrote {}", o.path.display()),
    }
}

fn gold_mark(
    paths: &[PathBuf],
    selector: Option<&str>,
    headline: Option<&str>,
    empty: bool,
    gold_dir: Option<&std::path::Path>,
    annotator: String,
    force: bool,
) -> Result<()> {
    use cescope::eval::metrics::words;
    use cescope::gold::{gold_path_for, mark};

    for s in selector.iter().chain(headline.iter()) {
        mark::parse_selector(s)?;
    }
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            files.extend(cescope::corpus::open(p)?.pages.into_iter().map(|c| c.path));
        } else {
            files.push(p.clone());
        }
    }
    let (mut matched, mut unmatched, mut failed) = (0usize, Vec::new(), 0usize);
    let mut out = std::io::stdout().lock();
    for path in &files {
        let page = match Page::load(path, &DecodeOptions::default()) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("cescope: warning: {e}");
                failed += 1;
                continue;
            }
        };
        let gold = match selector {
            Some(sel) if !empty => mark::mark_page(&page, sel, headline, &annotator)?,
            _ => mark::empty_gold(&page, &annotator),
        };
        if !empty && gold.main_content.ranges.is_empty() {
            eprintln!(
                "cescope: warning: {}: selector {:?} matched nothing; no gold written",
                path.display(),
                selector.unwrap_or_default()
            );
            unmatched.push(path.display().to_string());
            continue;
        }
        matched += 1;
        let n_words = words(&gold.main_content.text).len();
        if !empty && n_words == 0 {
            eprintln!(
                "cescope: warning: {}: the matching elements hold no text (void or unclosed elements?)",
                path.display()
            );
        }
        if let (Some(h), None) = (headline, &gold.headline) {
            eprintln!(
                "cescope: note: {}: headline selector {h:?} matched no element with text",
                path.display()
            );
        }
        let target = gold_path_for(path, gold_dir);
        let Some(o) = gold_save(&target, &gold, force)? else {
            eprintln!(
                "cescope: note: {} exists; not replaced (--force replaces it, keeping a backup)",
                target.display()
            );
            continue;
        };
        let head = gold
            .headline
            .as_ref()
            .map(|h| format!(", headline \"{}\"", h.text))
            .unwrap_or_default();
        writeln!(
            out,
            "{}: {} ranges, {n_words} words{head}{}: {}",
            path.display(),
            gold.main_content.ranges.len(),
            if gold.draft { " (draft)" } else { "" },
            save_status(&o)
        )?;
    }
    out.flush()?;
    if !unmatched.is_empty() && matched > 0 {
        eprintln!(
            "cescope: warning: the selector matched nothing on {} page(s): {}",
            unmatched.len(),
            unmatched.join(", ")
        );
    }
    if matched == 0 && !unmatched.is_empty() {
        anyhow::bail!(
            "selector {:?} matched nothing on any of the {} page(s)",
            selector.unwrap_or_default(),
            unmatched.len()
        );
    }
    if failed > 0 {
        anyhow::bail!("{failed} page(s) could not be read");
    }
    Ok(())
}

/// Finds the page file of ground-truth id `id` in `dir`: `<id>.html`, `.htm`, either with `.gz`.
fn find_page_file(dir: &std::path::Path, id: &str) -> Option<PathBuf> {
    ["html", "htm", "html.gz", "htm.gz"]
        .iter()
        .map(|ext| dir.join(format!("{id}.{ext}")))
        .find(|p| p.is_file())
}

fn gold_import(
    ground_truth: &std::path::Path,
    pages_dir: Option<&std::path::Path>,
    out_dir: &std::path::Path,
    annotator: &str,
    force: bool,
) -> Result<()> {
    use cescope::corpus::GoldText;
    use rayon::prelude::*;
    use std::collections::BTreeMap;

    let t0 = Instant::now();
    let mut entries: Vec<(String, PathBuf, GoldText)> = Vec::new();
    let mut missing = Vec::new();
    if let Some(dir) = pages_dir {
        let gt = if ground_truth.is_dir() {
            ground_truth.join("ground-truth.json")
        } else {
            ground_truth.to_path_buf()
        };
        let data = std::fs::read(&gt).with_context(|| format!("cannot read {}", gt.display()))?;
        let map: BTreeMap<String, GoldText> = serde_json::from_slice(&data).with_context(|| {
            format!(
                "{}: not a ground-truth file (id -> {{articleBody, headline?, url?}})",
                gt.display()
            )
        })?;
        anyhow::ensure!(dir.is_dir(), "--pages {}: not a directory", dir.display());
        for (id, g) in map {
            match find_page_file(dir, &id) {
                Some(p) => entries.push((id, p, g)),
                None => missing.push(id),
            }
        }
    } else {
        for p in cescope::corpus::open(ground_truth)?.pages {
            match p.gold {
                Some(g) => entries.push((p.id, p.path, g)),
                None => missing.push(p.id),
            }
        }
    }
    for id in &missing {
        eprintln!("cescope: warning: no page file for id {id}; skipped");
    }
    anyhow::ensure!(
        !entries.is_empty(),
        "{}: no page to import",
        ground_truth.display()
    );

    let results: Vec<_> = entries
        .par_iter()
        .map(|(_, path, g)| {
            let page = Page::load(path, &DecodeOptions::default())?;
            Ok::<_, cescope::Error>(cescope::gold::import_scrapinghub(
                g,
                &page,
                page.name(),
                annotator,
            ))
        })
        .collect();

    let width = entries.iter().map(|e| e.0.len()).max().unwrap_or(2).max(2);
    let mut out = std::io::stdout().lock();
    let (mut n, mut high, mut sum, mut skipped, mut failed) = (0usize, 0usize, 0.0, 0usize, 0);
    for ((id, _, _), r) in entries.iter().zip(results) {
        let (gold, stats) = match r {
            Ok(x) => x,
            Err(e) => {
                eprintln!("cescope: warning: {id}: {e}");
                failed += 1;
                continue;
            }
        };
        n += 1;
        sum += stats.coverage;
        let low = stats.coverage < 0.95;
        high += usize::from(!low);
        let status = match gold_save(&out_dir.join(format!("{id}.json")), &gold, force)? {
            Some(o) => save_status(&o),
            None => {
                skipped += 1;
                "skipped (exists)".to_string()
            }
        };
        let head = stats
            .headline_f1
            .map_or_else(|| "-".to_string(), |f| format!("{f:.3}"));
        writeln!(
            out,
            "{id:<width$}  coverage {:.3} ({}/{} words)  {} ranges  headline {head}  {status}{}",
            stats.coverage,
            stats.matched,
            stats.gold_words,
            stats.ranges,
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
    if failed > 0 {
        anyhow::bail!("{failed} page(s) could not be read");
    }
    Ok(())
}

/// The gold files of a directory: `*.json`, sorted, without hidden files (temporary `.…tmp` and
/// recovery `.….recover` files) and backups (`.bak`).
fn gold_files(dir: &std::path::Path) -> Result<Vec<PathBuf>> {
    let rd = std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    let mut files: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            name.ends_with(".json") && !name.starts_with('.') && p.is_file()
        })
        .collect();
    files.sort();
    Ok(files)
}

fn load_gold_dir(dir: &std::path::Path) -> Result<Vec<(PathBuf, cescope::gold::Gold)>> {
    let files = gold_files(dir)?;
    anyhow::ensure!(
        !files.is_empty(),
        "no gold files (*.json) in {}",
        dir.display()
    );
    files
        .into_iter()
        .map(|p| Ok((p.clone(), cescope::gold::load(&p)?)))
        .collect()
}

fn gold_export(
    to: GoldExportFormat,
    dir: &std::path::Path,
    out_path: Option<&std::path::Path>,
) -> Result<()> {
    let golds = load_gold_dir(dir)?;
    let drafts = golds.iter().filter(|(_, g)| g.draft).count();
    match to {
        GoldExportFormat::Scrapinghub => {
            let v = cescope::gold::export_scrapinghub(golds.iter().map(|(_, g)| g));
            let n = v.as_object().map_or(0, |m| m.len());
            if n < golds.len() {
                eprintln!(
                    "cescope: warning: {} gold file(s) share a page id with another; the last one was kept",
                    golds.len() - n
                );
            }
            let mut text = serde_json::to_string_pretty(&v)?;
            text.push('\n');
            match out_path {
                Some(p) => {
                    std::fs::write(p, text)
                        .with_context(|| format!("cannot write {}", p.display()))?;
                    eprintln!(
                        "cescope: exported {n} page(s) ({drafts} draft(s)) to {}",
                        p.display()
                    );
                }
                None => {
                    let mut out = std::io::stdout().lock();
                    out.write_all(text.as_bytes())?;
                    out.flush()?;
                }
            }
        }
        GoldExportFormat::Text => {
            let Some(out_dir) = out_path else {
                anyhow::bail!(
                    "--to text writes one file per page: give the directory with --out DIR"
                );
            };
            std::fs::create_dir_all(out_dir)
                .with_context(|| format!("cannot create {}", out_dir.display()))?;
            for (_, g) in &golds {
                let p = out_dir.join(format!("{}.txt", g.page_id()));
                std::fs::write(&p, cescope::gold::export_text(g))
                    .with_context(|| format!("cannot write {}", p.display()))?;
            }
            eprintln!(
                "cescope: exported {} page(s) ({drafts} draft(s)) to {}",
                golds.len(),
                out_dir.display()
            );
        }
    }
    Ok(())
}

/// The page file a gold file names: in `pages` when given, else in the gold directory's parent
/// or one of its sibling folders (`sample-pages/` beside `gold/`, `html/` beside `gold/`).
fn find_gold_page(
    gold_file: &std::path::Path,
    page: &str,
    pages: Option<&std::path::Path>,
) -> Option<PathBuf> {
    use std::path::Path;
    let name = Path::new(page).file_name()?;
    if let Some(d) = pages {
        return Some(d.join(name)).filter(|p| p.is_file());
    }
    let gold_dir = match gold_file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let parent = match gold_dir.canonicalize().ok()?.parent() {
        Some(p) => p.to_path_buf(),
        None => return None,
    };
    let own = gold_dir.canonicalize().ok();
    let mut dirs = vec![parent.clone()];
    let mut siblings: Vec<PathBuf> = std::fs::read_dir(&parent)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && Some(p) != own.as_ref())
        .collect();
    siblings.sort();
    dirs.extend(siblings);
    dirs.into_iter().map(|d| d.join(name)).find(|p| p.is_file())
}

fn gold_check(dir: &std::path::Path, pages: Option<&std::path::Path>) -> Result<()> {
    use cescope::gold::{check, load, verify, Difference};

    let files = if dir.is_file() {
        vec![dir.to_path_buf()]
    } else {
        gold_files(dir)?
    };
    anyhow::ensure!(
        !files.is_empty(),
        "no gold files (*.json) in {}",
        dir.display()
    );
    let mut bad = 0usize;
    let mut out = std::io::stdout().lock();
    for f in &files {
        let gold = match load(f) {
            Ok(g) => g,
            Err(e) => {
                writeln!(out, "{e}")?;
                bad += 1;
                continue;
            }
        };
        let mut note = String::new();
        let mut page = None;
        match find_gold_page(f, &gold.page, pages) {
            None => note = format!(" (page {} not found: hash and text not checked)", gold.page),
            Some(pp) => match Page::load(&pp, &DecodeOptions::default()) {
                Err(e) => note = format!(" (page not checked: {e})"),
                Ok(p) => {
                    // A gold made with an encoding override: decode the page as it says.
                    let v = verify(&gold, &p);
                    let enc_only = v.matches
                        && v.differences
                            .iter()
                            .any(|d| matches!(d, Difference::Encoding(..)));
                    let p = if enc_only {
                        let opts = DecodeOptions {
                            encoding_override: Some(gold.encoding.clone()),
                            ..Default::default()
                        };
                        match Page::load(&pp, &opts) {
                            Ok(p2) => {
                                note = format!(" (page decoded as {})", gold.encoding);
                                p2
                            }
                            Err(_) => p,
                        }
                    } else {
                        p
                    };
                    page = Some(p);
                }
            },
        }
        let problems = check(&gold, page.as_ref());
        if problems.is_empty() {
            writeln!(out, "OK {}{note}", f.display())?;
        } else {
            bad += 1;
            for p in &problems {
                writeln!(out, "{}: {p}", f.display())?;
            }
        }
    }
    writeln!(out, "{} files, {bad} with problems", files.len())?;
    out.flush()?;
    if bad > 0 {
        anyhow::bail!("{bad} of {} gold file(s) have problems", files.len());
    }
    Ok(())
}

fn gold_agree(dir_a: &std::path::Path, dir_b: &std::path::Path) -> Result<()> {
    use std::collections::BTreeMap;
    let by_id = |dir: &std::path::Path| -> Result<BTreeMap<String, cescope::gold::Gold>> {
        Ok(load_gold_dir(dir)?
            .into_iter()
            .map(|(_, g)| (g.page_id().to_string(), g))
            .collect())
    };
    let a = by_id(dir_a)?;
    let b = by_id(dir_b)?;
    let both: Vec<&String> = a.keys().filter(|k| b.contains_key(*k)).collect();
    let width = both.iter().map(|k| k.len()).max().unwrap_or(2).max(2);
    let mut out = std::io::stdout().lock();
    let (mut sum, mut heads, mut heads_equal) = (0.0, 0usize, 0usize);
    for id in &both {
        let (ga, gb) = (&a[*id], &b[*id]);
        let ag = cescope::gold::agree(ga, gb);
        sum += ag.f1;
        let head = match ag.headline_match {
            Some(true) => "equal",
            Some(false) => "differ",
            None => "-",
        };
        if let Some(m) = ag.headline_match {
            heads += 1;
            heads_equal += usize::from(m);
        }
        let version = if ga.sha256.eq_ignore_ascii_case(&gb.sha256) {
            ""
        } else {
            "  (annotated on different versions of the page)"
        };
        writeln!(
            out,
            "{id:<width$}  F1 {:.3}  headline {head}{version}",
            ag.f1
        )?;
    }
    for (dir, only) in [
        (
            dir_a,
            a.keys().filter(|k| !b.contains_key(*k)).collect::<Vec<_>>(),
        ),
        (
            dir_b,
            b.keys().filter(|k| !a.contains_key(*k)).collect::<Vec<_>>(),
        ),
    ] {
        if !only.is_empty() {
            let ids: Vec<&str> = only.iter().map(|s| s.as_str()).collect();
            writeln!(out, "only in {}: {}", dir.display(), ids.join(", "))?;
        }
    }
    anyhow::ensure!(
        !both.is_empty(),
        "no page is annotated in both {} and {}",
        dir_a.display(),
        dir_b.display()
    );
    writeln!(
        out,
        "{} pages in both: mean F1 {:.3}, headlines equal {heads_equal} of {heads}",
        both.len(),
        sum / both.len() as f64
    )?;
    out.flush()?;
    Ok(())
}
