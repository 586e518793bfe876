//! The flight preview (docs/rules.md 2.2, 2.3): where a unit on the table
//! would flee if it fled now, the path it would take, where it would stop
//! and why, and each friend its flight would meet with that friend's exact
//! chance to be carried along. Nothing is rolled and the table is left as
//! it was: the engine's own flight ([`FsEngine::flee_now`]) runs on copies
//! of the table with scripted dice, one copy for each way the carry-along
//! tests can fall, so the preview is the flight.

use crate::belle_alliance::broad::BroadPhaseKind;
use crate::belle_alliance::combat::{THREE_D6, gap};
use crate::belle_alliance::engine::FsEngine;
use crate::belle_alliance::geometry::OrientedRect;
use crate::belle_alliance::tables::{CarryResult, carry_along, pushed_back, severity};
use crate::belle_alliance::{FsCtx, FsUnit, Table};
use crate::dice::Dice;
use crate::events::{Cause, EventKind, EventLog, MoveReason, Pos};
use crate::hex::Edge;
use crate::labataille::rout_preview::Chance;
use crate::terrain::Terrain;
use crate::vocab::State;

/// The best and the worst 3d6 totals: scripted into the copies' dice, they
/// give each carry-along test the outcome a branch of the preview follows.
const HOLDS_ROLL: u32 = 18;
const CARRIED_ROLL: u32 = 3;
/// How far past the end of a flight the preview looks for what stopped it,
/// cm: a step of the engine's walk and a half, so that a flight square
/// shifted back a step (2.2.6) still finds what it was shifted off.
const PROBE_CM: f32 = 1.5;
/// The most flights [`fled_all_told`] plays out for one preview, the
/// likeliest ways first: past them every later test is counted as rolled
/// 18 (standing, for any modifier above -8).
const ALL_TOLD_RUNS: usize = 16;
/// A way the tests can fall less likely than this is followed no further
/// by [`fled_all_told`]: every later test in it is counted as rolled 18.
const ALL_TOLD_LEAST: f64 = 1e-3;

/// What the flight is from (2.2.2): the line from the cause's centre to the
/// unit's sets the middle of its cone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whence {
    /// An enemy: the one asked about, or (`nearest`) the nearest enemy not
    /// fleeing, taken as the cause when none was given.
    Enemy { unit: usize, nearest: bool },
    /// No enemy to flee from: a free direction (2.2.4), about the line to
    /// its own rear edge.
    Free,
}

impl Whence {
    /// The point the flight is from: the enemy's centre, or none for a
    /// free direction.
    fn point(self, table: &Table) -> Option<(f32, f32)> {
        match self {
            Whence::Enemy { unit, .. } => table.units.get(unit).map(|e| (e.x, e.y)),
            Whence::Free => None,
        }
    }
}

/// What a flight stopped against short of its march (2.2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Obstacle {
    /// The table's edge.
    Edge(Edge),
    /// Ground its arm may not enter.
    Ground(Terrain),
    /// An enemy that has not been pushed back.
    Enemy(usize),
}

/// One friend the flight would meet and test (2.3).
#[derive(Clone, Debug, PartialEq)]
pub struct CarryRisk {
    /// The friend's index on the table.
    pub unit: usize,
    /// Its centre as it stands.
    pub at: (f32, f32),
    /// What its test adds to the 3d6: its valour and the size modifier
    /// against the fleeing mass, as the engine's test works them out.
    pub modifier: i32,
    /// Its chance to be carried along when it is tested (of 216).
    pub fails: Chance,
    /// Its chance to be shaken into U instead (house default band), 0 for
    /// a friend in U already.
    pub shaken: Chance,
    /// Its chance to be carried along all told: a friend after the first
    /// is met only if every friend before it in the list was carried along
    /// (a flight tests no further once one friend stands, 2.3).
    pub overall: f64,
    /// The fleeing unit's path if this friend is carried along (and the
    /// next friend met stands): it stops in contact and follows the friend
    /// in its new flight. Empty when the friend cannot be carried along.
    pub path_if_carried: Vec<(f32, f32)>,
}

