//! Lazy, off-UI-thread syntax highlighting for the inspector's source view.
//!
//! The source view always colours text first from cescope's own byte classes;
//! this layer *refines* that colouring with syntect's HTML syntax (which embeds
//! CSS and JavaScript) once results are ready.
//!
//! Design (see the tech notes, "syntect on large or minified HTML"):
//!
//! * All syntect work runs on one worker thread owned by [`Highlighter`]; the
//!   UI thread only takes a mutex briefly to post a request or read the cache.
//!   Syntect's assets ([`SyntaxSet::load_defaults_newlines`] and the theme) are
//!   loaded once per process, on the worker.
//! * Units: a *display line* is an index into the `lines` slice given to
//!   [`Highlighter::new`]; every span range is an absolute *byte offset* range
//!   into the page text.
//! * Syntect is fed *physical pieces*: each display line is split after every
//!   `'\n'`, and a last piece without `'\n'` gets one appended for the parser
//!   only (span offsets never exceed the real text). A piece longer than
//!   [`MAX_PIECE_BYTES`] is skipped like bat does: the parser gets just `"\n"`
//!   so its state continues, and the piece gets no spans.
//! * Parser states `(ParseState, HighlightState)` are checkpointed every
//!   [`CHECKPOINT_INTERVAL`] display lines as the worker goes; a request resumes
//!   from the nearest checkpoint at or before its first uncached line (or from
//!   where the worker last stopped, if that is closer), parsing the lines in
//!   between for correct state.
//! * The worker checks for a newer request (and for shutdown) between pieces, so
//!   the only uncancellable unit is one `parse_line` call on at most
//!   [`MAX_PIECE_BYTES`] bytes. Interrupted work is kept as a resume cursor.
//! * The cache of results is bounded ([`MAX_CACHED_LINES`] lines,
//!   [`MAX_CACHED_SPANS`] spans); when full, the lines farthest from the current
//!   request are evicted first. Lines of the current request are never evicted.
//!
//! Theme: `base16-ocean.dark` ([`THEME_NAME`]); its foregrounds are readable on
//! a dark terminal. Only the foreground colour (as [`Color::Rgb`]) and font
//! modifiers are used; the theme background is ignored.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use ratatui::style::{Color, Modifier, Style};
use syntect::highlighting::{
    FontStyle, HighlightState, Highlighter as SynHighlighter, RangedHighlightIterator, Theme,
    ThemeSet,
};
use syntect::parsing::{ParseState, ScopeStack, SyntaxReference, SyntaxSet};

/// Styled byte ranges of one display line: absolute byte ranges into the page
/// text, sorted, non-overlapping and non-empty, each with a style carrying only a
/// foreground colour and modifiers. Every byte of a highlighted piece is
/// covered (including plain text, in the theme's default foreground); bytes of
/// skipped pieces (longer than [`MAX_PIECE_BYTES`]) are not covered.
pub type StyledSpans = Vec<(Range<usize>, Style)>;

/// Name of the syntect default theme used (readable on a dark terminal).
pub const THEME_NAME: &str = "base16-ocean.dark";

/// Physical pieces longer than this many bytes are not highlighted (the parser
/// is fed `"\n"` instead so its state continues).
pub const MAX_PIECE_BYTES: usize = 16 * 1024;

/// A parser checkpoint is kept every this many display lines.
pub const CHECKPOINT_INTERVAL: usize = 256;

/// Soft cap on the number of display lines kept in the result cache.
pub const MAX_CACHED_LINES: usize = 20_000;

/// Soft cap on the total number of spans kept in the result cache
/// (about 40 bytes each).
pub const MAX_CACHED_SPANS: usize = 1_000_000;

/// A request covers at most this many display lines; longer ranges are
/// truncated at the end.
pub const MAX_REQUEST_LINES: usize = 8_192;

/// Lines this many display lines before a request's start that the worker has
/// to parse anyway are cached too, so that scrolling up is cheap.
const CACHE_BEHIND: usize = 256;

