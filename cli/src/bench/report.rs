//! What `dxjit bench` prints: the report of one point, the table of a
//! sweep, and the JSON of both.

use super::counts::StaticCounts;
use super::measure::{Point, COMPILES};
use super::peak::Peak;
use super::rates::{Bound, Rates, Work};
use super::sweep::Sweep;
use crate::run::BoundBytes;
use serde_json::{json, Map, Value};
use std::fmt::Write;

/// One measured point of a sweep: the swept value, the point, its rates.
pub struct Row<'a> {
    /// The value of the swept parameter.
    pub value: usize,
    /// What was measured.
    pub point: &'a Point,
    /// What it reached.
    pub rates: Rates,
}

/// The JSON object of one point: the keys `bench` has always printed
/// (`compile_us`, `median_ms`, `invocations_per_s`, ...) and the rates.
pub fn point_json(case: &str, work: Work, point: &Point, rates: &Rates) -> Map<String, Value> {
    let counts = point.counts;
    let mut obj = Map::new();
    let mut put = |key: &str, value: Value| {
        obj.insert(key.to_string(), value);
    };
    put("case", json!(case));
    put("compile_us", json!(point.compile_us));
    put("first_compile_us", json!(point.first_compile_us));
    put("first_tier_us", json!(point.first_tier_us));
    put("top_tier_us", json!(point.top_tier_us));
    put("tier", json!(format!("{:?}", point.tier).to_lowercase()));
    put("cache_hit", json!(point.cache_hit));
    put("lanes", json!(point.lanes));
    put("median_ms", json!(point.median_ms()));
    put("min_ms", json!(point.min_ms()));
    put("max_ms", json!(point.max_ms()));
    put("iterations", json!(point.times_ms.len()));
    put("threads", json!(point.threads));
    put("invocations", json!(point.invocations));
    put("invocations_per_s", json!(rates.per_s));
    match work {
        Work::Pixels => put("pixels_per_s", json!(rates.per_s)),
        Work::Vertices => put("vertices_per_s", json!(rates.per_s)),
        Work::Primitives => put("primitives_per_s", json!(rates.per_s)),
        Work::Invocations => {}
    }
    put("k", json!(point.k));
    put("work", json!(work.noun()));
    put("flops_per_invocation", json!(counts.map(|c| c.flops)));
    put("flops_exact", json!(counts.map(|c| c.exact)));
    put("gflops", json!(rates.gflops));
    put("peak_gflops", json!(rates.peak_gflops));
    put("peak_fraction", json!(rates.peak_fraction()));
    put("bytes_bound", json!(point.bytes.total()));
    put("srv_bytes", json!(point.bytes.srv));
    put("uav_bytes", json!(point.bytes.uav));
    put("target_bytes", json!(point.bytes.target));
    put("vertex_bytes", json!(point.bytes.vertex));
    put("gb_per_s", json!(rates.gb_per_s));
    put("memcpy_gb_per_s", json!(rates.memcpy_gb_per_s));
    put("memcpy_fraction", json!(rates.memcpy_fraction()));
    put("lookups_per_invocation", json!(counts.map(|c| c.lookups)));
    put("lookups_per_s", json!(rates.lookups_per_s));
    put("wide_sampling", json!(point.wide_sampling));
    put("barriers_per_group", json!(counts.map(|c| c.barriers)));
    put("barriers_per_s", json!(rates.barriers_per_s));
    put("bound", json!(rates.bound().name()));
    obj
}

/// The JSON object of a sweep: the case, the parameter, and one object per
/// point (its [`point_json`] with the swept `value`).
pub fn sweep_json(case: &str, sweep: Sweep, work: Work, rows: &[Row]) -> Value {
    let points: Vec<Value> = rows
        .iter()
        .map(|r| {
            let mut obj = Map::new();
            obj.insert("value".into(), json!(r.value));
            obj.extend(point_json(case, work, r.point, &r.rates));
            Value::Object(obj)
        })
        .collect();
    json!({
        "case": case,
        "sweep": sweep.name(),
        "work": work.noun(),
        "points": points,
    })
}

