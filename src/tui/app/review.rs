//! The review flow (`V`): the pages whose gold file is still a draft or flagged, or that have
//! unsaved work in a recovery file, are reviewed one after the other with single keys — `a`
//! accept (saved as final), `f` flag (a `[flagged]` note, kept a draft), `s` skip, `E` "this
//! page has no main content" (saved as final with an empty main content), `n` a note (typed,
//! Enter) — and `Esc` leaves the review. Accept, flag, skip and `E` move to the next page of
//! the queue. A page with records (a forum thread's posts) opens with the records panel
//! ([`super::units`]): its posts as a list to keep or strike; Esc closes it first.
//!
//! The review never loses or invents work:
//! * the queue holds only pages with a draft or flagged gold file or a recovery file (as
//!   Prodigy and Label Studio queue only unfinished items); a page with neither is never
//!   visited, so never written;
//! * a page's recovery file (unsaved work of an earlier session) is what the review shows for
//!   it, and the review never deletes a recovery file;
//! * `a` refuses an empty main content unless the annotator says the page has none (`E`), and
//!   refuses an unconfirmed headline suggestion until it is confirmed (`Y`), replaced (`H`) or
//!   explicitly left out (a second `a`);
//! * review is a state beside the input modes: typing a line number or a search inside the
//!   review does not end it, and a review key never falls through to another command.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{App, Mode};
use crate::gold::{self, FLAGGED, NO_MAIN_CONTENT};
use crate::tui::display::shorten_end;
use crate::tui::keymap::Action;
use crate::tui::panels::review::ReviewAsk;
use crate::tui::panels::Handled;

impl App {
    /// True when the open page is in the review queue: its gold is a draft or flagged, or a
    /// recovery file holds unsaved work for it.
    pub fn needs_review(&self) -> bool {
        self.ann.as_ref().is_some_and(|a| {
            a.path.is_file() && (a.gold.draft || a.gold.is_flagged())
                || gold::recovery_is_newer(&a.path)
        })
    }

    /// Enters the review on the open page if it is in the queue, else on the next page of the
    /// queue; says so and stays out of review when the queue is empty. When the page list is
    /// ordered by a model's uncertainty ([`App::order_by_uncertainty`]), the review starts at
    /// the queue's first page in that order (the page the model is least sure about).
    pub(crate) fn start_review(&mut self) {
        let first = self.first_by_uncertainty();
        if self.ann.is_none() && first.is_none() {
            self.status = Some(("no page to review".into(), false));
            return;
        }
        let current = self.corpus.as_ref().map(|c| c.current);
        if self.needs_review() && first.is_none_or(|i| Some(i) == current) {
            self.review.start();
            self.show_recovered_work();
            self.review_records();
            self.review_status();
            return;
        }
        match first.or_else(|| self.next_in_queue()) {
            Some(i) => {
                if self.confirm_leave(Action::Review) {
                    self.review.start();
                    self.open_entry(i);
                    self.show_recovered_work();
                    self.review_records();
                    self.review_status();
                }
            }
            None => {
                self.status = Some((
                    "nothing to review: no page has a draft or flagged gold file or unsaved work"
                        .into(),
                    false,
                ))
            }
        }
    }

    /// Ends the review, saying so.
    fn end_review(&mut self, why: &str) {
        self.review.end();
        self.status = Some((format!("review ended{why}"), false));
    }

    /// In review, a page with a recovery file shows the recovery file's content (restored as
    /// unsaved work, as `R` does).
    fn show_recovered_work(&mut self) {
        if self.ann.as_ref().is_some_and(|a| a.recovery_offered) {
            self.apply(Action::Recover);
            self.status = Some((
                "review shows the recovery file's unsaved work from an earlier session".into(),
                false,
            ));
        }
    }

    /// The review's progress: `review 3 / 12 · 5 final · 2 flagged · 5 draft` over the visible
    /// pages of the corpus (the page list's filter narrows the queue), or `review` for a single
    /// page.
    pub fn review_progress(&self) -> String {
        let Some(c) = &self.corpus else {
            return "review".into();
        };
        let vis = c.visible();
        let pos = vis
            .iter()
            .position(|&i| i == c.current)
            .map_or(0, |p| p + 1);
        let (fin, flagged, draft, _) = c.status_counts(&vis);
        format!(
            "review {pos} / {} · {fin} final · {flagged} flagged · {draft} draft",
            vis.len()
        )
    }

