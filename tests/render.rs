//! `sauve shot` renders a real scene for every bundled scenario: the picture
//! has the window's size, many colours, and no colour covering most of it
//! (a black, blank or broken frame fails). Needs `xvfb-run` and a Vulkan
//! driver (mesa's lavapipe is enough). Without `xvfb-run` the tests fail on
//! CI and elsewhere are reported as ignored, not passed (the file has its
//! own test harness, libtest-mimic's, which can say so at run time).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, Image, ImageSampler, ImageType};

fn have_xvfb() -> bool {
    Command::new("sh").args(["-c", "command -v xvfb-run"]).output().is_ok_and(|o| o.status.success())
}

fn scenarios() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Pixels of a PNG as RGBA, with its size.
fn decode(path: &Path) -> (u32, u32, Vec<u8>) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let image = Image::from_buffer(
        &bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        RenderAssetUsages::default(),
    )
    .unwrap_or_else(|e| panic!("{}: not a PNG: {e}", path.display()));
    let rgba = image.convert(bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb).unwrap_or(image);
    (rgba.width(), rgba.height(), rgba.data.unwrap_or_default())
}

/// What is wrong with a picture that should show a real scene: not the
/// window's size, too few colours, or one colour over most of it (a black,
/// blank or broken frame).
fn real_scene((w, h, px): &(u32, u32, Vec<u8>)) -> Vec<String> {
    let mut counts: HashMap<[u8; 3], usize> = HashMap::new();
    for p in px.chunks_exact(4) {
        *counts.entry([p[0], p[1], p[2]]).or_default() += 1;
    }
    let total = (w * h) as usize;
    let top = counts.values().copied().max().unwrap_or(total);
    let mut out = Vec::new();
    if (*w, *h) != (1280, 720) {
        out.push(format!("{w}x{h}, expected 1280x720"));
    }
    if counts.len() <= 500 {
        out.push(format!("only {} colours", counts.len()));
    }
    if top * 2 > total {
        out.push(format!("one colour covers {}% of the picture", top * 100 / total));
    }
    out
}

