//! What the panels share: the colours of byte classes and shadings, the bordered block with a
//! bold title, and number / size / name formatting.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders};

use crate::page::ByteClass;

/// Base colour of a byte class (before syntect refines it).
#[must_use]
pub fn class_style(c: ByteClass) -> Style {
    match c {
        ByteClass::Text => Style::default().fg(Color::White),
        ByteClass::Tag => Style::default().fg(Color::Blue),
        ByteClass::Script => Style::default()
            .fg(Color::Yellow)
            .add_modifier(Modifier::DIM),
        ByteClass::Style => Style::default()
            .fg(Color::Magenta)
            .add_modifier(Modifier::DIM),
        ByteClass::Comment => Style::default().fg(Color::DarkGray),
        ByteClass::Declaration => Style::default().fg(Color::Cyan),
        ByteClass::Cdata => Style::default().fg(Color::Gray),
    }
}

/// A panel's frame: a dark border with `title` in bold.
pub(super) fn title_block(title: String) -> Block<'static> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(Color::DarkGray))
        .title(Span::styled(
            title,
            Style::default().add_modifier(Modifier::BOLD),
        ))
}

/// Decimal digits of `n`.
pub(super) fn digits(n: usize) -> usize {
    n.to_string().len()
}

/// A number for a table cell: integers without decimals, others with three.
pub(super) fn fmt_value(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

/// Background of search matches in the source.
pub const MATCH_BG: Color = Color::Rgb(120, 90, 0);

/// Background of the search match the cursor moved to.
pub const CURRENT_MATCH_BG: Color = Color::Rgb(200, 120, 0);

/// Background of characters selected with the mouse for annotation.
pub const SELECT_BG: Color = Color::Rgb(40, 40, 130);

/// Background of the annotated headline.
pub const HEADLINE_BG: Color = Color::Rgb(90, 40, 110);

/// Background of a headline suggestion nobody has confirmed yet (`Y` confirms it).
pub const SUGGESTED_HEADLINE_BG: Color = Color::Rgb(110, 90, 20);

/// Background of true-positive text in the compare overlay.
pub const TP_BG: Color = Color::Rgb(0, 70, 0);

/// Background of false-positive text in the compare overlay.
pub const FP_BG: Color = Color::Rgb(90, 0, 0);

/// Background of false-negative text in the compare overlay.
pub const FN_BG: Color = Color::Rgb(80, 70, 0);

/// A dark background tint for a selection shaded in overlay colour `c`.
pub(super) fn shade_bg(c: Color) -> Color {
    match c {
        Color::Cyan => Color::Rgb(0, 60, 70),
        Color::Magenta => Color::Rgb(70, 0, 70),
        Color::Yellow => Color::Rgb(70, 60, 0),
        Color::Green => Color::Rgb(0, 70, 0),
        Color::LightBlue => Color::Rgb(0, 30, 90),
        Color::LightRed => Color::Rgb(90, 20, 20),
        _ => Color::Rgb(50, 50, 50),
    }
}

/// `s` in at most `max` characters, shortened in the middle with `…` (file names keep their
/// start and their end, which tell them apart).
#[must_use]
pub fn shorten_middle(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_string();
    }
    if max <= 1 {
        return "…".chars().take(max).collect();
    }
    let keep = max - 1;
    let head = keep.div_ceil(2);
    let tail = keep - head;
    let start: String = s.chars().take(head).collect();
    let end: String = s.chars().skip(n - tail).collect();
    format!("{start}…{end}")
}

/// A size in bytes for the page list: `812B`, `51K`, `1.2M`.
pub(super) fn human_size(b: u64) -> String {
    if b >= 1 << 20 {
        format!("{:.1}M", b as f64 / (1u64 << 20) as f64)
    } else if b >= 1 << 10 {
        format!("{:.0}K", b as f64 / 1024.0)
    } else {
        format!("{b}B")
    }
}

/// Characters gathered into spans, one span a run of characters of the same style.
#[derive(Default)]
pub(super) struct Runs {
    out: Vec<Span<'static>>,
    style: Option<Style>,
    text: String,
}

impl Runs {
    /// Adds `c` in style `st`.
    pub(super) fn push(&mut self, c: char, st: Style) {
        if self.style != Some(st) {
            if let Some(s) = self.style.take() {
                self.out
                    .push(Span::styled(std::mem::take(&mut self.text), s));
            }
            self.style = Some(st);
        }
        self.text.push(c);
    }

    /// The spans.
    pub(super) fn finish(mut self) -> Vec<Span<'static>> {
        if let Some(s) = self.style {
            self.out.push(Span::styled(self.text, s));
        }
        self.out
    }
}
