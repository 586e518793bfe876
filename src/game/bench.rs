//! Frame-time measurement, a development tool behind the `dev` feature
//! (`cargo run --release --features dev`): `SAUVE_BENCH=full sauve`
//! opens a generated 200 x 200-hex battle with 2,000 units in the game
//! window (every feature running, the whole map in view) and
//! `SAUVE_BENCH=bare sauve` draws the same map as a bare bevy_ecs_tilemap
//! map with one plain sprite per unit. Each prints the median and 90th
//! percentile frame time over `SAUVE_BENCH_FRAMES` frames (default 300,
//! after 30 to warm up) and the time from opening the scenario to the first
//! frame drawn with it. Run it on a release build.

use std::process::ExitCode;
use std::time::Instant;

use bevy::prelude::*;
use bevy::window::{PresentMode, WindowResolution};
use bevy_ecs_tilemap::prelude::*;

use super::layout::TILE_PX;
use super::opened::{Opened, layout_of};
use super::screen::WINDOW_PX;
use crate::cli::WindowRequest;

/// Size of the benchmark battle.
const MAP: (i32, i32) = (200, 200);
const UNITS: usize = 2000;
const WARM_UP: usize = 30;

#[derive(Resource)]
struct Bench {
    label: &'static str,
    frames: usize,
    times: Vec<f64>,
    last: Option<Instant>,
    /// When the scenario began to open, and how long until its first frame.
    opened_at: Option<Instant>,
    first_frame: Option<f64>,
    seen: usize,
}

/// Runs the benchmark when `SAUVE_BENCH` asks for one; `build` assembles
/// the game window (the full scene measures the real thing).
pub fn maybe_run(_req: &WindowRequest, build: fn(&mut App, WindowRequest)) -> Option<ExitCode> {
    let kind = std::env::var("SAUVE_BENCH").ok()?;
    let frames = std::env::var("SAUVE_BENCH_FRAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let text = crate::generate::scenario_text(MAP.0, MAP.1, UNITS, 7);
    let mut app = App::new();
    let bench = Bench {
        label: if kind == "bare" { "bare tilemap" } else { "full scene" },
        frames,
        times: Vec::new(),
        last: None,
        opened_at: None,
        first_frame: None,
        seen: 0,
    };
    if kind == "bare" {
        let scenario = match crate::scenario::parse_bytes(text.as_bytes(), "generated") {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                return Some(ExitCode::FAILURE);
            }
        };
        app.add_plugins(DefaultPlugins.set(window_plugin()))
            .add_plugins(TilemapPlugin)
            .insert_resource(Bench { opened_at: Some(Instant::now()), ..bench })
            .insert_resource(BareScenario(scenario))
            .add_systems(Startup, bare_scene);
    } else {
        let path = std::env::temp_dir().join(format!("sauve-bench-{}.ron", std::process::id()));
        if let Err(e) = std::fs::write(&path, &text) {
            eprintln!("{}: error: {e}", path.display());
            return Some(ExitCode::FAILURE);
        }
        build(&mut app, WindowRequest { file: Some(path), shot: None, edit: None });
        app.insert_resource(bench);
        app.world_mut().resource_mut::<Bench>().opened_at = Some(Instant::now());
        app.add_systems(Update, no_vsync);
    }
    app.add_systems(Last, measure);
    app.run();
    Some(ExitCode::SUCCESS)
}

fn window_plugin() -> WindowPlugin {
    WindowPlugin {
        primary_window: Some(Window {
            title: "sauve bench".into(),
            resolution: WindowResolution::new(WINDOW_PX.0, WINDOW_PX.1),
            present_mode: PresentMode::AutoNoVsync,
            ..default()
        }),
        ..default()
    }
}

fn no_vsync(mut windows: Query<&mut Window>, mut done: Local<bool>) {
    if *done {
        return;
    }
    for mut w in &mut windows {
        w.present_mode = PresentMode::AutoNoVsync;
    }
    *done = true;
}

#[derive(Resource)]
struct BareScenario(crate::scenario::Scenario);

/// The baseline: the same tiles and one sprite per unit, nothing else.
fn bare_scene(mut commands: Commands, mut images: ResMut<Assets<Image>>, s: Res<BareScenario>) {
    let s = &s.0;
    let layout = layout_of(s);
    let texture = images.add(super::art::hex_atlas(TILE_PX.0, TILE_PX.1).into_image());
    // The same tile spawner as the game, so only the extras differ.
    super::map::spawn_tilemap(&mut commands, layout, texture, 0.0, |at| {
        (s.map.terrain(at).map_or(0, |t| t as u32), Color::WHITE)
    });
    for u in &s.units {
        if let crate::scenario::Place::Hex(at) = u.place {
            let p = layout.world(at);
            commands.spawn((
                Sprite::from_color(super::theme::BENCH_COUNTER, Vec2::splat(super::units::COUNTER)),
                Transform::from_xyz(p.x, p.y, 10.0),
            ));
        }
    }
    let (lo, hi) = layout.bounds();
    let scale = super::layout::fit_scale((lo, hi), Vec2::new(WINDOW_PX.0 as f32, WINDOW_PX.1 as f32), 0.0);
    commands.spawn((
        Camera2d,
        Transform::from_translation(((lo + hi) / 2.0).extend(0.0)),
        Projection::Orthographic(OrthographicProjection { scale, ..OrthographicProjection::default_2d() }),
    ));
}

fn measure(mut b: ResMut<Bench>, opened: Option<Res<Opened>>, mut exit: MessageWriter<AppExit>) {
    let now = Instant::now();
    let ready = opened.is_none_or(|o| o.scenario.is_some());
    if !ready {
        return;
    }
    b.seen += 1;
    // The frame after the one that spawned the map is the first drawn with it.
    if b.seen == 2
        && let Some(t0) = b.opened_at
    {
        b.first_frame = Some(now.duration_since(t0).as_secs_f64());
    }
    if let Some(last) = b.last
        && b.seen > WARM_UP
    {
        let dt = now.duration_since(last).as_secs_f64();
        b.times.push(dt);
    }
    b.last = Some(now);
    if b.times.len() >= b.frames {
        let mut t = b.times.clone();
        t.sort_by(f64::total_cmp);
        let median = t[t.len() / 2] * 1000.0;
        let p90 = t[t.len() * 9 / 10] * 1000.0;
        println!(
            "{}: {} frames, median {median:.2} ms, p90 {p90:.2} ms; open to first frame {:.2} s",
            b.label,
            t.len(),
            b.first_frame.unwrap_or(f64::NAN)
        );
        exit.write(AppExit::Success);
    }
}
