//! The rules' view of the units. Between phases the unit components are
//! the truth ([`super::components`]); the pure rules read and write plain
//! data, a [`Board`] in hex mode and a [`Table`] in free space. Each view
//! is kept in the world between calls: built once per battle (the only
//! time unit ids are copied), then on each call only the units whose
//! components changed since the last call are read again, and after the
//! rule only the components it changed are written back (`set_if_neq`),
//! so change detection sees exactly what the rules did.

use bevy::ecs::change_detection::Tick;
use bevy::ecs::system::{SystemChangeTick, SystemState};
use bevy::prelude::*;

use super::battle::Battle;
use super::components::*;
use crate::belle_alliance::broad::BroadPhaseKind;
use crate::belle_alliance::engine::FsEngine;
use crate::belle_alliance::{FsCtx, FsUnit, Table};
use crate::dice::Dice;
use crate::events::EventLog;
use crate::labataille::engine::{Ctx, Engine};
use crate::labataille::{Board, HexUnit};

/// The hex units' components, the identity ones read-only.
pub type UnitQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static UnitIndex,
        &'static UnitName,
        &'static SideIndex,
        &'static ArmOf,
        &'static MoraleValue,
        &'static mut Strength,
        &'static mut Facing,
        &'static mut Limbered,
        &'static mut HexPosition,
        &'static mut MoraleState,
        &'static mut CavalryReadiness,
        &'static mut FormationOf,
        &'static mut Rested,
    ),
>;

/// The free-space units' components, the identity ones read-only.
pub type FsQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static UnitIndex,
        &'static UnitName,
        &'static SideIndex,
        &'static ArmOf,
        &'static mut Valour,
        &'static mut Limbered,
        &'static mut HorseArtillery,
        &'static mut Strength,
        &'static mut TablePosition,
        &'static mut DisorderState,
        &'static mut FormationOf,
        &'static mut AbandonedGuns,
        &'static mut ShakenIn,
    ),
>;

/// Whether any of these components changed after `since`.
macro_rules! changed_since {
    ($since:expr, $now:expr; $($c:expr),+) => {
        false $(|| $c.last_changed().is_newer_than($since, $now))+
    };
}

/// When a view was last brought up to date with the components.
#[derive(Clone, Copy, Debug, Default)]
struct Freshness(Option<Tick>);

impl Freshness {
    /// Since when to read changed units, or `None` when the whole view must
    /// be built: never built yet, or units came or went.
    fn since(self, components: usize, kept: usize) -> Option<Tick> {
        self.0.filter(|_| components == kept)
    }

    fn mark(&mut self, now: Tick) {
        self.0 = Some(now);
    }
}

/// Units keyed by their index, in index order.
fn in_unit_order<U>(mut units: Vec<(usize, U)>) -> Vec<U> {
    units.sort_by_key(|(i, _)| *i);
    units.into_iter().map(|(_, u)| u).collect()
}

/// The board the hex rules play on, in unit-index order.
#[derive(Resource, Default)]
pub struct BoardView {
    board: Board,
    fresh: Freshness,
}

impl BoardView {
    /// The board as of the last call (what the components held then).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Brings the board up to date with the components: all of them the
    /// first time or when units came or went, afterwards only the units
    /// with a component changed since. Returns whether anything was read.
    pub fn sync(&mut self, q: &mut UnitQuery, ticks: SystemChangeTick) -> bool {
        let now = ticks.this_run();
        let Some(since) = self.fresh.since(q.iter().count(), self.board.units.len()) else {
            self.rebuild(q);
            self.fresh.mark(now);
            return true;
        };
        let mut read = false;
        for (i, _, _, _, _, strength, facing, limbered, at, state, ready, formation, rested) in q.iter_mut() {
            if !changed_since!(since, now; strength, facing, limbered, at, state, ready, formation, rested) {
                continue;
            }
            let Some(u) = self.board.units.get_mut(i.0) else { continue };
            u.strength = strength.0;
            u.facing = facing.0;
            u.limbered = limbered.0;
            u.at = at.0;
            u.state = state.0;
            u.readiness = ready.0;
            u.formation = formation.0;
            u.rested = rested.0;
            read = true;
        }
        self.fresh.mark(now);
        read
    }

    fn rebuild(&mut self, q: &UnitQuery) {
        let units = q
            .iter()
            .map(|(i, name, side, arm, morale, strength, facing, limbered, at, state, ready, formation, rested)| {
                let unit = HexUnit {
                    id: name.id.clone(),
                    side: side.0,
                    arm: arm.0,
                    at: at.0,
                    morale: morale.0,
                    strength: strength.0,
                    state: state.0,
                    readiness: ready.0,
                    formation: formation.0,
                    facing: facing.0,
                    limbered: limbered.0,
                    rested: rested.0,
                };
                (i.0, unit)
            })
            .collect();
        self.board = Board { units: in_unit_order(units) };
    }

