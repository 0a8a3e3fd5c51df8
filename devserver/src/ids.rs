//! Fresh ids and tokens: a prefix and 32 hex digits.
//!
//! The digits come from std's per-process random hash keys mixed with a counter and the time:
//! unguessable enough for a development server on loopback, not a cryptographic secret.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

static COUNTER: AtomicU64 = AtomicU64::new(0);

fn random_u64() -> u64 {
    let mut h = RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    h.write_u64(nanos);
    h.finish()
}

/// A new id such as `cli_5f0c…`: `prefix`, `_`, 32 hex digits.
pub fn new_id(prefix: &str) -> String {
    format!("{prefix}_{:016x}{:016x}", random_u64(), random_u64())
}
