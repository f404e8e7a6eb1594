//! Evaluation runs: every selected algorithm on every page of one or more corpora that has a gold
//! standard, scored page by page with one of the measures of [`crate::metrics`].
//!
//! The steps, each usable on its own:
//!
//! 1. [`gather`] (or [`gather_with`] and a [`GoldSource`]) turns corpus paths into [`EvalPage`]s —
//!    page file, gold text, corpus name, site — and notes the pages it skipped for lack of gold.
//!    The gold source is pluggable: [`CorpusGold`] takes the corpus' own `ground-truth.json`;
//!    anything implementing [`GoldSource`] (e.g. cescope's own gold files) can stand in.
//! 2. [`configure`] pairs the selected extractors with their parameters (published defaults plus
//!    `--set NAME=VALUE` assignments applied to every algorithm that has the parameter).
//! 3. [`evaluate`] loads each page once, runs all algorithms on it, renders each selection to text
//!    and scores it against the gold ([`Metric`]), in parallel over pages (rayon; call it inside
//!    [`rayon::ThreadPool::install`] to bound the threads). The result is a [`Report`]: one
//!    [`PageResult`] per (algorithm, page), aggregated by [`Report::summarize`] into the corpus
//!    figure of `REFERENCE.md` — the macro average (mean of per-page values) of precision, recall
//!    and F1, with the number of empty extracts.
//!
//! Formatting (table, JSON, CSV) and plots are in [`crate::eval::report`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::corpus::{self, Corpus, CorpusPage, GoldText};
use crate::error::escape_controls;
use crate::error::{Error, Result};
use crate::extract::{Algorithm, Extractor, Params};
use crate::fsio::read::ReadError;
use crate::metrics::{lcsequence_prf, lcstring_prf, mean, word_prf, Prf};
use crate::page::{DecodeOptions, Page};

/// The evaluation measure: all three compare the rendered extract with the gold `articleBody`
/// (the headline is not part of the gold text) and give precision, recall and F1 in `[0, 1]`
/// (`P = common / extract`, `R = common / gold`, `F1 = 2PR / (P + R)`; both empty → 1, one side
/// empty → 0, `REFERENCE.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Word-sequence LCS over `\w+` tokens of the lower-cased texts (Gottron 2007; Gottron 2009,
    /// section 3; Mohammadzadeh 2013, Formula 4.1) — the measure of `REFERENCE.md`. Unit: tokens.
    Word,
    /// Longest common character subsequence, white space removed (Arias Moreno, Deschacht and
    /// Moens 2009, section 5.2). Unit: chars.
    LcSequence,
    /// Longest common character substring, white space removed (Arias Moreno et al. 2009,
    /// section 5.2). Unit: chars.
    LcString,
}

impl Metric {
    /// The command-line names, in order: `word`, `lcsequence`, `lcstring`.
    pub const NAMES: [&'static str; 3] = ["word", "lcsequence", "lcstring"];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Word => "word",
            Metric::LcSequence => "lcsequence",
            Metric::LcString => "lcstring",
        }
    }

    /// The unit of `common`, `extract_len` and `gold_len`: `"tokens"` or `"chars"`.
    pub fn unit(self) -> &'static str {
        match self {
            Metric::Word => "tokens",
            Metric::LcSequence | Metric::LcString => "chars",
        }
    }

    /// One line naming the measure and its source.
    pub fn describe(self) -> &'static str {
        match self {
            Metric::Word => {
                "word-sequence LCS (Gottron 2009, section 3; Mohammadzadeh 2013, Formula 4.1)"
            }
            Metric::LcSequence => {
                "character LCSequence, white space removed (Arias Moreno et al. 2009, section 5.2)"
            }
            Metric::LcString => {
                "character LCString, white space removed (Arias Moreno et al. 2009, section 5.2)"
            }
        }
    }

    /// Scores `extract` against `gold` ([`word_prf`], [`lcsequence_prf`] or [`lcstring_prf`]).
    pub fn prf(self, extract: &str, gold: &str) -> Prf {
        match self {
            Metric::Word => word_prf(extract, gold),
            Metric::LcSequence => lcsequence_prf(extract, gold),
            Metric::LcString => lcstring_prf(extract, gold),
        }
    }
}

