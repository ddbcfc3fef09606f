//! The `dxjit` command: run case files, benchmark, disassemble, assemble
//! and describe shaders.

use clap::{Parser, Subcommand};
use dxjit::CompileOptions;
use dxjit_cli::case::{json_report, parse_case, report_line, CaseReport, Summary};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "dxjit",
    version,
    about = "Recompiles Direct3D shader bytecode to native code and runs it"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Runs case files and checks their expectations.
    Run {
        /// Case files (TOML) or folders of them.
        cases: Vec<PathBuf>,
        /// Print a JSON report instead of text.
        #[arg(long)]
        json: bool,
        /// Accept DXBC containers whose checksum does not match.
        #[arg(long)]
        no_checksum: bool,
        /// Stop a case's action after this many milliseconds and report the
        /// case as failed (a CPU has no TDR; this is its analogue).
        #[arg(long, default_value_t = 10_000)]
        timeout_ms: u64,
        /// Keep compiled code in this directory and load it from there.
        #[arg(long)]
        cache: Option<PathBuf>,
        /// Run each case's action at one tier: first, top or both (the
        /// default: the first tier until the top one is in).
        #[arg(long, default_value = "both")]
        tier: dxjit::Tier,
        /// Vectors of four lanes per register component (default: the
        /// tier's and stage's own).
        #[arg(long)]
        k: Option<usize>,
        /// Filter lookups in compiled code, not in the runtime's AVX2
        /// filter (the results are the same).
        #[arg(long)]
        no_wide_sampling: bool,
    },
    /// Compiles a case, repeats its action and reports times and rates
    /// (GFLOP/s against the peak, GB/s against memcpy), once or per value
    /// of a swept parameter.
    Bench {
        /// The case file; with --compile-only, shader files (bytecode or
        /// assembly text) or folders of them.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Only compile each shader file, and report compile times.
        #[arg(long)]
        compile_only: bool,
        /// Keep compiled code in this directory and load it from there.
        #[arg(long)]
        cache: Option<PathBuf>,
        /// With --compile-only: keep the stencil tier's stencils (alone) in
        /// this cache directory and load them from there.
        #[arg(long)]
        stencil_cache: Option<PathBuf>,
        /// With --compile-only: run the built-in stencil prewarm (stitch
        /// the shaders built into dxjit) before the clock starts.
        #[arg(long)]
        prewarm: bool,
        /// Timed repetitions (per point of a sweep).
        #[arg(long, default_value_t = 20)]
        iterations: u32,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Vectors of four lanes per register component.
        #[arg(long)]
        k: Option<usize>,
        /// Time the actions at one tier: first or top (default: top, as a
        /// default compile runs once its top tier is in).
        #[arg(long)]
        tier: Option<dxjit::Tier>,
        /// Filter lookups in compiled code, not in the runtime's AVX2
        /// filter.
        #[arg(long)]
        no_wide_sampling: bool,
        /// End with one JSON object.
        #[arg(long)]
        json: bool,
        /// Run at each value of a parameter: threads, k or tier.
        #[arg(long)]
        sweep: Option<dxjit_cli::bench::Sweep>,
        /// The swept values, e.g. 1,2,4 or 1-4 (default: threads 1 to the
        /// cores; k every count the JIT compiles).
        #[arg(long, requires = "sweep")]
        values: Option<dxjit_cli::bench::SweepValues>,
        /// Draw throughput against the swept value into this SVG file.
        #[arg(long, requires = "sweep")]
        plot: Option<PathBuf>,
        /// Stop an action that runs past this many milliseconds and fail.
        #[arg(long, default_value_t = 10_000)]
        timeout_ms: u64,
    },
    /// Prints a shader's disassembly.
    Disasm {
        /// Bytecode file (DXBC container or D3D9 token stream), shader
        /// assembly text, or a case file.
        file: PathBuf,
        /// The SM4/5 text dialect: vkd3d (d3d-asm) or fxc (/Fc, with signature tables).
        #[arg(long, default_value = "vkd3d")]
        syntax: dxjit::sm4::Syntax,
    },
    /// Assembles shader text into bytecode.
    Asm {
        /// Assembly text file.
        file: PathBuf,
        /// Output file.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Prints the IR a shader lowers to, or the code the backend makes of it.
    Ir {
        /// Bytecode file, shader assembly text, or a case file.
        file: PathBuf,
        /// Print the Cranelift IR instead.
        #[arg(long)]
        clif: bool,
        /// Print the machine code instead (after register allocation).
        #[arg(long)]
        native: bool,
        /// Vectors of four lanes per register component (with --clif or --native).
        #[arg(long)]
        k: Option<usize>,
        /// The tier whose code to print: first or top (default: top).
        #[arg(long)]
        tier: Option<dxjit::Tier>,
    },
    /// Runs shaders once with bindings made from their own declarations.
    Smoke {
        /// Bytecode (.cso, .dxbc, .bin, .fxo) or assembly (.asm, .txt) files, or folders of them.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print a JSON report instead of text.
        #[arg(long)]
        json: bool,
        /// Milliseconds a shader may run before it is interrupted (and
        /// reported as hung if that does not stop it).
        #[arg(long, default_value_t = 10_000)]
        timeout_ms: u64,
        /// Keep compiled code in this directory and load it from there.
        #[arg(long)]
        cache: Option<PathBuf>,
    },
    /// Reports on or empties a persistent shader cache directory.
    Cache {
        #[command(subcommand)]
        action: CacheAction,
    },
    /// Describes a shader: stage, model, signatures, resources, counts.
    Info {
        /// Bytecode file, shader assembly text, or a case file.
        file: PathBuf,
    },
}

