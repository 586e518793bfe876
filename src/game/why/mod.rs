//! The why view: select a unit that fell into disorder, routed, fled or
//! surrendered and press W (or its panel's button). The map dims, the
//! chain of events behind its fall (the cause graph, [`crate::why`]) is
//! drawn on the map as numbered steps with arrows from cause to effect, the
//! root marked, and a panel lists the chain in sentences; clicking a line
//! steps the playback to that event. It reads only the log as shown, so it
//! works alike while watching the AI, while playing and in replays.

pub mod picture;

use bevy::prelude::*;
use bevy::ui_widgets::Activate;

use super::cards::{self, SideColumn};
use super::input::MapPointer;
use super::lines::Lines;
use super::map::z;
use super::opened::Opened;
use super::playback::Playback;
use super::screen::{BAR_H, PANEL_W};
use super::sets::GameSet;
use super::shown::{ScenarioNames, Shown};
use super::state::battle_keys;
use super::theme::{self, button, label, pad, text};
use crate::events::{MoveReason, Pos};
use crate::hex::Offset;
use crate::why::{chain, fate_event};
use picture::{Link, Picture, picture};

/// The chain on show, if any, and what the view last had to say.
#[derive(Resource, Default)]
pub struct WhyView {
    /// The unit asked about (scenario index).
    pub unit: Option<usize>,
    pub picture: Option<Picture>,
    /// Why nothing is shown (a unit nothing befell, nothing selected).
    pub message: Option<String>,
}

/// Open the why view of a unit (`None`: close it).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AskWhy(pub Option<usize>);

/// The detail panel's "why?" button.
#[derive(Component)]
pub struct WhyButton;

/// The panel listing the chain.
#[derive(Component)]
struct WhyPanel;

/// A line of the panel: clicking it steps the playback to its event.
#[derive(Component)]
struct WhyLine(u64);

/// A step number drawn on the map.
#[derive(Component)]
struct WhyLabel;

/// The dimmed map under the chain.
#[derive(Component)]
struct Dim;

/// The why card's close button (as W).
#[derive(Component)]
struct WhyClose;

const STEP_Z: f32 = z::FLASH + 2.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<WhyView>().add_message::<AskWhy>();
    app.add_observer(activate);
    app.add_systems(Update, keys.in_set(GameSet::Input).run_if(battle_keys));
    app.add_systems(Update, (ask, forget_closed_battle).chain().after(GameSet::Input).before(GameSet::Playback));
    app.add_systems(Update, (rebuild, draw).chain().in_set(GameSet::Draw));
    app.add_systems(Update, (panel_button, mark_current).in_set(GameSet::Panels));
}

/// W: the selected unit's why view, or closes the one open.
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    pointer: Res<MapPointer>,
    view: Res<WhyView>,
    mut ask: MessageWriter<AskWhy>,
    turn: Option<ResMut<super::turn::PlayerTurn>>,
) {
    if !keys.just_pressed(KeyCode::KeyW) {
        return;
    }
    let open = view.picture.is_some() || view.message.is_some();
    if !open && pointer.selected.is_none() {
        // A key that does nothing says why.
        if let Some(mut t) = turn {
            t.say(super::turn::Notice::error("W: click a unit that broke first, then W tells why it did."));
        }
        return;
    }
    ask.write(AskWhy(if open { None } else { pointer.selected }));
}

fn activate(
    activate: On<Activate>,
    lines: Query<&WhyLine>,
    buttons: Query<(), With<WhyButton>>,
    closes: Query<(), With<WhyClose>>,
    pointer: Res<MapPointer>,
    mut pb: ResMut<Playback>,
    mut ask: MessageWriter<AskWhy>,
) {
    if let Ok(line) = lines.get(activate.entity) {
        // Shown up to and with that event.
        pb.seek_to(line.0 as usize + 1);
    }
    if buttons.get(activate.entity).is_ok() {
        ask.write(AskWhy(pointer.selected));
    }
    if closes.get(activate.entity).is_ok() {
        ask.write(AskWhy(None));
    }
}

/// Works out the asked chain from the log as shown so far.
fn ask(
    mut asked: MessageReader<AskWhy>,
    opened: Res<Opened>,
    shown: Res<Shown>,
    log: Option<Res<crate::sim::BattleLog>>,
    mut view: ResMut<WhyView>,
) {
    let Some(AskWhy(unit)) = asked.read().last().copied() else { return };
    *view = WhyView::default();
    let (Some(unit), Some(s), Some(log)) = (unit, opened.scenario.as_deref(), log) else {
        if unit.is_some() {
            view.message = Some("No battle to explain.".into());
        }
        return;
    };
    view.unit = Some(unit);
    let Some(spec) = s.units.get(unit) else { return };
    let events = &log.events[..shown.cursor.min(log.events.len())];
    let Some(chain) = fate_event(events, &spec.id, None).and_then(|seq| chain(events, seq)) else {
        view.message = Some(format!("Nothing has befallen {} so far: it has not broken.", spec.name));
        return;
    };
    view.picture = Some(picture(s, events, &chain, &ScenarioNames(s)));
}

