//! Editing by unit of the page (issue 30): `I` / `X` keep / strike a unit of the cursor's block —
//! `b` the block, `r` its record, `g` its record group, `p` every block with the same path, `t`
//! every block with the same text — after a menu that shows each unit's size and how many blocks
//! would change; one undo step each; block and record motions (`J` / `K`, `z` / `Z`); the records
//! panel (`L`, opened by the review on a page with records). On a hand-made forum thread.

#![cfg(feature = "tui")]

use crate::common;

use std::path::{Path, PathBuf};

use cescope::gold::{self, Gold, SaveMode};
use cescope::page::Page;
use cescope::selection::Selection;
use cescope::tui::app::{App, TableKind};
use common::tui::{enter, keys, message, opts_with_gold, screen, tui_snapshot, type_text};

/// Authors of the posts, in order (names repeat, as in a real thread).
const AUTHORS: [&str; 6] = ["alice", "bob", "alice", "carol", "bob", "alice"];

/// A XenForo-like forum thread of six posts: each an `article.message` with its author line,
/// a date and a `#N` post number on one line, the body (every second post quoting an earlier
/// one, with `Click to expand...`), and a reaction count.
fn thread_html() -> String {
    let mut posts = String::new();
    for (k, who) in AUTHORS.iter().enumerate() {
        let n = k + 1;
        let quote = if n % 2 == 0 {
            format!(
                "<blockquote class=bbCodeBlock><div class=quote>{} said: an earlier point</div>\n\
                 <div class=expandLink>Click to expand...</div></blockquote>\n",
                AUTHORS[k - 1]
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<article class=\"message message--post js-post-{n}\">\n\
             <div class=message-user><a class=username href=/u/{who}>{who}</a></div>\n\
             <ul class=attribution><li><time>Jul {n}, 2022</time></li><li><a href=/p/{n}>#{n}</a></li></ul>\n\
             <div class=bbWrapper>\n{quote}Post {n} says something about the tank, the lights and the fish.\n</div>\n\
             <div class=reactions><a href=/r/{n}>{} likes</a></div>\n\
             </article>\n",
            n * 4
        ));
    }
    format!(
        "<html><head><title>New tank thoughts | Forum</title></head><body>\n\
         <nav><a href=/>Forums</a> <a href=/new>New posts</a></nav>\n\
         <h1>New tank thoughts</h1>\n\
         <div class=block-body>\n{posts}</div>\n\
         <footer><p>Contact us</p></footer>\n</body></html>\n"
    )
}

/// The thread in a temporary folder, with an empty gold folder beside it.
fn thread() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("thread.html");
    std::fs::write(&page, thread_html()).unwrap();
    let gold_dir = tmp.path().join("gold");
    std::fs::create_dir(&gold_dir).unwrap();
    (tmp, page, gold_dir)
}

fn open(page: &Path, gold_dir: &Path) -> App {
    App::open(page, opts_with_gold(gold_dir)).unwrap()
}

/// The annotation's main content as text.
fn main_text(app: &App) -> String {
    app.ann.as_ref().unwrap().gold.main_content.text.clone()
}

/// Puts the cursor on the first line holding `needle` (`:` and the line number).
fn goto(app: &mut App, needle: &str) {
    let page = &app.doc.as_ref().unwrap().page;
    let line = (0..app.line_count())
        .find(|&i| page.text()[app.line_range(i).unwrap()].contains(needle))
        .unwrap_or_else(|| panic!("no line holds {needle:?}"));
    type_text(app, &format!(":{}", line + 1));
    enter(app);
    assert_eq!(app.source.cursor(), line);
}

/// Puts the cursor on the first line whose text, white space trimmed, is `text`.
fn goto_text(app: &mut App, text: &str) {
    let page = &app.doc.as_ref().unwrap().page;
    let line = (0..app.line_count())
        .find(|&i| page.text()[app.line_range(i).unwrap()].trim() == text)
        .unwrap_or_else(|| panic!("no line is {text:?}"));
    type_text(app, &format!(":{}", line + 1));
    enter(app);
}

/// The text of the cursor's block.
fn block_text(app: &App) -> String {
    let page = &app.doc.as_ref().unwrap().page;
    let b = app.cursor_block().expect("the cursor is on a block");
    page.blocks().text(page.dom(), b)
}

