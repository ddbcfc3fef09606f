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

// ---------------------------------------------------------------------------
// Point and primitive counts from the spec's formulas.
//
// An edge of (clamped) factor f is split into s(f) segments: integer and
// pow2 round up, fractional odd to the next odd number, fractional even to
// the next even number. It holds s(f) + 1 points, and a ring of edges holds
// the sum of its edges' segment counts.
//
// Inside factors are split the same way, except that a tri or quad always
// has an inner ring: integer's inside factor 1 is split as 2, fractional
// odd's inside factors are at least 3.
//
// A quad's inner rings form a grid of (s(U) - 1)(s(V) - 1) points. A tri's
// whole tessellation at a uniform n has P(n) points: rings of 3n, 3(n - 2),
// ... points, plus a centre point when n is even, so
// P(n) = 3((n + 1)/2)² for odd n and 3(n/2)(n/2 + 1) + 1 for even n; its
// inner rings hold P(n) - 3n.
//
// Every tri and quad tessellation is a triangulation of the patch with V
// points, B of them on its boundary, so by Euler's formula it has
// 2V - B - 2 triangles.
//
// An isoline patch has ceil(density) lines (the line at v = 1 is not drawn)
// of s(detail) + 1 points and s(detail) segments each.

/// s(f) for an edge under a partitioning, with `max_tess_factor` 64.
fn edge_segments(p: Partitioning, f: f32) -> u32 {
    match p {
        Partitioning::Integer | Partitioning::Pow2 => clamp(f, 1.0, 64.0).ceil() as u32,
        Partitioning::FractionalOdd => next_with_parity(clamp(f, 1.0, 63.0), 1),
        Partitioning::FractionalEven => next_with_parity(clamp(f, 2.0, 64.0), 0),
    }
}

/// Clamps, mapping NaN to the lower end.
fn clamp(f: f32, lower: f32, upper: f32) -> f32 {
    if f > lower {
        f.min(upper)
    } else {
        lower
    }
}

/// The smallest whole number at least `f` whose remainder mod 2 is `parity`.
fn next_with_parity(f: f32, parity: u32) -> u32 {
    let n = f.ceil() as u32;
    if n % 2 == parity {
        n
    } else {
        n + 1
    }
}

/// Points of a uniform tri tessellation with n segments per edge.
fn tri_points(n: u32) -> u32 {
    if n % 2 == 1 {
        3 * n.div_ceil(2).pow(2)
    } else {
        3 * (n / 2) * (n / 2 + 1) + 1
    }
}

/// Expected (points, triangles) of a tri or quad patch, `None` if culled.
fn expected_patch_counts(
    domain: Domain,
    p: Partitioning,
    edges: &[f32],
    inside: &[f32],
) -> Option<(u32, u32)> {
    if edges.iter().any(|&f| f.is_nan() || f <= 0.0) {
        return None;
    }
    let boundary: u32 = edges.iter().map(|&f| edge_segments(p, f)).sum();
    // Whether every factor ends up exactly 1: the patch is its corners.
    let edges_one = edges.iter().all(|&f| edge_segments(p, f) == 1);
    let inside_one =
        p != Partitioning::FractionalEven && inside.iter().all(|&f| f.is_nan() || f <= 1.0);
    let corners = edges.len() as u32;
    if edges_one && inside_one {
        return Some((corners, corners - 2));
    }
    let inside_segments: Vec<u32> = inside
        .iter()
        .map(|&f| match p {
            Partitioning::Integer | Partitioning::Pow2 => edge_segments(p, f).max(2),
            Partitioning::FractionalOdd => edge_segments(p, f).max(3),
            Partitioning::FractionalEven => edge_segments(p, f),
        })
        .collect();
    let interior = match domain {
        Domain::Tri => tri_points(inside_segments[0]) - 3 * inside_segments[0],
        _ => (inside_segments[0] - 1) * (inside_segments[1] - 1),
    };
    let points = boundary + interior;
    Some((points, 2 * points - boundary - 2))
}

