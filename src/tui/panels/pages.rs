//! The page list's panel: the corpus being browsed (its pages: id, file, sizes, encoding, gold
//! status, unsaved work, uncertainty), which page is open, the list's filter and whether the
//! list is shown; its keys — `l` shows / hides the list, `F` starts a filter, typed text edits
//! it — and which page `>` / `<` / `N` go to. Opening a page is the app's
//! (`crate::tui::App::open_entry`): the panel says which.

use std::path::PathBuf;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::Handled;
use crate::corpus::GoldText;
use crate::learn::active::{self, PageUncertainty};
use crate::tui::keymap::Action;

/// One page of the corpus list.
#[derive(Debug, Clone)]
pub struct PageEntry {
    /// Page id (file stem or ground-truth id).
    pub id: String,
    /// The page file.
    pub path: PathBuf,
    /// File size in bytes (as stored, maybe compressed).
    pub bytes: u64,
    /// Size of the HTML in bytes once the background scan has read (and decompressed) it.
    pub html_bytes: Option<u64>,
    /// The encoding, once the background scan has decoded the page.
    pub encoding: Option<String>,
    /// The gold standard from the corpus, if any.
    pub gold: Option<GoldText>,
    /// Where the page's gold file stands: none, draft, flagged, final (or unreadable).
    pub status: crate::gold::GoldStatus,
    /// A recovery file holds unsaved work for the page that its gold file does not (it is newer
    /// than the gold file, or there is no gold file; [`crate::gold::recovery_is_newer`]).
    pub recovery: bool,
    /// The page's uncertainty under the model the list is ordered by
    /// ([`CorpusState::order`]), once computed ([`crate::learn::active`]).
    pub uncertainty: Option<PageUncertainty>,
}

impl PageEntry {
    /// True when the page has a gold standard (a gold file or the corpus' own).
    pub fn annotated(&self) -> bool {
        self.status != crate::gold::GoldStatus::None || self.gold.is_some()
    }

    /// In the review queue: a draft or flagged gold file, or unsaved work in a recovery file.
    /// A page without either is never visited, and so never written, by the review.
    pub fn unfinished(&self) -> bool {
        self.status.unfinished() || self.recovery
    }

    /// The corpus' page type (WCXB's `page_type`), when it gives one.
    pub fn page_type(&self) -> Option<&str> {
        self.gold.as_ref().and_then(|g| g.page_type.as_deref())
    }

    /// The page's URL without the scheme and `www.` (`example.com/a/b`), when the corpus gives
    /// one.
    pub fn url_shown(&self) -> Option<String> {
        let url = self.gold.as_ref()?.url.as_deref()?;
        let rest = url.split_once("://").map_or(url, |(_, r)| r);
        Some(rest.strip_prefix("www.").unwrap_or(rest).to_string())
    }

    /// Does the page pass one word of the page-list filter? A status name (`final`, `draft`,
    /// `flagged`, `none`; `todo` for the review queue) or a page type (`forum`) matches those
    /// exactly; any other word is a case-insensitive substring of the id or the URL.
    fn matches(&self, word: &str, types: &[&str]) -> bool {
        if word == "todo" {
            return self.unfinished();
        }
        if let Some(st) = crate::gold::GoldStatus::from_name(word) {
            return self.status == st;
        }
        if types.contains(&word) {
            return self
                .page_type()
                .is_some_and(|t| t.eq_ignore_ascii_case(word));
        }
        self.id.to_lowercase().contains(word)
            || self
                .gold
                .as_ref()
                .and_then(|g| g.url.as_deref())
                .is_some_and(|u| u.to_lowercase().contains(word))
    }

    /// What the page list shows for the page: its id ([`PageEntry::short_id`]), then its URL
    /// without the scheme and `www.` ([`PageEntry::url_shown`]; the list cuts it at its end,
    /// never in the middle) when the corpus gives one.
    pub fn label(&self) -> String {
        match self.url_shown() {
            Some(u) => format!("{} {u}", self.short_id()),
            None => self.short_id(),
        }
    }

    /// The id as the page list shows it: whole, or a long hexadecimal id (as in the shared
    /// corpora) as its first 8 digits and `…` — enough to type into the filter, which
    /// matches any part of the id.
    pub fn short_id(&self) -> String {
        if self.id.len() > 16 && self.id.chars().all(|c| c.is_ascii_hexdigit()) {
            return format!("{}…", &self.id[..8]);
        }
        self.id.clone()
    }
}

/// The corpus being browsed.
#[derive(Debug, Clone)]
pub struct CorpusState {
    /// Display name.
    pub name: String,
    /// All pages.
    pub entries: Vec<PageEntry>,
    /// Index of the open page in `entries`.
    pub current: usize,
    /// Name filter (substring, case-insensitive).
    pub filter: String,
    /// Is the list panel shown?
    pub list_open: bool,
    /// The list (and so the review queue and `>` / `<`) ordered by a model's uncertainty, when
    /// asked for ([`App::order_by_uncertainty`]).
    pub order: Option<UncertaintyOrder>,
}

/// The page list ordered by a model's uncertainty ([`crate::learn::active`]): the pages whose
/// blocks sit nearest p = 0.5 first. The values are computed on a worker thread and arrive page
/// by page ([`PageEntry::uncertainty`]); the list keeps its page order until every page has
/// one, so it never reorders under the cursor while it fills.
#[derive(Debug, Clone, PartialEq)]
pub struct UncertaintyOrder {
    /// The extractor whose probabilities the values come from.
    pub algo: String,
    /// Pages whose value has arrived.
    pub done: usize,
    /// Pages of the corpus (all of them, whatever the filter).
    pub total: usize,
}

