//! Editing the annotation by unit of the page ([`crate::page::blocks::like`]): `I` keeps and
//! `X` strikes a unit of the cursor's block — the next key chooses it, `b` the block, `r` its
//! record, `g` its record group, `p` every block with the same path, `t` every block with the
//! same text, after a menu that says how many blocks each holds and how many would change —
//! each one undo step; block and record motions (`J` / `K`, `z` / `Z`), and `M` to the next block
//! kept unlike the blocks like it (a draft's inconsistency); and the records panel
//! (`L`, opened by the review on a page with records): a group's records as a list to keep or
//! strike.
//!
//! A unit's blocks are kept by adding their byte ranges ([`crate::page::Blocks::ranges`],
//! content text) to the main content, struck by removing them: the selection stays in the
//! gold's normal form.

use std::sync::Arc;

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{App, TableKind};
use crate::page::blocks::{node_label, Alike, Scope};
use crate::page::dom::NodeKind;
use crate::page::{MemoKey, Page};
use crate::selection::Selection;
use crate::tui::display::shorten_end;
use crate::tui::keymap::Action;

/// The key that chooses each unit in the keep / strike menu, in the menu's order.
pub const UNIT_KEYS: [(char, Scope); 5] = [
    ('b', Scope::Block),
    ('r', Scope::Record),
    ('g', Scope::Group),
    ('p', Scope::SamePath),
    ('t', Scope::SameText),
];

/// Most characters of a block's text a message quotes.
const QUOTE_CHARS: usize = 22;

/// A keep (`I`) or strike (`X`) waiting for the key that chooses its unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitMenu {
    /// Keep (add to the main content) rather than strike.
    pub keep: bool,
    /// The block the units are around (the cursor's when the menu opened).
    pub block: usize,
}

/// One record of the records panel.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordRow {
    /// Its index in [`crate::page::Records::records`].
    pub record: usize,
    /// Its number in its group, from 1.
    pub number: usize,
    /// The display line of its first block (0-based).
    pub line: usize,
    /// Its words.
    pub words: usize,
    /// The share of its blocks' text bytes the main content holds, in `[0, 1]`.
    pub kept: f64,
    /// Its text, the blocks' texts joined by ` · ` (cut at about 200 characters).
    pub text: String,
    /// The byte its text starts at.
    pub start: usize,
}

/// What the records panel shows: one record group of the page.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordList {
    /// The group ([`crate::page::Records::groups`]).
    pub group: usize,
    /// Groups on the page.
    pub groups: usize,
    /// Its records' signature (`article.message`).
    pub signature: String,
    /// The element the records are children of (`div.block-body`).
    pub parent: String,
    /// Its records, in document order.
    pub rows: Vec<RecordRow>,
}

/// The per-block keys of "like this" for `page`, computed once per page.
fn alike(page: &Page) -> Arc<Alike> {
    const ALIKE: MemoKey<Alike> = MemoKey::new("blocks::alike");
    page.memo(ALIKE, || Alike::build(page.dom(), page.blocks()))
}

/// `n` and `what`, plural unless `n` is 1 (`1 block`, `8 blocks`).
fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `text` quoted for a message, cut to [`QUOTE_CHARS`].
fn quote(text: &str) -> String {
    format!("{:?}", shorten_end(text, QUOTE_CHARS))
}

impl App {
    /// Handles the unit actions (keep / strike menu, block and record motions, the records
    /// panel). Returns false for other actions.
    pub(crate) fn apply_units(&mut self, a: Action) -> bool {
        match a {
            Action::KeepUnit => self.open_unit_menu(true),
            Action::StrikeUnit => self.open_unit_menu(false),
            Action::NextBlock => self.block_motion(true),
            Action::PrevBlock => self.block_motion(false),
            Action::NextRecord => self.record_motion(true),
            Action::PrevRecord => self.record_motion(false),
            Action::NextOdd => self.odd_motion(),
            Action::ToggleRecords => self.toggle_records(),
            _ => return false,
        }
        true
    }

    /// The open page once its blocks are built.
    fn block_page(&self) -> Option<Arc<Page>> {
        self.doc
            .as_ref()
            .filter(|d| d.blocks_ready())
            .map(|d| Arc::clone(&d.page))
    }