    fn review_status(&mut self) {
        if !self.review.is_active() {
            return;
        }
        let headline = self
            .ann
            .as_ref()
            .filter(|a| a.headline_unconfirmed())
            .and_then(|a| a.gold.headline.as_ref())
            .map(|h| format!(" · headline? {:?} (Y confirms)", shorten_end(&h.text, 40)))
            .unwrap_or_default();
        let msg = format!(
            "a accept · f flag · s skip · E no main content · n note · Esc ends the review{headline}"
        );
        // What the last key did (the file it saved, with its full path) and an earlier message
        // about this page (a restored recovery file) stay in front.
        self.status = Some(match self.status.take() {
            Some((m, false)) if m.starts_with("review shows") || m.starts_with("saved ") => {
                (format!("{m} — {msg}"), false)
            }
            _ => (msg, false),
        });
    }

    /// In review, a page with records (a forum thread's posts, an article's comments, a
    /// listing's items) opens with the records panel ([`App::open_records_panel`]): its
    /// records as a list to keep or strike. A page whose blocks are still being built opens it
    /// when they arrive ([`crate::tui::panels::review::Review::set_records_on_ready`]).
    fn review_records(&mut self) {
        if self.table.is_open() {
            return;
        }
        let ready = self.doc.as_ref().is_some_and(|d| d.blocks_ready());
        if ready {
            self.review.set_records_on_ready(false);
            self.open_records_panel();
        } else {
            let on = self.doc.is_some();
            self.review.set_records_on_ready(on);
        }
    }

    /// The blocks of a page the review opened have arrived: opens its records panel
    /// ([`App::review_records`]) when it has records and nothing else is open.
    pub(crate) fn records_arrived(&mut self) {
        if self.review.take_records_on_ready() && self.review.is_active() && !self.table.is_open() {
            self.open_records_panel();
        }
    }

    /// A key while reviewing. Returns true when it was a review key (handled here), false for
    /// every other key, which then works as usual (move, select, edit).
    pub(crate) fn review_key(&mut self, ev: KeyEvent) -> bool {
        if self.mode == Mode::Note {
            match ev.code {
                KeyCode::Esc => {
                    self.input.clear();
                    self.mode = Mode::Normal;
                    self.review_status();
                }
                KeyCode::Enter => {
                    let note = std::mem::take(&mut self.input);
                    self.mode = Mode::Normal;
                    self.add_note(note.trim());
                }
                KeyCode::Backspace => {
                    self.input.pop();
                }
                KeyCode::Char(c) if !c.is_control() => self.input.push(c),
                _ => {}
            }
            return true;
        }
        let busy = self.table.is_open()
            || self
                .ann
                .as_ref()
                .is_some_and(|a| a.visual.is_some() || a.char_sel.is_some());
        match self.review.handle_key(ev, busy) {
            Handled::NotConsumed => return false,
            Handled::Consumed => {}
            Handled::Ask(ReviewAsk::End) => self.end_review(""),
            Handled::Ask(ReviewAsk::Accept { again }) => self.accept(again, false),
            Handled::Ask(ReviewAsk::NoMainContent) => self.accept(false, true),
            Handled::Ask(ReviewAsk::Flag) => self.flag(),
            Handled::Ask(ReviewAsk::Skip) => self.next_review(),
            Handled::Ask(ReviewAsk::Note) => {
                self.mode = Mode::Note;
                self.input.clear();
            }
        }
        true
    }

    /// `f`: flags the page (a `[flagged]` note, kept a draft) and moves on; refused for a
    /// read-only gold file.
    fn flag(&mut self) {
        let Some(ann) = self.ann.as_mut() else {
            return;
        };
        if ann.read_only.is_some() {
            self.status = Some(("read-only: not flagged".into(), true));
            return;
        }
        ann.gold.add_tag(FLAGGED);
        if self.save_gold_as(true, true) {
            self.next_review();
        }
    }

