//! Reading regular files with a size limit.
//!
//! Everything cescope reads from a path goes through [`read_regular`]: a FIFO, socket or
//! device where a regular file is expected is refused at once (reading one could block
//! forever, or never end, as `/dev/zero` does), and at most `limit + 1` bytes are read, so a
//! file that grows while it is read cannot exhaust memory.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Why a read through [`read_regular`] failed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The path exists but is not a regular file (a directory, FIFO, socket or device).
    #[error("it is {0}, not a regular file")]
    NotRegular(&'static str),
    /// The file holds more than `limit` bytes.
    #[error("it is larger than the limit of {limit} bytes")]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The operating system refused (missing file, permissions, …).
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// What kind of file `meta` describes, in words, for messages ("a directory", "a FIFO", …).
pub fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    if t.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// Opens `path` for reading after checking (following links) that it is a regular file.
/// Errors: [`ReadError::NotRegular`] naming what it is, or the I/O error.
pub fn open_regular(path: &Path) -> Result<(File, u64), ReadError> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind_of(&meta)));
    }
    // Open without blocking, so that a file swapped for a FIFO between the check and the open
    // cannot hang the process, then check the opened file itself.
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind_of(&meta)));
    }
    Ok((file, meta.len()))
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK = 0o4000 on Linux; for a regular file it has no effect on reads.
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(0o4000)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// Reads at most `limit + 1` bytes of `reader` into memory; `hint` pre-sizes the buffer
/// (capped at 64 MiB). A result longer than `limit` means the input is over the limit.
pub fn read_limited(reader: impl Read, limit: u64, hint: u64) -> io::Result<Vec<u8>> {
    let capacity = hint.min(limit.saturating_add(1)).min(64 << 20);
    let mut buf = Vec::with_capacity(usize::try_from(capacity).unwrap_or(0));
    reader.take(limit.saturating_add(1)).read_to_end(&mut buf)?;
    Ok(buf)
}

/// Reads the whole regular file at `path`, refusing non-regular files and files over `limit`
/// bytes (checked before reading and while reading). Errors: [`ReadError`].
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let (file, len) = open_regular(path)?;
    if len > limit {
        return Err(ReadError::TooLarge { limit });
    }
    let buf = read_limited(file, limit, len)?;
    if buf.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_read_and_limits_hold() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        std::fs::write(&p, b"hello").unwrap();
        assert_eq!(read_regular(&p, 5).unwrap(), b"hello");
        assert!(matches!(
            read_regular(&p, 4),
            Err(ReadError::TooLarge { limit: 4 })
        ));
        assert!(matches!(
            read_regular(dir.path(), 100),
            Err(ReadError::NotRegular("a directory"))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("fifo");
        let ok = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if !ok {
            return; // no mkfifo on this system: nothing to test
        }
        let e = read_regular(&p, 100).unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");
    }
}
