//! The page of the editor's side panel: a form of every field of what it
//! is about (the scenario, the map, a side, the selected unit or staff
//! figure, an entry of a list, the rules block), each value typed into
//! its field (Enter, or leaving the field, sets it; Esc puts it back) or
//! chosen by clicking through its words; with each field the problems
//! the checker finds there, so the control that mends a problem is beside
//! it. The problems page lists them all; a click goes to the control.

use bevy::input_focus::InputFocus;
use bevy::prelude::*;
use bevy::text::EditableText;
use bevy::ui_widgets::Activate;

use super::model::{Editor, Page, UnitAct};
use crate::edit::fields::{self, Kind, List, Row, Subject};
use crate::edit::forces::Spot;
use crate::edit::reshape::Margins;
use crate::edit::{places, rules_form};
use crate::game::opened::Opened;
use crate::game::screen::MainCamera;
use crate::game::sets::GameSet;
use crate::game::state::Screen;
use crate::game::theme::{self, button, inked_button, pad, text};
use crate::scenario::{Mode, Problem};
use crate::terrain::Arm;

/// The part of the side panel that holds the page and scrolls.
#[derive(Component)]
pub struct Body;

/// A typed field of the form.
#[derive(Component, Clone, Debug)]
pub struct FieldInput {
    pub subject: Subject,
    pub field: String,
    /// What it showed when drawn: a change from it is an edit.
    pub shown: String,
}

/// A field chosen from words: a click gives the next.
#[derive(Component, Clone, Debug)]
pub struct ChoiceButton {
    pub subject: Subject,
    pub field: String,
    pub choices: Vec<String>,
    pub now: String,
}

/// A button of the selected unit's quick changes.
#[derive(Component)]
pub struct FieldButton(pub UnitAct);

/// A morale of the d66 grid: clicking it gives the selected unit that
/// morale.
#[derive(Component)]
pub struct MoralePick(pub i64);

/// An entry of a list page, shown when clicked.
#[derive(Component)]
struct EntryButton(usize);
#[derive(Component)]
struct AddEntry(List);
#[derive(Component)]
struct RemoveEntry(List, usize);
/// The map grown or cut at its edges.
#[derive(Component)]
struct Grow(Margins);
/// A rule back to the house's value.
#[derive(Component)]
struct ResetRule(String);
/// A rule to set, from the finder.
#[derive(Component)]
struct AddRule(String);
/// The rule finder's field, and the list of what it finds.
#[derive(Component)]
pub struct RuleFinder;
#[derive(Component)]
struct RuleMatches;
/// A problem's line: clicking it goes to its control and its place.
#[derive(Component)]
pub struct ProblemLine(pub usize);

/// How many problem and warning lines the page shows (for the tests).
#[cfg(test)]
pub fn problem_lines(world: &mut World) -> usize {
    world.query_filtered::<(), With<ProblemLine>>().iter(world).count()
}

/// What the page was last drawn for: drawn again when it differs.
#[derive(Resource, Default, PartialEq, Clone, Debug)]
struct DrawnFor(Option<(Page, usize, Option<String>, Option<usize>, u64, Option<String>, Vec<String>, usize, usize)>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DrawnFor>();
    app.add_systems(
        Update,
        (commit, build, find_rules).chain().in_set(GameSet::Panels).run_if(in_state(Screen::Editor)),
    );
    app.add_observer(activate);
}

fn key(e: &Editor) -> DrawnFor {
    DrawnFor(Some((
        e.page,
        e.entry,
        e.selected.clone(),
        e.staff,
        e.checked,
        e.lit.clone(),
        e.rules_shown.clone(),
        e.problems.len(),
        e.warnings.len(),
    )))
}

