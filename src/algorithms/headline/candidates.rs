//! Headline candidates with features: the training and prediction view of a learned headline
//! ranker (issue 22, item 5). Every text fragment of the page's `body` that TitleFinder would
//! score ([`super::titlefinder::sentences`] with inline runs merged, so `<h1>Rain <em>again</em></h1>`
//! is one candidate) becomes one row of named numbers:
//!
//! - TitleFinder's three similarities to the `title` element (Mohammadzadeh 2013, 5.3.3:
//!   `cos_tf`, `cos_tfidf`, `osm`, Formula 5.2) and the candidate's rank by `cos_tf` among the
//!   page's candidates (`tf_rank`, 0 = TitleFinder's own pick);
//! - the cosine (tf) to `og:title` / `twitter:title` (`cos_og`, 0 without one) and whether the
//!   candidate's text equals it (`og_equal`, case-insensitive after white-space normalisation);
//! - whether the `title` text starts with / contains the candidate's text (`title_prefix`,
//!   `title_contains`: titles are often "Headline | Site");
//! - the enclosing heading (`heading` 1–6, 0 none), `first_of_level` (1 for the first candidate
//!   in a heading of the page's highest heading level — the `largest` baseline of 5.4.3),
//!   emphasis (`emphasis`: inside `b`, `strong`, `em`, `i`), inside a link (`in_link`), a
//!   `class` / `id` naming a title / headline within three ancestors (`class_title`, the
//!   keyword group of [`crate::page::blocks::keywords`]), inside `header` / `nav` / `footer` /
//!   `aside` (`in_chrome`), inside `article` / `main` (`in_article`);
//! - size and place: `words`, `position` (candidate index / candidates), `byte_position`
//!   (first byte / text length), `candidates` (on the page).
//!
//! Besides the body's fragments, the `title` element is a candidate as a whole and in its parts
//! split at a site-name separator (` | `, ` - `, ` – `, ` — `, ` :: `, ` · `, ` » `, ` / `): gold
//! headlines are often the `title` without the site's name ("Rain in Spain | Daily News").
//! Those rows come first (the `title` is in `<head>`), flagged `title_whole` / `title_part` with
//! the part's index and the number of parts; their `cos_tf` is their cosine to the whole title,
//! their `cos_tfidf` and `osm` are 0 (TitleFinder's idf is over the body's fragments only).
//!
//! The features are cescope's (the thesis' TitleFinder uses only the similarity); the learned
//! ranker that scores rows lives in the learning module. O(text + Σ candidates · depth).

use std::sync::LazyLock;

use super::titlefinder::{score, sentences, Analyzer, Sentence};
use crate::extract::headline::{normalize_ws, text_range, title_element};
use crate::page::blocks::keywords::{keyword_mask, KEYWORD_GROUPS};
use crate::page::dom::{Dom, NodeId, NodeKind};
use crate::page::Page;

/// The feature names, in row order (see the module documentation).
pub const FEATURES: &[&str] = &[
    "cos_tf",
    "cos_tfidf",
    "osm",
    "tf_rank",
    "cos_og",
    "og_equal",
    "title_prefix",
    "title_contains",
    "heading",
    "first_of_level",
    "emphasis",
    "in_link",
    "class_title",
    "in_chrome",
    "in_article",
    "words",
    "position",
    "byte_position",
    "candidates",
    "title_whole",
    "title_part",
    "title_part_index",
    "title_parts",
];

/// The separators a `title` is split at into parts (site name, section, headline).
pub const TITLE_SEPARATORS: &[&str] = &[" | ", " - ", " – ", " — ", " :: ", " · ", " » ", " / "];

/// One headline candidate: its text fragment and its features ([`FEATURES`] order).
#[derive(Debug, Clone, PartialEq)]
pub struct CandidateRow {
    /// The fragment (byte range over the decoded text, its text as in the source, its node).
    pub sentence: Sentence,
    /// The candidate's text, white space normalised ([`normalize_ws`]).
    pub text: String,
    /// The features, [`FEATURES`] order.
    pub features: Vec<f64>,
}

/// The bit of the `title` keyword group ([`KEYWORD_GROUPS`]).
static TITLE_GROUP: LazyLock<u64> = LazyLock::new(|| {
    KEYWORD_GROUPS
        .iter()
        .position(|(g, _)| *g == "title")
        .map_or(0, |g| 1 << g)
});

