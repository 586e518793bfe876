//! How the free-space AI marches a unit towards a point (docs/rules.md
//! 2.12): straight, turned off the line or shorter, preferring cover near
//! the enemy; a unit wedged where it may not wheel keeps its facing; a
//! cell straight on when nothing else is legal; a unit wedged askew on a
//! bridge squares up to it. Every order goes through the rules' own checks
//! ([`Bound::apply`]).

use crate::belle_alliance::combat::in_cover;
use crate::belle_alliance::geometry::{OrientedRect, bearing_of, bearing_vector};
use crate::belle_alliance::march::{self, turn_between};
use crate::belle_alliance::play::{At, Bound};
use crate::belle_alliance::route;
use crate::labataille::orders::Order;
use crate::terrain::Terrain;

/// Gives `order` through the rules' checks, and records it in `out` if it
/// was legal. Whether it was.
pub(super) fn give(b: &mut Bound, at: At, order: Order, out: &mut Vec<Order>) -> bool {
    let ok = b.apply(at, &order).is_ok();
    if ok {
        out.push(order);
    }
    ok
}

/// How a march of [`advance`] may face.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Turning {
    /// It wheels to face the point it makes for (unless the wheel would
    /// cost most of its march, when it keeps its facing).
    Face,
    /// As `Face`; and when no such march is legal, it keeps its facing and
    /// steps towards the point, obliquely or sideways at their cost (2.7).
    /// A column wedged at a bridge's end, a few cm off its line, could
    /// not wheel onto it without swinging a flank over the brook.
    OrKeep,
    /// As `Face`, and a unit wedged askew on a bridge stays so (`easy`).
    Plain,
}

/// Marches `u` towards `point`, stopping `keep` cm short of it, facing it:
/// straight first, then turned off the line or shorter; near the enemy
/// the legal end in cover wins, and a march must gain ground. A unit on
/// a bridge, standing more than `rules.belle_alliance.ai.askew_degrees`
/// off its run, that finds no such march squares up to the run and
/// marches straight along it (unless `Turning::Plain`): turned across the
/// bridge so that its corners stood over the brook at either side, it
/// could neither wheel nor step anywhere. Whether it marched.
#[allow(clippy::too_many_arguments)]
pub(super) fn advance(
    b: &mut Bound,
    at: At,
    u: usize,
    point: (f32, f32),
    keep: f32,
    near_enemy: bool,
    turning: Turning,
    out: &mut Vec<Order>,
) -> bool {
    march_on(b, at, u, point, keep, near_enemy, turning, None, out)
        || (turning != Turning::Plain
            && askew_on_bridge(b, u)
                .is_some_and(|run| march_on(b, at, u, point, keep, near_enemy, turning, Some(run), out)))
}

/// The bearings of the bridge's run (its two ends), when `u` stands on a
/// bridge more than `askew_degrees` off it ([`route::runs_up_and_down`]).
fn askew_on_bridge(b: &Bound, u: usize) -> Option<[f32; 2]> {
    let unit = &b.table.units[u];
    if b.ctx.terrain_at(unit.x, unit.y) != Some(Terrain::Bridge) {
        return None;
    }
    let run =
        if route::runs_up_and_down(b.ctx, unit.moving_arm(), (unit.x, unit.y)) { [180.0, 0.0] } else { [90.0, 270.0] };
    let askew = b.ctx.ba().ai.askew_degrees;
    run.iter().all(|&r| turn_between(unit.facing, r) > askew).then_some(run)
}

/// The end of a bridge's `run` that a unit facing `facing` squares up to
/// on its way towards the bearing `towards`: the one nearer that
/// bearing, unless that means turning about (more than a right angle),
/// when none (it does not turn back over the bridge).
fn run_end(run: [f32; 2], facing: f32, towards: f32) -> Option<f32> {
    let end = if turn_between(run[0], towards) <= turn_between(run[1], towards) { run[0] } else { run[1] };
    (turn_between(facing, end) <= 90.0).then_some(end)
}

