//! What if? The plain-data side of forecasts, forks and batch runs
//! (docs/whatif.md): what one continuation of a game came to
//! ([`outcome`]), many of them summed into odds ([`odds`]), the seeds
//! each run gets ([`seeds`]), one battle's row of a batch and many rows
//! merged ([`table`], [`merge`]), a batch against another of the same
//! seeds ([`lift`]), confidence intervals ([`stats`]), the
//! dice a fork changes ([`reroll`]) and two histories compared
//! ([`compare`]). Running the games themselves is the simulation's.

pub mod compare;
pub mod lift;
pub mod merge;
pub mod odds;
pub mod outcome;
pub mod reroll;
pub mod seeds;
pub mod stats;
pub mod table;

pub use odds::Forecast;
pub use outcome::Outcome;
