//! CombinE filter sets: extractors made of extractors (Weissig & Gottron, *Combinations of
//! Content Extraction Algorithms*, sections 3–5; Gottron 2008, "Combining content extraction
//! heuristics: the CombinE system").
//!
//! A [`FilterSet`] is an [`Extractor`] whose members are registered algorithms (each with its own
//! parameter values) or nested filter sets, combined in one of four ways ([`Combine`]):
//!
//! - **serial** (section 3): member 1 runs on the page; member k+1 runs on the page *as left by*
//!   member k — [`Page::masked`] with member k's selection, every byte offset unchanged. A filter
//!   only removes content (section 4: "the CE filters at most remove nodes"), so member k+1's
//!   selection is intersected with member k's: text blanked by an earlier member never comes
//!   back. The result is the last member's selection.
//! - **union / intersection** (section 4, R∪ and R∩): every member runs on the original page;
//!   the normal-form selections ([`Page::normalize`]: the text of the kept nodes) are united or
//!   intersected — on normal-form text the node-set operations of the paper.
//! - **vote** (sections 3–5): every member runs on the original page with a weight (default 1);
//!   a byte is kept when the summed weight of the members that selected it reaches the threshold
//!   ([`Selection::vote`]). MIX3: weights 1, 1, 1, threshold 2; MIX4: DSC 1, BTE 1, ACCB 2,
//!   threshold 2.
//!
//! **Parameters.** A set's [`Extractor::params`] are its members' parameters named
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
//! `selected` marks. [`Extractor::phases`]: one phase per member revealing its row, then
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
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::Deserialize;

