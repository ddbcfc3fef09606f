//! Stream output: primitives written vertex by vertex into buffers, each
//! vertex as its declared elements packed in order.
//!
//! A primitive goes to every buffer its stream feeds, or, when one of them
//! lacks room for all its vertices, to none: from then on that stream
//! writes nothing more, but keeps counting the primitives it needed (the
//! D3D11 functional specification's overflow rule, observable through
//! `D3D11_QUERY_SO_STATISTICS_STREAM#`).

use super::assembly::Primitives;
use super::topology::MAX_STREAMS;

/// One declaration entry: `count` words of an output register from
/// component `component`, or `count` words skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SoElement {
    /// The output register, or `None` for a gap that leaves the buffer as it is.
    pub reg: Option<u32>,
    /// The first component (0 = x).
    pub component: u8,
    /// How many components, 1 to 4.
    pub count: u8,
}

/// One bound stream-output buffer and what goes into it.
#[derive(Debug, Clone, PartialEq)]
pub struct SoTarget {
    /// The stream feeding it (0 to 3).
    pub stream: u32,
    /// Bytes from one vertex to the next; the elements fit in it.
    pub stride: u32,
    /// The elements of each vertex, packed from its first byte.
    pub elements: Vec<SoElement>,
    /// The buffer's memory.
    pub data: Vec<u8>,
    /// Bytes written so far (where the next vertex goes).
    pub filled: usize,
}

/// Primitives per stream: written to the buffers, and produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SoCounts {
    /// `NumPrimitivesWritten` of each stream.
    pub written: [u64; MAX_STREAMS],
    /// `PrimitivesStorageNeeded` of each stream.
    pub needed: [u64; MAX_STREAMS],
}

/// Writes each stream's primitives (`streams[s]`, in order) into the
/// targets it feeds. A stream no target takes counts what it needed and
/// writes nothing.
pub fn stream_out(streams: &[Primitives], targets: &mut [SoTarget]) -> SoCounts {
    let mut counts = SoCounts::default();
    for (s, prims) in streams.iter().enumerate().take(MAX_STREAMS) {
        counts.needed[s] = prims.len() as u64;
        let mut fed: Vec<&mut SoTarget> = targets
            .iter_mut()
            .filter(|t| t.stream as usize == s)
            .collect();
        if fed.is_empty() {
            continue;
        }
        let n = prims.vertices_per_primitive;
        for p in 0..prims.len() {
            let fits = fed
                .iter()
                .all(|t| t.filled + n * t.stride as usize <= t.data.len());
            if !fits {
                break;
            }
            for t in fed.iter_mut() {
                for v in 0..n {
                    write_vertex(t, prims.vertex(p, v));
                }
            }
            counts.written[s] += 1;
        }
    }
    counts
}

/// Writes one vertex at `t.filled` and moves past it.
fn write_vertex(t: &mut SoTarget, regs: &[[u32; 4]]) {
    let mut at = t.filled;
    for e in &t.elements {
        for c in e.component..e.component + e.count {
            if let Some(r) = e.reg {
                let word = regs.get(r as usize).map_or(0, |v| v[usize::from(c & 3)]);
                t.data[at..at + 4].copy_from_slice(&word.to_le_bytes());
            }
            at += 4;
        }
    }
    t.filled += t.stride as usize;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflow_stops_whole_primitives() {
        // Three lines of two vertices, one register (x = vertex number);
        // a 12-byte buffer of 4-byte vertices holds the first line (8
        // bytes) but not the second: one line written, three needed, and
        // bytes 8..12 keep the fill even though one vertex would fit.
        let prims = Primitives {
            vertices_per_primitive: 2,
            regs_per_vertex: 1,
            registers: (0..6).map(|v| [v, 9, 9, 9]).collect(),
            ids: vec![0, 1, 2],
        };
        let mut t = [SoTarget {
            stream: 0,
            stride: 4,
            elements: vec![SoElement {
                reg: Some(0),
                component: 0,
                count: 1,
            }],
            data: vec![0xee; 12],
            filled: 0,
        }];
        let counts = stream_out(&[prims], &mut t);
        assert_eq!(counts.written[0], 1);
        assert_eq!(counts.needed[0], 3);
        assert_eq!(t[0].data, [0, 0, 0, 0, 1, 0, 0, 0, 0xee, 0xee, 0xee, 0xee]);
    }
}
