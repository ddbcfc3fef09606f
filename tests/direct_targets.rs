//! Pixel shaders write rgba8 and bgra8 targets themselves
//! (`Frame::direct_targets`): every covered, surviving pixel inside each
//! target gets D3D's float-to-unorm conversion of its output, bit for bit
//! as the runtime's `Format::store` gives it, and every other pixel keeps
//! its contents. Outputs come from a buffer indexed by the pixel, so each
//! pixel gets its own edge value (NaN, infinities, zeros of both signs,
//! denormals, values around every k/255 and (k + 0.5)/255); the rectangle
//! is off the quad grid, some pixels discard (every quad of some rows
//! survives whole, so the two-row stores run too), and one target is
//! smaller than the rectangle by an odd number of columns and rows, so
//! whole quads straddle its right and bottom edges; the words after it
//! stay untouched. The same shader without its discard draws a rectangle
//! that starts and ends at odd rows, so that whole steps of the row loop
//! cover one row of their quads only.

use dxjit::CompileOptions;
use dxjit_runtime::abi::View;
use dxjit_runtime::dispatch::{self, Bindings, Draw, RenderTarget};
use dxjit_runtime::format::Format;

const WIDTH: u32 = 37;
const HEIGHT: u32 = 11;

/// o0 = o1 = t0[y * WIDTH + x]; pixels where (x + y) & 7 == 0 discard. A
/// quad's top-left pixel has an even x + y = s, its others s + 1, s + 1 and
/// s + 2, so quads with s % 8 of 2 or 4 survive whole.
const SHADER: &str = "ps_5_0
dcl_resource_structured t0, 16
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 2
ftou r0.xy, v0.xyxx
iadd r1.x, r0.x, r0.y
and r1.x, r1.x, l(7)
discard_z r1.x
imad r0.x, r0.y, l(37), r0.x
ld_structured r0.xyzw, r0.x, l(0), t0.xyzw
mov o0.xyzw, r0.xyzw
mov o1.xyzw, r0.xyzw
ret
";

/// `SHADER` without its discard.
fn keeping_every_pixel() -> String {
    SHADER.replace("discard_z r1.x\n", "")
}

/// D3D's float-to-unorm8 conversion, written out: NaN to 0, clamp, scale,
/// round half up (exact in f64).
fn unorm8(word: u32) -> u8 {
    let x = f32::from_bits(word);
    if x.is_nan() {
        return 0;
    }
    (f64::from(x.clamp(0.0, 1.0)) * 255.0 + 0.5).floor() as u8
}

/// The edge values the outputs cycle through, then pseudo-random ones.
fn values() -> Vec<u32> {
    let mut v = vec![
        0x7fc0_0000,
        0xffc0_0000,
        0x7f80_0001,
        f32::INFINITY.to_bits(),
        f32::NEG_INFINITY.to_bits(),
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007f_ffff,
        1.0f32.to_bits(),
        1.5f32.to_bits(),
        (-0.25f32).to_bits(),
        f32::MAX.to_bits(),
    ];
    for k in 0..=255u32 {
        for x in [k as f32 / 255.0, (k as f32 + 0.5) / 255.0] {
            v.extend([x.to_bits().wrapping_sub(1), x.to_bits(), x.to_bits() + 1]);
        }
    }
    let mut state = 0x9e37_79b9u32;
    while v.len() < (4 * WIDTH * HEIGHT) as usize {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        v.push(((state % 1_000_001) as f32 / 1_000_000.0).to_bits());
    }
    v
}

/// The rectangle the discarding shader draws: off the quad grid by a
/// column, its rows whole quads.
const RECT: [u32; 4] = [1, 0, WIDTH, HEIGHT - 1];

#[test]
fn direct_targets_convert_and_cover_exactly() {
    // The top tier stores both 8-bit targets itself.
    draws_exactly(dxjit::Tier::Top, 0b11, SHADER, RECT);
}

#[test]
fn the_first_tier_leaves_8_bit_targets_to_the_runtime_with_the_same_bytes() {
    draws_exactly(dxjit::Tier::First, 0, SHADER, RECT);
}

