//! Active learning: the pages a learned model is least sure about, so that an annotator
//! reviews those first (uncertainty sampling, Lewis & Gale 1994) and the next model learns
//! the most from the next gold files.
//!
//! A page's **uncertainty** under an extractor with a per-block probability signal
//! ([`crate::extract::Capabilities::block_probability`]: a learned block classifier's `p`, one probability of main
//! content per atomic text block) is the mean over the page's blocks, weighted by the blocks'
//! words, of how near each block's probability sits to 0.5:
//!
//! ```text
//! U = Σ_b w_b · (1 − 2·|p_b − 0.5|) / Σ_b w_b        w_b = words of block b
//! ```
//!
//! A block's term is 1 at `p = 0.5` (the model cannot tell) and 0 at `p = 0` or `1` (it is
//! sure), so `U` is in `[0, 1]`: the share of the page's words whose block the model cannot
//! decide, counted linearly. Weighting by words keeps a page's many one-word blocks (menu
//! items, bylines) from outweighing its paragraphs; on a page whose blocks have no words at
//! all, each block weighs 1.
//!
//! [`uncertainty_order`] puts the pages nearest 0.5 first: highest `U` first, ties in page
//! order, and the pages without a value (the extractor has no probability signal there, or the
//! page cannot be read) after them, in their page order.

use std::path::PathBuf;

use crate::extract::{Extraction, Extractor, Params, Role, Unit};
use crate::page::{DecodeOptions, Page};

/// Where one page stands for the uncertainty order.
#[derive(Debug, Clone, PartialEq)]
pub enum PageUncertainty {
    /// The page's uncertainty `U`, in `[0, 1]` (formula in the [module docs](self)).
    Value(f64),
    /// The extractor gives no per-block probability on this page: it has no probability
    /// signal ([`crate::extract::Capabilities::block_probability`] is `None`), its series is not one probability
    /// per block in `[0, 1]`, or the page has no text blocks.
    NoSignal,
    /// The page could not be read or decoded: the error, reported.
    Unreadable(String),
}

impl PageUncertainty {
    /// The uncertainty, when the page has one.
    pub fn value(&self) -> Option<f64> {
        match self {
            PageUncertainty::Value(u) => Some(*u),
            _ => None,
        }
    }
}

/// The per-block probabilities of main content in the run `x` of extractor `e` on `page`: the
/// series [`crate::extract::Capabilities::block_probability`] names, when it is what that promises — role
/// [`Role::ContentSignal`], unit [`Unit::Node`], one value per block of [`Page::blocks`], every
/// value in `[0, 1]`. `None` otherwise (no signal, or a series that breaks the promise: never
/// a misread).
pub fn block_probabilities<'x>(
    e: &dyn Extractor,
    page: &Page,
    x: &'x Extraction,
) -> Option<&'x [f64]> {
    let s = x.trace.get(e.capabilities().block_probability?).ok()?;
    let ok = s.role == Role::ContentSignal
        && s.unit == Unit::Node
        && s.values.len() == page.blocks().len()
        && s.values.iter().all(|v| (0.0..=1.0).contains(v));
    ok.then_some(s.values.as_slice())
}

/// The uncertainty `U` of `page` from its blocks' probabilities `p` (one per block of
/// [`Page::blocks`], in block order, in `[0, 1]`): the word-weighted mean of
/// `1 − 2·|p − 0.5|` ([module docs](self)). `None` when the page has no blocks or `p` has
/// another length. O(blocks).
pub fn uncertainty_of(page: &Page, p: &[f64]) -> Option<f64> {
    let blocks = page.blocks();
    if blocks.is_empty() || p.len() != blocks.len() {
        return None;
    }
    let term = |pb: f64| 1.0 - 2.0 * (pb.clamp(0.0, 1.0) - 0.5).abs();
    let words: Vec<f64> = blocks
        .blocks()
        .iter()
        .map(|b| f64::from(b.features.words))
        .collect();
    let total: f64 = words.iter().sum();
    let u = if total > 0.0 {
        p.iter()
            .zip(&words)
            .map(|(&pb, &w)| w * term(pb))
            .sum::<f64>()
            / total
    } else {
        p.iter().map(|&pb| term(pb)).sum::<f64>() / p.len() as f64
    };
    Some(u.clamp(0.0, 1.0))
}

/// The uncertainty of `page` under extractor `e` with `params`: runs `e` (only when it has a
/// probability signal) and reads its per-block probabilities ([`block_probabilities`],
/// [`uncertainty_of`]). Never [`PageUncertainty::Unreadable`]. Costs one run of `e`.
pub fn page_uncertainty(e: &dyn Extractor, params: &Params, page: &Page) -> PageUncertainty {
    if e.capabilities().block_probability.is_none() {
        return PageUncertainty::NoSignal;
    }
    let x = e.run(page, params);
    block_probabilities(e, page, &x)
        .and_then(|p| uncertainty_of(page, p))
        .map_or(PageUncertainty::NoSignal, PageUncertainty::Value)
}

/// The uncertainty of each page file of `paths` under `e` with `params`, in order, one page
/// read (with `decode`) and dropped at a time: `each(i, result)` gets page `i`'s, and the
/// walk stops early when it returns false (the receiver went away). An unreadable page is
/// [`PageUncertainty::Unreadable`], and the walk goes on. An extractor without a probability
/// signal reads no page: every page is [`PageUncertainty::NoSignal`]. Runs on the calling
/// thread (the inspector calls it from a worker).
pub fn uncertainties(
    paths: &[PathBuf],
    e: &dyn Extractor,
    params: &Params,
    decode: &DecodeOptions,
    mut each: impl FnMut(usize, PageUncertainty) -> bool,
) {
    for (i, path) in paths.iter().enumerate() {
        let u = if e.capabilities().block_probability.is_none() {
            PageUncertainty::NoSignal
        } else {
            match Page::load(path, decode) {
                Ok(page) => page_uncertainty(e, params, &page),
                Err(err) => PageUncertainty::Unreadable(crate::error::report(&err)),
            }
        };
        if !each(i, u) {
            return;
        }
    }
}

