//! The editor's side panel on the right, laid out so that nothing moves
//! under the pointer: a header (the file, whether it is saved, what it
//! holds), the tabs of its pages, the page itself in a part that scrolls
//! (see `page.rs`), and the last message in a box of its own at the
//! bottom. The bar along the top names the battle and says where the
//! pointer is.

use bevy::prelude::*;
use bevy::ui_widgets::Activate;

use super::draw::PALETTE_W;
use super::model::{Editor, Page};
use super::page::Body;
use crate::edit::fields::List;
use crate::game::input::MapPointer;
use crate::game::layout::Layout;
use crate::game::opened::Opened;
use crate::game::screen::{MapInset, bar_node, side_panel_node};
use crate::game::scroll::Scrolls;
use crate::game::sets::GameSet;
use crate::game::state::Screen;
use crate::game::theme::{self, button, pad, text};
use crate::scenario::Mode;

#[derive(Component)]
struct Side;
#[derive(Component)]
struct TopText;
#[derive(Component)]
struct Header;
#[derive(Component)]
struct Tabs;
#[derive(Component)]
struct MessageText;

/// A tab: the page it shows.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Tab(pub Page);

/// Height of the message box at the panel's foot.
const MESSAGE_H: f32 = 74.0;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Editor), spawn);
    app.add_systems(OnExit(Screen::Editor), |mut inset: ResMut<MapInset>| inset.0 = 0.0);
    app.add_systems(Update, (tabs, words, bar).chain().in_set(GameSet::Panels).run_if(in_state(Screen::Editor)));
    app.add_observer(activate);
    super::page::plugin(app);
}

fn spawn(mut commands: Commands, editor: Option<Res<Editor>>, mut inset: ResMut<MapInset>) {
    if editor.is_none() {
        return;
    }
    // The map is fitted between the palette and this panel.
    inset.0 = PALETTE_W;
    commands.spawn((
        DespawnOnExit(Screen::Editor),
        bar_node(),
        BackgroundColor(theme::EDITOR_PANEL),
        GlobalZIndex(4),
        children![(TopText, text("", 14.0, theme::TEXT_BAR), TextLayout::no_wrap())],
    ));
    commands
        .spawn((
            Side,
            DespawnOnExit(Screen::Editor),
            side_panel_node(8.0, 4.0),
            BackgroundColor(theme::EDITOR_PANEL),
            GlobalZIndex(4),
        ))
        .with_children(|p| {
            p.spawn((
                Header,
                text("", 12.0, theme::TEXT_HEADING),
                Node { height: Val::Px(48.0), overflow: Overflow::clip(), ..default() },
            ));
            p.spawn((
                Tabs,
                Node { flex_wrap: FlexWrap::Wrap, column_gap: Val::Px(3.0), row_gap: Val::Px(3.0), ..default() },
            ));
            p.spawn((
                Body,
                Scrolls,
                Node {
                    flex_direction: FlexDirection::Column,
                    flex_grow: 1.0,
                    flex_basis: Val::Px(0.0),
                    min_height: Val::Px(0.0),
                    row_gap: Val::Px(3.0),
                    overflow: Overflow::scroll_y(),
                    ..default()
                },
                ScrollPosition::default(),
            ));
            p.spawn((
                Node {
                    height: Val::Px(MESSAGE_H),
                    min_height: Val::Px(MESSAGE_H),
                    padding: UiRect::all(Val::Px(4.0)),
                    overflow: Overflow::clip(),
                    ..default()
                },
                BackgroundColor(theme::FIELD),
                children![(
                    MessageText,
                    text("", 12.0, theme::TEXT_MESSAGE),
                    Node { width: Val::Percent(100.0), ..default() }
                )],
            ));
        });
}

/// The tabs the file offers, with their labels.
pub fn tabs_of(e: &Editor) -> Vec<(Page, String)> {
    let hex = e.file().mode == Mode::Hex;
    let mut out = vec![(Page::Scenario, "Scenario".to_owned()), (Page::Map, "Map".to_owned())];
    for i in 0..e.file().sides.len() {
        let name: String = e.side_name(i).chars().take(18).collect();
        out.push((Page::Side(i), name));
    }
    out.push((Page::Unit, if hex { "Unit" } else { "Unit/staff" }.to_owned()));
    let lists: &[List] = if hex {
        &[List::Objectives, List::Shocks, List::Corps, List::Leaders, List::Exits]
    } else {
        &[List::Objectives, List::Shocks, List::Staff]
    };
    for &l in lists {
        let n = l.len(e.file());
        let name = l.name();
        let mut cap = name[..1].to_uppercase();
        cap.push_str(&name[1..]);
        out.push((Page::List(l), format!("{cap} ({n})")));
    }
    out.push((Page::Rules, "Rules".to_owned()));
    let label = match (e.problems.len(), e.warnings.len()) {
        (0, 0) => "Problems (none)".to_owned(),
        (0, 1) => "1 warning".to_owned(),
        (0, w) => format!("{w} warnings"),
        (1, _) => "1 problem".to_owned(),
        (p, _) => format!("{p} problems"),
    };
    out.push((Page::Problems, label));
    out
}

