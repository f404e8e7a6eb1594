//! The explain panel: what the active (and the pinned) algorithm says about the cursor line.

use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::super::app::App;
use super::pinned;
use super::style::title_block;
use crate::algorithms::Location;

pub(super) fn draw_explain(f: &mut Frame, app: &mut App, area: Rect) {
    app.rects.explain = area;
    let halves: Vec<(usize, Rect)> = match pinned(app) {
        // Side by side: the active algorithm left, the pinned one right, on the same line.
        Some(s) => {
            let h = Layout::default()
                .direction(Direction::Horizontal)
                .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
                .split(area);
            vec![(app.active, h[0]), (s, h[1])]
        }
        None => vec![(app.active, area)],
    };
    // Text longer than the panel scrolls (mouse wheel over the panel); at most to its end.
    let inner_h = area.height.saturating_sub(2) as usize;
    let longest = halves
        .iter()
        .map(|&(i, r)| explain_paragraph(app, i).line_count(r.width.saturating_sub(2)))
        .max()
        .unwrap_or(0);
    app.rects.explain_overflow = longest.saturating_sub(inner_h);
    app.explain_scroll = app.explain_scroll.min(app.rects.explain_overflow);
    let named = halves.len() > 1;
    for (i, r) in halves {
        draw_explain_of(f, app, i, r, named);
    }
}

/// What the explain panel says for algorithm `i` at the cursor line: the step-mode header
/// (phase, what it does) and the algorithm's explanation as known at the current step
/// ([`crate::algorithms::Extractor::explain_step`]), word-wrapped.
pub(super) fn explain_paragraph(app: &App, i: usize) -> Paragraph<'static> {
    let a = &app.algos[i];
    let step = if i == app.active { app.step_at() } else { None };
    let mut lines: Vec<Line> = Vec::new();
    if let Some(s) = step {
        let phases = a.extractor.phases();
        if let Some(p) = phases.get(s.phase) {
            let sub = match s.unfolded {
                Some(k) => format!(" ({k} revealed, . for the next)"),
                None => String::new(),
            };
            lines.push(Line::from(vec![
                Span::styled(
                    format!("step {}/{} — {}{sub}: ", s.phase + 1, phases.len(), p.name),
                    Style::default()
                        .fg(Color::Yellow)
                        .add_modifier(Modifier::BOLD),
                ),
                Span::raw(p.what),
            ]));
        }
    }
    if let (Some(x), Some(d)) = (&a.result, &app.doc) {
        let v = app.virtual_of(app.cursor);
        let mut ex = a
            .extractor
            .explain_step(&d.page, x, Location::Line(v), step);
        if app.view() != 0 {
            let what = if app.reading {
                "reading line"
            } else {
                "raw line"
            };
            if let Some(first) = ex.first_mut() {
                *first = format!(
                    "{what} {} (virtual line {}) — {first}",
                    app.cursor + 1,
                    v + 1
                );
            }
        }
        lines.push(Line::from(ex.join("; ")));
    } else if a.busy {
        lines.push(Line::from("running…"));
    }
    Paragraph::new(lines).wrap(Wrap { trim: true })
}

/// Rows (borders included) the explain panel needs to show its whole text on a screen `width`
/// columns wide (each half's text when two algorithms are explained side by side).
pub(super) fn explain_height(app: &App, width: u16) -> u16 {
    let (ids, w) = match pinned(app) {
        Some(s) => (vec![app.active, s], width / 2),
        None => (vec![app.active], width),
    };
    let text_rows = ids
        .iter()
        .map(|&i| explain_paragraph(app, i).line_count(w.saturating_sub(2)))
        .max()
        .unwrap_or(1);
    u16::try_from(text_rows + 2).unwrap_or(u16::MAX)
}

pub(super) fn draw_explain_of(f: &mut Frame, app: &App, i: usize, area: Rect, named: bool) {
    let a = &app.algos[i];
    let more = app.rects.explain_overflow;
    let scroll = if more > 0 {
        format!(
            "— line {} of {}, wheel scrolls ",
            app.explain_scroll + 1,
            more + area.height.saturating_sub(2) as usize
        )
    } else {
        String::new()
    };
    let title = if named {
        format!(" explain — {} {scroll}", a.extractor.name())
    } else {
        format!(" explain {scroll}")
    };
    let block = title_block(title);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let p = explain_paragraph(app, i).scroll((app.explain_scroll as u16, 0));
    f.render_widget(p, inner);
}
