//! The headline finders' contract — a sibling of [`super::Extractor`] — and what every finder
//! shares.
//!
//! A [`HeadlineFinder`] maps a page and its parameters to [`Headlines`]: ranked [`Candidate`]s
//! (best first, each with its score, its source byte range over the decoded text, its text and
//! the DOM node it comes from) and a [`Trace`] the generic views can draw (per-candidate scores
//! with node-unit positions, the query, the chosen headline). Parameters are
//! [`super::ParamSpec`]s, read through [`Params`] exactly as extractors read theirs.
//!
//! The finders themselves: TitleFinder and the baselines in `crate::algorithms::headline`, the
//! learned ranker in `crate::learn::headline`; which of them a user can name is
//! `crate::extractors` (the one registry). [`group_candidates`] merges a finder's candidates
//! with the same text into one row each, with every occurrence's tag and DOM path (the
//! inspector's headline panel).

use std::ops::Range;

use serde::Serialize;

use super::{Algorithm, Params, Trace};
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
