//! Crawl-scale batch extraction: stream WARC, JSONL or a directory of pages through any
//! extractor on all cores, with constant memory, and write one JSONL record per page.
//!
//! The parts:
//!
//! - readers ([`open`]): [`warc`] (`response` records with an HTML content type, plain or a
//!   series of gzip members as Common Crawl writes them), [`jsonl`] (one JSON object per line:
//!   `id`, `url`, `html`, optional gold fields) and an html-dir ([`open_html_dir`], the pages of a
//!   directory or corpus as [`crate::corpus::open`] lists them). Each yields [`InputRecord`]s one at
//!   a time; nothing holds the whole input.
//! - the [`pipeline`]: a reader thread → bounded channel → rayon workers → writer, ordered by
//!   default (bounded reorder window) or unordered.
//! - [`extract_stream`]: decode, extract, render (as `cescope extract` does, in the job's
//!   [`Format`]: plain text, Markdown or clean HTML), optionally find the headline, and write an
//!   [`OutputRecord`] per page — also for pages that fail (the record carries an `error`; the
//!   stream never stops on a record). It returns a [`Summary`].
//! - [`pages_stream`]: write the input records as JSONL pages (the [`jsonl`] schema), which turns
//!   a directory corpus or a WARC file into the JSONL that `cescope eval` and Spark read.
//! - [`eval`]: `cescope eval` over JSONL files with gold, streaming.
//!
//! ## Output record (one JSON object per line)
//!
//! | field      | type            | meaning |
//! |------------|-----------------|---------|
//! | `id`       | string          | the record's id (JSONL `id`, WARC-Record-ID, page file stem) |
//! | `url`      | string or null  | the page's URL (JSONL `url`, WARC-Target-URI, gold url) |
//! | `algo`     | string          | the extractor's registered name |
//! | `text`     | string          | the main content as `cescope extract` prints it, in the job's [`ExtractJob::format`] (plain text, Markdown or clean HTML; empty on error) |
//! | `headline` | string or null  | only with a headline finder: its best candidate |
//! | `error`    | string          | only when the record failed (bad record, decode error, extractor panic) |
//! | `bytes`    | integer         | size of the page's raw bytes (HTTP body, `html` as UTF-8), bytes |

pub mod eval;
pub mod jsonl;
pub mod pipeline;
pub mod warc;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::corpus::GoldText;
use crate::error::{Error, Result};
use crate::extract::headline::HeadlineFinder;
use crate::extract::{Extractor, Params};
use crate::page::{DecodeOptions, Format, Page, RenderOptions};

pub use pipeline::PipelineOptions;

/// Largest page a batch reader hands on, in bytes (the limit of [`crate::page::decode::read_input`],
/// 1 GiB); a larger record becomes an error record.
pub const MAX_RECORD_BYTES: u64 = crate::page::decode::MAX_INPUT_BYTES;

/// The batch input formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    /// WARC (`.warc`, or `.warc.gz`: gzip members, one per record).
    Warc,
    /// JSON Lines, one page per line ([`jsonl`]); `.jsonl.gz` is read transparently.
    Jsonl,
    /// A directory of page files or a corpus directory ([`crate::corpus::open`]).
    HtmlDir,
}

impl InputFormat {
    /// The command-line names: `warc`, `jsonl`, `html-dir`.
    pub const NAMES: [&'static str; 3] = ["warc", "jsonl", "html-dir"];

    /// Guesses the format from the path: a directory is `html-dir`; a name ending in `.warc` or
    /// `.warc.gz` is WARC; `.jsonl`, `.ndjson` (optionally `.gz`) is JSONL; `None` otherwise
    /// (and for `-`).
    pub fn guess(path: &Path) -> Option<InputFormat> {
        if path.as_os_str() != "-" && path.is_dir() {
            return Some(InputFormat::HtmlDir);
        }
        let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        if name.ends_with(".warc") {
            Some(InputFormat::Warc)
        } else if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
            Some(InputFormat::Jsonl)
        } else {
            None
        }
    }
}

impl std::str::FromStr for InputFormat {
    type Err = Error;

