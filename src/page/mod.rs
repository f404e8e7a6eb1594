//! The page model: one decoded page, with its lexing and virtual lines built lazily.
//!
//! A [`Page`] is built once per file ([`Page::load`], [`Page::from_bytes`]); every extractor
//! reuses its parts, each computed on first use and cached ([`std::sync::OnceLock`], so a page
//! can be shared between threads). All offsets anywhere in cescope are **byte offsets into the
//! decoded UTF-8 text** ([`Page::text`]).

pub mod blocks;
pub mod declared;
pub mod decode;
pub mod dom;
pub mod find;
pub mod lex;
pub mod lines;
pub mod locate;
pub mod mask;
pub mod shell;
pub mod structured;
pub mod text;
pub mod tokens;
pub mod units;

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use sha2::{Digest, Sha256};

pub use blocks::{Block, Blocks, Records};
pub use decode::{DecodeOptions, EncodingSource};
pub use dom::{Dom, DomOptions, NodeId, NodeKind};
pub use lex::{ByteClass, Lexed, Span, Tag};
pub use lines::{VLine, VirtualLines};
pub use structured::{Format, RenderOptions};

use crate::error::{Error, Result};

/// A page's memoised values ([`Page::memo`]), by key name and value type.
type Memo = HashMap<(&'static str, TypeId), Arc<dyn Any + Send + Sync>>;

/// A typed handle on one of a page's memoised values ([`Page::memo`]): a name and the type of
/// the value it holds, declared once as a constant beside the computation
/// (`const UNITS: MemoKey<Units> = MemoKey::new("guideline::page_units");`).
pub struct MemoKey<T> {
    name: &'static str,
    value: std::marker::PhantomData<fn() -> T>,
}

impl<T> MemoKey<T> {
    /// The key named `name` (unique among the memo keys of values of type `T`).
    pub const fn new(name: &'static str) -> MemoKey<T> {
        MemoKey {
            name,
            value: std::marker::PhantomData,
        }
    }

    /// The key's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }
}

impl<T> Clone for MemoKey<T> {
    fn clone(&self) -> MemoKey<T> {
        *self
    }
}

impl<T> Copy for MemoKey<T> {}

impl<T> std::fmt::Debug for MemoKey<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MemoKey({:?})", self.name)
    }
}

/// A decoded page and its lazily built analyses.
#[derive(Debug)]
pub struct Page {
    name: String,
    raw: Vec<u8>,
    text: String,
    encoding: &'static encoding_rs::Encoding,
    encoding_source: EncodingSource,
    had_errors: bool,
    warnings: Vec<String>,
    /// The HTML scripting flag the lexer and the DOM read the page with.
    scripting: bool,
    lexed: OnceLock<Lexed>,
    lines: OnceLock<VirtualLines>,
    dom: OnceLock<Dom>,
    blocks: OnceLock<Blocks>,
    records: OnceLock<Records>,
    /// The page's content text ([`Page::content_text`]), built on first use: every
    /// [`Page::normalize`] intersects with it.
    content_text: OnceLock<crate::selection::Selection>,
    sha256: OnceLock<[u8; 32]>,
    memo: Mutex<Memo>,
}

impl Page {
    /// Reads and decodes a page: `path` may be `-` (standard input) or a `.gz` file (detected by
    /// its magic bytes); any other path must be a regular file ([`decode::read_input`]).
    /// Errors: [`Error::NotRegular`] (a FIFO, device, directory… refused without reading),
    /// [`Error::Io`], [`Error::Gzip`], [`Error::TooLarge`], [`Error::Binary`] (with the path),
    /// [`Error::UnknownEncoding`] for a bad override.
    pub fn load(path: &Path, opts: &DecodeOptions) -> Result<Page> {
        let raw = decode::read_input(path)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        Page::from_bytes(name, raw, opts).map_err(|e| match e {
            Error::Binary { kind, .. } => Error::Binary {
                path: path.to_path_buf(),
                kind,
            },
            other => other,
        })
    }

