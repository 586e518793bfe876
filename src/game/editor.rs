//! The scenario editor (`sauve edit [FILE]`): the file's map drawn as it
//! is painted, its units as counters, the checker's problems listed and
//! ringed on the map while you edit. The work itself is the rules crate's
//! pure editing functions ([`crate::edit`]); this file turns clicks and
//! keys into them, draws the result, and saves, autosaves and playtests.
//!
//! - Click the map with the tool chosen in the palette (left): a terrain
//!   under the brush (one hex, radius 1-3, fill), a stream or slope on
//!   the hexside nearest the pointer (or none), a unit of a side and arm,
//!   an objective (again: none), a unit into a corps, an exit by the
//!   nearest edge, a staff figure, or select a unit (then: M+click moves
//!   it, T / Shift+T turn it, Delete deletes, Ctrl+D copies it to the hex
//!   under the pointer, + and - or the d66 grid its morale, [ and ] its
//!   strength, S its state, F its formation, A its arm, O its side, L and
//!   H limbered and horse artillery, K a turn-1 shock (Shift+K a turn
//!   later), J a leader riding with it).
//! - Ctrl+Z undo, Ctrl+Y (or Ctrl+Shift+Z) redo, Ctrl+S save (a file with
//!   comments of its own asks first: Ctrl+S again overwrites, Ctrl+Shift+S
//!   writes `NAME.edited.ron`); every few edits an autosave goes to
//!   `NAME.autosave.ron`.
//! - F8 playtests the scenario as it stands, with the seats chosen (P in
//!   the battle); F8 again returns to the editor where you left it. A
//!   scenario with problems is never played: F8 says why.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_ecs_tilemap::prelude::TileStorage;

use super::input::MapPointer;
use super::layout::Layout;
use super::lines::Lines;
use super::map::{HexAtlas, spawn_ground, z};
use super::opened::{OnBattle, Opened, Source};
use super::request::Request;
use super::scenarios::ScenarioText;
use super::screen::MainCamera;
use super::seats::{Seats, seat};
use super::sets::GameSet;
use super::state::Screen;
use crate::edit::forces::{self, Spot};
use crate::edit::history::Editing;
use crate::edit::paint::{self, Brush};
use crate::edit::{blank, places, write};
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
    redraw: bool,
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

/// Removes what was drawn for the battle (or the editor's map): its
/// entities, and the tiles of its tilemaps, which are entities of their
/// own that the renderer would otherwise find without their map.
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

/// Width of the editor's palette on the left, which the map is fitted
/// beside.
pub const PALETTE_W: f32 = 118.0;

/// The map, just fitted into the window beside the side panel, fitted
/// beside the palette too.
fn beside_palette(
    editor: Option<Res<Editor>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cam: Query<(&mut Transform, &mut Projection), With<MainCamera>>,
) {
    if editor.is_none_or(|e| e.playtest) {
        return;
    }
    let (Ok(window), Ok((mut t, mut p))) = (windows.single(), cam.single_mut()) else { return };
    let Projection::Orthographic(o) = p.as_mut() else { return };
    use super::screen::{BAR_H, PANEL_W};
    let free = (window.width() - PANEL_W).max(PALETTE_W + 100.0);
    let old = o.scale;
    o.scale *= free / (free - PALETTE_W);
    // The map's centre, which the fit put in the middle of the part of the
    // window right of nothing and left of the side panel, goes in the
    // middle of the part between the palette and the side panel.
    t.translation.x += (PANEL_W - PALETTE_W) / 2.0 * o.scale - PANEL_W / 2.0 * old;
    t.translation.y += BAR_H / 2.0 * (o.scale - old);
}

