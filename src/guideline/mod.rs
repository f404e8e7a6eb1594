//! Guidelines: written definitions of main content as choices over the unit kinds cescope
//! recognises ([`crate::page::units`]) — is the headline part of the content, are bylines,
//! captions, tables, code blocks, comment sections, forum posts (all, the first only, question
//! and answers), their metadata lines, related and supplemental lists, link lists?
//!
//! Public benchmarks decide these differently, each by its own written definition
//! (`../shared/notes/guidelines.md`): the scrapinghub benchmark's `articleBody` is the article
//! without headline or comments, Dragnet (Peters & Lecocq 2013) has a task with and one
//! without comments, L3S-GN1 (Kohlschütter et al. 2010) labels headline, full text,
//! supplemental, related content and comments apart, CleanEval (Baroni et al. 2008) removes
//! link lists and other boilerplate. A guideline makes such a definition a file cescope
//! applies — to any extractor's selection ([`Guided`], the last step of a run), to a gold file
//! marked by CSS (`gold mark`), to the inspector's drafts — and that gold files record
//! ([`GuidelineRef`]).
//!
//! **File.** A guideline is a TOML file (the shipped presets are in `src/guideline/presets/`,
//! [`PRESETS`]):
//!
//! ```toml
//! name = "article"
//! title = "The article body, without headline, bylines or comments"
//! source = "Scrapinghub article-extraction-benchmark (2019), README: ..."
//!
//! [units]          # one choice per unit kind: in | out | extracted
//! headline = "out"
//! comments = "out"
//! posts = "first"  # posts also: all | first | question-and-answers
//!
//! [why]            # optional: the reason of each choice, shown by `guideline show`
//! headline = "a separate field of the benchmark"
//! ```
//!
//! `in` adds the units of the kind that belong to the extracted content, `out` removes every
//! unit of the kind, `extracted` (the default for a kind the file does not name) leaves the
//! extractor's decision. For `posts`, `in` is `all`; `first` keeps the thread's first post and
//! removes the others; `question-and-answers` keeps every post and removes the comments inside
//! posts. Unknown keys and choices are errors ([`GuidelineError`]).
//!
//! **Applying** ([`Guideline::apply`]), to a selection S of a page with units U:
//!
//! 1. The **content scope**: the deepest element holding at least 80 % of the words of the
//!    blocks S selects (a block counts when S covers at least half of its bytes). Without it
//!    (S selects no block) nothing is added.
//! 2. Added, for each kind chosen `in`: the blocks (but those inside a `<form>`: a comment
//!    form's labels are not comments) of its units that belong to the content — *inside* kinds
//!    (caption, table, code, link_list, supplemental) lie in the scope, or in the scope's
//!    parent between the first and the last selected block; the headline (the page's, found
//!    by the headline finder) belongs wherever it is; *around* kinds have their lowest
//!    common ancestor with the scope at most 3 (byline) or 5 (comments, posts,
//!    post_meta, related) elements above the scope, with no `nav`, `aside` or `footer`
//!    element, nor one whose `class` / `id` names navigation, a menu, a sidebar, a widget, a
//!    footer or an advertisement, between that ancestor and the unit. A posts choice of `all`, `first` or `question-and-answers` adds every post of a
//!    thread one of whose posts belongs (the first post only for `first`).
//! 3. Removed, for each kind chosen `out`: every unit of the kind; for `first`, the posts after
//!    the first; for `question-and-answers`, the comment units inside posts — but never a unit
//!    whose element holds the content scope: around the whole content, it is the content, not
//!    a part beside it (a product's description inside an `<aside>`, a thread whose every post
//!    the page calls a comment).
//! 4. The result is (S ∪ added) ∖ removed: a removal wins over an addition (a caption inside a
//!    comment section that is `in`, with captions `out`, is removed).
//!
//! A guideline whose every choice is `extracted` leaves every selection as it is.

pub mod presets;

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use crate::gold::GuidelineRef;
use sha2::{Digest, Sha256};

use crate::page::blocks::keywords::{PageMarks, KEYWORD_GROUPS};
use crate::page::blocks::Within;
use crate::page::dom::{NodeId, NodeKind};
use crate::page::lex::Tag;
use crate::page::units::{UnitKind, Units};
use crate::page::Page;
use crate::selection::Selection;

mod guided;

pub use guided::{guided, headline, page_units, Guided};

