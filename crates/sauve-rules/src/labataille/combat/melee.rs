//! Melee (docs/rules.md 1.9): the odds of an attack, the attack itself, the
//! defenders who surrender, and the advance after combat.

use crate::dice::{Dice, Roll};
use crate::events::{Cause, EventKind, EventLog, MeleeRolls, MoveReason, Seq};
use crate::hex::Offset;
use crate::labataille::Board;
use crate::labataille::combat::battlefield::{Battlefield, CombatError, combat_failure, illegal, two_d6_chance};
use crate::labataille::engine::{Engine, Forced};
use crate::labataille::movement::{stacked, stacking_limit};
use crate::rules::combat::MeleeResult;
use crate::terrain::{Arm, Terrain};
use crate::vocab::State;
use crate::vocab::{Formation, Readiness};

/// The melee's odds before the dice, shown to the player and used by the AI.
#[derive(Clone, Debug, PartialEq)]
pub struct MeleeOdds {
    pub attack: u32,
    pub defence: u32,
    /// Column of the melee table and its label ("3:2").
    pub column: usize,
    pub label: String,
    pub modifier: i32,
    /// Each result with its chance (after the pre-melee checks).
    pub outcomes: Vec<(MeleeResult, f32)>,
    /// Every defender is routed: they surrender without a fight.
    pub walkover: bool,
}

impl MeleeOdds {
    /// Chance the table favours the attacker.
    pub fn win_chance(&self) -> f32 {
        if self.walkover {
            return 1.0;
        }
        self.outcomes.iter().filter(|(r, _)| r.favours_attacker()).map(|(_, p)| p).sum()
    }
}

fn odds_label(ratio: f32) -> String {
    if ratio >= 1.0 {
        let r = (ratio * 2.0).floor() / 2.0;
        if r.fract() == 0.0 { format!("{}:1", r as u32) } else { format!("{}:2", (r * 2.0) as u32) }
    } else if ratio > 0.0 {
        format!("1:{}", (1.0 / ratio).ceil() as u32)
    } else {
        "0:1".into()
    }
}

/// The enemy units in the target's hex, in stack order.
fn defenders_of(board: &Board, engine: &Engine, bf: &Battlefield, target: usize) -> Vec<usize> {
    let Some(at) = board.units[target].at else { return Vec::new() };
    let side = board.units[target].side;
    engine
        .occupancy
        .at(bf.ctx.grid.idx(at))
        .iter()
        .map(|&u| u as usize)
        .filter(|&u| board.units[u].side == side && board.units[u].at.is_some())
        .collect()
}

