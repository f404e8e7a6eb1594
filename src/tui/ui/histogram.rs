//! Drawing the histogram panel beside the source ([`crate::tui::panels::histogram`] holds its
//! state): the active algorithm's series per display line, drawn from their roles (two-sided,
//! combined, size), threshold markers, the marks on the axis, one column per candidate set, and
//! the whole-page overview column. Its rows are the source panel's lines, from the source's
//! first line on screen, its cursor row marked on the axis. What takes computing — the series
//! chosen, their scale, the overview's selected lines — is worked out before the frame
//! ([`work_out`], into [`App::frame`]); drawing reads it.

use std::ops::Range;
use std::sync::Arc;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::widgets::{Paragraph, StatefulWidget, Widget};

use super::super::app::{App, Rects};
use super::super::panels::histogram::{HistMode, HistogramFrame};
use super::style::{fmt_value, title_block};
use crate::extract::{revealed, LineMarks, LineSeries, LineTrace, Role};

/// The histogram panel, its title naming the series drawn and its bottom border the scale.
/// Drawn from what [`work_out`] put in [`App::frame`]; records the bars, the overview column
/// and the scale in [`Rects`].
pub(super) struct Histogram<'a>(pub(super) &'a App);

impl StatefulWidget for Histogram<'_> {
    type State = Rects;

    fn render(self, area: Rect, buf: &mut Buffer, rects: &mut Rects) {
        let app = self.0;
        let block = title_block(app.frame.histogram.title.clone());
        let inner = block.inner(area);
        block.render(area, buf);
        if app.doc.is_none() {
            return;
        }
        draw_bars(app, inner, buf, rects);
        // The scale on the bottom border: what a full half-width bar stands for.
        if area.height >= 2 && area.width > 12 {
            let t = format!(" full bar = {} ", fmt_value(rects.hist_scale));
            let w = u16::try_from(t.chars().count())
                .unwrap_or(u16::MAX)
                .min(area.width - 2);
            Paragraph::new(t)
                .style(Style::default().fg(Color::Gray))
                .render(Rect::new(area.x + 1, area.bottom() - 1, w, 1), buf);
        }
    }
}

/// What the histogram of the next frame shows (before it is drawn, with the rest of the frame:
/// `super::prepare`, after the active algorithm's line trace is made and the unfolding step's
/// spans worked out): the title, the trace with an unfolding phase's marks cut to the spans
/// revealed, the series drawn and their scale, the candidate-set columns, the overview's
/// selected lines.
pub(super) fn work_out(app: &App) -> HistogramFrame {
    let full = app.cached_line_trace(app.active).cloned();
    let title = hist_title(app, full.as_deref());
    let Some(lt) = full else {
        return HistogramFrame {
            title,
            ..HistogramFrame::default()
        };
    };
    // An unfolding phase shows only the spans revealed so far.
    let lt = match &app.frame.unfolded {
        Some((key, spans)) => {
            let mut l = (*lt).clone();
            if let Some(m) = l.marks.iter_mut().find(|m| m.key == *key) {
                m.spans = spans.clone();
            }
            Arc::new(l)
        }
        None => lt,
    };
    let phases = app.active_algo().extractor.phases();
    let shown = |key: &str| revealed(phases, app.step, key);
    let d = Drawn::of(app, &lt);
    let values = |k: Option<usize>| -> &[f64] { k.map_or(&[], |k| lt.series[k].values.as_slice()) };
    let scalar_marks: Vec<f64> = lt
        .scalars
        .iter()
        .filter(|s| s.role == Role::Threshold && shown(&s.key))
        .map(|s| s.value)
        .collect();
    // The scale: the 98th percentile of the bars (so one huge line does not flatten the rest),
    // widened to keep threshold markers inside.
    let scale = d
        .markers
        .iter()
        .map(|&k| percentile_abs(&lt.series[k].values, 0.98))
        .chain(scalar_marks.iter().map(|v| v.abs() * 1.25))
        .fold(
            percentile_abs(values(d.left), 0.98).max(percentile_abs(values(d.right), 0.98)),
            f64::max,
        );
    let strip = candidate_strip(&lt, &shown);
    let overview = overview_selection(app, &lt);
    HistogramFrame {
        title,
        mode: d.mode,
        left: d.left,
        right: d.right,
        markers: d.markers,
        scalar_marks,
        scale: if scale > 0.0 { scale } else { 1.0 },
        strip,
        overview,
        trace: Some(lt),
    }
}

