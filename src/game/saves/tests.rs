//! The saves at the window, in an app without a window or renderer and a
//! scratch folder a test: F5 writes a new file each time and never over
//! another; a hex battle's saves and a table's live side by side and F9
//! opens the battle's own; the folder lists newest first; the autosave is
//! written when a turn begins, and not for a picture, a watched battle or
//! a save opening.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;

use super::*;
use crate::game::opened::{Opened, Source};
use crate::game::scenarios::{self, Pending, ScenarioText};
use crate::game::seats::{Seats, seat};
use crate::game::testing::{battle_app, parse, press};
use crate::game::turn::PlayerTurn;
use crate::sim::{self, Simulation};

/// A scratch folder for one test, empty.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sauve-saves-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A French battalion (the player's) and a Russian one (the AI's) on a
/// small hex map.
fn hex_battle(turns: u32) -> String {
    let rows: Vec<String> = (0..9).map(|_| format!("\"{}\"", ".".repeat(8))).collect();
    format!(
        "Scenario(format: 1, name: \"Hex duel\", turns: {turns}, seed: 7,\n sides: [(id: \"fr\", rear: South, control: Player), (id: \"ru\", rear: North, control: Ai)],\n map: (rows: [{}]),\n units: [(id: \"fr-a\", side: \"fr\", arm: Infantry, at: (3, 5), morale: 32, strength: 4), (id: \"ru-a\", side: \"ru\", arm: Infantry, at: (3, 1), morale: 32, strength: 4)],\n shocks: [],\n rules: ())",
        rows.join(",\n ")
    )
}

/// Two battalions on a free-space table.
fn table_battle() -> String {
    let rows: Vec<String> = (0..20).map(|_| format!("\"{}\"", ".".repeat(20))).collect();
    format!(
        "Scenario(format: 1, name: \"Table duel\", mode: FreeSpace, turns: 2, seed: 7,\n sides: [(id: \"a\", rear: South), (id: \"b\", rear: North)],\n map: (rows: [{}], cell_cm: 10.0),\n units: [(id: \"a1\", side: \"a\", arm: Infantry, pos: (100.0, 120.0), figures: 24, valour: 0), (id: \"b1\", side: \"b\", arm: Infantry, pos: (100.0, 100.0), figures: 24, valour: 0)])",
        rows.join(",\n ")
    )
}

/// The battle in `text` at a window with `seats`, its saves in `dir`:
/// opening files, the orders' keys and the saves as in the game.
fn window(text: &str, seats: Seats, dir: &Path) -> App {
    let mut sim = Simulation::new(parse(text, "battle.ron"), 7, vec![], Seats::Nobody);
    seat(sim.app.world_mut(), seats);
    let mut app = battle_app(sim);
    let opened = app.world_mut().remove_resource::<Opened>().expect("opened");
    app.add_message::<FileDragAndDrop>();
    scenarios::plugin(&mut app);
    app.world_mut().resource_mut::<Pending>().0 = None;
    app.insert_resource(opened).insert_resource(ScenarioText(text.to_owned()));
    crate::game::orders::plugin(&mut app);
    super::plugin(&mut app);
    app.insert_resource(SaveFolder { dir: dir.to_path_buf(), written: 0 });
    app.update();
    app
}

/// The save files in `dir`, by name.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect()).unwrap_or_default();
    out.sort();
    out
}

fn said(app: &App) -> Notice {
    app.world().resource::<PlayerTurn>().message.clone().expect("a message")
}

fn clock(app: &App) -> sim::Clock {
    *app.world().resource::<sim::Clock>()
}

/// Plays the battle on (every waiting phase ended) until `turn` begins.
fn to_turn(app: &mut App, turn: u32) {
    let w = app.world_mut();
    for _ in 0..500 {
        let c = *w.resource::<sim::Clock>();
        if c.turn >= turn || c.finished {
            return;
        }
        if sim::awaiting_orders(w).is_some() {
            sim::end_phase(w);
        } else {
            sim::step_phase(w);
        }
    }
    panic!("turn {turn} never began");
}

fn set_modified(path: &Path, at: SystemTime) {
    let file = std::fs::File::options().write(true).open(path).expect("the save");
    file.set_modified(at).expect("its time set");
}

