//! Scenario files (CONTRACT.md section 1): the RON format as written by
//! authors, one pure parse-and-validate function shared by the command line
//! and the game's asset loader, and the validated [`Scenario`] it yields.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

use ron::extensions::Extensions;
use serde::{Deserialize, Serialize};

use crate::hex::{Dir, Edge, Offset};
use crate::map::TerrainMap;
use crate::rules::Rules;
use crate::terrain::{Arm, HexsideKind, Terrain};

pub mod locate;

pub use locate::Pos;

pub use crate::vocab::{Control, Formation, Mode, Readiness, StateName};

/// The only scenario format version this build reads.
pub const FORMAT_VERSION: u32 = 1;

// ---------------------------------------------------------------------------
// The file as written (serde). Unknown fields are errors everywhere.
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename = "Scenario", deny_unknown_fields)]
pub struct ScenarioFile {
    pub format: u32,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub mode: Mode,
    #[serde(default = "default_turns")]
    pub turns: u32,
    #[serde(default)]
    pub seed: u64,
    pub sides: Vec<SideFile>,
    #[serde(default)]
    pub map: MapFile,
    #[serde(default)]
    pub units: Vec<UnitFile>,
    #[serde(default)]
    pub shocks: Vec<ShockFile>,
    /// Free-space mode: commanders and orderlies on the table (2.4).
    #[serde(default)]
    pub staff: Vec<StaffFile>,
    /// Hex mode: victory-point hexes.
    #[serde(default)]
    pub objectives: Vec<ObjectiveFile>,
    /// Hex mode: map edges a side scores for leaving by in order.
    #[serde(default)]
    pub exits: Vec<ExitFile>,
    /// Hex mode: the corps whose breaking decides army morale (RULES.md 1.6).
    #[serde(default)]
    pub corps: Vec<CorpsFile>,
    /// Hex mode: leaders riding with a unit.
    #[serde(default)]
    pub leaders: Vec<LeaderFile>,
    #[serde(default)]
    pub rules: Rules,
}

/// A victory-point hex.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveFile {
    pub at: (i64, i64),
    #[serde(default = "default_points")]
    pub points: i64,
    #[serde(default)]
    pub name: Option<String>,
    /// The side holding it when the battle opens.
    #[serde(default)]
    pub held_by: Option<String>,
}

/// A map edge worth points to one side for each increment it takes off the
/// map there without routing.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExitFile {
    pub side: String,
    pub edge: Edge,
    #[serde(default = "default_points")]
    pub points: i64,
}

