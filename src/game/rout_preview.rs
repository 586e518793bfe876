//! The rout preview on the map: where a unit would run if it routed now
//! and each friend it would pass with that friend's chance to fail its
//! contagion check (rules 1.3 and 1.4), as the engine's own planner works
//! it out on the board as it stands ([`crate::sim::rout_preview`]). R
//! shows it for the selected unit (either side) and hides it again; while
//! the player points at a target for a fire, melee or charge, the target's
//! is shown beside the odds. It is worked out again only when the unit
//! shown or the board changes, so it follows the pointer frame by frame.

use bevy::prelude::*;

use super::input::MapPointer;
use super::layout::Layout;
use super::lines::Lines;
use super::map::z;
use super::opened::{OnBattle, Opened};
use super::orders::words::pct;
use super::screen::PANEL_W;
use super::sets::GameSet;
use super::shown::Shown;
use super::state::Screen;
use super::theme::{self, ROUT_CASING, ROUT_LABEL, ROUT_PATH};
use super::turn::PlayerTurn;
use crate::hex::{Edge, Offset};
use crate::labataille::rout_preview::{ContagionRisk, RoutEnd, RoutPreview};
use crate::sim::{self, Battle};
use crate::turn::Phase;

/// Why a unit's rout is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// R is on and the unit is selected.
    Selected,
    /// The enemy under the pointer while a fire or melee is chosen.
    Target,
    /// The enemy under the pointer while this unit's charge is chosen: its
    /// rout on the board at contact, the charger next to it.
    Charged(usize),
}

/// The preview shown, and what it was worked out for.
#[derive(Resource, Default)]
pub struct RoutView {
    /// R is on: the selected unit's rout is shown.
    pub on: bool,
    pub shown: Option<Previewed>,
    key: Option<Key>,
}

/// One unit's previewed rout, with the names the map and legend write.
#[derive(Clone, Debug, PartialEq)]
pub struct Previewed {
    pub why: Why,
    pub preview: RoutPreview,
    pub name: String,
}

/// What a preview depends on: the unit, why it is shown, and the board
/// (the log's length and every change to a unit's components).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    unit: usize,
    why: Why,
    events: usize,
    epoch: u64,
}

/// Counts the frames in which some unit's position, state, formation,
/// facing, strength or limbers changed (undo and orders included).
#[derive(Resource, Default)]
struct BoardEpoch(u64);

/// A hex of the previewed path, marked on the map.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoutMark {
    pub hex: Offset,
}

/// The label over a hex of friends the router would pass: their chances.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct RiskLabel {
    pub hex: Offset,
    pub text: String,
}

#[derive(Component)]
struct Legend;
#[derive(Component)]
struct LegendText;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<RoutView>().init_resource::<BoardEpoch>();
    app.add_systems(Startup, spawn_legend);
    app.add_systems(Update, toggle.in_set(GameSet::Input).run_if(in_state(Screen::Battle)));
    app.add_systems(Update, (notice_changes, refresh).chain().after(GameSet::Playback).before(GameSet::Draw));
    app.add_systems(Update, (show_marks.run_if(resource_changed::<RoutView>), draw_path).in_set(GameSet::Draw));
}

/// R (neither Shift, which restarts, nor Ctrl) shows or hides the selected
/// unit's rout.
fn toggle(keys: Res<ButtonInput<KeyCode>>, mut view: ResMut<RoutView>) {
    let held = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight, KeyCode::ControlLeft, KeyCode::ControlRight]);
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

/// The unit whose rout is wanted, and why: a hex battle open and the shown
/// log at the present (the counters stand where the engine has them); then
/// the enemy under the pointer while the player's picked units choose a
/// target, else the selected unit with R on.
fn wanted(world: &World) -> Option<(usize, Why)> {
    let opened = world.resource::<Opened>();
    let s = opened.scenario.as_ref()?;
    if !opened.hex_mode() || world.get_resource::<Battle>().is_none() {
        return None;
    }
    let shown = world.resource::<Shown>();
    if shown.cursor != world.get_resource::<sim::BattleLog>()?.events.len() {
        return None;
    }
    let pointer = world.resource::<MapPointer>();
    let on_hex = |i: usize, hex: Offset| shown.units.get(i).is_some_and(|u| !u.gone && u.at == Some(hex));
    if let Some(turn) = world.get_resource::<PlayerTurn>()
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

/// Asks the engine again when the unit wanted or the board changed.
/// Exclusive: the engine lives in the world.
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
    let shown = key.and_then(|k| {
        let preview = match k.why {
            Why::Charged(charger) => sim::charge_target_rout(world, charger, k.unit)?,
            Why::Selected | Why::Target => sim::rout_preview(world, k.unit)?,
        };
        let name = unit_name(world, k.unit);
        Some(Previewed { why: k.why, preview, name })
    });
    let mut view = world.resource_mut::<RoutView>();
    view.bypass_change_detection().key = key;
    // Marked changed (and the marks spawned again) only for another preview.
    if view.shown != shown {
        view.shown = shown;
    }
}

