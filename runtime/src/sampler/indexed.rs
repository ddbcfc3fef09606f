//! Lookups whose texture and sampler slots compiled code chooses at run
//! time, lane by lane (SM5 class instances' `t[this[i].z]`): the frame's
//! tables of every bound SRV and sampler are indexed here, so each call
//! site in compiled code is one call whatever slots the lanes name.
//!
//! A slot past the runtime's ([`SRV_SLOTS`], [`SAMPLER_SLOTS`]) reads as
//! unbound: zeros in every component (D3D11.3 functional spec, 5.3.7: an
//! unbound resource reads 0; a sampler slot D3D11 does not have leaves the
//! lookup nothing to filter with, which this runtime reads the same way).

use super::{gather_quad, lod_quad, sample_quad, GatherSample, QuadSample, SamplerState};
use crate::abi::{View, SAMPLER_SLOTS, SRV_SLOTS};
use crate::helpers::dxjit_typed_load;
use crate::texture::Texture;

/// The slots each lane of a 2x2 quad reads, for
/// [`dxjit_sample_quad_indexed`].
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct QuadSlots {
    /// Per lane, the SRV slot.
    pub srv: [u32; 4],
    /// Per lane, the sampler slot.
    pub sampler: [u32; 4],
}

/// The texture bound at `slot` of the table `srvs`: `Err` past the
/// table, `Ok(None)` for an unbound slot or one that holds no texture.
///
/// # Safety
/// `srvs` points to [`SRV_SLOTS`] valid views whose `texture` is null or a
/// live [`Texture`].
unsafe fn texture_at<'a>(srvs: *const View, slot: u32) -> Result<Option<&'a Texture>, ()> {
    if slot as usize >= SRV_SLOTS {
        return Err(());
    }
    // SAFETY: `slot` is inside the table, whose views the caller vouches for.
    Ok(unsafe {
        (*srvs.add(slot as usize))
            .texture
            .cast::<Texture>()
            .as_ref()
    })
}

/// A quad lookup whose lanes name their own texture and sampler slots:
/// `lookup` runs once per distinct (texture, sampler) pair with the whole
/// quad's arguments (D3D computes the level of detail from the quad
/// whatever each lane reads), and each lane takes its own component.
///
/// # Safety
/// `srvs` points to [`SRV_SLOTS`] valid views (each `texture` null or a
/// live [`Texture`]) and `samplers` to [`SAMPLER_SLOTS`] states.
unsafe fn per_pair(
    srvs: *const View,
    samplers: *const SamplerState,
    slots: &QuadSlots,
    lookup: impl Fn(Option<&Texture>, &SamplerState) -> [[f32; 4]; 4],
) -> [[f32; 4]; 4] {
    let mut result = [[0.0f32; 4]; 4];
    let mut done = [false; 4];
    for lane in 0..4 {
        if done[lane] {
            continue;
        }
        let pair = (slots.srv[lane], slots.sampler[lane]);
        // SAFETY: the caller's contract on `srvs`.
        let texture = unsafe { texture_at(srvs, pair.0) };
        let filtered = match (texture, (pair.1 as usize) < SAMPLER_SLOTS) {
            (Ok(texture), true) => {
                // SAFETY: the slot is inside the caller's table of states.
                let sampler = unsafe { &*samplers.add(pair.1 as usize) };
                lookup(texture, sampler)
            }
            _ => [[0.0; 4]; 4],
        };
        for other in lane..4 {
            if (slots.srv[other], slots.sampler[other]) == pair {
                done[other] = true;
                for (r, f) in result.iter_mut().zip(&filtered) {
                    r[other] = f[other];
                }
            }
        }
    }
    result
}

/// [`sample_quad`] for a quad whose lanes name their own texture and
/// sampler slots (`per_pair`).
///
/// # Safety
/// `srvs` points to [`SRV_SLOTS`] valid views (each `texture` null or a
/// live [`Texture`]), `samplers` to [`SAMPLER_SLOTS`] states, `slots` and
/// `args` to valid values, `out` is valid for a write.
pub unsafe extern "C" fn dxjit_sample_quad_indexed(
    srvs: *const View,
    samplers: *const SamplerState,
    slots: *const QuadSlots,
    args: *const QuadSample,
    out: *mut [[f32; 4]; 4],
) {
    // SAFETY: the caller's contract, which `indexed` states.
    unsafe { indexed(srvs, samplers, slots, args, out, sample_quad) };
}

/// [`gather_quad`] for a quad whose lanes name their own texture and
/// sampler slots (`per_pair`).
///
/// # Safety
/// As for [`dxjit_sample_quad_indexed`].
pub unsafe extern "C" fn dxjit_gather_quad_indexed(
    srvs: *const View,
    samplers: *const SamplerState,
    slots: *const QuadSlots,
    args: *const GatherSample,
    out: *mut [[f32; 4]; 4],
) {
    // SAFETY: the caller's contract, which `indexed` states.
    unsafe { indexed(srvs, samplers, slots, args, out, gather_quad) };
}

/// [`lod_quad`] for a quad whose lanes name their own texture and sampler
/// slots (`per_pair`).
///
/// # Safety
/// As for [`dxjit_sample_quad_indexed`].
pub unsafe extern "C" fn dxjit_lod_quad_indexed(
    srvs: *const View,
    samplers: *const SamplerState,
    slots: *const QuadSlots,
    args: *const QuadSample,
    out: *mut [[f32; 4]; 4],
) {
    // SAFETY: the caller's contract, which `indexed` states.
    unsafe { indexed(srvs, samplers, slots, args, out, lod_quad) };
}

