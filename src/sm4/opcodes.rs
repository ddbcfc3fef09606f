//! The SM 4.0/4.1/5.0 opcode table: one row per opcode with its number, its
//! disassembly name, its operand layout and how its immediates read.

/// How an instruction's literal operands are typed (for printing them).
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

/// One opcode.
///
/// `layout` lists the tokens after the opcode (and extended opcode) tokens:
/// `d` a destination operand, `s` a source operand, `u` one raw word,
/// `*` raw words up to the instruction's length, `c` custom data (the
/// instruction's length is in its second word).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpInfo {
    /// The opcode number (bits 0-10 of the opcode token).
    pub code: u16,
    /// The disassembly name (without `_nz`/`_z`, `_sat` and other suffixes).
    pub name: &'static str,
    /// The operand layout.
    pub layout: &'static str,
    /// How literals in this instruction are typed.
    pub ty: Ty,
    /// Whether bit 18 selects a `_nz`/`_z` test.
    pub test: bool,
    /// Whether this is a declaration.
    pub decl: bool,
}

const fn op(code: u16, name: &'static str, layout: &'static str, ty: Ty) -> OpInfo {
    OpInfo {
        code,
        name,
        layout,
        ty,
        test: false,
        decl: false,
    }
}

const fn cond(code: u16, name: &'static str, layout: &'static str) -> OpInfo {
    OpInfo {
        code,
        name,
        layout,
        ty: Ty::U,
        test: true,
        decl: false,
    }
}

const fn dcl(code: u16, name: &'static str, layout: &'static str) -> OpInfo {
    OpInfo {
        code,
        name,
        layout,
        ty: Ty::U,
        test: false,
        decl: true,
    }
}

use Ty::{D, F, I, U, X};

