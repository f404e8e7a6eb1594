//! The integration tests, one test binary: each file of `tests/` is a module here, so the whole
//! library and its dependencies are linked once instead of once per file, and the tests of every
//! file share one pool of test threads (a long test of one file no longer leaves the other core
//! idle while the next binary waits). Run one file's tests with a filter on its module path:
//! `cargo test --test suite cli::`; one test with `cargo test --test suite cli::NAME`.
//!
//! Four files stay binaries of their own (`Cargo.toml`, `[[test]]`): three because they measure
//! or own the whole process, one because a build without the default features runs it alone:
//! - `read_memory.rs` installs a counting global allocator;
//! - `soak.rs` bounds the process's memory (RSS) and thread count during its walk;
//! - `gold_fault.rs` is its own harness (`harness = false`): its main is the writer it kills;
//! - `features.rs` checks the binary built without the default features (`cargo test
//!   --no-default-features --test features`, `.ci/run`): a small binary of its own, so that build
//!   does not compile the whole suite for its three tests.
//!
//! `learned_model.rs` (the shipped models' rebuilds) is a module here: its fits no longer
//! depend on the memory free beside them (`cescope::learn::gbt::MEMORY_LIMIT_GB`).
//!
//! A new test file is a new `mod` line below.

/// Helpers shared by the modules (running the binary, driving the inspector).
mod common;

/// The fuzz targets' checks (`fuzz/src/checks.rs`), shared with the AFL++ harnesses and the
/// soak test.
#[cfg(feature = "tui")]
#[path = "../fuzz/src/checks.rs"]
mod checks;

mod annotation_loop;
mod bad_input;
mod batch;
mod blocks;
mod cli;
mod corpus;
mod dom;
mod dsc_density;
mod eval;
mod eval_by_type;
mod fuzz_targets;
mod gold;
mod gold_cli;
mod gold_safety;
mod gutter;
mod headline;
mod html_model;
mod input_safety;
mod learn;
mod learned_model;
mod module_graph;
mod normal_form;
mod optimize;
mod properties;
mod reference;
mod review;
mod sample_pages;
mod spark;
mod structured;
mod tui;
mod tui_algorithms;
mod tui_annotate;
mod tui_blocks;
mod tui_navigate;
mod tui_units;
