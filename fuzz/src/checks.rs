//! The invariant checks of cescope's five fuzz targets, one function per target.
//!
//! Each `check_*` function takes arbitrary bytes, drives one part of the library with them and
//! **panics** (`assert!`) when an invariant breaks — which is what a fuzzer reports as a crash.
//! The same functions are used by
//!
//! - the coverage-guided AFL++ harnesses in `fuzz/src/bin/*.rs` (`cargo afl fuzz …`, see
//!   `fuzz/README.md`), and
//! - the short proptest run in `tests/fuzz_targets.rs` (part of `cargo test`), which includes
//!   this file with `#[path]`, so CI exercises every target on stable Rust.
//!
//! Only the public API of `cescope` is used; nothing here is library code.

#![allow(dead_code)] // each harness uses one check

use std::path::Path;

use cescope::extractors::registry;

use cescope::extract::{ParamKind, ParamSpec, ParamValue, Params};
use cescope::gold;
use cescope::page::decode::{decode, DecodeOptions};
use cescope::page::lex::{lex, ByteClass, Lexed};
use cescope::page::lines::{is_removed, kept_chars};
use cescope::page::{EncodingSource, Page};
use cescope::selection::Selection;
use cescope::tui::keymap::{Action, KeySpec, Keymap};

/// Encoding labels the decode target picks from (valid, odd-cased, and unknown ones).
const LABELS: &[&str] = &[
    "utf-8",
    "windows-1252",
    "latin1",
    "windows-1256",
    "ISO-8859-6",
    "shift_jis",
    "gbk",
    "gb18030",
    "big5",
    "euc-kr",
    "utf-16le",
    "UTF-16BE",
    " koi8-r ",
    "iso-2022-jp",
    "iso-2022-kr",
    "x-user-defined",
    "no-such-encoding",
    "",
];

/// Splits the first byte off `data` as a selector (0 for empty input).
fn selector(data: &[u8]) -> (u8, &[u8]) {
    match data.split_first() {
        Some((&b, rest)) => (b, rest),
        None => (0, data),
    }
}

/// Decode options chosen by the selector byte `s`: none, an override, a transport charset, a TLD.
fn decode_options(s: u8) -> DecodeOptions {
    let label = LABELS[(s as usize >> 2) % LABELS.len()];
    let mut o = DecodeOptions::default();
    match s & 3 {
        0 => {}
        1 => o.encoding_override = Some(label.to_string()),
        2 => o.content_type = Some(format!("text/html; charset=\"{label}\"")),
        _ => o.tld = Some(["jp", "cn", "ru", "ir", "example.co.kr", "é"][s as usize % 6].into()),
    }
    o
}

/// Lexer invariants: spans are non-empty, contiguous, cover `0..text.len()`, sit on char
/// boundaries; tag-like spans start with `<` (CDATA spans are a section's delimiters); text runs
/// are merged; lookups agree with the spans.
pub fn assert_lexed(text: &str, lx: &Lexed) {
    let mut at = 0usize;
    let mut prev: Option<ByteClass> = None;
    for (i, s) in lx.spans.iter().enumerate() {
        let r = s.range();
        assert_eq!(
            r.start,
            at,
            "span {i} does not start where span {} ends",
            i.max(1) - 1
        );
        assert!(r.start < r.end, "span {i} is empty: {r:?}");
        assert!(r.end <= text.len(), "span {i} ends past the text: {r:?}");
        assert!(
            text.is_char_boundary(r.start) && text.is_char_boundary(r.end),
            "span {i} {r:?} is not on char boundaries"
        );
        let body = &text.as_bytes()[r.clone()];
        match s.class {
            ByteClass::Tag | ByteClass::Comment | ByteClass::Declaration => {
                assert_eq!(
                    body[0], b'<',
                    "{:?} span {i} {r:?} does not start with '<'",
                    s.class
                )
            }
            ByteClass::Text => {
                assert_ne!(
                    prev,
                    Some(ByteClass::Text),
                    "adjacent text spans {i} not merged"
                )
            }
            ByteClass::Script | ByteClass::Style | ByteClass::Cdata => {}
        }
        if s.class == ByteClass::Cdata {
            // A CDATA section's delimiters, apart from its content.
            assert!(
                body == b"<![CDATA[" || body == b"]]>",
                "CDATA span {i} {r:?}"
            );
        }
        assert_eq!(lx.span_index_at(r.start), Some(i));
        assert_eq!(lx.span_index_at(r.end - 1), Some(i));
        assert_eq!(lx.class_at(r.start), Some(s.class));
        prev = Some(s.class);
        at = r.end;
    }
    assert_eq!(at, text.len(), "spans do not cover the text");
    assert_eq!(lx.span_index_at(text.len()), None);
    let totals = lx.class_totals();
    assert_eq!(totals.iter().sum::<usize>(), text.len());
}

