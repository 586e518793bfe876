//! The editor at the window, in an app without a window or renderer: a
//! new map opens, clicks and drags paint and place through the map's
//! geometry, the checker's problems are ringed and lead to the field that
//! mends them, the keys undo, redo and save (keeping the author's
//! comments), edits autosave and an autosave is offered back, unsaved
//! edits are asked about, and F8 playtests and returns.

use std::path::{Path, PathBuf};

use bevy::asset::AssetPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;

use super::Editor;
use super::counters::EditorCounter;
use super::input::click_at;
use super::model::{AUTOSAVE_EVERY, Ask, Page, Shape, Tool, UnitAct};
use crate::cli::{EditRequest, WindowRequest};
use crate::edit::fields::{List, Subject};
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
        .init_resource::<ButtonInput<MouseButton>>()
        .init_resource::<MapPointer>()
        .init_resource::<Lines>()
        .init_resource::<crate::game::screen::MapInset>()
        .insert_resource(Seats::Watch)
        .insert_resource(HexAtlas(Handle::default()))
        .add_message::<bevy::window::FileDragAndDrop>()
        .add_message::<bevy::window::WindowCloseRequested>()
        .add_message::<AppExit>()
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

/// The app with the side panel and its pages too.
fn app_with_panel(file: &Path, size: (u32, u32)) -> App {
    let mut app = app_on(file, size);
    app.init_resource::<bevy::input_focus::InputFocus>();
    super::panel::plugin(&mut app);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
    app.update();
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Editor);
    app.update();
    app.update();
    app
}

fn editor(app: &App) -> &Editor {
    app.world().resource::<Editor>()
}

fn editor_mut(app: &mut App) -> Mut<'_, Editor> {
    app.world_mut().resource_mut::<Editor>()
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
    click_at(&mut editor_mut(app), layout, world, false);
    app.update();
}

/// The pointer over the map at a world point.
fn point(app: &mut App, world: Vec2) {
    let mut p = app.world_mut().resource_mut::<MapPointer>();
    p.world = Some(world);
    p.over_map = true;
}

/// A drag with the left button through the centres of `hexes`: pressed
/// on the first, moved over the rest, released on the last.
fn drag_hexes(app: &mut App, hexes: &[Offset]) {
    let layout = app.world().resource::<Opened>().layout;
    for (k, &h) in hexes.iter().enumerate() {
        point(app, layout.world(h));
        let mut b = ButtonInput::<MouseButton>::default();
        b.press(MouseButton::Left);
        if k > 0 {
            b.clear();
        }
        *app.world_mut().resource_mut::<ButtonInput<MouseButton>>() = b;
        app.update();
    }
    let mut b = ButtonInput::<MouseButton>::default();
    b.press(MouseButton::Left);
    b.clear();
    b.release(MouseButton::Left);
    *app.world_mut().resource_mut::<ButtonInput<MouseButton>>() = b;
    app.update();
    *app.world_mut().resource_mut::<ButtonInput<MouseButton>>() = ButtonInput::default();
    app.update();
}

fn counters(app: &mut App) -> usize {
    app.world_mut().query_filtered::<Entity, With<EditorCounter>>().iter(app.world()).count()
}

fn place(app: &mut App, side: usize, arm: Arm, at: Offset) {
    editor_mut(app).tool = Tool::Unit { side, arm };
    click_hex(app, at);
}

