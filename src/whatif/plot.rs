//! A batch's picture (SVG, drawn with plotters): each side's win rate
//! with its 95% interval, and the distribution of the largest cascade's
//! size, side by side.

use plotters::prelude::*;

use super::merge::BatchSummary;

/// The font plotters lays its text out with (the window's own).
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansCondensed.ttf");

/// The picture of `summary` as SVG text.
pub fn svg(summary: &BatchSummary, title: &str) -> Result<String, String> {
    // Registering the same font again is harmless.
    plotters::style::register_font("sans-serif", FontStyle::Normal, FONT).map_err(|_| "the font does not load")?;
    let mut out = String::new();
    draw(&mut out, summary, title).map_err(|e| format!("cannot draw the picture: {e}"))?;
    Ok(out)
}

fn draw(out: &mut String, s: &BatchSummary, title: &str) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::with_string(out, (1000, 440)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(&format!("{title}: {} games", s.games), ("sans-serif", 22))?;
    let (left, right) = root.split_horizontally(440);

    // Win rates with their intervals; the draws last.
    let mut bars: Vec<(String, f64, f64, f64)> =
        s.sides.iter().map(|x| (x.id.clone(), x.wins.rate, x.wins.low, x.wins.high)).collect();
    bars.push(("draw".into(), s.draws.rate, s.draws.low, s.draws.high));
    let n = bars.len() as u32;
    let mut chart = ChartBuilder::on(&left)
        .caption("Wins (95% interval)", ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(44)
        .build_cartesian_2d((0u32..n).into_segmented(), 0f64..100f64)?;
    let names: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_desc("% of games")
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => names.get(*i as usize).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .draw()?;
    let colours = [RGBColor(40, 80, 170), RGBColor(170, 50, 40), RGBColor(120, 120, 120)];
    chart.draw_series(bars.iter().enumerate().map(|(i, b)| {
        let c = colours[i.min(colours.len() - 1)];
        let i = i as u32;
        Rectangle::new([(SegmentValue::Exact(i), 0.0), (SegmentValue::Exact(i + 1), b.1 * 100.0)], c.mix(0.75).filled())
    }))?;
    chart.draw_series(bars.iter().enumerate().map(|(i, b)| {
        ErrorBar::new_vertical(
            SegmentValue::CenterOf(i as u32),
            b.2 * 100.0,
            b.1 * 100.0,
            b.3 * 100.0,
            BLACK.stroke_width(2),
            16,
        )
    }))?;

    // The largest cascade of each game.
    let most = s.largest_cascade.iter().copied().max().unwrap_or(0).max(1);
    let sizes = s.largest_cascade.len().max(1) as u32;
    let mut chart = ChartBuilder::on(&right)
        .caption(format!("Largest cascade per game (mean {:.2} units)", s.mean_largest_cascade), ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d((0u32..sizes).into_segmented(), 0u64..most + most / 10 + 1)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("units taken by the game's largest cascade")
        .y_desc("games")
        .draw()?;
    chart.draw_series(
        Histogram::vertical(&chart)
            .style(RGBColor(200, 110, 30).mix(0.8).filled())
            .margin(2)
            .data(s.largest_cascade.iter().enumerate().map(|(k, &g)| (k as u32, g))),
    )?;
    root.present()?;
    Ok(())
}
