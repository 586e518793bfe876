//! The free-space AI (docs/rules.md 2.12). Once per order phase it gives
//! its side's orders one at a time through the same checks and dice as a
//! player's ([`Bound::apply`]), so later orders see what earlier ones did.
//! Units are taken in scenario order and it has no randomness of its own.
//!
//! - charges: horse rides at the target where its melee edge is best,
//!   if that clears a threshold that falls with aggression; disordered
//!   targets count better (at `Normal`: the charge's whole odds, the
//!   target's square test counted, in place of the edge);
//! - movement: squares against nearby horse; columns far from the enemy,
//!   lines near it (at `Normal`, a cautious side deploys farther out);
//!   guns unlimber in range; a reserve held back; each unit marches on
//!   its goal (an objective it does not hold, or the nearest
//!   enemy, to its arm's stand-off), preferring cover near the enemy (at
//!   `Normal`, by the way round what it may not cross: [`route`]; a bold
//!   side's foot near an objective storms the enemy standing in it, and a
//!   cautious side that cannot win by waiting crosses a brook for an
//!   objective, and once the enemy has had a bound, attacks as a bold
//!   one);
//! - fire: concentrated, the best volley first, each target taking only the
//!   firers it needs to reach the table's top modifier (at `Normal`, the
//!   enemy's guns first);
//! - melee: units in contact attack disordered enemies, and others when the
//!   odds are good enough (at `Normal`, a disordered enemy only on odds
//!   that favour them, and none whose loss would be expected to put friends
//!   to flight, more against a garrison: [`melee`]).

mod making_way;
mod marching;
mod melee;

use making_way::{in_the_way, make_way, marched_since};
use marching::{Turning, advance, back_off, give, straight_on};
use melee::melee;

use crate::belle_alliance::combat::{self, at_least, gap, in_cover};
use crate::belle_alliance::geometry::{OrientedRect, bearing_vector};
use crate::belle_alliance::march::{self, allowance};
use crate::belle_alliance::play::{At, Bound, charge_fight, charge_odds};
use crate::belle_alliance::route;
use crate::belle_alliance::victory;
use crate::belle_alliance::{FsCtx, FsUnit, Table};
use crate::labataille::ai::Script;
use crate::labataille::orders::Order;
use crate::terrain::{Arm, Terrain};
use crate::turn::Phase;
use crate::vocab::{AiLevel, Formation, State};

/// What the AI plays for.
#[derive(Clone, Debug, PartialEq)]
pub struct FsGoals {
    /// The side's temper, 0 cautious ..= 1 reckless.
    pub aggression: f32,
    /// Objective centres (cm), their points and who holds them.
    pub objectives: Vec<((f32, f32), u32, Option<usize>)>,
    /// The side's army has broken: it withdraws.
    pub broken: bool,
    /// How well it plays ([`AiLevel`]).
    pub level: AiLevel,
    /// The planning AI's script for each unit (by unit index; a unit past
    /// the end advances): see [`FsGoals::script`].
    pub scripts: Vec<Script>,
}

impl FsGoals {
    /// What side `side`'s AI plays for at `level`: its temper, each
    /// objective's centre, points and holder (`holders`), and whether its
    /// army has broken (`broken`, by side).
    pub fn for_side(ctx: &FsCtx, holders: &[Option<usize>], broken: &[bool], side: usize, level: AiLevel) -> Self {
        FsGoals {
            aggression: ctx.sides.get(side).map_or(crate::scenario::DEFAULT_AGGRESSION, |s| s.aggression),
            objectives: victory::objective_centres(ctx)
                .into_iter()
                .zip(ctx.objectives)
                .zip(holders)
                .map(|((c, o), h)| (c, o.points, *h))
                .collect(),
            broken: broken.get(side) == Some(&true),
            level,
            scripts: Vec::new(),
        }
    }

    /// Unit `u`'s script: the planning AI's, `Hold` for every unit at
    /// [`AiLevel::Hold`], else `Advance` (docs/rules.md 2.12).
    pub fn script(&self, u: usize) -> Script {
        if self.level == AiLevel::Hold {
            return Script::Hold;
        }
        self.scripts.get(u).copied().unwrap_or_default()
    }
}

fn able(u: &FsUnit) -> bool {
    matches!(u.state, State::Order | State::LU)
}