#[test]
fn two_f5_presses_write_two_files_and_neither_overwrites_the_other() {
    let dir = scratch("f5");
    let mut app = window(&hex_battle(2), Seats::HotSeat, &dir);
    press(&mut app, KeyCode::F5);
    let first = files(&dir);
    assert_eq!(first.len(), 1, "{first:?}");
    let name = first[0].file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    assert!(name.starts_with("hex-duel-") && name.ends_with("-t1.save.ron"), "named by battle, date, turn: {name}");
    let n = said(&app);
    assert!(!n.error && n.text.contains(&first[0].display().to_string()), "says where: {}", n.text);
    let kept = std::fs::read_to_string(&first[0]).expect("the first save");

    // F5 again at once (the same minute, as like as not: a number then
    // tells the two apart).
    press(&mut app, KeyCode::F5);
    let both = files(&dir);
    assert_eq!(both.len(), 2, "a second file: {both:?}");
    assert_eq!(std::fs::read_to_string(&first[0]).ok().as_ref(), Some(&kept), "the first save is untouched");
    let second = both.iter().find(|p| **p != first[0]).expect("the new one").clone();
    assert!(said(&app).text.contains(&second.display().to_string()));

    // The battle goes on to turn 2 (its autosave written), and F5 again.
    to_turn(&mut app, 2);
    app.update();
    press(&mut app, KeyCode::F5);
    let slots: Vec<PathBuf> = files(&dir).into_iter().filter(|p| Kind::of(p) == Kind::Slot).collect();
    assert_eq!(slots.len(), 3, "{slots:?}");
    assert_eq!(std::fs::read_to_string(&first[0]).ok(), Some(kept), "the first save is still untouched");
    let turns: Vec<u32> = slots
        .iter()
        .map(|p| SaveGame::peek(&std::fs::read_to_string(p).expect("read")).expect("a save").at.turn)
        .collect();
    assert_eq!(turns.iter().filter(|t| **t == 1).count(), 2, "{turns:?}");
    assert!(turns.contains(&2), "{turns:?}");
    assert!(slots.iter().any(|p| p.to_string_lossy().ends_with("-t2.save.ron")), "{slots:?}");
    assert_eq!(app.world().resource::<SaveFolder>().written, 4, "three saves and an autosave");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_name_taken_gets_a_number_and_a_folder_that_cannot_be_made_is_said() {
    let dir = scratch("names");
    // 2026-12-05 06:12:59 UTC.
    let at = UNIX_EPOCH + Duration::from_secs(1_796_451_179);
    let first = new_slot(&dir, "Dennewitz 1813", at, 3);
    assert_eq!(first, dir.join("dennewitz-1813-2026-12-05-0612-t3.save.ron"));
    std::fs::create_dir_all(&dir).expect("the folder");
    std::fs::write(&first, "taken").expect("written");
    let second = new_slot(&dir, "Dennewitz 1813", at, 3);
    assert_eq!(second, dir.join("dennewitz-1813-2026-12-05-0612-t3-2.save.ron"));
    std::fs::write(&second, "taken").expect("written");
    assert_eq!(new_slot(&dir, "Dennewitz 1813", at, 3), dir.join("dennewitz-1813-2026-12-05-0612-t3-3.save.ron"));
    assert_eq!(autosave_path(&dir, "Dennewitz 1813"), dir.join("dennewitz-1813-autosave.save.ron"));
    assert_eq!(slug("  La Belle-Alliance: 18 June!  "), "la-belle-alliance-18-june");
    assert_eq!(slug("Gölsdorf"), "gölsdorf");
    assert_eq!(slug("?!"), "battle");

    // A file where the folder should be: F5 says so, in words.
    let blocked = dir.join("blocked");
    std::fs::write(&blocked, "a file").expect("written");
    let mut app = window(&hex_battle(2), Seats::HotSeat, &blocked);
    press(&mut app, KeyCode::F5);
    let n = said(&app);
    assert!(n.error && n.text.starts_with("Cannot save to ") && n.text.contains("blocked"), "{}", n.text);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hex_save_and_a_table_save_live_side_by_side_and_f9_opens_the_battles_own() {
    let dir = scratch("f9");
    let mut hex = window(&hex_battle(2), Seats::HotSeat, &dir);
    press(&mut hex, KeyCode::F9);
    let n = said(&hex);
    assert!(n.error && n.text.contains("No save of Hex duel"), "{}", n.text);

    let mut table = window(&table_battle(), Seats::HotSeat, &dir);
    press(&mut hex, KeyCode::F5);
    press(&mut table, KeyCode::F5);
    let saved = files(&dir);
    assert_eq!(saved.len(), 2, "side by side: {saved:?}");
    let (hex_save, table_save) = {
        let of = |start: &str| saved.iter().find(|p| p.to_string_lossy().contains(start)).cloned().expect(start);
        (of("/hex-duel-"), of("/table-duel-"))
    };
    // The table's save is the newest in the folder; the hex battle's F9
    // still opens its own.
    set_modified(&table_save, SystemTime::now() + Duration::from_secs(60));
    press(&mut hex, KeyCode::F9);
    let n = said(&hex);
    assert!(!n.error && n.text.contains("newest save of Hex duel"), "{}", n.text);
    assert!(n.text.contains(&hex_save.display().to_string()), "says which: {}", n.text);
    assert_eq!(hex.world().resource::<Opened>().source, Source::File(hex_save));
    assert_eq!(hex.world().resource::<sim::Battle>().scenario.name, "Hex duel");

    press(&mut table, KeyCode::F9);
    assert_eq!(table.world().resource::<Opened>().source, Source::File(table_save));
    assert_eq!(table.world().resource::<sim::Battle>().scenario.mode, crate::vocab::Mode::FreeSpace);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_folder_lists_newest_first_and_f9_skips_a_forks_branches() {
    let dir = scratch("list");
    let mut app = window(&hex_battle(2), Seats::HotSeat, &dir);
    press(&mut app, KeyCode::F5);
    press(&mut app, KeyCode::F5);
    let slots = files(&dir);
    let fork = dir.join("fork-12-33.save.ron");
    let broken = dir.join("broken.save.ron");
    std::fs::copy(&slots[0], &fork).expect("copied");
    std::fs::write(&broken, "SaveGame(nonsense)").expect("written");
    std::fs::write(dir.join("notes.txt"), "not a save").expect("written");
    let base = UNIX_EPOCH + Duration::from_secs(1_796_451_179);
    for (i, p) in [&slots[0], &broken, &slots[1], &fork].into_iter().enumerate() {
        set_modified(p, base + Duration::from_secs(60 * i as u64));
    }
    let listed = found(&dir).expect("listed");
    let order: Vec<&Path> = listed.iter().map(|f| f.path.as_path()).collect();
    assert_eq!(order, vec![fork.as_path(), slots[1].as_path(), broken.as_path(), slots[0].as_path()]);
    assert_eq!(listed.iter().map(|f| f.kind).collect::<Vec<_>>(), [Kind::Fork, Kind::Slot, Kind::Slot, Kind::Slot]);
    assert_eq!(listed[1].words(), "Hex duel, turn 1 of 2, 5 December 2026, 06:14 UTC");
    assert_eq!(listed[0].words(), "Hex duel, turn 1 of 2, 5 December 2026, 06:15 UTC (fork)");
    assert!(listed[2].words().starts_with("broken.save.ron: cannot be read ("), "{}", listed[2].words());
    assert_eq!(newest_of(&dir, "Hex duel").map(|f| f.path), Some(slots[1].clone()), "not the fork's");
    assert_eq!(newest_of(&dir, "Table duel"), None);
    assert_eq!(found(&dir.join("none yet")), Ok(Vec::new()), "a folder not made yet holds no save");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_autosave_is_written_when_a_turn_begins_and_not_for_a_picture() {
    let dir = scratch("auto");
    let auto = autosave_path(&dir, "Hex duel");
    let mut app = window(&hex_battle(3), Seats::Player, &dir);
    app.update();
    assert!(!auto.exists(), "opening a battle writes none");
    to_turn(&mut app, 2);
    app.update();
    let turn_of = |p: &Path| SaveGame::peek(&std::fs::read_to_string(p).expect("the autosave")).expect("a save").at;
    assert_eq!(turn_of(&auto).turn, 2, "written as turn 2 begins");
    to_turn(&mut app, 3);
    app.update();
    assert_eq!(turn_of(&auto).turn, 3, "the same file, rewritten");
    assert_eq!(files(&dir), vec![auto.clone()], "one autosave a battle");

    // Opening a save replays it to its turn: no turn begins at the window.
    std::fs::rename(&auto, dir.join("turn-3.save.ron")).expect("kept");
    let mut fresh = window(&hex_battle(3), Seats::Player, &dir);
    fresh.world_mut().resource_mut::<Pending>().0 = Some(Source::File(dir.join("turn-3.save.ron")));
    fresh.update();
    fresh.update();
    assert_eq!(clock(&fresh).turn, 3, "the save opened at its turn");
    assert!(!auto.exists(), "no autosave for a save opening");

    // A picture (`sauve shot`), and a battle the AI plays alone: none.
    let _ = std::fs::remove_dir_all(&dir);
    let mut shot = window(&hex_battle(3), Seats::Player, &dir);
    let picture =
        crate::cli::ShotRequest { out: dir.join("shot.png"), turns: 2, seed: None, ai: String::new(), why: None };
    shot.world_mut().resource_mut::<crate::game::request::Request>().0.shot = Some(picture);
    to_turn(&mut shot, 2);
    shot.update();
    let mut watched = window(&hex_battle(3), Seats::Watch, &dir);
    to_turn(&mut watched, 2);
    watched.update();
    assert_eq!(files(&dir), Vec::<PathBuf>::new(), "nothing written");
    let _ = std::fs::remove_dir_all(&dir);
}
