//! The table overlay: the region / block tables (`b`), the headline candidates (`#`), the
//! records panel (`L`) and the text block table (`B`, drawn by `blocktable`).

use std::fmt::Write as _;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::super::app::{App, TableKind};
use super::super::keymap::Action;
use super::style::{fmt_value, title_block};
use crate::extract::candidates::CandidateTable;
use crate::extract::Role;

/// The table overlay over the main area: the headline candidates, or the region / block
/// tables — the active algorithm's, and below it the pinned second algorithm's (`P`).
pub(super) struct TableOverlay<'a>(pub(super) &'a App);

impl Widget for TableOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.0;
        let area = Rect::new(
            area.x + 1,
            area.y + 1,
            area.width.saturating_sub(2),
            area.height.saturating_sub(2),
        );
        Clear.render(area, buf);
        match app.table.kind() {
            TableKind::Headlines => return headline_table(app, area, buf),
            TableKind::Blocks => return super::blocktable::block_table(app, area, buf),
            TableKind::Records => return record_table(app, area, buf),
            TableKind::Regions => {}
        }
        match app.pinned() {
            Some(s) => {
                let halves = Layout::default()
                    .direction(Direction::Vertical)
                    .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
                    .split(area);
                region_table(app, app.active, halves[0], buf);
                region_table(app, s, halves[1], buf);
            }
            None => region_table(app, app.active, area, buf),
        }
    }
}

/// The style of a table's header row.
fn header() -> Style {
    Style::default()
        .fg(Color::Yellow)
        .add_modifier(Modifier::BOLD)
}

/// The distinct tags of a headline row's occurrences, in document order, joined by commas.
fn row_tags(r: &crate::extract::headline::CandidateGroup) -> String {
    let mut tags: Vec<&str> = Vec::new();
    for o in &r.occurrences {
        if !tags.contains(&o.tag.as_str()) {
            tags.push(&o.tag);
        }
    }
    tags.join(",")
}

/// The headline candidates panel: the headline finder's candidates merged by text, one row
/// each (rank, best score, count, line of the first occurrence, tags, text), and below them
/// the highlighted row's occurrences in document order, each with its line, tag and DOM path
/// (`▸` marks the one `Y` takes: the finder's best-ranked among them).
fn headline_table(app: &App, area: Rect, buf: &mut Buffer) {
    let rows = &app.frame.headlines;
    let take = app
        .opts
        .keymap
        .keys_label(Action::TakeHeadline)
        .split(", ")
        .next()
        .unwrap_or_default()
        .to_string();
    let block = title_block(format!(
        " headline candidates ({}) — {} · ↑↓ move, Enter jumps to the first, {take} takes it, \
         Esc closes ",
        app.headline_finder_label(),
        rows.len(),
    ));
    let inner = block.inner(area);
    block.render(area, buf);
    let sel = app.table.row().min(rows.len().saturating_sub(1));
    let width = usize::from(inner.width);
    // The highlighted row's occurrences: a heading line and one line each, at most half the
    // panel.
    let detail: Vec<Line> = match rows.get(sel) {
        Some(r) => {
            let mut v = vec![Line::styled(
                format!(
                    "  row {}: {} occurrence{} in document order ({take} takes ▸)",
                    sel + 1,
                    r.count(),
                    if r.count() == 1 { "" } else { "s" }
                ),
                header(),
            )];
            for (k, o) in r.occurrences.iter().enumerate() {
                let head = format!(
                    "{} {:>6}  {:<8} ",
                    if k == r.best { "▸" } else { " " },
                    app.line_at_byte(o.range.start) + 1,
                    o.tag
                );
                let room = width.saturating_sub(head.chars().count());
                v.push(Line::from(format!(
                    "{head}{}",
                    super::blocktable::fit_left(&o.path, room)
                )));
            }
            v
        }
        None => Vec::new(),
    };
    let detail_h = detail
        .len()
        .min(usize::from(inner.height) / 2)
        .try_into()
        .unwrap_or(0u16);
    let parts = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Min(1), Constraint::Length(detail_h)])
        .split(inner);
    let mut lines = vec![Line::styled(
        format!(
            "{:>4}  {:>7}  {:>3}  {:>6}  {:<14}  text",
            "#", "score", "×", "line", "tag"
        ),
        header(),
    )];
    if rows.is_empty() {
        lines.push(Line::from(
            "no candidate: the page has no title or no text matching it",
        ));
    }
    let body_h = usize::from(parts[0].height).saturating_sub(1);
    let first = sel.saturating_sub(body_h.saturating_sub(1));
    for (k, r) in rows.iter().enumerate().skip(first).take(body_h) {
        let line = app.line_at_byte(r.first_occurrence().range.start) + 1;
        let mut st = Style::default();
        if k == sel {
            st = st.add_modifier(Modifier::REVERSED);
        }
        let tags = crate::tui::display::shorten_end(&row_tags(r), 14);
        lines.push(Line::styled(
            format!(
                "{:>4}  {:>7.3}  {:>3}  {:>6}  {:<14}  {}",
                k + 1,
                r.score,
                r.count(),
                line,
                tags,
                r.text
            ),
            st,
        ));
    }
    Paragraph::new(lines).render(parts[0], buf);
    Paragraph::new(detail).render(parts[1], buf);
}

/// The records panel's words, one literal split at `|` (as the block table's titles): its
/// name, the column titles (number, first line, words, kept, text) and the struck state.
const RECORD_TITLES: &str = "records|#|line|words|kept|text|struck";