/// A syntax highlighter for one page, owning a worker thread.
///
/// Dropping it stops and joins the worker; at most one `parse_line` call on at
/// most [`MAX_PIECE_BYTES`] bytes is waited for.
pub struct Highlighter {
    shared: Arc<Shared>,
    lines_len: usize,
    handle: Option<JoinHandle<()>>,
}

impl Highlighter {
    /// Starts a highlighter for `text`, whose display lines are `lines`: byte
    /// ranges into `text` that tile it in order. Ranges that are out of bounds
    /// or not on char boundaries are treated as unhighlightable (empty spans).
    ///
    /// Nothing is highlighted until [`request`](Self::request) is called.
    pub fn new(text: Arc<str>, lines: Arc<Vec<Range<usize>>>) -> Self {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                request: 0..0,
                generation: 0,
                done_generation: 0,
                stopped: false,
                cache: Cache::default(),
            }),
            work_cv: Condvar::new(),
            done_cv: Condvar::new(),
            latest_generation: AtomicU64::new(0),
            shutdown: AtomicBool::new(false),
            updated: AtomicBool::new(false),
        });
        let lines_len = lines.len();
        let worker_shared = Arc::clone(&shared);
        let handle = std::thread::Builder::new()
            .name("cescope-highlight".into())
            .spawn(move || {
                let _guard = StopGuard(Arc::clone(&worker_shared));
                Worker::new(text, lines, worker_shared).run();
            });
        let handle = match handle {
            Ok(h) => Some(h),
            Err(_) => {
                // No worker: behave as a highlighter that never produces results.
                shared.lock().stopped = true;
                None
            }
        };
        Highlighter {
            shared,
            lines_len,
            handle,
        }
    }

    /// Asks for display lines `range` (the visible window, maybe plus a margin).
    ///
    /// The range is clamped to the number of display lines and truncated to
    /// [`MAX_REQUEST_LINES`]. A newer request supersedes older ones (the worker
    /// re-targets between pieces); repeating the current request is a no-op.
    pub fn request(&self, range: Range<usize>) {
        let start = range.start.min(self.lines_len);
        let end = range
            .end
            .clamp(start, self.lines_len)
            .min(start + MAX_REQUEST_LINES);
        let range = start..end;
        let mut st = self.shared.lock();
        if st.request == range {
            return;
        }
        st.generation += 1;
        st.request = range.clone();
        self.shared
            .latest_generation
            .store(st.generation, Ordering::Release);
        if range.clone().all(|i| st.cache.map.contains_key(&i)) {
            st.done_generation = st.generation;
        }
        drop(st);
        self.shared.work_cv.notify_all();
        self.shared.done_cv.notify_all();
    }

    /// The cached spans of display line `i`, if highlighted.
    ///
    /// `None` means "not highlighted (yet)": keep the base colouring. A line
    /// whose pieces were all skipped (longer than [`MAX_PIECE_BYTES`]) or an
    /// empty line gives `Some` of empty spans.
    pub fn get(&self, i: usize) -> Option<Arc<StyledSpans>> {
        self.shared.lock().cache.map.get(&i).cloned()
    }

    /// True if new results arrived since the last call (the UI then redraws).
    pub fn take_updates(&self) -> bool {
        self.shared.updated.swap(false, Ordering::AcqRel)
    }

    /// Blocks until all display lines of the last request are highlighted, or
    /// `timeout` passes. Returns true if done (also when nothing was requested),
    /// false on timeout or if the worker is gone.
    pub fn wait(&self, timeout: Duration) -> bool {
        let deadline = Instant::now().checked_add(timeout);
        let mut st = self.shared.lock();
        loop {
            if st.done_generation >= st.generation {
                return true;
            }
            if st.stopped {
                return false;
            }
            st = match deadline {
                None => self
                    .shared
                    .done_cv
                    .wait(st)
                    .unwrap_or_else(PoisonError::into_inner),
                Some(deadline) => {
                    let now = Instant::now();
                    if now >= deadline {
                        return false;
                    }
                    self.shared
                        .done_cv
                        .wait_timeout(st, deadline - now)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
            };
        }
    }
}

