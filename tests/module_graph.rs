//! The module graph is a DAG: no top-level module of the library depends on a module that
//! depends back on it, and within `src/tui` no sibling module does either. A dependency is a
//! `crate::` or `super::` path anywhere in a module's code — `use` trees, expressions, types,
//! patterns, macro arguments — read from `src/**/*.rs` with Rust's own parser (`syn`) at test
//! time, so a new `use` that closes a cycle fails this test. Comments, doc comments and string
//! literals name nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use syn::buffer::{Cursor, TokenBuffer};
use syn::visit::{self, Visit};

/// A module path, e.g. `["tui", "app"]`.
type ModPath = Vec<String>;

/// Module edges `from → {to}`, keyed by `::`-joined paths.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// The absolute paths that the code of one module names through `crate::` and `super::`.
struct Names {
    /// The module being read: the file's module, then any inline `mod x { … }` inside it.
    module: ModPath,
    /// Absolute paths found (module path, possibly followed by item names).
    found: Vec<ModPath>,
}

impl Names {
    /// Records `segments` when it starts with `crate` or `super` (as often as needed).
    fn add(&mut self, segments: &[String]) {
        let (mut base, mut rest) = match segments.first().map(String::as_str) {
            Some("crate") => (ModPath::new(), &segments[1..]),
            Some("super") => (self.module.clone(), segments),
            _ => return,
        };
        while let Some(("super", tail)) = rest.split_first().map(|(h, t)| (h.as_str(), t)) {
            base.pop();
            rest = tail;
        }
        base.extend(rest.iter().cloned());
        self.found.push(base);
    }

    /// Every path of a `use` tree: `crate::{a, b::{c, d}}` gives `crate::a`, `crate::b::c`,
    /// `crate::b::d`.
    fn add_use(&mut self, prefix: &mut ModPath, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.add_use(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(syn::UseName { ident })
            | syn::UseTree::Rename(syn::UseRename { ident, .. }) => {
                prefix.push(ident.to_string());
                self.add(prefix);
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.add(prefix),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| self.add_use(prefix, t)),
        }
    }

    /// The `crate::a::b` / `super::c` token runs of a macro's arguments (which `syn` does not
    /// parse as code), groups included.
    fn add_tokens(&mut self, mut c: Cursor) {
        while !c.eof() {
            if let Some((inside, _, _, next)) = c.any_group() {
                self.add_tokens(inside);
                c = next;
            } else if let Some((ident, mut next)) = c.ident() {
                let mut segments = vec![ident.to_string()];
                while let Some((id, after)) = colon(next).and_then(colon).and_then(|d| d.ident()) {
                    segments.push(id.to_string());
                    next = after;
                }
                self.add(&segments);
                c = next;
            } else {
                c = c.token_tree().map_or(c, |(_, next)| next);
            }
        }
    }
}

/// The cursor after a `:` at `c` (a `::` is two of them).
fn colon(c: Cursor) -> Option<Cursor> {
    c.punct()
        .filter(|(p, _)| p.as_char() == ':')
        .map(|(_, next)| next)
}

impl<'ast> Visit<'ast> for Names {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.module.push(m.ident.to_string());
        visit::visit_item_mod(self, m);
        self.module.pop();
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.add_use(&mut ModPath::new(), &u.tree);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segments: ModPath = p.segments.iter().map(|s| s.ident.to_string()).collect();
        self.add(&segments);
        visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let tokens = TokenBuffer::new2(m.tokens.clone());
        self.add_tokens(tokens.begin());
        visit::visit_macro(self, m);
    }
}

/// The paths named by the code of `file`, the module `module`.
fn names_in(file: &Path, module: ModPath) -> Vec<ModPath> {
    let code = std::fs::read_to_string(file).expect("readable source");
    let ast = syn::parse_file(&code).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut names = Names {
        module,
        found: Vec::new(),
    };
    names.visit_file(&ast);
    names.found
}

