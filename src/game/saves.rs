//! The window's saves, all in one folder ([`SaveFolder`], `saves/` in the
//! current directory): F5 writes a new file each time, named by the
//! battle, the date and the turn, never over another; each new turn of a
//! battle with a player at the window rewrites that battle's autosave; the
//! menu lists the saves found there, newest first, and F9 opens the newest
//! of the battle at the window. Writing goes through `crate::save`
//! (atomic: a crash never leaves half a save).

mod when;

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use bevy::prelude::*;

pub use when::Utc;

use super::fork::ForkView;
use super::opened::{Opened, Source};
use super::request::Request;
use super::scenarios::{Pending, ScenarioText};
use super::sets::GameSet;
use super::turn::{Notice, PlayerTurn};
use crate::save::SaveGame;
use crate::sim::{Battle, Clock, Control, Controls, PlayState};

/// Where the window's saves go unless told otherwise.
pub const SAVE_DIR: &str = "saves";
/// How a save's file name ends.
pub const SAVE_EXT: &str = ".save.ron";
/// How an autosave's file name ends (after the battle's name).
const AUTOSAVE_END: &str = "-autosave.save.ron";
/// How the fork panel's saves are named (`fork.rs`).
const FORK_START: &str = "fork-";
/// The saves the menu lists at most.
pub const LISTED: usize = 12;

/// The folder of the window's saves (tests name a scratch one).
#[derive(Resource, Clone, Debug)]
pub struct SaveFolder {
    pub dir: PathBuf,
    /// Saves written this session: the menu lists the folder again when
    /// it changes.
    pub written: u32,
}

impl Default for SaveFolder {
    fn default() -> Self {
        SaveFolder { dir: SAVE_DIR.into(), written: 0 }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SaveFolder>();
    // After the playback, which may have run the phase that began a turn.
    app.add_systems(Update, autosave.after(GameSet::Playback));
}

/// What wrote a save, read from its file name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// F5 (or anything else a person put in the folder).
    Slot,
    /// The battle's autosave, rewritten at each new turn.
    Autosave,
    /// One of the two branches the fork panel (D) writes.
    Fork,
}

impl Kind {
    fn of(path: &Path) -> Kind {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name.starts_with(FORK_START) {
            Kind::Fork
        } else if name.ends_with(AUTOSAVE_END) {
            Kind::Autosave
        } else {
            Kind::Slot
        }
    }
}

/// A save in the folder, as the file system knows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub path: PathBuf,
    /// When it was last written.
    pub modified: SystemTime,
    pub kind: Kind,
}

/// What a save says of itself: enough to list it.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The battle's name.
    pub name: String,
    pub turn: u32,
    pub turns: u32,
    pub finished: bool,
}

impl Found {
    /// Reads the save's own fields (its battle unchecked until opened), or
    /// says why it cannot.
    pub fn header(&self) -> Result<Header, String> {
        let text = std::fs::read_to_string(&self.path).map_err(|e| e.to_string())?;
        let save = SaveGame::peek(&text)?;
        Ok(Header { name: save.name, turn: save.at.turn, turns: save.turns, finished: save.at.finished })
    }

    /// The menu's line: the battle, its turn, the date written and what
    /// wrote it; or the file's name and why it cannot be read.
    pub fn words(&self) -> String {
        let date = Utc::of(self.modified).words();
        let by = match self.kind {
            Kind::Slot => "",
            Kind::Autosave => " (autosave)",
            Kind::Fork => " (fork)",
        };
        // Saves made within one minute are told apart by their number.
        let stem = file_name(&self.path).trim_end_matches(".save.ron").to_owned();
        let parts: Vec<&str> = stem.rsplitn(3, '-').collect();
        let n = match parts.as_slice() {
            [n, t, _] if n.chars().all(|c| c.is_ascii_digit()) && t.starts_with('t') => format!(" (#{n})"),
            _ => String::new(),
        };
        let by = format!("{n}{by}");
        match self.header() {
            Ok(h) if h.finished => format!("{}, ended (turn {}), {date}{by}", h.name, h.turn),
            Ok(h) => format!("{}, turn {} of {}, {date}{by}", h.name, h.turn, h.turns),
            Err(why) => format!("{}: cannot be read ({why})", file_name(&self.path)),
        }
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// The saves in `dir`, newest first (a folder not made yet holds none), or
/// why the folder cannot be read.
pub fn found(dir: &Path) -> Result<Vec<Found>, String> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read the folder {}: {e}", dir.display())),
    };
    let mut out: Vec<Found> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(SAVE_EXT))
        .filter(|e| e.file_type().is_ok_and(|t| !t.is_dir()))
        .map(|e| {
            let path = e.path();
            let modified = e.metadata().and_then(|m| m.modified()).unwrap_or(UNIX_EPOCH);
            Found { kind: Kind::of(&path), path, modified }
        })
        .collect();
    // Newest first; two written in the same instant by name, last first.
    out.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| b.path.cmp(&a.path)));
    Ok(out)
}

