//! The layered dynamic programme over (hexes moved, window hex): the two
//! cheapest walks to every state the cut leaves, and the off-map steps met
//! on the way.

use crate::hex::{Dir, Offset};
use crate::labataille::fields::CellFacts;
use crate::labataille::grid::BLOCKED;
use crate::labataille::rout::bound::Cut;
use crate::labataille::rout::keys::FROM;
use crate::labataille::rout::planner::RoutPlanner;
use crate::labataille::rout::query::RoutQuery;
use crate::labataille::rout::walks::{NONE, Walks, cost_of};

impl RoutPlanner {
    /// The layered programme: from the start, layer by layer, the two
    /// cheapest walks to every (hexes moved, hex) that `cut` leaves, and the
    /// off-map steps met on the way. The planner must be freshly prepared.
    pub(super) fn programme(
        &mut self,
        q: &RoutQuery,
        cut: Option<&Cut>,
        hexes: usize,
        forbidden: u8,
        start_behind: bool,
    ) {
        let grid = q.grid;
        let f = q.fields;
        let cells = &f.cells[..];
        let steps = grid.step_costs(q.arm());
        let start_cell = grid.idx(q.start);
        let Some(centre) = self.local(q.start, q.start) else { return };
        let layer = self.layer;
        let row = layer + 1;
        let generation = self.generation;
        let side = self.side;
        if self.win_pw != grid.pw {
            self.win_pw = grid.pw;
            self.win_off = (0..side * side).map(|l| l / side * grid.pw + l % side).collect();
        }
        // The window's corner, which may lie outside the padded grid; every
        // hex a state reaches or looks at lies inside it.
        let corner = start_cell as i64 - (self.radius * grid.pw + self.radius) as i64;
        let corner_par = ((q.start.c - self.radius) & 1) as u8;
        // Neighbour offsets by column parity: within the window every state
        // lies at most k <= hexes from the start, so its neighbours are still
        // inside the window and inside the padded grid; no bounds checks.
        let mut local_step = [[0i32; 6]; 2];
        let mut global_step = [[0i32; 6]; 2];
        for (p, (ls, gs)) in local_step.iter_mut().zip(global_step.iter_mut()).enumerate() {
            for dir in Dir::ALL {
                let o = Offset::new(p as i32, 1).neighbour(dir);
                let (dc, dr) = (o.c - p as i32, o.r - 1);
                ls[dir.index()] = dr * side + dc;
                gs[dir.index()] = dr * grid.pw + dc;
            }
        }
        // The start: no cost, and from no hex (all hex bits set name none).
        self.walk[centre as usize] = Walks { best: FROM, ..Walks::default() };
        self.nodes[0] = centre;
        self.count[0] = 1;
        self.exits.clear();

        for k in 0..hexes {
            let (done, later) = self.walk.split_at_mut((k + 1) * layer);
            let cur = &done[k * layer..];
            let nxt = &mut later[..layer];
            let (done, later) = self.nodes.split_at_mut((k + 1) * row);
            let frontier = &done[k * row..][..self.count[k]];
            let next = &mut later[..row];
            let mut reached = 0;
            for &u in frontier {
                let ci = u as usize;
                let here = cur[ci];
                // A hex reached only by walks that cannot beat the move in
                // hand is not taken further (nor is anything after it: the
                // bound only grows along a walk).
                if let Some(cut) = cut
                    && cut.hopeless(cost_of(here.best), (corner + self.win_off[ci] as i64) as usize, hexes - k)
                {
                    continue;
                }
                self.expanded += 1;
                if self.out_stamp[ci] != generation {
                    self.out_stamp[ci] = generation;
                    let gu = (corner + self.win_off[ci] as i64) as usize;
                    let odd = ((self.win_cr[ci].0 & 1) as u8 ^ corner_par) as usize;
                    let a = cells[gu];
                    let o = &mut self.outs[ci];
                    (o.legal, o.exits) = (0, 0);
                    for d in 0..6 {
                        let gv = (gu as i32 + global_step[odd][d]) as usize;
                        let b = cells[gv];
                        if !b.has(CellFacts::ON_MAP) {
                            o.exits |= 1 << d;
                            continue;
                        }
                        if b.bits & forbidden != 0 || b.dist < a.dist {
                            continue;
                        }
                        let step = steps[gu * 6 + d];
                        if step == BLOCKED {
                            continue;
                        }
                        o.legal |= 1 << d;
                        o.key[d] = q.step_key(gv, step);
                        o.to[d] = (ci as i32 + local_step[odd][d]) as u16;
                    }
                }
                let o = &self.outs[ci];
                // Off-map steps (rare: only from the map's edge hexes).
                let mut exits = o.exits;
                while exits != 0 {
                    let d = exits.trailing_zeros() as usize;
                    exits &= exits - 1;
                    let gu = (corner + self.win_off[ci] as i64) as usize;
                    let odd = ((self.win_cr[ci].0 & 1) as u8 ^ corner_par) as usize;
                    let gv = (gu as i32 + global_step[odd][d]) as usize;
                    if let Some(edge) = q.exit_step(gu, gv, grid.offset(gu), Dir::ALL[d], start_behind) {
                        self.exits.push((q.exit_key(cost_of(here.best), edge), k as u16, u, edge));
                    }
                }
                // Then the legal steps, by bit mask rather than by testing
                // all six sides.
                let mut legal = o.legal;
                while legal != 0 {
                    let d = legal.trailing_zeros() as usize & 7;
                    legal &= legal - 1;
                    let lv = o.to[d];
                    // From no walk (`NONE`) the sum saturates to `NONE`:
                    // every step key is at least 1 << TERRAIN_AT.
                    let walk = cost_of(here.avoiding(lv)).saturating_add(o.key[d]) | u as u64;
                    let there = &mut nxt[lv as usize];
                    if !there.takes(walk) {
                        continue;
                    }
                    next[reached] = lv;
                    reached += (there.best == NONE) as usize;
                    there.offer(walk);
                }
            }
            self.count[k + 1] = reached;
        }
    }
}