impl Drop for Highlighter {
    fn drop(&mut self) {
        {
            let _st = self.shared.lock();
            self.shared.shutdown.store(true, Ordering::Release);
        }
        self.shared.work_cv.notify_all();
        if let Some(handle) = self.handle.take() {
            // A panicked worker is ignored: nothing to report from a destructor.
            let _ = handle.join();
        }
    }
}

impl std::fmt::Debug for Highlighter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let st = self.shared.lock();
        f.debug_struct("Highlighter")
            .field("lines", &self.lines_len)
            .field("request", &st.request)
            .field("cached_lines", &st.cache.map.len())
            .field("done", &(st.done_generation >= st.generation))
            .finish()
    }
}

/// State shared between the UI side and the worker.
struct Shared {
    state: Mutex<State>,
    /// Signals the worker: new request or shutdown.
    work_cv: Condvar,
    /// Signals waiters: a request is done or the worker stopped.
    done_cv: Condvar,
    /// Mirror of `State::generation`, read lock-free by the worker between pieces.
    latest_generation: AtomicU64,
    shutdown: AtomicBool,
    updated: AtomicBool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

struct State {
    /// The latest requested display lines (clamped).
    request: Range<usize>,
    /// Incremented by every (non-repeated) request.
    generation: u64,
    /// The latest generation whose lines are all cached.
    done_generation: u64,
    /// The worker has exited.
    stopped: bool,
    cache: Cache,
}

/// Display line -> spans, bounded by line count and total span count.
struct Cache {
    map: HashMap<usize, Arc<StyledSpans>>,
    spans: usize,
    /// Evict when the line count exceeds this (>= [`MAX_CACHED_LINES`]; raised
    /// when protected lines keep the cache above the cap, to avoid thrashing).
    check_lines: usize,
    /// Same for the span count.
    check_spans: usize,
}

impl Default for Cache {
    fn default() -> Self {
        Cache {
            map: HashMap::new(),
            spans: 0,
            check_lines: MAX_CACHED_LINES,
            check_spans: MAX_CACHED_SPANS,
        }
    }
}

impl State {
    fn insert(&mut self, line: usize, spans: StyledSpans) {
        if self.cache.map.contains_key(&line) {
            return;
        }
        self.cache.spans += spans.len();
        self.cache.map.insert(line, Arc::new(spans));
        if self.cache.map.len() > self.cache.check_lines
            || self.cache.spans > self.cache.check_spans
        {
            self.evict();
        }
    }

    /// Evicts the lines farthest from the current request down to 3/4 of the
    /// caps, never evicting lines of the current request.
    fn evict(&mut self) {
        let req = self.request.clone();
        let centre = req.start + req.len() / 2;
        let mut keys: Vec<usize> = self
            .cache
            .map
            .keys()
            .copied()
            .filter(|k| !req.contains(k))
            .collect();
        keys.sort_unstable_by_key(|&k| std::cmp::Reverse(k.abs_diff(centre)));
        let target_lines = MAX_CACHED_LINES / 4 * 3;
        let target_spans = MAX_CACHED_SPANS / 4 * 3;
        for k in keys {
            if self.cache.map.len() <= target_lines && self.cache.spans <= target_spans {
                break;
            }
            if let Some(v) = self.cache.map.remove(&k) {
                self.cache.spans -= v.len();
            }
        }
        let c = &mut self.cache;
        c.check_lines = MAX_CACHED_LINES.max(c.map.len() + MAX_CACHED_LINES / 4);
        c.check_spans = MAX_CACHED_SPANS.max(c.spans + MAX_CACHED_SPANS / 4);
    }
}

/// Marks the worker as stopped (also when it unwinds) and wakes waiters.
struct StopGuard(Arc<Shared>);

impl Drop for StopGuard {
    fn drop(&mut self) {
        self.0.lock().stopped = true;
        self.0.done_cv.notify_all();
    }
}

/// Syntect assets, loaded once per process (on a worker thread).
struct Assets {
    syntaxes: SyntaxSet,
    theme: Theme,
}

fn assets() -> &'static Assets {
    static ASSETS: OnceLock<Assets> = OnceLock::new();
    ASSETS.get_or_init(|| {
        let syntaxes = SyntaxSet::load_defaults_newlines();
        let mut themes = ThemeSet::load_defaults().themes;
        let theme = match themes.remove(THEME_NAME) {
            Some(t) => t,
            None => themes.into_values().next().unwrap_or_default(),
        };
        Assets { syntaxes, theme }
    })
}

