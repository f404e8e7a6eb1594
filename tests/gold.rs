//! Gold standards: file format, safe saving, recovery, verification, checks, agreement, and
//! import from / export to the Scrapinghub format. (The SIGKILL fault test of saving is
//! `tests/gold_fault.rs`.)

#![allow(clippy::single_range_in_vec_init)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cescope::corpus::{self, GoldText};
use cescope::gold::{
    self, agree, check, discard_recovery, export_scrapinghub, export_text, import_scrapinghub,
    load, load_recovery, recovery_is_newer, recovery_path, save, save_recovery, verify, Gold,
    GoldError, ProblemKind, SaveMode,
};
use cescope::metrics::{word_prf, words};
use cescope::page::{DecodeOptions, Page};
use cescope::selection::Selection;

const PAGE: &str = "<!DOCTYPE html><html><head><title>Bridge approved &ndash; Town Herald</title>\
<script>var ad = 'The council';</script></head><body>\
<nav><ul><li><a href=\"/\">Home</a></li><li><a href=\"/news\">News</a></li><li>The council</li></ul></nav>\
<article><h1>Council approves the new bridge</h1>\
<p>The town council approved the <b>new</b> bridge on Tuesday &amp; work starts in spring.</p>\
<p>&ldquo;It&rsquo;s a good day,&rdquo; said the mayor, Ana Lima. The cost is &euro;12m, or 3&nbsp;% of the budget.</p>\
<p>Engineers call the de<i>sign</i> &quot;simple&quot; &mdash; <a href=\"/x\">read more</a> about it.</p></article>\
<footer><p>&copy; 2024 Town Herald. The council is not responsible for external sites.</p></footer>\
</body></html>";

fn page() -> Page {
    Page::from_text("bridge.html", PAGE)
}

fn span_of(page: &Page, needle: &str) -> std::ops::Range<usize> {
    let s = page.text().find(needle).expect("needle in page");
    s..s + needle.len()
}

fn sample_gold(page: &Page) -> Gold {
    let mut g = Gold::new(page, "tester");
    let a = page.text().find("<article>").unwrap();
    let b = page.text().find("</article>").unwrap();
    g.set_main_content(page, Selection::from_ranges([a..b]));
    g.set_headline(page, Some(span_of(page, "Council approves the new bridge")));
    g
}

#[test]
fn new_gold_is_an_empty_draft() {
    let p = page();
    let g = Gold::new(&p, "ann");
    assert_eq!(
        (g.schema.as_str(), g.version, g.page.as_str()),
        ("cescope-gold", 1, "bridge.html")
    );
    assert_eq!(g.sha256, p.sha256_hex());
    assert_eq!(g.encoding, "UTF-8");
    assert!(g.draft && g.main_content.ranges.is_empty() && g.headline.is_none());
    assert!(check(&g, Some(&p)).is_empty(), "{:?}", check(&g, Some(&p)));
}

#[test]
fn setters_recompute_text() {
    let p = page();
    let g = sample_gold(&p);
    assert!(g.main_content.text.starts_with("Council approves the new bridge\nThe town council approved the new bridge on Tuesday & work starts in spring."));
    assert_eq!(
        g.headline.as_ref().unwrap().text,
        "Council approves the new bridge"
    );
    assert_eq!(g.main_selection().ranges().len(), 1);
    assert!(check(&g, Some(&p)).is_empty(), "{:?}", check(&g, Some(&p)));
}

#[test]
fn round_trip_save_load() {
    let dir = tempfile::tempdir().unwrap();
    let p = page();
    let g = sample_gold(&p);
    let path = dir.path().join("gold/bridge.json");
    let out = save(&path, &g, SaveMode::New).unwrap();
    assert_eq!(out.path, path);
    assert!(!out.replaced && out.backup.is_none());
    let back = load(&path).unwrap();
    assert_eq!(back, g);
    // The file is pretty JSON with the ranges as pairs.
    let raw = std::fs::read_to_string(&path).unwrap();
    assert_eq!(raw, g.to_json());
    assert_eq!(out.bytes, raw.len());
    assert!(raw.starts_with("{\n  \"schema\": \"cescope-gold\",\n  \"version\": 1,"));
    let v: serde_json::Value = serde_json::from_str(&raw).unwrap();
    assert!(v["main_content"]["ranges"][0].as_array().unwrap().len() == 2);
    // No temp files are left behind.
    let names: Vec<String> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["bridge.json"]);
}