    /// Decodes `raw` (the page's bytes, already decompressed) into a page named `name`, to be
    /// read with `opts.scripting` ([`DecodeOptions::scripting`]). Only decoding happens here;
    /// lexing and lines are built on first use.
    pub fn from_bytes(name: impl Into<String>, raw: Vec<u8>, opts: &DecodeOptions) -> Result<Page> {
        let d = decode::decode(&raw, opts)?;
        Ok(Page {
            name: name.into(),
            raw,
            text: d.text,
            encoding: d.encoding,
            encoding_source: d.source,
            had_errors: d.had_errors,
            warnings: d.warnings,
            scripting: opts.scripting,
            lexed: OnceLock::new(),
            lines: OnceLock::new(),
            dom: OnceLock::new(),
            blocks: OnceLock::new(),
            records: OnceLock::new(),
            content_text: OnceLock::new(),
            sha256: OnceLock::new(),
            memo: Mutex::default(),
        })
    }

    /// A page from text that is already decoded (tests, generated pages), read with scripting
    /// off. Its "raw bytes" are the UTF-8 text.
    pub fn from_text(name: impl Into<String>, text: impl Into<String>) -> Page {
        let text = text.into();
        Page {
            name: name.into(),
            raw: text.as_bytes().to_vec(),
            text,
            encoding: encoding_rs::UTF_8,
            encoding_source: EncodingSource::Utf8,
            had_errors: false,
            warnings: Vec::new(),
            scripting: false,
            lexed: OnceLock::new(),
            lines: OnceLock::new(),
            dom: OnceLock::new(),
            blocks: OnceLock::new(),
            records: OnceLock::new(),
            content_text: OnceLock::new(),
            sha256: OnceLock::new(),
            memo: Mutex::default(),
        }
    }

    /// A page with the same name, raw bytes and encoding as `self` but another decoded `text`
    /// (the masked pages of [`mask`]); lazy parts are rebuilt on first use.
    fn with_text(&self, text: String) -> Page {
        Page {
            name: self.name.clone(),
            raw: self.raw.clone(),
            text,
            encoding: self.encoding,
            encoding_source: self.encoding_source,
            had_errors: self.had_errors,
            warnings: self.warnings.clone(),
            scripting: self.scripting,
            lexed: OnceLock::new(),
            lines: OnceLock::new(),
            dom: OnceLock::new(),
            blocks: OnceLock::new(),
            records: OnceLock::new(),
            content_text: OnceLock::new(),
            sha256: OnceLock::new(),
            memo: Mutex::default(),
        }
    }

    /// The value `f` computes from this page alone, computed once per page and `key` and shared
    /// afterwards. For results an algorithm needs on every run whatever its parameters — DANA's
    /// headline bound asks TitleFinder (with its published parameters) for the headline on each
    /// run, and the optimiser runs thousands — so `key` must name a computation that depends on
    /// the page only, never on parameter values. The key's type fixes the value's type
    /// ([`MemoKey`]), and values are stored by name and type, so a value is never read back as
    /// another type. A masked page ([`Page::masked`]) starts with an empty memo. Two threads
    /// asking at once may both compute; one result is kept.
    pub fn memo<T: Any + Send + Sync>(&self, key: MemoKey<T>, f: impl FnOnce() -> T) -> Arc<T> {
        let slot = (key.name, TypeId::of::<T>());
        let lock = || self.memo.lock().unwrap_or_else(|e| e.into_inner());
        let cached = lock().get(&slot).cloned();
        if let Some(t) = cached.and_then(|v| v.downcast::<T>().ok()) {
            return t;
        }
        let v = Arc::new(f());
        lock()
            .entry(slot)
            .or_insert_with(|| v.clone() as Arc<dyn Any + Send + Sync>);
        v
    }

    /// The page's name (its file name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The decoded text (UTF-8). All offsets refer to it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The raw bytes as read (after decompression).
    pub fn raw(&self) -> &[u8] {
        &self.raw
    }

