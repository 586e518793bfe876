//! The scenario menu (Tab or M): the bundled scenarios and the files
//! dropped this session, opened by their number or a click, who sits at
//! the window, and beside them the saves in the saves folder, newest
//! first, opened by a click. Drawn on entering the menu screen and gone on
//! leaving it; drawn again when the seats, the dropped files or the saves
//! change.

use bevy::prelude::*;
use bevy::ui_widgets::Activate;

use super::editor::{edit_open_battle, new_map_in_editor};
use super::opened::{BUNDLED, Source};
use super::saves::{LISTED, SaveFolder, found};
use super::scenarios::{Dropped, Pending};
use super::seats::{ChosenLevel, Seats, seat};
use super::sets::GameSet;
use super::state::Screen;
use super::theme::{self, button, pad, text};
use crate::vocab::AiLevel;

#[derive(Component)]
struct MenuPanel;

#[derive(Component)]
struct MenuEntry(Source);

/// A line of the saves' list (its `MenuEntry` opens it).
#[derive(Component)]
struct SaveLine;

/// A menu line that changes who sits at the window.
#[derive(Component)]
struct SeatEntry(Seats);

/// A menu line that sets how well the computer plays.
#[derive(Component)]
struct LevelEntry(Option<AiLevel>);

/// The menu line that opens the open battle in the editor.
#[derive(Component)]
struct EditEntry;

/// The menu line that opens a new map in the editor.
#[derive(Component)]
struct NewMapEntry;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Menu), draw);
    app.add_systems(
        Update,
        (
            digits,
            redraw.run_if(
                resource_changed::<Seats>
                    .or_eager(resource_changed::<Dropped>)
                    .or_eager(resource_changed::<ChosenLevel>)
                    .or_eager(resource_changed::<SaveFolder>),
            ),
        )
            .in_set(GameSet::Input)
            .run_if(in_state(Screen::Menu)),
    );
    app.add_observer(activate);
}

/// The menu's entries: bundled scenarios, then dropped files.
fn entries(dropped: &Dropped) -> Vec<(Source, String)> {
    let mut out: Vec<(Source, String)> =
        BUNDLED.iter().enumerate().map(|(i, (name, _))| (Source::Bundled(i), format!("{name} (built in)"))).collect();
    for p in &dropped.0 {
        out.push((Source::File(p.clone()), p.display().to_string()));
    }
    out
}

/// The number keys open the first nine entries; E the editor.
fn digits(
    keys: Res<ButtonInput<KeyCode>>,
    dropped: Res<Dropped>,
    mut pending: ResMut<Pending>,
    mut commands: Commands,
) {
    if keys.just_pressed(KeyCode::KeyE) {
        commands.queue(edit_open_battle);
        return;
    }
    if keys.just_pressed(KeyCode::KeyN) {
        commands.queue(new_map_in_editor);
        return;
    }
    const DIGITS: [KeyCode; 9] = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    let entries = entries(&dropped);
    for (key, (source, _)) in DIGITS.iter().zip(entries) {
        if keys.just_pressed(*key) {
            pending.0 = Some(source);
        }
    }
}

/// A menu line clicked: open its scenario, or take its seats.
fn activate(
    activate: On<Activate>,
    scenarios: Query<&MenuEntry>,
    seats: Query<&SeatEntry>,
    levels: Query<&LevelEntry>,
    mut pending: ResMut<Pending>,
    edit: Query<(), With<EditEntry>>,
    new_map: Query<(), With<NewMapEntry>>,
    mut commands: Commands,
) {
    if edit.get(activate.entity).is_ok() {
        commands.queue(edit_open_battle);
    }
    if new_map.get(activate.entity).is_ok() {
        commands.queue(new_map_in_editor);
    }
    if let Ok(entry) = scenarios.get(activate.entity) {
        pending.0 = Some(entry.0.clone());
    }
    if let Ok(entry) = seats.get(activate.entity) {
        let chosen = entry.0;
        commands.queue(move |world: &mut World| {
            world.insert_resource(chosen);
            seat(world, chosen);
        });
    }
    if let Ok(entry) = levels.get(activate.entity) {
        let chosen = ChosenLevel(entry.0);
        commands.queue(move |world: &mut World| {
            world.insert_resource(chosen);
            let seats = *world.resource::<Seats>();
            seat(world, seats);
        });
    }
}

/// Draws the menu again with the new seats marked or the new file listed.
fn redraw(
    mut commands: Commands,
    panel: Query<Entity, With<MenuPanel>>,
    seats: Res<Seats>,
    dropped: Res<Dropped>,
    level: Res<ChosenLevel>,
    folder: Res<SaveFolder>,
) {
    for e in &panel {
        commands.entity(e).despawn();
    }
    draw(commands, seats, dropped, level, folder);
}

