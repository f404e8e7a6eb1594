//! The learned headline finder: every headline candidate of the page with its feature row
//! ([`crate::algorithms::headline::candidates`]) is scored by a fitted model, and the
//! candidates are ranked by that score, best first (issue 22, item 5). The model is trained
//! beside it ([`super`], gradient-boosted trees over the rows, labelled by the exact match of
//! Mohammadzadeh 2013, Table 5.3); this module only needs something that scores a row
//! ([`RowScorer`]). It lives with the learners (issue 31: learned things in one place); the
//! candidates and their features stay with TitleFinder's algorithms, which it reads.

use std::borrow::Cow;
use std::sync::Arc;

use crate::algorithms::headline::candidates::{candidates, CandidateRow};
use crate::extract::headline::{Candidate, HeadlineFinder, Headlines};
use crate::extract::trace::{Marks, Phase, Positions, Role, Series, Unit};
use crate::extract::{AlgoInfo, Algorithm, Params, Trace, NO_PARAMS};
use crate::page::Page;

/// Scores one candidate row ([`crate::algorithms::headline::candidates::FEATURES`] order, one value per feature): higher is more
/// likely the headline (a probability in `[0, 1]` for the gradient-boosted ranker). Must be
/// pure and deterministic; a non-finite score ranks last.
pub trait RowScorer: Send + Sync {
    /// The score of `row`.
    fn score(&self, row: &[f64]) -> f64;
}

const PHASES: &[Phase] = &[
    Phase::new(
        "candidates",
        "the title, its parts and the body's text fragments, with their features",
        &["score"],
    ),
    Phase::new(
        "rank",
        "the candidate the model scores highest is the headline",
        &["headline"],
    ),
];

/// A headline finder ranking [`candidates`] by a [`RowScorer`].
pub struct LearnedFinder {
    info: AlgoInfo,
    scorer: Arc<dyn RowScorer>,
}

impl std::fmt::Debug for LearnedFinder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LearnedFinder")
            .field("name", &self.info.name)
            .finish_non_exhaustive()
    }
}

impl LearnedFinder {
    /// A finder named `name` (as `--headline NAME` would name it) described by `description`
    /// (one line, with its source), scoring rows with `scorer`.
    pub fn new(name: &str, description: &str, scorer: Arc<dyn RowScorer>) -> LearnedFinder {
        LearnedFinder {
            info: AlgoInfo {
                name: Cow::Owned(name.to_ascii_lowercase()),
                description: Cow::Owned(description.to_string()),
                source: Cow::Borrowed(
                    "cescope (issue 22, item 5): candidates of Mohammadzadeh 2013, chapter 5, ranked by a learned model",
                ),
                params: Cow::Borrowed(NO_PARAMS),
                phases: Cow::Borrowed(PHASES),
                needs_dom: true,
            },
            scorer,
        }
    }
}

impl Algorithm for LearnedFinder {
    fn info(&self) -> &AlgoInfo {
        &self.info
    }
}

/// The order of `rows` by `scorer`: `(row index, score)`, highest score first, ties (and
/// non-finite scores, which rank last) in candidate order ([`order`]). O(n log n).
pub fn rank(rows: &[CandidateRow], scorer: &dyn RowScorer) -> Vec<(usize, f64)> {
    let scores: Vec<f64> = rows.iter().map(|r| scorer.score(&r.features)).collect();
    order(&scores)
}

/// The ranking rule of a learned finder on candidate scores: `(index, score)`, highest score
/// first, ties (and non-finite scores, which rank last) in index order. O(n log n).
pub fn order(scores: &[f64]) -> Vec<(usize, f64)> {
    let mut scored: Vec<(usize, f64)> = scores.iter().copied().enumerate().collect();
    let key = |s: f64| if s.is_finite() { s } else { f64::NEG_INFINITY };
    scored.sort_by(|a, b| key(b.1).total_cmp(&key(a.1)).then(a.0.cmp(&b.0)));
    scored
}

impl HeadlineFinder for LearnedFinder {
    /// Candidates: every row of [`candidates`] (texts may repeat: the `title`'s part and the
    /// `h1` it names are two candidates), ranked by the model's score (ties in candidate
    /// order). Trace (node unit = the candidates in candidate order, positioned by their byte
    /// ranges): series `score` (the model's score, info), marks `headline` (selected: the
    /// best).
    fn run(&self, page: &Page, _params: &Params) -> Headlines {
        let rows = candidates(page);
        let ranked = rank(&rows, self.scorer.as_ref());
        let mut scores = vec![0.0; rows.len()];
        for &(i, s) in &ranked {
            scores[i] = if s.is_finite() { s } else { 0.0 };
        }
        let selected = ranked.first().map(|&(i, _)| i..i + 1).into_iter().collect();
        let candidates = ranked
            .iter()
            .map(|&(i, s)| Candidate {
                score: s,
                range: rows[i].sentence.range.clone(),
                text: rows[i].text.clone(),
                node: rows[i].sentence.node,
            })
            .collect();
        Headlines {
            candidates,
            trace: Trace {
                series: vec![Series::new(
                    "score",
                    "the model's score of the candidate",
                    Unit::Node,
                    Role::Info,
                    scores,
                )],
                marks: vec![Marks::new(
                    "headline",
                    "the candidate scored highest",
                    Unit::Node,
                    Role::Selected,
                    selected,
                )],
                positions: vec![Positions {
                    unit: Unit::Node,
                    ranges: rows.iter().map(|r| r.sentence.range.clone()).collect(),
                }],
                ..Default::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::headline::candidates::FEATURES;

    /// Scores a row by its `heading` feature being 1 (an `h1`), then by fewer words.
    struct H1First;
    impl RowScorer for H1First {
        fn score(&self, row: &[f64]) -> f64 {
            let at = |n: &str| FEATURES.iter().position(|f| *f == n).unwrap();
            f64::from(u8::from(row[at("heading")] == 1.0)) - row[at("words")] / 1000.0
        }
    }

    struct Nan;
    impl RowScorer for Nan {
        fn score(&self, _row: &[f64]) -> f64 {
            f64::NAN
        }
    }

    #[test]
    fn ranks_by_the_scorer_and_traces_validate() {
        let page = Page::from_text(
            "t",
            "<title>News | Rain in Spain</title><p>It rains in Spain a lot.</p><h1>Rain in Spain</h1>",
        );
        let f = LearnedFinder::new("Mine", "test", Arc::new(H1First));
        assert_eq!(f.name(), "mine");
        let h = f.run(&page, &Params::default());
        assert_eq!(h.best().unwrap().text, "Rain in Spain");
        assert_eq!(
            &page.text()[h.best().unwrap().range.clone()],
            "Rain in Spain"
        );
        h.trace.validate(&page).unwrap();
        for w in h.candidates.windows(2) {
            assert!(w[0].score >= w[1].score);
        }
        // Non-finite scores: candidate order, nothing panics.
        let n = LearnedFinder::new("nan", "test", Arc::new(Nan)).run(&page, &Params::default());
        assert_eq!(n.best().unwrap().text, "News | Rain in Spain");
        n.trace.validate(&page).unwrap();
        let empty = f.run(&Page::from_text("t", ""), &Params::default());
        assert!(empty.candidates.is_empty());
        empty.trace.validate(&Page::from_text("t", "")).unwrap();
    }
}