/// The example of `gold/SCHEMA.md` is a valid gold file of its page, in the exact format.
#[test]
fn schema_example_is_valid() {
    let md = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("gold/SCHEMA.md"))
        .unwrap();
    let block = |lang: &str| {
        let start = md.find(&format!("```{lang}\n")).unwrap() + lang.len() + 4;
        let len = md[start..].find("```").unwrap();
        md[start..start + len].to_string()
    };
    let page = Page::from_text("bridge.html", block("html"));
    let json = block("json");
    let g = gold::parse(Path::new("SCHEMA.md"), json.as_bytes()).unwrap();
    assert!(
        check(&g, Some(&page)).is_empty(),
        "{:?}",
        check(&g, Some(&page))
    );
    assert!(verify(&g, &page).editable());
    assert_eq!(g.to_json(), json);
}

#[test]
fn save_new_refuses_to_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let p = page();
    let path = dir.path().join("bridge.json");
    std::fs::write(&path, "precious").unwrap();
    let err = save(&path, &sample_gold(&p), SaveMode::New).unwrap_err();
    assert!(matches!(err, GoldError::Exists { .. }));
    let msg = err.to_string();
    assert!(
        msg.contains("already exists") && msg.contains("bridge.json"),
        "{msg}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious");
}

#[test]
fn backup_keeps_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = page();
    let path = dir.path().join("bridge.json");
    let mut g = sample_gold(&p);
    save(&path, &g, SaveMode::New).unwrap();
    let first = std::fs::read_to_string(&path).unwrap();
    g.notes = "second".into();
    let out = save(&path, &g, SaveMode::Backup).unwrap();
    let bak = out.backup.clone().unwrap();
    assert_eq!(bak, dir.path().join("bridge.json.bak"));
    assert!(out.replaced);
    assert_eq!(std::fs::read_to_string(&bak).unwrap(), first);
    assert_eq!(load(&path).unwrap().notes, "second");
    // One backup: a later backup replaces it (issue 8: "keep one").
    g.notes = "third".into();
    let out2 = save(&path, &g, SaveMode::Backup).unwrap();
    assert_eq!(out2.backup.as_deref(), Some(bak.as_path()));
    assert_eq!(load(&bak).unwrap().notes, "second");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    // Overwrite replaces without a backup.
    g.notes = "fourth".into();
    let out3 = save(&path, &g, SaveMode::Overwrite).unwrap();
    assert!(out3.replaced && out3.backup.is_none());
    assert_eq!(load(&path).unwrap().notes, "fourth");
}

#[test]
fn malformed_json_reports_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.json");
    std::fs::write(
        &path,
        "{\n  \"schema\": \"cescope-gold\",\n  \"version\": 1,\n  \"page\": \"x.html\"\n  \"sha256\": \"00\"\n}\n",
    )
    .unwrap();
    let err = load(&path).unwrap_err();
    match &err {
        GoldError::Json { line, column, .. } => assert_eq!((*line, *column), (5, 3)),
        e => panic!("unexpected {e:?}"),
    }
    let msg = err.to_string();
    assert!(msg.contains("bad.json:5:3"), "{msg}");

    // A field of the wrong type: also with its position.
    let p = page();
    let json = sample_gold(&p)
        .to_json()
        .replace("\"draft\": true", "\"draft\": \"yes\"")
        .replace("\"draft\": false", "\"draft\": \"yes\"");
    std::fs::write(&path, json).unwrap();
    let msg = load(&path).unwrap_err().to_string();
    assert!(
        msg.contains("bad.json:") && msg.contains("invalid type"),
        "{msg}"
    );

    // Another kind of JSON file, and a future version.
    std::fs::write(&path, r#"{"x": {"articleBody": "a"}}"#).unwrap();
    let err = load(&path).unwrap_err();
    assert!(matches!(err, GoldError::Schema { .. }), "{err}");
    assert!(err.to_string().contains("not a cescope gold file"));
    let json = sample_gold(&p)
        .to_json()
        .replace("\"version\": 1", "\"version\": 2");
    std::fs::write(&path, json).unwrap();
    let err = load(&path).unwrap_err();
    assert!(matches!(err, GoldError::Version { .. }), "{err}");
    assert!(err.to_string().contains("version 2 is not supported"));
    // Missing file.
    assert!(matches!(
        load(&dir.path().join("none.json")),
        Err(GoldError::Read { .. })
    ));
}

