//! The SM 4.0/4.1/5.0 opcode table: one row per opcode with its number,
//! its mnemonics (vkd3d's, fxc's and other tools' spellings), its operand
//! layout and data types, which operands read one component, and whether it
//! is a declaration, a test or a block boundary. Decoding, disassembly,
//! assembly and lowering all read these rows through [`Opcode`].

/// How an operand's literals are typed (for printing them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// Floats.
    F,
    /// Signed integers.
    I,
    /// Unsigned integers.
    U,
    /// Untyped bits (moves, selects): printed as a float when they look like one.
    X,
    /// Doubles.
    D,
}

/// How an instruction moves the block depth of the disassembly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block {
    /// Neither opens nor closes a block.
    None,
    /// Opens a block (`if`, `loop`, `switch`).
    Open,
    /// Closes one block and opens the next (`else`).
    Else,
    /// Closes a block (`endif`, `endloop`, `endswitch`).
    Close,
}

/// One item of an opcode's layout: what the tokens after the opcode (and
/// extended opcode) tokens hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// A destination operand (`d` in a layout).
    Dst,
    /// A source operand (`s`).
    Src,
    /// A source operand that reads one component, which compilers encode
    /// as select-1 rather than as a replicated swizzle (`1`).
    Scalar,
    /// One raw word (`u`).
    Word,
    /// Raw words up to the instruction's length (`*`).
    Rest,
    /// Custom data: the instruction's length is in its second word (`c`).
    Custom,
}

impl Item {
    /// Whether the item is an operand.
    pub fn is_operand(self) -> bool {
        matches!(self, Item::Dst | Item::Src | Item::Scalar)
    }
}

/// One opcode's descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpInfo {
    /// The opcode.
    pub op: Opcode,
    /// The opcode number (bits 0-10 of the opcode token).
    pub code: u16,
    /// The mnemonic vkd3d prints (without `_nz`/`_z`, `_sat` and other suffixes).
    pub name: &'static str,
    /// The mnemonic fxc prints.
    pub fxc_name: &'static str,
    /// Other tools' spellings, read by the assembler only.
    pub aliases: &'static [&'static str],
    /// The layout: `d` destination, `s` source, `1` one-component source,
    /// `u` one raw word, `*` raw words up to the length, `c` custom data.
    pub layout: &'static str,
    /// The literal type of each operand, in order: `f`, `i`, `u`, `x` or `d`
    /// (see [`Ty`]); empty for declarations.
    pub types: &'static str,
    /// Whether bit 18 selects a `_nz`/`_z` test.
    pub test: bool,
    /// Whether this is a declaration.
    pub decl: bool,
    /// How the instruction moves the block depth.
    pub block: Block,
}

impl OpInfo {
    /// The items of the layout, in order.
    pub fn items(&self) -> impl Iterator<Item = Item> {
        self.layout.bytes().map(|b| match b {
            b'd' => Item::Dst,
            b's' => Item::Src,
            b'1' => Item::Scalar,
            b'u' => Item::Word,
            b'*' => Item::Rest,
            _ => Item::Custom,
        })
    }

    /// Whether the instruction is a custom-data block.
    pub fn is_custom(&self) -> bool {
        self.items().any(|i| i == Item::Custom)
    }

    /// The item kind of operand `i` (counting operands only).
    fn operand_item(&self, i: usize) -> Option<Item> {
        self.items().filter(|k| k.is_operand()).nth(i)
    }

    /// Whether operand `i` reads a single component.
    pub fn scalar(&self, i: usize) -> bool {
        self.operand_item(i) == Some(Item::Scalar)
    }

    /// The literal type of operand `i`. Declarations' operands carry no
    /// literals and read as unsigned.
    pub fn operand_ty(&self, i: usize) -> Ty {
        match self.types.as_bytes().get(i) {
            Some(b'f') => Ty::F,
            Some(b'i') => Ty::I,
            Some(b'x') => Ty::X,
            Some(b'd') => Ty::D,
            _ => Ty::U,
        }
    }

