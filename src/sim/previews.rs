//! What the window shows before an order is given, from the rules, nothing
//! changed: in hex mode a unit's reach and movement left, its rout, a
//! volley's and an attack's odds, a charge's approach, odds and its
//! target's rout at contact; on a table a unit's flight, a march's cost, a
//! volley's, a melee's and a charge's odds. Each mode's previews side by side, the hex
//! ones first.

use bevy::prelude::*;

use super::free_space::with_bound;
use super::play::with_orders;
use crate::labataille::orders::OrderError;

// ---------------------------------------------------------------------------
// Hex mode.
// ---------------------------------------------------------------------------

/// Where a reachable hex costs: the movement range of a unit now, for the
/// window's overlay and path preview.
pub fn movement_range(world: &mut World, unit: usize) -> crate::labataille::movement::Reach {
    with_orders(world, |o, engine, board, _, _, _| {
        if unit < board.units.len() { (*o.reach(engine, board, unit)).clone() } else { Default::default() }
    })
}

/// Where a unit would run if it routed now, and the friends it would shake
/// with their chances to fail contagion, on the board as it stands
/// ([`crate::labataille::rout_preview::preview_rout`]): no dice rolled,
/// nothing moved. `None` off the board, or outside hex mode.
pub fn rout_preview(world: &mut World, unit: usize) -> Option<crate::labataille::rout_preview::RoutPreview> {
    let hex = world.get_resource::<super::battle::Battle>().is_some_and(|b| b.scenario.mode == crate::vocab::Mode::Hex);
    if !hex {
        return None;
    }
    with_orders(world, |o, engine, board, _, _, _| {
        crate::labataille::rout_preview::preview_rout(o.bf.ctx, engine, board, unit)
    })
}

/// The rout preview of a charge's target on the board at contact: the
/// charger `unit` at the end of the approach it would ride, next to the
/// target, where it stands when the melee is rolled
/// ([`crate::labataille::combat::target_rout_at_contact`]). A charge that
/// cannot be made shows the board as it stands.
pub fn charge_target_rout(
    world: &mut World,
    unit: usize,
    target: usize,
) -> Option<crate::labataille::rout_preview::RoutPreview> {
    let hex = world.get_resource::<super::battle::Battle>().is_some_and(|b| b.scenario.mode == crate::vocab::Mode::Hex);
    if !hex {
        return None;
    }
    with_orders(world, |o, engine, board, _, _, _| {
        if unit >= board.units.len() || target >= board.units.len() {
            return None;
        }
        match crate::labataille::combat::charge_path(o.bf, engine, board, o.search, unit, target) {
            Ok(path) => crate::labataille::combat::target_rout_at_contact(o.bf, engine, board, unit, target, &path),
            Err(_) => crate::labataille::rout_preview::preview_rout(o.bf.ctx, engine, board, target),
        }
    })
}

/// Movement points (hundredths) a unit has left in this turn's movement.
pub fn mp_left(world: &mut World, unit: usize) -> u32 {
    with_orders(world, |o, _, board, _, _, _| if unit < board.units.len() { o.budget(board, unit) } else { 0 })
}

/// The odds of a volley, shown before the player commits.
pub fn fire_odds(
    world: &mut World,
    firers: &[usize],
    target: usize,
) -> Result<crate::labataille::combat::FireOdds, OrderError> {
    with_orders(world, |o, engine, board, _, _, _| {
        crate::labataille::combat::fire_odds(o.bf, board, engine, firers, target).map_err(OrderError::from)
    })
}

/// The approach of a charge, shown before the player commits: every hex
/// from the charger to where it stops next to its target (only its own
/// hex when it stands next to it already), as the charge would ride it.
pub fn charge_path(world: &mut World, unit: usize, target: usize) -> Result<Vec<crate::hex::Offset>, OrderError> {
    with_orders(world, |o, engine, board, _, _, _| {
        for i in [unit, target] {
            if i >= board.units.len() {
                return Err(OrderError::UnknownUnit(format!("#{i}")));
            }
        }
        crate::labataille::combat::charge_path(o.bf, engine, board, o.search, unit, target).map_err(OrderError::from)
    })
}

/// The odds of an order to attack, every die counted (the attackers' own
/// checks, the defenders', the table: [`crate::labataille::combat::attack_odds`]),
/// shown before the player commits.
pub fn attack_odds(
    world: &mut World,
    attackers: &[usize],
    target: usize,
) -> Result<crate::labataille::combat::AttackOdds, OrderError> {
    with_orders(world, |o, engine, board, _, _, _| {
        if let Some(&bad) = attackers.iter().chain([&target]).find(|&&i| i >= board.units.len()) {
            return Err(OrderError::UnknownUnit(format!("#{bad}")));
        }
        crate::labataille::combat::attack_odds(o.bf, engine, board, attackers, target).map_err(OrderError::from)
    })
}

/// A charge before it rides: the approach it would ride and its odds at
/// the hex of contact, every die counted (the target's square, its check,
/// the table: [`crate::labataille::combat::charge_odds`]).
pub fn charge_odds(
    world: &mut World,
    unit: usize,
    target: usize,
) -> Result<(Vec<crate::hex::Offset>, crate::labataille::combat::AttackOdds), OrderError> {
    with_orders(world, |o, engine, board, _, _, _| {
        for i in [unit, target] {
            if i >= board.units.len() {
                return Err(OrderError::UnknownUnit(format!("#{i}")));
            }
        }
        let path = crate::labataille::combat::charge_path(o.bf, engine, board, o.search, unit, target)?;
        let odds = crate::labataille::combat::charge_odds(o.bf, engine, board, unit, target, &path)?;
        Ok((path, odds))
    })
}

