//! The C API of dxjit: compile Direct3D shader bytecode and run it on the
//! CPU from C or C++. `include/dxjit.h` is generated from this crate by
//! cbindgen (`tests/header.rs` keeps it current).
//!
//! Every exported function catches panics and reports them as
//! [`Status::Internal`]; every pointer a caller passes is checked for null,
//! alignment and its documented size before it is read.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod bindings;
mod bound;
pub mod checks;
mod class;
pub mod compile;
pub mod dispatch;
pub mod draw;
pub mod enums;
pub mod guard;
pub mod interrupt;
pub mod log;
pub mod pipeline;
pub mod quads;
pub mod reflect;
mod sampler_array;
pub mod shader;
pub mod status;
pub mod stream_output;
pub mod texture;
pub mod topology;
pub mod vertices;

pub use status::Status;
