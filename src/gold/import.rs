//! Importing plain-text gold standards (the common Scrapinghub format) as byte ranges.
//!
//! The page's content text — the [`ByteClass::Text`] spans with character references decoded,
//! pieces on one virtual line joined as [`Page::render`] joins them — is cut into word tokens
//! exactly as [`words`] cuts a text, each with its byte range in the decoded page. The gold's
//! words are aligned to them by an exact longest common subsequence ([`align::align`]), the
//! alignment is compacted into as few runs of consecutive page words as possible
//! ([`align::compact`]), and each run becomes one range (from its first word to its last,
//! extended over punctuation touching either end). Rendering the ranges gives back the matched
//! words in order, so a gold text whose words all occur in the page in order is reproduced
//! word for word.

use super::Gold;
use crate::corpus::GoldText;
use crate::metrics::align;
use crate::metrics::{intern, is_word_char, lcs_len, word_spans, words};
use crate::page::{ByteClass, Page, Tag};
use crate::selection::Selection;

/// How well a plain-text gold standard was located in its page ([`import_scrapinghub`]).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ImportStats {
    /// Word tokens of the gold's `articleBody` ([`words`]).
    pub gold_words: usize,
    /// Word tokens of the page's content text.
    pub page_words: usize,
    /// Gold words located in the page (the LCS length).
    pub matched: usize,
    /// `matched / gold_words` (1.0 for an empty gold text).
    pub coverage: f64,
    /// Number of main-content ranges.
    pub ranges: usize,
    /// Word-LCS F1 between the gold headline and the located one; `None` when the gold has no
    /// headline, `Some(0.0)` when none was located (below 0.5).
    pub headline_f1: Option<f64>,
}

/// One character of the page's content text with the bytes it comes from.
#[derive(Debug, Clone, Copy)]
struct SChar {
    c: char,
    start: u32,
    end: u32,
    line: u32,
}

/// One word token of the page: bytes `start..end` of the decoded text, stream chars
/// `first..=last`.
#[derive(Debug, Clone, Copy)]
struct PWord {
    start: usize,
    end: usize,
    first: usize,
    last: usize,
    line: u32,
}

/// The page's content text as characters with byte ranges (a decoded character reference maps
/// to the whole reference).
fn content_stream(page: &Page) -> Vec<SChar> {
    let text = page.text();
    let lines = page.lines();
    let mut out = Vec::with_capacity(text.len() / 4);
    for s in &page.lexed().spans {
        if s.class != ByteClass::Text {
            continue;
        }
        let r = s.range();
        if !text.is_char_boundary(r.start) || !text.is_char_boundary(r.end) {
            continue;
        }
        let line = lines.line_of(r.start).unwrap_or(0) as u32;
        let piece = &text[r.clone()];
        if piece.contains('&') {
            decode_pieces(piece, r.start, line, &mut out);
        } else {
            push_chars(piece, r.start, line, &mut out);
        }
    }
    out
}

fn push_chars(s: &str, at: usize, line: u32, out: &mut Vec<SChar>) {
    out.extend(s.char_indices().map(|(i, c)| SChar {
        c,
        start: (at + i) as u32,
        end: (at + i + c.len_utf8()) as u32,
        line,
    }));
}

/// Decodes a text span reference by reference, so each decoded character knows its source
/// bytes. Falls back to mapping the whole span when piecewise decoding would differ from
/// decoding the span at once (as [`Page::render`] does).
fn decode_pieces(piece: &str, at: usize, line: u32, out: &mut Vec<SChar>) {
    let mark = out.len();
    let b = piece.as_bytes();
    let mut i = 0;
    let mut plain = 0;
    let mut decoded = String::new();
    while i < b.len() {
        if b[i] != b'&' {
            i += 1;
            continue;
        }
        push_chars(&piece[plain..i], at + plain, line, out);
        decoded.push_str(&piece[plain..i]);
        let mut j = i + 1;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'#') {
            j += 1;
        }
        if j < b.len() && b[j] == b';' && j > i + 1 {
            j += 1;
        }
        let reference = &piece[i..j];
        let dec = htmlize::unescape(reference);
        for c in dec.chars() {
            out.push(SChar {
                c,
                start: (at + i) as u32,
                end: (at + j) as u32,
                line,
            });
        }
        decoded.push_str(&dec);
        i = j;
        plain = j;
    }
    push_chars(&piece[plain..], at + plain, line, out);
    decoded.push_str(&piece[plain..]);
    if decoded != htmlize::unescape(piece) {
        out.truncate(mark);
        let (s, e) = (at as u32, (at + piece.len()) as u32);
        out.extend(htmlize::unescape(piece).chars().map(|c| SChar {
            c,
            start: s,
            end: e,
            line,
        }));
    }
}

