//! The gold workflows behind `cescope gold mark | import | export | check | agree`: each takes
//! typed options, does the work and returns a typed report that the command line prints.
//!
//! Every name taken from a file — a gold file's `page`, a ground truth's ids — is checked as a
//! bare file name ([`check_file_name`]) before it is joined to a folder, so no workflow reads or
//! writes outside the folders the user named. Two inputs that map to one output file are an
//! error naming both ([`Outputs`]), found before anything is written. Every file is written
//! atomically through [`crate::fsio::write`], never through a symbolic link.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::{
    agree as agreement, check as check_gold, export_scrapinghub, export_text, gold_path_for,
    import_scrapinghub, load, mark, save, verify, Agreement, Difference, Gold, GoldError,
    GuidelineRef, ImportStats, Problem, SaveMode, SaveOutcome,
};
use crate::corpus::GoldText;
use crate::fsio::write::{
    self, check_destination, check_file_name, printable, printable_path, DuplicateOutput,
    NameError, Outputs, Replace, WriteError, WriteOptions,
};
use crate::metrics::words;
use crate::page::units::{UnitKind, Units};
use crate::page::{DecodeOptions, Page};
use crate::selection::Selection;

/// Why a gold workflow stopped before doing its work. Messages name the file; causes are part of
/// the message (no separate `source()`).
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// A folder holds no gold file.
    #[error("no gold files (*.json) in {}", printable_path(.0))]
    NoGoldFiles(PathBuf),
    /// A folder cannot be listed.
    #[error("cannot read the folder {}: {cause}", printable_path(.path))]
    ReadDir {
        /// The folder.
        path: PathBuf,
        /// The operating system's error.
        cause: std::io::Error,
    },
    /// A gold file cannot be read.
    #[error(transparent)]
    Gold(#[from] GoldError),
    /// A name taken from a file is not a bare file name.
    #[error("{}: {what} {error}", printable(.file))]
    Name {
        /// The file the name comes from.
        file: String,
        /// Which name ("page", "id").
        what: &'static str,
        /// What is wrong.
        error: NameError,
    },
    /// Two inputs map to one output.
    #[error(transparent)]
    Duplicate(#[from] DuplicateOutput),
    /// Two gold files of one set are for the same page.
    #[error("{} and {} are both gold files of page id \"{}\"; keep one", printable(.first), printable(.second), printable(.id))]
    SamePage {
        /// The first gold file.
        first: String,
        /// The second gold file.
        second: String,
        /// Their page id ([`Gold::page_id`]).
        id: String,
    },
    /// Writing an output failed (the output is unchanged).
    #[error(transparent)]
    Write(#[from] WriteError),
    /// A corpus or ground-truth file cannot be used.
    #[error("{}", printable(&.0.to_string()))]
    Corpus(#[from] crate::Error),
    /// A CSS selector cannot be used.
    #[error(transparent)]
    Mark(#[from] mark::MarkError),
    /// `--pages` is not a folder.
    #[error("--pages {}: not a directory", printable_path(.0))]
    NotADirectory(PathBuf),
    /// A ground truth without a page to import.
    #[error("{}: no page to import", printable_path(.0))]
    NoPage(PathBuf),
    /// `export --to text` without an output folder.
    #[error("--to text writes one file per page: give the directory with --out DIR")]
    TextNeedsOut,
}

fn name_err(file: impl Into<String>, what: &'static str) -> impl FnOnce(NameError) -> CommandError {
    let file = file.into();
    move |error| CommandError::Name { file, what, error }
}

// ---------------------------------------------------------------------------------------------
// Gold folders
// ---------------------------------------------------------------------------------------------

/// The gold files of a folder: `*.json` regular files, sorted, without hidden files (temporary
/// `.…tmp` and recovery `.….recover` files) and backups (`.bak`). Errors:
/// [`CommandError::ReadDir`].
pub fn gold_files(dir: &Path) -> Result<Vec<PathBuf>, CommandError> {
    let rd = std::fs::read_dir(dir).map_err(|cause| CommandError::ReadDir {
        path: dir.to_path_buf(),
        cause,
    })?;
    let mut files: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            name.ends_with(".json") && !name.starts_with('.') && p.is_file()
        })
        .collect();
    files.sort();
    Ok(files)
}

/// Loads every gold file of `dir` ([`gold_files`]) and checks that each names its page by a
/// bare file name. Errors: the first file that cannot be loaded, a `page` with directories,
/// [`CommandError::NoGoldFiles`].
pub fn load_gold_dir(dir: &Path) -> Result<Vec<(PathBuf, Gold)>, CommandError> {
    let files = gold_files(dir)?;
    if files.is_empty() {
        return Err(CommandError::NoGoldFiles(dir.to_path_buf()));
    }
    files
        .into_iter()
        .map(|p| {
            let g = load(&p)?;
            check_file_name(&g.page).map_err(name_err(p.display().to_string(), "page"))?;
            Ok((p, g))
        })
        .collect()
}

/// Refuses two gold files of one set with the same page id ([`Gold::page_id`]).
fn unique_ids(golds: &[(PathBuf, Gold)], dir: &Path) -> Result<(), CommandError> {
    let mut ids = Outputs::new();
    for (p, g) in golds {
        ids.claim(&dir.join(g.page_id()), p.display().to_string())
            .map_err(|e| CommandError::SamePage {
                first: e.first,
                second: e.second,
                id: g.page_id().to_string(),
            })?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// mark
// ---------------------------------------------------------------------------------------------

/// Options of [`mark_pages`] (`cescope gold mark`).
#[derive(Debug, Clone, Default)]
pub struct MarkOptions {
    /// Page files, or folders of pages.
    pub paths: Vec<PathBuf>,
    /// CSS selector of the main content ([`mark::mark_page`]); `None` with `empty`.
    pub selector: Option<String>,
    /// CSS selector of the headline.
    pub headline: Option<String>,
    /// The pages have no main content: finished gold files with an empty main content.
    pub empty: bool,
    /// Folder of the gold files (default: [`gold_path_for`]).
    pub gold_dir: Option<PathBuf>,
    /// The annotator's name.
    pub annotator: String,
    /// Replace existing gold files, keeping the one backup `.bak`.
    pub force: bool,
    /// A last step over each marked main content (`--guideline`), and the guideline the gold
    /// files record.
    pub finish: Option<MarkFinish>,
}

/// The last step of [`mark_pages`] over each page's marked main content: a guideline's
/// `apply` (the guideline module builds it; gold knows only the function and the
/// [`GuidelineRef`] to record).
#[derive(Clone)]
pub struct MarkFinish {
    /// What the gold files record.
    pub guideline: GuidelineRef,
    /// Maps a page's marked selection (normal form) to the final one.
    pub apply: FinishFn,
}

/// The function of [`MarkFinish`]: a page and its marked selection to the final selection.
pub type FinishFn = std::sync::Arc<dyn Fn(&Page, &Selection) -> Selection + Send + Sync>;

impl std::fmt::Debug for MarkFinish {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MarkFinish")
            .field("guideline", &self.guideline)
            .finish_non_exhaustive()
    }
}

/// What happened to one output gold file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveStatus {
    /// Written (or replaced).
    Saved(SaveOutcome),
    /// Not written: the gold file exists and `force` is off.
    Exists,
    /// Not written: the page could not be read (the message says why).
    Unreadable(String),
    /// Not written: writing failed (the message says why; the old file is unchanged).
    Unwritable(String),
    /// Not written: the selector matched nothing on the page.
    NoMatch,
}

impl SaveStatus {
    /// True for a page that could not be read or written.
    pub fn failed(&self) -> bool {
        matches!(self, SaveStatus::Unreadable(_) | SaveStatus::Unwritable(_))
    }
}

/// One page of [`MarkReport`].
#[derive(Debug, Clone)]
pub struct MarkedPage {
    /// The page file.
    pub page: PathBuf,
    /// Its gold file.
    pub gold_path: PathBuf,
    /// Main-content ranges.
    pub ranges: usize,
    /// Word tokens of the main content.
    pub words: usize,
    /// The headline's text, when one was found.
    pub headline: Option<String>,
    /// The headline selector matched no element with text.
    pub headline_missing: bool,
    /// The matching elements hold no text (void or unclosed elements?).
    pub no_text: bool,
    /// The gold file is a draft.
    pub draft: bool,
    /// What happened to the gold file.
    pub status: SaveStatus,
}

/// What [`mark_pages`] did, page by page, in the order of the inputs.
#[derive(Debug, Clone, Default)]
pub struct MarkReport {
    /// One entry per page.
    pub pages: Vec<MarkedPage>,
}

impl MarkReport {
    /// Pages where the selector matched.
    pub fn matched(&self) -> usize {
        self.pages
            .iter()
            .filter(|p| !matches!(p.status, SaveStatus::NoMatch | SaveStatus::Unreadable(_)))
            .count()
    }

    /// Pages where the selector matched nothing.
    pub fn unmatched(&self) -> Vec<&Path> {
        self.pages
            .iter()
            .filter(|p| p.status == SaveStatus::NoMatch)
            .map(|p| p.page.as_path())
            .collect()
    }

    /// Pages that could not be read or written.
    pub fn failed(&self) -> usize {
        self.pages.iter().filter(|p| p.status.failed()).count()
    }
}

fn save_status(path: &Path, gold: &Gold, force: bool) -> SaveStatus {
    let mode = if force {
        SaveMode::Backup
    } else {
        SaveMode::New
    };
    match save(path, gold, mode) {
        Ok(o) => SaveStatus::Saved(o),
        Err(GoldError::Exists { .. }) => SaveStatus::Exists,
        Err(e) => SaveStatus::Unwritable(e.to_string()),
    }
}

/// Marks the main content of pages by a CSS selector and writes draft gold files
/// ([`mark::mark_page`]; with `empty`, finished gold files without main content). Every page's
/// gold file path is computed first: two pages mapping to one gold file (`x.html` and
/// `x.html.gz`) are refused before anything is written. A page that cannot be read, or whose
/// gold file cannot be written, is reported in its entry and the others go on.
/// Errors: an invalid selector, an unusable folder, [`CommandError::Duplicate`].
pub fn mark_pages(opts: &MarkOptions) -> Result<MarkReport, CommandError> {
    for s in opts.selector.iter().chain(opts.headline.iter()) {
        mark::parse_selector(s)?;
    }
    let mut files = Vec::new();
    for p in &opts.paths {
        if p.is_dir() {
            files.extend(crate::corpus::open(p)?.pages.into_iter().map(|c| c.path));
        } else {
            files.push(p.clone());
        }
    }
    let mut outputs = Outputs::new();
    let mut targets = Vec::with_capacity(files.len());
    for f in &files {
        let t = gold_path_for(f, opts.gold_dir.as_deref());
        outputs.claim(&t, f.display().to_string())?;
        targets.push(t);
    }
    let mut report = MarkReport::default();
    for (path, target) in files.iter().zip(targets) {
        let mut entry = MarkedPage {
            page: path.clone(),
            gold_path: target.clone(),
            ranges: 0,
            words: 0,
            headline: None,
            headline_missing: false,
            no_text: false,
            draft: true,
            status: SaveStatus::NoMatch,
        };
        let page = match Page::load(path, &DecodeOptions::default()) {
            Ok(p) => p,
            Err(e) => {
                entry.status = SaveStatus::Unreadable(e.to_string());
                report.pages.push(entry);
                continue;
            }
        };
        let gold = match opts.selector.as_deref() {
            Some(sel) if !opts.empty => {
                mark::mark_page(&page, sel, opts.headline.as_deref(), &opts.annotator)?
            }
            _ => mark::empty_gold(&page, &opts.annotator),
        };
        let mut gold = gold;
        if let Some(f) = &opts.finish {
            if !opts.empty && !gold.main_content.ranges.is_empty() {
                let sel = (f.apply)(&page, &gold.main_selection());
                gold.set_main_content(&page, sel);
            }
            gold.guideline = Some(f.guideline.clone());
        }
        entry.ranges = gold.main_content.ranges.len();
        entry.words = words(&gold.main_content.text).len();
        entry.headline = gold.headline.as_ref().map(|h| h.text.clone());
        entry.headline_missing = opts.headline.is_some() && gold.headline.is_none();
        entry.draft = gold.draft;
        if !opts.empty && gold.main_content.ranges.is_empty() {
            report.pages.push(entry);
            continue;
        }
        entry.no_text = !opts.empty && entry.words == 0;
        entry.status = save_status(&target, &gold, opts.force);
        report.pages.push(entry);
    }
    Ok(report)
}

// ---------------------------------------------------------------------------------------------
// import
// ---------------------------------------------------------------------------------------------

/// Options of [`import`] (`cescope gold import --from scrapinghub`).
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// The ground-truth file, or a folder holding `ground-truth.json`.
    pub ground_truth: PathBuf,
    /// Where the pages are (`DIR/<id>.html`, …); default: the corpus layout ([`crate::corpus`]).
    pub pages: Option<PathBuf>,
    /// Folder the gold files are written to (`OUT/<id>.json`; created if missing).
    pub out: PathBuf,
    /// The annotator's name.
    pub annotator: String,
    /// Replace existing gold files, keeping the one backup `.bak`.
    pub force: bool,
}

/// One page of [`ImportReport`].
#[derive(Debug, Clone)]
pub struct ImportedPage {
    /// The ground truth's id.
    pub id: String,
    /// The page file.
    pub page: PathBuf,
    /// How well the plain-text gold was located (`None` when the page could not be read).
    pub stats: Option<ImportStats>,
    /// What happened to `OUT/<id>.json`.
    pub status: SaveStatus,
}

/// What [`import`] did.
#[derive(Debug, Clone, Default)]
pub struct ImportReport {
    /// The pages imported, by id.
    pub pages: Vec<ImportedPage>,
    /// Ids without a page file (skipped).
    pub missing: Vec<String>,
}

/// The share of a plain-text gold's words that must be located on the page for an import to
/// count as good (`cescope gold import` marks pages below it `LOW`): 95 %.
pub const GOOD_COVERAGE: f64 = 0.95;

/// The totals of an [`ImportReport`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ImportSummary {
    /// Pages whose gold was aligned (the page could be read).
    pub aligned: usize,
    /// Of those, pages with a coverage of at least [`GOOD_COVERAGE`].
    pub good: usize,
    /// The mean coverage of the aligned pages (0 when there is none).
    pub mean_coverage: f64,
    /// Aligned pages whose gold file was not written because it exists ([`SaveStatus::Exists`]).
    pub exists: usize,
    /// Pages that could not be read or whose gold file could not be written.
    pub failed: usize,
}