#[test]
fn hash_mismatch_is_detected() {
    let p = page();
    let g = sample_gold(&p);
    let v = verify(&g, &p);
    assert!(v.matches && v.editable() && v.warning().is_none());
    let changed = Page::from_text("bridge.html", PAGE.replace("Tuesday", "Monday"));
    let v = verify(&g, &changed);
    assert!(!v.matches && !v.editable());
    assert!(v
        .differences
        .iter()
        .any(|d| matches!(d, gold::Difference::Hash(..))));
    assert!(v
        .differences
        .iter()
        .any(|d| matches!(d, gold::Difference::Length(Some(_), _))));
    let w = v.warning().unwrap();
    assert!(w.contains("SHA-256") && w.contains("read-only"), "{w}");
    let problems = check(&g, Some(&changed));
    assert!(problems.iter().any(|p| p.kind == ProblemKind::Hash));
    // Same bytes decoded with another encoding: the offsets would not apply.
    let latin = Page::from_bytes(
        "bridge.html",
        PAGE.as_bytes().to_vec(),
        &DecodeOptions {
            encoding_override: Some("windows-1252".into()),
            ..DecodeOptions::default()
        },
    )
    .unwrap();
    let v = verify(&g, &latin);
    assert!(v.matches && !v.editable(), "{v:?}");
}

#[test]
fn check_finds_bad_ranges_and_text() {
    let p = page();
    let len = p.text().len();
    let mut g = sample_gold(&p);
    assert!(check(&g, Some(&p)).is_empty());
    g.main_content.ranges.push([len - 5, len + 10]);
    let problems = check(&g, Some(&p));
    assert!(
        problems.iter().any(|x| x.kind == ProblemKind::RangeBounds),
        "{problems:?}"
    );
    let mut g = sample_gold(&p);
    g.main_content.text.push_str(" extra");
    let problems = check(&g, Some(&p));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].kind, ProblemKind::Text);
    // Unsorted, overlapping, reversed ranges and a bad headline.
    let mut g = sample_gold(&p);
    g.main_content.ranges = vec![[50, 60], [10, 20], [15, 30], [40, 40]];
    g.headline.as_mut().unwrap().text = "Wrong".into();
    let kinds: Vec<ProblemKind> = check(&g, Some(&p)).iter().map(|x| x.kind).collect();
    assert!(kinds.contains(&ProblemKind::RangeOrder), "{kinds:?}");
    assert!(kinds.contains(&ProblemKind::Headline), "{kinds:?}");
    // Without the page: bounds come from text_length.
    let mut g = sample_gold(&p);
    g.main_content.ranges = vec![[0, len + 1]];
    assert!(check(&g, None)
        .iter()
        .any(|x| x.kind == ProblemKind::RangeBounds));
    // A range inside a multi-byte character (the € of the page is written as an entity, so
    // use a page with a raw one).
    let q = Page::from_text("e.html", "<p>3 € only</p>");
    let mut g = Gold::new(&q, "t");
    g.set_main_content(&q, Selection::from_ranges([3..q.text().len() - 4]));
    assert!(check(&g, Some(&q)).is_empty());
    g.main_content.ranges = vec![[3, 6]];
    assert!(check(&g, Some(&q))
        .iter()
        .any(|x| x.kind == ProblemKind::CharBoundary));
    // Bad timestamp and hash fields.
    let mut g = sample_gold(&p);
    g.created = "yesterday".into();
    g.sha256 = "xyz".into();
    let kinds: Vec<ProblemKind> = check(&g, None).iter().map(|x| x.kind).collect();
    assert_eq!(kinds, [ProblemKind::Field, ProblemKind::Field]);
}