/// The series the histogram draws for the active algorithm, chosen from roles alone (indices
/// into the trace's series).
struct Drawn {
    mode: HistMode,
    /// Left of the axis.
    left: Option<usize>,
    /// Right of the axis (the combined signal: both sides, by sign).
    right: Option<usize>,
    /// Revealed thresholds and superseded sizes, drawn as marker lines.
    markers: Vec<usize>,
}

impl Drawn {
    fn of(app: &App, lt: &LineTrace) -> Drawn {
        let a = app.active_algo();
        let phases = a.extractor.phases();
        let shown = |key: &str| revealed(phases, app.step, key);
        let first = |role: Role| {
            lt.series
                .iter()
                .position(|s| s.role == role && shown(&s.key))
        };
        let content = first(Role::ContentSignal);
        let code = first(Role::CodeSignal);
        let combined = first(Role::CombinedSignal);
        let sizes: Vec<usize> = (0..lt.series.len())
            .filter(|&k| lt.series[k].role == Role::Size && shown(&lt.series[k].key))
            .collect();
        let two = content.is_some() || code.is_some();
        let mode = if combined.is_some() && (app.step.is_some() || app.histogram.combined() || !two)
        {
            HistMode::Combined
        } else if two {
            HistMode::TwoSided
        } else if !sizes.is_empty() {
            HistMode::Size
        } else {
            HistMode::Empty
        };
        let mut markers: Vec<usize> = (0..lt.series.len())
            .filter(|&k| lt.series[k].role == Role::Threshold && shown(&lt.series[k].key))
            .collect();
        let (left, right) = match mode {
            HistMode::TwoSided => (code, content),
            HistMode::Combined => (None, combined),
            HistMode::Size => {
                markers.extend(sizes.iter().take(sizes.len() - 1));
                (None, sizes.last().copied())
            }
            HistMode::Empty => (None, None),
        };
        Drawn {
            mode,
            left,
            right,
            markers,
        }
    }
}

/// The histogram's title: the drawn series by key (`code ◀ │ ▶ content`, or the label of the
/// one series), or the step-mode marker.
fn hist_title(app: &App, lt: Option<&LineTrace>) -> String {
    if app.step.is_some() {
        return " histogram — step mode ".to_string();
    }
    let Some(lt) = lt else {
        return " histogram ".to_string();
    };
    let all = |_: &str| true;
    let strip = candidate_strip(lt, &all);
    let columns = if strip.is_empty() {
        String::new()
    } else {
        format!("columns 1–{}: candidate sets · ", strip.len())
    };
    let d = Drawn::of(app, lt);
    let key = |k: Option<usize>| k.map_or("", |k| lt.series[k].key.as_str());
    let title = match (d.mode, d.right) {
        (HistMode::TwoSided, _) => format!(" {} ◀ │ ▶ {} ", key(d.left), key(d.right)),
        (HistMode::Combined | HistMode::Size, Some(k)) => format!(" {} ", lt.series[k].label),
        _ => " histogram ".to_string(),
    };
    if columns.is_empty() {
        title
    } else {
        format!(" {columns}{}", title.trim_start())
    }
}

/// The `p` quantile of the non-zero absolute values of `v`; 0 when there is none.
fn percentile_abs(v: &[f64], p: f64) -> f64 {
    let mut a: Vec<f64> = v.iter().map(|x| x.abs()).filter(|x| *x > 0.0).collect();
    if a.is_empty() {
        return 0.0;
    }
    a.sort_by(f64::total_cmp);
    a[((a.len() - 1) as f64 * p) as usize]
}

