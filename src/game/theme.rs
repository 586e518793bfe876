//! The window's look in one place: every colour it draws with, named by what
//! it means, and the small widget builders the screens share (a button, a
//! line of text). It uses nothing of the window's other files, so every one
//! of them can use it.
//!
//! The colours are grouped: the sides, the units' states, highlights on the
//! map, the map itself, what the views draw (orders, why, forecast, fork,
//! rout preview), panel and card backgrounds, button backgrounds, and
//! text. A colour that changes with a value (a heat ramp) is a function.

use bevy::ecs::spawn::{Spawn, SpawnRelatedBundle};
use bevy::prelude::*;
use bevy::ui_widgets::{ActivateOnPress, Button};

// --- Sides -------------------------------------------------------------

/// A side's counter colour as bytes: the army's traditional colour when the
/// side's id or name says which army it is, otherwise a colour chosen by
/// its index.
pub fn side_rgb(id: &str, name: &str, index: usize) -> [u8; 3] {
    let key = format!("{} {}", id, name).to_lowercase();
    let known: &[(&[&str], [u8; 3])] = &[
        (&["fr", "french", "franç"], [38, 76, 160]),
        (&["pr", "prussia"], [58, 60, 66]),
        (&["ru", "russia"], [46, 104, 62]),
        (&["gb", "br", "brit", "angl", "allied"], [170, 38, 38]),
        (&["au", "austria"], [225, 222, 208]),
        (&["sw", "swed"], [220, 180, 40]),
        (&["sx", "saxon"], [110, 140, 60]),
    ];
    for (names, colour) in known {
        let first = key.split_whitespace().next().unwrap_or("");
        if names.iter().any(|n| first == *n || (n.len() > 2 && key.contains(n))) {
            return *colour;
        }
    }
    [[38, 76, 160], [58, 60, 66], [46, 104, 62], [170, 38, 38]][index % 4]
}

/// Ink that reads on a counter of colour `bg`, as bytes.
pub fn ink_on(bg: [u8; 3]) -> [u8; 3] {
    let lum = 0.299 * bg[0] as f32 + 0.587 * bg[1] as f32 + 0.114 * bg[2] as f32;
    if lum > 150.0 { [20, 20, 20] } else { [250, 250, 245] }
}

/// A colour of bytes.
pub fn rgb(c: [u8; 3]) -> Color {
    Color::srgb_u8(c[0], c[1], c[2])
}

/// A side's counter colour (see [`side_rgb`]): the map's counters, its
/// staff figures and objectives held, and the editor's counters.
pub fn side_colour(id: &str, name: &str, index: usize) -> Color {
    rgb(side_rgb(id, name, index))
}

/// The ink printed on a side's counters (see [`ink_on`]).
pub fn side_ink(id: &str, name: &str, index: usize) -> Color {
    rgb(ink_on(side_rgb(id, name, index)))
}

// --- Units' states ------------------------------------------------------

/// Disordered (and the free-space U and LU's border): amber.
pub const DISORDERED: Color = Color::srgb(0.96, 0.72, 0.1);
/// Routed, and the free-space FU: red.
pub const ROUTED: Color = Color::srgb(0.85, 0.1, 0.08);
/// Surrendered: white.
pub const SURRENDERED: Color = Color::srgb(0.95, 0.95, 0.95);
/// Eliminated: black.
pub const ELIMINATED: Color = Color::srgb(0.1, 0.1, 0.1);
/// The free-space LU (lightly unsteady): yellow.
pub const LIGHTLY_UNSTEADY: Color = Color::srgb(0.96, 0.85, 0.2);
/// The free-space U (unsteady): orange.
pub const UNSTEADY: Color = Color::srgb(0.96, 0.55, 0.1);
/// The badge of tired cavalry.
pub const TIRED: Color = Color::srgb(0.98, 0.8, 0.3);
/// The badge of exhausted cavalry.
pub const EXHAUSTED: Color = Color::srgb(0.75, 0.75, 0.75);

// --- Counters -------------------------------------------------------------

