//! Learning from gold standards: the supervised methods of the thesis (Mohammadzadeh 2013,
//! sections 3.3.1.4 and 3.3.2), trained by `cescope train` on `ground-truth.json` corpora and
//! folders of cescope gold files, kept as versioned model files that load as extractors.
//!
//! The backbone every learned method plugs into:
//!
//! - [`data`]: the training pages (gold aligned to the page in the normal form), read and
//!   prepared **once** each, in parallel and in order, each method turning a page into its
//!   own compact per-page data ([`Learner::prepare`]) before the page is dropped.
//! - [`folds`]: k-fold cross-validation grouped by site, deterministic from a seed.
//! - [`model`]: the model file (schema 1): method, feature names, training corpora and their
//!   licences, cross-validation figures, cescope version, threshold, the method's body.
//! - [`train`]: the pipeline — prepare, cross-validate, fit on everything, score a test set,
//!   write the file — written once for every method ([`Learner`] through [`Method`]).
//! - [`classifier`]: a block classifier as an [`Extractor`]: per-block probability as its
//!   signal, a `threshold` parameter, per-block explanations.
//! - [`headline`]: the learned headline ranker — gradient-boosted trees over TitleFinder's
//!   featured headline candidates, labelled by the exact match of Table 5.3, and its
//!   cross-validation next to TitleFinder and the baselines (not a [`Learner`]: it ranks
//!   candidates, it extracts no content).
//! - [`reading`]: how to read a feature's value in words (`tag_h3 0`: inside an h3, a
//!   distance of 0 levels), for every explanation that prints one.
//! - [`active`]: active learning — each page's uncertainty under a model (its blocks'
//!   probabilities near 0.5, weighted by words) and the review order it gives.
//!
//! The methods, one file each, registered in [`methods`]: [`shallow`] (Kohlschütter et al.
//! 2010's shallow text features, a decision tree) and [`svm`] (the same features, a linear
//! SVM), [`mss`] (token-level Naive Bayes, Pasternack & Roth 2009), [`crf`] (a linear-chain
//! CRF over the block sequence, Gibson et al. 2007) and [`stack`] (gradient-boosted trees over
//! block features, DOM context and member extractors' verdicts, fitted through [`gbt`]).

pub mod active;
pub mod classifier;
pub mod context;
pub mod crf;
pub mod data;
pub mod folds;
// Shared with build.rs, which uses all of it; the library reads the fingerprint.
#[cfg_attr(not(test), allow(dead_code))]
mod forest_code;
pub mod gbt;
pub mod headline;
pub mod model;
pub mod mss;
pub mod reading;
pub mod shallow;
pub mod stack;
pub mod svm;
pub mod train;

use std::path::Path;
use std::sync::{Arc, LazyLock};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::extract::Extractor;
use crate::page::units::KindSet;
use crate::page::Page;
use crate::selection::Selection;

pub use model::{Figures, ModelFile, ScoreRow};
pub use train::{TrainJob, Trained};

/// What a learned method says about itself: its `--method` name, a one-line description and
/// the paper it implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MethodInfo {
    /// `--method NAME` and the `method` of its model files, lower case.
    pub name: &'static str,
    /// One line, with the source in parentheses.
    pub description: &'static str,
    /// The paper, section and algorithm it implements.
    pub source: &'static str,
    /// The crate that fits it, when that is not cescope's own code (`perpetual`, `crfs`,
    /// `linfa-trees`, `linfa-svm`): such a method trains only in a build with the `train`
    /// feature ([`CAN_FIT`]). `None`: fitted by cescope itself (`mss`).
    pub fitter: Option<&'static str>,
}

/// Does this build have the learner crates that fit models (Cargo feature `train`: perpetual,
/// crfs, linfa-trees, linfa-svm)? Without them every model file still loads and extracts
/// (cescope's own copy of its trees and weights runs it); only fitting is refused
/// ([`check_fitter`]). `cargo test` always has them; `cargo build` has them with
/// `--features train`.
pub const CAN_FIT: bool = cfg!(feature = "train");

/// `Ok` when a method fitted by the crate `fitter` (`None`: by cescope itself) can be trained in
/// a build that has the learners or not (`can_fit`, [`CAN_FIT`] for this build). Errors:
/// [`fitter_missing`].
pub fn check_fitter(method: &str, fitter: Option<&str>, can_fit: bool) -> Result<()> {
    match fitter {
        Some(krate) if !can_fit => Err(fitter_missing(method, krate)),
        _ => Ok(()),
    }
}

/// The [`Error::Train`] of fitting `method` with the crate `krate` in a build without the
/// learners: names both, and the build command that adds them.
pub fn fitter_missing(method: &str, krate: &str) -> Error {
    Error::Train(format!(
        "the {method} method is fitted by the {krate} crate, which this build of cescope leaves \
         out; build with the learners: cargo build --release --features train \
         (docs/learning.md). Its model files run in any build"
    ))
}

