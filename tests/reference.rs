//! The reference extractors (`trafilatura`, `readability`; feature `reference`): their text
//! output located in the page by the one alignment (`page::locate`) loses nothing.
//!
//! On the sample pages (always) and on scrapinghub-dev / wcxb-dev (needs `../shared/corpus`):
//! the words of the rendered selection are exactly the aligned words of the crate's output, and
//! the corpus F1 through cescope (selection → text) is within 0.005 of the F1 of the crate's raw
//! text, both by the project's word-LCS F1.
#![cfg(feature = "reference")]

use std::path::{Path, PathBuf};

use cescope::algorithms::reference::{alignment, MIN_SHARE};
use cescope::corpus;
use cescope::extract::{Extractor, Location, Params};
use cescope::extractors::registry;
use cescope::metrics::{mean, word_prf, words};
use cescope::page::{DecodeOptions, Page};
use rayon::prelude::*;
use std::sync::Arc;

/// The registered extractors that wrap another program's text (the reference extractors).
fn references() -> Vec<Arc<dyn Extractor>> {
    registry()
        .iter()
        .filter(|e| e.capabilities().text_stage.is_some())
        .cloned()
        .collect()
}

#[test]
fn both_crates_are_registered_with_their_options() {
    let refs = references();
    let names: Vec<&str> = refs.iter().map(|e| e.name()).collect();
    assert_eq!(names, ["trafilatura", "readability"]);
    let specs = |n: &str| -> Vec<String> {
        let e = cescope::extractors::find(n).unwrap();
        e.params().iter().map(|s| s.name.to_string()).collect()
    };
    assert_eq!(specs("trafilatura"), ["favour", "comments", "tables"]);
    assert_eq!(specs("readability"), ["char_threshold", "top_candidates"]);
}

#[test]
fn aligned_text_is_the_outputs_words_on_the_sample_pages() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-pages");
    for name in [
        "news-article.html",
        "wiki-article.html",
        "slashdot-story.html",
    ] {
        let page = Page::load(&dir.join(name), &DecodeOptions::default()).unwrap();
        for e in references() {
            let params = Params::defaults(e.params());
            let stage = e.capabilities().text_stage.unwrap();
            let out = stage.output(&page, &params);
            assert!(
                out.failure.is_none(),
                "{} on {name}: {:?}",
                e.name(),
                out.failure
            );
            let x = stage.locate(&page, &params, &out);
            assert_eq!(x, e.run(&page, &params), "run = locate(output)");
            assert!(page.is_normal(&x.selection));
            x.trace.validate(&page).unwrap();
            let (out_words, matched, share, failed) = alignment(&x).unwrap();
            assert!(!failed);
            assert_eq!(out_words, words(&out.text).len());
            let text = page.render(&x.selection);
            // The rendered words are the aligned output words, in order, and nothing else.
            let p = word_prf(&text, &out.text);
            assert_eq!(
                (p.extract_len, p.common),
                (matched, matched),
                "{} on {name}",
                e.name()
            );
            assert!(share > 0.9, "{} on {name}: share {share}", e.name());
            assert!(matched > 50, "{} on {name}: {matched} words", e.name());
            // The explain panel names the crate and its version.
            let first = x.selection.ranges()[0].start;
            let ex = e.explain(&page, &x, Location::Byte(first), None).join(" ");
            assert!(
                ex.contains(" 0.") && ex.contains("aligned to the page"),
                "{ex}"
            );
        }
    }
}

fn corpus_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(name)
}

/// Per reference extractor over one corpus: mean F1 of the crate's raw text, mean F1 through
/// cescope, mean aligned share, pages below [`MIN_SHARE`], pages where the crate failed.
fn alignment_figures(name: &str) -> Vec<(String, f64, f64, f64, usize, usize)> {
    let c = corpus::open(&corpus_dir(name)).expect("corpus opens");
    let refs = references();
    let per_page: Vec<Vec<(f64, f64, f64, bool)>> = c
        .pages
        .par_iter()
        .filter_map(|p| {
            let gold = p.gold.as_ref()?.article_body.clone();
            let page = Page::load(&p.path, &DecodeOptions::default()).ok()?;
            Some(
                refs.iter()
                    .map(|e| {
                        let params = Params::defaults(e.params());
                        let stage = e.capabilities().text_stage.unwrap();
                        let out = stage.output(&page, &params);
                        let x = stage.locate(&page, &params, &out);
                        let (_, _, share, failed) = alignment(&x).unwrap();
                        let raw = word_prf(&out.text, &gold).f1;
                        let through = word_prf(&page.render(&x.selection), &gold).f1;
                        (raw, through, share, failed)
                    })
                    .collect(),
            )
        })
        .collect();
    assert!(per_page.len() > 90, "{name}: {} pages", per_page.len());
    refs.iter()
        .enumerate()
        .map(|(k, e)| {
            let col = || per_page.iter().map(move |r| r[k]);
            (
                e.name().to_string(),
                mean(col().map(|r| r.0)),
                mean(col().map(|r| r.1)),
                mean(col().map(|r| r.2)),
                col().filter(|r| r.2 < MIN_SHARE).count(),
                col().filter(|r| r.3).count(),
            )
        })
        .collect()
}

