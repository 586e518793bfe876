//! Marches in centimetres (docs/rules.md 2.7): how far a unit may march
//! this bound, what a march to a place and facing costs (a wheel, then a
//! straight, oblique or sideways move, slowed by terrain), and whether it
//! may stand there. Pure functions over the table; the orders in
//! [`crate::belle_alliance::play`] call them, and so do the AI and the
//! window's preview.

use crate::belle_alliance::engine::FsEngine;
use crate::belle_alliance::geometry::{OrientedRect, bearing_of};
use crate::belle_alliance::{FsCtx, FsUnit, Table, footprint};
use crate::terrain::Arm;
use crate::vocab::{Formation, State};

/// Length of one step of a march's terrain walk, cm.
const STEP_CM: f32 = 1.0;
/// Distances and costs closer than this are the same.
const EPS: f32 = 1e-3;

/// A unit's march per bound (2.7): by arm and formation from
/// `rules.belle_alliance.march_cm`; unlimbered guns are manhandled.
pub fn allowance(unit: &FsUnit, ctx: &FsCtx) -> f32 {
    let m = &ctx.ba().march_cm;
    match (unit.arm, unit.formation) {
        (_, Formation::Flight) => 0.0,
        (Arm::Infantry, Formation::Column) => m.infantry_column,
        (Arm::Infantry, Formation::Square) => m.infantry_square,
        (Arm::Infantry, _) => m.infantry_line,
        (Arm::Cavalry, Formation::Column) => m.cavalry_column,
        (Arm::Cavalry, _) => m.cavalry_line,
        (Arm::Artillery, _) if unit.guns_left.is_some() => m.infantry_line,
        (Arm::Artillery, _) if !unit.limbered => m.unlimbered,
        (Arm::Artillery, _) if unit.horse => m.horse_artillery,
        (Arm::Artillery, _) => m.foot_artillery,
    }
}

/// The smallest turn from bearing `a` to bearing `b`, degrees (0..=180).
pub fn turn_between(a: f32, b: f32) -> f32 {
    let d = (b - a).rem_euclid(360.0);
    d.min(360.0 - d)
}

/// How a march moves, by the angle between its line and the new facing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarchKind {
    /// Only a wheel (or nothing).
    InPlace,
    Straight,
    Oblique,
    /// Sideways or backwards.
    Sideways,
}

/// A march worked out: what it costs, where its path runs and how.
#[derive(Clone, Debug, PartialEq)]
pub struct MarchPlan {
    pub kind: MarchKind,
    /// The wheel's share of the cost, cm.
    pub wheel_cm: f32,
    /// The whole cost, terrain included, cm of march.
    pub cost: f32,
    /// Start and end of the move (the wheel turns in place).
    pub path: Vec<(f32, f32)>,
    /// The footprint at the end.
    pub end: OrientedRect,
}

/// The cost of turning `deg` degrees in place: the arc the outer flank
/// walks about the centre; a column turns about its head (its narrow
/// side); squares and flight squares face every way already.
pub fn wheel_cost(unit: &FsUnit, deg: f32, ctx: &FsCtx) -> f32 {
    let (w, d) = footprint(unit.moving_arm(), unit.figures, unit.formation, ctx.ba());
    let radius = match unit.formation {
        Formation::Square | Formation::Flight => return 0.0,
        Formation::Column => w.min(d) / 2.0,
        _ => w / 2.0,
    };
    radius * deg.to_radians()
}

/// Why a march (or any order) is refused, in a player's words.
pub type Refusal = String;

