//! The scenario editor's work as pure functions over the file model
//! ([`crate::scenario::ScenarioFile`]), which the window's editor and
//! the tests call alike: a new map ([`blank`]), the ground painted
//! ([`paint`]), the forces placed and changed ([`forces`]), undo and redo
//! ([`history`]), the sides, their rear edges and exits ([`sides`]), the
//! places the checker's problems are about ([`places`]), and the file
//! written back as RON ([`write`]).
//! Validation is the loader's own ([`crate::scenario::validate`]).

pub mod blank;
pub mod forces;
pub mod history;
pub mod paint;
pub mod places;
pub mod sides;
pub mod write;
