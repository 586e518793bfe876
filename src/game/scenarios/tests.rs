//! Opening battles: which keys restart, reading files and saves, and a
//! restart that clears the last battle whole (its counters, its map and
//! every tile of its tilemaps).

use bevy::asset::AssetPlugin;
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::TilePos;

use super::*;
use crate::game::testing::{battle_app, parse, pressed};
use crate::game::{map, units};
use crate::sim::Simulation;

fn count<F: bevy::ecs::query::QueryFilter>(app: &mut App) -> usize {
    app.world_mut().query_filtered::<Entity, F>().iter(app.world()).count()
}

/// Opens the bundled battle `i` as the menu does, and draws it.
fn open(app: &mut App, i: usize) {
    app.world_mut().resource_mut::<Pending>().0 = Some(Source::Bundled(i));
    open_pending(app.world_mut());
    app.update();
    app.update();
}

#[test]
fn a_restart_leaves_no_entity_of_the_last_battle_behind() {
    // Grossbeeren: a hex map, so tiles, roads and hexsides all are drawn.
    let (name, text) = BUNDLED[1];
    let s = parse(text, name);
    let hexes = (s.map.width * s.map.height) as usize;
    let mut app = battle_app(Simulation::new(s, 1, Vec::new(), Seats::Nobody));
    app.add_plugins(AssetPlugin::default()).init_asset::<Image>();
    app.init_resource::<Pending>();
    map::plugin(&mut app);
    units::plugin(&mut app);
    open(&mut app, 1);
    let first = count::<()>(&mut app);
    assert_eq!(count::<With<TilePos>>(&mut app), hexes, "one tile a hex");
    open(&mut app, 1);
    open(&mut app, 1);
    assert_eq!(count::<With<TilePos>>(&mut app), hexes, "the tiles of the last map were cleared with it");
    assert_eq!(count::<()>(&mut app), first, "two restarts left nothing behind");
}

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