/// The menu: the scenarios, the editor and the seats in one column, the
/// saves in another beside it (the window is too short for both in one).
fn draw(
    mut commands: Commands,
    seats: Res<Seats>,
    dropped: Res<Dropped>,
    level: Res<ChosenLevel>,
    folder: Res<SaveFolder>,
) {
    let column = |width: f32| Node {
        width: Val::Percent(width),
        flex_direction: FlexDirection::Column,
        row_gap: Val::Px(6.0),
        ..default()
    };
    let panel = commands
        .spawn((
            MenuPanel,
            Node {
                position_type: PositionType::Absolute,
                left: Val::Percent(6.0),
                top: Val::Px(60.0),
                width: Val::Percent(88.0),
                flex_direction: FlexDirection::Row,
                padding: UiRect::all(Val::Px(14.0)),
                column_gap: Val::Px(16.0),
                ..default()
            },
            BackgroundColor(theme::MENU),
            GlobalZIndex(10),
            DespawnOnExit(Screen::Menu),
        ))
        .id();
    let root = commands.spawn(column(55.0)).id();
    let saves = commands.spawn(column(45.0)).id();
    commands.entity(panel).add_children(&[root, saves]);
    list_saves(&mut commands, saves, &folder);
    commands.entity(root).with_child(text(
        "Scenarios  (number or click to open; drop a .ron file on the window to add it; Tab closes)",
        15.0,
        theme::TEXT_HEADING,
    ));
    for (k, (source, label)) in entries(&dropped).into_iter().enumerate() {
        let key = if k < 9 { format!("{}  ", k + 1) } else { "   ".into() };
        commands
            .entity(root)
            .with_child((MenuEntry(source), button(format!("{key}{label}"), 15.0, theme::BUTTON, pad(8.0, 4.0))));
    }
    commands.entity(root).with_child((
        EditEntry,
        button(
            "E  edit the open battle in the scenario editor (sauve edit FILE opens one, or a new map)",
            15.0,
            theme::BUTTON_EDITOR,
            Node { margin: UiRect::top(Val::Px(4.0)), ..pad(8.0, 4.0) },
        ),
    ));
    commands.entity(root).with_child((
        NewMapEntry,
        button("N  a new 30x20 hex map in the scenario editor", 15.0, theme::BUTTON_EDITOR, pad(8.0, 4.0)),
    ));
    commands.entity(root).with_child((
        text("Who plays  (P switches at any time)", 15.0, theme::TEXT_HEADING),
        Node { margin: UiRect::top(Val::Px(8.0)), ..default() },
    ));
    for s in Seats::ALL {
        let on = s == *seats;
        commands.entity(root).with_child((
            SeatEntry(s),
            button(
                format!("{} {}", if on { "●" } else { "○" }, s.words()),
                15.0,
                if on { theme::BUTTON_ON } else { theme::BUTTON },
                pad(8.0, 4.0),
            ),
        ));
    }
    commands.entity(root).with_child((
        text("How well the computer plays", 15.0, theme::TEXT_HEADING),
        Node { margin: UiRect::top(Val::Px(8.0)), ..default() },
    ));
    let choices = std::iter::once(None).chain(AiLevel::ALL.into_iter().map(Some));
    for l in choices {
        let on = l == level.0;
        let words = match l {
            None => "as the scenario says (normal unless a side names its level)".to_owned(),
            Some(AiLevel::Hold) => {
                "hold: stands its ground and fires, never marches on or attacks (a yardstick)".to_owned()
            }
            Some(AiLevel::Easy) => "easy: the first AI, one ply of rules of thumb".to_owned(),
            Some(AiLevel::Normal) => "normal: counts its own checks, keeps garrisons, falls back safely".to_owned(),
            Some(AiLevel::Hard) => "hard: tries each corps' choices a turn ahead, by the rules themselves".to_owned(),
        };
        commands.entity(root).with_child((
            LevelEntry(l),
            button(
                format!("{} {words}", if on { "●" } else { "○" }),
                15.0,
                if on { theme::BUTTON_ON } else { theme::BUTTON },
                pad(8.0, 4.0),
            ),
        ));
    }
}

/// The saves' column: a heading, then each save's line (the battle, its
/// turn, when it was written), newest first, a click to open it.
fn list_saves(commands: &mut Commands, column: Entity, folder: &SaveFolder) {
    let heading = format!(
        "Saves in {}  (newest first; click to open; F5 saves, F9 opens this battle's newest)",
        folder.dir.display()
    );
    commands.entity(column).with_child(text(heading, 15.0, theme::TEXT_HEADING));
    let found = match found(&folder.dir) {
        Ok(found) => found,
        Err(why) => {
            commands.entity(column).with_child(text(
                format!("The saves cannot be listed: {why}"),
                13.0,
                theme::TEXT_ERROR,
            ));
            return;
        }
    };
    if found.is_empty() {
        commands.entity(column).with_child(text(
            "None yet: F5 saves the battle at the window.",
            13.0,
            theme::TEXT_SMALL,
        ));
    }
    for f in found.iter().take(LISTED) {
        let entry = MenuEntry(Source::File(f.path.clone()));
        commands.entity(column).with_child((SaveLine, entry, button(f.words(), 13.0, theme::BUTTON, pad(8.0, 3.0))));
    }
    if found.len() > LISTED {
        let more = format!("and {} older (open one by dropping it on the window)", found.len() - LISTED);
        commands.entity(column).with_child(text(more, 13.0, theme::TEXT_SMALL));
    }
}

#[cfg(test)]
mod tests;