    /// Every name the opcode is read by: vkd3d's, fxc's and other tools'.
    pub fn names(&self) -> impl Iterator<Item = &'static str> {
        [self.name, self.fxc_name]
            .into_iter()
            .chain(self.aliases.iter().copied())
    }

    const fn of(self, op: Opcode) -> OpInfo {
        OpInfo {
            op,
            code: op as u16,
            ..self
        }
    }

    const fn test(self) -> OpInfo {
        OpInfo { test: true, ..self }
    }

    const fn fxc(self, fxc_name: &'static str) -> OpInfo {
        OpInfo { fxc_name, ..self }
    }

    const fn aliases(self, aliases: &'static [&'static str]) -> OpInfo {
        OpInfo { aliases, ..self }
    }

    const fn block(self, block: Block) -> OpInfo {
        OpInfo { block, ..self }
    }
}

/// An instruction row (the opcode is filled in by the table).
const fn op(name: &'static str, layout: &'static str, types: &'static str) -> OpInfo {
    OpInfo {
        op: Opcode::Nop,
        code: 0,
        name,
        fxc_name: name,
        aliases: &[],
        layout,
        types,
        test: false,
        decl: false,
        block: Block::None,
    }
}

/// A declaration row.
const fn dcl(name: &'static str, layout: &'static str) -> OpInfo {
    OpInfo {
        decl: true,
        ..op(name, layout, "")
    }
}

/// Defines [`Opcode`] and its descriptors from `Variant = number => row` lines.
macro_rules! opcodes {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal => $row:expr; )*) => {
        /// An SM4/SM5 opcode (bits 0-10 of the opcode token).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Opcode {
            $( $(#[$doc])* $variant = $code, )*
        }

        impl Opcode {
            /// Every opcode, by number.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$variant),*];

            /// The opcode of a number, or `None` for numbers no opcode has.
            pub const fn from_code(code: u32) -> Option<Opcode> {
                match code {
                    $( $code => Some(Opcode::$variant), )*
                    _ => None,
                }
            }

            /// The opcode's descriptor.
            pub const fn info(self) -> &'static OpInfo {
                match self {
                    $( Opcode::$variant => {
                        const ROW: OpInfo = $row.of(Opcode::$variant);
                        &ROW
                    } )*
                }
            }
        }
    };
}

impl Opcode {
    /// The number in bits 0-10 of the opcode token.
    pub const fn code(self) -> u32 {
        self as u32
    }
}

impl TryFrom<u32> for Opcode {
    type Error = u32;

    fn try_from(code: u32) -> Result<Self, u32> {
        Opcode::from_code(code).ok_or(code)
    }
}

impl From<Opcode> for u32 {
    fn from(op: Opcode) -> u32 {
        op.code()
    }
}

