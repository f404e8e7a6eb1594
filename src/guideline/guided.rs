//! Any extractor under a guideline: [`Guided`] runs the extractor, then applies the guideline
//! to its selection as the last step ([`Guideline::apply`]), so learned, DOM, line-based,
//! reference and filter-set extractors all take `--guideline` the same way, and every view
//! (overlays, explain, step mode, eval, batch) sees the guided result.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use super::Guideline;
use crate::extract::explain::TextLine;
use crate::extract::trace::{Key, Missing};
use crate::extract::{
    AlgoInfo, Algorithm, Extraction, Extractor, Keys, Location, Marks, Params, Phase, Role, Step,
    Trace, Unit,
};
use crate::page::units::Units;
use crate::page::{MemoKey, Page};

/// The trace key of the bytes the guideline added (marks, unit byte, role info).
pub const ADDED: Key<Marks> = Key::new("guideline_added");
/// The trace key of the bytes the guideline removed (marks, unit byte, role info).
pub const REMOVED: Key<Marks> = Key::new("guideline_removed");

/// An extractor whose selection a guideline finishes (see the module documentation). Its
/// name, parameters and explanations are the inner extractor's; its phases end with one more,
/// `guideline`, which reveals [`ADDED`] and [`REMOVED`].
pub struct Guided {
    inner: Arc<dyn Extractor>,
    guideline: Arc<Guideline>,
    info: AlgoInfo,
}

/// `inner` under `guideline`; `inner` itself when there is no guideline (so a run without
/// `--guideline` is the run it always was).
pub fn guided(inner: Arc<dyn Extractor>, guideline: Option<&Arc<Guideline>>) -> Arc<dyn Extractor> {
    match guideline {
        None => inner,
        Some(g) => Arc::new(Guided::new(inner, Arc::clone(g))),
    }
}

impl Guided {
    /// `inner` under `guideline`.
    pub fn new(inner: Arc<dyn Extractor>, guideline: Arc<Guideline>) -> Guided {
        let mut info = inner.info().clone();
        let mut phases = info.phases.into_owned();
        phases.push(Phase {
            name: Cow::Borrowed("guideline"),
            what: Cow::Owned(format!(
                "the guideline adds and removes whole units ({})",
                guideline.summary()
            )),
            reveals: Keys::Owned(vec![ADDED.name().to_string(), REMOVED.name().to_string()]),
        });
        info.phases = Cow::Owned(phases);
        info.needs_dom = true;
        Guided {
            inner,
            guideline,
            info,
        }
    }

    /// The guideline.
    pub fn guideline(&self) -> &Arc<Guideline> {
        &self.guideline
    }

    /// The extractor it finishes.
    pub fn inner(&self) -> &Arc<dyn Extractor> {
        &self.inner
    }
}

/// The units of `page` with the default headline finder's headline, found once per page
/// ([`Page::memo`]).
pub fn page_units(page: &Page) -> Arc<Units> {
    const UNITS: MemoKey<Units> = MemoKey::new("guideline::page_units");
    page.memo(UNITS, || Units::find(page, headline(page)))
}

/// The page's headline as the unit rules need it: the best candidate of the default headline
/// finder ([`crate::extractors::DEFAULT_HEADLINE`], the shipped ranker) that lies in a block
/// of the body; TitleFinder (`tf`) in a build whose shipped ranker does not load. Found once
/// per page ([`Page::memo`]).
pub fn headline(page: &Page) -> Option<Range<usize>> {
    const FOUND: MemoKey<crate::extract::headline::Headlines> = MemoKey::new("guideline::headline");
    let found = page.memo(FOUND, || {
        let finder =
            crate::extractors::find_headline(crate::extractors::DEFAULT_HEADLINE).or_else(|_| {
                crate::extractors::find_headline(crate::algorithms::headline::TITLEFINDER)
            });
        finder
            .map(|f| f.run(page, &Params::defaults(f.params())))
            .unwrap_or_default()
    });
    let blocks = page.blocks();
    found
        .candidates
        .iter()
        .find(|c| {
            blocks.overlapping(c.range.clone()).into_iter().any(|i| {
                !blocks
                    .get(i)
                    .within
                    .contains(crate::page::blocks::Within::HEAD)
            })
        })
        .map(|c| c.range.clone())
}