impl ImportReport {
    /// Counts the pages aligned, good, kept and failed, and the mean coverage. O(pages).
    pub fn summary(&self) -> ImportSummary {
        let mut s = ImportSummary::default();
        let mut sum = 0.0;
        for p in &self.pages {
            s.failed += usize::from(p.status.failed());
            let Some(stats) = &p.stats else { continue };
            s.aligned += 1;
            sum += stats.coverage;
            s.good += usize::from(stats.coverage >= GOOD_COVERAGE);
            s.exists += usize::from(p.status == SaveStatus::Exists);
        }
        if s.aligned > 0 {
            // Page counts stay far below 2^52: the conversion is exact.
            #[allow(clippy::cast_precision_loss)]
            let n = s.aligned as f64;
            s.mean_coverage = sum / n;
        }
        s
    }
}

/// The page file of ground-truth id `id` in `dir`: `<id>.html`, `.htm`, either with `.gz`.
/// `id` must be a bare file name; errors: [`NameError`].
pub fn find_page_file(dir: &Path, id: &str) -> Result<Option<PathBuf>, NameError> {
    check_file_name(id)?;
    Ok(["html", "htm", "html.gz", "htm.gz"]
        .iter()
        .map(|ext| dir.join(format!("{id}.{ext}")))
        .find(|p| p.is_file()))
}

