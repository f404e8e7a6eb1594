//! Language detection, stop words and stemming for the language-dependent algorithms (the
//! stop-word filter of Gottron 2009, section 5.3; TitleFinder's preprocessing, Mohammadzadeh
//! 2013, 5.3.1). None of it is cescope's own: detection is `whatlang` (trigram model, 69
//! languages), stop words are the Stopwords ISO lists of the `stop-words` crate, stemming is
//! Snowball through `rust-stemmers`; ISO 639-3 → 639-1 codes go through `isolang`.
//!
//! Words are compared in the form [`crate::metrics::words`] gives them (lower-cased, split on
//! punctuation), so callers tokenise with that one tokeniser and look the tokens up here.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use rust_stemmers::{Algorithm, Stemmer};

/// A detected language.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Detected {
    /// ISO 639-1 code (`"en"`, `"de"`), or the ISO 639-3 code when the language has no
    /// two-letter code (whatlang's `"cmn"` for Mandarin becomes `"zh"`).
    pub code: &'static str,
    /// English name (`"English"`).
    pub name: &'static str,
    /// whatlang's confidence in `0.0..=1.0`.
    pub confidence: f64,
    /// whatlang's reliability flag (enough text and a clear winner).
    pub reliable: bool,
}

/// Detects the language of `text` (plain text, not HTML). `None` when whatlang cannot tell
/// (empty or too little text, or no letters). O(len).
pub fn detect(text: &str) -> Option<Detected> {
    let info = whatlang::detect(text)?;
    let lang = info.lang();
    Some(Detected {
        code: iso639_1(lang.code()),
        name: lang.eng_name(),
        confidence: info.confidence(),
        reliable: info.is_reliable(),
    })
}

/// ISO 639-3 → 639-1 where one exists, else the 639-3 code itself.
fn iso639_1(code3: &'static str) -> &'static str {
    if code3 == "cmn" {
        return "zh";
    }
    isolang::Language::from_639_3(code3)
        .and_then(|l| l.to_639_1())
        .unwrap_or(code3)
}

/// The stop words of a language (ISO 639-1 code), lower-cased, as a set; `None` when the
/// `stop-words` crate has no list for it. Each set is built once per process and shared.
pub fn stop_words(code: &str) -> Option<Arc<HashSet<String>>> {
    type Sets = HashMap<String, Option<Arc<HashSet<String>>>>;
    static CACHE: OnceLock<Mutex<Sets>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(hit) = map.get(code) {
        return hit.clone();
    }
    let set = stop_words::lookup(code).map(|list| {
        Arc::new(
            list.iter()
                .map(|w| w.to_lowercase())
                .collect::<HashSet<String>>(),
        )
    });
    map.insert(code.to_string(), set.clone());
    set
}

/// A Snowball stemmer for a language (ISO 639-1 code); `None` for languages Snowball does not
/// cover in `rust-stemmers` (ar da nl en fi fr de el hu it no pt ro ru es sv ta tr).
pub fn stemmer(code: &str) -> Option<Stemmer> {
    let algo = match code {
        "ar" => Algorithm::Arabic,
        "da" => Algorithm::Danish,
        "nl" => Algorithm::Dutch,
        "en" => Algorithm::English,
        "fi" => Algorithm::Finnish,
        "fr" => Algorithm::French,
        "de" => Algorithm::German,
        "el" => Algorithm::Greek,
        "hu" => Algorithm::Hungarian,
        "it" => Algorithm::Italian,
        "no" | "nb" | "nn" => Algorithm::Norwegian,
        "pt" => Algorithm::Portuguese,
        "ro" => Algorithm::Romanian,
        "ru" => Algorithm::Russian,
        "es" => Algorithm::Spanish,
        "sv" => Algorithm::Swedish,
        "ta" => Algorithm::Tamil,
        "tr" => Algorithm::Turkish,
        _ => return None,
    };
    Some(Stemmer::create(algo))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_english_and_german() {
        let en = detect("The quick brown fox jumps over the lazy dog and runs into the forest while the farmer watches.").unwrap();
        assert_eq!(en.code, "en");
        let de = detect("Der schnelle braune Fuchs springt über den faulen Hund und läuft in den Wald, während der Bauer zusieht.").unwrap();
        assert_eq!(de.code, "de");
        assert!(detect("").is_none());
        assert!(detect("1234 ... !!").is_none());
    }

    #[test]
    fn stop_words_are_lower_case_sets() {
        let en = stop_words("en").unwrap();
        assert!(en.contains("the") && en.contains("and"));
        assert!(!en.contains("forest"));
        assert!(stop_words("de").unwrap().contains("und"));
        assert!(stop_words("it").unwrap().contains("della"));
        assert!(stop_words("xx").is_none());
        // Cached: the same set twice.
        assert!(Arc::ptr_eq(&en, &stop_words("en").unwrap()));
    }

    #[test]
    fn stems_by_language() {
        let s = stemmer("en").unwrap();
        assert_eq!(s.stem("running"), "run");
        assert!(stemmer("zh").is_none());
        assert_eq!(iso639_1("eng"), "en");
        assert_eq!(iso639_1("cmn"), "zh");
    }
}
