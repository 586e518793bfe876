//! The rout preview on the map: where a unit would run if it routed now
//! and each friend it would pass with that friend's chance to fail its
//! contagion check (rules 1.3 and 1.4), as the engine's own planner works
//! it out on the board as it stands ([`crate::sim::rout_preview`]); on a
//! free-space table, where it would flee if it fled now and each friend
//! its flight would meet with that friend's chance to be carried along
//! (docs/rules.md 2.2, 2.3), from the engine's own flight on a copy of the
//! table ([`crate::sim::fs_flight_preview`]). R shows it for the selected
//! unit (either side) and hides it again; in hex mode, while the player
//! points at a target for a fire, melee or charge, the target's is shown
//! beside the odds. It is worked out again only when the unit shown or the
//! board changes, so it follows the pointer frame by frame.
//!
//! Here when a preview is worked out and the legend; what a preview holds
//! in `view`, the hex drawing and words in `hex`, the table's in `table`,
//! what both draw alike in `paint`.

mod hex;
mod paint;
mod table;
mod view;

use bevy::prelude::*;

use super::input::MapPointer;
use super::lines::Lines;
use super::opened::Opened;
use super::sets::GameSet;
use super::shown::Shown;
use super::state::Screen;
use super::theme;
use super::turn::PlayerTurn;
use crate::belle_alliance::FsCtx;
use crate::hex::Offset;
use crate::sim::{self, Battle};
use crate::turn::Phase;
#[cfg(test)]
use hex::risk_labels;
use view::Key;
pub use view::{FlightLabel, FlightShown, Previewed, RiskLabel, RoutMark, RoutView, Why};

/// Counts the frames in which some unit's position, state, formation,
/// facing, strength, limbers, valour or guns changed (undo and orders
/// included), on the hex board or the table.
#[derive(Resource, Default)]
struct BoardEpoch(u64);

#[derive(Component)]
struct Legend;
#[derive(Component)]
struct LegendText;

/// The legend card's title: a rout on hexes, a flight on a table (2.2).
#[derive(Component)]
struct LegendTitle;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<RoutView>().init_resource::<BoardEpoch>();
    app.add_systems(Startup, spawn_legend);
    app.add_systems(Update, toggle.in_set(GameSet::Input).run_if(in_state(Screen::Battle)));
    app.add_systems(Update, (notice_changes, refresh).chain().after(GameSet::Playback).before(GameSet::Draw));
    app.add_systems(Update, (show_marks.run_if(resource_changed::<RoutView>), draw_path).in_set(GameSet::Draw));
    app.add_observer(close);
}

/// R (neither Shift, which restarts, nor Ctrl) shows or hides the selected
/// unit's rout, or its flight on a table.
fn toggle(keys: Res<ButtonInput<KeyCode>>, mut view: ResMut<RoutView>) {
    // A modifier let go in the key's own frame (a quick Shift+R at a low
    // frame rate) still counts: that R restarts, it does not preview.
    let held = super::input::modifier(&keys, super::input::SHIFT) || super::input::modifier(&keys, super::input::CTRL);
    if keys.just_pressed(KeyCode::KeyR) && !held {
        view.on = !view.on;
    }
}

fn notice_changes(
    changed: Query<
        (),
        (
            With<sim::UnitIndex>,
            Or<(
                Changed<sim::HexPosition>,
                Changed<sim::MoraleState>,
                Changed<sim::FormationOf>,
                Changed<sim::Facing>,
                Changed<sim::Strength>,
                Changed<sim::Limbered>,
                Changed<sim::TablePosition>,
                Changed<sim::DisorderState>,
                Changed<sim::Valour>,
                Changed<sim::AbandonedGuns>,
            )>,
        ),
    >,
    mut epoch: ResMut<BoardEpoch>,
) {
    if !changed.is_empty() {
        epoch.0 += 1;
    }
}

/// The phases whose targets show odds on pointing (rule 1.9).
fn choosing_target(phase: Phase) -> bool {
    matches!(phase, Phase::DefensiveFire | Phase::OffensiveFire | Phase::Melee | Phase::Charge)
}

/// The unit whose rout is wanted, and why: a battle open and the shown log
/// at the present (the counters stand where the engine has them); then, in
/// hex mode, the enemy under the pointer while the player's picked units
/// choose a target, else the selected unit with R on.
fn wanted(world: &World) -> Option<(usize, Why)> {
    let opened = world.resource::<Opened>();
    let s = opened.scenario.as_ref()?;
    world.get_resource::<Battle>()?;
    let shown = world.resource::<Shown>();
    if shown.cursor != world.get_resource::<sim::BattleLog>()?.events.len() {
        return None;
    }
    let pointer = world.resource::<MapPointer>();
    let on_hex = |i: usize, hex: Offset| shown.units.get(i).is_some_and(|u| !u.gone && u.at == Some(hex));
    if opened.hex_mode()
        && let Some(turn) = world.get_resource::<PlayerTurn>()
        && let Some((phase, side)) = turn.awaiting.filter(|_| !turn.reviewing)
        && choosing_target(phase)
        && !turn.group.is_empty()
        && let Some(hex) = pointer.hex
        && let Some(target) = (0..s.units.len()).find(|&i| s.units[i].side != side && on_hex(i, hex))
    {
        let why = if phase == Phase::Charge { Why::Charged(turn.group[0]) } else { Why::Target };
        return Some((target, why));
    }
    let unit = pointer.selected.filter(|_| world.resource::<RoutView>().on)?;
    (unit < s.units.len()).then_some((unit, Why::Selected))
}

