//! The open page ([`Doc`]) and its display lines: virtual lines, raw lines or the reading
//! view; mapping between lines and bytes, switching views on the same text, and the traces of
//! the algorithms aggregated to the lines shown.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{App, HeadlineRow, View};
use crate::corpus::GoldText;
use crate::extract::LineTrace;
use crate::metrics::{word_prf, Prf};
use crate::page::Page;
use crate::selection::Selection;
use crate::tui::highlight::Highlighter;

/// One value for each [`View`] (a cache kept per kind of display line), by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PerView<T> {
    /// For the virtual lines.
    pub virtual_lines: T,
    /// For the raw lines.
    pub raw_lines: T,
    /// For the reading view's lines.
    pub reading: T,
}

impl<T> PerView<T> {
    /// The value for view `v`.
    pub fn get(&self, v: View) -> &T {
        match v {
            View::Virtual => &self.virtual_lines,
            View::Raw => &self.raw_lines,
            View::Reading => &self.reading,
        }
    }

    /// The value for view `v`, to change it.
    pub fn get_mut(&mut self, v: View) -> &mut T {
        match v {
            View::Virtual => &mut self.virtual_lines,
            View::Raw => &mut self.raw_lines,
            View::Reading => &mut self.reading,
        }
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
    /// syntect layers for virtual and raw lines (when enabled; never for the reading view).
    pub hl: PerView<Option<Highlighter>>,
    /// The gold standard's main content, when one exists.
    pub gold: Option<Selection>,
    /// The gold standard's text (what extracts are evaluated against).
    pub gold_text: Option<String>,
    /// The gold text is the corpus' own (ground-truth.json) rather than a gold file's.
    pub gold_from_corpus: bool,
    /// The headline of the corpus' gold text, when it has one.
    pub gold_headline: Option<String>,
    /// The headline finder's candidates merged by text, computed once per page on first use
    /// ([`App::headline_rows`]): the headline panel redraws and the first-annotation
    /// suggestion read them instead of re-running the headline finder.
    pub headlines: std::sync::OnceLock<Arc<Vec<HeadlineRow>>>,
    /// Whether the page is a JavaScript shell, and the counts behind it
    /// ([`crate::page::shell`]), read when the page opens.
    pub shell: crate::page::shell::ShellCheck,
    /// The page's blocks are built ([`Doc::blocks_ready`]); set by the thread that builds them.
    pub(super) blocks_ready: Arc<std::sync::atomic::AtomicBool>,
    /// A frame has been asked for since the blocks were built ([`App::poll_background`]).
    pub(super) blocks_seen: bool,
}

impl Doc {
    /// P / R / F1 of `sel` against the page's gold text, when there is one (word-sequence LCS).
    pub(super) fn prf(&self, sel: &Selection) -> Option<Prf> {
        self.gold_text
            .as_ref()
            .map(|g| word_prf(&self.page.render(sel), g))
    }

    pub(super) fn open(path: &Path, page: Page, syntax: bool, gold_text: Option<&GoldText>) -> Doc {
        let page = Arc::new(page);
        let vlines: Vec<Range<usize>> = page.lines().lines.iter().map(|l| l.range()).collect();
        let rlines = crate::page::lines::raw_lines(page.text());
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
            PerView {
                virtual_lines: Some(Highlighter::new(t.clone(), vlines.clone())),
                raw_lines: Some(Highlighter::new(t, rlines.clone())),
                reading: None,
            }
        } else {
            PerView::default()
        };
        let gold_from_corpus = gold_text.is_some();
        let shell = page.shell_check();
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
            shell,
            blocks_ready: Arc::default(),
            blocks_seen: false,
        }
    }
}

impl Doc {
    /// The byte ranges of the display lines of view `v`.
    pub fn lines(&self, v: View) -> &[Range<usize>] {
        match v {
            View::Virtual => &self.vlines,
            View::Raw => &self.rlines,
            View::Reading => &self.reading_ranges,
        }
    }
}

/// The byte ranges of the display lines of view `v` of the open page, if any (none without
/// one): what the source panel's methods take ([`crate::tui::panels::source::SourcePanel`]).
pub(super) fn page_lines(doc: &Option<Doc>, v: View) -> &[Range<usize>] {
    doc.as_ref().map_or(&[], |d| d.lines(v))
}

