//! The game window: a Bevy app with the battle's simulation installed in the
//! same world, drawn from the event log. One feature per file, each with a
//! `plugin`; this file assembles them, orders their system sets once, and
//! holds the few resources every feature reads.
//!
//! - [`layout`]: hex/table coordinates <-> world positions (pure);
//! - [`art`]: terrain tiles and arm symbols painted by code (pure);
//! - [`sentences`]: the battle log in words (pure);
//! - `scenarios`: opening, the menu, dropped files, hot reload;
//! - `map`: the terrain tilemap, hexsides and roads;
//! - `lines`: lines drawn each frame (outlines, arrows, links);
//! - `playback`: time controls, consuming the event log, animations;
//! - `units`: the counters;
//! - `camera`: fit, pan, zoom, hover and selection;
//! - `overlays`: distance, zones, movement range, rout arrows;
//! - [`orders`]: the player's orders, odds, undo and end of phase, seats;
//! - `panels`: the on-screen text: turn, details, log, help;
//! - `gameover`: the card at the end of a battle (winner, points, summary);
//! - `shot`: `sauve shot`; `bench`: the frame-time measurement.

// Bevy systems receive their data as parameters and queries name their
// component tuples: long parameter lists and tuple types are the idiom here.
#![allow(clippy::too_many_arguments, clippy::type_complexity)]

pub mod art;
mod bench;
mod camera;
mod gameover;
pub mod layout;
mod lines;
mod map;
pub mod orders;
mod overlays;
mod panels;
mod playback;
mod scenarios;
pub use crate::sentences;
mod shot;
mod staff;
mod units;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_ecs_tilemap::TilemapPlugin;

use crate::cli::WindowRequest;
use crate::scenario::{Mode, Scenario};
use layout::Layout;

/// Size of the window, and of every `sauve shot` picture.
pub const WINDOW_PX: (u32, u32) = (1280, 720);

/// Where the open scenario came from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// One of the scenarios built into the binary, by index in
    /// [`scenarios::BUNDLED`].
    Bundled(usize),
    File(PathBuf),
}

/// The open scenario, or the problems that stopped it opening.
#[derive(Resource)]
pub struct Opened {
    pub source: Source,
    pub scenario: Option<Arc<Scenario>>,
    /// Located error lines (`FILE:LINE:COL: error: ...`) of an invalid file.
    pub errors: Vec<String>,
    pub layout: Layout,
    /// Unit index by scenario id, to read the event log.
    pub ids: HashMap<String, usize>,
}

impl Opened {
    pub fn title(&self) -> String {
        match (&self.scenario, &self.source) {
            (Some(s), _) => s.name.clone(),
            (None, Source::File(p)) => p.display().to_string(),
            (None, Source::Bundled(i)) => scenarios::BUNDLED.get(*i).map_or("?", |b| b.0).to_owned(),
        }
    }

    pub fn hex_mode(&self) -> bool {
        self.scenario.as_ref().is_some_and(|s| s.mode == Mode::Hex)
    }
}

/// Marks everything drawn for one battle, so opening another removes it.
#[derive(Component)]
pub struct OnBattle;

/// The frame's work, in this order: open scenarios, read the player's
/// input, advance the playback, then draw and write the panels.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameSet {
    Open,
    Build,
    Input,
    Playback,
    Draw,
    Panels,
}

/// What the binary asked for, kept for the features that care (`shot`).
#[derive(Resource, Clone)]
pub struct Request(pub WindowRequest);

/// DejaVu Sans Condensed (free licence, see assets/fonts/), embedded: the
/// unit names need accented letters (9e Léger) that Bevy's built-in ASCII
/// subset of Fira Mono lacks, and condensed letters fit more log per line.
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansCondensed.ttf");

/// Makes our font the default one, so every `TextFont::default()` uses it.
fn use_our_font(mut fonts: ResMut<Assets<Font>>) {
    if fonts.insert(AssetId::default(), Font::from_bytes(FONT.to_vec())).is_err() {
        warn!("cannot install the game's font; text falls back to Bevy's own");
    }
}

/// Opens the window (or takes a screenshot) and runs until it closes.
pub fn run(req: WindowRequest) -> ExitCode {
    if let Some(code) = bench::maybe_run(&req) {
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
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: title.into(),
                    resolution: WindowResolution::new(WINDOW_PX.0, WINDOW_PX.1),
                    ..default()
                }),
                ..default()
            })
            .set(ImagePlugin::default_linear()),
    )
    .add_plugins(TilemapPlugin)
    .add_systems(PreStartup, use_our_font)
    .insert_resource(ClearColor(Color::srgb(0.16, 0.17, 0.15)))
    .insert_resource(Request(req));
    crate::sim::install_schedules(app);
    app.configure_sets(
        Update,
        (GameSet::Open, GameSet::Build, GameSet::Input, GameSet::Playback, GameSet::Draw, GameSet::Panels).chain(),
    );
    scenarios::plugin(app);
    map::plugin(app);
    camera::plugin(app);
    playback::plugin(app);
    units::plugin(app);
    lines::plugin(app);
    overlays::plugin(app);
    orders::plugin(app);
    panels::plugin(app);
    gameover::plugin(app);
    shot::plugin(app);
    staff::plugin(app);
}
