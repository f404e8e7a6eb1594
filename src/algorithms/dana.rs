//! R2L, DANA, DANAg and AdDANAg — the line-based family of Mohammadzadeh (2013, chapter 4) and
//! Mohammadzadeh, Schweiggert & Nakhaeizadeh (2011).
//!
//! All four share one skeleton over the page's virtual lines ([`crate::page::lines`], the
//! preprocessing of section 4.3.1):
//!
//! 1. **T1 / T2 per line** — R2L and DANA: characters of right-to-left scripts (set S1) and ASCII
//!    characters (set S2) (section 4.3.2); DANAg: content characters from the parser and
//!    `T2 = Length − T1` (Formula 4.5); AdDANAg: as DANAg after the second preprocessing, the
//!    hyperlink normalisation of Filter 3 (section 4.6.1.3; Filters 1 and 2 selectable).
//! 2. **Smoothing** — `diff_i = Σ_{k=i−1}^{i+1} (T1_k − T2_k)` (Formula 4.2; lines outside the
//!    page count 0), or no smoothing, `diff_i = T1_i − T2_i` (Formula 4.6).
//! 3. **Regions** — maximal runs of lines with `diff > 0`, `r_j = [x_j, y_j]` (Formula 4.3). The
//!    seed region `r_m` is the one with the most characters, measured as the sum of T1 over its
//!    lines (the content characters; ties go to the first). Algorithm 1 then grows the set T of
//!    main content regions to the left and right of `r_m` while the distance between consecutive
//!    regions `d(r_i, r_j) = x_j − y_i + 1` (Formula 4.4) is at most `gap`.
//! 4. **Extraction** — R2L keeps only the S1 characters of the selected lines (section 4.3.5);
//!    cescope selects maximal runs of S1 characters in the content text, joined across ASCII white
//!    space so words stay apart (characters inside tags, e.g. attribute values, are not
//!    displayed text and are not extracted). DANA, DANAg and AdDANAg feed the selected lines to
//!    an error-tolerant parser (section 4.4.1): cescope's lexer, whose content-text spans in the
//!    selected lines form the selection.

use std::borrow::Cow;
use std::ops::Range;

use crate::extract::explain as ex;
use crate::extract::preprocess::{link_filter, LinkFilter};
use crate::extract::trace::{Key, Missing};
use crate::extract::{AlgoInfo, Algorithm, Capabilities, Choice, Unfolding};
use crate::extract::{
    Extraction, Extractor, Location, Marks, ParamKind, ParamSpec, ParamValue, Params, Phase, Role,
    Scalar, Series, Step, Trace, Unit,
};
use crate::page::lex::ByteClass;
use crate::page::lines::is_rtl;
use crate::page::Page;
use crate::selection::Selection;

/// Which member of the family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// R2L (Mohammadzadeh et al. 2011; thesis section 4.3).
    R2l,
    /// DANA (thesis section 4.4).
    Dana,
    /// DANAg (thesis section 4.5).
    Danag,
    /// AdDANAg (thesis section 4.6).
    Addanag,
}

/// A region `[x, y]` of consecutive virtual lines with `diff > 0`, inclusive (Formula 4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// First line.
    pub x: usize,
    /// Last line (inclusive).
    pub y: usize,
}

crate::choice_enum! {
    /// The smoothing of [`SMOOTHING_SPEC`].
    pub enum Smoothing {
        /// diff over lines i-1..i+1 (Formula 4.2).
        ThreeLine = "three-line",
        /// diff = T1 - T2 (Formula 4.6).
        None = "none",
    }
}

crate::choice_enum! {
    /// The headline bound of [`BOUND_SPEC`] (thesis 7.2.1).
    pub enum Bound {
        /// As published.
        None = "none",
        /// Regions between the headline and the end of the smallest DOM subtree holding it and the seed region, no gap.
        Headline = "headline",
        /// Algorithm 1 cut to those bounds.
        HeadlineGap = "headline+gap",
    }
}

const GAP_HELP: &str = "largest distance d(ri, rj) = xj - yi + 1 (virtual lines) between consecutive main content regions (Algorithm 1, Formula 4.4)";

const fn gap_spec(default: i64, source: &'static str) -> ParamSpec {
    ParamSpec {
        name: Cow::Borrowed("gap"),
        kind: ParamKind::Int {
            min: 0,
            max: 200,
            step: 1,
        },
        default: ParamValue::Int(default),
        help: GAP_HELP,
        source,
    }
}

