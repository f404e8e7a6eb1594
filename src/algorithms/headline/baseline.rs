//! The two baselines of Mohammadzadeh (2013), section 5.4.3.
//!
//! - `title` ([`TitleElement`]): the content of the `title` element is taken as the headline,
//!   as is (white space normalised).
//! - `largest` ([`Largest`]): "the first encounter of the highest order headline element": the
//!   first element of the smallest heading level `h1`…`h6` present on the page. cescope's choice
//!   where the thesis is silent: headings without any text (a logo `<h1><img></h1>`) are passed
//!   over, as they cannot be a headline; the other headings follow as lower-ranked candidates
//!   (level first, then document order), scored `7 − level` (h1 = 6, h6 = 1).

use crate::extract::headline::{
    normalize_ws, text_range, title_element, Candidate, HeadlineFinder, Headlines,
};
use crate::extract::trace::{Marks, Phase, Positions, Role, Series, Unit};
use crate::extract::{AlgoInfo, StaticInfo, NO_PARAMS};
use crate::extract::{Params, Trace};
use crate::page::Page;
use std::borrow::Cow;

/// Baseline: the `title` element as the headline (Mohammadzadeh 2013, 5.4.3).
#[derive(Debug, Clone, Copy, Default)]
pub struct TitleElement;

/// Baseline: the first highest-order heading `h1`–`h6` (Mohammadzadeh 2013, 5.4.3).
#[derive(Debug, Clone, Copy, Default)]
pub struct Largest;

const TITLE_PHASES: &[Phase] = &[Phase::new(
    "title",
    "the text of the first title element is the headline (5.4.3)",
    &["headline"],
)];

static TITLE_INFO: AlgoInfo = AlgoInfo {
    name: Cow::Borrowed("title"),
    description: Cow::Borrowed(
        "baseline: the title element's text as the headline (Mohammadzadeh 2013, 5.4.3)",
    ),
    source: Cow::Borrowed("Mohammadzadeh 2013, 5.4.3"),
    params: Cow::Borrowed(NO_PARAMS),
    phases: Cow::Borrowed(TITLE_PHASES),
    needs_dom: false,
};

impl StaticInfo for TitleElement {
    const INFO: &'static AlgoInfo = &TITLE_INFO;
}

impl HeadlineFinder for TitleElement {
    /// One candidate with score 1 (none when there is no `title` element or it holds no text);
    /// trace: marks `headline` (selected, bytes).
    fn run(&self, page: &Page, _params: &Params) -> Headlines {
        let found = title_element(page).and_then(|id| {
            let text = normalize_ws(&page.dom().text(id));
            let range = text_range(page, id)?;
            (!text.is_empty()).then_some(Candidate {
                score: 1.0,
                range,
                text,
                node: id,
            })
        });
        let marks = found.iter().map(|c| c.range.clone()).collect();
        Headlines {
            candidates: found.into_iter().collect(),
            trace: Trace {
                marks: vec![Marks::new(
                    "headline",
                    "the title element",
                    Unit::Byte,
                    Role::Selected,
                    marks,
                )],
                ..Default::default()
            },
        }
    }
}

const LARGEST_PHASES: &[Phase] = &[
    Phase::new(
        "headings",
        "the h1-h6 elements with text, with their level",
        &["level"],
    ),
    Phase::new(
        "largest",
        "the first element of the highest order is the headline (5.4.3)",
        &["headline"],
    ),
];

static LARGEST_INFO: AlgoInfo = AlgoInfo {
    name: Cow::Borrowed("largest"),
    description: Cow::Borrowed(
        "baseline: the first highest-order heading h1-h6 with text (Mohammadzadeh 2013, 5.4.3)",
    ),
    source: Cow::Borrowed("Mohammadzadeh 2013, 5.4.3"),
    params: Cow::Borrowed(NO_PARAMS),
    phases: Cow::Borrowed(LARGEST_PHASES),
    needs_dom: false,
};