/// Imports plain-text gold standards of the common Scrapinghub format as gold files with byte
/// ranges ([`import_scrapinghub`]), pages in parallel. Every id is checked as a bare file name
/// (and `<id>.json` with it) before any page is read or any file written: an id such as
/// `../elsewhere/x` or an absolute path is refused. Errors: unreadable ground truth, a bad id
/// ([`CommandError::Name`]), [`CommandError::NotADirectory`], [`CommandError::NoPage`].
pub fn import(opts: &ImportOptions) -> Result<ImportReport, CommandError> {
    let mut entries: Vec<(String, PathBuf, GoldText)> = Vec::new();
    let mut missing = Vec::new();
    let gt_path = if opts.ground_truth.is_dir() {
        opts.ground_truth.join("ground-truth.json")
    } else {
        opts.ground_truth.clone()
    };
    let gt_name = gt_path.display().to_string();
    if let Some(dir) = &opts.pages {
        let map = crate::corpus::read_ground_truth(&gt_path)?;
        for id in map.keys() {
            check_file_name(id).map_err(name_err(gt_name.as_str(), "id"))?;
        }
        if !dir.is_dir() {
            return Err(CommandError::NotADirectory(dir.clone()));
        }
        for (id, g) in map {
            match find_page_file(dir, &id).map_err(name_err(gt_name.as_str(), "id"))? {
                Some(p) => entries.push((id, p, g)),
                None => missing.push(id),
            }
        }
    } else {
        for p in crate::corpus::open(&opts.ground_truth)?.pages {
            check_file_name(&p.id).map_err(name_err(gt_name.as_str(), "id"))?;
            match p.gold {
                Some(g) => entries.push((p.id, p.path, g)),
                None => missing.push(p.id),
            }
        }
    }
    if entries.is_empty() {
        return Err(CommandError::NoPage(opts.ground_truth.clone()));
    }
    let mut outputs = Outputs::new();
    let mut targets = Vec::with_capacity(entries.len());
    for (id, _, _) in &entries {
        let name = format!("{id}.json");
        check_file_name(&name).map_err(name_err(gt_name.as_str(), "id"))?;
        let t = opts.out.join(name);
        outputs.claim(&t, format!("id {id}"))?;
        targets.push(t);
    }

    let results: Vec<_> = entries
        .par_iter()
        .map(|(_, path, g)| {
            let page = Page::load(path, &DecodeOptions::default())?;
            Ok::<_, crate::Error>(import_scrapinghub(g, &page, page.name(), &opts.annotator))
        })
        .collect();
    let mut report = ImportReport {
        pages: Vec::with_capacity(entries.len()),
        missing,
    };
    for (((id, path, _), r), target) in entries.into_iter().zip(results).zip(targets) {
        let (stats, status) = match r {
            Ok((gold, stats)) => (Some(stats), save_status(&target, &gold, opts.force)),
            Err(e) => (None, SaveStatus::Unreadable(e.to_string())),
        };
        report.pages.push(ImportedPage {
            id,
            page: path,
            stats,
            status,
        });
    }
    Ok(report)
}

