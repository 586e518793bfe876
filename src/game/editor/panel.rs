//! The editor's panels: the palette on the left (terrains, brush sizes,
//! hexside features, units of each side and arm, objectives, select, and
//! undo, redo, save, playtest), and on the right the file's state, the
//! selected unit's fields, and the checker's problems, each a line that
//! goes to its place on the map when clicked.

use bevy::prelude::*;
use bevy::ui_widgets::Activate;

use super::{Editor, PALETTE_W, Tool, UnitAct, toggle_playtest};
use crate::edit::forces::Spot;
use crate::edit::paint::Brush;
use crate::edit::places;
use crate::game::screen::{BAR_H, MainCamera, bar_node, side_panel_node};
use crate::game::sets::GameSet;
use crate::game::state::Screen;
use crate::game::theme::{self, button, inked_button, label, pad, text};
use crate::scenario::Mode;
use crate::terrain::{Arm, HexsideKind, Terrain};

/// What a palette button does.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub enum Pick {
    Tool(Tool),
    Brush(Brush),
    Undo,
    Redo,
    Save,
    Playtest,
    /// A side's rear edge, or who plays it, turned to the next.
    Rear(usize),
    Control(usize),
    /// The free-space cell one cm larger or smaller.
    Cell(bool),
    /// Who sits at the window for a playtest, the next seats.
    Seats,
}

/// A morale of the d66 grid: clicking it gives the selected unit that
/// morale.
#[derive(Component)]
pub struct MoralePick(pub i64);

/// The d66 grid of the selected unit's morale.
#[derive(Component)]
struct MoraleGrid;

/// A button of the selected unit's form.
#[derive(Component)]
pub struct FieldButton(pub UnitAct);

/// The form's buttons for a unit of `mode`, with their labels.
pub fn form(mode: Mode, arm: crate::terrain::Arm) -> Vec<(UnitAct, &'static str)> {
    let mut out = vec![
        (UnitAct::Side, "side"),
        (UnitAct::Arm, "arm"),
        (UnitAct::State, "state"),
        (UnitAct::Formation, "formation"),
        (UnitAct::Weaker, if mode == Mode::Hex { "strength -" } else { "figures -" }),
        (UnitAct::Stronger, if mode == Mode::Hex { "strength +" } else { "figures +" }),
        (UnitAct::TurnLeft, "turn left"),
        (UnitAct::TurnRight, "turn right"),
        (UnitAct::Shock, "shock"),
        (UnitAct::LaterShock, "shock later"),
    ];
    if mode == Mode::Hex {
        out.push((UnitAct::Leader, "leader"));
    } else {
        out.extend([(UnitAct::MoraleDown, "valour -"), (UnitAct::MoraleUp, "valour +")]);
        if arm == crate::terrain::Arm::Artillery {
            out.extend([(UnitAct::Limbered, "limbered"), (UnitAct::Horse, "horse")]);
        }
    }
    out.push((UnitAct::Delete, "delete"));
    out
}

/// A problem's line: clicking it goes to its place.
#[derive(Component)]
struct ProblemLine(usize);

/// How many problem and warning lines the panel shows (for the tests).
#[cfg(test)]
pub fn problem_lines(world: &mut World) -> usize {
    world.query_filtered::<(), With<ProblemLine>>().iter(world).count()
}

#[derive(Component)]
struct Palette;
#[derive(Component)]
struct TopText;
#[derive(Component)]
struct Side;
/// The name field: the selected unit's name, or the scenario's with no
/// unit selected; Enter keeps what was typed.
#[derive(Component)]
pub struct NameField;
/// Whose name the field shows: a unit's id, or `None` for the scenario.
#[derive(Component, Default, PartialEq)]
struct NameOf(Option<String>);
#[derive(Component)]
struct SideText;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Editor), spawn);
    app.add_systems(
        Update,
        (name_field, side_panel, palette_marks).chain().in_set(GameSet::Panels).run_if(in_state(Screen::Editor)),
    );
    app.add_observer(activate);
}

