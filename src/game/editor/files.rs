//! The editor's files, so that no work is ever lost: opening a scenario
//! (and offering its autosave when that holds edits the file does not),
//! saving with the author's own comments kept where they still belong,
//! autosaving a second after each edit, and asking before unsaved edits
//! are left behind by quitting or opening another file.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::edit::comments;
use crate::edit::{blank, write};
use crate::scenario::Mode;
use crate::terrain::Terrain;

use super::model::{Ask, Editor, Then};

impl Editor {
    /// Opens `path` (a scenario file) for editing, or a new map of `size`
    /// and `fill` there if it does not exist yet. An autosave beside it
    /// that holds other edits, written after the file, is offered.
    pub fn open(path: &Path, mode: Mode, size: (u32, u32), fill: Terrain) -> Result<Editor, String> {
        let mut e = if path.exists() {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: error: cannot read: {e}"))?;
            if crate::save::is_save(&text) {
                return Err(format!("{name}: error: a saved game, not a scenario: the editor edits scenario files"));
            }
            let file = crate::scenario::read_file(&text, &name).map_err(|e| e.to_string())?;
            let mut e = Editor::new(file, path.to_path_buf());
            e.message = format!("Editing {name}.");
            e
        } else {
            let mut e = Editor::new(blank::blank(mode, size.0, size.1, fill), path.to_path_buf());
            e.message = format!("A new {}x{} map; Ctrl+S saves it to {}.", size.0, size.1, path.display());
            e
        };
        e.offer_autosave();
        Ok(e)
    }

    /// If the autosave beside the file holds edits the file does not, and
    /// was written after it (or the file was never saved), asks what to do
    /// with it. It stays on disk until the author has answered.
    pub fn offer_autosave(&mut self) {
        let auto = write::autosave_path(&self.path);
        let Ok(text) = std::fs::read_to_string(&auto) else { return };
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let newer = match (modified(&auto), modified(&self.path)) {
            (Some(a), Some(f)) => a >= f,
            (_, None) => true,
            (None, Some(_)) => false,
        };
        if !newer {
            return;
        }
        let name = auto.display().to_string();
        match crate::scenario::read_file(&text, &name) {
            Ok(file) if file != *self.file() => {
                let written = modified(&auto).map_or_else(|| "some time ago".to_owned(), ago);
                self.ask = Some(Ask::Recover { autosave: Box::new(file), written, differences: None });
                self.message = format!("{name} holds edits this file does not: restore them, compare, or discard.");
            }
            Ok(_) => {
                // The same as the file: nothing to offer, nothing lost.
                let _ = std::fs::remove_file(&auto);
            }
            Err(err) => {
                self.message =
                    format!("{name} cannot be read ({}); it is left as it is.", first_line(&err.to_string()));
            }
        }
    }

    /// The answer to the autosave's question: restore its edits (as an
    /// edit of this file, so Ctrl+Z goes back to the file), show what
    /// differs, or discard it (it is deleted).
    pub fn recover(&mut self, choice: Recovery) {
        let Some(Ask::Recover { autosave, written, differences }) = self.ask.take() else { return };
        let auto = write::autosave_path(&self.path);
        match choice {
            Recovery::Restore => {
                let file = *autosave;
                self.edit(|f| *f = file);
                self.message = format!(
                    "The edits of {written} are back (Ctrl+Z takes them out again); Ctrl+S saves them to {}.",
                    self.path.display()
                );
            }
            Recovery::Compare => {
                let differences =
                    differences.unwrap_or_else(|| crate::edit::compare::differences(self.file(), &autosave));
                self.ask = Some(Ask::Recover { autosave, written, differences: Some(differences) });
            }
            Recovery::Discard => {
                let _ = std::fs::remove_file(&auto);
                self.message = format!("The autosave of {written} is discarded.");
            }
        }
    }

    /// Saves the file, keeping the comments its author wrote wherever
    /// their place is still in it. Comments whose place is gone would be
    /// dropped: the first Ctrl+S says which and writes nothing; again
    /// (`confirm_drop`) it saves without them. `as_new` writes
    /// `NAME.edited.ron` beside it instead.
    pub fn save(&mut self, as_new: bool) -> Result<PathBuf, String> {
        if matches!(self.ask, Some(Ask::Recover { .. })) {
            return Err("First answer about the autosave: restore, compare or discard.".into());
        }
        let path = if as_new { edited_path(&self.path) } else { self.path.clone() };
        let written = write::to_ron(self.file());
        let on_disk = std::fs::read_to_string(&self.path).unwrap_or_default();
        let kept = comments::keep(&comments::collect(&on_disk), &written);
        if !kept.dropped.is_empty() && !self.confirm_drop && !as_new {
            self.confirm_drop = true;
            let n = kept.dropped.len();
            return Err(format!(
                "{n} comment{} of {} would be dropped, {} place is gone: {}. Ctrl+S again saves without {}; \
                 Ctrl+Shift+S writes {} instead.",
                if n == 1 { "" } else { "s" },
                path.display(),
                if n == 1 { "its" } else { "their" },
                kept.dropped.join(" | "),
                if n == 1 { "it" } else { "them" },
                edited_path(&self.path).display()
            ));
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: error: cannot write: {e}", path.display()))?;
        }
        crate::save::write_atomically(&path, &kept.text)
            .map_err(|e| format!("{}: error: cannot write: {e}", path.display()))?;
        if !as_new {
            self.editing.unsaved = 0;
            self.confirm_drop = false;
            self.autosaved = (self.editing.revision, self.autosaved.1);
            let _ = std::fs::remove_file(write::autosave_path(&self.path));
        }
        Ok(path)
    }

