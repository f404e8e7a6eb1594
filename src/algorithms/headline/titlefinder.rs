//! TitleFinder (Mohammadzadeh 2013, chapter 5, section 5.3): the text of the `title` element is a
//! query against the page's text fragments ("sentences"); the most similar sentence is the
//! headline.
//!
//! Steps, as in the thesis:
//! 1. **Preprocessing (5.3.1).** JavaScript, CSS, comments and meta tags are not text nodes of
//!    the positioned DOM ([`crate::page::dom`]), so they never reach the vector space; white space
//!    is normalised; single and double quotes (ASCII and typographic: `' " ‘ ’ “ ”`), commas and
//!    colons are deleted before tokenising (so `don't` is the one term `dont`). Words come from
//!    the one tokeniser, [`crate::metrics::words`] (lower-cased `\w+` runs). The thesis' 5.3.1
//!    removes no stop words and stems nothing, so by default neither happens; `stop_words=true`
//!    removes the Stopwords ISO list of the page's language and `stemming=true` applies its
//!    Snowball stemmer ([`crate::lang`], language detected by whatlang on the sentences' text).
//!    On the shared corpora both lower the exact-match F1 of every variant (docs/headlines.md).
//! 2. **Sentences and vector space (5.3.2, Formula 5.1).** A sentence is a text node of the
//!    DOM's `body` (text in `<head>`, i.e. the `title` itself, is not a candidate) holding at
//!    least one word; with `fragment=inline` (cescope's option, not the thesis'), consecutive
//!    text nodes with no block-element boundary between them form one sentence, so
//!    `<h1>Rain <em>again</em></h1>` is one candidate. `V` is the set of distinct terms of all
//!    sentences; a sentence is the vector of its term weights over `V`.
//! 3. **Similarity (5.3.3).** Query `q` = the terms of the first `title` element's text; query
//!    terms outside `V` have no coordinate and are dropped. With `tf_{t,x}` the count of term `t`
//!    in `x` and, for tf-idf, `idf_t = ln(N / df_t)` where **a document is a sentence**: `N` is
//!    the number of sentences of the page and `df_t` the number of sentences containing `t`:
//!    - `tf`: `cos(q, s)` over tf weights;
//!    - `tfidf`: `cos(q, s)` over tf-idf weights `tf_{t,x} · idf_t`;
//!    - `osm` (Formula 5.2): `Σ_{t∈q} w_{t,q} · w_{t,s}` with `w_{t,q} = tf_{t,q} · idf_t` and
//!      `w_{t,s} = tf_{t,s} / ‖tf_s‖₂` (tf with Euclidean normalisation);
//!    - `aggregate` (Formula 5.3): `cos_tf + cos_tfidf + osm`.
//!
//!    A cosine with a zero vector is 0.
//! 4. **Ranking.** Sentences with a score above 0, best first; ties go to the earlier sentence
//!    (the first encounter). The headline is the first candidate. The candidate's text is the
//!    sentence's original text, white space normalised (the deleted quotes, commas and colons are
//!    deleted for matching only).
//!
//! Complexity: O(text) for sentences and terms, O(Σ_s |q|·log|s|) for the scores.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;

use super::{normalize_ws, text_range, title_element, Candidate, HeadlineFinder, Headlines};
use crate::algorithms::trace::{runs, Agg, Marks, Phase, Positions, Role, Scalar, Series, Unit};
use crate::algorithms::{AlgoInfo, Algorithm, Choice};
use crate::algorithms::{ParamKind, ParamSpec, ParamValue, Params, Trace};
use crate::page::dom::{NodeId, NodeKind};
use crate::page::Page;

/// The similarity measure of a TitleFinder variant (Mohammadzadeh 2013, 5.3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Cosine similarity over tf weights (`tf`).
    Tf,
    /// Cosine similarity over tf-idf weights (`tfidf`).
    TfIdf,
    /// Overlap scoring measure, Formula 5.2 (`osm`).
    Osm,
    /// `cos_tf + cos_tfidf + osm`, Formula 5.3 (`aggregate`).
    Aggregate,
}