/// Enter in a field, or leaving it with its words changed, sets the
/// field; Esc puts back what it showed.
fn commit(
    keys: Res<ButtonInput<KeyCode>>,
    focus: Option<ResMut<InputFocus>>,
    mut last: Local<Option<Entity>>,
    mut inputs: Query<(&FieldInput, &mut EditableText)>,
    editor: Option<ResMut<Editor>>,
) {
    let (Some(mut focus), Some(mut e)) = (focus, editor) else { return };
    let now = focus.get();
    let set = |e: &mut Editor, input: &FieldInput, typed: String| {
        if typed.trim() != input.shown.trim() {
            e.set_field(input.subject, &input.field, &typed);
        }
    };
    if let Some(f) = now
        && let Ok((input, mut t)) = inputs.get_mut(f)
    {
        if keys.just_pressed(KeyCode::Escape) {
            t.editor_mut().set_text(&input.shown);
            focus.clear();
            e.message = "Left as it was.".into();
        } else if keys.just_pressed(KeyCode::Enter) {
            let typed = t.value().to_string();
            set(&mut e, input, typed);
            focus.clear();
        }
    }
    let now = focus.get();
    if *last != now {
        if let Some(was) = *last
            && let Ok((input, t)) = inputs.get(was)
        {
            let typed = t.value().to_string();
            set(&mut e, input, typed);
        }
        *last = now;
    }
}

/// Whether a typed field of the page has the keys.
fn typing(focus: &Option<Res<InputFocus>>, inputs: &Query<(), Or<(With<FieldInput>, With<RuleFinder>)>>) -> bool {
    focus.as_ref().and_then(|f| f.get()).is_some_and(|f| inputs.contains(f))
}

/// Draws the page again when what it shows changed (never while one of
/// its fields is being typed in: the edit comes when it is set).
fn build(
    mut commands: Commands,
    editor: Option<Res<Editor>>,
    body: Query<Entity, With<Body>>,
    mut drawn: ResMut<DrawnFor>,
    focus: Option<Res<InputFocus>>,
    inputs: Query<(), Or<(With<FieldInput>, With<RuleFinder>)>>,
    fresh: Query<(), Added<Body>>,
) {
    let Some(e) = editor else { return };
    let Ok(body) = body.single() else { return };
    let want = key(&e);
    if (*drawn == want && fresh.is_empty()) || typing(&focus, &inputs) {
        return;
    }
    *drawn = want;
    commands.entity(body).despawn_children();
    let mut out = Vec::new();
    page(&e, &mut out);
    for b in out {
        b(&mut commands, body);
    }
}

/// One piece of the page, spawned under the body in order.
type Piece = Box<dyn FnOnce(&mut Commands, Entity) + Send>;

fn push(out: &mut Vec<Piece>, bundle: impl Bundle) {
    out.push(Box::new(move |c: &mut Commands, body: Entity| {
        c.entity(body).with_child(bundle);
    }));
}

fn heading(out: &mut Vec<Piece>, words: impl Into<String>) {
    push(out, text(words, 13.0, theme::TEXT_TITLE));
}

fn note(out: &mut Vec<Piece>, words: impl Into<String>) {
    push(out, (text(words, 11.0, theme::TEXT_SMALL), Node { width: Val::Percent(100.0), ..default() }));
}

/// A row of small buttons, wrapped.
fn buttons<C: Component>(out: &mut Vec<Piece>, items: Vec<(C, String, Color)>) {
    out.push(Box::new(move |c: &mut Commands, body: Entity| {
        let row = c
            .spawn((
                Node { flex_wrap: FlexWrap::Wrap, column_gap: Val::Px(3.0), row_gap: Val::Px(3.0), ..default() },
                ChildOf(body),
            ))
            .id();
        for (marker, words, back) in items {
            c.entity(row).with_child((marker, button(words, 11.0, back, pad(5.0, 1.0))));
        }
    }));
}

/// The problems and warnings about a place: those whose path is it or
/// under it.
fn about<'a>(e: &'a Editor, path: &str) -> Vec<(&'a Problem, bool)> {
    let under = |p: &Problem| {
        p.path
            .as_deref()
            .is_some_and(|x| x == path || x.starts_with(&format!("{path}.")) || x.starts_with(&format!("{path}[")))
    };
    let problems = e.problems.iter().filter(|p| under(p)).map(|p| (p, true));
    problems.chain(e.warnings.iter().filter(|p| under(p)).map(|p| (p, false))).collect()
}

