//! cescope's fuzz targets: the invariant checks ([`checks`]) that the AFL++ harnesses in
//! `src/bin/` call, and that `tests/fuzz_targets.rs` runs under proptest in `cargo test`.

pub mod checks;
