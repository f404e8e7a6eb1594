//! `crunch` — the Crunch filters (Gupta, Kaiser, Neistadt & Grimm 2003; Crunch 2.0 by Gupta et
//! al. 2005) that need no external service, as given in Mohammadzadeh (2013), section 3.2.1,
//! Algorithm 1 ("Crunch Filtering Algorithm").
//!
//! Algorithm 1 walks the DOM recursively from the root; at each element `D` (first match wins):
//! 1. **ad-link removal** (`ignoreAds`): if `isAdLink(D)` — `D` points at an advertisement
//!    server ("a list of advertisement server addresses is kept") — `D` is removed;
//! 2. **link-cell removal** (`ignoreLinkCells`): else if `D` is a `TD` and its link-text ratio
//!    `getLinkTextRatio(D)` exceeds `threshold`, `D` is removed;
//! 3. **text-link removal** (`ignoreTextLink`): else if `isTextLink(D)`, `D` is removed.
//!
//! A removed node goes with its subtree (`parent.removeChild(D)`) and the walk does not enter
//! it; the text that remains is the main content. Ratios are taken on the page as parsed (the
//! walk is top-down, so a cell is judged before anything inside it is removed).
//!
//! How cescope reads the parts the pseudo-code leaves open (each documented, the open ones are
//! parameters):
//! - `getLinkTextRatio(D)`: characters of text inside `<a>` elements over all characters of text
//!   in `D`'s subtree, white space not counted (as [`super::lqf`] counts; the thesis says Crunch
//!   decides link lists with "the Link Quota Filter technique"). A cell without text has no ratio
//!   and stays.
//! - `threshold` ([`T_SPEC`]): the thesis gives no value; the default 0.5 is the middle of the
//!   link quotas the thesis studies for LQF (0.25, 0.5, 0.75).
//! - Which elements are "cells" ([`CELLS_SPEC`]): `td` as Algorithm 1 (default), or `blocks`:
//!   every block element ([`crate::page::dom::Dom::is_block`]) except `html`, `head` and `body`,
//!   for pages laid out with `<div>`s rather than tables.
//! - `isTextLink(D)`: `D` is an `<a>` with an `href`, with text, and without an `<img>` inside
//!   (an image link is not a text link). `addLinksToBottom` (the removed links appended to the
//!   page) is not modelled: it would give the removed link text back, which is what
//!   `text_links=false` does.
//! - `isAdLink(D)`: `D` is an element with a URL attribute (`a` / `area` `href`, `img` /
//!   `iframe` / `embed` `src`, `object` `data`) whose URL matches the built-in list [`AD_HOSTS`]
//!   (host equal to or a subdomain of an ad server) or [`AD_HOST_LABELS`] / [`AD_PATHS`] (an
//!   `ads.` host label or an `/ads/` path segment). The list is short and documented, not a
//!   blocking list; switch the filter off with `ads=false`.
//! - The first filter of Algorithm 1 (removing `style` attributes of `DIV`s) and the removal of
//!   images and empty tables change no text and so no selection; they are not modelled. Text in
//!   `<head>` and text the DOM marks as not shown (scripts, styles, …) is never main content.
//!
//! Cost: O(nodes + text) — one pass for per-node prefix sums, one walk.

use crate::extract::explain::{self as ex, TextLine};
use crate::extract::trace::{runs, Agg, Marks, Phase, Positions, Role, Scalar, Series};
use crate::extract::trace::{Key, Missing, Trace, Unit};
use crate::extract::{AlgoInfo, Choice, StaticInfo};
use crate::extract::{Extraction, Extractor, ParamKind, ParamSpec, ParamValue, Params};
use crate::page::dom::{Dom, NodeKind};
use crate::page::lex::Tag;
use crate::page::Page;
use crate::selection::Selection;
use std::borrow::Cow;

/// The link-text ratio above which a cell is removed (`threshold` of Algorithm 1).
pub const T_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("t"),
    kind: ParamKind::Float {
        min: 0.0,
        max: 1.0,
        step: 0.05,
    },
    default: ParamValue::Float(0.5),
    help: "a cell whose link text / text exceeds t is removed (the thesis gives no value)",
    source: "Mohammadzadeh 2013, 3.2.1, Algorithm 1 (threshold); default cescope's choice",
};

