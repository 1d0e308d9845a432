//! The one random-number helper of the core: [`Rng`] (SplitMix64) for noise, openings, seeds and
//! the rules board's playouts, and [`FastRng`] (xorshift64*, seeded through SplitMix64) for the
//! hot loop of the Go AI's playouts. Both are deterministic for a seed.

use crate::zobrist::splitmix64;

/// SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for a seed (mixed with a constant, so that seed 0 is as good as any).
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_5EED)
    }

    /// A generator that goes on from a raw state ([`Rng::state`]).
    pub fn from_state(state: u64) -> Rng {
        Rng(state)
    }

    pub fn state(&self) -> u64 {
        self.0
    }

    pub fn next_u64(&mut self) -> u64 {
        let (s, v) = splitmix64(self.0);
        self.0 = s;
        v
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform in `0..n` for small `n` (below 2³²), from the high 32 bits: one multiply.
    #[inline]
    pub fn below_small(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// xorshift64*: a few operations a number, for the playouts.
#[derive(Clone, Debug)]
pub struct FastRng(u64);

impl Default for FastRng {
    fn default() -> FastRng {
        FastRng::new(0)
    }
}

impl FastRng {
    pub fn new(seed: u64) -> FastRng {
        FastRng(splitmix64(seed).1 | 1)
    }

    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (`n` > 0).
    #[inline(always)]
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_in_range() {
        let mut a = Rng::new(5);
        let mut b = Rng::new(5);
        assert_eq!(a.next_u64(), b.next_u64());
        let mut counts = [0u32; 7];
        for _ in 0..7000 {
            let v = a.below(7) as usize;
            counts[v] += 1;
            assert!(b.below_small(13) < 13);
        }
        assert!(counts.iter().all(|&c| c > 800 && c < 1200), "{counts:?}");
        let mut f = FastRng::new(9);
        let mut g = FastRng::new(9);
        for _ in 0..100 {
            assert_eq!(f.next_u64(), g.next_u64());
            assert!(f.below(10) < 10);
            g.below(10);
        }
        // a state carries on exactly
        let mut r = Rng::new(1);
        r.next_u64();
        let mut s = Rng::from_state(r.state());
        assert_eq!(r.next_u64(), s.next_u64());
    }
}