/// The axis symbol of display line `i`: the revealed marks that contain it, by role (seed,
/// selected, candidates, bound reach), first match wins.
fn axis_mark(lt: &LineTrace, shown: &dyn Fn(&str) -> bool, i: usize) -> (&'static str, Color) {
    let has = |role: Role| {
        lt.marks
            .iter()
            .any(|m| m.role == role && shown(&m.key) && m.contains(i))
    };
    if has(Role::Seed) {
        ("┃", Color::Yellow)
    } else if has(Role::Selected) {
        ("┃", Color::Green)
    } else if has(Role::Candidates) {
        ("┃", Color::Blue)
    } else if has(Role::Bound) {
        ("┆", Color::Green)
    } else {
        ("│", Color::DarkGray)
    }
}

/// Colours of the candidate-set columns ([`candidate_strip`]).
const STRIP_COLOURS: [Color; 4] = [Color::Cyan, Color::Yellow, Color::Magenta, Color::LightBlue];

/// The revealed candidate marks of `lt` when there are several sets of them (the members of a
/// filter set), as indices into its marks: the histogram draws one column per set at its left
/// edge, in trace order.
fn candidate_strip(lt: &LineTrace, shown: &dyn Fn(&str) -> bool) -> Vec<usize> {
    let v: Vec<usize> = (0..lt.marks.len())
        .filter(|&k| lt.marks[k].role == Role::Candidates && shown(&lt.marks[k].key))
        .collect();
    if v.len() >= 2 {
        v
    } else {
        Vec::new()
    }
}