impl FromStr for Metric {
    type Err = Error;

    fn from_str(s: &str) -> Result<Metric> {
        Metric::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(s.trim()))
            .map(|i| [Metric::Word, Metric::LcSequence, Metric::LcString][i])
            .ok_or_else(|| {
                Error::Param(format!(
                    "unknown metric {s:?}; known: {}",
                    Metric::NAMES.join(", ")
                ))
            })
    }
}

/// One page to evaluate: where it is and what it should give.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalPage {
    /// Name of the corpus it belongs to (unique among the corpora of one run).
    pub corpus: String,
    /// Page id within the corpus.
    pub id: String,
    /// The page file.
    pub path: PathBuf,
    /// The gold standard; its `article_body` is what extracts are scored against.
    pub gold: GoldText,
    /// The host of the gold `url` (lower case, without port or user info), `"unknown"` without one.
    pub site: String,
    /// SHA-256 (hex) of the page the gold standard was made on, when its source records one
    /// (cescope gold files do, `ground-truth.json` does not); [`evaluate`] warns when the page's
    /// own hash differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gold_sha256: Option<String>,
}

/// What a [`GoldSource`] knows about one page's gold standard.
#[derive(Debug, Clone, PartialEq)]
pub enum GoldLookup {
    /// The gold standard; `page_sha256` is the SHA-256 (lower-case hex) of the page it was
    /// made on, when the source records one ([`evaluate`] warns when the page differs).
    Found {
        /// The gold text.
        gold: GoldText,
        /// Hash of the annotated page's raw bytes, if known.
        page_sha256: Option<String>,
    },
    /// There is no gold standard for the page (e.g. no gold file): the page is skipped and
    /// counted in the "skipped … without a gold standard" note.
    Missing,
    /// A gold file exists but cannot be used (malformed, not a regular file, too large, …):
    /// the page is skipped with its own note giving this reason (which names the file).
    Unusable(String),
}

impl GoldLookup {
    /// The gold text when found, `None` when missing or unusable.
    pub fn found(self) -> Option<GoldText> {
        match self {
            GoldLookup::Found { gold, .. } => Some(gold),
            GoldLookup::Missing | GoldLookup::Unusable(_) => None,
        }
    }
}

/// Where gold standards come from. [`CorpusGold`] reads them from the corpus itself; other
/// sources (e.g. gold files written by an annotator) implement this trait. Closures
/// `Fn(&Corpus, &CorpusPage) -> Option<GoldText>` implement it too.
pub trait GoldSource {
    /// The gold standard of `page` of `corpus`, or `None` to skip the page.
    fn gold(&self, corpus: &Corpus, page: &CorpusPage) -> Option<GoldText>;

    /// Like [`GoldSource::gold`], but says why there is none (missing or unusable) and carries
    /// the annotated page's hash when known. The default wraps [`GoldSource::gold`] (`None` is
    /// [`GoldLookup::Missing`]).
    fn lookup(&self, corpus: &Corpus, page: &CorpusPage) -> GoldLookup {
        match self.gold(corpus, page) {
            Some(gold) => GoldLookup::Found {
                gold,
                page_sha256: None,
            },
            None => GoldLookup::Missing,
        }
    }
}

/// The corpus' own gold when it has one (`ground-truth.json`), else the page's cescope gold
/// file ([`crate::gold::gold_path_for`], e.g. `gold/x.json` beside `sample-pages/x.html`), read as
/// plain text: its main content text, headline text and url, with the hash of the page it was
/// made on. A missing gold file is [`GoldLookup::Missing`]; one that cannot be read (a FIFO,
/// socket, device or directory is refused without blocking; over [`crate::gold::GOLD_FILE_LIMIT`]) or
/// parsed is [`GoldLookup::Unusable`] with the reason.
#[derive(Debug, Clone, Copy, Default)]
pub struct CorpusOrGoldFiles;

impl GoldSource for CorpusOrGoldFiles {
    fn gold(&self, corpus: &Corpus, page: &CorpusPage) -> Option<GoldText> {
        self.lookup(corpus, page).found()
    }

    fn lookup(&self, corpus: &Corpus, page: &CorpusPage) -> GoldLookup {
        self.lookup_with_status(corpus, page).0
    }
}

