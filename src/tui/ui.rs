//! Drawing the inspector: source view, histogram, overview, sliders, explain panel, status bar,
//! corpus list and help overlay. Everything here reads [`App`] and writes the frame (plus the
//! hit-test rectangles in [`App::rects`]); no state changes otherwise.

use std::ops::Range;

use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};
use ratatui::Frame;

use super::app::{App, LineClass, Mode, TableKind, GOLD_COLOR};
use super::display::{display_chars, shorten_end};
use super::keymap::Action;
use crate::algorithms::{
    revealed, Extraction, LineMarks, LineSeries, LineTrace, Location, ParamKind, ParamValue, Role,
};
use crate::page::{ByteClass, Page};
use crate::selection::Selection;

/// Smallest usable terminal.
pub const MIN_SIZE: (u16, u16) = (80, 24);

/// Base colour of a byte class (before syntect refines it).
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

fn title_block(title: String) -> Block<'static> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(Color::DarkGray))
        .title(Span::styled(
            title,
            Style::default().add_modifier(Modifier::BOLD),
        ))
}

/// Does display line `i` (bytes `range`) carry the gutter mark of `sel`? A line that shows
/// content text is marked iff `sel` holds some of it ([`Page::holds_selected_text`]: the
/// extract has a line from it), so the gutter and `cescope extract` agree; in the reading view
/// every line is such a line. A line of markup only follows the trace's Selected marks `lt`
/// (the algorithm's own decision, at its own unit), or, without them, whether `sel` touches it.
fn line_selected(
    page: &Page,
    lt: Option<&LineTrace>,
    sel: &Selection,
    i: usize,
    range: &Range<usize>,
) -> bool {
    if page.holds_text(range.clone()) {
        return page.holds_selected_text(sel, range.clone());
    }
    match lt.and_then(|lt| lt.marks.iter().find(|m| m.role == Role::Selected)) {
        Some(m) => m.contains(i),
        None => sel.intersects(range.clone()),
    }
}

/// What the histogram draws.
#[derive(Clone, Copy, PartialEq)]
enum HistMode {
    /// Code signal left of the axis, content signal right.
    TwoSided,
    /// The combined signal, signed.
    Combined,
    /// A size series, grey, right of the axis.
    Size,
    /// Nothing revealed yet.
    Empty,
}

/// The series the histogram draws for the active algorithm, from roles alone: `(mode, left,
/// right, markers)` — markers are revealed thresholds and superseded sizes, drawn as lines.
fn hist_series<'a>(
    app: &App,
    lt: &'a LineTrace,
) -> (
    HistMode,
    Option<&'a LineSeries>,
    Option<&'a LineSeries>,
    Vec<&'a LineSeries>,
) {
    let a = app.active_algo();
    let phases = a.extractor.phases();
    let shown = |key: &str| revealed(phases, app.step, key);
    let first = |role: Role| lt.series.iter().find(|s| s.role == role && shown(&s.key));
    let content = first(Role::ContentSignal);
    let code = first(Role::CodeSignal);
    let combined = first(Role::CombinedSignal);
    let sizes: Vec<&LineSeries> = lt
        .series
        .iter()
        .filter(|s| s.role == Role::Size && shown(&s.key))
        .collect();
    let two = content.is_some() || code.is_some();
    let mode = if combined.is_some() && (app.step.is_some() || app.combined_view || !two) {
        HistMode::Combined
    } else if two {
        HistMode::TwoSided
    } else if !sizes.is_empty() {
        HistMode::Size
    } else {
        HistMode::Empty
    };
    let mut markers: Vec<&LineSeries> = lt
        .series
        .iter()
        .filter(|s| s.role == Role::Threshold && shown(&s.key))
        .collect();
    match mode {
        HistMode::TwoSided => (mode, code, content, markers),
        HistMode::Combined => (mode, None, combined, markers),
        HistMode::Size => {
            let last = sizes.last().copied();
            markers.extend(sizes.iter().take(sizes.len() - 1));
            (mode, None, last, markers)
        }
        HistMode::Empty => (mode, None, None, markers),
    }
}

/// The histogram's title: the drawn series by key (`code ◀ │ ▶ content`, or the label of the
/// one series), or the step-mode marker.
fn hist_title(app: &App, lt: Option<&LineTrace>) -> String {
    if app.step.is_some() {
        return " histogram — step mode ".to_string();
    }
    let Some(lt) = lt else {
        return " histogram ".to_string();
    };
    let all = |_: &str| true;
    let strip = candidate_strip(lt, &all);
    let columns = if strip.is_empty() {
        String::new()
    } else {
        format!("columns 1–{}: candidate sets · ", strip.len())
    };
    let title = match hist_series(app, lt) {
        (HistMode::TwoSided, l, r, _) => format!(
            " {} ◀ │ ▶ {} ",
            l.map_or("", |s| s.key.as_str()),
            r.map_or("", |s| s.key.as_str())
        ),
        (HistMode::Combined | HistMode::Size, _, Some(s), _) => format!(" {} ", s.label),
        _ => " histogram ".to_string(),
    };
    if columns.is_empty() {
        title
    } else {
        format!(" {columns}{}", title.trim_start())
    }
}

