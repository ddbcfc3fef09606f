//! Operand types (register files), bits 12-19 of the operand token, with the
//! register names both dialects print and what the assembler and
//! disassembler need to know about their components.

use super::named::named_enum;

named_enum! {
    /// An operand type: the register file an operand names.
    pub enum OperandType {
        /// Temporary registers.
        Temp = 0 => "r",
        /// Inputs.
        Input = 1 => "v",
        /// Outputs.
        Output = 2 => "o",
        /// Indexable temporaries.
        IndexableTemp = 3 => "x",
        /// A 32-bit literal.
        Immediate32 = 4 => "l",
        /// A 64-bit literal.
        Immediate64 = 5 => "d",
        /// Samplers.
        Sampler = 6 => "s",
        /// Shader resource views.
        Resource = 7 => "t",
        /// Constant buffers.
        ConstantBuffer = 8 => "cb",
        /// The immediate constant buffer.
        ImmediateConstantBuffer = 9 => "icb",
        /// Labels.
        Label = 10 => "l",
        /// The primitive id input.
        InputPrimitiveId = 11 => "vPrim",
        /// The depth output.
        OutputDepth = 12 => "oDepth",
        /// The null register.
        Null = 13 => "null",
        /// The rasterizer.
        Rasterizer = 14 => "rasterizer",
        /// The coverage-mask output.
        OutputCoverageMask = 15 => "oMask",
        /// Streams.
        Stream = 16 => "m",
        /// Function bodies.
        FunctionBody = 17 => "fb",
        /// Function tables.
        FunctionTable = 18 => "ft",
        /// Interfaces.
        Interface = 19 => "fp",
        /// Function inputs.
        FunctionInput = 20 => "fi",
        /// Function outputs.
        FunctionOutput = 21 => "fo",
        /// The output control point id.
        OutputControlPointId = 22 => "vOutputControlPointID",
        /// The fork phase instance id.
        InputForkInstanceId = 23 => "vForkInstanceID",
        /// The join phase instance id.
        InputJoinInstanceId = 24 => "vJoinInstanceID",
        /// Input control points.
        InputControlPoint = 25 => "vicp",
        /// Output control points.
        OutputControlPoint = 26 => "vocp",
        /// Patch constants.
        InputPatchConstant = 27 => "vpc",
        /// The domain point.
        InputDomainPoint = 28 => "vDomain",
        /// The `this` pointer of class linkage.
        ThisPointer = 29 => "this",
        /// Unordered access views.
        UnorderedAccessView = 30 => "u",
        /// Thread-group shared memory.
        ThreadGroupSharedMemory = 31 => "g",
        /// The dispatch thread id.
        InputThreadId = 32 => "vThreadID",
        /// The thread group id.
        InputThreadGroupId = 33 => "vThreadGroupID",
        /// The thread id in its group.
        InputThreadIdInGroup = 34 => "vThreadIDInGroup",
        /// The coverage input.
        InputCoverageMask = 35 => "vCoverage",
        /// The flattened thread id in its group.
        InputThreadIdInGroupFlattened = 36 => "vThreadIDInGroupFlattened",
        /// The geometry-shader instance id.
        InputGsInstanceId = 37 => "vGSInstanceID",
        /// The conservative depth output (greater or equal).
        OutputDepthGreaterEqual = 38 => "oDepthGE",
        /// The conservative depth output (less or equal).
        OutputDepthLessEqual = 39 => "oDepthLE",
        /// The cycle counter.
        CycleCounter = 40 => "vCycleCounter",
        /// The stencil reference output.
        OutputStencilRef = 41 => "oStencilRef",
        /// The inner coverage input.
        InnerCoverage = 42 => "vInnerCoverage",
    }
}

impl OperandType {
    /// Whether the operand is a literal rather than a register.
    pub fn is_immediate(self) -> bool {
        matches!(self, OperandType::Immediate32 | OperandType::Immediate64)
    }

    /// The register file of a register name (literals have none), ignoring
    /// ASCII case.
    pub fn from_register_name(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .filter(|t| !t.is_immediate())
            .find(|t| t.name().eq_ignore_ascii_case(name))
    }

    /// Whether the register holds a single component.
    pub fn is_scalar(self) -> bool {
        use OperandType as T;
        matches!(
            self,
            T::InputPrimitiveId
                | T::OutputDepth
                | T::OutputCoverageMask
                | T::OutputControlPointId
                | T::InputForkInstanceId
                | T::InputJoinInstanceId
                | T::InputCoverageMask
                | T::InputThreadIdInGroupFlattened
                | T::InputGsInstanceId
                | T::OutputDepthGreaterEqual
                | T::OutputDepthLessEqual
                | T::OutputStencilRef
                | T::InnerCoverage
        )
    }

    /// Whether compilers declare the (single-component) register as a
    /// one-component operand rather than with no components: the depth
    /// and stencil outputs and the coverage inputs. fxc declares `oMask`
    /// with no components (`dcl_output oMask` is 0x02000065, 0x0000f000 in
    /// Wine's d3d11 test_sample_mask).
    pub fn declared_with_one_component(self) -> bool {
        use OperandType as T;
        matches!(
            self,
            T::OutputDepth
                | T::InputCoverageMask
                | T::OutputDepthGreaterEqual
                | T::OutputDepthLessEqual
                | T::OutputStencilRef
                | T::InnerCoverage
        )
    }

    /// Whether the register is a depth output (plain or conservative).
    pub fn is_depth_output(self) -> bool {
        matches!(
            self,
            OperandType::OutputDepth
                | OperandType::OutputDepthGreaterEqual
                | OperandType::OutputDepthLessEqual
        )
    }
}
