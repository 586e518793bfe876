//! Fire, melee and cavalry charges (docs/rules.md 1.9, our own design in the La
//! Bataille spirit; the tables are data in `rules.combat`, explained in
//! docs/rules.md). Combat feeds the morale engine: losses, morale checks,
//! disorder retreats and routs go through [`Engine`], so every cascade a
//! volley or a charge starts runs by the same rules as a shock's.
//!
//! Each fight has its file: `fire`, `melee` and `charge`; `battlefield`
//! holds what they all read and how they fail; `odds` counts every die an
//! attack rolls.

mod battlefield;
mod charge;
mod fire;
mod melee;
mod odds;

pub use battlefield::{Battlefield, CombatError, two_d6_chance};
pub use charge::{charge_path, charge_reach, resolve_charge, ride, target_rout_at_contact};
pub use fire::{FireOdds, between, fire_odds, line_of_sight, resolve_fire};
pub use melee::{MeleeOdds, Prepared, log_attack, melee_odds, order_melee, prepare_melee, resolve_melee};
pub use odds::{AttackOdds, CheckOdds, attack_odds, attack_odds_on, charge_odds, charge_odds_on};
