//! cescope — main content extraction (MCE) from web pages: the library behind the `cescope` binary.
//!
//! The pipeline (see `docs/page-model.md`): raw bytes are decoded once ([`page::decode`]) into a
//! [`page::Page`], whose lexing and virtual lines are built lazily on first use. An
//! [`extract::Extractor`] maps a page and its parameters to an [`extract::Extraction`]: a
//! [`selection::Selection`] (byte ranges over the decoded UTF-8 text) and a
//! [`extract::Trace`] (the signals it computed on the way). The algorithms are in
//! [`algorithms`], the learned methods in [`learn`], and [`extractors`] is the one registry of
//! every extractor and headline finder a user can name. Evaluation ([`eval`]) compares
//! selections rendered to text against gold standards with the word-sequence LCS measure
//! ([`metrics`], which also serves the gold importer).
//!
//! Cargo features: `tui` (the inspector, module `tui`: ratatui, crossterm, syntect) and `plots`
//! (the SVG plots of `eval --report`: plotters), on by default — `cargo build
//! --no-default-features` gives the library and a CLI for batch use without them — and
//! `reference`, opt-in: the reference extractors `trafilatura` (rs-trafilatura) and
//! `readability` (dom_smoothie).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod algorithms;
pub mod batch;
pub mod bench;
pub mod config;
pub mod corpus;
pub mod error;
pub mod eval;
pub mod extract;
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
