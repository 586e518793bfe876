//! The free-space (Belle Alliance) systems: shocks with the flights,
//! carry-alongs and retreats they cause; each side's bound as order phases
//! (announcement with reorganisation and charges, movement, fire, melee)
//! given by the replay, the AI or a player; the close of each phase
//! (forced moves, captured guns, objectives); and army morale.

use bevy::ecs::system::{SystemChangeTick, SystemParam, SystemState};
use bevy::prelude::*;

use super::battle::{Battle, BattleLog, DiceBox};
use super::clock::{Clock, Origin};
use super::control::{AiLevels, Controls};
use super::play::{PlayState, Undo, replay_stamped};
use super::thinking::{self, Outcome, Plan, Position};
use super::view::{FsQuery, TableView};
use crate::belle_alliance::ai::{self, FsGoals};
use crate::belle_alliance::engine::FsEngine;
use crate::belle_alliance::foresight::{self, TablePosition};
use crate::belle_alliance::play::{At, Bound, FsPlay, close_phase, open_phase};
use crate::belle_alliance::victory::{self as fs_victory, FsScore};
use crate::belle_alliance::{FsCtx, Table};
use crate::dice::Dice;
use crate::events::{EventKind, EventLog};
use crate::labataille::ai::DeliberationProgress;
use crate::labataille::orders::LoggedOrder;
use crate::scenario::{Mode, Scenario};
use crate::turn::OrderStamp;
use crate::turn::Phase;
use crate::vocab::{AiLevel, Control};

/// The free-space game between phases: what units did this bound, guns
/// taken, who holds each objective, whose army has broken, and the undo
/// snapshots of the phase.
#[derive(Resource, Clone, Debug, Default)]
pub struct FsState {
    pub play: FsPlay,
    pub holders: Vec<Option<usize>>,
    pub broken: Vec<bool>,
    pub(super) undo: Vec<Undo<FsSnapshot>>,
}

impl FsState {
    pub(super) fn new(s: &Scenario) -> Self {
        Self {
            play: FsPlay::new(s.units.len()),
            holders: s.objectives.iter().map(|o| o.held_by).collect(),
            broken: vec![false; s.sides.len()],
            undo: Vec::new(),
        }
    }
}

/// The table as it stood before an order, to undo it.
#[derive(Clone, Debug)]
pub(super) struct FsSnapshot {
    pub table: Table,
    pub play: FsPlay,
    pub log_len: usize,
    pub dice: Dice,
}

/// Everything a free-space segment needs: the units, the table view, the
/// battle, its dice and log.
#[derive(SystemParam)]
pub(super) struct Segment<'w, 's> {
    q: FsQuery<'w, 's>,
    ticks: SystemChangeTick,
    view: ResMut<'w, TableView>,
    battle: Res<'w, Battle>,
    dice: ResMut<'w, DiceBox>,
    log: ResMut<'w, BattleLog>,
}

impl Segment<'_, '_> {
    /// Runs `rule` on the table brought up to date, then writes back.
    fn run(&mut self, rule: impl FnOnce(&FsCtx, &mut FsEngine, &mut Table, &mut Dice, &mut EventLog)) {
        let Segment { q, ticks, view, battle, dice, log } = self;
        view.with_table(q, *ticks, battle, &mut dice.0, log, rule);
    }
}

/// Free-space shocks of this turn, in file order; their flights, carry-alongs
/// and retreats are resolved at the end of the phase (Belle Alliance 2.5).
pub(super) fn fs_shocks_system(mut segment: Segment, clock: Res<Clock>) {
    let turn = clock.turn;
    let shocks: Vec<_> = segment.battle.scenario.shocks.iter().filter(|s| s.turn == turn).cloned().collect();
    if shocks.is_empty() {
        return;
    }
    segment.run(|ctx, engine, table, dice, log| {
        for s in &shocks {
            engine.apply_shock(ctx, table, log, s, turn);
        }
        engine.resolve(ctx, table, dice, log, turn);
    });
}

