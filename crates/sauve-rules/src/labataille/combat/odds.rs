//! The whole odds of an attack (rule 1.9 and the house's pre-melee checks,
//! docs/rules.md 1.9): every die the attack rolls before the melee table,
//! counted, then the table's results. The attackers' own checks, the
//! defenders', a charged battalion's square and whatever the forced moves
//! between them roll (a failed horse's rout and the contagion it spreads)
//! are played by the real rules on a copy of the board, once for each way
//! each check can go; the table is then read for whoever is left to fight.
//! The window, the AI and `sauve odds` all ask this one function.

use crate::dice::{D66, Dice, morale_check};
use crate::events::{Cause, EventKind, EventLog};
use crate::hex::Offset;
use crate::labataille::Board;
use crate::labataille::combat::battlefield::{Battlefield, CombatError, illegal};
use crate::labataille::combat::charge::ride;
use crate::labataille::combat::melee::{MeleeOdds, Prepared, melee_odds, prepare_melee};
use crate::labataille::engine::Engine;
use crate::labataille::probe::Probe;
use crate::rules::combat::MeleeResult;

/// One check an attack may demand, and its chances.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckOdds {
    pub unit: usize,
    /// Why it checks: `Melee` before the melee, `Charge` for a square, or
    /// what a forced move brought on (`Contagion`).
    pub cause: Cause,
    /// Chance the check is rolled at all (a defender checks only if some
    /// attacker passed; a contagion check only if someone routed by it).
    pub rolled: f32,
    /// Chance it passes, when rolled.
    pub passes: f32,
}

/// The odds of an attack with every die in them.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackOdds {
    /// The table as it reads before any check: the odds column, modifier
    /// and results if every unit passed (what the odds said before).
    pub table: MeleeOdds,
    /// Every check the attack may roll before the melee, in the order
    /// first rolled.
    pub checks: Vec<CheckOdds>,
    /// Chance the melee table is rolled at all.
    pub goes_in: f32,
    /// Chance no defender is left to fight it (routed ones surrender, the
    /// rest fail their checks and leave): the attackers take the hex.
    pub cleared: f32,
    /// Chance the attack is called off: no attacker is left in good order.
    pub called_off: f32,
    /// Each table result with its chance, all dice counted (the chances
    /// add up to `goes_in`).
    pub outcomes: Vec<(MeleeResult, f32)>,
}

impl AttackOdds {
    /// Chance the attack ends in the attackers' favour: the hex cleared
    /// before the table, or a result that favours them.
    pub fn win_chance(&self) -> f32 {
        self.cleared + self.outcomes.iter().filter(|(r, _)| r.favours_attacker()).map(|(_, p)| p).sum::<f32>()
    }

    /// Chance the table goes against the attackers (repulsed or driven
    /// off), all dice counted.
    pub fn lose_chance(&self) -> f32 {
        self.outcomes.iter().filter(|(r, _)| r.favours_defender()).map(|(_, p)| p).sum()
    }

    /// The chance of one table result, all dice counted.
    pub fn chance_of(&self, result: MeleeResult) -> f32 {
        self.outcomes.iter().filter(|(r, _)| *r == result).map(|(_, p)| p).sum()
    }

    /// The check of `unit` for `cause`, if the attack may roll one.
    pub fn check_of(&self, unit: usize, cause: Cause) -> Option<&CheckOdds> {
        self.checks.iter().find(|c| c.unit == unit && c.cause == cause)
    }

    /// How many checks the units of `side` (on `board`) are expected to
    /// fail in the attack: each check's chance of being rolled and failed,
    /// summed (its attackers' pre-melee checks, contagion inside the fight).
    pub fn expected_failures(&self, board: &Board, side: usize) -> f32 {
        self.checks
            .iter()
            .filter(|c| board.units.get(c.unit).is_some_and(|u| u.side == side))
            .map(|c| c.rolled * (1.0 - c.passes))
            .sum()
    }
}

/// The odds of an order to attack `target` with `attackers` (rule 1.9),
/// every die counted: each attacker's own pre-melee check, the defenders',
/// what their failures bring on, then the table for those left.
pub fn attack_odds(
    bf: &Battlefield,
    engine: &Engine,
    board: &Board,
    attackers: &[usize],
    target: usize,
) -> Result<AttackOdds, CombatError> {
    attack_odds_on(bf, &mut Probe::new(engine, board), attackers, target)
}

