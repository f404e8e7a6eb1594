//! Input loading and character decoding of HTML pages.
//!
//! [`read_input`] turns a path (or `-` for standard input) into raw bytes, transparently
//! decompressing gzip and enforcing a size limit. [`decode`] turns raw bytes into a UTF-8
//! [`String`], choosing the character encoding in this order (the WHATWG HTML Standard's
//! "determining the character encoding" algorithm, adapted for a command-line tool that reads
//! saved pages):
//!
//! 1. **Override** — a label given by the user ([`DecodeOptions::encoding_override`]), resolved
//!    with the WHATWG Encoding Standard's "get an encoding" (`Encoding::for_label`). An unknown
//!    label is an error ([`Error::UnknownEncoding`]). (Browsers let a BOM win over a user
//!    override; a tool's explicit flag wins here. A BOM of the same encoding is still stripped.)
//! 2. **BOM** — a UTF-8, UTF-16LE or UTF-16BE byte order mark; it is stripped from the text and
//!    its length reported in [`Decoded::bom_len`].
//! 3. **Transport** — the `charset` parameter of a Content-Type value
//!    ([`DecodeOptions::content_type`]), e.g. `text/html; charset=windows-1256`.
//! 4. **Meta** — the HTML Standard's "prescan a byte stream to determine its encoding" over the
//!    first 1024 bytes: `<meta charset>` and `<meta http-equiv="content-type" content="…;
//!    charset=…">`, skipping comments and other markup, with the spec's fix-ups (a UTF-16 label
//!    means UTF-8, `x-user-defined` means windows-1252) and, as the spec's fallback, the
//!    `encoding` of a leading `<?xml …?>` declaration.
//!
//!    **The bytes overrule a contradicted `<meta>` (cescope's rule, not the HTML Standard's).**
//!    When `<meta>` (or the `<?xml?>` declaration) names an encoding other than UTF-8 but the
//!    input contains non-ASCII bytes and all of them form valid UTF-8 (or valid UTF-8 cut in
//!    the middle of its last character), the page is decoded as UTF-8 and the source is
//!    [`EncodingSource::Utf8OverMeta`], with a warning naming the label. Why: a saved page
//!    loses the HTTP header that told the browser "UTF-8" (which beats `<meta>`), so the stale
//!    `<meta>` of a page re-encoded by its server or by the saver is all that is left; and text
//!    in a legacy encoding is almost never valid UTF-8 by accident — every non-ASCII character
//!    would have to fall on UTF-8's lead/continuation byte pattern, a chance that shrinks
//!    geometrically with the number of non-ASCII characters (chardetng's README makes the same
//!    argument for legacy CJK encodings). ASCII-only input keeps the declared encoding (it
//!    decodes the same in every ASCII-compatible encoding, and ISO-2022-JP is 7-bit). The
//!    override (step 1) still wins, so `--encoding gbk` decodes such a page as GBK.
//! 5. **UTF-8** — if the whole input is valid UTF-8, it is UTF-8 (the fast path: one validation
//!    and one copy).
//! 6. **chardetng** — otherwise `chardetng` (the detector of Firefox) guesses from a bounded
//!    prefix of the bytes ([`CHARDETNG_BYTES`] bytes from the first non-ASCII byte on), with the
//!    top-level domain of [`DecodeOptions::tld`] as a hint.
//! 7. **Default** — windows-1252, the Web's default for the generic TLDs.
//!
//! Each input byte is checked for UTF-8 validity at most once by cescope (steps 4 and 5 share
//! the one check; a declared UTF-8 is validated by the decoder itself), plus chardetng's own
//! check of its bounded prefix.
//!
//! Unknown labels found in steps 3 and 4 are ignored with a message in [`Decoded::warnings`] and
//! detection continues. Labels that the Encoding Standard maps to the "replacement" encoding
//! (e.g. `iso-2022-kr`) are treated the same way: a tool gains nothing from decoding a whole page
//! to a single U+FFFD (this deviates from the HTML Standard, where such a label wins).
//!
//! Before decoding, [`sniff_binary`] rejects inputs that are clearly not text (images, archives,
//! executables, data full of control bytes) with [`Error::Binary`], unless the chosen encoding
//! is UTF-16 (whose ASCII text is half NUL bytes).
//!
//! Decoding uses `encoding_rs` and never fails: malformed byte sequences become U+FFFD and
//! [`Decoded::had_errors`] is set. NUL bytes that do not make the input look binary are kept as
//! U+0000 in the text (every encoding used here maps byte 0x00 to U+0000); they are not replaced.
//!
//! Files: this one holds the detection order and decoding; `input.rs` the reading of files and
//! standard input (gzip, size limits); `prescan.rs` the HTML Standard's `<meta>` prescan.

use crate::error::{Error, Result};
use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{Encoding, REPLACEMENT, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252};
use std::path::PathBuf;

mod input;
mod prescan;

