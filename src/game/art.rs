//! Our own art, painted by code at startup: the terrain tiles (hexes and
//! square table cells, with a faint grid line on their edge) and the NATO arm
//! symbols of the counters. A tiny raster painter and pure functions that
//! return RGBA pixels, so the art is in the repository as code and can be
//! tested without a window.

use bevy::asset::RenderAssetUsages;
use bevy::image::Image;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

use crate::terrain::{Arm, Terrain};

/// Tile index of the plain white hex used by the overlays (tinted per tile).
pub const WHITE_TILE: u32 = Terrain::ALL.len() as u32;
/// Number of tiles in an atlas: every terrain, then the white overlay tile.
pub const TILES: u32 = WHITE_TILE + 1;

/// An RGBA canvas with straight (not premultiplied) alpha.
#[derive(Clone, Debug)]
pub struct Canvas {
    pub w: u32,
    pub h: u32,
    pub px: Vec<u8>,
}

type Rgba = [u8; 4];

impl Canvas {
    pub fn new(w: u32, h: u32) -> Self {
        Self { w, h, px: vec![0; (w * h * 4) as usize] }
    }

    #[cfg(test)]
    fn get(&self, x: u32, y: u32) -> Rgba {
        let i = ((y * self.w + x) * 4) as usize;
        [self.px[i], self.px[i + 1], self.px[i + 2], self.px[i + 3]]
    }

    /// Blends `c` over the pixel with coverage `a` (0..1).
    fn blend(&mut self, x: i32, y: i32, c: Rgba, a: f32) {
        if x < 0 || y < 0 || x >= self.w as i32 || y >= self.h as i32 {
            return;
        }
        let i = ((y as u32 * self.w + x as u32) * 4) as usize;
        let a = (a * c[3] as f32 / 255.0).clamp(0.0, 1.0);
        for (k, &ck) in c.iter().take(3).enumerate() {
            self.px[i + k] = (self.px[i + k] as f32 * (1.0 - a) + ck as f32 * a).round() as u8;
        }
        self.px[i + 3] = (self.px[i + 3] as f32 + (255.0 - self.px[i + 3] as f32) * a).round() as u8;
    }

    /// Paints every pixel whose centre passes `inside`, offset by `(ox, oy)`.
    fn fill(&mut self, ox: u32, oy: u32, w: u32, h: u32, c: Rgba, inside: impl Fn(f32, f32) -> bool) {
        for y in 0..h {
            for x in 0..w {
                if inside(x as f32 + 0.5, y as f32 + 0.5) {
                    self.blend((ox + x) as i32, (oy + y) as i32, c, 1.0);
                }
            }
        }
    }

    pub fn rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, c: Rgba) {
        for y in y0.floor() as i32..y1.ceil() as i32 {
            for x in x0.floor() as i32..x1.ceil() as i32 {
                let cov = overlap(x as f32, x0, x1) * overlap(y as f32, y0, y1);
                self.blend(x, y, c, cov);
            }
        }
    }

    pub fn disk(&mut self, cx: f32, cy: f32, r: f32, c: Rgba) {
        for y in (cy - r - 1.0).floor() as i32..=(cy + r + 1.0).ceil() as i32 {
            for x in (cx - r - 1.0).floor() as i32..=(cx + r + 1.0).ceil() as i32 {
                let d = ((x as f32 + 0.5 - cx).powi(2) + (y as f32 + 0.5 - cy).powi(2)).sqrt();
                self.blend(x, y, c, (r + 0.5 - d).clamp(0.0, 1.0));
            }
        }
    }

    /// An anti-aliased line of width `t`.
    pub fn line(&mut self, (x0, y0): (f32, f32), (x1, y1): (f32, f32), t: f32, c: Rgba) {
        let (dx, dy) = (x1 - x0, y1 - y0);
        let len2 = (dx * dx + dy * dy).max(1e-6);
        let pad = t + 1.0;
        for y in (y0.min(y1) - pad).floor() as i32..=(y0.max(y1) + pad).ceil() as i32 {
            for x in (x0.min(x1) - pad).floor() as i32..=(x0.max(x1) + pad).ceil() as i32 {
                let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                let s = (((px - x0) * dx + (py - y0) * dy) / len2).clamp(0.0, 1.0);
                let d = ((px - x0 - s * dx).powi(2) + (py - y0 - s * dy).powi(2)).sqrt();
                self.blend(x, y, c, (t / 2.0 + 0.5 - d).clamp(0.0, 1.0));
            }
        }
    }

    /// Multiplies alpha by a mask, so paint outside a hex is cut away.
    fn mask(&mut self, ox: u32, oy: u32, w: u32, h: u32, inside: impl Fn(f32, f32) -> bool) {
        for y in 0..h {
            for x in 0..w {
                if !inside(x as f32 + 0.5, y as f32 + 0.5) {
                    let i = (((oy + y) * self.w + ox + x) * 4) as usize;
                    self.px[i + 3] = 0;
                }
            }
        }
    }

    pub fn into_image(self) -> Image {
        Image::new(
            Extent3d { width: self.w, height: self.h, depth_or_array_layers: 1 },
            TextureDimension::D2,
            self.px,
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::RENDER_WORLD,
        )
    }
}

