//! `trafilatura`: the reference extractor trafilatura (Barbaresi 2021, *Trafilatura: A Web
//! Scraping Library and Command-Line Tool for Text Discovery and Extraction*, ACL demos) through
//! its Rust port **rs-trafilatura** (MIT OR Apache-2.0). Its text output is aligned back to the
//! page by [`super::reference`].
//!
//! The crate runs on cescope's decoded text ([`crate::page::Page::text`]), so both see the same
//! characters. Parameters are the crate's options that change what is extracted, with the
//! crate's defaults: `favour` (`favor_precision` / `favor_recall`: the stricter or more lenient
//! content-score threshold), `comments` (`include_comments`: the comment section, appended to
//! the main text as trafilatura appends it) and `tables` (`include_tables`).

use super::reference::RefCrate;
use super::{ParamKind, ParamSpec, ParamValue, Params};

/// Precision / recall trade-off (`favor_precision`, `favor_recall`).
pub const FAVOUR: ParamSpec = ParamSpec {
    name: "favour",
    kind: ParamKind::Choice {
        choices: &["balanced", "precision", "recall"],
    },
    default: ParamValue::Choice("balanced"),
    help: "precision: stricter content scores (fewer false positives); recall: more lenient ones",
    source: "trafilatura favor_precision / favor_recall (Barbaresi 2021); rs-trafilatura Options",
};

/// Extract the comment section too (`include_comments`).
pub const COMMENTS: ParamSpec = ParamSpec {
    name: "comments",
    kind: ParamKind::Bool,
    default: ParamValue::Bool(false),
    help: "also extract the comment section (appended after the main text)",
    source: "trafilatura include_comments; rs-trafilatura Options (default false)",
};

/// Extract tables (`include_tables`).
pub const TABLES: ParamSpec = ParamSpec {
    name: "tables",
    kind: ParamKind::Bool,
    default: ParamValue::Bool(true),
    help: "keep the text of tables in the main content",
    source: "trafilatura include_tables; rs-trafilatura Options (default true)",
};

const SPECS: [ParamSpec; 3] = [FAVOUR, COMMENTS, TABLES];

/// rs-trafilatura as a [`RefCrate`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Trafilatura;

impl RefCrate for Trafilatura {
    fn name(&self) -> &'static str {
        "trafilatura"
    }

    fn describe(&self) -> &'static str {
        "reference: trafilatura (Barbaresi 2021) via rs-trafilatura, its text aligned to the page"
    }

    fn version(&self) -> &'static str {
        "rs-trafilatura 0.2.2"
    }

    fn licence(&self) -> &'static str {
        "MIT OR Apache-2.0"
    }

    fn params(&self) -> &'static [ParamSpec] {
        &SPECS
    }

    fn extract(&self, html: &str, params: &Params) -> Result<String, String> {
        let favour = params.choice(&FAVOUR);
        let opts = rs_trafilatura::Options {
            include_comments: params.bool(&COMMENTS),
            include_tables: params.bool(&TABLES),
            favor_precision: favour == "precision",
            favor_recall: favour == "recall",
            ..rs_trafilatura::Options::default()
        };
        let r = rs_trafilatura::extract_with_options(html, &opts).map_err(|e| e.to_string())?;
        let mut text = r.content_text;
        if opts.include_comments {
            if let Some(c) = r.comments_text.filter(|c| !c.trim().is_empty()) {
                text.push('\n');
                text.push_str(&c);
            }
        }
        Ok(text)
    }
}