fn html_syntax(syntaxes: &SyntaxSet) -> &SyntaxReference {
    syntaxes
        .find_syntax_by_name("HTML")
        .unwrap_or_else(|| syntaxes.find_syntax_plain_text())
}

/// Where the worker is: before byte `off` of display line `line`, with the
/// spans of that line collected so far and the parser state at that point.
struct Cursor {
    line: usize,
    off: usize,
    spans: StyledSpans,
    parse: ParseState,
    highlight: HighlightState,
}

enum Outcome {
    Done,
    Superseded,
    Shutdown,
}

struct Worker {
    text: Arc<str>,
    lines: Arc<Vec<Range<usize>>>,
    shared: Arc<Shared>,
    assets: &'static Assets,
    highlighter: SynHighlighter<'static>,
    /// `checkpoints[k]`: the state before display line `k * CHECKPOINT_INTERVAL`.
    checkpoints: Vec<Option<(ParseState, HighlightState)>>,
    /// Where the worker stopped last (finished or interrupted).
    cursor: Option<Cursor>,
    /// Scratch buffer for pieces that need a '\n' appended.
    buf: String,
}

impl Worker {
    fn new(text: Arc<str>, lines: Arc<Vec<Range<usize>>>, shared: Arc<Shared>) -> Self {
        let assets = assets();
        let highlighter = SynHighlighter::new(&assets.theme);
        let initial = (
            ParseState::new(html_syntax(&assets.syntaxes)),
            HighlightState::new(&highlighter, ScopeStack::new()),
        );
        let mut checkpoints = vec![None; lines.len() / CHECKPOINT_INTERVAL + 1];
        checkpoints[0] = Some(initial);
        Worker {
            text,
            lines,
            shared,
            assets,
            highlighter,
            checkpoints,
            cursor: None,
            buf: String::new(),
        }
    }

