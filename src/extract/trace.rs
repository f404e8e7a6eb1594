//! Self-describing traces: what an extractor computed on the way to its selection, described well
//! enough that the views (histogram, overview, axis marks, step mode, explain, region jumps) need
//! no knowledge of the algorithm.
//!
//! Every trace item — a [`Series`] (one value per unit), a [`Marks`] set (half-open intervals of
//! units) or a [`Scalar`] — declares
//!
//! - a short stable **key** (what [`Phase::reveals`] refers to; unique within a trace),
//! - a human **label** (shown by the views, e.g. "T1 (content chars)"),
//! - its **unit** ([`Unit`]: virtual line, raw line, token, DOM node, byte),
//! - its **role** ([`Role`]: content / code / combined signal, size, threshold, candidate blocks,
//!   seed, selected, bound, label, info).
//!
//! Token- and node-unit items are placed on the page by the trace's **positions** table
//! ([`Trace::positions`]): for each token / node index, its byte range over the decoded text,
//! filled by the extractor. Virtual-line, raw-line and byte units are placed by the page itself.
//!
//! [`to_lines`] is the one aggregation from any unit to the lines a view displays (virtual or
//! raw): series values are summed ([`Agg::Sum`]) or maximised ([`Agg::Max`]) over the items
//! attributed to each line, mark intervals become line ranges. A line, raw line, token or byte
//! is attributed to the display line that holds its **first byte**, so each item counts exactly
//! once and the per-line sums of a signal add up to its total. A DOM node's value is drawn on
//! every display line its element's **text** occupies — the innermost element holding the
//! line's first byte of block text ([`NodeLines`], the block model's placement) — and its
//! extent (the lines from its start tag to its end tag) is kept beside
//! ([`LineTrace::nodes`]).

use std::borrow::Cow;
use std::ops::Range;

use serde::Serialize;

use crate::page::blocks::NodeLines;
use crate::page::lines::{display_line_of, lines_over, raw_lines, solid};
use crate::page::Page;

/// The unit a trace item is indexed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Indices of the page's virtual lines ([`crate::page::lines`]).
    VirtualLine,
    /// Indices of the physical lines of the decoded text (split after each `\n`, see
    /// [`crate::page::lines::raw_lines`]).
    RawLine,
    /// Token indices of the extractor's own tokenisation; placed by [`Trace::positions`].
    Token,
    /// DOM node indices of the extractor's own numbering; placed by [`Trace::positions`].
    Node,
    /// Byte offsets into the decoded text.
    Byte,
}

impl Unit {
    /// A short name for the views ("line", "token", …).
    pub fn name(self) -> &'static str {
        match self {
            Unit::VirtualLine => "line",
            Unit::RawLine => "raw line",
            Unit::Token => "token",
            Unit::Node => "node",
            Unit::Byte => "byte",
        }
    }
}

/// What a trace item means to the views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Amount of content per unit (e.g. T1, content characters): drawn right of the axis.
    ContentSignal,
    /// Amount of code per unit (e.g. T2, tag characters): drawn left of the axis.
    CodeSignal,
    /// One signed signal combining content and code (e.g. DANA's smoothed `diff`): drawn signed,
    /// positive right of the axis, negative left.
    CombinedSignal,
    /// The size of each unit before any judgement (e.g. kept characters per line): drawn grey,
    /// right of the axis. When several are revealed, the last one is drawn as bars and the
    /// others as marker lines.
    Size,
    /// A threshold, as a series (per unit) or a scalar: drawn as a marker line on the
    /// histogram's scale.
    Threshold,
    /// Candidate regions / blocks (marks): blue on the axis.
    Candidates,
    /// The seed region(s) (marks): yellow on the axis.
    Seed,
    /// What the algorithm decided to keep (marks): green on the axis, the overview column and
    /// the source gutter; region jumps go from one interval to the next.
    Selected,
    /// A reach around the selected marks, in the scalar's unit (e.g. the gap of Algorithm 1):
    /// dotted on the axis next to the selected intervals.
    Bound,
    /// Categorical values per unit (cluster ids, labels): shown by explain only.
    Label,
    /// Any other number (counts, indices, switches): shown by explain only.
    Info,
}

impl Role {
    /// A short name for the views ("candidates", "selected", …).
    pub fn name(self) -> &'static str {
        match self {
            Role::ContentSignal => "content signal",
            Role::CodeSignal => "code signal",
            Role::CombinedSignal => "combined signal",
            Role::Size => "size",
            Role::Threshold => "threshold",
            Role::Candidates => "candidates",
            Role::Seed => "seed",
            Role::Selected => "selected",
            Role::Bound => "bound",
            Role::Label => "label",
            Role::Info => "info",
        }
    }
}

/// How a series' values combine when several units fall on one displayed line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Agg {
    /// The sum (amounts: characters, tokens). Lines without items get 0.
    Sum,
    /// The largest value (ratios, thresholds, labels). Lines without items get 0.
    Max,
}

impl Agg {
    /// The default for a role: [`Agg::Sum`] for signals and sizes, [`Agg::Max`] otherwise.
    pub fn for_role(role: Role) -> Agg {
        match role {
            Role::ContentSignal | Role::CodeSignal | Role::CombinedSignal | Role::Size => Agg::Sum,
            _ => Agg::Max,
        }
    }
}

/// A series: one value per unit (e.g. T1 per virtual line, quota per DOM block).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Series {
    /// Stable key, e.g. `"T1"`.
    pub key: String,
    /// Human label, e.g. `"T1 (content chars)"`.
    pub label: String,
    /// What the index means.
    pub unit: Unit,
    /// What the values mean to the views.
    pub role: Role,
    /// How values combine on one displayed line.
    pub agg: Agg,
    /// The values, indexed by unit.
    pub values: Vec<f64>,
}

