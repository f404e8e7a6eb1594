//! The source panel: the page's display lines (virtual, raw or reading view) with the gutter's
//! overlay marks, line numbers, class colours, syntect refinement and the shadings (search,
//! annotation, compare, selection).

use std::ops::Range;
use std::sync::Arc;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, StatefulWidget, Widget};

use super::super::app::{App, Doc, LineClass, Rects, View, GOLD_COLOR};
use super::super::display::display_chars;
use super::style::{
    class_style, digits, shade_bg, shorten_middle, Runs, CURRENT_MATCH_BG, FN_BG, FP_BG,
    HEADLINE_BG, MATCH_BG, SELECT_BG, SUGGESTED_HEADLINE_BG, TP_BG,
};
use crate::extract::{revealed, Extraction, LineTrace, Role};
use crate::page::{ByteClass, Page, Span as LexSpan};
use crate::selection::Selection;

/// Most gutter columns; beyond it the most recently overlaid columns give way (never the active
/// algorithm's).
const GUTTER_MAX: usize = 8;

/// A shading of the source text: byte ranges (sorted, disjoint) and their background colour.
type Layer<'a> = (&'a [Range<usize>], Color);

/// The gutter's columns in a frame.
pub(super) struct Gutter {
    /// The algorithms with a column, left to right ([`App::gutter_columns`], at most
    /// [`GUTTER_MAX`]).
    pub(super) columns: Vec<usize>,
    /// How many algorithms are overlaid, also those beyond the last column.
    overlaid: usize,
}

impl Gutter {
    /// The gutter of `app`: the overlaid algorithms, then the active one; the most recently
    /// overlaid give way beyond [`GUTTER_MAX`] (the active one never).
    pub(super) fn of(app: &App) -> Gutter {
        let mut columns = app.gutter_columns();
        let overlaid = columns.len();
        while columns.len() > GUTTER_MAX {
            match columns.iter().rposition(|&i| i != app.active) {
                Some(k) => columns.remove(k),
                None => break,
            };
        }
        Gutter { columns, overlaid }
    }
}

/// The source panel. Drawn after the frame's set-up has fitted the view to the panel
/// ([`App::fit_view`]) and made the line traces of the gutter's algorithms
/// ([`App::line_trace`]); records the text area and where the text starts in [`Rects`].
pub(super) struct SourceView<'a> {
    app: &'a App,
    gutter: &'a Gutter,
}

impl<'a> SourceView<'a> {
    pub(super) fn new(app: &'a App, gutter: &'a Gutter) -> Self {
        SourceView { app, gutter }
    }
}

impl StatefulWidget for SourceView<'_> {
    type State = Rects;

    fn render(self, area: Rect, buf: &mut Buffer, rects: &mut Rects) {
        let app = self.app;
        let name = app
            .doc
            .as_ref()
            .map_or_else(|| "(no page)".into(), |d| d.page.name().to_string());
        let mode = match app.view() {
            View::Reading => "reading view",
            View::Raw => "raw lines",
            View::Virtual => "virtual lines",
        };
        let gold_shown = app.gold_overlay && app.doc.as_ref().is_some_and(|d| d.gold.is_some());
        let mut block = frame(source_title(
            app,
            &name,
            mode,
            self.gutter,
            gold_shown,
            area.width,
        ));
        if let Some(bar) = super::pathbar::path_bar(app, area.width) {
            block = block.title_bottom(bar);
        }
        let inner = block.inner(area);
        block.render(area, buf);
        rects.source = inner;
        let Some(doc) = app.doc.as_ref() else {
            Paragraph::new("No page open. See the status bar for the reason.").render(inner, buf);
            return;
        };
        let shades = Shades::of(app);
        let rows = Rows::new(app, doc, self.gutter, &shades);
        let n = app.line_count();
        let mut text_x = inner.x;
        for (row, y) in (inner.y..inner.bottom()).enumerate() {
            let i = app.source.top() + row;
            if i >= n {
                break;
            }
            let (line, used) = rows.line(i, usize::from(inner.width));
            if row == 0 {
                text_x = inner.x + u16::try_from(used).unwrap_or(u16::MAX);
            }
            Paragraph::new(line).render(Rect::new(inner.x, y, inner.width, 1), buf);
        }
        rects.source_text_x = text_x;
    }
}

/// The source panel's frame, with `title`.
fn frame(title: Line<'static>) -> Block<'static> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(Color::DarkGray))
        .title(title)
}

/// Text rows of a source panel drawn in `area`.
pub(super) fn text_rows(area: Rect) -> usize {
    usize::from(frame(Line::default()).inner(area).height)
}

