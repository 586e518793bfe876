//! `sauve shot FILE --out PNG`: the battle after N simulated turns, drawn
//! once the scene has settled, saved as a PNG; then the app exits (with an
//! error status if the picture could not be written).

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};

use super::playback::Playback;
use super::{GameSet, Opened, Request};

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
}

#[derive(Resource, Default)]
struct Done(Option<bool>);

pub(super) fn plugin(app: &mut App) {
    if app.world().resource::<Request>().0.shot.is_none() {
        return;
    }
    app.init_resource::<ShotState>().init_resource::<Done>();
    app.add_systems(Update, take.in_set(GameSet::Panels));
}

fn take(
    mut commands: Commands,
    req: Res<Request>,
    opened: Res<Opened>,
    pb: Res<Playback>,
    mut st: ResMut<ShotState>,
    done: Res<Done>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(shot) = &req.0.shot else { return };
    st.frames += 1;
    if let Some(ok) = done.0 {
        exit.write(if ok { AppExit::Success } else { AppExit::error() });
        return;
    }
    if st.frames > MAX_FRAMES {
        error!("no screenshot after {MAX_FRAMES} frames");
        exit.write(AppExit::error());
        return;
    }
    // Shown everything the simulation produced?
    if opened.scenario.is_none() || pb.instant {
        return;
    }
    st.settled += 1;
    if st.settled < SETTLE_FRAMES || st.asked {
        return;
    }
    st.asked = true;
    let out = shot.out.clone();
    commands.spawn(Screenshot::primary_window()).observe(move |cap: On<ScreenshotCaptured>, mut done: ResMut<Done>| {
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
    });
}