/// [`attack_odds`] played on `probe`, a copy of the engine and the board
/// that the caller may weigh several attacks on.
pub fn attack_odds_on(
    bf: &Battlefield,
    probe: &mut Probe,
    attackers: &[usize],
    target: usize,
) -> Result<AttackOdds, CombatError> {
    let (engine, board) = probe.original();
    let table = melee_odds(bf, board, engine, attackers, target, false)?;
    let involved = in_the_fight(engine, bf, board, attackers, target);
    Ok(count(bf, probe, table, &involved, false, &|bf, engine, board, dice, log| {
        prepare_melee(bf, engine, board, dice, log, attackers, target, false, &[])
    }))
}

/// The odds of a charge of `unit` at `target` riding `path` (its
/// `charge_path`, rule 1.9), worked out at the hex of contact: the target's
/// square, its pre-melee check, then the table with the charge's bonus.
pub fn charge_odds(
    bf: &Battlefield,
    engine: &Engine,
    board: &Board,
    unit: usize,
    target: usize,
    path: &[Offset],
) -> Result<AttackOdds, CombatError> {
    charge_odds_on(bf, &mut Probe::new(engine, board), unit, target, path)
}

/// [`charge_odds`] played on `probe` (see [`attack_odds_on`]).
pub fn charge_odds_on(
    bf: &Battlefield,
    probe: &mut Probe,
    unit: usize,
    target: usize,
    path: &[Offset],
) -> Result<AttackOdds, CombatError> {
    let (engine, board) = probe.original();
    let Some(&contact) = path.last() else {
        return Err(illegal(board, unit, "has no way to its target"));
    };
    // The table as it reads from the hex of contact, before any check.
    let table = {
        let (moved, there) = probe.fresh();
        moved.relocate(bf.ctx, there, unit, Some(contact));
        melee_odds(bf, there, moved, &[unit], target, true)?
    };
    let involved = in_the_fight(engine, bf, board, &[unit], target);
    Ok(count(bf, probe, table, &involved, true, &|bf, engine, board, dice, log| {
        let by = ride(bf, engine, board, dice, log, unit, target, path);
        prepare_melee(bf, engine, board, dice, log, &[unit], target, true, &by)
    }))
}

/// The most ways the checks of one attack are split into.
const MAX_WAYS: usize = 256;

/// The attackers and every unit in the target's hex.
fn in_the_fight(engine: &Engine, bf: &Battlefield, board: &Board, attackers: &[usize], target: usize) -> Vec<usize> {
    let mut v = attackers.to_vec();
    if let Some(at) = board.units[target].at {
        v.extend(engine.occupancy.at(bf.ctx.grid.idx(at)).iter().map(|&u| u as usize));
    }
    v.push(target);
    v
}

/// What plays an attack up to its table on a copy.
type Prelude<'p> =
    dyn Fn(&Battlefield, &mut Engine, &mut Board, &mut Dice, &mut EventLog) -> Result<Prepared, CombatError> + 'p;

/// One way the checks went: the rolls that make it, and its chance.
struct Branch {
    script: Vec<u32>,
    chance: f64,
}