fn every_bundled_scenario_renders_a_real_scene() {
    let list = scenarios();
    assert!(list.len() >= 6, "the bundled scenarios are found");
    let dir = std::env::temp_dir().join(format!("sauve-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let mut failures = Vec::new();
    for file in &list {
        let name = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let out = dir.join(format!("{name}.png"));
        let run = Command::new("xvfb-run")
            .args(["-a", "-s", "-screen 0 1280x800x24"])
            .arg(env!("CARGO_BIN_EXE_sauve"))
            .arg("shot")
            .arg(file)
            .arg("--out")
            .arg(&out)
            .args(["--turns", "1"])
            .env("WGPU_BACKEND", "vulkan")
            .env("RUST_LOG", "error")
            .output()
            .unwrap_or_else(|e| panic!("cannot run xvfb-run: {e}"));
        if !run.status.success() || !out.exists() {
            failures.push(format!("{name}: exit {:?}\n{}", run.status.code(), String::from_utf8_lossy(&run.stderr)));
            continue;
        }
        failures.extend(real_scene(&decode(&out)).into_iter().map(|f| format!("{name}: {f}")));
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn an_invalid_file_is_shown_with_its_located_errors_and_fails() {
    let dir = std::env::temp_dir().join(format!("sauve-render-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let file = dir.join("broken.ron");
    let text = "Scenario(format: 1, name: \"Broken\", sides: [(id: \"a\"), (id: \"b\")],\n  map: (rows: [\"...\"]),\n  units: [(id: \"x\", side: \"c\", arm: Infantry, at: (1, 0), morale: 32, strength: 3)])\n";
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    let out = dir.join("broken.png");
    let run = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_sauve"))
        .arg("shot")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .env("WGPU_BACKEND", "vulkan")
        .env("RUST_LOG", "error")
        .output()
        .unwrap_or_else(|e| panic!("cannot run xvfb-run: {e}"));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "an invalid file is a failure");
    // Line 3, column 21: the unit's `side` field.
    assert!(stderr.contains("broken.ron:3:21: error: unit 'x': side 'c'"), "{stderr}");
    let (w, h, _) = decode(&out);
    assert_eq!((w, h), (1280, 720), "and the window showed the errors");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sauve shot FILE --turns 1` with extra arguments, as PNG bytes.
fn shot_bytes(dir: &Path, name: &str, file: &Path, extra: &[&str]) -> Vec<u8> {
    let out = dir.join(format!("{name}.png"));
    let run = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_sauve"))
        .arg("shot")
        .arg(file)
        .arg("--out")
        .arg(&out)
        .args(["--turns", "1"])
        .args(extra)
        .env("WGPU_BACKEND", "vulkan")
        .env("RUST_LOG", "error")
        .output()
        .unwrap_or_else(|e| panic!("cannot run xvfb-run: {e}"));
    assert!(run.status.success(), "{name}: {}", String::from_utf8_lossy(&run.stderr));
    std::fs::read(&out).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn shot_ai_lets_the_computer_play_the_turns_and_the_default_is_nobody() {
    let dir = std::env::temp_dir().join(format!("sauve-render-ai-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/dennewitz-1813.ron");
    let default = shot_pixels(&dir, "default", &file, &[]);
    let none = shot_pixels(&dir, "none", &file, &["--ai", "none"]);
    let both = shot_pixels(&dir, "both", &file, &["--ai", "both"]);
    let _ = std::fs::remove_dir_all(&dir);
    // The same picture as before `--ai` existed (nobody gives orders), and
    // a different one once both sides' orders have moved units. Software
    // rendering may differ by a stray pixel between runs, so pictures are
    // compared by the share of pixels that differ, not byte for byte.
    let (same, moved) = (differing(&default, &none), differing(&both, &none));
    assert!(same < 0.001, "the default is --ai none: {:.3}% of pixels differ", same * 100.0);
    assert!(moved > 0.002 && moved > 10.0 * same, "with --ai both the AI's orders show: {:.3}%", moved * 100.0);
}

/// `sauve shot FILE --turns 1` with extra arguments, decoded.
fn shot_pixels(dir: &Path, name: &str, file: &Path, extra: &[&str]) -> (u32, u32, Vec<u8>) {
    shot_bytes(dir, name, file, extra);
    decode(&dir.join(format!("{name}.png")))
}

/// The share of pixels in which two pictures of one size differ.
fn differing(a: &(u32, u32, Vec<u8>), b: &(u32, u32, Vec<u8>)) -> f64 {
    assert_eq!((a.0, a.1), (b.0, b.1), "pictures of one size");
    let n = a.2.chunks_exact(4).zip(b.2.chunks_exact(4)).filter(|(p, q)| p[..3] != q[..3]).count();
    n as f64 / (a.0 * a.1) as f64
}

/// `sauve shot --why UNIT` pictures the why view: the map darker than
/// without it, the root's gold ring and the unit's magenta ring drawn on it,
/// and an unknown unit is an error naming it.
fn shot_why_dims_the_map_and_rings_the_root_and_the_unit() {
    let dir = std::env::temp_dir().join(format!("sauve-render-why-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/cascade.ron");
    let plain = shot_pixels(&dir, "plain", &file, &["--ai", "none", "--seed", "1"]);
    let why = shot_pixels(&dir, "why", &file, &["--ai", "none", "--seed", "1", "--why", "fr-2-9"]);
    let bad = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_sauve"))
        .args(["shot"])
        .arg(&file)
        .arg("--out")
        .arg(dir.join("bad.png"))
        .args(["--why", "no-such-unit"])
        .env("WGPU_BACKEND", "vulkan")
        .env("RUST_LOG", "error")
        .output()
        .unwrap_or_else(|e| panic!("cannot run xvfb-run: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    // The map's part of the window (left of the panel column).
    let brightness = |p: &(u32, u32, Vec<u8>)| {
        let (w, h) = (p.0 as usize, p.1 as usize);
        let mut sum = 0u64;
        for y in 40..h - 10 {
            for x in 10..w - 360 {
                let i = (y * w + x) * 4;
                sum += p.2[i..i + 3].iter().map(|&c| c as u64).sum::<u64>();
            }
        }
        sum as f64 / ((h - 50) * (w - 370)) as f64
    };
    let (lit, dim) = (brightness(&plain), brightness(&why));
    assert!(dim < 0.75 * lit, "the map dims: {dim:.0} against {lit:.0}");
    let near = |p: &[u8], c: [u8; 3]| p.iter().zip(c).all(|(&a, b)| a.abs_diff(b) < 40);
    let count = |p: &(u32, u32, Vec<u8>), c: [u8; 3]| p.2.chunks_exact(4).filter(|q| near(q, c)).count();
    let more = |c| count(&why, c) as i64 - count(&plain, c) as i64;
    assert!(more([255, 217, 25]) > 50, "the root's gold ring: {}", more([255, 217, 25]));
    assert!(more([255, 77, 230]) > 50, "the unit's magenta ring: {}", more([255, 77, 230]));
    assert!(!bad.status.success(), "an unknown unit fails");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no-such-unit"), "and says which");
}

/// The editor's screen (`sauve edit FILE --shot PNG`) on a copy of a
/// bundled battle: its map and counters drawn, the palette and panels up,
/// a real picture of the window's size.
fn the_editor_renders_its_map_and_panels() {
    let dir = std::env::temp_dir().join(format!("sauve-render-editor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let file = dir.join("dennewitz.ron");
    let text = include_str!("../scenarios/dennewitz-1813.ron");
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    let out = dir.join("editor.png");
    let run = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_sauve"))
        .arg("edit")
        .arg(&file)
        .arg("--shot")
        .arg(&out)
        .env("WGPU_BACKEND", "vulkan")
        .env("RUST_LOG", "error")
        .output()
        .unwrap_or_else(|e| panic!("cannot run xvfb-run: {e}"));
    assert!(
        run.status.success() && out.exists(),
        "exit {:?}\n{}",
        run.status.code(),
        String::from_utf8_lossy(&run.stderr)
    );
    let picture = decode(&out);
    let failures = real_scene(&picture);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let (w, _, px) = picture;
    // The palette's column on the left is the editor's dark panel, not map.
    let dark = (40..560).step_by(40).filter(|&y| {
        let i = ((y * w + 50) * 4) as usize;
        px[i] < 60 && px[i + 1] < 60 && px[i + 2] < 70
    });
    assert!(dark.count() >= 6, "the palette is drawn on the left");
    assert_eq!(std::fs::read_to_string(&file).ok().as_deref(), Some(text), "a picture saves nothing");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each test, run when a display can be made; without one, ignored (or
/// failed on CI, which must render).
fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let display = have_xvfb();
    let on_ci = std::env::var_os("CI").is_some();
    if !display {
        eprintln!("note: xvfb-run not found; the render tests are ignored (apt-get install xvfb mesa-vulkan-drivers)");
    }
    let tests: [(&str, fn()); 5] = [
        ("every_bundled_scenario_renders_a_real_scene", every_bundled_scenario_renders_a_real_scene),
        (
            "an_invalid_file_is_shown_with_its_located_errors_and_fails",
            an_invalid_file_is_shown_with_its_located_errors_and_fails,
        ),
        (
            "shot_ai_lets_the_computer_play_the_turns_and_the_default_is_nobody",
            shot_ai_lets_the_computer_play_the_turns_and_the_default_is_nobody,
        ),
        (
            "shot_why_dims_the_map_and_rings_the_root_and_the_unit",
            shot_why_dims_the_map_and_rings_the_root_and_the_unit,
        ),
        ("the_editor_renders_its_map_and_panels", the_editor_renders_its_map_and_panels),
    ];
    let trials = tests
        .into_iter()
        .map(|(name, test)| {
            libtest_mimic::Trial::test(name, move || {
                if !display {
                    return Err("xvfb-run is missing on CI: install xvfb mesa-vulkan-drivers".into());
                }
                test();
                Ok(())
            })
            .with_ignored_flag(!display && !on_ci)
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