fn default_points() -> i64 {
    1
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorpsFile {
    pub id: String,
    pub side: String,
    #[serde(default)]
    pub name: Option<String>,
    pub units: Vec<String>,
    /// Default: half its units, rounded up.
    #[serde(default)]
    pub breaks_at: Option<i64>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderFile {
    pub id: String,
    pub side: String,
    /// The unit the leader rides with.
    pub with: String,
    #[serde(default = "default_points")]
    pub bonus: i64,
    #[serde(default)]
    pub name: Option<String>,
}

/// A staff figure (commander or orderly) standing on the table.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StaffFile {
    pub side: String,
    pub pos: (f32, f32),
    #[serde(default)]
    pub name: Option<String>,
}

fn default_turns() -> u32 {
    12
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideFile {
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub rear: Option<Edge>,
    #[serde(default)]
    pub control: Control,
    /// How readily the AI attacks, 0.0 (holds) to 1.0 (presses on).
    #[serde(default)]
    pub aggression: Option<f32>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    #[serde(default)]
    pub rows: Vec<String>,
    #[serde(default)]
    pub legend: BTreeMap<char, Terrain>,
    /// Hexside features: streams and slopes on the edge of a hex.
    #[serde(default)]
    pub hexsides: Vec<HexsideFile>,
    /// Free-space mode: the side of one square terrain cell, in cm.
    #[serde(default)]
    pub cell_cm: Option<f32>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexsideFile {
    pub at: (i32, i32),
    pub side: Dir,
    pub kind: HexsideKind,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitFile {
    pub id: String,
    pub side: String,
    pub arm: Arm,
    #[serde(default)]
    pub at: Option<(i64, i64)>,
    #[serde(default)]
    pub pos: Option<(f32, f32)>,
    #[serde(default)]
    pub morale: Option<i64>,
    #[serde(default)]
    pub valour: Option<i64>,
    #[serde(default)]
    pub strength: Option<i64>,
    #[serde(default)]
    pub figures: Option<i64>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub state: Option<StateName>,
    #[serde(default)]
    pub movement: Option<f32>,
    #[serde(default)]
    pub formation: Option<Formation>,
    #[serde(default)]
    pub readiness: Option<Readiness>,
    #[serde(default)]
    pub facing: Option<FacingFile>,
    #[serde(default)]
    pub limbered: Option<bool>,
    /// Free-space artillery: horse artillery (flees at the horse rate when
    /// limbered).
    #[serde(default)]
    pub horse: Option<bool>,
}

/// A unit's `facing` as written: degrees clockwise from north, or in hex
/// mode the name of a hexside (`NE`), which is what a hex unit faces anyway.
/// Untagged, so that `facing: 30.0`, `facing: 30`, `facing: NE` and
/// `facing: "NE"` all read.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FacingFile {
    Degrees(f32),
    Hexside(Dir),
}

/// What serde says when a `facing` is neither a number nor a hexside name,
/// and what the author is told instead.
const FACING_MISMATCH: &str = "data did not match any variant of untagged enum FacingFile";
const FACING_EXPECTED: &str = "facing must be degrees clockwise from north or a hexside name: N, NE, SE, S, SW, NW";

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShockFile {
    pub turn: u32,
    pub unit: String,
    pub to: StateName,
    #[serde(default)]
    pub cause: Option<String>,
}

// ---------------------------------------------------------------------------
// The validated scenario.
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    pub id: String,
    pub name: String,
    pub rear: Edge,
    pub control: Control,
    /// AI aggression, 0.0..=1.0; [`DEFAULT_AGGRESSION`] when the file is silent.
    pub aggression: f32,
}

/// The AI's aggression when a side gives none: neither holding back nor
/// reckless.
pub const DEFAULT_AGGRESSION: f32 = 0.5;

/// A victory-point hex (hex mode).
#[derive(Clone, Debug, PartialEq)]
pub struct Objective {
    pub at: Offset,
    pub points: u32,
    pub name: String,
    /// Side holding it at the start, if any.
    pub held_by: Option<usize>,
}

/// Points per increment that `side` takes off the map across `edge` while
/// not routing (hex mode).
#[derive(Clone, Debug, PartialEq)]
pub struct Exit {
    pub side: usize,
    pub edge: Edge,
    pub points: u32,
}

/// A corps: the battalions whose routs and losses break it (RULES.md 1.6).
#[derive(Clone, Debug, PartialEq)]
pub struct Corps {
    pub id: String,
    pub name: String,
    pub side: usize,
    /// Unit indices, in scenario order.
    pub units: Vec<usize>,
    /// Broken once this many of its units are routed or gone.
    pub breaks_at: u32,
    /// Made up by the loader from the side's units that no corps lists.
    pub implicit: bool,
}

/// A leader riding with a unit (hex mode).
#[derive(Clone, Debug, PartialEq)]
pub struct Leader {
    pub id: String,
    pub name: String,
    pub side: usize,
    /// Unit index of the leader's host at the start.
    pub with: usize,
    /// Added to the morale checks of friends near the host.
    pub bonus: i32,
}

/// Where a unit stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Place {
    Hex(Offset),
    /// Centre of the footprint, cm from the table's top-left corner.
    Table {
        x: f32,
        y: f32,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct UnitSpec {
    pub id: String,
    pub name: String,
    pub side: usize,
    pub arm: Arm,
    pub place: Place,
    /// Hex mode: the d66 morale value.
    pub morale: u8,
    /// Free-space mode: valour, -5..=5.
    pub valour: i32,
    /// Hex mode: strength increments; free space: figures.
    pub strength: u32,
    pub state: StateName,
    pub movement: Option<f32>,
    pub formation: Option<Formation>,
    pub readiness: Readiness,
    /// Degrees clockwise from north.
    pub facing: Option<f32>,
    pub limbered: bool,
    /// Horse artillery (free space).
    pub horse: bool,
}

/// A staff figure on a free-space table.
#[derive(Clone, Debug, PartialEq)]
pub struct Staff {
    pub side: usize,
    pub x: f32,
    pub y: f32,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Shock {
    pub turn: u32,
    pub unit: usize,
    pub to: StateName,
    pub cause: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub name: String,
    pub description: String,
    pub mode: Mode,
    pub turns: u32,
    pub seed: u64,
    pub sides: Vec<Side>,
    pub map: TerrainMap,
    /// Free-space mode: side of a terrain cell in cm.
    pub cell_cm: f32,
    pub units: Vec<UnitSpec>,
    pub shocks: Vec<Shock>,
    /// Free-space staff figures.
    pub staff: Vec<Staff>,
    pub objectives: Vec<Objective>,
    pub exits: Vec<Exit>,
    /// Every corps: those the file lists, then one implicit corps per side
    /// for its units that no corps lists (hex mode), so each hex unit is in
    /// exactly one corps.
    pub corps: Vec<Corps>,
    pub leaders: Vec<Leader>,
    pub rules: Rules,
}

impl Scenario {
    pub fn unit_index(&self, id: &str) -> Option<usize> {
        self.units.iter().position(|u| u.id == id)
    }

    /// The side's corps, explicit and implicit, with their indices in
    /// [`Scenario::corps`].
    pub fn corps_of_side(&self, side: usize) -> impl Iterator<Item = (usize, &Corps)> {
        self.corps.iter().enumerate().filter(move |(_, c)| c.side == side)
    }

    /// Index of the corps a unit belongs to (always `Some` in hex mode).
    pub fn corps_of_unit(&self, unit: usize) -> Option<usize> {
        self.corps.iter().position(|c| c.units.contains(&unit))
    }

    /// Table size in cm (free-space mode).
    pub fn table_cm(&self) -> (f32, f32) {
        (self.map.width as f32 * self.cell_cm, self.map.height as f32 * self.cell_cm)
    }
}

// ---------------------------------------------------------------------------
// Errors.
// ---------------------------------------------------------------------------

/// One problem found in a scenario: what it is about (a unit by id, a field
/// by path), what is wrong, and where in the file it lies.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    pub subject: String,
    pub message: String,
    /// The place it is about, as a path into the file: `units[3]`,
    /// `units[3].facing`, `sides[1].rear`, `map.rows[2]`, `rules.rout_hexes`.
    /// `None` for a problem with no one place.
    pub path: Option<String>,
    /// A second place the problem involves: a duplicate's earlier twin, the
    /// other of two overlapping units. The message names both places.
    pub other: Option<Other>,
    /// Where `path` lies in the text: filled in by [`locate`], `None` while
    /// unknown (the message then keeps the `FILE: error:` form).
    pub at: Option<Pos>,
}

/// The second place of a [`Problem`]: what it is (`first` for a duplicate's
/// earlier twin, `unit 'fr-a'`), its path, and where that lies once located.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Other {
    pub what: String,
    pub path: String,
    pub at: Option<Pos>,
}

impl Problem {
    /// A problem about `subject` with no place in the file.
    pub fn new(subject: impl Into<String>, message: impl Into<String>) -> Self {
        Problem { subject: subject.into(), message: message.into(), ..Problem::default() }
    }
}

/// Finds each problem's place in the scenario text (see [`locate::Outline`]).
/// Problems whose path the text does not hold stay unlocated.
pub fn locate(problems: &mut [Problem], text: &str) {
    let Some(outline) = locate::Outline::of(without_bom(text)) else { return };
    for p in problems {
        p.at = p.path.as_deref().and_then(|path| outline.find(path));
        if let Some(o) = &mut p.other {
            o.at = outline.find(&o.path);
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{file}: error: cannot read: {source}")]
    Io { file: String, source: std::io::Error },
    #[error("{file}:{line}:{col}: error: {message}")]
    Syntax { file: String, line: usize, col: usize, message: String },
    #[error("{}", render_problems(file, problems))]
    Invalid { file: String, problems: Vec<Problem> },
}

fn render_problems(file: &str, problems: &[Problem]) -> String {
    problems.iter().map(|p| p.line(file, "error")).collect::<Vec<_>>().join("\n")
}

impl LoadError {
    /// One line per problem, in the command line's `FILE:LINE:COL: error: ...`
    /// form (`FILE: error: ...` for a problem with no place in the file).
    pub fn lines(&self) -> Vec<String> {
        self.to_string().lines().map(str::to_owned).collect()
    }
}

impl Problem {
    /// The problem as one line of `sauve check` output: `FILE:LINE:COL: KIND:
    /// subject: message`, or `FILE: KIND: ...` when it has no place.
    pub fn line(&self, file: &str, kind: &str) -> String {
        match self.at {
            Some(at) => format!("{file}:{at}: {kind}: {self}"),
            None => format!("{file}: {kind}: {self}"),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.subject, self.message)?;
        match &self.other {
            Some(Other { what, at: Some(at), .. }) => write!(f, " ({what} at {at})"),
            Some(Other { what, path, at: None }) => write!(f, " ({what} at {path})"),
            None => Ok(()),
        }
    }
}

// ---------------------------------------------------------------------------
// Parsing and validation.
// ---------------------------------------------------------------------------

/// RON options used for every scenario: `Some(..)` may be left out.
pub(crate) fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME).with_recursion_limit(64)
}

/// Reads and validates a scenario file from disk.
pub fn load(path: &Path) -> Result<Scenario, LoadError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io { file: file.clone(), source })?;
    parse_bytes(&bytes, &file)
}

/// Parses and validates raw bytes (the asset loader's entry point).
pub fn parse_bytes(bytes: &[u8], file: &str) -> Result<Scenario, LoadError> {
    parse(utf8(bytes, file)?, file)
}

/// The bytes of a scenario or save file as text, or a syntax error at the
/// first byte that is not UTF-8.
pub fn utf8<'a>(bytes: &'a [u8], file: &str) -> Result<&'a str, LoadError> {
    std::str::from_utf8(bytes).map_err(|e| {
        // Locate the bad byte for the author.
        let good = &bytes[..e.valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = String::from_utf8_lossy(good).rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        LoadError::Syntax { file: file.into(), line, col, message: "the file is not valid UTF-8".into() }
    })
}

/// The one pure function from scenario text to a validated [`Scenario`].
/// `file` only names the source in messages.
pub fn parse(text: &str, file: &str) -> Result<Scenario, LoadError> {
    let text = without_bom(text);
    let raw: ScenarioFile = ron_options().from_str(text).map_err(|e| {
        let mut at = Pos { line: e.span.start.line, col: e.span.start.col };
        let mut message = one_line(e.code.to_string());
        // serde's words for a bad `facing` name a type the author never
        // wrote, and ron places the error at the end of the value: say what
        // is expected, at the value's start.
        if message.contains(FACING_MISMATCH) {
            message = FACING_EXPECTED.to_owned();
            at = locate::value_before(text, "facing", at).unwrap_or(at);
        }
        LoadError::Syntax { file: file.into(), line: at.line, col: at.col, message }
    })?;
    validate(raw).map_err(|mut problems| {
        locate(&mut problems, text);
        LoadError::Invalid { file: file.into(), problems }
    })
}

