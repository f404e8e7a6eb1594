//! Reading a page's bytes: a regular file or standard input, gzip decompressed transparently,
//! within a size limit checked while streaming.

use crate::error::{Error, Result};
use crate::fsio::read::{count_limited, open_regular, read_limited, ReadError};
use flate2::read::MultiGzDecoder;
use std::io::{self, Read, Seek};
use std::path::Path;

/// Largest input accepted by [`read_input`], in bytes, measured after gzip decompression
/// (1 GiB).
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Decompressed inputs up to this size (16 MiB) are decompressed once, straight into memory.
/// Past it, [`read_input`] stops keeping the data and only counts the rest of the stream; if
/// the total is within the limit, it decompresses again into a buffer of the exact size. So a
/// decompression bomb is refused holding at most this much decompressed data, and a page of
/// ordinary size is decompressed once.
pub const SINGLE_PASS_BYTES: u64 = 16 << 20;

/// Reads a whole input into memory: the file at `path`, or standard input when `path` is `-`.
///
/// A path must name a regular file (links are followed): a directory, FIFO, socket or device is
/// refused at once, without reading or blocking (a FIFO with no writer would wait forever,
/// `/dev/zero` never ends); a stream is read through standard input (`-`) instead.
///
/// If the bytes start with the gzip magic number (`1f 8b`), they are decompressed (all members
/// of a multi-member stream). The result may be at most [`MAX_INPUT_BYTES`] (1 GiB) after
/// decompression, and memory stays bounded while streaming: at most `limit + 1` bytes are ever
/// kept, and for compressed input at most [`SINGLE_PASS_BYTES`] of decompressed data until the
/// stream is known to fit (see there), so a decompression bomb is refused cheaply.
///
/// # Errors
///
/// - [`Error::NotRegular`] if `path` is a directory, FIFO, socket or device.
/// - [`Error::Io`] (with `path`, `-` for standard input) if the input cannot be read.
/// - [`Error::Gzip`] if the input starts with the gzip magic number but does not decompress.
/// - [`Error::TooLarge`] if the input is larger than the limit, with `after_decompression` set
///   when the decompressed data passed it; `size` is exact for a regular file that is too large
///   as stored, and otherwise a lower bound: the limit plus one.
pub fn read_input(path: &Path) -> Result<Vec<u8>> {
    read_input_limited(path, MAX_INPUT_BYTES)
}

/// [`read_input`] with a size limit of `limit` bytes (after decompression) instead of
/// [`MAX_INPUT_BYTES`]; same behaviour and errors otherwise.
pub fn read_input_limited(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let too_large = |size: u64, after_decompression: bool| Error::TooLarge {
        path: path.to_path_buf(),
        size,
        limit,
        after_decompression,
    };
    let io_err = |e: io::Error| Error::io(path, e);
    if path.as_os_str() == "-" {
        let raw = read_limited(io::stdin().lock(), limit, 0).map_err(io_err)?;
        if raw.len() as u64 > limit {
            return Err(too_large(raw.len() as u64, false));
        }
        if !raw.starts_with(&GZIP_MAGIC) {
            return Ok(raw);
        }
        let hint = (raw.len() as u64).saturating_mul(4);
        return gunzip_limited(path, limit, hint, || Ok(raw.as_slice()));
    }
    let (file, len) = open_regular(path).map_err(|e| read_error(path, e))?;
    if len > limit {
        return Err(too_large(len, false));
    }
    let mut magic = [0u8; 2];
    let got = read_prefix(&file, &mut magic).map_err(io_err)?;
    if got < 2 || magic != GZIP_MAGIC {
        let raw = read_limited(&file, limit, len).map_err(io_err)?;
        if raw.len() as u64 > limit {
            return Err(too_large(raw.len() as u64, false)); // it grew while being read
        }
        return Ok(raw);
    }
    gunzip_limited(path, limit, len.saturating_mul(4), || {
        (&file).seek(io::SeekFrom::Start(0))?;
        Ok(io::BufReader::new(&file))
    })
}

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Fills `buf` from the start of `file` (fewer bytes for a shorter file), then rewinds it.
fn read_prefix(mut file: &std::fs::File, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match file.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    file.seek(io::SeekFrom::Start(0))?;
    Ok(got)
}

/// The page-reading view of a [`ReadError`]: names the path, and for a FIFO or socket says how
/// to read a stream instead.
fn read_error(path: &Path, e: ReadError) -> Error {
    match e {
        ReadError::NotRegular(kind) => Error::NotRegular {
            path: path.to_path_buf(),
            kind,
            hint: if kind.contains("FIFO") || kind.contains("socket") {
                "; to read a stream, pass it on standard input as -"
            } else {
                ""
            },
        },
        ReadError::TooLarge { limit } => Error::TooLarge {
            path: path.to_path_buf(),
            size: limit.saturating_add(1),
            limit,
            after_decompression: false,
        },
        ReadError::Io(e) => Error::io(path, e),
    }
}

