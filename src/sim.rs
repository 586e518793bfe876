//! The battle as an ECS world: units are entities with components, the turn
//! sequence is a series of phase schedules, and the systems are thin adapters
//! that hand the components to the pure rules of [`crate::labataille`] and
//! write the results back. Runs headless under `MinimalPlugins`; the game
//! window drives the same [`Simulation`] one phase at a time.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use bevy::app::App;
use bevy::ecs::schedule::{Schedule, ScheduleLabel};
use bevy::prelude::*;

use crate::belle_alliance::broad::BroadPhaseKind;
use crate::belle_alliance::engine::FsEngine;
use crate::belle_alliance::{FsCtx, FsUnit, Table};
use crate::dice::Dice;
use crate::events::{EventKind, EventLog, FinalUnit, Pos, StateLabel};
use crate::hex::{Dir, Offset};
use crate::labataille::ai::{self, AiGoals};
use crate::labataille::combat::Battlefield;
use crate::labataille::engine::{Ctx, Engine};
use crate::labataille::grid::Grid;
use crate::labataille::movement::MoveSearch;
use crate::labataille::orders::{Activity, Order, OrderError, OrderPhase, Orders};
use crate::labataille::{Board, HexState, HexUnit, victory};
use crate::rules::combat::Tables;
use crate::scenario::{DEFAULT_AGGRESSION, Formation, Mode, Place, Readiness, Scenario, StateName};
use crate::terrain::Arm;
pub use crate::turn::{LoggedOrder, OrderStamp, Phase, SavePoint, SideControl};

// ---------------------------------------------------------------------------
// Components: one concern each.
// ---------------------------------------------------------------------------

/// Position in the scenario's unit list: the stable order every rule uses.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct UnitIndex(pub usize);

/// Identity: the scenario id and the display name.
#[derive(Component, Clone, Debug)]
pub struct UnitName {
    pub id: String,
    pub name: String,
}

/// Which side (index into the scenario's sides).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideIndex(pub usize);

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArmOf(pub Arm);

/// Hex mode position; `None` once off the board.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexPosition(pub Option<Offset>);

/// Free-space position (cm) and facing (degrees clockwise from north).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct TablePosition {
    pub x: f32,
    pub y: f32,
    pub facing: f32,
}

/// Strength increments (hex) or figures (free space).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength(pub u32);

/// The printed d66 morale value (hex mode).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoraleValue(pub u8);

/// Valour, -5..=5 (free space).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Valour(pub i32);

/// Hex-mode morale state.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoraleState(pub HexState);

/// Free-space disorder state (Order, LU, U, FU).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisorderState(pub StateName);

/// Cavalry readiness: Fresh, Tired, Exhausted.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CavalryReadiness(pub Readiness);

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormationOf(pub Formation);

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facing(pub Dir);

/// Artillery with its limbers on.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limbered(pub bool);

/// Free-space horse artillery (flees at the horse rate when limbered).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HorseArtillery(pub bool);

/// Free space: where a battery's guns were left when its gunners fled
/// (Belle Alliance 2.2.7), for drawing and capture.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct AbandonedGuns(pub Option<(f32, f32)>);

/// Free space: the turn the unit's state last got worse (0: shaken from the
/// start); reorganisation waits for the next bound.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShakenIn(pub Option<u32>);

/// Has neither moved nor fought since its side's last recovery segment.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rested(pub bool);

// ---------------------------------------------------------------------------
// Resources.
// ---------------------------------------------------------------------------

/// The battle's event log as a resource of the world: the rules' own
/// [`EventLog`], which dereferences to it wherever a rule writes or a reader
/// reads.
#[derive(Resource, Clone, Debug, Default, Deref, DerefMut)]
pub struct BattleLog(pub EventLog);

/// The scenario and its map arrays.
#[derive(Resource)]
pub struct Battle {
    pub scenario: Arc<Scenario>,
    pub grid: Grid,
}

#[derive(Resource)]
pub struct DiceBox(pub Dice);

#[derive(Resource)]
pub struct EngineState(pub Engine);

/// Who gives orders, as the command line's `--ai` says it.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AiMode {
    Both,
    None,
    Side(usize),
}

/// Control of each side, in scenario order.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Controls(pub Vec<SideControl>);

impl Controls {
    pub fn from_ai(ai: AiMode, sides: usize) -> Self {
        Controls(
            (0..sides)
                .map(|i| match ai {
                    AiMode::Both => SideControl::Ai,
                    AiMode::None => SideControl::Idle,
                    AiMode::Side(s) if s == i => SideControl::Ai,
                    AiMode::Side(_) => SideControl::Idle,
                })
                .collect(),
        )
    }

    pub fn of(&self, side: usize) -> SideControl {
        self.0.get(side).copied().unwrap_or(SideControl::Idle)
    }
}

/// The board as it stood before an order, to undo it (orders that roll no
/// dice only).
#[derive(Clone, Debug)]
struct Snapshot {
    board: Board,
    log_len: usize,
    dice: Dice,
    activity: Activity,
    book_len: usize,
}

