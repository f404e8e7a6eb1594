//! `readability`: the reference extractor Readability.js (Mozilla; Firefox's reader view)
//! through its Rust port **dom_smoothie** (MIT). Its text output is aligned back to the page by
//! [`super::reference`].
//!
//! The crate runs on cescope's decoded text ([`crate::page::Page::text`]) with its formatted
//! text mode (block boundaries become line breaks, so words of adjacent blocks never run
//! together) and Readability.js's candidate selection. Parameters, with Readability.js's
//! defaults: `char_threshold` (`charThreshold`: the fewest characters an article must have, else
//! the next, laxer attempt runs) and `top_candidates` (`nbTopCandidates`: how many top-scoring
//! candidates are compared when choosing the article's node).

use super::reference::{RefCrate, RefInfo};
use crate::extract::{ParamKind, ParamSpec, ParamValue, Params};
use std::borrow::Cow;

/// `charThreshold`.
pub const CHAR_THRESHOLD: ParamSpec = ParamSpec {
    name: Cow::Borrowed("char_threshold"),
    kind: ParamKind::Int {
        min: 0,
        max: 5000,
        step: 50,
    },
    default: ParamValue::Int(500),
    help: "fewest characters of an article; below it the next, laxer attempt runs",
    source: "Readability.js charThreshold (default 500); dom_smoothie Config::char_threshold",
};

/// `nbTopCandidates`.
pub const TOP_CANDIDATES: ParamSpec = ParamSpec {
    name: Cow::Borrowed("top_candidates"),
    kind: ParamKind::Int {
        min: 1,
        max: 50,
        step: 1,
    },
    default: ParamValue::Int(5),
    help: "number of top-scoring candidate nodes compared when choosing the article",
    source: "Readability.js nbTopCandidates (default 5); dom_smoothie Config::n_top_candidates",
};

crate::typed_params! {
    /// The dom_smoothie options cescope exposes.
    pub struct ReadabilityParams {
        /// `charThreshold`.
        pub char_threshold: i64 = CHAR_THRESHOLD,
        /// `nbTopCandidates`.
        pub top_candidates: i64 = TOP_CANDIDATES,
    }
}

static ABOUT: RefInfo = RefInfo {
    name: "readability",
    description:
        "reference: Readability.js (Mozilla) via dom_smoothie, its text aligned to the page",
    source: "Mozilla Readability.js, ported by dom_smoothie",
    version: "dom_smoothie 0.19.0",
    licence: "MIT",
    params: ReadabilityParams::SPECS,
};

/// dom_smoothie as a [`RefCrate`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Readability;

impl RefCrate for Readability {
    fn about(&self) -> &'static RefInfo {
        &ABOUT
    }

    fn extract(&self, html: &str, params: &Params) -> Result<String, String> {
        let p = ReadabilityParams::read(params);
        let cfg = dom_smoothie::Config {
            char_threshold: p.char_threshold.max(0) as usize,
            n_top_candidates: p.top_candidates.max(1) as usize,
            text_mode: dom_smoothie::TextMode::Formatted,
            ..dom_smoothie::Config::default()
        };
        let mut r =
            dom_smoothie::Readability::new(html, None, Some(cfg)).map_err(|e| e.to_string())?;
        let article = r.parse().map_err(|e| e.to_string())?;
        Ok(article.text_content.to_string())
    }
}