/// A threat: an enemy that is not fleeing.
fn threat(u: &FsUnit, side: usize) -> bool {
    u.side != side && u.state != State::FU
}

/// Half the diagonal of unit `u`'s footprint as filed: no point of it is
/// farther from its centre.
fn half_diagonal(b: &Bound, u: usize) -> f32 {
    let r = b.engine.rect(u);
    r.width.hypot(r.depth) / 2.0
}

fn dist(a: &FsUnit, b: &FsUnit) -> f32 {
    (a.x - b.x).hypot(a.y - b.y)
}

/// The nearest enemy not fleeing, by centres.
fn nearest_enemy(table: &Table, u: usize, enemies: &[usize]) -> Option<(usize, f32)> {
    let me = &table.units[u];
    enemies.iter().map(|&j| (j, dist(me, &table.units[j]))).min_by(|a, b| a.1.total_cmp(&b.1))
}

/// The AI's orders for one phase of `at.side`, carried out on the table.
/// Returns the orders given (for the order book).
pub fn play_phase(b: &mut Bound, at: At, goals: &FsGoals) -> Vec<Order> {
    let mut out = Vec::new();
    // `Hold` stands (its units' script) and fires; it neither charges nor
    // attacks.
    let holds = goals.level == AiLevel::Hold;
    match at.phase {
        Phase::Charge if !goals.broken && !holds => charges(b, at, goals, &mut out),
        Phase::Movement => movement(b, at, goals, &mut out),
        Phase::DefensiveFire | Phase::OffensiveFire => fire(b, at, goals.level, &mut out),
        Phase::Melee if !goals.broken && !holds => melee(b, at, goals, &mut out),
        _ => {}
    }
    out
}

/// Whether `side` leads on the score as the battle stands (2.11): more
/// points than every other side.
fn leads_on_points(b: &Bound, goals: &FsGoals, side: usize) -> bool {
    let holders: Vec<Option<usize>> = goals.objectives.iter().map(|o| o.2).collect();
    let broken = vec![false; b.ctx.sides.len()];
    let points = victory::score(b.ctx, b.table, &holders, &b.play.captured, &broken).points;
    let mine = points.get(side).copied().unwrap_or(0);
    points.iter().enumerate().all(|(s, &p)| s == side || mine > p)
}

/// Whether the enemy of `side` has come on: one of its units that has
/// marched or charged by order stands more than `coming_cm` from where the
/// scenario set it out (always, at 0). A unit that only fled or was pushed
/// back has not come on: an enemy that stands and is shot at has not.
fn enemy_coming(b: &Bound, side: usize) -> bool {
    let far = b.ctx.ba().ai.coming_cm;
    far <= 0.0
        || b.table.units.iter().zip(b.ctx.units).zip(&b.play.ordered).any(|((u, spec), &ordered)| {
            u.side != side
                && ordered
                && match spec.place {
                    crate::scenario::Place::Table { x, y } => (u.x - x).hypot(u.y - y) > far,
                    crate::scenario::Place::Hex(_) => false,
                }
        })
}

/// Whether unit `u` stands in an objective its side holds (its centre
/// within the area, 2.11).
fn garrisons(b: &Bound, u: usize, goals: &FsGoals) -> bool {
    let unit = &b.table.units[u];
    goals.objectives.iter().any(|o| o.2 == Some(unit.side) && victory::in_area(b.ctx, (unit.x, unit.y), o.0))
}

/// Where unit `u` stands.
fn at_of(b: &Bound, u: usize) -> (f32, f32) {
    (b.table.units[u].x, b.table.units[u].y)
}

/// Half the width of unit `u`'s front as it stands.
fn half_width(b: &Bound, u: usize) -> f32 {
    let unit = &b.table.units[u];
    crate::belle_alliance::footprint(unit.moving_arm(), unit.figures, unit.formation, b.ctx.ba()).0 / 2.0
}

fn enemies_of(table: &Table, side: usize) -> Vec<usize> {
    (0..table.units.len()).filter(|&j| threat(&table.units[j], side)).collect()
}

