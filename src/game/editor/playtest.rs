//! F8: the scenario as it stands played in this window, and back to the
//! editor where it was left.

use std::sync::Arc;

use bevy::prelude::*;

use super::draw::opened_for;
use super::model::Editor;
use crate::edit::write;
use crate::game::opened::{Opened, Source, clear_battle};
use crate::game::scenarios::ScenarioText;
use crate::game::seats::{Seats, seat};
use crate::game::state::Screen;

/// F8: a playtest of the scenario as it stands, or back to the editor
/// from one.
pub fn toggle_playtest(world: &mut World) {
    match world.get_resource::<Editor>().map(|e| e.playtest) {
        Some(true) => back_to_editor(world),
        Some(false) => playtest_now(world),
        None => {}
    }
}

/// F8 in the editor: the scenario as it stands, played in this window
/// with the seats chosen; refused while it has problems.
fn playtest_now(world: &mut World) {
    let e = world.resource::<Editor>();
    let text = write::to_ron(e.file());
    let name = e.path.display().to_string();
    let scenario = match crate::scenario::parse(&text, &name) {
        Ok(s) => Arc::new(s),
        Err(err) => {
            let n = err.lines().len();
            world.resource_mut::<Editor>().message = format!(
                "Not playable: {n} problems to mend first (listed on the right; an invalid scenario is never played)."
            );
            return;
        }
    };
    clear_battle(world);
    let seats = *world.resource::<Seats>();
    crate::sim::reset(world, scenario.clone(), scenario.seed, Vec::new(), seats);
    seat(world, seats);
    world.insert_resource(ScenarioText(text));
    world.insert_resource(Opened::battle(Source::File(world.resource::<Editor>().path.clone()), scenario));
    let mut e = world.resource_mut::<Editor>();
    e.playtest = true;
    e.message = "Playtest: F8 returns to the editor.".into();
    world.resource_mut::<NextState<Screen>>().set(Screen::Battle);
}

/// F8 in a playtest: back to the editor as it was left.
fn back_to_editor(world: &mut World) {
    clear_battle(world);
    let mut e = world.resource_mut::<Editor>();
    e.playtest = false;
    e.redraw = true;
    e.message = "Back in the editor.".into();
    let opened = opened_for(&e);
    world.insert_resource(opened);
    world.resource_mut::<NextState<Screen>>().set(Screen::Editor);
}