/// Word `k` of `titles`, split at `|`.
fn title(titles: &'static str, k: usize) -> &'static str {
    titles.split('|').nth(k).unwrap_or("")
}

/// The records panel: one record group's records — number in the group, first line, words,
/// how much of it the main content keeps (`kept`, `struck` or a share) and its text — the
/// highlighted one kept or struck with the keep / strike keys.
fn record_table(app: &App, area: Rect, buf: &mut Buffer) {
    let key = |a: Action| {
        app.opts
            .keymap
            .keys_label(a)
            .split(", ")
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let Some(list) = app.frame.records.as_ref() else {
        let why = if app.doc.as_ref().is_some_and(|d| d.blocks_ready()) {
            "this page has no records (repeated posts, comments or items)"
        } else {
            "the page's DOM and text blocks are being built…"
        };
        Paragraph::new(why)
            .block(title_block(format!(" {} ", title(RECORD_TITLES, 0))))
            .render(area, buf);
        return;
    };
    let groups = if list.groups > 1 {
        format!(" (group {}/{}, ←→ another)", list.group + 1, list.groups)
    } else {
        String::new()
    };
    let block = title_block(format!(
        " {} — {} × {} under {}{groups} · ↑↓, {} keeps, {} strikes, Enter jumps, Esc closes ",
        title(RECORD_TITLES, 0),
        list.rows.len(),
        list.signature,
        list.parent,
        key(Action::KeepUnit),
        key(Action::StrikeUnit)
    ));
    let inner = block.inner(area);
    block.render(area, buf);
    let mut lines = vec![Line::styled(
        format!(
            "{:>9}  {:>6}  {:>6}  {:<6}  {}",
            title(RECORD_TITLES, 1),
            title(RECORD_TITLES, 2),
            title(RECORD_TITLES, 3),
            title(RECORD_TITLES, 4),
            title(RECORD_TITLES, 5)
        ),
        header(),
    )];
    let sel = app.table.row().min(list.rows.len().saturating_sub(1));
    let body_h = usize::from(inner.height).saturating_sub(1);
    let first = sel.saturating_sub(body_h.saturating_sub(1));
    let text_w = usize::from(inner.width).saturating_sub(9 + 2 + 6 + 2 + 6 + 2 + 6 + 2);
    for (k, r) in list.rows.iter().enumerate().skip(first).take(body_h) {
        let (state, mut st) = if r.kept >= 0.999 {
            (
                title(RECORD_TITLES, 4).to_string(),
                Style::default().fg(Color::LightGreen),
            )
        } else if r.kept <= 0.0 {
            (
                title(RECORD_TITLES, 6).to_string(),
                Style::default().fg(Color::Gray),
            )
        } else {
            (
                format!("{:.0}%", r.kept * 100.0),
                Style::default().fg(Color::Yellow),
            )
        };
        if k == sel {
            st = st.add_modifier(Modifier::REVERSED);
        }
        let text: String = r.text.chars().take(text_w).collect();
        lines.push(Line::styled(
            format!(
                "{:>9}  {:>6}  {:>6}  {:<6}  {text}",
                format!("{}/{}", r.number, list.rows.len()),
                r.line + 1,
                r.words,
                state
            ),
            st,
        ));
    }
    Paragraph::new(lines).render(inner, buf);
}

/// Algorithm `i`'s candidate table: number, display lines, the sums of its series, the units
/// to the neighbours, seed / selected, and its verdict; the active algorithm's with the
/// highlighted row.
fn region_table(app: &App, i: usize, area: Rect, buf: &mut Buffer) {
    let name = app.algos[i].extractor.name();
    let Some(t) = app.frame.region_table(i) else {
        let block = title_block(format!(" {name}: no candidate regions or blocks "));
        let why = if i == app.active && app.step.is_some() {
            "no candidate or selected marks computed yet at this step"
        } else {
            "this algorithm's trace has no candidate or selected marks on this page"
        };
        Paragraph::new(why).block(block).render(area, buf);
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
    block.render(area, buf);
    let mut lines = vec![Line::styled(table_head(t), header())];
    let body_h = usize::from(inner.height).saturating_sub(1);
    let sel_row = if active {
        app.table.row().min(t.rows.len().saturating_sub(1))
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
            let _ = write!(row, " {:>10}", fmt_value(*v));
        }
        let dist = |d: Option<usize>| d.map_or("–".to_string(), |d| d.to_string());
        let _ = write!(
            row,
            " {:>6} {:>6}  {:<4} {:<3}  {}",
            dist(r.before),
            dist(r.after),
            if r.seed { Role::Seed.name() } else { "" },
            if r.selected { "✓" } else { "" },
            r.why
        );
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
    Paragraph::new(lines).render(inner, buf);
}

/// A candidate table's header row: the sums' series by the first word of their labels.
fn table_head(t: &CandidateTable) -> String {
    let short = |l: &str| -> String {
        let w = l.split(['(', ',']).next().unwrap_or(l).trim();
        w.chars().take(10).collect()
    };
    let mut head = format!("{:>4}  {:<13}", "#", "lines");
    if let Some(r) = t.rows.first() {
        for (l, _) in &r.sums {
            let _ = write!(head, " {:>10}", short(l));
        }
    }
    let _ = write!(
        head,
        " {:>6} {:>6}  {:<4} {:<3}  why",
        "before",
        "after",
        Role::Seed.name(),
        "sel"
    );
    head
}
