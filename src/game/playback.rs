//! Watching the battle: the simulation runs phase by phase in the same
//! world, and the window shows its event log one event at a time. What the
//! board looks like is rebuilt from the events alone ([`Shown`]), so the
//! picture is exactly what the log says happened. Time controls: play and
//! pause, one event, one phase, speed.

use bevy::prelude::*;

use super::opened::Opened;
use super::request::Request;
use super::sets::GameSet;
use super::shown::{ScenarioNames, Shown, initial, show_event, shown_after};
use super::state::battle_keys;
use super::turn::PlayerTurn;
use crate::events::{EventKind, Pos};
use crate::sim::Clock;

/// Playback speeds, as multiples of [`EVENTS_PER_SECOND`].
pub const SPEEDS: [f32; 7] = [0.25, 0.5, 1.0, 2.0, 4.0, 10.0, 40.0];
/// Events shown per second at speed 1 (phase starts cost nothing).
pub const EVENTS_PER_SECOND: f32 = 2.5;
/// Seconds a routing counter takes per hex at speed 1.
pub const SECONDS_PER_HEX: f32 = 0.09;
/// Seconds a dice flash or contagion line stays up at speed 1.
pub const FLASH_SECONDS: f32 = 1.6;

/// The player's controls.
#[derive(Resource)]
pub struct Playback {
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    budget: f32,
    /// Single events asked for.
    steps: u32,
    /// Single events to take back (replay stepping).
    pub back: u32,
    /// The player stepped the shown log back (`,`) and it has not caught
    /// up with the live log since: see [`Playback::reviewing`].
    pub looking_back: bool,
    /// Show the live log's end at once (End).
    to_end: bool,
    /// Showing events up to the end of the next phase that has any.
    to_phase_end: Option<usize>,
    /// Show everything at once, without animations (screenshots).
    pub instant: bool,
    /// Show what the player's last order did, event by event, until the
    /// shown log has caught up (whether or not the clock is playing).
    pub follow: bool,
    /// The simulation must run its next phase.
    need_phase: bool,
    /// Show the log up to this many events at once (a why line clicked).
    seek: Option<usize>,
}

impl Default for Playback {
    fn default() -> Self {
        Self {
            playing: false,
            speed: 2,
            budget: 0.0,
            steps: 0,
            back: 0,
            looking_back: false,
            to_end: false,
            to_phase_end: None,
            instant: false,
            follow: false,
            need_phase: false,
            seek: None,
        }
    }
}

impl Playback {
    pub fn speed(&self) -> f32 {
        SPEEDS[self.speed.min(SPEEDS.len() - 1)]
    }

    /// The window shows the past: the player stepped back with `,` and the
    /// shown log (`cursor` events) is still behind the live log (`len`).
    /// Playing on towards the end after an order or an AI phase is not
    /// looking back; only a step back by the player is, until the shown log
    /// catches up again (`.`, Space, N or End).
    pub fn reviewing(&self, cursor: usize, len: usize) -> bool {
        self.looking_back && cursor < len
    }

    /// Asks for the battle as it stood after the first `upto` events of
    /// the log, at once; looking back if that is before the present.
    pub fn seek_to(&mut self, upto: usize) {
        self.playing = false;
        self.back = 0;
        self.steps = 0;
        self.to_phase_end = None;
        self.follow = false;
        // Not the rest of a restored log at once: the moment asked for.
        self.instant = false;
        self.seek = Some(upto);
    }

    /// Asks for the live log's end to be shown at once (End).
    pub fn jump_to_present(&mut self) {
        self.playing = false;
        self.back = 0;
        self.steps = 0;
        self.to_phase_end = None;
        self.follow = false;
        self.to_end = true;
    }
}

/// A counter sliding along a move's path.
pub struct Slide {
    pub unit: usize,
    pub path: Vec<Pos>,
    pub t: f32,
    pub seconds_per_step: f32,
}

