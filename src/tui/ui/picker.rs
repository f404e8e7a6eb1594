//! The algorithm picker popup (`p`).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::super::app::App;
use super::super::panels::picker::Picker;
use super::style::{shorten_middle, title_block};

/// The algorithm picker over the main area: the query, then the algorithms whose name
/// contains it, each with its description; the highlighted one reversed, the active one
/// marked ●, overlaid ones ▌ in their colour.
pub(super) struct PickerPopup<'a> {
    app: &'a App,
    picker: &'a Picker,
}

impl<'a> PickerPopup<'a> {
    pub(super) fn new(app: &'a App, picker: &'a Picker) -> Self {
        PickerPopup { app, picker }
    }
}

impl Widget for PickerPopup<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (app, p) = (self.app, self.picker);
        let matches = &app.frame.picker_matches;
        let w = area.width.saturating_sub(4).clamp(20, 100);
        let h = u16::try_from(matches.len() + 4)
            .unwrap_or(u16::MAX)
            .clamp(6, area.height.saturating_sub(2).max(6));
        let popup = Rect::new(
            area.x + (area.width.saturating_sub(w)) / 2,
            area.y + 1,
            w.min(area.width),
            h.min(area.height),
        );
        Clear.render(popup, buf);
        let block = title_block(format!(
            " choose the active algorithm — {} of {} · type to filter, ↑↓ move, Enter chooses, Esc cancels ",
            matches.len(),
            app.algos.len()
        ));
        let inner = block.inner(popup);
        block.render(popup, buf);
        let mut lines = vec![Line::from(vec![
            Span::styled("name: ", Style::default().fg(Color::Gray)),
            Span::styled(
                format!("{}▏", p.query),
                Style::default()
                    .fg(Color::Yellow)
                    .add_modifier(Modifier::BOLD),
            ),
        ])];
        if matches.is_empty() {
            lines.push(Line::styled(
                format!("no algorithm name contains {:?}", p.query),
                Style::default().fg(Color::Red),
            ));
        }
        let row = p.row.min(matches.len().saturating_sub(1));
        let body = usize::from(inner.height).saturating_sub(1);
        let first = row.saturating_sub(body.saturating_sub(1));
        let name_w = app
            .algos
            .iter()
            .map(|a| a.extractor.name().chars().count())
            .max()
            .unwrap_or(8)
            .min(24);
        for (k, &i) in matches.iter().enumerate().skip(first).take(body) {
            let a = &app.algos[i];
            let mark = if i == app.active { "●" } else { " " };
            let overlay = if a.overlay { "▌" } else { " " };
            let mut st = Style::default();
            if k == row {
                st = st.add_modifier(Modifier::REVERSED);
            }
            lines.push(Line::from(vec![
                Span::styled(overlay, Style::default().fg(a.color)),
                Span::styled(
                    format!(
                        "{mark} {:<name_w$}  {}",
                        shorten_middle(a.extractor.name(), name_w),
                        a.extractor.describe()
                    ),
                    st,
                ),
            ]));
        }
        Paragraph::new(lines).render(inner, buf);
    }
}