impl Series {
    /// A series with the role's default aggregation ([`Agg::for_role`]).
    pub fn new(
        key: impl Into<String>,
        label: impl Into<String>,
        unit: Unit,
        role: Role,
        values: Vec<f64>,
    ) -> Series {
        Series {
            key: key.into(),
            label: label.into(),
            unit,
            role,
            agg: Agg::for_role(role),
            values,
        }
    }

    /// The same series with another aggregation.
    pub fn with_agg(mut self, agg: Agg) -> Series {
        self.agg = agg;
        self
    }
}

/// A set of marked intervals, half-open `[start, end)` in `unit`, sorted by start (e.g. the
/// regions of R2L, the selected DOM blocks of LQF).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Marks {
    /// Stable key, e.g. `"regions"`.
    pub key: String,
    /// Human label.
    pub label: String,
    /// What the interval bounds mean.
    pub unit: Unit,
    /// What the intervals mean to the views.
    pub role: Role,
    /// Half-open intervals, sorted by start.
    pub spans: Vec<Range<usize>>,
}

impl Marks {
    /// A mark set.
    pub fn new(
        key: impl Into<String>,
        label: impl Into<String>,
        unit: Unit,
        role: Role,
        spans: Vec<Range<usize>>,
    ) -> Marks {
        Marks {
            key: key.into(),
            label: label.into(),
            unit,
            role,
            spans,
        }
    }
}

/// The maximal runs of consecutive indices among `indices` (ascending), as half-open ranges: the
/// usual way to turn "which units are selected" into [`Marks`] spans. O(k).
pub fn runs(indices: impl IntoIterator<Item = usize>) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for k in indices {
        match out.last_mut() {
            Some(r) if r.end == k => r.end = k + 1,
            _ => out.push(k..k + 1),
        }
    }
    out
}

/// One number (a threshold, the gap used, a count).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scalar {
    /// Stable key, e.g. `"gap"`.
    pub key: String,
    /// Human label.
    pub label: String,
    /// The unit of the value when it is a distance or a position (e.g. the gap in virtual
    /// lines); `None` for plain numbers.
    pub unit: Option<Unit>,
    /// What it means to the views.
    pub role: Role,
    /// The value.
    pub value: f64,
}

impl Scalar {
    /// A scalar.
    pub fn new(
        key: impl Into<String>,
        label: impl Into<String>,
        unit: Option<Unit>,
        role: Role,
        value: f64,
    ) -> Scalar {
        Scalar {
            key: key.into(),
            label: label.into(),
            unit,
            role,
            value,
        }
    }
}

/// A typed handle on one trace item: the key an algorithm builds an item with and reads it
/// back by, typed by the item's kind (`Key<Series>`, `Key<Scalar>`, `Key<Marks>`). An
/// algorithm declares its keys once as constants (`const T: Key<Scalar> = Key::new("t");`),
/// passes them where the item is built (a key converts into the item's `String` key) and reads
/// the item with [`Trace::get`], [`Trace::value_at`] or [`Trace::is_marked`]: asking a scalar
/// key for a series does not compile, and an item the trace lacks is a [`Missing`] error —
/// never a default number in an explanation.
pub struct Key<I> {
    name: &'static str,
    kind: std::marker::PhantomData<fn() -> I>,
}

impl<I> Key<I> {
    /// The handle of the item keyed `name`.
    pub const fn new(name: &'static str) -> Key<I> {
        Key {
            name,
            kind: std::marker::PhantomData,
        }
    }

    /// The item's key as stored in the trace (what [`Phase::reveals`] names).
    pub const fn name(&self) -> &'static str {
        self.name
    }
}

impl<I> Clone for Key<I> {
    fn clone(&self) -> Key<I> {
        *self
    }
}

impl<I> Copy for Key<I> {}

impl<I> PartialEq for Key<I> {
    fn eq(&self, other: &Key<I>) -> bool {
        self.name == other.name
    }
}

impl<I> Eq for Key<I> {}

impl<I: Item> std::fmt::Debug for Key<I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {:?}", I::KIND, self.name)
    }
}

impl<I> From<Key<I>> for String {
    fn from(k: Key<I>) -> String {
        k.name.to_string()
    }
}

/// The kinds of trace item a [`Key`] can name: [`Series`], [`Scalar`], [`Marks`].
pub trait Item: Sized {
    /// The kind's name in messages: `"series"`, `"scalar"`, `"marks"`.
    const KIND: &'static str;
    /// Every item of this kind in `trace`.
    fn all(trace: &Trace) -> &[Self];
    /// The item's key.
    fn key(&self) -> &str;
}

/// `impl Item` for one kind: its name in messages and the trace's field that holds its items.
macro_rules! item_kind {
    ($item:ty, $kind:literal, $field:ident) => {
        impl Item for $item {
            const KIND: &'static str = $kind;
            fn all(trace: &Trace) -> &[$item] {
                &trace.$field
            }
            fn key(&self) -> &str {
                &self.key
            }
        }
    };
}

item_kind!(Series, "series", series);
item_kind!(Scalar, "scalar", scalars);
item_kind!(Marks, "marks", marks);

/// A trace item an algorithm asked for by its [`Key`] and did not find: the trace lacks it, or
/// (for [`Trace::value_at`]) the series is shorter than the index. A bug in the algorithm that
/// built the trace, reported as such (explanations show it as their one line) rather than read
/// as 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// `"series"`, `"scalar"` or `"marks"`.
    pub kind: &'static str,
    /// The item's key.
    pub key: String,
    /// The index asked for (a series value), if any.
    pub index: Option<usize>,
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.index {
            None => write!(f, "the trace has no {} {:?}", self.kind, self.key),
            Some(i) => write!(
                f,
                "the trace's {} {:?} has no value at index {i}",
                self.kind, self.key
            ),
        }
    }
}

