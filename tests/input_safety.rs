//! Issue 8 (items 3, 5, 6): no hang on FIFOs or devices, clear and non-repeating messages,
//! missing vs malformed gold files in `eval`, the page-hash warning, and decoding that trusts
//! valid UTF-8 over a contradicting `<meta>`.
//!
//! Commands that used to block run as child processes under a time bound: a regression fails
//! the test (after killing the child) instead of hanging the test run.

use crate::common;
use common::{cescope, stderr};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use cescope::corpus::GoldText;
use cescope::eval::run::{self, CorpusOrGoldFiles, GoldLookup, GoldSource};

/// Generous: the commands below finish in well under a second; the bound only separates
/// "finished" from "blocked forever".
const BOUND: Duration = Duration::from_secs(60);

/// Runs `cmd` with standard input closed, killing it and failing the test if it has not
/// finished within [`BOUND`].
fn run_bounded(mut cmd: Command) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn cescope");
    let t0 = Instant::now();
    loop {
        match child.try_wait().expect("wait") {
            Some(_) => return child.wait_with_output().expect("output"),
            None if t0.elapsed() > BOUND => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("cescope did not finish within {BOUND:?}: it blocked ({cmd:?})");
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// Makes a FIFO at `path`; false when the system has no `mkfifo` (the test then has nothing
/// to check).
fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

const PAGE: &str = "<html><head><title>T</title></head><body><div><p>The council approved the \
    new bridge on Tuesday after a long debate about its cost and design.</p><p>Work starts in \
    spring and should take two years, officials said.</p></div></body></html>";

/// `pages/a.html` and an empty `gold/` beside it.
fn pages_with_gold_dir() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    let gold = dir.path().join("gold");
    std::fs::create_dir_all(&pages).unwrap();
    std::fs::create_dir_all(&gold).unwrap();
    std::fs::write(pages.join("a.html"), PAGE).unwrap();
    // The pages' gold folder is the sibling gold/ (the rule of `gold::gold_path_for`).
    std::fs::write(pages.join("cescope.toml"), "gold_dir = \"../gold\"\n").unwrap();
    (dir, pages, gold)
}

#[cfg(unix)]
#[test]
fn extract_refuses_a_fifo_page_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("page.html");
    if !mkfifo(&fifo) {
        return;
    }
    let mut cmd = cescope();
    cmd.arg("extract").arg(&fifo);
    let out = run_bounded(cmd);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("FIFO") && err.contains("not a regular file"),
        "{err}"
    );
    assert!(
        err.contains("standard input"),
        "says how to read a stream: {err}"
    );
}

#[cfg(unix)]
#[test]
fn dev_zero_is_refused_as_a_device() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    let mut cmd = cescope();
    cmd.args(["extract", "/dev/zero"]);
    let out = run_bounded(cmd);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("/dev/zero: it is a device"), "{err}");
    assert!(!err.contains("too large"), "refused before reading: {err}");
}

#[cfg(unix)]
#[test]
fn eval_does_not_block_on_a_fifo_gold_file() {
    let (_dir, pages, gold) = pages_with_gold_dir();
    if !mkfifo(&gold.join("a.json")) {
        return;
    }
    let mut cmd = cescope();
    cmd.arg("eval").arg(&pages);
    let out = run_bounded(cmd);
    let err = stderr(&out);
    assert!(err.contains("a.json") && err.contains("FIFO"), "{err}");
    assert!(err.contains("unusable"), "not reported as missing: {err}");
}

#[cfg(unix)]
#[test]
fn eval_refuses_a_fifo_ground_truth_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.html"), PAGE).unwrap();
    if !mkfifo(&dir.path().join("ground-truth.json")) {
        return;
    }
    let mut cmd = cescope();
    cmd.arg("eval").arg(dir.path());
    let out = run_bounded(cmd);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("ground-truth.json") && err.contains("FIFO"),
        "{err}"
    );
}

