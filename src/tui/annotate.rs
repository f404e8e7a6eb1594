//! Annotating gold standards in the inspector.
//!
//! Every page opened in the inspector has an [`Annotation`]: the gold file found beside it
//! ([`gold::gold_path_for`]) when there is one, else a draft made from the corpus' plain-text
//! gold (aligned to the page by [`gold::import_scrapinghub`]), else a draft whose only content
//! is the headline finder's suggestion (the shipped learned ranker unless the inspector's
//! `--headline` names another). The annotator
//! selects virtual lines (visual mode, `v`) or characters (mouse drag), adds them to or removes
//! them from the main content, marks the headline, can start from an algorithm's selection, and
//! undoes / redoes. Work is never lost: every change is written at once to the recovery file
//! beside the gold file ([`gold::save_recovery`], atomic); saving writes the gold file
//! atomically, keeping a `.bak` of a file that existed before; a gold file whose page hash
//! differs opens read-only with a warning; a recovery file newer than the gold file is offered
//! for restoring (`R`); quitting or leaving the page with unsaved changes asks first.
//!
//! This module is the annotation's state and knows nothing of the app; the app owns an
//! [`Annotation`] per page and maps its actions onto it (`tui::app`'s `annotation` part).

use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::corpus::GoldText;
use crate::gold::{self, Gold};
use crate::page::Page;
use crate::selection::Selection;

/// The state of one main content + headline, for undo / redo.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Snapshot {
    pub(super) main: Selection,
    /// The headline's range and whether it is confirmed ([`gold::Headline::confirmed`]).
    pub(super) headline: Option<(Range<usize>, bool)>,
    pub(super) notes: String,
}

impl Snapshot {
    fn of(g: &Gold) -> Snapshot {
        Snapshot {
            main: g.main_selection(),
            headline: g.headline_range().map(|r| (r, !g.headline_unconfirmed())),
            notes: g.notes.clone(),
        }
    }
}

/// The gold standard being annotated for the open page.
#[derive(Debug, Clone)]
pub struct Annotation {
    /// The working copy.
    pub gold: Gold,
    /// Where it is saved.
    pub path: PathBuf,
    /// A gold file existed when the page was opened (the first save keeps a backup of it).
    pub existed: bool,
    /// Changed since the last save.
    pub dirty: bool,
    /// This session's saves (only the first save over an existing file keeps a backup).
    pub saver: gold::SaveSession,
    /// Why the gold standard cannot be edited (its page hash differs), if so.
    pub read_only: Option<String>,
    /// A recovery file newer than the gold file exists and has not been restored or dismissed.
    pub recovery_offered: bool,
    /// A recovery file existed when the page was opened (unsaved work of an earlier session):
    /// the review never deletes it ([`crate::tui::App::start_review`]).
    pub recovery_at_open: bool,
    /// The headline is the headline finder's suggestion made when the page was opened for its
    /// first annotation: shown as a suggestion, never written to the gold file until the annotator
    /// confirms it (`Y`) or marks another (`H`) — [`Annotation::to_save`].
    pub suggestion_unsaved: bool,
    /// Visual mode: the display line where the selection started.
    pub visual: Option<usize>,
    /// A character range selected with the mouse (byte offsets).
    pub char_sel: Option<Range<usize>>,
    /// Where a mouse drag started (byte offset).
    pub drag_anchor: Option<usize>,
    pub(super) undo: Vec<Snapshot>,
    pub(super) redo: Vec<Snapshot>,
    /// The state as opened or last saved: `dirty` is "differs from this", so undoing back to
    /// it clears the unsaved mark.
    pub(super) saved: Snapshot,
}

