//! Undo and redo: the file as it stood before each edit. A scenario file
//! is a few kilobytes, so whole snapshots are simple and exact. A stroke
//! (a drag of the brush, a region pasted) is one edit however many
//! changes it makes.

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
    /// Every change, a stroke's included: what is drawn and checked
    /// follows it.
    pub revision: u64,
    /// The file before the stroke in progress, if one is.
    stroke: Option<ScenarioFile>,
}

impl Editing {
    pub fn new(file: ScenarioFile) -> Self {
        Editing { file, past: Vec::new(), future: Vec::new(), unsaved: 0, revision: 0, stroke: None }
    }

    /// Starts a stroke: the edits until [`Editing::end_stroke`] undo as one.
    pub fn begin_stroke(&mut self) {
        self.end_stroke();
        self.stroke = Some(self.file.clone());
    }

    /// Ends the stroke in progress; whether it changed the file.
    pub fn end_stroke(&mut self) -> bool {
        let Some(before) = self.stroke.take() else { return false };
        if before == self.file {
            return false;
        }
        self.remember(before);
        true
    }

    pub fn in_stroke(&self) -> bool {
        self.stroke.is_some()
    }

    fn remember(&mut self, before: ScenarioFile) {
        self.past.push(before);
        if self.past.len() > LIMIT {
            self.past.remove(0);
        }
        self.future.clear();
        self.unsaved += 1;
    }

    /// Applies an edit: kept in the history if it changed the file; what
    /// the edit returned.
    pub fn apply<T>(&mut self, edit: impl FnOnce(&mut ScenarioFile) -> T) -> T {
        let before = self.file.clone();
        let out = edit(&mut self.file);
        if self.file != before {
            self.revision += 1;
            if self.stroke.is_none() {
                self.remember(before);
            }
        }
        out
    }

    /// Takes back the last edit; whether there was one.
    pub fn undo(&mut self) -> bool {
        self.end_stroke();
        let Some(before) = self.past.pop() else { return false };
        self.future.push(std::mem::replace(&mut self.file, before));
        self.unsaved += 1;
        self.revision += 1;
        true
    }

    /// Makes the last undone edit again; whether there was one.
    pub fn redo(&mut self) -> bool {
        let Some(after) = self.future.pop() else { return false };
        self.past.push(std::mem::replace(&mut self.file, after));
        self.unsaved += 1;
        self.revision += 1;
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

    #[test]
    fn a_stroke_of_many_changes_undoes_as_one() {
        let mut e = Editing::new(blank(Mode::Hex, 6, 3, Terrain::Clear));
        let start = e.file.clone();
        e.begin_stroke();
        for c in 0..4 {
            e.apply(|f| paint(&mut f.map, Mode::Hex, Offset::new(c, 1), Brush::One, Terrain::Road));
        }
        assert_eq!((e.unsaved, e.revision), (0, 4), "drawn as it goes, one edit when done");
        assert!(e.end_stroke());
        assert_eq!(e.unsaved, 1);
        let painted = e.file.clone();
        assert!(e.undo());
        assert_eq!(e.file, start);
        assert!(e.redo());
        assert_eq!(e.file, painted);
        e.begin_stroke();
        assert!(!e.end_stroke(), "a stroke that changed nothing is no edit");
        assert_eq!(e.unsaved, 3);
    }
}