/// Word tokens of the stream, line by line, exactly as [`words`] would cut each line's text
/// (lower-cased as a whole, so that the final-sigma rule applies the same way): the line's
/// characters are tokenised by [`word_spans`], whose byte ranges map back to stream chars.
fn tokenise(stream: &[SChar]) -> (Vec<String>, Vec<PWord>) {
    let mut tokens = Vec::new();
    let mut pwords = Vec::new();
    let mut a = 0;
    while a < stream.len() {
        let line = stream[a].line;
        let mut e = a;
        while e < stream.len() && stream[e].line == line {
            e += 1;
        }
        let orig: String = stream[a..e].iter().map(|s| s.c).collect();
        // Byte offset in `orig` of each stream char of the line.
        let mut at = Vec::with_capacity(e - a);
        let mut off = 0;
        for s in &stream[a..e] {
            at.push(off);
            off += s.c.len_utf8();
        }
        for (t, r) in word_spans(&orig) {
            let f = a + at.partition_point(|&o| o < r.start);
            let l = a + at.partition_point(|&o| o < r.end) - 1;
            tokens.push(t);
            pwords.push(PWord {
                start: stream[f].start as usize,
                end: stream[l].end as usize,
                first: f,
                last: l,
                line,
            });
        }
        a = e;
    }
    (tokens, pwords)
}

fn is_punct(c: char) -> bool {
    !c.is_whitespace() && !is_word_char(c)
}

/// Bytes of the words `first..=last` (page word indices), extended over punctuation that
/// touches them on the same line (`"(`, `).`), so quotes and full stops are part of the range.
fn word_run_range(
    stream: &[SChar],
    pw: &[PWord],
    first: usize,
    last: usize,
) -> std::ops::Range<usize> {
    let (mut s, mut e) = (pw[first].start, pw[last].end);
    let line = pw[first].line;
    let mut k = pw[first].first;
    while k > 0 && stream[k - 1].line == line && is_punct(stream[k - 1].c) {
        k -= 1;
        s = s.min(stream[k].start as usize);
    }
    let line = pw[last].line;
    let mut k = pw[last].last + 1;
    while k < stream.len() && stream[k].line == line && is_punct(stream[k].c) {
        e = e.max(stream[k].end as usize);
        k += 1;
    }
    s..e
}

/// Imports a gold standard of the common Scrapinghub format ([`GoldText`]) for `page`: locates
/// the `articleBody` words in the page's content text (exact word-LCS alignment, case-folded
/// tokens as [`words`]; see the module documentation) and sets the main content to the ranges
/// covering them; when `gt.headline` is set, the headline is the best matching window of one to
/// three consecutive virtual lines (word-LCS F1 at least 0.5; ties go to lines outside
/// `<title>`, then to the line nearest the main content), trimmed to its matched words.
///
/// The result is named `page_name`, carries `gt.url`, and is marked `draft` when some gold
/// words or the headline were not found; `notes` records the coverage.
///
/// Complexity: O(g·p/64) for g gold and p page words (about 4·g·p/64 word operations, linear
/// memory), plus O(p · headline words) for the headline. Pages of 30 000 words with 10 000
/// gold words take some tens of milliseconds in a release build.
pub fn import_scrapinghub(
    gt: &GoldText,
    page: &Page,
    page_name: &str,
    annotator: &str,
) -> (Gold, ImportStats) {
    let stream = content_stream(page);
    let (ptokens, pwords) = tokenise(&stream);
    let gtokens = words(&gt.article_body);
    let (ip, ig) = intern(&ptokens, &gtokens);
    let alphabet = ip
        .iter()
        .chain(&ig)
        .map(|&x| x as usize + 1)
        .max()
        .unwrap_or(0);
    let pairs = align::align(&ig, &ip, alphabet);
    let pairs = align::compact(&pairs, &ip, alphabet);

    let mut ranges = Vec::new();
    let mut k = 0;
    while k < pairs.len() {
        let first = pairs[k].1;
        let mut last = first;
        while k + 1 < pairs.len() && pairs[k + 1].1 == last + 1 {
            k += 1;
            last += 1;
        }
        ranges.push(word_run_range(&stream, &pwords, first, last));
        k += 1;
    }
    let sel = Selection::from_ranges(ranges);

    let mut gold = Gold::new(page, annotator);
    gold.page = page_name.to_string();
    gold.url = gt.url.clone();
    let main_start = sel.ranges().first().map(|r| r.start);
    let n_ranges = sel.ranges().len();
    gold.set_main_content(page, sel);

    let mut headline_f1 = None;
    if let Some(h) = gt.headline.as_deref() {
        let found = locate_headline(page, &stream, &ptokens, &pwords, h, main_start);
        headline_f1 = Some(found.as_ref().map_or(0.0, |f| f.1));
        gold.set_headline(page, found.map(|f| f.0));
    }

    let matched = pairs.len();
    let coverage = if gtokens.is_empty() {
        1.0
    } else {
        matched as f64 / gtokens.len() as f64
    };
    gold.draft = matched < gtokens.len() || headline_f1.is_some_and(|f| f < 1.0);
    gold.notes = format!(
        "imported from the Scrapinghub format: {matched} of {} gold words located (coverage {coverage:.3}){}",
        gtokens.len(),
        match headline_f1 {
            Some(f) if f < 0.5 => ", headline not found".to_string(),
            Some(f) if f < 1.0 => format!(", headline matched with F1 {f:.3}"),
            _ => String::new(),
        }
    );
    let stats = ImportStats {
        gold_words: gtokens.len(),
        page_words: ptokens.len(),
        matched,
        coverage,
        ranges: n_ranges,
        headline_f1,
    };
    (gold, stats)
}

