//! Corpora: a directory of pages, or the `ground-truth.json` + `html/` layout of the
//! Article Extraction Benchmark (as in `../shared/corpus/*`), read where they are.
//!
//! The common gold format is one JSON object `id → {"articleBody": str, "headline"?: str,
//! "url"?: str}`; page `id` is the file `html/<id>.html`, `html/<id>.htm`, or either with `.gz`.
//!
//! A corpus can also be one JSONL file, each line a page with its gold in the same record shape
//! (`{"id", "url", "html", "articleBody", "headline"?, "page_type"?}`): it is streamed rather than
//! listed, by [`crate::batch::jsonl`] (schema) and [`crate::batch::eval`] (`cescope eval
//! FILE.jsonl`); `cescope extract --input DIR --output pages` writes one from a directory corpus.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{escape_controls, Error, Result};
use crate::fsio::read::{kind_of, read_regular, ReadError};

/// Largest `ground-truth.json` [`open`] reads, in bytes (256 MiB; the largest shared corpus
/// file, wcxb-dev's, is 15 MB). The parsed map takes a few times the file's size in memory.
pub const MAX_GROUND_TRUTH_BYTES: u64 = 256 << 20;

/// The gold standard of one page in the common (Scrapinghub) format.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, serde::Serialize)]
pub struct GoldText {
    /// The main content as plain text.
    #[serde(rename = "articleBody", default)]
    pub article_body: String,
    /// The headline, when annotated.
    #[serde(default)]
    pub headline: Option<String>,
    /// Where the page came from (reference only).
    #[serde(default)]
    pub url: Option<String>,
    /// The kind of page (`"article"`, `"forum"`, `"product"`, …) when the corpus labels it
    /// (WCXB's `page_type`); `eval --by type` groups by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_type: Option<String>,
}

/// One page of a corpus.
#[derive(Debug, Clone)]
pub struct CorpusPage {
    /// The page id (file stem for a plain directory).
    pub id: String,
    /// Path of the page file.
    pub path: PathBuf,
    /// Its gold standard, when the corpus has one.
    pub gold: Option<GoldText>,
}

/// A set of pages.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// Display name (the directory name).
    pub name: String,
    /// The directory.
    pub root: PathBuf,
    /// Pages sorted by id.
    pub pages: Vec<CorpusPage>,
}

/// True for file names cescope treats as pages: `.html`, `.htm`, optionally followed by `.gz`,
/// or any `.gz`.
pub fn is_page_file(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.ends_with(".html") || name.ends_with(".htm") || name.ends_with(".gz")
}

fn page_id(p: &Path) -> String {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut id = name.as_str();
    for suffix in [".gz", ".html", ".htm"] {
        if id.to_ascii_lowercase().ends_with(suffix) {
            id = &id[..id.len() - suffix.len()];
        }
    }
    id.to_string()
}

/// Opens a corpus: `path` is a `ground-truth.json` file, a directory holding one (pages in its
/// `html/` subdirectory, or beside it), or a plain directory of page files (no gold).
///
/// Page files are the entries named like pages ([`is_page_file`]) that are not directories; a
/// FIFO, socket or device among them is listed and refused when it is read
/// ([`crate::page::Page::load`]), so it is reported rather than skipped silently.
///
/// Errors: [`Error::Corpus`] for a missing path, a path that is neither a file nor a directory,
/// a ground-truth file that is not a regular file, is larger than [`MAX_GROUND_TRUTH_BYTES`]
/// or is malformed, an id without a page file, or a directory without pages; [`Error::Io`] when
/// the file system refuses.
pub fn open(path: &Path) -> Result<Corpus> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Error::Corpus(format!(
                "{}: no such file or directory",
                path.display()
            )))
        }
        Err(e) => return Err(Error::io(path, e)),
    };
    let (root, gt) = if meta.is_file() {
        if is_page_file(path) {
            return Err(Error::Corpus(format!(
                "{} is a page, not a corpus: this needs gold standards — a ground-truth.json \
                 (id -> {{articleBody, headline?, url?}}) or a directory holding one (for one \
                 page: `cescope extract PAGE` or `cescope inspect PAGE`)",
                path.display()
            )));
        }
        // A bare file name (`ground-truth.json` in the current folder) has the parent "",
        // which names no folder: the corpus is the current folder.
        let root = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        (root, Some(path.to_path_buf()))
    } else if meta.is_dir() {
        let gt = path.join("ground-truth.json");
        // Present but unusable (a FIFO, a directory…) is an error from read_ground_truth, not a
        // reason to treat the corpus as a plain directory.
        let present = std::fs::symlink_metadata(&gt).is_ok();
        (path.to_path_buf(), present.then_some(gt))
    } else {
        return Err(Error::Corpus(format!(
            "{}: it is {}, not a ground-truth file or a directory of pages",
            path.display(),
            kind_of(&meta)
        )));
    };
    let name = root
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| root.display().to_string());
    let html_dir = if root.join("html").is_dir() {
        root.join("html")
    } else {
        root.clone()
    };
    let files = list_pages(&html_dir)?;
    let mut pages = Vec::new();
    if let Some(gt) = gt {
        let gold = read_ground_truth(&gt)?;
        let by_id: BTreeMap<String, PathBuf> =
            files.into_iter().map(|p| (page_id(&p), p)).collect();
        for (id, g) in gold {
            match by_id.get(&id) {
                Some(p) => pages.push(CorpusPage {
                    id,
                    path: p.clone(),
                    gold: Some(g),
                }),
                None => {
                    return Err(Error::Corpus(format!(
                        "{}: no page file for id {} in {}",
                        gt.display(),
                        escape_controls(&format!("{id:?}")),
                        html_dir.display()
                    )))
                }
            }
        }
    } else {
        for p in files {
            pages.push(CorpusPage {
                id: page_id(&p),
                path: p,
                gold: None,
            });
        }
    }
    if pages.is_empty() {
        return Err(Error::Corpus(format!(
            "{}: no pages (.html, .htm, .gz) found",
            path.display()
        )));
    }
    pages.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(Corpus { name, root, pages })
}