/// What a sentence is: a text node (the thesis) or a run of inline text (cescope's option).
pub const FRAGMENT_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("fragment"),
    kind: ParamKind::Choice {
        choices: <Fragment as Choice>::NAMES,
    },
    default: ParamValue::choice("text-node"),
    help: "sentence = one DOM text node (5.3.2), or inline: consecutive text nodes without a block boundary between them",
    source: "Mohammadzadeh 2013, 5.3.2 (text nodes); inline is cescope's option",
};

/// Remove the stop words of the page's language (Stopwords ISO lists).
pub const STOP_WORDS_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("stop_words"),
    kind: ParamKind::Bool,
    default: ParamValue::Bool(false),
    help: "remove the stop words of the page's language (Stopwords ISO, detected language)",
    source: "cescope's option (issue 12); off as in Mohammadzadeh 2013, 5.3.1, which removes none",
};

/// Stem terms with the Snowball stemmer of the page's language.
pub const STEMMING_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("stemming"),
    kind: ParamKind::Bool,
    default: ParamValue::Bool(false),
    help: "stem terms with the Snowball stemmer of the page's language (where Snowball has one)",
    source: "cescope's option (issue 12); off as in Mohammadzadeh 2013, 5.3.1, which stems nothing",
};

crate::choice_enum! {
    /// What a text fragment is ([`FRAGMENT_SPEC`]).
    pub enum Fragment {
        /// A text node.
        TextNode = "text-node",
        /// The text of a block with its inline elements merged.
        Inline = "inline",
    }
}

crate::typed_params! {
    /// TitleFinder's parameters (Mohammadzadeh 2013, 5.3).
    pub struct TitleFinderParams {
        /// What a text fragment is.
        pub fragment: Fragment = FRAGMENT_SPEC,
        /// Stop-word removal.
        pub stop_words: bool = STOP_WORDS_SPEC,
        /// Stemming.
        pub stemming: bool = STEMMING_SPEC,
    }
}

const PHASES: &[Phase] = &[
    Phase::new("preprocessing", "scripts, styles, comments, meta left out; quotes, commas, colons deleted; stop words removed, words stemmed (5.3.1)", &["terms", "query"]),
    Phase::new("vector space", "each text fragment (sentence) is a vector over the page's vocabulary V; the title text is the query q (5.3.2, Formula 5.1)", &["sentence_count", "vocabulary", "query_terms"]),
    Phase::new("similarity", "cosine over tf and tf-idf weights, OSM (Formula 5.2), aggregate (Formula 5.3) between q and every sentence", &["cos_tf", "cos_tfidf", "osm", "score", "sentences"]),
    Phase::new("ranking", "the sentence with the highest similarity is the headline (5.3.3)", &["headline"]),
];

/// TitleFinder with one similarity measure.
#[derive(Debug, Clone)]
pub struct TitleFinder {
    method: Method,
}

impl TitleFinder {
    /// TitleFinder with `method`.
    pub fn new(method: Method) -> Self {
        TitleFinder { method }
    }

    /// The similarity measure.
    pub fn method(&self) -> Method {
        self.method
    }
}

/// A sentence (text fragment) of the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Sentence {
    /// Byte range over the decoded text, first to last byte of its character data.
    pub range: Range<usize>,
    /// Its text (decoded, as in the source; several text nodes concatenated for `inline`).
    pub text: String,
    /// The text node, or for a merged inline run the nearest block ancestor of its nodes.
    pub node: NodeId,
}

