//! What a shader declares beyond its IR program: the element types of its
//! typed views and signatures, and its samplers with their modes. The IR
//! keeps slots, sizes and dimensions; the bindings need these too.

use std::collections::BTreeMap;

use dxjit::dxbc::{Container, SignatureElement};
use dxjit::ir::Program;
use dxjit::sm4::decode;
use dxjit::sm4::fields::SAMPLER_MODE;
use dxjit::sm4::names::{ReturnType, SamplerMode};
use dxjit::sm4::opcodes::Opcode;

/// The type of the elements a view returns or a register carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ElementType {
    /// Floats (also unorm, snorm and anything unknown).
    #[default]
    Float,
    /// Unsigned integers.
    Uint,
    /// Signed integers.
    Sint,
}

impl ElementType {
    /// The type of a DXBC resource return type.
    fn of_return_type(ty: Option<ReturnType>) -> Self {
        match ty {
            Some(ReturnType::Sint) => ElementType::Sint,
            Some(ReturnType::Uint) => ElementType::Uint,
            _ => ElementType::Float,
        }
    }

    /// The type of a signature element's component type (1 uint, 2 sint, 3 float).
    fn of_component_type(code: u32) -> Self {
        match code {
            1 => ElementType::Uint,
            2 => ElementType::Sint,
            _ => ElementType::Float,
        }
    }
}

/// A shader's declarations the bindings need beyond its [`Program`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Declared {
    /// Element type of each typed SRV by slot (absent: float).
    pub srv_types: BTreeMap<u32, ElementType>,
    /// Element type of each typed UAV by slot (absent: float).
    pub uav_types: BTreeMap<u32, ElementType>,
    /// Every sampler slot, true for a comparison sampler.
    pub samplers: BTreeMap<u32, bool>,
    /// Element type of each input register (absent: float).
    pub input_types: BTreeMap<u32, ElementType>,
    /// Element type of each output register (absent: float).
    pub output_types: BTreeMap<u32, ElementType>,
}

/// Element types of a signature's registers.
fn register_types(elements: &[SignatureElement]) -> BTreeMap<u32, ElementType> {
    elements
        .iter()
        .map(|e| (e.register, ElementType::of_component_type(e.component_type)))
        .collect()
}

impl Declared {
    /// Reads the declarations of bytecode `bytes`, which lowered to `program`.
    /// D3D9 shaders have only float views and registers; their samplers are
    /// the program's texture slots.
    pub fn of(bytes: &[u8], program: &Program) -> Result<Declared, String> {
        if !bytes.starts_with(b"DXBC") {
            return Ok(Declared {
                samplers: program.srvs.iter().map(|s| (s.slot, false)).collect(),
                ..Declared::default()
            });
        }
        let container = Container::parse(bytes, false).map_err(|e| e.to_string())?;
        let tokens = container.program().ok_or("the container has no program")?;
        let shader = decode(tokens).map_err(|e| e.to_string())?;
        let mut declared = Declared {
            input_types: register_types(container.inputs()),
            output_types: register_types(container.outputs()),
            ..Declared::default()
        };
        for ins in shader.instructions.iter().filter(|i| i.info.decl) {
            let slot = ins.operands.first().and_then(|o| o.index(0)).unwrap_or(0) as u32;
            let element = || {
                let x = ins.words.first().copied().unwrap_or(0) & 0xf;
                ElementType::of_return_type(ReturnType::from_code(x))
            };
            match ins.opcode() {
                Opcode::DclResource => {
                    declared.srv_types.insert(slot, element());
                }
                Opcode::DclUavTyped => {
                    declared.uav_types.insert(slot, element());
                }
                Opcode::DclSampler => {
                    let mode = SamplerMode::from_code(ins.field(SAMPLER_MODE));
                    declared
                        .samplers
                        .insert(slot, mode == Some(SamplerMode::Comparison));
                }
                _ => {}
            }
        }
        Ok(declared)
    }
}
