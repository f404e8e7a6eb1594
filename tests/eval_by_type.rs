//! `eval --by type`: pages grouped by the gold's `page_type` (as WCXB labels it), on a corpus
//! written here. With `plain` (all text of the page) every figure follows by hand:
//! * `a` (article): page "one two three four", gold the same → F1 1;
//! * `b` (article): page "alpha beta", gold "alpha beta gamma delta" → P 1, R 1/2, F1 2/3;
//! * `c` (forum): page "red green", gold the same → F1 1;
//! * `d` (no type): page "x y", gold "q" → F1 0.
//!
//! So: article 2 pages, mean F1 (1 + 2/3) / 2 = 5/6 = 0.833; forum 1 page, 1.000; `(none)` 1
//! page, 0.000.

use std::process::Command;

use cescope::eval::report::{self, Format, TableBy};
use cescope::eval::run::{self, GroupBy, Metric, NO_PAGE_TYPE};

fn corpus(with_types: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("html");
    std::fs::create_dir(&html).unwrap();
    let pages = [
        (
            "a",
            "one two three four",
            "one two three four",
            Some("article"),
        ),
        ("b", "alpha beta", "alpha beta gamma delta", Some("article")),
        ("c", "red green", "red green", Some("forum")),
        ("d", "x y", "q", None),
    ];
    let mut gt = serde_json::Map::new();
    for (id, text, gold, ty) in pages {
        std::fs::write(
            html.join(format!("{id}.html")),
            format!("<html><body><p>{text}</p></body></html>"),
        )
        .unwrap();
        let mut g = serde_json::json!({ "articleBody": gold });
        if let (Some(t), true) = (ty, with_types) {
            g["page_type"] = t.into();
        }
        gt.insert(id.into(), g);
    }
    std::fs::write(
        dir.path().join("ground-truth.json"),
        serde_json::Value::Object(gt).to_string(),
    )
    .unwrap();
    dir
}

fn report(dir: &std::path::Path) -> run::Report {
    let (pages, _) = run::gather(&[dir.to_path_buf()]).unwrap();
    let algos = run::configure(cescope::extractors::resolve("plain").unwrap(), &[]).unwrap();
    run::evaluate(&pages, &algos, Metric::Word, false)
}

#[test]
fn groups_by_page_type_with_a_none_group() {
    let dir = corpus(true);
    let rep = report(dir.path());
    let groups = rep.summarize(GroupBy::Type);
    let got: Vec<(String, usize, f64)> = groups
        .iter()
        .map(|g| {
            assert_eq!(g.site, None);
            (
                g.page_type.clone().unwrap(),
                g.summaries[0].pages,
                g.summaries[0].f1,
            )
        })
        .collect();
    let expect = [
        (NO_PAGE_TYPE.to_string(), 1, 0.0),
        ("article".to_string(), 2, 5.0 / 6.0),
        ("forum".to_string(), 1, 1.0),
    ];
    assert_eq!(got.len(), expect.len(), "{got:?}");
    for (g, e) in got.iter().zip(&expect) {
        assert_eq!((&g.0, g.1), (&e.0, e.1));
        assert!((g.2 - e.2).abs() < 1e-12, "{g:?} vs {e:?}");
    }
    let table = report::table(&rep, TableBy::Type, false);
    assert!(table.contains("type"), "{table}");
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("article") && l.contains("2") && l.ends_with("0.833 (0)")),
        "{table}"
    );
    let json = report::to_json(&rep);
    assert_eq!(json["by_type"].as_array().unwrap().len(), 3);
    assert_eq!(json["pages"][0]["page_type"], "article");
}

#[test]
fn without_page_types_everything_is_none_and_json_has_no_by_type() {
    let dir = corpus(false);
    let rep = report(dir.path());
    let groups = rep.summarize(GroupBy::Type);
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].page_type.as_deref(), Some(NO_PAGE_TYPE));
    assert_eq!(groups[0].summaries[0].pages, 4);
    let json = report::to_json(&rep);
    assert!(json.get("by_type").is_none());
    assert!(json["pages"][0].get("page_type").is_none());
}

#[test]
fn options_parse_from_their_names_only() {
    for (i, n) in TableBy::NAMES.iter().enumerate() {
        let by: TableBy = n.parse().unwrap();
        assert_eq!(by.name(), *n);
        assert_eq!(TableBy::NAMES[i], by.name());
    }
    for n in Format::NAMES {
        assert_eq!(n.parse::<Format>().unwrap().name(), *n);
    }
    assert_eq!("TYPE".parse::<TableBy>().unwrap(), TableBy::Type);
    let e = "host".parse::<TableBy>().unwrap_err().to_string();
    assert!(e.contains("corpus, site, page, type"), "{e}");
    assert!("xml".parse::<Format>().is_err());
}

#[test]
fn cli_by_type() {
    let dir = corpus(true);
    let eval = |by: &str| {
        Command::new(env!("CARGO_BIN_EXE_cescope"))
            .args(["eval", "--algo", "plain", "--by", by])
            .arg(dir.path())
            .output()
            .unwrap()
    };
    let out = eval("type");
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = stdout.lines().skip(2).collect();
    assert_eq!(rows.len(), 3, "{stdout}");
    assert!(rows[0].starts_with("(none)") && rows[0].ends_with("0.000 (0)"));
    assert!(rows[2].starts_with("forum") && rows[2].ends_with("1.000 (0)"));
    let bad = eval("host");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("type"));
}
