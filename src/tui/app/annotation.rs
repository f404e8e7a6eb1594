//! The inspector's annotation commands: the [`App`] side of [`crate::tui::annotate`] — which
//! bytes a command acts on, editing with undo / redo, autosave, saving, leaving with unsaved
//! changes. The annotation state itself ([`Annotation`]) does not depend on the app.

use std::ops::Range;
use std::path::Path;

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::corpus::GoldText;
use crate::gold::{self, Gold, SaveMode, NO_MAIN_CONTENT};
use crate::page::Page;
use crate::selection::Selection;
use crate::tui::annotate::Annotation;
use crate::tui::keymap::Action;

use super::{App, Mode};

/// What `S` asks when the main content is empty ([`App::save_or_ask`]).
const EMPTY_SAVE_QUESTION: &str = "the main content is empty: save this page as having no main content? y yes (notes [no main content]) · n no, back to marking it";

impl App {
    /// The byte range the annotation commands act on: the visual selection, else the mouse
    /// selection, else the cursor line.
    pub fn annotation_target(&self) -> Option<Range<usize>> {
        let ann = self.ann.as_ref()?;
        if let Some(anchor) = ann.visual {
            let (a, b) = (
                anchor.min(self.source.cursor()),
                anchor.max(self.source.cursor()),
            );
            let s = self.line_range(a)?.start;
            let e = self.line_range(b)?.end;
            return Some(s..e);
        }
        if let Some(r) = &ann.char_sel {
            return Some(r.clone());
        }
        self.line_range(self.source.cursor())
    }

    /// Re-derives the gold overlay, its text and every algorithm's P / R / F1 after the
    /// annotation changed.
    pub(crate) fn gold_changed(&mut self) {
        self.gold_rev += 1;
        let (Some(doc), Some(ann)) = (self.doc.as_mut(), self.ann.as_ref()) else {
            return;
        };
        // A fresh draft holding only the suggested headline is not a gold standard yet: no
        // P / R / F1 against an empty main content.
        let scored = ann.existed || !ann.gold.main_content.ranges.is_empty();
        if scored && ann.has_content() {
            // In the selection normal form (content text only), like every extractor's, so the
            // compare overlay never counts markup-only lines as missed.
            doc.gold = Some(doc.page.normalize(&ann.gold.main_selection()));
            if !doc.gold_from_corpus {
                doc.gold_text = Some(ann.gold.main_content.text.clone());
            }
        } else if !doc.gold_from_corpus {
            doc.gold = None;
            doc.gold_text = None;
        }
        self.refresh_prf();
    }

    /// Applies `f` to the annotation with the [`App::annotation_target`] as its range, with undo,
    /// autosave and a status line when nothing changed. Returns true when the gold changed.
    pub(crate) fn edit(
        &mut self,
        f: impl FnOnce(&Page, &mut Gold, Option<Range<usize>>) -> bool,
    ) -> bool {
        let target = self.annotation_target();
        let Some(doc) = self.doc.as_ref() else {
            return false;
        };
        let page = doc.page.clone();
        let Some(ann) = self.ann.as_mut() else {
            return false;
        };
        if let Some(why) = &ann.read_only {
            self.status = Some((format!("read-only: {why}"), true));
            return false;
        }
        let before = ann.snapshot();
        let applied = f(&page, &mut ann.gold, target);
        ann.visual = None;
        ann.char_sel = None;
        if !applied || ann.snapshot() == before {
            self.status = Some((
                "no change: the selection holds no main content to change".into(),
                false,
            ));
            return false;
        }
        ann.undo.push(before);
        ann.redo.clear();
        ann.refresh_dirty();
        ann.visual = None;
        ann.char_sel = None;
        self.autosave();
        self.gold_overlay = true;
        self.gold_changed();
        true
    }

    /// True when the annotation commands act on the cursor line (no visual or mouse selection).
    fn targets_cursor_line(&self) -> bool {
        self.ann
            .as_ref()
            .is_some_and(|a| a.visual.is_none() && a.char_sel.is_none())
    }

    /// Writes the recovery file of a changed annotation (every change; atomic); back at the
    /// saved state (undo), the recovery file is removed, as after a save.
    fn autosave(&mut self) {
        if let Some(ann) = &self.ann {
            if ann.recovery_offered {
                // The recovery file holds another session's unsaved work: never overwrite or
                // remove it before the annotator has restored it or saved.
                self.status = Some((
                    format!(
                        "not autosaved: the recovery file from an earlier session is kept ({} restores it, {} saves)",
                        self.opts.keymap.keys_label(Action::Recover),
                        self.opts.keymap.keys_label(Action::Save)
                    ),
                    false,
                ));
            } else if ann.dirty {
                if let Err(e) = gold::save_recovery(&ann.path, &ann.gold) {
                    self.status = Some((format!("autosave failed: {e}"), true));
                }
            } else {
                let _ = gold::discard_recovery(&ann.path);
            }
            let recovery = gold::recovery_is_newer(&ann.path);
            if let Some(e) = self
                .corpus
                .as_mut()
                .and_then(|c| c.entries.get_mut(c.current))
            {
                e.recovery = recovery;
            }
        }
    }

