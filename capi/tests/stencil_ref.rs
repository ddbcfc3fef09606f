//! `oStencilRef` (SV_StencilRef) as reflection reports it: an output
//! register of its own, which a render target's `output_reg` can take.

mod support;

use dxjit_capi::compile::dxjit_shader_free;
use dxjit_capi::reflect::{dxjit_shader_get_output, SignatureElement};
use dxjit_capi::Status;
use std::ffi::CStr;
use std::mem::size_of;
use std::ptr::{null, null_mut};
use support::assemble;

/// Writes o0, oDepth and oStencilRef.
const PS: &str = "ps_5_0
dcl_output o0.xyzw
dcl_output oDepth
dcl_output oStencilRef
mov o0.xyzw, l(1.0, 0.5, 0.25, 1.0)
mov oDepth, l(0.25)
mov oStencilRef, l(7)
ret
";

#[test]
fn stencil_ref_is_an_output_after_depth() {
    let ps = assemble(PS);
    let mut outputs = Vec::new();
    for i in 0.. {
        let mut e = SignatureElement {
            struct_size: size_of::<SignatureElement>(),
            reg: 0,
            mask: 0,
            semantic_index: 0,
            semantic_name: null(),
        };
        // SAFETY: a live shader and a writable element.
        if unsafe { dxjit_shader_get_output(ps, i, &mut e, null_mut()) } != Status::Ok {
            break;
        }
        // SAFETY: the name is a NUL-terminated string the shader owns.
        let name = unsafe { CStr::from_ptr(e.semantic_name) };
        outputs.push((name.to_str().unwrap().to_string(), e.reg, e.mask));
    }
    // SAFETY: freed once.
    unsafe { dxjit_shader_free(ps) };
    // o0 is register 0; oDepth the first register past the colour outputs
    // (1); oStencilRef the one after it (2), one component each.
    assert_eq!(
        outputs,
        [
            ("SV_TARGET".to_string(), 0, 0xf),
            ("SV_DEPTH".to_string(), 1, 1),
            ("SV_STENCILREF".to_string(), 2, 1),
        ]
    );
}