/// Keeps every post: `I` on a post's body, then `g` (its record group).
fn keep_all_posts(app: &mut App) {
    goto(app, "Post 1 says");
    type_text(app, "I");
    type_text(app, "g");
    for n in 1..=6 {
        assert!(main_text(app).contains(&format!("Post {n} says")));
    }
}

#[test]
fn keep_the_record_group_then_strike_all_like_this_by_text() {
    let (_tmp, page, gold_dir) = thread();
    let mut app = open(&page, &gold_dir);
    assert!(
        main_text(&app).is_empty(),
        "a fresh page has no main content"
    );

    // `I` opens the menu with each unit's size; nothing changes yet.
    goto(&mut app, "Post 3 says");
    type_text(&mut app, "I");
    let menu = message(&app);
    assert!(menu.starts_with("keep \"Post 3 says something"), "{menu}");
    assert!(menu.contains("b block"), "{menu}");
    assert!(menu.contains("r record 3/6 (5 blocks)"), "{menu}");
    // Six posts of five blocks, three of them quoting (two blocks more each).
    assert!(menu.contains("g 6 article.message (36 blocks)"), "{menu}");
    assert!(main_text(&app).is_empty(), "the menu alone changes nothing");
    type_text(&mut app, "g");
    assert!(
        message(&app)
            .starts_with("kept record group article.message (6 records) (36 blocks): 36 changed"),
        "{}",
        message(&app)
    );
    let kept = main_text(&app);
    for n in 1..=6 {
        assert!(kept.contains(&format!("#{n}")), "{kept}");
    }
    assert!(
        !kept.contains("New tank thoughts"),
        "the headline is no post"
    );
    assert!(!kept.contains("Contact us"));
    let ann = app.ann.as_ref().unwrap();
    assert!(ann.dirty);
    assert!(
        gold::recovery_path(&ann.path).is_file(),
        "every unit edit writes the recovery file"
    );

    // `X` on a post number: the menu says how many blocks are like it and how many change.
    // In raw lines the date and the number share a line: `J` steps from one to the other.
    keys(&mut app, "r");
    goto(&mut app, "#2</a>");
    let line = app.source.cursor();
    assert_eq!(block_text(&app), "Jul 2, 2022", "the line's first block");
    type_text(&mut app, "J");
    assert_eq!(
        block_text(&app),
        "#2",
        "J steps to the next block on the same line"
    );
    assert_eq!(app.source.cursor(), line);
    type_text(&mut app, "X");
    let menu = message(&app);
    assert!(menu.starts_with("strike \"#2\""), "{menu}");
    assert!(menu.contains("t same text: 6 blocks, 6 change"), "{menu}");
    // The dates share the post numbers' list, so their path: twelve blocks by path.
    assert!(menu.contains("p same path: 12 blocks, 12 change"), "{menu}");
    assert_eq!(main_text(&app), kept, "shown before applying");
    type_text(&mut app, "t");
    assert!(
        message(&app).starts_with("struck 6 blocks like \"#2\" (same text): 6 changed — u undoes"),
        "{}",
        message(&app)
    );
    let struck = main_text(&app);
    assert!(!struck.contains('#'), "{struck}");
    assert!(struck.contains("Jul 2, 2022"), "the dates stay");

    // One undo step brings every post number back; redo strikes them again.
    keys(&mut app, "u");
    assert_eq!(main_text(&app), kept);
    app.handle_key(ratatui::crossterm::event::KeyEvent::new(
        ratatui::crossterm::event::KeyCode::Char('r'),
        ratatui::crossterm::event::KeyModifiers::CONTROL,
    ));
    assert_eq!(main_text(&app), struck);
    // Another `X t` on the same text changes nothing, and says so.
    type_text(&mut app, "Xt");
    assert!(
        message(&app).starts_with("no change: 6 blocks like \"#2\" (same text) already struck"),
        "{}",
        message(&app)
    );
    assert_eq!(main_text(&app), struck);
    // Two undo steps back to the fresh page: each unit edit was one.
    keys(&mut app, "uu");
    assert!(main_text(&app).is_empty());
    assert!(!app.ann.as_ref().unwrap().dirty);
}