impl UncertaintyOrder {
    /// Has every page its value (the order is in force)?
    pub fn ready(&self) -> bool {
        self.done >= self.total
    }
}

impl CorpusState {
    /// Indices of the entries that pass the filter: every word of it must match
    /// (`draft forum` — the forum pages with a draft gold file; see [`PageEntry::matches`]);
    /// in page order, or by uncertainty once [`CorpusState::order`] is ready.
    pub fn visible(&self) -> Vec<usize> {
        let f = self.filter.to_lowercase();
        let words: Vec<&str> = f.split_whitespace().collect();
        let mut types: Vec<String> = self
            .entries
            .iter()
            .filter_map(|e| e.page_type().map(str::to_lowercase))
            .collect();
        types.sort();
        types.dedup();
        let types: Vec<&str> = types.iter().map(String::as_str).collect();
        let vis: Vec<usize> = (0..self.entries.len())
            .filter(|&i| words.iter().all(|w| self.entries[i].matches(w, &types)))
            .collect();
        if !self.order.as_ref().is_some_and(UncertaintyOrder::ready) {
            return vis;
        }
        // Nearest 0.5 first; pages without a value keep their order, after them.
        let values: Vec<Option<f64>> = vis
            .iter()
            .map(|&i| {
                self.entries[i]
                    .uncertainty
                    .as_ref()
                    .and_then(PageUncertainty::value)
            })
            .collect();
        active::uncertainty_order(&values)
            .into_iter()
            .map(|k| vis[k])
            .collect()
    }

    /// Counts of the pages `visible` (indices into `entries`, as [`CorpusState::visible`]
    /// gives them) by status: (final, flagged, draft, none) — unreadable gold files count as
    /// none.
    pub fn status_counts(&self, visible: &[usize]) -> (usize, usize, usize, usize) {
        use crate::gold::GoldStatus as S;
        let mut c = (0, 0, 0, 0);
        for &i in visible {
            match self.entries[i].status {
                S::Final => c.0 += 1,
                S::Flagged => c.1 += 1,
                S::Draft => c.2 += 1,
                S::None | S::Unreadable => c.3 += 1,
            }
        }
        c
    }
}

/// What the page list asks of the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PagesAsk {
    /// `F`: typed text now edits the filter (the app's input mode).
    TypeFilter,
    /// The filter is done (Enter or Esc): typed text is actions again, and `Some(i)` opens
    /// entry `i` (Enter when the open page no longer passes the filter: the first that does).
    FilterDone(Option<usize>),
}

impl CorpusState {
    /// The page list's own actions: `l` shows / hides it; `F` clears the filter, shows the list
    /// and asks for typed text to go to the filter.
    pub fn handle(&mut self, a: Action) -> Handled<PagesAsk> {
        match a {
            Action::ToggleCorpus => {
                self.list_open = !self.list_open;
                Handled::Consumed
            }
            Action::Filter => {
                // A new filter starts from an empty input (the last one is not left in it to
                // be typed after); Esc then shows every page again.
                self.filter.clear();
                self.list_open = true;
                Handled::Ask(PagesAsk::TypeFilter)
            }
            _ => Handled::NotConsumed,
        }
    }

    /// A key while the filter is typed: Esc clears it, Enter ends it (opening the first page
    /// that passes when the open one does not), Backspace deletes, Ctrl-U clears, text is
    /// typed; other keys do nothing.
    pub fn filter_key(&mut self, ev: KeyEvent) -> Handled<PagesAsk> {
        match ev.code {
            KeyCode::Esc => {
                self.filter.clear();
                return Handled::Ask(PagesAsk::FilterDone(None));
            }
            KeyCode::Enter => {
                let vis = self.visible();
                let open = if vis.contains(&self.current) {
                    None
                } else {
                    vis.first().copied()
                };
                return Handled::Ask(PagesAsk::FilterDone(open));
            }
            KeyCode::Backspace => {
                self.filter.pop();
            }
            // Ctrl-U clears the input, as in a shell.
            KeyCode::Char('u') if ev.modifiers.contains(KeyModifiers::CONTROL) => {
                self.filter.clear()
            }
            KeyCode::Char(ch)
                if !ch.is_control()
                    && !ev
                        .modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
            {
                self.filter.push(ch)
            }
            _ => {}
        }
        Handled::Consumed
    }

    /// The page `>` (`forward`) or `<` goes to among those that pass the filter: the next or
    /// previous one (staying at the ends), the first when the open page does not pass; `None`
    /// when that is the open page or no page passes.
    pub fn step_target(&self, forward: bool) -> Option<usize> {
        let vis = self.visible();
        if vis.is_empty() {
            return None;
        }
        let pos = vis.iter().position(|&i| i == self.current);
        let next = match (pos, forward) {
            (Some(p), true) => vis[(p + 1).min(vis.len() - 1)],
            (Some(p), false) => vis[p.saturating_sub(1)],
            (None, _) => vis[0],
        };
        (next != self.current).then_some(next)
    }

    /// The next page without a gold standard (`N`) after the open one among those that pass
    /// the filter, wrapping around; `None` when every page has one.
    pub fn next_unannotated(&self) -> Option<usize> {
        let vis = self.visible();
        let pos = vis.iter().position(|&i| i == self.current).unwrap_or(0);
        vis.iter()
            .cycle()
            .skip(pos + 1)
            .take(vis.len())
            .copied()
            .find(|&i| !self.entries[i].annotated())
            .filter(|&i| i != self.current)
    }
}
