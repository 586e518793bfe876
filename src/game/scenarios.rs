//! Opening scenarios: the built-in ones (embedded, so the binary works from
//! any directory), a file named on the command line or dropped on the
//! window, and restarting (the hot reload is `reload`'s). An invalid file
//! opens as its list of located errors.

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;

use super::opened::{BUNDLED, OnBattle, Opened, Source};
use super::request::Request;
use super::seats::{Seats, seat};
use super::sets::GameSet;
use super::state::{Screen, battle_keys};
use crate::scenario::{Scenario, parse_bytes};
use crate::sim::Clock;

/// A scenario to open at the start of the next frame.
#[derive(Resource, Default)]
pub struct Pending(pub Option<Source>);

/// The files dropped on the window this session, which the menu lists.
#[derive(Resource, Default)]
pub struct Dropped(pub Vec<PathBuf>);

pub(super) fn plugin(app: &mut App) {
    // The editor (`sauve edit`) opens no battle of its own.
    let req = &app.world().resource::<Request>().0;
    let first = match (&req.file, &req.edit) {
        (_, Some(_)) => None,
        (Some(p), None) => Some(Source::File(p.clone())),
        (None, None) => Some(Source::Bundled(0)),
    };
    app.insert_resource(Pending(first))
        .init_resource::<Dropped>()
        .init_resource::<ScenarioText>()
        .insert_resource(Opened::failed(Source::Bundled(0), Vec::new()));
    app.add_systems(Update, (dropped, open_pending).chain().in_set(GameSet::Open));
    app.add_systems(Update, restart.in_set(GameSet::Input).run_if(battle_keys));
}

/// What a source holds: a scenario, or a saved game (with its scenario).
pub struct Game {
    pub scenario: Scenario,
    pub save: Option<crate::save::SaveGame>,
    /// The scenario file's text, which a save keeps whole.
    pub text: String,
}

/// Reads and validates a source: a scenario or a saved game, or the
/// located error lines that stopped it opening.
pub fn read_game(source: &Source) -> Result<Game, Vec<String>> {
    let (name, bytes) = match source {
        Source::Bundled(i) => {
            let Some((name, text)) = BUNDLED.get(*i) else { return Err(vec![format!("no bundled scenario {i}")]) };
            (format!("scenarios/{name}"), text.as_bytes().to_vec())
        }
        Source::File(p) => {
            let name = p.display().to_string();
            match std::fs::read(p) {
                Ok(bytes) => (name, bytes),
                Err(e) => return Err(vec![format!("{name}: error: cannot read: {e}")]),
            }
        }
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if crate::save::is_save(&text) {
        let (save, scenario) = crate::save::SaveGame::parse(&text, &name).map_err(|e| e.lines())?;
        let text = save.scenario.clone();
        return Ok(Game { scenario, save: Some(save), text });
    }
    let scenario = parse_bytes(&bytes, &name).map_err(|e| e.lines())?;
    Ok(Game { scenario, save: None, text })
}

/// The text of the open scenario (what a quick save keeps).
#[derive(Resource, Default)]
pub struct ScenarioText(pub String);

/// Opens the pending scenario: restarts the simulation with it, or keeps
/// its errors to show. Exclusive, because the simulation lives in the world.
fn open_pending(world: &mut World) {
    let Some(source) = world.resource_mut::<Pending>().0.take() else { return };
    let shot = world.resource::<Request>().0.shot.clone();
    let old: Vec<Entity> = world.query_filtered::<Entity, With<OnBattle>>().iter(world).collect();
    for e in old {
        if let Ok(em) = world.get_entity_mut(e) {
            em.despawn();
        }
    }
    let opened = match read_game(&source) {
        Ok(Game { scenario, save: Some(save), text }) => {
            // A saved game: its orders played again up to where it stood,
            // with its own seats.
            let s = Arc::new(scenario);
            crate::save::restore(world, &save, s.clone());
            world.insert_resource(ScenarioText(text));
            Opened::battle(source, s)
        }
        Ok(Game { scenario, save: None, text }) => {
            let s = Arc::new(scenario);
            world.insert_resource(ScenarioText(text));
            let seed = shot.as_ref().and_then(|r| r.seed).unwrap_or(s.seed);
            // `sauve shot --ai`: who plays the turns before the picture (the
            // command line has checked a side id against this file).
            let ai = shot.as_ref().and_then(|r| crate::cli::ai_mode(&r.ai, &s.sides).ok()).unwrap_or(Seats::Nobody);
            crate::sim::reset(world, s.clone(), seed, Vec::new(), ai);
            // A picture shows the battle as the rules alone play it (or the
            // AI, as `--ai` asked), unless asked for the player's seats (to
            // picture a turn of orders).
            let seats = match (&shot, std::env::var("SAUVE_SHOT_SEATS").ok().as_deref()) {
                (None, _) => Some(*world.resource::<Seats>()),
                (Some(_), Some("player")) => Some(Seats::Player),
                (Some(_), Some("hotseat")) => Some(Seats::HotSeat),
                (Some(_), _) => None,
            };
            if let Some(seats) = seats {
                seat(world, seats);
            }
            if let Some(r) = &shot {
                simulate_turns(world, r.turns);
            }
            Opened::battle(source, s)
        }
        Err(errors) => {
            let units: Vec<Entity> =
                world.query_filtered::<Entity, With<crate::sim::UnitIndex>>().iter(world).collect();
            for e in units {
                world.despawn(e);
            }
            Opened::failed(source, errors)
        }
    };
    world.insert_resource(opened);
    world.resource_mut::<NextState<Screen>>().set(Screen::Battle);
}

/// Runs the whole battle's first `turns` turns at once (for `sauve shot`),
/// stopping early at a phase that waits for a player.
pub fn simulate_turns(world: &mut World, turns: u32) {
    while world.get_resource::<Clock>().is_some_and(|c| !c.finished && c.turn <= turns) {
        if crate::sim::awaiting_orders(world).is_some() {
            break;
        }
        if !crate::sim::step_phase(world) {
            break;
        }
    }
}

fn dropped(mut drops: MessageReader<FileDragAndDrop>, mut pending: ResMut<Pending>, mut dropped: ResMut<Dropped>) {
    for d in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = d {
            if !dropped.0.contains(path_buf) {
                dropped.0.push(path_buf.clone());
            }
            pending.0 = Some(Source::File(path_buf.clone()));
        }
    }
}

