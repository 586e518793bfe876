//! The break forecast in the window (F): from the battle as it stands,
//! [`RUNS`] continuations to the end of the turn, played on every core
//! by `whatif::forecast` while frames keep flowing, with a progress bar;
//! Esc cancels. The result is a heat ring on each counter (its chance to
//! be routed, surrender or be eliminated by the end of the turn) with a
//! legend, and the sides' and corps' odds in the panel. Looking back in
//! the log is not a forecast point: F then says so; while the playback
//! is only catching up with the battle, F shows the present and forecasts
//! from it. F again hides it.

use std::sync::{Arc, Mutex};

use bevy::prelude::*;

use super::cards;
use super::layout::Layout;
use super::lines::Lines;
use super::map::z;
use super::opened::Opened;
use super::playback::Playback;
use super::scenarios::ScenarioText;
use super::sets::GameSet;
use super::shown::Shown;
use super::state::Screen;
use super::theme;
use super::turn::{Notice, PlayerTurn};
use crate::sim::{self, Battle};
use crate::whatif::odds::Forecast;
use crate::whatif::{Progress, Start, forecast};

/// Continuations a forecast plays.
pub const RUNS: u64 = 500;

/// A forecast being played on other threads.
pub struct Job {
    pub progress: Arc<Progress>,
    result: Arc<Mutex<Option<Option<Forecast>>>>,
    pub runs: u64,
}

/// The forecast: the one being played, the one shown, and how many runs
/// the next one plays.
#[derive(Resource)]
pub struct ForecastView {
    pub job: Option<Job>,
    pub shown: Option<Showing>,
    pub runs: u64,
}

/// A forecast shown, with the log's length when it was asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Showing {
    pub forecast: Forecast,
    pub at_events: usize,
}

impl Default for ForecastView {
    fn default() -> Self {
        ForecastView { job: None, shown: None, runs: RUNS }
    }
}

#[derive(Component)]
struct Legend;
#[derive(Component)]
struct LegendText;
#[derive(Component)]
struct BarFill;
#[derive(Component)]
struct BarBack;
/// The legend's close button (as F).
#[derive(Component)]
struct ForecastClose;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ForecastView>();
    app.add_systems(Startup, spawn_legend);
    app.add_systems(Update, keys.in_set(GameSet::Input).run_if(in_state(Screen::Battle)));
    app.add_systems(Update, collect.after(GameSet::Playback).before(GameSet::Draw));
    app.add_systems(Update, (legend, rings).in_set(GameSet::Draw));
    app.add_observer(close);
}

/// The legend's close button: the forecast shown hidden, or the one being
/// played cancelled (as F and Esc).
fn close(
    activate: On<bevy::ui_widgets::Activate>,
    buttons: Query<(), With<ForecastClose>>,
    mut view: ResMut<ForecastView>,
) {
    if buttons.get(activate.entity).is_err() {
        return;
    }
    if let Some(job) = view.job.take() {
        job.progress.cancel();
    }
    view.shown = None;
}

/// The colour of a chance: pale yellow at a few percent to deep red at
/// certainty.
pub fn heat(p: f64) -> Color {
    theme::chance_heat(p.clamp(0.0, 1.0) as f32)
}

/// F: start a forecast (or hide the one shown); Esc: cancel one running.
fn keys(world: &mut World) {
    let (f, esc) = {
        let k = world.resource::<ButtonInput<KeyCode>>();
        (k.just_pressed(KeyCode::KeyF), k.just_pressed(KeyCode::Escape))
    };
    if esc && let Some(job) = world.resource_mut::<ForecastView>().job.take() {
        job.progress.cancel();
        say(world, Notice::said("Forecast cancelled."));
        return;
    }
    if !f {
        return;
    }
    if world.resource::<ForecastView>().job.is_some() {
        say(world, Notice::said("A forecast is being played; Esc cancels it."));
        return;
    }
    if world.resource_mut::<ForecastView>().shown.take().is_some() {
        return;
    }
    let notice = match start(world) {
        Ok(()) => return,
        Err(n) => n,
    };
    say(world, notice);
}

