//! Headline evaluation (`cescope eval --headline`): every selected headline finder on every page
//! whose gold standard has a headline, scored as in Mohammadzadeh (2013), 5.4.2.
//!
//! **Exact match** (Table 5.3): a page counts `A` (a headline correctly identified) when the
//! finder's headline equals the gold headline after white-space normalisation
//! ([`crate::extract::headline::normalize_ws`]; nothing else is normalised: case, punctuation and
//! character references decoded by the parser count); `B` (another element misclassified as the
//! headline) when the finder returned a different text; `C` (the headline not identified) when
//! the finder did not return the gold headline (so a wrong headline counts `B` and `C`, no
//! headline counts `C` only). Per group of pages, `recall = A / (A + C)`,
//! `precision = A / (A + B)` and `F1 = 2PR / (P + R)` (Formulas 5.4, 5.5; 0 when undefined);
//! the thesis' "macro average" is the mean of those F1 over groups ([`macro_f1`]).
//!
//! **Word F1** (for diagnosis): the word-sequence LCS F1 of [`crate::metrics::word_prf`] between
//! the found and the gold headline, averaged over the group's pages (no headline scores 0).
//!
//! Pages come from [`crate::eval::run::gather_with`] (one corpus reader), grouped as
//! [`crate::eval::run::Report::summarize`] groups them ([`GroupBy`]).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::run::{EvalPage, GroupBy, PageInfo, NO_PAGE_TYPE};
use crate::extract::headline::{normalize_ws, HeadlineFinder};
use crate::extract::Params;
use crate::metrics::word_prf;
use crate::page::{DecodeOptions, Page};

/// The result of one finder on one page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeadlineResult {
    /// The headline found (white space normalised), if any.
    pub found: Option<String>,
    /// It equals the gold headline after white-space normalisation.
    pub exact: bool,
    /// Word-sequence LCS F1 against the gold headline (0 without a headline).
    pub word_f1: f64,
    /// Milliseconds for the finder's run (page already decoded; the DOM is built by the first
    /// finder that asks for it).
    pub run_ms: f64,
}

/// One finder's results over all pages.
#[derive(Debug, Clone, Serialize)]
pub struct FinderResult {
    /// Registered name.
    pub name: String,
    /// The parameters it ran with.
    pub params: Params,
    /// One result per page, aligned with [`HeadlineReport::pages`].
    pub results: Vec<HeadlineResult>,
}

/// What [`evaluate`] measured.
#[derive(Debug, Clone, Serialize)]
pub struct HeadlineReport {
    /// Corpus names in the order given.
    pub corpora: Vec<String>,
    /// The pages (as in a content evaluation report).
    pub pages: Vec<PageInfo>,
    /// The gold headline of every page, white space normalised.
    pub gold: Vec<String>,
    /// One entry per finder, in the order given.
    pub finders: Vec<FinderResult>,
    /// Wall-clock seconds of the evaluation.
    pub wall_seconds: f64,
}

/// The counts of Table 5.3 and the measures of Formulas 5.4 and 5.5 for one finder over one
/// group of pages, with the mean word F1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct HeadlineSummary {
    /// Pages in the group.
    pub pages: usize,
    /// Headlines correctly identified.
    pub a: usize,
    /// Other texts returned as the headline.
    pub b: usize,
    /// Headlines not identified.
    pub c: usize,
    /// `A / (A + C)`.
    pub recall: f64,
    /// `A / (A + B)`.
    pub precision: f64,
    /// `2PR / (P + R)`.
    pub f1: f64,
    /// Mean per-page word-LCS F1.
    pub word_f1: f64,
}

/// A group of pages and every finder's summary over it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeadlineGroup {
    /// Display label: the corpus, or `corpus/site`, `corpus/type`.
    pub label: String,
    /// One summary per finder, aligned with [`HeadlineReport::finders`].
    pub summaries: Vec<HeadlineSummary>,
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// Summarises results (Table 5.3 counts, Formulas 5.4 and 5.5). O(n).
pub fn summarize<'a>(results: impl IntoIterator<Item = &'a HeadlineResult>) -> HeadlineSummary {
    let (mut pages, mut a, mut b, mut c, mut wf) = (0, 0, 0, 0, 0.0);
    for r in results {
        pages += 1;
        wf += r.word_f1;
        if r.exact {
            a += 1;
        } else {
            c += 1;
            if r.found.is_some() {
                b += 1;
            }
        }
    }
    let recall = ratio(a, a + c);
    let precision = ratio(a, a + b);
    let f1 = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    HeadlineSummary {
        pages,
        a,
        b,
        c,
        recall,
        precision,
        f1,
        word_f1: if pages == 0 { 0.0 } else { wf / pages as f64 },
    }
}