/// Checks a melee and works out its odds (rule 1.9, house design): attackers
/// in good order, adjacent, not artillery, not in square; the defenders are
/// every unit in the target's hex.
pub fn melee_odds(
    bf: &Battlefield,
    board: &Board,
    engine: &Engine,
    attackers: &[usize],
    target: usize,
    charging: bool,
) -> Result<MeleeOdds, CombatError> {
    let t = &board.units[target];
    let Some(at) = t.at else { return Err(illegal(board, target, "is not on the map")) };
    if attackers.is_empty() {
        return Err(illegal(board, target, "nobody attacks it"));
    }
    let grid = bf.ctx.grid;
    let m = &bf.ctx.rules.combat.melee_modifiers;
    let mut modifier = 0;
    let mut attack = 0;
    let mut cavalry = false;
    let mut column_attack = false;
    for (k, &a) in attackers.iter().enumerate() {
        let u = &board.units[a];
        if attackers[..k].contains(&a) {
            return Err(illegal(board, a, "is named twice in one melee"));
        }
        if u.side == t.side {
            return Err(illegal(board, a, "cannot attack its own side"));
        }
        let Some(from) = u.at else { return Err(illegal(board, a, "is not on the map")) };
        if u.state != State::GoodOrder {
            return Err(illegal(board, a, "only units in good order may attack"));
        }
        if u.arm == Arm::Artillery {
            return Err(illegal(board, a, "artillery does not melee"));
        }
        if u.formation == Formation::Square {
            return Err(illegal(board, a, "a square cannot attack"));
        }
        let Some(dir) = from.direction_to(at) else {
            return Err(illegal(board, a, format!("is not next to '{}'", t.id)));
        };
        if grid.step_cost(u.arm, grid.idx(from), dir) == crate::labataille::grid::BLOCKED {
            return Err(illegal(board, a, "cannot cross that hexside"));
        }
        if bf.map.hexside_bits(from, dir) != 0 {
            modifier += m.across_hexside;
        }
        attack += u.strength;
        if u.arm == Arm::Cavalry {
            cavalry = true;
            modifier += match u.readiness {
                Readiness::Fresh => 0,
                Readiness::Tired => m.cavalry_tired,
                Readiness::Exhausted => m.cavalry_exhausted,
            };
        }
        column_attack |= u.arm == Arm::Infantry && u.formation == Formation::Column;
    }
    let defenders = defenders_of(board, engine, bf, target);
    let fighting: Vec<usize> = defenders.iter().copied().filter(|&d| board.units[d].state != State::Routed).collect();
    let defence: u32 = fighting.iter().map(|&d| board.units[d].strength).sum();
    let walkover = fighting.is_empty();
    if column_attack {
        modifier += m.attacker_in_column;
    }
    match bf.map.terrain(at) {
        Some(Terrain::Town | Terrain::Village) => modifier += m.defender_in_town,
        Some(Terrain::Woods | Terrain::Garden) => modifier += m.defender_in_woods,
        _ => {}
    }
    let top = fighting.first().map(|&d| &board.units[d]);
    if fighting.iter().any(|&d| board.units[d].state == State::Disordered) {
        modifier += m.defender_disordered;
    }
    if top.is_some_and(|d| d.arm == Arm::Artillery) {
        modifier += m.defender_artillery;
    }
    if cavalry {
        if fighting.iter().any(|&d| board.units[d].formation == Formation::Square) {
            modifier += m.cavalry_against_square;
        } else if charging {
            modifier += m.cavalry_charging;
        }
    }
    let ratio = if defence == 0 { f32::INFINITY } else { attack as f32 / defence as f32 };
    let c = &bf.ctx.rules.combat;
    let column = c.melee_column(ratio);
    let label = if walkover { "walkover".into() } else { odds_label(ratio.min(99.0)) };
    let mut outcomes: Vec<(MeleeResult, f32)> = Vec::new();
    for roll in 2..=12 {
        let total = (roll + modifier).clamp(2, 12);
        let Some(&r) = bf.tables.melee.get(total as usize - 2).and_then(|row| row.get(column)) else { continue };
        match outcomes.iter_mut().find(|(x, _)| *x == r) {
            Some((_, p)) => *p += two_d6_chance(roll),
            None => outcomes.push((r, two_d6_chance(roll))),
        }
    }
    Ok(MeleeOdds { attack, defence, column, label, modifier, outcomes, walkover })
}

/// An order to attack (rule 1.9): checked, written as an `Attack` event of
/// its own (a root: an order's), then resolved; the attack's checks, the
/// melee and what follows follow from it.
pub fn order_melee(
    bf: &Battlefield,
    engine: &mut Engine,
    board: &mut Board,
    dice: &mut Dice,
    log: &mut EventLog,
    attackers: &[usize],
    target: usize,
) -> Result<(), CombatError> {
    melee_odds(bf, board, engine, attackers, target, false)?;
    let attack = log_attack(board, log, attackers, target, false);
    resolve_melee(bf, engine, board, dice, log, attackers, target, false, &[attack])
}

/// Writes the order to attack `target` with `attackers` (a charge, or an
/// order to melee) and returns its `seq`.
pub fn log_attack(board: &Board, log: &mut EventLog, attackers: &[usize], target: usize, charge: bool) -> Seq {
    log.push(EventKind::Attack {
        attackers: attackers.iter().map(|&a| board.units[a].id.clone()).collect(),
        target: board.units[target].id.clone(),
        charge,
    })
}

/// What the checks before a melee leave: a melee to roll, or none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prepared {
    /// The attackers still in good order against the defenders still in
    /// the hex and not routed (the first of them the target).
    Fight { attackers: Vec<usize>, defenders: Vec<usize> },
    /// No defender was left to fight (routed ones surrendered, the rest
    /// failed their checks and left): the attackers took the hex.
    Cleared,
    /// No attacker was left in good order to go in.
    CalledOff,
}

/// Resolves a melee: routed defenders surrender; attackers and then
/// defenders make their pre-melee checks; the survivors roll on the table;
/// the lead attacker advances into an emptied hex. `by`: what brought the
/// melee on (the order to attack, and a charge's approach), which the
/// checks before the melee follow from.
#[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
pub fn resolve_melee(
    bf: &Battlefield,
    engine: &mut Engine,
    board: &mut Board,
    dice: &mut Dice,
    log: &mut EventLog,
    attackers: &[usize],
    target: usize,
    charging: bool,
    by: &[Seq],
) -> Result<(), CombatError> {
    let Some(hex) = board.units.get(target).and_then(|t| t.at) else {
        melee_odds(bf, board, engine, attackers, target, charging)?;
        return Ok(());
    };
    match prepare_melee(bf, engine, board, dice, log, attackers, target, charging, by)? {
        Prepared::Fight { attackers, defenders } => {
            roll_melee(bf, engine, board, dice, log, &attackers, &defenders, hex, charging, by)
        }
        Prepared::Cleared | Prepared::CalledOff => Ok(()),
    }
}

