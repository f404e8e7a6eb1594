//! Gold standards: one JSON file per page, written by annotators (issue #4; `gold/SCHEMA.md`).
//!
//! A gold standard names its page by file name and by the SHA-256 of the page's raw bytes
//! (after gzip decompression, as [`Page::sha256_hex`]), records the encoding used to decode the
//! page, and holds the main content as **byte ranges over the decoded UTF-8 text**
//! ([`Page::text`]) together with the text those ranges render to ([`Page::render`]), so tools
//! that only read text can evaluate. The headline is one range with its text.
//!
//! * [`Gold`]: the schema-v1 record, built with [`Gold::new`] and edited with
//!   [`Gold::set_main_content`] / [`Gold::set_headline`] (which recompute the text fields).
//! * [`load`], [`verify`] (does the page still match?), [`check`] (every consistency rule).
//! * [`save`] (atomic, never silently overwriting, never through a link: [`SaveMode`]) and the
//!   recovery file of the annotation UI ([`recovery_path`], [`save_recovery`],
//!   [`load_recovery`], [`recovery_is_newer`], [`discard_recovery`]); [`gold_path_for`] finds a
//!   page's gold file.
//! * Interop with the common Scrapinghub format ([`crate::corpus::GoldText`]):
//!   [`import_scrapinghub`] (word alignment of the plain-text gold onto the page),
//!   [`export_scrapinghub`], and CleanEval-style plain text ([`export_text`]).
//! * [`agree`]: inter-annotator agreement (word-sequence LCS F1 and headline equality).
//! * [`commands`]: the workflows of `cescope gold mark | import | export | check | agree`, each
//!   returning a typed report; every name taken from a file is checked as a bare file name and
//!   every file is written through [`crate::fsio::write`].
//!
//! Gold files are read as regular files of at most [`GOLD_FILE_LIMIT`] bytes (a UTF-8 byte
//! order mark is accepted); [`SaveMode::Backup`] keeps one `.bak`, and a [`SaveSession`] makes
//! it only on a session's first save over an existing file.

pub mod commands;
mod import;
pub mod mark;
mod save;
mod validate;

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fsio::read::ReadError;
use crate::fsio::write::{printable, printable_path, WriteError};
use crate::metrics::{word_prf, words};
use crate::page::Page;
use crate::selection::Selection;

pub use import::{import_scrapinghub, ImportStats};
pub use save::{
    discard_recovery, load_recovery, recovery_is_newer, recovery_path, save, save_recovery,
    save_with, SaveMode, SaveOutcome, SaveSession,
};
pub use validate::{check, check_review, verify, Difference, Problem, ProblemKind, Verification};

/// The value of the `schema` field of every gold file.
pub const SCHEMA_TAG: &str = "cescope-gold";

/// The schema version this cescope writes and reads.
pub const SCHEMA_VERSION: u32 = 1;

/// The largest gold file [`load`] reads: 64 MiB (67 108 864 bytes). A gold file holds the main
/// content's text and about 16 bytes per range, so this covers pages far beyond the decoder's
/// practical sizes while bounding memory (reading and parsing cost about twice the file size).
pub const GOLD_FILE_LIMIT: u64 = 64 << 20;

/// One gold standard (schema version 1, see `gold/SCHEMA.md`).
///
/// All offsets are **byte offsets into the decoded UTF-8 text** of the page ([`Page::text`]).
/// The text fields are derived from the ranges ([`Page::render`]); edit through
/// [`Gold::set_main_content`] and [`Gold::set_headline`] to keep them consistent ([`check`]
/// reports a file whose text disagrees with its ranges).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Gold {
    /// Always [`SCHEMA_TAG`].
    pub schema: String,
    /// Always [`SCHEMA_VERSION`].
    pub version: u32,
    /// The page's file name (e.g. `news-article.html`), without directories.
    pub page: String,
    /// SHA-256 of the page's raw bytes (after gzip decompression), lower-case hex.
    pub sha256: String,
    /// WHATWG name of the encoding used to decode the page (e.g. `UTF-8`, `windows-1256`).
    pub encoding: String,
    /// Length of the decoded text in bytes (optional on reading; always written).
    #[serde(default)]
    pub text_length: Option<usize>,
    /// Where the page came from, when known (e.g. imported from a Scrapinghub-format corpus).
    #[serde(default)]
    pub url: Option<String>,
    /// The main content: ranges and their rendered text.
    pub main_content: MainContent,
    /// The headline, when annotated.
    #[serde(default)]
    pub headline: Option<Headline>,
    /// Who annotated the page (free text: a name or an id).
    #[serde(default)]
    pub annotator: String,
    /// When the gold standard was created (RFC 3339, UTC).
    #[serde(default)]
    pub created: String,
    /// When it was last changed (RFC 3339, UTC).
    #[serde(default)]
    pub modified: String,
    /// Version of cescope that last wrote the file.
    #[serde(default)]
    pub cescope_version: String,
    /// Free-text notes of the annotator.
    #[serde(default)]
    pub notes: String,
    /// True while the annotation is unfinished (evaluations may skip drafts).
    #[serde(default)]
    pub draft: bool,
    /// The guideline the annotation follows (`--guideline` of the inspector or `gold mark`),
    /// by name and content hash; written only when there is one, so files made without a
    /// guideline are written as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guideline: Option<GuidelineRef>,
}