/// The counter of a unit in the editor.
#[derive(Component)]
struct EditorCounter;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (keys, show_editor).chain().in_set(GameSet::Input));
    app.add_systems(Update, (redraw, marks).in_set(GameSet::Draw).run_if(in_state(Screen::Editor)));
    app.add_systems(
        Update,
        beside_palette.after(GameSet::Build).before(GameSet::Input).run_if(resource_changed::<Opened>),
    );
    app.add_observer(click);
    let Some(req) = app.world().resource::<Request>().0.edit.clone() else { return };
    let editor = Editor::open(&req.file, req.mode, req.size, req.fill).unwrap_or_else(|err| {
        eprintln!("{err}");
        let mut e = Editor::new(blank::blank(req.mode, req.size.0, req.size.1, req.fill), edited_path(&req.file));
        e.message = format!("{} would not open (see the terminal); this is a new map.", req.file.display());
        e
    });
    app.insert_resource(editor);
    app.add_systems(Startup, |mut next: ResMut<NextState<Screen>>| next.set(Screen::Editor));
    if let Some(out) = req.shot {
        app.insert_resource(Picture { out, frames: 0, done: None });
        app.add_systems(Update, picture.in_set(GameSet::Panels));
    }
}

/// `sauve edit --shot PNG`: frames waited, and whether the picture was
/// written.
#[derive(Resource)]
struct Picture {
    out: PathBuf,
    frames: u32,
    done: Option<bool>,
}

/// Takes the picture once the editor has been drawn for a while, then
/// exits (with an error status if it could not be written).
fn picture(mut commands: Commands, mut pic: ResMut<Picture>, mut exit: MessageWriter<AppExit>) {
    if let Some(ok) = pic.done {
        exit.write(if ok { AppExit::Success } else { AppExit::error() });
        return;
    }
    pic.frames += 1;
    if pic.frames != 30 {
        return;
    }
    let out = pic.out.clone();
    commands.spawn(bevy::render::view::screenshot::Screenshot::primary_window()).observe(
        move |cap: On<bevy::render::view::screenshot::ScreenshotCaptured>, mut pic: ResMut<Picture>| {
            let saved = cap
                .image
                .clone()
                .try_into_dynamic()
                .map_err(|e| e.to_string())
                .and_then(|img| img.to_rgb8().save(&out).map_err(|e| e.to_string()));
            if let Err(e) = &saved {
                eprintln!("{}: error: cannot write the picture: {e}", out.display());
            }
            pic.done = Some(saved.is_ok());
        },
    );
}

/// N in the menu: a new 30x20 hex map in the editor, to be saved as
/// `new-scenario.ron` here (or the first free `new-scenario-N.ron`).
pub fn new_map_in_editor(world: &mut World) {
    let path = (1..)
        .map(
            |n| if n == 1 { PathBuf::from("new-scenario.ron") } else { PathBuf::from(format!("new-scenario-{n}.ron")) },
        )
        .find(|p| !p.exists())
        .unwrap_or_else(|| PathBuf::from("new-scenario.ron"));
    let mut e = Editor::new(blank::blank(Mode::Hex, 30, 20, Terrain::Clear), path.clone());
    e.message = format!("A new 30x20 map; Ctrl+S saves it to {}.", path.display());
    clear_battle(world);
    world.insert_resource(e);
    world.resource_mut::<NextState<Screen>>().set(Screen::Editor);
}

/// E in the menu: the open scenario in the editor. A file on disk is
/// edited in place; a bundled battle or a save's scenario is saved as a
/// copy under its own name in this directory.
pub fn edit_open_battle(world: &mut World) {
    let source = world.resource::<Opened>().source.clone();
    let text = world.get_resource::<ScenarioText>().map(|t| t.0.clone()).unwrap_or_default();
    let on_disk = |p: &Path| std::fs::read_to_string(p).is_ok_and(|t| !crate::save::is_save(&t));
    let editor = match &source {
        Source::File(p) if on_disk(p) => Editor::open(p, Mode::Hex, (30, 20), Terrain::Clear),
        other => {
            let name = match other {
                Source::Bundled(i) => super::opened::BUNDLED.get(*i).map_or("scenario.ron", |b| b.0).to_owned(),
                Source::File(p) => format!(
                    "{}-scenario.ron",
                    p.file_stem().map_or_else(|| "save".into(), |s| s.to_string_lossy().into_owned())
                ),
            };
            crate::scenario::read_file(&text, &name).map_err(|e| e.to_string()).map(|f| {
                let mut e = Editor::new(f, PathBuf::from(&name));
                e.message = format!("A copy of the battle: Ctrl+S saves it as {name} here.");
                e
            })
        }
    };
    match editor {
        Ok(e) => {
            clear_battle(world);
            world.insert_resource(e);
            world.resource_mut::<NextState<Screen>>().set(Screen::Editor);
        }
        Err(err) => warn!("cannot edit this battle: {err}"),
    }
}

