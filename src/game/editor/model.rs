//! The editor's model: the file being edited with its undo history, the
//! tool in hand, the selection, the page of the side panel, the question
//! waiting for an answer, and the message line; edits go through the
//! rules crate's pure editing functions ([`crate::edit`]) and are checked
//! again after each.

use std::path::PathBuf;

use bevy::prelude::*;

use crate::edit::fields::{self, List, Subject};
use crate::edit::forces::{self, Spot};
use crate::edit::history::Editing;
use crate::edit::paint::Brush;
use crate::edit::region::Clip;
use crate::edit::{blank, write};
use crate::hex::Offset;
use crate::scenario::{Mode, Problem, ScenarioFile};
use crate::terrain::{Arm, HexsideKind, Terrain};

/// What a press on the map does.
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
    /// Selects a unit or staff figure; a drag moves it.
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
    /// A drag marks a region to copy (Ctrl+C) or clear (Delete).
    Region,
}

/// How a terrain brush is laid: along the drag, or in a straight line or
/// a rectangle from the press to the release.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shape {
    #[default]
    Free,
    Line,
    Rect,
}

/// A drag in progress on the map.
#[derive(Clone, Debug, PartialEq)]
pub enum Stroke {
    /// Terrain laid as the pointer goes; the last hex (cell) painted.
    Paint { last: Offset },
    /// A line or rectangle from one hex to where the pointer is.
    Shape { from: Offset, to: Offset },
    /// Hexsides set along the edges the pointer passes.
    Edges,
    /// A unit (its id) carried to where the pointer is.
    Carry(String),
    /// A staff figure (its index) carried.
    CarryStaff(usize),
    /// A region being marked.
    Region { from: Offset, to: Offset },
}

/// The side panel's pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    Scenario,
    Map,
    Side(usize),
    /// The selected unit (or staff figure on a table).
    Unit,
    /// A list of the file, with the entry shown.
    List(List),
    Rules,
    Problems,
}

/// What the editor asks before it goes on.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    /// An autosave holds edits its file does not: restore them, see what
    /// they are, or throw them away.
    Recover {
        autosave: Box<ScenarioFile>,
        /// When it was written, in words.
        written: String,
        /// What differs, once asked for.
        differences: Option<Vec<String>>,
    },
    /// Edits are unsaved: save them, throw them away, or stay.
    Unsaved(Then),
    /// Which file to open (Ctrl+O).
    Open(Vec<PathBuf>),
}

/// What comes after the unsaved edits are dealt with.
#[derive(Clone, Debug, PartialEq)]
pub enum Then {
    Quit,
    Open(PathBuf),
}

/// The scenario being edited.
#[derive(Resource)]
pub struct Editor {
    pub editing: Editing,
    /// Where it is saved.
    pub path: PathBuf,
    pub tool: Tool,
    pub brush: Brush,
    pub shape: Shape,
    /// The unit selected (its id).
    pub selected: Option<String>,
    /// The staff figure selected (free space), by index.
    pub staff: Option<usize>,
    /// The corps the corps tool adds to (its id).
    pub corps: Option<String>,
    /// The region marked with the region tool (corners).
    pub region: Option<(Offset, Offset)>,
    /// The region copied, for Ctrl+V.
    pub clip: Option<Clip>,
    /// The drag in progress on the map, if any.
    pub stroke: Option<Stroke>,
    /// Table positions snap to this grid, in cm (0: to a tenth).
    pub snap: f32,
    /// The side panel's page, and the entry of a list page shown.
    pub page: Page,
    pub entry: usize,
    /// The field a problem led to: shown lit.
    pub lit: Option<String>,
    /// Rules the designer chose to set, shown even at their default.
    pub rules_shown: Vec<String>,
    /// The checker's problems with the file as it stands, located in the
    /// text a save would write.
    pub problems: Vec<Problem>,
    /// The checker's warnings about a valid file (what `sauve check`
    /// warns of): it plays, but perhaps not as meant.
    pub warnings: Vec<Problem>,
    /// What the last action said.
    pub message: String,
    /// A question waiting for an answer; the editor's keys wait with it.
    pub ask: Option<Ask>,
    /// A playtest is open (F8 returns).
    pub playtest: bool,
    /// Comments of the file on disk a save would drop, and the author has
    /// been told: the next Ctrl+S saves without them.
    pub confirm_drop: bool,
    /// The history's revision at the last autosave, and when (seconds).
    pub(super) autosaved: (u64, f64),
    /// The revision checked and drawn.
    pub(super) checked: u64,
    /// The map and counters need drawing again.
    pub(super) redraw: bool,
    /// Quit was answered: the app closes.
    pub quit: bool,
}

