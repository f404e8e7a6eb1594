//! Issue 8 (hardening), gold side, end to end through the binary: names read from gold files
//! and ground truths never make cescope read or write outside the folders the user named, no
//! output is written through a symbolic link, two inputs never silently share an output, only
//! one `.bak` is kept, gold files have a size limit, and messages neither repeat their cause
//! nor print control characters from files.

use crate::common;
use common::{cescope, run, stderr, stdout};

use std::path::Path;
use std::process::Command;

#[cfg(feature = "tui")]
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

const STORY: &str = "<html><head><title>Bridge</title></head><body><nav>Home</nav>\n\
<h1>Council approves the bridge</h1>\n<div class=\"story\"><p>The council approved the new \
bridge on Tuesday.</p></div>\n<footer>Town Herald</footer></body></html>\n";

/// `work/pages/story.html` and its gold file `work/gold/story.json` (made by `gold mark`);
/// returns the temp dir (the `work` folder is where commands run).
fn site() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("work");
    std::fs::create_dir_all(d.join("pages")).unwrap();
    std::fs::write(d.join("pages/story.html"), STORY).unwrap();
    let o = run(
        &d,
        &[
            "gold",
            "mark",
            "pages/story.html",
            "--selector",
            "div.story",
            "--headline",
            "h1",
            "--gold-dir",
            "gold",
            "--annotator",
            "t",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    tmp
}

/// Rewrites the `page` field of a gold file.
fn set_page(gold: &Path, page: &str) {
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(gold).unwrap()).unwrap();
    v["page"] = serde_json::Value::String(page.to_string());
    std::fs::write(gold, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn export_text_refuses_page_names_with_directories() {
    let tmp = site();
    let d = tmp.path().join("work");
    for (page, escaped) in [
        ("../../x.html", tmp.path().join("x.txt")),
        (
            &*tmp.path().join("abs.html").display().to_string(),
            tmp.path().join("abs.txt"),
        ),
    ] {
        set_page(&d.join("gold/story.json"), page);
        let o = run(
            &d,
            &["gold", "export", "--to", "text", "gold", "--out", "txt"],
        );
        assert_eq!(o.status.code(), Some(1), "{page}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("story.json") && err.contains("bare file name"),
            "{err}"
        );
        assert!(!escaped.exists(), "{page}: wrote {}", escaped.display());
        assert!(
            !d.join("txt").exists() || files_in(&d.join("txt")).is_empty(),
            "{:?}",
            files_in(&d.join("txt"))
        );
    }
}

#[test]
fn export_text_never_writes_through_a_link() {
    let tmp = site();
    let d = tmp.path().join("work");
    std::fs::create_dir(d.join("txt")).unwrap();
    let victim = tmp.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    std::os::unix::fs::symlink(&victim, d.join("txt/story.txt")).unwrap();
    let o = run(
        &d,
        &["gold", "export", "--to", "text", "gold", "--out", "txt"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(d
        .join("txt/story.txt")
        .symlink_metadata()
        .unwrap()
        .is_symlink());
}

#[test]
fn export_refuses_two_gold_files_for_one_page() {
    let tmp = site();
    let d = tmp.path().join("work");
    std::fs::copy(d.join("gold/story.json"), d.join("gold/story-copy.json")).unwrap();
    for args in [
        &["gold", "export", "--to", "text", "gold", "--out", "txt"][..],
        &[
            "gold",
            "export",
            "--to",
            "scrapinghub",
            "gold",
            "--out",
            "sh.json",
        ][..],
    ] {
        let o = run(&d, args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("story.json") && err.contains("story-copy.json"),
            "{err}"
        );
        assert!(!d.join("sh.json").exists());
        assert!(!d.join("txt/story.txt").exists());
    }
}

#[test]
fn import_refuses_ids_that_leave_the_pages_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("work");
    std::fs::create_dir_all(d.join("pages")).unwrap();
    std::fs::create_dir_all(tmp.path().join("elsewhere")).unwrap();
    // Pages outside --pages that a traversal would reach.
    std::fs::write(tmp.path().join("elsewhere/x.html"), STORY).unwrap();
    std::fs::write(tmp.path().join("abs.html"), STORY).unwrap();
    std::fs::write(d.join("pages/ok.html"), STORY).unwrap();
    let abs = tmp.path().join("abs").display().to_string();
    let body = serde_json::json!({
        "../../elsewhere/x": {"articleBody": "The council approved the new bridge on Tuesday."},
        abs.clone(): {"articleBody": "The council approved the new bridge on Tuesday."},
        "ok": {"articleBody": "The council approved the new bridge on Tuesday."},
    });
    std::fs::write(d.join("gt.json"), body.to_string()).unwrap();
    let o = run(
        &d,
        &[
            "gold",
            "import",
            "--from",
            "scrapinghub",
            "gt.json",
            "--pages",
            "pages",
            "--out",
            "out/g",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("../../elsewhere/x") && err.contains("bare file name"),
        "{err}"
    );
    // Nothing written outside out/g, no folder created on the way.
    assert!(!tmp.path().join("elsewhere/x.json").exists());
    assert!(!tmp.path().join("abs.json").exists());
    assert!(!d.join("out/elsewhere").exists());
    assert_eq!(files_in(&tmp.path().join("elsewhere")), ["x.html"]);
}

#[test]
fn check_refuses_a_page_field_with_directories() {
    let tmp = site();
    let d = tmp.path().join("work");
    let o = run(&d, &["gold", "check", "gold", "--pages", "pages"]);
    assert!(o.status.success(), "{}", stdout(&o));
    set_page(&d.join("gold/story.json"), "sub/story.html");
    let o = run(&d, &["gold", "check", "gold", "--pages", "pages"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("bare file name"), "{}", stdout(&o));
}

#[test]
fn a_bom_at_the_start_of_a_gold_file_is_accepted() {
    let tmp = site();
    let d = tmp.path().join("work");
    let p = d.join("gold/story.json");
    let mut data = b"\xEF\xBB\xBF".to_vec();
    data.extend(std::fs::read(&p).unwrap());
    std::fs::write(&p, data).unwrap();
    let o = run(&d, &["gold", "check", "gold", "--pages", "pages"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("OK "), "{}", stdout(&o));
}

#[test]
fn control_characters_from_files_are_escaped() {
    let tmp = site();
    let d = tmp.path().join("work");
    set_page(&d.join("gold/story.json"), "evil\u{1b}[2J\u{7}.html");
    let o = run(&d, &["gold", "check", "gold", "--pages", "pages"]);
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert!(!all.contains('\u{1b}') && !all.contains('\u{7}'), "{all:?}");
    assert!(all.contains("\\u{1b}[2J"), "{all}");
    let o = run(
        &d,
        &["gold", "export", "--to", "text", "gold", "--out", "txt"],
    );
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert!(!all.contains('\u{1b}') && !all.contains('\u{7}'), "{all:?}");
}

#[test]
fn gold_files_over_the_size_limit_are_refused_with_the_limit_named() {
    let tmp = site();
    let d = tmp.path().join("work");
    // A sparse file just over any sensible limit: 1 GiB + 1 byte.
    let f = std::fs::File::create(d.join("gold/huge.json")).unwrap();
    f.set_len((1 << 30) + 1).unwrap();
    drop(f);
    let o = run(&d, &["gold", "check", "gold", "--pages", "pages"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("huge.json") && out.contains("limit"), "{out}");
    assert!(out.contains("OK "), "the good file is still checked: {out}");
}

#[test]
fn a_write_error_names_its_cause_once() {
    let tmp = site();
    let d = tmp.path().join("work");
    std::fs::write(d.join("plain-file"), "x").unwrap();
    let o = run(
        &d,
        &[
            "gold",
            "export",
            "--to",
            "scrapinghub",
            "gold",
            "--out",
            "plain-file/sh.json",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.matches("Not a directory").count(), 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // The same through a gold save.
    let o = run(
        &d,
        &[
            "gold",
            "mark",
            "pages/story.html",
            "--selector",
            "p",
            "--gold-dir",
            "plain-file/g",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.matches("Not a directory").count(), 1, "{err}");
}

#[test]
fn forced_marks_keep_one_backup() {
    let tmp = site();
    let d = tmp.path().join("work");
    let first = std::fs::read(d.join("gold/story.json")).unwrap();
    for _ in 0..3 {
        let o = run(
            &d,
            &[
                "gold",
                "mark",
                "pages/story.html",
                "--selector",
                "p",
                "--gold-dir",
                "gold",
                "--force",
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert_eq!(
        files_in(&d.join("gold")),
        ["story.json", "story.json.bak"],
        "one backup"
    );
    // The backup is the file before the last save (the second forced mark's).
    assert_ne!(std::fs::read(d.join("gold/story.json.bak")).unwrap(), first);
}

#[test]
fn mark_refuses_two_pages_with_one_gold_file() {
    let tmp = site();
    let d = tmp.path().join("work");
    std::fs::copy(d.join("pages/story.html"), d.join("pages/story.htm")).unwrap();
    let o = run(
        &d,
        &[
            "gold",
            "mark",
            "pages",
            "--selector",
            "div.story",
            "--gold-dir",
            "g2",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.matches("story.htm").count() >= 2,
        "names both pages: {err}"
    );
    assert!(!d.join("g2").exists());
}

/// The inspector flow: open, take a draft, save; a second session edits and saves many times.
/// Exactly one `.bak`, holding the file as it was before the second session.
#[test]
#[cfg(feature = "tui")]
fn inspector_sessions_keep_one_backup() {
    use cescope::tui::app::{App, AppOptions};
    use cescope::tui::keymap::Keymap;
    let gold_dir = tempfile::tempdir().unwrap();
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-pages/news-article.html");
    let opts = || AppOptions {
        keymap: Keymap::builtin("default").unwrap(),
        syntax: false,
        inline_jobs: true,
        gold_dir: Some(gold_dir.path().to_path_buf()),
        annotator: "tester".into(),
        ..AppOptions::default()
    };
    let key = |app: &mut App, c: char| {
        app.handle_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    };
    let mut app = App::open(&page, opts()).unwrap();
    key(&mut app, 'T');
    key(&mut app, 'S');
    let gold = gold_dir.path().join("news-article.json");
    let first = std::fs::read(&gold).unwrap();
    for _ in 0..2 {
        // Session after session: edits and saves, five times each.
        let mut app = App::open(&page, opts()).unwrap();
        for i in 0..5 {
            app.source.set_cursor(10 + i);
            key(&mut app, if i % 2 == 0 { 'D' } else { 'i' });
            key(&mut app, 'S');
        }
    }
    let names = files_in(gold_dir.path());
    assert_eq!(names, ["news-article.json", "news-article.json.bak"]);
    let bak = std::fs::read(gold_dir.path().join("news-article.json.bak")).unwrap();
    assert_ne!(
        bak, first,
        "the second session's first save replaced the backup"
    );
}

/// `eval --report DIR` writes report.json and the SVGs atomically and never through a link.
#[test]
#[cfg(feature = "plots")]
fn eval_report_never_writes_through_a_link() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::create_dir_all(d.join("corpus/html")).unwrap();
    std::fs::write(d.join("corpus/html/story.html"), STORY).unwrap();
    let gt = serde_json::json!({"story": {"articleBody": "The council approved the new bridge on Tuesday."}});
    std::fs::write(d.join("corpus/ground-truth.json"), gt.to_string()).unwrap();
    std::fs::create_dir(d.join("rep")).unwrap();
    let victim = d.join("victim.json");
    std::fs::write(&victim, "precious").unwrap();
    std::os::unix::fs::symlink(&victim, d.join("rep/report.json")).unwrap();
    let o = run(d, &["eval", "corpus", "--algo", "danag", "--report", "rep"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    // Without the link, the report is written, and again over itself.
    std::fs::remove_file(d.join("rep/report.json")).unwrap();
    for _ in 0..2 {
        let o = run(d, &["eval", "corpus", "--algo", "danag", "--report", "rep"]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert_eq!(
        files_in(&d.join("rep")),
        ["f1-histogram.svg", "report.json"]
    );
}

#[test]
fn agree_refuses_two_gold_files_for_one_page() {
    let tmp = site();
    let d = tmp.path().join("work");
    std::fs::create_dir(d.join("b")).unwrap();
    std::fs::copy(d.join("gold/story.json"), d.join("b/story.json")).unwrap();
    let o = run(&d, &["gold", "agree", "gold", "b"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("F1 1.000"), "{}", stdout(&o));
    std::fs::copy(d.join("b/story.json"), d.join("b/again.json")).unwrap();
    let o = run(&d, &["gold", "agree", "gold", "b"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("b/story.json") && err.contains("b/again.json") && err.contains("\"story\""),
        "{err}"
    );
}

/// A FIFO where the ground truth or a gold file is expected is refused at once (no hang).
#[test]
fn fifos_are_refused_not_waited_on() {
    let tmp = site();
    let d = tmp.path().join("work");
    let made = Command::new("mkfifo")
        .arg(d.join("gt.json"))
        .arg(d.join("gold/fifo.json"))
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        return; // no mkfifo here
    }
    for args in [
        &[
            "gold",
            "import",
            "--from",
            "scrapinghub",
            "gt.json",
            "--pages",
            "pages",
            "--out",
            "g",
        ][..],
        &["gold", "check", "gold/fifo.json"][..],
    ] {
        let mut child = cescope()
            .current_dir(&d)
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // A guard against a hang, not a timing assertion: give it a minute.
        let mut waited = 0;
        while child.try_wait().unwrap().is_none() && waited < 600 {
            std::thread::sleep(std::time::Duration::from_millis(100));
            waited += 1;
        }
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            panic!("{args:?} blocked on a FIFO");
        }
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let all = format!("{}{}", stdout(&o), stderr(&o));
        assert!(all.contains("FIFO"), "{args:?}: {all}");
    }
}