/// The text without a leading byte-order mark. Windows editors start UTF-8
/// files with U+FEFF, which RON does not read as whitespace; it sits before
/// line 1, column 1, and editors do not show it, so dropping it keeps every
/// later line and column as the author sees them.
pub(crate) fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Is `v` a d66 number (both digits 1..=6)?
pub fn is_d66(v: i64) -> bool {
    (11..=66).contains(&v) && (1..=6).contains(&(v / 10)) && (1..=6).contains(&(v % 10))
}

/// Escapes control characters (a newline inside a quoted id, say) so that
/// every message stays on one line.
fn one_line(s: String) -> String {
    if s.chars().any(char::is_control) { s.chars().flat_map(char::escape_default).collect() } else { s }
}

/// What a problem is about: the subject its message names and the path of
/// its place in the file.
#[derive(Clone, Debug)]
pub(crate) struct About {
    pub(crate) subject: String,
    pub(crate) path: String,
}

impl About {
    /// A list entry with an id (a unit, side, corps, leader): named `kind
    /// 'id'`, or by its path while the id is empty; placed at the entry.
    pub(crate) fn entry(kind: &str, id: &str, path: String) -> About {
        let subject = if id.trim().is_empty() { path.clone() } else { format!("{kind} '{id}'") };
        About { subject, path }
    }

    /// One field of it: the same subject, placed at the field.
    pub(crate) fn field(&self, name: &str) -> About {
        About { subject: self.subject.clone(), path: format!("{}.{name}", self.path) }
    }
}

/// A field named by its path (`format`, `map.rows[3]`, `shocks[0]`).
impl From<&str> for About {
    fn from(path: &str) -> About {
        About { subject: path.to_owned(), path: path.to_owned() }
    }
}

impl From<String> for About {
    fn from(path: String) -> About {
        About { subject: path.clone(), path }
    }
}

impl From<&About> for About {
    fn from(a: &About) -> About {
        a.clone()
    }
}

struct Collector(Vec<Problem>);

impl Collector {
    /// Records a problem. Control characters (a newline inside a quoted id,
    /// say) are escaped so that every problem stays on one line.
    fn add(&mut self, about: impl Into<About>, message: impl Into<String>) {
        let about = about.into();
        self.0.push(Problem {
            subject: one_line(about.subject),
            message: one_line(message.into()),
            path: Some(about.path),
            ..Problem::default()
        });
    }

    /// A second entry with an id already used at `first` (a path).
    fn duplicate(&mut self, about: &About, first: String, message: &str) {
        self.add(about, message);
        if let Some(p) = self.0.last_mut() {
            p.other = Some(Other { what: "first".into(), path: first, at: None });
        }
    }
}

