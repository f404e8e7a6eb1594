//! Evaluation of main content extraction: runs of extractors over corpora scored against gold
//! standards ([`run`]) and their tables, JSON, CSV and plots ([`report`]); the block table of one
//! page with extractors' verdicts per block ([`blocks`]); where an extract differs from the
//! gold word by word ([`diff`]). The measures themselves
//! (word-sequence LCS, character LCSequence / LCString) are in [`crate::metrics`].

pub mod blocks;
pub mod diff;
pub mod headline;
pub mod report;
pub mod run;