    /// The blocks of `unit` around block `i` of the open page ([`Alike::unit`]), in document
    /// order; empty while the blocks are being built.
    pub fn unit_blocks(&self, unit: Scope, i: usize) -> Vec<usize> {
        let Some(page) = self.block_page() else {
            return Vec::new();
        };
        alike(&page).unit(page.records(), unit, i)
    }

    /// How unit `unit` of block `i` (of `n` blocks) is named in messages: `block "#14"`,
    /// `record 9/20 article.message`, `record group article.message (20 records)`, `blocks
    /// like "#14" (same text)`.
    fn unit_label(page: &Page, unit: Scope, i: usize, n: usize) -> String {
        let blocks = page.blocks();
        let text = quote(&blocks.text(page.dom(), i));
        let records = page.records();
        match unit {
            Scope::Block => format!("block {text}"),
            Scope::Record => match records.of_block(i) {
                Some(k) => {
                    let g = &records.groups()[records.records()[k].group];
                    format!(
                        "record {}/{} {}",
                        k - g.records.start + 1,
                        g.records.len(),
                        g.signature
                    )
                }
                None => "record".into(),
            },
            Scope::Group => match records.group_of_block(i) {
                Some(g) => {
                    let g = &records.groups()[g];
                    format!("record group {} ({} records)", g.signature, g.records.len())
                }
                None => "record group".into(),
            },
            Scope::SamePath | Scope::SameText => {
                format!("{n} blocks like {text} ({})", unit.name())
            }
        }
    }

    /// Opens the keep (`keep`) / strike menu on the cursor's block ([`App::cursor_block`]):
    /// the status bar lists the units with their sizes and, for "like this", how many blocks
    /// would change; the next key chooses ([`App::unit_menu_key`]). Refuses with a message on
    /// a read-only gold, while the blocks are being built, and on a line without block text.
    pub(crate) fn open_unit_menu(&mut self, keep: bool) {
        let Some(ann) = self.ann.as_ref() else {
            self.status = Some(("no page open".into(), false));
            return;
        };
        if let Some(why) = &ann.read_only {
            self.status = Some((format!("read-only: {why}"), true));
            return;
        }
        let Some(page) = self.block_page() else {
            self.status = Some((
                "the page's text blocks are being built: try again in a moment".into(),
                false,
            ));
            return;
        };
        let Some(block) = self.cursor_block() else {
            self.status = Some((
                format!(
                    "no text block on this line: {} / {} move to one",
                    self.first_key(Action::NextBlock),
                    self.first_key(Action::PrevBlock)
                ),
                false,
            ));
            return;
        };
        let main = ann.gold.main_selection();
        let blocks = page.blocks();
        let records = page.records();
        let alike = alike(&page);
        let verb = if keep { "keep" } else { "strike" };
        let mut parts = Vec::new();
        for (key, unit) in UNIT_KEYS {
            let ids = alike.unit(records, unit, block);
            let part = match unit {
                Scope::Block => format!("{key} block"),
                Scope::Record | Scope::Group if ids.is_empty() => continue,
                Scope::Record => match records.of_block(block) {
                    Some(k) => {
                        let g = &records.groups()[records.records()[k].group];
                        format!(
                            "{key} record {}/{} ({})",
                            k - g.records.start + 1,
                            g.records.len(),
                            plural(ids.len(), "block")
                        )
                    }
                    None => continue,
                },
                Scope::Group => {
                    let g = records.group_of_block(block).map(|g| &records.groups()[g]);
                    format!(
                        "{key} {} {} ({})",
                        g.map_or(0, |g| g.records.len()),
                        g.map_or("", |g| g.signature.as_str()),
                        plural(ids.len(), "block")
                    )
                }
                Scope::SamePath | Scope::SameText => format!(
                    "{key} {}: {}, {} change",
                    unit.name(),
                    plural(ids.len(), "block"),
                    blocks.changes(&ids, &main, keep)
                ),
            };
            parts.push(part);
        }
        if records.of_block(block).is_none() {
            parts.insert(1, "(in no record)".into());
        }
        self.status = Some((
            format!(
                "{verb} {}: {} · Esc",
                quote(&blocks.text(page.dom(), block)),
                parts.join(" · ")
            ),
            false,
        ));
        self.unit_menu = Some(UnitMenu { keep, block });
    }

