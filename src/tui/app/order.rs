//! Ordering the page list by a model's uncertainty (`O`, active learning): the pages whose
//! blocks the active extractor's probabilities put nearest 0.5 come first, so the review
//! (`V`), `>` / `<` and `U` visit them first. The values come from the library
//! ([`crate::learn::active`]: one run of the extractor per page), computed on a worker thread
//! and collected by [`App::poll_background`]; the order is in force once every page has its
//! value. Pages the extractor gives no probability for (unreadable, no text blocks) keep their
//! order after the others. Ordering reads pages only: it never opens a page in the inspector,
//! so it never touches an annotation.

use std::sync::mpsc::channel;

use super::App;
use super::UncertaintyOrder;
use crate::learn::active::{self, PageUncertainty};
use crate::tui::keymap::Action;

impl App {
    /// `O`: orders the page list by the active algorithm's uncertainty, or, when it is so
    /// ordered (or being ordered), back to page order. An algorithm without a per-block
    /// probability ([`crate::extract::Extractor::block_probability`]) leaves the order as it
    /// is and says why.
    pub(crate) fn order_by_uncertainty(&mut self) {
        let key = self.opts.keymap.keys_label(Action::OrderByUncertainty);
        let Some(c) = self.corpus.as_mut() else {
            self.status = Some(("not a corpus: no page list to order".into(), false));
            return;
        };
        if c.order.take().is_some() {
            // Dropping the receiver stops the worker at its next page.
            self.uncertainty_rx = None;
            for e in &mut c.entries {
                e.uncertainty = None;
            }
            self.status = Some(("page list back in page order".into(), false));
            return;
        }
        let a = &self.algos[self.active];
        let name = a.extractor.name().to_string();
        if a.extractor.capabilities().block_probability.is_none() {
            self.status = Some((
                format!(
                    "{name} gives no per-block probability: the page list keeps its order — choose a learned model (--algo MODEL.json, or p), then {key}"
                ),
                false,
            ));
            return;
        }
        let paths: Vec<_> = c.entries.iter().map(|e| e.path.clone()).collect();
        for e in &mut c.entries {
            e.uncertainty = None;
        }
        c.order = Some(UncertaintyOrder {
            algo: name.clone(),
            done: 0,
            total: paths.len(),
        });
        let extractor = a.extractor.clone();
        let params = a.params.clone();
        let decode = self.opts.decode.clone();
        if self.opts.inline_jobs {
            let mut got = Vec::with_capacity(paths.len());
            active::uncertainties(&paths, extractor.as_ref(), &params, &decode, |i, u| {
                got.push((i, u));
                true
            });
            for (i, u) in got {
                self.take_uncertainty(i, u, true);
            }
            return;
        }
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            active::uncertainties(&paths, extractor.as_ref(), &params, &decode, |i, u| {
                tx.send((i, u)).is_ok()
            });
        });
        self.uncertainty_rx = Some(rx);
        self.status = Some((
            format!(
                "computing each page's uncertainty under {name} (the list is ordered when every page has one; {key} again cancels)"
            ),
            false,
        ));
    }

    /// Stores page `i`'s uncertainty; when it was the last one, the order is in force and the
    /// status bar says so (`tell`: also over another message; from the worker only when the
    /// status bar holds no question or error).
    fn take_uncertainty(&mut self, i: usize, u: PageUncertainty, tell: bool) {
        let Some(c) = self.corpus.as_mut() else {
            return;
        };
        let Some(order) = c.order.as_mut() else {
            return;
        };
        let Some(e) = c.entries.get_mut(i) else {
            return;
        };
        if e.uncertainty.replace(u).is_none() {
            order.done += 1;
        }
        if !order.ready() {
            return;
        }
        let algo = order.algo.clone();
        let without = c
            .entries
            .iter()
            .filter(|e| e.uncertainty.as_ref().is_none_or(|u| u.value().is_none()))
            .count();
        let with = c.entries.len() - without;
        let mut msg =
            format!("ordered by uncertainty under {algo}, nearest p = 0.5 first: {with} pages");
        if without > 0 {
            msg.push_str(&format!(
                "; {without} without a probability signal keep their order at the end"
            ));
        }
        let quiet = self.pending_confirm.is_none() && self.status.as_ref().is_none_or(|s| !s.1);
        if tell || quiet {
            self.status = Some((msg, false));
        }
    }

    /// Collects the uncertainties the worker has sent. Returns true when one arrived (redraw).
    pub(super) fn poll_uncertainty(&mut self) -> bool {
        let Some(rx) = self.uncertainty_rx.as_ref() else {
            return false;
        };
        let got: Vec<(usize, PageUncertainty)> = rx.try_iter().collect();
        if got.is_empty() {
            return false;
        }
        for (i, u) in got {
            self.take_uncertainty(i, u, false);
        }
        if self
            .corpus
            .as_ref()
            .and_then(|c| c.order.as_ref())
            .is_none_or(UncertaintyOrder::ready)
        {
            self.uncertainty_rx = None;
        }
        true
    }
}
