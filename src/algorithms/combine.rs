//! CombinE filter sets: extractors made of extractors (Weissig & Gottron, *Combinations of
//! Content Extraction Algorithms*, sections 3–5; Gottron 2008, "Combining content extraction
//! heuristics: the CombinE system").
//!
//! A [`FilterSet`] is an [`Extractor`] whose members are registered algorithms (each with its own
//! parameter values) or nested filter sets, combined in one of four ways ([`Combine`]):
//!
//! - **serial** (section 3): member 1 runs on the page; member k+1 runs on the page *as left by*
//!   member k ("the output document of one filter provides the input for the next one"), every
//!   byte offset unchanged. What is left is set by [`Removal`] (set files: `remove`): by
//!   default the removed **nodes** go, markup and all ([`Page::pruned`]: every element none of
//!   whose words member k kept is blanked with its tags; section 4: "the CE filters at most
//!   remove nodes from the DOM-tree"); `remove = "text"` blanks only the removed text and keeps
//!   all markup ([`Page::masked`]). The difference matters to members that count tags: BTE after
//!   LQF sees a removed link list's tags only under `text`, and may cut the article there. A
//!   filter only removes content, so member k+1's selection is intersected with member k's: text
//!   removed by an earlier member never comes back. The result is the last member's selection.
//! - **union / intersection** (section 4, R∪ and R∩): every member runs on the original page;
//!   the normal-form selections ([`Page::normalize`]: the text of the kept nodes) are united or
//!   intersected — on normal-form text the node-set operations of the paper.
//! - **vote** (sections 3–5): every member runs on the original page with a weight (default 1);
//!   a byte is kept when the summed weight of the members that selected it reaches the threshold
//!   ([`Selection::vote`]). MIX3: weights 1, 1, 1, threshold 2; MIX4: DSC 1, BTE 1, ACCB 2,
//!   threshold 2.
//!
//! **Parameters.** A set's [`Algorithm::params`] are its members' parameters named
//! `"{i}.{name}"` (1-based member index; a nested set's own names are prefixed again:
//! `"2.1.gap"`), with the member's kind and range and, as default, the value the set file gives
//! (else the published default). `run` hands each member the values under its prefix, so
//! `--set 2.gap=30`, the inspector's sliders and the optimiser work on sets unchanged.
//! A set owns its name, description, parameter names and phases ([`AlgoInfo`] with owned
//! texts), so sets loaded from files need no global state.
//!
//! **Trace.** One [`Marks`] row per member (`member1`, `member2`, …, [`Unit::Byte`],
//! [`Role::Candidates`]) with that member's normal-form selection, a `votes` series (per virtual
//! line: the summed weight of the members selecting text on it; for serial sets, the number of
//! stages that kept text on it), the `threshold` that series is compared with, and the final
//! `selected` marks. [`Algorithm::phases`]: one phase per member revealing its row, then
//! `merge` and `result`. At most [`MAX_MEMBERS`] members per set.
//!
//! **Files.** Sets are small TOML files; the shipped ones (section 5) are in
//! `src/algorithms/sets/` and registered under lower-case names ([`shipped`]):
//!
//! ```toml
//! name = "lqf_bte"
//! describe = "Serial LQF → BTE (Weissig & Gottron, section 5)"
//! combine = "serial"          # serial | union | intersection | vote
//! # threshold = 2             # vote only
//! [[member]]
//! algo = "lqf"
//! params = { t = 0.25 }
//! [[member]]
//! algo = "bte"
//! # weight = 2                # vote only
//! ```
//!
//! A member is `algo = NAME` (a registered algorithm or shipped set, with optional `params`),
//! `set = "FILE"` (another set file, relative to this one, with optional `params` in its
//! prefixed names), or an inline nested set (`combine = …` with its own `[[member.member]]`).
//! A set's own `params` table may override its prefixed parameters (`"2.t" = 0.5`).
//! [`load`] / [`parse`] read a file / text; [`FilterSet::to_toml`] writes one that reads back
//! to the same set (nested files are written inline).

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

