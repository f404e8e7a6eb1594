//! The explain panel: what the active algorithm (and, side by side, the pinned one) says about
//! the cursor line, in step mode as known at the current step.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, StatefulWidget, Widget, Wrap};

use super::super::app::{App, Rects};
use super::style::title_block;

/// The explain panel. Text longer than the panel scrolls from `App::explain`'s scroll (the
/// mouse wheel over the panel), at most to its end; records the panel and the rows beyond it
/// in [`Rects`].
pub(super) struct ExplainPanel<'a>(pub(super) &'a App);

impl<'a> ExplainPanel<'a> {
    /// Rows (borders included) the panel needs to show its whole text on a screen `width`
    /// columns wide (each half's text when two algorithms are explained side by side).
    pub(super) fn height(&self, width: u16) -> u16 {
        let app = self.0;
        let (ids, w) = match app.pinned() {
            Some(s) => (vec![app.active, s], width / 2),
            None => (vec![app.active], width),
        };
        let text_rows = ids
            .iter()
            .map(|&i| paragraph(app, i).line_count(w.saturating_sub(2)))
            .max()
            .unwrap_or(1);
        u16::try_from(text_rows + 2).unwrap_or(u16::MAX)
    }
}

impl StatefulWidget for ExplainPanel<'_> {
    type State = Rects;

    fn render(self, area: Rect, buf: &mut Buffer, rects: &mut Rects) {
        let app = self.0;
        rects.explain = area;
        let halves: Vec<(usize, Rect)> = match app.pinned() {
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
        let halves: Vec<(usize, Rect, Paragraph)> = halves
            .into_iter()
            .map(|(i, r)| (i, r, paragraph(app, i)))
            .collect();
        let longest = halves
            .iter()
            .map(|(_, r, p)| p.line_count(r.width.saturating_sub(2)))
            .max()
            .unwrap_or(0);
        let overflow = longest.saturating_sub(usize::from(area.height.saturating_sub(2)));
        rects.explain_overflow = overflow;
        let scroll = app.explain.scroll().min(overflow);
        let named = halves.len() > 1;
        for (i, r, p) in halves {
            let more = if overflow > 0 {
                format!(
                    "— line {} of {}, wheel scrolls ",
                    scroll + 1,
                    overflow + usize::from(r.height.saturating_sub(2))
                )
            } else {
                String::new()
            };
            let title = if named {
                format!(" explain — {} {more}", app.algos[i].extractor.name())
            } else {
                format!(" explain {more}")
            };
            let block = title_block(title);
            let inner = block.inner(r);
            block.render(r, buf);
            p.scroll((u16::try_from(scroll).unwrap_or(u16::MAX), 0))
                .render(inner, buf);
        }
    }
}

/// What the explain panel says for algorithm `i` at the cursor line: the step-mode header
/// (phase, what it does) and the algorithm's explanation as known at the current step
/// ([`crate::extract::Extractor::explain_step`]), word-wrapped.
fn paragraph(app: &App, i: usize) -> Paragraph<'static> {
    let a = &app.algos[i];
    let step = if i == app.active {
        app.frame.step
    } else {
        None
    };
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
                Span::raw(p.what.clone()),
            ]));
        }
    }
    if let Some(ex) = app.frame.explanation(i) {
        lines.push(Line::from(ex.join("; ")));
    } else if a.busy {
        lines.push(Line::from("running…"));
    }
    Paragraph::new(lines).wrap(Wrap { trim: true })
}
