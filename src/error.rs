//! Typed errors of the library. The binary reports them with context and maps them to exit codes
//! (1 for input errors, 2 for usage errors).
//!
//! Messages are one line. An error's text may already contain its cause's text (e.g.
//! [`Error::Io`] shows the I/O error, which is also its [`std::error::Error::source`]); print a
//! whole chain with [`report`], which shows each cause once and escapes control characters
//! ([`escape_controls`]), never by joining every source's text blindly.

use std::path::{Path, PathBuf};

/// Result alias used across the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in the library, typed so the edges can decide how to report it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading a file (or standard input) failed.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path that was read (`-` for standard input).
        path: PathBuf,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A `.gz` input could not be decompressed.
    #[error("cannot decompress {path}: {message}")]
    Gzip {
        /// The compressed file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The input is not text (e.g. an image); `kind` names what it looks like.
    #[error("{path} is not an HTML page: it looks like {kind}")]
    Binary {
        /// The file.
        path: PathBuf,
        /// What the bytes look like, e.g. "a PNG image".
        kind: String,
    },
    /// The path exists but is not a regular file (a directory, FIFO, socket or device), where a
    /// regular file is expected; nothing was read from it.
    #[error("cannot read {path}: it is {kind}, not a regular file{hint}")]
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What it is: "a directory", "a FIFO (named pipe)", "a socket", "a device".
        kind: &'static str,
        /// Advice appended to the message (empty, or starting with "; ").
        hint: &'static str,
    },
    /// The input is larger than cescope accepts.
    #[error("{}", too_large_message(path, *size, *limit, *after_decompression))]
    TooLarge {
        /// The file (`-` for standard input).
        path: PathBuf,
        /// Its size in bytes: exact for a regular file refused before reading, otherwise
        /// `limit + 1` (reading stopped one byte past the limit; a lower bound).
        size: u64,
        /// The limit in bytes.
        limit: u64,
        /// True when the limit was passed by the gzip-decompressed data (a compressed file, or
        /// a decompression bomb).
        after_decompression: bool,
    },
    /// A user-given encoding label is not known to the WHATWG Encoding Standard.
    #[error(
        "unknown encoding label {0:?} (use a WHATWG label such as utf-8, windows-1256, iso-8859-1)"
    )]
    UnknownEncoding(String),
    /// An algorithm name that is not registered.
    #[error("unknown algorithm {name:?}; known: {known}")]
    UnknownAlgorithm {
        /// The name asked for.
        name: String,
        /// Comma-separated list of registered names.
        known: String,
    },
    /// A `--set NAME=VALUE` that does not fit the algorithm's parameters.
    #[error("parameter error: {0}")]
    Param(String),
    /// A filter-set file (CombinE, `crate::algorithms::combine`) that cannot be used; the
    /// message names the file and the member.
    #[error("filter set {file}: {source}")]
    FilterSet {
        /// The set file (`<text>` for a set parsed from a string, `<shipped>/NAME` for a
        /// shipped set).
        file: String,
        /// What is wrong.
        #[source]
        source: SetError,
    },
    /// A corpus directory or ground-truth file that cannot be used.
    #[error("corpus error: {0}")]
    Corpus(String),
    /// Writing an output file failed (the file is unchanged; the message names it and why).
    #[error(transparent)]
    Write(#[from] crate::fsio::write::WriteError),
    /// A model file of a learned method (`crate::learn::model`) that cannot be used: another
    /// schema, method or feature list, malformed JSON, unreadable. The message names the file.
    #[error("model {file}: {message}")]
    Model {
        /// The model file as given.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// Training cannot go on (`cescope train`): an unknown method, no training pages, folds
    /// that cannot be made, test pages among the training pages, a method's learner failing.
    #[error("training: {0}")]
    Train(String),
}

/// What is wrong with a CombinE filter-set file (`crate::algorithms::combine`); one line each.
/// Defined here, not in `algorithms`, so that `error` depends on no algorithm module. `at` names the place: `top level`,
/// `member 2`, `member 2.1` (member 1 of the set that is member 2).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SetError {
    /// The text is not TOML, or has a field that sets do not have.
    #[error("not a filter set: {0}")]
    Toml(String),
    /// `algo = NAME` names no registered algorithm.
    #[error("{at}: unknown algorithm {name:?}; known: {known}")]
    UnknownAlgorithm {
        /// Where.
        at: String,
        /// The name given.
        name: String,
        /// The registered names.
        known: String,
    },
    /// A `params` key the member does not have.
    #[error("{at}: {algo} has no parameter {name:?}; it has: {known}")]
    UnknownParam {
        /// Where.
        at: String,
        /// The member's algorithm or set name.
        algo: String,
        /// The key given.
        name: String,
        /// The member's parameters.
        known: String,
    },
    /// A value of the wrong kind or out of range (parameter, weight, threshold).
    #[error("{at}: {message}")]
    BadValue {
        /// Where.
        at: String,
        /// What is wrong.
        message: String,
    },
    /// A set without members.
    #[error("{at}: a filter set needs at least one [[member]]")]
    Empty {
        /// Where.
        at: String,
    },
    /// More than `combine::MAX_MEMBERS` members.
    #[error("{at}: {count} members; a filter set has at most {limit}")]
    TooManyMembers {
        /// Where.
        at: String,
        /// Members given.
        count: usize,
        /// `combine::MAX_MEMBERS`.
        limit: usize,
    },
    /// `combine = "vote"` without `threshold`.
    #[error("{at}: combine = \"vote\" needs a threshold (e.g. threshold = 2)")]
    VoteWithoutThreshold {
        /// Where.
        at: String,
    },
    /// A field in the wrong place or a missing `combine` / member kind.
    #[error("{at}: {message}")]
    Invalid {
        /// Where.
        at: String,
        /// What is wrong.
        message: String,
    },
    /// Sets nested deeper than `combine::MAX_DEPTH`.
    #[error("{at}: filter sets nested deeper than {limit} levels")]
    TooDeep {
        /// Where.
        at: String,
        /// `combine::MAX_DEPTH`.
        limit: usize,
    },
    /// A set file that includes itself (directly or through others).
    #[error("{at}: {path} includes itself")]
    Cycle {
        /// Where.
        at: String,
        /// The file.
        path: String,
    },
    /// A `set = FILE` that cannot be read.
    #[error("{at}: cannot read {path}: {message}")]
    Io {
        /// Where.
        at: String,
        /// The file.
        path: String,
        /// Why.
        message: String,
    },
}