impl std::error::Error for Missing {}

/// The byte range over the decoded text of every index of one unit (token or node).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Positions {
    /// [`Unit::Token`] or [`Unit::Node`].
    pub unit: Unit,
    /// `ranges[i]` is the byte range of unit index `i`. For a DOM node: from the first byte of
    /// its start tag to the last byte of its end tag (its outer extent; a node whose source is
    /// non-contiguous is given by the smallest range covering it).
    pub ranges: Vec<Range<usize>>,
}

/// What an algorithm computed on the way to its selection. Keys are unique across series,
/// marks and scalars.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Trace {
    /// Series.
    pub series: Vec<Series>,
    /// Scalars.
    pub scalars: Vec<Scalar>,
    /// Interval sets.
    pub marks: Vec<Marks>,
    /// Byte positions of token- and node-unit indices.
    pub positions: Vec<Positions>,
}

impl Trace {
    /// The series with key `key`.
    pub fn series(&self, key: &str) -> Option<&Series> {
        self.series.iter().find(|s| s.key == key)
    }

    /// The value of the scalar with key `key`.
    pub fn scalar(&self, key: &str) -> Option<f64> {
        self.scalars.iter().find(|s| s.key == key).map(|s| s.value)
    }

    /// The marks with key `key`.
    pub fn marks(&self, key: &str) -> Option<&Marks> {
        self.marks.iter().find(|m| m.key == key)
    }

    /// The item `key` names. Errors: [`Missing`] when the trace has no such item.
    pub fn get<I: Item>(&self, key: Key<I>) -> std::result::Result<&I, Missing> {
        I::all(self)
            .iter()
            .find(|i| i.key() == key.name)
            .ok_or(Missing {
                kind: I::KIND,
                key: key.name.to_string(),
                index: None,
            })
    }

    /// The value of a scalar. Errors: [`Missing`].
    pub fn scalar_of(&self, key: Key<Scalar>) -> std::result::Result<f64, Missing> {
        self.get(key).map(|s| s.value)
    }

    /// Value `k` of a series (`k` in the series' unit). Errors: [`Missing`] when the trace has
    /// no such series or it has no index `k`.
    pub fn value_at(&self, key: Key<Series>, k: usize) -> std::result::Result<f64, Missing> {
        self.get(key)?.values.get(k).copied().ok_or(Missing {
            kind: Series::KIND,
            key: key.name.to_string(),
            index: Some(k),
        })
    }

    /// Does one of the intervals of a mark set hold index `k`? Errors: [`Missing`] when the
    /// trace has no such mark set.
    pub fn is_marked(&self, key: Key<Marks>, k: usize) -> std::result::Result<bool, Missing> {
        Ok(self.get(key)?.spans.iter().any(|r| r.contains(&k)))
    }

    /// The byte range of each index of `unit` (token or node), when the extractor filled it.
    pub fn positions(&self, unit: Unit) -> Option<&[Range<usize>]> {
        self.positions
            .iter()
            .find(|p| p.unit == unit)
            .map(|p| p.ranges.as_slice())
    }

    /// The first mark set with role `role`.
    pub fn marks_with(&self, role: Role) -> Option<&Marks> {
        self.marks.iter().find(|m| m.role == role)
    }

    /// Every key of the trace (series, marks, scalars), in that order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.series
            .iter()
            .map(|s| s.key.as_str())
            .chain(self.marks.iter().map(|m| m.key.as_str()))
            .chain(self.scalars.iter().map(|s| s.key.as_str()))
    }

    /// Checks the trace against its page: unique keys; each series has one value per unit
    /// index; marks are sorted, non-empty intervals within the unit's count; positions lie in
    /// the text. Token / node counts come from [`Trace::positions`], which must exist for every
    /// unit used. Errors: a one-line description of the first violation.
    pub fn validate(&self, page: &Page) -> std::result::Result<(), String> {
        let mut keys: Vec<&str> = self.keys().collect();
        keys.sort_unstable();
        if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("key {:?} is used twice", w[0]));
        }
        let n = page.text().len();
        for p in &self.positions {
            if let Some(r) = p.ranges.iter().find(|r| r.start > r.end || r.end > n) {
                return Err(format!("{} position {r:?} outside 0..{n}", p.unit.name()));
            }
        }
        let count = |u: Unit| -> std::result::Result<usize, String> {
            match u {
                Unit::VirtualLine => Ok(page.lines().len()),
                Unit::RawLine => Ok(raw_lines(page.text()).len()),
                Unit::Byte => Ok(n),
                Unit::Token | Unit::Node => self
                    .positions(u)
                    .map(|p| p.len())
                    .ok_or_else(|| format!("no positions for unit {}", u.name())),
            }
        };
        for s in &self.series {
            let c = count(s.unit)?;
            if s.values.len() != c {
                return Err(format!(
                    "series {:?} has {} values for {c} {}s",
                    s.key,
                    s.values.len(),
                    s.unit.name()
                ));
            }
        }
        for m in &self.marks {
            let c = count(m.unit)?;
            let mut last = 0;
            for r in &m.spans {
                if r.start >= r.end || r.end > c || r.start < last {
                    return Err(format!(
                        "marks {:?}: interval {r:?} empty, unsorted or past {c}",
                        m.key
                    ));
                }
                last = r.start;
            }
        }
        Ok(())
    }
}

/// One phase of an algorithm for step mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Phase {
    /// Short name, e.g. `"smoothing"`.
    pub name: Cow<'static, str>,
    /// What happens, in one line (with the formula or algorithm number).
    pub what: Cow<'static, str>,
    /// The keys of the trace items this phase reveals (they stay revealed in later phases).
    pub reveals: Keys,
}

