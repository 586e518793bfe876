//! The battle as an ECS world: units are entities with components, the turn
//! sequence is a series of phase schedules, and the systems are thin adapters
//! that hand the components to the pure rules of [`crate::labataille`] and
//! [`crate::belle_alliance`] and write the results back. Runs headless under
//! `MinimalPlugins`; the game window drives the same [`Simulation`] one
//! phase at a time.
//!
//! - [`components`]: the unit components, one concern each (the truth about
//!   every unit between phases);
//! - [`view`]: the rules' view of them, a board and a table kept between
//!   calls and refreshed only where a component changed;
//! - [`battle`]: the battle's resources (scenario, dice, engine, log);
//! - [`control`]: who gives each side's orders;
//! - [`clock`]: the turn's phases and where the battle stands;
//! - [`play`]: what orders need between phases (order book, undo);
//! - [`hex_phases`] and [`free_space`]: the systems of each rule system;
//! - [`setup`]: spawning the units and installing the schedules;
//! - [`driver`]: stepping phases, replay and the final event;
//! - [`order_api`]: the window's orders, odds and previews (reach, rout);
//! - [`victory`]: objectives, leaders, corps breaking, score and summary;
//! - [`simulation`]: the headless app.

pub mod battle;
pub mod clock;
pub mod components;
pub mod control;
pub mod driver;
pub mod free_space;
mod hex_phases;
pub mod order_api;
mod play;
pub mod setup;
pub mod simulation;
pub mod victory;
pub mod view;

pub use crate::labataille::orders::LoggedOrder;
pub use crate::turn::{OrderStamp, Phase, SavePoint};
pub use crate::vocab::Control;
pub use battle::{Battle, BattleLog, DiceBox, EngineState};
pub use clock::{Clock, Origin, PhaseSchedule};
pub use components::*;
pub use control::{Controls, Seats};
pub use driver::{
    dropped_orders, end_phase, orders_not_replayed, run_to, run_to_boundary, start_fork_replay, start_replay,
    step_phase, write_final,
};
pub use free_space::{
    FsFireOdds, FsMeleeOdds, FsState, fs_charge_odds, fs_fire_odds, fs_march_preview, fs_melee_odds, fs_score,
};
pub use hex_phases::ai_rest_of_phase;
pub use order_api::{
    attack_odds, awaiting_orders, charge_odds, charge_path, charge_target_rout, fire_odds, issue_order, movement_range,
    mp_left, rout_preview, undo,
};
pub use play::PlayState;
pub use setup::{install, install_schedules, reset, spawn_units};
pub use simulation::Simulation;
pub use victory::{BattleSummary, Victory, score, summary};