    /// A key while the keep / strike menu is open: a unit key ([`UNIT_KEYS`]) or the menu's
    /// own key again (the block) applies; any other key cancels (and does nothing else).
    pub(crate) fn unit_menu_key(&mut self, ev: KeyEvent) {
        let Some(menu) = self.unit_menu.take() else {
            return;
        };
        let again = self.opts.keymap.action(&ev)
            == Some(if menu.keep {
                Action::KeepUnit
            } else {
                Action::StrikeUnit
            });
        let unit = match ev.code {
            _ if again => Some(Scope::Block),
            KeyCode::Char(c) if ev.modifiers.is_empty() => {
                UNIT_KEYS.iter().find(|(k, _)| *k == c).map(|&(_, u)| u)
            }
            _ => None,
        };
        match unit {
            Some(u) => {
                self.apply_unit(menu.keep, u, menu.block);
            }
            None => self.status = Some(("cancelled: nothing kept or struck".into(), false)),
        }
    }

    /// Keeps (`keep`) or strikes unit `unit` of block `block` as one edit (one undo step, the
    /// recovery file written, refused on a read-only gold) and says what changed. Returns true
    /// when the main content changed.
    pub(crate) fn apply_unit(&mut self, keep: bool, unit: Scope, block: usize) -> bool {
        let Some(page) = self.block_page() else {
            return false;
        };
        let ids = alike(&page).unit(page.records(), unit, block);
        if ids.is_empty() {
            self.status = Some((
                format!("this block is in no record: no {} to change", unit.name()),
                false,
            ));
            return false;
        }
        let label = App::unit_label(&page, unit, block, ids.len());
        let before = self.ann.as_ref().map(|a| a.gold.main_selection());
        let changes = before
            .as_ref()
            .map_or(0, |m| page.blocks().changes(&ids, m, keep));
        let unit_sel = page.blocks().selection_of(&ids);
        let changed = self.edit(|page, g, _| {
            let main = g.main_selection();
            let sel: Selection = if keep {
                main.union(&unit_sel)
            } else {
                main.difference(&unit_sel)
            };
            g.set_main_content(page, sel);
            true
        });
        if self.ann.as_ref().is_some_and(|a| a.read_only.is_some()) {
            return false;
        }
        let size = match unit {
            Scope::Block | Scope::SamePath | Scope::SameText => String::new(),
            _ => format!(" ({} blocks)", ids.len()),
        };
        let undo = self.first_key(Action::Undo);
        let msg = match (changed, keep) {
            (true, true) => format!("kept {label}{size}: {changes} changed — {undo} undoes"),
            (true, false) => format!("struck {label}{size}: {changes} changed — {undo} undoes"),
            (false, true) => format!("no change: {label}{size} already kept"),
            (false, false) => format!("no change: {label}{size} already struck"),
        };
        self.status = Some((msg, false));
        changed
    }

    /// The first key of action `a` in the keymap, for messages.
    pub(crate) fn first_key(&self, a: Action) -> String {
        let k = self.opts.keymap.keys_label(a);
        k.split(", ").next().unwrap_or_default().to_string()
    }

    /// Puts the cursor on block `i`: on its first line (a jump, in the jump list, when the line
    /// changes) with the block chosen there ([`App::cursor_block`]), and says which block it is.
    fn go_to_block(&mut self, page: &Page, i: usize) {
        let blocks = page.blocks();
        let Some(first) = blocks.ranges(i).first().map(|r| r.start) else {
            return;
        };
        let line = self.line_at_byte(first);
        if line != self.source.cursor() {
            self.jump_to_line(line);
        }
        let at = self.line_range(self.source.cursor()).map_or(0, |r| r.start);
        self.unit_cursor = Some((at, i));
        let records = page.records();
        let within = match records.of_block(i) {
            Some(k) => {
                let g = &records.groups()[records.records()[k].group];
                format!(
                    " · record {}/{} {}",
                    k - g.records.start + 1,
                    g.records.len(),
                    g.signature
                )
            }
            None => String::new(),
        };
        self.status = Some((
            format!(
                "block {}/{} {}{within}",
                i + 1,
                blocks.len(),
                quote(&blocks.text(page.dom(), i))
            ),
            false,
        ));
    }

