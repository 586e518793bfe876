//! The editor's model: the file being edited with its undo history, the
//! tool in hand, the selection, the message line, and what each tool and
//! unit key does to the file (through the rules crate's pure editing
//! functions, [`crate::edit`]), with saving and autosaving.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use crate::edit::forces::{self, Spot};
use crate::edit::history::Editing;
use crate::edit::paint::{self, Brush};
use crate::edit::{blank, write};
use crate::hex::Offset;
use crate::scenario::{Mode, Problem, ScenarioFile};
use crate::terrain::{Arm, HexsideKind, Terrain};

/// Edits between two autosaves.
pub const AUTOSAVE_EVERY: usize = 5;

/// What a click on the map does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tool {
    Terrain(Terrain),
    /// A hexside feature, or `None` to clear the edge.
    Hexside(Option<HexsideKind>),
    /// A new unit of the side (by index) and arm.
    Unit {
        side: usize,
        arm: Arm,
    },
    Objective,
    Select,
    /// Clicking a unit puts it into its side's corps being built, or
    /// takes it out (hex mode).
    Corps,
    /// Clicking near a map edge gives the side an exit there, or takes it
    /// away (hex mode).
    Exit {
        side: usize,
    },
    /// A staff figure of the side (free space).
    Staff {
        side: usize,
    },
}

/// The scenario being edited.
#[derive(Resource)]
pub struct Editor {
    pub editing: Editing,
    /// Where it is saved.
    pub path: PathBuf,
    pub tool: Tool,
    pub brush: Brush,
    /// The unit selected (its id).
    pub selected: Option<String>,
    /// The corps the corps tool adds to (its id).
    pub corps: Option<String>,
    /// The checker's problems with the file as it stands, located in the
    /// text a save would write.
    pub problems: Vec<Problem>,
    /// The checker's warnings about a valid file (what `sauve check`
    /// warns of): it plays, but perhaps not as meant.
    pub warnings: Vec<Problem>,
    /// What the last action said.
    pub message: String,
    /// A playtest is open (F8 returns).
    pub playtest: bool,
    /// The file on disk holds comments a save would lose, and the author
    /// has been told: the next Ctrl+S overwrites it.
    pub confirm_overwrite: bool,
    /// The edit count at the last autosave.
    autosaved: usize,
    /// The map and counters need drawing again.
    pub(super) redraw: bool,
}

impl Editor {
    /// An editor of `file`, to be saved to `path`.
    pub fn new(file: ScenarioFile, path: PathBuf) -> Editor {
        let mut e = Editor {
            editing: Editing::new(file),
            path,
            tool: Tool::Terrain(Terrain::Woods),
            brush: Brush::One,
            selected: None,
            corps: None,
            problems: Vec::new(),
            warnings: Vec::new(),
            message: String::new(),
            playtest: false,
            confirm_overwrite: false,
            autosaved: 0,
            redraw: true,
        };
        e.check();
        e
    }

    /// Opens `path` (a scenario file) for editing, or a new map of `size`
    /// and `fill` there if it does not exist yet.
    pub fn open(path: &Path, mode: Mode, size: (u32, u32), fill: Terrain) -> Result<Editor, String> {
        if !path.exists() {
            let mut e = Editor::new(blank::blank(mode, size.0, size.1, fill), path.to_path_buf());
            e.message = format!("A new {}x{} map; Ctrl+S saves it to {}.", size.0, size.1, path.display());
            return Ok(e);
        }
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: error: cannot read: {e}"))?;
        if crate::save::is_save(&text) {
            return Err(format!("{name}: error: a saved game, not a scenario: the editor edits scenario files"));
        }
        let file = crate::scenario::read_file(&text, &name).map_err(|e| e.to_string())?;
        let mut e = Editor::new(file, path.to_path_buf());
        e.message = format!("Editing {name}.");
        Ok(e)
    }

    pub fn file(&self) -> &ScenarioFile {
        &self.editing.file
    }

    /// The checker's problems with the file as it stands.
    fn check(&mut self) {
        let text = write::to_ron(&self.editing.file);
        (self.problems, self.warnings) = match crate::scenario::validate(self.editing.file.clone()) {
            Ok(s) => {
                let mut w = crate::checks::warnings(&s);
                crate::scenario::locate(&mut w, &text);
                (Vec::new(), w)
            }
            Err(mut p) => {
                crate::scenario::locate(&mut p, &text);
                (p, Vec::new())
            }
        };
        self.redraw = true;
    }