    /// The encoding used to decode the page.
    pub fn encoding(&self) -> &'static encoding_rs::Encoding {
        self.encoding
    }

    /// How the encoding was determined.
    pub fn encoding_source(&self) -> EncodingSource {
        self.encoding_source
    }

    /// True when malformed byte sequences were replaced by U+FFFD while decoding.
    pub fn had_errors(&self) -> bool {
        self.had_errors
    }

    /// Warnings from decoding (e.g. an unknown charset label in `<meta>`).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// SHA-256 of the raw bytes (computed on first use).
    pub fn sha256(&self) -> [u8; 32] {
        *self.sha256.get_or_init(|| Sha256::digest(&self.raw).into())
    }

    /// SHA-256 of the raw bytes as lower-case hex.
    pub fn sha256_hex(&self) -> String {
        self.sha256().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The same page read with the HTML scripting flag `on` ([`DecodeOptions::scripting`]);
    /// lazy parts are rebuilt on first use.
    #[must_use]
    pub fn with_scripting(&self, on: bool) -> Page {
        let mut p = self.with_text(self.text.clone());
        p.scripting = on;
        p
    }

    /// Is the page read with the HTML scripting flag on ([`DecodeOptions::scripting`])? Then
    /// `<noscript>` content is raw text, not markup, for its lexer and its DOM alike.
    pub fn scripting(&self) -> bool {
        self.scripting
    }

    /// The lexed spans (built on first use, O(n)), with the page's scripting flag.
    pub fn lexed(&self) -> &Lexed {
        self.lexed.get_or_init(|| {
            lex::lex_with(
                &self.text,
                lex::LexOptions {
                    scripting: self.scripting,
                },
            )
        })
    }

    /// The virtual lines (built on first use from [`Page::lexed`], O(n)).
    pub fn lines(&self) -> &VirtualLines {
        self.lines
            .get_or_init(|| lines::build(&self.text, self.lexed()))
    }

    /// The positioned DOM, built on first use, O(n), with the page's scripting flag (off by
    /// default: `<noscript>` content is markup, as the lexer reads it); [`Dom::parse`] gives
    /// other options.
    pub fn dom(&self) -> &Dom {
        self.dom.get_or_init(|| {
            Dom::parse(
                &self.text,
                &DomOptions {
                    scripting_enabled: self.scripting,
                },
            )
        })
    }

    /// The atomic text blocks with their features ([`blocks`]), built on first use from
    /// [`Page::dom`], O(n).
    pub fn blocks(&self) -> &Blocks {
        self.blocks
            .get_or_init(|| Blocks::build(&self.text, self.dom()))
    }

    /// The record groups (posts, comments, listing items: [`blocks::records`]) with the
    /// default [`blocks::RecordOptions`], found on first use from [`Page::blocks`], O(n log n).
    pub fn records(&self) -> &Records {
        self.records.get_or_init(|| {
            Records::build(self.dom(), self.blocks(), &blocks::RecordOptions::default())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memo_computes_once_per_page_and_key() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let calls = AtomicUsize::new(0);
        let p = Page::from_text("t.html", "<p>Hello</p>");
        let count = || {
            calls.fetch_add(1, Ordering::SeqCst);
            p.text().len()
        };
        const LEN: MemoKey<usize> = MemoKey::new("len");
        assert_eq!(*p.memo(LEN, count), 12);
        assert_eq!(*p.memo(LEN, count), 12);
        assert_eq!(
            calls.load(Ordering::SeqCst),
            1,
            "the second call is served from the memo"
        );
        // Another type under the same name is another slot: both are kept.
        const LEN_TEXT: MemoKey<&str> = MemoKey::new("len");
        assert_eq!(*p.memo(LEN_TEXT, || "x"), "x");
        assert_eq!(*p.memo(LEN_TEXT, || "y"), "x");
        assert_eq!(*p.memo(LEN, count), 12);
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        // A masked page is another page: its memo starts empty.
        let m = p.masked(&crate::selection::Selection::new());
        assert_eq!(*m.memo(LEN, count), 12);
        assert_eq!(calls.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn lazy_parts_are_built_once() {
        let p = Page::from_text("t.html", "<p>Hello</p><p>World</p>");
        assert!(p.lexed.get().is_none());
        assert_eq!(p.lines().len(), 6);
        assert!(p.lexed.get().is_some());
        assert_eq!(p.sha256_hex().len(), 64);
    }

    #[test]
    fn page_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Page>();
    }
}
