//! The inspector and the page's atomic text blocks (issue 21, item 4): a DOM algorithm's values
//! drawn on the lines of its elements' text with the cursor element's extent bracketed, the
//! path bar on the source panel's bottom border, the text block table (`B`: sortable, Enter
//! jumps) and explain on a text line.

#![cfg(feature = "tui")]

use crate::common;

use cescope::tui::app::{App, AppOptions};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use common::tui::{
    enter, explain_text, keys, line_starting, opts, render, sample, screen, tui_snapshot,
};

/// The news sample page with `algo` active, the cursor on the display line starting with
/// `prefix` (`:` and its number).
fn at_line(algo: &str, prefix: &str) -> App {
    let o = AppOptions {
        algo: algo.into(),
        ..opts()
    };
    let mut app = App::open(&sample("news-article.html"), o).unwrap();
    let line = line_starting(&app, prefix);
    keys(&mut app, &format!(":{}\n", line + 1));
    assert_eq!(app.source.cursor(), line);
    app
}

/// The source panel's bottom border as drawn (the path bar's row), corners included.
fn bottom_border(app: &App, t: &Terminal<TestBackend>) -> String {
    let src = app.rects.source;
    let buf = t.backend().buffer();
    (src.x - 1..src.right() + 1)
        .map(|x| buf[(x, src.bottom())].symbol().to_string())
        .collect()
}

/// The cells of the histogram's row for display line `line`, left to right, and the bracket
/// column right of the bars.
fn histogram_row(app: &App, t: &Terminal<TestBackend>, line: usize) -> (String, String) {
    let h = app.rects.histogram;
    let y = h.y + u16::try_from(line - app.source.top()).unwrap();
    let buf = t.backend().buffer();
    let bars = (h.x..h.right())
        .map(|x| buf[(x, y)].symbol().to_string())
        .collect();
    (bars, buf[(h.right(), y)].symbol().to_string())
}

/// A histogram row has a bar right of the axis (the content signal).
fn has_right_bar(row: &str) -> bool {
    let cells: Vec<char> = row.chars().collect();
    let axis = cells.len() / 2;
    cells[axis + 1..].iter().any(|c| "█▏▎▍▌▋▊▉".contains(*c))
}

/// LQF on the news page: the paragraph's non-link characters are drawn on the line of its
/// text, not on the line of its `<p>` tag; the bracket beside the bars spans the paragraph's
/// extent from its start tag to its end tag; explain on the text line gives the block's link
/// quota against t.
#[test]
fn a_dom_algorithms_bars_are_on_its_text_lines() {
    let mut app = at_line("lqf", "Work on the");
    let text = app.source.cursor();
    let shown = |app: &App, i: usize| {
        let page = &app.doc.as_ref().unwrap().page;
        page.text()[app.line_range(i).unwrap()].trim().to_string()
    };
    let tag = text - 1;
    assert_eq!(
        shown(&app, tag),
        "<p class=\"article__para\">",
        "the paragraph's tag and text are on lines of their own"
    );
    let t = render(&mut app, 160, 48);
    let (bars, bracket) = histogram_row(&app, &t, text);
    assert!(has_right_bar(&bars), "the text line has its bar: {bars:?}");
    let (bars, top) = histogram_row(&app, &t, tag);
    assert!(!has_right_bar(&bars), "the tag line has none: {bars:?}");
    // The paragraph's extent: its start tag's line to its end tag's line.
    let end = text + 1;
    assert_eq!(shown(&app, end), "</p>");
    assert_eq!(top, "┐");
    assert_eq!(bracket, "│");
    assert_eq!(histogram_row(&app, &t, end).1, "┘");
    assert_eq!(
        histogram_row(&app, &t, tag - 1).1,
        " ",
        "above the extent: nothing"
    );
    let s = t.backend().to_string();
    let ex = explain_text(&s);
    assert!(
        ex.contains("own text of the block <p.article__para>"),
        "{ex}"
    );
    assert!(ex.contains("link quota q = "), "{ex}");
    assert!(ex.contains("≤ t 0.25 → the block's text is kept"), "{ex}");
}

/// The path bar: the cursor line's block as its DOM path with words, link density and text
/// density; on an 80-column screen the features stay whole (short) and the path gives way
/// from the left; a line of markup only has no bar.
#[test]
fn the_path_bar_names_the_cursor_lines_block() {
    let mut app = at_line("danag", "Work on the");
    let bar = app.path_bar().expect("a text line has a block");
    assert!(
        bar.path.ends_with(
            "main.page-main > article#main-content.article > div.article__body > p.article__para"
        ),
        "{}",
        bar.path
    );
    assert!(
        bar.path
            .starts_with("html.no-js > body.nbn-news.page-article > "),
        "{}",
        bar.path
    );
    // Wide enough for the whole path.
    let t = render(&mut app, 300, 48);
    let row = bottom_border(&app, &t);
    assert!(row.starts_with(&format!("└ {} │ ", bar.path)), "{row}");
    assert!(
        row.contains(&format!(
            "> p.article__para │ {} words · link density {:.2} · text density {:.1}",
            bar.words, bar.link_density, bar.text_density
        )),
        "{row}"
    );
    assert!(row.ends_with('┘'), "{row}");
    // 80 columns: the end of the path, then the short features.
    let t = render(&mut app, 80, 24);
    let row = bottom_border(&app, &t);
    assert!(row.starts_with("└ …"), "{row}");
    assert!(
        row.contains(&format!(
            "p.article__para │ {} w · LD {:.2} · TD {:.1}",
            bar.words, bar.link_density, bar.text_density
        )),
        "{row}"
    );
    assert!(row.ends_with('┘') && row.chars().count() == usize::from(app.rects.source.width) + 2);
    // A line of markup only.
    keys(&mut app, "K");
    assert!(app.path_bar().is_none());
    let t = render(&mut app, 80, 24);
    let row = bottom_border(&app, &t);
    assert!(row.trim_matches(['└', '─', '┘']).is_empty(), "{row}");
}

