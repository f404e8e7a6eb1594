//! `cescope gold mark | import | export | check | agree`.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::{Args, Subcommand, ValueEnum};

use cescope::fsio::write::WriteOptions;
use cescope::gold::commands::{self as gc, SaveStatus};

use super::{printable, shown};

/// Gold standards: mark pages by CSS selector, import / export the Scrapinghub format, check
/// gold files, inter-annotator agreement.
#[derive(Debug, Args)]
pub struct GoldArgs {
    /// The gold subcommand.
    #[command(subcommand)]
    command: GoldCommand,
}

/// The subcommands of `cescope gold`, each with its arguments.
#[derive(Debug, Subcommand)]
enum GoldCommand {
    // No doc comments here: a variant's doc comment would replace its `Args` struct's as the
    // command's help text.
    Mark(MarkArgs),
    Import(ImportArgs),
    Export(ExportArgs),
    Check(CheckArgs),
    Agree(AgreeArgs),
}

/// Mark the main content of pages by a CSS selector and write draft gold files.
// One of --selector / --empty is required: a group, so that clap's message names both.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("content").required(true).args(["selector", "empty"])))]
struct MarkArgs {
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
    /// Finish each marked main content with this guideline (a preset name or a TOML file, see
    /// `cescope guideline list`) and record it in the gold files.
    #[arg(long, value_name = "NAME|FILE")]
    guideline: Option<String>,
}

/// Import plain-text gold standards (Scrapinghub format) as gold files with byte ranges.
#[derive(Debug, Args)]
struct ImportArgs {
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
}

/// Export the gold files of a directory (Scrapinghub JSON or CleanEval-style text).
#[derive(Debug, Args)]
struct ExportArgs {
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
}

/// Validate gold files: JSON, schema, ranges, and — when the page is found — hash and text.
#[derive(Debug, Args)]
struct CheckArgs {
    /// Directory of gold files (`*.json`), or one gold file.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Where the pages are (default: the gold directory's parent and sibling folders).
    #[arg(long, value_name = "DIR")]
    pages: Option<PathBuf>,
}

/// Inter-annotator agreement: word-LCS F1 and headline equality per page in both dirs.
#[derive(Debug, Args)]
struct AgreeArgs {
    /// The first annotator's gold directory.
    #[arg(value_name = "DIR_A")]
    dir_a: PathBuf,
    /// The second annotator's gold directory.
    #[arg(value_name = "DIR_B")]
    dir_b: PathBuf,
    /// Where the pages are, for the agreement per unit kind (default: beside DIR_A, as `gold
    /// check` looks).
    #[arg(long, value_name = "DIR")]
    pages: Option<PathBuf>,
}

/// Input formats of `cescope gold import`.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum GoldImportFormat {
    /// ground-truth.json of the Article Extraction Benchmark: id -> {articleBody, headline?, url?}.
    Scrapinghub,
}

/// Output formats of `cescope gold export`.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum GoldExportFormat {
    /// One JSON object id -> {articleBody, headline?, url?}.
    Scrapinghub,
    /// CleanEval-style text, one `<id>.txt` per page.
    Text,
}

/// `cescope gold SUBCOMMAND`: the workflows of [`cescope::gold::commands`], their reports
/// printed.
pub fn run(args: GoldArgs) -> Result<()> {
    match args.command {
        GoldCommand::Mark(a) => {
            let finish = cescope::guideline::load_optional(a.guideline.as_deref())?
                .map(|g| cescope::guideline::mark_finish(&g));
            mark(&gc::MarkOptions {
                paths: a.paths,
                selector: a.selector,
                headline: a.headline,
                empty: a.empty,
                gold_dir: a.gold_dir,
                annotator: cescope::config::annotator(a.annotator),
                force: a.force,
                finish,
            })
        }
        GoldCommand::Import(a) => {
            let GoldImportFormat::Scrapinghub = a.from;
            import(&gc::ImportOptions {
                ground_truth: a.ground_truth,
                pages: a.pages,
                out: a.out,
                annotator: cescope::config::annotator(a.annotator),
                force: a.force,
            })
        }
        GoldCommand::Export(a) => export(&gc::ExportOptions {
            format: match a.to {
                GoldExportFormat::Scrapinghub => gc::ExportFormat::Scrapinghub,
                GoldExportFormat::Text => gc::ExportFormat::Text,
            },
            dir: a.dir,
            out: a.out,
            write: WriteOptions::default(),
        }),
        GoldCommand::Check(a) => check(&a),
        GoldCommand::Agree(a) => agree(&a),
    }
}