/// The content of the first `<meta property|name="og:title">` (or, without one,
/// `twitter:title`), white space normalised; `None` when absent or empty.
pub fn og_title(page: &Page) -> Option<String> {
    let dom = page.dom();
    let find = |key: &str| {
        dom.elements().find_map(|(id, _)| {
            dom.meta_content(id, key)
                .map(normalize_ws)
                .filter(|c| !c.is_empty())
        })
    };
    find("og:title").or_else(|| find("twitter:title"))
}

/// The `title` element's candidates: the whole title, then (when it holds a separator,
/// [`TITLE_SEPARATORS`]) each of its parts, trimmed; byte ranges over the decoded text, texts
/// rendered from them ([`Page::render`]). Empty without a `title` holding text.
pub fn title_candidates(page: &Page) -> Vec<Sentence> {
    let Some(id) = title_element(page) else {
        return Vec::new();
    };
    let Some(whole) = text_range(page, id) else {
        return Vec::new();
    };
    let make = |r: std::ops::Range<usize>| Sentence {
        text: page.render(&crate::selection::Selection::from_ranges([r.clone()])),
        range: r,
        node: id,
    };
    let src = &page.text()[whole.clone()];
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    for sep in TITLE_SEPARATORS {
        cuts.extend(src.match_indices(sep).map(|(at, m)| (at, at + m.len())));
    }
    cuts.sort_unstable();
    let mut out = vec![make(whole.clone())];
    if cuts.is_empty() {
        return out;
    }
    let mut from = 0;
    for (a, b) in cuts.into_iter().chain([(src.len(), src.len())]) {
        if a < from {
            continue; // overlapping separators (" - " inside " -- ")
        }
        let part = &src[from..a];
        let lead = part.len() - part.trim_start().len();
        let core = part.trim();
        if !core.is_empty() {
            let start = whole.start + from + lead;
            out.push(make(start..start + core.len()));
        }
        from = b;
    }
    out.retain(|s| s.text.chars().any(crate::metrics::is_word_char));
    out
}