#[test]
fn strike_all_like_this_by_path_record_and_block() {
    let (_tmp, page, gold_dir) = thread();
    let mut app = open(&page, &gold_dir);
    keep_all_posts(&mut app);
    let kept = main_text(&app);

    // Author lines differ in text but share their path: `X p` strikes all six at once.
    goto(&mut app, ">carol<");
    type_text(&mut app, "X");
    let menu = message(&app);
    assert!(menu.contains("p same path: 6 blocks, 6 change"), "{menu}");
    assert!(menu.contains("t same text: 1 block, 1 change"), "{menu}");
    type_text(&mut app, "p");
    let text = main_text(&app);
    for who in ["alice", "bob", "carol"] {
        assert!(
            !text.lines().any(|l| l == who),
            "author line {who} struck: {text}"
        );
    }
    assert!(text.contains("alice said: an earlier point"), "quotes stay");

    // Every `Click to expand...` by text, every reaction count by text (digits folded).
    goto(&mut app, "Click to expand");
    type_text(&mut app, "Xt");
    assert!(
        message(&app).starts_with("struck 3 blocks like \"Click to expand...\""),
        "{}",
        message(&app)
    );
    goto(&mut app, "12 likes");
    type_text(&mut app, "Xt");
    assert!(
        message(&app).starts_with("struck 6 blocks like \"12 likes\" (same text): 6 changed"),
        "{}",
        message(&app)
    );
    let text = main_text(&app);
    assert!(!text.contains("Click to expand"), "{text}");
    assert!(!text.contains("likes"), "{text}");
    assert!(text.contains("Post 6 says"), "{text}");

    // A record: post 4 goes whole; undo brings it back.
    keys(&mut app, "uu");
    let before = main_text(&app);
    goto(&mut app, "Post 4 says");
    // Its author line is struck already (by path): six of its seven blocks change.
    type_text(&mut app, "Xr");
    assert!(
        message(&app).starts_with("struck record 4/6 article.message (7 blocks): 6 changed"),
        "{}",
        message(&app)
    );
    let text = main_text(&app);
    assert!(!text.contains("Post 4 says"));
    assert!(!text.contains("#4"));
    assert!(text.contains("Post 5 says"));
    keys(&mut app, "u");
    assert_eq!(main_text(&app), before);

    // The block: `X b`, or `X` pressed twice.
    type_text(&mut app, "XX");
    assert!(
        message(&app).starts_with("struck block \"Post 4 says something"),
        "{}",
        message(&app)
    );
    assert!(!main_text(&app).contains("Post 4 says"));
    assert!(main_text(&app).contains("#4"), "only the block");
    keys(&mut app, "u");
    type_text(&mut app, "Xb");
    assert!(!main_text(&app).contains("Post 4 says"));
    keys(&mut app, "u");
    assert_eq!(main_text(&app), before);
    assert_ne!(before, kept, "the path and text strikes are still there");
}

#[test]
fn the_menu_cancels_on_any_other_key_and_refuses_a_read_only_gold() {
    let (_tmp, page, gold_dir) = thread();
    let mut app = open(&page, &gold_dir);
    goto(&mut app, "Post 2 says");
    // `q` in the menu cancels it: it neither quits nor strikes.
    type_text(&mut app, "Xq");
    assert!(!app.quit);
    assert_eq!(message(&app), "cancelled: nothing kept or struck");
    assert!(app.unit_menu.is_none());
    keys(&mut app, "u");
    assert_eq!(message(&app), "nothing to undo");
    // A block outside every record has no record or group to offer.
    goto_text(&mut app, "New tank thoughts");
    type_text(&mut app, "I");
    let menu = message(&app);
    assert!(menu.contains("(in no record)"), "{menu}");
    assert!(!menu.contains("r record"), "{menu}");
    type_text(&mut app, "r");
    assert_eq!(
        message(&app),
        "this block is in no record: no record to change"
    );
    // A line without block text.
    goto(&mut app, "<div class=block-body>");
    type_text(&mut app, "X");
    assert!(
        message(&app).starts_with("no text block on this line"),
        "{}",
        message(&app)
    );
    assert!(app.unit_menu.is_none());

    // A gold file whose page hash differs opens read-only: the keys refuse.
    let other = Page::from_text("thread.html", "<p>another page</p>");
    let mut g = Gold::new(&other, "tester");
    g.set_main_content(&other, Selection::from_range(3..10));
    gold::save(&gold_dir.join("thread.json"), &g, SaveMode::New).unwrap();
    let mut app = open(&page, &gold_dir);
    goto(&mut app, "Post 2 says");
    type_text(&mut app, "X");
    assert!(message(&app).starts_with("read-only:"), "{}", message(&app));
    assert!(app.unit_menu.is_none());
    type_text(&mut app, "t");
    keys(&mut app, "u");
    assert_eq!(message(&app), "nothing to undo");
}

