//! The one selection meaning (`src/page/mask.rs`): every registered extractor's selection and
//! every gold file's main content, once normalised, is content text only, and normalising gold
//! files does not change what they say (their rendered text).

use std::path::Path;

use cescope::extractors::registry;

use cescope::extract::Params;
use cescope::page::{DecodeOptions, Page};

fn sample_pages() -> Vec<(String, Page)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-pages");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "html") {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            out.push((name, Page::load(&p, &DecodeOptions::default()).unwrap()));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 5, "sample pages missing");
    out
}

#[test]
fn every_extractor_selects_in_normal_form() {
    for (name, page) in sample_pages() {
        for e in registry() {
            let x = e.run(&page, &Params::defaults(e.params()));
            assert!(
                page.is_normal(&x.selection),
                "{name} / {}: selection not in normal form",
                e.name()
            );
        }
    }
}

#[test]
fn normalised_gold_says_the_same() {
    let gold_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("gold");
    let mut checked = 0;
    for (name, page) in sample_pages() {
        let stem = name.trim_end_matches(".html");
        let path = gold_dir.join(format!("{stem}.json"));
        let Ok(g) = cescope::gold::load(&path) else {
            continue;
        };
        let raw = g.main_selection();
        let norm = page.normalize(&raw);
        assert!(page.is_normal(&norm));
        assert_eq!(page.render(&raw), page.render(&norm), "{name}");
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} gold files checked");
}