/// What a flight of one unit now would do.
#[derive(Clone, Debug, PartialEq)]
pub struct FlightPreview {
    /// The unit previewed.
    pub unit: usize,
    /// What it flees from.
    pub whence: Whence,
    /// Its flight march (2.2.1, 2.6), cm.
    pub march_cm: f32,
    /// Fleeing already: it stands in its flight formation until it
    /// reorganises (2.2.1, 2.4), since a unit in FU is never put into FU
    /// again; the path is then its place alone.
    pub fleeing: bool,
    /// Its centre's waypoints, start first, if every friend it meets
    /// stands: the slide, then where its flight square settles (2.2.5).
    pub path: Vec<(f32, f32)>,
    /// Its flight square at the end.
    pub square: OrientedRect,
    /// What stopped it short of its march, if anything did.
    pub stopped: Option<Obstacle>,
    /// The friends it would test, in the order it would meet them.
    pub carried: Vec<CarryRisk>,
    /// The friends expected to be left fleeing by its flight, all told:
    /// each carry-along test may carry its friend along, shake it into U
    /// or leave it standing, and a friend shaken into U whose retreat is
    /// then blocked flees in turn, with every friend its own flight
    /// carries along (2.3). `carried` follows the first way alone; this
    /// counts them all, the likeliest first (ways less likely than a
    /// thousandth, and any past 16 flights, counted as the tests rolled
    /// 18).
    pub fled_all_told: f64,
}

impl FlightPreview {
    pub fn start(&self) -> (f32, f32) {
        self.path.first().copied().unwrap_or((self.square.x, self.square.y))
    }

    pub fn end(&self) -> (f32, f32) {
        self.path.last().copied().unwrap_or((self.square.x, self.square.y))
    }

    /// How far its centre ends from where it stood, cm.
    pub fn fled_cm(&self) -> f32 {
        let (a, b) = (self.start(), self.end());
        (b.0 - a.0).hypot(b.1 - a.1)
    }
}

/// The chances of a carry-along test of 3d6 + `modifier` (2.3), counted
/// over the 216 rolls with the engine's own reading of a total: carried
/// along, and shaken into U (only a friend better than U drops into it).
pub fn carry_chances(modifier: i32, state: State, ctx: &FsCtx) -> (Chance, Chance) {
    let (mut fails, mut shaken) = (0, 0);
    for roll in 3..=18i32 {
        let ways = THREE_D6[(roll - 3) as usize];
        match carry_along(roll + modifier, ctx.ba()) {
            CarryResult::Carried => fails += ways,
            CarryResult::Shaken if severity(state) < severity(State::U) => shaken += ways,
            CarryResult::Shaken | CarryResult::Holds => {}
        }
    }
    (Chance { ways: fails, outcomes: 216 }, Chance { ways: shaken, outcomes: 216 })
}

/// The nearest enemy of `unit` that is not fleeing: the gap between the
/// footprints, then the centres, then the table order decide.
pub fn nearest_enemy(ctx: &FsCtx, table: &Table, unit: usize) -> Option<usize> {
    let me = table.units.get(unit)?;
    let mine = me.rect(ctx.ba());
    let centre = |u: &FsUnit| (u.x - me.x).hypot(u.y - me.y);
    (0..table.units.len())
        .filter(|&j| table.units[j].side != me.side && table.units[j].state != State::FU)
        .map(|j| (j, gap(&mine, &table.units[j].rect(ctx.ba())), centre(&table.units[j])))
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.2.total_cmp(&b.2)))
        .map(|(j, _, _)| j)
}

