//! The one list of functions compiled code may call, with their Rust types.
//!
//! [`foreach_helper!`](crate::foreach_helper) hands the list to a macro of
//! the caller's, which derives what it needs from it: the compiler its
//! call signatures, symbol bindings and helper handles. Each entry names
//! the function by its module and name in this crate and spells out its
//! parameter and return types; a consumer that coerces the function to an
//! `unsafe extern "C" fn` pointer of those types turns any mismatch between
//! the list and the function into a compile error.

/// Calls `$mac! { calls { .. } libcalls { .. } }` with every runtime helper.
///
/// `calls` are the helpers compiled code calls by handle, one entry each:
/// doc comments, a handle name, then `module::function(param: Type, ..) ->
/// Return;` (`-> ()` for none). `libcalls` are the C math functions
/// Cranelift may call by symbol on hosts without SSE4.1 or FMA, in the same
/// form without a handle. Vector helpers take and return one `__m128` or
/// `__m128i` (four 32-bit lanes in an xmm register).
#[macro_export]
macro_rules! foreach_helper {
    ($mac:ident) => {
        $mac! {
            calls {
                /// `2^x` per lane.
                Exp2 = helpers::dxjit_exp2(x: ::core::arch::x86_64::__m128) -> ::core::arch::x86_64::__m128;
                /// `log2(x)` per lane.
                Log2 = helpers::dxjit_log2(x: ::core::arch::x86_64::__m128) -> ::core::arch::x86_64::__m128;
                /// Sine per lane.
                Sin = helpers::dxjit_sin(x: ::core::arch::x86_64::__m128) -> ::core::arch::x86_64::__m128;
                /// Cosine per lane.
                Cos = helpers::dxjit_cos(x: ::core::arch::x86_64::__m128) -> ::core::arch::x86_64::__m128;
                /// Float to half per lane.
                F32ToF16 = helpers::dxjit_f32tof16(x: ::core::arch::x86_64::__m128i) -> ::core::arch::x86_64::__m128i;
                /// Half to float per lane.
                F16ToF32 = helpers::dxjit_f16tof32(x: ::core::arch::x86_64::__m128i) -> ::core::arch::x86_64::__m128i;
                /// Typed load of one texel into four words.
                TypedLoad = helpers::dxjit_typed_load(
                    view: *const $crate::abi::View, x: i32, y: i32, z: i32, mip: i32, out: *mut u32
                ) -> ();
                /// Typed store of four words to one texel.
                TypedStore = helpers::dxjit_typed_store(
                    view: *const $crate::abi::View, x: i32, y: i32, z: i32, value: *const u32, active: i32
                ) -> ();
                /// An atomic operation on a 32-bit texel, by [`AtomicOp`]($crate::abi::AtomicOp) code.
                TypedAtomic = helpers::dxjit_typed_atomic(
                    view: *const $crate::abi::View, op: u32, x: i32, y: i32, z: i32,
                    value: i32, compare: i32, active: i32
                ) -> i32;
                /// Raw loads of four words per lane, word by word.
                RawLoad4 = raw_quad::dxjit_raw_load4(ptr: *const u8, size: u64, args: *mut u32, lanes: u32) -> ();
                /// Raw stores of four words per lane, word by word.
                RawStore4 = raw_quad::dxjit_raw_store4(ptr: *mut u8, size: u64, args: *const u32, lanes: u32) -> ();
                /// `resinfo` at one level, by [`TextureKind`]($crate::abi::TextureKind) code.
                ResInfo = helpers::dxjit_resinfo(view: *const $crate::abi::View, dim: u32, mip: i32, out: *mut u32) -> ();
                /// One filtered lookup for a 2x2 quad.
                SampleQuad = sampler::dxjit_sample_quad(
                    view: *const $crate::abi::View,
                    sampler: *const $crate::sampler::SamplerState,
                    args: *const $crate::sampler::QuadSample,
                    out: *mut [[f32; 4]; 4]
                ) -> ();
                /// Up to sixteen lanes' inline lookups, of one or more lookups, in AVX2 code
                /// (a bit per lookup taken).
                SampleWide = sampler::dxjit_sample_wide(
                    batch: *mut $crate::sampler::WideBatch,
                    count: u32,
                    lanes: u32
                ) -> u32;
                /// One `gather4*` for a 2x2 quad.
                GatherQuad = sampler::dxjit_gather_quad(
                    view: *const $crate::abi::View,
                    sampler: *const $crate::sampler::SamplerState,
                    args: *const $crate::sampler::GatherSample,
                    out: *mut [[f32; 4]; 4]
                ) -> ();
                /// `ld2dms`: one sample of one texel into four words.
                LoadSample = msaa::dxjit_load_sample(
                    view: *const $crate::abi::View, x: i32, y: i32, slice: i32, sample: i32, out: *mut u32
                ) -> ();
                /// `sample_info`: a view's samples a texel (0 when unbound).
                SampleCount = msaa::dxjit_sample_count(view: *const $crate::abi::View) -> u32;
                /// `sample_pos`: four floats (zeros for a null view).
                SamplePos = msaa::dxjit_sample_pos(view: *const $crate::abi::View, index: i32, out: *mut f32) -> ();
                /// `sample_pos rasterizer`: four floats for a rasterizer of `samples` samples.
                RasterSamplePos = msaa::dxjit_raster_sample_pos(samples: u32, index: i32, out: *mut f32) -> ();
                /// One `lod` for a 2x2 quad.
                LodQuad = sampler::dxjit_lod_quad(
                    view: *const $crate::abi::View,
                    sampler: *const $crate::sampler::SamplerState,
                    args: *const $crate::sampler::QuadSample,
                    out: *mut [[f32; 4]; 4]
                ) -> ();
                /// One filtered lookup for a 2x2 quad whose lanes choose their
                /// texture and sampler slots from the frame's tables.
                SampleQuadIndexed = sampler::dxjit_sample_quad_indexed(
                    srvs: *const $crate::abi::View,
                    samplers: *const $crate::sampler::SamplerState,
                    slots: *const $crate::sampler::QuadSlots,
                    args: *const $crate::sampler::QuadSample,
                    out: *mut [[f32; 4]; 4]
                ) -> ();
                /// One `gather4*` for a 2x2 quad whose lanes choose their slots.
                GatherQuadIndexed = sampler::dxjit_gather_quad_indexed(
                    srvs: *const $crate::abi::View,
                    samplers: *const $crate::sampler::SamplerState,
                    slots: *const $crate::sampler::QuadSlots,
                    args: *const $crate::sampler::GatherSample,
                    out: *mut [[f32; 4]; 4]
                ) -> ();
                /// One `lod` for a 2x2 quad whose lanes choose their slots.
                LodQuadIndexed = sampler::dxjit_lod_quad_indexed(
                    srvs: *const $crate::abi::View,
                    samplers: *const $crate::sampler::SamplerState,
                    slots: *const $crate::sampler::QuadSlots,
                    args: *const $crate::sampler::QuadSample,
                    out: *mut [[f32; 4]; 4]
                ) -> ();
                /// `ld` of one lane from the SRV its slot names in the frame's table.
                FetchIndexed = sampler::dxjit_fetch_indexed(
                    srvs: *const $crate::abi::View, slot: u32, x: i32, y: i32, z: i32, mip: i32, out: *mut u32
                ) -> ();
                /// `eval_*`: an input register evaluated for every lane of the call.
                Eval = eval::dxjit_eval(
                    frame: *const $crate::abi::Frame, reg: u32, mode: u32, lanes: u32, args: *mut u32
                ) -> ();
                /// Geometry shaders: `emit_stream` for the lanes whose mask word is nonzero.
                GsEmit = pipeline::dxjit_gs_emit(frame: *mut $crate::abi::Frame, stream: u32, mask: *const u32) -> ();
                /// Geometry shaders: `cut_stream` for the lanes whose mask word is nonzero.
                GsCut = pipeline::dxjit_gs_cut(frame: *mut $crate::abi::Frame, stream: u32, mask: *const u32) -> ();
            }
            libcalls {
                helpers::fmaf(a: f32, b: f32, c: f32) -> f32;
                helpers::fma(a: f64, b: f64, c: f64) -> f64;
                helpers::floorf(a: f32) -> f32;
                helpers::ceilf(a: f32) -> f32;
                helpers::truncf(a: f32) -> f32;
                helpers::nearbyintf(a: f32) -> f32;
                helpers::floor(a: f64) -> f64;
                helpers::ceil(a: f64) -> f64;
                helpers::trunc(a: f64) -> f64;
                helpers::nearbyint(a: f64) -> f64;
            }
        }
    };
}
