//! Who gives each side's orders.

use bevy::prelude::*;

use crate::turn::SideControl;

/// Who gives orders, as the command line's `--ai` says it.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AiMode {
    Both,
    None,
    Side(usize),
}

/// Control of each side, in scenario order.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Controls(pub Vec<SideControl>);

impl Controls {
    pub fn from_ai(ai: AiMode, sides: usize) -> Self {
        Controls(
            (0..sides)
                .map(|i| match ai {
                    AiMode::Both => SideControl::Ai,
                    AiMode::None => SideControl::Idle,
                    AiMode::Side(s) if s == i => SideControl::Ai,
                    AiMode::Side(_) => SideControl::Idle,
                })
                .collect(),
        )
    }

    pub fn of(&self, side: usize) -> SideControl {
        self.0.get(side).copied().unwrap_or(SideControl::Idle)
    }
}