impl Annotation {
    /// Opens the annotation of `page` (read from `page_path`): the gold file when it exists, else
    /// a draft from `corpus_gold`, else an empty draft. Returns the annotation and a message for
    /// the status bar (errors reading the gold file, read-only warnings, recovery offers).
    /// `suggest` gives the headline suggestion's byte range; it is asked only for a page
    /// annotated for the first time.
    pub fn open(
        page: &Page,
        page_path: &Path,
        gold_dir: Option<&Path>,
        corpus_gold: Option<&GoldText>,
        annotator: &str,
        suggest: impl FnOnce() -> Option<Range<usize>>,
    ) -> (Annotation, Option<(String, bool)>) {
        let path = gold::gold_path_for(page_path, gold_dir);
        let mut msg = None;
        let mut existed = false;
        let mut read_only = None;
        let mut suggestion_unsaved = false;
        let g = if path.is_file() {
            existed = true;
            match gold::load(&path) {
                Ok(g) => {
                    let v = gold::verify(&g, page);
                    if let Some(w) = v.warning() {
                        read_only = Some(w.clone());
                        msg = Some((w, true));
                    }
                    g
                }
                Err(e) => {
                    // Malformed gold JSON: left untouched on disk, shown read-only as empty.
                    read_only = Some(format!("{e}"));
                    msg = Some((format!("{e} — the file is left untouched"), true));
                    Gold::new(page, annotator)
                }
            }
        } else if let Some(gt) = corpus_gold {
            gold::import_scrapinghub(gt, page, page.name(), annotator).0
        } else {
            // A page annotated for the first time starts with the headline finder's
            // suggestion, tightened to its text, as an unconfirmed suggestion: `Y` confirms
            // it, `H` marks another; saving leaves it out until then.
            let mut g = Gold::new(page, annotator);
            let suggestion = suggest().and_then(|r| gold::mark::tighten_to_text(page, r));
            if let Some(r) = suggestion {
                g.suggest_headline(page, Some(r));
                suggestion_unsaved = true;
            }
            g
        };
        let saved = Snapshot::of(&g);
        // A newer recovery file is offered only when it differs from the gold file (an
        // identical one, e.g. after undoing back to the saved state, is not news).
        let recovery_offered = read_only.is_none()
            && gold::recovery_is_newer(&path)
            && match gold::load_recovery(&path) {
                Ok(Some(r)) => {
                    let r = Snapshot::of(&r);
                    r.main != saved.main || r.headline != saved.headline || r.notes != saved.notes
                }
                Ok(None) => false,
                Err(_) => true,
            };
        if recovery_offered {
            msg = Some((
                "a recovery file is newer than the gold file: press R to restore it".into(),
                false,
            ));
        }
        let recovery_at_open = gold::recovery_path(&path).is_file();
        (
            Annotation {
                gold: g,
                path,
                existed,
                dirty: false,
                saver: gold::SaveSession::new(),
                read_only,
                recovery_offered,
                recovery_at_open,
                suggestion_unsaved,
                visual: None,
                char_sel: None,
                drag_anchor: None,
                undo: Vec::new(),
                redo: Vec::new(),
                saved,
            },
            msg,
        )
    }

    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot::of(&self.gold)
    }

    /// The headline is a suggestion nobody confirmed (the headline finder's, or one from
    /// `gold mark --headline`).
    pub fn headline_unconfirmed(&self) -> bool {
        self.gold.headline_unconfirmed()
    }

    /// What a save writes: the working copy, without the headline when it is still the
    /// unconfirmed suggestion made on opening ([`Annotation::suggestion_unsaved`]).
    pub fn to_save(&self) -> Gold {
        let mut g = self.gold.clone();
        if self.suggestion_unsaved && g.headline_unconfirmed() {
            g.headline = None;
        }
        g
    }

    /// Recomputes [`Annotation::dirty`]: the working copy differs from the saved state.
    pub(super) fn refresh_dirty(&mut self) {
        self.dirty = self.snapshot() != self.saved;
    }

    /// Marks the working copy as saved.
    pub(super) fn mark_saved(&mut self) {
        self.saved = self.snapshot();
        self.dirty = false;
    }

    pub(super) fn restore(&mut self, page: &Page, s: Snapshot) {
        self.gold.set_main_content(page, s.main);
        match s.headline {
            Some((r, true)) => self.gold.set_headline(page, Some(r)),
            Some((r, false)) => self.gold.suggest_headline(page, Some(r)),
            None => self.gold.set_headline(page, None),
        }
        self.gold.notes = s.notes;
    }

    /// True when the annotation has a main content or a headline.
    pub fn has_content(&self) -> bool {
        !self.gold.main_content.ranges.is_empty() || self.gold.headline.is_some()
    }
}