#[derive(Subcommand)]
enum CacheAction {
    /// Counts the entries and bytes of a cache directory.
    Stats {
        /// The cache directory.
        dir: PathBuf,
    },
    /// Removes every entry of a cache directory (and nothing else).
    Clear {
        /// The cache directory.
        dir: PathBuf,
    },
}

/// Prints the library's warnings (a bad cache entry, an unusable cache
/// directory) to standard error.
struct StderrLog;

impl log::Log for StderrLog {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata()) {
            eprintln!(
                "dxjit: {}: {}",
                record.level().as_str().to_lowercase(),
                record.args()
            );
        }
    }

    fn flush(&self) {}
}

/// Logs to standard error: warnings, or the level `DXJIT_LOG` names
/// (`error`, `warn`, `info`, `debug`, `trace`).
fn init_logging() {
    static LOGGER: StderrLog = StderrLog;
    if log::set_logger(&LOGGER).is_ok() {
        let level = std::env::var("DXJIT_LOG")
            .ok()
            .and_then(|l| l.parse().ok())
            .unwrap_or(log::LevelFilter::Warn);
        log::set_max_level(level);
    }
}

/// Makes `dir` the persistent cache of every compile of this process.
fn use_cache(dir: Option<&PathBuf>) {
    if let Some(dir) = dir {
        dxjit::disk_cache::set_default(Some(dxjit::DiskCache::open(dir)));
    }
}

