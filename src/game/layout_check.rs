//! A check of the window's layout, for the render tests: with
//! `SAUVE_LAYOUT=PATH` set (beside `sauve shot` or `sauve edit --shot`),
//! every frame writes to PATH, as JSON, what is wrong with the UI as laid
//! out: two panels over each other, a panel over the map's part of the
//! window, text wider than the node that holds it (cut off by a node that
//! clips, or by the window's edge), and text cut at the foot of a node
//! that clips and does not scroll. A text field (whose words scroll in it
//! by design) is no finding. The render test walks the screens at
//! two window sizes and fails on any finding (tests/render.rs).

use bevy::prelude::*;
use bevy::text::TextLayoutInfo;
use bevy::window::PrimaryWindow;

use super::opened::Opened;
use super::screen::{BANNER_H, BAR_H, MapInset, PANEL_W};
use crate::sim::{Control, Controls};

pub(super) fn plugin(app: &mut App) {
    let Ok(path) = std::env::var("SAUVE_LAYOUT") else { return };
    app.insert_resource(ReportTo(path.into()));
    app.add_systems(Last, report);
}

#[derive(Resource)]
struct ReportTo(std::path::PathBuf);

/// A node as laid out: its rectangle in logical pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Boxed {
    pub min: Vec2,
    pub max: Vec2,
}

impl Boxed {
    fn overlap(&self, o: &Boxed) -> f32 {
        let w = (self.max.x.min(o.max.x) - self.min.x.max(o.min.x)).max(0.0);
        let h = (self.max.y.min(o.max.y) - self.min.y.max(o.min.y)).max(0.0);
        w * h
    }

    fn area(&self) -> f32 {
        (self.max - self.min).max(Vec2::ZERO).element_product()
    }
}

/// About the width of a space at the window's text sizes, in pixels.
const SPACE: f32 = 6.0;

/// What the check found, in words: one line each.
pub fn findings(panels: &[(String, Boxed)], map: Boxed, texts: &[(String, Boxed, Boxed, bool)]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, (a, ra)) in panels.iter().enumerate() {
        if ra.overlap(&map) > 4.0 {
            out.push(format!("the panel '{a}' covers the map's part of the window ({:.0} px²)", ra.overlap(&map)));
        }
        for (b, rb) in &panels[i + 1..] {
            if ra.overlap(rb) > 4.0 {
                out.push(format!("the panels '{a}' and '{b}' overlap ({:.0} px²)", ra.overlap(rb)));
            }
        }
    }
    for (words, text, clip, scrolls) in texts {
        // A line wrapped at a space keeps the space's width at its end:
        // within a space of the edge is no cut.
        if text.max.x > clip.max.x + SPACE || text.min.x < clip.min.x - SPACE {
            out.push(format!(
                "the text '{words}' is wider than its node: it spans x {:.0}..{:.0}, the node {:.0}..{:.0}",
                text.min.x, text.max.x, clip.min.x, clip.max.x
            ));
        }
        if !scrolls && text.max.y > clip.max.y + 2.0 && text.min.y < clip.max.y {
            out.push(format!("the text '{words}' runs below its node's foot: cut at {:.0} px", clip.max.y));
        }
    }
    out
}

/// The rectangle of a node in logical pixels.
fn boxed(c: &ComputedNode, t: &UiGlobalTransform) -> Boxed {
    let k = c.inverse_scale_factor;
    let centre = t.affine().translation * k;
    let half = c.size() * k / 2.0;
    Boxed { min: centre - half, max: centre + half }
}

/// A short name for a node: its own words, or its first child's.
fn name_of(e: Entity, texts: &Query<&Text>, children: &Query<&Children>) -> String {
    let own = texts.get(e).ok().map(|t| t.0.clone());
    let first = || {
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            if let Ok(t) = texts.get(x)
                && !t.0.trim().is_empty()
            {
                return Some(t.0.clone());
            }
            if let Ok(c) = children.get(x) {
                stack.extend(c.iter().rev());
            }
        }
        None
    };
    let w = own.filter(|w| !w.trim().is_empty()).or_else(first).unwrap_or_else(|| format!("{e}"));
    w.lines().next().unwrap_or_default().chars().take(40).collect()
}