fn draw_source_and_histogram(f: &mut Frame, app: &mut App, src_area: Rect, hist_area: Rect) {
    let name = app
        .doc
        .as_ref()
        .map(|d| d.page.name().to_string())
        .unwrap_or_else(|| "(no page)".into());
    let mode = match app.view() {
        2 => "reading view",
        1 => "raw lines",
        _ => "virtual lines",
    };
    // The gutter's columns ([`App::gutter_columns`]): the overlaid algorithms, then the active
    // one; the most recently overlaid give way beyond GUTTER_MAX (the active one never).
    let mut columns = app.gutter_columns();
    let overlaid = columns.len();
    while columns.len() > GUTTER_MAX {
        match columns.iter().rposition(|&i| i != app.active) {
            Some(k) => columns.remove(k),
            None => break,
        };
    }
    let gold_shown = app.gold_overlay && app.doc.as_ref().is_some_and(|d| d.gold.is_some());
    let title = source_title(
        app,
        &name,
        mode,
        (&columns, overlaid),
        gold_shown,
        src_area.width,
    );
    let sblock = Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(Color::DarkGray))
        .title(title);
    let inner = sblock.inner(src_area);
    f.render_widget(sblock, src_area);
    // The traces of the active algorithm and of every shown overlay, on the display lines.
    for &i in &columns {
        let _ = app.line_trace(i);
    }
    let k = app.view();
    let hist_title = hist_title(app, app.active_algo().line_cache[k].as_deref());
    let hblock = title_block(hist_title);
    let hinner = hblock.inner(hist_area);
    f.render_widget(hblock, hist_area);

    app.view_height = inner.height as usize;
    app.settle_view();
    app.rects.source = inner;
    let n = app.line_count();
    if app.cursor >= n {
        app.cursor = n.saturating_sub(1);
    }
    if app.top > app.cursor || app.cursor >= app.top + app.view_height {
        app.top = app
            .cursor
            .saturating_sub(app.view_height.saturating_sub(1).min(app.cursor));
    }
    app.request_highlight();
    let Some(doc) = app.doc.as_ref() else {
        f.render_widget(
            Paragraph::new("No page open. See the status bar for the reason."),
            inner,
        );
        return;
    };
    let page = &doc.page;
    let text = page.text();
    let spans = &page.lexed().spans;
    // In step mode the active algorithm's decision shows in the gutter once its Selected marks
    // are revealed, and its selection shades the source at the last phase.
    let phases = app.active_algo().extractor.phases();
    let last_phase = app.step.is_none_or(|s| s + 1 >= phases.len());
    // While a phase unfolds span by span, the gutter waits for its end.
    let decision_shown = app.substep.is_none()
        && (last_phase
            || app.active_algo().result.as_ref().is_some_and(|x| {
                x.trace
                    .marks
                    .iter()
                    .any(|m| m.role == Role::Selected && revealed(phases, app.step, &m.key))
            }));
    // One column per gutter entry; `None` draws a blank column (overlay off, or the active
    // algorithm's decision not revealed yet in step mode).
    let overlays: Vec<Option<(usize, &std::sync::Arc<Extraction>)>> = columns
        .iter()
        .map(|&i| {
            let a = &app.algos[i];
            a.result
                .as_ref()
                .filter(|_| i != app.active || decision_shown)
                .map(|r| (i, r))
        })
        .collect();
    let gold = doc.gold.as_ref().filter(|_| app.gold_overlay);
    let active = &app.algos[app.active];
    // Background layers of the source text, first match wins.
    let compare_sel: Option<[Selection; 3]> = match (app.compare, &doc.gold, &active.result) {
        (true, Some(g), Some(x)) => Some([
            x.selection.intersection(g),
            x.selection.difference(g),
            g.difference(&x.selection),
        ]),
        _ => None,
    };
    let mut layers: Vec<(&[Range<usize>], Color)> = Vec::new();
    // Search matches first (they win over every other shading), the current one brighter.
    let current_match: Vec<Range<usize>> = app
        .search
        .as_ref()
        .and_then(|s| s.matches.get(s.current?).cloned())
        .into_iter()
        .collect();
    if let Some(s) = &app.search {
        layers.push((&current_match, CURRENT_MATCH_BG));
        layers.push((&s.matches, MATCH_BG));
    }
    let ann = app.ann.as_ref();
    let char_sel: Vec<Range<usize>> = ann.and_then(|a| a.char_sel.clone()).into_iter().collect();
    let headline: Vec<Range<usize>> = ann
        .and_then(|a| a.gold.headline_range())
        .into_iter()
        .collect();
    if !char_sel.is_empty() {
        layers.push((&char_sel, SELECT_BG));
    }
    // A suggestion nobody confirmed is always shown, shaded apart from a confirmed headline.
    let suggested = ann.is_some_and(|a| a.headline_unconfirmed());
    if !headline.is_empty() && (app.gold_overlay || suggested) {
        let bg = if suggested {
            SUGGESTED_HEADLINE_BG
        } else {
            HEADLINE_BG
        };
        layers.push((&headline, bg));
    }
    if let Some(c) = &compare_sel {
        layers.push((c[0].ranges(), TP_BG));
        layers.push((c[1].ranges(), FP_BG));
        layers.push((c[2].ranges(), FN_BG));
    } else if last_phase {
        if let Some(r) = &active.result {
            layers.push((r.selection.ranges(), shade_bg(active.color)));
        }
    }
    let num_w = digits(n.max(1)) + 1;
    let hl = doc.hl.get(app.view()).and_then(|h| h.as_ref());
    let mut app_text_x = inner.x;
    for row in 0..inner.height as usize {
        let i = app.top + row;
        let y = inner.y + row as u16;
        if i >= n {
            break;
        }
        let range = app.line_range(i).unwrap_or(0..0);
        let shown_range = {
            let t = text[range.clone()].trim_end();
            range.start..range.start + t.len()
        };
        let mut line_spans: Vec<Span> = Vec::new();
        for o in &overlays {
            let Some((ai, x)) = o else {
                line_spans.push(Span::raw(" "));
                continue;
            };
            let sel = line_selected(
                page,
                app.algos[*ai].line_cache[k].as_deref(),
                &x.selection,
                i,
                &range,
            );
            let c = app.algos[*ai].color;
            line_spans.push(if sel {
                Span::styled("▌", Style::default().fg(c))
            } else {
                Span::raw(" ")
            });
        }
        if let Some(g) = gold {
            line_spans.push(if line_selected(page, None, g, i, &range) {
                Span::styled("▌", Style::default().fg(GOLD_COLOR))
            } else {
                Span::raw(" ")
            });
        }
        let in_visual = ann
            .and_then(|a| a.visual)
            .is_some_and(|v| v.min(app.cursor) <= i && i <= v.max(app.cursor));
        let num_style = if i == app.cursor {
            Style::default().fg(Color::Black).bg(Color::Gray)
        } else if in_visual {
            Style::default().fg(Color::White).bg(SELECT_BG)
        } else if app.compare {
            match app.line_class(i) {
                Some(LineClass::TruePositive) => Style::default().fg(Color::Black).bg(Color::Green),
                Some(LineClass::FalsePositive) => Style::default().fg(Color::Black).bg(Color::Red),
                Some(LineClass::FalseNegative) => {
                    Style::default().fg(Color::Black).bg(Color::Yellow)
                }
                _ => Style::default().fg(Color::DarkGray),
            }
        } else {
            Style::default().fg(Color::DarkGray)
        };
        line_spans.push(Span::styled(
            format!("{:>w$} ", i + 1, w = num_w),
            num_style,
        ));
        let used: usize = line_spans.iter().map(|s| s.width()).sum();
        if row == 0 {
            app_text_x = inner.x + used as u16;
        }
        let width = (inner.width as usize).saturating_sub(used);
        if app.reading {
            if let Some(l) = doc.reading.get(i) {
                line_spans.extend(styled_reading(l, app.hscroll, width, &layers));
            }
            f.render_widget(
                Paragraph::new(Line::from(line_spans)),
                Rect::new(inner.x, y, inner.width, 1),
            );
            continue;
        }
        let hl_spans = hl.and_then(|h| h.get(i));
        line_spans.extend(styled_text(
            text,
            spans,
            shown_range,
            app.hscroll,
            width,
            !app.raw_lines,
            &layers,
            hl_spans.as_deref().map(|v| v.as_slice()),
        ));
        f.render_widget(
            Paragraph::new(Line::from(line_spans)),
            Rect::new(inner.x, y, inner.width, 1),
        );
    }
    app.rects.source_text_x = app_text_x;
    draw_histogram(f, app, hinner);
    // The histogram's scale on its bottom border: what a full half-width bar stands for.
    if hist_area.height >= 2 && hist_area.width > 12 {
        let t = format!(" full bar = {} ", fmt_value(app.rects.hist_scale));
        let w = (t.chars().count() as u16).min(hist_area.width - 2);
        f.render_widget(
            Paragraph::new(t).style(Style::default().fg(Color::Gray)),
            Rect::new(hist_area.x + 1, hist_area.y + hist_area.height - 1, w, 1),
        );
    }
}