/// R2L's gap: 8 lines (Mohammadzadeh et al. 2011, parameter P; thesis 4.3.4).
pub const R2L_GAP: ParamSpec = gap_spec(
    8,
    "Mohammadzadeh et al. 2011, parameter P; thesis 4.3.4: gap = 8",
);
/// DANA's gap: 20 lines (Mohammadzadeh 2013, section 4.4).
pub const DANA_GAP: ParamSpec = gap_spec(20, "Mohammadzadeh 2013, section 4.4: gap = 20");
/// DANAg's gap: 20 lines, as DANA (Mohammadzadeh 2013, section 4.5).
pub const DANAG_GAP: ParamSpec =
    gap_spec(20, "Mohammadzadeh 2013, section 4.5 (as DANA): gap = 20");
/// AdDANAg's gap: 20 lines, as DANAg (Mohammadzadeh 2013, section 4.6).
pub const ADDANAG_GAP: ParamSpec =
    gap_spec(20, "Mohammadzadeh 2013, section 4.6 (as DANAg): gap = 20");
/// Smoothing: Formula 4.2 (three lines, the default) or none (Formula 4.6).
pub const SMOOTHING_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("smoothing"),
    kind: ParamKind::Choice {
        choices: <Smoothing as Choice>::NAMES,
    },
    default: ParamValue::choice("three-line"),
    help: "three-line: diff over lines i-1..i+1 (Formula 4.2); none: diff = T1 - T2 (Formula 4.6)",
    source: "Mohammadzadeh 2013, Formulas 4.2 and 4.6",
};
/// AdDANAg's hyperlink filter: Filter 3 by default (Mohammadzadeh 2013, section 4.6.1).
pub const FILTER_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("filter"),
    kind: ParamKind::Choice {
        choices: <LinkFilter as Choice>::NAMES,
    },
    default: ParamValue::choice("filter3"),
    help: "hyperlink preprocessing: filter3 placeholder LT-7 (Alg. 4), filter1 remove links (Alg. 2), filter2 strip attributes (Alg. 3), none",
    source: "Mohammadzadeh 2013, section 4.6.1, Algorithms 2-4",
};

/// The main content bounded by the headline and a DOM subtree (Mohammadzadeh 2013, 7.2.1, a
/// future direction of the thesis): `none` (the published algorithms, the default);
/// `headline`: the headline TitleFinder finds (`tf`, [`super::headline`]) is the upper bound, the
/// end of the smallest DOM subtree holding the headline and the seed region's text is the lower
/// bound, and every region between them is main content, without the gap; `headline+gap`:
/// Algorithm 1's selection (with the gap), cut to the same bounds. See [`headline_bounds`].
pub const BOUND_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("bound"),
    kind: ParamKind::Choice {
        choices: <Bound as Choice>::NAMES,
    },
    default: ParamValue::choice("none"),
    help: "none: as published; headline: regions between the headline (upper bound) and the end of the smallest DOM subtree holding it and the seed region (lower bound), no gap; headline+gap: Algorithm 1 cut to those bounds",
    source: "Mohammadzadeh 2013, 7.2.1 (future direction); none = the published algorithm",
};

const R2L_SPECS: &[ParamSpec] = &[R2L_GAP, SMOOTHING_SPEC, BOUND_SPEC];
const DANA_SPECS: &[ParamSpec] = &[DANA_GAP, SMOOTHING_SPEC, BOUND_SPEC];
const DANAG_SPECS: &[ParamSpec] = &[DANAG_GAP, SMOOTHING_SPEC, BOUND_SPEC];
const ADDANAG_SPECS: &[ParamSpec] = &[ADDANAG_GAP, SMOOTHING_SPEC, FILTER_SPEC, BOUND_SPEC];

/// The parameters of one run of a [`DanaFamily`] member, read once ([`DanaParams::read`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DanaParams {
    /// The gap in virtual lines (Algorithm 1).
    pub gap: usize,
    /// Formula 4.2's three-line smoothing, or none (Formula 4.6).
    pub smoothing: Smoothing,
    /// AdDANAg's hyperlink filter ([`LinkFilter::None`] for the other variants).
    pub filter: LinkFilter,
    /// The headline bound of thesis 7.2.1.
    pub bound: Bound,
}

