//! The command-line tree (clap) and the dispatch to the code behind each subcommand: one file
//! per command, each with its `#[derive(Args)]` struct (whose doc comment is the command's help
//! text) and a `run` that takes it. The commands are a thin shell over the library.

mod algos;
mod bench;
mod blocks;
mod eval;
mod extract;
mod generate;
mod gold;
mod guideline;
mod inspect;
mod optimize;
mod title;
mod train;

use std::path::Path;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};

use cescope::extract::{ParamSpec, Params};
use cescope::page::DecodeOptions;

/// cescope — main content extraction (MCE) from web pages.
#[derive(Debug, Parser)]
#[command(name = "cescope", version, about, long_about = None)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands of `cescope`, each with its arguments; a subcommand's help text is the doc
/// comment of its `Args` struct.
// `optimize` has many options; the command is parsed once, so its size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    // No doc comments here: a variant's doc comment would replace its `Args` struct's as the
    // command's help text.
    Inspect(inspect::InspectArgs),
    Extract(extract::ExtractArgs),
    Title(title::TitleArgs),
    Blocks(blocks::BlocksArgs),
    Algos(algos::AlgosArgs),
    Bench(bench::BenchArgs),
    Eval(eval::EvalArgs),
    Optimize(optimize::OptimizeArgs),
    Train(train::TrainArgs),
    Gold(gold::GoldArgs),
    Guideline(guideline::GuidelineArgs),
    Completions(generate::CompletionsArgs),
    Man(generate::ManArgs),
}

/// Runs the parsed command. Errors are input errors (exit code 1).
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Inspect(args) => inspect::run(args),
        Command::Extract(args) => extract::run(&args),
        Command::Title(args) => title::run(&args),
        Command::Blocks(args) => blocks::run(&args),
        Command::Algos(args) => algos::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Eval(args) => eval::run(&args),
        Command::Optimize(args) => optimize::run(&args),
        Command::Train(args) => train::run(&args),
        Command::Gold(args) => gold::run(args),
        Command::Guideline(args) => guideline::run(&args),
        Command::Completions(args) => generate::completions(&args),
        Command::Man(args) => generate::man(&args),
    }
}

/// `--format text|json` of the commands that print either: lines for a person, or JSON.
// No doc comments on the variants: clap would show them as the values' help.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum TextOrJson {
    Text,
    Json,
}

/// `--format table|json` of `cescope bench`: an aligned table, or JSON.
// No doc comments on the variants: clap would show them as the values' help.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum TableOrJson {
    Table,
    Json,
}

/// The options `extract` and `title` share, after their own.
#[derive(Debug, clap::Args)]
pub struct PageArgs {
    /// Set a parameter: NAME=VALUE (repeatable).
    #[arg(long = "set", short = 's', value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// --encoding, --scripting.
    #[command(flatten)]
    read: ReadArgs,
}

impl PageArgs {
    /// The parameters of `specs` with the `--set` values applied ([`params_with`]).
    fn params(&self, specs: &[ParamSpec]) -> Result<Params> {
        params_with(specs, &self.set)
    }

    /// Decoding options with `--encoding` and `--scripting` ([`ReadArgs::decode`]).
    fn decode(&self) -> DecodeOptions {
        self.read.decode()
    }
}

/// How a page is read: the options every command that loads pages one by one shares.
#[derive(Debug, clap::Args)]
pub struct ReadArgs {
    /// Decode with this encoding (a WHATWG label), overriding detection.
    #[arg(long, value_name = "LABEL")]
    encoding: Option<String>,
    /// Read `<noscript>` as a browser with JavaScript does (raw text, never page text); by
    /// default it is markup and text, as a crawler or a reader without JavaScript sees it.
    #[arg(long)]
    scripting: bool,
}

impl ReadArgs {
    /// Decoding options with `--encoding LABEL` (if given) overriding detection, and the page
    /// read with the HTML scripting flag `--scripting` ([`DecodeOptions::scripting`]).
    fn decode(&self) -> DecodeOptions {
        DecodeOptions {
            encoding_override: self.encoding.clone(),
            scripting: self.scripting,
            ..Default::default()
        }
    }
}

/// The defaults of an algorithm's (or headline finder's) parameters `specs` with each
/// `--set NAME=VALUE` of `set` applied in turn. Errors: an unknown name or a bad value, as
/// [`Params::set_str`] reports it.
fn params_with(specs: &[ParamSpec], set: &[String]) -> Result<Params> {
    let mut params = Params::defaults(specs);
    for s in set {
        params.set_str(specs, s)?;
    }
    Ok(params)
}

/// `--guideline NAME|FILE` of extract, eval, inspect and gold mark, loaded (`None` without
/// the option). Errors: not a preset and not a readable guideline file, an invalid file.
fn guideline(name: Option<&str>) -> Result<Option<std::sync::Arc<cescope::guideline::Guideline>>> {
    Ok(cescope::guideline::load_optional(name)?)
}

/// Runs `f` on a rayon pool of `threads` worker threads (`--threads N`), or on the global pool
/// (one thread per core) when `None`. Errors: the pool cannot be started.
fn with_threads<T: Send>(threads: Option<u16>, f: impl FnOnce() -> T + Send) -> Result<T> {
    match threads {
        Some(n) => Ok(rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build()
            .context("starting the worker threads")?
            .install(f)),
        None => Ok(f()),
    }
}

/// A path for the terminal, control characters escaped.
fn shown(p: &Path) -> String {
    cescope::fsio::write::printable_path(p)
}

/// Text taken from a file, for the terminal: control characters escaped.
fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    cescope::fsio::write::printable(s)
}

/// What a build without the inspector says when asked for it.
#[cfg(not(feature = "tui"))]
const NO_TUI: &str =
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
