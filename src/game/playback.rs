//! Watching the battle: the simulation runs phase by phase in the same
//! world, and the window shows its event log one event at a time. What the
//! board looks like is rebuilt from the events alone ([`Shown`]), so the
//! picture is exactly what the log says happened. Time controls: play and
//! pause, one event, one phase, speed.

use bevy::prelude::*;

use super::sentences::{self, Category, Names};
use super::{GameSet, Opened, Request};
use crate::events::{Event, EventKind, Pos, StateLabel};
use crate::hex::Offset;
use crate::scenario::{Place, Readiness, Scenario, StateName};
use crate::sim::Clock;

/// Playback speeds, as multiples of [`EVENTS_PER_SECOND`].
pub const SPEEDS: [f32; 7] = [0.25, 0.5, 1.0, 2.0, 4.0, 10.0, 40.0];
/// Events shown per second at speed 1 (phase starts cost nothing).
pub const EVENTS_PER_SECOND: f32 = 2.5;
/// Seconds a routing counter takes per hex at speed 1.
pub const SECONDS_PER_HEX: f32 = 0.09;
/// Seconds a dice flash or contagion line stays up at speed 1.
pub const FLASH_SECONDS: f32 = 1.6;

/// A unit as the event log has shown it so far.
#[derive(Clone, Debug, PartialEq)]
pub struct ShownUnit {
    pub at: Option<Offset>,
    /// Free space: centre in cm and facing in degrees.
    pub cm: Option<(f32, f32, f32)>,
    pub state: StateLabel,
    pub readiness: Readiness,
    /// Surrendered, eliminated or gone off the map.
    pub gone: bool,
}

/// One line of the battle log panel.
#[derive(Clone, Debug)]
pub struct LogLine {
    pub category: Category,
    pub unit: Option<usize>,
    pub text: String,
}

/// The battle as shown: the units after the first `cursor` events, and the
/// log lines of those events.
#[derive(Resource, Default)]
pub struct Shown {
    pub units: Vec<ShownUnit>,
    pub cursor: usize,
    pub turn: u32,
    pub side: Option<String>,
    pub phase: String,
    /// Index of the current phase's `PhaseStart` in the event log.
    pub phase_at: usize,
    pub log: Vec<LogLine>,
}

/// The units as the scenario sets them up.
pub fn initial(s: &Scenario) -> Vec<ShownUnit> {
    s.units
        .iter()
        .map(|u| {
            let (at, cm) = match u.place {
                Place::Hex(o) => (Some(o), None),
                Place::Table { x, y } => (None, Some((x, y, u.facing.unwrap_or(0.0)))),
            };
            let state = match u.state {
                StateName::GoodOrder => StateLabel::GoodOrder,
                StateName::Disordered => StateLabel::Disordered,
                StateName::Routed => StateLabel::Routed,
                StateName::Order => StateLabel::Order,
                StateName::LU => StateLabel::LU,
                StateName::U => StateLabel::U,
                StateName::FU => StateLabel::FU,
            };
            ShownUnit { at, cm, state, readiness: u.readiness, gone: false }
        })
        .collect()
}

/// What one event does to the shown board. Pure: the board after `n`
/// events is `initial` folded with the first `n`.
pub fn apply(units: &mut [ShownUnit], index: impl Fn(&str) -> Option<usize>, e: &Event) {
    let Some(u) = sentences::unit_id(e).as_deref().and_then(index).and_then(|i| units.get_mut(i)) else { return };
    match &e.kind {
        EventKind::StateChange { to, .. } => u.state = *to,
        EventKind::Move { to, .. } => match *to {
            Pos::Hex([c, r]) => u.at = Some(Offset::new(c, r)),
            Pos::Cm([x, y]) => {
                let facing = u.cm.map_or(0.0, |c| c.2);
                u.cm = Some((x, y, facing));
            }
        },
        EventKind::Readiness { to, .. } => u.readiness = *to,
        EventKind::Surrendered { .. } => {
            u.state = StateLabel::Surrendered;
            u.gone = true;
        }
        EventKind::Eliminated { .. } => {
            u.state = StateLabel::Eliminated;
            u.gone = true;
        }
        EventKind::LeftMap { .. } => u.gone = true,
        EventKind::PhaseStart {} | EventKind::MoraleCheck { .. } | EventKind::Final { .. } => {}
        // Newer kinds that name a resulting state (free-space tests).
        #[allow(unreachable_patterns)]
        _ => {
            if let Some(s) = sentences::result_state(e) {
                u.state = s;
            }
        }
    }
}

/// The player's controls.
#[derive(Resource)]
pub struct Playback {
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    budget: f32,
    /// Single events asked for.
    steps: u32,
    /// Showing events up to the end of the next phase that has any.
    to_phase_end: Option<usize>,
    /// Show everything at once, without animations (screenshots).
    pub instant: bool,
    /// The simulation must run its next phase.
    need_phase: bool,
}

impl Default for Playback {
    fn default() -> Self {
        Self { playing: false, speed: 2, budget: 0.0, steps: 0, to_phase_end: None, instant: false, need_phase: false }
    }
}