    fn from_str(s: &str) -> Result<InputFormat> {
        match s.trim().to_ascii_lowercase().as_str() {
            "warc" => Ok(InputFormat::Warc),
            "jsonl" => Ok(InputFormat::Jsonl),
            "html-dir" => Ok(InputFormat::HtmlDir),
            _ => Err(Error::Param(format!(
                "unknown input format {s:?}; known: {}",
                InputFormat::NAMES.join(", ")
            ))),
        }
    }
}

/// One page read from a batch input (or the error that replaced it).
#[derive(Debug, Clone, PartialEq)]
pub struct InputRecord {
    /// The record's id: JSONL `id` (else its `url`, else `line-N`), WARC-Record-ID (else
    /// `record-N`), the page file's stem.
    pub id: String,
    /// The page's URL, when known.
    pub url: Option<String>,
    /// A transport Content-Type for the decoder (its `charset` is a hint, [`DecodeOptions`]).
    pub content_type: Option<String>,
    /// The gold standard, when the input carries one (JSONL gold fields, corpus ground truth).
    pub gold: Option<GoldText>,
    /// The page's raw bytes, or why this record could not be read (one line).
    pub body: std::result::Result<Vec<u8>, String>,
}

impl InputRecord {
    /// A record that could not be read.
    pub fn failed(id: String, url: Option<String>, why: String) -> InputRecord {
        InputRecord {
            id,
            url,
            content_type: None,
            gold: None,
            body: Err(why),
        }
    }

    /// Size of the raw page, bytes (0 for a failed record).
    pub fn bytes(&self) -> u64 {
        self.body.as_ref().map_or(0, |b| b.len() as u64)
    }
}

/// An open batch input: its records, and counters the reader updates as it goes.
pub struct Source {
    /// The records, in input order.
    pub records: Box<dyn Iterator<Item = InputRecord> + Send>,
    /// Records read but not handed on (WARC records that are not HTML responses), shared with
    /// the reader.
    pub skipped: Arc<AtomicU64>,
    /// Bytes read from the input as stored (compressed bytes for `.gz`), shared with the reader.
    pub input_bytes: Arc<AtomicU64>,
}

/// A reader that counts the bytes read through it.
pub(crate) struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Opens `path` (`-` is standard input) for streaming: counted, buffered, and gunzipped (all
/// members) when it starts with the gzip magic bytes. Errors: [`Error::Io`]; a directory or other
/// non-regular file is [`Error::NotRegular`].
pub(crate) fn open_stream(path: &Path, count: Arc<AtomicU64>) -> Result<Box<dyn BufRead + Send>> {
    let raw: Box<dyn Read + Send> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
        if meta.is_dir() {
            return Err(Error::NotRegular {
                path: path.to_path_buf(),
                kind: "a directory",
                hint: "; give --input-format html-dir for a directory of pages",
            });
        }
        Box::new(std::fs::File::open(path).map_err(|e| Error::io(path, e))?)
    };
    let mut buf = BufReader::with_capacity(1 << 16, Counting { inner: raw, count });
    let head = buf.fill_buf().map_err(|e| Error::io(path, e))?;
    if head.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(buf),
        )))
    } else {
        Ok(Box::new(buf))
    }
}

/// Opens a batch input in `format`: a file or `-` for WARC and JSONL, a directory for
/// html-dir. Errors: [`Error::Io`] / [`Error::NotRegular`] when the input cannot be opened,
/// [`Error::Corpus`] for a directory without pages, [`Error::Param`] for `-` with html-dir.
/// Errors met later, inside the stream, become error records.
pub fn open(path: &Path, format: InputFormat) -> Result<Source> {
    let skipped = Arc::new(AtomicU64::new(0));
    let input_bytes = Arc::new(AtomicU64::new(0));
    let records: Box<dyn Iterator<Item = InputRecord> + Send> = match format {
        InputFormat::Warc => Box::new(warc::WarcRecords::new(
            open_stream(path, input_bytes.clone())?,
            skipped.clone(),
        )),
        InputFormat::Jsonl => Box::new(jsonl::JsonlRecords::new(open_stream(
            path,
            input_bytes.clone(),
        )?)),
        InputFormat::HtmlDir => return open_html_dir(path),
    };
    Ok(Source {
        records,
        skipped,
        input_bytes,
    })
}