fn charges(b: &mut Bound, at: At, goals: &FsGoals, out: &mut Vec<Order>) {
    let ctx = b.ctx;
    let ai = &ctx.ba().ai;
    let threshold = ai.charge_threshold - ai.charge_threshold_drop * goals.aggression;
    let foes: Vec<usize> = (0..b.table.units.len()).filter(|&j| b.table.units[j].side != at.side).collect();
    for u in 0..b.table.units.len() {
        let unit = b.table.units[u].clone();
        if unit.side != at.side || unit.arm != Arm::Cavalry || !able(&unit) {
            continue;
        }
        let reach = allowance(&unit, b.ctx) * b.ctx.ba().march_costs.charge_factor;
        let mut best: Option<(usize, f32)> = None;
        for &t in &foes {
            let target = &b.table.units[t];
            // Centres farther apart than the ride and both footprints'
            // half-diagonals cannot touch: not worth the exact check.
            let spans = half_diagonal(b, u) + half_diagonal(b, t);
            if target.state == State::FU || dist(&unit, target) > reach + spans {
                continue;
            }
            let disordered = matches!(target.state, State::LU | State::U);
            let (score, threshold) = if goals.level.mended() {
                // The mended AI weighs the whole charge, every die counted:
                // the target's square test and the melee against the line
                // or the square, then who is left fleeing.
                let Ok(o) = charge_odds(b, u, t) else { continue };
                (o.win - o.lose + o.target_flees - o.charger_flees, ai.normal_charge_edge * (1.0 - goals.aggression))
            } else {
                // The melee edge (attack less defence) from the contact point.
                let Ok(f) = charge_fight(b, u, t) else { continue };
                let edge = (f.attack - f.defence) as f32;
                let bonus = if disordered { ai.disordered_bonus } else { 0.0 };
                (edge + bonus, threshold)
            };
            if score >= threshold && best.is_none_or(|(_, s)| score > s) {
                best = Some((t, score));
            }
        }
        if let Some((t, _)) = best {
            let order = Order::Charge { unit: b.table.units[u].id.clone(), target: b.table.units[t].id.clone() };
            give(b, at, order, out);
        }
    }
}

/// The units held back: the share `reserve_share * (1 - a)` of the side's
/// units in order, those farthest from the enemy.
fn reserve(table: &Table, side: usize, enemies: &[usize], ctx: &FsCtx, a: f32) -> Vec<bool> {
    let mut ranked: Vec<(usize, f32)> = (0..table.units.len())
        .filter(|&u| table.units[u].side == side && table.units[u].state == State::Order)
        .map(|u| (u, nearest_enemy(table, u, enemies).map_or(f32::MAX, |e| e.1)))
        .collect();
    ranked.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
    let n = (ranked.len() as f32 * ctx.ba().ai.reserve_share * (1.0 - a)).floor() as usize;
    let mut out = vec![false; table.units.len()];
    for &(u, _) in ranked.iter().take(n) {
        out[u] = true;
    }
    out
}

