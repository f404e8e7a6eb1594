//! Training data: the pages of `--train` / `--test` corpora with their gold selection in the
//! normal form, read and prepared once each.
//!
//! Pages come from [`gather_with`] with [`ReviewedGold`]: a `ground-truth.json` corpus
//! (its `articleBody` aligned to the page's words by the exact word LCS of `gold import`,
//! [`PageWords::locate`]) or a folder of pages with cescope gold files (the file's own
//! main-content ranges, the page decoded with the encoding the file names) — a gold file still
//! a draft or flagged is left out with a note: a model trained on drafts would learn the
//! mistakes of the extractor that drafted them. Every page is read,
//! decoded and handed to a method's `prepare` in parallel on the current rayon pool, the results
//! collected **in page order**, and the page dropped: only the method's compact data stay.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::eval::run::{gather_with, EvalPage, ReviewedGold};
use crate::page::locate::PageWords;
use crate::page::{DecodeOptions, Page};
use crate::selection::Selection;

/// Where a training page comes from and what it is about (no page content).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageMeta {
    /// The corpus name (unique in one run, [`gather_with`]).
    pub corpus: String,
    /// The page id in its corpus.
    pub id: String,
    /// The page file.
    pub path: PathBuf,
    /// The host of the gold URL, `"unknown"` without one: the grouping key of the folds.
    pub site: String,
    /// The corpus' page type (WCXB's `page_type`), if any.
    pub page_type: Option<String>,
}

/// One prepared page: its description, the gold text (what extracts are scored against) and
/// the method's data.
#[derive(Debug, Clone)]
pub struct Prepared<T> {
    /// Where it came from.
    pub meta: PageMeta,
    /// The gold main content as plain text (`articleBody`, or the gold file's text).
    pub gold_text: String,
    /// What the method made of the page ([`crate::learn::Learner::prepare`]).
    pub data: T,
}

/// The gathered pages of some corpora and the notes of [`gather_with`] (pages without gold,
/// unfinished gold files). Errors: those of [`gather_with`]; [`Error::Train`] when no page has a
/// gold standard.
pub fn gather(paths: &[PathBuf]) -> Result<(Vec<EvalPage>, Vec<String>)> {
    let (pages, notes) = gather_with(paths, &ReviewedGold)?;
    if pages.is_empty() {
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let why = if notes.is_empty() {
            String::new()
        } else {
            format!("; {}", notes.join("; "))
        };
        return Err(Error::Train(format!(
            "no page with a gold standard in {} (a ground-truth.json corpus, or a folder of \
             pages with reviewed cescope gold files){why}",
            shown.join(", ")
        )));
    }
    Ok((pages, notes))
}

/// The description of a gathered page.
pub fn meta_of(ep: &EvalPage) -> PageMeta {
    PageMeta {
        corpus: ep.corpus.clone(),
        id: ep.id.clone(),
        path: ep.path.clone(),
        site: ep.site.clone(),
        page_type: ep.gold.page_type.clone(),
    }
}

/// Reads page `ep` and its gold selection in the normal form ([`Page::normalize`]): for a page
/// with a cescope gold file (its gold carries the page's hash) the file's main-content ranges,
/// the page decoded with the file's encoding; otherwise the gold text located in the page
/// ([`PageWords::locate`], as `gold import` does). Errors: the page or the gold file cannot be
/// read ([`Error`] of [`Page::load`], [`Error::Train`] naming the gold file).
pub fn load_with_gold(ep: &EvalPage) -> Result<(Page, Selection)> {
    if ep.gold_sha256.is_some() {
        let gold_path = crate::gold::gold_path_for(&ep.path, None);
        let g = crate::gold::load(&gold_path).map_err(|e| {
            Error::Train(format!(
                "{}: {e}",
                crate::fsio::write::printable_path(&gold_path)
            ))
        })?;
        let opts = DecodeOptions {
            encoding_override: Some(g.encoding.clone()),
            ..DecodeOptions::default()
        };
        let page = Page::load(Path::new(&ep.path), &opts)?;
        let sel = page.normalize(&g.main_selection());
        return Ok((page, sel));
    }
    let page = Page::load(Path::new(&ep.path), &DecodeOptions::default())?;
    let located = PageWords::new(&page).locate(&ep.gold.article_body);
    let sel = page.normalize(&located.selection);
    Ok((page, sel))
}