    /// `J` / `K`: the cursor to the next (`forward`) or previous text block — from the cursor's
    /// block the one after or before it (also on the same line); from a line without block
    /// text the first block starting after it or the last starting before it.
    pub(crate) fn block_motion(&mut self, forward: bool) {
        let Some(page) = self.block_page() else {
            self.status = Some(("the page's text blocks are being built".into(), false));
            return;
        };
        let blocks = page.blocks();
        let here = self.line_range(self.source.cursor()).unwrap_or(0..0);
        let target = match (self.cursor_block(), forward) {
            (Some(b), true) => Some(b + 1).filter(|&n| n < blocks.len()),
            (Some(b), false) => b.checked_sub(1),
            (None, true) => blocks.starting_from(here.end),
            (None, false) => blocks.starting_before(here.start),
        };
        match target {
            Some(i) => self.go_to_block(&page, i),
            None => {
                self.status = Some((
                    format!(
                        "no {} text block",
                        if forward { "further" } else { "earlier" }
                    ),
                    false,
                ))
            }
        }
    }

    /// `z` / `Z`: the cursor to the first block of the next (`forward`) or previous record of
    /// any group ([`crate::page::Records::first_starting_from`]); from inside a record, back goes to its
    /// start first.
    pub(crate) fn record_motion(&mut self, forward: bool) {
        let Some(page) = self.block_page() else {
            self.status = Some(("the page's text blocks are being built".into(), false));
            return;
        };
        let blocks = page.blocks();
        let records = page.records();
        if records.is_empty() {
            self.status = Some((
                "this page has no records (repeated posts, comments or items)".into(),
                false,
            ));
            return;
        }
        let here = self.line_range(self.source.cursor()).unwrap_or(0..0);
        let k = match self.cursor_block() {
            Some(b) if forward => records.first_starting_from(b + 1),
            Some(b) => records.last_starting_before(b),
            // From a line without block text: the first record starting after the line, the
            // last starting before it.
            None if forward => blocks
                .starting_from(here.end)
                .and_then(|n| records.first_starting_from(n)),
            None => records
                .last_starting_before(blocks.starting_from(here.start).unwrap_or(blocks.len())),
        };
        match k {
            Some(k) => {
                let first = records.records()[k].blocks.start;
                self.go_to_block(&page, first);
            }
            None => {
                self.status = Some((
                    format!("no {} record", if forward { "further" } else { "earlier" }),
                    false,
                ))
            }
        }
    }

    /// `M`: the cursor to the next block that the main content keeps unlike the blocks like
    /// it ([`Alike::odd_ones`]: same path, kept = at least half its text selected), wrapping
    /// around at the page's end; the status bar says how its kin are kept. Where fixing a draft
    /// is one `I p` or `X p`.
    pub(crate) fn odd_motion(&mut self) {
        let Some(page) = self.block_page() else {
            self.status = Some(("the page's text blocks are being built".into(), false));
            return;
        };
        let main = self
            .ann
            .as_ref()
            .map(|a| a.gold.main_selection())
            .unwrap_or_default();
        let blocks = page.blocks();
        let kept: Vec<bool> = blocks.project(&main).iter().map(|&f| f >= 0.5).collect();
        let alike = alike(&page);
        let odd = alike.odd_ones(&kept);
        let here = self.line_range(self.source.cursor()).unwrap_or(0..0);
        // Blocks after the cursor's block (from a line without block text: from the next).
        let after = match self.cursor_block() {
            Some(b) => b + 1,
            None => blocks.starting_from(here.end).unwrap_or(blocks.len()),
        };
        let (target, wrapped) = match odd.iter().find(|&&i| i >= after) {
            Some(&i) => (Some(i), false),
            None => (odd.first().copied(), true),
        };
        let Some(i) = target else {
            self.status = Some((
                "no block is kept unlike the blocks like it: every path is all kept or all not"
                    .into(),
                false,
            ));
            return;
        };
        self.go_to_block(&page, i);
        let kin = alike.same_path(i);
        let k = kin.iter().filter(|&&j| kept[j]).count();
        let msg = format!(
            "{}{} — {} of {} like it (same path) kept, {}",
            if wrapped { "wrapped to the top: " } else { "" },
            self.status.take().map(|s| s.0).unwrap_or_default(),
            k,
            kin.len(),
            if kept[i] {
                "this one among them"
            } else {
                "this one not"
            }
        );
        self.status = Some((msg, false));
    }