/// Everything orders need between phases: what units did this turn, the
/// parsed tables, the order book (every order carried out, for saves and
/// replays), orders waiting to be replayed, and undo snapshots.
#[derive(Resource)]
pub struct PlayState {
    pub activity: Activity,
    search: MoveSearch,
    index: HashMap<String, usize>,
    tables: Tables,
    movement: Vec<Option<f32>>,
    pub book: Vec<LoggedOrder>,
    /// Orders to replay instead of asking the AI or a player, up to and
    /// including the phase stamped `replay_until`.
    replay: VecDeque<LoggedOrder>,
    replay_until: Option<SavePoint>,
    /// The phase the clock points at has begun (its `PhaseStart` written
    /// and its automatic part run).
    begun: bool,
    undo: Vec<Snapshot>,
}

impl PlayState {
    fn new(scenario: &Scenario) -> Self {
        Self {
            activity: Activity::new(scenario.units.len()),
            search: MoveSearch::default(),
            index: scenario.units.iter().enumerate().map(|(i, u)| (u.id.clone(), i)).collect(),
            tables: scenario.rules.combat.tables(),
            movement: scenario.units.iter().map(|u| u.movement).collect(),
            book: Vec::new(),
            replay: VecDeque::new(),
            replay_until: None,
            begun: false,
            undo: Vec::new(),
        }
    }

    fn replaying(&self) -> bool {
        self.replay_until.is_some()
    }
}

/// The schedule run for one phase.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PhaseSchedule(pub Phase);

/// Where the battle stands: the phase now running (or next to run).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub turn: u32,
    /// The phasing side; `None` during `Shocks`.
    pub side: Option<usize>,
    pub phase: Phase,
    pub finished: bool,
}

impl Clock {
    /// The phase after this one, or `None` after the last turn.
    fn next(self, sides: usize, turns: u32) -> Option<Clock> {
        let mut c = self;
        match (c.phase, c.side) {
            (Phase::Shocks, _) => {
                c.side = Some(0);
                c.phase = Phase::Charge;
            }
            (Phase::MoraleRecovery, Some(s)) if s + 1 < sides => {
                c.side = Some(s + 1);
                c.phase = Phase::Charge;
            }
            (Phase::MoraleRecovery, _) => {
                if c.turn >= turns {
                    return None;
                }
                c.turn += 1;
                c.side = None;
                c.phase = Phase::Shocks;
            }
            (p, _) => {
                let i = Phase::SIDE_PHASES.iter().position(|&x| x == p).unwrap_or(0);
                c.phase = Phase::SIDE_PHASES[(i + 1).min(5)];
            }
        }
        Some(c)
    }
}

// ---------------------------------------------------------------------------
// The adapter between components and the pure board.
// ---------------------------------------------------------------------------

type UnitQuery<'w, 's> = Query<
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

/// Copies the hex units' components into a board, in unit-index order.
fn snapshot(q: &UnitQuery) -> Board {
    let mut units: Vec<(usize, HexUnit)> = q
        .iter()
        .map(|(i, name, side, arm, morale, strength, facing, limbered, at, state, ready, formation, rested)| {
            (
                i.0,
                HexUnit {
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
                },
            )
        })
        .collect();
    units.sort_by_key(|(i, _)| *i);
    Board { units: units.into_iter().map(|(_, u)| u).collect() }
}

/// Writes what the rules changed back into the components.
fn write_back(q: &mut UnitQuery, board: &Board) {
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
        let Some(u) = board.units.get(i.0) else { continue };
        strength.set_if_neq(Strength(u.strength));
        facing.set_if_neq(Facing(u.facing));
        limbered.set_if_neq(Limbered(u.limbered));
        at.set_if_neq(HexPosition(u.at));
        state.set_if_neq(MoraleState(u.state));
        ready.set_if_neq(CavalryReadiness(u.readiness));
        formation.set_if_neq(FormationOf(u.formation));
        rested.set_if_neq(Rested(u.rested));
    }
}

/// Runs `rule` on the board built from the components, then writes back.
fn with_board(
    q: &mut UnitQuery,
    battle: &Battle,
    engine: &mut Engine,
    dice: &mut Dice,
    log: &mut EventLog,
    rule: impl FnOnce(&Ctx, &mut Engine, &mut Board, &mut Dice, &mut EventLog),
) {
    let mut board = snapshot(q);
    engine.sync(&battle.grid, &board);
    let ctx = Ctx { grid: &battle.grid, rules: &battle.scenario.rules, sides: &battle.scenario.sides };
    rule(&ctx, engine, &mut board, dice, log);
    engine.remember(&board);
    write_back(q, &board);
}

// ---------------------------------------------------------------------------
// Systems.
// ---------------------------------------------------------------------------

/// Shocks of this turn, in file order, each with its whole cascade.
fn shocks_system(
    mut q: UnitQuery,
    battle: Res<Battle>,
    clock: Res<Clock>,
    mut engine: ResMut<EngineState>,
    mut dice: ResMut<DiceBox>,
    mut log: ResMut<BattleLog>,
) {
    let shocks: Vec<_> = battle.scenario.shocks.iter().filter(|s| s.turn == clock.turn).cloned().collect();
    if shocks.is_empty() {
        return;
    }
    with_board(&mut q, &battle, &mut engine.0, &mut dice.0, &mut log, |ctx, engine, board, dice, log| {
        for s in &shocks {
            engine.apply_shock(ctx, board, dice, log, s);
        }
    });
}

