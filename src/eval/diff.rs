//! Where an extract differs from the gold standard, word by word: the runs of words one of
//! them selects and the other does not — what the inspector's `f` / `m` (and, with the compare
//! overlay, `}` / `{`) jump to.
//!
//! Two selections can differ in bytes without differing in words: one keeps a paragraph's
//! indentation, its `<p>` tags or the white space between two blocks and the other does not.
//! Such differences change nothing the measure sees (the word-sequence LCS of
//! [`crate::metrics`] compares the words of the rendered texts), so they are not differences
//! here. A difference is a run of **words** — the tokens of the one tokeniser,
//! [`crate::metrics::word_spans`], over the page as a reader sees it ([`ReadingLine`]) — that
//! the extract selects and the gold does not ([`DiffKind::Extra`], a false positive) or the
//! gold selects and the extract does not ([`DiffKind::Missing`], a false negative).
//!
//! A word counts as selected by a selection when the selection holds the source bytes of its
//! first and of its last character (a word cut by a mouse drag counts as not selected). A run
//! ends at the first word of another class (selected by both, by neither, or a difference of
//! the other kind), so a false positive that an unselected menu interrupts is two runs, as the
//! compare overlay shows it.

use std::ops::Range;

use crate::metrics::word_spans;
use crate::page::text::ReadingLine;
use crate::page::Page;
use crate::selection::Selection;

/// Which side holds the words of a [`WordDiff`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DiffKind {
    /// The extract selects them, the gold does not: a false positive.
    Extra,
    /// The gold selects them, the extract does not: a false negative.
    Missing,
}

impl DiffKind {
    /// `"false positive"` or `"false negative"`.
    pub fn name(self) -> &'static str {
        match self {
            DiffKind::Extra => "false positive",
            DiffKind::Missing => "false negative",
        }
    }
}

/// One run of differing words (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordDiff {
    /// Which side holds them.
    pub kind: DiffKind,
    /// Bytes of the page text from the first byte of the run's first word to the end of the
    /// source character its last word ends with (for a character reference, its `&`): so
    /// `bytes.start` lies on the first text line of the difference and `bytes.end - 1` on its
    /// last. On char boundaries.
    pub bytes: Range<usize>,
    /// Words in the run (tokens of [`crate::metrics::words`]).
    pub words: usize,
}

/// The word-level differences between `extract` and `gold` over the page text `text` whose
/// reading lines are `lines` ([`Page::reading_lines`]), in page order. Both selections are
/// byte ranges over `text` (any form; markup and white space in them do not matter). O(words ·
/// log ranges) after the tokenisation of the lines.
pub fn word_diffs(
    text: &str,
    lines: &[ReadingLine],
    gold: &Selection,
    extract: &Selection,
) -> Vec<WordDiff> {
    let end_of = |b: usize| {
        b + text
            .get(b..)
            .and_then(|s| s.chars().next())
            .map_or(1, char::len_utf8)
    };
    let mut out: Vec<WordDiff> = Vec::new();
    // The run being built continues while the next word has its kind.
    let mut open: Option<WordDiff> = None;
    for line in lines {
        // Byte offset in `line.text` → char index (for `line.starts`).
        let mut char_of = vec![0usize; line.text.len() + 1];
        for (ci, (b, _)) in line.text.char_indices().enumerate() {
            char_of[b] = ci;
        }
        for (_, r) in word_spans(&line.text) {
            let first = line.starts.get(char_of[r.start]).copied();
            let last_char = line.text[..r.end]
                .char_indices()
                .next_back()
                .map_or(r.start, |(b, _)| b);
            let last = line.starts.get(char_of[last_char]).copied();
            let (Some(first), Some(last)) = (first, last) else {
                continue;
            };
            let held = |s: &Selection| s.contains(first) && s.contains(last);
            let kind = match (held(extract), held(gold)) {
                (true, false) => Some(DiffKind::Extra),
                (false, true) => Some(DiffKind::Missing),
                _ => None,
            };
            match (kind, open.as_mut()) {
                (Some(k), Some(run)) if run.kind == k => {
                    run.bytes.end = end_of(last);
                    run.words += 1;
                }
                (k, _) => {
                    out.extend(open.take());
                    open = k.map(|kind| WordDiff {
                        kind,
                        bytes: first..end_of(last),
                        words: 1,
                    });
                }
            }
        }
    }
    out.extend(open);
    out
}

