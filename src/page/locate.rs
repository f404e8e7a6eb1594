//! Locating a plain text's words in a page: text → [`Selection`], the inverse of
//! [`Page::render`]. One alignment serves the gold importer (`gold::import`, a Scrapinghub
//! `articleBody`) and the reference extractors (`algorithms::reference`, a crate's text output).
//!
//! The page's content text — the [`ByteClass::Text`] spans with character references decoded,
//! pieces on one virtual line joined as [`Page::render`] joins them — is cut into word tokens
//! exactly as [`words`] cuts a text, each with its byte range in the decoded page
//! ([`PageWords`]). The text's words are aligned to them by an exact longest common subsequence
//! ([`align::align`]), the alignment is compacted into as few runs of consecutive page words as
//! possible ([`align::compact`]), and each run becomes one range (from its first word to its
//! last, extended over punctuation touching either end). Rendering the ranges gives back the
//! matched words in order, so a text whose words all occur in the page in order is reproduced
//! word for word ([`PageWords::locate`]).

use std::ops::Range;

use super::{ByteClass, Page, Tag};
use crate::metrics::align;
use crate::metrics::{intern, is_word_char, lcs_len, word_spans, words};
use crate::selection::Selection;

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

/// A page's content text as word tokens ([`words`]) with their byte ranges over the decoded
/// text: built once per page (O(text)), then any number of texts can be located in it.
#[derive(Debug, Clone)]
pub struct PageWords {
    stream: Vec<SChar>,
    tokens: Vec<String>,
    words: Vec<PWord>,
}

/// Where a text's words were found in a page ([`PageWords::locate`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Located {
    /// The ranges covering the matched words, one per run of consecutive page words
    /// (punctuation touching a run's ends included; not normalised, see [`Page::normalize`]).
    pub selection: Selection,
    /// The runs as page-word index ranges (`first..last + 1`), in page order; one per range of
    /// `selection` before merging.
    pub runs: Vec<Range<usize>>,
    /// Word tokens of the text ([`words`]).
    pub text_words: usize,
    /// Word tokens of the page's content text.
    pub page_words: usize,
    /// Text words matched to page words (the LCS length).
    pub matched: usize,
}

impl Located {
    /// The share of the text's words that were matched, `matched / text_words` in `[0, 1]`
    /// (1.0 for a text without words).
    pub fn share(&self) -> f64 {
        if self.text_words == 0 {
            1.0
        } else {
            self.matched as f64 / self.text_words as f64
        }
    }
}

impl PageWords {
    /// The word tokens of `page`'s content text. O(text).
    pub fn new(page: &Page) -> PageWords {
        let stream = content_stream(page);
        let (tokens, words) = tokenise(&stream);
        PageWords {
            stream,
            tokens,
            words,
        }
    }

    /// Number of word tokens.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// True when the page has no word.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The tokens, in page order (lower-cased as [`words`] gives them).
    pub fn tokens(&self) -> &[String] {
        &self.tokens
    }

    /// The virtual line of page word `k`.
    pub fn word_line(&self, k: usize) -> usize {
        self.words[k].line as usize
    }

    /// Bytes of page word `k`.
    pub fn word_range(&self, k: usize) -> Range<usize> {
        self.words[k].start..self.words[k].end
    }

    /// Locates `text` in the page: an exact word-LCS alignment of its words ([`words`]) to the
    /// page's, compacted into as few runs of consecutive page words as possible; each run's
    /// bytes ([`PageWords::run_range`]) go into the selection. Complexity O(t·p/64) for t text
    /// and p page words (about 4·t·p/64 word operations, linear memory) plus the compaction;
    /// pages of 30 000 words against texts of 10 000 take some tens of milliseconds (release).
    pub fn locate(&self, text: &str) -> Located {
        let ttokens = words(text);
        let (ip, it) = intern(&self.tokens, &ttokens);
        let alphabet = ip
            .iter()
            .chain(&it)
            .map(|&x| x as usize + 1)
            .max()
            .unwrap_or(0);
        let pairs = align::align(&it, &ip, alphabet);
        let pairs = align::compact(&pairs, &ip, alphabet);
        let mut runs = Vec::new();
        let mut k = 0;
        while k < pairs.len() {
            let first = pairs[k].1;
            let mut last = first;
            while k + 1 < pairs.len() && pairs[k + 1].1 == last + 1 {
                k += 1;
                last += 1;
            }
            runs.push(first..last + 1);
            k += 1;
        }
        let selection =
            Selection::from_ranges(runs.iter().map(|r| self.run_range(r.start, r.end - 1)));
        Located {
            selection,
            runs,
            text_words: ttokens.len(),
            page_words: self.tokens.len(),
            matched: pairs.len(),
        }
    }

    /// Bytes of the words `first..=last` (page word indices), extended over punctuation that
    /// touches them on the same line (`"(`, `).`), so quotes and full stops are part of the
    /// range.
    pub fn run_range(&self, first: usize, last: usize) -> Range<usize> {
        let (stream, pw) = (&self.stream, &self.words);
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

    /// The best window of 1–3 consecutive word-bearing virtual lines for the headline `h`: its
    /// byte range (trimmed to the matched words, punctuation-extended) and word-LCS F1; `None`
    /// below F1 0.5. Ties go to lines outside `<title>`, then to the line nearest `main_start`
    /// (a byte offset). O(p · headline words).
    pub fn locate_headline(
        &self,
        page: &Page,
        h: &str,
        main_start: Option<usize>,
    ) -> Option<(Range<usize>, f64)> {
        let (ptokens, pw) = (&self.tokens, &self.words);
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
        Some((self.run_range(a + first, a + last), f1))
    }
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

/// Byte range of the first `<title>` element's content.
fn title_range(page: &Page) -> Option<Range<usize>> {
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
        let pw = PageWords::new(&page);
        let all = Selection::from_ranges([0..page.text().len()]);
        assert_eq!(pw.tokens(), words(&page.render(&all)));
        for (k, t) in pw.tokens().iter().enumerate() {
            let r = page.render(&Selection::from_ranges([pw.word_range(k)]));
            assert_eq!(words(&r), std::slice::from_ref(t), "{t}");
        }
    }

    #[test]
    fn located_text_renders_back_word_for_word() {
        let html = "<html><head><title>News</title></head><body><ul><li><a href=/>Home</a></li>\
                    <li><a href=/n>News</a></li></ul><h1>The river rises</h1>\
                    <p>Rain fell for three days &amp; the river rose.</p><div>Share this</div>\
                    <p>Residents were told to leave.</p><footer>© 2024 News</footer></body></html>";
        let page = Page::from_text("t.html", html);
        let pw = PageWords::new(&page);
        // Text with a word the page lacks ("[image]") and the article in order.
        let text = "The river rises\n[image]\nRain fell for three days & the river rose.\nResidents were told to leave.";
        let got = pw.locate(text);
        assert_eq!((got.text_words, got.matched), (17, 16));
        assert!((got.share() - 16.0 / 17.0).abs() < 1e-12);
        assert_eq!(
            page.render(&got.selection),
            "The river rises\nRain fell for three days & the river rose.\nResidents were told to leave."
        );
        // Two runs: headline and first paragraph are consecutive page words, "Share this" breaks.
        assert_eq!(got.runs.len(), 2, "{:?}", got.runs);
        assert_eq!(pw.locate("").share(), 1.0);
        assert!(pw.locate("").selection.is_empty());
        assert_eq!(pw.locate("nothing matches xyzzy").matched, 0);
    }
}