/// The source panel's title: the file (shortened in the middle when long) and the view, then
/// the gutter's legend — one coloured mark per column in column order (the active algorithm's
/// name bold), then the gold's. The legend never ends mid-name: names that do not fit in
/// `width` give way to "+N more" (the active one last of all), which also counts the overlaid
/// algorithms beyond the gutter's last column (`columns.1` overlays in all).
fn source_title(
    app: &App,
    name: &str,
    mode: &str,
    columns: (&[usize], usize),
    gold: bool,
    width: u16,
) -> Line<'static> {
    let (columns, overlaid) = columns;
    let dropped = overlaid.saturating_sub(columns.len());
    let width = (width as usize).saturating_sub(4);
    let entry = |i: usize| format!("▌{} ", app.algos[i].extractor.name());
    let gold_w = if gold { "▌gold ".chars().count() } else { 0 };
    let active_w = entry(app.active).chars().count();
    // The file name gets what the mode and the active algorithm's mark leave (at least 12).
    let room = width
        .saturating_sub(mode.len() + 5 + active_w + gold_w)
        .max(12);
    let head = format!(" {} — {mode} ", shorten_middle(name, room));
    let mut left = width.saturating_sub(head.chars().count() + gold_w);
    // Which columns are named: the active one first, then the others in column order while
    // they fit with room for "+N more".
    let mut named = vec![false; columns.len()];
    if let Some(k) = columns.iter().position(|&i| i == app.active) {
        if active_w <= left {
            named[k] = true;
            left -= active_w;
        }
    }
    let more_w = |n: usize| {
        if n == 0 {
            0
        } else {
            format!("+{n} more ").len()
        }
    };
    for k in 0..columns.len() {
        if named[k] {
            continue;
        }
        let unnamed_after = named.iter().filter(|x| !**x).count() - 1 + dropped;
        let w = entry(columns[k]).chars().count();
        if w + more_w(unnamed_after) <= left {
            named[k] = true;
            left -= w;
        }
    }
    let mut spans = vec![Span::styled(
        head,
        Style::default()
            .fg(Color::Gray)
            .add_modifier(Modifier::BOLD),
    )];
    for (k, &i) in columns.iter().enumerate() {
        if !named[k] {
            continue;
        }
        let mut st = Style::default().fg(app.algos[i].color);
        if i == app.active {
            st = st.add_modifier(Modifier::BOLD);
        }
        spans.push(Span::styled(entry(i), st));
    }
    let hidden = named.iter().filter(|x| !**x).count() + dropped;
    if hidden > 0 {
        spans.push(Span::styled(
            format!("+{hidden} more "),
            Style::default().fg(Color::Gray),
        ));
    }
    if gold {
        spans.push(Span::styled("▌gold ", Style::default().fg(GOLD_COLOR)));
    }
    Line::from(spans)
}

fn digits(n: usize) -> usize {
    n.to_string().len()
}

/// The visible part of one display line as styled spans: class colours, syntect refinement,
/// selection shading; newlines shown as `↵` (a run of white space after a newline collapses
/// into it), tabs as spaces, control characters as `·`.
#[allow(clippy::too_many_arguments)]
fn styled_text<'a>(
    text: &'a str,
    lex: &[crate::page::Span],
    range: Range<usize>,
    hscroll: usize,
    width: usize,
    trim_leading: bool,
    layers: &[(&[Range<usize>], Color)],
    hl: Option<&[(Range<usize>, Style)]>,
) -> Vec<Span<'a>> {
    let mut out: Vec<Span> = Vec::new();
    let mut si = lex.partition_point(|s| (s.end as usize) <= range.start);
    let mut hi = 0usize;
    let mut ris: Vec<usize> = layers
        .iter()
        .map(|(rs, _)| rs.partition_point(|r| r.end <= range.start))
        .collect();
    let mut col = 0usize; // display columns consumed, including the scrolled-off ones
    let mut cur_style: Option<Style> = None;
    let mut buf = String::new();
    let limit = hscroll + width;
    for (b, shown, w) in display_chars(text, range.clone(), trim_leading) {
        if col >= limit {
            break;
        }
        if col < hscroll {
            col += w;
            continue;
        }
        if col + w > limit {
            break;
        }
        col += w;
        while si < lex.len() && (lex[si].end as usize) <= b {
            si += 1;
        }
        let class = lex.get(si).map_or(ByteClass::Text, |s| s.class);
        let mut st = class_style(class);
        if let Some(h) = hl {
            while hi < h.len() && h[hi].0.end <= b {
                hi += 1;
            }
            if let Some((r, s)) = h.get(hi) {
                if r.start <= b {
                    st = st.patch(*s);
                }
            }
        }
        if shown == '↵' || shown == '·' {
            st = Style::default().fg(Color::DarkGray);
        }
        for (k, (rs, bg)) in layers.iter().enumerate() {
            while ris[k] < rs.len() && rs[ris[k]].end <= b {
                ris[k] += 1;
            }
            if rs.get(ris[k]).is_some_and(|r| r.start <= b) {
                st = st.bg(*bg);
                break;
            }
        }
        if cur_style != Some(st) {
            if let Some(s) = cur_style.take() {
                out.push(Span::styled(std::mem::take(&mut buf), s));
            }
            cur_style = Some(st);
        }
        buf.push(shown);
    }
    if let Some(s) = cur_style {
        out.push(Span::styled(buf, s));
    }
    out
}