/// The problems and warnings about a whole entry (`units[3]`, not one of
/// its fields), at the top of its form, with the rules they name.
fn entry_troubles(e: &Editor, out: &mut Vec<Piece>, subject: Subject) {
    let path = subject.path();
    for p in e.problems.iter().map(|p| (p, true)).chain(e.warnings.iter().map(|p| (p, false))) {
        if p.0.path.as_deref() != Some(path.as_str()) {
            continue;
        }
        let ink = if p.1 { theme::TEXT_PROBLEM } else { theme::TEXT_WARNING };
        push(out, (text(p.0.message.clone(), 11.0, ink), Node { width: Val::Percent(100.0), ..default() }));
        let rules: Vec<(AddRule, String, Color)> = rules_named(&p.0.message)
            .into_iter()
            .map(|r| (AddRule(r.clone()), format!("change rules.{r}"), theme::BUTTON))
            .collect();
        if !rules.is_empty() {
            buttons(out, rules);
        }
    }
}

/// A form's rows, each a label and its control, its hint beneath and the
/// problems the checker finds in it.
fn form(e: &Editor, out: &mut Vec<Piece>, subject: Subject, rows: Vec<Row>) {
    for r in rows {
        let lit = e.lit.as_deref() == Some(r.field.as_str());
        let troubles: Vec<(String, bool)> =
            about(e, &r.path).into_iter().map(|(p, bad)| (p.message.clone(), bad)).collect();
        let back = if lit || troubles.iter().any(|t| t.1) { theme::PROBLEM_LINE } else { Color::NONE };
        let hint = r.hint.clone();
        // A side named by its id is shown with its name.
        let shown_as = matches!(r.field.as_str(), "side" | "held_by")
            .then(|| e.file().sides.iter().position(|s| s.id == r.value).map(|i| e.side_name(i)))
            .flatten();
        out.push(Box::new(move |c: &mut Commands, body: Entity| {
            let line = c
                .spawn((
                    Node {
                        flex_direction: FlexDirection::Column,
                        padding: UiRect::axes(Val::Px(2.0), Val::Px(1.0)),
                        ..default()
                    },
                    BackgroundColor(back),
                    ChildOf(body),
                ))
                .id();
            // A long label (a rule's path) stands above its control.
            let long = r.label.chars().count() > 14;
            if long {
                c.entity(line).with_child((
                    text(r.label.clone(), 12.0, theme::TEXT_HOVER),
                    Node { width: Val::Percent(100.0), ..default() },
                ));
            }
            let row = c
                .spawn((Node { column_gap: Val::Px(4.0), align_items: AlignItems::Center, ..default() }, ChildOf(line)))
                .id();
            if !long {
                c.entity(row).with_child((
                    text(r.label.clone(), 12.0, theme::TEXT_HOVER),
                    Node { width: Val::Px(96.0), min_width: Val::Px(96.0), overflow: Overflow::clip(), ..default() },
                ));
            }
            let control = Node { flex_grow: 1.0, min_width: Val::Px(0.0), ..pad(4.0, 2.0) };
            match &r.kind {
                Kind::Text | Kind::Number => {
                    c.entity(row).with_child((
                        FieldInput { subject, field: r.field.clone(), shown: r.value.clone() },
                        Node { border: UiRect::all(Val::Px(1.0)), overflow: Overflow::clip(), ..control },
                        BorderColor::all(theme::FIELD_BORDER),
                        BackgroundColor(theme::FIELD),
                        EditableText { allow_newlines: false, ..EditableText::new(&r.value) },
                        TextLayout::no_wrap(),
                        TextFont::from_font_size(13.0),
                        bevy::text::TextCursorStyle::default(),
                    ));
                }
                Kind::Choice(choices) => {
                    let words = match (&shown_as, r.value.is_empty()) {
                        (_, true) => "(default)".to_owned(),
                        (Some(name), false) => format!("{} ({name})", r.value),
                        (None, false) => r.value.clone(),
                    };
                    c.entity(row).with_child((
                        ChoiceButton {
                            subject,
                            field: r.field.clone(),
                            choices: choices.clone(),
                            now: r.value.clone(),
                        },
                        button(format!("{words}  ▸"), 12.0, theme::BUTTON, control),
                    ));
                }
                Kind::Fixed => {
                    c.entity(row).with_child((text(r.value.clone(), 12.0, theme::TEXT_BODY), control));
                }
            }
            if subject == Subject::Rules {
                c.entity(row)
                    .with_child((ResetRule(r.field.clone()), button("reset", 11.0, theme::BUTTON, pad(4.0, 1.0))));
            }
            c.entity(line)
                .with_child((text(hint, 10.0, theme::TEXT_SMALL), Node { width: Val::Percent(100.0), ..default() }));
            for (m, bad) in troubles {
                let ink = if bad { theme::TEXT_PROBLEM } else { theme::TEXT_WARNING };
                c.entity(line).with_child((text(m, 11.0, ink), Node { width: Val::Percent(100.0), ..default() }));
            }
        }));
    }
}