/// Semantic validation: collects every problem in one pass.
pub fn validate(raw: ScenarioFile) -> Result<Scenario, Vec<Problem>> {
    let mut p = Collector(Vec::new());
    let mode = raw.mode;

    if raw.format != FORMAT_VERSION {
        p.add("format", format!("unsupported format {} (this build reads format {FORMAT_VERSION})", raw.format));
    }
    if raw.name.trim().is_empty() {
        p.add("name", "must not be empty");
    }
    if raw.turns == 0 || raw.turns > 1000 {
        p.add("turns", format!("{} must be 1..=1000", raw.turns));
    }

    // Sides.
    if raw.sides.len() != 2 {
        p.add("sides", format!("exactly two sides are needed, found {}", raw.sides.len()));
    }
    let mut sides: Vec<Side> = Vec::new();
    let mut side_ids: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, s) in raw.sides.iter().enumerate() {
        let about = About::entry("side", &s.id, format!("sides[{i}]"));
        if s.id.trim().is_empty() {
            p.add(about.field("id"), "id must not be empty");
        } else if let Some(&first) = side_ids.get(s.id.as_str()) {
            p.duplicate(&about, format!("sides[{first}]"), "duplicate side id");
        } else {
            side_ids.insert(s.id.as_str(), i);
        }
        let rear = s.rear.unwrap_or(if i == 0 { Edge::South } else { Edge::North });
        let aggression = s.aggression.unwrap_or(DEFAULT_AGGRESSION);
        if !(0.0..=1.0).contains(&aggression) {
            p.add(about.field("aggression"), format!("aggression {aggression} must be 0.0..=1.0"));
        }
        sides.push(Side {
            id: s.id.clone(),
            name: s.name.clone().unwrap_or_else(|| s.id.clone()),
            rear,
            control: s.control,
            aggression,
        });
    }
    // Routers run for their own rear and away from the enemy's; with one
    // edge for both, a rout would run towards the enemy's line of retreat.
    if let [first, second] = sides.as_slice()
        && first.rear == second.rear
    {
        p.add(
            About::entry("side", &second.id, "sides[1]".into()).field("rear"),
            format!(
                "rear {:?} is also the rear of side '{}': the two sides must fall back towards different edges",
                second.rear, first.id
            ),
        );
    }
    // Map.
    let map = build_map(&raw.map, mode, &mut p);
    let cell_cm = raw.map.cell_cm.unwrap_or(10.0);
    match mode {
        Mode::Hex => {
            if raw.map.cell_cm.is_some() {
                p.add("map.cell_cm", "only used in FreeSpace mode");
            }
        }
        Mode::FreeSpace => {
            if !(cell_cm.is_finite() && cell_cm > 0.0 && cell_cm <= 1000.0) {
                p.add("map.cell_cm", format!("{cell_cm} must be above 0 and at most 1000"));
            }
            if !raw.map.hexsides.is_empty() {
                p.add("map.hexsides", "only used in Hex mode");
            }
        }
    }

    // Rules.
    for (field, msg) in raw.rules.problems() {
        p.add(field, msg);
    }

    // Units.
    let mut unit_ids: BTreeMap<&str, usize> = BTreeMap::new();
    let mut units = Vec::new();
    let mut occupant: BTreeMap<Offset, usize> = BTreeMap::new();
    for (i, u) in raw.units.iter().enumerate() {
        let subject = About::entry("unit", &u.id, format!("units[{i}]"));
        if u.id.trim().is_empty() {
            p.add(subject.field("id"), "id must not be empty");
        } else if let Some(&first) = unit_ids.get(u.id.as_str()) {
            p.duplicate(&subject, format!("units[{first}]"), "duplicate unit id");
        } else {
            unit_ids.insert(u.id.as_str(), i);
        }
        let side = sides.iter().position(|s| s.id == u.side);
        if side.is_none() {
            p.add(
                subject.field("side"),
                format!("side '{}' does not exist (sides: {})", u.side, list(sides.iter().map(|s| s.id.as_str()))),
            );
        }
        if let Some(name) = &u.name
            && name.chars().count() > 200
        {
            p.add(subject.field("name"), "name is longer than 200 characters");
        }
        let state = u.state.unwrap_or(if mode == Mode::Hex { StateName::GoodOrder } else { StateName::Order });
        if state.is_hex() != (mode == Mode::Hex) {
            p.add(subject.field("state"), format!("state {state:?} is not a {mode:?}-mode state"));
        }
        if mode == Mode::Hex && u.arm == Arm::Cavalry && state == StateName::Disordered {
            p.add(subject.field("state"), "cavalry is never Disordered (rule 1.2): use Routed or GoodOrder");
        }
        if let Some(f) = u.formation
            && !f.allowed_in(mode)
        {
            p.add(subject.field("formation"), format!("formation {f:?} is not used in {mode:?} mode"));
        }
        if let Some(m) = u.movement
            && !(m.is_finite() && m > 0.0 && m <= 100.0)
        {
            p.add(subject.field("movement"), format!("movement {m} must be above 0 and at most 100"));
        }
        let facing = match u.facing {
            None => None,
            Some(FacingFile::Degrees(f)) if !f.is_finite() => {
                p.add(subject.field("facing"), "facing must be a finite number of degrees");
                None
            }
            Some(FacingFile::Degrees(f)) => Some(f),
            Some(FacingFile::Hexside(d)) if mode == Mode::FreeSpace => {
                p.add(
                    subject.field("facing"),
                    format!("facing {d:?} is a hexside name, for Hex mode: give degrees clockwise from north"),
                );
                None
            }
            Some(FacingFile::Hexside(d)) => Some(d.degrees()),
        };
        let mut place = Place::Hex(Offset::new(0, 0));
        let mut morale = 0u8;
        let mut valour = 0i32;
        let mut strength = 0u32;
        match mode {
            Mode::Hex => {
                for (present, field) in
                    [(u.pos.is_some(), "pos"), (u.valour.is_some(), "valour"), (u.figures.is_some(), "figures")]
                {
                    if present {
                        p.add(
                            subject.field(field),
                            format!("`{field}` is a FreeSpace field; Hex mode uses at/morale/strength"),
                        );
                    }
                }
                match u.at {
                    None => p.add(&subject, "missing `at: (c, r)`"),
                    Some((c, r)) => {
                        let at = Offset::new(c.clamp(-1, i32::MAX as i64) as i32, r.clamp(-1, i32::MAX as i64) as i32);
                        if !map.contains(at) || c != at.c as i64 || r != at.r as i64 {
                            p.add(
                                subject.field("at"),
                                format!("at ({c}, {r}) is off the {}x{} map", map.width, map.height),
                            );
                        } else {
                            place = Place::Hex(at);
                            if let Some(t) = map.terrain(at)
                                && raw.rules.terrain_cost(t, u.arm).is_none()
                            {
                                p.add(
                                    subject.field("at"),
                                    format!("at ({c}, {r}) is {t:?}, prohibited terrain for {:?}", u.arm),
                                );
                            }
                            if let Some(s) = side {
                                if let Some(&other) = occupant.get(&at)
                                    && other != s
                                {
                                    p.add(subject.field("at"), format!("shares hex ({c}, {r}) with an enemy unit"));
                                }
                                occupant.insert(at, s);
                            }
                        }
                    }
                }
                match u.morale {
                    None => p.add(&subject, "missing `morale` (a d66 value such as 32)"),
                    Some(m) if !is_d66(m) => p.add(
                        subject.field("morale"),
                        format!("morale {m} is not a d66 number (11..66, each digit 1..6)"),
                    ),
                    Some(m) => morale = m as u8,
                }
                match u.strength {
                    None => p.add(&subject, "missing `strength` (increments)"),
                    Some(s) if s <= 0 => p.add(subject.field("strength"), format!("strength {s} must be at least 1")),
                    Some(s) if s > 1000 => {
                        p.add(subject.field("strength"), format!("strength {s} is more than 1000 increments"))
                    }
                    Some(s) => strength = s as u32,
                }
            }
            Mode::FreeSpace => {
                for (present, field) in
                    [(u.at.is_some(), "at"), (u.morale.is_some(), "morale"), (u.strength.is_some(), "strength")]
                {
                    if present {
                        p.add(
                            subject.field(field),
                            format!("`{field}` is a Hex field; FreeSpace mode uses pos/valour/figures"),
                        );
                    }
                }
                let (w, h) = (map.width as f32 * cell_cm, map.height as f32 * cell_cm);
                match u.pos {
                    None => p.add(&subject, "missing `pos: (x, y)` in cm"),
                    Some((x, y)) if !(x.is_finite() && y.is_finite()) => {
                        p.add(subject.field("pos"), "pos must be finite")
                    }
                    Some((x, y)) if !(0.0..=w).contains(&x) || !(0.0..=h).contains(&y) => {
                        p.add(subject.field("pos"), format!("pos ({x}, {y}) is off the {w}x{h} cm table"))
                    }
                    Some((x, y)) => {
                        place = Place::Table { x, y };
                        let cell = Offset::new((x / cell_cm) as i32, (y / cell_cm) as i32);
                        let cell = Offset::new(cell.c.min(map.width - 1), cell.r.min(map.height - 1));
                        if let Some(t) = map.terrain(cell)
                            && t == Terrain::River
                        {
                            p.add(subject.field("pos"), format!("pos ({x}, {y}) is in a river"));
                        }
                    }
                }
                match u.valour {
                    None => {}
                    Some(v) if !(-5..=5).contains(&v) => {
                        p.add(subject.field("valour"), format!("valour {v} must be -5..=5"))
                    }
                    Some(v) => valour = v as i32,
                }
                match u.figures {
                    None => p.add(&subject, "missing `figures`"),
                    Some(f) if f <= 0 => p.add(subject.field("figures"), format!("figures {f} must be at least 1")),
                    Some(f) if f > 1000 => p.add(subject.field("figures"), format!("figures {f} is more than 1000")),
                    Some(f) => strength = f as u32,
                }
                if u.limbered.is_some() && u.arm != Arm::Artillery {
                    p.add(subject.field("limbered"), "`limbered` applies to artillery only");
                }
                if u.horse.is_some() && u.arm != Arm::Artillery {
                    p.add(subject.field("horse"), "`horse` applies to artillery only");
                }
            }
        }
        units.push(UnitSpec {
            id: u.id.clone(),
            name: u.name.clone().unwrap_or_else(|| u.id.clone()),
            side: side.unwrap_or(0),
            arm: u.arm,
            place,
            morale,
            valour,
            strength,
            state,
            movement: u.movement,
            formation: u.formation,
            readiness: u.readiness.unwrap_or_default(),
            facing,
            limbered: u.limbered.unwrap_or(false),
            horse: u.horse.unwrap_or(false),
        });
    }
    if units.is_empty() {
        p.add("units", "a scenario needs at least one unit");
    }

    // Shocks.
    let mut shocks = Vec::new();
    for (i, s) in raw.shocks.iter().enumerate() {
        let subject = About::from(format!("shocks[{i}]"));
        let unit = unit_ids.get(s.unit.as_str()).copied();
        if unit.is_none() {
            p.add(subject.field("unit"), format!("unit '{}' does not exist", s.unit));
        }
        let cause = match &s.cause {
            None => None,
            Some(c) => {
                let idx = unit_ids.get(c.as_str()).copied();
                if idx.is_none() {
                    p.add(subject.field("cause"), format!("cause '{c}' is not a unit id"));
                }
                idx
            }
        };
        if s.turn == 0 || s.turn > raw.turns {
            p.add(subject.field("turn"), format!("turn {} is outside the scenario's turns 1..={}", s.turn, raw.turns));
        }
        let allowed: &[StateName] = match mode {
            Mode::Hex => &[StateName::Disordered, StateName::Routed],
            Mode::FreeSpace => &[StateName::LU, StateName::U, StateName::FU],
        };
        if !allowed.contains(&s.to) {
            p.add(
                subject.field("to"),
                format!(
                    "`to: {:?}` is not a {mode:?}-mode shock (use {})",
                    s.to,
                    list(allowed.iter().map(|a| format!("{a:?}")))
                ),
            );
        }
        if let Some(u) = unit
            && cause == Some(u)
        {
            p.add(subject.field("cause"), "a unit cannot be its own cause");
        }
        if let Some(u) = unit {
            shocks.push(Shock { turn: s.turn, unit: u, to: s.to, cause });
        }
    }

    // Staff figures (free space).
    let mut staff = Vec::new();
    for (i, f) in raw.staff.iter().enumerate() {
        let subject = About::from(format!("staff[{i}]"));
        if mode != Mode::FreeSpace {
            p.add(&subject, "staff figures stand on FreeSpace tables only");
            continue;
        }
        let Some(side) = sides.iter().position(|s| s.id == f.side) else {
            p.add(subject.field("side"), format!("side '{}' does not exist", f.side));
            continue;
        };
        let (w, h) = (map.width as f32 * cell_cm, map.height as f32 * cell_cm);
        let (x, y) = f.pos;
        if !(x.is_finite() && y.is_finite() && (0.0..=w).contains(&x) && (0.0..=h).contains(&y)) {
            p.add(subject.field("pos"), format!("pos ({x}, {y}) is off the {w}x{h} cm table"));
            continue;
        }
        staff.push(Staff { side, x, y, name: f.name.clone().unwrap_or_else(|| format!("staff {i}")) });
    }

    let victory = validate_victory(&raw, mode, &map, &sides, &units, &unit_ids, &mut p);

    if p.0.is_empty() {
        Ok(Scenario {
            name: raw.name,
            description: raw.description,
            mode,
            turns: raw.turns,
            seed: raw.seed,
            sides,
            map,
            cell_cm,
            units,
            shocks,
            staff,
            objectives: victory.objectives,
            exits: victory.exits,
            corps: victory.corps,
            leaders: victory.leaders,
            rules: raw.rules,
        })
    } else {
        Err(p.0)
    }
}

