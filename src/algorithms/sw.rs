//! `sw` — the stop-word filter (SW) of Gottron (2009), section 5.3, with the published
//! thresholds of its section 5.4 and Table 2 (t_EN 0.3, t_DE 0.25, t_IT 0.4).
//!
//! "A stopword filter analyses the blocks of an HTML document for the amount of contained stop
//! words […]. If the ratio of stop words is above a certain threshold t, SW considers the entire
//! block to contain well formed language and accordingly to be part of the main content." The
//! threshold depends on the language of the document, so the filter first recognises the
//! language and then judges every block against that language's threshold.
//!
//! How cescope reads it:
//! - **Blocks** are the DOM's block-level elements ([`crate::page::dom::Dom::is_block`]), each
//!   with its *own* text — nested blocks excluded — exactly as the Link Quota Filter counts them
//!   (the owner table [`super::lqf::block_owners`], Mohammadzadeh 2013, Algorithm 3). Text in
//!   `<head>` (the `title`) and text the DOM marks as not shown (scripts, styles, …) is never
//!   main content.
//! - **Words** are [`crate::metrics::words`] of the block's own text (the one tokeniser);
//!   **stop words** are those in [`crate::lang::stop_words`] of the language (the Stopwords ISO
//!   list of the `stop-words` crate). The **ratio** of a block is `stop words / words`; a block
//!   with `ratio > t` is kept, every other block (also one without words) is dropped.
//! - **Language** ([`LANG_SPEC`]): `auto` detects it with [`crate::lang::detect`] (whatlang) on
//!   the words of the page (one space apart), taken from the blocks with most words first, up to
//!   [`DETECT_SAMPLE`] bytes (long blocks are sentences; menus would only add noise and time); or a
//!   fixed ISO 639-1 code. Gottron's filter recognised English, German and Italian only; cescope
//!   covers every language that whatlang detects and the `stop-words` crate has a list for
//!   ([`LANGUAGES`]). English, German and Italian use their published thresholds; every other
//!   language uses `t_other` ([`T_OTHER_SPEC`], default 0.3 = t_EN, the only choice the paper
//!   offers no evidence against — tune it per corpus with `cescope optimize`).
//! - Chinese, Japanese and Thai are not filtered: the shared tokeniser gives one token per run of
//!   letters in scripts without spaces, so a stop-word ratio means nothing there (the paper's
//!   footnote 3: "for some languages, SW filters are actually impossible to use"). For these, for
//!   a page whose language cannot be detected, and for a detected language without a stop-word
//!   list, the parameter `fallback` ([`FALLBACK_SPEC`]) decides: `keep` (default: the filter
//!   abstains and keeps every block with text) or `drop` (nothing is main content).
//! - whatlang's Norwegian Bokmål (`nb`) uses the Norwegian list (`no`) and its Iranian Persian
//!   (`pes`) the Persian list (`fa`).
//!
//! Note: the Stopwords ISO lists are long (English 1298 words, including "home", "page", "help",
//! "next"), so ratios run higher than with a classic short list; the thresholds stay as published.
//!
//! Cost: one O(nodes + text) pass for the own texts, one tokenisation of the shown text, one
//! language detection over at most [`DETECT_SAMPLE`] bytes.

use super::lqf::block_owners;
use crate::extract::explain::{self as ex, TextLine};
use crate::extract::trace::{
    runs, Agg, Key, Marks, Missing, Phase, Positions, Role, Scalar, Series,
};
use crate::extract::trace::{Trace, Unit};
use crate::extract::{AlgoInfo, Choice, StaticInfo};
use crate::extract::{Extraction, Extractor, ParamKind, ParamSpec, ParamType, ParamValue, Params};
use crate::lang;
use crate::page::dom::{Dom, NodeKind};
use crate::page::lex::Tag;
use crate::page::Page;
use crate::selection::Selection;
use std::borrow::Cow;

