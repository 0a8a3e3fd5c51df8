//! From the app's options to the engine's config, and the engine's errors to this crate's.

use crate::handler::Handler;
use crate::options::{Options, Tool};
use client_tools_core::api::Error;
use client_tools_core::engine::{Config, EngineError, ToolDef};
use client_tools_core::protocol::ValidationError;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The engine's config from the options, and the handlers by tool name. Fields are named as
/// the builders name them (`base_url`, `tools[0].timeout`).
pub(super) fn engine_config(o: &Options) -> Result<(Config, HashMap<String, Handler>), Error> {
    let o = o.parts();
    let base_url = &o.settings.base_url;
    // A worker has no page to resolve a path against.
    if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
        return Err(Error::invalid_option(
            "base_url",
            format!("{:?} must start with http:// or https://", base_url),
        ));
    }
    let (key, seed) = (random_u64(), random_u64());
    let mut settings = o.settings.clone();
    settings.base_url = base_url.trim_end_matches('/').to_owned();
    let mut config = settings
        .config(tool_defs(&o.tools), format!("wk-{key:016x}"), seed)
        .map_err(Error::in_rust_spelling)?;
    config.token_refresh = o.token_source.is_some();
    Ok((config, handlers(&o.tools)))
}

/// The engine's tool definitions (declaration and local rules) of the tools.
pub(super) fn tool_defs(tools: &[Tool]) -> Vec<ToolDef> {
    tools.iter().map(|t| t.parts().def.clone()).collect()
}

/// The handlers by tool name.
pub(super) fn handlers(tools: &[Tool]) -> HashMap<String, Handler> {
    tools
        .iter()
        .map(|t| (t.name().to_owned(), t.parts().handler.clone()))
        .collect()
}

/// An engine validation error, its field in this crate's spelling (`tools[0].timeout`).
pub(super) fn invalid(e: ValidationError) -> Error {
    Error::from(e).in_rust_spelling()
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
    Error::from(e)
}