use super::params::Text;
use super::trace::Keys;
use super::trace::{Marks, Phase, Role, Scalar, Series, Trace, Unit};
use super::{explain_default, is_whole_run, AlgoInfo, Algorithm, Step};
use super::{explain_generic, Extraction, Extractor, Location, ParamSpec, ParamValue, Params};
pub use crate::error::SetError;
use crate::error::{Error, Result};
use crate::page::Page;
use crate::selection::Selection;

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
                known: super::names().join(", "),
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
        Ok(FilterSet::build(name, describe, combine, members))
    }

    /// Builds a set whose shape was checked ([`check_shape`]).
    fn build(
        name: &str,
        describe: Option<&str>,
        combine: Combine,
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
                format!(
                    "filter set ({}): {}",
                    combine_text(combine),
                    names.join(sep)
                )
            }
        };
        let mut phases = Vec::new();
        for (i, m) in members.iter().enumerate() {
            phases.push(Phase {
                name: format!("{} {}", i + 1, names[i]).into(),
                what: member_role(combine, i, &names, m.weight).into(),
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
                needs_dom: members.iter().any(|m| m.extractor().needs_dom()),
            },
            combine,
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
    /// values, so they become the defaults of [`Extractor::params`] and are written by
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
    /// member, intersected with its selection).
    pub fn member_selections(&self, page: &Page, params: &Params) -> Vec<Selection> {
        let mut out: Vec<Selection> = Vec::with_capacity(self.members.len());
        for (i, m) in self.members.iter().enumerate() {
            let p = self.member_params(i, params);
            let sel = match (self.combine, out.last()) {
                (Combine::Serial, Some(prev)) => {
                    let masked = page.masked(prev);
                    page.normalize(&m.extractor().run(&masked, &p).selection)
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
fn member_role(c: Combine, i: usize, names: &[&str], weight: f64) -> String {
    match c {
        Combine::Serial if i == 0 => "runs on the page (serial, section 3)".into(),
        Combine::Serial => format!(
            "runs on the page as left by {} {} (serial, section 3: its removed text blanked)",
            i,
            names[i - 1]
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
    let hit: Vec<bool> = (0..set.members.len())
        .map(|i| {
            x.trace.marks(&member_key(i)).is_some_and(|m| {
                let k = m.spans.partition_point(|s| s.end <= range.start);
                m.spans.get(k).is_some_and(|s| s.start < range.end)
            })
        })
        .collect();
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
                "kept by {}, removed by stage {} {} (run on the page left by {k} {})",
                if k == 1 {
                    format!("stage 1 {}", names[0])
                } else {
                    format!("stages 1..{k}")
                },
                k + 1,
                names[k],
                names[k - 1]
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

/// The registered algorithm (or, with `sets`, registered set) named `name`.
fn lookup(name: &str, sets: bool) -> Option<Arc<dyn Extractor>> {
    if let Some(e) = super::singles()
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

/// A set file as written (one struct for sets and members).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSet {
    name: Option<String>,
    describe: Option<String>,
    combine: Option<String>,
    threshold: Option<toml::Value>,
    algo: Option<String>,
    set: Option<String>,
    weight: Option<toml::Value>,
    params: Option<toml::Table>,
    #[serde(default)]
    member: Vec<RawSet>,
}

/// Reading state: the files being read (cycle check) and whether members may name registered
/// sets (not while the shipped sets themselves are being parsed).
struct Ctx {
    stack: Vec<PathBuf>,
    sets: bool,
}

/// Reads the set file `path`. Errors: [`Error::FilterSet`] naming the file (see [`SetError`]).
pub fn load(path: &Path) -> Result<FilterSet> {
    let mut ctx = Ctx {
        stack: Vec::new(),
        sets: true,
    };
    read_file(path, &mut ctx, "top level", 0).map_err(|source| Error::FilterSet {
        file: path.display().to_string(),
        source,
    })
}

/// Parses set-file `text`; `set = FILE` members are read relative to `base_dir`. Errors:
/// [`Error::FilterSet`] (file `<text>`).
pub fn parse(text: &str, base_dir: &Path) -> Result<FilterSet> {
    let mut ctx = Ctx {
        stack: Vec::new(),
        sets: true,
    };
    parse_text(text, base_dir, "set", &mut ctx).map_err(|source| Error::FilterSet {
        file: "<text>".into(),
        source,
    })
}

fn parse_text(
    text: &str,
    dir: &Path,
    default_name: &str,
    ctx: &mut Ctx,
) -> std::result::Result<FilterSet, SetError> {
    let raw: RawSet = toml::from_str(text).map_err(|e| SetError::Toml(one_line(&e.to_string())))?;
    if raw.weight.is_some() {
        return Err(SetError::Invalid {
            at: "top level".into(),
            message: "weight belongs to a [[member]]".into(),
        });
    }
    build_set(raw, dir, Some(default_name), 0, ctx, "top level")
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn read_file(
    path: &Path,
    ctx: &mut Ctx,
    at: &str,
    depth: usize,
) -> std::result::Result<FilterSet, SetError> {
    let io = |e: std::io::Error| SetError::Io {
        at: at.into(),
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let canon = path.canonicalize().map_err(io)?;
    if ctx.stack.contains(&canon) {
        return Err(SetError::Cycle {
            at: at.into(),
            path: path.display().to_string(),
        });
    }
    if depth > MAX_DEPTH {
        return Err(SetError::TooDeep {
            at: at.into(),
            limit: MAX_DEPTH,
        });
    }
    let meta = std::fs::metadata(&canon).map_err(io)?;
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
        return Err(SetError::Io {
            at: at.into(),
            path: path.display().to_string(),
            message: format!("not a regular file of at most {MAX_FILE_BYTES} bytes"),
        });
    }
    let text = std::fs::read_to_string(&canon).map_err(io)?;
    let dir = canon.parent().unwrap_or(Path::new(".")).to_path_buf();
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "set".into());
    ctx.stack.push(canon);
    let raw: std::result::Result<RawSet, _> = toml::from_str(&text);
    let out = match raw {
        Ok(raw) if raw.weight.is_some() && depth == 0 => Err(SetError::Invalid {
            at: at.into(),
            message: "weight belongs to a [[member]]".into(),
        }),
        Ok(mut raw) => {
            // A weight in an included file is its member's weight: the caller reads it.
            raw.weight = None;
            build_set(raw, &dir, Some(&stem), depth, ctx, at)
        }
        Err(e) => Err(SetError::Toml(format!(
            "{}: {}",
            path.display(),
            one_line(&e.to_string())
        ))),
    };
    ctx.stack.pop();
    out
}

fn number(v: &toml::Value) -> Option<f64> {
    match v {
        toml::Value::Integer(i) => Some(*i as f64),
        toml::Value::Float(f) => Some(*f),
        _ => None,
    }
}

fn build_set(
    raw: RawSet,
    dir: &Path,
    default_name: Option<&str>,
    depth: usize,
    ctx: &mut Ctx,
    at: &str,
) -> std::result::Result<FilterSet, SetError> {
    if depth > MAX_DEPTH {
        return Err(SetError::TooDeep {
            at: at.into(),
            limit: MAX_DEPTH,
        });
    }
    let invalid = |m: &str| SetError::Invalid {
        at: at.into(),
        message: m.into(),
    };
    if raw.algo.is_some() || raw.set.is_some() {
        return Err(invalid(
            "a filter set has combine = ... and [[member]]s, not algo or set",
        ));
    }
    let combine = match raw.combine.as_deref().map(str::trim) {
        Some("serial") => Combine::Serial,
        Some("union") => Combine::Union,
        Some("intersection") => Combine::Intersection,
        Some("vote") => {
            let t = raw
                .threshold
                .as_ref()
                .ok_or_else(|| SetError::VoteWithoutThreshold { at: at.into() })?;
            let threshold = number(t).ok_or_else(|| SetError::BadValue {
                at: at.into(),
                message: format!("threshold = {t}: expected a number"),
            })?;
            Combine::Vote { threshold }
        }
        Some(other) => {
            return Err(invalid(&format!(
                "combine = {other:?}: expected serial, union, intersection or vote"
            )))
        }
        None => {
            return Err(invalid(
                "missing combine = \"serial\" | \"union\" | \"intersection\" | \"vote\"",
            ))
        }
    };
    if raw.threshold.is_some() && !matches!(combine, Combine::Vote { .. }) {
        return Err(invalid("threshold is only used by combine = \"vote\""));
    }
    check_shape(combine, raw.member.len(), at)?;
    let mut members = Vec::with_capacity(raw.member.len());
    for (j, m) in raw.member.into_iter().enumerate() {
        let at_m = if at == "top level" {
            format!("member {}", j + 1)
        } else {
            format!("{at}.{}", j + 1)
        };
        members.push(build_member(m, dir, combine, depth, ctx, &at_m)?);
    }
    let name = match (raw.name, default_name) {
        (Some(n), _) if !n.trim().is_empty() => n.trim().to_string(),
        (_, Some(d)) => d.to_string(),
        _ => {
            let names: Vec<&str> = members.iter().map(|m| m.extractor().name()).collect();
            format!("{}({})", combine.name(), names.join(","))
        }
    };
    let set = FilterSet::build(&name, raw.describe.as_deref(), combine, members);
    match raw.params {
        Some(p) => apply_params(set, &p, at),
        None => Ok(set),
    }
}

/// Parses a `params` table against `e`'s parameters.
fn parse_params(
    e: &dyn Extractor,
    table: &toml::Table,
    at: &str,
) -> std::result::Result<Params, SetError> {
    let mut p = Params::default();
    for (k, v) in table {
        let spec = e
            .params()
            .iter()
            .find(|s| s.name == k.as_str())
            .ok_or_else(|| SetError::UnknownParam {
                at: at.into(),
                algo: e.name().into(),
                name: k.clone(),
                known: {
                    let n: Vec<&str> = e.params().iter().map(|s| s.name.as_ref()).collect();
                    if n.is_empty() {
                        "none".into()
                    } else {
                        n.join(", ")
                    }
                },
            })?;
        let text = match v {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(_) | toml::Value::Float(_) | toml::Value::Boolean(_) => {
                v.to_string()
            }
            other => {
                return Err(SetError::BadValue {
                    at: at.into(),
                    message: format!("{k} = {other}: expected a number, a switch or a name"),
                })
            }
        };
        let value = spec.parse(&text).map_err(|e| SetError::BadValue {
            at: at.into(),
            message: match e {
                Error::Param(m) => m,
                e => e.to_string(),
            },
        })?;
        p.set(spec, value).map_err(|e| SetError::BadValue {
            at: at.into(),
            message: e.to_string(),
        })?;
    }
    Ok(p)
}

fn apply_params(
    set: FilterSet,
    table: &toml::Table,
    at: &str,
) -> std::result::Result<FilterSet, SetError> {
    let p = parse_params(&set, table, at)?;
    Ok(set.with_params(&p))
}

fn build_member(
    raw: RawSet,
    dir: &Path,
    parent: Combine,
    depth: usize,
    ctx: &mut Ctx,
    at: &str,
) -> std::result::Result<Member, SetError> {
    let weight = match &raw.weight {
        None => 1.0,
        Some(_) if !matches!(parent, Combine::Vote { .. }) => {
            return Err(SetError::Invalid {
                at: at.into(),
                message: "weight is only used when the set has combine = \"vote\"".into(),
            })
        }
        Some(v) => match number(v) {
            Some(w) if w.is_finite() && w > 0.0 => w,
            _ => {
                return Err(SetError::BadValue {
                    at: at.into(),
                    message: format!("weight = {v}: expected a number > 0"),
                })
            }
        },
    };
    let kinds = raw.algo.is_some() as u8 + raw.set.is_some() as u8 + raw.combine.is_some() as u8;
    if kinds != 1 {
        return Err(SetError::Invalid {
            at: at.into(),
            message: "a member needs exactly one of algo = NAME, set = \"FILE\" or combine = ... \
                      with its own [[member.member]]s"
                .into(),
        });
    }
    let member = if let Some(name) = &raw.algo {
        if raw.threshold.is_some()
            || !raw.member.is_empty()
            || raw.name.is_some()
            || raw.describe.is_some()
        {
            return Err(SetError::Invalid {
                at: at.into(),
                message: "an algo member has only algo, params and weight".into(),
            });
        }
        let e = lookup(name.trim(), ctx.sets).ok_or_else(|| SetError::UnknownAlgorithm {
            at: at.into(),
            name: name.clone(),
            known: if ctx.sets {
                super::names().join(", ")
            } else {
                super::singles()
                    .iter()
                    .map(|e| e.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        })?;
        let given = match &raw.params {
            Some(t) => parse_params(e.as_ref(), t, at)?,
            None => Params::default(),
        };
        Member {
            kind: MemberKind::Algo(e),
            given,
            weight,
        }
    } else if let Some(file) = &raw.set {
        if raw.threshold.is_some() || !raw.member.is_empty() {
            return Err(SetError::Invalid {
                at: at.into(),
                message: "a set = FILE member has only set, params and weight".into(),
            });
        }
        let s = read_file(&dir.join(file), ctx, at, depth + 1)?;
        let s = match &raw.params {
            Some(t) => apply_params(s, t, at)?,
            None => s,
        };
        Member::set(s)
    } else {
        Member::set(build_set(raw, dir, None, depth + 1, ctx, at)?)
    };
    Ok(member.with_weight(weight))
}

/// The shipped sets of Weissig & Gottron, section 5 (file name = registered name).
const SHIPPED: [(&str, &str); 10] = [
    ("3xdsc", include_str!("sets/3xdsc.toml")),
    ("3xbte", include_str!("sets/3xbte.toml")),
    ("3xaccb-r40", include_str!("sets/3xaccb-r40.toml")),
    ("lqf_dsc", include_str!("sets/lqf_dsc.toml")),
    ("lqf_bte", include_str!("sets/lqf_bte.toml")),
    ("lqf_accb-r40", include_str!("sets/lqf_accb-r40.toml")),
    ("mix1", include_str!("sets/mix1.toml")),
    ("mix2", include_str!("sets/mix2.toml")),
    ("mix3", include_str!("sets/mix3.toml")),
    ("mix4", include_str!("sets/mix4.toml")),
];

/// The shipped filter sets (Weissig & Gottron, section 5), parsed once: 3xdsc, 3xbte,
/// 3xaccb-r40, lqf_dsc, lqf_bte, lqf_accb-r40, mix1 … mix4. Their members are registered
/// algorithms only. A file that does not parse is left out (the unit tests check all parse).
pub fn shipped() -> &'static [FilterSet] {
    static SETS: OnceLock<Vec<FilterSet>> = OnceLock::new();
    SETS.get_or_init(|| {
        SHIPPED
            .iter()
            .filter_map(|(name, text)| {
                let mut ctx = Ctx {
                    stack: Vec::new(),
                    sets: false,
                };
                parse_text(text, Path::new("."), name, &mut ctx).ok()
            })
            .collect()
    })
}

/// The shipped set files as text, by registered name (what `cescope algos` could show).
pub fn shipped_text(name: &str) -> Option<&'static str> {
    SHIPPED
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, t)| *t)
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)]
mod tests;
