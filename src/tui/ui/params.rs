//! The parameter bar: the active algorithm's sliders and choices.

use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::super::app::App;
use crate::algorithms::{ParamKind, ParamValue};

pub(super) fn value_text(v: Option<&ParamValue>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

pub(super) fn draw_params(f: &mut Frame, app: &mut App, area: Rect) {
    let a = &app.algos[app.active];
    let mut spans = vec![Span::styled(
        format!(" {} ", a.extractor.name()),
        Style::default().fg(Color::Black).bg(a.color),
    )];
    let mut x = area.x + spans[0].width() as u16;
    let mut rects = Vec::new();
    for (k, spec) in a.extractor.params().iter().enumerate() {
        // The focused slider (the one + / - move) is marked ▸ and drawn in reverse video.
        let focused = k == app.focus_param;
        spans.push(Span::raw(if focused { " ▸" } else { "  " }));
        let (label, name_style) = if focused {
            (
                format!(" {} ", spec.name),
                Style::default()
                    .fg(Color::Black)
                    .bg(Color::Yellow)
                    .add_modifier(Modifier::BOLD),
            )
        } else {
            (format!(" {} ", spec.name), Style::default().fg(Color::Gray))
        };
        x += 2 + label.chars().count() as u16;
        spans.push(Span::styled(label, name_style));
        let v = a.params.get(spec.name);
        match &spec.kind {
            ParamKind::Int { .. } | ParamKind::Float { .. } => {
                let (lo, hi, cur) = match (&spec.kind, v) {
                    (ParamKind::Int { min, max, .. }, Some(ParamValue::Int(c))) => {
                        (*min as f64, *max as f64, *c as f64)
                    }
                    (ParamKind::Float { min, max, .. }, Some(ParamValue::Float(c))) => {
                        (*min, *max, *c)
                    }
                    _ => (0.0, 1.0, 0.0),
                };
                let w = 16u16;
                let frac = ((cur - lo) / (hi - lo).max(1e-9)).clamp(0.0, 1.0);
                let pos = (frac * (w - 1) as f64).round() as u16;
                let track: String = (0..w)
                    .map(|i| {
                        if i == pos {
                            '●'
                        } else if i < pos {
                            '━'
                        } else {
                            '─'
                        }
                    })
                    .collect();
                rects.push(Rect::new(x, area.y, w, 1));
                x += w;
                spans.push(Span::styled(track, Style::default().fg(a.color)));
                let vt = format!(" {}", value_text(v));
                x += vt.chars().count() as u16;
                spans.push(Span::styled(
                    vt,
                    Style::default().add_modifier(Modifier::BOLD),
                ));
            }
            _ => {
                let vt = format!("‹{}›", value_text(v));
                let w = vt.chars().count() as u16;
                rects.push(Rect::new(x, area.y, w, 1));
                x += w;
                spans.push(Span::styled(vt, Style::default().fg(a.color)));
            }
        }
    }
    app.rects.params = rects;
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}