/// Where `unit` would flee if it fled now from `cause` (an enemy's index;
/// `None`: the nearest enemy not fleeing, or a free direction if there is
/// none), on the table as it stands (docs/rules.md 2.2, 2.3): the path if
/// every friend it meets stands, what stopped it, and the friends it would
/// test with their chances. The engine's own flight runs on copies of the
/// table: first with every test rolled 18, then with the first test rolled
/// 3 (carried along if anything carries it), then the first two, and so on
/// while a further friend is met; the chances are counted from the tests'
/// modifiers as the engine logs them. `None` when the unit is not on the
/// table.
pub fn flight_preview(ctx: &FsCtx, table: &Table, unit: usize, cause: Option<usize>) -> Option<FlightPreview> {
    let me = table.units.get(unit)?;
    let whence = match cause.filter(|&c| table.units.get(c).is_some_and(|u| u.side != me.side)) {
        Some(c) => Whence::Enemy { unit: c, nearest: false },
        None => nearest_enemy(ctx, table, unit).map_or(Whence::Free, |c| Whence::Enemy { unit: c, nearest: true }),
    };
    flight_preview_from(ctx, table, unit, whence)
}

/// [`flight_preview`] from a given `whence`: a flight in a free direction
/// (2.2.4) too, as a unit whose U retreat was blocked makes.
pub fn flight_preview_from(ctx: &FsCtx, table: &Table, unit: usize, whence: Whence) -> Option<FlightPreview> {
    let me = table.units.get(unit)?;
    let march_cm = me.flight_march_cm(ctx.ba());
    if me.state == State::FU {
        let square = me.rect(ctx.ba());
        return Some(FlightPreview {
            unit,
            whence,
            march_cm,
            fleeing: true,
            path: vec![(me.x, me.y)],
            square,
            stopped: None,
            carried: Vec::new(),
            fled_all_told: 0.0,
        });
    }
    let from = whence.point(table);
    let main = run(ctx, table, unit, from, &[], false);
    let stopped = obstacle(ctx, table, &main, unit, march_cm);
    let mut carried: Vec<CarryRisk> = Vec::new();
    let mut last = main.tests.clone();
    let mut before = 1.0f64;
    // Each pass meets one friend more: the friend the flight meets once
    // every friend before it was carried along.
    while let Some(&(f, modifier)) = last.get(carried.len()) {
        let friend = &table.units[f];
        let (fails, shaken) = carry_chances(modifier, friend.state, ctx);
        let overall = before * fails.fraction();
        carried.push(CarryRisk {
            unit: f,
            at: (friend.x, friend.y),
            modifier,
            fails,
            shaken,
            overall,
            path_if_carried: Vec::new(),
        });
        if fails.ways == 0 {
            break;
        }
        before = overall;
        let next = run(ctx, table, unit, from, &vec![CARRIED_ROLL; carried.len()], false);
        if let Some(r) = carried.last_mut() {
            r.path_if_carried = next.path;
        }
        last = next.tests;
    }
    let square = main.table.units[unit].rect(ctx.ba());
    let fled_all_told = if carried.is_empty() { 0.0 } else { fled_all_told(ctx, table, unit, from, f64::INFINITY) };
    Some(FlightPreview {
        unit,
        whence,
        march_cm,
        fleeing: false,
        path: main.path,
        square,
        stopped,
        carried,
        fled_all_told,
    })
}

/// The friends of `unit` expected to be left fleeing once its flight from
/// `whence`, and every forced move it leads to, is over
/// ([`FlightPreview::fled_all_told`], without the rest of the preview: the
/// AI weighs a melee by it). The count stops once past `enough`, with
/// what it has counted so far. 0 for a unit fleeing already, or not on
/// the table.
pub fn fled_all_told_from(ctx: &FsCtx, table: &Table, unit: usize, whence: Whence, enough: f64) -> f64 {
    match table.units.get(unit) {
        Some(me) if me.state != State::FU => fled_all_told(ctx, table, unit, whence.point(table), enough),
        _ => 0.0,
    }
}

/// A way the carry-along tests can fall, still to be played out: the
/// totals scripted, its chance, and the order it was found in (ways of
/// equal chance are played in that order).
struct Way {
    script: Vec<u32>,
    chance: f64,
    found: usize,
}

impl PartialEq for Way {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}

impl Eq for Way {}

impl PartialOrd for Way {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Way {
    /// The likelier way first; of two as likely, the one found first.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.chance.total_cmp(&other.chance).then(other.found.cmp(&self.found))
    }
}