/// The candidates of `page` with their features: the `title`'s ([`title_candidates`]), then
/// the body's fragments in document order. Empty when the page has neither.
pub fn candidates(page: &Page) -> Vec<CandidateRow> {
    let dom = page.dom();
    let frags = sentences(page, true);
    let titles = title_candidates(page);
    if frags.is_empty() && titles.is_empty() {
        return Vec::new();
    }
    let analyzer = Analyzer::new(None, false, false);
    let terms: Vec<Vec<String>> = frags.iter().map(|s| analyzer.terms(&s.text)).collect();
    let title = title_element(page)
        .map(|id| normalize_ws(&dom.text(id)))
        .unwrap_or_default();
    let by_title = score(&analyzer.terms(&title), &terms);
    let og = og_title(page);
    let by_og = og
        .as_deref()
        .map(|o| score(&analyzer.terms(o), &terms).cos_tf);

    // Rank by cos_tf, best first, ties in document order (TitleFinder's ranking).
    let mut order: Vec<usize> = (0..frags.len()).collect();
    order.sort_by(|&a, &b| {
        by_title.cos_tf[b]
            .total_cmp(&by_title.cos_tf[a])
            .then(a.cmp(&b))
    });
    let mut rank = vec![0usize; frags.len()];
    for (r, &j) in order.iter().enumerate() {
        rank[j] = r;
    }

    let places: Vec<Place> = frags.iter().map(|s| Place::of(dom, s.node)).collect();
    let top_level = places
        .iter()
        .filter(|p| p.heading > 0)
        .map(|p| p.heading)
        .min();
    let first_top = top_level.and_then(|l| places.iter().position(|p| p.heading == l));

    let title_lc = title.to_lowercase();
    let og_lc = og.as_deref().map(str::to_lowercase);
    let n = frags.len();
    let text_len = page.text().len().max(1);
    let query = analyzer.terms(&title);
    let parts = titles.len().saturating_sub(1);
    let mut rows: Vec<CandidateRow> = titles
        .into_iter()
        .enumerate()
        .map(|(k, sentence)| {
            let text = normalize_ws(&sentence.text);
            let t = analyzer.terms(&text);
            let single = std::slice::from_ref(&t);
            let cos = score(&query, single).cos_tf[0];
            let cos_og = og
                .as_deref()
                .map_or(0.0, |o| score(&analyzer.terms(o), single).cos_tf[0]);
            let lc = text.to_lowercase();
            let mut features = vec![0.0; FEATURES.len()];
            let mut set = |name: &str, v: f64| {
                if let Some(i) = FEATURES.iter().position(|f| *f == name) {
                    features[i] = v;
                }
            };
            set("cos_tf", cos);
            set("tf_rank", n as f64);
            set("cos_og", cos_og);
            set("og_equal", flag(og_lc.as_deref() == Some(lc.as_str())));
            set("title_prefix", flag(title_lc.starts_with(&lc)));
            set("title_contains", 1.0);
            set("words", t.len() as f64);
            set(
                "byte_position",
                sentence.range.start as f64 / text_len as f64,
            );
            set("candidates", n as f64);
            set("title_whole", flag(k == 0));
            set("title_part", flag(k > 0));
            set("title_part_index", k.saturating_sub(1) as f64);
            set("title_parts", parts as f64);
            CandidateRow {
                sentence,
                text,
                features,
            }
        })
        .collect();
    rows.extend(frags.into_iter().enumerate().map(|(j, sentence)| {
        let text = normalize_ws(&sentence.text);
        let lc = text.to_lowercase();
        let p = places[j];
        let features = vec![
            by_title.cos_tf[j],
            by_title.cos_tfidf[j],
            by_title.osm[j],
            rank[j] as f64,
            by_og.as_ref().map_or(0.0, |v| v[j]),
            flag(og_lc.as_deref() == Some(lc.as_str())),
            flag(!lc.is_empty() && title_lc.starts_with(&lc)),
            flag(!lc.is_empty() && title_lc.contains(&lc)),
            f64::from(p.heading),
            flag(first_top == Some(j)),
            flag(p.emphasis),
            flag(p.in_link),
            flag(p.class_title),
            flag(p.in_chrome),
            flag(p.in_article),
            terms[j].len() as f64,
            j as f64 / n as f64,
            sentence.range.start as f64 / text_len as f64,
            n as f64,
            0.0,
            0.0,
            0.0,
            0.0,
        ];
        CandidateRow {
            sentence,
            text,
            features,
        }
    }));
    rows
}

fn flag(b: bool) -> f64 {
    f64::from(u8::from(b))
}

/// Where a candidate's node sits in the DOM.
#[derive(Debug, Clone, Copy, Default)]
struct Place {
    heading: u8,
    emphasis: bool,
    in_link: bool,
    class_title: bool,
    in_chrome: bool,
    in_article: bool,
}

impl Place {
    /// Walks up from `id` (a text node or the block of an inline run).
    fn of(dom: &Dom, id: NodeId) -> Place {
        let mut p = Place::default();
        let mut level = 0usize;
        let mut cur = Some(id);
        while let Some(e) = cur {
            if dom.kind(e) == NodeKind::Element {
                let name = dom.tag_name(e).unwrap_or("");
                match name {
                    "h1" | "h2" | "h3" | "h4" | "h5" | "h6" if p.heading == 0 => {
                        p.heading = name.as_bytes()[1] - b'0';
                    }
                    "b" | "strong" | "em" | "i" => p.emphasis = true,
                    "a" => p.in_link = true,
                    "header" | "nav" | "footer" | "aside" => p.in_chrome = true,
                    "article" | "main" => p.in_article = true,
                    _ => {}
                }
                if level < 3 && !p.class_title {
                    p.class_title = ["class", "id"].iter().any(|a| {
                        dom.attr(e, a).is_some_and(|v| {
                            v.split(|c: char| !c.is_ascii_alphanumeric())
                                .filter(|w| !w.is_empty())
                                .any(|w| keyword_mask(&w.to_ascii_lowercase()) & *TITLE_GROUP != 0)
                        })
                    });
                }
                level += 1;
            }
            cur = dom.parent(e);
        }
        p
    }
}

