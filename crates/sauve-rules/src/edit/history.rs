//! Undo and redo: the file as it stood before each edit. A scenario file
//! is a few kilobytes, so whole snapshots are simple and exact.

use crate::scenario::ScenarioFile;

/// Edits that can be undone, most recent last.
pub const LIMIT: usize = 500;

/// The file being edited and its history.
#[derive(Clone, Debug)]
pub struct Editing {
    pub file: ScenarioFile,
    past: Vec<ScenarioFile>,
    future: Vec<ScenarioFile>,
    /// Edits since the file was last saved.
    pub unsaved: usize,
}

impl Editing {
    pub fn new(file: ScenarioFile) -> Self {
        Editing { file, past: Vec::new(), future: Vec::new(), unsaved: 0 }
    }

    /// Applies an edit: kept in the history if it changed the file; what
    /// the edit returned.
    pub fn apply<T>(&mut self, edit: impl FnOnce(&mut ScenarioFile) -> T) -> T {
        let before = self.file.clone();
        let out = edit(&mut self.file);
        if self.file != before {
            self.past.push(before);
            if self.past.len() > LIMIT {
                self.past.remove(0);
            }
            self.future.clear();
            self.unsaved += 1;
        }
        out
    }

    /// Takes back the last edit; whether there was one.
    pub fn undo(&mut self) -> bool {
        let Some(before) = self.past.pop() else { return false };
        self.future.push(std::mem::replace(&mut self.file, before));
        self.unsaved += 1;
        true
    }

    /// Makes the last undone edit again; whether there was one.
    pub fn redo(&mut self) -> bool {
        let Some(after) = self.future.pop() else { return false };
        self.past.push(std::mem::replace(&mut self.file, after));
        self.unsaved += 1;
        true
    }

    pub fn can_undo(&self) -> bool {
        !self.past.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.future.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::blank::blank;
    use crate::edit::paint::{Brush, paint};
    use crate::hex::Offset;
    use crate::scenario::Mode;
    use crate::terrain::Terrain;

    #[test]
    fn every_edit_undoes_and_redoes_and_a_new_edit_forgets_the_undone() {
        let mut e = Editing::new(blank(Mode::Hex, 4, 3, Terrain::Clear));
        let start = e.file.clone();
        e.apply(|f| paint(&mut f.map, Mode::Hex, Offset::new(0, 0), Brush::One, Terrain::Woods));
        let one = e.file.clone();
        e.apply(|f| f.name = "Two".into());
        // An edit that changes nothing is not one.
        e.apply(|f| paint(&mut f.map, Mode::Hex, Offset::new(0, 0), Brush::One, Terrain::Woods));
        assert!(e.undo());
        assert_eq!(e.file, one);
        assert!(e.undo());
        assert_eq!(e.file, start);
        assert!(!e.undo(), "nothing more to undo");
        assert!(e.redo());
        assert_eq!(e.file, one);
        e.apply(|f| f.turns = 3);
        assert!(!e.redo(), "a new edit forgets what was undone");
        assert!(e.undo() && e.file == one);
    }
}
