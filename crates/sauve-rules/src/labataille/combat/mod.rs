//! Fire, melee and cavalry charges (RULES.md 1.9, our own design in the La
//! Bataille spirit; the tables are data in `rules.combat`, explained in
//! docs/rules.md). Combat feeds the morale engine: losses, morale checks,
//! disorder retreats and routs go through [`Engine`], so every cascade a
//! volley or a charge starts runs by the same rules as a shock's.

use crate::dice::Dice;
use crate::events::{Cause, EventKind, EventLog, MoveReason};
use crate::hex::{Dir, Offset};
use crate::labataille::engine::{Ctx, Engine, Forced};
use crate::labataille::movement::{MoveQuery, MoveSearch, Reach, allowance, reach_remembered, stacked, stacking_limit};
use crate::labataille::{Board, HexState};
use crate::map::TerrainMap;
use crate::rules::combat::{FireResult, MeleeResult, Tables};
use crate::terrain::{Arm, Terrain};
use crate::vocab::{Formation, Readiness};

/// The battle's fixed data beside the engine's context: the terrain (for
/// cover and hexsides), the parsed tables and each unit's own allowance.
pub struct Battlefield<'a> {
    pub ctx: &'a Ctx<'a>,
    pub map: &'a TerrainMap,
    pub tables: &'a Tables,
    /// The scenario's `movement` per unit (None: the arm's allowance).
    pub movement: &'a [Option<f32>],
}

/// Chance of each total of two dice.
pub fn two_d6_chance(total: i32) -> f32 {
    if (2..=12).contains(&total) { (6 - (total - 7).abs()) as f32 / 36.0 } else { 0.0 }
}

/// Why a fire, melee or charge cannot be made: the unit and the rule it
/// would break. (The orders module turns it into its own `OrderError`.)
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("unit '{unit}': {why}")]
pub struct CombatError {
    pub unit: String,
    pub why: String,
}

fn illegal(board: &Board, unit: usize, why: impl Into<String>) -> CombatError {
    CombatError { unit: board.units[unit].id.clone(), why: why.into() }
}

