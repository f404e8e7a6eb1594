//! The histogram panel beside the source: the active algorithm's series per display line, drawn
//! from their roles (two-sided, combined, size), threshold markers, the marks on the axis, one
//! column per candidate set, and the whole-page overview column.

use std::ops::Range;

use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::super::app::App;
use super::style::fmt_value;
use crate::algorithms::{revealed, LineMarks, LineSeries, LineTrace, Role};

/// What the histogram draws.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum HistMode {
    /// Code signal left of the axis, content signal right.
    TwoSided,
    /// The combined signal, signed.
    Combined,
    /// A size series, grey, right of the axis.
    Size,
    /// Nothing revealed yet.
    Empty,
}

/// The series the histogram draws for the active algorithm, from roles alone: `(mode, left,
/// right, markers)` — markers are revealed thresholds and superseded sizes, drawn as lines.
pub(super) fn hist_series<'a>(
    app: &App,
    lt: &'a LineTrace,
) -> (
    HistMode,
    Option<&'a LineSeries>,
    Option<&'a LineSeries>,
    Vec<&'a LineSeries>,
) {
    let a = app.active_algo();
    let phases = a.extractor.phases();
    let shown = |key: &str| revealed(phases, app.step, key);
    let first = |role: Role| lt.series.iter().find(|s| s.role == role && shown(&s.key));
    let content = first(Role::ContentSignal);
    let code = first(Role::CodeSignal);
    let combined = first(Role::CombinedSignal);
    let sizes: Vec<&LineSeries> = lt
        .series
        .iter()
        .filter(|s| s.role == Role::Size && shown(&s.key))
        .collect();
    let two = content.is_some() || code.is_some();
    let mode = if combined.is_some() && (app.step.is_some() || app.combined_view || !two) {
        HistMode::Combined
    } else if two {
        HistMode::TwoSided
    } else if !sizes.is_empty() {
        HistMode::Size
    } else {
        HistMode::Empty
    };
    let mut markers: Vec<&LineSeries> = lt
        .series
        .iter()
        .filter(|s| s.role == Role::Threshold && shown(&s.key))
        .collect();
    match mode {
        HistMode::TwoSided => (mode, code, content, markers),
        HistMode::Combined => (mode, None, combined, markers),
        HistMode::Size => {
            let last = sizes.last().copied();
            markers.extend(sizes.iter().take(sizes.len() - 1));
            (mode, None, last, markers)
        }
        HistMode::Empty => (mode, None, None, markers),
    }
}

/// The histogram's title: the drawn series by key (`code ◀ │ ▶ content`, or the label of the
/// one series), or the step-mode marker.
pub(super) fn hist_title(app: &App, lt: Option<&LineTrace>) -> String {
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
    let title = match hist_series(app, lt) {
        (HistMode::TwoSided, l, r, _) => format!(
            " {} ◀ │ ▶ {} ",
            l.map_or("", |s| s.key.as_str()),
            r.map_or("", |s| s.key.as_str())
        ),
        (HistMode::Combined | HistMode::Size, _, Some(s), _) => format!(" {} ", s.label),
        _ => " histogram ".to_string(),
    };
    if columns.is_empty() {
        title
    } else {
        format!(" {columns}{}", title.trim_start())
    }
}

/// The `p` quantile of the non-zero absolute values of `v`; 0 when there is none.
pub(super) fn percentile_abs(v: &[f64], p: f64) -> f64 {
    let mut a: Vec<f64> = v.iter().map(|x| x.abs()).filter(|x| *x > 0.0).collect();
    if a.is_empty() {
        return 0.0;
    }
    a.sort_by(|x, y| x.total_cmp(y));
    a[((a.len() - 1) as f64 * p) as usize]
}

/// The axis symbol of display line `i`: the revealed marks that contain it, by role (seed,
/// selected, candidates, bound reach), first match wins.
pub(super) fn axis_mark(
    lt: &LineTrace,
    shown: &dyn Fn(&str) -> bool,
    i: usize,
) -> (&'static str, Color) {
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
pub(super) const STRIP_COLOURS: [Color; 4] =
    [Color::Cyan, Color::Yellow, Color::Magenta, Color::LightBlue];

/// The revealed candidate marks of `lt` when there are several sets of them (the members of a
/// filter set): the histogram draws one column per set at its left edge, in trace order.
pub(super) fn candidate_strip<'a>(
    lt: &'a LineTrace,
    shown: &dyn Fn(&str) -> bool,
) -> Vec<&'a LineMarks> {
    let v: Vec<&LineMarks> = lt
        .marks
        .iter()
        .filter(|m| m.role == Role::Candidates && shown(&m.key))
        .collect();
    if v.len() >= 2 {
        v
    } else {
        Vec::new()
    }
}