/// The phasing side's Morale Recovery Segment.
fn recovery_system(
    mut q: UnitQuery,
    battle: Res<Battle>,
    clock: Res<Clock>,
    mut engine: ResMut<EngineState>,
    mut dice: ResMut<DiceBox>,
    mut log: ResMut<BattleLog>,
) {
    let Some(side) = clock.side else { return };
    with_board(&mut q, &battle, &mut engine.0, &mut dice.0, &mut log, |ctx, engine, board, dice, log| {
        engine.recovery_segment(ctx, board, dice, log, side);
    });
}

/// Runs `rule` with everything an order needs: the board built from the
/// components, the engine, dice, log and the play state; then writes back.
fn with_orders<R>(
    world: &mut World,
    rule: impl FnOnce(&mut Orders, &mut Engine, &mut Board, &mut Dice, &mut EventLog, &mut PlayBook) -> R,
) -> R {
    let mut state = bevy::ecs::system::SystemState::<(
        UnitQuery,
        Res<Battle>,
        ResMut<EngineState>,
        ResMut<DiceBox>,
        ResMut<BattleLog>,
        ResMut<PlayState>,
    )>::new(world);
    // `reset` always installs these resources before any phase or order.
    let (mut q, battle, mut engine, mut dice, mut log, mut play) =
        state.get_mut(world).expect("the battle's resources are installed by `reset`");
    let mut board = snapshot(&q);
    engine.0.sync(&battle.grid, &board);
    let ctx = Ctx { grid: &battle.grid, rules: &battle.scenario.rules, sides: &battle.scenario.sides };
    let play = &mut *play;
    let (activity, search, index, tables, movement) =
        (&mut play.activity, &mut play.search, &play.index, &play.tables, &play.movement);
    let (book, replay, replay_until, undo) = (&mut play.book, &mut play.replay, &mut play.replay_until, &mut play.undo);
    let bf = Battlefield { ctx: &ctx, map: &battle.scenario.map, tables, movement };
    let mut orders = Orders { bf: &bf, index, search, activity };
    let mut pb = PlayBook { book, replay, replay_until, undo };
    let r = rule(&mut orders, &mut engine.0, &mut board, &mut dice.0, &mut log, &mut pb);
    engine.0.remember(&board);
    write_back(&mut q, &board);
    state.apply(world);
    r
}

/// The play state's records, lent beside the orders.
struct PlayBook<'a> {
    book: &'a mut Vec<LoggedOrder>,
    replay: &'a mut VecDeque<LoggedOrder>,
    replay_until: &'a mut Option<SavePoint>,
    undo: &'a mut Vec<Snapshot>,
}

/// An order phase begins: reset what units did, then take the phase's
/// orders from the replay, or from the AI if it controls the acting side.
/// A human side's orders come later, through [`issue_order`].
fn order_phase_system(world: &mut World) {
    let clock = *world.resource::<Clock>();
    let (Some(phasing), Some(phase)) = (clock.side, clock.phase.order_phase()) else { return };
    let acting = phase.acting_side(phasing);
    let control = world.resource::<Controls>().of(acting);
    let stamp = OrderStamp { turn: clock.turn, side: phasing, phase };
    let goals = (control == SideControl::Ai).then(|| {
        let scenario = world.resource::<Battle>().scenario.clone();
        let v = world.resource::<Victory>();
        AiGoals {
            objectives: scenario.objectives.iter().zip(&v.holders).map(|(o, h)| (o.at, o.points, *h)).collect(),
            aggression: scenario.sides.get(acting).map_or(DEFAULT_AGGRESSION, |s| s.aggression),
            broken: v.broken_units(&scenario),
            exits: scenario.exits.iter().filter(|e| e.side == acting).map(|e| (e.edge, e.points)).collect(),
        }
    });
    with_orders(world, |o, engine, board, dice, log, pb| {
        match phase {
            OrderPhase::Charge => o.activity.new_turn(board, phasing),
            OrderPhase::DefensiveFire | OrderPhase::OffensiveFire => o.activity.new_fire_phase(),
            _ => {}
        }
        if pb.replay_until.is_some() {
            while pb.replay.front().is_some_and(|e| e.at == stamp) {
                let Some(e) = pb.replay.pop_front() else { break };
                // A save's orders were legal when given; one that is not now
                // means the save does not belong to this scenario or build.
                if let Err(err) = o.apply(engine, board, dice, log, phase, acting, &e.order) {
                    log.push(EventKind::ReplayError {
                        order: format!("{:?}", e.order),
                        error: err.to_string(),
                        // Every replayed order joins the book in turn, so
                        // its length is this order's place in the save.
                        index: pb.book.len(),
                        units: e.order.units().into_iter().map(str::to_owned).collect(),
                    });
                }
                pb.book.push(e);
            }
            return;
        }
        if let Some(goals) = goals {
            for order in ai::play_phase(o, engine, board, dice, log, phase, acting, &goals) {
                pb.book.push(LoggedOrder { at: stamp, order });
            }
        }
    });
}

fn hex_mode(battle: Res<Battle>) -> bool {
    battle.scenario.mode == Mode::Hex
}

