//! The editor at the window, in an app without a window or renderer: a
//! new map opens, clicks paint and place through the map's geometry, the
//! checker's problems are ringed, the keys undo, redo and save (asking
//! first over a file with comments of its own), edits autosave, and F8
//! playtests and returns.

use std::path::{Path, PathBuf};

use bevy::asset::AssetPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;

use super::draw::EditorCounter;
use super::input::click_at;
use super::model::AUTOSAVE_EVERY;
use super::{Editor, Tool};
use crate::cli::{EditRequest, WindowRequest};
use crate::edit::forces::Spot;
use crate::edit::paint::{Brush, terrain_at};
use crate::edit::write;
use crate::game::input::MapPointer;
use crate::game::layout::Layout;
use crate::game::lines::Lines;
use crate::game::map::HexAtlas;
use crate::game::opened::{Opened, Source};
use crate::game::request::Request;
use crate::game::seats::Seats;
use crate::game::sets;
use crate::game::state::Screen;
use crate::game::testing::pressed;
use crate::game::theme::PROBLEM;
use crate::hex::Offset;
use crate::scenario::Mode;
use crate::terrain::{Arm, Terrain};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sauve-editor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::create_dir_all(&dir);
    dir
}

fn app_on(file: &Path, size: (u32, u32)) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), StatesPlugin));
    app.init_asset::<Image>();
    app.init_state::<Screen>();
    crate::sim::install_schedules(&mut app);
    app.init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<MapPointer>()
        .init_resource::<Lines>()
        .insert_resource(Seats::Watch)
        .insert_resource(HexAtlas(Handle::default()))
        .insert_resource(Request(WindowRequest {
            file: None,
            shot: None,
            edit: Some(EditRequest {
                file: file.to_path_buf(),
                mode: Mode::Hex,
                size,
                fill: Terrain::Clear,
                shot: None,
            }),
        }))
        .insert_resource(Opened::failed(Source::Bundled(0), Vec::new()));
    sets::plugin(&mut app);
    super::plugin(&mut app);
    app.update();
    app.update();
    app
}

fn editor(app: &App) -> &Editor {
    app.world().resource::<Editor>()
}

/// A frame with `keys` held, then one with none.
fn chord(app: &mut App, keys: &[KeyCode]) {
    *app.world_mut().resource_mut::<ButtonInput<KeyCode>>() = pressed(keys);
    app.update();
    *app.world_mut().resource_mut::<ButtonInput<KeyCode>>() = ButtonInput::default();
    app.update();
}

/// A click at the centre of hex `at`, through the map's geometry.
fn click_hex(app: &mut App, at: Offset) {
    let layout = app.world().resource::<Opened>().layout;
    let world = layout.world(at);
    click_at(&mut app.world_mut().resource_mut::<Editor>(), layout, world, false);
    app.update();
}

fn counters(app: &mut App) -> usize {
    app.world_mut().query_filtered::<Entity, With<EditorCounter>>().iter(app.world()).count()
}