impl Editor {
    /// An editor of `file`, to be saved to `path`.
    pub fn new(file: ScenarioFile, path: PathBuf) -> Editor {
        let mut e = Editor {
            editing: Editing::new(file),
            path,
            tool: Tool::Terrain(Terrain::Woods),
            brush: Brush::One,
            shape: Shape::Free,
            selected: None,
            staff: None,
            corps: None,
            region: None,
            clip: None,
            stroke: None,
            snap: 0.0,
            page: Page::Scenario,
            entry: 0,
            lit: None,
            rules_shown: Vec::new(),
            problems: Vec::new(),
            warnings: Vec::new(),
            message: String::new(),
            ask: None,
            playtest: false,
            confirm_drop: false,
            autosaved: (0, 0.0),
            checked: 0,
            redraw: true,
            quit: false,
        };
        e.check();
        e
    }

    pub fn file(&self) -> &ScenarioFile {
        &self.editing.file
    }

    /// The checker's problems with the file as it stands.
    pub(super) fn check(&mut self) {
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
        self.checked = self.editing.revision;
        self.redraw = true;
        // A selection the file lost (undone, deleted) is dropped.
        if self.selected.as_ref().is_some_and(|id| !self.file().units.iter().any(|u| u.id == *id)) {
            self.selected = None;
        }
        if self.staff.is_some_and(|i| i >= self.file().staff.len()) {
            self.staff = None;
        }
    }

