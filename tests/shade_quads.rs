//! Shading an embedder's own quads: positions, coverage, facing, plane or
//! per-pixel attributes, derivatives from the quad, discard, and the same
//! pixels as `draw` gives for the same rectangle.

mod api_support;

use api_support::{ps, quad};
use dxjit::{Bindings, DrawDesc, PlaneInput, QuadInputs, RunError, Target};
use dxjit_runtime::dispatch::{PixelInput, Quad};
use dxjit_runtime::format::Format;

fn f(bits: u32) -> f32 {
    f32::from_bits(bits)
}

const DERIVATIVES: &str = "ps_4_0
dcl_input_ps linear v0.xy
dcl_output o0.xyzw
dcl_temps 1
deriv_rtx r0.x, v0.x
deriv_rty r0.y, v0.x
mov o0.xy, v0.xyxx
mov o0.zw, r0.xxxy
ret
";

#[test]
fn planes_are_evaluated_at_pixel_centres_and_derivatives_come_from_the_quad() {
    let s = ps(DERIVATIVES);
    let planes = [PlaneInput {
        reg: 0,
        planes: [[3.0, 5.0, 1.0], [0.0, 1.0, 0.0], [0.0; 3], [0.0; 3]],
        one_over_w: None,
    }];
    let quads = [quad(10, 20, 0b1111), quad(2, 6, 0b0010)];
    let r = s
        .shade_quads(&Bindings::new(), &quads, 0.5, QuadInputs::Planes(&planes))
        .unwrap();
    assert_eq!(r.alive, [0b1111, 0b0010], "helpers are never alive");
    for (q, qd) in quads.iter().enumerate() {
        for p in 0..4 {
            let x = qd.x as f32 + (p & 1) as f32 + 0.5;
            let y = qd.y as f32 + (p >> 1) as f32 + 0.5;
            let o = r.outputs[(4 * q + p) * r.output_regs as usize];
            assert_eq!(f(o[0]), 3.0 * x + 5.0 * y + 1.0, "quad {q} pixel {p}");
            assert_eq!(f(o[1]), y);
            assert_eq!(
                (f(o[2]), f(o[3])),
                (3.0, 5.0),
                "ddx, ddy in quad {q} pixel {p}"
            );
        }
    }
}

#[test]
fn perspective_correct_planes_divide_by_one_over_w() {
    let s = ps(DERIVATIVES);
    let planes = [PlaneInput {
        reg: 0,
        planes: [[0.0, 0.0, 3.0], [0.0, 0.0, 1.0], [0.0; 3], [0.0; 3]],
        one_over_w: Some([0.0, 0.0, 0.5]),
    }];
    let r = s
        .shade_quads(
            &Bindings::new(),
            &[quad(0, 0, 0b1111)],
            0.5,
            QuadInputs::Planes(&planes),
        )
        .unwrap();
    assert_eq!((f(r.outputs[0][0]), f(r.outputs[0][1])), (6.0, 2.0));
}

#[test]
fn discarded_pixels_are_not_alive_and_facing_is_passed() {
    let s = ps("ps_4_0
dcl_input_ps constant v0.x
dcl_input_ps_sgv v1.x, is_front_face
dcl_output o0.xyzw
discard_nz v0.x
mov o0.xyzw, v1.xxxx
ret
");
    let ni = s.kernel().input_regs as usize;
    let mut inputs = vec![[0u32; 4]; 2 * 4 * ni];
    for p in [1usize, 3] {
        inputs[p * ni] = [1, 0, 0, 0];
    }
    let quads = [
        quad(0, 0, 0b0111),
        Quad {
            front_facing: false,
            ..quad(2, 0, 0b1111)
        },
    ];
    let r = s
        .shade_quads(&Bindings::new(), &quads, 0.5, QuadInputs::PerPixel(&inputs))
        .unwrap();
    assert_eq!(
        r.alive,
        [0b0101, 0b1111],
        "pixels 1 and 3 of quad 0 discard"
    );
    let regs = r.output_regs as usize;
    assert_eq!(r.outputs[0][0], u32::MAX, "front facing");
    assert_eq!(r.outputs[4 * regs][0], 0, "back facing");
}

#[test]
fn short_inputs_and_other_stages_are_refused() {
    let s = ps(DERIVATIVES);
    let err = s
        .shade_quads(
            &Bindings::new(),
            &[quad(0, 0, 15)],
            0.5,
            QuadInputs::PerPixel(&[[0; 4]; 3]),
        )
        .unwrap_err();
    assert!(matches!(err, RunError::Invalid(_)));
    let planes = [PlaneInput {
        reg: 7,
        planes: [[0.0; 3]; 4],
        one_over_w: None,
    }];
    let err = s
        .shade_quads(
            &Bindings::new(),
            &[quad(0, 0, 15)],
            0.5,
            QuadInputs::Planes(&planes),
        )
        .unwrap_err();
    assert!(matches!(err, RunError::Invalid(m) if m.contains("input register 7")));
    let vs = ps("vs_4_0\ndcl_output o0.xyzw\nmov o0, l(0,0,0,0)\nret\n");
    let err = vs
        .shade_quads(&Bindings::new(), &[], 0.5, QuadInputs::PerPixel(&[]))
        .unwrap_err();
    assert!(matches!(err, RunError::WrongStage { .. }));
}

#[test]
fn quads_give_the_pixels_a_draw_gives() {
    let s = ps(DERIVATIVES);
    let (w, h) = (6u32, 4u32);
    let mut pixels = vec![0u8; (w * h * 16) as usize];
    let mut targets = [Target::new(&mut pixels, w, h, w * 16, Format::Rgba32Float, 0).unwrap()];
    let corner = |x: f32, y: f32| [(3.0 * x + 5.0 * y + 1.0).to_bits(), y.to_bits(), 0, 0];
    let desc = DrawDesc {
        rect: [0, 0, w, h],
        pixel_center: 0.5,
        inputs: vec![PixelInput {
            reg: 0,
            corners: [
                corner(0.0, 0.0),
                corner(6.0, 0.0),
                corner(0.0, 4.0),
                corner(6.0, 4.0),
            ],
        }],
        sample_mask: u32::MAX,
    };
    s.draw(&Bindings::new(), &desc, &mut targets).unwrap();
    let drawn: Vec<u32> = pixels
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let quads: Vec<Quad> = (0..h / 2)
        .flat_map(|qy| (0..w / 2).map(move |qx| quad(2 * qx, 2 * qy, 15)))
        .collect();
    let planes = [PlaneInput {
        reg: 0,
        planes: [[3.0, 5.0, 1.0], [0.0, 1.0, 0.0], [0.0; 3], [0.0; 3]],
        one_over_w: None,
    }];
    let r = s
        .shade_quads(&Bindings::new(), &quads, 0.5, QuadInputs::Planes(&planes))
        .unwrap();
    for (q, qd) in quads.iter().enumerate() {
        for p in 0..4 {
            let (x, y) = (qd.x + (p as u32 & 1), qd.y + (p as u32 >> 1));
            let at = ((y * w + x) * 4) as usize;
            let o = r.outputs[(4 * q + p) * r.output_regs as usize];
            assert_eq!(&drawn[at..at + 4], &o, "pixel {x},{y}");
        }
    }
}