/// The palette's buttons, in order, with their labels; what the file's
/// mode offers.
pub fn palette(mode: Mode) -> Vec<(Pick, String)> {
    let mut out: Vec<(Pick, String)> =
        Terrain::ALL.iter().map(|&t| (Pick::Tool(Tool::Terrain(t)), format!("{t:?}"))).collect();
    out.extend([
        (Pick::Brush(Brush::One), "brush: 1".to_owned()),
        (Pick::Brush(Brush::Radius(1)), "brush: r1".to_owned()),
        (Pick::Brush(Brush::Radius(2)), "brush: r2".to_owned()),
        (Pick::Brush(Brush::Radius(3)), "brush: r3".to_owned()),
        (Pick::Brush(Brush::Fill), "brush: fill".to_owned()),
    ]);
    if mode == Mode::Hex {
        out.extend([
            (Pick::Tool(Tool::Hexside(Some(HexsideKind::Stream))), "stream (edge)".to_owned()),
            (Pick::Tool(Tool::Hexside(Some(HexsideKind::Slope))), "slope (edge)".to_owned()),
            (Pick::Tool(Tool::Hexside(None)), "clear edge".to_owned()),
        ]);
    }
    for side in 0..2 {
        for arm in [Arm::Infantry, Arm::Cavalry, Arm::Artillery] {
            out.push((Pick::Tool(Tool::Unit { side, arm }), format!("side {} {arm:?}", side + 1)));
        }
    }
    if mode == Mode::Hex {
        out.extend([
            (Pick::Tool(Tool::Objective), "objective".to_owned()),
            (Pick::Tool(Tool::Corps), "corps member".to_owned()),
            (Pick::Tool(Tool::Exit { side: 0 }), "side 1 exit".to_owned()),
            (Pick::Tool(Tool::Exit { side: 1 }), "side 2 exit".to_owned()),
        ]);
    } else {
        out.extend([
            (Pick::Tool(Tool::Staff { side: 0 }), "side 1 staff".to_owned()),
            (Pick::Tool(Tool::Staff { side: 1 }), "side 2 staff".to_owned()),
            (Pick::Cell(true), "cell +1 cm".to_owned()),
            (Pick::Cell(false), "cell -1 cm".to_owned()),
        ]);
    }
    for side in 0..2 {
        out.push((Pick::Rear(side), format!("side {} rear", side + 1)));
        out.push((Pick::Control(side), format!("side {} plays", side + 1)));
    }
    out.extend([
        (Pick::Tool(Tool::Select), "select unit".to_owned()),
        (Pick::Undo, "undo (Ctrl+Z)".to_owned()),
        (Pick::Redo, "redo (Ctrl+Y)".to_owned()),
        (Pick::Save, "save (Ctrl+S)".to_owned()),
        (Pick::Seats, "seats for F8".to_owned()),
        (Pick::Playtest, "playtest (F8)".to_owned()),
    ]);
    out
}

