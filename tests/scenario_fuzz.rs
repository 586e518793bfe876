//! No input may panic the program: thousands of mutated scenario files
//! (truncations, byte flips, swapped and dropped lines, swapped fields,
//! wild numbers) go through the loader, and those that still validate are
//! played for a turn.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use sauve::scenario::{LoadError, parse_bytes};
use sauve::sim::{Seats, Simulation};

const RICH: &str = r#"
Scenario(
    format: 1,
    name: "Fuzz seed",
    description: "A small battle touching every field.",
    mode: Hex,
    turns: 3,
    seed: 4,
    sides: [
        (id: "fr", name: "French", rear: South, control: Player),
        (id: "pr", name: "Prussians", rear: North, control: Ai),
    ],
    map: (
        rows: [
            "..w...t...",
            ".www..t.g.",
            "~~~=~~~~~~",
            "..m....r..",
            "......vr..",
        ],
        legend: { '=': Bridge, 'g': Garden },
        hexsides: [(at: (4, 3), side: S, kind: Stream), (at: (6, 4), side: NE, kind: Slope)],
    ),
    units: [
        (id: "fr-1", side: "fr", arm: Infantry, at: (4, 4), morale: 43, strength: 6, formation: Line, facing: 0.0),
        (id: "fr-2", side: "fr", arm: Cavalry, at: (7, 4), morale: 44, strength: 4, readiness: Tired),
        (id: "fr-3", side: "fr", arm: Artillery, at: (1, 4), morale: 33, strength: 2, limbered: true),
        (id: "pr-1", side: "pr", arm: Infantry, at: (4, 1), morale: 42, strength: 8, state: Disordered),
        (id: "pr-2", side: "pr", arm: Cavalry, at: (8, 0), morale: 53, strength: 3, state: Routed, name: "Uhlans"),
    ],
    shocks: [(turn: 1, unit: "fr-1", to: Routed, cause: Some("pr-1")), (turn: 2, unit: "pr-1", to: Routed)],
    rules: (rout_hexes: 6, retreat_mp: 2.5, terrain: { Woods: (infantry: 2.0, cavalry: 3.0, artillery: None) }),
)
"#;

fn mutate(src: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut b = src.to_vec();
    let rounds = rng.random_range(1..4);
    for _ in 0..rounds {
        if b.is_empty() {
            break;
        }
        match rng.random_range(0..8) {
            // Truncate.
            0 => b.truncate(rng.random_range(0..b.len())),
            // Flip a byte to anything (invalid UTF-8 included).
            1 => {
                let i = rng.random_range(0..b.len());
                b[i] = rng.random_range(0..=255u8);
            }
            // Swap two lines.
            2 | 3 => {
                let text = String::from_utf8_lossy(&b).into_owned();
                let mut lines: Vec<&str> = text.lines().collect();
                if lines.len() > 2 {
                    let (i, j) = (rng.random_range(0..lines.len()), rng.random_range(0..lines.len()));
                    lines.swap(i, j);
                    if rng.random_range(0..3) == 0 {
                        lines.remove(i);
                    }
                }
                b = lines.join("\n").into_bytes();
            }
            // Swap two fields (comma-separated tokens).
            4 => {
                let text = String::from_utf8_lossy(&b).into_owned();
                let mut parts: Vec<&str> = text.split(',').collect();
                if parts.len() > 2 {
                    let (i, j) = (rng.random_range(0..parts.len()), rng.random_range(0..parts.len()));
                    parts.swap(i, j);
                }
                b = parts.join(",").into_bytes();
            }
            // Replace a number with a wild one.
            5 | 6 => {
                let text = String::from_utf8_lossy(&b).into_owned();
                let digits: Vec<usize> =
                    text.char_indices().filter(|(_, c)| c.is_ascii_digit()).map(|(i, _)| i).collect();
                if !digits.is_empty() {
                    let i = digits[rng.random_range(0..digits.len())];
                    let wild = ["-1", "0", "99999999999", "66", "11", "7", "-2147483649", "1e40", "NaN", "inf", "3.5"]
                        [rng.random_range(0..11)];
                    b = format!("{}{}{}", &text[..i], wild, &text[i + 1..]).into_bytes();
                }
            }
            // Insert junk.
            _ => {
                let i = rng.random_range(0..=b.len());
                let junk = [
                    "(",
                    ")",
                    "[",
                    "]",
                    "\"",
                    "'",
                    "//",
                    "/*",
                    ":",
                    ",",
                    "Some(",
                    "None",
                    "#![enable(unwrap_newtypes)]",
                ][rng.random_range(0..13)];
                b.splice(i..i, junk.bytes());
            }
        }
    }
    b
}