    /// Applies an edit to the file; checks it again if it changed.
    pub fn edit<T>(&mut self, f: impl FnOnce(&mut ScenarioFile) -> T) -> T {
        let before = self.editing.unsaved;
        let out = self.editing.apply(f);
        if self.editing.unsaved != before {
            self.check();
        }
        out
    }

    pub fn undo(&mut self) -> bool {
        let done = self.editing.undo();
        if done {
            self.check();
        }
        done
    }

    pub fn redo(&mut self) -> bool {
        let done = self.editing.redo();
        if done {
            self.check();
        }
        done
    }

    /// What a click at `spot` does with the tool chosen; `side_dir` is the
    /// hexside nearest the pointer (hexside tool).
    pub fn click(&mut self, spot: Spot, side_dir: Option<crate::hex::Dir>, moving: bool) {
        let hex = match spot {
            Spot::Hex(o) => Some(o),
            Spot::Cm(..) => None,
        };
        let cell = self.cell_of(spot);
        // With M held, a click moves the selected unit there.
        if moving && let Some(id) = self.selected.clone() {
            let r = self.edit(|f| forces::move_to(f, &id, spot));
            self.message = match r {
                Ok(()) => format!("{id} moved."),
                Err(e) => format!("Cannot move: {e}"),
            };
            return;
        }
        match self.tool {
            Tool::Terrain(t) => {
                let (mode, brush) = (self.file().mode, self.brush);
                let Some(at) = cell else { return };
                let n = self.edit(|f| paint::paint(&mut f.map, mode, at, brush, t));
                self.message = format!("{n} {} painted {t:?}.", if mode == Mode::Hex { "hexes" } else { "cells" });
            }
            Tool::Hexside(kind) => {
                let (Some(at), Some(dir)) = (hex, side_dir) else { return };
                if self.file().mode != Mode::Hex {
                    self.message = "Hexsides are for hex maps.".into();
                    return;
                }
                self.edit(|f| paint::set_hexside(&mut f.map, at, dir, kind));
                self.message =
                    format!("The {dir:?} side of {at}: {}.", kind.map_or("nothing".into(), |k| format!("{k:?}")));
            }
            Tool::Unit { side, arm } => {
                let Some(side_id) = self.file().sides.get(side).map(|s| s.id.clone()) else { return };
                let u = forces::new_unit(self.file(), &side_id, arm, spot);
                let id = u.id.clone();
                let r = self.edit(|f| forces::place(f, u));
                self.message = match r {
                    Ok(_) => {
                        self.selected = Some(id.clone());
                        format!("{id} placed ({arm:?}); select it to change it.")
                    }
                    Err(e) => format!("Cannot place: {e}"),
                };
            }
            Tool::Objective => {
                // On a table an objective names the cell clicked (its area
                // is round the cell's centre, docs/rules.md 2.11).
                let Some(at) = cell else { return };
                let on = self.edit(|f| forces::toggle_objective(f, at, 1));
                self.message = format!("{} at {at}.", if on { "An objective" } else { "No objective" });
            }
            Tool::Corps => {
                let Some(id) = self.unit_at(spot) else {
                    self.message = "The corps tool puts the unit clicked into a corps: no unit there.".into();
                    return;
                };
                let side = self.file().units.iter().find(|u| u.id == id).map(|u| u.side.clone()).unwrap_or_default();
                let active =
                    self.corps.clone().filter(|c| self.file().corps.iter().any(|x| x.id == *c && x.side == side));
                let corps =
                    match active.or_else(|| self.file().corps.iter().find(|c| c.side == side).map(|c| c.id.clone())) {
                        Some(c) => c,
                        None => match self.edit(|f| forces::add_corps(f, &side)) {
                            Ok(c) => c,
                            Err(e) => {
                                self.message = format!("Cannot make a corps: {e}");
                                return;
                            }
                        },
                    };
                self.corps = Some(corps.clone());
                let r = self.edit(|f| forces::toggle_in_corps(f, &corps, &id));
                self.message = match r {
                    Ok(true) => format!("{id} joins {corps}."),
                    Ok(false) => format!("{id} leaves {corps}."),
                    Err(e) => format!("Cannot: {e}"),
                };
            }
            Tool::Exit { side } => {
                let Some(at) = hex else { return };
                use crate::hex::Edge;
                let (w, h) = paint::size(&self.file().map);
                let edges = [Edge::North, Edge::South, Edge::West, Edge::East];
                let Some(edge) = edges.into_iter().min_by_key(|e| e.distance(at, w, h)) else { return };
                let on = self.edit(|f| crate::edit::sides::toggle_exit(f, side, edge));
                self.message = match on {
                    Some(true) => format!("Side {} scores for leaving by the {edge:?} edge.", side + 1),
                    Some(false) => format!("No exit by the {edge:?} edge for side {}.", side + 1),
                    None => "No such side.".into(),
                };
            }
            Tool::Staff { side } => {
                let Spot::Cm(x, y) = spot else {
                    self.message = "Staff figures stand on free-space tables.".into();
                    return;
                };
                let Some(side_id) = self.file().sides.get(side).map(|s| s.id.clone()) else { return };
                let r = self.edit(|f| forces::add_staff(f, &side_id, (x, y)));
                self.message = match r {
                    Ok(_) => format!("A staff figure of {side_id} at ({x:.0}, {y:.0}) cm."),
                    Err(e) => format!("Cannot: {e}"),
                };
            }
            Tool::Select => {
                self.selected = self.unit_at(spot);
                self.message = match &self.selected {
                    Some(id) => {
                        format!("{id} selected: T turns it, Delete deletes it, M+click moves it, + and - its morale.")
                    }
                    None => "Nothing there.".into(),
                };
                self.redraw = true;
            }
        }
    }

