//! Tests of the fixed-function tessellator: bit-exact comparison with the
//! D3D11 reference tessellator's output, hand-worked examples from the
//! spec, primitive counts from the spec's formulas, and geometric
//! properties over sweeps of factors.

use dxjit_runtime::tessellator::{
    tessellate, Domain, OutputPrimitive, Partitioning, TessFactors, Tessellation, Topology,
};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tessellator/");

const PARTITIONINGS: [Partitioning; 4] = [
    Partitioning::Integer,
    Partitioning::Pow2,
    Partitioning::FractionalOdd,
    Partitioning::FractionalEven,
];

/// One case of the reference data: what to tessellate.
struct Case {
    domain: Domain,
    partitioning: Partitioning,
    output: OutputPrimitive,
    factors: TessFactors,
}

impl Case {
    /// Parses "domain partitioning output e0 e1 e2 e3 i0 i1" (factors as f32
    /// bits in hex; partitioning and output numbered as in the reference).
    fn parse(text: &str) -> Case {
        let words: Vec<&str> = text.split_whitespace().collect();
        let bits = |i: usize| f32::from_bits(u32::from_str_radix(words[i], 16).unwrap());
        let domain = match words[0] {
            "tri" => Domain::Tri,
            "quad" => Domain::Quad,
            "iso" => Domain::Isoline,
            other => panic!("unknown domain {other}"),
        };
        let partitioning = PARTITIONINGS[words[1].parse::<usize>().unwrap()];
        let output = [
            OutputPrimitive::Point,
            OutputPrimitive::Line,
            OutputPrimitive::TriangleCw,
            OutputPrimitive::TriangleCcw,
        ][words[2].parse::<usize>().unwrap()];
        let factors = match domain {
            Domain::Isoline => TessFactors::isoline(bits(3), bits(4)),
            _ => TessFactors::quad([bits(3), bits(4), bits(5), bits(6)], [bits(7), bits(8)]),
        };
        Case {
            domain,
            partitioning,
            output,
            factors,
        }
    }

    fn run(&self) -> Tessellation {
        tessellate(self.domain, self.partitioning, self.output, &self.factors)
    }
}

