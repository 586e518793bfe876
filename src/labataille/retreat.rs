//! La Bataille disorder retreat (RULES.md 1.3) and the far router's walk to
//! refuge (Morale Recovery Segment, RULES.md 1.5).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

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

/// La Bataille disorder retreat (rule 1.3): a unit that becomes disordered
/// at once moves up to `retreat_mp` movement points away from the enemy,
/// paying terrain costs, never stepping closer to the nearest enemy, never
/// into enemy-occupied or prohibited hexes or behind enemy lines; it always
/// moves at least one hex if any legal neighbour exists, whatever that hex
/// costs. Of the hexes it can reach it ends in the one furthest from the
/// nearest enemy; ties go to a path outside enemy cavalry zones, then past
/// fewer friends, then cheaper, then a woods/built-up hex, then the hex
/// nearest its own rear edge. `None` if it cannot move at all.
pub fn plan_retreat(q: &RetreatQuery) -> Option<RetreatPlan> {
    let grid = q.grid;
    let f = q.fields;
    let unit = &q.board.units[q.unit];
    let start = grid.idx(q.start);
    let start_behind = f.behind[start];
    // cell -> (cost, parent)
    let mut seen: BTreeMap<usize, (u32, usize)> = BTreeMap::new();
    let mut heap = BinaryHeap::new();
    seen.insert(start, (0, start));
    heap.push(Reverse((0u32, start)));
    while let Some(Reverse((cost, i))) = heap.pop() {
        if seen.get(&i).is_some_and(|&(c, _)| c < cost) {
            continue;
        }
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
            if seen.get(&j).is_none_or(|&(c, _)| total < c) {
                seen.insert(j, (total, i));
                heap.push(Reverse((total, j)));
            }
        }
    }
    let path_of = |mut i: usize| {
        let mut p = vec![i];
        while i != start {
            i = seen[&i].1;
            p.push(i);
        }
        p.reverse();
        p
    };
    let friends = |cell: usize| {
        q.occupancy.occupied(cell)
            && q.occupancy.at(cell).iter().any(|&u| u as usize != q.unit && q.board.units[u as usize].side == unit.side)
    };
    // Per reached hex, along its path from the start: whether the path
    // touches an enemy cavalry zone (leaving one counts as retreating
    // through it) and how many hexes after the start hold friends; worked
    // out once per hex from its parent's, not by walking every path.
    let mut along: BTreeMap<usize, (bool, usize)> = BTreeMap::new();
    along.insert(start, (f.cav_zone[start], 0));
    let mut chain = Vec::new();
    for &i in seen.keys() {
        let mut j = i;
        while !along.contains_key(&j) {
            chain.push(j);
            j = seen[&j].1;
        }
        while let Some(c) = chain.pop() {
            let (cav, past) = along[&seen[&c].1];
            along.insert(c, (cav || f.cav_zone[c], past + usize::from(friends(c))));
        }
    }
    let best = seen
        .iter()
        .filter(|(i, _)| **i != start)
        .map(|(&i, &(cost, _))| {
            let (cav, past_friends) = along[&i];
            let key = (
                Reverse(f.dist[i]),
                cav,
                past_friends,
                cost,
                !grid.refuge[i],
                grid.edge_half_distance(q.own_rear, grid.offset(i)),
                i,
            );
            (key, i, cav)
        })
        .min_by(|a, b| a.0.cmp(&b.0))?;
    let best = (best.0, path_of(best.1), best.2);
    Some(RetreatPlan { path: best.1.iter().map(|&c| grid.offset(c)).collect(), through_cavalry_zone: best.2 })
}

/// Morale Recovery Segment, far router (rule 1.5): a routed unit that failed
/// recovery more than `safe` hexes from every enemy walks towards the nearest
/// woods or built-up hex that is itself at least `safe` hexes from every
/// enemy, keeping that distance on the way, at most `max_hexes` hexes this
/// segment. Returns the path (start included) or `None` if it stays.
pub fn plan_refuge(
    grid: &Grid,
    fields: &SideFields,
    board: &Board,
    unit: usize,
    start: Offset,
    safe: u32,
    max_hexes: u32,
) -> Option<Vec<Offset>> {
    let arm = board.units[unit].arm;
    let s = grid.idx(start);
    let safe_at = |i: usize| fields.dist[i] as u32 >= safe;
    if grid.refuge[s] && safe_at(s) {
        return None;
    }
    let mut parent: BTreeMap<usize, usize> = BTreeMap::new();
    parent.insert(s, s);
    let mut queue = VecDeque::from([s]);
    let mut goal = None;
    while let Some(i) = queue.pop_front() {
        if i != s && grid.refuge[i] {
            goal = Some(i);
            break;
        }
        for dir in Dir::ALL {
            let Some(j) = grid.neighbour(i, dir) else { continue };
            if !grid.on_map[j] || fields.enemy[j] || !safe_at(j) || parent.contains_key(&j) {
                continue;
            }
            if grid.step_cost(arm, i, dir) == BLOCKED {
                continue;
            }
            parent.insert(j, i);
            queue.push_back(j);
        }
    }
    let mut i = goal?;
    let mut path = vec![i];
    while i != s {
        i = parent[&i];
        path.push(i);
    }
    path.reverse();
    path.truncate(max_hexes as usize + 1);
    Some(path.into_iter().map(|c| grid.offset(c)).collect())
}