/// Virtual-line invariants (see `cescope::page::lines`): lines tile the text in order, on char
/// boundaries; their span ranges tile the lexer spans; only a page's single line may count
/// nothing; the counts add up to the kept characters of the kept spans; `line_of` finds them.
pub fn assert_lines(page: &Page) {
    let text = page.text();
    let spans = &page.lexed().spans;
    let vl = page.lines();
    if text.is_empty() {
        assert!(vl.is_empty(), "an empty page has lines");
        return;
    }
    assert!(!vl.is_empty(), "a non-empty page has no lines");
    let (mut at, mut span_at) = (0usize, 0usize);
    let (mut length, mut rtl, mut ascii) = (0u64, 0u64, 0u64);
    for (i, l) in vl.lines.iter().enumerate() {
        let r = l.range();
        assert_eq!(
            r.start,
            at,
            "line {i} does not start where line {} ends",
            i.max(1) - 1
        );
        assert!(r.start < r.end, "line {i} is empty: {r:?}");
        assert!(
            text.is_char_boundary(r.start) && text.is_char_boundary(r.end),
            "line {i} {r:?} not on char boundaries"
        );
        let sr = l.span_range();
        assert_eq!(
            sr.start, span_at,
            "line {i}: span range {sr:?} does not follow"
        );
        assert!(sr.start < sr.end, "line {i} has no spans");
        assert_eq!(
            spans[sr.start].range().start,
            r.start,
            "line {i} starts inside a span"
        );
        assert_eq!(
            spans[sr.end - 1].range().end,
            r.end,
            "line {i} ends inside a span"
        );
        if vl.len() > 1 {
            assert!(l.length > 0, "line {i} of {} counts nothing", vl.len());
        }
        assert!(
            l.content <= l.length,
            "line {i}: content {} > length {}",
            l.content,
            l.length
        );
        assert!(
            l.rtl + l.ascii <= l.length,
            "line {i}: rtl + ascii > length"
        );
        assert_eq!(vl.line_of(r.start), Some(i));
        assert_eq!(vl.line_of(r.end - 1), Some(i));
        length += u64::from(l.length);
        rtl += u64::from(l.rtl);
        ascii += u64::from(l.ascii);
        at = r.end;
        span_at = sr.end;
    }
    assert_eq!(at, text.len(), "lines do not cover the text");
    assert_eq!(
        span_at,
        spans.len(),
        "line span ranges do not cover the spans"
    );
    let kept: u64 = spans
        .iter()
        .filter(|s| !is_removed(s))
        .map(|s| u64::from(kept_chars(&text[s.range()])))
        .sum();
    assert_eq!(
        length, kept,
        "line lengths do not add up to the kept characters"
    );
    assert!(rtl + ascii <= kept);
}

/// Selection normal form on a page: sorted, disjoint, non-adjacent, non-empty ranges inside the
/// text, on char boundaries.
pub fn assert_selection(text: &str, sel: &Selection, what: &str) {
    let mut prev_end: Option<usize> = None;
    for r in sel.ranges() {
        assert!(r.start < r.end, "{what}: empty range {r:?}");
        assert!(
            r.end <= text.len(),
            "{what}: {r:?} past the text ({} bytes)",
            text.len()
        );
        assert!(
            text.is_char_boundary(r.start) && text.is_char_boundary(r.end),
            "{what}: {r:?} not on char boundaries"
        );
        if let Some(e) = prev_end {
            assert!(
                r.start > e,
                "{what}: ranges unsorted, overlapping or adjacent at {r:?}"
            );
        }
        prev_end = Some(r.end);
    }
}

/// Target 1, decoding + lexing. The first byte chooses the decode options (override, transport
/// charset, TLD hint), the rest are the page's bytes.
///
/// Checks: only an unknown override label or binary data is an error; a UTF-8 result without
/// errors is the input minus its BOM byte for byte; malformed input is flagged with a warning;
/// the BOM length is 0, 2 or 3; `Page::from_bytes` agrees with `decode`; the lexer invariants
/// ([`assert_lexed`]) hold on the decoded text and on the raw bytes read lossily as UTF-8.
pub fn check_decode_lex(data: &[u8]) {
    let (s, body) = selector(data);
    let opts = decode_options(s);
    match decode(body, &opts) {
        Ok(d) => {
            assert!(matches!(d.bom_len, 0 | 2 | 3), "bom_len {}", d.bom_len);
            assert!(d.bom_len <= body.len());
            if d.encoding == encoding_rs::UTF_8 && !d.had_errors {
                assert_eq!(d.text.as_bytes(), &body[d.bom_len..], "clean UTF-8 changed");
            }
            if d.had_errors {
                assert!(!d.warnings.is_empty(), "malformed input without a warning");
            }
            if d.source == EncodingSource::Override {
                assert!(opts.encoding_override.is_some());
            }
            let page = Page::from_bytes("fuzz.html", body.to_vec(), &opts)
                .expect("Page::from_bytes fails where decode succeeded");
            assert_eq!(page.text(), d.text);
            assert_eq!(page.encoding(), d.encoding);
            assert_lexed(page.text(), page.lexed());
        }
        Err(e) => {
            let known = matches!(e, cescope::Error::Binary { .. })
                || (matches!(e, cescope::Error::UnknownEncoding(_))
                    && opts.encoding_override.is_some());
            assert!(known, "unexpected decode error: {e}");
            assert!(!e.to_string().is_empty());
        }
    }
    let lossy = String::from_utf8_lossy(body);
    assert_lexed(&lossy, &lex(&lossy));
}