/// What a guideline decides about one unit kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Choice {
    /// The kind is main content: its units that belong to the content are added.
    In,
    /// The kind is not main content: its units are removed.
    Out,
    /// No decision: the extractor's (or annotator's) selection stands.
    Extracted,
    /// Posts only: the thread's first post, not the others.
    First,
    /// Posts only: every post, without the comments inside posts.
    QuestionAndAnswers,
}

impl Choice {
    /// The word in guideline files: `in`, `out`, `extracted`, `first`,
    /// `question-and-answers`.
    pub fn name(self) -> &'static str {
        match self {
            Choice::In => "in",
            Choice::Out => "out",
            Choice::Extracted => "extracted",
            Choice::First => "first",
            Choice::QuestionAndAnswers => "question-and-answers",
        }
    }

    /// The word for the choice on `kind` as people read it: [`Choice::name`], but `all` for
    /// posts `in`.
    pub fn name_for(self, kind: UnitKind) -> &'static str {
        if kind == UnitKind::Posts && self == Choice::In {
            "all"
        } else {
            self.name()
        }
    }

    /// Parses a choice for `kind` (`all` is `in`; `first` and `question-and-answers` only for
    /// posts).
    fn parse(kind: UnitKind, s: &str) -> Option<Choice> {
        let c = match s.trim().to_ascii_lowercase().as_str() {
            "in" | "all" => Choice::In,
            "out" => Choice::Out,
            "extracted" => Choice::Extracted,
            "first" if kind == UnitKind::Posts => Choice::First,
            "question-and-answers" | "qa" if kind == UnitKind::Posts => Choice::QuestionAndAnswers,
            _ => return None,
        };
        Some(c)
    }

    /// Does the choice add units of its kind?
    fn adds(self) -> bool {
        matches!(
            self,
            Choice::In | Choice::First | Choice::QuestionAndAnswers
        )
    }
}

/// A guideline (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct Guideline {
    /// Its name (a preset's name, or the `name` of the file).
    pub name: String,
    /// One line saying what it defines.
    pub title: String,
    /// The published definition it follows, cited.
    pub source: String,
    /// The choice for each kind ([`Choice::Extracted`] for kinds the file does not name).
    choices: BTreeMap<UnitKind, Choice>,
    /// The reason of each choice, where the file gives one.
    why: BTreeMap<UnitKind, String>,
    /// Where it was read from: `preset` or the file's path.
    pub origin: String,
}

/// What can go wrong reading a guideline.
#[derive(Debug, thiserror::Error)]
pub enum GuidelineError {
    /// Neither a preset nor a readable file.
    #[error("no guideline {name:?}: not a preset ({presets}) and not a readable file ({cause})")]
    NotFound {
        /// What was asked for.
        name: String,
        /// The preset names.
        presets: String,
        /// Why the file could not be read.
        cause: String,
    },
    /// The file is not a valid guideline.
    #[error("{origin}: {message}")]
    Invalid {
        /// The file (or `preset NAME`).
        origin: String,
        /// What is wrong, naming the key.
        message: String,
    },
}

/// The raw TOML of a guideline file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    source: String,
    #[serde(default)]
    units: BTreeMap<String, String>,
    #[serde(default)]
    why: BTreeMap<String, String>,
}

/// The largest guideline file read: 1 MiB.
pub const GUIDELINE_FILE_LIMIT: u64 = 1 << 20;

/// The shipped presets, `(name, TOML text)`, in the order `guideline list` shows them.
pub const PRESETS: &[(&str, &str)] = presets::ALL;

