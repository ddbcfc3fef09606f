//! Small floating-point encodings (16-bit half, and the unsigned 11- and
//! 10-bit floats of `r11g11b10_float`) and their conversions to and from f32.
//!
//! Decoding is exact. Encoding follows D3D's rules for converting to a
//! lower-range float: round toward zero, finite values beyond the range
//! become the largest finite value (infinities stay infinite), NaN stays
//! NaN, denormals are produced where the format can hold them, and a format
//! without a sign bit turns every negative value (and -inf) into 0.

/// The shape of a small float.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SmallFloat {
    /// Exponent bits.
    pub exp_bits: u32,
    /// Mantissa bits.
    pub man_bits: u32,
    /// Whether a sign bit sits above the exponent.
    pub signed: bool,
}

/// IEEE half: sign, 5 exponent bits, 10 mantissa bits.
pub(crate) const F16: SmallFloat = SmallFloat {
    exp_bits: 5,
    man_bits: 10,
    signed: true,
};
/// Unsigned 11-bit float: 5 exponent bits, 6 mantissa bits.
pub(crate) const F11: SmallFloat = SmallFloat {
    exp_bits: 5,
    man_bits: 6,
    signed: false,
};
/// Unsigned 10-bit float: 5 exponent bits, 5 mantissa bits.
pub(crate) const F10: SmallFloat = SmallFloat {
    exp_bits: 5,
    man_bits: 5,
    signed: false,
};

impl SmallFloat {
    fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }

    fn exp_max(self) -> u32 {
        (1 << self.exp_bits) - 1
    }

    fn sign_bit(self) -> u32 {
        1 << (self.exp_bits + self.man_bits)
    }

    /// The f32 value of the encoded bits (only the format's low bits are read).
    pub fn decode(self, bits: u32) -> f32 {
        let man = bits & ((1 << self.man_bits) - 1);
        let exp = (bits >> self.man_bits) & self.exp_max();
        let sign = if self.signed && bits & self.sign_bit() != 0 {
            0x8000_0000
        } else {
            0
        };
        let magnitude = if exp == self.exp_max() {
            0x7f80_0000 | (man << (23 - self.man_bits))
        } else if exp == 0 {
            let scale = 1 - self.bias() - self.man_bits as i32;
            (man as f32 * 2f32.powi(scale)).to_bits()
        } else {
            let exp32 = (exp as i32 - self.bias() + 127) as u32;
            (exp32 << 23) | (man << (23 - self.man_bits))
        };
        f32::from_bits(sign | magnitude)
    }

    /// The encoding of `value`, by D3D's float-to-smaller-float rules.
    pub fn encode(self, value: f32) -> u32 {
        let bits = value.to_bits();
        let negative = bits & 0x8000_0000 != 0;
        let sign = if self.signed && negative {
            self.sign_bit()
        } else {
            0
        };
        let inf = self.exp_max() << self.man_bits;
        if value.is_nan() {
            return sign | inf | (1 << (self.man_bits - 1));
        }
        if negative && !self.signed {
            return 0;
        }
        if value.is_infinite() {
            return sign | inf;
        }
        let exp32 = ((bits >> 23) & 0xff) as i32;
        if exp32 == 0 {
            return sign;
        }
        let full = (bits & 0x007f_ffff) | 0x0080_0000;
        let exp = exp32 - 127;
        let max_exp = self.exp_max() as i32 - 1 - self.bias();
        if exp > max_exp {
            return sign | (inf - 1);
        }
        let min_exp = 1 - self.bias();
        if exp >= min_exp {
            let field = ((exp + self.bias()) as u32) << self.man_bits;
            return sign | field | ((full & 0x007f_ffff) >> (23 - self.man_bits));
        }
        let shift = (min_exp - exp) as u32 + 23 - self.man_bits;
        sign | full.checked_shr(shift).unwrap_or(0)
    }
}