impl Algorithm for Guided {
    fn info(&self) -> &AlgoInfo {
        &self.info
    }
}

impl Extractor for Guided {
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let mut x = self.inner.run(page, params);
        let units = page_units(page);
        let applied = self.guideline.apply(page, &x.selection, &units);
        let spans = |s: &crate::selection::Selection| s.ranges().to_vec();
        x.trace.marks.push(Marks::new(
            ADDED,
            format!("added by the guideline {}", self.guideline.name),
            Unit::Byte,
            Role::Info,
            spans(&applied.added),
        ));
        x.trace.marks.push(Marks::new(
            REMOVED,
            format!("removed by the guideline {}", self.guideline.name),
            Unit::Byte,
            Role::Info,
            spans(&applied.removed),
        ));
        x.selection = applied.selection;
        x
    }

    fn explain(
        &self,
        page: &Page,
        x: &Extraction,
        at: Location,
        step: Option<Step>,
    ) -> Vec<String> {
        let mut out = self.inner.explain(page, x, at, step);
        let last = self.info.phases.len().saturating_sub(1);
        if step.is_some_and(|s| s.phase < last) {
            return out;
        }
        let byte = match at {
            Location::Byte(b) => Some(b),
            Location::Line(l) => page.lines().lines.get(l).map(|v| v.start as usize),
            _ => None,
        };
        if let Some(b) = byte {
            out.extend(self.explain_byte(page, x, b));
        }
        out
    }

    fn explain_text_line(&self, page: &Page, trace: &Trace, line: &TextLine) -> Vec<String> {
        self.inner.explain_text_line(page, trace, line)
    }

    fn capabilities(&self) -> crate::extract::Capabilities<'_> {
        self.inner.capabilities()
    }

    fn warnings(&self, page: &Page, x: &Extraction) -> Vec<String> {
        self.inner.warnings(page, x)
    }
}

impl Guided {
    /// What the guideline did at byte `b`: the units of the block there that the guideline
    /// decides about, with their rule and the decision, and whether the block's bytes were
    /// added, removed or kept as extracted.
    fn explain_byte(&self, page: &Page, x: &Extraction, b: usize) -> Vec<String> {
        let blocks = page.blocks();
        let Some(i) = blocks.at(b).or_else(|| {
            // A markup line: the next block at or after it.
            blocks.overlapping(b..page.text().len()).first().copied()
        }) else {
            return Vec::new();
        };
        let units = page_units(page);
        let g = &self.guideline;
        let mut out = Vec::new();
        for u in units.at_block(i) {
            let choice = g.choice(u.kind);
            let post = u
                .post
                .map(|(k, n)| format!(", post {} of {n}", k + 1))
                .unwrap_or_default();
            out.push(format!(
                "guideline {}: block #{} is in a {} unit ({}{post}) → {} {}",
                g.name,
                crate::page::Blocks::number(i),
                u.kind,
                u.why,
                u.kind,
                choice.name_for(u.kind)
            ));
        }
        if out.is_empty() {
            return out;
        }
        let in_marks = |key: Key<Marks>| -> Result<bool, Missing> {
            let m = x.trace.get(key)?;
            Ok(blocks
                .ranges(i)
                .iter()
                .any(|r| m.spans.iter().any(|s| s.start < r.end && r.start < s.end)))
        };
        let (removed, added) = match (in_marks(REMOVED), in_marks(ADDED)) {
            (Ok(r), Ok(a)) => (r, a),
            (Err(e), _) | (_, Err(e)) => return crate::extract::explain::or_missing(Err(e)),
        };
        let verdict = if removed {
            "removed by the guideline"
        } else if added {
            "added by the guideline"
        } else {
            "left as extracted"
        };
        out.push(format!(
            "block #{}: {verdict}",
            crate::page::Blocks::number(i)
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_guideline_is_the_extractor_itself() {
        let e = crate::extractors::find("plain").unwrap();
        let same = guided(Arc::clone(&e), None);
        assert!(Arc::ptr_eq(&e, &same));
    }
}