/// The best window of 1–3 consecutive word-bearing virtual lines for the headline `h`: its byte
/// range (trimmed to the matched words, punctuation-extended) and word-LCS F1.
fn locate_headline(
    page: &Page,
    stream: &[SChar],
    ptokens: &[String],
    pw: &[PWord],
    h: &str,
    main_start: Option<usize>,
) -> Option<(std::ops::Range<usize>, f64)> {
    let ht = words(h);
    if ht.is_empty() || pw.is_empty() {
        return None;
    }
    // Word index ranges of the lines that have words.
    let mut lines: Vec<(usize, usize)> = Vec::new();
    for (i, w) in pw.iter().enumerate() {
        match lines.last_mut() {
            Some(l) if pw[l.0].line == w.line => l.1 = i + 1,
            _ => lines.push((i, i + 1)),
        }
    }
    let title = title_range(page);
    let max_words = 4 * ht.len() + 10;
    // (f1, not-in-title, -distance, window) — best by f1, then outside title, then nearest.
    let mut best: Option<(f64, bool, i64, usize, usize)> = None;
    for s in 0..lines.len() {
        for len in 1..=3 {
            if s + len > lines.len() {
                break;
            }
            let (a, b) = (lines[s].0, lines[s + len - 1].1);
            if b - a > max_words {
                break;
            }
            let (ih, iw) = intern(&ht, &ptokens[a..b]);
            let l = lcs_len(&ih, &iw);
            if l == 0 {
                continue;
            }
            let f1 = 2.0 * l as f64 / (ht.len() + b - a) as f64;
            let in_title = title.as_ref().is_some_and(|t| t.contains(&pw[a].start));
            let dist = main_start.map_or(0, |m| (pw[a].start as i64 - m as i64).abs());
            let key = (f1, !in_title, -dist);
            let better = match &best {
                None => true,
                Some((bf, bt, bd, _, _)) => {
                    if (f1 - bf).abs() > 1e-9 {
                        f1 > *bf
                    } else {
                        (key.1, key.2) > (*bt, *bd)
                    }
                }
            };
            if better {
                best = Some((f1, !in_title, -dist, a, b));
            }
        }
    }
    let (f1, _, _, a, b) = best?;
    if f1 < 0.5 {
        return None;
    }
    let (first, last) = lcs_matched_extent(&ht, &ptokens[a..b]);
    Some((word_run_range(stream, pw, a + first, a + last), f1))
}

/// Byte range of the first `<title>` element's content.
fn title_range(page: &Page) -> Option<std::ops::Range<usize>> {
    let spans = &page.lexed().spans;
    let open = spans.iter().position(|s| s.is_start(Tag::Title))?;
    let close = spans[open..].iter().position(|s| s.is_end(Tag::Title))? + open;
    Some(spans[open].end as usize..spans[close].start as usize)
}

/// First and last index of `b` matched by an LCS of `a` and `b` (the full-table traceback of
/// [`align::lcs_pairs`]); `(0, b.len() - 1)` when they have nothing in common.
fn lcs_matched_extent(a: &[String], b: &[String]) -> (usize, usize) {
    let (ia, ib) = intern(a, b);
    let pairs = align::lcs_pairs(&ia, &ib);
    (
        pairs.first().map_or(0, |p| p.1),
        pairs.last().map_or(b.len().saturating_sub(1), |p| p.1),
    )
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)]
mod tests {
    use super::*;

    #[test]
    fn page_words_match_the_tokeniser() {
        let html = "<html><head><title>T&amp;T</title><script>var x;</script></head><body>\
                    <p>Hello <b>wor</b>ld &amp; caf&eacute;s&#8212;ÉCOLE &notit; x&lt;y</p>\
                    <ul><li>one</li><li>two</li></ul><span>a</span><span>b</span> İstanbul ΟΔΟΣ</body></html>";
        let page = Page::from_text("t.html", html);
        let stream = content_stream(&page);
        let (tokens, pw) = tokenise(&stream);
        let all = Selection::from_ranges([0..page.text().len()]);
        assert_eq!(tokens, words(&page.render(&all)));
        for (t, w) in tokens.iter().zip(&pw) {
            let r = page.render(&Selection::from_ranges([w.start..w.end]));
            assert_eq!(words(&r), std::slice::from_ref(t), "{t}");
        }
    }
}