    /// The hex or cell a spot lies in.
    fn cell_of(&self, spot: Spot) -> Option<Offset> {
        match spot {
            Spot::Hex(o) => Some(o),
            Spot::Cm(x, y) => {
                let c = self.file().map.cell_cm.unwrap_or(blank::NEW_CELL_CM);
                Some(Offset::new((x / c).floor() as i32, (y / c).floor() as i32))
            }
        }
    }

    /// The unit at a spot: in a hex, the top of its stack (or the next
    /// one after the selected); on the table, the nearest within 8 cm.
    fn unit_at(&self, spot: Spot) -> Option<String> {
        let f = self.file();
        match spot {
            Spot::Hex(o) => {
                let here = forces::units_at(f, o);
                let k = self.selected.as_ref().and_then(|s| here.iter().position(|&i| f.units[i].id == *s));
                let i = k.map_or(here.first().copied(), |k| here.get((k + 1) % here.len()).copied())?;
                Some(f.units[i].id.clone())
            }
            Spot::Cm(x, y) => f
                .units
                .iter()
                .filter_map(|u| match forces::spot(u) {
                    Some(Spot::Cm(ux, uy)) => Some(((ux - x).hypot(uy - y), u.id.clone())),
                    _ => None,
                })
                .filter(|(d, _)| *d <= 8.0)
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, id)| id),
        }
    }

    /// The selected unit's morale one d66 step up or down (hex), or its
    /// valour one point (free space).
    pub fn nudge_morale(&mut self, up: bool) {
        let Some(id) = self.selected.clone() else { return };
        if let Err(e) = self.edit(|f| forces::nudge_morale(f, &id, up)) {
            self.message = format!("Cannot change {id}: {e}");
        }
    }

    /// Saves the file. One with comments of its own is overwritten only
    /// when `confirm_overwrite` is set (the author was told); `as_new`
    /// writes `NAME.edited.ron` beside it instead.
    pub fn save(&mut self, as_new: bool) -> Result<PathBuf, String> {
        let path = if as_new { edited_path(&self.path) } else { self.path.clone() };
        if !as_new && !self.confirm_overwrite {
            let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
            if write::has_hand_comments(&on_disk) {
                self.confirm_overwrite = true;
                return Err(format!(
                    "{} holds comments of its own, which saving would lose: Ctrl+S again overwrites it, Ctrl+Shift+S \
                     writes {} instead.",
                    path.display(),
                    edited_path(&self.path).display()
                ));
            }
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: error: cannot write: {e}", path.display()))?;
        }
        crate::save::write_atomically(&path, &write::to_ron(self.file()))
            .map_err(|e| format!("{}: error: cannot write: {e}", path.display()))?;
        self.editing.unsaved = 0;
        self.autosaved = 0;
        let _ = std::fs::remove_file(write::autosave_path(&self.path));
        Ok(path)
    }

    /// Saves (see [`Editor::save`]) and says how it went; a file saved
    /// with problems is said to be one that will not play yet.
    pub fn save_words(&mut self, as_new: bool) -> String {
        match self.save(as_new) {
            Ok(p) if self.problems.is_empty() => format!("Saved to {}.", p.display()),
            Ok(p) => format!(
                "Saved to {}, with {} problems: it will not play until they are mended.",
                p.display(),
                self.problems.len()
            ),
            Err(m) => m,
        }
    }

    /// Whether enough edits were made since the last autosave.
    pub fn autosave_due(&self) -> bool {
        self.editing.unsaved >= self.autosaved + AUTOSAVE_EVERY
    }

    /// Writes the autosave when enough edits were made since the last.
    pub fn autosave(&mut self) -> Option<PathBuf> {
        if !self.autosave_due() {
            return None;
        }
        let path = write::autosave_path(&self.path);
        crate::save::write_atomically(&path, &write::to_ron(self.file())).ok()?;
        self.autosaved = self.editing.unsaved;
        Some(path)
    }
}

