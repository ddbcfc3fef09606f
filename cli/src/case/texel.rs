//! The one place the case layer converts between texel bytes and the words a
//! shader reads or writes; everything goes through the runtime's [`Format`].

use dxjit_runtime::format::{Format, FormatKind};

/// The four words a shader would read from the texel at the start of `bytes`
/// (see [`Format::load`]); `None` when `bytes` is shorter than a texel.
pub(crate) fn decode(format: Format, bytes: &[u8]) -> Option<[u32; 4]> {
    let size = format.bytes_per_texel() as usize;
    bytes.get(..size).map(|texel| format.load(texel))
}

/// The bytes of one texel holding `value` as a shader would store it.
pub(crate) fn encode(format: Format, value: [u32; 4]) -> Vec<u8> {
    let mut bytes = vec![0; format.bytes_per_texel() as usize];
    format.store(value, &mut bytes);
    bytes
}

/// Bytes per texel.
pub(crate) fn texel_size(format: Format) -> u32 {
    format.bytes_per_texel()
}

/// Bytes of a `width` × `height` × `depth` image (whole 4×4 blocks of
/// block-compressed formats).
pub(crate) fn image_size(format: Format, width: u32, height: u32, depth: u32) -> u64 {
    format.image_bytes(width, height, depth)
}

/// Components a case writes for one texel of `format`: the format's own,
/// or all four where the format reads its components into alpha
/// (`a8_unorm`, `a8l8`).
pub(crate) fn components(format: Format) -> usize {
    match format {
        Format::A8Unorm | Format::A8L8 => 4,
        _ => format.components() as usize,
    }
}

/// True when the format's components are integers.
pub(crate) fn is_integer(format: Format) -> bool {
    matches!(format.kind(), FormatKind::Uint | FormatKind::Sint)
}

/// True when the format's components are signed integers.
pub(crate) fn is_signed_integer(format: Format) -> bool {
    format.kind() == FormatKind::Sint
}

/// The format of a case-file name.
pub(crate) fn by_name(name: &str) -> Option<Format> {
    Format::from_name(name)
}

/// The case-file name of a format.
pub(crate) fn name(format: Format) -> &'static str {
    format.name()
}