    /// Saves (see [`Editor::save`]) and says how it went; a file saved
    /// with problems is said to be one that will not play yet.
    pub fn save_words(&mut self, as_new: bool) -> String {
        match self.save(as_new) {
            Ok(p) if self.problems.is_empty() => format!("Saved to {}.", p.display()),
            Ok(p) => {
                let n = self.problems.len();
                format!(
                    "Saved to {}, with {n} problem{}: it will not play until {} mended.",
                    p.display(),
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "it is" } else { "they are" }
                )
            }
            Err(m) => m,
        }
    }

    /// Writes the autosave when one is due at `now` (seconds since the
    /// editor started): a second after the last edit, or after a few.
    pub fn autosave(&mut self, now: f64) -> Option<PathBuf> {
        if !self.autosave_due(now) || matches!(self.ask, Some(Ask::Recover { .. })) {
            return None;
        }
        let path = write::autosave_path(&self.path);
        self.autosaved = (self.editing.revision, now);
        crate::save::write_atomically(&path, &write::to_ron(self.file())).ok()?;
        Some(path)
    }

    /// Quit (the window's close, Ctrl+Q) or open another file: at once if
    /// nothing is unsaved, else after asking.
    pub fn leave(&mut self, then: Then) -> Option<Then> {
        if self.editing.unsaved == 0 {
            return Some(then);
        }
        let n = self.editing.unsaved;
        self.message = format!(
            "{n} edit{} unsaved: S saves them, D discards them, Esc stays.",
            if n == 1 { " is" } else { "s are" }
        );
        self.ask = Some(Ask::Unsaved(then));
        None
    }

    /// The answer to "edits are unsaved": save them first (and go on only
    /// if that worked), discard them, or stay. What to do next, if anything.
    pub fn unsaved_answer(&mut self, answer: Unsaved) -> Option<Then> {
        let Some(Ask::Unsaved(then)) = self.ask.take() else { return None };
        match answer {
            Unsaved::Save => match self.save(false) {
                Ok(_) => Some(then),
                Err(m) => {
                    self.message = m;
                    self.ask = Some(Ask::Unsaved(then));
                    None
                }
            },
            Unsaved::Discard => {
                let _ = std::fs::remove_file(write::autosave_path(&self.path));
                Some(then)
            }
            Unsaved::Stay => {
                self.message = "Still editing.".into();
                None
            }
        }
    }

    /// Ctrl+O: the scenario files here and in `scenarios/` to choose from.
    pub fn ask_open(&mut self) {
        self.ask = Some(Ask::Open(scenario_files(Path::new("."))));
        self.message = "Open which file? Click it, or Esc.".into();
    }
}

/// What to do with an autosave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recovery {
    Restore,
    Compare,
    Discard,
}

/// What to do with unsaved edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsaved {
    Save,
    Discard,
    Stay,
}

/// The scenario files (`.ron`, not saves, not autosaves) in `dir` and its
/// `scenarios/`, sorted.
pub fn scenario_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in [dir.to_path_buf(), dir.join("scenarios")] {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for p in entries.filter_map(Result::ok).map(|e| e.path()) {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let ron = p.extension().is_some_and(|x| x == "ron");
            if ron && !name.ends_with(".autosave.ron") && !name.ends_with(".save.ron") {
                out.push(p.strip_prefix(dir).map(Path::to_path_buf).unwrap_or(p));
            }
        }
    }
    out.sort();
    out
}

/// A file's new editor, as `Editor::open` gives it; an error keeps the
/// editor as it was and says why.
pub fn open_in(e: &mut Editor, path: &Path) {
    match Editor::open(path, e.file().mode, (30, 20), Terrain::Clear) {
        Ok(next) => {
            let (playtest, snap) = (e.playtest, e.snap);
            *e = next;
            e.playtest = playtest;
            e.snap = snap;
        }
        Err(err) => e.message = format!("Cannot open: {}", first_line(&err)),
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or_default().to_owned()
}

/// How long ago a time was, in words.
fn ago(t: SystemTime) -> String {
    let s = SystemTime::now().duration_since(t).map_or(0, |d| d.as_secs());
    match s {
        0..=59 => "a moment ago".into(),
        60..=119 => "a minute ago".into(),
        120..=3599 => format!("{} minutes ago", s / 60),
        3600..=7199 => "an hour ago".into(),
        7200..=86_399 => format!("{} hours ago", s / 3600),
        _ => format!("{} days ago", s / 86_400),
    }
}

/// Where Ctrl+Shift+S writes: `NAME.edited.ron` beside the file.
pub fn edited_path(path: &Path) -> PathBuf {
    let stem = path.file_stem().map_or_else(|| "scenario".into(), |s| s.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}.edited.ron"))
}
