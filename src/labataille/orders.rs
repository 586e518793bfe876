//! Orders: what a player or the AI may tell a unit to do in each phase of
//! its side's turn (RULES.md 1.6), checked against the rules and carried out
//! through the same functions for both. Orders name units by their scenario
//! id, so that save files and replays read plainly and survive a reordering
//! of nothing but memory.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::events::{EventKind, EventLog, MoveReason};
use crate::hex::{Dir, Edge, Offset};
use crate::labataille::combat::{Battlefield, resolve_charge, resolve_fire, resolve_melee};
use crate::labataille::engine::Engine;
use crate::labataille::movement::{Centi, MoveQuery, MoveSearch, Reach, ReachKey, allowance, reach};
use crate::labataille::{Board, HexState};
use crate::scenario::Formation;
use crate::terrain::Arm;

/// One order. Units are named by id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Order {
    /// Charge phase: cavalry rides at an enemy and melees it.
    Charge { unit: String, target: String },
    /// Movement phase: march to a hex by the cheapest legal path.
    Move { unit: String, to: (i32, i32) },
    /// Movement phase: change formation (infantry and cavalry).
    Formation { unit: String, to: Formation },
    /// Movement phase: turn to face another hexside (rule 1.7), which moves
    /// the unit's zone of influence with it.
    Face { unit: String, facing: Dir },
    /// Movement phase: limber or unlimber guns.
    Limber { unit: String, limbered: bool },
    /// Movement phase: leave the map across the side's exit edge (scenario
    /// `exits`) from a hex on that edge.
    Exit { unit: String, edge: Edge },
    /// Fire phases: every named unit fires together at one target.
    Fire { units: Vec<String>, target: String },
    /// Melee phase: every named unit attacks the target's hex together.
    Melee { units: Vec<String>, target: String },
}

impl Order {
    /// The units the order is given to.
    pub fn units(&self) -> Vec<&str> {
        match self {
            Order::Charge { unit, .. }
            | Order::Move { unit, .. }
            | Order::Formation { unit, .. }
            | Order::Face { unit, .. }
            | Order::Limber { unit, .. }
            | Order::Exit { unit, .. } => vec![unit.as_str()],
            Order::Fire { units, .. } | Order::Melee { units, .. } => units.iter().map(String::as_str).collect(),
        }
    }

    /// Whether carrying it out rolls dice (which ends undo, rule of play).
    pub fn rolls_dice(&self) -> bool {
        matches!(self, Order::Charge { .. } | Order::Fire { .. } | Order::Melee { .. })
    }

    fn kind(&self) -> &'static str {
        match self {
            Order::Charge { .. } => "Charge",
            Order::Move { .. } => "Move",
            Order::Formation { .. } => "Formation",
            Order::Face { .. } => "Face",
            Order::Limber { .. } => "Limber",
            Order::Exit { .. } => "Exit",
            Order::Fire { .. } => "Fire",
            Order::Melee { .. } => "Melee",
        }
    }
}

/// The phases that take orders (RULES.md 1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrderPhase {
    Charge,
    Movement,
    DefensiveFire,
    OffensiveFire,
    Melee,
}

impl OrderPhase {
    /// Which side gives orders: the phasing side, except in defensive fire.
    pub fn acting_side(self, phasing: usize) -> usize {
        if self == OrderPhase::DefensiveFire { 1 - phasing.min(1) } else { phasing }
    }

    fn allows(self, order: &Order) -> bool {
        matches!(
            (self, order),
            (OrderPhase::Charge, Order::Charge { .. })
                | (OrderPhase::Movement, Order::Move { .. })
                | (OrderPhase::Movement, Order::Formation { .. })
                | (OrderPhase::Movement, Order::Face { .. })
                | (OrderPhase::Movement, Order::Limber { .. })
                | (OrderPhase::Movement, Order::Exit { .. })
                | (OrderPhase::DefensiveFire | OrderPhase::OffensiveFire, Order::Fire { .. })
                | (OrderPhase::Melee, Order::Melee { .. })
        )
    }
}

/// Why an order cannot be carried out.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OrderError {
    #[error("no unit '{0}'")]
    UnknownUnit(String),
    #[error("a {order} order cannot be given in the {phase:?} phase")]
    WrongPhase { order: &'static str, phase: OrderPhase },
    #[error("unit '{unit}' is not on the side giving orders now")]
    NotYours { unit: String },
    #[error("no player's orders are awaited now")]
    NotAwaited,
    #[error("unit '{unit}': {why}")]
    Illegal { unit: String, why: String },
}

