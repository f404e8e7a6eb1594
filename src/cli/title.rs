//! `cescope title`: the ranked headline candidates of one page.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use serde_json::json;

use cescope::extractors::DEFAULT_HEADLINE;
use cescope::page::Page;

use super::{printable, shown, PageArgs, TextOrJson};

/// Find the headline of one page: ranked candidates with scores and source byte ranges (by
/// default the shipped learned ranker; TitleFinder, Mohammadzadeh 2013, chapter 5, with
/// `--method tf`; `-` reads standard input).
// The doc comments are the help texts, shown as written (no Markdown).
#[allow(clippy::doc_markdown)]
#[derive(Debug, Args)]
pub struct TitleArgs {
    /// The page: a path, `-` for standard input.
    file: PathBuf,
    /// Headline finder (see `cescope algos`): learned (the shipped ranker), tf, tfidf, osm,
    /// aggregate, title, largest, or a headline model FILE.json.
    #[arg(long, short, default_value = DEFAULT_HEADLINE)]
    method: String,
    /// How many candidates to show, best first.
    #[arg(long, default_value_t = 1)]
    top: usize,
    /// Output format.
    #[arg(long, short, value_enum, default_value = "text")]
    format: TextOrJson,
    /// --set, --encoding, --scripting.
    #[command(flatten)]
    page: PageArgs,
}

/// `cescope title`: the best `--top` candidates as lines (score, byte range, text) or JSON on
/// standard output; warnings, and a note when there is none, on standard error. Errors: an
/// unknown finder or parameter, an unreadable page.
pub fn run(args: &TitleArgs) -> Result<()> {
    let finder = cescope::extractors::find_headline(&args.method)?;
    let params = args.page.params(finder.params())?;
    let opts = args.page.decode();
    let page = Page::load(&args.file, &opts)?;
    let found = finder.run(&page, &params);
    let best = &found.candidates[..args.top.min(found.candidates.len())];
    let mut out = std::io::stdout().lock();
    match args.format {
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
                "file": args.file.display().to_string(),
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
            shown(&args.file),
            finder.name()
        );
    }
    Ok(())
}
