//! The options both shells' `Options` hold besides the tools and callbacks, and how they become
//! the engine's config: every check that does not depend on the shell, with errors naming the
//! field (in the engine's JS spelling; the Rust shells respell them, see
//! [`Error::in_rust_spelling`]).

use super::Error;
use crate::engine::{self, Config, Paths, ToolDef, WhenHidden};
use crate::protocol::Lifetime;
use std::time::Duration;

/// How long a client's first registration may take by default: 30 s.
pub const DEFAULT_REGISTER_TIMEOUT: Duration =
    Duration::from_millis(engine::DEFAULT_REGISTER_TIMEOUT.as_ms());
/// How long one request (its answer read whole) may take by default before it counts as a
/// network error, which the engine retries where the protocol allows: 30 s.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How long the event stream may send nothing by default before it is reconnected: three of
/// the server's 15-s keep-alives.
pub const DEFAULT_STREAM_IDLE_TIMEOUT: Duration =
    Duration::from_millis(engine::DEFAULT_STREAM_IDLE_TIMEOUT.as_ms());

/// Where the session is, what the client is called and how long it lives, what it does while
/// hidden, its time limits and the request paths.
#[derive(Clone)]
pub struct Settings {
    /// The server, `https://…` (or `http://` on loopback; a page may give a path such as `/`).
    pub base_url: String,
    /// The agent session to join.
    pub session_id: String,
    /// The session token, sent as `Authorization: Bearer …`.
    pub token: String,
    /// The client name asked for; the server may add a counter (`web-2`).
    pub name: String,
    /// `never`, or a TTL kept alive by pings.
    pub lifetime: Lifetime,
    /// What the client does while its page is hidden (a worker is never hidden).
    pub when_hidden: WhenHidden,
    /// How long the first registration may take.
    pub register_timeout: Duration,
    /// How long one request may take.
    pub request_timeout: Duration,
    /// How long the stream may stay silent before it is reconnected.
    pub stream_idle_timeout: Duration,
    /// The request paths, for a server whose routes differ from PROTOCOL.md's.
    pub paths: Paths,
}

impl Settings {
    /// The session and its token, with the shell's default `name` and `lifetime`.
    pub fn new(
        base_url: impl Into<String>,
        session_id: impl Into<String>,
        token: impl Into<String>,
        name: &str,
        lifetime: Lifetime,
    ) -> Settings {
        Settings {
            base_url: base_url.into(),
            session_id: session_id.into(),
            token: token.into(),
            name: name.to_owned(),
            lifetime,
            when_hidden: WhenHidden::Keep,
            register_timeout: DEFAULT_REGISTER_TIMEOUT,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            stream_idle_timeout: DEFAULT_STREAM_IDLE_TIMEOUT,
            paths: Paths::default(),
        }
    }

    /// The engine's config with `tools`, checked as a whole: a time limit of zero, and every
    /// limit [`Config::validate`] checks (a token that cannot be sent as a header among them) are
    /// refused naming the field. `key_prefix` starts every `Idempotency-Key`; `seed` seeds the
    /// backoff's jitter.
    pub fn config(
        &self,
        tools: Vec<ToolDef>,
        key_prefix: String,
        seed: u64,
    ) -> Result<Config, Error> {
        for (field, d) in [
            ("registerTimeoutMs", self.register_timeout),
            ("requestTimeoutMs", self.request_timeout),
            ("streamIdleTimeoutMs", self.stream_idle_timeout),
        ] {
            if d.as_millis() == 0 {
                return Err(Error::invalid_option(field, "zero, must be above 0"));
            }
        }
        let mut config = Config::new(
            self.base_url.clone(),
            self.session_id.clone(),
            self.token.clone(),
            self.name.clone(),
            key_prefix,
            seed,
        );
        config.lifetime = self.lifetime.clone();
        config.when_hidden = self.when_hidden;
        config.register_timeout = engine_duration(self.register_timeout);
        config.stream_idle_timeout = Some(engine_duration(self.stream_idle_timeout));
        config.paths = self.paths.clone();
        config.tools = tools;
        config.validate()?;
        Ok(config)
    }
}

/// A duration in the engine's ms, at most `i32::MAX` ms (where a browser's `setTimeout` stops
/// counting, about 24 days).
pub fn engine_duration(d: Duration) -> crate::time::Duration {
    crate::time::Duration::from_ms(d.as_millis().min(i32::MAX as u128) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_is_checked_naming_the_field() {
        let s = Settings::new("http://127.0.0.1:1/", "s", "t", "web", Lifetime::default());
        let config = s.config(Vec::new(), "k".into(), 1).unwrap();
        assert_eq!(config.base_url, "http://127.0.0.1:1/");
        let mut zero = s.clone();
        zero.request_timeout = Duration::ZERO;
        let e = zero.config(Vec::new(), "k".into(), 1).unwrap_err();
        assert_eq!(e.to_string(), "requestTimeoutMs: zero, must be above 0");
        assert_eq!(e.in_rust_spelling().field(), Some("request_timeout"));
        let mut bad = s.clone();
        bad.token = "a\nb".into();
        let e = bad.config(Vec::new(), "k".into(), 1).unwrap_err();
        assert_eq!(e.field(), Some("token"));
        let mut name = s;
        name.name = "Not A Name".into();
        assert_eq!(
            name.config(Vec::new(), "k".into(), 1).unwrap_err().field(),
            Some("name")
        );
    }
}