/// Prints what `dxjit cache` was asked for.
fn cache_command(action: &CacheAction) -> Result<bool, String> {
    match action {
        CacheAction::Stats { dir } => {
            let s = dxjit::disk_cache::stats(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let age = |t: Option<std::time::SystemTime>| {
                t.and_then(|t| t.elapsed().ok())
                    .map_or("-".to_string(), |d| format!("{} s ago", d.as_secs()))
            };
            println!("directory: {}", dir.display());
            println!("entries: {} ({} bytes)", s.entries, s.bytes);
            println!(
                "stencil records: {} ({} bytes)",
                s.stencils, s.stencil_bytes
            );
            println!("unfinished temporary files: {}", s.temps);
            println!("least recently used: {}", age(s.oldest));
            println!("most recently used: {}", age(s.newest));
        }
        CacheAction::Clear { dir } => {
            let n = dxjit::disk_cache::clear(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            println!("removed {n} files from {}", dir.display());
        }
    }
    Ok(true)
}

fn main() -> ExitCode {
    init_logging();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run {
            cases,
            json,
            no_checksum,
            timeout_ms,
            cache,
            tier,
            k,
            no_wide_sampling,
        } => {
            use_cache(cache.as_ref());
            let options = CompileOptions {
                verify_checksum: !no_checksum,
                tier,
                k,
                wide_sampling: !no_wide_sampling,
                ..CompileOptions::default()
            };
            run(&cases, json, &options, Duration::from_millis(timeout_ms))
        }
        Command::Bench {
            paths,
            compile_only: true,
            cache,
            stencil_cache,
            prewarm,
            tier,
            json,
            ..
        } => dxjit_cli::bench::compile_only(
            &paths,
            tier,
            json,
            &dxjit_cli::bench::CompileOnlySetup {
                cache: cache.map(dxjit::DiskCache::open),
                stencils: stencil_cache.map(dxjit::DiskCache::open),
                prewarm,
            },
        ),
        Command::Bench { paths, .. } if paths.len() != 1 => {
            Err("bench takes one case file (or --compile-only and shader files)".into())
        }
        Command::Bench {
            paths,
            cache,
            iterations,
            threads,
            k,
            tier,
            no_wide_sampling,
            json,
            sweep,
            values,
            plot,
            timeout_ms,
            compile_only: false,
            ..
        } => {
            use_cache(cache.as_ref());
            dxjit_cli::bench::bench(
                &paths[0],
                &dxjit_cli::bench::BenchOptions {
                    iterations,
                    threads,
                    k,
                    tier,
                    wide_sampling: !no_wide_sampling,
                    json,
                    sweep,
                    values: values.map(|v| v.0),
                    plot,
                    timeout: Duration::from_millis(timeout_ms),
                },
            )
        }
        Command::Disasm { file, syntax } => dxjit_cli::source::load(&file)
            .and_then(|b| match dxjit::dxbc::Container::parse(&b, false) {
                Ok(c) if syntax == dxjit::sm4::Syntax::Fxc => {
                    dxjit::sm4::disassemble_as(&c, syntax).map_err(|e| e.to_string())
                }
                _ => dxjit::text::disassemble(&b),
            })
            .map(|t| emit(&t)),
        Command::Asm { file, output } => std::fs::read_to_string(&file)
            .map_err(|e| format!("{}: {e}", file.display()))
            .and_then(|t| dxjit::text::assemble(&t))
            .and_then(|b| {
                std::fs::write(&output, b).map_err(|e| format!("{}: {e}", output.display()))
            })
            .map(|_| true),
        Command::Ir {
            file,
            clif,
            native,
            k,
            tier,
        } if clif || native => dxjit_cli::source::load(&file)
            .and_then(|b| {
                dxjit::compile(
                    &b,
                    &CompileOptions {
                        verify_checksum: false,
                        k,
                        listing: true,
                        tier: tier.unwrap_or(dxjit::Tier::Top),
                        ..CompileOptions::default()
                    },
                )
                .map_err(|e| e.to_string())
            })
            .map(|shader| {
                let Some(l) = shader.listing() else {
                    return true;
                };
                (!clif || emit(&format!("{}\n", l.clif)))
                    && (!native || emit(&format!("{}\n", l.native)))
            }),
        Command::Ir { file, .. } => dxjit_cli::source::load(&file)
            .and_then(|b| {
                dxjit::shader::lower(
                    &b,
                    &CompileOptions {
                        verify_checksum: false,
                        ..CompileOptions::default()
                    },
                )
                .map_err(|e| e.to_string())
            })
            .map(|(_, p)| emit(&format!("{p:#?}\n"))),
        Command::Smoke {
            paths,
            json,
            timeout_ms,
            cache,
        } => {
            use_cache(cache.as_ref());
            dxjit_cli::smoke::command(&paths, json, Duration::from_millis(timeout_ms))
        }
        Command::Cache { action } => cache_command(&action),
        Command::Info { file } => dxjit_cli::source::load(&file)
            .and_then(|b| dxjit::text::info(&b))
            .map(|t| emit(&t)),
    };
    // Entries and stencils are written in the background: keep them.
    dxjit::flush_disk_cache();
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("dxjit: {e}");
            ExitCode::from(2)
        }
    }
}

/// Expands folders into the case files below them, sorted.
fn case_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            while let Some(dir) = stack.pop() {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                for e in entries.flatten() {
                    let path = e.path();
                    if path.is_dir() {
                        stack.push(path);
                    } else if path.extension().is_some_and(|x| x == "toml") {
                        out.push(path);
                    }
                }
            }
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    out
}

fn run(
    paths: &[PathBuf],
    json: bool,
    options: &CompileOptions,
    limit: Duration,
) -> Result<bool, String> {
    let mut reports = Vec::new();
    for path in case_files(paths) {
        let report = match parse_case(&path) {
            Ok(case) => {
                let outcome = std::panic::catch_unwind(|| {
                    dxjit_cli::run::execute_within(&case, options, limit)
                })
                .unwrap_or_else(|_| Err("internal error: the runner panicked".into()));
                CaseReport::new(&case, &outcome)
            }
            Err(e) => CaseReport::unparsable(&e),
        };
        if !json {
            println!("{}", report_line(&report));
        }
        reports.push(report);
    }
    let summary = Summary::of(&reports);
    if json {
        println!("{}", json_report(&reports));
    } else {
        println!("{summary}");
    }
    Ok(reports.iter().all(|r| r.passed()))
}

/// Writes `text` to standard output. A reader that stops early (`dxjit ir
/// ... | head`) ends the output quietly; returns whether all was written.
fn emit(text: &str) -> bool {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_ok()
}