pub use input::{read_input, read_input_limited, MAX_INPUT_BYTES, SINGLE_PASS_BYTES};
use prescan::prescan;
pub use prescan::PRESCAN_BYTES;

/// How many bytes chardetng sees (64 KiB), counted from the first non-ASCII byte of the input
/// (leading ASCII — markup, scripts — is skipped by chardetng at memchr speed anyway, and ASCII
/// byte pairs never contribute to its decision, so the budget is spent where the evidence is).
/// chardetng's documentation says a prefix may be fed (without `last`), and its README that
/// longer input makes a wrong legacy-CJK candidate ever less likely to survive: 64 KiB of
/// text from the first non-ASCII byte holds tens of thousands of non-ASCII bytes on a real
/// page, far past the point where its scores settle, while a multi-megabyte page no longer
/// costs a full second UTF-8 validation and scoring pass.
pub const CHARDETNG_BYTES: usize = 64 << 10;

/// How many bytes at the start of the input [`sniff_binary`] counts control bytes in.
pub const SNIFF_BYTES: usize = 4096;

/// The path used in [`Error::Binary`] by [`decode`], which does not know where its bytes came
/// from; callers that know the path may re-wrap the error.
pub const INPUT_PLACEHOLDER: &str = "<input>";

/// Which step of the detection order (see the module documentation) chose the encoding.
///
/// Serialized in lowercase (`"override"`, `"bom"`, `"transport"`, `"meta"`,
/// `"utf8-over-meta"`, `"utf8"`, `"chardetng"`, `"default"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EncodingSource {
    /// The user named the encoding ([`DecodeOptions::encoding_override`]).
    Override,
    /// A byte order mark at the start of the input.
    Bom,
    /// The `charset` parameter of the Content-Type ([`DecodeOptions::content_type`]).
    Transport,
    /// The `<meta>` prescan of the first 1024 bytes (or a leading `<?xml encoding=…?>`
    /// declaration, the prescan's fallback).
    Meta,
    /// `<meta>` (or `<?xml?>`) named another encoding, but the input's non-ASCII bytes are all
    /// valid UTF-8, so it was decoded as UTF-8 (the rule under step 4 of the module
    /// documentation); [`Decoded::warnings`] names the overruled label.
    #[serde(rename = "utf8-over-meta")]
    Utf8OverMeta,
    /// Nothing was declared and the whole input is valid UTF-8 (or valid UTF-8 cut in the middle
    /// of its last character).
    Utf8,
    /// Nothing was declared, the input is not UTF-8, and `chardetng` guessed.
    Chardetng,
    /// The windows-1252 fallback. `chardetng` always guesses on non-ASCII input, and non-UTF-8
    /// input always contains non-ASCII, so in practice this is not reached; it is kept for
    /// completeness of the algorithm.
    Default,
}

impl EncodingSource {
    /// A short note for displays that show only the encoding's name (the inspector's status
    /// bar): `" (bytes over <meta>)"` for [`EncodingSource::Utf8OverMeta`], else empty.
    pub fn display_note(self) -> &'static str {
        match self {
            EncodingSource::Utf8OverMeta => " (bytes over <meta>)",
            _ => "",
        }
    }
}

/// What the caller knows about the input besides its bytes, and how to read it. All fields are
/// optional; the default is "nothing known", scripting off.
#[derive(Debug, Clone, Default)]
pub struct DecodeOptions {
    /// A WHATWG encoding label chosen by the user (e.g. `"windows-1256"`, `"latin1"`,
    /// `"shift_jis"`); case-insensitive, surrounding whitespace ignored. Wins over everything
    /// else. An unknown label makes [`decode`] fail with [`Error::UnknownEncoding`].
    pub encoding_override: Option<String>,
    /// A Content-Type value from the transport layer, e.g. `"text/html; charset=utf-8"`. Only
    /// its `charset` parameter is used (quoted or not); an unknown charset is ignored with a
    /// warning.
    pub content_type: Option<String>,
    /// The host the page came from, or just its top-level domain (`"jp"`, `"example.co.jp"`);
    /// its rightmost label is a hint for `chardetng`. Non-ASCII (non-Punycode) values are
    /// ignored.
    pub tld: Option<String>,
    /// Not about decoding but about how the decoded page is read: the HTML scripting flag its
    /// lexer and DOM use ([`crate::page::DomOptions::scripting_enabled`],
    /// [`crate::page::lex::LexOptions::scripting`]). `false` (the default): `<noscript>`
    /// content is markup and text, as a crawler or a reader without JavaScript sees it; `true`:
    /// it is raw text nobody sees, as in a browser with JavaScript (`--scripting` on the
    /// command line).
    pub scripting: bool,
}

