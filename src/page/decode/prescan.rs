//! The HTML Standard's "prescan a byte stream to determine its encoding" (§ 13.2.3.2): step 4
//! of the detection order in [`super`].

use super::{label_warning, lookup, BadLabel};
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252, X_USER_DEFINED};

/// How many bytes at the start of the input the `<meta>` prescan looks at (HTML Standard: 1024).
pub const PRESCAN_BYTES: usize = 1024;

/// The prescan ran out of bytes: it fails (HTML Standard: the user agent stops scanning).
struct Eof;

type Scan<T> = std::result::Result<T, Eof>;

/// ASCII whitespace: tab, LF, FF, CR, space.
fn is_space(b: u8) -> bool {
    matches!(b, 0x09 | 0x0a | 0x0c | 0x0d | 0x20)
}

fn byte_at(input: &[u8], pos: usize) -> Scan<u8> {
    input.get(pos).copied().ok_or(Eof)
}

/// Prescans the first [`PRESCAN_BYTES`] bytes of `input` for an encoding declaration; pushes a
/// warning for each declaration with an unusable label (and goes on looking).
pub(super) fn prescan(input: &[u8], warnings: &mut Vec<String>) -> Option<&'static Encoding> {
    let input = &input[..input.len().min(PRESCAN_BYTES)];
    // Prescan for UTF-16 XML declarations.
    if input.starts_with(b"<\0?\0") {
        return Some(UTF_16LE);
    }
    if input.starts_with(b"\0<\0?") {
        return Some(UTF_16BE);
    }
    match prescan_loop(input, warnings) {
        Ok(Some(enc)) => Some(enc),
        Ok(None) | Err(Eof) => xml_declaration_encoding(input, warnings),
    }
}

fn prescan_loop(input: &[u8], warnings: &mut Vec<String>) -> Scan<Option<&'static Encoding>> {
    let mut pos = 0;
    while pos < input.len() {
        let rest = &input[pos..];
        if input[pos] != b'<' {
            // Any other byte: skip to the next '<'.
            match memchr::memchr(b'<', rest) {
                Some(i) => {
                    pos += i;
                    continue;
                }
                None => break,
            }
        }
        let next = rest.get(1).copied();
        if rest.starts_with(b"<!--") {
            // A comment ends at the first "-->" after "<!" (the dashes of "<!--" count).
            match memchr::memmem::find(&rest[2..], b"-->") {
                Some(i) => pos += 2 + i + 2,
                None => return Err(Eof),
            }
        } else if rest.len() >= 6
            && rest[1..5].eq_ignore_ascii_case(b"meta")
            && (is_space(rest[5]) || rest[5] == b'/')
        {
            pos += 5;
            if let Some(enc) = meta_element(input, &mut pos, warnings)? {
                return Ok(Some(enc));
            }
        } else if next.is_some_and(|b| b.is_ascii_alphabetic())
            || (next == Some(b'/') && rest.get(2).is_some_and(|b| b.is_ascii_alphabetic()))
        {
            // Any other tag: skip its name, then its attributes.
            match rest.iter().position(|&b| is_space(b) || b == b'>') {
                Some(i) => pos += i,
                None => return Err(Eof),
            }
            while get_attribute(input, &mut pos)?.is_some() {}
        } else if matches!(next, Some(b'!' | b'/' | b'?')) {
            // "<!", "</", "<?": skip to the next '>'.
            match memchr::memchr(b'>', &rest[1..]) {
                Some(i) => pos += 1 + i,
                None => return Err(Eof),
            }
        }
        // Next byte.
        pos += 1;
    }
    Ok(None)
}

/// The charset carried by a `<meta>` element's attributes, whose first byte is at `pos`.
enum Charset {
    None,
    Found(&'static Encoding),
    Bad(Vec<u8>, BadLabel),
}

/// The `<meta>` branch of the prescan: reads the attributes and applies the "processing" steps.
fn meta_element(
    input: &[u8],
    pos: &mut usize,
    warnings: &mut Vec<String>,
) -> Scan<Option<&'static Encoding>> {
    let mut names: Vec<Vec<u8>> = Vec::new();
    let mut got_pragma = false;
    let mut need_pragma: Option<bool> = None;
    let mut charset = Charset::None;
    // A `content` charset that could not be used (not part of the spec, kept for the warning).
    let mut bad_content: Option<(Vec<u8>, BadLabel)> = None;

