//! The frame's work in order, set once here: open scenarios, build what a
//! new battle draws, read the player's input, advance the playback, then
//! draw and write the panels.

use bevy::prelude::*;

/// The window's system sets, run in this order every frame.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameSet {
    Open,
    Build,
    Input,
    Playback,
    Draw,
    Panels,
}

pub(super) fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (GameSet::Open, GameSet::Build, GameSet::Input, GameSet::Playback, GameSet::Draw, GameSet::Panels).chain(),
    );
}
