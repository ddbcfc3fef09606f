//! Register and resource bounds: every register, slot and memory block an
//! instruction names is one the program declares and the runtime has.
//!
//! What stays legal because Direct3D defines it at run time (D3D11.3
//! functional spec, 7.5 "Constant Buffers" and 7.11.2 "Index Range"):
//! constant-buffer rows past the declared size, statically or dynamically
//! indexed (reads past the bound buffer return 0; the declared size is a
//! hint, 0 meaning unknown), and immediate-constant-buffer rows past its
//! end (the backend reads 0). Relative indices into `x#`, `v#` and `o#`
//! are checked per lane by the backend (out-of-range lanes read 0 and
//! write nothing), as are a lookup's slots chosen at run time
//! ([`crate::ir::SlotOffsets`]: any slot, declared or not, reads what is
//! bound there; past the runtime's slots, zeros).

use crate::ir::{
    AtomicOp, Dst, File, Inst, Program, Resource, SlotOffsets, Src, Stage, TESS_CB_SLOT,
};
use dxjit_runtime::abi::{CB_SLOTS, SAMPLER_SLOTS, SRV_SLOTS, UAV_SLOTS};

/// The register counts and declarations an instruction is checked against.
pub(super) struct Bounds<'p> {
    prog: &'p Program,
    inputs: u32,
    outputs: u32,
}

impl<'p> Bounds<'p> {
    /// The bounds `prog` declares.
    pub fn of(prog: &'p Program) -> Self {
        let outputs = prog
            .outputs
            .iter()
            .map(|r| r.reg.saturating_add(1))
            .chain(prog.depth_output.map(|r| r + 1))
            .max()
            .unwrap_or(0);
        Bounds {
            prog,
            inputs: prog.input_block_regs(),
            outputs,
        }
    }

    /// What register or resource of `inst` is out of bounds, if any.
    pub fn check(&self, inst: &Inst) -> Result<(), String> {
        for src in inst.sources() {
            self.src(src)?;
        }
        for dst in inst.destinations() {
            self.dst(dst)?;
        }
        self.resources(inst)
    }

    fn src(&self, src: &Src) -> Result<(), String> {
        self.register(src.file, src.index.base, src.index.rel.is_some())?;
        match &src.index.rel {
            Some(rel) => self.src(rel),
            None => Ok(()),
        }
    }

    fn dst(&self, dst: &Dst) -> Result<(), String> {
        if !matches!(
            dst.file,
            File::Temp | File::Indexable(_) | File::Output | File::Null
        ) {
            return Err(format!("{:?} cannot be written", dst.file));
        }
        self.register(dst.file, dst.index.base, dst.index.rel.is_some())?;
        match &dst.index.rel {
            Some(rel) => self.src(rel),
            None => Ok(()),
        }
    }

    /// Register `base` of `file` (plus a per-lane part when `relative`).
    fn register(&self, file: File, base: u32, relative: bool) -> Result<(), String> {
        let past = |what: &str, count: u32| {
            Err(format!(
                "{what}{base} is past the {count} the program declares"
            ))
        };
        match file {
            File::Temp if relative => Err(format!(
                "r{base} is indexed relatively; only x# registers are indexable"
            )),
            File::Temp if base >= self.prog.temps => past("r", self.prog.temps),
            File::Indexable(id) => {
                let Some(x) = self.prog.indexables.iter().find(|x| x.id == id) else {
                    return Err(format!("x{id} is not declared"));
                };
                if !relative && base >= x.count {
                    return Err(format!("x{id}[{base}] is past its {} registers", x.count));
                }
                Ok(())
            }
            File::Input if !relative && base >= self.inputs => past("v", self.inputs),
            File::Output if !relative && base >= self.outputs => past("o", self.outputs),
            File::Const(slot) => self.constant_buffer(slot),
            _ => Ok(()),
        }
    }

    /// A constant-buffer slot the program declares; hull and domain
    /// shaders also read the per-patch buffer at [`TESS_CB_SLOT`].
    fn constant_buffer(&self, slot: u32) -> Result<(), String> {
        let tess = matches!(self.prog.stage, Stage::Hull | Stage::Domain) && slot == TESS_CB_SLOT;
        if slot as usize >= CB_SLOTS {
            return Err(format!("cb{slot}: the runtime has {CB_SLOTS} slots"));
        }
        if !tess && !self.prog.cbs.iter().any(|c| c.slot == slot) {
            return Err(format!("cb{slot} is not declared"));
        }
        Ok(())
    }