    /// Applies an edit to the file; checks it again if it changed.
    pub fn edit<T>(&mut self, f: impl FnOnce(&mut ScenarioFile) -> T) -> T {
        let out = self.editing.apply(f);
        if self.editing.revision != self.checked {
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

    /// Ends a drag's stroke: its changes undo as one edit.
    pub fn end_stroke(&mut self) {
        if self.editing.end_stroke() {
            self.check();
        }
    }

    /// The selected unit's index in the file.
    pub fn selected_index(&self) -> Option<usize> {
        let id = self.selected.as_ref()?;
        self.file().units.iter().position(|u| u.id == *id)
    }

    /// Selects a unit (or nothing) and shows its form.
    pub fn select(&mut self, id: Option<String>) {
        self.staff = None;
        self.selected = id;
        if self.selected.is_some() {
            self.page = Page::Unit;
        }
        self.redraw = true;
    }

    /// Selects a staff figure and shows its form.
    pub fn select_staff(&mut self, i: usize) {
        self.selected = None;
        self.staff = Some(i);
        self.page = Page::List(List::Staff);
        self.entry = i;
        self.redraw = true;
    }

    /// Shows the form of a subject, with `field` lit.
    pub fn show(&mut self, subject: Subject, field: Option<String>) {
        self.page = match subject {
            Subject::Scenario => Page::Scenario,
            Subject::Map => Page::Map,
            Subject::Side(i) => Page::Side(i),
            Subject::Unit(i) => {
                self.selected = self.file().units.get(i).map(|u| u.id.clone());
                self.staff = None;
                Page::Unit
            }
            Subject::Rules => {
                if let Some(f) = &field
                    && !self.rules_shown.contains(f)
                {
                    self.rules_shown.push(f.clone());
                }
                Page::Rules
            }
            other => match List::of(other) {
                Some((list, i)) => {
                    self.entry = i;
                    if list == List::Staff {
                        self.staff = Some(i);
                    }
                    Page::List(list)
                }
                None => Page::Problems,
            },
        };
        self.lit = field;
        self.redraw = true;
    }

    /// Sets a field of a subject from what was typed, and says how it went.
    pub fn set_field(&mut self, subject: Subject, field: &str, text: &str) {
        let what = self.subject_words(subject);
        let r = self.edit(|f| fields::set(f, subject, field, text));
        // A unit renamed keeps its selection.
        if let (Subject::Unit(i), Ok(_)) = (subject, &r)
            && field == "id"
        {
            self.selected = self.file().units.get(i).map(|u| u.id.clone());
        }
        let label = fields::rows(self.file(), subject)
            .into_iter()
            .find(|r| r.field == field)
            .map_or_else(|| field.to_owned(), |r| r.label);
        self.message = match r {
            Ok(_) => {
                let now = fields::rows(self.file(), subject).into_iter().find(|r| r.field == field).map(|r| r.value);
                match now.filter(|v| !v.is_empty()) {
                    Some(v) => format!("{what}: {label} is {v}."),
                    None => format!("{what}: {label} left out (its default)."),
                }
            }
            Err(e) => format!("{what}: cannot set {label}: {e}"),
        };
    }

    /// What a form is about, in words: a unit by its name, a side by its.
    pub fn subject_words(&self, subject: Subject) -> String {
        match subject {
            Subject::Scenario => "The scenario".into(),
            Subject::Map => "The map".into(),
            Subject::Side(i) => format!("The {}", self.side_name(i)),
            Subject::Unit(i) => self.file().units.get(i).map_or_else(|| "The unit".into(), |u| self.unit_name(&u.id)),
            Subject::Rules => "The rules".into(),
            other => match List::of(other) {
                Some((list, i)) => format!("{} ({})", list.name(), fields::entry_words(self.file(), list, i)),
                None => "It".into(),
            },
        }
    }

    /// The hex or cell a spot lies in.
    pub fn cell_of(&self, spot: Spot) -> Option<Offset> {
        match spot {
            Spot::Hex(o) => Some(o),
            Spot::Cm(x, y) => {
                let c = self.file().map.cell_cm.unwrap_or(blank::NEW_CELL_CM);
                Some(Offset::new((x / c).floor() as i32, (y / c).floor() as i32))
            }
        }
    }

    /// A point on the table as the editor writes it: snapped to the grid
    /// chosen, or to a tenth of a cm.
    pub fn snapped(&self, spot: Spot) -> Spot {
        match spot {
            Spot::Cm(x, y) => {
                let s = |v| crate::edit::reshape::snap(v, self.snap);
                Spot::Cm(s(x), s(y))
            }
            hex => hex,
        }
    }

    /// The unit at a spot: in a hex, the top of its stack (or the next
    /// one after the selected); on the table, the one whose footprint
    /// holds the point, else the nearest within 8 cm.
    pub fn unit_at(&self, spot: Spot) -> Option<String> {
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

    /// The staff figure within 4 cm of a point on the table, nearest first.
    pub fn staff_at(&self, spot: Spot) -> Option<usize> {
        let Spot::Cm(x, y) = spot else { return None };
        self.file()
            .staff
            .iter()
            .enumerate()
            .map(|(i, s)| ((s.pos.0 - x).hypot(s.pos.1 - y), i))
            .filter(|(d, _)| *d <= 4.0)
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, i)| i)
    }

    /// The selected unit's morale one d66 step up or down (hex), or its
    /// valour one point (free space).
    pub fn nudge_morale(&mut self, up: bool) {
        let Some(id) = self.selected.clone() else { return };
        if let Err(e) = self.edit(|f| forces::nudge_morale(f, &id, up)) {
            self.message = format!("Cannot change {id}: {e}");
        }
    }

    /// The name a side is shown by: its name, else its id.
    pub fn side_name(&self, side: usize) -> String {
        self.file()
            .sides
            .get(side)
            .map_or_else(|| format!("side {}", side + 1), |s| s.name.clone().unwrap_or(s.id.clone()))
    }

    /// A unit as a sentence names it: its name, else its id.
    pub fn unit_name(&self, id: &str) -> String {
        self.file().units.iter().find(|u| u.id == id).and_then(|u| u.name.clone()).unwrap_or_else(|| id.to_owned())
    }

    /// Whether the file is a hex map.
    pub fn hex(&self) -> bool {
        self.file().mode == Mode::Hex
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
        if act == UnitAct::Delete
            && let Some(i) = self.staff
        {
            let r = self.edit(|f| fields::remove(f, List::Staff, i));
            self.staff = None;
            self.message = match r {
                Ok(w) => format!("Staff figure {w} deleted (Ctrl+Z brings it back)."),
                Err(e) => format!("Cannot delete: {e}"),
            };
            return;
        }
        let Some(id) = self.selected.clone() else {
            self.message = "Select a unit first (the select tool, or a click with a unit tool).".into();
            return;
        };
        let name = self.unit_name(&id);
        let said = match act {
            UnitAct::Stronger | UnitAct::Weaker => self
                .edit(|f| forces::nudge_strength(f, &id, act == UnitAct::Stronger))
                .map(|n| format!("{name}: strength {n}.")),
            UnitAct::State => self.edit(|f| forces::cycle_state(f, &id)).map(|st| match st {
                crate::vocab::State::GoodOrder | crate::vocab::State::Order => format!("{name} starts in good order."),
                st => format!("{name} starts {}.", crate::sentences::state_words(st)),
            }),
            UnitAct::Formation => self
                .edit(|f| forces::cycle_formation(f, &id))
                .map(|fm| format!("{name} starts in {}.", fields::word(&fm).to_lowercase())),
            UnitAct::Limbered => self
                .edit(|f| forces::toggle_limbered(f, &id))
                .map(|on| format!("{name} {}.", if on { "starts limbered" } else { "starts unlimbered" })),
            UnitAct::Horse => self
                .edit(|f| forces::toggle_horse(f, &id))
                .map(|on| format!("{name} is {}.", if on { "horse artillery" } else { "foot artillery" })),
            UnitAct::LaterShock => self.edit(|f| forces::later_shock(f, &id)).map(|t| match t {
                Some(t) => format!("{name}: its shock comes on turn {t}."),
                None => format!("{name} has no shock (K gives it one)."),
            }),
            UnitAct::Shock => self
                .edit(|f| forces::toggle_shock(f, &id, 1))
                .map(|on| format!("{name}: {} on turn 1.", if on { "a scripted shock routs it" } else { "no shock" })),
            UnitAct::Arm => self
                .edit(|f| forces::cycle_arm(f, &id))
                .map(|a| format!("{name} is {} now.", fields::word(&a).to_lowercase())),
            UnitAct::Side => {
                let r = self.edit(|f| forces::switch_side(f, &id));
                r.map(|s| {
                    let side = self.file().sides.iter().position(|x| x.id == s).unwrap_or(0);
                    format!("{name} goes over to the {}.", self.side_name(side))
                })
            }
            UnitAct::Leader => self
                .edit(|f| forces::toggle_leader(f, &id))
                .map(|on| format!("{name}: {}.", if on { "a leader rides with it" } else { "no leader" })),
            UnitAct::TurnRight | UnitAct::TurnLeft => {
                self.edit(|f| forces::rotate(f, &id, act == UnitAct::TurnRight)).map(|()| format!("{name} turned."))
            }
            UnitAct::MoraleUp | UnitAct::MoraleDown => {
                self.nudge_morale(act == UnitAct::MoraleUp);
                return;
            }
            UnitAct::Delete => {
                self.selected = None;
                self.edit(|f| forces::delete(f, &id)).map(|_| format!("{name} deleted (Ctrl+Z brings it back)."))
            }
        };
        self.message = said.unwrap_or_else(|err| format!("Cannot: {err}"));
    }
}

/// Edits between two autosaves at most.
pub const AUTOSAVE_EVERY: usize = 5;

/// Seconds of quiet after an edit before the autosave catches up.
pub const AUTOSAVE_AFTER_S: f64 = 1.0;

impl Editor {
    /// Whether an autosave is due at `now` (seconds): edits were made
    /// since the last, and a second has passed or several edits were made.
    pub fn autosave_due(&self, now: f64) -> bool {
        let (rev, at) = self.autosaved;
        let behind = self.editing.revision.saturating_sub(rev);
        self.editing.unsaved > 0 && behind > 0 && (now - at >= AUTOSAVE_AFTER_S || behind >= AUTOSAVE_EVERY as u64)
    }
}