fn free_space_mode(battle: Res<Battle>) -> bool {
    battle.scenario.mode == Mode::FreeSpace
}

// ---------------------------------------------------------------------------
// The free-space adapter (Belle Alliance).
// ---------------------------------------------------------------------------

type FsQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static UnitIndex,
        &'static UnitName,
        &'static SideIndex,
        &'static ArmOf,
        &'static Valour,
        &'static Limbered,
        &'static HorseArtillery,
        &'static mut Strength,
        &'static mut TablePosition,
        &'static mut DisorderState,
        &'static mut FormationOf,
        &'static mut AbandonedGuns,
        &'static mut ShakenIn,
    ),
>;

/// Copies the free-space units' components into a table, in unit order.
fn fs_snapshot(q: &FsQuery) -> Table {
    let mut units: Vec<(usize, FsUnit)> = q
        .iter()
        .map(|(i, name, side, arm, valour, limbered, horse, strength, pos, state, formation, guns, shaken)| {
            (
                i.0,
                FsUnit {
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
                },
            )
        })
        .collect();
    units.sort_by_key(|(i, _)| *i);
    Table { units: units.into_iter().map(|(_, u)| u).collect() }
}

fn fs_write_back(q: &mut FsQuery, table: &Table) {
    for (i, _, _, _, _, _, _, mut strength, mut pos, mut state, mut formation, mut guns, mut shaken) in q.iter_mut() {
        let Some(u) = table.units.get(i.0) else { continue };
        strength.set_if_neq(Strength(u.figures));
        pos.set_if_neq(TablePosition { x: u.x, y: u.y, facing: u.facing });
        state.set_if_neq(DisorderState(u.state));
        formation.set_if_neq(FormationOf(u.formation));
        guns.set_if_neq(AbandonedGuns(u.guns_left));
        shaken.set_if_neq(ShakenIn(u.shaken_in));
    }
}

/// Runs `rule` on the table built from the components, then writes back.
/// The free-space engine keeps nothing between phases (its queue is empty
/// at the end of each), so a fresh one is built on the current table.
fn with_table(
    q: &mut FsQuery,
    battle: &Battle,
    dice: &mut Dice,
    log: &mut EventLog,
    rule: impl FnOnce(&FsCtx, &mut FsEngine, &mut Table, &mut Dice, &mut EventLog),
) {
    let mut table = fs_snapshot(q);
    let ctx = FsCtx::new(&battle.scenario);
    let mut engine = FsEngine::new(&ctx, &table, BroadPhaseKind::Grid);
    rule(&ctx, &mut engine, &mut table, dice, log);
    fs_write_back(q, &table);
}

/// Free-space shocks of this turn, in file order; their flights, carry-alongs
/// and retreats are resolved at the end of the phase (Belle Alliance 2.5).
fn fs_shocks_system(
    mut q: FsQuery,
    battle: Res<Battle>,
    clock: Res<Clock>,
    mut dice: ResMut<DiceBox>,
    mut log: ResMut<BattleLog>,
) {
    let shocks: Vec<_> = battle.scenario.shocks.iter().filter(|s| s.turn == clock.turn).cloned().collect();
    if shocks.is_empty() {
        return;
    }
    let turn = clock.turn;
    with_table(&mut q, &battle, &mut dice.0, &mut log, |ctx, engine, table, dice, log| {
        for s in &shocks {
            engine.apply_shock(ctx, table, log, s, turn);
        }
        engine.resolve(ctx, table, dice, log, turn);
    });
}

/// The phasing side's announcement phase (the `Charge` slot): reorganisation
/// of its FU units (Belle Alliance 2.4).
fn fs_announcement_system(
    mut q: FsQuery,
    battle: Res<Battle>,
    clock: Res<Clock>,
    mut dice: ResMut<DiceBox>,
    mut log: ResMut<BattleLog>,
) {
    let Some(side) = clock.side else { return };
    let turn = clock.turn;
    with_table(&mut q, &battle, &mut dice.0, &mut log, |ctx, engine, table, dice, log| {
        engine.reorganisation_segment(ctx, table, dice, log, turn, side);
    });
}

// ---------------------------------------------------------------------------
// Building and driving the world.
// ---------------------------------------------------------------------------

/// Spawns one entity per unit with its components.
pub fn spawn_units(world: &mut World, scenario: &Scenario) {
    for (i, u) in scenario.units.iter().enumerate() {
        let hex = HexUnit::from_spec(u, scenario.sides[u.side].rear);
        let mut e = world.spawn((
            UnitIndex(i),
            UnitName { id: u.id.clone(), name: u.name.clone() },
            SideIndex(u.side),
            ArmOf(u.arm),
            Strength(u.strength),
            CavalryReadiness(u.readiness),
            FormationOf(hex.formation),
            Facing(hex.facing),
            Limbered(u.limbered),
            Rested(true),
        ));
        match u.place {
            Place::Hex(at) => {
                e.insert((HexPosition(Some(at)), MoraleValue(u.morale), MoraleState(hex.state)));
            }
            Place::Table { x, y } => {
                let fs = FsUnit::from_spec(u, scenario.sides[u.side].rear);
                e.insert((
                    TablePosition { x, y, facing: fs.facing },
                    Valour(u.valour),
                    DisorderState(u.state),
                    HorseArtillery(u.horse),
                    AbandonedGuns(None),
                    ShakenIn(fs.shaken_in),
                ));
            }
        }
    }
}