/// What each unit has done this turn: movement points spent, fired, fought.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Activity {
    pub mp_used: Vec<Centi>,
    pub moved: Vec<bool>,
    pub fired: Vec<bool>,
    pub fought: Vec<bool>,
    /// (side, edge) pairs across which a side may march off by order (the
    /// scenario's `exits`).
    pub exits: Vec<(usize, Edge)>,
}

impl Activity {
    pub fn new(units: usize) -> Self {
        Self {
            mp_used: vec![0; units],
            moved: vec![false; units],
            fired: vec![false; units],
            fought: vec![false; units],
            exits: Vec::new(),
        }
    }

    /// A side's turn begins: its units have their whole allowance again.
    pub fn new_turn(&mut self, board: &Board, side: usize) {
        for (i, u) in board.units.iter().enumerate() {
            if u.side == side {
                self.mp_used[i] = 0;
                self.moved[i] = false;
                self.fought[i] = false;
            }
        }
    }

    /// A fire phase begins: every unit may fire once in it.
    pub fn new_fire_phase(&mut self) {
        self.fired.iter_mut().for_each(|f| *f = false);
    }
}

/// Everything an order needs, borrowed for the length of one phase.
pub struct Orders<'a, 'b> {
    pub bf: &'a Battlefield<'b>,
    pub index: &'a HashMap<String, usize>,
    pub search: &'a mut MoveSearch,
    pub activity: &'a mut Activity,
}

impl Orders<'_, '_> {
    fn unit(&self, board: &Board, id: &str, side: usize) -> Result<usize, OrderError> {
        let &i = self.index.get(id).ok_or_else(|| OrderError::UnknownUnit(id.to_owned()))?;
        if board.units[i].side != side {
            return Err(OrderError::NotYours { unit: id.to_owned() });
        }
        Ok(i)
    }

    fn target(&self, board: &Board, id: &str, side: usize) -> Result<usize, OrderError> {
        let &i = self.index.get(id).ok_or_else(|| OrderError::UnknownUnit(id.to_owned()))?;
        if board.units[i].side == side {
            return Err(OrderError::Illegal { unit: id.to_owned(), why: "is on your own side".into() });
        }
        Ok(i)
    }

    /// MP (hundredths) `unit` has left this phase.
    pub fn budget(&self, board: &Board, unit: usize) -> Centi {
        let u = &board.units[unit];
        let rules = self.bf.ctx.rules;
        let own = self.bf.movement.get(unit).copied().flatten();
        allowance(rules, u.arm, own, u.formation, u.limbered).saturating_sub(self.activity.mp_used[unit])
    }

    /// Where `unit` may march this phase (empty if it may not move).
    pub fn reach(&mut self, engine: &mut Engine, board: &Board, unit: usize) -> Reach {
        let u = &board.units[unit];
        if !matches!(u.state, HexState::GoodOrder | HexState::Disordered) || self.activity.fought[unit] {
            return Reach::default();
        }
        let budget = self.budget(board, unit);
        let fresh = !self.activity.moved[unit] && budget > 0;
        if budget == 0 {
            return Reach::default();
        }
        // The AI looks at a unit's reach and then orders the move, which
        // looks again: the second look is the first's, if nothing moved or
        // changed state in between and no order came between them.
        let key = ReachKey { unit, budget, fresh, at: u.at, generations: engine.generations() };
        if let Some(known) = self.search.remembered(&key) {
            return known;
        }
        let ctx = self.bf.ctx;
        let occupancy = &engine.occupancy;
        let fields = engine.fresh_fields(u.side);
        let q = MoveQuery { grid: ctx.grid, rules: ctx.rules, occupancy, board, unit, budget, fresh, fields };
        let r = reach(self.search, &q);
        self.search.remember(key, &r);
        r
    }

