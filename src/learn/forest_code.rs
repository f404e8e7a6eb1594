//! A forest of regression trees as Rust code, and the fingerprint that says which forest a
//! piece of such code scores. Shared, as this one file, by the build script (`build.rs`, which
//! writes the shipped model's trees as code) and by [`crate::learn::gbt::Compiled`] (which runs
//! that code for a forest with the same fingerprint): nothing here uses the crate.
//!
//! Why code: an interpreted walk over a node array ([`crate::learn::gbt::Compiled`]'s) runs one
//! comparison instruction and one branch instruction for every node of every tree, so the
//! processor predicts all the forest's decisions with the history of one branch. As code, each
//! node is its own branch with its own prediction, and its feature index and threshold are
//! constants in the instruction stream (treelite, Asadi et al. 2014, "Runtime optimizations for
//! tree-based machine learning models", compile trees to nested `if`s for the same reason).
//!
//! The code compares as the walk does: a node with `missing_left` sends NaN left (`!(v >= t)`:
//! true for NaN, `v < t` otherwise), any other node sends it right (`v < t`: false for NaN).
//! Leaf values are the `f32` values widened to `f64`, written with Rust's shortest round-trip
//! formatting, so the literals are the same bits.

use std::fmt::Write;

/// One tree as parallel arrays in pre-order (the layout of a model file's `body.trees`).
#[derive(Debug, Clone, Copy)]
pub struct TreeArrays<'a> {
    /// Split feature per node, [`LEAF`] at a leaf.
    pub feature: &'a [u32],
    /// Split threshold per node (`value < threshold` goes left).
    pub threshold: &'a [f64],
    /// Left child per node.
    pub left: &'a [u32],
    /// Right child per node.
    pub right: &'a [u32],
    /// Where NaN goes per node: true = left.
    pub missing_left: &'a [bool],
    /// Node value (a leaf's output).
    pub value: &'a [f32],
}

/// The feature of a leaf.
pub const LEAF: u32 = u32::MAX;

impl TreeArrays<'_> {
    /// Checks the tree against rows of `width` values: arrays of one length, at least one
    /// node, finite values, split features below `width` with a threshold that is a number,
    /// children after their parent and in range (so a walk from the root ends at a leaf in at
    /// most `len` steps). The error names the first fault (node index in the arrays).
    pub fn check(&self, width: usize) -> Result<(), String> {
        let n = self.feature.len();
        if n == 0 {
            return Err("a tree has no node".into());
        }
        if [
            self.threshold.len(),
            self.left.len(),
            self.right.len(),
            self.missing_left.len(),
            self.value.len(),
        ]
        .iter()
        .any(|&l| l != n)
        {
            return Err("a tree's arrays differ in length".into());
        }
        for k in 0..n {
            if !self.value[k].is_finite() {
                return Err(format!("node {k}: value is not a finite number"));
            }
            if self.feature[k] == LEAF {
                continue;
            }
            if self.feature[k] as usize >= width || self.threshold[k].is_nan() {
                return Err(format!("node {k}: bad feature or threshold"));
            }
            for c in [self.left[k], self.right[k]] {
                if (c as usize) <= k || c as usize >= n {
                    return Err(format!("node {k}: child {c} out of order"));
                }
            }
        }
        Ok(())
    }
}

/// The deepest tree written as code: past it (nested `if`s hundreds deep), the build leaves the
/// forest to the interpreted walk.
pub const MAX_CODE_DEPTH: usize = 256;

