//! Finding a string in a page's decoded text (the inspector's search, jumps to a headline).

use std::borrow::Cow;
use std::ops::Range;

/// How [`find_all`] compares letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// Exact bytes.
    Sensitive,
    /// ASCII letters match either case; other characters match exactly (so byte offsets stay
    /// those of the text).
    AsciiInsensitive,
    /// `AsciiInsensitive` when the query has no upper-case letter, else `Sensitive` (the
    /// "smart case" of editors).
    Smart,
}

/// The non-overlapping occurrences of `query` in `text`, left to right, as byte ranges over
/// `text` (on char boundaries), at most `limit` of them. An empty query finds nothing.
/// O(len(text)) with `memchr::memmem`; the insensitive modes make one lower-cased copy of the
/// text (same length, ASCII case folded in place).
pub fn find_all(text: &str, query: &str, case: Case, limit: usize) -> Vec<Range<usize>> {
    if query.is_empty() || limit == 0 {
        return Vec::new();
    }
    let insensitive = match case {
        Case::Sensitive => false,
        Case::AsciiInsensitive => true,
        Case::Smart => !query.chars().any(char::is_uppercase),
    };
    let (hay, needle): (Cow<str>, Cow<str>) = if insensitive {
        (
            Cow::Owned(text.to_ascii_lowercase()),
            Cow::Owned(query.to_ascii_lowercase()),
        )
    } else {
        (Cow::Borrowed(text), Cow::Borrowed(query))
    };
    let needle = needle.as_bytes();
    memchr::memmem::find_iter(hay.as_bytes(), needle)
        .map(|s| s..s + needle.len())
        // find_iter reports overlapping matches; keep each one that starts after the last.
        .scan(0usize, |next_free, r| {
            let keep = r.start >= *next_free;
            if keep {
                *next_free = r.end;
            }
            Some(keep.then_some(r))
        })
        .flatten()
        .take(limit)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_by_case_mode() {
        let t = "Flood barrier: the FLOOD came; flood again. Straße";
        assert_eq!(find_all(t, "flood", Case::Sensitive, 10), vec![31..36]);
        assert_eq!(
            find_all(t, "flood", Case::Smart, 10),
            vec![0..5, 19..24, 31..36]
        );
        assert_eq!(find_all(t, "Flood", Case::Smart, 10), vec![0..5]);
        assert_eq!(find_all(t, "flood", Case::AsciiInsensitive, 2).len(), 2);
        // Non-ASCII bytes match exactly; offsets are the text's own.
        let r = find_all(t, "straße", Case::Smart, 10);
        assert_eq!(&t[r[0].clone()], "Straße");
        assert!(find_all(t, "", Case::Smart, 10).is_empty());
        assert!(find_all(t, "absent", Case::Smart, 10).is_empty());
    }

    #[test]
    fn matches_do_not_overlap() {
        assert_eq!(
            find_all("aaaa", "aa", Case::Sensitive, 10),
            vec![0..2, 2..4]
        );
        assert_eq!(find_all("aaa", "aa", Case::Sensitive, 10), vec![0..2]);
    }
}
