//! Tests of the fixed-function tessellator: bit-exact comparison with the
//! D3D11 reference tessellator's output, hand-worked examples from the
//! spec, primitive counts from the spec's formulas, and geometric
//! properties over sweeps of factors.

use dxjit_runtime::tessellator::{
    tessellate, Domain, OutputPrimitive, Partitioning, TessFactors, Tessellation,
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
