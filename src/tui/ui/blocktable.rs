//! The text block table (`B`): one row per atomic text block of the page — number, first line,
//! words, link and text density, visibility, each shown algorithm's verdict (the share of the
//! block's text it selects), with a gold standard the gold's share and the active algorithm's
//! disagreement with it (`Δ gold`: its share minus the gold's), DOM path and text — sorted by
//! the chosen column (← / →; `Δ gold` by size, the worst disagreements first), the
//! highlighted row's whole path on the bottom border. DOM Distiller's debug view is the
//! precedent.

use std::fmt::Write as _;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use super::super::app::{visibility_short, App, BlockColumn};
use super::style::{shorten_middle, title_block};

/// Width of a verdict column.
const VERDICT_W: usize = 6;

/// The column titles, in the order of [`TITLES`]' fields: number, first line, words, link
/// density, text density, visibility, path, text, gold share, disagreement with the gold (one
/// literal, split at `|`).
const TITLES: &str = "#|line|words|link d|text d|vis|path|text|gold|Δ gold";

/// Title `k` of [`TITLES`].
fn title(k: usize) -> &'static str {
    TITLES.split('|').nth(k).unwrap_or("")
}

/// A column's header (at most its width), the sort column marked `▼` (largest first) or `▲`.
fn head(col: BlockColumn, names: &[String], sort: BlockColumn) -> String {
    let name = match col {
        BlockColumn::Index => title(0).to_string(),
        BlockColumn::Words => title(2).to_string(),
        BlockColumn::LinkDensity => title(3).to_string(),
        BlockColumn::TextDensity => title(4).to_string(),
        BlockColumn::Visibility => title(5).to_string(),
        BlockColumn::Verdict(k) => names
            .get(k)
            .map_or(String::new(), |n| n.chars().take(VERDICT_W - 1).collect()),
        BlockColumn::Path => title(6).to_string(),
        BlockColumn::Gold => title(8).to_string(),
        BlockColumn::Disagreement => title(9).to_string(),
    };
    if col == sort {
        format!("{name}{}", if col.descending() { "▼" } else { "▲" })
    } else {
        name
    }
}

/// `s` in exactly `w` columns: cut at the end, padded with spaces.
fn fit(s: &str, w: usize) -> String {
    let mut out: String = s.chars().take(w).collect();
    let n = out.chars().count();
    out.extend(std::iter::repeat_n(' ', w - n));
    out
}

/// `s` in exactly `w` columns, its end kept (`…v.post > p`).
pub(super) fn fit_left(s: &str, w: usize) -> String {
    let n = s.chars().count();
    if n <= w {
        return format!("{s:<w$}");
    }
    if w == 0 {
        return String::new();
    }
    let tail: String = s.chars().skip(n - (w - 1)).collect();
    format!("…{tail}")
}