/// The thesis' macro average (Table 5.4, last row): the mean of the groups' F1 for finder
/// `finder` (index into [`HeadlineReport::finders`]); 0 without groups.
pub fn macro_f1(groups: &[HeadlineGroup], finder: usize) -> f64 {
    crate::metrics::mean(groups.iter().map(|g| g.summaries[finder].f1))
}

impl HeadlineReport {
    /// Groups the pages by corpus, site or page type (as [`super::run::Report::summarize`]) and
    /// summarises every finder over each group.
    pub fn summarize(&self, by: GroupBy) -> Vec<HeadlineGroup> {
        let mut members: BTreeMap<(usize, String), Vec<usize>> = BTreeMap::new();
        for (i, p) in self.pages.iter().enumerate() {
            let ci = self
                .corpora
                .iter()
                .position(|c| *c == p.corpus)
                .unwrap_or(usize::MAX);
            let label = match by {
                GroupBy::Corpus => p.corpus.clone(),
                GroupBy::Site => format!("{}/{}", p.corpus, p.site),
                GroupBy::Type => format!(
                    "{}/{}",
                    p.corpus,
                    p.page_type.as_deref().unwrap_or(NO_PAGE_TYPE)
                ),
            };
            members.entry((ci, label)).or_default().push(i);
        }
        members
            .into_iter()
            .map(|((_, label), idx)| HeadlineGroup {
                label,
                summaries: self
                    .finders
                    .iter()
                    .map(|f| summarize(idx.iter().map(|&i| &f.results[i])))
                    .collect(),
            })
            .collect()
    }

    /// The aligned text table: one line per (group, finder) with pages, A, B, C, recall,
    /// precision, F1 and word F1; with several groups, one macro-average line per finder.
    pub fn table(&self, by: GroupBy) -> String {
        let groups = self.summarize(by);
        let w = groups
            .iter()
            .map(|g| g.label.chars().count())
            .chain(std::iter::once("macro average".len()))
            .max()
            .unwrap_or(5);
        let fw = self
            .finders
            .iter()
            .map(|f| f.name.len())
            .max()
            .unwrap_or(6)
            .max(6);
        let mut s = format!(
            "{:<w$}  {:<fw$} {:>6} {:>6} {:>6} {:>6} {:>7} {:>9} {:>6} {:>8}\n",
            "group", "method", "pages", "A", "B", "C", "recall", "precision", "F1", "word F1"
        );
        for g in &groups {
            for (f, x) in self.finders.iter().zip(&g.summaries) {
                s.push_str(&format!(
                    "{:<w$}  {:<fw$} {:>6} {:>6} {:>6} {:>6} {:>7.3} {:>9.3} {:>6.3} {:>8.3}\n",
                    g.label, f.name, x.pages, x.a, x.b, x.c, x.recall, x.precision, x.f1, x.word_f1
                ));
            }
        }
        if groups.len() > 1 {
            for (k, f) in self.finders.iter().enumerate() {
                s.push_str(&format!(
                    "{:<w$}  {:<fw$} {:>6} {:>6} {:>6} {:>6} {:>7} {:>9} {:>6.3} {:>8.3}\n",
                    "macro average",
                    f.name,
                    groups.len(),
                    "",
                    "",
                    "",
                    "",
                    "",
                    macro_f1(&groups, k),
                    crate::metrics::mean(groups.iter().map(|g| g.summaries[k].word_f1))
                ));
            }
        }
        s
    }
}

/// Pairs each finder with its defaults, then applies each `NAME=VALUE` of `sets` to every finder
/// that has parameter `NAME` ([`super::run::configure_with`]). Errors: [`crate::Error::Param`]
/// when none has it, for a missing `=`, or for a bad value.
pub fn configure(
    finders: Vec<Arc<dyn HeadlineFinder>>,
    sets: &[String],
) -> crate::Result<Vec<(Arc<dyn HeadlineFinder>, Params)>> {
    super::run::configure_with(finders, sets, "headline finder")
}

/// Keeps the pages whose gold has a non-empty headline; returns them and how many were left out.
pub fn with_headline(pages: Vec<EvalPage>) -> (Vec<EvalPage>, usize) {
    let n = pages.len();
    let kept: Vec<EvalPage> = pages
        .into_iter()
        .filter(|p| {
            p.gold
                .headline
                .as_deref()
                .is_some_and(|h| !normalize_ws(h).is_empty())
        })
        .collect();
    let dropped = n - kept.len();
    (kept, dropped)
}

