//! The card at the end of a battle: once the log shown reaches the
//! `GameOver` event, who won (or a draw), outright or on points, each side's
//! points and how they were made, and the end-of-game summary (losses,
//! corps, cascades). The card is a screen of its own ([`Screen::GameOver`]),
//! spawned on entering it and gone on leaving it. Esc or its Close button
//! closes it; R or Shift+R (or its button) restarts the battle. Stepping the log back
//! before the end takes it away too, and the menu or the help card over it
//! only hides it until they close. Clicks on the card stay on it (a UI
//! node blocks the map's picking under it): they neither select nor order
//! the units under it.

use bevy::prelude::*;
use bevy::ui_widgets::Activate;

use super::opened::Opened;
use super::scenarios::Pending;
use super::screen::{BAR_H, PANEL_W};
use super::sets::GameSet;
use super::shown::{ScenarioNames, Shown};
use super::state::Screen;
use super::theme::{self, pad, text};
use crate::events::EventKind;
use crate::sentences::game_over_card;

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
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum CardButton {
    Close,
    Restart,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<GameOverCard>();
    app.add_systems(OnEnter(Screen::GameOver), spawn);
    app.add_systems(Update, keys.in_set(GameSet::Input).run_if(in_state(Screen::GameOver)));
    app.add_systems(Update, (watch, follow).chain().in_set(GameSet::Panels));
    app.add_observer(press);
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
    let log = world.get_resource::<crate::sim::BattleLog>()?;
    log.events[..upto.min(log.events.len())].iter().rposition(|e| matches!(e.kind, EventKind::GameOver { .. }))
}

/// The card's title and body for the `GameOver` event at `k` of the log,
/// with the simulation's end-of-game summary.
pub fn card_text(world: &mut World, k: usize) -> Option<(String, String)> {
    let scenario = world.get_resource::<crate::sim::Battle>()?.scenario.clone();
    let EventKind::GameOver { winner, decisive, points, detail } =
        world.get_resource::<crate::sim::BattleLog>()?.events.get(k)?.kind.clone()
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

/// The card's screen follows the card: up once the log shown reaches the
/// end of the battle, until the player closes it or steps back before it.
/// Over the menu or the help card it waits for them to close.
fn follow(card: Res<GameOverCard>, now: Res<State<Screen>>, mut next: ResMut<NextState<Screen>>) {
    let up = card.at.is_some() && !card.closed;
    match (*now.get(), up) {
        (Screen::Battle, true) => next.set(Screen::GameOver),
        (Screen::GameOver, false) => next.set(Screen::Battle),
        _ => {}
    }
}

/// A button of the card pressed.
fn press(
    activate: On<Activate>,
    buttons: Query<&CardButton>,
    mut card: ResMut<GameOverCard>,
    opened: Res<Opened>,
    mut pending: ResMut<Pending>,
) {
    match buttons.get(activate.entity) {
        Ok(CardButton::Close) => card.closed = true,
        Ok(CardButton::Restart) => pending.0 = Some(opened.source.clone()),
        Err(_) => {}
    }
}

fn spawn(mut commands: Commands, card: Res<GameOverCard>) {
    let button =
        |label: &str, which: CardButton| (which, theme::button(label, 15.0, theme::BUTTON_ACTION, pad(12.0, 5.0)));
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
            ..default()
        },
        GlobalZIndex(6),
        DespawnOnExit(Screen::GameOver),
        // The frame only centres the card: the map around it still takes
        // the pointer.
        Pickable::IGNORE,
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
            BackgroundColor(theme::GAME_OVER_CARD),
            BorderColor::all(theme::GAME_OVER_BORDER),
            children![
                text(card.title.clone(), 30.0, theme::TEXT_TITLE),
                text(card.body.clone(), 14.0, theme::TEXT_BODY),
                (
                    Node { column_gap: Val::Px(10.0), ..default() },
                    children![button("Close (Esc)", CardButton::Close), button("Play again (R)", CardButton::Restart)],
                ),
            ],
        )],
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::sim::{Seats, Simulation};

    /// The card is a screen: up once the log shown reaches the end, hidden
    /// under the menu until it closes, gone when closed or stepped back
    /// before; its entities go with it.
    #[test]
    fn the_card_is_a_screen_of_its_own_until_closed() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin)).init_state::<Screen>();
        app.init_resource::<GameOverCard>();
        app.add_systems(OnEnter(Screen::GameOver), spawn);
        app.add_systems(Update, follow);
        let frames = |app: &mut App| {
            app.update();
            app.update();
            let cards = app.world_mut().query_filtered::<(), With<Card>>().iter(app.world()).count();
            (*app.world().resource::<State<Screen>>().get(), cards)
        };
        assert_eq!(frames(&mut app), (Screen::Battle, 0));
        app.world_mut().resource_mut::<GameOverCard>().at = Some(3);
        assert_eq!(frames(&mut app), (Screen::GameOver, 1), "the end of the battle is shown");
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
        assert_eq!(frames(&mut app), (Screen::Menu, 0), "the menu over it");
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
        assert_eq!(frames(&mut app), (Screen::GameOver, 1), "back once the menu closes");
        app.world_mut().resource_mut::<GameOverCard>().closed = true;
        assert_eq!(frames(&mut app), (Screen::Battle, 0), "closed");
        *app.world_mut().resource_mut::<GameOverCard>() = GameOverCard { at: Some(3), ..default() };
        assert_eq!(frames(&mut app), (Screen::GameOver, 1));
        app.world_mut().resource_mut::<GameOverCard>().at = None;
        assert_eq!(frames(&mut app), (Screen::Battle, 0), "stepped back before the end");
    }

    #[test]
    fn a_finished_battle_gets_a_card_with_its_points_and_summary() {
        let text = include_str!("../../scenarios/hagelberg-1813.ron");
        let s = match crate::scenario::parse_bytes(text.as_bytes(), "hagelberg-1813.ron") {
            Ok(s) => Arc::new(s),
            Err(e) => panic!("{e}"),
        };
        let mut sim = Simulation::new(s.clone(), s.seed, vec![], Seats::Watch);
        let w = sim.app.world_mut();
        assert_eq!(game_over_at(w, usize::MAX), None, "not before the end");
        super::super::scenarios::simulate_turns(w, s.turns + 1);
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
