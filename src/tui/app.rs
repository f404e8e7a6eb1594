//! The inspector's state and its event handling.
//!
//! [`App`] holds everything the screen shows; [`App::handle_key`] and [`App::handle_mouse`] are
//! the only ways it changes in response to the user, and the real terminal loop
//! ([`crate::tui::run`]) and the snapshot tests drive the same functions. Drawing is in
//! [`crate::tui::ui`].
//!
//! A parameter change re-runs only the extractor (never re-decodes, re-lexes or re-highlights).
//! Line-based extractors on pages up to 8 MB run inline (they take well under a millisecond per
//! MB); other runs go to a worker thread, with a busy indicator, and a result that arrives after
//! a newer request for the same algorithm is dropped (generation counter).

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};
use ratatui::style::Color;

mod annotation;
mod navigate;
pub mod picker;
mod review;
mod table;

pub use navigate::{context_rows, Search, MAX_MATCHES};
pub use table::{HeadlineRow, TableKind};

use super::annotate::Annotation;
use super::highlight::Highlighter;
use super::keymap::{Action, Keymap};
use crate::algorithms::{self, Extraction, Extractor, LineTrace, Params, Role};
use crate::corpus::{self, GoldText};
use crate::error::Result;
use crate::metrics::{word_prf, Prf};
use crate::page::{decode, DecodeOptions, Page};
use crate::selection::Selection;

/// Colours of the algorithm overlays, in registry order (cycled).
pub const OVERLAY_COLORS: [Color; 6] = [
    Color::Cyan,
    Color::Magenta,
    Color::Yellow,
    Color::Green,
    Color::LightBlue,
    Color::LightRed,
];
/// Colour of the gold-standard overlay.
pub const GOLD_COLOR: Color = Color::LightGreen;

/// The largest count a command can be given (`9999` then ↓).
const MAX_COUNT: usize = 9999;

/// Actions a count repeats (movements, jumps to the next match / region, include / exclude,
/// slider steps, step mode); any other action ignores a count.
fn repeatable(a: Action) -> bool {
    use Action as A;
    matches!(
        a,
        A::CursorDown
            | A::CursorUp
            | A::PageDown
            | A::PageUp
            | A::NextRegion
            | A::PrevRegion
            | A::SearchNext
            | A::SearchPrev
            | A::NextFalsePositive
            | A::NextFalseNegative
            | A::Include
            | A::Exclude
            | A::ParamInc
            | A::ParamDec
            | A::StepNext
            | A::StepPrev
            | A::ScrollLeft
            | A::ScrollRight
    )
}

/// Largest page (bytes of text) on which line-based extractors run on the UI thread.
const INLINE_LIMIT: usize = 8 << 20;

/// How the inspector is set up.
#[derive(Debug, Clone)]
pub struct AppOptions {
    /// The active keymap.
    pub keymap: Keymap,
    /// Run the syntect highlighting layer (off in snapshot tests, which must be deterministic).
    pub syntax: bool,
    /// Decoding options for every page opened.
    pub decode: DecodeOptions,
    /// Run every extraction on the UI thread (tests).
    pub inline_jobs: bool,
    /// Largest page (bytes of decoded text) on which line-based extractors run on the UI
    /// thread; larger pages, and extractors that need the DOM, run on a worker thread.
    pub inline_limit: usize,
    /// The algorithm active at start.
    pub algo: String,
    /// Where gold files are read and written (default: see [`crate::gold::gold_path_for`]).
    pub gold_dir: Option<PathBuf>,
    /// The annotator's name written into gold files.
    pub annotator: String,
}

impl Default for AppOptions {
    fn default() -> Self {
        AppOptions {
            keymap: Keymap::builtin("default").expect("the default keymap is built in"),
            syntax: true,
            decode: DecodeOptions::default(),
            inline_jobs: false,
            inline_limit: INLINE_LIMIT,
            algo: algorithms::DEFAULT_ALGORITHM.into(),
            gold_dir: None,
            annotator: crate::config::default_annotator(),
        }
    }
}

/// One page of the corpus list.
#[derive(Debug, Clone)]
pub struct PageEntry {
    /// Page id (file stem or ground-truth id).
    pub id: String,
    /// The page file.
    pub path: PathBuf,
    /// File size in bytes (as stored, maybe compressed).
    pub bytes: u64,
    /// Size of the HTML in bytes once the background scan has read (and decompressed) it.
    pub html_bytes: Option<u64>,
    /// The encoding, once the background scan has decoded the page.
    pub encoding: Option<String>,
    /// The gold standard from the corpus, if any.
    pub gold: Option<GoldText>,
    /// Where the page's gold file stands: none, draft, flagged, final (or unreadable).
    pub status: crate::gold::GoldStatus,
    /// A recovery file holds unsaved work for the page that its gold file does not (it is newer
    /// than the gold file, or there is no gold file; [`crate::gold::recovery_is_newer`]).
    pub recovery: bool,
}

impl PageEntry {
    /// True when the page has a gold standard (a gold file or the corpus' own).
    pub fn annotated(&self) -> bool {
        self.status != crate::gold::GoldStatus::None || self.gold.is_some()
    }

    /// In the review queue: a draft or flagged gold file, or unsaved work in a recovery file.
    /// A page without either is never visited, and so never written, by the review.
    pub fn unfinished(&self) -> bool {
        self.status.unfinished() || self.recovery
    }

    /// The corpus' page type (WCXB's `page_type`), when it gives one.
    pub fn page_type(&self) -> Option<&str> {
        self.gold.as_ref().and_then(|g| g.page_type.as_deref())
    }

    /// The page's URL without the scheme and `www.` (`example.com/a/b`), when the corpus gives
    /// one.
    pub fn url_shown(&self) -> Option<String> {
        let url = self.gold.as_ref()?.url.as_deref()?;
        let rest = url.split_once("://").map_or(url, |(_, r)| r);
        Some(rest.strip_prefix("www.").unwrap_or(rest).to_string())
    }

    /// Does the page pass one word of the page-list filter? A status name (`final`, `draft`,
    /// `flagged`, `none`; `todo` for the review queue) or a page type (`forum`) matches those
    /// exactly; any other word is a case-insensitive substring of the id or the URL.
    fn matches(&self, word: &str, types: &[&str]) -> bool {
        if word == "todo" {
            return self.unfinished();
        }
        if let Some(st) = crate::gold::GoldStatus::from_name(word) {
            return self.status == st;
        }
        if types.contains(&word) {
            return self
                .page_type()
                .is_some_and(|t| t.eq_ignore_ascii_case(word));
        }
        self.id.to_lowercase().contains(word)
            || self
                .gold
                .as_ref()
                .and_then(|g| g.url.as_deref())
                .is_some_and(|u| u.to_lowercase().contains(word))
    }

    /// What the page list shows for the page: its URL without the scheme and `www.`
    /// ([`PageEntry::url_shown`]; the list cuts it at its end, never in the middle), else the id
    /// (a long hexadecimal id, as in the shared corpora, shortened to its first 12 digits).
    pub fn label(&self) -> String {
        if let Some(u) = self.url_shown() {
            return u;
        }
        if self.id.len() > 16 && self.id.chars().all(|c| c.is_ascii_hexdigit()) {
            return format!("{}…", &self.id[..12]);
        }
        self.id.clone()
    }
}

/// The corpus being browsed.
#[derive(Debug, Clone)]
pub struct CorpusState {
    /// Display name.
    pub name: String,
    /// All pages.
    pub entries: Vec<PageEntry>,
    /// Index of the open page in `entries`.
    pub current: usize,
    /// Name filter (substring, case-insensitive).
    pub filter: String,
    /// Is the list panel shown?
    pub list_open: bool,
}