/// Which elements the link-cell filter judges.
pub const CELLS_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("cells"),
    kind: ParamKind::Choice {
        choices: <Cells as Choice>::NAMES,
    },
    default: ParamValue::choice("td"),
    help: "td: table cells, as Algorithm 1; blocks: every block element but html/head/body",
    source: "Mohammadzadeh 2013, 3.2.1, Algorithm 1 (nodeName = TD); blocks is cescope's extension",
};

/// `ignoreLinkCells`: the link-cell filter on or off.
pub const LINK_CELLS_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("link_cells"),
    kind: ParamKind::Bool,
    default: ParamValue::Bool(true),
    help: "remove cells whose link-text ratio exceeds t",
    source: "Mohammadzadeh 2013, 3.2.1, Algorithm 1 (setting.ignoreLinkCells)",
};

/// `ignoreTextLink`: the text-link filter on or off.
pub const TEXT_LINKS_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("text_links"),
    kind: ParamKind::Bool,
    default: ParamValue::Bool(true),
    help: "remove links whose content is text (no image)",
    source: "Mohammadzadeh 2013, 3.2.1, Algorithm 1 (setting.ignoreTextLink)",
};

/// `ignoreAds`: the ad-link filter on or off.
pub const ADS_SPEC: ParamSpec = ParamSpec {
    name: Cow::Borrowed("ads"),
    kind: ParamKind::Bool,
    default: ParamValue::Bool(true),
    help: "remove elements whose URL points at a known ad server (built-in list)",
    source: "Mohammadzadeh 2013, 3.2.1, Algorithm 1 (setting.ignoreAds, isAdLink)",
};

/// Ad-server hosts: a URL whose host is one of these or a subdomain of one is an ad link. A
/// short list of long-standing ad servers and ad networks, not a blocking list.
pub const AD_HOSTS: &[&str] = &[
    "doubleclick.net",
    "googlesyndication.com",
    "googleadservices.com",
    "adservice.google.com",
    "amazon-adsystem.com",
    "adnxs.com",
    "advertising.com",
    "adform.net",
    "adsrvr.org",
    "criteo.com",
    "criteo.net",
    "taboola.com",
    "outbrain.com",
    "pubmatic.com",
    "rubiconproject.com",
    "openx.net",
    "atdmt.com",
    "zedo.com",
    "yieldmanager.com",
    "adtech.de",
];

/// Host labels that mark an ad server (`ads.example.com`, `adserver.example.org`).
pub const AD_HOST_LABELS: &[&str] = &["ad", "ads", "adserver", "adserv", "adimg", "banners"];

/// Path segments that mark an ad (`/ads/…`, `/adserver/…`), compared case-insensitively.
pub const AD_PATHS: &[&str] = &["ads", "adserver", "adclick", "banners", "advertisement"];