/// Works out a march of `u` to `(x, y)` ending facing `facing`: the wheel
/// first, then the move with the new facing. Refused off the table, into
/// ground its arm may not enter, through an enemy, or onto any unit.
/// Friends may be passed through (house default). `engine` holds the
/// footprints as filed; its broad phase finds the units near the path.
pub fn plan(
    ctx: &FsCtx,
    engine: &FsEngine,
    table: &Table,
    u: usize,
    to: (f32, f32),
    facing: f32,
    near: &mut Vec<usize>,
) -> Result<MarchPlan, Refusal> {
    let unit = &table.units[u];
    let costs = &ctx.ba().march_costs;
    let facing = facing.rem_euclid(360.0);
    let wheel_cm = wheel_cost(unit, turn_between(unit.facing, facing), ctx);
    let (dx, dy) = (to.0 - unit.x, to.1 - unit.y);
    let dist = dx.hypot(dy);
    let (kind, factor) = if dist < EPS {
        (MarchKind::InPlace, 1.0)
    } else {
        let off = turn_between(facing, bearing_of(dx, dy));
        if off <= costs.straight_degrees {
            (MarchKind::Straight, 1.0)
        } else if off <= costs.oblique_degrees {
            (MarchKind::Oblique, costs.oblique_factor)
        } else {
            (MarchKind::Sideways, costs.sideways_factor)
        }
    };
    let turned = OrientedRect { facing, ..engine.rect(u) };
    let (w, h) = ctx.table_cm();
    let arm = unit.moving_arm();
    let reduce = ctx.ba().terrain_reduction.max(0.01);
    let steps = (dist / STEP_CM).ceil().max(1.0) as usize;
    let swept = {
        let a = turned.aabb();
        (a.0 + dx.min(0.0), a.1 + dy.min(0.0), a.2 + dx.max(0.0), a.3 + dy.max(0.0))
    };
    engine.near(swept, near);
    near.retain(|&j| j != u);
    let mut cost = wheel_cm;
    let mut pts = Vec::new();
    let step_len = dist / steps as f32;
    for k in 0..=steps {
        let t = k as f32 / steps as f32;
        let r = turned.shifted(dx * t, dy * t);
        let b = r.aabb();
        if b.0 < -EPS || b.1 < -EPS || b.2 > w + EPS || b.3 > h + EPS {
            return Err("it would leave the table".into());
        }
        r.sample_points(ctx.cell_cm / 2.0, &mut pts);
        let mut slowed = false;
        for &(x, y) in &pts {
            match ctx.terrain_at(x, y) {
                Some(t) if ctx.passable(t, arm) => slowed |= ctx.ba().reducing_terrain.contains(&t),
                Some(t) => return Err(format!("{} may not enter {t:?}", arm_words(arm))),
                None => return Err("it would leave the table".into()),
            }
        }
        if k > 0 {
            cost += step_len * factor / if slowed { reduce } else { 1.0 };
        }
        let last = k == steps;
        for &j in near.iter() {
            let other = &table.units[j];
            // Friends may be passed through; enemies never (an enemy already
            // fleeing is still in the way of an ordered march).
            if (last || other.side != unit.side) && r.intersects(&engine.rect(j)) {
                let whose = if other.side == unit.side { "a friend" } else { "the enemy" };
                let what = if last { "would stand on" } else { "would march through" };
                return Err(format!("it {what} {whose}: {}", other.id));
            }
        }
    }
    Ok(MarchPlan { kind, wheel_cm, cost, path: vec![(unit.x, unit.y), to], end: turned.shifted(dx, dy) })
}

fn arm_words(arm: Arm) -> &'static str {
    match arm {
        Arm::Infantry => "foot",
        Arm::Cavalry => "horse",
        Arm::Artillery => "guns",
    }
}

/// Whether a unit in this state may take a march or formation order: units
/// in order or LU may; U may only re-form; FU stands (2.2.1).
pub fn may_march(state: State) -> Result<(), Refusal> {
    match state {
        State::Order | State::GoodOrder | State::LU => Ok(()),
        State::U | State::Disordered => Err("a unit in U may only re-form or stand".into()),
        _ => Err("a fleeing unit stands for the rest of the bound (2.2.1)".into()),
    }
}

/// The formations an arm may take by order (2.7): foot line, column,
/// square; horse line and column; guns limber instead.
pub fn formation_allowed(arm: Arm, to: Formation) -> bool {
    match arm {
        Arm::Infantry => matches!(to, Formation::Line | Formation::Column | Formation::Square),
        Arm::Cavalry => matches!(to, Formation::Line | Formation::Column),
        Arm::Artillery => false,
    }
}