fn say(world: &mut World, n: Notice) {
    if let Some(mut t) = world.get_resource_mut::<PlayerTurn>() {
        t.say(n);
    }
}

/// Starts a forecast from the battle as it stands.
pub fn start(world: &mut World) -> Result<(), Notice> {
    let events = world.get_resource::<sim::BattleLog>().map_or(0, |l| l.events.len());
    if world.get_resource::<Battle>().is_none() {
        return Err(Notice::error("No battle to forecast."));
    }
    if world.resource::<Shown>().cursor != events {
        // Stepped back on purpose: not a forecast point. Merely behind
        // the battle as the playback shows it: the present is.
        if world.get_resource::<Playback>().is_some_and(|p| p.looking_back) {
            return Err(Notice::error(
                "Looking back in the log is not a forecast point: End returns to the present, then F.",
            ));
        }
        if let Some(mut pb) = world.get_resource_mut::<Playback>() {
            pb.jump_to_present();
        }
    }
    if world.get_resource::<sim::Clock>().is_some_and(|c| c.finished) {
        return Err(Notice::error("The battle is over: there is nothing to forecast."));
    }
    let text = world.get_resource::<ScenarioText>().map(|t| t.0.clone()).unwrap_or_default();
    let scenario = world.resource::<Battle>().scenario.clone();
    let Some(save) = crate::save::capture(world, &text) else { return Err(Notice::error("No battle to forecast.")) };
    let start = Start::Saved { save, scenario };
    let runs = world.resource::<ForecastView>().runs;
    let progress = Arc::new(Progress::default());
    let result = Arc::new(Mutex::new(None));
    let (p, r) = (progress.clone(), result.clone());
    std::thread::spawn(move || {
        let f = forecast::forecast(&start, runs, 1, &p);
        if let Ok(mut slot) = r.lock() {
            *slot = Some(f);
        }
    });
    let mut view = world.resource_mut::<ForecastView>();
    view.job = Some(Job { progress, result, runs });
    view.shown = None;
    Ok(())
}

/// Takes a finished forecast off its thread.
fn collect(mut view: ResMut<ForecastView>, log: Option<Res<sim::BattleLog>>) {
    let done = view.job.as_ref().and_then(|j| j.result.lock().ok().and_then(|mut r| r.take()));
    let Some(result) = done else { return };
    view.job = None;
    if let Some(forecast) = result {
        view.shown = Some(Showing { forecast, at_events: log.map_or(0, |l| l.events.len()) });
    }
}

/// What the legend says: the progress, or the forecast's odds.
pub fn legend_words(view: &ForecastView, opened: &Opened) -> Option<String> {
    if let Some(job) = &view.job {
        return Some(format!(
            "Forecast: {} of {} continuations to the end of the turn, the AI on every side... (Esc cancels)",
            job.progress.done(),
            job.runs
        ));
    }
    let shown = view.shown.as_ref()?;
    let s = opened.scenario.as_ref()?;
    let f = &shown.forecast;
    let r = f.report(s);
    let mut out = format!(
        "Forecast (F hides it): {} continuations from turn {} to the end of turn {}.\n\
         Rings: each counter's chance to be routed, surrender or be eliminated by then (pale: a few %, red: sure).",
        f.runs, f.horizon.from.turn, f.horizon.to_turn
    );
    if r.decided > 0.0 {
        let wins: Vec<String> =
            s.sides.iter().zip(&r.sides).map(|(side, o)| format!("{} {:.0}%", side.name, o.wins * 100.0)).collect();
        out += &format!("\nWins at the end of the turn: {}, draw {:.0}%", wins.join(", "), r.draws * 100.0);
    }
    let mut corps: Vec<_> = s.corps.iter().zip(&r.corps).filter(|(_, o)| o.breaks > 0.0).collect();
    corps.sort_by(|a, b| b.1.breaks.total_cmp(&a.1.breaks));
    for (c, o) in corps.iter().take(6) {
        out += &format!("\n  {} breaks: {:.0}%", c.name, o.breaks * 100.0);
    }
    if corps.is_empty() && !s.corps.is_empty() {
        out += "\n  No corps breaks in any run.";
    }
    out += &format!(
        "\nCascades: the largest takes {:.1} units on average; {:.1} units fall in cascades per run.",
        r.mean_largest_cascade, r.mean_cascade_units
    );
    Some(out)
}

