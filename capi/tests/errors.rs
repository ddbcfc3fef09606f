//! Calls a C caller can get wrong end in an error code and a message.

mod support;

use dxjit_capi::bindings::{Bindings, BufferBinding};
use dxjit_capi::compile::{dxjit_shader_compile, dxjit_shader_free, CompileOptions};
use dxjit_capi::dispatch::dxjit_dispatch;
use dxjit_capi::draw::{dxjit_draw, DrawDesc, RenderTarget};
use dxjit_capi::enums::{BufferKind, Format};
use dxjit_capi::reflect::{dxjit_shader_get_info, dxjit_shader_get_input, ShaderInfo};
use dxjit_capi::texture::{dxjit_texture_create, TextureDesc};
use dxjit_capi::vertices::{dxjit_run_vertices, VertexBatch};
use dxjit_capi::Status;
use std::mem::size_of;
use std::ptr::{null, null_mut};
use support::{assemble, empty_bindings, raw_uav, with_message, COMPUTE, PIXEL};

fn bindings_with_uav(uav: &BufferBinding) -> Bindings {
    Bindings {
        uavs: uav,
        uav_count: 1,
        ..empty_bindings()
    }
}

#[test]
fn null_pointers_are_refused_with_a_message() {
    let (status, message) = with_message(|m| {
        // SAFETY: null pointers are what is being tested; the message pointer is valid.
        unsafe { dxjit_shader_compile(null(), 16, null(), null_mut(), m) }
    });
    assert_eq!(status, Status::NullPointer);
    assert!(message.contains("bytes"), "{message}");
    // SAFETY: as above.
    let status = unsafe { dxjit_shader_get_info(null(), null_mut(), null_mut()) };
    assert_eq!(status, Status::NullPointer);
    let shader = assemble(COMPUTE);
    // SAFETY: a live shader and a null out pointer.
    let status = unsafe { dxjit_shader_get_info(shader, null_mut(), null_mut()) };
    assert_eq!(status, Status::NullPointer);
    // SAFETY: a live shader, freed once.
    unsafe { dxjit_shader_free(shader) };
}

#[test]
fn wrong_struct_sizes_are_refused() {
    let shader = assemble(COMPUTE);
    // SAFETY: zeroed ShaderInfo is valid memory; only struct_size is read.
    let mut info: ShaderInfo = unsafe { std::mem::zeroed() };
    info.struct_size = size_of::<ShaderInfo>() - 4;
    // SAFETY: a live shader and a writable info.
    let (status, message) =
        with_message(|m| unsafe { dxjit_shader_get_info(shader, &mut info, m) });
    assert_eq!(status, Status::StructSize);
    assert!(message.contains("dxjit_shader_info"), "{message}");
    let options = CompileOptions {
        struct_size: 1,
        verify_checksum: 1,
        legacy_mul: 0,
    };
    let bytes = [0u8; 8];
    let mut out = null_mut();
    // SAFETY: valid pointers; the options' size is what is tested.
    let status = unsafe {
        dxjit_shader_compile(bytes.as_ptr(), bytes.len(), &options, &mut out, null_mut())
    };
    assert_eq!(status, Status::StructSize);
    assert!(out.is_null());
    // SAFETY: a live shader, freed once.
    unsafe { dxjit_shader_free(shader) };
}

#[test]
fn calls_for_another_stage_are_refused() {
    let compute = assemble(COMPUTE);
    let pixel = assemble(PIXEL);
    let draw = DrawDesc {
        struct_size: size_of::<DrawDesc>(),
        rect: [0, 0, 2, 2],
        pixel_center: 0.5,
        inputs: null(),
        input_count: 0,
        targets: null(),
        target_count: 0,
        masked_samples: 0,
    };
    // SAFETY: live shaders and valid descriptions.
    unsafe {
        assert_eq!(
            dxjit_draw(compute, null(), &draw, null_mut()),
            Status::WrongStage
        );
        assert_eq!(
            dxjit_dispatch(pixel, null(), 1, 1, 1, null_mut()),
            Status::WrongStage
        );
        let batch = VertexBatch {
            struct_size: size_of::<VertexBatch>(),
            count: 0,
            inputs: null(),
            input_words: 0,
            outputs: null_mut(),
            output_words: 0,
        };
        assert_eq!(
            dxjit_run_vertices(compute, null(), &batch, null_mut()),
            Status::WrongStage
        );
        dxjit_shader_free(compute);
        dxjit_shader_free(pixel);
    }
}