/// A battle opened anew closes the view (its units are other units).
fn forget_closed_battle(opened: Res<Opened>, mut view: ResMut<WhyView>) {
    if opened.is_changed() && !opened.is_added() {
        *view = WhyView::default();
    }
}

fn link_colour(l: Link) -> Color {
    match l {
        Link::Contagion => theme::LINK_CONTAGION,
        Link::Fire => theme::LINK_FIRE,
        Link::Melee => theme::LINK_MELEE,
        Link::Stack => theme::LINK_STACK,
    }
}

fn path_colour(r: MoveReason) -> Color {
    match r {
        MoveReason::Rout | MoveReason::Flight | MoveReason::CarriedAlong => theme::PATH_ROUT,
        MoveReason::Disorder => theme::PATH_DISORDER,
        _ => theme::PATH_OTHER,
    }
}

/// A label's offset from its unit's centre, so that several steps of one
/// unit (check, change, move) sit side by side rather than on each other.
fn label_offset(k: usize) -> Vec2 {
    // Above the counter's top edge (half of 44, and its border), clear of
    // it and of the counter peeking out above in a stack.
    Vec2::new(-18.0 + 18.0 * (k % 3) as f32, 40.0 + 18.0 * (k / 3) as f32)
}

/// Respawns the dimming, the step numbers and the panel when the view changes.
fn rebuild(
    mut commands: Commands,
    view: Res<WhyView>,
    opened: Res<Opened>,
    old: Query<Entity, Or<(With<WhyPanel>, With<WhyLabel>, With<Dim>)>>,
    columns: Query<Entity, With<SideColumn>>,
) {
    // In the right-hand column, under the unit's details, where the
    // battle log stood (it steps aside while the view is open).
    let column = cards::column(&columns);
    if !view.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    if let Some(msg) = &view.message {
        spawn_panel(&mut commands, column, "Why?", &[], Some(msg));
        return;
    }
    let Some(p) = &view.picture else { return };
    // Over the whole map, with a margin: from the first hex to the last.
    let size = opened.layout.size();
    let (a, b) = (
        opened.layout.world(Offset::new(0, 0)),
        opened.layout.world(Offset::new(size.x as i32 - 1, size.y as i32 - 1)),
    );
    let (centre, extent) = ((a + b) / 2.0, (b - a).abs() + Vec2::splat(400.0));
    commands.spawn((
        Dim,
        Sprite::from_color(theme::DIM, extent),
        Transform::from_translation(centre.extend(z::COUNTER - 0.5)),
    ));
    // Steps of one unit at one place share a corner of its counter.
    let mut seen: Vec<(Pos, usize)> = Vec::new();
    for step in &p.steps {
        let Some(at) = step.at else { continue };
        let k = match seen.iter_mut().find(|(q, _)| *q == at) {
            Some((_, n)) => {
                *n += 1;
                *n - 1
            }
            None => {
                seen.push((at, 1));
                0
            }
        };
        let c = opened.layout.at(&at) + label_offset(k);
        let colour = if step.root { theme::GOLD } else { Color::WHITE };
        commands.spawn((
            WhyLabel,
            Sprite::from_color(theme::STEP_LABEL, Vec2::new(17.0, 17.0)),
            Transform::from_xyz(c.x, c.y, STEP_Z + 1.0),
            children![(
                Text2d::new(step.number.to_string()),
                TextFont::from_font_size(13.0),
                TextColor(colour),
                Transform::from_xyz(0.0, 0.0, 0.1),
            )],
        ));
    }
    let unit = view.unit.and_then(|u| opened.scenario.as_ref().and_then(|s| s.units.get(u)));
    let title = unit.map_or_else(|| "Why?".to_owned(), |u| format!("Why did {} break?", u.name));
    let lines: Vec<(u64, String)> = p
        .steps
        .iter()
        .map(|s| {
            let mark = if s.root { "root" } else { "    " };
            (s.seq, format!("{:>2}. {mark}  {}", s.number, s.text))
        })
        .collect();
    spawn_panel(&mut commands, column, &title, &lines, None);
}

