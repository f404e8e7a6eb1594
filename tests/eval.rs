//! `cescope eval` and the evaluation library (`eval::run`, `eval::report`) on a small corpus
//! written here, with every expected figure worked out by hand.
//!
//! The corpus (`ground-truth.json` + `html/`):
//! * `a`: a menu, three paragraphs (17 + 14 + 13 = 44 tokens) and a footer of links; the gold is
//!   the three paragraphs, which DANAg extracts exactly → P = R = F1 = 1. Site `www.example.com`.
//! * `b`: no main content (only a script); gold empty; DANAg's extract is empty → F1 = 1
//!   (`REFERENCE.md`: empty gold and empty extract = 1). No URL → site `unknown`. A JavaScript
//!   shell (a script, no text outside it and the title: `cescope::page::shell`), so the
//!   summaries are also given without it: DANAg (1 + 12/13) / 2 = 25/26 = 0.962, R2L 0.
//! * `c`: a menu and two paragraphs (30 tokens); the gold adds a sentence of 5 tokens that is not on
//!   the page → P = 30/30, R = 30/35 = 6/7, F1 = 60/65 = 12/13. Site `www.example.com`.
//!
//! DANAg: mean F1 = (1 + 1 + 12/13) / 3 = 38/39 = 0.974, one empty extract (b); mean R =
//! (1 + 1 + 6/7) / 3 = 20/21 = 0.952. R2L (counts right-to-left characters; none here): every
//! extract empty → F1 0, 1, 0 → mean 1/3, three empty extracts.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cescope::algorithms;
use cescope::corpus::GoldText;
use cescope::eval::report::{self, TableBy};
use cescope::eval::run::{self, GroupBy, Metric};

const PAGE_A: &str = r#"<html><head><title>Bridge</title></head><body>
<ul><li><a href="/home">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul>
<div>
<p>The council approved the new bridge on Tuesday after a long debate about its cost and design.</p>
<p>Work starts in spring and should take two years, officials said on Wednesday morning.</p>
<p>Residents welcomed the decision, although some worried about traffic during the construction works.</p>
</div>
<div><a href="/about">About</a> <a href="/contact">Contact</a></div>
</body></html>"#;

const GOLD_A: &str = "The council approved the new bridge on Tuesday after a long debate about its cost and design.\nWork starts in spring and should take two years, officials said on Wednesday morning.\nResidents welcomed the decision, although some worried about traffic during the construction works.";

const PAGE_B: &str =
    "<html><head><title></title><script>var x = 1;</script></head><body>\n</body></html>";

const PAGE_C: &str = r#"<html><head><title>Harbour</title></head><body>
<ul><li><a href="/home">Home</a></li><li><a href="/news">News</a></li></ul>
<div>
<p>The harbour reopened to fishing boats this week after three months of dredging and repairs.</p>
<p>Fishermen said the catch was good and prices at the market were already falling again.</p>
</div>
</body></html>"#;

const GOLD_C: &str = "The harbour reopened to fishing boats this week after three months of dredging and repairs. Fishermen said the catch was good and prices at the market were already falling again. The mayor visited on Friday.";

const EPS: f64 = 1e-12;

/// Writes the three-page corpus into a fresh temporary directory.
fn corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("html");
    std::fs::create_dir(&html).unwrap();
    std::fs::write(html.join("a.html"), PAGE_A).unwrap();
    std::fs::write(html.join("b.html"), PAGE_B).unwrap();
    std::fs::write(html.join("c.html"), PAGE_C).unwrap();
    let gt = serde_json::json!({
        "a": {"articleBody": GOLD_A, "headline": "Bridge", "url": "https://www.example.com/news/bridge"},
        "b": {"articleBody": "", "url": null},
        "c": {"articleBody": GOLD_C, "url": "http://WWW.Example.com:8080/harbour?x=1"},
    });
    std::fs::write(
        dir.path().join("ground-truth.json"),
        serde_json::to_string(&gt).unwrap(),
    )
    .unwrap();
    dir
}

fn cescope() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cescope"))
}