pub use crate::error::SetError;
use crate::error::{Error, Result};
use crate::extract::params::Text;
use crate::extract::trace::Keys;
use crate::extract::trace::{Marks, Missing, Phase, Role, Scalar, Series, Trace, Unit};
use crate::extract::{explain_default, is_whole_run, AlgoInfo, Algorithm, Step};
use crate::extract::{
    explain_generic, Extraction, Extractor, Location, ParamSpec, ParamValue, Params,
};
use crate::page::Page;
use crate::selection::Selection;
pub use file::{load, parse, shipped, shipped_text};

/// The most members one set (each nesting level) may have: a bound on what a file can ask
/// for, far above any published combination (Weissig & Gottron combine at most three).
pub const MAX_MEMBERS: usize = 64;

/// The deepest nesting of sets in sets (a set file that includes itself is refused before).
pub const MAX_DEPTH: usize = 8;

/// The largest set file read (bytes).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// The trace key of member `i`'s row (0-based `i`): `member1`, `member2`, ….
fn member_key(i: usize) -> String {
    format!("member{}", i + 1)
}

/// What a serial set's member k+1 sees of what member k removed (set files: `remove`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Removal {
    /// The removed elements go with their markup ([`Page::pruned`]; Weissig & Gottron,
    /// section 4: filters remove nodes). The default.
    #[default]
    Nodes,
    /// Only the removed text is blanked; all markup stays ([`Page::masked`]).
    Text,
}

impl Removal {
    /// The name used in set files: `nodes`, `text`.
    pub fn name(self) -> &'static str {
        match self {
            Removal::Nodes => "nodes",
            Removal::Text => "text",
        }
    }

    /// What the next member sees gone, for phase texts and explanations.
    pub fn what(self) -> &'static str {
        match self {
            Removal::Nodes => "the elements it removed blanked, tags and all",
            Removal::Text => "its removed text blanked, all tags kept",
        }
    }

    /// The page `page` as left by a member that kept `kept`.
    pub fn apply(self, page: &Page, kept: &Selection) -> Page {
        match self {
            Removal::Nodes => page.pruned(kept),
            Removal::Text => page.masked(kept),
        }
    }
}

/// How a set combines its members' selections (Weissig & Gottron, sections 3–4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Combine {
    /// Each member runs on the page as left by the previous one; the last one's selection.
    Serial,
    /// Parallel, R∪: text any member selected.
    Union,
    /// Parallel, R∩: text every member selected.
    Intersection,
    /// Parallel voting: text whose members' summed weight is ≥ `threshold`.
    Vote {
        /// The acceptance threshold (summed weights).
        threshold: f64,
    },
}

impl Combine {
    /// The name used in set files: `serial`, `union`, `intersection`, `vote`.
    pub fn name(self) -> &'static str {
        match self {
            Combine::Serial => "serial",
            Combine::Union => "union",
            Combine::Intersection => "intersection",
            Combine::Vote { .. } => "vote",
        }
    }
}

/// What a member is.
#[derive(Clone)]
pub enum MemberKind {
    /// A registered algorithm (or a registered set used by name).
    Algo(Arc<dyn Extractor>),
    /// A nested set (inline or from a `set = FILE`).
    Set(Box<FilterSet>),
}

/// One member of a [`FilterSet`]: what runs, the parameter values the set gives it, and its
/// vote weight.
#[derive(Clone)]
pub struct Member {
    kind: MemberKind,
    /// Values the set file gives (algorithm members; a nested set carries its values in its own
    /// parameter defaults).
    given: Params,
    /// Vote weight (only used by [`Combine::Vote`]); 1 by default.
    weight: f64,
}

impl Member {
    /// A member running `e` with its published defaults, weight 1.
    pub fn algo(e: Arc<dyn Extractor>) -> Member {
        Member {
            kind: MemberKind::Algo(e),
            given: Params::default(),
            weight: 1.0,
        }
    }

    /// A member running the registered algorithm `name` (ASCII case-insensitive; registered
    /// sets too). Errors: [`Error::UnknownAlgorithm`].
    pub fn named(name: &str) -> Result<Member> {
        lookup(name, true)
            .map(Member::algo)
            .ok_or_else(|| Error::UnknownAlgorithm {
                name: name.to_string(),
                known: known(true),
            })
    }