/// The unit's footprint after re-forming about its centre, if there is room:
/// on open ground it may enter and clear of every other unit.
pub fn reform_room(
    ctx: &FsCtx,
    engine: &FsEngine,
    table: &Table,
    u: usize,
    to: Formation,
    near: &mut Vec<usize>,
) -> Result<OrientedRect, Refusal> {
    let unit = &table.units[u];
    let (w, d) = footprint(unit.moving_arm(), unit.figures, to, ctx.ba());
    let r = OrientedRect::new(unit.x, unit.y, w, d, unit.facing);
    match room_for(ctx, engine, table, u, &r, near) {
        Ok(()) => Ok(r),
        Err(NoRoom::Table) => Err("no room on the table to re-form".into()),
        Err(NoRoom::Ground) => Err("no room to re-form: the ground is impassable".into()),
        Err(NoRoom::Unit(j)) => Err(format!("no room to re-form: {} is in the way", table.units[j].id)),
    }
}

/// Why a rectangle has no room where it would stand ([`room_for`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoRoom {
    /// Part of it is off the table.
    Table,
    /// Part of it is on ground the unit's arm may not enter.
    Ground,
    /// It overlaps this other unit.
    Unit(usize),
}

/// Whether unit `u` would have room standing as `r` (its footprint,
/// placed and turned): on the table, on ground its arm may enter, and
/// clear of every other unit.
pub fn room_for(
    ctx: &FsCtx,
    engine: &FsEngine,
    table: &Table,
    u: usize,
    r: &OrientedRect,
    near: &mut Vec<usize>,
) -> Result<(), NoRoom> {
    let arm = table.units[u].moving_arm();
    let (tw, th) = ctx.table_cm();
    let b = r.aabb();
    if b.0 < -EPS || b.1 < -EPS || b.2 > tw + EPS || b.3 > th + EPS {
        return Err(NoRoom::Table);
    }
    let mut pts = Vec::new();
    r.sample_points(ctx.cell_cm / 2.0, &mut pts);
    if !pts.iter().all(|&(x, y)| ctx.terrain_at(x, y).is_some_and(|t| ctx.passable(t, arm))) {
        return Err(NoRoom::Ground);
    }
    engine.near(b, near);
    match near.iter().find(|&&j| j != u && r.intersects(&engine.rect(j))) {
        Some(&j) => Err(NoRoom::Unit(j)),
        None => Ok(()),
    }
}