fn eval(args: &[&str], corpora: &[&Path]) -> Output {
    cescope()
        .arg("eval")
        .args(corpora)
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn ok(o: Output) -> Output {
    assert!(o.status.success(), "failed: {}", stderr(&o));
    o
}

fn corpus_name(dir: &Path) -> String {
    dir.canonicalize()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

// --- library ----------------------------------------------------------------------------------

#[test]
fn library_numbers_by_hand() {
    let dir = corpus();
    let (pages, notes) = run::gather(&[dir.path().to_path_buf()]).unwrap();
    assert!(notes.is_empty());
    assert_eq!(
        pages.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
        ["a", "b", "c"]
    );
    assert_eq!(pages[0].site, "www.example.com");
    assert_eq!(pages[1].site, "unknown");
    assert_eq!(pages[2].site, "www.example.com");
    assert_eq!(pages[0].corpus, corpus_name(dir.path()));

    let algos = run::configure(algorithms::resolve("danag,r2l").unwrap(), &[]).unwrap();
    let rep = run::evaluate(&pages, &algos, Metric::Word, false);
    assert_eq!(rep.algos[0].name, "danag");
    assert_eq!(
        rep.algos[0].params.get("gap"),
        Some(&algorithms::ParamValue::Int(20))
    );
    let d = &rep.algos[0].results;
    assert_eq!((d[0].prf.f1, d[0].empty), (1.0, false));
    assert_eq!((d[1].prf.f1, d[1].empty), (1.0, true));
    assert_eq!(
        (d[2].prf.common, d[2].prf.extract_len, d[2].prf.gold_len),
        (30, 30, 35)
    );
    assert_eq!(d[2].prf.precision, 1.0);
    assert!((d[2].prf.recall - 6.0 / 7.0).abs() < EPS);
    assert!((d[2].prf.f1 - 12.0 / 13.0).abs() < EPS);
    let all = rep.overall(0);
    assert!((all.f1 - 38.0 / 39.0).abs() < EPS);
    assert!((all.recall - 20.0 / 21.0).abs() < EPS);
    assert_eq!((all.precision, all.pages, all.empty), (1.0, 3, 1));
    let r2l = rep.overall(1);
    assert!((r2l.f1 - 1.0 / 3.0).abs() < EPS);
    assert_eq!(r2l.empty, 3);

    let sites = rep.summarize(GroupBy::Site);
    assert_eq!(sites.len(), 2);
    assert_eq!(sites[0].site.as_deref(), Some("unknown"));
    assert_eq!(sites[0].summaries[0].pages, 1);
    assert_eq!(sites[0].summaries[0].f1, 1.0);
    assert_eq!(sites[1].site.as_deref(), Some("www.example.com"));
    assert!((sites[1].summaries[0].f1 - 25.0 / 26.0).abs() < EPS);
    assert_eq!(sites[1].summaries[1].f1, 0.0);

    // The character measures: page a is extracted exactly, so it scores 1 under both.
    for m in [Metric::LcSequence, Metric::LcString] {
        let rep = run::evaluate(&pages[..1], &algos[..1], m, false);
        assert_eq!(rep.algos[0].results[0].prf.f1, 1.0, "{m:?}");
        assert_eq!(rep.metric.unit(), "chars");
    }
}

#[test]
fn pluggable_gold_source_and_unloadable_pages() {
    // A plain directory of pages has no gold: everything is skipped, with a note.
    let dir = corpus();
    let html: PathBuf = dir.path().join("html");
    let (pages, notes) = run::gather(std::slice::from_ref(&html)).unwrap();
    assert!(pages.is_empty());
    assert_eq!(notes.len(), 1);
    assert!(notes[0].contains("skipped 3 of 3"), "{}", notes[0]);

    // Another gold source supplies gold for one page of it.
    let source = |_: &cescope::corpus::Corpus, p: &cescope::corpus::CorpusPage| {
        (p.id == "a").then(|| GoldText {
            article_body: GOLD_A.into(),
            ..Default::default()
        })
    };
    let (pages, notes) = run::gather_with(&[html], &source).unwrap();
    assert_eq!(pages.len(), 1);
    assert!(notes[0].contains("skipped 2 of 3 pages") && notes[0].contains("b, c"));
    let algos = run::configure(algorithms::resolve("danag").unwrap(), &[]).unwrap();
    let rep = run::evaluate(&pages, &algos, Metric::Word, false);
    assert_eq!(rep.overall(0).f1, 1.0);

    // A page that cannot be loaded counts as an empty extract and carries its error.
    let mut broken = pages[0].clone();
    broken.path = dir.path().join("html/missing.html");
    let rep = run::evaluate(&[broken], &algos, Metric::Word, false);
    assert!(rep.pages[0].error.is_some());
    assert_eq!(rep.algos[0].results[0].prf.f1, 0.0);
    assert!(rep.algos[0].results[0].empty);
}

#[test]
fn report_formats_from_the_library() {
    let dir = corpus();
    let (pages, _) = run::gather(&[dir.path().to_path_buf()]).unwrap();
    let algos = run::configure(algorithms::resolve("danag,r2l").unwrap(), &[]).unwrap();
    let rep = run::evaluate(&pages, &algos, Metric::Word, false);
    let t = report::table(&rep, TableBy::Corpus, false);
    assert!(t.contains("0.974 (1)") && t.contains("0.333 (3)"), "{t}");
    let csv = report::csv(&rep);
    assert_eq!(csv.lines().count(), 1 + 2 * 3);
    let out = tempfile::tempdir().unwrap();
    let written = report::write_dir(&rep, &out.path().join("r"), Some((1, 0))).unwrap();
    if !report::PLOTS {
        // Built without the `plots` feature: report.json only.
        assert_eq!(written, [out.path().join("r/report.json")]);
        return;
    }
    assert_eq!(written.len(), 3);
    let scatter = std::fs::read_to_string(out.path().join("r/f1-scatter.svg")).unwrap();
    // r2l vs danag: danag better on a and c, tie on b.
    assert!(
        scatter.contains("x = r2l, y = danag; r2l better on 0, danag better on 2, tie 1"),
        "{scatter}"
    );
    // The pages where they differ most are labelled (ids a and c; b is a tie).
    let r2l = rep.f1s(1);
    let danag = rep.f1s(0);
    let out = report::outliers(&r2l, &danag, 12, report::OUTLIER_GAP);
    assert!(!out.is_empty());
    for &i in &out {
        assert!((r2l[i] - danag[i]).abs() >= report::OUTLIER_GAP);
        assert!(
            scatter.contains(&rep.pages[i].id),
            "label of {}",
            rep.pages[i].id
        );
    }
}

#[test]
fn outliers_are_the_largest_differences() {
    let x = [0.1, 0.9, 0.5, 0.0, 0.6];
    let y = [0.9, 0.9, 0.0, 0.2, 0.2];
    // |x − y| = 0.8, 0, 0.5, 0.2, 0.4.
    assert_eq!(report::outliers(&x, &y, 10, 0.3), vec![0, 2, 4]);
    assert_eq!(report::outliers(&x, &y, 2, 0.3), vec![0, 2]);
    assert!(report::outliers(&x, &y, 10, 0.9).is_empty());
}

// --- command line -------------------------------------------------------------------------------

#[test]
fn table_by_corpus_with_numbers_by_hand() {
    let dir = corpus();
    let o = ok(eval(&["--algo", "danag,r2l"], &[dir.path()]));
    let out = stdout(&o);
    let name = corpus_name(dir.path());
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].contains("word-sequence LCS"), "{out}");
    assert!(lines[1].starts_with("algo") && lines[1].contains(&format!("{name} (3)")));
    assert!(
        lines[2].starts_with("danag") && lines[2].ends_with("0.974 (1)"),
        "{out}"
    );
    assert!(
        lines[3].starts_with("r2l") && lines[3].ends_with("0.333 (3)"),
        "{out}"
    );
    // Page b is a JavaScript shell: the means without it follow.
    assert_eq!(lines[4], "");
    assert!(
        lines[5].starts_with("JavaScript shells") && lines[5].contains("1 of 3 pages"),
        "{out}"
    );
    assert!(lines[6].starts_with("algo") && lines[6].contains(&format!("{name} (2)")));
    assert!(
        lines[7].starts_with("danag") && lines[7].ends_with("0.962 (0)"),
        "{out}"
    );
    assert!(
        lines[8].starts_with("r2l") && lines[8].ends_with("0.000 (2)"),
        "{out}"
    );
    assert_eq!(lines.len(), 9);
    // Timing on standard error.
    assert!(stderr(&o).contains("s wall"), "{}", stderr(&o));

    let o = ok(eval(&["--algo", "danag", "--prf"], &[dir.path()]));
    assert!(
        stdout(&o).contains("1.000 / 0.952 / 0.974 (1)"),
        "{}",
        stdout(&o)
    );

    // Two corpora: one column each (the second occurrence of a name gets "#2").
    let o = ok(eval(&["--algo", "danag"], &[dir.path(), dir.path()]));
    let out = stdout(&o);
    assert!(out.contains(&format!("{name} (3)")) && out.contains(&format!("{name}#2 (3)")));
    assert_eq!(out.matches("0.974 (1)").count(), 2, "{out}");
}

