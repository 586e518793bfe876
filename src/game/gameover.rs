//! The card at the end of a battle: once the log shown reaches the
//! `GameOver` event, who won (or a draw), outright or on points, each side's
//! points and how they were made, and the end-of-game summary (losses,
//! corps, cascades). Esc or its Close button hides it; R (or its button)
//! restarts the battle. Stepping the log back before the end hides it too.

use bevy::prelude::*;

use super::camera::{BAR_H, PANEL_W};
use super::playback::{ScenarioNames, Shown};
use super::sentences::game_over_card;
use super::{GameSet, Opened};
use crate::events::{EventKind, EventLog};

/// What the card shows, and for which event.
#[derive(Resource, Default)]
pub struct GameOverCard {
    /// Index in the event log of the `GameOver` event shown, once the log
    /// shown has reached it.
    pub at: Option<usize>,
    /// Closed by the player (until the next game over).
    pub closed: bool,
    pub title: String,
    pub body: String,
    /// The shown cursor last looked at, so the log is searched only when
    /// it moved.
    cursor: Option<usize>,
}

#[derive(Component)]
struct Card;
#[derive(Component)]
struct Title;
#[derive(Component)]
struct Body;
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum CardButton {
    Close,
    Restart,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<GameOverCard>();
    app.add_systems(Startup, spawn);
    app.add_systems(Update, (keys, buttons).in_set(GameSet::Input));
    app.add_systems(Update, (watch, show).chain().in_set(GameSet::Panels));
}

/// Finds the `GameOver` event among those shown and words the card once.
/// Exclusive: the summary is asked of the simulation in the same world.
fn watch(world: &mut World) {
    let cursor = world.resource::<Shown>().cursor;
    let fresh = world.is_resource_changed::<Opened>();
    if !fresh && world.resource::<GameOverCard>().cursor == Some(cursor) {
        return;
    }
    if world.resource::<Opened>().scenario.is_none() {
        *world.resource_mut::<GameOverCard>() = GameOverCard::default();
        return;
    }
    let found = game_over_at(world, cursor);
    let mut card = world.resource_mut::<GameOverCard>();
    card.cursor = Some(cursor);
    let Some(k) = found else {
        if card.at.is_some() {
            card.at = None;
            card.closed = false;
        }
        return;
    };
    if card.at == Some(k) && !fresh {
        return;
    }
    let Some((title, body)) = card_text(world, k) else { return };
    let mut card = world.resource_mut::<GameOverCard>();
    card.at = Some(k);
    card.closed = false;
    card.title = title;
    card.body = body;
}

/// Index of the `GameOver` event among the first `upto` of the log.
pub fn game_over_at(world: &World, upto: usize) -> Option<usize> {
    let log = world.get_resource::<EventLog>()?;
    log.events[..upto.min(log.events.len())].iter().rposition(|e| matches!(e.kind, EventKind::GameOver { .. }))
}

/// The card's title and body for the `GameOver` event at `k` of the log,
/// with the simulation's end-of-game summary.
pub fn card_text(world: &mut World, k: usize) -> Option<(String, String)> {
    let scenario = world.get_resource::<crate::sim::Battle>()?.scenario.clone();
    let EventKind::GameOver { winner, decisive, points, detail } =
        world.get_resource::<EventLog>()?.events.get(k)?.kind.clone()
    else {
        return None;
    };
    let summary = crate::sim::summary(world).map(|s| s.to_string());
    let sides: Vec<String> = scenario.sides.iter().map(|s| s.name.clone()).collect();
    Some(game_over_card(
        winner.as_deref(),
        decisive,
        &points,
        &detail,
        &sides,
        &ScenarioNames(&scenario),
        summary.as_deref(),
    ))
}

fn keys(keys: Res<ButtonInput<KeyCode>>, mut card: ResMut<GameOverCard>) {
    if keys.just_pressed(KeyCode::Escape) && card.at.is_some() && !card.closed {
        card.closed = true;
    }
}