/// Runs every finder (with its parameters) on every page and scores its headline against the
/// gold headline (see the module documentation). Pages are read once and processed in parallel
/// (rayon, current pool). A page that fails to load counts as "no headline" for every finder,
/// with its error in [`PageInfo::error`]. Pages without a gold headline score as if the gold
/// were empty: call [`with_headline`] first.
pub fn evaluate(
    pages: &[EvalPage],
    finders: &[(Arc<dyn HeadlineFinder>, Params)],
) -> HeadlineReport {
    let t0 = Instant::now();
    let opts = DecodeOptions::default();
    let per_page: Vec<(PageInfo, String, Vec<HeadlineResult>)> = pages
        .par_iter()
        .map(|ep| eval_page(ep, finders, &opts))
        .collect();
    let mut corpora: Vec<String> = Vec::new();
    for p in pages {
        if !corpora.contains(&p.corpus) {
            corpora.push(p.corpus.clone());
        }
    }
    let mut out = HeadlineReport {
        corpora,
        pages: Vec::with_capacity(pages.len()),
        gold: Vec::with_capacity(pages.len()),
        finders: finders
            .iter()
            .map(|(f, p)| FinderResult {
                name: f.name().to_string(),
                params: p.clone(),
                results: Vec::with_capacity(pages.len()),
            })
            .collect(),
        wall_seconds: 0.0,
    };
    for (info, gold, results) in per_page {
        out.pages.push(info);
        out.gold.push(gold);
        for (f, r) in out.finders.iter_mut().zip(results) {
            f.results.push(r);
        }
    }
    out.wall_seconds = t0.elapsed().as_secs_f64();
    out
}

fn eval_page(
    ep: &EvalPage,
    finders: &[(Arc<dyn HeadlineFinder>, Params)],
    opts: &DecodeOptions,
) -> (PageInfo, String, Vec<HeadlineResult>) {
    let gold = normalize_ws(ep.gold.headline.as_deref().unwrap_or(""));
    let t = Instant::now();
    let loaded = Page::load(Path::new(&ep.path), opts);
    let mut info = PageInfo::of(ep, t.elapsed().as_secs_f64() * 1e3);
    let results = match loaded {
        Ok(page) => {
            info.bytes = page.raw().len();
            finders
                .iter()
                .map(|(f, params)| {
                    let t = Instant::now();
                    let h = f.run(&page, params);
                    let run_ms = t.elapsed().as_secs_f64() * 1e3;
                    let found = h.best().map(|c| c.text.clone());
                    score(found, &gold, run_ms)
                })
                .collect()
        }
        Err(e) => {
            info.error = Some(crate::error::report(&e));
            finders.iter().map(|_| score(None, &gold, 0.0)).collect()
        }
    };
    (info, gold, results)
}

/// Scores one found headline (already white-space normalised) against the normalised gold.
pub fn score(found: Option<String>, gold: &str, run_ms: f64) -> HeadlineResult {
    let exact = found.as_deref().is_some_and(|f| normalize_ws(f) == gold);
    let word_f1 = found.as_deref().map_or(0.0, |f| word_prf(f, gold).f1);
    HeadlineResult {
        found,
        exact,
        word_f1,
        run_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_5_3_counts_and_formulas_5_4_5_5() {
        // Four pages: one exact (A), one wrong (B and C), one with nothing (C), one exact after
        // white-space normalisation (A). A = 2, B = 1, C = 2: recall = 2/4, precision = 2/3,
        // F1 = 2 · (2/3) · (1/2) / (2/3 + 1/2) = (2/3) / (7/6) = 4/7.
        let rs = [
            score(Some("Rain in Spain".into()), "Rain in Spain", 0.0),
            score(Some("Daily News".into()), "Rain in Spain", 0.0),
            score(None, "Rain in Spain", 0.0),
            score(Some("Rain  in\nSpain".into()), "Rain in Spain", 0.0),
        ];
        let s = summarize(&rs);
        assert_eq!((s.pages, s.a, s.b, s.c), (4, 2, 1, 2));
        assert!((s.recall - 0.5).abs() < 1e-12);
        assert!((s.precision - 2.0 / 3.0).abs() < 1e-12);
        assert!((s.f1 - 4.0 / 7.0).abs() < 1e-12);
        // Word F1: 1, 0 (no common word), 0 (nothing), 1 → mean 0.5.
        assert!((s.word_f1 - 0.5).abs() < 1e-12);
        // Case is not normalised.
        assert!(!score(Some("rain in spain".into()), "Rain in Spain", 0.0).exact);
        let empty = summarize(&[]);
        assert_eq!((empty.f1, empty.word_f1), (0.0, 0.0));
    }
}
