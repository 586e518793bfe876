//! The scenario editor's work as pure functions over the file model
//! ([`crate::scenario::ScenarioFile`]), which the window's editor and
//! the tests call alike: a new map ([`blank`]), the ground painted
//! ([`paint`]), the forces placed and changed ([`forces`]), undo and redo
//! ([`history`]), the sides, their rear edges and exits ([`sides`]), the
//! places the checker's problems are about ([`places`]), what differs
//! between two versions of a file ([`compare`]), every field as
//! a form ([`fields`], the rules block's in [`rules_form`]), the map
//! resized, its cells rescaled or its mode changed with everything on it
//! ([`reshape`]), lines, rectangles and regions copied and pasted
//! ([`region`]), and the file written back as RON ([`write`]) with a
//! person's comments kept at their places ([`comments`]).
//! Validation is the loader's own ([`crate::scenario::validate`]).

pub mod blank;
pub mod comments;
pub mod compare;
pub mod fields;
pub mod forces;
pub mod form;
pub mod history;
pub mod paint;
pub mod places;
pub mod region;
pub mod reshape;
pub mod rules_form;
pub mod sides;
pub mod write;
