//! Case files and the texel formats: block-compressed sizes, D3D9 aliases,
//! and formats shaders cannot write refused as targets and typed UAVs.

use std::path::Path;

use dxjit_cli::case::{parse_case_str, Case, CaseError};

fn parse(text: &str) -> Result<Case, CaseError> {
    parse_case_str(text, Path::new("dir/case.toml"))
}

/// A compute case with one typed UAV of `format` and one expectation.
fn typed_uav(format: &str) -> String {
    format!(
        "format = 1\n[cs]\ndwords = [0x43425844]\n[dispatch]\ngroups = [1, 1, 1]\n\
         [[uav]]\nslot = 0\ntype = \"typed\"\nformat = \"{format}\"\ndimension = \"texture2d\"\n\
         size = 4\nheight = 4\n[[expect]]\nuav = 0\ndata = [0]\n"
    )
}

/// A compute case with one texture2d SRV of `format`, `width` × `height`
/// with `mips`, and a raw UAV.
fn texture(format: &str, width: u32, height: u32, mips: u32) -> String {
    format!(
        "format = 1\n[cs]\ndwords = [0x43425844]\n[dispatch]\ngroups = [1, 1, 1]\n\
         [[cs.srv]]\nslot = 0\ntype = \"texture2d\"\nformat = \"{format}\"\nwidth = {width}\n\
         height = {height}\nmips = {mips}\n\
         [[uav]]\nslot = 0\ntype = \"raw\"\nsize = 16\n[[expect]]\nuav = 0\ndata = [0]\n"
    )
}

#[test]
fn block_compressed_textures_take_whole_blocks() {
    let size = |format, w, h, mips| {
        let case = parse(&texture(format, w, h, mips)).expect("parses");
        case.cs.as_ref().expect("cs").srvs[0].byte_size()
    };
    // 8×8 BC1: 4 blocks, then 4×4 (1), 2×2 (1), 1×1 (1); 8 bytes each.
    assert_eq!(size("bc1_unorm", 8, 8, 4), 56);
    assert_eq!(size("dxt1", 6, 6, 1), 32);
    assert_eq!(size("bc7_unorm_srgb", 5, 5, 2), 80);
    assert_eq!(size("dxt5", 4, 4, 1), 16);
    assert_eq!(size("l8", 3, 2, 1), 6);
}

#[test]
fn formats_shaders_cannot_write_are_refused_as_uavs_and_targets() {
    for format in ["bc1_unorm", "bc6h_sf16", "rgb9e5", "d24s8", "d32f"] {
        let e = parse(&typed_uav(format)).expect_err(format).to_string();
        assert!(e.contains("shaders cannot write"), "{e}");
    }
    for format in [
        "rgba8_unorm_srgb",
        "r8_snorm",
        "rg16_float",
        "r5g6b5",
        "a8_unorm",
    ] {
        parse(&typed_uav(format)).expect(format);
    }
    let target = "format = 1\n[ps]\ndwords = [0xffff0300, 0x0000ffff]\n\
                  [draw]\ntargets = [{ format = \"bc3_unorm\", width = 1, height = 1 }]\n\
                  [[expect]]\npixel = [0, 0]\nvalue = [0.0, 0.0, 0.0, 0.0]\n";
    let e = parse(target).expect_err("bc3 target").to_string();
    assert!(
        e.contains("draw.targets[0]: shaders cannot write bc3_unorm"),
        "{e}"
    );
}

#[test]
fn block_compressed_views_need_a_width_and_two_dimensions() {
    let no_width = texture("bc1_unorm", 4, 4, 1).replace("width = 4\n", "");
    let e = parse(&no_width).expect_err("no width").to_string();
    assert!(e.contains("a bc1_unorm texture needs a width"), "{e}");
    let buffer = texture("bc4_unorm", 4, 1, 1).replace("texture2d", "buffer");
    let buffer = buffer.replace("height = 1\nmips = 1\n", "");
    let e = parse(&buffer).expect_err("buffer").to_string();
    assert!(
        e.contains("bc4_unorm is for 2D, 3D and cube textures"),
        "{e}"
    );
}
