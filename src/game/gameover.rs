//! The card at the end of a battle: once the log shown reaches the
//! `GameOver` event, who won (or a draw), outright or on points, each side's
//! points and how they were made, and the end-of-game summary (losses,
//! corps, cascades). The card is a screen of its own ([`Screen::GameOver`]),
//! spawned on entering it and gone on leaving it. Esc or its Close button
//! closes it; R (or its button) restarts the battle. Stepping the log back
//! before the end takes it away too, and the menu or the help card over it
//! only hides it until they close. Clicks on the card stay on it
//! ([`ShieldsMap`]): they neither select nor order the units under it.

use bevy::prelude::*;
use bevy::ui_widgets::{Activate, Button};

use super::input::ShieldsMap;
use super::opened::Opened;
use super::scenarios::Pending;
use super::screen::{BAR_H, PANEL_W};
use super::sets::GameSet;
use super::shown::{ScenarioNames, Shown};
use super::state::Screen;
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
            ..default()
        },
        GlobalZIndex(6),
        DespawnOnExit(Screen::GameOver),
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
            // A click on the card (its buttons included) is not a click on
            // the map under it; the frame around it lets the map be clicked.
            ShieldsMap,
            children![
                (Text::new(card.title.clone()), TextFont::from_font_size(30.0), TextColor(Color::srgb(1.0, 0.85, 0.4))),
                (
                    Text::new(card.body.clone()),
                    TextFont::from_font_size(14.0),
                    TextColor(Color::srgb(0.92, 0.92, 0.88))
                ),
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

    use bevy::camera::{ComputedCameraValues, RenderTargetInfo};
    use bevy::input::mouse::AccumulatedMouseScroll;
    use bevy::ui::RelativeCursorPosition;
    use bevy::window::{PrimaryWindow, WindowResolution};

    use super::super::camera;
    use super::super::input::{self, MapButton, MapClick, Pointer};
    use super::super::opened::Source;
    use super::super::request::Request;
    use super::super::screen::MainCamera;
    use super::super::shown::initial;
    use super::super::turn::PlayerTurn;
    use crate::hex::Offset;
    use crate::labataille::orders::OrderPhase;
    use crate::sim::{AiMode, Simulation};

    /// The pointer's systems and the card in an app without a window
    /// backend or renderer: a 1280 x 720 window with the cursor at its
    /// middle, over hex (3, 3) where a French battalion stands.
    fn pointer_app() -> App {
        let text = r#"Scenario(format: 1, name: "t", sides: [(id: "fr"), (id: "ru")],
            map: (rows: ["........", "........", "........", "........", "........", "........"]),
            units: [(id: "fr-a", side: "fr", arm: Infantry, at: (3, 3), morale: 44, strength: 4),
                    (id: "ru-a", side: "ru", arm: Infantry, at: (6, 0), morale: 44, strength: 4)])"#;
        let s = match crate::scenario::parse(text, "t.ron") {
            Ok(s) => Arc::new(s),
            Err(e) => panic!("{e}"),
        };
        let layout = super::super::opened::layout_of(&s);
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        input::plugin(&mut app);
        app.init_resource::<ButtonInput<MouseButton>>()
            .init_resource::<ButtonInput<KeyCode>>()
            .init_resource::<AccumulatedMouseScroll>()
            .init_resource::<PlayerTurn>()
            .init_resource::<GameOverCard>()
            .insert_resource(Shown { units: initial(&s), ..default() })
            .insert_resource(Request(crate::cli::WindowRequest { file: None, shot: None }))
            .insert_resource(Opened {
                source: Source::Bundled(0),
                scenario: Some(s),
                errors: Vec::new(),
                layout,
                ids: Default::default(),
            });
        let mut window = Window { resolution: WindowResolution::new(1280, 720), ..default() };
        window.set_cursor_position(Some(Vec2::new(640.0, 360.0)));
        app.world_mut().spawn((window, PrimaryWindow));
        // An orthographic camera at scale 1 centred on the hex: the middle
        // of the window shows it.
        let centre = layout.world(Offset::new(3, 3)).extend(0.0);
        let camera = Camera {
            computed: ComputedCameraValues {
                clip_from_view: Mat4::orthographic_rh(-640.0, 640.0, -360.0, 360.0, -1000.0, 1000.0),
                target_info: Some(RenderTargetInfo { physical_size: UVec2::new(1280, 720), scale_factor: 1.0 }),
                ..default()
            },
            ..default()
        };
        app.world_mut().spawn((
            camera,
            Projection::Orthographic(OrthographicProjection::default_2d()),
            Transform::from_translation(centre),
            GlobalTransform::from_translation(centre),
            MainCamera,
        ));
        app.add_plugins(bevy::state::app::StatesPlugin).init_state::<Screen>();
        app.add_systems(OnEnter(Screen::GameOver), spawn);
        app.add_systems(Update, (follow, camera::pan_zoom, camera::point).chain());
        app
    }

    /// The map clicks of the last frame.
    fn clicked(app: &App) -> Vec<MapClick> {
        app.world().resource::<Messages<MapClick>>().iter_current_update_messages().copied().collect()
    }

    /// Presses and releases the left button over the middle of the window.
    fn click(app: &mut App) {
        app.world_mut().resource_mut::<ButtonInput<MouseButton>>().press(MouseButton::Left);
        app.update();
        let mut buttons = app.world_mut().resource_mut::<ButtonInput<MouseButton>>();
        buttons.clear();
        buttons.release(MouseButton::Left);
        app.update();
        app.world_mut().resource_mut::<ButtonInput<MouseButton>>().clear();
    }

    /// The card open, with the cursor over it as Bevy's UI focus system
    /// would find it (the layout it reads needs a renderer).
    fn open_card_under_cursor(app: &mut App) {
        app.world_mut().resource_mut::<GameOverCard>().at = Some(0);
        app.update();
        app.update();
        assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::GameOver);
        let up = app.world_mut().query_filtered::<&Node, With<Card>>().single(app.world()).is_ok();
        assert!(up, "the card is up");
        let mut q = app.world_mut().query_filtered::<&mut RelativeCursorPosition, With<ShieldsMap>>();
        let mut over = q.single_mut(app.world_mut()).expect("the card's box shields the map");
        over.cursor_over = true;
    }

    #[test]
    fn a_click_on_the_game_over_card_neither_selects_nor_orders_the_units_under_it() {
        // Without the card, a click on the battalion selects it; while a
        // phase waits for orders, it is the order system's click.
        let mut app = pointer_app();
        app.update();
        click(&mut app);
        assert_eq!(app.world().resource::<Pointer>().selected, Some(0));
        let mut app = pointer_app();
        app.world_mut().resource_mut::<PlayerTurn>().awaiting = Some((OrderPhase::Movement, 0));
        app.update();
        click(&mut app);
        assert_eq!(clicked(&app), vec![MapClick { hex: Offset::new(3, 3), button: MapButton::Primary }]);

        // With the card up under the cursor: nothing, either way.
        for awaiting in [None, Some((OrderPhase::Movement, 0))] {
            let mut app = pointer_app();
            app.world_mut().resource_mut::<PlayerTurn>().awaiting = awaiting;
            open_card_under_cursor(&mut app);
            click(&mut app);
            let p = app.world().resource::<Pointer>();
            assert_eq!((p.selected, p.hex), (None, None), "awaiting {awaiting:?}");
            assert_eq!(clicked(&app), vec![], "awaiting {awaiting:?}");
        }

        // A press on the card's Close button hides it before the release:
        // the release over the map is still no click on it.
        let mut app = pointer_app();
        app.world_mut().resource_mut::<PlayerTurn>().awaiting = Some((OrderPhase::Movement, 0));
        open_card_under_cursor(&mut app);
        app.world_mut().resource_mut::<ButtonInput<MouseButton>>().press(MouseButton::Left);
        app.update();
        app.world_mut().resource_mut::<GameOverCard>().closed = true;
        let mut q = app.world_mut().query_filtered::<&mut RelativeCursorPosition, With<ShieldsMap>>();
        if let Ok(mut over) = q.single_mut(app.world_mut()) {
            over.cursor_over = false;
        }
        let mut buttons = app.world_mut().resource_mut::<ButtonInput<MouseButton>>();
        buttons.clear();
        buttons.release(MouseButton::Left);
        app.update();
        let p = app.world().resource::<Pointer>();
        assert_eq!(p.hex, Some(Offset::new(3, 3)), "the map has the pointer back");
        assert_eq!(clicked(&app), vec![], "the press was on the card");
    }

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