/// Adds the battle's resources, phase schedules and systems to an app.
pub fn install(app: &mut App, scenario: Arc<Scenario>, seed: u64, dice: Vec<u32>, ai: AiMode) {
    install_schedules(app);
    reset(app.world_mut(), scenario, seed, dice, ai);
}

/// Adds the phase schedules and their systems, without a battle: the game
/// window does this once and then [`reset`]s for every scenario it opens.
pub fn install_schedules(app: &mut App) {
    for phase in [Phase::Shocks].into_iter().chain(Phase::SIDE_PHASES) {
        app.add_schedule(Schedule::new(PhaseSchedule(phase)));
    }
    app.add_systems(PhaseSchedule(Phase::Shocks), shocks_system.run_if(hex_mode));
    app.add_systems(PhaseSchedule(Phase::MoraleRecovery), recovery_system.run_if(hex_mode));
    for phase in [Phase::Charge, Phase::Movement, Phase::DefensiveFire, Phase::OffensiveFire, Phase::Melee] {
        app.add_systems(PhaseSchedule(phase), order_phase_system.run_if(hex_mode));
    }
    app.add_systems(PhaseSchedule(Phase::Shocks), fs_shocks_system.run_if(free_space_mode));
    app.add_systems(PhaseSchedule(Phase::Charge), fs_announcement_system.run_if(free_space_mode));
}

/// (Re)starts a battle in `world`: removes any units of a previous one, then
/// inserts the resources and spawns the units of `scenario`.
pub fn reset(world: &mut World, scenario: Arc<Scenario>, seed: u64, dice: Vec<u32>, ai: AiMode) {
    let old: Vec<Entity> = world.query_filtered::<Entity, With<UnitIndex>>().iter(world).collect();
    for e in old {
        world.despawn(e);
    }
    let grid = Grid::new(&scenario.map, &scenario.rules);
    let board = Board::from_scenario(&scenario);
    let engine = Engine::new(&grid, &board);
    world.insert_resource(Battle { scenario: scenario.clone(), grid });
    let dice_script = dice.clone();
    world.insert_resource(DiceBox(Dice::new(seed, dice)));
    world.insert_resource(EngineState(engine));
    world.insert_resource(BattleLog::default());
    let mut play = PlayState::new(&scenario);
    play.activity.exits = scenario.exits.iter().map(|e| (e.side, e.edge)).collect();
    world.insert_resource(play);
    world.insert_resource(Victory::new(&scenario));
    world.insert_resource(Controls::from_ai(ai, scenario.sides.len()));
    world.insert_resource(Origin { seed, dice: dice_script });
    world.insert_resource(ai);
    world.insert_resource(Clock { turn: 1, side: None, phase: Phase::Shocks, finished: false });
    spawn_units(world, &scenario);
}

/// Runs the phase the clock points at, then advances the clock. An order
/// phase of a side a player controls begins and then waits: the window
/// gives orders through [`issue_order`] and ends it with [`end_phase`].
/// Returns `false` once the battle is over (the `Final` event written).
pub fn step_phase(world: &mut World) -> bool {
    let clock = *world.resource::<Clock>();
    if clock.finished {
        return false;
    }
    if !world.resource::<PlayState>().begun {
        let side_id = {
            let b = world.resource::<Battle>();
            clock.side.and_then(|s| b.scenario.sides.get(s)).map(|s| s.id.clone())
        };
        {
            let mut log = world.resource_mut::<BattleLog>();
            log.set_stamp(clock.turn, side_id.as_deref(), clock.phase.name());
            log.push(EventKind::PhaseStart {});
        }
        world.resource_mut::<PlayState>().begun = true;
        refresh_leaders(world);
        // Corps are first checked on `rules.first_command_turn` (house
        // default 2): the opening position is the scenario author's to set.
        // With nobody giving orders (`--ai none`) the battle is a study of
        // morale alone and runs all its turns; a played battle ends here.
        let played = world.resource::<Controls>().0.iter().any(|&c| c != SideControl::Idle);
        let first = world.resource::<Battle>().scenario.rules.first_command_turn;
        if clock.phase == Phase::Shocks && clock.turn >= first && command_segment(world) && played {
            // An army has broken: the battle is over.
            world.resource_mut::<PlayState>().begun = false;
            write_final(world);
            world.resource_mut::<Clock>().finished = true;
            return true;
        }
        world.run_schedule(PhaseSchedule(clock.phase));
        let mut play = world.resource_mut::<PlayState>();
        if play.replay_until == Some(SavePoint::from(clock)) {
            play.replay_until = None;
        }
    }
    if awaiting_orders(world).is_some() {
        return true;
    }
    end_phase(world);
    true
}

/// Ends the phase the clock points at and moves to the next; after the
/// last phase of the last turn, writes `Final`.
pub fn end_phase(world: &mut World) {
    let clock = *world.resource::<Clock>();
    if clock.finished {
        return;
    }
    let (turns, sides) = {
        let b = world.resource::<Battle>();
        (b.scenario.turns, b.scenario.sides.len())
    };
    {
        let mut play = world.resource_mut::<PlayState>();
        play.begun = false;
        play.undo.clear();
    }
    tally(world);
    match clock.next(sides, turns) {
        Some(next) => *world.resource_mut::<Clock>() = next,
        None => {
            write_final(world);
            world.resource_mut::<Clock>().finished = true;
        }
    }
}