    /// The resources, samplers and group-shared blocks `inst` names.
    fn resources(&self, inst: &Inst) -> Result<(), String> {
        match inst {
            Inst::LoadRaw { res, .. } | Inst::LoadStructured { res, .. } => self.memory(*res),
            Inst::StoreRaw { res, .. } | Inst::StoreStructured { res, .. } => {
                self.writable(*res)?;
                self.memory(*res)
            }
            Inst::Atomic {
                op, res, compare, ..
            } => {
                if (*op == AtomicOp::CompareExchange) != compare.is_some() {
                    return Err(format!(
                        "{op:?} with{} a comparison value",
                        if compare.is_some() { "" } else { "out" }
                    ));
                }
                self.writable(*res)?;
                self.memory(*res)
            }
            Inst::StoreTyped { res, .. } => {
                self.writable(*res)?;
                self.view(*res)
            }
            Inst::LoadTyped { res, .. }
            | Inst::BufInfo { res, .. }
            | Inst::ResInfo { res, .. }
            | Inst::UavCounter { res, .. } => self.view(*res),
            Inst::Sample {
                res,
                sampler,
                slots,
                ..
            }
            | Inst::Gather {
                res,
                sampler,
                slots,
                ..
            }
            | Inst::QueryLod {
                res,
                sampler,
                slots,
                ..
            } => self.lookup(*res, *sampler, slots.as_deref()),
            Inst::Fetch { res, slots, .. } => match slots.as_deref() {
                None => self.srv(*res),
                Some(s) if s.sampler.is_some() => Err("a texel fetch has no sampler".into()),
                Some(s) if s.texture.is_none() => self.srv(*res),
                Some(_) => Ok(()),
            },
            Inst::LoadSample { res, .. } => self.srv(*res),
            Inst::SampleInfo { res, .. } | Inst::SamplePos { res, .. } => match res {
                Some(res) => self.srv(*res),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// A view or a group-shared block, for raw and structured access.
    fn memory(&self, res: Resource) -> Result<(), String> {
        match res {
            Resource::Tgsm(id) => self.tgsm(id),
            _ => self.view(res),
        }
    }

    /// Stores and atomics go to UAVs and group-shared memory, never SRVs.
    fn writable(&self, res: Resource) -> Result<(), String> {
        match res {
            Resource::Srv(s) => Err(format!("t{s} is read-only")),
            _ => Ok(()),
        }
    }

    /// A declared SRV or UAV inside the runtime's slots.
    fn view(&self, res: Resource) -> Result<(), String> {
        match res {
            Resource::Srv(s) => self.srv(s),
            Resource::Uav(u) => {
                if u as usize >= UAV_SLOTS {
                    return Err(format!("u{u}: the runtime has {UAV_SLOTS} UAV slots"));
                }
                match self.prog.uavs.iter().any(|d| d.slot == u) {
                    true => Ok(()),
                    false => Err(format!("u{u} is not declared")),
                }
            }
            Resource::Tgsm(id) => Err(format!("g{id} is group-shared memory, not a view")),
        }
    }

    fn srv(&self, s: u32) -> Result<(), String> {
        if s as usize >= SRV_SLOTS {
            return Err(format!("t{s}: the runtime has {SRV_SLOTS} SRV slots"));
        }
        match self.prog.srvs.iter().any(|d| d.slot == s) {
            true => Ok(()),
            false => Err(format!("t{s} is not declared")),
        }
    }

    /// A lookup's texture and sampler: the ones fixed in the instruction
    /// declared and inside the runtime's slots, those chosen per lane any.
    fn lookup(&self, res: u32, sampler: u32, slots: Option<&SlotOffsets>) -> Result<(), String> {
        if slots.is_none_or(|s| s.texture.is_none()) {
            self.srv(res)?;
        }
        match slots.is_none_or(|s| s.sampler.is_none()) {
            true => self.sampler(sampler),
            false => Ok(()),
        }
    }

    fn sampler(&self, s: u32) -> Result<(), String> {
        match (s as usize) < SAMPLER_SLOTS {
            true => Ok(()),
            false => Err(format!(
                "s{s}: the runtime has {SAMPLER_SLOTS} sampler slots"
            )),
        }
    }

    /// A declared group-shared block, in a compute shader.
    fn tgsm(&self, id: u32) -> Result<(), String> {
        if self.prog.stage != Stage::Compute {
            return Err(format!(
                "g{id}: group-shared memory exists only in compute shaders"
            ));
        }
        match self.prog.tgsm.iter().any(|d| d.id == id) {
            true => Ok(()),
            false => Err(format!("g{id} is not declared")),
        }
    }
}

#[cfg(test)]
mod tests;