/// The region / block tables (`b`) over the main area: the active algorithm's, and below it
/// the pinned second algorithm's (`P`).
/// The algorithm picker (`p`) over the main area: the query, then the algorithms whose name
/// contains it, each with its description; the highlighted one reversed, the active one
/// marked ●, overlaid ones ▌ in their colour.
fn draw_picker(f: &mut Frame, app: &App, area: Rect) {
    let Some(p) = &app.picker else {
        return;
    };
    let matches = app.picker_matches();
    let w = area.width.saturating_sub(4).clamp(20, 100);
    let h = (matches.len() as u16 + 4).clamp(6, area.height.saturating_sub(2).max(6));
    let popup = Rect::new(
        area.x + (area.width.saturating_sub(w)) / 2,
        area.y + 1,
        w.min(area.width),
        h.min(area.height),
    );
    f.render_widget(Clear, popup);
    let block = title_block(format!(
        " choose the active algorithm — {} of {} · type to filter, ↑↓ move, Enter chooses, Esc cancels ",
        matches.len(),
        app.algos.len()
    ));
    let inner = block.inner(popup);
    f.render_widget(block, popup);
    let mut lines = vec![Line::from(vec![
        Span::styled("name: ", Style::default().fg(Color::Gray)),
        Span::styled(
            format!("{}▏", p.query),
            Style::default()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
        ),
    ])];
    if matches.is_empty() {
        lines.push(Line::styled(
            format!("no algorithm name contains {:?}", p.query),
            Style::default().fg(Color::Red),
        ));
    }
    let row = p.row.min(matches.len().saturating_sub(1));
    let body = (inner.height as usize).saturating_sub(1);
    let first = row.saturating_sub(body.saturating_sub(1));
    let name_w = app
        .algos
        .iter()
        .map(|a| a.extractor.name().chars().count())
        .max()
        .unwrap_or(8)
        .min(24);
    for (k, &i) in matches.iter().enumerate().skip(first).take(body) {
        let a = &app.algos[i];
        let mark = if i == app.active { "●" } else { " " };
        let overlay = if a.overlay { "▌" } else { " " };
        let mut st = Style::default();
        if k == row {
            st = st.add_modifier(Modifier::REVERSED);
        }
        lines.push(Line::from(vec![
            Span::styled(overlay.to_string(), Style::default().fg(a.color)),
            Span::styled(
                format!(
                    "{mark} {:<name_w$}  {}",
                    shorten_middle(a.extractor.name(), name_w),
                    a.extractor.describe()
                ),
                st,
            ),
        ]));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

fn draw_tables(f: &mut Frame, app: &App, area: Rect) {
    let area = Rect::new(
        area.x + 1,
        area.y + 1,
        area.width.saturating_sub(2),
        area.height.saturating_sub(2),
    );
    f.render_widget(Clear, area);
    if app.table_kind == TableKind::Headlines {
        draw_headline_table(f, app, area);
        return;
    }
    match pinned(app) {
        Some(s) => {
            let halves = Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
                .split(area);
            draw_table(f, app, app.active, halves[0]);
            draw_table(f, app, s, halves[1]);
        }
        None => draw_table(f, app, app.active, area),
    }
}

/// The headline candidates panel: rank, score, line and text of TitleFinder's candidates.
fn draw_headline_table(f: &mut Frame, app: &App, area: Rect) {
    let rows = app.headline_rows();
    let block = title_block(format!(
        " headline candidates (TitleFinder tf) — {} · ↑↓ move, Enter jumps, {} takes it, Esc closes ",
        rows.len(),
        app.opts
            .keymap
            .keys_label(Action::TakeHeadline)
            .split(", ")
            .next()
            .unwrap_or_default()
    ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let mut lines = vec![Line::styled(
        format!("{:>4}  {:>7}  {:>6}  text", "#", "score", "line"),
        Style::default()
            .fg(Color::Yellow)
            .add_modifier(Modifier::BOLD),
    )];
    if rows.is_empty() {
        lines.push(Line::from(
            "no candidate: the page has no title or no text matching it",
        ));
    }
    let sel = app.table_row.min(rows.len().saturating_sub(1));
    let body_h = (inner.height as usize).saturating_sub(1);
    let first = sel.saturating_sub(body_h.saturating_sub(1));
    for (k, r) in rows.iter().enumerate().skip(first).take(body_h) {
        let line = app.line_at_byte(r.range.start) + 1;
        let mut st = Style::default();
        if k == sel {
            st = st.add_modifier(Modifier::REVERSED);
        }
        lines.push(Line::styled(
            format!("{:>4}  {:>7.3}  {:>6}  {}", k + 1, r.score, line, r.text),
            st,
        ));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// One algorithm's candidate table: number, display lines, the sums of its series, the units
/// to the neighbours, seed / selected, and its verdict.
fn draw_table(f: &mut Frame, app: &App, i: usize, area: Rect) {
    let name = app.algos[i].extractor.name();
    let Some(t) = app.table_of(i) else {
        let block = title_block(format!(" {name}: no candidate regions or blocks "));
        let why = if i == app.active && app.step.is_some() {
            "no candidate or selected marks computed yet at this step"
        } else {
            "this algorithm's trace has no candidate or selected marks on this page"
        };
        f.render_widget(Paragraph::new(why).block(block), area);
        return;
    };
    let active = i == app.active;
    let hint = if active {
        " · ↑↓ move, Enter jumps, Esc closes"
    } else {
        ""
    };
    let block = title_block(format!(
        " {name}: {} — {} in {}s{hint} ",
        t.label,
        t.rows.len(),
        t.unit.name()
    ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let short = |l: &str| -> String {
        let w = l.split(['(', ',']).next().unwrap_or(l).trim();
        w.chars().take(10).collect()
    };
    let sum_heads: Vec<String> = t
        .rows
        .first()
        .map(|r| r.sums.iter().map(|(l, _)| short(l)).collect())
        .unwrap_or_default();
    let mut head = format!("{:>4}  {:<13}", "#", "lines");
    for h in &sum_heads {
        head.push_str(&format!(" {h:>10}"));
    }
    head.push_str(&format!(
        " {:>6} {:>6}  {:<4} {:<3}  why",
        "before",
        "after",
        Role::Seed.name(),
        "sel"
    ));
    let mut lines = vec![Line::styled(
        head,
        Style::default()
            .fg(Color::Yellow)
            .add_modifier(Modifier::BOLD),
    )];
    let body_h = (inner.height as usize).saturating_sub(1);
    let sel_row = if active {
        app.table_row.min(t.rows.len().saturating_sub(1))
    } else {
        0
    };
    let first = if active {
        sel_row.saturating_sub(body_h.saturating_sub(1))
    } else {
        0
    };
    for (k, r) in t.rows.iter().enumerate().skip(first).take(body_h) {
        let span_lines = r.bytes.as_ref().map_or("–".to_string(), |b| {
            let a = app.line_at_byte(b.start) + 1;
            let z = app.line_at_byte(b.end.saturating_sub(1).max(b.start)) + 1;
            format!("{a}–{z}")
        });
        let mut row = format!("{:>4}  {:<13}", r.number, span_lines);
        for (_, v) in &r.sums {
            row.push_str(&format!(" {:>10}", fmt_value(*v)));
        }
        let dist = |d: Option<usize>| d.map_or("–".to_string(), |d| d.to_string());
        row.push_str(&format!(
            " {:>6} {:>6}  {:<4} {:<3}  {}",
            dist(r.before),
            dist(r.after),
            if r.seed { Role::Seed.name() } else { "" },
            if r.selected { "✓" } else { "" },
            r.why
        ));
        let mut st = if r.selected {
            Style::default().fg(Color::LightGreen)
        } else {
            Style::default()
        };
        if active && k == sel_row {
            st = st.add_modifier(Modifier::REVERSED);
        }
        lines.push(Line::styled(row, st));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// A number for a table cell: integers without decimals, others with three.
fn fmt_value(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

/// One line of the reading view as styled spans: its text from column `hscroll`, each char
/// shaded by the first layer whose ranges hold the char's source byte.
fn styled_reading<'a>(
    l: &crate::page::text::ReadingLine,
    hscroll: usize,
    width: usize,
    layers: &[(&[Range<usize>], Color)],
) -> Vec<Span<'a>> {
    let mut out: Vec<Span> = Vec::new();
    let mut cur: Option<Style> = None;
    let mut buf = String::new();
    for (c, &b) in l.text.chars().zip(&l.starts).skip(hscroll).take(width) {
        let mut st = Style::default();
        for (rs, bg) in layers {
            let k = rs.partition_point(|r| r.end <= b);
            if rs.get(k).is_some_and(|r| r.start <= b) {
                st = st.bg(*bg);
                break;
            }
        }
        if cur != Some(st) {
            if let Some(s) = cur.take() {
                out.push(Span::styled(std::mem::take(&mut buf), s));
            }
            cur = Some(st);
        }
        buf.push(c);
    }
    if let Some(s) = cur {
        out.push(Span::styled(buf, s));
    }
    out
}

/// Most gutter columns; beyond it the most recently overlaid columns give way (never the active
/// algorithm's).
const GUTTER_MAX: usize = 8;

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
fn shade_bg(c: Color) -> Color {
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

/// The `p` quantile of the non-zero absolute values of `v`; 0 when there is none.
fn percentile_abs(v: &[f64], p: f64) -> f64 {
    let mut a: Vec<f64> = v.iter().map(|x| x.abs()).filter(|x| *x > 0.0).collect();
    if a.is_empty() {
        return 0.0;
    }
    a.sort_by(|x, y| x.total_cmp(y));
    a[((a.len() - 1) as f64 * p) as usize]
}

/// The axis symbol of display line `i`: the revealed marks that contain it, by role (seed,
/// selected, candidates, bound reach), first match wins.
fn axis_mark(lt: &LineTrace, shown: &dyn Fn(&str) -> bool, i: usize) -> (&'static str, Color) {
    let has = |role: Role| {
        lt.marks
            .iter()
            .any(|m| m.role == role && shown(&m.key) && m.contains(i))
    };
    if has(Role::Seed) {
        ("┃", Color::Yellow)
    } else if has(Role::Selected) {
        ("┃", Color::Green)
    } else if has(Role::Candidates) {
        ("┃", Color::Blue)
    } else if has(Role::Bound) {
        ("┆", Color::Green)
    } else {
        ("│", Color::DarkGray)
    }
}

/// Colours of the candidate-set columns ([`candidate_strip`]).
const STRIP_COLOURS: [Color; 4] = [Color::Cyan, Color::Yellow, Color::Magenta, Color::LightBlue];

/// The revealed candidate marks of `lt` when there are several sets of them (the members of a
/// filter set): the histogram draws one column per set at its left edge, in trace order.
fn candidate_strip<'a>(lt: &'a LineTrace, shown: &dyn Fn(&str) -> bool) -> Vec<&'a LineMarks> {
    let v: Vec<&LineMarks> = lt
        .marks
        .iter()
        .filter(|m| m.role == Role::Candidates && shown(&m.key))
        .collect();
    if v.len() >= 2 {
        v
    } else {
        Vec::new()
    }
}

fn draw_histogram(f: &mut Frame, app: &mut App, area: Rect) {
    if area.width < 6 {
        return;
    }
    let overview = Rect::new(area.x + area.width - 1, area.y, 1, area.height);
    let bars = Rect::new(area.x, area.y, area.width - 2, area.height);
    app.rects.histogram = bars;
    app.rects.overview = overview;
    let Some(lt) = app.line_trace(app.active) else {
        f.render_widget(Paragraph::new("running…"), bars);
        return;
    };
    // An unfolding phase shows only the spans revealed so far.
    let lt = match app.unfolded_line_spans() {
        Some((key, spans)) => {
            let mut l = (*lt).clone();
            if let Some(m) = l.marks.iter_mut().find(|m| m.key == key) {
                m.spans = spans;
            }
            std::sync::Arc::new(l)
        }
        None => lt,
    };
    let active = std::sync::Arc::clone(&app.active_algo().extractor);
    let phases = active.phases();
    let step = app.step;
    let shown = |key: &str| revealed(phases, step, key);
    let (mode, left_s, right_s, markers) = hist_series(app, &lt);
    let left_v: &[f64] = left_s.map_or(&[], |s| s.values.as_slice());
    let right_v: &[f64] = right_s.map_or(&[], |s| s.values.as_slice());
    // Threshold scalars draw as a marker at the same value on every line.
    let scalar_marks: Vec<f64> = lt
        .scalars
        .iter()
        .filter(|s| s.role == Role::Threshold && shown(&s.key))
        .map(|s| s.value)
        .collect();
    // The scale: the 98th percentile of the bars (so one huge line does not flatten the rest),
    // widened to keep threshold markers inside.
    let scale = markers
        .iter()
        .map(|s| percentile_abs(&s.values, 0.98))
        .chain(scalar_marks.iter().map(|v| v.abs() * 1.25))
        .fold(
            percentile_abs(left_v, 0.98).max(percentile_abs(right_v, 0.98)),
            f64::max,
        );
    let scale = if scale > 0.0 { scale } else { 1.0 };
    app.rects.hist_scale = scale;
    let strip = candidate_strip(&lt, &shown);
    let axis = bars.width / 2;
    let half = axis.saturating_sub(1) as f64;
    let n = app.line_count();
    let buf = f.buffer_mut();
    for row in 0..bars.height {
        let i = app.top + row as usize;
        if i >= n {
            break;
        }
        let at = |v: &[f64]| v.get(i).copied().unwrap_or(0.0);
        let (left, right) = match mode {
            HistMode::Combined => {
                let d = at(right_v);
                if d > 0.0 {
                    (0.0, d)
                } else {
                    (-d, 0.0)
                }
            }
            _ => (at(left_v), at(right_v)),
        };
        let y = bars.y + row;
        let lc = ((left / scale).min(1.0) * half * 2.0).round() as u16; // half-cells
        let rc = ((right / scale).min(1.0) * half * 8.0).round() as u16; // eighths
        let (lcol, rcol) = if mode == HistMode::Size {
            (Color::Gray, Color::Gray)
        } else {
            (Color::Red, Color::Green)
        };
        // Left bar grows leftwards from the axis in half cells.
        for k in 0..(lc / 2).min(axis) {
            let cx = bars.x + axis - 1 - k;
            buf[(cx, y)].set_symbol("█").set_fg(lcol);
        }
        if lc % 2 == 1 && lc / 2 < axis {
            let cx = bars.x + axis - 1 - lc / 2;
            buf[(cx, y)].set_symbol("▐").set_fg(lcol);
        }
        // Right bar grows rightwards in eighths.
        let full = rc / 8;
        for k in 0..full.min(bars.width - axis - 1) {
            buf[(bars.x + axis + 1 + k, y)].set_symbol("█").set_fg(rcol);
        }
        let rem = rc % 8;
        if rem > 0 && full < bars.width - axis - 1 {
            let sym = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][rem as usize];
            buf[(bars.x + axis + 1 + full, y)]
                .set_symbol(sym)
                .set_fg(rcol);
        }
        // A bar longer than the scale is clipped visibly: its number replaces the bar's end.
        if right > scale {
            let t = format!("{}▸", fmt_value(right));
            let room = (bars.width - axis - 1) as usize;
            if t.chars().count() <= room {
                let x0 = bars.x + bars.width - t.chars().count() as u16;
                for (k, c) in t.chars().enumerate() {
                    buf[(x0 + k as u16, y)]
                        .set_symbol(&c.to_string())
                        .set_fg(Color::Black)
                        .set_bg(rcol);
                }
            }
        }
        if left > scale {
            let t = format!("◂{}", fmt_value(left));
            if t.chars().count() <= axis as usize {
                for (k, c) in t.chars().enumerate() {
                    buf[(bars.x + k as u16, y)]
                        .set_symbol(&c.to_string())
                        .set_fg(Color::Black)
                        .set_bg(lcol);
                }
            }
        }
        // Thresholds (and superseded sizes) as marker lines on the same scale: positive values
        // right of the axis, negative left.
        for v in markers
            .iter()
            .map(|s| at(&s.values))
            .chain(scalar_marks.iter().copied())
        {
            let cells = ((v.abs() / scale).min(1.0) * half).round() as u16;
            let cx = if v >= 0.0 {
                bars.x + axis + 1 + cells.min(bars.width - axis - 2)
            } else {
                bars.x + axis - 1 - cells.min(axis.saturating_sub(1))
            };
            buf[(cx, y)].set_symbol("┊").set_fg(Color::Magenta);
        }
        // Several candidate sets (a filter set's members, say) get a column each at the left
        // edge: the set's number (1-based, in trace order) on the lines it contains.
        if strip.len() >= 2 {
            for (k, m) in strip
                .iter()
                .enumerate()
                .take(axis.saturating_sub(1) as usize)
            {
                let cell = &mut buf[(bars.x + k as u16, y)];
                if m.contains(i) {
                    let digit = char::from_digit(((k + 1) % 36) as u32, 36).unwrap_or('#');
                    cell.set_symbol(&digit.to_string())
                        .set_fg(Color::Black)
                        .set_bg(STRIP_COLOURS[k % STRIP_COLOURS.len()]);
                } else {
                    cell.set_symbol("·").set_fg(Color::DarkGray);
                }
            }
        }
        // The axis column carries the marks.
        let (sym, col) = axis_mark(&lt, &shown, i);
        let cell = &mut buf[(bars.x + axis, y)];
        cell.set_symbol(sym).set_fg(col);
        if i == app.cursor {
            cell.set_bg(Color::Gray);
        }
    }
    // Overview of the whole page: the active algorithm's decision (Selected marks, or its
    // selection, once step mode has revealed them), viewport marked.
    let h = overview.height as usize;
    let decided = step.is_none_or(|s| s + 1 >= phases.len());
    if n > 0 && h > 0 {
        let sel: Vec<Range<usize>> = match lt.marks.iter().find(|m| m.role == Role::Selected) {
            Some(m) if shown(&m.key) => m.spans.clone(),
            Some(_) => Vec::new(),
            None if !decided => Vec::new(),
            None => app
                .active_algo()
                .result
                .as_ref()
                .map(|x| {
                    x.selection
                        .ranges()
                        .iter()
                        .map(|r| app.line_at_byte(r.start)..app.line_at_byte(r.end.max(1) - 1) + 1)
                        .collect()
                })
                .unwrap_or_default(),
        };
        for r in 0..h {
            let a = r * n / h;
            let b = ((r + 1) * n / h).max(a + 1);
            let hit = sel.iter().any(|s| s.start < b && a < s.end);
            let in_view = a < app.top + app.view_height && app.top < b;
            let cell = &mut buf[(overview.x, overview.y + r as u16)];
            cell.set_symbol(if hit { "▐" } else { "│" });
            cell.set_fg(if hit {
                app.algos[app.active].color
            } else {
                Color::DarkGray
            });
            if in_view {
                cell.set_bg(Color::DarkGray);
            }
        }
    }
}

fn value_text(v: Option<&ParamValue>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

fn draw_params(f: &mut Frame, app: &mut App, area: Rect) {
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
        let v = a.params.get(&spec.name);
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

/// The second algorithm pinned beside the active one (`P`), when it is another one.
fn pinned(app: &App) -> Option<usize> {
    app.second
        .filter(|&s| s != app.active && s < app.algos.len())
}

fn draw_explain(f: &mut Frame, app: &mut App, area: Rect) {
    app.rects.explain = area;
    let halves: Vec<(usize, Rect)> = match pinned(app) {
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
    // Text longer than the panel scrolls (mouse wheel over the panel); at most to its end.
    let inner_h = area.height.saturating_sub(2) as usize;
    let longest = halves
        .iter()
        .map(|&(i, r)| explain_paragraph(app, i).line_count(r.width.saturating_sub(2)))
        .max()
        .unwrap_or(0);
    app.rects.explain_overflow = longest.saturating_sub(inner_h);
    app.explain_scroll = app.explain_scroll.min(app.rects.explain_overflow);
    let named = halves.len() > 1;
    for (i, r) in halves {
        draw_explain_of(f, app, i, r, named);
    }
}

/// What the explain panel says for algorithm `i` at the cursor line: the step-mode header
/// (phase, what it does) and the algorithm's explanation as known at the current step
/// ([`crate::algorithms::Extractor::explain_step`]), word-wrapped.
fn explain_paragraph(app: &App, i: usize) -> Paragraph<'static> {
    let a = &app.algos[i];
    let step = if i == app.active { app.step_at() } else { None };
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
    if let (Some(x), Some(d)) = (&a.result, &app.doc) {
        let v = app.virtual_of(app.cursor);
        let mut ex = a.extractor.explain(&d.page, x, Location::Line(v), step);
        if app.view() != 0 {
            let what = if app.reading {
                "reading line"
            } else {
                "raw line"
            };
            if let Some(first) = ex.first_mut() {
                *first = format!(
                    "{what} {} (virtual line {}) — {first}",
                    app.cursor + 1,
                    v + 1
                );
            }
        }
        lines.push(Line::from(ex.join("; ")));
    } else if a.busy {
        lines.push(Line::from("running…"));
    }
    Paragraph::new(lines).wrap(Wrap { trim: true })
}

/// Rows (borders included) the explain panel needs to show its whole text on a screen `width`
/// columns wide (each half's text when two algorithms are explained side by side).
fn explain_height(app: &App, width: u16) -> u16 {
    let (ids, w) = match pinned(app) {
        Some(s) => (vec![app.active, s], width / 2),
        None => (vec![app.active], width),
    };
    let text_rows = ids
        .iter()
        .map(|&i| explain_paragraph(app, i).line_count(w.saturating_sub(2)))
        .max()
        .unwrap_or(1);
    u16::try_from(text_rows + 2).unwrap_or(u16::MAX)
}

fn draw_explain_of(f: &mut Frame, app: &App, i: usize, area: Rect, named: bool) {
    let a = &app.algos[i];
    let more = app.rects.explain_overflow;
    let scroll = if more > 0 {
        format!(
            "— line {} of {}, wheel scrolls ",
            app.explain_scroll + 1,
            more + area.height.saturating_sub(2) as usize
        )
    } else {
        String::new()
    };
    let title = if named {
        format!(" explain — {} {scroll}", a.extractor.name())
    } else {
        format!(" explain {scroll}")
    };
    let block = title_block(title);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let p = explain_paragraph(app, i).scroll((app.explain_scroll as u16, 0));
    f.render_widget(p, inner);
}

/// The status bar, two rows. Row 1 never loses what the user is working with: the modes
/// (typing, step, visual, read-only, unsaved, compare), the active algorithm, its P / R / F1
/// against the gold and its parameters (cut at the end when the row is short). Row 2: a message
/// if there is one, then the page (name shortened in the middle), encoding, lines, selection
/// size, corpus position and the help hint.
fn draw_status(f: &mut Frame, app: &App, area: Rect) {
    let dim = Style::default().fg(Color::Gray);
    let badge = |t: String, bg: Color| {
        Span::styled(
            format!(" {t} "),
            Style::default()
                .fg(Color::Black)
                .bg(bg)
                .add_modifier(Modifier::BOLD),
        )
    };
    // Row 1: modes, algorithm, scores, parameters.
    let mut top: Vec<Span> = Vec::new();
    match app.mode {
        Mode::Search => top.push(Span::styled(
            format!(
                " /{}▏ {} ",
                app.input,
                app.search
                    .as_ref()
                    .map_or("Enter searches, Esc cancels".to_string(), |s| {
                        format!("{} matches", s.matches.len())
                    })
            ),
            Style::default().fg(Color::Black).bg(Color::LightCyan),
        )),
        Mode::GotoLine => top.push(Span::styled(
            format!(" go to line :{}▏ ", app.input),
            Style::default().fg(Color::Black).bg(Color::LightCyan),
        )),
        Mode::Filter => top.push(badge("FILTER".into(), Color::LightCyan)),
        Mode::Picker => top.push(badge("PICK ALGORITHM".into(), Color::LightCyan)),
        Mode::Note => top.push(Span::styled(
            format!(" REVIEW note: {}▏ ", app.input),
            Style::default().fg(Color::Black).bg(Color::LightMagenta),
        )),
        Mode::Normal => {}
    }
    if app.review && app.mode != Mode::Note {
        top.push(badge(
            app.review_progress().replacen("review", "REVIEW", 1),
            Color::LightMagenta,
        ));
    }
    if let Some(n) = app.count {
        top.push(badge(format!("{n}…"), Color::LightCyan));
    }
    if let Some(s) = app.step {
        let n = app.active_algo().extractor.phases().len();
        top.push(badge(format!("STEP {}/{n}", s + 1), Color::Yellow));
    }
    if let Some(a) = &app.ann {
        if a.visual.is_some() || a.char_sel.is_some() {
            top.push(badge("VISUAL".into(), Color::LightBlue));
        }
        if a.read_only.is_some() {
            top.push(badge("READ-ONLY".into(), Color::Red));
        } else if a.dirty {
            top.push(badge("[+] unsaved".into(), Color::Yellow));
        }
    }
    if app.compare {
        top.push(Span::styled(" compare ", dim));
        top.push(Span::styled("TP", Style::default().bg(TP_BG)));
        top.push(Span::raw(" "));
        top.push(Span::styled("FP", Style::default().bg(FP_BG)));
        top.push(Span::raw(" "));
        top.push(Span::styled("FN", Style::default().bg(FN_BG)));
        top.push(Span::raw(" "));
    }
    let a = app.active_algo();
    top.push(Span::styled(
        format!(" {} ", a.extractor.name()),
        Style::default().fg(a.color).add_modifier(Modifier::BOLD),
    ));
    // In step mode the scores are the extraction's: they show at its (last) step only.
    let phases = a.extractor.phases().len();
    let extracted = app.step.is_none_or(|s| s + 1 >= phases);
    if a.prf.is_some() && !extracted {
        top.push(Span::styled(
            format!("P / R / F1 at step {phases} "),
            Style::default().fg(Color::DarkGray),
        ));
    }
    if let Some(prf) = a.prf.as_ref().filter(|_| extracted) {
        top.push(Span::styled(
            format!(
                "P {:.3} R {:.3} F1 {:.3} ",
                prf.precision, prf.recall, prf.f1
            ),
            Style::default()
                .fg(Color::LightGreen)
                .add_modifier(Modifier::BOLD),
        ));
    }
    if a.busy {
        top.push(Span::styled(
            "⟳ running ",
            Style::default().fg(Color::Yellow),
        ));
    }
    let used: usize = top.iter().map(|s| s.width()).sum();
    let params = a.params.to_string();
    let room = (area.width as usize).saturating_sub(used + 1);
    let params = if params.chars().count() > room {
        let cut: String = params.chars().take(room.saturating_sub(1)).collect();
        format!("{cut}…")
    } else {
        params
    };
    top.push(Span::styled(params, Style::default().fg(a.color)));

    // Row 2: message, page, corpus, help.
    let mut bottom: Vec<Span> = Vec::new();
    if let Some((msg, err)) = &app.status {
        let st = if *err {
            Style::default().fg(Color::White).bg(Color::Red)
        } else {
            Style::default().fg(Color::Black).bg(Color::Yellow)
        };
        bottom.push(Span::styled(format!(" {msg} "), st));
    }
    let mut facts: Vec<String> = Vec::new();
    if let Some(d) = &app.doc {
        let p = &d.page;
        let enc = if p.had_errors() {
            format!("{} (bytes replaced)", p.encoding().name())
        } else {
            format!(
                "{}{}",
                p.encoding().name(),
                p.encoding_source().display_note()
            )
        };
        facts.push(enc);
        if let Some(ann) = &app.ann {
            if ann.recovery_offered {
                facts.push(format!(
                    "recovery file newer: {} restores",
                    app.opts.keymap.keys_label(Action::Recover)
                ));
            } else if ann.existed || !ann.gold.main_content.ranges.is_empty() {
                facts.push("gold".into());
            }
            if ann.headline_unconfirmed() {
                facts.push(format!(
                    "headline? {} confirms",
                    app.opts.keymap.keys_label(Action::TakeHeadline)
                ));
            }
        }
        facts.push(format!("{} virtual lines", d.vlines.len()));
        if a.result.is_some() && extracted {
            facts.push(format!("{} chars selected", a.selected_chars));
        }
    }
    if let Some(c) = &app.corpus {
        let vis = c.visible();
        let pos = vis
            .iter()
            .position(|&i| i == c.current)
            .map_or(0, |p| p + 1);
        facts.push(format!("page {pos}/{}", vis.len()));
    }
    let first_key = |a: Action| {
        let k = app.opts.keymap.keys_label(a);
        k.split(", ").next().unwrap_or_default().to_string()
    };
    let help = format!(
        "{} help  {} quit",
        first_key(Action::Help),
        first_key(Action::Quit)
    );
    let name = app
        .doc
        .as_ref()
        .map(|d| d.page.name().to_string())
        .unwrap_or_default();
    // The page name is worth more than the last facts: drop facts from the end (keeping the
    // encoding, the first) until the name fits whole or the row has only the encoding left.
    let width = area.width as usize;
    let msg_w: usize = bottom.iter().map(|s| s.width()).sum();
    let row_w = |facts: &[String]| {
        msg_w
            + facts.iter().map(|f| f.chars().count() + 3).sum::<usize>()
            + help.chars().count()
            + 4
    };
    while facts.len() > 1 && row_w(&facts) + name.chars().count() > width {
        facts.pop();
    }
    let room = width.saturating_sub(row_w(&facts)).max(12);
    if !name.is_empty() {
        bottom.push(Span::styled(
            format!(" {} ", shorten_middle(&name, room)),
            Style::default().add_modifier(Modifier::BOLD),
        ));
    }
    for fact in facts {
        bottom.push(Span::styled(format!("│ {fact} "), dim));
    }
    bottom.push(Span::styled(
        format!("│ {help}"),
        Style::default().fg(Color::DarkGray),
    ));
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Length(1), Constraint::Length(1)])
        .split(area);
    f.render_widget(Paragraph::new(Line::from(top)), rows[0]);
    f.render_widget(Paragraph::new(Line::from(bottom)), rows[1]);
}

/// The mark of a page's gold status in the page list: `✓` final, `✎` draft, `⚑` flagged, `!`
/// unreadable, blank without a gold file.
pub fn status_mark(s: crate::gold::GoldStatus) -> char {
    use crate::gold::GoldStatus as S;
    match s {
        S::Final => '✓',
        S::Draft => '✎',
        S::Flagged => '⚑',
        S::Unreadable => '!',
        S::None => ' ',
    }
}

/// The page list: a title with the status counts, the filter line, one row per page (status
/// mark, `+` for unsaved work in a recovery file, the URL or id cut at its end, the page type,
/// the size) and, at the bottom, the current page's whole URL, type, status and encoding.
fn draw_corpus(f: &mut Frame, app: &mut App, area: Rect) {
    let Some(c) = &app.corpus else {
        return;
    };
    let vis = c.visible();
    let (fin, flagged, draft, _) = c.status_counts(&vis);
    // The title fits the panel: the counts always, the corpus name shortened in the middle.
    let counts = format!(" ✓{fin} ⚑{flagged} ✎{draft} /{} ", vis.len());
    let room = (area.width as usize).saturating_sub(counts.chars().count() + 4);
    let block = title_block(format!(" {}{counts}", shorten_middle(&c.name, room)));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let filter_line = if app.mode == Mode::Filter || !c.filter.is_empty() {
        1
    } else {
        0
    };
    if filter_line == 1 {
        let cursor = if app.mode == Mode::Filter { "▏" } else { "" };
        let hint = if app.mode == Mode::Filter && c.filter.is_empty() {
            " draft|flagged|final|none|todo|TYPE|text"
        } else {
            ""
        };
        f.render_widget(
            Paragraph::new(format!("/{}{cursor}{hint}", c.filter))
                .style(Style::default().fg(Color::Yellow)),
            Rect::new(inner.x, inner.y, inner.width, 1),
        );
    }
    // The current page's details: its URL whole (wrapped), then type, status and encoding.
    let w = inner.width.max(1) as usize;
    let cur = c.entries.get(c.current);
    let mut detail: Vec<Line> = Vec::new();
    if let Some(e) = cur {
        if let Some(u) = e.url_shown() {
            let chars: Vec<char> = u.chars().collect();
            for chunk in chars.chunks(w).take(3) {
                detail.push(Line::styled(
                    chunk.iter().collect::<String>(),
                    Style::default().fg(Color::Gray),
                ));
            }
        }
        let mut facts = vec![e.status.name().to_string()];
        if e.recovery {
            facts.push("unsaved work".into());
        }
        if let Some(t) = e.page_type() {
            facts.insert(0, t.to_string());
        }
        if let Some(enc) = &e.encoding {
            facts.push(enc.clone());
        }
        detail.push(Line::styled(
            facts.join(" · "),
            Style::default().fg(Color::Gray),
        ));
    }
    let detail_h = (detail.len() as u16).min(inner.height.saturating_sub(filter_line + 2));
    let list = Rect::new(
        inner.x,
        inner.y + filter_line,
        inner.width,
        inner.height.saturating_sub(filter_line + detail_h),
    );
    if detail_h > 0 {
        let d = Rect::new(inner.x, list.y + list.height, inner.width, detail_h);
        f.render_widget(Paragraph::new(detail), d);
    }
    app.rects.corpus = list;
    let pos = vis.iter().position(|&i| i == c.current).unwrap_or(0);
    let first = pos.saturating_sub(list.height as usize / 2);
    for (row, &i) in vis
        .iter()
        .skip(first)
        .take(list.height as usize)
        .enumerate()
    {
        let e = &c.entries[i];
        let mark = status_mark(e.status);
        let unsaved = if e.recovery { '+' } else { ' ' };
        // The HTML's size once read (decompressed); until then the stored size, or "…" for a
        // compressed file.
        let compressed = e.path.extension().is_some_and(|x| x == "gz");
        let size = match (e.html_bytes, compressed) {
            (Some(b), _) => human_size(b),
            (None, true) => "…".to_string(),
            (None, false) => human_size(e.bytes),
        };
        let kind: String = e.page_type().unwrap_or("").chars().take(4).collect();
        let kind_w = if c.entries.iter().any(|e| e.page_type().is_some()) {
            5
        } else {
            0
        };
        let idw = (inner.width as usize).saturating_sub(3 + kind_w + 7);
        let label = shorten_end(&e.label(), idw);
        let kind = if kind_w > 0 {
            format!(" {kind:<4}")
        } else {
            String::new()
        };
        let line = format!("{mark}{unsaved} {label:<idw$}{kind} {size:>6}");
        let st = if i == c.current {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        f.render_widget(
            Paragraph::new(line).style(st),
            Rect::new(list.x, list.y + row as u16, list.width, 1),
        );
    }
}

/// `s` in at most `max` characters, shortened in the middle with `…` (file names keep their
/// start and their end, which tell them apart).
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

fn human_size(b: u64) -> String {
    if b >= 1 << 20 {
        format!("{:.1}M", b as f64 / (1u64 << 20) as f64)
    } else if b >= 1 << 10 {
        format!("{:.0}K", b as f64 / 1024.0)
    } else {
        format!("{b}B")
    }
}

fn draw_help(f: &mut Frame, app: &mut App, area: Rect) {
    let rows = app.opts.keymap.help_rows();
    let mut lines: Vec<Line> = Vec::new();
    let mut group = "";
    for r in &rows {
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
        Style::default().fg(Color::Gray),
    ));
    lines.push(Line::styled(
        "mouse: wheel scrolls; click the histogram or overview to go there; click a slider to set it",
        Style::default().fg(Color::Gray),
    ));
    let mut legend = vec![Span::styled("overlays: ", Style::default().fg(Color::Gray))];
    for a in &app.algos {
        legend.push(Span::styled(
            format!("▌{} ", a.extractor.name()),
            Style::default().fg(a.color),
        ));
    }
    legend.push(Span::styled("▌gold", Style::default().fg(GOLD_COLOR)));
    lines.push(Line::from(legend));
    lines.push(Line::styled(
        "histogram axis ┃ candidates blue, seed yellow, selected green; ┆ bound; ┊ threshold",
        Style::default().fg(Color::Gray),
    ));
    // Two columns when the screen is wide enough; scrolling (up/down) when it is not tall enough.
    let two = area.width >= 170;
    // Keys column 16 + the longest description (about 90 characters) + borders.
    let w = if two {
        area.width.saturating_sub(4).min(220)
    } else {
        area.width.saturating_sub(2).min(112)
    };
    let per_col_needed = if two {
        lines.len().div_ceil(2)
    } else {
        lines.len()
    };
    let h = (per_col_needed as u16 + 2).min(area.height.saturating_sub(2));
    let popup = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    Clear.render(popup, f.buffer_mut());
    let inner_h = h.saturating_sub(2) as usize;
    let max_scroll = per_col_needed.saturating_sub(inner_h);
    app.help_scroll = app.help_scroll.min(max_scroll);
    let more = if max_scroll > 0 {
        format!(" ↑↓ {}/{} ", app.help_scroll, max_scroll)
    } else {
        String::new()
    };
    let block = title_block(format!(" help — keymap {} {more}", app.opts.keymap.name()));
    let inner = block.inner(popup);
    f.render_widget(block, popup);
    if two {
        let half = per_col_needed;
        let right: Vec<Line> = lines.split_off(half);
        let cw = inner.width / 2;
        f.render_widget(
            Paragraph::new(lines).scroll((app.help_scroll as u16, 0)),
            Rect::new(inner.x, inner.y, cw, inner.height),
        );
        f.render_widget(
            Paragraph::new(right).scroll((app.help_scroll as u16, 0)),
            Rect::new(inner.x + cw, inner.y, inner.width - cw, inner.height),
        );
    } else {
        f.render_widget(
            Paragraph::new(lines).scroll((app.help_scroll as u16, 0)),
            inner,
        );
    }
}
