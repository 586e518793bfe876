//! How the free-space AI marches a unit towards a point (docs/rules.md
//! 2.12): straight, turned off the line or shorter, preferring cover near
//! the enemy; a unit wedged where it may not wheel keeps its facing; a
//! cell straight on when nothing else is legal. Every order goes through
//! the rules' own checks ([`Bound::apply`]).

use crate::belle_alliance::combat::in_cover;
use crate::belle_alliance::geometry::{bearing_of, bearing_vector};
use crate::belle_alliance::march::{self, turn_between};
use crate::belle_alliance::play::{At, Bound};
use crate::labataille::orders::Order;

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
}

/// Marches `u` towards `point`, stopping `keep` cm short of it, facing it:
/// straight first, then turned off the line or shorter; near the enemy
/// the legal end in cover wins, and a march must gain ground. Whether it
/// marched.
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
    let unit = b.table.units[u].clone();
    let (dx, dy) = (point.0 - unit.x, point.1 - unit.y);
    let d = dx.hypot(dy);
    if d <= keep + 0.5 {
        return false;
    }
    let facing = bearing_of(dx, dy);
    let left = b.play.march_left(b.ctx, b.table, u);
    let wheel = march::wheel_cost(&unit, turn_between(unit.facing, facing), b.ctx);
    // A unit that cannot both wheel and step keeps its facing and steps
    // obliquely if that is nearer than the full wheel.
    let (facing, budget) = if wheel < left * 0.6 { (facing, left - wheel) } else { (unit.facing, left) };
    if budget <= 0.5 {
        return false;
    }
    // Each way of marching: its facing, the bearing its steps start from
    // and how far it would go. The facing kept comes last, and only when
    // no wheeled march is legal.
    let mut ways = vec![(facing, facing, (d - keep).min(budget))];
    if turning == Turning::OrKeep && facing != unit.facing {
        ways.push((unit.facing, facing, (d - keep).min(left)));
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