/// The source panel's title: the file (shortened in the middle when long) and the view, then
/// the gutter's legend — one coloured mark per column in column order (the active algorithm's
/// name bold), then the gold's. The legend never ends mid-name: names that do not fit in
/// `width` give way to "+N more" (the active one last of all), which also counts the overlaid
/// algorithms beyond the gutter's last column.
fn source_title(
    app: &App,
    name: &str,
    mode: &str,
    gutter: &Gutter,
    gold: bool,
    width: u16,
) -> Line<'static> {
    let columns = &gutter.columns;
    let dropped = gutter.overlaid.saturating_sub(columns.len());
    let width = usize::from(width).saturating_sub(4);
    let entry = |i: usize| format!("▌{} ", app.algos[i].extractor.name());
    let gold_w = if gold { "▌gold ".chars().count() } else { 0 };
    let active_w = entry(app.active).chars().count();
    // The file name gets what the mode and the active algorithm's mark leave (at least 12).
    let room = width
        .saturating_sub(mode.len() + 5 + active_w + gold_w)
        .max(12);
    let head = format!(" {} — {mode} ", shorten_middle(name, room));
    let mut left = width.saturating_sub(head.chars().count() + gold_w);
    // Which columns are named: the active one first, then the others in column order while
    // they fit with room for "+N more".
    let mut named = vec![false; columns.len()];
    if let Some(k) = columns.iter().position(|&i| i == app.active) {
        if active_w <= left {
            named[k] = true;
            left -= active_w;
        }
    }
    let more_w = |n: usize| {
        if n == 0 {
            0
        } else {
            format!("+{n} more ").len()
        }
    };
    for k in 0..columns.len() {
        if named[k] {
            continue;
        }
        let unnamed_after = named.iter().filter(|x| !**x).count() - 1 + dropped;
        let w = entry(columns[k]).chars().count();
        if w + more_w(unnamed_after) <= left {
            named[k] = true;
            left -= w;
        }
    }
    let mut spans = vec![Span::styled(
        head,
        Style::default()
            .fg(Color::Gray)
            .add_modifier(Modifier::BOLD),
    )];
    for (k, &i) in columns.iter().enumerate() {
        if !named[k] {
            continue;
        }
        let mut st = Style::default().fg(app.algos[i].color);
        if i == app.active {
            st = st.add_modifier(Modifier::BOLD);
        }
        spans.push(Span::styled(entry(i), st));
    }
    let hidden = named.iter().filter(|x| !**x).count() + dropped;
    if hidden > 0 {
        spans.push(Span::styled(
            format!("+{hidden} more "),
            Style::default().fg(Color::Gray),
        ));
    }
    if gold {
        spans.push(Span::styled("▌gold ", Style::default().fg(GOLD_COLOR)));
    }
    Line::from(spans)
}

/// Does display line `i` (bytes `range`) carry the gutter mark of `sel`? A line that shows
/// content text is marked iff `sel` holds some of it ([`Page::holds_selected_text`]: the
/// extract has a line from it), so the gutter and `cescope extract` agree; in the reading view
/// every line is such a line. A line of markup only follows the trace's Selected marks `lt`
/// (the algorithm's own decision, at its own unit), or, without them, whether `sel` touches it.
fn line_selected(
    page: &Page,
    lt: Option<&LineTrace>,
    sel: &Selection,
    i: usize,
    range: &Range<usize>,
) -> bool {
    if page.holds_text(range.clone()) {
        return page.holds_selected_text(sel, range.clone());
    }
    match lt.and_then(|lt| lt.marks.iter().find(|m| m.role == Role::Selected)) {
        Some(m) => m.contains(i),
        None => sel.intersects(range.clone()),
    }
}

/// The ranges behind the source's shadings that are made for the frame (the others are the
/// app's own: search matches, the active algorithm's selection).
struct Shades {
    /// The search match the cursor moved to.
    current_match: Vec<Range<usize>>,
    /// Characters selected with the mouse for annotation.
    char_sel: Vec<Range<usize>>,
    /// The annotated headline.
    headline: Vec<Range<usize>>,
    /// Step mode is off or at the active algorithm's last phase: its selection shades.
    last_phase: bool,
}

impl Shades {
    fn of(app: &App) -> Shades {
        let active = app.active_algo();
        let current_match = app
            .source
            .search()
            .and_then(|s| s.matches.get(s.current?).cloned())
            .into_iter()
            .collect();
        let ann = app.ann.as_ref();
        let phases = active.extractor.phases();
        Shades {
            current_match,
            char_sel: ann.and_then(|a| a.char_sel.clone()).into_iter().collect(),
            headline: ann
                .and_then(|a| a.gold.headline_range())
                .into_iter()
                .collect(),
            last_phase: app.step.is_none_or(|s| s + 1 >= phases.len()),
        }
    }