/// A counter's border in good order, and the dark outline of its front bar.
pub const COUNTER_BORDER: Color = Color::srgb(0.08, 0.08, 0.08);
/// The light fill of a hex counter's front bar.
pub const FRONT_FILL: Color = Color::srgb(1.0, 0.9, 0.25);
/// The light front edge of a free-space counter.
pub const TABLE_FRONT: Color = Color::srgb(1.0, 0.95, 0.6);
/// A staff figure's ring and name.
pub const STAFF_INK: Color = Color::srgb(0.05, 0.05, 0.05);
/// The counters of the frame-time benchmark's bare scene.
pub const BENCH_COUNTER: Color = Color::srgb(0.2, 0.3, 0.7);

// --- Highlights -------------------------------------------------------------

/// The selection and a chain's root: gold.
pub const GOLD: Color = Color::srgb(1.0, 0.85, 0.1);
/// The ring of a problem's place in the editor: red.
pub const PROBLEM: Color = Color::srgb(1.0, 0.15, 0.15);
/// An allowed move (a free-space drag): green.
pub const PASS: Color = Color::srgb(0.2, 0.85, 0.3);
/// A refused move (a free-space drag): red.
pub const FAIL: Color = Color::srgb(0.95, 0.2, 0.15);
/// The hex (or table cell) under the pointer.
pub const POINTED: Color = Color::srgb(1.0, 0.95, 0.3);
/// The selected unit's outline.
pub const SELECTED: Color = Color::srgb(0.2, 1.0, 1.0);
/// The other units of the group given orders together.
pub const GROUP: Color = Color::srgb(0.2, 0.9, 0.9);
/// A passed check floating over its counter.
pub const FLASH_PASS: Color = Color::srgb(0.2, 0.55, 0.2);
/// A failed check floating over its counter.
pub const FLASH_FAIL: Color = Color::srgb(0.75, 0.08, 0.06);
/// A melee's lines from the attackers to the target.
pub const STRIKE_MELEE: Color = Color::srgb(0.9, 0.1, 0.1);
/// A volley's lines from the firers to the target.
pub const STRIKE_FIRE: Color = Color::srgb(1.0, 0.6, 0.1);
/// A contagion check passed: the line from its cause.
pub const CONTAGION_PASSED: Color = Color::srgb(1.0, 0.85, 0.2);
/// A contagion check failed: the line from its cause.
pub const CONTAGION_FAILED: Color = Color::srgb(1.0, 0.15, 0.1);

// --- The map ---------------------------------------------------------------

/// The window behind the map.
pub const BACKGROUND: Color = Color::srgb(0.16, 0.17, 0.15);
/// A road's dark edge.
pub const ROAD_EDGE: Color = Color::srgb(0.45, 0.36, 0.24);
/// A road's sandy fill.
pub const ROAD_FILL: Color = Color::srgb(0.82, 0.68, 0.42);
/// The light casing of a stream.
pub const STREAM_CASING: Color = Color::srgb(0.93, 0.96, 1.0);
/// A stream's water.
pub const STREAM: Color = Color::srgb(0.18, 0.42, 0.85);
/// A slope and its hachures.
pub const SLOPE: Color = Color::srgb(0.48, 0.32, 0.18);
/// An objective nobody holds: pale gold.
pub const OBJECTIVE_UNHELD: Color = Color::srgb(0.95, 0.85, 0.45);
/// The light casing under an objective's ring.
pub const OBJECTIVE_CASING: Color = Color::srgba(1.0, 1.0, 0.9, 0.8);

// --- Overlays and orders -----------------------------------------------------

/// A hex in an enemy cavalry's zone of influence.
pub const ZONE_CAVALRY: Color = Color::srgba(0.6, 0.0, 0.5, 0.45);
/// A hex in an enemy's zone of influence.
pub const ZONE: Color = Color::srgba(0.8, 0.0, 0.0, 0.4);
/// A hex the selected unit can reach.
pub const RANGE: Color = Color::srgba(0.1, 0.55, 0.95, 0.42);
/// This turn's rout moves (key 4).
pub const ROUT_ARROW: Color = Color::srgba(0.85, 0.05, 0.05, 0.85);
/// The light casing under a march's path.
pub const MARCH_CASING: Color = Color::srgb(1.0, 1.0, 0.9);
/// A march's path.
pub const MARCH: Color = Color::srgb(0.05, 0.15, 0.6);
/// The arrows of a fire, melee or charge about to be ordered.
pub const TARGET_ARROW: Color = Color::srgba(1.0, 0.8, 0.2, 0.9);

