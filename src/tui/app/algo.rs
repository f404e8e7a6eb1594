//! The registered algorithms in the inspector ([`AlgoState`]): their parameters, results and
//! overlays; running them on the open page and collecting background work.
//!
//! A parameter change re-runs only the extractor (never re-decodes, re-lexes or re-highlights).
//! Line-based extractors on pages up to 8 MB run inline (they take well under a millisecond per
//! MB); other runs go to a worker thread, with a busy indicator, and a result that arrives after
//! a newer request for the same algorithm is dropped (generation counter).

use std::sync::Arc;

use ratatui::style::Color;

use super::{App, Doc, PerView, OVERLAY_COLORS};
use crate::extract::{Extraction, Extractor, LineTrace, Params};
use crate::metrics::Prf;

/// One registered algorithm in the inspector.
pub struct AlgoState {
    /// The extractor.
    pub extractor: Arc<dyn Extractor>,
    /// Current parameters.
    pub params: Params,
    /// Is it overlaid explicitly (`o`)? Its gutter column and marks are shown also while
    /// another algorithm is active. The active algorithm's overlay is always shown
    /// ([`App::overlay_shown`]).
    pub overlay: bool,
    /// Overlay colour.
    pub color: Color,
    /// The last result for the open page.
    pub result: Option<Arc<Extraction>>,
    /// Precision / recall / F1 of the result against the page's gold standard (word-sequence
    /// LCS, Gottron 2009 section 3), when the page has one.
    pub prf: Option<Prf>,
    /// Characters (Unicode scalar values) the result selects, for the status bar.
    pub selected_chars: usize,
    /// A worker is computing a newer result.
    pub busy: bool,
    /// Generation of the latest request.
    pub generation: u64,
    /// The result's trace aggregated to the display lines of each view, made on first use
    /// ([`App::line_trace`]).
    pub line_cache: PerView<Option<Arc<LineTrace>>>,
}

impl AlgoState {
    /// The state of extractor `e` before its first run: published defaults, overlay off, the
    /// `i`-th overlay colour.
    pub(super) fn new(e: Arc<dyn Extractor>, i: usize) -> AlgoState {
        AlgoState {
            params: Params::defaults(e.params()),
            extractor: e,
            overlay: false,
            color: OVERLAY_COLORS[i % OVERLAY_COLORS.len()],
            result: None,
            prf: None,
            selected_chars: 0,
            busy: false,
            generation: 0,
            line_cache: PerView::default(),
        }
    }

    /// Stores a finished result with what is derived from it once (P / R / F1 against the
    /// gold, selected characters), so frames never recompute them.
    pub(super) fn set_result(&mut self, doc: &Doc, x: Extraction) {
        self.prf = doc.prf(&x.selection);
        let text = doc.page.text();
        self.selected_chars = x
            .selection
            .ranges()
            .iter()
            .filter_map(|r| text.get(r.clone()))
            .map(|t| t.chars().count())
            .sum();
        self.result = Some(Arc::new(x));
        self.line_cache = PerView::default();
        self.busy = false;
    }
}

pub(super) struct JobResult {
    pub(super) algo: usize,
    pub(super) generation: u64,
    pub(super) doc_id: u64,
    pub(super) result: Extraction,
}

impl App {
    /// The active algorithm.
    pub fn active_algo(&self) -> &AlgoState {
        &self.algos[self.active]
    }

    /// Is algorithm `i`'s overlay (gutter column, marks) shown: it is the active one, or it is
    /// overlaid explicitly ([`AlgoState::overlay`]).
    pub fn overlay_shown(&self, i: usize) -> bool {
        i == self.active || self.algos.get(i).is_some_and(|a| a.overlay)
    }

    /// The gutter's columns, left to right: the explicitly overlaid algorithms in the order
    /// their overlays were turned on, then the active algorithm unless it is one of them. So
    /// choosing another algorithm changes one column and leaves no trail.
    pub fn gutter_columns(&self) -> Vec<usize> {
        let mut cols: Vec<usize> = self
            .gutter
            .iter()
            .copied()
            .filter(|&i| self.algos.get(i).is_some_and(|a| a.overlay))
            .collect();
        for (i, a) in self.algos.iter().enumerate() {
            if a.overlay && !cols.contains(&i) {
                cols.push(i);
            }
        }
        if !cols.contains(&self.active) {
            cols.push(self.active);
        }
        cols
    }

    /// Recomputes P / R / F1 of every algorithm's result against the page's gold text.
    pub(crate) fn refresh_prf(&mut self) {
        let Some(doc) = self.doc.as_ref() else {
            return;
        };
        for a in &mut self.algos {
            a.prf = a.result.as_ref().and_then(|x| doc.prf(&x.selection));
        }
    }

    /// Runs (or schedules) the extractor `i` on the open page with its current parameters.
    pub fn run_algo(&mut self, i: usize) {
        self.changed();
        let Some(doc) = self.doc.as_ref() else {
            return;
        };
        let a = &mut self.algos[i];
        a.generation += 1;
        let inline = self.opts.inline_jobs
            || (!a.extractor.needs_dom() && doc.page.text().len() <= self.opts.inline_limit);
        if inline {
            let x = a.extractor.run(&doc.page, &a.params);
            a.set_result(doc, x);
            return;
        }
        a.busy = true;
        let page = doc.page.clone();
        let params = a.params.clone();
        let extractor = a.extractor.clone();
        let generation = a.generation;
        let doc_id = self.doc_id;
        let tx = self.jobs_tx.clone();
        std::thread::spawn(move || {
            let result = extractor.run(&page, &params);
            let _ = tx.send(JobResult {
                algo: i,
                generation,
                doc_id,
                result,
            });
        });
    }

