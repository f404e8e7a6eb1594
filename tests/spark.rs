//! The Spark recipe (`tests/spark/cescope_spark.py`, RDD.pipe over JSONL partitions) gives the
//! same records as the single-machine run (compared as sorted JSONL lines).
//!
//! It installs pyspark from PyPI into a venv under `target/spark-venv` (once; later runs reuse
//! it), runs Spark in local mode with 2 cores and 3 partitions, and needs Java (17+) and python3
//! on the PATH. Without them it says SKIPPED and why, and checks nothing — except in CI (`CI`
//! set, as `.ci/run` sets it, and `.ci/run` installs both): there a missing prerequisite fails
//! the test.

use std::path::{Path, PathBuf};
use std::process::Command;

fn have(cmd: &str, arg: &str) -> bool {
    Command::new(cmd)
        .arg(arg)
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// A prerequisite is missing (`why`): in CI (`CI` set) the test fails with `why`; elsewhere it
/// says SKIPPED and the caller returns without checking anything.
fn missing(why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{why} (in CI a missing prerequisite fails the Spark test; .ci/run installs Java and python3)"
    );
    eprintln!("SKIPPED: {why}");
}

/// The venv with pyspark, created and filled on first use.
fn spark_venv() -> PathBuf {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/spark-venv");
    let python = venv.join("bin/python");
    let ok = Command::new(&python)
        .args(["-c", "import pyspark"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        let st = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .expect("python3 runs");
        assert!(st.success(), "python3 -m venv {} failed", venv.display());
        let out = Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-cache-dir",
                "pyspark",
            ])
            .output()
            .expect("pip runs");
        assert!(
            out.status.success(),
            "installing pyspark from PyPI into {} failed (network?): {}",
            venv.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    venv
}

#[test]
#[ignore = "needs pyspark (installed from PyPI) and Java"]
fn spark_local_mode_gives_the_single_machine_output() {
    if !have("java", "-version") {
        missing("no `java` on the PATH; Spark needs Java 17 or later");
        return;
    }
    if !have("python3", "--version") {
        missing("no `python3` on the PATH; the Spark recipe is a PySpark script");
        return;
    }
    let venv = spark_venv();
    let bin = env!("CARGO_BIN_EXE_cescope");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();

    // JSONL pages: the sample pages three times over, with distinct ids.
    let pages = Command::new(bin)
        .args(["extract", "--output", "pages", "--input"])
        .arg(root.join("sample-pages"))
        .output()
        .unwrap();
    assert!(pages.status.success());
    let mut input = String::new();
    for copy in 0..3 {
        for line in String::from_utf8(pages.stdout.clone()).unwrap().lines() {
            let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
            let id = format!("c{copy}-{}", v["id"].as_str().unwrap());
            v["id"] = id.into();
            input.push_str(&v.to_string());
            input.push('\n');
        }
    }
    let jsonl = dir.path().join("pages.jsonl");
    std::fs::write(&jsonl, &input).unwrap();

    let single = Command::new(bin)
        .args(["extract", "--algo", "bte", "--input"])
        .arg(&jsonl)
        .output()
        .unwrap();
    assert!(single.status.success());

    let out_dir = dir.path().join("spark-out");
    let run = Command::new(venv.join("bin/spark-submit"))
        .env_remove("SPARK_HOME")
        .env(
            "PATH",
            format!(
                "{}:{}",
                venv.join("bin").display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .env("PYSPARK_PYTHON", venv.join("bin/python"))
        .args(["--master", "local[2]"])
        .arg(root.join("tests/spark/cescope_spark.py"))
        .arg("--input")
        .arg(&jsonl)
        .arg("--output")
        .arg(&out_dir)
        .args(["--cescope", bin, "--algo", "bte", "--partitions", "3"])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "spark-submit failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mut parts = 0;
    let mut spark_lines = Vec::new();
    for e in std::fs::read_dir(&out_dir).unwrap() {
        let p = e.unwrap().path();
        if p.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("part-")
        {
            parts += 1;
            let text = std::fs::read_to_string(&p).unwrap();
            spark_lines.extend(text.lines().map(str::to_string));
        }
    }
    assert!(parts >= 3, "{parts} part files");
    let mut single_lines: Vec<String> = String::from_utf8(single.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    // Three copies of every sample page, each one output line.
    let sample_pages = String::from_utf8(pages.stdout.clone())
        .unwrap()
        .lines()
        .count();
    assert!(sample_pages >= 10, "{sample_pages} sample pages");
    assert_eq!(single_lines.len(), 3 * sample_pages);
    spark_lines.sort();
    single_lines.sort();
    assert_eq!(spark_lines, single_lines);
}
