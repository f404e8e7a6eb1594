//! The binary: exit codes, formats, and the commands a user runs first.

use std::io::Write;
use std::process::{Command, Stdio};

fn cescope() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cescope"))
}

const PAGE: &str = "<html><head><title>T</title></head><body><ul><li><a href=\"/a/b/c\">Home</a></li><li><a href=\"/d/e/f\">News</a></li></ul><div><p>The council approved the new bridge on Tuesday after a long debate about its cost and design.</p><p>Work starts in spring and should take two years, officials said.</p></div></body></html>";

fn write_page(dir: &tempfile::TempDir, name: &str, body: &[u8]) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, body).unwrap();
    p
}

#[test]
fn extract_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_page(&dir, "p.html", PAGE.as_bytes());
    let out = cescope().args(["extract"]).arg(&f).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("The council approved"));
    assert!(!text.contains("Home"));

    let out = cescope()
        .args([
            "extract", "--format", "json", "--algo", "addanag", "--set", "gap=5",
        ])
        .arg(&f)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["algo"], "addanag");
    assert_eq!(v["params"]["gap"], 5);
    assert_eq!(v["params"]["filter"], "filter3");
    assert_eq!(v["encoding"], "UTF-8");
    assert!(v["selection"].as_array().unwrap().len() >= 2);
    assert!(v["timing_ms"]["run"].as_f64().unwrap() >= 0.0);
    // The ranges are byte ranges into the decoded text.
    let r = &v["selection"][0];
    let (s, e) = (
        r[0].as_u64().unwrap() as usize,
        r[1].as_u64().unwrap() as usize,
    );
    assert!(PAGE[s..e].contains("council"));
}

#[test]
fn stdin_and_gzip() {
    let mut child = cescope()
        .args(["extract", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(PAGE.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("bridge"));

    let dir = tempfile::tempdir().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(PAGE.as_bytes()).unwrap();
    let f = write_page(&dir, "p.html.gz", &gz.finish().unwrap());
    let out = cescope().arg("extract").arg(&f).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("bridge"));
}

#[test]
fn exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_page(&dir, "p.html", PAGE.as_bytes());
    // usage errors: 2
    let out = cescope().args(["extract"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = cescope().args(["frobnicate"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    // input errors: 1 with one line on stderr
    for args in [
        vec![
            "extract".to_string(),
            dir.path().join("missing.html").display().to_string(),
        ],
        vec![
            "extract".into(),
            f.display().to_string(),
            "--algo".into(),
            "nope".into(),
        ],
        vec![
            "extract".into(),
            f.display().to_string(),
            "--set".into(),
            "gap=abc".into(),
        ],
        vec![
            "extract".into(),
            f.display().to_string(),
            "--encoding".into(),
            "klingon".into(),
        ],
        vec!["extract".into(), dir.path().display().to_string()],
    ] {
        let out = cescope().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("cescope: error:"), "{err}");
    }
    let png = write_page(&dir, "x.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01");
    let out = cescope().arg("extract").arg(&png).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("PNG"));
}

#[test]
fn algos_lists_every_algorithm_with_defaults() {
    let out = cescope().args(["algos", "--names"]).output().unwrap();
    let names = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        names.lines().collect::<Vec<_>>(),
        cescope::algorithms::names(),
        "`algos --names` lists the registry in order"
    );
    assert!(names
        .lines()
        .take(4)
        .eq(["r2l", "dana", "danag", "addanag"]));
    let out = cescope()
        .args(["algos", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let r2l = &v[0];
    assert_eq!(r2l["name"], "r2l");
    assert_eq!(r2l["params"][0]["name"], "gap");
    assert_eq!(r2l["params"][0]["default"], 8);
    assert_eq!(v[2]["params"][0]["default"], 20);
    let out = cescope().args(["algos"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("Formula 4.2"));
}

#[test]
fn bench_json_has_the_documented_keys() {
    let dir = tempfile::tempdir().unwrap();
    write_page(&dir, "a.html", PAGE.as_bytes());
    write_page(&dir, "b.html", PAGE.as_bytes());
    let out = cescope()
        .args([
            "bench", "--format", "json", "--repeat", "1", "--algo", "danag",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["algo"], "page-model");
    assert_eq!(rows[1]["algo"], "dom");
    for k in [
        "algo",
        "pages",
        "bytes",
        "seconds",
        "mb_per_s",
        "ms_per_page",
    ] {
        assert!(rows[2].get(k).is_some(), "missing {k}");
    }
    assert_eq!(rows[2]["pages"], 2);
    assert_eq!(rows[2]["bytes"], 2 * PAGE.len());
}

/// Papercuts of a first try: options may come before the page (`cescope --algo r2l PAGE` is
/// `inspect`), a command given the wrong kind of file says what it expects, and the inspector
/// without a terminal says so instead of an OS error.
#[test]
fn wrong_kind_of_input_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_page(&dir, "p.html", PAGE.as_bytes());
    let run = |args: &[&std::ffi::OsStr]| {
        let out = cescope()
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // Options before the page: parsed as inspect's, so the only complaint is the missing terminal.
    let (code, err) = run(&["--algo".as_ref(), "r2l".as_ref(), f.as_os_str()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("the inspector needs a terminal"), "{err}");
    let (code, err) = run(&["--algo".as_ref(), "nope".as_ref(), f.as_os_str()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("unknown algorithm"), "{err}");
    // eval of a page, inspect of a gold file.
    let (code, err) = run(&["eval".as_ref(), f.as_os_str()]);
    assert_eq!(code, Some(1));
    assert!(err.contains("is a page, not a corpus"), "{err}");
    let gold = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("gold/news-article.json");
    let (code, err) = run(&["inspect".as_ref(), gold.as_os_str()]);
    assert_eq!(code, Some(1));
    assert!(err.contains("is a cescope gold file"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn extract_with_a_filter_set_file() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_page(&dir, "p.html", PAGE.as_bytes());
    let set = write_page(
        &dir,
        "my_set.toml",
        b"combine = \"serial\"\n[[member]]\nalgo = \"lqf\"\nparams = { t = 0.5 }\n\
          [[member]]\nalgo = \"bte\"\n",
    );
    let out = cescope()
        .args(["extract", "--format", "json", "--algo"])
        .arg(&set)
        .args(["--set", "1.delete=subtree"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["algo"], "my_set");
    assert_eq!(v["params"]["1.t"], 0.5);
    assert_eq!(v["params"]["1.delete"], "subtree");
    let out = cescope()
        .args(["extract", "--algo"])
        .arg(&set)
        .arg(&f)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("The council approved"), "{text}");
    assert!(!text.contains("Home"), "{text}");
    // A bad set file: exit code 1, one line naming the file and the member.
    let bad = write_page(
        &dir,
        "bad.toml",
        b"combine = \"vote\"\n[[member]]\nalgo = \"lqf\"\n",
    );
    let out = cescope()
        .args(["extract", "--algo"])
        .arg(&bad)
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("bad.toml") && err.contains("threshold"),
        "{err}"
    );
}