/// The distance heat map's colour at `t` (0 next to the enemy, 1 at the
/// ramp's end): red, through yellow, fading out.
pub fn distance_heat(t: f32) -> Color {
    Color::srgba(0.95, 0.15 + 0.8 * t, 0.1 + 0.3 * t, 0.55 * (1.0 - t) + 0.08)
}

// --- The rout preview ----------------------------------------------------------

/// The path's colour: violet, apart from the red of this turn's rout
/// arrows (key 4) and the blue of a march.
pub const ROUT_PATH: Color = Color::srgb(0.86, 0.2, 0.95);
/// The dark casing of the path.
pub const ROUT_CASING: Color = Color::srgb(0.16, 0.02, 0.2);
/// Behind a friend's chance to fail its contagion check.
pub const ROUT_LABEL: Color = Color::srgba(0.22, 0.03, 0.28, 0.92);

// --- The why view ---------------------------------------------------------------

/// A contagion link of the chain.
pub const LINK_CONTAGION: Color = Color::srgb(1.0, 0.55, 0.1);
/// A fire link of the chain.
pub const LINK_FIRE: Color = Color::srgb(1.0, 0.85, 0.2);
/// A melee link of the chain.
pub const LINK_MELEE: Color = Color::srgb(0.95, 0.15, 0.15);
/// A stack link of the chain.
pub const LINK_STACK: Color = Color::srgb(0.75, 0.45, 1.0);
/// A rout, a flight or a unit carried along.
pub const PATH_ROUT: Color = Color::srgba(0.95, 0.1, 0.1, 0.9);
/// A move in disorder.
pub const PATH_DISORDER: Color = Color::srgba(1.0, 0.6, 0.2, 0.9);
/// Any other move.
pub const PATH_OTHER: Color = Color::srgba(0.8, 0.8, 0.9, 0.9);
/// The map dimmed under the chain.
pub const DIM: Color = Color::srgba(0.0, 0.0, 0.0, 0.62);
/// Behind a step's number.
pub const STEP_LABEL: Color = Color::srgba(0.05, 0.05, 0.08, 0.9);
/// The ring of the unit asked about: magenta.
pub const WHY_TARGET: Color = Color::srgb(1.0, 0.3, 0.9);

// --- The forecast and the fork ----------------------------------------------------

/// The colour of a chance at `t` (0 to 1): pale yellow at a few percent to
/// deep red at certainty.
pub fn chance_heat(t: f32) -> Color {
    Color::srgb(1.0, 0.92 - 0.8 * t, 0.35 - 0.3 * t)
}

/// The ring of a unit whose fate differs between the branches.
pub const DIFFER: Color = Color::srgb(0.2, 0.9, 1.0);

// --- Panels and cards ----------------------------------------------------------

/// The battle's top bar and side panel.
pub const PANEL: Color = Color::srgba(0.07, 0.07, 0.08, 0.92);
/// The editor's top bar and side panel.
pub const EDITOR_PANEL: Color = Color::srgb(0.07, 0.07, 0.08);
/// The editor's palette.
pub const PALETTE: Color = Color::srgba(0.07, 0.07, 0.08, 0.95);
/// The card of a scenario's errors.
pub const ERROR_CARD: Color = Color::srgba(0.25, 0.04, 0.04, 0.95);
/// The help card.
pub const HELP_CARD: Color = Color::srgba(0.05, 0.05, 0.06, 0.93);
/// The scenario menu.
pub const MENU: Color = Color::srgba(0.08, 0.08, 0.1, 0.95);
/// The banner of a phase waiting for orders.
pub const BANNER: Color = Color::srgba(0.06, 0.06, 0.08, 0.94);
/// The why view's panel.
pub const WHY_PANEL: Color = Color::srgba(0.06, 0.06, 0.08, 0.98);
/// The fork's panel.
pub const FORK_PANEL: Color = Color::srgba(0.04, 0.07, 0.09, 0.95);
/// The card at the end of a battle.
pub const GAME_OVER_CARD: Color = Color::srgb(0.07, 0.07, 0.09);
/// The gold border of the card at the end of a battle.
pub const GAME_OVER_BORDER: Color = Color::srgb(0.85, 0.7, 0.3);
/// The forecast's legend.
pub const FORECAST_PANEL: Color = Color::srgba(0.22, 0.08, 0.03, 0.95);
/// Behind the forecast's progress bar.
pub const FORECAST_BAR: Color = Color::srgb(0.35, 0.2, 0.12);
/// The rout preview's legend.
pub const ROUT_PANEL: Color = Color::srgba(0.17, 0.04, 0.21, 0.97);
/// A text field (the editor's name field).
pub const FIELD: Color = Color::srgb(0.15, 0.15, 0.18);
/// A text field's border.
pub const FIELD_BORDER: Color = Color::srgb(0.5, 0.5, 0.55);
/// Behind a problem's line in the editor.
pub const PROBLEM_LINE: Color = Color::srgba(0.3, 0.05, 0.05, 0.6);
/// Behind a warning's line in the editor.
pub const WARNING_LINE: Color = Color::srgba(0.3, 0.25, 0.05, 0.6);

