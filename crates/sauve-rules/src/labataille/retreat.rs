//! La Bataille disorder retreat (docs/rules.md 1.3) and the far router's walk to
//! refuge (Morale Recovery Segment, docs/rules.md 1.5).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::hex::{Dir, Edge, Offset};
use crate::labataille::Board;
use crate::labataille::fields::SideFields;
use crate::labataille::grid::{BLOCKED, Grid, Occupancy};

/// Everything a disorder retreat reads.
pub struct RetreatQuery<'a> {
    pub grid: &'a Grid,
    pub fields: &'a SideFields,
    pub occupancy: &'a Occupancy,
    pub board: &'a Board,
    pub unit: usize,
    pub start: Offset,
    /// Movement points to spend, in hundredths.
    pub budget: u32,
    pub own_rear: Edge,
}

/// A disorder retreat's path (start and end included), and whether it
/// entered an enemy cavalry zone on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetreatPlan {
    pub path: Vec<Offset>,
    pub through_cavalry_zone: bool,
}

/// Everything a far router's walk to refuge reads.
#[derive(Clone, Copy)]
pub struct RefugeQuery<'a> {
    pub grid: &'a Grid,
    pub fields: &'a SideFields,
    pub board: &'a Board,
    pub unit: usize,
    pub start: Offset,
    /// Hexes kept from every enemy (`rules.safe_distance`).
    pub safe: u32,
    /// The most hexes walked this segment (`rules.far_router_hexes`).
    pub max_hexes: u32,
}

/// The disorder retreat and the far router's walk (see
/// [`RetreatPlanner::retreat`] and [`RetreatPlanner::refuge`]) with their
/// per-cell scratch, stamped so that a search clears nothing: a cell's
/// entries count only while its stamp is the current search's. Its owner
/// (the engine) keeps it between moves, so a search allocates nothing once
/// warm.
#[derive(Default)]
pub struct RetreatPlanner {
    stamp: Vec<u32>,
    epoch: u32,
    /// Per cell: cost (hundredths) and parent cell.
    cost: Vec<u32>,
    parent: Vec<u32>,
    /// Per cell: whether its path touched an enemy cavalry zone, and how
    /// many of its hexes after the start held friends.
    along: Vec<(bool, u32)>,
    /// Cells in the order the search settled them.
    order: Vec<usize>,
    heap: BinaryHeap<Reverse<(u32, usize)>>,
}

impl RetreatPlanner {
    pub fn new() -> Self {
        Self::default()
    }

