//! Keymaps of the inspector: which key triggers which [`Action`].
//!
//! Two keymaps are built in, `default` (arrow keys and mnemonic letters) and
//! `vim` (hjkl, `g`/`G`, `ctrl-f`/`ctrl-b`, …); they live in
//! `keymaps/default.toml` and `keymaps/vim.toml` and are compiled into the
//! binary. A keymap can also be loaded from any TOML file
//! ([`Keymap::load`]), and the user file `<config dir>/cescope/keymap.toml`
//! is merged on top of the chosen keymap ([`Keymap::with_user_overrides`]).
//!
//! # File format
//!
//! ```toml
//! # cescope keymap: action = [keys...]
//! [keys]
//! quit = ["q", "ctrl-c"]
//! help = ["?", "f1"]
//! cursor_down = ["j", "down"]
//! ```
//!
//! * Action names are the snake_case names of [`Action`] (see
//!   [`Action::name`]); an unknown name is an error.
//! * A key is a single character (`"q"`, `"G"`, `"?"`, `"+"`, `"-"`, `"["`)
//!   or a named key: `up`, `down`, `left`, `right`, `pageup`, `pagedown`,
//!   `home`, `end`, `enter`, `esc`, `tab`, `backtab`, `space`, `backspace`,
//!   `delete`, `insert`, `f1`…`f24`. Modifiers are written as prefixes:
//!   `ctrl-`, `alt-`, `shift-`, `super-` (`"ctrl-c"`, `"shift-tab"`,
//!   `"ctrl--"`). Modifier and key names are case-insensitive; single
//!   characters are not. An uppercase letter needs no `shift-` (`"G"` and
//!   `"shift-g"` are the same key); `"shift-tab"` is the same as `"backtab"`.
//! * When a file is *merged* on top of a keymap, every action it lists has
//!   its keys *replaced* (an empty list unbinds the action); actions it does
//!   not list keep their keys. A file loaded as a keymap of its own binds
//!   only the actions it lists.
//! * After loading or merging, one key may be bound to only one action;
//!   otherwise the result is a [`KeymapError::Conflict`].

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use serde::Deserialize;
use toml::Spanned;

macro_rules! actions {
    ($($variant:ident => $name:literal, $group:literal, $desc:literal;)*) => {
        /// Something the user can ask the inspector to do with a key.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Action {
            $(
                #[doc = $desc]
                $variant,
            )*
        }

        impl Action {
            /// Every action, grouped by help group (see [`Action::GROUPS`]).
            pub const ALL: &'static [Action] = &[$(Action::$variant,)*];

            /// The snake_case name used in keymap files.
            pub fn name(self) -> &'static str {
                match self {
                    $(Action::$variant => $name,)*
                }
            }

            /// One-line description shown in the help overlay.
            pub fn description(self) -> &'static str {
                match self {
                    $(Action::$variant => $desc,)*
                }
            }

            /// The help-overlay group this action belongs to (one of
            /// [`Action::GROUPS`]).
            pub fn group(self) -> &'static str {
                match self {
                    $(Action::$variant => $group,)*
                }
            }
        }
    };
}