// ---------------------------------------------------------------------------------------------
// export
// ---------------------------------------------------------------------------------------------

/// Output formats of [`export`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// One JSON object `id → {articleBody, headline?, url?}` ([`export_scrapinghub`]).
    Scrapinghub,
    /// CleanEval-style text, one `<id>.txt` per page ([`export_text`]).
    Text,
}

/// Options of [`export`] (`cescope gold export`).
#[derive(Debug, Clone)]
pub struct ExportOptions {
    /// The format.
    pub format: ExportFormat,
    /// Folder of gold files.
    pub dir: PathBuf,
    /// Scrapinghub: the output file (`None`: the JSON is returned for standard output); text:
    /// the output folder (required; created if missing).
    pub out: Option<PathBuf>,
    /// How files are written (`replace` is ignored: an export replaces its earlier output).
    /// The default in normal use; tests inject a full disk here.
    pub write: WriteOptions,
}

/// What [`export`] did.
#[derive(Debug, Clone, Default)]
pub struct ExportReport {
    /// Pages exported.
    pub pages: usize,
    /// Of which drafts.
    pub drafts: usize,
    /// The files written.
    pub written: Vec<PathBuf>,
    /// Scrapinghub without an output file: the JSON for standard output.
    pub stdout: Option<String>,
}