impl CorpusState {
    /// Indices of the entries that pass the filter: every word of it must match
    /// (`draft forum` — the forum pages with a draft gold file; see [`PageEntry::matches`]).
    pub fn visible(&self) -> Vec<usize> {
        let f = self.filter.to_lowercase();
        let words: Vec<&str> = f.split_whitespace().collect();
        let mut types: Vec<String> = self
            .entries
            .iter()
            .filter_map(|e| e.page_type().map(str::to_lowercase))
            .collect();
        types.sort();
        types.dedup();
        let types: Vec<&str> = types.iter().map(String::as_str).collect();
        (0..self.entries.len())
            .filter(|&i| words.iter().all(|w| self.entries[i].matches(w, &types)))
            .collect()
    }

    /// Counts of the pages `visible` (indices into `entries`, as [`CorpusState::visible`]
    /// gives them) by status: (final, flagged, draft, none) — unreadable gold files count as
    /// none.
    pub fn status_counts(&self, visible: &[usize]) -> (usize, usize, usize, usize) {
        use crate::gold::GoldStatus as S;
        let mut c = (0, 0, 0, 0);
        for &i in visible {
            match self.entries[i].status {
                S::Final => c.0 += 1,
                S::Flagged => c.1 += 1,
                S::Draft => c.2 += 1,
                S::None | S::Unreadable => c.3 += 1,
            }
        }
        c
    }
}

/// One registered algorithm in the inspector.
pub struct AlgoState {
    /// The extractor.
    pub extractor: Arc<dyn Extractor>,
    /// Current parameters.
    pub params: Params,
    /// Is it overlaid explicitly (`o`)? Its gutter column and marks are shown also while
    /// another algorithm is active. The active algorithm's overlay is always shown
    /// ([`App::overlay_shown`]).
    pub overlay: bool,
    /// Overlay colour.
    pub color: Color,
    /// The last result for the open page.
    pub result: Option<Arc<Extraction>>,
    /// Precision / recall / F1 of the result against the page's gold standard (word-sequence
    /// LCS, Gottron 2009 section 3), when the page has one.
    pub prf: Option<Prf>,
    /// Characters (Unicode scalar values) the result selects, for the status bar.
    pub selected_chars: usize,
    /// A worker is computing a newer result.
    pub busy: bool,
    /// Generation of the latest request.
    pub generation: u64,
    /// The result's trace aggregated to virtual lines (`[0]`), raw lines (`[1]`) and the
    /// reading view's lines (`[2]`), made on first use ([`App::line_trace`]).
    pub line_cache: [Option<Arc<LineTrace>>; 3],
}

impl AlgoState {
    /// The state of extractor `e` before its first run: published defaults, overlay off, the
    /// `i`-th overlay colour.
    fn new(e: Arc<dyn Extractor>, i: usize) -> AlgoState {
        AlgoState {
            params: Params::defaults(e.params()),
            extractor: e,
            overlay: false,
            color: OVERLAY_COLORS[i % OVERLAY_COLORS.len()],
            result: None,
            prf: None,
            selected_chars: 0,
            busy: false,
            generation: 0,
            line_cache: [None, None, None],
        }
    }

    /// Stores a finished result with what is derived from it once (P / R / F1 against the
    /// gold, selected characters), so frames never recompute them.
    fn set_result(&mut self, doc: &Doc, x: Extraction) {
        self.prf = doc.prf(&x.selection);
        let text = doc.page.text();
        self.selected_chars = x
            .selection
            .ranges()
            .iter()
            .filter_map(|r| text.get(r.clone()))
            .map(|t| t.chars().count())
            .sum();
        self.result = Some(Arc::new(x));
        self.line_cache = [None, None, None];
        self.busy = false;
    }
}

/// The open page with its display lines and highlighters.
pub struct Doc {
    /// The page.
    pub page: Arc<Page>,
    /// Where it came from.
    pub path: PathBuf,
    /// Virtual lines as byte ranges.
    pub vlines: Arc<Vec<Range<usize>>>,
    /// Raw (physical) lines as byte ranges.
    pub rlines: Arc<Vec<Range<usize>>>,
    /// For each raw line, the range of virtual lines whose start lies in it.
    pub raw_to_virtual: Vec<Range<usize>>,
    /// The reading view: the page's text as a reader sees it, one line per virtual line with
    /// text ([`Page::reading_lines`]).
    pub reading: Arc<Vec<crate::page::text::ReadingLine>>,
    /// The byte ranges of the reading view's lines (their virtual lines).
    pub reading_ranges: Arc<Vec<Range<usize>>>,
    /// syntect layers for virtual and raw lines (when enabled).
    pub hl: [Option<Highlighter>; 2],
    /// The gold standard's main content, when one exists.
    pub gold: Option<Selection>,
    /// The gold standard's text (what extracts are evaluated against).
    pub gold_text: Option<String>,
    /// The gold text is the corpus' own (ground-truth.json) rather than a gold file's.
    pub gold_from_corpus: bool,
    /// The headline of the corpus' gold text, when it has one.
    pub gold_headline: Option<String>,
    /// The default headline finder's candidates, computed once per page on first use
    /// ([`App::headline_rows`]): the headline panel redraws and the first-annotation
    /// suggestion read them instead of re-running TitleFinder.
    pub headlines: std::sync::OnceLock<Arc<Vec<HeadlineRow>>>,
}

impl Doc {
    /// P / R / F1 of `sel` against the page's gold text, when there is one (word-sequence LCS).
    fn prf(&self, sel: &Selection) -> Option<Prf> {
        self.gold_text
            .as_ref()
            .map(|g| word_prf(&self.page.render(sel), g))
    }

    fn open(path: &Path, page: Page, syntax: bool, gold_text: Option<&GoldText>) -> Doc {
        let page = Arc::new(page);
        let vlines: Vec<Range<usize>> = page.lines().lines.iter().map(|l| l.range()).collect();
        let rlines = algorithms::trace::raw_lines(page.text());
        let mut raw_to_virtual = Vec::with_capacity(rlines.len());
        let mut v = 0;
        for r in &rlines {
            let s = v;
            while v < vlines.len() && vlines[v].start < r.end {
                v += 1;
            }
            raw_to_virtual.push(s..v);
        }
        let vlines = Arc::new(vlines);
        let rlines = Arc::new(rlines);
        let hl = if syntax {
            let t: Arc<str> = Arc::from(page.text());
            [
                Some(Highlighter::new(t.clone(), vlines.clone())),
                Some(Highlighter::new(t, rlines.clone())),
            ]
        } else {
            [None, None]
        };
        let gold_from_corpus = gold_text.is_some();
        let reading = page.reading_lines();
        let reading_ranges = Arc::new(reading.iter().map(|l| l.range.clone()).collect());
        let reading = Arc::new(reading);
        let gold_headline = gold_text.and_then(|g| g.headline.clone());
        let gold_text = gold_text.map(|g| g.article_body.clone());
        Doc {
            page,
            path: path.to_path_buf(),
            vlines,
            rlines,
            raw_to_virtual,
            reading,
            reading_ranges,
            hl,
            gold: None,
            gold_text,
            gold_from_corpus,
            gold_headline,
            headlines: std::sync::OnceLock::new(),
        }
    }
}

/// Screen areas of the last frame, for mouse hit-tests.
#[derive(Debug, Clone, Default)]
pub struct Rects {
    /// The source view (text rows).
    pub source: Rect,
    /// The histogram (rows aligned with the source).
    pub histogram: Rect,
    /// The whole-page overview column.
    pub overview: Rect,
    /// One rectangle per slider / choice of the active algorithm.
    pub params: Vec<Rect>,
    /// The corpus list rows.
    pub corpus: Rect,
    /// The explain panel (borders included).
    pub explain: Rect,
    /// Rows of the explain panel's text below its last row (0 when it shows it whole).
    pub explain_overflow: usize,
    /// Screen column where the source text starts (after gutter and line numbers).
    pub source_text_x: u16,
    /// The value a full histogram bar stands for in the last frame (longer bars are clipped
    /// and show their number).
    pub hist_scale: f64,
}

/// A display line compared with the gold standard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineClass {
    /// Selected by the algorithm and in the gold.
    TruePositive,
    /// Selected, not in the gold.
    FalsePositive,
    /// In the gold, not selected.
    FalseNegative,
    /// Neither.
    TrueNegative,
}

