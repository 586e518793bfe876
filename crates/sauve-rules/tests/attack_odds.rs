//! The whole odds of an attack (rule 1.9, docs/rules.md 1.9) against the
//! attack itself: counted against every outcome of the dice the real
//! resolution rolls, and against many attacks resolved with random dice.

use sauve_rules::dice::Dice;
use sauve_rules::events::{EventKind, EventLog, MeleeRolls};
use sauve_rules::labataille::Board;
use sauve_rules::labataille::combat::{
    AttackOdds, Battlefield, attack_odds, charge_odds, charge_path, resolve_charge, resolve_melee,
};
use sauve_rules::labataille::engine::{Ctx, Engine};
use sauve_rules::labataille::grid::Grid;
use sauve_rules::labataille::movement::MoveSearch;
use sauve_rules::rules::combat::MeleeResult;
use sauve_rules::scenario::{Scenario, parse};

/// A small open field: the French at the bottom, the Russians above.
fn field(units: &[&str]) -> Scenario {
    let rows: Vec<String> = (0..10).map(|_| format!("\"{}\"", ".".repeat(10))).collect();
    let text = format!(
        "Scenario(format: 1, name: \"odds\", turns: 2, seed: 7,\n sides: [(id: \"fr\", rear: South), (id: \"ru\", rear: North)],\n map: (rows: [{}]),\n units: [{}],\n rules: ())",
        rows.join(",\n "),
        units.join(",\n ")
    );
    parse(&text, "odds.ron").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// How one real attack ended: the table's result, or none rolled (the hex
/// cleared before it, or the attack called off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    Table(MeleeResult),
    Cleared,
    CalledOff,
}

fn ended(log: &EventLog, board: &Board, target_hex: sauve_rules::hex::Offset, side: usize) -> Ended {
    for e in &log.events {
        if let EventKind::Melee { rolls: MeleeRolls::Hex { result, .. }, .. } = &e.kind {
            return Ended::Table(*result);
        }
    }
    let held = board.units.iter().any(|u| u.side == side && u.at == Some(target_hex));
    if held { Ended::Cleared } else { Ended::CalledOff }
}

/// The chance of each ending the odds give.
fn said(o: &AttackOdds, e: Ended) -> f64 {
    f64::from(match e {
        Ended::Table(r) => o.chance_of(r),
        Ended::Cleared => o.cleared,
        Ended::CalledOff => o.called_off,
    })
}

const ENDINGS: [Ended; 9] = [
    Ended::Table(MeleeResult::AR),
    Ended::Table(MeleeResult::AD),
    Ended::Table(MeleeResult::EX),
    Ended::Table(MeleeResult::DR),
    Ended::Table(MeleeResult::DD),
    Ended::Table(MeleeResult::DX),
    Ended::Table(MeleeResult::DS),
    Ended::Cleared,
    Ended::CalledOff,
];

struct Setup {
    s: Scenario,
}

impl Setup {
    fn with<R>(&self, f: impl FnOnce(&Battlefield, &mut Engine, &mut Board) -> R) -> R {
        let s = &self.s;
        let grid = Grid::new(&s.map, &s.rules);
        let ctx = Ctx { grid: &grid, rules: &s.rules, sides: &s.sides };
        let tables = s.rules.combat.tables();
        let movement: Vec<Option<f32>> = vec![None; s.units.len()];
        let bf = Battlefield { ctx: &ctx, map: &s.map, tables: &tables, movement: &movement };
        let mut board = Board::from_scenario(s);
        let mut engine = Engine::new(&grid, &board);
        f(&bf, &mut engine, &mut board)
    }

    fn unit(&self, id: &str) -> usize {
        self.s.units.iter().position(|u| u.id == id).unwrap_or_else(|| panic!("no unit {id}"))
    }
}

/// Plays one real order to attack with these dice; how it ended.
fn attack_with(
    bf: &Battlefield,
    engine: &Engine,
    board: &Board,
    attackers: &[usize],
    target: usize,
    dice: Dice,
) -> Ended {
    let (mut e, mut b, mut d, mut log) = (engine.probe(), board.clone(), dice, EventLog::default());
    let hex = board.units[target].at.expect("on the map");
    resolve_melee(bf, &mut e, &mut b, &mut d, &mut log, attackers, target, false, &[]).expect("a legal attack");
    ended(&log, &b, hex, board.units[attackers[0]].side)
}

