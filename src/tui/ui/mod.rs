//! Drawing the inspector, one widget per panel (as ratatui's demo2 and gitui do): the source
//! (`source`) with the histogram and overview beside it (`histogram`), the page list
//! (`corpus`), the parameter bar (`params`), the explain panel (`explain`), the status
//! bar (`status`), the path bar on the source panel's border (`pathbar`), and over them the
//! tables (`tables`; the text block table in `blocktable`), the picker (`picker`) and the
//! help (`help`); `style` holds what they share.
//!
//! A frame ([`frame`]) has two steps. [`prepare`] works out everything the frame shows that
//! takes computing — the explain panel's sentences, the line traces the panels show
//! ([`App::line_trace`]), the view fitted to the source panel ([`App::fit_view`]) — and keeps
//! it in the app ([`App::frame`] and the caches). [`draw`] then takes `&App`, lays the panels
//! out, and every panel reads the app and writes the frame; the panels that can be clicked
//! record their areas, which [`draw`] returns for [`App::rects`] (their state, as ratatui's
//! stateful widgets keep a list's offset). After drawing, the scroll of the explain panel is
//! clamped to its text.

use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::app::{App, Rects};

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

/// One frame: [`prepare`] works out what it shows, [`draw`] draws it from `&App`, and the
/// areas the panels recorded go back into the app ([`App::rects`]; the explain panel's scroll
/// clamped to its text).
pub fn frame(f: &mut Frame, app: &mut App) {
    prepare(app, f.area());
    let rects = draw(f, app);
    app.rects = rects;
    if app.explain.shown() {
        let overflow = app.rects.explain_overflow;
        app.explain.clamp_scroll(overflow);
    }
}

/// The panels' areas on a screen `area` large enough ([`MIN_SIZE`]): the page list, the source
/// and the histogram side by side, the parameter bar, the explain panel (`explain_h` rows) and
/// the status bar.
struct Panels {
    corpus: Rect,
    source: Rect,
    histogram: Rect,
    params: Rect,
    explain: Rect,
    status: Rect,
    main: Rect,
}

fn panels(app: &App, area: Rect, explain_h: u16) -> Panels {
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
    Panels {
        corpus: cols[0],
        source: cols[1],
        histogram: cols[2],
        params: rows[1],
        explain: rows[2],
        status: rows[3],
        main,
    }
}

/// Works out what the next frame on a screen `area` shows, so that [`draw`] computes nothing:
/// where step mode is ([`App::step_at`]), the explain panel's sentences
/// ([`App::explain_cursor`]) and height, the traces of the gutter's algorithms on the display
/// lines ([`App::line_trace`]), the block table's view, the view fitted to the source panel
/// ([`App::fit_view`]), then the open table's rows (the candidate tables, the headline
/// candidates, the records), the revealed spans of an unfolding step, the histogram's series,
/// scale and overview, the path bar, the picker's list, the review's progress and the compare
/// overlay's true / false positives and false negatives (all in [`App::frame`], see
/// [`super::app::FrameState`]) and the help's scroll clamped.
///
/// It works the frame out only when something it reads changed since the last one: the
/// screen's area, the app's revision or the source panel's place ([`super::app::FrameKey`]).
/// A frame drawn again with nothing changed (after a mouse move, say, or a second draw) reads
/// what the last one worked out. In a debug build with inline jobs (the tests' set-up, in
/// which nothing but the app's entry points changes it between two frames), such a frame is
/// worked out anyway and compared with what was kept, and a difference panics: a change that
/// does not mark the app changed fails the tests rather than leaving a stale screen.
pub fn prepare(app: &mut App, area: Rect) {
    let key = app.frame_key(area);
    if app.frame_is_from(&key) {
        #[cfg(debug_assertions)]
        if app.opts.inline_jobs {
            check_kept_frame(app, area);
        }
        return;
    }
    work_out(app, area);
    // The key from before: if working the frame out moved the view (fitted to a new height),
    // the next frame is worked out again from where it is now.
    app.frame_worked_out(key);
}

/// What [`work_out`] leaves in the app, as text to compare (debug builds).
#[cfg(debug_assertions)]
fn worked_out(app: &App) -> String {
    format!(
        "{:?}\nsource {:?}\nhelp {:?}",
        app.frame,
        (app.source.cursor(), app.source.top(), app.source.height()),
        app.overlay.help_scroll()
    )
}

/// Works out a frame [`prepare`] was about to skip and panics if it differs from the one kept
/// (debug builds, inline jobs): something changed the app without [`App::changed`].
#[cfg(debug_assertions)]
fn check_kept_frame(app: &mut App, area: Rect) {
    let kept = worked_out(app);
    work_out(app, area);
    let now = worked_out(app);
    if kept != now {
        let at = kept
            .chars()
            .zip(now.chars())
            .position(|(a, b)| a != b)
            .unwrap_or(kept.chars().count().min(now.chars().count()));
        let around =
            |s: &str| -> String { s.chars().skip(at.saturating_sub(200)).take(400).collect() };
        panic!(
            "stale frame: the app changed without App::changed, and the frame kept differs from \
             the one worked out now (from character {at}):\nkept: {}\nnow:  {}",
            around(&kept),
            around(&now)
        );
    }
}

