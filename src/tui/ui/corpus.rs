//! The page list of a corpus.

use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::super::app::{App, Mode};
use super::super::display::shorten_end;
use super::style::{human_size, shorten_middle, title_block};

/// The mark of a page's gold status in the page list: `✓` final, `✎` draft, `⚑` flagged, `!`
/// unreadable, blank without a gold file.
pub fn status_mark(s: crate::gold::GoldStatus) -> char {
    use crate::gold::GoldStatus as S;
    match s {
        S::Final => '✓',
        S::Draft => '✎',
        S::Flagged => '⚑',
        S::Unreadable => '!',
        S::None => ' ',
    }
}

/// The page list: a title with the status counts, the filter line, one row per page (status
/// mark, `+` for unsaved work in a recovery file, the URL or id cut at its end, the page type,
/// the size) and, at the bottom, the current page's whole URL, type, status and encoding.
pub(super) fn draw_corpus(f: &mut Frame, app: &mut App, area: Rect) {
    let Some(c) = &app.corpus else {
        return;
    };
    let vis = c.visible();
    let (fin, flagged, draft, _) = c.status_counts(&vis);
    // The title fits the panel: the counts always, the corpus name shortened in the middle.
    let counts = format!(" ✓{fin} ⚑{flagged} ✎{draft} /{} ", vis.len());
    let room = (area.width as usize).saturating_sub(counts.chars().count() + 4);
    let block = title_block(format!(" {}{counts}", shorten_middle(&c.name, room)));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let filter_line = if app.mode == Mode::Filter || !c.filter.is_empty() {
        1
    } else {
        0
    };
    if filter_line == 1 {
        let cursor = if app.mode == Mode::Filter { "▏" } else { "" };
        let hint = if app.mode == Mode::Filter && c.filter.is_empty() {
            " draft|flagged|final|none|todo|TYPE|text"
        } else {
            ""
        };
        f.render_widget(
            Paragraph::new(format!("/{}{cursor}{hint}", c.filter))
                .style(Style::default().fg(Color::Yellow)),
            Rect::new(inner.x, inner.y, inner.width, 1),
        );
    }
    // The current page's details: its URL whole (wrapped), then type, status and encoding.
    let w = inner.width.max(1) as usize;
    let cur = c.entries.get(c.current);
    let mut detail: Vec<Line> = Vec::new();
    if let Some(e) = cur {
        if let Some(u) = e.url_shown() {
            let chars: Vec<char> = u.chars().collect();
            for chunk in chars.chunks(w).take(3) {
                detail.push(Line::styled(
                    chunk.iter().collect::<String>(),
                    Style::default().fg(Color::Gray),
                ));
            }
        }
        let mut facts = vec![e.status.name().to_string()];
        if e.recovery {
            facts.push("unsaved work".into());
        }
        if let Some(t) = e.page_type() {
            facts.insert(0, t.to_string());
        }
        if let Some(enc) = &e.encoding {
            facts.push(enc.clone());
        }
        detail.push(Line::styled(
            facts.join(" · "),
            Style::default().fg(Color::Gray),
        ));
    }
    let detail_h = (detail.len() as u16).min(inner.height.saturating_sub(filter_line + 2));
    let list = Rect::new(
        inner.x,
        inner.y + filter_line,
        inner.width,
        inner.height.saturating_sub(filter_line + detail_h),
    );
    if detail_h > 0 {
        let d = Rect::new(inner.x, list.y + list.height, inner.width, detail_h);
        f.render_widget(Paragraph::new(detail), d);
    }
    app.rects.corpus = list;
    let pos = vis.iter().position(|&i| i == c.current).unwrap_or(0);
    let first = pos.saturating_sub(list.height as usize / 2);
    for (row, &i) in vis
        .iter()
        .skip(first)
        .take(list.height as usize)
        .enumerate()
    {
        let e = &c.entries[i];
        let mark = status_mark(e.status);
        let unsaved = if e.recovery { '+' } else { ' ' };
        // The HTML's size once read (decompressed); until then the stored size, or "…" for a
        // compressed file.
        let compressed = e.path.extension().is_some_and(|x| x == "gz");
        let size = match (e.html_bytes, compressed) {
            (Some(b), _) => human_size(b),
            (None, true) => "…".to_string(),
            (None, false) => human_size(e.bytes),
        };
        let kind: String = e.page_type().unwrap_or("").chars().take(4).collect();
        let kind_w = if c.entries.iter().any(|e| e.page_type().is_some()) {
            5
        } else {
            0
        };
        let idw = (inner.width as usize).saturating_sub(3 + kind_w + 7);
        let label = shorten_end(&e.label(), idw);
        let kind = if kind_w > 0 {
            format!(" {kind:<4}")
        } else {
            String::new()
        };
        let line = format!("{mark}{unsaved} {label:<idw$}{kind} {size:>6}");
        let st = if i == c.current {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        f.render_widget(
            Paragraph::new(line).style(st),
            Rect::new(list.x, list.y + row as u16, list.width, 1),
        );
    }
}
