//! Dice: one seeded, named generator (ChaCha8) for the whole game, with
//! scripted results (`--dice`) consumed first, in order. The planning AI's
//! continuations roll instead from a stream per unit and purpose
//! ([`Dice::by_unit`]).

use std::collections::{HashMap, VecDeque};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::whatif::seeds::run_seed;

/// A d66 result: two six-sided dice read as tens and units (docs/rules.md 1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct D66 {
    pub tens: u8,
    pub units: u8,
}

impl D66 {
    /// From a printed d66 number such as 32; `None` if a digit is not 1..=6.
    pub fn from_value(v: u32) -> Option<D66> {
        let (t, u) = (v / 10, v % 10);
        ((1..=6).contains(&t) && (1..=6).contains(&u) && v < 100).then_some(D66 { tens: t as u8, units: u as u8 })
    }

    pub fn value(self) -> u8 {
        self.tens * 10 + self.units
    }

    /// Position on the ordered list of the 36 results: 11 -> 7, 66 -> 42.
    pub fn ordinal(self) -> i32 {
        6 * self.tens as i32 + self.units as i32
    }

    fn from_ordinal(o: i32) -> D66 {
        let o = o.clamp(7, 42);
        D66 { tens: ((o - 1) / 6) as u8, units: ((o - 1) % 6 + 1) as u8 }
    }

    /// La Bataille modifier arithmetic (docs/rules.md 1.1): a modifier moves the
    /// roll along the ordered results, clamped to 11..=66; -6 is one whole
    /// tens step, -3 half a row.
    pub fn modified(self, modifier: i32) -> D66 {
        D66::from_ordinal(self.ordinal() + modifier)
    }
}

/// The outcome of one morale check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoraleRoll {
    pub morale: u8,
    pub modifier: i32,
    /// The natural roll.
    pub roll: D66,
    /// The roll after modifiers.
    pub result: D66,
    pub passed: bool,
}

/// La Bataille morale check (docs/rules.md 1.1): passes when the modified roll is
/// strictly greater than the morale value. With `natural_extremes` (the
/// rules switch of that name, house default on) a natural 11 always fails
/// and a natural 66 always passes, whatever the modifiers.
pub fn morale_check(morale: u8, modifier: i32, roll: D66, natural_extremes: bool) -> MoraleRoll {
    let result = roll.modified(modifier);
    let passed = match roll.value() {
        11 if natural_extremes => false,
        66 if natural_extremes => true,
        _ => result.value() > morale,
    };
    MoraleRoll { morale, modifier, roll, result, passed }
}

/// The smallest natural d66 roll that passes a check of `morale` with
/// `modifier` (docs/rules.md 1.1); `None` if none does (possible only without
/// natural extremes: a routed unit of morale 56 or more never recovers).
pub fn needed_roll(morale: u8, modifier: i32, natural_extremes: bool) -> Option<D66> {
    first_roll(morale, modifier, natural_extremes, true)
}

/// The smallest natural d66 roll whose check of `morale` with `modifier`
/// passes (`passes`) or fails (otherwise).
fn first_roll(morale: u8, modifier: i32, natural_extremes: bool, passes: bool) -> Option<D66> {
    all_d66().find(|&roll| morale_check(morale, modifier, roll, natural_extremes).passed == passes)
}

/// The 36 d66 rolls, 11 to 66.
fn all_d66() -> impl Iterator<Item = D66> {
    (1..=6).flat_map(|t| (1..=6).map(move |u| D66 { tens: t, units: u }))
}

/// Chance a d66 morale check passes (docs/rules.md 1.1), counting the 36 rolls.
pub fn pass_chance(morale: u8, modifier: i32, natural_extremes: bool) -> f32 {
    let pass = all_d66().filter(|&roll| morale_check(morale, modifier, roll, natural_extremes).passed).count();
    pass as f32 / 36.0
}

/// The game's dice. Same seed and script => same rolls, on every machine.
#[derive(Debug)]
pub struct Dice {
    seed: u64,
    rng: ChaCha8Rng,
    scripted: VecDeque<u32>,
    rolled: u64,
    /// For the odds (docs/rules.md 1.9): the units whose morale checks
    /// follow the script; every other unit's check goes its likelier way
    /// without a roll of the script ([`Dice::check_d66`]).
    likelier_but: Option<Vec<usize>>,
    /// How many checks went their likelier way so.
    likelier: u64,
    /// For the planning AI's continuations ([`Dice::by_unit`]): how many
    /// rolls each unit's own stream has given, by what they were for.
    by_unit: Option<HashMap<(usize, Roll), u32>>,
}

/// What a roll tied to a unit is for ([`Dice::d66_for`]): each has a
/// stream of its own per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Roll {
    /// The unit's morale check.
    Check,
    /// A volley at the unit.
    FireAt,
    /// A melee on the unit's hex.
    MeleeAt,
}