/// The index of the candidate whose text equals `gold` after white-space normalisation (the
/// exact match of Mohammadzadeh 2013, Table 5.3), the first of equals; `None` when no
/// candidate is the gold headline.
pub fn gold_candidate(rows: &[CandidateRow], gold: &str) -> Option<usize> {
    let g = normalize_ws(gold);
    rows.iter().position(|r| r.text == g)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feature(row: &CandidateRow, name: &str) -> f64 {
        row.features[FEATURES.iter().position(|f| *f == name).unwrap()]
    }

    #[test]
    fn a_hand_made_page_gives_the_features_by_hand() {
        let page = Page::from_text(
            "t.html",
            "<html><head><title>Rain in Spain | Daily News</title>\
             <meta property='og:title' content='Rain in  Spain'></head><body>\
             <nav><a href=/>Daily News</a></nav>\
             <article><h1 class=entry-title>Rain in <em>Spain</em></h1>\
             <p>It rains <b>a lot</b> in Spain today.</p></article>\
             <footer><h2>More news</h2></footer></body></html>",
        );
        let all = candidates(&page);
        let texts: Vec<&str> = all.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Rain in Spain | Daily News",
                "Rain in Spain",
                "Daily News",
                "Daily News",
                "Rain in Spain",
                "It rains a lot in Spain today.",
                "More news"
            ]
        );
        // The title and its two parts.
        assert_eq!(feature(&all[0], "title_whole"), 1.0);
        assert_eq!(feature(&all[0], "title_parts"), 2.0);
        assert_eq!(feature(&all[2], "title_part"), 1.0);
        assert_eq!(feature(&all[2], "title_part_index"), 1.0);
        assert_eq!(feature(&all[1], "og_equal"), 1.0);
        assert_eq!(feature(&all[1], "tf_rank"), 4.0);
        assert_eq!(&page.text()[all[2].sentence.range.clone()], "Daily News");
        let rows = &all[3..];
        let h = &rows[1];
        // Query "rain in spain daily news" (5 terms) against "rain in spain" (3 terms, each
        // once): cos = 3 / (√5 · √3).
        assert!((feature(h, "cos_tf") - 3.0 / (5f64.sqrt() * 3f64.sqrt())).abs() < 1e-9);
        assert_eq!(feature(h, "tf_rank"), 0.0);
        assert!((feature(h, "cos_og") - 1.0).abs() < 1e-9);
        assert_eq!(feature(h, "og_equal"), 1.0);
        assert_eq!(feature(h, "title_prefix"), 1.0);
        assert_eq!(feature(h, "heading"), 1.0);
        assert_eq!(feature(h, "first_of_level"), 1.0);
        assert_eq!(feature(h, "class_title"), 1.0);
        assert_eq!(feature(h, "in_article"), 1.0);
        assert_eq!(feature(h, "in_chrome"), 0.0);
        assert_eq!(feature(h, "words"), 3.0);
        assert_eq!(feature(h, "position"), 0.25);
        assert_eq!(feature(h, "candidates"), 4.0);
        // "Daily News": in the title but not its start, in a link inside <nav>.
        let d = &rows[0];
        assert_eq!(feature(d, "title_prefix"), 0.0);
        assert_eq!(feature(d, "title_contains"), 1.0);
        assert_eq!(feature(d, "in_link"), 1.0);
        assert_eq!(feature(d, "in_chrome"), 1.0);
        // The h2 in the footer: a heading, not of the highest level.
        let m = &rows[3];
        assert_eq!(feature(m, "heading"), 2.0);
        assert_eq!(feature(m, "first_of_level"), 0.0);
        assert_eq!(gold_candidate(rows, " Rain in\nSpain "), Some(1));
        assert_eq!(gold_candidate(&all, " Rain in\nSpain "), Some(1));
        assert_eq!(gold_candidate(&all, "Snow"), None);
        assert_eq!(feature(h, "title_whole") + feature(h, "title_part"), 0.0);
    }

    #[test]
    fn no_body_text_no_candidates_and_twitter_title_stands_in() {
        assert!(candidates(&Page::from_text("t", "<p>-</p>")).is_empty());
        let only_title = candidates(&Page::from_text("t", "<title>x</title>"));
        assert_eq!(only_title.len(), 1);
        assert_eq!(only_title[0].text, "x");
        let page = Page::from_text(
            "t",
            "<head><meta name=twitter:title content='A b'></head><body><p>A b</p></body>",
        );
        assert_eq!(og_title(&page).as_deref(), Some("A b"));
        assert_eq!(feature(&candidates(&page)[0], "og_equal"), 1.0);
    }
}