impl CorpusOrGoldFiles {
    /// [`GoldSource::lookup`], with the status of the cescope gold file it read (`None` for
    /// the corpus' own gold and for no readable file): the file is read once.
    fn lookup_with_status(
        &self,
        corpus: &Corpus,
        page: &CorpusPage,
    ) -> (GoldLookup, Option<crate::gold::GoldStatus>) {
        if let Some(gold) = CorpusGold.gold(corpus, page) {
            let found = GoldLookup::Found {
                gold,
                page_sha256: None,
            };
            return (found, None);
        }
        let path = crate::gold::gold_path_for(&page.path, None);
        match crate::gold::load(&path) {
            Err(crate::gold::GoldError::Read {
                cause: ReadError::Io(e),
                ..
            }) if e.kind() == std::io::ErrorKind::NotFound => (GoldLookup::Missing, None),
            Ok(g) => {
                let found = GoldLookup::Found {
                    gold: GoldText {
                        article_body: g.main_content.text.clone(),
                        // An unconfirmed headline (a machine's suggestion) is no gold headline.
                        headline: g
                            .headline
                            .as_ref()
                            .filter(|h| h.confirmed)
                            .map(|h| h.text.clone()),
                        url: g.url.clone(),
                        page_type: None,
                    },
                    page_sha256: Some(g.sha256.clone()),
                };
                (found, Some(crate::gold::GoldStatus::of(&g)))
            }
            Err(e) => (GoldLookup::Unusable(e.to_string()), None),
        }
    }
}

/// Reviewed gold only: [`CorpusOrGoldFiles`], but a cescope gold file that is still a draft or
/// flagged ([`crate::gold::GoldStatus::unfinished`]) is [`GoldLookup::Unusable`] with the
/// reason — `T` drafts from an extractor, and only the annotator's save makes a draft gold: a
/// model trained on drafts learns the drafting extractor's mistakes, and an evaluation against
/// them scores that extractor against itself. What `cescope train` reads, and `cescope eval`
/// unless `--drafts`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReviewedGold;

impl GoldSource for ReviewedGold {
    fn gold(&self, corpus: &Corpus, page: &CorpusPage) -> Option<GoldText> {
        self.lookup(corpus, page).found()
    }

    fn lookup(&self, corpus: &Corpus, page: &CorpusPage) -> GoldLookup {
        use crate::gold::GoldStatus;
        let (found, status) = CorpusOrGoldFiles.lookup_with_status(corpus, page);
        if let Some(status) = status {
            if status.unfinished() {
                return GoldLookup::Unusable(format!(
                    "it is still {} (review it first: a draft is the output of the extractor \
                     that made it, not gold)",
                    if status == GoldStatus::Flagged {
                        "flagged"
                    } else {
                        "a draft"
                    }
                ));
            }
        }
        found
    }
}

/// The gold of the corpus' own `ground-truth.json` (none for a plain directory of pages).
#[derive(Debug, Clone, Copy, Default)]
pub struct CorpusGold;

impl GoldSource for CorpusGold {
    fn gold(&self, _corpus: &Corpus, page: &CorpusPage) -> Option<GoldText> {
        page.gold.clone()
    }
}

impl<F: Fn(&Corpus, &CorpusPage) -> Option<GoldText>> GoldSource for F {
    fn gold(&self, corpus: &Corpus, page: &CorpusPage) -> Option<GoldText> {
        self(corpus, page)
    }
}