/// Keyboard focus of text input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Keys are actions.
    Normal,
    /// Keys edit the corpus name filter.
    Filter,
    /// Keys type a search in the source (`/`).
    Search,
    /// Keys type a line number (`:`).
    GotoLine,
    /// Keys type a note for the gold file (in review).
    Note,
    /// Keys filter the algorithm picker's list; ↑ / ↓ move, Enter chooses, Esc cancels
    /// ([`picker`]).
    Picker,
}

/// What the explain panel's height was fitted to: page, active and pinned algorithm, width.
type ExplainFit = (u64, usize, Option<usize>, u16);

struct JobResult {
    algo: usize,
    generation: u64,
    doc_id: u64,
    result: Extraction,
}

/// The inspector.
pub struct App {
    /// Options.
    pub opts: AppOptions,
    /// The corpus, when a directory was opened.
    pub corpus: Option<CorpusState>,
    /// The open page.
    pub doc: Option<Doc>,
    doc_id: u64,
    /// All algorithms.
    pub algos: Vec<AlgoState>,
    /// Index of the active algorithm (drives histogram, sliders, explain).
    pub active: usize,
    /// Show raw source lines instead of virtual lines.
    pub raw_lines: bool,
    /// Show the reading view (the page's text) instead of the source.
    pub reading: bool,
    /// Histogram shows the combined signal instead of the content / code signals.
    pub combined_view: bool,
    /// Explain panel shown.
    pub explain: bool,
    /// Help overlay shown.
    pub help: bool,
    /// First row of the help overlay shown (it scrolls on small screens).
    pub help_scroll: usize,
    /// Gold overlay shown.
    pub gold_overlay: bool,
    /// Compare overlay: lines and text coloured as true positive / false positive / false
    /// negative of the active algorithm against the gold standard.
    pub compare: bool,
    /// First display line on screen.
    pub top: usize,
    /// The cursor's display line.
    pub cursor: usize,
    /// Horizontal scroll in characters.
    pub hscroll: usize,
    /// Focused parameter of the active algorithm.
    pub focus_param: usize,
    /// Step mode: the phase shown, if on.
    pub step: Option<usize>,
    /// In a phase that unfolds ([`Extractor::unfolds`]): how many of its spans are revealed.
    pub substep: Option<usize>,
    /// Message for the status bar: (text, is_error).
    pub status: Option<(String, bool)>,
    /// Set when the app should exit.
    pub quit: bool,
    /// Input mode.
    pub mode: Mode,
    /// A count being typed before a command ([`App::count_digit`]).
    pub count: Option<usize>,
    /// Reviewing draft gold files (`V`): single keys accept, flag, skip, add a note; every other
    /// key works as usual, and typing (`:`, `/`) does not end the review — only Esc does.
    pub review: bool,
    /// The last review key was an `a` that was refused for an unconfirmed headline: a second
    /// `a` accepts without a headline.
    pub(crate) review_pending_accept: bool,
    /// Areas of the last frame.
    pub rects: Rects,
    /// Text rows of the source view in the last frame.
    pub view_height: usize,
    /// The gold standard being annotated for the open page.
    pub ann: Option<Annotation>,
    /// An action waiting for confirmation (leaving with unsaved changes).
    pub pending_confirm: Option<Action>,
    /// The last search in the source and its matches.
    pub search: Option<Search>,
    /// What is being typed in [`Mode::Search`] / [`Mode::GotoLine`].
    pub input: String,
    /// The jump list: positions (byte offsets) the cursor jumped from.
    jumps: Vec<usize>,
    /// Where in [`App::jumps`] the cursor is (`jumps.len()` = after the newest).
    jump_at: usize,
    /// The byte the cursor was on at the last raw / virtual toggle.
    toggle_byte: Option<usize>,
    /// The region / block table is shown.
    pub table: bool,
    /// What the table shows: regions / blocks (`b`) or headline candidates (`#`).
    pub table_kind: TableKind,
    /// The highlighted row of the region / block table.
    pub table_row: usize,
    /// A second algorithm whose explanation and table are shown beside the active one's.
    pub second: Option<usize>,
    /// The algorithms overlaid explicitly ([`AlgoState::overlay`]), in the order their overlays
    /// were turned on: the gutter's columns, then the active algorithm's when it is not among
    /// them ([`App::gutter_columns`]).
    pub gutter: Vec<usize>,
    /// The last view placed by a jump: (cursor line, top, view height) ([`App::place_view`]).
    placed: Option<(usize, usize, usize)>,
    /// The page was opened while the active algorithm ran on a worker: (cursor, top) at
    /// opening. When its result arrives and the view is still there, the view goes to the
    /// selection ([`App::open_view`]).
    open_pending: Option<(usize, usize)>,
    /// The algorithm picker, when open ([`Mode::Picker`]).
    pub picker: Option<picker::Picker>,
    /// First row of the explain panel's text shown (it scrolls with the mouse wheel when the
    /// text is longer than the panel can grow); back to 0 at every key.
    pub explain_scroll: usize,
    /// The explain panel's height in the last frame and what it was fitted to (page, active
    /// and pinned algorithm, screen width) ([`App::explain_rows`]).
    explain_fit: Option<(ExplainFit, u16)>,
    jobs_tx: Sender<JobResult>,
    jobs_rx: Receiver<JobResult>,
    info_rx: Option<Receiver<(usize, String, u64)>>,
    panic_key: Option<char>,
}

impl App {
    fn empty(opts: AppOptions) -> App {
        let (jobs_tx, jobs_rx) = channel();
        let mut algos: Vec<AlgoState> = algorithms::registry()
            .all()
            .iter()
            .enumerate()
            .map(|(i, e)| AlgoState::new(Arc::clone(e), i))
            .collect();
        // An algorithm named by a filter-set file (`--algo FILE.toml`) joins the list at the end.
        let mut active = algos
            .iter()
            .position(|a| a.extractor.name().eq_ignore_ascii_case(&opts.algo));
        if active.is_none() {
            if let Ok(e) = algorithms::find(&opts.algo) {
                active = Some(algos.len());
                algos.push(AlgoState::new(e, algos.len()));
            }
        }
        let active = active.unwrap_or(0);
        let app = App {
            opts,
            corpus: None,
            doc: None,
            doc_id: 0,
            algos,
            active,
            raw_lines: false,
            reading: false,
            combined_view: false,
            explain: true,
            help: false,
            help_scroll: 0,
            gold_overlay: false,
            compare: false,
            top: 0,
            cursor: 0,
            hscroll: 0,
            focus_param: 0,
            step: None,
            substep: None,
            status: None,
            quit: false,
            mode: Mode::Normal,
            count: None,
            review: false,
            review_pending_accept: false,
            rects: Rects::default(),
            view_height: 20,
            ann: None,
            pending_confirm: None,
            search: None,
            input: String::new(),
            jumps: Vec::new(),
            jump_at: 0,
            toggle_byte: None,
            table: false,
            table_kind: TableKind::Regions,
            table_row: 0,
            second: None,
            gutter: Vec::new(),
            placed: None,
            open_pending: None,
            picker: None,
            explain_scroll: 0,
            explain_fit: None,
            jobs_tx,
            jobs_rx,
            info_rx: None,
            panic_key: std::env::var("CESCOPE_PANIC_KEY")
                .ok()
                .and_then(|s| s.chars().next()),
        };
        app
    }