/// A contagion check drawn as a line from the unit that caused it.
pub struct Link {
    pub from: usize,
    pub to: usize,
    pub passed: bool,
    pub ttl: f32,
}

/// A volley or a melee drawn as lines from every firer (attacker) to the
/// target.
pub struct Strike {
    pub from: Vec<usize>,
    pub to: usize,
    pub melee: bool,
    pub ttl: f32,
}

/// Animations in progress.
#[derive(Resource, Default)]
pub struct Effects {
    pub slide: Option<Slide>,
    pub links: Vec<Link>,
    pub strikes: Vec<Strike>,
    /// Morale checks to flash on counters (unit, roll, passed); the units
    /// feature spawns and ages the flash text.
    pub flashes: Vec<(usize, u8, bool, Option<u8>)>,
}
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Playback>().init_resource::<Shown>().init_resource::<Effects>();
    app.add_systems(Update, reset.in_set(GameSet::Build).run_if(resource_changed::<Opened>));
    app.add_systems(Update, controls.in_set(GameSet::Input).run_if(battle_keys));
    app.add_systems(
        Update,
        (rewind, tick, run_phase, age_effects)
            .chain()
            .in_set(GameSet::Playback)
            .run_if(|o: Res<Opened>| o.scenario.is_some()),
    );
}

fn reset(
    opened: Res<Opened>,
    mut shown: ResMut<Shown>,
    mut fx: ResMut<Effects>,
    mut pb: ResMut<Playback>,
    req: Res<Request>,
    controls: Option<Res<crate::sim::Controls>>,
    log: Option<Res<crate::sim::BattleLog>>,
) {
    *fx = Effects::default();
    *shown = Shown::default();
    if let Some(s) = &opened.scenario {
        shown.units = initial(s);
    }
    let speed = pb.speed;
    // With a player at the window the battle runs on by itself to their
    // first orders; a watched battle waits for Space.
    let player = controls.is_some_and(|c| c.0.contains(&crate::sim::Control::Player));
    // A restored save opens with its log already written: shown at once.
    let restored = log.is_some_and(|l| !l.events.is_empty()) && req.0.shot.is_none();
    let instant = req.0.shot.is_some() || restored;
    *pb = Playback { speed, instant, playing: player && req.0.shot.is_none(), ..default() };
}

fn controls(keys: Res<ButtonInput<KeyCode>>, mut pb: ResMut<Playback>, shown: Res<Shown>, turn: Res<PlayerTurn>) {
    if keys.just_pressed(KeyCode::Space) {
        pb.playing = !pb.playing;
    }
    if keys.just_pressed(KeyCode::Period) {
        pb.playing = false;
        pb.steps += 1;
    }
    if keys.just_pressed(KeyCode::Comma) {
        pb.playing = false;
        pb.follow = false;
        pb.back += 1;
    }
    if keys.just_pressed(KeyCode::End) {
        pb.jump_to_present();
    }
    // While a phase waits for the player, Enter ends it (the orders feature).
    let waiting = turn.awaiting.is_some();
    if (keys.just_pressed(KeyCode::Enter) && !waiting) || keys.just_pressed(KeyCode::KeyN) {
        pb.playing = false;
        pb.to_phase_end = Some(shown.cursor);
    }
    if keys.any_just_pressed([KeyCode::Equal, KeyCode::NumpadAdd, KeyCode::BracketRight]) {
        pb.speed = (pb.speed + 1).min(SPEEDS.len() - 1);
    }
    if keys.any_just_pressed([KeyCode::Minus, KeyCode::NumpadSubtract, KeyCode::BracketLeft]) {
        pb.speed = pb.speed.saturating_sub(1);
    }
}