/// The host of a URL: `https://User@WWW.Example.com:8080/a?b` → `www.example.com`. `None` when
/// there is no host (empty, relative, or `file:` URLs).
pub fn url_host(url: &str) -> Option<String> {
    let rest = url.trim().split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit('@').next().unwrap_or("");
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        host_port.split(':').next().unwrap_or("")
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

/// The site of a gold standard: the host of its `url`, or `"unknown"`.
pub fn site_of(gold: &GoldText) -> String {
    gold.url
        .as_deref()
        .and_then(url_host)
        .unwrap_or_else(|| "unknown".to_string())
}

/// Opens each corpus ([`corpus::open`]) and lists its pages that have a gold standard in the
/// corpus itself ([`CorpusGold`]). See [`gather_with`].
pub fn gather(corpora: &[PathBuf]) -> Result<(Vec<EvalPage>, Vec<String>)> {
    gather_with(corpora, &CorpusGold)
}

/// Opens each corpus and lists its pages whose gold `source` knows ([`GoldSource::lookup`]), in
/// corpus order then page-id order. Returns the pages and the notes: one per page whose gold
/// file is unusable (with the reason), and one per corpus with pages without gold (how many,
/// and the first few ids). Notes are one line, control characters escaped. Corpus names are the
/// directory names, made unique with `#2`, `#3`… when two corpora
/// share one. Errors: those of [`corpus::open`] (missing path, bad JSON, no pages).
pub fn gather_with(
    corpora: &[PathBuf],
    source: &dyn GoldSource,
) -> Result<(Vec<EvalPage>, Vec<String>)> {
    let mut pages = Vec::new();
    let mut notes = Vec::new();
    let mut used: BTreeMap<String, usize> = BTreeMap::new();
    for path in corpora {
        let c = corpus::open(path)?;
        let n = used.entry(c.name.clone()).or_insert(0);
        *n += 1;
        let name = if *n == 1 {
            c.name.clone()
        } else {
            format!("{}#{n}", c.name)
        };
        let mut skipped = Vec::new();
        for p in &c.pages {
            match source.lookup(&c, p) {
                GoldLookup::Found { gold, page_sha256 } => pages.push(EvalPage {
                    corpus: name.clone(),
                    id: p.id.clone(),
                    path: p.path.clone(),
                    site: site_of(&gold),
                    gold,
                    gold_sha256: page_sha256,
                }),
                GoldLookup::Missing => skipped.push(escape_controls(&p.id)),
                GoldLookup::Unusable(why) => notes.push(escape_controls(&format!(
                    "{name}: skipped page {}: its gold file is unusable: {why}",
                    p.id
                ))),
            }
        }
        if !skipped.is_empty() {
            const SHOWN: usize = 5;
            let more = if skipped.len() > SHOWN { ", …" } else { "" };
            notes.push(format!(
                "{name}: skipped {} of {} pages without a gold standard ({}{more})",
                skipped.len(),
                c.pages.len(),
                skipped[..skipped.len().min(SHOWN)].join(", "),
            ));
        }
    }
    Ok((pages, notes))
}

/// Pairs each extractor with its published defaults, then applies each `NAME=VALUE` of `sets` to
/// every extractor that has parameter `NAME`. Errors: [`Error::Param`] when no extractor has the
/// parameter, for a missing `=`, or for a value one of them rejects (kind or range).
pub fn configure(
    algos: Vec<Arc<dyn Extractor>>,
    sets: &[String],
) -> Result<Vec<(Arc<dyn Extractor>, Params)>> {
    configure_with(algos, sets, "algorithm")
}

/// [`configure`] for anything with a name and [`crate::extract::ParamSpec`]s (extractors, headline finders):
/// `kind` names them in the error ("algorithm", "headline finder").
pub fn configure_with<T: Algorithm + ?Sized>(
    items: Vec<Arc<T>>,
    sets: &[String],
    kind: &str,
) -> Result<Vec<(Arc<T>, Params)>> {
    let mut out: Vec<(Arc<T>, Params)> = items
        .into_iter()
        .map(|e| {
            let p = Params::defaults(e.params());
            (e, p)
        })
        .collect();
    for s in sets {
        let (name, _) = s
            .split_once('=')
            .ok_or_else(|| Error::Param(format!("{s:?}: expected NAME=VALUE")))?;
        let mut applied = 0;
        for (e, p) in &mut out {
            if e.params().iter().any(|spec| spec.name == name.trim()) {
                p.set_str(e.params(), s)
                    .map_err(|err| Error::Param(format!("{}: {err}", e.name())))?;
                applied += 1;
            }
        }
        if applied == 0 {
            let names: Vec<_> = out.iter().map(|(e, _)| e.name()).collect();
            let mut known: Vec<&str> = out
                .iter()
                .flat_map(|(e, _)| e.params().iter().map(|s| s.name.as_ref()))
                .collect();
            known.sort_unstable();
            known.dedup();
            return Err(Error::Param(format!(
                "no selected {kind} ({}) has a parameter {:?}; they have: {}",
                names.join(", "),
                name.trim(),
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        }
    }
    Ok(out)
}

/// One evaluated page, as it appears in the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageInfo {
    /// Corpus name.
    pub corpus: String,
    /// Page id.
    pub id: String,
    /// The page file.
    pub path: PathBuf,
    /// Host of the gold URL, or `"unknown"`.
    pub site: String,
    /// The gold URL, when annotated.
    pub url: Option<String>,
    /// The gold's page type ([`GoldText::page_type`]), when the corpus labels one; omitted from
    /// JSON otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_type: Option<String>,
    /// Size of the page file's content in bytes (after decompression); 0 if it failed to load.
    pub bytes: usize,
    /// Milliseconds to read and decode the page.
    pub load_ms: f64,
    /// Why the page could not be loaded; every algorithm then counts an empty extract for it.
    pub error: Option<String>,
    /// Doubts about the page that did not stop its evaluation, one line each (e.g. its hash
    /// differs from the one recorded in its gold file); omitted from JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The page is a JavaScript shell: (almost) no text outside `<script>` and `<title>`, so
    /// no extractor can find what a browser shows ([`crate::page::shell`]); false for a page
    /// that failed to load. The summaries are also given without such pages
    /// ([`Report::summarize_without_shells`]).
    pub js_shell: bool,
}

impl PageInfo {
    /// The report entry of `ep`, loaded (or not) in `load_ms` milliseconds: its corpus, id, path,
    /// site and gold URL / page type; `bytes` 0, no error and no warnings until the caller
    /// records them.
    pub fn of(ep: &EvalPage, load_ms: f64) -> PageInfo {
        PageInfo {
            corpus: ep.corpus.clone(),
            id: ep.id.clone(),
            path: ep.path.clone(),
            site: ep.site.clone(),
            url: ep.gold.url.clone(),
            page_type: ep.gold.page_type.clone(),
            bytes: 0,
            load_ms,
            error: None,
            warnings: Vec::new(),
            js_shell: false,
        }
    }
}

/// The score of one algorithm on one page.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PageResult {
    /// Precision, recall, F1 and the counts behind them (unit: [`Metric::unit`]).
    #[serde(flatten)]
    pub prf: Prf,
    /// True when the extract is empty under the metric (no tokens, resp. no non-white-space chars).
    pub empty: bool,
    /// Milliseconds to run the extractor and render its selection to text (page already decoded;
    /// lazily built parts of the page model count for the first algorithm that asks for them).
    pub run_ms: f64,
}

/// One algorithm's results over all pages.
#[derive(Debug, Clone, Serialize)]
pub struct AlgoResult {
    /// Registered name.
    pub name: String,
    /// The parameters it ran with.
    pub params: Params,
    /// Sum of [`PageResult::run_ms`] over the pages, in seconds (CPU time over all threads).
    pub run_seconds: f64,
    /// One result per page, aligned with [`Report::pages`].
    pub results: Vec<PageResult>,
}

/// What [`evaluate`] measured.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The measure used.
    pub metric: Metric,
    /// Corpus names in the order given.
    pub corpora: Vec<String>,
    /// The pages, in evaluation order.
    pub pages: Vec<PageInfo>,
    /// One entry per algorithm, in the order given.
    pub algos: Vec<AlgoResult>,
    /// Wall-clock seconds of the whole evaluation (loading, extraction, scoring).
    pub wall_seconds: f64,
    /// Number of worker threads used.
    pub threads: usize,
}

/// How [`Report::summarize`] groups pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupBy {
    /// One group per corpus, in the order given.
    Corpus,
    /// One group per (corpus, site), sorted by corpus order then site name.
    Site,
    /// One group per (corpus, page type), sorted by corpus order then type; pages whose gold
    /// has no `page_type` form the group [`NO_PAGE_TYPE`].
    Type,
}

