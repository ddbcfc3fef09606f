//! `--plot`: throughput against the swept value, as an SVG line chart
//! with a dot per point.

use plotters::prelude::*;
use std::path::Path;

/// Size of the chart in pixels.
const SIZE: (u32, u32) = (800, 500);

/// The largest multiple of a thousand at most `max`, for the y axis:
/// (factor, its word with a trailing space).
fn scale(max: f64) -> (f64, &'static str) {
    [(1e9, "billion "), (1e6, "million "), (1e3, "thousand ")]
        .into_iter()
        .find(|(f, _)| max >= *f)
        .unwrap_or((1.0, ""))
}

/// Draws `points` (swept value, rate per second) into an SVG file at `path`.
pub fn plot(
    path: &Path,
    title: &str,
    x_desc: &str,
    unit: &str,
    points: &[(usize, f64)],
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let xs = points.iter().map(|(x, _)| *x as i64);
    let (x0, x1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(1));
    let top = points.iter().map(|(_, y)| *y).fold(0.0, f64::max);
    let (factor, prefix) = scale(top);
    let y1 = if top > 0.0 { top / factor * 1.1 } else { 1.0 };
    let scaled: Vec<(i64, f64)> = points
        .iter()
        .map(|(x, y)| (*x as i64, y / factor))
        .collect();
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d(x0 - 1..x1 + 1, 0.0..y1)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(format!("{prefix}{unit}"))
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(LineSeries::new(
            scaled.iter().copied(),
            BLUE.stroke_width(2),
        ))
        .map_err(|e| err(&e))?;
    chart
        .draw_series(scaled.iter().map(|p| Circle::new(*p, 4, BLUE.filled())))
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_axis_takes_the_largest_prefix_below_the_top() {
        assert_eq!(scale(2.5e7), (1e6, "million "));
        assert_eq!(scale(999.0), (1.0, ""));
        assert_eq!(scale(3e9), (1e9, "billion "));
    }
}
