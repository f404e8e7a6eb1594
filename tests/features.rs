//! Builds without the default features (`cargo test --no-default-features`): the commands that
//! need the inspector or the plots say so in one line instead of failing obscurely, and
//! `eval --report` still writes report.json. With the default features these checks compile to
//! the opposite expectations, so the file tests something in both builds.

use std::path::Path;
use std::process::{Command, Output};

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescope"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn corpus() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("corpus/html")).unwrap();
    std::fs::write(
        d.path().join("corpus/html/p.html"),
        "<html><body><p>one two three</p></body></html>",
    )
    .unwrap();
    let gt = serde_json::json!({"p": {"articleBody": "one two three"}});
    std::fs::write(d.path().join("corpus/ground-truth.json"), gt.to_string()).unwrap();
    d
}

#[test]
fn inspector_commands_need_the_tui_feature() {
    let d = corpus();
    // `bench --inspector` measures the inspector; only a build with the TUI can.
    let o = run(
        d.path(),
        &[
            "bench",
            "--inspector",
            "--algo",
            "plain",
            "corpus/html/p.html",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    if cfg!(feature = "tui") {
        assert!(o.status.success(), "{err}");
    } else {
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(
            err.contains("no inspector") && err.contains("`tui` feature"),
            "{err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        let o = run(d.path(), &["inspect", "corpus/html/p.html"]);
        assert!(String::from_utf8_lossy(&o.stderr).contains("no inspector"));
    }
}

#[test]
fn eval_report_without_plots_writes_the_json() {
    let d = corpus();
    let o = run(
        d.path(),
        &["eval", "corpus", "--algo", "plain,danag", "--report", "rep"],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let mut names: Vec<String> = std::fs::read_dir(d.path().join("rep"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    if cfg!(feature = "plots") {
        assert_eq!(names, ["f1-histogram.svg", "f1-scatter.svg", "report.json"]);
    } else {
        assert_eq!(names, ["report.json"]);
        assert!(err.contains("skipping the SVGs"), "{err}");
    }
}

/// The reference extractors exist exactly in builds with the `reference` feature; without it,
/// naming one is the usual unknown-algorithm error, which says how to build them.
#[test]
fn reference_extractors_follow_the_feature() {
    let d = corpus();
    let o = run(d.path(), &["algos", "--names"]);
    assert!(o.status.success());
    let names = String::from_utf8_lossy(&o.stdout).into_owned();
    let listed = |n: &str| names.split_whitespace().any(|x| x == n);
    let o = run(
        d.path(),
        &["extract", "corpus/html/p.html", "--algo", "readability"],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    if cfg!(feature = "reference") {
        assert!(listed("trafilatura") && listed("readability"), "{names}");
        assert!(o.status.success(), "{err}");
    } else {
        assert!(!listed("trafilatura") && !listed("readability"), "{names}");
        assert!(!o.status.success() && err.contains("readability"), "{err}");
        assert!(err.contains("--features reference"), "{err}");
    }
}
