//! What the window shows over the battle, one at a time: nothing (the
//! battle itself), the scenario menu, the help card, or the card at the end
//! of a battle. Each card is spawned on entering its screen and despawned
//! on leaving it (`DespawnOnExit`), and the keys that switch screens are
//! read here, in one place.

use bevy::prelude::*;

use super::sets::GameSet;

/// The screen over the battle.
#[derive(States, Default, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Screen {
    /// The battle, with nothing over it.
    #[default]
    Battle,
    /// The scenario menu (Tab or M): while it is open the battle's keys
    /// wait, and its number keys open scenarios.
    Menu,
    /// The help card (H or F1).
    Help,
    /// The card at the end of a battle, once the log shown reaches it.
    GameOver,
    /// The scenario editor has the window (`sauve edit`, E in the menu):
    /// the battle's keys wait, and only the menu opens over it.
    Editor,
}

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>();
    app.add_systems(Update, switch.in_set(GameSet::Input));
}

/// The screen a key asks for from `now`, if any: Tab or M opens and closes
/// the menu, H or F1 the help card, Esc closes whatever is open.
pub fn next_screen(keys: &ButtonInput<KeyCode>, now: Screen) -> Option<Screen> {
    // The editor's keys are its own.
    if now == Screen::Editor {
        return None;
    }
    if keys.any_just_pressed([KeyCode::Tab, KeyCode::KeyM]) {
        return Some(if now == Screen::Menu { Screen::Battle } else { Screen::Menu });
    }
    if keys.any_just_pressed([KeyCode::KeyH, KeyCode::F1]) && now != Screen::Menu {
        return Some(if now == Screen::Help { Screen::Battle } else { Screen::Help });
    }
    (keys.just_pressed(KeyCode::Escape) && now != Screen::Battle).then_some(Screen::Battle)
}

fn switch(keys: Res<ButtonInput<KeyCode>>, now: Res<State<Screen>>, mut next: ResMut<NextState<Screen>>) {
    if let Some(to) = next_screen(&keys, *now.get()) {
        next.set(to);
    }
}

/// The battle's own keys (playback, overlays, orders) count: no menu is
/// open over it.
pub fn battle_keys(screen: Res<State<Screen>>) -> bool {
    !matches!(screen.get(), Screen::Menu | Screen::Editor)
}

#[cfg(test)]
mod tests {
    use bevy::state::app::StatesPlugin;

    use super::*;
    use crate::game::testing::press;

    #[derive(Component)]
    struct Card;

    fn screen(app: &App) -> Screen {
        *app.world().resource::<State<Screen>>().get()
    }

    fn cards(app: &mut App) -> usize {
        app.world_mut().query_filtered::<Entity, With<Card>>().iter(app.world()).count()
    }

    /// The keys switch screens as the help card says, and a card spawned
    /// for a screen goes when the screen is left.
    #[test]
    fn keys_open_and_close_the_screens_and_their_cards_go_with_them() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin)).init_resource::<ButtonInput<KeyCode>>();
        plugin(&mut app);
        app.add_systems(OnEnter(Screen::Help), |mut commands: Commands| {
            commands.spawn((Card, DespawnOnExit(Screen::Help)));
        });
        app.update();
        assert_eq!(screen(&app), Screen::Battle);
        press(&mut app, KeyCode::KeyH);
        assert_eq!((screen(&app), cards(&mut app)), (Screen::Help, 1), "H opens the help card");
        press(&mut app, KeyCode::Tab);
        assert_eq!((screen(&app), cards(&mut app)), (Screen::Menu, 0), "the menu replaces it");
        press(&mut app, KeyCode::KeyH);
        assert_eq!(screen(&app), Screen::Menu, "no help over the menu");
        press(&mut app, KeyCode::KeyM);
        assert_eq!(screen(&app), Screen::Battle, "M closes the menu");
        press(&mut app, KeyCode::F1);
        press(&mut app, KeyCode::Escape);
        assert_eq!((screen(&app), cards(&mut app)), (Screen::Battle, 0), "Esc closes the help card");
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::GameOver);
        app.update();
        press(&mut app, KeyCode::Escape);
        assert_eq!(screen(&app), Screen::Battle, "Esc closes the end-of-battle card");
    }
}