#[test]
fn a_new_map_is_painted_and_peopled_by_clicks_undone_redone_saved_and_autosaved() {
    let dir = temp("new");
    let file = dir.join("new.ron");
    let mut app = app_on(&file, (8, 6));
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Editor);
    assert_eq!(app.world().resource::<Opened>().layout, Layout::Hex { width: 8, height: 6 });
    assert_eq!(editor(&app).problems.len(), 1, "a new map lacks only units");

    // Woods with a radius-1 brush: the hex clicked and its six neighbours.
    {
        let mut e = app.world_mut().resource_mut::<Editor>();
        e.tool = Tool::Terrain(Terrain::Woods);
        e.brush = Brush::Radius(1);
    }
    click_hex(&mut app, Offset::new(3, 3));
    let map = &editor(&app).file().map;
    assert_eq!(terrain_at(map, Offset::new(3, 3)), Some(Terrain::Woods));
    assert!(Offset::new(3, 3).neighbours().iter().all(|&n| terrain_at(map, n) == Some(Terrain::Woods)));
    assert_eq!(terrain_at(map, Offset::new(0, 0)), Some(Terrain::Clear));

    // Artillery in the woods is a problem, ringed on the map; infantry of
    // the other side is not.
    app.world_mut().resource_mut::<Editor>().tool = Tool::Unit { side: 0, arm: Arm::Artillery };
    click_hex(&mut app, Offset::new(3, 3));
    app.world_mut().resource_mut::<Editor>().tool = Tool::Unit { side: 1, arm: Arm::Infantry };
    click_hex(&mut app, Offset::new(6, 1));
    assert_eq!(editor(&app).file().units.len(), 2);
    assert_eq!(counters(&mut app), 2, "each unit drawn as a counter");
    let problems: Vec<String> = editor(&app).problems.iter().filter_map(|p| p.path.clone()).collect();
    assert!(problems.iter().any(|p| p.starts_with("units[0]")), "{problems:?}");
    assert!(app.world().resource::<Lines>().colours().contains(&PROBLEM), "the problem is ringed");

    // Ctrl+Z takes the infantry back, Ctrl+Y puts it back again.
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    assert_eq!(editor(&app).file().units.len(), 1);
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyY]);
    assert_eq!(editor(&app).file().units.len(), 2);

    // Ctrl+S writes the file, which reads back as the same scenario.
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    let text = std::fs::read_to_string(&file).expect("saved");
    assert!(text.starts_with(write::HEADER));
    assert_eq!(crate::scenario::read_file(&text, "new.ron").ok().as_ref(), Some(editor(&app).file()));
    assert_eq!(editor(&app).editing.unsaved, 0);

    // Edits autosave beside the file every few.
    app.world_mut().resource_mut::<Editor>().tool = Tool::Terrain(Terrain::Town);
    app.world_mut().resource_mut::<Editor>().brush = Brush::One;
    for c in 0..AUTOSAVE_EVERY as i32 {
        click_hex(&mut app, Offset::new(c, 5));
    }
    chord(&mut app, &[KeyCode::ShiftLeft]);
    let auto = write::autosave_path(&file);
    let saved = std::fs::read_to_string(&auto).expect("autosaved");
    assert_eq!(crate::scenario::read_file(&saved, "auto").ok().as_ref(), Some(editor(&app).file()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn saving_over_a_file_with_comments_of_its_own_asks_first() {
    let dir = temp("comments");
    let file = dir.join("cascade.ron");
    let original = crate::game::opened::BUNDLED[0].1;
    assert!(std::fs::write(&file, original).is_ok());
    let mut app = app_on(&file, (8, 6));
    assert_eq!(editor(&app).file().name, "Cascade");
    app.world_mut().resource_mut::<Editor>().tool = Tool::Objective;
    click_hex(&mut app, Offset::new(1, 1));
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    assert_eq!(std::fs::read_to_string(&file).ok().as_deref(), Some(original), "not overwritten yet");
    assert!(editor(&app).message.contains("comments"), "{}", editor(&app).message);
    // Ctrl+Shift+S writes a new name; Ctrl+S again overwrites.
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::ShiftLeft, KeyCode::KeyS]);
    assert!(dir.join("cascade.edited.ron").exists());
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let objectives = |t: &str| crate::scenario::parse(t, "cascade.ron").map_or(usize::MAX, |s| s.objectives.len());
    assert_eq!(objectives(&text), objectives(original) + 1, "overwritten with the objective added");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn f8_playtests_a_valid_scenario_and_returns_to_the_editor_as_it_was() {
    let dir = temp("playtest");
    let mut app = app_on(&dir.join("p.ron"), (10, 8));
    // With problems, F8 refuses.
    chord(&mut app, &[KeyCode::F8]);
    assert!(!editor(&app).playtest && editor(&app).message.contains("Not playable"));
    for (side, at) in [(0, Offset::new(4, 6)), (1, Offset::new(4, 1))] {
        app.world_mut().resource_mut::<Editor>().tool = Tool::Unit { side, arm: Arm::Infantry };
        click_hex(&mut app, at);
    }
    assert!(editor(&app).problems.is_empty(), "{:?}", editor(&app).problems);
    // One hex from its rear edge, a rout would run off the map: the
    // checker's warning, as `sauve check` gives it.
    assert!(editor(&app).warnings.iter().any(|w| w.message.contains("rear edge")), "{:?}", editor(&app).warnings);
    let before = editor(&app).file().clone();
    chord(&mut app, &[KeyCode::F8]);
    assert!(editor(&app).playtest);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Battle);
    let s = app.world().resource::<Opened>().scenario.clone().expect("the battle");
    assert_eq!(s.units.len(), 2);
    assert!(app.world().get_resource::<crate::sim::BattleLog>().is_some());
    chord(&mut app, &[KeyCode::F8]);
    assert!(!editor(&app).playtest);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Editor);
    assert!(app.world().resource::<Opened>().scenario.is_none());
    assert_eq!(editor(&app).file(), &before, "the editor as it was left");
    assert_eq!(counters(&mut app), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_free_space_click_lands_in_centimetres() {
    let dir = temp("free");
    let mut app = app_on(&dir.join("f.ron"), (6, 4));
    let free = crate::edit::blank::blank(Mode::FreeSpace, 6, 4, Terrain::Clear);
    app.insert_resource(Editor::new(free, dir.join("f.ron")));
    app.update();
    app.update();
    let layout = app.world().resource::<Opened>().layout;
    assert!(matches!(layout, Layout::Table { width: 6, height: 4, .. }), "{layout:?}");
    app.world_mut().resource_mut::<Editor>().tool = Tool::Unit { side: 0, arm: Arm::Infantry };
    let world = layout.table_world(25.0, 15.0);
    click_at(&mut app.world_mut().resource_mut::<Editor>(), layout, world, false);
    let u = &editor(&app).file().units[0];
    let Some(Spot::Cm(x, y)) = crate::edit::forces::spot(u) else { panic!("a free-space unit") };
    assert!((x - 25.0).abs() < 0.01 && (y - 15.0).abs() < 0.01, "({x}, {y})");
    // An objective on a table names the cell clicked, and the file stays valid.
    app.world_mut().resource_mut::<Editor>().tool = Tool::Objective;
    click_at(&mut app.world_mut().resource_mut::<Editor>(), layout, layout.table_world(35.0, 25.0), false);
    assert_eq!(editor(&app).file().objectives.iter().map(|o| o.at).collect::<Vec<_>>(), vec![(3, 2)]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_side_panel_lists_each_problem_and_warning_as_a_line() {
    let dir = temp("panel");
    let mut app = app_on(&dir.join("p.ron"), (10, 8));
    crate::game::editor::panel::plugin(&mut app);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    app.update();
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Editor);
    app.update();
    app.update();
    let lines = |app: &mut App| crate::game::editor::panel::problem_lines(app.world_mut());
    assert_eq!(lines(&mut app), 1, "a new map: one problem");
    for (side, at) in [(0, Offset::new(4, 6)), (1, Offset::new(4, 1))] {
        app.world_mut().resource_mut::<Editor>().tool = Tool::Unit { side, arm: Arm::Infantry };
        click_hex(&mut app, at);
    }
    app.update();
    let e = editor(&app);
    let want = e.problems.len() + e.warnings.len();
    assert!(want > 0);
    assert_eq!(lines(&mut app), want, "every problem and warning listed");
    // Frames without an edit leave the panel as it is: a button under the
    // pointer stays the same entity from its press to its release.
    let ids = |app: &mut App| -> Vec<Entity> {
        let mut q = app.world_mut().query_filtered::<Entity, With<crate::game::editor::panel::FieldButton>>();
        let mut v: Vec<Entity> = q.iter(app.world()).collect();
        v.sort();
        v
    };
    let before = ids(&mut app);
    assert!(!before.is_empty(), "the placed unit is selected: its form is up");
    app.update();
    app.update();
    assert_eq!(ids(&mut app), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_corps_and_exit_tools_and_the_unit_keys_edit_what_they_say() {
    let dir = temp("tools");
    let mut app = app_on(&dir.join("t.ron"), (10, 8));
    for (side, at) in [(0, Offset::new(4, 5)), (1, Offset::new(4, 1))] {
        app.world_mut().resource_mut::<Editor>().tool = Tool::Unit { side, arm: Arm::Infantry };
        click_hex(&mut app, at);
    }
    app.world_mut().resource_mut::<Editor>().tool = Tool::Select;
    click_hex(&mut app, Offset::new(4, 5));
    assert_eq!(editor(&app).selected.as_deref(), Some("blue-1"));
    chord(&mut app, &[KeyCode::KeyS]);
    chord(&mut app, &[KeyCode::KeyF]);
    chord(&mut app, &[KeyCode::BracketRight]);
    chord(&mut app, &[KeyCode::KeyK]);
    let u = editor(&app).file().units[0].clone();
    assert_eq!(
        (u.state, u.formation, u.strength),
        (Some(crate::vocab::State::Disordered), Some(crate::vocab::Formation::Column), Some(5))
    );
    assert_eq!(editor(&app).file().shocks.len(), 1);
    app.world_mut().resource_mut::<Editor>().tool = Tool::Corps;
    click_hex(&mut app, Offset::new(4, 5));
    assert_eq!(editor(&app).file().corps[0].units, ["blue-1"]);
    app.world_mut().resource_mut::<Editor>().tool = Tool::Exit { side: 0 };
    click_hex(&mut app, Offset::new(5, 0));
    let exits = &editor(&app).file().exits;
    assert_eq!((exits.len(), exits[0].side.as_str(), exits[0].edge), (1, "blue", crate::hex::Edge::North));
    assert!(editor(&app).problems.is_empty(), "{:?}", editor(&app).problems);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_name_field_names_the_selected_unit_and_keeps_its_keys_from_the_editor() {
    let dir = temp("name");
    let mut app = app_on(&dir.join("n.ron"), (10, 8));
    app.init_resource::<bevy::input_focus::InputFocus>();
    crate::game::editor::panel::plugin(&mut app);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    app.update();
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Editor);
    app.update();
    let field = {
        let mut q = app.world_mut().query_filtered::<Entity, With<crate::game::editor::panel::NameField>>();
        q.single(app.world()).expect("the name field")
    };
    let value = |app: &App| app.world().get::<bevy::text::EditableText>(field).map(|t| t.value().to_string());
    assert_eq!(value(&app).as_deref(), Some("A new battle"), "with no unit selected: the scenario's name");
    app.world_mut().resource_mut::<Editor>().tool = Tool::Unit { side: 0, arm: Arm::Infantry };
    click_hex(&mut app, Offset::new(4, 5));
    app.update();
    assert_eq!(value(&app).as_deref(), Some(""), "the placed unit is selected and has no name");
    // Typed into (the field focused): S is a letter of the name, not the
    // state key; Enter names the unit.
    app.world_mut().entity_mut(field).insert(bevy::text::EditableText::new("1st Bn Saxon Guard"));
    app.world_mut().resource_mut::<bevy::input_focus::InputFocus>().set(field, bevy::input_focus::FocusCause::Pressed);
    chord(&mut app, &[KeyCode::KeyS]);
    assert_eq!(editor(&app).file().units[0].state, None);
    chord(&mut app, &[KeyCode::Enter]);
    assert_eq!(editor(&app).file().units[0].name.as_deref(), Some("1st Bn Saxon Guard"));
    // Enter leaves the field: the keys are the editor's again.
    assert_eq!(app.world().resource::<bevy::input_focus::InputFocus>().get(), None);
    chord(&mut app, &[KeyCode::KeyS]);
    assert_eq!(editor(&app).file().units[0].state, Some(crate::vocab::State::Disordered));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_d66_grid_sets_morale_and_the_keys_change_arm_side_and_shock_turn() {
    let dir = temp("grid");
    let mut app = app_on(&dir.join("g.ron"), (10, 8));
    crate::game::editor::panel::plugin(&mut app);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    app.update();
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Editor);
    app.update();
    app.world_mut().resource_mut::<Editor>().tool = Tool::Unit { side: 0, arm: Arm::Infantry };
    click_hex(&mut app, Offset::new(4, 5));
    app.update();
    let pick = {
        let mut q = app.world_mut().query::<(Entity, &crate::game::editor::panel::MoralePick)>();
        let all: Vec<(Entity, i64)> = q.iter(app.world()).map(|(e, m)| (e, m.0)).collect();
        assert_eq!(all.len(), 36, "the 36 d66 results");
        all.into_iter().find(|&(_, v)| v == 36).map(|(e, _)| e).expect("36")
    };
    app.world_mut().trigger(bevy::ui_widgets::Activate { entity: pick });
    app.update();
    assert_eq!(editor(&app).file().units[0].morale, Some(36));
    // The form's buttons do what the keys do.
    let state = {
        let mut q = app.world_mut().query::<(Entity, &crate::game::editor::panel::FieldButton)>();
        q.iter(app.world()).find(|(_, b)| b.0 == super::UnitAct::State).map(|(e, _)| e).expect("a state button")
    };
    app.world_mut().trigger(bevy::ui_widgets::Activate { entity: state });
    app.update();
    assert_eq!(editor(&app).file().units[0].state, Some(crate::vocab::State::Disordered));
    chord(&mut app, &[KeyCode::KeyS]);
    chord(&mut app, &[KeyCode::KeyS]);
    assert_eq!(editor(&app).file().units[0].state, None, "back to good order");
    chord(&mut app, &[KeyCode::KeyA]);
    chord(&mut app, &[KeyCode::KeyO]);
    chord(&mut app, &[KeyCode::KeyK]);
    chord(&mut app, &[KeyCode::ShiftLeft, KeyCode::KeyK]);
    let f = editor(&app).file();
    assert_eq!((f.units[0].arm, f.units[0].side.as_str()), (Arm::Cavalry, "red"));
    assert_eq!(f.shocks[0].turn, 2);
    // Saving with problems saves, and says the file will not play yet.
    app.world_mut().resource_mut::<Editor>().edit(|f| f.units[0].morale = Some(77));
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    let e = editor(&app);
    assert!(!e.problems.is_empty());
    assert!(e.message.starts_with("Saved") && e.message.contains("will not play"), "{}", e.message);
    assert!(dir.join("g.ron").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_free_space_units_form_offers_valour_and_the_guns_limbers() {
    let hex = crate::game::editor::panel::form(Mode::Hex, Arm::Infantry);
    assert!(hex.iter().any(|(a, _)| *a == super::UnitAct::Leader));
    assert!(!hex.iter().any(|(a, _)| *a == super::UnitAct::MoraleUp), "hex morale has its d66 grid");
    let gun = crate::game::editor::panel::form(Mode::FreeSpace, Arm::Artillery);
    for want in [super::UnitAct::MoraleUp, super::UnitAct::MoraleDown, super::UnitAct::Limbered, super::UnitAct::Horse]
    {
        assert!(gun.iter().any(|(a, _)| *a == want), "{want:?}");
    }
    let dir = temp("valour");
    let mut app = app_on(&dir.join("v.ron"), (6, 4));
    app.insert_resource(Editor::new(
        crate::edit::blank::blank(Mode::FreeSpace, 6, 4, Terrain::Clear),
        dir.join("v.ron"),
    ));
    app.update();
    let layout = app.world().resource::<Opened>().layout;
    app.world_mut().resource_mut::<Editor>().tool = Tool::Unit { side: 0, arm: Arm::Artillery };
    click_at(&mut app.world_mut().resource_mut::<Editor>(), layout, layout.table_world(20.0, 20.0), false);
    app.world_mut().resource_mut::<Editor>().unit_act(super::UnitAct::MoraleUp);
    app.world_mut().resource_mut::<Editor>().unit_act(super::UnitAct::Limbered);
    let u = &editor(&app).file().units[0];
    assert_eq!((u.valour, u.limbered), (Some(1), Some(true)));
    let _ = std::fs::remove_dir_all(&dir);
}
