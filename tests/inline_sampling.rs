//! Lookups that compiled code filters itself give the runtime's results
//! bit for bit: random textures, sampler states and coordinates (texel
//! centres and edges, negative, huge, NaN, infinite), drawn through pixel
//! shaders that record each pixel's coordinates next to its result, are
//! checked quad by quad against `sampler::sample_quad` on the same
//! coordinates. The pairs outside the inline subset (other formats,
//! mirror and border addressing, sizes that are not powers of two under
//! wrap) take the runtime's path and are checked the same way.

use dxjit::{CompileOptions, Tier};
use dxjit_runtime::dispatch::{self, Bindings, Draw, PixelInput, RenderTarget};
use dxjit_runtime::format::Format;
use dxjit_runtime::sampler::{
    sample_quad, Address, Filter, MagFilter, MipFilter, QuadSample, Reduction, SamplerState,
    LOD_IMPLICIT,
};
use dxjit_runtime::texture::{Texture, TextureKind};

/// Samples t0 at v1.xy into o0 and records v1.xy in o1.
const PLAIN: &str = "ps_4_0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_output o1.xyzw
sample o0.xyzw, v1.xyxx, t0.xyzw, s0
mov o1.xyzw, v1.xyxx
ret
";

/// As `PLAIN`, with texel offsets and a swizzle, writing o0.xyw only.
const OFFSET: &str = "ps_4_0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_output o1.xyzw
mov o0.xyzw, l(-7.0, -7.0, -7.0, -7.0)
sample_aoffimmi(-1,2,0) o0.xyw, v1.xyxx, t0.zxwy, s0
mov o1.xyzw, v1.xyxx
ret
";

/// As `PLAIN`, through two lookups in a row that read nothing the other
/// writes (one wide call takes both): red and green from the first,
/// blue and alpha from the second.
const TWO: &str = "ps_4_0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 2
sample r0.xyzw, v1.xyxx, t0.xyzw, s0
sample r1.xyzw, v1.xyxx, t0.xyzw, s0
mov o0.xy, r0.xyxx
mov o0.zw, r1.xxzw
mov o1.xyzw, v1.xyxx
ret
";

/// As `PLAIN`, with u and v in an input nothing else reads (the wide
/// filter interpolates it from the draw row's table itself), recording v2,
/// given the same corners.
const TABLE: &str = "ps_4_0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xy
dcl_input_ps linear v2.xy
dcl_output o0.xyzw
dcl_output o1.xyzw
sample o0.xyzw, v1.xyxx, t0.xyzw, s0
mov o1.xyzw, v2.xyxx
ret
";

/// As `TWO`, with u and v as in `TABLE`, each lookup's from its own
/// input (v1, v3; an input two lookups read is interpolated in compiled
/// code): one wide call takes two table lookups.
const TWO_TABLE: &str = "ps_4_0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xy
dcl_input_ps linear v2.xy
dcl_input_ps linear v3.xy
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 2
sample r0.xyzw, v1.xyxx, t0.xyzw, s0
sample r1.xyzw, v3.xyxx, t0.xyzw, s0
mov o0.xy, r0.xyxx
mov o0.zw, r1.xxzw
mov o1.xyzw, v2.xyxx
ret
";

/// A small deterministic generator (xorshift32).
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.next() as usize % items.len()]
    }

    /// A coordinate: mostly ordinary, sometimes at texel edges or centres,
    /// sometimes far outside or not a number.
    fn coord(&mut self) -> f32 {
        match self.next() % 10 {
            0 => self.pick(&[f32::NAN, f32::INFINITY, f32::NEG_INFINITY]),
            1 => self.pick(&[3.0e6, -1.0e7, 5.0e9, -2.0e30]),
            2 => self.pick(&[0.0, -0.0, 0.5, 1.0, 0.25, 0.125, -1.0]),
            _ => (self.next() % 20_000) as f32 / 2_500.0 - 4.0,
        }
    }
}

const WIDTH: u32 = 8;
const HEIGHT: u32 = 4;

