//! The help overlay (`?`): the keymap's keys by group, counts, the mouse, the overlays' colours
//! and the histogram's axis marks.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, StatefulWidget, Widget};

use super::super::app::{AlgoState, GOLD_COLOR};
use super::super::keymap::Keymap;
use super::style::title_block;

/// The help popup over the whole screen: two columns when the screen is wide enough, scrolling
/// (the state: its first row shown, clamped to its length) when it is not tall enough.
pub(super) struct HelpPopup<'a> {
    keymap: &'a Keymap,
    algos: &'a [AlgoState],
}

impl<'a> HelpPopup<'a> {
    pub(super) fn new(keymap: &'a Keymap, algos: &'a [AlgoState]) -> Self {
        HelpPopup { keymap, algos }
    }

    /// The help's text, one line a row.
    fn lines(&self) -> Vec<Line<'static>> {
        let gray = Style::default().fg(Color::Gray);
        let mut lines: Vec<Line> = Vec::new();
        let mut group = "";
        for r in self.keymap.help_rows() {
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
            gray,
        ));
        lines.push(Line::styled(
            "mouse: wheel scrolls; click the histogram or overview to go there; click a slider to set it",
            gray,
        ));
        let mut legend = vec![Span::styled("overlays: ", gray)];
        for a in self.algos {
            legend.push(Span::styled(
                format!("▌{} ", a.extractor.name()),
                Style::default().fg(a.color),
            ));
        }
        legend.push(Span::styled("▌gold", Style::default().fg(GOLD_COLOR)));
        lines.push(Line::from(legend));
        lines.push(Line::styled(
            "histogram axis ┃ candidates blue, seed yellow, selected green; ┆ bound; ┊ threshold",
            gray,
        ));
        lines
    }
}

/// The help popup's geometry on a screen `area` for `n` help lines: whether it has two columns,
/// its width and height (borders included), the lines per column, and the largest scroll.
fn geometry(area: Rect, n: usize) -> (bool, u16, u16, usize, usize) {
    let two = area.width >= 170;
    // Keys column 16 + the longest description (about 90 characters) + borders.
    let w = if two {
        area.width.saturating_sub(4).min(220)
    } else {
        area.width.saturating_sub(2).min(112)
    };
    let per_col_needed = if two { n.div_ceil(2) } else { n };
    let h = u16::try_from(per_col_needed + 2)
        .unwrap_or(u16::MAX)
        .min(area.height.saturating_sub(2));
    let max_scroll = per_col_needed.saturating_sub(usize::from(h.saturating_sub(2)));
    (two, w, h, per_col_needed, max_scroll)
}

impl HelpPopup<'_> {
    /// The largest scroll of the help on a screen `area` (0 when it shows whole).
    pub(super) fn max_scroll(&self, area: Rect) -> usize {
        geometry(area, self.lines().len()).4
    }
}

impl StatefulWidget for HelpPopup<'_> {
    type State = usize;

    fn render(self, area: Rect, buf: &mut Buffer, scroll: &mut usize) {
        let mut lines = self.lines();
        let (two, w, h, per_col_needed, max_scroll) = geometry(area, lines.len());
        let popup = Rect::new(
            area.x + (area.width - w) / 2,
            area.y + (area.height - h) / 2,
            w,
            h,
        );
        Clear.render(popup, buf);
        *scroll = (*scroll).min(max_scroll);
        let more = if max_scroll > 0 {
            format!(" ↑↓ {scroll}/{max_scroll} ")
        } else {
            String::new()
        };
        let block = title_block(format!(" help — keymap {} {more}", self.keymap.name()));
        let inner = block.inner(popup);
        block.render(popup, buf);
        let offset = (u16::try_from(*scroll).unwrap_or(u16::MAX), 0);
        if two {
            let right: Vec<Line> = lines.split_off(per_col_needed);
            let cw = inner.width / 2;
            Paragraph::new(lines)
                .scroll(offset)
                .render(Rect::new(inner.x, inner.y, cw, inner.height), buf);
            Paragraph::new(right).scroll(offset).render(
                Rect::new(inner.x + cw, inner.y, inner.width - cw, inner.height),
                buf,
            );
        } else {
            Paragraph::new(lines).scroll(offset).render(inner, buf);
        }
    }
}