    /// Saves the gold file: a new file is created; an existing one is first kept as a backup
    /// (the first save of the session) and then replaced. The recovery file is removed.
    pub fn save_gold(&mut self) {
        self.changed();
        self.save_gold_as(false, false);
    }

    /// [`App::save_gold`], leaving the gold a draft (`draft`: still to be reviewed) or not.
    /// `keep_recovery`: the review never deletes a recovery file that existed when the page was
    /// opened (an earlier session's work: its content is what the review showed, so it is
    /// saved, and the file stays); one written during this session is removed as after any
    /// save. The headline suggestion made on opening is not written until confirmed
    /// ([`Annotation::to_save`]). Returns true when the file was written; the status bar names
    /// the full path.
    pub(crate) fn save_gold_as(&mut self, draft: bool, keep_recovery: bool) -> bool {
        let Some(ann) = self.ann.as_mut() else {
            return false;
        };
        if let Some(why) = &ann.read_only {
            self.status = Some((format!("not saved — read-only: {why}"), true));
            return false;
        }
        let mode = if ann.existed {
            SaveMode::Backup
        } else {
            SaveMode::New
        };
        ann.gold.draft = draft;
        ann.gold.touch();
        // The gold records the guideline the inspector applies; without one, the file keeps
        // whatever it recorded.
        if let Some(g) = &self.opts.guideline {
            ann.gold.guideline = Some(g.reference());
        }
        let to_save = ann.to_save();
        let left_out = to_save.headline.is_none() && ann.gold.headline.is_some();
        match ann.saver.save(&ann.path, &to_save, mode) {
            Ok(out) => {
                // The review keeps a recovery file from an earlier session; one this session
                // wrote holds what was just saved.
                if !(keep_recovery && ann.recovery_at_open) {
                    let _ = gold::discard_recovery(&ann.path);
                }
                ann.mark_saved();
                ann.recovery_offered = false;
                // Later saves replace our own file: the original is in the backup already.
                ann.existed = false;
                let shown = std::path::absolute(&out.path).unwrap_or(out.path.clone());
                let mut msg = format!("saved {}", shown.display());
                if let Some(b) = out.backup {
                    msg.push_str(&format!(" (previous file kept as {})", b.display()));
                }
                if left_out {
                    msg.push_str(&format!(
                        "; the headline suggestion was not saved ({} confirms it)",
                        self.opts.keymap.keys_label(Action::TakeHeadline)
                    ));
                }
                self.status = Some((msg, false));
                let status = gold::GoldStatus::of(&to_save);
                let recovery = gold::recovery_is_newer(&ann.path);
                if let Some(c) = self.corpus.as_mut() {
                    if let Some(e) = c.entries.get_mut(c.current) {
                        e.status = status;
                        e.recovery = recovery;
                    }
                }
                true
            }
            Err(gold::GoldError::Exists { .. }) => {
                // The file appeared since the page was opened: keep it as a backup.
                ann.existed = true;
                self.save_gold_as(draft, keep_recovery)
            }
            Err(e) => {
                self.status = Some((format!("not saved: {e}"), true));
                false
            }
        }
    }

    /// `S`: saves, unless the main content is empty and the page is not declared to have none
    /// ([`Gold::declares_no_main_content`]): then it asks first ([`Mode::ConfirmEmptySave`]:
    /// `y` declares the page has no main content and saves, `n` or Esc goes back), so an empty
    /// gold file is never written by accident.
    fn save_or_ask(&mut self) {
        let ask = self.ann.as_ref().is_some_and(|a| {
            a.read_only.is_none()
                && a.gold.main_content.ranges.is_empty()
                && !a.gold.declares_no_main_content()
        });
        if ask {
            self.mode = Mode::ConfirmEmptySave;
            self.status = Some((EMPTY_SAVE_QUESTION.to_string(), true));
        } else {
            self.save_gold();
        }
    }