actions! {
    Quit => "quit", "general", "quit (asks first when there are unsaved changes)";
    Help => "help", "general", "show / hide this help";
    Cancel => "cancel", "general", "close overlay / cancel input";

    CursorDown => "cursor_down", "move", "cursor one line down";
    CursorUp => "cursor_up", "move", "cursor one line up";
    PageDown => "page_down", "move", "one page down";
    PageUp => "page_up", "move", "one page up";
    Top => "top", "move", "go to the first line";
    Bottom => "bottom", "move", "go to the last line";
    ScrollLeft => "scroll_left", "move", "scroll the source view left";
    ScrollRight => "scroll_right", "move", "scroll the source view right";
    NextRegion => "next_region", "move", "next selected region (compare: next difference from the gold)";
    PrevRegion => "prev_region", "move", "previous selected region (compare: previous difference from the gold)";
    NextBlock => "next_block", "move", "cursor to the next text block (each of a line in turn)";
    PrevBlock => "prev_block", "move", "cursor to the previous text block";
    NextRecord => "next_record", "move", "cursor to the next record: a post, comment or item";
    PrevRecord => "prev_record", "move", "cursor to the previous record (from inside one: its start)";
    NextOdd => "next_odd", "move", "cursor to the next block kept unlike the blocks like it (same path)";

    Search => "search", "find", "search the source (Enter; upper case makes it case-sensitive)";
    SearchNext => "search_next", "find", "next search match";
    SearchPrev => "search_prev", "find", "previous search match";
    GotoLine => "goto_line", "find", "go to a line number (type it, Enter)";
    JumpSeed => "jump_seed", "find", "jump to the active algorithm's seed region";
    JumpFirstSelected => "jump_first_selected", "find", "jump to the active algorithm's first selected line";
    JumpLastSelected => "jump_last_selected", "find", "jump to the active algorithm's last selected line";
    JumpHeadline => "jump_headline", "find", "jump to the headline (the gold's)";
    JumpBack => "jump_back", "find", "back to where the last jump started (jump list)";
    JumpForward => "jump_forward", "find", "forward again in the jump list";

    ToggleRawLines => "toggle_raw_lines", "view", "virtual lines / raw source lines";
    ToggleReading => "toggle_reading", "view", "reading view: the page's text as a reader sees it / the source";
    ToggleDiffView => "toggle_diff_view", "view", "histogram: content / code signals or the combined signal";
    ToggleExplain => "toggle_explain", "view", "explain panel";
    ToggleCorpus => "toggle_corpus", "view", "corpus page list";
    ToggleTable => "toggle_table", "view", "region / block table of the active algorithm (Enter jumps)";
    ToggleHeadlines => "toggle_headlines", "view", "headline candidates, same texts merged (Enter jumps, Y takes one)";
    ToggleBlocks => "toggle_blocks", "view", "the page's text blocks: features, verdicts (←→ sort, Enter jumps)";
    ShowGuideline => "show_guideline", "view", "the guideline's choices (which unit kinds are main content)";

    NextAlgorithm => "next_algorithm", "algorithms", "choose the active algorithm: next";
    PrevAlgorithm => "prev_algorithm", "algorithms", "choose the active algorithm: previous";
    PickAlgorithm => "pick_algorithm", "algorithms", "pick the active algorithm by name: type to filter, Enter chooses";
    ToggleOverlay => "toggle_overlay", "algorithms", "keep the active algorithm's overlay when another is active / not";
    PinSecond => "pin_second", "algorithms", "pin the active algorithm beside the next one chosen / unpin";
    ToggleGold => "toggle_gold", "algorithms", "show / hide the gold standard overlay";
    ToggleCompare => "toggle_compare", "algorithms", "compare with the gold: true / false positives, false negatives";
    NextFalsePositive => "next_false_positive", "algorithms", "next false positive: words selected, not in the gold";
    NextFalseNegative => "next_false_negative", "algorithms", "next false negative: gold words not selected";

    NextParam => "next_param", "parameters", "focus the next slider";
    PrevParam => "prev_param", "parameters", "focus the previous slider";
    ParamInc => "param_inc", "parameters", "move the focused slider one step up";
    ParamDec => "param_dec", "parameters", "move the focused slider one step down";
    ParamIncBig => "param_inc_big", "parameters", "move the focused slider ten steps up";
    ParamDecBig => "param_dec_big", "parameters", "move the focused slider ten steps down";
    ParamReset => "param_reset", "parameters", "focused slider back to the published default";

    StepMode => "step_mode", "teaching", "step mode: walk the algorithm's phases";
    StepNext => "step_next", "teaching", "step mode: next phase";
    StepPrev => "step_prev", "teaching", "step mode: previous phase";

    Visual => "visual", "annotate", "visual mode: select lines (drag the mouse to select characters)";
    Include => "include", "annotate", "add the selection (or cursor line, then down) to main content";
    Exclude => "exclude", "annotate", "remove the selection (or cursor line, then down) from main content";
    KeepUnit => "keep_unit", "annotate", "keep a unit: b block, r record, g group, p same path, t same text";
    StrikeUnit => "strike_unit", "annotate", "strike a unit: b block, r record, g group, p same path, t same text";
    ToggleRecords => "toggle_records", "annotate", "records panel: posts, comments, items (I keeps, X strikes, Enter jumps)";
    MarkHeadline => "mark_headline", "annotate", "mark the selection (or the cursor line) as the headline";
    TakeDraft => "take_draft", "annotate", "take the active algorithm's selection as a draft, go to its start";
    TakeHeadline => "take_headline", "annotate", "take the suggested headline as the gold headline";
    Undo => "undo", "annotate", "undo the last annotation change";
    Redo => "redo", "annotate", "redo";
    Save => "save", "annotate", "save the gold standard (.bak of an older file; empty: asks first)";
    DeclareNoMainContent => "declare_no_main_content", "annotate", "this page has no main content: empty it, note [no main content]";
    Recover => "recover", "annotate", "restore the autosaved recovery file";
    Review => "review", "annotate", "review drafts: a accept, f flag, s skip, n note, Esc leaves";

    NextPage => "next_page", "corpus", "next corpus page";
    PrevPage => "prev_page", "corpus", "previous corpus page";
    Filter => "filter", "corpus", "filter pages by name";
    NextUnannotated => "next_unannotated", "corpus", "next page without a gold standard";
    OrderByUncertainty => "order_by_uncertainty", "corpus", "order pages and the review by the model's uncertainty / page order";
}