/// A gold file's record of the guideline it follows ([`crate::guideline`]): its name and its
/// content hash (`Guideline::hash`: SHA-256 of its choices, lower-case hex), so two files that
/// follow "article" under different choices are told apart.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GuidelineRef {
    /// The guideline's name.
    pub name: String,
    /// SHA-256 of its choices, lower-case hex.
    pub sha256: String,
}

impl GuidelineRef {
    /// `name (sha256 abcdef12)`: the name and the hash's first 8 digits.
    pub fn short(&self) -> String {
        let h: String = self.sha256.chars().take(8).collect();
        format!("{} ({h})", self.name)
    }
}

/// The main content of a gold standard.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MainContent {
    /// `[start, end)` byte offsets into the decoded text, sorted, non-overlapping, non-empty.
    pub ranges: Vec<[usize; 2]>,
    /// [`Page::render`] of the ranges (one line per virtual line, white space normalised).
    #[serde(default)]
    pub text: String,
}

/// The headline of a gold standard: one range and its rendered text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Headline {
    /// `[start, end)` byte offsets into the decoded text.
    pub range: [usize; 2],
    /// [`Page::render`] of the range.
    #[serde(default)]
    pub text: String,
    /// False while the headline is a machine's suggestion (`gold mark --headline`, TitleFinder)
    /// that no annotator has confirmed; [`check_review`] reports it. Written only when false;
    /// a file without the field (every file before it existed) reads as confirmed.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub confirmed: bool,
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

/// The note that marks a gold file as flagged for another look (the review's `f`).
pub const FLAGGED: &str = "[flagged]";

/// The note that declares a page to have no main content: a final gold file with an empty main
/// content must carry it ([`check_review`]), so an empty annotation is a decision, not an
/// accident.
pub const NO_MAIN_CONTENT: &str = "[no main content]";

/// Where a page's annotation stands, as the page list and the review queue see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GoldStatus {
    /// No gold file.
    None,
    /// A gold file still marked `draft`.
    Draft,
    /// A draft flagged for another look ([`FLAGGED`] in its notes).
    Flagged,
    /// A finished gold file.
    Final,
    /// A gold file that cannot be read (malformed JSON, wrong schema, …).
    Unreadable,
}

impl GoldStatus {
    /// The status of `gold`.
    pub fn of(gold: &Gold) -> GoldStatus {
        if gold.is_flagged() {
            GoldStatus::Flagged
        } else if gold.draft {
            GoldStatus::Draft
        } else {
            GoldStatus::Final
        }
    }

    /// The status of the gold file at `path` (reads and parses it; a missing file is
    /// [`GoldStatus::None`]).
    pub fn of_file(path: &Path) -> GoldStatus {
        if !path.is_file() {
            return GoldStatus::None;
        }
        load(path).map_or(GoldStatus::Unreadable, |g| GoldStatus::of(&g))
    }

    /// The word for it: `none`, `draft`, `flagged`, `final`, `unreadable`.
    pub fn name(self) -> &'static str {
        match self {
            GoldStatus::None => "none",
            GoldStatus::Draft => "draft",
            GoldStatus::Flagged => "flagged",
            GoldStatus::Final => "final",
            GoldStatus::Unreadable => "unreadable",
        }
    }

    /// Parses [`GoldStatus::name`].
    pub fn from_name(s: &str) -> Option<GoldStatus> {
        [
            GoldStatus::None,
            GoldStatus::Draft,
            GoldStatus::Flagged,
            GoldStatus::Final,
            GoldStatus::Unreadable,
        ]
        .into_iter()
        .find(|g| g.name().eq_ignore_ascii_case(s))
    }

    /// Still to be reviewed: a draft or a flagged gold file.
    pub fn unfinished(self) -> bool {
        matches!(self, GoldStatus::Draft | GoldStatus::Flagged)
    }
}

