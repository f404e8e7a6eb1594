//! Selections: sorted sets of non-overlapping byte ranges over a page's decoded text.
//!
//! Everything an algorithm decides, every gold standard and every CombinE filter result is a
//! [`Selection`] (`DESIGN.md`), so set operations here serve overlays, evaluation and
//! combination alike.

use std::ops::Range;

/// A set of byte offsets, stored as sorted, non-overlapping, non-adjacent, non-empty ranges
/// (adjacent or overlapping input ranges are merged).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Selection {
    ranges: Vec<Range<usize>>,
}

impl Selection {
    /// The empty selection.
    pub fn new() -> Self {
        Self::default()
    }

    /// A selection of one range (empty when `r` is empty).
    pub fn from_range(r: Range<usize>) -> Self {
        Self::from_ranges(std::iter::once(r))
    }

    /// Builds a selection from ranges in any order; empty ranges are dropped, overlapping and
    /// adjacent ones merged. O(k log k) for k ranges.
    pub fn from_ranges(ranges: impl IntoIterator<Item = Range<usize>>) -> Self {
        let mut v: Vec<Range<usize>> = ranges.into_iter().filter(|r| r.start < r.end).collect();
        if !v.windows(2).all(|w| w[0].start <= w[1].start) {
            v.sort_by_key(|r| r.start);
        }
        let mut out: Vec<Range<usize>> = Vec::with_capacity(v.len());
        for r in v {
            match out.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => out.push(r),
            }
        }
        Selection { ranges: out }
    }

    /// Adds a range (O(1) amortised when ranges arrive in order, O(k) otherwise).
    pub fn push(&mut self, r: Range<usize>) {
        if r.start >= r.end {
            return;
        }
        match self.ranges.last_mut() {
            Some(last) if r.start >= last.start => {
                if r.start <= last.end {
                    last.end = last.end.max(r.end);
                } else {
                    self.ranges.push(r);
                }
            }
            None => self.ranges.push(r),
            _ => {
                let mut v = std::mem::take(&mut self.ranges);
                v.push(r);
                *self = Selection::from_ranges(v);
            }
        }
    }

    /// The ranges, sorted.
    pub fn ranges(&self) -> &[Range<usize>] {
        &self.ranges
    }

    /// True when nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Number of selected bytes.
    pub fn len_bytes(&self) -> usize {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Is byte `offset` selected? O(log k).
    pub fn contains(&self, offset: usize) -> bool {
        let i = self.ranges.partition_point(|r| r.end <= offset);
        i < self.ranges.len() && self.ranges[i].start <= offset
    }

    /// Does the selection intersect `r`? O(log k).
    pub fn intersects(&self, r: Range<usize>) -> bool {
        let i = self.ranges.partition_point(|x| x.end <= r.start);
        i < self.ranges.len() && self.ranges[i].start < r.end
    }

    /// Set union. O(k1 + k2).
    pub fn union(&self, other: &Selection) -> Selection {
        let mut all = Vec::with_capacity(self.ranges.len() + other.ranges.len());
        let (mut i, mut j) = (0, 0);
        while i < self.ranges.len() || j < other.ranges.len() {
            let take_a = j >= other.ranges.len()
                || (i < self.ranges.len() && self.ranges[i].start <= other.ranges[j].start);
            if take_a {
                all.push(self.ranges[i].clone());
                i += 1;
            } else {
                all.push(other.ranges[j].clone());
                j += 1;
            }
        }
        Selection::from_ranges(all)
    }

    /// Set intersection. O(k1 + k2).
    pub fn intersection(&self, other: &Selection) -> Selection {
        let mut out = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < self.ranges.len() && j < other.ranges.len() {
            let a = &self.ranges[i];
            let b = &other.ranges[j];
            let s = a.start.max(b.start);
            let e = a.end.min(b.end);
            if s < e {
                out.push(s..e);
            }
            if a.end <= b.end {
                i += 1;
            } else {
                j += 1;
            }
        }
        Selection { ranges: out }
    }

    /// Set difference `self \ other`. O(k1 + k2).
    pub fn difference(&self, other: &Selection) -> Selection {
        let mut out = Vec::new();
        let mut j = 0;
        for a in &self.ranges {
            let mut start = a.start;
            while j < other.ranges.len() && other.ranges[j].end <= start {
                j += 1;
            }
            let mut k = j;
            while k < other.ranges.len() && other.ranges[k].start < a.end {
                let b = &other.ranges[k];
                if b.start > start {
                    out.push(start..b.start);
                }
                start = start.max(b.end);
                k += 1;
            }
            if start < a.end {
                out.push(start..a.end);
            }
        }
        Selection { ranges: out }
    }

    /// Weighted voting over selections (the basis of CombinE's voting filter sets, Weissig &
    /// Gottron): a byte is selected when the summed weights of the selections that contain it are
    /// at least `threshold` and above zero (a byte no selection contains is never selected, even
    /// with a threshold of 0). Weights are compared with a tolerance of 1e-9, so 0.1 + 0.2 meets
    /// a threshold of 0.3. Selections should be in the page's normal form
    /// ([`crate::page::Page::normalize`]) so that voters compare like with like.
    /// O(K log K) for K ranges in total.
    pub fn vote(selections: &[(&Selection, f64)], threshold: f64) -> Selection {
        let mut events: Vec<(usize, f64)> = Vec::new();
        for (s, w) in selections {
            for r in s.ranges() {
                events.push((r.start, *w));
                events.push((r.end, -*w));
            }
        }
        events.sort_by_key(|e| e.0);
        let mut out = Vec::new();
        let mut sum = 0.0;
        let mut open: Option<usize> = None;
        let mut i = 0;
        while i < events.len() {
            let at = events[i].0;
            while i < events.len() && events[i].0 == at {
                sum += events[i].1;
                i += 1;
            }
            let on = sum >= threshold - 1e-9 && sum > 1e-9;
            match (open, on) {
                (None, true) => open = Some(at),
                (Some(s), false) => {
                    out.push(s..at);
                    open = None;
                }
                _ => {}
            }
        }
        Selection::from_ranges(out)
    }
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn normalises() {
        let s = Selection::from_ranges([5..7, 0..2, 2..3, 6..9, 4..4]);
        assert_eq!(s.ranges(), &[0..3, 5..9]);
        assert_eq!(s.len_bytes(), 7);
        assert!(s.contains(0) && s.contains(8) && !s.contains(3) && !s.contains(9));
        assert!(s.intersects(2..6) && !s.intersects(3..5));
    }

    #[test]
    fn set_ops() {
        let a = Selection::from_ranges([0..10, 20..30]);
        let b = Selection::from_ranges([5..25]);
        assert_eq!(a.union(&b).ranges(), &[0..30]);
        assert_eq!(a.intersection(&b).ranges(), &[5..10, 20..25]);
        assert_eq!(a.difference(&b).ranges(), &[0..5, 25..30]);
        let v = Selection::vote(&[(&a, 1.0), (&b, 1.0)], 2.0);
        assert_eq!(v.ranges(), &[5..10, 20..25]);
    }

    fn to_bits(s: &Selection, n: usize) -> Vec<bool> {
        (0..n).map(|i| s.contains(i)).collect()
    }

    proptest! {
        #[test]
        fn ops_match_bitsets(a in proptest::collection::vec((0usize..60, 0usize..10), 0..8),
                             b in proptest::collection::vec((0usize..60, 0usize..10), 0..8)) {
            let sa = Selection::from_ranges(a.iter().map(|&(s, l)| s..s + l));
            let sb = Selection::from_ranges(b.iter().map(|&(s, l)| s..s + l));
            let (ba, bb) = (to_bits(&sa, 80), to_bits(&sb, 80));
            let u = to_bits(&sa.union(&sb), 80);
            let i = to_bits(&sa.intersection(&sb), 80);
            let d = to_bits(&sa.difference(&sb), 80);
            let v = to_bits(&Selection::vote(&[(&sa, 0.5), (&sb, 0.5)], 0.5), 80);
            for k in 0..80 {
                prop_assert_eq!(u[k], ba[k] || bb[k]);
                prop_assert_eq!(i[k], ba[k] && bb[k]);
                prop_assert_eq!(d[k], ba[k] && !bb[k]);
                prop_assert_eq!(v[k], ba[k] || bb[k]);
            }
            let mut p = Selection::new();
            for r in sa.ranges().iter().rev() { p.push(r.clone()); }
            prop_assert_eq!(p, sa);
        }

        /// Weighted voting with unequal weights and any threshold agrees with a per-byte sum of
        /// the weights of the selections that contain the byte (Weissig & Gottron, voting sets).
        #[test]
        fn weighted_vote_matches_per_byte_sums(
            sels in proptest::collection::vec(
                (proptest::collection::vec((0usize..60, 0usize..12), 0..6), 1u32..10), 1..5),
            threshold_tenths in 0u32..40,
        ) {
            let sels: Vec<(Selection, f64)> = sels
                .iter()
                .map(|(rs, w)| (Selection::from_ranges(rs.iter().map(|&(s, l)| s..s + l)), *w as f64 / 4.0))
                .collect();
            let threshold = threshold_tenths as f64 / 10.0;
            let refs: Vec<(&Selection, f64)> = sels.iter().map(|(s, w)| (s, *w)).collect();
            let v = Selection::vote(&refs, threshold);
            for k in 0..80 {
                let sum: f64 = sels.iter().filter(|(s, _)| s.contains(k)).map(|(_, w)| w).sum();
                let expect = sum > 0.0 && sum >= threshold;
                prop_assert_eq!(v.contains(k), expect, "byte {} sum {} threshold {}", k, sum, threshold);
            }
        }
    }
}