impl DanaParams {
    /// The values of `params` for `variant` (each absent one: its spec's default).
    pub fn read(variant: Variant, params: &Params) -> DanaParams {
        let gap = match variant {
            Variant::R2l => &R2L_GAP,
            Variant::Dana => &DANA_GAP,
            Variant::Danag => &DANAG_GAP,
            Variant::Addanag => &ADDANAG_GAP,
        };
        DanaParams {
            gap: params.read::<i64>(gap).max(0) as usize,
            smoothing: params.read(&SMOOTHING_SPEC),
            filter: match variant {
                Variant::Addanag => params.read(&FILTER_SPEC),
                _ => LinkFilter::None,
            },
            bound: params.read(&BOUND_SPEC),
        }
    }
}

/// One member of the R2L / DANA / DANAg / AdDANAg family.
#[derive(Debug, Clone)]
pub struct DanaFamily {
    variant: Variant,
}

impl DanaFamily {
    fn new(variant: Variant) -> Self {
        DanaFamily { variant }
    }

    /// R2L, registered as `r2l`.
    pub fn r2l() -> Self {
        Self::new(Variant::R2l)
    }
    /// DANA, registered as `dana`.
    pub fn dana() -> Self {
        Self::new(Variant::Dana)
    }
    /// DANAg, registered as `danag`.
    pub fn danag() -> Self {
        Self::new(Variant::Danag)
    }
    /// AdDANAg, registered as `addanag`.
    pub fn addanag() -> Self {
        Self::new(Variant::Addanag)
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }
}

/// The trace items DANA reads back in its explanation: built and read by
/// these [`Key`]s.
const LENGTH: Key<Series> = Key::new("length");
const FILTERED: Key<Series> = Key::new("filtered");
const T1: Key<Series> = Key::new("T1");
const T2: Key<Series> = Key::new("T2");
const DIFF: Key<Series> = Key::new("diff");
const GAP: Key<Scalar> = Key::new("gap");
const WINDOW: Key<Scalar> = Key::new("window");
const SEED_INDEX: Key<Scalar> = Key::new("seed_index");
const REGION_MARKS: Key<Marks> = Key::new("regions");
const SELECTED: Key<Marks> = Key::new("selected");
const BOUNDS: Key<Marks> = Key::new("bounds");

const PREPROCESSING: Phase = Phase::new("preprocessing", "scripts, styles and comments removed; block tags on lines of their own: the virtual lines (thesis 4.3.1)", &["length"]);
const FILTER: Phase = Phase::new("filter", "hyperlink normalisation: Filter 3 gives each anchor start tag LT - 7 placeholder characters (Algorithm 4; Filters 1-2: Algorithms 2-3)", &["filtered"]);
const T1_T2: Phase = Phase::new("T1 / T2", "content and code characters per line: T1 right of the axis, T2 left (Fig. 4.3; Formula 4.5 for DANAg)", &["T1", "T2"]);
const SMOOTHING: Phase = Phase::new(
    "smoothing",
    "diff_i = sum of T1 - T2 over lines i-1..i+1 (Formula 4.2), or T1 - T2 (Formula 4.6)",
    &["diff", "window"],
);
const REGIONS: Phase = Phase::new(
    "regions",
    "maximal runs of lines with diff > 0 are the regions r_j = [x_j, y_j] (Formula 4.3)",
    &["regions", "region_count"],
);
const SEED: Phase = Phase::new(
    "seed",
    "the region with the most characters is the seed region r_m",
    &["seed", "seed_index"],
);
const GAP_EXPANSION: Phase = Phase::new(
    "gap expansion",
    "neighbouring regions join while d(r_i, r_j) = x_j - y_i + 1 <= gap (Algorithm 1, Formula 4.4)",
    &["selected", "gap", "bounds"],
);
const EXTRACTION: Phase = Phase::new(
    "extraction",
    "the content of the selected lines is extracted (4.3.5 for R2L, parser 4.4.1 otherwise)",
    &[],
);
const PHASES: &[Phase] = &[
    PREPROCESSING,
    T1_T2,
    SMOOTHING,
    REGIONS,
    SEED,
    GAP_EXPANSION,
    EXTRACTION,
];
const ADDANAG_PHASES: &[Phase] = &[
    PREPROCESSING,
    FILTER,
    T1_T2,
    SMOOTHING,
    REGIONS,
    SEED,
    GAP_EXPANSION,
    EXTRACTION,
];