impl Action {
    /// The help groups, in the order the help overlay shows them (the order
    /// of [`Action::ALL`]).
    pub const GROUPS: &'static [&'static str] = &[
        "general",
        "move",
        "find",
        "view",
        "algorithms",
        "parameters",
        "teaching",
        "annotate",
        "corpus",
    ];

    /// The action with this snake_case name, if any.
    pub fn from_name(name: &str) -> Option<Action> {
        Action::ALL.iter().copied().find(|a| a.name() == name)
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a key string could not be parsed (see [`KeySpec::parse`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct KeyParseError(String);

/// One key with its modifiers, normalised so that it compares equal to the
/// [`KeyEvent`]s terminals send for it.
///
/// Normalisation: for character keys `SHIFT` is dropped (a shifted lowercase
/// letter becomes the uppercase letter), so `"G"` matches `Char('G')` with or
/// without `SHIFT`; `Tab` with `SHIFT` becomes `BackTab` and `BackTab` drops
/// `SHIFT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeySpec {
    /// The key.
    pub code: KeyCode,
    /// Its modifiers (never `SHIFT` for character keys and `BackTab`).
    pub modifiers: KeyModifiers,
}

const MODIFIER_PREFIXES: &[(&str, KeyModifiers)] = &[
    ("ctrl-", KeyModifiers::CONTROL),
    ("control-", KeyModifiers::CONTROL),
    ("alt-", KeyModifiers::ALT),
    ("shift-", KeyModifiers::SHIFT),
    ("super-", KeyModifiers::SUPER),
];

const NAMED_KEYS: &[(&str, KeyCode)] = &[
    ("up", KeyCode::Up),
    ("down", KeyCode::Down),
    ("left", KeyCode::Left),
    ("right", KeyCode::Right),
    ("pageup", KeyCode::PageUp),
    ("pgup", KeyCode::PageUp),
    ("pagedown", KeyCode::PageDown),
    ("pgdn", KeyCode::PageDown),
    ("home", KeyCode::Home),
    ("end", KeyCode::End),
    ("enter", KeyCode::Enter),
    ("return", KeyCode::Enter),
    ("esc", KeyCode::Esc),
    ("escape", KeyCode::Esc),
    ("tab", KeyCode::Tab),
    ("backtab", KeyCode::BackTab),
    ("space", KeyCode::Char(' ')),
    ("backspace", KeyCode::Backspace),
    ("delete", KeyCode::Delete),
    ("del", KeyCode::Delete),
    ("insert", KeyCode::Insert),
    ("ins", KeyCode::Insert),
];

impl KeySpec {
    /// A normalised key spec (see the type documentation).
    pub fn new(code: KeyCode, modifiers: KeyModifiers) -> KeySpec {
        let mut code = code;
        let mut modifiers = modifiers;
        match code {
            KeyCode::Char(c) if modifiers.contains(KeyModifiers::SHIFT) => {
                modifiers.remove(KeyModifiers::SHIFT);
                let mut upper = c.to_uppercase();
                if let (Some(u), None) = (upper.next(), upper.next()) {
                    code = KeyCode::Char(u);
                }
            }
            KeyCode::Tab if modifiers.contains(KeyModifiers::SHIFT) => {
                code = KeyCode::BackTab;
                modifiers.remove(KeyModifiers::SHIFT);
            }
            KeyCode::BackTab => modifiers.remove(KeyModifiers::SHIFT),
            _ => {}
        }
        KeySpec { code, modifiers }
    }

    /// The normalised key of a terminal key event (its kind is not looked at).
    pub fn from_event(ev: &KeyEvent) -> KeySpec {
        KeySpec::new(ev.code, ev.modifiers)
    }

    /// Parses a key as written in keymap files: `"q"`, `"G"`, `"ctrl-c"`,
    /// `"shift-tab"`, `"pagedown"`, `"f1"`, `"?"`, `"space"`, …
    pub fn parse(s: &str) -> Result<KeySpec, KeyParseError> {
        if s.is_empty() {
            return Err(KeyParseError("empty key".into()));
        }
        let mut modifiers = KeyModifiers::NONE;
        let mut rest = s;
        'prefixes: loop {
            for &(prefix, m) in MODIFIER_PREFIXES {
                let is_prefix = rest
                    .get(..prefix.len())
                    .is_some_and(|p| p.eq_ignore_ascii_case(prefix));
                if is_prefix && rest.len() > prefix.len() {
                    modifiers |= m;
                    rest = &rest[prefix.len()..];
                    continue 'prefixes;
                }
            }
            break;
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) => KeyCode::Char(c),
            _ => {
                let lower = rest.to_ascii_lowercase();
                if let Some(&(_, code)) = NAMED_KEYS.iter().find(|(n, _)| *n == lower) {
                    code
                } else if let Some(n) = lower
                    .strip_prefix('f')
                    .and_then(|n| n.parse::<u8>().ok())
                    .filter(|n| (1..=24).contains(n))
                {
                    KeyCode::F(n)
                } else {
                    return Err(KeyParseError(format!(
                        "unknown key name `{rest}` (expected a single character, \
                         a named key like `pagedown` or `f1`, with optional \
                         `ctrl-`/`alt-`/`shift-` prefixes)"
                    )));
                }
            }
        };
        Ok(KeySpec::new(code, modifiers))
    }

    /// Whether a terminal key event is this key (the event kind is ignored).
    pub fn matches(&self, ev: &KeyEvent) -> bool {
        KeySpec::from_event(ev) == *self
    }
}

impl std::str::FromStr for KeySpec {
    type Err = KeyParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        KeySpec::parse(s)
    }
}

