//! Who won, and what it cost (hex mode): leaders' morale bonus, corps and
//! army morale (docs/rules.md 1.6), objectives, exits, the final score and the
//! end-of-game summary. Pure functions over the scenario, the board and the
//! event log; the callers keep the little state there is (which unit each
//! leader rides with, who holds each objective, what left by each exit).

mod corps;
mod leaders;
mod objectives;
mod summary;

pub use corps::{CorpsStatus, army_broken, break_causes, corps_status};
pub use leaders::{initial_attachment, leader_bonus, reattach};
pub use objectives::{Score, exit_for, exit_tally, initial_holders, record_exit, score, tally_exits, update_holders};
pub use summary::{SideSummary, Summary, summary};

#[cfg(test)]
mod tests;
