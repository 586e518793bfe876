//! The window's layout holds, on every screen a newcomer meets, at two
//! window sizes (1280x800 and 900x600): the battle watched, a player's
//! orders in each kind of phase on hexes and on a table, the why view, the
//! forecast, the fork and the editor. Each is drawn for real under Xvfb
//! (`sauve shot`, `sauve edit --shot`) with `SAUVE_LAYOUT` set (the first
//! battle's guide and the overlays' legend beside the log too), and the
//! window reports what is wrong with its laid-out UI (src/game/
//! layout_check.rs): panels over each other or over the map's part of the
//! window, text wider than its node, text cut at the foot of a node that
//! does not scroll. Any finding fails. Needs `xvfb-run` and a Vulkan
//! driver; without them the test is reported ignored (and fails on CI).

use std::path::{Path, PathBuf};
use std::process::Command;

const SIZES: [&str; 2] = ["1280x800", "900x600"];

fn have_xvfb() -> bool {
    Command::new("sh").args(["-c", "command -v xvfb-run"]).output().is_ok_and(|o| o.status.success())
}

fn scenario(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios").join(name)
}

/// One screen: how to bring it up.
struct Screen {
    name: String,
    args: Vec<String>,
    env: Vec<(&'static str, String)>,
}

fn shot(name: impl Into<String>, file: &str, extra: &[&str], env: &[(&'static str, &str)]) -> Screen {
    let mut args = vec!["shot".to_owned(), scenario(file).display().to_string(), "--turns".into(), "1".into()];
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    Screen { name: name.into(), args, env: env.iter().map(|(k, v)| (*k, (*v).to_owned())).collect() }
}

fn screens(dir: &Path) -> Vec<Screen> {
    let mut out = vec![shot("battle", "dennewitz-1813.ron", &["--ai", "both"], &[])];
    // Every order phase, each waiting for a player's side.
    let phases = ["Charge", "Movement", "DefensiveFire", "OffensiveFire", "Melee"];
    for (on, battle) in [("hexes", "dennewitz-1813.ron"), ("a table", "ligny-1815.ron")] {
        for phase in phases {
            out.push(shot(
                format!("orders on {on}, {phase}"),
                battle,
                &[],
                &[("SAUVE_SHOT_SEATS", "player"), ("SAUVE_SHOT_PHASE", phase)],
            ));
        }
    }
    out.push(shot(
        "the first battle's guide",
        "first-battle.ron",
        &[],
        &[("SAUVE_SHOT_SEATS", "player"), ("SAUVE_SHOT_PHASE", "Movement"), ("SAUVE_SHOT_OVERLAYS", "34")],
    ));
    out.push(shot("the why view", "cascade.ron", &["--ai", "none", "--seed", "1", "--why", "fr-2-9"], &[]));
    out.push(shot(
        "the forecast",
        "cascade.ron",
        &["--ai", "none"],
        &[("SAUVE_SHOT_OVERLAYS", "f"), ("SAUVE_SHOT_PLAY", "2")],
    ));
    out.push(shot("the fork", "cascade.ron", &["--ai", "none"], &[("SAUVE_SHOT_OVERLAYS", "d")]));
    let copy = dir.join("dennewitz.ron");
    let _ = std::fs::write(&copy, include_str!("../scenarios/dennewitz-1813.ron"));
    out.push(Screen {
        name: "the editor".into(),
        args: vec!["edit".into(), copy.display().to_string()],
        env: Vec::new(),
    });
    out
}

fn every_screen_lays_out_without_overlap_or_cut_text() {
    let dir = std::env::temp_dir().join(format!("sauve-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let mut failures = Vec::new();
    for size in SIZES {
        for (k, s) in screens(&dir).into_iter().enumerate() {
            let (png, report) = (dir.join(format!("{k}-{size}.png")), dir.join(format!("{k}-{size}.json")));
            let _ = std::fs::remove_file(&report);
            let mut cmd = Command::new("xvfb-run");
            cmd.args(["-a", "-s", "-screen 0 1280x800x24"]).arg(env!("CARGO_BIN_EXE_sauve")).args(&s.args);
            let shot_flag = if s.args[0] == "edit" { "--shot" } else { "--out" };
            cmd.arg(shot_flag).arg(&png);
            cmd.env("WGPU_BACKEND", "vulkan").env("RUST_LOG", "error").env("SAUVE_SHOT_WINDOW", size);
            cmd.env("SAUVE_LAYOUT", &report).current_dir(&dir);
            for (key, value) in &s.env {
                cmd.env(key, value);
            }
            let run = cmd.output().unwrap_or_else(|e| panic!("cannot run xvfb-run: {e}"));
            if !run.status.success() {
                failures.push(format!(
                    "{} at {size}: exit {:?}: {}",
                    s.name,
                    run.status.code(),
                    String::from_utf8_lossy(&run.stderr)
                ));
                continue;
            }
            let text =
                std::fs::read_to_string(&report).unwrap_or_else(|e| panic!("{} at {size}: no report: {e}", s.name));
            let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let window =
                json["window"].as_array().map(|w| w.iter().filter_map(serde_json::Value::as_f64).collect::<Vec<_>>());
            let want: Vec<f64> = size.split('x').filter_map(|x| x.parse().ok()).collect();
            assert_eq!(window.as_deref(), Some(want.as_slice()), "{} at {size}: the window's size", s.name);
            for f in json["findings"].as_array().into_iter().flatten() {
                failures.push(format!("{} at {size}: {}", s.name, f.as_str().unwrap_or_default()));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let display = have_xvfb();
    let on_ci = std::env::var_os("CI").is_some();
    if !display {
        eprintln!("note: xvfb-run not found; the layout test is ignored (apt-get install xvfb mesa-vulkan-drivers)");
    }
    let trial = libtest_mimic::Trial::test("every_screen_lays_out_without_overlap_or_cut_text", move || {
        if !display {
            return Err("xvfb-run is missing on CI: install xvfb mesa-vulkan-drivers".into());
        }
        every_screen_lays_out_without_overlap_or_cut_text();
        Ok(())
    })
    .with_ignored_flag(!display && !on_ci);
    libtest_mimic::run(&args, vec![trial]).exit();
}
