//! The open battle: which scenario is open, where it came from (one of the
//! bundled files, or a file on disk), its map geometry, and the marker of
//! everything drawn for it. Every feature reads these; nothing here reads a
//! feature.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::TileStorage;

use super::layout::Layout;
use crate::scenario::{Mode, Scenario};

/// The bundled scenarios, by file name, embedded so the binary works from
/// any directory. The first is the default.
pub const BUNDLED: &[(&str, &str)] = &[
    ("cascade.ron", include_str!("../../scenarios/cascade.ron")),
    ("grossbeeren-1813.ron", include_str!("../../scenarios/grossbeeren-1813.ron")),
    ("hagelberg-1813.ron", include_str!("../../scenarios/hagelberg-1813.ron")),
    ("dennewitz-1813.ron", include_str!("../../scenarios/dennewitz-1813.ron")),
    ("ligny-1815.ron", include_str!("../../scenarios/ligny-1815.ron")),
    ("plancenoit-1815.ron", include_str!("../../scenarios/plancenoit-1815.ron")),
    // Last, so the others keep their numbers; the menu names it for newcomers.
    ("first-battle.ron", include_str!("../../scenarios/first-battle.ron")),
];

/// Where the open scenario came from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// One of the scenarios built into the binary, by index in [`BUNDLED`].
    Bundled(usize),
    File(PathBuf),
}

/// The open scenario, or the problems that stopped it opening.
#[derive(Resource)]
pub struct Opened {
    pub source: Source,
    pub scenario: Option<Arc<Scenario>>,
    /// Located error lines (`FILE:LINE:COL: error: ...`) of an invalid file.
    pub errors: Vec<String>,
    pub layout: Layout,
    /// Unit index by scenario id, to read the event log.
    pub ids: HashMap<String, usize>,
}

impl Opened {
    /// A valid scenario, opened from `source`.
    pub fn battle(source: Source, scenario: Arc<Scenario>) -> Opened {
        let ids = scenario.units.iter().enumerate().map(|(i, u)| (u.id.clone(), i)).collect();
        Opened { source, layout: layout_of(&scenario), scenario: Some(scenario), errors: Vec::new(), ids }
    }

    /// A source that did not open, with its located errors.
    pub fn failed(source: Source, errors: Vec<String>) -> Opened {
        Opened { source, scenario: None, errors, layout: Layout::Hex { width: 1, height: 1 }, ids: HashMap::new() }
    }

    pub fn title(&self) -> String {
        match (&self.scenario, &self.source) {
            (Some(s), _) => s.name.clone(),
            (None, Source::File(p)) => p.display().to_string(),
            (None, Source::Bundled(i)) => BUNDLED.get(*i).map_or("?", |b| b.0).to_owned(),
        }
    }

    pub fn hex_mode(&self) -> bool {
        self.scenario.as_ref().is_some_and(|s| s.mode == Mode::Hex)
    }
}

/// The map geometry of a scenario.
pub fn layout_of(s: &Scenario) -> Layout {
    let (width, height) = (s.map.width.max(1) as u32, s.map.height.max(1) as u32);
    match s.mode {
        Mode::Hex => Layout::Hex { width, height },
        Mode::FreeSpace => Layout::Table { width, height, cell_cm: s.cell_cm },
    }
}

/// Marks everything drawn for one battle, so opening another removes it.
#[derive(Component)]
pub struct OnBattle;

/// Removes what was drawn for the battle (or the editor's map): its
/// entities, and the tiles of its tilemaps, which are entities of their
/// own (bevy_ecs_tilemap does not despawn them with their map) that the
/// renderer would otherwise find without their map. The one way a battle
/// is cleared: opening another, the editor's redraw, a playtest and back.
pub fn clear_battle(world: &mut World) {
    let mut q = world.query_filtered::<(Entity, Option<&TileStorage>), With<OnBattle>>();
    let mut gone: Vec<Entity> = Vec::new();
    for (e, storage) in q.iter(world) {
        gone.push(e);
        if let Some(s) = storage {
            gone.extend(s.iter().flatten());
        }
    }
    for e in gone {
        if let Ok(em) = world.get_entity_mut(e) {
            em.despawn();
        }
    }
}
