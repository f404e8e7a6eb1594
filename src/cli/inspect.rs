//! `cescope inspect` (also `cescope PATH`): the inspector.

use std::path::PathBuf;

use anyhow::Result;

#[cfg(feature = "tui")]
use cescope::algorithms;
#[cfg(feature = "tui")]
use cescope::page::DecodeOptions;

#[cfg(not(feature = "tui"))]
use super::NO_TUI;

#[cfg(feature = "tui")]
pub(super) fn inspect(
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
        annotator: cescope::config::annotator(annotator),
    };
    cescope::tui::run(path, opts)
}

#[cfg(not(feature = "tui"))]
pub(super) fn inspect(
    _path: &std::path::Path,
    _algo: &str,
    _keymap: &str,
    _encoding: Option<String>,
    _no_syntax: bool,
    _annotator: Option<String>,
    _gold_dir: Option<PathBuf>,
) -> Result<()> {
    anyhow::bail!(NO_TUI)
}
