//! Helpers shared by the end-to-end tests that run the `cescope` binary. Each test file uses the
//! ones it needs (`mod common;`), hence the `dead_code` allowance.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// The binary under test.
pub fn cescope() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cescope"))
}

/// Runs `cescope ARGS…` in `dir` and waits for it.
pub fn run(dir: &Path, args: &[&str]) -> Output {
    cescope().current_dir(dir).args(args).output().unwrap()
}

/// Standard output, lossily decoded.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error, lossily decoded.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Driving the inspector in tests: a deterministic `App` fed scripted keys and drawn on a
/// `TestBackend`.
#[cfg(feature = "tui")]
pub mod tui;