/// Steps back, jumps to the present (End), and keeps the shown battle
/// inside the log when an order was taken back (the log then got shorter
/// than what was shown).
fn rewind(
    mut pb: ResMut<Playback>,
    log: Option<Res<crate::sim::BattleLog>>,
    opened: Res<Opened>,
    mut shown: ResMut<Shown>,
    mut fx: ResMut<Effects>,
) {
    let (Some(log), Some(scenario)) = (log, opened.scenario.clone()) else { return };
    let len = log.events.len();
    if let Some(upto) = pb.seek.take() {
        let to = upto.min(len);
        let index = |id: &str| opened.ids.get(id).copied();
        *shown = shown_after(&scenario, &log.events, to, &index, &ScenarioNames(&scenario));
        *fx = Effects::default();
        pb.looking_back = to < len;
        return;
    }
    let to_end = std::mem::take(&mut pb.to_end);
    if pb.back == 0 && shown.cursor <= len && !to_end {
        if shown.cursor == len {
            pb.looking_back = false;
        }
        return;
    }
    let back = if to_end { 0 } else { pb.back };
    pb.back = 0;
    if back > 0 {
        pb.looking_back = true;
    }
    // Phase starts are free going forwards, so they are skipped going back.
    let mut to = if to_end { len } else { shown.cursor.min(len) };
    for _ in 0..back {
        to = to.saturating_sub(1);
        while to > 0 && matches!(log.events[to].kind, EventKind::PhaseStart {}) {
            to -= 1;
        }
    }
    let index = |id: &str| opened.ids.get(id).copied();
    *shown = shown_after(&scenario, &log.events, to, &index, &ScenarioNames(&scenario));
    *fx = Effects::default();
    if to >= len {
        pb.looking_back = false;
    }
}