/// What a volley would do, shown before the player commits.
#[derive(Clone, Debug, PartialEq)]
pub struct FireOdds {
    pub firepower: f32,
    /// Column after shifts (0-based).
    pub column: usize,
    /// Each distinct result with its chance.
    pub outcomes: Vec<(FireResult, f32)>,
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
    if !matches!(u.state, HexState::GoodOrder | HexState::Disordered) || u.at.is_none() {
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
        disordered |= u.state == HexState::Disordered;
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
    Ok(FireOdds { firepower, column, outcomes })
}

/// A failed check caused by combat: good order goes to disorder and retreats
/// (cavalry routs, rule 1.2); disorder goes to rout.
fn combat_failure(engine: &mut Engine, board: &mut Board, log: &mut EventLog, unit: usize, cause: Cause) {
    match board.units[unit].state {
        HexState::GoodOrder => engine.fail(board, log, unit, cause),
        HexState::Disordered => {
            engine.set_state(board, log, unit, HexState::Routed, cause);
            engine.push(unit, Forced::Rout);
        }
        _ => {}
    }
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
    let d = dice.d66();
    let total = d.tens + d.units;
    let result =
        bf.tables.fire.get(total as usize - 2).and_then(|row| row.get(odds.column)).copied().unwrap_or_default();
    log.push(EventKind::Fire {
        units: firers.iter().map(|&f| board.units[f].id.clone()).collect(),
        target: board.units[target].id.clone(),
        firepower: odds.firepower,
        column: odds.column,
        roll: d.value(),
        total,
        result: result.to_string(),
    });
    for &f in firers {
        board.units[f].rested = false;
    }
    let ctx = bf.ctx;
    engine.lose(ctx, board, log, target, result.losses);
    if let Some(m) = result.check {
        let t = &board.units[target];
        if t.at.is_some() && matches!(t.state, HexState::GoodOrder | HexState::Disordered) {
            let passed = engine.check_with(ctx, board, dice, log, target, Cause::Fire, firers.first().copied(), m);
            if !passed {
                combat_failure(engine, board, log, target, Cause::Fire);
            }
        }
    }
    engine.resolve(ctx, board, dice, log);
    Ok(())
}

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
        if u.state != HexState::GoodOrder {
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
    let fighting: Vec<usize> =
        defenders.iter().copied().filter(|&d| board.units[d].state != HexState::Routed).collect();
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
    if fighting.iter().any(|&d| board.units[d].state == HexState::Disordered) {
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

/// Resolves a melee: routed defenders surrender; attackers and then
/// defenders make their pre-melee checks; the survivors roll on the table;
/// the lead attacker advances into an emptied hex.
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
) -> Result<(), CombatError> {
    melee_odds(bf, board, engine, attackers, target, charging)?;
    let ctx = bf.ctx;
    let Some(hex) = board.units[target].at else { return Ok(()) };
    for &a in attackers {
        board.units[a].rested = false;
    }
    let defenders = defenders_of(board, engine, bf, target);
    // Routed units caught in melee surrender (La Bataille).
    for &d in &defenders {
        if board.units[d].state == HexState::Routed {
            surrender(bf, engine, board, log, d);
        }
    }
    if defenders.iter().all(|&d| board.units[d].at != Some(hex)) {
        advance(bf, engine, board, log, attackers, hex);
        return Ok(());
    }
    // Pre-melee checks: attackers first (a charge is already committed),
    // then the defenders; failures drop out.
    let mut fighting_attackers = Vec::new();
    for &a in attackers {
        if charging || engine.check(ctx, board, dice, log, a, Cause::Melee, Some(target)) {
            fighting_attackers.push(a);
        } else {
            // A failed attacker falls into disorder where it stands (cavalry
            // routs, rule 1.2).
            if board.units[a].arm == Arm::Cavalry {
                combat_failure(engine, board, log, a, Cause::Melee);
            } else {
                engine.set_state(board, log, a, HexState::Disordered, Cause::Melee);
            }
        }
    }
    if fighting_attackers.is_empty() {
        engine.resolve(ctx, board, dice, log);
        return Ok(());
    }
    for &d in &defenders {
        let u = &board.units[d];
        if u.at == Some(hex)
            && u.state == HexState::GoodOrder
            && !engine.check(ctx, board, dice, log, d, Cause::Melee, fighting_attackers.first().copied())
        {
            combat_failure(engine, board, log, d, Cause::Melee);
        }
    }
    engine.resolve(ctx, board, dice, log);
    let still: Vec<usize> = defenders
        .iter()
        .copied()
        .filter(|&d| board.units[d].at == Some(hex) && board.units[d].state != HexState::Routed)
        .collect();
    let attackers: Vec<usize> = fighting_attackers
        .into_iter()
        .filter(|&a| board.units[a].at.is_some() && board.units[a].state == HexState::GoodOrder)
        .collect();
    if !still.is_empty() && !attackers.is_empty() {
        let target = still[0];
        let odds = melee_odds(bf, board, engine, &attackers, target, charging)?;
        let d = dice.d66();
        let roll = (d.tens + d.units) as i32;
        let total = (roll + odds.modifier).clamp(2, 12);
        let result = bf
            .tables
            .melee
            .get(total as usize - 2)
            .and_then(|row| row.get(odds.column))
            .copied()
            .unwrap_or(MeleeResult::AR);
        log.push(EventKind::Melee {
            attackers: attackers.iter().map(|&a| board.units[a].id.clone()).collect(),
            defenders: still.iter().map(|&d| board.units[d].id.clone()).collect(),
            odds: odds.label.clone(),
            roll: d.value(),
            modifier: odds.modifier,
            total: roll + odds.modifier,
            result,
        });
        let lead = attackers[0];
        match result {
            MeleeResult::AR => {
                for &a in &attackers {
                    if !engine.check(ctx, board, dice, log, a, Cause::Melee, Some(target)) {
                        combat_failure(engine, board, log, a, Cause::Melee);
                    }
                }
            }
            MeleeResult::AD => {
                engine.lose(ctx, board, log, lead, 1);
                for &a in &attackers {
                    if board.units[a].at.is_some() {
                        combat_failure(engine, board, log, a, Cause::Melee);
                    }
                }
            }
            MeleeResult::EX => {
                engine.lose(ctx, board, log, lead, 1);
                engine.lose(ctx, board, log, target, 1);
                for &d in &still {
                    if board.units[d].at.is_some() && !engine.check(ctx, board, dice, log, d, Cause::Melee, Some(lead))
                    {
                        combat_failure(engine, board, log, d, Cause::Melee);
                    }
                }
            }
            MeleeResult::DR | MeleeResult::DD => {
                if result == MeleeResult::DD {
                    engine.lose(ctx, board, log, target, 1);
                }
                for &d in &still {
                    if board.units[d].at.is_some() {
                        combat_failure(engine, board, log, d, Cause::Melee);
                    }
                }
            }
            MeleeResult::DX => {
                engine.lose(ctx, board, log, target, 1);
                for &d in &still {
                    if board.units[d].at.is_some() && board.units[d].state != HexState::Routed {
                        engine.set_state(board, log, d, HexState::Routed, Cause::Melee);
                        engine.push(d, Forced::Rout);
                    }
                }
            }
            MeleeResult::DS => {
                for &d in &still {
                    surrender(bf, engine, board, log, d);
                }
            }
        }
        engine.resolve(ctx, board, dice, log);
    }
    advance(bf, engine, board, log, &attackers, hex);
    Ok(())
}

fn surrender(bf: &Battlefield, engine: &mut Engine, board: &mut Board, log: &mut EventLog, unit: usize) {
    engine.relocate(bf.ctx, board, unit, None);
    board.units[unit].state = HexState::Surrendered;
    log.push(EventKind::Surrendered { unit: board.units[unit].id.clone() });
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
) {
    let grid = bf.ctx.grid;
    let cell = grid.idx(hex);
    let Some(&lead) =
        attackers.iter().find(|&&a| board.units[a].state == HexState::GoodOrder && board.units[a].at.is_some())
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
    Engine::log_move(board, log, lead, MoveReason::Advance, &[from, hex]);
    engine.relocate(bf.ctx, board, lead, Some(hex));
}

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
    if u.state != HexState::GoodOrder {
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
    let ctx = bf.ctx;
    if path.len() > 1 {
        Engine::log_move(board, log, unit, MoveReason::Charge, &path);
        engine.relocate(ctx, board, unit, path.last().copied());
    }
    let t = &board.units[target];
    let open = t.at.is_some_and(|a| !ctx.grid.close[ctx.grid.idx(a)]);
    if t.arm == Arm::Infantry && t.state == HexState::GoodOrder && t.formation != Formation::Square && open {
        let modifier = ctx.rules.combat.form_square_modifier;
        if engine.check_with(ctx, board, dice, log, target, Cause::Charge, Some(unit), modifier) {
            let from = board.units[target].formation;
            board.units[target].formation = Formation::Square;
            engine.touched(board.units[target].side);
            log.push(EventKind::Formation {
                unit: board.units[target].id.clone(),
                from: format!("{from:?}"),
                to: "Square".into(),
            });
        } else {
            engine.set_state(board, log, target, HexState::Disordered, Cause::Charge);
        }
    }
    resolve_melee(bf, engine, board, dice, log, &[unit], target, true)?;
    let u = &mut board.units[unit];
    let to = match u.readiness {
        Readiness::Fresh => Readiness::Tired,
        _ => Readiness::Exhausted,
    };
    if u.at.is_some() && u.readiness != to {
        log.push(EventKind::Readiness { unit: u.id.clone(), from: u.readiness, to });
        u.readiness = to;
    }
    Ok(())
}