/// The display lines the overview column shows selected: the active algorithm's Selected
/// marks, or its selection, once step mode has revealed them.
fn overview_selection(app: &App, lt: &LineTrace) -> Vec<Range<usize>> {
    let phases = app.active_algo().extractor.phases();
    let shown = |key: &str| revealed(phases, app.step, key);
    let decided = app.step.is_none_or(|s| s + 1 >= phases.len());
    match lt.marks.iter().find(|m| m.role == Role::Selected) {
        Some(m) if shown(&m.key) => m.spans.clone(),
        Some(_) => Vec::new(),
        None if !decided => Vec::new(),
        None => app
            .active_algo()
            .result
            .as_ref()
            .map(|x| {
                x.selection
                    .ranges()
                    .iter()
                    .map(|r| app.line_at_byte(r.start)..app.line_at_byte(r.end.max(1) - 1) + 1)
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// The bars of every display line on screen (`area` without the border), the overview column
/// at its right edge and, left of it, a bracket over the lines of the element whose value the
/// cursor line shows (node series); "running…" while the active algorithm has no result.
fn draw_bars(app: &App, area: Rect, buf: &mut Buffer, rects: &mut Rects) {
    if area.width < 6 {
        return;
    }
    let overview = Rect::new(area.right() - 1, area.y, 1, area.height);
    let bars = Rect::new(area.x, area.y, area.width - 2, area.height);
    rects.histogram = bars;
    rects.overview = overview;
    let hf = &app.frame.histogram;
    let Some(lt) = hf.trace.as_deref() else {
        Paragraph::new("running…").render(bars, buf);
        return;
    };
    let phases = app.active_algo().extractor.phases();
    let shown = |key: &str| revealed(phases, app.step, key);
    let rows = Bars::new(app, hf, lt, bars, &shown);
    rects.hist_scale = hf.scale;
    let n = app.line_count();
    // The extent of the element the cursor line shows (a node series), bracketed in the
    // column between the bars and the overview.
    let extent = lt.nodes.as_ref().and_then(|nl| {
        let k = (*nl.owner.get(app.source.cursor())?)?;
        nl.extent.get(k).filter(|r| !r.is_empty()).cloned()
    });
    for (row, y) in (bars.y..bars.bottom()).enumerate() {
        let i = app.source.top() + row;
        if i >= n {
            break;
        }
        rows.draw(buf, i, y);
        if let Some(e) = extent.as_ref().filter(|e| e.contains(&i)) {
            let sym = match (i == e.start, i + 1 == e.end) {
                (true, true) => "]",
                (true, false) => "┐",
                (false, true) => "┘",
                (false, false) => "│",
            };
            buf[(bars.right(), y)].set_symbol(sym).set_fg(Color::White);
        }
    }
    draw_overview(app, &hf.overview, overview, buf);
}

/// One frame's bars: the series drawn, on one scale.
struct Bars<'a> {
    app: &'a App,
    lt: &'a LineTrace,
    area: Rect,
    shown: &'a dyn Fn(&str) -> bool,
    mode: HistMode,
    left: &'a [f64],
    right: &'a [f64],
    markers: Vec<&'a LineSeries>,
    /// Threshold scalars: a marker at the same value on every line.
    scalar_marks: &'a [f64],
    /// What a full half-width bar stands for.
    scale: f64,
    /// The candidate sets with a column each ([`candidate_strip`]).
    strip: Vec<&'a LineMarks>,
    /// The axis' column, from the left edge.
    axis: u16,
    /// Cells of a full bar.
    half: f64,
}

impl<'a> Bars<'a> {
    fn new(
        app: &'a App,
        hf: &'a HistogramFrame,
        lt: &'a LineTrace,
        area: Rect,
        shown: &'a dyn Fn(&str) -> bool,
    ) -> Self {
        let series = |k: Option<usize>| -> &'a [f64] {
            k.and_then(|k| lt.series.get(k))
                .map_or(&[], |s| s.values.as_slice())
        };
        let axis = area.width / 2;
        Bars {
            app,
            lt,
            area,
            shown,
            mode: hf.mode,
            left: series(hf.left),
            right: series(hf.right),
            markers: hf
                .markers
                .iter()
                .filter_map(|&k| lt.series.get(k))
                .collect(),
            scalar_marks: &hf.scalar_marks,
            scale: hf.scale,
            strip: hf.strip.iter().filter_map(|&k| lt.marks.get(k)).collect(),
            axis,
            half: f64::from(axis.saturating_sub(1)),
        }
    }
    /// Display line `i` on screen row `y`: its bars, markers, candidate-set columns and axis.
    fn draw(&self, buf: &mut Buffer, i: usize, y: u16) {
        let (bars, axis, scale) = (self.area, self.axis, self.scale);
        let at = |v: &[f64]| v.get(i).copied().unwrap_or(0.0);
        let (left, right) = match self.mode {
            HistMode::Combined => {
                let d = at(self.right);
                if d > 0.0 {
                    (0.0, d)
                } else {
                    (-d, 0.0)
                }
            }
            _ => (at(self.left), at(self.right)),
        };
        let lc = ((left / scale).min(1.0) * self.half * 2.0).round() as u16; // half-cells
        let rc = ((right / scale).min(1.0) * self.half * 8.0).round() as u16; // eighths
        let (lcol, rcol) = if self.mode == HistMode::Size {
            (Color::Gray, Color::Gray)
        } else {
            (Color::Red, Color::Green)
        };
        // Left bar grows leftwards from the axis in half cells.
        for k in 0..(lc / 2).min(axis) {
            let cx = bars.x + axis - 1 - k;
            buf[(cx, y)].set_symbol("█").set_fg(lcol);
        }
        if lc % 2 == 1 && lc / 2 < axis {
            let cx = bars.x + axis - 1 - lc / 2;
            buf[(cx, y)].set_symbol("▐").set_fg(lcol);
        }
        // Right bar grows rightwards in eighths.
        let full = rc / 8;
        for k in 0..full.min(bars.width - axis - 1) {
            buf[(bars.x + axis + 1 + k, y)].set_symbol("█").set_fg(rcol);
        }
        let rem = rc % 8;
        if rem > 0 && full < bars.width - axis - 1 {
            let sym = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][usize::from(rem)];
            buf[(bars.x + axis + 1 + full, y)]
                .set_symbol(sym)
                .set_fg(rcol);
        }
        // A bar longer than the scale is clipped visibly: its number replaces the bar's end.
        if right > scale {
            let t = format!("{}▸", fmt_value(right));
            let n = u16::try_from(t.chars().count()).unwrap_or(u16::MAX);
            if n < bars.width - axis {
                put(buf, bars.right() - n, y, &t, rcol);
            }
        }
        if left > scale {
            let t = format!("◂{}", fmt_value(left));
            if t.chars().count() <= usize::from(axis) {
                put(buf, bars.x, y, &t, lcol);
            }
        }
        // Thresholds (and superseded sizes) as marker lines on the same scale: positive values
        // right of the axis, negative left.
        for v in self
            .markers
            .iter()
            .map(|s| at(&s.values))
            .chain(self.scalar_marks.iter().copied())
        {
            let cells = ((v.abs() / scale).min(1.0) * self.half).round() as u16;
            let cx = if v >= 0.0 {
                bars.x + axis + 1 + cells.min(bars.width - axis - 2)
            } else {
                bars.x + axis - 1 - cells.min(axis.saturating_sub(1))
            };
            buf[(cx, y)].set_symbol("┊").set_fg(Color::Magenta);
        }
        // Several candidate sets (a filter set's members, say) get a column each at the left
        // edge: the set's number (1-based, in trace order) on the lines it contains.
        if self.strip.len() >= 2 {
            for (k, m) in (0u16..axis.saturating_sub(1)).zip(&self.strip) {
                let cell = &mut buf[(bars.x + k, y)];
                if m.contains(i) {
                    let digit = char::from_digit((u32::from(k) + 1) % 36, 36).unwrap_or('#');
                    cell.set_symbol(&digit.to_string())
                        .set_fg(Color::Black)
                        .set_bg(STRIP_COLOURS[usize::from(k) % STRIP_COLOURS.len()]);
                } else {
                    cell.set_symbol("·").set_fg(Color::DarkGray);
                }
            }
        }
        // The axis column carries the marks.
        let (sym, col) = axis_mark(self.lt, self.shown, i);
        let cell = &mut buf[(bars.x + axis, y)];
        cell.set_symbol(sym).set_fg(col);
        if i == self.app.source.cursor() {
            cell.set_bg(Color::Gray);
        }
    }
}

/// Writes `t` from column `x` of row `y`, black on `bg` (a clipped bar's number).
fn put(buf: &mut Buffer, x: u16, y: u16, t: &str, bg: Color) {
    for (cx, c) in (x..).zip(t.chars()) {
        buf[(cx, y)]
            .set_symbol(&c.to_string())
            .set_fg(Color::Black)
            .set_bg(bg);
    }
}

/// The overview column: the whole page, the lines `sel` selected (the active algorithm's
/// decision, [`HistogramFrame::overview`]) in its colour, the viewport shaded.
fn draw_overview(app: &App, sel: &[Range<usize>], overview: Rect, buf: &mut Buffer) {
    let n = app.line_count();
    let h = usize::from(overview.height);
    if n == 0 || h == 0 {
        return;
    }
    for (r, y) in (overview.y..overview.bottom()).enumerate() {
        let a = r * n / h;
        let b = ((r + 1) * n / h).max(a + 1);
        let hit = sel.iter().any(|s| s.start < b && a < s.end);
        let in_view = a < app.source.top() + app.source.height() && app.source.top() < b;
        let cell = &mut buf[(overview.x, y)];
        cell.set_symbol(if hit { "▐" } else { "│" });
        cell.set_fg(if hit {
            app.algos[app.active].color
        } else {
            Color::DarkGray
        });
        if in_view {
            cell.set_bg(Color::DarkGray);
        }
    }
}
