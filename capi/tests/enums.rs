//! The C texture-kind numbers name the runtime's kinds (the format enum is
//! the runtime's own, exported to the header as `dxjit_format`).

use dxjit_capi::enums::texture_kind;
use dxjit_runtime::texture::TextureKind;

#[test]
fn texture_kind_numbers_follow_the_header() {
    assert_eq!(texture_kind(0), Ok(TextureKind::Buffer));
    assert_eq!(texture_kind(3), Ok(TextureKind::Texture2D));
    assert_eq!(texture_kind(7), Ok(TextureKind::TextureCubeArray));
    assert_eq!(texture_kind(8), Ok(TextureKind::Texture2DMS));
    assert_eq!(texture_kind(9), Ok(TextureKind::Texture2DMSArray));
    assert!(texture_kind(10).is_err());
}
