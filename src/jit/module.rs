//! The Cranelift module a shader is compiled into: target ISA, settings and
//! the runtime helpers compiled code may call.

use super::JitError;
use cranelift_codegen::ir::{types, AbiParam, Signature};
use cranelift_codegen::isa::{CallConv, OwnedTargetIsa};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::Module;
use dxjit_runtime::helpers as rt;

/// A runtime helper: its symbol, address, parameter and return types.
pub struct Helper {
    /// Symbol name.
    pub name: &'static str,
    /// Address of the Rust function.
    pub addr: *const u8,
    /// Parameter types.
    pub params: &'static [types::Type],
    /// Return types.
    pub returns: &'static [types::Type],
}

const P: types::Type = types::I64;
const I: types::Type = types::I32;
const V: types::Type = types::I32X4;
const F: types::Type = types::F32;
const D: types::Type = types::F64;

/// Every helper compiled code may call.
pub fn helpers() -> Vec<Helper> {
    vec![
        Helper {
            name: "dxjit_exp2",
            addr: rt::dxjit_exp2 as *const u8,
            params: &[V],
            returns: &[V],
        },
        Helper {
            name: "dxjit_log2",
            addr: rt::dxjit_log2 as *const u8,
            params: &[V],
            returns: &[V],
        },
        Helper {
            name: "dxjit_sin",
            addr: rt::dxjit_sin as *const u8,
            params: &[V],
            returns: &[V],
        },
        Helper {
            name: "dxjit_cos",
            addr: rt::dxjit_cos as *const u8,
            params: &[V],
            returns: &[V],
        },
        Helper {
            name: "dxjit_f32tof16",
            addr: rt::dxjit_f32tof16 as *const u8,
            params: &[V],
            returns: &[V],
        },
        Helper {
            name: "dxjit_f16tof32",
            addr: rt::dxjit_f16tof32 as *const u8,
            params: &[V],
            returns: &[V],
        },
        Helper {
            name: "dxjit_typed_load",
            addr: rt::dxjit_typed_load as *const u8,
            params: &[P, I, I, I, I, P],
            returns: &[],
        },
        Helper {
            name: "dxjit_typed_store",
            addr: rt::dxjit_typed_store as *const u8,
            params: &[P, I, I, I, P, I],
            returns: &[],
        },
        Helper {
            name: "dxjit_typed_atomic",
            addr: rt::dxjit_typed_atomic as *const u8,
            params: &[P, I, I, I, I, I, I, I],
            returns: &[I],
        },
        Helper {
            name: "dxjit_raw_load4",
            addr: dxjit_runtime::raw_quad::dxjit_raw_load4 as *const u8,
            params: &[P, P, P, I],
            returns: &[],
        },
        Helper {
            name: "dxjit_raw_store4",
            addr: dxjit_runtime::raw_quad::dxjit_raw_store4 as *const u8,
            params: &[P, P, P, I],
            returns: &[],
        },
        Helper {
            name: "dxjit_resinfo",
            addr: rt::dxjit_resinfo as *const u8,
            params: &[P, I, I, P],
            returns: &[],
        },
        Helper {
            name: "dxjit_sample_quad",
            addr: dxjit_runtime::sampler::dxjit_sample_quad as *const u8,
            params: &[P, P, P, P],
            returns: &[],
        },
        // Libcalls Cranelift may emit on hosts without SSE4.1/FMA.
        Helper {
            name: "fmaf",
            addr: rt::fmaf as *const u8,
            params: &[F, F, F],
            returns: &[F],
        },
        Helper {
            name: "fma",
            addr: rt::fma as *const u8,
            params: &[D, D, D],
            returns: &[D],
        },
        Helper {
            name: "floorf",
            addr: rt::floorf as *const u8,
            params: &[F],
            returns: &[F],
        },
        Helper {
            name: "ceilf",
            addr: rt::ceilf as *const u8,
            params: &[F],
            returns: &[F],
        },
        Helper {
            name: "truncf",
            addr: rt::truncf as *const u8,
            params: &[F],
            returns: &[F],
        },
        Helper {
            name: "nearbyintf",
            addr: rt::nearbyintf as *const u8,
            params: &[F],
            returns: &[F],
        },
        Helper {
            name: "floor",
            addr: rt::floor as *const u8,
            params: &[D],
            returns: &[D],
        },
        Helper {
            name: "ceil",
            addr: rt::ceil as *const u8,
            params: &[D],
            returns: &[D],
        },
        Helper {
            name: "trunc",
            addr: rt::trunc as *const u8,
            params: &[D],
            returns: &[D],
        },
        Helper {
            name: "nearbyint",
            addr: rt::nearbyint as *const u8,
            params: &[D],
            returns: &[D],
        },
    ]
}

/// The signature of a helper.
pub fn signature(h: &Helper) -> Signature {
    let mut sig = Signature::new(CallConv::SystemV);
    sig.params
        .extend(h.params.iter().map(|t| AbiParam::new(*t)));
    sig.returns
        .extend(h.returns.iter().map(|t| AbiParam::new(*t)));
    sig
}

/// How much work Cranelift puts into the machine code.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Codegen {
    /// Built for compile speed: the single-pass register allocator
    /// (about 3-5x faster to compile, code 2-3x slower in loops).
    Quick,
    /// The backtracking register allocator: slower to compile, better code.
    #[default]
    Full,
}

impl Codegen {
    /// The value of Cranelift's `regalloc_algorithm` setting.
    fn regalloc_algorithm(self) -> &'static str {
        match self {
            Codegen::Quick => "single_pass",
            Codegen::Full => "backtracking",
        }
    }
}

/// The host ISA with the settings shaders are compiled with: no egraph
/// optimisation (it duplicates pure ops into branches and slows shader
/// loops, per the measurements in the design notes), `codegen`'s register
/// allocator, verifier in debug builds.
pub fn isa(codegen: Codegen) -> Result<OwnedTargetIsa, JitError> {
    let mut fb = settings::builder();
    let set = |fb: &mut settings::Builder, k: &str, v: &str| {
        fb.set(k, v)
            .map_err(|e| JitError::Backend(format!("{k}: {e}")))
    };
    set(&mut fb, "opt_level", "none")?;
    set(&mut fb, "regalloc_algorithm", codegen.regalloc_algorithm())?;
    set(&mut fb, "is_pic", "false")?;
    set(&mut fb, "use_colocated_libcalls", "false")?;
    set(
        &mut fb,
        "enable_verifier",
        if cfg!(debug_assertions) {
            "true"
        } else {
            "false"
        },
    )?;
    let builder = cranelift_native::builder().map_err(|e| JitError::Backend(e.to_string()))?;
    builder
        .finish(settings::Flags::new(fb))
        .map_err(|e| JitError::Backend(e.to_string()))
}

/// A new module with every helper symbol registered.
pub fn new_module(isa: OwnedTargetIsa) -> JITModule {
    let mut jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    for h in helpers() {
        jb.symbol(h.name, h.addr);
    }
    JITModule::new(jb)
}

/// Declares every helper in `module`, returning their ids by name.
pub fn declare_helpers(
    module: &mut JITModule,
) -> Result<Vec<(&'static str, cranelift_module::FuncId)>, JitError> {
    helpers()
        .iter()
        .filter(|h| h.name.starts_with("dxjit_"))
        .map(|h| {
            module
                .declare_function(h.name, cranelift_module::Linkage::Import, &signature(h))
                .map(|id| (h.name, id))
                .map_err(|e| JitError::Backend(e.to_string()))
        })
        .collect()
}