    /// A key while [`Mode::ConfirmEmptySave`] asks: `y` declares that the page has no main
    /// content ([`App::declare_no_main_content`], one undo step) and saves; `n`, Esc or any
    /// other key answers no (nothing is written, and the key does nothing else).
    pub(crate) fn confirm_empty_save_key(&mut self, ev: KeyEvent) {
        match ev.code {
            KeyCode::Char('y' | 'Y') => {
                self.mode = Mode::Normal;
                self.declare_no_main_content();
                if self
                    .ann
                    .as_ref()
                    .is_some_and(|a| a.gold.declares_no_main_content())
                {
                    self.save_gold();
                }
            }
            _ => {
                self.mode = Mode::Normal;
                self.status = Some((
                    format!(
                        "not saved: mark the main content ({} / {}), or {} if this page has none",
                        self.opts.keymap.keys_label(Action::Include),
                        self.opts.keymap.keys_label(Action::TakeDraft),
                        self.opts.keymap.keys_label(Action::DeclareNoMainContent)
                    ),
                    false,
                ));
            }
        }
    }

    /// `E`: the page has no main content — the main content is emptied and the notes get
    /// [`NO_MAIN_CONTENT`], as one edit (one undo step), as the review's `E` saves it. Saving
    /// is then `S`, without a question.
    pub(crate) fn declare_no_main_content(&mut self) {
        let declared = self.ann.as_ref().is_some_and(|a| {
            a.gold.main_content.ranges.is_empty() && a.gold.declares_no_main_content()
        });
        if declared {
            self.status = Some((
                "already declared: this page has no main content".into(),
                false,
            ));
            return;
        }
        let changed = self.edit(|page, g, _| {
            g.set_main_content(page, Selection::new());
            g.add_tag(NO_MAIN_CONTENT);
            true
        });
        if changed {
            self.status = Some((
                format!(
                    "declared: this page has no main content ({NO_MAIN_CONTENT} noted; {} saves, {} undoes)",
                    self.opts.keymap.keys_label(Action::Save),
                    self.opts.keymap.keys_label(Action::Undo)
                ),
                false,
            ));
        }
    }

