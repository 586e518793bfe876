//! The turn's phases as schedules, and where the battle stands.

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

use crate::turn::{Phase, SavePoint};

/// The schedule run for one phase.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PhaseSchedule(pub Phase);

/// Where the battle stands: the phase now running (or next to run).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub turn: u32,
    /// The phasing side; `None` during `Shocks`.
    pub side: Option<usize>,
    pub phase: Phase,
    pub finished: bool,
}

impl Clock {
    /// The phase after this one, or `None` after the last turn.
    pub fn next(self, sides: usize, turns: u32) -> Option<Clock> {
        let n = SavePoint::from(self).next(sides, turns)?;
        Some(Clock { turn: n.turn, side: n.side, phase: n.phase, finished: self.finished })
    }
}

/// The seed and dice script the battle began with (saves keep them).
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub seed: u64,
    pub dice: Vec<u32>,
}

impl From<Clock> for SavePoint {
    fn from(c: Clock) -> Self {
        SavePoint { turn: c.turn, side: c.side, phase: c.phase, finished: c.finished }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_walks_every_side_through_every_phase() {
        let mut c = Clock { turn: 1, side: None, phase: Phase::Shocks, finished: false };
        let mut seen = vec![(c.turn, c.side, c.phase)];
        while let Some(n) = c.next(2, 2) {
            c = n;
            seen.push((c.turn, c.side, c.phase));
        }
        assert_eq!(seen.len(), 2 * (1 + 2 * 6));
        assert_eq!(seen[1], (1, Some(0), Phase::Charge));
        assert_eq!(seen[6], (1, Some(0), Phase::MoraleRecovery));
        assert_eq!(seen[7], (1, Some(1), Phase::Charge));
        assert_eq!(seen[13], (2, None, Phase::Shocks));
        assert_eq!(seen.last(), Some(&(2, Some(1), Phase::MoraleRecovery)));
    }
}