/// FNV-1a (64 bits) of a forest's width and trees: every node's feature, threshold bits,
/// children, NaN direction and value bits, in tree and node order. Two forests with the same
/// fingerprint score every row the same (barring a 64-bit collision).
pub fn fingerprint(width: usize, trees: &[TreeArrays<'_>]) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    h.write(&(width as u64).to_le_bytes());
    h.write(&(trees.len() as u64).to_le_bytes());
    for t in trees {
        h.write(&(t.feature.len() as u64).to_le_bytes());
        for k in 0..t.feature.len() {
            h.write(&t.feature[k].to_le_bytes());
            h.write(&t.threshold.get(k).map_or(0, |x| x.to_bits()).to_le_bytes());
            h.write(&t.left.get(k).copied().unwrap_or(0).to_le_bytes());
            h.write(&t.right.get(k).copied().unwrap_or(0).to_le_bytes());
            h.write(&[u8::from(t.missing_left.get(k).copied().unwrap_or(false))]);
            h.write(&t.value.get(k).map_or(0, |x| x.to_bits()).to_le_bytes());
        }
    }
    h.0
}

struct Fnv(u64);

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// The Rust source of a module scoring `trees` (rows of `width` values): constants `WIDTH`
/// and `FINGERPRINT` ([`fingerprint`], `Some`), and `TREES`, one function per tree in boosting
/// order from a row (`&[f64; WIDTH]`) to its leaf's value. `None` when a tree fails
/// [`TreeArrays::check`] or is deeper than [`MAX_CODE_DEPTH`]. O(nodes).
pub fn rust_source(width: usize, trees: &[TreeArrays<'_>]) -> Option<String> {
    let mut out = String::new();
    let _ = writeln!(out, "pub const WIDTH: usize = {width};");
    let _ = writeln!(
        out,
        "pub const FINGERPRINT: Option<u64> = Some({:#018x});",
        fingerprint(width, trees)
    );
    let names: Vec<String> = (0..trees.len()).map(|i| format!("t{i}")).collect();
    let _ = writeln!(
        out,
        "pub static TREES: &[fn(&[f64; WIDTH]) -> f64] = &[{}];",
        names.join(", ")
    );
    for (i, t) in trees.iter().enumerate() {
        t.check(width).ok()?;
        let _ = writeln!(out, "#[inline(never)]\nfn t{i}(r: &[f64; WIDTH]) -> f64 {{");
        write_node(&mut out, t, 0, 0)?;
        out.push_str("}\n");
    }
    Some(out)
}

/// Node `k` of the checked tree `t` (at `depth`) and its subtree as an expression: a leaf's
/// value, or `if test { left } else { right }`. `None` past [`MAX_CODE_DEPTH`].
fn write_node(out: &mut String, t: &TreeArrays<'_>, k: usize, depth: usize) -> Option<()> {
    if depth > MAX_CODE_DEPTH {
        return None;
    }
    if t.feature[k] == LEAF {
        let _ = writeln!(out, "{}", literal(f64::from(t.value[k])));
        return Some(());
    }
    let (f, l, r) = (t.feature[k], t.left[k] as usize, t.right[k] as usize);
    let th = literal(t.threshold[k]);
    if t.missing_left[k] {
        let _ = writeln!(out, "if !(r[{f}] >= {th}) {{");
    } else {
        let _ = writeln!(out, "if r[{f}] < {th} {{");
    }
    write_node(out, t, l, depth + 1)?;
    out.push_str("} else {\n");
    write_node(out, t, r, depth + 1)?;
    out.push_str("}\n");
    Some(())
}

/// `x` as a Rust `f64` expression of the same bits.
fn literal(x: f64) -> String {
    if x.is_nan() {
        "f64::NAN".into()
    } else if x == f64::INFINITY {
        "f64::INFINITY".into()
    } else if x == f64::NEG_INFINITY {
        "f64::NEG_INFINITY".into()
    } else {
        // `{:?}` is the shortest text that reads back as the same f64, with a `.` or an
        // exponent, so it is a float literal (a negative one is `-` and a literal).
        format!("{x:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree<'a>(
        feature: &'a [u32],
        left: &'a [u32],
        right: &'a [u32],
        missing_left: &'a [bool],
    ) -> TreeArrays<'a> {
        TreeArrays {
            feature,
            threshold: &[0.5, 0.0, 0.0],
            left,
            right,
            missing_left,
            value: &[0.0, -1.5, 0.1],
        }
    }

    #[test]
    fn a_tree_is_nested_ifs_and_a_bad_tree_is_none() {
        let t = tree(
            &[1, LEAF, LEAF],
            &[1, 0, 0],
            &[2, 0, 0],
            &[true, false, false],
        );
        let src = rust_source(2, &[t]).unwrap();
        // NaN goes left at a `missing_left` node; the f32 leaf value 0.1 widened exactly.
        let body = format!(
            "if !(r[1] >= 0.5) {{\n-1.5\n}} else {{\n{:?}\n}}\n",
            f64::from(0.1f32)
        );
        assert!(src.contains(&body), "{src}");
        assert!(src.contains("pub const WIDTH: usize = 2;"));
        assert!(src.contains("pub static TREES: &[fn(&[f64; WIDTH]) -> f64] = &[t0];"));
        let right_nan = tree(&[1, LEAF, LEAF], &[1, 0, 0], &[2, 0, 0], &[false; 3]);
        assert!(rust_source(2, &[right_nan])
            .unwrap()
            .contains("if r[1] < 0.5 {"));
        // The fingerprint sees the NaN direction.
        assert_ne!(fingerprint(2, &[t]), fingerprint(2, &[right_nan]));
        assert_eq!(fingerprint(2, &[t]), fingerprint(2, &[t]));
        // A feature past the width, a child before its parent, arrays of two lengths.
        assert!(rust_source(1, &[t]).is_none());
        let back = tree(&[1, LEAF, LEAF], &[0, 0, 0], &[2, 0, 0], &[false; 3]);
        assert!(rust_source(2, &[back]).is_none());
        let short = tree(&[1, LEAF, LEAF], &[1, 0], &[2, 0, 0], &[false; 3]);
        assert!(rust_source(2, &[short]).is_none());
        // Deeper than MAX_CODE_DEPTH: a chain of left children.
        let n = MAX_CODE_DEPTH + 3;
        let feature: Vec<u32> = (0..n).map(|k| if k + 2 < n { 0 } else { LEAF }).collect();
        let left: Vec<u32> = (0..n as u32)
            .map(|k| if (k as usize) + 2 < n { k + 1 } else { 0 })
            .collect();
        let right: Vec<u32> = (0..n)
            .map(|k| if k + 2 < n { n as u32 - 1 } else { 0 })
            .collect();
        let deep = TreeArrays {
            feature: &feature,
            threshold: &vec![0.5; n],
            left: &left,
            right: &right,
            missing_left: &vec![false; n],
            value: &vec![0.0; n],
        };
        assert!(rust_source(1, &[deep]).is_none());
    }
}
