//! Bad input through the built binary, as a player or a script meets it:
//! every mistake is a located line on stderr and a non-zero exit, never a
//! panic; what is legal but suspicious is a warning with status 0.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SAUVE: &str = env!("CARGO_BIN_EXE_sauve");

/// A scratch directory of this test process, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("sauve-bad-input-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        Scratch(dir)
    }

    fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).expect("written");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn sauve(args: &[&str]) -> Output {
    Command::new(SAUVE).args(args).output().expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

/// `line:col` of byte `i` of `text`, as the messages count them.
fn position_of(text: &str, i: usize) -> String {
    let before = &text[..i];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{line}:{col}")
}

fn where_is(text: &str, needle: &str) -> String {
    position_of(text, text.find(needle).unwrap_or_else(|| panic!("{needle:?} not in the text")))
}

/// A save of the cascade scenario after one AI-played turn: a real save with
/// real orders, to tamper with.
fn a_save(dir: &Scratch) -> (PathBuf, String) {
    let save = dir.0.join("cascade.save.ron");
    let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cascade.ron");
    let o = sauve(&["simulate", scenario, "--turns", "1", "--save", path(&save)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&save).expect("a save");
    assert!(text.contains("LoggedOrder("), "the AI gave orders in turn 1:\n{text}");
    (save, text)
}

/// The first saved order: where it starts, its unit and the line of that
/// unit, for tampering.
fn first_order(text: &str) -> (usize, String) {
    let at = text.find("LoggedOrder(").expect("an order");
    let unit_at = at + text[at..].find("unit: \"").expect("an order for a unit") + "unit: \"".len();
    let unit = text[unit_at..].split('"').next().expect("a quoted id").to_owned();
    (at, unit)
}

#[test]
fn an_untampered_save_replays_with_status_zero() {
    let dir = Scratch::new("replay-ok");
    let (save, _) = a_save(&dir);
    let o = sauve(&["replay", path(&save)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("error"), "{}", stderr(&o));
}

#[test]
fn a_save_ordering_a_unit_that_does_not_exist_names_the_first_failing_order() {
    let dir = Scratch::new("replay-ghost");
    let (_, text) = a_save(&dir);
    let (at, unit) = first_order(&text);
    let tampered = format!("{}{}", &text[..at], text[at..].replacen(&format!("\"{unit}\""), "\"ghost\"", 1));
    let save = dir.write("ghost.save.ron", &tampered);
    let o = sauve(&["replay", path(&save)]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let expect = format!(
        "{}:{}: error: orders[0]: turn 1, Movement phase of side 'fr': the order to unit 'ghost' could not be carried out: no unit 'ghost'",
        path(&save),
        position_of(&tampered, at)
    );
    assert!(err.lines().next().is_some_and(|l| l.starts_with(&expect)), "expected {expect:?} first in\n{err}");
}

#[test]
fn a_save_ordering_a_move_to_an_impossible_hex_names_the_order_and_why() {
    let dir = Scratch::new("replay-far");
    let (_, text) = a_save(&dir);
    let (at, unit) = first_order(&text);
    let to = at + text[at..].find("to: (").expect("a move");
    let end = to + text[to..].find(')').expect("a hex") + 1;
    let tampered = format!("{}to: (500, 500){}", &text[..to], &text[end..]);
    let save = dir.write("far.save.ron", &tampered);
    let o = sauve(&["replay", path(&save)]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let line = err.lines().next().unwrap_or_default();
    let place = format!("{}:{}: error: orders[0]: turn 1, Movement phase", path(&save), position_of(&tampered, at));
    assert!(line.starts_with(&place), "expected {place:?} in\n{err}");
    assert!(line.contains(&format!("the order to unit '{unit}' could not be carried out")), "{line}");
    assert!(line.contains("(500, 500)"), "the why names the hex: {line}");
}

#[test]
fn a_save_whose_order_is_stamped_out_of_turn_is_never_carried_out_and_says_so() {
    let dir = Scratch::new("replay-late");
    let (_, text) = a_save(&dir);
    let (at, unit) = first_order(&text);
    let tampered = format!("{}{}", &text[..at], text[at..].replacen("turn: 1", "turn: 77", 1));
    let save = dir.write("late.save.ron", &tampered);
    let o = sauve(&["replay", path(&save)]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let expect = format!(
        "{}:{}: error: orders[0]: turn 77, Movement phase of side 'fr': the order to unit '{unit}' was never carried out",
        path(&save),
        position_of(&tampered, at)
    );
    assert!(err.starts_with(&expect), "expected {expect:?} in\n{err}");
}

#[test]
fn a_truncated_or_garbled_save_is_a_located_error_never_a_panic() {
    let dir = Scratch::new("replay-cut");
    let (_, text) = a_save(&dir);
    let bytes = text.as_bytes();
    let mut cuts: Vec<usize> = (1..16).map(|k| bytes.len() * k / 16).collect();
    cuts.extend([1, 9, bytes.len() - 2]);
    for (n, cut) in cuts.into_iter().enumerate() {
        let mut garbled = bytes[..cut].to_vec();
        if n % 3 == 1 {
            garbled.push(0xff);
        }
        let save = dir.write(&format!("cut{n}.save.ron"), &garbled);
        let o = sauve(&["replay", path(&save)]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "cut at {cut}: {err}");
        let located = format!("{}:", path(&save));
        let line = err.lines().next().unwrap_or_default();
        let rest = line.strip_prefix(&located).unwrap_or_default();
        let mut parts = rest.splitn(3, ':');
        let numbers = [parts.next(), parts.next()].map(|p| p.and_then(|p| p.parse::<usize>().ok()));
        assert!(numbers.iter().all(Option::is_some), "cut at {cut}: not located: {err}");
        assert!(parts.next().is_some_and(|t| t.starts_with(" error: ")), "cut at {cut}: {err}");
        assert!(!err.contains("panicked"), "cut at {cut}: {err}");
    }
}

#[test]
fn check_accepts_a_file_with_a_byte_order_mark() {
    let dir = Scratch::new("bom");
    let text = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cascade.ron")).expect("bundled");
    let file = dir.write("bom.ron", [b"\xef\xbb\xbf".as_slice(), &text].concat());
    let o = sauve(&["check", path(&file)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains(": ok (Cascade"));
}

#[test]
fn check_gives_semantic_errors_a_line_and_column_and_fails() {
    let dir = Scratch::new("semantic");
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cascade.ron"))
        .expect("bundled")
        .replacen("rear: North", "rear: South", 1);
    let file = dir.write("same-rear.ron", &text);
    let o = sauve(&["check", path(&file)]);
    assert_eq!(o.status.code(), Some(1));
    let expect = format!(
        "{}:{}: error: side 'ru': rear South is also the rear of side 'fr'",
        path(&file),
        where_is(&text, "rear: South, control: Ai")
    );
    assert!(stderr(&o).starts_with(&expect), "expected {expect:?} in\n{}", stderr(&o));
}

#[test]
fn check_prints_warnings_located_and_exits_zero() {
    let dir = Scratch::new("warnings");
    let hex = r#"Scenario(format: 1, name: "w", sides: [(id: "fr", rear: South), (id: "ru", rear: North)],
    map: (rows: ["............", "............", "............", "............", "............", "............",
                 "............", "............", "............", "............", "............", "............"]),
    units: [
        (id: "fr-a", side: "fr", arm: Infantry, at: (2, 11), morale: 44, strength: 4),
        (id: "fr-b", side: "fr", arm: Infantry, at: (4, 11), morale: 44, strength: 4),
        (id: "ru-a", side: "ru", arm: Infantry, at: (2, 0), morale: 44, strength: 4),
    ],
    corps: [(id: "I", side: "fr", units: ["fr-a"])],
)"#;
    let file = dir.write("w.ron", hex);
    let o = sauve(&["check", path(&file)]);
    assert!(o.status.success(), "warnings alone keep status 0: {}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains(": ok (w, Hex mode, 3 units)"));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    let f = path(&file);
    let (fr_a, fr_b, ru_a) =
        (where_is(hex, "(id: \"fr-a\""), where_is(hex, "(id: \"fr-b\""), where_is(hex, "(id: \"ru-a\""));
    let expect = [
        format!(
            "{f}:{fr_a}: warning: unit 'fr-a': in good order 11 hexes from the enemy but only 0 from its rear edge (South): a rout of rules.rout_hexes (10) from there would run off the map (so would the routs of 1 more unit of side 'fr' in the line: 'fr-b')"
        ),
        format!(
            "{f}:{ru_a}: warning: unit 'ru-a': in good order 11 hexes from the enemy but only 0 from its rear edge (North): a rout of rules.rout_hexes (10) from there would run off the map"
        ),
        format!(
            "{f}:{fr_b}: warning: unit 'fr-b': 'fr-b' is in no corps of side 'fr', so the loader makes it a corps of its own ('fr') that breaks when it routs or is gone: list it in a corps"
        ),
    ];
    assert_eq!(lines, expect, "{err}");
}

#[test]
fn shot_refuses_an_ai_that_is_no_side_before_opening_a_window() {
    let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cascade.ron");
    let dir = Scratch::new("shot-ai");
    let out = dir.0.join("never.png");
    let o = sauve(&["shot", scenario, "--out", path(&out), "--ai", "prussia"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--ai \"prussia\": expected both, none, a side id, a level (easy, normal, hard) or SIDE=LEVEL,...; the sides are fr, ru"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}