#[test]
fn block_and_record_motions_go_into_the_jump_list() {
    let (_tmp, page, gold_dir) = thread();
    let mut app = open(&page, &gold_dir);
    goto(&mut app, "<div class=block-body>");
    assert_eq!(app.cursor_block(), None);
    // From a line without block text: the next block is the first author line.
    type_text(&mut app, "J");
    assert_eq!(block_text(&app), "alice");
    assert!(
        message(&app).contains("· record 1/6 article.message"),
        "{}",
        message(&app)
    );
    // A count repeats a motion: past the date to the post number.
    type_text(&mut app, "2J");
    assert_eq!(block_text(&app), "#1");
    type_text(&mut app, "J");
    assert_eq!(
        block_text(&app),
        "Post 1 says something about the tank, the lights and the fish."
    );
    type_text(&mut app, "K");
    assert_eq!(block_text(&app), "#1");
    type_text(&mut app, "K");
    assert_eq!(block_text(&app), "Jul 1, 2022");

    // Records: the next post's first block; back from inside a post goes to its start.
    type_text(&mut app, "z");
    assert_eq!(block_text(&app), "bob");
    type_text(&mut app, "zz");
    assert_eq!(block_text(&app), "carol");
    type_text(&mut app, "J");
    type_text(&mut app, "Z");
    assert_eq!(block_text(&app), "carol", "from inside post 4 to its start");
    type_text(&mut app, "Z");
    assert_eq!(block_text(&app), "alice");
    assert!(message(&app).contains("record 3/6"), "{}", message(&app));
    // The jump list: back to where the motions came from, line by line.
    let here = app.source.cursor();
    keys(&mut app, "'");
    assert_ne!(app.source.cursor(), here);
    assert!(block_text(&app).starts_with("carol") || block_text(&app) == "Jul 4, 2022");
    // At the ends: say so.
    type_text(&mut app, "zzzzzz");
    assert_eq!(message(&app), "no further record");
    keys(&mut app, "\u{1b}");
    type_text(&mut app, "K");
    for _ in 0..200 {
        type_text(&mut app, "K");
    }
    assert_eq!(message(&app), "no earlier text block");
    assert_eq!(
        block_text(&app),
        "New tank thoughts | Forum",
        "the title is block 1"
    );
}

#[test]
fn the_records_panel_lists_the_posts_to_keep_or_strike() {
    let (_tmp, page, gold_dir) = thread();
    let mut app = open(&page, &gold_dir);
    keep_all_posts(&mut app);
    goto(&mut app, "Post 2 says");
    keys(&mut app, "L");
    assert!(app.table.is_open());
    assert_eq!(app.table.kind(), TableKind::Records);
    assert_eq!(app.table.row(), 1, "opens on the cursor's post");
    let list = app.record_list().unwrap();
    assert_eq!(list.rows.len(), 6);
    assert_eq!(list.signature, "article.message");
    assert_eq!(list.parent, "div.block-body");
    assert!(list.rows.iter().all(|r| r.kept >= 0.999));
    assert!(
        list.rows[1].text.starts_with("bob · Jul 2, 2022 · #2"),
        "{}",
        list.rows[1].text
    );
    // `X` strikes the highlighted post and moves to the next; `I` keeps it again.
    type_text(&mut app, "X");
    assert!(!main_text(&app).contains("Post 2 says"));
    assert!(main_text(&app).contains("Post 3 says"));
    assert_eq!(app.table.row(), 2);
    let list = app.record_list().unwrap();
    assert_eq!(list.rows[1].kept, 0.0);
    keys(&mut app, "K");
    assert_eq!(app.table.row(), 1);
    // Strike the third post's body only: it shows as partly kept.
    keys(&mut app, "\u{1b}");
    goto(&mut app, "Post 3 says");
    type_text(&mut app, "Xb");
    keys(&mut app, "L");
    let s = screen(&mut app, 120, 30);
    tui_snapshot!("records_panel", s);
    assert!(
        s.contains("records — 6 × article.message under div.block-body · ↑↓, I keeps, X strikes"),
        "{s}"
    );
    // Enter jumps to the highlighted post's first line and closes the panel.
    keys(&mut app, "J");
    enter(&mut app);
    assert!(!app.table.is_open());
    assert_eq!(block_text(&app), "carol");
    // One undo step per record.
    keys(&mut app, "uu");
    assert!(main_text(&app).contains("Post 2 says") && main_text(&app).contains("Post 3 says"));
}

