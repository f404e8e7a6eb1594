//! WARC input (ISO 28500; WARC/1.0 and 1.1 as Common Crawl writes them), through the `warc`
//! crate's raw record iterator, one record at a time.
//!
//! A `.warc.gz` file is a series of gzip members, one per record; [`super::open`] reads every
//! member (flate2's `MultiGzDecoder`) before the records are parsed. Taken: `response` records
//! whose HTTP `Content-Type` is HTML (`text/html`, `application/xhtml+xml`; without one, the
//! WARC-Identified-Payload-Type decides). The HTTP status line and headers are stripped; the
//! HTTP `Content-Type` goes to the decoder as the transport hint (its `charset`). Every other
//! record (warcinfo, request, metadata, non-HTML responses) is skipped and counted.
//!
//! A record that cannot be parsed (bad header block, a body shorter or longer than its
//! Content-Length) becomes an error record (id `record-N`, N counting every record from 1) and
//! reading goes on at the next header block that parses; a broken record may take the record
//! after it with it. A read error of the underlying stream (e.g. a corrupt gzip member) is a last
//! error record: the stream ends there. HTTP bodies are taken as stored (Common Crawl stores them
//! without transfer or content encoding).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ::warc::{RawRecordHeader, WarcHeader};

use super::InputRecord;

type RawIter<R> = ::warc::RawRecordIter<R>;

/// The HTML records of a WARC stream (see the module documentation).
pub struct WarcRecords<R> {
    inner: RawIter<R>,
    skipped: Arc<AtomicU64>,
    n: u64,
    done: bool,
}

impl<R: std::io::BufRead> WarcRecords<R> {
    /// Reads records from `reader` (already decompressed); non-HTML records are counted in
    /// `skipped`.
    pub fn new(reader: R, skipped: Arc<AtomicU64>) -> Self {
        WarcRecords {
            inner: ::warc::WarcReader::new(reader).iter_raw_records(),
            skipped,
            n: 0,
            done: false,
        }
    }
}

fn header(h: &RawRecordHeader, name: WarcHeader) -> Option<String> {
    h.headers
        .get(&name)
        .map(|v| String::from_utf8_lossy(v).trim().to_string())
}

/// Is a Content-Type value (`text/html; charset=…`) an HTML media type?
pub fn is_html_type(ct: &str) -> bool {
    let mime = ct
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    mime == "text/html" || mime == "application/xhtml+xml"
}

/// Splits an HTTP response (status line, headers, blank line, body) into its `Content-Type` and
/// body. `None` when there is no blank line ending the header block or no `HTTP/` status line.
pub fn split_http(block: &[u8]) -> Option<(Option<String>, &[u8])> {
    if !block.starts_with(b"HTTP/") {
        return None;
    }
    let (head_end, body_start) = match memchr::memmem::find(block, b"\r\n\r\n") {
        Some(i) => (i, i + 4),
        None => {
            let i = memchr::memmem::find(block, b"\n\n")?;
            (i, i + 2)
        }
    };
    let head = String::from_utf8_lossy(&block[..head_end]);
    let content_type = head.lines().skip(1).find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.trim()
            .eq_ignore_ascii_case("content-type")
            .then(|| value.trim().to_string())
    });
    Some((content_type, &block[body_start..]))
}

impl<R: std::io::BufRead> Iterator for WarcRecords<R> {
    type Item = InputRecord;

    fn next(&mut self) -> Option<InputRecord> {
        loop {
            if self.done {
                return None;
            }
            let item = self.inner.next()?;
            self.n += 1;
            let n = self.n;
            let (h, body) = match item {
                Ok(x) => x,
                Err(e) => {
                    let fatal =
                        matches!(e, ::warc::Error::ReadData(_) | ::warc::Error::UnexpectedEOB);
                    let why = match &e {
                        ::warc::Error::ReadData(io) => {
                            format!("cannot read the input: {io}; the stream ends here")
                        }
                        ::warc::Error::UnexpectedEOB => {
                            "the input ends inside the record (shorter than its Content-Length)"
                                .to_string()
                        }
                        ::warc::Error::ReadOverflow => {
                            "its body does not end where its Content-Length says".to_string()
                        }
                        other => format!("malformed record: {other}"),
                    };
                    self.done = fatal;
                    return Some(InputRecord::failed(
                        format!("record-{n}"),
                        None,
                        format!("WARC record {n}: {why}"),
                    ));
                }
            };
            let kind = header(&h, WarcHeader::WarcType).unwrap_or_default();
            if !kind.eq_ignore_ascii_case("response") {
                self.skipped.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            let id = header(&h, WarcHeader::RecordID).unwrap_or_else(|| format!("record-{n}"));
            let url = header(&h, WarcHeader::TargetURI);
            let Some((content_type, payload)) = split_http(&body) else {
                return Some(InputRecord::failed(
                    id,
                    url,
                    format!("WARC record {n}: the response block is not an HTTP response"),
                ));
            };
            let html = match &content_type {
                Some(ct) => is_html_type(ct),
                None => {
                    header(&h, WarcHeader::IdentifiedPayloadType).is_some_and(|t| is_html_type(&t))
                }
            };
            if !html {
                self.skipped.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            if payload.len() as u64 > super::MAX_RECORD_BYTES {
                return Some(InputRecord::failed(
                    id,
                    url,
                    format!(
                        "WARC record {n}: the page is larger than {} bytes",
                        super::MAX_RECORD_BYTES
                    ),
                ));
            }
            return Some(InputRecord {
                id,
                url,
                content_type,
                gold: None,
                body: Ok(payload.to_vec()),
            });
        }
    }
}

/// Writes one WARC/1.0 `response` record for an HTML page (HTTP/1.1 200, `Content-Type:
/// text/html; charset=…`), as the tests and the throughput benchmark build their inputs.
pub fn write_response(
    out: &mut impl std::io::Write,
    id: &str,
    url: &str,
    charset: &str,
    page: &[u8],
) -> std::io::Result<()> {
    let mut block = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset={charset}\r\nContent-Length: {}\r\n\r\n",
        page.len()
    )
    .into_bytes();
    block.extend_from_slice(page);
    write!(
        out,
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:cescope:{id}>\r\n\
         WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: {url}\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )?;
    out.write_all(&block)?;
    out.write_all(b"\r\n\r\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_split_and_html_types() {
        let (ct, body) =
            split_http(b"HTTP/1.1 200 OK\r\nServer: x\r\ncontent-type: text/html; charset=latin1\r\n\r\n<p>x</p>")
                .unwrap();
        assert_eq!(ct.as_deref(), Some("text/html; charset=latin1"));
        assert_eq!(body, b"<p>x</p>");
        assert!(split_http(b"GET / HTTP/1.1\r\n\r\n").is_none());
        assert!(is_html_type("Text/HTML"));
        assert!(is_html_type("application/xhtml+xml; charset=utf-8"));
        assert!(!is_html_type("image/png"));
    }
}