#[test]
fn table_by_site_and_by_page() {
    let dir = corpus();
    let o = ok(eval(
        &["--algo", "danag,r2l", "--by", "site"],
        &[dir.path()],
    ));
    let out = stdout(&o);
    let row = |site: &str| {
        out.lines()
            .find(|l| l.starts_with(site))
            .unwrap_or_else(|| panic!("no row {site} in {out}"))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    assert_eq!(
        row("www.example.com"),
        ["www.example.com", "2", "0.962", "(0)", "0.000", "(2)"]
    );
    assert_eq!(
        row("unknown"),
        ["unknown", "1", "1.000", "(1)", "1.000", "(1)"]
    );
    assert_eq!(
        out.lines().count(),
        4 + 5,
        "with the means without the shell: {out}"
    );

    let o = ok(eval(&["--algo", "danag", "--by", "page"], &[dir.path()]));
    let out = stdout(&o);
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows,
        [
            vec!["danag", "a", "1.000", "1.000", "1.000", "44", "44"],
            vec!["danag", "b", "1.000", "1.000", "1.000", "0", "0", "yes"],
            vec!["danag", "c", "1.000", "0.857", "0.923", "30", "35"],
        ],
        "{out}"
    );
    assert!(
        out.lines().nth(1).unwrap().ends_with("gold  js shell"),
        "{out}"
    );
}