// --- Buttons ---------------------------------------------------------------------

/// A button: a menu line, a seat not taken, a unit's field, a morale.
pub const BUTTON: Color = Color::srgb(0.2, 0.22, 0.28);
/// The seats taken.
pub const BUTTON_ON: Color = Color::srgb(0.3, 0.42, 0.3);
/// The menu's lines into the editor.
pub const BUTTON_EDITOR: Color = Color::srgb(0.3, 0.25, 0.12);
/// A command: End phase, Undo, Close, Play again.
pub const BUTTON_ACTION: Color = Color::srgb(0.24, 0.3, 0.42);
/// The side panel's "Why did it break?".
pub const BUTTON_WHY: Color = Color::srgb(0.35, 0.2, 0.18);
/// The fork's "Show the other branch".
pub const BUTTON_FORK: Color = Color::srgb(0.1, 0.35, 0.45);
/// An editor's palette button.
pub const PALETTE_BUTTON: Color = Color::srgb(0.18, 0.2, 0.24);
/// The editor's palette button of the chosen tool or brush.
pub const PALETTE_BUTTON_ON: Color = Color::srgb(0.55, 0.42, 0.12);
/// The selected unit's morale in the editor's grid.
pub const MORALE_NOW: Color = Color::srgb(0.6, 0.45, 0.1);
/// The roll a fork would not change (not a button).
pub const ROLL_SAME: Color = Color::srgb(0.3, 0.3, 0.3);
/// A roll whose check passes.
pub const ROLL_PASSES: Color = Color::srgb(0.15, 0.45, 0.2);
/// A roll whose check fails.
pub const ROLL_FAILS: Color = Color::srgb(0.55, 0.15, 0.12);
/// A roll with no check to pass or fail.
pub const ROLL_OTHER: Color = Color::srgb(0.25, 0.3, 0.4);
/// The fork's picked event line.
pub const LINE_PICKED: Color = Color::srgba(0.25, 0.4, 0.5, 0.9);
/// A why line at rest: clear.
pub const LINE: Color = Color::srgba(0.2, 0.22, 0.28, 0.0);
/// The why line of the latest event shown (at alpha 0.9).
pub const LINE_CURRENT: Color = Color::srgb(0.25, 0.3, 0.45);

// --- Text --------------------------------------------------------------------------