impl Guideline {
    /// Parses a guideline from its TOML `text`; `origin` names it in errors (a path or
    /// `preset NAME`). Errors: [`GuidelineError::Invalid`] for malformed TOML, a missing or
    /// empty `name`, an unknown key or unit kind, a choice the kind does not take.
    pub fn parse(text: &str, origin: &str) -> Result<Guideline, GuidelineError> {
        let invalid = |message: String| GuidelineError::Invalid {
            origin: origin.to_string(),
            message,
        };
        let file: File = toml::from_str(text).map_err(|e| invalid(e.message().to_string()))?;
        if file.name.trim().is_empty() {
            return Err(invalid("`name` is empty".into()));
        }
        let kinds = || {
            UnitKind::ALL
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut choices = BTreeMap::new();
        for (key, value) in &file.units {
            let kind = UnitKind::from_name(key).ok_or_else(|| {
                invalid(format!(
                    "[units] {key}: no such unit kind (kinds: {})",
                    kinds()
                ))
            })?;
            let choice = Choice::parse(kind, value).ok_or_else(|| {
                let takes = if kind == UnitKind::Posts {
                    "in, out, extracted, all, first or question-and-answers"
                } else {
                    "in, out or extracted"
                };
                invalid(format!("[units] {key} = {value:?}: takes {takes}"))
            })?;
            if choices.insert(kind, choice).is_some() {
                return Err(invalid(format!("[units] {key}: given twice")));
            }
        }
        let mut why = BTreeMap::new();
        for (key, value) in file.why {
            let kind = UnitKind::from_name(&key).ok_or_else(|| {
                invalid(format!(
                    "[why] {key}: no such unit kind (kinds: {})",
                    kinds()
                ))
            })?;
            why.insert(kind, value.trim().to_string());
        }
        Ok(Guideline {
            name: file.name.trim().to_string(),
            title: file.title.trim().to_string(),
            source: file.source.trim().to_string(),
            choices,
            why,
            origin: origin.to_string(),
        })
    }

    /// A shipped preset by name (ASCII case-insensitive).
    pub fn preset(name: &str) -> Option<Guideline> {
        let (n, text) = PRESETS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))?;
        Guideline::parse(text, &format!("preset {n}")).ok()
    }

    /// A preset name, else a guideline file (read as a regular file of at most
    /// [`GUIDELINE_FILE_LIMIT`] bytes). Errors: [`GuidelineError::NotFound`],
    /// [`GuidelineError::Invalid`].
    pub fn load(name_or_file: &str) -> Result<Guideline, GuidelineError> {
        if let Some(g) = Guideline::preset(name_or_file) {
            return Ok(g);
        }
        let path = PathBuf::from(name_or_file);
        let text = read_file(&path).map_err(|cause| GuidelineError::NotFound {
            name: name_or_file.to_string(),
            presets: PRESETS
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", "),
            cause,
        })?;
        Guideline::parse(&text, &crate::fsio::write::printable_path(&path))
    }

    /// The choice for `kind`.
    pub fn choice(&self, kind: UnitKind) -> Choice {
        self.choices
            .get(&kind)
            .copied()
            .unwrap_or(Choice::Extracted)
    }

    /// The file's reason for the choice on `kind`, if it gives one.
    pub fn why(&self, kind: UnitKind) -> Option<&str> {
        self.why.get(&kind).map(String::as_str)
    }

    /// Does every kind keep the extractor's decision (the guideline changes nothing)?
    pub fn is_identity(&self) -> bool {
        UnitKind::ALL
            .iter()
            .all(|&k| self.choice(k) == Choice::Extracted)
    }

    /// The content hash gold files record: SHA-256 (lower-case hex) of one line
    /// `kind=choice\n` per unit kind in [`UnitKind::ALL`] order — the decisions only, so a
    /// reworded reason or source keeps the hash, another choice changes it.
    pub fn hash(&self) -> String {
        let mut h = Sha256::new();
        for k in UnitKind::ALL {
            h.update(format!("{}={}\n", k.name(), self.choice(k).name()).as_bytes());
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The reference a gold file records.
    pub fn reference(&self) -> GuidelineRef {
        GuidelineRef {
            name: self.name.clone(),
            sha256: self.hash(),
        }
    }

    /// The guideline as the status bar and `guideline show` say it in one line: `article:
    /// headline out · byline out · …` (kinds left to the extractor are not named).
    pub fn summary(&self) -> String {
        let decided: Vec<String> = UnitKind::ALL
            .iter()
            .filter(|&&k| self.choice(k) != Choice::Extracted)
            .map(|&k| format!("{} {}", k.name(), self.choice(k).name_for(k)))
            .collect();
        if decided.is_empty() {
            format!("{}: every kind as extracted", self.name)
        } else {
            format!("{}: {}", self.name, decided.join(" · "))
        }
    }

    /// Applies the guideline to the selection `sel` of `page` whose units are `units` (see
    /// the module documentation). O(blocks · depth + units + selected ranges).
    pub fn apply(&self, page: &Page, sel: &Selection, units: &Units) -> Applied {
        let mut out = Applied {
            selection: sel.clone(),
            ..Applied::default()
        };
        if self.is_identity() || units.units().is_empty() {
            return out;
        }
        let blocks = page.blocks();
        let dom = page.dom();
        let scope = content_scope(page, sel);
        let mut add = Selection::new();
        let mut remove = Selection::new();
        // Posts: the threads one of whose posts belongs.
        let threads: Vec<usize> = match scope.as_ref() {
            Some(s) => units
                .of_kind(UnitKind::Posts)
                .filter(|u| belongs(page, s, u.node, &u.blocks, UnitKind::Posts))
                .filter_map(|u| u.group)
                .collect(),
            None => Vec::new(),
        };
        for u in units.units() {
            let choice = self.choice(u.kind);
            // A unit around the whole content is the content, not a part beside it: it is
            // never removed (a product page's description in an <aside>, a thread whose every
            // post the page calls a comment).
            let holds_content = scope.as_ref().is_some_and(|s| dom.contains(u.node, s.node));
            let text = || {
                if holds_content {
                    Selection::new()
                } else {
                    units.selection(blocks, u)
                }
            };
            // What an addition adds: the unit's blocks but those in a form (a comment form's
            // labels are not comments).
            let added = || {
                Selection::from_ranges(
                    u.blocks
                        .clone()
                        .filter(|&i| !blocks.get(i).within.contains(Within::FORM))
                        .flat_map(|i| blocks.ranges(i).iter().cloned()),
                )
            };
            let mut changed = false;
            match (u.kind, choice) {
                (_, Choice::Extracted) => {}
                (_, Choice::Out) => {
                    remove = remove.union(&text());
                    changed = true;
                }
                (UnitKind::Posts, c) => {
                    let in_thread = u.group.is_some_and(|g| threads.contains(&g));
                    let first = u.post.is_none_or(|(k, _)| k == 0);
                    if c == Choice::First && !first {
                        remove = remove.union(&text());
                        changed = true;
                    } else if in_thread {
                        add = add.union(&added());
                        changed = true;
                    }
                }
                (kind, c)
                    if c.adds()
                        && scope
                            .as_ref()
                            .is_some_and(|s| belongs(page, s, u.node, &u.blocks, kind)) =>
                {
                    add = add.union(&added());
                    changed = true;
                }
                _ => {}
            }
            // Question and answers: the comments inside posts go.
            if u.kind == UnitKind::Comments
                && self.choice(UnitKind::Posts) == Choice::QuestionAndAnswers
                && units.at_block(u.blocks.start).any(|p| {
                    p.kind == UnitKind::Posts && p.node != u.node && dom.contains(p.node, u.node)
                })
            {
                remove = remove.union(&text());
                changed = true;
            }
            if changed {
                *out.units.entry(u.kind).or_default() += 1;
            }
        }
        let result = sel.union(&add).difference(&remove);
        out.added = result.difference(sel);
        out.removed = sel.difference(&result);
        out.selection = result;
        out
    }
}

/// What [`Guideline::apply`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Applied {
    /// The selection after the guideline.
    pub selection: Selection,
    /// Bytes it added.
    pub added: Selection,
    /// Bytes it removed.
    pub removed: Selection,
    /// Units the guideline acted on (added or removed, whether or not that changed bytes), by
    /// kind.
    pub units: BTreeMap<UnitKind, usize>,
}

