//! `cescope gold …`: mark, import, export, check, agree, end to end through the binary.

use crate::common;
use common::{cescope, run, stderr, stdout};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use cescope::metrics::word_prf;

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

const STORY: &str = "<!doctype html><html><head><title>Bridge</title></head><body>\n\
<nav><a href=\"/\">Home</a> <a href=\"/news\">News</a> <a href=\"/sport\">Sport</a></nav>\n\
<h1> Council approves the <em>new</em> bridge </h1>\n\
<div class=\"story\"><p>The council approved the new bridge on Tuesday after a long debate.</p>\n\
<p>Work starts in spring &amp; should take two years, officials said.</p></div>\n\
<aside>Advertisement: buy a boat</aside>\n\
<footer>&copy; Town Herald</footer></body></html>\n";

const OTHER: &str = "<html><body><nav><a href=\"/\">Home</a></nav><h1>Harbour news</h1>\
<div class=\"story\"><p>The old harbour wall will be repaired before the winter storms arrive.</p></div>\
<ul><li><a href=\"/a\">More stories</a></li></ul></body></html>";

const NO_STORY: &str = "<html><body><nav><a href=\"/\">Home</a></nav><ul><li>Teaser one</li><li>Teaser two</li></ul></body></html>";

/// A temp dir with `pages/story.html` and `pages/other.html`.
fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("pages")).unwrap();
    std::fs::write(dir.path().join("pages/story.html"), STORY).unwrap();
    std::fs::write(dir.path().join("pages/other.html"), OTHER).unwrap();
    dir
}

fn mark(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "gold",
        "mark",
        "pages/story.html",
        "--selector",
        "div.story",
        "--headline",
        "h1",
        "--gold-dir",
        "gold",
    ];
    args.extend_from_slice(extra);
    run(dir, &args)
}