fn buttons(
    q: Query<(&Interaction, &CardButton), Changed<Interaction>>,
    mut card: ResMut<GameOverCard>,
    opened: Res<Opened>,
    mut pending: ResMut<super::scenarios::Pending>,
) {
    for (i, b) in &q {
        if *i != Interaction::Pressed {
            continue;
        }
        match b {
            CardButton::Close => card.closed = true,
            CardButton::Restart => pending.0 = Some(opened.source.clone()),
        }
    }
}

fn spawn(mut commands: Commands) {
    let button = |label: &str, which: CardButton| {
        (
            Button,
            which,
            Node { padding: UiRect::axes(Val::Px(12.0), Val::Px(5.0)), ..default() },
            BackgroundColor(Color::srgb(0.24, 0.3, 0.42)),
            children![(Text::new(label), TextFont::from_font_size(15.0))],
        )
    };
    // A frame over the map (not the panels) that centres the card.
    commands.spawn((
        Card,
        Node {
            position_type: PositionType::Absolute,
            left: Val::Px(0.0),
            right: Val::Px(PANEL_W),
            top: Val::Px(BAR_H),
            bottom: Val::Px(0.0),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            display: Display::None,
            ..default()
        },
        GlobalZIndex(6),
        children![(
            Node {
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                max_width: Val::Px(640.0),
                padding: UiRect::all(Val::Px(20.0)),
                row_gap: Val::Px(10.0),
                border: UiRect::all(Val::Px(2.0)),
                ..default()
            },
            BackgroundColor(Color::srgb(0.07, 0.07, 0.09)),
            BorderColor::all(Color::srgb(0.85, 0.7, 0.3)),
            children![
                (Title, Text::new(""), TextFont::from_font_size(30.0), TextColor(Color::srgb(1.0, 0.85, 0.4))),
                (Body, Text::new(""), TextFont::from_font_size(14.0), TextColor(Color::srgb(0.92, 0.92, 0.88))),
                (
                    Node { column_gap: Val::Px(10.0), ..default() },
                    children![button("Close (Esc)", CardButton::Close), button("Play again (R)", CardButton::Restart)],
                ),
            ],
        )],
    ));
}

fn show(
    card: Res<GameOverCard>,
    mut node: Query<&mut Node, With<Card>>,
    mut title: Query<&mut Text, (With<Title>, Without<Body>)>,
    mut body: Query<&mut Text, (With<Body>, Without<Title>)>,
) {
    if !card.is_changed() {
        return;
    }
    if let Ok(mut n) = node.single_mut() {
        let display = if card.at.is_some() && !card.closed { Display::Flex } else { Display::None };
        if n.display != display {
            n.display = display;
        }
    }
    if let Ok(mut t) = title.single_mut()
        && t.0 != card.title
    {
        t.0.clone_from(&card.title);
    }
    if let Ok(mut t) = body.single_mut()
        && t.0 != card.body
    {
        t.0.clone_from(&card.body);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::sim::{AiMode, Simulation};

    #[test]
    fn a_finished_battle_gets_a_card_with_its_points_and_summary() {
        let text = include_str!("../../scenarios/hagelberg-1813.ron");
        let s = match crate::scenario::parse_bytes(text.as_bytes(), "hagelberg-1813.ron") {
            Ok(s) => Arc::new(s),
            Err(e) => panic!("{e}"),
        };
        let mut sim = Simulation::new(s.clone(), s.seed, vec![], AiMode::Both);
        let w = sim.app.world_mut();
        assert_eq!(game_over_at(w, usize::MAX), None, "not before the end");
        super::super::playback::simulate_turns(w, s.turns + 1);
        let k = game_over_at(w, usize::MAX).expect("a finished battle has a GameOver event");
        assert_eq!(game_over_at(w, k), None, "the card waits until the log shown reaches it");
        let (title, body) = card_text(w, k).expect("card text");
        assert!(title.starts_with("Victory: ") || title == "A draw", "{title}");
        for side in &s.sides {
            assert!(body.contains(&format!("\n{}: ", side.name)), "{body}");
        }
        assert!(body.contains("Losses") && body.contains("Cascades"), "the summary follows: {body}");
    }
}
