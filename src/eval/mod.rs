//! Evaluation of main content extraction: runs of extractors over corpora scored against gold
//! standards ([`run`]) and their tables, JSON, CSV and plots ([`report`]); the block table of one
//! page with extractors' verdicts per block ([`blocks`]). The measures themselves
//! (word-sequence LCS, character LCSequence / LCString) are in [`crate::metrics`].

pub mod blocks;
pub mod headline;
pub mod report;
pub mod run;
