//! Drawing the inspector, one widget per panel (as ratatui's demo2 and gitui do): the source
//! (`source`) with the histogram and overview beside it (`histogram`), the page list
//! (`corpus`), the parameter bar (`params`), the explain panel (`explain`), the status
//! bar (`status`), the path bar on the source panel's border (`pathbar`), and over them the
//! tables (`tables`; the text block table in `blocktable`), the picker (`picker`) and the
//! help (`help`); `style` holds what they share.
//!
//! [`draw`] lays the panels out. Before drawing it fits the view to the source panel
//! ([`App::fit_view`]) and makes the line traces the panels show ([`App::line_trace`]); then
//! every panel reads [`App`] and writes the frame, and the panels that can be clicked record
//! their areas in [`App::rects`] (their state, as ratatui's stateful widgets keep a list's
//! offset). After drawing, the scroll of the explain panel is clamped to its text.

use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::app::{App, Overlay};

mod blocktable;
mod corpus;
mod explain;
mod help;
mod histogram;
mod params;
mod pathbar;
mod picker;
mod source;
mod status;
mod style;
mod tables;

pub use corpus::status_mark;
use corpus::PageList;
use explain::ExplainPanel;
use help::HelpPopup;
use histogram::Histogram;
use params::ParamsBar;
use picker::PickerPopup;
use source::{Gutter, SourceView};
use status::StatusBar;
pub use style::{
    class_style, shorten_middle, CURRENT_MATCH_BG, FN_BG, FP_BG, HEADLINE_BG, MATCH_BG, SELECT_BG,
    SUGGESTED_HEADLINE_BG, TP_BG,
};
use tables::TableOverlay;

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
        app.rects = super::app::Rects::default();
        return;
    }
    // The explain panel grows to show its whole text, up to a third of the screen (then it
    // scrolls, with the mouse wheel).
    let explain_h = if app.explain {
        let most = (area.height / 3).max(5);
        let need = ExplainPanel(app).height(area.width);
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
    // The frame's set-up: the traces of the gutter's algorithms (the active one among them)
    // on the display lines, and the view fitted to the source panel.
    let gutter = Gutter::of(app);
    for &i in &gutter.columns {
        let _ = app.line_trace(i);
    }
    if app.table && app.table_kind == super::app::TableKind::Blocks {
        app.refresh_block_view();
    }
    app.fit_view(source::text_rows(cols[1]));

    let mut rects = std::mem::take(&mut app.rects);
    if corpus_w > 0 {
        f.render_stateful_widget(PageList(app), cols[0], &mut rects.corpus);
    } else {
        rects.corpus = Rect::default();
    }
    f.render_stateful_widget(SourceView::new(app, &gutter), cols[1], &mut rects);
    f.render_stateful_widget(Histogram(app), cols[2], &mut rects);
    f.render_stateful_widget(ParamsBar(app), rows[1], &mut rects.params);
    if app.explain {
        f.render_stateful_widget(ExplainPanel(app), rows[2], &mut rects);
    }
    f.render_widget(StatusBar(app), rows[3]);
    if app.table {
        f.render_widget(TableOverlay(app), main);
    }
    if let Some(p) = app.picker() {
        f.render_widget(PickerPopup::new(app, p), main);
    }
    app.rects = rects;
    if app.explain {
        app.explain_scroll = app.explain_scroll.min(app.rects.explain_overflow);
    }
    if let Overlay::Help { scroll } = &mut app.overlay {
        f.render_stateful_widget(HelpPopup::new(&app.opts.keymap, &app.algos), area, scroll);
    }
}
