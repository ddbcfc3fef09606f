//! Helpers the safe-API and quad tests share: compiling assembly through an
//! [`Engine`] or directly, reading a buffer back as words, and making a
//! quad. Each test binary uses part of it.
#![allow(dead_code)]

use dxjit::{Engine, EngineConfig};
use dxjit_runtime::dispatch::Quad;
use std::sync::Arc;

/// Assembles `text` and compiles it with a fresh engine, panicking on failure.
pub fn shader(text: &str) -> Arc<dxjit::Shader> {
    let engine = Engine::new(EngineConfig::default()).expect("engine");
    engine
        .compile(&dxjit::text::assemble(text).expect("assembles"))
        .expect("compiles")
}

/// `bytes` as little-endian 32-bit words.
pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Assembles and compiles `text` (a pixel shader in the quad tests) with
/// the default options, panicking on failure.
pub fn ps(text: &str) -> dxjit::Shader {
    dxjit::compile(&dxjit::text::assemble(text).unwrap(), &Default::default()).unwrap()
}

/// The front-facing quad at (`x`, `y`) with sample `coverage`.
pub fn quad(x: u32, y: u32, coverage: u8) -> Quad {
    Quad {
        x,
        y,
        coverage,
        front_facing: true,
    }
}