/// The languages `sw` can filter (ISO 639-1): detectable by whatlang and with a Stopwords ISO
/// list, English, German and Italian (Gottron 2009) first. The `lang` parameter offers `auto`
/// and these.
pub const LANGUAGES: &[&str] = &[
    "en", "de", "it", "af", "ar", "bg", "bn", "ca", "cs", "da", "el", "eo", "es", "et", "fa", "fi",
    "fr", "gu", "he", "hi", "hr", "hu", "hy", "id", "ko", "la", "lt", "lv", "mr", "nl", "no", "pl",
    "pt", "ro", "ru", "sk", "sl", "sv", "tl", "tr", "uk", "ur", "vi", "zu",
];

const LANG_CHOICES: &[&str] = &[
    "auto", "en", "de", "it", "af", "ar", "bg", "bn", "ca", "cs", "da", "el", "eo", "es", "et",
    "fa", "fi", "fr", "gu", "he", "hi", "hr", "hu", "hy", "id", "ko", "la", "lt", "lv", "mr", "nl",
    "no", "pl", "pt", "ro", "ru", "sk", "sl", "sv", "tl", "tr", "uk", "ur", "vi", "zu",
];

/// Languages whose words the shared tokeniser cannot separate (no spaces between words): never
/// filtered, see the module documentation.
const UNSEGMENTED: &[&str] = &["zh", "ja", "th"];

/// At most this many bytes of block text (the blocks with most words first) go to language
/// detection. Unit: bytes.
pub const DETECT_SAMPLE: usize = 4 * 1024;

/// t_EN: the stop-word ratio an English block must exceed (Gottron 2009, 5.4: 0.3).
pub const T_EN_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("t_en"),
    kind: ParamKind::Float {
        min: 0.0,
        max: 1.0,
        step: 0.01,
    },
    default: ParamValue::Float(0.3),
    help: "an English block is main content if its stop-word ratio exceeds t_en",
    source: "Gottron 2009, 5.3-5.4 and Table 2 (t_EN = 0.3; GA best 0.31)",
};

/// t_DE: the threshold for German (Gottron 2009, 5.4: 0.25).
pub const T_DE_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("t_de"),
    kind: ParamKind::Float {
        min: 0.0,
        max: 1.0,
        step: 0.01,
    },
    default: ParamValue::Float(0.25),
    help: "a German block is main content if its stop-word ratio exceeds t_de",
    source: "Gottron 2009, 5.3-5.4 and Table 2 (t_DE = 0.25; GA best 0.32)",
};

/// t_IT: the threshold for Italian (Gottron 2009, 5.4: 0.4).
pub const T_IT_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("t_it"),
    kind: ParamKind::Float {
        min: 0.0,
        max: 1.0,
        step: 0.01,
    },
    default: ParamValue::Float(0.4),
    help: "an Italian block is main content if its stop-word ratio exceeds t_it",
    source: "Gottron 2009, 5.3-5.4 and Table 2 (t_IT = 0.4; GA best 0.38)",
};

/// t_other: the threshold for every other language (cescope's extension; 0.3 = t_EN).
pub const T_OTHER_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("t_other"),
    kind: ParamKind::Float {
        min: 0.0,
        max: 1.0,
        step: 0.01,
    },
    default: ParamValue::Float(0.3),
    help: "threshold for languages other than en, de, it (0.3 = t_en)",
    source: "cescope's extension of Gottron 2009, 5.3 (the paper covers en, de, it only)",
};

/// The language of the page: `auto` (detected) or an ISO 639-1 code of [`LANGUAGES`].
pub const LANG_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("lang"),
    kind: ParamKind::Choice {
        choices: LANG_CHOICES,
    },
    default: ParamValue::choice("auto"),
    help: "auto: detect the page's language (whatlang); or force an ISO 639-1 code",
    source: "Gottron 2009, 5.3 (the filter recognises the document's language)",
};

/// What happens when no stop-word list applies (language unknown, not covered, or written
/// without spaces).
pub const FALLBACK_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("fallback"),
    kind: ParamKind::Choice {
        choices: <Fallback as Choice>::NAMES,
    },
    default: ParamValue::choice("keep"),
    help: "without a usable stop-word list: keep every block with text, or drop everything",
    source: "cescope's choice (Gottron 2009, 5.3 footnote 3: some languages cannot be filtered)",
};