/// The host of `url` in lower case, when it names one (`http://`, `https://` or `//`); `None`
/// for a relative URL. User info and port are left out.
fn host_of(url: &str) -> Option<String> {
    let u = url.trim();
    let rest = if let Some(i) = u.find("://") {
        let scheme = &u[..i];
        if !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        {
            return None;
        }
        &u[i + 3..]
    } else {
        u.strip_prefix("//")?
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host = authority.rsplit('@').next().unwrap_or(authority);
    let host = host.split(':').next().unwrap_or(host);
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// Does `url` point at an advertisement ([`AD_HOSTS`], [`AD_HOST_LABELS`], [`AD_PATHS`])?
pub fn is_ad_url(url: &str) -> bool {
    if let Some(host) = host_of(url) {
        let host = host.trim_end_matches('.');
        if AD_HOSTS
            .iter()
            .any(|h| host == *h || host.strip_suffix(h).is_some_and(|p| p.ends_with('.')))
        {
            return true;
        }
        // Every label but the last two (the registered domain) may mark an ad server.
        let labels: Vec<&str> = host.split('.').collect();
        if labels.len() > 2
            && labels[..labels.len() - 2]
                .iter()
                .any(|l| AD_HOST_LABELS.contains(l))
        {
            return true;
        }
    }
    let path_start = match url.find("://") {
        Some(i) => url[i + 3..].find('/').map(|j| i + 3 + j),
        None if url.starts_with("//") => url[2..].find('/').map(|j| 2 + j),
        None => Some(0),
    };
    let Some(p) = path_start else {
        return false;
    };
    let path = &url[p..];
    let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
    path.split('/')
        .any(|seg| AD_PATHS.iter().any(|a| seg.eq_ignore_ascii_case(a)))
}

/// The URL an element points at, for [`is_ad_url`]: `href` of `a` / `area`, `src` of `img` /
/// `iframe` / `embed`, `data` of `object`.
fn element_url(dom: &Dom, id: usize) -> Option<&str> {
    let attr = match dom.tag(id) {
        Tag::A => "href",
        Tag::Img | Tag::Iframe => "src",
        _ => match dom.tag_name(id)? {
            "area" => "href",
            "embed" => "src",
            "object" => "data",
            _ => return None,
        },
    };
    dom.attr(id, attr)
}

/// Why a node was removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Removal {
    /// Not removed.
    Kept = 0,
    /// `isAdLink` (filter 1).
    AdLink = 1,
    /// Link-cell ratio above the threshold (filter 2).
    LinkCell = 2,
    /// `isTextLink` (filter 3).
    TextLink = 3,
    /// Inside a removed node.
    Ancestor = 4,
}

crate::choice_enum! {
    /// Which elements the link-list and text-link filters judge ([`CELLS_SPEC`]).
    pub enum Cells {
        /// Table cells, as published.
        Td = "td",
        /// All block elements.
        Blocks = "blocks",
    }
}

crate::typed_params! {
    /// Crunch's parameters (Mohammadzadeh 2013, 3.2.1, Algorithm 1).
    pub struct CrunchParams {
        /// The link-to-text threshold.
        pub t: f64 = T_SPEC,
        /// Which elements the filters judge.
        pub cells: Cells = CELLS_SPEC,
        /// The link-list filter.
        pub link_cells: bool = LINK_CELLS_SPEC,
        /// The text-link filter.
        pub text_links: bool = TEXT_LINKS_SPEC,
        /// The advertisement filter.
        pub ads: bool = ADS_SPEC,
    }
}

/// The Crunch filters.
#[derive(Debug, Clone, Default)]
pub struct Crunch;

/// Per-node prefix sums in document order: `text[i]` / `link[i]` = non-white-space characters of
/// shown text (inside `<a>` for `link`) in nodes `0..i`; `img[i]` = `<img>` elements in `0..i`.
struct Prefix {
    text: Vec<u64>,
    link: Vec<u64>,
    img: Vec<u32>,
    /// Non-white-space characters of each text node (0 for other nodes and non-shown text).
    own: Vec<u64>,
}

fn prefix(dom: &Dom) -> Prefix {
    let n = dom.len();
    let mut p = Prefix {
        text: Vec::with_capacity(n + 1),
        link: Vec::with_capacity(n + 1),
        img: Vec::with_capacity(n + 1),
        own: vec![0; n],
    };
    let (mut t, mut l, mut m) = (0u64, 0u64, 0u32);
    p.text.push(0);
    p.link.push(0);
    p.img.push(0);
    for id in 0..n {
        match dom.kind(id) {
            NodeKind::Text if !dom.is_non_text(id) => {
                let c = dom
                    .node_text(id)
                    .map_or(0, |s| s.chars().filter(|c| !c.is_whitespace()).count())
                    as u64;
                p.own[id] = c;
                t += c;
                if dom.in_anchor(id) {
                    l += c;
                }
            }
            NodeKind::Element if dom.tag(id) == Tag::Img => m += 1,
            _ => {}
        }
        p.text.push(t);
        p.link.push(l);
        p.img.push(m);
    }
    p
}

/// The trace items Crunch reads back in its explanation: built and read by
/// these [`Key`]s.
const REMOVAL: Key<Series> = Key::new("removal");
const RATIO: Key<Series> = Key::new("ratio");
const T: Key<Scalar> = Key::new("t");

const PHASES: &[Phase] = &[
            Phase::new("elements", "the elements the filters examine (cells, links, elements with a URL) and their text: link text (left), other text (right)", &["link", "text", "examined"]),
            Phase::new("ad links", "filter 1: elements pointing at an ad server are removed (isAdLink)", &["ad links"]),
            Phase::new("link cells", "filter 2: cells whose link text / text exceeds t are removed (getLinkTextRatio)", &["ratio", "t", "link cells"]),
            Phase::new("text links", "filter 3: links whose content is text are removed (isTextLink); the remaining text is the main content", &["text links", "removal", "kept"]),
        ];

static INFO: AlgoInfo = AlgoInfo::new(
    "crunch",
    "Crunch filters: remove ad links, link cells (link text / text > t) and text links (Mohammadzadeh 2013, 3.2.1, Algorithm 1)",
    "Mohammadzadeh 2013, 3.2.1, Algorithm 1",
    CrunchParams::SPECS,
    PHASES,
).with_dom();

impl StaticInfo for Crunch {
    const INFO: &'static AlgoInfo = &INFO;
}

impl Extractor for Crunch {
    /// Trace (node unit = the examined elements in document order — cells, `<a>` elements and
    /// elements with a URL attribute; positions = each one's outer byte extent): `link` (code
    /// signal) and `text` (content signal): link / other characters of the element's own text
    /// (text inside a nested examined element excluded, white space excluded); `ratio` (combined
    /// signal, link-text ratio of the whole subtree, 0 without text; maximum per line); `removal`
    /// (label: 0 kept, 1 ad link, 2 link cell, 3 text link, 4 inside a removed element); `t`
    /// (threshold); marks `examined` (candidates), `ad links`, `link cells`, `text links` (bound:
    /// removed by that filter) and `kept` (selected: examined elements with text that survive).
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let CrunchParams {
            t,
            cells,
            link_cells,
            text_links,
            ads,
        } = CrunchParams::read(params);
        let all_blocks = cells == Cells::Blocks;
        let dom = page.dom();
        let n = dom.len();
        let pre = prefix(dom);
        let sub = |id: usize| dom.subtree(id);
        let ratio_of = |id: usize| -> Option<f64> {
            let r = sub(id);
            let total = pre.text[r.end] - pre.text[r.start];
            (total > 0).then(|| (pre.link[r.end] - pre.link[r.start]) as f64 / total as f64)
        };
        let is_cell = |id: usize| -> bool {
            if all_blocks {
                dom.is_block(id) && !matches!(dom.tag(id), Tag::Html | Tag::Head | Tag::Body)
            } else {
                dom.kind(id) == NodeKind::Element && dom.tag(id) == Tag::Td
            }
        };
        let is_text_link = |id: usize| -> bool {
            let r = sub(id);
            dom.tag(id) == Tag::A
                && dom.attr(id, "href").is_some()
                && pre.text[r.end] > pre.text[r.start]
                && pre.img[r.end] == pre.img[r.start]
        };

        // The walk of Algorithm 1 (pre-order, a removed subtree is skipped).
        let mut unit_of = vec![usize::MAX; n]; // node -> examined-element number
        let mut examined: Vec<usize> = Vec::new();
        let mut removal: Vec<Removal> = Vec::new();
        let mut sel = Vec::new();
        let mut id = 0;
        while id < n {
            if dom.kind(id) == NodeKind::Element {
                if dom.tag(id) == Tag::Head {
                    id = sub(id).end;
                    continue;
                }
                let url = element_url(dom, id);
                let cell = is_cell(id);
                let link = dom.tag(id) == Tag::A;
                if url.is_some() || cell || link {
                    let why = if ads && url.is_some_and(is_ad_url) {
                        Removal::AdLink
                    } else if cell && link_cells && ratio_of(id).is_some_and(|q| q > t) {
                        Removal::LinkCell
                    } else if text_links && is_text_link(id) {
                        Removal::TextLink
                    } else {
                        Removal::Kept
                    };
                    unit_of[id] = examined.len();
                    examined.push(id);
                    removal.push(why);
                    if why != Removal::Kept {
                        // Record the examined elements inside, as removed with their ancestor.
                        for (inner, slot) in unit_of
                            .iter_mut()
                            .enumerate()
                            .take(sub(id).end)
                            .skip(id + 1)
                        {
                            if dom.kind(inner) == NodeKind::Element
                                && (element_url(dom, inner).is_some()
                                    || is_cell(inner)
                                    || dom.tag(inner) == Tag::A)
                            {
                                *slot = examined.len();
                                examined.push(inner);
                                removal.push(Removal::Ancestor);
                            }
                        }
                        id = sub(id).end;
                        continue;
                    }
                }
            } else if dom.kind(id) == NodeKind::Text && !dom.is_non_text(id) {
                sel.extend(dom.spans(id).iter().cloned());
            }
            id += 1;
        }
        let selection = page.normalize(&Selection::from_ranges(sel));

        // Own text per examined element (nearest examined ancestor-or-self owns a text node).
        let ne = examined.len();
        let mut own_text = vec![0u64; ne];
        let mut own_link = vec![0u64; ne];
        let mut owner = vec![usize::MAX; n];
        #[allow(clippy::needless_range_loop)] // owner[id] reads owner[parent(id)]
        for id in 0..n {
            owner[id] = if unit_of[id] != usize::MAX {
                unit_of[id]
            } else {
                dom.parent(id).map_or(usize::MAX, |p| owner[p])
            };
            let k = owner[id];
            if k != usize::MAX && pre.own[id] > 0 {
                own_text[k] += pre.own[id];
                if dom.in_anchor(id) {
                    own_link[k] += pre.own[id];
                }
            }
        }

        let has_text = |k: usize| {
            let r = sub(examined[k]);
            pre.text[r.end] > pre.text[r.start]
        };
        let runs_of = |pred: &dyn Fn(usize) -> bool| runs((0..ne).filter(|&k| pred(k)));
        let by = |why: Removal| runs_of(&|k| removal[k] == why);
        let trace = Trace {
            series: vec![
                Series::new(
                    "link",
                    "link chars (own text)",
                    Unit::Node,
                    Role::CodeSignal,
                    own_link.iter().map(|&x| x as f64).collect(),
                ),
                Series::new(
                    "text",
                    "non-link chars (own text)",
                    Unit::Node,
                    Role::ContentSignal,
                    own_text
                        .iter()
                        .zip(&own_link)
                        .map(|(&a, &l)| (a - l) as f64)
                        .collect(),
                ),
                Series::new(
                    RATIO,
                    "link-text ratio (subtree)",
                    Unit::Node,
                    Role::CombinedSignal,
                    examined
                        .iter()
                        .map(|&id| ratio_of(id).unwrap_or(0.0))
                        .collect(),
                )
                .with_agg(Agg::Max),
                Series::new(
                    REMOVAL,
                    "removed by (0 kept, 1 ad link, 2 link cell, 3 text link, 4 ancestor)",
                    Unit::Node,
                    Role::Label,
                    removal.iter().map(|&r| r as u8 as f64).collect(),
                ),
            ],
            scalars: vec![Scalar::new(
                T,
                "link-text ratio threshold t",
                None,
                Role::Threshold,
                t,
            )],
            marks: vec![
                Marks::new(
                    "examined",
                    "examined elements",
                    Unit::Node,
                    Role::Candidates,
                    runs(0..ne),
                ),
                Marks::new(
                    "ad links",
                    "removed: ad links",
                    Unit::Node,
                    Role::Bound,
                    by(Removal::AdLink),
                ),
                Marks::new(
                    "link cells",
                    "removed: link cells (ratio > t)",
                    Unit::Node,
                    Role::Bound,
                    by(Removal::LinkCell),
                ),
                Marks::new(
                    "text links",
                    "removed: text links",
                    Unit::Node,
                    Role::Bound,
                    by(Removal::TextLink),
                ),
                Marks::new(
                    "kept",
                    "kept elements with text",
                    Unit::Node,
                    Role::Selected,
                    runs_of(&|k| removal[k] == Removal::Kept && has_text(k)),
                ),
            ],
            positions: vec![Positions {
                unit: Unit::Node,
                ranges: examined
                    .iter()
                    .map(|&id| dom.hull(id).unwrap_or(0..0))
                    .collect(),
            }],
        };
        Extraction { selection, trace }
    }

    /// On a line of text (the whole run): the examined elements around its text and the one
    /// whose removal decided it — `link-text ratio 0.80 > t 0.50 → removed with its subtree
    /// (filter 2, getLinkTextRatio)`, an ad link (filter 1) or a text link (filter 3) — or, when
    /// none was removed, the innermost one's ratio against `t`; the text links removed on the
    /// line; and what hides the block. Elsewhere, and in step mode before the last phase,
    /// [`crate::extract::explain_default`].
    fn explain_text_line(&self, page: &Page, trace: &Trace, line: &TextLine) -> Vec<String> {
        ex::or_missing(explain_line(page, trace, line))
    }
}