/// What decides the battle and who leads: the hex-mode objectives, exits,
/// corps and leaders, validated.
#[derive(Default)]
struct Victory {
    objectives: Vec<Objective>,
    exits: Vec<Exit>,
    corps: Vec<Corps>,
    leaders: Vec<Leader>,
}

/// Objectives, exits, corps and leaders. Hex only: in free space any of them
/// is a problem and nothing is built.
fn validate_victory(
    raw: &ScenarioFile,
    mode: Mode,
    map: &TerrainMap,
    sides: &[Side],
    units: &[UnitSpec],
    unit_ids: &BTreeMap<&str, usize>,
    p: &mut Collector,
) -> Victory {
    if mode != Mode::Hex {
        for (present, field) in [
            (!raw.objectives.is_empty(), "objectives"),
            (!raw.exits.is_empty(), "exits"),
            (!raw.corps.is_empty(), "corps"),
            (!raw.leaders.is_empty(), "leaders"),
        ] {
            if present {
                p.add(field, "only used in Hex mode");
            }
        }
        return Victory::default();
    }
    let side_of = |id: &str| sides.iter().position(|s| s.id == id);
    let side_list = || list(sides.iter().map(|s| s.id.as_str()));
    let mut v = Victory::default();

    // Objectives.
    let mut objective_hexes = BTreeSet::new();
    for (i, o) in raw.objectives.iter().enumerate() {
        let subject = About::from(format!("objectives[{i}]"));
        let (c, r) = o.at;
        let at = match (i32::try_from(c), i32::try_from(r)) {
            (Ok(c), Ok(r)) if map.contains(Offset::new(c, r)) => Some(Offset::new(c, r)),
            _ => {
                p.add(subject.field("at"), format!("at ({c}, {r}) is off the {}x{} map", map.width, map.height));
                None
            }
        };
        if let Some(at) = at
            && !objective_hexes.insert(at)
        {
            p.add(subject.field("at"), format!("a second objective at {at}"));
        }
        if !(1..=100).contains(&o.points) {
            p.add(subject.field("points"), format!("points {} must be 1..=100", o.points));
        }
        if let Some(name) = &o.name
            && name.chars().count() > 200
        {
            p.add(subject.field("name"), "name is longer than 200 characters");
        }
        let held_by = match &o.held_by {
            None => None,
            Some(h) => {
                let side = side_of(h);
                if side.is_none() {
                    p.add(subject.field("held_by"), format!("held_by '{h}' is not a side (sides: {})", side_list()));
                }
                side
            }
        };
        if let Some(at) = at {
            v.objectives.push(Objective {
                at,
                points: o.points.clamp(0, 100) as u32,
                name: o.name.clone().unwrap_or_else(|| format!("objective {at}")),
                held_by,
            });
        }
    }

    // Exits.
    let mut exit_keys = BTreeSet::new();
    for (i, e) in raw.exits.iter().enumerate() {
        let subject = About::from(format!("exits[{i}]"));
        let side = side_of(&e.side);
        if side.is_none() {
            p.add(subject.field("side"), format!("side '{}' does not exist (sides: {})", e.side, side_list()));
        }
        if !(1..=100).contains(&e.points) {
            p.add(subject.field("points"), format!("points {} must be 1..=100", e.points));
        }
        if let Some(side) = side {
            // Two exits for one side and edge would leave the points ambiguous.
            if !exit_keys.insert((side, e.edge)) {
                p.add(
                    subject.field("edge"),
                    format!("side '{}' already has an exit across the {:?} edge", e.side, e.edge),
                );
            }
            v.exits.push(Exit { side, edge: e.edge, points: e.points.clamp(0, 100) as u32 });
        }
    }

    // Corps.
    let mut corps_ids: BTreeMap<&str, usize> = BTreeMap::new();
    let mut corps_of: BTreeMap<usize, &str> = BTreeMap::new();
    for (i, k) in raw.corps.iter().enumerate() {
        let subject = About::entry("corps", &k.id, format!("corps[{i}]"));
        if k.id.trim().is_empty() {
            p.add(subject.field("id"), "id must not be empty");
        } else if let Some(&first) = corps_ids.get(k.id.as_str()) {
            p.duplicate(&subject, format!("corps[{first}]"), "duplicate corps id");
        } else {
            corps_ids.insert(k.id.as_str(), i);
            if side_of(&k.id).is_some() {
                // The implicit corps of a side's unlisted units goes by the side's id.
                p.add(
                    subject.field("id"),
                    "a corps id may not be a side id (that name is kept for the side's other units)",
                );
            }
        }
        let side = side_of(&k.side);
        if side.is_none() {
            p.add(subject.field("side"), format!("side '{}' does not exist (sides: {})", k.side, side_list()));
        }
        if let Some(name) = &k.name
            && name.chars().count() > 200
        {
            p.add(subject.field("name"), "name is longer than 200 characters");
        }
        if k.units.is_empty() {
            p.add(subject.field("units"), "lists no units");
        }
        let mut members = Vec::new();
        for (j, id) in k.units.iter().enumerate() {
            let listed = subject.field(&format!("units[{j}]"));
            let Some(&u) = unit_ids.get(id.as_str()) else {
                p.add(&listed, format!("unit '{id}' does not exist"));
                continue;
            };
            if let Some(s) = side
                && units[u].side != s
            {
                p.add(&listed, format!("unit '{id}' is on side '{}'", sides[units[u].side].id));
            }
            if let Some(other) = corps_of.insert(u, k.id.as_str()) {
                if other == k.id {
                    p.add(&listed, format!("unit '{id}' is listed twice"));
                } else {
                    p.add(&listed, format!("unit '{id}' is already in corps '{other}'"));
                }
                continue;
            }
            members.push(u);
        }
        let breaks_at = match k.breaks_at {
            None => half_rounded_up(k.units.len()),
            Some(b) if b < 1 || b > k.units.len() as i64 => {
                p.add(
                    subject.field("breaks_at"),
                    format!("breaks_at {b} must be 1..={} (its number of units)", k.units.len()),
                );
                1
            }
            Some(b) => b as u32,
        };
        if let Some(side) = side {
            members.sort_unstable();
            v.corps.push(Corps {
                id: k.id.clone(),
                name: k.name.clone().unwrap_or_else(|| k.id.clone()),
                side,
                units: members,
                breaks_at,
                implicit: false,
            });
        }
    }
    // Every unit in some corps, so army morale never has to ask about strays.
    for (s, side) in sides.iter().enumerate() {
        let rest: Vec<usize> = (0..units.len()).filter(|u| units[*u].side == s && !corps_of.contains_key(u)).collect();
        if !rest.is_empty() {
            v.corps.push(Corps {
                id: side.id.clone(),
                name: side.name.clone(),
                side: s,
                breaks_at: half_rounded_up(rest.len()),
                units: rest,
                implicit: true,
            });
        }
    }

    // Leaders.
    let mut leader_ids: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, l) in raw.leaders.iter().enumerate() {
        let subject = About::entry("leader", &l.id, format!("leaders[{i}]"));
        if l.id.trim().is_empty() {
            p.add(subject.field("id"), "id must not be empty");
        } else if let Some(&first) = leader_ids.get(l.id.as_str()) {
            p.duplicate(&subject, format!("leaders[{first}]"), "duplicate leader id");
        } else {
            leader_ids.insert(l.id.as_str(), i);
        }
        let side = side_of(&l.side);
        if side.is_none() {
            p.add(subject.field("side"), format!("side '{}' does not exist (sides: {})", l.side, side_list()));
        }
        if !(1..=6).contains(&l.bonus) {
            p.add(subject.field("bonus"), format!("bonus {} must be 1..=6", l.bonus));
        }
        if let Some(name) = &l.name
            && name.chars().count() > 200
        {
            p.add(subject.field("name"), "name is longer than 200 characters");
        }
        let with = unit_ids.get(l.with.as_str()).copied();
        match (with, side) {
            (None, _) => p.add(subject.field("with"), format!("with '{}' is not a unit id", l.with)),
            (Some(u), Some(s)) if units[u].side != s => p.add(
                subject.field("with"),
                format!("with '{}' is a unit of side '{}'", l.with, sides[units[u].side].id),
            ),
            (Some(u), Some(s)) => v.leaders.push(Leader {
                id: l.id.clone(),
                name: l.name.clone().unwrap_or_else(|| l.id.clone()),
                side: s,
                with: u,
                bonus: l.bonus.clamp(0, 6) as i32,
            }),
            (Some(_), None) => {}
        }
    }
    v
}