/// Everything of a melee before its table roll (rule 1.9 and the house's
/// pre-melee checks): routed defenders surrender; the attackers check (not
/// when charging: a charge is committed), a failure dropping out; the
/// defenders in good order check, a failure leaving; the forced moves run.
/// An attack that no longer has both sides ends here, the attackers
/// advancing into an emptied hex.
#[allow(clippy::too_many_arguments)] // as `resolve_melee`
pub fn prepare_melee(
    bf: &Battlefield,
    engine: &mut Engine,
    board: &mut Board,
    dice: &mut Dice,
    log: &mut EventLog,
    attackers: &[usize],
    target: usize,
    charging: bool,
    by: &[Seq],
) -> Result<Prepared, CombatError> {
    melee_odds(bf, board, engine, attackers, target, charging)?;
    let ctx = bf.ctx;
    let Some(hex) = board.units[target].at else { return Ok(Prepared::CalledOff) };
    for &a in attackers {
        board.units[a].rested = false;
    }
    let defenders = defenders_of(board, engine, bf, target);
    // Routed units caught in melee surrender (La Bataille).
    for &d in &defenders {
        if board.units[d].state == State::Routed {
            surrender(bf, engine, board, log, d, by);
        }
    }
    if defenders.iter().all(|&d| board.units[d].at != Some(hex)) {
        advance(bf, engine, board, log, attackers, hex, by);
        return Ok(Prepared::Cleared);
    }
    // Pre-melee checks: attackers first (a charge is already committed),
    // then the defenders; failures drop out.
    let mut fighting_attackers = Vec::new();
    for &a in attackers {
        let c = (!charging).then(|| engine.check(ctx, board, dice, log, a, Cause::Melee, Some(target), by));
        match c {
            Some(c) if !c.passed => {
                // A failed attacker falls into disorder where it stands
                // (cavalry routs, rule 1.2).
                if board.units[a].arm == Arm::Cavalry {
                    combat_failure(engine, board, log, a, Cause::Melee, &[c.seq]);
                } else {
                    engine.set_state(board, log, a, State::Disordered, Cause::Melee, &[c.seq]);
                }
            }
            _ => fighting_attackers.push(a),
        }
    }
    if fighting_attackers.is_empty() {
        engine.resolve(ctx, board, dice, log);
        return Ok(Prepared::CalledOff);
    }
    for &d in &defenders {
        let u = &board.units[d];
        if u.at != Some(hex) || u.state != State::GoodOrder {
            continue;
        }
        let c = engine.check(ctx, board, dice, log, d, Cause::Melee, fighting_attackers.first().copied(), by);
        if !c.passed {
            combat_failure(engine, board, log, d, Cause::Melee, &[c.seq]);
        }
    }
    engine.resolve(ctx, board, dice, log);
    let still: Vec<usize> = defenders
        .iter()
        .copied()
        .filter(|&d| board.units[d].at == Some(hex) && board.units[d].state != State::Routed)
        .collect();
    let attackers: Vec<usize> = fighting_attackers
        .into_iter()
        .filter(|&a| board.units[a].at.is_some() && board.units[a].state == State::GoodOrder)
        .collect();
    if !still.is_empty() && !attackers.is_empty() {
        return Ok(Prepared::Fight { attackers, defenders: still });
    }
    advance(bf, engine, board, log, &attackers, hex, by);
    Ok(if attackers.is_empty() { Prepared::CalledOff } else { Prepared::Cleared })
}