static R2L_INFO: AlgoInfo = AlgoInfo::new(
    "r2l",
    "R2L: right-to-left vs ASCII characters per line, smoothing, regions, gap expansion; keeps R2L characters (Mohammadzadeh et al. 2011; thesis 4.3)",
    "Mohammadzadeh et al. 2011; Mohammadzadeh 2013, 4.3, Formulas 4.2-4.4, Algorithm 1",
    R2L_SPECS,
    PHASES,
);
static DANA_INFO: AlgoInfo = AlgoInfo::new(
    "dana",
    "DANA: R2L's regions, content of the selected lines via a parser (Mohammadzadeh 2013, 4.4)",
    "Mohammadzadeh 2013, 4.4",
    DANA_SPECS,
    PHASES,
);
static DANAG_INFO: AlgoInfo = AlgoInfo::new(
    "danag",
    "DANAg: content vs code characters per line (Formula 4.5), language independent (Mohammadzadeh 2013, 4.5)",
    "Mohammadzadeh 2013, 4.5, Formula 4.5",
    DANAG_SPECS,
    PHASES,
);
static ADDANAG_INFO: AlgoInfo = AlgoInfo::new(
    "addanag",
    "AdDANAg: DANAg after hyperlink normalisation, Filter 3 (Mohammadzadeh 2013, 4.6)",
    "Mohammadzadeh 2013, 4.6, Algorithms 2-4",
    ADDANAG_SPECS,
    ADDANAG_PHASES,
);

impl Algorithm for DanaFamily {
    fn info(&self) -> &AlgoInfo {
        match self.variant {
            Variant::R2l => &R2L_INFO,
            Variant::Dana => &DANA_INFO,
            Variant::Danag => &DANAG_INFO,
            Variant::Addanag => &ADDANAG_INFO,
        }
    }
}

impl Unfolding for DanaFamily {
    /// The gap expansion plays region by region from the seed (Algorithm 1).
    fn unfolds(&self, step: usize) -> Option<Key<Marks>> {
        (self.phases().get(step)?.name == "gap expansion").then_some(SELECTED)
    }
}