/// [`word_diffs`] over `page`'s own reading lines.
pub fn page_word_diffs(page: &Page, gold: &Selection, extract: &Selection) -> Vec<WordDiff> {
    word_diffs(page.text(), &page.reading_lines(), gold, extract)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte range of the first `needle` in `text`.
    fn at(text: &str, needle: &str) -> Range<usize> {
        let s = text.find(needle).unwrap();
        s..s + needle.len()
    }

    const HTML: &str = "<html><body>\n<ul><li><a href=/>Home</a></li><li>News</li></ul>\n\
        <div class=story>\n  <p>Council approves the new harbour plan.</p>\n  \
        <p>Work starts in <b>October</b>.</p>\n</div>\n<p>Share this story</p>\n</body></html>";

    #[test]
    fn white_space_and_markup_only_differences_are_none() {
        let p = Page::from_text("t.html", HTML);
        let t = p.text();
        // The gold: the story's text only; the extract: the whole <div>, tags, indentation
        // and line breaks included.
        let gold = Selection::from_ranges([
            at(t, "Council approves the new harbour plan."),
            at(t, "Work starts in "),
            at(t, "October"),
            at(t, "."),
        ]);
        let div = at(t, "<div class=story>").start..at(t, "</div>").end;
        let extract = Selection::from_range(div);
        assert_ne!(p.normalize(&gold), p.normalize(&extract), "bytes differ");
        assert_eq!(page_word_diffs(&p, &gold, &extract), vec![]);
        assert_eq!(page_word_diffs(&p, &extract, &gold), vec![]);
    }

    #[test]
    fn runs_of_extra_and_missing_words_with_their_counts() {
        let p = Page::from_text("t.html", HTML);
        let t = p.text();
        let gold = Selection::from_ranges([
            at(t, "Council approves the new harbour plan."),
            at(t, "Work starts in <b>October</b>."),
        ]);
        // The extract takes the menu and the share line, and misses the second paragraph.
        let extract = Selection::from_ranges([
            at(t, "<ul>").start..at(t, "</ul>").end,
            at(t, "Council approves the new harbour plan."),
            at(t, "Share this story"),
        ]);
        let d = page_word_diffs(&p, &gold, &extract);
        let got: Vec<(DiffKind, usize, &str)> = d
            .iter()
            .map(|d| (d.kind, d.words, &t[d.bytes.clone()]))
            .collect();
        assert_eq!(
            got,
            vec![
                (DiffKind::Extra, 2, "Home</a></li><li>News"),
                (DiffKind::Missing, 4, "Work starts in <b>October"),
                (DiffKind::Extra, 3, "Share this story"),
            ]
        );
        // The other way round the kinds swap.
        let back: Vec<DiffKind> = page_word_diffs(&p, &extract, &gold)
            .iter()
            .map(|d| d.kind)
            .collect();
        assert_eq!(
            back,
            vec![DiffKind::Missing, DiffKind::Extra, DiffKind::Missing]
        );
    }

    #[test]
    fn a_word_selected_by_neither_ends_a_run_and_a_cut_word_is_not_selected() {
        let p = Page::from_text("t.html", "<p>one two three four</p>");
        let t = p.text();
        let gold = Selection::new();
        let extract = Selection::from_ranges([at(t, "one"), at(t, "three four")]);
        let d = page_word_diffs(&p, &gold, &extract);
        assert_eq!(d.len(), 2, "{d:?}");
        assert_eq!((d[0].words, d[1].words), (1, 2));
        // "thr" of "three": the word is not selected by the extract.
        let cut = Selection::from_range(at(t, "thr"));
        assert_eq!(page_word_diffs(&p, &gold, &cut), vec![]);
        // Character references: "caf&eacute;" is one word, found by its bytes.
        let p = Page::from_text("t.html", "<p>caf&eacute; au lait</p>");
        let t = p.text();
        let all = Selection::from_range(at(t, "caf&eacute; au lait"));
        let d = page_word_diffs(&p, &all, &Selection::new());
        assert_eq!((d.len(), d[0].words, d[0].kind), (1, 3, DiffKind::Missing));
    }
}
