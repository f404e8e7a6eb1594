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

use super::reference::{RefCrate, RefInfo};
use crate::extract::Choice;
use crate::extract::{ParamKind, ParamSpec, ParamValue, Params};
use std::borrow::Cow;

/// Precision / recall trade-off (`favor_precision`, `favor_recall`).
pub const FAVOUR: ParamSpec = ParamSpec {
    name: Cow::Borrowed("favour"),
    kind: ParamKind::Choice {
        choices: <Favour as Choice>::NAMES,
    },
    default: ParamValue::choice("balanced"),
    help: "precision: stricter content scores (fewer false positives); recall: more lenient ones",
    source: "trafilatura favor_precision / favor_recall (Barbaresi 2021); rs-trafilatura Options",
};

/// Extract the comment section too (`include_comments`).
pub const COMMENTS: ParamSpec = ParamSpec {
    name: Cow::Borrowed("comments"),
    kind: ParamKind::Bool,
    default: ParamValue::Bool(false),
    help: "also extract the comment section (appended after the main text)",
    source: "trafilatura include_comments; rs-trafilatura Options (default false)",
};

/// Extract tables (`include_tables`).
pub const TABLES: ParamSpec = ParamSpec {
    name: Cow::Borrowed("tables"),
    kind: ParamKind::Bool,
    default: ParamValue::Bool(true),
    help: "keep the text of tables in the main content",
    source: "trafilatura include_tables; rs-trafilatura Options (default true)",
};

crate::choice_enum! {
    /// The precision / recall trade-off ([`FAVOUR`]).
    pub enum Favour {
        /// The crate's default thresholds.
        Balanced = "balanced",
        /// `favor_precision`.
        Precision = "precision",
        /// `favor_recall`.
        Recall = "recall",
    }
}

crate::typed_params! {
    /// The rs-trafilatura options cescope exposes.
    pub struct TrafilaturaParams {
        /// The precision / recall trade-off.
        pub favour: Favour = FAVOUR,
        /// `include_comments`.
        pub comments: bool = COMMENTS,
        /// `include_tables`.
        pub tables: bool = TABLES,
    }
}

static ABOUT: RefInfo = RefInfo {
    name: "trafilatura",
    description:
        "reference: trafilatura (Barbaresi 2021) via rs-trafilatura, its text aligned to the page",
    source: "Barbaresi 2021 (trafilatura), ported by rs-trafilatura",
    version: "rs-trafilatura 0.2.2",
    licence: "MIT OR Apache-2.0",
    params: TrafilaturaParams::SPECS,
};

/// rs-trafilatura as a [`RefCrate`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Trafilatura;

impl RefCrate for Trafilatura {
    fn about(&self) -> &'static RefInfo {
        &ABOUT
    }

    fn extract(&self, html: &str, params: &Params) -> Result<String, String> {
        let p = TrafilaturaParams::read(params);
        let opts = rs_trafilatura::Options {
            include_comments: p.comments,
            include_tables: p.tables,
            favor_precision: p.favour == Favour::Precision,
            favor_recall: p.favour == Favour::Recall,
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
