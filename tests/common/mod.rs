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

/// Calls `f` with every page of the shared corpora (`../shared/corpus/{scrapinghub-dev,
/// readability,wcxb-dev}`) that loads, named `corpus/id`; returns how many there were. For the
/// `#[ignore = "needs ../shared/corpus"]` checks (one page in memory at a time).
pub fn for_each_corpus_page(mut f: impl FnMut(&str, &cescope::page::Page)) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut n = 0;
    for name in ["scrapinghub-dev", "readability", "wcxb-dev"] {
        let c = cescope::corpus::open(&root.join(name)).unwrap();
        for p in &c.pages {
            let opts = cescope::page::DecodeOptions::default();
            if let Ok(page) = cescope::page::Page::load(&p.path, &opts) {
                n += 1;
                f(&format!("{name}/{}", p.id), &page);
            }
        }
    }
    n
}