/// The result of [`decode`].
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The decoded text, without the byte order mark. Malformed input bytes are replaced with
    /// U+FFFD; NUL bytes are kept as U+0000.
    pub text: String,
    /// The encoding the input was decoded from.
    pub encoding: &'static encoding_rs::Encoding,
    /// Which detection step chose [`Decoded::encoding`].
    pub source: EncodingSource,
    /// Whether some input bytes were malformed in that encoding and replaced with U+FFFD.
    pub had_errors: bool,
    /// Length in bytes of the byte order mark that was stripped from the start of the input
    /// (0, 2 or 3). Byte offset `i` of the text after the BOM is byte `i + bom_len` of the
    /// input only for UTF-8; other encodings change lengths.
    pub bom_len: usize,
    /// Human-readable notes on anything doubtful met on the way (ignored labels, malformed
    /// input, a BOM contradicting the override), one line each, in the order met.
    pub warnings: Vec<String>,
}

/// Decodes the raw bytes of an HTML page into UTF-8 text.
///
/// The encoding is chosen in the order described in the module documentation (override, BOM,
/// transport, `<meta>` prescan, valid UTF-8, chardetng, windows-1252), following the WHATWG
/// HTML Standard's encoding sniffing and prescan algorithms and the WHATWG Encoding Standard's
/// labels. For valid UTF-8 input without a declaration the cost is one UTF-8 validation plus
/// one copy (plus a scan of at most 4096 bytes for binary data and 1024 for `<meta>`).
///
/// Empty input is not an error: it gives an empty text (UTF-8, source `utf8`, unless an override
/// or Content-Type names an encoding).
///
/// # Errors
///
/// - [`Error::UnknownEncoding`] if [`DecodeOptions::encoding_override`] is not a WHATWG label
///   (labels of the "replacement" encoding, such as `iso-2022-kr`, count as unknown).
/// - [`Error::Binary`] with the path `<input>` ([`INPUT_PLACEHOLDER`]) if [`sniff_binary`] says
///   the bytes (after a BOM) are not text, unless the chosen encoding is UTF-16.
///
/// Malformed bytes are never an error: they become U+FFFD, and [`Decoded::had_errors`] is set
/// with a warning.
pub fn decode(bytes: &[u8], opts: &DecodeOptions) -> Result<Decoded> {
    let mut warnings = Vec::new();
    let bom = Encoding::for_bom(bytes);
    let mut bom_len = 0;
    let mut chosen: Option<(&'static Encoding, EncodingSource)> = None;

    // 1. User override.
    if let Some(label) = opts.encoding_override.as_deref() {
        let enc = Encoding::for_label_no_replacement(label.as_bytes())
            .ok_or_else(|| Error::UnknownEncoding(label.to_string()))?;
        if let Some((bom_enc, len)) = bom {
            if bom_enc == enc {
                bom_len = len;
            } else {
                warnings.push(format!(
                    "the input starts with a {} byte order mark but the encoding {} was \
                     requested; following the request",
                    bom_enc.name(),
                    enc.name()
                ));
            }
        }
        chosen = Some((enc, EncodingSource::Override));
    } else if let Some((enc, len)) = bom {
        // 2. Byte order mark.
        bom_len = len;
        chosen = Some((enc, EncodingSource::Bom));
    }
    let body = &bytes[bom_len..];

    // 3. Transport layer.
    if chosen.is_none() {
        if let Some(ct) = opts.content_type.as_deref() {
            if let Some(enc) = transport_encoding(ct, &mut warnings) {
                chosen = Some((enc, EncodingSource::Transport));
            }
        }
    }

    // 4. <meta> prescan.
    if chosen.is_none() {
        if let Some(enc) = prescan(body, &mut warnings) {
            chosen = Some((enc, EncodingSource::Meta));
        }
    }

    // Binary data, unless the text is UTF-16 (ASCII in UTF-16 is half NUL bytes).
    let utf16 = matches!(chosen, Some((enc, _)) if enc == UTF_16LE || enc == UTF_16BE);
    if !utf16 {
        if let Some(kind) = sniff_binary(body) {
            return Err(Error::Binary {
                path: PathBuf::from(INPUT_PLACEHOLDER),
                kind: kind.to_string(),
            });
        }
    }

    let (encoding, source) = match chosen {
        // 4b. A <meta> label contradicted by valid UTF-8 (see the module documentation). The
        // ASCII scan stops at the first non-ASCII byte; the UTF-8 check is the only one.
        Some((declared, EncodingSource::Meta))
            if declared != UTF_8
                && declared != UTF_16LE
                && declared != UTF_16BE
                && !body.is_ascii() =>
        {
            let overruled = |warnings: &mut Vec<String>| {
                warnings.push(format!(
                    "<meta> declares {} but the bytes are valid UTF-8 with non-ASCII \
                     characters; decoded as UTF-8 (use --encoding {} to follow the label)",
                    declared.name(),
                    declared.name().to_ascii_lowercase()
                ))
            };
            match std::str::from_utf8(body) {
                Ok(text) => {
                    overruled(&mut warnings);
                    return Ok(Decoded {
                        text: text.to_owned(),
                        encoding: UTF_8,
                        source: EncodingSource::Utf8OverMeta,
                        had_errors: false,
                        bom_len,
                        warnings,
                    });
                }
                Err(e) if is_truncated_utf8(body, &e) => {
                    overruled(&mut warnings);
                    (UTF_8, EncodingSource::Utf8OverMeta)
                }
                Err(_) => (declared, EncodingSource::Meta),
            }
        }
        Some(found) => found,
        // 5. Valid UTF-8: the fast path.
        None => match std::str::from_utf8(body) {
            Ok(text) => {
                return Ok(Decoded {
                    text: text.to_owned(),
                    encoding: UTF_8,
                    source: EncodingSource::Utf8,
                    had_errors: false,
                    bom_len,
                    warnings,
                });
            }
            Err(e) if is_truncated_utf8(body, &e) => {
                warnings.push(
                    "the input is UTF-8 cut in the middle of its last character; the partial \
                     character was replaced with U+FFFD"
                        .to_string(),
                );
                (UTF_8, EncodingSource::Utf8)
            }
            // 6./7. chardetng, windows-1252.
            Err(_) => guess(body, opts.tld.as_deref()),
        },
    };

    let (text, had_errors) = encoding.decode_without_bom_handling(body);
    let text = text.into_owned();
    if had_errors {
        warnings.push(format!(
            "the input is not valid {} (chosen by {}); malformed byte sequences were replaced \
             with U+FFFD",
            encoding.name(),
            source_description(source)
        ));
    }
    Ok(Decoded {
        text,
        encoding,
        source,
        had_errors,
        bom_len,
        warnings,
    })
}

/// Says whether `bytes` are clearly not text, and what they look like (e.g. `"a PNG image"`),
/// for [`Error::Binary`]'s `kind`.
///
/// Recognised by magic number at offset 0: PNG, GIF, JPEG, WebP and other RIFF files (WAV,
/// AVI), PDF, ZIP (including Office documents, EPUB, JAR), gzip (input that was not
/// decompressed), XZ, Zstandard, 7-Zip, ELF and WebAssembly. Otherwise, among the first 4096
/// bytes ([`SNIFF_BYTES`]), C0 control bytes other than tab, line feed, form feed and carriage
/// return (NUL included) are counted: at least 4 of them and more than 10% of those bytes means
/// binary data (reported as UTF-16 text without a byte order mark when the NUL bytes sit at every
/// other position). So an HTML page with a handful of stray NUL bytes is still text.
///
/// Returns `None` for text and for empty input. The input is expected without its BOM.
pub fn sniff_binary(bytes: &[u8]) -> Option<&'static str> {
    const MAGIC: &[(&[u8], &str)] = &[
        (b"\x89PNG\r\n\x1a\n", "a PNG image"),
        (b"GIF87a", "a GIF image"),
        (b"GIF89a", "a GIF image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"%PDF-", "a PDF document"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"PK\x05\x06", "a ZIP archive"),
        (b"PK\x07\x08", "a ZIP archive"),
        (
            b"\x1f\x8b",
            "gzip-compressed data that was not decompressed",
        ),
        (b"\xfd7zXZ\x00", "an XZ archive"),
        (b"\x28\xb5\x2f\xfd", "Zstandard-compressed data"),
        (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
        (b"\x7fELF", "an ELF executable"),
        (b"\0asm", "a WebAssembly module"),
    ];
    if let Some(&(_, kind)) = MAGIC.iter().find(|(magic, _)| bytes.starts_with(magic)) {
        return Some(kind);
    }
    if bytes.len() >= 12 && bytes.starts_with(b"RIFF") {
        return Some(if &bytes[8..12] == b"WEBP" {
            "a WebP image"
        } else {
            "a RIFF media file (WAV, AVI)"
        });
    }

    let sample = &bytes[..bytes.len().min(SNIFF_BYTES)];
    let mut controls = 0usize;
    let mut nul_at = [0usize; 2]; // NUL bytes at even / odd offsets
    for (i, &b) in sample.iter().enumerate() {
        if b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0c | b'\r') {
            controls += 1;
            if b == 0 {
                nul_at[i & 1] += 1;
            }
        }
    }
    if controls < 4 || controls * 10 <= sample.len() {
        return None;
    }
    let pairs = sample.len() / 2;
    if pairs >= 8 {
        let mostly = |n: usize| n * 10 >= pairs * 8;
        let rarely = |n: usize| n * 10 <= pairs;
        if mostly(nul_at[1]) && rarely(nul_at[0]) {
            return Some("UTF-16LE text without a byte order mark (name the encoding explicitly)");
        }
        if mostly(nul_at[0]) && rarely(nul_at[1]) {
            return Some("UTF-16BE text without a byte order mark (name the encoding explicitly)");
        }
    }
    Some("binary data (too many NUL or control bytes)")
}

fn source_description(source: EncodingSource) -> &'static str {
    match source {
        EncodingSource::Override => "the override",
        EncodingSource::Bom => "the byte order mark",
        EncodingSource::Transport => "the Content-Type",
        EncodingSource::Meta => "<meta>",
        EncodingSource::Utf8OverMeta => "UTF-8 validation over <meta>",
        EncodingSource::Utf8 => "UTF-8 validation",
        EncodingSource::Chardetng => "chardetng",
        EncodingSource::Default => "the default",
    }
}

