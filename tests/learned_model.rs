//! The shipped model `learned` (`models/learned.json`) rebuilds byte for byte with the command
//! in `models/README.md`. A test binary of its own: cargo runs test binaries one after another,
//! so no other test competes for the memory the fit sizes its histogram pool from
//! (`cescope::learn::gbt::MEMORY_LIMIT_GB`).

use std::path::Path;

use cescope::learn::{find_method, TrainJob};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The command in `models/README.md` rebuilds the shipped model byte for byte.
#[test]
#[ignore = "needs ../shared/corpus"]
fn the_shipped_model_rebuilds_byte_identically() {
    let root = Path::new(ROOT).join("../shared/corpus");
    let j = TrainJob {
        train: vec![
            root.join("scrapinghub-dev"),
            root.join("wcxb-dev"),
            root.join("readability"),
        ],
        test: Vec::new(),
        folds: Some(5),
        seed: 1,
        progress: false,
    };
    let t = find_method("stack").unwrap().train(&j).unwrap();
    let shipped = std::fs::read(Path::new(ROOT).join("models/learned.json")).unwrap();
    assert!(
        t.bytes == shipped,
        "retrained model differs from models/learned.json ({} vs {} bytes)",
        t.bytes.len(),
        shipped.len()
    );
}
