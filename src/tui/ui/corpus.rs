//! The page list of a corpus.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, StatefulWidget, Widget};

use super::super::app::{App, CorpusState, Mode, PageEntry};
use super::super::display::shorten_end;
use super::style::{human_size, shorten_middle, title_block};
use crate::gold::GoldStatus;
use crate::learn::active::PageUncertainty;

/// The mark of a page's gold status in the page list: `✓` final, `✎` draft, `⚑` flagged, `!`
/// unreadable, blank without a gold file.
#[must_use]
pub fn status_mark(s: GoldStatus) -> char {
    match s {
        GoldStatus::Final => '✓',
        GoldStatus::Draft => '✎',
        GoldStatus::Flagged => '⚑',
        GoldStatus::Unreadable => '!',
        GoldStatus::None => ' ',
    }
}

/// The page list: a title with the status counts, the order line (when ordered by a model's
/// uncertainty), the filter line, one row per page (status mark, `+` for unsaved work in a
/// recovery file, the URL or id cut at its end, the page type, the size — or, when ordered by
/// uncertainty, the page's uncertainty: `0.83`, `–` without a probability signal, `…` still
/// to come) and, at the bottom, the current page's whole URL, type, status, uncertainty and
/// encoding. The current page's row is reversed and kept in the middle. Records the rows' area
/// (a click opens the page clicked).
pub(super) struct PageList<'a>(pub(super) &'a App);

impl StatefulWidget for PageList<'_> {
    type State = Rect;

    fn render(self, area: Rect, buf: &mut Buffer, rows_area: &mut Rect) {
        let app = self.0;
        let Some(c) = &app.corpus else {
            return;
        };
        let vis = c.visible();
        let (fin, flagged, draft, _) = c.status_counts(&vis);
        // The title fits the panel: the counts always, the corpus name shortened in the middle.
        let counts = format!(" ✓{fin} ⚑{flagged} ✎{draft} /{} ", vis.len());
        let room = usize::from(area.width).saturating_sub(counts.chars().count() + 4);
        let block = title_block(format!(" {}{counts}", shorten_middle(&c.name, room)));
        let inner = block.inner(area);
        block.render(area, buf);
        let filtering = app.mode == Mode::Filter;
        let order_line = u16::from(c.order.is_some());
        if let Some(o) = &c.order {
            // What the list is ordered by (or is being measured for), in the top row.
            let text = if o.ready() {
                format!("↓ uncertainty · {}", o.algo)
            } else {
                format!("uncertainty {}/{}… · {}", o.done, o.total, o.algo)
            };
            Paragraph::new(shorten_end(&text, usize::from(inner.width)))
                .style(Style::default().fg(Color::Cyan))
                .render(Rect::new(inner.x, inner.y, inner.width, 1), buf);
        }
        let inner = Rect::new(
            inner.x,
            inner.y + order_line.min(inner.height),
            inner.width,
            inner.height.saturating_sub(order_line),
        );
        let filter_line = u16::from(filtering || !c.filter.is_empty());
        if filter_line == 1 {
            let cursor = if filtering { "▏" } else { "" };
            let hint = if filtering && c.filter.is_empty() {
                " draft|flagged|final|none|todo|TYPE|text"
            } else {
                ""
            };
            Paragraph::new(format!("/{}{cursor}{hint}", c.filter))
                .style(Style::default().fg(Color::Yellow))
                .render(Rect::new(inner.x, inner.y, inner.width, 1), buf);
        }
        let detail = c
            .entries
            .get(c.current)
            .map(|e| details(e, usize::from(inner.width.max(1))))
            .unwrap_or_default();
        let detail_h = u16::try_from(detail.len())
            .unwrap_or(u16::MAX)
            .min(inner.height.saturating_sub(filter_line + 2));
        let list = Rect::new(
            inner.x,
            inner.y + filter_line,
            inner.width,
            inner.height.saturating_sub(filter_line + detail_h),
        );
        if detail_h > 0 {
            let d = Rect::new(inner.x, list.bottom(), inner.width, detail_h);
            Paragraph::new(detail).render(d, buf);
        }
        *rows_area = list;
        let pos = vis.iter().position(|&i| i == c.current).unwrap_or(0);
        let first = pos.saturating_sub(usize::from(list.height) / 2);
        let kind_w = if c.entries.iter().any(|e| e.page_type().is_some()) {
            5
        } else {
            0
        };
        for (y, &i) in (list.y..list.bottom()).zip(vis.iter().skip(first)) {
            let st = if i == c.current {
                Style::default().add_modifier(Modifier::REVERSED)
            } else {
                Style::default()
            };
            Paragraph::new(row(c, i, usize::from(inner.width), kind_w))
                .style(st)
                .render(Rect::new(list.x, y, list.width, 1), buf);
        }
    }
}

/// The current page's details in `w` columns: its URL whole (wrapped, at most three rows),
/// then type, status, unsaved work and encoding.
fn details(e: &PageEntry, w: usize) -> Vec<Line<'static>> {
    let mut detail: Vec<Line> = Vec::new();
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
    // The uncertainty (`U 0.19`, short: the panel is narrow) before the encoding.
    match &e.uncertainty {
        Some(PageUncertainty::Value(u)) => facts.push(format!("U {u:.2}")),
        Some(PageUncertainty::NoSignal) => facts.push("no probability".into()),
        Some(PageUncertainty::Unreadable(_)) => facts.push("unreadable".into()),
        None => {}
    }
    if let Some(enc) = &e.encoding {
        facts.push(enc.clone());
    }
    detail.push(Line::styled(
        facts.join(" · "),
        Style::default().fg(Color::Gray),
    ));
    detail
}

/// The row of entry `i` in a list `width` columns wide (`kind_w` columns for the page type,
/// 0 when the corpus gives none).
fn row(c: &CorpusState, i: usize, width: usize, kind_w: usize) -> String {
    let e = &c.entries[i];
    let mark = status_mark(e.status);
    let unsaved = if e.recovery { '+' } else { ' ' };
    // The HTML's size once read (decompressed); until then the stored size, or "…" for a
    // compressed file.
    let compressed = e.path.extension().is_some_and(|x| x == "gz");
    let size = match (&c.order, &e.uncertainty, e.html_bytes, compressed) {
        (Some(_), Some(PageUncertainty::Value(u)), ..) => format!("{u:.2}"),
        (Some(_), Some(_), ..) => "–".to_string(),
        (Some(_), None, ..) => "…".to_string(),
        (None, _, Some(b), _) => human_size(b),
        (None, _, None, true) => "…".to_string(),
        (None, _, None, false) => human_size(e.bytes),
    };
    let idw = width.saturating_sub(3 + kind_w + 7);
    let label = shorten_end(&e.label(), idw);
    let kind = if kind_w > 0 {
        let kind: String = e.page_type().unwrap_or("").chars().take(4).collect();
        format!(" {kind:<4}")
    } else {
        String::new()
    };
    format!("{mark}{unsaved} {label:<idw$}{kind} {size:>6}")
}
