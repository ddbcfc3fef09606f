//! Compiling bytecode into a runnable shader.

use crate::compile::{Spawner, Tier, TieredCode, UpgradeError};
use crate::disk_cache::{self, DiskCache, Lowering, Slot};
use crate::error::Error;
use crate::ir::{Program, Stage};
use crate::jit::{self, Compiled, JitError, JitOptions, Listing};
use crate::{d3d9, dxbc, sm4};
use dxjit_runtime::dispatch::Kernel;
use std::sync::OnceLock;

/// How to compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CompileOptions {
    /// Reject DXBC containers whose checksum does not match.
    pub verify_checksum: bool,
    /// D3D9: the legacy "anything times 0 is 0" multiply (see [`d3d9::Options`]).
    pub legacy_mul: bool,
    /// Vectors of four lanes per register component, at every tier; `None`
    /// picks the tier's default (the first tier: 1; the top tier: the
    /// stage's).
    pub k: Option<usize>,
    /// Keep the generated code as text ([`Shader::listing`]).
    pub listing: bool,
    /// Which code to compile, and when (default: [`Tier::Both`]).
    pub tier: Tier,
    /// Let the top tier hand lookups of the common case (2D `rgba8` or
    /// `bgra8` textures, point or linear, wrap or clamp, mip 0) to the
    /// runtime's 256-bit filter, sixteen lanes at once, on a CPU with
    /// AVX2 and FMA (default: true). The results are the same
    /// bit for bit; turn it off to measure or test the compiled filter.
    pub wide_sampling: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            verify_checksum: true,
            legacy_mul: d3d9::Options::default().legacy_mul,
            k: None,
            listing: false,
            tier: Tier::default(),
            wide_sampling: true,
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
/// run from any thread. Every tier's code stays alive as long as the shader.
///
/// A shader whose code came from the persistent cache has not been lowered:
/// what a call needs (stage, thread-group size, defined constants) was
/// stored with the code, and the IR is made from the kept bytecode the
/// first time [`Shader::program`] asks for it.
pub struct Shader {
    family: Family,
    program: OnceLock<Program>,
    source: Option<Source>,
    code: TieredCode,
}