#[test]
fn agreement() {
    let p = page();
    let a = sample_gold(&p);
    let same = agree(&a, &a.clone());
    assert_eq!((same.f1, same.headline_match), (1.0, Some(true)));
    let mut b = a.clone();
    let first_para = span_of(&p, "The town council approved");
    b.set_main_content(
        &p,
        Selection::from_ranges([first_para.start..first_para.start + 200]),
    );
    b.set_headline(&p, Some(span_of(&p, "Bridge approved")));
    let d = agree(&a, &b);
    assert!(d.f1 < 1.0 && d.f1 > 0.0, "{d:?}");
    assert_eq!(d.headline_match, Some(false));
    b.headline = None;
    assert_eq!(agree(&a, &b).headline_match, None);
}

#[test]
fn recovery_logic() {
    let dir = tempfile::tempdir().unwrap();
    let p = page();
    let path = dir.path().join("bridge.json");
    assert_eq!(
        recovery_path(&path),
        dir.path().join(".bridge.json.recover")
    );
    assert!(!recovery_is_newer(&path));
    assert!(load_recovery(&path).unwrap().is_none());
    let mut g = sample_gold(&p);
    // Only a recovery file: newer.
    save_recovery(&path, &g).unwrap();
    assert!(recovery_is_newer(&path));
    assert_eq!(load_recovery(&path).unwrap().unwrap(), g);
    // The gold saved afterwards is newer.
    std::thread::sleep(Duration::from_millis(20));
    save(&path, &g, SaveMode::New).unwrap();
    assert!(!recovery_is_newer(&path));
    // An autosave after the save is newer again.
    std::thread::sleep(Duration::from_millis(20));
    g.notes = "unsaved edit".into();
    save_recovery(&path, &g).unwrap();
    assert!(recovery_is_newer(&path));
    assert_eq!(load_recovery(&path).unwrap().unwrap().notes, "unsaved edit");
    assert!(discard_recovery(&path).unwrap());
    assert!(!discard_recovery(&path).unwrap());
    assert!(!recovery_is_newer(&path));
}

/// One rule (`gold_path_for`): the folder's `cescope.toml` names a sibling gold folder, else
/// `gold/` in the page's folder — a sibling `gold/` that merely exists is not taken.
#[test]
fn gold_path_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("sample-pages");
    std::fs::create_dir(&pages).unwrap();
    std::fs::create_dir(dir.path().join("gold")).unwrap();
    assert_eq!(
        gold::gold_path_for(&pages.join("x.html"), None),
        pages.join("gold/x.json")
    );
    std::fs::write(pages.join("cescope.toml"), "gold_dir = \"../gold\"\n").unwrap();
    assert_eq!(
        gold::gold_path_for(&pages.join("x.html"), None),
        dir.path().join("gold/x.json")
    );
    let other = dir.path().join("other/deeper");
    std::fs::create_dir_all(&other).unwrap();
    assert_eq!(
        gold::gold_path_for(&other.join("y.htm.gz"), None),
        other.join("gold/y.json")
    );
}

// ---------------------------------------------------------------------------------------------
// Import / export
// ---------------------------------------------------------------------------------------------

