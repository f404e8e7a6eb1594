//! Does a gold standard still fit its page, and is it consistent? [`verify`] compares the page
//! (hash, encoding, decoded length, name); [`check`] applies every consistency rule of the schema
//! and [`check_review`] lists what a reviewer should look at again.

use std::fmt;

use serde::Serialize;

use super::{clip, Gold, NO_MAIN_CONTENT, SCHEMA_TAG, SCHEMA_VERSION};
use crate::fsio::write::printable;
use crate::page::Page;
use crate::selection::Selection;

/// One way a page differs from the page a gold standard was made on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// The SHA-256 of the raw bytes differs (gold, page).
    Hash(String, String),
    /// The encoding differs (gold, page): the same bytes decoded differently give other offsets.
    Encoding(String, String),
    /// The decoded text length in bytes differs (gold, page); `gold` is `None` when the file
    /// does not record it and its ranges reach past the page's text.
    Length(Option<usize>, usize),
    /// The file name differs (gold, page); informational only (pages may be renamed).
    Name(String, String),
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Difference::Hash(g, p) => write!(
                f,
                "SHA-256 {} in the gold file, {p} for the page",
                printable(g)
            ),
            Difference::Encoding(g, p) => {
                write!(f, "encoding {} in the gold file, {p} now", printable(g))
            }
            Difference::Length(Some(g), p) => {
                write!(f, "decoded text {g} bytes in the gold file, {p} bytes now")
            }
            Difference::Length(None, p) => {
                write!(f, "ranges reach past the page's decoded text ({p} bytes)")
            }
            Difference::Name(g, p) => write!(
                f,
                "made for {}, page is named {}",
                printable(g),
                printable(p)
            ),
        }
    }
}

/// Whether a page is the one a gold standard was made on ([`verify`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verification {
    /// True when the SHA-256 of the page's raw bytes equals the gold's: the ranges apply.
    pub matches: bool,
    /// Everything that differs (may list a [`Difference::Name`] even when `matches`; an encoding
    /// difference with equal hashes means the page was decoded with another override).
    pub differences: Vec<Difference>,
}

impl Verification {
    /// True when the gold can be edited on this page: hashes and encodings agree.
    pub fn editable(&self) -> bool {
        self.matches
            && !self
                .differences
                .iter()
                .any(|d| matches!(d, Difference::Encoding(..) | Difference::Length(..)))
    }

    /// A one-line warning for the UI when the gold is not [`Verification::editable`], e.g.
    /// `"the page differs from the one this gold standard was made on (SHA-256 …; encoding …):
    /// opened read-only"`.
    pub fn warning(&self) -> Option<String> {
        if self.editable() {
            return None;
        }
        let what: Vec<String> = self
            .differences
            .iter()
            .filter(|d| !matches!(d, Difference::Name(..)))
            .map(|d| d.to_string())
            .collect();
        Some(format!(
            "the page differs from the one this gold standard was made on ({}): opened read-only",
            what.join("; ")
        ))
    }
}

/// Compares a gold standard with a page: hash, encoding, decoded length, file name. O(page
/// bytes) for the hash on first use (cached by the page).
pub fn verify(gold: &Gold, page: &Page) -> Verification {
    let mut differences = Vec::new();
    let page_hash = page.sha256_hex();
    let matches = gold.sha256.eq_ignore_ascii_case(&page_hash);
    if !matches {
        differences.push(Difference::Hash(gold.sha256.clone(), page_hash));
    }
    let enc = page.encoding().name();
    if !same_encoding(&gold.encoding, enc) {
        differences.push(Difference::Encoding(gold.encoding.clone(), enc.to_string()));
    }
    let len = page.text().len();
    match gold.text_length {
        Some(g) if g != len => differences.push(Difference::Length(Some(g), len)),
        None if max_end(gold) > len => differences.push(Difference::Length(None, len)),
        _ => {}
    }
    if gold.page != page.name() {
        differences.push(Difference::Name(gold.page.clone(), page.name().to_string()));
    }
    Verification {
        matches,
        differences,
    }
}

fn same_encoding(label: &str, name: &str) -> bool {
    encoding_rs::Encoding::for_label(label.trim().as_bytes())
        .map_or(label.eq_ignore_ascii_case(name), |e| e.name() == name)
}

