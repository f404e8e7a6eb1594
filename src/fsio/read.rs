//! Reading regular files with a size limit.
//!
//! Everything cescope reads from a path goes through this module: [`read_regular`] for whole
//! files, [`open_regular`] for callers that stream (pages, which may be gzip-compressed). A FIFO,
//! socket or device where a regular file is expected is refused at once (reading one could
//! block forever, or never end, as `/dev/zero` does), and at most `limit + 1` bytes are kept in
//! memory ([`read_limited`], whose buffer never grows past `limit + 1` bytes), so a file that
//! grows while it is read cannot exhaust memory. [`count_limited`] measures a stream (e.g. a
//! decompressor's output) through a fixed buffer without keeping it.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Why a read through [`read_regular`] failed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The path exists but is not a regular file (a directory, FIFO, socket or device); the
    /// text says which, as [`kind_of`] does ("a FIFO (named pipe)", "a device", …).
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

/// Size of the chunks [`read_limited`] and [`count_limited`] read at a time, in bytes (64 KiB).
pub const CHUNK_BYTES: usize = 64 << 10;

/// Reads at most `limit + 1` bytes of `reader` into memory; a result longer than `limit` means
/// the input is over the limit. `hint` (bytes, e.g. the file's size) pre-sizes the buffer to
/// `min(hint, limit) + 1` bytes, so a correct hint means one allocation and no copy.
///
/// The buffer's capacity never exceeds `limit + 1` bytes (past the hint it grows by doubling,
/// capped there), so refusing an endless or oversized stream costs at most `limit + 1` bytes of
/// buffer plus one [`CHUNK_BYTES`] chunk. Errors: the reader's (interrupted reads are retried).
pub fn read_limited(mut reader: impl Read, limit: u64, hint: u64) -> io::Result<Vec<u8>> {
    let cap = usize::try_from(limit.saturating_add(1)).unwrap_or(usize::MAX);
    let initial = usize::try_from(hint.saturating_add(1)).unwrap_or(usize::MAX);
    let mut buf: Vec<u8> = Vec::with_capacity(initial.min(cap));
    let mut chunk = vec![0u8; CHUNK_BYTES.min(cap)];
    while buf.len() < cap {
        let want = chunk.len().min(cap - buf.len());
        let n = match reader.read(&mut chunk[..want]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.capacity() - buf.len() < n {
            let grown = buf
                .capacity()
                .saturating_mul(2)
                .max(buf.len() + n)
                .max(CHUNK_BYTES);
            buf.reserve_exact(grown.min(cap) - buf.len());
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Ok(buf)
}

/// Counts the bytes of `reader` up to `limit + 1` through one [`CHUNK_BYTES`] buffer, keeping
/// none of them: a count over `limit` means the stream is over the limit (reading stops there).
/// Errors: the reader's (interrupted reads are retried).
pub fn count_limited(mut reader: impl Read, limit: u64) -> io::Result<u64> {
    let cap = limit.saturating_add(1);
    let mut chunk = vec![0u8; CHUNK_BYTES];
    let mut total = 0u64;
    while total < cap {
        let want = usize::try_from(cap - total).map_or(chunk.len(), |r| r.min(chunk.len()));
        match reader.read(&mut chunk[..want]) {
            Ok(0) => break,
            Ok(n) => total += n as u64,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(total)
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

    #[cfg(unix)]
    #[test]
    fn devices_are_refused_without_reading() {
        let p = Path::new("/dev/zero");
        if !p.exists() {
            return;
        }
        assert!(matches!(
            read_regular(p, 100),
            Err(ReadError::NotRegular("a device"))
        ));
    }

    #[test]
    fn endless_stream_stops_one_past_the_limit_with_a_capped_buffer() {
        for limit in [0u64, 1, 1000, 65_536, 200_000] {
            let buf = read_limited(io::repeat(b'a'), limit, 0).unwrap();
            assert_eq!(buf.len() as u64, limit + 1);
            assert!(
                buf.capacity() as u64 <= limit + 1,
                "{limit}: {}",
                buf.capacity()
            );
            let buf = read_limited(io::repeat(b'a'), limit, u64::MAX).unwrap();
            assert!(
                buf.capacity() as u64 <= limit + 1,
                "{limit}: {}",
                buf.capacity()
            );
            assert_eq!(count_limited(io::repeat(b'a'), limit).unwrap(), limit + 1);
        }
        let short = read_limited(&b"hello"[..], 10, 5).unwrap();
        assert_eq!(short, b"hello");
        assert_eq!(count_limited(&b"hello"[..], 10).unwrap(), 5);
        assert_eq!(count_limited(&b"hello"[..], 3).unwrap(), 4);
    }
}
