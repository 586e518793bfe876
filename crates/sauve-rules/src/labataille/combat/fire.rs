//! Fire (docs/rules.md 1.9): the odds of a volley, what stands in the line of
//! sight, and the volley itself.

use crate::dice::{Dice, Roll, pass_chance};
use crate::events::{Cause, EventKind, EventLog, FireRoll};
use crate::hex::Offset;
use crate::labataille::Board;
use crate::labataille::combat::battlefield::{Battlefield, CombatError, combat_failure, illegal, two_d6_chance};
use crate::labataille::engine::Engine;
use crate::rules::combat::FireResult;
use crate::terrain::Arm;
use crate::vocab::Formation;
use crate::vocab::State;

/// What a volley would do, shown before the player commits.
#[derive(Clone, Debug, PartialEq)]
pub struct FireOdds {
    pub firepower: f32,
    /// Column after shifts (0-based).
    pub column: usize,
    /// Each distinct result with its chance.
    pub outcomes: Vec<(FireResult, f32)>,
    /// Chance the target is made to check morale and fails, both dice
    /// counted: the table's roll, then its check with the result's
    /// modifier, its state's and its leader's (rules 1.1, 1.9).
    pub check_fails: f32,
}

impl FireOdds {
    /// Chance of at least one increment lost.
    pub fn loss_chance(&self) -> f32 {
        self.outcomes.iter().filter(|(r, _)| r.losses > 0).map(|(_, p)| p).sum()
    }

    /// Chance that the target must check morale.
    pub fn check_chance(&self) -> f32 {
        self.outcomes.iter().filter(|(r, _)| r.check.is_some()).map(|(_, p)| p).sum()
    }

    /// Expected increments lost.
    pub fn expected_losses(&self) -> f32 {
        self.outcomes.iter().map(|(r, p)| r.losses as f32 * p).sum()
    }
}

/// The hexes strictly between two hexes on the straight line joining them.
pub fn between(a: Offset, b: Offset) -> Vec<Offset> {
    let line: Vec<Offset> = a.to_hex().line_to(b.to_hex()).map(Offset::from_hex).collect();
    if line.len() <= 2 { Vec::new() } else { line[1..line.len() - 1].to_vec() }
}

/// Line of sight (house rule): blocked by a woods, village or town hex, or by
/// any unit, standing between the two hexes.
pub fn line_of_sight(bf: &Battlefield, engine: &Engine, from: Offset, to: Offset) -> bool {
    between(from, to).into_iter().all(|h| {
        let cell = bf.ctx.grid.idx(h);
        !bf.ctx.grid.refuge[cell] && engine.occupancy.at(cell).is_empty()
    })
}

/// Firepower of one unit at `range`, or why it cannot fire.
fn firepower_of(bf: &Battlefield, board: &Board, unit: usize, range: u32) -> Result<f32, String> {
    let u = &board.units[unit];
    let c = &bf.ctx.rules.combat;
    if !matches!(u.state, State::GoodOrder | State::Disordered) || u.at.is_none() {
        return Err("only units in good order or disordered can fire".into());
    }
    let max = c.fire_range.get(u.arm).floor() as u32;
    if max == 0 {
        return Err(format!("{:?} does not fire", u.arm));
    }
    if range > max {
        return Err(format!("the target is {range} hexes away; its range is {max}"));
    }
    match u.arm {
        Arm::Artillery if u.limbered => Err("limbered guns cannot fire".into()),
        Arm::Artillery => c
            .artillery_per_increment(range)
            .map(|p| p * u.strength as f32)
            .ok_or_else(|| "beyond the artillery's last range band".into()),
        _ => Ok(c.infantry_fire.get(u.formation) * u.strength as f32),
    }
}

