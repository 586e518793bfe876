//! `sauve`: a Napoleonic wargame simulator about morale, rout and the
//! cascades that break a line.
//!
//! The rules are pure functions over plain data ([`labataille`] for hex mode);
//! [`sim`] runs them as an ECS world; [`scenario`] reads the files authors
//! write; [`events`] is the one record everything writes to.

pub mod asset;
pub mod belle_alliance;
pub mod cli;
pub mod dice;
pub mod events;
pub mod game;
pub mod generate;
pub mod hex;
pub mod labataille;
pub mod map;
pub mod report;
pub mod rules;
pub mod save;
pub mod scenario;
pub mod sim;
pub mod terrain;