    /// Opens a page file, a directory of pages, or a `ground-truth.json` corpus. Errors are
    /// input errors (unreadable file, binary input, empty corpus, …).
    pub fn open(path: &Path, opts: AppOptions) -> Result<App> {
        let mut app = App::empty(opts);
        if path.is_dir() || path.extension().is_some_and(|e| e == "json") {
            let c = corpus::open(path)?;
            let entries: Vec<PageEntry> = c
                .pages
                .iter()
                .map(|p| {
                    let gold_path =
                        crate::gold::gold_path_for(&p.path, app.opts.gold_dir.as_deref());
                    let status = crate::gold::GoldStatus::of_file(&gold_path);
                    PageEntry {
                        id: p.id.clone(),
                        path: p.path.clone(),
                        bytes: std::fs::metadata(&p.path).map(|m| m.len()).unwrap_or(0),
                        html_bytes: None,
                        encoding: None,
                        gold: p.gold.clone(),
                        status,
                        recovery: crate::gold::recovery_is_newer(&gold_path),
                    }
                })
                .collect();
            app.start_encoding_scan(&entries);
            app.corpus = Some(CorpusState {
                name: c.name,
                entries,
                current: 0,
                filter: String::new(),
                list_open: true,
            });
            app.open_entry(0);
        } else {
            let page = Page::load(path, &app.opts.decode)?;
            app.set_doc(path, page, None);
        }
        Ok(app)
    }

    fn start_encoding_scan(&mut self, entries: &[PageEntry]) {
        let (tx, rx) = channel();
        let paths: Vec<PathBuf> = entries.iter().map(|e| e.path.clone()).collect();
        let opts = self.opts.decode.clone();
        std::thread::spawn(move || {
            for (i, p) in paths.iter().enumerate() {
                let (enc, len) = match decode::read_input(p) {
                    Ok(b) => match decode::decode(&b, &opts) {
                        Ok(d) => (d.encoding.name().to_string(), b.len() as u64),
                        Err(_) => ("error".to_string(), b.len() as u64),
                    },
                    Err(_) => ("error".to_string(), 0),
                };
                if tx.send((i, enc, len)).is_err() {
                    return;
                }
            }
        });
        self.info_rx = Some(rx);
    }

    fn set_doc(&mut self, path: &Path, page: Page, gold: Option<&GoldText>) {
        self.doc = Some(Doc::open(path, page, self.opts.syntax, gold));
        self.doc_id += 1;
        self.pending_confirm = None;
        self.top = 0;
        self.cursor = 0;
        self.hscroll = 0;
        // Positions and matches belong to the page they were found on.
        self.jumps.clear();
        self.jump_at = 0;
        self.toggle_byte = None;
        self.search = None;
        self.gold_overlay = self.doc.as_ref().is_some_and(|d| d.gold.is_some());
        for a in &mut self.algos {
            a.result = None;
            a.line_cache = [None, None, None];
            a.prf = None;
            a.busy = false;
        }
        if self.doc.as_ref().is_none_or(|d| d.gold.is_none()) {
            self.compare = false;
        }
        self.placed = None;
        self.open_pending = None;
        for i in 0..self.algos.len() {
            if self.overlay_shown(i) {
                self.run_algo(i);
            }
        }
        annotation::attach(self, path, gold);
        self.open_view();
    }

    /// Puts the cursor and the view of a freshly opened page where its main content starts:
    /// the gold standard's (or the draft annotation's) first selected line when it has main
    /// content, else the active algorithm's first selected line. An algorithm still running on
    /// a worker places the view when its result arrives ([`App::poll_background`]), unless the
    /// user has moved meanwhile.
    fn open_view(&mut self) {
        let gold = self
            .doc
            .as_ref()
            .and_then(|d| d.gold.as_ref())
            .and_then(|g| g.ranges().first().map(|r| r.start));
        let a = self.active_algo();
        let algo = a
            .result
            .as_ref()
            .and_then(|x| x.selection.ranges().first().map(|r| r.start));
        match gold.or(algo) {
            Some(b) => {
                self.open_pending = None;
                self.cursor = self.line_at_byte(b);
                self.place_view(self.cursor);
            }
            None if a.busy => self.open_pending = Some((self.cursor, self.top)),
            None => self.open_pending = None,
        }
    }

    /// The explain panel's height (borders included) on a screen `width` columns wide when its
    /// text needs `need` rows: it grows to fit, and does not shrink while the page, the active
    /// and pinned algorithms and the width stay the same — so moving the cursor or stepping
    /// through the phases does not make the source view jump.
    pub fn explain_rows(&mut self, width: u16, need: u16) -> u16 {
        let key = (self.doc_id, self.active, self.second, width);
        let rows = match self.explain_fit {
            Some((k, r)) if k == key => r.max(need),
            _ => need,
        };
        self.explain_fit = Some((key, rows));
        rows
    }

    /// Is algorithm `i`'s overlay (gutter column, marks) shown: it is the active one, or it is
    /// overlaid explicitly ([`AlgoState::overlay`]).
    pub fn overlay_shown(&self, i: usize) -> bool {
        i == self.active || self.algos.get(i).is_some_and(|a| a.overlay)
    }

    /// The gutter's columns, left to right: the explicitly overlaid algorithms in the order
    /// their overlays were turned on, then the active algorithm unless it is one of them. So
    /// choosing another algorithm changes one column and leaves no trail.
    pub fn gutter_columns(&self) -> Vec<usize> {
        let mut cols: Vec<usize> = self
            .gutter
            .iter()
            .copied()
            .filter(|&i| self.algos.get(i).is_some_and(|a| a.overlay))
            .collect();
        for (i, a) in self.algos.iter().enumerate() {
            if a.overlay && !cols.contains(&i) {
                cols.push(i);
            }
        }
        if !cols.contains(&self.active) {
            cols.push(self.active);
        }
        cols
    }

    /// Recomputes P / R / F1 of every algorithm's result against the page's gold text.
    pub(crate) fn refresh_prf(&mut self) {
        let Some(doc) = self.doc.as_ref() else {
            return;
        };
        for a in &mut self.algos {
            a.prf = a.result.as_ref().and_then(|x| doc.prf(&x.selection));
        }
    }

    /// Opens corpus entry `i` (index into `entries`).
    pub fn open_entry(&mut self, i: usize) {
        let Some(c) = self.corpus.as_mut() else {
            return;
        };
        if i >= c.entries.len() {
            return;
        }
        c.current = i;
        let e = c.entries[i].clone();
        match Page::load(&e.path, &self.opts.decode) {
            Ok(page) => {
                if let Some(c) = self.corpus.as_mut() {
                    c.entries[i].encoding = Some(page.encoding().name().to_string());
                    c.entries[i].html_bytes = Some(page.raw().len() as u64);
                }
                self.set_doc(&e.path, page, e.gold.as_ref());
                self.status = None;
            }
            Err(err) => {
                self.doc = None;
                self.ann = None;
                self.status = Some((format!("{}: {err}", e.id), true));
            }
        }
    }

    /// Which display lines are shown: 0 virtual lines, 1 raw lines, 2 the reading view (the
    /// index of [`AlgoState::line_cache`]).
    pub fn view(&self) -> usize {
        if self.reading {
            2
        } else {
            self.raw_lines as usize
        }
    }