fn unit_name(world: &World, unit: usize) -> String {
    let opened = world.resource::<Opened>();
    opened.scenario.as_ref().and_then(|s| s.units.get(unit)).map_or_else(|| format!("#{unit}"), |u| u.name.clone())
}

/// A friend's chance in words: a stack top or a lone unit's chance to fail
/// its check; another unit of a stack "then" its chance all told, with
/// its chance if it does check.
fn risk_words(r: &ContagionRisk) -> String {
    if r.after_top {
        format!("then {} ({})", pct(r.overall.fraction() as f32), pct(r.fails.fraction() as f32))
    } else {
        pct(r.fails.fraction() as f32)
    }
}

/// The labels of a preview, one per hex of friends: their chances, one
/// line each, in the order they would check.
pub fn risk_labels(p: &RoutPreview) -> Vec<(Offset, String)> {
    let mut out: Vec<(Offset, String)> = Vec::new();
    for r in &p.risks {
        match out.iter_mut().find(|(h, _)| *h == r.hex) {
            Some((_, text)) => {
                text.push('\n');
                text.push_str(&risk_words(r));
            }
            None => out.push((r.hex, risk_words(r))),
        }
    }
    out
}

/// How the move ends, in words.
fn end_words(p: &RoutPreview) -> String {
    let hexes = p.path.len().saturating_sub(1);
    match p.end {
        RoutEnd::Full => format!("runs {hexes} hexes to {}", p.path.last().map_or_else(String::new, |h| h.to_string())),
        RoutEnd::OffMap { edge, recovers } => format!(
            "runs {hexes} hexes and off the map by the {} edge: {}",
            format!("{edge:?}").to_lowercase(),
            if recovers { "it may recover there" } else { "eliminated" }
        ),
        RoutEnd::Surrender => "has no full rout move: it surrenders where it stands".into(),
    }
}

/// The legend's text for a preview.
pub fn legend_words(view: &RoutView, names: impl Fn(usize) -> String) -> Option<String> {
    let Some(shown) = &view.shown else {
        return view.on.then(|| "Rout preview (R): select a unit to see where it would run.".into());
    };
    let p = &shown.preview;
    let whose = match shown.why {
        Why::Selected => "selected; R hides it",
        Why::Target => "the target under the pointer",
        Why::Charged(_) => "the target under the pointer, as it will stand when the charge makes contact",
    };
    let mut out = format!("Rout preview of {} ({whose}): it {}.", shown.name, end_words(p));
    match p.risks.len() {
        0 => out += "\nIt passes no friend in good order.",
        n => {
            let friends = if n == 1 { "1 friend".to_owned() } else { format!("{n} friends") };
            out += &format!(
                "\nIt passes {friends} in good order; each label is a friend's chance to fail its contagion check."
            );
        }
    }
    if p.risks.iter().any(|r| r.after_top) {
        out += "\n\"then\": another unit of a stack checks only if the top one fails (its chance all told, and \
                if it checks).";
    }
    for r in p.risks.iter().take(8) {
        out += &format!("\n  {} at {}: {}", names(r.unit), r.hex, risk_words(r));
    }
    if p.risks.len() > 8 {
        out += &format!("\n  and {} more", p.risks.len() - 8);
    }
    out += "\nThe engine's own rout planner on the board as it stands; no dice rolled.";
    Some(out)
}

/// The legend sits at the foot of the panel column, off the map.
fn spawn_legend(mut commands: Commands) {
    commands.spawn((
        Legend,
        Node {
            position_type: PositionType::Absolute,
            right: Val::Px(0.0),
            bottom: Val::Px(0.0),
            width: Val::Px(PANEL_W),
            padding: UiRect::all(Val::Px(10.0)),
            display: Display::None,
            ..default()
        },
        BackgroundColor(theme::ROUT_PANEL),
        GlobalZIndex(2),
        children![(LegendText, theme::text("", 13.0, theme::TEXT_ROUT))],
    ));
}

