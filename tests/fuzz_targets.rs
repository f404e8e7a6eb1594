//! The five fuzz targets of `fuzz/` (issue 8, item 7), run briefly under proptest so that
//! `cargo test` exercises every target's invariants on stable Rust. The checks themselves live in
//! `fuzz/src/checks.rs` and are shared with the AFL++ harnesses, which run them for hours with
//! coverage guidance (`fuzz/README.md`).
//!
//! Inputs are random bytes, and mutations (byte edits, splices, duplications) of the project's
//! own sample pages, gold files and keymaps, so that short runs still reach deep states.
#![cfg(feature = "tui")] // needs the keymap target (the TUI's keymap reader)

use crate::checks;

use proptest::prelude::*;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(format!("{ROOT}/{rel}")).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// One edit of a byte string: what, where (fraction of the length), and bytes to insert.
#[derive(Debug, Clone)]
enum Edit {
    Delete(f64, usize),
    Insert(f64, Vec<u8>),
    Replace(f64, u8),
    Duplicate(f64, usize),
    Truncate(f64),
}

fn edit() -> impl Strategy<Value = Edit> {
    let tokens = prop::sample::select(vec![
        &b"<"[..],
        b">",
        b"</",
        b"<!--",
        b"-->",
        b"<script>",
        b"</script>",
        b"<p>",
        b"</div>",
        b"\"",
        b"{",
        b"}",
        b"[",
        b"]",
        b",",
        b":",
        b"=",
        b"\n",
        b"\0",
        b"\xef\xbb\xbf",
        b"\xff\xfe",
        b"\xd8\xb3",
        b"-1",
        b"18446744073709551616",
        b"1e999",
        b"null",
        b"ctrl-",
        b"shift-",
        b"f99",
    ]);
    prop_oneof![
        (0.0..1.0f64, 1usize..64).prop_map(|(at, n)| Edit::Delete(at, n)),
        (
            0.0..1.0f64,
            prop_oneof![
                tokens.prop_map(|t| t.to_vec()),
                prop::collection::vec(any::<u8>(), 1..8)
            ]
        )
            .prop_map(|(at, b)| Edit::Insert(at, b)),
        (0.0..1.0f64, any::<u8>()).prop_map(|(at, b)| Edit::Replace(at, b)),
        (0.0..1.0f64, 1usize..256).prop_map(|(at, n)| Edit::Duplicate(at, n)),
        (0.0..1.0f64).prop_map(Edit::Truncate),
    ]
}

fn apply(base: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut v = base.to_vec();
    for e in edits {
        let pos = |f: f64, len: usize| ((f * len as f64) as usize).min(len);
        match e {
            Edit::Delete(at, n) => {
                let s = pos(*at, v.len());
                let e = (s + n).min(v.len());
                v.drain(s..e);
            }
            Edit::Insert(at, b) => {
                let s = pos(*at, v.len());
                v.splice(s..s, b.iter().copied());
            }
            Edit::Replace(at, b) => {
                if !v.is_empty() {
                    let s = pos(*at, v.len() - 1);
                    v[s] = *b;
                }
            }
            Edit::Duplicate(at, n) => {
                let s = pos(*at, v.len());
                let chunk = v[s..(s + n).min(v.len())].to_vec();
                v.splice(s..s, chunk);
            }
            Edit::Truncate(at) => {
                let s = pos(*at, v.len());
                v.truncate(s.max(v.len() / 2));
            }
        }
    }
    v
}

/// Random bytes, or a base file (from `bases`, cut to at most `cut` bytes) with a few edits.
fn input(bases: Vec<Vec<u8>>, cut: usize) -> impl Strategy<Value = Vec<u8>> {
    let bases: Vec<Vec<u8>> = bases
        .into_iter()
        .map(|b| b[..b.len().min(cut)].to_vec())
        .collect();
    prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..256),
        3 => (prop::sample::select(bases), prop::collection::vec(edit(), 0..6))
            .prop_map(|(b, e)| apply(&b, &e)),
    ]
}

fn pages() -> Vec<Vec<u8>> {
    [
        "sample-pages/news-article.html",
        "sample-pages/arabic-news.html",
        "sample-pages/legacy-windows-1256.html",
        "sample-pages/minified-news.html",
        "sample-pages/slashdot-story.html",
    ]
    .iter()
    .map(|p| read(p))
    .chain([
        b"<p>one</p><script>x</script><!-- c --><p>two &amp; three</p>".to_vec(),
        b"\xef\xbb\xbf<meta charset=gbk><p>\xe4\xb8\xad</p>".to_vec(),
        b"<meta charset=windows-1256><p>\xd3\xe1\xc7\xe3</p>".to_vec(),
    ])
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn target_decode_lex(data in input(pages(), 4096)) {
        checks::check_decode_lex(&data);
    }

    #[test]
    fn target_page(data in input(pages(), 4096)) {
        checks::check_page(&data);
    }

    #[test]
    fn target_gold(data in input(
        vec![read("gold/news-article.json"), read("gold/arabic-news.json"),
             read("gold/no-main-content.json")],
        usize::MAX,
    )) {
        checks::check_gold(&data);
    }

    #[test]
    fn target_keymap(data in input(vec![read("keymaps/default.toml"), read("keymaps/vim.toml")],
                                   usize::MAX)) {
        checks::check_keymap(&data);
    }
}

proptest! {
    // Every extractor runs twice per case (determinism), so fewer, smaller cases.
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    #[test]
    fn target_extractors(seed in any::<[u8; 8]>(), page in input(pages(), 3000)) {
        let mut data = seed.to_vec();
        data.extend_from_slice(&page);
        checks::check_extractors(&data);
    }
}

/// The checks must be able to fail: a selection out of normal form, lexed spans with a gap and
/// lines that do not cover the page are all caught.
#[test]
fn checks_catch_broken_invariants() {
    use cescope::page::lex::{lex, Lexed};
    use cescope::selection::Selection;
    use std::panic::catch_unwind;

    let text = "<p>héllo</p>";
    let sel = Selection::from_ranges([0..3, 5..6]); // 5 is inside 'é' (bytes 4..6)
    assert!(catch_unwind(|| checks::assert_selection(text, &sel, "t")).is_err());
    let past = Selection::from_range(0..text.len() + 1);
    assert!(catch_unwind(|| checks::assert_selection(text, &past, "t")).is_err());
    checks::assert_selection(text, &Selection::from_range(0..3), "t");

    let good = lex(text);
    checks::assert_lexed(text, &good);
    let mut gap = Lexed {
        spans: good.spans.clone(),
    };
    gap.spans.remove(1);
    assert!(catch_unwind(|| checks::assert_lexed(text, &gap)).is_err());
    let mut short = good.clone();
    short.spans.pop();
    assert!(catch_unwind(|| checks::assert_lexed(text, &short)).is_err());
}