/// True if `bytes` is valid UTF-8, containing some non-ASCII, except for an incomplete
/// character at its very end (a file cut mid-character).
fn is_truncated_utf8(bytes: &[u8], e: &std::str::Utf8Error) -> bool {
    e.error_len().is_none()
        && bytes.len() - e.valid_up_to() < 4
        && !bytes[..e.valid_up_to()].is_ascii()
}

/// Steps 6 and 7: chardetng on a bounded prefix of `bytes` ([`CHARDETNG_BYTES`] from the first
/// non-ASCII byte), then windows-1252 if only ASCII was seen. The prefix is fed without `last`
/// when the input goes on (chardetng's documented way to detect on a prefix). Its UTF-8
/// candidate stays allowed: the caller already knows the whole input is not valid UTF-8, so
/// chardetng answers UTF-8 only when the prefix is valid UTF-8 with non-ASCII and the invalid
/// bytes come later — a UTF-8 page with stray bytes, best decoded as UTF-8 with U+FFFD.
fn guess(bytes: &[u8], tld: Option<&str>) -> (&'static Encoding, EncodingSource) {
    let start = Encoding::ascii_valid_up_to(bytes);
    let end = start.saturating_add(CHARDETNG_BYTES).min(bytes.len());
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    if !detector.feed(&bytes[..end], end == bytes.len()) {
        return (WINDOWS_1252, EncodingSource::Default);
    }
    let tld = tld.and_then(tld_label);
    let enc = detector.guess(tld.as_deref(), Utf8Detection::Allow);
    (enc, EncodingSource::Chardetng)
}

