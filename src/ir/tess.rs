//! What hull and domain programs declare about tessellation, and how their
//! phases are numbered.
//!
//! A hull program lowers to one IR function whose body switches on the
//! phase selector (row `HEADER`.x of the patch rows,
//! [`dxjit_runtime::dispatch::patch_rows`]): case `i` is `phases[i]`. The
//! fork/join instance id is `HEADER`.y and SV_PrimitiveID `HEADER`.z;
//! `vicp`, `vocp` and `vpc` are rows of the same buffer, bound at
//! constant-buffer slot [`TESS_CB_SLOT`]. Input register 0 carries the
//! per-lane value: `vOutputControlPointID` (hull) or `vDomain` (domain).

pub use dxjit_runtime::dispatch::patch_rows::SLOT as TESS_CB_SLOT;
pub use dxjit_runtime::dispatch::HullPhaseKind as PhaseKind;
use dxjit_runtime::tessellator::{Domain, OutputPrimitive, Partitioning};

/// One hull-shader phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HullPhase {
    /// Control point, fork or join.
    pub kind: PhaseKind,
    /// `dcl_hs_fork_phase_instance_count` / `dcl_hs_join_phase_instance_count`
    /// (1 when not declared, and for the control-point phase).
    pub instances: u32,
}

/// Where a tessellation factor is: a patch-constant register's component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FactorSlot {
    /// The patch-constant (output) register.
    pub reg: u32,
    /// The component, 0-3.
    pub component: u8,
}

/// The tessellation state of a hull or domain program.
#[derive(Debug, Clone, PartialEq)]
pub struct TessInfo {
    /// `dcl_tessellator_domain`.
    pub domain: Option<Domain>,
    /// `dcl_tessellator_partitioning` (hull only).
    pub partitioning: Option<Partitioning>,
    /// `dcl_tessellator_output_primitive` (hull only).
    pub output_primitive: Option<OutputPrimitive>,
    /// `dcl_input_control_point_count`: control points per input patch.
    pub input_control_points: u32,
    /// `dcl_output_control_point_count` (hull only).
    pub output_control_points: u32,
    /// `dcl_hs_max_tessfactor` (64 when not declared).
    pub max_tess_factor: f32,
    /// The hull's phases in program order (empty for a domain program).
    pub phases: Vec<HullPhase>,
    /// Registers of `vicp` the program declares or reads.
    pub input_regs: u32,
    /// Registers of an output control point (control-point phase outputs).
    pub control_point_regs: u32,
    /// Patch-constant registers: written by fork/join phases (hull), or
    /// `vpc` declared or read (domain).
    pub patch_constant_regs: u32,
    /// SV_TessFactor: tri edges u==0, v==0, w==0; quad edges u==0, v==0,
    /// u==1, v==1; isoline density then detail. The patch constants a
    /// hull program writes them to, or those a domain program declares
    /// them in (`dcl_input_siv vpc#`).
    pub edge_factors: [Option<FactorSlot>; 4],
    /// SV_InsideTessFactor: tri; quad u then v (placed as the edges are).
    pub inside_factors: [Option<FactorSlot>; 2],
}

impl Default for TessInfo {
    fn default() -> Self {
        TessInfo {
            domain: None,
            partitioning: None,
            output_primitive: None,
            input_control_points: 0,
            output_control_points: 0,
            max_tess_factor: 64.0,
            phases: Vec::new(),
            input_regs: 0,
            control_point_regs: 0,
            patch_constant_regs: 0,
            edge_factors: [None; 4],
            inside_factors: [None; 2],
        }
    }
}

impl TessInfo {
    /// Whether the hull has a control-point phase (otherwise its input
    /// control points pass through).
    pub fn has_control_point_phase(&self) -> bool {
        self.phases
            .iter()
            .any(|p| p.kind == PhaseKind::ControlPoint)
    }
}