/// [`fled_all_told_from`] from a point (`None`: a free direction). Each
/// carry-along test has three ways to fall, its 3d6 totals grouped by
/// what the engine does with them (2.3: carried along, shaken into U,
/// standing), and each way is played out on a copy of the table with a
/// total of that group scripted, the likeliest first; a test's modifier
/// depends only on the tests before it, so the tree of ways is the
/// engine's own. A copy rolls 18 for every test past its script, so the
/// way whose group holds 18 is read on from the same copy, and only the
/// others are played anew. The queued retreats are made, as at the end of
/// the phase, so that a friend shaken into U with no room to retreat
/// flees.
fn fled_all_told(ctx: &FsCtx, table: &Table, unit: usize, from: Option<(f32, f32)>, enough: f64) -> f64 {
    let side = table.units[unit].side;
    let fled = |after: &Table| {
        (0..table.units.len())
            .filter(|&f| {
                f != unit
                    && table.units[f].side == side
                    && table.units[f].state != State::FU
                    && after.units[f].state == State::FU
            })
            .count() as f64
    };
    let mut total = 0.0;
    let mut runs = 0;
    let mut found = 0;
    let mut ways = std::collections::BinaryHeap::from([Way { script: Vec::new(), chance: 1.0, found }]);
    while let Some(Way { script, mut chance, .. }) = ways.pop() {
        let r = run(ctx, table, unit, from, &script, true);
        runs += 1;
        // Test `k` of this copy was rolled 18 once past the script.
        let mut k = script.len();
        while let Some(&(_, modifier)) = r.tests.get(k) {
            if chance < ALL_TOLD_LEAST {
                break;
            }
            let mut as_rolled = 0.0;
            for result in [CarryResult::Holds, CarryResult::Shaken, CarryResult::Carried] {
                let rolls: Vec<u32> =
                    (3..=18u32).filter(|&roll| carry_along(roll as i32 + modifier, ctx.ba()) == result).collect();
                let share = f64::from(rolls.iter().map(|&roll| THREE_D6[(roll - 3) as usize]).sum::<u32>()) / 216.0;
                // Each way kept gets a flight of its own; with no room
                // left for one, it is counted as rolled 18.
                let room = runs + ways.len() < ALL_TOLD_RUNS;
                if rolls.contains(&HOLDS_ROLL) || !room {
                    as_rolled += share;
                } else if let Some(&roll) = rolls.first() {
                    let mut longer = script.clone();
                    longer.resize(k, HOLDS_ROLL);
                    longer.push(roll);
                    found += 1;
                    ways.push(Way { script: longer, chance: chance * share, found });
                }
            }
            chance *= as_rolled;
            k += 1;
        }
        total += chance * fled(&r.table);
        if total > enough {
            break;
        }
    }
    total
}

/// One flight on a copy of the table: the fleeing unit's path, the friends
/// tested in order with their tests' modifiers, and the table after.
struct Run {
    path: Vec<(f32, f32)>,
    tests: Vec<(usize, i32)>,
    table: Table,
}

/// The flight of `unit` from `from` on a copy of `table`, its carry-along
/// tests rolled as `script` says and any after it 18; with `resolve`, the
/// forced moves it queued (the retreats of friends it shook into U) made
/// after it, as at the end of a phase.
fn run(ctx: &FsCtx, table: &Table, unit: usize, from: Option<(f32, f32)>, script: &[u32], resolve: bool) -> Run {
    let mut copy = table.clone();
    let mut engine = FsEngine::new(ctx, &copy, BroadPhaseKind::Grid);
    // Each flight tests a friend once at most and each unit flees once,
    // so a few tests a unit is more than any chain of flights has made;
    // past them the copy's dice would draw on seed 0, the same each time.
    let mut rolls = script.to_vec();
    rolls.resize(script.len() + 2 * (table.units.len() + 1), HOLDS_ROLL);
    let mut dice = Dice::new(0, rolls);
    let mut log = EventLog::default();
    // The turn only dates the states the copy's units fall into.
    engine.flee_now(ctx, &mut copy, &mut dice, &mut log, 0, unit, from);
    if resolve {
        engine.resolve(ctx, &mut copy, &mut dice, &mut log, 0);
    }
    let id = &table.units[unit].id;
    let mut path = Vec::new();
    let mut tests = Vec::new();
    for e in &log.events {
        match &e.kind {
            EventKind::Move { unit: u, reason: MoveReason::Flight, path: p, .. } if u == id && path.is_empty() => {
                path = p.iter().filter_map(|&q| if let Pos::Cm([x, y]) = q { Some((x, y)) } else { None }).collect();
            }
            EventKind::MoraleCheck { unit: u, cause: Cause::CarryAlong, modifier, .. } => {
                if let Some(f) = table.index_of(u) {
                    tests.push((f, *modifier));
                }
            }
            _ => {}
        }
    }
    if path.is_empty() {
        path.push((table.units[unit].x, table.units[unit].y));
    }
    Run { path, tests, table: copy }
}

