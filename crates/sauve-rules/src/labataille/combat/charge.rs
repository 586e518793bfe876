//! Cavalry charges (docs/rules.md 1.9): where a charger may ride, the hex it
//! stops in next to its target, and the charge with its melee.

use crate::dice::Dice;
use crate::events::{Cause, EventKind, EventLog, MoveReason, Seq};
use crate::hex::{Dir, Offset};
use crate::labataille::Board;
use crate::labataille::combat::battlefield::{Battlefield, CombatError, illegal};
use crate::labataille::combat::melee::{log_attack, melee_odds, resolve_melee};
use crate::labataille::engine::Engine;
use crate::labataille::movement::{MoveQuery, MoveSearch, Reach, allowance, reach_remembered};
use crate::terrain::Arm;
use crate::vocab::State;
use crate::vocab::{Formation, Readiness};

/// Where a charger may ride on its approach: its whole allowance, and no
/// minimum move (a charge ends next to its target or not at all). The
/// answer is remembered in `search`, so that the AI's look before ordering
/// a charge and the order itself search the map once.
pub fn charge_reach(
    bf: &Battlefield,
    engine: &Engine,
    board: &Board,
    search: &mut MoveSearch,
    unit: usize,
) -> std::sync::Arc<Reach> {
    let u = &board.units[unit];
    let ctx = bf.ctx;
    let budget = allowance(ctx.rules, u.arm, bf.movement.get(unit).copied().flatten(), u.formation, u.limbered);
    let fields = engine.fresh_fields(u.side);
    let q = MoveQuery {
        grid: ctx.grid,
        rules: ctx.rules,
        occupancy: &engine.occupancy,
        board,
        unit,
        budget,
        fresh: false,
        fields,
    };
    reach_remembered(search, &q, engine.generations())
}

/// The hex a charging cavalry unit stops in next to its target, with the
/// path there: the cheapest reachable neighbour of the target.
pub fn charge_path(
    bf: &Battlefield,
    engine: &mut Engine,
    board: &Board,
    search: &mut MoveSearch,
    unit: usize,
    target: usize,
) -> Result<Vec<Offset>, CombatError> {
    let u = &board.units[unit];
    if u.arm != Arm::Cavalry {
        return Err(illegal(board, unit, "only cavalry charges"));
    }
    if u.state != State::GoodOrder {
        return Err(illegal(board, unit, "only cavalry in good order may charge"));
    }
    if u.readiness == Readiness::Exhausted {
        return Err(illegal(board, unit, "exhausted cavalry cannot charge"));
    }
    let Some(start) = u.at else { return Err(illegal(board, unit, "is not on the map")) };
    let t = &board.units[target];
    if t.side == u.side {
        return Err(illegal(board, unit, "cannot charge its own side"));
    }
    let Some(at) = t.at else { return Err(illegal(board, target, "is not on the map")) };
    if start.distance(at) == 1 {
        return Ok(vec![start]);
    }
    let ctx = bf.ctx;
    let r = charge_reach(bf, engine, board, search, unit);
    // A neighbour of the target from which the charger may cross into it.
    let best = Dir::ALL
        .iter()
        .map(|&d| (at.neighbour(d), d.opposite()))
        .filter(|&(h, back)| {
            ctx.grid.step_cost(Arm::Cavalry, ctx.grid.idx(h), back) != crate::labataille::grid::BLOCKED
        })
        .filter_map(|(h, _)| r.cost_to(h).map(|c| (c, ctx.grid.idx(h), h)))
        .min()
        .map(|(_, _, h)| h);
    match best.and_then(|h| r.path_to(ctx.grid, h)) {
        Some(path) => Ok(path),
        None => Err(illegal(board, unit, format!("cannot reach a hex next to '{}' this turn", t.id))),
    }
}

