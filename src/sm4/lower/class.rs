//! SM5 class linkage: `dcl_function_body`, `dcl_function_table`,
//! `dcl_interface`, `fcall`, `label fb#` bodies, the `this` register, and
//! constant-buffer, texture and sampler operands whose slot is indexed
//! relatively (how class methods reach their instance's data).
//!
//! An `fcall fpN[i][site]` reads the function table bound to interface
//! slot `N + i` from the class-instance constant buffer
//! ([`crate::ir::class`]) and switches on it: each table the interface
//! lists is a case that calls that table's body for `site`. Lanes whose
//! slot holds no listed table call nothing. Function bodies are
//! subroutines whose labels are [`body_label`] of their number, apart from
//! the `l#` labels of `call`.

use std::collections::{BTreeMap, BTreeSet};

use super::Lowerer;
use crate::ir::class::{InterfaceDecl, CLASS_CB_SLOT, MAX_SLOTS, ROWS, TABLE_ROW};
use crate::ir::{AluOp, CbDecl, File, Index, Inst, Src};
use crate::sm4::decode::{Instruction, OpIndex, Operand};
use crate::sm4::encoding::IndexRepresentation;
use crate::sm4::fields::{INTERFACE_ARRAY_SIZE, INTERFACE_TABLE_COUNT};
use crate::sm4::opcodes::Opcode as O;
use crate::sm4::registers::OperandType as T;
use crate::sm4::Sm4Error;
use dxjit_runtime::abi::SAMPLER_SLOTS;

/// Whether `op` is a lookup whose texture and sampler slots may be
/// indexed per lane in the IR: `sample*`, `ld`, `gather4*` and `lod`.
fn is_lookup(op: O) -> bool {
    matches!(
        op,
        O::Sample
            | O::SampleC
            | O::SampleCLz
            | O::SampleL
            | O::SampleB
            | O::SampleD
            | O::Ld
            | O::Gather4
            | O::Gather4C
            | O::Gather4Po
            | O::Gather4PoC
            | O::Lod
    )
}

/// The IR label of function body `fb<n>`.
pub(super) fn body_label(n: u32) -> u32 {
    0x8000_0000 | n
}

/// What the class-linkage declarations said.
#[derive(Default)]
pub(super) struct ClassDecls {
    /// `dcl_function_body`: the declared bodies.
    bodies: BTreeSet<u32>,
    /// `dcl_function_table`: each table's bodies, by call site.
    tables: BTreeMap<u32, Vec<u32>>,
    /// The labels `label fb#` has started.
    defined: BTreeSet<u32>,
    /// Set while lowering a case of [`Lowerer::dynamic_slot`] for a sampler
    /// slot the shader does not declare: it reads the slot as bound.
    undeclared_sampler: bool,
}

impl ClassDecls {
    /// Whether a sampler operand may name an undeclared slot here.
    pub(super) fn reaches_undeclared_sampler(&self) -> bool {
        self.undeclared_sampler
    }
}

