//! The editor's questions, a card over everything until answered: an
//! autosave holding edits its file does not (restore, compare, discard),
//! unsaved edits before quitting or opening another file (save, discard,
//! stay), and which file to open. The keys answer too: R, C, D; S, D,
//! Esc; Esc.

use bevy::prelude::*;
use bevy::ui_widgets::Activate;

use super::files::{Recovery, Unsaved, open_in};
use super::model::{Ask, Editor, Then};
use crate::game::sets::GameSet;
use crate::game::state::Screen;
use crate::game::theme::{self, button, pad, text};

#[derive(Component)]
struct Card;

/// An answer's button.
#[derive(Component, Clone, Debug)]
enum Answer {
    Recover(Recovery),
    Unsaved(Unsaved),
    Open(std::path::PathBuf),
    Cancel,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (keys, card).chain().in_set(GameSet::Panels).run_if(in_state(Screen::Editor)));
    app.add_observer(activate);
}

/// Carries out an answer, and whatever it leads to.
fn answer(world: &mut World, a: Answer) {
    let mut e = world.resource_mut::<Editor>();
    let then = match a {
        Answer::Recover(r) => {
            e.recover(r);
            None
        }
        Answer::Unsaved(u) => e.unsaved_answer(u),
        Answer::Open(p) => {
            e.ask = None;
            e.leave(Then::Open(p))
        }
        Answer::Cancel => {
            e.ask = None;
            e.message = "Still editing.".into();
            None
        }
    };
    match then {
        Some(Then::Quit) => e.quit = true,
        Some(Then::Open(p)) => {
            open_in(&mut e, &p);
            // The palette's buttons follow the file's mode and sides.
            let _ = world.run_system_cached(super::palette::spawn);
        }
        None => {}
    }
}

/// The keys of the question open.
fn keys(world: &mut World) {
    let Some(ask) = world.get_resource::<Editor>().and_then(|e| e.ask.clone()) else { return };
    let k = world.resource::<ButtonInput<KeyCode>>();
    let a = match ask {
        Ask::Recover { .. } => {
            [(KeyCode::KeyR, Recovery::Restore), (KeyCode::KeyC, Recovery::Compare), (KeyCode::KeyD, Recovery::Discard)]
                .into_iter()
                .find(|(key, _)| k.just_pressed(*key))
                .map(|(_, r)| Answer::Recover(r))
        }
        Ask::Unsaved(_) => {
            [(KeyCode::KeyS, Unsaved::Save), (KeyCode::KeyD, Unsaved::Discard), (KeyCode::Escape, Unsaved::Stay)]
                .into_iter()
                .find(|(key, _)| k.just_pressed(*key))
                .map(|(_, u)| Answer::Unsaved(u))
        }
        Ask::Open(_) => k.just_pressed(KeyCode::Escape).then_some(Answer::Cancel),
    };
    if let Some(a) = a {
        answer(world, a);
    }
}

/// The card, spawned anew when the question changes, gone when answered.
fn card(
    mut commands: Commands,
    editor: Option<Res<Editor>>,
    cards: Query<Entity, With<Card>>,
    mut shown: Local<Option<Ask>>,
) {
    let Some(e) = editor else { return };
    if *shown == e.ask && (e.ask.is_none() || !cards.is_empty()) {
        return;
    }
    for c in &cards {
        commands.entity(c).despawn();
    }
    shown.clone_from(&e.ask);
    let Some(ask) = &e.ask else { return };
    let (title, body, answers): (String, Vec<String>, Vec<(Answer, String)>) = match ask {
        Ask::Recover { written, differences, .. } => {
            let auto = crate::edit::write::autosave_path(&e.path);
            let since = if e.path.exists() {
                format!("after {} was last saved, and holds edits the file does not", e.path.display())
            } else {
                format!("and holds edits of {}, which was never saved", e.path.display())
            };
            let mut body = vec![format!(
                "{} was written {written}, {since}: the editor was closed before they were saved.",
                auto.display()
            )];
            match differences {
                Some(d) if d.is_empty() => body.push("It holds nothing the file does not.".into()),
                Some(d) => {
                    body.push("What it changes:".into());
                    body.extend(d.iter().map(|l| format!("  {l}")));
                }
                None => {}
            }
            (
                "Restore the unsaved edits?".into(),
                body,
                vec![
                    (Answer::Recover(Recovery::Restore), "Restore them (R)".into()),
                    (Answer::Recover(Recovery::Compare), "Compare (C)".into()),
                    (Answer::Recover(Recovery::Discard), "Discard them (D)".into()),
                ],
            )
        }
        Ask::Unsaved(then) => {
            let n = e.editing.unsaved;
            let what = match then {
                Then::Quit => "before the editor closes".to_owned(),
                Then::Open(p) => format!("before {} opens", p.display()),
            };
            (
                format!("{n} edit{} unsaved", if n == 1 { " is" } else { "s are" }),
                vec![format!("Save the edits to {} {what}?", e.path.display())],
                vec![
                    (Answer::Unsaved(Unsaved::Save), "Save them (S)".into()),
                    (Answer::Unsaved(Unsaved::Discard), "Discard them (D)".into()),
                    (Answer::Unsaved(Unsaved::Stay), "Keep editing (Esc)".into()),
                ],
            )
        }
        Ask::Open(files) => {
            let mut answers: Vec<(Answer, String)> =
                files.iter().map(|p| (Answer::Open(p.clone()), p.display().to_string())).collect();
            answers.push((Answer::Cancel, "Cancel (Esc)".into()));
            let body = if files.is_empty() {
                vec!["No scenario files here or in scenarios/; drop one on the window to open it.".into()]
            } else {
                vec!["Scenario files here and in scenarios/ (or drop a file on the window):".into()]
            };
            ("Open a scenario".into(), body, answers)
        }
    };
    commands
        .spawn((
            Card,
            DespawnOnExit(Screen::Editor),
            Node {
                position_type: PositionType::Absolute,
                width: Val::Percent(100.0),
                height: Val::Percent(100.0),
                justify_content: JustifyContent::Center,
                align_items: AlignItems::Center,
                ..default()
            },
            BackgroundColor(theme::DIM),
            GlobalZIndex(20),
        ))
        .with_children(|back| {
            back.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    width: Val::Px(560.0),
                    max_width: Val::Percent(90.0),
                    max_height: Val::Percent(85.0),
                    padding: UiRect::all(Val::Px(14.0)),
                    row_gap: Val::Px(6.0),
                    overflow: Overflow::scroll_y(),
                    ..default()
                },
                ScrollPosition::default(),
                crate::game::scroll::Scrolls,
                BackgroundColor(theme::HELP_CARD),
            ))
            .with_children(|c| {
                c.spawn(text(title, 18.0, theme::TEXT_TITLE));
                for line in body {
                    c.spawn((text(line, 13.0, theme::TEXT_BODY), Node { width: Val::Percent(100.0), ..default() }));
                }
                c.spawn(Node {
                    flex_wrap: FlexWrap::Wrap,
                    column_gap: Val::Px(6.0),
                    row_gap: Val::Px(4.0),
                    ..default()
                })
                .with_children(|row| {
                    for (a, words) in answers {
                        row.spawn((a, button(words, 13.0, theme::BUTTON_ACTION, pad(8.0, 3.0))));
                    }
                });
            });
        });
}

fn activate(activate: On<Activate>, answers: Query<&Answer>, mut commands: Commands) {
    if let Ok(a) = answers.get(activate.entity) {
        let a = a.clone();
        commands.queue(move |world: &mut World| answer(world, a));
    }
}
