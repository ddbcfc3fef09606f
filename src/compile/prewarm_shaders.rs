//! The shaders the built-in stencil prewarm stitches. Written by the
//! ignored test `regenerate_prewarm_shaders` (`tests/prewarm_shaders.rs`).

use super::prewarm::Source;

/// The shaders, in the order chosen: 29 of 269 game shaders, 149728 bytes,
/// needing 344 of their 708 stencils and 10344 of their 11073 stencil uses.
pub const SHADERS: &[Source] = &[
    Source::Bytecode(include_bytes!("../../tests/shaders/alreborn/renderware/matfx/dwEnvMapNoBaseTexturePixelShader.bin")),
    Source::Bytecode(include_bytes!("../../tests/shaders/alreborn/renderware/toon/dwToonPixelShaderNoBaseNoColor.bin")),
    Source::Bytecode(include_bytes!("../../tests/shaders/alreborn/renderware/matfx/dwBumpMapPixelShader.bin")),
    Source::Bytecode(include_bytes!("../../tests/shaders/alreborn/archlord/g_vs11_lightmap.bin")),
    Source::Bytecode(include_bytes!("../../tests/shaders/alreborn/renderware/normmap/dwDot3notexturePixelShader.bin")),
    Source::Bytecode(include_bytes!("../../tests/shaders/alreborn/archlord/g_vs11_shadow.bin")),
    Source::Bytecode(include_bytes!("../../tests/shaders/alreborn/renderware/team/dwSkinshdr2ndpassVertexShader.bin")),
    Source::D3d9Text(include_str!("../../tests/shaders/3d-fixes/eleusis/ShaderOverride/PixelShaders/09EB222D.txt")),
    Source::Bytecode(include_bytes!("../../tests/shaders/alreborn/archlord/dwBlurvshaderD3D9VertexShader.bin")),
    Source::Sm4Text(include_str!("../../tests/shaders/3d-fixes/witcher3/ShaderFixes/8344142657aafec0-ps.txt")),
    Source::D3d9Text(include_str!("../../tests/shaders/3d-fixes/far-cry-2/ShaderOverride/PixelShaders/98A0382A.txt")),
    Source::D3d9Text(include_str!("../../tests/shaders/3d-fixes/oddworld-new-n-tasty/ShaderOverride/PixelShaders/0EB72D84.txt")),
    Source::D3d9Text(include_str!("../../tests/shaders/3d-fixes/betrayer/ShaderOverride/PixelShaders/0077AFB9.txt")),
    Source::Sm4Text(include_str!("../../tests/shaders/3d-fixes/witcher3/ShaderFixes/4e7b1b2f8c99e97a-cs.txt")),
    Source::D3d9Text(include_str!("../../tests/shaders/3d-fixes/bout2/ShaderOverride/VertexShaders/0DC90B2E.txt")),
    Source::Sm4Text(include_str!("../../tests/shaders/3d-fixes/song-of-the-deep/ShaderFixes/6820591d6eabc35a-ps.txt")),
    Source::Sm4Text(include_str!("../../tests/shaders/3d-fixes/senua/ShaderFixes/d9574405cd41c6fd-cs.txt")),
    Source::Bytecode(include_bytes!("../../tests/shaders/alreborn/archlord/g_vs11_main.bin")),
    Source::Sm4Text(include_str!("../../tests/shaders/3d-fixes/doa6/ShaderFixes/af5c466a1df2a582-vs.txt")),
    Source::D3d9Text(include_str!("../../tests/shaders/3d-fixes/betrayer/ShaderOverride/VertexShaders/19DC77FD.txt")),
    Source::Bytecode(include_bytes!("../../tests/shaders/alreborn/renderware/team/dwSkinshdr_unlit_nofogVertexShader.bin")),
    Source::Sm4Text(include_str!("../../tests/shaders/3d-fixes/doax-venusvacation/ShaderFixes/b085f1d15d8e8418-vs.txt")),
    Source::D3d9Text(include_str!("../../tests/shaders/3d-fixes/world-of-diving-dx9/ShaderOverride/PixelShaders/C66FBE13.txt")),
    Source::Sm4Text(include_str!("../../tests/shaders/3d-fixes/far-cry-primal/ShaderFixes/43a080048e688683-vs.txt")),
    Source::Sm4Text(include_str!("../../tests/shaders/3d-fixes/far-cry-primal/ShaderFixes/ddc904400656fe8c-cs.txt")),
    Source::D3d9Text(include_str!("../../tests/shaders/3d-fixes/the-forest/ShaderOverride/PixelShaders/00371DBD.txt")),
    Source::Sm4Text(include_str!("../../tests/shaders/3d-fixes/far-cry-primal/ShaderFixes/40be17666bb0679e-ps.txt")),
    Source::D3d9Text(include_str!("../../tests/shaders/3d-fixes/demonicon/ShaderOverride/PixelShaders/099E33E2.txt")),
    Source::Sm4Text(include_str!("../../tests/shaders/3d-fixes/lichdom-battlemage/ShaderFixes/5678cb3b6363eb9c-ds.txt")),
];
