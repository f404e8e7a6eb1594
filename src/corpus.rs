//! Corpora: a directory of pages, or the `ground-truth.json` + `html/` layout of the
//! Article Extraction Benchmark (as in `../shared/corpus/*`), read where they are.
//!
//! The common gold format is one JSON object `id → {"articleBody": str, "headline"?: str,
//! "url"?: str}`; page `id` is the file `html/<id>.html`, `html/<id>.htm`, or either with `.gz`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{Error, Result};

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
/// Errors: [`Error::Corpus`] for a missing path, malformed JSON, or a directory without pages.
pub fn open(path: &Path) -> Result<Corpus> {
    let (root, gt) = if path.is_file() {
        let root = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        (root, Some(path.to_path_buf()))
    } else if path.is_dir() {
        let gt = path.join("ground-truth.json");
        (path.to_path_buf(), gt.is_file().then_some(gt))
    } else {
        return Err(Error::Corpus(format!(
            "{}: no such file or directory",
            path.display()
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
                        "{}: no page file for id {id} in {}",
                        gt.display(),
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

/// Reads a `ground-truth.json` file: `id → {"articleBody", "headline"?, "url"?}`, a regular
/// file of at most [`crate::page::decode::MAX_INPUT_BYTES`] (a FIFO or device is refused
/// without blocking). The ids are untrusted: check them
/// ([`crate::fsio::write::check_file_name`]) before using one as a file name. Errors:
/// [`Error::Io`], [`Error::Corpus`] for a non-regular or too large file or malformed JSON.
pub fn read_ground_truth(gt: &Path) -> Result<BTreeMap<String, GoldText>> {
    use crate::fsio::read::{read_regular, ReadError};
    let data = match read_regular(gt, crate::page::decode::MAX_INPUT_BYTES) {
        Ok(d) => d,
        Err(ReadError::Io(e)) => return Err(Error::io(gt, e)),
        Err(e) => return Err(Error::Corpus(format!("{}: {e}", gt.display()))),
    };
    serde_json::from_slice(&data).map_err(|e| {
        Error::Corpus(format!(
            "{}: not a ground-truth file (id -> {{articleBody, headline?, url}}): {e}",
            gt.display()
        ))
    })
}

fn list_pages(dir: &Path) -> Result<Vec<PathBuf>> {
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut out = Vec::new();
    for entry in rd.flatten() {
        let p = entry.path();
        if p.is_file() && is_page_file(&p) {
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
}