opcodes! {
    /// `add`.
    Add = 0 => op("add", "dss", "fff");
    /// `and`.
    And = 1 => op("and", "dss", "uuu");
    /// `break`.
    Break = 2 => op("break", "", "");
    /// `breakp`.
    Breakp = 3 => op("breakp", "s", "u").test().fxc("breakc");
    /// `call`.
    Call = 4 => op("call", "s", "u");
    /// `callc`.
    Callc = 5 => op("callc", "ss", "uu").test();
    /// `case`.
    Case = 6 => op("case", "s", "u");
    /// `continue`.
    Continue = 7 => op("continue", "", "");
    /// `continuec`.
    Continuec = 8 => op("continuec", "s", "u").test();
    /// `cut`.
    Cut = 9 => op("cut", "", "");
    /// `default`.
    Default = 10 => op("default", "", "");
    /// `deriv_rtx`.
    DerivRtx = 11 => op("deriv_rtx", "ds", "ff");
    /// `deriv_rty`.
    DerivRty = 12 => op("deriv_rty", "ds", "ff");
    /// `discard`.
    Discard = 13 => op("discard", "s", "u").test();
    /// `div`.
    Div = 14 => op("div", "dss", "fff");
    /// `dp2`.
    Dp2 = 15 => op("dp2", "dss", "fff");
    /// `dp3`.
    Dp3 = 16 => op("dp3", "dss", "fff");
    /// `dp4`.
    Dp4 = 17 => op("dp4", "dss", "fff");
    /// `else`.
    Else = 18 => op("else", "", "").block(Block::Else);
    /// `emit`.
    Emit = 19 => op("emit", "", "");
    /// `emit_then_cut`.
    EmitThenCut = 20 => op("emit_then_cut", "", "").aliases(&["emitThenCut"]);
    /// `endif`.
    Endif = 21 => op("endif", "", "").block(Block::Close);
    /// `endloop`.
    Endloop = 22 => op("endloop", "", "").block(Block::Close);
    /// `endswitch`.
    Endswitch = 23 => op("endswitch", "", "").block(Block::Close);
    /// `eq`.
    Eq = 24 => op("eq", "dss", "fff");
    /// `exp`.
    Exp = 25 => op("exp", "ds", "ff");
    /// `frc`.
    Frc = 26 => op("frc", "ds", "ff");
    /// `ftoi`.
    Ftoi = 27 => op("ftoi", "ds", "ff");
    /// `ftou`.
    Ftou = 28 => op("ftou", "ds", "ff");
    /// `ge`.
    Ge = 29 => op("ge", "dss", "fff");
    /// `iadd`.
    Iadd = 30 => op("iadd", "dss", "iii");
    /// `if`.
    If = 31 => op("if", "s", "u").test().block(Block::Open);
    /// `ieq`.
    Ieq = 32 => op("ieq", "dss", "iii");
    /// `ige`.
    Ige = 33 => op("ige", "dss", "iii");
    /// `ilt`.
    Ilt = 34 => op("ilt", "dss", "iii");
    /// `imad`.
    Imad = 35 => op("imad", "dsss", "iiii");
    /// `imax`.
    Imax = 36 => op("imax", "dss", "iii");
    /// `imin`.
    Imin = 37 => op("imin", "dss", "iii");
    /// `imul`.
    Imul = 38 => op("imul", "ddss", "iiii");
    /// `ine`.
    Ine = 39 => op("ine", "dss", "iii");
    /// `ineg`.
    Ineg = 40 => op("ineg", "ds", "ii");
    /// `ishl`.
    Ishl = 41 => op("ishl", "dss", "iii");
    /// `ishr`.
    Ishr = 42 => op("ishr", "dss", "iii");
    /// `itof`.
    Itof = 43 => op("itof", "ds", "ii");
    /// `label`.
    Label = 44 => op("label", "s", "u");
    /// `ld`.
    Ld = 45 => op("ld", "dss", "iui");
    /// `ld2dms`.
    Ld2dms = 46 => op("ld2dms", "dsss", "iiii").fxc("ldms").aliases(&["ld_ms"]);
    /// `log`.
    Log = 47 => op("log", "ds", "ff");
    /// `loop`.
    Loop = 48 => op("loop", "", "").block(Block::Open);
    /// `lt`.
    Lt = 49 => op("lt", "dss", "fff");
    /// `mad`.
    Mad = 50 => op("mad", "dsss", "ffff");
    /// `min`.
    Min = 51 => op("min", "dss", "fff");
    /// `max`.
    Max = 52 => op("max", "dss", "fff");
    /// `dcl_immediateConstantBuffer`.
    DclImmediateConstantBuffer = 53 => op("dcl_immediateConstantBuffer", "c", "");
    /// `mov`.
    Mov = 54 => op("mov", "ds", "xx");
    /// `movc`.
    Movc = 55 => op("movc", "dsss", "xuxx");
    /// `mul`.
    Mul = 56 => op("mul", "dss", "fff");
    /// `ne`.
    Ne = 57 => op("ne", "dss", "fff");
    /// `nop`.
    Nop = 58 => op("nop", "", "");
    /// `not`.
    Not = 59 => op("not", "ds", "uu");
    /// `or`.
    Or = 60 => op("or", "dss", "uuu");
    /// `resinfo`.
    Resinfo = 61 => op("resinfo", "d1s", "uuu");
    /// `ret`.
    Ret = 62 => op("ret", "", "");
    /// `retp`.
    Retp = 63 => op("retp", "s", "u").test().fxc("retc");
    /// `round_ne`.
    RoundNe = 64 => op("round_ne", "ds", "ff");
    /// `round_ni`.
    RoundNi = 65 => op("round_ni", "ds", "ff");
    /// `round_pi`.
    RoundPi = 66 => op("round_pi", "ds", "ff");
    /// `round_z`.
    RoundZ = 67 => op("round_z", "ds", "ff");
    /// `rsq`.
    Rsq = 68 => op("rsq", "ds", "ff");
    /// `sample`.
    Sample = 69 => op("sample", "dsss", "ffff");
    /// `sample_c`.
    SampleC = 70 => op("sample_c", "dssss", "fffff");
    /// `sample_c_lz`.
    SampleCLz = 71 => op("sample_c_lz", "dssss", "fffff");
    /// `sample_l`.
    SampleL = 72 => op("sample_l", "dssss", "fffff");
    /// `sample_d`.
    SampleD = 73 => op("sample_d", "dsssss", "ffffff");
    /// `sample_b`.
    SampleB = 74 => op("sample_b", "dssss", "fffff");
    /// `sqrt`.
    Sqrt = 75 => op("sqrt", "ds", "ff");
    /// `switch`.
    Switch = 76 => op("switch", "s", "i").block(Block::Open);
    /// `sincos`.
    Sincos = 77 => op("sincos", "dds", "fff");
    /// `udiv`.
    Udiv = 78 => op("udiv", "ddss", "uuuu");
    /// `ult`.
    Ult = 79 => op("ult", "dss", "uuu");
    /// `uge`.
    Uge = 80 => op("uge", "dss", "uuu");
    /// `umul`.
    Umul = 81 => op("umul", "ddss", "uuuu");
    /// `umad`.
    Umad = 82 => op("umad", "dsss", "uuuu");
    /// `umax`.
    Umax = 83 => op("umax", "dss", "uuu");
    /// `umin`.
    Umin = 84 => op("umin", "dss", "uuu");
    /// `ushr`.
    Ushr = 85 => op("ushr", "dss", "uuu");
    /// `utof`.
    Utof = 86 => op("utof", "ds", "uu");
    /// `xor`.
    Xor = 87 => op("xor", "dss", "uuu");
    /// `dcl_resource`.
    DclResource = 88 => dcl("dcl_resource", "su");
    /// `dcl_constantBuffer`.
    DclConstantBuffer = 89 => dcl("dcl_constantBuffer", "s").fxc("dcl_constantbuffer");
    /// `dcl_sampler`.
    DclSampler = 90 => dcl("dcl_sampler", "s");
    /// `dcl_index_range`.
    DclIndexRange = 91 => dcl("dcl_index_range", "du").fxc("dcl_indexrange");
    /// `dcl_outputtopology`.
    DclOutputTopology = 92 => dcl("dcl_outputtopology", "");
    /// `dcl_inputprimitive`.
    DclInputPrimitive = 93 => dcl("dcl_inputprimitive", "");
    /// `dcl_vertices_out`.
    DclVerticesOut = 94 => dcl("dcl_vertices_out", "u").fxc("dcl_maxout");
    /// `dcl_input`.
    DclInput = 95 => dcl("dcl_input", "d");
    /// `dcl_input_sgv`.
    DclInputSgv = 96 => dcl("dcl_input_sgv", "du");
    /// `dcl_input_siv`.
    DclInputSiv = 97 => dcl("dcl_input_siv", "du");
    /// `dcl_input_ps`.
    DclInputPs = 98 => dcl("dcl_input_ps", "d");
    /// `dcl_input_ps_sgv`.
    DclInputPsSgv = 99 => dcl("dcl_input_ps_sgv", "du");
    /// `dcl_input_ps_siv`.
    DclInputPsSiv = 100 => dcl("dcl_input_ps_siv", "du");
    /// `dcl_output`.
    DclOutput = 101 => dcl("dcl_output", "d");
    /// `dcl_output_sgv`.
    DclOutputSgv = 102 => dcl("dcl_output_sgv", "du");
    /// `dcl_output_siv`.
    DclOutputSiv = 103 => dcl("dcl_output_siv", "du");
    /// `dcl_temps`.
    DclTemps = 104 => dcl("dcl_temps", "u");
    /// `dcl_indexableTemp`.
    DclIndexableTemp = 105 => dcl("dcl_indexableTemp", "uuu");
    /// `dcl_globalFlags`.
    DclGlobalFlags = 106 => dcl("dcl_globalFlags", "");
    /// `lod`.
    Lod = 108 => op("lod", "dsss", "ffff");
    /// `gather4`.
    Gather4 = 109 => op("gather4", "dsss", "ffff");
    /// `sample_pos`.
    SamplePos = 110 => op("sample_pos", "dss", "uuu").fxc("samplepos");
    /// `sample_info`.
    SampleInfo = 111 => op("sample_info", "ds", "uu").fxc("sampleinfo");
    /// `hs_decls`.
    HsDecls = 113 => dcl("hs_decls", "");
    /// `hs_control_point_phase`.
    HsControlPointPhase = 114 => dcl("hs_control_point_phase", "");
    /// `hs_fork_phase`.
    HsForkPhase = 115 => dcl("hs_fork_phase", "");
    /// `hs_join_phase`.
    HsJoinPhase = 116 => dcl("hs_join_phase", "");
    /// `emit_stream`.
    EmitStream = 117 => op("emit_stream", "s", "u");
    /// `cut_stream`.
    CutStream = 118 => op("cut_stream", "s", "u");
    /// `emit_then_cut_stream`.
    EmitThenCutStream = 119 => op("emit_then_cut_stream", "s", "u").aliases(&["emitThenCut_stream"]);
    /// `fcall`.
    Fcall = 120 => op("fcall", "us", "u");
    /// `bufinfo`.
    Bufinfo = 121 => op("bufinfo", "ds", "uu");
    /// `deriv_rtx_coarse`.
    DerivRtxCoarse = 122 => op("deriv_rtx_coarse", "ds", "ff");
    /// `deriv_rtx_fine`.
    DerivRtxFine = 123 => op("deriv_rtx_fine", "ds", "ff");
    /// `deriv_rty_coarse`.
    DerivRtyCoarse = 124 => op("deriv_rty_coarse", "ds", "ff");
    /// `deriv_rty_fine`.
    DerivRtyFine = 125 => op("deriv_rty_fine", "ds", "ff");
    /// `gather4_c`.
    Gather4C = 126 => op("gather4_c", "dssss", "fffff");
    /// `gather4_po`.
    Gather4Po = 127 => op("gather4_po", "dssss", "fffff");
    /// `gather4_po_c`.
    Gather4PoC = 128 => op("gather4_po_c", "dsssss", "ffffff");
    /// `rcp`.
    Rcp = 129 => op("rcp", "ds", "ff");
    /// `f32tof16`.
    F32tof16 = 130 => op("f32tof16", "ds", "ff");
    /// `f16tof32`.
    F16tof32 = 131 => op("f16tof32", "ds", "uu");
    /// `uaddc`.
    Uaddc = 132 => op("uaddc", "ddss", "uuuu");
    /// `usubb`.
    Usubb = 133 => op("usubb", "ddss", "uuuu");
    /// `countbits`.
    Countbits = 134 => op("countbits", "ds", "uu");
    /// `firstbit_hi`.
    FirstbitHi = 135 => op("firstbit_hi", "ds", "uu");
    /// `firstbit_lo`.
    FirstbitLo = 136 => op("firstbit_lo", "ds", "uu");
    /// `firstbit_shi`.
    FirstbitShi = 137 => op("firstbit_shi", "ds", "ii");
    /// `ubfe`.
    Ubfe = 138 => op("ubfe", "dsss", "uuuu");
    /// `ibfe`.
    Ibfe = 139 => op("ibfe", "dsss", "iiii");
    /// `bfi`.
    Bfi = 140 => op("bfi", "dssss", "uuuuu");
    /// `bfrev`.
    Bfrev = 141 => op("bfrev", "ds", "uu");
    /// `swapc`.
    Swapc = 142 => op("swapc", "ddsss", "xxxxx");
    /// `dcl_stream`.
    DclStream = 143 => dcl("dcl_stream", "s");
    /// `dcl_function_body`.
    DclFunctionBody = 144 => dcl("dcl_function_body", "u");
    /// `dcl_function_table`.
    DclFunctionTable = 145 => dcl("dcl_function_table", "*");
    /// `dcl_interface`.
    DclInterface = 146 => dcl("dcl_interface", "*");
    /// `dcl_input_control_point_count`.
    DclInputControlPointCount = 147 => dcl("dcl_input_control_point_count", "");
    /// `dcl_output_control_point_count`.
    DclOutputControlPointCount = 148 => dcl("dcl_output_control_point_count", "");
    /// `dcl_tessellator_domain`.
    DclTessellatorDomain = 149 => dcl("dcl_tessellator_domain", "");
    /// `dcl_tessellator_partitioning`.
    DclTessellatorPartitioning = 150 => dcl("dcl_tessellator_partitioning", "");
    /// `dcl_tessellator_output_primitive`.
    DclTessellatorOutputPrimitive = 151 => dcl("dcl_tessellator_output_primitive", "");
    /// `dcl_hs_max_tessfactor`.
    DclHsMaxTessfactor = 152 => dcl("dcl_hs_max_tessfactor", "u");
    /// `dcl_hs_fork_phase_instance_count`.
    DclHsForkPhaseInstanceCount = 153 => dcl("dcl_hs_fork_phase_instance_count", "u");
    /// `dcl_hs_join_phase_instance_count`.
    DclHsJoinPhaseInstanceCount = 154 => dcl("dcl_hs_join_phase_instance_count", "u");
    /// `dcl_thread_group`.
    DclThreadGroup = 155 => dcl("dcl_thread_group", "uuu");
    /// `dcl_uav_typed`.
    DclUavTyped = 156 => dcl("dcl_uav_typed", "su");
    /// `dcl_uav_raw`.
    DclUavRaw = 157 => dcl("dcl_uav_raw", "s");
    /// `dcl_uav_structured`.
    DclUavStructured = 158 => dcl("dcl_uav_structured", "su");
    /// `dcl_tgsm_raw`.
    DclTgsmRaw = 159 => dcl("dcl_tgsm_raw", "su");
    /// `dcl_tgsm_structured`.
    DclTgsmStructured = 160 => dcl("dcl_tgsm_structured", "suu");
    /// `dcl_resource_raw`.
    DclResourceRaw = 161 => dcl("dcl_resource_raw", "s");
    /// `dcl_resource_structured`.
    DclResourceStructured = 162 => dcl("dcl_resource_structured", "su");
    /// `ld_uav_typed`.
    LdUavTyped = 163 => op("ld_uav_typed", "dss", "uuu");
    /// `store_uav_typed`.
    StoreUavTyped = 164 => op("store_uav_typed", "dss", "uuu");
    /// `ld_raw`.
    LdRaw = 165 => op("ld_raw", "d1s", "uuu");
    /// `store_raw`.
    StoreRaw = 166 => op("store_raw", "d1s", "xux");
    /// `ld_structured`.
    LdStructured = 167 => op("ld_structured", "d11s", "uuuu");
    /// `store_structured`.
    StoreStructured = 168 => op("store_structured", "d11s", "xuux");
    /// `atomic_and`.
    AtomicAnd = 169 => op("atomic_and", "ds1", "uuu");
    /// `atomic_or`.
    AtomicOr = 170 => op("atomic_or", "ds1", "uuu");
    /// `atomic_xor`.
    AtomicXor = 171 => op("atomic_xor", "ds1", "uuu");
    /// `atomic_cmp_store`.
    AtomicCmpStore = 172 => op("atomic_cmp_store", "ds11", "uuuu");
    /// `atomic_iadd`.
    AtomicIadd = 173 => op("atomic_iadd", "ds1", "iii");
    /// `atomic_imax`.
    AtomicImax = 174 => op("atomic_imax", "ds1", "iii");
    /// `atomic_imin`.
    AtomicImin = 175 => op("atomic_imin", "ds1", "iii");
    /// `atomic_umax`.
    AtomicUmax = 176 => op("atomic_umax", "ds1", "uuu");
    /// `atomic_umin`.
    AtomicUmin = 177 => op("atomic_umin", "ds1", "uuu");
    /// `imm_atomic_alloc`.
    ImmAtomicAlloc = 178 => op("imm_atomic_alloc", "ds", "uu");
    /// `imm_atomic_consume`.
    ImmAtomicConsume = 179 => op("imm_atomic_consume", "ds", "uu");
    /// `imm_atomic_iadd`.
    ImmAtomicIadd = 180 => op("imm_atomic_iadd", "dds1", "iiii");
    /// `imm_atomic_and`.
    ImmAtomicAnd = 181 => op("imm_atomic_and", "dds1", "uuuu");
    /// `imm_atomic_or`.
    ImmAtomicOr = 182 => op("imm_atomic_or", "dds1", "uuuu");
    /// `imm_atomic_xor`.
    ImmAtomicXor = 183 => op("imm_atomic_xor", "dds1", "uuuu");
    /// `imm_atomic_exch`.
    ImmAtomicExch = 184 => op("imm_atomic_exch", "dds1", "uuuu");
    /// `imm_atomic_cmp_exch`.
    ImmAtomicCmpExch = 185 => op("imm_atomic_cmp_exch", "dds11", "uuuuu");
    /// `imm_atomic_imax`.
    ImmAtomicImax = 186 => op("imm_atomic_imax", "dds1", "iiii");
    /// `imm_atomic_imin`.
    ImmAtomicImin = 187 => op("imm_atomic_imin", "dds1", "iiii");
    /// `imm_atomic_umax`.
    ImmAtomicUmax = 188 => op("imm_atomic_umax", "dds1", "uuuu");
    /// `imm_atomic_umin`.
    ImmAtomicUmin = 189 => op("imm_atomic_umin", "dds1", "uuuu");
    /// `sync`.
    Sync = 190 => op("sync", "", "");
    /// `dadd`.
    Dadd = 191 => op("dadd", "dss", "ddd");
    /// `dmax`.
    Dmax = 192 => op("dmax", "dss", "ddd");
    /// `dmin`.
    Dmin = 193 => op("dmin", "dss", "ddd");
    /// `dmul`.
    Dmul = 194 => op("dmul", "dss", "ddd");
    /// `deq`.
    Deq = 195 => op("deq", "dss", "ddd");
    /// `dge`.
    Dge = 196 => op("dge", "dss", "ddd");
    /// `dlt`.
    Dlt = 197 => op("dlt", "dss", "ddd");
    /// `dne`.
    Dne = 198 => op("dne", "dss", "ddd");
    /// `dmov`.
    Dmov = 199 => op("dmov", "ds", "dd");
    /// `dmovc`.
    Dmovc = 200 => op("dmovc", "dsss", "dudd");
    /// `dtof`.
    Dtof = 201 => op("dtof", "ds", "dd");
    /// `ftod`.
    Ftod = 202 => op("ftod", "ds", "ff");
    /// `eval_snapped`.
    EvalSnapped = 203 => op("eval_snapped", "dss", "fff");
    /// `eval_sample_index`.
    EvalSampleIndex = 204 => op("eval_sample_index", "dss", "fff");
    /// `eval_centroid`.
    EvalCentroid = 205 => op("eval_centroid", "ds", "ff");
    /// `dcl_gs_instances`.
    DclGsInstances = 206 => dcl("dcl_gs_instances", "u").fxc("dcl_gsinstances").aliases(&["dcl_gs_instance_count"]);
    /// `abort`.
    Abort = 207 => op("abort", "", "");
    /// `debug_break`.
    DebugBreak = 208 => op("debug_break", "", "").aliases(&["debugbreak"]);
    /// `ddiv`.
    Ddiv = 210 => op("ddiv", "dss", "ddd");
    /// `dfma`.
    Dfma = 211 => op("dfma", "dsss", "dddd");
    /// `drcp`.
    Drcp = 212 => op("drcp", "ds", "dd");
    /// `msad`.
    Msad = 213 => op("msad", "dsss", "uuuu");
    /// `dtoi`.
    Dtoi = 214 => op("dtoi", "ds", "dd");
    /// `dtou`.
    Dtou = 215 => op("dtou", "ds", "dd");
    /// `itod`.
    Itod = 216 => op("itod", "ds", "ii");
    /// `utod`.
    Utod = 217 => op("utod", "ds", "uu");
}