/// One battalion against another in the open: three dice decide it (the
/// attacker's own check, the defender's, the table's roll). Counting all
/// 36 x 36 x 36 of them on the real resolution gives the odds exactly.
#[test]
fn the_odds_of_an_attack_are_the_count_of_all_its_dice() {
    let setup = Setup {
        s: field(&[
            "(id: \"fr-a\", side: \"fr\", arm: Infantry, at: (4, 5), morale: 34, strength: 6)",
            "(id: \"ru-a\", side: \"ru\", arm: Infantry, at: (4, 4), morale: 43, strength: 4)",
        ]),
    };
    let (a, t) = (setup.unit("fr-a"), setup.unit("ru-a"));
    setup.with(|bf, engine, board| {
        let odds = attack_odds(bf, engine, board, &[a], t).expect("a legal attack");
        let mut counts = [0u32; ENDINGS.len()];
        let all: Vec<u32> = (1..=6).flat_map(|x| (1..=6).map(move |y| x * 10 + y)).collect();
        for &r1 in &all {
            for &r2 in &all {
                for &r3 in &all {
                    let end = attack_with(bf, engine, board, &[a], t, Dice::new(1, vec![r1, r2, r3]));
                    let k = ENDINGS.iter().position(|&x| x == end).expect("an ending");
                    counts[k] += 1;
                }
            }
        }
        let n = f64::from(36u32.pow(3));
        for (k, &end) in ENDINGS.iter().enumerate() {
            let counted = f64::from(counts[k]) / n;
            assert!((said(&odds, end) - counted).abs() < 1e-5, "{end:?}: odds {} counted {counted}", said(&odds, end));
        }
        // The attacker's own check is in them: it is rolled for sure, and
        // the melee goes in only when it and the defender's both pass.
        let own = odds.check_of(a, sauve_rules::events::Cause::Melee).expect("the attacker's check");
        assert_eq!(own.rolled, 1.0);
        let theirs = odds.check_of(t, sauve_rules::events::Cause::Melee).expect("the defender's check");
        assert!((theirs.rolled - own.passes).abs() < 1e-6, "the defender checks when the attacker passed");
        assert!((odds.goes_in - own.passes * theirs.passes).abs() < 1e-5);
        assert!(odds.goes_in < 0.999 && odds.win_chance() < odds.table.win_chance(), "the checks cost the attacker");
    });
}

/// Monte Carlo of the real resolution: each ending's share within 4.5
/// standard errors of its odds.
fn agrees(odds: &AttackOdds, runs: u32, mut play: impl FnMut(u64) -> Ended) {
    let mut counts = [0u32; ENDINGS.len()];
    for seed in 0..u64::from(runs) {
        let end = play(seed);
        counts[ENDINGS.iter().position(|&x| x == end).expect("an ending")] += 1;
    }
    let total: f64 = ENDINGS.iter().map(|&e| said(odds, e)).sum();
    assert!((total - 1.0).abs() < 1e-4, "the odds add up to one: {total}");
    for (k, &end) in ENDINGS.iter().enumerate() {
        let p = said(odds, end);
        let seen = f64::from(counts[k]) / f64::from(runs);
        let se = (p * (1.0 - p) / f64::from(runs)).sqrt().max(1e-9);
        assert!((seen - p).abs() <= 4.5 * se + 1e-9, "{end:?}: odds {p:.4}, seen {seen:.4} in {runs} runs");
    }
}

/// Two battalions against a stack of horse on foot: the horse that fails
/// its check routs, and its rout may shake the battalion under it; what is
/// left fights on other odds. The odds count all of it.
#[test]
fn the_odds_of_an_attack_on_a_stack_agree_with_attacks_played() {
    let setup = Setup {
        s: field(&[
            "(id: \"fr-a\", side: \"fr\", arm: Infantry, at: (4, 5), morale: 34, strength: 5)",
            "(id: \"fr-b\", side: \"fr\", arm: Infantry, at: (3, 4), morale: 45, strength: 4)",
            "(id: \"ru-h\", side: \"ru\", arm: Cavalry, at: (4, 4), morale: 44, strength: 3)",
            "(id: \"ru-a\", side: \"ru\", arm: Infantry, at: (4, 4), morale: 36, strength: 3)",
        ]),
    };
    let (a, b, t) = (setup.unit("fr-a"), setup.unit("fr-b"), setup.unit("ru-h"));
    setup.with(|bf, engine, board| {
        let odds = attack_odds(bf, engine, board, &[a, b], t).expect("a legal attack");
        assert!(odds.checks.len() >= 4, "both attackers' and both defenders' checks: {:?}", odds.checks);
        agrees(&odds, 20_000, |seed| attack_with(bf, engine, board, &[a, b], t, Dice::new(seed, Vec::new())));
    });
}

