//! Into the editor from the menu: a new map, or the open battle's
//! scenario (in place on disk, or as a copy).

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use super::model::Editor;
use super::playtest::toggle_playtest;
use crate::edit::blank;
use crate::game::opened::{Opened, Source, clear_battle};
use crate::game::scenarios::ScenarioText;
use crate::game::state::Screen;
use crate::scenario::Mode;
use crate::terrain::Terrain;

/// N in the menu: a new 30x20 hex map in the editor, to be saved as
/// `new-scenario.ron` here (or the first free `new-scenario-N.ron`).
pub fn new_map_in_editor(world: &mut World) {
    if keep_unsaved(world) {
        return;
    }
    let path = (1..)
        .map(
            |n| if n == 1 { PathBuf::from("new-scenario.ron") } else { PathBuf::from(format!("new-scenario-{n}.ron")) },
        )
        .find(|p| !p.exists())
        .unwrap_or_else(|| PathBuf::from("new-scenario.ron"));
    let mut e = Editor::new(blank::blank(Mode::Hex, 30, 20, Terrain::Clear), path.clone());
    e.message = format!("A new 30x20 map; Ctrl+S saves it to {}.", path.display());
    clear_battle(world);
    world.insert_resource(e);
    world.resource_mut::<NextState<Screen>>().set(Screen::Editor);
}

/// An editor already open with unsaved edits is never replaced: the
/// window goes back to it (from a playtest too) and says what to do;
/// whether it did.
fn keep_unsaved(world: &mut World) -> bool {
    let Some(e) = world.get_resource::<Editor>().filter(|e| e.editing.unsaved > 0) else { return false };
    let (playtest, n, path) = (e.playtest, e.editing.unsaved, e.path.display().to_string());
    if playtest {
        toggle_playtest(world);
    } else {
        world.resource_mut::<NextState<Screen>>().set(Screen::Editor);
    }
    world.resource_mut::<Editor>().message = format!(
        "{n} edit{} of {path} {} unsaved: Ctrl+S saves {}, or Ctrl+O opens another file (asking first).",
        if n == 1 { "" } else { "s" },
        if n == 1 { "is" } else { "are" },
        if n == 1 { "it" } else { "them" }
    );
    true
}

/// E in the menu: the open scenario in the editor. A file on disk is
/// edited in place; a bundled battle or a save's scenario is saved as a
/// copy under its own name in this directory.
pub fn edit_open_battle(world: &mut World) {
    if keep_unsaved(world) {
        return;
    }
    let source = world.resource::<Opened>().source.clone();
    let text = world.get_resource::<ScenarioText>().map(|t| t.0.clone()).unwrap_or_default();
    let on_disk = |p: &Path| std::fs::read_to_string(p).is_ok_and(|t| !crate::save::is_save(&t));
    let editor = match &source {
        Source::File(p) if on_disk(p) => Editor::open(p, Mode::Hex, (30, 20), Terrain::Clear),
        other => {
            let name = match other {
                Source::Bundled(i) => crate::game::opened::BUNDLED.get(*i).map_or("scenario.ron", |b| b.0).to_owned(),
                Source::File(p) => format!(
                    "{}-scenario.ron",
                    p.file_stem().map_or_else(|| "save".into(), |s| s.to_string_lossy().into_owned())
                ),
            };
            crate::scenario::read_file(&text, &name).map_err(|e| e.to_string()).map(|f| {
                let mut e = Editor::new(f, PathBuf::from(&name));
                e.message = format!("A copy of the battle: Ctrl+S saves it as {name} here.");
                e
            })
        }
    };
    match editor {
        Ok(e) => {
            clear_battle(world);
            world.insert_resource(e);
            world.resource_mut::<NextState<Screen>>().set(Screen::Editor);
        }
        Err(err) => warn!("cannot edit this battle: {err}"),
    }
}
