//! Ordered movement (docs/rules.md 1.7, 1.8): how far a unit can go this phase,
//! the path it takes, zones of influence that stop it and the stacking limit
//! at its end hex. One bounded Dijkstra per unit over the shared grid; enemy
//! zones are read from who stands next to each hex as the search reaches it,
//! so no map-wide field has to be rebuilt when an enemy moves (a charge or a
//! retreat), and the scratch arrays are reused between units.

use std::sync::Arc;

use crate::hex::{Dir, Offset};
use crate::labataille::Board;
use crate::labataille::fields::{CellFacts, SideFields, exerts_zone, front_sides};
use crate::labataille::grid::{BLOCKED, Grid, Occupancy, centi};
use crate::rules::Rules;
use crate::terrain::Arm;
use crate::vocab::Formation;
use crate::vocab::State;

/// Movement points in hundredths (kept with the grid's step costs; named
/// here too, where the moves that spend them are).
pub use crate::labataille::grid::Centi;

/// MP (hundredths) a unit may spend this phase before anything is used:
/// its allowance times its formation's share (rule 1.7). Unlimbered guns
/// cannot move; they limber first.
pub fn allowance(rules: &Rules, arm: Arm, own: Option<f32>, formation: Formation, limbered: bool) -> Centi {
    let c = &rules.combat;
    let share = match arm {
        Arm::Artillery if !limbered => 0.0,
        Arm::Artillery => 1.0,
        _ => c.formation_movement.get(formation),
    };
    centi(c.allowance(arm, own) * share)
}

/// The stacking limit of a hex in increments (rule 1.7).
pub fn stacking_limit(rules: &Rules, grid: &Grid, cell: usize) -> u32 {
    if grid.close[cell] { rules.combat.stacking_close } else { rules.combat.stacking_open }
}

/// Increments of `side` standing in `cell`, leaving out `except`.
pub fn stacked(board: &Board, occupancy: &Occupancy, cell: usize, side: usize, except: usize) -> u32 {
    if !occupancy.occupied(cell) {
        return 0;
    }
    occupancy
        .at(cell)
        .iter()
        .map(|&u| u as usize)
        .filter(|&u| u != except && board.units[u].side == side)
        .map(|u| board.units[u].strength)
        .sum()
}

/// Whether an enemy zone in `cell` stops a unit of `side` and `arm` (rule
/// 1.7): infantry and artillery stop in any enemy zone, cavalry only in an
/// enemy cavalry zone. An enemy next to the hex exerts a zone into it when
/// the hexside between them is one of its front three, as the side fields
/// count them.
pub fn zone_stops(grid: &Grid, occupancy: &Occupancy, board: &Board, side: usize, arm: Arm, cell: usize) -> bool {
    for dir in Dir::ALL {
        let Some(n) = grid.neighbour(cell, dir) else { continue };
        if !occupancy.others_may_stand(n, side) {
            continue;
        }
        for &u in occupancy.at(n) {
            let e = &board.units[u as usize];
            if e.side != side
                && exerts_zone(e.state, e.formation)
                && (arm != Arm::Cavalry || e.arm == Arm::Cavalry)
                && front_sides(e.facing).contains(&dir.opposite())
            {
                return true;
            }
        }
    }
    false
}

/// Whether a unit not of `side` stands in `cell`.
#[inline]
pub fn enemy_in(occupancy: &Occupancy, board: &Board, side: usize, cell: usize) -> bool {
    occupancy.others_may_stand(cell, side) && occupancy.at(cell).iter().any(|&u| board.units[u as usize].side != side)
}

/// Calls `f` with every hex within `radius` of `at` (on the map) holding a
/// unit not of `side`, read from the occupancy.
pub fn enemies_within(
    grid: &Grid,
    occupancy: &Occupancy,
    board: &Board,
    side: usize,
    at: Offset,
    radius: u32,
    mut f: impl FnMut(Offset),
) {
    for h in at.to_hex().range(radius) {
        let o = Offset::from_hex(h);
        if o.c < 0 || o.r < 0 || o.c >= grid.width || o.r >= grid.height {
            continue;
        }
        if enemy_in(occupancy, board, side, grid.idx(o)) {
            f(o);
        }
    }
}

