//! Reference extractors: the extractors people already use, brought in from their Rust crates
//! (`trafilatura`: rs-trafilatura, a port of trafilatura, Barbaresi 2021; `readability`:
//! dom_smoothie, a port of Mozilla's Readability.js) so that every view, command and
//! combination works with them (cargo feature `reference`, opt-in: `--features reference`).
//!
//! A crate extracts the main content as **text**; cescope needs a [`crate::selection::Selection`]. The text is
//! located in the page by the one text → selection alignment, [`PageWords::locate`] (the one
//! `gold import` uses: the output's words aligned to the page's content-text words by an exact
//! word LCS, compacted into as few runs of consecutive page words as possible), and the runs'
//! bytes, normalised ([`Page::normalize`]), are the selection. Rendering it gives back the
//! output's words in page order, so F1 through cescope equals F1 of the crate's text whenever
//! the whole output aligns.
//!
//! **Alignment quality.** An extractor may emit words that are not page text (image alt text,
//! generated separators, text from `<meta>` or JSON-LD) or not in page order; those are lost. The
//! trace records the output's words, the aligned words and their share; [`Extractor::warnings`]
//! warns on a page where less than [`MIN_SHARE`] aligned, and the explain panel says which crate
//! and version selected the text and how much of it aligned.
//!
//! Each crate is one file ([`RefCrate`]: name, version, licence, parameters, the call);
//! [`Reference`] makes it an [`Extractor`] and a [`TextStage`] (the crate's run and the
//! alignment apart, for `cescope bench` and the corpus check of the alignment). A crate that
//! fails or panics on a page gives an empty selection (the trace's `failed` scalar is 1), never
//! a panic of cescope. A page nesting elements [`MAX_DEPTH`] deep or deeper (cescope's DOM and
//! browsers stop nesting there) is not given to the crate at all: html5ever without that cap
//! takes O(depth²) time (100 000 nested `<div>`s: tens of seconds), so the run fails at once
//! with that reason. The check reads cescope's DOM, so a run builds it.

use std::borrow::Cow;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::extract::trace::Key;
use crate::extract::trace::{Location, Marks, Phase, Positions, Role, Scalar, Series};
use crate::extract::trace::{Trace, Unit};
use crate::extract::Capabilities;
use crate::extract::{explain_default, is_whole_run, AlgoInfo, Algorithm, Step};
use crate::extract::{Extraction, Extractor, ParamSpec, Params};
use crate::extract::{Output, TextStage};
use crate::page::dom::MAX_DEPTH;
use crate::page::locate::PageWords;
use crate::page::Page;

/// Below this share of the output's words aligned to the page, a run gets a warning
/// ([`Extractor::warnings`]).
pub const MIN_SHARE: f64 = 0.95;

/// What a reference crate says about itself.
#[derive(Debug, Clone, Copy)]
pub struct RefInfo {
    /// Registered name (`--algo NAME`).
    pub name: &'static str,
    /// One-line description with the source.
    pub description: &'static str,
    /// The program it ports, with its paper.
    pub source: &'static str,
    /// The crate and its version as built (`rs-trafilatura 0.2.2`).
    pub version: &'static str,
    /// The crate's licence (SPDX expression).
    pub licence: &'static str,
    /// The crate options cescope exposes, with the crate's defaults.
    pub params: &'static [ParamSpec],
}

/// One reference crate: what [`Reference`] needs to make it an extractor.
pub trait RefCrate: Send + Sync {
    /// Name, description, version, licence and parameters.
    fn about(&self) -> &'static RefInfo;
    /// Runs the crate on the page's decoded text. Errors: the crate's error, in words.
    fn extract(&self, html: &str, params: &Params) -> std::result::Result<String, String>;
}

/// The trace items a reference extractor reads back in its explanation: built and read by
/// these [`Key`]s.
const OUTPUT: Key<Scalar> = Key::new("output");
const FAILED: Key<Scalar> = Key::new("failed");
const MATCHED: Key<Scalar> = Key::new("matched");
const SHARE: Key<Scalar> = Key::new("share");
const ALIGNED: Key<Marks> = Key::new("aligned");

