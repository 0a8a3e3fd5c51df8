//! Time as the core sees it: an [`Instant`] is a point in ms on the shell's clock (the browser
//! shell and the native worker use ms since the Unix epoch), a [`Duration`] a span of ms. The
//! core never reads a clock: every "now" is an argument.

use std::ops::{Add, Sub};

/// A point in time, in ms on the shell's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant(u64);

/// A span of time in ms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration(u64);

impl Instant {
    /// The instant `ms` ms after the clock's origin.
    pub const fn from_ms(ms: u64) -> Instant {
        Instant(ms)
    }

    /// Ms since the clock's origin.
    pub const fn as_ms(self) -> u64 {
        self.0
    }

    /// How long after `earlier` this is; zero if it is not after it.
    pub fn since(self, earlier: Instant) -> Duration {
        Duration(self.0.saturating_sub(earlier.0))
    }
}

impl Duration {
    /// No time at all.
    pub const ZERO: Duration = Duration(0);

    /// A span of `ms` ms.
    pub const fn from_ms(ms: u64) -> Duration {
        Duration(ms)
    }

    /// A span of `s` seconds.
    pub const fn from_secs(s: u64) -> Duration {
        Duration(s.saturating_mul(1000))
    }

    /// The span in ms.
    pub const fn as_ms(self) -> u64 {
        self.0
    }
}

impl Add<Duration> for Instant {
    type Output = Instant;
    /// Saturates at the end of time rather than wrapping.
    fn add(self, d: Duration) -> Instant {
        Instant(self.0.saturating_add(d.0))
    }
}

impl Sub<Duration> for Instant {
    type Output = Instant;
    /// Saturates at the clock's origin.
    fn sub(self, d: Duration) -> Instant {
        Instant(self.0.saturating_sub(d.0))
    }
}

/// Serializes as a number of ms (`deadlineMs`, `elapsedMs` in JS).
impl serde::Serialize for Instant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.0)
    }
}

/// Serializes as a number of ms.
impl serde::Serialize for Duration {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.0)
    }
}

impl Duration {
    /// The smaller of the two spans.
    pub fn min(self, other: Duration) -> Duration {
        Duration(self.0.min(other.0))
    }
}