/// A cavalry charge (rule 1.9, house design): the approach, the target's
/// attempt to form square (infantry in good order in the open: a pass forms
/// square, a failure leaves it disordered where it stands), then a melee with
/// the charge bonus; the charger then loses a step of readiness.
#[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
pub fn resolve_charge(
    bf: &Battlefield,
    engine: &mut Engine,
    board: &mut Board,
    dice: &mut Dice,
    log: &mut EventLog,
    search: &mut MoveSearch,
    unit: usize,
    target: usize,
) -> Result<(), CombatError> {
    let path = charge_path(bf, engine, board, search, unit, target)?;
    if path.len() == 1 {
        melee_odds(bf, board, engine, &[unit], target, true)?;
    }
    let by = ride(bf, engine, board, dice, log, unit, target, &path);
    resolve_melee(bf, engine, board, dice, log, &[unit], target, true, &by)?;
    let u = &mut board.units[unit];
    let to = match u.readiness {
        Readiness::Fresh => Readiness::Tired,
        _ => Readiness::Exhausted,
    };
    if u.at.is_some() && u.readiness != to {
        log.push_because(EventKind::Readiness { unit: u.id.clone(), from: u.readiness, to }, &by);
        u.readiness = to;
    }
    Ok(())
}

/// A charge up to its melee (rule 1.9, house design): the order written as
/// an `Attack`, the ride along `path` to the hex of contact, and the
/// target's attempt to form square. Returns what the melee follows from.
#[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
pub fn ride(
    bf: &Battlefield,
    engine: &mut Engine,
    board: &mut Board,
    dice: &mut Dice,
    log: &mut EventLog,
    unit: usize,
    target: usize,
    path: &[Offset],
) -> Vec<Seq> {
    let ctx = bf.ctx;
    // The order is an event of its own (a root); the approach and all the
    // charge brings on follow from it.
    let attack = log_attack(board, log, &[unit], target, true);
    let mut by: Vec<Seq> = vec![attack];
    if path.len() > 1 {
        by.extend(Engine::log_move(board, log, unit, MoveReason::Charge, path, &[attack]));
        engine.relocate(ctx, board, unit, path.last().copied());
    }
    let t = &board.units[target];
    let open = t.at.is_some_and(|a| !ctx.grid.close[ctx.grid.idx(a)]);
    if t.arm == Arm::Infantry && t.state == State::GoodOrder && t.formation != Formation::Square && open {
        let modifier = ctx.rules.combat.form_square_modifier;
        let c = engine.check_with(ctx, board, dice, log, target, Cause::Charge, Some(unit), modifier, &by);
        if c.passed {
            let from = board.units[target].formation;
            board.units[target].formation = Formation::Square;
            engine.touched(board.units[target].side);
            log.push_because(
                EventKind::Formation {
                    unit: board.units[target].id.clone(),
                    from: from.into(),
                    to: Formation::Square.into(),
                },
                &[c.seq],
            );
        } else {
            engine.set_state(board, log, target, State::Disordered, Cause::Charge, &[c.seq]);
        }
    }
    by
}

/// The rout preview of a charge's `target` on the board as it will stand
/// when the melee is rolled (rules 1.3, 1.9): the charger at the end of its
/// `path`, next to the target, as the window shows it while the charge is
/// chosen. `None` when the target is off the board.
pub fn target_rout_at_contact(
    bf: &Battlefield,
    engine: &Engine,
    board: &Board,
    unit: usize,
    target: usize,
    path: &[Offset],
) -> Option<crate::labataille::rout_preview::RoutPreview> {
    let (mut probe, there) = at_contact(bf, engine, board, unit, path);
    crate::labataille::rout_preview::preview_rout(bf.ctx, &mut probe, &there, target)
}

/// Copies of the engine and the board with the charger `unit` at the end
/// of its `path` (the hex of contact), to look at what it meets there.
pub(super) fn at_contact(
    bf: &Battlefield,
    engine: &Engine,
    board: &Board,
    unit: usize,
    path: &[Offset],
) -> (Engine, Board) {
    let mut there = board.clone();
    let mut probe = engine.probe();
    if let Some(&contact) = path.last() {
        probe.relocate(bf.ctx, &mut there, unit, Some(contact));
    }
    (probe, there)
}