/// The editor's keys: undo, redo, save, playtest and back, and the
/// selected unit's turn, delete, copy and morale.
fn keys(world: &mut World) {
    let (ctrl, shift, k) = {
        let k = world.resource::<ButtonInput<KeyCode>>();
        let ctrl = k.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
        let shift = k.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
        (ctrl, shift, k.clone())
    };
    let Some(playtest) = world.get_resource::<Editor>().map(|e| e.playtest) else { return };
    if k.just_pressed(KeyCode::F8) {
        toggle_playtest(world);
        return;
    }
    if playtest || *world.resource::<State<Screen>>().get() != Screen::Editor {
        return;
    }
    // Keys typed into a text field are the field's.
    let focused = world.get_resource::<bevy::input_focus::InputFocus>().and_then(|f| f.get());
    if focused.is_some_and(|e| world.get::<bevy::text::EditableText>(e).is_some()) {
        return;
    }
    let hex = world.resource::<MapPointer>().hex;
    let mut e = world.resource_mut::<Editor>();
    if ctrl && (k.just_pressed(KeyCode::KeyY) || (shift && k.just_pressed(KeyCode::KeyZ))) {
        e.message = if e.redo() { "Redone." } else { "Nothing to redo." }.into();
    } else if ctrl && k.just_pressed(KeyCode::KeyZ) {
        e.message = if e.undo() { "Undone." } else { "Nothing to undo." }.into();
    } else if ctrl && k.just_pressed(KeyCode::KeyS) {
        e.message = e.save_words(shift);
    } else if ctrl && k.just_pressed(KeyCode::KeyD) {
        let (Some(id), Some(at)) = (e.selected.clone(), hex) else { return };
        let r = e.edit(|f| forces::duplicate(f, &id, Spot::Hex(at)));
        e.message = match r {
            Ok(new) => format!("{id} copied as {new}."),
            Err(err) => format!("Cannot copy: {err}"),
        };
    } else if k.just_pressed(KeyCode::Delete) || k.just_pressed(KeyCode::Backspace) {
        e.unit_act(UnitAct::Delete);
    } else if k.just_pressed(KeyCode::KeyT) {
        e.unit_act(if shift { UnitAct::TurnLeft } else { UnitAct::TurnRight });
    } else if k.any_just_pressed([KeyCode::Equal, KeyCode::NumpadAdd]) {
        e.nudge_morale(true);
    } else if k.any_just_pressed([KeyCode::Minus, KeyCode::NumpadSubtract]) {
        e.nudge_morale(false);
    } else if e.selected.is_some() {
        // The selected unit's other fields, one key each.
        let act = [
            (KeyCode::BracketRight, UnitAct::Stronger),
            (KeyCode::BracketLeft, UnitAct::Weaker),
            (KeyCode::KeyS, UnitAct::State),
            (KeyCode::KeyF, UnitAct::Formation),
            (KeyCode::KeyL, UnitAct::Limbered),
            (KeyCode::KeyH, UnitAct::Horse),
            (KeyCode::KeyK, if shift { UnitAct::LaterShock } else { UnitAct::Shock }),
            (KeyCode::KeyA, UnitAct::Arm),
            (KeyCode::KeyO, UnitAct::Side),
            (KeyCode::KeyJ, UnitAct::Leader),
        ]
        .into_iter()
        .find(|(key, _)| k.just_pressed(*key));
        if let Some((_, act)) = act {
            e.unit_act(act);
        }
    }
    // Asked without touching the editor, which would count as a change
    // every frame (and rebuild the panels under the pointer).
    if e.autosave_due()
        && let Some(p) = e.autosave()
    {
        e.message = format!("{} (autosaved to {})", e.message, p.display());
    }
}

