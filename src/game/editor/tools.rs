//! What the tool in hand does on the map. A press starts a stroke and a
//! release ends it, so a drag paints like a map editor's brush: terrain
//! laid along the way (or in a straight line or a rectangle from press to
//! release), streams and slopes on the edges the pointer passes, a unit
//! or staff figure carried, a region marked. A press and release in one
//! place is a click: a unit placed, an objective, a corps member, an
//! exit, a staff figure, a selection.

use crate::edit::fields::List;
use crate::edit::forces::{self, Spot};
use crate::edit::paint::{self, Brush};
use crate::edit::region;
use crate::hex::{Dir, Offset};
use crate::scenario::Mode;

use super::model::{Editor, Page, Shape, Stroke, Tool};

/// The hexside under the pointer: the nearest edge of its hex, and how
/// far from the hex's centre the pointer is (0 at the centre, about 0.43
/// on an edge's middle, in hex widths).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edge {
    pub dir: Dir,
    pub out: f32,
}

/// How far from its centre (in hex widths) a drag must pass for the
/// hexside tool to take the edge: off the middle, near the rim.
const NEAR_EDGE: f32 = 0.3;

impl Editor {
    /// A press on the map at `spot`; whether it grabs the drag (the map
    /// then does not pan).
    pub fn press(&mut self, spot: Spot, edge: Option<Edge>) -> bool {
        let Some(cell) = self.cell_of(spot) else { return false };
        match self.tool {
            Tool::Terrain(_) if self.shape != Shape::Free => {
                self.stroke = Some(Stroke::Shape { from: cell, to: cell });
                true
            }
            Tool::Terrain(t) => {
                self.editing.begin_stroke();
                self.stroke = Some(Stroke::Paint { last: cell });
                self.lay(&[cell], t);
                true
            }
            Tool::Hexside(kind) => {
                let Some(e) = edge else { return false };
                if !self.hex() {
                    self.message = "Streams and slopes lie on hex edges: a table has none.".into();
                    return false;
                }
                self.editing.begin_stroke();
                self.stroke = Some(Stroke::Edges);
                self.edit(|f| paint::set_hexside(&mut f.map, cell, e.dir, kind));
                self.say_edge(cell, e.dir, kind);
                true
            }
            Tool::Select => {
                if let Some(i) = self.staff_at(spot) {
                    self.select_staff(i);
                    self.editing.begin_stroke();
                    self.stroke = Some(Stroke::CarryStaff(i));
                    self.message = "Staff figure selected: drag to move it, Delete deletes it.".into();
                    return true;
                }
                let hit = self.unit_at(spot);
                // A press on the selected unit keeps it (a drag carries
                // it); a click without a drag steps through the stack.
                let keep = hit.is_some() && self.unit_at_is_selected(spot);
                let id = if keep { self.selected.clone() } else { hit };
                let Some(id) = id else {
                    self.select(None);
                    return false;
                };
                self.select(Some(id.clone()));
                self.message = format!(
                    "{} selected: drag moves it, T turns it, Delete deletes it; its fields are on the right.",
                    self.unit_name(&id)
                );
                self.editing.begin_stroke();
                self.stroke = Some(Stroke::Carry(id));
                true
            }
            Tool::Region => {
                self.stroke = Some(Stroke::Region { from: cell, to: cell });
                self.region = Some((cell, cell));
                true
            }
            _ => false,
        }
    }

    fn unit_at_is_selected(&self, spot: Spot) -> bool {
        let Some(sel) = &self.selected else { return false };
        match spot {
            Spot::Hex(o) => forces::units_at(self.file(), o).iter().any(|&i| self.file().units[i].id == *sel),
            Spot::Cm(..) => self.unit_at(spot).as_ref() == Some(sel),
        }
    }

    /// The pointer moved to `spot` with the button held.
    pub fn drag_to(&mut self, spot: Spot, edge: Option<Edge>) {
        let Some(cell) = self.cell_of(spot) else { return };
        match self.stroke.clone() {
            Some(Stroke::Paint { last }) if last != cell => {
                let Tool::Terrain(t) = self.tool else { return };
                // Every cell between, so a fast drag leaves no gaps.
                let way = region::line(self.file().mode, last, cell);
                self.lay(&way, t);
                self.stroke = Some(Stroke::Paint { last: cell });
            }
            Some(Stroke::Shape { from, .. }) => self.stroke = Some(Stroke::Shape { from, to: cell }),
            Some(Stroke::Region { from, .. }) => {
                self.stroke = Some(Stroke::Region { from, to: cell });
                self.region = Some((from, cell));
            }
            Some(Stroke::Edges) => {
                let (Tool::Hexside(kind), Some(e)) = (self.tool, edge) else { return };
                if e.out >= NEAR_EDGE {
                    self.edit(|f| paint::set_hexside(&mut f.map, cell, e.dir, kind));
                }
            }
            Some(Stroke::Carry(id)) => {
                let to = self.snapped(spot);
                self.edit(|f| forces::move_to(f, &id, to)).ok();
            }
            Some(Stroke::CarryStaff(i)) => {
                let Spot::Cm(x, y) = self.snapped(spot) else { return };
                self.edit(|f| {
                    if let Some(s) = f.staff.get_mut(i) {
                        s.pos = (x, y);
                    }
                });
            }
            _ => {}
        }
    }