/// Lends `rule` the bound: the table brought up to date with a fresh engine
/// on it, the game state, the dice, the log and the play state (order book
/// and replay); then writes the table back.
pub(super) fn with_bound<R>(world: &mut World, rule: impl FnOnce(&mut Bound, &mut PlayState, &mut FsState) -> R) -> R {
    let mut state = SystemState::<(
        FsQuery,
        SystemChangeTick,
        ResMut<TableView>,
        Res<Battle>,
        ResMut<DiceBox>,
        ResMut<BattleLog>,
        ResMut<PlayState>,
        ResMut<FsState>,
    )>::new(world);
    // `reset` always installs these resources before any phase or order.
    let (mut q, ticks, mut view, battle, mut dice, mut log, mut play, mut fs) =
        state.get_mut(world).expect("the battle's resources are installed by `reset`");
    let mut out = None;
    view.with_table(&mut q, ticks, &battle, &mut dice.0, &mut log, |ctx, engine, table, dice, log| {
        let mut game = std::mem::take(&mut fs.play);
        let mut b = Bound { ctx, engine, table, play: &mut game, dice, log };
        out = Some(rule(&mut b, &mut play, &mut fs));
        fs.play = game;
    });
    state.apply(world);
    out.expect("with_table always runs its rule")
}

/// What the AI of `side` plays for.
fn goals(world: &World, side: usize) -> FsGoals {
    let scenario = world.resource::<Battle>().scenario.clone();
    let fs = world.resource::<FsState>();
    let level = world.get_resource::<AiLevels>().map_or_else(Default::default, |l| l.of_side(side));
    FsGoals::for_side(&FsCtx::new(&scenario), &fs.holders, &fs.broken, side, level)
}

/// A free-space order phase begins: the phasing side's bound starts in its
/// announcement phase (`Charge` slot) with reorganisation (2.4); each fire
/// phase lets every unit fire again. Then the phase's orders come from the
/// replay, or the AI if it controls the acting side; a player's come
/// through [`super::issue_order`].
pub(super) fn fs_order_phase_system(world: &mut World) {
    let clock = *world.resource::<Clock>();
    let (Some(phasing), Some(phase)) = (clock.side, clock.phase.order_phase()) else { return };
    let acting = phase.acting_side(phasing);
    let control = world.resource::<Controls>().of(acting);
    let stamp = OrderStamp { turn: clock.turn, side: phasing, phase };
    let goals = (control == Control::Ai).then(|| goals(world, acting));
    let at = At { turn: clock.turn, phase, side: acting };
    let plan = goals.as_ref().map_or(Plan::InPlace, |g| thinking::plan(world, deliberates(g, phase), stamp));
    let table_of = table_position(world, clock.turn, acting);
    let outcome = with_bound(world, |b, pb, fs| {
        open_phase(b, phase, phasing, clock.turn);
        if pb.replay_until.is_some() && !(pb.players_only && goals.is_some()) {
            let players_only = pb.players_only;
            replay_stamped(
                &mut pb.replay,
                &mut pb.book,
                &mut pb.dropped,
                players_only,
                stamp,
                b,
                |b, order| b.apply(at, order),
                |b| b.log,
            );
            return Outcome::Given(None);
        }
        match goals {
            Some(goals) => fs_ai_phase(b, pb, fs, stamp, at, goals, plan, &table_of),
            None => Outcome::Given(None),
        }
    });
    thinking::settle(world, stamp, outcome);
}

/// Whether the planning AI weighs its scripts before these orders (`hard`,
/// in its movement phase).
fn deliberates(goals: &FsGoals, phase: Phase) -> bool {
    goals.level == AiLevel::Hard && phase == Phase::Movement
}

/// The table's position for side `side`'s deliberation, from the table and
/// the game state the bound lends.
fn table_position(world: &World, turn: u32, side: usize) -> impl Fn(&Bound, &FsState) -> TablePosition + use<> {
    let scenario = world.resource::<Battle>().scenario.clone();
    let seed = world.resource::<Origin>().seed;
    move |b, fs| TablePosition {
        scenario: scenario.clone(),
        seed,
        turn,
        side,
        table: b.table.clone(),
        play: b.play.clone(),
        holders: fs.holders.clone(),
        broken: fs.broken.clone(),
    }
}