const PHASES: &[Phase] = &[
    Phase::new("page", "the page's word tokens per line: the text the crate's output is aligned to", &["page_words"]),
    Phase::new("crate", "the crate extracts the main content as text (its own DOM and heuristics)", &["output", "failed"]),
    Phase::new("alignment", "the output's words aligned to the page's by an exact word LCS, compacted into runs of consecutive page words: the aligned blocks", &["words", "aligned", "matched", "share"]),
];

/// A [`RefCrate`] as an [`Extractor`] (and a [`TextStage`]).
#[derive(Debug, Clone)]
pub struct Reference<C> {
    krate: C,
    info: AlgoInfo,
}

impl<C: RefCrate> Reference<C> {
    /// The crate as an extractor.
    pub fn new(krate: C) -> Reference<C> {
        let a = krate.about();
        Reference {
            info: AlgoInfo {
                name: Cow::Borrowed(a.name),
                description: Cow::Borrowed(a.description),
                source: Cow::Borrowed(a.source),
                params: Cow::Borrowed(a.params),
                phases: Cow::Borrowed(PHASES),
                // The crate builds its own DOM; cescope's is not used, but the cost is of that
                // kind.
                needs_dom: true,
            },
            krate,
        }
    }

    /// The crate.
    pub fn inner(&self) -> &C {
        &self.krate
    }
}

impl<C: RefCrate> TextStage for Reference<C> {
    fn output(&self, page: &Page, params: &Params) -> Output {
        if page.dom().elements().any(|(_, d)| d >= MAX_DEPTH) {
            return Output {
                text: String::new(),
                failure: Some(format!(
                    "not run: the page nests elements {MAX_DEPTH} deep or deeper; browsers (and \
                     cescope's DOM) stop nesting there, the crate's HTML parser does not and \
                     takes O(depth²) time"
                )),
            };
        }
        let html = page.text();
        match catch_unwind(AssertUnwindSafe(|| self.krate.extract(html, params))) {
            Ok(Ok(text)) => Output {
                text,
                failure: None,
            },
            Ok(Err(e)) => Output {
                text: String::new(),
                failure: Some(e),
            },
            Err(panic) => Output {
                text: String::new(),
                failure: Some(format!(
                    "panicked: {}",
                    panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "(no message)".into())
                )),
            },
        }
    }

    fn locate(&self, page: &Page, _params: &Params, output: &Output) -> Extraction {
        locate_output(page, output)
    }
}

/// Trace: `page_words` (size, virtual lines: the page's word tokens per line, the text the output is
/// aligned to); `output` (info: the output's word tokens), `failed` (info: 1 when the crate
/// failed or panicked); `words` (content signal, virtual lines: the page words per line that
/// output words were aligned to); `aligned` (selected, token unit = the aligned blocks, i.e. the
/// runs of consecutive page words the output's words were aligned to, placed by their byte
/// ranges: every block); `matched` (info: aligned words) and `share` (info: `matched / output`,
/// 1 for an empty output).
pub fn locate_output(page: &Page, output: &Output) -> Extraction {
    let pw = PageWords::new(page);
    let located = pw.locate(&output.text);
    let selection = page.normalize(&located.selection);
    let n_lines = page.lines().len();
    let (mut per_line, mut aligned_per_line) = (vec![0.0; n_lines], vec![0.0; n_lines]);
    for k in 0..pw.len() {
        if let Some(l) = per_line.get_mut(pw.word_line(k)) {
            *l += 1.0;
        }
    }
    for k in located.runs.iter().flat_map(|r| r.clone()) {
        if let Some(l) = aligned_per_line.get_mut(pw.word_line(k)) {
            *l += 1.0;
        }
    }
    let blocks = located.runs.len();
    let trace = Trace {
        series: vec![
            Series::new(
                "page_words",
                "page words",
                Unit::VirtualLine,
                Role::Size,
                per_line,
            ),
            Series::new(
                "words",
                "aligned words",
                Unit::VirtualLine,
                Role::ContentSignal,
                aligned_per_line,
            ),
        ],
        scalars: vec![
            Scalar::new(
                OUTPUT,
                "words in the crate's output",
                None,
                Role::Info,
                located.text_words as f64,
            ),
            Scalar::new(
                FAILED,
                "the crate failed (1) or ran (0)",
                None,
                Role::Info,
                f64::from(u8::from(output.failure.is_some())),
            ),
            Scalar::new(
                MATCHED,
                "output words aligned to the page",
                None,
                Role::Info,
                located.matched as f64,
            ),
            Scalar::new(
                SHARE,
                "aligned share of the output words",
                None,
                Role::Info,
                located.share(),
            ),
        ],
        marks: vec![Marks::new(
            ALIGNED,
            "aligned blocks",
            Unit::Token,
            Role::Selected,
            (0..blocks).map(|k| k..k + 1).collect(),
        )],
        positions: vec![Positions {
            unit: Unit::Token,
            ranges: located
                .runs
                .iter()
                .map(|r| pw.run_range(r.start, r.end - 1))
                .collect(),
        }],
    };
    Extraction { selection, trace }
}