impl App {
    /// Which display lines are shown ([`crate::tui::panels::source::SourcePanel::view`]).
    pub fn view(&self) -> View {
        self.source.view()
    }

    /// The byte ranges of the display lines of the current view.
    pub(super) fn display_lines<'a>(&self, d: &'a Doc) -> &'a [Range<usize>] {
        d.lines(self.source.view())
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
        match (&self.doc, self.source.view()) {
            (Some(d), View::Raw) => d
                .raw_to_virtual
                .get(i)
                .map(|r| r.start.min(d.vlines.len().saturating_sub(1)))
                .unwrap_or(0),
            (Some(d), View::Reading) => d.reading.get(i).map_or(0, |l| l.line),
            _ => i,
        }
    }

    /// The byte under display column `col` (0 = first text column) of display line `line`,
    /// as drawn (same trimming and horizontal scroll as the source view).
    pub fn byte_at(&self, line: usize, col: usize) -> Option<usize> {
        let d = self.doc.as_ref()?;
        let hscroll = self.source.hscroll();
        if self.view() == View::Reading {
            // The reading view shows text chars one column each (wide chars aside): the char
            // under the column, else the line's last.
            let l = d.reading.get(line)?;
            let k = (hscroll + col).min(l.starts.len().checked_sub(1)?);
            return l.starts.get(k).copied();
        }
        let range = self.line_range(line)?;
        let text = d.page.text();
        let t = text[range.clone()].trim_end();
        let shown = range.start..range.start + t.len();
        let mut c = 0usize;
        let mut last = shown.start;
        let trim = self.view() != View::Raw;
        for (b, _, w) in crate::tui::display::display_chars(text, shown.clone(), trim) {
            if c + w > hscroll + col {
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
        crate::tui::panels::source::line_at_byte(page_lines(&self.doc, self.view()), b)
    }

    /// The trace of algorithm `i` aggregated to the current display lines, computed once per
    /// result and view ([`crate::extract::to_lines`]); `None` without a page or a result.
    pub fn line_trace(&mut self, i: usize) -> Option<Arc<LineTrace>> {
        let view = self.view();
        let doc = self.doc.as_ref()?;
        let a = self.algos.get_mut(i)?;
        let x = a.result.as_ref()?;
        let cached = a.line_cache.get_mut(view);
        if cached.is_none() {
            let lt = crate::extract::to_lines(&x.trace, &doc.page, doc.lines(view));
            *cached = Some(Arc::new(lt));
        }
        cached.clone()
    }

    /// The trace of algorithm `i` on the current display lines if [`App::line_trace`] has
    /// made it for the current result and view (drawing reads it after the frame's set-up made
    /// it).
    pub fn cached_line_trace(&self, i: usize) -> Option<&Arc<LineTrace>> {
        self.algos.get(i)?.line_cache.get(self.view()).as_ref()
    }

    /// `r`: raw lines, or back to virtual lines (from the reading view: raw lines).
    pub(super) fn toggle_raw(&mut self) {
        self.switch_view(self.source.raw_toggle());
    }

    /// `w`: the reading view, or back to the source lines it was entered from.
    pub(super) fn toggle_reading(&mut self) {
        self.switch_view(self.source.reading_toggle());
    }

    /// Switches to view `to`, keeping the cursor on the text it was on
    /// ([`crate::tui::panels::source::SourcePanel::switch_view`]) and the visual-mode anchor,
    /// a display line too, on its text.
    pub(super) fn switch_view(&mut self, to: View) {
        let anchor_byte = self.ann.as_ref().and_then(|a| a.visual);
        let anchor_byte = anchor_byte
            .and_then(|v| self.line_range(v))
            .map(|r| r.start);
        let doc = &self.doc;
        self.source.switch_view(to, |v| page_lines(doc, v));
        let anchor = anchor_byte.map(|b| self.line_at_byte(b));
        if let Some(ann) = self.ann.as_mut() {
            ann.visual = anchor;
        }
    }

    /// Asks the highlighter for the visible lines (plus a margin).
    pub fn request_highlight(&self) {
        if let Some(d) = &self.doc {
            if let Some(h) = d.hl.get(self.view()) {
                let n = self.line_count();
                let top = self.source.top();
                let s = top.saturating_sub(20);
                let e = (top + self.source.height() + 20).min(n);
                h.request(s..e);
            }
        }
    }
}
