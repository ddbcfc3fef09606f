//! The C enums' numbers match the runtime's.

use dxjit_capi::enums::{texture_kind, Format};
use dxjit_runtime::format::Format as RuntimeFormat;
use dxjit_runtime::texture::TextureKind;

#[test]
fn format_numbers_are_the_runtime_ids() {
    let ours = [
        Format::R32Uint,
        Format::R32Sint,
        Format::R32Float,
        Format::Rg32Uint,
        Format::Rg32Sint,
        Format::Rg32Float,
        Format::Rgba32Uint,
        Format::Rgba32Sint,
        Format::Rgba32Float,
        Format::R16Float,
        Format::Rgba16Float,
        Format::R8Unorm,
        Format::Rgba8Unorm,
        Format::Bgra8Unorm,
        Format::R16Unorm,
        Format::Rgba16Unorm,
        Format::R10g10b10a2Unorm,
        Format::R11g11b10Float,
    ];
    assert_eq!(ours.len(), RuntimeFormat::ALL.len());
    for (o, r) in ours.iter().zip(RuntimeFormat::ALL) {
        assert_eq!(*o as u32, r as u32, "{o:?}");
        assert_eq!(format!("{o:?}"), format!("{r:?}"));
    }
}

#[test]
fn texture_kind_numbers_follow_the_header() {
    assert_eq!(texture_kind(0), Ok(TextureKind::Buffer));
    assert_eq!(texture_kind(3), Ok(TextureKind::Texture2D));
    assert_eq!(texture_kind(7), Ok(TextureKind::TextureCubeArray));
    assert!(texture_kind(8).is_err());
}
