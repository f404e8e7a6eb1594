//! `cescope blocks`: the block table of one page (a thin shell over
//! [`cescope::eval::blocks::BlockTable`]).

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use cescope::eval::blocks::BlockTable;
use cescope::eval::report::Format;
use cescope::page::Page;

use super::{named, printable};

/// List the atomic text blocks of one page (Kohlschütter et al. 2010): DOM path, class / id,
/// shallow text features (words, link density, text density, …), visibility, record, unit
/// kind (headline, byline, caption, comments, posts, … — see `cescope guideline`) and, per
/// --algo extractor, the fraction of the block's text it selects (`-` reads standard input).
// The doc comments are the help texts, shown as written (no Markdown).
#[allow(clippy::doc_markdown)]
#[derive(Debug, Args)]
pub struct BlocksArgs {
    /// The page: a path, `-` for standard input.
    file: PathBuf,
    /// Extractors whose verdicts to add (comma-separated names or set files, or `all`), each
    /// with its published defaults.
    #[arg(long, short, value_name = "A,B,…")]
    algo: Option<String>,
    /// Add each block's explanation by this extractor (a name, set file or model file): a
    /// learned model's probability and the features that moved it most; a DOM algorithm's
    /// decisive comparison.
    #[arg(long, value_name = "ALGO")]
    why: Option<String>,
    /// Output format: an aligned table, JSON (every feature and ratio), or CSV.
    #[arg(long, short, default_value = "table", value_parser = named::<Format>(&Format::NAMES))]
    format: Format,
    /// --encoding, --scripting.
    #[command(flatten)]
    read: super::ReadArgs,
}

/// `cescope blocks`: the table on standard output, warnings on standard error. Errors: an
/// unknown algorithm, an unreadable page.
pub fn run(args: &BlocksArgs) -> Result<()> {
    let extractors = match &args.algo {
        Some(spec) => cescope::extractors::resolve(spec)?,
        None => Vec::new(),
    };
    let why = args
        .why
        .as_deref()
        .map(cescope::extractors::find)
        .transpose()?;
    let page = Page::load(&args.file, &args.read.decode())?;
    let mut table = BlockTable::with_extractors(&page, &extractors);
    table.set_units(&cescope::guideline::page_units(&page));
    if let Some(e) = &why {
        table.explain_with(&page, e.as_ref());
    }
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Table => {
            for line in table.to_text(60).lines() {
                writeln!(out, "{}", printable(line))?;
            }
        }
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &table.to_json())?;
            writeln!(out)?;
        }
        Format::Csv => write!(out, "{}", table.to_csv())?,
    }
    for w in page.warnings() {
        eprintln!("cescope: warning: {w}");
    }
    Ok(())
}