/// Runs `lookup` on the quad `args` once per (texture, sampler) pair its
/// lanes name ([`per_pair`]) and writes the lanes' results to `out`.
///
/// # Safety
/// As for [`dxjit_sample_quad_indexed`]: the tables are valid, `slots` and
/// `args` point to valid values and `out` is valid for a write.
unsafe fn indexed<A>(
    srvs: *const View,
    samplers: *const SamplerState,
    slots: *const QuadSlots,
    args: *const A,
    out: *mut [[f32; 4]; 4],
    lookup: impl Fn(Option<&Texture>, &SamplerState, &A) -> [[f32; 4]; 4],
) {
    // SAFETY: the caller guarantees `slots` and `args` point to valid values.
    let (slots, args) = unsafe { (&*slots, &*args) };
    // SAFETY: the caller's contract on the tables.
    let result = unsafe { per_pair(srvs, samplers, slots, |t, s| lookup(t, s, args)) };
    // SAFETY: the caller guarantees `out` is valid for a write.
    unsafe { out.write(result) };
}

/// `ld` from the view at SRV `slot` of the table `srvs`, as the kind bound
/// there: a texture at texel (x, y, z or slice) of level `mip` (the
/// coordinates its kind lacks ignored), a typed buffer at element `x`;
/// four words into `out`. Out of range, unbound, or past the table: zeros.
///
/// # Safety
/// `srvs` points to [`SRV_SLOTS`] valid views whose memory is readable
/// (each `texture` null or a live [`Texture`]); `out` has room for four
/// words.
pub unsafe extern "C" fn dxjit_fetch_indexed(
    srvs: *const View,
    slot: u32,
    x: i32,
    y: i32,
    z: i32,
    mip: i32,
    out: *mut u32,
) {
    let words = match slot as usize {
        s if s >= SRV_SLOTS => [0; 4],
        s => {
            // SAFETY: `s` is inside the caller's table.
            let view = unsafe { &*srvs.add(s) };
            // SAFETY: a non-null `texture` is a live Texture (the caller's contract).
            match unsafe { view.texture.cast::<Texture>().as_ref() } {
                Some(t) => t.fetch(x, y, z, mip),
                None => {
                    let mut w = [0u32; 4];
                    // SAFETY: `view` is valid and readable, `w` has four words.
                    unsafe { dxjit_typed_load(view, x, 0, 0, 0, w.as_mut_ptr()) };
                    w
                }
            }
        }
    };
    // SAFETY: `out` has room for four words.
    unsafe { std::ptr::copy_nonoverlapping(words.as_ptr(), out, 4) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Format;
    use crate::sampler::LOD_LEVEL;
    use crate::texture::TextureKind;

    /// A 1x1 r32_float texture holding `v`.
    fn texel(v: f32) -> Texture {
        Texture::new(
            TextureKind::Texture2D,
            Format::R32Float,
            1,
            1,
            1,
            1,
            v.to_le_bytes().to_vec(),
        )
        .unwrap()
    }

    #[test]
    fn each_lane_reads_its_own_slot_and_slots_past_the_table_read_zero() {
        let (a, b) = (texel(10.0), texel(20.0));
        let mut srvs = vec![View::EMPTY; SRV_SLOTS];
        srvs[3] = a.view();
        srvs[100] = b.view();
        let samplers = vec![SamplerState::default(); SAMPLER_SLOTS];
        // Lanes 0 and 2 read t3, lane 1 t100, lane 3 slot 128 (past the
        // table, reads 0); every lane sampler 0 but lane 2, whose sampler
        // slot 16 is past D3D11's 16 (reads 0). A 1x1 texture reads its
        // one texel, whatever the coordinates, at level 0: red = 10, 20,
        // 0, 0; green and blue of r32_float read 0 and alpha 1.
        let slots = QuadSlots {
            srv: [3, 100, 3, 128],
            sampler: [0, 0, 16, 0],
        };
        let args = QuadSample {
            mode: LOD_LEVEL,
            ..QuadSample::default()
        };
        let mut out = [[9.0f32; 4]; 4];
        // SAFETY: full tables, live textures, valid arguments.
        unsafe {
            dxjit_sample_quad_indexed(srvs.as_ptr(), samplers.as_ptr(), &slots, &args, &mut out)
        };
        assert_eq!(out[0], [10.0, 20.0, 0.0, 0.0]);
        assert_eq!(out[3], [1.0, 1.0, 0.0, 0.0]);
    }

    #[test]
    fn fetches_read_the_slot_named_and_zero_past_the_table() {
        let t = texel(5.0);
        let mut srvs = vec![View::EMPTY; SRV_SLOTS];
        srvs[7] = t.view();
        let mut out = [9u32; 4];
        // SAFETY: a full table and room for four words.
        unsafe { dxjit_fetch_indexed(srvs.as_ptr(), 7, 0, 0, 0, 0, out.as_mut_ptr()) };
        // r32_float 5.0 is 0x40a00000; the format's missing g, b read 0, a 1.0.
        assert_eq!(out, [0x40a0_0000, 0, 0, 0x3f80_0000]);
        // SAFETY: as above; slot 200 is past the table and never read.
        unsafe { dxjit_fetch_indexed(srvs.as_ptr(), 200, 0, 0, 0, 0, out.as_mut_ptr()) };
        assert_eq!(out, [0; 4]);
        // An unbound slot inside the table reads zeros too.
        // SAFETY: as above.
        unsafe { dxjit_fetch_indexed(srvs.as_ptr(), 8, 0, 0, 0, 0, out.as_mut_ptr()) };
        assert_eq!(out, [0; 4]);
    }
}
