//! Fault injection, per session, for the SDK's reliability tests: close streams after N
//! events, send every stream event twice, fail the next K requests whose path contains a
//! string, delay every answer. The body of `POST /v1/sessions/{id}/faults` is a [`Faults`];
//! devserver/README.md documents it.

use crate::error::HttpError;
use serde::{Deserialize, Serialize};

/// The faults in force for a session. Each POST replaces the whole set; absent fields are off.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Faults {
    /// Every stream of the session closes after sending this many events (replayed ones count).
    #[serde(default)]
    pub close_stream_after_events: Option<u64>,
    /// Every stream event is sent twice, with the same id.
    #[serde(default)]
    pub repeat_events: bool,
    /// Fail requests whose path contains a string.
    #[serde(default)]
    pub fail_requests: Option<FailRequests>,
    /// Every answer of the session (but the stream's events) is held back this long.
    #[serde(default)]
    pub delay_ms: u64,
}

/// Answer the next `count` requests whose path contains `path_contains` with `status`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailRequests {
    pub path_contains: String,
    pub status: u16,
    pub count: u32,
    /// Sent as `Retry-After` (seconds) with the injected answer.
    #[serde(default)]
    pub retry_after_seconds: Option<u64>,
}

/// The longest `delay_ms` accepted: a minute is plenty to trip any client timeout.
const DELAY_MAX_MS: u64 = 60_000;

impl Faults {
    /// Checks the ranges, naming the field: status 400 to 599, count and close-after at least 1.
    pub fn validate(&self) -> Result<(), HttpError> {
        if self.close_stream_after_events == Some(0) {
            return Err(HttpError::invalid(
                "close_stream_after_events",
                "must be at least 1 (leave it out to keep streams open)",
            ));
        }
        if self.delay_ms > DELAY_MAX_MS {
            return Err(HttpError::invalid(
                "delay_ms",
                format!("{} ms, at most {DELAY_MAX_MS}", self.delay_ms),
            ));
        }
        if let Some(fail) = &self.fail_requests {
            if !(400..=599).contains(&fail.status) {
                return Err(HttpError::invalid(
                    "fail_requests.status",
                    format!("{}, must be 400 to 599", fail.status),
                ));
            }
            if fail.count == 0 {
                return Err(HttpError::invalid(
                    "fail_requests.count",
                    "must be at least 1",
                ));
            }
        }
        Ok(())
    }

    /// If a request to `path` is to fail, counts it and answers the injected error.
    pub fn intercept(&mut self, path: &str) -> Option<HttpError> {
        let fail = self.fail_requests.as_mut()?;
        if !path.contains(&fail.path_contains) {
            return None;
        }
        fail.count -= 1;
        // `fail.status` is 400 to 599 (checked when the faults were set).
        let mut error = HttpError::with_status(
            fail.status,
            format!(
                "injected fault: requests whose path contains {:?} fail",
                fail.path_contains
            ),
        );
        error.retry_after = fail.retry_after_seconds;
        if fail.count == 0 {
            self.fail_requests = None;
        }
        Some(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fails_exactly_count_matching_requests() {
        let mut f = Faults {
            fail_requests: Some(FailRequests {
                path_contains: "/result".into(),
                status: 503,
                count: 2,
                retry_after_seconds: Some(1),
            }),
            ..Faults::default()
        };
        assert!(f.intercept("/v1/sessions/s/clients/c/ping").is_none());
        let e = f
            .intercept("/v1/sessions/s/clients/c/calls/k/result")
            .unwrap();
        assert_eq!(
            (e.status, e.kind, e.retry_after),
            (503, "server_error", Some(1))
        );
        assert!(f.intercept("/x/result").is_some());
        assert!(f.intercept("/x/result").is_none());
    }

    #[test]
    fn names_the_field_out_of_range() {
        let bad = |f: Faults| f.validate().unwrap_err().param.unwrap();
        let fail = |status, count| FailRequests {
            path_contains: "x".into(),
            status,
            count,
            retry_after_seconds: None,
        };
        assert_eq!(
            bad(Faults {
                fail_requests: Some(fail(200, 1)),
                ..Faults::default()
            }),
            "fail_requests.status"
        );
        assert_eq!(
            bad(Faults {
                fail_requests: Some(fail(500, 0)),
                ..Faults::default()
            }),
            "fail_requests.count"
        );
        assert_eq!(
            bad(Faults {
                close_stream_after_events: Some(0),
                ..Faults::default()
            }),
            "close_stream_after_events"
        );
    }
}