#[test]
fn whole_steps_store_only_covered_rows() {
    // Row 0 and row 11 (past the rgba8 target) are not covered, rows 8
    // and 9 (the smaller target's last and the one past it) are.
    let rect = [1, 1, WIDTH, HEIGHT];
    draws_exactly(dxjit::Tier::Top, 0b11, &keeping_every_pixel(), rect);
}

/// Draws `shader` over `rect` at `tier`, whose kernel stores the output
/// registers of `direct_outputs` itself, and checks every target byte by
/// byte.
fn draws_exactly(tier: dxjit::Tier, direct_outputs: u32, shader: &str, rect: [u32; 4]) {
    let discards = shader.contains("discard");
    let bytes = dxjit::text::assemble(shader).expect("assembles");
    let options = CompileOptions {
        tier,
        ..CompileOptions::default()
    };
    let shader = dxjit::compile(&bytes, &options).expect("compiles");
    assert_eq!(shader.kernel().direct_outputs, direct_outputs);
    let words = values();
    let data: Vec<u8> = words[..(4 * WIDTH * HEIGHT) as usize]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let mut bindings = Bindings::default();
    bindings.srvs[0] = View {
        ptr: data.as_ptr().cast_mut(),
        size: data.len() as u32,
        stride: 16,
        ..View::default()
    };

    const SENTINEL: u32 = 0x5a5a_5a5a;
    // 31 x 9: the quads at x = 30 and at rows 8 and 9 straddle its edges.
    // A step of the row loop whose last column is 31 (at every lane count)
    // lies inside the rectangle's columns but not inside the target.
    let (small, small_height) = (WIDTH - 6, HEIGHT - 2);
    let mut rgba = vec![SENTINEL; (WIDTH * HEIGHT) as usize];
    // One row more than the target, to see that nothing is stored past it.
    let mut bgra = vec![SENTINEL; (small * (small_height + 1)) as usize];
    let mut float = vec![[0u32; 4]; (WIDTH * HEIGHT) as usize];
    let target =
        |ptr: *mut u8, [width, height]: [u32; 2], format: Format, output_reg| RenderTarget {
            ptr,
            width,
            height,
            row_pitch: width * format.bytes_per_texel(),
            format,
            output_reg,
            samples: 1,
        };
    let d = Draw {
        rect,
        pixel_center: 0.5,
        shading: Default::default(),
        sample_mask: u32::MAX,
        inputs: Vec::new(),
        targets: vec![
            target(
                rgba.as_mut_ptr().cast(),
                [WIDTH, HEIGHT],
                Format::Rgba8Unorm,
                0,
            ),
            target(
                bgra.as_mut_ptr().cast(),
                [small, small_height],
                Format::Bgra8Unorm,
                1,
            ),
            target(
                float.as_mut_ptr().cast(),
                [WIDTH, HEIGHT],
                Format::Rgba32Uint,
                0,
            ),
        ],
    };
    // SAFETY: every view and target points into memory this function owns and keeps alive, untouched, across the call.
    unsafe { dispatch::draw(&shader.kernel(), &bindings, &d) };

    let mut checked = 0;
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let at = (y * WIDTH + x) as usize;
            let covered = (rect[0]..rect[2]).contains(&x) && (rect[1]..rect[3]).contains(&y);
            let survives = covered && (!discards || (x + y) & 7 != 0);
            let word = |c: usize| words[4 * at + c];
            let [r, g, b, a] = [0, 1, 2, 3].map(|c| unorm8(word(c)));
            let want_rgba = if survives {
                u32::from_le_bytes([r, g, b, a])
            } else {
                SENTINEL
            };
            assert_eq!(rgba[at], want_rgba, "rgba8 at ({x}, {y})");
            if survives {
                assert_eq!(
                    float[at],
                    [0, 1, 2, 3].map(word),
                    "runtime target at ({x}, {y})"
                );
                checked += 1;
            }
            if x < small && y < small_height {
                let want_bgra = if survives {
                    u32::from_le_bytes([b, g, r, a])
                } else {
                    SENTINEL
                };
                assert_eq!(
                    bgra[(y * small + x) as usize],
                    want_bgra,
                    "bgra8 at ({x}, {y})"
                );
            }
        }
    }
    assert!(checked > 200);
    let past = &bgra[(small * small_height) as usize..];
    assert!(
        past.iter().all(|&w| w == SENTINEL),
        "stored past the target"
    );
}
