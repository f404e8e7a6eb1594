//! The help overlay (`?`).

use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};
use ratatui::Frame;

use super::super::app::{App, GOLD_COLOR};
use super::style::title_block;

pub(super) fn draw_help(f: &mut Frame, app: &mut App, area: Rect) {
    let rows = app.opts.keymap.help_rows();
    let mut lines: Vec<Line> = Vec::new();
    let mut group = "";
    for r in &rows {
        if r.group != group {
            group = r.group;
            lines.push(Line::styled(
                group.to_string(),
                Style::default()
                    .fg(Color::Yellow)
                    .add_modifier(Modifier::BOLD),
            ));
        }
        lines.push(Line::from(vec![
            Span::styled(
                format!("  {:<14}", r.keys),
                Style::default().fg(Color::Cyan),
            ),
            Span::raw(r.description),
        ]));
    }
    lines.push(Line::from(""));
    lines.push(Line::styled(
        "counts: digits before a move, a jump to the next region / match, include / exclude or a slider step repeat it (16 then down, 3 then D)",
        Style::default().fg(Color::Gray),
    ));
    lines.push(Line::styled(
        "mouse: wheel scrolls; click the histogram or overview to go there; click a slider to set it",
        Style::default().fg(Color::Gray),
    ));
    let mut legend = vec![Span::styled("overlays: ", Style::default().fg(Color::Gray))];
    for a in &app.algos {
        legend.push(Span::styled(
            format!("▌{} ", a.extractor.name()),
            Style::default().fg(a.color),
        ));
    }
    legend.push(Span::styled("▌gold", Style::default().fg(GOLD_COLOR)));
    lines.push(Line::from(legend));
    lines.push(Line::styled(
        "histogram axis ┃ candidates blue, seed yellow, selected green; ┆ bound; ┊ threshold",
        Style::default().fg(Color::Gray),
    ));
    // Two columns when the screen is wide enough; scrolling (up/down) when it is not tall enough.
    let two = area.width >= 170;
    // Keys column 16 + the longest description (about 90 characters) + borders.
    let w = if two {
        area.width.saturating_sub(4).min(220)
    } else {
        area.width.saturating_sub(2).min(112)
    };
    let per_col_needed = if two {
        lines.len().div_ceil(2)
    } else {
        lines.len()
    };
    let h = (per_col_needed as u16 + 2).min(area.height.saturating_sub(2));
    let popup = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    Clear.render(popup, f.buffer_mut());
    let inner_h = h.saturating_sub(2) as usize;
    let max_scroll = per_col_needed.saturating_sub(inner_h);
    app.help_scroll = app.help_scroll.min(max_scroll);
    let more = if max_scroll > 0 {
        format!(" ↑↓ {}/{} ", app.help_scroll, max_scroll)
    } else {
        String::new()
    };
    let block = title_block(format!(" help — keymap {} {more}", app.opts.keymap.name()));
    let inner = block.inner(popup);
    f.render_widget(block, popup);
    if two {
        let half = per_col_needed;
        let right: Vec<Line> = lines.split_off(half);
        let cw = inner.width / 2;
        f.render_widget(
            Paragraph::new(lines).scroll((app.help_scroll as u16, 0)),
            Rect::new(inner.x, inner.y, cw, inner.height),
        );
        f.render_widget(
            Paragraph::new(right).scroll((app.help_scroll as u16, 0)),
            Rect::new(inner.x + cw, inner.y, inner.width - cw, inner.height),
        );
    } else {
        f.render_widget(
            Paragraph::new(lines).scroll((app.help_scroll as u16, 0)),
            inner,
        );
    }
}