impl Dice {
    pub fn new(seed: u64, scripted: Vec<u32>) -> Self {
        Self {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            scripted: scripted.into(),
            rolled: 0,
            likelier_but: None,
            likelier: 0,
            by_unit: None,
        }
    }

    /// Dice whose rolls tied to a unit ([`Dice::d66_for`], the morale
    /// checks) come from that unit's own stream: its n-th check is the
    /// same roll whatever else was rolled before it. Two continuations
    /// from one seed that differ in one unit's orders then share the luck
    /// of everything that unit's orders did not touch, so the planning
    /// AI compares choices, not dice (docs/rules.md "Hard"). Each roll is
    /// still a fair, independent d66.
    pub fn by_unit(mut self) -> Self {
        self.by_unit = Some(HashMap::new());
        self
    }

    /// Dice for the odds: the script gives the checks of `scripted_units`
    /// only, and every other unit's check goes its likelier way (a pass
    /// when passing is at least as likely), as if scripted with the first
    /// roll that makes it.
    pub fn likelier_but(mut self, scripted_units: Vec<usize>) -> Self {
        self.likelier_but = Some(scripted_units);
        self
    }

    /// Rolls made other than those sent their likelier way: the script's,
    /// then any past its end.
    pub fn rolled_to_script(&self) -> u64 {
        self.rolled - self.likelier
    }

    /// The d66 of unit `unit`'s morale check of `morale` at `modifier`:
    /// [`Dice::d66`], unless these are dice for the odds and the unit is
    /// not one whose checks the script gives ([`Dice::likelier_but`]).
    pub fn check_d66(&mut self, unit: usize, morale: u8, modifier: i32, natural_extremes: bool) -> D66 {
        if let Some(but) = &self.likelier_but
            && !but.contains(&unit)
        {
            self.rolled += 1;
            self.likelier += 1;
            // The likelier way always has a roll that makes it.
            let passes = pass_chance(morale, modifier, natural_extremes) >= 0.5;
            return first_roll(morale, modifier, natural_extremes, passes).unwrap_or(D66 { tens: 1, units: 1 });
        }
        self.d66_for(unit, Roll::Check)
    }

    /// A d66 roll tied to unit `unit` for `what`: from the unit's own
    /// stream for dice [`Dice::by_unit`], else [`Dice::d66`].
    pub fn d66_for(&mut self, unit: usize, what: Roll) -> D66 {
        match self.unit_stream(unit, what) {
            // 2^64 is so much more than 36 that the bias is nil.
            Some(h) => D66 { tens: (h % 6) as u8 + 1, units: ((h / 6) % 6) as u8 + 1 },
            None => self.d66(),
        }
    }

    /// A 3d6 total tied to unit `unit` for `what`: from the unit's own
    /// stream for dice [`Dice::by_unit`], else [`Dice::three_d6`].
    pub fn three_d6_for(&mut self, unit: usize, what: Roll) -> u32 {
        match self.unit_stream(unit, what) {
            Some(h) => (h % 6) as u32 + ((h / 6) % 6) as u32 + ((h / 36) % 6) as u32 + 3,
            None => self.three_d6(),
        }
    }

    /// The next value of unit `unit`'s stream for `what`, for dice
    /// [`Dice::by_unit`] with no script left; `None` otherwise.
    fn unit_stream(&mut self, unit: usize, what: Roll) -> Option<u64> {
        let counts = self.by_unit.as_mut().filter(|_| self.scripted.is_empty())?;
        self.rolled += 1;
        let n = counts.entry((unit, what)).or_insert(0);
        let key = ((unit as u64) << 34) ^ ((what as u64) << 32) ^ u64::from(*n);
        *n += 1;
        // SplitMix64 twice, the forecasts' mixing (`run_seed` of index 0).
        Some(run_seed(self.seed ^ run_seed(key, 0), 0))
    }

    /// How many rolls have been made so far.
    pub fn rolled(&self) -> u64 {
        self.rolled
    }

    /// Scripted results not yet used.
    pub fn scripted_left(&self) -> usize {
        self.scripted.len()
    }

    fn d6(&mut self) -> u32 {
        self.rng.random_range(1..=6)
    }

    /// A d66 roll: the next scripted value if any (validated when the script
    /// was read; an invalid entry is replaced by a generated roll), else two
    /// generated dice.
    pub fn d66(&mut self) -> D66 {
        self.rolled += 1;
        if let Some(v) = self.scripted.pop_front()
            && let Some(d) = D66::from_value(v)
        {
            return d;
        }
        let tens = self.d6() as u8;
        let units = self.d6() as u8;
        D66 { tens, units }
    }