/// Every hex a unit can reach this phase, with the cheapest path to each.
#[derive(Clone, Debug, Default)]
pub struct Reach {
    pub start: Offset,
    /// Reachable end hexes (stacking allowed), with their cost in hundredths.
    pub ends: Vec<(Offset, Centi)>,
    /// Every settled cell: (cell, cost, parent cell).
    cells: Vec<(usize, Centi, usize)>,
}

impl Reach {
    pub fn cost_to(&self, to: Offset) -> Option<Centi> {
        self.ends.iter().find(|(o, _)| *o == to).map(|&(_, c)| c)
    }

    /// Path from the start to `to`, both included, if `to` is a legal end.
    pub fn path_to(&self, grid: &Grid, to: Offset) -> Option<Vec<Offset>> {
        self.cost_to(to)?;
        let mut path = vec![to];
        let mut cell = grid.idx(to);
        let start = grid.idx(self.start);
        let mut guard = self.cells.len() + 1;
        while cell != start && guard > 0 {
            let &(_, _, parent) = self.cells.iter().find(|(c, _, _)| *c == cell)?;
            cell = parent;
            path.push(grid.offset(cell));
            guard -= 1;
        }
        path.reverse();
        Some(path)
    }
}

/// Reusable scratch space for [`reach`].
#[derive(Clone, Debug, Default)]
pub struct MoveSearch {
    /// Per cell: the search that last reached it, the cost and the parent
    /// cell, side by side so that a look at a cell is one memory access.
    node: Vec<Node>,
    epoch: u32,
    /// Per cell, this search's answer to "does an enemy zone stop us here"
    /// (bit 1 known, bit 0 stops), stamped like the costs.
    zone: Vec<u8>,
    zone_stamp: Vec<u32>,
    /// The queue, one bucket per cost in hundredths (Dial's algorithm:
    /// every step costs at least one hundredth, so a bucket is complete
    /// when the search reaches it). Each entry is a cell; a bucket is taken
    /// in cell order, which is the order a heap keyed on (cost, cell) would
    /// give.
    buckets: Vec<Vec<u32>>,
    /// One bit per bucket: set while it holds entries.
    full: Vec<u64>,
    /// The last reach worked out, and what it was worked out for.
    memo: Option<(ReachKey, Arc<Reach>)>,
    /// How many cells the last search settled.
    settled_hint: usize,
}

#[derive(Clone, Copy, Debug, Default)]
struct Node {
    stamp: u32,
    cost: Centi,
    parent: u32,
}

/// What a remembered reach holds for: the unit, its MP and minimum-move
/// right, where it stood, and the engine's generations of both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ReachKey {
    unit: usize,
    budget: Centi,
    fresh: bool,
    at: Option<Offset>,
    generations: [u64; 2],
}

impl MoveSearch {
    /// Forgets the remembered reach (after any order).
    pub fn forget(&mut self) {
        self.memo = None;
    }
}

/// [`reach`], remembered: the same query again, with the engine's
/// `generations` unchanged (nothing moved or changed state) and no order
/// between (each order calls [`MoveSearch::forget`]), gets the last answer
/// back without a search. The AI looks at a unit's reach and then orders
/// the move or charge, which looks again.
/// The answer is shared with the memo rather than copied.
pub fn reach_remembered(s: &mut MoveSearch, q: &MoveQuery, generations: [u64; 2]) -> Arc<Reach> {
    let key = ReachKey { unit: q.unit, budget: q.budget, fresh: q.fresh, at: q.board.units[q.unit].at, generations };
    if let Some((_, known)) = s.memo.as_ref().filter(|(k, _)| *k == key) {
        return known.clone();
    }
    let r = Arc::new(reach(s, q));
    s.memo = Some((key, r.clone()));
    r
}

/// What a movement search needs to know.
pub struct MoveQuery<'a> {
    pub grid: &'a Grid,
    pub rules: &'a Rules,
    pub occupancy: &'a Occupancy,
    pub board: &'a Board,
    pub unit: usize,
    /// MP left, in hundredths.
    pub budget: Centi,
    /// The unit has not moved yet this phase (the one-hex minimum move).
    pub fresh: bool,
    /// The unit's side's fields, if up to date: then enemy hexes and zones
    /// are read from them instead of from the neighbours' stacks.
    pub fields: Option<&'a SideFields>,
}