fn corpus() -> Vec<String> {
    let mut c = vec![RICH.to_owned(), sauve::generate::scenario_text(24, 16, 30, 9)];
    if let Ok(dir) = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios")) {
        let mut paths: Vec<_> = dir.filter_map(Result::ok).map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|e| e == "ron")
                && let Ok(t) = std::fs::read_to_string(&p)
            {
                c.push(t);
            }
        }
    }
    c
}

/// `fuzz.ron:LINE:COL: error: ...`, or `fuzz.ron: error: ...` for a problem
/// the file holds no place for.
fn is_problem_line(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("fuzz.ron") else { return false };
    if rest.starts_with(": error: ") {
        return true;
    }
    let mut parts = rest.splitn(4, ':');
    let (_, l, c, tail) = (parts.next(), parts.next(), parts.next(), parts.next());
    let number = |s: Option<&str>| s.and_then(|s| s.parse::<usize>().ok()).is_some_and(|n| n >= 1);
    number(l) && number(c) && tail.is_some_and(|t| t.starts_with(" error: "))
}

#[test]
fn the_corpus_itself_is_valid() {
    for (i, text) in corpus().iter().enumerate() {
        if let Err(e) = parse_bytes(text.as_bytes(), "corpus") {
            panic!("corpus entry {i} is invalid:\n{e}");
        }
    }
}

#[test]
fn thousands_of_mutated_scenarios_never_panic() {
    let corpus = corpus();
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let (mut syntax, mut semantic, mut valid, mut played, mut located) = (0, 0, 0, 0, 0);
    for n in 0..4000 {
        let src = &corpus[n % corpus.len()];
        let bytes = mutate(src.as_bytes(), &mut rng);
        let outcome = catch_unwind(AssertUnwindSafe(|| parse_bytes(&bytes, "fuzz.ron")));
        let result = match outcome {
            Ok(r) => r,
            Err(_) => panic!("the loader panicked on:\n{}", String::from_utf8_lossy(&bytes)),
        };
        match result {
            Err(LoadError::Syntax { line, col, ref message, .. }) => {
                syntax += 1;
                assert!(line >= 1 && col >= 1, "a located syntax error");
                assert!(!message.is_empty());
                let text = result.as_ref().map(|_| ()).unwrap_err().to_string();
                assert!(text.starts_with("fuzz.ron:"), "{text}");
                assert_eq!(text.lines().count(), 1, "one line: {text}");
            }
            Err(LoadError::Invalid { ref problems, .. }) => {
                semantic += 1;
                assert!(!problems.is_empty());
                for line in result.as_ref().map(|_| ()).unwrap_err().lines() {
                    assert!(is_problem_line(&line), "{line}");
                    located += usize::from(!line.starts_with("fuzz.ron: "));
                }
            }
            Err(LoadError::Io { .. }) => unreachable!("no I/O here"),
            Ok(scenario) => {
                valid += 1;
                if n % 4 == 0 {
                    played += 1;
                    let s = Arc::new(scenario);
                    let ok = catch_unwind(AssertUnwindSafe(|| {
                        let mut sim = Simulation::new(s.clone(), 3, vec![], Seats::Watch);
                        for _ in 0..14 {
                            sim.step();
                        }
                    }));
                    assert!(ok.is_ok(), "the simulation panicked on:\n{}", String::from_utf8_lossy(&bytes));
                }
            }
        }
    }
    // Nearly every semantic problem is about a place the mutated file holds.
    assert!(
        syntax > 500 && semantic > 100 && valid > 100 && located > semantic,
        "mix: {syntax} syntax, {semantic} semantic ({located} located lines), {valid} valid ({played} played)"
    );
}