/// Decompresses the gzip stream that `open` yields (called once, or twice for data over
/// [`SINGLE_PASS_BYTES`]: the first pass keeps up to that much, then only counts; the second
/// fills a buffer of the counted size). `hint` pre-sizes the first buffer. At most
/// `min(limit, SINGLE_PASS_BYTES) + 1` decompressed bytes are held until the total is known to
/// be within `limit`.
fn gunzip_limited<R: Read>(
    path: &Path,
    limit: u64,
    hint: u64,
    mut open: impl FnMut() -> io::Result<R>,
) -> Result<Vec<u8>> {
    let gzip_err = |e: io::Error| Error::Gzip {
        path: path.to_path_buf(),
        message: one_line(&e.to_string()),
    };
    let too_large = || Error::TooLarge {
        path: path.to_path_buf(),
        size: limit.saturating_add(1),
        limit,
        after_decompression: true,
    };
    let keep = limit.min(SINGLE_PASS_BYTES);
    let mut decoder = MultiGzDecoder::new(open().map_err(|e| Error::io(path, e))?);
    let out = read_limited(&mut decoder, keep, hint).map_err(gzip_err)?;
    let seen = out.len() as u64;
    if seen <= keep {
        return Ok(out); // the whole stream, within the limit
    }
    drop(out);
    if seen > limit {
        return Err(too_large());
    }
    let total = seen + count_limited(&mut decoder, limit - seen).map_err(gzip_err)?;
    if total > limit {
        return Err(too_large());
    }
    drop(decoder);
    let decoder = MultiGzDecoder::new(open().map_err(|e| Error::io(path, e))?);
    let out = read_limited(decoder, limit, total).map_err(gzip_err)?;
    if out.len() as u64 > limit {
        return Err(too_large()); // the file changed between the passes
    }
    Ok(out)
}

fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(data).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn read_plain_and_gzip_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let page = "<html><body><p>héllo</p></body></html>".repeat(100);

        let plain = dir.path().join("page.html");
        std::fs::write(&plain, &page).unwrap();
        assert_eq!(read_input(&plain).unwrap(), page.as_bytes());

        let gz = dir.path().join("page.html.gz");
        std::fs::write(&gz, gzip(page.as_bytes())).unwrap();
        assert_eq!(read_input(&gz).unwrap(), page.as_bytes());

        // Multi-member gzip (concatenated .gz files).
        let mut multi = gzip(b"first ");
        multi.extend(gzip(b"second"));
        let path = dir.path().join("multi.gz");
        std::fs::write(&path, multi).unwrap();
        assert_eq!(read_input(&path).unwrap(), b"first second");
    }

    #[test]
    fn corrupt_gzip() {
        let dir = tempfile::tempdir().unwrap();
        let mut bytes = gzip(&b"<p>hello hello hello</p>".repeat(50));
        let mid = bytes.len() / 2;
        for b in &mut bytes[12..mid] {
            *b ^= 0x5a;
        }
        let path = dir.path().join("bad.gz");
        std::fs::write(&path, &bytes).unwrap();
        match read_input(&path) {
            Err(Error::Gzip { path: p, message }) => {
                assert_eq!(p, path);
                assert!(!message.is_empty() && !message.contains('\n'));
            }
            other => panic!("{other:?}"),
        }

        // Truncated stream.
        let good = gzip(&b"<p>hello</p>".repeat(50));
        let path = dir.path().join("truncated.gz");
        std::fs::write(&path, &good[..good.len() / 2]).unwrap();
        assert!(matches!(read_input(&path), Err(Error::Gzip { .. })));
    }

    #[test]
    fn size_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.html");
        std::fs::write(&path, vec![b'a'; 2000]).unwrap();
        assert_eq!(read_input_limited(&path, 2000).unwrap().len(), 2000);
        match read_input_limited(&path, 1000) {
            Err(Error::TooLarge { size, limit, .. }) => assert_eq!((size, limit), (2000, 1000)),
            other => panic!("{other:?}"),
        }

        // A small gzip that expands past the limit stops at limit + 1 bytes.
        let bomb = dir.path().join("bomb.gz");
        std::fs::write(&bomb, gzip(&vec![b'a'; 1 << 20])).unwrap();
        match read_input_limited(&bomb, 10_000) {
            Err(e @ Error::TooLarge { .. }) => {
                let Error::TooLarge {
                    size,
                    limit,
                    after_decompression,
                    ..
                } = e
                else {
                    unreachable!()
                };
                assert_eq!((size, limit, after_decompression), (10_001, 10_000, true));
                let msg = e.to_string();
                assert!(
                    msg.contains("after decompression") && msg.contains("10000"),
                    "{msg}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn two_pass_decompression_past_the_single_pass_size() {
        let dir = tempfile::tempdir().unwrap();
        let size = SINGLE_PASS_BYTES as usize + 1000;
        let mut page = b"<html><body><p>".to_vec();
        page.resize(size, b'a');
        let path = dir.path().join("big.html.gz");
        std::fs::write(&path, gzip(&page)).unwrap();
        let got = read_input_limited(&path, size as u64).unwrap();
        assert!(got == page, "decompressed bytes differ");
        // The second pass fills a buffer of the counted size (plus the byte that shows the end).
        assert!(got.capacity() <= size + 1, "{}", got.capacity());
        match read_input_limited(&path, size as u64 - 1) {
            Err(Error::TooLarge {
                size: s,
                limit,
                after_decompression: true,
                ..
            }) => assert_eq!((s, limit), (size as u64, size as u64 - 1)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn io_errors() {
        let dir = tempfile::tempdir().unwrap();
        match read_input(dir.path()) {
            Err(Error::NotRegular { path, kind, .. }) => {
                assert_eq!(path, dir.path());
                assert_eq!(kind, "a directory");
            }
            other => panic!("{other:?}"),
        }
        let missing = dir.path().join("missing.html");
        match read_input(&missing) {
            Err(Error::Io { path, source }) => {
                assert_eq!(path, missing);
                assert_eq!(source.kind(), io::ErrorKind::NotFound);
            }
            other => panic!("{other:?}"),
        }
    }
}
