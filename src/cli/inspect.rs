//! `cescope inspect` (also `cescope PATH`): the inspector.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use cescope::extractors::DEFAULT_ALGORITHM;
use cescope::extractors::DEFAULT_HEADLINE;

/// Open a page, a directory of pages or a ground-truth.json corpus in the inspector
/// (also `cescope PATH`).
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The page file, directory or ground-truth.json.
    path: PathBuf,
    /// The algorithm active at start.
    #[arg(long, short, default_value = DEFAULT_ALGORITHM)]
    algo: String,
    /// Keymap: `default`, `vim` or a TOML file (a user override in the config directory's
    /// cescope/keymap.toml is merged on top).
    #[arg(long, default_value = "default")]
    keymap: String,
    /// --encoding, --scripting.
    #[command(flatten)]
    read: super::ReadArgs,
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
    /// Finish every algorithm's selection (and so every draft) with this guideline, show it
    /// in the status bar and record it in saved gold files (a preset name or a TOML file, see
    /// `cescope guideline list`).
    #[arg(long, value_name = "NAME|FILE")]
    guideline: Option<String>,
    /// The headline finder of the headline suggestion and the `#` panel (see `cescope algos`):
    /// learned (the shipped ranker), tf, tfidf, osm, aggregate, title, largest, or a headline
    /// model FILE.json.
    #[arg(long, value_name = "FINDER", default_value = DEFAULT_HEADLINE)]
    headline: String,
}

/// Runs the inspector until the user quits. Errors: an unknown algorithm or keymap, a page or
/// corpus that cannot be opened.
#[cfg(feature = "tui")]
pub fn run(args: InspectArgs) -> Result<()> {
    cescope::extractors::find(&args.algo)?;
    let guideline = super::guideline(args.guideline.as_deref())?;
    cescope::extractors::find_headline(&args.headline)?;
    let keymap = cescope::tui::keymap::Keymap::load(&args.keymap)?.with_user_overrides()?;
    let opts = cescope::tui::AppOptions {
        keymap,
        syntax: !args.no_syntax,
        decode: args.read.decode(),
        inline_jobs: false,
        inline_limit: cescope::tui::AppOptions::default().inline_limit,
        algo: args.algo,
        gold_dir: args.gold_dir,
        annotator: cescope::config::annotator(args.annotator),
        guideline,
        headline: args.headline,
    };
    cescope::tui::run(&args.path, opts)
}

/// Without the `tui` feature there is no inspector: says so.
#[cfg(not(feature = "tui"))]
pub fn run(_args: InspectArgs) -> Result<()> {
    anyhow::bail!(super::NO_TUI)
}