/// Where the slide of a path ended and the way it went: a last waypoint
/// that steps back against the one before is the flight square shifted
/// back to fit (2.2.6), so the slide ended a waypoint earlier.
fn slide_end(path: &[(f32, f32)]) -> Option<((f32, f32), (f32, f32))> {
    let seg = |a: (f32, f32), b: (f32, f32)| {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let n = dx.hypot(dy);
        (n > 1e-3).then(|| (dx / n, dy / n))
    };
    match path {
        [.., a, b, c] => match (seg(*a, *b), seg(*b, *c)) {
            (Some(d1), Some(d2)) if d1.0 * d2.0 + d1.1 * d2.1 < 0.0 => Some((*b, d1)),
            (_, Some(d2)) => Some((*c, d2)),
            (Some(d1), None) => Some((*b, d1)),
            (None, None) => None,
        },
        [a, b] => seg(*a, *b).map(|d| (*b, d)),
        _ => None,
    }
}

/// What stopped the flight of `main` short of its `march`, looked for a
/// little past where its slide ended, with the unit as it slid and as its
/// square stands: the table's edge, ground its arm may not enter, an enemy
/// not pushed back (2.2.6). `None` after a whole march, or when nothing
/// lies there: the march, reduced by the ground it crossed, was spent.
fn obstacle(ctx: &FsCtx, table: &Table, main: &Run, unit: usize, march: f32) -> Option<Obstacle> {
    let (end, d) = slide_end(&main.path)?;
    let start = *main.path.first()?;
    if (end.0 - start.0).hypot(end.1 - start.1) >= march - 1e-2 {
        return None;
    }
    let after = &main.table.units[unit];
    let at = (end.0 + d.0 * PROBE_CM, end.1 + d.1 * PROBE_CM);
    let slid = FsUnit { x: at.0, y: at.1, formation: table.units[unit].formation, ..after.clone() };
    let square = FsUnit { x: at.0, y: at.1, ..after.clone() };
    let (w, h) = ctx.table_cm();
    let arm = after.moving_arm();
    let mut pts = Vec::new();
    for r in [slid.rect(ctx.ba()), square.rect(ctx.ba())] {
        let b = r.aabb();
        let over = [(Edge::North, -b.1), (Edge::South, b.3 - h), (Edge::West, -b.0), (Edge::East, b.2 - w)];
        if let Some((edge, _)) = over.iter().filter(|o| o.1 > 0.0).max_by(|a, b| a.1.total_cmp(&b.1)) {
            return Some(Obstacle::Edge(*edge));
        }
        r.sample_points(ctx.cell_cm / 2.0, &mut pts);
        if let Some(t) = pts.iter().filter_map(|&(x, y)| ctx.terrain_at(x, y)).find(|&t| !ctx.passable(t, arm)) {
            return Some(Obstacle::Ground(t));
        }
        let enemy = (0..table.units.len()).find(|&j| {
            let e = &main.table.units[j];
            e.side != after.side && !pushed_back(e.state) && r.intersects(&e.rect(ctx.ba()))
        });
        if let Some(j) = enemy {
            return Some(Obstacle::Enemy(j));
        }
    }
    None
}

#[cfg(test)]
mod tests;