/// How the flop count was made.
fn flops_basis(counts: &StaticCounts) -> &'static str {
    if counts.exact {
        "exact: every branch and loop trip count known from literals and constants"
    } else {
        "static count: data decides a branch or loop exit; such loop bodies count once, both sides of such branches count"
    }
}

fn percent(fraction: Option<f64>) -> String {
    fraction.map_or("-".into(), |f| format!("{:.1}%", f * 100.0))
}

fn number(value: Option<f64>, decimals: usize) -> String {
    value.map_or("-".into(), |v| format!("{v:.decimals$}"))
}

/// The bound bytes and their parts that are not empty.
fn bytes_text(b: &BoundBytes) -> String {
    let parts: Vec<String> = [
        ("srv", b.srv),
        ("uav", b.uav),
        ("render targets", b.target),
        ("vertex registers", b.vertex),
    ]
    .iter()
    .filter(|(_, n)| *n > 0)
    .map(|(name, n)| format!("{name} {n}"))
    .collect();
    if parts.is_empty() {
        return "nothing bound".into();
    }
    format!("{} bytes bound ({})", b.total(), parts.join(", "))
}

/// Words for the ceiling a point is nearest.
fn bound_text(rates: &Rates) -> String {
    let (alu, memory) = (
        percent(rates.peak_fraction()),
        percent(rates.memcpy_fraction()),
    );
    match rates.bound() {
        Bound::Alu => format!("ALU ({alu} of peak GFLOP/s; memory at {memory} of memcpy)"),
        Bound::Memory => format!("memory ({memory} of memcpy; ALU at {alu} of peak GFLOP/s)"),
        Bound::Sampling => format!(
            "sampling: near neither ceiling ({alu} of peak GFLOP/s, {memory} of memcpy), and the shader reads textures"
        ),
        Bound::Overhead => {
            format!("overhead: near neither ceiling ({alu} of peak GFLOP/s, {memory} of memcpy)")
        }
        Bound::Unknown => "unknown: no ceiling is known".into(),
    }
}

/// The text report of one point: the lines `bench` has always printed,
/// then the rates against their ceilings.
pub fn point_text(
    case: &str,
    work: Work,
    point: &Point,
    rates: &Rates,
    peak: Option<&Peak>,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "case: {case}");
    let _ = writeln!(
        s,
        "compile: {:.1} us until it runs (median of {COMPILES}; first {:.1} us{})",
        point.compile_us,
        point.first_compile_us,
        if point.cache_hit {
            ", loaded from the cache"
        } else {
            ""
        }
    );
    let _ = writeln!(
        s,
        "tiers: first {:.1} us, top {:.1} us (medians); actions timed at the {:?} tier",
        point.first_tier_us, point.top_tier_us, point.tier
    );
    let _ = writeln!(s, "lanes per call: {}", point.lanes);
    let _ = writeln!(
        s,
        "threads: {}, iterations: {}",
        point.threads,
        point.times_ms.len()
    );
    let _ = writeln!(
        s,
        "median: {:.3} ms (min {:.3}, max {:.3})",
        point.median_ms(),
        point.min_ms(),
        point.max_ms()
    );
    let _ = writeln!(
        s,
        "invocations: {} per action, {:.3e} per second",
        point.invocations, rates.per_s
    );
    if work != Work::Invocations {
        let _ = writeln!(s, "{}: {:.3e} per second", work.noun(), rates.per_s);
    }
    if let Some(c) = &point.counts {
        let _ = writeln!(
            s,
            "flops: {} per invocation ({}), {} GFLOP/s, {} of the {} GFLOP/s peak",
            c.flops,
            flops_basis(c),
            number(rates.gflops, 2),
            percent(rates.peak_fraction()),
            number(rates.peak_gflops, 1)
        );
    }
    if let Some(p) = peak {
        let _ = writeln!(s, "peak: {}", p.explain(point.threads));
    }
    let reference = match rates.memcpy_gb_per_s {
        Some(m) => format!(
            "{} of memcpy ({m:.2} GB/s copying the same bytes on {} threads)",
            percent(rates.memcpy_fraction()),
            point.threads
        ),
        None => format!(
            "no memcpy reference below {} bytes",
            super::memcpy::MIN_BYTES
        ),
    };
    let _ = writeln!(
        s,
        "memory: {}, {:.2} GB/s, {reference}",
        bytes_text(&point.bytes),
        rates.gb_per_s
    );
    if let (Some(c), Some(per_s)) = (&point.counts, rates.lookups_per_s) {
        let filter = match point.wide_sampling {
            true => "the runtime's AVX2 filter where it can",
            false => "filtered in compiled code where it can",
        };
        let _ = writeln!(
            s,
            "lookups: {} per invocation, {per_s:.3e} per second ({filter})",
            c.lookups
        );
    }
    if let (Some(c), Some(per_s)) = (&point.counts, rates.barriers_per_s) {
        let _ = writeln!(
            s,
            "barriers: {} per group, {per_s:.3e} per second",
            c.barriers
        );
    }
    let _ = writeln!(s, "bound: {}", bound_text(rates));
    s
}