/// A block inside an element hidden by inline `display: none`: the bar says so.
#[test]
fn the_path_bar_shows_visibility() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("hidden.html");
    std::fs::write(
        &page,
        "<html><body>\n<div id=main><p>Shown text of the page.</p></div>\n\
         <div class=modal style=\"display: none\">\n<p>Subscribe to our letter.</p>\n</div>\n</body></html>",
    )
    .unwrap();
    let mut app = App::open(&page, opts()).unwrap();
    let line = line_starting(&app, "Subscribe");
    keys(&mut app, &format!(":{}\n", line + 1));
    let t = render(&mut app, 160, 30);
    let row = bottom_border(&app, &t);
    assert!(
        row.contains("html > body > div.modal > p │ 4 words · link density 0.00 · text density 4.0 · display:none"),
        "{row}"
    );
}

/// The text block table: one row per block with the shown algorithm's verdict, opened on the
/// cursor line's block; → sorts by words (the most first), Enter jumps to that block's first
/// text line and closes the table.
#[test]
fn the_block_table_sorts_and_jumps() {
    let mut app = at_line("danag", "Work on the");
    keys(&mut app, "B");
    assert!(app.table.is_open());
    let s = screen(&mut app, 140, 40);
    let page = app.doc.as_ref().unwrap().page.clone();
    let blocks = page.blocks();
    assert!(
        s.contains(&format!(" text blocks — {} · sorted by #▲", blocks.len())),
        "{s}"
    );
    assert_eq!(
        app.block_row().map(|r| r.index),
        app.cursor_block(),
        "the table opens on the cursor line's block"
    );
    assert!(
        s.contains("danag"),
        "the active algorithm's verdict column: {s}"
    );
    // → : sorted by words, largest first.
    app.handle_key(ratatui::crossterm::event::KeyEvent::new(
        ratatui::crossterm::event::KeyCode::Right,
        ratatui::crossterm::event::KeyModifiers::NONE,
    ));
    let s = screen(&mut app, 140, 40);
    assert!(s.contains("sorted by words▼"), "{s}");
    let most = (0..blocks.len())
        .max_by_key(|&i| (blocks.get(i).features.words, std::cmp::Reverse(i)))
        .unwrap();
    let row = app.block_row().unwrap().clone();
    assert_eq!(row.index, most, "the first row has the most words");
    // Its verdict: the share of its text DANAg selected.
    let sel = &app.active_algo().result.as_ref().unwrap().selection;
    let share = blocks.project(sel)[most];
    assert!(
        s.contains(&format!("{:.0}%", share * 100.0)),
        "the verdict {share} is shown: {s}"
    );
    tui_snapshot!("block_table", s);
    enter(&mut app);
    assert!(!app.table.is_open(), "Enter closes the table");
    assert_eq!(app.cursor_block(), Some(most), "and goes to the block");
    let r = app.line_range(app.source.cursor()).unwrap();
    assert!(r.contains(&row.start), "the line of the block's first text");
}

/// `(` goes to the first line holding selected text, `}` to the next selected element's first
/// text line. LQF keeps the white space directly in a wrapper `<div>` (no own text, so no
/// quota, not deleted): the selection starts with white space on the line of the menu's tags.
/// Before, `(` stopped there and `}` on the kept paragraph's `<p>` tag line, where no bar is.
#[test]
fn jumps_to_selected_text_skip_white_space_and_tags() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("menu.html");
    std::fs::write(
        &page,
        "<html><body><div id=wrap>\n   <ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul>\n\
         <p class=lead>\nText of the article, with enough words to be kept.\n</p>\n\
         <ul><li><a href=/a>About</a></li></ul>\n<p>\nA second paragraph of the article.\n</p></div></body></html>",
    )
    .unwrap();
    let o = AppOptions {
        algo: "lqf".into(),
        ..opts()
    };
    let mut app = App::open(&page, o).unwrap();
    let sel = &app.active_algo().result.as_ref().unwrap().selection;
    let text = app.doc.as_ref().unwrap().page.text().to_string();
    let first = sel.ranges()[0].clone();
    assert!(
        text[first].trim().is_empty(),
        "the selection starts with white space"
    );
    keys(&mut app, "(");
    assert_eq!(
        app.source.cursor(),
        line_starting(&app, "Text of the article")
    );
    keys(&mut app, "}");
    assert_eq!(
        app.source.cursor(),
        line_starting(&app, "A second paragraph")
    );
    keys(&mut app, ")");
    assert_eq!(
        app.source.cursor(),
        line_starting(&app, "A second paragraph")
    );
    keys(&mut app, "{");
    assert_eq!(
        app.source.cursor(),
        line_starting(&app, "Text of the article")
    );
}