/// Shows the next events as time and the controls allow; asks the
/// simulation for another phase when the log runs out.
fn tick(
    time: Res<Time>,
    mut pb: ResMut<Playback>,
    log: Option<Res<crate::sim::BattleLog>>,
    clock: Option<Res<Clock>>,
    opened: Res<Opened>,
    turn: Res<PlayerTurn>,
    mut shown: ResMut<Shown>,
    mut fx: ResMut<Effects>,
) {
    let (Some(log), Some(clock), Some(scenario)) = (log, clock, opened.scenario.clone()) else { return };
    if fx.slide.is_some() && !pb.instant {
        return;
    }
    let speed = pb.speed();
    if pb.playing {
        pb.budget = (pb.budget + time.delta_secs() * EVENTS_PER_SECOND * speed).min(3.0);
    }
    let names = ScenarioNames(&scenario);
    loop {
        let want =
            pb.instant || pb.steps > 0 || pb.follow || pb.to_phase_end.is_some() || (pb.playing && pb.budget >= 1.0);
        if !want {
            break;
        }
        let Some(e) = log.events.get(shown.cursor) else {
            pb.follow = false;
            if clock.finished {
                pb.playing = false;
                pb.steps = 0;
                pb.to_phase_end = None;
                pb.instant = false;
            } else if turn.awaiting.is_some() {
                // The phase waits for the player's orders: nothing more to
                // show until they give one or end the phase.
                pb.steps = 0;
                pb.to_phase_end = None;
                pb.budget = 0.0;
                pb.instant = false;
            } else if !pb.instant {
                pb.need_phase = true;
            } else {
                // A screenshot shows the turns already simulated.
                pb.instant = false;
            }
            break;
        };
        if let (Some(mark), EventKind::PhaseStart {}) = (pb.to_phase_end, &e.kind)
            && shown.cursor != mark
            && log.events[mark..shown.cursor].iter().any(|x| !matches!(x.kind, EventKind::PhaseStart {}))
        {
            pb.to_phase_end = None;
            break;
        }
        let index = |id: &str| opened.ids.get(id).copied();
        show_event(&mut shown, e, &index, &names);
        if let EventKind::PhaseStart {} = e.kind {
            fx.links.clear();
            fx.strikes.clear();
        }
        let free = matches!(e.kind, EventKind::PhaseStart {});
        if pb.playing && !free {
            pb.budget -= 1.0;
        }
        if pb.steps > 0 && !free {
            pb.steps -= 1;
        }
        if pb.instant {
            continue;
        }
        let flash = FLASH_SECONDS * 2.0 / speed.max(0.5);
        match &e.kind {
            EventKind::Move { unit, path, .. } if path.len() > 1 => {
                if let Some(i) = index(unit) {
                    fx.slide =
                        Some(Slide { unit: i, path: path.clone(), t: 0.0, seconds_per_step: SECONDS_PER_HEX / speed });
                    break;
                }
            }
            EventKind::MoraleCheck { unit, roll, passed, source, morale, modifier, .. } => {
                if let Some(i) = index(unit) {
                    let d66 = scenario.mode == crate::scenario::Mode::Hex;
                    let extremes = scenario.rules.natural_extremes;
                    let need = (!passed && d66)
                        .then(|| crate::dice::needed_roll(*morale, *modifier, extremes).map(|n| n.value()))
                        .flatten();
                    fx.flashes.push((i, *roll, *passed, need));
                    if let Some(from) = source.as_deref().and_then(index) {
                        fx.links.push(Link { from, to: i, passed: *passed, ttl: flash });
                    }
                }
            }
            EventKind::Fire { units, target, .. } => {
                if let Some(to) = index(target) {
                    let from = units.iter().filter_map(|u| index(u)).collect();
                    fx.strikes.push(Strike { from, to, melee: false, ttl: flash });
                }
            }
            EventKind::Melee { attackers, defenders, .. } => {
                if let Some(to) = defenders.first().and_then(|d| index(d)) {
                    let from = attackers.iter().filter_map(|u| index(u)).collect();
                    fx.strikes.push(Strike { from, to, melee: true, ttl: flash });
                }
            }
            // Shown by the board and the log alone, without an animation.
            EventKind::Move { .. }
            | EventKind::PhaseStart {}
            | EventKind::StateChange { .. }
            | EventKind::Readiness { .. }
            | EventKind::Surrendered { .. }
            | EventKind::Eliminated { .. }
            | EventKind::LeftMap { .. }
            | EventKind::Losses { .. }
            | EventKind::Attack { .. }
            | EventKind::Valour { .. }
            | EventKind::GunsCaptured { .. }
            | EventKind::Exited { .. }
            | EventKind::CorpsBroken { .. }
            | EventKind::LeaderJoined { .. }
            | EventKind::GameOver { .. }
            | EventKind::ReplayError { .. }
            | EventKind::Formation { .. }
            | EventKind::Facing { .. }
            | EventKind::Final { .. } => {}
        }
    }
    if shown.cursor >= log.events.len() {
        pb.looking_back = false;
    }
}

/// Runs the simulation's next phase when the shown log has caught up, unless
/// the phase waits for a player's orders.
fn run_phase(world: &mut World) {
    if !world.resource::<Playback>().need_phase {
        return;
    }
    world.resource_mut::<Playback>().need_phase = false;
    if crate::sim::awaiting_orders(world).is_some() {
        return;
    }
    // A `hard` side's question is answered on another thread
    // (`thinking`), not here between two frames.
    let deferred = world.get_resource::<crate::sim::Thinking>().is_some();
    if deferred {
        world.resource_mut::<crate::sim::Thinking>().defer = true;
    }
    crate::sim::step_phase(world);
    if deferred {
        world.resource_mut::<crate::sim::Thinking>().defer = false;
    }
}

fn age_effects(time: Res<Time>, mut fx: ResMut<Effects>) {
    let dt = time.delta_secs();
    if let Some(s) = &mut fx.slide {
        s.t += dt;
        if s.t >= s.seconds_per_step * (s.path.len().saturating_sub(1)) as f32 {
            fx.slide = None;
        }
    }
    for l in &mut fx.links {
        l.ttl -= dt;
    }
    fx.links.retain(|l| l.ttl > 0.0);
    for s in &mut fx.strikes {
        s.ttl -= dt;
    }
    fx.strikes.retain(|s| s.ttl > 0.0);
}
