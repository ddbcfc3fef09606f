//! Multisampled textures made through the C API and read by `ld2dms`.

mod support;

use dxjit_capi::bindings::{Bindings, TextureBinding};
use dxjit_capi::compile::dxjit_shader_free;
use dxjit_capi::dispatch::dxjit_dispatch;
use dxjit_capi::enums::{Format, TextureKind};
use dxjit_capi::texture::{dxjit_texture_create_multisampled, dxjit_texture_free, TextureDesc};
use dxjit_capi::Status;
use std::mem::size_of;
use std::ptr::{null, null_mut};
use support::{assemble, raw_uav, with_message};

/// Reads sample 2 of texel (1, 0) and sample 3 of texel (0, 1), then sample
/// 4 of texel (0, 0), which a 4-sample texture does not have (D3D: 0); the
/// `.xxxx` swizzle puts the red value in whichever component is written.
const READER: &str = "cs_5_0\ndcl_resource_texture2dms(4) (uint,uint,uint,uint) t0\n\
dcl_uav_raw u0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\n\
ld2dms r0.x, l(1, 0, 0, 0), t0.xxxx, l(2)\nld2dms r0.y, l(0, 1, 0, 0), t0.xxxx, l(3)\n\
ld2dms r0.z, l(0, 0, 0, 0), t0.xxxx, l(4)\nstore_raw u0.xyz, l(0), r0.xyzx\nret\n";

fn desc(kind: TextureKind) -> TextureDesc {
    TextureDesc {
        struct_size: size_of::<TextureDesc>(),
        kind: kind as u32,
        format: Format::R32Uint as u32,
        width: 2,
        height: 2,
        depth_or_array: 1,
        mips: 1,
    }
}

#[test]
fn samples_lie_one_after_another_per_texel() {
    // Texel (x, y), sample s holds 100 * (2y + x) + s: texels in rows,
    // each texel's four samples one after another.
    let texels: Vec<u32> = (0..4u32)
        .flat_map(|t| (0..4).map(move |s| 100 * t + s))
        .collect();
    let mut texture = null_mut();
    // SAFETY: valid pointers; 2x2 texels of 4 samples of 4 bytes are given.
    let status = unsafe {
        dxjit_texture_create_multisampled(
            &desc(TextureKind::Texture2dMs),
            4,
            texels.as_ptr().cast(),
            4 * texels.len(),
            &mut texture,
            null_mut(),
        )
    };
    assert_eq!(status, Status::Ok);
    let shader = assemble(READER);
    let mut out = [0xffff_ffffu32; 3];
    let uav = raw_uav(0, &mut out);
    let srv = TextureBinding {
        struct_size: size_of::<TextureBinding>(),
        slot: 0,
        texture,
    };
    let bindings = Bindings {
        struct_size: size_of::<Bindings>(),
        constant_buffers: null(),
        constant_buffer_count: 0,
        buffers: null(),
        buffer_count: 0,
        textures: &srv,
        texture_count: 1,
        uavs: &uav,
        uav_count: 1,
        samplers: null(),
        sampler_count: 0,
        interrupt: null(),
        timeout_ms: 0,
        validate: 0,
        ..support::empty_bindings()
    };
    // SAFETY: a live shader and texture, bindings to live memory.
    let status = unsafe { dxjit_dispatch(shader, &bindings, 1, 1, 1, null_mut()) };
    assert_eq!(status, Status::Ok);
    // Texel 1 sample 2: 102; texel 2 (0, 1) sample 3: 203; sample 4: none.
    assert_eq!(out, [102, 203, 0]);
    // SAFETY: freed once each.
    unsafe {
        dxjit_shader_free(shader);
        dxjit_texture_free(texture);
    }
}

#[test]
fn counts_d3d11_does_not_allow_and_plain_kinds_are_refused() {
    let texels = [0u32; 64];
    for (kind, samples, expected) in [
        (TextureKind::Texture2dMs, 3, "1, 2, 4, 8 or 16"),
        (TextureKind::Texture2d, 4, "multisampled"),
    ] {
        let mut texture = null_mut();
        let (status, message) = with_message(|m| {
            // SAFETY: valid pointers; enough bytes for any of these shapes.
            unsafe {
                dxjit_texture_create_multisampled(
                    &desc(kind),
                    samples,
                    texels.as_ptr().cast(),
                    size_of::<[u32; 64]>(),
                    &mut texture,
                    m,
                )
            }
        });
        assert_eq!(status, Status::Texture, "{message}");
        assert!(message.contains(expected), "{message}");
        assert!(texture.is_null());
    }
}
