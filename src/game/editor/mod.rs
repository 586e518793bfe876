//! The scenario editor (`sauve edit [FILE]`): the file's map drawn as it
//! is painted, its units as counters, the checker's problems listed and
//! ringed on the map while you edit. The work itself is the rules crate's
//! pure editing functions ([`crate::edit`]); this file turns clicks and
//! keys into them, draws the result, and saves, autosaves and playtests.
//!
//! - Click the map with the tool chosen in the palette (left): a terrain
//!   under the brush (one hex, radius 1-3, fill), a stream or slope on
//!   the hexside nearest the pointer (or none), a unit of a side and arm,
//!   an objective (again: none), a unit into a corps, an exit by the
//!   nearest edge, a staff figure, or select a unit (then: M+click moves
//!   it, T / Shift+T turn it, Delete deletes, Ctrl+D copies it to the hex
//!   under the pointer, + and - or the d66 grid its morale, [ and ] its
//!   strength, S its state, F its formation, A its arm, O its side, L and
//!   H limbered and horse artillery, K a turn-1 shock (Shift+K a turn
//!   later), J a leader riding with it).
//! - Ctrl+Z undo, Ctrl+Y (or Ctrl+Shift+Z) redo, Ctrl+S save (a file with
//!   comments of its own asks first: Ctrl+S again overwrites, Ctrl+Shift+S
//!   writes `NAME.edited.ron`); every few edits an autosave goes to
//!   `NAME.autosave.ron`.
//! - F8 playtests the scenario as it stands, with the seats chosen (P in
//!   the battle); F8 again returns to the editor where you left it. A
//!   scenario with problems is never played: F8 says why.

use std::path::PathBuf;

use bevy::prelude::*;

use super::opened::Opened;
use super::request::Request;
use super::sets::GameSet;
use super::shot::{PictureDone, save_picture};
use super::state::Screen;
use crate::edit::blank;

mod draw;
mod input;
mod model;
mod open;
pub mod panel;
mod playtest;

pub use draw::PALETTE_W;
pub use model::{Editor, Tool, UnitAct, edited_path};
pub use open::{edit_open_battle, new_map_in_editor};
pub use playtest::toggle_playtest;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (input::keys, draw::show_editor).chain().in_set(GameSet::Input));
    app.add_systems(Update, (draw::redraw, draw::marks).in_set(GameSet::Draw).run_if(in_state(Screen::Editor)));
    app.add_systems(
        Update,
        draw::beside_palette.after(GameSet::Build).before(GameSet::Input).run_if(resource_changed::<Opened>),
    );
    app.add_observer(input::click);
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
