//! Evaluation of main content extraction: word-sequence LCS and character LCSequence / LCString measures.

pub mod metrics;
pub mod report;
pub mod run;

pub use metrics::{lcsequence_prf, lcstring_prf, mean, word_prf, words, Prf};