/// Target 2, the page model: the bytes (read lossily as UTF-8, so every input reaches the lexer)
/// become a page, whose lexing ([`assert_lexed`]) and virtual lines ([`assert_lines`]) are
/// checked, and whose full-text selection renders without panicking.
pub fn check_page(data: &[u8]) {
    let text = String::from_utf8_lossy(data).into_owned();
    let page = Page::from_text("fuzz.html", text);
    assert_lexed(page.text(), page.lexed());
    assert_lines(&page);
    let all = Selection::from_range(0..page.text().len());
    let rendered = page.render(&all);
    assert!(
        !rendered.contains("\n\n"),
        "rendered text has an empty line"
    );

    // The positioned DOM: every node's source byte ranges lie inside the text on char
    // boundaries, a start tag's slice is `<…>`, text-node spans hold exactly the node's text,
    // spans do not overlap, a child's region lies inside its parent's (`Dom::validate`).
    if let Err(e) = page.dom().validate(page.text()) {
        panic!("DOM span invariant broken: {e}");
    }
}

/// A value of `spec` inside its range, chosen by the bytes of `pick` (endpoints and default
/// included with some weight, so off-by-one edges are reached often).
pub fn value_in_range(spec: &ParamSpec, pick: u64) -> ParamValue {
    let r = pick >> 2;
    match &spec.kind {
        ParamKind::Int { min, max, .. } => match pick & 3 {
            0 => ParamValue::Int(*min),
            1 => ParamValue::Int(*max),
            _ => {
                let span = (*max as i128 - *min as i128 + 1) as u128;
                ParamValue::Int((*min as i128 + (r as u128 % span) as i128) as i64)
            }
        },
        ParamKind::Float { min, max, .. } => match pick & 3 {
            0 => ParamValue::Float(*min),
            1 => ParamValue::Float(*max),
            _ => {
                let frac = (r & 0xFFFF_FFFF) as f64 / u32::MAX as f64;
                ParamValue::Float((min + frac * (max - min)).clamp(*min, *max))
            }
        },
        ParamKind::Bool => ParamValue::Bool(pick & 1 == 1),
        ParamKind::Choice { choices } => ParamValue::choice(choices[r as usize % choices.len()]),
    }
}