/// The bytecode of a shader loaded from the cache, and how it was compiled:
/// enough to lower it when its IR is first needed.
struct Source {
    bytes: Vec<u8>,
    options: CompileOptions,
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

/// The backend options of one tier.
fn jit_options(program: &Program, options: &CompileOptions, tier: Tier) -> JitOptions {
    JitOptions {
        k: options.k.unwrap_or_else(|| match tier {
            // Stencils keep registers in memory, so more lanes spread each
            // piece's fixed cost; one count for every stage lets the stages
            // share their arithmetic stencils. The Cranelift first tier's
            // programs (hull and geometry shaders) compile fastest at one.
            Tier::First | Tier::Both if crate::jit::stencil_tier_takes(program) => {
                crate::jit::STENCIL_K
            }
            Tier::First | Tier::Both => 1,
            Tier::Top => JitOptions::for_program(program).k,
        }),
        listing: options.listing,
        codegen: tier.codegen(),
        keep_image: false,
        wide_sampling: options.wide_sampling,
    }
}

/// Where the code of `tier` is kept in `disk`, if anywhere (listings are
/// not stored: a shader asking for one is always compiled). Keyed by the
/// `k` asked for, not the one chosen: the choice follows from the bytecode,
/// and making it (a liveness analysis) would cost a cache hit more than
/// loading the code.
fn slot(
    disk: Option<&DiskCache>,
    bytes: &[u8],
    options: &CompileOptions,
    tier: Tier,
) -> Option<Slot> {
    let disk = disk.filter(|_| !options.listing)?;
    let lowering = Lowering {
        legacy_mul: options.legacy_mul,
        verify_checksum: options.verify_checksum,
        wide_sampling: options.wide_sampling,
    };
    Slot::new(disk, bytes, lowering, options.k, tier.codegen())
}

/// The code of `program` at `options`, compiled (with stencils it lacks
/// made on `helpers` too) and stored in `slot` (whose entry the caller
/// found missing or bad).
fn compiled(
    program: &Program,
    mut options: JitOptions,
    slot: Option<&Slot>,
    helpers: Option<&Spawner>,
) -> Result<Compiled, JitError> {
    options.keep_image = slot.is_some();
    let mut compiled = jit::compile_on(program, options, helpers)?;
    if let (Some(slot), Some(image)) = (slot, compiled.image.take()) {
        slot.store(image, compiled.info.clone());
    }
    Ok(compiled)
}

/// Invocations from which a call waits for a running top-tier compile
/// rather than running the first tier. The first tier runs an invocation
/// 8-35x slower than the top tier (K4's draw 113 against 7.5 ms, K3's
/// dispatch 34.6 against 3.7 ms, K1's 2.17 s against 61 ms), while the top
/// tier of those kernels compiles in 0.5-1.5 ms: past a few thousand
/// invocations the wait is the shorter way. Smaller calls (UI rectangles,
/// small dispatches) run at once.
pub const LARGE_CALL: u64 = 4096;

/// Compiles bytecode (a DXBC container or a D3D9 token stream) into native
/// code; with [`Tier::Both`], the top tier compiles on the default
/// [`Spawner`].
pub fn compile(bytes: &[u8], options: &CompileOptions) -> Result<Shader, Error> {
    compile_on(bytes, options, &Spawner::default())
}

/// [`compile`], with the top tier of [`Tier::Both`] compiled on `spawner`,
/// through the persistent cache set by [`disk_cache::set_default`] if any.
pub fn compile_on(
    bytes: &[u8],
    options: &CompileOptions,
    spawner: &Spawner,
) -> Result<Shader, Error> {
    compile_with(
        bytes,
        options,
        spawner,
        disk_cache::default_cache().as_ref(),
    )
}

/// [`compile_on`] through the persistent cache `disk` (`None`: none), which
/// also keeps the stencil tier's stencils from now on (see
/// [`prewarm_stencils`](crate::prewarm_stencils)).
/// Each tier's code is looked up and stored on its own; with [`Tier::Both`],
/// stored top-tier code is loaded at once and nothing is compiled, and
/// otherwise the top tier is stored when its background compile ends. A
/// hit neither compiles nor lowers: the IR waits for [`Shader::program`].
pub fn compile_with(
    bytes: &[u8],
    options: &CompileOptions,
    spawner: &Spawner,
    disk: Option<&DiskCache>,
) -> Result<Shader, Error> {
    if let Some(disk) = disk {
        crate::jit::keep_stencils_in(disk);
    }
    let slot_of = |tier| slot(disk, bytes, options, tier);
    let looked_up = match options.tier {
        Tier::Both => Tier::Top,
        tier => tier,
    };
    let looked_up_slot = slot_of(looked_up);
    if let Some(hit) = looked_up_slot.as_ref().and_then(Slot::load) {
        return Ok(Shader {
            family: family_of(bytes),
            program: OnceLock::new(),
            source: Some(Source {
                bytes: bytes.to_vec(),
                options: *options,
            }),
            code: TieredCode::single(hit, looked_up),
        });
    }
    let (family, program) = lower(bytes, options)?;
    let ready_options = jit_options(&program, options, options.tier);
    let code = match options.tier {
        Tier::Both => {
            let first_slot = slot_of(options.tier);
            let ready = match first_slot.as_ref().and_then(Slot::load) {
                Some(loaded) => loaded,
                None => compiled(&program, ready_options, first_slot.as_ref(), Some(spawner))?,
            };
            let top = jit_options(&program, options, Tier::Top);
            let lowered = program.clone();
            let job = move || compiled(&lowered, top, looked_up_slot.as_ref(), None);
            TieredCode::upgrading(ready, job, spawner)
        }
        tier => {
            let ready = compiled(
                &program,
                ready_options,
                looked_up_slot.as_ref(),
                Some(spawner),
            )?;
            TieredCode::single(ready, tier)
        }
    };
    Ok(Shader {
        family,
        program: OnceLock::from(program),
        source: None,
        code,
    })
}

/// The family of bytecode that lowered (or was stored) without error.
fn family_of(bytes: &[u8]) -> Family {
    if bytes.starts_with(b"DXBC") {
        Family::Dxbc
    } else {
        Family::D3d9
    }
}

impl Shader {
    /// The bytecode family it came from.
    pub fn family(&self) -> Family {
        self.family
    }

