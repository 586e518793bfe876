//! A friend standing idle in the way of a unit held on a bridge makes
//! way (docs/rules.md 2.12, routes): once every unit of the side has
//! marched, it steps aside until the two fronts no longer overlap.

use super::marching::{Turning, advance, give};
use super::{FsGoals, able, garrisons, half_width};
use crate::belle_alliance::combat::gap;
use crate::belle_alliance::geometry::bearing_vector;
use crate::belle_alliance::play::{At, Bound};
use crate::labataille::orders::Order;
use crate::terrain::Arm;

/// Whether unit `id` was given a march in `out` since `from`.
pub(super) fn marched_since(out: &[Order], from: usize, id: &str) -> bool {
    out[from..].iter().any(|o| matches!(o, Order::March { unit, .. } if unit == id))
}

/// The friend that stands idle in the way of `g`, a unit held on a
/// bridge on its way round ([`make_way`]), if any: in order or LU, foot
/// or horse, given no march in `out`, not a garrison, its centre ahead of
/// `g` within their two half-fronts of `g`'s line, its rectangle within
/// `make_way_reach_cells` of `g`'s.
pub(super) fn in_the_way(b: &Bound, g: usize, goals: &FsGoals, out: &[Order]) -> Option<usize> {
    let unit = &b.table.units[g];
    let v = bearing_vector(unit.facing);
    let side = (-v.1, v.0);
    let reach = b.ctx.cell_cm * b.ctx.ba().ai.make_way_reach_cells;
    let front = half_width(b, g);
    let rect = b.engine.rect(g);
    (0..b.table.units.len()).find(|&f| {
        let fu = &b.table.units[f];
        let (dx, dy) = (fu.x - unit.x, fu.y - unit.y);
        f != g
            && fu.side == unit.side
            && able(fu)
            && matches!(fu.arm, Arm::Infantry | Arm::Cavalry)
            && dx * v.0 + dy * v.1 > 0.0
            && (dx * side.0 + dy * side.1).abs() < front + half_width(b, f)
            && gap(&rect, &b.engine.rect(f)) <= reach
            && !marched_since(out, 0, &fu.id)
            && !garrisons(b, f, goals)
    })
}

/// The friend standing idle in the way of `g`, a unit held on a bridge
/// on its way round ([`in_the_way`]), steps aside until the two fronts
/// are `make_way_clearance_cm` apart: at each of `make_way_degrees` off
/// `g`'s front in turn, to the side it stands on first (docs/rules.md
/// 2.12, routes). A horse unit that had stopped within its stand-off at
/// the mouth of a bridge held the foot behind it on the bridge to the end
/// of the battle. Not a garrison: an objective held is worth more than
/// the way.
pub(super) fn make_way(b: &mut Bound, at: At, g: usize, goals: &FsGoals, out: &mut Vec<Order>) {
    let unit = b.table.units[g].clone();
    let v = bearing_vector(unit.facing);
    let side = (-v.1, v.0);
    let ctx = b.ctx;
    let ai = &ctx.ba().ai;
    let front = half_width(b, g);
    let blocker = in_the_way(b, g, goals, out);
    let Some(f) = blocker else { return };
    let fu = b.table.units[f].clone();
    let off = (fu.x - unit.x) * side.0 + (fu.y - unit.y) * side.1;
    let sign = if off >= 0.0 { 1.0 } else { -1.0 };
    let clear = front + half_width(b, f) + ai.make_way_clearance_cm;
    // Off `g`'s front for good: to the side it stands on first, square
    // to that front or slanting on, wheeled to its way or keeping its
    // facing (a wheel about the head swings the body, and the enemy may
    // be at hand); the first legal march.
    for (lateral, need) in [(sign, clear - off.abs()), (-sign, clear + off.abs())] {
        for &angle in &ai.make_way_degrees {
            let bearing = unit.facing + lateral * angle;
            let dir = bearing_vector(bearing);
            let step = need / angle.to_radians().sin();
            let to = (fu.x + dir.0 * step, fu.y + dir.1 * step);
            for facing in [bearing.rem_euclid(360.0), fu.facing] {
                if give(b, at, Order::March { unit: fu.id.clone(), to, facing }, out) {
                    return;
                }
            }
        }
    }
    // Hemmed in (the brook at its back, the enemy at hand): the first
    // march [`advance`] finds towards one of those sides or straight on
    // along `g`'s way, to clear it over the bounds to come.
    let (aside, slant) = ((side.0 * sign, side.1 * sign), bearing_vector(unit.facing + sign * 45.0));
    for (dir, step) in
        [(aside, clear - off.abs()), (slant, clear), (v, clear), ((-aside.0, -aside.1), clear + off.abs())]
    {
        let to = (fu.x + dir.0 * step, fu.y + dir.1 * step);
        if advance(b, at, f, to, 0.0, false, Turning::OrKeep, out) {
            return;
        }
    }
}