    while let Some((name, value)) = get_attribute(input, pos)? {
        if names.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" => got_pragma |= value == b"content-type",
            b"content" => {
                if let Some(label) = extract_meta_charset(&value) {
                    match lookup(label) {
                        Ok(enc) => {
                            if matches!(charset, Charset::None) {
                                charset = Charset::Found(enc);
                                need_pragma = Some(true);
                            }
                        }
                        Err(why) => bad_content = Some((label.to_vec(), why)),
                    }
                }
            }
            b"charset" => {
                charset = match lookup(&value) {
                    Ok(enc) => Charset::Found(enc),
                    Err(why) => Charset::Bad(value, why),
                };
                need_pragma = Some(false);
            }
            _ => {}
        }
        names.push(name);
    }

    // Processing.
    let place = "<meta>";
    let Some(need_pragma) = need_pragma else {
        if let (Some((label, why)), true) = (bad_content, got_pragma) {
            warnings.push(label_warning(&label, why, place));
        }
        return Ok(None);
    };
    if need_pragma && !got_pragma {
        return Ok(None);
    }
    match charset {
        Charset::None => Ok(None),
        Charset::Bad(label, why) => {
            warnings.push(label_warning(&label, why, place));
            Ok(None)
        }
        Charset::Found(enc) if enc == UTF_16LE || enc == UTF_16BE => Ok(Some(UTF_8)),
        Charset::Found(enc) if enc == X_USER_DEFINED => Ok(Some(WINDOWS_1252)),
        Charset::Found(enc) => Ok(Some(enc)),
    }
}

/// The HTML Standard's "get an attribute": `Ok(None)` when there is no further attribute (the
/// position is at `>`). Names and values are ASCII-lowercased; bytes are kept as they are.
fn get_attribute(input: &[u8], pos: &mut usize) -> Scan<Option<(Vec<u8>, Vec<u8>)>> {
    // Skip whitespace and slashes.
    while matches!(byte_at(input, *pos)?, b if is_space(b) || b == b'/') {
        *pos += 1;
    }
    if byte_at(input, *pos)? == b'>' {
        return Ok(None);
    }
    let mut name = Vec::new();
    let mut value = Vec::new();

    // The name.
    loop {
        let b = byte_at(input, *pos)?;
        if b == b'=' && !name.is_empty() {
            *pos += 1;
            break;
        }
        if is_space(b) {
            // Spaces, then '=' or the end of a valueless attribute.
            while is_space(byte_at(input, *pos)?) {
                *pos += 1;
            }
            if byte_at(input, *pos)? != b'=' {
                return Ok(Some((name, value)));
            }
            *pos += 1;
            break;
        }
        if b == b'/' || b == b'>' {
            return Ok(Some((name, value)));
        }
        name.push(b.to_ascii_lowercase());
        *pos += 1;
    }

    // The value.
    while is_space(byte_at(input, *pos)?) {
        *pos += 1;
    }
    let b = byte_at(input, *pos)?;
    if b == b'"' || b == b'\'' {
        loop {
            *pos += 1;
            let c = byte_at(input, *pos)?;
            if c == b {
                *pos += 1;
                return Ok(Some((name, value)));
            }
            value.push(c.to_ascii_lowercase());
        }
    }
    if b == b'>' {
        return Ok(Some((name, value)));
    }
    value.push(b.to_ascii_lowercase());
    *pos += 1;
    loop {
        let b = byte_at(input, *pos)?;
        if is_space(b) || b == b'>' {
            return Ok(Some((name, value)));
        }
        value.push(b.to_ascii_lowercase());
        *pos += 1;
    }
}