    /// `a` (and `E` with `no_main_content`): saves the page as final and moves on. Refuses an
    /// empty main content that is not declared, and an unconfirmed headline unless `again` (the
    /// previous key was a refused `a`), which leaves the headline out.
    fn accept(&mut self, again: bool, no_main_content: bool) {
        let Some(ann) = self.ann.as_ref() else {
            return;
        };
        if let Some(why) = &ann.read_only {
            self.status = Some((format!("read-only: {why}"), true));
            return;
        }
        let empty = ann.gold.main_content.ranges.is_empty();
        if no_main_content && !empty {
            self.status = Some((
                "the main content is not empty: remove it first (D) to declare the page has none"
                    .into(),
                true,
            ));
            return;
        }
        if empty && !no_main_content && !ann.gold.declares_no_main_content() {
            self.status = Some((
                "not accepted: the main content is empty — mark it (v i, or T takes the active algorithm's), or press E if this page has no main content".into(),
                true,
            ));
            return;
        }
        if ann.headline_unconfirmed() && !again && !no_main_content {
            let text = ann
                .gold
                .headline
                .as_ref()
                .map(|h| shorten_end(&h.text, 60))
                .unwrap_or_default();
            self.review.refused_accept();
            self.status = Some((
                format!(
                    "not accepted: the headline {text:?} is a suggestion — Y confirms it, H marks another; a again accepts without a headline"
                ),
                true,
            ));
            return;
        }
        let Some(ann) = self.ann.as_mut() else {
            return;
        };
        if ann.headline_unconfirmed() {
            // Left out on purpose (a second `a`, or a page declared to have no main content).
            ann.gold.headline = None;
        }
        ann.gold.remove_tag(FLAGGED);
        if no_main_content {
            ann.gold.add_tag(NO_MAIN_CONTENT);
        } else if !empty {
            ann.gold.remove_tag(NO_MAIN_CONTENT);
        }
        if self.save_gold_as(false, true) {
            self.next_review();
        }
    }

    /// Appends `note` to the gold's notes (an edit: undo takes it back, the recovery file keeps
    /// it, saving writes it).
    fn add_note(&mut self, note: &str) {
        if note.is_empty() {
            self.review_status();
            return;
        }
        let Some(ann) = self.ann.as_mut() else {
            return;
        };
        if ann.read_only.is_some() {
            self.status = Some(("read-only: the note is not added".into(), true));
            return;
        }
        ann.undo.push(ann.snapshot());
        ann.redo.clear();
        let sep = if ann.gold.notes.is_empty() { "" } else { "\n" };
        ann.gold.notes = format!("{}{sep}{note}", ann.gold.notes);
        ann.refresh_dirty();
        self.status = Some((format!("note added: {note}"), false));
    }

    /// The next page of the queue after the current one, in list order (wrapping), among the
    /// visible pages: one whose gold file is a draft or flagged or that has a recovery file.
    fn next_in_queue(&self) -> Option<usize> {
        let c = self.corpus.as_ref()?;
        let vis = c.visible();
        let pos = vis.iter().position(|&i| i == c.current);
        let skip = pos.map_or(0, |p| p + 1);
        let take = if pos.is_some() {
            vis.len().saturating_sub(1)
        } else {
            vis.len()
        };
        vis.iter()
            .cycle()
            .skip(skip)
            .take(take)
            .copied()
            .find(|&i| c.entries[i].unfinished())
    }

    /// The queue's first page in the page list's order when that is by uncertainty and in
    /// force ([`crate::tui::app::UncertaintyOrder::ready`]); `None` otherwise or when the queue
    /// is empty.
    fn first_by_uncertainty(&self) -> Option<usize> {
        let c = self.corpus.as_ref()?;
        if !c.order.as_ref().is_some_and(|o| o.ready()) {
            return None;
        }
        c.visible().into_iter().find(|&i| c.entries[i].unfinished())
    }

    /// Opens the next page of the queue; when none is left, says so and stays in the review on
    /// this page (Esc ends it).
    fn next_review(&mut self) {
        if self.corpus.is_none() {
            let saved = match self.status.take() {
                Some((m, false)) if m.starts_with("saved ") => format!("{m} — "),
                _ => String::new(),
            };
            self.status = Some((
                format!("{saved}review: this page is done (a single page; Esc ends the review)"),
                false,
            ));
            return;
        }
        match self.next_in_queue() {
            Some(i) => {
                if self.confirm_leave(Action::NextPage) {
                    let saved = self.status.take().filter(|s| s.0.starts_with("saved "));
                    self.open_entry(i);
                    if saved.is_some() && self.status.is_none() {
                        self.status = saved;
                    }
                    self.show_recovered_work();
                    self.review_records();
                    self.review_status();
                }
            }
            None => {
                let saved = match self.status.take() {
                    Some((m, false)) if m.starts_with("saved ") => format!("{m} — "),
                    _ => String::new(),
                };
                self.status = Some((
                    format!(
                        "{saved}review: no further draft or flagged page — Esc ends the review"
                    ),
                    false,
                ));
            }
        }
    }
}