    /// The background layers of the source text, first match wins: search matches (the
    /// current one brighter), the mouse selection, the headline (a suggestion nobody confirmed
    /// always, shaded apart), then the compare overlay or the active algorithm's selection.
    fn layers<'a>(&'a self, app: &'a App) -> Vec<Layer<'a>> {
        let mut layers: Vec<Layer<'a>> = Vec::new();
        if let Some(s) = app.source.search() {
            layers.push((&self.current_match, CURRENT_MATCH_BG));
            layers.push((&s.matches, MATCH_BG));
        }
        if !self.char_sel.is_empty() {
            layers.push((&self.char_sel, SELECT_BG));
        }
        let suggested = app
            .ann
            .as_ref()
            .is_some_and(crate::tui::annotate::Annotation::headline_unconfirmed);
        if !self.headline.is_empty() && (app.gold_overlay || suggested) {
            let bg = if suggested {
                SUGGESTED_HEADLINE_BG
            } else {
                HEADLINE_BG
            };
            layers.push((&self.headline, bg));
        }
        if let Some(c) = &app.frame.compare {
            layers.push((c[0].ranges(), TP_BG));
            layers.push((c[1].ranges(), FP_BG));
            layers.push((c[2].ranges(), FN_BG));
        } else if self.last_phase {
            let active = app.active_algo();
            if let Some(r) = &active.result {
                layers.push((r.selection.ranges(), shade_bg(active.color)));
            }
        }
        layers
    }
}

/// What every row of the source panel is drawn from.
struct Rows<'a> {
    app: &'a App,
    doc: &'a Doc,
    /// One entry per gutter column; `None` draws a blank column (overlay off, or the active
    /// algorithm's decision not revealed yet in step mode).
    overlays: Vec<Option<(usize, &'a Arc<Extraction>)>>,
    /// The gold's gutter column, when it is shown.
    gold: Option<&'a Selection>,
    layers: Vec<Layer<'a>>,
    /// Width of the line numbers.
    num_w: usize,
}

