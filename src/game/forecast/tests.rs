//! The forecast at the window, in an app without a window or renderer: F
//! plays it on other threads while frames flow, and its rings and legend
//! are the forecast's; Esc cancels; looking back is not a forecast point.

use std::time::{Duration, Instant};

use bevy::prelude::*;

use super::{ForecastView, heat, legend_words};
use crate::game::lines::Lines;
use crate::game::opened::Opened;
use crate::game::playback;
use crate::game::scenarios::ScenarioText;
use crate::game::seats::Seats;
use crate::game::shown::Shown;
use crate::game::testing::{battle_app, parse, press};
use crate::game::turn::PlayerTurn;
use crate::sim::Simulation;
use crate::turn::Phase;

const CASCADE: &str = crate::game::opened::BUNDLED[0].1;

/// The cascade battle after its first shocks segment, at the window,
/// shown to the end of its log, with the forecast and `runs` a forecast.
fn window(runs: u64) -> App {
    let mut sim = Simulation::new(parse(CASCADE, "cascade.ron"), 1, vec![], Seats::Nobody);
    while sim.log().events.last().is_none_or(|e| e.phase == Phase::Shocks) {
        sim.step();
    }
    let mut app = battle_app(sim);
    app.insert_resource(ScenarioText(CASCADE.to_owned()));
    super::plugin(&mut app);
    app.world_mut().resource_mut::<ForecastView>().runs = runs;
    app.update();
    app.world_mut().resource_mut::<playback::Playback>().jump_to_present();
    app.world_mut().resource_mut::<playback::Playback>().playing = false;
    app.update();
    app
}

fn frames_until(app: &mut App, done: impl Fn(&App) -> bool) -> usize {
    let t = Instant::now();
    let mut frames = 0;
    while !done(app) {
        assert!(t.elapsed() < Duration::from_secs(120), "the forecast never came");
        app.update();
        frames += 1;
        std::thread::sleep(Duration::from_millis(5));
    }
    frames
}

#[test]
fn f_plays_a_forecast_while_frames_flow_and_rings_the_counters() {
    let mut app = window(40);
    let events = app.world().resource::<crate::sim::BattleLog>().events.len();
    assert_eq!(app.world().resource::<Shown>().cursor, events);
    press(&mut app, KeyCode::KeyF);
    assert!(app.world().resource::<ForecastView>().job.is_some(), "F starts a forecast");
    let frames = frames_until(&mut app, |a| a.world().resource::<ForecastView>().shown.is_some());
    assert!(frames > 0, "frames were drawn while it played");
    let view = app.world().resource::<ForecastView>();
    let f = &view.shown.as_ref().expect("shown").forecast;
    assert_eq!(f.runs, 40);
    assert_eq!(f.horizon.from.turn, 1);
    // The ring of each unit with a chance, in the colour of that chance.
    let s = app.world().resource::<Opened>().scenario.clone().expect("a scenario");
    let shown = app.world().resource::<Shown>();
    let ringed: Vec<usize> = (0..s.units.len()).filter(|&u| f.broken_chance(u) > 0.0 && !shown.units[u].gone).collect();
    assert!(!ringed.is_empty(), "some unit of the cascade may break this turn");
    let colours: Vec<Color> = ringed.iter().map(|&u| heat(f.broken_chance(u))).collect();
    let words = legend_words(view, app.world().resource::<Opened>()).expect("a legend");
    assert!(words.contains("40 continuations") && words.contains("breaks"), "{words}");
    app.update();
    let drawn = app.world().resource::<Lines>().colours();
    for c in colours {
        assert!(drawn.contains(&c), "a ring in {c:?}");
    }
    // F again hides it.
    press(&mut app, KeyCode::KeyF);
    assert!(app.world().resource::<ForecastView>().shown.is_none());
}

#[test]
fn esc_cancels_a_forecast_and_looking_back_is_no_forecast_point() {
    let mut app = window(100_000);
    press(&mut app, KeyCode::KeyF);
    let progress = app.world().resource::<ForecastView>().job.as_ref().map(|j| j.progress.clone()).expect("a job");
    press(&mut app, KeyCode::Escape);
    assert!(progress.cancelled(), "Esc asks the runs to stop");
    let view = app.world().resource::<ForecastView>();
    assert!(view.job.is_none() && view.shown.is_none(), "nothing is shown of a cancelled forecast");

    // A step back in the log: F refuses, saying why.
    app.world_mut().resource_mut::<playback::Playback>().seek_to(3);
    app.update();
    press(&mut app, KeyCode::KeyF);
    assert!(app.world().resource::<ForecastView>().job.is_none());
    let said = app.world().resource::<PlayerTurn>().message.as_ref().map(|n| n.text.clone()).unwrap_or_default();
    assert!(said.contains("Looking back"), "{said}");
}

#[test]
fn f_while_the_playback_catches_up_forecasts_from_the_present() {
    let mut app = window(20);
    let events = app.world().resource::<crate::sim::BattleLog>().events.len();
    // Shown a few events behind the battle, not stepped back by the player.
    app.world_mut().resource_mut::<playback::Playback>().seek_to(events - 2);
    app.update();
    app.world_mut().resource_mut::<playback::Playback>().looking_back = false;
    press(&mut app, KeyCode::KeyF);
    assert!(app.world().resource::<ForecastView>().job.is_some(), "F forecasts from the present");
    assert_eq!(app.world().resource::<Shown>().cursor, events, "and shows it");
    frames_until(&mut app, |a| a.world().resource::<ForecastView>().shown.is_some());
}