#[test]
fn import_reproduces_the_gold_words() {
    let p = page();
    // The gold as a browser-based annotation tool would have it: entities decoded, inline
    // markup joined ("de<i>sign</i>" → "design"), different white space.
    let body = "The town council approved the new bridge on Tuesday & work starts in spring.\n\n\
                “It’s a good day,” said the mayor, Ana Lima. The cost is €12m, or 3 % of the budget.\n\
                Engineers call the design \"simple\" — read more about it.";
    let gt = GoldText {
        article_body: body.to_string(),
        headline: Some("Council approves the new bridge".into()),
        url: Some("https://herald.example/bridge".into()),
        ..Default::default()
    };
    let (g, stats) = import_scrapinghub(&gt, &p, "bridge.html", "importer");
    assert_eq!(stats.matched, stats.gold_words);
    assert_eq!(stats.coverage, 1.0);
    assert_eq!(stats.headline_f1, Some(1.0));
    assert!(!g.draft);
    // The three paragraphs, not the nav's or footer's "The council".
    assert_eq!(stats.ranges, 1, "{:?}", g.main_content.ranges);
    let exported = export_scrapinghub([&g]);
    let article = exported["bridge"]["articleBody"].as_str().unwrap();
    assert_eq!(word_prf(article, body).f1, 1.0);
    assert_eq!(words(article), words(body));
    assert_eq!(
        exported["bridge"]["headline"].as_str(),
        Some("Council approves the new bridge")
    );
    assert_eq!(
        exported["bridge"]["url"].as_str(),
        Some("https://herald.example/bridge")
    );
    // The headline is the <h1>, not the <title>.
    assert_eq!(
        g.headline_range().unwrap(),
        span_of(&p, "Council approves the new bridge")
    );
    // Punctuation touching the words is inside the range: the text reads like the page.
    assert!(g.main_content.text.starts_with("The town council"));
    assert!(
        g.main_content.text.ends_with("read more about it."),
        "{}",
        g.main_content.text
    );
    assert!(g.main_content.text.contains("“It’s a good day,”"));
    assert!(check(&g, Some(&p)).is_empty(), "{:?}", check(&g, Some(&p)));
    let text = export_text(&g);
    assert!(text.starts_with("URL: https://herald.example/bridge\n\n<h>Council approves"));

    // Gold words missing from the page: partial coverage, still in order, marked as a draft.
    let gt2 = GoldText {
        article_body: format!("{body} An extra sentence nobody wrote."),
        ..Default::default()
    };
    let (g2, s2) = import_scrapinghub(&gt2, &p, "bridge.html", "importer");
    assert!(s2.coverage < 1.0 && s2.matched < s2.gold_words);
    assert!(g2.draft);
    assert_eq!(s2.headline_f1, None);
}

// ---------------------------------------------------------------------------------------------
// The real corpus
// ---------------------------------------------------------------------------------------------

fn corpus_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(name)
}

