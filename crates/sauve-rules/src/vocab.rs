//! The words both rule systems and their files share: the mode of a
//! battle, who controls a side, a unit's morale state, formation and
//! cavalry readiness as a scenario names them. Plain enums with no rules in
//! them, so that the rules block, the map and the scenario can all use them
//! without using each other.

use serde::{Deserialize, Serialize};

/// Which rule system a battle is played by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Mode {
    /// La Bataille on a hex map.
    #[default]
    Hex,
    /// Belle Alliance on a table in centimetres.
    FreeSpace,
}

/// Who gives one side's orders: the scenario's `control`, and what a game
/// gives each side (see the window's seats and the command line's `--ai`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Control {
    /// A player at the window; its order phases wait for them. (Saves
    /// written before this type was one called it `Human`.)
    #[serde(alias = "Human")]
    Player,
    /// The computer decides.
    #[default]
    Ai,
    /// Nobody: only forced moves and the morale segments happen.
    Idle,
}

/// How well the computer plays a side it controls (docs/rules.md, "The
/// AI"): `Easy` is the first AI, one ply of heuristics; `Normal` mends what
/// was measured against it (a shaken unit kept from falling back where its
/// rout would leave the map, garrisons kept on objectives when a corps
/// breaks); `Hard` plans: it weighs scripts for its corps by playing the
/// battle on ahead with `Normal` on both sides (docs/rules.md, "Hard").
/// `Hold` is a yardstick rather than a general: it stands its ground and
/// fires, as `Normal` does, and never marches on, charges or attacks.
/// A scenario's side may name one (`level: Easy`); new games play `Normal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum AiLevel {
    Hold,
    Easy,
    #[default]
    Normal,
    Hard,
}

impl AiLevel {
    /// Every level, the yardstick first, then the generals weakest first
    /// (the window's seats menu cycles them).
    pub const ALL: [AiLevel; 4] = [AiLevel::Hold, AiLevel::Easy, AiLevel::Normal, AiLevel::Hard];

    /// The level's name on the command line and in files, lower case.
    pub fn word(self) -> &'static str {
        match self {
            AiLevel::Hold => "hold",
            AiLevel::Easy => "easy",
            AiLevel::Normal => "normal",
            AiLevel::Hard => "hard",
        }
    }

    /// The level named `word` (any case).
    pub fn from_word(word: &str) -> Option<AiLevel> {
        AiLevel::ALL.into_iter().find(|l| l.word().eq_ignore_ascii_case(word))
    }

    /// The next level in [`AiLevel::ALL`], the first after the last.
    pub fn next(self) -> AiLevel {
        match self {
            AiLevel::Hold => AiLevel::Easy,
            AiLevel::Easy => AiLevel::Normal,
            AiLevel::Normal => AiLevel::Hard,
            AiLevel::Hard => AiLevel::Hold,
        }
    }

    /// Whether it plays with what `Normal` mended in `Easy` (the full odds
    /// of its own checks, safe fall-backs, garrisons kept): every level but
    /// `Easy`.
    pub fn mended(self) -> bool {
        match self {
            AiLevel::Easy => false,
            AiLevel::Hold | AiLevel::Normal | AiLevel::Hard => true,
        }
    }
}

/// A unit's morale state, in both rule systems: hex mode (docs/rules.md 1.2)
/// has `GoodOrder`, `Disordered` and `Routed`, and `Surrendered` and
/// `Eliminated` for the ways of leaving the board; free space (docs/rules.md
/// 2.2) has `Order`, `LU`, `U` and `FU`. The same names in files, in the
/// rules and in the event log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum State {
    GoodOrder,
    Disordered,
    Routed,
    Surrendered,
    Eliminated,
    Order,
    LU,
    U,
    FU,
}

impl State {
    /// Whether a scenario of `mode` may start a unit in this state.
    pub fn allowed_in(self, mode: Mode) -> bool {
        match mode {
            Mode::Hex => matches!(self, State::GoodOrder | State::Disordered | State::Routed),
            Mode::FreeSpace => matches!(self, State::Order | State::LU | State::U | State::FU),
        }
    }

    /// The hex-mode state nearest to this one (a free-space name read in
    /// hex mode: shaken is disordered, fleeing is routed).
    pub fn hex(self) -> State {
        match self {
            State::Disordered | State::U | State::LU => State::Disordered,
            State::Routed | State::FU => State::Routed,
            State::GoodOrder | State::Order => State::GoodOrder,
            State::Surrendered | State::Eliminated => self,
        }
    }