/// Exports the gold files of a folder. Every gold file's `page` must be a bare file name and
/// page ids must be unique (two gold files for one page are an error naming both); for text,
/// every output file is checked (no link, no directory in the way) before any is written. Each
/// file is written atomically: a full disk or a kill leaves the previous export intact.
/// Errors: [`CommandError`] (the first problem; nothing is written when it is found before
/// writing).
pub fn export(opts: &ExportOptions) -> Result<ExportReport, CommandError> {
    let golds = load_gold_dir(&opts.dir)?;
    unique_ids(&golds, &opts.dir)?;
    let drafts = golds.iter().filter(|(_, g)| g.draft).count();
    let wopts = WriteOptions {
        replace: Replace::Always,
        ..opts.write
    };
    let mut report = ExportReport {
        pages: golds.len(),
        drafts,
        ..Default::default()
    };
    match opts.format {
        ExportFormat::Scrapinghub => {
            let v = export_scrapinghub(golds.iter().map(|(_, g)| g));
            let mut text = serde_json::to_string_pretty(&v).unwrap_or_default();
            text.push('\n');
            match &opts.out {
                Some(p) => {
                    let w = write::write_bytes(p, &wopts, text.as_bytes())?;
                    report.written.push(w.path);
                }
                None => report.stdout = Some(text),
            }
        }
        ExportFormat::Text => {
            let out_dir = opts.out.as_ref().ok_or(CommandError::TextNeedsOut)?;
            let mut outputs = Outputs::new();
            let mut jobs = Vec::with_capacity(golds.len());
            for (p, g) in &golds {
                let name = format!("{}.txt", g.page_id());
                check_file_name(&name).map_err(name_err(p.display().to_string(), "page"))?;
                let target = out_dir.join(name);
                outputs.claim(&target, p.display().to_string())?;
                check_destination(&target)?;
                jobs.push((target, g));
            }
            std::fs::create_dir_all(out_dir).map_err(|cause| WriteError::Io {
                path: out_dir.clone(),
                step: "creating the folder".into(),
                cause,
            })?;
            for (target, g) in jobs {
                let w = write::write_bytes(&target, &wopts, export_text(g).as_bytes())?;
                report.written.push(w.path);
            }
        }
    }
    Ok(report)
}

// ---------------------------------------------------------------------------------------------
// check
// ---------------------------------------------------------------------------------------------