/// Every `.rs` file of the library under `dir` with its module path (`a/mod.rs` → `[a]`,
/// `a/b.rs` → `[a, b]`). The binary's files — `main.rs` and the `cli/` it declares, where
/// `crate::` means the binary — are left out.
fn modules(dir: &Path, prefix: &ModPath, out: &mut Vec<(std::path::PathBuf, ModPath)>) {
    for e in std::fs::read_dir(dir).expect("readable src directory") {
        let p = e.expect("directory entry").path();
        let name = p
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let mut module = prefix.clone();
        if prefix.is_empty() && matches!(name.as_str(), "main" | "cli") {
            continue;
        }
        if p.is_dir() {
            module.push(name);
            modules(&p, &module, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            if !matches!(name.as_str(), "mod" | "lib") {
                module.push(name);
            }
            out.push((p, module));
        }
    }
}

/// Edges between `nodes` (module paths): `a → b` when code in `a` (or a module below it) names
/// `b` (or something below it).
fn graph(nodes: &[ModPath]) -> Graph {
    let owner = |m: &[String]| {
        nodes
            .iter()
            .filter(|n| m.starts_with(n))
            .max_by_key(|n| n.len())
            .map(|n| n.join("::"))
    };
    let mut g: Graph = nodes
        .iter()
        .map(|n| (n.join("::"), BTreeSet::new()))
        .collect();
    let mut files = Vec::new();
    modules(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &ModPath::new(),
        &mut files,
    );
    for (file, module) in files {
        let Some(from) = owner(&module) else { continue };
        for to in names_in(&file, module).iter().filter_map(|r| owner(r)) {
            if to != from {
                g.get_mut(&from).expect("node").insert(to);
            }
        }
    }
    g
}

/// A cycle of `g`, if any, as the list of its nodes (the first repeated at the end).
fn find_cycle(g: &Graph) -> Option<Vec<String>> {
    fn dfs(
        n: &str,
        g: &Graph,
        done: &mut BTreeSet<String>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|x| x == n) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(n.to_string());
            return Some(cycle);
        }
        if done.contains(n) {
            return None;
        }
        stack.push(n.to_string());
        let found = g[n].iter().find_map(|m| dfs(m, g, done, stack));
        stack.pop();
        done.insert(n.to_string());
        found
    }
    let mut done = BTreeSet::new();
    g.keys().find_map(|n| dfs(n, g, &mut done, &mut Vec::new()))
}

/// The modules one level below `prefix` (`[]`: the top-level modules), as found in `src/`.
fn children(prefix: &[&str]) -> Vec<ModPath> {
    let mut files = Vec::new();
    modules(&src(), &ModPath::new(), &mut files);
    let below: BTreeSet<ModPath> = files
        .into_iter()
        .filter(|(_, m)| m.len() > prefix.len() && m.iter().zip(prefix).all(|(a, b)| a == b))
        .map(|(_, m)| m[..=prefix.len()].to_vec())
        .collect();
    below.into_iter().collect()
}

