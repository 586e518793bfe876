//! The scenario editor (`sauve edit [FILE]`): the file's map drawn as it
//! is painted, its units as the battle's counters, every field of the
//! format in the side panel's forms, and the checker's problems listed,
//! ringed on the map and shown beside the control that mends them. The
//! work itself is the rules crate's pure editing functions
//! ([`crate::edit`]); these files turn clicks, drags and keys into them,
//! draw the result, and keep the work safe.
//!
//! - `model`: the editor's state; `tools`: what a press, drag and release
//!   do with each tool; `input`: the keys and the mouse;
//! - `files`: open, save with the author's comments kept, autosave, the
//!   autosave offered after a crash, unsaved edits asked about;
//! - `dialog`: the questions; `palette`: the tools on the left; `panel`
//!   and `page`: the side panel and its forms;
//! - `draw` and `counters`: the map, its edges and counters, and the marks
//!   drawn each frame;
//! - `open`: into the editor from the menu; `playtest`: F8.

use std::path::PathBuf;

use bevy::prelude::*;

use super::input::PointSet;
use super::request::Request;
use super::sets::GameSet;
use super::shot::{PictureDone, save_picture};
use super::state::Screen;
use crate::edit::blank;

mod counters;
mod dialog;
mod draw;
mod files;
mod input;
mod model;
mod open;
pub(super) mod page;
mod palette;
pub(super) mod panel;
mod playtest;
mod tools;

pub use files::edited_path;
pub use model::Editor;
pub use open::{edit_open_battle, new_map_in_editor};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<input::PressedAt>();
    app.add_systems(
        Update,
        (input::keys, input::mouse, autosave, draw::show_editor).chain().in_set(GameSet::Input).after(PointSet),
    );
    app.add_systems(Update, (input::dropped, input::close_requested).in_set(GameSet::Input));
    app.add_systems(Update, (draw::redraw, draw::marks).in_set(GameSet::Draw).run_if(in_state(Screen::Editor)));
    palette::plugin(app);
    dialog::plugin(app);
    let Some(req) = app.world().resource::<Request>().0.edit.clone() else { return };
    let editor = Editor::open(&req.file, req.mode, req.size, req.fill).unwrap_or_else(|err| {
        eprintln!("{err}");
        let mut e = Editor::new(blank::blank(req.mode, req.size.0, req.size.1, req.fill), edited_path(&req.file));
        e.message = format!("{} would not open (see the terminal); this is a new map.", req.file.display());
        e
    });
    app.insert_resource(editor);
    app.add_systems(Startup, |mut next: ResMut<NextState<Screen>>| next.set(Screen::Editor));
    if let Some(out) = req.shot {
        app.insert_resource(Picture { out, frames: 0 }).init_resource::<PictureDone>();
        app.add_systems(Update, picture.in_set(GameSet::Panels));
    }
}

/// A second after an edit (or after a few), the autosave catches up.
fn autosave(time: Res<Time>, editor: Option<ResMut<Editor>>) {
    let Some(mut e) = editor else { return };
    let now = time.elapsed_secs_f64();
    // Asked without touching the editor, which would count as a change
    // every frame (and draw the panels again).
    if e.bypass_change_detection().autosave_due(now)
        && let Some(p) = e.autosave(now)
    {
        let said = format!("(autosaved to {})", p.display());
        if !e.message.contains("(autosaved") {
            e.message = format!("{} {said}", e.message);
        }
    }
}

/// `sauve edit --shot PNG`: frames waited before the picture.
#[derive(Resource)]
struct Picture {
    out: PathBuf,
    frames: u32,
}

/// Takes the picture once the editor has been drawn for a while, then
/// exits (with an error status if it could not be written).
fn picture(mut commands: Commands, mut pic: ResMut<Picture>, done: Res<PictureDone>, mut exit: MessageWriter<AppExit>) {
    if let Some(ok) = done.0 {
        exit.write(if ok { AppExit::Success } else { AppExit::error() });
        return;
    }
    pic.frames += 1;
    if pic.frames == 30 {
        save_picture(&mut commands, pic.out.clone());
    }
}

#[cfg(test)]
mod tests;