fn movement(b: &mut Bound, at: At, goals: &FsGoals, out: &mut Vec<Order>) {
    let ctx = b.ctx;
    let ai = &ctx.ba().ai;
    let enemies = enemies_of(b.table, at.side);
    let held_back = reserve(b.table, at.side, &enemies, b.ctx, goals.aggression);
    // At `Normal` a cautious side waits for the enemy only while waiting
    // can win: while it leads on the score, or the enemy comes on.
    let waiting_loses = goals.level.mended() && !leads_on_points(b, goals, at.side) && !enemy_coming(b, at.side);
    // Once the enemy has had a bound to come on in and has not, such a
    // side attacks as a bold one does (a side that moves first has seen
    // the enemy stand for no bound at all on the first turn).
    let attacks = waiting_loses && (at.turn > 1 || at.side + 1 == b.ctx.sides.len());
    // At `Normal` a cautious side, which waits for the enemy, deploys
    // farther out: a column within the enemy guns' reach is their densest
    // target (2.8).
    let column_beyond = if goals.level.mended() && goals.aggression < ai.bold_from && !attacks {
        ai.cautious_column_beyond_cm
    } else {
        ai.column_beyond_cm
    };
    let horse: Vec<usize> =
        enemies.iter().copied().filter(|&j| b.table.units[j].arm == Arm::Cavalry && able(&b.table.units[j])).collect();
    // The ground's cells, built once for the phase when a way round is
    // first looked for.
    let ways = route::Ways::default();
    // Units on a bridge on their way round that could not march this
    // phase (at `Normal`): a friend standing idle in their way makes way.
    let mut jammed: Vec<usize> = Vec::new();
    for (u, &reserved) in held_back.iter().enumerate() {
        let unit = b.table.units[u].clone();
        if unit.side != at.side || !able(&unit) {
            continue;
        }
        let id = unit.id.clone();
        let Some((foe, foe_dist)) = nearest_enemy(b.table, u, &enemies) else { continue };
        let script = goals.script(u);
        if goals.broken || script == Script::Withdraw {
            withdraw(b, at, u, out);
            continue;
        }
        // Only `Advance` keeps a reserve back.
        let reserved = reserved && script == Script::Advance;
        // Squares against horse (foot in the open only: in cover it stands).
        if unit.arm == Arm::Infantry {
            let horse_near = horse.iter().any(|&h| dist(&unit, &b.table.units[h]) <= ai.square_within_cm);
            if horse_near && !in_cover(b.ctx, &b.engine.rect(u)) {
                if unit.formation != Formation::Square {
                    give(b, at, Order::Formation { unit: id, to: Formation::Square }, out);
                }
                continue;
            }
        }
        if unit.arm == Arm::Artillery {
            let in_range = enemies.iter().any(|&j| {
                let g = gap(&b.engine.rect(u), &b.engine.rect(j));
                g <= combat::reach(&unit, b.ctx) * ai.unlimber_share
                    && march::in_front_arc(&unit, (b.table.units[j].x, b.table.units[j].y), b.ctx)
            });
            if in_range {
                if unit.limbered {
                    give(b, at, Order::Limber { unit: id, limbered: false }, out);
                }
                continue;
            }
            if !unit.limbered {
                give(b, at, Order::Limber { unit: id.clone(), limbered: true }, out);
                continue;
            }
        }
        // `Hold` stands where it is, deployed in line.
        if script == Script::Hold {
            if matches!(unit.arm, Arm::Infantry | Arm::Cavalry) && unit.formation != Formation::Line {
                give(b, at, Order::Formation { unit: id, to: Formation::Line }, out);
            }
            continue;
        }
        // Formation by distance: column far off, line near. (At `Normal`,
        // foot and horse whose way to an objective winds round what they
        // may not cross keep to column while it winds, however near the
        // enemy: a line is wider than most bridges, and one deployed
        // at a bridge's mouth could cross it nowhere.)
        let winding = goals.level.mended()
            && !reserved
            && abandoned_guns(b, u).is_none()
            && goal_point(b, u, foe, goals, reserved, script, (waiting_loses, attacks)).is_some_and(
                |(p, keep, go_round)| {
                    let (line, _) =
                        crate::belle_alliance::footprint(unit.moving_arm(), unit.figures, Formation::Line, b.ctx.ba());
                    keep == 0.0
                        && go_round
                        && ways.waypoints(b.ctx, unit.moving_arm(), (unit.x, unit.y), p, line / 2.0).first() != Some(&p)
                },
            );
        // At `Normal` foot and horse keep to column while any part of
        // them stands on a bridge: a line is wider than most bridges, and
        // one deployed on it could march nowhere. On their way round they
        // keep to it near the bridge too while a friend is crossing behind
        // them ([`clears_bridge`]).
        let bridged = || {
            goals.level.mended()
                && (b.ctx.touches(&b.engine.rect(u), |t| t == Terrain::Bridge)
                    || (clears_bridge(b, u)
                        && abandoned_guns(b, u).is_none()
                        && goal_point(b, u, foe, goals, reserved, script, (waiting_loses, attacks))
                            .is_some_and(|(_, _, go_round)| go_round)))
        };
        let want = match unit.arm {
            Arm::Infantry | Arm::Cavalry if winding || bridged() => Some(Formation::Column),
            Arm::Infantry | Arm::Cavalry if foe_dist > column_beyond => Some(Formation::Column),
            Arm::Infantry | Arm::Cavalry => Some(Formation::Line),
            Arm::Artillery => None,
        };
        if let Some(f) = want
            && f != unit.formation
        {
            give(b, at, Order::Formation { unit: id.clone(), to: f }, out);
        }
        let goal = match abandoned_guns(b, u) {
            Some((p, keep)) if !reserved => Some((p, keep, false)),
            _ => goal_point(b, u, foe, goals, reserved, script, (waiting_loses, attacks)),
        };
        if let Some((point, keep, go_round)) = goal {
            let near = foe_dist <= ai.cover_within_cm;
            match goals.level {
                // The mended AI marches on an objective by the way round
                // what its arm may not cross (a brook by its bridges and
                // fords), leg by leg, each leg one its whole front can
                // march (the farthest first). (On an enemy only a bold
                // side goes round: to a cautious one a brook between them
                // is ground to hold.)
                AiLevel::Hold | AiLevel::Normal | AiLevel::Hard if go_round => {
                    let before = out.len();
                    // Leg after leg while the march lasts (`route_legs` at most).
                    for _ in 0..ai.route_legs {
                        let route::Legs { reached: legs, first } =
                            ways.legs(b.ctx, b.table.units[u].moving_arm(), at_of(b, u), point, half_width(b, u));
                        let marched = match first {
                            // The last leg, to the goal itself, stops its
                            // stand-off short of an enemy. Cover is worth a
                            // halt there only: a unit on its way marches on
                            // (a column on a bridge with woods at its back
                            // had stood there to the end).
                            None if !legs.is_empty() => {
                                legs.iter().any(|&p| {
                                    let last = p == point;
                                    advance(
                                        b,
                                        at,
                                        u,
                                        p,
                                        if last { keep } else { 0.0 },
                                        near && last,
                                        Turning::Face,
                                        out,
                                    )
                                }) || straight_on(b, at, u, point, 0.0, false, Turning::Face, out)
                            }
                            None => advance(b, at, u, point, keep, near, Turning::Face, out),
                            // It reaches no point of its way: straight on
                            // if that is nearer, else to the first cell's
                            // passage; wedged where it may not wheel to
                            // face that point, it steps there keeping its
                            // facing.
                            Some(p) => {
                                let here = at_of(b, u);
                                let nearer =
                                    (p.0 - point.0).hypot(p.1 - point.1) < (here.0 - point.0).hypot(here.1 - point.1);
                                (nearer && advance(b, at, u, p, 0.0, false, Turning::OrKeep, out))
                                    || straight_on(b, at, u, point, 0.0, false, Turning::OrKeep, out)
                                    || advance(b, at, u, p, 0.0, false, Turning::OrKeep, out)
                                    || (in_the_way(b, u, goals, out).is_none() && back_off(b, at, u, p, out))
                            }
                        };
                        if !marched || b.play.march_left(b.ctx, b.table, u) <= 0.5 {
                            break;
                        }
                    }
                    if !marched_since(out, before, &id) && b.ctx.touches(&b.engine.rect(u), |t| t == Terrain::Bridge) {
                        jammed.push(u);
                    }
                }
                // Straight on, and when every straight march there is
                // refused (a column on a bridge, which may not wheel off
                // it towards an enemy to one side), a cell straight
                // ahead if that brings it nearer, short of its stand-off.
                AiLevel::Hold | AiLevel::Normal | AiLevel::Hard => {
                    if !advance(b, at, u, point, keep, near, Turning::Face, out) {
                        straight_on(b, at, u, point, keep, near, Turning::Face, out);
                    }
                }
                AiLevel::Easy => {
                    advance(b, at, u, point, keep, near, Turning::Plain, out);
                }
            }
        }
    }
    for g in jammed {
        make_way(b, at, g, goals, out);
    }
}