fn report(
    to: Res<ReportTo>,
    windows: Query<&Window, With<PrimaryWindow>>,
    nodes: Query<(Entity, &Node, &ComputedNode, &UiGlobalTransform, &InheritedVisibility, Option<&ChildOf>)>,
    layouts: Query<
        (Entity, &TextLayoutInfo, &ComputedNode, &UiGlobalTransform, &InheritedVisibility),
        Without<bevy::text::EditableText>,
    >,
    texts: Query<&Text>,
    children: Query<&Children>,
    parents: Query<&ChildOf>,
    opened: Option<Res<Opened>>,
    controls: Option<Res<Controls>>,
    inset: Option<Res<MapInset>>,
) {
    let Ok(window) = windows.single() else { return };
    let (w, h) = (window.width(), window.height());
    let shown = |e: Entity| {
        let mut at = Some(e);
        while let Some(x) = at {
            match nodes.get(x) {
                Ok((_, n, c, _, v, p)) => {
                    if n.display == Display::None || !v.get() || c.size() == Vec2::ZERO {
                        return false;
                    }
                    at = p.map(ChildOf::parent);
                }
                Err(_) => return true,
            }
        }
        true
    };
    // Panels: the UI's roots as shown.
    let panels: Vec<(String, Boxed)> = nodes
        .iter()
        .filter(|(_, _, _, _, _, p)| p.is_none_or(|p| nodes.get(p.parent()).is_err()))
        .filter(|(e, ..)| shown(*e))
        .map(|(e, _, c, t, ..)| (name_of(e, &texts, &children), boxed(c, t)))
        .filter(|(_, b)| b.area() > 1.0)
        .collect();
    // The map's part of the window: under the bar (and the orders banner
    // when a player gives orders at this window), between the panels.
    let battle = opened.as_ref().is_some_and(|o| o.scenario.is_some());
    let orders = battle && controls.is_some_and(|c| c.0.contains(&Control::Player));
    let top = BAR_H + if orders { BANNER_H } else { 0.0 };
    let left = inset.map_or(0.0, |i| i.0);
    let map = Boxed { min: Vec2::new(left, top), max: Vec2::new(w - PANEL_W, h) };
    // Texts: each against the nearest node above it that clips (or the
    // window), and whether that one scrolls.
    let window_box = Boxed { min: Vec2::ZERO, max: Vec2::new(w, h) };
    let mut cut = Vec::new();
    for (e, info, c, t, v) in &layouts {
        if !v.get() || !shown(e) || info.size == Vec2::ZERO {
            continue;
        }
        let node = boxed(c, t);
        let k = c.inverse_scale_factor;
        // The laid-out lines' extent (the union of the runs' bounds) from
        // the node's content corner.
        let inset = c.content_inset();
        let from = node.min + Vec2::new(inset.min_inset.x, inset.min_inset.y) * k;
        let runs = info.run_geometry.iter().map(|r| r.bounds).reduce(|a, b| a.union(b));
        let (lo, hi) = runs.map_or((Vec2::ZERO, info.size), |r| (r.min, r.max));
        let glyphs = Boxed { min: from + lo * k, max: from + hi * k };
        let mut clip = window_box;
        let mut scrolls = false;
        let mut at = parents.get(e).ok().map(ChildOf::parent);
        while let Some(x) = at {
            if let Ok((_, n, pc, pt, ..)) = nodes.get(x)
                && (n.overflow.x != OverflowAxis::Visible || n.overflow.y != OverflowAxis::Visible)
            {
                let b = boxed(pc, pt);
                let pi = pc.content_inset();
                let pk = pc.inverse_scale_factor;
                clip = Boxed {
                    min: b.min + Vec2::new(pi.min_inset.x, pi.min_inset.y) * pk,
                    max: b.max - Vec2::new(pi.max_inset.x, pi.max_inset.y) * pk,
                };
                scrolls = n.overflow.y == OverflowAxis::Scroll;
                break;
            }
            at = parents.get(x).ok().map(ChildOf::parent);
        }
        cut.push((name_of(e, &texts, &children), glyphs, clip, scrolls));
    }
    let found = findings(&panels, map, &cut);
    let json = serde_json::json!({
        "window": [w, h],
        "panels": panels.iter().map(|(n, b)| serde_json::json!({"name": n, "min": [b.min.x, b.min.y], "max": [b.max.x, b.max.y]})).collect::<Vec<_>>(),
        "texts": cut.len(),
        "findings": found,
    });
    let _ = std::fs::write(&to.0, json.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(x0: f32, y0: f32, x1: f32, y1: f32) -> Boxed {
        Boxed { min: Vec2::new(x0, y0), max: Vec2::new(x1, y1) }
    }

    #[test]
    fn overlapping_panels_and_cut_text_are_found_and_a_sound_layout_is_not() {
        let map = b(0.0, 30.0, 940.0, 720.0);
        let sound = [("bar".to_owned(), b(0.0, 0.0, 1280.0, 30.0)), ("side".to_owned(), b(940.0, 30.0, 1280.0, 720.0))];
        let fits = [("words".to_owned(), b(950.0, 40.0, 1200.0, 60.0), b(950.0, 40.0, 1270.0, 710.0), false)];
        assert!(findings(&sound, map, &fits).is_empty());
        let legend = [("legend".to_owned(), b(0.0, 500.0, 430.0, 720.0))];
        let found = findings(&[sound.as_slice(), legend.as_slice()].concat(), map, &[]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("covers the map"));
        let over = [("bar".to_owned(), b(0.0, 0.0, 1280.0, 60.0)), ("side".to_owned(), b(940.0, 30.0, 1280.0, 720.0))];
        assert!(findings(&over, b(0.0, 60.0, 940.0, 720.0), &[]).iter().any(|f| f.contains("overlap")));
        let wide = [("a long line".to_owned(), b(950.0, 40.0, 1300.0, 60.0), b(950.0, 40.0, 1270.0, 710.0), false)];
        assert!(
            findings(&sound, map, &wide).iter().any(|f| f.contains("wider than its node")),
            "{:?}",
            findings(&sound, map, &wide)
        );
        let tall = [("lines".to_owned(), b(950.0, 690.0, 1200.0, 740.0), b(950.0, 40.0, 1270.0, 710.0), false)];
        assert!(findings(&sound, map, &tall).iter().any(|f| f.contains("below its node's foot")));
        let scrolled = [("lines".to_owned(), b(950.0, 690.0, 1200.0, 740.0), b(950.0, 40.0, 1270.0, 710.0), true)];
        assert!(findings(&sound, map, &scrolled).is_empty(), "a node that scrolls may hold more than it shows");
    }
}