/// Asks the engine again when the unit wanted or the board changed: the
/// rout on a hex board, the flight on a table. Exclusive: the engine lives
/// in the world.
fn refresh(world: &mut World) {
    let key = wanted(world).map(|(unit, why)| Key {
        unit,
        why,
        events: world.get_resource::<sim::BattleLog>().map_or(0, |l| l.events.len()),
        epoch: world.resource::<BoardEpoch>().0,
    });
    if world.resource::<RoutView>().key == key {
        return;
    }
    let hex_mode = world.resource::<Opened>().hex_mode();
    let (mut shown, mut flight) = (None, None);
    if let Some(k) = key {
        let name = unit_name(world, k.unit);
        if hex_mode {
            let preview = match k.why {
                Why::Charged(charger) => sim::charge_target_rout(world, charger, k.unit),
                Why::Selected | Why::Target => sim::rout_preview(world, k.unit),
            };
            shown = preview.map(|preview| Previewed { why: k.why, preview, name });
        } else {
            flight = sim::fs_flight_preview(world, k.unit).map(|preview| FlightShown { preview, name });
        }
    }
    let mut view = world.resource_mut::<RoutView>();
    view.bypass_change_detection().key = key;
    // Marked changed (and the marks spawned again) only for another preview.
    if view.shown != shown || view.flight != flight {
        view.shown = shown;
        view.flight = flight;
    }
}

fn unit_name(world: &World, unit: usize) -> String {
    let opened = world.resource::<Opened>();
    opened.scenario.as_ref().and_then(|s| s.units.get(unit)).map_or_else(|| format!("#{unit}"), |u| u.name.clone())
}

/// The legend's text: the preview shown, or while R is on with none, what
/// to do for one.
pub fn legend_words(view: &RoutView, names: impl Fn(usize) -> String) -> Option<String> {
    if let Some(flight) = &view.flight {
        return Some(table::legend_words(flight, names));
    }
    match &view.shown {
        Some(shown) => Some(hex::legend_words(shown, names)),
        None => view.on.then(|| "Rout preview (R): select a unit to see where it would run.".into()),
    }
}

/// The legend: a card of the right-hand column (in the log's place) once
/// the column is up; hidden until a preview shows.
fn spawn_legend(mut commands: Commands) {
    let legend = commands.spawn((Legend, super::cards::card(theme::ROUT_PANEL))).id();
    commands.entity(legend).entry::<Node>().and_modify(|mut n| n.display = Display::None);
    let title = super::cards::title_row(&mut commands, legend, "Rout preview", RoutClose, "Close (R)");
    commands.entity(title).insert(LegendTitle);
    commands.entity(legend).with_child((
        LegendText,
        theme::text("", 13.0, theme::TEXT_ROUT),
        Node { width: Val::Percent(100.0), ..default() },
    ));
}

/// The legend's close button (as R).
#[derive(Component)]
struct RoutClose;

fn close(activate: On<bevy::ui_widgets::Activate>, buttons: Query<(), With<RoutClose>>, mut view: ResMut<RoutView>) {
    if buttons.get(activate.entity).is_ok() {
        view.on = false;
        view.shown = None;
        view.flight = None;
    }
}

/// The preview's marks, labels and legend, spawned again whenever the
/// preview shown changes.
fn show_marks(
    mut commands: Commands,
    view: Res<RoutView>,
    opened: Res<Opened>,
    old: Query<Entity, Or<(With<RoutMark>, With<RiskLabel>, With<FlightLabel>)>>,
    mut legend: Query<(Entity, &mut Node, Has<ChildOf>), With<Legend>>,
    mut text: Query<&mut Text, With<LegendText>>,
    mut title: Query<&mut Text, (With<LegendTitle>, Without<LegendText>)>,
    columns: Query<Entity, With<super::cards::SideColumn>>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    let names = |u: usize| {
        opened.scenario.as_ref().and_then(|s| s.units.get(u)).map_or_else(|| format!("#{u}"), |x| x.name.clone())
    };
    let words = legend_words(&view, names);
    if let Ok((e, mut node, placed)) = legend.single_mut() {
        node.display = if words.is_some() { Display::Flex } else { Display::None };
        // Into the right-hand column once it is up.
        if let (false, Some(c)) = (placed, super::cards::column(&columns)) {
            commands.entity(e).insert(ChildOf(c));
        }
    }
    if let Ok(mut t) = text.single_mut() {
        t.0 = words.unwrap_or_default();
    }
    if let Ok(mut t) = title.single_mut() {
        t.0 = if view.flight.is_some() { "Flight preview" } else { "Rout preview" }.to_owned();
    }
    if let Some(shown) = &view.shown {
        hex::spawn_marks(&mut commands, &shown.preview, opened.layout);
    }
    if let Some(flight) = &view.flight {
        table::spawn_marks(&mut commands, &flight.preview, opened.layout, names);
    }
}

/// The path, every frame.
fn draw_path(
    view: Res<RoutView>,
    opened: Res<Opened>,
    battle: Option<Res<Battle>>,
    table: Option<Res<sim::view::TableView>>,
    mut lines: ResMut<Lines>,
) {
    if let Some(shown) = &view.shown {
        hex::draw(&shown.preview, opened.layout, &mut lines);
    }
    if let (Some(flight), Some(battle), Some(table)) = (&view.flight, battle, table) {
        let ctx = FsCtx::new(&battle.scenario);
        table::draw(&flight.preview, &ctx, table.table(), opened.layout, &mut lines);
    }
}

#[cfg(test)]
mod table_tests;
#[cfg(test)]
mod tests;