    /// The free-space state nearest to this one.
    pub fn free_space(self) -> State {
        match self {
            State::LU => State::LU,
            State::U | State::Disordered => State::U,
            State::FU | State::Routed => State::FU,
            State::Order | State::GoodOrder => State::Order,
            State::Surrendered | State::Eliminated => self,
        }
    }

    /// Disordered or routed: the hex states the recovery segment works on.
    pub fn is_shaken(self) -> bool {
        matches!(self, State::Disordered | State::Routed)
    }
}

/// A unit's formation (docs/rules.md 1.7, 2.2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Formation {
    Line,
    Column,
    Square,
    GeneralOrder,
    Skirmish,
    /// Belle Alliance flight formation (as wide as deep, front all round).
    Flight,
}

impl Formation {
    /// The formation in words, as a sentence says it (`general order`).
    pub fn words(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Square => "square",
            Formation::GeneralOrder => "general order",
            Formation::Skirmish => "skirmish order",
            Formation::Flight => "flight formation",
        }
    }

    /// Whether a scenario of `mode` may give a unit this formation.
    pub fn allowed_in(self, mode: Mode) -> bool {
        match mode {
            Mode::Hex => !matches!(self, Formation::Flight),
            Mode::FreeSpace => matches!(self, Formation::Line | Formation::Column | Formation::Square),
        }
    }
}

/// What a `Formation` event says a unit took up: one of its formations,
/// or, for a battery, its limbers (docs/rules.md 1.7). Written as the bare name
/// (`"Square"`, `"Limbered"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Formed(Formation),
    Limbered,
    Unlimbered,
}

impl From<Formation> for Shape {
    fn from(f: Formation) -> Shape {
        Shape::Formed(f)
    }
}

impl Shape {
    /// The formation this is, unless it is a battery's limbers.
    pub fn formation(self) -> Option<Formation> {
        match self {
            Shape::Formed(f) => Some(f),
            Shape::Limbered | Shape::Unlimbered => None,
        }
    }

    /// The limbers' state (for a battery): `Some(true)` limbered up.
    pub fn limbered(self) -> Option<bool> {
        match self {
            Shape::Formed(_) => None,
            Shape::Limbered => Some(true),
            Shape::Unlimbered => Some(false),
        }
    }
}

impl Shape {
    /// The shape in words, as a sentence says it (`general order`,
    /// `limbered`); its `Display` is the file's and the log's bare name.
    pub fn words(self) -> &'static str {
        match self {
            Shape::Formed(f) => f.words(),
            Shape::Limbered => "limbered",
            Shape::Unlimbered => "unlimbered",
        }
    }
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Shape::Formed(formation) => write!(f, "{formation:?}"),
            Shape::Limbered => f.write_str("Limbered"),
            Shape::Unlimbered => f.write_str("Unlimbered"),
        }
    }
}

impl Serialize for Shape {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::IntoDeserializer;
        let name = String::deserialize(d)?;
        match name.as_str() {
            "Limbered" => Ok(Shape::Limbered),
            "Unlimbered" => Ok(Shape::Unlimbered),
            other => Formation::deserialize(other.into_deserializer()).map(Shape::Formed),
        }
    }
}

/// Cavalry readiness (docs/rules.md 1.2), apart from morale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
pub enum Readiness {
    #[default]
    Fresh,
    Tired,
    Exhausted,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_control_reads_the_old_name_of_a_player_and_writes_the_new() {
        let read = |s: &str| ron::from_str::<Control>(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(read("Human"), Control::Player, "saves from before control was one type");
        assert_eq!(read("Player"), Control::Player);
        assert_eq!(read("Idle"), Control::Idle);
        assert_eq!(ron::to_string(&Control::Player).ok().as_deref(), Some("Player"));
    }

    #[test]
    fn a_shape_is_written_as_its_bare_name() {
        let json = |s: Shape| serde_json::to_string(&s).unwrap_or_default();
        assert_eq!(json(Formation::Square.into()), r#""Square""#);
        assert_eq!(json(Formation::GeneralOrder.into()), r#""GeneralOrder""#);
        assert_eq!(json(Shape::Limbered), r#""Limbered""#);
        assert_eq!(json(Shape::Unlimbered), r#""Unlimbered""#);
    }
}