/// Checks a volley and works out its column (rule 1.9, house design).
pub fn fire_odds(
    bf: &Battlefield,
    board: &Board,
    engine: &Engine,
    firers: &[usize],
    target: usize,
) -> Result<FireOdds, CombatError> {
    let t = &board.units[target];
    let Some(at) = t.at else { return Err(illegal(board, target, "is not on the map")) };
    let Some(&first) = firers.first() else { return Err(illegal(board, target, "no unit fires at it")) };
    let mut firepower = 0.0;
    let mut artillery = false;
    let mut disordered = false;
    for (k, &f) in firers.iter().enumerate() {
        if firers[..k].contains(&f) {
            return Err(illegal(board, f, "is named twice in one volley"));
        }
        let u = &board.units[f];
        if u.side == t.side {
            return Err(illegal(board, f, format!("cannot fire at its own side's '{}'", t.id)));
        }
        let Some(from) = u.at else { return Err(illegal(board, f, "is not on the map")) };
        let range = from.distance(at);
        firepower += firepower_of(bf, board, f, range).map_err(|w| illegal(board, f, w))?;
        if range > 1 && !line_of_sight(bf, engine, from, at) {
            return Err(illegal(board, f, format!("cannot see '{}' (woods, town or a unit in between)", t.id)));
        }
        artillery |= u.arm == Arm::Artillery;
        disordered |= u.state == State::Disordered;
    }
    let c = &bf.ctx.rules.combat;
    let Some(base) = c.fire_column(firepower) else {
        return Err(illegal(board, first, format!("firepower {firepower} is below the fire table")));
    };
    let s = &c.fire_shifts;
    let mut shift = 0;
    if bf.ctx.grid.close[bf.ctx.grid.idx(at)] {
        shift += s.target_in_cover;
    }
    if artillery && matches!(t.formation, Formation::Column | Formation::Square) {
        shift += s.artillery_at_dense_target;
    }
    if disordered {
        shift += s.disordered_firers;
    }
    let col = base as i32 + shift;
    if col < 0 {
        return Err(illegal(board, first, "too weak to harm the target after its cover"));
    }
    let column = (col as usize).min(c.fire_columns.len() - 1);
    let mut outcomes: Vec<(FireResult, f32)> = Vec::new();
    for total in 2..=12 {
        let r = bf.tables.fire.get(total as usize - 2).and_then(|row| row.get(column)).copied().unwrap_or_default();
        match outcomes.iter_mut().find(|(x, _)| *x == r) {
            Some((_, p)) => *p += two_d6_chance(total),
            None => outcomes.push((r, two_d6_chance(total))),
        }
    }
    let ctx = bf.ctx;
    let base = Engine::state_modifier(ctx.rules, t.state) + engine.bonus.get(target).copied().unwrap_or(0);
    let check_fails = outcomes
        .iter()
        .filter(|(r, _)| r.losses < t.strength && matches!(t.state, State::GoodOrder | State::Disordered))
        .filter_map(|(r, p)| r.check.map(|m| p * (1.0 - pass_chance(t.morale, base + m, ctx.rules.natural_extremes))))
        .sum();
    Ok(FireOdds { firepower, column, outcomes, check_fails })
}

/// Resolves a volley: roll two dice on the column, take the losses, check
/// morale, and let the cascade run.
pub fn resolve_fire(
    bf: &Battlefield,
    engine: &mut Engine,
    board: &mut Board,
    dice: &mut Dice,
    log: &mut EventLog,
    firers: &[usize],
    target: usize,
) -> Result<(), CombatError> {
    let odds = fire_odds(bf, board, engine, firers, target)?;
    let d = dice.d66_for(target, Roll::FireAt);
    let total = d.tens + d.units;
    let result =
        bf.tables.fire.get(total as usize - 2).and_then(|row| row.get(odds.column)).copied().unwrap_or_default();
    // The volley is an order's: a root of the cause graph.
    let fired = log.push(EventKind::Fire {
        units: firers.iter().map(|&f| board.units[f].id.clone()).collect(),
        target: board.units[target].id.clone(),
        rolled: FireRoll::Hex { firepower: odds.firepower, column: odds.column, roll: d.value(), total, result },
    });
    for &f in firers {
        board.units[f].rested = false;
    }
    let ctx = bf.ctx;
    engine.lose(ctx, board, log, target, result.losses, &[fired]);
    if let Some(m) = result.check {
        let t = &board.units[target];
        if t.at.is_some() && matches!(t.state, State::GoodOrder | State::Disordered) {
            let c = engine.check_with(ctx, board, dice, log, target, Cause::Fire, firers.first().copied(), m, &[fired]);
            if !c.passed {
                combat_failure(engine, board, log, target, Cause::Fire, &[c.seq]);
            }
        }
    }
    engine.resolve(ctx, board, dice, log);
    Ok(())
}