    /// The program as the backend saw it (declarations, registers, IR).
    /// For a shader loaded from the persistent cache, the first call lowers
    /// the kept bytecode.
    pub fn program(&self) -> &Program {
        self.program.get_or_init(|| {
            let source = self
                .source
                .as_ref()
                .expect("a shader without its program keeps its bytecode");
            lower(&source.bytes, &source.options)
                .map(|(_, program)| program)
                .expect("bytecode whose code was stored lowered when it was stored")
        })
    }

    /// The stage the shader runs in.
    pub fn stage(&self) -> Stage {
        self.code.ready().0.info.stage
    }

    /// Constant-buffer rows the shader defines itself (D3D9 `def`): slot,
    /// row and words. Calls apply them over what is bound.
    pub fn defined_constants(&self) -> &[(u32, u32, [u32; 4])] {
        &self.code.ready().0.info.const_overrides
    }

    /// What the runtime's dispatch loops need to run the best code ready
    /// now. Take it once per call: a call must use one kernel throughout.
    /// It stays valid as long as the shader.
    pub fn kernel(&self) -> Kernel {
        self.code.current().0.kernel()
    }

    /// The kernel a call of `invocations` invocations runs: with
    /// [`Tier::Both`], a call of at least [`LARGE_CALL`] invocations waits
    /// for the top tier when its compile is running, since the first tier
    /// would take longer than the wait (see [`LARGE_CALL`]).
    pub fn kernel_for(&self, invocations: u64) -> Kernel {
        if invocations >= LARGE_CALL {
            self.code.wait_for_running_top();
        }
        self.kernel()
    }

    /// The tier [`Shader::kernel`] runs now: [`Tier::First`] or [`Tier::Top`].
    pub fn tier(&self) -> Tier {
        self.code.current().1
    }

    /// Blocks until the top-tier code is in ([`Shader::kernel`] returns it
    /// from then on), or says why it will not come.
    pub fn wait_for_top_tier(&self) -> Result<(), UpgradeError> {
        self.code.wait_for_top()
    }

    /// Microseconds spent in the backend until the shader could run.
    pub fn compile_us(&self) -> f64 {
        self.code.ready().0.compile_us
    }

    /// Whether the code ready at compile was loaded from the persistent
    /// cache rather than compiled.
    pub fn cache_hit(&self) -> bool {
        self.code.ready().0.loaded
    }

    /// Microseconds the first-tier compile took; `None` without one.
    pub fn first_tier_us(&self) -> Option<f64> {
        let (code, tier) = self.code.ready();
        (tier == Tier::First).then_some(code.compile_us)
    }

    /// Microseconds the top-tier compile took; `None` until it is in.
    pub fn top_tier_us(&self) -> Option<f64> {
        self.code.top().map(|c| c.compile_us)
    }

    /// The Cranelift IR and machine code of the current tier, when compiled
    /// with [`CompileOptions::listing`].
    pub fn listing(&self) -> Option<&Listing> {
        self.code.current().0.listing.as_ref()
    }

    /// Bytes of machine code of the current tier.
    pub fn code_size(&self) -> usize {
        self.code.current().0.code_size
    }

    /// Bytes of machine code the shader holds, every tier counted.
    pub fn code_bytes(&self) -> usize {
        self.code.code_bytes()
    }
}
