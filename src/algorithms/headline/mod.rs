//! Headline finders: TitleFinder (Mohammadzadeh 2013, chapter 5) and the two baselines of its
//! section 5.4.3 — a sibling contract of [`super::Extractor`].
//!
//! A [`HeadlineFinder`] maps a page and its parameters to [`Headlines`]: ranked [`Candidate`]s
//! (best first, each with its score, its source byte range over the decoded text, its text and
//! the DOM node it comes from) and a [`Trace`] the generic views can draw (per-candidate scores
//! with node-unit positions, the query, the chosen headline). Parameters are [`ParamSpec`]s, read
//! through [`Params`] exactly as extractors read theirs.
//!
//! Registered finders ([`registry`]):
//! - `tf`, `tfidf`, `osm`, `aggregate` — TitleFinder with cosine similarity over tf weights, over
//!   tf-idf weights, the overlap scoring measure (Formula 5.2) and their sum (Formula 5.3)
//!   ([`titlefinder`]);
//! - `title` — the `title` element as is; `largest` — the first highest-order `h1`–`h6`
//!   ([`baseline`]).
//!
//! Not registered (it needs a fitted model): [`learned::LearnedFinder`], which ranks the
//! featured candidates of [`candidates`] by a model's score; the learning module trains the
//! model and builds the finder (`cescope::learn::headline`), and `cescope::extractors` finds
//! the shipped one by name (`learned`, the default headline finder where a user is shown a
//! headline) beside the registered finders.
//!
//! [`group_candidates`] merges a finder's candidates with the same text into one row each,
//! with every occurrence's tag and DOM path (the inspector's headline panel).
//!
//! Why this lives under `algorithms`: the DANA family's `bound=headline` (thesis 7.2.1) calls
//! TitleFinder, and TitleFinder uses the algorithms' contract types; a top-level `headline`
//! module would close an import cycle between top-level modules. The crate root re-exports it
//! as `cescope::headline`.

pub mod baseline;
pub mod candidates;
pub mod learned;
pub mod titlefinder;

use std::ops::Range;

use serde::Serialize;

use std::sync::{Arc, LazyLock};

use super::{Algorithm, Params, Registry, Trace};
#[cfg(any(doc, test))]
use crate::error::Error;
use crate::error::Result;
use crate::page::dom::NodeId;
use crate::page::Page;

/// One headline candidate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    /// The finder's score (higher is better; its scale depends on the finder: a cosine in
    /// `[0, 1]`, an OSM or aggregate score, a heading level).
    pub score: f64,
    /// Byte range over the decoded text ([`Page::text`]) from the first to the last byte of the
    /// candidate's character data (tags between them included when the candidate spans several
    /// text nodes).
    pub range: Range<usize>,
    /// The candidate's text, white space normalised ([`normalize_ws`]), character references
    /// decoded.
    pub text: String,
    /// The DOM node it comes from ([`Page::dom`] numbering): a text node, or the element whose
    /// text it is (a heading, the `title`, the block holding merged inline text).
    pub node: NodeId,
}

/// What a [`HeadlineFinder`] found.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Headlines {
    /// Candidates ranked best first (ties: document order). Empty when the finder found
    /// nothing (no `title` element, no similar text, no heading).
    pub candidates: Vec<Candidate>,
    /// How it got there (node unit = the finder's own candidate numbering, placed by
    /// [`Trace::positions`]).
    pub trace: Trace,
}

impl Headlines {
    /// The headline: the best candidate, if any.
    pub fn best(&self) -> Option<&Candidate> {
        self.candidates.first()
    }
}

/// A headline finder (TitleFinder or a baseline). Pure and deterministic: no I/O, no global
/// state, safe to call from many threads; never panics on any page.
pub trait HeadlineFinder: Algorithm {
    /// Ranks the page's headline candidates.
    fn run(&self, page: &Page, params: &Params) -> Headlines;
}

/// The TitleFinder variant used where the published algorithms need a headline (the DANA
/// family's `bound=headline`, thesis 7.2.1): `tf`, the best TitleFinder variant by
/// macro-averaged F1 in Mohammadzadeh 2013, Table 5.4 (0.989). Where a user is shown a
/// headline (`cescope title`, `extract --headline`, the inspector) the default is the shipped
/// learned ranker instead (`cescope::extractors::DEFAULT_HEADLINE`).
pub const TITLEFINDER: &str = "tf";