/// The page's pieces for the editor as it stands.
fn page(e: &Editor, out: &mut Vec<Piece>) {
    let f = e.file();
    match e.page {
        Page::Scenario => {
            heading(out, "The scenario");
            form(e, out, Subject::Scenario, fields::rows(f, Subject::Scenario));
        }
        Page::Map => {
            heading(out, "The map");
            note(out, "Paint it with the palette; here its size, extra letters and cells.");
            form(e, out, Subject::Map, fields::rows(f, Subject::Map));
            let two = if f.mode == Mode::Hex { 2 } else { 1 };
            let grow = |m: Margins, w: &str| (Grow(m), w.to_owned(), theme::BUTTON);
            let cols = if two == 2 { "2 columns" } else { "1 column" };
            buttons(
                out,
                vec![
                    grow(Margins { top: 1, ..default() }, "+ row at top"),
                    grow(Margins { top: -1, ..default() }, "- row at top"),
                    grow(Margins { left: two, ..default() }, &format!("+ {cols} at left")),
                    grow(Margins { left: -two, ..default() }, &format!("- {cols} at left")),
                    grow(Margins { bottom: 1, ..default() }, "+ row at bottom"),
                    grow(Margins { bottom: -1, ..default() }, "- row at bottom"),
                    grow(Margins { right: 1, ..default() }, "+ column at right"),
                    grow(Margins { right: -1, ..default() }, "- column at right"),
                ],
            );
            note(out, "Units, objectives and hexsides move with their ground.");
        }
        Page::Side(i) => {
            heading(out, format!("Side {}: the {}", i + 1, e.side_name(i)));
            entry_troubles(e, out, Subject::Side(i));
            form(e, out, Subject::Side(i), fields::rows(f, Subject::Side(i)));
        }
        Page::Unit => unit_page(e, out),
        Page::List(l) => list_page(e, out, l),
        Page::Rules => rules_page(e, out),
        Page::Problems => problems_page(e, out),
    }
}

fn unit_page(e: &Editor, out: &mut Vec<Piece>) {
    let f = e.file();
    if let Some(i) = e.staff.filter(|&i| i < f.staff.len()) {
        heading(out, "Staff figure");
        entry_troubles(e, out, Subject::Staff(i));
        buttons(out, vec![(RemoveEntry(List::Staff, i), "delete it".to_owned(), theme::BUTTON_WHY)]);
        form(e, out, Subject::Staff(i), fields::rows(f, Subject::Staff(i)));
        return;
    }
    let Some(i) = e.selected_index() else {
        heading(out, "No unit selected");
        note(out, "Click a unit with the select tool, or place one with a unit button of the palette.");
        return;
    };
    let u = &f.units[i];
    heading(out, e.unit_name(&u.id));
    entry_troubles(e, out, Subject::Unit(i));
    let quick: Vec<(FieldButton, String, Color)> =
        quick_buttons(f.mode, u.arm).into_iter().map(|(a, w)| (FieldButton(a), w.to_owned(), theme::BUTTON)).collect();
    buttons(out, quick);
    note(out, "Keys: T / Shift+T turn, drag or M+click moves, Ctrl+D copies, Delete deletes.");
    if let (Mode::Hex, Some(now)) = (f.mode, u.morale) {
        note(out, "Morale (d66; a check passes above it):");
        for t in 1..=6 {
            let row: Vec<(MoralePick, String, Color)> = (1..=6)
                .map(|u| {
                    let v = t * 10 + u;
                    (MoralePick(v), v.to_string(), if v == now { theme::MORALE_NOW } else { theme::BUTTON })
                })
                .collect();
            buttons(out, row);
        }
    }
    form(e, out, Subject::Unit(i), fields::rows(f, Subject::Unit(i)));
    let shocks: Vec<usize> = (0..f.shocks.len()).filter(|&k| f.shocks[k].unit == u.id).collect();
    for k in shocks {
        note(out, format!("Shock: {} (on the Shocks page)", fields::entry_words(f, List::Shocks, k)));
    }
}

