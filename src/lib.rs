//! cescope — main content extraction (MCE) from web pages: the library behind the `cescope` binary.
//!
//! The pipeline (see `docs/page-model.md`): raw bytes are decoded once ([`page::decode`]) into a
//! [`page::Page`], whose lexing and virtual lines are built lazily on first use. An
//! [`algorithms::Extractor`] maps a page and its parameters to an [`algorithms::Extraction`]: a
//! [`selection::Selection`] (byte ranges over the decoded UTF-8 text) and a
//! [`algorithms::Trace`] (the signals it computed on the way). Evaluation ([`eval`]) compares
//! selections rendered to text against gold standards with the word-sequence LCS measure
//! ([`metrics`], which also serves the gold importer).
//!
//! Cargo features, both on by default: `tui` (the inspector, module `tui`: ratatui, crossterm,
//! syntect) and `plots` (the SVG plots of `eval --report`: plotters). `cargo build
//! --no-default-features` gives the library and a CLI for batch use without them.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod algorithms;
pub mod batch;
pub mod bench;
pub mod config;
pub mod corpus;
pub mod error;
pub mod eval;
pub mod extractors;
pub mod fsio;
pub mod gold;
pub mod guideline;
pub mod lang;
pub mod learn;
pub mod metrics;
pub mod optimize;
pub mod page;
pub mod selection;
#[cfg(feature = "tui")]
pub mod tui;

pub use error::{Error, Result};

/// Headline finders (TitleFinder and the baselines, Mohammadzadeh 2013, chapter 5); they live
/// under [`algorithms`] because the DANA family's headline bound uses them.
pub use algorithms::headline;