/// The AI's orders for the phase `stamp` by `plan`, each kept in the book.
#[allow(clippy::too_many_arguments)] // the bound, the books, and the AI's part
fn fs_ai_phase(
    b: &mut Bound,
    pb: &mut PlayState,
    fs: &FsState,
    stamp: OrderStamp,
    at: At,
    mut goals: FsGoals,
    plan: Plan,
    table_of: &dyn Fn(&Bound, &FsState) -> TablePosition,
) -> Outcome {
    let weighed = match plan {
        Plan::InPlace if deliberates(&goals, stamp.phase) => {
            Some(foresight::deliberate(&table_of(b, fs), &DeliberationProgress::default()))
        }
        Plan::InPlace => None,
        Plan::Answered(d) => Some(d),
        Plan::Ask => return Outcome::Asked(Position::Table(Box::new(table_of(b, fs)))),
    };
    if let Some(d) = &weighed {
        goals.scripts = d.scripts(b.table.units.len());
    }
    for order in ai::play_phase(b, at, &goals) {
        pb.book.push(LoggedOrder { at: stamp, order });
    }
    Outcome::Given(weighed)
}

/// The AI gives the orders of the free-space order phase begun, with the
/// answer [`super::answer`] left for it.
pub(super) fn fs_ai_orders(world: &mut World) {
    let clock = *world.resource::<Clock>();
    let (Some(phasing), Some(phase)) = (clock.side, clock.phase.order_phase()) else { return };
    let acting = phase.acting_side(phasing);
    let stamp = OrderStamp { turn: clock.turn, side: phasing, phase };
    let goals = goals(world, acting);
    let at = At { turn: clock.turn, phase, side: acting };
    let plan = thinking::plan(world, deliberates(&goals, phase), stamp);
    let table_of = table_position(world, clock.turn, acting);
    let outcome = with_bound(world, |b, pb, fs| fs_ai_phase(b, pb, fs, stamp, at, goals, plan, &table_of));
    thinking::settle(world, stamp, outcome);
}

/// The AI gives the rest of the orders of a free-space phase already begun
/// (a player's phase handed to the AI).
pub(super) fn fs_ai_rest_of_phase(world: &mut World) {
    let clock = *world.resource::<Clock>();
    let (Some(phasing), Some(phase)) = (clock.side, clock.phase.order_phase()) else { return };
    let acting = phase.acting_side(phasing);
    let stamp = OrderStamp { turn: clock.turn, side: phasing, phase };
    let goals = goals(world, acting);
    let at = At { turn: clock.turn, phase, side: acting };
    with_bound(world, |b, pb, _| {
        for order in ai::play_phase(b, at, &goals) {
            pb.book.push(LoggedOrder { at: stamp, order });
        }
    });
}

fn is_free_space(world: &World) -> bool {
    world.get_resource::<Battle>().is_some_and(|b| b.scenario.mode == Mode::FreeSpace)
}

/// The end of a free-space order phase (2.5): forced moves waiting are made,
/// guns are taken, objectives change hands.
pub(super) fn fs_close_phase(world: &mut World) {
    if !is_free_space(world) || !world.resource::<Clock>().phase.takes_orders() {
        return;
    }
    let turn = world.resource::<Clock>().turn;
    with_bound(world, |b, _, fs| {
        close_phase(b.ctx, b.engine, b.table, b.play, b.dice, b.log, turn);
        fs_victory::update_holders(b.ctx, b.table, &mut fs.holders);
        fs.undo.clear();
    });
}

/// Army morale at the start of a turn (docs/rules.md 2.11): an army with
/// half its units in FU breaks, written once as a `CorpsBroken` of the
/// army (named after its side). Judged only in a played battle. Returns
/// whether an army has broken.
pub(super) fn fs_command_segment(world: &mut World, played: bool) -> bool {
    if !played {
        return false;
    }
    with_bound(world, |b, _, fs| {
        for side in 0..b.ctx.sides.len() {
            if fs.broken[side] || !fs_victory::army_broken(b.ctx, b.table, side) {
                continue;
            }
            fs.broken[side] = true;
            let id = b.ctx.sides[side].id.clone();
            let (routed, _) = fs_victory::fled(b.table, side);
            let because: Vec<_> =
                b.table.units.iter().filter(|u| u.side == side).filter_map(|u| b.log.last_fall(&u.id)).collect();
            b.log.push_because(EventKind::CorpsBroken { corps: id.clone(), army: id, gone: 0, routed }, &because);
        }
        fs.broken.iter().any(|&x| x)
    })
}

/// The score of a free-space battle as it stands.
pub fn fs_score(world: &mut World) -> Option<FsScore> {
    if !is_free_space(world) {
        return None;
    }
    Some(with_bound(world, |b, _, fs| fs_victory::score(b.ctx, b.table, &fs.holders, &b.play.captured, &fs.broken)))
}