impl Lowerer {
    /// Lowers a class-linkage declaration; `false` for other opcodes.
    pub(super) fn class_declaration(&mut self, ins: &Instruction) -> Result<bool, Sm4Error> {
        let w = &ins.words;
        match ins.opcode() {
            O::DclFunctionBody => {
                let fb = *w.first().ok_or_else(|| self.err("no body number"))?;
                self.class.bodies.insert(fb);
            }
            O::DclFunctionTable => {
                let (id, count) = match w.as_slice() {
                    [id, count, ..] => (*id, *count as usize),
                    _ => return Err(self.err("a function table needs its number and length")),
                };
                if w.len() != count + 2 {
                    return Err(self.err(format!(
                        "ft{id} says {count} bodies and lists {}",
                        w.len() - 2
                    )));
                }
                if let Some(fb) = w[2..].iter().find(|b| !self.class.bodies.contains(b)) {
                    return Err(self.err(format!("ft{id} lists fb{fb}, which is not declared")));
                }
                if self.class.tables.insert(id, w[2..].to_vec()).is_some() {
                    return Err(self.err(format!("ft{id} is declared twice")));
                }
            }
            O::DclInterface => self.interface(ins)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn interface(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let (first, call_sites, packed) = match ins.words.as_slice() {
            [a, b, c, ..] => (*a, *b, *c),
            _ => return Err(self.err("an interface needs its number, call sites and sizes")),
        };
        let tables = ins.words[3..].to_vec();
        if tables.len() != INTERFACE_TABLE_COUNT.get(packed) as usize {
            return Err(self.err(format!(
                "fp{first} says {} tables and lists {}",
                INTERFACE_TABLE_COUNT.get(packed),
                tables.len()
            )));
        }
        for t in &tables {
            match self.class.tables.get(t) {
                None => {
                    return Err(self.err(format!("fp{first} lists ft{t}, which is not declared")))
                }
                Some(b) if b.len() != call_sites as usize => {
                    return Err(self.err(format!(
                        "fp{first} has {call_sites} call sites; ft{t} fills {}",
                        b.len()
                    )))
                }
                Some(_) => {}
            }
        }
        let count = INTERFACE_ARRAY_SIZE.get(packed);
        let end = first.saturating_add(count);
        if end > MAX_SLOTS {
            return Err(self.err(format!(
                "fp{first}[{count}] reaches interface slot {end}; D3D11 allows {MAX_SLOTS}"
            )));
        }
        if let Some(o) = self
            .prog
            .interfaces
            .iter()
            .find(|o| o.first < end && first < o.first + o.count)
        {
            return Err(self.err(format!(
                "fp{first}[{count}] overlaps fp{}[{}]",
                o.first, o.count
            )));
        }
        if self.prog.interfaces.is_empty() {
            self.prog.cbs.push(CbDecl {
                slot: CLASS_CB_SLOT,
                rows: ROWS,
            });
        }
        self.prog.interfaces.push(InterfaceDecl {
            first,
            count,
            call_sites,
            tables,
        });
        Ok(())
    }

    /// `fcall fpN[i][site]`: a switch on the table bound to slot `N + i`.
    pub(super) fn fcall(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let site = ins.words.first().copied().unwrap_or(0);
        let fp = self.operand(ins, 0)?;
        if !fp.is(T::Interface) || fp.indices.len() != 2 {
            return Err(self.err("fcall needs an fp#[index] operand"));
        }
        let first = self.index(fp.indices.first())?.base;
        let element = self.index(fp.indices.get(1))?;
        let iface = self
            .prog
            .interfaces
            .iter()
            .find(|i| i.first == first)
            .cloned()
            .ok_or_else(|| self.err(format!("fp{first} is not declared")))?;
        if site >= iface.call_sites {
            return Err(self.err(format!(
                "call site {site} of fp{first}, which has {}",
                iface.call_sites
            )));
        }
        if element.rel.is_none() && element.base >= iface.count {
            return Err(self.err(format!(
                "fp{first}[{}] is past its array of {}",
                element.base, iface.count
            )));
        }
        let sel = Src {
            file: File::Const(CLASS_CB_SLOT),
            index: Index {
                base: TABLE_ROW + first + element.base,
                rel: element.rel,
            },
            swizzle: [0; 4],
            neg: false,
            abs: false,
            imm: [0; 4],
        };
        self.emit(Inst::Switch { sel });
        let mut seen = BTreeSet::new();
        for t in iface.tables.iter().filter(|t| seen.insert(**t)) {
            let body = self
                .class
                .tables
                .get(t)
                .and_then(|b| b.get(site as usize))
                .copied()
                .ok_or_else(|| self.err(format!("ft{t} has no body for call site {site}")))?;
            self.emit(Inst::Case(t.wrapping_add(1)));
            self.emit(Inst::Call {
                label: body_label(body),
            });
            self.emit(Inst::Break);
        }
        self.emit(Inst::EndSwitch);
        Ok(())
    }

    /// `label fb<n>`: starts the subroutine of function body `n`.
    pub(super) fn body_start(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let n = self.index(self.operand(ins, 0)?.indices.first())?.base;
        if !self.class.bodies.contains(&n) {
            return Err(self.err(format!("label fb{n}: fb{n} is not declared")));
        }
        self.class.defined.insert(n);
        self.start_label(body_label(n))
    }

    /// Refuses a program whose interfaces can reach a body it never
    /// defines (an `fcall` to a table slot with no body).
    pub(super) fn finish_class(&self) -> Result<(), Sm4Error> {
        for i in &self.prog.interfaces {
            for t in &i.tables {
                if let Some(fb) = self.class.tables[t]
                    .iter()
                    .find(|b| !self.class.defined.contains(b))
                {
                    return Err(self.err(format!(
                        "fp{} can call ft{t}'s fb{fb}, which has no body (label fb{fb})",
                        i.first
                    )));
                }
            }
        }
        Ok(())
    }

    /// A lookup's texture or sampler operand: its slot, and the per-lane
    /// offset a register adds to it (`t[this[0].z + 1]`: slot 1, offset
    /// `this[0].z`). A class instance's slots are API slots, declared or
    /// not (dxbc-spirv gives such an operand the whole register space of
    /// its kind), so an indexed slot reads whatever is bound there at run
    /// time ([`crate::ir::SlotOffsets`]); a fixed one must be declared.
    pub(super) fn lookup_slot(&self, op: &Operand) -> Result<(u32, Option<Src>), Sm4Error> {
        let ix = self.index(op.indices.first())?;
        match (ix.rel, op.register()) {
            (Some(rel), Some(T::Resource | T::Sampler)) => Ok((ix.base, Some(*rel))),
            (_, Some(T::Sampler)) => Ok((self.sampler(op)?, None)),
            _ => Ok((self.srv(op)?.0, None)),
        }
    }

    /// Lowers an instruction with a constant-buffer, texture or sampler
    /// operand whose slot is indexed relatively (`cb[this[0].y][2]`) as a
    /// switch on the slot, each case the instruction with the slot fixed;
    /// `false` when it has none. The lookups `sample*`, `ld`, `gather4*`
    /// and `lod` index their texture and sampler per lane instead
    /// ([`Lowerer::lookup_slot`]).
    ///
    /// A class instance's slots are API slots, declared or not (dxbc-spirv
    /// gives such an operand the whole register space of its kind). So the
    /// cases are every sampler slot D3D11 has, and the declared constant
    /// buffers and textures; for the other instructions that name a
    /// texture (`resinfo`, `ld_raw`, `ld2dms`, ...) a texture slot
    /// the shader does not declare reads as an unbound one (0 in every
    /// component), as do sampler slots past D3D11's 16. A constant-buffer
    /// slot it does not declare leaves the destination as it was.
    pub(super) fn dynamic_slot(&mut self, ins: &Instruction) -> Result<bool, Sm4Error> {
        let lookup = is_lookup(ins.opcode());
        let found = ins.operands.iter().enumerate().find(|(_, o)| {
            let switched = match o.register() {
                Some(T::ConstantBuffer) => true,
                Some(T::Resource | T::Sampler) => !lookup,
                _ => false,
            };
            switched && o.indices.first().is_some_and(|i| i.rel.is_some())
        });
        let Some((k, op)) = found else {
            return Ok(false);
        };
        let ix = self.index(op.indices.first())?;
        let (slots, unbound_reads_zero): (Vec<u32>, bool) = match op.register() {
            Some(T::ConstantBuffer) => (
                self.prog
                    .cbs
                    .iter()
                    .map(|c| c.slot)
                    .filter(|&s| s != CLASS_CB_SLOT)
                    .collect(),
                false,
            ),
            Some(T::Resource) => (self.prog.srvs.iter().map(|r| r.slot).collect(), true),
            _ => ((0..SAMPLER_SLOTS as u32).collect(), true),
        };
        let rel = ix
            .rel
            .ok_or_else(|| self.err("relative slot without its register"))?;
        self.emit(Inst::Switch { sel: *rel });
        for s in slots {
            self.emit(Inst::Case(s.wrapping_sub(ix.base)));
            let mut fixed = ins.clone();
            fixed.operands[k].indices[0] = OpIndex {
                repr: IndexRepresentation::Immediate32.code(),
                value: u64::from(s),
                rel: None,
            };
            let declared = self.class.undeclared_sampler;
            self.class.undeclared_sampler = op.is(T::Sampler) && !self.samplers.contains(&s);
            let lowered = self.instruction(&fixed);
            self.class.undeclared_sampler = declared;
            lowered?;
            self.emit(Inst::Break);
        }
        if unbound_reads_zero {
            let dst = self.dst(self.operand(ins, 0)?, false)?;
            self.emit(Inst::Default);
            self.emit(Inst::Alu {
                op: AluOp::Mov,
                dst,
                src: vec![Src::splat(0)],
            });
            self.emit(Inst::Break);
        }
        self.emit(Inst::EndSwitch);
        Ok(true)
    }
}
