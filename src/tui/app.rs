//! The inspector's state and its event handling.
//!
//! [`App`] holds everything the screen shows; [`App::handle_key`] and [`App::handle_mouse`] are
//! the only ways it changes in response to the user, and the real terminal loop
//! ([`crate::tui::run`]) and the snapshot tests drive the same functions. Drawing is in
//! [`crate::tui::ui`].
//!
//! Its parts, one file each under `app/`: `algo` (the algorithms, their runs and background
//! work), `doc` (the open page and its display lines), `pages` (the corpus being browsed),
//! `step` (step mode), `navigate` (search, jumps), `table` (the region and headline tables),
//! [`picker`], `annotation`, `units` (editing by block, record and "like this") and `review`
//! (gold files), `order` (the page list by a model's uncertainty), `mouse`.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind};
use ratatui::layout::Rect;
use ratatui::style::Color;

mod algo;
mod annotation;
mod blocks;
mod doc;
mod mouse;
mod navigate;
mod order;
mod pages;
mod picker;
mod review;
mod step;
mod table;
mod units;

pub use algo::AlgoState;
use algo::JobResult;
pub use blocks::{visibility_short, PathBar};
use doc::page_lines;
pub use doc::{Doc, PerView};
pub use table::HeadlineRow;
pub use units::{RecordList, RecordRow, UnitMenu, UNIT_KEYS};

pub use super::panels::histogram::HistogramPanel;
pub use super::panels::overlay::Overlay;
pub use super::panels::pages::{CorpusState, PageEntry, UncertaintyOrder};
pub use super::panels::source::{context_rows, Search, SourcePanel, View, MAX_MATCHES};
pub use super::panels::table::{block_columns, BlockColumn, BlockView, TableKind};

use super::annotate::Annotation;
use super::keymap::{Action, Keymap};
use super::panels::explain::Explain;
use super::panels::overlay::HelpAsk;
use super::panels::pages::PagesAsk;
use super::panels::params::{ParamAsk, ParamsPanel};
use super::panels::review::Review;
use super::panels::source::SourceAsk;
use super::panels::table::TablePanel;
use super::panels::Handled;
use crate::corpus::{self, GoldText};
use crate::error::Result;
use crate::eval::diff::{word_diffs, DiffKind, WordDiff};
use crate::extract::Role;
use crate::page::{DecodeOptions, Page};

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

/// Actions a count repeats (movements, block and record motions, jumps to the next match /
/// region, include / exclude, slider steps, step mode); any other action ignores a count.
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
            | A::NextBlock
            | A::PrevBlock
            | A::NextRecord
            | A::PrevRecord
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

/// Largest page (bytes of text) whose atomic text blocks (and so its DOM) are built on the UI
/// thread when it opens (about a millisecond); larger pages build them on a worker.
const INLINE_BLOCKS_LIMIT: usize = 64 << 10;

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
    /// The guideline every algorithm's selection is finished with (`--guideline`), and the one
    /// saved gold files record ([`crate::guideline`]).
    pub guideline: Option<Arc<crate::guideline::Guideline>>,
    /// The headline finder of the headline suggestion and the `#` panel
    /// ([`crate::extractors::find_headline`]; default the shipped ranker,
    /// [`crate::extractors::DEFAULT_HEADLINE`]).
    pub headline: String,
}