impl Phase {
    /// A phase from literals (usable in `const` phase tables).
    pub const fn new(
        name: &'static str,
        what: &'static str,
        reveals: &'static [&'static str],
    ) -> Phase {
        Phase {
            name: Cow::Borrowed(name),
            what: Cow::Borrowed(what),
            reveals: Keys::Static(reveals),
        }
    }
}

/// Trace keys: a literal table (built-in algorithms) or owned (built at run time: a filter
/// set's member rows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keys {
    /// Keys written in the source.
    Static(&'static [&'static str]),
    /// Keys made at run time.
    Owned(Vec<String>),
}

impl Keys {
    /// The keys, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        let (a, b): (&[&str], &[String]) = match self {
            Keys::Static(k) => (k, &[]),
            Keys::Owned(k) => (&[], k),
        };
        a.iter().copied().chain(b.iter().map(String::as_str))
    }

    /// Whether `key` is one of them.
    pub fn contains(&self, key: &str) -> bool {
        self.iter().any(|k| k == key)
    }
}

impl Serialize for Keys {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// How far step mode has gone: the phase, and in a phase that plays out span by span
/// ([`crate::extract::Unfolding::unfolds`]), how many of its spans are revealed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The phase, an index into [`crate::extract::Algorithm::phases`].
    pub phase: usize,
    /// In an unfolding phase, the number of its spans revealed so far (in
    /// [`crate::extract::unfold_order`]); `None`: all of them.
    pub unfolded: Option<usize>,
}

impl Step {
    /// Phase `phase` with everything it computes revealed.
    pub fn phase(phase: usize) -> Step {
        Step {
            phase,
            unfolded: None,
        }
    }
}

/// Is the item `key` revealed at phase `step` of `phases`? `step = None` (not in step mode)
/// reveals everything; an item no phase names is revealed at the last phase.
pub fn revealed(phases: &[Phase], step: Option<usize>, key: &str) -> bool {
    let Some(step) = step else {
        return true;
    };
    match phases.iter().position(|p| p.reveals.contains(key)) {
        Some(i) => i <= step,
        None => step + 1 >= phases.len(),
    }
}

/// A place on the page the explain panel asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Location {
    /// A virtual line (0-based).
    Line(usize),
    /// A byte offset into the decoded text.
    Byte(usize),
    /// A token index of the extractor's tokenisation.
    Token(usize),
    /// A DOM node index of the extractor's numbering.
    Node(usize),
}

/// The byte ranges of the indices of `unit` on `page`: virtual and raw lines from the page,
/// tokens and nodes from the trace; `None` for bytes (each index is its own position) and for a
/// unit without positions.
fn unit_ranges<'a>(
    trace: &'a Trace,
    page: &'a Page,
    unit: Unit,
) -> Option<std::borrow::Cow<'a, [Range<usize>]>> {
    use std::borrow::Cow;
    match unit {
        Unit::VirtualLine => Some(Cow::Owned(
            page.lines().lines.iter().map(|l| l.range()).collect(),
        )),
        Unit::RawLine => Some(Cow::Owned(raw_lines(page.text()))),
        Unit::Token | Unit::Node => trace.positions(unit).map(Cow::Borrowed),
        Unit::Byte => None,
    }
}

/// The byte ranges of the indices of one unit, borrowed from the trace or built from the page.
type UnitRanges<'a> = std::borrow::Cow<'a, [Range<usize>]>;

/// The byte range of units `r` (half-open) of `unit`, or `None` when it cannot be placed.
fn span_bytes(
    ranges: Option<&[Range<usize>]>,
    unit: Unit,
    r: &Range<usize>,
) -> Option<Range<usize>> {
    if unit == Unit::Byte {
        return Some(r.clone());
    }
    let rs = ranges?.get(r.start..r.end.min(ranges?.len()))?;
    let start = rs.iter().map(|x| x.start).min()?;
    let end = rs.iter().map(|x| x.end).max()?;
    Some(start..end)
}

/// A series aggregated to display lines.
#[derive(Debug, Clone, PartialEq)]
pub struct LineSeries {
    /// The series' key.
    pub key: String,
    /// Its label.
    pub label: String,
    /// Its original unit.
    pub unit: Unit,
    /// Its role.
    pub role: Role,
    /// One value per display line.
    pub values: Vec<f64>,
}

/// A mark set mapped to display lines.
#[derive(Debug, Clone, PartialEq)]
pub struct LineMarks {
    /// The key of the marks (for a [`Role::Bound`] reach: the scalar's key).
    pub key: String,
    /// The label.
    pub label: String,
    /// Its role.
    pub role: Role,
    /// Half-open display-line ranges, sorted, one per original interval (intervals that cannot
    /// be placed are left out).
    pub spans: Vec<Range<usize>>,
}

impl LineMarks {
    /// Does display line `i` fall in one of the spans?
    pub fn contains(&self, i: usize) -> bool {
        let k = self.spans.partition_point(|r| r.end <= i);
        self.spans.get(k).is_some_and(|r| r.start <= i)
    }
}

/// A trace as seen on display lines: what the histogram, overview, axis and region jumps draw.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LineTrace {
    /// Number of display lines.
    pub lines: usize,
    /// Every series, aggregated (see [`to_lines`]).
    pub series: Vec<LineSeries>,
    /// Every mark set, mapped to display lines; plus, for each [`Role::Bound`] scalar whose
    /// unit is that of the [`Role::Selected`] marks, its reach as role `Bound` marks.
    pub marks: Vec<LineMarks>,
    /// The scalars, unchanged.
    pub scalars: Vec<Scalar>,
    /// For a trace with node-unit items and node positions: which node each display line
    /// shows ([`NodeLines::owner`]) and the display lines each node's extent covers
    /// ([`NodeLines::extent`], e.g. for a bracket beside the cursor line's element).
    pub nodes: Option<NodeLines>,
}