/// One file of [`CheckReport`].
#[derive(Debug, Clone)]
pub struct CheckedFile {
    /// The gold file.
    pub file: PathBuf,
    /// It could not be loaded (the message says why); no other check ran.
    pub error: Option<String>,
    /// Every problem found ([`super::check`]).
    pub problems: Vec<Problem>,
    /// What was not checked, or how, e.g. "page x.html not found: hash and text not checked".
    pub note: Option<String>,
    /// What a reviewer should look at again ([`super::check_review`]: an unconfirmed headline,
    /// an undeclared empty main content); warnings do not make the file invalid.
    pub warnings: Vec<String>,
}

impl CheckedFile {
    /// True when the file loaded and has no problem.
    pub fn ok(&self) -> bool {
        self.error.is_none() && self.problems.is_empty()
    }
}

/// What [`check_files`] found.
#[derive(Debug, Clone, Default)]
pub struct CheckReport {
    /// One entry per gold file, sorted by path.
    pub files: Vec<CheckedFile>,
    /// Warnings about the files together: files of one folder that follow different
    /// guidelines ([`guideline_mix`]).
    pub folder_warnings: Vec<String>,
}

impl CheckReport {
    /// Files with an error or a problem.
    pub fn bad(&self) -> usize {
        self.files.iter().filter(|f| !f.ok()).count()
    }

    /// Files with warnings ([`CheckedFile::warnings`]).
    pub fn warned(&self) -> usize {
        self.files.iter().filter(|f| !f.warnings.is_empty()).count()
    }
}

/// The page file a gold file names: in `pages` when given, else in the gold folder's parent or
/// one of its sibling folders (`sample-pages/` beside `gold/`, `html/` beside `gold/`). `None`
/// when not found — or when `page` is not a bare file name (never looked up).
pub fn find_gold_page(gold_file: &Path, page: &str, pages: Option<&Path>) -> Option<PathBuf> {
    check_file_name(page).ok()?;
    if let Some(d) = pages {
        return Some(d.join(page)).filter(|p| p.is_file());
    }
    let gold_dir = match gold_file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let own = gold_dir.canonicalize().ok()?;
    let parent = own.parent()?.to_path_buf();
    let mut dirs = vec![parent.clone()];
    let mut siblings: Vec<PathBuf> = std::fs::read_dir(&parent)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && *p != own)
        .collect();
    siblings.sort();
    dirs.extend(siblings);
    dirs.into_iter().map(|d| d.join(page)).find(|p| p.is_file())
}

/// Validates gold files (`path`: a folder of them, or one file): JSON, schema, `page` a bare
/// file name, ranges, and — when the page is found ([`find_gold_page`]) — hash and text. A gold
/// made with an encoding override is checked against the page decoded as it says.
/// Errors: [`CommandError::NoGoldFiles`], [`CommandError::ReadDir`].
pub fn check_files(path: &Path, pages: Option<&Path>) -> Result<CheckReport, CommandError> {
    let files = if path.is_dir() {
        gold_files(path)?
    } else {
        vec![path.to_path_buf()]
    };
    if files.is_empty() {
        return Err(CommandError::NoGoldFiles(path.to_path_buf()));
    }
    let mut report = CheckReport::default();
    let mut guidelines: BTreeMap<Option<GuidelineRef>, Vec<PathBuf>> = BTreeMap::new();
    for f in files {
        let gold = match load(&f) {
            Ok(g) => g,
            Err(e) => {
                report.files.push(CheckedFile {
                    file: f,
                    error: Some(e.to_string()),
                    problems: Vec::new(),
                    note: None,
                    warnings: Vec::new(),
                });
                continue;
            }
        };
        let mut note = None;
        let mut page = None;
        match find_gold_page(&f, &gold.page, pages) {
            None if check_file_name(&gold.page).is_err() => {
                note = Some("page not looked for: hash and text not checked".to_string())
            }
            None => {
                note = Some(format!(
                    "page {} not found: hash and text not checked",
                    printable(&gold.page)
                ))
            }
            Some(pp) => match Page::load(&pp, &DecodeOptions::default()) {
                Err(e) => note = Some(format!("page not checked: {e}")),
                Ok(p) => {
                    let v = verify(&gold, &p);
                    let enc_only = v.matches
                        && v.differences
                            .iter()
                            .any(|d| matches!(d, Difference::Encoding(..)));
                    let p = if enc_only {
                        let opts = DecodeOptions {
                            encoding_override: Some(gold.encoding.clone()),
                            ..Default::default()
                        };
                        match Page::load(&pp, &opts) {
                            Ok(p2) => {
                                note =
                                    Some(format!("page decoded as {}", printable(&gold.encoding)));
                                p2
                            }
                            Err(_) => p,
                        }
                    } else {
                        p
                    };
                    page = Some(p);
                }
            },
        }
        guidelines
            .entry(gold.guideline.clone())
            .or_default()
            .push(f.clone());
        let problems = check_gold(&gold, page.as_ref());
        report.files.push(CheckedFile {
            file: f,
            error: None,
            problems,
            note,
            warnings: super::check_review(&gold),
        });
    }
    report.folder_warnings.extend(guideline_mix(&guidelines));
    Ok(report)
}

