//! The Cranelift module a shader is compiled into: target ISA, settings and
//! the runtime helpers compiled code may call.

use super::helpers::{libcalls, HelperId};
use super::JitError;
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::Module;

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
    settings_isa(codegen, false)
}

/// The host ISA with the shaders' settings, frame pointers kept when asked.
fn settings_isa(codegen: Codegen, frame_pointers: bool) -> Result<OwnedTargetIsa, JitError> {
    let mut fb = settings::builder();
    let set = |fb: &mut settings::Builder, k: &str, v: &str| {
        fb.set(k, v)
            .map_err(|e| JitError::Backend(format!("{k}: {e}")))
    };
    set(&mut fb, "opt_level", "none")?;
    set(&mut fb, "regalloc_algorithm", codegen.regalloc_algorithm())?;
    set(&mut fb, "is_pic", "false")?;
    set(&mut fb, "use_colocated_libcalls", "false")?;
    if frame_pointers {
        set(&mut fb, "preserve_frame_pointers", "true")?;
    }
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

/// The ISA stencils are compiled for (`jit::stencil`): the top tier's
/// settings, with frame pointers kept, which Cranelift's tail calls need.
pub fn stencil_isa() -> Result<OwnedTargetIsa, JitError> {
    settings_isa(Codegen::Quick, true)
}

/// A new module with every helper and libcall symbol registered.
pub fn new_module(isa: OwnedTargetIsa) -> JITModule {
    let mut jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    for id in HelperId::ALL {
        jb.symbol(id.name(), id.addr());
    }
    for (name, addr) in libcalls() {
        jb.symbol(name, addr);
    }
    JITModule::new(jb)
}

/// Declares every helper in `module`, returning their ids in
/// [`HelperId::ALL`] order.
pub fn declare_helpers(module: &mut JITModule) -> Result<Vec<cranelift_module::FuncId>, JitError> {
    HelperId::ALL
        .iter()
        .map(|id| {
            module
                .declare_function(
                    id.name(),
                    cranelift_module::Linkage::Import,
                    &id.signature(),
                )
                .map_err(|e| JitError::Backend(e.to_string()))
        })
        .collect()
}