/// Opens a directory of pages or a corpus ([`crate::corpus::open`]: `.html`, `.htm`, `.gz`,
/// gold from its `ground-truth.json`); pages are read one at a time, when the pipeline asks
/// ([`crate::page::decode::read_input`], `.gz` transparently). A page that cannot be read is an
/// error record. Errors: those of [`crate::corpus::open`]; [`Error::Param`] for `-`.
pub fn open_html_dir(path: &Path) -> Result<Source> {
    if path.as_os_str() == "-" {
        return Err(Error::Param(
            "html-dir reads a directory, not standard input".into(),
        ));
    }
    let corpus = crate::corpus::open(path)?;
    let input_bytes = Arc::new(AtomicU64::new(0));
    let counter = input_bytes.clone();
    let records = corpus.pages.into_iter().map(move |p| {
        let body = crate::page::decode::read_input(&p.path).map_err(|e| crate::error::report(&e));
        if let Ok(meta) = std::fs::metadata(&p.path) {
            counter.fetch_add(meta.len(), Ordering::Relaxed);
        }
        InputRecord {
            id: p.id,
            url: p.gold.as_ref().and_then(|g| g.url.clone()),
            content_type: None,
            gold: p.gold,
            body,
        }
    });
    Ok(Source {
        records: Box::new(records),
        skipped: Arc::new(AtomicU64::new(0)),
        input_bytes,
    })
}

/// One output record of [`extract_stream`] (the table in the module documentation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutputRecord {
    /// The record's id.
    pub id: String,
    /// The page's URL, when known.
    pub url: Option<String>,
    /// The extractor's name.
    pub algo: String,
    /// The extracted main content, rendered as `cescope extract` prints it in the job's
    /// [`ExtractJob::format`] ([`Page::render_as`]); empty on error.
    pub text: String,
    /// The best headline candidate, when a headline finder was asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headline: Option<String>,
    /// Why the record failed (one line), absent when it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Size of the page's raw bytes, bytes.
    pub bytes: u64,
}

/// What to run on each page of [`extract_stream`].
pub struct ExtractJob {
    /// The extractor and its parameters.
    pub extractor: Arc<dyn Extractor>,
    /// Its parameter values.
    pub params: Params,
    /// A headline finder and its parameters, to fill [`OutputRecord::headline`].
    pub headline: Option<(Arc<dyn HeadlineFinder>, Params)>,
    /// Decoding options for every page; a record's own Content-Type fills
    /// [`DecodeOptions::content_type`] when this has none.
    pub decode: DecodeOptions,
    /// The form of [`OutputRecord::text`]: plain text (the default, [`Page::render`]), Markdown
    /// or clean HTML of the selected subtrees ([`Page::render_as`]).
    pub format: Format,
    /// Links and images kept in the Markdown and HTML forms (ignored for plain text).
    pub render: RenderOptions,
}

impl ExtractJob {
    /// A job running `extractor` with `params` on pages decoded with the default options,
    /// rendering plain text, with no headline finder: set the public fields to change that.
    pub fn new(extractor: Arc<dyn Extractor>, params: Params) -> ExtractJob {
        ExtractJob {
            extractor,
            params,
            headline: None,
            decode: DecodeOptions::default(),
            format: Format::Text,
            render: RenderOptions::default(),
        }
    }