/// The warning for gold files of one folder that follow different guidelines (or some none):
/// `None` when they all follow the same one. Names each guideline ([`GuidelineRef::short`],
/// `no guideline`) with its number of files and its first file.
pub fn guideline_mix(by: &BTreeMap<Option<GuidelineRef>, Vec<PathBuf>>) -> Option<String> {
    if by.len() < 2 {
        return None;
    }
    let parts: Vec<String> = by
        .iter()
        .map(|(g, files)| {
            let name = g
                .as_ref()
                .map_or("no guideline".to_string(), GuidelineRef::short);
            let first = files
                .first()
                .and_then(|f| f.file_name())
                .map(|n| printable(&n.to_string_lossy()).into_owned())
                .unwrap_or_default();
            format!("{name}: {} file(s), e.g. {first}", files.len())
        })
        .collect();
    Some(format!(
        "the gold files follow different guidelines ({}); a folder's gold should follow one \
         definition of main content",
        parts.join("; ")
    ))
}

// ---------------------------------------------------------------------------------------------
// agree
// ---------------------------------------------------------------------------------------------

/// One page of [`AgreeReport`].
#[derive(Debug, Clone)]
pub struct AgreedPage {
    /// The page id.
    pub id: String,
    /// F1 and headline equality ([`super::agree`]).
    pub agreement: Agreement,
    /// Both annotations were made on the same page bytes (equal SHA-256).
    pub same_version: bool,
}

/// What [`agree_dirs`] found.
#[derive(Debug, Clone, Default)]
pub struct AgreeReport {
    /// Pages annotated in both folders, by id.
    pub pages: Vec<AgreedPage>,
    /// Ids only in the first folder.
    pub only_a: Vec<String>,
    /// Ids only in the second folder.
    pub only_b: Vec<String>,
    /// Disagreement per unit kind ([`crate::page::units`]), over the pages found and
    /// annotated on the same page bytes, kinds with units only, in [`UnitKind::ALL`] order.
    pub kinds: Vec<KindAgreement>,
    /// Pages in both folders whose page file was not found or was another version (not in
    /// [`AgreeReport::kinds`]).
    pub kinds_skipped: usize,
}

/// How two annotations agree on the units of one kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindAgreement {
    /// The kind.
    pub kind: UnitKind,
    /// Pages with at least one unit of the kind.
    pub pages: usize,
    /// Units of the kind.
    pub units: usize,
    /// Words in those units ([`crate::metrics::words`] of their rendered text).
    pub words: usize,
    /// Of those, words one annotation selects and the other does not.
    pub disagree: usize,
}

impl KindAgreement {
    /// The share of the kind's words the annotations disagree on (0 without words).
    pub fn share(&self) -> f64 {
        if self.words == 0 {
            0.0
        } else {
            self.disagree as f64 / self.words as f64
        }
    }
}

/// Adds to `acc` how annotations `a` and `b` of `page` agree on each unit kind: for kind k,
/// the words of its units and, of those, the words in exactly one of the two main contents.
/// No headline is given to the unit rules (headline agreement is reported apart).
fn add_kind_agreement(
    acc: &mut BTreeMap<UnitKind, KindAgreement>,
    page: &Page,
    a: &Gold,
    b: &Gold,
) {
    let units = Units::find(page, None);
    let (sa, sb) = (a.main_selection(), b.main_selection());
    let differ = sa.union(&sb).difference(&sa.intersection(&sb));
    let count = |sel: &Selection| words(&page.render(sel)).len();
    for kind in UnitKind::ALL {
        let mut n = 0;
        let mut sel = Selection::new();
        for u in units.of_kind(kind) {
            n += 1;
            sel = sel.union(&units.selection(page.blocks(), u));
        }
        if n == 0 {
            continue;
        }
        let e = acc.entry(kind).or_insert(KindAgreement {
            kind,
            pages: 0,
            units: 0,
            words: 0,
            disagree: 0,
        });
        e.pages += 1;
        e.units += n;
        e.words += count(&sel);
        e.disagree += count(&sel.intersection(&differ));
    }
}

