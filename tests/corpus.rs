//! Checks on the real pages of `../shared/corpus` (run by CI with `cargo test -- --ignored`).

use std::path::{Path, PathBuf};

use cescope::extractors::registry;

use cescope::corpus;
use cescope::eval::run::{self, GroupBy, Metric};
use cescope::extract::Params;
use cescope::page::{DecodeOptions, Page};

fn corpus_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(name)
}

/// Mean word-LCS F1 of every algorithm over a corpus, with the number of empty extracts, from
/// the evaluation library (the numbers `cescope eval` prints).
fn scores(name: &str) -> Vec<(String, f64, usize)> {
    let (pages, _) = run::gather(&[corpus_dir(name)]).expect("corpus opens");
    let algos = run::configure(registry().to_vec(), &[]).unwrap();
    let report = run::evaluate(&pages, &algos, Metric::Word, false);
    let groups = report.summarize(GroupBy::Corpus);
    assert_eq!(groups.len(), 1);
    algos
        .iter()
        .zip(&groups[0].summaries)
        .map(|((e, _), s)| (e.name().to_string(), s.f1, s.empty))
        .collect()
}

fn report(name: &str) -> Vec<(String, f64, usize)> {
    let s = scores(name);
    for (algo, f1, empty) in &s {
        eprintln!("{name:16} {algo:8} F1 {f1:.3} (empty extracts: {empty})");
    }
    s
}

#[test]
#[ignore = "needs ../shared/corpus"]
fn every_page_extracts_with_every_algorithm() {
    for name in ["scrapinghub-dev", "readability"] {
        let c = corpus::open(&corpus_dir(name)).unwrap();
        assert!(c.pages.len() > 90);
        for p in &c.pages {
            let page = Page::load(&p.path, &DecodeOptions::default()).unwrap();
            for e in registry() {
                let x = e.run(&page, &Params::defaults(e.params()));
                let _ = page.render(&x.selection);
            }
        }
    }
}

#[test]
#[ignore = "needs ../shared/corpus"]
fn danag_family_is_faithful_on_scrapinghub_dev() {
    let s = report("scrapinghub-dev");
    let f1 = |n: &str| s.iter().find(|r| r.0 == n).unwrap().1;
    assert!(f1("danag") >= 0.85, "DANAg F1 {}", f1("danag"));
    assert!(f1("addanag") >= 0.85, "AdDANAg F1 {}", f1("addanag"));
}

#[test]
#[ignore = "needs ../shared/corpus"]
fn danag_family_on_readability() {
    let s = report("readability");
    let f1 = |n: &str| s.iter().find(|r| r.0 == n).unwrap().1;
    assert!(f1("danag") >= 0.65, "DANAg F1 {}", f1("danag"));
    assert!(f1("addanag") >= 0.65, "AdDANAg F1 {}", f1("addanag"));
}