/// Expected (points, segments) of an isoline patch, `None` if culled.
fn expected_isoline_counts(p: Partitioning, density: f32, detail: f32) -> Option<(u32, u32)> {
    if [density, detail].iter().any(|&f| f.is_nan() || f <= 0.0) {
        return None;
    }
    let lines = clamp(density, 1.0, 64.0).ceil() as u32;
    let segments = edge_segments(p, detail);
    Some((lines * (segments + 1), lines * segments))
}

/// Domain, partitioning, edge factors, inside factors, points, triangles.
type CountCase = (
    Domain,
    Partitioning,
    &'static [f32],
    &'static [f32],
    usize,
    usize,
);

#[test]
fn counts_of_hand_worked_cases() {
    use Partitioning::*;
    let cases: [CountCase; 10] = [
        // A 4x4 grid: 16 points, 2 * 3 * 3 triangles.
        (Domain::Quad, Integer, &[3.0; 4], &[3.0; 2], 16, 18),
        // Boundary 1+2+3+4 = 10, interior (2-1)(5-1) = 4: 14 points,
        // 28 - 10 - 2 = 16 triangles.
        (
            Domain::Quad,
            Integer,
            &[1.0, 2.0, 3.0, 4.0],
            &[2.0, 5.0],
            14,
            16,
        ),
        // Boundary 9, interior P(5) - 15 = 12: 21 points, 42 - 9 - 2 = 31.
        (Domain::Tri, Integer, &[2.0, 3.0, 4.0], &[5.0], 21, 31),
        // Segments 3, 3, 5; inside 5: 11 + 12 = 23 points, 33 triangles.
        (
            Domain::Tri,
            FractionalOdd,
            &[1.5, 2.0, 4.25],
            &[3.5],
            23,
            33,
        ),
        // Segments 4, 4, 6, 2; inside 2 and 8: 16 + 7 = 23 points, 28.
        (
            Domain::Quad,
            FractionalEven,
            &[2.5, 3.0, 6.0, 1.0],
            &[1.0, 7.5],
            23,
            28,
        ),
        // P(64) = 3 * 32 * 33 + 1 = 3169 points, 6338 - 192 - 2 = 6144.
        (Domain::Tri, FractionalEven, &[64.0; 3], &[64.0], 3169, 6144),
        // 65² points, 2 * 64² triangles.
        (Domain::Quad, Pow2, &[64.0; 4], &[64.0; 2], 4225, 8192),
        // 63.5 clamps to 63 for fractional odd: 64² points, 2 * 63².
        (
            Domain::Quad,
            FractionalOdd,
            &[63.5; 4],
            &[63.5; 2],
            4096,
            7938,
        ),
        // Edges of 1 with a tri's inside of 3: 3 + P(3) - 9 = 6 points.
        (Domain::Tri, FractionalOdd, &[1.0; 3], &[3.0], 6, 7),
        // An integer inside factor of 1 still makes a centre point:
        // 9 + 1 points, 20 - 9 - 2 triangles.
        (Domain::Tri, Integer, &[3.0; 3], &[1.0], 10, 9),
    ];
    for (domain, p, edges, inside, points, triangles) in cases {
        let factors = match domain {
            Domain::Tri => TessFactors::tri([edges[0], edges[1], edges[2]], inside[0]),
            _ => TessFactors::quad(
                [edges[0], edges[1], edges[2], edges[3]],
                [inside[0], inside[1]],
            ),
        };
        let t = tessellate(domain, p, OutputPrimitive::TriangleCw, &factors);
        let label = format!("{domain:?} {p:?} {edges:?} {inside:?}");
        assert_eq!(
            (t.points.len(), t.primitive_count()),
            (points, triangles),
            "{label}"
        );
        assert_eq!(
            expected_patch_counts(domain, p, edges, inside),
            Some((points as u32, triangles as u32)),
            "formula for {label}"
        );
    }
    let isolines = [
        // 3 lines (2.5 rounds up) of 4 segments (3.2 to the next even).
        (FractionalEven, 2.5, 3.2, 15, 12),
        (Pow2, 64.0, 64.0, 64 * 65, 64 * 64),
        (FractionalOdd, 0.5, 0.5, 2, 1),
    ];
    for (p, density, detail, points, segments) in isolines {
        let t = isoline(p, OutputPrimitive::Line, density, detail);
        assert_eq!(
            (t.points.len(), t.primitive_count()),
            (points, segments),
            "{p:?} {density} {detail}"
        );
    }
}