/// The text report of a sweep: what is common to every point, then one
/// table row per point.
pub fn sweep_text(
    case: &str,
    sweep: Sweep,
    work: Work,
    rows: &[Row],
    peak: Option<&Peak>,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "case: {case}");
    if let Some(first) = rows.first() {
        let _ = writeln!(
            s,
            "sweep: {sweep}, {} iterations per point, {} {} per action",
            first.point.times_ms.len(),
            first.point.invocations,
            work.noun()
        );
        if let Some(c) = &first.point.counts {
            let _ = writeln!(s, "flops: {} per invocation ({})", c.flops, flops_basis(c));
            if c.lookups > 0 {
                let _ = writeln!(s, "lookups: {} per invocation", c.lookups);
            }
            if c.barriers > 0 {
                let _ = writeln!(s, "barriers: {} per group", c.barriers);
            }
        }
        let _ = writeln!(s, "memory: {}", bytes_text(&first.point.bytes));
        if let (Some(p), Some(last)) = (peak, rows.last()) {
            let _ = writeln!(s, "peak: {}", p.explain(last.point.threads));
        }
    }
    let lookups = rows.iter().any(|r| r.rates.lookups_per_s.is_some());
    let barriers = rows.iter().any(|r| r.rates.barriers_per_s.is_some());
    let threads_column = sweep != Sweep::Threads;
    let mut header = vec![sweep.name().to_string()];
    if threads_column {
        header.push("threads".into());
    }
    header.extend([
        "lanes".into(),
        "median ms".into(),
        format!("{}/s", work.noun()),
        "GFLOP/s".into(),
        "% peak".into(),
        "GB/s".into(),
        "memcpy GB/s".into(),
        "% memcpy".into(),
    ]);
    if lookups {
        header.push("lookups/s".into());
    }
    if barriers {
        header.push("barriers/s".into());
    }
    header.push("bound".into());
    let mut table = vec![header];
    for r in rows {
        let mut cells = vec![r.value.to_string()];
        if threads_column {
            cells.push(r.point.threads.to_string());
        }
        cells.extend([
            r.point.lanes.to_string(),
            format!("{:.3}", r.point.median_ms()),
            format!("{:.3e}", r.rates.per_s),
            number(r.rates.gflops, 2),
            percent(r.rates.peak_fraction()),
            format!("{:.2}", r.rates.gb_per_s),
            number(r.rates.memcpy_gb_per_s, 2),
            percent(r.rates.memcpy_fraction()),
        ]);
        for (shown, rate) in [
            (lookups, r.rates.lookups_per_s),
            (barriers, r.rates.barriers_per_s),
        ] {
            if shown {
                cells.push(rate.map_or("-".into(), |b| format!("{b:.3e}")));
            }
        }
        cells.push(r.rates.bound().name().into());
        table.push(cells);
    }
    s.push_str(&aligned(&table));
    s
}

