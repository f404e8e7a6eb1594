//! The source panel: the page's display lines (virtual, raw or reading view) with the gutter's
//! overlay marks, line numbers, class colours, syntect refinement and the shadings (search,
//! annotation, compare, selection).

use std::ops::Range;

use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use super::super::app::{App, LineClass, GOLD_COLOR};
use super::super::display::display_chars;
use super::histogram::{draw_histogram, hist_title};
use super::style::{
    class_style, digits, fmt_value, shade_bg, shorten_middle, title_block, CURRENT_MATCH_BG, FN_BG,
    FP_BG, HEADLINE_BG, MATCH_BG, SELECT_BG, SUGGESTED_HEADLINE_BG, TP_BG,
};
use crate::algorithms::{revealed, Extraction, LineTrace, Role};
use crate::page::{ByteClass, Page};
use crate::selection::Selection;

/// Most gutter columns; beyond it the most recently overlaid columns give way (never the active
/// algorithm's).
pub(super) const GUTTER_MAX: usize = 8;

/// Does display line `i` (bytes `range`) carry the gutter mark of `sel`? A line that shows
/// content text is marked iff `sel` holds some of it ([`Page::holds_selected_text`]: the
/// extract has a line from it), so the gutter and `cescope extract` agree; in the reading view
/// every line is such a line. A line of markup only follows the trace's Selected marks `lt`
/// (the algorithm's own decision, at its own unit), or, without them, whether `sel` touches it.
pub(super) fn line_selected(
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

pub(super) fn draw_source_and_histogram(
    f: &mut Frame,
    app: &mut App,
    src_area: Rect,
    hist_area: Rect,
) {
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
pub(super) fn source_title(
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

/// The visible part of one display line as styled spans: class colours, syntect refinement,
/// selection shading; newlines shown as `↵` (a run of white space after a newline collapses
/// into it), tabs as spaces, control characters as `·`.
#[allow(clippy::too_many_arguments)]
pub(super) fn styled_text<'a>(
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

/// One line of the reading view as styled spans: its text from column `hscroll`, each char
/// shaded by the first layer whose ranges hold the char's source byte.
pub(super) fn styled_reading<'a>(
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
