//! Helpers the safe-API tests share: compiling assembly through an
//! [`Engine`] and reading a buffer back as words. Each test binary uses
//! part of it.
#![allow(dead_code)]

use dxjit::{Engine, EngineConfig};
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
