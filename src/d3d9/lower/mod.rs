//! Lowering a decoded D3D9 shader into the IR.
//!
//! Register layout in the IR (the runtime and case runner rely on it):
//! - `r#` is `Temp #`; hidden state lives in temps from 32 up (see the
//!   constants below): ps_1_x `t#` copies, `a0`, `p0`, the texm3x* dot
//!   accumulator, per-depth loop counters and `aL`, then scratch temps.
//! - vs inputs `v#` and ps_3_0 inputs `v#` are `Input #`; ps_1_x/2_x `v#` are
//!   `Input #` (COLOR #) and `t#` are `Input 10+#` (TEXCOORD #).
//! - vs_1_x/2_x outputs: `oPos` 0, `oD0..1` 1..2, `oT0..7` 3..10, `oFog` 11,
//!   `oPts` 12; vs_3_0 `o#` is `Output #`; ps `oC#` is `Output #`, `oDepth` is
//!   `Output 8`.
//! - `c#` is `Const(0)` row #, `i#` is `Const(1)` row #, `b#` is `Const(2)`
//!   row # (x nonzero is true). The bump-environment matrix of stage n
//!   (texbem, texbeml, bem) is read from `Const(3)` row n as (m00, m01, m10,
//!   m11) and its luminance scale and offset from `Const(3)` row 8+n (x, y):
//!   the layout of [`super::bump::BumpEnvBlock`].

mod alu;
mod flow;
mod io;
mod operands;
mod tex;

use std::collections::BTreeMap;

use super::bump;
use super::error::D3d9Error;
use super::opcodes;
use super::opcodes::*;
use super::types::*;
use crate::ir::{self, Body, Dst, Inst, Pos, Program, Src, Stage, XYZW};

/// Lowering options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Use the "anything times 0 is 0" multiply for `mul`, `mad`, dot products
    /// and matrix products, as D3D9 hardware does for shader model 1-3.
    /// Default `true`: shaders written for D3D9 rely on it (e.g. `0 * inf`
    /// from a `rcp` of 0 must not turn into NaN).
    pub legacy_mul: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { legacy_mul: true }
    }
}

/// First temp holding ps_1_x texture registers `t#`.
const TEX_BASE: u32 = 32;
/// The address register `a0` (integers).
const ADDR: u32 = 40;
/// The predicate register `p0` (all ones / zero per component).
const PRED: u32 = 41;
/// Accumulated texm3x2/texm3x3 dot products (x, y, z).
const TEXM: u32 = 42;
/// Eye vector collected from texcoord w for texm3x3vspec.
const TEXM_EYE: u32 = 43;
/// First per-depth loop temp: depth d uses `LOOP_BASE + 2d` (counter) and `+1` (`aL`).
const LOOP_BASE: u32 = 44;
/// Deepest loop nesting supported.
const MAX_LOOP_DEPTH: u32 = 8;
/// First scratch temp.
const SCRATCH_BASE: u32 = LOOP_BASE + 2 * MAX_LOOP_DEPTH;
/// `oDepth`'s output register.
const DEPTH_OUT: u32 = 8;

/// Lowers a decoded shader into an IR program.
pub fn lower(shader: &Shader, options: &Options) -> Result<Program, D3d9Error> {
    let mut l = Lowerer::new(shader, *options);
    l.run()?;
    Ok(l.finish())
}

/// One declaration from a `dcl`.
#[derive(Debug, Clone, Copy)]
struct Decl {
    usage: u32,
    usage_index: u32,
    mask: u8,
    centroid: bool,
}

struct Lowerer<'a> {
    shader: &'a Shader,
    version: Version,
    options: Options,
    prog: Program,
    body: Body,
    label: Option<u32>,
    scratch: u32,
    max_temp: u32,
    loop_depth: u32,
    index: usize,
    offset: usize,
    /// The name of the instruction being lowered.
    opcode: &'static str,
    decls: BTreeMap<(RegType, u32), Vec<Decl>>,
    inputs: BTreeMap<u32, ir::IoReg>,
    outputs: BTreeMap<(u32, String), ir::IoReg>,
    rows: [u32; 3],
    relative_consts: bool,
    redirect: bool,
    pending: Vec<(Dst, u32)>,
    pad_count: u32,
    at_function_end: bool,
}

