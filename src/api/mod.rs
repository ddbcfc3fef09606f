//! The safe embedding API: an [`Engine`] that compiles and runs, typed
//! [`Bindings`] that borrow what they bind, [`Target`]s, and calls that
//! return [`Result`]. The runtime's raw entry points stay available as
//! `unsafe fn`s in `dxjit_runtime::dispatch`.

mod bindings;
mod calls;
mod deadline;
mod definitions;
mod engine;
mod error;
mod halt;
mod multisample;
mod pipeline;
mod quad_passes;
mod quads;
mod stream_output;
mod target;
mod tessellation;
mod validation;

pub use bindings::{Bindings, BufferLayout, ClassInstance};
pub use calls::{CallOptions, DrawDesc, MAX_COORDINATE, MAX_GROUPS};
pub use deadline::within as within_deadline;
pub use engine::{Engine, EngineConfig};
pub use error::{BindError, RunError};
pub use halt::stop_reason;
pub use multisample::sample_shading;
pub use pipeline::{
    run_from_sources, run_pipeline, run_pipeline_raw, DrawInput, PipelineOutput, PipelineStages,
    RawStage, RawStages, StageBinding, Stages, VertexSource,
};
pub use quad_passes::QuadPasses;
pub use quads::{
    check_sampling, evaluate_planes, quad_samples, PlaneInput, QuadInputs, QuadResults,
    QuadSampling,
};
pub use stream_output::{SoDeclEntry, SoOffset, StreamOutput, SO_MAX_STRIDE, SO_SLOTS};
pub use target::Target;
pub use tessellation::{DomainOutput, PatchList};
pub use validation::report as validate_bindings;
