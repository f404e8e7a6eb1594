//! The binary: exit codes, formats, and the commands a user runs first.

use std::io::Write;
use std::process::{Command, Stdio};

fn cescope() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cescope"))
}

const PAGE: &str = "<html><head><title>T</title></head><body><ul><li><a href=\"/a/b/c\">Home</a></li><li><a href=\"/d/e/f\">News</a></li></ul><div><p>The council approved the new bridge on Tuesday after a long debate about its cost and design.</p><p>Work starts in spring and should take two years, officials said.</p></div></body></html>";

/// Runs `cmd` with `input` on its standard input and waits: its output, or the error of
/// starting it.
fn run_with_input(mut cmd: Command, input: &[u8]) -> std::io::Result<std::process::Output> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    child.stdin.take().expect("piped").write_all(input)?;
    child.wait_with_output()
}

fn write_page(dir: &tempfile::TempDir, name: &str, body: &[u8]) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, body).unwrap();
    p
}

#[test]
fn extract_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_page(&dir, "p.html", PAGE.as_bytes());
    let out = cescope().args(["extract"]).arg(&f).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("The council approved"));
    assert!(!text.contains("Home"));

    let out = cescope()
        .args([
            "extract", "--format", "json", "--algo", "addanag", "--set", "gap=5",
        ])
        .arg(&f)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["algo"], "addanag");
    assert_eq!(v["params"]["gap"], 5);
    assert_eq!(v["params"]["filter"], "filter3");
    assert_eq!(v["encoding"], "UTF-8");
    assert!(v["selection"].as_array().unwrap().len() >= 2);
    assert!(v["timing_ms"]["run"].as_f64().unwrap() >= 0.0);
    // The ranges are byte ranges into the decoded text.
    let r = &v["selection"][0];
    let (s, e) = (
        r[0].as_u64().unwrap() as usize,
        r[1].as_u64().unwrap() as usize,
    );
    assert!(PAGE[s..e].contains("council"));
}

#[test]
fn stdin_and_gzip() {
    let mut extract = cescope();
    extract.args(["extract", "-"]);
    let out = run_with_input(extract, PAGE.as_bytes()).unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("bridge"));

    let dir = tempfile::tempdir().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(PAGE.as_bytes()).unwrap();
    let f = write_page(&dir, "p.html.gz", &gz.finish().unwrap());
    let out = cescope().arg("extract").arg(&f).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("bridge"));
}