/// A small deterministic generator (xorshift64*), for sweeps.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A factor that is a multiple of 1/8 in [0.125, 68], or now and then
    /// exactly 1.
    fn factor(&mut self) -> f32 {
        if self.next().is_multiple_of(8) {
            1.0
        } else {
            (self.next() % 544 + 1) as f32 / 8.0
        }
    }
}

#[test]
fn counts_follow_the_formulas_across_a_sweep() {
    let mut rng = Rng(0x7e55_e11a_7e5e_ed01);
    for p in PARTITIONINGS {
        for _ in 0..300 {
            let e = [rng.factor(), rng.factor(), rng.factor(), rng.factor()];
            let i = [rng.factor(), rng.factor()];
            for (domain, edges, inside) in [
                (Domain::Tri, &e[..3], &i[..1]),
                (Domain::Quad, &e[..], &i[..]),
            ] {
                let factors = TessFactors {
                    edges: e,
                    inside: i,
                    max_tess_factor: TessFactors::MAX,
                };
                let (points, triangles) = expected_patch_counts(domain, p, edges, inside).unwrap();
                let label = format!("{domain:?} {p:?} {edges:?} {inside:?}");
                let t = tessellate(domain, p, OutputPrimitive::TriangleCw, &factors);
                assert_eq!(
                    (t.points.len(), t.primitive_count()),
                    (points as usize, triangles as usize),
                    "{label}"
                );
                let t = tessellate(domain, p, OutputPrimitive::Point, &factors);
                assert_eq!(t.indices, (0..points).collect::<Vec<_>>(), "{label}");
                let t = tessellate(domain, p, OutputPrimitive::Line, &factors);
                assert_eq!(t.primitive_count() as u32, points - 1, "{label}");
            }
            let (points, segments) = expected_isoline_counts(p, e[0], e[1]).unwrap();
            let t = isoline(p, OutputPrimitive::Line, e[0], e[1]);
            assert_eq!(
                (t.points.len(), t.primitive_count()),
                (points as usize, segments as usize)
            );
            let t = isoline(p, OutputPrimitive::Point, e[0], e[1]);
            assert_eq!(t.primitive_count(), points as usize);
        }
    }
}

// ---------------------------------------------------------------------------
// Geometric properties over sweeps of factors.