/// Issue 30, item 6: one block numbering — `cescope blocks`' `#`, the inspector's block table
/// and the learned model's explanation give a block the same number (the `<title>` block is
/// #1) — and explain on a line of markup names the text blocks around it in words, not the
/// trace's node intervals.
#[test]
fn one_block_numbering_and_markup_lines_in_words() {
    let mut app = at_line("learned", "Work on the");
    let block = app.cursor_block().expect("a text line");
    let number = block + 1;
    let s = screen(&mut app, 160, 40);
    let ex = explain_text(&s);
    assert!(
        ex.contains(&format!("text block #{number} (")),
        "explain: {ex}"
    );
    // The block table shows the same number on the highlighted row.
    keys(&mut app, "B");
    let s = screen(&mut app, 160, 40);
    let row = app.block_row().unwrap().clone();
    assert_eq!(row.number(), number);
    let line = s
        .lines()
        .find(|l| l.contains(&row.text.chars().take(20).collect::<String>()))
        .unwrap_or_else(|| panic!("the row of block {number}: {s}"));
    assert!(
        line.trim_start_matches(['"', '│'])
            .trim_start()
            .starts_with(&format!("{number} ")),
        "{line}"
    );
    // `cescope blocks`: the same number in its `#` column.
    let o = common::run(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
        &["blocks", "sample-pages/news-article.html"],
    );
    assert!(o.status.success());
    let out = common::stdout(&o);
    let cli = out
        .lines()
        .find(|l| l.contains(&row.text.chars().take(20).collect::<String>()))
        .unwrap();
    assert_eq!(
        cli.split_whitespace().next(),
        Some(number.to_string().as_str()),
        "{cli}"
    );
    keys(&mut app, "B");
    // A line of markup only: the blocks around it, in words.
    let mut app = at_line("learned", "<div class=\"article__body\"");
    let s = screen(&mut app, 160, 40);
    let ex = explain_text(&s);
    assert!(
        ex.contains("markup only") && ex.contains("between text block #"),
        "{ex}"
    );
    assert!(!ex.contains("of nodes"), "no raw trace text: {ex}");
}

/// Issue 30, item 6: with a gold standard the block table has the gold's share of each block
/// and the active algorithm's disagreement with it (`Δ gold`), and opens sorted by it (by the
/// words it puts wrong) at its first row: the blocks the algorithm gets most wrong come first,
/// Enter goes to the worst.
/// Once the user sorts by another column, that one stays.
#[test]
fn the_block_table_has_a_gold_column_and_sorts_by_disagreement() {
    use cescope::tui::app::BlockColumn;
    let dir = common::tui::gold_corpus();
    let mut app = App::open(&dir.path().join("ground-truth.json"), opts()).unwrap();
    keys(&mut app, "B");
    let s = screen(&mut app, 160, 40);
    assert!(s.contains("gold") && s.contains("Δ gold"), "{s}");
    let v = app.table.block_view().unwrap();
    let gold = v.gold.as_ref().expect("the gold's shares").clone();
    let page = app.doc.as_ref().unwrap().page.clone();
    assert_eq!(gold.len(), page.blocks().len());
    assert_eq!(app.block_sort(), BlockColumn::Disagreement);
    assert_eq!(app.table.row(), 0);
    assert!(s.contains("sorted by Δ gold▼"), "{s}");
    let v = app.table.block_view().unwrap();
    let d: Vec<f64> = v
        .order
        .iter()
        .map(|&k| {
            let r = &v.table.rows[k];
            v.disagreement(r).unwrap().abs() * f64::from(r.features.words)
        })
        .collect();
    assert!(d.windows(2).all(|w| w[0] >= w[1]), "{d:?}");
    assert!(
        d[0] >= 15.0,
        "DANAg takes the share line (15 words) the gold leaves out: {d:?}"
    );
    let first = v.table.rows[v.order[0]].clone();
    let share = first.verdicts[v.active.unwrap()];
    assert!((v.disagreement(&first).unwrap() - (share - gold[first.index])).abs() < 1e-12);
    // Enter goes to the worst block.
    enter(&mut app);
    assert_eq!(app.cursor_block(), Some(first.index));
    // The user's sort column stays: ← to `gold`, close, open again.
    let left = ratatui::crossterm::event::KeyEvent::new(
        ratatui::crossterm::event::KeyCode::Left,
        ratatui::crossterm::event::KeyModifiers::NONE,
    );
    keys(&mut app, "B");
    app.handle_key(left);
    assert_eq!(app.block_sort(), BlockColumn::Gold);
    keys(&mut app, "BB");
    assert_eq!(app.block_sort(), BlockColumn::Gold);
}
