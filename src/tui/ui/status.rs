//! The status bar (two rows): what the user is working with, then where.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::super::app::{App, Mode};
use super::super::keymap::Action;
use super::style::{shorten_middle, FN_BG, FP_BG, TP_BG};

/// The status bar, two rows. Row 1 never loses what the user is working with: the modes
/// (typing, step, visual, read-only, unsaved, compare), the active algorithm, its P / R / F1
/// against the gold and its parameters (cut at the end when the row is short). Row 2: a message
/// if there is one, then the page (name shortened in the middle), encoding, lines, selection
/// size, corpus position and the help hint.
pub(super) struct StatusBar<'a>(pub(super) &'a App);

impl Widget for StatusBar<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let width = usize::from(area.width);
        let mut top = modes(self.0);
        algorithm(self.0, &mut top, width);
        let rows = Layout::default()
            .direction(Direction::Vertical)
            .constraints([Constraint::Length(1), Constraint::Length(1)])
            .split(area);
        Paragraph::new(Line::from(top)).render(rows[0], buf);
        Paragraph::new(Line::from(facts(self.0, width))).render(rows[1], buf);
    }
}

/// A mode's badge: `t` bold, black on `bg`.
fn badge(t: &str, bg: Color) -> Span<'static> {
    Span::styled(
        format!(" {t} "),
        Style::default()
            .fg(Color::Black)
            .bg(bg)
            .add_modifier(Modifier::BOLD),
    )
}

/// Style of the facts of row 2.
fn dim() -> Style {
    Style::default().fg(Color::Gray)
}

/// Row 1's start: what is being typed (search, line number, filter, note, picker) or asked
/// (save an empty main content?), the review's progress, a count, the step, visual / read-only
/// / unsaved, a JavaScript shell ([`crate::page::shell`]), the compare legend.
fn modes(app: &App) -> Vec<Span<'static>> {
    let mut top: Vec<Span> = Vec::new();
    let typing = |t: String, bg: Color| Span::styled(t, Style::default().fg(Color::Black).bg(bg));
    match app.mode {
        Mode::Search => top.push(typing(
            format!(
                " /{}▏ {} ",
                app.input,
                app.source
                    .search()
                    .map_or("Enter searches, Esc cancels".to_string(), |s| {
                        format!("{} matches", s.matches.len())
                    })
            ),
            Color::LightCyan,
        )),
        Mode::GotoLine => top.push(typing(
            format!(" go to line :{}▏ ", app.input),
            Color::LightCyan,
        )),
        Mode::Filter => top.push(badge("FILTER", Color::LightCyan)),
        Mode::Note => top.push(typing(
            format!(" REVIEW note: {}▏ ", app.input),
            Color::LightMagenta,
        )),
        Mode::ConfirmEmptySave => top.push(badge("SAVE EMPTY? y / n", Color::LightRed)),
        Mode::Normal if app.picker().is_some() => {
            top.push(badge("PICK ALGORITHM", Color::LightCyan));
        }
        Mode::Normal => {}
    }
    if let Some(progress) = app.frame.review_progress.as_ref() {
        if app.mode != Mode::Note {
            let progress = progress.replacen("review", "REVIEW", 1);
            top.push(badge(&progress, Color::LightMagenta));
        }
    }
    if let Some(n) = app.count {
        top.push(badge(&format!("{n}…"), Color::LightCyan));
    }
    if let Some(s) = app.step {
        let n = app.active_algo().extractor.phases().len();
        top.push(badge(&format!("STEP {}/{n}", s + 1), Color::Yellow));
    }
    if let Some(a) = &app.ann {
        if a.visual.is_some() || a.char_sel.is_some() {
            top.push(badge("VISUAL", Color::LightBlue));
        }
        if a.read_only.is_some() {
            top.push(badge("READ-ONLY", Color::Red));
        } else if a.dirty {
            top.push(badge("[+] unsaved", Color::Yellow));
        }
    }
    if app.doc.as_ref().is_some_and(|d| d.shell.is_shell()) {
        // The HTML holds (almost) no text: what a reader sees is written by JavaScript.
        top.push(badge("JS SHELL", Color::LightRed));
    }
    if app.compare {
        top.push(Span::styled(" compare ", dim()));
        top.push(Span::styled("TP", Style::default().bg(TP_BG)));
        top.push(Span::raw(" "));
        top.push(Span::styled("FP", Style::default().bg(FP_BG)));
        top.push(Span::raw(" "));
        top.push(Span::styled("FN", Style::default().bg(FN_BG)));
        top.push(Span::raw(" "));
    }
    top
}

/// Are the active algorithm's extraction and scores shown: outside step mode, or at its last
/// step (in step mode the scores are the extraction's, shown at its step only).
fn extracted(app: &App) -> bool {
    let phases = app.active_algo().extractor.phases().len();
    app.step.is_none_or(|s| s + 1 >= phases)
}

/// Row 1's rest: the active algorithm, its P / R / F1, the busy mark and its parameters, cut
/// at the end of a row `width` columns wide.
fn algorithm(app: &App, top: &mut Vec<Span<'static>>, width: usize) {
    let a = app.active_algo();
    top.push(Span::styled(
        format!(" {} ", a.extractor.name()),
        Style::default().fg(a.color).add_modifier(Modifier::BOLD),
    ));
    let phases = a.extractor.phases().len();
    let extracted = extracted(app);
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
    let used: usize = top.iter().map(Span::width).sum();
    let params = a.params.to_string();
    let room = width.saturating_sub(used + 1);
    let params = if params.chars().count() > room {
        let cut: String = params.chars().take(room.saturating_sub(1)).collect();
        format!("{cut}…")
    } else {
        params
    };
    top.push(Span::styled(params, Style::default().fg(a.color)));
}

/// Row 2 in `width` columns: the message, the page name, the facts (encoding, gold, lines,
/// selection, corpus position) and the help hint. The page name is worth more than the last
/// facts: they give way from the end (the encoding, the first, stays) until the name fits
/// whole; then it is shortened in the middle.
fn facts(app: &App, width: usize) -> Vec<Span<'static>> {
    let mut bottom: Vec<Span> = Vec::new();
    if let Some((msg, err)) = &app.status {
        let st = if *err {
            Style::default().fg(Color::White).bg(Color::Red)
        } else {
            Style::default().fg(Color::Black).bg(Color::Yellow)
        };
        bottom.push(Span::styled(format!(" {msg} "), st));
    }
    let mut facts = page_facts(app);
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
    let msg_w: usize = bottom.iter().map(Span::width).sum();
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
        bottom.push(Span::styled(format!("│ {fact} "), dim()));
    }
    bottom.push(Span::styled(
        format!("│ {help}"),
        Style::default().fg(Color::DarkGray),
    ));
    bottom
}

/// The open page's facts: encoding, gold (or a newer recovery file, an unconfirmed headline),
/// virtual lines, characters selected.
fn page_facts(app: &App) -> Vec<String> {
    let mut facts: Vec<String> = Vec::new();
    let Some(d) = &app.doc else {
        return facts;
    };
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
    if let Some(g) = &app.opts.guideline {
        facts.push(format!("guideline {}", g.name));
    }
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
    let a = app.active_algo();
    if a.result.is_some() && extracted(app) {
        facts.push(format!("{} chars selected", a.selected_chars));
    }
    facts
}
