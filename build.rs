//! Build script: writes the trees of the shipped model (`models/learned.json`, which
//! `src/extractors.rs` compiles in) as Rust code, `$OUT_DIR/shipped_forest.rs`, for
//! `cescope::learn::gbt::Compiled` to run instead of walking the node arrays when it scores
//! that forest (the same bits; docs/speed.md, "The shipped trees as code"). The code and the
//! fingerprint that ties it to its forest come from `src/learn/forest_code.rs`, which the crate
//! uses too. Without a readable model (or with trees it cannot write), the module is empty and
//! every forest is walked.

use std::path::PathBuf;

#[allow(dead_code)]
#[path = "src/learn/forest_code.rs"]
mod forest_code;

use forest_code::TreeArrays;

/// The module when there is no code: no forest matches it.
const EMPTY: &str = "pub const WIDTH: usize = 0;\n\
                     pub const FINGERPRINT: Option<u64> = None;\n\
                     pub static TREES: &[fn(&[f64; WIDTH]) -> f64] = &[];\n";

fn main() {
    println!("cargo:rerun-if-changed=models/learned.json");
    println!("cargo:rerun-if-changed=src/learn/forest_code.rs");
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let source = match std::fs::read(dir.join("models/learned.json")) {
        Ok(bytes) => generate(&bytes).unwrap_or_else(|why| {
            println!(
                "cargo:warning=models/learned.json: {why}; its trees are walked, not run as code"
            );
            EMPTY.to_string()
        }),
        Err(e) => {
            println!("cargo:warning=models/learned.json: {e}; no trees as code");
            EMPTY.to_string()
        }
    };
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("shipped_forest.rs"), source)
        .expect("write $OUT_DIR/shipped_forest.rs");
}

/// The owned arrays of one tree, read from the model file.
struct Tree {
    feature: Vec<u32>,
    threshold: Vec<f64>,
    left: Vec<u32>,
    right: Vec<u32>,
    missing_left: Vec<bool>,
    value: Vec<f32>,
}

/// The module's source for the model file `bytes` (its `body`: `width` and `trees`).
fn generate(bytes: &[u8]) -> Result<String, String> {
    let model: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    let body = &model["body"];
    let width = body["width"].as_u64().ok_or("no body.width")? as usize;
    let trees = body["trees"].as_array().ok_or("no body.trees")?;
    let trees: Vec<Tree> = trees.iter().map(tree).collect::<Result<_, _>>()?;
    let views: Vec<TreeArrays<'_>> = trees
        .iter()
        .map(|t| TreeArrays {
            feature: &t.feature,
            threshold: &t.threshold,
            left: &t.left,
            right: &t.right,
            missing_left: &t.missing_left,
            value: &t.value,
        })
        .collect();
    forest_code::rust_source(width, &views).ok_or_else(|| "a tree it cannot write".to_string())
}

/// One tree of `body.trees`. Numbers are read as serde reads the crate's `GbtTree` (an `f32`
/// is the `f64` parsed, narrowed); a difference would only change the fingerprint, and the
/// crate would walk the forest.
fn tree(t: &serde_json::Value) -> Result<Tree, String> {
    let array = |key: &str| t[key].as_array().ok_or(format!("no tree.{key}"));
    let u32s = |key: &str| -> Result<Vec<u32>, String> {
        array(key)?
            .iter()
            .map(|v| {
                v.as_u64()
                    .and_then(|x| u32::try_from(x).ok())
                    .ok_or(format!("tree.{key}"))
            })
            .collect()
    };
    Ok(Tree {
        feature: u32s("feature")?,
        left: u32s("left")?,
        right: u32s("right")?,
        threshold: array("threshold")?
            .iter()
            .map(|v| v.as_f64().ok_or("tree.threshold".to_string()))
            .collect::<Result<_, _>>()?,
        missing_left: array("missing_left")?
            .iter()
            .map(|v| v.as_bool().ok_or("tree.missing_left".to_string()))
            .collect::<Result<_, _>>()?,
        value: array("value")?
            .iter()
            .map(|v| v.as_f64().map(|x| x as f32).ok_or("tree.value".to_string()))
            .collect::<Result<_, _>>()?,
    })
}