    /// The records panel's content: the records of the table panel's record group (clamped)
    /// with how much of each the main content holds; `None` while the blocks are being built
    /// or when the page has no record group.
    pub fn record_list(&self) -> Option<RecordList> {
        let page = self.block_page()?;
        let records = page.records();
        if records.is_empty() {
            return None;
        }
        let g = self.table.records_group().min(records.groups().len() - 1);
        let group = &records.groups()[g];
        let blocks = page.blocks();
        let dom = page.dom();
        let main = self
            .ann
            .as_ref()
            .map(|a| a.gold.main_selection())
            .unwrap_or_default();
        let rows = records.records()[group.records.clone()]
            .iter()
            .enumerate()
            .map(|(n, r)| {
                let ids: Vec<usize> = r.blocks.clone().collect();
                let total: usize = ids.iter().map(|&i| blocks.len_bytes(i)).sum();
                let got: usize = ids.iter().map(|&i| blocks.selected_bytes(i, &main)).sum();
                let mut text = String::new();
                for &i in &ids {
                    if text.chars().count() > 200 {
                        break;
                    }
                    if !text.is_empty() {
                        text.push_str(" · ");
                    }
                    text.push_str(&blocks.text(dom, i));
                }
                let start = ids
                    .first()
                    .and_then(|&i| blocks.ranges(i).first())
                    .map_or(0, |x| x.start);
                RecordRow {
                    record: group.records.start + n,
                    number: n + 1,
                    line: self.line_at_byte(start),
                    words: r.words,
                    kept: if total == 0 {
                        0.0
                    } else {
                        got as f64 / total as f64
                    },
                    text,
                    start,
                }
            })
            .collect();
        Some(RecordList {
            group: g,
            groups: records.groups().len(),
            signature: group.signature.clone(),
            parent: if dom.kind(group.parent) == NodeKind::Element {
                node_label(dom, group.parent)
            } else {
                "the document".into()
            },
            rows,
        })
    }

    /// `L`: shows / hides the records panel, on the group of the cursor's record (else the
    /// page's largest group), its record highlighted; says so on a page without records.
    pub(crate) fn toggle_records(&mut self) {
        if self.table.shows(TableKind::Records) {
            self.table.close();
            return;
        }
        if !self.open_records_panel() {
            self.status = Some(match self.block_page() {
                None => (
                    "the page's text blocks are being built: try again in a moment".into(),
                    false,
                ),
                Some(_) => (
                    "this page has no records (repeated posts, comments or items)".into(),
                    false,
                ),
            });
        }
    }

    /// Opens the records panel when the page has records (see [`App::toggle_records`]).
    /// Returns false when it has none or its blocks are being built.
    pub(crate) fn open_records_panel(&mut self) -> bool {
        let Some(page) = self.block_page() else {
            return false;
        };
        let records = page.records();
        if records.is_empty() {
            return false;
        }
        let cursor_record = self.cursor_block().and_then(|b| records.of_block(b));
        let group = cursor_record
            .map(|k| records.records()[k].group)
            .or_else(|| records.largest())
            .unwrap_or(0);
        let start = records.groups()[group].records.start;
        let row = cursor_record
            .filter(|&k| records.records()[k].group == group)
            .map_or(0, |k| k - start);
        self.table.open_records(group, row);
        true
    }

    /// `I` / `X` in the records panel: keeps (`keep`) or strikes the highlighted record, then
    /// highlights the next.
    pub(crate) fn keep_record(&mut self, keep: bool) {
        let Some(list) = self.record_list() else {
            return;
        };
        let last = list.rows.len().saturating_sub(1);
        let Some(row) = list.rows.get(self.table.row().min(last)) else {
            return;
        };
        let first = self
            .block_page()
            .map(|p| p.records().records()[row.record].blocks.start);
        if let Some(b) = first {
            if self.apply_unit(keep, Scope::Record, b) {
                self.table.set_row((self.table.row() + 1).min(last));
            }
        }
    }
}
