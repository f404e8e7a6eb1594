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

/// Mean word-LCS F1 of the DANA family (`danag`, `addanag`: the two algorithms the floors below
/// check) over a corpus, with the number of empty extracts, from the evaluation library (the
/// numbers `cescope eval --algo danag,addanag` prints). Only those two: scoring every registered
/// algorithm here took 22 s and 45 s of CI's release pass for two numbers, and
/// `every_page_extracts_with_every_algorithm` already runs every algorithm on these pages.
fn scores(name: &str) -> Vec<(String, f64, usize)> {
    let (pages, _) = run::gather(&[corpus_dir(name)]).expect("corpus opens");
    let family = cescope::extractors::resolve("danag,addanag").unwrap();
    let algos = run::configure(family, &[]).unwrap();
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

/// Issue 30: on real blog pages with comment threads (scrapinghub-dev: GiveWell's open thread,
/// MacRumors), `--guideline with-comments` keeps the comment section and `--guideline article`
/// drops it, with the shipped `learned` model; the article's own first words stay in both.
#[test]
#[ignore = "needs ../shared/corpus"]
fn guidelines_keep_or_drop_real_comment_sections() {
    use cescope::guideline::{guided, page_units, Guideline};
    use cescope::page::units::UnitKind;
    use std::sync::Arc;
    let dir = corpus_dir("scrapinghub-dev");
    let c = corpus::open(&dir).unwrap();
    let learned = cescope::extractors::learned().unwrap();
    let run = |page: &Page, g: &str| {
        let e = guided(
            Arc::clone(&learned),
            Some(&Arc::new(Guideline::preset(g).unwrap())),
        );
        e.run(page, &Params::defaults(e.params())).selection
    };
    for prefix in ["ac3c0355", "232a43fb"] {
        let p = c.pages.iter().find(|p| p.id.starts_with(prefix)).unwrap();
        let page = Page::load(&p.path, &DecodeOptions::default()).unwrap();
        let units = page_units(&page);
        let comments = units
            .of_kind(UnitKind::Comments)
            .fold(cescope::selection::Selection::new(), |s, u| {
                s.union(&units.selection(page.blocks(), u))
            });
        let words =
            |s: &cescope::selection::Selection| cescope::metrics::words(&page.render(s)).len();
        assert!(
            words(&comments) > 200,
            "{prefix}: {} comment words",
            words(&comments)
        );
        let with = run(&page, "with-comments");
        let article = run(&page, "article");
        // with-comments: most of the comment section's words; article: none of them.
        let kept = words(&with.intersection(&comments));
        assert!(
            kept * 10 >= words(&comments) * 8,
            "{prefix}: with-comments keeps {kept} of {} comment words",
            words(&comments)
        );
        assert_eq!(words(&article.intersection(&comments)), 0, "{prefix}");
        // The article's first words (from the corpus gold) are in both.
        let gold = p.gold.as_ref().unwrap();
        let first: Vec<String> = cescope::metrics::words(&gold.article_body)
            .into_iter()
            .take(6)
            .collect();
        for sel in [&with, &article] {
            let text = cescope::metrics::words(&page.render(sel)).join(" ");
            assert!(text.contains(&first.join(" ")), "{prefix}: {first:?}");
        }
    }
    // An article cut into 50 same-class sections inside its wrapper (`div.article__block`) is
    // no thread: `article` (posts: first) keeps all of it, not its first section.
    let p = c
        .pages
        .iter()
        .find(|p| p.id.starts_with("3c6d3381"))
        .unwrap();
    let page = Page::load(&p.path, &DecodeOptions::default()).unwrap();
    let plain = learned
        .run(&page, &Params::defaults(learned.params()))
        .selection;
    let article = run(&page, "article");
    let (a, b) = (
        cescope::metrics::words(&page.render(&plain)).len(),
        cescope::metrics::words(&page.render(&article)).len(),
    );
    assert!(b * 10 >= a * 9, "article keeps {b} of {a} words");
}
