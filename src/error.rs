//! The one error type of the library's face.

use crate::d3d9::D3d9Error;
use crate::dxbc::DxbcError;
use crate::jit::JitError;
use crate::sm4::Sm4Error;

/// Why a shader could not be compiled or run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The DXBC container is malformed.
    #[error("dxbc: {0}")]
    Dxbc(#[from] DxbcError),
    /// The SM4/SM5 program is malformed or unsupported.
    #[error("sm4: {0}")]
    Sm4(#[from] Sm4Error),
    /// The D3D9 token stream is malformed or unsupported.
    #[error("d3d9: {0}")]
    D3d9(#[from] D3d9Error),
    /// The backend could not compile the program.
    #[error("jit: {0}")]
    Jit(#[from] JitError),
    /// The bytes are neither a DXBC container nor a D3D9 token stream.
    #[error("unrecognised bytecode: {0}")]
    Unrecognised(String),
}
