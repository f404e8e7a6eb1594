//! Model files: one JSON document per trained model, versioned, written atomically, and
//! byte-identical when the same training runs twice (with any number of threads).
//!
//! ```json
//! {
//!   "schema": 1,
//!   "method": "shallow",
//!   "features": ["curr_num_words", "curr_avg_word_length", …],
//!   "training": {
//!     "corpora": [{"name": "scrapinghub-dev", "pages": 98, "sites": 97, "licence": "MIT"}, …],
//!     "seed": 1, "folds": 5
//!   },
//!   "cv": {"folds": 5, "rows": [{"corpus": "wcxb-dev", "page_type": "article", "pages": 301,
//!          "precision": 0.91, "recall": 0.86, "f1": 0.86}, …]},
//!   "loco": {"folds": 3, "rows": [ … the same rows, each corpus scored by the model that
//!            never saw it … ]},
//!   "cescope_version": "0.1.0",
//!   "threshold": 0.5,
//!   "body": { … the method's fitted model … }
//! }
//! ```
//!
//! `cv` is present when the model was trained with `--folds K` (word-LCS P / R / F1, macro
//! averages, per corpus and per page type, by cross-validation grouped by site); `loco` when it
//! was trained with `--folds corpus` (the same rows, by leave-one-corpus-out cross-validation:
//! `folds` is the number of corpora, each corpus's rows come from the model fitted on the
//! others). A stacked model whose member extractors are not the default ones
//! ([`crate::learn::stack::MEMBERS`]) names them in `members` (after `method`); a file without
//! `members` has the default ones. Files written before `loco` and `members` existed load
//! unchanged. Loading
//! ([`load`]) checks the schema, then the method (which must be registered,
//! [`crate::learn::methods`]), then the feature list (which must be the method's, name for
//! name); anything else is an [`Error::Model`] naming the file, never a panic.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::extract::Extractor;
use crate::fsio::write::{printable_path, write_bytes, WriteOptions};

/// The model-file schema this build reads and writes.
pub const SCHEMA: u32 = 1;

/// The largest model file read, in bytes (a decision tree or a weight vector is a few
/// kilobytes; a Naive Bayes token table some megabytes).
pub const MODEL_FILE_LIMIT: u64 = 256 << 20;

/// One model file (see the module documentation); `B` is the method's body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelFile<B> {
    /// Always [`SCHEMA`].
    pub schema: u32,
    /// The method's `--method` name.
    pub method: String,
    /// The member extractors whose verdicts are features (`--members`, the stacked method),
    /// when they are not the method's default ones; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub members: Option<Vec<String>>,
    /// The feature names, in the order of the method's rows.
    pub features: Vec<String>,
    /// What it was trained on.
    pub training: Training,
    /// The cross-validation figures, when trained with `--folds`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cv: Option<Figures>,
    /// The leave-one-corpus-out figures, when trained with `--folds corpus`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loco: Option<Figures>,
    /// The version of cescope that trained it.
    pub cescope_version: String,
    /// The default of the extractor's `threshold` parameter (probability of main content).
    pub threshold: f64,
    /// The method's fitted model.
    pub body: B,
}

/// The training record of a model file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Training {
    /// The training corpora, in the order given.
    pub corpora: Vec<CorpusRecord>,
    /// The seed of every random draw.
    pub seed: u64,
    /// `--folds`, when cross-validated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folds: Option<usize>,
    /// `--balance`, when not the default (`pages`): `corpora` ([`crate::learn::train::Balance`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balance: Option<String>,
    /// `--unlabelled`, when given: the unit kinds whose blocks the fit left unlabelled, so
    /// that a guideline decides them ([`crate::learn::Learner::with_unlabelled`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unlabelled: Option<Vec<String>>,
}

/// One training corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusRecord {
    /// Its name (the folder's).
    pub name: String,
    /// Pages trained on.
    pub pages: usize,
    /// Distinct sites among them.
    pub sites: usize,
    /// Its licence ([`crate::learn::data::licence_of`]).
    pub licence: String,
}

/// Scores of a model on pages it did not train on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// The number of folds (cross-validation; leave-one-corpus-out: the number of corpora) —
    /// 0 for a held-out test set.
    pub folds: usize,
    /// One row per corpus, then per (corpus, page type) where the corpus labels types.
    pub rows: Vec<ScoreRow>,
}

/// The macro averages (means of per-page values) of word-LCS precision, recall and F1 over a
/// group of pages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreRow {
    /// The corpus.
    pub corpus: String,
    /// The page type, for a per-type row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_type: Option<String>,
    /// Pages in the group.
    pub pages: usize,
    /// Mean precision.
    pub precision: f64,
    /// Mean recall.
    pub recall: f64,
    /// Mean F1.
    pub f1: f64,
}