impl Extractor for DanaFamily {
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            unfolding: Some(self),
            ..Capabilities::default()
        }
    }

    /// The explanation grows with the phases: T1 / T2, then diff, then the region, then the
    /// seed, then the gap expansion's verdict.
    fn explain(
        &self,
        page: &Page,
        x: &Extraction,
        at: Location,
        step: Option<Step>,
    ) -> Vec<String> {
        let phases = self.phases();
        let known = |k: &str| crate::extract::revealed(phases, step.map(|s| s.phase), k);
        // While the gap expansion plays region by region: only the regions reached so far.
        let partial =
            step.and_then(|s| Some(crate::extract::unfolded(self, x, s.phase, s.unfolded?)));
        let seen = partial.as_ref().unwrap_or(x);
        let line = match at {
            Location::Line(line) => Some(line),
            // Other locations: the virtual line holding them.
            _ => crate::extract::trace::location_bytes(&x.trace, page, at)
                .and_then(|b| page.lines().line_of(b.start)),
        };
        let explained = || -> Result<Vec<String>, Missing> {
            let reached = Reached {
                spans: seen.trace.get(SELECTED)?.spans.as_slice(),
                all: partial.is_none()
                    || seen.trace.get(SELECTED)?.spans.len() == x.trace.get(SELECTED)?.spans.len(),
            };
            Ok(match line {
                Some(line) => explain_line(self.variant, x, line, &known, &reached)?,
                None => crate::extract::explain_generic_known(page, &seen.trace, at, &known),
            })
        };
        ex::or_missing(explained())
    }

    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let DanaParams {
            gap,
            smoothing,
            filter,
            bound,
        } = DanaParams::read(self.variant, params);
        let window = smoothing == Smoothing::ThreeLine;
        // T1 / T2 per virtual line, and the size of each line before the hyperlink filter
        // (`length`, T1 + T2 of DANAg) and after it (`filtered`, AdDANAg only).
        let mut filtered: Option<Vec<i64>> = None;
        let (t1, t2, removed, length) = match self.variant {
            Variant::R2l | Variant::Dana => {
                let l = &page.lines().lines;
                let t1: Vec<i64> = l.iter().map(|l| l.rtl as i64).collect();
                let t2: Vec<i64> = l.iter().map(|l| l.ascii as i64).collect();
                let length = t1.iter().zip(&t2).map(|(a, b)| a + b).collect();
                (t1, t2, Vec::new(), length)
            }
            Variant::Danag | Variant::Addanag => {
                let c = link_filter(page, filter);
                let sum = |c: &crate::extract::preprocess::LineCounts| -> Vec<i64> {
                    c.content.iter().zip(&c.code).map(|(a, b)| a + b).collect()
                };
                let length = if self.variant == Variant::Addanag {
                    filtered = Some(sum(&c));
                    sum(&link_filter(page, LinkFilter::None))
                } else {
                    sum(&c)
                };
                (c.content, c.code, c.removed, length)
            }
        };
        let diff = smooth(&t1, &t2, window);
        let regions = regions(&diff);
        let seed = seed_region(&regions, &t1);
        let chosen = seed.map(|m| expand(&regions, m, gap));

        let lines = &page.lines().lines;
        let mut selected_lines: Vec<Range<usize>> = Vec::new();
        if let Some(ch) = &chosen {
            for r in &regions[ch.clone()] {
                selected_lines.push(r.x..r.y + 1);
            }
        }
        // Thesis 7.2.1: the headline and the DOM subtree bound the main content.
        let bounds = match (bound, seed) {
            (Bound::Headline | Bound::HeadlineGap, Some(m)) => headline_bounds(page, regions[m]),
            _ => None,
        };
        if let Some(b) = &bounds {
            let pool: &[Region] = match (bound, &chosen) {
                (Bound::HeadlineGap, Some(ch)) => &regions[ch.clone()],
                _ => &regions,
            };
            selected_lines = pool
                .iter()
                .map(|r| r.x.max(b.lines.start)..(r.y + 1).min(b.lines.end))
                .filter(|r| r.start < r.end)
                .collect();
        }
        let mut sel = Selection::new();
        let text = page.text();
        let spans = &page.lexed().spans;
        let removed_sel = Selection::from_ranges(removed);
        for lr in &selected_lines {
            for line in &lines[lr.clone()] {
                for s in &spans[line.span_range()] {
                    if s.class != ByteClass::Text {
                        continue;
                    }
                    let slice = &text[s.range()];
                    if slice.bytes().all(|b| b.is_ascii_whitespace()) {
                        continue;
                    }
                    if self.variant == Variant::R2l {
                        for r in rtl_runs(slice) {
                            sel.push(s.start as usize + r.start..s.start as usize + r.end);
                        }
                    } else {
                        sel.push(s.range());
                    }
                }
            }
        }
        if !removed_sel.is_empty() {
            sel = sel.difference(&removed_sel);
        }
        if let Some(b) = &bounds {
            sel = sel.intersection(&Selection::from_ranges([b.bytes.clone()]));
        }

        let as_f = |v: &[i64]| v.iter().map(|&x| x as f64).collect::<Vec<_>>();
        let to_ranges = |rs: &[Region]| rs.iter().map(|r| r.x..r.y + 1).collect::<Vec<_>>();
        let (l1, l2, ll) = match self.variant {
            Variant::R2l | Variant::Dana => (
                "T1 (R2L chars)",
                "T2 (ASCII chars)",
                "T1 + T2 (R2L + ASCII chars)",
            ),
            _ => (
                "T1 (content chars)",
                "T2 (code chars, Formula 4.5)",
                "length (kept chars)",
            ),
        };
        let vl = Unit::VirtualLine;
        let mut series = vec![Series::new(LENGTH, ll, vl, Role::Size, as_f(&length))];
        if let Some(f) = &filtered {
            series.push(Series::new(
                FILTERED,
                "length after the hyperlink filter (kept chars)",
                vl,
                Role::Size,
                as_f(f),
            ));
        }
        series.extend([
            Series::new(T1, l1, vl, Role::ContentSignal, as_f(&t1)),
            Series::new(T2, l2, vl, Role::CodeSignal, as_f(&t2)),
            Series::new(
                DIFF,
                if window {
                    "diff (Formula 4.2)"
                } else {
                    "diff (Formula 4.6)"
                },
                vl,
                Role::CombinedSignal,
                as_f(&diff),
            ),
        ]);
        let trace = Trace {
            series,
            scalars: vec![
                Scalar::new(GAP, "gap", Some(vl), Role::Bound, gap as f64),
                Scalar::new(
                    WINDOW,
                    "three-line smoothing",
                    None,
                    Role::Info,
                    if window { 1.0 } else { 0.0 },
                ),
                Scalar::new(
                    "region_count",
                    "regions",
                    None,
                    Role::Info,
                    regions.len() as f64,
                ),
                Scalar::new(
                    SEED_INDEX,
                    "seed region index",
                    None,
                    Role::Info,
                    seed.map_or(-1.0, |m| m as f64),
                ),
            ],
            marks: vec![
                Marks::new(
                    REGION_MARKS,
                    "regions (Formula 4.3)",
                    vl,
                    Role::Candidates,
                    to_ranges(&regions),
                ),
                Marks::new(
                    "seed",
                    "seed region",
                    vl,
                    Role::Seed,
                    seed.map(|m| to_ranges(&regions[m..m + 1]))
                        .unwrap_or_default(),
                ),
                Marks::new(
                    SELECTED,
                    "main content regions (Algorithm 1)",
                    vl,
                    Role::Selected,
                    selected_lines,
                ),
                Marks::new(
                    BOUNDS,
                    "headline to the end of its DOM subtree (thesis 7.2.1)",
                    vl,
                    Role::Bound,
                    bounds.map(|b| vec![b.lines]).unwrap_or_default(),
                ),
            ],
            positions: Vec::new(),
        };
        Extraction {
            selection: sel,
            trace,
        }
    }
}