impl AgreeReport {
    /// Mean F1 over the pages in both folders (`None` without any).
    pub fn mean_f1(&self) -> Option<f64> {
        (!self.pages.is_empty()).then(|| {
            self.pages.iter().map(|p| p.agreement.f1).sum::<f64>() / self.pages.len() as f64
        })
    }

    /// (equal headlines, pages where both have a headline).
    pub fn headlines(&self) -> (usize, usize) {
        let both: Vec<bool> = self
            .pages
            .iter()
            .filter_map(|p| p.agreement.headline_match)
            .collect();
        (both.iter().filter(|&&m| m).count(), both.len())
    }
}

/// Inter-annotator agreement between two gold folders, page by page (matched by page id). Two
/// gold files of one folder for the same page are an error naming both.
///
/// Agreement per unit kind ([`AgreeReport::kinds`]) needs the pages: each is looked up as
/// `gold check` does ([`find_gold_page`]: in `pages` when given, else beside the first
/// folder) and used when both gold files were made on its bytes.
pub fn agree_dirs(
    dir_a: &Path,
    dir_b: &Path,
    pages: Option<&Path>,
) -> Result<AgreeReport, CommandError> {
    let by_id = |dir: &Path| -> Result<BTreeMap<String, (PathBuf, Gold)>, CommandError> {
        let golds = load_gold_dir(dir)?;
        unique_ids(&golds, dir)?;
        Ok(golds
            .into_iter()
            .map(|(p, g)| (g.page_id().to_string(), (p, g)))
            .collect())
    };
    let a = by_id(dir_a)?;
    let b = by_id(dir_b)?;
    let mut report = AgreeReport::default();
    let mut kinds = BTreeMap::new();
    for (id, (path_a, ga)) in &a {
        match b.get(id) {
            Some((_, gb)) => {
                let same_version = ga.sha256.eq_ignore_ascii_case(&gb.sha256);
                report.pages.push(AgreedPage {
                    id: id.clone(),
                    agreement: agreement(ga, gb),
                    same_version,
                });
                let page = find_gold_page(path_a, &ga.page, pages)
                    .and_then(|p| Page::load(&p, &DecodeOptions::default()).ok())
                    .filter(|p| same_version && p.sha256_hex().eq_ignore_ascii_case(&ga.sha256));
                match page {
                    Some(p) => add_kind_agreement(&mut kinds, &p, ga, gb),
                    None => report.kinds_skipped += 1,
                }
            }
            None => report.only_a.push(id.clone()),
        }
    }
    report.only_b = b.keys().filter(|k| !a.contains_key(*k)).cloned().collect();
    report.kinds = kinds.into_values().collect();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_pages_are_bare_names() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.html"), "<p>a</p>").unwrap();
        assert_eq!(
            find_page_file(dir.path(), "a").unwrap(),
            Some(dir.path().join("a.html"))
        );
        assert!(find_page_file(dir.path(), "../a").is_err());
        assert!(find_page_file(dir.path(), "/etc/passwd").is_err());
        assert_eq!(
            find_gold_page(&dir.path().join("g.json"), "../a.html", Some(dir.path())),
            None
        );
        assert_eq!(
            find_gold_page(&dir.path().join("g.json"), "a.html", Some(dir.path())),
            Some(dir.path().join("a.html"))
        );
    }

    #[test]
    fn import_summary_counts_each_kind_of_page() {
        let page = |coverage: Option<f64>, status: SaveStatus| ImportedPage {
            id: "x".into(),
            page: PathBuf::from("x.html"),
            stats: coverage.map(|coverage| ImportStats {
                gold_words: 10,
                page_words: 20,
                matched: 9,
                coverage,
                ranges: 1,
                headline_f1: None,
            }),
            status,
        };
        let report = ImportReport {
            pages: vec![
                page(Some(1.0), SaveStatus::Exists),
                page(Some(GOOD_COVERAGE), SaveStatus::Exists),
                page(Some(0.5), SaveStatus::Unwritable("disk full".into())),
                page(None, SaveStatus::Unreadable("gone".into())),
            ],
            missing: vec!["y".into()],
        };
        let s = report.summary();
        assert_eq!((s.aligned, s.good, s.exists, s.failed), (3, 2, 2, 2));
        assert!((s.mean_coverage - (1.0 + GOOD_COVERAGE + 0.5) / 3.0).abs() < 1e-12);
        assert_eq!(ImportReport::default().summary().mean_coverage, 0.0);
    }
}
