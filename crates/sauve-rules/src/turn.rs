//! The turn as the rules see it (RULES.md 1.6): its phases, who gives each
//! side's orders, and where in the battle an order was given; plain data
//! that the simulation steps through and saves record.

use crate::labataille::orders::{Order, OrderPhase};

/// The phases of a turn (RULES.md 1.6). `Shocks` opens each turn; then each
/// side in scenario order runs the six phases from `Charge` to
/// `MoraleRecovery`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    Shocks,
    Charge,
    Movement,
    DefensiveFire,
    OffensiveFire,
    Melee,
    MoraleRecovery,
}

impl Phase {
    /// The order phase this is, if orders are given in it.
    pub fn order_phase(self) -> Option<OrderPhase> {
        Some(match self {
            Phase::Charge => OrderPhase::Charge,
            Phase::Movement => OrderPhase::Movement,
            Phase::DefensiveFire => OrderPhase::DefensiveFire,
            Phase::OffensiveFire => OrderPhase::OffensiveFire,
            Phase::Melee => OrderPhase::Melee,
            _ => return None,
        })
    }

    pub const SIDE_PHASES: [Phase; 6] = [
        Phase::Charge,
        Phase::Movement,
        Phase::DefensiveFire,
        Phase::OffensiveFire,
        Phase::Melee,
        Phase::MoraleRecovery,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Shocks => "Shocks",
            Phase::Charge => "Charge",
            Phase::Movement => "Movement",
            Phase::DefensiveFire => "DefensiveFire",
            Phase::OffensiveFire => "OffensiveFire",
            Phase::Melee => "Melee",
            Phase::MoraleRecovery => "MoraleRecovery",
        }
    }
}

/// Who gives one side's orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SideControl {
    /// The computer decides.
    Ai,
    /// A player at the window decides; its order phases wait for them.
    Human,
    /// Nobody: only forced moves and the morale segments happen.
    Idle,
}

/// Where in the battle an order was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OrderStamp {
    pub turn: u32,
    /// The phasing side.
    pub side: usize,
    pub phase: OrderPhase,
}

/// One order as it was carried out, for saves and replays.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LoggedOrder {
    pub at: OrderStamp,
    pub order: Order,
}

/// A position of the clock, as saves record it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavePoint {
    pub turn: u32,
    pub side: Option<usize>,
    pub phase: Phase,
    pub finished: bool,
}
