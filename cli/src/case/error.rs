//! Why a case file could not be turned into a [`Case`](super::Case).

use std::path::PathBuf;

/// A case file that cannot be run: unreadable, not TOML, or not a valid
/// format-1 case. The message names the file and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum CaseError {
    /// The case file, or a shader `file` it names, could not be read.
    #[error("{}: cannot read {}: {source}", case.display(), file.display())]
    Io {
        /// The case file.
        case: PathBuf,
        /// The file that could not be read (the case itself or its shader).
        file: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The text is not TOML, or a key or value does not have the spec's
    /// shape (unknown key, missing key, wrong type). The message comes from
    /// the TOML reader and points at the line.
    #[error("{}: {message}", path.display())]
    Toml {
        /// The case file.
        path: PathBuf,
        /// What the TOML reader reported.
        message: String,
    },
    /// The TOML is well formed but the case breaks a rule of the spec.
    #[error("{}: {what}", path.display())]
    Invalid {
        /// The case file.
        path: PathBuf,
        /// The rule broken, naming the table and key.
        what: String,
    },
}

impl CaseError {
    /// The case file the error is about.
    pub fn path(&self) -> &std::path::Path {
        match self {
            CaseError::Io { case, .. } => case,
            CaseError::Toml { path, .. } | CaseError::Invalid { path, .. } => path,
        }
    }
}