/// Half of `n`, rounded up, and at least 1: the default corps break point.
fn half_rounded_up(n: usize) -> u32 {
    n.div_ceil(2).max(1) as u32
}

fn list<S: AsRef<str>>(items: impl Iterator<Item = S>) -> String {
    items.map(|s| s.as_ref().to_owned()).collect::<Vec<_>>().join(", ")
}

fn build_map(raw: &MapFile, mode: Mode, p: &mut Collector) -> TerrainMap {
    let height = raw.rows.len();
    let width = raw.rows.first().map_or(0, |r| r.chars().count());
    if height == 0 || width == 0 {
        p.add("map.rows", "the map needs at least one row of at least one hex");
        return TerrainMap::filled(0, 0, Terrain::Clear);
    }
    if height > 2000 || width > 2000 {
        p.add("map.rows", format!("{width}x{height} is larger than 2000x2000"));
        return TerrainMap::filled(0, 0, Terrain::Clear);
    }
    let mut map = TerrainMap::filled(width as i32, height as i32, Terrain::Clear);
    for (r, row) in raw.rows.iter().enumerate() {
        let len = row.chars().count();
        if len != width {
            p.add(
                format!("map.rows[{r}]"),
                format!("row {r} has {len} hexes, row 0 has {width}: all rows must be the same length"),
            );
        }
        let mut reported = 0;
        for (c, ch) in row.chars().enumerate().take(width) {
            let t = raw.legend.get(&ch).copied().or_else(|| Terrain::from_default_char(ch));
            match t {
                Some(t) => map.set(Offset::new(c as i32, r as i32), t),
                None => {
                    if reported < 5 {
                        p.add(
                            format!("map.rows[{r}]"),
                            format!("unknown terrain character {ch:?} at column {c} (not in the legend)"),
                        );
                    }
                    reported += 1;
                }
            }
        }
        if reported > 5 {
            p.add(format!("map.rows[{r}]"), format!("{} more unknown terrain characters", reported - 5));
        }
    }
    if mode == Mode::Hex {
        for (i, hs) in raw.hexsides.iter().enumerate() {
            let at = Offset::new(hs.at.0, hs.at.1);
            if !map.contains(at) {
                p.add(format!("map.hexsides[{i}]"), format!("at {at} is off the map"));
            } else if !map.contains(at.neighbour(hs.side)) {
                // A stream or slope between a hex and nothing is never crossed
                // by a move on the map: almost surely the wrong side or hex.
                p.add(
                    format!("map.hexsides[{i}]"),
                    format!(
                        "the {:?} side of {at} is on the map's edge: there is no hex on the other side of it",
                        hs.side
                    ),
                );
            } else {
                map.add_hexside(at, hs.side, hs.kind);
            }
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"
Scenario(
    format: 1,
    name: "The first rout",
    turns: 6,
    seed: 1813,
    sides: [
        (id: "fr", name: "French",  rear: South, control: Player),
        (id: "ru", name: "Russian", rear: North, control: Ai),
    ],
    map: (
        rows: [
            "..........",
            "...ww..t..",
            "~~~~=~~~~~",
        ],
        legend: { '=': Bridge },
    ),
    units: [
        (id: "fr-1-9L", side: "fr", arm: Infantry, at: (3, 1), morale: 32, strength: 6),
        (id: "ru-sumy", side: "ru", arm: Cavalry, at: (5, 0), morale: 43, strength: 8,
         state: Routed, name: "Sumy Hussars"),
    ],
    shocks: [
        (turn: 1, unit: "fr-1-9L", to: Routed, cause: Some("ru-sumy")),
    ],
    rules: (),
)
"#;

    fn problems(text: &str) -> Vec<String> {
        match parse(text, "t.ron") {
            Err(LoadError::Invalid { problems, .. }) => problems.iter().map(|p| p.to_string()).collect(),
            Err(e) => panic!("expected semantic problems, got {e}"),
            Ok(_) => panic!("expected problems, the file was accepted"),
        }
    }

    #[test]
    fn the_contract_example_loads() {
        let s = parse(SMALL, "t.ron").expect("valid");
        assert_eq!(s.units.len(), 2);
        assert_eq!(s.map.terrain(Offset::new(4, 2)), Some(Terrain::Bridge));
        assert_eq!(s.units[1].state, StateName::Routed);
        assert_eq!(s.shocks[0].cause, Some(1));
        assert_eq!(s.sides[1].rear, Edge::North);
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_later_positions_stay_right() {
        let with_bom = format!("\u{feff}{SMALL}");
        let s = parse_bytes(with_bom.as_bytes(), "t.ron").expect("a file with a BOM loads");
        assert_eq!(s.name, "The first rout");
        // The same typo as without the mark, reported at the same place.
        let bad = with_bom.replace("seed: 1813,", "sead: 1813,");
        match parse_bytes(bad.as_bytes(), "t.ron") {
            Err(LoadError::Syntax { line, col, .. }) => assert_eq!((line, col), (6, 5)),
            other => panic!("{other:?}"),
        }
        // A mark on the first line does not shift the columns there.
        match parse("\u{feff}Scenario(sead: 1)", "t.ron") {
            Err(LoadError::Syntax { line, col, .. }) => assert_eq!((line, col), (1, 10)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn some_may_be_left_out() {
        let text = SMALL.replace("cause: Some(\"ru-sumy\")", "cause: \"ru-sumy\"");
        assert!(parse(&text, "t.ron").is_ok());
    }

    #[test]
    fn unknown_fields_are_syntax_errors_with_a_position() {
        let text = SMALL.replace("seed: 1813,", "sead: 1813,");
        match parse(&text, "t.ron") {
            Err(LoadError::Syntax { line, col, message, .. }) => {
                assert_eq!(line, 6, "{message}");
                assert!(col > 1);
                assert!(message.contains("sead"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_semantic_problem_is_reported_in_one_pass() {
        let text = SMALL
            .replace("morale: 32", "morale: 37")
            .replace("at: (5, 0)", "at: (50, 0)")
            .replace("\"...ww..t..\"", "\"...ww..t.\"")
            .replace("unit: \"fr-1-9L\"", "unit: \"nobody\"")
            .replace("format: 1", "format: 3");
        let all = problems(&text).join("\n");
        for needle in ["format", "d66", "off the", "row 1 has 9", "'nobody'"] {
            assert!(all.contains(needle), "missing {needle:?} in\n{all}");
        }
    }

    #[test]
    fn semantic_errors_name_the_unit() {
        let text = SMALL.replace("side: \"ru\"", "side: \"prussia\"").replace("strength: 6", "strength: 0");
        let all = problems(&text);
        assert!(all.iter().any(|m| m.starts_with("unit 'ru-sumy'") && m.contains("prussia")), "{all:?}");
        assert!(all.iter().any(|m| m.starts_with("unit 'fr-1-9L'") && m.contains("strength")), "{all:?}");
    }

    #[test]
    fn duplicate_ids_prohibited_terrain_and_bad_characters() {
        let text = SMALL
            .replace("\"ru-sumy\", side", "\"fr-1-9L\", side")
            .replace("at: (3, 1)", "at: (0, 2)")
            .replace("\"..........\"", "\"....X.....\"");
        let all = problems(&text).join("\n");
        assert!(all.contains("duplicate unit id"), "{all}");
        assert!(all.contains("River, prohibited"), "{all}");
        assert!(all.contains("'X'"), "{all}");
    }

    /// The lines `sauve check` prints for `text`.
    fn check_lines(text: &str) -> Vec<String> {
        match parse(text, "t.ron") {
            Err(e) => e.lines(),
            Ok(_) => panic!("expected problems, the file was accepted"),
        }
    }

    /// The line and column of the first occurrence of `needle` in SMALL-like text.
    fn where_is(text: &str, needle: &str) -> String {
        position_of(text, text.find(needle).unwrap_or_else(|| panic!("{needle:?} not in the text")))
    }

    /// The line and column of byte `i` of `text`.
    fn position_of(text: &str, i: usize) -> String {
        let before = &text[..i];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{line}:{col}")
    }

    #[test]
    fn semantic_errors_give_the_line_and_column_of_the_unit_or_field() {
        let text = SMALL
            .replace("morale: 32", "morale: 37, facing: inf")
            .replace("\"...ww..t..\"", "\"...ww..t.\"")
            .replace("rules: ()", "rules: (rout_hexes: 0)")
            .replace("(turn: 1, unit: \"fr-1-9L\"", "(turn: 9, unit: \"fr-1-9L\"")
            .replace("format: 1", "format: 3");
        let lines = check_lines(&text);
        let expect = [
            format!("t.ron:{}: error: format: unsupported format 3", where_is(&text, "format")),
            format!("t.ron:{}: error: map.rows[1]: row 1 has 9 hexes", where_is(&text, "\"...ww")),
            format!("t.ron:{}: error: rules.rout_hexes: 0 must be", where_is(&text, "rout_hexes")),
            format!("t.ron:{}: error: unit 'fr-1-9L': morale 37", where_is(&text, "morale: 37")),
            format!("t.ron:{}: error: unit 'fr-1-9L': facing must be", where_is(&text, "facing")),
            format!("t.ron:{}: error: shocks[0]: turn 9 is outside", where_is(&text, "turn: 9")),
        ];
        for e in &expect {
            assert!(lines.iter().any(|l| l.starts_with(e.as_str())), "missing {e:?} in\n{}", lines.join("\n"));
        }
        assert_eq!(lines.len(), expect.len(), "{}", lines.join("\n"));
    }

    #[test]
    fn a_problem_with_a_missing_field_points_at_its_entry() {
        let text = SMALL.replace(", morale: 32", "");
        let lines = check_lines(&text);
        let entry = where_is(&text, "(id: \"fr-1-9L\"");
        assert_eq!(lines, [format!("t.ron:{entry}: error: unit 'fr-1-9L': missing `morale` (a d66 value such as 32)")]);
    }

    #[test]
    fn duplicate_unit_and_side_ids_name_both_places() {
        let text = SMALL.replace("\"ru-sumy\", side", "\"fr-1-9L\", side").replace("(id: \"ru\"", "(id: \"fr\"");
        let lines = check_lines(&text);
        let (first, second) = (where_is(&text, "(id: \"fr-1-9L\""), where_is(&text, "(id: \"fr-1-9L\", side: \"ru"));
        let first_side = where_is(&text, "(id: \"fr\", name: \"French\"");
        let second_side = where_is(&text, "(id: \"fr\", name: \"Russian\"");
        for e in [
            format!("t.ron:{second}: error: unit 'fr-1-9L': duplicate unit id (first at {first})"),
            format!("t.ron:{second_side}: error: side 'fr': duplicate side id (first at {first_side})"),
        ] {
            assert!(lines.contains(&e), "missing {e:?} in\n{}", lines.join("\n"));
        }
        assert_ne!(first, second);
    }

    #[test]
    fn two_sides_with_one_rear_edge_are_refused_at_the_second_rear() {
        let text = SMALL.replace("rear: North", "rear: South");
        let at = where_is(&text, "rear: South, control: Ai");
        assert_eq!(
            check_lines(&text),
            [format!(
                "t.ron:{at}: error: side 'ru': rear South is also the rear of side 'fr': the two sides must fall back towards different edges"
            )]
        );
        // A rear left to its default (North for the second side) is placed
        // at the side's entry.
        let text =
            SMALL.replace("rear: South, ", "rear: North, ").replace(", rear: North, control: Ai", ", control: Ai");
        let lines = check_lines(&text);
        let entry = where_is(&text, "(id: \"ru\"");
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with(&format!("t.ron:{entry}: error: side 'ru': rear North is also")), "{lines:?}");
    }

    #[test]
    fn a_hexside_on_the_outer_edge_of_the_map_is_refused() {
        // Row 0 has no hexes north of it; even column 0 none to the NW or SW;
        // odd column 9 (the last) none to the NE or SE.
        let text = SMALL.replace(
            "legend: { '=': Bridge },",
            "legend: { '=': Bridge }, hexsides: [(at: (3, 0), side: N, kind: Stream), (at: (3, 0), side: S, kind: Slope),
                (at: (0, 1), side: SW, kind: Slope), (at: (9, 1), side: NW, kind: Slope), (at: (9, 2), side: SE, kind: Stream)],",
        );
        let lines = check_lines(&text);
        let first = where_is(&text, "(at: (3, 0), side: N,");
        let last = where_is(&text, "(at: (9, 2)");
        assert_eq!(
            lines,
            [
                format!(
                    "t.ron:{first}: error: map.hexsides[0]: the N side of (3, 0) is on the map's edge: there is no hex on the other side of it"
                ),
                format!(
                    "t.ron:{}: error: map.hexsides[2]: the SW side of (0, 1) is on the map's edge: there is no hex on the other side of it",
                    where_is(&text, "(at: (0, 1)")
                ),
                format!(
                    "t.ron:{last}: error: map.hexsides[4]: the SE side of (9, 2) is on the map's edge: there is no hex on the other side of it"
                ),
            ]
        );
    }

    #[test]
    fn hex_facing_may_be_degrees_or_a_hexside_name() {
        for (written, degrees) in [("30.0", 30.0), ("120", 120.0), ("NE", 60.0), ("\"SW\"", 240.0), ("Some(NW)", 300.0)]
        {
            let text = SMALL.replace("morale: 32", &format!("morale: 32, facing: {written}"));
            let s = parse(&text, "t.ron").unwrap_or_else(|e| panic!("facing: {written}: {e}"));
            assert_eq!(s.units[0].facing, Some(degrees), "facing: {written}");
        }
    }

    #[test]
    fn a_facing_that_is_no_hexside_name_says_what_is_expected_where() {
        for bad in ["ENE", "\"ENE\"", "Some(ENE)", "(1, 2)", "true"] {
            let text = SMALL.replace("morale: 32", &format!("morale: 32, facing: {bad}"));
            facing_refused_at_its_value(&text, bad);
        }
    }

    fn facing_refused_at_its_value(text: &str, bad: &str) {
        match parse(text, "t.ron") {
            Err(e @ LoadError::Syntax { .. }) => {
                let LoadError::Syntax { line, col, .. } = e else { unreachable!() };
                let written = format!("facing: {bad}");
                let value = text.find(&written).map(|i| i + "facing: ".len());
                let at = position_of(text, value.unwrap_or_else(|| panic!("{written:?} not in the text")));
                assert_eq!(format!("{line}:{col}"), at, "{written}");
                assert_eq!(
                    e.to_string(),
                    format!(
                        "t.ron:{at}: error: facing must be degrees clockwise from north or a hexside name: N, NE, SE, S, SW, NW"
                    )
                );
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
    }

    #[test]
    fn a_free_space_facing_must_be_degrees() {
        let text = r#"Scenario(format: 1, name: "t", mode: FreeSpace, sides: [(id: "a"), (id: "b")],
            map: (rows: ["....", "...."]),
            units: [(id: "a1", side: "a", arm: Infantry, pos: (15.0, 5.0), facing: NE, figures: 24)])"#;
        let at = where_is(text, "facing");
        assert_eq!(
            check_lines(text),
            [format!(
                "t.ron:{at}: error: unit 'a1': facing NE is a hexside name, for Hex mode: give degrees clockwise from north"
            )]
        );
        assert!(parse(&text.replace("facing: NE", "facing: 90"), "t.ron").is_ok());
    }

    #[test]
    fn a_problem_the_file_holds_no_place_for_keeps_the_plain_form() {
        let text = r#"Scenario(format: 1, name: "t", sides: [(id: "a"), (id: "b")], map: (rows: [".."]))"#;
        assert_eq!(check_lines(text), ["t.ron: error: units: a scenario needs at least one unit"]);
    }

    #[test]
    fn objectives_exits_corps_leaders_and_aggression_load() {
        let text = SMALL.replace("control: Player)", "control: Player, aggression: 0.8)").replace(
            "rules: (),",
            r#"objectives: [(at: (7, 1), points: 3, name: "the church", held_by: "ru"), (at: (0, 0))],
                   exits: [(side: "fr", edge: North, points: 2)],
                   corps: [(id: "I", side: "fr", name: "I Corps", units: ["fr-1-9L"], breaks_at: 1)],
                   leaders: [(id: "bulow", side: "ru", with: "ru-sumy", bonus: 2, name: "Bülow")],
                   rules: (),"#,
        );
        let s = parse(&text, "t.ron").expect("valid");
        assert_eq!((s.sides[0].aggression, s.sides[1].aggression), (0.8, DEFAULT_AGGRESSION));
        assert_eq!(
            s.objectives[0],
            Objective { at: Offset::new(7, 1), points: 3, name: "the church".into(), held_by: Some(1) }
        );
        assert_eq!((s.objectives[1].points, s.objectives[1].held_by), (1, None));
        assert_eq!(s.exits, [Exit { side: 0, edge: Edge::North, points: 2 }]);
        assert_eq!(s.leaders[0].with, 1);
        // The explicit corps, then the Russians' implicit one.
        let ids: Vec<_> = s.corps.iter().map(|c| (c.id.as_str(), c.side, c.implicit)).collect();
        assert_eq!(ids, [("I", 0, false), ("ru", 1, true)]);
    }

    #[test]
    fn files_without_the_victory_fields_get_one_implicit_corps_per_side() {
        let s = parse(SMALL, "t.ron").expect("valid");
        assert!(s.objectives.is_empty() && s.exits.is_empty() && s.leaders.is_empty());
        let ids: Vec<_> = s.corps.iter().map(|c| (c.id.as_str(), c.units.clone(), c.breaks_at)).collect();
        assert_eq!(ids, [("fr", vec![0], 1), ("ru", vec![1], 1)]);
    }

    #[test]
    fn victory_field_problems_name_their_subject() {
        let text = SMALL.replace("control: Ai)", "control: Ai, aggression: 1.5)").replace(
            "rules: (),",
            r#"objectives: [(at: (70, 1), points: 0), (at: (1, 1), held_by: "prussia"), (at: (1, 1))],
               exits: [(side: "fr", edge: North), (side: "fr", edge: North, points: 101)],
               corps: [(id: "III", side: "fr", units: ["fr-1-9L", "ru-sumy", "nobody"], breaks_at: 4),
                       (id: "IV", side: "fr", units: ["fr-1-9L"]), (id: "ru", side: "ru", units: ["ru-sumy"])],
               leaders: [(id: "bulow", side: "ru", with: "fr-1-9L", bonus: 7), (id: "bulow", side: "ru", with: "x")],
               rules: (),"#,
        );
        let all = problems(&text);
        for needle in [
            "side 'ru': aggression 1.5",
            "objectives[0]: at (70, 1) is off",
            "objectives[0]: points 0",
            "objectives[1]: held_by 'prussia'",
            "objectives[2]: a second objective at (1, 1)",
            "exits[1]: side 'fr' already has an exit",
            "exits[1]: points 101",
            "corps 'III': unit 'ru-sumy' is on side 'ru'",
            "corps 'III': unit 'nobody' does not exist",
            "corps 'III': breaks_at 4 must be 1..=3",
            "corps 'IV': unit 'fr-1-9L' is already in corps 'III'",
            "corps 'ru': a corps id may not be a side id",
            "leader 'bulow': with 'fr-1-9L' is a unit of side 'fr'",
            "leader 'bulow': bonus 7",
            "leader 'bulow': duplicate leader id",
            "leader 'bulow': with 'x' is not a unit id",
        ] {
            assert!(all.iter().any(|m| m.starts_with(needle)), "missing {needle:?} in\n{}", all.join("\n"));
        }
    }

    #[test]
    fn victory_fields_are_hex_only() {
        let text = r#"Scenario(format: 1, name: "t", mode: FreeSpace,
            sides: [(id: "a", aggression: 0.2), (id: "b")],
            map: (rows: ["....", "...."]),
            units: [(id: "a1", side: "a", arm: Infantry, pos: (15.0, 5.0), figures: 24)],
            objectives: [(at: (1, 1))], corps: [(id: "I", side: "a", units: ["a1"])],
            leaders: [(id: "l", side: "a", with: "a1")], exits: [(side: "a", edge: North)])"#;
        let all = problems(text).join("\n");
        for field in ["objectives", "exits", "corps", "leaders"] {
            assert!(all.contains(&format!("{field}: only used in Hex mode")), "{all}");
        }
        assert!(!all.contains("aggression"), "{all}");
    }

    #[test]
    fn d66_numbers() {
        assert!(is_d66(11) && is_d66(36) && is_d66(66));
        assert!(!is_d66(10) && !is_d66(17) && !is_d66(70) && !is_d66(67) && !is_d66(-11));
    }

    #[test]
    fn free_space_units_are_checked_on_the_table() {
        let text = r#"Scenario(format: 1, name: "t", mode: FreeSpace,
            sides: [(id: "a"), (id: "b")],
            map: (rows: ["....", "...."], cell_cm: 10.0),
            units: [
              (id: "a1", side: "a", arm: Infantry, pos: (15.0, 5.0), facing: 0.0, figures: 24, valour: 0),
              (id: "b1", side: "b", arm: Cavalry, pos: (95.0, 5.0), figures: 12, valour: 9, state: Routed),
            ],
            shocks: [(turn: 1, unit: "a1", to: FU, cause: "b1")])"#;
        let all = problems(text).join("\n");
        assert!(all.contains("off the 40x20 cm table"), "{all}");
        assert!(all.contains("valour 9"), "{all}");
        assert!(all.contains("state Routed is not a FreeSpace-mode state"), "{all}");
        let ok = text.replace("(95.0, 5.0)", "(35.0, 15.0)").replace("valour: 9, state: Routed", "valour: 2");
        let s = parse(&ok, "t").expect("valid");
        assert_eq!(s.units[0].place, Place::Table { x: 15.0, y: 5.0 });
        assert_eq!(s.table_cm(), (40.0, 20.0));
    }
}