    /// Runs the job on one record: decode ([`Page::from_bytes`]), extract, render in
    /// [`ExtractJob::format`] ([`Page::render_as`]), headline. A
    /// record that failed to read, a decode error and a panic inside the extractor all give an
    /// output record with [`OutputRecord::error`] set.
    pub fn run(&self, rec: InputRecord) -> OutputRecord {
        let bytes = rec.bytes();
        let mut out = OutputRecord {
            id: rec.id,
            url: rec.url,
            algo: self.extractor.name().to_string(),
            text: String::new(),
            headline: None,
            error: None,
            bytes,
        };
        let raw = match rec.body {
            Ok(raw) => raw,
            Err(why) => {
                out.error = Some(why);
                return out;
            }
        };
        let page = match decode_record(&out.id, raw, rec.content_type, &self.decode) {
            Ok(p) => p,
            Err(e) => {
                out.error = Some(e);
                return out;
            }
        };
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let x = self.extractor.run(&page, &self.params);
            let text = page.render_as(&x.selection, self.format, &self.render);
            let headline = self.headline.as_ref().map(|(f, p)| {
                f.run(&page, p)
                    .best()
                    .map(|c| c.text.clone())
                    .unwrap_or_default()
            });
            (text, headline)
        }));
        match ran {
            Ok((text, headline)) => {
                out.text = text;
                out.headline = headline;
            }
            Err(_) => {
                out.error = Some(format!(
                    "the extractor {} panicked on this page (a bug; please report it)",
                    self.extractor.name()
                ))
            }
        }
        out
    }
}

/// Decodes a record's bytes into a page named `id`; its Content-Type is the transport hint
/// unless `opts` has one. Errors: the decoder's error as one line.
pub(crate) fn decode_record(
    id: &str,
    raw: Vec<u8>,
    content_type: Option<String>,
    opts: &DecodeOptions,
) -> std::result::Result<Page, String> {
    let mut opts = opts.clone();
    if opts.content_type.is_none() {
        opts.content_type = content_type;
    }
    Page::from_bytes(id, raw, &opts).map_err(|e| crate::error::report(&e))
}

/// What a batch run did, printed on standard error at the end.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Records written (pages and error records).
    pub records: u64,
    /// Records written with an `error`.
    pub errors: u64,
    /// Input records not handed on (non-HTML WARC records).
    pub skipped: u64,
    /// Sum of the pages' raw sizes, bytes.
    pub page_bytes: u64,
    /// Bytes read from the input as stored (compressed for `.gz`), bytes.
    pub input_bytes: u64,
    /// Wall-clock time, seconds.
    pub elapsed_seconds: f64,
    /// Worker threads.
    pub threads: usize,
    /// Peak resident set size of the process (`VmHWM` of `/proc/self/status`), KiB; `None`
    /// where that file does not exist.
    pub peak_rss_kib: Option<u64>,
}

impl Summary {
    /// The summary at the end of a stream started at `t0` on `threads` workers: the writer's
    /// counts (records, errors, page bytes) and the reader's shared counters (skipped records,
    /// input bytes), with the peak RSS read now.
    fn at_end(
        (records, errors, page_bytes): (u64, u64, u64),
        (skipped, input_bytes): (&AtomicU64, &AtomicU64),
        t0: Instant,
        threads: usize,
    ) -> Summary {
        Summary {
            records,
            errors,
            skipped: skipped.load(Ordering::Relaxed),
            page_bytes,
            input_bytes: input_bytes.load(Ordering::Relaxed),
            elapsed_seconds: t0.elapsed().as_secs_f64(),
            threads,
            peak_rss_kib: peak_rss_kib(),
        }
    }

    /// Records per second of wall time.
    pub fn pages_per_second(&self) -> f64 {
        self.records as f64 / self.elapsed_seconds.max(1e-9)
    }

    /// Megabytes (10^6 bytes) of page bytes per second of wall time.
    pub fn mb_per_second(&self) -> f64 {
        self.page_bytes as f64 / 1e6 / self.elapsed_seconds.max(1e-9)
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} records ({} errors, {} skipped), {:.1} MB of pages ({:.1} MB read), {:.2} s, \
             {:.1} pages/s, {:.2} MB/s, {} thread(s)",
            self.records,
            self.errors,
            self.skipped,
            self.page_bytes as f64 / 1e6,
            self.input_bytes as f64 / 1e6,
            self.elapsed_seconds,
            self.pages_per_second(),
            self.mb_per_second(),
            self.threads
        )?;
        if let Some(kib) = self.peak_rss_kib {
            write!(f, ", peak RSS {:.1} MiB", kib as f64 / 1024.0)?;
        }
        Ok(())
    }
}