    /// A nested set as a member, weight 1.
    pub fn set(s: FilterSet) -> Member {
        Member {
            kind: MemberKind::Set(Box::new(s)),
            given: Params::default(),
            weight: 1.0,
        }
    }

    /// The same member with vote weight `w` (finite and > 0, else unchanged).
    pub fn with_weight(mut self, w: f64) -> Member {
        if w.is_finite() && w > 0.0 {
            self.weight = w;
        }
        self
    }

    /// The same member with `NAME=VALUE` applied to its own (unprefixed) parameters. Errors:
    /// [`Error::Param`] as [`Params::set_str`].
    pub fn with_param(self, assignment: &str) -> Result<Member> {
        let mut p = Params::default();
        p.set_str(self.extractor().params(), assignment)?;
        Ok(self.with_values(&p))
    }

    /// What runs.
    pub fn kind(&self) -> &MemberKind {
        &self.kind
    }

    /// The vote weight.
    pub fn weight(&self) -> f64 {
        self.weight
    }

    /// The member as an extractor.
    pub fn extractor(&self) -> &dyn Extractor {
        match &self.kind {
            MemberKind::Algo(e) => e.as_ref(),
            MemberKind::Set(s) => s.as_ref(),
        }
    }

    /// The member with `values` (its own, unprefixed names, checked against its specs when
    /// they were written) baked in.
    fn with_values(mut self, values: &Params) -> Member {
        match &mut self.kind {
            MemberKind::Algo(e) => {
                for (k, v) in values.iter() {
                    // The values come from this member's own specs: a set cannot refuse them.
                    let _ = self.given.set_named(e.params(), k, v.clone());
                }
            }
            MemberKind::Set(s) => **s = s.with_params(values),
        }
        self
    }

    /// The value this member's set gives parameter `spec`, else the published default.
    fn value(&self, spec: &ParamSpec) -> ParamValue {
        self.given
            .get(&spec.name)
            .cloned()
            .unwrap_or_else(|| spec.default.clone())
    }
}

/// A CombinE filter set (see the module documentation): an [`Extractor`] made of members.
#[derive(Clone)]
pub struct FilterSet {
    /// Name, description, the members' parameters (prefixed `"{i}."`, in member order) and
    /// the phases.
    info: AlgoInfo,
    combine: Combine,
    /// What a serial member leaves for the next (unused by the other combinations).
    removal: Removal,
    members: Vec<Member>,
    /// For each parameter: (member index, the member's own name).
    map: Vec<(usize, Text)>,
    /// Whether the default description was generated (not written to files).
    auto_describe: bool,
}