/// The current time as RFC 3339 in UTC with whole seconds, e.g. `2025-11-21T07:13:00Z`.
pub fn now_rfc3339() -> String {
    let now = time::OffsetDateTime::now_utc();
    let now = now.replace_nanosecond(0).unwrap_or(now);
    now.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_else(|_| "1970-01-01T00:00:00Z".to_string())
}

impl Gold {
    /// An empty draft gold standard for `page`: page name, hash, encoding and text length from
    /// the page, no main content, no headline, both timestamps now, `draft: true`.
    pub fn new(page: &Page, annotator: impl Into<String>) -> Gold {
        let now = now_rfc3339();
        Gold {
            schema: SCHEMA_TAG.to_string(),
            version: SCHEMA_VERSION,
            page: page.name().to_string(),
            sha256: page.sha256_hex(),
            encoding: page.encoding().name().to_string(),
            text_length: Some(page.text().len()),
            url: None,
            main_content: MainContent::default(),
            headline: None,
            annotator: annotator.into(),
            created: now.clone(),
            modified: now,
            cescope_version: env!("CARGO_PKG_VERSION").to_string(),
            notes: String::new(),
            draft: true,
            guideline: None,
        }
    }

    /// Sets the main content to `sel` (byte ranges over `page`'s decoded text), recomputes its
    /// text with [`Page::render`] and updates `modified` and `cescope_version`.
    /// `page` must be the gold's page ([`verify`]). O(selected bytes).
    pub fn set_main_content(&mut self, page: &Page, sel: Selection) {
        self.main_content.text = page.render(&sel);
        self.main_content.ranges = sel.ranges().iter().map(|r| [r.start, r.end]).collect();
        self.touch();
    }

    /// Sets the headline to the byte range `range` of `page`'s decoded text (`None` or an empty
    /// range removes it), recomputes its text and updates `modified`.
    /// The headline is confirmed (an annotator chose it); [`Gold::suggest_headline`] sets an
    /// unconfirmed one.
    pub fn set_headline(&mut self, page: &Page, range: Option<Range<usize>>) {
        self.headline = match range {
            Some(r) if r.start < r.end => Some(Headline {
                text: page.render(&Selection::from_ranges([r.clone()])),
                range: [r.start, r.end],
                confirmed: true,
            }),
            _ => None,
        };
        self.touch();
    }

    /// [`Gold::set_headline`] with a headline no annotator has confirmed yet (a machine's
    /// suggestion: `gold mark --headline`, TitleFinder).
    pub fn suggest_headline(&mut self, page: &Page, range: Option<Range<usize>>) {
        self.set_headline(page, range);
        if let Some(h) = self.headline.as_mut() {
            h.confirmed = false;
        }
    }

    /// True when the headline is a suggestion nobody confirmed ([`Headline::confirmed`]).
    pub fn headline_unconfirmed(&self) -> bool {
        self.headline.as_ref().is_some_and(|h| !h.confirmed)
    }

    /// Flagged for another look: [`FLAGGED`] is in the notes.
    pub fn is_flagged(&self) -> bool {
        self.notes.contains(FLAGGED)
    }

    /// The annotator declared that the page has no main content: [`NO_MAIN_CONTENT`] is in the
    /// notes.
    pub fn declares_no_main_content(&self) -> bool {
        self.notes.contains(NO_MAIN_CONTENT)
    }

    /// Adds `tag` ([`FLAGGED`], [`NO_MAIN_CONTENT`]) to the notes unless it is there already.
    pub fn add_tag(&mut self, tag: &str) {
        if !self.notes.contains(tag) {
            let sep = if self.notes.is_empty() { "" } else { " " };
            self.notes = format!("{}{sep}{tag}", self.notes);
        }
    }

    /// Removes `tag` from the notes (and the white space it leaves at either end).
    pub fn remove_tag(&mut self, tag: &str) {
        if self.notes.contains(tag) {
            self.notes = self.notes.replace(tag, "").trim().to_string();
        }
    }

