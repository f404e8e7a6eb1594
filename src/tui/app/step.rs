//! Step mode: walking the active algorithm's phases one at a time, a phase that unfolds span
//! by span (the gap expansion, say) one span at a time.

use std::ops::Range;

use super::App;

impl App {
    /// The unfolding phase step mode is in ([`crate::extract::unfolding`]): the key of the marks it
    /// reveals one span at a time and their number; `None` outside such a phase.
    pub fn unfolding(&self) -> Option<(&'static str, usize)> {
        let step = self.step?;
        let a = self.active_algo();
        let x = a.result.as_ref()?;
        crate::extract::unfolding(a.extractor.as_ref(), x, step).map(|(k, o)| (k, o.len()))
    }

    /// Where step mode is ([`crate::extract::Step`]): the phase and, in a phase that unfolds, how
    /// many of its spans are revealed; `None` outside step mode.
    pub fn step_at(&self) -> Option<crate::extract::Step> {
        // A parameter change may leave fewer spans than were revealed: all of them then.
        let spans = self.unfolding().map_or(0, |u| u.1);
        self.step.map(|phase| crate::extract::Step {
            phase,
            unfolded: self.substep.map(|k| k.min(spans)),
        })
    }

    /// While a phase unfolds: the key of its marks and the spans revealed so far, on the
    /// current display lines ([`crate::extract::to_lines`]); `None` otherwise.
    pub fn unfolded_line_spans(&self) -> Option<(&'static str, Vec<Range<usize>>)> {
        let (key, _) = self.unfolding()?;
        let (step, k) = (self.step?, self.substep?);
        let a = self.active_algo();
        let x = crate::extract::unfolded(a.extractor.as_ref(), a.result.as_ref()?, step, k);
        let d = self.doc.as_ref()?;
        let marks = x.trace.marks(key)?.clone();
        let only = crate::extract::Trace {
            marks: vec![marks],
            positions: x.trace.positions.clone(),
            ..Default::default()
        };
        let lt = crate::extract::to_lines(&only, &d.page, self.display_lines(d));
        Some((key, lt.marks.into_iter().next()?.spans))
    }

    /// One step forwards or backwards in step mode; a phase that unfolds is walked span by
    /// span (the seed's first) before the next phase.
    pub(super) fn step_phase(&mut self, forward: bool) {
        let n = self.active_algo().extractor.phases().len();
        let cur = self.step.unwrap_or(0);
        let spans = self.unfolding().map_or(0, |u| u.1);
        match (forward, self.substep) {
            (true, Some(k)) if k < spans => self.substep = Some(k + 1),
            (false, Some(k)) if k > 1 => self.substep = Some(k - 1),
            _ => {
                let next = if forward {
                    (cur + 1).min(n - 1)
                } else {
                    cur.saturating_sub(1)
                };
                self.step = Some(next);
                // Entering an unfolding phase shows its first span (forwards) or all of them
                // (backwards, coming from the phase after it).
                self.substep = None;
                if next != cur {
                    if let Some((_, spans)) = self.unfolding() {
                        if spans > 0 {
                            self.substep = Some(if forward { 1 } else { spans });
                        }
                    }
                }
            }
        }
    }
}