/// A click on the map (not on a panel over it) with the tool chosen.
fn click(
    ev: On<Pointer<Click>>,
    windows: Query<(), With<PrimaryWindow>>,
    cam: Query<(&Camera, &GlobalTransform), With<MainCamera>>,
    opened: Res<Opened>,
    pointer: Res<MapPointer>,
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    editor: Option<ResMut<Editor>>,
    focus: Option<ResMut<bevy::input_focus::InputFocus>>,
) {
    let Some(mut editor) = editor else { return };
    let on_map = ev.original_event_target() == ev.entity && windows.contains(ev.entity);
    // A click on the map leaves a text field: the keys are the editor's again.
    if on_map && let Some(mut f) = focus {
        f.clear();
    }
    if !on_map || pointer.dragged || editor.playtest || *screen.get() != Screen::Editor {
        return;
    }
    if ev.button != PointerButton::Primary {
        return;
    }
    let Ok((camera, gt)) = cam.single() else { return };
    let Some(world) = camera.viewport_to_world_2d(gt, ev.pointer_location.position).ok() else { return };
    let moving = keys.pressed(KeyCode::KeyM);
    click_at(&mut editor, opened.layout, world, moving);
}

/// A click at a world point, in hex or table terms.
pub fn click_at(editor: &mut Editor, layout: Layout, world: Vec2, moving: bool) {
    match layout {
        Layout::Hex { .. } => {
            let Some(at) = layout.hex_at(world) else { return };
            let d = (world - layout.world(at)) / super::layout::HEX_W;
            let side = paint::nearest_side(d.x, -d.y);
            editor.click(Spot::Hex(at), Some(side), moving);
        }
        Layout::Table { .. } => {
            let o = layout.table_world(0.0, 0.0);
            let ppc = layout.px_per_cm();
            let (x, y) = ((world.x - o.x) / ppc, (o.y - world.y) / ppc);
            editor.click(Spot::Cm(x, y), None, moving);
        }
    }
}

/// The editor's map as the open "battle": its layout (so the camera fits
/// it and Home fits it again), no scenario (so the battle's features draw
/// nothing of their own).
fn opened_for(e: &Editor) -> Opened {
    let layout = match e.file().mode {
        Mode::Hex => {
            let (w, h) = paint::size(&e.file().map);
            Layout::Hex { width: w.max(1) as u32, height: h.max(1) as u32 }
        }
        Mode::FreeSpace => {
            let (w, h) = paint::size(&e.file().map);
            Layout::Table {
                width: w.max(1) as u32,
                height: h.max(1) as u32,
                cell_cm: e.file().map.cell_cm.unwrap_or(blank::NEW_CELL_CM),
            }
        }
    };
    Opened { layout, ..Opened::failed(Source::File(e.path.clone()), Vec::new()) }
}

/// Entering the editor (at start, or back from a playtest): the map is
/// the editor's.
fn show_editor(world: &mut World) {
    let Some(e) = world.get_resource::<Editor>() else { return };
    if e.playtest || !e.redraw {
        return;
    }
    let want = opened_for(e);
    let o = world.resource::<Opened>();
    if o.scenario.is_some() || o.layout != want.layout || o.source != want.source {
        world.insert_resource(want);
    }
}

/// The map and the counters drawn again after an edit.
fn redraw(
    mut commands: Commands,
    editor: Option<ResMut<Editor>>,
    opened: Res<Opened>,
    old: Query<(Entity, Option<&TileStorage>), With<OnBattle>>,
    hex: Res<HexAtlas>,
    mut images: ResMut<Assets<Image>>,
) {
    let Some(mut e) = editor else { return };
    if e.playtest || !e.redraw || opened.scenario.is_some() {
        return;
    }
    e.redraw = false;
    for (entity, storage) in &old {
        commands.entity(entity).despawn();
        for tile in storage.into_iter().flat_map(|s| s.iter().flatten()) {
            commands.entity(*tile).despawn();
        }
    }
    let f = e.file();
    let layout = opened.layout;
    spawn_ground(&mut commands, layout, &paint::terrain_map(&f.map, f.mode), &hex, &mut images);
    for u in &f.units {
        let Some(spot) = forces::spot(u) else { continue };
        let at = world_of(layout, spot);
        let side = f.sides.iter().position(|s| s.id == u.side).unwrap_or(0);
        let colour = if side == 0 { Color::srgb(0.2, 0.35, 0.8) } else { Color::srgb(0.8, 0.2, 0.18) };
        let arm = match u.arm {
            Arm::Infantry => "I",
            Arm::Cavalry => "C",
            Arm::Artillery => "A",
        };
        let value = match (u.morale, u.strength, u.valour, u.figures) {
            (Some(m), s, _, _) => format!("{m} {}", s.unwrap_or(0)),
            (None, _, v, fig) => format!("{:+} {}", v.unwrap_or(0), fig.unwrap_or(0)),
        };
        commands.spawn((
            EditorCounter,
            OnBattle,
            Sprite::from_color(colour, Vec2::new(40.0, 34.0)),
            Transform::from_translation(at.extend(z::COUNTER)),
            children![(
                Text2d::new(format!("{arm}\n{value}")),
                TextFont::from_font_size(11.0),
                TextColor(Color::WHITE),
                Transform::from_xyz(0.0, 0.0, 0.1),
            )],
        ));
    }
}