/// Whether `target`'s centre lies in `unit`'s front arc (2.8, 2.9):
/// within `front_arc_degrees` of its facing. Squares and flight squares
/// face every way.
pub fn in_front_arc(unit: &FsUnit, target: (f32, f32), ctx: &FsCtx) -> bool {
    if matches!(unit.formation, Formation::Square | Formation::Flight) {
        return true;
    }
    let (dx, dy) = (target.0 - unit.x, target.1 - unit.y);
    dx.hypot(dy) < EPS || turn_between(unit.facing, bearing_of(dx, dy)) <= ctx.ba().march_costs.front_arc_degrees
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::belle_alliance::broad::BroadPhaseKind;
    use crate::belle_alliance::testing::{table_of, unit};

    #[test]
    fn march_lengths_come_from_the_rules_block_by_arm_and_formation() {
        let (s, _) = table_of(vec![unit("x", 0, Arm::Infantry, 150.0, 150.0, 0.0)]);
        let ctx = FsCtx::new(&s);
        let mut u = unit("a", 0, Arm::Infantry, 50.0, 50.0, 0.0);
        assert_eq!(allowance(&u, &ctx), 10.0);
        u.formation = Formation::Column;
        assert_eq!(allowance(&u, &ctx), 15.0);
        u.formation = Formation::Square;
        assert_eq!(allowance(&u, &ctx), 3.0);
        let mut g = unit("g", 0, Arm::Artillery, 50.0, 50.0, 0.0);
        assert_eq!(allowance(&g, &ctx), 2.0, "unlimbered guns are manhandled");
        g.limbered = true;
        assert_eq!(allowance(&g, &ctx), 15.0);
        g.horse = true;
        assert_eq!(allowance(&g, &ctx), 30.0);
    }

    #[test]
    fn straight_oblique_and_sideways_cost_more_in_turn_and_a_wheel_costs_the_outer_arc() {
        let (s, t) = table_of(vec![unit("a", 0, Arm::Infantry, 100.0, 100.0, 0.0)]);
        let ctx = FsCtx::new(&s);
        let e = FsEngine::new(&ctx, &t, BroadPhaseKind::Grid);
        let mut near = Vec::new();
        let p = plan(&ctx, &e, &t, 0, (100.0, 92.0), 0.0, &mut near).expect("straight ahead");
        assert_eq!(p.kind, MarchKind::Straight);
        assert!((p.cost - 8.0).abs() < 1e-3, "{p:?}");
        let p = plan(&ctx, &e, &t, 0, (104.0, 96.0), 0.0, &mut near).expect("oblique");
        assert_eq!(p.kind, MarchKind::Oblique);
        assert!((p.cost - 32f32.sqrt() * 1.25).abs() < 1e-3, "{p:?}");
        let p = plan(&ctx, &e, &t, 0, (106.0, 100.0), 0.0, &mut near).expect("sideways");
        assert_eq!(p.kind, MarchKind::Sideways);
        assert!((p.cost - 12.0).abs() < 1e-3, "{p:?}");
        // A 24-figure line is 24 cm wide: 90 degrees about its centre is a
        // quarter circle of radius 12.
        let p = plan(&ctx, &e, &t, 0, (100.0, 100.0), 90.0, &mut near).expect("wheel");
        assert!((p.wheel_cm - 12.0 * std::f32::consts::FRAC_PI_2).abs() < 1e-3, "{p:?}");
    }

    #[test]
    fn woods_halve_a_march_and_a_river_or_an_enemy_refuses_it() {
        let mut rows = vec![".".repeat(20); 20];
        rows[5] = format!("{}{}", "w".repeat(10), ".".repeat(10));
        rows[2] = "~".repeat(20);
        let (s, t) = crate::belle_alliance::testing::table_on(
            rows,
            vec![unit("a", 0, Arm::Infantry, 50.0, 66.0, 0.0), unit("e", 1, Arm::Infantry, 150.0, 60.0, 180.0)],
        );
        let ctx = FsCtx::new(&s);
        let e = FsEngine::new(&ctx, &t, BroadPhaseKind::Grid);
        let mut near = Vec::new();
        // From y 66 to 58 the 4 cm deep line enters the woods row (50..60)
        // after 4 cm: the last 4 cm count double.
        let p = plan(&ctx, &e, &t, 0, (50.0, 58.0), 0.0, &mut near).expect("into the woods");
        assert!((p.cost - 12.0).abs() < 1e-3, "{p:?}");
        let err = plan(&ctx, &e, &t, 0, (50.0, 25.0), 0.0, &mut near).expect_err("the river");
        assert!(err.contains("River"), "{err}");
        let err = plan(&ctx, &e, &t, 0, (150.0, 61.0), 0.0, &mut near).expect_err("onto the enemy");
        assert!(err.contains("the enemy: e"), "{err}");
    }

    #[test]
    fn friends_may_be_passed_through_but_not_stood_on() {
        let (s, t) = table_of(vec![
            unit("a", 0, Arm::Infantry, 100.0, 100.0, 0.0),
            unit("f", 0, Arm::Infantry, 100.0, 92.0, 0.0),
        ]);
        let ctx = FsCtx::new(&s);
        let e = FsEngine::new(&ctx, &t, BroadPhaseKind::Grid);
        let mut near = Vec::new();
        let mut a = t.units[0].clone();
        a.formation = Formation::Column;
        let mut t2 = t.clone();
        t2.units[0] = a;
        let e2 = FsEngine::new(&ctx, &t2, BroadPhaseKind::Grid);
        assert!(plan(&ctx, &e2, &t2, 0, (100.0, 85.0), 0.0, &mut near).is_ok(), "through the friend");
        let err = plan(&ctx, &e, &t, 0, (100.0, 93.0), 0.0, &mut near).expect_err("onto the friend");
        assert!(err.contains("stand on a friend"), "{err}");
    }
}
