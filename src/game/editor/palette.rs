//! The editor's palette, a column on the left that scrolls: the ground to
//! paint and the brush and shape it is laid with, streams and slopes, a
//! unit of each side and arm, objectives, corps, exits and staff, the
//! select and region tools, and undo, redo, save, open and playtest.

use bevy::prelude::*;
use bevy::ui_widgets::Activate;

use super::draw::PALETTE_W;
use super::model::{Editor, Shape, Tool};
use super::playtest::toggle_playtest;
use crate::edit::paint::Brush;
use crate::game::screen::BAR_H;
use crate::game::scroll::Scrolls;
use crate::game::sets::GameSet;
use crate::game::state::Screen;
use crate::game::theme::{self, button, pad, text};
use crate::scenario::Mode;
use crate::terrain::{Arm, HexsideKind, Terrain};

/// What a palette button does.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub enum Pick {
    Tool(Tool),
    Brush(Brush),
    Shape(Shape),
    Undo,
    Redo,
    Save,
    Open,
    Playtest,
    Copy,
    Paste,
    /// The table's snapping grid, the next one.
    Snap,
    /// Who sits at the window for a playtest, the next seats.
    Seats,
}

#[derive(Component)]
pub(super) struct Palette;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Editor), spawn);
    app.add_systems(Update, marks.in_set(GameSet::Panels).run_if(in_state(Screen::Editor)));
    app.add_observer(activate);
}

/// The palette's sections: a heading and its buttons, with their labels;
/// what the file's mode offers.
pub fn sections(e: &Editor) -> Vec<(String, Vec<(Pick, String)>)> {
    let hex = e.file().mode == Mode::Hex;
    let mut out = vec![
        ("Ground".to_owned(), Terrain::ALL.iter().map(|&t| (Pick::Tool(Tool::Terrain(t)), format!("{t:?}"))).collect()),
        (
            "Brush".to_owned(),
            vec![
                (Pick::Brush(Brush::One), "1".to_owned()),
                (Pick::Brush(Brush::Radius(1)), "r1".to_owned()),
                (Pick::Brush(Brush::Radius(2)), "r2".to_owned()),
                (Pick::Brush(Brush::Radius(3)), "r3".to_owned()),
                (Pick::Brush(Brush::Fill), "fill".to_owned()),
            ],
        ),
        (
            "Lay it".to_owned(),
            vec![
                (Pick::Shape(Shape::Free), "drag".to_owned()),
                (Pick::Shape(Shape::Line), "line".to_owned()),
                (Pick::Shape(Shape::Rect), "rect".to_owned()),
            ],
        ),
    ];
    if hex {
        out.push((
            "Hex edges".to_owned(),
            vec![
                (Pick::Tool(Tool::Hexside(Some(HexsideKind::Stream))), "stream".to_owned()),
                (Pick::Tool(Tool::Hexside(Some(HexsideKind::Slope))), "slope".to_owned()),
                (Pick::Tool(Tool::Hexside(None)), "clear".to_owned()),
            ],
        ));
    }
    for side in 0..2 {
        let name: String = e.side_name(side).chars().take(14).collect();
        let arms = [(Arm::Infantry, "Inf"), (Arm::Cavalry, "Cav"), (Arm::Artillery, "Art")];
        let units = arms.iter().map(|&(arm, w)| (Pick::Tool(Tool::Unit { side, arm }), w.to_owned())).collect();
        out.push((format!("Units: {name}"), units));
    }
    let mut places = vec![(Pick::Tool(Tool::Objective), "objective".to_owned())];
    if hex {
        places.extend([
            (Pick::Tool(Tool::Corps), "corps".to_owned()),
            (Pick::Tool(Tool::Exit { side: 0 }), "exit 1".to_owned()),
            (Pick::Tool(Tool::Exit { side: 1 }), "exit 2".to_owned()),
        ]);
    } else {
        places.extend([
            (Pick::Tool(Tool::Staff { side: 0 }), "staff 1".to_owned()),
            (Pick::Tool(Tool::Staff { side: 1 }), "staff 2".to_owned()),
        ]);
    }
    out.push(("Places".to_owned(), places));
    let mut tools = vec![
        (Pick::Tool(Tool::Select), "select".to_owned()),
        (Pick::Tool(Tool::Region), "region".to_owned()),
        (Pick::Copy, "copy".to_owned()),
        (Pick::Paste, "paste".to_owned()),
    ];
    if !hex {
        tools.push((Pick::Snap, snap_words(e.snap)));
    }
    out.push(("Pick".to_owned(), tools));
    out.push((
        "File".to_owned(),
        vec![
            (Pick::Undo, "undo".to_owned()),
            (Pick::Redo, "redo".to_owned()),
            (Pick::Save, "save".to_owned()),
            (Pick::Open, "open".to_owned()),
            (Pick::Seats, "seats".to_owned()),
            (Pick::Playtest, "playtest".to_owned()),
        ],
    ));
    out
}

fn snap_words(snap: f32) -> String {
    if snap > 0.0 { format!("snap {snap} cm") } else { "snap off".to_owned() }
}

/// Every button of the palette, in order (for the tests).
#[cfg(test)]
pub fn palette(e: &Editor) -> Vec<(Pick, String)> {
    sections(e).into_iter().flat_map(|(_, b)| b).collect()
}

