//! A compiled function as position-independent bytes: the machine code
//! Cranelift produced and the relocations still to apply to it, so that the
//! same code can be stored and loaded elsewhere without Cranelift.

use cranelift_codegen::binemit::Reloc;
use cranelift_codegen::ir::{ExternalName, Function, UserExternalName};
use cranelift_codegen::{CompiledCode, FinalizedRelocTarget};

/// How a relocation writes its target's address into the code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelocKind {
    /// The absolute address, 8 bytes.
    Abs8,
    /// The address relative to the patched position, 4 signed bytes.
    PcRel4,
}

/// What a relocation points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RelocTarget {
    /// A runtime helper or libcall, by symbol name.
    Symbol(String),
    /// The shader's immediate constant buffer.
    Icb,
}

/// One address to patch into the code once it is placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relocation {
    /// Byte offset in the code.
    pub offset: u32,
    /// How the address is written.
    pub kind: RelocKind,
    /// What the address is of.
    pub target: RelocTarget,
    /// Added to the target's address.
    pub addend: i64,
}

/// Machine code before relocation, with the data it points at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Image {
    /// The code bytes, constant pool included.
    pub code: Vec<u8>,
    /// The addresses to patch into `code`.
    pub relocs: Vec<Relocation>,
    /// The immediate constant buffer the code reads ([`RelocTarget::Icb`]).
    pub icb: Vec<[u32; 4]>,
}

/// The module namespace of functions (`FuncId`s) in Cranelift's module crate.
const FUNCTION_NAMESPACE: u32 = 0;
/// The module namespace of data objects (`DataId`s).
const DATA_NAMESPACE: u32 = 1;

impl Image {
    /// The image of `code`, compiled from `func` in a module where the
    /// function ids `helpers` name runtime helpers and the data id `icb`
    /// holds the immediate constant buffer `rows`. `None` when a relocation
    /// is of a kind or target the loader does not handle.
    pub(crate) fn of(
        code: &CompiledCode,
        func: &Function,
        helpers: &[(&'static str, u32)],
        icb: u32,
        rows: &[[u32; 4]],
    ) -> Option<Image> {
        let names = func.params.user_named_funcs();
        let libcall_name = cranelift_module::default_libcall_names();
        let relocs = code
            .buffer
            .relocs()
            .iter()
            .map(|r| {
                let kind = match r.kind {
                    Reloc::Abs8 => RelocKind::Abs8,
                    Reloc::X86PCRel4 | Reloc::X86CallPCRel4 => RelocKind::PcRel4,
                    _ => return None,
                };
                let target = match &r.target {
                    FinalizedRelocTarget::ExternalName(ExternalName::User(user)) => {
                        match names.get(*user)? {
                            UserExternalName {
                                namespace: DATA_NAMESPACE,
                                index,
                            } if *index == icb => RelocTarget::Icb,
                            UserExternalName {
                                namespace: FUNCTION_NAMESPACE,
                                index,
                            } => {
                                let name = helpers.iter().find(|(_, id)| id == index)?.0;
                                RelocTarget::Symbol(name.to_string())
                            }
                            _ => return None,
                        }
                    }
                    FinalizedRelocTarget::ExternalName(ExternalName::LibCall(lc)) => {
                        RelocTarget::Symbol(libcall_name(*lc))
                    }
                    _ => return None,
                };
                Some(Relocation {
                    offset: r.offset,
                    kind,
                    target,
                    addend: r.addend,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Image {
            code: code.code_buffer().to_vec(),
            relocs,
            icb: rows.to_vec(),
        })
    }
}
