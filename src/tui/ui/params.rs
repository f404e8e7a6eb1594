//! The parameter bar: the active algorithm's name, then its parameters — a slider for a number,
//! `‹value›` for a choice — the focused one marked.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, StatefulWidget, Widget};

use super::super::app::App;
use crate::extract::{ParamKind, ParamValue};

/// Columns of a slider's track.
const TRACK: u16 = 16;

/// The parameter bar (one row). Records one hit rectangle per slider or choice, in parameter
/// order (a click sets the parameter: [`App::set_param_fraction`]).
pub(super) struct ParamsBar<'a>(pub(super) &'a App);

impl StatefulWidget for ParamsBar<'_> {
    type State = Vec<Rect>;

    fn render(self, area: Rect, buf: &mut Buffer, rects: &mut Vec<Rect>) {
        let app = self.0;
        let a = &app.algos[app.active];
        let mut spans = vec![Span::styled(
            format!(" {} ", a.extractor.name()),
            Style::default().fg(Color::Black).bg(a.color),
        )];
        let mut x = area.x + u16::try_from(spans[0].width()).unwrap_or(u16::MAX);
        rects.clear();
        for (k, spec) in a.extractor.params().iter().enumerate() {
            // The focused slider (the one + / - move) is marked ▸ and drawn in reverse video.
            let focused = k == app.params.focus();
            spans.push(Span::raw(if focused { " ▸" } else { "  " }));
            let label = format!(" {} ", spec.name);
            let name_style = if focused {
                Style::default()
                    .fg(Color::Black)
                    .bg(Color::Yellow)
                    .add_modifier(Modifier::BOLD)
            } else {
                Style::default().fg(Color::Gray)
            };
            x += 2 + width(&label);
            spans.push(Span::styled(label, name_style));
            let v = a.params.get(&spec.name);
            let value = v.map(ToString::to_string).unwrap_or_default();
            if let Some(frac) = fraction(&spec.kind, v) {
                rects.push(Rect::new(x, area.y, TRACK, 1));
                x += TRACK;
                spans.push(Span::styled(track(frac), Style::default().fg(a.color)));
                let vt = format!(" {value}");
                x += width(&vt);
                spans.push(Span::styled(
                    vt,
                    Style::default().add_modifier(Modifier::BOLD),
                ));
            } else {
                let vt = format!("‹{value}›");
                let w = width(&vt);
                rects.push(Rect::new(x, area.y, w, 1));
                x += w;
                spans.push(Span::styled(vt, Style::default().fg(a.color)));
            }
        }
        Paragraph::new(Line::from(spans)).render(area, buf);
    }
}

/// Characters of `s`, as screen columns.
fn width(s: &str) -> u16 {
    u16::try_from(s.chars().count()).unwrap_or(u16::MAX)
}

/// Where value `v` of a number parameter of kind `kind` stands in its range, `0.0..=1.0` (0
/// when the value is missing or of another kind); `None` for a parameter that is not a number
/// (a choice, a flag: drawn as its value).
fn fraction(kind: &ParamKind, v: Option<&ParamValue>) -> Option<f64> {
    let (lo, hi, cur) = match (kind, v) {
        (ParamKind::Int { min, max, .. }, Some(ParamValue::Int(c))) => {
            (*min as f64, *max as f64, *c as f64)
        }
        (ParamKind::Float { min, max, .. }, Some(ParamValue::Float(c))) => (*min, *max, *c),
        (ParamKind::Int { .. } | ParamKind::Float { .. }, _) => (0.0, 1.0, 0.0),
        _ => return None,
    };
    Some(((cur - lo) / (hi - lo).max(1e-9)).clamp(0.0, 1.0))
}

/// A slider's track with its knob at `frac` of the way.
fn track(frac: f64) -> String {
    let pos = (frac * f64::from(TRACK - 1)).round() as u16;
    (0..TRACK)
        .map(|i| match i.cmp(&pos) {
            std::cmp::Ordering::Less => '━',
            std::cmp::Ordering::Equal => '●',
            std::cmp::Ordering::Greater => '─',
        })
        .collect()
}