/// Whether unit `u` stands within `bridge_column_cm` of a bridge while a
/// friend in order or LU stands on one within `bridge_follower_cm` of it
/// (centres): a line deployed at a bridge's far end shuts it for the
/// friends crossing behind (at Saint-Amand the first French battalion over
/// deployed at the bridge's northern end to storm the village, and the
/// next stood on the bridge behind it to the end).
fn clears_bridge(b: &Bound, u: usize) -> bool {
    let ai = &b.ctx.ba().ai;
    let unit = &b.table.units[u];
    let bridge = |r: &OrientedRect| b.ctx.touches(r, |t| t == Terrain::Bridge);
    let grow = ai.bridge_column_cm;
    let r = b.engine.rect(u);
    let near = OrientedRect { width: r.width + 2.0 * grow, depth: r.depth + 2.0 * grow, ..r };
    // The ground first: a few cells looked at, where the friends are a
    // pass over every unit (this runs for each unit off a bridge).
    grow > 0.0
        && bridge(&near)
        && (0..b.table.units.len()).any(|f| {
            let friend = &b.table.units[f];
            f != u
                && friend.side == unit.side
                && able(friend)
                && dist(friend, unit) <= ai.bridge_follower_cm
                && bridge(&b.engine.rect(f))
        })
}