/// A learned method, typed: how a page becomes training data, how a model is fitted, and how
/// a fitted model extracts. Implement this (one file per method) and add one line to
/// [`methods`]; the pipeline ([`train`]), model files ([`model`]) and loading come with it.
///
/// Everything here must be deterministic: the same pages in the same order and the same seed
/// give the same body, whatever the number of threads (the model file is compared byte for
/// byte).
pub trait Learner: Send + Sync + 'static {
    /// The compact training data of one page (block feature rows and labels for block
    /// methods; Naive Bayes counts for MSS) plus what scoring a prediction on the page needs
    /// without the page (cross-validation and `--test` never read a page twice).
    type PageData: Send + Sync;
    /// The fitted model: what the model file's `body` holds.
    type Body: Serialize + DeserializeOwned + Send + Sync + 'static;

    /// Name, description, source.
    fn info(&self) -> &'static MethodInfo;

    /// The feature names, in the order of the rows the method builds; written to the model
    /// file and checked when one is loaded (a file with another list is refused).
    fn feature_names(&self) -> Vec<String>;

    /// The threshold a freshly fitted model starts with (on the probability of main content).
    fn default_threshold(&self) -> f64 {
        0.5
    }

    /// This method with the member extractors `names` (`cescope train --members`, a model
    /// file's `members`): registered extractor names whose verdicts become features. Default:
    /// an [`Error::Train`] — only a method with members ([`stack`]) takes them.
    fn with_members(&self, names: &[String]) -> Result<Self>
    where
        Self: Sized,
    {
        Err(Error::Train(format!(
            "members {}: the {} method has no member extractors (only stack takes members)",
            names.join(","),
            self.info().name
        )))
    }

    /// This method fitted with the blocks of units of `kinds` left unlabelled (`cescope train
    /// --unlabelled`): such a block weighs nothing in the fit, so the model learns no definition
    /// of those kinds from the gold and a guideline decides them at extraction. Default: an
    /// [`Error::Train`] — only a method whose rows mark unit kinds ([`stack`]) can.
    fn with_unlabelled(&self, kinds: KindSet) -> Result<Self>
    where
        Self: Sized,
    {
        let _ = kinds;
        Err(Error::Train(format!(
            "--unlabelled: the {} method cannot leave unit kinds unlabelled (only stack, whose \
             rows mark each block's unit kinds, can)",
            self.info().name
        )))
    }

    /// The member extractors the model file records (`members`): `None` for the method's
    /// default members and for a method without members. Default: `None`.
    fn recorded_members(&self) -> Option<Vec<String>> {
        None
    }

    /// Turns one page and its gold selection (normal form) into training data.
    fn prepare(&self, page: &Page, gold: &Selection) -> Self::PageData;

    /// Checks a loaded body before use (indices in range, probabilities in `[0, 1]`): a
    /// model file edited by hand is refused with the reason, never a panic. Default: fine.
    fn check_body(&self, body: &Self::Body) -> std::result::Result<(), String> {
        let _ = body;
        Ok(())
    }

    /// Can the method weigh its training pages ([`fit`](Learner::fit)'s `weights`)? Only a
    /// method that says yes takes `cescope train --balance corpora`
    /// ([`train::Balance::Corpora`]); the others are always given weights of 1. Default: no.
    fn weighs_pages(&self) -> bool {
        false
    }

    /// Fits a model on `pages` (in the given order), drawing any randomness from `seed`.
    /// `weights` holds one weight per page (mean 1; all 1 unless the job balances its corpora,
    /// [`train::Balance`], and the method [weighs pages](Learner::weighs_pages)).
    /// Errors: [`Error::Train`] (e.g. no positive or no negative example).
    fn fit(&self, pages: &[&Self::PageData], weights: &[f64], seed: u64) -> Result<Self::Body>;

    /// The text `body` extracts from a prepared page at `threshold`, as the extractor would
    /// render it: what cross-validation and `--test` score against the gold text.
    fn extract_text(&self, body: &Self::Body, page: &Self::PageData, threshold: f64) -> String;

    /// The extractor of a loaded model (features already checked), named `name`.
    fn extractor(&self, name: &str, model: ModelFile<Self::Body>) -> Arc<dyn Extractor>;
}

/// A learned method behind a trait object ([`Learner`] with its types erased): what the
/// method registry holds and `cescope train` calls.
pub trait Method: Send + Sync {
    /// Name, description, source.
    fn info(&self) -> &'static MethodInfo;
    /// The feature names ([`Learner::feature_names`]).
    fn feature_names(&self) -> Vec<String>;
    /// Runs the training pipeline ([`train::run`]). Errors: see there.
    fn train(&self, job: &TrainJob) -> Result<Trained>;
    /// The extractor of a model file's JSON, already checked for schema and method
    /// ([`model::load`]): its features are checked here. Errors: [`Error::Model`].
    fn load(&self, file: &Path, name: &str, json: &[u8]) -> Result<Arc<dyn Extractor>>;
}

/// A [`Learner`] as a [`Method`].
struct Erased<L>(L);

