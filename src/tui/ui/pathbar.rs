//! The path bar on the source panel's bottom border: the cursor line's atomic text block as
//! its DOM path (`html > body > div#content.post > p`) with its key features — words, link
//! density, text density — and its visibility (`noscript`, `hidden`, `display:none`, …). The
//! features are kept whole (short forms on a narrow panel) and the path gives way from the
//! left (`…div#content.post > p`), so it fits an 80-column screen — except the step that hides
//! the block (its `<noscript>` or `display:none` container), which stays in view
//! (`…noscript > …div.post > p`).

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

/// `path` in at most `room` characters keeping step `keep` (0 = the first) in view: whole when
/// it fits, else `…STEP > ` and the rest clipped from the left ([`clip_left`]); when even that
/// leaves fewer than 8 characters for the rest, as [`clip_left`].
fn clip_keeping(path: &str, room: usize, keep: Option<usize>) -> String {
    if path.chars().count() <= room {
        return path.to_string();
    }
    let steps: Vec<&str> = path.split(" > ").collect();
    if let Some(k) = keep.filter(|&k| k + 1 < steps.len()) {
        let head = format!("…{} > ", steps[k]);
        let rest = steps[k + 1..].join(" > ");
        let left = room.saturating_sub(head.chars().count());
        if left >= 8 {
            return format!("{head}{}", clip_left(&rest, left));
        }
    }
    clip_left(path, room)
}

/// The path bar for a border `width` columns wide (corners included), or `None` when the cursor
/// line has no block text (or the blocks are not built yet).
pub(super) fn path_bar(app: &App, width: u16) -> Option<Line<'static>> {
    let b = app.frame.path_bar.as_ref()?;
    // Two corners, a space at each end, and " │ " between path and facts.
    let room = usize::from(width).saturating_sub(2 + 2 + 3);
    let long = facts(b, false);
    let facts = if room.saturating_sub(long.chars().count()) >= 24 {
        long
    } else {
        facts(b, true)
    };
    let path = clip_keeping(
        &b.path,
        room.saturating_sub(facts.chars().count()),
        b.hiding_step,
    );
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

    #[test]
    fn a_clipped_path_keeps_the_hiding_step() {
        let p = "html > body > noscript > div#main-outlet.wrap > div > div#post_1.topic-body > div.post > p";
        assert_eq!(clip_keeping(p, 200, Some(2)), p);
        let c = clip_keeping(p, 40, Some(2));
        assert!(c.starts_with("…noscript > …"), "{c}");
        assert!(c.ends_with("div.post > p"), "{c}");
        assert_eq!(c.chars().count(), 40, "{c}");
        // Without a hiding step, or without room for it, the path gives way from the left.
        assert_eq!(clip_keeping(p, 40, None), clip_left(p, 40));
        assert_eq!(clip_keeping(p, 16, Some(2)), clip_left(p, 16));
    }
}
