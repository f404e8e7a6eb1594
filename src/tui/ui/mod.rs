//! Drawing the inspector: source view, histogram, overview, sliders, explain panel, status bar,
//! corpus list and help overlay. Everything here reads [`App`] and writes the frame (plus the
//! hit-test rectangles in [`App::rects`]); no state changes otherwise.

use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::app::App;

mod corpus;
mod explain;
mod help;
mod histogram;
mod params;
mod picker;
mod source;
mod status;
mod style;
mod tables;

use corpus::draw_corpus;
pub use corpus::status_mark;
use explain::{draw_explain, explain_height};
use help::draw_help;
use params::draw_params;
use picker::draw_picker;
use source::draw_source_and_histogram;
use status::draw_status;
pub use style::{
    class_style, shorten_middle, CURRENT_MATCH_BG, FN_BG, FP_BG, HEADLINE_BG, MATCH_BG, SELECT_BG,
    SUGGESTED_HEADLINE_BG, TP_BG,
};
use tables::draw_tables;

/// Smallest usable terminal.
pub const MIN_SIZE: (u16, u16) = (80, 24);

/// Draws the whole screen.
pub fn draw(f: &mut Frame, app: &mut App) {
    let area = f.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let msg = format!(
            "cescope needs a terminal of at least {}x{} (this one is {}x{}).\nEnlarge the window, or press q to quit.",
            MIN_SIZE.0, MIN_SIZE.1, area.width, area.height
        );
        f.render_widget(Paragraph::new(msg).wrap(Wrap { trim: true }), area);
        app.rects = Default::default();
        return;
    }
    // The explain panel grows to show its whole text, up to a third of the screen (then it
    // scrolls, with the mouse wheel).
    let explain_h = if app.explain {
        let most = (area.height / 3).max(5);
        let need = explain_height(app, area.width);
        app.explain_rows(area.width, need).clamp(3, most)
    } else {
        0
    };
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Min(8),
            Constraint::Length(1),
            Constraint::Length(explain_h),
            Constraint::Length(2),
        ])
        .split(area);
    let main = rows[0];
    let corpus_w = if app.corpus.as_ref().is_some_and(|c| c.list_open) {
        30
    } else {
        0
    };
    let hist_w = (main.width.saturating_sub(corpus_w) * 32 / 100).max(22);
    let cols = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([
            Constraint::Length(corpus_w),
            Constraint::Min(30),
            Constraint::Length(hist_w),
        ])
        .split(main);
    if corpus_w > 0 {
        draw_corpus(f, app, cols[0]);
    } else {
        app.rects.corpus = Rect::default();
    }
    draw_source_and_histogram(f, app, cols[1], cols[2]);
    draw_params(f, app, rows[1]);
    if app.explain {
        draw_explain(f, app, rows[2]);
    }
    draw_status(f, app, rows[3]);
    if app.table {
        draw_tables(f, app, main);
    }
    if app.picker.is_some() {
        draw_picker(f, app, main);
    }
    if app.help {
        draw_help(f, app, area);
    }
}

/// The second algorithm pinned beside the active one (`P`), when it is another one.
fn pinned(app: &App) -> Option<usize> {
    app.second
        .filter(|&s| s != app.active && s < app.algos.len())
}