/// The order of pages by uncertainty (indices into `values`, one per page, `None` for a page
/// without a value): nearest 0.5 first — highest uncertainty first, equal values in page
/// order — then the pages without a value in page order. O(n log n).
pub fn uncertainty_order(values: &[Option<f64>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    // A stable sort: ties keep page order.
    order.sort_by(|&a, &b| match (values[a], values[b]) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::{AlgoInfo, Algorithm, Capabilities, Key, Positions, Series, Trace};
    use crate::selection::Selection;

    /// An extractor whose `p` gives each block a fixed probability (test double).
    struct Fixed(Vec<f64>, Role);

    static INFO: AlgoInfo = AlgoInfo::new("fixed", "test double", "none", &[], &[]).with_dom();

    impl Algorithm for Fixed {
        fn info(&self) -> &AlgoInfo {
            &INFO
        }
    }

    impl Extractor for Fixed {
        fn run(&self, page: &Page, _params: &Params) -> Extraction {
            let blocks = page.blocks();
            Extraction {
                selection: Selection::new(),
                trace: Trace {
                    series: vec![Series::new("p", "p", Unit::Node, self.1, self.0.clone())],
                    positions: vec![Positions {
                        unit: Unit::Node,
                        ranges: blocks.blocks().iter().map(|b| b.extent.clone()).collect(),
                    }],
                    ..Trace::default()
                },
            }
        }
        fn capabilities(&self) -> Capabilities<'_> {
            Capabilities {
                block_probability: Some(Key::new("p")),
                ..Capabilities::default()
            }
        }
    }

    /// Three blocks of 1, 3 and 6 words.
    fn page() -> Page {
        Page::from_text(
            "t.html",
            "<html><body><div>one</div><p>two three four</p><p>five six seven eight nine ten</p></body></html>",
        )
    }

    #[test]
    fn uncertainty_is_the_word_weighted_mean_nearness_to_one_half() {
        let page = page();
        let words: Vec<u32> = page
            .blocks()
            .blocks()
            .iter()
            .map(|b| b.features.words)
            .collect();
        assert_eq!(words, [1, 3, 6]);
        // Terms 1 − 2|p − 0.5|: p 0.5 → 1, 0.75 → 0.5, 1.0 → 0. By hand: (1·1 + 3·0.5 + 6·0) / 10.
        let u = uncertainty_of(&page, &[0.5, 0.75, 1.0]).unwrap();
        assert!((u - 0.25).abs() < 1e-12, "{u}");
        // p 0 and 1 are certain; 0.25 and 0.75 are equally uncertain.
        assert_eq!(uncertainty_of(&page, &[0.0, 1.0, 0.0]), Some(0.0));
        assert_eq!(
            uncertainty_of(&page, &[0.25, 0.25, 0.25]),
            uncertainty_of(&page, &[0.75, 0.75, 0.75])
        );
        assert_eq!(uncertainty_of(&page, &[0.5; 2]), None, "wrong length");
        let e = Fixed(vec![0.5, 0.75, 1.0], Role::ContentSignal);
        let got = page_uncertainty(&e, &Params::default(), &page);
        assert!((got.value().unwrap() - 0.25).abs() < 1e-12, "{got:?}");
    }

    #[test]
    fn a_signal_that_is_not_one_probability_per_block_is_no_signal() {
        let page = page();
        let p = Params::default();
        for e in [
            Fixed(vec![0.5, 0.5], Role::ContentSignal),
            Fixed(vec![0.5, 1.5, 0.5], Role::ContentSignal),
            Fixed(vec![0.5, f64::NAN, 0.5], Role::ContentSignal),
            Fixed(vec![0.5, 0.5, 0.5], Role::Info),
        ] {
            assert_eq!(page_uncertainty(&e, &p, &page), PageUncertainty::NoSignal);
        }
        let danag = crate::algorithms::dana::DanaFamily::danag();
        assert_eq!(
            page_uncertainty(&danag, &p, &page),
            PageUncertainty::NoSignal
        );
        let empty = Page::from_text("e.html", "");
        let e = Fixed(Vec::new(), Role::ContentSignal);
        assert_eq!(page_uncertainty(&e, &p, &empty), PageUncertainty::NoSignal);
    }

    #[test]
    fn order_is_nearest_one_half_first_ties_and_no_values_in_page_order() {
        let v = [Some(0.2), None, Some(0.9), Some(0.2), None, Some(0.5)];
        assert_eq!(uncertainty_order(&v), [2, 5, 0, 3, 1, 4]);
        assert_eq!(uncertainty_order(&[]), Vec::<usize>::new());
    }

    #[test]
    fn unreadable_pages_are_reported_and_the_walk_can_stop() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("a.html");
        std::fs::write(&good, "<html><body><p>some words here</p></body></html>").unwrap();
        let paths = vec![dir.path().join("missing.html"), good.clone(), good];
        let e = Fixed(vec![0.5], Role::ContentSignal);
        let mut got = Vec::new();
        uncertainties(
            &paths,
            &e,
            &Params::default(),
            &DecodeOptions::default(),
            |i, u| {
                got.push((i, u));
                got.len() < 2
            },
        );
        assert_eq!(got.len(), 2, "stopped when asked");
        assert!(
            matches!(got[0].1, PageUncertainty::Unreadable(_)),
            "{got:?}"
        );
        assert_eq!(got[1], (1, PageUncertainty::Value(1.0)));
    }
}