impl Default for AppOptions {
    fn default() -> Self {
        AppOptions {
            keymap: Keymap::builtin("default").expect("the default keymap is built in"),
            syntax: true,
            decode: DecodeOptions::default(),
            inline_jobs: false,
            inline_limit: INLINE_LIMIT,
            algo: crate::extractors::DEFAULT_ALGORITHM.into(),
            gold_dir: None,
            annotator: crate::config::default_annotator(),
            guideline: None,
            headline: crate::extractors::DEFAULT_HEADLINE.into(),
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

/// What a frame shows that takes computing, filled before drawing (`crate::tui::ui::prepare`)
/// so that drawing takes `&App` and computes nothing: no extractor, no trace conversion, no
/// table or list is built while a frame is drawn, only read from here, from the app's caches
/// ([`App::cached_line_trace`], the table panel's block view, the page's memos) and from the
/// panels' state. Each item is filled only when the panel that shows it is open (empty
/// otherwise).
#[derive(Debug, Clone, Default)]
pub struct FrameState {
    /// The explain panel's sentences for each algorithm it shows (index into
    /// [`App::algos`]): what the algorithm says about the cursor line, as known at the step.
    pub explain: Vec<(usize, Vec<String>)>,
    /// The explain panel's height (borders included; 0 when closed).
    pub explain_height: u16,
    /// Where step mode is ([`App::step_at`]): the phase and the spans revealed; `None` outside
    /// step mode.
    pub step: Option<crate::extract::Step>,
    /// The region table's candidate tables ([`App::table_of`]) of the algorithms it shows
    /// (index into [`App::algos`]: the active one, then the pinned one), `None` for an
    /// algorithm without candidates; empty unless the table shows [`TableKind::Regions`].
    pub regions: Vec<(usize, Option<crate::extract::candidates::CandidateTable>)>,
    /// The headline panel's rows ([`App::headline_rows`]); empty unless the table shows
    /// [`TableKind::Headlines`].
    pub headlines: Arc<Vec<HeadlineRow>>,
    /// The records panel's record group ([`App::record_list`]); `None` unless the table shows
    /// [`TableKind::Records`] and the page has records.
    pub records: Option<RecordList>,
    /// In an unfolding step: the key of the phase's marks and the display-line spans revealed
    /// so far ([`App::unfolded_line_spans`]), which the histogram shows instead of them all.
    pub unfolded: Option<(&'static str, Vec<std::ops::Range<usize>>)>,
    /// What the histogram shows: the series chosen, their scale, the overview's selected
    /// lines (see [`crate::tui::panels::histogram::HistogramFrame`]).
    pub histogram: crate::tui::panels::histogram::HistogramFrame,
    /// The cursor line's block as the path bar shows it ([`App::path_bar`]).
    pub path_bar: Option<PathBar>,
    /// The picker's list for its query ([`App::picker_matches`]); empty when it is closed.
    pub picker_matches: Vec<usize>,
    /// The review's progress badge ([`App::review_progress`]) while a review is on.
    pub review_progress: Option<String>,
    /// The compare overlay's shading ([`App::compare`] on, with a gold standard and a result of
    /// the active algorithm): its true positives, false positives and false negatives.
    pub compare: Option<[crate::selection::Selection; 3]>,
}

/// What a frame is worked out from (`crate::tui::ui::prepare`), compared with the last frame's
/// so that a frame in which nothing changed is not worked out again: the screen's area, the
/// app's revision ([`App::changed`]: bumped by every key, click, action, background result and
/// every other public entry point that changes the app) and the source panel's place (view,
/// cursor, first line, horizontal scroll), which callers may also set directly
/// ([`SourcePanel::set_cursor`]). Anything else that changes between two frames goes through
/// an entry point; a state change that forgot to bump the revision is caught by the tests (see
/// `crate::tui::ui::prepare`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameKey {
    area: Rect,
    rev: u64,
    view: View,
    cursor: usize,
    top: usize,
    hscroll: usize,
}

impl FrameState {
    /// The explain sentences worked out for algorithm `i`, if the panel shows it.
    pub fn explanation(&self, i: usize) -> Option<&[String]> {
        self.explain
            .iter()
            .find(|(k, _)| *k == i)
            .map(|(_, v)| v.as_slice())
    }

    /// The candidate table worked out for algorithm `i`, if the region table shows it and it
    /// has candidates.
    pub fn region_table(&self, i: usize) -> Option<&crate::extract::candidates::CandidateTable> {
        self.regions
            .iter()
            .find(|(k, _)| *k == i)
            .and_then(|(_, t)| t.as_ref())
    }
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

/// Keyboard focus of text input (the picker's query goes to [`Overlay::Picker`]).
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
    /// `S` with an empty main content asks whether the page has none: `y` declares it and
    /// saves, any other key (`n`, Esc) goes back without writing.
    ConfirmEmptySave,
}

/// The inspector: what the panels share, and the routing of events to them.
///
/// The panels ([`crate::tui::panels`]) own their state and handle their keys: the source view
/// ([`App::source`]: the view, cursor, scroll, search and jump list), the histogram beside it
/// ([`App::histogram`]: the signals it draws and its clicks; it shows the source's lines), the
/// popup over the screen ([`App::overlay`]: none, the help or the picker), the parameter bar
/// ([`App::params`]), the explain panel ([`App::explain`]), the page list ([`App::corpus`]),
/// the table ([`App::table`]) and the review ([`App::review`]); [`App::handle_key`] routes a
/// key to them and carries out what they ask. The app holds what they share: the page
/// ([`App::doc`]), the algorithms and their selections ([`App::algos`]), the gold standard and
/// its undo history ([`App::ann`]).
///
/// Besides the panels, what is shown is set by two exclusive choices and a few independent
/// toggles. The choices are enums, one value at a time: [`App::view`] (virtual lines, raw lines
/// or the reading view, the source panel's) and [`App::mode`] (what typed text goes to). The
/// toggles are bools because any of them combines with the others and with every choice:
/// `gold_overlay` and `compare` (the gold's gutter column and headline shading, and the TP /
/// FP / FN shading, shown together or apart); the explain panel and the table stay open
/// beneath a popup (the picker chooses another algorithm for them, help opens over them), and
/// the review keeps on across typing, tables and popups.
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
    /// The source panel: the view (virtual, raw or reading lines), the cursor, the scroll, the
    /// search and the jump list.
    pub source: SourcePanel,
    /// The histogram panel beside the source: the signals it draws; its rows are the source
    /// panel's lines (it scrolls with the source).
    pub histogram: HistogramPanel,
    /// The explain panel: shown, its scroll, its fitted height.
    pub explain: Explain,
    /// The popup over the screen that takes the keys, if any.
    pub overlay: Overlay,
    /// Gold overlay shown.
    pub gold_overlay: bool,
    /// Compare overlay: lines and text coloured as true positive / false positive / false
    /// negative of the active algorithm against the gold standard.
    pub compare: bool,
    /// The parameter bar: the focused parameter of the active algorithm.
    pub params: ParamsPanel,
    /// Step mode: the phase shown, if on.
    pub step: Option<usize>,
    /// In a phase that unfolds ([`crate::extract::Unfolding::unfolds`]): how many of its spans are revealed.
    pub substep: Option<usize>,
    /// Message for the status bar: (text, is_error).
    pub status: Option<(String, bool)>,
    /// Set when the app should exit.
    pub quit: bool,
    /// Input mode.
    pub mode: Mode,
    /// A count being typed before a command ([`App::count_digit`]).
    pub count: Option<usize>,
    /// The review of draft gold files (`V`): single keys accept, flag, skip, add a note; every
    /// other key works as usual, and typing (`:`, `/`) does not end the review — only Esc does.
    pub review: Review,
    /// Areas of the last frame.
    pub rects: Rects,
    /// The gold standard being annotated for the open page.
    pub ann: Option<Annotation>,
    /// An action waiting for confirmation (leaving with unsaved changes).
    pub pending_confirm: Option<Action>,
    /// What is being typed in [`Mode::Search`] / [`Mode::GotoLine`].
    pub input: String,
    /// The table panel (`b`, `#`, `B`, `L`): shown, what it shows, its highlighted row, the
    /// text block table's view and sort, the records' group.
    pub table: TablePanel,
    /// Counts the changes of the open page's gold standard ([`App::gold_changed`]), so views
    /// made from it know when to be made again.
    pub(crate) gold_rev: u64,
    /// A keep / strike waiting for the key that chooses its unit (`I` / `X`, then `b` `r` `g`
    /// `p` `t`): that key goes to [`App::unit_menu_key`] before anything else.
    pub unit_menu: Option<UnitMenu>,
    /// The block a block or record motion (`J` / `K`, `z` / `Z`) chose, with the first byte of
    /// the display line it was on: the cursor's block while the cursor stays on that line
    /// ([`App::cursor_block`]), so a motion can stop on each of several blocks of one line.
    pub(crate) unit_cursor: Option<(usize, usize)>,
    /// A second algorithm whose explanation and table are shown beside the active one's.
    pub second: Option<usize>,
    /// The algorithms overlaid explicitly ([`AlgoState::overlay`]), in the order their overlays
    /// were turned on: the gutter's columns, then the active algorithm's when it is not among
    /// them ([`App::gutter_columns`]).
    pub gutter: Vec<usize>,
    /// What the next frame shows that takes computing, worked out before it is drawn
    /// (`crate::tui::ui::prepare`): drawing reads it and computes nothing.
    pub frame: FrameState,
    /// The app's revision: counts the changes made through its entry points ([`App::changed`]),
    /// so that a frame is worked out again only when something changed ([`FrameKey`]).
    rev: u64,
    /// What [`App::frame`] was worked out from (`None` before the first frame).
    frame_key: Option<FrameKey>,
    /// How many times [`App::frame`] was worked out ([`App::frame_recomputes`]).
    frame_recomputes: u64,
    jobs_tx: Sender<JobResult>,
    jobs_rx: Receiver<JobResult>,
    info_rx: Option<Receiver<(usize, String, u64)>>,
    /// Page uncertainties from the worker of [`App::order_by_uncertainty`] (page index, value).
    uncertainty_rx: Option<Receiver<(usize, crate::learn::active::PageUncertainty)>>,
    panic_key: Option<char>,
    /// The headline finder named by [`AppOptions::headline`], loaded once (`None` when it
    /// cannot be: an unknown name or an unreadable model file).
    headline_finder: Option<Arc<dyn crate::extract::headline::HeadlineFinder>>,
}

impl App {
    fn empty(opts: AppOptions) -> App {
        let (jobs_tx, jobs_rx) = channel();
        // Every algorithm's selection is finished by the guideline, when there is one.
        let guided = |e: Arc<dyn crate::extract::Extractor>| {
            crate::guideline::guided(e, opts.guideline.as_ref())
        };
        // Every extractor a user can name, the shipped trained model last.
        let mut algos: Vec<AlgoState> = crate::extractors::registry()
            .nameable()
            .into_iter()
            .enumerate()
            .map(|(i, e)| AlgoState::new(guided(e), i))
            .collect();
        // An algorithm named by a filter-set file (`--algo FILE.toml`) joins the list at the end.
        let mut active = algos
            .iter()
            .position(|a| a.extractor.name().eq_ignore_ascii_case(&opts.algo));
        if active.is_none() {
            if let Ok(e) = crate::extractors::find(&opts.algo) {
                active = Some(algos.len());
                algos.push(AlgoState::new(guided(e), algos.len()));
            }
        }
        let active = active.unwrap_or(0);
        let headline_finder = crate::extractors::find_headline(&opts.headline).ok();
        let app = App {
            headline_finder,
            opts,
            corpus: None,
            doc: None,
            doc_id: 0,
            algos,
            active,
            source: SourcePanel::default(),
            histogram: HistogramPanel::default(),
            explain: Explain::default(),
            overlay: Overlay::None,
            gold_overlay: false,
            compare: false,
            params: ParamsPanel::default(),
            step: None,
            substep: None,
            status: None,
            quit: false,
            mode: Mode::Normal,
            count: None,
            review: Review::default(),
            rects: Rects::default(),
            ann: None,
            pending_confirm: None,
            input: String::new(),
            table: TablePanel::default(),
            gold_rev: 0,
            unit_menu: None,
            unit_cursor: None,
            second: None,
            gutter: Vec::new(),
            frame: FrameState::default(),
            rev: 0,
            frame_key: None,
            frame_recomputes: 0,
            jobs_tx,
            jobs_rx,
            info_rx: None,
            uncertainty_rx: None,
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
                        uncertainty: None,
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
                order: None,
            });
            app.open_entry(0);
        } else {
            let page = Page::load(path, &app.opts.decode)?;
            app.set_doc(path, page, None);
        }
        Ok(app)
    }

