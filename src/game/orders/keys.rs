//! The orders' keys, read once a frame into [`Intent`]s that the banner's
//! buttons also send: the session keys (F5 saves, F9 opens the newest
//! save, P changes the seats) work whatever the phase; undo, end of phase and the movement
//! phase's unit keys only while the menu is closed.

use bevy::ecs::message::Message;
use bevy::ecs::system::SystemState;
use bevy::prelude::*;

use super::decide::{OrderKey, order_key};
use crate::game::state::Screen;

/// What the player asked of the orders with a key or a banner button.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    /// F5: save the game to a new file.
    Save,
    /// F9: open the newest save of this battle.
    LoadNewest,
    /// P: the next choice of who sits at the window.
    NextSeats,
    /// U, Ctrl+Z or the Undo button: take the last order back.
    Undo,
    /// E, Enter or the End phase button: end the phase waiting for orders.
    EndPhase,
    /// L, C, S, G, K: a formation, or limber and unlimber.
    Formation(OrderKey),
    /// T, Shift+T: turn one hexside clockwise or counter-clockwise.
    Turn { counter_clockwise: bool },
    /// X: march off the map by the side's exit edge.
    Exit,
}

/// Why an order's key does nothing now: no phase waits for a player's
/// orders (the computer is playing, or nobody sits at the window), or the
/// player is looking back in the log.
pub fn not_now(world: &World) -> crate::game::turn::Notice {
    let turn = world.resource::<crate::game::turn::PlayerTurn>();
    let text = if turn.awaiting.is_some() && turn.reviewing {
        "Looking back in the log: End returns to the present, where orders are given."
    } else {
        "No phase waits for your orders now: the computer plays, or the battle plays on (P: who plays)."
    };
    crate::game::turn::Notice::error(text)
}

/// The intents of this frame's keys; `orders` whether the keys of the
/// orders themselves count (not while the menu is open).
pub fn intents(keys: &ButtonInput<KeyCode>, orders: bool) -> Vec<Intent> {
    let mut out = Vec::new();
    for (key, intent) in
        [(KeyCode::F5, Intent::Save), (KeyCode::F9, Intent::LoadNewest), (KeyCode::KeyP, Intent::NextSeats)]
    {
        if keys.just_pressed(key) {
            out.push(intent);
        }
    }
    if !orders {
        return out;
    }
    let ctrl = crate::game::input::modifier(keys, crate::game::input::CTRL);
    let shift = crate::game::input::modifier(keys, crate::game::input::SHIFT);
    if keys.just_pressed(KeyCode::KeyU) || (ctrl && keys.just_pressed(KeyCode::KeyZ)) {
        out.push(Intent::Undo);
    }
    if keys.any_just_pressed([KeyCode::KeyE, KeyCode::Enter, KeyCode::NumpadEnter]) {
        out.push(Intent::EndPhase);
    }
    if ctrl {
        return out;
    }
    if let Some(k) = keys.get_just_pressed().find_map(|k| order_key(*k)) {
        out.push(Intent::Formation(k));
    }
    if keys.just_pressed(KeyCode::KeyT) {
        out.push(Intent::Turn { counter_clockwise: shift });
    }
    if keys.just_pressed(KeyCode::KeyX) {
        out.push(Intent::Exit);
    }
    out
}

pub(super) fn read_keys(keys: Res<ButtonInput<KeyCode>>, screen: Res<State<Screen>>, mut out: MessageWriter<Intent>) {
    out.write_batch(intents(&keys, *screen.get() != Screen::Menu));
}

/// The messages of `M` not yet read by `reader`, for an exclusive system.
pub(super) fn unread<M: Message + Clone>(
    world: &mut World,
    reader: &mut SystemState<MessageReader<'static, 'static, M>>,
) -> Vec<M> {
    match reader.get_mut(world) {
        Ok(mut r) => r.read().cloned().collect(),
        Err(_) => Vec::new(),
    }
}

/// The phase waiting for orders and its side, unless the player is looking
/// back at the log (then no order is given, taken back or ended).
pub(super) fn ready(world: &World) -> Option<(crate::turn::Phase, usize)> {
    let turn = world.resource::<crate::game::turn::PlayerTurn>();
    turn.awaiting.filter(|_| !turn.reviewing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::testing::pressed;

    #[test]
    fn keys_name_their_intents_and_the_menu_keeps_the_orders_keys() {
        assert_eq!(intents(&pressed(&[KeyCode::KeyU]), true), vec![Intent::Undo]);
        assert_eq!(intents(&pressed(&[KeyCode::ControlLeft, KeyCode::KeyZ]), true), vec![Intent::Undo]);
        assert_eq!(intents(&pressed(&[KeyCode::Enter]), true), vec![Intent::EndPhase]);
        assert_eq!(intents(&pressed(&[KeyCode::KeyC]), true), vec![Intent::Formation(OrderKey::Column)]);
        let t = intents(&pressed(&[KeyCode::ShiftLeft, KeyCode::KeyT]), true);
        assert_eq!(t, vec![Intent::Turn { counter_clockwise: true }]);
        assert_eq!(intents(&pressed(&[KeyCode::ControlLeft, KeyCode::KeyS]), true), vec![], "Ctrl+S is no square");
        // With the menu open only the session keys count.
        assert_eq!(intents(&pressed(&[KeyCode::KeyU, KeyCode::KeyX]), false), vec![]);
        assert_eq!(intents(&pressed(&[KeyCode::F5, KeyCode::KeyP]), false), vec![Intent::Save, Intent::NextSeats]);
    }
}