#[test]
fn mark_writes_a_draft_and_never_overwrites_silently() {
    let site = site();
    let d = site.path();
    let o = mark(d, &["--annotator", "ana"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("1 ranges, 22 words"), "{out}");
    assert!(
        out.contains("headline \"Council approves the new bridge\""),
        "{out}"
    );
    let gold_file = d.join("gold/story.json");
    let g = json(&gold_file);
    assert_eq!(g["draft"], true);
    assert_eq!(g["annotator"], "ana");
    assert_eq!(g["page"], "story.html");
    let text = g["main_content"]["text"].as_str().unwrap();
    assert_eq!(
        text,
        "The council approved the new bridge on Tuesday after a long debate.\n\
         Work starts in spring & should take two years, officials said."
    );
    assert!(!text.contains("Home") && !text.contains("Advertisement"));
    // Offsets index the page's text: the range is the div, tags included.
    let [s, e] = [
        g["main_content"]["ranges"][0][0].as_u64().unwrap() as usize,
        g["main_content"]["ranges"][0][1].as_u64().unwrap() as usize,
    ];
    assert!(STORY[s..e].starts_with("<div class=\"story\">") && STORY[s..e].ends_with("</div>"));
    assert_eq!(g["headline"]["text"], "Council approves the new bridge");
    let [hs, he] = [
        g["headline"]["range"][0].as_u64().unwrap() as usize,
        g["headline"]["range"][1].as_u64().unwrap() as usize,
    ];
    assert_eq!(&STORY[hs..he], "Council approves the <em>new</em> bridge");

    // Again: the file exists and is kept as it is.
    let before = std::fs::read(&gold_file).unwrap();
    let o = mark(d, &["--annotator", "bo"]);
    assert!(o.status.success());
    assert!(
        stderr(&o).contains("exists; not replaced"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&gold_file).unwrap(), before);
    assert!(!d.join("gold/story.json.bak").exists());

    // --force replaces it and keeps the previous file as a backup.
    let o = mark(d, &["--annotator", "bo", "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("backup"), "{}", stdout(&o));
    assert_eq!(json(&gold_file)["annotator"], "bo");
    assert_eq!(
        std::fs::read(d.join("gold/story.json.bak")).unwrap(),
        before
    );
}

#[test]
fn mark_a_directory_lists_pages_without_a_match() {
    let site = site();
    let d = site.path();
    std::fs::write(d.join("pages/teasers.html"), NO_STORY).unwrap();
    let o = run(
        d,
        &[
            "gold",
            "mark",
            "pages",
            "--selector",
            "div.story",
            "--annotator",
            "a",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("matched nothing on 1 page(s)") && err.contains("teasers.html"),
        "{err}"
    );
    // No gold/ beside pages/: the files go into pages/gold/.
    assert!(d.join("pages/gold/story.json").is_file());
    assert!(d.join("pages/gold/other.json").is_file());
    assert!(!d.join("pages/gold/teasers.json").exists());

    // A selector that matches nothing anywhere is an error.
    let o = run(
        d,
        &[
            "gold",
            "mark",
            "pages",
            "--selector",
            "article",
            "--gold-dir",
            "g2",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("matched nothing on any"),
        "{}",
        stderr(&o)
    );
    assert!(!d.join("g2").exists());

    // --empty: a finished gold with no main content.
    let o = run(
        d,
        &[
            "gold",
            "mark",
            "pages/teasers.html",
            "--empty",
            "--gold-dir",
            "g3",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let g = json(&d.join("g3/teasers.json"));
    assert_eq!(g["draft"], false);
    assert_eq!(g["main_content"]["ranges"], serde_json::json!([]));
    assert_eq!(g["headline"], serde_json::Value::Null);
}

#[test]
fn invalid_selectors_are_input_errors() {
    let site = site();
    let d = site.path();
    for (sel, head) in [("div[", "h1"), ("div.story", "h1 +")] {
        let o = run(
            d,
            &[
                "gold",
                "mark",
                "pages/story.html",
                "--selector",
                sel,
                "--headline",
                head,
            ],
        );
        assert_eq!(o.status.code(), Some(1), "{sel} {head}");
        let err = stderr(&o);
        assert!(
            err.starts_with("cescope: error: invalid CSS selector"),
            "{err}"
        );
        assert!(
            err.contains(&format!("{:?}", if sel == "div[" { sel } else { head })),
            "{err}"
        );
    }
    assert!(!d.join("pages/gold").exists());
    // Usage errors: no selector, or a selector together with --empty.
    let o = run(d, &["gold", "mark", "pages/story.html"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(
        d,
        &[
            "gold",
            "mark",
            "pages/story.html",
            "--empty",
            "--selector",
            "p",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
}

/// A Scrapinghub-format corpus: `corpus/ground-truth.json` and `corpus/html/*.html`.
fn corpus(d: &Path) -> BTreeMap<String, serde_json::Value> {
    std::fs::create_dir_all(d.join("corpus/html")).unwrap();
    std::fs::write(d.join("corpus/html/story.html"), STORY).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, OTHER.as_bytes()).unwrap();
    std::fs::write(d.join("corpus/html/other.html.gz"), gz.finish().unwrap()).unwrap();
    let gt = serde_json::json!({
        "story": {
            "articleBody": "The council approved the new bridge on Tuesday after a long debate.\n\nWork starts in spring & should take two years, officials said.",
            "headline": "Council approves the new bridge",
            "url": "https://herald.example/bridge"
        },
        "other": {
            "articleBody": "The old harbour wall will be repaired before the winter storms arrive."
        }
    });
    std::fs::write(
        d.join("corpus/ground-truth.json"),
        serde_json::to_string_pretty(&gt).unwrap(),
    )
    .unwrap();
    gt.as_object().unwrap().clone().into_iter().collect()
}

#[test]
fn import_then_export_reproduces_the_ground_truth() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let gt = corpus(d);
    let o = run(
        d,
        &[
            "gold",
            "import",
            "--from",
            "scrapinghub",
            "corpus/ground-truth.json",
            "--out",
            "g",
            "--annotator",
            "imp",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("coverage 1.000") && !out.contains("LOW"),
        "{out}"
    );
    assert!(
        out.contains("2 pages, 2 with coverage >= 95 %, mean coverage 1.000"),
        "{out}"
    );
    let g = json(&d.join("g/story.json"));
    assert_eq!(g["annotator"], "imp");
    assert_eq!(g["url"], "https://herald.example/bridge");
    assert_eq!(g["headline"]["text"], "Council approves the new bridge");
    assert_eq!(json(&d.join("g/other.json"))["page"], "other.html.gz");

    // Again: nothing is replaced without --force; --pages points at the html files.
    let o = run(
        d,
        &[
            "gold",
            "import",
            "--from",
            "scrapinghub",
            "corpus/ground-truth.json",
            "--pages",
            "corpus/html",
            "--out",
            "g",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("(2 not written: gold file exists;"),
        "{}",
        stdout(&o)
    );
    assert!(!d.join("g/story.json.bak").exists());

    let o = run(
        d,
        &[
            "gold",
            "export",
            "--to",
            "scrapinghub",
            "g",
            "--out",
            "sh.json",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let exported = json(&d.join("sh.json"));
    assert_eq!(exported.as_object().unwrap().len(), gt.len());
    for (id, g) in &gt {
        let e = &exported[id];
        let f1 = word_prf(
            e["articleBody"].as_str().unwrap(),
            g["articleBody"].as_str().unwrap(),
        )
        .f1;
        assert_eq!(f1, 1.0, "{id}");
        assert_eq!(e["headline"], g["headline"]);
        assert_eq!(e["url"], g["url"]);
    }
    // Standard output by default; backups, recovery and temp files are not gold files.
    std::fs::copy(d.join("g/story.json"), d.join("g/story.json.bak")).unwrap();
    std::fs::write(d.join("g/.story.json.recover"), "{").unwrap();
    std::fs::write(d.join("g/.story.json.x1.tmp"), "{").unwrap();
    let o = run(d, &["gold", "export", "--to", "scrapinghub", "g"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v, exported);

    // Text: one file per page, --out required.
    let o = run(d, &["gold", "export", "--to", "text", "g"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--out"), "{}", stderr(&o));
    let o = run(d, &["gold", "export", "--to", "text", "g", "--out", "txt"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let t = std::fs::read_to_string(d.join("txt/story.txt")).unwrap();
    assert!(t.starts_with("URL: https://herald.example/bridge\n\n<h>Council approves the new bridge\n\n<p>The council"), "{t}");
    assert!(d.join("txt/other.txt").is_file());
}

fn check(d: &Path, args: &[&str]) -> Output {
    let mut a = vec!["gold", "check"];
    a.extend_from_slice(args);
    run(d, &a)
}

#[test]
fn check_passes_good_files_and_reports_tampered_ones() {
    let site = site();
    let d = site.path();
    std::fs::create_dir(d.join("gold")).unwrap();
    std::fs::write(d.join("pages/cescope.toml"), "gold_dir = \"../gold\"\n").unwrap();
    for page in ["pages/story.html", "pages/other.html"] {
        let o = run(
            d,
            &[
                "gold",
                "mark",
                page,
                "--selector",
                "div.story",
                "--headline",
                "h1",
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
    }
    // The pages are found in the sibling folder pages/.
    let o = check(d, &["gold"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("OK gold/story.json\n") && out.contains("OK gold/other.json\n"),
        "{out}"
    );
    // gold mark's headlines are suggestions until an annotator confirms them: a warning, not
    // a problem.
    assert!(
        out.contains("gold/story.json: warning: headline not confirmed"),
        "{out}"
    );
    assert!(
        out.ends_with("2 files, 0 with problems, 2 with warnings\n"),
        "{out}"
    );
    let o = check(d, &["gold", "--pages", "pages"]);
    assert!(o.status.success(), "{}", stdout(&o));

    // A tampered text.
    let path = d.join("gold/story.json");
    let good = std::fs::read_to_string(&path).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&good).unwrap();
    v["main_content"]["text"] = "The council rejected the new bridge.".into();
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let o = check(d, &["gold"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("gold/story.json: main_content.text is not the rendering"),
        "{out}"
    );
    assert!(out.contains("OK gold/other.json"), "{out}");
    assert!(
        out.ends_with("2 files, 1 with problems, 2 with warnings\n"),
        "{out}"
    );
    assert!(stderr(&o).contains("1 of 2 gold file(s) have problems"));

    // A wrong hash.
    let mut v: serde_json::Value = serde_json::from_str(&good).unwrap();
    v["sha256"] = "ab".repeat(32).into();
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let o = check(d, &["gold"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("gold/story.json: page differs: SHA-256"),
        "{}",
        stdout(&o)
    );

    // Malformed JSON: the position is named.
    std::fs::write(&path, "{\n  \"schema\": \"cescope-gold\",\n  oops\n}\n").unwrap();
    let o = check(d, &["gold"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("gold/story.json:3:3: malformed gold file"),
        "{}",
        stdout(&o)
    );

    // Without the page, only what the file itself says is checked.
    std::fs::write(&path, &good).unwrap();
    std::fs::remove_file(d.join("pages/story.html")).unwrap();
    let o = check(d, &["gold"]);
    assert!(o.status.success());
    assert!(
        stdout(&o).contains("OK gold/story.json (page story.html not found"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn agree_on_identical_and_partly_overlapping_dirs() {
    let site = site();
    let d = site.path();
    for page in ["pages/story.html", "pages/other.html"] {
        let o = run(
            d,
            &[
                "gold",
                "mark",
                page,
                "--selector",
                "div.story",
                "--headline",
                "h1",
                "--gold-dir",
                "a",
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = run(
        d,
        &[
            "gold",
            "mark",
            "pages/story.html",
            "--selector",
            "body",
            "--headline",
            "h1",
            "--gold-dir",
            "b",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(d, &["gold", "agree", "a", "a"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("2 pages in both: mean F1 1.000, headlines equal 2 of 2"),
        "{out}"
    );

    let o = run(d, &["gold", "agree", "a", "b"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("only in a: other"), "{out}");
    let f1: f64 = out
        .lines()
        .find(|l| l.starts_with("story"))
        .and_then(|l| l.split_whitespace().nth(2))
        .unwrap()
        .parse()
        .unwrap();
    assert!(f1 > 0.5 && f1 < 1.0, "{out}");
}

fn shared_corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(name)
}

#[test]
#[ignore = "needs ../shared/corpus"]
fn import_and_export_scrapinghub_dev() {
    let corpus = shared_corpus("scrapinghub-dev");
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("gold");
    let o = cescope()
        .args(["gold", "import", "--from", "scrapinghub"])
        .arg(corpus.join("ground-truth.json"))
        .arg("--out")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let coverages: Vec<f64> = out
        .lines()
        .filter_map(|l| {
            l.split_once("  coverage ")?
                .1
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .collect();
    assert_eq!(coverages.len(), 98, "{out}");
    let high = coverages.iter().filter(|&&c| c >= 0.95).count();
    assert!(high >= 95, "{high} pages reach 95 % coverage\n{out}");

    let sh = tmp.path().join("sh.json");
    let o = cescope()
        .args(["gold", "export", "--to", "scrapinghub"])
        .arg(&out_dir)
        .arg("--out")
        .arg(&sh)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let exported = json(&sh);
    let gt = json(&corpus.join("ground-truth.json"));
    let gt = gt.as_object().unwrap();
    let perfect = gt
        .iter()
        .filter(|(id, g)| {
            word_prf(
                exported[id.as_str()]["articleBody"].as_str().unwrap_or(""),
                g["articleBody"].as_str().unwrap_or(""),
            )
            .f1 == 1.0
        })
        .count();
    assert!(
        perfect as f64 >= 0.95 * gt.len() as f64,
        "{perfect} of {} pages export with F1 1.0",
        gt.len()
    );
}

/// `gold mark --guideline` finishes the marked content with the guideline and records it
/// (name and hash); the file round-trips through `gold check`; a folder whose files follow
/// different guidelines gets a warning.
#[test]
fn mark_with_a_guideline_records_it_and_check_warns_on_a_mix() {
    let site = site();
    let d = site.path();
    let o = run(
        d,
        &[
            "gold",
            "mark",
            "pages/story.html",
            "--selector",
            "body",
            "--headline",
            "h1",
            "--gold-dir",
            "gold",
            "--guideline",
            "article",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let g = json(&d.join("gold/story.json"));
    assert_eq!(g["guideline"]["name"], "article");
    let hash = g["guideline"]["sha256"].as_str().unwrap().to_string();
    let show = stdout(&run(d, &["guideline", "show", "article"]));
    assert!(show.contains(&format!("sha256 {hash}")), "{show}");
    let text = g["main_content"]["text"].as_str().unwrap();
    // The aside (supplemental) and the headline are out under `article`; the story stays.
    assert!(text.contains("The council approved"), "{text}");
    assert!(!text.contains("Advertisement"), "{text}");
    assert!(!text.contains("Council approves"), "{text}");
    // Without --guideline the file has no guideline field at all.
    let o = run(
        d,
        &[
            "gold",
            "mark",
            "pages/other.html",
            "--selector",
            "div.story",
            "--gold-dir",
            "gold",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let raw = std::fs::read_to_string(d.join("gold/other.json")).unwrap();
    assert!(!raw.contains("guideline"), "{raw}");
    // Both files are valid, and the folder mixes two definitions: a warning names both.
    let o = check(d, &["gold", "--pages", "pages"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("warning: the gold files follow different guidelines (no guideline: 1 file(s), e.g. other.json; article ("),
        "{out}"
    );
    // One guideline throughout: no warning.
    std::fs::remove_file(d.join("gold/other.json")).unwrap();
    let out = stdout(&check(d, &["gold", "--pages", "pages"]));
    assert!(!out.contains("different guidelines"), "{out}");
}

/// `gold agree` reports disagreement by unit kind when it finds the pages.
#[test]
fn agree_reports_disagreement_by_unit_kind() {
    let site = site();
    let d = site.path();
    for (dir, sel) in [("a", "div.story"), ("b", "body")] {
        let o = run(
            d,
            &[
                "gold",
                "mark",
                "pages/story.html",
                "--selector",
                sel,
                "--gold-dir",
                dir,
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = run(d, &["gold", "agree", "a", "b", "--pages", "pages"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("disagreement by unit kind"), "{out}");
    // The aside is a supplemental unit: `b` took it, `a` did not (4 words, all disputed).
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with("supplemental"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("4 of      4 words (100.0 %)"), "{line}");
}