/// The content scope of `sel` (see the module documentation): the deepest element holding at
/// least 80 % of the words of the blocks `sel` selects, with the first and last selected
/// block. `None` when `sel` selects no block.
fn content_scope(page: &Page, sel: &Selection) -> Option<Scope> {
    let blocks = page.blocks();
    let dom = page.dom();
    let selected: Vec<usize> = (0..blocks.len())
        .filter(|&i| {
            let covered: usize = blocks
                .ranges(i)
                .iter()
                .map(|r| {
                    Selection::from_range(r.clone())
                        .intersection(sel)
                        .len_bytes()
                })
                .sum();
            covered > 0 && 2 * covered >= blocks.len_bytes(i)
        })
        .collect();
    let (&first, &last) = (selected.first()?, selected.last()?);
    // Weight: words (at least 1, so wordless selected blocks still count).
    let mut under = vec![0u64; dom.len()];
    let mut total = 0u64;
    for &i in &selected {
        let w = u64::from(blocks.get(i).features.words.max(1));
        total += w;
        let mut cur = Some(blocks.get(i).container);
        while let Some(e) = cur {
            under[e] += w;
            cur = dom.parent(e);
        }
    }
    let mut node: NodeId = 0;
    loop {
        let next = dom
            .children(node)
            .find(|&c| dom.kind(c) == NodeKind::Element && 5 * under[c] >= 4 * total);
        match next {
            Some(c) => node = c,
            None => break,
        }
    }
    Some(Scope { node, first, last })
}