impl fmt::Display for KeySpec {
    /// The canonical spelling, which [`KeySpec::parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut modifiers = self.modifiers;
        if self.code == KeyCode::BackTab {
            modifiers |= KeyModifiers::SHIFT;
        }
        for (flag, prefix) in [
            (KeyModifiers::CONTROL, "ctrl-"),
            (KeyModifiers::ALT, "alt-"),
            (KeyModifiers::SHIFT, "shift-"),
            (KeyModifiers::SUPER, "super-"),
            (KeyModifiers::HYPER, "hyper-"),
            (KeyModifiers::META, "meta-"),
        ] {
            if modifiers.contains(flag) {
                f.write_str(prefix)?;
            }
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::F(n) => write!(f, "f{n}"),
            KeyCode::BackTab => f.write_str("tab"),
            code => match NAMED_KEYS.iter().find(|(_, c)| *c == code) {
                Some((name, _)) => f.write_str(name),
                None => write!(f, "{}", format!("{code:?}").to_ascii_lowercase()),
            },
        }
    }
}

/// Errors from loading or merging keymaps. Every message is one line and
/// names the file (or builtin) it comes from.
#[derive(Debug, thiserror::Error)]
pub enum KeymapError {
    /// Not a builtin keymap name, and no such file.
    #[error("unknown keymap `{name}`: not a builtin keymap (default, vim) and no such file")]
    UnknownKeymap {
        /// The name or path asked for.
        name: String,
    },
    /// The keymap file could not be read.
    #[error("cannot read keymap file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid TOML or not in the keymap format.
    #[error("{origin}:{line}:{column}: invalid keymap file: {message}")]
    Toml {
        /// The file (or builtin) name.
        origin: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
        /// The TOML parser's message.
        message: String,
    },
    /// An action name that is not one of [`Action::ALL`].
    #[error("{origin}:{line}:{column}: unknown action `{name}`{hint}")]
    UnknownAction {
        /// The file (or builtin) name.
        origin: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
        /// The unknown name.
        name: String,
        /// `" (did you mean `x`?)"` or empty.
        hint: String,
    },
    /// A key string that [`KeySpec::parse`] rejects.
    #[error("{origin}:{line}:{column}: bad key `{key}` for action `{action}`: {reason}")]
    BadKey {
        /// The file (or builtin) name.
        origin: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
        /// The action the key was meant for.
        action: Action,
        /// The key as written.
        key: String,
        /// Why it does not parse.
        reason: String,
    },
    /// One key bound to two actions.
    #[error("{origin}: key `{key}` is bound to both `{first}` and `{second}`")]
    Conflict {
        /// The file (or builtin) whose loading or merging caused the conflict.
        origin: String,
        /// The key, canonically spelled.
        key: String,
        /// The action listed first in [`Action::ALL`].
        first: Action,
        /// The other action.
        second: Action,
    },
}

/// One line of the help overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpRow {
    /// The action's help group ([`Action::group`]).
    pub group: &'static str,
    /// The bound keys, comma-separated (`"j, down"`), or `"(unbound)"`.
    pub keys: String,
    /// The action's description ([`Action::description`]).
    pub description: &'static str,
}

/// A validated mapping between keys and [`Action`]s: no key triggers two
/// actions.
#[derive(Debug, Clone)]
pub struct Keymap {
    name: String,
    /// Indexed by `Action as usize`.
    bindings: Vec<Vec<KeySpec>>,
    lookup: HashMap<KeySpec, Action>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KeymapFile {
    #[serde(default)]
    keys: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
}

const BUILTINS: &[(&str, &str)] = &[
    ("default", include_str!("../../keymaps/default.toml")),
    ("vim", include_str!("../../keymaps/vim.toml")),
];

impl Default for Keymap {
    /// The builtin `default` keymap.
    fn default() -> Self {
        Keymap::builtin("default").expect("the default keymap is builtin")
    }
}

impl Keymap {
    /// Names of the builtin keymaps.
    pub const BUILTIN_NAMES: &'static [&'static str] = &["default", "vim"];

    /// A keymap with no bindings.
    fn empty(name: &str) -> Keymap {
        Keymap {
            name: name.to_string(),
            bindings: vec![Vec::new(); Action::ALL.len()],
            lookup: HashMap::new(),
        }
    }

    /// A builtin keymap (`"default"` or `"vim"`), or `None` for other names.
    pub fn builtin(name: &str) -> Option<Keymap> {
        let (name, text) = BUILTINS.iter().find(|(n, _)| *n == name)?;
        let mut map = Keymap::empty(name);
        map.merge_from_str(text, &format!("keymaps/{name}.toml"))
            .unwrap_or_else(|e| panic!("builtin keymap is invalid: {e}"));
        Some(map)
    }

    /// A builtin keymap by name, otherwise a keymap file (which binds only
    /// the actions it lists).
    pub fn load(name_or_path: &str) -> Result<Keymap, KeymapError> {
        if let Some(map) = Keymap::builtin(name_or_path) {
            return Ok(map);
        }
        let path = Path::new(name_or_path);
        let looks_like_name = path.components().count() == 1 && path.extension().is_none();
        if looks_like_name && !path.exists() {
            return Err(KeymapError::UnknownKeymap {
                name: name_or_path.to_string(),
            });
        }
        let mut map = Keymap::empty(name_or_path);
        map.merge_file(path)?;
        Ok(map)
    }

    /// The user's keymap override file, `<config dir>/cescope/keymap.toml`
    /// (whether or not it exists).
    pub fn user_keymap_path() -> Option<PathBuf> {
        crate::config::dir().map(|d| d.join("keymap.toml"))
    }

