//! The fixed-function parts of the geometry pipeline: input assembly
//! (vertices to primitives), the geometry shader's output area and its
//! strips turned into lists, and stream output into buffers.
//!
//! The flow is: a [`VertexSource`] (the last vertex stage's outputs) →
//! [`assemble`] → [`Primitives`] → the geometry shader
//! ([`crate::dispatch::run_geometry`]) or, without one, [`Primitives::without_adjacency`]
//! → one [`Primitives`] per stream → [`stream_out`].

mod assembly;
mod gs_area;
mod stream_out;
mod strips;
mod topology;

pub use assembly::{assemble, Primitives, VertexSource, STRIP_CUT};
pub use gs_area::{dxjit_gs_cut, dxjit_gs_emit, GsArea, GsVertex};
pub use stream_out::{stream_out, SoCounts, SoElement, SoTarget};
pub use strips::strips_to_list;
pub use topology::{GsInput, GsOutput, Topology, MAX_STREAMS};