/// Runs `shader` once over a WIDTH x HEIGHT target with coordinates
/// interpolated from `corners` (in v1, and in v2 and v3 when it declares
/// them); returns o0 and o1 per pixel.
fn draw(
    shader: &dxjit::Shader,
    texture: &Texture,
    sampler: SamplerState,
    corners: [[u32; 4]; 4],
) -> (Vec<[f32; 4]>, Vec<[f32; 4]>) {
    let pixels = (WIDTH * HEIGHT) as usize;
    let mut results = vec![[0.0f32; 4]; pixels];
    let mut coords = vec![[0.0f32; 4]; pixels];
    let target = |data: &mut Vec<[f32; 4]>, output_reg| RenderTarget {
        ptr: data.as_mut_ptr().cast(),
        width: WIDTH,
        height: HEIGHT,
        row_pitch: WIDTH * 16,
        format: Format::Rgba32Float,
        output_reg,
        samples: 1,
    };
    let d = Draw {
        rect: [0, 0, WIDTH, HEIGHT],
        pixel_center: 0.5,
        shading: Default::default(),
        sample_mask: u32::MAX,
        inputs: ["v1", "v2", "v3"]
            .into_iter()
            .filter_map(|name| shader.program().input_named(name))
            .map(|reg| PixelInput { reg, corners })
            .collect(),
        targets: vec![target(&mut results, 0), target(&mut coords, 1)],
    };
    let mut bindings = Bindings::default();
    bindings.srvs[0] = texture.view();
    bindings.samplers[0] = sampler;
    // SAFETY: the target memory (`results`, `coords`) and the texture outlive the call and nothing else touches them; the shader keeps its code alive.
    unsafe { dispatch::draw(&shader.kernel(), &bindings, &d) };
    (results, coords)
}

/// The same, bit for bit, or both NaN.
fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// The top tier's lookups filtered in compiled code (the first tier
/// always calls the runtime).
#[test]
fn compiled_lookups_match_the_runtime() {
    lookups_match_the_runtime(false);
}

/// The top tier's lookups through the runtime's AVX2 filter, where the
/// CPU has it (elsewhere this is the test above again).
#[test]
fn wide_lookups_match_the_runtime() {
    lookups_match_the_runtime(true);
}