impl Playback {
    pub fn speed(&self) -> f32 {
        SPEEDS[self.speed.min(SPEEDS.len() - 1)]
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

/// Animations in progress.
#[derive(Resource, Default)]
pub struct Effects {
    pub slide: Option<Slide>,
    pub links: Vec<Link>,
    /// Morale checks to flash on counters (unit, roll, passed); the units
    /// feature spawns and ages the flash text.
    pub flashes: Vec<(usize, u8, bool, Option<u8>)>,
}

struct ScenarioNames<'a>(&'a Scenario);

impl Names for ScenarioNames<'_> {
    fn name(&self, id: &str) -> String {
        self.0.unit_index(id).and_then(|i| self.0.units.get(i)).map_or_else(|| id.to_owned(), |u| u.name.clone())
    }
    fn side(&self, id: &str) -> String {
        self.0.sides.iter().find(|s| s.id == id).map_or_else(|| id.to_owned(), |s| s.name.clone())
    }
    fn d66(&self) -> bool {
        self.0.mode == crate::scenario::Mode::Hex
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Playback>().init_resource::<Shown>().init_resource::<Effects>();
    app.add_systems(Update, reset.in_set(GameSet::Build).run_if(resource_changed::<Opened>));
    app.add_systems(Update, controls.in_set(GameSet::Input));
    app.add_systems(
        Update,
        (tick, run_phase, age_effects).chain().in_set(GameSet::Playback).run_if(|o: Res<Opened>| o.scenario.is_some()),
    );
}

fn reset(
    opened: Res<Opened>,
    mut shown: ResMut<Shown>,
    mut fx: ResMut<Effects>,
    mut pb: ResMut<Playback>,
    req: Res<Request>,
) {
    *fx = Effects::default();
    *shown = Shown::default();
    if let Some(s) = &opened.scenario {
        shown.units = initial(s);
    }
    let speed = pb.speed;
    *pb = Playback { speed, instant: req.0.shot.is_some(), ..default() };
}

fn controls(
    keys: Res<ButtonInput<KeyCode>>,
    mut pb: ResMut<Playback>,
    shown: Res<Shown>,
    menu: Res<super::scenarios::Menu>,
) {
    if menu.open {
        return;
    }
    if keys.just_pressed(KeyCode::Space) {
        pb.playing = !pb.playing;
    }
    if keys.just_pressed(KeyCode::Period) {
        pb.playing = false;
        pb.steps += 1;
    }
    if keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::KeyN) {
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

/// Shows the next events as time and the controls allow; asks the
/// simulation for another phase when the log runs out.
fn tick(
    time: Res<Time>,
    mut pb: ResMut<Playback>,
    log: Option<Res<crate::events::EventLog>>,
    clock: Option<Res<Clock>>,
    opened: Res<Opened>,
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
        let want = pb.instant || pb.steps > 0 || pb.to_phase_end.is_some() || (pb.playing && pb.budget >= 1.0);
        if !want {
            break;
        }
        let Some(e) = log.events.get(shown.cursor) else {
            if clock.finished {
                pb.playing = false;
                pb.steps = 0;
                pb.to_phase_end = None;
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
        apply(&mut shown.units, index, e);
        if let EventKind::PhaseStart {} = e.kind {
            shown.turn = e.turn;
            shown.side.clone_from(&e.side);
            shown.phase.clone_from(&e.phase);
            shown.phase_at = shown.cursor;
            fx.links.clear();
        }
        if let Some((category, text)) = sentences::sentence(e, &names) {
            let unit = sentences::unit_id(e).as_deref().and_then(index);
            shown.log.push(LogLine { category, unit, text });
        }
        shown.cursor += 1;
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
                    let need = (!passed && d66).then(|| sentences::needed_roll(*morale, *modifier));
                    fx.flashes.push((i, *roll, *passed, need));
                    if let Some(from) = source.as_deref().and_then(index) {
                        fx.links.push(Link { from, to: i, passed: *passed, ttl: FLASH_SECONDS * 2.0 / speed.max(0.5) });
                    }
                }
            }
            _ => {}
        }
    }
}

/// Runs the simulation's next phase when the shown log has caught up.
fn run_phase(world: &mut World) {
    if !world.resource::<Playback>().need_phase {
        return;
    }
    world.resource_mut::<Playback>().need_phase = false;
    crate::sim::step_phase(world);
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
}

/// Runs the whole battle's first `turns` turns at once (for `sauve shot`).
pub fn simulate_turns(world: &mut World, turns: u32) {
    while world.get_resource::<Clock>().is_some_and(|c| !c.finished && c.turn <= turns) {
        if !crate::sim::step_phase(world) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::sim::{AiMode, Simulation};

    fn cascade() -> Arc<Scenario> {
        let text = include_str!("../../scenarios/cascade.ron");
        match crate::scenario::parse_bytes(text.as_bytes(), "cascade.ron") {
            Ok(s) => Arc::new(s),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn replaying_the_log_ends_where_the_simulation_ends() {
        let s = cascade();
        let mut sim = Simulation::new(s.clone(), s.seed, vec![], AiMode::None);
        for _ in 0..26 {
            sim.step();
        }
        let mut units = initial(&s);
        for e in &sim.log().events {
            apply(&mut units, |id| s.unit_index(id), e);
        }
        let board = sim.board();
        assert!(sim.log().events.len() > 20, "the cascade happened");
        for (shown, real) in units.iter().zip(&board.units) {
            assert_eq!(shown.gone, real.at.is_none(), "{}", real.id);
            if !shown.gone {
                assert_eq!(shown.at, real.at, "{}", real.id);
                assert_eq!(shown.state, real.state.label(), "{}", real.id);
            }
        }
        assert!(units.iter().any(|u| u.state == StateLabel::Routed), "some routed");
    }
}
