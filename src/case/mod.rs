//! Case files (format 1, `shared/spec/cases.md`): parsing them into a
//! [`Case`], and the [`Outcome`] a run produces.

mod error;
mod expect;
mod model;
mod outcome;
mod parse;
mod raw;
mod resources;
mod stage;
mod texel;
mod value;

pub use error::CaseError;
pub use model::{
    Action, Area, Case, CbDesc, DrawDesc, Expect, InputDesc, InputValues, IoRef, SamplerDesc,
    ShaderCode, SrvDesc, SrvKind, StageDesc, TargetDesc, Tolerance, UavDesc, UavDimension, UavKind,
};
pub use outcome::{Outcome, TargetImage, VertexOutput, VertexOutputs};
pub use parse::{parse_case, parse_case_str};
pub use value::Value;