fn overlap(p: f32, a: f32, b: f32) -> f32 {
    ((p + 1.0).min(b) - p.max(a)).clamp(0.0, 1.0)
}

/// A cheap deterministic hash for texture noise (no generator state, so the
/// art is the same on every run).
fn hash(x: u32, y: u32, salt: u32) -> u32 {
    let mut h = x.wrapping_mul(0x9E37_79B1) ^ y.wrapping_mul(0x85EB_CA77) ^ salt.wrapping_mul(0xC2B2_AE3D);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^ (h >> 12)
}

fn rnd(x: u32, y: u32, salt: u32) -> f32 {
    (hash(x, y, salt) % 10_000) as f32 / 10_000.0
}

/// Whether a point of a `w` x `h` box lies in the flat-top hex inscribed in it.
fn in_hex(x: f32, y: f32, w: f32, h: f32) -> bool {
    let (dx, dy) = ((x - w / 2.0).abs() / (w / 2.0), (y - h / 2.0).abs() / (h / 2.0));
    dy <= 1.0 && dx <= 1.0 - dy / 2.0
}

const CLEAR: Rgba = [206, 212, 163, 255];
const WATER: Rgba = [86, 138, 204, 255];

/// The ground colour of a terrain, also used for the map's legend.
pub fn ground(t: Terrain) -> Rgba {
    match t {
        Terrain::Clear | Terrain::Road | Terrain::Village => CLEAR,
        Terrain::Woods => [133, 168, 98, 255],
        Terrain::Town => [196, 186, 160, 255],
        Terrain::Garden => [178, 200, 132, 255],
        Terrain::Marsh => [170, 190, 160, 255],
        Terrain::River | Terrain::Bridge => WATER,
    }
}