    fn run(mut self) {
        let mut handled = 0u64;
        loop {
            let (generation, range) = {
                let mut st = self.shared.lock();
                loop {
                    if self.shared.shutdown.load(Ordering::Acquire) {
                        return;
                    }
                    if st.generation != handled {
                        break (st.generation, st.request.clone());
                    }
                    st = self
                        .shared
                        .work_cv
                        .wait(st)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            };
            handled = generation;
            match self.serve(generation, range) {
                Outcome::Done => {
                    let mut st = self.shared.lock();
                    st.done_generation = st.done_generation.max(generation);
                    drop(st);
                    self.shared.done_cv.notify_all();
                }
                Outcome::Superseded => {}
                Outcome::Shutdown => return,
            }
        }
    }

    /// Highlights the uncached lines of `range`.
    fn serve(&mut self, generation: u64, range: Range<usize>) -> Outcome {
        let (first, end) = {
            let st = self.shared.lock();
            let uncached = |i: &usize| !st.cache.map.contains_key(i);
            match range.clone().find(uncached) {
                None => return Outcome::Done,
                Some(first) => {
                    let last = range.clone().rev().find(uncached).unwrap_or(first);
                    (first, last + 1)
                }
            }
        };
        let keep_from = range.start.saturating_sub(CACHE_BEHIND);
        let mut cur = self.start_cursor(first);
        while cur.line < end {
            if self.shared.shutdown.load(Ordering::Acquire) {
                return Outcome::Shutdown;
            }
            if self.shared.latest_generation.load(Ordering::Acquire) != generation {
                self.cursor = Some(cur);
                return Outcome::Superseded;
            }
            if cur.off == 0 && cur.line.is_multiple_of(CHECKPOINT_INTERVAL) {
                let slot = &mut self.checkpoints[cur.line / CHECKPOINT_INTERVAL];
                if slot.is_none() {
                    *slot = Some((cur.parse.clone(), cur.highlight.clone()));
                }
            }
            if self.step(&mut cur) {
                let spans = std::mem::take(&mut cur.spans);
                if cur.line >= keep_from {
                    self.shared.lock().insert(cur.line, spans);
                    self.shared.updated.store(true, Ordering::Release);
                }
                cur.line += 1;
                cur.off = 0;
            }
        }
        self.cursor = Some(cur);
        Outcome::Done
    }

    /// The cheapest known state from which display line `first` can be reached.
    fn start_cursor(&mut self, first: usize) -> Cursor {
        let mut k = (first / CHECKPOINT_INTERVAL).min(self.checkpoints.len() - 1);
        while self.checkpoints[k].is_none() {
            k -= 1; // checkpoints[0] is always set
        }
        let cp_line = k * CHECKPOINT_INTERVAL;
        if let Some(c) = self.cursor.take() {
            if c.line >= cp_line && c.line <= first {
                return c;
            }
        }
        let (parse, highlight) = self.checkpoints[k].clone().expect("checkpoint 0 is set");
        Cursor {
            line: cp_line,
            off: 0,
            spans: Vec::new(),
            parse,
            highlight,
        }
    }

    /// Feeds the next physical piece of `cur.line` to syntect. Returns true
    /// when the display line is finished.
    fn step(&mut self, cur: &mut Cursor) -> bool {
        let range = self.lines[cur.line].clone();
        let Some(line) = self.text.get(range.clone()) else {
            return true;
        };
        if cur.off >= line.len() {
            return true;
        }
        let rest = &line[cur.off..];
        let piece_len = memchr::memchr(b'\n', rest.as_bytes()).map_or(rest.len(), |p| p + 1);
        let piece = &rest[..piece_len];
        let abs = range.start + cur.off;
        let (input, emit) = if piece.len() > MAX_PIECE_BYTES {
            ("\n", false)
        } else if piece.ends_with('\n') {
            (piece, true)
        } else {
            self.buf.clear();
            self.buf.push_str(piece);
            self.buf.push('\n');
            (self.buf.as_str(), true)
        };
        match cur.parse.parse_line(input, &self.assets.syntaxes) {
            Ok(ops) => {
                let iter = RangedHighlightIterator::new(
                    &mut cur.highlight,
                    &ops,
                    input,
                    &self.highlighter,
                );
                for (style, _, r) in iter {
                    if !emit {
                        continue; // still applies the ops to the highlight state
                    }
                    let end = r.end.min(piece.len());
                    if r.start >= end {
                        continue;
                    }
                    push_span(&mut cur.spans, abs + r.start..abs + end, convert(style));
                }
            }
            Err(_) => {
                // Leave the piece unhighlighted; the state is kept as is.
            }
        }
        cur.off += piece_len;
        cur.off >= line.len()
    }
}

/// Appends a span, merging it with the previous one if adjacent and equal.
fn push_span(spans: &mut StyledSpans, range: Range<usize>, style: Style) {
    if let Some((last, last_style)) = spans.last_mut() {
        if last.end == range.start && *last_style == style {
            last.end = range.end;
            return;
        }
    }
    spans.push((range, style));
}

/// Syntect style -> ratatui style (foreground colour and modifiers only).
fn convert(style: syntect::highlighting::Style) -> Style {
    let fg = style.foreground;
    let mut out = Style::new().fg(Color::Rgb(fg.r, fg.g, fg.b));
    let fs = style.font_style;
    if fs.contains(FontStyle::BOLD) {
        out = out.add_modifier(Modifier::BOLD);
    }
    if fs.contains(FontStyle::ITALIC) {
        out = out.add_modifier(Modifier::ITALIC);
    }
    if fs.contains(FontStyle::UNDERLINE) {
        out = out.add_modifier(Modifier::UNDERLINED);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const WAIT: Duration = Duration::from_secs(120);

    /// Physical lines (each ending after its '\n') as display lines.
    fn physical_lines(text: &str) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut start = 0;
        for piece in text.split_inclusive('\n') {
            out.push(start..start + piece.len());
            start += piece.len();
        }
        out
    }

    fn make(text: &str, lines: Vec<Range<usize>>) -> Highlighter {
        Highlighter::new(Arc::from(text), Arc::new(lines))
    }

    /// The style of the span covering byte `at`, if any.
    fn style_at(h: &Highlighter, line: usize, at: usize) -> Option<Style> {
        h.get(line)?
            .iter()
            .find(|(r, _)| r.contains(&at))
            .map(|(_, s)| *s)
    }

    fn check_spans(h: &Highlighter, lines: &[Range<usize>], which: Range<usize>) {
        for i in which {
            let spans = h
                .get(i)
                .unwrap_or_else(|| panic!("line {i} not highlighted"));
            let mut pos = lines[i].start;
            for (r, _) in spans.iter() {
                assert!(r.start >= pos, "line {i}: unsorted/overlapping {r:?}");
                assert!(r.start < r.end, "line {i}: empty span {r:?}");
                assert!(
                    r.end <= lines[i].end,
                    "line {i}: {r:?} beyond {:?}",
                    lines[i]
                );
                pos = r.end;
            }
        }
    }

    /// A page alternating HTML, multi-line scripts and styles; `n` lines.
    fn page(n: usize) -> String {
        let block = [
            "<div class=\"x\"><p>Some text node here &amp; more</p></div>\n",
            "<script type=\"text/javascript\">\n",
            "  var answer = 42; function f(a) { return a + \"str\"; }\n",
            "  /* comment */ if (answer > 1) { f(answer); }\n",
            "</script>\n",
            "<style>\n",
            "  body { color: #fff; margin: 0 auto; }\n",
            "</style>\n",
            "<!-- html comment -->\n",
            "<a href=\"https://example.com/\">link text</a>\n",
        ];
        let mut s = String::from("<!DOCTYPE html>\n");
        let mut i = 1;
        while i < n {
            s.push_str(block[i % block.len()]);
            i += 1;
        }
        s
    }

    #[test]
    fn spans_inside_lines_and_sorted() {
        // Virtual lines: split mid physical line (no '\n' at the end) and
        // lines containing '\n' inside.
        let text = "<html><body><p>Hello <b>world</b></p><script>var a = 1;\nvar b = \"x\";</script>\n<style>p { color: red }</style><p>tail</p>";
        let cuts = [
            0,
            text.find("<p>").unwrap(),
            text.find("<script>").unwrap(),
            text.find("</script>").unwrap() + 10,
            text.find("<p>tail").unwrap(),
            text.len(),
        ];
        let lines: Vec<_> = cuts.windows(2).map(|w| w[0]..w[1]).collect();
        let h = make(text, lines.clone());
        h.request(0..lines.len());
        assert!(h.wait(WAIT));
        check_spans(&h, &lines, 0..lines.len());
        // Highlighted pieces are fully covered.
        for (i, r) in lines.iter().enumerate() {
            let covered: usize = h.get(i).unwrap().iter().map(|(r, _)| r.len()).sum();
            assert_eq!(covered, r.len(), "line {i}");
        }
        assert!(h.take_updates());
        assert!(!h.take_updates());

        let text = page(300);
        let lines = physical_lines(&text);
        let h = make(&text, lines.clone());
        h.request(0..lines.len());
        assert!(h.wait(WAIT));
        check_spans(&h, &lines, 0..lines.len());
    }

    #[test]
    fn script_body_differs_from_text_node() {
        let text = "<p>hello world</p>\n<script>var answer = 42;</script>\n";
        let lines = physical_lines(text);
        let h = make(text, lines.clone());
        h.request(0..2);
        assert!(h.wait(WAIT));
        let text_style = style_at(&h, 0, text.find("hello").unwrap()).unwrap();
        let var_style = style_at(&h, 1, text.find("var").unwrap()).unwrap();
        let num_style = style_at(&h, 1, text.find("42").unwrap()).unwrap();
        assert_ne!(text_style, var_style);
        assert_ne!(text_style, num_style);
        assert!(matches!(var_style.fg, Some(Color::Rgb(..))));
        // Same for a script spread over several lines (state carried over).
        let text = page(12);
        let lines = physical_lines(&text);
        let h = make(&text, lines.clone());
        h.request(0..lines.len());
        assert!(h.wait(WAIT));
        let at = |needle: &str| {
            let pos = text.find(needle).unwrap();
            let line = lines.iter().position(|r| r.contains(&pos)).unwrap();
            style_at(&h, line, pos).unwrap()
        };
        assert_ne!(at("Some text"), at("var answer"));
        assert_ne!(at("Some text"), at("#fff")); // CSS embedded too
    }

    #[test]
    fn long_segment_skipped_and_state_continues() {
        let head = "<p>before</p>\n";
        let long = format!("<p>{}</p>\n", "x".repeat(100 * 1024));
        let tail = "<script>\nvar z = 1;\n</script>\n<p>after</p>\n";
        let text = format!("{head}{long}{tail}");
        let lines = physical_lines(&text);
        let h = make(&text, lines.clone());
        let t = Instant::now();
        h.request(0..lines.len());
        assert!(h.wait(WAIT));
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "long line not skipped"
        );
        check_spans(&h, &lines, 0..lines.len());
        // The skipped line is done, with no spans.
        assert_eq!(h.get(1).unwrap().len(), 0);
        // Later lines match a page without the long line.
        let ref_text = format!("{head}<p>x</p>\n{tail}");
        let ref_lines = physical_lines(&ref_text);
        let r = make(&ref_text, ref_lines.clone());
        r.request(0..ref_lines.len());
        assert!(r.wait(WAIT));
        let shift = text.len() - ref_text.len();
        for i in 2..lines.len() {
            let got: Vec<_> = h.get(i).unwrap().iter().cloned().collect();
            let want: Vec<_> = r
                .get(i)
                .unwrap()
                .iter()
                .map(|(rg, s)| (rg.start + shift..rg.end + shift, *s))
                .collect();
            assert_eq!(got, want, "line {i}");
            assert!(!got.is_empty());
        }
        // A long piece inside a virtual line: only that piece is skipped.
        let text = format!("<p>a</p>\n{}\n<p>b</p>", "y".repeat(20 * 1024));
        let h = make(&text, std::iter::once(0..text.len()).collect());
        h.request(0..1);
        assert!(h.wait(WAIT));
        let spans = h.get(0).unwrap();
        assert!(spans
            .iter()
            .all(|(r, _)| r.end <= 9 || r.start >= text.len() - 8));
        assert!(spans.iter().any(|(r, _)| r.start >= text.len() - 8));
    }

