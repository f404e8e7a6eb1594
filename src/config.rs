//! The user's settings: `<config dir>/cescope/config.toml` (e.g. `~/.config/cescope/config.toml`
//! on Linux) and the environment, read by the command line and the inspector alike.
//!
//! Settings today: `annotator = "name"`, the name written into gold files. Its resolution order
//! ([`annotator`]): an explicit value (`--annotator`), else the config file's `annotator`, else
//! `$USER` (or `$USERNAME`), else `"anonymous"`. The config file is optional and read best-effort:
//! a missing, unreadable (a FIFO or device is refused without blocking; over [`CONFIG_LIMIT`]) or
//! malformed file counts as no setting. The key-binding file `keymap.toml` lives in the same
//! directory ([`dir`]).

use std::path::{Path, PathBuf};

/// Largest config file read (bytes); a larger one is ignored.
pub const CONFIG_LIMIT: u64 = 1 << 20;

/// cescope's directory in the user's config directory (`<config dir>/cescope`), whether or not
/// it exists; `None` when the platform has no config directory (no `$HOME`).
pub fn dir() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("cescope"))
}

/// The settings of one config file. Unknown keys are ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    /// `annotator = "…"`: the annotator's name for gold files.
    pub annotator: Option<String>,
}

impl Config {
    /// Parses a config file's TOML text. A key of the wrong type counts as unset.
    ///
    /// # Errors
    /// The TOML parser's message when `text` is not a TOML table.
    pub fn parse(text: &str) -> std::result::Result<Config, toml::de::Error> {
        let v: toml::Table = text.parse()?;
        Ok(Config {
            annotator: v
                .get("annotator")
                .and_then(|a| a.as_str())
                .map(str::to_string),
        })
    }

    /// The settings of the file at `path`, best-effort: [`Config::default`] when it is missing,
    /// not a regular file, larger than [`CONFIG_LIMIT`], not UTF-8 or not valid TOML.
    pub fn load(path: &Path) -> Config {
        crate::fsio::read::read_regular(path, CONFIG_LIMIT)
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
            .and_then(|t| Config::parse(&t).ok())
            .unwrap_or_default()
    }

    /// The user's settings: [`Config::load`] of `<config dir>/cescope/config.toml`.
    pub fn user() -> Config {
        dir().map_or_else(Config::default, |d| Config::load(&d.join("config.toml")))
    }
}

/// The annotator name when none is given or configured: `$USER` (or `$USERNAME`), else
/// `"anonymous"`.
pub fn default_annotator() -> String {
    std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_else(|_| "anonymous".into())
}

/// The annotator's name: `given` (e.g. `--annotator`), else the user's config file
/// ([`Config::user`]), else [`default_annotator`].
pub fn annotator(given: Option<String>) -> String {
    given
        .or_else(|| Config::user().annotator)
        .unwrap_or_else(default_annotator)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_annotator_and_ignores_the_rest() {
        let c = Config::parse("annotator = \"ada\"\ntheme = 3\n").unwrap();
        assert_eq!(c.annotator.as_deref(), Some("ada"));
        assert_eq!(Config::parse("").unwrap(), Config::default());
        assert_eq!(Config::parse("annotator = 7").unwrap().annotator, None);
        assert!(Config::parse("annotator = ").is_err());
    }

    #[test]
    fn load_is_best_effort() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("config.toml");
        assert_eq!(Config::load(&p), Config::default());
        std::fs::write(&p, "annotator = \"grace\"").unwrap();
        assert_eq!(Config::load(&p).annotator.as_deref(), Some("grace"));
        std::fs::write(&p, "annotator = [").unwrap();
        assert_eq!(Config::load(&p), Config::default());
        assert_eq!(Config::load(d.path()), Config::default());
    }

    #[test]
    fn an_explicit_annotator_wins() {
        assert_eq!(annotator(Some("lin".into())), "lin");
        assert!(!annotator(None).is_empty());
    }
}