fn spawn(mut commands: Commands, editor: Option<Res<Editor>>) {
    let Some(e) = editor else { return };
    // Over the battle's bar, which has no battle to tell of.
    commands.spawn((
        DespawnOnExit(Screen::Editor),
        bar_node(),
        BackgroundColor(theme::EDITOR_PANEL),
        GlobalZIndex(4),
        children![(TopText, text("", 15.0, theme::TEXT_BAR))],
    ));
    commands
        .spawn((
            Palette,
            DespawnOnExit(Screen::Editor),
            Node {
                position_type: PositionType::Absolute,
                left: Val::Px(0.0),
                top: Val::Px(BAR_H),
                width: Val::Px(PALETTE_W),
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(Val::Px(4.0)),
                row_gap: Val::Px(1.0),
                ..default()
            },
            BackgroundColor(theme::PALETTE),
            GlobalZIndex(4),
        ))
        .with_children(|p| {
            for (pick, label) in palette(e.file().mode) {
                p.spawn((pick, button(label, 11.0, theme::PALETTE_BUTTON, pad(5.0, 0.0))));
            }
        });
    commands
        .spawn((
            Side,
            DespawnOnExit(Screen::Editor),
            side_panel_node(8.0, 2.0),
            BackgroundColor(theme::EDITOR_PANEL),
            GlobalZIndex(4),
        ))
        .with_children(|p| {
            p.spawn(label("Name (click, type, Enter):", 12.0));
            p.spawn((
                NameField,
                NameOf::default(),
                Node {
                    padding: UiRect::axes(Val::Px(4.0), Val::Px(2.0)),
                    border: UiRect::all(Val::Px(1.0)),
                    ..default()
                },
                BorderColor::all(theme::FIELD_BORDER),
                BackgroundColor(theme::FIELD),
                bevy::text::EditableText { allow_newlines: false, ..default() },
                TextLayout::no_wrap(),
                TextFont::from_font_size(14.0),
                bevy::text::TextCursorStyle::default(),
            ));
            p.spawn((SideText, label("", 13.0)));
        });
}

/// The name field follows the selection (unless it is being typed in),
/// and Enter gives the unit, or the scenario, the name typed.
fn name_field(
    editor: Option<ResMut<Editor>>,
    mut focus: Option<ResMut<bevy::input_focus::InputFocus>>,
    keys: Res<ButtonInput<KeyCode>>,
    mut field: Query<(Entity, &mut bevy::text::EditableText, &mut NameOf), With<NameField>>,
) {
    let (Some(mut e), Ok((entity, mut text, mut of))) = (editor, field.single_mut()) else { return };
    let typing = focus.as_ref().and_then(|f| f.get()) == Some(entity);
    // Enter keeps the name, Esc leaves it as it was; either gives the
    // keys back to the editor.
    if typing
        && (keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::Escape))
        && let Some(f) = focus.as_mut()
    {
        f.clear();
    }
    if typing && keys.just_pressed(KeyCode::Escape) {
        e.set_changed();
        return;
    }
    if typing && keys.just_pressed(KeyCode::Enter) {
        let typed = text.value().to_string().trim().to_owned();
        match &of.0 {
            Some(id) => {
                let id = id.clone();
                if let Some(mut u) = e.file().units.iter().find(|u| u.id == id).cloned() {
                    u.name = (!typed.is_empty()).then(|| typed.clone());
                    let r = e.edit(|f| crate::edit::forces::update(f, &id, u));
                    e.message = match r {
                        Ok(()) => format!("{id} is named {typed:?}."),
                        Err(err) => format!("Cannot rename: {err}"),
                    };
                }
            }
            None => {
                e.edit(|f| f.name.clone_from(&typed));
                e.message = format!("The scenario is named {typed:?}.");
            }
        }
        return;
    }
    if (typing && !keys.just_pressed(KeyCode::Escape)) || !e.is_changed() {
        return;
    }
    let want = NameOf(e.selected.clone());
    let name = match &want.0 {
        Some(id) => e.file().units.iter().find(|u| u.id == *id).and_then(|u| u.name.clone()).unwrap_or_default(),
        None => e.file().name.clone(),
    };
    if *of != want || text.value() != name.as_str() {
        text.editor_mut().set_text(&name);
        *of = want;
    }
}

