//! DSC and Density on the real pages of `../shared/corpus`: their traces describe every page
//! consistently (the invariants the generic views rely on), and the pieces of each trace agree
//! with the selection.

use std::path::{Path, PathBuf};

use cescope::extractors::find;

use cescope::corpus;
use cescope::extract::{Params, Unit};
use cescope::page::{DecodeOptions, Page};

fn corpus_dir(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus")).join(name)
}

#[test]
#[ignore = "needs ../shared/corpus"]
fn traces_agree_with_selections_on_corpus_pages() {
    let dsc = find("dsc").unwrap();
    let density = find("density").unwrap();
    for name in ["scrapinghub-dev", "readability"] {
        let c = corpus::open(&corpus_dir(name)).unwrap();
        for p in &c.pages {
            let page = Page::load(&p.path, &DecodeOptions::default()).unwrap();
            let x = dsc.run(&page, &Params::defaults(dsc.params()));
            x.trace.validate(&page).unwrap();
            assert!(page.is_normal(&x.selection), "{}", p.id);
            // Every selected byte lies in a low-slope region (Algorithm 6's L = 1).
            let pos = x.trace.positions(Unit::Token).unwrap();
            let regions = &x.trace.marks("regions").unwrap().spans;
            for r in x.selection.ranges() {
                assert!(
                    regions
                        .iter()
                        .any(|t| pos[t.start].start <= r.start && r.end <= pos[t.end - 1].end),
                    "{}: {r:?} outside every region",
                    p.id
                );
            }
            let y = density.run(&page, &Params::defaults(density.params()));
            y.trace.validate(&page).unwrap();
            assert!(page.is_normal(&y.selection), "{}", p.id);
            // Density's selection is one run of strings: it lies inside the region's bytes, and
            // the region holds s_max.
            let pos = y.trace.positions(Unit::Token).unwrap();
            let smax = &y.trace.marks("smax").unwrap().spans;
            let region = &y.trace.marks("region").unwrap().spans;
            assert_eq!(smax.len(), region.len(), "{}", p.id);
            if let (Some(s), Some(g)) = (smax.first(), region.first()) {
                assert!(g.start <= s.start && s.end <= g.end, "{}", p.id);
                let bytes = pos[g.start].start..pos[g.end - 1].end;
                for r in y.selection.ranges() {
                    assert!(bytes.start <= r.start && r.end <= bytes.end, "{}", p.id);
                }
                assert!(!y.selection.is_empty(), "{}: s_max has text", p.id);
            }
        }
    }
}