crate::choice_enum! {
    /// What happens when no stop-word list applies ([`FALLBACK_SPEC`]).
    pub enum Fallback {
        /// Keep every block with text.
        Keep = "keep",
        /// Drop everything.
        Drop = "drop",
    }
}

crate::typed_params! {
    /// The stop-word filter's parameters (Gottron 2009, 5.3).
    pub struct SwParams {
        /// Threshold for English.
        pub t_en: f64 = T_EN_SPEC,
        /// Threshold for German.
        pub t_de: f64 = T_DE_SPEC,
        /// Threshold for Italian.
        pub t_it: f64 = T_IT_SPEC,
        /// Threshold for other languages.
        pub t_other: f64 = T_OTHER_SPEC,
        /// The language: `auto` or a code of [`LANG_CHOICES`].
        pub lang: LangChoice = LANG_SPEC,
        /// Whether to keep or drop everything without a usable stop-word list.
        pub fallback: Fallback = FALLBACK_SPEC,
    }
}

/// The stop-word filter.
#[derive(Debug, Clone, Default)]
pub struct Sw;

/// The own text of every block, nested blocks excluded, text in `<head>` and non-shown text left
/// out: `(blocks, texts, owner)` with `texts[k]` the text nodes of block `k` joined by a space and
/// `owner` as [`block_owners`]; `text` is the text `dom` was parsed from. The space keeps words
/// apart where the source had a break the tree does not show (a stray end tag between two links
/// or inside one text node, whose source pieces are joined by a space too), so the words do not
/// depend on the source layout; a word split by inline markup (`<b>T</b>he`) counts as two.
/// O(nodes + text).
pub fn block_texts(dom: &Dom, text: &str) -> (Vec<usize>, Vec<String>, Vec<usize>) {
    let (blocks, owner) = block_owners(dom);
    let mut texts = vec![String::new(); blocks.len()];
    let heads: Vec<std::ops::Range<usize>> = dom
        .elements()
        .filter(|&(id, _)| dom.tag(id) == Tag::Head)
        .map(|(id, _)| dom.subtree(id))
        .collect();
    for (id, _) in dom.text_nodes() {
        let k = owner[id];
        if k == usize::MAX || dom.is_non_text(id) || heads.iter().any(|h| h.contains(&id)) {
            continue;
        }
        let out = &mut texts[k];
        let spans = dom.spans(id);
        if spans.len() > 1 {
            // The parser merged character data from several source places (across a stray end
            // tag): keep the places apart, as the virtual lines do.
            for r in spans {
                out.push(' ');
                out.push_str(&htmlize::unescape(&text[r.clone()]));
            }
        } else if let Some(s) = dom.node_text(id) {
            out.push(' ');
            out.push_str(s);
        }
    }
    (blocks, texts, owner)
}

/// The language a run uses: its code (ISO 639-1), its stop words (when usable) and how it was
/// found.
struct Language {
    code: Option<&'static str>,
    name: &'static str,
    confidence: f64,
    stops: Option<std::sync::Arc<std::collections::HashSet<String>>>,
}

fn list_code(code: &'static str) -> &'static str {
    match code {
        "nb" | "nn" => "no",
        "pes" => "fa",
        c => c,
    }
}

fn language(choice: &'static str, tokens: &[Vec<String>]) -> Language {
    let (code, name, confidence) = if choice == "auto" {
        // The words of the blocks with most words first, one space apart, up to DETECT_SAMPLE
        // bytes (words, not the raw text, so source white space cannot change the result).
        let mut order: Vec<usize> = (0..tokens.len())
            .filter(|&k| !tokens[k].is_empty())
            .collect();
        order.sort_by_key(|&k| std::cmp::Reverse(tokens[k].len()));
        let mut sample = String::new();
        'fill: for k in order {
            for w in &tokens[k] {
                if sample.len() >= DETECT_SAMPLE {
                    break 'fill;
                }
                sample.push_str(w);
                sample.push(' ');
            }
        }
        match lang::detect(&sample) {
            Some(d) => (Some(list_code(d.code)), d.name, d.confidence),
            None => (None, "unknown", 0.0),
        }
    } else {
        (Some(choice), choice, 1.0)
    };
    let stops = code
        .filter(|c| !UNSEGMENTED.contains(c))
        .and_then(lang::stop_words);
    Language {
        code,
        name,
        confidence,
        stops,
    }
}