    /// Writes what the rules changed back into the components; unchanged
    /// components are left alone, so they do not show as changed.
    pub fn write_back(&mut self, q: &mut UnitQuery, ticks: SystemChangeTick) {
        for (
            i,
            _,
            _,
            _,
            _,
            mut strength,
            mut facing,
            mut limbered,
            mut at,
            mut state,
            mut ready,
            mut formation,
            mut rested,
        ) in q.iter_mut()
        {
            let Some(u) = self.board.units.get(i.0) else { continue };
            strength.set_if_neq(Strength(u.strength));
            facing.set_if_neq(Facing(u.facing));
            limbered.set_if_neq(Limbered(u.limbered));
            at.set_if_neq(HexPosition(u.at));
            state.set_if_neq(MoraleState(u.state));
            ready.set_if_neq(CavalryReadiness(u.readiness));
            formation.set_if_neq(FormationOf(u.formation));
            rested.set_if_neq(Rested(u.rested));
        }
        // What was just written is what the board holds.
        self.fresh.mark(ticks.this_run());
    }

    /// Runs `rule` on the board brought up to date, then writes back. The
    /// engine's caches are told of changes made outside the rules.
    pub fn with_board(
        &mut self,
        q: &mut UnitQuery,
        ticks: SystemChangeTick,
        battle: &Battle,
        engine: &mut Engine,
        rule: impl FnOnce(&Ctx, &mut Engine, &mut Board),
    ) {
        self.lend(q, ticks, battle, engine, |ctx, engine, board| rule(ctx, engine, board));
    }

    /// Like [`BoardView::with_board`], with the rule's result returned.
    pub fn lend<R>(
        &mut self,
        q: &mut UnitQuery,
        ticks: SystemChangeTick,
        battle: &Battle,
        engine: &mut Engine,
        rule: impl FnOnce(&Ctx, &mut Engine, &mut Board) -> R,
    ) -> R {
        if self.sync(q, ticks) {
            engine.sync(&battle.grid, &self.board);
        }
        let ctx = Ctx { grid: &battle.grid, rules: &battle.scenario.rules, sides: &battle.scenario.sides };
        let r = rule(&ctx, engine, &mut self.board);
        engine.remember(&self.board);
        self.write_back(q, ticks);
        r
    }
}

/// The table the free-space rules play on, in unit-index order.
#[derive(Resource, Default)]
pub struct TableView {
    table: Table,
    fresh: Freshness,
}

impl TableView {
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// As [`BoardView::sync`], for the table.
    pub fn sync(&mut self, q: &mut FsQuery, ticks: SystemChangeTick) -> bool {
        let now = ticks.this_run();
        let Some(since) = self.fresh.since(q.iter().count(), self.table.units.len()) else {
            self.rebuild(q);
            self.fresh.mark(now);
            return true;
        };
        let mut read = false;
        for (i, _, _, _, valour, limbered, horse, strength, pos, state, formation, guns, shaken) in q.iter_mut() {
            if !changed_since!(since, now; valour, limbered, horse, strength, pos, state, formation, guns, shaken) {
                continue;
            }
            let Some(u) = self.table.units.get_mut(i.0) else { continue };
            u.valour = valour.0;
            u.limbered = limbered.0;
            u.horse = horse.0;
            u.figures = strength.0;
            (u.x, u.y, u.facing) = (pos.x, pos.y, pos.facing);
            u.state = state.0;
            u.formation = formation.0;
            u.guns_left = guns.0;
            u.shaken_in = shaken.0;
            read = true;
        }
        self.fresh.mark(now);
        read
    }

    fn rebuild(&mut self, q: &FsQuery) {
        let units = q
            .iter()
            .map(|(i, name, side, arm, valour, limbered, horse, strength, pos, state, formation, guns, shaken)| {
                let unit = FsUnit {
                    id: name.id.clone(),
                    side: side.0,
                    arm: arm.0,
                    figures: strength.0,
                    valour: valour.0,
                    state: state.0,
                    formation: formation.0,
                    limbered: limbered.0,
                    horse: horse.0,
                    x: pos.x,
                    y: pos.y,
                    facing: pos.facing,
                    guns_left: guns.0,
                    shaken_in: shaken.0,
                };
                (i.0, unit)
            })
            .collect();
        self.table = Table { units: in_unit_order(units) };
    }

    pub fn write_back(&mut self, q: &mut FsQuery, ticks: SystemChangeTick) {
        for (
            i,
            _,
            _,
            _,
            mut valour,
            mut limbered,
            mut horse,
            mut strength,
            mut pos,
            mut state,
            mut formation,
            mut guns,
            mut shaken,
        ) in q.iter_mut()
        {
            let Some(u) = self.table.units.get(i.0) else { continue };
            valour.set_if_neq(Valour(u.valour));
            limbered.set_if_neq(Limbered(u.limbered));
            horse.set_if_neq(HorseArtillery(u.horse));
            strength.set_if_neq(Strength(u.figures));
            pos.set_if_neq(TablePosition { x: u.x, y: u.y, facing: u.facing });
            state.set_if_neq(DisorderState(u.state));
            formation.set_if_neq(FormationOf(u.formation));
            guns.set_if_neq(AbandonedGuns(u.guns_left));
            shaken.set_if_neq(ShakenIn(u.shaken_in));
        }
        self.fresh.mark(ticks.this_run());
    }

