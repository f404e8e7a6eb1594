//! The table overlay: the region / block tables (`b`) and the headline candidates (`#`).

use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;

use super::super::app::{App, TableKind};
use super::super::keymap::Action;
use super::pinned;
use super::style::{fmt_value, title_block};
use crate::algorithms::Role;

/// The region / block tables (`b`) over the main area: the active algorithm's, and below it
/// the pinned second algorithm's (`P`).
pub(super) fn draw_tables(f: &mut Frame, app: &App, area: Rect) {
    let area = Rect::new(
        area.x + 1,
        area.y + 1,
        area.width.saturating_sub(2),
        area.height.saturating_sub(2),
    );
    f.render_widget(Clear, area);
    if app.table_kind == TableKind::Headlines {
        draw_headline_table(f, app, area);
        return;
    }
    match pinned(app) {
        Some(s) => {
            let halves = Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
                .split(area);
            draw_table(f, app, app.active, halves[0]);
            draw_table(f, app, s, halves[1]);
        }
        None => draw_table(f, app, app.active, area),
    }
}

/// The headline candidates panel: rank, score, line and text of TitleFinder's candidates.
pub(super) fn draw_headline_table(f: &mut Frame, app: &App, area: Rect) {
    let rows = app.headline_rows();
    let block = title_block(format!(
        " headline candidates (TitleFinder tf) — {} · ↑↓ move, Enter jumps, {} takes it, Esc closes ",
        rows.len(),
        app.opts
            .keymap
            .keys_label(Action::TakeHeadline)
            .split(", ")
            .next()
            .unwrap_or_default()
    ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let mut lines = vec![Line::styled(
        format!("{:>4}  {:>7}  {:>6}  text", "#", "score", "line"),
        Style::default()
            .fg(Color::Yellow)
            .add_modifier(Modifier::BOLD),
    )];
    if rows.is_empty() {
        lines.push(Line::from(
            "no candidate: the page has no title or no text matching it",
        ));
    }
    let sel = app.table_row.min(rows.len().saturating_sub(1));
    let body_h = (inner.height as usize).saturating_sub(1);
    let first = sel.saturating_sub(body_h.saturating_sub(1));
    for (k, r) in rows.iter().enumerate().skip(first).take(body_h) {
        let line = app.line_at_byte(r.range.start) + 1;
        let mut st = Style::default();
        if k == sel {
            st = st.add_modifier(Modifier::REVERSED);
        }
        lines.push(Line::styled(
            format!("{:>4}  {:>7.3}  {:>6}  {}", k + 1, r.score, line, r.text),
            st,
        ));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// One algorithm's candidate table: number, display lines, the sums of its series, the units
/// to the neighbours, seed / selected, and its verdict.
pub(super) fn draw_table(f: &mut Frame, app: &App, i: usize, area: Rect) {
    let name = app.algos[i].extractor.name();
    let Some(t) = app.table_of(i) else {
        let block = title_block(format!(" {name}: no candidate regions or blocks "));
        let why = if i == app.active && app.step.is_some() {
            "no candidate or selected marks computed yet at this step"
        } else {
            "this algorithm's trace has no candidate or selected marks on this page"
        };
        f.render_widget(Paragraph::new(why).block(block), area);
        return;
    };
    let active = i == app.active;
    let hint = if active {
        " · ↑↓ move, Enter jumps, Esc closes"
    } else {
        ""
    };
    let block = title_block(format!(
        " {name}: {} — {} in {}s{hint} ",
        t.label,
        t.rows.len(),
        t.unit.name()
    ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let short = |l: &str| -> String {
        let w = l.split(['(', ',']).next().unwrap_or(l).trim();
        w.chars().take(10).collect()
    };
    let sum_heads: Vec<String> = t
        .rows
        .first()
        .map(|r| r.sums.iter().map(|(l, _)| short(l)).collect())
        .unwrap_or_default();
    let mut head = format!("{:>4}  {:<13}", "#", "lines");
    for h in &sum_heads {
        head.push_str(&format!(" {h:>10}"));
    }
    head.push_str(&format!(
        " {:>6} {:>6}  {:<4} {:<3}  why",
        "before",
        "after",
        Role::Seed.name(),
        "sel"
    ));
    let mut lines = vec![Line::styled(
        head,
        Style::default()
            .fg(Color::Yellow)
            .add_modifier(Modifier::BOLD),
    )];
    let body_h = (inner.height as usize).saturating_sub(1);
    let sel_row = if active {
        app.table_row.min(t.rows.len().saturating_sub(1))
    } else {
        0
    };
    let first = if active {
        sel_row.saturating_sub(body_h.saturating_sub(1))
    } else {
        0
    };
    for (k, r) in t.rows.iter().enumerate().skip(first).take(body_h) {
        let span_lines = r.bytes.as_ref().map_or("–".to_string(), |b| {
            let a = app.line_at_byte(b.start) + 1;
            let z = app.line_at_byte(b.end.saturating_sub(1).max(b.start)) + 1;
            format!("{a}–{z}")
        });
        let mut row = format!("{:>4}  {:<13}", r.number, span_lines);
        for (_, v) in &r.sums {
            row.push_str(&format!(" {:>10}", fmt_value(*v)));
        }
        let dist = |d: Option<usize>| d.map_or("–".to_string(), |d| d.to_string());
        row.push_str(&format!(
            " {:>6} {:>6}  {:<4} {:<3}  {}",
            dist(r.before),
            dist(r.after),
            if r.seed { Role::Seed.name() } else { "" },
            if r.selected { "✓" } else { "" },
            r.why
        ));
        let mut st = if r.selected {
            Style::default().fg(Color::LightGreen)
        } else {
            Style::default()
        };
        if active && k == sel_row {
            st = st.add_modifier(Modifier::REVERSED);
        }
        lines.push(Line::styled(row, st));
    }
    f.render_widget(Paragraph::new(lines), inner);
}
