//! The module graph is a DAG: no top-level module of the library depends (through `crate::` or
//! `super::` paths in code, comments excluded) on a module that depends back on it, and within
//! `src/tui` no sibling module does either. The graph is read from `src/**/*.rs` at test time, so
//! a new `use` that closes a cycle fails this test.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// All `.rs` files under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("readable src directory")
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a source file: `src/lib.rs` → `[]`, `src/a/mod.rs` → `[a]`,
/// `src/a/b.rs` → `[a, b]`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("file under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// The code of a file with `//` comments and string literals blanked out.
fn strip(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut chars = code.chars().peekable();
    let mut in_str = false;
    while let Some(c) = chars.next() {
        if in_str {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => {
                    in_str = false;
                    out.push('"');
                }
                '\n' => out.push('\n'),
                _ => {}
            }
        } else if c == '/' && chars.peek() == Some(&'/') {
            for d in chars.by_ref() {
                if d == '\n' {
                    out.push('\n');
                    break;
                }
            }
        } else if c == '"' {
            in_str = true;
            out.push('"');
        } else if c == '\'' {
            // A char literal such as '"' or '\'' (lifetimes pass through unchanged).
            let rest: String = chars.clone().take(3).collect();
            if rest.starts_with("\\") {
                let n = rest.chars().skip(1).position(|x| x == '\'').unwrap_or(1) + 2;
                for _ in 0..n {
                    chars.next();
                }
            } else if rest.chars().nth(1) == Some('\'') {
                chars.next();
                chars.next();
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

fn ident_at(s: &str) -> Option<(&str, &str)> {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (end > 0).then(|| (&s[..end], &s[end..]))
}

/// The paths a `use` tree or an expression path names after a prefix ending in `::`: for
/// `{a, b::{c, d}}` gives `[a], [b, c], [b, d]`; for `a::b::C` gives `[a, b, C]`.
fn paths_after(s: &str) -> Vec<Vec<String>> {
    let s = s.trim_start();
    if let Some(rest) = s.strip_prefix('{') {
        // Split the group at top-level commas.
        let mut depth = 0;
        let mut items = Vec::new();
        let mut start = 0;
        for (i, c) in rest.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    items.push(&rest[start..i]);
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(&rest[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        return items.into_iter().flat_map(paths_after).collect();
    }
    let Some((id, rest)) = ident_at(s) else {
        return Vec::new();
    };
    let mut out = vec![id.to_string()];
    if let Some(rest) = rest.trim_start().strip_prefix("::") {
        let subs = paths_after(rest);
        if subs.is_empty() {
            return vec![out];
        }
        return subs
            .into_iter()
            .map(|mut p| {
                let mut full = out.clone();
                full.append(&mut p);
                full
            })
            .collect();
    }
    vec![std::mem::take(&mut out)]
}

/// Absolute module paths (possibly ending in items) referenced by the code of module `me`.
fn references(me: &[String], code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for (key, base) in [("crate::", 0usize), ("super::", 1usize)] {
        let mut from = 0;
        while let Some(k) = code[from..].find(key) {
            let at = from + k;
            from = at + key.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            if at >= 2 && &code[at - 2..at] == "::" {
                // `super::super::x` is handled from its first `super::`.
                continue;
            }
            let mut prefix: Vec<String> = if base == 0 {
                Vec::new()
            } else {
                // `super` is the parent module (for `a/mod.rs`, module `a`, that is the root).
                let mut p = me.to_vec();
                p.pop();
                p
            };
            let mut rest = &code[from..];
            while let Some(r) = rest.strip_prefix("super::") {
                prefix.pop();
                rest = r;
            }
            for p in paths_after(rest) {
                let mut full = prefix.clone();
                full.extend(p);
                out.push(full);
            }
        }
    }
    out
}

/// Edges between the modules of `nodes` (each a module path): `a → b` when code in `a` (or a
/// module below it) names `b` (or something below it).
fn graph(nodes: &[Vec<String>]) -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let owner = |m: &[String]| {
        nodes
            .iter()
            .filter(|n| m.starts_with(n))
            .max_by_key(|n| n.len())
            .map(|n| n.join("::"))
    };
    let mut g: BTreeMap<String, BTreeSet<String>> = nodes
        .iter()
        .map(|n| (n.join("::"), BTreeSet::new()))
        .collect();
    for f in files {
        if f.file_name().is_some_and(|n| n == "main.rs") {
            continue;
        }
        let me = module_of(&src, &f);
        let Some(from) = owner(&me) else { continue };
        let code = strip(&std::fs::read_to_string(&f).expect("readable source"));
        for r in references(&me, &code) {
            if let Some(to) = owner(&r) {
                if to != from {
                    g.get_mut(&from).expect("node").insert(to);
                }
            }
        }
    }
    g
}

/// A cycle of `g`, if any, as the list of its nodes.
fn find_cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn dfs(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in &g[n] {
            match state.get(m.as_str()).copied().unwrap_or(0) {
                1 => {
                    let at = stack.iter().position(|x| x == m).expect("on the stack");
                    let mut c = stack[at..].to_vec();
                    c.push(m.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = dfs(m, g, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in g.keys() {
        if state.get(n.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = dfs(n, g, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

/// The child modules of `dir` (files `x.rs` and directories `x/` with a `mod.rs` or an `x.rs`).
fn children(dir: &Path, prefix: &[&str]) -> Vec<Vec<String>> {
    let mut out = BTreeSet::new();
    for e in std::fs::read_dir(dir).expect("readable directory") {
        let p = e.expect("directory entry").path();
        let name = p
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let module = p.is_dir() || (p.extension().is_some_and(|x| x == "rs") && name != "mod");
        if module && !matches!(name.as_str(), "lib" | "main") {
            out.insert(name);
        }
    }
    out.into_iter()
        .map(|n| {
            let mut v: Vec<String> = prefix.iter().map(|s| s.to_string()).collect();
            v.push(n);
            v
        })
        .collect()
}

#[test]
fn top_level_modules_form_a_dag() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let nodes = children(&src, &[]);
    assert!(nodes.len() >= 8, "found the top-level modules: {nodes:?}");
    let g = graph(&nodes);
    // The graph is real: known dependencies are found.
    assert!(g["eval"].contains("metrics"), "{g:?}");
    assert!(g["gold"].contains("metrics"), "{g:?}");
    assert!(g["algorithms"].contains("page"), "{g:?}");
    assert_eq!(
        find_cycle(&g),
        None,
        "import cycle between top-level modules; graph: {g:#?}"
    );
}

#[test]
fn tui_modules_form_a_dag() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let tui = src.join("tui");
    if !tui.is_dir() {
        return;
    }
    let nodes = children(&tui, &["tui"]);
    let g = graph(&nodes);
    assert!(g["tui::ui"].contains("tui::app"), "{g:?}");
    assert_eq!(
        find_cycle(&g),
        None,
        "import cycle inside src/tui; graph: {g:#?}"
    );
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let g: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(
        find_cycle(&g),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    let dag: BTreeMap<String, BTreeSet<String>> = [("a", vec!["b"]), ("b", vec![])]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
        .collect();
    assert_eq!(find_cycle(&dag), None);
}

#[test]
fn use_trees_are_parsed() {
    let code = strip(
        "use crate::{a, b::{c, d::E}};\n// crate::zz\nlet s = \"crate::yy\";\nuse super::super::f::G;\n",
    );
    let refs = references(&["x".into(), "y".into(), "z".into()], &code);
    let names: Vec<String> = refs.iter().map(|p| p.join("::")).collect();
    assert_eq!(names, ["a", "b::c", "b::d::E", "x::f::G"]);
}
