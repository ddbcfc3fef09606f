//! A small deterministic generator (xorshift64*) for the sampler's tests.

/// The generator's state.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A float in `[low, high)`.
    pub fn within(&mut self, low: f32, high: f32) -> f32 {
        low + (self.next() >> 40) as f32 / (1u64 << 24) as f32 * (high - low)
    }

    /// Mostly ordinary values in [-3, 3), sometimes an edge value.
    pub fn float(&mut self) -> f32 {
        const EDGES: [f32; 14] = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            0.999_999_94,
            1.000_000_1,
            1.0e-40,
            1.0e30,
            -3.0e38,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        if self.below(8) == 0 {
            self.pick(&EDGES)
        } else {
            self.within(-3.0, 3.0)
        }
    }
}