/// The rightmost DNS label of `host`, lowercased, as chardetng wants it (it panics on periods,
/// upper case and non-ASCII); `None` if there is no usable label.
fn tld_label(host: &str) -> Option<Vec<u8>> {
    let host = host.trim().trim_end_matches('.');
    let label = host.rsplit('.').next()?;
    if label.is_empty() || !label.is_ascii() {
        return None;
    }
    Some(label.to_ascii_lowercase().into_bytes())
}

/// Why a label found in the document or the transport was not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BadLabel {
    Unknown,
    Replacement,
}

/// The Encoding Standard's "get an encoding", with labels of the replacement encoding refused.
fn lookup(label: &[u8]) -> std::result::Result<&'static Encoding, BadLabel> {
    match Encoding::for_label(label) {
        Some(enc) if enc == REPLACEMENT => Err(BadLabel::Replacement),
        Some(enc) => Ok(enc),
        None => Err(BadLabel::Unknown),
    }
}

fn label_warning(label: &[u8], why: BadLabel, place: &str) -> String {
    let shown = String::from_utf8_lossy(label.trim_ascii());
    let shown: String = shown.chars().take(64).collect();
    match why {
        BadLabel::Unknown => format!("unknown charset label {shown:?} in {place}; ignored"),
        BadLabel::Replacement => format!(
            "charset label {shown:?} in {place} names an encoding that is not supported (the \
             Encoding Standard maps it to \"replacement\"); ignored"
        ),
    }
}

