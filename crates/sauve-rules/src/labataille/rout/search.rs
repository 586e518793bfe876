//! The exact search, for the moves whose cheapest walk comes back on
//! itself: depth first over simple paths, backwards from the ends, cut by
//! the walks' costs.

use crate::hex::{Dir, Offset};
use crate::labataille::rout::planner::RoutPlanner;
use crate::labataille::rout::walks::{NO_HEX, NONE, Out, Walks, cost_of, from_of};

/// State budget of the exact search of one move, a guard against a
/// pathological map: the generated battles of the tests stay far below it
/// (a test checks); past it the best path found so far stands.
pub(super) const SEARCH_BUDGET: usize = 2_000_000;

/// The exact search: depth-first over simple paths, backwards from a
/// target state (an end hex after all the hexes, or an edge hex before an
/// off-map step) to the start, cut wherever the cheapest walk to the
/// current hex plus the path behind it cannot beat the best path found.
struct Back<'p> {
    walk: &'p [Walks],
    outs: &'p [Out],
    out_stamp: &'p [u32],
    generation: u32,
    win_cr: &'p [(u16, u16)],
    layer: usize,
    side: i32,
    corner_par: u8,
    /// Window column and row steps to each neighbour, by the neighbour's
    /// column parity on the map.
    towards: [[(i32, i32); 6]; 2],
    on: &'p mut [bool],
    /// The path so far, from the target back.
    path: Vec<u16>,
    best: Option<(u128, Vec<u16>)>,
    visited: usize,
}

impl Back<'_> {
    fn go(&mut self, v: u16, j: usize, behind: u64, key: &dyn Fn(u64) -> u128) {
        self.visited += 1;
        if j == 0 {
            // Only the start has a walk of no hexes.
            let k = key(behind);
            if self.best.as_ref().is_none_or(|b| k < b.0) {
                let mut path = self.path.clone();
                path.reverse();
                self.best = Some((k, path));
            }
            return;
        }
        if self.visited > SEARCH_BUDGET {
            return;
        }
        let (c, r) = self.win_cr[v as usize];
        let odd = ((c & 1) as u8 ^ self.corner_par) as usize;
        let mut steps = [(0u64, 0u16, 0u64); 6];
        let mut n = 0;
        for d in 0..6 {
            let (dc, dr) = self.towards[odd][d];
            let (uc, ur) = (c as i32 + dc, r as i32 + dr);
            if uc < 0 || ur < 0 || uc >= self.side || ur >= self.side {
                continue;
            }
            let u = (ur * self.side + uc) as usize;
            let w = self.walk[(j - 1) * self.layer + u].avoiding(v);
            if w == NONE || self.on[u] {
                continue;
            }
            let w = cost_of(w);
            // A hex never taken further had only walks the cut dropped (the
            // greedy move beats any path through it), and no steps worked
            // out. The step from u back into v crosses the opposite side.
            if self.out_stamp[u] != self.generation {
                continue;
            }
            let back = (d + 3) % 6;
            let out = &self.outs[u];
            if out.legal & (1 << back) == 0 {
                continue;
            }
            debug_assert_eq!(out.to[back], v);
            let bound = w + out.key[back] + behind;
            steps[n] = (bound, u as u16, out.key[back]);
            n += 1;
        }
        steps[..n].sort_unstable();
        for &(bound, u, step) in &steps[..n] {
            if self.best.as_ref().is_some_and(|b| key(bound) >= b.0) {
                break;
            }
            self.on[u as usize] = true;
            self.path.push(u);
            self.go(u, j - 1, behind + step, key);
            self.path.pop();
            self.on[u as usize] = false;
        }
    }
}

impl RoutPlanner {
    /// The cheapest walk of `k` hexes to window hex `l`, start first.
    pub(super) fn walk_to(&self, k: usize, l: u16) -> Vec<u16> {
        let mut path = Vec::with_capacity(k + 1);
        let (mut k, mut l, mut next) = (k, l, NO_HEX);
        loop {
            path.push(l);
            if k == 0 {
                break;
            }
            (next, l) = (l, from_of(self.walk[k * self.layer + l as usize].avoiding(next)));
            k -= 1;
        }
        path.reverse();
        path
    }

    /// Does the walk visit each hex once?
    pub(super) fn simple(&mut self, path: &[u16]) -> bool {
        let mut simple = true;
        for &l in path {
            simple &= !std::mem::replace(&mut self.on[l as usize], true);
        }
        for &l in path {
            self.on[l as usize] = false;
        }
        simple
    }

    pub(super) fn offsets(&self, start: Offset, path: &[u16]) -> Vec<Offset> {
        path.iter().map(|&l| self.global(start, l)).collect()
    }

    /// The exact search, over `targets` (key of the cheapest walk, hexes
    /// moved, window hex, and how a path cost gives the full key) taken in
    /// key order: a target is searched only while its walk's key can still
    /// beat the best path found, since no path there is cheaper than the walk.
    pub(super) fn search(
        &mut self,
        start: Offset,
        targets: &[(u128, usize, u16)],
        key: &dyn Fn(u128, u64) -> u128,
    ) -> Option<(usize, u128, Vec<u16>)> {
        let towards = [0, 1].map(|p: i32| {
            Dir::ALL.map(|d| {
                let o = Offset::new(p, 1).neighbour(d);
                (o.c - p, o.r - 1)
            })
        });
        let mut back = Back {
            walk: &self.walk,
            outs: &self.outs,
            out_stamp: &self.out_stamp,
            generation: self.generation,
            win_cr: &self.win_cr,
            layer: self.layer,
            side: self.side,
            corner_par: ((start.c - self.radius) & 1) as u8,
            towards,
            on: &mut self.on,
            path: Vec::with_capacity(self.radius as usize + 1),
            best: None,
            visited: 0,
        };
        let mut found = None;
        for (i, &(walk_key, k, l)) in targets.iter().enumerate() {
            if back.best.as_ref().is_some_and(|b| b.0 <= walk_key) {
                break;
            }
            let before = back.best.as_ref().map(|b| b.0);
            back.on[l as usize] = true;
            back.path.clear();
            back.path.push(l);
            back.go(l, k, 0, &|cost| key(walk_key, cost));
            back.on[l as usize] = false;
            if back.best.as_ref().map(|b| b.0) != before {
                found = Some(i);
            }
        }
        self.searched += back.visited;
        found.zip(back.best).map(|(i, (key, path))| (i, key, path))
    }
}
