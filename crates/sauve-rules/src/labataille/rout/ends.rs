//! Reading a rout move off the programme: the best end hex that meets the
//! end limit, or failing a full move the best exit off the map; the exact
//! search only where the cheapest walk is not a simple path.

use crate::hex::Offset;
use crate::labataille::rout::keys::{EndKey, Rank};
use crate::labataille::rout::planner::RoutPlanner;
use crate::labataille::rout::query::{Near, RoutPlan, RoutQuery};
use crate::labataille::rout::walks::cost_of;

impl RoutPlanner {
    /// The best full move, if any, and its key: the best end hex whose
    /// cheapest walk meets the end limit, if that walk is simple; else the
    /// exact search.
    pub(super) fn full_move(&mut self, q: &RoutQuery, hexes: usize, near: &[Near]) -> Option<(RoutPlan, EndKey)> {
        let layer = self.layer;
        let mut ends = std::mem::take(&mut self.ends);
        ends.clear();
        let last = &self.walk[hexes * layer..][..layer];
        // Only ends of the best rank left are ever compared beyond their
        // rank, so the rest of a key (our tie-breaks) is worked out for a
        // whole rank group when it first comes up; until then a key's low
        // half is PENDING, above any worked-out one.
        const PENDING: u128 = u64::MAX as u128;
        for &l in &self.nodes[hexes * (layer + 1)..][..self.count[hexes]] {
            let rank = q.rank(cost_of(last[l as usize].best), self.global(q.start, l));
            ends.push(((rank as u128) << 64 | PENDING, l));
        }
        let tie = |key: u128, end: Offset| key & !PENDING | q.tie(end) as u128;
        let mut chosen = None;
        while let Some((i, &(key, l))) = ends.iter().enumerate().min_by(|a, b| a.1.cmp(b.1)) {
            if key & PENDING == PENDING {
                for e in ends.iter_mut().filter(|e| e.0 >> 64 == key >> 64) {
                    e.0 = tie(e.0, self.global(q.start, e.1));
                }
                continue;
            }
            if q.ends_further(self.global(q.start, l), near) {
                chosen = Some((l, key));
                break;
            }
            ends.swap_remove(i);
        }
        let plan = chosen.and_then(|(l, key)| {
            let path = self.walk_to(hexes, l);
            if self.simple(&path) {
                return Some((RoutPlan::Full(self.offsets(q.start, &path)), key));
            }
            // The cheapest walk comes back on itself: search simple paths
            // to every end that meets the end limit, best walk first.
            for e in ends.iter_mut().filter(|e| e.0 & PENDING == PENDING) {
                e.0 = tie(e.0, self.global(q.start, e.1));
            }
            ends.sort_unstable();
            let targets: Vec<(u128, usize, u16)> = ends
                .iter()
                .filter(|e| q.ends_further(self.global(q.start, e.1), near))
                .map(|&(key, l)| (key, hexes, l))
                .collect();
            // A path's key: its own cost ranked with its end's refuge flag,
            // and its end's tie-breaks.
            let order = Rank(q.refuge);
            let parts = |walk_key: u128, cost: u64| {
                let refuge = order.refuge((walk_key >> 64) as u64);
                (order.of(cost, refuge) as u128) << 64 | (walk_key & PENDING)
            };
            self.search(q.start, &targets, &parts)
                .map(|(_, key, path)| (RoutPlan::Full(self.offsets(q.start, &path)), key))
        });
        self.ends = ends;
        plan
    }

    /// The best off-map exit when no full move exists (the same way: the
    /// cheapest walk if simple, else the exact search).
    pub(super) fn off_map(&mut self, q: &RoutQuery) -> Option<RoutPlan> {
        let mut exits = std::mem::take(&mut self.exits);
        exits.sort_unstable();
        let plan = exits.first().and_then(|&(_, k, l, edge)| {
            let path = self.walk_to(k as usize, l);
            if self.simple(&path) {
                return Some(RoutPlan::OffMap(self.offsets(q.start, &path), edge));
            }
            let targets: Vec<(u128, usize, u16)> = exits.iter().map(|&(key, k, l, _)| (key, k as usize, l)).collect();
            let parts = |walk_key: u128, cost: u64| (walk_key & !(u64::MAX as u128)) | cost as u128;
            self.search(q.start, &targets, &parts)
                .map(|(i, _, path)| RoutPlan::OffMap(self.offsets(q.start, &path), exits[i].3))
        });
        self.exits = exits;
        plan
    }
}
