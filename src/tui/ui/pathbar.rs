//! The path bar on the source panel's bottom border: the cursor line's atomic text block as
//! its DOM path (`html > body > div#content.post > p`) with its key features — words, link
//! density, text density — and its visibility (`noscript`, `hidden`, `display:none`, …). The
//! features are kept whole (short forms on a narrow panel) and the path gives way from the
//! left (`…div#content.post > p`), so it fits an 80-column screen.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::super::app::{App, PathBar};

/// The features of `b` as the bar writes them: long (`42 words · link density 0.12 · text
/// density 8.3`) or short (`42 w · LD 0.12 · TD 8.3`), the visibility flags after them.
fn facts(b: &PathBar, short: bool) -> String {
    let mut s = if short {
        format!(
            "{} w · LD {:.2} · TD {:.1}",
            b.words, b.link_density, b.text_density
        )
    } else {
        format!(
            "{} word{} · link density {:.2} · text density {:.1}",
            b.words,
            if b.words == 1 { "" } else { "s" },
            b.link_density,
            b.text_density
        )
    };
    for v in &b.visibility {
        s.push_str(" · ");
        s.push_str(v);
    }
    s
}

/// `path` in at most `room` characters: whole, or its end after `…` (the innermost steps).
fn clip_left(path: &str, room: usize) -> String {
    let n = path.chars().count();
    if n <= room {
        return path.to_string();
    }
    if room == 0 {
        return String::new();
    }
    let tail: String = path.chars().skip(n - (room - 1)).collect();
    format!("…{tail}")
}

/// The path bar for a border `width` columns wide (corners included), or `None` when the cursor
/// line has no block text (or the blocks are not built yet).
pub(super) fn path_bar(app: &App, width: u16) -> Option<Line<'static>> {
    let b = app.path_bar()?;
    // Two corners, a space at each end, and " │ " between path and facts.
    let room = usize::from(width).saturating_sub(2 + 2 + 3);
    let long = facts(&b, false);
    let facts = if room.saturating_sub(long.chars().count()) >= 24 {
        long
    } else {
        facts(&b, true)
    };
    let path = clip_left(&b.path, room.saturating_sub(facts.chars().count()));
    let hidden = !b.visibility.is_empty();
    Some(Line::from(vec![
        Span::styled(
            format!(" {path}"),
            Style::default()
                .fg(Color::Gray)
                .add_modifier(Modifier::BOLD),
        ),
        Span::styled(" │ ", Style::default().fg(Color::DarkGray)),
        Span::styled(
            format!("{facts} "),
            Style::default().fg(if hidden { Color::Yellow } else { Color::Gray }),
        ),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_give_way_from_the_left() {
        let p = "html > body > div#content.post > p";
        assert_eq!(clip_left(p, 100), p);
        assert_eq!(clip_left(p, 12), "…nt.post > p");
        assert_eq!(clip_left(p, 12).chars().count(), 12);
        assert_eq!(clip_left(p, 0), "");
    }
}
