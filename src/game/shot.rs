//! `sauve shot FILE --out PNG`: the battle after N simulated turns, drawn
//! once the scene has settled, saved as a PNG; then the app exits (with an
//! error status if the picture could not be written, or if the file was
//! invalid: then the picture shows the window's error card and the errors
//! also go to stderr, one located line each). The last turn's rout
//! moves are drawn as arrows, so a picture tells how the cascade went.
//!
//! For looking at the live features without a mouse (development and docs),
//! three environment variables: `SAUVE_SHOT_PLAY=SECONDS` plays the battle
//! on from there for that long before the picture (animations, dice and
//! contagion lines show); `SAUVE_SHOT_OVERLAYS=1234hm` turns overlays on by
//! their keys (and `h` the help card, `m` the scenario menu);
//! `SAUVE_SHOT_SELECT=UNIT-ID` selects a unit; `f` among the overlays
//! starts a forecast and `d` opens the fork's picker;
//! `SAUVE_SHOT_PHASE=NAME` (`Movement`, `OffensiveFire`...) plays on,
//! ending the others, to the first phase of that name waiting for a
//! player's orders (with `SAUVE_SHOT_SEATS=player`); `SAUVE_SHOT_WINDOW=WxH`
//! sizes the window. `--why UNIT` pictures that unit's why view (without
//! the rout arrows, unless asked for).

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};

use super::input::MapPointer;
use super::opened::Opened;
use super::overlays::Overlays;
use super::playback::Playback;
use super::request::Request;
use super::sets::GameSet;
use super::state::Screen;
use super::why::AskWhy;

/// Frames to wait after the battle is shown, so that textures, glyphs and
/// pipelines are ready before the picture is taken.
const SETTLE_FRAMES: u32 = 20;
/// Give up after this many frames without a picture.
const MAX_FRAMES: u32 = 2000;

#[derive(Resource, Default)]
struct ShotState {
    frames: u32,
    settled: u32,
    asked: bool,
    /// Seconds to play before the picture, and how long it has played.
    play: f32,
    played: f32,
    /// The why view asked for (`--why`).
    why_asked: bool,
}

pub(super) fn plugin(app: &mut App) {
    if app.world().resource::<Request>().0.shot.is_none() {
        return;
    }
    let play = std::env::var("SAUVE_SHOT_PLAY").ok().and_then(|v| v.parse().ok()).unwrap_or(0.0);
    app.insert_resource(ShotState { play, ..default() }).init_resource::<PictureDone>();
    app.add_systems(Update, take.in_set(GameSet::Panels));
    app.add_systems(Update, dev_setup.in_set(GameSet::Input).run_if(resource_changed::<Opened>));
    app.add_systems(Update, dev_open.after(dev_setup).in_set(GameSet::Input).run_if(resource_changed::<Opened>));
}

/// The phase, forecast and fork asked for by the environment: played on
/// to that phase (ending the others), the forecast started, the fork's
/// picker opened.
fn dev_open(world: &mut World) {
    if world.resource::<Opened>().scenario.is_none() {
        return;
    }
    if let Ok(want) = std::env::var("SAUVE_SHOT_PHASE") {
        for _ in 0..400 {
            if let Some((p, _)) = crate::sim::awaiting_orders(world) {
                if format!("{p:?}").eq_ignore_ascii_case(&want) {
                    break;
                }
                crate::sim::end_phase(world);
            }
            if !crate::sim::step_phase(world) {
                break;
            }
        }
    }
    let keys = std::env::var("SAUVE_SHOT_OVERLAYS").unwrap_or_default();
    if keys.contains('f') {
        let _ = super::forecast::start(world);
    }
    if keys.contains('d') {
        world.resource_mut::<super::fork::ForkView>().open = true;
    }
}