fn max_end(gold: &Gold) -> usize {
    let main = gold.main_content.ranges.iter().map(|r| r[0].max(r[1]));
    let head = gold.headline.iter().map(|h| h.range[0].max(h.range[1]));
    main.chain(head).max().unwrap_or(0)
}

// ---------------------------------------------------------------------------------------------
// Check
// ---------------------------------------------------------------------------------------------

/// The kind of a [`Problem`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProblemKind {
    /// Schema tag or version.
    Schema,
    /// Malformed field value (page not a bare file name, hash not hex, unknown encoding label,
    /// bad timestamp).
    Field,
    /// The page's hash differs.
    Hash,
    /// The page's encoding differs.
    Encoding,
    /// The page's decoded length differs.
    Length,
    /// A main-content range is empty, reversed, unsorted or overlapping.
    RangeOrder,
    /// A range reaches past the end of the decoded text.
    RangeBounds,
    /// A range boundary falls inside a UTF-8 character.
    CharBoundary,
    /// `main_content.text` is not the rendering of the ranges.
    Text,
    /// The headline's range or text is wrong.
    Headline,
}

/// One problem found by [`check`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// A one-line description naming the offending values (byte offsets).
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Checks a gold standard, against its page when given: schema tag and version; field formats
/// (64-hex hash, known encoding label, RFC 3339 timestamps); main-content ranges non-empty,
/// sorted, non-overlapping, within the decoded text (the page's, or `text_length` without a
/// page) and on UTF-8 character boundaries; the headline range likewise; with the page: hash,
/// encoding and length ([`verify`]), and — when the page matches and the ranges are valid — the
/// text fields equal the rendering of the ranges. Returns every problem found (empty = valid).
/// O(ranges + rendered bytes).
pub fn check(gold: &Gold, page: Option<&Page>) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut p = |kind, message: String| out.push(Problem { kind, message });
    if let Err(e) = crate::fsio::write::check_file_name(&gold.page) {
        p(ProblemKind::Field, format!("page {e}"));
    }
    if gold.schema != SCHEMA_TAG {
        p(
            ProblemKind::Schema,
            format!("schema tag {:?}, expected {SCHEMA_TAG:?}", gold.schema),
        );
    }
    if gold.version != SCHEMA_VERSION {
        p(
            ProblemKind::Schema,
            format!("version {}, expected {SCHEMA_VERSION}", gold.version),
        );
    }
    if gold.sha256.len() != 64 || !gold.sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
        p(
            ProblemKind::Field,
            format!("sha256 {:?} is not 64 hex digits", gold.sha256),
        );
    }
    if encoding_rs::Encoding::for_label(gold.encoding.trim().as_bytes()).is_none() {
        p(
            ProblemKind::Field,
            format!(
                "encoding {:?} is not a WHATWG encoding label",
                gold.encoding
            ),
        );
    }
    for (name, value) in [("created", &gold.created), ("modified", &gold.modified)] {
        if time::OffsetDateTime::parse(value, &time::format_description::well_known::Rfc3339)
            .is_err()
        {
            p(
                ProblemKind::Field,
                format!("{name} {value:?} is not an RFC 3339 timestamp"),
            );
        }
    }

    let mut page_ok = true;
    if let Some(page) = page {
        for d in verify(gold, page).differences {
            let kind = match d {
                Difference::Hash(..) => ProblemKind::Hash,
                Difference::Encoding(..) => ProblemKind::Encoding,
                Difference::Length(..) => ProblemKind::Length,
                Difference::Name(..) => continue,
            };
            page_ok = false;
            p(kind, format!("page differs: {d}"));
        }
    }
    let text = page.map(|pg| pg.text());
    let limit = text.map(str::len).or(gold.text_length);

    // Main-content ranges.
    let mut ranges_ok = true;
    let mut prev_end: Option<usize> = None;
    for (i, &[s, e]) in gold.main_content.ranges.iter().enumerate() {
        if s >= e {
            ranges_ok = false;
            p(
                ProblemKind::RangeOrder,
                format!("main_content range {i} [{s}, {e}] is empty or reversed"),
            );
        }
        if let Some(pe) = prev_end {
            if s < pe {
                ranges_ok = false;
                p(
                    ProblemKind::RangeOrder,
                    format!(
                        "main_content range {i} [{s}, {e}] starts before the previous range ends ({pe}): ranges must be sorted and non-overlapping"
                    ),
                );
            }
        }
        prev_end = Some(prev_end.map_or(e, |pe| pe.max(e)));
        ranges_ok &= check_bounds(
            &mut p,
            &format!("main_content range {i}"),
            s,
            e,
            limit,
            text,
        );
    }
    if let Some(h) = &gold.headline {
        let [s, e] = h.range;
        let mut ok = true;
        if s >= e {
            ok = false;
            p(
                ProblemKind::Headline,
                format!("headline range [{s}, {e}] is empty or reversed"),
            );
        }
        ok &= check_bounds(&mut p, "headline range", s, e, limit, text);
        if let (Some(page), true, true) = (page, ok, page_ok) {
            let rendered = page.render(&Selection::from_ranges(std::iter::once(s..e)));
            if rendered != h.text {
                p(
                    ProblemKind::Headline,
                    format!(
                        "headline text {:?} is not the rendering of its range [{s}, {e}] ({:?})",
                        clip(&h.text),
                        clip(&rendered)
                    ),
                );
            }
        }
    }
    if let (Some(page), true, true) = (page, ranges_ok, page_ok) {
        let rendered = page.render(&gold.main_selection());
        if rendered != gold.main_content.text {
            let at = first_difference(&rendered, &gold.main_content.text);
            p(
                ProblemKind::Text,
                format!(
                    "main_content.text is not the rendering of its ranges: they differ from character {at} ({:?} in the file, {:?} rendered)",
                    clip(gold.main_content.text.get(char_byte(&gold.main_content.text, at)..).unwrap_or("")),
                    clip(rendered.get(char_byte(&rendered, at)..).unwrap_or(""))
                ),
            );
        }
    }
    out
}

