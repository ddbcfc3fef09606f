//! The runtime of dxjit: the ABI compiled shaders are called with, resource
//! views and formats, texture sampling, and the dispatch loops that run
//! compiled shaders over thread groups, vertices and pixel quads.
//!
//! Nothing here knows Cranelift: the compiler reads this crate's layouts.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod abi;
pub mod dispatch;
pub mod eval;
pub mod format;
pub mod helper_list;
pub mod helpers;
pub mod msaa;
pub mod pipeline;
pub mod raw_quad;
pub mod sampler;
pub mod tessellator;
pub mod texture;