#[test]
#[ignore = "needs ../shared/corpus"]
fn import_scrapinghub_dev() {
    let c = corpus::open(&corpus_dir("scrapinghub-dev")).expect("corpus opens");
    let n = c.pages.len();
    let (mut full_cov, mut exact, mut headline_found, mut with_headline) = (0, 0, 0, 0);
    let mut hist = [0usize; 11];
    let mut exceptions = Vec::new();
    let mut total = Duration::ZERO;
    let mut slowest = (Duration::ZERO, String::new());
    let dir = tempfile::tempdir().unwrap();
    for cp in &c.pages {
        let gt = cp.gold.clone().unwrap_or_default();
        let page = Page::load(&cp.path, &DecodeOptions::default()).unwrap();
        let name = cp.path.file_name().unwrap().to_string_lossy().into_owned();
        let t = Instant::now();
        let (g, stats) = import_scrapinghub(&gt, &page, &name, "scrapinghub");
        let dt = t.elapsed();
        total += dt;
        if dt > slowest.0 {
            slowest = (
                dt,
                format!(
                    "{} ({} page / {} gold words)",
                    cp.id, stats.page_words, stats.gold_words
                ),
            );
        }
        assert!(
            check(&g, Some(&page)).is_empty(),
            "{}: {:?}",
            cp.id,
            check(&g, Some(&page))
        );
        // Export and round trip through a file.
        let path = dir.path().join(format!("{}.json", cp.id));
        save(&path, &g, SaveMode::New).unwrap();
        let back = load(&path).unwrap();
        let exported = export_scrapinghub([&back]);
        let body = exported[&cp.id]["articleBody"].as_str().unwrap();
        let f1 = word_prf(body, &gt.article_body).f1;
        hist[(stats.coverage * 10.0).floor().min(10.0) as usize] += 1;
        if stats.coverage >= 0.95 {
            full_cov += 1;
        }
        if gt.headline.is_some() {
            with_headline += 1;
            if stats.headline_f1.is_some_and(|f| f >= 0.5) {
                headline_found += 1;
            }
        }
        if f1 == 1.0 {
            exact += 1;
        } else {
            let reason = if stats.matched < stats.gold_words {
                // The gold words the export lacks (multiset difference), for the report.
                let mut have: std::collections::HashMap<String, usize> = Default::default();
                for w in words(body) {
                    *have.entry(w).or_default() += 1;
                }
                let missing: Vec<String> = words(&gt.article_body)
                    .into_iter()
                    .filter(|w| match have.get_mut(w) {
                        Some(n) if *n > 0 => {
                            *n -= 1;
                            false
                        }
                        _ => true,
                    })
                    .take(8)
                    .collect();
                format!(
                    "{} of {} gold words not in the page's content text in order (coverage {:.3}), e.g. {missing:?}",
                    stats.gold_words - stats.matched,
                    stats.gold_words,
                    stats.coverage
                )
            } else {
                "all words located but the rendering differs".to_string()
            };
            exceptions.push(format!("{}: F1 {f1:.4}: {reason}", cp.id));
        }
    }
    eprintln!("scrapinghub-dev: {n} pages imported");
    eprintln!("coverage >= 0.95: {full_cov} pages");
    eprintln!("export reproduces the articleBody word sequence (F1 = 1.0): {exact} pages");
    eprintln!("headline located: {headline_found} of {with_headline}");
    eprintln!("coverage histogram:");
    for (i, h) in hist.iter().enumerate() {
        let label = if i == 10 {
            "      1.0".to_string()
        } else {
            format!("[{:.1}, {:.1})", i as f64 / 10.0, (i + 1) as f64 / 10.0)
        };
        eprintln!("  {label} {h:4} {}", "#".repeat(*h));
    }
    eprintln!("exceptions ({}):", exceptions.len());
    for e in &exceptions {
        eprintln!("  {e}");
    }
    eprintln!(
        "import time: {:.2} ms per page on average, slowest {:.2} ms: {}",
        total.as_secs_f64() * 1000.0 / n as f64,
        slowest.0.as_secs_f64() * 1000.0,
        slowest.1
    );
    assert!(
        exact as f64 >= 0.85 * n as f64,
        "only {exact} of {n} pages reproduce their gold"
    );
}

// ---------------------------------------------------------------------------------------------
// Issue 8: one backup per session, size limit, BOM, full disk
// ---------------------------------------------------------------------------------------------