impl<'a> Rows<'a> {
    fn new(app: &'a App, doc: &'a Doc, gutter: &Gutter, shades: &'a Shades) -> Rows<'a> {
        // In step mode the active algorithm's decision shows in the gutter once its Selected
        // marks are revealed, and its selection shades the source at the last phase. While a
        // phase unfolds span by span, the gutter waits for its end.
        let phases = app.active_algo().extractor.phases();
        let decision_shown = app.substep.is_none()
            && (shades.last_phase
                || app.active_algo().result.as_ref().is_some_and(|x| {
                    x.trace
                        .marks
                        .iter()
                        .any(|m| m.role == Role::Selected && revealed(phases, app.step, &m.key))
                }));
        let overlays = gutter
            .columns
            .iter()
            .map(|&i| {
                app.algos[i]
                    .result
                    .as_ref()
                    .filter(|_| i != app.active || decision_shown)
                    .map(|r| (i, r))
            })
            .collect();
        Rows {
            app,
            doc,
            overlays,
            gold: doc.gold.as_ref().filter(|_| app.gold_overlay),
            layers: shades.layers(app),
            num_w: digits(app.line_count().max(1)) + 1,
        }
    }

    /// Display line `i` in a row `width` columns wide: gutter, line number and text; and the
    /// columns before the text.
    fn line(&self, i: usize, width: usize) -> (Line<'a>, usize) {
        let app = self.app;
        let page = &self.doc.page;
        let range = app.line_range(i).unwrap_or(0..0);
        let mut spans: Vec<Span> = Vec::new();
        for o in &self.overlays {
            let Some((ai, x)) = o else {
                spans.push(Span::raw(" "));
                continue;
            };
            let a = &app.algos[*ai];
            let lt = a.line_cache.get(app.view()).as_deref();
            spans.push(gutter_mark(
                line_selected(page, lt, &x.selection, i, &range),
                a.color,
            ));
        }
        if let Some(g) = self.gold {
            spans.push(gutter_mark(
                line_selected(page, None, g, i, &range),
                GOLD_COLOR,
            ));
        }
        spans.push(Span::styled(
            format!("{:>w$} ", i + 1, w = self.num_w),
            self.number_style(i),
        ));
        let used: usize = spans.iter().map(Span::width).sum();
        let width = width.saturating_sub(used);
        if app.view() == View::Reading {
            if let Some(l) = self.doc.reading.get(i) {
                spans.extend(styled_reading(l, app.source.hscroll(), width, &self.layers));
            }
        } else {
            let text = page.text();
            let shown = range.start..range.start + text[range.clone()].trim_end().len();
            let hl = self.doc.hl.get(app.view()).as_ref();
            let hl_spans = hl.and_then(|h| h.get(i));
            spans.extend(self.styled_text(shown, width, hl_spans.as_deref().map(Vec::as_slice)));
        }
        (Line::from(spans), used)
    }

    /// The line number's style: the cursor's, the visual range's, the compare class's.
    fn number_style(&self, i: usize) -> Style {
        let app = self.app;
        let in_visual =
            app.ann.as_ref().and_then(|a| a.visual).is_some_and(|v| {
                v.min(app.source.cursor()) <= i && i <= v.max(app.source.cursor())
            });
        if i == app.source.cursor() {
            Style::default().fg(Color::Black).bg(Color::Gray)
        } else if in_visual {
            Style::default().fg(Color::White).bg(SELECT_BG)
        } else if app.compare {
            match app.line_class(i) {
                Some(LineClass::TruePositive) => Style::default().fg(Color::Black).bg(Color::Green),
                Some(LineClass::FalsePositive) => Style::default().fg(Color::Black).bg(Color::Red),
                Some(LineClass::FalseNegative) => {
                    Style::default().fg(Color::Black).bg(Color::Yellow)
                }
                _ => Style::default().fg(Color::DarkGray),
            }
        } else {
            Style::default().fg(Color::DarkGray)
        }
    }

    /// The visible part (from column `hscroll`, `width` columns) of the source bytes `range`
    /// as styled spans: class colours, syntect refinement `hl`, the shadings; newlines shown as
    /// `↵` (a run of white space after a newline collapses into it, except on raw lines), tabs
    /// as spaces, control characters as `·`.
    fn styled_text(
        &self,
        range: Range<usize>,
        width: usize,
        hl: Option<&[(Range<usize>, Style)]>,
    ) -> Vec<Span<'static>> {
        let text = self.doc.page.text();
        let lex: &[LexSpan] = &self.doc.page.lexed().spans;
        let hscroll = self.app.source.hscroll();
        let trim_leading = self.app.view() != View::Raw;
        let mut runs = Runs::default();
        let mut si = lex.partition_point(|s| (s.end as usize) <= range.start);
        let mut hi = 0usize;
        let mut ris: Vec<usize> = self
            .layers
            .iter()
            .map(|(rs, _)| rs.partition_point(|r| r.end <= range.start))
            .collect();
        let mut col = 0usize; // display columns consumed, including the scrolled-off ones
        let limit = hscroll + width;
        for (b, shown, w) in display_chars(text, range.clone(), trim_leading) {
            if col >= limit {
                break;
            }
            if col < hscroll {
                col += w;
                continue;
            }
            if col + w > limit {
                break;
            }
            col += w;
            while si < lex.len() && (lex[si].end as usize) <= b {
                si += 1;
            }
            let class = lex.get(si).map_or(ByteClass::Text, |s| s.class);
            let mut st = class_style(class);
            if let Some(h) = hl {
                while hi < h.len() && h[hi].0.end <= b {
                    hi += 1;
                }
                if let Some((r, s)) = h.get(hi) {
                    if r.start <= b {
                        st = st.patch(*s);
                    }
                }
            }
            if shown == '↵' || shown == '·' {
                st = Style::default().fg(Color::DarkGray);
            }
            for (k, (rs, bg)) in self.layers.iter().enumerate() {
                while ris[k] < rs.len() && rs[ris[k]].end <= b {
                    ris[k] += 1;
                }
                if rs.get(ris[k]).is_some_and(|r| r.start <= b) {
                    st = st.bg(*bg);
                    break;
                }
            }
            runs.push(shown, st);
        }
        runs.finish()
    }
}

/// A gutter cell: the mark in `color` when `marked`, else blank.
fn gutter_mark(marked: bool, color: Color) -> Span<'static> {
    if marked {
        Span::styled("▌", Style::default().fg(color))
    } else {
        Span::raw(" ")
    }
}

/// One line of the reading view as styled spans: its text from column `hscroll`, each char
/// shaded by the first layer whose ranges hold the char's source byte.
fn styled_reading(
    l: &crate::page::text::ReadingLine,
    hscroll: usize,
    width: usize,
    layers: &[Layer<'_>],
) -> Vec<Span<'static>> {
    let mut runs = Runs::default();
    for (c, &b) in l.text.chars().zip(&l.starts).skip(hscroll).take(width) {
        let mut st = Style::default();
        for (rs, bg) in layers {
            let k = rs.partition_point(|r| r.end <= b);
            if rs.get(k).is_some_and(|r| r.start <= b) {
                st = st.bg(*bg);
                break;
            }
        }
        runs.push(c, st);
    }
    runs.finish()
}