/// The legend and progress bar: a card of the right-hand column (in the
/// log's place) once the column is up; hidden until a forecast runs.
fn spawn_legend(mut commands: Commands) {
    let legend = commands.spawn((Legend, cards::card(theme::FORECAST_PANEL))).id();
    commands.entity(legend).entry::<Node>().and_modify(|mut n| n.display = Display::None);
    cards::title_row(&mut commands, legend, "Break forecast", ForecastClose, "Close (F)");
    commands.entity(legend).with_children(|p| {
        p.spawn((
            LegendText,
            theme::text("", 13.0, theme::TEXT_FORECAST),
            Node { width: Val::Percent(100.0), ..default() },
        ));
        p.spawn((
            BarBack,
            Node { width: Val::Percent(100.0), height: Val::Px(10.0), min_height: Val::Px(10.0), ..default() },
            BackgroundColor(theme::FORECAST_BAR),
        ))
        .with_children(|b| {
            b.spawn((
                BarFill,
                Node { width: Val::Percent(0.0), height: Val::Percent(100.0), ..default() },
                BackgroundColor(heat(0.6)),
            ));
        });
    });
}

fn legend(
    mut commands: Commands,
    view: Res<ForecastView>,
    opened: Res<Opened>,
    placed: Query<Entity, (With<Legend>, Without<ChildOf>)>,
    columns: Query<Entity, With<cards::SideColumn>>,
    mut node: Query<&mut Node, (With<Legend>, Without<BarFill>, Without<BarBack>)>,
    mut text: Query<&mut Text, With<LegendText>>,
    mut fill: Query<&mut Node, (With<BarFill>, Without<Legend>, Without<BarBack>)>,
    mut back: Query<&mut Node, (With<BarBack>, Without<Legend>, Without<BarFill>)>,
) {
    // Into the right-hand column once it is up.
    if let (Ok(l), Some(c)) = (placed.single(), cards::column(&columns)) {
        commands.entity(l).insert(ChildOf(c));
    }
    let words = legend_words(&view, &opened);
    if let Ok(mut n) = node.single_mut() {
        let d = if words.is_some() { Display::Flex } else { Display::None };
        if n.display != d {
            n.display = d;
        }
    }
    if let Ok(mut t) = text.single_mut() {
        let w = words.unwrap_or_default();
        if t.0 != w {
            t.0 = w;
        }
    }
    let share = view.job.as_ref().map(|j| j.progress.done() as f32 / j.runs.max(1) as f32);
    if let Ok(mut b) = back.single_mut() {
        let d = if share.is_some() { Display::Flex } else { Display::None };
        if b.display != d {
            b.display = d;
        }
    }
    if let (Ok(mut f), Some(share)) = (fill.single_mut(), share) {
        f.width = Val::Percent(100.0 * share);
    }
}

/// The heat rings, every frame, round the counters where they are shown.
fn rings(view: Res<ForecastView>, opened: Res<Opened>, shown: Res<Shown>, mut lines: ResMut<Lines>) {
    let Some(f) = view.shown.as_ref().map(|s| &s.forecast) else { return };
    let layout: Layout = opened.layout;
    for (u, unit) in shown.units.iter().enumerate() {
        let p = f.broken_chance(u);
        if p <= 0.0 || unit.gone {
            continue;
        }
        let Some(at) = unit.pos().map(|p| layout.at(&p)) else { continue };
        lines.circle(at, 30.0, 2.0 + 5.0 * p as f32, heat(p), z::FLASH - 3.0);
    }
}

#[cfg(test)]
mod tests;
