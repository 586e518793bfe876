//! La Bataille rout move (the 10-hex rule, docs/rules.md 1.3).
//!
//! A routing unit moves exactly `rout_hexes` hexes; terrain does not shorten
//! the move. First the hard limits, which a path must keep to be a rout path
//! at all:
//!
//! - never into an enemy-occupied hex or prohibited terrain (a river without
//!   a bridge, a hexside its arm cannot cross), and never a step that brings
//!   it closer to the nearest enemy;
//! - end strictly further from the nearest enemy than it started, and no
//!   closer to any enemy within `rout_enemy_radius` hexes of its start
//!   (house default);
//! - never into hexes behind enemy lines: nearer the enemy's rear edge than
//!   the nearest enemy unit (house default), unless it starts there.
//!
//! Then the preferences among the legal paths, in the order the source
//! gives them:
//!
//! 1. a woods or built-up end hex, when any legal path ends in one (house
//!    default `rout_refuge: Destination`; with `TieBreak` this comes after
//!    2 and 3);
//! 2. the least total terrain cost along the path;
//! 3. the fewest hexes holding friendly units;
//! 4. the fewest hexes in enemy zones of influence (the source subordinates
//!    this one to all the others);
//! 5. our tie-breaks: the end hex nearest its own rear edge, then the end
//!    hex furthest from the enemy, then a fixed order of hexes.
//!
//! If no full move exists but the map edge can be reached with hexes to
//! spare, the unit routs off the map; otherwise it surrenders.
//!
//! Technique: the limits are filters, 2-4 an additive cost, 1 and 5 depend
//! only on the end hex. So a layered dynamic programme over (hexes moved,
//! hex) inside the window around the start finds the cheapest walks to every
//! possible end hex at once, reading the shared per-side [`SideFields`]
//! instead of searching the map per unit.
//!
//! A path may not visit a hex twice, but the programme counts walks, which
//! may (only along hexes at one enemy distance, since a step never brings the
//! router closer). It keeps, per state, the two cheapest walks that arrive
//! from different hexes, so no walk steps straight back where it came from;
//! its costs are lower bounds on every simple path's. When the best end's
//! walk is itself a simple path, it is the exact answer. Otherwise (a walk
//! round a triangle of hexes, say) a branch-and-bound search over simple
//! paths, backwards from the ends in order and cut by those bounds, finds the
//! exact best. A test checks the planner against brute force.
//!
//! The planner's parts: `query` (what a move reads and gives), `keys`
//! (the preferences as packed integers), `planner` (its scratch and
//! window), `bound` (the greedy move and lower bounds), `programme`,
//! `ends` (the answer read off it) and `search` (the exact search).

mod bound;
mod ends;
mod keys;
mod planner;
mod programme;
mod query;
mod search;
mod walks;

pub use planner::RoutPlanner;
pub use query::{RoutPlan, RoutQuery};

use crate::labataille::fields::CellFacts;
use crate::rules::RoutRefuge;
use bound::{Cut, GUESS_SLACK};
use keys::{EndKey, FRIENDS_AT, Rank, TERRAIN_AT, ZONES_AT};