/// What every model file starts with: read first, so that a file of another schema or method
/// is refused before its body is parsed.
#[derive(Debug, Deserialize)]
struct Header {
    schema: u32,
    method: String,
}

impl<B: Serialize> ModelFile<B> {
    /// The file's bytes: pretty JSON, fields in declaration order, a final newline. The same
    /// model gives the same bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = serde_json::to_vec_pretty(self).unwrap_or_default();
        v.push(b'\n');
        v
    }
}

/// Writes `bytes` to `path` atomically (a temporary file in `path`'s own folder, then a
/// rename: nothing is written outside that folder, an existing file is replaced whole or not
/// at all). Errors: [`Error::Write`].
pub fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    write_bytes(path, &WriteOptions::default(), bytes)?;
    Ok(())
}

fn model_error(file: &Path, message: impl Into<String>) -> Error {
    Error::Model {
        file: printable_path(file),
        message: message.into(),
    }
}

/// Reads the model file `path` (at most [`MODEL_FILE_LIMIT`] bytes, a regular file): the name
/// it goes by (the file's stem, `model` without one) and its bytes. Errors: [`Error::Model`].
pub fn read(path: &Path) -> Result<(String, Vec<u8>)> {
    let bytes = crate::fsio::read::read_regular(path, MODEL_FILE_LIMIT)
        .map_err(|e| model_error(path, e.to_string()))?;
    let name = path
        .file_stem()
        .map_or_else(|| "model".to_string(), |s| s.to_string_lossy().into_owned());
    Ok((name, bytes))
}

/// The `method` of model file `bytes`, once its header parses and its schema is
/// [`SCHEMA`] (`path` names the file in errors) — checked before the body is parsed, so a file
/// of another schema or method is named as such. Errors: [`Error::Model`].
pub fn method_of(path: &Path, bytes: &[u8]) -> Result<String> {
    let header: Header = serde_json::from_slice(bytes)
        .map_err(|e| model_error(path, format!("not a cescope model file: {e}")))?;
    if header.schema != SCHEMA {
        return Err(model_error(
            path,
            format!(
                "schema {} is not the schema this cescope reads ({SCHEMA}); retrain the model \
                 with this version (`cescope train`)",
                header.schema
            ),
        ));
    }
    Ok(header.method)
}

/// Loads the model file `path` as an extractor named after the file's stem ([`read`]), checks
/// the schema and the method, and lets the method check the features and build its extractor.
/// Errors: [`Error::Model`].
pub fn load(path: &Path) -> Result<std::sync::Arc<dyn Extractor>> {
    let (name, bytes) = read(path)?;
    load_bytes(path, &name, &bytes)
}

/// A model file's `bytes` as an extractor named `name` (`path` names the file in errors): checks
/// the schema and the method ([`method_of`]), and lets the method check the features and build
/// its extractor. What [`load`] does after reading, and how the shipped model (`learned`,
/// compiled in) loads. Errors: [`Error::Model`].
pub fn load_bytes(path: &Path, name: &str, bytes: &[u8]) -> Result<std::sync::Arc<dyn Extractor>> {
    let method_name = method_of(path, bytes)?;
    let method = crate::learn::find_method(&method_name).map_err(|_| {
        model_error(
            path,
            format!(
                "method {method_name:?} is not known to this cescope (known: {})",
                crate::learn::method_names().join(", ")
            ),
        )
    })?;
    method.load(path, name, bytes)
}

/// Parses a whole model file with the method's body type. Errors: [`Error::Model`].
pub fn parse_body<B: DeserializeOwned>(file: &Path, json: &[u8]) -> Result<ModelFile<B>> {
    let m: ModelFile<B> = serde_json::from_slice(json)
        .map_err(|e| model_error(file, format!("malformed model: {e}")))?;
    if !(0.0..=1.0).contains(&m.threshold) {
        return Err(model_error(
            file,
            format!("threshold {} is outside [0, 1]", m.threshold),
        ));
    }
    Ok(m)
}

/// Checks that a file's feature list is the method's, name for name. Errors: [`Error::Model`]
/// naming the first difference.
pub fn check_features(file: &Path, have: &[String], want: &[String]) -> Result<()> {
    if have == want {
        return Ok(());
    }
    let at = have
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(have.len().min(want.len()));
    Err(model_error(
        file,
        format!(
            "its {} features are not this cescope's {} for the method (first difference at \
             feature {}: {:?} in the file, {:?} here); retrain the model",
            have.len(),
            want.len(),
            at + 1,
            have.get(at).map_or("(none)", String::as_str),
            want.get(at).map_or("(none)", String::as_str),
        ),
    ))
}
