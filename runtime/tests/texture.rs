//! Texture layout, `ld` and views.

use dxjit_runtime::format::Format;
use dxjit_runtime::texture::{Texture, TextureError, TextureKind};

fn words(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn uint(kind: TextureKind, w: u32, h: u32, d: u32, mips: u32, values: &[u32]) -> Texture {
    Texture::new(kind, Format::R32Uint, w, h, d, mips, words(values)).unwrap()
}

fn r(t: &Texture, x: i32, y: i32, z: i32, mip: i32) -> u32 {
    let texel = t.fetch(x, y, z, mip);
    assert_eq!(texel[1..], [0, 0, 1]);
    texel[0]
}

#[test]
fn texture2d_mips_follow_each_other() {
    let t = uint(
        TextureKind::Texture2D,
        4,
        2,
        1,
        2,
        &[0, 1, 2, 3, 4, 5, 6, 7, 100, 101],
    );
    assert_eq!(r(&t, 1, 1, 0, 0), 5);
    assert_eq!(r(&t, 3, 0, 0, 0), 3);
    assert_eq!(r(&t, 1, 0, 0, 1), 101);
    assert_eq!(r(&t, 1, 0, 7, 1), 101, "z is ignored");
    for (x, y, mip) in [
        (4, 0, 0),
        (0, 2, 0),
        (-1, 0, 0),
        (0, -1, 0),
        (2, 0, 1),
        (0, 0, 2),
        (0, 0, -1),
    ] {
        assert_eq!(t.fetch(x, y, 0, mip), [0; 4], "{x} {y} {mip}");
    }
    assert_eq!(t.level_size(0), [4, 2, 1]);
    assert_eq!(t.level_size(1), [2, 1, 1]);
    assert_eq!(t.level_size(2), [0, 0, 0]);
}

#[test]
fn array_slices_hold_all_their_mips() {
    let t = uint(
        TextureKind::Texture2DArray,
        2,
        2,
        2,
        2,
        &[0, 1, 2, 3, 10, 20, 21, 22, 23, 30],
    );
    assert_eq!(r(&t, 1, 0, 1, 0), 21);
    assert_eq!(r(&t, 1, 1, 0, 0), 3);
    assert_eq!(r(&t, 0, 0, 0, 1), 10);
    assert_eq!(r(&t, 0, 0, 1, 1), 30);
    assert_eq!(t.fetch(0, 0, 2, 0), [0; 4]);
    assert_eq!(t.fetch(0, 0, -1, 0), [0; 4]);
    assert_eq!(t.level_size(1), [1, 1, 2]);
    assert_eq!(t.layers(), 2);
    let t = uint(TextureKind::Texture1DArray, 2, 1, 2, 1, &[5, 6, 7, 8]);
    assert_eq!(r(&t, 0, 9, 1, 0), 7, "y is ignored");
}

#[test]
fn texture3d_mips_are_volumes() {
    let t = uint(
        TextureKind::Texture3D,
        2,
        2,
        2,
        2,
        &[0, 1, 2, 3, 4, 5, 6, 7, 50],
    );
    assert_eq!(r(&t, 1, 1, 1, 0), 7);
    assert_eq!(r(&t, 0, 1, 1, 0), 6);
    assert_eq!(r(&t, 0, 0, 0, 1), 50);
    assert_eq!(t.fetch(0, 0, 2, 0), [0; 4]);
    assert_eq!(t.fetch(0, 0, 1, 1), [0; 4]);
    assert_eq!(t.level_size(0), [2, 2, 2]);
    assert_eq!(t.level_size(1), [1, 1, 1]);
}

#[test]
fn cube_faces_and_buffers() {
    let t = uint(TextureKind::TextureCube, 1, 1, 6, 1, &[0, 1, 2, 3, 4, 5]);
    assert_eq!(r(&t, 0, 0, 4, 0), 4);
    assert_eq!(t.layers(), 6);
    let t = uint(
        TextureKind::TextureCubeArray,
        1,
        1,
        12,
        1,
        &(0..12).collect::<Vec<_>>(),
    );
    assert_eq!(r(&t, 0, 0, 6 + 5, 0), 11);
    let t = uint(TextureKind::Buffer, 3, 1, 1, 1, &[7, 8, 9]);
    assert_eq!(r(&t, 2, 7, 9, 3), 9);
    assert_eq!(t.fetch(3, 0, 0, 0), [0; 4]);
}

#[test]
fn formats_are_converted_on_fetch() {
    let t = Texture::new(
        TextureKind::Texture1D,
        Format::Bgra8Unorm,
        1,
        1,
        1,
        1,
        vec![0xff, 0, 0, 0xff],
    )
    .unwrap();
    assert_eq!(
        t.fetch(0, 0, 0, 0).map(f32::from_bits),
        [0.0, 0.0, 1.0, 1.0]
    );
}

#[test]
fn bad_shapes_and_short_data_are_errors() {
    let make =
        |kind, w, h, d, mips, len| Texture::new(kind, Format::R8Unorm, w, h, d, mips, vec![0; len]);
    assert_eq!(
        make(TextureKind::Texture2D, 4, 4, 1, 3, 20),
        Err(TextureError::DataTooShort { got: 20, need: 21 })
    );
    assert!(make(TextureKind::Texture2D, 4, 4, 1, 3, 21).is_ok());
    assert_eq!(
        make(TextureKind::Texture2D, 4, 4, 1, 3, 99)
            .unwrap()
            .data()
            .len(),
        21
    );
    assert!(matches!(
        make(TextureKind::Texture2D, 4, 4, 1, 4, 99),
        Err(TextureError::TooManyMips { max: 3, .. })
    ));
    assert!(matches!(
        make(TextureKind::Texture2D, 0, 4, 1, 1, 99),
        Err(TextureError::Empty { .. })
    ));
    assert!(matches!(
        make(TextureKind::Texture1D, 4, 2, 1, 1, 99),
        Err(TextureError::ExtraDimension { .. })
    ));
    assert!(matches!(
        make(TextureKind::Texture2D, 4, 4, 2, 1, 99),
        Err(TextureError::ExtraDimension { .. })
    ));
    assert!(matches!(
        make(TextureKind::Buffer, 4, 1, 1, 2, 99),
        Err(TextureError::ExtraDimension { .. })
    ));
    assert!(matches!(
        make(TextureKind::TextureCube, 2, 1, 6, 1, 99),
        Err(TextureError::BadCube { .. })
    ));
    assert!(matches!(
        make(TextureKind::TextureCube, 1, 1, 12, 1, 99),
        Err(TextureError::BadCube { .. })
    ));
    assert!(matches!(
        make(TextureKind::TextureCubeArray, 1, 1, 7, 1, 99),
        Err(TextureError::BadCube { .. })
    ));
    // 3D textures count depth for mips: 1x1x4 has 3.
    assert!(make(TextureKind::Texture3D, 1, 1, 4, 3, 7).is_ok());
}

#[test]
fn view_describes_mip_zero() {
    let t = uint(TextureKind::Texture2DArray, 2, 2, 2, 2, &[0; 10]);
    let v = t.view();
    assert_eq!(v.ptr.cast_const(), t.data().as_ptr());
    assert_eq!(
        (v.size, v.stride, v.width, v.height, v.depth, v.mips),
        (40, 4, 2, 2, 2, 2)
    );
    assert_eq!(
        (v.format, v.row_pitch, v.slice_pitch),
        (Format::R32Uint as u32, 8, 20)
    );
    assert_eq!(v.texture, (&t as *const Texture).cast());
    let t = uint(TextureKind::Texture3D, 2, 2, 2, 2, &[0; 9]);
    let v = t.view();
    assert_eq!((v.depth, v.row_pitch, v.slice_pitch), (2, 8, 16));
}
