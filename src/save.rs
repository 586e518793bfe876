//! Save files: a game as the scenario text, the seed and dice script it
//! began with, who controlled each side, every order carried out (with the
//! turn, side and phase it was given in) and where the clock stood. Loading
//! plays the same orders again at the same moments, so the resumed game is
//! the saved one by construction: the same board, the same dice stream and
//! the same event log. A save of a finished game is its replay.
//!
//! RON, versioned (`format`), written through a temporary file and a rename
//! so a crash never leaves half a save.

use std::path::Path;
use std::sync::Arc;

use bevy::prelude::World;
use serde::{Deserialize, Serialize};

use crate::scenario::{self, LoadError, Problem};
use crate::sim::{self, AiMode, Battle, Clock, Controls, LoggedOrder, Origin, PlayState, SavePoint, SideControl};

/// The only save format this build reads.
pub const SAVE_FORMAT: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "SaveGame", deny_unknown_fields)]
pub struct SaveGame {
    pub format: u32,
    /// The scenario's name, for menus.
    pub name: String,
    /// The whole scenario file as it was when the game began.
    pub scenario: String,
    /// Turns played (the scenario's, or the command line's `--turns`).
    pub turns: u32,
    pub seed: u64,
    /// The scripted dice the game began with.
    #[serde(default)]
    pub dice: Vec<u32>,
    pub controls: Vec<SideControl>,
    /// Where the clock stood.
    pub at: SavePoint,
    pub orders: Vec<LoggedOrder>,
}

/// The game in `world` as a save. `scenario_text` is the file it was opened
/// from (the world keeps only the parsed scenario).
pub fn capture(world: &World, scenario_text: &str) -> Option<SaveGame> {
    let battle = world.get_resource::<Battle>()?;
    let origin = world.get_resource::<Origin>()?;
    let clock = *world.get_resource::<Clock>()?;
    Some(SaveGame {
        format: SAVE_FORMAT,
        name: battle.scenario.name.clone(),
        scenario: scenario_text.to_owned(),
        turns: battle.scenario.turns,
        seed: origin.seed,
        dice: origin.dice.clone(),
        controls: world.get_resource::<Controls>()?.0.clone(),
        at: SavePoint::of(clock),
        orders: world.get_resource::<PlayState>()?.book.clone(),
    })
}

impl SaveGame {
    pub fn to_ron(&self) -> String {
        let pretty = ron::ser::PrettyConfig::new().depth_limit(3).struct_names(true);
        ron::ser::to_string_pretty(self, pretty).unwrap_or_default()
    }

    /// Reads a save; `file` names it in messages. The embedded scenario is
    /// validated too, its problems reported against `FILE (scenario)`.
    pub fn parse(text: &str, file: &str) -> Result<(SaveGame, scenario::Scenario), LoadError> {
        let text = scenario::without_bom(text);
        let save: SaveGame = scenario::ron_options().from_str(text).map_err(|e| LoadError::Syntax {
            file: file.into(),
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string().replace(['\n', '\r'], " "),
        })?;
        // A problem with one of the save's own fields, placed at that field.
        let invalid = |field: &str, message: String| {
            let mut problems = vec![Problem { path: Some(field.into()), ..Problem::new(field, message) }];
            scenario::locate(&mut problems, text);
            LoadError::Invalid { file: file.into(), problems }
        };
        if save.format != SAVE_FORMAT {
            return Err(invalid(
                "format",
                format!("unsupported save format {} (this build reads format {SAVE_FORMAT})", save.format),
            ));
        }
        let mut s = scenario::parse(&save.scenario, &format!("{file} (scenario)"))?;
        if save.turns == 0 || save.turns > 1000 {
            return Err(invalid("turns", format!("{} must be 1..=1000", save.turns)));
        }
        if save.controls.len() != s.sides.len() {
            return Err(invalid("controls", format!("{} entries for {} sides", save.controls.len(), s.sides.len())));
        }
        s.turns = save.turns;
        Ok((save, s))
    }

    /// Reads a save file from disk.
    pub fn load(path: &Path) -> Result<(SaveGame, scenario::Scenario), LoadError> {
        let text = read_text(path)?;
        SaveGame::parse(&text, &path.display().to_string())
    }

    /// Writes the save atomically.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        crate::cli::write_atomically(path, &self.to_ron())
    }
}

/// A save file's text; bytes that are not UTF-8 are a located syntax error.
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io { file: file.clone(), source })?;
    scenario::utf8(&bytes, &file).map(str::to_owned)
}

/// The first saved order that the replay in `world` could not carry out
/// (after [`restore`]), as a problem placed at that order in `text`, the
/// save's own text: its turn, phase, unit and why. `None` when every order
/// was carried out.
pub fn failed_order(world: &World, save: &SaveGame, text: &str) -> Option<Problem> {
    let sides = world.get_resource::<Battle>().map(|b| b.scenario.sides.clone()).unwrap_or_default();
    let side_name = |s: usize| sides.get(s).map_or_else(|| format!("side {s}"), |s| format!("side '{}'", s.id));
    let unit_list = |units: &[&str]| match units {
        [one] => format!("unit '{one}'"),
        many => format!("units {}", many.iter().map(|u| format!("'{u}'")).collect::<Vec<_>>().join(", ")),
    };
    let log = world.get_resource::<crate::events::EventLog>()?;
    let errors: Vec<_> = log
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            crate::events::EventKind::ReplayError { order, error, index, units } => {
                Some((e, order, error, *index, units))
            }
            _ => None,
        })
        .collect();
    let left = sim::orders_not_replayed(world);
    let (index, message) = if let Some(&(e, order, error, index, units)) = errors.first() {
        let units: Vec<&str> = units.iter().map(String::as_str).collect();
        let side = e.side.as_deref().map_or_else(String::new, |s| format!(" of side '{s}'"));
        let more = errors.len() - 1 + left.len();
        let more = if more > 0 { format!("; {more} more saved orders failed after it") } else { String::new() };
        (
            index,
            format!(
                "turn {}, {} phase{side}: the order to {} could not be carried out: {error} ({order}){more}",
                e.turn,
                e.phase,
                unit_list(&units)
            ),
        )
    } else {
        let first = left.first()?;
        let index = save.orders.len().saturating_sub(left.len());
        let more = if left.len() > 1 { format!("; {} more after it", left.len() - 1) } else { String::new() };
        (
            index,
            format!(
                "turn {}, {:?} phase of {}: the order to {} was never carried out: the replay never stopped at that \
                 moment (orders out of turn order, or after the save point){more}",
                first.at.turn,
                first.at.phase,
                side_name(first.at.side),
                unit_list(&first.order.units())
            ),
        )
    };
    let subject = format!("orders[{index}]");
    let mut problems = vec![Problem { path: Some(subject.clone()), ..Problem::new(subject, message) }];
    scenario::locate(&mut problems, text);
    problems.pop()
}

/// Puts the saved game into `world` (replacing any battle there) and plays
/// its orders again up to the moment it was saved.
pub fn restore(world: &mut World, save: &SaveGame, scenario: Arc<scenario::Scenario>) {
    sim::reset(world, scenario, save.seed, save.dice.clone(), AiMode::None);
    world.insert_resource(Controls(save.controls.clone()));
    sim::start_replay(world, save.orders.clone(), save.at);
    sim::run_to(world, save.at);
}

/// Whether a file's text looks like a save rather than a scenario.
pub fn is_save(text: &str) -> bool {
    scenario::without_bom(text).trim_start().starts_with("SaveGame")
}
