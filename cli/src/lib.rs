//! The `dxjit` command line's machinery, kept out of the library: the case
//! runner (`run`), `bench`, `smoke`, and loading shaders for the text
//! commands. The library crate `dxjit` depends on none of clap, serde, toml
//! or serde_json; this crate does.

pub mod bench;
pub mod case;
pub mod run;
pub mod smoke;
pub mod source;
