//! The checked-in header is what cbindgen makes of the crate now, and of
//! the runtime's `format.rs`, whose `Format` is the C API's `dxjit_format`.
//! Set `DXJIT_BLESS_HEADER=1` to rewrite it after changing the API.

use std::path::Path;

#[test]
fn checked_in_header_is_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("src/lib.rs"))
        .with_src(root.join("../runtime/src/format.rs"))
        .generate()
        .expect("cbindgen")
        .write(&mut generated);
    let generated = String::from_utf8(generated).expect("utf-8 header");
    let path = root.join("include/dxjit.h");
    if std::env::var_os("DXJIT_BLESS_HEADER").is_some() {
        std::fs::write(&path, &generated).expect("write header");
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "capi/include/dxjit.h is stale: run DXJIT_BLESS_HEADER=1 cargo test -p dxjit-capi --test header"
    );
}
