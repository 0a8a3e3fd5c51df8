//! Exponential backoff with full jitter, from a seeded PRNG so that tests repeat exactly.

use crate::time::Duration;

/// SplitMix64: tiny, fast and good enough for jitter (not for secrets).
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..=max`.
    pub(crate) fn up_to(&mut self, max: u64) -> u64 {
        if max == u64::MAX {
            return self.next_u64();
        }
        // The modulo bias is below 2^-40 for the delays used here: irrelevant for jitter.
        self.next_u64() % (max + 1)
    }
}

/// The shape of one backoff: `base * 2^(attempt-1)`, capped, then a uniform draw below it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Backoff {
    pub base_ms: u64,
    pub cap_ms: u64,
}

/// Requests: 0.5 s doubling to 30 s.
pub(crate) const REQUEST_BACKOFF: Backoff = Backoff {
    base_ms: 500,
    cap_ms: 30_000,
};

/// The stream: 1 s doubling to 30 s.
pub(crate) const STREAM_BACKOFF: Backoff = Backoff {
    base_ms: 1_000,
    cap_ms: 30_000,
};

impl Backoff {
    /// The ceiling of attempt `attempt` (1 for the first retry), before jitter.
    pub(crate) fn ceiling(self, attempt: u32) -> u64 {
        let doublings = attempt.saturating_sub(1).min(32);
        self.base_ms
            .saturating_mul(1u64 << doublings)
            .min(self.cap_ms)
    }

    /// Full jitter: uniform in `0..=ceiling`, but never below `floor` (a `Retry-After` or
    /// the stream's `retry:`).
    pub(crate) fn delay(self, attempt: u32, floor: Duration, rng: &mut Rng) -> Duration {
        Duration::from_ms(rng.up_to(self.ceiling(attempt)).max(floor.as_ms()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_ceiling_doubles_to_the_cap() {
        let b = REQUEST_BACKOFF;
        assert_eq!(
            [1, 2, 3, 4, 7, 8, 100].map(|a| b.ceiling(a)),
            [500, 1000, 2000, 4000, 30_000, 30_000, 30_000]
        );
    }

    #[test]
    fn backoff_full_jitter_stays_within_floor_and_ceiling_and_spreads() {
        let mut rng = Rng::new(7);
        let draws: Vec<u64> = (0..1000)
            .map(|_| STREAM_BACKOFF.delay(3, Duration::ZERO, &mut rng).as_ms())
            .collect();
        assert!(draws.iter().all(|&d| d <= 4000));
        // Full jitter spreads over the whole range, not just near the top.
        assert!(draws.iter().any(|&d| d < 1000) && draws.iter().any(|&d| d > 3000));
        assert!((0..100).all(|_| STREAM_BACKOFF
            .delay(1, Duration::from_ms(2500), &mut rng)
            .as_ms()
            >= 2500));
    }

    #[test]
    fn backoff_same_seed_same_delays() {
        let (mut a, mut b) = (Rng::new(42), Rng::new(42));
        for attempt in 1..20 {
            assert_eq!(
                REQUEST_BACKOFF.delay(attempt, Duration::ZERO, &mut a),
                REQUEST_BACKOFF.delay(attempt, Duration::ZERO, &mut b)
            );
        }
    }
}
