//! The AI opponent (hex mode): decides a side's orders one phase at a time
//! and carries each out through [`Orders::apply`], so it plays by the same
//! rules, odds and dice as a player. It may play either side; its temper is
//! the scenario's `aggression` (0 cautious ..= 1 reckless). docs/rules.md,
//! "The AI", describes its behaviour for players.
//!
//! - **Charge phase:** cavalry in good order and not exhausted charges the
//!   target it can reach with the best chance of a favourable melee (the
//!   form-square check counted in), if that chance clears a threshold that
//!   falls with aggression. Disordered targets and guns score a little more.
//! - **Movement:** one multi-source Dijkstra field per side and phase, over
//!   the grid's infantry step costs, from the objectives to take (not held,
//!   or held but threatened) and, a little behind them, the enemy. Each unit
//!   takes the hex of its `orders.reach` nearest that field, keeping its
//!   arm's stand-off from the enemy, out of enemy cavalry zones if it is
//!   infantry, and preferring cover. A share of the rearmost units stays
//!   back as a reserve; a unit on an objective holds it. Infantry forms
//!   square near enemy cavalry, marches in column far from the enemy and
//!   deploys into line near it; guns limber to move and unlimber in range.
//!   Disordered units and units of a broken corps fall back instead. When
//!   the scenario gives the side exits, a share of the attackers makes for
//!   them, and attackers standing on a paying exit's edge leave by it.
//! - **Fire phases:** concentrated fire: the target with the best expected
//!   effect for the volley all its firers could make goes first, then the
//!   next (a lazy greedy over a heap, rescoring a target only when its turn
//!   comes).
//! - **Melee:** routed and disordered targets are always attacked; others
//!   when the combined attack's chance clears a threshold falling with
//!   aggression. Every adjacent eligible unit joins in.
//!
//! Deterministic: no randomness of its own, units in index order, ordered
//! maps only. Cheap: shared fields rather than per-unit global searches;
//! odds are computed only for the few candidates that pass a quick screen.
//!
//! Each phase's decisions have a file: `charge`, `movement` (with `march`
//! for where a unit goes, `stance` for how it stands and `exits` for
//! leaving the map), `fire` and `melee`; `goal_fields` holds the walking
//! distances the movement steers by, `goals` what the AI plays for and its
//! thresholds.

mod charge;
mod exits;
mod fire;
pub mod foresight;
pub mod goal_fields;
mod goals;
mod hunt;
mod march;
mod melee;
mod movement;
mod phase;
mod plan;
mod position;
mod rollout;
pub mod script;
mod stance;

pub use foresight::{Deliberation, DeliberationProgress};
pub use goal_fields::{GoalFields, UNREACHED, goal_field};
pub use goals::{AiGoals, Foresight, Tuning, corps_broken_for_orders};
pub use position::Position;
pub use script::Script;

use crate::dice::Dice;
use crate::events::EventLog;
use crate::labataille::Board;
use crate::labataille::engine::Engine;
use crate::labataille::orders::{Order, Orders};
use crate::turn::Phase;
use crate::vocab::AiLevel;

/// Decides and carries out the side's orders for one phase, one order at a time
/// (each applied through `orders.apply`, so later decisions see earlier results).
/// Returns the orders applied, in order (the simulation records them for replays).
#[allow(clippy::too_many_arguments)] // the phase's inputs, as `Orders::apply` takes them
pub fn play_phase(
    orders: &mut Orders,
    engine: &mut Engine,
    board: &mut Board,
    dice: &mut Dice,
    log: &mut EventLog,
    phase: Phase,
    side: usize,
    goals: &AiGoals,
) -> Vec<Order> {
    play_phase_weighed(orders, engine, board, dice, log, phase, side, goals).0
}

/// Whether the planning AI deliberates before giving this phase's orders:
/// `Hard`, in a movement phase, with its [`Foresight`].
pub fn deliberates(goals: &AiGoals, phase: Phase) -> bool {
    goals.level == AiLevel::Hard && phase == Phase::Movement && goals.foresight.is_some()
}

/// As [`play_phase`], and what the planning AI weighed, when it did
/// ([`deliberates`]).
#[allow(clippy::too_many_arguments)] // as `play_phase`
pub fn play_phase_weighed(
    orders: &mut Orders,
    engine: &mut Engine,
    board: &mut Board,
    dice: &mut Dice,
    log: &mut EventLog,
    phase: Phase,
    side: usize,
    goals: &AiGoals,
) -> (Vec<Order>, Option<Deliberation>) {
    match &goals.foresight {
        Some(f) if deliberates(goals, phase) => {
            let d = foresight::deliberate(orders.bf, orders.index, orders.activity, engine, board, side, goals, f);
            (play_phase_planned(orders, engine, board, dice, log, phase, side, goals, &d), Some(d))
        }
        _ => (phase::play(orders, engine, board, dice, log, phase, side, goals), None),
    }
}