#[test]
fn exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_page(&dir, "p.html", PAGE.as_bytes());
    // usage errors: 2
    let out = cescope().args(["extract"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = cescope().args(["frobnicate"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    // input errors: 1 with one line on stderr
    for args in [
        vec![
            "extract".to_string(),
            dir.path().join("missing.html").display().to_string(),
        ],
        vec![
            "extract".into(),
            f.display().to_string(),
            "--algo".into(),
            "nope".into(),
        ],
        vec![
            "extract".into(),
            f.display().to_string(),
            "--set".into(),
            "gap=abc".into(),
        ],
        vec![
            "extract".into(),
            f.display().to_string(),
            "--encoding".into(),
            "klingon".into(),
        ],
        vec!["extract".into(), dir.path().display().to_string()],
    ] {
        let out = cescope().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("cescope: error:"), "{err}");
    }
    let png = write_page(&dir, "x.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01");
    let out = cescope().arg("extract").arg(&png).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("PNG"));
}

#[test]
fn algos_lists_every_algorithm_with_defaults() {
    let out = cescope().args(["algos", "--names"]).output().unwrap();
    let names = String::from_utf8(out.stdout).unwrap();
    let mut every: Vec<String> = cescope::extractors::names()
        .iter()
        .map(|n| n.to_string())
        .collect();
    every.push(format!(
        "{}\t(trained; not in all)",
        cescope::extractors::LEARNED
    ));
    assert_eq!(
        names.lines().collect::<Vec<_>>(),
        every,
        "`algos --names` lists the registry in order, the shipped model last and marked"
    );
    assert!(names
        .lines()
        .take(4)
        .eq(["r2l", "dana", "danag", "addanag"]));
    let out = cescope()
        .args(["algos", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let r2l = &v[0];
    assert_eq!(r2l["name"], "r2l");
    assert_eq!(r2l["params"][0]["name"], "gap");
    assert_eq!(r2l["params"][0]["default"], 8);
    assert_eq!(v[2]["params"][0]["default"], 20);
    assert!(
        v.as_array()
            .unwrap()
            .iter()
            .any(|e| e["name"] == "learned" && e["kind"] == "learned"),
        "the shipped model is listed"
    );
    let out = cescope().args(["algos"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Formula 4.2"));
    assert!(
        text.contains("the shipped learned model (--algo learned"),
        "{text}"
    );
}

#[test]
fn bench_json_has_the_documented_keys() {
    let dir = tempfile::tempdir().unwrap();
    write_page(&dir, "a.html", PAGE.as_bytes());
    write_page(&dir, "b.html", PAGE.as_bytes());
    let out = cescope()
        .args([
            "bench", "--format", "json", "--repeat", "1", "--algo", "danag",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[0]["algo"], "page-model");
    assert_eq!(rows[1]["algo"], "dom");
    assert_eq!(rows[2]["algo"], "blocks");
    assert_eq!(rows[3]["algo"], "block-context");
    assert_eq!(rows[4]["algo"], "units");
    for k in [
        "algo",
        "pages",
        "bytes",
        "seconds",
        "mb_per_s",
        "ms_per_page",
    ] {
        assert!(rows[3].get(k).is_some(), "missing {k}");
    }
    assert_eq!(rows[3]["pages"], 2);
    assert_eq!(rows[3]["bytes"], 2 * PAGE.len());
}

/// Papercuts of a first try: options may come before the page (`cescope --algo r2l PAGE` is
/// `inspect`), a command given the wrong kind of file says what it expects, and the inspector
/// without a terminal says so instead of an OS error.
#[test]
fn wrong_kind_of_input_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_page(&dir, "p.html", PAGE.as_bytes());
    let run = |args: &[&std::ffi::OsStr]| {
        let out = cescope()
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // Options before the page: parsed as inspect's, so the only complaint is the missing terminal.
    let (code, err) = run(&["--algo".as_ref(), "r2l".as_ref(), f.as_os_str()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("the inspector needs a terminal"), "{err}");
    let (code, err) = run(&["--algo".as_ref(), "nope".as_ref(), f.as_os_str()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("unknown algorithm"), "{err}");
    // eval of a page, inspect of a gold file.
    let (code, err) = run(&["eval".as_ref(), f.as_os_str()]);
    assert_eq!(code, Some(1));
    assert!(err.contains("is a page, not a corpus"), "{err}");
    let gold = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("gold/news-article.json");
    let (code, err) = run(&["inspect".as_ref(), gold.as_os_str()]);
    assert_eq!(code, Some(1));
    assert!(err.contains("is a cescope gold file"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn extract_with_a_filter_set_file() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_page(&dir, "p.html", PAGE.as_bytes());
    let set = write_page(
        &dir,
        "my_set.toml",
        b"combine = \"serial\"\n[[member]]\nalgo = \"lqf\"\nparams = { t = 0.5 }\n\
          [[member]]\nalgo = \"bte\"\n",
    );
    let out = cescope()
        .args(["extract", "--format", "json", "--algo"])
        .arg(&set)
        .args(["--set", "1.delete=subtree"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["algo"], "my_set");
    assert_eq!(v["params"]["1.t"], 0.5);
    assert_eq!(v["params"]["1.delete"], "subtree");
    let out = cescope()
        .args(["extract", "--algo"])
        .arg(&set)
        .arg(&f)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("The council approved"), "{text}");
    assert!(!text.contains("Home"), "{text}");
    // A bad set file: exit code 1, one line naming the file and the member.
    let bad = write_page(
        &dir,
        "bad.toml",
        b"combine = \"vote\"\n[[member]]\nalgo = \"lqf\"\n",
    );
    let out = cescope()
        .args(["extract", "--algo"])
        .arg(&bad)
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("bad.toml") && err.contains("threshold"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// Papercuts (issue 19, item 9)
// ---------------------------------------------------------------------------------------------

/// Runs `cescope ARGS…` in `dir`: (exit code, stdout, stderr).
fn run_in(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = cescope().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The subcommands `cescope --help` lists (clap's own list, so a new subcommand is covered).
fn listed_subcommands() -> Vec<String> {
    let names = subcommands_of(&[]);
    assert!(names.len() >= 8, "{names:?}");
    names
}

/// The subcommands `cescope ARGS… --help` lists, clap's `help` included.
fn subcommands_of(args: &[&str]) -> Vec<String> {
    let out = cescope().args(args).arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let names: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect();
    assert!(!names.is_empty(), "{help}");
    names
}

#[test]
fn a_missing_page_is_named_as_a_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run_in(dir.path(), &["nosuch.html"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(!err.contains("subcommand"), "{err}");
    assert!(
        err.starts_with("cescope: error:") && err.contains("nosuch.html"),
        "{err}"
    );
    assert!(err.contains("No such file"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // A word that is no file name is still a usage error with clap's suggestion.
    let (code, _, err) = run_in(dir.path(), &["extrat", "p.html"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("'extract'"), "{err}");
}

#[test]
fn a_file_named_like_a_subcommand_does_not_hide_it() {
    let dir = tempfile::tempdir().unwrap();
    write_page(&dir, "page.html", PAGE.as_bytes());
    let names = listed_subcommands();
    for name in &names {
        write_page(&dir, name, PAGE.as_bytes());
    }
    for name in &names {
        // `help` takes a subcommand instead of `--help`.
        let (args, usage) = match name.as_str() {
            "help" => (["help", "title"], "Usage: cescope title".to_string()),
            _ => ([name.as_str(), "--help"], format!("Usage: cescope {name}")),
        };
        let (code, out, err) = run_in(dir.path(), &args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(
            out.contains(&usage),
            "a file named {name} turned `cescope {}` into: {out}",
            args.join(" ")
        );
    }
    let (code, out, err) = run_in(dir.path(), &["title", "page.html", "--method", "title"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains('T'), "{out}");
}

/// `cescope eval ground-truth.json` inside the corpus folder: the bare file name has no parent
/// folder; the corpus is the current folder, named in the table header.
#[test]
fn eval_of_a_bare_ground_truth_name_in_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let gt = br#"{"p": {"articleBody": "The council approved the new bridge on Tuesday.", "url": "https://example.org/p"}}"#;
    for html_dir in [false, true] {
        let corpus = dir
            .path()
            .join(if html_dir { "withhtml" } else { "beside" });
        let pages = if html_dir {
            corpus.join("html")
        } else {
            corpus.clone()
        };
        std::fs::create_dir_all(&pages).unwrap();
        std::fs::write(pages.join("p.html"), PAGE).unwrap();
        std::fs::write(corpus.join("ground-truth.json"), gt).unwrap();
        let (code, out, err) = run_in(&corpus, &["eval", "ground-truth.json", "--algo", "danag"]);
        assert_eq!(code, Some(0), "{err}");
        let name = corpus.file_name().unwrap().to_str().unwrap();
        let header = out.lines().find(|l| l.starts_with("algo")).unwrap_or("");
        assert!(header.contains(name), "header names {name}: {out}");
    }
}

#[test]
fn gold_mark_without_a_selector_names_both_choices() {
    let dir = tempfile::tempdir().unwrap();
    write_page(&dir, "page.html", PAGE.as_bytes());
    let (code, _, err) = run_in(dir.path(), &["gold", "mark", "page.html"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--selector") && err.contains("--empty"),
        "{err}"
    );
    let (code, _, err) = run_in(
        dir.path(),
        &["gold", "mark", "page.html", "--selector", "p", "--empty"],
    );
    assert_eq!(code, Some(2), "{err}");
}

/// The README's synopsis of these commands lists every option their `--help` gives.
#[test]
fn readme_synopses_list_every_option() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for sub in ["inspect", "extract", "title", "blocks", "algos", "man"] {
        // Every table row of the command (`extract` has one for a page and one for batches).
        let row: String = readme
            .lines()
            .filter(|l| l.starts_with('|') && l.contains(&format!("cescope {sub} ")))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(!row.is_empty(), "no README row for {sub}");
        let out = cescope().args([sub, "--help"]).output().unwrap();
        let help = String::from_utf8(out.stdout).unwrap();
        let options: Vec<&str> = help
            .lines()
            .filter_map(|l| {
                let l = l.trim_start();
                let l = l
                    .strip_prefix("-")
                    .filter(|r| r.len() > 3 && r.as_bytes()[1] == b',')
                    .map_or(l, |r| r[2..].trim_start());
                l.strip_prefix("--")
                    .map(|r| r.split([' ', '=']).next().unwrap_or(""))
            })
            .filter(|o| !o.is_empty() && *o != "help")
            .collect();
        assert!(!options.is_empty(), "{help}");
        for o in options {
            assert!(
                row.contains(&format!("--{o} ")) || row.contains(&format!("--{o}]")),
                "the README's `{sub}` synopsis lacks --{o}: {row}"
            );
        }
    }
}

/// The README and the pages of `docs/` name the key that jumps to the next page without gold as
/// the keymap binds it, wherever they name it.
#[cfg(feature = "tui")]
#[test]
fn readme_and_docs_name_the_next_page_without_gold_key() {
    use cescope::tui::keymap::{Action, Keymap};
    let action = Action::from_name("next_unannotated").unwrap();
    let key = Keymap::builtin("default").unwrap().keys_label(action);
    let mut seen = 0;
    for (file, text) in readme_and_docs() {
        for (at, _) in text.match_indices("page without gold") {
            // The last code span before the phrase, within its sentence.
            let before = &text[..at];
            let sentence = &before[before.rfind(['.', ';', '(']).map_or(0, |i| i + 1)..];
            let named = sentence.rsplit('`').nth(1).unwrap_or("");
            assert_eq!(named, key, "{file}: {sentence}page without gold");
            seen += 1;
        }
    }
    assert!(seen >= 1);
}

/// README.md and every `docs/*.md` page, as (path relative to the checkout, text).
fn readme_and_docs() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| format!("docs/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|n| n.ends_with(".md"))
        .collect();
    names.sort();
    names.insert(0, "README.md".to_string());
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(root.join(&n)).unwrap();
            (n, text)
        })
        .collect()
}

/// The Markdown text outside fenced code blocks (their lines left empty).
fn outside_fences(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The Markdown text outside fenced code blocks and code spans (a code span ends at the next run
/// of as many backticks as opened it, possibly on a later line), so that links are read as GitHub
/// reads them.
fn markdown_prose(text: &str) -> String {
    let backticks = |s: &str| s.len() - s.trim_start_matches('`').len();
    let outside = outside_fences(text);
    let mut out = String::new();
    let mut rest = outside.as_str();
    while let Some(open) = rest.find('`') {
        out.push_str(&rest[..open]);
        let run = backticks(&rest[open..]);
        let after = &rest[open + run..];
        let mut close = None;
        let mut from = 0;
        while let Some(i) = after[from..].find('`') {
            let n = backticks(&after[from + i..]);
            if n == run {
                close = Some(from + i);
                break;
            }
            from += i + n;
        }
        match close {
            Some(at) => rest = &after[at + run..],
            None => {
                // No closing run: the backticks are literal.
                out.push_str(&rest[open..open + run]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The anchors GitHub gives a Markdown file's headings: lower case, characters other than
/// letters, digits, `-`, `_` and spaces dropped (code spans keep their text), spaces made `-`,
/// a repeated heading numbered `-1`, `-2`, ….
fn heading_anchors(text: &str) -> Vec<String> {
    let mut seen = std::collections::HashMap::<String, usize>::new();
    let mut anchors = Vec::new();
    for line in outside_fences(text).lines() {
        let hashes = line.len() - line.trim_start_matches('#').len();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let slug: String = line[hashes..]
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        anchors.push(if *n == 0 { slug } else { format!("{slug}-{n}") });
        *n += 1;
    }
    anchors
}

/// Every relative link in README.md and `docs/*.md` points to a file of the checkout, and one
/// with `#anchor` into a Markdown file to one of its headings; the README links every docs page
/// and every docs page links back to the README.
#[test]
fn readme_and_docs_links_resolve() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = readme_and_docs();
    assert!(files.len() > 1, "no docs/*.md pages");
    let mut problems = Vec::new();
    let mut checked = 0;
    for (name, text) in &files {
        let dir = root.join(name).parent().unwrap().to_path_buf();
        let prose = markdown_prose(text);
        for (at, _) in prose.match_indices("](") {
            let target = &prose[at + 2..];
            let Some(end) = target.find([')', ' ', '\n']) else {
                continue;
            };
            let target = &target[..end];
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
            let dest = if path.is_empty() {
                root.join(name)
            } else {
                dir.join(path)
            };
            if !dest.exists() {
                problems.push(format!("{name}: ({target}): no such file"));
                continue;
            }
            if anchor.is_empty() {
                continue;
            }
            if dest.extension().is_none_or(|e| e != "md") {
                problems.push(format!(
                    "{name}: ({target}): an anchor into a file not Markdown"
                ));
            } else if !heading_anchors(&std::fs::read_to_string(&dest).unwrap())
                .iter()
                .any(|a| a == anchor)
            {
                problems.push(format!("{name}: ({target}): no such heading"));
            }
        }
    }
    assert!(checked >= files.len(), "only {checked} links found");
    let readme = &files[0].1;
    for (name, text) in &files[1..] {
        if !readme.contains(&format!("]({name})")) && !readme.contains(&format!("]({name}#")) {
            problems.push(format!("README.md does not link {name}"));
        }
        if !text.contains("](../README.md") {
            problems.push(format!("{name} does not link back to README.md"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Shell completions and manual pages, generated from the clap tree (issue 20)
// ---------------------------------------------------------------------------------------------

/// The words of a script: runs of letters, digits, `-` and `_`.
fn words_of(script: &str) -> std::collections::HashSet<&str> {
    script
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .collect()
}

#[test]
fn completions_name_every_subcommand() {
    let top = listed_subcommands();
    let gold = subcommands_of(&["gold"]);
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = cescope().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}: {out:?}");
        let script = String::from_utf8(out.stdout).unwrap();
        let words = words_of(&script);
        for name in top.iter().chain(&gold) {
            assert!(
                words.contains(name.as_str()),
                "the {shell} completion does not name the subcommand {name}"
            );
        }
        // Options too: every long option of `extract` (its --help lists them, one a line).
        let help = cescope().args(["extract", "--help"]).output().unwrap();
        let help = String::from_utf8(help.stdout).unwrap();
        let options: Vec<&str> = help
            .lines()
            .filter(|l| l.trim_start().starts_with('-'))
            .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
            .collect();
        assert!(options.len() >= 10, "{help}");
        for option in options {
            // fish spells a long option `-l NAME`.
            let fish = format!("-l {}", &option[2..]);
            assert!(
                words.contains(option) || (shell == "fish" && script.contains(&fish)),
                "the {shell} completion lacks {option}"
            );
        }
    }
    // The bash script is valid bash.
    let script = cescope().args(["completions", "bash"]).output().unwrap();
    let mut bash = Command::new("bash");
    bash.arg("-n");
    let checked = run_with_input(bash, &script.stdout).expect("bash runs");
    assert!(
        checked.status.success(),
        "bash -n: {}",
        String::from_utf8_lossy(&checked.stderr)
    );
    // An unknown shell is a usage error naming the ones there are.
    let out = cescope().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bash"));
}

/// The man(7) requests a page may use (groff_man(7), including the `.ie` / `.el` / `.ds`
/// preamble that defines `\*(Aq`).
const MAN_REQUESTS: &[&str] = &[
    "TH", "SH", "SS", "TP", "TQ", "PP", "LP", "P", "IP", "RS", "RE", "B", "I", "BR", "BI", "IB",
    "IR", "RB", "RI", "SM", "SB", "EX", "EE", "UR", "UE", "MT", "ME", "SY", "YS", "OP", "br", "sp",
    "nf", "fi", "in", "ti", "ie", "el", "ds",
];

/// Problems of a man page read as roff: a request that is not a man(7) macro, an escape
/// sequence troff does not know, a character outside ASCII (troff reads its input as Latin-1
/// unless a preprocessor says otherwise), a missing `.TH` or section. Empty: well formed.
fn roff_problems(page: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if !page.is_ascii() {
        problems.push("characters outside ASCII (use \\[uXXXX])".to_string());
    }
    let mut title = 0;
    for (n, line) in page.lines().enumerate() {
        let at = n + 1;
        if let Some(req) = line.strip_prefix('.').or_else(|| line.strip_prefix('\'')) {
            let name = req.split_whitespace().next().unwrap_or("");
            if !name.is_empty() && !MAN_REQUESTS.contains(&name) {
                problems.push(format!("line {at}: unknown request .{name}"));
            }
            title += usize::from(name == "TH");
        }
        let mut rest = line;
        while let Some(i) = rest.find('\\') {
            rest = &rest[i + 1..];
            let mut chars = rest.chars();
            let len = match chars.next() {
                Some('-' | '&' | 'e' | '\\' | '\'' | '`' | '.' | ' ' | '|' | '^' | '~' | '0') => 1,
                Some('f') => match chars.next() {
                    Some('B' | 'I' | 'R' | 'P') => 2,
                    _ => 0,
                },
                // \(xx, \*(xx, \n(xx, \[name], \*[name]
                Some('(') => 3,
                Some('*' | 'n') => match chars.next() {
                    Some('(') => 4,
                    Some('[') => rest.find(']').map_or(0, |e| e + 1),
                    Some(_) => 2,
                    None => 0,
                },
                Some('[') => rest.find(']').map_or(0, |e| e + 1),
                _ => 0,
            };
            if len == 0 || rest.len() < len {
                problems.push(format!(
                    "line {at}: bad escape \\{}",
                    &rest[..rest.len().min(4)]
                ));
                break;
            }
            rest = &rest[len..];
        }
    }
    if title != 1 {
        problems.push(format!("{title} .TH requests, expected 1"));
    }
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION"] {
        if !page.lines().any(|l| l == format!(".SH {section}")) {
            problems.push(format!("no .SH {section}"));
        }
    }
    problems
}

/// What `groff -man -ww` warns about the page (every warning on), or `None` where groff is not
/// installed; in CI (`CI` set) groff is required, as `.ci/run` installs it.
fn groff_warnings(page: &str) -> Option<String> {
    let mut groff = Command::new("groff");
    groff.args(["-man", "-Tutf8", "-ww", "-z"]);
    let out = match run_with_input(groff, page.as_bytes()) {
        Ok(out) => out,
        Err(e) if std::env::var_os("CI").is_some() => {
            panic!("groff is needed in CI to check the manual pages ({e}); .ci/run installs groff-base")
        }
        Err(e) => {
            eprintln!("note: groff not run ({e}): the manual pages were checked without it");
            return None;
        }
    };
    assert!(out.status.success(), "groff failed: {out:?}");
    Some(String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn the_roff_check_finds_bad_pages() {
    let good = ".TH x 1\n.SH NAME\nx \\- y \\fBz\\fR \\[u2014]\n.SH SYNOPSIS\n.SH DESCRIPTION\n";
    assert_eq!(roff_problems(good), Vec::<String>::new());
    for bad in [
        good.replace(".SH SYNOPSIS", ".XX SYNOPSIS"),
        good.replace("\\fB", "\\q"),
        good.replace("\\[u2014]", "\u{2014}"),
        good.replace(".TH x 1\n", ""),
        good.replace(".SH NAME\n", ""),
    ] {
        assert!(!roff_problems(&bad).is_empty(), "{bad}");
    }
}

#[test]
fn man_page_is_roff_that_names_every_subcommand() {
    let out = cescope().arg("man").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let page = String::from_utf8(out.stdout).unwrap();
    assert_eq!(roff_problems(&page), Vec::<String>::new(), "{page}");
    if let Some(warnings) = groff_warnings(&page) {
        assert_eq!(warnings, "", "groff -ww on cescope(1)");
    }
    let top: Vec<String> = listed_subcommands()
        .into_iter()
        .filter(|n| n != "help")
        .collect();
    for name in &top {
        assert!(
            page.contains(&format!("cescope\\-{name}(1)")),
            "cescope(1) does not name the subcommand {name}"
        );
    }

    // --dir: one page per command and subcommand, each well formed, each with its options.
    let dir = tempfile::tempdir().unwrap();
    let out = cescope()
        .args(["man", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut expected: Vec<String> = top.iter().map(|n| format!("cescope-{n}.1")).collect();
    for parent in ["gold", "guideline"] {
        for sub in subcommands_of(&[parent]).iter().filter(|n| *n != "help") {
            expected.push(format!("cescope-{parent}-{sub}.1"));
        }
    }
    expected.push("cescope.1".into());
    expected.sort();
    let mut written: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(written, expected);
    for name in &written {
        let page = std::fs::read_to_string(dir.path().join(name)).unwrap();
        assert_eq!(roff_problems(&page), Vec::<String>::new(), "{name}");
        if let Some(warnings) = groff_warnings(&page) {
            assert_eq!(warnings, "", "groff -ww on {name}");
        }
    }
    let extract = std::fs::read_to_string(dir.path().join("cescope-extract.1")).unwrap();
    assert!(extract.contains("\\-\\-encoding"), "{extract}");
}

/// `cescope train --method headline` writes a headline model file (byte-identical on a second
/// run) that `title --method FILE.json` and `eval --headline --algo FILE.json` load; `--test`
/// and an extractor's model file are clear errors.
#[test]
fn train_headline_writes_a_model_that_title_and_eval_load() {
    let dir = tempfile::tempdir().unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let out = dir.path().join("heads.json");
    let train = |path: &std::path::Path| {
        let o = cescope()
            .current_dir(root)
            .args([
                "train",
                "--method",
                "headline",
                "--train",
                "sample-pages",
                "--out",
            ])
            .arg(path)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read(path).unwrap()
    };
    let a = train(&out);
    assert_eq!(a, train(&dir.path().join("again.json")));
    assert!(String::from_utf8_lossy(&a).contains("\"method\": \"headline\""));
    let o = cescope()
        .current_dir(root)
        .args([
            "title",
            "sample-pages/news-article.html",
            "--top",
            "1",
            "--method",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let line = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(line.contains("Castlebridge flood barrier"), "{line}");
    let o = cescope()
        .current_dir(root)
        .args(["eval", "--headline", "sample-pages", "--algo"])
        .arg(format!("tf,{}", out.display()))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("heads"));
    let o = cescope()
        .current_dir(root)
        .args(["train", "--method", "headline", "--train", "sample-pages"])
        .args(["--test", "sample-pages", "--out"])
        .arg(dir.path().join("x.json"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--test is not used"));
    let o = cescope()
        .current_dir(root)
        .args([
            "title",
            "sample-pages/news-article.html",
            "--method",
            "models/learned.json",
        ])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a headline ranker"));
}

/// `cescope guideline list | show | check`: the presets, a preset's choices with their
/// reasons, a file checked (a bad key named, exit 1).
#[test]
fn guideline_list_show_and_check() {
    let out = cescope().args(["guideline", "list"]).output().unwrap();
    assert!(out.status.success());
    let list = String::from_utf8(out.stdout).unwrap();
    for name in [
        "article",
        "dragnet",
        "with-comments",
        "l3s-gn1",
        "cleaneval",
        "forum",
    ] {
        assert!(
            list.lines().any(|l| l.starts_with(&format!("{name} "))),
            "{name} in {list}"
        );
    }
    let out = cescope()
        .args(["guideline", "show", "with-comments"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let show = String::from_utf8(out.stdout).unwrap();
    assert!(show.contains("Peters & Lecocq (2013)"), "{show}");
    assert!(
        show.lines()
            .any(|l| l.trim_start().starts_with("comments") && l.contains(" in ")),
        "{show}"
    );
    let dir = tempfile::tempdir().unwrap();
    let good = write_page(
        &dir,
        "g.toml",
        b"name = \"mine\"\n[units]\ncomments = \"in\"\nposts = \"first\"\n",
    );
    let out = cescope()
        .args(["guideline", "check"])
        .arg(&good)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("OK "), "{text}");
    assert!(
        text.contains("left to the extractor: headline, byline"),
        "{text}"
    );
    let bad = write_page(&dir, "b.toml", b"name = \"x\"\n[units]\ncomment = \"in\"\n");
    let out = cescope()
        .args(["guideline", "check"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("[units] comment: no such unit kind"), "{err}");
    // A name that is neither a preset nor a file.
    let out = cescope()
        .args([
            "extract",
            "--guideline",
            "nope",
            "sample-pages/teaching.html",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no guideline \"nope\""), "{err}");
}

/// `extract --guideline with-comments` keeps a blog article's comment section and `--guideline
/// article` drops it, on the hand-made blog page, for a line-based and a learned extractor;
/// without `--guideline` the output is the extractor's own.
#[test]
fn extract_guideline_keeps_or_drops_the_comments() {
    let page = "sample-pages/blog-comments.html";
    let run = |args: &[&str]| {
        let out = cescope()
            .arg("extract")
            .args(args)
            .arg(page)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    for algo in ["learned", "danag"] {
        let plain = run(&["--algo", algo]);
        let with = run(&["--algo", algo, "--guideline", "with-comments"]);
        let article = run(&["--algo", algo, "--guideline", "article"]);
        for comment in ["Same story on plot 3", "ladybird larva", "autumn sowing"] {
            assert!(with.contains(comment), "{algo} with-comments: {comment}");
            assert!(!article.contains(comment), "{algo} article: {comment}");
        }
        // The article's text stays in both; the sidebar's comments widget in neither.
        for text in ["Every April I tell", "The second sowing"] {
            assert!(
                with.contains(text) && article.contains(text),
                "{algo}: {text}"
            );
        }
        assert!(!with.contains("Pat on Forcing"), "{algo}: the widget");
        // article: no headline, byline or caption; with-comments: all three.
        assert!(!article.contains("Why my broad beans failed this spring\n"));
        assert!(
            with.starts_with("Why my broad beans failed this spring\n"),
            "{with}"
        );
        assert!(with.contains("every gap is a seed") && !article.contains("every gap is a seed"));
        assert_ne!(plain, with);
    }
    // JSON names the guideline with its hash.
    let out = cescope()
        .args([
            "extract",
            "--format",
            "json",
            "--guideline",
            "article",
            page,
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["guideline"]["name"], "article");
    assert_eq!(v["guideline"]["sha256"].as_str().unwrap().len(), 64);
    let out = cescope()
        .args(["extract", "--format", "json", page])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.get("guideline").is_none());
}

/// The batch takes `--guideline` too: a directory of pages, each record finished by it.
#[test]
fn batch_extract_takes_a_guideline() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        "sample-pages/blog-comments.html",
        dir.path().join("blog.html"),
    )
    .unwrap();
    let records = |g: Option<&str>| {
        let mut c = cescope();
        c.args(["extract", "--algo", "learned", "--input"])
            .arg(dir.path());
        if let Some(g) = g {
            c.args(["--guideline", g]);
        }
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let line = String::from_utf8(out.stdout).unwrap();
        let v: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
        v["text"].as_str().unwrap().to_string()
    };
    assert!(records(Some("with-comments")).contains("ladybird larva"));
    assert!(!records(Some("article")).contains("ladybird larva"));
    assert!(!records(None).contains("ladybird larva"));
}