/// A charge at a battalion in the open: its square test, its pre-melee
/// check, then the table with the charge's bonus (or against the square),
/// worked out at the hex of contact before the ride.
#[test]
fn the_odds_of_a_charge_agree_with_charges_ridden() {
    let setup = Setup {
        s: field(&[
            "(id: \"fr-h\", side: \"fr\", arm: Cavalry, at: (4, 8), morale: 45, strength: 4)",
            "(id: \"ru-a\", side: \"ru\", arm: Infantry, at: (4, 4), morale: 35, strength: 4)",
        ]),
    };
    let (h, t) = (setup.unit("fr-h"), setup.unit("ru-a"));
    setup.with(|bf, engine, board| {
        let path = charge_path(bf, engine, board, &mut MoveSearch::default(), h, t).expect("within reach");
        assert!(path.len() > 2, "a ride of some hexes: {path:?}");
        let odds = charge_odds(bf, engine, board, h, t, &path).expect("a legal charge");
        let square = odds.check_of(t, sauve_rules::events::Cause::Charge).expect("the square test");
        assert_eq!(square.rolled, 1.0);
        assert!(odds.check_of(h, sauve_rules::events::Cause::Melee).is_none(), "a charger makes no check");
        let hex = board.units[t].at.expect("on the map");
        agrees(&odds, 20_000, |seed| {
            let (mut e, mut b, mut d, mut log) =
                (engine.probe(), board.clone(), Dice::new(seed, vec![]), EventLog::default());
            resolve_charge(bf, &mut e, &mut b, &mut d, &mut log, &mut MoveSearch::default(), h, t).expect("a charge");
            ended(&log, &b, hex, 0)
        });
    });
}

/// A volley's odds count its second die too: the chance the target is made
/// to check and fails is the count of all 36 x 36 outcomes of the real
/// volley's two rolls (the table's, then the check's).
#[test]
fn the_odds_of_a_volley_count_the_targets_check() {
    let setup = Setup {
        s: field(&[
            "(id: \"fr-a\", side: \"fr\", arm: Infantry, at: (4, 6), morale: 34, strength: 6)",
            "(id: \"ru-a\", side: \"ru\", arm: Infantry, at: (4, 4), morale: 35, strength: 4)",
        ]),
    };
    let (a, t) = (setup.unit("fr-a"), setup.unit("ru-a"));
    setup.with(|bf, engine, board| {
        let odds = sauve_rules::labataille::combat::fire_odds(bf, board, engine, &[a], t).expect("in range");
        assert!(odds.check_chance() > 0.0, "some results demand a check: {odds:?}");
        let all: Vec<u32> = (1..=6).flat_map(|x| (1..=6).map(move |y| x * 10 + y)).collect();
        let mut failed = 0u32;
        for &r1 in &all {
            for &r2 in &all {
                let (mut e, mut b, mut d, mut log) =
                    (engine.probe(), board.clone(), Dice::new(1, vec![r1, r2]), EventLog::default());
                sauve_rules::labataille::combat::resolve_fire(bf, &mut e, &mut b, &mut d, &mut log, &[a], t)
                    .expect("a legal volley");
                failed += u32::from(log.events.iter().any(|ev| {
                    matches!(
                        &ev.kind,
                        EventKind::MoraleCheck { cause: sauve_rules::events::Cause::Fire, passed: false, .. }
                    )
                }));
            }
        }
        let counted = f64::from(failed) / 1296.0;
        assert!((f64::from(odds.check_fails) - counted).abs() < 1e-5, "odds {} counted {counted}", odds.check_fails);
    });
}

/// While a charge is chosen, the target's rout preview is of the board at
/// contact (the charger next to it): it is the rout the charge then causes
/// when the melee routs the target, and not the preview of the board
/// before the ride, where the horse stood far off.
#[test]
fn a_charge_targets_rout_preview_is_the_rout_it_then_causes() {
    use sauve_rules::events::{MoveReason, Pos};
    let setup = Setup {
        s: field(&[
            "(id: \"fr-h\", side: \"fr\", arm: Cavalry, at: (7, 1), morale: 45, strength: 4)",
            "(id: \"ru-a\", side: \"ru\", arm: Infantry, at: (4, 4), morale: 35, strength: 4, state: Disordered)",
        ]),
    };
    let (h, t) = (setup.unit("fr-h"), setup.unit("ru-a"));
    setup.with(|bf, engine, board| {
        let path = charge_path(bf, engine, board, &mut MoveSearch::default(), h, t).expect("within reach");
        let at_contact = sauve_rules::labataille::combat::target_rout_at_contact(bf, engine, board, h, t, &path)
            .expect("on the board");
        let before = sauve_rules::labataille::rout_preview::preview_rout(bf.ctx, &mut engine.probe(), board, t)
            .expect("on the board");
        assert_ne!(at_contact.path, before.path, "the horse at contact stands in the way of the old rout");
        // The charge, its roll a 66: the disordered battalion is routed (DX).
        let (mut e, mut b, mut d, mut log) =
            (engine.probe(), board.clone(), Dice::new(1, vec![66]), EventLog::default());
        resolve_charge(bf, &mut e, &mut b, &mut d, &mut log, &mut MoveSearch::default(), h, t).expect("a charge");
        assert!(matches!(ended(&log, &b, board.units[t].at.expect("on"), 0), Ended::Table(MeleeResult::DX)));
        let id = &board.units[t].id;
        let routed = log.events.iter().find_map(|e| match &e.kind {
            EventKind::Move { unit, reason: MoveReason::Rout, path, .. } if unit == id => Some(path.clone()),
            _ => None,
        });
        let previewed: Vec<Pos> = at_contact.path.iter().map(|&o| Pos::from(o)).collect();
        assert_eq!(routed, Some(previewed), "the rout made is the one previewed at contact");
    });
}