/// Aggregates `trace` to `display`, the byte ranges of the lines a view shows (the page's
/// virtual lines, or its [`raw_lines`], contiguous; or the reading view's lines, which leave
/// out the virtual lines of markup only; sorted and disjoint in every case).
///
/// - **Series**: each unit index is attributed to the display line holding its first byte
///   that is not white space (bytes: the byte itself; virtual / raw lines, tokens: the start
///   of their byte range, [`Trace::positions`] for tokens), or to the next line when that byte
///   lies between display lines; a line's value is the sum ([`Agg::Sum`]: signals, sizes — so
///   virtual-line values summed into raw lines) or the maximum ([`Agg::Max`]: thresholds,
///   ratios, labels) of the values attributed to it, 0 when none is. On virtual lines shown as
///   virtual lines this is the identity.
/// - **Node series** (a value per DOM element, placed by its outer extent): every display line
///   holding text of the page's atomic blocks shows the value of the innermost element whose
///   extent holds the line's first byte of block text ([`NodeLines`]), so a block's value is
///   on each line of its text and on none of its markup-only lines; lines without block text
///   show 0. (A value is repeated on every line of its element's text, so these per-line
///   values do not add up to a total.) [`LineTrace::nodes`] keeps the placement.
/// - **Marks**: each interval covers the display lines that overlap its byte range (from the
///   first byte of its first unit to the last byte of its last unit, white space at both ends
///   left out); an interval that overlaps no display line is left out. (The Selected marks
///   are the algorithm's decision at its own unit, not its selection: an interval of nodes
///   also covers what lies between them. Whether a line holds selected text is
///   [`Page::holds_selected_text`].)
/// - **Bound** scalars: the reach `[first.start − (b − 1), first.start)` before the first and
///   `[last.end, last.end + b − 1)` after the last interval of the Selected marks of the same
///   unit (Algorithm 1's "within the gap" of Mohammadzadeh 2013), as Bound marks.
///
/// Items of a token or node unit without positions are left out. Cost: O(items · log lines),
/// plus for node units O(nodes · log nodes + block bytes) and the page's blocks
/// ([`Page::blocks`], built once per page).
pub fn to_lines(trace: &Trace, page: &Page, display: &[Range<usize>]) -> LineTrace {
    let n = display.len();
    let bytes = page.text().as_bytes();
    let mut out = LineTrace {
        lines: n,
        scalars: trace.scalars.clone(),
        ..Default::default()
    };
    let mut units: Vec<Unit> = trace
        .series
        .iter()
        .map(|s| s.unit)
        .chain(trace.marks.iter().map(|m| m.unit))
        .collect();
    units.sort_by_key(|u| *u as u8);
    units.dedup();
    let table: Vec<(Unit, Option<UnitRanges<'_>>)> = units
        .into_iter()
        .map(|u| (u, unit_ranges(trace, page, u)))
        .collect();
    let ranges_of = |u: Unit| -> Option<&[Range<usize>]> {
        table
            .iter()
            .find(|(x, _)| *x == u)
            .and_then(|(_, r)| r.as_deref())
    };
    out.nodes = ranges_of(Unit::Node)
        .map(|extents| NodeLines::new(page.blocks(), page.text(), extents, display));
    for s in &trace.series {
        let mut values = vec![0.0; n];
        let mut seen = vec![false; n];
        let mut put = |line: usize, v: f64| {
            if let Some(slot) = values.get_mut(line) {
                match s.agg {
                    Agg::Sum => *slot += v,
                    Agg::Max => {
                        if !seen[line] || v > *slot {
                            *slot = v;
                        }
                    }
                }
                seen[line] = true;
            }
        };
        if n > 0 {
            if s.unit == Unit::Byte {
                for (b, &v) in s.values.iter().enumerate() {
                    put(display_line_of(display, b), v);
                }
            } else if let (Unit::Node, Some(nl)) = (s.unit, out.nodes.as_ref()) {
                for (line, v) in nl.values(&s.values).into_iter().enumerate() {
                    if let Some(v) = v {
                        put(line, v);
                    }
                }
            } else if let Some(rs) = ranges_of(s.unit) {
                for (r, &v) in rs.iter().zip(&s.values) {
                    put(display_line_of(display, solid(bytes, r.clone()).start), v);
                }
            }
        }
        out.series.push(LineSeries {
            key: s.key.clone(),
            label: s.label.clone(),
            unit: s.unit,
            role: s.role,
            values,
        });
    }
    let map_spans = |unit: Unit, spans: &[Range<usize>]| -> Vec<Range<usize>> {
        if n == 0 {
            return Vec::new();
        }
        let rs = ranges_of(unit);
        let mut v: Vec<Range<usize>> = spans
            .iter()
            .filter_map(|r| span_bytes(rs, unit, r))
            .map(|b| solid(bytes, b))
            .filter_map(|b| lines_over(display, b))
            .collect();
        v.sort_by_key(|r| (r.start, r.end));
        v
    };
    for m in &trace.marks {
        out.marks.push(LineMarks {
            key: m.key.clone(),
            label: m.label.clone(),
            role: m.role,
            spans: map_spans(m.unit, &m.spans),
        });
    }
    for b in trace.scalars.iter().filter(|s| s.role == Role::Bound) {
        let Some(sel) = trace
            .marks
            .iter()
            .find(|m| m.role == Role::Selected && Some(m.unit) == b.unit)
        else {
            continue;
        };
        let (Some(first), Some(last)) = (sel.spans.first(), sel.spans.last()) else {
            continue;
        };
        let reach = (b.value.max(0.0) as usize).saturating_sub(1);
        let limit = match sel.unit {
            Unit::VirtualLine => page.lines().len(),
            Unit::Byte => page.text().len(),
            u => ranges_of(u).map_or(0, |r| r.len()),
        };
        let mut spans = Vec::new();
        if reach > 0 && first.start > 0 {
            spans.push(first.start.saturating_sub(reach)..first.start);
        }
        let end = (last.end + reach).min(limit);
        if end > last.end {
            spans.push(last.end..end);
        }
        out.marks.push(LineMarks {
            key: b.key.clone(),
            label: b.label.clone(),
            role: Role::Bound,
            spans: map_spans(sel.unit, &spans),
        });
    }
    out
}

/// The byte range of `at` on `page`, when it can be placed (lines and bytes always; tokens and
/// nodes through the trace's positions).
pub fn location_bytes(trace: &Trace, page: &Page, at: Location) -> Option<Range<usize>> {
    match at {
        Location::Line(i) => page.lines().lines.get(i).map(|l| l.range()),
        Location::Byte(b) => (b <= page.text().len()).then_some(b..b + 1),
        Location::Token(i) => trace.positions(Unit::Token)?.get(i).cloned(),
        Location::Node(i) => trace.positions(Unit::Node)?.get(i).cloned(),
    }
}

/// The node (index into `extents`, a trace's node positions) whose value a display line with
/// bytes `line` shows: the innermost extent holding the line's first byte of block text
/// ([`NodeLines::holding`], the placement of [`to_lines`]); `None` for a line without block
/// text or outside every extent.
pub fn line_element(page: &Page, extents: &[Range<usize>], line: Range<usize>) -> Option<usize> {
    let p = page.blocks().text_start_in(page.text(), line)?;
    NodeLines::holding(extents, p).last().copied()
}

fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.3}")
    }
}