/// What the right-hand panel says: the file, the tool, the last message,
/// the selected unit's fields, and how many problems there are.
pub fn side_words(e: &Editor) -> String {
    let f = e.file();
    let tool = match e.tool {
        Tool::Terrain(t) => format!("paint {t:?}, brush {:?}", e.brush),
        Tool::Hexside(k) => format!("hexside {}", k.map_or("cleared".into(), |k| format!("{k:?}"))),
        Tool::Unit { side, arm } => {
            format!("place {arm:?} of {}", f.sides.get(side).map_or("?", |s| s.name.as_deref().unwrap_or(&s.id)))
        }
        Tool::Objective => "objectives".into(),
        Tool::Select => "select".into(),
        Tool::Corps => format!("corps members ({})", e.corps.as_deref().unwrap_or("a new corps")),
        Tool::Exit { side } => format!("exits of side {} (click near an edge)", side + 1),
        Tool::Staff { side } => format!("staff figures of side {}", side + 1),
    };
    let saved = match e.editing.unsaved {
        _ if !e.path.exists() => "not saved yet".to_owned(),
        0 => "saved".to_owned(),
        1 => "1 edit unsaved".to_owned(),
        n => format!("{n} edits unsaved"),
    };
    let mut out = format!(
        "Editor: {} ({saved})\n{}, {} mode, {} units\nTool: {tool}\n{}\n",
        e.path.display(),
        f.name,
        if f.mode == Mode::Hex { "hex" } else { "free-space" },
        f.units.len(),
        e.message
    );
    for (i, sd) in f.sides.iter().enumerate() {
        let exits: Vec<String> = f.exits.iter().filter(|x| x.side == sd.id).map(|x| format!("{:?}", x.edge)).collect();
        out += &format!(
            "Side {} {}: rear {}, {:?}{}{}\n",
            i + 1,
            sd.name.as_deref().unwrap_or(&sd.id),
            sd.rear.map_or("default".into(), |r| format!("{r:?}")),
            sd.control,
            sd.aggression.map_or(String::new(), |a| format!(", aggression {a:.1}")),
            if exits.is_empty() { String::new() } else { format!(", exits {}", exits.join(" ")) }
        );
    }
    if !f.corps.is_empty() {
        let corps: Vec<String> = f.corps.iter().map(|c| format!("{} ({})", c.id, c.units.len())).collect();
        out += &format!("Corps: {}\n", corps.join(", "));
    }
    if let Some(u) = e.selected.as_ref().and_then(|id| f.units.iter().find(|u| u.id == *id)) {
        let named = u.name.as_deref().map_or_else(String::new, |n| format!(" \"{n}\""));
        out += &format!("\nSelected: {}{named} ({}), {:?}", u.id, u.side, u.arm);
        if let Some(m) = u.morale {
            out += &format!(", morale {m} (+/-)");
        }
        if let Some(s) = u.strength {
            out += &format!(", strength {s}");
        }
        if let Some(v) = u.valour {
            out += &format!(", valour {v:+} (+/-)");
        }
        if let Some(n) = u.figures {
            out += &format!(", {n} figures");
        }
        if let Some(fc) = u.facing {
            out += &format!(", facing {fc:?}");
        }
        if let Some(st) = u.state {
            out += &format!(", starts {st:?}");
        }
        if let Some(fm) = u.formation {
            out += &format!(", {fm:?}");
        }
        if u.limbered == Some(true) {
            out += ", limbered";
        }
        if u.horse == Some(true) {
            out += ", horse";
        }
        let shocks: Vec<String> =
            f.shocks.iter().filter(|s| s.unit == u.id).map(|s| format!("turn {}", s.turn)).collect();
        if !shocks.is_empty() {
            out += &format!(", shocked {}", shocks.join(", "));
        }
        if f.leaders.iter().any(|l| l.with == u.id) {
            out += ", a leader with it";
        }
        out += "\nT / Shift+T turn, M+click moves, Ctrl+D copies to the hex pointed at, Delete deletes; [ ] strength, \
                S state, F formation, L limbered, H horse, K a turn-1 shock, J a leader.\n";
    }
    out += &match (e.problems.len(), e.warnings.len()) {
        (0, 0) => "\nNo problems: F8 plays it.".to_owned(),
        (0, n) => {
            format!("\nNo problems: F8 plays it. {n} warnings (as sauve check gives them); click one to go there:")
        }
        (1, _) => "\n1 problem (it can be saved, not played); click it to go there:".to_owned(),
        (n, _) => format!("\n{n} problems (it can be saved, not played); click one to go there:"),
    };
    out
}

