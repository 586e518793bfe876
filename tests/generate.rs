//! `sauve generate` through the built binary: a battle (hexes, or a table
//! with `--free-space`) made from a seed is a valid scenario that `check`
//! accepts and the AI plays to its end,
//! the same file on standard output as in `--out`, another for another
//! seed; a file it cannot write is an error naming it, with status 1.

use std::process::{Command, Output};

const SAUVE: &str = env!("CARGO_BIN_EXE_sauve");

fn sauve(args: &[&str]) -> Output {
    Command::new(SAUVE).args(args).output().expect("the binary runs")
}

#[test]
fn a_generated_battle_is_checked_and_played_and_the_same_for_its_seed() {
    let dir = std::env::temp_dir().join(format!("sauve-generate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let file = dir.join("battle.ron");
    let file_s = file.to_str().expect("a UTF-8 path");

    let out = sauve(&["generate", "--seed", "7", "--out", file_s]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let written = std::fs::read_to_string(&file).expect("the battle was written");
    let printed = sauve(&["generate", "--seed", "7"]);
    assert_eq!(String::from_utf8_lossy(&printed.stdout), written, "standard output and --out agree");
    let other = sauve(&["generate", "--seed", "8"]);
    assert_ne!(String::from_utf8_lossy(&other.stdout), written, "another seed, another battle");

    let check = sauve(&["check", file_s]);
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    assert!(String::from_utf8_lossy(&check.stdout).contains("Generated battle 7"));

    // Both sides' AI play it to its end: a battle, not just a file.
    let played = sauve(&["simulate", file_s, "--ai", "normal", "--seed", "3"]);
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stderr));
    let summary = String::from_utf8_lossy(&played.stdout);
    assert!(summary.contains("winner:") || summary.contains("result: a draw"), "the battle ends: {summary}");
    assert!(summary.contains("10 turns"), "a battle of ten turns: {summary}");

    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_generated_table_is_a_free_space_battle_the_ai_plays() {
    let printed = sauve(&["generate", "--free-space", "--seed", "4"]);
    assert!(printed.status.success());
    let text = String::from_utf8_lossy(&printed.stdout).into_owned();
    assert!(text.contains("mode: FreeSpace") && text.contains("cell_cm"), "{text}");
    let file = std::env::temp_dir().join(format!("sauve-generate-table-{}.ron", std::process::id()));
    std::fs::write(&file, &text).expect("written");
    let file_s = file.to_str().expect("a UTF-8 path");
    let check = sauve(&["check", file_s]);
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    let played = sauve(&["simulate", file_s, "--ai", "normal", "--seed", "2"]);
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stderr));
    let summary = String::from_utf8_lossy(&played.stdout);
    assert!(summary.contains("FreeSpace mode") && summary.contains("Score:"), "{summary}");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn a_generated_battle_that_cannot_be_written_names_the_file() {
    let missing = std::env::temp_dir().join(format!("sauve-generate-none-{}", std::process::id())).join("x.ron");
    let missing_s = missing.to_str().expect("a UTF-8 path");
    let out = sauve(&["generate", "--seed", "1", "--out", missing_s]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(missing_s) && err.contains("cannot write"), "{err}");
    assert!(!missing.exists());
}