/// Reads every page of `pages` once and turns it into `prepare`'s data, in parallel on the
/// current rayon pool, in page order; `tick` is called once per page (a progress bar). A page
/// that cannot be read is left out with a note naming it (best effort: one broken page does not
/// stop a training run).
pub fn prepare_all<T: Send>(
    pages: &[EvalPage],
    prepare: &(dyn Fn(&Page, &Selection) -> T + Sync),
    tick: &(dyn Fn() + Sync),
) -> (Vec<Prepared<T>>, Vec<String>) {
    let out: Vec<std::result::Result<Prepared<T>, String>> = pages
        .par_iter()
        .map(|ep| {
            let r = load_with_gold(ep).map(|(page, gold)| Prepared {
                meta: meta_of(ep),
                gold_text: ep.gold.article_body.clone(),
                data: prepare(&page, &gold),
            });
            tick();
            r.map_err(|e| {
                crate::error::escape_controls(&format!(
                    "{}: skipped page {}: {}",
                    ep.corpus,
                    ep.id,
                    crate::error::report(&e)
                ))
            })
        })
        .collect();
    let mut ok = Vec::with_capacity(out.len());
    let mut notes = Vec::new();
    for r in out {
        match r {
            Ok(p) => ok.push(p),
            Err(n) => notes.push(n),
        }
    }
    (ok, notes)
}

/// What a model file records as CleanEval's licence: the development set was published by the
/// CleanEval organisers (Baroni, Chantree, Kilgarriff, Sharoff; sigwac.org.uk/cleaneval) for
/// the 2007 shared task with no licence named.
pub const CLEANEVAL_TERMS: &str =
    "no licence stated (CleanEval 2007 shared-task development set, research use)";

/// The licence of a corpus by its name, for the model file's training record: scrapinghub's
/// article-extraction benchmark MIT, WCXB CC-BY-4.0, Mozilla Readability's test pages
/// Apache-2.0, CleanEval's development set (2007) [`CLEANEVAL_TERMS`] — its organisers
/// published it for the shared task without naming a licence —, `unknown` for anything else
/// (an annotator's own gold: state it yourself).
pub fn licence_of(corpus: &str) -> &'static str {
    let c = corpus.to_ascii_lowercase();
    if c.starts_with("scrapinghub") {
        "MIT"
    } else if c.starts_with("wcxb") {
        "CC-BY-4.0"
    } else if c.starts_with("readability") {
        "Apache-2.0"
    } else if c.starts_with("cleaneval") {
        CLEANEVAL_TERMS
    } else {
        "unknown"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gold_files_give_their_ranges_and_bad_corpora_are_errors() {
        let (pages, _) = gather(&[PathBuf::from("sample-pages")]).unwrap();
        let ep = pages.iter().find(|p| p.id == "news-article").unwrap();
        let (page, sel) = load_with_gold(ep).unwrap();
        let g = crate::gold::load(Path::new("gold/news-article.json")).unwrap();
        assert_eq!(sel, page.normalize(&g.main_selection()));
        assert!(!sel.is_empty());
        let missing = gather(&[PathBuf::from("no/such/corpus")]).unwrap_err();
        assert!(missing.to_string().contains("no such file"), "{missing}");
        assert_eq!(licence_of("wcxb-dev"), "CC-BY-4.0");
        assert_eq!(licence_of("scrapinghub-dev#2"), "MIT");
        assert_eq!(licence_of("mine"), "unknown");
        assert_eq!(licence_of("cleaneval-dev"), CLEANEVAL_TERMS);
    }
}