/// Guns an enemy crew left that `u` (foot or horse) can reach within two
/// marches: it makes for them to take them (2.2.7), stopping with its
/// front on them.
fn abandoned_guns(b: &Bound, u: usize) -> Option<((f32, f32), f32)> {
    let unit = &b.table.units[u];
    if unit.arm == Arm::Artillery {
        return None;
    }
    let reach = b.ctx.ba().ai.guns_within_marches * allowance(unit, b.ctx);
    let (_, depth) = crate::belle_alliance::footprint(unit.moving_arm(), unit.figures, unit.formation, b.ctx.ba());
    (0..b.table.units.len())
        .filter(|&g| b.table.units[g].side != unit.side && !b.play.captured[g])
        .filter_map(|g| b.table.units[g].guns_left)
        .map(|p| (p, (unit.x - p.0).hypot(unit.y - p.1)))
        .filter(|&(_, d)| d <= reach)
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(p, _)| (p, depth / 2.0 + 1.0))
}

/// Where unit `u` makes for, and how far from it it stops: an objective
/// its side does not hold when that is nearer than the enemy, else the
/// nearest enemy `foe` at its arm's stand-off (a bold side comes closer,
/// and foot closes to contact on a disordered enemy). At `Normal` a bold
/// side's foot near an objective to take storms it instead ([`storm`]),
/// and so does its foot inside such an objective's area, where the
/// enemy's garrison still stands, though the objective is the nearer.
/// The reserve stops `reserve_follow_cm` from the enemy. Last, whether the
/// way there goes round what the arm may not cross (at `Normal`: to an
/// objective, and a bold side's to the enemy too). The
/// planning AI's scripts: `Assault` marches as the boldest temper does,
/// `Objective` on the nearest objective not held (all held: the nearest),
/// whatever the enemy. When `waiting_loses` (at `Normal`, the side does
/// not lead on the score and the enemy has not come on), a cautious side's
/// unit with ground it may not cross between it and the enemy makes for
/// the nearest objective not held instead, unless it garrisons one; and
/// when `attacks` too (the enemy has had a bound to come on in), it
/// otherwise plays as a bold side: closer, storming, going round.
fn goal_point(
    b: &Bound,
    u: usize,
    foe: usize,
    goals: &FsGoals,
    reserve: bool,
    script: Script,
    (waiting_loses, attacks): (bool, bool),
) -> Option<((f32, f32), f32, bool)> {
    let ctx = b.ctx;
    let ai = &ctx.ba().ai;
    let unit = &b.table.units[u];
    let enemy = &b.table.units[foe];
    let foe_d = dist(unit, enemy);
    let near = |held: bool| {
        goals
            .objectives
            .iter()
            .filter(|o| o.1 > 0 && (held || o.2 != Some(unit.side)))
            .map(|o| (o.0, (unit.x - o.0.0).hypot(unit.y - o.0.1)))
            .min_by(|x, y| x.1.total_cmp(&y.1))
    };
    if script == Script::Objective {
        return near(false).or_else(|| near(true)).map(|(p, _)| (p, 0.0, true));
    }
    if reserve {
        return (foe_d > ai.reserve_follow_cm).then_some(((enemy.x, enemy.y), ai.reserve_follow_cm, false));
    }
    let aggression = if script == Script::Assault { 1.0 } else { goals.aggression };
    let cautious = aggression < ai.bold_from;
    let bold = !cautious || attacks;
    // How far short of an enemy's centre it stops: the stand-off, kept
    // between footprints (half the two depths more between the centres).
    let keep = |enemy: &FsUnit| {
        let closer = if bold { ai.bold_closer_cm } else { 0.0 };
        let standoff = match unit.arm {
            Arm::Infantry if matches!(enemy.state, State::LU | State::U) && bold => 0.0,
            Arm::Infantry => ai.infantry_standoff_cm - closer,
            Arm::Cavalry => ai.cavalry_standoff_cm,
            Arm::Artillery => ai.artillery_standoff_cm - closer,
        };
        let (_, d1) = crate::belle_alliance::footprint(unit.moving_arm(), unit.figures, unit.formation, b.ctx.ba());
        let (_, d2) = crate::belle_alliance::footprint(enemy.moving_arm(), enemy.figures, enemy.formation, b.ctx.ba());
        standoff + (d1 + d2) / 2.0
    };
    let mended_bold = goals.level.mended() && bold;
    // Foot standing in the area of an objective still held by an enemy
    // garrison storms that garrison: at the centre it would stand beside
    // the enemy and never take the place.
    let in_held_area = |o: ((f32, f32), f32)| {
        mended_bold
            && victory::in_area(ctx, (unit.x, unit.y), o.0)
            && matches!(storm(b, u, o), Some(Storm::Garrison(_)))
    };
    match near(false) {
        Some((p, d)) if d < foe_d && !in_held_area((p, d)) => Some((p, 0.0, true)),
        objective => match objective.filter(|_| mended_bold).and_then(|o| storm(b, u, o)) {
            Some(Storm::Garrison(g)) => {
                let g = &b.table.units[g];
                Some(((g.x, g.y), keep(g), true))
            }
            Some(Storm::Area(centre)) => Some((centre, 0.0, true)),
            // A cautious side that cannot win by waiting does not stand at
            // a brook between it and the enemy: the unit makes for an
            // objective its side does not hold, by the way round (unless
            // it stands in one its side holds).
            None => match objective {
                Some((p, _))
                    if waiting_loses
                        && cautious
                        && !garrisons(b, u, goals)
                        && route::barred(
                            b.ctx,
                            unit.moving_arm(),
                            (unit.x, unit.y),
                            (enemy.x, enemy.y),
                            half_width(b, u),
                        ) =>
                {
                    Some((p, 0.0, true))
                }
                _ => Some(((enemy.x, enemy.y), keep(enemy), mended_bold)),
            },
        },
    }
}