/// The process's peak resident set size in KiB (`VmHWM` in `/proc/self/status`); `None` where
/// it is not available (not Linux).
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A progress bar on standard error (records, page bytes, rate); the caller decides whether
/// standard error is a terminal.
fn progress_bar(on: bool) -> Option<indicatif::ProgressBar> {
    if !on {
        return None;
    }
    let b = indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} {pos} records {msg} {elapsed_precise} ({per_sec})",
    ) {
        b.set_style(style);
    }
    Some(b)
}

/// Streams `source` through `job` on the pipeline and writes one [`OutputRecord`] per record as
/// a JSON line to `out` (flushed at the end). Per-record failures are records with an `error`;
/// only a write failure (or worker threads that cannot start) ends the stream early. `progress`
/// draws a progress bar on standard error.
///
/// Errors: [`Error::Io`] with path `-` when writing to `out` fails.
pub fn extract_stream(
    source: Source,
    job: &ExtractJob,
    opts: &PipelineOptions,
    out: &mut dyn Write,
    progress: bool,
) -> Result<Summary> {
    let t0 = Instant::now();
    let bar = progress_bar(progress);
    let (mut records, mut errors, mut page_bytes) = (0u64, 0u64, 0u64);
    let Source {
        records: input,
        skipped,
        input_bytes,
    } = source;
    pipeline::run(
        input,
        |rec| job.run(rec),
        opts,
        |o: OutputRecord| -> std::io::Result<()> {
            records += 1;
            errors += u64::from(o.error.is_some());
            page_bytes += o.bytes;
            serde_json::to_writer(&mut *out, &o)?;
            out.write_all(b"\n")?;
            if let Some(b) = &bar {
                b.inc(1);
                b.set_message(format!("{:.1} MB", page_bytes as f64 / 1e6));
            }
            Ok(())
        },
    )
    .and_then(|()| out.flush())
    .map_err(|e| Error::io("-", e))?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(Summary::at_end(
        (records, errors, page_bytes),
        (&skipped, &input_bytes),
        t0,
        opts.threads,
    ))
}

/// Streams `source` and writes each readable record as a JSONL page ([`jsonl::PageLine`]: `id`,
/// `url`, `html` = the decoded text, gold fields), in input order — the conversion of a
/// directory corpus or a WARC file into the JSONL that `cescope eval` and the Spark recipe read.
/// Records that cannot be read or decoded are not written; they are counted in
/// [`Summary::errors`] and reported through `warn` (one line each).
///
/// Errors: [`Error::Io`] with path `-` when writing to `out` fails.
pub fn pages_stream(
    source: Source,
    decode: &DecodeOptions,
    opts: &PipelineOptions,
    out: &mut dyn Write,
    warn: &mut dyn FnMut(&str),
) -> Result<Summary> {
    let t0 = Instant::now();
    let (mut records, mut errors, mut page_bytes) = (0u64, 0u64, 0u64);
    let Source {
        records: input,
        skipped,
        input_bytes,
    } = source;
    pipeline::run(
        input,
        |rec: InputRecord| -> (String, u64, std::result::Result<String, String>) {
            let bytes = rec.bytes();
            let id = rec.id.clone();
            let line = rec.body.clone().and_then(|raw| {
                let page = decode_record(&rec.id, raw, rec.content_type.clone(), decode)?;
                let line = jsonl::PageLine::new(rec.id, rec.url, page.text().to_string(), rec.gold);
                serde_json::to_string(&line).map_err(|e| e.to_string())
            });
            (id, bytes, line)
        },
        opts,
        |(id, bytes, line)| -> std::io::Result<()> {
            records += 1;
            page_bytes += bytes;
            match line {
                Ok(l) => {
                    out.write_all(l.as_bytes())?;
                    out.write_all(b"\n")?;
                }
                Err(why) => {
                    errors += 1;
                    warn(&crate::error::escape_controls(&format!("{id}: {why}")));
                }
            }
            Ok(())
        },
    )
    .and_then(|()| out.flush())
    .map_err(|e| Error::io("-", e))?;
    Ok(Summary::at_end(
        (records, errors, page_bytes),
        (&skipped, &input_bytes),
        t0,
        opts.threads,
    ))
}
