//! `draw` over a rectangle that spans several batches of calls and starts
//! and ends off the quad grid: every covered pixel that survives gets its
//! own position and interpolated input, discarded and uncovered pixels
//! keep the target's contents.

use dxjit::CompileOptions;
use dxjit_runtime::dispatch::{self, Bindings, Draw, PixelInput, RenderTarget};
use dxjit_runtime::format::Format;

/// Discards pixels whose x + y is even; writes (x, y, v1.x, 1) otherwise.
const SHADER: &str = "ps_5_0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps linear v1.x
dcl_output o0.xyzw
dcl_temps 2
ftou r0.xy, v0.xyxx
iadd r0.z, r0.x, r0.y
and r0.z, r0.z, l(1)
discard_z r0.z
utof r1.xy, r0.xyxx
mov r1.z, v1.x
mov r1.w, l(1.0)
mov o0.xyzw, r1.xyzw
ret
";

const WIDTH: u32 = 280;
const HEIGHT: u32 = 8;
const SENTINEL: f32 = -7.0;

#[test]
fn draw_covers_exactly_the_rectangle_across_batches() {
    let bytes = dxjit::text::assemble(SHADER).expect("assembles");
    let shader = dxjit::compile(&bytes, &CompileOptions::default()).expect("compiles");
    let reg = |name: &str| shader.program().input_named(name).expect("declared");
    let corners = [0.0f32, 1.0, 2.0, 10.0].map(|c| [c.to_bits(), 0, 0, 0]);
    let mut target = vec![SENTINEL; (WIDTH * HEIGHT * 4) as usize];
    let rect = [3, 1, 275, 6];
    let d = Draw {
        rect,
        pixel_center: 0.5,
        shading: Default::default(),
        sample_mask: u32::MAX,
        inputs: vec![PixelInput {
            reg: reg("v1"),
            corners,
        }],
        targets: vec![RenderTarget {
            ptr: target.as_mut_ptr().cast(),
            width: WIDTH,
            height: HEIGHT,
            row_pitch: WIDTH * 16,
            format: Format::Rgba32Float,
            output_reg: 0,
            samples: 1,
        }],
    };
    // SAFETY: the target memory outlives the call and nothing else touches it.
    unsafe { dispatch::draw(&shader.kernel(), &Bindings::default(), &d) };
    let [x0, y0, x1, y1] = rect;
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let at = ((y * WIDTH + x) * 4) as usize;
            let got = &target[at..at + 4];
            let covered = (x0..x1).contains(&x) && (y0..y1).contains(&y);
            if !covered || (x + y) % 2 == 0 {
                assert_eq!(got, [SENTINEL; 4], "({x}, {y}) was written");
                continue;
            }
            let u = (f64::from(x) + 0.5 - f64::from(x0)) / f64::from(x1 - x0);
            let v = (f64::from(y) + 0.5 - f64::from(y0)) / f64::from(y1 - y0);
            // The column's top and rise in f64, each rounded to f32, then
            // blended at the row's place in one f32 FMA.
            let top = 0.0 + (1.0 - 0.0) * u;
            let bottom = 2.0 + (10.0 - 2.0) * u;
            let (top, rise) = (top as f32, (bottom - top) as f32);
            let input = rise.mul_add(v as f32, top);
            assert_eq!(got, [x as f32, y as f32, input, 1.0], "({x}, {y})");
        }
    }
}