    /// Handles the annotation actions. Returns false for other actions.
    pub(crate) fn apply_annotation(&mut self, a: Action) -> bool {
        match a {
            Action::Visual => {
                if let Some(ann) = self.ann.as_mut() {
                    ann.char_sel = None;
                    ann.visual = match ann.visual {
                        Some(_) => None,
                        None => Some(self.source.cursor()),
                    };
                }
            }
            Action::Include | Action::Exclude => {
                // On the cursor line the cursor then moves to the next line (like vim's `dd`),
                // so a run of lines is included or excluded by repeating one key.
                let advance = self.targets_cursor_line();
                let changed = self.edit(|page, g, t| {
                    let Some(t) = t else { return false };
                    let t = Selection::from_ranges([t]);
                    let sel = if a == Action::Include {
                        g.main_selection().union(&t)
                    } else {
                        g.main_selection().difference(&t)
                    };
                    if a == Action::Include && t.ranges().iter().any(|r| page.holds_text(r.clone()))
                    {
                        // Main content marked: the page no longer has none.
                        g.remove_tag(NO_MAIN_CONTENT);
                    }
                    g.set_main_content(page, sel);
                    true
                });
                if changed && advance {
                    self.move_cursor(1);
                }
            }
            Action::MarkHeadline => {
                // On the cursor line the cursor then moves on, as after `i` / `D`: fixing a
                // draft goes down the page.
                let advance = self.targets_cursor_line();
                let changed = self.edit(|page, g, t| {
                    let Some(r) = t.and_then(|t| gold::mark::tighten_to_text(page, t)) else {
                        return false;
                    };
                    g.set_headline(page, Some(r));
                    true
                });
                if changed && advance {
                    self.move_cursor(1);
                }
            }
            Action::TakeHeadline => {
                // The headline finder's best candidate (the shipped ranker unless --headline
                // names another) becomes the gold headline, tightened to its text as a
                // hand-marked headline is.
                // The candidate highlighted in the headline panel (`#`), else the best one.
                // Without the panel, an unconfirmed headline (the suggestion) is confirmed as it
                // is.
                let unconfirmed = self
                    .ann
                    .as_ref()
                    .filter(|a| a.headline_unconfirmed())
                    .and_then(|a| {
                        let h = a.gold.headline.as_ref()?;
                        Some((a.gold.headline_range()?, h.text.clone()))
                    });
                let found = self.highlighted_headline().or(unconfirmed).or_else(|| {
                    self.headline_rows()
                        .first()
                        .map(|r| (r.best_occurrence().range.clone(), r.text.clone()))
                });
                match found {
                    Some((r, text)) => {
                        self.edit(|page, g, _| {
                            let Some(r) = gold::mark::tighten_to_text(page, r) else {
                                return false;
                            };
                            g.set_headline(page, Some(r));
                            true
                        });
                        if self.ann.as_ref().is_some_and(|a| a.dirty) {
                            self.status = Some((format!("headline confirmed: {text}"), false));
                        }
                    }
                    None => {
                        self.status = Some(("no headline suggestion on this page".into(), false))
                    }
                }
            }
            Action::TakeDraft => {
                let sel = self
                    .active_algo()
                    .result
                    .as_ref()
                    .map(|x| x.selection.clone());
                let name = self.active_algo().extractor.name().to_string();
                match sel {
                    Some(sel) => {
                        let changed = self.edit(|page, g, _| {
                            if !sel.is_empty() {
                                g.remove_tag(NO_MAIN_CONTENT);
                            }
                            g.set_main_content(page, sel);
                            true
                        });
                        if changed {
                            // Fixing a draft starts at its first line: go there.
                            self.jump_selected(true);
                        }
                        if self.ann.as_ref().is_some_and(|a| a.dirty) {
                            self.status = Some((
                                format!("main content taken from {name}: now fix it"),
                                false,
                            ));
                        }
                    }
                    None if self.active_algo().busy => {
                        self.status = Some((
                            format!(
                            "{name} is still running on this page: {} again when its result is in",
                            self.opts.keymap.keys_label(Action::TakeDraft)
                        ),
                            false,
                        ))
                    }
                    None => self.status = Some((format!("{name} has no result yet"), false)),
                }
            }
            Action::Undo | Action::Redo => {
                let Some(page) = self.doc.as_ref().map(|d| d.page.clone()) else {
                    return true;
                };
                let Some(ann) = self.ann.as_mut() else {
                    return true;
                };
                let now = ann.snapshot();
                let (from, to) = if a == Action::Undo {
                    (&mut ann.undo, &mut ann.redo)
                } else {
                    (&mut ann.redo, &mut ann.undo)
                };
                match from.pop() {
                    Some(s) => {
                        to.push(now);
                        ann.restore(&page, s);
                        ann.refresh_dirty();
                        self.autosave();
                        self.gold_changed();
                    }
                    None => {
                        self.status = Some((
                            if a == Action::Undo {
                                "nothing to undo"
                            } else {
                                "nothing to redo"
                            }
                            .into(),
                            false,
                        ))
                    }
                }
            }
            Action::Save => self.save_or_ask(),
            Action::DeclareNoMainContent => self.declare_no_main_content(),
            Action::Recover => {
                let Some(ann) = self.ann.as_mut() else {
                    return true;
                };
                match gold::load_recovery(&ann.path) {
                    Ok(Some(g)) => {
                        ann.undo.push(ann.snapshot());
                        ann.gold = g;
                        ann.refresh_dirty();
                        ann.recovery_offered = false;
                        self.status =
                            Some(("recovery file restored (not saved yet)".into(), false));
                        self.gold_overlay = true;
                        self.gold_changed();
                    }
                    Ok(None) => self.status = Some(("no recovery file".into(), false)),
                    Err(e) => {
                        self.status = Some((format!("cannot read the recovery file: {e}"), true))
                    }
                }
            }
            _ => return false,
        }
        true
    }

    /// True when leaving the page (or quitting) would drop unsaved changes; then the first
    /// request only warns and a second identical request goes ahead (the changes stay in the
    /// recovery file either way).
    pub(crate) fn confirm_leave(&mut self, a: Action) -> bool {
        let dirty = self.ann.as_ref().is_some_and(|x| x.dirty);
        if !dirty || self.pending_confirm == Some(a) {
            self.pending_confirm = None;
            return true;
        }
        self.pending_confirm = Some(a);
        self.status = Some((
            format!(
                "unsaved changes: {} saves; press {} again to leave anyway (kept in the recovery file)",
                self.opts.keymap.keys_label(Action::Save),
                self.opts.keymap.keys_label(a)
            ),
            true,
        ));
        false
    }
}

/// Opens the annotation for the app's current page (called when a page is opened).
pub(crate) fn attach(app: &mut App, page_path: &Path, corpus_gold: Option<&GoldText>) {
    let Some(doc) = app.doc.as_ref() else {
        app.ann = None;
        return;
    };
    let (ann, msg) = Annotation::open(
        &doc.page,
        page_path,
        app.opts.gold_dir.as_deref(),
        corpus_gold,
        &app.opts.annotator,
        || {
            app.headline_rows()
                .first()
                .map(|r| r.best_occurrence().range.clone())
        },
    );
    app.ann = Some(ann);
    if msg.is_some() {
        app.status = msg;
    }
    app.gold_changed();
    app.gold_overlay = app.doc.as_ref().is_some_and(|d| d.gold.is_some());
}