/// Paints one terrain's picture into the `w` x `h` box at `(ox, oy)`.
fn paint_terrain(cv: &mut Canvas, ox: u32, oy: u32, w: u32, h: u32, t: Terrain, salt: u32) {
    let (fw, fh) = (w as f32, h as f32);
    let (x0, y0) = (ox as f32, oy as f32);
    cv.rect(x0, y0, x0 + fw, y0 + fh, ground(t));
    // Grain, so that large areas of one terrain do not look like flat paint.
    for y in 0..h {
        for x in 0..w {
            let n = rnd(x, y, salt + t as u32);
            if n < 0.12 {
                cv.blend((ox + x) as i32, (oy + y) as i32, [0, 0, 0, 255], 0.05);
            } else if n > 0.9 {
                cv.blend((ox + x) as i32, (oy + y) as i32, [255, 255, 255, 255], 0.06);
            }
        }
    }
    let s = fw / 64.0;
    match t {
        Terrain::Clear | Terrain::Road => {}
        Terrain::Woods => {
            for k in 0..16u32 {
                let tx = x0 + fw * (0.12 + 0.76 * rnd(k, 1, salt));
                let ty = y0 + fh * (0.14 + 0.72 * rnd(k, 2, salt));
                let r = s * (4.0 + 2.5 * rnd(k, 3, salt));
                cv.disk(tx + 1.0, ty + 1.5, r, [40, 70, 35, 140]);
                cv.disk(tx, ty, r, [52, 112, 52, 255]);
                cv.disk(tx - r * 0.3, ty - r * 0.3, r * 0.45, [96, 150, 80, 255]);
            }
        }
        Terrain::Town | Terrain::Village => {
            let blocks: &[(f32, f32, f32, f32)] = if t == Terrain::Town {
                &[
                    (0.22, 0.18, 0.2, 0.18),
                    (0.47, 0.14, 0.16, 0.22),
                    (0.66, 0.24, 0.14, 0.16),
                    (0.16, 0.45, 0.18, 0.2),
                    (0.4, 0.44, 0.24, 0.14),
                    (0.68, 0.48, 0.16, 0.2),
                    (0.28, 0.7, 0.2, 0.14),
                    (0.54, 0.66, 0.18, 0.18),
                ]
            } else {
                &[(0.3, 0.3, 0.16, 0.14), (0.55, 0.42, 0.18, 0.13), (0.34, 0.58, 0.14, 0.16)]
            };
            for &(bx, by, bw, bh) in blocks {
                let (ax, ay) = (x0 + bx * fw, y0 + by * fh);
                let (bx1, by1) = (ax + bw * fw, ay + bh * fh);
                cv.rect(ax + 1.5, ay + 1.5, bx1 + 1.5, by1 + 1.5, [60, 50, 40, 120]);
                cv.rect(ax, ay, bx1, by1, [150, 62, 48, 255]);
                cv.rect(ax, ay, bx1, ay + (by1 - ay) * 0.4, [178, 84, 64, 255]);
            }
        }
        Terrain::Garden => {
            for k in 1..4 {
                let gx = x0 + fw * k as f32 / 4.0;
                cv.line((gx, y0 + 2.0), (gx, y0 + fh - 2.0), 1.6 * s, [92, 138, 70, 255]);
                let gy = y0 + fh * k as f32 / 4.0;
                cv.line((x0 + 2.0, gy), (x0 + fw - 2.0, gy), 1.6 * s, [92, 138, 70, 255]);
            }
            for k in 0..8u32 {
                let (px, py) = (x0 + fw * (0.15 + 0.7 * rnd(k, 5, salt)), y0 + fh * (0.15 + 0.7 * rnd(k, 6, salt)));
                cv.disk(px, py, 1.6 * s, [200, 90, 80, 255]);
            }
        }
        Terrain::Marsh => {
            for k in 0..5u32 {
                let py = y0 + fh * (0.18 + 0.16 * k as f32);
                let px = x0 + fw * (0.15 + 0.3 * rnd(k, 7, salt));
                cv.line((px, py), (px + fw * 0.4, py), 2.0 * s, [110, 160, 190, 255]);
            }
            for k in 0..14u32 {
                let px = x0 + fw * (0.12 + 0.76 * rnd(k, 8, salt));
                let py = y0 + fh * (0.2 + 0.65 * rnd(k, 9, salt));
                for dx in [-2.0f32, 0.0, 2.0] {
                    let lean = dx * 0.4 * s;
                    cv.line((px, py), (px + dx * s + lean, py - 6.0 * s), 1.0 * s, [60, 95, 50, 255]);
                }
            }
        }
        Terrain::River | Terrain::Bridge => {
            for k in 0..4u32 {
                let py = y0 + fh * (0.22 + 0.18 * k as f32);
                let px = x0 + fw * (0.15 + 0.35 * rnd(k, 10, salt));
                cv.line((px, py), (px + fw * 0.18, py - 1.5 * s), 1.4 * s, [150, 190, 232, 255]);
                cv.line((px + fw * 0.18, py - 1.5 * s), (px + fw * 0.34, py), 1.4 * s, [150, 190, 232, 255]);
            }
            if t == Terrain::Bridge {
                let (a, b) = (y0 + fh * 0.34, y0 + fh * 0.66);
                cv.rect(x0 + fw * 0.2, a - 2.0 * s, x0 + fw * 0.8, b + 2.0 * s, [70, 55, 40, 255]);
                cv.rect(x0 + fw * 0.2, a, x0 + fw * 0.8, b, [166, 130, 88, 255]);
                for k in 0..6 {
                    let px = x0 + fw * (0.24 + 0.1 * k as f32);
                    cv.line((px, a), (px, b), 0.8 * s, [120, 92, 60, 255]);
                }
            }
        }
    }
}

/// The hex terrain atlas: one `TILE_PX` tile per [`Terrain`], in
/// `Terrain::ALL` order, then a white hex for the overlays. Each tile is cut
/// to the hex and edged with a faint darker line: the map's grid.
pub fn hex_atlas(tw: u32, th: u32) -> Canvas {
    let mut cv = Canvas::new(tw * TILES, th);
    for (i, t) in Terrain::ALL.into_iter().enumerate() {
        let ox = i as u32 * tw;
        paint_terrain(&mut cv, ox, 0, tw, th, t, 17);
        edge(&mut cv, ox, tw, th, |x, y| in_hex(x, y, tw as f32, th as f32));
    }
    let ox = WHITE_TILE * tw;
    cv.fill(ox, 0, tw, th, [255, 255, 255, 255], |x, y| in_hex(x, y, tw as f32, th as f32));
    cv
}