/// [`Crunch::explain_text_line`]'s sentences, reading the trace through its typed keys.
fn explain_line(page: &Page, trace: &Trace, line: &TextLine) -> Result<Vec<String>, Missing> {
    let removal = |k: usize| ex::value(trace, REMOVAL, k);
    let ratio = |k: usize| ex::value(trace, RATIO, k);
    let name = |k: usize| ex::element_name(page, trace, k, line);
    let t = ex::num(trace.scalar_of(T)?);
    let cite = "(Mohammadzadeh 2013, 3.2.1, Algorithm 1)";
    let first = match line.element() {
        Some(e) => format!(
            "text in {} ({}), an element Crunch examines",
            name(e),
            ex::element_lines(page, trace, e)
        ),
        None => "text in no element Crunch examines (no cell, link or element with a URL)".into(),
    };
    // The outermost removed element around the text decided it (the walk is top-down and does
    // not enter a removed subtree).
    let removed = ex::try_find(line.chain.iter().copied(), |k| {
        let r = removal(k)?;
        Ok(r > 0.0 && r < f64::from(Removal::Ancestor as u8))
    })?;
    let removed_by = match removed {
        Some(k) => Some((k, removal(k)?)),
        None => None,
    };
    let mut rest = vec![match removed_by {
        Some((k, r)) if r == f64::from(Removal::AdLink as u8) => format!(
            "{} points at an ad server → removed with its subtree (filter 1, isAdLink) {cite}",
            name(k)
        ),
        Some((k, r)) if r == f64::from(Removal::LinkCell as u8) => format!(
            "link-text ratio of {} = {} > t {t} → removed with its subtree (filter 2, \
                 getLinkTextRatio) {cite}",
            name(k),
            ex::num(ratio(k)?)
        ),
        Some((k, _)) => format!(
            "{} is a text link → removed (filter 3, isTextLink) {cite}",
            name(k)
        ),
        None => match line.element() {
            Some(e) => format!(
                "no element around it was removed: no ad link, no link cell over t {t} (the \
                     link-text ratio of {} is {}), no text link → kept {cite}",
                name(e),
                ex::num(ratio(e)?)
            ),
            None => format!("no filter applies → kept {cite}"),
        },
    }];
    // Other text links removed from this line (a link inside a kept paragraph).
    let extents = trace.positions(Unit::Node).unwrap_or(&[]);
    let range = page.lines().lines[line.line].range();
    let mut links = 0;
    for (k, extent) in extents.iter().enumerate() {
        if Some(k) != removed
            && range.start <= extent.start
            && extent.start < range.end
            && removal(k)? == f64::from(Removal::TextLink as u8)
        {
            links += 1;
        }
    }
    if links > 0 {
        rest.push(format!(
            "on this line {links} text link{} removed (filter 3)",
            if links == 1 { " is" } else { "s are" }
        ));
    }
    Ok(ex::sentences(page, line, first, rest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Algorithm;

    /// A link cell, an article cell with one in-text link, an ad link with text and an ad image.
    const PAGE: &str = "<html><head><title>Title</title></head><body><table><tr>\
        <td><a href=/1>Home</a> | <a href=/2>World news</a></td>\
        <td><p>Article text is here with a <a href=/r>reference</a>.</p></td>\
        </tr></table>\
        <div><a href=\"https://pubads.g.doubleclick.net/gampad/clk\">Buy now</a></div>\
        <img src=\"http://ads.example.com/b.gif\"></body></html>";

    fn run_with(html: &str, set: &[&str]) -> (Page, Extraction) {
        let p = Page::from_text("t.html", html);
        let c = Crunch;
        let mut params = Params::defaults(c.params());
        for a in set {
            params.set_str(c.params(), a).unwrap();
        }
        let x = c.run(&p, &params);
        x.trace.validate(&p).unwrap();
        assert!(p.is_normal(&x.selection));
        (p, x)
    }

    /// Cell 1: "Home" (4) + "|" (1) + "Worldnews" (9) = 14 chars, 13 of them link text:
    /// 13/14 ≈ 0.93 > 0.5, removed. Cell 2: "Articletextisherewitha" (22), "reference" (9, link)
    /// and "." (1) = 32 chars, ratio 9/32 ≈ 0.28, kept; its link "reference" is a text link,
    /// removed. "Buy now" points at doubleclick.net: an ad link. The title is in `<head>`.
    #[test]
    fn filters_by_hand() {
        let (p, x) = run_with(PAGE, &[]);
        assert_eq!(p.render(&x.selection), "Article text is here with a .");
        let ratio = &x.trace.series("ratio").unwrap().values;
        let filter = &x.trace.series("removal").unwrap().values;
        // Examined, in document order: td1, a(/1), a(/2), td2, a(/r), a(ad), img(ad).
        assert_eq!(filter, &[2.0, 4.0, 4.0, 0.0, 3.0, 1.0, 1.0]);
        assert!((ratio[0] - 13.0 / 14.0).abs() < 1e-12);
        assert!((ratio[3] - 9.0 / 32.0).abs() < 1e-12);
        assert_eq!(x.trace.marks("link cells").unwrap().spans, vec![0..1]);
        assert_eq!(x.trace.marks("ad links").unwrap().spans, vec![5..7]);
        assert_eq!(x.trace.marks("kept").unwrap().spans, vec![3..4]);
    }

    #[test]
    fn each_filter_switches_off() {
        let (p, x) = run_with(PAGE, &["text_links=false"]);
        assert_eq!(
            p.render(&x.selection),
            "Article text is here with a reference."
        );
        let (p, x) = run_with(PAGE, &["text_links=false", "ads=false"]);
        assert_eq!(
            p.render(&x.selection),
            "Article text is here with a reference.\nBuy now"
        );
        let (p, x) = run_with(PAGE, &["text_links=false", "ads=false", "link_cells=false"]);
        let text = p.render(&x.selection);
        assert!(text.starts_with("Home | World news"), "{text}");
        // At t = 0.93 cell 1 (13/14 ≈ 0.929) stays; its links still go as text links.
        let (p, x) = run_with(PAGE, &["t=0.93"]);
        assert!(p.render(&x.selection).starts_with("|"));
    }

    /// cells=blocks judges the table too: (13 + 9) / (14 + 32) = 22/46 ≈ 0.478. At t = 0.45 the
    /// whole table goes (cells=td keeps cell 2, whose ratio 0.28 is below).
    #[test]
    fn cells_blocks_judges_every_block() {
        let (p, x) = run_with(PAGE, &["t=0.45", "cells=blocks", "ads=false"]);
        assert_eq!(p.render(&x.selection), "");
        let (p, x) = run_with(PAGE, &["t=0.45", "ads=false", "text_links=false"]);
        let text = p.render(&x.selection);
        assert!(text.starts_with("Article text"), "{text}");
    }

    #[test]
    fn ad_urls() {
        for u in [
            "https://pubads.g.doubleclick.net/x",
            "http://DoubleClick.net",
            "http://ads.example.com/b.gif",
            "https://ad.example.com",
            "//example.com/ads/1.png",
            "/ads/1.png",
            "https://user@ads.example.org:8080/x",
            "https://example.com/banners?x=1",
        ] {
            assert!(is_ad_url(u), "{u}");
        }
        for u in [
            "https://example.com/adsense-guide",
            "https://notdoubleclick.net/",
            "https://example.com/news/reads/",
            "ads.html",
            "mailto:x@ads.com",
            "https://ads.com/",
            "https://example.com/x?ref=/ads/",
            "",
        ] {
            assert!(!is_ad_url(u), "{u}");
        }
    }

    /// Explain on text lines names the filter that removed the text, with the numbers by hand:
    /// the first cell's text is "Home" and "News" (8 link characters) and "|" (1): ratio 8 / 9
    /// ≈ 0.89 > t 0.5, filter 2; the article cell's 34 characters hold 9 of link text
    /// ("reference"): 0.26, kept, but the link itself is a text link (filter 3); the ad link
    /// points at an `ads.` host (filter 1).
    #[test]
    fn explain_names_the_deciding_filter() {
        let html = "<html><body><table><tr>\n<td><a href=/1>Home</a> | <a href=/2>News</a></td>\n\
            <td><p>Article text here with a <a href=/r>reference</a> in it.</p></td>\n\
            </tr></table>\n<div><a href=\"http://ads.example.com/x\">Buy now</a></div></body></html>";
        let (p, x) = run_with(html, &[]);
        let explain = |s: &str| ex::explain_at(&Crunch, &p, &x, s);
        let cell = explain("Home");
        assert!(
            cell.contains(
                "link-text ratio of <td> = 0.89 > t 0.50 → removed with its subtree (filter 2, \
                 getLinkTextRatio)"
            ),
            "{cell}"
        );
        let article = explain("Article");
        assert!(
            article.contains("no element around it was removed"),
            "{article}"
        );
        assert!(
            article.contains("the link-text ratio of <td> is 0.26"),
            "{article}"
        );
        assert!(
            article.contains("on this line 1 text link is removed (filter 3)"),
            "{article}"
        );
        let ad = explain("Buy now");
        assert!(
            ad.contains("<a> points at an ad server → removed with its subtree (filter 1"),
            "{ad}"
        );
    }
}