/// Rewrites the right-hand panel when the editor changes.
fn side_panel(
    mut commands: Commands,
    editor: Option<Res<Editor>>,
    side: Query<Entity, With<Side>>,
    mut text: Query<&mut Text, (With<SideText>, Without<TopText>)>,
    mut top: Query<&mut Text, (With<TopText>, Without<SideText>)>,
    lines: Query<Entity, With<ProblemLine>>,
    grids: Query<Entity, With<MoraleGrid>>,
    fresh: Query<(), Added<Side>>,
) {
    // After every edit, and when the panel has just been spawned.
    let Some(e) = editor.filter(|e| e.is_changed() || !fresh.is_empty()) else { return };
    if let Ok(mut t) = top.single_mut() {
        t.0 = format!(
            "Scenario editor: {}    Ctrl+Z undo, Ctrl+Y redo, Ctrl+S save, F8 playtest, Home fits the map",
            e.file().name
        );
    }
    if let Ok(mut t) = text.single_mut() {
        t.0 = side_words(&e);
    }
    for l in &lines {
        commands.entity(l).despawn();
    }
    let Ok(side) = side.single() else { return };
    for g in &grids {
        commands.entity(g).despawn();
    }
    let unit = e.selected.as_ref().and_then(|id| e.file().units.iter().find(|u| u.id == *id));
    if let Some(u) = unit {
        let row = commands
            .spawn((
                MoraleGrid,
                Node { flex_wrap: FlexWrap::Wrap, column_gap: Val::Px(3.0), row_gap: Val::Px(3.0), ..default() },
                ChildOf(side),
            ))
            .id();
        for (act, label) in form(e.file().mode, u.arm) {
            commands.entity(row).with_child((FieldButton(act), button(label, 12.0, theme::BUTTON, pad(5.0, 1.0))));
        }
    }
    let morale = unit.and_then(|u| u.morale);
    if let Some(now) = morale.filter(|_| e.file().mode == Mode::Hex) {
        let grid = commands
            .spawn((
                MoraleGrid,
                Node { flex_direction: FlexDirection::Column, row_gap: Val::Px(2.0), ..default() },
                ChildOf(side),
            ))
            .id();
        commands.entity(grid).with_child(label("Morale (d66; a check passes above it):", 12.0));
        for t in 1..=6 {
            let row = commands.spawn((Node { column_gap: Val::Px(3.0), ..default() }, ChildOf(grid))).id();
            for u in 1..=6 {
                let v = t * 10 + u;
                let colour = if v == now { theme::MORALE_NOW } else { theme::BUTTON };
                commands.entity(row).with_child((
                    MoralePick(v),
                    button(
                        v.to_string(),
                        12.0,
                        colour,
                        Node { width: Val::Px(34.0), justify_content: JustifyContent::Center, ..default() },
                    ),
                ));
            }
        }
    }
    for (i, p) in e.problems.iter().chain(&e.warnings).enumerate().take(20) {
        let at = p.at.map_or_else(String::new, |at| format!("line {at}: "));
        let (back, ink) = if i < e.problems.len() {
            (theme::PROBLEM_LINE, theme::TEXT_PROBLEM)
        } else {
            (theme::WARNING_LINE, theme::TEXT_WARNING)
        };
        commands
            .entity(side)
            .with_child((ProblemLine(i), inked_button(format!("{at}{p}"), 12.0, back, ink, pad(4.0, 1.0))));
    }
}