/// The selected unit's quick changes, with their labels.
pub fn quick_buttons(mode: Mode, arm: Arm) -> Vec<(UnitAct, &'static str)> {
    let mut out = vec![
        (UnitAct::Side, "other side"),
        (UnitAct::Arm, "next arm"),
        (UnitAct::State, "next state"),
        (UnitAct::Formation, "next formation"),
        (UnitAct::Weaker, if mode == Mode::Hex { "strength -" } else { "figures -" }),
        (UnitAct::Stronger, if mode == Mode::Hex { "strength +" } else { "figures +" }),
        (UnitAct::TurnLeft, "turn left"),
        (UnitAct::TurnRight, "turn right"),
        (UnitAct::Shock, "shock"),
        (UnitAct::LaterShock, "shock later"),
    ];
    if mode == Mode::Hex {
        out.push((UnitAct::Leader, "leader"));
    } else {
        out.extend([(UnitAct::MoraleDown, "valour -"), (UnitAct::MoraleUp, "valour +")]);
        if arm == Arm::Artillery {
            out.extend([(UnitAct::Limbered, "limbered"), (UnitAct::Horse, "horse")]);
        }
    }
    out.push((UnitAct::Delete, "delete"));
    out
}

fn list_page(e: &Editor, out: &mut Vec<Piece>, list: List) {
    let f = e.file();
    let n = list.len(f);
    heading(out, format!("{} ({n})", list.name()));
    let entries: Vec<(EntryButton, String, Color)> = (0..n)
        .map(|i| {
            let back = if i == e.entry { theme::PALETTE_BUTTON_ON } else { theme::BUTTON };
            let bad = !about(e, &list.subject(i).path()).is_empty();
            let words = format!("{}{}", if bad { "! " } else { "" }, fields::entry_words(f, list, i));
            (EntryButton(i), words, back)
        })
        .collect();
    buttons(out, entries);
    buttons(out, vec![(AddEntry(list), format!("+ add to {}", list.name()), theme::BUTTON_ACTION)]);
    if e.entry < n {
        buttons(out, vec![(RemoveEntry(list, e.entry), "delete this one".to_owned(), theme::BUTTON_WHY)]);
        entry_troubles(e, out, list.subject(e.entry));
        form(e, out, list.subject(e.entry), fields::rows(f, list.subject(e.entry)));
    } else if n == 0 {
        note(out, list_hint(list));
    }
}

fn list_hint(list: List) -> &'static str {
    match list {
        List::Shocks => {
            "Scripted events that start a cascade: a unit put into a state on a turn. K on a selected unit adds one."
        }
        List::Staff => {
            "Commanders and orderlies on the table: fleeing units rally by them. The palette's staff tools place them."
        }
        List::Objectives => {
            "What the battle is fought for: points to whoever holds it at the end. The objective tool places them."
        }
        List::Exits => "Map edges a side scores for leaving by in order. The exit tools set them.",
        List::Corps => "The corps whose breaking decides army morale. The corps tool fills them by clicks.",
        List::Leaders => "Leaders riding with a unit, adding to its morale checks. J on a selected unit adds one.",
    }
}

fn rules_page(e: &Editor, out: &mut Vec<Piece>) {
    let f = e.file();
    heading(out, "The rules block");
    note(
        out,
        "Only what differs from the house rules (docs/rules.md) is written. Empty a field, or reset it, for the house value.",
    );
    let mut rows = rules_form::rows(&f.rules);
    for extra in &e.rules_shown {
        if !rows.iter().any(|r| r.field == *extra)
            && let Some(r) = rules_form::row_of(&f.rules, extra)
        {
            rows.push(r);
        }
    }
    if rows.is_empty() {
        note(out, "This scenario plays the house rules as they are.");
    }
    form(e, out, Subject::Rules, rows);
    note(out, "Find a rule to change (type part of its name):");
    out.push(Box::new(|c: &mut Commands, body: Entity| {
        c.entity(body).with_child((
            RuleFinder,
            Node { border: UiRect::all(Val::Px(1.0)), overflow: Overflow::clip(), ..pad(4.0, 2.0) },
            BorderColor::all(theme::FIELD_BORDER),
            BackgroundColor(theme::FIELD),
            EditableText { allow_newlines: false, ..EditableText::new("") },
            TextLayout::no_wrap(),
            TextFont::from_font_size(13.0),
            bevy::text::TextCursorStyle::default(),
        ));
        c.entity(body).with_child((
            RuleMatches,
            Node { flex_wrap: FlexWrap::Wrap, column_gap: Val::Px(3.0), row_gap: Val::Px(3.0), ..default() },
        ));
    }));
}