/// The content scope of a selection.
#[derive(Debug, Clone, Copy)]
struct Scope {
    /// The element.
    node: NodeId,
    /// The first and last selected block.
    first: usize,
    last: usize,
}

/// Does the unit (element `node`, `blocks`) of `kind` belong to the content of `scope`? (See
/// the module documentation: inside kinds and around kinds.)
fn belongs(
    page: &Page,
    scope: &Scope,
    node: NodeId,
    blocks: &Range<usize>,
    kind: UnitKind,
) -> bool {
    let dom = page.dom();
    if dom.contains(scope.node, node) {
        return true;
    }
    let reach = match kind {
        // The page's headline is the content's, wherever the page puts it.
        UnitKind::Headline => return true,
        UnitKind::Caption
        | UnitKind::Table
        | UnitKind::Code
        | UnitKind::LinkList
        | UnitKind::Supplemental => {
            let parent = dom.parent(scope.node);
            return parent.is_some_and(|p| dom.contains(p, node))
                && blocks.start >= scope.first
                && blocks.end <= scope.last + 1;
        }
        UnitKind::Byline => 3,
        UnitKind::Comments | UnitKind::Posts | UnitKind::PostMeta | UnitKind::Related => 5,
    };
    // Around: the lowest common ancestor at most `reach` elements above the scope…
    let mut up = 0;
    let mut lca = Some(scope.node);
    while let Some(a) = lca {
        if dom.contains(a, node) {
            break;
        }
        if dom.kind(a) == NodeKind::Element {
            up += 1;
        }
        lca = dom.parent(a);
    }
    let Some(lca) = lca else {
        return false;
    };
    if up > reach {
        return false;
    }
    // …and no navigation, sidebar, widget or footer between it and the unit.
    let marks = PageMarks::of(page);
    let masks = &marks.groups;
    let away = ["nav", "menu", "sidebar", "widget", "footer", "ad"]
        .iter()
        .map(|g| group_bit(g))
        .fold(0u64, |m, b| m | b);
    let mut cur = Some(node);
    while let Some(e) = cur {
        if e == lca {
            break;
        }
        if dom.kind(e) == NodeKind::Element
            && (matches!(dom.tag(e), Tag::Nav | Tag::Aside | Tag::Footer) || masks[e] & away != 0)
        {
            return false;
        }
        cur = dom.parent(e);
    }
    true
}

/// The bit of the learner's keyword group `name` ([`KEYWORD_GROUPS`]); 0 for an unknown name.
fn group_bit(name: &str) -> u64 {
    KEYWORD_GROUPS
        .iter()
        .position(|(n, _)| *n == name)
        .map_or(0, |g| 1 << g)
}

/// Reads a guideline file: a regular file of at most [`GUIDELINE_FILE_LIMIT`] bytes, UTF-8.
fn read_file(path: &Path) -> Result<String, String> {
    let bytes =
        crate::fsio::read::read_regular(path, GUIDELINE_FILE_LIMIT).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())
}

/// The last step `gold mark --guideline` gives each marked page: `g` applied to the marked
/// selection with the page's units ([`guided::page_units`]), and the reference the gold files
/// record.
pub fn mark_finish(g: &Arc<Guideline>) -> crate::gold::commands::MarkFinish {
    let g2 = Arc::clone(g);
    crate::gold::commands::MarkFinish {
        guideline: g.reference(),
        apply: Arc::new(move |page: &Page, sel: &Selection| {
            g2.apply(page, sel, &guided::page_units(page)).selection
        }),
    }
}

/// The shared guideline of a run, when one was asked for: `None` for `None` (no
/// `--guideline`). Errors as [`Guideline::load`].
pub fn load_optional(name: Option<&str>) -> Result<Option<Arc<Guideline>>, GuidelineError> {
    name.map(|n| Guideline::load(n).map(Arc::new)).transpose()
}

#[cfg(test)]
mod tests;