/// The headlines [`TITLEFINDER`] (TitleFinder TF) finds on `page` with its published
/// parameters, found once per page ([`Page::memo`]) and shared: DANA's headline bound needs the
/// best one on every run. Empty (no candidate) when the finder is not registered.
pub fn titlefinder_headlines(page: &Page) -> std::sync::Arc<Headlines> {
    page.memo("headline::titlefinder_headlines", || {
        match find(TITLEFINDER) {
            Ok(f) => f.run(page, &Params::defaults(f.params())),
            Err(_) => Headlines::default(),
        }
    })
}

/// All registered headline finders, in display order: `tf`, `tfidf`, `osm`, `aggregate`,
/// `title`, `largest`. Built once per process.
pub fn registry() -> &'static Registry<dyn HeadlineFinder> {
    use titlefinder::{Method, TitleFinder};
    static ALL: LazyLock<Registry<dyn HeadlineFinder>> = LazyLock::new(|| {
        Registry::new(vec![
            Arc::new(TitleFinder::new(Method::Tf)),
            Arc::new(TitleFinder::new(Method::TfIdf)),
            Arc::new(TitleFinder::new(Method::Osm)),
            Arc::new(TitleFinder::new(Method::Aggregate)),
            Arc::new(baseline::TitleElement),
            Arc::new(baseline::Largest),
        ])
    });
    &ALL
}

/// The names of all registered headline finders.
pub fn names() -> Vec<&'static str> {
    registry().names()
}

/// Looks a headline finder up by name (ASCII case-insensitive). Errors:
/// [`Error::UnknownAlgorithm`] listing the known names.
pub fn find(name: &str) -> Result<Arc<dyn HeadlineFinder>> {
    registry().find(name)
}

/// Resolves `all` or a comma-separated list of finder names. Errors: as [`find`].
pub fn resolve(spec: &str) -> Result<Vec<Arc<dyn HeadlineFinder>>> {
    registry().resolve(spec, find)
}

/// One place a candidate text occurs on the page ([`CandidateGroup::occurrences`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Occurrence {
    /// The finder's score of this occurrence.
    pub score: f64,
    /// Byte range over the decoded text ([`Candidate::range`]).
    pub range: Range<usize>,
    /// The DOM node it comes from ([`Candidate::node`]).
    pub node: NodeId,
    /// The tag of the element whose text it is: the node itself when it is an element, else
    /// its parent (`h1`, `a`, `title`, …); empty when there is none.
    pub tag: String,
    /// That element's DOM path ([`crate::page::blocks::dom_path`], e.g.
    /// `html > body > nav > a.home`).
    pub path: String,
}

/// The candidates of one finder that have the same text (white space normalised, as the exact
/// match of Table 5.3 compares them), merged: one row of the inspector's headline panel.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CandidateGroup {
    /// The text they share.
    pub text: String,
    /// The best score among them.
    pub score: f64,
    /// Every occurrence, in document order (by range start, then rank).
    pub occurrences: Vec<Occurrence>,
    /// The index in [`CandidateGroup::occurrences`] of the best-ranked one (the finder's own
    /// pick among them: what taking the group as the headline takes).
    pub best: usize,
}

impl CandidateGroup {
    /// The best-ranked occurrence ([`CandidateGroup::best`]).
    pub fn best_occurrence(&self) -> &Occurrence {
        &self.occurrences[self.best]
    }

    /// The first occurrence in document order.
    pub fn first_occurrence(&self) -> &Occurrence {
        &self.occurrences[0]
    }

    /// How many candidates were merged (≥ 1).
    pub fn count(&self) -> usize {
        self.occurrences.len()
    }
}