/// The tabs again when what they say changes.
fn tabs(
    mut commands: Commands,
    editor: Option<Res<Editor>>,
    row: Query<(Entity, Option<&Children>), With<Tabs>>,
    mut shown: Local<Vec<(Page, String)>>,
    mut buttons: Query<(&Tab, &mut BackgroundColor)>,
) {
    let Some(e) = editor.filter(|e| e.is_changed()) else { return };
    let Ok((row, children)) = row.single() else { return };
    let want = tabs_of(&e);
    if *shown != want || children.is_none_or(|c| c.is_empty()) {
        commands.entity(row).despawn_children();
        for (page, label) in &want {
            let problem = matches!(page, Page::Problems) && !e.problems.is_empty();
            let back = if problem { theme::PROBLEM_LINE } else { theme::BUTTON };
            commands.entity(row).with_child((Tab(*page), button(label.clone(), 11.0, back, pad(5.0, 2.0))));
        }
        *shown = want;
        return;
    }
    for (tab, mut bg) in &mut buttons {
        let on = tab.0 == e.page;
        let problem = matches!(tab.0, Page::Problems) && !e.problems.is_empty();
        let want = match (on, problem) {
            (true, _) => theme::PALETTE_BUTTON_ON,
            (false, true) => theme::PROBLEM_LINE,
            (false, false) => theme::BUTTON,
        };
        if bg.0 != want {
            bg.0 = want;
        }
    }
}

/// What the header says: the file, whether it is saved, what it holds.
pub fn header_words(e: &Editor) -> String {
    let f = e.file();
    let saved = match e.editing.unsaved {
        _ if !e.path.exists() => "not saved yet".to_owned(),
        0 => "saved".to_owned(),
        1 => "1 edit unsaved".to_owned(),
        n => format!("{n} edits unsaved"),
    };
    let (w, h) = crate::edit::paint::size(&f.map);
    let mode =
        if f.mode == Mode::Hex { format!("a hex map of {w} x {h}") } else { format!("a table of {w} x {h} cells") };
    let units = match f.units.len() {
        1 => "1 unit".to_owned(),
        n => format!("{n} units"),
    };
    let verdict = match (e.problems.len(), e.warnings.len()) {
        (0, 0) => "plays (F8)".to_owned(),
        (0, 1) => "plays (F8), 1 warning".to_owned(),
        (0, n) => format!("plays (F8), {n} warnings"),
        (1, _) => "1 problem before it plays".to_owned(),
        (n, _) => format!("{n} problems before it plays"),
    };
    format!("{} ({saved})\n{}: {mode}, {units}; {verdict}", e.path.display(), f.name)
}

/// The header and the message, when the editor changes.
fn words(
    editor: Option<Res<Editor>>,
    mut header: Query<&mut Text, (With<Header>, Without<MessageText>)>,
    mut message: Query<&mut Text, (With<MessageText>, Without<Header>)>,
) {
    let Some(e) = editor.filter(|e| e.is_changed()) else { return };
    if let Ok(mut t) = header.single_mut() {
        let want = header_words(&e);
        if t.0 != want {
            t.0 = want;
        }
    }
    if let Ok(mut t) = message.single_mut()
        && t.0 != e.message
    {
        t.0.clone_from(&e.message);
    }
}

/// Where the pointer is, in the file's terms: a hex's column and row and
/// its ground, or a point on the table in cm and its cell.
pub fn pointer_words(e: &Editor, layout: Layout, world: Option<Vec2>) -> String {
    let Some((spot, _)) = world.and_then(|w| super::input::spot_at(layout, w)) else { return String::new() };
    let ground =
        |at| crate::edit::paint::terrain_at(&e.file().map, at).map_or("off the map".into(), |t| format!("{t:?}"));
    match spot {
        crate::edit::forces::Spot::Hex(o) => format!("hex {}, {}: {}", o.c, o.r, ground(o)),
        crate::edit::forces::Spot::Cm(x, y) => {
            let cell = e.cell_of(spot).unwrap_or_default();
            format!("{x:.1}, {y:.1} cm (cell {}, {}: {})", cell.c, cell.r, ground(cell))
        }
    }
}

/// The bar: the battle's name, where the pointer is, the keys.
fn bar(
    editor: Option<Res<Editor>>,
    pointer: Res<MapPointer>,
    opened: Res<Opened>,
    mut top: Query<&mut Text, With<TopText>>,
) {
    let Some(e) = editor else { return };
    if !e.is_changed() && !pointer.is_changed() {
        return;
    }
    let Ok(mut t) = top.single_mut() else { return };
    let at = pointer_words(&e, opened.layout, pointer.world.filter(|_| pointer.over_map));
    let want = format!(
        "Editor: {}   |   {}   |   Ctrl+Z undo, Ctrl+S save, Ctrl+O open, F8 playtest, Home fits",
        e.file().name,
        if at.is_empty() { "point at the map".to_owned() } else { at }
    );
    if t.0 != want {
        t.0 = want;
    }
}

/// A tab clicked: its page.
fn activate(
    activate: On<Activate>,
    tabs: Query<&Tab>,
    editor: Option<ResMut<Editor>>,
    focus: Option<ResMut<bevy::input_focus::InputFocus>>,
) {
    let (Some(mut e), Ok(tab)) = (editor, tabs.get(activate.entity)) else { return };
    if e.ask.is_some() {
        return;
    }
    // Another page: the field typed in is left (and set).
    if let Some(mut f) = focus {
        f.clear();
    }
    e.page = tab.0;
    e.lit = None;
    if let Page::List(l) = tab.0
        && e.entry >= l.len(e.file())
    {
        e.entry = 0;
    }
}