/// Reads a ground-truth file in the common format (`id → {"articleBody", "headline"?,
/// "url"?}`), through [`read_regular`]: a FIFO, socket, device or directory is refused without
/// blocking, and a file over [`MAX_GROUND_TRUTH_BYTES`] is refused before it is read.
/// Errors: [`Error::Corpus`] naming the file and what is wrong (not a regular file, too large,
/// malformed JSON with its position); [`Error::Io`] (missing, permissions).
pub fn read_ground_truth(path: &Path) -> Result<BTreeMap<String, GoldText>> {
    let data = read_regular(path, MAX_GROUND_TRUTH_BYTES).map_err(|e| match e {
        ReadError::Io(e) => Error::io(path, e),
        other => Error::Corpus(format!("cannot read {}: {other}", path.display())),
    })?;
    serde_json::from_slice(&data).map_err(|e| {
        if is_gold_file(&data) {
            return Error::Corpus(format!(
                "{} is a cescope gold file (one page's annotation), not a ground-truth corpus: \
                 open its page (`cescope inspect PAGE`; the gold is found beside it or in the \
                 gold folder), or turn gold files into a corpus with `cescope gold export`",
                path.display()
            ));
        }
        Error::Corpus(format!(
            "{}: not a ground-truth file (id -> {{articleBody, headline?, url?}}): {}",
            path.display(),
            escape_controls(&e.to_string())
        ))
    })
}

/// True when `data` is a cescope gold file (its `schema` is `cescope-gold`, the tag of
/// `gold::SCHEMA_TAG`; `gold` depends on this module, not the other way round).
fn is_gold_file(data: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(data)
        .ok()
        .and_then(|v| v.get("schema")?.as_str().map(|s| s == "cescope-gold"))
        .unwrap_or(false)
}

fn list_pages(dir: &Path) -> Result<Vec<PathBuf>> {
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut out = Vec::new();
    for entry in rd.flatten() {
        let p = entry.path();
        if is_page_file(&p) && !p.is_dir() {
            out.push(p);
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_directory_and_ground_truth_layout() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("html")).unwrap();
        std::fs::write(dir.path().join("html/a.html"), "<p>a</p>").unwrap();
        std::fs::write(dir.path().join("html/b.html.gz"), "x").unwrap();
        std::fs::write(dir.path().join("html/notes.txt"), "x").unwrap();
        let c = open(&dir.path().join("html")).unwrap();
        assert_eq!(
            c.pages.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        std::fs::write(
            dir.path().join("ground-truth.json"),
            r#"{"b": {"articleBody": "B", "url": "u"}, "a": {"articleBody": "A", "headline": "H"}}"#,
        )
        .unwrap();
        let c = open(dir.path()).unwrap();
        assert_eq!(c.pages.len(), 2);
        assert_eq!(
            c.pages[0].gold.as_ref().unwrap().headline.as_deref(),
            Some("H")
        );
        let c2 = open(&dir.path().join("ground-truth.json")).unwrap();
        assert_eq!(c2.pages.len(), 2);
    }

    #[test]
    fn errors_are_clear() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            open(&dir.path().join("nope")),
            Err(Error::Corpus(_))
        ));
        assert!(matches!(open(dir.path()), Err(Error::Corpus(_))));
        std::fs::write(dir.path().join("ground-truth.json"), "{bad").unwrap();
        assert!(matches!(open(dir.path()), Err(Error::Corpus(_))));
    }

    #[cfg(unix)]
    #[test]
    fn fifo_ground_truth_is_refused_not_read_or_ignored() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.html"), "<p>a</p>").unwrap();
        let gt = dir.path().join("ground-truth.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&gt)
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if !made {
            return;
        }
        for p in [dir.path().to_path_buf(), gt] {
            match open(&p) {
                Err(Error::Corpus(m)) => assert!(m.contains("FIFO"), "{m}"),
                other => panic!("{other:?}"),
            }
        }
    }
}
