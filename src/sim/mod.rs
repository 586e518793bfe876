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
//! - [`orders`]: a player's orders and undo, one path for both modes;
//! - [`previews`]: what the window shows before an order (reach, odds, a
//!   charge's path, a rout, a march's cost), each mode's side by side;
//! - [`victory`]: objectives, leaders, corps breaking, score and summary;
//! - [`simulation`]: the headless app.

pub mod battle;
pub mod clock;
pub mod components;
pub mod control;
pub mod driver;
pub mod free_space;
mod hex_phases;
pub mod orders;
mod play;
pub mod previews;
pub mod setup;
pub mod simulation;
pub mod thinking;
pub mod victory;
pub mod view;

pub use crate::labataille::orders::LoggedOrder;
pub use crate::turn::{OrderStamp, Phase, SavePoint};
pub use crate::vocab::Control;
pub use battle::{Battle, BattleLog, DiceBox, EngineState};
pub use clock::{Clock, Origin, PhaseSchedule};
pub use components::*;
pub use control::{AiLevels, Controls, Seats};
pub use driver::{
    answer, dropped_orders, end_phase, orders_not_replayed, run_to, run_to_boundary, start_fork_replay, start_replay,
    step_phase, write_final,
};
pub use free_space::{FsState, fs_score};
pub use hex_phases::ai_rest_of_phase;
pub use orders::{awaiting_orders, issue_order, undo};
pub use play::PlayState;
pub use previews::{
    FsFireOdds, FsMeleeOdds, attack_odds, charge_odds, charge_path, charge_target_rout, fire_odds, fs_charge_odds,
    fs_fire_odds, fs_flight_preview, fs_march_preview, fs_melee_odds, movement_range, mp_left, rout_preview,
};
pub use setup::{install, install_schedules, reset, spawn_units};
pub use simulation::Simulation;
pub use thinking::{Deliberations, Position, Question, Thinking};
pub use victory::{BattleSummary, Victory, holders, score, summary};
