//! Literal words as fxc prints them, kept exact: floats like C's `%f`
//! (`1.000000`) when that reads back to the same bits and with the
//! shortest exact digits otherwise; MSVC's names for infinities and the
//! default NaNs; small integers in signed decimal and the rest in
//! hexadecimal.

use crate::sm4::opcodes::Ty;

/// A float word.
pub fn float(bits: u32) -> String {
    let f = f32::from_bits(bits);
    match bits {
        0x7f80_0000 => return "1.#INF00".into(),
        0xff80_0000 => return "-1.#INF00".into(),
        0x7fc0_0000 => return "1.#QNAN0".into(),
        0xffc0_0000 => return "-1.#IND00".into(),
        _ if !f.is_finite() => return format!("0x{bits:08x}"),
        _ => {}
    }
    let fixed = format!("{f:.6}");
    if fixed.parse::<f32>().map(f32::to_bits) == Ok(bits) {
        fixed
    } else {
        format!("{f:?}")
    }
}

/// A double (two words, low first), with fxc's `l` suffix.
pub fn double(bits: u64) -> String {
    let d = f64::from_bits(bits);
    if !d.is_finite() {
        return format!("0x{bits:016x}");
    }
    let fixed = format!("{d:.6}");
    if fixed.parse::<f64>().map(f64::to_bits) == Ok(bits) {
        format!("{fixed}l")
    } else {
        format!("{d:?}l")
    }
}

/// An integer word: signed decimal when small, hexadecimal otherwise.
fn integer(word: u32) -> String {
    let value = word as i32;
    if value.unsigned_abs() < 10000 {
        value.to_string()
    } else {
        format!("0x{word:08x}")
    }
}

/// One literal word of an instruction whose literals are typed `ty`.
pub fn literal(word: u32, ty: Ty) -> String {
    match ty {
        Ty::F => float(word),
        Ty::I | Ty::U | Ty::D => integer(word),
        Ty::X => {
            let exponent = (word >> 23) & 0xff;
            if exponent != 0 && exponent != 0xff {
                float(word)
            } else {
                integer(word)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_read_back_exactly() {
        assert_eq!(float(0x3f80_0000), "1.000000");
        assert_eq!(float(0xbf00_0000), "-0.500000");
        assert_eq!(float(0x8000_0000), "-0.000000");
        assert_eq!(float(0x3eaa_aaab), "0.33333334");
        assert_eq!(float(1), "1e-45");
        assert_eq!(float(0x7f80_0000), "1.#INF00");
        assert_eq!(float(0x7fc0_0001), "0x7fc00001");
        assert_eq!(double(1f64.to_bits()), "1.000000l");
        assert_eq!(literal(0xffff_ffff, Ty::I), "-1");
        assert_eq!(literal(0x3f80_0000, Ty::U), "0x3f800000");
        assert_eq!(literal(255, Ty::U), "255");
        assert_eq!(literal(0xffff_fffc, Ty::U), "-4");
        assert_eq!(literal(0xffff_ffff, Ty::X), "-1");
        assert_eq!(literal(0x3f80_0000, Ty::X), "1.000000");
        assert_eq!(literal(2, Ty::X), "2");
    }
}