/// Step 3: the `charset` parameter of a Content-Type value (the first one wins).
fn transport_encoding(content_type: &str, warnings: &mut Vec<String>) -> Option<&'static Encoding> {
    let value = content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim();
        Some(match value.strip_prefix('"') {
            Some(quoted) => quoted.split('"').next().unwrap_or(""),
            None => value,
        })
    })?;
    match lookup(value.as_bytes()) {
        Ok(enc) => Some(enc),
        Err(why) => {
            warnings.push(label_warning(value.as_bytes(), why, "the Content-Type"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{GBK, WINDOWS_1251, WINDOWS_1256};

    fn dec(bytes: &[u8]) -> Decoded {
        decode(bytes, &DecodeOptions::default()).expect("decodes")
    }

    #[test]
    fn valid_utf8_fast_path() {
        let d = dec("<p>héllo — 世界</p>".as_bytes());
        assert_eq!(d.text, "<p>héllo — 世界</p>");
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(d.source, EncodingSource::Utf8);
        assert!(!d.had_errors);
        assert_eq!(d.bom_len, 0);
        assert!(d.warnings.is_empty());
    }

    #[test]
    fn bom_utf8_and_utf16le() {
        let d = dec(b"\xef\xbb\xbf<p>caf\xc3\xa9</p>");
        assert_eq!(d.text, "<p>café</p>");
        assert_eq!(
            (d.encoding, d.source, d.bom_len),
            (UTF_8, EncodingSource::Bom, 3)
        );

        let mut bytes = vec![0xff, 0xfe];
        for unit in "<p>مرحبا</p>".encode_utf16() {
            bytes.extend_from_slice(&unit.to_le_bytes());
        }
        let d = dec(&bytes);
        assert_eq!(d.text, "<p>مرحبا</p>");
        assert_eq!(
            (d.encoding, d.source, d.bom_len),
            (UTF_16LE, EncodingSource::Bom, 2)
        );
        assert!(!d.had_errors);
    }

    #[test]
    fn bom_beats_meta() {
        let d = dec(b"\xef\xbb\xbf<meta charset=windows-1256><p>x</p>");
        assert_eq!((d.encoding, d.source), (UTF_8, EncodingSource::Bom));
    }

    #[test]
    fn windows_1256_declared_by_meta() {
        let arabic = "مرحبا بالعالم، هذه صفحة عربية";
        let (body, _, unmappable) = WINDOWS_1256.encode(arabic);
        assert!(!unmappable);
        let mut bytes = b"<html><head><meta charset=\"windows-1256\"></head><body><p>".to_vec();
        bytes.extend_from_slice(&body);
        bytes.extend_from_slice(b"</p></body></html>");
        let d = dec(&bytes);
        assert_eq!(d.encoding, WINDOWS_1256);
        assert_eq!(d.source, EncodingSource::Meta);
        assert!(!d.had_errors);
        assert!(d.text.contains(arabic), "{}", d.text);
    }

    #[test]
    fn transport_hint() {
        let arabic = "نص عربي";
        let (body, _, _) = WINDOWS_1256.encode(arabic);
        let opts = DecodeOptions {
            content_type: Some("text/html; charset=\"Windows-1256\"".into()),
            ..Default::default()
        };
        let d = decode(&body, &opts).unwrap();
        assert_eq!(
            (d.encoding, d.source),
            (WINDOWS_1256, EncodingSource::Transport)
        );
        assert_eq!(d.text, arabic);

        // Transport beats <meta>.
        let d = decode(b"<meta charset=koi8-r>", &opts).unwrap();
        assert_eq!(d.source, EncodingSource::Transport);

        // An unknown transport charset is ignored with a warning.
        let opts = DecodeOptions {
            content_type: Some("text/html; charset=nope".into()),
            ..Default::default()
        };
        let d = decode(b"<meta charset=koi8-r>", &opts).unwrap();
        assert_eq!(
            (d.encoding, d.source),
            (encoding_rs::KOI8_R, EncodingSource::Meta)
        );
        assert_eq!(d.warnings.len(), 1);

        // No charset parameter: nothing from the transport.
        let opts = DecodeOptions {
            content_type: Some("text/html".into()),
            ..Default::default()
        };
        assert_eq!(decode(b"abc", &opts).unwrap().source, EncodingSource::Utf8);
    }

    #[test]
    fn latin1_without_declaration_goes_to_chardetng() {
        let text = "<html><body><p>Le café est très bon. Où est la bibliothèque ? \
                    Nous étions déjà à l'école élémentaire, près de la forêt.</p></body></html>";
        let (bytes, _, _) = WINDOWS_1252.encode(text);
        assert!(std::str::from_utf8(&bytes).is_err());
        let d = dec(&bytes);
        assert_eq!(d.source, EncodingSource::Chardetng);
        assert!(
            ["windows-1252", "ISO-8859-15", "ISO-8859-2", "windows-1250"]
                .contains(&d.encoding.name()),
            "{}",
            d.encoding.name()
        );
        assert!(d.text.contains("café"), "{}", d.text);
        assert!(!d.had_errors);
    }

    #[test]
    fn chardetng_uses_the_tld() {
        let (bytes, _, _) =
            WINDOWS_1251.encode("<p>Привет, мир! Это страница на русском языке.</p>");
        let opts = DecodeOptions {
            tld: Some("Example.RU.".into()),
            ..Default::default()
        };
        let d = decode(&bytes, &opts).unwrap();
        assert_eq!(
            (d.encoding, d.source),
            (WINDOWS_1251, EncodingSource::Chardetng)
        );
        assert_eq!(tld_label("www.example.co.jp"), Some(b"jp".to_vec()));
        assert_eq!(tld_label("例え.テスト"), None);
        assert_eq!(tld_label(""), None);
    }

    #[test]
    fn invalid_utf8_under_utf8_meta() {
        let d = dec(b"<meta charset=utf-8><p>caf\xe9 ok</p>");
        assert_eq!((d.encoding, d.source), (UTF_8, EncodingSource::Meta));
        assert!(d.had_errors);
        assert_eq!(d.text, "<meta charset=utf-8><p>caf\u{fffd} ok</p>");
        assert_eq!(d.warnings.len(), 1);
        assert!(d.warnings[0].contains("UTF-8"), "{:?}", d.warnings);
    }

    #[test]
    fn utf8_truncated_mid_character() {
        let d = dec(b"<p>caf\xc3\xa9 \xe4\xb8");
        assert_eq!((d.encoding, d.source), (UTF_8, EncodingSource::Utf8));
        assert!(d.had_errors);
        assert_eq!(d.text, "<p>café \u{fffd}");
        // Without earlier UTF-8 evidence, a final high byte is not taken for truncated UTF-8.
        let d = dec(b"<p>caf\xe9");
        assert_eq!(d.source, EncodingSource::Chardetng);
        assert!(d.text.ends_with('é'));
    }

    #[test]
    fn override_label() {
        let (bytes, _, _) = WINDOWS_1256.encode("<meta charset=utf-8>سلام");
        let opts = DecodeOptions {
            encoding_override: Some(" CP1256 ".into()),
            ..Default::default()
        };
        let d = decode(&bytes, &opts).unwrap();
        assert_eq!(
            (d.encoding, d.source),
            (WINDOWS_1256, EncodingSource::Override)
        );
        assert_eq!(d.text, "<meta charset=utf-8>سلام");

        // Same-encoding BOM is stripped; a different one is kept, with a warning.
        let opts = DecodeOptions {
            encoding_override: Some("utf-8".into()),
            ..Default::default()
        };
        let d = decode(b"\xef\xbb\xbfx", &opts).unwrap();
        assert_eq!((d.text.as_str(), d.bom_len), ("x", 3));
        let d = decode(b"\xff\xfex\0", &opts).unwrap();
        assert_eq!(d.bom_len, 0);
        assert_eq!(d.warnings.len(), 2, "{:?}", d.warnings); // BOM conflict + malformed

        for bad in ["no-such-encoding", "iso-2022-kr", ""] {
            let opts = DecodeOptions {
                encoding_override: Some(bad.into()),
                ..Default::default()
            };
            match decode(b"abc", &opts) {
                Err(Error::UnknownEncoding(label)) => assert_eq!(label, bad),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn binary_inputs() {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01";
        assert_eq!(sniff_binary(png), Some("a PNG image"));
        match decode(png, &DecodeOptions::default()) {
            Err(Error::Binary { path, kind }) => {
                assert_eq!(path, PathBuf::from(INPUT_PLACEHOLDER));
                assert_eq!(kind, "a PNG image");
            }
            other => panic!("{other:?}"),
        }
        // Even with an override.
        let opts = DecodeOptions {
            encoding_override: Some("utf-8".into()),
            ..Default::default()
        };
        assert!(matches!(decode(png, &opts), Err(Error::Binary { .. })));

        let cases: &[(&[u8], &str)] = &[
            (b"GIF89a\x01\0", "a GIF image"),
            (b"\xff\xd8\xff\xe0\0\x10JFIF", "a JPEG image"),
            (b"%PDF-1.7\n", "a PDF document"),
            (b"PK\x03\x04\x14\0", "a ZIP archive"),
            (
                b"\x1f\x8b\x08\0",
                "gzip-compressed data that was not decompressed",
            ),
            (b"\x7fELF\x02\x01\x01", "an ELF executable"),
            (b"RIFF\x24\0\0\0WEBPVP8 ", "a WebP image"),
            (b"RIFF\x24\0\0\0WAVEfmt ", "a RIFF media file (WAV, AVI)"),
        ];
        for (bytes, kind) in cases {
            assert_eq!(sniff_binary(bytes), Some(*kind));
        }
        let noise: Vec<u8> = (0..2000u32).map(|i| (i * 7 % 32) as u8).collect();
        assert_eq!(
            sniff_binary(&noise),
            Some("binary data (too many NUL or control bytes)")
        );
        let utf16: Vec<u8> = "<html><body>hello world</body></html>"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert!(sniff_binary(&utf16).unwrap().starts_with("UTF-16LE"));
        // ... but decodes when the encoding is given.
        let opts = DecodeOptions {
            encoding_override: Some("utf-16le".into()),
            ..Default::default()
        };
        assert_eq!(
            decode(&utf16, &opts).unwrap().text,
            "<html><body>hello world</body></html>"
        );
    }

    #[test]
    fn page_with_a_few_nul_bytes_decodes() {
        let mut page = b"<html><body><p>Some text here.</p>".to_vec();
        page.extend_from_slice(b"\0\0\0<p>more\0text</p>\x01</body></html>");
        assert_eq!(sniff_binary(&page), None);
        let d = dec(&page);
        assert_eq!(d.source, EncodingSource::Utf8);
        assert!(d.text.contains("more\0text"));
        assert_eq!(sniff_binary(b"a\0b"), None);
    }

    #[test]
    fn empty_input() {
        let d = dec(b"");
        assert_eq!(d.text, "");
        assert_eq!((d.encoding, d.source), (UTF_8, EncodingSource::Utf8));
        assert!(!d.had_errors && d.warnings.is_empty());
        assert_eq!(sniff_binary(b""), None);
    }

    /// A saved page whose `<meta>` says GBK but whose bytes are UTF-8 (hand-made, CJK text).
    fn gbk_labelled_utf8_page() -> Vec<u8> {
        "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=gbk\">\
         <title>新闻</title></head><body><p>今天上午，市政府宣布新的公交线路将于下月开通。\
         </p></body></html>"
            .as_bytes()
            .to_vec()
    }

    #[test]
    fn utf8_bytes_overrule_a_contradicting_meta() {
        let bytes = gbk_labelled_utf8_page();
        let d = dec(&bytes);
        assert_eq!(
            (d.encoding, d.source),
            (UTF_8, EncodingSource::Utf8OverMeta)
        );
        assert!(d.text.contains("市政府宣布"), "{}", d.text);
        assert!(!d.had_errors);
        assert_eq!(d.warnings.len(), 1, "{:?}", d.warnings);
        assert!(d.warnings[0].contains("GBK"), "{:?}", d.warnings);

        // The override still wins: as GBK the same bytes are mojibake.
        let opts = DecodeOptions {
            encoding_override: Some("gbk".into()),
            ..Default::default()
        };
        let d = decode(&bytes, &opts).unwrap();
        assert_eq!((d.encoding, d.source), (GBK, EncodingSource::Override));
        assert!(!d.text.contains("市政府宣布"));

        // Truncated mid-character: still UTF-8, the partial character replaced.
        let d = dec(&bytes[..bytes.len() - "。</p></body></html>".len() + 1]);
        assert_eq!(d.source, EncodingSource::Utf8OverMeta);
        assert!(d.had_errors && d.text.ends_with('\u{fffd}'), "{}", d.text);

        // The Content-Type (transport) is not overruled.
        let opts = DecodeOptions {
            content_type: Some("text/html; charset=gbk".into()),
            ..Default::default()
        };
        assert_eq!(
            decode(&bytes, &opts).unwrap().source,
            EncodingSource::Transport
        );
    }

    #[test]
    fn a_meta_label_stands_when_the_bytes_do_not_contradict_it() {
        // Real GBK bytes are not valid UTF-8: the label is followed.
        let (gbk, _, _) = GBK.encode("<meta charset=gbk><p>今天上午，市政府宣布新的公交线路。</p>");
        let d = dec(&gbk);
        assert_eq!((d.encoding, d.source), (GBK, EncodingSource::Meta));
        assert!(d.text.contains("市政府宣布"));
        // ASCII only: the label is kept (it decodes the same).
        let d = dec(b"<meta charset=windows-1251><p>plain</p>");
        assert_eq!((d.encoding, d.source), (WINDOWS_1251, EncodingSource::Meta));
        assert!(d.warnings.is_empty());
        // A UTF-8 label is not "contradicted".
        let d = dec("<meta charset=utf-8><p>é</p>".as_bytes());
        assert_eq!(d.source, EncodingSource::Meta);
    }

    #[test]
    fn chardetng_sees_a_bounded_prefix() {
        // windows-1251 text early, then far past the budget a byte pattern that only UTF-8
        // explains: the guess comes from the prefix.
        let (early, _, _) =
            WINDOWS_1251.encode("<p>Привет, мир! Это страница на русском языке.</p>");
        let mut bytes = early.into_owned();
        bytes.resize(bytes.len() + CHARDETNG_BYTES + 10, b' ');
        let opts = DecodeOptions {
            tld: Some("ru".into()),
            ..Default::default()
        };
        let d = decode(&bytes, &opts).unwrap();
        assert_eq!(
            (d.encoding, d.source),
            (WINDOWS_1251, EncodingSource::Chardetng)
        );
        // Leading ASCII does not use up the budget.
        let mut late = vec![b' '; 3 * CHARDETNG_BYTES];
        late.extend_from_slice(&bytes);
        assert_eq!(decode(&late, &opts).unwrap().encoding, WINDOWS_1251);
        // A UTF-8 prefix with a stray byte past the budget is taken for UTF-8.
        let mut mostly = "<p>Привет, мир!</p>".as_bytes().to_vec();
        mostly.resize(mostly.len() + CHARDETNG_BYTES, b' ');
        mostly.push(0xff);
        let d = dec(&mostly);
        assert_eq!((d.encoding, d.source), (UTF_8, EncodingSource::Chardetng));
        assert!(d.had_errors);
    }

    #[test]
    fn encoding_source_serializes_lowercase() {
        let json = serde_json::to_string(&[
            EncodingSource::Chardetng,
            EncodingSource::Utf8,
            EncodingSource::Utf8OverMeta,
        ])
        .unwrap();
        assert_eq!(json, r#"["chardetng","utf8","utf8-over-meta"]"#);
    }
}
