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

#[cfg(test)]
mod tests {
    use crate::case::parse::parse_case_str;
    use std::path::Path;

    /// A compute case whose one SRV is `srv` (TOML keys).
    fn case(srv: &str) -> String {
        format!(
            "format = 1\nname = \"ms\"\n[cs]\nasm = \"cs_5_0\\nret\"\n[[cs.srv]]\nslot = 0\n{srv}\n\
             [dispatch]\ngroups = [1, 1, 1]\n[[expect]]\nrejected = true\n"
        )
    }

    #[test]
    fn a_texture2dms_takes_samples_and_sizes_its_data_by_them() {
        let text = case("type = \"texture2dms\"\nformat = \"r32_uint\"\nheight = 2\nsamples = 4\ndata = [1, 2, 3, 4, 5, 6, 7, 8]");
        let parsed = parse_case_str(&text, Path::new("ms.toml")).unwrap();
        let srv = &parsed.cs.unwrap().srvs[0];
        // 8 words over 2 rows of 4-sample texels: the default width is 1.
        assert_eq!(srv.width(), 1);
        assert_eq!(srv.byte_size(), 32);
        let texture = srv.multisampled_texture().unwrap().unwrap();
        assert_eq!(texture.samples(), 4);
        assert_eq!(texture.fetch_sample(0, 1, 0, 2), [7, 0, 0, 1]);
    }

    #[test]
    fn samples_belong_to_multisampled_views_only() {
        let text = case("type = \"texture2d\"\nformat = \"r32_uint\"\nsamples = 4");
        let err = parse_case_str(&text, Path::new("ms.toml")).unwrap_err();
        assert!(
            err.to_string().contains("`samples` does not apply"),
            "{err}"
        );
        let text = case("type = \"texture2dms\"\nformat = \"r32_uint\"\nmips = 2\nwidth = 2");
        let err = parse_case_str(&text, Path::new("ms.toml")).unwrap_err();
        assert!(err.to_string().contains("`mips` does not apply"), "{err}");
    }
}
