//! The algorithms: one file per published algorithm or family (and one per reference crate),
//! each implementing the extraction contract ([`crate::extract::Extractor`]) — dana (R2L,
//! DANA, DANAg, AdDANAg), plain, bte, lqf, dsc, density, cetd, sw, crunch, cetr, fe (FE,
//! KFE), ccb (CCB, ACCB, TCCB), records, shallow_rules; reference (a crate's text output as an
//! extractor) with trafilatura and readability (feature `reference`); combine (CombinE filter
//! sets, set files and the shipped sets); headline (TitleFinder and its baselines). [`all`]
//! lists them in display order.
//!
//! **May import**: `crate::extract` (the contract and its machinery), `crate::page`,
//! `crate::selection`, `crate::error`, `crate::metrics`, `crate::lang`. Never `crate::learn`
//! (learned methods build on algorithms, not the other way), `crate::extractors` (the
//! registry above both), nor anything above them; `tests/module_graph.rs` checks it.

pub mod bte;
pub mod ccb;
pub mod cetd;
pub mod cetr;
pub mod combine;
pub mod crunch;
pub mod dana;
pub mod density;
pub mod dsc;
pub mod fe;
pub mod headline;
pub mod lqf;
pub mod plain;
#[cfg(feature = "reference")]
pub mod readability;
pub mod records;
pub mod reference;
pub mod shallow_rules;
pub mod sw;
#[cfg(feature = "reference")]
pub mod trafilatura;

use std::sync::{Arc, LazyLock};

use crate::extract::Extractor;

/// The algorithm of [`all`] named `name` (its registered name, exactly), looked up without
/// the registry above this module (`crate::extractors`), so code below the registry adds no
/// edge to the module graph. `None` when no algorithm has that name.
pub fn named(name: &str) -> Option<Arc<dyn Extractor>> {
    all().iter().find(|e| e.name() == name).cloned()
}

/// Every single algorithm of this module (no filter sets), in display order: the papers'
/// algorithms, then the reference extractors (feature `reference`). Built once per process.
/// The shipped filter sets are built from these ([`combine::shipped`]); the one registry of
/// everything a user can name is `crate::extractors`.
pub fn all() -> &'static [Arc<dyn Extractor>] {
    static SINGLES: LazyLock<Vec<Arc<dyn Extractor>>> = LazyLock::new(|| {
        #[cfg_attr(not(feature = "reference"), allow(unused_mut))]
        let mut v: Vec<Arc<dyn Extractor>> = vec![
            Arc::new(dana::DanaFamily::r2l()),
            Arc::new(dana::DanaFamily::dana()),
            Arc::new(dana::DanaFamily::danag()),
            Arc::new(dana::DanaFamily::addanag()),
            Arc::new(plain::Plain),
            Arc::new(bte::Bte),
            Arc::new(lqf::Lqf),
            Arc::new(dsc::Dsc),
            Arc::new(density::Density),
            Arc::new(cetd::Cetd),
            Arc::new(sw::Sw),
            Arc::new(crunch::Crunch),
            Arc::new(cetr::Cetr),
            Arc::new(fe::FeatureExtractor::fe()),
            Arc::new(fe::FeatureExtractor::kfe()),
            Arc::new(ccb::CcbFamily::ccb()),
            Arc::new(ccb::CcbFamily::accb()),
            Arc::new(ccb::CcbFamily::tccb()),
            Arc::new(records::RecordGroups),
            Arc::new(shallow_rules::ShallowRules::numwords()),
            Arc::new(shallow_rules::ShallowRules::density()),
        ];
        #[cfg(feature = "reference")]
        v.extend([
            Arc::new(reference::Reference::new(trafilatura::Trafilatura)) as Arc<dyn Extractor>,
            Arc::new(reference::Reference::new(readability::Readability)),
        ]);
        v
    });
    &SINGLES
}