/// Twice the signed area of triangle `t` in (u, v) space, exact: points are
/// multiples of 2^-16 in [0, 1], so every product and partial sum fits an
/// f64 exactly.
fn doubled_area(points: &[[f32; 2]], t: &[u32]) -> f64 {
    let [a, b, c] = [t[0], t[1], t[2]].map(|i| points[i as usize].map(f64::from));
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

fn random_patch(rng: &mut Rng, domain: Domain) -> TessFactors {
    match domain {
        Domain::Tri => TessFactors::tri([rng.factor(), rng.factor(), rng.factor()], rng.factor()),
        _ => TessFactors::quad(
            [rng.factor(), rng.factor(), rng.factor(), rng.factor()],
            [rng.factor(), rng.factor()],
        ),
    }
}

/// As [`random_patch`], with inside factors of at least 1.125.
///
/// Under fractional odd partitioning an inside factor of 1 next to a larger
/// factor is raised to 1 + 2^-16 (so an inner ring exists), which puts the
/// inner ring within 2^-16 of the edges: the spec's fixed point then makes
/// zero-area triangles there.
fn random_patch_with_inner_ring(rng: &mut Rng, domain: Domain) -> TessFactors {
    let mut factors = random_patch(rng, domain);
    factors.inside = factors.inside.map(|f| f.max(1.125));
    factors
}

#[test]
fn triangles_tile_the_domain_with_consistent_winding() {
    let mut rng = Rng(0x0dd5_eed5_0f7e_55e1);
    for p in PARTITIONINGS {
        for domain in [Domain::Tri, Domain::Quad] {
            for _ in 0..150 {
                let factors = random_patch_with_inner_ring(&mut rng, domain);
                let label = format!("{domain:?} {p:?} {factors:?}");
                let cw = tessellate(domain, p, OutputPrimitive::TriangleCw, &factors);
                let ccw = tessellate(domain, p, OutputPrimitive::TriangleCcw, &factors);
                assert_eq!(cw.points, ccw.points, "{label}");

                for &[u, v] in &cw.points {
                    assert!(
                        (0.0..=1.0).contains(&u) && (0.0..=1.0).contains(&v),
                        "{label}"
                    );
                    if domain == Domain::Tri {
                        // w = 1 - u - v >= 0 (the sum is exact).
                        assert!(u + v <= 1.0, "{label}: ({u}, {v})");
                    }
                }

                let mut used = vec![false; cw.points.len()];
                let mut total = 0.0;
                for (a, b) in cw.indices.chunks(3).zip(ccw.indices.chunks(3)) {
                    // Counter-clockwise is clockwise with the last two swapped.
                    assert_eq!([a[0], a[2], a[1]], b, "{label}");
                    let area = doubled_area(&cw.points, a);
                    assert!(area > 0.0, "{label}: triangle {a:?} has area {area}");
                    assert_eq!(doubled_area(&ccw.points, b), -area);
                    total += area;
                    for &i in a {
                        used[i as usize] = true;
                    }
                }
                // No overlaps or gaps: the areas add up to the domain's.
                let domain_area = if domain == Domain::Tri { 1.0 } else { 2.0 };
                assert_eq!(total, domain_area, "{label}");
                assert!(
                    used.iter().all(|&u| u),
                    "{label}: a point is in no triangle"
                );
            }
        }
    }
}

#[test]
fn near_whole_factors_still_tile_the_domain() {
    // Factors a few 2^-16 above a whole number put two points within 2^-16
    // of each other; rounding to the spec's fixed point can then leave a
    // sliver triangle with zero or even slightly negative area (doubled
    // area above -2^-14 here; the reference tessellator's output is the
    // same, see the reference data). The signed areas still add up to the
    // domain's exactly.
    let mut rng = Rng(0x5eed_0000_0000_0bad);
    let factor = |rng: &mut Rng| {
        let whole = (rng.next() % 64 + 1) as f32;
        whole + (rng.next() % 4) as f32 * 2f32.powi(-16)
    };
    let sliver = 2f64.powi(-14);
    for p in PARTITIONINGS {
        for domain in [Domain::Tri, Domain::Quad] {
            for _ in 0..100 {
                let edges = [
                    factor(&mut rng),
                    factor(&mut rng),
                    factor(&mut rng),
                    factor(&mut rng),
                ];
                let factors = TessFactors::quad(edges, [factor(&mut rng), factor(&mut rng)]);
                let t = tessellate(domain, p, OutputPrimitive::TriangleCw, &factors);
                let mut total = 0.0;
                for tri in t.indices.chunks(3) {
                    let area = doubled_area(&t.points, tri);
                    assert!(
                        area > -sliver,
                        "{domain:?} {p:?} {factors:?}: {tri:?} {area}"
                    );
                    total += area;
                }
                assert_eq!(total, if domain == Domain::Tri { 1.0 } else { 2.0 });
            }
        }
    }
}

/// Whether a point lies on one particular edge.
type EdgeTest = fn([f32; 2]) -> bool;

/// The parameters (as f32 bits, sorted) of the points on each outer edge:
/// tri edges u==0 (v), v==0 (u), w==0 (u); quad edges u==0 (v), v==0 (u),
/// u==1 (v), v==1 (u).
///
/// Only the outer ring's points count (the first `ring` points): an inner
/// ring can lie on an edge when fractional odd raises an inside factor of 1
/// to 1 + 2^-16.
fn edge_parameters(domain: Domain, points: &[[f32; 2]], ring: usize) -> Vec<Vec<u32>> {
    let points = &points[..ring];
    let on_edge: Vec<(EdgeTest, usize)> = match domain {
        Domain::Tri => vec![
            (|p| p[0] == 0.0, 1),
            (|p| p[1] == 0.0, 0),
            (|p| p[0] + p[1] == 1.0, 0),
        ],
        _ => vec![
            (|p| p[0] == 0.0, 1),
            (|p| p[1] == 0.0, 0),
            (|p| p[0] == 1.0, 1),
            (|p| p[1] == 1.0, 0),
        ],
    };
    on_edge
        .iter()
        .map(|(on, axis)| {
            let mut params: Vec<u32> = points
                .iter()
                .filter(|p| on(**p))
                .map(|p| p[*axis].to_bits())
                .collect();
            params.sort_unstable();
            params
        })
        .collect()
}

/// Points on a patch's outer ring: the sum of its edges' segment counts.
fn outer_ring(domain: Domain, p: Partitioning, factors: &TessFactors) -> usize {
    let edges = if domain == Domain::Tri { 3 } else { 4 };
    factors.edges[..edges]
        .iter()
        .map(|&f| edge_segments(p, f) as usize)
        .sum()
}

#[test]
fn edge_points_are_symmetric() {
    let mut rng = Rng(0x5177_e7e1_c0ff_ee00);
    for p in PARTITIONINGS {
        for domain in [Domain::Tri, Domain::Quad] {
            for _ in 0..150 {
                let factors = random_patch(&mut rng, domain);
                let t = tessellate(domain, p, OutputPrimitive::Point, &factors);
                for params in edge_parameters(domain, &t.points, outer_ring(domain, p, &factors)) {
                    let mirrored: Vec<u32> = params
                        .iter()
                        .rev()
                        .map(|&b| (1.0 - f32::from_bits(b)).to_bits())
                        .collect();
                    assert_eq!(params, mirrored, "{domain:?} {p:?} {factors:?}");
                }
            }
        }
    }
}

#[test]
fn edge_points_depend_only_on_that_edges_factor() {
    // Patches sharing an edge factor place identical points on that edge,
    // bit for bit, whatever their other factors and domain: so neighbouring
    // patches meet without cracks.
    let mut rng = Rng(0xc4ac_4f4e_e000_0001);
    let mut factors_to_try: Vec<f32> = (1..=68 * 4).map(|q| q as f32 / 4.0).collect();
    factors_to_try.extend([
        0.01,
        1.0 + 2f32.powi(-16),
        2.999,
        3.0001,
        17.3333,
        62.99,
        63.01,
        1e9,
        f32::INFINITY,
    ]);
    for p in PARTITIONINGS {
        for &f in &factors_to_try {
            // The isoline detail splits its lines as an edge of factor f.
            let iso = isoline(p, OutputPrimitive::Point, 1.0, f);
            let mut expected: Vec<u32> = iso.points.iter().map(|q| q[0].to_bits()).collect();
            expected.sort_unstable();
            for domain in [Domain::Tri, Domain::Quad] {
                let edges = if domain == Domain::Tri { 3 } else { 4 };
                for edge in 0..edges {
                    let mut factors = random_patch(&mut rng, domain);
                    factors.edges[edge] = f;
                    let t = tessellate(domain, p, OutputPrimitive::Point, &factors);
                    let params =
                        &edge_parameters(domain, &t.points, outer_ring(domain, p, &factors))[edge];
                    assert_eq!(
                        params, &expected,
                        "{domain:?} {p:?} edge {edge} factor {f} in {factors:?}"
                    );
                }
            }
        }
    }
}