    fn set_doc(&mut self, path: &Path, page: Page, gold: Option<&GoldText>) {
        self.doc = Some(Doc::open(path, page, self.opts.syntax, gold));
        self.doc_id += 1;
        self.table.page_opened();
        self.unit_menu = None;
        self.unit_cursor = None;
        self.review.set_records_on_ready(false);
        if let Some(d) = &self.doc {
            d.build_blocks(self.opts.inline_jobs || d.page.text().len() <= INLINE_BLOCKS_LIMIT);
        }
        self.pending_confirm = None;
        // The cursor at the start; positions and matches belong to the page they were found on.
        self.source.page_opened();
        self.gold_overlay = self.doc.as_ref().is_some_and(|d| d.gold.is_some());
        for a in &mut self.algos {
            a.result = None;
            a.line_cache = PerView::default();
            a.prf = None;
            a.busy = false;
        }
        if self.doc.as_ref().is_none_or(|d| d.gold.is_none()) {
            self.compare = false;
        }
        for i in 0..self.algos.len() {
            if self.overlay_shown(i) {
                self.run_algo(i);
            }
        }
        annotation::attach(self, path, gold);
        self.open_view();
        if self.status.is_none() {
            self.status = self.doc.as_ref().and_then(|d| d.shell.describe()).map(|m| {
                (
                    format!("{m}: the page's text is written by JavaScript"),
                    false,
                )
            });
        }
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
                let lines = page_lines(&self.doc, self.source.view());
                self.source.open_at_byte(b, lines);
            }
            None if a.busy => self.source.wait_for_selection(),
            None => self.source.stop_waiting(),
        }
    }

    /// The explain panel's height (borders included) on a screen `width` columns wide when its
    /// text needs `need` rows: it grows to fit, and does not shrink while the page, the active
    /// and pinned algorithms and the width stay the same — so moving the cursor or stepping
    /// through the phases does not make the source view jump.
    pub fn explain_rows(&mut self, width: u16, need: u16) -> u16 {
        self.explain
            .rows((self.doc_id, self.active, self.second, width), need)
    }

    /// Marks the app changed: the next frame is worked out again (`crate::tui::ui::prepare`).
    /// Every public entry point that changes the app calls it (a key, a click, an action, a
    /// background result, an algorithm made active or run, a page opened, a gold file saved);
    /// the source panel's place is compared by itself ([`FrameKey`]). Code that changes the
    /// app's fields or panels directly, outside those entry points, calls it too.
    pub fn changed(&mut self) {
        self.rev = self.rev.wrapping_add(1);
    }

    /// What a frame on a screen `area` would be worked out from now.
    pub(crate) fn frame_key(&self, area: Rect) -> FrameKey {
        FrameKey {
            area,
            rev: self.rev,
            view: self.source.view(),
            cursor: self.source.cursor(),
            top: self.source.top(),
            hscroll: self.source.hscroll(),
        }
    }

    /// Was [`App::frame`] worked out from `key` (nothing has changed since)?
    pub(crate) fn frame_is_from(&self, key: &FrameKey) -> bool {
        self.frame_key.as_ref() == Some(key)
    }

    /// [`App::frame`] has just been worked out from `key`.
    pub(crate) fn frame_worked_out(&mut self, key: FrameKey) {
        self.frame_key = Some(key);
        self.frame_recomputes += 1;
    }

    /// How many times the frame has been worked out (`crate::tui::ui::prepare`) since the app
    /// was opened: a frame drawn with nothing changed does not add one. For tests and
    /// benchmarks.
    pub fn frame_recomputes(&self) -> u64 {
        self.frame_recomputes
    }

    /// Moves the cursor `delta` display lines, keeping it on the page and on screen.
    pub(crate) fn move_cursor(&mut self, delta: isize) {
        let n = self.line_count();
        self.source.move_cursor(delta, n);
    }

    /// The help's first row shown, when the help is open.
    pub fn help_scroll(&self) -> Option<usize> {
        self.overlay.help_scroll()
    }

    /// The second algorithm pinned beside the active one (`P`), when it is another one: its
    /// explanation and table are shown beside the active one's.
    pub fn pinned(&self) -> Option<usize> {
        self.second
            .filter(|&s| s != self.active && s < self.algos.len())
    }

    /// What algorithm `i` says about the cursor line ([`crate::extract::Extractor::explain`]),
    /// as known at the current step for the active one; the first sentence names a raw or
    /// reading line with its virtual line. `None` while it has no result.
    pub fn explain_cursor(&self, i: usize) -> Option<Vec<String>> {
        let a = self.algos.get(i)?;
        let step = if i == self.active {
            self.step_at()
        } else {
            None
        };
        let (x, d) = (a.result.as_ref()?, self.doc.as_ref()?);
        let cursor = self.source.cursor();
        let v = self.virtual_of(cursor);
        let mut ex = a
            .extractor
            .explain(&d.page, x, crate::extract::Location::Line(v), step);
        let what = match self.view() {
            View::Virtual => None,
            View::Raw => Some("raw line"),
            View::Reading => Some("reading line"),
        };
        if let (Some(what), Some(first)) = (what, ex.first_mut()) {
            *first = format!("{what} {} (virtual line {}) — {first}", cursor + 1, v + 1);
        }
        Some(ex)
    }

    /// Handles one key event.
    pub fn handle_key(&mut self, ev: KeyEvent) {
        if ev.kind != KeyEventKind::Press {
            return;
        }
        self.changed();
        self.explain.scroll_to_top();
        match self.mode {
            Mode::Filter => return self.filter_key(ev),
            Mode::Search | Mode::GotoLine => return self.input_key(ev),
            Mode::Note => {
                self.review_key(ev);
                return;
            }
            Mode::ConfirmEmptySave => return self.confirm_empty_save_key(ev),
            Mode::Normal => {}
        }
        if matches!(self.overlay, Overlay::Picker(_)) {
            return self.picker_key(ev);
        }
        if self.unit_menu.is_some() {
            return self.unit_menu_key(ev);
        }
        if self.review.is_active() && self.review_key(ev) {
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
            if self.table.is_open() && self.table_key(a) {
                return;
            }
            // While help is shown, movement scrolls it; everything else closes it first.
            match self.overlay.handle(a) {
                Handled::NotConsumed => {}
                Handled::Consumed => return,
                Handled::Ask(HelpAsk::Quit) => {
                    self.quit = true;
                    return;
                }
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

    /// Applies one action (the keymap's vocabulary).
    pub fn apply(&mut self, a: Action) {
        self.changed();
        if self.pending_confirm.is_some_and(|p| p != a) {
            self.pending_confirm = None;
        }
        if self.apply_annotation(a) || self.apply_units(a) {
            return;
        }
        // The source panel's navigation keys (cursor motions, scroll, search steps, jump list).
        let lines = page_lines(&self.doc, self.source.view());
        match self.source.handle(a, lines) {
            Handled::NotConsumed => {}
            Handled::Consumed => return,
            Handled::Ask(SourceAsk::Status(msg, error)) => {
                self.status = Some((msg, error));
                return;
            }
        }
        match a {
            Action::Quit => {
                if self.confirm_leave(a) {
                    self.quit = true;
                }
            }
            Action::Help => self.overlay.toggle_help(),
            Action::Cancel => {
                if let Some(ann) = self
                    .ann
                    .as_mut()
                    .filter(|x| x.visual.is_some() || x.char_sel.is_some())
                {
                    ann.visual = None;
                    ann.char_sel = None;
                } else if self.overlay.close_help() {
                } else if self.step.is_some() {
                    self.step = None;
                } else if let Some(c) = self.corpus.as_mut() {
                    c.list_open = false;
                }
            }
            // The source panel's (taken above).
            Action::CursorDown
            | Action::CursorUp
            | Action::PageDown
            | Action::PageUp
            | Action::Top
            | Action::Bottom
            | Action::ScrollLeft
            | Action::ScrollRight
            | Action::SearchNext
            | Action::SearchPrev
            | Action::JumpBack
            | Action::JumpForward => {}
            Action::Search => self.start_search(),
            Action::GotoLine => self.start_goto(),
            Action::JumpSeed => self.jump_role(Role::Seed, "seed region"),
            Action::JumpFirstSelected => self.jump_selected(true),
            Action::JumpLastSelected => self.jump_selected(false),
            Action::JumpHeadline => self.jump_headline(),
            // With the compare overlay on, `}` / `{` walk the differences from the gold.
            Action::NextRegion if self.compare => self.jump_compare(None, true),
            Action::PrevRegion if self.compare => self.jump_compare(None, false),
            Action::NextRegion => self.jump_region(true),
            Action::PrevRegion => self.jump_region(false),
            Action::ToggleRawLines => self.toggle_raw(),
            Action::ToggleReading => self.toggle_reading(),
            Action::ToggleDiffView => {
                self.histogram.handle(a);
            }
            Action::ToggleExplain => {
                self.explain.handle(a);
            }
            Action::Review => self.start_review(),
            Action::OrderByUncertainty => self.order_by_uncertainty(),
            Action::ToggleTable | Action::ToggleHeadlines | Action::ToggleBlocks => {
                let kind = match a {
                    Action::ToggleTable => TableKind::Regions,
                    Action::ToggleHeadlines => TableKind::Headlines,
                    _ => TableKind::Blocks,
                };
                if self.table.toggle(kind) {
                    self.open_block_table();
                }
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
                Some(c) => {
                    c.handle(a);
                }
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
            Action::ShowGuideline => {
                self.status = Some((
                    match &self.opts.guideline {
                        Some(g) => format!("guideline {}", g.summary()),
                        None => "no guideline: each algorithm's selection as it extracts it \
                                 (--guideline NAME|FILE applies one; cescope guideline list)"
                            .to_string(),
                    },
                    false,
                ));
            }
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
            Action::NextFalsePositive => self.jump_compare(Some(DiffKind::Extra), true),
            Action::NextFalseNegative => self.jump_compare(Some(DiffKind::Missing), true),
            Action::NextParam
            | Action::PrevParam
            | Action::ParamInc
            | Action::ParamDec
            | Action::ParamIncBig
            | Action::ParamDecBig
            | Action::ParamReset => {
                let n = self.active_algo().extractor.params().len();
                match self.params.handle(a, n) {
                    Handled::Ask(ParamAsk::Step(k)) => self.step_param(k),
                    Handled::Ask(ParamAsk::Reset) => self.reset_param(),
                    Handled::Consumed | Handled::NotConsumed => {}
                }
            }
            Action::StepMode => {
                self.substep = None;
                self.step = match self.step {
                    Some(_) => None,
                    None => Some(0),
                };
                if self.step.is_some() {
                    self.explain.show();
                }
            }
            Action::StepNext | Action::StepPrev => {
                self.step_phase(a == Action::StepNext);
                self.explain.show();
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
            | Action::DeclareNoMainContent
            | Action::Recover
            | Action::KeepUnit
            | Action::StrikeUnit
            | Action::NextBlock
            | Action::PrevBlock
            | Action::NextRecord
            | Action::PrevRecord
            | Action::NextOdd
            | Action::ToggleRecords => {}
            Action::Filter => {
                if let Some(c) = self.corpus.as_mut() {
                    if c.handle(a) == Handled::Ask(PagesAsk::TypeFilter) {
                        self.mode = Mode::Filter;
                    }
                } else {
                    self.status = Some(("not a corpus: nothing to filter".into(), false));
                }
            }
        }
    }

    fn jump_region(&mut self, forward: bool) {
        let Some(x) = self.active_algo().result.clone() else {
            return;
        };
        // Starts of the selected intervals of the trace as display lines (of DOM nodes: their
        // first text lines); without such marks, the starts of the selection's ranges.
        let lines: Option<Vec<usize>> = self.line_trace(self.active).and_then(|lt| {
            let m = lt.marks.iter().find(|m| m.role == Role::Selected)?;
            Some(
                m.spans
                    .iter()
                    .map(|r| navigate::first_text_line(&lt, r))
                    .collect(),
            )
        });
        let lines: Vec<usize> = match lines {
            Some(l) => l,
            None => x
                .selection
                .ranges()
                .iter()
                .map(|r| self.line_at_byte(r.start))
                .collect(),
        };
        let target = if forward {
            lines.iter().find(|&&l| l > self.source.cursor()).copied()
        } else {
            lines
                .iter()
                .rev()
                .find(|&&l| l < self.source.cursor())
                .copied()
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

    /// The word-level differences between the gold standard and the active algorithm's
    /// selection ([`crate::eval::diff`]): runs of words one selects and the other does not,
    /// differences of white space or markup only left out. `None` without a gold standard or a
    /// result.
    pub fn word_diffs(&self) -> Option<Vec<WordDiff>> {
        let d = self.doc.as_ref()?;
        let gold = d.gold.as_ref()?;
        let x = self.active_algo().result.as_ref()?;
        Some(word_diffs(d.page.text(), &d.reading, gold, &x.selection))
    }

    /// How many words of the gold text no byte of the page holds: (absent, all) in tokens of
    /// [`crate::metrics::words`] — the gold text's words beyond those of the gold selection
    /// (a corpus' `articleBody` aligned to the page, where some of it may not be found).
    /// `None` without a gold standard.
    pub fn gold_words_not_on_page(&self) -> Option<(usize, usize)> {
        let d = self.doc.as_ref()?;
        let total = crate::metrics::words(d.gold_text.as_deref()?).len();
        let found = crate::metrics::words(&d.page.render(d.gold.as_ref()?)).len();
        Some((total.saturating_sub(found), total))
    }

    /// Jumps to the next (`forward`) or previous word-level difference of kind `want` (any kind
    /// for `None`) from the cursor line, wrapping around: the cursor lands on the difference's
    /// first text line and the status bar says how many words differ there, e.g. `false
    /// positive: 37 words (lines 210–224)`. Turns the compare overlay on.
    fn jump_compare(&mut self, want: Option<DiffKind>, forward: bool) {
        if self.doc.as_ref().is_none_or(|d| d.gold.is_none()) {
            self.status = Some(("no gold standard for this page".into(), false));
            return;
        }
        self.compare = true;
        let what = match want {
            Some(k) => k.name(),
            None => "difference from the gold",
        };
        let Some(diffs) = self.word_diffs() else {
            let name = self.active_algo().extractor.name();
            self.status = Some((format!("{name} has no result yet"), false));
            return;
        };
        // (first line, last line, words, kind) of each difference wanted, in page order.
        let found: Vec<(usize, usize, usize, DiffKind)> = diffs
            .iter()
            .filter(|d| want.is_none_or(|k| d.kind == k))
            .map(|d| {
                (
                    self.line_at_byte(d.bytes.start),
                    self.line_at_byte(d.bytes.end.saturating_sub(1).max(d.bytes.start)),
                    d.words,
                    d.kind,
                )
            })
            .collect();
        let next = if forward {
            found.iter().find(|f| f.0 > self.source.cursor())
        } else {
            found.iter().rev().find(|f| f.0 < self.source.cursor())
        };
        let (target, wrapped) = match next {
            Some(f) => (Some(f), false),
            None if forward => (found.first(), true),
            None => (found.last(), true),
        };
        let Some(&(first, last, words, kind)) = target else {
            // Gold words no line holds (a corpus' gold text not found in the HTML) are missed
            // too, but there is nothing to jump to: say so, or R and `m` seem to disagree.
            let absent = match want {
                Some(DiffKind::Extra) => None,
                _ => self.gold_words_not_on_page().filter(|&(n, _)| n > 0),
            };
            let absent = absent.map_or(String::new(), |(n, total)| {
                format!("; {n} of the gold's {total} words are not in this page's HTML at all")
            });
            self.status = Some((
                format!("no word-level {what} on this page (white space and markup aside){absent}"),
                false,
            ));
            return;
        };
        self.jump_to_line(first);
        let lines = if first == last {
            format!("line {}", first + 1)
        } else {
            format!("lines {}–{}", first + 1, last + 1)
        };
        let wrap = match (wrapped, forward) {
            (true, true) => " — wrapped around to the first from the top",
            (true, false) => " — wrapped around to the last from the bottom",
            _ => "",
        };
        self.status = Some((
            format!(
                "{}: {words} word{} ({lines}){wrap}",
                kind.name(),
                if words == 1 { "" } else { "s" }
            ),
            false,
        ));
    }
}
