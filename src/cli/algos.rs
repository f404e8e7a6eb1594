//! `cescope algos`: the algorithms and headline finders with their parameters.

use std::io::Write;

use anyhow::Result;
use clap::Args;

use cescope::extract::{ParamKind, ParamSpec};

use super::TextOrJson;

/// List the algorithms with their parameters, published defaults, ranges and sources.
#[derive(Debug, Args)]
pub struct AlgosArgs {
    /// Print only the names, one per line: every extractor a user can name, in display order;
    /// a shipped trained model (not in `--algo all`) last, marked by a tab and `(trained; not
    /// in all)`.
    #[arg(long)]
    names: bool,
    /// Output format.
    #[arg(long, short, value_enum, default_value = "text")]
    format: TextOrJson,
}

/// A parameter's kind and range as `cescope algos` shows it: `int 1..=200 step 1`, `one of a|b`.
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
    params: &[ParamSpec],
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

/// `cescope algos`: the registry's extractors (the shipped trained model last), then the
/// headline finders, as text or JSON (or only the extractors' names) on standard output.
pub fn run(args: &AlgosArgs) -> Result<()> {
    let reg = cescope::extractors::registry();
    let mut out = std::io::stdout().lock();
    if args.names {
        for e in reg {
            writeln!(out, "{}", e.name())?;
        }
        for t in reg.trained() {
            writeln!(out, "{}\t(trained; not in all)", t.name)?;
        }
        return Ok(());
    }
    match args.format {
        TextOrJson::Text => {
            for e in reg {
                write_entry(&mut out, e.name(), e.describe(), e.params())?;
            }
            for e in reg.trained().iter().filter_map(|t| (t.load)().ok()) {
                writeln!(
                    out,
                    "\nthe shipped learned model (--algo {}; not in `all`: it was trained on the dev corpora)",
                    e.name()
                )?;
                write_entry(&mut out, e.name(), e.describe(), e.params())?;
            }
            writeln!(
                out,
                "\nheadline finders (cescope title --method NAME, cescope eval --headline)"
            )?;
            for f in cescope::extractors::headlines() {
                write_entry(&mut out, f.name(), f.describe(), f.params())?;
            }
            let heads = cescope::extractors::headlines();
            for f in heads.trained().iter().filter_map(|t| (t.load)().ok()) {
                writeln!(
                    out,
                    "\nthe shipped headline ranker (--method {}; the default headline finder; not in \
                     `all`: it was trained on the dev corpora)",
                    f.name()
                )?;
                write_entry(&mut out, f.name(), f.describe(), f.params())?;
            }
        }
        TextOrJson::Json => {
            let v = cescope::extractors::catalogue();
            serde_json::to_writer_pretty(&mut out, &v)?;
            writeln!(out)?;
        }
    }
    Ok(())
}