#[test]
fn json_and_csv_shapes() {
    let dir = corpus();
    let o = ok(eval(
        &["--algo", "danag,r2l", "--format", "json", "--set", "gap=7"],
        &[dir.path()],
    ));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["metric"], "word");
    assert_eq!(v["unit"], "tokens");
    assert_eq!(v["corpora"][0]["name"], corpus_name(dir.path()).as_str());
    assert_eq!(v["corpora"][0]["pages"], 3);
    assert!(v["wall_seconds"].as_f64().unwrap() >= 0.0);
    let algos = v["algos"].as_array().unwrap();
    assert_eq!(algos.len(), 2);
    assert_eq!(algos[0]["name"], "danag");
    assert_eq!(algos[0]["params"]["gap"], 7);
    assert_eq!(algos[1]["params"]["gap"], 7);
    assert_eq!(algos[0]["params"]["smoothing"], "three-line");
    assert!((algos[0]["overall"]["f1"].as_f64().unwrap() - 38.0 / 39.0).abs() < EPS);
    assert_eq!(algos[0]["overall"]["empty"], 1);
    assert_eq!(algos[0]["by_corpus"][0]["pages"], 3);
    // Without the JavaScript shell (page b).
    assert_eq!(v["js_shells"], 1);
    let without = &algos[0]["overall_without_js_shells"];
    assert_eq!(without["pages"], 2);
    assert!((without["f1"].as_f64().unwrap() - 25.0 / 26.0).abs() < EPS);
    assert_eq!(algos[0]["by_corpus"][0]["without_js_shells"]["pages"], 2);
    assert_eq!(algos[1]["overall_without_js_shells"]["f1"], 0.0);
    assert_eq!(v["by_site"].as_array().unwrap().len(), 2);
    let pages = v["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 3);
    assert_eq!(pages[2]["id"], "c");
    assert_eq!(pages[2]["site"], "www.example.com");
    let rc = &pages[2]["results"][0];
    assert_eq!(rc["algo"], "danag");
    assert_eq!(
        (&rc["common"], &rc["extract_len"], &rc["gold_len"]),
        (&30.into(), &30.into(), &35.into())
    );
    assert_eq!(rc["precision"], 1.0);
    assert!((rc["f1"].as_f64().unwrap() - 12.0 / 13.0).abs() < EPS);
    assert!(rc["run_ms"].as_f64().unwrap() >= 0.0);
    assert_eq!(pages[1]["results"][1]["empty"], true);
    assert_eq!(pages[1]["js_shell"], true);
    assert_eq!(pages[0]["js_shell"], false);

    // CSV: one line per (corpus, algorithm, page), corpora first.
    let o = ok(eval(
        &["--algo", "danag,r2l", "--format", "csv"],
        &[dir.path(), dir.path()],
    ));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "corpus,algo,page,site,precision,recall,f1,common,extract_len,gold_len,empty,run_ms,error,js_shell"
    );
    assert_eq!(lines.len(), 1 + 2 * 2 * 3);
    let name = corpus_name(dir.path());
    let key: Vec<(String, String, String)> = lines[1..]
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 14, "{l}");
            (f[0].into(), f[1].into(), f[2].into())
        })
        .collect();
    assert_eq!(key[0], (name.clone(), "danag".into(), "a".into()));
    assert_eq!(key[3], (name.clone(), "r2l".into(), "a".into()));
    assert_eq!(key[6], (format!("{name}#2"), "danag".into(), "a".into()));
    let c = lines[3].split(',').collect::<Vec<_>>();
    assert_eq!(&c[7..11], ["30", "30", "35", "false"]);
    assert_eq!(c[13], "false");
    assert_eq!(
        lines[2].split(',').nth(13),
        Some("true"),
        "page b is a shell"
    );
}