impl StaticInfo for Largest {
    const INFO: &'static AlgoInfo = &LARGEST_INFO;
}

impl HeadlineFinder for Largest {
    /// Candidates: every heading with text, level first then document order; trace (node unit =
    /// those headings in document order, positioned by their text): series `level` (info),
    /// marks `headline` (selected).
    fn run(&self, page: &Page, _params: &Params) -> Headlines {
        let dom = page.dom();
        let mut heads: Vec<(usize, Candidate)> = Vec::new();
        for (id, _) in dom.elements() {
            let level = match dom.tag_name(id) {
                Some("h1") => 1,
                Some("h2") => 2,
                Some("h3") => 3,
                Some("h4") => 4,
                Some("h5") => 5,
                Some("h6") => 6,
                _ => continue,
            };
            if !dom.is_html_element(id) {
                continue;
            }
            let text = normalize_ws(&dom.text(id));
            let Some(range) = text_range(page, id) else {
                continue;
            };
            if text.is_empty() {
                continue;
            }
            heads.push((
                level,
                Candidate {
                    score: (7 - level) as f64,
                    range,
                    text,
                    node: id,
                },
            ));
        }
        let positions = heads.iter().map(|(_, c)| c.range.clone()).collect();
        let levels = heads.iter().map(|(l, _)| *l as f64).collect();
        let mut order: Vec<usize> = (0..heads.len()).collect();
        order.sort_by_key(|&i| (heads[i].0, i));
        let selected = order.iter().take(1).map(|&i| i..i + 1).collect();
        let candidates = order.iter().map(|&i| heads[i].1.clone()).collect();
        Headlines {
            candidates,
            trace: Trace {
                series: vec![Series::new(
                    "level",
                    "heading level (1 = h1)",
                    Unit::Node,
                    Role::Info,
                    levels,
                )],
                marks: vec![Marks::new(
                    "headline",
                    "the first highest-order heading",
                    Unit::Node,
                    Role::Selected,
                    selected,
                )],
                positions: vec![Positions {
                    unit: Unit::Node,
                    ranges: positions,
                }],
                ..Default::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn title_is_the_title_element_as_is() {
        let page = Page::from_text(
            "t",
            "<head><title>\n  Flood hits town |\n Daily News </title></head><h1>Flood hits town</h1>",
        );
        let h = TitleElement.run(&page, &Params::default());
        assert_eq!(h.candidates.len(), 1);
        assert_eq!(h.best().unwrap().text, "Flood hits town | Daily News");
        assert!(page.text()[h.best().unwrap().range.clone()].contains("Daily News"));
        h.trace.validate(&page).unwrap();
        assert!(TitleElement
            .run(&Page::from_text("t", "<p>x</p>"), &Params::default())
            .candidates
            .is_empty());
    }

    #[test]
    fn largest_is_the_first_highest_order_heading_with_text() {
        // The h1 logo has no text; the first h2 precedes the second h1.
        let page = Page::from_text(
            "t",
            "<h1><img src=logo.png></h1><h2>Site news</h2><h3>Aside</h3><h1>The <i>real</i> headline</h1><h1>Second</h1>",
        );
        let h = Largest.run(&page, &Params::default());
        let texts: Vec<&str> = h.candidates.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["The real headline", "Second", "Site news", "Aside"]);
        assert_eq!(h.best().unwrap().score, 6.0);
        // Node unit = headings in document order: Site news, Aside, The real headline, Second.
        assert_eq!(h.trace.marks("headline").unwrap().spans, vec![2..3]);
        assert_eq!(
            h.trace.series("level").unwrap().values,
            [2.0, 3.0, 1.0, 1.0]
        );
        h.trace.validate(&page).unwrap();
        assert!(Largest
            .run(&Page::from_text("t", "<p>x</p>"), &Params::default())
            .candidates
            .is_empty());
    }
}
