//! Orders: what a player or the AI may tell a unit to do in each phase of
//! its side's turn (docs/rules.md 1.6), checked against the rules and carried out
//! through the same functions for both. Orders name units by their scenario
//! id, so that save files and replays read plainly and survive a reordering
//! of nothing but memory.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::events::{EventKind, EventLog, Heading, MoveReason};
use crate::hex::{Dir, Edge, Offset};
use crate::labataille::Board;
use crate::labataille::combat::{Battlefield, CombatError, order_melee, resolve_charge, resolve_fire};
use crate::labataille::engine::Engine;
use crate::labataille::grid::{Centi, centi};
use crate::labataille::movement::{MoveQuery, MoveSearch, Reach, allowance, reach_remembered};
use crate::rules::Rules;
use crate::terrain::Arm;
use crate::turn::{OrderStamp, Phase};
use crate::vocab::State;
use crate::vocab::{Formation, Shape};

/// One order. Units are named by id. Free-space battles use `March`
/// (centimetres and degrees) instead of `Move`, and share the rest.
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
    /// Free space, movement phase: march to a point (the footprint's
    /// centre, cm) ending with a facing (degrees clockwise from north):
    /// a wheel, then a straight, oblique or sideways move (docs/rules.md 2.7).
    March { unit: String, to: (f32, f32), facing: f32 },
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
            | Order::Exit { unit, .. }
            | Order::March { unit, .. } => vec![unit.as_str()],
            Order::Fire { units, .. } | Order::Melee { units, .. } => units.iter().map(String::as_str).collect(),
        }
    }

    /// Whether carrying it out rolls dice (which ends undo, rule of play).
    pub fn rolls_dice(&self) -> bool {
        matches!(self, Order::Charge { .. } | Order::Fire { .. } | Order::Melee { .. })
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Order::Charge { .. } => "Charge",
            Order::Move { .. } => "Move",
            Order::Formation { .. } => "Formation",
            Order::Face { .. } => "Face",
            Order::Limber { .. } => "Limber",
            Order::Exit { .. } => "Exit",
            Order::Fire { .. } => "Fire",
            Order::Melee { .. } => "Melee",
            Order::March { .. } => "March",
        }
    }
}

/// Whether `phase` takes this kind of order (docs/rules.md 1.6; free space
/// docs/rules.md 2.5).
pub fn allows(phase: Phase, order: &Order) -> bool {
    matches!(
        (phase, order),
        (Phase::Charge, Order::Charge { .. })
            | (Phase::Movement, Order::Move { .. })
            | (Phase::Movement, Order::Formation { .. })
            | (Phase::Movement, Order::Face { .. })
            | (Phase::Movement, Order::Limber { .. })
            | (Phase::Movement, Order::Exit { .. })
            | (Phase::Movement, Order::March { .. })
            | (Phase::DefensiveFire | Phase::OffensiveFire, Order::Fire { .. })
            | (Phase::Melee, Order::Melee { .. })
    )
}

/// One order as it was carried out, for saves and replays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoggedOrder {
    pub at: OrderStamp,
    pub order: Order,
}

/// Why an order cannot be carried out.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OrderError {
    #[error("no unit '{0}'")]
    UnknownUnit(String),
    #[error("a {order} order cannot be given in the {} phase", phase.words())]
    WrongPhase { order: &'static str, phase: Phase },
    #[error("unit '{unit}' is not on the side giving orders now")]
    NotYours { unit: String },
    #[error("no player's orders are awaited now")]
    NotAwaited,
    #[error("unit '{unit}': {why}")]
    Illegal { unit: String, why: String },
}

impl From<CombatError> for OrderError {
    fn from(e: CombatError) -> Self {
        OrderError::Illegal { unit: e.unit, why: e.why }
    }
}

/// The movement points used by a unit that may not move again this phase
/// (it charged, or unlimbered): more than any allowance, and far enough
/// below the top that a cost added to it does not overflow.
const ALL_SPENT: Centi = Centi::MAX / 2;

/// What a turn to face another hexside costs (`rules.combat.face_mp`).
pub fn face_cost(rules: &Rules) -> Centi {
    centi(rules.combat.face_mp)
}