/// The sentences of `page` (see the module documentation): text nodes outside `<head>`, not
/// script / style / template text (nor `<noscript>` text on a page read with scripting on,
/// [`crate::page::Dom::is_non_text`]), with at least one word; with `inline`, runs of
/// consecutive such text nodes under one block element with no block element between them are
/// merged. Document order. O(nodes + text).
pub fn sentences(page: &Page, inline: bool) -> Vec<Sentence> {
    let dom = page.dom();
    let n = dom.len();
    // Nearest block ancestor-or-self of every node; `head` subtrees are left out; `blocks[i]` =
    // block elements among nodes 0..i (to see whether a block starts between two text nodes).
    let mut owner = vec![usize::MAX; n];
    let mut blocks = vec![0u32; n + 1];
    let mut skip_until = 0;
    let mut out: Vec<Sentence> = Vec::new();
    let mut last: Option<(NodeId, usize)> = None; // (text node, owner) of the last sentence part
    for id in 0..n {
        let block = dom.is_block(id);
        blocks[id + 1] = blocks[id] + u32::from(block);
        owner[id] = if block {
            id
        } else {
            dom.parent(id).map_or(usize::MAX, |p| owner[p])
        };
        if id < skip_until {
            continue;
        }
        if dom.kind(id) == NodeKind::Element && dom.tag_name(id) == Some("head") {
            skip_until = dom.subtree(id).end;
            continue;
        }
        if dom.kind(id) != NodeKind::Text || dom.is_non_text(id) {
            continue;
        }
        let Some(text) = dom.node_text(id) else {
            continue;
        };
        let Some(range) = hull(dom.spans(id)) else {
            continue;
        };
        let merge = inline
            && last.is_some_and(|(prev, o)| o == owner[id] && blocks[id] == blocks[prev + 1]);
        if merge {
            if let Some(s) = out.last_mut() {
                s.text.push_str(text);
                s.range = s.range.start.min(range.start)..s.range.end.max(range.end);
                s.node = owner[id];
                last = Some((id, owner[id]));
                continue;
            }
        }
        out.push(Sentence {
            range,
            text: text.to_string(),
            node: id,
        });
        last = Some((id, owner[id]));
    }
    out.retain(|s| s.text.chars().any(crate::metrics::is_word_char));
    out
}

fn hull(spans: &[Range<usize>]) -> Option<Range<usize>> {
    let start = spans.iter().map(|r| r.start).min()?;
    let end = spans.iter().map(|r| r.end).max()?;
    Some(start..end)
}

/// Turns text into terms (5.3.1): quotes, commas and colons deleted, [`crate::metrics::words`],
/// stop words removed, stems.
pub struct Analyzer {
    stop: Option<std::sync::Arc<std::collections::HashSet<String>>>,
    stemmer: Option<rust_stemmers::Stemmer>,
}

impl Analyzer {
    /// An analyzer for language `code` (ISO 639-1; `None`: no stop words, no stemming), with
    /// stop-word removal and stemming switched by `stop_words` and `stemming` (each also needs a
    /// list / stemmer for the language, [`crate::lang`]).
    pub fn new(code: Option<&str>, stop_words: bool, stemming: bool) -> Analyzer {
        Analyzer {
            stop: code
                .filter(|_| stop_words)
                .and_then(crate::lang::stop_words),
            stemmer: code.filter(|_| stemming).and_then(crate::lang::stemmer),
        }
    }

    /// The terms of `text`, in order (repeats kept). O(len).
    pub fn terms(&self, text: &str) -> Vec<String> {
        let cleaned: String = text
            .chars()
            .filter(|c| !matches!(c, '\'' | '"' | ',' | ':' | '‘' | '’' | '“' | '”'))
            .collect();
        let mut out = crate::metrics::words(&cleaned);
        if let Some(stop) = &self.stop {
            out.retain(|w| !stop.contains(w));
        }
        if let Some(st) = &self.stemmer {
            for w in &mut out {
                let s = st.stem(w);
                if s != w.as_str() {
                    *w = s.into_owned();
                }
            }
        }
        out
    }
}

/// The three similarity scores of every sentence (5.3.3), aligned with the sentences.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scores {
    /// Cosine over tf weights.
    pub cos_tf: Vec<f64>,
    /// Cosine over tf-idf weights (`idf_t = ln(N / df_t)`, a document = a sentence).
    pub cos_tfidf: Vec<f64>,
    /// Overlap scoring measure, Formula 5.2.
    pub osm: Vec<f64>,
    /// `|V|`: distinct terms of all sentences.
    pub vocabulary: usize,
    /// Query terms inside `V` (with repeats).
    pub query_terms: usize,
}

impl Scores {
    /// The score of sentence `j` under `method` (Formula 5.3 for [`Method::Aggregate`]).
    pub fn of(&self, method: Method, j: usize) -> f64 {
        match method {
            Method::Tf => self.cos_tf[j],
            Method::TfIdf => self.cos_tfidf[j],
            Method::Osm => self.osm[j],
            Method::Aggregate => self.cos_tf[j] + self.cos_tfidf[j] + self.osm[j],
        }
    }
}