    /// Collects finished background work (extractions, corpus scan, highlighting). Returns
    /// true if the screen should be redrawn.
    pub fn poll_background(&mut self) -> bool {
        let mut changed = false;
        let mut arrived = false;
        while let Ok(j) = self.jobs_rx.try_recv() {
            if j.doc_id == self.doc_id && self.algos[j.algo].generation == j.generation {
                if let Some(d) = self.doc.as_ref() {
                    self.algos[j.algo].set_result(d, j.result);
                    changed = true;
                }
                // The page opened before this result: go to the selection, unless the user
                // has moved since.
                if j.algo == self.active && self.source.unmoved_since_open() {
                    self.open_view();
                }
            }
        }
        if let (Some(rx), Some(c)) = (self.info_rx.as_ref(), self.corpus.as_mut()) {
            while let Ok((i, enc, len)) = rx.try_recv() {
                if let Some(e) = c.entries.get_mut(i) {
                    e.encoding.get_or_insert(enc);
                    e.html_bytes.get_or_insert(len);
                    changed = true;
                }
            }
        }
        changed |= self.poll_uncertainty();
        if let Some(d) = &mut self.doc {
            if let Some(h) = d.hl.get(self.source.view()) {
                changed |= h.take_updates();
            }
            // The blocks arrived: the path bar (and an open block table) can be drawn.
            if !d.blocks_seen && d.blocks_ready() {
                d.blocks_seen = true;
                changed = true;
                arrived = true;
            }
        }
        if arrived {
            self.records_arrived();
        }
        if changed {
            self.changed();
        }
        changed
    }

    /// Adds an extractor that is not in the registry (a test double, a filter set built at
    /// run time) with its default parameters and the next overlay colour, runs it on the open
    /// page, and returns its index in [`App::algos`].
    pub fn add_extractor(&mut self, e: Arc<dyn Extractor>) -> usize {
        self.changed();
        let i = self.algos.len();
        self.algos.push(AlgoState::new(e, i));
        self.run_algo(i);
        i
    }

    /// Makes algorithm `i` (index into [`App::algos`]) the active one. Its overlay shows while
    /// it is active; the one active before keeps its overlay only when it is overlaid
    /// explicitly (`o`).
    pub fn set_active(&mut self, i: usize) {
        self.changed();
        if i >= self.algos.len() {
            return;
        }
        self.active = i;
        self.params.set_focus(0);
        // Step mode stays on, at the same step or the new algorithm's last one (algorithms have
        // different numbers of phases; found by the long soak walk).
        let last = self.algos[i].extractor.phases().len().saturating_sub(1);
        self.step = self.step.map(|s| s.min(last));
        self.substep = None;
        if self.algos[i].result.is_none() {
            self.run_algo(i);
        }
    }

    pub(super) fn step_param(&mut self, steps: i32) {
        let i = self.active;
        let specs = self.algos[i].extractor.params().to_vec();
        let Some(spec) = specs.get(self.params.focus()) else {
            return;
        };
        let mut v = self.algos[i]
            .params
            .get(&spec.name)
            .cloned()
            .unwrap_or_else(|| spec.default.clone());
        let dir = steps.signum();
        let count = if matches!(
            spec.kind,
            crate::extract::ParamKind::Choice { .. } | crate::extract::ParamKind::Bool
        ) {
            1
        } else {
            steps.unsigned_abs()
        };
        for _ in 0..count {
            v = spec.step(&v, dir);
        }
        // A value of the spec (a step or a point of its range): always accepted.
        let _ = self.algos[i].params.set(spec, v);
        self.run_algo(i);
    }

    /// Resets the focused parameter of the active algorithm to its default and runs it again.
    pub(super) fn reset_param(&mut self) {
        let i = self.active;
        let specs = self.algos[i].extractor.params().to_vec();
        if let Some(spec) = specs.get(self.params.focus()) {
            // The spec's own default: always accepted.
            let _ = self.algos[i].params.set(spec, spec.default.clone());
            self.run_algo(i);
        }
    }

    /// Sets the focused parameter from a fraction `0.0..=1.0` of its range (mouse on a slider).
    pub fn set_param_fraction(&mut self, param: usize, frac: f64) {
        self.changed();
        let i = self.active;
        let specs = self.algos[i].extractor.params().to_vec();
        let Some(spec) = specs.get(param) else {
            return;
        };
        self.params.set_focus(param);
        let frac = frac.clamp(0.0, 1.0);
        let v = match &spec.kind {
            crate::extract::ParamKind::Int { min, max, .. } => {
                crate::extract::ParamValue::Int(min + ((max - min) as f64 * frac).round() as i64)
            }
            crate::extract::ParamKind::Float { min, max, .. } => {
                crate::extract::ParamValue::Float(min + (max - min) * frac)
            }
            _ => {
                let cur = self.algos[i]
                    .params
                    .get(&spec.name)
                    .cloned()
                    .unwrap_or(spec.default.clone());
                spec.step(&cur, 1)
            }
        };
        // A value of the spec (a step or a point of its range): always accepted.
        let _ = self.algos[i].params.set(spec, v);
        self.run_algo(i);
    }
}