/// Works out the frame on a screen `area` ([`prepare`]'s work).
fn work_out(app: &mut App, area: Rect) {
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        app.frame = super::app::FrameState::default();
        return;
    }
    app.frame.step = app.step_at();
    let shown: Vec<usize> = if app.explain.shown() {
        std::iter::once(app.active).chain(app.pinned()).collect()
    } else {
        Vec::new()
    };
    app.frame.explain = shown
        .iter()
        .filter_map(|&i| Some((i, app.explain_cursor(i)?)))
        .collect();
    // The explain panel grows to show its whole text, up to a third of the screen (then it
    // scrolls, with the mouse wheel).
    app.frame.explain_height = if app.explain.shown() {
        let most = (area.height / 3).max(5);
        let need = ExplainPanel(app).height(area.width);
        app.explain_rows(area.width, need).clamp(3, most)
    } else {
        0
    };
    let p = panels(app, area, app.frame.explain_height);
    let gutter = Gutter::of(app);
    for &i in &gutter.columns {
        let _ = app.line_trace(i);
    }
    if app.table.shows(super::app::TableKind::Blocks) {
        app.refresh_block_view();
    }
    app.fit_view(source::text_rows(p.source));
    // What the tables, the histogram, the path bar, the picker and the status bar read, worked
    // out after the view is fitted (the path bar follows the cursor line).
    use super::app::TableKind;
    app.frame.regions = if app.table.shows(TableKind::Regions) {
        std::iter::once(app.active)
            .chain(app.pinned())
            .map(|i| (i, app.table_of(i)))
            .collect()
    } else {
        Vec::new()
    };
    app.frame.headlines = if app.table.shows(TableKind::Headlines) {
        app.headline_rows()
    } else {
        Default::default()
    };
    app.frame.records = if app.table.shows(TableKind::Records) {
        app.record_list()
    } else {
        None
    };
    app.frame.unfolded = app.unfolded_line_spans();
    app.frame.histogram = histogram::work_out(app);
    app.frame.path_bar = app.path_bar();
    app.frame.picker_matches = app.picker_matches();
    app.frame.review_progress = app.review.is_active().then(|| app.review_progress());
    app.frame.compare = match (app.compare, app.doc.as_ref(), &app.active_algo().result) {
        (true, Some(d), Some(x)) => d.gold.as_ref().map(|g| {
            [
                x.selection.intersection(g),
                x.selection.difference(g),
                g.difference(&x.selection),
            ]
        }),
        _ => None,
    };
    let max = HelpPopup::new(&app.opts.keymap, &app.algos).max_scroll(area);
    app.overlay.clamp_help(max);
}

/// Draws the whole screen from what [`prepare`] worked out, computing nothing; returns the
/// areas the panels that can be clicked recorded (their state, as ratatui's stateful widgets
/// keep a list's offset).
pub fn draw(f: &mut Frame, app: &App) -> Rects {
    let area = f.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let msg = format!(
            "cescope needs a terminal of at least {}x{} (this one is {}x{}).\nEnlarge the window, or press q to quit.",
            MIN_SIZE.0, MIN_SIZE.1, area.width, area.height
        );
        f.render_widget(Paragraph::new(msg).wrap(Wrap { trim: true }), area);
        return Rects::default();
    }
    let p = panels(app, area, app.frame.explain_height);
    let gutter = Gutter::of(app);
    // The areas start from the last frame's (a panel not drawn keeps its last area, as
    // before the frame was split in two); the page list's is reset when it is closed.
    let mut rects = app.rects.clone();
    if p.corpus.width > 0 {
        f.render_stateful_widget(PageList(app), p.corpus, &mut rects.corpus);
    } else {
        rects.corpus = Rect::default();
    }
    f.render_stateful_widget(SourceView::new(app, &gutter), p.source, &mut rects);
    f.render_stateful_widget(Histogram(app), p.histogram, &mut rects);
    f.render_stateful_widget(ParamsBar(app), p.params, &mut rects.params);
    if app.explain.shown() {
        f.render_stateful_widget(ExplainPanel(app), p.explain, &mut rects);
    }
    f.render_widget(StatusBar(app), p.status);
    if app.table.is_open() {
        f.render_widget(TableOverlay(app), p.main);
    }
    if let Some(picker) = app.picker() {
        f.render_widget(PickerPopup::new(app, picker), p.main);
    }
    if let Some(mut scroll) = app.overlay.help_scroll() {
        f.render_stateful_widget(
            HelpPopup::new(&app.opts.keymap, &app.algos),
            area,
            &mut scroll,
        );
    }
    rects
}
