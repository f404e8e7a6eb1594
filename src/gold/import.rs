//! Importing plain-text gold standards (the common Scrapinghub format) as byte ranges.
//!
//! The gold's `articleBody` is located in the page by the one text → selection alignment,
//! [`PageWords::locate`] (`page::locate`: the gold's words aligned to the page's content-text
//! words by an exact longest common subsequence, compacted into as few runs of consecutive page
//! words as possible, each run one range); the reference extractors locate their crates' text
//! output with the same function. Rendering the ranges gives back the matched words in order, so
//! a gold text whose words all occur in the page in order is reproduced word for word.

use super::Gold;
use crate::corpus::GoldText;
use crate::page::locate::PageWords;
use crate::page::Page;

/// How well a plain-text gold standard was located in its page ([`import_scrapinghub`]).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ImportStats {
    /// Word tokens of the gold's `articleBody` ([`crate::metrics::words`]).
    pub gold_words: usize,
    /// Word tokens of the page's content text.
    pub page_words: usize,
    /// Gold words located in the page (the LCS length).
    pub matched: usize,
    /// `matched / gold_words` (1.0 for an empty gold text).
    pub coverage: f64,
    /// Number of main-content ranges.
    pub ranges: usize,
    /// Word-LCS F1 between the gold headline and the located one; `None` when the gold has no
    /// headline, `Some(0.0)` when none was located (below 0.5).
    pub headline_f1: Option<f64>,
}

/// Imports a gold standard of the common Scrapinghub format ([`GoldText`]) for `page`: locates
/// the `articleBody` words in the page's content text (exact word-LCS alignment, case-folded
/// tokens as [`crate::metrics::words`]; see the module documentation) and sets the main content to the ranges
/// covering them; when `gt.headline` is set, the headline is the best matching window of one to
/// three consecutive virtual lines (word-LCS F1 at least 0.5; ties go to lines outside
/// `<title>`, then to the line nearest the main content), trimmed to its matched words.
///
/// The result is named `page_name`, carries `gt.url`, and is marked `draft` when some gold
/// words or the headline were not found; `notes` records the coverage.
///
/// Complexity: O(g·p/64) for g gold and p page words (about 4·g·p/64 word operations, linear
/// memory), plus O(p · headline words) for the headline. Pages of 30 000 words with 10 000
/// gold words take some tens of milliseconds in a release build.
pub fn import_scrapinghub(
    gt: &GoldText,
    page: &Page,
    page_name: &str,
    annotator: &str,
) -> (Gold, ImportStats) {
    let pw = PageWords::new(page);
    let located = pw.locate(&gt.article_body);
    let sel = located.selection.clone();
    let mut gold = Gold::new(page, annotator);
    gold.page = page_name.to_string();
    gold.url = gt.url.clone();
    let main_start = sel.ranges().first().map(|r| r.start);
    let n_ranges = sel.ranges().len();
    gold.set_main_content(page, sel);

    let mut headline_f1 = None;
    if let Some(h) = gt.headline.as_deref() {
        let found = pw.locate_headline(page, h, main_start);
        headline_f1 = Some(found.as_ref().map_or(0.0, |f| f.1));
        gold.set_headline(page, found.map(|f| f.0));
    }

    let (matched, gold_words) = (located.matched, located.text_words);
    let coverage = located.share();
    gold.draft = matched < gold_words || headline_f1.is_some_and(|f| f < 1.0);
    gold.notes = format!(
        "imported from the Scrapinghub format: {matched} of {} gold words located (coverage {coverage:.3}){}",
        gold_words,
        match headline_f1 {
            Some(f) if f < 0.5 => ", headline not found".to_string(),
            Some(f) if f < 1.0 => format!(", headline matched with F1 {f:.3}"),
            _ => String::new(),
        }
    );
    let stats = ImportStats {
        gold_words,
        page_words: located.page_words,
        matched,
        coverage,
        ranges: n_ranges,
        headline_f1,
    };
    (gold, stats)
}