/// The page type of the group of pages without one ([`GroupBy::Type`]): `"(none)"`.
pub const NO_PAGE_TYPE: &str = "(none)";

/// The aggregate of one algorithm over one group of pages: macro averages (mean of the per-page
/// values, `REFERENCE.md`) and the number of empty extracts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Number of pages in the group.
    pub pages: usize,
    /// Mean per-page precision.
    pub precision: f64,
    /// Mean per-page recall.
    pub recall: f64,
    /// Mean per-page F1.
    pub f1: f64,
    /// Pages where the extract was empty.
    pub empty: usize,
}

/// A group of pages and the summary of every algorithm over it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    /// Corpus name.
    pub corpus: String,
    /// Site (host) for [`GroupBy::Site`], `None` otherwise.
    pub site: Option<String>,
    /// Page type for [`GroupBy::Type`] (or [`NO_PAGE_TYPE`]), `None` otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_type: Option<String>,
    /// One summary per algorithm, aligned with [`Report::algos`].
    pub summaries: Vec<Summary>,
}

impl Group {
    /// Display label: the corpus name, or the site or page type (prefixed by the corpus when
    /// `with_corpus`).
    pub fn label(&self, with_corpus: bool) -> String {
        match self.site.as_ref().or(self.page_type.as_ref()) {
            None => self.corpus.clone(),
            Some(s) if with_corpus => format!("{}/{s}", self.corpus),
            Some(s) => s.clone(),
        }
    }
}

