//! Typed errors of the library. The binary reports them with context and maps them to exit codes
//! (1 for input errors, 2 for usage errors).

use std::path::PathBuf;

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
    /// The input is larger than cescope accepts.
    #[error("{path} is too large: {size} bytes (limit {limit} bytes)")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes (after decompression).
        size: u64,
        /// The limit in bytes.
        limit: u64,
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
    /// A corpus directory or ground-truth file that cannot be used.
    #[error("corpus error: {0}")]
    Corpus(String),
    /// Writing an output file failed (the file is unchanged; the message names it and why).
    #[error(transparent)]
    Write(#[from] crate::fsio::write::WriteError),
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