/// As [`play_phase`], with the groups' scripts a deliberation chose (one
/// made elsewhere, as the window's on another thread, from this position).
#[allow(clippy::too_many_arguments)] // as `play_phase`
pub fn play_phase_planned(
    orders: &mut Orders,
    engine: &mut Engine,
    board: &mut Board,
    dice: &mut Dice,
    log: &mut EventLog,
    phase: Phase,
    side: usize,
    goals: &AiGoals,
    d: &Deliberation,
) -> Vec<Order> {
    let planned = AiGoals { scripts: d.scripts(board.units.len()), ..goals.clone() };
    phase::play(orders, engine, board, dice, log, phase, side, &planned)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::hex::{Dir, Edge, Offset};
    use crate::labataille::HexUnit;
    use crate::labataille::combat::Battlefield;
    use crate::labataille::engine::Ctx;
    use crate::labataille::fields::front_sides;
    use crate::labataille::grid::Grid;
    use crate::labataille::movement::MoveSearch;
    use crate::labataille::orders::Activity;
    use crate::labataille::rout_preview::{RoutEnd, RoutPreview, preview_rout};
    use crate::map::TerrainMap;
    use crate::rules::Rules;
    use crate::rules::ai::AiRules;
    use crate::terrain::Arm;
    use crate::vocab::Formation;
    use crate::vocab::{AiLevel, State};

    /// Side 0 has its rear south and faces north; side 1 the reverse.
    fn unit(id: &str, side: usize, arm: Arm, at: (i32, i32)) -> HexUnit {
        HexUnit::marching(id, side, arm, Offset::new(at.0, at.1), if side == 0 { Dir::N } else { Dir::S })
    }

    /// Plays the phases in turn on a map drawn as rows; returns the orders.
    fn play(rows: &[&str], board: &mut Board, phases: &[(Phase, usize)], goals: &AiGoals) -> Vec<Order> {
        play_with(rows, board, phases, goals, &Rules::default())
    }

    /// As [`play`], under other rules (a changed `rules.ai` number).
    fn play_with(
        rows: &[&str],
        board: &mut Board,
        phases: &[(Phase, usize)],
        goals: &AiGoals,
        rules: &Rules,
    ) -> Vec<Order> {
        let (orders, _) = play_logged(rows, board, phases, goals, 7, rules);
        orders
    }

    fn play_logged(
        rows: &[&str],
        board: &mut Board,
        phases: &[(Phase, usize)],
        goals: &AiGoals,
        seed: u64,
        rules: &Rules,
    ) -> (Vec<Order>, String) {
        let map = TerrainMap::from_rows(rows);
        let grid = Grid::new(&map, rules);
        let sides = crate::generate::sides();
        let ctx = Ctx { grid: &grid, rules, sides: &sides };
        let tables = rules.combat.tables();
        let bf = Battlefield { ctx: &ctx, map: &map, tables: &tables, movement: &[] };
        let index: HashMap<String, usize> = board.units.iter().enumerate().map(|(i, u)| (u.id.clone(), i)).collect();
        let mut search = MoveSearch::default();
        let mut activity = Activity::new(board.units.len());
        // The scenario's exits, as the simulation hands them to the orders.
        for &(_, side) in phases {
            activity.exits.extend(goals.exits.iter().map(|&(edge, _)| (side, edge)));
        }
        let mut engine = Engine::new(&grid, board);
        let mut dice = Dice::new(seed, Vec::new());
        let mut log = EventLog::default();
        let mut orders = Orders { bf: &bf, index: &index, search: &mut search, activity: &mut activity };
        let mut out = Vec::new();
        for &(phase, side) in phases {
            if matches!(phase, Phase::DefensiveFire | Phase::OffensiveFire) {
                orders.activity.new_fire_phase();
            }
            out.extend(play_phase(&mut orders, &mut engine, board, &mut dice, &mut log, phase, side, goals));
        }
        (out, log.to_jsonl())
    }

    /// Where unit `unit` of `board` would rout now, on a map drawn as rows
    /// under the default rules (the rout preview).
    fn rout_preview_on(rows: &[&str], board: &Board, unit: usize) -> RoutPreview {
        read_rout_preview(rows, board, unit, |_, p| p)
    }

    /// How many friends a rout of `unit` of `board` is expected to rout as
    /// well, on a map drawn as rows under the default rules.
    fn expected_routs_on(rows: &[&str], board: &Board, unit: usize) -> f64 {
        read_rout_preview(rows, board, unit, |ctx, p| p.expected_routs(ctx, board))
    }

    /// `read` of the rout preview of `unit` of `board`, on a map drawn as
    /// rows under the default rules.
    fn read_rout_preview<T>(rows: &[&str], board: &Board, unit: usize, read: impl FnOnce(&Ctx, RoutPreview) -> T) -> T {
        let map = TerrainMap::from_rows(rows);
        let rules = Rules::default();
        let grid = Grid::new(&map, &rules);
        let sides = crate::generate::sides();
        let ctx = Ctx { grid: &grid, rules: &rules, sides: &sides };
        let mut engine = Engine::new(&grid, board);
        read(&ctx, preview_rout(&ctx, &mut engine, board, unit).expect("on the map"))
    }

    /// The odds of a charge of `unit` at `target` riding `path`, on a map
    /// drawn as rows under the default rules.
    fn charge_odds_on_map(
        rows: &[&str],
        board: &Board,
        unit: usize,
        target: usize,
        path: &[Offset],
    ) -> crate::labataille::combat::AttackOdds {
        let map = TerrainMap::from_rows(rows);
        let rules = Rules::default();
        let grid = Grid::new(&map, &rules);
        let sides = crate::generate::sides();
        let ctx = Ctx { grid: &grid, rules: &rules, sides: &sides };
        let tables = rules.combat.tables();
        let bf = Battlefield { ctx: &ctx, map: &map, tables: &tables, movement: &[] };
        let engine = Engine::new(&grid, board);
        crate::labataille::combat::charge_odds(&bf, &engine, board, unit, target, path).expect("a legal charge")
    }

    fn at(board: &Board, id: &str) -> Offset {
        board.units[board.index_of(id).expect("unit")].at.expect("on the map")
    }

    const OPEN: [&str; 12] = ["............"; 12];

    #[test]
    fn ai_forms_square_when_enemy_cavalry_is_near() {
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (4, 8)), unit("ru-cav", 1, Arm::Cavalry, (4, 5))] };
        board.units[0].formation = Formation::Line;
        let orders = play(&OPEN, &mut board, &[(Phase::Movement, 0)], &AiGoals::default());
        assert_eq!(orders[0], Order::Formation { unit: "fr".into(), to: Formation::Square });
        assert_eq!(board.units[0].formation, Formation::Square);
        assert_eq!(at(&board, "fr"), Offset::new(4, 8), "a square stands");

        // The same distance from infantry: no square.
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (4, 8)), unit("ru-inf", 1, Arm::Infantry, (4, 5))] };
        play(&OPEN, &mut board, &[(Phase::Movement, 0)], &AiGoals::default());
        assert_ne!(board.units[0].formation, Formation::Square);
    }

    /// At `Normal` an attacker with no enemy near goes after an enemy
    /// battalion that stands far from all of the side's units, rather than
    /// after the nearest enemy, while one in contact stays on its own
    /// enemy; not when the lone battalion's corps is broken (it no longer
    /// counts), nor at `Easy`, nor with `hunt_beyond` as wide as the map
    /// or `hunters_max` 0, nor when an objective to take lies nearer,
    /// within `hunt_beyond`, nor before `hunt_from` of the battle.
    #[test]
    fn an_idle_attacker_hunts_a_lone_enemy_that_still_counts() {
        let rows = ["...................."; 14];
        let (near, idle, engaged, lone) =
            (Offset::new(4, 3), Offset::new(4, 11), Offset::new(6, 3), Offset::new(17, 11));
        let after_with = |(level, progress): (AiLevel, f32),
                          lone_broken: bool,
                          (hunt_beyond, hunters_max): (u16, u32),
                          objectives: Vec<(Offset, u32, Option<usize>)>| {
            let mut board = Board {
                units: vec![
                    unit("near", 0, Arm::Infantry, (near.c, near.r)),
                    unit("idle", 0, Arm::Infantry, (idle.c, idle.r)),
                    unit("engaged", 1, Arm::Infantry, (engaged.c, engaged.r)),
                    unit("lone", 1, Arm::Infantry, (lone.c, lone.r)),
                ],
            };
            let broken = vec![false, false, false, lone_broken];
            let goals = AiGoals { level, broken, objectives, progress, ..AiGoals::default() };
            let mut rules = Rules::default();
            rules.ai.hunt_beyond = hunt_beyond;
            rules.ai.hunters_max = hunters_max;
            play_with(&rows, &mut board, &[(Phase::Movement, 0)], &goals, &rules);
            (at(&board, "near"), at(&board, "idle"))
        };
        let after = |level, lone_broken, knobs| after_with((level, 0.5), lone_broken, knobs, Vec::new());
        assert!(idle.distance(engaged) < idle.distance(lone), "the engaged battalion is the nearer enemy");
        let (n, i) = after(AiLevel::Normal, false, (4, 4));
        assert!(i.distance(lone) + 2 <= idle.distance(lone), "the idle battalion makes for the lone one: {i:?}");
        let (_, easy) = after(AiLevel::Easy, false, (4, 4));
        assert!(i.distance(engaged) > easy.distance(engaged), "and not for the nearer enemy: {i:?}, {easy:?}");
        assert!(n.distance(engaged) <= near.distance(engaged), "the battalion in contact stays on its enemy: {n:?}");
        for (level, broken, knobs, why) in [
            (AiLevel::Easy, false, (4, 4), "`Easy` hunts nobody"),
            (AiLevel::Normal, true, (4, 4), "a broken corps' battalion no longer counts"),
            (AiLevel::Normal, false, (100, 4), "no battalion stands 100 hexes from every enemy"),
            (AiLevel::Normal, false, (4, 0), "no hunter is allowed"),
        ] {
            let (_, i) = after(level, broken, knobs);
            assert!(i.distance(engaged) < idle.distance(engaged), "{why}: it goes for the nearest enemy, {i:?}");
        }
        // An objective to take within `hunt_beyond`, nearer than the lone
        // battalion: the idle one takes it instead.
        let village = Offset::new(2, 12);
        let (_, i) = after_with((AiLevel::Normal, 0.5), false, (4, 4), vec![(village, 5, None)]);
        assert!(i.distance(village) < idle.distance(village), "it makes for the village near it: {i:?}");
        assert!(i.distance(lone) >= idle.distance(lone), "not for the lone battalion: {i:?}");
        // Before `hunt_from` (0.3) of the battle's turns nobody is hunted.
        let (_, i) = after_with((AiLevel::Normal, 0.2), false, (4, 4), Vec::new());
        assert!(i.distance(engaged) < idle.distance(engaged), "early on it goes for the nearest enemy: {i:?}");
    }

    /// At `Normal` a battalion forms square only against horse whose
    /// charge at it, the square test counted, would clear the horse's
    /// side's threshold: a steady one stands in line before a weak
    /// squadron (`Easy` still squares), a shaky one squares before strong
    /// horse.
    #[test]
    fn a_battalion_squares_only_against_a_charge_that_would_pay() {
        let before = |morale: u8, horse: u32, level: AiLevel| {
            let mut board =
                Board { units: vec![unit("fr", 0, Arm::Infantry, (4, 8)), unit("ru-cav", 1, Arm::Cavalry, (4, 5))] };
            board.units[0].formation = Formation::Line;
            board.units[0].morale = morale;
            board.units[1].strength = horse;
            let goals = AiGoals { level, ..AiGoals::default() };
            play(&OPEN, &mut board, &[(Phase::Movement, 0)], &goals);
            board.units[0].formation
        };
        assert_ne!(before(22, 2, AiLevel::Normal), Formation::Square, "steady foot, weak horse: no square");
        assert_eq!(before(22, 2, AiLevel::Easy), Formation::Square, "`Easy` squares before any horse");
        assert_eq!(before(61, 8, AiLevel::Normal), Formation::Square, "shaky foot, strong horse: square");
    }

    #[test]
    fn ai_concentrates_fire_on_one_target() {
        // Three battalions in range and sight of two enemies; the
        // disordered one is the better target, and all three fire at it
        // together rather than splitting their fire.
        let mut board = Board {
            units: vec![
                unit("fr-a", 0, Arm::Infantry, (2, 5)),
                unit("fr-b", 0, Arm::Infantry, (3, 4)),
                unit("fr-c", 0, Arm::Infantry, (4, 4)),
                unit("ru-steady", 1, Arm::Infantry, (2, 3)),
                unit("ru-shaken", 1, Arm::Infantry, (4, 6)),
            ],
        };
        for u in &mut board.units[..3] {
            u.formation = Formation::Line;
            u.strength = 4;
        }
        board.units[4].state = State::Disordered;
        for f in ["fr-a", "fr-b", "fr-c"] {
            for t in ["ru-steady", "ru-shaken"] {
                let (from, to) = (at(&board, f), at(&board, t));
                assert!(from.distance(to) <= 2, "{f} reaches {t}");
                assert!(
                    crate::labataille::combat::between(from, to)
                        .iter()
                        .all(|h| board.units.iter().all(|u| u.at != Some(*h))),
                    "{f} sees {t}"
                );
            }
        }
        let orders = play(&OPEN, &mut board, &[(Phase::OffensiveFire, 0)], &AiGoals::default());
        assert_eq!(
            orders,
            vec![Order::Fire { units: vec!["fr-a".into(), "fr-b".into(), "fr-c".into()], target: "ru-shaken".into() }]
        );
    }

    #[test]
    fn ai_charges_a_disordered_battalion_but_not_a_square() {
        let mut board = Board {
            units: vec![
                unit("fr-cav", 0, Arm::Cavalry, (5, 8)),
                unit("ru-square", 1, Arm::Infantry, (3, 4)),
                unit("ru-shaken", 1, Arm::Infantry, (7, 4)),
            ],
        };
        board.units[1].formation = Formation::Square;
        board.units[2].state = State::Disordered;
        board.units[1].strength = 4;
        board.units[2].strength = 4;
        let orders = play(&OPEN, &mut board, &[(Phase::Charge, 0)], &AiGoals::default());
        assert_eq!(orders, vec![Order::Charge { unit: "fr-cav".into(), target: "ru-shaken".into() }]);

        // A steady square (morale 25) holds its pre-melee check three times
        // in four and then throws the horse back: with every die counted
        // the charge is not worth it. (A wavering one, of morale 43, breaks
        // before the contact about half the time, which the odds count.)
        let mut board =
            Board { units: vec![unit("fr-cav", 0, Arm::Cavalry, (5, 8)), unit("ru-square", 1, Arm::Infantry, (3, 4))] };
        board.units[1].formation = Formation::Square;
        board.units[1].morale = 25;
        let orders = play(&OPEN, &mut board, &[(Phase::Charge, 0)], &AiGoals::default());
        assert!(orders.is_empty(), "no charge at a steady square: {orders:?}");
    }

    #[test]
    fn the_mended_ai_counts_the_charges_it_would_lose() {
        // A battalion in line of morale 30 and strength 6: a charge at it
        // mostly wins, but one time in several the horse is thrown back or
        // driven off (and a horse unit driven off routs).
        let board = || {
            let mut b =
                Board { units: vec![unit("fr-cav", 0, Arm::Cavalry, (5, 8)), unit("ru", 1, Arm::Infantry, (5, 4))] };
            b.units[1].morale = 30;
            b.units[1].strength = 6;
            b.units[1].formation = Formation::Line;
            b
        };
        let charge = vec![Order::Charge { unit: "fr-cav".into(), target: "ru".into() }];
        let charged = |level: AiLevel, loss_weight: f32| {
            let mut rules = Rules::default();
            rules.ai.charge_loss_weight = loss_weight;
            let goals = AiGoals { level, ..AiGoals::default() };
            play_with(&OPEN, &mut board(), &[(Phase::Charge, 0)], &goals, &rules)
        };
        // The odds as the AI reads them, from the hex of contact.
        let b = board();
        let odds = charge_odds_on_map(&OPEN, &b, 0, 1, &[Offset::new(5, 8), Offset::new(5, 5)]);
        let rules = Rules::default();
        let threshold = rules.ai.charge_threshold - rules.ai.charge_threshold_drop * AiGoals::default().aggression;
        let worth = odds.win_chance() - odds.expected_failures(&b, 0);
        assert!(worth >= threshold, "without the losses the charge clears {threshold}: {worth}");
        assert!(worth - odds.lose_chance() < threshold, "with them it does not: {}", odds.lose_chance());
        // So `easy`, and `normal` blind to the table's losses, charge;
        // `normal` as it plays does not.
        assert_eq!(charged(AiLevel::Easy, 1.0), charge);
        assert_eq!(charged(AiLevel::Normal, 0.0), charge);
        assert_eq!(charged(AiLevel::Normal, Rules::default().ai.charge_loss_weight), Vec::<Order>::new());
    }

    #[test]
    fn the_mended_ai_counts_the_friends_its_own_rout_would_rout() {
        // The charge of the test above at a steadier battalion (morale 40),
        // which clears the threshold with the table's losses counted. A
        // line of shaky battalions of its own side (morale 55) stands across
        // a narrow field between the horse and the enemy, so a rout from
        // the hex of contact, south to its rear, must pass through it:
        // thrown back, the horse would put one to a contagion check, and if
        // that fails (disordered) the battalion must then pass its recovery
        // check or rout (1.4, 1.5).
        const NARROW: [&str; 12] = ["......."; 12];
        let board = |friends: bool| {
            let mut b =
                Board { units: vec![unit("fr-cav", 0, Arm::Cavalry, (3, 8)), unit("ru", 1, Arm::Infantry, (3, 4))] };
            b.units[1].morale = 40;
            b.units[1].strength = 6;
            b.units[1].formation = Formation::Line;
            if friends {
                for c in 0..7 {
                    let mut f = unit(&format!("fr-lw-{c}"), 0, Arm::Infantry, (c, 6));
                    f.morale = 55;
                    b.units.push(f);
                }
            }
            b
        };
        let charge = vec![Order::Charge { unit: "fr-cav".into(), target: "ru".into() }];
        let charged = |level: AiLevel, friends: bool, rout_weight: f32| {
            let mut rules = Rules::default();
            rules.ai.charge_rout_weight = rout_weight;
            let goals = AiGoals { level, ..AiGoals::default() };
            let orders = play_with(&NARROW, &mut board(friends), &[(Phase::Charge, 0)], &goals, &rules);
            orders.into_iter().filter(|o| matches!(o, Order::Charge { .. })).collect::<Vec<_>>()
        };
        // The odds and the rout from the hex of contact, as the AI reads them.
        let b = board(true);
        let odds = charge_odds_on_map(&NARROW, &b, 0, 1, &[Offset::new(3, 8), Offset::new(3, 5)]);
        let rules = Rules::default();
        let threshold = rules.ai.charge_threshold - rules.ai.charge_threshold_drop * AiGoals::default().aggression;
        let worth = odds.win_chance() - odds.expected_failures(&b, 0) - odds.lose_chance();
        assert!(worth >= threshold, "with the table's losses the charge clears {threshold}: {worth}");
        let mut there = b.clone();
        there.units[0].at = Some(Offset::new(3, 5));
        let routs = expected_routs_on(&NARROW, &there, 0);
        assert!(routs > 0.3, "its rout would rout a friend now and then: {routs}");
        let weighed = worth - odds.lose_chance() * rules.ai.charge_rout_weight * routs as f32;
        assert!(weighed < threshold, "with the friends it would rout it does not: {weighed}");
        // So `normal` charges with no friends on the way, or blind to them,
        // and `easy` charges; `normal` as it plays does not.
        let weight = Rules::default().ai.charge_rout_weight;
        assert_eq!(charged(AiLevel::Normal, false, weight), charge);
        assert_eq!(charged(AiLevel::Normal, true, 0.0), charge);
        assert_eq!(charged(AiLevel::Easy, true, weight), charge);
        assert_eq!(charged(AiLevel::Normal, true, weight), Vec::<Order>::new());
    }

    #[test]
    fn the_charge_screen_weights_come_from_the_rules_block() {
        // Two targets in reach; with one candidate let through, the screen
        // alone decides which is charged. By default the strength ratio
        // (6 against 2) puts the small battalion first; weighting disorder
        // heavily puts the disordered one first instead.
        let board = || {
            let mut b = Board {
                units: vec![
                    unit("fr-cav", 0, Arm::Cavalry, (5, 8)),
                    unit("ru-shaken", 1, Arm::Infantry, (3, 4)),
                    unit("ru-small", 1, Arm::Infantry, (7, 4)),
                ],
            };
            b.units[1].state = State::Disordered;
            b.units[2].strength = 2;
            b.units[2].formation = Formation::Line;
            b
        };
        let mut rules = Rules::default();
        rules.ai.charge_candidates = 1;
        let charged = |rules: &Rules| {
            let mut b = board();
            play_with(&OPEN, &mut b, &[(Phase::Charge, 0)], &AiGoals::default(), rules)
        };
        assert_eq!(charged(&rules), vec![Order::Charge { unit: "fr-cav".into(), target: "ru-small".into() }]);
        rules.ai.charge_screen_disordered = 5_000;
        assert_eq!(charged(&rules), vec![Order::Charge { unit: "fr-cav".into(), target: "ru-shaken".into() }]);
    }

    #[test]
    fn ai_moves_towards_an_unheld_objective() {
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (2, 10)), unit("ru", 1, Arm::Infantry, (0, 0))] };
        let goal = Offset::new(10, 8);
        let goals = AiGoals { objectives: vec![(goal, 10, None)], ..AiGoals::default() };
        let before = at(&board, "fr").distance(goal);
        // The far enemy would be hunted (`hunt.rs`); not here, where the
        // objective is what is tested.
        let mut unhunted = Rules::default();
        unhunted.ai.hunters_max = 0;
        play_with(&OPEN, &mut board, &[(Phase::Movement, 0)], &goals, &unhunted);
        let after = at(&board, "fr").distance(goal);
        assert!(after + 4 <= before, "marched 4+ hexes towards the objective: {before} -> {after}");

        // Once on it, it holds it.
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (10, 8)), unit("ru", 1, Arm::Infantry, (0, 0))] };
        let goals = AiGoals { objectives: vec![(goal, 10, Some(0))], ..AiGoals::default() };
        play(&OPEN, &mut board, &[(Phase::Movement, 0)], &goals);
        assert_eq!(at(&board, "fr"), goal);
    }

    #[test]
    fn the_mended_ai_goes_for_the_nearer_of_an_objective_and_the_enemy() {
        // An objective twelve hexes north, beyond a move, the enemy four
        // south. The easy AI counts the enemy seven MP farther than it is
        // (the objective bias at a = 0.5) and marches north; the mended
        // one keeps none of the bias (`normal_bias_share`) and goes for
        // the nearer enemy.
        let rows = ["............"; 20];
        let run = |level| {
            let mut b =
                Board { units: vec![unit("fr", 0, Arm::Infantry, (6, 12)), unit("ru", 1, Arm::Infantry, (6, 16))] };
            let goals = AiGoals { objectives: vec![(Offset::new(6, 0), 10, None)], level, ..AiGoals::default() };
            play(&rows, &mut b, &[(Phase::Movement, 0)], &goals);
            at(&b, "fr")
        };
        assert!(run(AiLevel::Easy).r < 12, "easy makes for the objective: {}", run(AiLevel::Easy));
        assert!(run(AiLevel::Normal).r > 12, "normal makes for the enemy: {}", run(AiLevel::Normal));
    }

    #[test]
    fn a_cautious_side_secures_its_objective_first_then_goes_for_the_nearer_enemy() {
        // As above, but the side is cautious (a = 0.3, below
        // `normal_bias_below`): in the opening `normal_bias_until` (three
        // tenths) of the battle the mended AI keeps the whole objective
        // bias, as `easy` does, and marches on the objective; later it
        // goes for the nearer enemy. A side of a = 0.5 goes for the enemy
        // from the first turn.
        let rows = ["............"; 20];
        let run = |aggression, progress| {
            let mut b =
                Board { units: vec![unit("fr", 0, Arm::Infantry, (6, 12)), unit("ru", 1, Arm::Infantry, (6, 16))] };
            let goals = AiGoals {
                objectives: vec![(Offset::new(6, 0), 10, None)],
                level: AiLevel::Normal,
                aggression,
                progress,
                ..AiGoals::default()
            };
            play(&rows, &mut b, &[(Phase::Movement, 0)], &goals);
            at(&b, "fr").r
        };
        assert!(run(0.3, 0.1) < 12, "early on the cautious side makes for the objective: {}", run(0.3, 0.1));
        assert!(run(0.3, 0.3) < 12, "up to three tenths of the battle: {}", run(0.3, 0.3));
        assert!(run(0.3, 0.4) > 12, "later it makes for the enemy: {}", run(0.3, 0.4));
        assert!(run(0.5, 0.1) > 12, "a bolder side makes for the enemy at once: {}", run(0.5, 0.1));
    }

    #[test]
    fn the_objective_bias_kept_follows_the_level_the_temper_and_the_turn() {
        let r = AiRules::default();
        let full = Tuning::new(0.3, &r).objective_bias;
        assert!(full > 0, "a cautious side has a bias to keep");
        assert_eq!(Tuning::at_level(0.3, &r, AiLevel::Normal, 0.2).objective_bias, full);
        assert_eq!(Tuning::at_level(0.3, &r, AiLevel::Normal, 0.5).objective_bias, 0);
        assert_eq!(Tuning::at_level(0.4, &r, AiLevel::Normal, 0.2).objective_bias, 0, "0.4 is not below 0.4");
        assert_eq!(Tuning::at_level(0.3, &r, AiLevel::Easy, 0.9).objective_bias, full, "easy keeps it all");
        assert_eq!(Tuning::at_level(0.3, &r, AiLevel::Hard, 0.2).objective_bias, full, "hard plays normal's way");
        let never = AiRules { normal_bias_below: 0.0, ..AiRules::default() };
        assert_eq!(Tuning::at_level(0.3, &never, AiLevel::Normal, 0.0).objective_bias, 0);
    }

    #[test]
    fn ai_keeps_a_reserve() {
        let units = || Board {
            units: vec![
                unit("fr-a", 0, Arm::Infantry, (3, 7)),
                unit("fr-b", 0, Arm::Infantry, (5, 7)),
                unit("fr-c", 0, Arm::Infantry, (7, 7)),
                unit("fr-reserve", 0, Arm::Infantry, (5, 10)),
                unit("ru", 1, Arm::Infantry, (5, 2)),
            ],
        };
        let mut board = units();
        play(&OPEN, &mut board, &[(Phase::Movement, 0)], &AiGoals::default());
        assert_eq!(at(&board, "fr-reserve"), Offset::new(5, 10), "the rearmost quarter stays");
        assert_ne!(at(&board, "fr-b"), Offset::new(5, 7), "the rest advance");

        // A reckless side commits everything.
        let mut board = units();
        play(&OPEN, &mut board, &[(Phase::Movement, 0)], &AiGoals { aggression: 1.0, ..AiGoals::default() });
        assert_ne!(at(&board, "fr-reserve"), Offset::new(5, 10));

        // A threatened objective calls the reserve up.
        let mut board = units();
        let goals = AiGoals { objectives: vec![(Offset::new(9, 5), 10, Some(0))], ..AiGoals::default() };
        board.units[4].at = Some(Offset::new(9, 2));
        let start = at(&board, "fr-reserve").distance(Offset::new(9, 5));
        play(&OPEN, &mut board, &[(Phase::Movement, 0)], &goals);
        assert!(at(&board, "fr-reserve").distance(Offset::new(9, 5)) < start);
    }

    #[test]
    fn ai_turns_its_front_to_an_enemy_on_its_flank_or_rear() {
        // A garrison on an objective faces north; the enemy comes from the
        // south, then from the east.
        let held = AiGoals { objectives: vec![(Offset::new(5, 3), 1, Some(0))], ..AiGoals::default() };
        for (enemy, facing) in [((5, 7), Dir::S), ((9, 4), Dir::SE)] {
            let mut board =
                Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 3)), unit("ru", 1, Arm::Infantry, enemy)] };
            let orders = play(&OPEN, &mut board, &[(Phase::Movement, 0)], &held);
            assert_eq!(at(&board, "fr"), Offset::new(5, 3), "the garrison stands");
            assert_eq!(orders.last(), Some(&Order::Face { unit: "fr".into(), facing }), "{orders:?}");
            assert_eq!(board.units[0].facing, facing);
            let to = Offset::new(5, 3).bearing_to(Offset::new(enemy.0, enemy.1));
            assert!(front_sides(board.units[0].facing).contains(&to));
        }
        // An enemy already in front, or beyond `face_within`: no turn.
        for (enemy, rules) in [
            ((6, 0), Rules::default()),
            ((5, 7), {
                let mut r = Rules::default();
                r.ai.face_within = 3;
                r
            }),
        ] {
            let mut board =
                Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 3)), unit("ru", 1, Arm::Infantry, enemy)] };
            let orders = play_with(&OPEN, &mut board, &[(Phase::Movement, 0)], &held, &rules);
            assert!(!orders.iter().any(|o| matches!(o, Order::Face { .. })), "{orders:?}");
            assert_eq!(board.units[0].facing, Dir::N);
        }
    }

    #[test]
    fn ai_disordered_units_fall_back() {
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 6)), unit("ru", 1, Arm::Infantry, (5, 2))] };
        board.units[0].state = State::Disordered;
        play(&OPEN, &mut board, &[(Phase::Movement, 0)], &AiGoals::default());
        assert!(at(&board, "fr").distance(Offset::new(5, 2)) > 4, "went back: {}", at(&board, "fr"));

        // So do units of a broken corps, in good order or not.
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 6)), unit("ru", 1, Arm::Infantry, (5, 2))] };
        play(&OPEN, &mut board, &[(Phase::Movement, 0)], &AiGoals { broken: vec![true, false], ..AiGoals::default() });
        assert!(at(&board, "fr").distance(Offset::new(5, 2)) > 4);

        // Unless the planning AI holds it where it stands; a disordered
        // unit of the same corps falls back whatever its script.
        for (state, stays) in [(State::GoodOrder, true), (State::Disordered, false)] {
            let mut board =
                Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 6)), unit("ru", 1, Arm::Infantry, (5, 2))] };
            board.units[0].state = state;
            let held = AiGoals {
                broken: vec![true, false],
                level: AiLevel::Hard,
                scripts: vec![Script::Hold, Script::Advance],
                ..AiGoals::default()
            };
            play(&OPEN, &mut board, &[(Phase::Movement, 0)], &held);
            assert_eq!(at(&board, "fr") == Offset::new(5, 6), stays, "{state:?}: {}", at(&board, "fr"));
        }
        // Held, it stands as any held unit does: in square with enemy
        // horse near.
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 6)), unit("ru", 1, Arm::Cavalry, (5, 4))] };
        let held =
            AiGoals { broken: vec![true, false], scripts: vec![Script::Hold, Script::Advance], ..AiGoals::default() };
        play(&OPEN, &mut board, &[(Phase::Movement, 0)], &held);
        assert_eq!(at(&board, "fr"), Offset::new(5, 6));
        assert_eq!(board.units[0].formation, Formation::Square);
    }

    #[test]
    fn ai_marches_in_column_and_deploys_into_line_near_the_enemy() {
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 11)), unit("ru", 1, Arm::Infantry, (5, 0))] };
        board.units[0].formation = Formation::Line;
        let orders = play(&OPEN, &mut board, &[(Phase::Movement, 0)], &AiGoals::default());
        assert_eq!(orders[0], Order::Formation { unit: "fr".into(), to: Formation::Column });
        assert!(matches!(orders[1], Order::Move { .. }));

        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 5)), unit("ru", 1, Arm::Infantry, (5, 2))] };
        play(&OPEN, &mut board, &[(Phase::Movement, 0)], &AiGoals::default());
        assert_eq!(board.units[0].formation, Formation::Line, "deployed near the enemy");
    }

    #[test]
    fn ai_guns_unlimber_in_range_and_limber_to_move() {
        let mut board =
            Board { units: vec![unit("fr-guns", 0, Arm::Artillery, (5, 7)), unit("ru", 1, Arm::Infantry, (5, 3))] };
        let orders = play(&OPEN, &mut board, &[(Phase::Movement, 0)], &AiGoals::default());
        assert_eq!(orders, vec![Order::Limber { unit: "fr-guns".into(), limbered: false }]);

        let rows = ["......"; 24];
        let mut board =
            Board { units: vec![unit("fr-guns", 0, Arm::Artillery, (3, 22)), unit("ru", 1, Arm::Infantry, (3, 0))] };
        board.units[0].limbered = false;
        let orders = play(&rows, &mut board, &[(Phase::Movement, 0)], &AiGoals::default());
        assert_eq!(orders[0], Order::Limber { unit: "fr-guns".into(), limbered: true });
        assert!(matches!(orders[1], Order::Move { .. }));
    }

    const EASY: AiGoals = AiGoals {
        objectives: Vec::new(),
        aggression: 0.5,
        broken: Vec::new(),
        exits: Vec::new(),
        level: AiLevel::Easy,
        scripts: Vec::new(),
        foresight: None,
        progress: 0.0,
    };

    #[test]
    fn ai_melees_shaken_or_outmatched_enemies_only() {
        // The easy AI attacks a disordered battalion whatever it costs.
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 6)), unit("ru", 1, Arm::Infantry, (5, 5))] };
        board.units[0].formation = Formation::Line;
        board.units[1].state = State::Disordered;
        let orders = play(&OPEN, &mut board, &[(Phase::Melee, 0)], &EASY);
        assert_eq!(orders, vec![Order::Melee { units: vec!["fr".into()], target: "ru".into() }]);

        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 6)), unit("ru", 1, Arm::Infantry, (5, 5))] };
        board.units[0].formation = Formation::Line;
        board.units[1].strength = 12;
        let orders = play(&OPEN, &mut board, &[(Phase::Melee, 0)], &EASY);
        assert!(orders.is_empty(), "1:2 is not worth it: {orders:?}");

        // Two battalions together make it 2:1.
        let mut board = Board {
            units: vec![
                unit("fr-a", 0, Arm::Infantry, (5, 6)),
                unit("fr-b", 0, Arm::Infantry, (4, 5)),
                unit("ru", 1, Arm::Infantry, (5, 5)),
            ],
        };
        board.units[2].strength = 6;
        board.units[0].strength = 6;
        board.units[1].strength = 6;
        let orders = play(&OPEN, &mut board, &[(Phase::Melee, 0)], &EASY);
        assert_eq!(orders, vec![Order::Melee { units: vec!["fr-a".into(), "fr-b".into()], target: "ru".into() }]);
    }

    #[test]
    fn the_mended_ai_attacks_a_shaken_enemy_only_when_its_own_check_leaves_it_worth_it() {
        // One battalion against a disordered one as strong. Its own
        // pre-melee check (docs/rules.md 1.9) is passed on 21 of 36 rolls
        // at morale 33 and 30 at morale 16: the steady one goes in, the
        // shaky one, more likely to fail and fall into disorder than to
        // win, stays its hand. The easy AI attacks with both.
        let duel = |morale: u8, goals: &AiGoals| {
            let mut board =
                Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 6)), unit("ru", 1, Arm::Infantry, (5, 5))] };
            board.units[0].formation = Formation::Line;
            board.units[0].morale = morale;
            board.units[1].state = State::Disordered;
            play(&OPEN, &mut board, &[(Phase::Melee, 0)], goals)
        };
        let attack = vec![Order::Melee { units: vec!["fr".into()], target: "ru".into() }];
        assert_eq!(duel(16, &AiGoals::default()), attack, "a steady battalion goes in");
        assert!(duel(33, &AiGoals::default()).is_empty(), "a shaky one does not: {:?}", duel(33, &AiGoals::default()));
        assert_eq!(duel(33, &EASY), attack, "the easy AI goes in whatever it costs");
    }

    #[test]
    fn hold_stands_and_fires_and_never_charges_marches_on_or_attacks() {
        let hold = AiGoals { level: AiLevel::Hold, ..AiGoals::default() };
        // The charge `Normal` makes at a disordered battalion.
        let charge = || {
            let mut b = Board {
                units: vec![unit("fr-cav", 0, Arm::Cavalry, (5, 8)), unit("ru-shaken", 1, Arm::Infantry, (7, 4))],
            };
            b.units[1].state = State::Disordered;
            b
        };
        let normal = play(&OPEN, &mut charge(), &[(Phase::Charge, 0)], &AiGoals::default());
        assert_eq!(normal, vec![Order::Charge { unit: "fr-cav".into(), target: "ru-shaken".into() }]);
        assert!(play(&OPEN, &mut charge(), &[(Phase::Charge, 0)], &hold).is_empty(), "hold does not charge");
        // The melee `Normal` fights: a steady battalion against a
        // disordered neighbour.
        let melee = || {
            let mut b =
                Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 6)), unit("ru", 1, Arm::Infantry, (5, 5))] };
            b.units[0].formation = Formation::Line;
            b.units[0].morale = 16;
            b.units[1].state = State::Disordered;
            b
        };
        assert!(!play(&OPEN, &mut melee(), &[(Phase::Melee, 0)], &AiGoals::default()).is_empty());
        assert!(play(&OPEN, &mut melee(), &[(Phase::Melee, 0)], &hold).is_empty(), "hold does not attack");
        // A battalion far from the enemy: `Normal` marches on, `Hold` stands.
        let far = || Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 11)), unit("ru", 1, Arm::Infantry, (5, 2))] };
        let rows = ["..........."; 14];
        let mut marched = far();
        play(&rows, &mut marched, &[(Phase::Movement, 0)], &AiGoals::default());
        assert_ne!(at(&marched, "fr"), Offset::new(5, 11), "normal marches on");
        let mut held = far();
        play(&rows, &mut held, &[(Phase::Movement, 0)], &hold);
        assert_eq!(at(&held, "fr"), Offset::new(5, 11), "hold stands");
        // In range, it fires as `Normal` does.
        let duel = || Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 6)), unit("ru", 1, Arm::Infantry, (5, 4))] };
        let fired = play(&OPEN, &mut duel(), &[(Phase::OffensiveFire, 0)], &hold);
        assert_eq!(fired, play(&OPEN, &mut duel(), &[(Phase::OffensiveFire, 0)], &AiGoals::default()));
        assert!(!fired.is_empty(), "hold fires");
    }

    #[test]
    fn each_script_moves_its_units_as_it_says() {
        // Two battalions of one side 9 hexes from the enemy, an objective
        // to take off to the east; each script given to the first alone.
        let board = Board {
            units: vec![
                unit("fr-a", 0, Arm::Infantry, (3, 11)),
                unit("fr-b", 0, Arm::Infantry, (5, 11)),
                unit("ru", 1, Arm::Infantry, (3, 2)),
            ],
        };
        let rows = ["..............."; 14];
        let objective = Offset::new(13, 11);
        let moved = |script: Script| {
            let goals = AiGoals {
                objectives: vec![(objective, 5, None)],
                scripts: vec![script, Script::Advance],
                ..AiGoals::default()
            };
            let mut b = board.clone();
            // No battalion hunts the far enemy (`hunt.rs`): each goes by
            // its script alone.
            let mut unhunted = Rules::default();
            unhunted.ai.hunters_max = 0;
            play_with(&rows, &mut b, &[(Phase::Movement, 0)], &goals, &unhunted);
            (at(&b, "fr-a"), at(&b, "fr-b"))
        };
        let start = Offset::new(3, 11);
        let enemy = Offset::new(3, 2);
        let (advance, b_advance) = moved(Script::Advance);
        assert!(advance.distance(enemy) < start.distance(enemy), "advance closes on the enemy: {advance:?}");
        let (hold, b_hold) = moved(Script::Hold);
        assert_eq!(hold, start, "hold stands");
        assert_eq!(b_hold, b_advance, "the other battalion's script is its own");
        let (withdraw, _) = moved(Script::Withdraw);
        assert!(withdraw.distance(enemy) >= start.distance(enemy), "withdraw keeps away: {withdraw:?}");
        let (objective_way, _) = moved(Script::Objective);
        assert!(
            objective_way.distance(objective) < start.distance(objective)
                && objective_way.distance(enemy) >= advance.distance(enemy),
            "objective makes for the village, not the enemy: {objective_way:?}"
        );
        let (assault, _) = moved(Script::Assault);
        assert!(assault.distance(enemy) <= advance.distance(enemy), "assault goes at least as far: {assault:?}");
    }

    #[test]
    fn a_broken_corps_keeps_its_good_order_garrison_at_normal_and_not_at_easy() {
        let goals = |level| AiGoals {
            objectives: vec![(Offset::new(5, 6), 10, Some(0))],
            broken: vec![true, false],
            level,
            ..AiGoals::default()
        };
        let board = Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 6)), unit("ru", 1, Arm::Infantry, (5, 2))] };
        let mut easy = board.clone();
        play(&OPEN, &mut easy, &[(Phase::Movement, 0)], &goals(AiLevel::Easy));
        assert_ne!(at(&easy, "fr"), Offset::new(5, 6), "the easy AI falls back off the village");
        let mut normal = board.clone();
        play(&OPEN, &mut normal, &[(Phase::Movement, 0)], &goals(AiLevel::Normal));
        assert_eq!(at(&normal, "fr"), Offset::new(5, 6), "the garrison holds");
        // A disordered garrison still falls back to rally.
        let mut shaken = board.clone();
        shaken.units[0].state = State::Disordered;
        play(&OPEN, &mut shaken, &[(Phase::Movement, 0)], &goals(AiLevel::Normal));
        assert_ne!(at(&shaken, "fr"), Offset::new(5, 6));
    }

    #[test]
    fn the_mended_ai_does_not_fall_back_to_where_a_rout_runs_off_the_map() {
        // A disordered battalion falls back away from the enemy, towards
        // its own rear edge, on a map two hexes wide: near the edge there
        // are too few hexes left for a ten-hex rout, which then runs off.
        let rows = [".."; 22];
        let board = Board { units: vec![unit("fr", 0, Arm::Infantry, (0, 13)), unit("ru", 1, Arm::Infantry, (0, 8))] };
        let leaves = |b: &Board| !matches!(rout_preview_on(&rows, b, 0).end, RoutEnd::Full);
        let run = |level| {
            let mut b = board.clone();
            b.units[0].state = State::Disordered;
            play(&rows, &mut b, &[(Phase::Movement, 0)], &AiGoals { level, ..AiGoals::default() });
            b
        };
        let (easy, normal) = (run(AiLevel::Easy), run(AiLevel::Normal));
        assert!(
            leaves(&easy),
            "the easy AI goes back as far as it can, {}, where a rout leaves the map",
            at(&easy, "fr")
        );
        assert!(!leaves(&normal), "the mended AI stops at {}, where a rout stays on the map", at(&normal, "fr"));
        assert!(at(&normal, "fr").r > 13, "and still went back: {}", at(&normal, "fr"));
    }

    #[test]
    fn the_mended_ai_keeps_out_of_the_rout_lane_of_a_friend_near_the_enemy() {
        // A battalion stands three hexes from the enemy (held there by its
        // script); a second comes up the road behind it. The first one's
        // rout would run down the road, the cheapest ground: `Easy` marches
        // the second up the road into that lane, where the rout would put
        // it to a contagion check (1.4), and stacks with the first, which
        // its rout would check as it leaves; `Normal` comes up off the road.
        let rows = [".....r......"; 18];
        let board = Board {
            units: vec![
                unit("front", 0, Arm::Infantry, (5, 5)),
                unit("back", 0, Arm::Infantry, (5, 17)),
                unit("ru", 1, Arm::Infantry, (5, 1)),
            ],
        };
        let lane = rout_preview_on(&rows, &board, 0).path;
        let run = |level| {
            let mut b = board.clone();
            let goals =
                AiGoals { level, scripts: vec![Script::Hold, Script::Advance, Script::Advance], ..AiGoals::default() };
            play(&rows, &mut b, &[(Phase::Movement, 0)], &goals);
            (at(&b, "front"), at(&b, "back"))
        };
        let (easy, normal) = (run(AiLevel::Easy), run(AiLevel::Normal));
        assert_eq!((easy.0, normal.0), (Offset::new(5, 5), Offset::new(5, 5)), "the first holds");
        assert!(lane.contains(&easy.1), "easy comes up in the lane {lane:?}: {}", easy.1);
        assert!(!lane.contains(&normal.1), "normal keeps out of the lane {lane:?}: {}", normal.1);
        let enemy = Offset::new(5, 1);
        assert!(normal.1.distance(enemy) + 8 < Offset::new(5, 17).distance(enemy), "and still came up: {}", normal.1);
    }

    #[test]
    fn the_mended_ai_fires_at_the_target_whose_rout_would_spread() {
        // Two enemy battalions alike, both in reach; a friend of the second
        // shares its hex, and its rout would put that friend to a contagion
        // check as it leaves (1.4). With the weight at 0 the first listed is
        // the target (a tie); at `Normal`'s default the second is.
        let rows = OPEN;
        let board = Board {
            units: vec![
                unit("fr", 0, Arm::Infantry, (4, 7)),
                unit("ru-alone", 1, Arm::Infantry, (2, 6)),
                unit("ru-front", 1, Arm::Infantry, (6, 6)),
                unit("ru-beside", 1, Arm::Infantry, (6, 6)),
            ],
        };
        let target = |weight: f32| {
            let mut rules = Rules::default();
            rules.ai.volley_contagion_weight = weight;
            let mut b = board.clone();
            let orders = play_with(&rows, &mut b, &[(Phase::OffensiveFire, 0)], &AiGoals::default(), &rules);
            match orders.first() {
                Some(Order::Fire { target, .. }) => target.clone(),
                other => panic!("no volley: {other:?}"),
            }
        };
        assert_eq!(target(0.0), "ru-alone");
        assert_eq!(target(Rules::default().ai.volley_contagion_weight), "ru-front");
        let easy = {
            let mut b = board.clone();
            let goals = AiGoals { level: AiLevel::Easy, ..AiGoals::default() };
            play(&rows, &mut b, &[(Phase::OffensiveFire, 0)], &goals)
        };
        assert!(matches!(easy.first(), Some(Order::Fire { target, .. }) if target == "ru-alone"), "{easy:?}");
    }

    #[test]
    fn the_mended_ai_charges_the_target_whose_rout_would_spread() {
        // Three battalions in line alike (morale 35, two increments), all in
        // the horse's reach: one alone, two stacked. The stack is the harder
        // charge, but its front battalion's rout would put the other to a
        // contagion check as it leaves the hex (1.4). By its chance alone
        // (the weight at 0, or `easy`) the lone battalion is charged; at
        // `Normal`'s default the stack is.
        let board = || {
            let mut b = Board {
                units: vec![
                    unit("fr-cav", 0, Arm::Cavalry, (5, 8)),
                    unit("ru-alone", 1, Arm::Infantry, (3, 5)),
                    unit("ru-front", 1, Arm::Infantry, (7, 5)),
                    unit("ru-beside", 1, Arm::Infantry, (7, 5)),
                ],
            };
            for u in &mut b.units[1..] {
                u.formation = Formation::Line;
                u.morale = 35;
                u.strength = 2;
            }
            b
        };
        let charged = |level: AiLevel, weight: f32| {
            let mut rules = Rules::default();
            rules.ai.charge_contagion_weight = weight;
            let goals = AiGoals { level, ..AiGoals::default() };
            match play_with(&OPEN, &mut board(), &[(Phase::Charge, 0)], &goals, &rules).first() {
                Some(Order::Charge { target, .. }) => target.clone(),
                other => panic!("no charge: {other:?}"),
            }
        };
        let spread = rout_preview_on(&OPEN, &board(), 2).expected_failures();
        assert!(spread > 0.0, "the front battalion's rout tests its neighbour");
        assert_eq!(charged(AiLevel::Normal, 0.0), "ru-alone");
        assert_eq!(charged(AiLevel::Easy, 3.0), "ru-alone");
        assert_eq!(charged(AiLevel::Normal, Rules::default().ai.charge_contagion_weight), "ru-front");
    }

    #[test]
    fn ai_leaves_by_an_exit_that_pays_when_nothing_holds_it_back() {
        let goals = AiGoals { exits: vec![(Edge::North, 1)], ..AiGoals::default() };
        let board =
            || Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 0)), unit("ru", 1, Arm::Infantry, (5, 11))] };
        let mut b = board();
        let orders = play(&OPEN, &mut b, &[(Phase::Movement, 0)], &goals);
        assert_eq!(orders, vec![Order::Exit { unit: "fr".into(), edge: Edge::North }]);
        assert_eq!(b.units[0].at, None, "left the map");

        // No exit for the side, or one across another edge: it stays on the map.
        for exits in [vec![], vec![(Edge::South, 1)]] {
            let mut b = board();
            let orders = play(&OPEN, &mut b, &[(Phase::Movement, 0)], &AiGoals { exits, ..AiGoals::default() });
            assert!(!orders.iter().any(|o| matches!(o, Order::Exit { .. })), "{orders:?}");
            assert!(b.units[0].at.is_some());
        }

        // Needed to hold an objective on the edge: it holds.
        let mut b = board();
        let held = AiGoals { objectives: vec![(Offset::new(5, 0), 3, Some(0))], ..goals.clone() };
        let orders = play(&OPEN, &mut b, &[(Phase::Movement, 0)], &held);
        assert!(orders.is_empty(), "the garrison stays: {orders:?}");
        assert_eq!(at(&b, "fr"), Offset::new(5, 0));

        // Disordered: it falls back instead.
        let mut b = board();
        b.units[0].state = State::Disordered;
        let orders = play(&OPEN, &mut b, &[(Phase::Movement, 0)], &goals);
        assert!(!orders.iter().any(|o| matches!(o, Order::Exit { .. })), "{orders:?}");

        // Worth less than `rules.ai.exit_min_points`: 2 increments at 1
        // point earn 2, not the 3 asked for.
        let mut b = board();
        b.units[0].strength = 2;
        let mut rules = Rules::default();
        rules.ai.exit_min_points = 3;
        let orders = play_with(&OPEN, &mut b, &[(Phase::Movement, 0)], &goals, &rules);
        assert!(!orders.iter().any(|o| matches!(o, Order::Exit { .. })), "{orders:?}");
        // At 2 points an increment they earn 4 and go.
        let mut b = board();
        b.units[0].strength = 2;
        let dear = AiGoals { exits: vec![(Edge::North, 2)], ..AiGoals::default() };
        let orders = play_with(&OPEN, &mut b, &[(Phase::Movement, 0)], &dear, &rules);
        assert_eq!(orders, vec![Order::Exit { unit: "fr".into(), edge: Edge::North }]);
    }

    #[test]
    fn ai_sends_a_share_of_its_attackers_to_the_exits() {
        // Four battalions face an enemy to the south; the exit is the north
        // edge. A reckless side keeps no reserve, and a quarter of four
        // attackers is one: the one nearest the exit, which marches there
        // and leaves in the same phase.
        let units = || Board {
            units: vec![
                unit("fr-a", 0, Arm::Infantry, (2, 5)),
                unit("fr-b", 0, Arm::Infantry, (4, 5)),
                unit("fr-c", 0, Arm::Infantry, (6, 5)),
                unit("fr-north", 0, Arm::Infantry, (8, 1)),
                unit("ru", 1, Arm::Infantry, (5, 11)),
            ],
        };
        let goals = AiGoals { exits: vec![(Edge::North, 1)], aggression: 1.0, ..AiGoals::default() };
        let mut b = units();
        let orders = play(&OPEN, &mut b, &[(Phase::Movement, 0)], &goals);
        let exits: Vec<&Order> = orders.iter().filter(|o| matches!(o, Order::Exit { .. })).collect();
        assert_eq!(exits, [&Order::Exit { unit: "fr-north".into(), edge: Edge::North }], "{orders:?}");
        for id in ["fr-a", "fr-b", "fr-c"] {
            assert!(at(&b, id).r > 5, "{id} went for the enemy: {}", at(&b, id));
        }

        // With no share for the exits, it goes for the enemy like the rest.
        let mut rules = Rules::default();
        rules.ai.exit_share = 0.0;
        let mut b = units();
        let orders = play_with(&OPEN, &mut b, &[(Phase::Movement, 0)], &goals, &rules);
        assert!(!orders.iter().any(|o| matches!(o, Order::Exit { .. })), "{orders:?}");
        assert!(at(&b, "fr-north").r > 1, "{}", at(&b, "fr-north"));
    }

    fn generated() -> (Vec<String>, Board) {
        let map = crate::generate::terrain(40, 40, 5);
        let rows = crate::generate::map_rows(&map);
        let units = crate::generate::deployment(&map, 200, 5)
            .into_iter()
            .enumerate()
            .map(|(i, (side, arm, o))| unit(&format!("u{i}"), side, arm, (o.c, o.r)))
            .collect();
        (rows, Board { units })
    }

    const TURN: [(Phase, usize); 5] = [
        (Phase::Charge, 0),
        (Phase::Movement, 0),
        (Phase::DefensiveFire, 1),
        (Phase::OffensiveFire, 0),
        (Phase::Melee, 0),
    ];

    #[test]
    fn ai_is_deterministic() {
        let (rows, board) = generated();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let goals = AiGoals { objectives: vec![(Offset::new(20, 20), 10, None)], ..AiGoals::default() };
        let mut a = board.clone();
        let mut b = board.clone();
        let rules = Rules::default();
        let (oa, la) = play_logged(&rows, &mut a, &TURN, &goals, 11, &rules);
        let (ob, lb) = play_logged(&rows, &mut b, &TURN, &goals, 11, &rules);
        assert!(oa.len() > 50, "a generated battle gives plenty of orders: {}", oa.len());
        assert_eq!(oa, ob);
        assert_eq!(la, lb);
        assert_eq!(a, b);
    }
}