impl Report {
    /// Groups the pages by corpus, site or page type and summarises every algorithm over each group.
    pub fn summarize(&self, by: GroupBy) -> Vec<Group> {
        self.summarize_where(by, |_| true)
    }

    /// [`Report::summarize`] over the pages that are not JavaScript shells
    /// ([`PageInfo::js_shell`]); a group of shells only is left out.
    pub fn summarize_without_shells(&self, by: GroupBy) -> Vec<Group> {
        self.summarize_where(by, |p| !p.js_shell)
    }

    /// The number of pages that are JavaScript shells ([`PageInfo::js_shell`]).
    pub fn shells(&self) -> usize {
        self.pages.iter().filter(|p| p.js_shell).count()
    }

    /// The summary of algorithm `algo` over the pages that are not JavaScript shells.
    pub fn overall_without_shells(&self, algo: usize) -> Summary {
        summary(
            self.pages
                .iter()
                .zip(&self.algos[algo].results)
                .filter(|(p, _)| !p.js_shell)
                .map(|(_, r)| r),
        )
    }

    /// [`Report::summarize`] over the pages `keep` accepts.
    fn summarize_where(&self, by: GroupBy, keep: impl Fn(&PageInfo) -> bool) -> Vec<Group> {
        let mut members: BTreeMap<(usize, Option<&str>), Vec<usize>> = BTreeMap::new();
        for (i, p) in self.pages.iter().enumerate() {
            if !keep(p) {
                continue;
            }
            let ci = self
                .corpora
                .iter()
                .position(|c| *c == p.corpus)
                .unwrap_or(usize::MAX);
            let key = (
                ci,
                match by {
                    GroupBy::Corpus => None,
                    GroupBy::Site => Some(p.site.as_str()),
                    GroupBy::Type => Some(p.page_type.as_deref().unwrap_or(NO_PAGE_TYPE)),
                },
            );
            members.entry(key).or_default().push(i);
        }
        members
            .into_iter()
            .map(|((_, key), idx)| Group {
                corpus: self.pages[idx[0]].corpus.clone(),
                site: key.filter(|_| by == GroupBy::Site).map(str::to_string),
                page_type: key.filter(|_| by == GroupBy::Type).map(str::to_string),
                summaries: self
                    .algos
                    .iter()
                    .map(|a| summary(idx.iter().map(|&i| &a.results[i])))
                    .collect(),
            })
            .collect()
    }

    /// The summary of algorithm `algo` (index into [`Report::algos`]) over all pages.
    pub fn overall(&self, algo: usize) -> Summary {
        summary(self.algos[algo].results.iter())
    }

    /// The per-page F1 values of algorithm `algo`, aligned with [`Report::pages`].
    pub fn f1s(&self, algo: usize) -> Vec<f64> {
        self.algos[algo].results.iter().map(|r| r.prf.f1).collect()
    }