/// The candidates of `found` (a finder's result on `page`) merged by text: one
/// [`CandidateGroup`] per distinct text, in the order of their best-ranked candidate (so the
/// first group holds [`Headlines::best`]), each with its occurrences' tags and DOM paths; at
/// most `limit` groups. O(candidates · depth); allocates the paths of the kept groups only.
pub fn group_candidates(page: &Page, found: &Headlines, limit: usize) -> Vec<CandidateGroup> {
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    for (i, c) in found.candidates.iter().enumerate() {
        match index.get(c.text.as_str()) {
            Some(&g) => members[g].push(i),
            None if members.len() < limit => {
                index.insert(c.text.as_str(), members.len());
                members.push(vec![i]);
            }
            None => {}
        }
    }
    let dom = page.dom();
    members
        .into_iter()
        .map(|m| {
            let best_rank = m[0];
            let mut order = m;
            order.sort_by_key(|&i| (found.candidates[i].range.start, i));
            let occurrences = order
                .iter()
                .map(|&i| {
                    let c = &found.candidates[i];
                    let el = if dom.kind(c.node) == crate::page::dom::NodeKind::Element {
                        Some(c.node)
                    } else {
                        dom.parent(c.node)
                            .filter(|&p| dom.kind(p) == crate::page::dom::NodeKind::Element)
                    };
                    Occurrence {
                        score: c.score,
                        range: c.range.clone(),
                        node: c.node,
                        tag: el
                            .and_then(|e| dom.tag_name(e))
                            .unwrap_or_default()
                            .to_string(),
                        path: el
                            .map_or_else(String::new, |e| crate::page::blocks::dom_path(dom, e)),
                    }
                })
                .collect();
            let c = &found.candidates[best_rank];
            CandidateGroup {
                text: c.text.clone(),
                score: c.score,
                best: order.iter().position(|&i| i == best_rank).unwrap_or(0),
                occurrences,
            }
        })
        .collect()
}

/// White space normalisation for headlines (and for the exact match of Table 5.3): runs of
/// Unicode white space become one ASCII space; leading and trailing white space is removed.
/// O(len).
pub fn normalize_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// The first `title` element of the document in the HTML namespace (an SVG `<title>` is not the
/// page title), if any.
pub fn title_element(page: &Page) -> Option<NodeId> {
    let dom = page.dom();
    dom.elements()
        .map(|(id, _)| id)
        .find(|&id| dom.is_html_element(id) && dom.tag_name(id) == Some("title"))
}

/// The byte range from the first to the last byte of the character data of `id`'s subtree
/// (shown text only), or `None` when it has none.
pub fn text_range(page: &Page, id: NodeId) -> Option<Range<usize>> {
    let dom = page.dom();
    let mut out: Option<Range<usize>> = None;
    for i in dom.subtree(id) {
        if dom.kind(i) != crate::page::dom::NodeKind::Text || dom.is_non_text(i) {
            continue;
        }
        for r in dom.spans(i) {
            out = Some(match out {
                None => r.clone(),
                Some(o) => o.start.min(r.start)..o.end.max(r.end),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::ParamKind;

    #[test]
    fn registry_is_complete_and_unique() {
        assert_eq!(
            names(),
            ["tf", "tfidf", "osm", "aggregate", "title", "largest"]
        );
        assert!(find("TF-IDF").is_err());
        assert_eq!(find("TfIdf").unwrap().name(), "tfidf");
        assert!(matches!(find("nope"), Err(Error::UnknownAlgorithm { .. })));
        assert_eq!(resolve("all").unwrap().len(), 6);
        assert_eq!(resolve("tf, osm").unwrap().len(), 2);
        assert!(find(TITLEFINDER).is_ok());
    }

    #[test]
    fn specs_are_consistent_and_phases_name_trace_items() {
        let page = Page::from_text(
            "t",
            "<title>Rain in Spain - News</title><h1>Rain in Spain</h1><p>It rains in Spain.</p><p>Other news today.</p>",
        );
        for f in registry() {
            for s in f.params() {
                let ok = match (&s.kind, &s.default) {
                    (ParamKind::Bool, crate::algorithms::ParamValue::Bool(_)) => true,
                    (ParamKind::Choice { choices }, crate::algorithms::ParamValue::Choice(c)) => {
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
        let tf = find("tf").unwrap();
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

    #[test]
    fn white_space_normalisation() {
        assert_eq!(normalize_ws("  a\n\t b  c "), "a b c");
        assert_eq!(normalize_ws("\u{a0}x\u{2003}y"), "x y");
        assert_eq!(normalize_ws(" \n "), "");
    }

    #[test]
    fn title_element_skips_svg_titles() {
        let page = Page::from_text(
            "t",
            "<body><svg><title>icon</title></svg><title>Real</title></body>",
        );
        let id = title_element(&page).unwrap();
        assert_eq!(page.dom().text(id), "Real");
        assert!(title_element(&Page::from_text("t", "<p>x</p>")).is_none());
    }
}
