//! What a shader declares beyond its IR program: the element types of its
//! typed views and signatures, and its samplers with their modes. The IR
//! keeps slots, sizes and dimensions; the bindings need these too.

use std::collections::BTreeMap;

use dxjit::dxbc::{Container, SignatureElement};
use dxjit::ir::Program;
use dxjit::sm4::decode;

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
    /// The type of a DXBC resource return type (`D3D10_SB_RESOURCE_RETURN_TYPE`).
    fn of_return_type(code: u32) -> Self {
        match code {
            3 => ElementType::Sint,
            4 => ElementType::Uint,
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
                let first = ins.words.first().copied().unwrap_or(5) & 0xf;
                ElementType::of_return_type(first)
            };
            match ins.info.code {
                88 => {
                    declared.srv_types.insert(slot, element());
                }
                156 => {
                    declared.uav_types.insert(slot, element());
                }
                90 => {
                    declared.samplers.insert(slot, ins.controls() & 0xf == 1);
                }
                _ => {}
            }
        }
        Ok(declared)
    }
}
