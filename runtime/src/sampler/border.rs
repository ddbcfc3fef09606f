//! The border colour in a texture's component space.
//!
//! D3D10+ reads the sampler's border colour through the texture's format:
//! only the components the format stores come from the border colour, the
//! others take D3D's defaults for missing components (0 for r, g and b, 1
//! for alpha; an integer format's 1 is the integer 1). So an `r8_unorm`
//! texture's border is (r, 0, 0, 1), an `rg16_float` one's (r, g, 0, 1),
//! an `a8_unorm` one's (0, 0, 0, a). D3D9 formats (luminance, bump-map and
//! packed 16-bit ones) read the border colour as it is: D3D9's border is a
//! plain colour with no such rule.

use crate::format::{Format, FormatKind};

/// `border` as a texture of `format` reads it.
pub(crate) fn in_format(format: Format, border: [f32; 4]) -> [f32; 4] {
    let one = match format.kind() {
        FormatKind::Uint | FormatKind::Sint => f32::from_bits(1),
        _ => 1.0,
    };
    let present: [bool; 4] = match format {
        Format::A8Unorm => [false, false, false, true],
        Format::L8
        | Format::A8L8
        | Format::L16
        | Format::V8U8
        | Format::Q8W8V8U8
        | Format::R5G6B5
        | Format::X8R8G8B8
        | Format::A1R5G5B5
        | Format::A4R4G4B4 => [true; 4],
        other => std::array::from_fn(|c| (c as u32) < other.components()),
    };
    std::array::from_fn(|c| match (present[c], c) {
        (true, _) => border[c],
        (false, 3) => one,
        (false, _) => 0.0,
    })
}

#[cfg(test)]
mod tests {
    use super::in_format;
    use crate::format::Format;

    const BORDER: [f32; 4] = [0.25, 0.5, 0.75, 0.125];

    #[test]
    fn missing_components_take_d3d_defaults() {
        assert_eq!(in_format(Format::R8Unorm, BORDER), [0.25, 0.0, 0.0, 1.0]);
        assert_eq!(in_format(Format::Rg16Float, BORDER), [0.25, 0.5, 0.0, 1.0]);
        assert_eq!(in_format(Format::Rgba8Unorm, BORDER), BORDER);
        assert_eq!(in_format(Format::Bc1Unorm, BORDER), BORDER);
        assert_eq!(in_format(Format::A8Unorm, BORDER), [0.0, 0.0, 0.0, 0.125]);
        assert_eq!(in_format(Format::D16, BORDER), [0.25, 0.0, 0.0, 1.0]);
        assert_eq!(
            in_format(Format::R32Uint, BORDER).map(f32::to_bits),
            [0.25f32.to_bits(), 0, 0, 1]
        );
        assert_eq!(in_format(Format::L8, BORDER), BORDER);
    }
}