    /// This keymap with the user's override file ([`Keymap::user_keymap_path`])
    /// merged on top, when that file exists.
    pub fn with_user_overrides(mut self) -> Result<Keymap, KeymapError> {
        if let Some(path) = Keymap::user_keymap_path().filter(|p| p.is_file()) {
            self.merge_file(&path)?;
        }
        Ok(self)
    }

    /// Merges a keymap file (see [`Keymap::merge_from_str`]).
    pub fn merge_file(&mut self, path: &Path) -> Result<(), KeymapError> {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| KeymapError::Io {
            path: origin.clone(),
            source,
        })?;
        self.merge_from_str(&text, &origin)
    }

    /// Merges keymap TOML: every action listed gets exactly the listed keys.
    /// `origin` names the source in error messages. On error the keymap is
    /// left unchanged.
    pub fn merge_from_str(&mut self, toml: &str, origin: &str) -> Result<(), KeymapError> {
        let file: KeymapFile = toml::from_str(toml).map_err(|e| {
            let (line, column) = line_col(toml, e.span().map_or(0, |s| s.start));
            KeymapError::Toml {
                origin: origin.to_string(),
                line,
                column,
                message: e.message().trim().replace('\n', "; "),
            }
        })?;
        let mut entries: Vec<_> = file.keys.into_iter().collect();
        entries.sort_by_key(|(name, _)| name.span().start);

        let mut bindings = self.bindings.clone();
        for (name, keys) in entries {
            let action = Action::from_name(name.get_ref()).ok_or_else(|| {
                let (line, column) = line_col(toml, name.span().start);
                KeymapError::UnknownAction {
                    origin: origin.to_string(),
                    line,
                    column,
                    name: name.get_ref().clone(),
                    hint: suggestion(name.get_ref()),
                }
            })?;
            let mut specs = Vec::with_capacity(keys.len());
            for key in keys {
                let spec = KeySpec::parse(key.get_ref()).map_err(|reason| {
                    let (line, column) = line_col(toml, key.span().start);
                    KeymapError::BadKey {
                        origin: origin.to_string(),
                        line,
                        column,
                        action,
                        key: key.get_ref().clone(),
                        reason: reason.0,
                    }
                })?;
                if !specs.contains(&spec) {
                    specs.push(spec);
                }
            }
            bindings[action.index()] = specs;
        }

        let mut lookup = HashMap::new();
        for &action in Action::ALL {
            for &spec in &bindings[action.index()] {
                if let Some(&first) = lookup.get(&spec) {
                    return Err(KeymapError::Conflict {
                        origin: origin.to_string(),
                        key: spec.to_string(),
                        first,
                        second: action,
                    });
                }
                lookup.insert(spec, action);
            }
        }
        self.bindings = bindings;
        self.lookup = lookup;
        Ok(())
    }

    /// The action a key press triggers; `None` for unbound keys and for
    /// release / repeat events.
    pub fn action(&self, ev: &KeyEvent) -> Option<Action> {
        if ev.kind != KeyEventKind::Press {
            return None;
        }
        self.lookup.get(&KeySpec::from_event(ev)).copied()
    }

    /// The keys bound to an action, in file order.
    pub fn keys(&self, a: Action) -> &[KeySpec] {
        &self.bindings[a.index()]
    }

    /// The keys bound to an action as shown in help: `"j, down"`, or
    /// `"(unbound)"`.
    pub fn keys_label(&self, a: Action) -> String {
        let keys = self.keys(a);
        if keys.is_empty() {
            return "(unbound)".to_string();
        }
        keys.iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// One help row per action, in [`Action::ALL`] order (so grouped by
    /// [`Action::GROUPS`]).
    pub fn help_rows(&self) -> Vec<HelpRow> {
        Action::ALL
            .iter()
            .map(|&a| HelpRow {
                group: a.group(),
                keys: self.keys_label(a),
                description: a.description(),
            })
            .collect()
    }

    /// The keymap's name: the builtin name or the file path it was loaded
    /// from.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// `" (did you mean `x`?)"` for the closest action name, if it is close.
fn suggestion(name: &str) -> String {
    Action::ALL
        .iter()
        .map(|a| (strsim::levenshtein(name, a.name()), a.name()))
        .filter(|&(d, _)| d <= 3)
        .min()
        .map_or_else(String::new, |(_, n)| format!(" (did you mean `{n}`?)"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEventState;

    fn press(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    /// A misspelt action name is answered with the closest name (fewest single-character
    /// edits, strsim's Levenshtein distance), only within three edits.
    #[test]
    fn suggestions_are_the_closest_action_names() {
        assert_eq!(suggestion("cursor_dwn"), " (did you mean `cursor_down`?)");
        assert_eq!(suggestion("qiut"), " (did you mean `quit`?)");
        assert_eq!(
            suggestion("toggle_raw_line"),
            " (did you mean `toggle_raw_lines`?)"
        );
        assert_eq!(suggestion("completely_unknown"), "");
    }

    fn key(s: &str) -> KeySpec {
        KeySpec::parse(s).unwrap()
    }

    fn builtins() -> Vec<Keymap> {
        Keymap::BUILTIN_NAMES
            .iter()
            .map(|n| Keymap::builtin(n).unwrap())
            .collect()
    }

    #[test]
    fn action_names_round_trip_and_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for &a in Action::ALL {
            assert_eq!(Action::from_name(a.name()), Some(a));
            assert!(seen.insert(a.name()));
            assert!(Action::GROUPS.contains(&a.group()), "{a:?}");
            assert!(!a.description().is_empty());
        }
        assert_eq!(Action::ALL.len(), 76);
        assert_eq!(Action::from_name("nope"), None);
        for (i, &a) in Action::ALL.iter().enumerate() {
            assert_eq!(a.index(), i);
        }
    }

    #[test]
    fn both_builtins_load_and_bind_every_action() {
        for map in builtins() {
            for &a in Action::ALL {
                assert!(!map.keys(a).is_empty(), "{}: {a:?} unbound", map.name());
            }
        }
        assert!(Keymap::builtin("emacs").is_none());
        assert_eq!(Keymap::load("vim").unwrap().name(), "vim");
        assert_eq!(Keymap::default().name(), "default");
    }

    #[test]
    fn builtins_have_no_duplicate_keys() {
        // Conflicts are rejected while loading; also check the raw files
        // for a key listed twice under one action.
        for (name, text) in BUILTINS {
            let file: KeymapFile = toml::from_str(text).unwrap();
            let mut all = Vec::new();
            for keys in file.keys.values() {
                for k in keys {
                    let spec = key(k.get_ref());
                    assert!(!all.contains(&spec), "{name}: `{spec}` listed twice");
                    all.push(spec);
                }
            }
            let map = Keymap::builtin(name).unwrap();
            assert_eq!(map.lookup.len(), all.len());
        }
    }

    #[test]
    fn q_quits_and_question_mark_helps_in_both() {
        for map in builtins() {
            let q = press(KeyCode::Char('q'), KeyModifiers::NONE);
            assert_eq!(map.action(&q), Some(Action::Quit), "{}", map.name());
            let help = press(KeyCode::Char('?'), KeyModifiers::NONE);
            assert_eq!(map.action(&help), Some(Action::Help));
            // Some terminals report '?' with SHIFT.
            let help = press(KeyCode::Char('?'), KeyModifiers::SHIFT);
            assert_eq!(map.action(&help), Some(Action::Help));
            let ctrl_c = press(KeyCode::Char('c'), KeyModifiers::CONTROL);
            assert_eq!(map.action(&ctrl_c), Some(Action::Quit));
        }
    }

    #[test]
    fn parse_display_round_trip() {
        let canonical = [
            "q",
            "G",
            "ctrl-c",
            "shift-tab",
            "pagedown",
            "pageup",
            "home",
            "end",
            "up",
            "down",
            "left",
            "right",
            "enter",
            "esc",
            "tab",
            "space",
            "backspace",
            "delete",
            "insert",
            "?",
            "+",
            "-",
            "[",
            "]",
            "{",
            "}",
            "/",
            ".",
            ",",
            "0",
            "=",
            "ctrl--",
            "alt-x",
            "ctrl-alt-delete",
            "shift-up",
            "ctrl-A",
            "f1",
            "f2",
            "f3",
            "f4",
            "f5",
            "f6",
            "f7",
            "f8",
            "f9",
            "f10",
            "f11",
            "f12",
        ];
        for s in canonical {
            let spec = key(s);
            assert_eq!(spec.to_string(), s);
            assert_eq!(key(&spec.to_string()), spec);
        }
        let aliases = [
            ("backtab", "shift-tab"),
            ("shift-g", "G"),
            ("SHIFT-g", "G"),
            ("Ctrl-C", "ctrl-C"),
            ("CTRL-c", "ctrl-c"),
            ("control-c", "ctrl-c"),
            ("PageDown", "pagedown"),
            ("pgdn", "pagedown"),
            ("escape", "esc"),
            ("return", "enter"),
            ("shift-?", "?"),
            ("F1", "f1"),
            (" ", "space"),
            ("ctrl-shift-tab", "ctrl-shift-tab"),
        ];
        for (alias, canon) in aliases {
            assert_eq!(key(alias).to_string(), canon, "{alias}");
        }
        assert_eq!(key("q").code, KeyCode::Char('q'));
        assert_eq!(key("ctrl-c").modifiers, KeyModifiers::CONTROL);
        assert_eq!(key("backtab"), key("shift-tab"));
        assert_eq!(key("space").code, KeyCode::Char(' '));
        assert_eq!(key("f12").code, KeyCode::F(12));
        for bad in ["", "pagedwn", "ctrl-", "f0", "f99", "ctrl-foo", "qq"] {
            assert!(KeySpec::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!("ctrl-d".parse::<KeySpec>(), Ok(key("ctrl-d")));
    }

    #[test]
    fn shifted_uppercase_chars_match() {
        let g = key("G");
        assert!(g.matches(&press(KeyCode::Char('G'), KeyModifiers::SHIFT)));
        assert!(g.matches(&press(KeyCode::Char('G'), KeyModifiers::NONE)));
        assert!(g.matches(&press(KeyCode::Char('g'), KeyModifiers::SHIFT)));
        assert!(!g.matches(&press(KeyCode::Char('g'), KeyModifiers::NONE)));
        let vim = Keymap::builtin("vim").unwrap();
        let shift_g = press(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(vim.action(&shift_g), Some(Action::Bottom));
        let g = press(KeyCode::Char('g'), KeyModifiers::NONE);
        assert_eq!(vim.action(&g), Some(Action::Top));
        let default = Keymap::builtin("default").unwrap();
        let shift_a = press(KeyCode::Char('A'), KeyModifiers::SHIFT);
        assert_eq!(default.action(&shift_a), Some(Action::PrevAlgorithm));
        let backtab = press(KeyCode::BackTab, KeyModifiers::SHIFT);
        assert_eq!(default.action(&backtab), Some(Action::PrevParam));
        let shift_tab = press(KeyCode::Tab, KeyModifiers::SHIFT);
        assert_eq!(default.action(&shift_tab), Some(Action::PrevParam));
        let tab = press(KeyCode::Tab, KeyModifiers::NONE);
        assert_eq!(default.action(&tab), Some(Action::NextParam));
    }

    #[test]
    fn ctrl_combos() {
        let vim = Keymap::builtin("vim").unwrap();
        let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
        assert_eq!(vim.action(&ctrl('d')), Some(Action::PageDown));
        assert_eq!(vim.action(&ctrl('f')), Some(Action::PageDown));
        assert_eq!(vim.action(&ctrl('u')), Some(Action::PageUp));
        assert_eq!(vim.action(&ctrl('b')), Some(Action::PageUp));
        assert_eq!(vim.action(&ctrl('a')), Some(Action::ParamInc));
        // ctrl-d is not plain d, and plain d is not ctrl-d.
        let d = press(KeyCode::Char('d'), KeyModifiers::NONE);
        assert_eq!(vim.action(&d), Some(Action::ToggleDiffView));
        let alt_d = press(KeyCode::Char('d'), KeyModifiers::ALT);
        assert_eq!(vim.action(&alt_d), None);
        let ctrl_shift_d = press(
            KeyCode::Char('d'),
            KeyModifiers::CONTROL | KeyModifiers::SHIFT,
        );
        assert_eq!(KeySpec::from_event(&ctrl_shift_d), key("ctrl-D"));
        assert_eq!(vim.action(&ctrl_shift_d), None);
    }

    #[test]
    fn release_and_repeat_events_are_ignored() {
        let map = Keymap::default();
        for kind in [KeyEventKind::Release, KeyEventKind::Repeat] {
            let ev = KeyEvent::new_with_kind_and_state(
                KeyCode::Char('q'),
                KeyModifiers::NONE,
                kind,
                KeyEventState::NONE,
            );
            assert_eq!(map.action(&ev), None, "{kind:?}");
        }
    }

    #[test]
    fn merge_replaces_keys_of_listed_actions_only() {
        let mut map = Keymap::default();
        map.merge_from_str(
            "[keys]\ncursor_down = [\"j\", \"down\"]\nquit = [\"Q\"]\n",
            "user",
        )
        .unwrap();
        assert_eq!(map.keys(Action::CursorDown), &[key("j"), key("down")]);
        assert_eq!(map.keys(Action::Quit), &[key("Q")]);
        assert_eq!(
            map.action(&press(KeyCode::Char('q'), KeyModifiers::NONE)),
            None
        );
        let ctrl_c = press(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(map.action(&ctrl_c), None);
        assert_eq!(
            map.action(&press(KeyCode::Char('j'), KeyModifiers::NONE)),
            Some(Action::CursorDown)
        );
        assert_eq!(map.keys(Action::CursorUp), &[key("up")]);
        // An empty file and an empty table are no-ops.
        map.merge_from_str("", "empty").unwrap();
        map.merge_from_str("[keys]\n", "empty").unwrap();
        assert_eq!(map.keys(Action::Quit), &[key("Q")]);
    }

    #[test]
    fn conflicts_are_detected_and_leave_the_map_unchanged() {
        let mut map = Keymap::default();
        let err = map
            .merge_from_str("[keys]\ncursor_down = [\"q\"]\n", "my.toml")
            .unwrap_err();
        match &err {
            KeymapError::Conflict {
                origin,
                key,
                first,
                second,
            } => {
                assert_eq!(origin, "my.toml");
                assert_eq!(key, "q");
                assert_eq!((*first, *second), (Action::Quit, Action::CursorDown));
            }
            e => panic!("unexpected {e:?}"),
        }
        let msg = err.to_string();
        assert!(msg.contains("quit") && msg.contains("cursor_down") && msg.contains("`q`"));
        assert!(!msg.contains('\n'));
        assert_eq!(map.keys(Action::CursorDown), &[key("down")]);
        assert_eq!(
            map.action(&press(KeyCode::Char('q'), KeyModifiers::NONE)),
            Some(Action::Quit)
        );
        // Within one file, and via key aliases.
        let mut empty = Keymap::empty("x");
        let err = empty
            .merge_from_str(
                "[keys]\nprev_param = [\"backtab\"]\nhelp = [\"shift-tab\"]",
                "f",
            )
            .unwrap_err();
        assert!(matches!(
            err,
            KeymapError::Conflict {
                first: Action::Help,
                ..
            }
        ));
        // The same key twice under one action is fine.
        empty
            .merge_from_str("[keys]\nhelp = [\"?\", \"shift-?\"]", "f")
            .unwrap();
        assert_eq!(empty.keys(Action::Help).len(), 1);
    }

    #[test]
    fn file_errors_name_the_file_and_position() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).unwrap();
            p.display().to_string()
        };

        let p = write(
            "unknown.toml",
            "[keys]\nquit = [\"q\"]\ncursor_dwn = [\"j\"]\n",
        );
        let err = Keymap::load(&p).unwrap_err();
        assert!(
            matches!(&err, KeymapError::UnknownAction { name, line: 3, column: 1, .. } if name == "cursor_dwn"),
            "{err:?}"
        );
        let msg = err.to_string();
        assert!(
            msg.contains(&p) && msg.contains("did you mean `cursor_down`"),
            "{msg}"
        );

        let p = write("badkey.toml", "[keys]\nquit = [\"q\", \"ctrl-qq\"]\n");
        let err = Keymap::load(&p).unwrap_err();
        assert!(
            matches!(&err, KeymapError::BadKey { key, action: Action::Quit, line: 2, column: 14, .. } if key == "ctrl-qq"),
            "{err:?}"
        );
        assert!(err.to_string().contains(&p));

        let p = write("syntax.toml", "[keys]\nquit = [\"q\"\nhelp = 3\n");
        let err = Keymap::load(&p).unwrap_err();
        match &err {
            KeymapError::Toml {
                origin,
                line,
                column,
                ..
            } => {
                assert_eq!(origin, &p);
                assert!(*line >= 2 && *column >= 1, "{err}");
            }
            e => panic!("unexpected {e:?}"),
        }
        let msg = err.to_string();
        assert!(
            msg.starts_with(&format!("{p}:")) && !msg.contains('\n'),
            "{msg}"
        );

        let p = write("shape.toml", "[key]\nquit = [\"q\"]\n");
        let err = Keymap::load(&p).unwrap_err();
        assert!(matches!(&err, KeymapError::Toml { line: 1, .. }), "{err:?}");

        let p = write("type.toml", "[keys]\nquit = \"q\"\n");
        let err = Keymap::load(&p).unwrap_err();
        assert!(matches!(&err, KeymapError::Toml { line: 2, .. }), "{err:?}");

        let missing = dir.path().join("missing.toml").display().to_string();
        let err = Keymap::load(&missing).unwrap_err();
        assert!(matches!(&err, KeymapError::Io { .. }) && err.to_string().contains(&missing));
        assert!(matches!(
            Keymap::load("emacs"),
            Err(KeymapError::UnknownKeymap { .. })
        ));

        // A file keymap binds exactly what it lists.
        let p = write("mine.toml", "[keys]\nquit = [\"x\"]\n");
        let map = Keymap::load(&p).unwrap();
        assert_eq!(map.name(), p);
        assert_eq!(map.keys(Action::Quit), &[key("x")]);
        assert!(map.keys(Action::Help).is_empty());
        assert_eq!(map.keys_label(Action::Help), "(unbound)");

        // merge_file on a builtin.
        let p = write("over.toml", "[keys]\ntoggle_gold = [\"W\"]\n");
        let mut vim = Keymap::builtin("vim").unwrap();
        vim.merge_file(Path::new(&p)).unwrap();
        assert_eq!(vim.keys(Action::ToggleGold), &[key("W")]);
        // A key another action holds is a conflict naming both.
        let p = write("clash.toml", "[keys]\ntoggle_gold = [\"G\"]\n");
        let err = vim.merge_file(Path::new(&p)).unwrap_err();
        assert!(matches!(
            err,
            KeymapError::Conflict {
                first: Action::Bottom,
                ..
            }
        ));
        let mut default = Keymap::default();
        let err = default.merge_file(Path::new(&p)).unwrap_err();
        assert!(matches!(
            err,
            KeymapError::Conflict {
                first: Action::ShowGuideline,
                ..
            }
        ));
    }

    #[test]
    fn help_rows_one_per_action_grouped_in_order() {
        for map in builtins() {
            let rows = map.help_rows();
            assert_eq!(rows.len(), Action::ALL.len());
            for (row, &a) in rows.iter().zip(Action::ALL) {
                assert_eq!(row.group, a.group());
                assert_eq!(row.description, a.description());
                assert_eq!(row.keys, map.keys_label(a));
            }
            let mut groups: Vec<&str> = rows.iter().map(|r| r.group).collect();
            groups.dedup();
            assert_eq!(groups, Action::GROUPS, "groups contiguous and in order");
        }
        let vim = Keymap::builtin("vim").unwrap();
        let rows = vim.help_rows();
        assert_eq!(rows[Action::CursorDown.index()].keys, "j, down");
        assert_eq!(rows[Action::Quit.index()].keys, "q, ctrl-c");
        let default = Keymap::default();
        assert_eq!(
            default.help_rows()[Action::PrevParam.index()].keys,
            "shift-tab"
        );
    }

    #[test]
    fn line_col_counts_chars() {
        assert_eq!(line_col("abc", 0), (1, 1));
        assert_eq!(line_col("a\nbc", 3), (2, 2));
        assert_eq!(line_col("é\né", 5), (2, 2));
        assert_eq!(line_col("ab", 99), (1, 3));
    }
}