#[test]
#[cfg(feature = "plots")]
fn report_dir_writes_svg_plots_and_json() {
    let dir = corpus();
    let out = tempfile::tempdir().unwrap();
    let rdir = out.path().join("report");
    let o = ok(eval(
        &[
            "--algo",
            "danag,addanag,r2l",
            "--report",
            rdir.to_str().unwrap(),
        ],
        &[dir.path()],
    ));
    let hist = std::fs::read_to_string(rdir.join("f1-histogram.svg")).unwrap();
    let scatter = std::fs::read_to_string(rdir.join("f1-scatter.svg")).unwrap();
    for svg in [&hist, &scatter] {
        assert!(svg.trim_start().starts_with("<svg"), "{svg}");
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
    }
    // One panel per algorithm and corpus, captioned with the table's per-corpus mean.
    let table = stdout(&o);
    for name in ["danag", "addanag", "r2l"] {
        let row = table
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} row in {table}"));
        let mean = row.split_whitespace().nth(1).unwrap();
        assert!(
            hist.contains(&format!("mean {mean},")),
            "{name}: mean {mean} in the histogram captions"
        );
    }
    // Default scatter: the first two selected algorithms.
    assert!(scatter.contains("x = danag, y = addanag"));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(rdir.join("report.json")).unwrap()).unwrap();
    assert_eq!(v["algos"].as_array().unwrap().len(), 3);
    assert!(stderr(&o).contains("f1-scatter.svg"));

    let o = ok(eval(
        &[
            "--algo",
            "danag,addanag,r2l",
            "--report",
            rdir.to_str().unwrap(),
            "--scatter",
            "r2l,danag",
        ],
        &[dir.path()],
    ));
    let scatter = std::fs::read_to_string(rdir.join("f1-scatter.svg")).unwrap();
    assert!(scatter.contains("x = r2l, y = danag"));
    assert!(stdout(&o).contains("danag"));

    // A scatter algorithm that was not evaluated: input error; without --report: usage error.
    let o = eval(
        &[
            "--algo",
            "danag,r2l",
            "--report",
            rdir.to_str().unwrap(),
            "--scatter",
            "danag,addanag",
        ],
        &[dir.path()],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("addanag"));
    let o = eval(&["--scatter", "danag,r2l"], &[dir.path()]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn set_applies_where_it_fits_and_errors_otherwise() {
    let dir = corpus();
    // `filter` belongs to addanag only: fine with it selected, an error without.
    let o = ok(eval(
        &[
            "--algo",
            "danag,addanag",
            "--set",
            "filter=filter1",
            "--format",
            "json",
        ],
        &[dir.path()],
    ));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["algos"][1]["params"]["filter"], "filter1");
    assert!(v["algos"][0]["params"].get("filter").is_none());
    let o = eval(
        &["--algo", "danag", "--set", "filter=filter1"],
        &[dir.path()],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("filter"), "{}", stderr(&o));
    for bad in ["nope=1", "gap=x", "gap=-1", "gap"] {
        let o = eval(&["--set", bad], &[dir.path()]);
        assert_eq!(o.status.code(), Some(1), "--set {bad}");
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    }
}