/// The library's source folder.
fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn top_level_modules_form_a_dag() {
    let nodes = children(&[]);
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
    let nodes = children(&["tui"]);
    assert!(nodes.len() >= 5, "found the modules of src/tui: {nodes:?}");
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
    let graph_of = |edges: &[(&str, &[&str])]| -> Graph {
        edges
            .iter()
            .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
            .collect()
    };
    let g = graph_of(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"]), ("d", &[])]);
    assert_eq!(
        find_cycle(&g),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    let dag = graph_of(&[("a", &["b", "c"]), ("b", &["c"]), ("c", &[])]);
    assert_eq!(find_cycle(&dag), None);
}

#[test]
fn paths_are_found_in_code_but_not_in_comments_or_strings() {
    let code = r#"
        use crate::{a, b::{c, d::E}};
        // crate::zz
        /// crate::doc
        fn f() -> crate::t::T { let s = "crate::yy"; format!("{}", crate::m::g()) }
        mod inner { use super::super::f::G; }
    "#;
    let ast = syn::parse_file(code).unwrap();
    let mut names = Names {
        module: vec!["x".into(), "y".into()],
        found: Vec::new(),
    };
    names.visit_file(&ast);
    let found: Vec<String> = names.found.iter().map(|p| p.join("::")).collect();
    assert_eq!(found, ["a", "b::c", "b::d::E", "t::T", "m::g", "x::f::G"]);
}

/// The rooms of the library keep their order (issue 31): the page model knows no extractor;
/// the extraction contract (`extract`) knows the page but no algorithm, learner or registry;
/// the algorithms know the contract and the page but not the learners, the registry or what
/// sits above; the registry (`extractors`) is the one place that names every extractor, and
/// only the shells and the services above it (batch, eval, bench, …) reach for it. Each
/// forbidden edge found is named.
#[test]
fn rooms_keep_their_boundaries() {
    let nodes = children(&[]);
    let g = graph(&nodes);
    let above_page = [
        "extract",
        "algorithms",
        "learn",
        "extractors",
        "eval",
        "batch",
        "gold",
        "guideline",
        "optimize",
        "bench",
        "tui",
        "cli",
    ];
    let rules: &[(&str, &[&str])] = &[
        ("page", &above_page),
        (
            "extract",
            &[
                "algorithms",
                "learn",
                "extractors",
                "eval",
                "batch",
                "tui",
                "cli",
            ],
        ),
        (
            "algorithms",
            &[
                "learn",
                "extractors",
                "eval",
                "batch",
                "bench",
                "tui",
                "cli",
            ],
        ),
        ("extractors", &["eval", "batch", "bench", "tui", "cli"]),
    ];
    let mut broken = Vec::new();
    for (from, forbidden) in rules {
        let deps = g
            .get(*from)
            .unwrap_or_else(|| panic!("no module {from}: {g:?}"));
        for to in forbidden.iter().filter(|to| deps.contains(**to)) {
            broken.push(format!("{from} -> {to}"));
        }
    }
    // The test sees real edges: the algorithms use the contract, the registry the learners.
    assert!(g["algorithms"].contains("extract"), "{g:?}");
    assert!(g["extractors"].contains("learn"), "{g:?}");
    assert!(
        broken.is_empty(),
        "edges across the rooms' boundaries: {broken:?}"
    );
}

/// Every file of `tests/` is built: a module of the suite (`mod NAME;` in `tests/suite.rs`) or
/// a `[[test]]` target of its own in `Cargo.toml` (`autotests = false` builds nothing else).
#[test]
fn every_test_file_is_built() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let suite = std::fs::read_to_string(root.join("tests/suite.rs")).unwrap();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut files = 0;
    for entry in std::fs::read_dir(root.join("tests")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        files += 1;
        let in_suite = suite.lines().any(|l| l.trim() == format!("mod {stem};"));
        let own = manifest.contains(&format!("path = \"tests/{name}\""));
        assert!(
            in_suite || own,
            "tests/{name} is neither a module of tests/suite.rs nor a [[test]] of Cargo.toml"
        );
    }
    assert!(files > 5, "only {files} test files found");
}

/// CI's release pass runs the ignored tests of the test targets that have some
/// (`cargo test --release --test suite -- --ignored` beside `... --test soak -- --ignored`,
/// `.ci/run`, when the corpus is there), which spares release builds of the others
/// (`features`, `gold_fault`, `read_memory`), and builds the opt-in `reference` feature. Every
/// test file with an `#[ignore]` test must therefore belong to a target those lines name: the
/// suite for its modules, its own `[[test]]` name otherwise. Fails for a target left out
/// (checked by adding an ignored test to `tests/read_memory.rs`, and by leaving out the soak's
/// line).
#[test]
fn ignored_tests_are_in_the_release_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let suite = std::fs::read_to_string(root.join("tests/suite.rs")).unwrap();
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    // The branch that runs when ../shared/corpus is there: up to its `else`.
    let with_corpus = ci
        .lines()
        .skip_while(|l| !l.contains("-d ../shared/corpus"))
        .take_while(|l| l.trim() != "else");
    let runs: Vec<&str> = with_corpus
        .filter(|l| {
            l.trim_start().starts_with("cargo test")
                && l.contains("--release")
                && l.contains("-- --ignored")
        })
        .collect();
    assert!(
        !runs.is_empty(),
        ".ci/run has a release pass of the ignored tests"
    );
    let pass = runs.join("\n");
    let named: Vec<&str> = runs
        .iter()
        .flat_map(|run| {
            run.split_whitespace()
                .collect::<Vec<_>>()
                .windows(2)
                .filter(|w| w[0] == "--test")
                .map(|w| w[1])
                .collect::<Vec<_>>()
        })
        .collect();
    let mut with_ignored = 0;
    for entry in std::fs::read_dir(root.join("tests")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        let text = std::fs::read_to_string(root.join("tests").join(&name)).unwrap();
        if !text.contains("#[ignore") {
            continue;
        }
        with_ignored += 1;
        let in_suite = suite.lines().any(|l| l.trim() == format!("mod {stem};"));
        let target = if in_suite { "suite" } else { stem };
        assert!(
            named.contains(&target),
            "tests/{name} has ignored tests, but .ci/run's release pass ({pass:?}) does not name --test {target}"
        );
    }
    assert!(
        with_ignored > 5,
        "only {with_ignored} test files with ignored tests"
    );
    // The reference extractors are opt-in (Cargo.toml): the README's `cargo test` does not build
    // them, so CI's release pass must, or tests/reference.rs would run nowhere.
    assert!(
        pass.contains("cescope/reference"),
        ".ci/run's release pass ({pass:?}) does not build the opt-in `reference` feature"
    );
    assert!(
        ci.lines().any(|l| l.trim_start().starts_with("cargo test")
            && l.contains("cescope/reference")
            && l.contains("reference::")),
        ".ci/run runs no release pass of the reference extractors' own tests (reference::)"
    );
}

