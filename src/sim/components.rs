//! The unit components, one concern each: between phases they are the
//! truth about every unit (the rules read them through [`super::view`]).

use bevy::prelude::*;

use crate::hex::{Dir, Offset};
use crate::scenario::{Formation, Readiness, State};
use crate::terrain::Arm;

/// Position in the scenario's unit list: the stable order every rule uses.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct UnitIndex(pub usize);

/// Identity: the scenario id and the display name.
#[derive(Component, Clone, Debug)]
pub struct UnitName {
    pub id: String,
    pub name: String,
}

/// Which side (index into the scenario's sides).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideIndex(pub usize);

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArmOf(pub Arm);

/// Hex mode position; `None` once off the board.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexPosition(pub Option<Offset>);

/// Free-space position (cm) and facing (degrees clockwise from north).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct TablePosition {
    pub x: f32,
    pub y: f32,
    pub facing: f32,
}

/// Strength increments (hex) or figures (free space).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength(pub u32);

/// The printed d66 morale value (hex mode).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoraleValue(pub u8);

/// Valour, -5..=5 (free space).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Valour(pub i32);

/// Hex-mode morale state.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoraleState(pub State);

/// Free-space disorder state (Order, LU, U, FU).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisorderState(pub State);

/// Cavalry readiness: Fresh, Tired, Exhausted.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CavalryReadiness(pub Readiness);

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormationOf(pub Formation);

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facing(pub Dir);

/// Artillery with its limbers on.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limbered(pub bool);

/// Free-space horse artillery (flees at the horse rate when limbered).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HorseArtillery(pub bool);

/// Free space: where a battery's guns were left when its gunners fled
/// (Belle Alliance 2.2.7), for drawing and capture.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct AbandonedGuns(pub Option<(f32, f32)>);

/// Free space: the turn the unit's state last got worse (0: shaken from the
/// start); reorganisation waits for the next bound.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShakenIn(pub Option<u32>);

/// Has neither moved nor fought since its side's last recovery segment.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rested(pub bool);