#[test]
#[ignore = "needs ../shared/corpus"]
fn alignment_loses_nothing_on_the_corpora() {
    for name in ["scrapinghub-dev", "wcxb-dev"] {
        for (algo, raw, through, share, low, failed) in alignment_figures(name) {
            eprintln!(
                "{name:16} {algo:12} F1 raw {raw:.4} through cescope {through:.4} (diff {:+.4}); \
                 aligned share {share:.4}, {low} pages below {:.0} %, {failed} failed",
                through - raw,
                MIN_SHARE * 100.0
            );
            assert!(
                (through - raw).abs() <= 0.005,
                "{name} {algo}: F1 raw {raw:.4}, through cescope {through:.4}"
            );
        }
    }
}

/// A reference extractor is a filter-set member like any other: a vote of trafilatura,
/// readability and BTE keeps what at least two of them select.
#[test]
fn reference_extractors_are_filter_set_members() {
    let d = tempfile::tempdir().unwrap();
    let set = d.path().join("refs.toml");
    std::fs::write(
        &set,
        "name = \"refs\"\ncombine = \"vote\"\nthreshold = 2\n\
         [[member]]\nalgo = \"trafilatura\"\n[[member]]\nalgo = \"readability\"\n\
         [[member]]\nalgo = \"bte\"\nparams = {}\n",
    )
    .unwrap();
    let e = cescope::extractors::find(set.to_str().unwrap()).unwrap();
    let names: Vec<&str> = e.params().iter().map(|s| s.name.as_ref()).collect();
    assert!(
        names.contains(&"1.favour") && names.contains(&"2.char_threshold"),
        "{names:?}"
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-pages");
    let page = Page::load(&dir.join("news-article.html"), &DecodeOptions::default()).unwrap();
    let x = e.run(&page, &Params::defaults(e.params()));
    let sel = |n: &str| {
        let m = cescope::extractors::find(n).unwrap();
        m.run(&page, &Params::defaults(m.params())).selection
    };
    let (t, r, b) = (sel("trafilatura"), sel("readability"), sel("bte"));
    let two = t
        .intersection(&r)
        .union(&t.intersection(&b))
        .union(&r.intersection(&b));
    assert!(!x.selection.is_empty());
    assert_eq!(x.selection, page.normalize(&two));
}

/// The versions explain and the warnings name are the ones Cargo.lock builds.
#[test]
fn versions_are_the_ones_built() {
    use cescope::algorithms::reference::RefCrate;
    use cescope::algorithms::{readability::Readability, trafilatura::Trafilatura};
    let lock = include_str!("../Cargo.lock");
    for v in [Trafilatura.about().version, Readability.about().version] {
        let (name, version) = v.split_once(' ').unwrap();
        let entry = format!("name = \"{name}\"\nversion = \"{version}\"\n");
        assert!(lock.contains(&entry), "{v} is not what Cargo.lock builds");
    }
}

/// The reference extractors are members of a stacked model like any other
/// (`cescope train --members`).
#[test]
fn reference_extractors_can_be_members() {
    use cescope::learn::stack::Members;
    let m = Members::new(&["cetd", "readability", "trafilatura"]).unwrap();
    assert!(m.feature_names().iter().any(|f| f == "readability_block"));
    assert!(m
        .feature_names()
        .iter()
        .any(|f| f == "trafilatura_coverage"));
    let page = Page::from_text(
        "r.html",
        "<html><body><article><p>One two three four five six seven eight nine ten eleven \
         twelve thirteen fourteen fifteen.</p></article></body></html>",
    );
    let v = m.verdicts(&page);
    assert_eq!(v.len(), 3);
    assert!(v.iter().all(|b| b.len() == page.blocks().len()));
}