/// Plays `prelude` on copies of the board for every way its checks can
/// go, each check's rolls grouped by whether they pass (all that matters
/// of a check), and sums the table's odds of each way. The checks of the
/// units in the fight (`involved`: the attackers and every unit in the
/// target's hex) are split both ways; a check of anyone else that the
/// forced moves bring on (contagion far from the fight) is taken to go its
/// likelier way, so that a long cascade elsewhere cannot multiply the
/// ways without end. Past `MAX_WAYS` ways, every check goes its likelier way.
fn count(
    bf: &Battlefield,
    probe: &mut Probe,
    table: MeleeOdds,
    involved: &[usize],
    charging: bool,
    prelude: &Prelude,
) -> AttackOdds {
    let mut out =
        AttackOdds { table, checks: Vec::new(), goes_in: 0.0, cleared: 0.0, called_off: 0.0, outcomes: Vec::new() };
    // Per check (unit, cause): the chance it is rolled and that it passes.
    let mut tally: Vec<(usize, Cause, f64, f64)> = Vec::new();
    let mut outcomes: Vec<(MeleeResult, f64)> = Vec::new();
    let (mut goes_in, mut cleared, mut called_off) = (0.0f64, 0.0f64, 0.0f64);
    let mut todo = vec![Branch { script: Vec::new(), chance: 1.0 }];
    let mut ways_made = 0usize;
    while let Some(b) = todo.pop() {
        // Each way on the copy restored.
        let (e, board) = probe.fresh();
        let mut log = EventLog::default();
        // The checks of anyone not in the fight go their likelier way as
        // they come, without a way of their own.
        let mut dice = Dice::new(0, b.script.clone()).likelier_but(involved.to_vec());
        let Ok(prepared) = prelude(bf, e, board, &mut dice, &mut log) else { continue };
        if dice.rolled_to_script() > b.script.len() as u64 {
            // A roll beyond this branch's: split on how it goes. Before a
            // melee's table only morale checks roll.
            let ours = |kind: &EventKind| match kind {
                EventKind::MoraleCheck { unit, .. } => involved.iter().any(|&u| &board.units[u].id == unit),
                _ => false,
            };
            let check = log.events.iter().filter(|e| ours(&e.kind)).nth(b.script.len());
            let mut ways = splits(bf, check.map(|e| &e.kind));
            if ways_made >= MAX_WAYS && ways.len() > 1 {
                // The likelier way alone, with all the chance.
                ways.sort_by(|a, b| b.1.total_cmp(&a.1));
                ways.truncate(1);
                ways[0].1 = 1.0;
            }
            ways_made += ways.len() - 1;
            for (roll, p) in ways {
                let mut script = b.script.clone();
                script.push(roll);
                todo.push(Branch { script, chance: b.chance * p });
            }
            continue;
        }
        for ev in &log.events {
            if let EventKind::MoraleCheck { unit, cause, passed, .. } = &ev.kind
                && let Some(u) = board.units.iter().position(|x| &x.id == unit)
            {
                match tally.iter_mut().find(|t| t.0 == u && t.1 == *cause) {
                    Some(t) => {
                        t.2 += b.chance;
                        t.3 += if *passed { b.chance } else { 0.0 };
                    }
                    None => tally.push((u, *cause, b.chance, if *passed { b.chance } else { 0.0 })),
                }
            }
        }
        match prepared {
            Prepared::Fight { attackers, defenders } => {
                match melee_odds(bf, board, e, &attackers, defenders[0], charging) {
                    Ok(o) => {
                        goes_in += b.chance;
                        for (r, p) in o.outcomes {
                            let w = b.chance * f64::from(p);
                            match outcomes.iter_mut().find(|(x, _)| *x == r) {
                                Some((_, q)) => *q += w,
                                None => outcomes.push((r, w)),
                            }
                        }
                    }
                    // Cannot happen for a prepared fight; count it as called off.
                    Err(_) => called_off += b.chance,
                }
            }
            Prepared::Cleared => cleared += b.chance,
            Prepared::CalledOff => called_off += b.chance,
        }
    }
    // Checks in the order first met, each way's in the order it rolls them.
    out.checks = tally
        .into_iter()
        .map(|(unit, cause, rolled, passed)| CheckOdds {
            unit,
            cause,
            rolled: rolled as f32,
            passes: if rolled > 0.0 { (passed / rolled) as f32 } else { 0.0 },
        })
        .collect();
    out.goes_in = goes_in as f32;
    out.cleared = cleared as f32;
    out.called_off = called_off as f32;
    outcomes.sort_by_key(|(r, _)| *r as u8);
    out.outcomes = outcomes.into_iter().map(|(r, p)| (r, p as f32)).collect();
    out
}

/// The ways a roll can go that matter, each as one roll that makes it and
/// its chance: a morale check passes or fails (docs/rules.md 1.1, natural
/// extremes as the rules say); any other roll, each of the 36 d66 results.
fn splits(bf: &Battlefield, kind: Option<&EventKind>) -> Vec<(u32, f64)> {
    let all: Vec<D66> = (1..=6).flat_map(|t| (1..=6).map(move |u| D66 { tens: t, units: u })).collect();
    match kind {
        Some(EventKind::MoraleCheck { morale, modifier, .. }) => {
            let ne = bf.ctx.rules.natural_extremes;
            let pass: Vec<&D66> = all.iter().filter(|&&r| morale_check(*morale, *modifier, r, ne).passed).collect();
            let fail: Vec<&D66> = all.iter().filter(|&&r| !morale_check(*morale, *modifier, r, ne).passed).collect();
            let mut out = Vec::new();
            if let Some(r) = pass.first() {
                out.push((u32::from(r.value()), pass.len() as f64 / 36.0));
            }
            if let Some(r) = fail.first() {
                out.push((u32::from(r.value()), fail.len() as f64 / 36.0));
            }
            out
        }
        _ => all.iter().map(|r| (u32::from(r.value()), 1.0 / 36.0)).collect(),
    }
}