/// [`advance`]'s march; `square`: facing one end of the bridge's run
/// ([`run_end`]), straight along it.
#[allow(clippy::too_many_arguments)]
fn march_on(
    b: &mut Bound,
    at: At,
    u: usize,
    point: (f32, f32),
    keep: f32,
    near_enemy: bool,
    turning: Turning,
    square: Option<[f32; 2]>,
    out: &mut Vec<Order>,
) -> bool {
    let unit = b.table.units[u].clone();
    let (dx, dy) = (point.0 - unit.x, point.1 - unit.y);
    let d = dx.hypot(dy);
    if d <= keep + 0.5 {
        return false;
    }
    // Squared up: the end of the run nearer the point's bearing, and only
    // as far along it as the point lies.
    let towards = bearing_of(dx, dy);
    let (facing, along) = match square {
        Some(run) => {
            let Some(end) = run_end(run, unit.facing, towards) else { return false };
            let v = bearing_vector(end);
            (end, (dx * v.0 + dy * v.1).max(0.0))
        }
        None => (towards, f32::INFINITY),
    };
    let left = b.play.march_left(b.ctx, b.table, u);
    let wheel = march::wheel_cost(&unit, turn_between(unit.facing, facing), b.ctx);
    // A unit that cannot both wheel and step keeps its facing and steps
    // obliquely if that is nearer than the full wheel.
    let (facing, budget) = if wheel < left * 0.6 || (square.is_some() && wheel < left) {
        (facing, left - wheel)
    } else {
        (unit.facing, left)
    };
    if budget <= 0.5 {
        return false;
    }
    // Each way of marching: its facing, the bearing its steps start from
    // and how far it would go. The facing kept comes last, and only when
    // no wheeled march is legal.
    let mut ways = vec![(facing, facing, (d - keep).min(budget).min(along))];
    if turning == Turning::OrKeep && facing != unit.facing {
        ways.push((unit.facing, towards, (d - keep).min(left)));
    }
    let mut near = Vec::new();
    let mut best: Option<((f32, f32), f32, f32)> = None;
    let cover_bonus = b.ctx.ba().ai.cover_bonus_cm;
    for (facing, towards, want) in ways {
        if best.is_some() {
            break;
        }
        for off in [0.0f32, 20.0, -20.0, 45.0, -45.0] {
            for share in [1.0f32, 0.6, 0.3] {
                let v = bearing_vector(towards + off);
                let step = want * share;
                let to = (unit.x + v.0 * step, unit.y + v.1 * step);
                let Ok(plan) = march::plan(b.ctx, b.engine, b.table, u, to, facing, &mut near) else { continue };
                if plan.cost > left + 1e-3 {
                    continue;
                }
                let mut score = ((point.0 - to.0).hypot(point.1 - to.1) - keep).abs();
                if near_enemy && in_cover(b.ctx, &plan.end) {
                    score -= cover_bonus;
                }
                if best.is_none_or(|(_, s, _)| score < s - 1e-3) {
                    best = Some((to, score, facing));
                }
                if !near_enemy {
                    break;
                }
            }
            if best.is_some() && !near_enemy {
                break;
            }
        }
    }
    let stay = (d - keep).abs() - if near_enemy && in_cover(b.ctx, &b.engine.rect(u)) { cover_bonus } else { 0.0 };
    match best {
        Some((to, score, facing)) if score < stay - 0.5 => {
            give(b, at, Order::March { unit: unit.id.clone(), to, facing }, out)
        }
        _ => false,
    }
}

/// A unit that can march on no point of its way (fresh off a bridge, too
/// close to the brook to wheel) marches a cell straight on, when that
/// brings it nearer `goal` and leaves it at least `keep` from it.
#[allow(clippy::too_many_arguments)]
pub(super) fn straight_on(
    b: &mut Bound,
    at: At,
    u: usize,
    goal: (f32, f32),
    keep: f32,
    near: bool,
    turning: Turning,
    out: &mut Vec<Order>,
) -> bool {
    let unit = &b.table.units[u];
    let v = bearing_vector(unit.facing);
    let ahead = (unit.x + v.0 * b.ctx.cell_cm, unit.y + v.1 * b.ctx.cell_cm);
    let left = (ahead.0 - goal.0).hypot(ahead.1 - goal.1);
    let nearer = left < (unit.x - goal.0).hypot(unit.y - goal.1);
    nearer && left >= keep && advance(b, at, u, ahead, 0.0, near, turning, out)
}

/// A unit wedged at a bridge (it reaches no point of its way, and every
/// march there is refused: turned askew across the bridge's mouth, each
/// wheel or step would put a corner over the water) backs off: keeping
/// its facing, it steps back from `towards` (straight back or at each of
/// `back_off_degrees` off it, to either side) the least whole number of
/// cm, up to `back_off_cm`, from which it could wheel where it stands to face
/// `towards` or along the bridge's run (docs/rules.md 2.12, routes). A
/// column 16 cm wide stood turned 40 degrees across the mouth of a
/// bridge 20 cm wide, its far corner a few mm short of the brook, to the
/// end of the battle. Whether it marched.
pub(super) fn back_off(b: &mut Bound, at: At, u: usize, towards: (f32, f32), out: &mut Vec<Order>) -> bool {
    let unit = b.table.units[u].clone();
    let (dx, dy) = (towards.0 - unit.x, towards.1 - unit.y);
    if dx.hypot(dy) < 0.5 {
        return false;
    }
    if !b.ctx.touches(&b.engine.rect(u), |t| t == Terrain::Bridge) {
        return false;
    }
    let ahead = bearing_of(dx, dy);
    let run = if route::runs_up_and_down(b.ctx, unit.moving_arm(), towards) { [180.0, 0.0] } else { [90.0, 270.0] };
    let mut facings = vec![ahead];
    facings.extend(run.iter().copied().filter(|&r| turn_between(r, ahead) <= 90.0));
    let mut near = Vec::new();
    let ctx = b.ctx;
    let ai = &ctx.ba().ai;
    // Each angle off straight back to either side (straight back once).
    let offs: Vec<f32> =
        ai.back_off_degrees.iter().flat_map(|&d| if d == 0.0 { vec![0.0] } else { vec![d, -d] }).collect();
    for step in (1..).map(|cm| cm as f32).take_while(|&cm| cm <= ai.back_off_cm) {
        for &off in &offs {
            let v = bearing_vector(ahead + 180.0 + off);
            let to = (unit.x + v.0 * step, unit.y + v.1 * step);
            // The march itself is the rules' to allow (its ground, its
            // cost); the room to wheel after it is looked for here.
            let room = facings.iter().any(|&f| room_to_wheel(b, u, to, f, &mut near));
            if room && give(b, at, Order::March { unit: unit.id.clone(), to, facing: unit.facing }, out) {
                return true;
            }
        }
    }
    false
}

/// Whether unit `u`'s footprint, standing at `at` turned to `facing`,
/// has room there ([`march::room_for`]).
fn room_to_wheel(b: &Bound, u: usize, at: (f32, f32), facing: f32, near: &mut Vec<usize>) -> bool {
    let r = OrientedRect { x: at.0, y: at.1, facing, ..b.engine.rect(u) };
    march::room_for(b.ctx, b.engine, b.table, u, &r, near).is_ok()
}