/// No unit test of the library needs `../shared/corpus`: CI runs the ignored tests of the test
/// targets only (`cargo test --release --test suite --test soak -- --ignored`, `.ci/run`), which
/// spares a release build of the library's own test harness, so a corpus test inside `src/`
/// would never run. Such a test belongs in `tests/`.
#[test]
fn corpus_tests_are_in_the_test_targets() {
    let mut files = Vec::new();
    modules(&src(), &Vec::new(), &mut files);
    assert!(files.len() > 50, "only {} source files found", files.len());
    let marked: Vec<String> = files
        .iter()
        .filter(|(f, _)| {
            std::fs::read_to_string(f)
                .unwrap()
                .contains("needs ../shared/corpus\"]")
        })
        .map(|(f, _)| f.display().to_string())
        .collect();
    assert!(
        marked.is_empty(),
        "library unit tests that need the corpus (CI would not run them): {marked:?}"
    );
}

/// The features cargo gives each crate of a build (`cargo tree --prefix none -f '{p} {f}'`
/// with `args`: the edges, packages and features that name the build): name and version →
/// features, over every line the crate appears on.
fn crate_features(args: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tree", "--locked", "--prefix", "none", "-f", "{p} {f}"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo tree {args:?}: {}",
        crate::common::stderr(&out)
    );
    let mut crates = BTreeMap::<String, BTreeSet<String>>::new();
    for line in crate::common::stdout(&out).lines() {
        let mut words = line.split_whitespace();
        let (Some(name), Some(version)) = (words.next(), words.next()) else {
            continue;
        };
        let features = crates.entry(format!("{name} {version}")).or_default();
        for w in words.filter(|w| !w.starts_with('(')) {
            features.extend(w.split(',').map(str::to_string));
        }
    }
    crates
}

/// The feature pins among the dev-dependencies (`Cargo.toml`) hold: a build without the default
/// features gives every dependency it shares with the default build the same features, so
/// `.ci/run`'s features test and `cargo test` compile each dependency once. (Without the pins,
/// `either`, `regex-automata`, ... had fewer features there, and 33 crates compiled twice.)
#[test]
fn the_build_without_default_features_shares_every_dependency() {
    let tests = ["-e", "normal,build,dev", "-p", "cescope"];
    let all = crate_features(&tests);
    let bare = crate_features(&[&tests[..], &["--no-default-features"]].concat());
    let differ = differing_features(&bare, &all, |name| !name.starts_with("cescope "));
    assert!(
        differ.is_empty(),
        "update the feature pins in Cargo.toml's dev-dependencies:\n{}",
        differ.join("\n")
    );
}

/// The Python package as `.ci/run` builds it (`pip install ./python` with
/// `MATURIN_PEP517_ARGS="--features ci"`: no dev-dependencies) gives every crate it shares with
/// the release test pass before it (`cargo test --release -p cescope -p cescope-python
/// --features cescope/reference,cescope-python/ci`) the same features, cescope itself
/// included, so maturin compiles PyO3 and the package's crate only. (When the learners became
/// the feature `train`, which the tests get from a dev-dependency, the package's build lacked
/// it and compiled cescope, serde_json, rs-trafilatura, ... a second time: 123 s.)
#[test]
fn the_python_package_in_ci_shares_every_crate_with_the_release_test_pass() {
    let pass = crate_features(&[
        "-e",
        "normal,build,dev",
        "-p",
        "cescope",
        "-p",
        "cescope-python",
        "--features",
        "cescope/reference,cescope-python/ci",
    ]);
    let package = crate_features(&[
        "-e",
        "normal,build",
        "-p",
        "cescope-python",
        "--features",
        "ci",
    ]);
    assert!(
        package.keys().any(|name| name.starts_with("cescope ")),
        "{:?}",
        package.keys()
    );
    let differ = differing_features(&package, &pass, |name| !name.starts_with("cescope-python "));
    assert!(
        differ.is_empty(),
        "give python/Cargo.toml's feature `ci` what the release test pass builds with:\n{}",
        differ.join("\n")
    );
}

/// The crates of `build` (`crate_features`) that `other` also builds, with other features (the
/// crates `keep` says to compare): one line each, empty when the two share every such crate.
fn differing_features(
    build: &BTreeMap<String, BTreeSet<String>>,
    other: &BTreeMap<String, BTreeSet<String>>,
    keep: impl Fn(&str) -> bool,
) -> Vec<String> {
    assert!(
        build.len() > 100 && other.len() > 100,
        "{} / {} crates: is cargo tree's output read right?",
        build.len(),
        other.len()
    );
    build
        .iter()
        .filter(|(name, _)| keep(name))
        .filter_map(|(name, f)| {
            let g = other.get(name)?;
            (f != g).then(|| format!("{name}: {f:?} here, {g:?} there"))
        })
        .collect()
}