fn lookups_match_the_runtime(wide_sampling: bool) {
    let options = CompileOptions {
        tier: Tier::Top,
        wide_sampling,
        ..CompileOptions::default()
    };
    let compile = |text: &str| {
        let bytes = dxjit::text::assemble(text).expect("assembles");
        dxjit::compile(&bytes, &options).expect("compiles")
    };
    let shaders = [
        (compile(PLAIN), [0, 0], [0, 1, 2, 3], 0b1111u8),
        (compile(OFFSET), [-1, 2], [2, 0, 3, 1], 0b1011u8),
        (compile(TWO), [0, 0], [0, 1, 2, 3], 0b1111u8),
        (compile(TABLE), [0, 0], [0, 1, 2, 3], 0b1111u8),
        (compile(TWO_TABLE), [0, 0], [0, 1, 2, 3], 0b1111u8),
    ];
    let mut rng = Rng(0x1234_5678);
    let mut inline_trials = 0;
    for trial in 0..1000 {
        let format = rng.pick(&[
            Format::Rgba8Unorm,
            Format::Bgra8Unorm,
            Format::Rgba8Unorm,
            Format::Bgra8Unorm,
            Format::Rgba32Float,
            Format::R8Unorm,
        ]);
        let width = rng.pick(&[1, 2, 4, 8, 16, 4, 5]);
        let height = rng.pick(&[1, 2, 4, 8, 32, 6]);
        let mips = if rng.next().is_multiple_of(4) && width >= 2 && height >= 2 {
            2
        } else {
            1
        };
        let bytes = 2 * (width * height * format.bytes_per_texel()) as usize;
        let data: Vec<u8> = match format {
            // Floats of ordinary size: no products underflow to denormals,
            // which compiled code flushes and this test's thread does not.
            Format::Rgba32Float => (0..bytes / 4)
                .flat_map(|_| ((rng.next() % 1000) as f32 / 999.0).to_le_bytes())
                .collect(),
            _ => (0..bytes).map(|_| rng.next() as u8).collect(),
        };
        let texture = Texture::new(TextureKind::Texture2D, format, width, height, 1, mips, data)
            .expect("valid texture");
        let address = [
            Address::Wrap,
            Address::Wrap,
            Address::Clamp,
            Address::Clamp,
            Address::Mirror,
            Address::Border,
        ];
        let sampler = SamplerState {
            filter: rng.pick(&[Filter::Point, Filter::Linear, Filter::Anisotropic]),
            mip_filter: rng.pick(&[MipFilter::None, MipFilter::None, MipFilter::Linear]),
            address: [rng.pick(&address), rng.pick(&address), Address::Wrap],
            border: [0.25, 0.5, 0.75, 1.0],
            ..SamplerState::default()
        };
        // One trial in four adds a state the inline path must leave to the
        // runtime: a separate magnification filter, anisotropy, a min/max
        // reduction or D3D9's sRGB decode.
        let sampler = match rng.pick(&[0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]) {
            0 => SamplerState {
                mag_filter: rng.pick(&[MagFilter::Point, MagFilter::Linear]),
                ..sampler
            },
            1 => SamplerState {
                max_anisotropy: 4,
                ..sampler
            },
            2 => SamplerState {
                reduction: rng.pick(&[Reduction::Minimum, Reduction::Maximum]),
                ..sampler
            },
            3 => SamplerState { srgb: 1, ..sampler },
            _ => sampler,
        };
        let inline = matches!(format, Format::Rgba8Unorm | Format::Bgra8Unorm)
            && sampler.uniform_filter().is_some()
            && sampler.srgb == 0
            && (sampler.mip_filter == MipFilter::None || mips == 1)
            && sampler.address[..2]
                .iter()
                .zip([width, height])
                .all(|(a, n)| *a == Address::Clamp || (*a == Address::Wrap && n.is_power_of_two()));
        inline_trials += usize::from(inline);
        let mut corners: [[u32; 4]; 4] =
            std::array::from_fn(|_| [rng.coord().to_bits(), rng.coord().to_bits(), 0, 0]);
        // One trial in four has a v that is the same at every corner: the
        // row's varying components are then not the ones the shader
        // declares, and the row loop walks its list (no table lookups).
        if trial % 4 == 3 {
            let v = corners[0][1];
            corners.iter_mut().for_each(|c| c[1] = v);
        }
        let (shader, offset, swizzle, mask) = &shaders[trial % shaders.len()];
        let (results, coords) = draw(shader, &texture, sampler, corners);
        for qy in 0..HEIGHT / 2 {
            for qx in 0..WIDTH / 2 {
                let pixel = |lane: u32| ((2 * qy + lane / 2) * WIDTH + 2 * qx + lane % 2) as usize;
                let mut args = QuadSample {
                    mode: LOD_IMPLICIT,
                    offset: [offset[0], offset[1], 0],
                    ..QuadSample::default()
                };
                for lane in 0..4 {
                    args.coord[0][lane] = coords[pixel(lane as u32)][0];
                    args.coord[1][lane] = coords[pixel(lane as u32)][1];
                }
                let expected = sample_quad(Some(&texture), &sampler, &args);
                for lane in 0..4u32 {
                    let got = results[pixel(lane)];
                    for c in 0..4 {
                        let want = if mask & (1 << c) != 0 {
                            expected[swizzle[c]][lane as usize]
                        } else {
                            -7.0
                        };
                        assert!(
                            same(got[c], want),
                            "trial {trial}: {format:?} {width}x{height} mips {mips} {sampler:?}, \
                             quad ({qx}, {qy}) lane {lane} component {c} at {:?}: \
                             got {} want {}",
                            coords[pixel(lane)],
                            got[c],
                            want
                        );
                    }
                }
            }
        }
    }
    assert!(
        inline_trials > 200,
        "only {inline_trials} trials took the inline path"
    );
}