/// The order phase waiting for a player, with the side that acts in it.
pub fn awaiting_orders(world: &World) -> Option<(OrderPhase, usize)> {
    let clock = world.get_resource::<Clock>()?;
    let play = world.get_resource::<PlayState>()?;
    if clock.finished || !play.begun || play.replaying() {
        return None;
    }
    let phase = clock.phase.order_phase()?;
    let acting = phase.acting_side(clock.side?);
    (world.resource::<Controls>().of(acting) == SideControl::Human).then_some((phase, acting))
}

/// A player's order in the phase that waits for them. On success it is in
/// the order book; an order that rolls no dice can be taken back with
/// [`undo`] until the phase ends or dice are rolled.
pub fn issue_order(world: &mut World, order: &Order) -> Result<(), OrderError> {
    let Some((phase, acting)) = awaiting_orders(world) else { return Err(OrderError::NotAwaited) };
    let clock = *world.resource::<Clock>();
    let stamp = OrderStamp { turn: clock.turn, side: clock.side.unwrap_or(0), phase };
    with_orders(world, |o, engine, board, dice, log, pb| {
        let before = Snapshot {
            board: board.clone(),
            log_len: log.events.len(),
            dice: dice.clone(),
            activity: o.activity.clone(),
            book_len: pb.book.len(),
        };
        match o.apply(engine, board, dice, log, phase, acting, order) {
            Ok(()) => {
                pb.book.push(LoggedOrder { at: stamp, order: order.clone() });
                if order.rolls_dice() {
                    pb.undo.clear();
                } else {
                    pb.undo.push(before);
                }
                Ok(())
            }
            Err(e) => {
                // Nothing of a refused order may stay behind.
                *board = before.board;
                log.events.truncate(before.log_len);
                *dice = before.dice;
                *o.activity = before.activity;
                Err(e)
            }
        }
    })
}

/// Takes back the last order of this phase if no dice have been rolled
/// since; `false` if there is nothing to take back.
pub fn undo(world: &mut World) -> bool {
    if world.resource::<PlayState>().undo.is_empty() {
        return false;
    }
    with_orders(world, |o, _engine, board, dice, log, pb| {
        let Some(s) = pb.undo.pop() else { return false };
        *board = s.board;
        log.events.truncate(s.log_len);
        *dice = s.dice;
        *o.activity = s.activity;
        o.search.forget();
        pb.book.truncate(s.book_len);
        true
    })
}

