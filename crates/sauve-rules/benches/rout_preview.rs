//! Benchmark named by issue 15: `rout_preview/<battle>`, one rout preview
//! (the planner's path and the contagion chances of the friends it passes)
//! on the bundled hex battle with the most units, for a front-line unit
//! whose path passes friends, with the engine warm as the window finds it
//! between frames (fields built, board unchanged). Goal: under 1 ms.
//! `rout_preview_after_a_move/<battle>` is the frame after an enemy moved:
//! the engine sees the change and mends that side's fields first.
//!
//! Run: `cargo bench -p sauve-rules --bench rout_preview`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use sauve_rules::labataille::engine::{Ctx, Engine};
use sauve_rules::labataille::grid::Grid;
use sauve_rules::labataille::rout_preview::preview_rout;
use sauve_rules::labataille::{Board, victory};
use sauve_rules::scenario::{Mode, Scenario};

/// The bundled hex battle with the most units, with its file's stem.
fn largest_battle() -> (String, Scenario) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let Ok(entries) = std::fs::read_dir(&dir) else { panic!("no folder {}", dir.display()) };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    let battles = files.iter().filter_map(|p| {
        let s = sauve_rules::scenario::load(p).ok().filter(|s| s.mode == Mode::Hex)?;
        Some((p.file_stem()?.to_string_lossy().into_owned(), s))
    });
    // Most units, then the largest map (Dennewitz and Grossbeeren field
    // as many units); the first of equals in file order, so it is stable.
    let size = |s: &Scenario| (s.units.len(), s.map.width * s.map.height);
    let largest = battles.fold(None::<(String, Scenario)>, |best, b| match best {
        Some(best) if size(&best.1) >= size(&b.1) => Some(best),
        _ => Some(b),
    });
    let Some(largest) = largest else { panic!("no hex battle in {}", dir.display()) };
    largest
}

/// The unit nearest the enemy among those whose rout would pass friends
/// (the costliest preview a player meets on the front line), breaking ties
/// by the most friends passed.
fn front_line_unit(ctx: &Ctx, engine: &mut Engine, board: &Board) -> usize {
    let mut best: Option<(u16, std::cmp::Reverse<usize>, usize)> = None;
    for unit in 0..board.units.len() {
        let Some(at) = board.units[unit].at else { continue };
        let Some(p) = preview_rout(ctx, engine, board, unit) else { continue };
        if p.risks.is_empty() {
            continue;
        }
        let side = board.units[unit].side;
        let Some(f) = engine.fields(ctx, board, side) else { continue };
        let key = (f.dist[ctx.grid.idx(at)], std::cmp::Reverse(p.risks.len()), unit);
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    }
    let Some((_, _, unit)) = best else { panic!("no unit's rout passes a friend") };
    unit
}

fn rout_preview(c: &mut Criterion) {
    let (name, s) = largest_battle();
    let grid = Grid::new(&s.map, &s.rules);
    let ctx = Ctx { grid: &grid, rules: &s.rules, sides: &s.sides };
    let board = Board::from_scenario(&s);
    let mut engine = Engine::new(&grid, &board);
    let attached = victory::initial_attachment(&s);
    engine.bonus = (0..board.units.len())
        .map(|u| victory::leader_bonus(&s, &board, &attached, u, s.rules.combat.leader_radius))
        .collect();
    let unit = front_line_unit(&ctx, &mut engine, &board);
    if let Some(p) = preview_rout(&ctx, &mut engine, &board, unit) {
        eprintln!(
            "{name}: {} units; previewing {}: {} hexes, {} friends passed",
            board.units.len(),
            board.units[unit].id,
            p.path.len(),
            p.risks.len()
        );
    }
    let mut g = c.benchmark_group("rout_preview");
    g.bench_function(&name, |b| b.iter(|| preview_rout(&ctx, &mut engine, black_box(&board), black_box(unit))));
    g.finish();
    // The frame after a move: the enemy nearest the unit steps to a free
    // hex and back, every other preview, so each finds the board changed.
    let moved = moved_enemy(&board, unit, grid.width, grid.height);
    let boards = [moved, board.clone()];
    let mut turn = 0;
    let mut g = c.benchmark_group("rout_preview_after_a_move");
    g.bench_function(&name, |b| {
        b.iter(|| {
            turn ^= 1;
            preview_rout(&ctx, &mut engine, black_box(&boards[turn]), black_box(unit))
        })
    });
    g.finish();
}

/// The board with the enemy nearest `unit` moved to a free neighbouring hex.
fn moved_enemy(board: &Board, unit: usize, width: i32, height: i32) -> Board {
    let mut moved = board.clone();
    let (Some(at), side) = (board.units[unit].at, board.units[unit].side) else { return moved };
    let nearest = (0..board.units.len())
        .filter(|&e| board.units[e].side != side)
        .filter_map(|e| Some((board.units[e].at?.distance(at), e)))
        .min();
    let Some((_, enemy)) = nearest else { return moved };
    let Some(from) = board.units[enemy].at else { return moved };
    let free = from.neighbours().into_iter().find(|n| {
        (0..width).contains(&n.c) && (0..height).contains(&n.r) && board.units.iter().all(|u| u.at != Some(*n))
    });
    moved.units[enemy].at = free.or(Some(from));
    moved
}

criterion_group!(benches, rout_preview);
criterion_main!(benches);
