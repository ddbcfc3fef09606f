//! The opt-in validation layer, in the spirit of the D3D debug layer: before
//! a call, what the shader declares is compared with what is bound, and
//! every mismatch is reported through the `log` crate as a warning. D3D's
//! rules for unbound resources still hold; nothing is refused.

use crate::ir::{Dim, Program, ResourceDecl, ResourceKind};
use dxjit_runtime::abi::View;
use dxjit_runtime::dispatch::Bindings as RawBindings;
use dxjit_runtime::texture::{Texture, TextureKind};

/// One problem found, as the warning says it.
pub(crate) fn problems(program: &Program, b: &RawBindings) -> Vec<String> {
    let mut found = Vec::new();
    for cb in &program.cbs {
        let declared = u64::from(cb.rows) * 16;
        match b.cbs.get(cb.slot as usize) {
            Some(v) if !v.ptr.is_null() => {
                if u64::from(v.size) < declared {
                    found.push(format!(
                        "constant buffer {} holds {} bytes; the shader declares {declared} (reads past the end give 0)",
                        cb.slot, v.size
                    ));
                }
            }
            _ => found.push(format!(
                "constant buffer {} is read by the shader but unbound (reads give 0)",
                cb.slot
            )),
        }
    }
    for (what, decls, views) in [
        ("SRV", &program.srvs, &b.srvs),
        ("UAV", &program.uavs, &b.uavs),
    ] {
        for d in decls {
            if let Some(p) = resource_problem(d, views.get(d.slot as usize)) {
                found.push(format!("{what} {}: {p}", d.slot));
            }
        }
    }
    found
}

/// Logs every problem with `b` for `program` as a warning (the validation
/// layer of [`crate::api::CallOptions::validate`], for embedders that build
/// raw bindings themselves); returns how many there were.
pub fn report(program: &Program, b: &RawBindings) -> usize {
    let found = problems(program, b);
    for p in &found {
        log::warn!("dxjit validation: {p}");
    }
    found.len()
}

fn resource_problem(d: &ResourceDecl, view: Option<&View>) -> Option<String> {
    let v = match view {
        Some(v) if !v.ptr.is_null() => v,
        _ => {
            return Some(
                "is used by the shader but unbound (reads give 0, writes are dropped)".into(),
            )
        }
    };
    // SAFETY: a bound view's `texture` is null or points to the live
    // Texture it was made from, borrowed by the bindings for the call.
    let texture = unsafe { v.texture.cast::<Texture>().as_ref() };
    match (d.kind, texture) {
        (ResourceKind::Raw, None) if v.stride == 0 => None,
        (ResourceKind::Structured(s), None) if v.stride == s => None,
        (ResourceKind::Typed(dim), Some(t)) if kind_matches(dim, t.kind()) => None,
        (declared, Some(t)) => Some(format!(
            "the shader declares {declared:?}; a {:?} {:?} is bound",
            t.format(),
            t.kind()
        )),
        (declared, None) => Some(format!(
            "the shader declares {declared:?}; a buffer with stride {} is bound",
            v.stride
        )),
    }
}

fn kind_matches(dim: Dim, kind: TextureKind) -> bool {
    matches!(
        (dim, kind),
        (Dim::Buffer, TextureKind::Buffer)
            | (Dim::Texture1D, TextureKind::Texture1D)
            | (Dim::Texture1DArray, TextureKind::Texture1DArray)
            | (Dim::Texture2D, TextureKind::Texture2D)
            | (Dim::Texture2DArray, TextureKind::Texture2DArray)
            | (Dim::Texture3D, TextureKind::Texture3D)
            | (Dim::TextureCube, TextureKind::TextureCube)
            | (Dim::TextureCubeArray, TextureKind::TextureCubeArray)
            | (Dim::Texture2DMS, TextureKind::Texture2DMS)
            | (Dim::Texture2DMSArray, TextureKind::Texture2DMSArray)
    )
}