/// The fields of the rules block a message names (`rules.rout_hexes`).
pub fn rules_named(message: &str) -> Vec<String> {
    let all = rules_form::all_fields();
    let mut out: Vec<String> = Vec::new();
    for (i, _) in message.match_indices("rules.") {
        let name: String =
            message[i + 6..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.').collect();
        let name = name.trim_end_matches('.').to_owned();
        if all.contains(&name) && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The rules whose paths hold what was typed into the finder.
pub fn rules_matching(typed: &str) -> Vec<String> {
    let t = typed.trim().to_lowercase();
    if t.is_empty() {
        return Vec::new();
    }
    rules_form::all_fields().into_iter().filter(|f| f.to_lowercase().contains(&t)).take(14).collect()
}

/// The finder's list follows what is typed into it.
fn find_rules(
    mut commands: Commands,
    finder: Query<&EditableText, With<RuleFinder>>,
    list: Query<Entity, With<RuleMatches>>,
    mut shown: Local<Option<String>>,
) {
    let (Ok(t), Ok(list)) = (finder.single(), list.single()) else {
        *shown = None;
        return;
    };
    let typed = t.value().to_string();
    if shown.as_deref() == Some(typed.as_str()) {
        return;
    }
    commands.entity(list).despawn_children();
    for path in rules_matching(&typed) {
        commands.entity(list).with_child((AddRule(path.clone()), button(path, 11.0, theme::BUTTON, pad(4.0, 1.0))));
    }
    *shown = Some(typed);
}

fn problems_page(e: &Editor, out: &mut Vec<Piece>) {
    let (p, w) = (e.problems.len(), e.warnings.len());
    heading(
        out,
        match (p, w) {
            (0, 0) => "No problems: F8 plays it.".to_owned(),
            (0, n) => format!("No problems; {n} warning{} (as sauve check gives them):", if n == 1 { "" } else { "s" }),
            (1, _) => "1 problem: it saves, but does not play until it is mended.".to_owned(),
            (n, _) => format!("{n} problems: it saves, but does not play until they are mended."),
        },
    );
    note(out, "Click one: its form opens with the field to mend lit, and the map goes to its place.");
    for (i, pr) in e.problems.iter().chain(&e.warnings).enumerate() {
        let at = pr.at.map_or_else(String::new, |at| format!("line {at}: "));
        let (back, ink) =
            if i < p { (theme::PROBLEM_LINE, theme::TEXT_PROBLEM) } else { (theme::WARNING_LINE, theme::TEXT_WARNING) };
        push(
            out,
            (
                ProblemLine(i),
                inked_button(
                    format!("{at}{pr}"),
                    12.0,
                    back,
                    ink,
                    Node { width: Val::Percent(100.0), ..pad(4.0, 1.0) },
                ),
            ),
        );
        // A rule the message names is a control that mends it too.
        let rules: Vec<(AddRule, String, Color)> = rules_named(&pr.message)
            .into_iter()
            .map(|r| (AddRule(r.clone()), format!("change rules.{r}"), theme::BUTTON))
            .collect();
        if !rules.is_empty() {
            buttons(out, rules);
        }
    }
}

/// What the page's buttons do.
fn activate(
    activate: On<Activate>,
    editor: Option<ResMut<Editor>>,
    choices: Query<&ChoiceButton>,
    quick: Query<&FieldButton>,
    morale: Query<&MoralePick>,
    entries: Query<&EntryButton>,
    adds: Query<&AddEntry>,
    removes: Query<&RemoveEntry>,
    grows: Query<&Grow>,
    resets: Query<&ResetRule>,
    add_rules: Query<&AddRule>,
    problems: Query<&ProblemLine>,
    opened: Res<Opened>,
    mut cam: Query<&mut Transform, With<MainCamera>>,
    focus: Option<ResMut<InputFocus>>,
) {
    let Some(mut e) = editor else { return };
    let it = activate.entity;
    if e.ask.is_some() {
        return;
    }
    // A button pressed leaves the field typed in (which sets it).
    if let Some(mut f) = focus {
        f.clear();
    }
    if let Ok(c) = choices.get(it) {
        let k = c.choices.iter().position(|x| *x == c.now).map_or(0, |k| k + 1);
        let next = c.choices.get(k % c.choices.len().max(1)).cloned().unwrap_or_default();
        e.set_field(c.subject, &c.field, &next);
    } else if let Ok(b) = quick.get(it) {
        e.unit_act(b.0);
    } else if let (Ok(m), Some(id)) = (morale.get(it), e.selected.clone()) {
        let v = m.0;
        let r = e.edit(|f| crate::edit::forces::set_morale(f, &id, v));
        e.message = match r {
            Ok(()) => format!("{}: morale {v}.", e.unit_name(&id)),
            Err(err) => format!("Cannot: {err}"),
        };
    } else if let Ok(en) = entries.get(it) {
        e.entry = en.0;
        if let Page::List(List::Staff) = e.page {
            e.staff = Some(en.0);
        }
        e.lit = None;
    } else if let Ok(a) = adds.get(it) {
        let unit = e.selected.clone();
        let r = e.edit(|f| fields::add(f, a.0, unit.as_deref()));
        e.message = match r {
            Ok(s) => {
                e.show(s, None);
                format!("Added to {}: set its fields below.", a.0.name())
            }
            Err(err) => format!("Cannot add: {err}"),
        };
    } else if let Ok(r) = removes.get(it) {
        let (list, i) = (r.0, r.1);
        let done = e.edit(|f| fields::remove(f, list, i));
        if list == List::Staff {
            e.staff = None;
        }
        e.entry = e.entry.saturating_sub(1);
        e.message = match done {
            Ok(w) => format!("Deleted from {}: {w} (Ctrl+Z brings it back).", list.name()),
            Err(err) => format!("Cannot delete: {err}"),
        };
    } else if let Ok(g) = grows.get(it) {
        let m = g.0;
        let r = e.edit(|f| crate::edit::reshape::resize(f, m));
        let (w, h) = crate::edit::paint::size(&e.file().map);
        e.message = match r {
            Ok(()) => format!("The map is {w} x {h} now."),
            Err(err) => format!("Cannot: {err}"),
        };
    } else if let Ok(r) = resets.get(it) {
        let field = r.0.clone();
        e.set_field(Subject::Rules, &field, "");
        e.rules_shown.retain(|f| *f != field);
    } else if let Ok(a) = add_rules.get(it) {
        if !e.rules_shown.contains(&a.0) {
            e.rules_shown.push(a.0.clone());
        }
        e.lit = Some(a.0.clone());
        e.page = Page::Rules;
        e.message = format!("rules.{}: type its value and Enter (empty: the house's).", a.0);
    } else if let Ok(line) = problems.get(it) {
        let Some(p) = e.problems.iter().chain(&e.warnings).nth(line.0).cloned() else { return };
        go_to(&mut e, &p, opened.layout, &mut cam);
    }
}

/// A problem followed: its form with the field lit, and the map centred
/// on its place.
pub fn go_to(
    e: &mut Editor,
    p: &Problem,
    layout: crate::game::layout::Layout,
    cam: &mut Query<&mut Transform, With<MainCamera>>,
) {
    let path = p.path.clone().unwrap_or_default();
    match fields::subject_of(&path) {
        Some((subject, field)) => e.show(subject, field),
        None => e.page = Page::Problems,
    }
    e.message = format!("{p}");
    let Some(spot) = places::spot_of(e.file(), &path) else { return };
    let at = match spot {
        Spot::Hex(o) => layout.world(o),
        Spot::Cm(x, y) => layout.table_world(x, y),
    };
    if let Ok(mut t) = cam.single_mut() {
        t.translation = at.extend(t.translation.z);
    }
}