    #[test]
    fn far_jump_and_checkpoint_resume() {
        let text = page(6000);
        let lines = physical_lines(&text);
        assert_eq!(lines.len(), 6000);
        let h = make(&text, lines.clone());
        h.request(5000..5060);
        assert!(h.wait(WAIT));
        check_spans(&h, &lines, 5000..5060);
        assert!(h.get(10).is_none());
        let at_5000: Vec<_> = (5000..5060).map(|i| h.get(i).unwrap()).collect();
        // Jump back, then into the middle (resumes from checkpoints).
        h.request(10..70);
        assert!(h.wait(WAIT));
        h.request(3000..3060);
        assert!(h.wait(WAIT));
        check_spans(&h, &lines, 3000..3060);
        // A fresh highlighter going there via a different path agrees.
        let r = make(&text, lines.clone());
        r.request(4990..5060);
        assert!(r.wait(WAIT));
        for (k, i) in (5000..5060).enumerate() {
            assert_eq!(*at_5000[k], *r.get(i).unwrap(), "line {i}");
        }
        for i in 3000..3060 {
            assert!(h.get(i).is_some());
        }
        // Repeating a done request is immediately done.
        h.request(3000..3060);
        assert!(h.wait(Duration::ZERO));
    }

    #[test]
    fn superseded_requests_retarget() {
        let text = page(6000);
        let lines = physical_lines(&text);
        let h = make(&text, lines.clone());
        for start in (0..6000).step_by(500) {
            h.request(start..start + 40);
        }
        h.request(5900..6000);
        assert!(h.wait(WAIT));
        check_spans(&h, &lines, 5900..6000);
        let r = make(&text, lines.clone());
        r.request(5900..6000);
        assert!(r.wait(WAIT));
        for i in 5900..6000 {
            assert_eq!(*h.get(i).unwrap(), *r.get(i).unwrap(), "line {i}");
        }
    }