    /// The byte ranges of the display lines of the current view.
    fn display_lines<'a>(&self, d: &'a Doc) -> &'a [Range<usize>] {
        match self.view() {
            2 => &d.reading_ranges,
            1 => &d.rlines,
            _ => &d.vlines,
        }
    }

    /// Number of display lines in the current mode.
    pub fn line_count(&self) -> usize {
        self.doc.as_ref().map_or(0, |d| self.display_lines(d).len())
    }

    /// Byte range of display line `i`.
    pub fn line_range(&self, i: usize) -> Option<Range<usize>> {
        let d = self.doc.as_ref()?;
        self.display_lines(d).get(i).cloned()
    }

    /// The virtual line shown at display line `i` (itself in virtual mode; the first virtual
    /// line starting in the raw line in raw mode; the line's own in the reading view).
    pub fn virtual_of(&self, i: usize) -> usize {
        match (&self.doc, self.view()) {
            (Some(d), 1) => d
                .raw_to_virtual
                .get(i)
                .map(|r| r.start.min(d.vlines.len().saturating_sub(1)))
                .unwrap_or(0),
            (Some(d), 2) => d.reading.get(i).map_or(0, |l| l.line),
            _ => i,
        }
    }

    /// Runs (or schedules) the extractor `i` on the open page with its current parameters.
    pub fn run_algo(&mut self, i: usize) {
        let Some(doc) = self.doc.as_ref() else {
            return;
        };
        let a = &mut self.algos[i];
        a.generation += 1;
        let inline = self.opts.inline_jobs
            || (!a.extractor.needs_dom() && doc.page.text().len() <= self.opts.inline_limit);
        if inline {
            let x = a.extractor.run(&doc.page, &a.params);
            a.set_result(doc, x);
            return;
        }
        a.busy = true;
        let page = doc.page.clone();
        let params = a.params.clone();
        let extractor = a.extractor.clone();
        let generation = a.generation;
        let doc_id = self.doc_id;
        let tx = self.jobs_tx.clone();
        std::thread::spawn(move || {
            let result = extractor.run(&page, &params);
            let _ = tx.send(JobResult {
                algo: i,
                generation,
                doc_id,
                result,
            });
        });
    }

    /// Collects finished background work (extractions, corpus scan, highlighting). Returns
    /// true if the screen should be redrawn.
    pub fn poll_background(&mut self) -> bool {
        let mut changed = false;
        while let Ok(j) = self.jobs_rx.try_recv() {
            if j.doc_id == self.doc_id && self.algos[j.algo].generation == j.generation {
                if let Some(d) = self.doc.as_ref() {
                    self.algos[j.algo].set_result(d, j.result);
                    changed = true;
                }
                // The page opened before this result: go to the selection, unless the user
                // has moved since.
                if j.algo == self.active {
                    match self.open_pending {
                        Some(at) if at == (self.cursor, self.top) => self.open_view(),
                        _ => self.open_pending = None,
                    }
                }
            }
        }
        if let (Some(rx), Some(c)) = (self.info_rx.as_ref(), self.corpus.as_mut()) {
            while let Ok((i, enc, len)) = rx.try_recv() {
                if let Some(e) = c.entries.get_mut(i) {
                    e.encoding.get_or_insert(enc);
                    e.html_bytes.get_or_insert(len);
                    changed = true;
                }
            }
        }
        if let Some(d) = &self.doc {
            let k = self.view();
            if let Some(h) = d.hl.get(k).and_then(|h| h.as_ref()) {
                changed |= h.take_updates();
            }
        }
        changed
    }

    /// Asks the highlighter for the visible lines (plus a margin).
    pub fn request_highlight(&self) {
        if let Some(d) = &self.doc {
            let k = self.view();
            if let Some(h) = d.hl.get(k).and_then(|h| h.as_ref()) {
                let n = self.line_count();
                let s = self.top.saturating_sub(20);
                let e = (self.top + self.view_height + 20).min(n);
                h.request(s..e);
            }
        }
    }

    /// The active algorithm.
    pub fn active_algo(&self) -> &AlgoState {
        &self.algos[self.active]
    }

    fn ensure_visible(&mut self) {
        let n = self.line_count();
        if n == 0 {
            self.cursor = 0;
            self.top = 0;
            return;
        }
        self.cursor = self.cursor.min(n - 1);
        let h = self.view_height.max(1);
        if self.cursor < self.top {
            self.top = self.cursor;
        } else if self.cursor >= self.top + h {
            self.top = self.cursor + 1 - h;
        }
        self.top = self.top.min(n.saturating_sub(1));
    }

    pub(crate) fn move_cursor(&mut self, delta: isize) {
        let n = self.line_count() as isize;
        self.cursor = (self.cursor as isize + delta).clamp(0, (n - 1).max(0)) as usize;
        self.ensure_visible();
    }

    /// Handles one key event.
    pub fn handle_key(&mut self, ev: KeyEvent) {
        if ev.kind != KeyEventKind::Press {
            return;
        }
        self.explain_scroll = 0;
        match self.mode {
            Mode::Filter => return self.filter_key(ev),
            Mode::Search | Mode::GotoLine => return self.input_key(ev),
            Mode::Note => {
                self.review_key(ev);
                return;
            }
            Mode::Picker => return self.picker_key(ev),
            Mode::Normal => {}
        }
        if self.review && self.review_key(ev) {
            return;
        }
        if let (Some(k), KeyCode::Char(c)) = (self.panic_key, ev.code) {
            if k == c {
                panic!("injected panic (CESCOPE_PANIC_KEY={k}) to test terminal restore");
            }
        }
        if self.table_enter(&ev) {
            return;
        }
        if self.count_digit(&ev) {
            return;
        }
        if let Some(a) = self.opts.keymap.action(&ev) {
            let count = self.count.take();
            // A message lasts until the next command (persistent states have their own marks).
            if self.pending_confirm.is_none() {
                self.status = None;
            }
            if self.table && self.table_key(a) {
                return;
            }
            if self.help {
                // While help is shown, movement scrolls it; everything else closes it first.
                match a {
                    Action::CursorDown => self.help_scroll += 1,
                    Action::CursorUp => self.help_scroll = self.help_scroll.saturating_sub(1),
                    Action::PageDown => self.help_scroll += 10,
                    Action::PageUp => self.help_scroll = self.help_scroll.saturating_sub(10),
                    Action::Top => self.help_scroll = 0,
                    // Clamped to the help's length when drawn.
                    Action::Bottom => self.help_scroll = usize::MAX / 2,
                    Action::Quit => self.quit = true,
                    _ => self.help = false,
                }
                return;
            }
            let times = match count {
                Some(n) if repeatable(a) => n,
                _ => 1,
            };
            for _ in 0..times {
                self.apply(a);
                // A repeat stops at a question (leaving with unsaved changes) or an error.
                if self.pending_confirm.is_some() || self.status.as_ref().is_some_and(|s| s.1) {
                    break;
                }
            }
        } else {
            self.count = None;
        }
    }

    /// A count typed before a command (`16` then ↓ moves 16 lines, `3` then `D` strikes three
    /// lines), as in vim: digits not bound to an action start it, `0` continues it (alone it
    /// stays the keymap's). Returns true when the key was a digit of a count.
    fn count_digit(&mut self, ev: &KeyEvent) -> bool {
        let KeyCode::Char(c) = ev.code else {
            return false;
        };
        if !ev.modifiers.is_empty() || !c.is_ascii_digit() {
            return false;
        }
        let d = c as usize - '0' as usize;
        match self.count {
            Some(n) => self.count = Some((n * 10 + d).min(MAX_COUNT)),
            None if d > 0 && self.opts.keymap.action(ev).is_none() => self.count = Some(d),
            None => return false,
        }
        true
    }

    fn filter_key(&mut self, ev: KeyEvent) {
        let Some(c) = self.corpus.as_mut() else {
            self.mode = Mode::Normal;
            return;
        };
        match ev.code {
            KeyCode::Esc => {
                c.filter.clear();
                self.mode = Mode::Normal;
            }
            KeyCode::Enter => {
                self.mode = Mode::Normal;
                let vis = c.visible();
                if !vis.contains(&c.current) {
                    if let Some(&first) = vis.first() {
                        self.open_entry(first);
                    }
                }
            }
            KeyCode::Backspace => {
                c.filter.pop();
            }
            KeyCode::Char(ch) => c.filter.push(ch),
            _ => {}
        }
    }

    /// Applies one action (the keymap's vocabulary).
    pub fn apply(&mut self, a: Action) {
        if self.pending_confirm.is_some_and(|p| p != a) {
            self.pending_confirm = None;
        }
        if self.apply_annotation(a) {
            return;
        }
        let h = self.view_height.max(1) as isize;
        match a {
            Action::Quit => {
                if self.confirm_leave(a) {
                    self.quit = true;
                }
            }
            Action::Help => {
                self.help = !self.help;
                self.help_scroll = 0;
            }
            Action::Cancel => {
                if let Some(ann) = self
                    .ann
                    .as_mut()
                    .filter(|x| x.visual.is_some() || x.char_sel.is_some())
                {
                    ann.visual = None;
                    ann.char_sel = None;
                } else if self.help {
                    self.help = false;
                } else if self.step.is_some() {
                    self.step = None;
                } else if let Some(c) = self.corpus.as_mut() {
                    c.list_open = false;
                }
            }
            Action::CursorDown => self.move_cursor(1),
            Action::CursorUp => self.move_cursor(-1),
            Action::PageDown => {
                self.top = (self.top + h as usize).min(self.line_count().saturating_sub(1));
                self.move_cursor(h);
            }
            Action::PageUp => {
                self.top = self.top.saturating_sub(h as usize);
                self.move_cursor(-h);
            }
            Action::Top => {
                self.cursor = 0;
                self.ensure_visible();
            }
            Action::Bottom => {
                self.cursor = self.line_count().saturating_sub(1);
                self.ensure_visible();
            }
            Action::ScrollLeft => self.hscroll = self.hscroll.saturating_sub(8),
            Action::ScrollRight => self.hscroll += 8,
            Action::Search => self.start_search(),
            Action::SearchNext => self.search_step(true, false),
            Action::SearchPrev => self.search_step(false, false),
            Action::GotoLine => self.start_goto(),
            Action::JumpSeed => self.jump_role(Role::Seed, "seed region"),
            Action::JumpFirstSelected => self.jump_selected(true),
            Action::JumpLastSelected => self.jump_selected(false),
            Action::JumpHeadline => self.jump_headline(),
            Action::JumpBack => self.jump_history(true),
            Action::JumpForward => self.jump_history(false),
            Action::NextRegion => self.jump_region(true),
            Action::PrevRegion => self.jump_region(false),
            Action::ToggleRawLines => self.toggle_raw(),
            Action::ToggleReading => self.toggle_reading(),
            Action::ToggleDiffView => self.combined_view = !self.combined_view,
            Action::ToggleExplain => self.explain = !self.explain,
            Action::Review => self.start_review(),
            Action::ToggleTable | Action::ToggleHeadlines => {
                let kind = if a == Action::ToggleTable {
                    TableKind::Regions
                } else {
                    TableKind::Headlines
                };
                self.table = !(self.table && self.table_kind == kind);
                self.table_kind = kind;
                self.table_row = 0;
            }
            Action::PinSecond => {
                self.second = match self.second {
                    Some(_) => None,
                    None => Some(self.active),
                };
                if let Some(i) = self.second {
                    self.status = Some((
                        format!(
                            "{} pinned: choose another algorithm ({}) to explain both side by side",
                            self.algos[i].extractor.name(),
                            self.opts.keymap.keys_label(Action::NextAlgorithm)
                        ),
                        false,
                    ));
                }
            }
            Action::ToggleCorpus => match self.corpus.as_mut() {
                Some(c) => c.list_open = !c.list_open,
                None => {
                    self.status = Some((
                        "not a corpus: open a directory to browse pages".into(),
                        false,
                    ))
                }
            },
            Action::NextAlgorithm => self.set_active((self.active + 1) % self.algos.len()),
            Action::PrevAlgorithm => {
                self.set_active((self.active + self.algos.len() - 1) % self.algos.len())
            }
            Action::ToggleOverlay => {
                let i = self.active;
                let on = !self.algos[i].overlay;
                self.algos[i].overlay = on;
                self.gutter.retain(|&g| g != i);
                if on {
                    self.gutter.push(i);
                }
                let name = self.algos[i].extractor.name();
                let msg = if on {
                    format!("{name} overlaid: its column stays when another algorithm is active")
                } else {
                    format!("{name} no longer overlaid: its column shows while it is active")
                };
                self.status = Some((msg, false));
                if self.algos[i].result.is_none() {
                    self.run_algo(i);
                }
            }
            Action::PickAlgorithm => self.open_picker(),
            Action::ToggleGold => {
                if self.doc.as_ref().is_some_and(|d| d.gold.is_some()) {
                    self.gold_overlay = !self.gold_overlay;
                } else {
                    self.status = Some(("no gold standard for this page".into(), false));
                }
            }
            Action::ToggleCompare => {
                if self.doc.as_ref().is_some_and(|d| d.gold.is_some()) {
                    self.compare = !self.compare;
                } else {
                    self.status = Some((
                        "no gold standard for this page: nothing to compare".into(),
                        false,
                    ));
                }
            }
            Action::NextFalsePositive => self.jump_compare(LineClass::FalsePositive),
            Action::NextFalseNegative => self.jump_compare(LineClass::FalseNegative),
            Action::NextParam | Action::PrevParam => {
                let n = self.active_algo().extractor.params().len();
                if n > 0 {
                    self.focus_param = if a == Action::NextParam {
                        (self.focus_param + 1) % n
                    } else {
                        (self.focus_param + n - 1) % n
                    };
                }
            }
            Action::ParamInc => self.step_param(1),
            Action::ParamDec => self.step_param(-1),
            Action::ParamIncBig => self.step_param(10),
            Action::ParamDecBig => self.step_param(-10),
            Action::ParamReset => {
                let i = self.active;
                let specs = self.algos[i].extractor.params().to_vec();
                if let Some(spec) = specs.get(self.focus_param) {
                    // The spec's own default: always accepted.
                    let _ = self.algos[i].params.set(spec, spec.default.clone());
                    self.run_algo(i);
                }
            }
            Action::StepMode => {
                self.substep = None;
                self.step = match self.step {
                    Some(_) => None,
                    None => Some(0),
                };
                if self.step.is_some() {
                    self.explain = true;
                }
            }
            Action::StepNext | Action::StepPrev => {
                self.step_phase(a == Action::StepNext);
                self.explain = true;
            }
            Action::NextPage | Action::PrevPage => {
                if self.corpus.is_some() && self.confirm_leave(a) {
                    self.page_step(a == Action::NextPage)
                } else if self.corpus.is_none() {
                    self.page_step(true)
                }
            }
            Action::NextUnannotated => {
                if self.corpus.is_some() && self.confirm_leave(a) {
                    self.next_unannotated();
                } else if self.corpus.is_none() {
                    self.status = Some(("not a corpus".into(), false));
                }
            }
            Action::Visual
            | Action::Include
            | Action::Exclude
            | Action::MarkHeadline
            | Action::TakeDraft
            | Action::TakeHeadline
            | Action::Undo
            | Action::Redo
            | Action::Save
            | Action::Recover => {}
            Action::Filter => {
                if let Some(c) = self.corpus.as_mut() {
                    c.list_open = true;
                    self.mode = Mode::Filter;
                } else {
                    self.status = Some(("not a corpus: nothing to filter".into(), false));
                }
            }
        }
    }

    /// The unfolding phase step mode is in ([`algorithms::unfolding`]): the key of the marks it
    /// reveals one span at a time and their number; `None` outside such a phase.
    pub fn unfolding(&self) -> Option<(&'static str, usize)> {
        let step = self.step?;
        let a = self.active_algo();
        let x = a.result.as_ref()?;
        algorithms::unfolding(a.extractor.as_ref(), x, step).map(|(k, o)| (k, o.len()))
    }

    /// Where step mode is ([`algorithms::Step`]): the phase and, in a phase that unfolds, how
    /// many of its spans are revealed; `None` outside step mode.
    pub fn step_at(&self) -> Option<algorithms::Step> {
        // A parameter change may leave fewer spans than were revealed: all of them then.
        let spans = self.unfolding().map_or(0, |u| u.1);
        self.step.map(|phase| algorithms::Step {
            phase,
            unfolded: self.substep.map(|k| k.min(spans)),
        })
    }

    /// While a phase unfolds: the key of its marks and the spans revealed so far, on the
    /// current display lines ([`algorithms::to_lines`]); `None` otherwise.
    pub fn unfolded_line_spans(&self) -> Option<(&'static str, Vec<Range<usize>>)> {
        let (key, _) = self.unfolding()?;
        let (step, k) = (self.step?, self.substep?);
        let a = self.active_algo();
        let x = algorithms::unfolded(a.extractor.as_ref(), a.result.as_ref()?, step, k);
        let d = self.doc.as_ref()?;
        let marks = x.trace.marks(key)?.clone();
        let only = algorithms::Trace {
            marks: vec![marks],
            positions: x.trace.positions.clone(),
            ..Default::default()
        };
        let lt = algorithms::to_lines(&only, &d.page, self.display_lines(d));
        Some((key, lt.marks.into_iter().next()?.spans))
    }

    /// One step forwards or backwards in step mode; a phase that unfolds is walked span by
    /// span (the seed's first) before the next phase.
    fn step_phase(&mut self, forward: bool) {
        let n = self.active_algo().extractor.phases().len();
        let cur = self.step.unwrap_or(0);
        let spans = self.unfolding().map_or(0, |u| u.1);
        match (forward, self.substep) {
            (true, Some(k)) if k < spans => self.substep = Some(k + 1),
            (false, Some(k)) if k > 1 => self.substep = Some(k - 1),
            _ => {
                let next = if forward {
                    (cur + 1).min(n - 1)
                } else {
                    cur.saturating_sub(1)
                };
                self.step = Some(next);
                // Entering an unfolding phase shows its first span (forwards) or all of them
                // (backwards, coming from the phase after it).
                self.substep = None;
                if next != cur {
                    if let Some((_, spans)) = self.unfolding() {
                        if spans > 0 {
                            self.substep = Some(if forward { 1 } else { spans });
                        }
                    }
                }
            }
        }
    }

    /// Adds an extractor that is not in the registry (a test double, a filter set built at
    /// run time) with its default parameters and the next overlay colour, runs it on the open
    /// page, and returns its index in [`App::algos`].
    pub fn add_extractor(&mut self, e: Arc<dyn Extractor>) -> usize {
        let i = self.algos.len();
        self.algos.push(AlgoState::new(e, i));
        self.run_algo(i);
        i
    }

    /// Makes algorithm `i` (index into [`App::algos`]) the active one. Its overlay shows while
    /// it is active; the one active before keeps its overlay only when it is overlaid
    /// explicitly (`o`).
    pub fn set_active(&mut self, i: usize) {
        if i >= self.algos.len() {
            return;
        }
        self.active = i;
        self.focus_param = 0;
        // Step mode stays on, at the same step or the new algorithm's last one (algorithms have
        // different numbers of phases; found by the long soak walk).
        let last = self.algos[i].extractor.phases().len().saturating_sub(1);
        self.step = self.step.map(|s| s.min(last));
        self.substep = None;
        if self.algos[i].result.is_none() {
            self.run_algo(i);
        }
    }

    fn step_param(&mut self, steps: i32) {
        let i = self.active;
        let specs = self.algos[i].extractor.params().to_vec();
        let Some(spec) = specs.get(self.focus_param) else {
            return;
        };
        let mut v = self.algos[i]
            .params
            .get(&spec.name)
            .cloned()
            .unwrap_or_else(|| spec.default.clone());
        let dir = steps.signum();
        let count = if matches!(
            spec.kind,
            algorithms::ParamKind::Choice { .. } | algorithms::ParamKind::Bool
        ) {
            1
        } else {
            steps.unsigned_abs()
        };
        for _ in 0..count {
            v = spec.step(&v, dir);
        }
        // A step from a value of the spec stays in its range: always accepted.
        let _ = self.algos[i].params.set(spec, v);
        self.run_algo(i);
    }

    /// Sets the focused parameter from a fraction `0.0..=1.0` of its range (mouse on a slider).
    pub fn set_param_fraction(&mut self, param: usize, frac: f64) {
        let i = self.active;
        let specs = self.algos[i].extractor.params().to_vec();
        let Some(spec) = specs.get(param) else {
            return;
        };
        self.focus_param = param;
        let frac = frac.clamp(0.0, 1.0);
        let v = match &spec.kind {
            algorithms::ParamKind::Int { min, max, .. } => {
                algorithms::ParamValue::Int(min + ((max - min) as f64 * frac).round() as i64)
            }
            algorithms::ParamKind::Float { min, max, .. } => {
                algorithms::ParamValue::Float(min + (max - min) * frac)
            }
            _ => {
                let cur = self.algos[i]
                    .params
                    .get(&spec.name)
                    .cloned()
                    .unwrap_or(spec.default.clone());
                spec.step(&cur, 1)
            }
        };
        // A point of the spec's range (or a step of it): always accepted.
        let _ = self.algos[i].params.set(spec, v);
        self.run_algo(i);
    }

    fn toggle_raw(&mut self) {
        let raw = self.reading || !self.raw_lines;
        self.switch_view(false, raw);
    }

    fn toggle_reading(&mut self) {
        let reading = !self.reading;
        self.switch_view(reading, self.raw_lines);
    }

    /// Switches to the view `reading` / `raw`, keeping the cursor on the text it was on.
    fn switch_view(&mut self, reading: bool, raw: bool) {
        // The byte the cursor stood on before the previous toggle, if the cursor has not moved
        // off its line since: a raw line holds several virtual lines, so mapping line starts
        // back and forth would drift up a few lines per round trip.
        let here = self.line_range(self.cursor).unwrap_or(0..0);
        let byte = match self.toggle_byte {
            Some(b) if here.start <= b && (b < here.end || here.is_empty()) => b,
            _ => here.start,
        };
        let rows_above = self.cursor.saturating_sub(self.top);
        // The visual-mode anchor is a display line too: keep it on the same text.
        let anchor_byte = self.ann.as_ref().and_then(|a| a.visual);
        let anchor_byte = anchor_byte
            .and_then(|v| self.line_range(v))
            .map(|r| r.start);
        self.raw_lines = raw;
        self.reading = reading;
        self.cursor = self.line_at_byte(byte);
        self.top = self.cursor.saturating_sub(rows_above);
        self.toggle_byte = Some(byte);
        let anchor = anchor_byte.map(|b| self.line_at_byte(b));
        if let Some(ann) = self.ann.as_mut() {
            ann.visual = anchor;
        }
        self.ensure_visible();
    }

    /// The byte under display column `col` (0 = first text column) of display line `line`,
    /// as drawn (same trimming and horizontal scroll as the source view).
    pub fn byte_at(&self, line: usize, col: usize) -> Option<usize> {
        let d = self.doc.as_ref()?;
        if self.reading {
            // The reading view shows text chars one column each (wide chars aside): the char
            // under the column, else the line's last.
            let l = d.reading.get(line)?;
            let k = (self.hscroll + col).min(l.starts.len().checked_sub(1)?);
            return l.starts.get(k).copied();
        }
        let range = self.line_range(line)?;
        let text = d.page.text();
        let t = text[range.clone()].trim_end();
        let shown = range.start..range.start + t.len();
        let mut c = 0usize;
        let mut last = shown.start;
        for (b, _, w) in super::display::display_chars(text, shown.clone(), !self.raw_lines) {
            if c + w > self.hscroll + col {
                return Some(b);
            }
            c += w;
            last = b;
        }
        Some(last.min(shown.end))
    }

    /// The display line containing byte `b` (in the reading view, the first line ending after
    /// it).
    pub fn line_at_byte(&self, b: usize) -> usize {
        let Some(d) = &self.doc else {
            return 0;
        };
        let v = self.display_lines(d);
        v.partition_point(|r| r.end <= b)
            .min(v.len().saturating_sub(1))
    }

    /// The trace of algorithm `i` aggregated to the current display lines (virtual or raw),
    /// computed once per result and line mode ([`algorithms::to_lines`]); `None` without a page
    /// or a result.
    pub fn line_trace(&mut self, i: usize) -> Option<Arc<LineTrace>> {
        let k = self.view();
        let doc = self.doc.as_ref()?;
        let display: &[Range<usize>] = match k {
            2 => &doc.reading_ranges,
            1 => &doc.rlines,
            _ => &doc.vlines,
        };
        let a = self.algos.get_mut(i)?;
        let x = a.result.as_ref()?;
        if a.line_cache[k].is_none() {
            a.line_cache[k] = Some(Arc::new(algorithms::to_lines(&x.trace, &doc.page, display)));
        }
        a.line_cache[k].clone()
    }

    fn jump_region(&mut self, forward: bool) {
        let Some(x) = self.active_algo().result.clone() else {
            return;
        };
        // Starts of the selected intervals of the trace as display lines; without such marks,
        // the starts of the selection's ranges.
        let lines: Vec<usize> = match self
            .line_trace(self.active)
            .and_then(|lt| lt.marks.iter().find(|m| m.role == Role::Selected).cloned())
        {
            Some(m) => m.spans.iter().map(|r| r.start).collect(),
            None => x
                .selection
                .ranges()
                .iter()
                .map(|r| self.line_at_byte(r.start))
                .collect(),
        };
        let target = if forward {
            lines.iter().find(|&&l| l > self.cursor).copied()
        } else {
            lines.iter().rev().find(|&&l| l < self.cursor).copied()
        };
        match target {
            Some(t) => self.jump_to_line(t),
            None => self.status = Some(("no further selected region".into(), false)),
        }
    }

    /// How display line `i` compares with the gold standard (None without gold or result).
    pub fn line_class(&self, i: usize) -> Option<LineClass> {
        let d = self.doc.as_ref()?;
        let gold = d.gold.as_ref()?;
        let x = self.active_algo().result.as_ref()?;
        let r = self.line_range(i)?;
        Some(
            match (x.selection.intersects(r.clone()), gold.intersects(r)) {
                (true, true) => LineClass::TruePositive,
                (true, false) => LineClass::FalsePositive,
                (false, true) => LineClass::FalseNegative,
                (false, false) => LineClass::TrueNegative,
            },
        )
    }

    fn jump_compare(&mut self, want: LineClass) {
        if self.doc.as_ref().is_none_or(|d| d.gold.is_none()) {
            self.status = Some(("no gold standard for this page".into(), false));
            return;
        }
        self.compare = true;
        let what = match want {
            LineClass::FalsePositive => "false-positive",
            _ => "false-negative",
        };
        let n = self.line_count();
        // The first line of each region (a run of lines of class `want`), after the cursor;
        // else, wrapping around, from the top.
        let starts_in = |app: &App, lines: std::ops::Range<usize>| {
            let mut prev = lines.start.checked_sub(1).and_then(|p| app.line_class(p));
            for i in lines {
                let c = app.line_class(i);
                if c == Some(want) && prev != Some(want) {
                    return Some(i);
                }
                prev = c;
            }
            None
        };
        if let Some(i) = starts_in(self, self.cursor + 1..n) {
            self.jump_to_line(i);
        } else if let Some(i) = starts_in(self, 0..(self.cursor + 1).min(n)) {
            self.jump_to_line(i);
            self.status = Some((
                format!("wrapped around: first {what} region from the top"),
                false,
            ));
        } else {
            self.status = Some((format!("no {what} region on this page"), false));
        }
    }

    fn next_unannotated(&mut self) {
        let Some(c) = &self.corpus else {
            return;
        };
        let vis = c.visible();
        let pos = vis.iter().position(|&i| i == c.current).unwrap_or(0);
        let next = vis
            .iter()
            .cycle()
            .skip(pos + 1)
            .take(vis.len())
            .copied()
            .find(|&i| !c.entries[i].annotated());
        match next {
            Some(i) if i != c.current => self.open_entry(i),
            _ => self.status = Some(("every page has a gold standard".into(), false)),
        }
    }

    fn page_step(&mut self, forward: bool) {
        let Some(c) = &self.corpus else {
            self.status = Some(("not a corpus: no next page".into(), false));
            return;
        };
        let vis = c.visible();
        if vis.is_empty() {
            return;
        }
        let pos = vis.iter().position(|&i| i == c.current);
        let next = match (pos, forward) {
            (Some(p), true) => vis[(p + 1).min(vis.len() - 1)],
            (Some(p), false) => vis[p.saturating_sub(1)],
            (None, _) => vis[0],
        };
        if next != c.current {
            self.open_entry(next);
        }
    }

    /// Handles one mouse event (wheel scrolls; clicks on the histogram, overview, sliders and
    /// corpus list).
    pub fn handle_mouse(&mut self, ev: MouseEvent) {
        let p = Position::new(ev.column, ev.row);
        match ev.kind {
            MouseEventKind::ScrollDown if self.rects.explain.contains(p) => {
                self.explain_scroll = (self.explain_scroll + 1).min(self.rects.explain_overflow);
            }
            MouseEventKind::ScrollUp if self.rects.explain.contains(p) => {
                self.explain_scroll = self.explain_scroll.saturating_sub(1);
            }
            MouseEventKind::ScrollDown => {
                let n = self.line_count();
                self.top = (self.top + 3).min(n.saturating_sub(1));
                if self.cursor < self.top {
                    self.cursor = self.top;
                }
            }
            MouseEventKind::ScrollUp => {
                self.top = self.top.saturating_sub(3);
                if self.cursor >= self.top + self.view_height {
                    self.cursor = self.top + self.view_height.saturating_sub(1);
                }
            }
            MouseEventKind::Down(MouseButton::Left) | MouseEventKind::Drag(MouseButton::Left) => {
                let r = self.rects.clone();
                if r.overview.contains(p) && r.overview.height > 0 {
                    let frac = (p.y - r.overview.y) as f64 / r.overview.height as f64;
                    self.cursor = (frac * self.line_count() as f64) as usize;
                    self.top = self.cursor.saturating_sub(self.view_height / 2);
                    self.ensure_visible();
                } else if r.source.contains(p) {
                    let line = self.top + (p.y - r.source.y) as usize;
                    let col = p.x.saturating_sub(r.source_text_x) as usize;
                    let byte = self.byte_at(line, col);
                    let dragging = matches!(ev.kind, MouseEventKind::Drag(_));
                    let reading = self.reading;
                    let text = self.doc.as_ref().map_or("", |d| d.page.text());
                    // The end of the character at `lo` (which may take several bytes).
                    let one_char = |lo: usize| {
                        lo + text
                            .get(lo..)
                            .and_then(|t| t.chars().next())
                            .map_or(0, char::len_utf8)
                    };
                    if let (Some(ann), Some(b)) = (self.ann.as_mut(), byte) {
                        if dragging {
                            if let Some(a) = ann.drag_anchor {
                                ann.visual = None;
                                let (lo, hi) = (a.min(b), a.max(b));
                                let mut end = hi.max(one_char(lo)).max(one_char(hi));
                                let mut lo = lo;
                                if reading {
                                    // The reading view selects whole words.
                                    (lo, end) = snap_to_words(text, lo, end);
                                }
                                ann.char_sel = (end > lo).then_some(lo..end);
                            }
                        } else {
                            ann.drag_anchor = Some(b);
                            ann.char_sel = None;
                        }
                    }
                    self.cursor = line;
                    self.ensure_visible();
                } else if r.histogram.contains(p) {
                    self.cursor = self.top + (p.y - r.histogram.y) as usize;
                    self.ensure_visible();
                } else if let Some(k) = r.params.iter().position(|rc| rc.contains(p)) {
                    let rc = r.params[k];
                    let frac = (p.x - rc.x) as f64 / (rc.width.max(2) - 1) as f64;
                    self.set_param_fraction(k, frac);
                } else if r.corpus.contains(p) {
                    if let Some(c) = &self.corpus {
                        let row = (p.y - r.corpus.y) as usize;
                        let vis = c.visible();
                        let pos = vis.iter().position(|&i| i == c.current).unwrap_or(0);
                        let first = pos.saturating_sub(r.corpus.height as usize / 2);
                        if let Some(&i) = vis.get(first + row) {
                            self.open_entry(i);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// `lo..hi` widened to whole words of `text`: left while the char before `lo` is alphanumeric,
/// right while the char at `hi` is.
fn snap_to_words(text: &str, mut lo: usize, mut hi: usize) -> (usize, usize) {
    let word = |c: char| c.is_alphanumeric() || c == '\'' || c == '’';
    while let Some(c) = text.get(..lo).and_then(|t| t.chars().next_back()) {
        if !word(c) {
            break;
        }
        lo -= c.len_utf8();
    }
    while let Some(c) = text.get(hi..).and_then(|t| t.chars().next()) {
        if !word(c) {
            break;
        }
        hi += c.len_utf8();
    }
    (lo, hi)
}