    fn begin(&mut self, cells: usize) {
        if self.stamp.len() != cells {
            *self = RetreatPlanner {
                stamp: vec![0; cells],
                cost: vec![0; cells],
                parent: vec![0; cells],
                along: vec![(false, 0); cells],
                ..RetreatPlanner::default()
            };
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|x| *x = 0);
            self.epoch = 1;
        }
        self.order.clear();
        self.heap.clear();
    }

    #[inline]
    fn seen(&self, i: usize) -> bool {
        self.stamp[i] == self.epoch
    }

    #[inline]
    fn set(&mut self, i: usize, cost: u32, parent: usize) {
        self.stamp[i] = self.epoch;
        self.cost[i] = cost;
        self.parent[i] = parent as u32;
    }

    /// The path from `start` to `i`, start first.
    fn path(&self, start: usize, mut i: usize) -> Vec<usize> {
        let mut p = vec![i];
        while i != start {
            i = self.parent[i] as usize;
            p.push(i);
        }
        p.reverse();
        p
    }

    /// La Bataille disorder retreat (rule 1.3): a unit that becomes disordered
    /// at once moves up to `retreat_mp` movement points away from the enemy,
    /// paying terrain costs, never stepping closer to the nearest enemy, never
    /// into enemy-occupied or prohibited hexes or behind enemy lines; it always
    /// moves at least one hex if any legal neighbour exists, whatever that hex
    /// costs. Of the hexes it can reach it ends in the one furthest from the
    /// nearest enemy (house default); ties go, as for the rout move, to the
    /// cheaper path, then the one past fewer friends (the source puts terrain
    /// before friends), then a path outside enemy cavalry zones, then a
    /// woods/built-up hex, then the hex nearest its own rear edge. `None` if it
    /// cannot move at all.
    pub fn retreat(&mut self, q: &RetreatQuery) -> Option<RetreatPlan> {
        let grid = q.grid;
        let f = q.fields;
        let unit = &q.board.units[q.unit];
        let start = grid.idx(q.start);
        let start_behind = f.behind[start];
        self.begin(grid.len());
        self.set(start, 0, start);
        self.heap.push(Reverse((0u32, start)));
        while let Some(Reverse((cost, i))) = self.heap.pop() {
            if self.cost[i] < cost {
                continue;
            }
            self.order.push(i);
            for dir in Dir::ALL {
                let Some(j) = grid.neighbour(i, dir) else { continue };
                if !grid.on_map[j] || f.enemy[j] || f.dist[j] < f.dist[i] || (f.behind[j] && !start_behind) {
                    continue;
                }
                let step = grid.step_cost(unit.arm, i, dir);
                if step == BLOCKED {
                    continue;
                }
                let total = cost + step as u32;
                // The first hex is always allowed: "at least one hex".
                if total > q.budget && i != start {
                    continue;
                }
                if !self.seen(j) || total < self.cost[j] {
                    self.set(j, total, i);
                    self.heap.push(Reverse((total, j)));
                }
            }
        }
        let friends = |cell: usize| {
            q.occupancy.occupied(cell)
                && q.occupancy
                    .at(cell)
                    .iter()
                    .any(|&u| u as usize != q.unit && q.board.units[u as usize].side == unit.side)
        };
        // Per reached hex, along its path from the start: whether the path
        // touches an enemy cavalry zone (leaving one counts as retreating
        // through it) and how many hexes after the start hold friends; worked
        // out once per hex from its parent's, in the order the search settled
        // them (a parent always before its children: every step costs).
        for k in 0..self.order.len() {
            let i = self.order[k];
            self.along[i] = if i == start {
                (f.cav_zone[start], 0)
            } else {
                let (cav, past) = self.along[self.parent[i] as usize];
                (cav || f.cav_zone[i], past + u32::from(friends(i)))
            };
        }
        // The hex index last makes the order total, so the choice does not
        // depend on the order hexes are looked at.
        let best = self
            .order
            .iter()
            .filter(|&&i| i != start)
            .map(|&i| {
                let (cav, past_friends) = self.along[i];
                let key = (
                    Reverse(f.dist[i]),
                    self.cost[i],
                    past_friends,
                    cav,
                    !grid.refuge[i],
                    grid.edge_half_distance(q.own_rear, grid.offset(i)),
                    i,
                );
                (key, i, cav)
            })
            .min_by(|a, b| a.0.cmp(&b.0))?;
        let path = self.path(start, best.1);
        Some(RetreatPlan { path: path.iter().map(|&c| grid.offset(c)).collect(), through_cavalry_zone: best.2 })
    }

    /// Morale Recovery Segment, far router (rule 1.5): a routed unit that failed
    /// recovery more than `safe` hexes from every enemy walks towards the nearest
    /// woods or built-up hex that is itself at least `safe` hexes from every
    /// enemy, keeping that distance on the way and, as every forced move, never
    /// taking a step closer to the nearest enemy (docs/rules.md 1.3), at most
    /// `max_hexes` hexes this segment. Returns the path (start included) or
    /// `None` if it stays.
    pub fn refuge(&mut self, q: &RefugeQuery) -> Option<Vec<Offset>> {
        let RefugeQuery { grid, fields, board, unit, start, safe, max_hexes } = *q;
        let arm = board.units[unit].arm;
        let s = grid.idx(start);
        let safe_at = |i: usize| fields.dist[i] as u32 >= safe;
        if grid.refuge[s] && safe_at(s) {
            return None;
        }
        // Breadth first, the settle order doubling as the queue.
        self.begin(grid.len());
        self.set(s, 0, s);
        self.order.push(s);
        let mut head = 0;
        let mut goal = None;
        while head < self.order.len() {
            let i = self.order[head];
            head += 1;
            if i != s && grid.refuge[i] {
                goal = Some(i);
                break;
            }
            for dir in Dir::ALL {
                let Some(j) = grid.neighbour(i, dir) else { continue };
                let closer = fields.dist[j] < fields.dist[i];
                if !grid.on_map[j] || fields.enemy[j] || closer || !safe_at(j) || self.seen(j) {
                    continue;
                }
                if grid.step_cost(arm, i, dir) == BLOCKED {
                    continue;
                }
                self.set(j, 0, i);
                self.order.push(j);
            }
        }
        let mut path = self.path(s, goal?);
        path.truncate(max_hexes as usize + 1);
        Some(path.into_iter().map(|c| grid.offset(c)).collect())
    }
}