    #[test]
    fn drop_while_busy_does_not_hang() {
        let text = page(40_000);
        let lines = physical_lines(&text);
        let h = make(&text, lines);
        h.request(39_000..39_060);
        std::thread::sleep(Duration::from_millis(50));
        let t = Instant::now();
        drop(h);
        assert!(t.elapsed() < Duration::from_secs(5));
        // Dropping right away (before assets may even be loaded) is fine too.
        let h = make("<p>x</p>", std::iter::once(0..8).collect());
        h.request(0..1);
        drop(h);
    }

    #[test]
    fn edge_cases() {
        // Empty page, empty lines, out-of-range requests, bad ranges.
        let h = make("", vec![]);
        h.request(0..10);
        assert!(h.wait(WAIT));
        assert!(h.get(0).is_none());
        let text = "<p>é</p>\n";
        let h = make(text, vec![0..0, 0..4, 4..text.len(), 100..200]);
        h.request(0..100);
        assert!(h.wait(WAIT));
        assert_eq!(h.get(0).unwrap().len(), 0);
        assert_eq!(h.get(1).unwrap().len(), 0); // not a char boundary
        assert_eq!(h.get(3).unwrap().len(), 0); // out of bounds
        assert!(h.get(4).is_none());
    }

    #[test]
    fn cache_is_bounded_and_keeps_the_request() {
        let mut st = State {
            request: 24_000..24_100,
            generation: 1,
            done_generation: 0,
            stopped: false,
            cache: Cache::default(),
        };
        let span = || vec![(0..1, Style::new())];
        for i in 0..30_000 {
            st.insert(i, span());
            assert!(st.cache.map.len() <= MAX_CACHED_LINES);
            assert_eq!(st.cache.spans, st.cache.map.len());
        }
        assert!((24_000..24_100).all(|i| st.cache.map.contains_key(&i)));
        assert!(!st.cache.map.contains_key(&0)); // far lines went first
                                                 // Span cap: big lines.
        let mut st = State {
            request: 0..2,
            generation: 1,
            done_generation: 0,
            stopped: false,
            cache: Cache::default(),
        };
        let big = || vec![(0..1, Style::new()); MAX_CACHED_SPANS / 10];
        for i in 0..40 {
            st.insert(i, big());
            assert!(st.cache.spans <= MAX_CACHED_SPANS);
        }
        assert!(st.cache.map.contains_key(&0) && st.cache.map.contains_key(&1));
    }