/// Target 3, every registered extractor (`cescope::extractors::registry()`, so new algorithms
/// are covered without touching this file) with random parameters inside their `ParamSpec`
/// ranges. The first 8 bytes seed the parameter choice; the rest is the page (lossy UTF-8).
///
/// Checks per extractor: the chosen values pass the spec's own parser; the selection is in normal
/// form inside the page ([`assert_selection`]); the run is deterministic; per-line series have
/// finite values; marks are ordered intervals inside their unit's bounds; scalars are not NaN;
/// the selection renders and every line can be explained.
pub fn check_extractors(data: &[u8]) {
    let (seed, body) = data.split_at(data.len().min(8));
    let mut seed_bytes = [0u8; 8];
    seed_bytes[..seed.len()].copy_from_slice(seed);
    let mut state = u64::from_le_bytes(seed_bytes) | 1;
    let mut next = || {
        // xorshift64*: a cheap stream of picks from the seed.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let page = Page::from_text("fuzz.html", String::from_utf8_lossy(body).into_owned());
    let text = page.text();
    let n_lines = page.lines().len();
    for ex in registry() {
        let specs = ex.params();
        let mut params = Params::defaults(specs);
        for spec in specs {
            let v = value_in_range(spec, next());
            let parsed = spec.parse(&v.to_string());
            assert!(
                parsed.is_ok(),
                "{}: {v} rejected by its own spec: {parsed:?}",
                ex.name()
            );
            params
                .set(spec, v)
                .expect("a value drawn from the spec fits it");
        }
        let what = format!("{} {params:?}", ex.name());
        let x = ex.run(&page, &params);
        assert_selection(text, &x.selection, &what);
        assert_eq!(ex.run(&page, &params), x, "{what}: not deterministic");
        // The trace describes itself consistently (unique keys, one value per unit index,
        // marks sorted and in range, positions inside the text) and holds no NaN.
        if let Err(e) = x.trace.validate(&page) {
            panic!("{what}: trace invalid: {e}");
        }
        for s in &x.trace.series {
            assert!(
                s.values.iter().all(|v| v.is_finite()),
                "{what}: series {} has a non-finite value",
                s.key
            );
        }
        for sc in &x.trace.scalars {
            assert!(!sc.value.is_nan(), "{what}: scalar {} is NaN", sc.key);
        }
        assert!(
            page.is_normal(&x.selection),
            "{what}: selection not in normal form (content text only)"
        );
        let _ = page.render(&x.selection);
        for line in [0, n_lines / 2, n_lines.saturating_sub(1), n_lines] {
            let _ = ex.explain(&page, &x, cescope::extract::Location::Line(line), None);
        }
        assert!(!ex.phases().is_empty(), "{}: no phases", ex.name());
    }
}

/// Target 4, the gold JSON reader (`cescope::gold::parse`). Malformed input must be an error
/// with a one-line message naming the file, never a panic. An accepted file must survive
/// `check` (with and without a page), render its selection, and round-trip through `to_json`.
pub fn check_gold(data: &[u8]) {
    let path = Path::new("fuzz-gold.json");
    match gold::parse(path, data) {
        Err(e) => {
            let msg = e.to_string();
            assert!(
                msg.contains("fuzz-gold.json"),
                "error does not name the file: {msg}"
            );
            assert!(!msg.contains('\n'), "error message spans lines: {msg:?}");
        }
        Ok(g) => {
            let _ = gold::check(&g, None);
            let sel = g.main_selection();
            let _ = g.headline_range();
            let page = Page::from_text(g.page.clone(), "<p>fuzz page</p><div>x</div>");
            let _ = gold::check(&g, Some(&page));
            let _ = gold::verify(&g, &page);
            let _ = gold::export_text(&g);
            let _ = gold::export_scrapinghub([&g]);
            // A selection read from a file is normalised (sorted, merged) on the way in.
            let mut prev_end: Option<usize> = None;
            for r in sel.ranges() {
                assert!(r.start < r.end, "empty range {r:?} in main_selection");
                if let Some(e) = prev_end {
                    assert!(r.start > e, "main_selection not normalised at {r:?}");
                }
                prev_end = Some(r.end);
            }
            let json = g.to_json();
            let back = gold::parse(path, json.as_bytes()).expect("to_json output does not parse");
            assert_eq!(back, g, "gold does not round-trip through to_json");
        }
    }
}

/// Target 5, the keymap reader (`Keymap::merge_from_str`, the bytes as lossy UTF-8 TOML) and the
/// key parser (`KeySpec::parse` on each line).
///
/// Checks: an error leaves the keymap unchanged; after a successful merge every bound key leads
/// back to its action and no key is bound twice; a parsed key prints to text that parses back to
/// the same key.
pub fn check_keymap(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let base = Keymap::builtin("default").expect("the default keymap is built in");
    let before: Vec<Vec<KeySpec>> = Action::ALL.iter().map(|&a| base.keys(a).to_vec()).collect();
    let mut km = base.clone();
    match km.merge_from_str(&text, "fuzz.toml") {
        Err(e) => {
            let after: Vec<Vec<KeySpec>> =
                Action::ALL.iter().map(|&a| km.keys(a).to_vec()).collect();
            assert_eq!(before, after, "a failed merge changed the keymap");
            assert!(
                e.to_string().contains("fuzz.toml"),
                "error does not name the file: {e}"
            );
        }
        Ok(()) => {
            let mut seen = std::collections::HashSet::new();
            for &a in Action::ALL {
                for spec in km.keys(a) {
                    assert!(seen.insert(*spec), "{spec} bound twice");
                    let ev = ratatui::crossterm::event::KeyEvent::new(spec.code, spec.modifiers);
                    let got = km.action(&ev);
                    assert_eq!(
                        got,
                        Some(a),
                        "{spec} bound to {} but triggers {got:?}",
                        a.name()
                    );
                }
            }
            let _ = km.help_rows();
        }
    }
    for line in text.lines().take(64) {
        if let Ok(spec) = KeySpec::parse(line) {
            let shown = spec.to_string();
            let back = KeySpec::parse(&shown);
            assert!(
                matches!(back, Ok(b) if b == spec),
                "{line:?} parses to {spec:?}, printed {shown:?}, which parses to {back:?}"
            );
        }
    }
}