#[test]
fn the_review_shows_a_threads_records() {
    let (_tmp, page, gold_dir) = thread();
    // A draft gold file: every post, as a draft to review.
    let p = Page::load(&page, &Default::default()).unwrap();
    let mut g = Gold::new(&p, "tester");
    let records = p.records();
    let all: Vec<usize> = records.group_blocks(0);
    g.set_main_content(&p, p.blocks().selection_of(&all));
    g.draft = true;
    gold::save(&gold_dir.join("thread.json"), &g, SaveMode::New).unwrap();

    let mut app = open(&page, &gold_dir);
    assert!(!app.table.is_open());
    keys(&mut app, "V");
    assert!(app.review.is_active());
    assert!(app.table.is_open(), "the review opens the records panel");
    assert_eq!(app.table.kind(), TableKind::Records);
    // Strike the fifth post from the list; Esc closes the panel, not the review.
    keys(&mut app, "JJJJ");
    type_text(&mut app, "X");
    assert!(!main_text(&app).contains("Post 5 says"));
    keys(&mut app, "\u{1b}");
    assert!(!app.table.is_open());
    assert!(app.review.is_active(), "Esc closed the panel first");
    keys(&mut app, "a");
    let saved = gold::load(&gold_dir.join("thread.json")).unwrap();
    assert!(!saved.draft);
    assert!(!saved.main_content.text.contains("Post 5 says"));
    assert!(saved.main_content.text.contains("Post 6 says"));
}

#[test]
fn m_goes_to_the_blocks_kept_unlike_their_kin() {
    let (_tmp, page, gold_dir) = thread();
    let mut app = open(&page, &gold_dir);
    keep_all_posts(&mut app);
    // A draft that missed one post number and one body.
    goto(&mut app, "#3</a>");
    type_text(&mut app, "Xb");
    goto(&mut app, "Post 5 says");
    type_text(&mut app, "Xb");
    keys(&mut app, "\u{1b}");
    type_text(&mut app, ":1");
    enter(&mut app);
    type_text(&mut app, "M");
    assert_eq!(block_text(&app), "#3");
    assert!(
        message(&app).ends_with("11 of 12 like it (same path) kept, this one not"),
        "{}",
        message(&app)
    );
    type_text(&mut app, "M");
    assert_eq!(
        block_text(&app),
        "Post 5 says something about the tank, the lights and the fish."
    );
    // Around the end to the top again.
    type_text(&mut app, "M");
    assert_eq!(block_text(&app), "#3");
    assert!(
        message(&app).starts_with("wrapped to the top: "),
        "{}",
        message(&app)
    );
    // `I p` there makes its kind whole; then only the body is left, then nothing.
    type_text(&mut app, "Ip");
    type_text(&mut app, "M");
    assert_eq!(
        block_text(&app),
        "Post 5 says something about the tank, the lights and the fish."
    );
    type_text(&mut app, "Ip");
    type_text(&mut app, "M");
    assert_eq!(
        message(&app),
        "no block is kept unlike the blocks like it: every path is all kept or all not"
    );
    for n in 1..=6 {
        assert!(main_text(&app).contains(&format!("#{n}")));
        assert!(main_text(&app).contains(&format!("Post {n} says")));
    }
}