/// Scores the query terms against each sentence's terms (see the module documentation for the
/// formulas). Never NaN: a zero vector gives 0. O(total terms + Σ_s |q| log |s|).
pub fn score(query: &[String], sentences: &[Vec<String>]) -> Scores {
    let mut ids: HashMap<&str, u32> = HashMap::new();
    // Each sentence as sorted (term id, count).
    let vecs: Vec<Vec<(u32, u32)>> = sentences
        .iter()
        .map(|terms| {
            let mut v: Vec<u32> = terms
                .iter()
                .map(|t| {
                    let next = ids.len() as u32;
                    *ids.entry(t.as_str()).or_insert(next)
                })
                .collect();
            v.sort_unstable();
            let mut out: Vec<(u32, u32)> = Vec::new();
            for id in v {
                match out.last_mut() {
                    Some((t, c)) if *t == id => *c += 1,
                    _ => out.push((id, 1)),
                }
            }
            out
        })
        .collect();
    let mut df = vec![0u32; ids.len()];
    for v in &vecs {
        for &(t, _) in v {
            df[t as usize] += 1;
        }
    }
    let n = sentences.len() as f64;
    let idf: Vec<f64> = df
        .iter()
        .map(|&d| if d == 0 { 0.0 } else { (n / d as f64).ln() })
        .collect();
    // The query over V.
    let mut q: Vec<(u32, u32)> = Vec::new();
    let mut qv: Vec<u32> = query
        .iter()
        .filter_map(|t| ids.get(t.as_str()).copied())
        .collect();
    let query_terms = qv.len();
    qv.sort_unstable();
    for id in qv {
        match q.last_mut() {
            Some((t, c)) if *t == id => *c += 1,
            _ => q.push((id, 1)),
        }
    }
    let q_tf_norm = q
        .iter()
        .map(|&(_, c)| (c as f64).powi(2))
        .sum::<f64>()
        .sqrt();
    let q_tfidf_norm = q
        .iter()
        .map(|&(t, c)| (c as f64 * idf[t as usize]).powi(2))
        .sum::<f64>()
        .sqrt();
    let ratio = |num: f64, den: f64| if den > 0.0 { num / den } else { 0.0 };
    let mut out = Scores {
        vocabulary: ids.len(),
        query_terms,
        ..Default::default()
    };
    for v in &vecs {
        let tf_norm = v
            .iter()
            .map(|&(_, c)| (c as f64).powi(2))
            .sum::<f64>()
            .sqrt();
        let tfidf_norm = v
            .iter()
            .map(|&(t, c)| (c as f64 * idf[t as usize]).powi(2))
            .sum::<f64>()
            .sqrt();
        let (mut dot_tf, mut dot_tfidf, mut osm) = (0.0, 0.0, 0.0);
        for &(t, cq) in &q {
            if let Ok(k) = v.binary_search_by_key(&t, |&(id, _)| id) {
                let cs = v[k].1 as f64;
                let cq = cq as f64;
                let w = idf[t as usize];
                dot_tf += cq * cs;
                dot_tfidf += cq * w * cs * w;
                osm += cq * w * ratio(cs, tf_norm);
            }
        }
        out.cos_tf.push(ratio(dot_tf, q_tf_norm * tf_norm));
        out.cos_tfidf
            .push(ratio(dot_tfidf, q_tfidf_norm * tfidf_norm));
        out.osm.push(osm);
    }
    out
}

/// The largest prefix of `s` of at most `max` bytes that ends on a char boundary.
fn prefix(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut i = max;
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    &s[..i]
}

/// Bytes of sentence text given to language detection (whatlang is O(len); 20 000 bytes decide
/// any page's language).
const DETECT_BYTES: usize = 20_000;