impl SwParams {
    /// The threshold for the language `code`, with its parameter's name.
    fn threshold(&self, code: Option<&str>) -> (f64, &'static str) {
        match code {
            Some("en") => (self.t_en, "t_en"),
            Some("de") => (self.t_de, "t_de"),
            Some("it") => (self.t_it, "t_it"),
            _ => (self.t_other, "t_other"),
        }
    }
}

/// The `lang` parameter's value ([`LANG_SPEC`]): `auto` or an ISO 639-1 code of
/// [`LANG_CHOICES`] (a choice among many codes, so a name rather than an enum).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LangChoice(pub &'static str);

impl ParamType for LangChoice {
    fn from_value(v: &ParamValue) -> Option<Self> {
        match v {
            ParamValue::Choice(c) => LANG_CHOICES
                .iter()
                .find(|k| k.eq_ignore_ascii_case(c))
                .map(|k| LangChoice(k)),
            _ => None,
        }
    }
    fn fallback() -> Self {
        LangChoice("auto")
    }
}

/// The trace items SW reads back in its explanation: built and read by
/// these [`Key`]s.
const WORDS: Key<Series> = Key::new("words");
const STOP: Key<Series> = Key::new("stop");
const T: Key<Scalar> = Key::new("t");
const FILTERED: Key<Scalar> = Key::new("filtered");
const KEPT: Key<Marks> = Key::new("kept");

const PHASES: &[Phase] = &[
    Phase::new(
        "blocks",
        "each block element's own words, nested blocks excluded",
        &["words", "blocks"],
    ),
    Phase::new(
        "language",
        "the page's language (detected or set) chooses the stop-word list and the threshold t",
        &["t", "confidence", "filtered"],
    ),
    Phase::new(
        "stop words",
        "stop words per block and the ratio stop words / words, against t (Gottron 2009, 5.3)",
        &["stop", "ratio"],
    ),
    Phase::new(
        "selection",
        "blocks whose ratio exceeds t are main content",
        &["kept"],
    ),
];

static INFO: AlgoInfo = AlgoInfo::new(
    "sw",
    "Stop-word filter: keep DOM blocks whose stop-word ratio exceeds the language's threshold (Gottron 2009, 5.3)",
    "Gottron 2009, 5.3",
    SwParams::SPECS,
    PHASES,
).with_dom();

impl StaticInfo for Sw {
    const INFO: &'static AlgoInfo = &INFO;
}

impl Extractor for Sw {
    /// Trace (node unit = the page's block elements in document order; positions = each block's
    /// outer byte extent): `words` (size, words of the block's own text), `stop` (content signal,
    /// its stop words), `ratio` (combined signal, stop / words, 0 without words; maximum per
    /// line), `t` (threshold; its label names the language, e.g. "t_en (English)"), `confidence`
    /// (info, whatlang's confidence; 1 for a forced language, 0 when undetected), `filtered`
    /// (info, 1 when a stop-word list applied, 0 when `fallback` decided), `blocks` (candidates:
    /// blocks with words), `kept` (selected).
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let dom = page.dom();
        let (blocks, texts, owner) = block_texts(dom, page.text());
        let nb = blocks.len();
        let tokens: Vec<Vec<String>> = texts.iter().map(|t| crate::metrics::words(t)).collect();
        let counts: Vec<usize> = tokens.iter().map(Vec::len).collect();
        let p = SwParams::read(params);
        let lang = language(p.lang.0, &tokens);
        let (t, t_name) = p.threshold(lang.code);
        let keep_all = p.fallback == Fallback::Keep;
        let stop: Vec<usize> = match &lang.stops {
            Some(set) => tokens
                .iter()
                .map(|ws| ws.iter().filter(|w| set.contains(w.as_str())).count())
                .collect(),
            None => vec![0; nb],
        };
        let ratio: Vec<f64> = (0..nb)
            .map(|k| {
                if counts[k] == 0 {
                    0.0
                } else {
                    stop[k] as f64 / counts[k] as f64
                }
            })
            .collect();
        let kept: Vec<bool> = (0..nb)
            .map(|k| {
                counts[k] > 0
                    && match &lang.stops {
                        Some(_) => ratio[k] > t,
                        None => keep_all,
                    }
            })
            .collect();