impl RoutPlanner {
    /// Plans one rout move.
    ///
    /// A layered dynamic programme over (hexes moved, window hex) finds the
    /// cheapest walk of every length to every hex; the best end hex by the
    /// priorities is then read off. A walk that stays simple is the answer:
    /// no simple path can beat the walk bound anywhere. Only when the
    /// cheapest walk comes back on itself does an exact search run, using
    /// the walk costs to cut every branch that cannot win.
    pub fn plan(&mut self, q: &RoutQuery) -> RoutPlan {
        let hexes = q.hexes.max(1) as usize;
        self.prepare(hexes as i32);
        self.searched = 0;
        self.expanded = 0;
        let grid = q.grid;
        let start_behind = q.fields.behind[grid.idx(q.start)];
        // The hard limits as one bit test on the hex entered: never an
        // enemy's, and behind enemy lines only for a unit that starts there.
        let forbidden = CellFacts::ENEMY | if start_behind { 0 } else { CellFacts::BEHIND };
        if self.local(q.start, q.start).is_none() {
            return RoutPlan::Surrender;
        }
        let mut near = std::mem::take(&mut self.near);
        q.near_enemies(&mut near);
        let bounds = if !self.exhaustive { grid.step_bounds(q.arm(), hexes + 1) } else { None };
        let order = Rank(q.refuge);
        let refuges = self.refuge_in_reach(q, hexes, forbidden, &near);

        // Where a refuge end ranks first, most moves that can end in one
        // end in one at about the least cost any walk could reach one for
        // (the bounds' own figure; on the benchmark's battle, seven in ten
        // exactly, nine in ten within 3 MP). So first try such guesses as
        // the bound, tightest first: a programme cut to a guess finds the
        // best move whenever the best ranks no worse, and a move it finds
        // that ranks no worse is the best. Only when every guess fails is
        // the programme run once more, bounded by a real move in hand.
        let mut in_hand: Option<(RoutPlan, EndKey)> = None;
        if let Some(bounds) = bounds
            && q.refuge == RoutRefuge::Destination
            && refuges
        {
            let least = bounds.cells[grid.idx(q.start) * bounds.steps + hexes][1];
            for slack in GUESS_SLACK.into_iter().filter(|_| least != u16::MAX) {
                let guess = ((least as u64 + slack) << TERRAIN_AT) | (0xFF << FRIENDS_AT) | (0xFF << ZONES_AT);
                let rank = order.of(guess, true);
                let cut = Cut { grid, bounds, own_rear: q.own_rear, order, refuges, rank, low: u64::MAX };
                self.programme(q, Some(&cut), hexes, forbidden, start_behind);
                match self.full_move(q, hexes, &near) {
                    Some((plan, key)) if (key >> 64) as u64 <= rank => {
                        self.near = near;
                        return plan;
                    }
                    Some(found) if in_hand.as_ref().is_none_or(|(_, key)| found.1 < *key) => in_hand = Some(found),
                    _ => {}
                }
                self.unset_walks();
            }
        }

        // Bounded by a move in hand: the guess's, else a greedy one.
        self.greedy.clear();
        let greedy = bounds.and_then(|bounds| self.bound_move(q, bounds, forbidden, hexes, &near, refuges));
        if greedy.is_some_and(|g| in_hand.as_ref().is_none_or(|(_, key)| g < *key)) {
            in_hand = None;
        }
        let best = in_hand.as_ref().map(|(_, key)| *key).or(greedy);
        let cut = bounds.zip(best).map(|(bounds, best)| Cut {
            grid,
            bounds,
            own_rear: q.own_rear,
            order,
            refuges,
            rank: (best >> 64) as u64,
            low: best as u64,
        });
        self.programme(q, cut.as_ref(), hexes, forbidden, start_behind);

        let plan = self.full_move(q, hexes, &near).map(|(plan, _)| plan);
        // With a move in hand a full move is always found (that one at
        // worst, should the exact search run out of budget).
        let plan = match (plan, in_hand) {
            (Some(plan), _) => Some(plan),
            (None, Some((plan, _))) => Some(plan),
            (None, None) if cut.is_some() => {
                Some(RoutPlan::Full(self.greedy.iter().map(|&c| grid.offset(c)).collect()))
            }
            (None, None) => None,
        };
        let plan = plan.or_else(|| self.off_map(q)).unwrap_or(RoutPlan::Surrender);

        self.near = near;
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::query::Near;
    use super::search::SEARCH_BUDGET;
    use super::*;
    use crate::hex::{Dir, Edge, Offset};
    use crate::labataille::Board;
    use crate::labataille::fields::SideFields;
    use crate::labataille::grid::{Grid, Occupancy};
    use crate::rules::MAX_ROUT_HEXES;
    use crate::rules::Rules;
    use crate::terrain::Arm;
    use crate::vocab::State;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    /// A battle on a generated map: the rout benchmark's ranks of routers
    /// south of an enemy line, plus units of both sides scattered at random
    /// (so that some routers end up cornered, at the edge or behind lines).
    fn battle(w: i32, h: i32, routers: usize, seed: u64) -> (Grid, Board) {
        let map = crate::generate::terrain(w, h, seed);
        let mut board = crate::generate::rout_board(&map, routers);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for i in 0..routers / 4 {
            let side = rng.random_range(0..2);
            let mut u = board.units[board.units.len() - 1].clone();
            u.id = format!("x{i}");
            u.side = side;
            u.arm = Arm::ALL[rng.random_range(0..3)];
            u.at = Some(Offset::new(rng.random_range(0..w), rng.random_range(0..h)));
            u.state = if side == 0 { State::Routed } else { State::GoodOrder };
            u.facing = Dir::ALL[rng.random_range(0..6)];
            board.units.push(u);
        }
        (Grid::new(&map, &Rules::default()), board)
    }

    fn occupancy(grid: &Grid, board: &Board) -> Occupancy {
        let mut occ = Occupancy::new(grid);
        for (i, u) in board.units.iter().enumerate() {
            if let Some(at) = u.at {
                occ.insert(grid.idx(at), i, u.side);
            }
        }
        occ
    }

    fn query<'a>(
        grid: &'a Grid,
        fields: &'a SideFields,
        occupancy: &'a Occupancy,
        board: &'a Board,
        unit: usize,
        hexes: u32,
    ) -> Option<RoutQuery<'a>> {
        let start = board.units[unit].at?;
        (board.units[unit].side == 0 && board.units[unit].state == State::Routed).then_some(RoutQuery {
            grid,
            fields,
            occupancy,
            board,
            unit,
            start,
            hexes,
            enemy_radius: 15,
            own_rear: Edge::South,
            refuge: RoutRefuge::Destination,
        })
    }

    /// The planner keeps scratch state between moves (cost rows unset as
    /// it goes, stamps, per-window tables); a planner reused across moves
    /// of varying length on maps of varying width must plan exactly as a
    /// fresh one does.
    #[test]
    fn a_reused_planner_plans_exactly_as_a_fresh_one() {
        let mut reused = RoutPlanner::new();
        let mut plans = 0;
        for (w, h, seed) in [(60, 50, 1), (41, 60, 2), (60, 50, 3)] {
            let (grid, board) = battle(w, h, 150, seed);
            let fields = SideFields::build(&grid, &board, 0, Edge::North);
            let occ = occupancy(&grid, &board);
            for unit in 0..board.units.len() {
                let hexes = [10, 10, 4, 10, 1, 7][unit % 6];
                let Some(q) = query(&grid, &fields, &occ, &board, unit, hexes) else { continue };
                assert_eq!(reused.plan(&q), RoutPlanner::new().plan(&q), "unit {unit} on map {seed}");
                plans += 1;
            }
        }
        assert!(plans > 400);
    }

    /// The cut (greedy move plus lower bounds) must never change a plan:
    /// against the whole programme, move for move, on crowded battles with
    /// every arm, at the edges and behind lines; and it must cut a good
    /// deal of the programme, or it is not doing its work.
    #[test]
    fn the_cut_plans_exactly_as_the_whole_programme() {
        let mut cut = RoutPlanner::new();
        let mut whole = RoutPlanner { exhaustive: true, ..RoutPlanner::new() };
        let (mut plans, mut with_cut, mut without) = (0, 0, 0);
        for (w, h, seed) in [(60, 50, 11), (41, 60, 12), (60, 50, 13), (30, 40, 14)] {
            let (grid, board) = battle(w, h, 150, seed);
            let fields = SideFields::build(&grid, &board, 0, Edge::North);
            let occ = occupancy(&grid, &board);
            for unit in 0..board.units.len() {
                let hexes = [10, 10, 6, 10, 3][unit % 5];
                let Some(q) = query(&grid, &fields, &occ, &board, unit, hexes) else { continue };
                for refuge in [RoutRefuge::Destination, RoutRefuge::TieBreak] {
                    let q = RoutQuery { refuge, ..q };
                    assert_eq!(cut.plan(&q), whole.plan(&q), "unit {unit} on map {seed}, {refuge:?}");
                    (with_cut, without) = (with_cut + cut.expanded, without + whole.expanded);
                    plans += 1;
                }
            }
        }
        assert!(plans > 800, "{plans}");
        // On these scattered, crowded battles it skips about a third.
        assert!(with_cut * 4 < without * 3, "the cut took {with_cut} hexes further, the whole programme {without}");
    }

    /// The reference: every simple path of the move's length, by brute
    /// force, keyed as the planner keys them. Returns the best full move's
    /// key, else the best exit's, as `(full?, key)`; `None` to surrender.
    fn reference(q: &RoutQuery) -> Option<(bool, u128)> {
        fn go(q: &RoutQuery, path: &mut Vec<Offset>, cost: u64, near: &[Near], best: &mut [Option<u128>; 2]) {
            let here = *path.last().expect("the start");
            let k = path.len() - 1;
            let start_behind = q.fields.behind[q.grid.idx(q.start)];
            if k == q.hexes as usize {
                if q.ends_further(here, near) {
                    let key = q.end_key(cost, here);
                    best[0] = Some(best[0].map_or(key, |b| b.min(key)));
                }
                return;
            }
            let iu = q.grid.idx(here);
            for dir in Dir::ALL {
                let next = here.neighbour(dir);
                let iv = q.grid.idx(next);
                if !q.grid.on_map[iv] {
                    if let Some(edge) = q.exit_step(iu, iv, here, dir, start_behind) {
                        let key = q.exit_key(cost, edge);
                        best[1] = Some(best[1].map_or(key, |b| b.min(key)));
                    }
                    continue;
                }
                if path.contains(&next) {
                    continue;
                }
                let Some(step) = q.legal_step(iu, iv, dir, start_behind) else { continue };
                path.push(next);
                go(q, path, cost + q.step_key(iv, step), near, best);
                path.pop();
            }
        }
        let mut near = Vec::new();
        q.near_enemies(&mut near);
        let mut best = [None, None];
        go(q, &mut vec![q.start], 0, &near, &mut best);
        best[0].map(|k| (true, k)).or(best[1].map(|k| (false, k)))
    }

    /// A plan's key, recomputed from its path: every step legal, no hex
    /// twice, the right length.
    fn plan_key(q: &RoutQuery, plan: &RoutPlan) -> Option<(bool, u128)> {
        let (path, edge) = match plan {
            RoutPlan::Full(p) => (p, None),
            RoutPlan::OffMap(p, e) => (p, Some(*e)),
            RoutPlan::Surrender => return None,
        };
        assert_eq!(path[0], q.start);
        let start_behind = q.fields.behind[q.grid.idx(q.start)];
        let mut cost = 0;
        for (i, w) in path.windows(2).enumerate() {
            assert!(!path[..=i].contains(&w[1]), "{} visited twice", w[1]);
            let dir = Dir::ALL.into_iter().find(|&d| w[0].neighbour(d) == w[1]).expect("adjacent hexes");
            let (iu, iv) = (q.grid.idx(w[0]), q.grid.idx(w[1]));
            let step = q.legal_step(iu, iv, dir, start_behind).expect("a legal step");
            cost += q.step_key(iv, step);
        }
        let end = *path.last().expect("a hex");
        Some(match edge {
            None => {
                assert_eq!(path.len(), q.hexes as usize + 1);
                (true, q.end_key(cost, end))
            }
            Some(edge) => (false, q.exit_key(cost, edge)),
        })
    }

    /// The planner is exact: on crowded generated battles (routers among
    /// friends, enemies scattered about them, map edges near), every move
    /// it plans is as good by the priorities as the best of all simple
    /// paths found by brute force, and it surrenders only when brute force
    /// finds neither a full move nor an exit. Moves are kept short enough
    /// for brute force.
    #[test]
    fn planned_moves_are_the_best_simple_paths() {
        let mut planner = RoutPlanner::new();
        let (mut plans, mut searched) = (0, 0);
        for (w, h, seed) in [(30, 40, 7), (24, 36, 8), (30, 40, 9), (20, 30, 10)] {
            let (grid, board) = battle(w, h, 120, seed);
            let fields = SideFields::build(&grid, &board, 0, Edge::North);
            let occ = occupancy(&grid, &board);
            for unit in 0..board.units.len() {
                let hexes = [6, 7, 5][unit % 3];
                let Some(q) = query(&grid, &fields, &occ, &board, unit, hexes) else { continue };
                for refuge in [RoutRefuge::Destination, RoutRefuge::TieBreak] {
                    let q = RoutQuery { refuge, ..q };
                    let plan = planner.plan(&q);
                    searched += (planner.searched > 0) as usize;
                    assert_eq!(plan_key(&q, &plan), reference(&q), "unit {unit} on map {seed}, {refuge:?}: {plan:?}");
                    plans += 1;
                }
            }
        }
        assert!(plans > 600, "{plans}");
        // The exact search ran on some of them (else this checks little).
        assert!(searched > 0);
    }

    /// Full-length moves on crowded battles never come near the exact
    /// search's budget, so its guard never decides a move.
    #[test]
    fn the_exact_search_stays_far_below_its_budget() {
        let mut planner = RoutPlanner::new();
        let (mut most, mut searched) = (0, 0);
        for seed in 20..26 {
            let (grid, board) = battle(60, 50, 300, seed);
            let fields = SideFields::build(&grid, &board, 0, Edge::North);
            let occ = occupancy(&grid, &board);
            for unit in 0..board.units.len() {
                let Some(q) = query(&grid, &fields, &occ, &board, unit, 10) else { continue };
                planner.plan(&q);
                most = most.max(planner.searched);
                searched += (planner.searched > 0) as usize;
            }
        }
        assert!(searched > 0, "no move needed the exact search");
        assert!(most * 20 < SEARCH_BUDGET, "{most} states in one move");
    }

    /// End keys are packed into one integer; its order must be the
    /// lexicographic order of the preferences: (not a refuge, terrain,
    /// friends, zones) under `Destination`, (terrain, friends, not a refuge,
    /// zones) under `TieBreak`, then half hexes from the own rear edge and
    /// closeness to the enemy, negative edge distances included (the border
    /// ring).
    #[test]
    fn packed_end_keys_order_as_their_parts() {
        let map = crate::generate::terrain(30, 20, 5);
        let grid = Grid::new(&map, &Rules::default());
        let board = crate::generate::rout_board(&map, 20);
        let fields = SideFields::build(&grid, &board, 0, Edge::North);
        let occ = occupancy(&grid, &board);
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for refuge_rule in [RoutRefuge::Destination, RoutRefuge::TieBreak] {
            let mut keyed = Vec::new();
            for _ in 0..2000 {
                let own_rear = [Edge::North, Edge::South, Edge::East, Edge::West][rng.random_range(0..4)];
                let Some(q) = query(&grid, &fields, &occ, &board, board.units.len() - 1, 10) else {
                    panic!("a router")
                };
                let q = RoutQuery { own_rear, refuge: refuge_rule, ..q };
                let end = Offset::new(rng.random_range(-1..=30), rng.random_range(-1..=20));
                let (terrain, friends, zones) = (
                    [0u64, 1, 99, 1 << 20, u32::MAX as u64][rng.random_range(0..5)],
                    rng.random_range(0..=MAX_ROUT_HEXES as u64),
                    rng.random_range(0..=MAX_ROUT_HEXES as u64),
                );
                let cost = (terrain << TERRAIN_AT) | (friends << FRIENDS_AT) | (zones << ZONES_AT);
                let i = grid.idx(end);
                let open = !grid.refuge[i];
                let (half, far) = (grid.edge_half_distance(own_rear, end), u16::MAX - fields.dist[i]);
                let parts = match refuge_rule {
                    RoutRefuge::Destination => (open, terrain, friends, false, zones, half, far),
                    RoutRefuge::TieBreak => (false, terrain, friends, open, zones, half, far),
                };
                keyed.push((parts, q.end_key(cost, end)));
            }
            for a in &keyed {
                for b in keyed.iter().step_by(7) {
                    assert_eq!(a.0.cmp(&b.0), a.1.cmp(&b.1), "{:?} vs {:?}", a.0, b.0);
                }
            }
        }
    }
}