/// A button's label.
pub const TEXT: Color = Color::WHITE;
/// The top bar.
pub const TEXT_BAR: Color = Color::srgb(0.95, 0.92, 0.8);
/// Headings: the menu's, the selected unit's details, the why panel's.
pub const TEXT_HEADING: Color = Color::srgb(0.95, 0.9, 0.7);
/// What is under the pointer.
pub const TEXT_HOVER: Color = Color::srgb(0.85, 0.88, 0.8);
/// The battle log's title.
pub const TEXT_LOG_TITLE: Color = Color::srgb(0.6, 0.75, 0.95);
/// The battle log.
pub const TEXT_LOG: Color = Color::srgb(0.88, 0.88, 0.85);
/// A scenario's errors.
pub const TEXT_ERROR: Color = Color::srgb(1.0, 0.9, 0.85);
/// The help card.
pub const TEXT_HELP: Color = Color::srgb(0.95, 0.95, 0.9);
/// Titles: the banner's, the end card's.
pub const TEXT_TITLE: Color = Color::srgb(1.0, 0.85, 0.4);
/// The banner's hint.
pub const TEXT_HINT: Color = Color::srgb(0.85, 0.88, 0.9);
/// Small print beside the banner's buttons.
pub const TEXT_SMALL: Color = Color::srgb(0.7, 0.72, 0.75);
/// The odds.
pub const TEXT_ODDS: Color = Color::srgb(0.75, 0.95, 0.75);
/// An order refused.
pub const TEXT_REFUSED: Color = Color::srgb(1.0, 0.5, 0.45);
/// A message that is no refusal (saved, seats changed).
pub const TEXT_MESSAGE: Color = Color::srgb(0.6, 0.9, 1.0);
/// Body text: the end card's, the why lines of events shown.
pub const TEXT_BODY: Color = Color::srgb(0.92, 0.92, 0.88);
/// The why lines of events not yet shown.
pub const TEXT_LATER: Color = Color::srgb(0.5, 0.5, 0.5);
/// The fork's panel.
pub const TEXT_FORK: Color = Color::srgb(0.9, 0.95, 0.97);
/// The forecast's legend.
pub const TEXT_FORECAST: Color = Color::srgb(1.0, 0.93, 0.85);
/// The rout preview's legend.
pub const TEXT_ROUT: Color = Color::srgb(0.96, 0.88, 1.0);
/// A problem's line in the editor.
pub const TEXT_PROBLEM: Color = Color::srgb(1.0, 0.8, 0.8);
/// A warning's line in the editor.
pub const TEXT_WARNING: Color = Color::srgb(1.0, 0.95, 0.7);

// --- Widgets -------------------------------------------------------------------------

/// A node padded by `x` on the left and right, `y` above and below; more
/// by `Node { margin: .., ..pad(x, y) }`.
pub fn pad(x: f32, y: f32) -> Node {
    Node { padding: UiRect::axes(Val::Px(x), Val::Px(y)), ..default() }
}

/// A line of text: its words, their size and colour.
pub type Words = (Text, TextFont, TextColor);

/// What a button looks like: its node, its background, its words.
pub type Face = (Node, BackgroundColor, SpawnRelatedBundle<ChildOf, Spawn<Words>>);

/// Words in the default colour (white) at `size`.
pub fn label(words: impl Into<String>, size: f32) -> (Text, TextFont) {
    (Text::new(words), TextFont::from_font_size(size))
}

/// Words in `colour` at `size`.
pub fn text(words: impl Into<String>, size: f32, colour: Color) -> Words {
    (Text::new(words), TextFont::from_font_size(size), TextColor(colour))
}

/// What a button looks like: `node` on `back`, with its `words` at `size`
/// in `ink`; not clickable by itself (see [`button`]).
pub fn button_face(words: impl Into<String>, size: f32, back: Color, ink: Color, node: Node) -> Face {
    (node, BackgroundColor(back), children![text(words, size, ink)])
}

/// What makes a node a button: it acts on the press. (A button that waits
/// for the click loses a press and release that fall in one frame, as a
/// quick click does at a low frame rate: bevy's button marks itself
/// pressed only once the frame's commands are applied.)
pub type Pressable = (Button, ActivateOnPress);

/// A button: `node` on `back`, its `words` at `size` in white. The caller
/// adds what it does (a marker the `Activate` observer looks for).
pub fn button(words: impl Into<String>, size: f32, back: Color, node: Node) -> (Pressable, Face) {
    ((Button, ActivateOnPress), button_face(words, size, back, TEXT, node))
}

/// A button whose words are in `ink`.
pub fn inked_button(words: impl Into<String>, size: f32, back: Color, ink: Color, node: Node) -> (Pressable, Face) {
    ((Button, ActivateOnPress), button_face(words, size, back, ink, node))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn armies_wear_their_colours() {
        assert_eq!(side_rgb("fr", "French", 0), [38, 76, 160]);
        assert_eq!(side_rgb("pr", "Prussians", 0), [58, 60, 66]);
        assert_eq!(side_rgb("ru", "Russians", 1), [46, 104, 62]);
        assert_eq!(side_rgb("x", "Blue", 1), [58, 60, 66]);
        assert_eq!(ink_on([225, 222, 208]), [20, 20, 20]);
        assert_eq!(side_colour("fr", "French", 0), Color::srgb_u8(38, 76, 160));
        assert_eq!(side_ink("au", "Austrians", 0), Color::srgb_u8(20, 20, 20));
    }
}