/// The path's hexes, the friends' labels and the legend, spawned again
/// whenever the preview shown changes.
fn show_marks(
    mut commands: Commands,
    view: Res<RoutView>,
    opened: Res<Opened>,
    old: Query<Entity, Or<(With<RoutMark>, With<RiskLabel>)>>,
    mut legend: Query<&mut Node, With<Legend>>,
    mut text: Query<&mut Text, With<LegendText>>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    let names = |u: usize| {
        opened.scenario.as_ref().and_then(|s| s.units.get(u)).map_or_else(|| format!("#{u}"), |x| x.name.clone())
    };
    let words = legend_words(&view, names);
    if let Ok(mut node) = legend.single_mut() {
        node.display = if words.is_some() { Display::Flex } else { Display::None };
    }
    if let Ok(mut t) = text.single_mut() {
        t.0 = words.unwrap_or_default();
    }
    let Some(shown) = &view.shown else { return };
    let layout: Layout = opened.layout;
    let p = &shown.preview;
    for &hex in &p.path {
        commands.spawn((
            RoutMark { hex },
            Sprite::from_color(ROUT_PATH, Vec2::splat(9.0)),
            Transform::from_translation(layout.world(hex).extend(z::FLASH - 1.5))
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)),
            OnBattle,
        ));
    }
    let mut labels = risk_labels(p);
    let end_label = match p.end {
        RoutEnd::Full => None,
        RoutEnd::OffMap { recovers: true, .. } => Some("off the map: may recover"),
        RoutEnd::OffMap { recovers: false, .. } => Some("off the map: eliminated"),
        RoutEnd::Surrender => Some("surrenders"),
    };
    if let (Some(words), Some(&last)) = (end_label, p.path.last()) {
        labels.push((last, words.to_owned()));
    }
    for (hex, words) in labels {
        let lines = words.lines().count().max(1) as f32;
        let width = 10.0 + 6.5 * words.lines().map(str::len).max().unwrap_or(0) as f32;
        let at = layout.world(hex) + Vec2::new(0.0, -22.0 - 8.0 * lines);
        commands.spawn((
            RiskLabel { hex, text: words.clone() },
            Sprite::from_color(ROUT_LABEL, Vec2::new(width, 4.0 + 16.0 * lines)),
            Transform::from_translation(at.extend(z::FLASH - 1.0)),
            OnBattle,
            children![(
                Text2d::new(words),
                TextLayout::justify(Justify::Center),
                TextFont::from_font_size(13.0),
                TextColor(Color::WHITE),
                Transform::from_xyz(0.0, 0.0, 0.1)
            )],
        ));
    }
}

/// The hex just past `edge` from the edge hex `at`, where an off-map
/// rout's arrow points.
fn beyond(at: Offset, edge: Edge) -> Offset {
    match edge {
        Edge::North => Offset::new(at.c, at.r - 1),
        Edge::South => Offset::new(at.c, at.r + 1),
        Edge::West => Offset::new(at.c - 1, at.r),
        Edge::East => Offset::new(at.c + 1, at.r),
    }
}

/// The path as a cased line with an arrowhead, every frame; the end hex
/// ringed, a surrender crossed out.
fn draw_path(view: Res<RoutView>, opened: Res<Opened>, mut lines: ResMut<Lines>) {
    let Some(shown) = &view.shown else { return };
    let p = &shown.preview;
    let layout: Layout = opened.layout;
    let mut pts: Vec<Vec2> = p.path.iter().map(|&o| layout.world(o)).collect();
    if let (RoutEnd::OffMap { edge, .. }, Some(&last)) = (p.end, p.path.last()) {
        pts.push(layout.world(beyond(last, edge)));
    }
    let z = z::FLASH - 2.0;
    if let [.., a, b] = pts[..] {
        // The casing under the whole line, the arrowhead in the path's
        // colour only (a cased head would show dark barbs past it).
        lines.polyline(&pts, 8.0, ROUT_CASING, z);
        lines.polyline(&pts[..pts.len() - 1], 4.0, ROUT_PATH, z + 0.1);
        lines.arrow(a, b, 4.0, ROUT_PATH, z + 0.1);
    }
    match (p.end, pts.first()) {
        (RoutEnd::Full, _) => {
            if let Some(&end) = p.path.last() {
                lines.circle(layout.world(end), 26.0, 3.5, ROUT_PATH, z);
            }
        }
        (RoutEnd::Surrender, Some(&at)) => {
            for d in [Vec2::new(18.0, 18.0), Vec2::new(18.0, -18.0)] {
                lines.line(at - d, at + d, 5.0, ROUT_PATH, z);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;