    /// The button released at `spot`; `click` if the pointer did not move
    /// since the press.
    pub fn release(&mut self, spot: Spot, edge: Option<Edge>, click: bool, moving: bool) {
        let stroke = self.stroke.take();
        match stroke {
            Some(Stroke::Shape { from, .. }) => {
                let Tool::Terrain(t) = self.tool else { return };
                let Some(to) = self.cell_of(spot) else { return };
                let cells = match self.shape {
                    Shape::Rect => region::rect(from, to),
                    _ => region::line(self.file().mode, from, to),
                };
                self.editing.begin_stroke();
                self.lay(&cells, t);
                self.end_stroke();
            }
            Some(Stroke::Region { from, .. }) => {
                let Some(to) = self.cell_of(spot) else { return };
                self.region = Some((from, to));
                let (w, h) = ((from.c - to.c).abs() + 1, (from.r - to.r).abs() + 1);
                self.message = format!("A region of {w} x {h} marked: Ctrl+C copies it, Ctrl+V pastes at the pointer.");
            }
            Some(Stroke::Carry(id)) => {
                self.end_stroke();
                if click {
                    // A click on a stack steps through it.
                    if let Spot::Hex(_) = spot
                        && let Some(next) = self.unit_at(spot)
                        && next != id
                    {
                        self.select(Some(next.clone()));
                        self.message =
                            format!("{} selected (click again for the next of the stack).", self.unit_name(&next));
                    }
                } else {
                    self.message = format!("{} moved.", self.unit_name(&id));
                }
            }
            Some(_) => self.end_stroke(),
            None if click => self.click(spot, edge.map(|e| e.dir), moving),
            None => {}
        }
    }

    /// Lays terrain `t` under the brush at each of `cells`, and says so.
    fn lay(&mut self, cells: &[Offset], t: crate::terrain::Terrain) {
        let (mode, brush) = (self.file().mode, self.brush);
        // A fill floods from one cell; along a line each cell is one.
        let brush = if cells.len() > 1 && brush == Brush::Fill { Brush::One } else { brush };
        let n = self.edit(|f| cells.iter().map(|&c| paint::paint(&mut f.map, mode, c, brush, t)).sum::<usize>());
        if n > 0 || self.message.is_empty() {
            let what = if mode == Mode::Hex { "hex" } else { "cell" };
            let s = if n == 1 { "" } else { "s" };
            self.message = format!("{n} {what}{s} painted {}.", crate::edit::fields::word(&t).to_lowercase());
        }
    }

    fn say_edge(&mut self, at: Offset, dir: Dir, kind: Option<crate::terrain::HexsideKind>) {
        self.message = format!(
            "The {} edge of hex {}, {}: {}.",
            crate::edit::fields::word(&dir),
            at.c,
            at.r,
            kind.map_or("nothing".into(), |k| crate::edit::fields::word(&k).to_lowercase())
        );
    }