#[test]
fn a_new_map_is_painted_and_peopled_by_clicks_undone_redone_saved_and_autosaved() {
    let dir = temp("new");
    let file = dir.join("new.ron");
    let mut app = app_on(&file, (8, 6));
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Editor);
    assert_eq!(app.world().resource::<Opened>().layout, Layout::Hex { width: 8, height: 6 });
    assert_eq!(editor(&app).problems.len(), 1, "a new map lacks only units");
    assert_eq!(editor(&app).ask, None, "no autosave to offer");

    // Woods with a radius-1 brush: the hex clicked and its six neighbours.
    editor_mut(&mut app).tool = Tool::Terrain(Terrain::Woods);
    editor_mut(&mut app).brush = Brush::Radius(1);
    click_hex(&mut app, Offset::new(3, 3));
    let map = &editor(&app).file().map;
    assert_eq!(terrain_at(map, Offset::new(3, 3)), Some(Terrain::Woods));
    assert!(Offset::new(3, 3).neighbours().iter().all(|&n| terrain_at(map, n) == Some(Terrain::Woods)));
    assert_eq!(terrain_at(map, Offset::new(0, 0)), Some(Terrain::Clear));

    // Artillery in the woods is a problem, ringed on the map; infantry of
    // the other side is not.
    place(&mut app, 0, Arm::Artillery, Offset::new(3, 3));
    place(&mut app, 1, Arm::Infantry, Offset::new(6, 1));
    assert_eq!(editor(&app).file().units.len(), 2);
    assert_eq!(counters(&mut app), 2, "each unit drawn as a counter");
    let problems: Vec<String> = editor(&app).problems.iter().filter_map(|p| p.path.clone()).collect();
    assert!(problems.iter().any(|p| p.starts_with("units[0]")), "{problems:?}");
    assert!(app.world().resource::<Lines>().colours().contains(&PROBLEM), "the problem is ringed");

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

    // Edits autosave beside the file (after a few, or a second after one).
    editor_mut(&mut app).tool = Tool::Terrain(Terrain::Town);
    editor_mut(&mut app).brush = Brush::One;
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
fn a_drag_paints_every_hex_it_passes_and_undoes_as_one_edit() {
    let dir = temp("drag");
    let mut app = app_on(&dir.join("d.ron"), (12, 8));
    editor_mut(&mut app).tool = Tool::Terrain(Terrain::Road);
    // Pressed on (1, 4) and released on (7, 4), passing only (4, 4) on the
    // way: the hexes between are painted too.
    drag_hexes(&mut app, &[Offset::new(1, 4), Offset::new(4, 4), Offset::new(7, 4)]);
    let line = crate::edit::region::line(Mode::Hex, Offset::new(1, 4), Offset::new(7, 4));
    let map = &editor(&app).file().map;
    assert!(line.iter().all(|&o| terrain_at(map, o) == Some(Terrain::Road)), "a road with no gap");
    assert_eq!(editor(&app).editing.unsaved, 1, "one stroke, one edit");
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    assert!(line.iter().all(|&o| terrain_at(&editor(&app).file().map, o) == Some(Terrain::Clear)));

    // A rectangle from press to release, and a line: laid only on release.
    editor_mut(&mut app).tool = Tool::Terrain(Terrain::Woods);
    editor_mut(&mut app).shape = Shape::Rect;
    drag_hexes(&mut app, &[Offset::new(2, 1), Offset::new(4, 3)]);
    let woods = (1..=3).flat_map(|r| (2..=4).map(move |c| Offset::new(c, r)));
    let map = &editor(&app).file().map;
    assert!(woods.into_iter().all(|o| terrain_at(map, o) == Some(Terrain::Woods)));
    assert_eq!(terrain_at(map, Offset::new(5, 3)), Some(Terrain::Clear));

    // The stream tool along the edges the pointer passes near.
    editor_mut(&mut app).tool = Tool::Hexside(Some(crate::terrain::HexsideKind::Stream));
    let layout = app.world().resource::<Opened>().layout;
    let (a, b) = layout.hexside(Offset::new(8, 4), crate::hex::Dir::S);
    let (c, d) = layout.hexside(Offset::new(9, 5), crate::hex::Dir::N);
    for (k, w) in [(a + b) / 2.0, (c + d) / 2.0 + Vec2::new(0.0, 1.0)].into_iter().enumerate() {
        point(&mut app, w + Vec2::new(0.0, 2.0));
        let mut btn = ButtonInput::<MouseButton>::default();
        btn.press(MouseButton::Left);
        if k > 0 {
            btn.clear();
        }
        *app.world_mut().resource_mut::<ButtonInput<MouseButton>>() = btn;
        app.update();
    }
    *app.world_mut().resource_mut::<ButtonInput<MouseButton>>() = ButtonInput::default();
    app.update();
    assert!(!editor(&app).file().map.hexsides.is_empty(), "a stream laid by dragging");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_region_copied_and_pasted_brings_its_ground_and_units() {
    let dir = temp("region");
    let mut app = app_on(&dir.join("r.ron"), (14, 10));
    editor_mut(&mut app).tool = Tool::Terrain(Terrain::Village);
    click_hex(&mut app, Offset::new(2, 2));
    place(&mut app, 0, Arm::Infantry, Offset::new(3, 2));
    editor_mut(&mut app).tool = Tool::Region;
    drag_hexes(&mut app, &[Offset::new(1, 1), Offset::new(4, 3)]);
    assert_eq!(editor(&app).region, Some((Offset::new(1, 1), Offset::new(4, 3))));
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyC]);
    app.world_mut().resource_mut::<MapPointer>().hex = Some(Offset::new(8, 5));
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyV]);
    let f = editor(&app).file();
    assert_eq!(f.units.len(), 2, "{}", editor(&app).message);
    let shift = Offset::new(8, 5).to_hex() - Offset::new(1, 1).to_hex();
    let village = Offset::from_hex(Offset::new(2, 2).to_hex() + shift);
    assert_eq!(terrain_at(&f.map, village), Some(Terrain::Village));
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    assert_eq!(editor(&app).file().units.len(), 1, "a paste undoes as one edit");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn saving_keeps_the_authors_comments_and_asks_before_dropping_one() {
    let dir = temp("comments");
    let file = dir.join("cascade.ron");
    let original = crate::game::opened::BUNDLED[0].1;
    assert!(std::fs::write(&file, original).is_ok());
    let mut app = app_on(&file, (8, 6));
    assert_eq!(editor(&app).file().name, "Cascade");
    editor_mut(&mut app).tool = Tool::Objective;
    click_hex(&mut app, Offset::new(1, 1));
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let comments = |t: &str| crate::edit::comments::collect(t).into_iter().map(|c| c.text).collect::<Vec<_>>();
    assert_eq!(comments(&text), comments(original), "every comment kept, in order");
    let objectives = |t: &str| crate::scenario::parse(t, "cascade.ron").map_or(usize::MAX, |s| s.objectives.len());
    assert_eq!(objectives(&text), objectives(original) + 1, "saved with the objective added");
    // A comment whose record is deleted would be dropped: asked first.
    let commented = crate::edit::comments::collect(&text)
        .into_iter()
        .find_map(|c| match c.anchor {
            crate::edit::comments::Anchor::Item(k) => {
                let f = editor(&app).file();
                f.units.iter().find(|u| k.iter().any(|p| p.contains(&u.id))).map(|u| u.id.clone())
            }
            _ => None,
        })
        .expect("a comment by a unit");
    editor_mut(&mut app).edit(|f| crate::edit::forces::delete(f, &commented)).expect("deleted");
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    assert_eq!(std::fs::read_to_string(&file).unwrap_or_default(), text, "not overwritten yet");
    assert!(editor(&app).message.contains("would be dropped"), "{}", editor(&app).message);
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    assert_ne!(std::fs::read_to_string(&file).unwrap_or_default(), text, "saved when asked again");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_autosave_newer_than_its_file_is_offered_and_kept_until_answered() {
    let dir = temp("recover");
    let file = dir.join("b.ron");
    // A session: a unit placed, the file saved, then more edits autosaved
    // and the editor gone without a save (as after kill -9).
    {
        let mut app = app_on(&file, (10, 8));
        place(&mut app, 0, Arm::Infantry, Offset::new(4, 6));
        chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
        place(&mut app, 1, Arm::Cavalry, Offset::new(4, 1));
        let now = 100.0;
        assert!(editor_mut(&mut app).autosave(now).is_some());
    }
    let auto = write::autosave_path(&file);
    assert!(auto.exists());
    let mut app = app_on(&file, (10, 8));
    assert!(matches!(editor(&app).ask, Some(Ask::Recover { .. })), "{:?}", editor(&app).ask);
    assert_eq!(editor(&app).file().units.len(), 1, "the file as saved, until the author answers");
    // Saving before answering is refused: the autosave is not deleted.
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    assert!(auto.exists());
    // C compares: the difference is named.
    chord(&mut app, &[KeyCode::KeyC]);
    let Some(Ask::Recover { differences: Some(d), .. }) = &editor(&app).ask else { panic!("compared") };
    assert!(d.iter().any(|l| l.contains("red-1 added")), "{d:?}");
    // R restores: the edits are back, unsaved, and the autosave stays until a save.
    chord(&mut app, &[KeyCode::KeyR]);
    assert_eq!(editor(&app).ask, None);
    assert_eq!(editor(&app).file().units.len(), 2);
    assert!(editor(&app).editing.unsaved > 0);
    assert!(auto.exists());
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    assert!(!auto.exists(), "saved: the autosave has done its work");
    let back = crate::scenario::read_file(&std::fs::read_to_string(&file).unwrap_or_default(), "b").expect("reads");
    assert_eq!(back.units.len(), 2);

    // D discards an autosave: deleted, the file as it was.
    assert!(
        crate::save::write_atomically(
            &auto,
            &std::fs::read_to_string(&file).unwrap_or_default().replace("red-1", "red-9")
        )
        .is_ok()
    );
    let mut app = app_on(&file, (10, 8));
    assert!(matches!(editor(&app).ask, Some(Ask::Recover { .. })));
    chord(&mut app, &[KeyCode::KeyD]);
    assert!(!auto.exists());
    assert!(editor(&app).file().units.iter().any(|u| u.id == "red-1"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn quitting_or_opening_with_unsaved_edits_asks_first() {
    let dir = temp("unsaved");
    let file = dir.join("u.ron");
    let mut app = app_on(&file, (10, 8));
    place(&mut app, 0, Arm::Infantry, Offset::new(4, 6));
    // The window's close button: asked, not closed.
    app.world_mut().write_message(bevy::window::WindowCloseRequested { window: Entity::PLACEHOLDER });
    app.update();
    assert!(matches!(editor(&app).ask, Some(Ask::Unsaved(super::model::Then::Quit))));
    assert!(!editor(&app).quit);
    chord(&mut app, &[KeyCode::Escape]);
    assert_eq!(editor(&app).ask, None, "Esc stays");
    // Ctrl+Q, then S: saved, then closed.
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyQ]);
    chord(&mut app, &[KeyCode::KeyS]);
    assert!(file.exists() && editor(&app).quit);
    // Another file dropped on the window: asked first, then opened there.
    let other = dir.join("o.ron");
    let mut app = app_on(&file, (10, 8));
    place(&mut app, 1, Arm::Cavalry, Offset::new(4, 1));
    app.world_mut().write_message(bevy::window::FileDragAndDrop::DroppedFile {
        window: Entity::PLACEHOLDER,
        path_buf: other.clone(),
    });
    app.update();
    assert!(matches!(editor(&app).ask, Some(Ask::Unsaved(super::model::Then::Open(_)))));
    chord(&mut app, &[KeyCode::KeyD]);
    assert_eq!(editor(&app).path, other, "opened after the edits were discarded");
    assert_eq!(editor(&app).file().units.len(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn f8_playtests_a_valid_scenario_and_returns_to_the_editor_as_it_was() {
    let dir = temp("playtest");
    let mut app = app_on(&dir.join("p.ron"), (10, 8));
    chord(&mut app, &[KeyCode::F8]);
    assert!(!editor(&app).playtest && editor(&app).message.contains("Not playable"));
    place(&mut app, 0, Arm::Infantry, Offset::new(4, 6));
    place(&mut app, 1, Arm::Infantry, Offset::new(4, 1));
    assert!(editor(&app).problems.is_empty(), "{:?}", editor(&app).problems);
    assert!(editor(&app).warnings.iter().any(|w| w.message.contains("rear edge")), "{:?}", editor(&app).warnings);
    let before = editor(&app).file().clone();
    chord(&mut app, &[KeyCode::F8]);
    assert!(editor(&app).playtest);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Battle);
    let s = app.world().resource::<Opened>().scenario.clone().expect("the battle");
    assert_eq!(s.units.len(), 2);
    chord(&mut app, &[KeyCode::F8]);
    assert!(!editor(&app).playtest);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Editor);
    assert!(app.world().resource::<Opened>().scenario.is_none());
    assert_eq!(editor(&app).file(), &before, "the editor as it was left");
    assert_eq!(counters(&mut app), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_table_has_objectives_staff_to_select_move_and_delete_and_snapped_places() {
    let dir = temp("free");
    let mut app = app_on(&dir.join("f.ron"), (6, 4));
    let free = crate::edit::blank::blank(Mode::FreeSpace, 6, 4, Terrain::Clear);
    app.insert_resource(Editor::new(free, dir.join("f.ron")));
    app.update();
    app.update();
    let layout = app.world().resource::<Opened>().layout;
    assert!(matches!(layout, Layout::Table { width: 6, height: 4, .. }), "{layout:?}");
    let picks = super::palette::palette(editor(&app));
    assert!(
        picks.iter().any(|(p, _)| *p == super::palette::Pick::Tool(Tool::Objective)),
        "the objective tool on a table"
    );
    editor_mut(&mut app).tool = Tool::Unit { side: 0, arm: Arm::Infantry };
    click_at(&mut editor_mut(&mut app), layout, layout.table_world(25.03, 15.07), false);
    let Some(Spot::Cm(x, y)) = crate::edit::forces::spot(&editor(&app).file().units[0]) else { panic!("a table unit") };
    assert_eq!((x, y), (25.0, 15.1), "kept to a tenth of a cm");
    editor_mut(&mut app).snap = 5.0;
    editor_mut(&mut app).tool = Tool::Objective;
    click_at(&mut editor_mut(&mut app), layout, layout.table_world(35.0, 25.0), false);
    assert_eq!(editor(&app).file().objectives.iter().map(|o| o.at).collect::<Vec<_>>(), vec![(3, 2)]);
    // A staff figure placed, selected by a press, dragged and deleted.
    editor_mut(&mut app).tool = Tool::Staff { side: 1 };
    click_at(&mut editor_mut(&mut app), layout, layout.table_world(41.0, 11.0), false);
    assert_eq!(editor(&app).file().staff[0].pos, (40.0, 10.0), "snapped to the 5 cm grid");
    app.update();
    assert_eq!(app.world_mut().query::<&super::counters::EditorStaff>().iter(app.world()).count(), 1, "drawn");
    editor_mut(&mut app).tool = Tool::Select;
    let hold = |app: &mut App, cm: (f32, f32), first: bool| {
        point(app, layout.table_world(cm.0, cm.1));
        let mut b = ButtonInput::<MouseButton>::default();
        b.press(MouseButton::Left);
        if !first {
            b.clear();
        }
        *app.world_mut().resource_mut::<ButtonInput<MouseButton>>() = b;
        app.update();
    };
    hold(&mut app, (40.0, 10.0), true);
    assert_eq!((editor(&app).staff, editor(&app).selected.clone()), (Some(0), None));
    hold(&mut app, (52.0, 21.0), false);
    *app.world_mut().resource_mut::<ButtonInput<MouseButton>>() = ButtonInput::default();
    app.update();
    assert_eq!(editor(&app).file().staff[0].pos, (50.0, 20.0), "carried, and snapped");
    chord(&mut app, &[KeyCode::Delete]);
    assert!(editor(&app).file().staff.is_empty());
    // A new cell size keeps the unit on its cell.
    editor_mut(&mut app).set_field(Subject::Map, "cell_cm", "20");
    assert_eq!(editor(&app).file().units[0].pos, Some((50.0, 30.2)));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_problem_clicked_opens_the_form_with_the_field_that_mends_it() {
    let dir = temp("mend");
    let mut app = app_with_panel(&dir.join("m.ron"), (10, 8));
    place(&mut app, 0, Arm::Infantry, Offset::new(4, 6));
    place(&mut app, 1, Arm::Infantry, Offset::new(4, 1));
    editor_mut(&mut app).edit(|f| {
        f.turns = 0;
        f.units[1].morale = Some(77);
        f.rules.rout_hexes = 500;
    });
    editor_mut(&mut app).page = Page::Problems;
    app.update();
    app.update();
    let want = editor(&app).problems.len() + editor(&app).warnings.len();
    assert_eq!(super::page::problem_lines(app.world_mut()), want);
    let line = |app: &mut App, what: &str| {
        let k =
            editor(app).problems.iter().position(|p| p.path.as_deref().is_some_and(|x| x.contains(what))).expect(what);
        let mut q = app.world_mut().query::<(Entity, &super::page::ProblemLine)>();
        q.iter(app.world()).find(|(_, l)| l.0 == k).map(|(e, _)| e).expect("its line")
    };
    let morale = line(&mut app, "morale");
    app.world_mut().trigger(bevy::ui_widgets::Activate { entity: morale });
    app.update();
    app.update();
    assert_eq!((editor(&app).page, editor(&app).lit.as_deref()), (Page::Unit, Some("morale")));
    assert_eq!(editor(&app).selected.as_deref(), Some("red-1"));
    // Its field is there, and typing into it mends the problem.
    let input = {
        let mut q = app.world_mut().query::<(Entity, &super::page::FieldInput)>();
        q.iter(app.world()).find(|(_, f)| f.field == "morale").map(|(e, _)| e).expect("the morale field")
    };
    app.world_mut().entity_mut(input).insert(bevy::text::EditableText::new("36"));
    app.world_mut().resource_mut::<bevy::input_focus::InputFocus>().set(input, bevy::input_focus::FocusCause::Pressed);
    app.update();
    chord(&mut app, &[KeyCode::KeyS]);
    assert_eq!(editor(&app).file().units[1].state, None, "S typed into the field is no state key");
    chord(&mut app, &[KeyCode::Enter]);
    assert_eq!(editor(&app).file().units[1].morale, Some(36));
    assert!(!editor(&app).problems.iter().any(|p| p.path.as_deref() == Some("units[1].morale")));
    // The rules block's problem opens the rules page at that rule.
    editor_mut(&mut app).page = Page::Problems;
    app.update();
    let rule = line(&mut app, "rout_hexes");
    app.world_mut().trigger(bevy::ui_widgets::Activate { entity: rule });
    app.update();
    assert_eq!((editor(&app).page, editor(&app).lit.as_deref()), (Page::Rules, Some("rout_hexes")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_forms_choices_lists_and_rules_edit_what_they_say() {
    let dir = temp("forms");
    let mut app = app_with_panel(&dir.join("c.ron"), (10, 8));
    place(&mut app, 0, Arm::Infantry, Offset::new(4, 6));
    app.update();
    // A choice cycles: the unit's formation.
    let choice = |app: &mut App, field: &str| {
        let mut q = app.world_mut().query::<(Entity, &super::page::ChoiceButton)>();
        q.iter(app.world()).find(|(_, c)| c.field == field).map(|(e, _)| e).expect(field)
    };
    let formation = choice(&mut app, "formation");
    app.world_mut().trigger(bevy::ui_widgets::Activate { entity: formation });
    app.update();
    assert_eq!(editor(&app).file().units[0].formation, Some(crate::vocab::Formation::Line));
    // The side's page: who plays it.
    editor_mut(&mut app).page = Page::Side(1);
    app.update();
    let control = choice(&mut app, "control");
    app.world_mut().trigger(bevy::ui_widgets::Activate { entity: control });
    app.update();
    assert_eq!(editor(&app).file().sides[1].control, crate::vocab::Control::Idle);
    // A list page adds an entry with its form.
    editor_mut(&mut app).page = Page::List(List::Shocks);
    app.update();
    let add = editor_mut(&mut app).edit(|f| crate::edit::fields::add(f, List::Shocks, Some("blue-1"))).expect("added");
    assert_eq!(add, Subject::Shock(0));
    editor_mut(&mut app).set_field(add, "turn", "3");
    assert_eq!(editor(&app).file().shocks[0].turn, 3);
    // A warning naming a rule offers that rule's control.
    let said = "a rout of rules.rout_hexes (10) from there would run off the map";
    assert_eq!(super::page::rules_named(said), ["rout_hexes"]);
    // The rules finder lists what holds the typed words; a rule is set.
    assert!(super::page::rules_matching("leader").iter().any(|f| f == "combat.leader_radius"));
    editor_mut(&mut app).set_field(Subject::Rules, "combat.leader_radius", "2");
    assert_eq!(editor(&app).file().rules.combat.leader_radius, 2);
    let quick = super::page::quick_buttons(Mode::FreeSpace, Arm::Artillery);
    for want in [UnitAct::MoraleUp, UnitAct::MoraleDown, UnitAct::Limbered, UnitAct::Horse] {
        assert!(quick.iter().any(|(a, _)| *a == want), "{want:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_page_is_drawn_again_only_when_what_it_shows_changes() {
    let dir = temp("panel");
    let mut app = app_with_panel(&dir.join("p.ron"), (10, 8));
    place(&mut app, 0, Arm::Infantry, Offset::new(4, 6));
    app.update();
    let ids = |app: &mut App| -> Vec<Entity> {
        let mut q = app.world_mut().query_filtered::<Entity, With<super::page::FieldButton>>();
        let mut v: Vec<Entity> = q.iter(app.world()).collect();
        v.sort();
        v
    };
    let before = ids(&mut app);
    assert!(!before.is_empty(), "the placed unit is selected: its form is up");
    app.update();
    app.update();
    assert_eq!(ids(&mut app), before, "a button under the pointer stays the same entity");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_corps_and_exit_tools_and_the_unit_keys_edit_what_they_say() {
    let dir = temp("tools");
    let mut app = app_on(&dir.join("t.ron"), (10, 8));
    place(&mut app, 0, Arm::Infantry, Offset::new(4, 5));
    place(&mut app, 1, Arm::Infantry, Offset::new(4, 1));
    editor_mut(&mut app).tool = Tool::Select;
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
    chord(&mut app, &[KeyCode::KeyA]);
    chord(&mut app, &[KeyCode::KeyO]);
    chord(&mut app, &[KeyCode::ShiftLeft, KeyCode::KeyK]);
    let f = editor(&app).file();
    assert_eq!((f.units[0].arm, f.units[0].side.as_str()), (Arm::Cavalry, "red"));
    assert_eq!(f.shocks[0].turn, 2);
    chord(&mut app, &[KeyCode::KeyO]);
    editor_mut(&mut app).tool = Tool::Corps;
    click_hex(&mut app, Offset::new(4, 5));
    assert_eq!(editor(&app).file().corps[0].units, ["blue-1"]);
    editor_mut(&mut app).tool = Tool::Exit { side: 0 };
    click_hex(&mut app, Offset::new(5, 0));
    let exits = &editor(&app).file().exits;
    assert_eq!((exits.len(), exits[0].side.as_str(), exits[0].edge), (1, "blue", crate::hex::Edge::North));
    assert!(editor(&app).message.contains("Blue"), "names, not ids: {}", editor(&app).message);
    let _ = std::fs::remove_dir_all(&dir);
}