    /// The index of the algorithm called `name` (ASCII case-insensitive).
    pub fn algo_index(&self, name: &str) -> Option<usize> {
        self.algos
            .iter()
            .position(|a| a.name.eq_ignore_ascii_case(name.trim()))
    }
}

fn summary<'a>(results: impl Iterator<Item = &'a PageResult> + Clone) -> Summary {
    Summary {
        pages: results.clone().count(),
        precision: mean(results.clone().map(|r| r.prf.precision)),
        recall: mean(results.clone().map(|r| r.prf.recall)),
        f1: mean(results.clone().map(|r| r.prf.f1)),
        empty: results.filter(|r| r.empty).count(),
    }
}

/// Runs every algorithm of `algos` (with its parameters) on every page and scores the rendered
/// extract against the gold `articleBody` with `metric`.
///
/// Each page is read and decoded once ([`Page::load`], default decoding) and shared by all
/// algorithms; pages are processed in parallel on the current rayon pool. A page that fails to
/// load is kept, with its error in [`PageInfo::error`] and an empty extract for every algorithm
/// (so it scores 1 only if its gold is empty too). `progress` draws a progress bar (indicatif) on
/// standard error; the caller decides whether standard error is a terminal.
pub fn evaluate(
    pages: &[EvalPage],
    algos: &[(Arc<dyn Extractor>, Params)],
    metric: Metric,
    progress: bool,
) -> Report {
    let t0 = Instant::now();
    let bar = if progress {
        let b = indicatif::ProgressBar::with_draw_target(
            Some(pages.len() as u64),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{spinner} evaluating {bar:40} {pos}/{len} pages {elapsed_precise} (eta {eta})",
        ) {
            b.set_style(style);
        }
        Some(b)
    } else {
        None
    };
    let opts = DecodeOptions::default();
    let per_page: Vec<(PageInfo, Vec<PageResult>)> = pages
        .par_iter()
        .map(|ep| {
            let out = eval_page(ep, algos, metric, &opts);
            if let Some(b) = &bar {
                b.inc(1);
            }
            out
        })
        .collect();
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    report_from(
        metric,
        pages.iter().map(|p| p.corpus.clone()),
        per_page,
        algos,
        t0,
    )
}

/// Assembles a [`Report`] from per-page results in evaluation order (as [`evaluate`] and the
/// streaming JSONL evaluation of [`crate::batch::eval`] produce them): `corpora` lists the corpus
/// of each page (duplicates are dropped, first-seen order kept), `t0` is when the evaluation
/// started, and the thread count is the current rayon pool's.
pub fn report_from(
    metric: Metric,
    corpora: impl IntoIterator<Item = String>,
    per_page: Vec<(PageInfo, Vec<PageResult>)>,
    algos: &[(Arc<dyn Extractor>, Params)],
    t0: Instant,
) -> Report {
    let mut algo_results: Vec<AlgoResult> = algos
        .iter()
        .map(|(e, p)| AlgoResult {
            name: e.name().to_string(),
            params: p.clone(),
            run_seconds: 0.0,
            results: Vec::with_capacity(per_page.len()),
        })
        .collect();
    let mut infos = Vec::with_capacity(per_page.len());
    for (info, results) in per_page {
        infos.push(info);
        for (a, r) in algo_results.iter_mut().zip(results) {
            a.run_seconds += r.run_ms / 1e3;
            a.results.push(r);
        }
    }
    let mut names: Vec<String> = Vec::new();
    for c in corpora {
        if !names.contains(&c) {
            names.push(c);
        }
    }
    Report {
        metric,
        corpora: names,
        pages: infos,
        algos: algo_results,
        wall_seconds: t0.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
    }
}

fn eval_page(
    ep: &EvalPage,
    algos: &[(Arc<dyn Extractor>, Params)],
    metric: Metric,
    opts: &DecodeOptions,
) -> (PageInfo, Vec<PageResult>) {
    let t = Instant::now();
    let loaded = Page::load(Path::new(&ep.path), opts);
    let load_ms = t.elapsed().as_secs_f64() * 1e3;
    let info = PageInfo::of(ep, load_ms);
    score_page(
        info,
        loaded,
        &ep.gold,
        ep.gold_sha256.as_deref(),
        algos,
        metric,
    )
}