/// The bounds of the main content of thesis 7.2.1 ([`BOUND_SPEC`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounds {
    /// Bytes of the decoded text between the end of the headline (upper bound, the headline
    /// itself excluded) and the end of the smallest DOM subtree holding the headline and the
    /// seed region's text (lower bound).
    pub bytes: Range<usize>,
    /// The virtual lines from the headline's line to the subtree's last line (half-open).
    pub lines: Range<usize>,
}

/// The bounds of thesis 7.2.1 for a page whose seed region is `seed`: the headline is TitleFinder's
/// (`tf`, default parameters, [`super::headline::titlefinder_headlines`]); the lower bound is the end of the lowest
/// common DOM ancestor of the headline's node and every text node (with non-white-space text)
/// starting inside the seed region's lines. `None` — and the algorithm runs unbounded — when
/// TitleFinder finds no headline, or the headline starts after the seed region ends (a
/// headline below the content it should head bounds nothing). O(nodes).
pub fn headline_bounds(page: &Page, seed: Region) -> Option<Bounds> {
    // The headline depends on the page only: found once per page, not on every run (slider
    // moves, the optimiser's evaluations).
    let found = super::headline::titlefinder_headlines(page);
    let head = found.best()?;
    let vlines = page.lines();
    let lines = &vlines.lines;
    let seed_bytes = lines.get(seed.x)?.start as usize..lines.get(seed.y)?.end as usize;
    if head.range.start >= seed_bytes.end {
        return None;
    }
    let dom = page.dom();
    let lca = |a: usize, b: usize| {
        let mut x = a;
        while !dom.contains(x, b) {
            match dom.parent(x) {
                Some(p) => x = p,
                None => return 0,
            }
        }
        x
    };
    let mut top = head.node;
    for (id, spans) in dom.text_nodes() {
        let Some(first) = spans.first() else {
            continue;
        };
        if seed_bytes.contains(&first.start)
            && !dom.is_non_text(id)
            && dom
                .node_text(id)
                .is_some_and(|t| t.chars().any(|c| !c.is_whitespace()))
        {
            top = lca(top, id);
        }
    }
    let end = dom.hull(top).map_or(page.text().len(), |h| h.end);
    let first = vlines.line_of(head.range.start)?;
    let last = vlines.line_of(end.saturating_sub(1)).unwrap_or(first);
    Some(Bounds {
        bytes: head.range.end..end,
        lines: first..last.max(first) + 1,
    })
}

/// The selected lines as far as the gap expansion has gone in step mode.
struct Reached<'a> {
    /// The selected spans (virtual lines) reached so far.
    spans: &'a [Range<usize>],
    /// Every selected span is reached (always, outside step mode's gap expansion).
    all: bool,
}