        let mut sel = Vec::new();
        for (id, _) in dom.text_nodes() {
            let k = owner[id];
            if k != usize::MAX && kept[k] && dom.kind(id) == NodeKind::Text && !dom.is_non_text(id)
            {
                sel.extend(dom.spans(id).iter().cloned());
            }
        }
        let selection = page.normalize(&Selection::from_ranges(sel));

        let runs_of = |pred: &dyn Fn(usize) -> bool| runs((0..nb).filter(|&k| pred(k)));
        let positions = blocks
            .iter()
            .map(|&id| dom.hull(id).unwrap_or(0..0))
            .collect();
        let t_label = match lang.code {
            Some(c) => format!("threshold {t_name} ({}, {c})", lang.name),
            None => format!("threshold {t_name} (language unknown)"),
        };
        let trace = Trace {
            series: vec![
                Series::new(
                    WORDS,
                    "words (own text, nested blocks excluded)",
                    Unit::Node,
                    Role::Size,
                    counts.iter().map(|&x| x as f64).collect(),
                ),
                Series::new(
                    STOP,
                    "stop words",
                    Unit::Node,
                    Role::ContentSignal,
                    stop.iter().map(|&x| x as f64).collect(),
                ),
                Series::new(
                    "ratio",
                    "stop-word ratio",
                    Unit::Node,
                    Role::CombinedSignal,
                    ratio,
                )
                .with_agg(Agg::Max),
            ],
            scalars: vec![
                Scalar::new(T, t_label, None, Role::Threshold, t),
                Scalar::new(
                    "confidence",
                    format!("language {} confidence", lang.name),
                    None,
                    Role::Info,
                    lang.confidence,
                ),
                Scalar::new(
                    FILTERED,
                    "stop-word list applied (1) or fallback (0)",
                    None,
                    Role::Info,
                    if lang.stops.is_some() { 1.0 } else { 0.0 },
                ),
            ],
            marks: vec![
                Marks::new(
                    "blocks",
                    "blocks with words",
                    Unit::Node,
                    Role::Candidates,
                    runs_of(&|k| counts[k] > 0),
                ),
                Marks::new(
                    KEPT,
                    "kept blocks (ratio > t)",
                    Unit::Node,
                    Role::Selected,
                    runs_of(&|k| kept[k]),
                ),
            ],
            positions: vec![Positions {
                unit: Unit::Node,
                ranges: positions,
            }],
        };
        Extraction { selection, trace }
    }

    /// On a line of text (the whole run): the block whose own words it holds (the element the
    /// line's bar shows) and the decisive comparison of Gottron 2009, 5.3, `stop-word ratio 9
    /// / 20 = 0.45 > t_en 0.30 (English, en) → main content`, or the fallback when the page's
    /// language has no usable stop-word list; and what hides the block. Elsewhere, and in step
    /// mode before the last phase, [`crate::extract::explain_default`].
    fn explain_text_line(&self, page: &Page, trace: &Trace, line: &TextLine) -> Vec<String> {
        ex::or_missing(explain_line(page, trace, line))
    }
}