/// A change to the selected unit's fields: a key, or a button of the
/// panel's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitAct {
    Stronger,
    Weaker,
    State,
    Formation,
    Limbered,
    Horse,
    Shock,
    LaterShock,
    Arm,
    Side,
    Leader,
    TurnRight,
    TurnLeft,
    /// Morale one d66 step up or down (valour one point in free space).
    MoraleUp,
    MoraleDown,
    Delete,
}

impl Editor {
    /// Changes the selected unit as `act` says, and says so.
    pub fn unit_act(&mut self, act: UnitAct) {
        let Some(id) = self.selected.clone() else { return };
        let said = match act {
            UnitAct::Stronger | UnitAct::Weaker => self
                .edit(|f| forces::nudge_strength(f, &id, act == UnitAct::Stronger))
                .map(|n| format!("{id}: strength {n}.")),
            UnitAct::State => self.edit(|f| forces::cycle_state(f, &id)).map(|st| format!("{id} starts {st:?}.")),
            UnitAct::Formation => {
                self.edit(|f| forces::cycle_formation(f, &id)).map(|fm| format!("{id} starts in {fm:?}."))
            }
            UnitAct::Limbered => {
                self.edit(|f| forces::toggle_limbered(f, &id)).map(|on| format!("{id}: limbered {on}."))
            }
            UnitAct::Horse => {
                self.edit(|f| forces::toggle_horse(f, &id)).map(|on| format!("{id}: horse artillery {on}."))
            }
            UnitAct::LaterShock => self.edit(|f| forces::later_shock(f, &id)).map(|t| match t {
                Some(t) => format!("{id}: its shock comes on turn {t}."),
                None => format!("{id} has no shock (K gives it one)."),
            }),
            UnitAct::Shock => self
                .edit(|f| forces::toggle_shock(f, &id, 1))
                .map(|on| format!("{id}: {} on turn 1.", if on { "a scripted shock routs it" } else { "no shock" })),
            UnitAct::Arm => self.edit(|f| forces::cycle_arm(f, &id)).map(|a| format!("{id} is {a:?} now.")),
            UnitAct::Side => self.edit(|f| forces::switch_side(f, &id)).map(|s| format!("{id} goes over to {s}.")),
            UnitAct::Leader => self
                .edit(|f| forces::toggle_leader(f, &id))
                .map(|on| format!("{id}: {}.", if on { "a leader rides with it" } else { "no leader" })),
            UnitAct::TurnRight | UnitAct::TurnLeft => {
                self.edit(|f| forces::rotate(f, &id, act == UnitAct::TurnRight)).map(|()| format!("{id} turned."))
            }
            UnitAct::MoraleUp | UnitAct::MoraleDown => {
                self.nudge_morale(act == UnitAct::MoraleUp);
                return;
            }
            UnitAct::Delete => {
                self.selected = None;
                self.edit(|f| forces::delete(f, &id)).map(|_| format!("{id} deleted (Ctrl+Z brings it back)."))
            }
        };
        self.message = said.unwrap_or_else(|err| format!("Cannot: {err}"));
    }
}

/// Where Ctrl+Shift+S writes: `NAME.edited.ron` beside the file.
pub fn edited_path(path: &Path) -> PathBuf {
    let stem = path.file_stem().map_or_else(|| "scenario".into(), |s| s.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}.edited.ron"))
}