/// The descriptor of an opcode number.
pub fn info(code: u32) -> Option<&'static OpInfo> {
    Opcode::from_code(code).map(Opcode::info)
}

/// The descriptor of a vkd3d mnemonic.
pub fn by_name(name: &str) -> Option<&'static OpInfo> {
    Opcode::ALL
        .iter()
        .map(|o| o.info())
        .find(|o| o.name == name)
}

impl Opcode {
    /// Whether the opcode declares an input or output register (`dcl_input*`,
    /// `dcl_output*`).
    pub fn is_io_decl(self) -> bool {
        self.is_input_decl() || self.is_output_decl()
    }

    /// Whether the opcode declares an input register.
    pub fn is_input_decl(self) -> bool {
        use Opcode as O;
        matches!(
            self,
            O::DclInput
                | O::DclInputSgv
                | O::DclInputSiv
                | O::DclInputPs
                | O::DclInputPsSgv
                | O::DclInputPsSiv
        )
    }

    /// Whether the opcode declares an output register.
    pub fn is_output_decl(self) -> bool {
        use Opcode as O;
        matches!(self, O::DclOutput | O::DclOutputSgv | O::DclOutputSiv)
    }

    /// Whether the opcode declares a pixel input with an interpolation mode.
    pub fn is_pixel_input_decl(self) -> bool {
        use Opcode as O;
        matches!(self, O::DclInputPs | O::DclInputPsSgv | O::DclInputPsSiv)
    }