/// [`Sw::explain_text_line`]'s sentences, reading the trace through its typed keys. Errors:
/// [`Missing`] when the trace lacks an item it reads.
fn explain_line(page: &Page, trace: &Trace, line: &TextLine) -> Result<Vec<String>, Missing> {
    let Some(k) = line.element() else {
        return Ok(ex::sentences(
            page,
            line,
            "its text lies in no block element: never main content for SW".into(),
            Vec::new(),
        ));
    };
    let words = ex::value(trace, WORDS, k)?;
    let stop = ex::value(trace, STOP, k)?;
    let t = trace.scalar_of(T)?;
    // The threshold's label names its parameter and the language: "threshold t_en (English, en)".
    let t_name = trace.get(T)?.label.trim_start_matches("threshold ");
    let (t_param, t_lang) = t_name.split_once(' ').unwrap_or((t_name, ""));
    let t_is = format!("{t_param} {} {t_lang}", ex::num(t));
    let t_is = t_is.trim_end();
    let kept = ex::marked(trace, KEPT, k)?;
    let first = format!(
        "own words of the block {} ({}; nested blocks excluded): {} stop words of {}",
        ex::element_name(page, trace, k, line),
        ex::element_lines(page, trace, k),
        ex::num(stop),
        ex::num(words)
    );
    let cite = "(Gottron 2009, 5.3)";
    let decision = if trace.scalar_of(FILTERED)? == 0.0 {
        format!(
            "no stop-word list for the page's language ({t_name}): the fallback {} every block \
             with words {cite}",
            if kept { "keeps" } else { "drops" }
        )
    } else if words == 0.0 {
        format!("no words of its own → not main content {cite}")
    } else {
        let ratio = format!(
            "stop-word ratio {} / {} = {}",
            ex::num(stop),
            ex::num(words),
            ex::num(stop / words)
        );
        if kept {
            format!("{ratio} > {t_is} → main content {cite}")
        } else {
            format!("{ratio} ≤ {t_is} → not main content {cite}")
        }
    };
    Ok(ex::sentences(page, line, first, vec![decision]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Algorithm;

    /// A stop-word-rich paragraph and a stop-word-poor menu (checked against the Stopwords ISO
    /// English list by `stop_list_as_assumed`).
    const PAGE: &str = "<html><head><title>The title of it</title></head><body>\
        <div id=nav><a href=/s>Sports</a> <a href=/w>Weather</a> <a href=/p>Politics</a> <a href=/g>Gardening</a></div>\
        <p>The cat sat on the mat and it was happy with the sun.</p>\
        </body></html>";

    fn run_with(html: &str, set: &[&str]) -> (Page, Extraction) {
        let p = Page::from_text("t.html", html);
        let sw = Sw;
        let mut params = Params::defaults(sw.params());
        for a in set {
            params.set_str(sw.params(), a).unwrap();
        }
        let x = sw.run(&p, &params);
        x.trace.validate(&p).unwrap();
        assert!(p.is_normal(&x.selection));
        (p, x)
    }

    #[test]
    fn stop_list_as_assumed() {
        let en = lang::stop_words("en").unwrap();
        for w in ["the", "on", "and", "it", "was", "with"] {
            assert!(en.contains(w), "{w}");
        }
        for w in [
            "cat",
            "sat",
            "mat",
            "happy",
            "sun",
            "sports",
            "weather",
            "politics",
            "gardening",
        ] {
            assert!(!en.contains(w), "{w}");
        }
    }

    /// The paragraph: 13 words (the cat sat on the mat and it was happy with the sun), 8 stop
    /// words (the ×3, on, and, it, was, with): ratio 8/13 ≈ 0.615 > t_en = 0.3, kept. The menu:
    /// 4 words, none a stop word: ratio 0, dropped. The title is in `<head>`: never content.
    #[test]
    fn keeps_sentences_drops_menu() {
        let (p, x) = run_with(PAGE, &[]);
        assert_eq!(
            p.render(&x.selection),
            "The cat sat on the mat and it was happy with the sun."
        );
        let ratio = &x.trace.series("ratio").unwrap().values;
        let words = &x.trace.series("words").unwrap().values;
        let stop = &x.trace.series("stop").unwrap().values;
        let para = words.iter().position(|&w| w == 13.0).unwrap();
        assert_eq!(stop[para], 8.0);
        assert!((ratio[para] - 8.0 / 13.0).abs() < 1e-12);
        let menu = words.iter().position(|&w| w == 4.0).unwrap();
        assert_eq!((stop[menu], ratio[menu]), (0.0, 0.0));
        assert_eq!(x.trace.scalar("t"), Some(0.3));
        assert_eq!(x.trace.scalar("filtered"), Some(1.0));
        let t = x.trace.scalars.iter().find(|s| s.key == "t").unwrap();
        assert!(t.label.contains("English"), "{}", t.label);
    }

    /// The threshold is strict: at t_en = 8/13 the paragraph's ratio is not above it; just below,
    /// it is.
    #[test]
    fn threshold_is_strict() {
        let exact = format!("t_en={}", 8.0 / 13.0); // Display round-trips an f64 exactly
        let (p, x) = run_with(PAGE, &[exact.as_str()]);
        assert_eq!(p.render(&x.selection), "");
        let (p, x) = run_with(PAGE, &["t_en=0.61"]);
        assert!(p.render(&x.selection).starts_with("The cat"));
    }

    /// Forcing German: the threshold used is t_de whatever t_en says; no ratio exceeds
    /// t_de = 1, so nothing is kept.
    #[test]
    fn forced_language_uses_its_threshold() {
        let (_, x) = run_with(PAGE, &["lang=de", "t_de=1", "t_en=0"]);
        assert_eq!(x.trace.scalar("t"), Some(1.0));
        assert!(x.selection.is_empty());
        assert_eq!(x.trace.scalar("confidence"), Some(1.0));
    }

    /// A German page is detected as German and judged with t_de = 0.25: the paragraph has 19
    /// words, at least 9 of them German stop words (der, über, die ×3, und ×2, er, war, sehr):
    /// ratio ≥ 9/19 ≈ 0.47 > 0.25; the menu item (Fußball Wetter Politik) has none.
    #[test]
    fn german_page() {
        let de = lang::stop_words("de").unwrap();
        for w in ["der", "über", "die", "und", "er", "war", "sehr"] {
            assert!(de.contains(w), "{w}");
        }
        for w in [
            "hund", "lief", "wiese", "froh", "fußball", "wetter", "politik",
        ] {
            assert!(!de.contains(w), "{w}");
        }
        let html = "<body><ul><li>Fußball Wetter Politik</li></ul>\
            <p>Der Hund lief über die Wiese und er war sehr froh, als die Sonne schien und die Vögel sangen.</p></body>";
        let (p, x) = run_with(html, &[]);
        assert_eq!(x.trace.scalar("t"), Some(0.25));
        let text = p.render(&x.selection);
        assert!(text.starts_with("Der Hund lief"), "{text}");
        assert!(!text.contains("Fußball"), "{text}");
    }

    /// No detectable language (digits only): `fallback=keep` keeps every block with words,
    /// `fallback=drop` nothing.
    #[test]
    fn fallback_without_language() {
        let html = "<body><p>1234 5678</p><div>42</div></body>";
        let (p, x) = run_with(html, &[]);
        assert_eq!(x.trace.scalar("filtered"), Some(0.0));
        assert_eq!(p.render(&x.selection), "1234 5678\n42");
        let (_, x) = run_with(html, &["fallback=drop"]);
        assert!(x.selection.is_empty());
    }

    /// Own text only: the outer div's own words are judged apart from its nested paragraph.
    #[test]
    fn nested_blocks_are_judged_apart() {
        let html = "<body><div>Sports Weather <p>It was the end of it all and the sun was gone.</p></div></body>";
        let (p, x) = run_with(html, &["lang=en"]);
        assert_eq!(
            p.render(&x.selection),
            "It was the end of it all and the sun was gone."
        );
    }

    /// Explain on text lines gives the block's stop-word ratio against the language's
    /// threshold (the counts of `keeps_sentences_drops_menu`): 8 / 13 ≈ 0.62 > t_en 0.3, kept;
    /// the menu's 0 / 4 = 0, dropped.
    #[test]
    fn explain_gives_the_stop_word_ratio_against_t() {
        let (p, x) = run_with(PAGE, &[]);
        let explain = |s: &str| ex::explain_at(&Sw, &p, &x, s);
        let para = explain("The cat");
        assert!(para.contains("block <p>"), "{para}");
        assert!(
            para.contains(
                "stop-word ratio 8 / 13 = 0.62 > t_en 0.30 (English, en) → main content \
                 (Gottron 2009, 5.3)"
            ),
            "{para}"
        );
        let menu = explain("Sports");
        assert!(menu.contains("block <div#nav>"), "{menu}");
        assert!(
            menu.contains("stop-word ratio 0 / 4 = 0 ≤ t_en 0.30 (English, en) → not main content"),
            "{menu}"
        );
    }
}