/// Where a reachable hex costs: the movement range of a unit now, for the
/// window's overlay and path preview.
pub fn movement_range(world: &mut World, unit: usize) -> crate::labataille::movement::Reach {
    with_orders(world, |o, engine, board, _, _, _| {
        if unit < board.units.len() { (*o.reach(engine, board, unit)).clone() } else { Default::default() }
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

/// The odds of a melee (or a charge's melee), shown before the player commits.
pub fn melee_odds(
    world: &mut World,
    attackers: &[usize],
    target: usize,
    charging: bool,
) -> Result<crate::labataille::combat::MeleeOdds, OrderError> {
    with_orders(world, |o, engine, board, _, _, _| {
        crate::labataille::combat::melee_odds(o.bf, board, engine, attackers, target, charging)
            .map_err(OrderError::from)
    })
}

/// Victory and army morale as the battle goes (hex mode): who holds each
/// objective, increments marched off by each exit, every unit's starting
/// strength, which unit each leader rides with and which corps have broken.
#[derive(Resource, Clone, Debug, Default)]
pub struct Victory {
    pub holders: Vec<Option<usize>>,
    pub exited: Vec<u32>,
    pub start_strength: Vec<u32>,
    pub attached: Vec<usize>,
    pub broken: Vec<bool>,
    /// Events already tallied (exits).
    seen: usize,
}

impl Victory {
    fn new(s: &Scenario) -> Self {
        Victory {
            holders: victory::initial_holders(s),
            exited: victory::exit_tally(s),
            start_strength: s.units.iter().map(|u| u.strength).collect(),
            attached: victory::initial_attachment(s),
            broken: vec![false; s.corps.len()],
            seen: 0,
        }
    }

    /// Units whose corps has broken.
    pub fn broken_units(&self, s: &Scenario) -> Vec<bool> {
        (0..s.units.len()).map(|u| s.corps_of_unit(u).is_some_and(|c| self.broken.get(c) == Some(&true))).collect()
    }
}

/// The hex units as the rules see them.
fn board_of(world: &mut World) -> Board {
    let mut state = bevy::ecs::system::SystemState::<UnitQuery>::new(world);
    match state.get_mut(world) {
        Ok(q) => snapshot(&q),
        Err(_) => Board::default(),
    }
}

fn is_hex(world: &World) -> bool {
    world.get_resource::<Battle>().is_some_and(|b| b.scenario.mode == Mode::Hex)
}

/// Leaders (before each phase): a leader whose unit has gone or routed
/// rides to another, and every unit's bonus is worked out for the phase.
fn refresh_leaders(world: &mut World) {
    if !is_hex(world) || world.resource::<Battle>().scenario.leaders.is_empty() {
        return;
    }
    let board = board_of(world);
    let scenario = world.resource::<Battle>().scenario.clone();
    let mut attached = std::mem::take(&mut world.resource_mut::<Victory>().attached);
    for (leader, unit) in victory::reattach(&scenario, &board, &mut attached) {
        let (Some(l), Some(u)) = (scenario.leaders.get(leader), board.units.get(unit)) else { continue };
        world.resource_mut::<BattleLog>().push(EventKind::LeaderJoined { leader: l.id.clone(), unit: u.id.clone() });
    }
    let radius = scenario.rules.combat.leader_radius;
    let bonus =
        (0..board.units.len()).map(|u| victory::leader_bonus(&scenario, &board, &attached, u, radius)).collect();
    world.resource_mut::<Victory>().attached = attached;
    world.resource_mut::<EngineState>().0.bonus = bonus;
}

/// The command segment at the start of a turn (RULES.md 1.6): corps that
/// have lost enough battalions break. Returns whether an army has broken,
/// which ends the battle.
fn command_segment(world: &mut World) -> bool {
    if !is_hex(world) {
        return false;
    }
    let board = board_of(world);
    let scenario = world.resource::<Battle>().scenario.clone();
    let status = victory::corps_status(&scenario, &board);
    for st in status {
        let known = world.resource::<Victory>().broken.get(st.corps).copied().unwrap_or(true);
        if st.broken && !known {
            world.resource_mut::<Victory>().broken[st.corps] = true;
            let c = &scenario.corps[st.corps];
            let side = scenario.sides.get(c.side).map_or_else(String::new, |s| s.id.clone());
            world.resource_mut::<BattleLog>().push(EventKind::CorpsBroken {
                corps: c.id.clone(),
                side,
                gone: st.gone,
                routed: st.routed,
            });
        }
    }
    (0..scenario.sides.len()).any(|s| victory::army_broken(&scenario, &board, s))
}

/// After each phase: objectives change hands, exits are counted.
fn tally(world: &mut World) {
    if !is_hex(world) {
        return;
    }
    let scenario = world.resource::<Battle>().scenario.clone();
    // Copying every unit out of the world after each phase is only worth it
    // when there are objectives to hold.
    let board = (!scenario.objectives.is_empty()).then(|| board_of(world));
    let new: Vec<(usize, crate::hex::Edge, u32)> = {
        let seen = world.resource::<Victory>().seen;
        world.resource::<BattleLog>().events[seen.min(world.resource::<BattleLog>().events.len())..]
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Exited { unit, edge, increments } => {
                    scenario.unit_index(unit).map(|u| (u, *edge, *increments))
                }
                _ => None,
            })
            .collect()
    };
    let len = world.resource::<BattleLog>().events.len();
    let mut v = world.resource_mut::<Victory>();
    for (u, edge, increments) in new {
        let side = scenario.units[u].side;
        victory::record_exit(&scenario, &mut v.exited, side, edge, HexState::GoodOrder, increments);
    }
    if let Some(board) = board {
        victory::update_holders(&scenario, &board, &mut v.holders);
    }
    v.seen = len;
}

/// The score as it stands (hex mode).
pub fn score(world: &mut World) -> Option<victory::Score> {
    if !is_hex(world) {
        return None;
    }
    let board = board_of(world);
    let scenario = world.resource::<Battle>().scenario.clone();
    let v = world.resource::<Victory>();
    Some(victory::score(&scenario, &board, &v.holders, &v.exited, &v.start_strength))
}

/// The end-of-game summary: losses, routs and cascades in hex mode;
/// flights, carry-alongs and cascades in free space.
pub fn summary(world: &mut World) -> Option<BattleSummary> {
    let scenario = world.resource::<Battle>().scenario.clone();
    if !is_hex(world) {
        let log = world.resource::<BattleLog>();
        return Some(BattleSummary::FreeSpace(crate::belle_alliance::summary::summary(&scenario, log)));
    }
    let board = board_of(world);
    Some(BattleSummary::Hex(victory::summary(&scenario, &board, world.resource::<BattleLog>())))
}

/// A battle's summary, in the terms of its rule system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BattleSummary {
    Hex(victory::Summary),
    FreeSpace(crate::belle_alliance::summary::FlightSummary),
}

impl std::fmt::Display for BattleSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BattleSummary::Hex(s) => s.fmt(f),
            BattleSummary::FreeSpace(s) => s.fmt(f),
        }
    }
}

/// The seed and dice script the battle began with (saves keep them).
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub seed: u64,
    pub dice: Vec<u32>,
}

impl From<Clock> for SavePoint {
    fn from(c: Clock) -> Self {
        SavePoint { turn: c.turn, side: c.side, phase: c.phase, finished: c.finished }
    }
}

/// Starts replaying `orders` up to the save point `until` (the orders are
/// applied at their stamps; no AI or player is asked meanwhile).
pub fn start_replay(world: &mut World, orders: Vec<LoggedOrder>, until: SavePoint) {
    let mut play = world.resource_mut::<PlayState>();
    play.replay = orders.into();
    play.replay_until = Some(until);
}

