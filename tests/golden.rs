//! The golden event logs: the contract of behaviour. For every bundled
//! scenario, `tests/golden/` holds the full JSON Lines log that
//! `sauve simulate scenarios/<stem>.ron --seed N --ai MODE --events -`
//! prints, for two seeds with the AI on both sides and one with no orders
//! (the forced moves and morale segments alone). This test runs the real
//! binary for each and compares byte for byte, so a refactor that changes
//! any bundled battle fails here.
//!
//! A change that alters a log on purpose blesses the new logs, in a commit
//! of its own that says why:
//!
//! ```sh
//! SAUVE_BLESS=1 cargo test --test golden
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;

/// The runs kept for every bundled scenario: (seed, `--ai`).
const RUNS: [(u64, &str); 5] = [(1, "both"), (2, "both"), (1, "easy"), (2, "easy"), (1, "none")];

const BLESS: &str = "SAUVE_BLESS=1 cargo test --test golden";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bundled() -> Vec<String> {
    let mut stems: Vec<String> = std::fs::read_dir(root().join("scenarios"))
        .expect("the scenarios folder")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    stems.sort();
    stems
}

fn golden_name(stem: &str, seed: u64, ai: &str) -> String {
    format!("{stem}--seed{seed}--ai-{ai}.jsonl")
}

/// What `sauve simulate` prints on stdout with `--events -`.
fn simulate(stem: &str, seed: u64, ai: &str) -> String {
    let file = root().join("scenarios").join(format!("{stem}.ron"));
    let out = Command::new(env!("CARGO_BIN_EXE_sauve"))
        .args(["simulate"])
        .arg(&file)
        .args(["--seed", &seed.to_string(), "--ai", ai, "--events", "-"])
        .output()
        .expect("the sauve binary runs");
    assert!(out.status.success(), "sauve simulate {stem} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("the log is UTF-8")
}

/// The first line where two logs differ, old and new, for the failure
/// message (a whole log is too long to read in a test failure).
fn first_difference(old: &str, new: &str) -> String {
    let (mut a, mut b) = (old.lines(), new.lines());
    for n in 1.. {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (None, None) => return "the logs differ only in line endings".into(),
            (x, y) => {
                return format!(
                    "first difference at line {n} (event seq {}):\n  old: {}\n  new: {}",
                    n - 1,
                    x.unwrap_or("(the old log ends here)"),
                    y.unwrap_or("(the new log ends here)")
                );
            }
        }
    }
    unreachable!()
}

fn check(path: &Path, new: &str, failures: &mut Vec<String>) {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if std::env::var_os("SAUVE_BLESS").is_some() {
        std::fs::write(path, new).unwrap_or_else(|e| panic!("cannot bless {name}: {e}"));
        return;
    }
    match std::fs::read_to_string(path) {
        Err(_) => failures.push(format!("{name}: missing; to make it: {BLESS}")),
        Ok(old) if old == new => {}
        Ok(old) => failures.push(format!(
            "{name}: the event log changed.\n{}\nIf the change is meant, bless the new logs in a commit of their own that says why: {BLESS}",
            first_difference(&old, new)
        )),
    }
}

#[test]
fn every_bundled_battle_gives_its_golden_log_byte_for_byte() {
    let dir = root().join("tests").join("golden");
    std::fs::create_dir_all(&dir).expect("tests/golden");
    let mut failures = Vec::new();
    let mut checked = 0;
    for stem in bundled() {
        for (seed, ai) in RUNS {
            let new = simulate(&stem, seed, ai);
            assert!(new.lines().count() > 10, "{stem}: a log of a few events only?");
            check(&dir.join(golden_name(&stem, seed, ai)), &new, &mut failures);
            checked += 1;
        }
    }
    assert!(checked >= 18, "six bundled scenarios, three runs each: {checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every file in `tests/golden/` belongs to a bundled scenario and a kept
/// run: a log left over from a renamed scenario would check nothing.
#[test]
fn no_golden_log_is_left_over() {
    let wanted: Vec<String> = bundled().iter().flat_map(|s| RUNS.map(|(seed, ai)| golden_name(s, seed, ai))).collect();
    let Ok(dir) = std::fs::read_dir(root().join("tests").join("golden")) else { return };
    for e in dir.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".jsonl") {
            assert!(wanted.contains(&name), "{name} is no bundled scenario's golden log; remove it");
        }
    }
}

/// A JSON value read strictly: an object that names a key twice is an
/// error (as strict JSON readers refuse it), naming the key.
struct Strict;

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Strict;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Strict, E> {
                Ok(Strict)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Strict, E> {
                Ok(Strict)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Strict, E> {
                Ok(Strict)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Strict, E> {
                Ok(Strict)
            }
            fn visit_str<E>(self, _: &str) -> Result<Strict, E> {
                Ok(Strict)
            }
            fn visit_unit<E>(self) -> Result<Strict, E> {
                Ok(Strict)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Strict, A::Error> {
                while a.next_element::<Strict>()?.is_some() {}
                Ok(Strict)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Strict, A::Error> {
                let mut keys = std::collections::BTreeSet::new();
                while let Some(k) = a.next_key::<String>()? {
                    if !keys.insert(k.clone()) {
                        return Err(serde::de::Error::custom(format!("the key '{k}' twice in one object")));
                    }
                    a.next_value::<Strict>()?;
                }
                Ok(Strict)
            }
        }
        d.deserialize_any(V)
    }
}

/// Every golden log is strict JSON: no object names a key twice (a
/// broken corps names its army in a field of its own).
#[test]
fn every_golden_log_reads_as_strict_json() {
    assert!(serde_json::from_str::<Strict>(r#"{"side":null,"side":"fr"}"#).is_err(), "the reader is strict");
    let dir = root().join("tests").join("golden");
    let mut read = 0;
    for e in std::fs::read_dir(&dir).expect("tests/golden").filter_map(|e| e.ok()) {
        let path = e.path();
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        for (n, line) in text.lines().enumerate() {
            if let Err(err) = serde_json::from_str::<Strict>(line) {
                panic!("{}:{}: {err}", path.display(), n + 1);
            }
            read += 1;
        }
    }
    assert!(read > 1000, "the golden logs were read: {read} lines");
}

#[test]
fn the_first_difference_names_the_event_old_and_new() {
    let d = first_difference("{\"seq\":0}\n{\"seq\":1,\"x\":1}\n", "{\"seq\":0}\n{\"seq\":1,\"x\":2}\n");
    assert!(d.contains("line 2 (event seq 1)"), "{d}");
    assert!(d.contains("old: {\"seq\":1,\"x\":1}") && d.contains("new: {\"seq\":1,\"x\":2}"), "{d}");
    let d = first_difference("a\n", "a\nb\n");
    assert!(d.contains("(the old log ends here)") && d.contains("new: b"), "{d}");
}