/// What a reviewer should look at again in a gold file that is otherwise valid (`gold check`
/// prints these as warnings; they do not make the file invalid): an unconfirmed headline
/// ([`Headline::confirmed`](super::Headline::confirmed)), a final gold with an empty main
/// content that does not declare [`NO_MAIN_CONTENT`], and a declaration contradicted by a
/// non-empty main content. O(1).
pub fn check_review(gold: &Gold) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(h) = gold.headline.as_ref().filter(|h| !h.confirmed) {
        out.push(format!(
            "headline not confirmed: {:?} is a suggestion (Y in the inspector confirms it, H marks another)",
            clip(&h.text)
        ));
    }
    let empty = gold.main_content.ranges.is_empty();
    if empty && !gold.draft && !gold.declares_no_main_content() {
        out.push(format!(
            "final with an empty main content that is not declared: mark the main content, or declare the page has none ({NO_MAIN_CONTENT} in the notes; E in the inspector)"
        ));
    }
    if !empty && gold.declares_no_main_content() {
        out.push(format!(
            "notes say {NO_MAIN_CONTENT} but the main content has {} range(s)",
            gold.main_content.ranges.len()
        ));
    }
    out
}

fn check_bounds(
    p: &mut impl FnMut(ProblemKind, String),
    what: &str,
    s: usize,
    e: usize,
    limit: Option<usize>,
    text: Option<&str>,
) -> bool {
    if let Some(len) = limit {
        if s.max(e) > len {
            p(
                ProblemKind::RangeBounds,
                format!("{what} [{s}, {e}] reaches past the end of the decoded text ({len} bytes)"),
            );
            return false;
        }
    }
    if let Some(t) = text {
        for x in [s, e] {
            if !t.is_char_boundary(x) {
                p(
                    ProblemKind::CharBoundary,
                    format!("{what} [{s}, {e}]: byte {x} is inside a UTF-8 character"),
                );
                return false;
            }
        }
    }
    true
}

fn first_difference(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

fn char_byte(s: &str, chars: usize) -> usize {
    s.char_indices().nth(chars).map_or(s.len(), |(i, _)| i)
}