impl<L: Learner> Method for Erased<L> {
    fn info(&self) -> &'static MethodInfo {
        self.0.info()
    }

    fn feature_names(&self) -> Vec<String> {
        self.0.feature_names()
    }

    fn train(&self, job: &TrainJob) -> Result<Trained> {
        let info = self.0.info();
        check_fitter(info.name, info.fitter, CAN_FIT)?;
        let with_members = match &job.members {
            Some(names) => Some(self.0.with_members(names)?),
            None => None,
        };
        let l = with_members.as_ref().unwrap_or(&self.0);
        match job.unlabelled {
            Some(kinds) => train::run(&l.with_unlabelled(kinds)?, job),
            None => train::run(l, job),
        }
    }

    fn load(&self, file: &Path, name: &str, json: &[u8]) -> Result<Arc<dyn Extractor>> {
        let m: ModelFile<L::Body> = model::parse_body(file, json)?;
        match m.members.clone() {
            Some(names) => {
                let l = self.0.with_members(&names).map_err(|e| Error::Model {
                    file: crate::fsio::write::printable_path(file),
                    message: match e {
                        Error::Train(m) => m,
                        other => other.to_string(),
                    },
                })?;
                load_checked(&l, file, name, m)
            }
            None => load_checked(&self.0, file, name, m),
        }
    }
}

/// The extractor of a parsed model file `m` of learner `l` (already configured with the
/// file's members), once its features are `l`'s and its body passes [`Learner::check_body`].
/// Errors: [`Error::Model`] naming `file`.
fn load_checked<L: Learner>(
    l: &L,
    file: &Path,
    name: &str,
    m: ModelFile<L::Body>,
) -> Result<Arc<dyn Extractor>> {
    model::check_features(file, &m.features, &l.feature_names())?;
    l.check_body(&m.body).map_err(|message| Error::Model {
        file: crate::fsio::write::printable_path(file),
        message,
    })?;
    Ok(l.extractor(name, m))
}

/// The learned methods, in `--method` order. A new method is one file and one line here.
pub fn methods() -> &'static [Arc<dyn Method>] {
    static ALL: LazyLock<Vec<Arc<dyn Method>>> = LazyLock::new(|| {
        vec![
            Arc::new(Erased(shallow::Shallow::default())) as Arc<dyn Method>,
            Arc::new(Erased(svm::LinearSvm::default())),
            Arc::new(Erased(mss::MssMethod)),
            Arc::new(Erased(crf::Crf)),
            Arc::new(Erased(stack::Stack::default())),
        ]
    });
    &ALL
}

/// The method named `name` (ASCII case-insensitive). Errors: [`Error::Train`] listing the
/// known methods.
pub fn find_method(name: &str) -> Result<Arc<dyn Method>> {
    methods()
        .iter()
        .find(|m| m.info().name.eq_ignore_ascii_case(name.trim()))
        .cloned()
        .ok_or_else(|| {
            Error::Train(format!(
                "unknown method {name:?}; known: {}",
                method_names().join(", ")
            ))
        })
}

/// The `--method` names, in order.
pub fn method_names() -> Vec<&'static str> {
    methods().iter().map(|m| m.info().name).collect()
}

/// Loads a model file as an extractor named after the file's stem ([`model::load`]). Errors:
/// [`Error::Model`] (unreadable, not JSON, another schema, an unknown method, another feature
/// list).
pub fn load_model(path: &Path) -> Result<Arc<dyn Extractor>> {
    model::load(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without the learners a method fitted by a learner crate is refused with the crate and
    /// the build that has it; cescope's own fit (`mss`) and a build with the learners pass.
    #[test]
    fn a_build_without_the_learners_says_which_build_fits() {
        let e = check_fitter("stack", Some("perpetual"), false)
            .unwrap_err()
            .to_string();
        for part in ["stack", "perpetual", "--features train", "model files run"] {
            assert!(e.contains(part), "{part:?} missing from {e:?}");
        }
        assert!(check_fitter("stack", Some("perpetual"), true).is_ok());
        assert!(check_fitter("mss", None, false).is_ok());
    }

    /// The tests are built with the learners (the dev-dependency on cescope itself), and every
    /// registered method names its learner crate, or none when cescope fits it: the crates of
    /// the `train` feature, each behind one method at least.
    #[test]
    fn the_tests_have_the_learners_and_every_method_names_its_fitter() {
        assert!(
            check_fitter("stack", Some("perpetual"), CAN_FIT).is_ok(),
            "cargo test builds cescope without the `train` feature"
        );
        let fitters: Vec<(&str, Option<&str>)> = methods()
            .iter()
            .map(|m| (m.info().name, m.info().fitter))
            .collect();
        assert_eq!(
            fitters,
            [
                ("shallow", Some("linfa-trees")),
                ("svm", Some("linfa-svm")),
                ("mss", None),
                ("crf", Some("crfs")),
                ("stack", Some("perpetual")),
            ]
        );
    }
}