/// The alignment figures of a reference extractor's run, read from its trace
/// ([`locate_output`]): (output words, aligned words, share, failed); `None` for a trace of
/// another kind.
pub fn alignment(x: &Extraction) -> Option<(usize, usize, f64, bool)> {
    let t = &x.trace;
    Some((
        t.scalar_of(OUTPUT).ok()? as usize,
        t.scalar_of(MATCHED).ok()? as usize,
        t.scalar_of(SHARE).ok()?,
        t.scalar_of(FAILED).ok()? > 0.0,
    ))
}

impl<C: RefCrate> Algorithm for Reference<C> {
    fn info(&self) -> &AlgoInfo {
        &self.info
    }
}

impl<C: RefCrate> Extractor for Reference<C> {
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        self.locate(page, params, &self.output(page, params))
    }

    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            text_stage: Some(self),
            ..Capabilities::default()
        }
    }

    /// The generic explanation, with the crate's sentence after the location: which crate and
    /// version selected the text, and how much of its output aligned.
    fn explain(
        &self,
        page: &Page,
        x: &Extraction,
        at: Location,
        step: Option<Step>,
    ) -> Vec<String> {
        let mut v = explain_default(self, page, x, at, step);
        if is_whole_run(self.phases(), step) {
            let a = self.krate.about();
            let at = v.len().min(1);
            v.insert(at, summary(a.version, a.licence, x));
        }
        v
    }

    fn warnings(&self, _page: &Page, x: &Extraction) -> Vec<String> {
        match alignment(x) {
            Some((_, _, _, true)) => vec![format!(
                "{} failed on this page (no output, empty selection)",
                self.krate.about().version
            )],
            Some((out, matched, share, false)) if share < MIN_SHARE => vec![format!(
                "only {matched} of {out} output words of {} ({:.1} %) aligned to the page (below {:.0} %): the rest is not page text (alt text, generated separators) or not in page order",
                self.krate.about().version,
                share * 100.0,
                MIN_SHARE * 100.0
            )],
            _ => Vec::new(),
        }
    }
}

/// The explain sentence of a reference extractor's run.
fn summary(version: &str, licence: &str, x: &Extraction) -> String {
    match alignment(x) {
        Some((_, _, _, true)) => {
            format!("{version} ({licence}) failed on this page: no output, nothing selected")
        }
        Some((out, matched, share, false)) => {
            let blocks: usize = match x.trace.get(ALIGNED) {
                Ok(m) => m.spans.iter().map(|r| r.len()).sum(),
                Err(e) => return format!("{version} ({licence}) selected the text; {e}"),
            };
            let low = if share < MIN_SHARE {
                format!(
                    " — below {:.0} %: the rest is not page text or not in page order",
                    MIN_SHARE * 100.0
                )
            } else {
                String::new()
            };
            format!(
                "{version} ({licence}) selected the text: {matched} of its {out} output words ({:.1} %) aligned to the page in {blocks} blocks{low}",
                share * 100.0
            )
        }
        None => format!("{version} ({licence}) selected the text"),
    }
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)]
mod tests {
    use super::*;

