//! Where a geometry shader's `emit` and `cut` put each lane's vertices,
//! and the runtime helpers compiled code calls for them.
//!
//! One lane runs one (input primitive, instance) invocation. Each emit
//! copies the lane's output registers into its next vertex slot, tagged
//! with the stream and the strip it belongs to; a cut starts a new strip
//! of that stream. Emits past the declared maximum (`dcl_maxout`, counted
//! over all streams) are dropped, as the D3D11 specification says.

use crate::abi::Frame;

/// One emitted vertex's place: its stream and its strip within the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GsVertex {
    /// The stream (0 to 3).
    pub stream: u8,
    /// The lane's strip counter for that stream when it was emitted.
    pub strip: u32,
}

/// The per-call output area of a geometry shader.
#[derive(Debug, Clone)]
pub struct GsArea {
    lanes: usize,
    regs: usize,
    max: usize,
    counts: Vec<u32>,
    strips: Vec<[u32; 4]>,
    tags: Vec<GsVertex>,
    registers: Vec<[u32; 4]>,
}

impl GsArea {
    /// An empty area for `lanes` lanes, `regs` output registers and at
    /// most `max` vertices per lane.
    pub fn new(lanes: usize, regs: usize, max: usize) -> GsArea {
        GsArea {
            lanes,
            regs,
            max,
            counts: vec![0; lanes],
            strips: vec![[0; 4]; lanes],
            tags: vec![GsVertex::default(); lanes * max],
            registers: vec![[0; 4]; lanes * max * regs],
        }
    }

    /// Forgets every lane's vertices.
    pub fn clear(&mut self) {
        self.counts.fill(0);
        self.strips.fill([0; 4]);
    }

    /// The vertices lane `lane` kept, in emission order: each one's tag
    /// and output registers.
    pub fn vertices(&self, lane: usize) -> impl Iterator<Item = (GsVertex, &[[u32; 4]])> + '_ {
        let n = self.counts.get(lane).copied().unwrap_or(0) as usize;
        (0..n).map(move |i| {
            let slot = lane * self.max + i;
            let regs = &self.registers[slot * self.regs..(slot + 1) * self.regs];
            (self.tags[slot], regs)
        })
    }

    /// Emits to `stream` for every lane whose `active` word is nonzero,
    /// copying its registers from the SoA block `outputs`.
    fn emit(&mut self, outputs: &[u32], stream: u8, active: &[u32]) {
        let w = self.lanes;
        for (l, _) in active.iter().enumerate().filter(|(_, a)| **a != 0) {
            let n = self.counts[l] as usize;
            if n >= self.max {
                continue;
            }
            let slot = l * self.max + n;
            self.tags[slot] = GsVertex {
                stream,
                strip: self.strips[l][usize::from(stream)],
            };
            for r in 0..self.regs {
                self.registers[slot * self.regs + r] =
                    [0, 1, 2, 3].map(|c| outputs[(r * 4 + c) * w + l]);
            }
            self.counts[l] += 1;
        }
    }

    /// Ends the current strip of `stream` for every lane whose `active`
    /// word is nonzero.
    fn cut(&mut self, stream: u8, active: &[u32]) {
        for (l, _) in active.iter().enumerate().filter(|(_, a)| **a != 0) {
            self.strips[l][usize::from(stream)] += 1;
        }
    }
}

/// The lane mask and the area of a frame, or `None` outside geometry shaders.
///
/// # Safety
/// As for [`dxjit_gs_emit`].
unsafe fn area_of<'a>(frame: *mut Frame, mask: *const u32) -> Option<(&'a mut GsArea, &'a [u32])> {
    // SAFETY: the caller passes the frame compiled code was called with.
    let gs = unsafe { (*frame).gs };
    if gs.is_null() {
        return None;
    }
    // SAFETY: a non-null `gs` is the GsArea the runtime set for this call,
    // not otherwise borrowed while the shader runs.
    let area = unsafe { &mut *gs };
    // SAFETY: `mask` holds one word per lane of the call.
    let active = unsafe { std::slice::from_raw_parts(mask, area.lanes) };
    Some((area, active))
}

/// `emit_stream`: records the output registers of the active lanes.
///
/// # Safety
/// `frame` is the frame the calling shader runs with; when its `gs` is not
/// null it points to a [`GsArea`] made for the call's lanes and output
/// registers, and `outputs` to that many SoA registers; `mask` holds a
/// word per lane.
pub unsafe extern "C" fn dxjit_gs_emit(frame: *mut Frame, stream: u32, mask: *const u32) {
    // SAFETY: as this function's contract.
    let Some((area, active)) = (unsafe { area_of(frame, mask) }) else {
        return;
    };
    let words = area.regs * 4 * area.lanes;
    // SAFETY: `outputs` holds `regs` SoA registers of `lanes` lanes.
    let outputs = unsafe { std::slice::from_raw_parts((*frame).outputs, words) };
    area.emit(outputs, (stream & 3) as u8, active);
}

/// `cut_stream`: ends the active lanes' current strips of `stream`.
///
/// # Safety
/// As for [`dxjit_gs_emit`].
pub unsafe extern "C" fn dxjit_gs_cut(frame: *mut Frame, stream: u32, mask: *const u32) {
    // SAFETY: as this function's contract.
    if let Some((area, active)) = unsafe { area_of(frame, mask) } {
        area.cut((stream & 3) as u8, active);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emits_past_the_maximum_are_dropped_per_lane() {
        // Two lanes, one register, at most two vertices each. Lane 0 emits
        // three times (the third is dropped), lane 1 once, then cuts.
        let mut a = GsArea::new(2, 1, 2);
        let outputs = [10, 20, 11, 21, 12, 22, 13, 23];
        a.emit(&outputs, 0, &[1, 1]);
        a.cut(0, &[0, 1]);
        a.emit(&outputs, 1, &[1, 0]);
        a.emit(&outputs, 0, &[1, 0]);
        let lane0: Vec<_> = a.vertices(0).map(|(t, r)| (t, r[0])).collect();
        let lane1: Vec<_> = a.vertices(1).map(|(t, r)| (t, r[0])).collect();
        let v = |stream, strip| GsVertex { stream, strip };
        assert_eq!(
            lane0,
            [(v(0, 0), [10, 11, 12, 13]), (v(1, 0), [10, 11, 12, 13])]
        );
        assert_eq!(lane1, [(v(0, 0), [20, 21, 22, 23])]);
        a.emit(&outputs, 0, &[0, 1]);
        assert_eq!(a.vertices(1).nth(1).map(|(t, _)| t), Some(v(0, 1)));
    }
}
