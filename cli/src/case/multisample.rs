//! Multisampled texture views of case files (`texture2dms`, `texture2dmsarray`);
//! the tests also cover multisampled render targets (`sample_count`).

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

    /// A draw case with one `target` (TOML inline table) and `expect` keys.
    fn draw_case(target: &str, expect: &str) -> String {
        format!(
            "format = 1\nname = \"ms\"\n[ps]\nasm = \"ps_5_0\\nret\"\n\
             [draw]\ntargets = [{target}]\n[[expect]]\npixel = [0, 0]\n{expect}value = [0]\n"
        )
    }

    #[test]
    fn targets_take_sample_count_or_samples_and_expectations_a_sample() {
        use crate::case::model::Action;
        let target = "{ format = \"r32_uint\", width = 1, height = 1, sample_count = 4 }";
        let parsed =
            parse_case_str(&draw_case(target, "sample = 3\n"), Path::new("ms.toml")).unwrap();
        let Action::Draw(draw) = &parsed.action else {
            panic!("a draw")
        };
        assert_eq!(draw.targets[0].samples, 4);
        let err =
            parse_case_str(&draw_case(target, "sample = 4\n"), Path::new("ms.toml")).unwrap_err();
        assert!(
            err.to_string().contains("sample 4 of a target of 4"),
            "{err}"
        );
        let both =
            "{ format = \"r32_uint\", width = 1, height = 1, samples = 2, sample_count = 2 }";
        let err = parse_case_str(&draw_case(both, ""), Path::new("ms.toml")).unwrap_err();
        assert!(err.to_string().contains("both given"), "{err}");
        let plain = "{ format = \"r32_uint\", width = 1, height = 1 }";
        let parsed = parse_case_str(&draw_case(plain, ""), Path::new("ms.toml")).unwrap();
        let Action::Draw(draw) = &parsed.action else {
            panic!("a draw")
        };
        assert_eq!(draw.targets[0].samples, 1);
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