#[test]
fn exit_codes_and_notes() {
    let dir = corpus();
    let o = eval(&["--metric", "bleu"], &[dir.path()]);
    assert_eq!(o.status.code(), Some(2));
    let o = eval(&["--format", "xml"], &[dir.path()]);
    assert_eq!(o.status.code(), Some(2));
    let o = eval(&["--threads", "0"], &[dir.path()]);
    assert_eq!(o.status.code(), Some(2));
    let o = cescope().arg("eval").output().unwrap();
    assert_eq!(o.status.code(), Some(2));

    let o = eval(&[], &[&dir.path().join("missing")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("missing"));
    let o = eval(&["--algo", "bogus"], &[dir.path()]);
    assert_eq!(o.status.code(), Some(1));

    // A directory of pages without gold: skipped with a note; nothing left is an input error.
    let html = dir.path().join("html");
    let o = eval(&[], &[&html]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("skipped 3 of 3"), "{}", stderr(&o));
    let o = ok(eval(
        &["--algo", "danag", "--threads", "1"],
        &[&html, dir.path()],
    ));
    assert!(
        stderr(&o).contains("note: html: skipped 3 of 3"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("0.974 (1)"));
    assert!(!stdout(&o).contains("html"));

    // The character measures run from the command line too.
    for m in ["lcsequence", "lcstring"] {
        let o = ok(eval(&["--algo", "danag", "--metric", m], &[dir.path()]));
        assert!(stdout(&o).contains("Arias Moreno"), "{}", stdout(&o));
    }
}

/// cescope's DANAg scores 0.866 on scrapinghub-dev (docs/accuracy.md).
#[test]
#[ignore = "needs ../shared/corpus"]
fn danag_on_scrapinghub_dev() {
    let c = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/scrapinghub-dev");
    let (pages, notes) = run::gather(&[c]).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(pages.len(), 98);
    let algos = run::configure(algorithms::resolve("danag").unwrap(), &[]).unwrap();
    let rep = run::evaluate(&pages, &algos, Metric::Word, false);
    let s = rep.overall(0);
    eprintln!(
        "danag on scrapinghub-dev: F1 {:.3}, {} empty, {:.2} s",
        s.f1, s.empty, rep.wall_seconds
    );
    assert!(s.f1 >= 0.85, "DANAg F1 {}", s.f1);
    assert!(rep.pages.iter().all(|p| p.error.is_none()));
}

/// A plain directory of pages whose gold standards are cescope gold files in a sibling `gold/`
/// that the folder's `cescope.toml` names (as `sample-pages/` does).
#[test]
fn directory_with_cescope_gold_files() {
    let root = tempfile::tempdir().unwrap();
    let pages = root.path().join("pages");
    std::fs::create_dir(&pages).unwrap();
    std::fs::create_dir(root.path().join("gold")).unwrap();
    std::fs::write(pages.join("cescope.toml"), "gold_dir = \"../gold\"\n").unwrap();
    let nav: String = (0..20)
        .map(|i| format!("<li><a href=\"/s/{i}/index.html\">Section {i}</a></li>\n"))
        .collect();
    let html = format!(
        "<html><body><ul>{nav}</ul><div><p>The museum reopened its east wing on Saturday after a two-year renovation of the roof and galleries.</p><p>Visitors queued along the river before the doors opened at nine.</p></div><ul>{nav}</ul></body></html>"
    );
    let path = pages.join("museum.html");
    std::fs::write(&path, &html).unwrap();
    let page = cescope::page::Page::load(&path, &Default::default()).unwrap();
    // Gold: the two paragraphs, as byte ranges.
    let a = html.find("The museum").unwrap();
    let b = html.find("nine.").unwrap() + "nine.".len();
    let mut g = cescope::gold::Gold::new(&page, "t");
    g.set_main_content(&page, cescope::selection::Selection::from_range(a..b));
    let gold_path = cescope::gold::gold_path_for(&path, None);
    assert_eq!(gold_path, root.path().join("gold/museum.json"));
    // A new gold file is a draft: not scored until reviewed (or with --drafts).
    cescope::gold::save(&gold_path, &g, cescope::gold::SaveMode::New).unwrap();
    let o = eval(&["--algo", "danag"], &[&pages]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("still a draft"), "{}", stderr(&o));
    let table = stdout(&ok(eval(&["--algo", "danag", "--drafts"], &[&pages])));
    assert!(table.contains("1.000 (0)"), "{table}");
    // Saved as final (what the annotator's save does), it is gold.
    g.draft = false;
    cescope::gold::save(&gold_path, &g, cescope::gold::SaveMode::Overwrite).unwrap();
    let o = ok(eval(&["--algo", "danag", "--format", "json"], &[&pages]));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let text = v.to_string();
    assert!(text.contains("museum"), "{text}");
    let table = stdout(&ok(eval(&["--algo", "danag"], &[&pages])));
    assert!(
        table.contains("1.000 (0)"),
        "DANAg finds exactly the gold: {table}"
    );
}