/// FNV-1a (64-bit) over the point count, index count, each point's u and v
/// bits and each index, all as little-endian u32: the digest the reference
/// data stores.
fn digest(t: &Tessellation) -> u64 {
    let mut words = vec![t.points.len() as u32, t.indices.len() as u32];
    for p in &t.points {
        words.extend([p[0].to_bits(), p[1].to_bits()]);
    }
    words.extend(&t.indices);
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for byte in words.iter().flat_map(|w| w.to_le_bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

fn data_lines(name: &str) -> Vec<String> {
    std::fs::read_to_string(format!("{DATA}{name}"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn matches_reference_points_and_indices_bit_for_bit() {
    let lines = data_lines("reference_full.txt");
    assert!(lines.len() >= 50);
    for line in &lines {
        let fields: Vec<&str> = line.split('|').collect();
        let t = Case::parse(fields[0]).run();
        let points: Vec<String> = t
            .points
            .iter()
            .map(|p| format!("{:08x}:{:08x}", p[0].to_bits(), p[1].to_bits()))
            .collect();
        let expected_points: Vec<&str> = fields[2].split_whitespace().collect();
        let expected_indices: Vec<u32> = fields[3]
            .split_whitespace()
            .map(|i| i.parse().unwrap())
            .collect();
        assert_eq!(points, expected_points, "points of {}", fields[0]);
        assert_eq!(t.indices, expected_indices, "indices of {}", fields[0]);
    }
}

#[test]
fn matches_reference_digests() {
    let lines = data_lines("reference_digests.txt");
    assert!(lines.len() >= 5000);
    let mut mismatches = Vec::new();
    for line in &lines {
        let (case, expected) = line.split_once('|').unwrap();
        let expected: Vec<&str> = expected.split_whitespace().collect();
        let t = Case::parse(case).run();
        let got = format!("{} {} {:016x}", t.points.len(), t.indices.len(), digest(&t));
        if got != expected.join(" ") {
            mismatches.push(format!(
                "{case}: expected {}, got {got}",
                expected.join(" ")
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} cases differ, e.g.\n{}",
        mismatches.len(),
        lines.len(),
        mismatches[..mismatches.len().min(10)].join("\n")
    );
}

// ---------------------------------------------------------------------------
// Hand-worked examples from the spec.

fn tri(p: Partitioning, output: OutputPrimitive, edges: [f32; 3], inside: f32) -> Tessellation {
    tessellate(Domain::Tri, p, output, &TessFactors::tri(edges, inside))
}

fn quad(
    p: Partitioning,
    output: OutputPrimitive,
    edges: [f32; 4],
    inside: [f32; 2],
) -> Tessellation {
    tessellate(Domain::Quad, p, output, &TessFactors::quad(edges, inside))
}

fn isoline(p: Partitioning, output: OutputPrimitive, density: f32, detail: f32) -> Tessellation {
    tessellate(
        Domain::Isoline,
        p,
        output,
        &TessFactors::isoline(density, detail),
    )
}

#[test]
fn quad_with_factors_one_is_two_triangles() {
    let t = quad(
        Partitioning::Integer,
        OutputPrimitive::TriangleCw,
        [1.0; 4],
        [1.0; 2],
    );
    assert_eq!(t.points, [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]);
    assert_eq!(t.indices, [0, 1, 3, 1, 2, 3]);
    assert_eq!(t.topology, Topology::TriangleList);
    let ccw = quad(
        Partitioning::Integer,
        OutputPrimitive::TriangleCcw,
        [1.0; 4],
        [1.0; 2],
    );
    assert_eq!(ccw.indices, [0, 3, 1, 1, 3, 2]);
}

#[test]
fn tri_with_factors_one_is_one_triangle() {
    let t = tri(
        Partitioning::FractionalOdd,
        OutputPrimitive::TriangleCw,
        [1.0; 3],
        1.0,
    );
    // The corners v = 1, w = 1, u = 1.
    assert_eq!(t.points, [[0.0, 1.0], [0.0, 0.0], [1.0, 0.0]]);
    assert_eq!(t.indices, [0, 1, 2]);
    let points = tri(Partitioning::Integer, OutputPrimitive::Point, [1.0; 3], 1.0);
    assert_eq!(points.indices, [0, 1, 2]);
    assert_eq!(points.topology, Topology::PointList);
}

#[test]
fn integer_quad_with_factors_two_is_a_three_by_three_grid() {
    let t = quad(
        Partitioning::Integer,
        OutputPrimitive::TriangleCw,
        [2.0; 4],
        [2.0; 2],
    );
    // The outer ring clockwise from (0, 1), then the centre.
    assert_eq!(
        t.points,
        [
            [0.0, 1.0],
            [0.0, 0.5],
            [0.0, 0.0],
            [0.5, 0.0],
            [1.0, 0.0],
            [1.0, 0.5],
            [1.0, 1.0],
            [0.5, 1.0],
            [0.5, 0.5]
        ]
    );
    // Eight triangles fanning around the centre.
    assert_eq!(
        t.indices,
        [0, 1, 8, 1, 2, 8, 2, 3, 8, 3, 4, 8, 4, 5, 8, 5, 6, 8, 6, 7, 8, 7, 0, 8]
    );
}

#[test]
fn fractional_even_tri_at_two_has_a_centre_point() {
    let t = tri(
        Partitioning::FractionalEven,
        OutputPrimitive::TriangleCw,
        [2.0; 3],
        2.0,
    );
    assert_eq!(t.points.len(), 7);
    assert_eq!(t.points[6], [21845.0 / 65536.0; 2]);
    assert_eq!(t.primitive_count(), 6);
}

#[test]
fn isoline_counts() {
    // Density 3 lines at v = 0, 1/3, 2/3 (v = 1 is not drawn), each split
    // into 4 segments.
    let t = isoline(Partitioning::Integer, OutputPrimitive::Line, 3.0, 4.0);
    assert_eq!(t.points.len(), 3 * 5);
    assert_eq!(t.topology, Topology::LineList);
    assert_eq!(t.primitive_count(), 3 * 4);
    let vs: Vec<f32> = t.points.iter().step_by(5).map(|p| p[1]).collect();
    assert_eq!(vs, [0.0, 21845.0 / 65536.0, 43691.0 / 65536.0]);
    assert_eq!(&t.indices[..4], [0, 1, 1, 2]);
    // Density rounds up whatever the partitioning; fractional odd detail
    // 2.5 gives 3 segments.
    let t = isoline(
        Partitioning::FractionalOdd,
        OutputPrimitive::Point,
        1.2,
        2.5,
    );
    assert_eq!(t.points.len(), 2 * 4);
    assert_eq!(t.indices, (0..8).collect::<Vec<u32>>());
    // Triangle output on isolines gives lines.
    let t = isoline(Partitioning::Integer, OutputPrimitive::TriangleCw, 1.0, 1.0);
    assert_eq!((t.points.len(), t.indices.clone()), (2, vec![0, 1]));
}

#[test]
fn zero_or_nan_edge_factors_cull() {
    for bad in [0.0, -0.0, -2.0, f32::NAN] {
        for p in PARTITIONINGS {
            let cw = OutputPrimitive::TriangleCw;
            assert!(tri(p, cw, [4.0, bad, 4.0], 4.0).points.is_empty());
            assert!(quad(p, cw, [4.0, 4.0, 4.0, bad], [4.0; 2])
                .points
                .is_empty());
            assert!(isoline(p, OutputPrimitive::Line, bad, 4.0).is_empty());
            assert!(isoline(p, OutputPrimitive::Line, 4.0, bad).is_empty());
        }
    }
    // A NaN inside factor does not cull; it clamps to the lowest factor.
    let t = quad(
        Partitioning::Integer,
        OutputPrimitive::TriangleCw,
        [1.0; 4],
        [f32::NAN; 2],
    );
    assert_eq!(t.primitive_count(), 2);
}

#[test]
fn line_output_on_tri_and_quad_joins_points_in_order() {
    let t = quad(
        Partitioning::Integer,
        OutputPrimitive::Line,
        [1.0; 4],
        [1.0; 2],
    );
    assert_eq!(t.indices, [0, 1, 1, 2, 2, 3]);
}

#[test]
fn max_tess_factor_acts_as_a_clamp() {
    for p in PARTITIONINGS {
        let clamped = TessFactors::tri([20.0, 3.0, 40.0], 30.0).with_max_tess_factor(7.5);
        let direct = TessFactors::tri([7.5, 3.0, 7.5], 7.5);
        assert_eq!(
            tessellate(Domain::Tri, p, OutputPrimitive::TriangleCw, &clamped),
            tessellate(Domain::Tri, p, OutputPrimitive::TriangleCw, &direct),
            "{p:?}"
        );
        let iso = TessFactors::isoline(20.0, 30.0).with_max_tess_factor(6.0);
        let direct = TessFactors::isoline(6.0, 6.0);
        assert_eq!(
            tessellate(Domain::Isoline, p, OutputPrimitive::Line, &iso),
            tessellate(Domain::Isoline, p, OutputPrimitive::Line, &direct)
        );
    }
}