static TF_INFO: AlgoInfo = AlgoInfo::new(
    "tf",
    "TitleFinder, cosine over tf weights: the title element's text as a query against the page's text fragments (Mohammadzadeh 2013, 5.3)",
    "Mohammadzadeh 2013, 5.3",
    TitleFinderParams::SPECS,
    PHASES,
);
static TFIDF_INFO: AlgoInfo = AlgoInfo::new(
    "tfidf",
    "TitleFinder, cosine over tf-idf weights, a document = a text fragment (Mohammadzadeh 2013, 5.3)",
    "Mohammadzadeh 2013, 5.3",
    TitleFinderParams::SPECS,
    PHASES,
);
static OSM_INFO: AlgoInfo = AlgoInfo::new(
    "osm",
    "TitleFinder, overlap scoring measure: tf-idf query weights x normalised tf (Mohammadzadeh 2013, Formula 5.2)",
    "Mohammadzadeh 2013, 5.3, Formula 5.2",
    TitleFinderParams::SPECS,
    PHASES,
);
static AGGREGATE_INFO: AlgoInfo = AlgoInfo::new(
    "aggregate",
    "TitleFinder, cos_tf + cos_tfidf + OSM (Mohammadzadeh 2013, Formula 5.3)",
    "Mohammadzadeh 2013, 5.3, Formula 5.3",
    TitleFinderParams::SPECS,
    PHASES,
);

impl Algorithm for TitleFinder {
    fn info(&self) -> &AlgoInfo {
        match self.method {
            Method::Tf => &TF_INFO,
            Method::TfIdf => &TFIDF_INFO,
            Method::Osm => &OSM_INFO,
            Method::Aggregate => &AGGREGATE_INFO,
        }
    }
}