/// The block table over `area`.
pub(super) fn block_table(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(v) = app.table.block_view() else {
        let block = title_block(" text blocks ".to_string());
        Paragraph::new("the page's DOM and text blocks are being built…")
            .block(block)
            .render(area, buf);
        return;
    };
    let t = &v.table;
    let sort = app.block_sort();
    let mut block = title_block(format!(
        " text blocks — {} · sorted by {} · ←→ sort, ↑↓ move, Enter jumps, Esc closes ",
        t.rows.len(),
        head(sort, &t.algos, sort)
    ));
    let sel = app.table.row().min(v.order.len().saturating_sub(1));
    if let Some(r) = app.block_row() {
        let w = usize::from(area.width).saturating_sub(4);
        block = block.title_bottom(Line::styled(
            format!(" {} ", fit_left(&r.path, w).trim_end()),
            Style::default().fg(Color::Gray),
        ));
    }
    let inner = block.inner(area);
    block.render(area, buf);
    let width = usize::from(inner.width);
    // Fixed columns (as each row writes them), then the path and the text share what is left.
    let gold_cols = if v.gold.is_some() { 2 } else { 0 };
    let fixed = 5 + 7 + 7 + 7 + 7 + 6 + VERDICT_W * (t.algos.len() + gold_cols) + gold_cols;
    let rest = width.saturating_sub(fixed + 3);
    let path_w = (rest / 2).clamp(8, 36).min(rest);
    let text_w = rest.saturating_sub(path_w);
    let name = |c: BlockColumn| head(c, &t.algos, sort);
    let mut h = format!(
        "{:>5} {:>6} {:>6} {:>6} {:>6} {:<5}",
        name(BlockColumn::Index),
        title(1),
        name(BlockColumn::Words),
        name(BlockColumn::LinkDensity),
        name(BlockColumn::TextDensity),
        name(BlockColumn::Visibility)
    );
    for k in 0..t.algos.len() {
        let _ = write!(h, "{:>VERDICT_W$}", name(BlockColumn::Verdict(k)));
    }
    if v.gold.is_some() {
        let _ = write!(
            h,
            "{:>VERDICT_W$}{:>w$}",
            name(BlockColumn::Gold),
            name(BlockColumn::Disagreement),
            w = VERDICT_W + 2
        );
    }
    let _ = write!(
        h,
        "  {} {}",
        fit(&name(BlockColumn::Path), path_w),
        fit(title(7), text_w)
    );
    let mut lines = vec![Line::styled(
        h,
        Style::default()
            .fg(Color::Yellow)
            .add_modifier(Modifier::BOLD),
    )];
    let body_h = usize::from(inner.height).saturating_sub(1);
    let first = sel.saturating_sub(body_h.saturating_sub(1));
    // The active algorithm's verdict colours the row (its column, when it has a result).
    let active = app
        .gutter_columns()
        .iter()
        .position(|&i| i == app.active)
        .filter(|&k| k < t.algos.len());
    for (k, &ri) in v.order.iter().enumerate().skip(first).take(body_h) {
        let r = &t.rows[ri];
        let f = &r.features;
        let line = app.line_at_byte(r.start) + 1;
        let mut row = format!(
            "{:>5} {:>6} {:>6} {:>6.2} {:>6.1} {:<5}",
            r.number(),
            line,
            f.words,
            f.link_density(),
            f.text_density(),
            visibility_short(&r.visibility)
        );
        for v in &r.verdicts {
            let _ = write!(row, "{:>w$}", format!("{:.0}%", v * 100.0), w = VERDICT_W);
        }
        if let Some(g) = v.gold_share(r) {
            let d = v
                .disagreement(r)
                .map_or("–".to_string(), |d| format!("{:+.0}%", d * 100.0));
            let d = if d == "+0%" || d == "-0%" {
                "0%".to_string()
            } else {
                d
            };
            let _ = write!(
                row,
                "{:>w$}{d:>dw$}",
                format!("{:.0}%", g * 100.0),
                w = VERDICT_W,
                dw = VERDICT_W + 2
            );
        }
        let _ = write!(
            row,
            "  {} {}",
            fit_left(&r.path, path_w),
            fit(&shorten_middle(&r.text, text_w.max(1)), text_w)
        );
        let mut st = match active.and_then(|a| r.verdicts.get(a)) {
            Some(&x) if x >= 1.0 => Style::default().fg(Color::LightGreen),
            Some(&x) if x > 0.0 => Style::default().fg(Color::Yellow),
            _ => Style::default(),
        };
        if !r.visibility.is_empty() {
            st = st.add_modifier(Modifier::DIM);
        }
        if k == sel {
            st = st.add_modifier(Modifier::REVERSED);
        }
        lines.push(Line::styled(row, st));
    }
    if t.rows.is_empty() {
        lines.push(Line::from("this page has no text block"));
    }
    Paragraph::new(lines).render(inner, buf);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_cut_and_padded() {
        assert_eq!(fit("abcdef", 4), "abcd");
        assert_eq!(fit("ab", 4), "ab  ");
        assert_eq!(fit_left("html > body > p", 8), "…ody > p");
        assert_eq!(fit_left("p", 3), "p  ");
    }
}