    /// The main content as a [`Selection`] (normalised: reversed or empty ranges dropped,
    /// overlapping ones merged; [`check`] reports such ranges).
    pub fn main_selection(&self) -> Selection {
        Selection::from_ranges(self.main_content.ranges.iter().map(|&[s, e]| s..e))
    }

    /// The headline's byte range, when there is one.
    pub fn headline_range(&self) -> Option<Range<usize>> {
        self.headline.as_ref().map(|h| h.range[0]..h.range[1])
    }

    /// Sets `modified` to now and `cescope_version` to this version (done by the setters; call
    /// it after editing the public fields directly).
    pub fn touch(&mut self) {
        self.modified = now_rfc3339();
        self.cescope_version = env!("CARGO_PKG_VERSION").to_string();
    }

    /// The file contents as written by [`save`]: JSON indented by two spaces, fields in schema
    /// order, each range on one line (`[127, 230]`), ending with a newline.
    pub fn to_json(&self) -> String {
        let mut buf = Vec::new();
        self.write_json(&mut buf)
            .expect("a Gold always serialises into memory");
        String::from_utf8(buf).expect("serde_json writes UTF-8")
    }

    /// Writes [`Gold::to_json`] to `w` (streamed: nothing is buffered beyond what `w` buffers).
    pub fn write_json<W: std::io::Write>(&self, mut w: W) -> std::io::Result<()> {
        let mut ser = serde_json::Serializer::with_formatter(&mut w, GoldFormatter::default());
        self.serialize(&mut ser).map_err(std::io::Error::from)?;
        w.write_all(b"\n")
    }

    /// The page id used by [`export_scrapinghub`]: the page file name without `.gz`, `.html`,
    /// `.htm` (as the corpus ids).
    pub fn page_id(&self) -> &str {
        page_stem(&self.page)
    }
}

/// serde_json's pretty printing (two-space indentation), except that arrays inside arrays and
/// the array of the `range` key are written on one line: `[127, 230]`.
#[derive(Default)]
struct GoldFormatter {
    indent: usize,
    has_value: bool,
    /// Open containers: (is an array, written on one line).
    stack: Vec<(bool, bool)>,
    in_key: bool,
    key: String,
}

impl GoldFormatter {
    fn newline<W: ?Sized + std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..self.indent {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn compact(&self) -> bool {
        self.stack.last().is_some_and(|&(_, c)| c)
    }
}

impl serde_json::ser::Formatter for GoldFormatter {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        let compact = match self.stack.last() {
            Some(&(is_array, compact)) => compact || is_array || self.key == "range",
            None => false,
        };
        self.stack.push((true, compact));
        if !compact {
            self.indent += 1;
        }
        self.has_value = false;
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        let (_, compact) = self.stack.pop().unwrap_or((true, false));
        if !compact {
            self.indent -= 1;
            if self.has_value {
                self.newline(w)?;
            }
        }
        w.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if self.compact() {
            if !first {
                w.write_all(b", ")?;
            }
            Ok(())
        } else {
            if !first {
                w.write_all(b",")?;
            }
            self.newline(w)
        }
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.stack.push((false, false));
        self.indent += 1;
        self.has_value = false;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.stack.pop();
        self.indent -= 1;
        if self.has_value {
            self.newline(w)?;
        }
        w.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        self.in_key = true;
        self.key.clear();
        self.newline(w)
    }