impl HeadlineFinder for TitleFinder {
    /// Trace (node unit = the sentences in document order, positioned by their ranges):
    /// series `terms` (size: terms per sentence), `cos_tf`, `cos_tfidf`, `osm` (info) and
    /// `score` (content signal: this method's score; maximum per line); marks `query` (seed,
    /// bytes: the `title` text), `sentences` (candidates: score > 0), `headline` (selected);
    /// scalars `sentence_count`, `vocabulary`, `query_terms`.
    fn run(&self, page: &Page, params: &Params) -> Headlines {
        let TitleFinderParams {
            fragment,
            stop_words,
            stemming,
        } = TitleFinderParams::read(params);
        let inline = fragment == Fragment::Inline;
        let sents = sentences(page, inline);
        let title = title_element(page);
        let query_text = title.map(|t| page.dom().text(t)).unwrap_or_default();
        let lang = if stop_words || stemming {
            let mut sample = String::new();
            for s in &sents {
                if sample.len() >= DETECT_BYTES {
                    break;
                }
                sample.push_str(&s.text);
                sample.push(' ');
            }
            crate::lang::detect(prefix(&sample, DETECT_BYTES)).map(|d| d.code)
        } else {
            None
        };
        let an = Analyzer::new(lang, stop_words, stemming);
        let terms: Vec<Vec<String>> = sents.iter().map(|s| an.terms(&s.text)).collect();
        let query = an.terms(&query_text);
        let sc = score(&query, &terms);
        let scores: Vec<f64> = (0..sents.len()).map(|j| sc.of(self.method, j)).collect();
        let mut order: Vec<usize> = (0..sents.len()).filter(|&j| scores[j] > 0.0).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
        let candidates: Vec<Candidate> = order
            .iter()
            .map(|&j| Candidate {
                score: scores[j],
                range: sents[j].range.clone(),
                text: normalize_ws(&sents[j].text),
                node: sents[j].node,
            })
            .collect();

        let nu = Unit::Node;
        let mut positive: Vec<usize> = order.clone();
        positive.sort_unstable();
        let query_marks = title
            .and_then(|t| text_range(page, t))
            .map(|r| vec![r])
            .unwrap_or_default();
        let trace = Trace {
            series: vec![
                Series::new(
                    "terms",
                    "terms per sentence",
                    nu,
                    Role::Size,
                    terms.iter().map(|t| t.len() as f64).collect(),
                ),
                Series::new(
                    "cos_tf",
                    "cosine, tf weights",
                    nu,
                    Role::Info,
                    sc.cos_tf.clone(),
                ),
                Series::new(
                    "cos_tfidf",
                    "cosine, tf-idf weights",
                    nu,
                    Role::Info,
                    sc.cos_tfidf.clone(),
                ),
                Series::new("osm", "OSM (Formula 5.2)", nu, Role::Info, sc.osm.clone()),
                Series::new(
                    "score",
                    format!("similarity to the title ({})", self.name()),
                    nu,
                    Role::ContentSignal,
                    scores,
                )
                .with_agg(Agg::Max),
            ],
            scalars: vec![
                Scalar::new(
                    "sentence_count",
                    "sentences N",
                    None,
                    Role::Info,
                    sents.len() as f64,
                ),
                Scalar::new(
                    "vocabulary",
                    "vocabulary |V| (terms)",
                    None,
                    Role::Info,
                    sc.vocabulary as f64,
                ),
                Scalar::new(
                    "query_terms",
                    "query terms in V",
                    None,
                    Role::Info,
                    sc.query_terms as f64,
                ),
            ],
            marks: vec![
                Marks::new(
                    "query",
                    "the title element (query q)",
                    Unit::Byte,
                    Role::Seed,
                    query_marks,
                ),
                Marks::new(
                    "sentences",
                    "sentences similar to the title",
                    nu,
                    Role::Candidates,
                    runs(positive),
                ),
                Marks::new(
                    "headline",
                    "the headline (most similar sentence)",
                    nu,
                    Role::Selected,
                    order.iter().take(1).map(|&j| j..j + 1).collect(),
                ),
            ],
            positions: vec![Positions {
                unit: nu,
                ranges: sents.iter().map(|s| s.range.clone()).collect(),
            }],
        };
        Headlines { candidates, trace }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<html><head><title>Flood hits town - Daily News</title></head><body>\
        <div>Daily News</div><h1>Flood hits town</h1>\
        <p>The flood rose in the town overnight</p></body></html>";

    fn plain_params() -> Params {
        let mut p = Params::defaults(TitleFinderParams::SPECS);
        p.set(&STOP_WORDS_SPEC, ParamValue::Bool(false)).unwrap();
        p.set(&STEMMING_SPEC, ParamValue::Bool(false)).unwrap();
        p
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// The acceptance example: three sentences, cosine and OSM by hand.
    ///
    /// q = {flood, hits, town, daily, news} (the hyphen is no word); no stop words, no stems.
    /// S1 = {daily, news}; S2 = {flood, hits, town}; S3 = {the ×2, flood, rose, in, town,
    /// overnight}. N = 3; df = 2 for flood and town, 1 for every other term; so with
    /// a = ln 3 and b = ln 3/2: idf(flood) = idf(town) = b, every other idf = a.
    ///
    /// tf cosine: |q| = √5; S1: 2 / (√5 √2); S2: 3 / (√5 √3); S3: |S3| = √(4+1+1+1+1+1) = 3,
    /// dot = flood + town = 2, so 2 / (3 √5).
    /// tf-idf cosine: |q|² = 3a² + 2b² (hits, daily, news; flood, town); S1: |S1|² = 2a²,
    /// dot = 2a²; S2: |S2|² = a² + 2b², dot = a² + 2b²; S3: |S3|² = (2a)² + 3a² + 2b², dot = 2b².
    /// OSM: Σ tf_q·idf · tf_s/|tf_s|: S1 = (a + a)/√2; S2 = (b + a + b)/√3; S3 = (b + b)/3.
    #[test]
    fn three_sentences_by_hand() {
        let page = Page::from_text("t", PAGE);
        let sents = sentences(&page, false);
        let texts: Vec<&str> = sents.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Daily News",
                "Flood hits town",
                "The flood rose in the town overnight"
            ]
        );
        let an = Analyzer::new(Some("en"), false, false);
        let terms: Vec<Vec<String>> = sents.iter().map(|s| an.terms(&s.text)).collect();
        let q = an.terms("Flood hits town - Daily News");
        let sc = score(&q, &terms);
        let (a, b) = (3f64.ln(), 1.5f64.ln());
        let s5 = 5f64.sqrt();
        assert!(close(sc.cos_tf[0], 2.0 / (s5 * 2f64.sqrt())));
        assert!(close(sc.cos_tf[1], 3.0 / (s5 * 3f64.sqrt())));
        assert!(close(sc.cos_tf[2], 2.0 / (3.0 * s5)));
        let qn = (3.0 * a * a + 2.0 * b * b).sqrt();
        assert!(close(sc.cos_tfidf[0], 2.0 * a * a / (qn * 2f64.sqrt() * a)));
        let s2 = a * a + 2.0 * b * b;
        assert!(close(sc.cos_tfidf[1], s2 / (qn * s2.sqrt())));
        let s3 = (4.0 * a * a + 3.0 * a * a + 2.0 * b * b).sqrt();
        assert!(close(sc.cos_tfidf[2], 2.0 * b * b / (qn * s3)));
        assert!(close(sc.osm[0], 2.0 * a / 2f64.sqrt()));
        assert!(close(sc.osm[1], (a + 2.0 * b) / 3f64.sqrt()));
        assert!(close(sc.osm[2], 2.0 * b / 3.0));
        assert_eq!(sc.vocabulary, 9);
        assert_eq!(sc.query_terms, 5);
        // Formula 5.3.
        assert!(close(
            sc.of(Method::Aggregate, 1),
            sc.cos_tf[1] + sc.cos_tfidf[1] + sc.osm[1]
        ));

        // tf picks the headline (0.775 > 0.632 > 0.298); tf-idf, OSM and the aggregate pick the
        // site name, whose rare words weigh more: the failure the thesis describes for titles
        // with more site-name tokens than headline tokens (5.4.4).
        let run = |m| TitleFinder::new(m).run(&page, &plain_params());
        let tf = run(Method::Tf);
        assert_eq!(tf.best().unwrap().text, "Flood hits town");
        assert_eq!(tf.candidates.len(), 3);
        assert_eq!(
            &page.text()[tf.best().unwrap().range.clone()],
            "Flood hits town"
        );
        assert_eq!(
            page.dom().node_text(tf.best().unwrap().node),
            Some("Flood hits town")
        );
        for m in [Method::TfIdf, Method::Osm, Method::Aggregate] {
            assert_eq!(run(m).best().unwrap().text, "Daily News", "{m:?}");
        }
        assert_eq!(tf.trace.marks("headline").unwrap().spans, vec![1..2]);
        tf.trace.validate(&page).unwrap();
    }