// ---------------------------------------------------------------------------
// Free space.
// ---------------------------------------------------------------------------

/// What a march of `unit` to `to` facing `facing` would cost, with the
/// march it has left, or why it may not go there: the rules' own check,
/// nothing changed (the window's drag preview).
pub fn fs_march_preview(world: &mut World, unit: usize, to: (f32, f32), facing: f32) -> Result<(f32, f32), String> {
    with_bound(world, |b, _, _| {
        if unit >= b.table.units.len() {
            return Err("no such unit".to_owned());
        }
        crate::belle_alliance::march::may_march(b.table.units[unit].state)?;
        let left = b.play.march_left(b.ctx, b.table, unit);
        let mut near = Vec::new();
        let plan = crate::belle_alliance::march::plan(b.ctx, b.engine, b.table, unit, to, facing, &mut near)?;
        if plan.cost > left + 1e-3 {
            return Err(format!("the march costs {:.1} cm and {left:.1} cm are left", plan.cost));
        }
        Ok((plan.cost, left))
    })
}

/// Where a unit on the table would flee if it fled now, from the nearest
/// enemy not fleeing, and the friends it would meet with their chances to
/// be carried along ([`crate::belle_alliance::flight_preview::flight_preview`]):
/// no dice rolled, nothing moved. `None` off the table, or outside free
/// space.
pub fn fs_flight_preview(
    world: &mut World,
    unit: usize,
) -> Option<crate::belle_alliance::flight_preview::FlightPreview> {
    let scenario = world
        .get_resource::<super::battle::Battle>()
        .filter(|b| b.scenario.mode == crate::vocab::Mode::FreeSpace)?
        .scenario
        .clone();
    super::view::table_scope(world, |_, table| {
        let ctx = crate::belle_alliance::FsCtx::new(&scenario);
        crate::belle_alliance::flight_preview::flight_preview(&ctx, table, unit, None)
    })
    .flatten()
}

/// The odds of a volley of `firers` at `target` before it is fired.
#[derive(Clone, Debug, PartialEq)]
pub struct FsFireOdds {
    /// The volley: its points and modifier.
    pub volley: crate::belle_alliance::combat::Volley,
    /// The chance of no effect, and of each row of the fire table.
    pub none: f32,
    pub rows: Vec<f32>,
    /// The chance the target is left fleeing, both its dice counted: the
    /// table's row, then the valour tests its losses demand (docs/rules.md
    /// 2.10).
    pub flees: f32,
}

/// The odds of a volley of `firers` at `target` before it is fired: the
/// volley (points, modifier), the chance of no effect and of each row of
/// the fire table, and of the target fleeing.
pub fn fs_fire_odds(world: &mut World, firers: &[usize], target: usize) -> Result<FsFireOdds, String> {
    use crate::belle_alliance::combat;
    with_bound(world, |b, _, _| {
        let volley = combat::volley(b.ctx, b.engine, b.table, firers, target)?;
        let table = &b.ctx.ba().fire.results;
        let (none, rows) = combat::odds(table, volley.modifier);
        let flees = combat::fire_flight(b.ctx, b.table, target, volley.modifier);
        Ok(FsFireOdds { volley, none, rows, flees })
    })
}

/// The odds of a charge of `unit` at `target` with every die in them: the
/// target's square test, then the melee from where the charge makes
/// contact ([`crate::belle_alliance::play::charge_odds`]).
pub fn fs_charge_odds(
    world: &mut World,
    unit: usize,
    target: usize,
) -> Result<crate::belle_alliance::play::ChargeOdds, String> {
    with_bound(world, |b, _, _| crate::belle_alliance::play::charge_odds(b, unit, target))
}

/// The odds of a melee before it is fought.
#[derive(Clone, Debug, PartialEq)]
pub struct FsMeleeOdds {
    /// Both sides' modifiers and the aspect.
    pub fight: crate::belle_alliance::combat::Fight,
    /// The chances the target loses, a draw, the attacker loses.
    pub win: f32,
    pub draw: f32,
    pub lose: f32,
    /// The chances the target and the lead attacker are left fleeing, the
    /// valour tests of their losses counted.
    pub target_flees: f32,
    pub attacker_flees: f32,
}

/// The odds of a melee of `attackers` at `target` (a charge of the first
/// attacker, from where it would make contact, when `charge`): both sides'
/// modifiers and the chances the target loses, a draw, the attacker loses;
/// then the chances the target and the lead attacker are left fleeing, the
/// valour tests of their losses counted.
pub fn fs_melee_odds(
    world: &mut World,
    attackers: &[usize],
    target: usize,
    charge: bool,
) -> Result<FsMeleeOdds, String> {
    with_bound(world, |b, _, _| {
        let fight = if charge {
            let &u = attackers.first().ok_or("nobody charges")?;
            crate::belle_alliance::play::charge_fight(b, u, target)?
        } else {
            crate::belle_alliance::combat::fight(b.ctx, b.engine, b.table, attackers, target, false)?
        };
        let (win, draw, lose) = crate::belle_alliance::combat::fight_odds(&fight, &b.ctx.ba().melee.results);
        let &lead = attackers.first().ok_or("nobody attacks")?;
        let (target_flees, attacker_flees) =
            crate::belle_alliance::combat::fight_flight(b.ctx, b.table, &fight, lead, target);
        Ok(FsMeleeOdds { fight, win, draw, lose, target_flees, attacker_flees })
    })
}