impl<'a> Lowerer<'a> {
    fn new(shader: &'a Shader, options: Options) -> Self {
        let stage = if shader.version.is_ps() {
            Stage::Pixel
        } else {
            Stage::Vertex
        };
        Lowerer {
            shader,
            version: shader.version,
            options,
            prog: Program {
                unbound_texture_alpha_one: true,
                ..Program::new(stage)
            },
            body: Body::new(),
            label: None,
            scratch: SCRATCH_BASE,
            max_temp: 0,
            loop_depth: 0,
            index: 0,
            offset: 0,
            opcode: "",
            decls: BTreeMap::new(),
            inputs: BTreeMap::new(),
            outputs: BTreeMap::new(),
            rows: [0; 3],
            relative_consts: false,
            redirect: false,
            pending: Vec::new(),
            pad_count: 0,
            at_function_end: false,
        }
    }

    fn err(&self, what: impl Into<String>) -> D3d9Error {
        D3d9Error::Lower {
            offset: self.offset,
            index: self.index,
            what: what.into(),
        }
    }

    /// Appends an IR instruction at the position of the instruction being
    /// lowered (the prologue takes the first instruction's, the epilogue
    /// the last one's).
    fn emit(&mut self, inst: Inst) {
        let pos = Pos {
            index: self.index as u32,
            offset: self.offset as u32 * 4,
            opcode: self.opcode,
        };
        self.body.push(inst, Some(pos));
    }

    /// Makes instruction `i` of `items` the one being lowered.
    fn enter(&mut self, i: usize, inst: &Instruction) {
        self.index = i;
        self.offset = inst.offset;
        self.opcode = opcodes::info(inst.opcode).map_or("", |info| info.name);
    }

    fn alu(&mut self, op: ir::AluOp, dst: Dst, src: Vec<Src>) {
        self.emit(Inst::Alu { op, dst, src });
    }

    /// A fresh scratch temp, alive until the end of the instruction (or co-issue group).
    fn tmp(&mut self) -> u32 {
        let t = self.scratch;
        self.scratch += 1;
        self.use_temp(t);
        t
    }

    fn use_temp(&mut self, t: u32) {
        self.max_temp = self.max_temp.max(t + 1);
    }

    fn ps1(&self) -> bool {
        self.version.is_ps() && self.version.major < 2
    }

    fn run(&mut self) -> Result<(), D3d9Error> {
        let shader = self.shader;
        let items: Vec<&Instruction> = shader.instructions().collect();
        for (i, inst) in items.iter().enumerate() {
            self.enter(i, inst);
            self.prepass(inst)?;
        }
        if let Some(first) = items.first() {
            self.enter(0, first);
        }
        self.prologue()?;
        if self.version.is_vs() && self.version.major >= 3 {
            // Every declared o# is an output, also when only written through o[aL].
            let declared: Vec<(u32, u8)> = self
                .decls
                .iter()
                .filter(|((ty, _), _)| *ty == RegType::Output)
                .map(|((_, n), d)| (*n, d.iter().fold(0, |m, d| m | d.mask)))
                .collect();
            for (n, mask) in declared {
                self.output(
                    Register {
                        ty: RegType::Output,
                        num: n,
                    },
                    mask,
                )?;
            }
        }
        for (i, inst) in items.iter().enumerate() {
            self.enter(i, inst);
            self.redirect = items.get(i + 1).is_some_and(|n| n.coissue);
            self.at_function_end = items.get(i + 1).is_none_or(|n| n.opcode == LABEL);
            self.instruction(inst)?;
            if !self.redirect {
                for (dst, s) in std::mem::take(&mut self.pending) {
                    self.alu(ir::AluOp::Mov, dst, vec![Src::temp(s)]);
                }
                self.scratch = SCRATCH_BASE;
            }
        }
        self.epilogue()?;
        self.end_function();
        Ok(())
    }