    #[test]
    fn preprocessing_deletes_quotes_commas_colons_and_stems() {
        let an = Analyzer::new(Some("en"), false, false);
        assert_eq!(an.terms("Don't: \"say\", ‘it’"), ["dont", "say", "it"]);
        let an = Analyzer::new(Some("en"), true, true);
        // "the" and "of" are stop words; "floods" → "flood", "running" → "run".
        assert_eq!(an.terms("The floods of running"), ["flood", "run"]);
        let none = Analyzer::new(None, true, true);
        assert_eq!(none.terms("The floods"), ["the", "floods"]);
    }

    #[test]
    fn inline_fragments_merge_text_nodes_within_a_block() {
        let page = Page::from_text(
            "t",
            "<title>Rain again in Spain | Site</title><h1>Rain <em>again</em> in Spain</h1><p>Body <b>text</b></p><div>x<div>y</div>z</div>",
        );
        let nodes: Vec<String> = sentences(&page, false)
            .into_iter()
            .map(|s| s.text)
            .collect();
        assert_eq!(
            nodes,
            [
                "Rain ",
                "again",
                " in Spain",
                "Body ",
                "text",
                "x",
                "y",
                "z"
            ]
        );
        let inline: Vec<String> = sentences(&page, true).into_iter().map(|s| s.text).collect();
        // A block boundary (the inner div) separates x, y and z.
        assert_eq!(inline, ["Rain again in Spain", "Body text", "x", "y", "z"]);
        let mut p = Params::defaults(TitleFinderParams::SPECS);
        p.set(&FRAGMENT_SPEC, ParamValue::choice("inline")).unwrap();
        let h = TitleFinder::new(Method::Tf).run(&page, &p);
        let best = h.best().unwrap();
        assert_eq!(best.text, "Rain again in Spain");
        assert_eq!(page.dom().tag_name(best.node), Some("h1"));
    }

    #[test]
    fn no_title_or_no_text_gives_nothing() {
        for html in [
            "",
            "<p>Only body text here</p>",
            "<title>x</title>",
            "<title></title><p>a</p>",
        ] {
            let page = Page::from_text("t", html);
            for m in [Method::Tf, Method::TfIdf, Method::Osm, Method::Aggregate] {
                let h = TitleFinder::new(m).run(&page, &Params::defaults(TitleFinderParams::SPECS));
                assert!(h.candidates.is_empty(), "{html:?} {m:?}");
                h.trace.validate(&page).unwrap();
            }
        }
    }
}