/// The HTML Standard's "extract a character encoding from a meta element": the label after
/// `charset=` in a `content` value, or `None`.
fn extract_meta_charset(s: &[u8]) -> Option<&[u8]> {
    let mut pos = 0;
    loop {
        let found = s[pos..]
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        let mut p = pos + found + 7;
        while p < s.len() && is_space(s[p]) {
            p += 1;
        }
        if s.get(p) != Some(&b'=') {
            pos = p;
            continue;
        }
        p += 1;
        while p < s.len() && is_space(s[p]) {
            p += 1;
        }
        let c = *s.get(p)?;
        if c == b'"' || c == b'\'' {
            let rest = &s[p + 1..];
            // An unmatched quote gives nothing.
            return memchr::memchr(c, rest).map(|end| &rest[..end]);
        }
        let rest = &s[p..];
        let end = rest
            .iter()
            .position(|&b| is_space(b) || b == b';')
            .unwrap_or(rest.len());
        return Some(&rest[..end]);
    }
}

/// The HTML Standard's "get an XML encoding": the `encoding` of a `<?xml …?>` declaration at
/// the very start of `input` (the prescan's fallback).
fn xml_declaration_encoding(input: &[u8], warnings: &mut Vec<String>) -> Option<&'static Encoding> {
    if !input.starts_with(b"<?xml") {
        return None;
    }
    let decl = &input[..memchr::memchr(b'>', input)?];
    let mut p = memchr::memmem::find(decl, b"encoding")? + b"encoding".len();
    while decl.get(p).is_some_and(|&b| b <= 0x20) {
        p += 1;
    }
    if decl.get(p) != Some(&b'=') {
        return None;
    }
    p += 1;
    while decl.get(p).is_some_and(|&b| b <= 0x20) {
        p += 1;
    }
    let quote = *decl.get(p)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let rest = &decl[p + 1..];
    let label = &rest[..memchr::memchr(quote, rest)?];
    if label.iter().any(|&b| b <= 0x20) {
        return None;
    }
    match lookup(label) {
        Ok(enc) if enc == UTF_16LE || enc == UTF_16BE => Some(UTF_8),
        Ok(enc) => Some(enc),
        Err(why) => {
            warnings.push(label_warning(label, why, "the <?xml?> declaration"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{ISO_8859_2, SHIFT_JIS, WINDOWS_1251, WINDOWS_1256};

    fn meta(input: &[u8]) -> (Option<&'static Encoding>, Vec<String>) {
        let mut warnings = Vec::new();
        let enc = prescan(input, &mut warnings);
        (enc, warnings)
    }

    #[test]
    fn prescan_table() {
        let long_comment = format!("<!-- {} -->", "x".repeat(1100));
        let after_limit = format!("{long_comment}<meta charset=windows-1251>");
        let just_inside = format!("{}<meta charset=koi8-r>", " ".repeat(1000));
        let cases: Vec<(&str, &[u8], Option<&'static Encoding>)> =
            vec![
            ("plain charset", b"<meta charset=utf-8>", Some(UTF_8)),
            ("double quotes", b"<meta charset=\"windows-1256\">", Some(WINDOWS_1256)),
            ("single quotes", b"<meta charset='shift_jis'>", Some(SHIFT_JIS)),
            ("spaces around =", b"<meta charset = \"iso-8859-2\" >", Some(ISO_8859_2)),
            ("self closing", b"<meta charset=windows-1251/>", None),
            ("self closing spaced", b"<meta charset=windows-1251 />", Some(WINDOWS_1251)),
            ("uppercase", b"<META CHARSET=\"WINDOWS-1256\">", Some(WINDOWS_1256)),
            ("mixed case tag", b"<MeTa ChArSeT=Utf-8>", Some(UTF_8)),
            ("slash after meta", b"<meta/charset=utf-8>", Some(UTF_8)),
            (
                "http-equiv content",
                b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1256\">",
                Some(WINDOWS_1256),
            ),
            (
                "content before http-equiv",
                b"<meta content='text/html;charset=\"koi8-r\"' http-equiv=content-type>",
                Some(encoding_rs::KOI8_R),
            ),
            (
                "uppercase http-equiv",
                b"<META HTTP-EQUIV=CONTENT-TYPE CONTENT=\"TEXT/HTML; CHARSET=WINDOWS-1251\">",
                Some(WINDOWS_1251),
            ),
            (
                "content without pragma",
                b"<meta content=\"text/html; charset=windows-1256\">",
                None,
            ),
            (
                "content with unmatched quote",
                b"<meta http-equiv=content-type content='charset=\"utf-8'>",
                None,
            ),
            (
                "comment hides a meta",
                b"<!-- <meta charset=windows-1251> --><meta charset=windows-1256>",
                Some(WINDOWS_1256),
            ),
            (
                "empty comment <!-->",
                b"<!--><meta charset=windows-1256>",
                Some(WINDOWS_1256),
            ),
            (
                "meta inside attribute of other tag is skipped",
                b"<div title='<meta charset=koi8-r>'><meta charset=windows-1251>",
                Some(WINDOWS_1251),
            ),
            (
                "doctype and end tags skipped",
                b"<!DOCTYPE html></x><?php x ?><html lang=ar><meta charset=windows-1256>",
                Some(WINDOWS_1256),
            ),
            ("metadata is not meta", b"<metadata charset=koi8-r>", None),
            ("unterminated comment", b"<!-- <meta charset=koi8-r>", None),
            ("meta after 1024 bytes", after_limit.as_bytes(), None),
            ("meta within 1024 bytes", just_inside.as_bytes(), Some(encoding_rs::KOI8_R)),
            ("utf-16 label means utf-8", b"<meta charset=utf-16>", Some(UTF_8)),
            ("utf-16be label means utf-8", b"<meta charset=utf-16be>", Some(UTF_8)),
            (
                "utf-16le in content means utf-8",
                b"<meta http-equiv=content-type content='text/html; charset=utf-16le'>",
                Some(UTF_8),
            ),
            ("x-user-defined", b"<meta charset=x-user-defined>", Some(WINDOWS_1252)),
            ("latin1 alias", b"<meta charset=latin1>", Some(WINDOWS_1252)),
            (
                "first charset attribute wins",
                b"<meta charset=windows-1256 charset=koi8-r>",
                Some(WINDOWS_1256),
            ),
            (
                "xml declaration fallback",
                b"<?xml version=\"1.0\" encoding=\"windows-1251\"?><html>",
                Some(WINDOWS_1251),
            ),
            (
                "meta beats xml declaration",
                b"<?xml version=\"1.0\" encoding=\"windows-1251\"?><meta charset=koi8-r>",
                Some(encoding_rs::KOI8_R),
            ),
            ("utf-16le xml declaration", b"<\0?\0x\0m\0l\0", Some(UTF_16LE)),
            ("nothing", b"<html><head><title>x</title></head>", None),
            ("empty", b"", None),
        ];
        for (name, input, want) in cases {
            let (got, _) = meta(input);
            assert_eq!(got.map(Encoding::name), want.map(Encoding::name), "{name}");
        }
    }

    #[test]
    fn prescan_unknown_label_is_ignored_with_warning() {
        let (enc, warnings) = meta(b"<meta charset=foo><meta charset=windows-1256>");
        assert_eq!(enc, Some(WINDOWS_1256));
        assert_eq!(
            warnings,
            vec!["unknown charset label \"foo\" in <meta>; ignored".to_string()]
        );

        let (enc, warnings) =
            meta(b"<meta http-equiv=content-type content='text/html; charset=bogus'>");
        assert_eq!(enc, None);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("\"bogus\""), "{warnings:?}");

        let (enc, warnings) = meta(b"<meta charset=iso-2022-kr>");
        assert_eq!(enc, None);
        assert!(warnings[0].contains("replacement"), "{warnings:?}");
    }

    #[test]
    fn extract_meta_charset_cases() {
        let cases: &[(&[u8], Option<&[u8]>)] = &[
            (b"text/html; charset=utf-8", Some(b"utf-8")),
            (b"text/html;charset = 'koi8-r' ", Some(b"koi8-r")),
            (b"charset=\"a b\"", Some(b"a b")),
            (b"charset x; charset=big5;x", Some(b"big5")),
            (b"charset=", None),
            (b"charset=\"utf-8", None),
            (b"text/html", None),
        ];
        for (input, want) in cases {
            assert_eq!(extract_meta_charset(input), *want, "{input:?}");
        }
    }
}