pub(super) fn draw_histogram(f: &mut Frame, app: &mut App, area: Rect) {
    if area.width < 6 {
        return;
    }
    let overview = Rect::new(area.x + area.width - 1, area.y, 1, area.height);
    let bars = Rect::new(area.x, area.y, area.width - 2, area.height);
    app.rects.histogram = bars;
    app.rects.overview = overview;
    let Some(lt) = app.line_trace(app.active) else {
        f.render_widget(Paragraph::new("running…"), bars);
        return;
    };
    // An unfolding phase shows only the spans revealed so far.
    let lt = match app.unfolded_line_spans() {
        Some((key, spans)) => {
            let mut l = (*lt).clone();
            if let Some(m) = l.marks.iter_mut().find(|m| m.key == key) {
                m.spans = spans;
            }
            std::sync::Arc::new(l)
        }
        None => lt,
    };
    let phases = app.active_algo().extractor.phases();
    let step = app.step;
    let shown = |key: &str| revealed(phases, step, key);
    let (mode, left_s, right_s, markers) = hist_series(app, &lt);
    let left_v: &[f64] = left_s.map_or(&[], |s| s.values.as_slice());
    let right_v: &[f64] = right_s.map_or(&[], |s| s.values.as_slice());
    // Threshold scalars draw as a marker at the same value on every line.
    let scalar_marks: Vec<f64> = lt
        .scalars
        .iter()
        .filter(|s| s.role == Role::Threshold && shown(&s.key))
        .map(|s| s.value)
        .collect();
    // The scale: the 98th percentile of the bars (so one huge line does not flatten the rest),
    // widened to keep threshold markers inside.
    let scale = markers
        .iter()
        .map(|s| percentile_abs(&s.values, 0.98))
        .chain(scalar_marks.iter().map(|v| v.abs() * 1.25))
        .fold(
            percentile_abs(left_v, 0.98).max(percentile_abs(right_v, 0.98)),
            f64::max,
        );
    let scale = if scale > 0.0 { scale } else { 1.0 };
    app.rects.hist_scale = scale;
    let strip = candidate_strip(&lt, &shown);
    let axis = bars.width / 2;
    let half = axis.saturating_sub(1) as f64;
    let n = app.line_count();
    let buf = f.buffer_mut();
    for row in 0..bars.height {
        let i = app.top + row as usize;
        if i >= n {
            break;
        }
        let at = |v: &[f64]| v.get(i).copied().unwrap_or(0.0);
        let (left, right) = match mode {
            HistMode::Combined => {
                let d = at(right_v);
                if d > 0.0 {
                    (0.0, d)
                } else {
                    (-d, 0.0)
                }
            }
            _ => (at(left_v), at(right_v)),
        };
        let y = bars.y + row;
        let lc = ((left / scale).min(1.0) * half * 2.0).round() as u16; // half-cells
        let rc = ((right / scale).min(1.0) * half * 8.0).round() as u16; // eighths
        let (lcol, rcol) = if mode == HistMode::Size {
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
            let sym = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][rem as usize];
            buf[(bars.x + axis + 1 + full, y)]
                .set_symbol(sym)
                .set_fg(rcol);
        }
        // A bar longer than the scale is clipped visibly: its number replaces the bar's end.
        if right > scale {
            let t = format!("{}▸", fmt_value(right));
            let room = (bars.width - axis - 1) as usize;
            if t.chars().count() <= room {
                let x0 = bars.x + bars.width - t.chars().count() as u16;
                for (k, c) in t.chars().enumerate() {
                    buf[(x0 + k as u16, y)]
                        .set_symbol(&c.to_string())
                        .set_fg(Color::Black)
                        .set_bg(rcol);
                }
            }
        }
        if left > scale {
            let t = format!("◂{}", fmt_value(left));
            if t.chars().count() <= axis as usize {
                for (k, c) in t.chars().enumerate() {
                    buf[(bars.x + k as u16, y)]
                        .set_symbol(&c.to_string())
                        .set_fg(Color::Black)
                        .set_bg(lcol);
                }
            }
        }
        // Thresholds (and superseded sizes) as marker lines on the same scale: positive values
        // right of the axis, negative left.
        for v in markers
            .iter()
            .map(|s| at(&s.values))
            .chain(scalar_marks.iter().copied())
        {
            let cells = ((v.abs() / scale).min(1.0) * half).round() as u16;
            let cx = if v >= 0.0 {
                bars.x + axis + 1 + cells.min(bars.width - axis - 2)
            } else {
                bars.x + axis - 1 - cells.min(axis.saturating_sub(1))
            };
            buf[(cx, y)].set_symbol("┊").set_fg(Color::Magenta);
        }
        // Several candidate sets (a filter set's members, say) get a column each at the left
        // edge: the set's number (1-based, in trace order) on the lines it contains.
        if strip.len() >= 2 {
            for (k, m) in strip
                .iter()
                .enumerate()
                .take(axis.saturating_sub(1) as usize)
            {
                let cell = &mut buf[(bars.x + k as u16, y)];
                if m.contains(i) {
                    let digit = char::from_digit(((k + 1) % 36) as u32, 36).unwrap_or('#');
                    cell.set_symbol(&digit.to_string())
                        .set_fg(Color::Black)
                        .set_bg(STRIP_COLOURS[k % STRIP_COLOURS.len()]);
                } else {
                    cell.set_symbol("·").set_fg(Color::DarkGray);
                }
            }
        }
        // The axis column carries the marks.
        let (sym, col) = axis_mark(&lt, &shown, i);
        let cell = &mut buf[(bars.x + axis, y)];
        cell.set_symbol(sym).set_fg(col);
        if i == app.cursor {
            cell.set_bg(Color::Gray);
        }
    }
    // Overview of the whole page: the active algorithm's decision (Selected marks, or its
    // selection, once step mode has revealed them), viewport marked.
    let h = overview.height as usize;
    let decided = step.is_none_or(|s| s + 1 >= phases.len());
    if n > 0 && h > 0 {
        let sel: Vec<Range<usize>> = match lt.marks.iter().find(|m| m.role == Role::Selected) {
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
        };
        for r in 0..h {
            let a = r * n / h;
            let b = ((r + 1) * n / h).max(a + 1);
            let hit = sel.iter().any(|s| s.start < b && a < s.end);
            let in_view = a < app.top + app.view_height && app.top < b;
            let cell = &mut buf[(overview.x, overview.y + r as u16)];
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
}
