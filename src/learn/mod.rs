//! Learning from gold standards (issue 22): extractors trained on gold selections.
//!
//! [`mss`]: Maximum Subsequence Segmentation with Naive Bayes token scores (Pasternack & Roth
//! 2009; Mohammadzadeh 2013, 3.3.1.4, Algorithm 8) — per-page additive counts, a model built
//! from them, and the extractor that scores a page's tokens and selects the maximum-scoring
//! token subsequence.

pub mod mss;