/// What a storming unit makes for ([`storm`]).
enum Storm {
    /// The enemy unit of the objective's garrison nearest it.
    Garrison(usize),
    /// The objective's centre: no enemy not fleeing stands in the area.
    Area((f32, f32)),
}

/// At `Normal`, a bold side's foot within `storm_within_cm` of the
/// nearest objective its side does not hold (`objective`: its centre and
/// how far off) storms it (docs/rules.md 2.12): it makes for the
/// garrison, the enemy units not fleeing whose centres stand in the area,
/// or with none there for the area itself. `None` when the objective is
/// farther, or `u` is not foot.
fn storm(b: &Bound, u: usize, objective: ((f32, f32), f32)) -> Option<Storm> {
    let unit = &b.table.units[u];
    let (centre, d) = objective;
    if unit.arm != Arm::Infantry || d > b.ctx.ba().ai.storm_within_cm {
        return None;
    }
    let garrison = (0..b.table.units.len())
        .filter(|&j| threat(&b.table.units[j], unit.side))
        .filter(|&j| victory::in_area(b.ctx, (b.table.units[j].x, b.table.units[j].y), centre))
        .min_by(|&x, &y| dist(unit, &b.table.units[x]).total_cmp(&dist(unit, &b.table.units[y])));
    Some(garrison.map_or(Storm::Area(centre), Storm::Garrison))
}

/// A broken army falls back: each unit marches straight towards its rear.
fn withdraw(b: &mut Bound, at: At, u: usize, out: &mut Vec<Order>) {
    let unit = b.table.units[u].clone();
    let rear = b.ctx.rear_bearing(unit.side);
    let left = b.play.march_left(b.ctx, b.table, u);
    let mut near = Vec::new();
    for share in [1.0f32, 0.5] {
        let v = bearing_vector(rear);
        let to = (unit.x + v.0 * left * share / 2.0, unit.y + v.1 * left * share / 2.0);
        if let Ok(plan) = march::plan(b.ctx, b.engine, b.table, u, to, unit.facing, &mut near)
            && plan.cost <= left + 1e-3
        {
            give(b, at, Order::March { unit: unit.id.clone(), to, facing: unit.facing }, out);
            return;
        }
    }
}