fn world_of(layout: Layout, spot: Spot) -> Vec2 {
    match spot {
        Spot::Hex(o) => layout.world(o),
        Spot::Cm(x, y) => layout.table_world(x, y),
    }
}

/// Rings, every frame: the problems (red), the selected unit (gold), the
/// objectives (white).
fn marks(editor: Option<Res<Editor>>, opened: Res<Opened>, mut lines: ResMut<Lines>) {
    let Some(e) = editor else { return };
    let layout = opened.layout;
    for p in &e.problems {
        if let Some(spot) = p.path.as_deref().and_then(|path| places::spot_of(e.file(), path)) {
            lines.circle(world_of(layout, spot), 26.0, 3.0, PROBLEM, z::FLASH);
        }
    }
    for o in &e.file().objectives {
        lines.circle(layout.world(Offset::new(o.at.0 as i32, o.at.1 as i32)), 20.0, 2.5, Color::WHITE, z::FLASH - 1.0);
    }
    let selected = e.selected.as_ref().and_then(|id| e.file().units.iter().find(|u| u.id == *id));
    if let Some(spot) = selected.and_then(forces::spot) {
        lines.circle(world_of(layout, spot), 30.0, 3.0, Color::srgb(1.0, 0.85, 0.1), z::FLASH);
    }
}

/// The ring of a problem's place.
pub const PROBLEM: Color = Color::srgb(1.0, 0.15, 0.15);

/// F8: a playtest of the scenario as it stands, or back to the editor
/// from one.
pub fn toggle_playtest(world: &mut World) {
    match world.get_resource::<Editor>().map(|e| e.playtest) {
        Some(true) => back_to_editor(world),
        Some(false) => playtest_now(world),
        None => {}
    }
}

/// F8 in the editor: the scenario as it stands, played in this window
/// with the seats chosen; refused while it has problems.
fn playtest_now(world: &mut World) {
    let e = world.resource::<Editor>();
    let text = write::to_ron(e.file());
    let name = e.path.display().to_string();
    let scenario = match crate::scenario::parse(&text, &name) {
        Ok(s) => Arc::new(s),
        Err(err) => {
            let n = err.lines().len();
            world.resource_mut::<Editor>().message = format!(
                "Not playable: {n} problems to mend first (listed on the right; an invalid scenario is never played)."
            );
            return;
        }
    };
    clear_battle(world);
    let seats = *world.resource::<Seats>();
    crate::sim::reset(world, scenario.clone(), scenario.seed, Vec::new(), seats);
    seat(world, seats);
    world.insert_resource(ScenarioText(text));
    world.insert_resource(Opened::battle(Source::File(world.resource::<Editor>().path.clone()), scenario));
    let mut e = world.resource_mut::<Editor>();
    e.playtest = true;
    e.message = "Playtest: F8 returns to the editor.".into();
    world.resource_mut::<NextState<Screen>>().set(Screen::Battle);
}

/// F8 in a playtest: back to the editor as it was left.
fn back_to_editor(world: &mut World) {
    clear_battle(world);
    let mut e = world.resource_mut::<Editor>();
    e.playtest = false;
    e.redraw = true;
    e.message = "Back in the editor.".into();
    let opened = opened_for(&e);
    world.insert_resource(opened);
    world.resource_mut::<NextState<Screen>>().set(Screen::Editor);
}

#[cfg(test)]
mod tests;
