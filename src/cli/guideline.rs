//! `cescope guideline list | show NAME|FILE | check FILE`: the written definitions of main
//! content cescope applies (a thin shell over [`cescope::guideline`]).

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Subcommand};

use cescope::guideline::{Choice, Guideline, PRESETS};
use cescope::page::units::UnitKind;

use super::printable;

/// Guidelines: which unit kinds (headline, bylines, captions, tables, code, comments, forum
/// posts, related and supplemental lists, link lists) are main content, as TOML files;
/// `--guideline NAME|FILE` applies one on extract, eval, inspect and gold mark.
#[derive(Debug, Args)]
pub struct GuidelineArgs {
    /// What to do.
    #[command(subcommand)]
    command: GuidelineCommand,
}

/// The guideline subcommands.
#[derive(Debug, Subcommand)]
enum GuidelineCommand {
    /// The shipped presets, one line each.
    List,
    /// A guideline's choices, with their reasons and its published source.
    Show {
        /// A preset name or a guideline file.
        #[arg(value_name = "NAME|FILE")]
        name: String,
    },
    /// Check a guideline file: every key a unit kind, every value a choice it takes (exit 1
    /// on a problem); kinds it leaves to the extractor are listed.
    Check {
        /// The guideline file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
}

/// `cescope guideline …`. Errors: an unknown preset, an unreadable or invalid file.
pub fn run(args: &GuidelineArgs) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match &args.command {
        GuidelineCommand::List => {
            let width = PRESETS.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
            for (name, _) in PRESETS {
                let title = Guideline::preset(name).map(|g| g.title).unwrap_or_default();
                writeln!(out, "{name:<width$}  {title}")?;
            }
        }
        GuidelineCommand::Show { name } => {
            let g = Guideline::load(name)?;
            show(&mut out, &g)?;
        }
        GuidelineCommand::Check { file } => {
            let g = Guideline::load(&file.to_string_lossy())?;
            let left: Vec<&str> = UnitKind::ALL
                .iter()
                .filter(|&&k| g.choice(k) == Choice::Extracted)
                .map(|k| k.name())
                .collect();
            writeln!(
                out,
                "OK {}: guideline {} (sha256 {})",
                printable(&g.origin),
                printable(&g.name),
                g.hash()
            )?;
            if !left.is_empty() {
                writeln!(out, "  left to the extractor: {}", left.join(", "))?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// The guideline as `guideline show` prints it: name, title, hash, source, then one line per
/// unit kind with its choice and reason.
fn show(out: &mut impl Write, g: &Guideline) -> std::io::Result<()> {
    writeln!(out, "{}: {}", printable(&g.name), printable(&g.title))?;
    writeln!(out, "sha256 {}  ({})", g.hash(), printable(&g.origin))?;
    if !g.source.is_empty() {
        writeln!(out, "\nsource:")?;
        for line in g.source.lines() {
            writeln!(out, "  {}", printable(line))?;
        }
    }
    writeln!(out, "\nunits:")?;
    for k in UnitKind::ALL {
        writeln!(
            out,
            "  {:<13} {:<21} {}",
            k.name(),
            g.choice(k).name_for(k),
            k.describe()
        )?;
        if let Some(w) = g.why(k) {
            writeln!(out, "  {:<35} why: {}", "", printable(w))?;
        }
    }
    Ok(())
}
