//! From the app's options to the engine's config, and the engine's errors to this crate's.

use crate::error::{Error, ErrorKind};
use crate::handler::Handler;
use crate::options::{Options, Tool};
use client_tools_core::engine::{Config, EngineError, EngineErrorKind, ToolDef};
use client_tools_core::protocol::{ToolSpec, ValidationError};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The engine's config from the options, and the handlers by tool name.
pub(super) fn engine_config(o: &Options) -> Result<(Config, HashMap<String, Handler>), Error> {
    if !(o.base_url.starts_with("http://") || o.base_url.starts_with("https://")) {
        return Err(Error::invalid_option(
            "base_url",
            format!("{:?} must start with http:// or https://", o.base_url),
        ));
    }
    for (field, d) in [
        ("register_timeout", o.register_timeout),
        ("request_timeout", o.request_timeout),
        ("stream_idle_timeout", o.stream_idle_timeout),
    ] {
        if d.is_zero() {
            return Err(Error::invalid_option(field, "zero, must be above 0"));
        }
    }
    let (key, seed) = (random_u64(), random_u64());
    let mut config = Config::new(
        o.base_url.trim_end_matches('/'),
        o.session_id.clone(),
        o.token.clone(),
        o.name.clone(),
        format!("wk-{key:016x}"),
        seed,
    );
    config.lifetime = o.lifetime.clone();
    config.register_timeout =
        client_tools_core::time::Duration::from_ms(o.register_timeout.as_millis() as u64);
    config.stream_idle_timeout = Some(client_tools_core::time::Duration::from_ms(
        o.stream_idle_timeout.as_millis() as u64,
    ));
    config.paths = o.paths.clone();
    config.tools = tool_defs(&o.tools);
    Ok((config, handlers(&o.tools)))
}

/// The engine's tool definitions (declaration and local rules) of the tools.
pub(super) fn tool_defs(tools: &[Tool]) -> Vec<ToolDef> {
    tools
        .iter()
        .map(|t| ToolDef {
            spec: ToolSpec {
                name: t.name.clone(),
                description: t.description.clone(),
                parameters: t.parameters.clone(),
            },
            timeout_ms: t.timeout.map(|d| d.as_millis() as u64),
            max_calls_per_run: t.max_calls_per_run,
            assert_formats: t.assert_formats,
        })
        .collect()
}

/// The handlers by tool name.
pub(super) fn handlers(tools: &[Tool]) -> HashMap<String, Handler> {
    tools
        .iter()
        .map(|t| (t.name.clone(), t.handler.clone()))
        .collect()
}

/// An engine validation error, its field in this crate's spelling (`tools[0].timeout`).
pub(super) fn invalid(e: ValidationError) -> Error {
    let field = [
        ("baseUrl", "base_url"),
        ("sessionId", "session_id"),
        ("timeoutMs", "timeout"),
        ("maxCallsPerRun", "max_calls_per_run"),
        ("assertFormats", "assert_formats"),
        ("lifetime.data.seconds", "lifetime"),
    ]
    .iter()
    .fold(e.field, |f, (js, rs)| f.replace(js, rs));
    Error::invalid_option(field, e.message)
}

/// Distinct per client and per process, for `Idempotency-Key`s and the backoff jitter. Not a
/// secret: std's per-process random hash keys, the time and a counter are enough.
fn random_u64() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.finish()
}

/// An engine error as this crate's, same kind.
pub(super) fn engine_error(e: EngineError) -> Error {
    let kind = match e.kind {
        EngineErrorKind::Unauthorized => ErrorKind::Unauthorized,
        EngineErrorKind::Rejected => ErrorKind::Rejected,
        EngineErrorKind::RegisterTimeout => ErrorKind::RegisterTimeout,
        EngineErrorKind::NotRegistered => ErrorKind::NotRegistered,
    };
    Error::new(kind, e.message)
}