#[test]
fn slots_and_indices_out_of_range_are_refused() {
    let shader = assemble(COMPUTE);
    let mut data = [0u32; 4];
    let uav = raw_uav(64, &mut data);
    let b = bindings_with_uav(&uav);
    // SAFETY: a live shader, bindings over live memory.
    let (status, message) = with_message(|m| unsafe { dxjit_dispatch(shader, &b, 1, 1, 1, m) });
    assert_eq!(status, Status::OutOfRange, "{message}");
    // SAFETY: as above; the group count is what is tested.
    let status = unsafe { dxjit_dispatch(shader, null(), 65536, 1, 1, null_mut()) };
    assert_eq!(status, Status::OutOfRange);
    // SAFETY: a live shader; index 0 of no inputs is out of range before `out` is read.
    let status = unsafe { dxjit_shader_get_input(shader, 0, null_mut(), null_mut()) };
    assert_eq!(status, Status::OutOfRange);
    // SAFETY: a live shader, freed once.
    unsafe { dxjit_shader_free(shader) };
}

#[test]
fn invalid_descriptions_are_refused() {
    let shader = assemble(COMPUTE);
    let mut data = [0u32; 4];
    let mut uav = raw_uav(0, &mut data);
    uav.kind = 9;
    let b = bindings_with_uav(&uav);
    // SAFETY: a live shader, bindings over live memory.
    unsafe {
        assert_eq!(
            dxjit_dispatch(shader, &b, 1, 1, 1, null_mut()),
            Status::InvalidArgument
        );
    }
    let mut typed = raw_uav(0, &mut data);
    typed.kind = BufferKind::Typed as u32;
    typed.format = Format::Rgba32Float as u32;
    typed.width = 2;
    typed.height = 1;
    typed.depth = 1;
    let b = bindings_with_uav(&typed);
    // SAFETY: as above; 2 rgba32 texels need 32 bytes, 16 are given.
    unsafe {
        assert_eq!(
            dxjit_dispatch(shader, &b, 1, 1, 1, null_mut()),
            Status::InvalidArgument
        );
        dxjit_shader_free(shader);
    }
    let desc = TextureDesc {
        struct_size: size_of::<TextureDesc>(),
        kind: 3,
        format: Format::Rgba8Unorm as u32,
        width: 4,
        height: 4,
        depth_or_array: 1,
        mips: 1,
    };
    let bytes = [0u8; 16];
    let mut out = null_mut();
    // SAFETY: valid pointers; 16 bytes are too few for 4x4 rgba8 texels.
    let status =
        unsafe { dxjit_texture_create(&desc, bytes.as_ptr().cast(), 16, &mut out, null_mut()) };
    assert_eq!(status, Status::Texture);
    assert!(out.is_null());
}

/// Draws `PIXEL` over a `width` x 2 rectangle into one target over
/// `pixels`; returns the status and message.
fn draw_into(pixels: &mut [u8], width: u32, row_pitch: u32, format: Format) -> (Status, String) {
    let shader = assemble(PIXEL);
    let target = RenderTarget {
        struct_size: size_of::<RenderTarget>(),
        data: pixels.as_mut_ptr().cast(),
        size: pixels.len(),
        width,
        height: 2,
        row_pitch,
        format: format as u32,
        output_reg: 0,
        samples: 1,
    };
    let draw = DrawDesc {
        struct_size: size_of::<DrawDesc>(),
        rect: [0, 0, width, 2],
        pixel_center: 0.5,
        inputs: null(),
        input_count: 0,
        targets: &target,
        target_count: 1,
        masked_samples: 0,
    };
    // SAFETY: a live shader and a target over live memory.
    let result = with_message(|m| unsafe { dxjit_draw(shader, null(), &draw, m) });
    // SAFETY: a live shader, freed once.
    unsafe { dxjit_shader_free(shader) };
    result
}

#[test]
fn small_render_targets_are_refused() {
    let mut pixels = [0u8; 15];
    let (status, message) = draw_into(&mut pixels, 2, 8, Format::Rgba8Unorm);
    assert_eq!(status, Status::InvalidArgument);
    assert!(message.contains("16 bytes"), "{message}");
    assert_eq!(pixels, [0; 15]);
}

#[test]
fn read_only_formats_are_refused_as_render_targets() {
    let mut pixels = [0u8; 64];
    let (status, message) = draw_into(&mut pixels, 4, 16, Format::Bc1Unorm);
    assert_eq!(status, Status::InvalidArgument);
    assert!(message.contains("cannot be rendered to"), "{message}");
    assert_eq!(pixels, [0; 64]);
}

#[test]
fn a_dispatch_writes_its_uav() {
    let shader = assemble(COMPUTE);
    let mut data = [u32::MAX; 8];
    let uav = raw_uav(0, &mut data);
    let b = bindings_with_uav(&uav);
    // SAFETY: a live shader, bindings over live memory.
    let (status, message) = with_message(|m| unsafe { dxjit_dispatch(shader, &b, 2, 1, 1, m) });
    assert_eq!(status, Status::Ok, "{message}");
    assert!(message.is_empty());
    assert_eq!(data, [0, 1, 2, 3, 4, 5, 6, 7]);
    // SAFETY: a live shader, freed once.
    unsafe { dxjit_shader_free(shader) };
}
