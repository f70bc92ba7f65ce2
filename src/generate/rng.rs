//! A tiny deterministic pseudo-random generator, so that a generated
//! problem is reproducible from its seed without a `rand` dependency.

/// SplitMix64 (Steele, Lea and Flood, 2014): one 64-bit word of state,
/// statistically sound for generating puzzles, and identical on every
/// platform, which keeps shipped problems reproducible.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator seeded with `seed`; equal seeds give equal sequences.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 uniformly distributed bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..bound`, or 0 when `bound` is 0.
    ///
    /// Lemire's multiply-and-shift with rejection, so there is no modulo
    /// bias even for bounds that do not divide 2^64.
    pub fn below(&mut self, bound: u64) -> u64 {
        if bound == 0 {
            return 0;
        }
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(bound);
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }

    /// A uniform index into a slice of length `len`, or 0 when `len` is 0.
    pub fn index(&mut self, len: usize) -> usize {
        // usize fits in u64 on every supported platform, and the result is
        // below `len`, so both conversions are lossless.
        self.below(len as u64) as usize
    }

    /// A uniform integer in the inclusive range `low..=high` (`low` when
    /// the range is empty).
    pub fn in_range(&mut self, low: u64, high: u64) -> u64 {
        if high <= low {
            return low;
        }
        match (high - low).checked_add(1) {
            Some(width) => low + self.below(width),
            None => self.next_u64(),
        }
    }

    /// Shuffles `items` uniformly (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for last in (1..items.len()).rev() {
            let pick = self.index(last + 1);
            items.swap(last, pick);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn splitmix64_reference_values() {
        // First outputs for seed 1234567 from the reference C implementation.
        let mut rng = Rng::new(1_234_567);
        assert_eq!(rng.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(rng.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn below_stays_in_bounds_and_covers_them() {
        let mut rng = Rng::new(7);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            let value = rng.below(6);
            seen[value as usize] += 1;
        }
        assert!(
            seen.iter().all(|&count| (800..1200).contains(&count)),
            "{seen:?}"
        );
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.in_range(5, 5), 5);
        assert!((3..=9).contains(&rng.in_range(3, 9)));
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = Rng::new(3);
        let mut items: Vec<u32> = (0..50).collect();
        rng.shuffle(&mut items);
        assert_ne!(items, (0..50).collect::<Vec<_>>());
        items.sort_unstable();
        assert_eq!(items, (0..50).collect::<Vec<_>>());
    }
}
