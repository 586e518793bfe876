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

use serde::{Deserialize, Serialize};

use crate::labataille::orders::LoggedOrder;
use crate::rules::MAX_TURNS;
use crate::scenario::{self, LoadError, Problem};
use crate::turn::SavePoint;
use crate::vocab::{AiLevel, Control};

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
    pub controls: Vec<Control>,
    /// How well the AI played each side. Saves written before levels
    /// existed have none: their games were played at `Easy`, and so they
    /// go on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub levels: Vec<AiLevel>,
    /// Where the clock stood.
    pub at: SavePoint,
    /// Whether the phase at `at` had begun (its `PhaseStart` written): a
    /// game saved between two phases (as the AI plays on) resumes before
    /// the next one begins. Written only when false, so saves taken in a
    /// phase read as before.
    #[serde(default = "phase_begun", skip_serializing_if = "Clone::clone")]
    pub begun: bool,
    pub orders: Vec<LoggedOrder>,
}

fn phase_begun() -> bool {
    true
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
        if !(1..=MAX_TURNS).contains(&save.turns) {
            return Err(invalid("turns", format!("{} must be 1..={MAX_TURNS}", save.turns)));
        }
        if save.controls.len() != s.sides.len() {
            return Err(invalid("controls", format!("{} entries for {} sides", save.controls.len(), s.sides.len())));
        }
        if !save.levels.is_empty() && save.levels.len() != s.sides.len() {
            return Err(invalid("levels", format!("{} entries for {} sides", save.levels.len(), s.sides.len())));
        }
        s.turns = save.turns;
        let levels = if save.levels.is_empty() { vec![AiLevel::Easy; s.sides.len()] } else { save.levels.clone() };
        for (side, level) in s.sides.iter_mut().zip(levels) {
            side.level = level;
        }
        Ok((save, s))
    }

    /// A save's own fields, its scenario taken as text and not checked:
    /// enough for a list of saves (a name, a turn) without parsing each
    /// battle. [`SaveGame::parse`] is the reader for opening one.
    pub fn peek(text: &str) -> Result<SaveGame, String> {
        scenario::ron_options()
            .from_str(scenario::without_bom(text))
            .map_err(|e| format!("line {}: {}", e.span.start.line, e.code.to_string().replace(['\n', '\r'], " ")))
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
        write_atomically(path, &self.to_ron())
    }
}

/// A save file's text; bytes that are not UTF-8 are a located syntax error.
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io { file: file.clone(), source })?;
    scenario::utf8(&bytes, &file).map(str::to_owned)
}

/// Whether a file's text looks like a save rather than a scenario.
pub fn is_save(text: &str) -> bool {
    scenario::without_bom(text).trim_start().starts_with("SaveGame")
}

/// Writes a file through a temporary sibling and a rename, so a failure
/// never leaves half a file. A link is written through to the file it
/// names; something that is no file (`/dev/null`, a pipe, a terminal) is
/// written to directly, never replaced by a file.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return std::fs::write(path, text);
    }
    let linked = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let path = if linked { std::fs::canonicalize(path)? } else { path.to_path_buf() };
    let tmp = path.with_extension("tmp-sauve");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, &path)
}

#[cfg(test)]
mod tests {
    use super::write_atomically;

    /// A link is written through, not replaced by a file: the file it
    /// names gets the text and the link still names it.
    #[cfg(unix)]
    #[test]
    fn a_link_is_written_through_and_stays_a_link() {
        let dir = std::env::temp_dir().join(format!("sauve-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        let (file, link) = (dir.join("real.jsonl"), dir.join("link.jsonl"));
        std::fs::write(&file, "old").expect("written");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&file, &link).expect("a link");
        write_atomically(&link, "new").expect("written through");
        assert!(std::fs::symlink_metadata(&link).expect("there").file_type().is_symlink(), "still a link");
        assert_eq!(std::fs::read_to_string(&file).expect("read"), "new");
        // A folder is no file to write: an error, and nothing replaced.
        assert!(write_atomically(&dir, "x").is_err());
        assert!(dir.is_dir());
        // The scratch folder goes, so repeated runs leave nothing in /tmp.
        std::fs::remove_dir_all(&dir).expect("the scratch folder removed");
    }
}
