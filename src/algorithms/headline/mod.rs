//! Headline finders: TitleFinder (Mohammadzadeh 2013, chapter 5) and the two baselines of its
//! section 5.4.3, each implementing the headline finders' contract
//! ([`crate::extract::headline::HeadlineFinder`]).
//!
//! The finders ([`all`], in display order):
//! - `tf`, `tfidf`, `osm`, `aggregate` — TitleFinder with cosine similarity over tf weights, over
//!   tf-idf weights, the overlap scoring measure (Formula 5.2) and their sum (Formula 5.3)
//!   ([`titlefinder`]);
//! - `title` — the `title` element as is; `largest` — the first highest-order `h1`–`h6`
//!   ([`baseline`]).
//!
//! The learned ranker (it needs a fitted model) is in the learning module, and the one registry
//! (`crate::extractors`) names them all, the shipped ranker `learned` included.
//!
//! Why the finders are algorithms: the DANA family's `bound=headline` (thesis 7.2.1) calls
//! TitleFinder ([`titlefinder_headlines`]).

pub mod baseline;
pub mod candidates;
pub mod titlefinder;

use std::sync::Arc;

use crate::extract::headline::{HeadlineFinder, Headlines};
use crate::extract::{Algorithm, Params};
use crate::page::{MemoKey, Page};

/// The TitleFinder variant used where the published algorithms need a headline (the DANA
/// family's `bound=headline`, thesis 7.2.1): `tf`, the best TitleFinder variant by
/// macro-averaged F1 in Mohammadzadeh 2013, Table 5.4 (0.989). Where a user is shown a
/// headline (`cescope title`, `extract --headline`, the inspector) the default is the shipped
/// learned ranker instead (`cescope::extractors::DEFAULT_HEADLINE`).
pub const TITLEFINDER: &str = "tf";

/// The headlines [`TITLEFINDER`] (TitleFinder TF) finds on `page` with its published
/// parameters, found once per page ([`Page::memo`]) and shared: DANA's headline bound needs the
/// best one on every run.
pub fn titlefinder_headlines(page: &Page) -> Arc<Headlines> {
    const HEADLINES: MemoKey<Headlines> = MemoKey::new("headline::titlefinder_headlines");
    page.memo(HEADLINES, || {
        let f = titlefinder::TitleFinder::new(titlefinder::Method::Tf);
        f.run(page, &Params::defaults(f.params()))
    })
}

/// Every headline finder of this module, in display order: `tf`, `tfidf`, `osm`, `aggregate`,
/// `title`, `largest`.
pub fn all() -> Vec<Arc<dyn HeadlineFinder>> {
    use titlefinder::{Method, TitleFinder};
    vec![
        Arc::new(TitleFinder::new(Method::Tf)),
        Arc::new(TitleFinder::new(Method::TfIdf)),
        Arc::new(TitleFinder::new(Method::Osm)),
        Arc::new(TitleFinder::new(Method::Aggregate)),
        Arc::new(baseline::TitleElement),
        Arc::new(baseline::Largest),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::headline::{group_candidates, normalize_ws, CandidateGroup};
    use crate::extract::{ParamKind, ParamValue};

    #[test]
    fn specs_are_consistent_and_phases_name_trace_items() {
        let page = Page::from_text(
            "t",
            "<title>Rain in Spain - News</title><h1>Rain in Spain</h1><p>It rains in Spain.</p><p>Other news today.</p>",
        );
        for f in all() {
            for s in f.params() {
                let ok = match (&s.kind, &s.default) {
                    (ParamKind::Bool, ParamValue::Bool(_)) => true,
                    (ParamKind::Choice { choices }, ParamValue::Choice(c)) => {
                        choices.contains(&c.as_ref())
                    }
                    _ => false,
                };
                assert!(ok, "{} {}", f.name(), s.name);
            }
            let h = f.run(&page, &Params::defaults(f.params()));
            h.trace.validate(&page).unwrap();
            let keys: Vec<&str> = h.trace.keys().collect();
            for p in f.phases() {
                for k in p.reveals.iter() {
                    assert!(
                        keys.contains(&k),
                        "{}: phase {} names {k}",
                        f.name(),
                        p.name
                    );
                }
            }
            let best = h
                .best()
                .unwrap_or_else(|| panic!("{} found nothing", f.name()));
            assert_eq!(&page.text()[best.range.clone()], best.text, "{}", f.name());
            for w in h.candidates.windows(2) {
                assert!(w[0].score >= w[1].score, "{}: ranked", f.name());
            }
        }
    }

    #[test]
    fn identical_candidate_texts_are_merged_with_tags_and_paths() {
        // Four links read "Men's Shoes" (menu, breadcrumb, a card, the footer); the title
        // names the product.
        let page = Page::from_text(
            "t",
            "<title>Trail Runner | Men's Shoes | Stride</title><body>\
             <nav><ul class=menu><li><a href=/m>Men's Shoes</a></li><li><a href=/w>Women</a></li>\
             </ul></nav><div id=crumbs><a href=/m>Men's   Shoes</a></div>\
             <h1>Trail Runner</h1><p>A light trail shoe.</p>\
             <div class=card><a href=/m2>Men's Shoes</a></div>\
             <footer><a href=/m>Men's Shoes</a></footer></body>",
        );
        let tf = titlefinder::TitleFinder::new(titlefinder::Method::Tf);
        let found = tf.run(&page, &Params::defaults(tf.params()));
        let groups = group_candidates(&page, &found, 20);
        // One group per distinct text, in the order of their best-ranked candidate.
        let texts: Vec<&str> = groups.iter().map(|g| g.text.as_str()).collect();
        let mut distinct = texts.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), texts.len(), "{texts:?}");
        assert_eq!(groups[0].text, found.best().unwrap().text);
        assert_eq!(
            groups.iter().map(CandidateGroup::count).sum::<usize>(),
            found.candidates.len()
        );
        for w in groups.windows(2) {
            assert!(w[0].score >= w[1].score);
        }
        let shoes = groups.iter().find(|g| g.text == "Men's Shoes").unwrap();
        assert_eq!(shoes.count(), 4);
        let tags: Vec<&str> = shoes.occurrences.iter().map(|o| o.tag.as_str()).collect();
        assert_eq!(tags, ["a", "a", "a", "a"]);
        let paths: Vec<&str> = shoes.occurrences.iter().map(|o| o.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "html > body > nav > ul.menu > li > a",
                "html > body > div#crumbs > a",
                "html > body > div.card > a",
                "html > body > footer > a",
            ]
        );
        // Document order; each occurrence's range holds the text; `best` is the best-ranked.
        for w in shoes.occurrences.windows(2) {
            assert!(w[0].range.start < w[1].range.start);
        }
        for o in &shoes.occurrences {
            assert_eq!(normalize_ws(&page.text()[o.range.clone()]), "Men's Shoes");
        }
        let best = found
            .candidates
            .iter()
            .find(|c| c.text == "Men's Shoes")
            .unwrap();
        assert_eq!(shoes.best_occurrence().range, best.range);
        assert_eq!(shoes.score, best.score);
        assert_eq!(shoes.first_occurrence().range, shoes.occurrences[0].range);
        // The limit counts groups, and a kept group still gathers all its occurrences.
        let two = group_candidates(&page, &found, 2);
        assert_eq!(two.len(), 2);
        assert_eq!(two[..], groups[..2]);
        assert!(group_candidates(&page, &Headlines::default(), 20).is_empty());
    }
}