    /// Checks and carries out one order for `side` in `phase`.
    #[allow(clippy::too_many_arguments)] // the engine's state, the phase and the order, each needed
    pub fn apply(
        &mut self,
        engine: &mut Engine,
        board: &mut Board,
        dice: &mut Dice,
        log: &mut EventLog,
        phase: OrderPhase,
        side: usize,
        order: &Order,
    ) -> Result<(), OrderError> {
        let result = self.carry_out(engine, board, dice, log, phase, side, order);
        // Whatever the order changed, a remembered reach is not trusted
        // past it.
        self.search.forget();
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn carry_out(
        &mut self,
        engine: &mut Engine,
        board: &mut Board,
        dice: &mut Dice,
        log: &mut EventLog,
        phase: OrderPhase,
        side: usize,
        order: &Order,
    ) -> Result<(), OrderError> {
        if !phase.allows(order) {
            return Err(OrderError::WrongPhase { order: order.kind(), phase });
        }
        let illegal = |unit: &str, why: &str| OrderError::Illegal { unit: unit.to_owned(), why: why.to_owned() };
        let bf = self.bf;
        match order {
            Order::Move { unit, to } => {
                let i = self.unit(board, unit, side)?;
                let to = Offset::new(to.0, to.1);
                let r = self.reach(engine, board, i);
                let cost = r.cost_to(to).ok_or_else(|| illegal(unit, &format!("cannot reach {to} this phase")))?;
                let path = r.path_to(bf.ctx.grid, to).ok_or_else(|| illegal(unit, "no path"))?;
                Engine::log_move(board, log, i, MoveReason::Order, &path);
                engine.relocate(bf.ctx, board, i, Some(to));
                let full = self.budget(board, i) + self.activity.mp_used[i];
                self.activity.mp_used[i] = (self.activity.mp_used[i] + cost).min(full);
                self.activity.moved[i] = true;
                if self.terrain_formation(board, log, i, to) {
                    engine.touched(side);
                }
            }
            Order::Formation { unit, to } => {
                let i = self.unit(board, unit, side)?;
                let u = &board.units[i];
                let Some(at) = u.at else { return Err(illegal(unit, "is not on the map")) };
                if u.state != HexState::GoodOrder {
                    return Err(illegal(unit, "only units in good order change formation"));
                }
                let ok = match (u.arm, to) {
                    (Arm::Infantry, Formation::Line | Formation::Column | Formation::Square | Formation::Skirmish) => {
                        true
                    }
                    (Arm::Infantry, Formation::GeneralOrder) => bf.ctx.grid.close[bf.ctx.grid.idx(at)],
                    (Arm::Cavalry, Formation::Line | Formation::Column) => true,
                    _ => false,
                };
                if !ok {
                    return Err(illegal(unit, &format!("{:?} cannot take {to:?} here", u.arm)));
                }
                if u.formation == *to {
                    return Err(illegal(unit, &format!("is already in {to:?}")));
                }
                self.spend_change(board, i, unit)?;
                let from = board.units[i].formation;
                board.units[i].formation = *to;
                board.units[i].rested = false;
                engine.touched(side);
                log.push(EventKind::Formation { unit: unit.clone(), from: format!("{from:?}"), to: format!("{to:?}") });
            }
            Order::Face { unit, facing } => {
                let i = self.unit(board, unit, side)?;
                let u = &board.units[i];
                if u.at.is_none() {
                    return Err(illegal(unit, "is not on the map"));
                }
                if !matches!(u.state, HexState::GoodOrder | HexState::Disordered) {
                    return Err(illegal(unit, "routed units do not turn by order"));
                }
                if self.activity.fought[i] {
                    return Err(illegal(unit, "has already fought this turn"));
                }
                // A square faces every way: it exerts no zone to turn.
                if u.formation == Formation::Square {
                    return Err(illegal(unit, "is in square, which faces every way"));
                }
                if u.facing == *facing {
                    return Err(illegal(unit, &format!("already faces {facing:?}")));
                }
                let cost = (bf.ctx.rules.combat.face_mp * 100.0).round() as Centi;
                if self.budget(board, i) < cost {
                    return Err(illegal(unit, "has too few movement points left to turn"));
                }
                self.activity.mp_used[i] = self.activity.mp_used[i].saturating_add(cost);
                let from = board.units[i].facing;
                board.units[i].facing = *facing;
                engine.touched(side);
                log.push(EventKind::Facing { unit: unit.clone(), from, to: *facing });
            }
            Order::Limber { unit, limbered } => {
                let i = self.unit(board, unit, side)?;
                let u = &board.units[i];
                if u.arm != Arm::Artillery {
                    return Err(illegal(unit, "only artillery limbers"));
                }
                if u.state != HexState::GoodOrder || u.at.is_none() {
                    return Err(illegal(unit, "only guns in good order on the map limber or unlimber"));
                }
                if u.limbered == *limbered {
                    return Err(illegal(unit, if *limbered { "is already limbered" } else { "is already unlimbered" }));
                }
                // Unlimbering ends the move; limbering costs the change and
                // then the guns move with what is left.
                let change = (bf.ctx.rules.combat.formation_change_mp * 100.0).round() as Centi;
                if *limbered {
                    if self.activity.moved[i] {
                        return Err(illegal(unit, "has already moved"));
                    }
                    board.units[i].limbered = true;
                    self.activity.mp_used[i] += change;
                } else {
                    board.units[i].limbered = false;
                    self.activity.mp_used[i] = Centi::MAX / 2;
                }
                board.units[i].rested = false;
                let (from, to) = if *limbered { ("Unlimbered", "Limbered") } else { ("Limbered", "Unlimbered") };
                log.push(EventKind::Formation { unit: unit.clone(), from: from.into(), to: to.into() });
            }
            Order::Exit { unit, edge } => {
                let i = self.unit(board, unit, side)?;
                let u = &board.units[i];
                let Some(at) = u.at else { return Err(illegal(unit, "is not on the map")) };
                if !matches!(u.state, HexState::GoodOrder | HexState::Disordered) {
                    return Err(illegal(unit, "routed units do not exit by order"));
                }
                if !self.activity.exits.contains(&(side, *edge)) {
                    return Err(illegal(unit, &format!("the scenario gives its side no exit on the {edge:?} edge")));
                }
                if bf.ctx.grid.edge_distance(*edge, at) != 0 {
                    return Err(illegal(unit, &format!("is not on the {edge:?} edge")));
                }
                if self.budget(board, i) == 0 {
                    return Err(illegal(unit, "has no movement left"));
                }
                let increments = u.strength;
                engine.relocate(bf.ctx, board, i, None);
                self.activity.moved[i] = true;
                log.push(EventKind::Exited { unit: unit.clone(), edge: *edge, increments });
            }
            Order::Fire { units, target } => {
                let mut firers = Vec::with_capacity(units.len());
                for id in units {
                    let i = self.unit(board, id, side)?;
                    if self.activity.fired[i] {
                        return Err(illegal(id, "has already fired this phase"));
                    }
                    firers.push(i);
                }
                let t = self.target(board, target, side)?;
                resolve_fire(bf, engine, board, dice, log, &firers, t)?;
                for i in firers {
                    self.activity.fired[i] = true;
                }
            }
            Order::Melee { units, target } => {
                let mut attackers = Vec::with_capacity(units.len());
                for id in units {
                    let i = self.unit(board, id, side)?;
                    if self.activity.fought[i] {
                        return Err(illegal(id, "has already fought this turn"));
                    }
                    attackers.push(i);
                }
                let t = self.target(board, target, side)?;
                resolve_melee(bf, engine, board, dice, log, &attackers, t, false)?;
                for i in attackers {
                    self.activity.fought[i] = true;
                }
            }
            Order::Charge { unit, target } => {
                let i = self.unit(board, unit, side)?;
                if self.activity.fought[i] {
                    return Err(illegal(unit, "has already fought this turn"));
                }
                let t = self.target(board, target, side)?;
                resolve_charge(bf, engine, board, dice, log, self.search, i, t)?;
                self.activity.fought[i] = true;
                self.activity.moved[i] = true;
                self.activity.mp_used[i] = Centi::MAX / 2;
            }
        }
        Ok(())
    }

    /// Pays for a change of formation out of this phase's movement points;
    /// a unit that has not moved may always change once.
    fn spend_change(&mut self, board: &Board, unit: usize, id: &str) -> Result<(), OrderError> {
        let change = (self.bf.ctx.rules.combat.formation_change_mp * 100.0).round() as Centi;
        if self.activity.moved[unit] && self.budget(board, unit) < change {
            return Err(OrderError::Illegal { unit: id.to_owned(), why: "has too few movement points left".into() });
        }
        self.activity.mp_used[unit] = self.activity.mp_used[unit].saturating_add(change);
        Ok(())
    }

    /// Infantry entering woods or a built-up hex takes general order; leaving
    /// it for open ground, column (rule 1.7 formations by terrain).
    fn terrain_formation(&self, board: &mut Board, log: &mut EventLog, unit: usize, at: Offset) -> bool {
        let grid = self.bf.ctx.grid;
        let u = &mut board.units[unit];
        if u.arm != Arm::Infantry {
            return false;
        }
        let close = grid.close[grid.idx(at)];
        let to = match (close, u.formation) {
            (true, f) if f != Formation::GeneralOrder => Formation::GeneralOrder,
            (false, Formation::GeneralOrder) => Formation::Column,
            _ => return false,
        };
        log.push(EventKind::Formation {
            unit: u.id.clone(),
            from: format!("{:?}", u.formation),
            to: format!("{to:?}"),
        });
        u.formation = to;
        true
    }
}