fn too_large_message(path: &Path, size: u64, limit: u64, after_decompression: bool) -> String {
    let path = path.display();
    let limit_text = format!("{limit} bytes{}", human_bytes(limit));
    if after_decompression {
        format!(
            "{path} is too large after decompression: it passes the limit of {limit_text}; \
             decompression stopped there"
        )
    } else if size > limit.saturating_add(1) {
        format!("{path} is too large: {size} bytes (limit {limit_text})")
    } else {
        format!("{path} is too large: it passes the limit of {limit_text}")
    }
}

/// " (1 GiB)" for a whole number of GiB / MiB / KiB, else "".
fn human_bytes(n: u64) -> String {
    for (unit, name) in [(1u64 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")] {
        if n >= unit && n.is_multiple_of(unit) {
            return format!(" ({} {name})", n / unit);
        }
    }
    String::new()
}

/// The one-line text of `err` and its chain of causes ([`std::error::Error::source`]), joined
/// with ": ", each cause shown only if its text is not already part of the message (errors that
/// print their cause and also return it as `source` are common), with control characters
/// escaped ([`escape_controls`]). Use it wherever a whole chain is printed (the binary's
/// `cescope: error: …` line).
pub fn report(err: &(dyn std::error::Error + 'static)) -> String {
    let mut msg = err.to_string();
    let mut cause = err.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !text.is_empty() && !msg.contains(&text) {
            msg.push_str(": ");
            msg.push_str(&text);
        }
        cause = c.source();
    }
    escape_controls(&msg)
}

/// `s` with control characters (C0, DEL, C1) and the bidirectional-override characters
/// (U+202A–U+202E, U+2066–U+2069) written as Rust escapes (`\n`, `\t`, `\u{1b}`, `\u{202e}`), so
/// text taken from files (names, ids, JSON keys) cannot move the cursor, recolour or reorder
/// the terminal. Other characters are unchanged. O(n) chars.
/// One implementation: [`crate::fsio::write::printable`], owned.
pub fn escape_controls(s: &str) -> String {
    crate::fsio::write::printable(s).into_owned()
}

impl Error {
    /// Builds an [`Error::Io`] for `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_shows_each_cause_once() {
        let e = Error::io("x.html", std::io::Error::other("it is broken"));
        assert_eq!(report(&e), "cannot read x.html: it is broken");
        let e = Error::io("x.html", std::io::Error::from(std::io::ErrorKind::NotFound));
        let msg = report(&e);
        assert_eq!(msg.matches("not found").count(), 1, "{msg}");

        // A wrapper whose text does not include its cause: the cause is appended once.
        #[derive(Debug, thiserror::Error)]
        #[error("saving failed")]
        struct Outer(#[source] std::io::Error);
        let e = Outer(std::io::Error::other("disk full"));
        assert_eq!(report(&e), "saving failed: disk full");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape_controls("plain é 世界"), "plain é 世界");
        assert_eq!(escape_controls("a\nb\tc\u{1b}[31m"), "a\\nb\\tc\\u{1b}[31m");
        assert_eq!(escape_controls("x\u{202e}y\u{85}"), "x\\u{202e}y\\u{85}");
        let e = Error::io("bad\nname.html", std::io::Error::other("gone"));
        assert_eq!(report(&e), "cannot read bad\\nname.html: gone");
    }

    #[test]
    fn too_large_messages_name_the_limit() {
        let e = Error::TooLarge {
            path: "b.gz".into(),
            size: (1 << 30) + 1,
            limit: 1 << 30,
            after_decompression: true,
        };
        let msg = e.to_string();
        assert!(msg.contains("after decompression"), "{msg}");
        assert!(msg.contains("1073741824 bytes (1 GiB)"), "{msg}");
        let e = Error::TooLarge {
            path: "p.html".into(),
            size: 5000,
            limit: 1000,
            after_decompression: false,
        };
        assert_eq!(
            e.to_string(),
            "p.html is too large: 5000 bytes (limit 1000 bytes)"
        );
    }
}
