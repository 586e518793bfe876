//! What the rout preview shows, shared by the hex and the table drawings:
//! why a unit's preview is up, the preview itself with the names it
//! writes, and the marks and labels spawned for it.

use bevy::prelude::*;

use crate::belle_alliance::flight_preview::FlightPreview;
use crate::hex::Offset;
use crate::labataille::rout_preview::RoutPreview;

/// Why a unit's rout is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// R is on and the unit is selected.
    Selected,
    /// The enemy under the pointer while a fire or melee is chosen.
    Target,
    /// The enemy under the pointer while this unit's charge is chosen: its
    /// rout on the board at contact, the charger next to it.
    Charged(usize),
}

/// The preview shown, and what it was worked out for.
#[derive(Resource, Default)]
pub struct RoutView {
    /// R is on: the selected unit's rout (or flight, on a table) is shown.
    pub on: bool,
    /// Hex mode: the rout shown.
    pub shown: Option<Previewed>,
    /// A table: the flight shown.
    pub flight: Option<FlightShown>,
    pub(super) key: Option<Key>,
}

/// One unit's previewed rout, with the names the map and legend write.
#[derive(Clone, Debug, PartialEq)]
pub struct Previewed {
    pub why: Why,
    pub preview: RoutPreview,
    pub name: String,
}

/// One unit's previewed flight on a table, with its name.
#[derive(Clone, Debug, PartialEq)]
pub struct FlightShown {
    pub preview: FlightPreview,
    pub name: String,
}

/// What a preview depends on: the unit, why it is shown, and the board
/// (the log's length and every change to a unit's components).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Key {
    pub unit: usize,
    pub why: Why,
    pub events: usize,
    pub epoch: u64,
}

/// A hex of the previewed path, marked on the map.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoutMark {
    pub hex: Offset,
}

/// The label over a hex of friends the router would pass: their chances.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct RiskLabel {
    pub hex: Offset,
    pub text: String,
}

/// The label over a friend a previewed flight would meet on a table (its
/// chance to be carried along), or over the flight's end (what stopped
/// it): `unit` is the friend, `None` at the end.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct FlightLabel {
    pub unit: Option<usize>,
    pub text: String,
}