/// The generic explanation of a location, from the trace alone: the value of every series there
/// with its label and unit (an item of the location's own unit directly; a node series on a
/// line with block text: the value of the element the line shows, as [`to_lines`] draws it;
/// otherwise the aggregate of the items whose first byte lies in the location's byte range),
/// the threshold and bound scalars, and the marks that contain it with their roles. The first
/// string names the location (1-based, as the views number lines).
pub fn explain_generic(page: &Page, trace: &Trace, at: Location) -> Vec<String> {
    explain_generic_known(page, trace, at, &|_| true)
}

/// [`explain_generic`] restricted to the trace items whose key `known` accepts: step mode
/// explains with only what the phases so far revealed ([`revealed`]), so the text at step k
/// says only what is known at step k.
pub fn explain_generic_known(
    page: &Page,
    trace: &Trace,
    at: Location,
    known: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let (what, own_unit, idx) = match at {
        Location::Line(i) => (format!("line {}", i + 1), Unit::VirtualLine, i),
        Location::Byte(b) => (format!("byte {b}"), Unit::Byte, b),
        Location::Token(i) => (format!("token {i}"), Unit::Token, i),
        Location::Node(i) => (format!("node {i}"), Unit::Node, i),
    };
    let Some(bytes) = location_bytes(trace, page, at) else {
        return vec![format!("{what}: not on this page")];
    };
    let text = page.text().as_bytes();
    // The element a line with block text shows (to_lines' placement of node series).
    let shown_node = match (at, trace.positions(Unit::Node)) {
        (Location::Line(_), Some(extents)) if trace.series.iter().any(|s| s.unit == Unit::Node) => {
            line_element(page, extents, bytes.clone())
        }
        _ => None,
    };
    let mut parts = Vec::new();
    for s in trace.series.iter().filter(|s| known(&s.key)) {
        let v = if s.unit == own_unit {
            s.values.get(idx).copied()
        } else if let (Unit::Node, Some(k)) = (s.unit, shown_node) {
            s.values.get(k).copied()
        } else {
            let ranges = unit_ranges(trace, page, s.unit);
            let mut acc: Option<f64> = None;
            let mut add = |v: f64| {
                acc = Some(match (acc, s.agg) {
                    (None, _) => v,
                    (Some(a), Agg::Sum) => a + v,
                    (Some(a), Agg::Max) => a.max(v),
                })
            };
            match (s.unit, ranges) {
                (Unit::Byte, _) => {
                    for v in s.values.get(bytes.clone()).unwrap_or(&[]) {
                        add(*v);
                    }
                }
                (_, Some(rs)) => {
                    for (r, v) in rs.iter().zip(&s.values) {
                        if bytes.contains(&solid(text, r.clone()).start) {
                            add(*v);
                        }
                    }
                }
                _ => {}
            }
            acc
        };
        if let Some(v) = v {
            parts.push(format!("{} = {} ({})", s.label, fmt_num(v), s.role.name()));
        }
    }
    for s in trace.scalars.iter().filter(|s| known(&s.key)) {
        if matches!(s.role, Role::Threshold | Role::Bound) {
            let unit = s
                .unit
                .map(|u| format!(" {}s", u.name()))
                .unwrap_or_default();
            parts.push(format!(
                "{} = {}{unit} ({})",
                s.label,
                fmt_num(s.value),
                s.role.name()
            ));
        }
    }
    if parts.is_empty() {
        parts.push("nothing computed yet at this step".to_string());
    }
    let mut out = vec![format!("{what}: {}", parts.join(", "))];
    for m in trace.marks.iter().filter(|m| known(&m.key)) {
        let ranges = unit_ranges(trace, page, m.unit);
        let hit = m.spans.iter().enumerate().find(|(_, r)| {
            span_bytes(ranges.as_deref(), m.unit, r)
                .is_some_and(|b| b.start < bytes.end.max(bytes.start + 1) && bytes.start < b.end)
        });
        if let Some((k, r)) = hit {
            out.push(format!(
                "in {} #{} [{}, {}) of {}s ({})",
                m.label,
                k + 1,
                r.start,
                r.end,
                m.unit.name(),
                m.role.name()
            ));
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)]
mod tests {
    use super::*;

    /// Typed reads: the item by its kind and key, a missing item or index as [`Missing`].
    #[test]
    fn typed_keys_read_items_or_say_what_is_missing() {
        const D: Key<Series> = Key::new("d");
        const T: Key<Scalar> = Key::new("t");
        const M: Key<Marks> = Key::new("m");
        let trace = Trace {
            series: vec![Series::new(D, "d", Unit::Node, Role::Size, vec![1.0, 2.0])],
            scalars: vec![Scalar::new(T, "t", None, Role::Threshold, 0.5)],
            marks: vec![Marks::new(M, "m", Unit::Node, Role::Selected, vec![1..2])],
            positions: Vec::new(),
        };
        assert_eq!(trace.value_at(D, 1), Ok(2.0));
        assert_eq!(trace.scalar_of(T), Ok(0.5));
        assert_eq!(trace.is_marked(M, 1), Ok(true));
        assert_eq!(trace.is_marked(M, 0), Ok(false));
        let past = trace.value_at(D, 2).unwrap_err();
        assert_eq!(
            past.to_string(),
            "the trace's series \"d\" has no value at index 2"
        );
        // Same name, other kind: a scalar key does not find the series "d".
        let other: Key<Scalar> = Key::new("d");
        assert_eq!(
            trace.scalar_of(other).unwrap_err().to_string(),
            "the trace has no scalar \"d\""
        );
        assert!(trace.get(Key::<Marks>::new("gone")).is_err());
    }

    fn page() -> Page {
        // Virtual lines: `<p>`, `one two`, `</p>`, `<p>`, `three`, `</p>`.
        Page::from_text("t", "<p>one two</p>\n<p>three</p>\n")
    }

    #[test]
    fn token_series_sum_and_max_per_line() {
        let p = page();
        let v: Vec<Range<usize>> = p.lines().lines.iter().map(|l| l.range()).collect();
        let text = p.text();
        let one = text.find("one").unwrap();
        let two = text.find("two").unwrap();
        let three = text.find("three").unwrap();
        let trace = Trace {
            series: vec![
                Series::new(
                    "w",
                    "words",
                    Unit::Token,
                    Role::ContentSignal,
                    vec![1.0, 2.0, 4.0],
                ),
                Series::new(
                    "t",
                    "thr",
                    Unit::Token,
                    Role::Threshold,
                    vec![0.5, 0.25, 0.75],
                ),
            ],
            positions: vec![Positions {
                unit: Unit::Token,
                ranges: vec![one..one + 3, two..two + 3, three..three + 5],
            }],
            marks: vec![Marks::new(
                "sel",
                "sel",
                Unit::Token,
                Role::Selected,
                vec![1..3],
            )],
            ..Default::default()
        };
        trace.validate(&p).unwrap();
        let lt = to_lines(&trace, &p, &v);
        let lo = v.iter().position(|r| r.contains(&one)).unwrap();
        let hi = v.iter().position(|r| r.contains(&three)).unwrap();
        assert_eq!(
            lt.series[0].values[lo], 3.0,
            "1 + 2 on the line of `one two`"
        );
        assert_eq!(lt.series[0].values[hi], 4.0);
        assert_eq!(
            lt.series[0].values.iter().sum::<f64>(),
            7.0,
            "each token counts once"
        );
        assert_eq!(lt.series[1].values[lo], 0.5, "max of 0.5 and 0.25");
        assert_eq!(lt.marks[0].spans, vec![lo..hi + 1]);
        // Raw lines: the first raw line holds `one two`, the second `three`.
        let raw = raw_lines(text);
        let lt = to_lines(&trace, &p, &raw);
        assert_eq!(lt.series[0].values, vec![3.0, 4.0]);
        assert_eq!(lt.marks[0].spans, vec![0..2]);
    }

    #[test]
    fn virtual_lines_sum_into_raw_lines_and_bound_reach() {
        let p = page();
        let nv = p.lines().len();
        let trace = Trace {
            series: vec![Series::new(
                "s",
                "s",
                Unit::VirtualLine,
                Role::Size,
                (0..nv).map(|i| i as f64).collect(),
            )],
            marks: vec![Marks::new(
                "sel",
                "sel",
                Unit::VirtualLine,
                Role::Selected,
                vec![1..2],
            )],
            scalars: vec![Scalar::new(
                "g",
                "gap",
                Some(Unit::VirtualLine),
                Role::Bound,
                3.0,
            )],
            ..Default::default()
        };
        let raw = raw_lines(p.text());
        let lt = to_lines(&trace, &p, &raw);
        let total: f64 = (0..nv).map(|i| i as f64).sum();
        assert_eq!(lt.series[0].values.iter().sum::<f64>(), total);
        let v: Vec<Range<usize>> = p.lines().lines.iter().map(|l| l.range()).collect();
        let lt = to_lines(&trace, &p, &v);
        // gap 3: reach of 2 lines on each side, clamped at the page's start.
        let bound = lt.marks.iter().find(|m| m.role == Role::Bound).unwrap();
        assert_eq!(bound.spans, vec![0..1, 2..4]);
    }

    #[test]
    fn marks_on_raw_lines_leave_out_white_space() {
        // Raw lines: `<div>`, `  <p>a</p>`, `  <p>b</p>`, `</div>`. Virtual lines: `<div>`,
        // `\n  <p>`, `a`, `</p>`, …: the `<p>` line starts with the newline of the raw line
        // before it.
        let p = Page::from_text("t", "<div>\n  <p>a</p>\n  <p>b</p>\n</div>\n");
        let v: Vec<Range<usize>> = p.lines().lines.iter().map(|l| l.range()).collect();
        let first = 1;
        assert_eq!(&p.text()[v[first].clone()], "\n  <p>");
        let close = first + 2;
        let trace = Trace {
            series: vec![Series::new(
                "s",
                "s",
                Unit::VirtualLine,
                Role::Size,
                (0..v.len()).map(|i| (i == first) as u8 as f64).collect(),
            )],
            marks: vec![Marks::new(
                "m",
                "m",
                Unit::VirtualLine,
                Role::Selected,
                vec![first..close + 1],
            )],
            ..Default::default()
        };
        let lt = to_lines(&trace, &p, &raw_lines(p.text()));
        assert_eq!(lt.marks[0].spans, vec![1..2], "raw line 2 only");
        assert_eq!(lt.series[0].values, vec![0.0, 1.0, 0.0, 0.0]);
    }

    #[test]
    fn marks_on_reading_lines_end_before_a_gap() {
        // The reading view shows only the lines with text: `a` and `b`. A mark over the node
        // `<div><p>a</p></div>` ends on the `</div>` line, which the reading view leaves out;
        // it covers the line of `a`, not the next shown line `b` (issue 19: a post's selected
        // `<div>` marked the "1 Like" after it). A mark wholly in the gap covers no line.
        let html = "<div><p>a</p></div>\n<span>b</span>";
        let p = Page::from_text("t", html);
        let reading: Vec<Range<usize>> =
            p.reading_lines().iter().map(|l| l.range.clone()).collect();
        assert_eq!(reading.len(), 2);
        let div = 0..html.find("\n").unwrap();
        let close = html.find("</div>").unwrap();
        let trace = Trace {
            positions: vec![Positions {
                unit: Unit::Node,
                ranges: vec![div, close..close + 6],
            }],
            marks: vec![
                Marks::new("sel", "sel", Unit::Node, Role::Selected, vec![0..1]),
                Marks::new("gap", "gap", Unit::Node, Role::Candidates, vec![1..2]),
            ],
            ..Default::default()
        };
        trace.validate(&p).unwrap();
        let lt = to_lines(&trace, &p, &reading);
        assert_eq!(lt.marks[0].spans, vec![0..1], "the line of `a` only");
        assert_eq!(lt.marks[1].spans, Vec::<Range<usize>>::new());
    }

    #[test]
    fn validate_catches_bad_traces() {
        let p = page();
        let bad_len = Trace {
            series: vec![Series::new(
                "a",
                "a",
                Unit::VirtualLine,
                Role::Size,
                vec![1.0],
            )],
            ..Default::default()
        };
        assert!(bad_len.validate(&p).unwrap_err().contains("values"));
        let no_pos = Trace {
            series: vec![Series::new("a", "a", Unit::Node, Role::Size, vec![])],
            ..Default::default()
        };
        assert!(no_pos.validate(&p).unwrap_err().contains("positions"));
        let dup = Trace {
            marks: vec![Marks::new("a", "a", Unit::Byte, Role::Seed, vec![0..1])],
            scalars: vec![Scalar::new("a", "a", None, Role::Info, 1.0)],
            ..Default::default()
        };
        assert!(dup.validate(&p).unwrap_err().contains("twice"));
    }

    #[test]
    fn revealed_by_phase() {
        const P: &[Phase] = &[
            Phase::new("a", "", &["x"]),
            Phase::new("b", "", &["y"]),
            Phase::new("c", "", &[]),
        ];
        assert!(revealed(P, None, "y"));
        assert!(revealed(P, Some(0), "x") && !revealed(P, Some(0), "y"));
        assert!(revealed(P, Some(1), "y"));
        assert!(!revealed(P, Some(1), "z") && revealed(P, Some(2), "z"));
    }

    #[test]
    fn generic_explain_names_values_and_marks() {
        let p = page();
        let text = p.text();
        let three = text.find("three").unwrap();
        let trace = Trace {
            series: vec![Series::new(
                "q",
                "quota",
                Unit::Node,
                Role::Threshold,
                vec![0.1, 0.6],
            )],
            marks: vec![Marks::new(
                "b",
                "blocks",
                Unit::Node,
                Role::Candidates,
                vec![1..2],
            )],
            positions: vec![Positions {
                unit: Unit::Node,
                ranges: vec![0..text.len(), three - 3..three + 9],
            }],
            ..Default::default()
        };
        let ex = explain_generic(&p, &trace, Location::Node(1));
        assert_eq!(ex[0], "node 1: quota = 0.600 (threshold)");
        assert!(
            ex[1].starts_with("in blocks #1 [1, 2) of nodes (candidates)"),
            "{ex:?}"
        );
        // A line of markup only shows the nodes that start in it (the `<p>` of node 1); a
        // line of text the innermost node around its text (node 1 for `three`, node 0 for
        // `one two`), as the histogram draws it.
        let line = p.lines().line_of(three - 3).unwrap();
        let ex = explain_generic(&p, &trace, Location::Line(line));
        assert!(ex[0].contains("quota = 0.600"), "{ex:?}");
        let ex = explain_generic(&p, &trace, Location::Line(line + 1));
        assert!(ex[0].contains("quota = 0.600"), "{ex:?}");
        assert!(ex[1].contains("blocks #1"), "the marks overlap it: {ex:?}");
        let one = p.lines().line_of(text.find("one").unwrap()).unwrap();
        let ex = explain_generic(&p, &trace, Location::Line(one));
        assert!(ex[0].contains("quota = 0.100"), "{ex:?}");
        let close = p.lines().line_of(text.find("</p>").unwrap()).unwrap();
        let ex = explain_generic(&p, &trace, Location::Line(close));
        assert!(
            !ex[0].contains("quota"),
            "markup only, no node starts: {ex:?}"
        );
        assert_eq!(explain_generic(&p, &trace, Location::Node(9)).len(), 1);
    }
}
