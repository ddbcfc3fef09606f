//! dxjit recompiles Direct3D shader bytecode into native x86-64 code with
//! Cranelift and runs it on the CPU.
//!
//! ```no_run
//! let bytes = std::fs::read("shader.dxbc").unwrap();
//! let shader = dxjit::compile(&bytes, &dxjit::CompileOptions::default()).unwrap();
//! println!("{:?} shader, compiled in {:.0} us", shader.stage(), shader.compile_us());
//! ```
//!
//! Compile latency:
//! - **Tiers** ([`CompileOptions::tier`]): [`Tier::First`] compiles quickly
//!   into slower code, [`Tier::Top`] into the best code, [`Tier::Both`] (the
//!   default) the first tier at once and the top tier on a [`Spawner`];
//!   [`Shader::kernel`] returns the best code ready, switching between calls.
//! - **Cache**: [`ShaderCache`] hands out one `Arc<Shader>` per bytecode and
//!   options, evicting the least recently used past a [`CacheLimit`].
//! - **Persistent cache** ([`DiskCache`]): each tier's native code kept in
//!   a directory and loaded on later runs without Cranelift; pass one to
//!   [`compile_with`], or make it the process default with
//!   [`disk_cache::set_default`].
//! - **Async**: [`compile_async`] returns a [`CompileHandle`] at once; asking
//!   it for the shader waits or says [`AsyncError::NotReady`], as its
//!   [`WhenNotReady`] mode says.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod api;
pub mod cache;
pub mod compile;
pub mod d3d9;
pub mod diagnostic;
pub mod disk_cache;
pub mod dxbc;
pub mod error;
pub mod ir;
pub mod jit;
pub mod reflect;
pub mod shader;
pub mod sm4;
pub mod text;

pub use api::{
    BindError, Bindings, BufferLayout, CallOptions, ClassInstance, DomainOutput, DrawDesc, Engine,
    EngineConfig, PatchList, PlaneInput, QuadInputs, QuadResults, QuadSampling, RunError, Target,
};
pub use cache::{CacheLimit, CacheStats, ShaderCache};
pub use compile::{
    choose_prewarm_shaders, compile_async, flush_disk_cache, prewarm_shaders, prewarm_stencils,
    prewarm_stencils_from, prewarm_stencils_on, AsyncError, CompileHandle, Spawner, Tier,
    UpgradeError, WhenNotReady,
};
pub use disk_cache::DiskCache;
pub use error::Error;
pub use jit::{PrewarmChoice, Prewarmed};
pub use shader::{compile, compile_on, compile_with, CompileOptions, Family, Shader, LARGE_CALL};