    /// Latency figures; run with
    /// `cargo test --release --lib tui::highlight::tests::measure -- --ignored --nocapture`.
    #[test]
    #[ignore = "measurement, prints figures"]
    fn measure() {
        let mut text = page(2);
        let mut n = 2;
        while text.len() < 1 << 20 {
            n *= 2;
            text = page(n);
        }
        let lines = physical_lines(&text);
        let n = lines.len();
        let time = |h: &Highlighter, r: Range<usize>| {
            let t = Instant::now();
            h.request(r);
            assert!(h.wait(WAIT));
            t.elapsed()
        };
        let h = make(&text, lines.clone());
        let first = time(&h, 0..60);
        let far = time(&h, n - 100..n - 40);
        let back = time(&h, n / 2..n / 2 + 60);
        let scroll = time(&h, n / 2 + 1..n / 2 + 61);
        let h2 = make(&text, lines.clone());
        let cold_far = time(&h2, n - 100..n - 40);
        println!(
            "page {} bytes, {n} lines: first 60 lines {first:?}; far jump to end {far:?}; \
             back to middle {back:?}; scroll by 1 {scroll:?}; cold far jump {cold_far:?}",
            text.len()
        );
        // Whole page throughput.
        let h3 = make(&text, lines.clone());
        let t = Instant::now();
        let mut s = 0;
        while s < n {
            h3.request(s..s + MAX_REQUEST_LINES);
            assert!(h3.wait(WAIT));
            s += MAX_REQUEST_LINES;
        }
        let el = t.elapsed();
        println!(
            "whole page: {el:?} ({:.2} MB/s)",
            text.len() as f64 / 1e6 / el.as_secs_f64()
        );
    }
}