/// What a change of formation, or limbering the guns, costs
/// (`rules.combat.formation_change_mp`).
pub fn change_cost(rules: &Rules) -> Centi {
    centi(rules.combat.formation_change_mp)
}

/// An order refused for what it asks of the unit.
fn illegal(unit: &str, why: &str) -> OrderError {
    OrderError::Illegal { unit: unit.to_owned(), why: why.to_owned() }
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

    /// Order phase `phase` of side `phasing`'s turn begins: its charge
    /// phase opens the turn ([`Activity::new_turn`]), each fire phase lets
    /// every unit fire again; the others carry on what was done.
    pub fn phase_begins(&mut self, board: &Board, phase: Phase, phasing: usize) {
        match phase {
            Phase::Charge => self.new_turn(board, phasing),
            Phase::DefensiveFire | Phase::OffensiveFire => self.new_fire_phase(),
            Phase::Shocks | Phase::Movement | Phase::Melee | Phase::MoraleRecovery | Phase::End => {}
        }
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

    /// The units of a fire or melee order, each of `side` and not yet
    /// `used` (else refused with `why`).
    fn group(
        &self,
        board: &Board,
        ids: &[String],
        side: usize,
        used: &[bool],
        why: &str,
    ) -> Result<Vec<usize>, OrderError> {
        ids.iter()
            .map(|id| {
                let i = self.unit(board, id, side)?;
                if used[i] {
                    return Err(OrderError::Illegal { unit: id.clone(), why: why.to_owned() });
                }
                Ok(i)
            })
            .collect()
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
    pub fn reach(&mut self, engine: &mut Engine, board: &Board, unit: usize) -> std::sync::Arc<Reach> {
        let u = &board.units[unit];
        if !matches!(u.state, State::GoodOrder | State::Disordered) || self.activity.fought[unit] {
            return Default::default();
        }
        let budget = self.budget(board, unit);
        let fresh = !self.activity.moved[unit] && budget > 0;
        if budget == 0 {
            return Default::default();
        }
        let ctx = self.bf.ctx;
        let occupancy = &engine.occupancy;
        let fields = engine.fresh_fields(u.side);
        let q = MoveQuery { grid: ctx.grid, rules: ctx.rules, occupancy, board, unit, budget, fresh, fields };
        reach_remembered(self.search, &q, engine.generations())
    }

    /// Checks and carries out one order for `side` in `phase`.
    #[allow(clippy::too_many_arguments)] // the engine's state, the phase and the order, each needed
    pub fn apply(
        &mut self,
        engine: &mut Engine,
        board: &mut Board,
        dice: &mut Dice,
        log: &mut EventLog,
        phase: Phase,
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
        phase: Phase,
        side: usize,
        order: &Order,
    ) -> Result<(), OrderError> {
        if !allows(phase, order) {
            return Err(OrderError::WrongPhase { order: order.kind(), phase });
        }
        let bf = self.bf;
        match order {
            Order::Move { unit, to } => self.march(engine, board, log, side, unit, Offset::new(to.0, to.1))?,
            Order::Formation { unit, to } => self.change_formation(engine, board, log, side, unit, *to)?,
            Order::Face { unit, facing } => self.face(engine, board, log, side, unit, *facing)?,
            Order::Limber { unit, limbered } => self.limber(board, log, side, unit, *limbered)?,
            Order::Exit { unit, edge } => self.exit(engine, board, log, side, unit, *edge)?,
            Order::March { .. } => return Err(OrderError::WrongPhase { order: order.kind(), phase }),
            Order::Fire { units, target } => {
                let firers = self.group(board, units, side, &self.activity.fired, "has already fired this phase")?;
                let t = self.target(board, target, side)?;
                resolve_fire(bf, engine, board, dice, log, &firers, t)?;
                for i in firers {
                    self.activity.fired[i] = true;
                }
            }
            Order::Melee { units, target } => {
                let attackers =
                    self.group(board, units, side, &self.activity.fought, "has already fought this turn")?;
                let t = self.target(board, target, side)?;
                order_melee(bf, engine, board, dice, log, &attackers, t)?;
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
                self.activity.mp_used[i] = ALL_SPENT;
            }
        }
        Ok(())
    }

    /// A move order (rule 1.7): to a hex of the unit's reach, by the path
    /// the reach found, paying its cost.
    fn march(
        &mut self,
        engine: &mut Engine,
        board: &mut Board,
        log: &mut EventLog,
        side: usize,
        unit: &str,
        to: Offset,
    ) -> Result<(), OrderError> {
        let bf = self.bf;
        let i = self.unit(board, unit, side)?;
        let r = self.reach(engine, board, i);
        let cost = r.cost_to(to).ok_or_else(|| illegal(unit, &format!("cannot reach {to} this phase")))?;
        let path = r.path_to(bf.ctx.grid, to).ok_or_else(|| illegal(unit, "no path"))?;
        Engine::log_move(board, log, i, MoveReason::Order, &path, &[]);
        engine.relocate(bf.ctx, board, i, Some(to));
        let full = self.budget(board, i) + self.activity.mp_used[i];
        self.activity.mp_used[i] = (self.activity.mp_used[i] + cost).min(full);
        self.activity.moved[i] = true;
        if self.terrain_formation(board, log, i, to) {
            engine.touched(side);
        }
        Ok(())
    }

    /// A change of formation (rule 1.7), where the arm and the ground allow
    /// it, paid for out of the phase's movement points.
    fn change_formation(
        &mut self,
        engine: &mut Engine,
        board: &mut Board,
        log: &mut EventLog,
        side: usize,
        unit: &str,
        to: Formation,
    ) -> Result<(), OrderError> {
        let grid = self.bf.ctx.grid;
        let i = self.unit(board, unit, side)?;
        let u = &board.units[i];
        let Some(at) = u.at else { return Err(illegal(unit, "is not on the map")) };
        if u.state != State::GoodOrder {
            return Err(illegal(unit, "only units in good order change formation"));
        }
        let ok = match (u.arm, to) {
            (Arm::Infantry, Formation::Line | Formation::Column | Formation::Square | Formation::Skirmish) => true,
            (Arm::Infantry, Formation::GeneralOrder) => grid.close[grid.idx(at)],
            (Arm::Cavalry, Formation::Line | Formation::Column) => true,
            _ => false,
        };
        if !ok {
            let arm = format!("{:?}", u.arm).to_lowercase();
            return Err(illegal(unit, &format!("{arm} cannot take {} here", to.words())));
        }
        if u.formation == to {
            return Err(illegal(unit, &format!("is already in {}", to.words())));
        }
        self.spend_change(board, i, unit)?;
        let from = board.units[i].formation;
        board.units[i].formation = to;
        board.units[i].rested = false;
        engine.touched(side);
        log.push(EventKind::Formation { unit: unit.to_owned(), from: from.into(), to: to.into() });
        Ok(())
    }

    /// A turn to face another hexside (rule 1.7), for `face_mp`.
    fn face(
        &mut self,
        engine: &mut Engine,
        board: &mut Board,
        log: &mut EventLog,
        side: usize,
        unit: &str,
        facing: Dir,
    ) -> Result<(), OrderError> {
        let i = self.unit(board, unit, side)?;
        let u = &board.units[i];
        if u.at.is_none() {
            return Err(illegal(unit, "is not on the map"));
        }
        if !matches!(u.state, State::GoodOrder | State::Disordered) {
            return Err(illegal(unit, "routed units do not turn by order"));
        }
        if self.activity.fought[i] {
            return Err(illegal(unit, "has already fought this turn"));
        }
        // A square faces every way: it exerts no zone to turn.
        if u.formation == Formation::Square {
            return Err(illegal(unit, "is in square, which faces every way"));
        }
        if u.facing == facing {
            return Err(illegal(unit, &format!("already faces {facing:?}")));
        }
        let cost = face_cost(self.bf.ctx.rules);
        if self.budget(board, i) < cost {
            return Err(illegal(unit, "has too few movement points left to turn"));
        }
        self.activity.mp_used[i] = self.activity.mp_used[i].saturating_add(cost);
        let from = board.units[i].facing;
        board.units[i].facing = facing;
        engine.touched(side);
        log.push(EventKind::Facing {
            unit: unit.to_owned(),
            from: Heading::Hexside(from),
            to: Heading::Hexside(facing),
        });
        Ok(())
    }

    /// Guns limber (for the cost of a change, then move with what is left)
    /// or unlimber (which ends their move).
    fn limber(
        &mut self,
        board: &mut Board,
        log: &mut EventLog,
        side: usize,
        unit: &str,
        limbered: bool,
    ) -> Result<(), OrderError> {
        let i = self.unit(board, unit, side)?;
        let u = &board.units[i];
        if u.arm != Arm::Artillery {
            return Err(illegal(unit, "only artillery limbers"));
        }
        if u.state != State::GoodOrder || u.at.is_none() {
            return Err(illegal(unit, "only guns in good order on the map limber or unlimber"));
        }
        if u.limbered == limbered {
            return Err(illegal(unit, if limbered { "is already limbered" } else { "is already unlimbered" }));
        }
        let change = change_cost(self.bf.ctx.rules);
        if limbered {
            if self.activity.moved[i] {
                return Err(illegal(unit, "has already moved"));
            }
            board.units[i].limbered = true;
            self.activity.mp_used[i] += change;
        } else {
            board.units[i].limbered = false;
            self.activity.mp_used[i] = ALL_SPENT;
        }
        board.units[i].rested = false;
        let (from, to) =
            if limbered { (Shape::Unlimbered, Shape::Limbered) } else { (Shape::Limbered, Shape::Unlimbered) };
        log.push(EventKind::Formation { unit: unit.to_owned(), from, to });
        Ok(())
    }

    /// Marching off the map across one of the side's exits, from a hex on
    /// its edge, with movement left.
    fn exit(
        &mut self,
        engine: &mut Engine,
        board: &mut Board,
        log: &mut EventLog,
        side: usize,
        unit: &str,
        edge: Edge,
    ) -> Result<(), OrderError> {
        let i = self.unit(board, unit, side)?;
        let u = &board.units[i];
        let Some(at) = u.at else { return Err(illegal(unit, "is not on the map")) };
        if !matches!(u.state, State::GoodOrder | State::Disordered) {
            return Err(illegal(unit, "routed units do not exit by order"));
        }
        if !self.activity.exits.contains(&(side, edge)) {
            return Err(illegal(unit, &format!("the scenario gives its side no exit on the {edge:?} edge")));
        }
        if self.bf.ctx.grid.edge_distance(edge, at) != 0 {
            return Err(illegal(unit, &format!("is not on the {edge:?} edge")));
        }
        if self.budget(board, i) == 0 {
            return Err(illegal(unit, "has no movement left"));
        }
        let increments = u.strength;
        engine.relocate(self.bf.ctx, board, i, None);
        self.activity.moved[i] = true;
        log.push(EventKind::Exited { unit: unit.to_owned(), edge, increments });
        Ok(())
    }

    /// Pays for a change of formation out of this phase's movement points;
    /// a unit that has not moved may always change once.
    fn spend_change(&mut self, board: &Board, unit: usize, id: &str) -> Result<(), OrderError> {
        let change = change_cost(self.bf.ctx.rules);
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
        log.push(EventKind::Formation { unit: u.id.clone(), from: u.formation.into(), to: to.into() });
        u.formation = to;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labataille::HexUnit;
    use crate::labataille::engine::Ctx;
    use crate::labataille::grid::Grid;
    use crate::map::TerrainMap;
    use crate::rules::Rules;

    /// Side 0 at (3, 5) facing north, side 1 at (3, 2) facing south, both
    /// infantry in column; gives `orders` for side 0 in `phase` after
    /// `prepare` has set the scene. Returns each result, the board, the log.
    fn give(
        rules: &Rules,
        prepare: impl FnOnce(&mut Board, &mut Activity),
        phase: Phase,
        orders: &[Order],
    ) -> (Vec<Result<(), OrderError>>, Board, EventLog) {
        let map = TerrainMap::from_rows(&["........"; 8]);
        let grid = Grid::new(&map, rules);
        let sides = crate::generate::sides();
        let ctx = Ctx { grid: &grid, rules, sides: &sides };
        let tables = rules.combat.tables();
        let bf = Battlefield { ctx: &ctx, map: &map, tables: &tables, movement: &[] };
        let mut board = Board {
            units: vec![
                HexUnit::marching("fr", 0, Arm::Infantry, Offset::new(3, 5), Dir::N),
                HexUnit::marching("ru", 1, Arm::Infantry, Offset::new(3, 2), Dir::S),
            ],
        };
        let mut activity = Activity::new(board.units.len());
        prepare(&mut board, &mut activity);
        let index: HashMap<String, usize> = board.units.iter().enumerate().map(|(i, u)| (u.id.clone(), i)).collect();
        let mut search = MoveSearch::default();
        let mut engine = Engine::new(&grid, &board);
        let mut dice = Dice::new(1, Vec::new());
        let mut log = EventLog::default();
        let mut o = Orders { bf: &bf, index: &index, search: &mut search, activity: &mut activity };
        let results =
            orders.iter().map(|x| o.apply(&mut engine, &mut board, &mut dice, &mut log, phase, 0, x)).collect();
        (results, board, log)
    }

    fn face(unit: &str, facing: Dir) -> Order {
        Order::Face { unit: unit.into(), facing }
    }

    fn refusal(r: &Result<(), OrderError>) -> String {
        match r {
            Err(OrderError::Illegal { why, .. }) => why.clone(),
            other => panic!("expected an illegal order, got {other:?}"),
        }
    }

    #[test]
    fn a_face_order_turns_the_unit_and_logs_it() {
        let (r, board, log) = give(&Rules::default(), |_, _| {}, Phase::Movement, &[face("fr", Dir::SE)]);
        assert_eq!(r, vec![Ok(())]);
        assert_eq!(board.units[0].facing, Dir::SE);
        let last = log.events.last().expect("an event");
        assert_eq!(
            last.kind,
            EventKind::Facing { unit: "fr".into(), from: Heading::Hexside(Dir::N), to: Heading::Hexside(Dir::SE) }
        );
        assert!(log.to_jsonl().contains(r#""kind":"Facing","unit":"fr","from":"N","to":"SE""#));
    }

    #[test]
    fn a_unit_may_face_after_moving_and_turning_is_free_by_default() {
        let orders = [Order::Move { unit: "fr".into(), to: (3, 4) }, face("fr", Dir::NE), face("fr", Dir::N)];
        let (r, board, _) = give(&Rules::default(), |_, _| {}, Phase::Movement, &orders);
        assert_eq!(r, vec![Ok(()), Ok(()), Ok(())]);
        assert_eq!((board.units[0].at, board.units[0].facing), (Some(Offset::new(3, 4)), Dir::N));
    }

    #[test]
    fn face_orders_are_refused_out_of_phase_for_the_enemy_and_for_routed_or_fought_units() {
        let rules = Rules::default();
        let (r, ..) = give(&rules, |_, _| {}, Phase::OffensiveFire, &[face("fr", Dir::S)]);
        assert!(matches!(r[0], Err(OrderError::WrongPhase { order: "Face", .. })), "{r:?}");
        let (r, ..) = give(&rules, |_, _| {}, Phase::Movement, &[face("ru", Dir::N)]);
        assert!(matches!(r[0], Err(OrderError::NotYours { .. })), "{r:?}");
        let (r, ..) = give(&rules, |b, _| b.units[0].state = State::Routed, Phase::Movement, &[face("fr", Dir::S)]);
        assert!(refusal(&r[0]).contains("routed"), "{r:?}");
        let (r, ..) = give(&rules, |_, a| a.fought[0] = true, Phase::Movement, &[face("fr", Dir::S)]);
        assert!(refusal(&r[0]).contains("fought"), "{r:?}");
        let (r, ..) =
            give(&rules, |b, _| b.units[0].formation = Formation::Square, Phase::Movement, &[face("fr", Dir::S)]);
        assert!(refusal(&r[0]).contains("square"), "{r:?}");
        let (r, ..) = give(&rules, |_, _| {}, Phase::Movement, &[face("fr", Dir::N)]);
        assert!(refusal(&r[0]).contains("already faces N"), "{r:?}");
        // A disordered unit may still turn.
        let (r, ..) = give(&rules, |b, _| b.units[0].state = State::Disordered, Phase::Movement, &[face("fr", Dir::S)]);
        assert_eq!(r, vec![Ok(())]);
    }

    #[test]
    fn turning_costs_face_mp_and_needs_them_left() {
        let mut rules = Rules::default();
        rules.combat.face_mp = 2.0;
        // Column: 6 MP. Four hexes leave 2: one turn, not two.
        let orders = [Order::Move { unit: "fr".into(), to: (7, 5) }, face("fr", Dir::NE), face("fr", Dir::SE)];
        let (r, ..) = give(&rules, |_, _| {}, Phase::Movement, &orders);
        assert_eq!(r[1], Ok(()));
        assert!(refusal(&r[2]).contains("too few movement points"), "{r:?}");
    }

    /// Whether some path of the reach goes on through `hex`.
    fn crossed(reach: &Reach, grid: &Grid, hex: Offset) -> bool {
        reach
            .ends
            .iter()
            .any(|&(end, _)| reach.path_to(grid, end).is_some_and(|p| p.len() > 2 && p[1..p.len() - 1].contains(&hex)))
    }

    #[test]
    fn a_turned_unit_takes_its_zone_of_influence_with_it() {
        let rules = Rules::default();
        let map = TerrainMap::from_rows(&["........"; 8]);
        let grid = Grid::new(&map, &rules);
        let sides = crate::generate::sides();
        let ctx = Ctx { grid: &grid, rules: &rules, sides: &sides };
        let tables = rules.combat.tables();
        let bf = Battlefield { ctx: &ctx, map: &map, tables: &tables, movement: &[] };
        let mut board = Board {
            units: vec![
                HexUnit::marching("fr", 0, Arm::Infantry, Offset::new(3, 6), Dir::N),
                HexUnit::marching("ru", 1, Arm::Infantry, Offset::new(3, 2), Dir::S),
            ],
        };
        let index: HashMap<String, usize> = board.units.iter().enumerate().map(|(i, u)| (u.id.clone(), i)).collect();
        let mut search = MoveSearch::default();
        let mut activity = Activity::new(2);
        let mut engine = Engine::new(&grid, &board);
        let mut dice = Dice::new(1, Vec::new());
        let mut log = EventLog::default();
        let mut o = Orders { bf: &bf, index: &index, search: &mut search, activity: &mut activity };
        let ru = Offset::new(3, 2);
        let front = |facing: Dir| crate::labataille::fields::front_sides(facing).map(|d| ru.neighbour(d));
        // Facing south, the Russian's zone is SW, S and SE of it: the French
        // march into those hexes and no further.
        engine.ensure_fields(&ctx, &board, 0);
        let before = o.reach(&mut engine, &board, 0);
        for h in front(Dir::S) {
            assert!(before.cost_to(h).is_some() && !crossed(&before, &grid, h), "old front {h}");
        }
        // It turns to face north-west: SW, NW and N.
        let r = o.apply(&mut engine, &mut board, &mut dice, &mut log, Phase::Movement, 1, &face("ru", Dir::NW));
        assert_eq!(r, Ok(()));
        let after = o.reach(&mut engine, &board, 0);
        for h in front(Dir::NW) {
            assert!(!crossed(&after, &grid, h), "new front {h}");
        }
        let freed = [ru.neighbour(Dir::S), ru.neighbour(Dir::SE)];
        assert!(freed.iter().any(|&h| crossed(&after, &grid, h)), "the old front is open ground now");
        // Round the east flank to the hex north of it is shorter now.
        let north = ru.neighbour(Dir::N);
        assert!(after.cost_to(north) < before.cost_to(north).or(Some(Centi::MAX)), "{:?}", after.cost_to(north));
        let fields = engine.fields(&ctx, &board, 0).expect("fields");
        assert_eq!(fields.zone[grid.idx(ru.neighbour(Dir::S))], 0);
        assert!(fields.zone[grid.idx(ru.neighbour(Dir::NW))] > 0);
    }
}