/// The square atlas of a free-space table: same terrains, square cells of
/// `px` pixels with a faint edge.
pub fn square_atlas(px: u32) -> Canvas {
    let mut cv = Canvas::new(px * TILES, px);
    for (i, t) in Terrain::ALL.into_iter().enumerate() {
        let ox = i as u32 * px;
        paint_terrain(&mut cv, ox, 0, px, px, t, 23);
        let f = px as f32;
        edge(&mut cv, ox, px, px, |x, y| x > 0.0 && y > 0.0 && x < f && y < f);
    }
    cv.fill(WHITE_TILE * px, 0, px, px, [255, 255, 255, 255], |_, _| true);
    cv
}

/// Cuts a tile to its shape and darkens a one-pixel rim: the subtle grid.
fn edge(cv: &mut Canvas, ox: u32, w: u32, h: u32, inside: impl Fn(f32, f32) -> bool + Copy) {
    cv.mask(ox, 0, w, h, inside);
    for y in 0..h {
        for x in 0..w {
            let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
            if !inside(fx, fy) {
                continue;
            }
            let rim =
                [(-1.4, 0.0), (1.4, 0.0), (0.0, -1.4), (0.0, 1.4)].iter().any(|(dx, dy)| !inside(fx + dx, fy + dy));
            if rim {
                cv.blend((ox + x) as i32, y as i32, [40, 45, 30, 255], 0.35);
            }
        }
    }
}

/// Size of one arm symbol in the symbol strip.
pub const SYMBOL_PX: (u32, u32) = (36, 24);

/// The NATO arm symbols, one per [`Arm`] in `Arm::ALL` order: a framed box
/// with a cross (infantry), one diagonal (cavalry) or a dot (artillery), in
/// white so the counter can tint them.
pub fn symbol_strip() -> Canvas {
    let (w, h) = SYMBOL_PX;
    let mut cv = Canvas::new(w * 3, h);
    for (i, arm) in Arm::ALL.into_iter().enumerate() {
        let x0 = (i as u32 * w) as f32;
        let (l, t, r, b) = (x0 + 2.0, 2.0, x0 + w as f32 - 2.0, h as f32 - 2.0);
        let ink = [255, 255, 255, 255];
        for (a, z) in [((l, t), (r, t)), ((r, t), (r, b)), ((r, b), (l, b)), ((l, b), (l, t))] {
            cv.line(a, z, 2.2, ink);
        }
        match arm {
            Arm::Infantry => {
                cv.line((l, t), (r, b), 2.2, ink);
                cv.line((l, b), (r, t), 2.2, ink);
            }
            Arm::Cavalry => cv.line((l, b), (r, t), 2.2, ink),
            Arm::Artillery => cv.disk((l + r) / 2.0, (t + b) / 2.0, 4.5, ink),
        }
    }
    cv
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distinct(cv: &Canvas, ox: u32, w: u32) -> usize {
        let mut set = std::collections::BTreeSet::new();
        for y in 0..cv.h {
            for x in ox..ox + w {
                set.insert(cv.get(x, y));
            }
        }
        set.len()
    }

    #[test]
    fn every_terrain_tile_is_a_hex_with_its_own_picture() {
        let (w, h) = (64, 56);
        let cv = hex_atlas(w, h);
        assert_eq!((cv.w, cv.h), (w * TILES, h));
        // Corners are cut away, the centre is painted.
        for i in 0..TILES {
            assert_eq!(cv.get(i * w, 0)[3], 0, "tile {i} corner");
            assert_eq!(cv.get(i * w + w / 2, h / 2)[3], 255, "tile {i} centre");
        }
        // Woods, towns, marsh and rivers carry drawings, not flat paint.
        for t in [Terrain::Woods, Terrain::Town, Terrain::Marsh, Terrain::River, Terrain::Bridge] {
            assert!(distinct(&cv, t as u32 * w, w) > 40, "{t:?}");
        }
        // And no two terrains share a centre colour region.
        let centre = |t: Terrain| cv.get(t as u32 * w + 4 + w / 4, h / 2);
        assert_ne!(centre(Terrain::Woods), centre(Terrain::Clear));
        assert_ne!(centre(Terrain::River), centre(Terrain::Marsh));
    }

    #[test]
    fn squares_fill_their_cells() {
        let cv = square_atlas(40);
        assert_eq!(cv.get(0, 0)[3], 255);
        assert_eq!(cv.get(39, 39)[3], 255);
    }

    #[test]
    fn symbols_differ_by_arm() {
        let cv = symbol_strip();
        let (w, h) = SYMBOL_PX;
        let centre = |i: u32| cv.get(i * w + w / 2, h / 2)[3];
        assert!(centre(0) > 0, "infantry cross meets in the middle");
        assert!(centre(2) > 0, "artillery dot");
        let corner = |i: u32| cv.get(i * w + 6, 6)[3];
        assert!(corner(0) > 0 && corner(2) == 0);
    }
}