/// A table with right-aligned columns separated by two spaces.
fn aligned(table: &[Vec<String>]) -> String {
    let columns = table.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            table
                .iter()
                .filter_map(|row| row.get(c))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut s = String::new();
    for row in table {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:>w$}"))
            .collect();
        let _ = writeln!(s, "{}", line.join("  "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(threads: usize, median_ms: f64) -> Point {
        Point {
            threads,
            k: None,
            lanes: 16,
            tier: dxjit::Tier::Top,
            wide_sampling: false,
            compile_us: 900.0,
            first_tier_us: 300.0,
            top_tier_us: 900.0,
            first_compile_us: 1500.0,
            cache_hit: false,
            times_ms: vec![median_ms],
            invocations: 1000,
            bytes: BoundBytes {
                srv: 4000,
                uav: 4000,
                ..BoundBytes::default()
            },
            memcpy_bytes_per_s: Some(1e10),
            counts: Some(StaticCounts {
                flops: 10,
                lookups: 3,
                barriers: 2,
                exact: true,
            }),
        }
    }

    /// Rows for points swept at values 1, 2, ...
    fn rows_of(points: &[Point]) -> Vec<Row<'_>> {
        points
            .iter()
            .zip(1..)
            .map(|(p, value)| Row {
                value,
                point: p,
                rates: Rates::of(p, None, 4),
            })
            .collect()
    }

    #[test]
    fn a_sweep_carries_every_point_with_the_old_keys() {
        let points = [point(1, 2.0), point(2, 1.0)];
        let rows = rows_of(&points);
        let v = sweep_json("c", Sweep::Threads, Work::Invocations, &rows);
        assert_eq!(v["case"], "c");
        assert_eq!(v["sweep"], "threads");
        let points = v["points"].as_array().expect("points");
        assert_eq!(points.len(), 2);
        for (p, value) in points.iter().zip([1, 2]) {
            assert_eq!(p["value"], value);
            assert_eq!(p["threads"], value);
            for key in [
                "compile_us",
                "first_compile_us",
                "first_tier_us",
                "top_tier_us",
                "cache_hit",
                "lanes",
                "median_ms",
                "min_ms",
                "max_ms",
                "iterations",
                "invocations",
                "invocations_per_s",
                "flops_per_invocation",
                "gflops",
                "gb_per_s",
                "memcpy_gb_per_s",
                "lookups_per_s",
                "barriers_per_s",
                "bound",
            ] {
                assert!(p.get(key).is_some(), "point lacks {key}");
            }
        }
        // 1000 invocations x 10 flops in 1 ms; 8000 bytes in 1 ms; 4 groups x 2 barriers.
        let close = |key: &str, expected: f64| {
            let got = points[1][key].as_f64().expect("a number");
            assert!((got - expected).abs() <= expected * 1e-9, "{key}: {got}");
        };
        close("invocations_per_s", 1e6);
        close("gflops", 1e-2);
        close("gb_per_s", 8e-3);
        close("lookups_per_s", 3e6);
        close("barriers_per_s", 8e3);
        assert_eq!(points[1]["peak_gflops"], Value::Null);
    }

    #[test]
    fn draws_report_pixels_per_second_too() {
        let p = point(1, 1.0);
        let obj = point_json("c", Work::Pixels, &p, &Rates::of(&p, None, 0));
        assert_eq!(obj["pixels_per_s"], obj["invocations_per_s"]);
        assert_eq!(obj["barriers_per_s"], Value::Null);
    }

    #[test]
    fn the_table_has_a_row_per_point() {
        let points = [point(1, 2.0), point(2, 1.0)];
        let rows = rows_of(&points);
        let text = sweep_text("c", Sweep::Threads, Work::Invocations, &rows, None);
        let table: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.contains("median ms"))
            .collect();
        assert_eq!(table.len(), 3);
        assert!(table[0].contains("lookups/s"));
        assert!(table[0].contains("barriers/s"));
    }
}