#[test]
fn eval_tells_missing_from_malformed_gold_files() {
    let (_dir, pages, gold) = pages_with_gold_dir();
    std::fs::write(pages.join("b.html"), PAGE).unwrap();
    std::fs::write(gold.join("a.json"), "{\"schema\": \"cescope-gold\", ").unwrap();
    // b has no gold file.
    let c = cescope::corpus::open(&pages).unwrap();
    let lookups: Vec<GoldLookup> = c
        .pages
        .iter()
        .map(|p| CorpusOrGoldFiles.lookup(&c, p))
        .collect();
    match &lookups[0] {
        GoldLookup::Unusable(why) => {
            assert!(why.contains("a.json") && why.contains("malformed"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(lookups[1], GoldLookup::Missing);

    let (found, notes) = run::gather_with(&[pages], &CorpusOrGoldFiles).unwrap();
    assert!(found.is_empty());
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].contains("skipped page a") && notes[0].contains("malformed"),
        "{notes:?}"
    );
    assert!(
        notes[1].contains("skipped 1 of 2 pages without a gold standard (b)"),
        "{notes:?}"
    );
}

#[test]
fn eval_warns_once_when_the_page_differs_from_its_gold() {
    let (_dir, pages, gold) = pages_with_gold_dir();
    let mark = cescope()
        .args(["gold", "mark", "--selector", "p", "--gold-dir"])
        .arg(&gold)
        .arg(pages.join("a.html"))
        .output()
        .unwrap();
    assert!(mark.status.success(), "{}", stderr(&mark));
    // `gold mark` writes drafts: eval scores them with --drafts.

    // Unchanged page: no warning.
    let out = run_bounded({
        let mut c = cescope();
        c.args(["eval", "--drafts", "--algo", "danag,r2l"])
            .arg(&pages);
        c
    });
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("differs"), "{}", stderr(&out));

    // Edited page: one warning for the page (not one per algorithm), and it is still scored.
    std::fs::write(pages.join("a.html"), format!("{PAGE}<!-- edited -->")).unwrap();
    let out = run_bounded({
        let mut c = cescope();
        c.args(["eval", "--drafts", "--algo", "danag,r2l"])
            .arg(&pages);
        c
    });
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(
        err.matches("differs from the one its gold standard")
            .count(),
        1,
        "{err}"
    );
    assert!(err.contains("pages/a"), "{err}");

    // The library carries it in the report.
    let (found, _) = run::gather_with(&[pages], &CorpusOrGoldFiles).unwrap();
    assert!(found[0].gold_sha256.is_some());
    let algos = run::configure(cescope::extractors::resolve("danag").unwrap(), &[]).unwrap();
    let rep = run::evaluate(&found, &algos, run::Metric::Word, false);
    assert_eq!(rep.pages[0].warnings.len(), 1);
    assert!(rep.pages[0].error.is_none());
}

#[test]
fn a_custom_gold_source_keeps_working() {
    let (_dir, pages, _gold) = pages_with_gold_dir();
    let source = |_: &cescope::corpus::Corpus, _: &cescope::corpus::CorpusPage| {
        Some(GoldText {
            article_body: "The council approved the new bridge".into(),
            ..Default::default()
        })
    };
    let (found, notes) = run::gather_with(&[pages], &source).unwrap();
    assert_eq!(found.len(), 1);
    assert!(notes.is_empty());
    assert_eq!(found[0].gold_sha256, None);
}

#[test]
fn no_message_repeats_its_cause() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(Vec<PathBuf>, &str)> = vec![
        (vec![dir.path().to_path_buf()], "directory"),
        (vec![dir.path().join("missing.html")], "No such file"),
    ];
    for (args, cause) in cases {
        let mut cmd = cescope();
        cmd.arg("extract").args(&args);
        let out = run_bounded(cmd);
        assert_eq!(out.status.code(), Some(1));
        let err = stderr(&out);
        assert_eq!(err.matches(cause).count(), 1, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[cfg(unix)]
#[test]
fn control_characters_from_names_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let evil = dir.path().join("evil\u{1b}[31mred\nname.html");
    let mut cmd = cescope();
    cmd.arg("extract").arg(&evil);
    let out = run_bounded(cmd);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(!err.contains('\u{1b}'), "{err:?}");
    assert!(err.contains("evil\\u{1b}[31mred\\nname.html"), "{err:?}");
    assert_eq!(err.lines().count(), 1, "{err:?}");

    // The same in eval's notes: a page id with an escape sequence and a malformed gold file.
    let (_d, pages, gold) = pages_with_gold_dir();
    std::fs::write(pages.join("x\u{1b}[2Jy.html"), PAGE).unwrap();
    std::fs::write(
        gold.join("x\u{1b}[2Jy.json"),
        "{\"\u{1b}]0;title\u{7}\": 1}",
    )
    .unwrap();
    let mut cmd = cescope();
    cmd.arg("eval").arg(&pages);
    let out = run_bounded(cmd);
    let err = stderr(&out);
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    assert!(err.contains("x\\u{1b}[2Jy"), "{err:?}");
}

/// A hand-made saved page: `<meta>` says GBK, the bytes are UTF-8 with Chinese text.
fn gbk_labelled_utf8_page() -> String {
    "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb2312\">\
     <title>城市新闻</title></head><body><div><p>今天上午，市政府宣布新的公交线路将于下月开通，\
     沿线居民出行将更加方便。</p><p>据介绍，新线路全长十八公里，共设二十二个站点。</p></div>\
     </body></html>"
        .to_string()
}

#[test]
fn a_gbk_labelled_utf8_page_is_decoded_as_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("news.html");
    std::fs::write(&path, gbk_labelled_utf8_page()).unwrap();
    let out = run_bounded({
        let mut c = cescope();
        c.args(["extract", "--format", "json", "--algo", "danag"])
            .arg(&path);
        c
    });
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["encoding"], "UTF-8");
    assert_eq!(v["encoding_source"], "utf8-over-meta");
    assert_eq!(v["had_errors"], false);
    assert!(
        v["text"]
            .as_str()
            .unwrap()
            .contains("市政府宣布新的公交线路"),
        "{}",
        v["text"]
    );
    let warnings = v["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|w| w.as_str().unwrap().contains("GBK")),
        "{warnings:?}"
    );

    // --encoding keeps the last word.
    let out = run_bounded({
        let mut c = cescope();
        c.args(["extract", "--format", "json", "--encoding", "gbk"])
            .arg(&path);
        c
    });
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["encoding"].as_str(), v["encoding_source"].as_str()),
        (Some("GBK"), Some("override"))
    );
}