    /// Runs `rule` on the table brought up to date, then writes back. The
    /// free-space engine keeps nothing between phases (its queue is empty
    /// at the end of each), so a fresh one is built on the current table.
    pub fn with_table(
        &mut self,
        q: &mut FsQuery,
        ticks: SystemChangeTick,
        battle: &Battle,
        dice: &mut Dice,
        log: &mut EventLog,
        rule: impl FnOnce(&FsCtx, &mut FsEngine, &mut Table, &mut Dice, &mut EventLog),
    ) {
        self.sync(q, ticks);
        let ctx = FsCtx::new(&battle.scenario);
        let mut engine = FsEngine::new(&ctx, &self.table, BroadPhaseKind::Grid);
        rule(&ctx, &mut engine, &mut self.table, dice, log);
        self.write_back(q, ticks);
    }
}

/// Lends the up-to-date hex board to `f` with the rest of the world, for
/// the segments run between systems (leaders, corps, score), without
/// copying it. `None` in a world with no battle.
pub fn board_scope<R>(world: &mut World, f: impl FnOnce(&mut World, &Board) -> R) -> Option<R> {
    if !world.contains_resource::<BoardView>() {
        return None;
    }
    Some(world.resource_scope(|world, mut view: Mut<BoardView>| {
        let mut state = SystemState::<(UnitQuery, SystemChangeTick)>::new(world);
        if let Ok((mut q, ticks)) = state.get_mut(world) {
            view.sync(&mut q, ticks);
        }
        f(world, &view.board)
    }))
}

/// Lends the up-to-date free-space table to `f`.
pub fn table_scope<R>(world: &mut World, f: impl FnOnce(&mut World, &Table) -> R) -> Option<R> {
    if !world.contains_resource::<TableView>() {
        return None;
    }
    Some(world.resource_scope(|world, mut view: Mut<TableView>| {
        let mut state = SystemState::<(FsQuery, SystemChangeTick)>::new(world);
        if let Ok((mut q, ticks)) = state.get_mut(world) {
            view.sync(&mut q, ticks);
        }
        f(world, &view.table)
    }))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::sim::{Seats, Simulation};
    use crate::vocab::State;

    fn cascade() -> Simulation {
        let text = include_str!("../../scenarios/cascade.ron");
        let scenario = crate::scenario::parse(text, "cascade.ron").expect("the bundled scenario parses");
        Simulation::new(Arc::new(scenario), 1, Vec::new(), Seats::Nobody)
    }

    fn sync_now(world: &mut World) -> bool {
        let mut state = SystemState::<(UnitQuery, ResMut<BoardView>, SystemChangeTick)>::new(world);
        let (mut q, mut view, ticks) = state.get_mut(world).expect("a battle is installed");
        view.sync(&mut q, ticks)
    }

    #[test]
    fn the_board_is_read_again_only_where_a_component_changed() {
        let mut sim = cascade();
        let world = sim.app.world_mut();
        assert!(sync_now(world), "the first call reads every unit");
        assert!(!sync_now(world), "nothing changed: nothing is read");

        // A component written outside the rules (a save restored, a test,
        // an editor) is what the rules see next.
        let mut q = world.query::<(&UnitIndex, &mut MoraleState)>();
        for (i, mut state) in q.iter_mut(world) {
            if i.0 == 1 {
                state.0 = State::Routed;
            }
        }
        assert!(sync_now(world));
        let board = board_scope(world, |_, b| b.clone()).expect("a battle is installed");
        assert_eq!(board.units[1].state, State::Routed);
        assert_ne!(board.units[0].state, State::Routed);
        assert!(!sync_now(world));
    }

    #[test]
    fn what_the_rules_change_is_written_back_and_not_read_again() {
        let mut sim = cascade();
        let before = sim.board();
        // Turn 1's shock starts the cascade.
        sim.step();
        let world = sim.app.world_mut();
        let board = board_scope(world, |_, b| b.clone()).expect("a battle is installed");
        assert_ne!(board, before, "the shock changed the board");
        let mut q = world.query::<(&UnitIndex, &MoraleState, &HexPosition)>();
        for (i, state, at) in q.iter(world) {
            assert_eq!((state.0, at.0), (board.units[i.0].state, board.units[i.0].at), "unit {}", i.0);
        }
        assert!(!sync_now(world), "the rules' own writes are not read back");
    }
}