/// Overlays and selection asked for by the environment.
fn dev_setup(
    mut o: ResMut<Overlays>,
    mut pointer: ResMut<MapPointer>,
    opened: Res<Opened>,
    req: Res<Request>,
    mut screen: ResMut<NextState<Screen>>,
) {
    let why = req.0.shot.as_ref().is_some_and(|s| s.why.is_some());
    let keys = std::env::var("SAUVE_SHOT_OVERLAYS").unwrap_or_else(|_| if why { "" } else { "4" }.into());
    // One screen at a time: the menu before the help card.
    if keys.contains('m') {
        screen.set(Screen::Menu);
    } else if keys.contains('h') {
        screen.set(Screen::Help);
    }
    o.heat = keys.contains('1');
    o.zones = keys.contains('2');
    o.range = keys.contains('3');
    o.arrows = keys.contains('4');
    if let Ok(id) = std::env::var("SAUVE_SHOT_SELECT") {
        pointer.selected = opened.ids.get(&id).copied();
    }
}

fn take(
    mut commands: Commands,
    req: Res<Request>,
    opened: Res<Opened>,
    mut pb: ResMut<Playback>,
    time: Res<Time>,
    mut st: ResMut<ShotState>,
    done: Res<PictureDone>,
    mut exit: MessageWriter<AppExit>,
    mut pointer: ResMut<MapPointer>,
    mut ask: MessageWriter<AskWhy>,
) {
    let Some(shot) = &req.0.shot else { return };
    st.frames += 1;
    let invalid = opened.scenario.is_none() && !opened.errors.is_empty();
    if let Some(ok) = done.0 {
        exit.write(if ok && !invalid { AppExit::Success } else { AppExit::error() });
        return;
    }
    if st.frames > MAX_FRAMES {
        error!("no screenshot after {MAX_FRAMES} frames");
        exit.write(AppExit::error());
        return;
    }
    // Shown everything the simulation produced?
    if !invalid && (opened.scenario.is_none() || pb.instant) {
        return;
    }
    st.settled += 1;
    if let Some(id) = shot.why.as_deref().filter(|_| !st.why_asked && !invalid) {
        st.why_asked = true;
        let Some(&unit) = opened.ids.get(id) else {
            eprintln!("error: --why: no unit '{id}' in this battle");
            exit.write(AppExit::error());
            return;
        };
        pointer.selected = Some(unit);
        ask.write(AskWhy(Some(unit)));
        st.settled = 0;
    }
    if st.settled < SETTLE_FRAMES || st.asked {
        return;
    }
    if st.play > 0.0 {
        if st.played == 0.0 {
            pb.playing = true;
            pb.speed = 4;
        }
        st.played += time.delta_secs().max(1e-3);
        if st.played < st.play {
            return;
        }
    }
    st.asked = true;
    if invalid {
        for line in &opened.errors {
            eprintln!("{line}");
        }
    }
    save_picture(&mut commands, shot.out.clone());
}

/// Whether the picture asked for has been written (`None` until its frame
/// is captured): `sauve shot`'s and `sauve edit --shot`'s.
#[derive(Resource, Default)]
pub struct PictureDone(pub Option<bool>);

/// Captures the window's next frame into the PNG `out`, then records in
/// [`PictureDone`] whether it was written (an error, named with the path,
/// goes to stderr).
pub fn save_picture(commands: &mut Commands, out: PathBuf) {
    commands.spawn(Screenshot::primary_window()).observe(
        move |cap: On<ScreenshotCaptured>, mut done: ResMut<PictureDone>| {
            let ok = match cap.image.clone().try_into_dynamic() {
                Ok(img) => match img.to_rgb8().save(&out) {
                    Ok(()) => {
                        info!("screenshot saved to {}", out.display());
                        true
                    }
                    Err(e) => {
                        eprintln!("{}: error: cannot write the screenshot: {e}", out.display());
                        false
                    }
                },
                Err(e) => {
                    eprintln!("{}: error: cannot convert the screenshot: {e}", out.display());
                    false
                }
            };
            done.0 = Some(ok);
        },
    );
}