/// Rule 1.7/1.8 movement: a Dijkstra over step costs out to the budget.
/// Enemy-occupied hexes are closed; entering a hex in an enemy zone that
/// stops this arm ends the move there; disordered units may not enter one at
/// all. A unit that has not moved may always go one hex it could legally
/// enter, whatever the cost (the minimum move, house default). Ends are
/// hexes on the map where the stacking limit holds.
pub fn reach(s: &mut MoveSearch, q: &MoveQuery) -> Reach {
    let g = q.grid;
    let u = &q.board.units[q.unit];
    let Some(start) = u.at else { return Reach::default() };
    let n = g.len();
    if s.node.len() != n {
        *s = MoveSearch {
            node: vec![Node::default(); n],
            epoch: 0,
            zone: vec![0; n],
            zone_stamp: vec![0; n],
            buckets: Vec::new(),
            full: Vec::new(),
            memo: None,
            settled_hint: 0,
        };
    }
    s.epoch = s.epoch.wrapping_add(1);
    if s.epoch == 0 {
        s.node.iter_mut().for_each(|x| x.stamp = 0);
        s.zone_stamp.iter_mut().for_each(|x| *x = 0);
        s.epoch = 1;
    }
    let epoch = s.epoch;
    let arm = u.arm;
    let disordered = u.state == State::Disordered;
    let start_cell = g.idx(start);
    let side = u.side;
    let stops = |s: &mut MoveSearch, cell: usize| -> bool {
        if let Some(f) = q.fields {
            return if arm == Arm::Cavalry { f.cav_zone[cell] } else { f.zone[cell] > 0 };
        }
        if s.zone_stamp[cell] != s.epoch {
            s.zone_stamp[cell] = s.epoch;
            s.zone[cell] = u8::from(zone_stops(g, q.occupancy, q.board, side, arm, cell));
        }
        s.zone[cell] == 1
    };
    let mut out = Reach { start, ..Default::default() };
    let visit = |s: &mut MoveSearch, cell: usize, cost: Centi, parent: usize| -> bool {
        let node = &mut s.node[cell];
        if node.stamp == epoch && node.cost <= cost {
            return false;
        }
        *node = Node { stamp: epoch, cost, parent: parent as u32 };
        true
    };
    let steps = g.step_costs(arm);
    visit(s, start_cell, 0, start_cell);
    let mut buckets = std::mem::take(&mut s.buckets);
    // One bit per bucket that holds anything, so that the walk skips the
    // empty ones (costs come in steps of tens of hundredths) a word at a time.
    let mut full = std::mem::take(&mut s.full);
    let put = |buckets: &mut Vec<Vec<u32>>, full: &mut Vec<u64>, cost: Centi, cell: u32| {
        let c = cost as usize;
        if buckets.len() <= c {
            buckets.resize_with(c + 1, Vec::new);
            full.resize(c / 64 + 1, 0);
        }
        buckets[c].push(cell);
        full[c / 64] |= 1 << (c % 64);
    };
    put(&mut buckets, &mut full, 0, start_cell as u32);
    // Sized as the last search's (searches of a phase are much alike), so
    // that it seldom grows.
    let mut settled: Vec<(usize, Centi, usize)> = Vec::with_capacity(s.settled_hint);
    let mut bucket = Vec::new();
    let mut word = 0;
    loop {
        // The lowest cost still queued: pushes only ever go to higher
        // costs than the bucket in hand, so the scan never looks back.
        while word < full.len() && full[word] == 0 {
            word += 1;
        }
        let Some(&bits) = full.get(word) else { break };
        let bit = bits.trailing_zeros() as usize;
        full[word] &= !(1 << bit);
        let cost = (word * 64 + bit) as Centi;
        std::mem::swap(&mut bucket, &mut buckets[cost as usize]);
        bucket.sort_unstable();
        for &cell in &bucket {
            let cell = cell as usize;
            let node = s.node[cell];
            if node.stamp != epoch || node.cost != cost {
                continue;
            }
            settled.push((cell, cost, node.parent as usize));
            // A hex in a stopping zone ends the move (the start hex
            // excepted: a unit may leave a zone).
            if cell != start_cell && stops(s, cell) {
                continue;
            }
            let minimum_move = q.fresh && cell == start_cell;
            for dir in Dir::ALL {
                let step = steps[cell * 6 + dir.index()];
                if step == BLOCKED {
                    continue;
                }
                // Every cell settled is on the map, so its neighbours lie
                // inside the padding.
                let Some(next) = g.neighbour(cell, dir) else { continue };
                let open = match q.fields {
                    Some(f) => f.cells[next].bits & (CellFacts::ON_MAP | CellFacts::ENEMY) == CellFacts::ON_MAP,
                    None => g.on_map[next] && !enemy_in(q.occupancy, q.board, side, next),
                };
                if !open || (disordered && stops(s, next)) {
                    continue;
                }
                let total = cost + step as Centi;
                if total > q.budget && !minimum_move {
                    continue;
                }
                if visit(s, next, total, cell) {
                    put(&mut buckets, &mut full, total, next as u32);
                }
            }
        }
        // Hand the buffer back to its bucket, empty, for the next search.
        bucket.clear();
        std::mem::swap(&mut bucket, &mut buckets[cost as usize]);
    }
    s.buckets = buckets;
    s.full = full;
    let own = u.strength;
    out.ends.reserve(settled.len());
    for &(cell, cost, _) in &settled {
        if cell == start_cell {
            continue;
        }
        let limit = stacking_limit(q.rules, g, cell);
        if stacked(q.board, q.occupancy, cell, u.side, q.unit) + own <= limit {
            out.ends.push((g.offset(cell), cost));
        }
    }
    s.settled_hint = settled.len();
    out.cells = settled;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::Edge;
    use crate::labataille::HexUnit;
    use crate::labataille::fields::SideFields;
    use crate::map::TerrainMap;

    fn unit(side: usize, arm: Arm, at: (i32, i32), facing: Dir) -> HexUnit {
        HexUnit::marching(format!("u{side}-{}-{}", at.0, at.1), side, arm, Offset::new(at.0, at.1), facing)
    }

    fn search(rows: &[&str], board: &Board, unit: usize, budget_mp: f32) -> (Grid, Reach) {
        let map = TerrainMap::from_rows(rows);
        let rules = Rules::default();
        let grid = Grid::new(&map, &rules);
        let mut occ = Occupancy::new(&grid);
        for (i, u) in board.units.iter().enumerate() {
            if let Some(at) = u.at {
                occ.insert(grid.idx(at), i, u.side);
            }
        }
        let q = MoveQuery {
            grid: &grid,
            rules: &rules,
            occupancy: &occ,
            board,
            unit,
            budget: centi(budget_mp),
            fresh: true,
            fields: None,
        };
        let r = reach(&mut MoveSearch::default(), &q);
        // Read from the side's fields instead of the stacks, the search
        // must find the same.
        let side = board.units[unit].side;
        let fields = SideFields::build(&grid, board, side, Edge::North);
        let with_fields = reach(&mut MoveSearch::default(), &MoveQuery { fields: Some(&fields), ..q });
        assert_eq!(with_fields.ends, r.ends, "reach read from the fields");
        (grid, r)
    }

    #[test]
    fn zones_read_from_neighbours_match_the_side_fields() {
        // Enemies of every arm, facing and state; the zone answer read from
        // the neighbours must equal the map-wide fields' for every hex.
        let mut units = vec![unit(0, Arm::Infantry, (0, 0), Dir::N)];
        let mut k = 0;
        for c in (1..11).step_by(3) {
            for r in (1..11).step_by(3) {
                let arm = Arm::ALL[k % 3];
                let mut u = unit(1, arm, (c, r), Dir::ALL[k % 6]);
                u.state = [State::GoodOrder, State::Disordered, State::Routed][k % 3];
                if k % 4 == 0 {
                    u.formation = Formation::Square;
                }
                units.push(u);
                k += 1;
            }
        }
        let board = Board { units };
        let map = TerrainMap::from_rows(&["............"; 12]);
        let rules = Rules::default();
        let grid = Grid::new(&map, &rules);
        let fields = SideFields::build(&grid, &board, 0, Edge::North);
        let mut occ = Occupancy::new(&grid);
        for (i, u) in board.units.iter().enumerate() {
            if let Some(at) = u.at {
                occ.insert(grid.idx(at), i, u.side);
            }
        }
        let mut zones = 0;
        for cell in (0..grid.len()).filter(|&c| grid.on_map[c]) {
            let inf = zone_stops(&grid, &occ, &board, 0, Arm::Infantry, cell);
            assert_eq!(inf, fields.zone[cell] > 0, "infantry at {}", grid.offset(cell));
            assert_eq!(zone_stops(&grid, &occ, &board, 0, Arm::Cavalry, cell), fields.cav_zone[cell]);
            assert_eq!(enemy_in(&occ, &board, 0, cell), fields.enemy[cell]);
            zones += usize::from(inf);
        }
        assert!(zones > 10, "the test board has zones to compare: {zones}");
    }

    #[test]
    fn clear_ground_costs_one_point_a_hex() {
        let board = Board { units: vec![unit(0, Arm::Infantry, (4, 4), Dir::N)] };
        let (grid, r) = search(&["........."; 9], &board, 0, 3.0);
        assert_eq!(r.cost_to(Offset::new(4, 1)), Some(300));
        assert_eq!(r.cost_to(Offset::new(4, 0)), None, "four hexes is beyond 3 MP");
        let path = r.path_to(&grid, Offset::new(4, 1)).expect("path");
        assert_eq!(path, vec![Offset::new(4, 4), Offset::new(4, 3), Offset::new(4, 2), Offset::new(4, 1)]);
    }

    #[test]
    fn woods_cost_three_and_the_minimum_move_always_allows_one_hex() {
        let board = Board { units: vec![unit(0, Arm::Infantry, (1, 1), Dir::N)] };
        let (_, r) = search(&["www", "www", "www"], &board, 0, 2.0);
        assert_eq!(r.cost_to(Offset::new(1, 0)), Some(300), "one woods hex by the minimum move");
        assert!(r.ends.iter().all(|(_, c)| *c == 300), "but no further: {:?}", r.ends);
    }

    #[test]
    fn an_enemy_zone_stops_infantry_but_not_cavalry() {
        // Enemy infantry at (4,1) facing south: its front hexes are SW, S, SE.
        let board = Board {
            units: vec![
                unit(0, Arm::Infantry, (4, 5), Dir::N),
                unit(1, Arm::Infantry, (4, 1), Dir::S),
                unit(0, Arm::Cavalry, (3, 5), Dir::N),
            ],
        };
        let rows = ["........."; 9];
        let (_, inf) = search(&rows, &board, 0, 6.0);
        assert!(inf.cost_to(Offset::new(4, 2)).is_some(), "may enter the zone");
        assert!(inf.cost_to(Offset::new(4, 0)).is_none(), "but not go on through it");
        assert!(inf.cost_to(Offset::new(4, 1)).is_none(), "never into the enemy's hex");
        let (_, cav) = search(&rows, &board, 2, 10.0);
        assert!(cav.cost_to(Offset::new(4, 0)).is_some(), "an infantry zone does not stop cavalry");
    }

    #[test]
    fn disordered_units_keep_out_of_enemy_zones() {
        let mut board =
            Board { units: vec![unit(0, Arm::Infantry, (4, 5), Dir::N), unit(1, Arm::Infantry, (4, 1), Dir::S)] };
        board.units[0].state = State::Disordered;
        let (_, r) = search(&["........."; 9], &board, 0, 6.0);
        assert!(r.cost_to(Offset::new(4, 2)).is_none());
        assert!(r.cost_to(Offset::new(4, 3)).is_some());
    }

    #[test]
    fn a_full_hex_is_passed_through_but_not_stopped_in() {
        let mut board = Board {
            units: vec![
                unit(0, Arm::Infantry, (4, 5), Dir::N),
                unit(0, Arm::Infantry, (4, 4), Dir::N),
                unit(0, Arm::Infantry, (4, 4), Dir::N),
            ],
        };
        board.units[1].strength = 8;
        board.units[2].strength = 6;
        let (_, r) = search(&["........."; 9], &board, 0, 3.0);
        assert!(r.cost_to(Offset::new(4, 4)).is_none(), "8 + 6 + 6 is over 18 increments");
        assert_eq!(r.cost_to(Offset::new(4, 3)), Some(200), "passing through costs nothing extra");
    }
}