impl fmt::Debug for FilterSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FilterSet")
            .field("name", &self.info.name)
            .field("combine", &self.combine)
            .field("removal", &self.removal)
            .field(
                "members",
                &self
                    .members
                    .iter()
                    .map(|m| m.extractor().name())
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl FilterSet {
    /// A set of `members` combined by `combine`. `describe`: one line (`None`: generated from
    /// the members). Errors ([`Error::FilterSet`]): no members, more than [`MAX_MEMBERS`], a
    /// vote threshold that is not a finite number ≥ 0.
    pub fn new(
        name: &str,
        describe: Option<&str>,
        combine: Combine,
        members: Vec<Member>,
    ) -> Result<FilterSet> {
        let wrap = |source| Error::FilterSet {
            file: name.to_string(),
            source,
        };
        check_shape(combine, members.len(), "top level").map_err(wrap)?;
        Ok(FilterSet::build(
            name,
            describe,
            combine,
            Removal::default(),
            members,
        ))
    }

    /// The same set with serial members leaving the page as `removal` says (ignored by the
    /// parallel combinations).
    pub fn with_removal(&self, removal: Removal) -> FilterSet {
        FilterSet::build(
            self.name(),
            (!self.auto_describe).then_some(self.describe()),
            self.combine,
            removal,
            self.members.clone(),
        )
    }

    /// What a serial member leaves for the next ([`Removal`]).
    pub fn removal(&self) -> Removal {
        self.removal
    }

    /// Builds a set whose shape was checked ([`check_shape`]).
    fn build(
        name: &str,
        describe: Option<&str>,
        combine: Combine,
        removal: Removal,
        members: Vec<Member>,
    ) -> FilterSet {
        let mut specs = Vec::new();
        let mut map = Vec::new();
        for (i, m) in members.iter().enumerate() {
            for s in m.extractor().params() {
                specs.push(ParamSpec {
                    name: format!("{}.{}", i + 1, s.name).into(),
                    default: m.value(s),
                    ..s.clone()
                });
                map.push((i, s.name.clone()));
            }
        }
        let names: Vec<&str> = members.iter().map(|m| m.extractor().name()).collect();
        let auto_describe = describe.is_none();
        let describe = match describe {
            Some(d) => d.to_string(),
            None => {
                let sep = if combine == Combine::Serial {
                    " → "
                } else {
                    ", "
                };
                let remove = match combine {
                    Combine::Serial => format!(", remove {}", removal.name()),
                    _ => String::new(),
                };
                format!(
                    "filter set ({}{remove}): {}",
                    combine_text(combine),
                    names.join(sep)
                )
            }
        };
        let mut phases = Vec::new();
        for (i, m) in members.iter().enumerate() {
            phases.push(Phase {
                name: format!("{} {}", i + 1, names[i]).into(),
                what: member_role(combine, removal, i, &names, m.weight).into(),
                reveals: Keys::Owned(vec![member_key(i)]),
            });
        }
        phases.push(Phase {
            name: "merge".into(),
            what: merge_text(combine, members.len()).into(),
            reveals: Keys::Static(&["votes", "threshold"]),
        });
        phases.push(Phase::new(
            "result",
            "the filter set's selection (Weissig & Gottron, sections 3-4)",
            &["selected"],
        ));
        FilterSet {
            info: AlgoInfo {
                name: name.to_string().into(),
                description: describe.into(),
                source:
                    "Weissig & Gottron, Combinations of Content Extraction Algorithms, sections 3-5"
                        .into(),
                params: specs.into(),
                phases: phases.into(),
                // Pruning a page for the next serial member reads its DOM.
                needs_dom: members.iter().any(|m| m.extractor().needs_dom())
                    || (combine == Combine::Serial
                        && removal == Removal::Nodes
                        && members.len() > 1),
            },
            combine,
            removal,
            members,
            map,
            auto_describe,
        }
    }

    /// How the members combine.
    pub fn combine(&self) -> Combine {
        self.combine
    }

    /// The members, in order.
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// The same set with `values` (its prefixed names, e.g. `"2.gap"`) as the members' given
    /// values, so they become the defaults of [`Algorithm::params`] and are written by
    /// [`FilterSet::to_toml`] (how the optimiser saves a winner). Names the set does not have
    /// are ignored.
    pub fn with_params(&self, values: &Params) -> FilterSet {
        let mut per: Vec<Params> = vec![Params::default(); self.members.len()];
        for (spec, (i, local)) in self.info.params.iter().zip(&self.map) {
            if let Some(v) = values.get(&spec.name) {
                // Checked against this spec when written: the member's own spec accepts it.
                let _ = per[*i].set_named(self.members[*i].extractor().params(), local, v.clone());
            }
        }
        let members = self
            .members
            .iter()
            .cloned()
            .zip(&per)
            .map(|(m, p)| m.with_values(p))
            .collect();
        FilterSet::build(
            self.name(),
            (!self.auto_describe).then_some(self.describe()),
            self.combine,
            self.removal,
            members,
        )
    }

    /// The parameters member `i` runs with: the values of `params` under its prefix, else the
    /// set's defaults.
    fn member_params(&self, i: usize, params: &Params) -> Params {
        let mut p = Params::default();
        let own = self.members[i].extractor().params();
        for (spec, (m, local)) in self.info.params.iter().zip(&self.map) {
            if *m == i {
                let v = params
                    .get(&spec.name)
                    .cloned()
                    .unwrap_or_else(|| spec.default.clone());
                // The prefixed spec is the member's with another name: its values fit.
                let _ = p.set_named(own, local, v);
            }
        }
        p
    }

    /// Each member's normal-form selection on `page` (serial: on the page left by the previous
    /// member — [`Removal::apply`] — intersected with its selection).
    pub fn member_selections(&self, page: &Page, params: &Params) -> Vec<Selection> {
        let mut out: Vec<Selection> = Vec::with_capacity(self.members.len());
        for (i, m) in self.members.iter().enumerate() {
            let p = self.member_params(i, params);
            let sel = match (self.combine, out.last()) {
                (Combine::Serial, Some(prev)) => {
                    let left = self.removal.apply(page, prev);
                    page.normalize(&m.extractor().run(&left, &p).selection)
                        .intersection(prev)
                }
                _ => page.normalize(&m.extractor().run(page, &p).selection),
            };
            out.push(sel);
        }
        out
    }

    /// The members' selections merged by [`FilterSet::combine`].
    pub fn merge(&self, sels: &[Selection]) -> Selection {
        match self.combine {
            Combine::Serial => sels.last().cloned().unwrap_or_default(),
            Combine::Union => sels.iter().fold(Selection::new(), |a, s| a.union(s)),
            Combine::Intersection => {
                let mut it = sels.iter();
                match it.next() {
                    Some(first) => it.fold(first.clone(), |a, s| a.intersection(s)),
                    None => Selection::new(),
                }
            }
            Combine::Vote { threshold } => {
                let v: Vec<(&Selection, f64)> = sels
                    .iter()
                    .zip(&self.members)
                    .map(|(s, m)| (s, m.weight))
                    .collect();
                Selection::vote(&v, threshold)
            }
        }
    }

    /// The weight member `i` adds to the `votes` series.
    fn vote_weight(&self, i: usize) -> f64 {
        match self.combine {
            Combine::Vote { .. } => self.members[i].weight,
            _ => 1.0,
        }
    }

    /// The value the `votes` series is compared with.
    fn threshold(&self) -> f64 {
        match self.combine {
            Combine::Serial | Combine::Intersection => self.members.len() as f64,
            Combine::Union => 1.0,
            Combine::Vote { threshold } => threshold,
        }
    }

    /// The set as a TOML set file that [`parse`] reads back to the same set (members, given
    /// values, weights, threshold); nested set files are written inline.
    pub fn to_toml(&self) -> String {
        toml::to_string(&self.to_table(true)).unwrap_or_default()
    }

    fn to_table(&self, top: bool) -> toml::Table {
        let mut t = toml::Table::new();
        t.insert("name".into(), self.name().into());
        if !self.auto_describe {
            t.insert("describe".into(), self.describe().into());
        }
        t.insert("combine".into(), self.combine.name().into());
        if self.combine == Combine::Serial {
            t.insert("remove".into(), self.removal.name().into());
        }
        if let Combine::Vote { threshold } = self.combine {
            t.insert("threshold".into(), threshold.into());
        }
        let _ = top;
        let members: Vec<toml::Value> = self
            .members
            .iter()
            .map(|m| {
                let mut mt = match &m.kind {
                    MemberKind::Algo(e) => {
                        let mut mt = toml::Table::new();
                        mt.insert("algo".into(), e.name().into());
                        let params: toml::Table = m
                            .given
                            .iter()
                            .map(|(k, v)| (k.to_string(), value_to_toml(v)))
                            .collect();
                        if !params.is_empty() {
                            mt.insert("params".into(), params.into());
                        }
                        mt
                    }
                    MemberKind::Set(s) => s.to_table(false),
                };
                if matches!(self.combine, Combine::Vote { .. }) {
                    mt.insert("weight".into(), m.weight.into());
                }
                toml::Value::Table(mt)
            })
            .collect();
        t.insert("member".into(), members.into());
        t
    }
}

fn value_to_toml(v: &ParamValue) -> toml::Value {
    match v {
        ParamValue::Int(x) => (*x).into(),
        ParamValue::Float(x) => (*x).into(),
        ParamValue::Bool(x) => (*x).into(),
        ParamValue::Choice(x) => x.to_string().into(),
    }
}

fn combine_text(c: Combine) -> String {
    match c {
        Combine::Vote { threshold } => format!("vote, threshold {threshold}"),
        c => c.name().to_string(),
    }
}

/// The phase text of member `i`.
fn member_role(c: Combine, removal: Removal, i: usize, names: &[&str], weight: f64) -> String {
    match c {
        Combine::Serial if i == 0 => "runs on the page (serial, section 3)".into(),
        Combine::Serial => format!(
            "runs on the page as left by {} {} (serial, section 3: {})",
            i,
            names[i - 1],
            removal.what()
        ),
        Combine::Union | Combine::Intersection => {
            format!("runs on the original page ({}, section 4)", c.name())
        }
        Combine::Vote { .. } => format!("runs on the original page; votes with weight {weight}"),
    }
}

fn merge_text(c: Combine, n: usize) -> String {
    match c {
        Combine::Serial => format!("the chain: stages (of {n}) that kept text on each line"),
        Combine::Union => format!("R∪: text any of the {n} members selected (section 4)"),
        Combine::Intersection => format!("R∩: text all {n} members selected (section 4)"),
        Combine::Vote { threshold } => {
            format!("votes: text whose summed member weight is ≥ {threshold}")
        }
    }
}

fn member_label(c: Combine, i: usize, names: &[&str], weight: f64) -> String {
    let how = match c {
        Combine::Serial if i == 0 => "serial: on the page".to_string(),
        Combine::Serial => format!("serial: on the page left by {} {}", i, names[i - 1]),
        Combine::Union | Combine::Intersection => c.name().to_string(),
        Combine::Vote { .. } => format!("vote, weight {weight}"),
    };
    format!("{} {} ({how})", i + 1, names[i])
}

/// Checks member count and vote threshold.
fn check_shape(c: Combine, members: usize, at: &str) -> std::result::Result<(), SetError> {
    if members == 0 {
        return Err(SetError::Empty { at: at.into() });
    }
    if members > MAX_MEMBERS {
        return Err(SetError::TooManyMembers {
            at: at.into(),
            count: members,
            limit: MAX_MEMBERS,
        });
    }
    if let Combine::Vote { threshold } = c {
        if !threshold.is_finite() || threshold < 0.0 {
            return Err(SetError::BadValue {
                at: at.into(),
                message: format!("threshold {threshold}: expected a number ≥ 0"),
            });
        }
    }
    Ok(())
}

impl Algorithm for FilterSet {
    fn info(&self) -> &AlgoInfo {
        &self.info
    }
}

impl Extractor for FilterSet {
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let sels = self.member_selections(page, params);
        let selection = self.merge(&sels);
        let names: Vec<&str> = self.members.iter().map(|m| m.extractor().name()).collect();
        let mut trace = Trace::default();
        for (i, s) in sels.iter().enumerate() {
            trace.marks.push(Marks::new(
                member_key(i),
                member_label(self.combine, i, &names, self.members[i].weight),
                Unit::Byte,
                Role::Candidates,
                s.ranges().to_vec(),
            ));
        }
        let votes: Vec<f64> = page
            .lines()
            .lines
            .iter()
            .map(|l| {
                let r = l.range();
                sels.iter()
                    .enumerate()
                    .filter(|(_, s)| s.intersects(r.clone()))
                    .map(|(i, _)| self.vote_weight(i))
                    .sum()
            })
            .collect();
        let votes_label = match self.combine {
            Combine::Serial => "stages that kept text on the line",
            Combine::Vote { .. } => "summed weight of the members selecting the line",
            _ => "members selecting the line",
        };
        trace.series.push(Series::new(
            "votes",
            votes_label,
            Unit::VirtualLine,
            Role::ContentSignal,
            votes,
        ));
        trace.scalars.push(Scalar::new(
            "threshold",
            format!("threshold ({})", combine_text(self.combine)),
            None,
            Role::Threshold,
            self.threshold(),
        ));
        trace.marks.push(Marks::new(
            "selected",
            "selected by the filter set",
            Unit::Byte,
            Role::Selected,
            selection.ranges().to_vec(),
        ));
        Extraction { selection, trace }
    }

    /// Which members selected the location, the summed weights and the threshold (vote), or
    /// where in the serial chain it was removed; read from the trace's member rows. Before the
    /// last phase: [`explain_default`].
    fn explain(
        &self,
        page: &Page,
        x: &Extraction,
        at: Location,
        step: Option<Step>,
    ) -> Vec<String> {
        if !is_whole_run(self.phases(), step) {
            return explain_default(self, page, x, at, step);
        }
        let (place, range) = match at {
            Location::Byte(b) => (format!("byte {b}"), b..b + 1),
            Location::Line(l) => match page.lines().lines.get(l) {
                Some(line) => (format!("line {}", l + 1), line.range()),
                None => return explain_generic(page, &x.trace, at),
            },
            _ => return explain_generic(page, &x.trace, at),
        };
        explain_at(self, x, place, range)
    }
}

