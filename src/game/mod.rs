//! The game window: a Bevy app with the battle's simulation installed in the
//! same world, drawn from the event log. One feature per file, each with a
//! `plugin`; this file only declares them and assembles the app. What
//! several features share has its own small home, so no feature imports
//! another that imports it back:
//!
//! - `screen`: the window's size, the panels' sizes, the main camera, the font;
//! - `sets`: the frame's system sets, ordered once;
//! - `request`: what the command line asked for;
//! - `opened`: the open scenario, the bundled ones, the battle's entities;
//! - `input`: the pointer, the hex under it, the selection, map clicks;
//! - `turn`: the player's turn (the phase waiting, range, odds, messages);
//! - `shown`: the board as the event log has shown it so far (pure);
//! - `seats`: who sits at the window;
//! - [`layout`]: hex/table coordinates <-> world positions (pure);
//! - [`art`]: terrain tiles and arm symbols painted by code (pure);
//! - [`theme`]: the window's colours, named by meaning (the sides' too), and
//!   the widgets the screens share (buttons, text);
//! - `state`: the screens over the battle (menu, help, game over) and their keys;
//! - `scenarios`: opening, dropped files, restart;
//! - `reload`: the open file opened again when the asset server's watcher sees it change;
//! - `saves`: the saves folder: F5's new files, the autosave at each new
//!   turn, the saves listed newest first (the menu, F9);
//! - `menu`: the scenario menu, the saves to open, and the seats;
//! - `map`: the terrain tilemap, hexsides and roads;
//! - `lines`: lines drawn each frame (outlines, arrows, links);
//! - `playback`: time controls, consuming the event log, animations;
//! - `units`: the counters;
//! - `camera`: fit, pan, zoom, hover and selection;
//! - `overlays`: distance, zones, movement range, rout arrows;
//!   `overlay_legend`: what the overlays on show, in words;
//! - `rout_preview`: where a unit would rout now, and whom it would shake (on
//!   a table, where it would flee, and whom it would carry along);
//! - [`orders`]: the player's orders, odds, undo and end of phase;
//! - `panels`: the on-screen text: turn, details, log, help;
//! - `cards`: the cards of the right-hand column (the why view, the
//!   forecast, the fork) in the log's place, each with its close button;
//! - `scroll`: the panels that scroll with the wheel;
//! - `guide`: the first battle's guide, a step at a time;
//! - `gameover`: the card at the end of a battle (winner, points, summary);
//! - `why`: the why view (W), the chain behind a unit's fall drawn on the map;
//! - `forecast`: the break forecast (F): heat rings from many continuations;
//! - `objectives`: the objectives on the map, in their holder's colour;
//! - `fork`: forking the history at a die roll (D), two branches (B) compared;
//! - `thinking`: the planning AI weighing its orders on another thread, its
//!   progress in the banner, Esc to hurry it;
//! - `editor`: the scenario editor (`sauve edit`, E in the menu), over the
//!   rules crate's pure editing; `editor/panel`: its palette and panels;
//! - `shot`: `sauve shot`; `layout_check`: what is wrong with the layout,
//!   for the render tests; `bench`: the frame-time measurement (the `dev`
//!   feature only).

// Bevy systems receive their data as parameters and queries name their
// component tuples: long parameter lists and tuple types are the idiom here.
#![allow(clippy::too_many_arguments, clippy::type_complexity)]

pub mod art;
#[cfg(feature = "dev")]
mod bench;
mod camera;
mod cards;
mod editor;
mod forecast;
mod fork;
mod gameover;
mod guide;
mod input;
pub mod layout;
mod layout_check;
mod lines;
mod map;
mod menu;
mod objectives;
mod opened;
pub mod orders;
mod overlay_legend;
mod overlays;
mod panels;
mod playback;
mod reload;
mod request;
mod rout_preview;
mod saves;
mod scenarios;
mod screen;
mod scroll;
mod seats;
mod sets;
mod shot;
mod shown;
mod staff;
mod state;
#[cfg(test)]
mod testing;
pub mod theme;
mod thinking;
mod turn;
mod units;
mod why;

use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_ecs_tilemap::TilemapPlugin;

use crate::cli::WindowRequest;

/// Opens the window (or takes a screenshot) and runs until it closes.
pub fn run(req: WindowRequest) -> ExitCode {
    #[cfg(feature = "dev")]
    if let Some(code) = bench::maybe_run(&req, build) {
        return code;
    }
    let mut app = App::new();
    build(&mut app, req);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// Everything but `run`: the plugins and features of the game window.
pub fn build(app: &mut App, req: WindowRequest) {
    let title = if req.shot.is_some() { "sauve (screenshot)" } else { "sauve" };
    // A picture's window may be sized by the environment (the layout test
    // walks the screens at two sizes).
    let picture = req.shot.is_some() || req.edit.as_ref().is_some_and(|e| e.shot.is_some());
    let size = std::env::var("SAUVE_SHOT_WINDOW")
        .ok()
        .filter(|_| picture)
        .and_then(|v| v.split_once('x').and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?))))
        .unwrap_or(screen::WINDOW_PX);
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: title.into(),
                    resolution: WindowResolution::new(size.0, size.1),
                    ..default()
                }),
                // The editor asks about unsaved edits before the window
                // closes (editor/input.rs closes it otherwise).
                close_when_requested: false,
                ..default()
            })
            .set(ImagePlugin::default_linear())
            .set(reload::asset_plugin(&req)),
    )
    .add_plugins(TilemapPlugin)
    .insert_resource(request::Request(req));
    crate::sim::install_schedules(app);
    sets::plugin(app);
    screen::plugin(app);
    scroll::plugin(app);
    state::plugin(app);
    input::plugin(app);
    seats::plugin(app);
    scenarios::plugin(app);
    reload::plugin(app);
    saves::plugin(app);
    menu::plugin(app);
    map::plugin(app);
    camera::plugin(app);
    playback::plugin(app);
    units::plugin(app);
    lines::plugin(app);
    overlays::plugin(app);
    overlay_legend::plugin(app);
    rout_preview::plugin(app);
    orders::plugin(app);
    panels::plugin(app);
    gameover::plugin(app);
    shot::plugin(app);
    staff::plugin(app);
    why::plugin(app);
    guide::plugin(app);
    forecast::plugin(app);
    objectives::plugin(app);
    fork::plugin(app);
    thinking::plugin(app);
    editor::plugin(app);
    editor::panel::plugin(app);
    layout_check::plugin(app);
}