/// Scores one loaded page (or the error that replaced it) against `gold` with every algorithm:
/// the per-page step of [`evaluate`], shared with the streaming JSONL evaluation. `info` is the
/// page's report entry; its `bytes`, `error` and `warnings` (the page's, and each algorithm's
/// [`Extractor::warnings`] prefixed with its name) are filled here. A page that failed to load
/// gets an empty extract for every algorithm.
pub fn score_page(
    mut info: PageInfo,
    loaded: Result<Page>,
    gold: &GoldText,
    gold_sha256: Option<&str>,
    algos: &[(Arc<dyn Extractor>, Params)],
    metric: Metric,
) -> (PageInfo, Vec<PageResult>) {
    let gold = gold.article_body.as_str();
    let results = match loaded {
        Ok(page) => {
            info.bytes = page.raw().len();
            info.js_shell = page.is_script_shell();
            if let Some(want) = gold_sha256 {
                let have = page.sha256_hex();
                if !want.eq_ignore_ascii_case(&have) {
                    info.warnings.push(escape_controls(&format!(
                        "the page differs from the one its gold standard was made on (SHA-256 \
                         {have}, the gold file says {want}); scored anyway"
                    )));
                }
            }
            algos
                .iter()
                .map(|(e, params)| {
                    let t = Instant::now();
                    let x = e.run(&page, params);
                    let text = page.render(&x.selection);
                    let run_ms = t.elapsed().as_secs_f64() * 1e3;
                    for w in e.warnings(&page, &x) {
                        info.warnings
                            .push(escape_controls(&format!("{}: {w}", e.name())));
                    }
                    let prf = metric.prf(&text, gold);
                    PageResult {
                        prf,
                        empty: prf.extract_len == 0,
                        run_ms,
                    }
                })
                .collect()
        }
        Err(e) => {
            info.error = Some(crate::error::report(&e));
            let prf = metric.prf("", gold);
            vec![
                PageResult {
                    prf,
                    empty: true,
                    run_ms: 0.0,
                };
                algos.len()
            ]
        }
    };
    (info, results)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A single algorithm by name ([`crate::algorithms::named`]).
    fn single(name: &str) -> Arc<dyn Extractor> {
        crate::algorithms::named(name).unwrap()
    }

    #[test]
    fn hosts() {
        assert_eq!(
            url_host("https://User@WWW.Example.com:8080/a?b").as_deref(),
            Some("www.example.com")
        );
        assert_eq!(url_host("http://a.b").as_deref(), Some("a.b"));
        assert_eq!(url_host("http://x.org?q=1").as_deref(), Some("x.org"));
        assert_eq!(url_host("http://[::1]:80/").as_deref(), Some("::1"));
        assert_eq!(url_host("/relative/path"), None);
        assert_eq!(url_host("file:///tmp/x"), None);
        assert_eq!(url_host(""), None);
        let g = GoldText::default();
        assert_eq!(site_of(&g), "unknown");
    }

    #[test]
    fn metric_names_round_trip() {
        for n in Metric::NAMES {
            assert_eq!(n.parse::<Metric>().unwrap().name(), n);
        }
        assert!("bleu".parse::<Metric>().is_err());
        assert_eq!("LCString".parse::<Metric>().unwrap(), Metric::LcString);
    }

    #[test]
    fn configure_applies_sets_where_they_fit() {
        let algos = vec![single("r2l"), single("addanag")];
        let c = configure(algos, &["gap=5".into(), "filter=filter1".into()]).unwrap();
        use crate::extract::ParamValue;
        assert_eq!(c[0].1.get("gap"), Some(&ParamValue::Int(5)));
        assert_eq!(c[1].1.get("gap"), Some(&ParamValue::Int(5)));
        assert_eq!(c[1].1.get("filter"), Some(&ParamValue::choice("filter1")));
        assert!(c[0].1.get("filter").is_none());
        let algos = vec![single("danag")];
        assert!(configure(algos, &["filter=filter1".into()]).is_err());
        let algos = vec![single("danag")];
        assert!(configure(algos, &["gap".into()]).is_err());
        let algos = vec![single("danag")];
        assert!(configure(algos, &["gap=-3".into()]).is_err());
    }
}
