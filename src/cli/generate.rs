//! `cescope completions SHELL` and `cescope man`: shell completion scripts and manual pages,
//! generated from the clap tree itself (`clap_complete`, `clap_mangen`), so they never drift from
//! the options (as ripgrep and bat ship theirs).

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, CommandFactory};

use cescope::fsio::write::{write_bytes, WriteOptions};

use super::{shown, Cli};

/// The program's name in completion scripts and manual pages.
const BIN: &str = "cescope";

/// Print a shell completion script, generated from the command line's own definition (e.g.
/// `cescope completions bash > ~/.local/share/bash-completion/completions/cescope`).
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Print the manual page cescope(1) in roff, generated from the command line's own definition
/// (`cescope man | man -l -`); with --dir, write it and one page per subcommand
/// (cescope-extract.1, cescope-gold-mark.1, …) into DIR instead.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write every page into this directory (it must exist) instead of printing cescope(1).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// `cescope completions SHELL`: the completion script on standard output.
pub fn completions(args: &CompletionsArgs) -> Result<()> {
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut Cli::command(), BIN, &mut out);
    out.flush()?;
    Ok(())
}

/// `cescope man`: cescope(1) on standard output, or with `--dir` every page written (atomically,
/// never through a link) into the directory, each named on standard error. Errors: a page that
/// cannot be written.
pub fn man(args: &ManArgs) -> Result<()> {
    let Some(dir) = &args.dir else {
        let mut out = std::io::stdout().lock();
        out.write_all(&render_page(man_command())?)?;
        out.flush()?;
        return Ok(());
    };
    for (name, page) in man_pages()? {
        let written = write_bytes(&dir.join(name), &WriteOptions::default(), &page)?;
        eprintln!("cescope: wrote {}", shown(&written.path));
    }
    Ok(())
}

/// The clap tree the manual pages describe: built (so subcommands know their full names, as
/// `cescope-gold-mark`), without clap's `help` subcommand.
fn man_command() -> clap::Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// Every manual page as (file name, roff): one per subcommand, depth first, then cescope.1 (as
/// `clap_mangen::generate_to` does, but rendered in memory so that the files go through
/// cescope's safe writer).
fn man_pages() -> Result<Vec<(String, Vec<u8>)>> {
    fn walk(cmd: clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
            walk(sub, out)?;
        }
        let name = clap_mangen::Man::new(cmd.clone()).get_filename();
        out.push((name, render_page(cmd)?));
        Ok(())
    }
    let mut pages = Vec::new();
    walk(man_command(), &mut pages)?;
    Ok(pages)
}

/// The manual page of `cmd` in roff, in ASCII: every other character (the help texts' `—`,
/// `→`, `…`) as groff's `\[uXXXX]` escape, so that troff reads the page without a
/// preprocessor and whatever its input encoding (raw UTF-8 draws "invalid input character"
/// warnings from `groff -man` and garbage from troff without `preconv`).
fn render_page(cmd: clap::Command) -> std::io::Result<Vec<u8>> {
    let mut raw = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut raw)?;
    let text = String::from_utf8(raw).map_err(std::io::Error::other)?;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            // Four hex digits at least, upper case, as groff spells Unicode escapes.
            out.push_str(&format!("\\[u{:04X}]", u32::from(c)));
        }
    }
    Ok(out.into_bytes())
}
