//! The guide of the first battle (`scenarios/first-battle.ron`): a card
//! of the right-hand column, and a line at the head of the orders banner,
//! that walk a newcomer through the window a step at a time: select a
//! battalion, march it, end the phase, fire, preview a rout (R) and ask
//! why a unit broke (W). Each step is done when the battle shows it done
//! (a march in the log, a volley fired, the preview or the why view open),
//! never by a button that skips it. F2 hides the guide and shows it again.

use bevy::prelude::*;
use bevy::ui_widgets::Activate;

use super::cards::{self, SideColumn};
use super::input::MapPointer;
use super::opened::Opened;
use super::rout_preview::RoutView;
use super::sets::GameSet;
use super::state::battle_keys;
use super::theme::{self, text};
use super::turn::PlayerTurn;
use super::why::WhyView;
use crate::events::{EventKind, MoveReason};
use crate::sim;
use crate::turn::Phase;

/// The name of the battle the guide walks through.
pub const GUIDED: &str = "Your first battle";

/// The steps, in order: what to do, in words.
pub const STEPS: [&str; 7] = [
    "Click one of your blue battalions to select it (a click again on a stack picks the next).",
    "March it: the hexes it can reach are tinted; click one (right-click marches onto friends). U takes it back.",
    "End your movement phase with E (or the End phase button). The Russians fire first, then it is your fire phase.",
    "Fire: select a battalion or the battery, point at a Russian unit in range to read the odds, and click it.",
    "Select any unit and press R: the magenta path is where it would rout now, and each friend it would shake.",
    "Click the Russian militia that broke at the start (its red band is in the north) and press W: why it broke.",
    "That is the window. H lists every key; Tab opens the menu with the other battles. Play on to the end!",
];

/// Where the guide stands.
#[derive(Resource, Default, Debug, PartialEq)]
pub struct Guide {
    /// The battle open is the guided one.
    pub on: bool,
    /// The step to do next (`STEPS.len() - 1`: the last words).
    pub step: usize,
    /// F2 hid it.
    pub hidden: bool,
}

impl Guide {
    /// The line of the current step for the orders banner, if the guide
    /// shows.
    pub fn banner_line(&self) -> Option<String> {
        (self.on && !self.hidden).then(|| format!("Guide {}/{}: {}", self.step + 1, STEPS.len(), STEPS[self.step]))
    }
}

#[derive(Component)]
struct GuideCard;
#[derive(Component)]
struct GuideClose;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Guide>();
    app.add_systems(Update, (open, keys.run_if(battle_keys)).in_set(GameSet::Input));
    app.add_systems(Update, (advance, card).chain().in_set(GameSet::Panels));
    app.add_observer(close);
}

/// A battle opened: the guide starts over in the guided one, and is off
/// in any other.
fn open(opened: Res<Opened>, mut guide: ResMut<Guide>) {
    if !opened.is_changed() {
        return;
    }
    let on = opened.scenario.as_ref().is_some_and(|s| s.name == GUIDED);
    if guide.on != on || on {
        *guide = Guide { on, ..default() };
    }
}

/// F2 hides the guide, or shows it again.
fn keys(keys: Res<ButtonInput<KeyCode>>, mut guide: ResMut<Guide>) {
    if keys.just_pressed(KeyCode::F2) && guide.on {
        guide.hidden = !guide.hidden;
    }
}

fn close(activate: On<Activate>, buttons: Query<(), With<GuideClose>>, mut guide: ResMut<Guide>) {
    if buttons.get(activate.entity).is_ok() {
        guide.hidden = true;
    }
}

/// Whether the battle shows the current step done.
fn done(
    step: usize,
    world: (&Opened, &MapPointer, &PlayerTurn, Option<&sim::BattleLog>, &RoutView, &WhyView),
    side: usize,
) -> bool {
    let (opened, pointer, turn, log, rout, why) = world;
    let Some(s) = &opened.scenario else { return false };
    let ours = |id: &str| s.unit_index(id).is_some_and(|i| s.units[i].side == side);
    let events = log.map_or(&[][..], |l| &l.events[..]);
    match step {
        0 => pointer.selected.is_some_and(|u| s.units.get(u).is_some_and(|x| x.side == side)),
        1 => events
            .iter()
            .any(|e| matches!(&e.kind, EventKind::Move { unit, reason: MoveReason::Order, .. } if ours(unit))),
        2 => {
            turn.awaiting.is_some_and(|(p, _)| p != Phase::Movement && p != Phase::Charge)
                || events.iter().any(|e| e.phase == Phase::DefensiveFire)
        }
        3 => events.iter().any(|e| matches!(&e.kind, EventKind::Fire { units, .. } if units.iter().any(|u| ours(u)))),
        4 => rout.on && rout.shown.is_some(),
        5 => why.picture.is_some(),
        _ => false,
    }
}

/// Each frame: a step the battle shows done moves the guide on (more
/// than one if the player ran ahead).
fn advance(
    mut guide: ResMut<Guide>,
    opened: Res<Opened>,
    pointer: Res<MapPointer>,
    turn: Res<PlayerTurn>,
    log: Option<Res<sim::BattleLog>>,
    rout: Res<RoutView>,
    why: Res<WhyView>,
) {
    if !guide.on {
        return;
    }
    // The side a player gives orders for: the first with a player seat.
    let side =
        opened.scenario.as_ref().and_then(|s| s.sides.iter().position(|x| x.control == crate::vocab::Control::Player));
    let side = side.unwrap_or(0);
    let mut step = guide.step;
    while step + 1 < STEPS.len() && done(step, (&opened, &pointer, &turn, log.as_deref(), &rout, &why), side) {
        step += 1;
    }
    if step != guide.step {
        guide.step = step;
    }
}

/// The card, drawn again when the guide moves on.
fn card(
    mut commands: Commands,
    guide: Res<Guide>,
    old: Query<Entity, With<GuideCard>>,
    columns: Query<Entity, With<SideColumn>>,
) {
    if !guide.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    if !guide.on || guide.hidden {
        return;
    }
    let root = commands.spawn((GuideCard, cards::note(theme::HELP_CARD))).id();
    if let Some(c) = cards::column(&columns) {
        commands.entity(root).insert(ChildOf(c));
    }
    cards::title_row(
        &mut commands,
        root,
        format!("Your first battle: step {} of {}", guide.step + 1, STEPS.len()),
        GuideClose,
        "Hide (F2)",
    );
    for (k, words) in STEPS.iter().enumerate() {
        let (mark, ink) = match k.cmp(&guide.step) {
            std::cmp::Ordering::Less => ("done: ", theme::TEXT_LATER),
            std::cmp::Ordering::Equal => ("now: ", theme::TEXT_TITLE),
            std::cmp::Ordering::Greater => ("then: ", theme::TEXT_SMALL),
        };
        commands
            .entity(root)
            .with_child((text(format!("{mark}{words}"), 12.0, ink), Node { width: Val::Percent(100.0), ..default() }));
    }
}

#[cfg(test)]
mod tests;