/// The width of an id column: the longest id as printed, at least 2.
fn id_width<'a>(ids: impl Iterator<Item = &'a str>) -> usize {
    ids.map(|id| printable(id).chars().count())
        .max()
        .unwrap_or(2)
        .max(2)
}

/// What became of a page's gold file, for the line `gold mark` / `gold import` print about it.
fn save_status(s: &SaveStatus) -> String {
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

/// `cescope gold mark`: a line per gold file written on standard output, notes and warnings on
/// standard error. Errors: the selector matched nothing anywhere, pages unreadable or unwritable.
fn mark(opts: &gc::MarkOptions) -> Result<()> {
    let report = gc::mark_pages(opts)?;
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

/// `cescope gold import`: a line per page (coverage, ranges, headline F1, what was written) and a
/// summary on standard output. Errors: an unreadable ground truth, pages unreadable or unwritable.
fn import(opts: &gc::ImportOptions) -> Result<()> {
    let t0 = Instant::now();
    let report = gc::import(opts)?;
    for id in &report.missing {
        eprintln!(
            "cescope: warning: no page file for id {}; skipped",
            printable(id)
        );
    }
    let width = id_width(report.pages.iter().map(|p| p.id.as_str()));
    let mut out = std::io::stdout().lock();
    for p in &report.pages {
        let id = printable(&p.id);
        let Some(stats) = &p.stats else {
            if let SaveStatus::Unreadable(e) = &p.status {
                eprintln!("cescope: warning: {id}: {}", printable(e));
            }
            continue;
        };
        let low = stats.coverage < gc::GOOD_COVERAGE;
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
    let s = report.summary();
    writeln!(
        out,
        "{} pages, {} with coverage >= {:.0} %, mean coverage {:.3}, {:.2} s{}",
        s.aligned,
        s.good,
        gc::GOOD_COVERAGE * 100.0,
        s.mean_coverage,
        t0.elapsed().as_secs_f64(),
        if s.exists > 0 {
            format!(
                " ({} not written: gold file exists; --force replaces, keeping a backup)",
                s.exists
            )
        } else {
            String::new()
        }
    )?;
    out.flush()?;
    if s.failed > 0 {
        anyhow::bail!("{} page(s) could not be read or written", s.failed);
    }
    Ok(())
}

fn export(opts: &gc::ExportOptions) -> Result<()> {
    let report = gc::export(opts)?;
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

/// `cescope gold check`: `OK FILE` or the problems of each gold file, and a count, on standard
/// output. Errors (exit code 1): any file has problems.
fn check(args: &CheckArgs) -> Result<()> {
    let report = gc::check_files(&args.dir, args.pages.as_deref())?;
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
    for w in &report.folder_warnings {
        writeln!(out, "{}: warning: {}", shown(&args.dir), printable(w))?;
    }
    let (bad, warned) = (report.bad(), report.warned());
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

/// `cescope gold agree`: per page F1 and headline equality, the ids in only one directory, and the
/// mean, on standard output. Errors: no page annotated in both.
fn agree(args: &AgreeArgs) -> Result<()> {
    let (dir_a, dir_b) = (args.dir_a.as_path(), args.dir_b.as_path());
    let report = gc::agree_dirs(dir_a, dir_b, args.pages.as_deref())?;
    let width = id_width(report.pages.iter().map(|p| p.id.as_str()));
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
    if !report.kinds.is_empty() {
        writeln!(
            out,
            "disagreement by unit kind (words selected by one annotator only):"
        )?;
        for k in &report.kinds {
            writeln!(
                out,
                "  {:<13} {:>6} of {:>6} words ({:>5.1} %)  {} unit(s) on {} page(s)",
                k.kind.name(),
                k.disagree,
                k.words,
                100.0 * k.share(),
                k.units,
                k.pages
            )?;
        }
        if report.kinds_skipped > 0 {
            writeln!(
                out,
                "  ({} page(s) not found or of another version: not counted by kind)",
                report.kinds_skipped
            )?;
        }
    }
    let (equal, heads) = report.headlines();
    writeln!(
        out,
        "{} pages in both: mean F1 {mean:.3}, headlines equal {equal} of {heads}",
        report.pages.len()
    )?;
    out.flush()?;
    Ok(())
}