fn spawn_panel(
    commands: &mut Commands,
    column: Option<Entity>,
    title: &str,
    lines: &[(u64, String)],
    message: Option<&str>,
) {
    let root = commands.spawn((WhyPanel, cards::card(theme::WHY_PANEL))).id();
    match column {
        Some(parent) => {
            commands.entity(root).insert(ChildOf(parent));
        }
        // No side panel (an app without one): a card of its own.
        None => {
            commands.entity(root).insert((
                Node {
                    position_type: PositionType::Absolute,
                    right: Val::Px(0.0),
                    top: Val::Px(BAR_H),
                    bottom: Val::Px(0.0),
                    width: Val::Px(PANEL_W),
                    ..cards::card_node()
                },
                GlobalZIndex(3),
            ));
        }
    }
    cards::title_row(commands, root, title.to_owned(), WhyClose, "Close (W)");
    if !lines.is_empty() {
        commands.entity(root).with_child((
            text(
                format!("The chain from its roots, {} events: click a line to step there.", lines.len()),
                12.0,
                theme::TEXT_HINT,
            ),
            Node { width: Val::Percent(100.0), ..default() },
        ));
    }
    if let Some(m) = message {
        commands.entity(root).with_child((label(m, 13.0), Node { width: Val::Percent(100.0), ..default() }));
    }
    for (seq, words) in lines {
        commands.entity(root).with_child((
            WhyLine(*seq),
            button(words.clone(), 12.0, theme::LINE, Node { width: Val::Percent(100.0), ..pad(6.0, 1.0) }),
        ));
    }
}

/// The chain's moves, arrows from cause to effect, and rings on the root
/// (gold) and the unit asked about (magenta), every frame.
fn draw(view: Res<WhyView>, opened: Res<Opened>, shown: Res<Shown>, mut lines: ResMut<Lines>) {
    let Some(p) = &view.picture else { return };
    let layout = opened.layout;
    for (path, reason, _) in &p.paths {
        let pts: Vec<Vec2> = path.iter().map(|q| layout.at(q)).collect();
        let colour = path_colour(*reason);
        lines.polyline(&pts[..pts.len() - 1], 4.0, colour, STEP_Z);
        lines.arrow(pts[pts.len() - 2], pts[pts.len() - 1], 4.0, colour, STEP_Z);
    }
    for a in &p.arrows {
        let (from, to) = (layout.at(&a.from), layout.at(&a.to));
        let colour = link_colour(a.link);
        if from.distance(to) < 1.0 {
            // Within one hex (a stack): a loop on the counter.
            lines.circle(to + Vec2::new(22.0, 0.0), 10.0, 3.0, colour, STEP_Z);
        } else {
            lines.arrow(from, to, 3.5, colour, STEP_Z);
        }
    }
    for s in &p.steps {
        let Some(at) = s.at else { continue };
        let c = layout.at(&at);
        if s.root {
            lines.circle(c, 30.0, 3.0, theme::GOLD, STEP_Z);
            lines.circle(c, 35.0, 2.0, theme::GOLD, STEP_Z);
        }
    }
    // The unit asked about, on its counter where it stands now (it may
    // have routed far from where it fell); where it fell if it has left.
    let now = view.unit.and_then(|u| shown.units.get(u)).filter(|u| !u.gone).and_then(|u| u.pos());
    let fell = p.steps.iter().find(|s| s.seq == p.target).and_then(|s| s.at);
    if let Some(at) = now.or(fell) {
        lines.circle(layout.at(&at), 30.0, 3.5, theme::WHY_TARGET, STEP_Z);
    }
}

/// The detail panel's button shows for a unit whose fall can be explained.
fn panel_button(pointer: Res<MapPointer>, shown: Res<Shown>, mut q: Query<&mut Node, With<WhyButton>>) {
    use crate::vocab::State;
    let fallen = pointer
        .selected
        .and_then(|u| shown.units.get(u))
        .is_some_and(|u| u.gone || !matches!(u.state, State::GoodOrder | State::Order));
    for mut node in &mut q {
        let want = if fallen { Display::Flex } else { Display::None };
        if node.display != want {
            node.display = want;
        }
    }
}

/// Lines of events not yet shown are dimmed; the latest shown is marked.
fn mark_current(
    shown: Res<Shown>,
    lines: Query<(&WhyLine, &Children)>,
    mut texts: Query<&mut TextColor>,
    mut backs: Query<(&WhyLine, &mut BackgroundColor)>,
) {
    let now = shown.cursor as u64;
    let current = lines.iter().map(|(l, _)| l.0).filter(|&s| s < now).max();
    for (line, children) in &lines {
        let colour = if line.0 < now { theme::TEXT_BODY } else { theme::TEXT_LATER };
        for &c in children {
            if let Ok(mut t) = texts.get_mut(c) {
                t.0 = colour;
            }
        }
    }
    for (line, mut back) in &mut backs {
        let a = if Some(line.0) == current { 0.9 } else { 0.0 };
        back.0 = theme::LINE_CURRENT.with_alpha(a);
    }
}

#[cfg(test)]
mod tests;