    /// Collects declarations and `def*` constants.
    fn prepass(&mut self, inst: &Instruction) -> Result<(), D3d9Error> {
        let Some(dst) = &inst.dst else { return Ok(()) };
        match (&inst.payload, inst.opcode) {
            (Payload::Dcl(token), _) => {
                let decl = Decl {
                    usage: token & 0x1F,
                    usage_index: (token >> 16) & 0xF,
                    mask: dst.mask,
                    centroid: dst.modifiers & MOD_CENTROID != 0,
                };
                self.decls
                    .entry((dst.reg.ty, dst.reg.num))
                    .or_default()
                    .push(decl);
                if dst.reg.ty == RegType::Sampler {
                    self.declare_sampler(dst.reg.num, (token >> 27) & 0xF);
                }
            }
            (Payload::Literal(words), op) => {
                let slot = match op {
                    DEF => 0,
                    DEFI => 1,
                    _ => 2,
                };
                let mut row = [0u32; 4];
                for (r, w) in row.iter_mut().zip(words) {
                    *r = *w;
                }
                let num = self.const_row(dst.reg)?;
                self.prog
                    .const_overrides
                    .retain(|(s, r, _)| !(*s == slot && *r == num));
                self.prog.const_overrides.push((slot, num, row));
            }
            _ => {}
        }
        Ok(())
    }

    fn const_row(&self, reg: Register) -> Result<u32, D3d9Error> {
        Ok(match reg.ty {
            RegType::Const | RegType::ConstInt | RegType::ConstBool => reg.num,
            RegType::Const2 => reg.num + 2048,
            RegType::Const3 => reg.num + 4096,
            RegType::Const4 => reg.num + 6144,
            _ => return Err(self.err("def of a non-constant register")),
        })
    }

    fn instruction(&mut self, inst: &Instruction) -> Result<(), D3d9Error> {
        match inst.opcode {
            NOP | DCL | DEF | DEFI | DEFB | PHASE => Ok(()),
            CALL | CALLNZ | LOOP | RET | ENDLOOP | LABEL | REP | ENDREP | IF | IFC | ELSE
            | ENDIF | BREAK | BREAKC | BREAKP | TEXKILL => self.flow(inst),
            TEXCOORD | TEX | TEXBEM | TEXBEML | TEXREG2AR | TEXREG2GB | TEXREG2RGB | TEXM3X2PAD
            | TEXM3X2TEX | TEXM3X3PAD | TEXM3X3TEX | TEXM3X3SPEC | TEXM3X3VSPEC | TEXDP3TEX
            | TEXM3X2DEPTH | TEXDP3 | TEXM3X3 | TEXDEPTH | BEM | TEXLDD | TEXLDL => {
                self.texture(inst)
            }
            _ => self.arith(inst),
        }
    }

    /// Starts a new function body at a label.
    fn start_function(&mut self, label: u32) {
        self.end_function();
        self.label = Some(label);
    }

    fn end_function(&mut self) {
        let mut body = std::mem::take(&mut self.body);
        match self.label {
            None => self.prog.main.append(&mut body),
            Some(l) => {
                if let Some((_, existing)) = self.prog.subroutines.iter_mut().find(|(x, _)| *x == l)
                {
                    existing.append(&mut body);
                } else {
                    self.prog.subroutines.push((l, body));
                }
            }
        }
    }

    fn finish(mut self) -> Program {
        self.prog.temps = self.max_temp;
        self.prog.inputs = std::mem::take(&mut self.inputs).into_values().collect();
        self.prog.outputs = std::mem::take(&mut self.outputs).into_values().collect();
        let max_rows = if self.version.is_vs() {
            256
        } else if self.version.major >= 3 {
            224
        } else {
            32
        };
        let mut cbs = Vec::new();
        let float_rows = if self.relative_consts {
            max_rows.max(self.rows[0])
        } else {
            self.rows[0]
        };
        for (slot, rows) in [float_rows, self.rows[1], self.rows[2]]
            .into_iter()
            .enumerate()
        {
            if rows > 0 {
                cbs.push(ir::CbDecl {
                    slot: slot as u32,
                    rows,
                });
            }
        }
        if let Some(rows) = self.bump_rows() {
            cbs.push(ir::CbDecl {
                slot: bump::BUMP_ENV_SLOT,
                rows,
            });
        }
        self.prog.cbs = cbs;
        self.prog
    }

    fn bump_rows(&self) -> Option<u32> {
        let uses = self
            .shader
            .instructions()
            .any(|i| matches!(i.opcode, TEXBEM | TEXBEML | BEM));
        uses.then_some(bump::ROWS as u32)
    }
}

#[cfg(test)]
mod tests;