/// The explain-panel text for one virtual line (0-based `line`; shown 1-based, as are regions).
/// `known` says which trace items the phases so far computed; `reached`, how far the gap
/// expansion has gone (a region's verdict waits until the expansion has reached it, or, for a
/// region it never reaches, until it has reached all it takes). Errors: [`Missing`] when the
/// trace lacks an item it reads (the hyperlink filter's `filtered` series is optional).
fn explain_line(
    variant: Variant,
    x: &Extraction,
    line: usize,
    known: &dyn Fn(&str) -> bool,
    reached: &Reached,
) -> Result<Vec<String>, Missing> {
    let val =
        |key: Key<Series>| -> Result<i64, Missing> { Ok(x.trace.value_at(key, line)? as i64) };
    let n = x.trace.get(DIFF)?.values.len();
    if line >= n {
        return Ok(vec![format!(
            "line {}: past the last virtual line",
            line + 1
        )]);
    }
    let gap = x.trace.scalar_of(GAP)? as usize;
    let formula = if x.trace.scalar_of(WINDOW)? == 0.0 {
        "Formula 4.6"
    } else {
        "Formula 4.2"
    };
    let (t1, t2) = match variant {
        Variant::R2l | Variant::Dana => ("T1 (R2L chars)", "T2 (ASCII chars)"),
        _ => ("T1 (content chars)", "T2 (code chars, Formula 4.5)"),
    };
    let mut first = Vec::new();
    if !known("T1") {
        first.push(if known(FILTERED.name()) && x.trace.get(FILTERED).is_ok() {
            format!(
                "{} characters after the hyperlink filter (of {} before)",
                val(FILTERED)?,
                val(LENGTH)?
            )
        } else {
            format!(
                "{} characters of content and code (virtual line, 4.3.1)",
                val(LENGTH)?
            )
        });
    }
    if known("T1") {
        first.push(format!("{t1} = {}, {t2} = {}", val(T1)?, val(T2)?));
    }
    if known("diff") {
        first.push(format!("diff = {} ({formula})", val(DIFF)?));
    }
    let mut out = vec![format!("line {}: {}", line + 1, first.join(", "))];
    if !known("regions") {
        return Ok(out);
    }
    let regions: Vec<Region> = x
        .trace
        .get(REGION_MARKS)?
        .spans
        .iter()
        .map(|r| Region {
            x: r.start,
            y: r.end.saturating_sub(1),
        })
        .collect();
    let Some(k) = regions.iter().position(|r| r.x <= line && line <= r.y) else {
        out.push("diff <= 0: the line is in no region (Formula 4.3) -> not selected".into());
        return Ok(out);
    };
    let r = regions[k];
    let t1s = x.trace.get(T1)?.values.as_slice();
    let chars = |r: Region| -> i64 {
        t1s.get(r.x..=r.y)
            .map_or(0, |s| s.iter().sum::<f64>() as i64)
    };
    out.push(format!(
        "in region r{} = [{}, {}] (sum of T1 = {})",
        k + 1,
        r.x + 1,
        r.y + 1,
        chars(r)
    ));
    let seed_index = x.trace.scalar_of(SEED_INDEX)?;
    if seed_index < 0.0 || !known(SEED_INDEX.name()) {
        return Ok(out);
    }
    let m = seed_index as usize;
    if k == m {
        // Selected is Algorithm 1's verdict: the seed phase names the seed only.
        out.push(if known("selected") {
            format!(
                "r{} is the seed region: the most characters -> selected",
                k + 1
            )
        } else {
            format!(
                "r{} is the seed region: the most characters; the gap expansion starts from it",
                k + 1
            )
        });
        return Ok(out);
    }
    if !known("selected") {
        out.push(format!(
            "the seed region is r{} (sum of T1 = {})",
            m + 1,
            chars(regions[m])
        ));
        return Ok(out);
    }
    let in_reached = reached.spans.iter().any(|s| s.contains(&line));
    let not_yet = || {
        format!(
            "r{} is not reached yet: the gap expansion goes outwards from the seed r{}, one region at a time (Algorithm 1)",
            k + 1,
            m + 1
        )
    };
    // With a headline bound (thesis 7.2.1) the verdict is the bounded selection's, not
    // Algorithm 1's chain from the seed.
    if let Some(b) = x.trace.get(BOUNDS)?.spans.first().cloned() {
        let (inside, verdict) = (
            b.contains(&line),
            if in_reached {
                "selected"
            } else {
                "not selected"
            },
        );
        if inside && !in_reached && !reached.all {
            out.push(not_yet());
            return Ok(out);
        }
        out.push(format!(
            "{} the headline bounds [{}, {}] (thesis 7.2.1) -> {verdict}",
            if inside { "inside" } else { "outside" },
            b.start + 1,
            b.end
        ));
        return Ok(out);
    }
    let chosen = expand(&regions, m, gap);
    // The verdict waits until the expansion has reached the region, or (for a region it never
    // reaches) until it has reached every region it takes.
    if !in_reached && (chosen.contains(&k) || !reached.all) {
        out.push(not_yet());
        return Ok(out);
    }
    let (i, j) = if k < m { (k, k + 1) } else { (k - 1, k) };
    let d = distance(regions[i], regions[j]);
    if chosen.contains(&k) {
        out.push(format!(
            "d(r{}, r{}) = {} <= gap {} on the way from the seed r{} -> selected (Algorithm 1, Formula 4.4)",
            i + 1,
            j + 1,
            d,
            gap,
            m + 1
        ));
    } else {
        // Where the chain from the seed breaks.
        let (bi, bj) = if k < m {
            (chosen.start - 1, chosen.start)
        } else {
            (chosen.end - 1, chosen.end)
        };
        out.push(format!(
            "the chain from the seed r{} breaks at d(r{}, r{}) = {} > gap {} -> not selected (Algorithm 1)",
            m + 1,
            bi + 1,
            bj + 1,
            distance(regions[bi], regions[bj]),
            gap
        ));
    }
    Ok(out)
}

