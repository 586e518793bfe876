//! The rules of `sauve`, with no engine or window in them: pure functions
//! over plain data that the ECS simulation, the window, the command line
//! and the tests all ask.
//!
//! - [`labataille`]: the hex rules (docs/rules.md 1.1-1.9): rout and disorder moves,
//!   contagion, recovery, combat, orders, victory, the AI;
//! - [`belle_alliance`]: the free-space rules (docs/rules.md 2.1-2.12): flight, spread of
//!   rout, reorganisation;
//! - [`scenario`]: the files authors write, parsed and validated with their
//!   places; [`save`]: saves of a game;
//! - [`events`]: the one record every rule writes to; [`sentences`] and
//!   [`report`]: that record in words;
//! - [`why`]: the cause graph read backwards; [`whatif`]: forecasts,
//!   forks and batches as plain data;
//! - [`hex`], [`dice`], [`terrain`], [`map`], [`rules`], [`turn`]: the
//!   vocabulary.

pub mod belle_alliance;
pub mod checks;
pub mod dice;
pub mod edit;
pub mod events;
pub mod generate;
pub mod hex;
pub mod labataille;
pub mod map;
pub mod report;
pub mod rules;
pub mod save;
pub mod scenario;
pub mod sentences;
pub mod terrain;
pub mod turn;
pub mod vocab;
pub mod whatif;
pub mod why;