    /// A 3d6 total (Belle Alliance): scripted first, else three dice.
    pub fn three_d6(&mut self) -> u32 {
        self.rolled += 1;
        if let Some(v) = self.scripted.pop_front()
            && (3..=18).contains(&v)
        {
            return v;
        }
        self.d6() + self.d6() + self.d6()
    }
}

/// The generator does not implement `Clone` (rand 0.10), so a copy is the
/// same seed wound on to the same point of the stream: undo snapshots use it.
impl Clone for Dice {
    fn clone(&self) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_word_pos(self.rng.get_word_pos());
        Self {
            seed: self.seed,
            rng,
            scripted: self.scripted.clone(),
            rolled: self.rolled,
            likelier_but: self.likelier_but.clone(),
            likelier: self.likelier,
            by_unit: self.by_unit.clone(),
        }
    }
}

/// Reads a `--dice` list ("11,36,66"); `d66` selects which values are legal.
pub fn parse_script(list: &str, d66: bool) -> Result<Vec<u32>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .enumerate()
        .map(|(i, s)| {
            let v: u32 = s.parse().map_err(|_| format!("--dice entry {} ({s:?}) is not a number", i + 1))?;
            let ok = if d66 { D66::from_value(v).is_some() } else { (3..=18).contains(&v) };
            if ok {
                Ok(v)
            } else if d66 {
                Err(format!("--dice entry {} ({v}) is not a d66 result (11..66, digits 1..6)", i + 1))
            } else {
                Err(format!("--dice entry {} ({v}) is not a 3d6 total (3..18)", i + 1))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(v: u32) -> D66 {
        D66::from_value(v).expect("d66")
    }

    #[test]
    fn dice_for_the_odds_send_other_units_checks_their_likelier_way() {
        // Unit 0's checks follow the script; unit 1's go their likelier
        // way without taking a scripted roll.
        let mut dice = Dice::new(7, vec![11, 66]).likelier_but(vec![0]);
        assert_eq!(dice.check_d66(0, 40, 0, true), d(11), "the script's first roll");
        // A roll must beat the morale: morale 20 is beaten by most rolls,
        // so the likelier way is a pass, made by the first roll that passes;
        // morale 50 by few, so it is a fail.
        assert!(pass_chance(20, 0, true) > 0.5 && pass_chance(50, 0, true) < 0.5);
        assert_eq!(dice.check_d66(1, 20, 0, true), needed_roll(20, 0, true).expect("a roll passes"));
        assert!(!morale_check(50, 0, dice.check_d66(1, 50, 0, true), true).passed);
        assert_eq!(dice.check_d66(0, 40, 0, true), d(66), "the script's second roll, untouched by unit 1's checks");
        assert_eq!(dice.rolled(), 4);
        assert_eq!(dice.rolled_to_script(), 2, "two of the four went their likelier way");
        // Ordinary dice roll every check as `d66` does.
        let (mut a, mut b) = (Dice::new(9, vec![]), Dice::new(9, vec![]));
        for _ in 0..20 {
            assert_eq!(a.check_d66(3, 40, 0, true), b.d66());
        }
    }

    #[test]
    fn dice_by_unit_give_each_unit_its_own_rolls_whatever_else_was_rolled() {
        // Unit 4's checks and the volleys at it come out the same whether
        // or not other units rolled first, and in any order between them.
        let mut a = Dice::new(11, vec![]).by_unit();
        let mut b = Dice::new(11, vec![]).by_unit();
        let first: Vec<D66> = (0..5).map(|_| a.d66_for(4, Roll::Check)).collect();
        for _ in 0..7 {
            b.d66_for(2, Roll::Check);
            b.d66_for(4, Roll::FireAt);
            b.three_d6_for(9, Roll::MeleeAt);
        }
        let then: Vec<D66> = (0..5).map(|_| b.check_d66(4, 40, 0, true)).collect();
        assert_eq!(first, then, "unit 4's own checks, untouched by the rolls of others");
        assert_ne!(
            a.d66_for(4, Roll::FireAt),
            a.d66_for(4, Roll::FireAt),
            "a stream moves on (these two differ for this seed)"
        );
        // Another seed, other rolls; each roll fair: every d66 result and
        // every 3d6 total turns up about as often as it should.
        let mut c = Dice::new(12, vec![]).by_unit();
        assert_ne!((0..5).map(|_| c.d66_for(4, Roll::Check)).collect::<Vec<_>>(), first);
        let mut seen = HashMap::new();
        for u in 0..360 {
            for _ in 0..100 {
                *seen.entry(c.d66_for(u, Roll::Check).value()).or_insert(0u32) += 1;
            }
        }
        assert_eq!(seen.len(), 36);
        assert!(
            seen.values().all(|&n| (900..1100).contains(&n)),
            "each of 36 results about 1,000 times in 36,000: {seen:?}"
        );
        let mean = (0..36_000).map(|i| c.three_d6_for(i % 50, Roll::FireAt)).sum::<u32>() as f64 / 36_000.0;
        assert!((mean - 10.5).abs() < 0.05, "3d6 averages 10.5: {mean}");
        // Dice not by unit roll from the one stream, as before.
        let (mut d, mut e) = (Dice::new(9, vec![]), Dice::new(9, vec![]));
        assert_eq!(d.d66_for(4, Roll::Check), e.d66());
        assert_eq!(d.three_d6_for(4, Roll::MeleeAt), e.three_d6());
    }

    /// The smallest natural roll that passes, found by trying all 36.
    fn needs(morale: u8, modifier: i32) -> u8 {
        let mut all: Vec<D66> = (1..=6).flat_map(|t| (1..=6).map(move |u| D66 { tens: t, units: u })).collect();
        all.sort();
        all.into_iter()
            .filter(|&r| r.value() != 66)
            .find(|&r| morale_check(morale, modifier, r, true).passed)
            .map_or(66, D66::value)
    }

    #[test]
    fn a_copy_of_the_dice_rolls_what_the_original_would() {
        let mut a = Dice::new(7, vec![36]);
        a.d66();
        a.d66();
        let mut b = a.clone();
        let ahead: Vec<u8> = (0..20).map(|_| a.d66().value()).collect();
        let copy: Vec<u8> = (0..20).map(|_| b.d66().value()).collect();
        assert_eq!(ahead, copy);
        assert_eq!(a.rolled(), b.rolled());
    }

    #[test]
    fn worked_checks_of_rule_1_1() {
        assert_eq!(needs(32, 0), 33, "good order");
        assert_eq!(needs(32, -3), 36, "disordered");
        assert_eq!(needs(32, -6), 43, "routed");
    }

    #[test]
    fn ordinals_run_from_7_to_42() {
        assert_eq!(d(11).ordinal(), 7);
        assert_eq!(d(66).ordinal(), 42);
        assert_eq!(d(16).modified(1), d(21));
        assert_eq!(d(21).modified(-1), d(16));
        assert_eq!(d(43).modified(-6), d(33));
        assert_eq!(d(12).modified(-6), d(11), "clamped at the bottom");
        assert_eq!(d(63).modified(6), d(66), "clamped at the top");
    }

    #[test]
    fn natural_11_fails_and_natural_66_passes() {
        assert!(!morale_check(11, 35, d(11), true).passed, "even with a huge bonus");
        assert!(morale_check(66, -35, d(66), true).passed, "even with a huge penalty");
        assert!(!morale_check(66, 0, d(65), true).passed);
    }

    #[test]
    fn without_natural_extremes_only_the_modified_roll_counts() {
        assert!(morale_check(11, 35, d(11), false).passed, "11 moved 35 places up beats 11");
        assert!(!morale_check(66, 0, d(66), false).passed, "a natural 66 does not beat morale 66 on its own");
        assert!(!morale_check(56, -6, d(66), false).passed, "66 at -6 is 56, not above 56");
        assert!(morale_check(55, -6, d(66), false).passed, "56 beats 55");
        // docs/rules.md 1.1: a routed unit (-6) of morale 56 or more never
        // recovers without the switch, and needs a natural 66 with it.
        assert_eq!(needed_roll(56, -6, false), None);
        assert_eq!(needed_roll(56, -6, true), Some(d(66)));
        assert_eq!(needed_roll(32, -3, false), Some(d(36)));
        assert_eq!(needed_roll(11, 6, true), Some(d(12)), "a natural 11 always fails");
        assert_eq!(needed_roll(11, 6, false), Some(d(11)), "11 moved up 6 places beats 11");
    }

    #[test]
    fn scripted_rolls_come_first_then_the_seed() {
        let mut a = Dice::new(7, vec![11, 36]);
        let mut b = Dice::new(7, vec![]);
        assert_eq!(a.d66(), d(11));
        assert_eq!(a.d66(), d(36));
        for _ in 0..50 {
            assert_eq!(a.d66(), b.d66(), "same seed, same stream after the script");
        }
        let mut c = Dice::new(8, vec![]);
        let sa: Vec<_> = (0..20).map(|_| b.d66()).collect();
        let sc: Vec<_> = (0..20).map(|_| c.d66()).collect();
        assert_ne!(sa, sc, "another seed, other rolls");
        assert!(sa.iter().all(|r| (1..=6).contains(&r.tens) && (1..=6).contains(&r.units)));
    }

    #[test]
    fn dice_scripts_are_checked() {
        assert_eq!(parse_script("11, 36,66", true), Ok(vec![11, 36, 66]));
        assert!(parse_script("11,37", true).unwrap_err().contains("37"));
        assert!(parse_script("3,18", false).is_ok());
        assert!(parse_script("2", false).is_err());
        assert!(parse_script("x", true).is_err());
    }
}