    /// What a click at `spot` does with the tool chosen; `side_dir` is the
    /// hexside nearest the pointer (hexside tool); `moving` (M held) moves
    /// the selected unit there instead.
    pub fn click(&mut self, spot: Spot, side_dir: Option<Dir>, moving: bool) {
        let spot = self.snapped(spot);
        let hex = match spot {
            Spot::Hex(o) => Some(o),
            Spot::Cm(..) => None,
        };
        let cell = self.cell_of(spot);
        if moving && let Some(id) = self.selected.clone() {
            let r = self.edit(|f| forces::move_to(f, &id, spot));
            self.message = match r {
                Ok(()) => format!("{} moved.", self.unit_name(&id)),
                Err(e) => format!("Cannot move: {e}"),
            };
            return;
        }
        match self.tool {
            Tool::Terrain(t) => {
                let Some(at) = cell else { return };
                self.lay(&[at], t);
            }
            Tool::Hexside(kind) => {
                let (Some(at), Some(dir)) = (hex, side_dir) else {
                    self.message = "Streams and slopes lie on hex edges: a table has none.".into();
                    return;
                };
                self.edit(|f| paint::set_hexside(&mut f.map, at, dir, kind));
                self.say_edge(at, dir, kind);
            }
            Tool::Unit { side, arm } => {
                let Some(side_id) = self.file().sides.get(side).map(|s| s.id.clone()) else { return };
                let u = forces::new_unit(self.file(), &side_id, arm, spot);
                let id = u.id.clone();
                let r = self.edit(|f| forces::place(f, u));
                self.message = match r {
                    Ok(_) => {
                        self.select(Some(id.clone()));
                        format!(
                            "{id} placed ({} of the {}); its fields are on the right.",
                            crate::edit::fields::word(&arm).to_lowercase(),
                            self.side_name(side)
                        )
                    }
                    Err(e) => format!("Cannot place: {e}"),
                };
            }
            Tool::Objective => {
                // On a table an objective names the cell clicked (its area
                // is round the cell's centre, docs/rules.md 2.11).
                let Some(at) = cell else { return };
                let on = self.edit(|f| forces::toggle_objective(f, at, 1));
                self.message = if on {
                    let i = self.file().objectives.len().saturating_sub(1);
                    self.page = Page::List(List::Objectives);
                    self.entry = i;
                    format!("An objective at {}, {}: name it on the right.", at.c, at.r)
                } else {
                    format!("No objective at {}, {} any more.", at.c, at.r)
                };
            }
            Tool::Corps => self.corps_click(spot),
            Tool::Exit { side } => {
                let Some(at) = hex else {
                    self.message = "Exits are for hex maps.".into();
                    return;
                };
                use crate::hex::Edge;
                let (w, h) = paint::size(&self.file().map);
                let edges = [Edge::North, Edge::South, Edge::West, Edge::East];
                let Some(edge) = edges.into_iter().min_by_key(|e| e.distance(at, w, h)) else { return };
                let on = self.edit(|f| crate::edit::sides::toggle_exit(f, side, edge));
                let who = self.side_name(side);
                let by = crate::edit::fields::word(&edge).to_lowercase();
                self.message = match on {
                    Some(true) => format!("The {who} score for leaving by the {by} edge."),
                    Some(false) => format!("No exit by the {by} edge for the {who} any more."),
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
                    Ok(i) => {
                        self.select_staff(i);
                        format!("A staff figure of the {} at {x}, {y} cm: name it on the right.", self.side_name(side))
                    }
                    Err(e) => format!("Cannot: {e}"),
                };
            }
            Tool::Select => {
                if let Some(i) = self.staff_at(spot) {
                    self.select_staff(i);
                    return;
                }
                let id = self.unit_at(spot);
                self.select(id.clone());
                self.message = match id {
                    Some(id) => format!(
                        "{} selected: drag moves it, T turns it, Delete deletes it; its fields are on the right.",
                        self.unit_name(&id)
                    ),
                    None => "Nothing there.".into(),
                };
            }
            Tool::Region => {
                let Some(at) = cell else { return };
                self.region = Some((at, at));
            }
        }
    }

    /// The corps tool: the unit clicked into its side's corps being built
    /// (the one chosen, else the side's first, else a new one), or out.
    fn corps_click(&mut self, spot: Spot) {
        let Some(id) = self.unit_at(spot) else {
            self.message = "The corps tool puts the unit clicked into a corps: no unit there.".into();
            return;
        };
        let side = self.file().units.iter().find(|u| u.id == id).map(|u| u.side.clone()).unwrap_or_default();
        let active = self.corps.clone().filter(|c| self.file().corps.iter().any(|x| x.id == *c && x.side == side));
        let corps = match active.or_else(|| self.file().corps.iter().find(|c| c.side == side).map(|c| c.id.clone())) {
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
        let name = self.unit_name(&id);
        self.message = match r {
            Ok(true) => format!("{name} joins {corps}."),
            Ok(false) => format!("{name} leaves {corps}."),
            Err(e) => format!("Cannot: {e}"),
        };
    }

    /// Ctrl+C: the region marked, copied.
    pub fn copy_region(&mut self) {
        let Some((a, b)) = self.region else {
            self.message = "Mark a region first: the region tool, then drag over the map.".into();
            return;
        };
        let clip = region::copy(self.file(), a, b);
        self.message = format!(
            "Copied {} x {}: {} units, {} objectives. Ctrl+V pastes it with its corner at the pointer.",
            clip.size.0,
            clip.size.1,
            clip.units.len(),
            clip.objectives.len()
        );
        self.clip = Some(clip);
    }

    /// Ctrl+V: the region copied, pasted with its corner at `at`.
    pub fn paste_at(&mut self, at: Option<Offset>) {
        let Some(clip) = self.clip.clone() else {
            self.message = "Nothing copied yet: mark a region and Ctrl+C.".into();
            return;
        };
        let Some(at) = at else {
            self.message = "Point at the map where the region's corner goes, then Ctrl+V.".into();
            return;
        };
        self.editing.begin_stroke();
        let r = self.edit(|f| region::paste(f, &clip, at));
        self.end_stroke();
        self.message = match r {
            Ok(said) => format!("{said} (Ctrl+Z takes it back)."),
            Err(e) => format!("Cannot paste: {e}"),
        };
    }
}