    fn end_object_key<W: ?Sized + std::io::Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.in_key = false;
        Ok(())
    }

    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        if self.in_key {
            self.key.push_str(fragment);
        }
        w.write_all(fragment.as_bytes())
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// The file name without the suffixes `.gz`, `.html`, `.htm` (ASCII case-insensitive), in that
/// order: `x.html.gz` → `x`, `y.php` → `y.php`.
fn page_stem(name: &str) -> &str {
    let mut id = name;
    for suffix in [".gz", ".html", ".htm"] {
        if id.len() > suffix.len()
            && id.is_char_boundary(id.len() - suffix.len())
            && id[id.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
        {
            id = &id[..id.len() - suffix.len()];
        }
    }
    id
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// What can go wrong reading or writing a gold file. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum GoldError {
    /// Reading failed (missing file, permissions, not a regular file); the cause is part of
    /// the message.
    #[error("cannot read {}: {cause}", printable_path(.path))]
    Read {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        cause: ReadError,
    },
    /// The file is larger than [`GOLD_FILE_LIMIT`].
    #[error("{} is larger than the gold file limit of 64 MiB ({limit} bytes); not read", printable_path(.path))]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in bytes ([`GOLD_FILE_LIMIT`]).
        limit: u64,
    },
    /// Writing (temp file, fsync, rename, backup) failed, or a link is in the way; the target
    /// is unchanged.
    #[error(transparent)]
    Write(WriteError),
    /// The file is not valid JSON, or a field has the wrong type (position from serde_json;
    /// line and column are 1-based, column 0 means the end of the input).
    #[error("{}:{line}:{column}: malformed gold file: {}", printable_path(.path), printable(.message))]
    Json {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column (in bytes).
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The `schema` field is missing or is not [`SCHEMA_TAG`].
    #[error("{} is not a cescope gold file: schema tag {}, expected \"cescope-gold\"", printable_path(.path), printable(.found))]
    Schema {
        /// The file.
        path: PathBuf,
        /// The value found (JSON), or `missing`.
        found: String,
    },
    /// The `version` field is missing or not a version this cescope reads.
    #[error("{}: gold file version {} is not supported (this cescope {ours} reads version 1); update cescope", printable_path(.path), printable(.found))]
    Version {
        /// The file.
        path: PathBuf,
        /// The value found (JSON), or `missing`.
        found: String,
        /// This cescope's version.
        ours: &'static str,
    },
    /// [`SaveMode::New`] and the target exists.
    #[error("{} already exists; not overwriting it (save with a backup, or overwrite after confirmation)", printable_path(.path))]
    Exists {
        /// The existing file.
        path: PathBuf,
    },
}

impl GoldError {
    fn json(path: &Path, e: &serde_json::Error) -> GoldError {
        let s = e.to_string();
        let message = match s.rfind(" at line ") {
            Some(i) => s[..i].to_string(),
            None => s,
        };
        GoldError::Json {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Loading and verification
// ---------------------------------------------------------------------------------------------

/// Reads a gold file: a regular file of at most [`GOLD_FILE_LIMIT`] bytes (a FIFO or device is
/// refused without blocking), then [`parse`]. Errors: [`GoldError::Read`],
/// [`GoldError::TooLarge`]; [`GoldError::Json`] with line and column for malformed JSON or a
/// field of the wrong type; [`GoldError::Schema`] for another kind of JSON file;
/// [`GoldError::Version`] for an unsupported version. Ranges are not validated here (no panic on
/// any input): run [`check`].
pub fn load(path: &Path) -> Result<Gold, GoldError> {
    let data = match crate::fsio::read::read_regular(path, GOLD_FILE_LIMIT) {
        Ok(d) => d,
        Err(ReadError::TooLarge { limit }) => {
            return Err(GoldError::TooLarge {
                path: path.to_path_buf(),
                limit,
            })
        }
        Err(cause) => {
            return Err(GoldError::Read {
                path: path.to_path_buf(),
                cause,
            })
        }
    };
    parse(path, &data)
}

/// The two fields checked before the whole record is read.
#[derive(Deserialize)]
struct Head {
    #[serde(default)]
    schema: Option<serde_json::Value>,
    #[serde(default)]
    version: Option<serde_json::Value>,
}

/// [`load`] on bytes already read (`path` only names the file in errors). A UTF-8 byte order
/// mark at the start is skipped; a UTF-16 one is named in the error (gold files are UTF-8).
/// The schema tag and version are checked before the record is deserialised (no JSON tree of
/// the whole file is built).
pub fn parse(path: &Path, data: &[u8]) -> Result<Gold, GoldError> {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    if data.starts_with(b"\xFF\xFE") || data.starts_with(b"\xFE\xFF") {
        return Err(GoldError::Json {
            path: path.to_path_buf(),
            line: 1,
            column: 1,
            message:
                "the file is UTF-16 (it starts with a UTF-16 byte order mark); gold files are UTF-8"
                    .into(),
        });
    }
    let head = match serde_json::from_slice::<Head>(data) {
        Ok(h) => h,
        Err(e) if e.is_data() => Head {
            schema: None,
            version: None,
        },
        Err(e) => return Err(GoldError::json(path, &e)),
    };
    let found = |v: &Option<serde_json::Value>| {
        v.as_ref()
            .map_or_else(|| "missing".to_string(), |v| clip(&v.to_string()))
    };
    if head.schema.as_ref().and_then(|v| v.as_str()) != Some(SCHEMA_TAG) {
        return Err(GoldError::Schema {
            path: path.to_path_buf(),
            found: found(&head.schema),
        });
    }
    if head.version.as_ref().and_then(|v| v.as_u64()) != Some(u64::from(SCHEMA_VERSION)) {
        return Err(GoldError::Version {
            path: path.to_path_buf(),
            found: found(&head.version),
            ours: env!("CARGO_PKG_VERSION"),
        });
    }
    serde_json::from_slice(data).map_err(|e| GoldError::json(path, &e))
}

fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Agreement, export, locating files
// ---------------------------------------------------------------------------------------------

/// Agreement between two annotations of the same page ([`agree`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Agreement {
    /// Word-sequence LCS F1 between the two main-content texts (symmetric; 1.0 when both are
    /// empty), as [`crate::metrics::word_prf`].
    pub f1: f64,
    /// Whether the headlines are equal after normalisation (same word tokens, i.e. case, white
    /// space and punctuation ignored); `None` when either has no headline.
    pub headline_match: Option<bool>,
}

/// Inter-annotator agreement of two gold standards ([`Agreement`]). O(words²/64).
pub fn agree(a: &Gold, b: &Gold) -> Agreement {
    let f1 = word_prf(&a.main_content.text, &b.main_content.text).f1;
    let headline_match = match (&a.headline, &b.headline) {
        (Some(x), Some(y)) => Some(words(&x.text) == words(&y.text)),
        _ => None,
    };
    Agreement { f1, headline_match }
}

/// The gold standards in the common Scrapinghub format: a JSON object
/// `id → {"articleBody": main_content.text, "headline"?: text, "url"?: url}` with `id` =
/// [`Gold::page_id`]. A later gold with the same id replaces an earlier one.
pub fn export_scrapinghub<'a>(golds: impl IntoIterator<Item = &'a Gold>) -> serde_json::Value {
    let mut map = serde_json::Map::new();
    for g in golds {
        let mut entry = serde_json::Map::new();
        entry.insert(
            "articleBody".into(),
            serde_json::Value::String(g.main_content.text.clone()),
        );
        if let Some(h) = g.headline.as_ref().filter(|h| h.confirmed) {
            entry.insert("headline".into(), serde_json::Value::String(h.text.clone()));
        }
        if let Some(u) = &g.url {
            entry.insert("url".into(), serde_json::Value::String(u.clone()));
        }
        map.insert(g.page_id().to_string(), serde_json::Value::Object(entry));
    }
    serde_json::Value::Object(map)
}

/// The main content as CleanEval-style plain text: a `URL: …` line when the URL is known, then
/// one block per line of `main_content.text`, each introduced by `<p>` — or by `<h>` for the
/// line that is the headline (when the headline lies inside the main content) — separated by
/// blank lines. A headline outside the main content comes first as an `<h>` block.
pub fn export_text(gold: &Gold) -> String {
    let mut out = String::new();
    if let Some(u) = &gold.url {
        out.push_str("URL: ");
        out.push_str(u);
        out.push_str("\n\n");
    }
    let head = gold.headline.as_ref().filter(|h| !h.text.is_empty());
    let inside = head.is_some_and(|h| {
        let [s, e] = h.range;
        gold.main_selection().intersects(s..e)
    });
    let mut head_done = false;
    if let (Some(h), false) = (head, inside) {
        out.push_str("<h>");
        out.push_str(&h.text);
        out.push_str("\n\n");
        head_done = true;
    }
    for line in gold.main_content.text.lines() {
        let is_head = !head_done && head.is_some_and(|h| h.text == line);
        head_done |= is_head;
        out.push_str(if is_head { "<h>" } else { "<p>" });
        out.push_str(line);
        out.push_str("\n\n");
    }
    out.truncate(out.trim_end_matches('\n').len());
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// The file in a folder of pages that can name where their gold files go
/// (`gold_dir = "../gold"`; see [`gold_path_for`]).
pub const FOLDER_CONFIG: &str = "cescope.toml";

/// Where the gold file of a page lives: `G/<page id>.json`, the page id being the file name
/// without `.gz`, `.html`, `.htm` (`x.html.gz` → `x.json`). One rule decides `G`:
///
/// 1. `gold_dir` (the command line's `--gold-dir DIR`) when given;
/// 2. else the folder named by `gold_dir = "NAME"` or `gold_dir = "../NAME"` in the page
///    folder's [`FOLDER_CONFIG`] (`sample-pages/cescope.toml` says `"../gold"`; any other
///    value, or a file that cannot be read, is reported by [`folder_gold_dir`] and ignored);
/// 3. else `gold/` in the folder that was opened: the corpus folder for a page of a
///    `ground-truth.json` corpus (`corpus/html/x.html` → `corpus/gold/x.json`), the page's own
///    folder otherwise (`pages/x.html` → `pages/gold/x.json`, `x.html` → `./gold/x.json`).
///
/// [`save`] creates `G` when needed. No other folder is ever chosen: a `gold/` folder that
/// happens to exist elsewhere is not used.
pub fn gold_path_for(page_path: &Path, gold_dir: Option<&Path>) -> PathBuf {
    let name = page_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "page".to_string());
    let file = format!("{}.json", page_stem(&name));
    if let Some(d) = gold_dir {
        return d.join(file);
    }
    let page_dir = match page_path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if let Ok(Some(d)) = folder_gold_dir(&page_dir) {
        return d.join(file);
    }
    let corpus_root = page_dir
        .parent()
        .filter(|_| page_dir.file_name().is_some_and(|n| n == "html"))
        .filter(|root| root.join("ground-truth.json").is_file());
    match corpus_root {
        Some(root) => root.join("gold").join(file),
        None => page_dir.join("gold").join(file),
    }
}

/// The gold folder named by `page_dir`'s [`FOLDER_CONFIG`]: `Ok(None)` without the file or
/// without a `gold_dir` key. Errors (a message naming the file): unreadable or malformed TOML,
/// or a value that is not `NAME` or `../NAME` with `NAME` one plain folder name — a folder of
/// pages may point at its own subfolder or a sibling, never elsewhere.
pub fn folder_gold_dir(page_dir: &Path) -> Result<Option<PathBuf>, String> {
    let cfg = page_dir.join(FOLDER_CONFIG);
    if !cfg.is_file() {
        return Ok(None);
    }
    let shown = printable_path(&cfg);
    let bytes =
        crate::fsio::read::read_regular(&cfg, 1 << 16).map_err(|e| format!("{shown}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{shown}: not UTF-8"))?;
    let table: toml::Table = text.parse().map_err(|e| format!("{shown}: {e}"))?;
    let Some(v) = table.get("gold_dir") else {
        return Ok(None);
    };
    let v = v
        .as_str()
        .ok_or_else(|| format!("{shown}: gold_dir must be a string"))?;
    let (up, name) = match v.strip_prefix("../") {
        Some(rest) => (true, rest),
        None => (false, v),
    };
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\'])
        && !name.chars().any(char::is_control);
    if !plain {
        return Err(format!(
            "{shown}: gold_dir {v:?} must be NAME or ../NAME (one folder name)"
        ));
    }
    if !up {
        return Ok(Some(page_dir.join(name)));
    }
    // The sibling, lexically: `pages/../gold` is written `gold` when the parent is known.
    Ok(Some(match page_dir.parent() {
        Some(parent) if page_dir.file_name().is_some() => parent.join(name),
        _ => page_dir.join("..").join(name),
    }))
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)]
mod tests {
    use super::*;

    /// A gold file given where a corpus is expected is named as such (the corpus reader knows
    /// the schema tag without depending on this module; this test ties the two together).
    #[test]
    fn a_gold_file_is_not_taken_for_a_corpus() {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("gold/news-article.json");
        let data = std::fs::read(&p).unwrap();
        assert_eq!(parse(&p, &data).unwrap().schema, SCHEMA_TAG);
        let e = crate::corpus::read_ground_truth(&p)
            .unwrap_err()
            .to_string();
        assert!(e.contains("is a cescope gold file"), "{e}");
    }

    #[test]
    fn page_stems() {
        assert_eq!(page_stem("x.html.gz"), "x");
        assert_eq!(page_stem("x.HTM"), "x");
        assert_eq!(page_stem("x.php"), "x.php");
        assert_eq!(page_stem(".html"), ".html");
    }

    #[test]
    fn gold_paths() {
        let dir = tempfile::tempdir().unwrap();
        let pages = dir.path().join("pages");
        std::fs::create_dir(&pages).unwrap();
        assert_eq!(
            gold_path_for(&pages.join("a.html"), None),
            pages.join("gold/a.json")
        );
        // A gold/ folder beside the pages' folder is not taken just because it exists.
        std::fs::create_dir(dir.path().join("gold")).unwrap();
        assert_eq!(
            gold_path_for(&pages.join("a.html.gz"), None),
            pages.join("gold/a.json")
        );
        // The folder's cescope.toml names it.
        std::fs::write(pages.join(FOLDER_CONFIG), "gold_dir = \"../gold\"\n").unwrap();
        assert_eq!(
            gold_path_for(&pages.join("a.html.gz"), None),
            dir.path().join("gold/a.json")
        );
        assert_eq!(
            gold_path_for(Path::new("p/b.htm"), Some(Path::new("g"))),
            Path::new("g/b.json")
        );
        assert_eq!(
            gold_path_for(Path::new("c.html"), None),
            Path::new("./gold/c.json")
        );
        // A ground-truth corpus: gold/ in the corpus folder, not in html/.
        let corpus = dir.path().join("corpus");
        std::fs::create_dir_all(corpus.join("html")).unwrap();
        std::fs::write(corpus.join("ground-truth.json"), "{}").unwrap();
        assert_eq!(
            gold_path_for(&corpus.join("html/x.html"), None),
            corpus.join("gold/x.json")
        );
    }

    #[test]
    fn folder_config_points_only_at_a_subfolder_or_a_sibling() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join(FOLDER_CONFIG);
        for (value, ok) in [
            ("\"mine\"", Some(dir.path().join("mine"))),
            (
                "\"../shared-gold\"",
                Some(dir.path().parent().unwrap().join("shared-gold")),
            ),
        ] {
            std::fs::write(&cfg, format!("gold_dir = {value}")).unwrap();
            assert_eq!(folder_gold_dir(dir.path()).unwrap(), ok, "{value}");
        }
        for bad in ["\"/etc\"", "\"../../x\"", "\"a/b\"", "\"..\"", "3", "\"\""] {
            std::fs::write(&cfg, format!("gold_dir = {bad}")).unwrap();
            let e = folder_gold_dir(dir.path()).unwrap_err();
            assert!(e.contains("cescope.toml"), "{bad}: {e}");
            // Ignored by gold_path_for: the page folder's own gold/.
            assert_eq!(
                gold_path_for(&dir.path().join("p.html"), None),
                dir.path().join("gold/p.json")
            );
        }
        std::fs::write(&cfg, "not toml [").unwrap();
        assert!(folder_gold_dir(dir.path()).is_err());
        std::fs::write(&cfg, "other = 1").unwrap();
        assert_eq!(folder_gold_dir(dir.path()).unwrap(), None);
    }

    #[test]
    fn json_layout() {
        let page = Page::from_text("t.html", "<p>a b c d</p>");
        let mut g = Gold::new(&page, "a");
        let empty = g.to_json();
        assert!(empty.contains("\"ranges\": [],") && empty.contains("\"headline\": null,"));
        g.set_main_content(&page, Selection::from_ranges([3..4, 5..6, 9..10]));
        g.set_headline(&page, Some(3..6));
        let json = g.to_json();
        assert!(json.contains("\"ranges\": [\n      [3, 4],\n      [5, 6],\n      [9, 10]\n    ],"));
        assert!(json.contains("\"range\": [3, 6],"));
        let a: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(a, serde_json::to_value(&g).unwrap());
        assert_eq!(
            json,
            serde_json::to_string_pretty(&g)
                .unwrap()
                .replace("[\n        3,\n        4\n      ]", "[3, 4]")
                .replace("[\n        5,\n        6\n      ]", "[5, 6]")
                .replace("[\n        9,\n        10\n      ]", "[9, 10]")
                .replace("[\n      3,\n      6\n    ]", "[3, 6]")
                + "\n"
        );
    }

    #[test]
    fn timestamps_are_rfc3339_seconds() {
        let t = now_rfc3339();
        assert!(t.ends_with('Z') && t.len() == 20, "{t}");
    }

    #[test]
    fn export_text_marks_the_headline() {
        let page = Page::from_text("t.html", "<h1>Big news</h1><p>Body text.</p>");
        let mut g = Gold::new(&page, "a");
        g.set_main_content(&page, Selection::from_ranges([0..page.text().len()]));
        g.set_headline(&page, Some(4..12));
        assert_eq!(export_text(&g), "<h>Big news\n\n<p>Body text.\n");
        g.url = Some("http://x.example/".into());
        g.set_main_content(&page, Selection::from_ranges([17..page.text().len()]));
        assert_eq!(
            export_text(&g),
            "URL: http://x.example/\n\n<h>Big news\n\n<p>Body text.\n"
        );
    }
}
