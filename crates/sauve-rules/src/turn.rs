//! The turn as the rules see it (docs/rules.md 1.6): its phases, who gives each
//! side's orders, and where in the battle an order was given; plain data
//! that the simulation steps through and saves record.

/// The phases of a turn (docs/rules.md 1.6). `Shocks` opens each turn; then each
/// side in scenario order runs the six phases from `Charge` to
/// `MoraleRecovery`. `End` is not played: it stamps what is written once
/// the battle is over (the result and every unit's last state).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    #[default]
    Shocks,
    Charge,
    Movement,
    DefensiveFire,
    OffensiveFire,
    Melee,
    MoraleRecovery,
    End,
}

impl Phase {
    /// This phase, if orders are given in it (Charge to Melee).
    pub fn order_phase(self) -> Option<Phase> {
        self.takes_orders().then_some(self)
    }

    /// Whether orders are given in this phase.
    pub fn takes_orders(self) -> bool {
        match self {
            Phase::Charge | Phase::Movement | Phase::DefensiveFire | Phase::OffensiveFire | Phase::Melee => true,
            Phase::Shocks | Phase::MoraleRecovery | Phase::End => false,
        }
    }

    /// Which side gives orders: the phasing side, except in defensive fire.
    pub fn acting_side(self, phasing: usize) -> usize {
        if self == Phase::DefensiveFire { 1 - phasing.min(1) } else { phasing }
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
            Phase::End => "End",
        }
    }

    /// The phase's name in words, as the log's sentences say it.
    pub fn words(self) -> &'static str {
        match self {
            Phase::Shocks => "shocks",
            Phase::Charge => "charge",
            Phase::Movement => "movement",
            Phase::DefensiveFire => "defensive fire",
            Phase::OffensiveFire => "offensive fire",
            Phase::Melee => "melee",
            Phase::MoraleRecovery => "morale recovery",
            Phase::End => "end",
        }
    }
}

/// Where in the battle an order was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OrderStamp {
    pub turn: u32,
    /// The phasing side.
    pub side: usize,
    /// An order phase (one that [`Phase::takes_orders`]).
    pub phase: Phase,
}

/// A position of the clock, as saves record it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavePoint {
    pub turn: u32,
    pub side: Option<usize>,
    pub phase: Phase,
    pub finished: bool,
}

impl SavePoint {
    /// The clock's next position among `sides` sides and `turns` turns
    /// (docs/rules.md 1.6): `Shocks` opens a turn, then each side in order
    /// runs its six phases; `None` after the last side's `MoraleRecovery`
    /// of the last turn. `finished` is kept as it was.
    pub fn next(self, sides: usize, turns: u32) -> Option<SavePoint> {
        let mut c = self;
        match (c.phase, c.side) {
            (Phase::Shocks, _) => {
                c.side = Some(0);
                c.phase = Phase::Charge;
            }
            (Phase::MoraleRecovery, Some(s)) if s + 1 < sides => {
                c.side = Some(s + 1);
                c.phase = Phase::Charge;
            }
            (Phase::MoraleRecovery, _) => {
                if c.turn >= turns {
                    return None;
                }
                c.turn += 1;
                c.side = None;
                c.phase = Phase::Shocks;
            }
            (p, _) => {
                let i = Phase::SIDE_PHASES.iter().position(|&x| x == p).unwrap_or(0);
                c.phase = Phase::SIDE_PHASES[(i + 1).min(5)];
            }
        }
        Some(c)
    }
}
