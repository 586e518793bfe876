//! What orders need between phases: what units did this turn, the order
//! book, orders waiting to be replayed, and undo snapshots; and the one
//! place that lends them, with the board, to an order.

use std::collections::{HashMap, VecDeque};

use bevy::ecs::system::{SystemChangeTick, SystemState};
use bevy::prelude::*;

use super::battle::{Battle, BattleLog, DiceBox, EngineState};
use super::view::{BoardView, UnitQuery};
use crate::dice::Dice;
use crate::events::EventLog;
use crate::labataille::Board;
use crate::labataille::combat::Battlefield;
use crate::labataille::engine::Engine;
use crate::labataille::movement::MoveSearch;
use crate::labataille::orders::LoggedOrder;
use crate::labataille::orders::{Activity, Orders};
use crate::rules::combat::Tables;
use crate::scenario::Scenario;
use crate::turn::SavePoint;

/// The board as it stood before an order, to undo it (orders that roll no
/// dice only).
#[derive(Clone, Debug)]
pub(super) struct Snapshot {
    pub board: Board,
    pub log_len: usize,
    pub dice: Dice,
    pub activity: Activity,
}

/// A game as it stood before an order that rolled no dice (`state`: the
/// hex [`Snapshot`] or the table's), with the order book's length then, so
/// that the order can be taken back.
#[derive(Clone, Debug)]
pub(super) struct Undo<S> {
    pub state: S,
    pub book_len: usize,
}

/// Everything orders need between phases: what units did this turn, the
/// parsed tables, the order book (every order carried out, for saves and
/// replays), orders waiting to be replayed, and undo snapshots.
#[derive(Resource)]
pub struct PlayState {
    pub activity: Activity,
    pub(super) search: MoveSearch,
    index: HashMap<String, usize>,
    tables: Tables,
    movement: Vec<Option<f32>>,
    pub book: Vec<LoggedOrder>,
    /// Orders to replay instead of asking the AI or a player, up to and
    /// including the phase stamped `replay_until`.
    pub(super) replay: VecDeque<LoggedOrder>,
    pub(super) replay_until: Option<SavePoint>,
    /// A fork's replay: only the players' orders are replayed (those
    /// that can no longer be carried out are dropped into `dropped`); the
    /// AI's sides decide afresh.
    pub(super) players_only: bool,
    /// Orders of a fork's replay that its history no longer allowed, with
    /// why.
    pub dropped: Vec<(LoggedOrder, String)>,
    /// The phase the clock points at has begun (its `PhaseStart` written
    /// and its automatic part run).
    pub(super) begun: bool,
    pub(super) undo: Vec<Undo<Snapshot>>,
}

impl PlayState {
    pub(super) fn new(scenario: &Scenario) -> Self {
        Self {
            activity: Activity::new(scenario.units.len()),
            search: MoveSearch::default(),
            index: scenario.units.iter().enumerate().map(|(i, u)| (u.id.clone(), i)).collect(),
            tables: scenario.rules.combat.tables(),
            movement: scenario.units.iter().map(|u| u.movement).collect(),
            book: Vec::new(),
            replay: VecDeque::new(),
            replay_until: None,
            players_only: false,
            dropped: Vec::new(),
            begun: false,
            undo: Vec::new(),
        }
    }

    /// Whether the phase the clock points at has begun.
    pub fn begun(&self) -> bool {
        self.begun
    }

    /// Saved orders are being played again (a save opening, a fork's
    /// history): the clock moves without anyone playing.
    pub fn replaying(&self) -> bool {
        self.replay_until.is_some()
    }
}

/// Runs `rule` with everything an order needs: the board brought up to
/// date, the engine, dice, log and the play state; then writes back.
pub(super) fn with_orders<R>(
    world: &mut World,
    rule: impl FnOnce(&mut Orders, &mut Engine, &mut Board, &mut Dice, &mut EventLog, &mut PlayBook) -> R,
) -> R {
    let mut state = SystemState::<(
        UnitQuery,
        SystemChangeTick,
        ResMut<BoardView>,
        Res<Battle>,
        ResMut<EngineState>,
        ResMut<DiceBox>,
        ResMut<BattleLog>,
        ResMut<PlayState>,
    )>::new(world);
    // `reset` always installs these resources before any phase or order.
    let (mut q, ticks, mut view, battle, mut engine, mut dice, mut log, mut play) =
        state.get_mut(world).expect("the battle's resources are installed by `reset`");
    let play = &mut *play;
    let r = view.lend(&mut q, ticks, &battle, &mut engine.0, |ctx, engine, board| {
        let (activity, search, index, tables, movement) =
            (&mut play.activity, &mut play.search, &play.index, &play.tables, &play.movement);
        let (book, replay, replay_until, undo, dropped) =
            (&mut play.book, &mut play.replay, &mut play.replay_until, &mut play.undo, &mut play.dropped);
        let players_only = play.players_only;
        let bf = Battlefield { ctx, map: &battle.scenario.map, tables, movement };
        let mut orders = Orders { bf: &bf, index, search, activity };
        let mut pb = PlayBook { book, replay, replay_until, players_only, dropped, undo };
        rule(&mut orders, engine, board, &mut dice.0, &mut log, &mut pb)
    });
    state.apply(world);
    r
}

/// Replays the saved orders stamped `stamp`, in the order saved, each
/// carried out by `apply` on `state` and then kept in the book. A save's
/// orders were legal when given; one that is not now means the save does
/// not belong to this scenario or build, or (in a fork, `players_only`)
/// that the other history no longer allows it: a fork drops it with why,
/// a replay writes a `ReplayError` at once (to the log `log` lends).
#[allow(clippy::too_many_arguments)] // the play book's parts, the stamp and the rule's
pub(super) fn replay_stamped<S>(
    replay: &mut VecDeque<LoggedOrder>,
    book: &mut Vec<LoggedOrder>,
    dropped: &mut Vec<(LoggedOrder, String)>,
    players_only: bool,
    stamp: crate::turn::OrderStamp,
    state: &mut S,
    apply: impl Fn(&mut S, &crate::labataille::orders::Order) -> Result<(), crate::labataille::orders::OrderError>,
    log: impl Fn(&mut S) -> &mut EventLog,
) {
    while replay.front().is_some_and(|e| e.at == stamp) {
        let Some(e) = replay.pop_front() else { break };
        if let Err(err) = apply(state, &e.order) {
            if players_only {
                dropped.push((e, err.to_string()));
                continue;
            }
            log(state).push(crate::events::EventKind::ReplayError {
                order: format!("{:?}", e.order),
                error: err.to_string(),
                // Every replayed order joins the book in turn, so its
                // length is this order's place in the save.
                index: book.len(),
                units: e.order.units().into_iter().map(str::to_owned).collect(),
            });
        }
        book.push(e);
    }
}

/// The play state's records, lent beside the orders.
pub(super) struct PlayBook<'a> {
    pub book: &'a mut Vec<LoggedOrder>,
    pub replay: &'a mut VecDeque<LoggedOrder>,
    pub replay_until: &'a mut Option<SavePoint>,
    pub players_only: bool,
    pub dropped: &'a mut Vec<(LoggedOrder, String)>,
    pub undo: &'a mut Vec<Undo<Snapshot>>,
}