    /// Whether an input or output declaration names a system value (`_sgv`,
    /// `_siv`) in its word.
    pub fn names_system_value(self) -> bool {
        use Opcode as O;
        matches!(
            self,
            O::DclInputSgv
                | O::DclInputSiv
                | O::DclInputPsSgv
                | O::DclInputPsSiv
                | O::DclOutputSgv
                | O::DclOutputSiv
        )
    }

    /// Whether the opcode declares a typed resource or UAV, whose control
    /// field holds a dimension and whose word holds return types.
    pub fn is_typed_resource_decl(self) -> bool {
        matches!(self, Opcode::DclResource | Opcode::DclUavTyped)
    }

    /// Whether the opcode declares a UAV (with `_glc`/`_opc` flags).
    pub fn is_uav_decl(self) -> bool {
        use Opcode as O;
        matches!(self, O::DclUavTyped | O::DclUavRaw | O::DclUavStructured)
    }

    /// Whether the opcode declares a resource or UAV whose control field
    /// may hold a dimension.
    pub fn is_resource_decl(self) -> bool {
        use Opcode as O;
        self.is_uav_decl()
            || matches!(
                self,
                O::DclResource | O::DclResourceRaw | O::DclResourceStructured
            )
    }

    /// Whether the opcode carries a return-type suffix (`_uint`, `_rcpFloat`).
    pub fn has_return_type_suffix(self) -> bool {
        matches!(self, Opcode::Resinfo | Opcode::SampleInfo)
    }
}