fn explain_at(set: &FilterSet, x: &Extraction, place: String, range: Range<usize>) -> Vec<String> {
    let names: Vec<&str> = set.members.iter().map(|m| m.extractor().name()).collect();
    let hit: Result<Vec<bool>, Missing> = (0..set.members.len())
        .map(|i| {
            let key = member_key(i);
            let m = x.trace.marks(&key).ok_or(Missing {
                kind: "marks",
                key,
                index: None,
            })?;
            let k = m.spans.partition_point(|s| s.end <= range.start);
            Ok(m.spans.get(k).is_some_and(|s| s.start < range.end))
        })
        .collect();
    let hit = match hit {
        Ok(hit) => hit,
        Err(e) => return crate::extract::explain::or_missing(Err(e)),
    };
    let selected = x.selection.intersects(range.clone());
    let mut out = vec![format!(
        "{place} (bytes {}..{}): {} by {} ({})",
        range.start,
        range.end,
        if selected { "selected" } else { "not selected" },
        set.name(),
        combine_text(set.combine)
    )];
    match set.combine {
        Combine::Serial => match hit.iter().position(|h| !h) {
            Some(0) => out.push(format!("stage 1 {} did not select it", names[0])),
            Some(k) => out.push(format!(
                "kept by {}, removed by stage {} {} (run on the page left by {k} {}: {})",
                if k == 1 {
                    format!("stage 1 {}", names[0])
                } else {
                    format!("stages 1..{k}")
                },
                k + 1,
                names[k],
                names[k - 1],
                set.removal.what()
            )),
            None => out.push(format!("kept through all {} stages", names.len())),
        },
        c => {
            for (i, h) in hit.iter().enumerate() {
                let w = match c {
                    Combine::Vote { .. } => format!(", weight {}", set.members[i].weight),
                    _ => String::new(),
                };
                out.push(format!(
                    "{} {}: {}{w}",
                    i + 1,
                    names[i],
                    if *h { "selected" } else { "not selected" }
                ));
            }
            let n = hit.iter().filter(|h| **h).count();
            out.push(match c {
                Combine::Vote { threshold } => {
                    let sum: f64 = hit
                        .iter()
                        .zip(&set.members)
                        .filter(|(h, _)| **h)
                        .fold(0.0, |a, (_, m)| a + m.weight);
                    format!(
                        "summed weight {sum} {} threshold {threshold}",
                        if sum >= threshold - 1e-9 && sum > 0.0 {
                            "≥"
                        } else {
                            "<"
                        }
                    )
                }
                Combine::Union => format!("union: {n} of {} members selected it", hit.len()),
                _ => format!("intersection: {n} of {} members selected it", hit.len()),
            });
        }
    }
    out
}

/// The names a member may give, comma-separated: the algorithms ([`super::all`]) and, with
/// `sets`, the shipped sets.
fn known(sets: bool) -> String {
    let algos = super::all().iter().map(|e| e.name());
    let sets = shipped().iter().filter(|_| sets).map(|s| s.name());
    algos.chain(sets).collect::<Vec<_>>().join(", ")
}

/// The registered algorithm (or, with `sets`, registered set) named `name`.
fn lookup(name: &str, sets: bool) -> Option<Arc<dyn Extractor>> {
    if let Some(e) = super::all()
        .iter()
        .find(|e| e.name().eq_ignore_ascii_case(name))
    {
        return Some(Arc::clone(e));
    }
    if sets {
        return shipped()
            .iter()
            .find(|s| s.name().eq_ignore_ascii_case(name))
            .map(|s| Arc::new(s.clone()) as Arc<dyn Extractor>);
    }
    None
}

mod file;

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)]
mod tests;
