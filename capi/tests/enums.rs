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
        Format::Rgba8UnormSrgb,
        Format::Bgra8UnormSrgb,
        Format::R8Snorm,
        Format::Rg8Snorm,
        Format::Rgba8Snorm,
        Format::R16Snorm,
        Format::Rg16Snorm,
        Format::Rgba16Snorm,
        Format::Rg8Unorm,
        Format::R8Uint,
        Format::Rg8Uint,
        Format::Rgba8Uint,
        Format::R8Sint,
        Format::Rg8Sint,
        Format::Rgba8Sint,
        Format::Rg16Unorm,
        Format::R16Uint,
        Format::Rg16Uint,
        Format::Rgba16Uint,
        Format::R16Sint,
        Format::Rg16Sint,
        Format::Rgba16Sint,
        Format::Rg16Float,
        Format::A8Unorm,
        Format::R10g10b10a2Uint,
        Format::Rgb9e5,
        Format::Bc1Unorm,
        Format::Bc1UnormSrgb,
        Format::Bc2Unorm,
        Format::Bc2UnormSrgb,
        Format::Bc3Unorm,
        Format::Bc3UnormSrgb,
        Format::Bc4Unorm,
        Format::Bc4Snorm,
        Format::Bc5Unorm,
        Format::Bc5Snorm,
        Format::Bc6hUf16,
        Format::Bc6hSf16,
        Format::Bc7Unorm,
        Format::Bc7UnormSrgb,
        Format::L8,
        Format::A8L8,
        Format::L16,
        Format::V8U8,
        Format::Q8W8V8U8,
        Format::R5G6B5,
        Format::X8R8G8B8,
        Format::A1R5G5B5,
        Format::A4R4G4B4,
        Format::D16,
        Format::D24S8,
        Format::R24X8,
        Format::D32F,
        Format::D32FS8X24,
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
