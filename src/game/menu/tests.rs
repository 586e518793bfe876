//! The menu's saves, in an app without a window or renderer: the saves of
//! a scratch folder listed newest first, each line in words, a click that
//! opens one, and the list drawn again when a save is written.

use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use bevy::state::app::StatesPlugin;

use super::*;
use crate::game::sets;

/// A save of the cascade at `turn` written to `path`, last written at
/// `minute` past 06:00 on 5 December 2026 (UTC).
fn save_at(path: &Path, turn: u32, minute: u64) {
    let (name, text) = BUNDLED[0];
    let s = crate::game::testing::parse(text, name);
    let mut sim = crate::sim::Simulation::new(s, 7, vec![], Seats::Nobody);
    while sim.app.world().resource::<crate::sim::Clock>().turn < turn {
        crate::sim::step_phase(sim.app.world_mut());
    }
    let save = crate::save::capture(sim.app.world(), text).expect("a save");
    save.write(path).expect("written");
    let at = UNIX_EPOCH + Duration::from_secs(1_796_450_400 + 60 * minute);
    std::fs::File::options().write(true).open(path).and_then(|f| f.set_modified(at)).expect("its time set");
}

fn menu_app(dir: &Path) -> App {
    let mut app = App::new();
    app.add_plugins(StatesPlugin).init_state::<Screen>();
    sets::plugin(&mut app);
    app.init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<Seats>()
        .init_resource::<Dropped>()
        .init_resource::<ChosenLevel>()
        .init_resource::<Pending>()
        .insert_resource(SaveFolder { dir: dir.to_path_buf(), written: 0 });
    plugin(&mut app);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
    app.update();
    app
}

/// The saves' lines, top to bottom: each its file and its words.
fn lines(app: &mut App) -> Vec<(Entity, PathBuf, String)> {
    let mut q = app.world_mut().query_filtered::<&ChildOf, With<SaveLine>>();
    let Some(column) = q.iter(app.world()).next().map(ChildOf::parent) else { return Vec::new() };
    let world = app.world();
    let Some(children) = world.get::<Children>(column) else { return Vec::new() };
    children
        .iter()
        .filter(|c| world.get::<SaveLine>(*c).is_some())
        .map(|c| {
            let Some(MenuEntry(Source::File(path))) = world.get::<MenuEntry>(c) else { panic!("a save's file") };
            let words = world
                .get::<Children>(c)
                .and_then(|t| t.iter().find_map(|t| world.get::<Text>(t)))
                .map(|t| t.0.clone())
                .unwrap_or_default();
            (c, path.clone(), words)
        })
        .collect()
}

#[test]
fn the_menu_lists_the_saves_newest_first_and_a_click_opens_one() {
    let dir = std::env::temp_dir().join(format!("sauve-menu-saves-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (old, new, auto) =
        (dir.join("cascade-old.save.ron"), dir.join("cascade-new.save.ron"), dir.join("cascade-autosave.save.ron"));
    save_at(&old, 1, 5);
    save_at(&auto, 3, 30);
    save_at(&new, 2, 12);
    let mut app = menu_app(&dir);
    let listed = lines(&mut app);
    let files: Vec<&PathBuf> = listed.iter().map(|l| &l.1).collect();
    assert_eq!(files, vec![&auto, &new, &old], "newest first");
    let words: Vec<&str> = listed.iter().map(|l| l.2.as_str()).collect();
    assert!(
        words[0].starts_with("Cascade, turn 3 of ") && words[0].ends_with(", 5 December 2026, 06:30 UTC (autosave)")
    );
    assert!(words[1].starts_with("Cascade, turn 2 of ") && words[1].ends_with(", 5 December 2026, 06:12 UTC"));

    // A click opens the save.
    app.world_mut().trigger(Activate { entity: listed[1].0 });
    assert_eq!(app.world().resource::<Pending>().0, Some(Source::File(new.clone())));

    // A save written while the menu is open: listed at once, on top.
    let newest = dir.join("cascade-newest.save.ron");
    save_at(&newest, 1, 45);
    app.world_mut().resource_mut::<SaveFolder>().written += 1;
    app.update();
    let files: Vec<PathBuf> = lines(&mut app).into_iter().map(|l| l.1).collect();
    assert_eq!(files, vec![newest, auto, new, old]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_saves_yet_is_said() {
    let dir = std::env::temp_dir().join(format!("sauve-menu-none-{}", std::process::id()));
    let mut app = menu_app(&dir);
    assert!(lines(&mut app).is_empty());
    let mut q = app.world_mut().query::<&Text>();
    assert!(q.iter(app.world()).any(|t| t.0.starts_with("None yet: F5 saves")), "the column says so");
}
