//! `sauve`: a Napoleonic wargame simulator about morale, rout and the
//! cascades that break a line.
//!
//! The rules live in the `sauve-rules` crate, which has no Bevy in it; they
//! are re-exported here under the same names ([`labataille`] for hex mode,
//! [`belle_alliance`] for free space, [`scenario`], [`events`], ...). This
//! crate runs them: [`sim`] as an ECS world, [`game`] as the window, [`cli`]
//! as the command line, [`whatif`] many times over (forecasts, forks,
//! batches).

pub use sauve_rules::{
    belle_alliance, checks, dice, edit, events, generate, hex, labataille, map, report, rules, scenario, sentences,
    terrain, turn, vocab, why,
};

pub mod asset;
pub mod cli;
pub mod game;
pub mod save;
pub mod sim;
pub mod whatif;
