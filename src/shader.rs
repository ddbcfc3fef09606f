//! Compiling bytecode into a runnable shader.

use crate::error::Error;
use crate::ir::{Program, Stage};
use crate::jit::{self, Compiled, JitOptions, Listing};
use crate::{d3d9, dxbc, sm4};
use dxjit_runtime::dispatch::Kernel;

/// How to compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompileOptions {
    /// Reject DXBC containers whose checksum does not match.
    pub verify_checksum: bool,
    /// D3D9: the legacy "anything times 0 is 0" multiply (see [`d3d9::Options`]).
    pub legacy_mul: bool,
    /// Vectors of four lanes per register component; `None` picks the
    /// stage's default.
    pub k: Option<usize>,
    /// Keep the generated code as text ([`Shader::listing`]).
    pub listing: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            verify_checksum: true,
            legacy_mul: d3d9::Options::default().legacy_mul,
            k: None,
            listing: false,
        }
    }
}

/// The bytecode family a shader came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// A DXBC container with an SM4/SM5 program.
    Dxbc,
    /// A D3D9 (SM1-3) token stream.
    D3d9,
}

/// A compiled shader: its IR and native code. `Send + Sync`: compile once,
/// run from any thread.
pub struct Shader {
    /// Where it came from.
    pub family: Family,
    /// The program as the backend saw it.
    pub program: Program,
    compiled: Compiled,
}

/// Splits bytes into little-endian words.
pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u32, |w, (i, b)| w | (u32::from(*b) << (8 * i)))
        })
        .collect()
}

/// Decodes and lowers bytecode into IR.
pub fn lower(bytes: &[u8], options: &CompileOptions) -> Result<(Family, Program), Error> {
    if bytes.starts_with(b"DXBC") {
        let container = dxbc::Container::parse(bytes, options.verify_checksum)?;
        return Ok((Family::Dxbc, sm4::lower(&container)?));
    }
    if bytes.len() < 4 || !bytes.len().is_multiple_of(4) {
        return Err(Error::Unrecognised(format!(
            "{} bytes: not a DXBC container nor whole D3D9 tokens",
            bytes.len()
        )));
    }
    let decoded = d3d9::decode(&words(bytes))?;
    let program = d3d9::lower(
        &decoded,
        &d3d9::Options {
            legacy_mul: options.legacy_mul,
        },
    )?;
    Ok((Family::D3d9, program))
}

/// Compiles bytecode (a DXBC container or a D3D9 token stream) into native code.
pub fn compile(bytes: &[u8], options: &CompileOptions) -> Result<Shader, Error> {
    let (family, program) = lower(bytes, options)?;
    let mut jit_options = JitOptions::for_program(&program);
    jit_options.k = options.k.unwrap_or(jit_options.k);
    jit_options.listing = options.listing;
    let compiled = jit::compile(&program, jit_options)?;
    Ok(Shader {
        family,
        program,
        compiled,
    })
}

impl Shader {
    /// The stage the shader runs in.
    pub fn stage(&self) -> Stage {
        self.program.stage
    }

    /// What the runtime's dispatch loops need to run it.
    pub fn kernel(&self) -> Kernel {
        self.compiled.kernel(self.program.thread_group)
    }

    /// Microseconds spent in the backend.
    pub fn compile_us(&self) -> f64 {
        self.compiled.compile_us
    }

    /// The Cranelift IR and machine code, when compiled with
    /// [`CompileOptions::listing`].
    pub fn listing(&self) -> Option<&Listing> {
        self.compiled.listing.as_ref()
    }

    /// Bytes of machine code.
    pub fn code_size(&self) -> usize {
        self.compiled.code_size
    }
}