/// The newest save of the battle named `battle` in `dir`, written by F5 or
/// the autosave (a fork's branches are the fork panel's: B opens them).
pub fn newest_of(dir: &Path, battle: &str) -> Option<Found> {
    found(dir).ok()?.into_iter().filter(|f| f.kind != Kind::Fork).find(|f| f.header().is_ok_and(|h| h.name == battle))
}

/// A battle's name as a part of a file name: lower case, words joined by
/// `-` (`Dennewitz 1813` gives `dennewitz-1813`).
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out: String = out.trim_end_matches('-').chars().take(60).collect();
    if out.is_empty() { "battle".into() } else { out }
}

/// A new save's path in `dir`: the battle, the moment and the turn
/// (`dennewitz-1813-2026-12-05-0612-t3.save.ron`), then `-2`, `-3`... for
/// as long as a file of that name is there already.
pub fn new_slot(dir: &Path, battle: &str, now: SystemTime, turn: u32) -> PathBuf {
    let base = format!("{}-{}-t{turn}", slug(battle), Utc::of(now).stamp());
    let named = |n: u32| dir.join(if n < 2 { format!("{base}{SAVE_EXT}") } else { format!("{base}-{n}{SAVE_EXT}") });
    (1..).map(named).find(|p| !p.exists()).unwrap_or_else(|| named(1))
}

/// The battle's autosave in `dir`, one file a battle.
pub fn autosave_path(dir: &Path, battle: &str) -> PathBuf {
    dir.join(format!("{}{AUTOSAVE_END}", slug(battle)))
}

/// The game at the window as a save, or `None` without a battle.
fn capture(world: &World) -> Option<SaveGame> {
    let text = world.get_resource::<ScenarioText>().map(|t| t.0.clone()).unwrap_or_default();
    crate::save::capture(world, &text)
}

/// F5: writes the game to a new file and says where.
pub fn save_new(world: &mut World) -> Notice {
    let Some(save) = capture(world) else { return Notice::error("Nothing to save: no battle is open.") };
    let dir = world.resource::<SaveFolder>().dir.clone();
    let path = new_slot(&dir, &save.name, SystemTime::now(), save.at.turn);
    match save.write(&path) {
        Ok(()) => {
            world.resource_mut::<SaveFolder>().written += 1;
            Notice::said(format!(
                "Saved {}, turn {}, to {} (F9 opens the newest save of this battle; Tab lists them all).",
                save.name,
                save.at.turn,
                path.display()
            ))
        }
        Err(e) => Notice::error(format!("Cannot save to {}: {e}", path.display())),
    }
}

/// F9: opens the newest save of the battle at the window at the start of
/// the next frame, and says which; or says there is none.
pub fn load_newest(world: &mut World) -> Notice {
    let Some(battle) = world.get_resource::<Battle>().map(|b| b.scenario.name.clone()) else {
        return Notice::error("No battle is open to load a save of.");
    };
    let dir = world.resource::<SaveFolder>().dir.clone();
    let Some(newest) = newest_of(&dir, &battle) else {
        return Notice::error(format!("No save of {battle} in {} yet (F5 saves).", dir.display()));
    };
    let words = newest.words();
    let path = newest.path.clone();
    world.resource_mut::<Pending>().0 = Some(Source::File(path.clone()));
    Notice::said(format!("Loading the newest save of {battle}: {words} ({}).", path.display()))
}

/// Writes the battle's autosave when a new turn begins: only with a player
/// at the window (not for `sauve shot`'s pictures, nor a battle the AI
/// plays alone), and never while saved orders are played again (a save
/// opening, a fork's history) or a fork's branches are open (B keeps
/// those in their own saves). A battle just opened sets the turn to
/// compare with and writes nothing.
fn autosave(
    opened: Res<Opened>,
    clock: Option<Res<Clock>>,
    req: Res<Request>,
    controls: Option<Res<Controls>>,
    play: Option<Res<PlayState>>,
    fork: Option<Res<ForkView>>,
    mut seen: Local<Option<u32>>,
    mut commands: Commands,
) {
    let Some(clock) = clock else {
        *seen = None;
        return;
    };
    let last = seen.replace(clock.turn);
    let new_turn = last.is_some_and(|t| clock.turn > t) && !opened.is_changed() && !clock.finished;
    let player = controls.is_some_and(|c| c.0.contains(&Control::Player));
    let replaying = play.is_some_and(|p| p.replaying());
    let forked = fork.is_some_and(|f| f.branches.is_some());
    if new_turn && player && req.0.shot.is_none() && !replaying && !forked {
        commands.queue(write_autosave);
    }
}

/// Writes the autosave; says something only when it cannot.
fn write_autosave(world: &mut World) {
    let Some(save) = capture(world) else { return };
    let path = autosave_path(&world.resource::<SaveFolder>().dir, &save.name);
    match save.write(&path) {
        Ok(()) => world.resource_mut::<SaveFolder>().written += 1,
        Err(e) => {
            if let Some(mut turn) = world.get_resource_mut::<PlayerTurn>() {
                turn.say(Notice::error(format!("Cannot write the autosave {}: {e}", path.display())));
            }
        }
    }
}

#[cfg(test)]
mod tests;
