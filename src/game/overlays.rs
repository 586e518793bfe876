//! Overlays the player toggles with keys: distance to the nearest enemy as a
//! heat map, enemy zones of influence, the selected unit's movement range,
//! and this turn's rout moves as arrows.

use bevy::prelude::*;

pub(super) fn plugin(_app: &mut App) {}