/// Every opcode, sorted by number.
pub const OPCODES: &[OpInfo] = &[
    op(0, "add", "dss", F),
    op(1, "and", "dss", U),
    op(2, "break", "", U),
    cond(3, "breakp", "s"),
    op(4, "call", "s", U),
    cond(5, "callc", "ss"),
    op(6, "case", "s", U),
    op(7, "continue", "", U),
    cond(8, "continuec", "s"),
    op(9, "cut", "", U),
    op(10, "default", "", U),
    op(11, "deriv_rtx", "ds", F),
    op(12, "deriv_rty", "ds", F),
    cond(13, "discard", "s"),
    op(14, "div", "dss", F),
    op(15, "dp2", "dss", F),
    op(16, "dp3", "dss", F),
    op(17, "dp4", "dss", F),
    op(18, "else", "", U),
    op(19, "emit", "", U),
    op(20, "emit_then_cut", "", U),
    op(21, "endif", "", U),
    op(22, "endloop", "", U),
    op(23, "endswitch", "", U),
    op(24, "eq", "dss", F),
    op(25, "exp", "ds", F),
    op(26, "frc", "ds", F),
    op(27, "ftoi", "ds", F),
    op(28, "ftou", "ds", F),
    op(29, "ge", "dss", F),
    op(30, "iadd", "dss", I),
    cond(31, "if", "s"),
    op(32, "ieq", "dss", I),
    op(33, "ige", "dss", I),
    op(34, "ilt", "dss", I),
    op(35, "imad", "dsss", I),
    op(36, "imax", "dss", I),
    op(37, "imin", "dss", I),
    op(38, "imul", "ddss", I),
    op(39, "ine", "dss", I),
    op(40, "ineg", "ds", I),
    op(41, "ishl", "dss", I),
    op(42, "ishr", "dss", I),
    op(43, "itof", "ds", I),
    op(44, "label", "s", U),
    op(45, "ld", "dss", I),
    op(46, "ld2dms", "dsss", I),
    op(47, "log", "ds", F),
    op(48, "loop", "", U),
    op(49, "lt", "dss", F),
    op(50, "mad", "dsss", F),
    op(51, "min", "dss", F),
    op(52, "max", "dss", F),
    op(53, "dcl_immediateConstantBuffer", "c", X),
    op(54, "mov", "ds", X),
    op(55, "movc", "dsss", X),
    op(56, "mul", "dss", F),
    op(57, "ne", "dss", F),
    op(58, "nop", "", U),
    op(59, "not", "ds", U),
    op(60, "or", "dss", U),
    op(61, "resinfo", "dss", U),
    op(62, "ret", "", U),
    cond(63, "retp", "s"),
    op(64, "round_ne", "ds", F),
    op(65, "round_ni", "ds", F),
    op(66, "round_pi", "ds", F),
    op(67, "round_z", "ds", F),
    op(68, "rsq", "ds", F),
    op(69, "sample", "dsss", F),
    op(70, "sample_c", "dssss", F),
    op(71, "sample_c_lz", "dssss", F),
    op(72, "sample_l", "dssss", F),
    op(73, "sample_d", "dsssss", F),
    op(74, "sample_b", "dssss", F),
    op(75, "sqrt", "ds", F),
    op(76, "switch", "s", I),
    op(77, "sincos", "dds", F),
    op(78, "udiv", "ddss", U),
    op(79, "ult", "dss", U),
    op(80, "uge", "dss", U),
    op(81, "umul", "ddss", U),
    op(82, "umad", "dsss", U),
    op(83, "umax", "dss", U),
    op(84, "umin", "dss", U),
    op(85, "ushr", "dss", U),
    op(86, "utof", "ds", U),
    op(87, "xor", "dss", U),
    dcl(88, "dcl_resource", "su"),
    dcl(89, "dcl_constantBuffer", "s"),
    dcl(90, "dcl_sampler", "s"),
    dcl(91, "dcl_index_range", "du"),
    dcl(92, "dcl_outputtopology", ""),
    dcl(93, "dcl_inputprimitive", ""),
    dcl(94, "dcl_vertices_out", "u"),
    dcl(95, "dcl_input", "d"),
    dcl(96, "dcl_input_sgv", "du"),
    dcl(97, "dcl_input_siv", "du"),
    dcl(98, "dcl_input_ps", "d"),
    dcl(99, "dcl_input_ps_sgv", "du"),
    dcl(100, "dcl_input_ps_siv", "du"),
    dcl(101, "dcl_output", "d"),
    dcl(102, "dcl_output_sgv", "du"),
    dcl(103, "dcl_output_siv", "du"),
    dcl(104, "dcl_temps", "u"),
    dcl(105, "dcl_indexableTemp", "uuu"),
    dcl(106, "dcl_globalFlags", ""),
    op(108, "lod", "dsss", F),
    op(109, "gather4", "dsss", F),
    op(110, "sample_pos", "dss", U),
    op(111, "sample_info", "ds", U),
    dcl(113, "hs_decls", ""),
    dcl(114, "hs_control_point_phase", ""),
    dcl(115, "hs_fork_phase", ""),
    dcl(116, "hs_join_phase", ""),
    op(117, "emit_stream", "s", U),
    op(118, "cut_stream", "s", U),
    op(119, "emit_then_cut_stream", "s", U),
    op(120, "fcall", "us", U),
    op(121, "bufinfo", "ds", U),
    op(122, "deriv_rtx_coarse", "ds", F),
    op(123, "deriv_rtx_fine", "ds", F),
    op(124, "deriv_rty_coarse", "ds", F),
    op(125, "deriv_rty_fine", "ds", F),
    op(126, "gather4_c", "dssss", F),
    op(127, "gather4_po", "dssss", F),
    op(128, "gather4_po_c", "dsssss", F),
    op(129, "rcp", "ds", F),
    op(130, "f32tof16", "ds", F),
    op(131, "f16tof32", "ds", U),
    op(132, "uaddc", "ddss", U),
    op(133, "usubb", "ddss", U),
    op(134, "countbits", "ds", U),
    op(135, "firstbit_hi", "ds", U),
    op(136, "firstbit_lo", "ds", U),
    op(137, "firstbit_shi", "ds", I),
    op(138, "ubfe", "dsss", U),
    op(139, "ibfe", "dsss", I),
    op(140, "bfi", "dssss", U),
    op(141, "bfrev", "ds", U),
    op(142, "swapc", "ddsss", X),
    dcl(143, "dcl_stream", "s"),
    dcl(144, "dcl_function_body", "u"),
    dcl(145, "dcl_function_table", "*"),
    dcl(146, "dcl_interface", "*"),
    dcl(147, "dcl_input_control_point_count", ""),
    dcl(148, "dcl_output_control_point_count", ""),
    dcl(149, "dcl_tessellator_domain", ""),
    dcl(150, "dcl_tessellator_partitioning", ""),
    dcl(151, "dcl_tessellator_output_primitive", ""),
    dcl(152, "dcl_hs_max_tessfactor", "u"),
    dcl(153, "dcl_hs_fork_phase_instance_count", "u"),
    dcl(154, "dcl_hs_join_phase_instance_count", "u"),
    dcl(155, "dcl_thread_group", "uuu"),
    dcl(156, "dcl_uav_typed", "su"),
    dcl(157, "dcl_uav_raw", "s"),
    dcl(158, "dcl_uav_structured", "su"),
    dcl(159, "dcl_tgsm_raw", "su"),
    dcl(160, "dcl_tgsm_structured", "suu"),
    dcl(161, "dcl_resource_raw", "s"),
    dcl(162, "dcl_resource_structured", "su"),
    op(163, "ld_uav_typed", "dss", U),
    op(164, "store_uav_typed", "dss", U),
    op(165, "ld_raw", "dss", U),
    op(166, "store_raw", "dss", X),
    op(167, "ld_structured", "dsss", U),
    op(168, "store_structured", "dsss", X),
    op(169, "atomic_and", "dss", U),
    op(170, "atomic_or", "dss", U),
    op(171, "atomic_xor", "dss", U),
    op(172, "atomic_cmp_store", "dsss", U),
    op(173, "atomic_iadd", "dss", I),
    op(174, "atomic_imax", "dss", I),
    op(175, "atomic_imin", "dss", I),
    op(176, "atomic_umax", "dss", U),
    op(177, "atomic_umin", "dss", U),
    op(178, "imm_atomic_alloc", "ds", U),
    op(179, "imm_atomic_consume", "ds", U),
    op(180, "imm_atomic_iadd", "ddss", I),
    op(181, "imm_atomic_and", "ddss", U),
    op(182, "imm_atomic_or", "ddss", U),
    op(183, "imm_atomic_xor", "ddss", U),
    op(184, "imm_atomic_exch", "ddss", U),
    op(185, "imm_atomic_cmp_exch", "ddsss", U),
    op(186, "imm_atomic_imax", "ddss", I),
    op(187, "imm_atomic_imin", "ddss", I),
    op(188, "imm_atomic_umax", "ddss", U),
    op(189, "imm_atomic_umin", "ddss", U),
    op(190, "sync", "", U),
    op(191, "dadd", "dss", D),
    op(192, "dmax", "dss", D),
    op(193, "dmin", "dss", D),
    op(194, "dmul", "dss", D),
    op(195, "deq", "dss", D),
    op(196, "dge", "dss", D),
    op(197, "dlt", "dss", D),
    op(198, "dne", "dss", D),
    op(199, "dmov", "ds", D),
    op(200, "dmovc", "dsss", D),
    op(201, "dtof", "ds", D),
    op(202, "ftod", "ds", F),
    op(203, "eval_snapped", "dss", F),
    op(204, "eval_sample_index", "dss", F),
    op(205, "eval_centroid", "ds", F),
    dcl(206, "dcl_gs_instances", "u"),
    op(207, "abort", "", U),
    op(208, "debug_break", "", U),
    op(210, "ddiv", "dss", D),
    op(211, "dfma", "dsss", D),
    op(212, "drcp", "ds", D),
    op(213, "msad", "dsss", U),
    op(214, "dtoi", "ds", D),
    op(215, "dtou", "ds", D),
    op(216, "itod", "ds", I),
    op(217, "utod", "ds", U),
];

/// The row of an opcode number.
pub fn info(code: u32) -> Option<&'static OpInfo> {
    OPCODES
        .binary_search_by_key(&code, |o| u32::from(o.code))
        .ok()
        .map(|i| &OPCODES[i])
}

/// The row of a disassembly name.
pub fn by_name(name: &str) -> Option<&'static OpInfo> {
    OPCODES.iter().find(|o| o.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_names_unique() {
        assert!(OPCODES.windows(2).all(|w| w[0].code < w[1].code));
        for o in OPCODES {
            assert_eq!(by_name(o.name).map(|r| r.code), Some(o.code));
        }
        assert_eq!(info(166).map(|o| o.name), Some("store_raw"));
    }
}
