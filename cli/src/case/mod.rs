//! Case files (format 1, `docs/case-format.md`): parsing them into a
//! [`Case`], checking what a run produced ([`Outcome`]) against the case's
//! expectations, and reporting the results.
//!
//! The flow is [`parse_case`] → (the runner turns the `Case` into a
//! `Result<Outcome, String>`) → [`check`] / [`CaseReport::new`] →
//! [`report_line`], [`Summary`], [`json_report`].

mod compare;
mod compare_so;
mod error;
mod expect;
mod model;
mod multisample;
mod number;
mod outcome;
mod parse;
mod pipeline;
mod raw;
mod report;
mod resources;
mod stage;
mod texel;
mod value;

pub use compare::{check, Failure};
pub use error::CaseError;
pub use model::{
    Action, Area, Case, CbDesc, ClassInstanceDesc, DrawDesc, Expect, InputDesc, InputValues, IoRef,
    PipelineDesc, SamplerDesc, ShaderCode, SrvDesc, SrvKind, StageDesc, StreamOutputDesc,
    TargetDesc, Tolerance, UavDesc, UavDimension, UavKind,
};
pub use number::{element_matches, floats_match, ulp_distance, WordKind};
pub use outcome::{Outcome, TargetImage, VertexOutput, VertexOutputs};
pub use parse::{parse_case, parse_case_str};
pub use report::{json_report, report_line, CaseReport, Status, Summary};
pub use value::Value;
