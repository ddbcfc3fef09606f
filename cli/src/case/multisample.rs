//! Multisampled texture views of case files (`texture2dms`, `texture2dmsarray`).

use super::model::{SrvDesc, SrvKind};
use dxjit_runtime::texture::{Texture, TextureKind};

impl SrvDesc {
    /// The texture of a multisampled view, `None` for other kinds: `width` ×
    /// `height` texels of `samples` samples each (consecutive in `data`), on
    /// `array_size` layers of an array. A sample count D3D does not allow is
    /// an error naming the allowed ones.
    pub fn multisampled_texture(&self) -> Option<Result<Texture, String>> {
        let kind = match self.kind {
            SrvKind::Texture2dMs => TextureKind::Texture2DMS,
            SrvKind::Texture2dMsArray => TextureKind::Texture2DMSArray,
            _ => return None,
        };
        let format = self.format?;
        Some(
            Texture::new_multisampled(
                kind,
                format,
                self.width(),
                self.height,
                self.layers(),
                self.samples,
                self.contents(),
            )
            .map_err(|e| e.to_string()),
        )
    }
}