/// The palette, spawned anew whenever the editor opens (its sides' names
/// and the file's mode decide its buttons).
pub(super) fn spawn(mut commands: Commands, editor: Option<Res<Editor>>, old: Query<Entity, With<Palette>>) {
    let Some(e) = editor else { return };
    for o in &old {
        commands.entity(o).despawn();
    }
    commands
        .spawn((
            Palette,
            Scrolls,
            DespawnOnExit(Screen::Editor),
            Node {
                position_type: PositionType::Absolute,
                left: Val::Px(0.0),
                top: Val::Px(BAR_H),
                bottom: Val::Px(0.0),
                width: Val::Px(PALETTE_W),
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(Val::Px(4.0)),
                row_gap: Val::Px(2.0),
                overflow: Overflow::scroll_y(),
                ..default()
            },
            ScrollPosition::default(),
            BackgroundColor(theme::PALETTE),
            GlobalZIndex(4),
        ))
        .with_children(|p| {
            for (heading, buttons) in sections(&e) {
                p.spawn(text(heading, 11.0, theme::TEXT_HEADING));
                p.spawn(Node {
                    flex_wrap: FlexWrap::Wrap,
                    column_gap: Val::Px(2.0),
                    row_gap: Val::Px(2.0),
                    ..default()
                })
                .with_children(|row| {
                    for (pick, label) in buttons {
                        let wide = matches!(pick, Pick::Tool(Tool::Terrain(_)) | Pick::Snap);
                        let width = if wide { Val::Px(59.0) } else { Val::Auto };
                        row.spawn((pick, button(label, 11.0, theme::PALETTE_BUTTON, Node { width, ..pad(4.0, 1.0) })));
                    }
                });
            }
        });
}

/// The chosen tool, brush and shape stand out.
fn marks(
    editor: Option<Res<Editor>>,
    mut buttons: Query<(&Pick, &mut BackgroundColor)>,
    fresh: Query<(), Added<Pick>>,
) {
    let Some(e) = editor.filter(|e| e.is_changed() || !fresh.is_empty()) else { return };
    for (pick, mut bg) in &mut buttons {
        let on = match pick {
            Pick::Tool(t) => *t == e.tool,
            Pick::Brush(b) => *b == e.brush,
            Pick::Shape(s) => *s == e.shape,
            Pick::Snap => e.snap > 0.0,
            _ => false,
        };
        let want = if on { theme::PALETTE_BUTTON_ON } else { theme::PALETTE_BUTTON };
        if bg.0 != want {
            bg.0 = want;
        }
    }
}

/// A palette button pressed.
fn activate(
    activate: On<Activate>,
    picks: Query<&Pick>,
    editor: Option<ResMut<Editor>>,
    pointer: Res<crate::game::input::MapPointer>,
    mut seats: ResMut<crate::game::seats::Seats>,
    mut commands: Commands,
    palette: Query<Entity, With<Palette>>,
    focus: Option<ResMut<bevy::input_focus::InputFocus>>,
) {
    let (Some(mut e), Ok(pick)) = (editor, picks.get(activate.entity)) else { return };
    if e.ask.is_some() {
        return;
    }
    if let Some(mut f) = focus {
        f.clear();
    }
    match *pick {
        Pick::Tool(t) => {
            e.tool = t;
            e.message = tool_words(&e, t);
        }
        Pick::Brush(b) => e.brush = b,
        Pick::Shape(s) => {
            e.shape = s;
            if !matches!(e.tool, Tool::Terrain(_)) {
                e.message = "Line and rectangle lay ground: choose a terrain above.".into();
            }
        }
        Pick::Undo => e.message = if e.undo() { "Undone." } else { "Nothing to undo." }.into(),
        Pick::Redo => e.message = if e.redo() { "Redone." } else { "Nothing to redo." }.into(),
        Pick::Save => e.message = e.save_words(false),
        Pick::Open => e.ask_open(),
        Pick::Copy => e.copy_region(),
        Pick::Paste => e.paste_at(pointer.hex),
        Pick::Snap => {
            e.snap = match e.snap {
                0.0 => 0.5,
                0.5 => 1.0,
                1.0 => 2.0,
                2.0 => 5.0,
                _ => 0.0,
            };
            e.message = format!("Table positions: {} (G changes it too).", snap_words(e.snap));
            // Its label says the grid: the palette is spawned anew.
            for p in &palette {
                commands.entity(p).despawn();
            }
            commands.run_system_cached(spawn);
        }
        Pick::Seats => {
            let next = seats.next();
            *seats = next;
            e.message = format!("A playtest seats: {}.", next.words());
        }
        Pick::Playtest => commands.queue(toggle_playtest),
    }
}

/// What a tool does, said when it is chosen.
fn tool_words(e: &Editor, t: Tool) -> String {
    match t {
        Tool::Terrain(t) => format!(
            "Paint {}: press and drag over the map (Space or the middle button pans).",
            format!("{t:?}").to_lowercase()
        ),
        Tool::Hexside(Some(k)) => format!("Drag along hex edges to lay a {}.", format!("{k:?}").to_lowercase()),
        Tool::Hexside(None) => "Drag along hex edges to clear their streams and slopes.".into(),
        Tool::Unit { side, arm } => {
            format!("Click to place {} of the {}.", format!("{arm:?}").to_lowercase(), e.side_name(side))
        }
        Tool::Objective => "Click a hex (a cell) for an objective; again to remove it.".into(),
        Tool::Select => "Click a unit to select it; drag it to move it.".into(),
        Tool::Corps => "Click units to put them into their side's corps, or take them out.".into(),
        Tool::Exit { side } => format!("Click near a map edge: the {} score for leaving by it.", e.side_name(side)),
        Tool::Staff { side } => format!("Click the table for a staff figure of the {}.", e.side_name(side)),
        Tool::Region => "Drag over the map to mark a region; Ctrl+C copies it, Ctrl+V pastes at the pointer.".into(),
    }
}