/// Formula 4.2 (`window = true`): `diff_i = Σ_{k=i−1}^{i+1} (T1_k − T2_k)`, terms outside the
/// page being 0; Formula 4.6 (`window = false`): `diff_i = T1_i − T2_i`. Units: characters per
/// virtual line. Panics never; `t1` and `t2` of different lengths are cut to the shorter.
pub fn smooth(t1: &[i64], t2: &[i64], window: bool) -> Vec<i64> {
    let d: Vec<i64> = t1.iter().zip(t2).map(|(a, b)| a - b).collect();
    if !window {
        return d;
    }
    (0..d.len())
        .map(|i| {
            let prev = if i > 0 { d[i - 1] } else { 0 };
            let next = d.get(i + 1).copied().unwrap_or(0);
            prev + d[i] + next
        })
        .collect()
}

/// The regions of Formula 4.3: maximal runs of consecutive lines with `diff > 0`, in order.
pub fn regions(diff: &[i64]) -> Vec<Region> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, &d) in diff.iter().enumerate() {
        match (start, d > 0) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                out.push(Region { x: s, y: i - 1 });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(Region {
            x: s,
            y: diff.len() - 1,
        });
    }
    out
}

/// Formula 4.4: `d(r_i, r_j) = x_j − y_i + 1` for `y_i < x_j` (virtual lines). Saturates at 0 for
/// overlapping arguments instead of underflowing.
pub fn distance(ri: Region, rj: Region) -> usize {
    (rj.x + 1).saturating_sub(ri.y)
}

/// The seed region `r_m`: the region with the most characters, counted as the sum of `t1` over
/// its lines (ties: the first). `None` when there is no region.
pub fn seed_region(regions: &[Region], t1: &[i64]) -> Option<usize> {
    let mut best: Option<(usize, i64)> = None;
    for (i, r) in regions.iter().enumerate() {
        let chars: i64 = t1.get(r.x..=r.y).map_or(0, |s| s.iter().sum());
        if best.is_none_or(|(_, b)| chars > b) {
            best = Some((i, chars));
        }
    }
    best.map(|b| b.0)
}

/// Algorithm 1 (Mohammadzadeh 2013): starting from the seed region `m`, adds the neighbouring
/// regions to the left while `d(r_{i−1}, r_i) ≤ gap`, then to the right while
/// `d(r_i, r_{i+1}) ≤ gap`. Returns the index range of the regions in T.
pub fn expand(regions: &[Region], m: usize, gap: usize) -> Range<usize> {
    let mut lo = m;
    while lo > 0 && distance(regions[lo - 1], regions[lo]) <= gap {
        lo -= 1;
    }
    let mut hi = m;
    while hi + 1 < regions.len() && distance(regions[hi], regions[hi + 1]) <= gap {
        hi += 1;
    }
    lo..hi + 1
}

/// Byte ranges (relative to `s`) of maximal runs of S1 characters ([`is_rtl`]) joined across
/// ASCII white space; runs never start or end with white space.
pub fn rtl_runs(s: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut run: Option<Range<usize>> = None;
    for (i, c) in s.char_indices() {
        if is_rtl(c) {
            let e = i + c.len_utf8();
            match run.as_mut() {
                Some(r) => r.end = e,
                None => run = Some(i..e),
            }
        } else if c.is_ascii_whitespace() {
            // may continue a run
        } else if let Some(r) = run.take() {
            out.push(r);
        }
    }
    if let Some(r) = run {
        out.push(r);
    }
    out
}

#[cfg(test)]
mod tests;