/// A session's first save over an existing file keeps it as `.bak`; its later saves (in any
/// mode) replace their own file without another backup; a file changed by someone else between
/// two saves is backed up again.
#[test]
fn a_session_keeps_one_backup() {
    use cescope::gold::SaveSession;
    let dir = tempfile::tempdir().unwrap();
    let p = page();
    let path = dir.path().join("bridge.json");
    let mut g = sample_gold(&p);
    save(&path, &g, SaveMode::New).unwrap();
    let original = std::fs::read(&path).unwrap();
    let bak = dir.path().join("bridge.json.bak");
    let mut session = SaveSession::new();
    for (i, mode) in [
        SaveMode::Backup,
        SaveMode::New,
        SaveMode::Backup,
        SaveMode::Backup,
    ]
    .into_iter()
    .enumerate()
    {
        g.notes = format!("save {i}");
        let out = session.save(&path, &g, mode).unwrap();
        assert_eq!(out.backup.is_some(), i == 0, "save {i}");
        assert!(out.replaced);
        assert_eq!(load(&path).unwrap().notes, format!("save {i}"));
    }
    assert_eq!(std::fs::read(&bak).unwrap(), original);
    // Someone else changes the file: the next save keeps their version as the backup.
    let mut theirs = sample_gold(&p);
    theirs.notes = "theirs".into();
    save(&path, &theirs, SaveMode::Overwrite).unwrap();
    let out = session.save(&path, &g, SaveMode::Backup).unwrap();
    assert_eq!(out.backup.as_deref(), Some(bak.as_path()));
    assert_eq!(load(&bak).unwrap().notes, "theirs");
    // ... and New refuses to replace it.
    save(&path, &theirs, SaveMode::Overwrite).unwrap();
    assert!(matches!(
        session.save(&path, &g, SaveMode::New),
        Err(GoldError::Exists { .. })
    ));
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn gold_files_have_a_size_limit_and_may_start_with_a_bom() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.json");
    let f = std::fs::File::create(&path).unwrap();
    f.set_len(gold::GOLD_FILE_LIMIT + 1).unwrap();
    drop(f);
    let err = load(&path).unwrap_err();
    assert!(
        matches!(err, GoldError::TooLarge { limit, .. } if limit == gold::GOLD_FILE_LIMIT),
        "{err}"
    );
    assert!(err.to_string().contains("64 MiB"), "{err}");
    // A BOM is skipped; UTF-16 is named.
    let p = page();
    let json = sample_gold(&p).to_json();
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(json.as_bytes());
    assert_eq!(gold::parse(&path, &bom).unwrap(), sample_gold_loaded(&json));
    let mut utf16 = b"\xFF\xFE".to_vec();
    utf16.extend(json.encode_utf16().flat_map(|u| u.to_le_bytes()));
    let err = gold::parse(&path, &utf16).unwrap_err();
    assert!(err.to_string().contains("UTF-16"), "{err}");
    // A directory or FIFO where a gold file is expected is refused (no blocking).
    let err = load(dir.path()).unwrap_err();
    assert!(err.to_string().contains("directory"), "{err}");
    // Top-level JSON that is not an object is another kind of file.
    std::fs::write(&path, "[1, 2]").unwrap();
    assert!(matches!(load(&path), Err(GoldError::Schema { .. })));
}

fn sample_gold_loaded(json: &str) -> Gold {
    gold::parse(Path::new("x.json"), json.as_bytes()).unwrap()
}

/// A full disk (injected after 4 096 bytes) during an export leaves the previous export
/// untouched and no temporary file behind.
#[test]
fn a_full_disk_during_export_keeps_the_old_export() {
    use cescope::fsio::write::WriteOptions;
    use cescope::gold::commands::{export, ExportFormat, ExportOptions};
    let dir = tempfile::tempdir().unwrap();
    let gold_dir = dir.path().join("gold");
    std::fs::create_dir(&gold_dir).unwrap();
    // Enough gold files that the export is larger than the fault point.
    for i in 0..20 {
        let page = Page::from_text(format!("p{i}.html"), PAGE);
        let mut g = sample_gold(&page);
        g.page = format!("p{i}.html");
        save(&gold_dir.join(format!("p{i}.json")), &g, SaveMode::New).unwrap();
    }
    for format in [ExportFormat::Scrapinghub, ExportFormat::Text] {
        let out = match format {
            ExportFormat::Scrapinghub => dir.path().join("sh.json"),
            ExportFormat::Text => dir.path().join("txt"),
        };
        let mut opts = ExportOptions {
            format,
            dir: gold_dir.clone(),
            out: Some(out.clone()),
            write: WriteOptions::default(),
        };
        let good = export(&opts).unwrap();
        assert_eq!(good.pages, 20);
        let before: Vec<Vec<u8>> = good
            .written
            .iter()
            .map(|p| std::fs::read(p).unwrap())
            .collect();
        // Now the disk fills up: after 4 096 bytes (scrapinghub) or 100 bytes (each text file).
        opts.write.fail_after = Some(if format == ExportFormat::Text {
            100
        } else {
            4096
        });
        let err = export(&opts).unwrap_err().to_string();
        assert!(err.contains("No space left on device"), "{err}");
        assert_eq!(err.matches("No space left").count(), 1, "{err}");
        for (p, b) in good.written.iter().zip(&before) {
            assert_eq!(&std::fs::read(p).unwrap(), b, "{} changed", p.display());
        }
        let folder = if format == ExportFormat::Text {
            out
        } else {
            dir.path().to_path_buf()
        };
        for e in std::fs::read_dir(folder).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            assert!(!name.ends_with(".tmp"), "{name} left behind");
        }
    }
}
