//! The player's turn as the window sees it this frame: the phase waiting
//! for orders and whose they are, the units picked, the range, path and
//! odds worked out for them, and what became of the last order. The orders
//! feature writes it; the camera, the playback, the panels and the
//! overlays read it.

use bevy::prelude::*;

use crate::hex::Offset;
use crate::labataille::movement::Reach;
use crate::turn::Phase;

/// Something to tell the player, and whether it is an error.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub text: String,
    pub error: bool,
}

impl Notice {
    /// What an order or a key did.
    pub fn said(text: impl Into<String>) -> Notice {
        Notice { text: text.into(), error: false }
    }

    /// Why it did nothing.
    pub fn error(text: impl Into<String>) -> Notice {
        Notice { text: text.into(), error: true }
    }
}

/// The player's turn as the window sees it this frame.
#[derive(Resource, Default)]
pub struct PlayerTurn {
    /// The phase waiting for orders, and the side that gives them.
    pub awaiting: Option<(Phase, usize)>,
    /// A phase waits for orders but the player stepped the shown log back
    /// (`Playback::reviewing`): the counters stand where they stood in the
    /// past, so no range, path or odds (worked out on the present board) are
    /// shown, and clicks and order keys give, undo and end nothing until the
    /// shown log is back at the present.
    pub reviewing: bool,
    /// The units that give the next order together (firers, attackers).
    pub group: Vec<usize>,
    /// The selected unit's movement range (movement phase only).
    pub reach: Option<(usize, Reach)>,
    /// The selected unit's movement points left, in hundredths (movement
    /// phase only).
    pub mp_left: Option<(usize, u32)>,
    /// The march to the hex under the pointer.
    pub preview: Option<Vec<Offset>>,
    /// Odds, or what a click on the hovered hex would do.
    pub odds: Option<String>,
    pub message: Option<Notice>,
    /// Seconds the message has been up (outside a waiting phase it goes
    /// after [`MESSAGE_SECONDS`]).
    pub(super) message_age: f32,
    /// What the cached range and odds were worked out for.
    pub(super) key: Option<CacheKey>,
}

impl PlayerTurn {
    /// Puts `notice` up, fresh.
    pub fn say(&mut self, notice: Notice) {
        self.message = Some(notice);
        self.message_age = 0.0;
    }
}

/// What the cached range and odds were worked out for.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct CacheKey {
    pub(super) awaiting: Option<(Phase, usize)>,
    pub(super) reviewing: bool,
    pub(super) selected: Option<usize>,
    pub(super) group: Vec<usize>,
    pub(super) hex: Option<Offset>,
    pub(super) events: usize,
}

/// How long a message stays up when no phase waits for orders.
pub const MESSAGE_SECONDS: f32 = 5.0;