/// The saved orders a replay has not reached: after [`run_to`], orders
/// stamped for a moment the replay passed without stopping, or for one past
/// the save point, so never carried out. The first of them stops the rest,
/// since orders are replayed in the order saved.
pub fn orders_not_replayed(world: &World) -> Vec<LoggedOrder> {
    world.get_resource::<PlayState>().map_or_else(Vec::new, |p| p.replay.iter().cloned().collect())
}

/// Steps until the clock stands at `until` with its phase begun (or the
/// battle ends).
pub fn run_to(world: &mut World, until: SavePoint) {
    loop {
        let clock = *world.resource::<Clock>();
        let here = SavePoint::from(clock);
        if clock.finished || (here == until && world.resource::<PlayState>().begun) {
            return;
        }
        if awaiting_orders(world).is_some() {
            // Only reached when the save point was passed without stopping:
            // a save from another build. Stop rather than loop.
            return;
        }
        step_phase(world);
    }
}

/// The `Final` event: every unit's state and position.
pub fn write_final(world: &mut World) {
    tally(world);
    if let Some(score) = score(world) {
        let sides = &world.resource::<Battle>().scenario.sides;
        let winner = score.winner.and_then(|w| sides.get(w)).map(|s| s.id.clone());
        let mut log = world.resource_mut::<BattleLog>();
        let turn = log.stamp.turn;
        log.set_stamp(turn, None, "End");
        log.push(EventKind::GameOver {
            winner,
            decisive: score.decisive,
            points: score.points.clone(),
            detail: score.detail.clone(),
        });
    }
    let scenario = world.resource::<Battle>().scenario.clone();
    let mut rows: Vec<(usize, FinalUnit)> = Vec::new();
    let mut q = world.query::<(
        &UnitIndex,
        &UnitName,
        &SideIndex,
        Option<&HexPosition>,
        Option<&MoraleState>,
        Option<&TablePosition>,
        Option<&DisorderState>,
    )>();
    for (i, name, side, hex, state, table, disorder) in q.iter(world) {
        let (state, at) = match (hex, state, table, disorder) {
            (Some(h), Some(s), _, _) => (s.0.label(), h.0.map(Pos::from)),
            (_, _, Some(t), Some(d)) => (StateLabel::free_space(d.0), Some(Pos::Cm([t.x, t.y]))),
            _ => continue,
        };
        let side = scenario.sides.get(side.0).map_or_else(String::new, |s| s.id.clone());
        rows.push((i.0, FinalUnit { id: name.id.clone(), side, state, at }));
    }
    rows.sort_by_key(|(i, _)| *i);
    let mut log = world.resource_mut::<BattleLog>();
    let turn = log.stamp.turn;
    log.set_stamp(turn, None, "End");
    log.push(EventKind::Final { units: rows.into_iter().map(|(_, u)| u).collect() });
}

/// A headless battle: a Bevy app with `MinimalPlugins` and the battle
/// installed, stepped phase by phase.
pub struct Simulation {
    pub app: App,
}

impl Simulation {
    pub fn new(scenario: Arc<Scenario>, seed: u64, dice: Vec<u32>, ai: AiMode) -> Self {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        install(&mut app, scenario, seed, dice, ai);
        Self { app }
    }

    /// Runs one phase; `false` once finished.
    pub fn step(&mut self) -> bool {
        step_phase(self.app.world_mut())
    }

    /// Plays every remaining phase to the end of the last turn.
    pub fn run(&mut self) {
        while self.step() {}
    }

    pub fn log(&self) -> &EventLog {
        self.app.world().resource::<BattleLog>()
    }

    pub fn clock(&self) -> Clock {
        *self.app.world().resource::<Clock>()
    }

    /// The free-space units as the rules see them (for tests and summaries).
    pub fn table(&mut self) -> Table {
        let world = self.app.world_mut();
        let mut state = bevy::ecs::system::SystemState::<FsQuery>::new(world);
        match state.get_mut(world) {
            Ok(q) => fs_snapshot(&q),
            Err(_) => Table::default(),
        }
    }

    /// The hex units as the rules see them (for tests and summaries).
    pub fn board(&mut self) -> Board {
        let world = self.app.world_mut();
        let mut state = bevy::ecs::system::SystemState::<UnitQuery>::new(world);
        match state.get_mut(world) {
            Ok(q) => snapshot(&q),
            Err(_) => Board::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_walks_every_side_through_every_phase() {
        let mut c = Clock { turn: 1, side: None, phase: Phase::Shocks, finished: false };
        let mut seen = vec![(c.turn, c.side, c.phase)];
        while let Some(n) = c.next(2, 2) {
            c = n;
            seen.push((c.turn, c.side, c.phase));
        }
        assert_eq!(seen.len(), 2 * (1 + 2 * 6));
        assert_eq!(seen[1], (1, Some(0), Phase::Charge));
        assert_eq!(seen[6], (1, Some(0), Phase::MoraleRecovery));
        assert_eq!(seen[7], (1, Some(1), Phase::Charge));
        assert_eq!(seen[13], (2, None, Phase::Shocks));
        assert_eq!(seen.last(), Some(&(2, Some(1), Phase::MoraleRecovery)));
    }
}