/// Shift+R (not in the menu) opens the open scenario again from the start.
fn restart(
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    opened: Res<Opened>,
    mut pending: ResMut<Pending>,
) {
    if restart_asked(&keys, *screen.get(), opened.scenario.is_some()) {
        pending.0 = Some(opened.source.clone());
    }
}

/// Whether the keys ask for a restart: Shift+R; or R alone where there is
/// no battle to preview a rout on (the end-of-battle card, a file that
/// would not open), since in the battle R shows a unit's rout.
pub fn restart_asked(keys: &ButtonInput<KeyCode>, screen: Screen, battle_open: bool) -> bool {
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    keys.just_pressed(KeyCode::KeyR) && (shift || screen == Screen::GameOver || !battle_open)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::testing::pressed;

    /// In the battle R is the rout preview's: only Shift+R starts again;
    /// on the end-of-battle card, or with no battle open, R alone does.
    #[test]
    fn shift_r_restarts_and_r_alone_only_where_no_rout_can_be_previewed() {
        let (r, shift_r) = (pressed(&[KeyCode::KeyR]), pressed(&[KeyCode::ShiftLeft, KeyCode::KeyR]));
        assert!(!restart_asked(&r, Screen::Battle, true));
        assert!(restart_asked(&shift_r, Screen::Battle, true));
        assert!(restart_asked(&r, Screen::GameOver, true));
        assert!(restart_asked(&r, Screen::Battle, false));
        assert!(!restart_asked(&pressed(&[KeyCode::ShiftLeft]), Screen::Battle, true));
    }

    #[test]
    fn every_bundled_scenario_is_valid_and_is_the_file_on_disk() {
        for (i, (name, text)) in BUNDLED.iter().enumerate() {
            assert!(read_game(&Source::Bundled(i)).is_ok(), "{name}");
            let disk =
                std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios").join(name));
            assert_eq!(disk.ok().as_deref(), Some(*text), "{name}");
        }
        let on_disk = std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"))
            .map(|d| d.filter_map(Result::ok).filter(|e| e.path().extension().is_some_and(|x| x == "ron")).count())
            .unwrap_or(0);
        assert_eq!(on_disk, BUNDLED.len(), "every scenario in scenarios/ is bundled");
    }

    #[test]
    fn a_broken_file_gives_located_errors() {
        let dir = std::env::temp_dir().join(format!("sauve-game-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let p = dir.join("broken.ron");
        let _ = std::fs::write(&p, "Scenario(format: 1, name: \"x\",\n  nonsense: 3)");
        let errors = read_game(&Source::File(p.clone())).err().unwrap_or_default();
        assert!(!errors.is_empty());
        assert!(errors[0].contains("broken.ron:"), "{errors:?}");
        let missing = read_game(&Source::File(dir.join("missing.ron"))).err().unwrap_or_default();
        assert!(missing[0].contains("cannot read"), "{missing:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_save_file_opens_as_the_saved_game() {
        let Ok(game) = read_game(&Source::Bundled(0)) else { panic!("the cascade opens") };
        let mut sim = crate::sim::Simulation::new(Arc::new(game.scenario), 7, vec![], Seats::Nobody);
        sim.step();
        let Some(save) = crate::save::capture(sim.app.world(), &game.text) else { panic!("a save") };
        let dir = std::env::temp_dir().join(format!("sauve-game-save-{}", std::process::id()));
        let p = dir.join("quick.save.ron");
        assert!(save.write(&p).is_ok());
        let opened = read_game(&Source::File(p)).ok();
        assert!(opened.as_ref().is_some_and(|g| g.save.is_some() && g.text == game.text), "opened as a save");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