    /// A crate stand-in: emits its `text` parameter's words, or fails, or panics.
    struct Fake(&'static str);

    static FAKE: RefInfo = RefInfo {
        name: "fake",
        description: "a test stand-in",
        source: "none",
        version: "fake 1.0",
        licence: "MIT",
        params: &[],
    };

    impl RefCrate for Fake {
        fn about(&self) -> &'static RefInfo {
            &FAKE
        }
        fn extract(&self, _html: &str, _p: &Params) -> std::result::Result<String, String> {
            match self.0 {
                "fail" => Err("no content".into()),
                "panic" => panic!("boom"),
                t => Ok(t.to_string()),
            }
        }
    }

    const PAGE: &str =
        "<html><body><ul><li><a href=/>Home</a></li></ul><article><h1>River rises</h1>\
        <p>Rain fell for three days.</p><figure><img alt=\"A flooded street\"></figure>\
        <p>Residents left.</p></article><footer>Contact</footer></body></html>";

    #[test]
    fn output_is_located_with_its_share_and_warnings() {
        let page = Page::from_text("t.html", PAGE);
        let e = Reference::new(Fake(
            "River rises\nRain fell for three days.\nA flooded street\nResidents left.",
        ));
        let x = e.run(&page, &Params::default());
        assert!(page.is_normal(&x.selection));
        assert_eq!(
            page.render(&x.selection),
            "River rises\nRain fell for three days.\nResidents left."
        );
        x.trace.validate(&page).unwrap();
        // 12 output words, the 3 alt-text words are not page text: 9 aligned (75 %).
        assert_eq!(alignment(&x), Some((12, 9, 0.75, false)));
        let w = e.warnings(&page, &x);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].contains("only 9 of 12") && w[0].contains("fake 1.0"),
            "{w:?}"
        );
        let ex = e.explain(&page, &x, Location::Byte(PAGE.find("Rain").unwrap()), None);
        assert!(
            ex[1].contains("fake 1.0 (MIT) selected the text: 9 of its 12 output words (75.0 %)"),
            "{ex:?}"
        );
        // Everything aligned: no warning, one block.
        let ok = Reference::new(Fake("Rain fell for three days."));
        let x = ok.run(&page, &Params::default());
        assert!(ok.warnings(&page, &x).is_empty());
        let words = &x.trace.series("words").unwrap().values;
        assert_eq!(words.iter().sum::<f64>(), 5.0);
        assert_eq!(x.trace.marks("aligned").unwrap().spans, [0..1]);
        // One mark per block, so what lies between two blocks is not marked as selected.
        let two = Reference::new(Fake("River rises. Residents left."));
        let x = two.run(&page, &Params::default());
        assert_eq!(x.trace.marks("aligned").unwrap().spans, [0..1, 1..2]);
    }

    #[test]
    fn pages_nested_past_the_cap_are_not_given_to_the_crate() {
        // The stand-in would align its words; on a page nested past the cap it is not run.
        let e = Reference::new(Fake("deep text"));
        let shallow = Page::from_text("s.html", "<div><div><p>deep text</p></div></div>");
        assert!(e.output(&shallow, &Params::default()).failure.is_none());
        let n = MAX_DEPTH + 10;
        let html = format!(
            "{}<p>deep text</p>{}",
            "<div>".repeat(n),
            "</div>".repeat(n)
        );
        let page = Page::from_text("d.html", html);
        let out = e.output(&page, &Params::default());
        assert!(out.text.is_empty());
        assert!(out.failure.unwrap().contains("not run"));
    }

    #[test]
    fn a_failing_or_panicking_crate_selects_nothing() {
        let page = Page::from_text("t.html", PAGE);
        for mode in ["fail", "panic"] {
            let e = Reference::new(Fake(mode));
            let out = e.output(&page, &Params::default());
            assert!(out.text.is_empty());
            assert!(out.failure.is_some(), "{mode}");
            let x = e.run(&page, &Params::default());
            assert!(x.selection.is_empty());
            assert_eq!(alignment(&x).map(|a| a.3), Some(true));
            assert!(e.warnings(&page, &x)[0].contains("failed"), "{mode}");
            x.trace.validate(&page).unwrap();
        }
    }
}