/// The palette's chosen tool and brush stand out.
fn palette_marks(
    editor: Option<Res<Editor>>,
    mut buttons: Query<(&Pick, &mut BackgroundColor)>,
    fresh: Query<(), Added<Pick>>,
) {
    let Some(e) = editor.filter(|e| e.is_changed() || !fresh.is_empty()) else { return };
    for (pick, mut bg) in &mut buttons {
        let on = match pick {
            Pick::Tool(t) => *t == e.tool,
            Pick::Brush(b) => *b == e.brush,
            _ => false,
        };
        bg.0 = if on { theme::PALETTE_BUTTON_ON } else { theme::PALETTE_BUTTON };
    }
}

/// A palette button or a problem's line clicked.
fn activate(
    activate: On<Activate>,
    picks: Query<&Pick>,
    problems: Query<&ProblemLine>,
    editor: Option<ResMut<Editor>>,
    opened: Res<crate::game::opened::Opened>,
    mut cam: Query<&mut Transform, With<MainCamera>>,
    morale: Query<&MoralePick>,
    mut seats: ResMut<crate::game::seats::Seats>,
    fields: Query<&FieldButton>,
    mut commands: Commands,
) {
    let Some(mut e) = editor else { return };
    if let Ok(b) = fields.get(activate.entity) {
        e.unit_act(b.0);
        return;
    }
    if let (Ok(m), Some(id)) = (morale.get(activate.entity), e.selected.clone()) {
        let v = m.0;
        let r = e.edit(|f| crate::edit::forces::set_morale(f, &id, v));
        e.message = match r {
            Ok(()) => format!("{id}: morale {v}."),
            Err(err) => format!("Cannot: {err}"),
        };
        return;
    }
    if let Ok(pick) = picks.get(activate.entity) {
        match *pick {
            Pick::Tool(t) => e.tool = t,
            Pick::Brush(b) => e.brush = b,
            Pick::Undo => {
                e.message = if e.undo() { "Undone." } else { "Nothing to undo." }.into();
            }
            Pick::Redo => {
                e.message = if e.redo() { "Redone." } else { "Nothing to redo." }.into();
            }
            Pick::Save => {
                e.message = e.save_words(false);
            }
            Pick::Cell(up) => {
                let cm = e.edit(|f| crate::edit::paint::step_cell_cm(&mut f.map, up));
                e.message = format!("Cells of {cm} cm.");
            }
            Pick::Seats => {
                let next = seats.next();
                *seats = next;
                e.message = format!("A playtest seats: {}.", next.words());
            }
            Pick::Playtest => {
                // The same as F8.
                commands.queue(toggle_playtest);
            }
            Pick::Rear(side) => {
                let r = e.edit(|f| crate::edit::sides::cycle_rear(f, side));
                e.message = r.map_or("No other edge is free.".into(), |r| format!("Side {}'s rear: {r:?}.", side + 1));
            }
            Pick::Control(side) => {
                let c = e.edit(|f| crate::edit::sides::cycle_control(f, side));
                e.message = c.map_or("No such side.".into(), |c| format!("Side {} is played by: {c:?}.", side + 1));
            }
        }
    }
    if let Ok(line) = problems.get(activate.entity) {
        let Some(p) = e.problems.iter().chain(&e.warnings).nth(line.0).cloned() else { return };
        let spot = p.path.as_deref().and_then(|path| places::spot_of(e.file(), path));
        let Some(spot) = spot else {
            e.message = format!("{p} (not about a place on the map)");
            return;
        };
        if p.path.as_deref().is_some_and(|x| x.starts_with("units[")) {
            e.selected = p
                .path
                .as_deref()
                .and_then(|x| x.strip_prefix("units[")?.split(']').next()?.parse::<usize>().ok())
                .and_then(|i| e.file().units.get(i).map(|u| u.id.clone()));
        }
        let layout = opened.layout;
        let at = match spot {
            Spot::Hex(o) => layout.world(o),
            Spot::Cm(x, y) => layout.table_world(x, y),
        };
        if let Ok(mut t) = cam.single_mut() {
            t.translation = at.extend(t.translation.z);
        }
        e.message = format!("{p}");
    }
}