/// Who can fire at whom this phase: for each enemy, the firers that reach
/// it with their fire points, strongest first. Found once per phase through
/// the broad phase: nothing moves within a phase (forced moves wait for its
/// end), so only figures and valour change as volleys land.
fn fire_plan(b: &Bound, side: usize) -> Vec<(usize, Vec<(usize, f32)>)> {
    let mut by_target: Vec<Vec<(usize, f32)>> = vec![Vec::new(); b.table.units.len()];
    let mut near = Vec::new();
    for f in 0..b.table.units.len() {
        let u = &b.table.units[f];
        if u.side != side || u.state == State::FU {
            continue;
        }
        let reach = combat::reach(u, b.ctx);
        if combat::fire_points(u, 0.0, b.ctx).is_none_or(|p| p <= 0.0) {
            continue;
        }
        let a = b.engine.rect(f).aabb();
        b.engine.near((a.0 - reach, a.1 - reach, a.2 + reach, a.3 + reach), &mut near);
        for &t in &near {
            let target = &b.table.units[t];
            if !threat(target, side) || !march::in_front_arc(u, (target.x, target.y), b.ctx) {
                continue;
            }
            let g = gap(&b.engine.rect(f), &b.engine.rect(t));
            if let Some(p) = combat::fire_points(u, g, b.ctx).filter(|&p| p > 0.0) {
                by_target[t].push((f, p));
            }
        }
    }
    by_target
        .into_iter()
        .enumerate()
        .filter(|(_, v)| !v.is_empty())
        .map(|(t, mut v)| {
            v.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
            (t, v)
        })
        .collect()
}

fn fire(b: &mut Bound, at: At, level: AiLevel, out: &mut Vec<Order>) {
    let fire = b.ctx.ba().fire.clone();
    let ctx = b.ctx;
    let ai = &ctx.ba().ai;
    let plan = fire_plan(b, at.side);
    let cover: Vec<bool> = plan.iter().map(|(t, _)| in_cover(b.ctx, &b.engine.rect(*t))).collect();
    loop {
        let mut best: Option<(f32, usize, Vec<usize>)> = None;
        for (k, (t, firers)) in plan.iter().enumerate() {
            let target = &b.table.units[*t];
            if target.state == State::FU {
                continue;
            }
            // The firers still free, strongest first, until the top modifier.
            let mut group = Vec::new();
            let (mut points, mut guns) = (0.0, false);
            for &(f, p) in firers {
                if b.play.fired[f] || b.table.units[f].state == State::FU {
                    continue;
                }
                group.push(f);
                points += p;
                guns |= b.table.units[f].arm == Arm::Artillery;
                if (points / fire.points_per_modifier).floor() as i32 >= fire.max_modifier {
                    break;
                }
            }
            if group.is_empty() {
                continue;
            }
            let mut modifier = ((points / fire.points_per_modifier).floor() as i32).min(fire.max_modifier);
            if cover[k] {
                modifier += fire.cover_modifier;
            }
            if guns && matches!(target.formation, Formation::Column | Formation::Square) {
                modifier += fire.dense_target_modifier;
            }
            modifier -= target.valour;
            // The value of a volley: its chance to shake (U or worse), and
            // to cost figures, more on an enemy already disordered.
            let shake = fire
                .results
                .iter()
                .find(|r| matches!(r.state, State::U | State::FU))
                .map_or(0.0, |r| at_least(r.from - modifier));
            let hurt = fire.results.first().map_or(0.0, |r| at_least(r.from - modifier));
            let mut value = shake + ai.volley_hurt_weight * hurt;
            if matches!(target.state, State::LU | State::U) {
                value *= ai.volley_disordered_factor;
            }
            // The mended AI silences the enemy's guns first: a gun
            // outshoots a file of muskets at every range and fires in both
            // fire phases, so each gun lost or shaken spares its side more
            // than any file of foot (2.8).
            if level.mended() && target.arm == Arm::Artillery {
                value *= ai.volley_guns_factor;
            }
            if best.as_ref().is_none_or(|(s, _, _)| value > *s + 1e-6) {
                best = Some((value, *t, group));
            }
        }
        let Some((_, t, group)) = best else { return };
        let order = Order::Fire {
            units: group.iter().map(|&f| b.table.units[f].id.clone()).collect(),
            target: b.table.units[t].id.clone(),
        };
        let given = give(b, at, order, out);
        // A refused volley (should not happen: the plan is the volley's own
        // checks) still spends its firers, so the loop always ends.
        for f in group {
            b.play.fired[f] |= !given;
        }
    }
}