/// The melee's roll on the table and its result (rule 1.9), then the
/// advance into an emptied hex.
#[allow(clippy::too_many_arguments)] // as `resolve_melee`
fn roll_melee(
    bf: &Battlefield,
    engine: &mut Engine,
    board: &mut Board,
    dice: &mut Dice,
    log: &mut EventLog,
    attackers: &[usize],
    still: &[usize],
    hex: Offset,
    charging: bool,
    by: &[Seq],
) -> Result<(), CombatError> {
    let ctx = bf.ctx;
    let attackers = attackers.to_vec();
    {
        let target = still[0];
        let odds = melee_odds(bf, board, engine, &attackers, target, charging)?;
        let d = dice.d66_for(target, Roll::MeleeAt);
        let roll = (d.tens + d.units) as i32;
        let total = (roll + odds.modifier).clamp(2, 12);
        let result = bf
            .tables
            .melee
            .get(total as usize - 2)
            .and_then(|row| row.get(odds.column))
            .copied()
            .unwrap_or(MeleeResult::AR);
        let fought = log.push_because(
            EventKind::Melee {
                attackers: attackers.iter().map(|&a| board.units[a].id.clone()).collect(),
                defenders: still.iter().map(|&d| board.units[d].id.clone()).collect(),
                rolls: MeleeRolls::Hex {
                    odds: odds.label.clone(),
                    roll: d.value(),
                    modifier: odds.modifier,
                    total: roll + odds.modifier,
                    result,
                },
            },
            by,
        );
        let after = [fought];
        let lead = attackers[0];
        match result {
            MeleeResult::AR => {
                for &a in &attackers {
                    let c = engine.check(ctx, board, dice, log, a, Cause::Melee, Some(target), &after);
                    if !c.passed {
                        combat_failure(engine, board, log, a, Cause::Melee, &[c.seq]);
                    }
                }
            }
            MeleeResult::AD => {
                engine.lose(ctx, board, log, lead, 1, &after);
                for &a in &attackers {
                    if board.units[a].at.is_some() {
                        combat_failure(engine, board, log, a, Cause::Melee, &after);
                    }
                }
            }
            MeleeResult::EX => {
                engine.lose(ctx, board, log, lead, 1, &after);
                engine.lose(ctx, board, log, target, 1, &after);
                for &d in still {
                    if board.units[d].at.is_none() {
                        continue;
                    }
                    let c = engine.check(ctx, board, dice, log, d, Cause::Melee, Some(lead), &after);
                    if !c.passed {
                        combat_failure(engine, board, log, d, Cause::Melee, &[c.seq]);
                    }
                }
            }
            MeleeResult::DR | MeleeResult::DD => {
                if result == MeleeResult::DD {
                    engine.lose(ctx, board, log, target, 1, &after);
                }
                for &d in still {
                    if board.units[d].at.is_some() {
                        combat_failure(engine, board, log, d, Cause::Melee, &after);
                    }
                }
            }
            MeleeResult::DX => {
                engine.lose(ctx, board, log, target, 1, &after);
                for &d in still {
                    if board.units[d].at.is_some() && board.units[d].state != State::Routed {
                        let changed = engine.set_state(board, log, d, State::Routed, Cause::Melee, &after);
                        engine.push(d, Forced::Rout, changed);
                    }
                }
            }
            MeleeResult::DS => {
                for &d in still {
                    surrender(bf, engine, board, log, d, &after);
                }
            }
        }
        engine.resolve(ctx, board, dice, log);
        advance(bf, engine, board, log, &attackers, hex, &after);
    }
    Ok(())
}

/// `by`: the melee result, or what brought on the attack.
fn surrender(bf: &Battlefield, engine: &mut Engine, board: &mut Board, log: &mut EventLog, unit: usize, by: &[Seq]) {
    engine.relocate(bf.ctx, board, unit, None);
    board.units[unit].state = State::Surrendered;
    log.push_because(EventKind::Surrendered { unit: board.units[unit].id.clone() }, by);
}

/// Advance after combat: if the defenders' hex is empty of enemies, the
/// first attacker still in good order moves into it (stacking allowing).
fn advance(
    bf: &Battlefield,
    engine: &mut Engine,
    board: &mut Board,
    log: &mut EventLog,
    attackers: &[usize],
    hex: Offset,
    by: &[Seq],
) {
    let grid = bf.ctx.grid;
    let cell = grid.idx(hex);
    let Some(&lead) =
        attackers.iter().find(|&&a| board.units[a].state == State::GoodOrder && board.units[a].at.is_some())
    else {
        return;
    };
    let side = board.units[lead].side;
    if engine.occupancy.at(cell).iter().any(|&u| board.units[u as usize].side != side) {
        return;
    }
    if !grid.can_stand(board.units[lead].arm, cell)
        || stacked(board, &engine.occupancy, cell, side, lead) + board.units[lead].strength
            > stacking_limit(bf.ctx.rules, grid, cell)
    {
        return;
    }
    let Some(from) = board.units[lead].at else { return };
    Engine::log_move(board, log, lead, MoveReason::Advance, &[from, hex], by);
    engine.relocate(bf.ctx, board, lead, Some(hex));
}
