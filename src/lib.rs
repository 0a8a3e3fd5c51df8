//! client-tools: give an AI agent tools that only your web page can run.
//!
//! The wasm SDK: a thin browser shell ([`Client`], [`WsTools`] for a voice agent's WebSocket,
//! the page [`tools`]) over the pure, clock-free
//! core in the `client-tools-core` crate, re-exported here as [`protocol`], [`sse`], [`schema`]
//! and [`engine`].

#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

mod browser;
mod client;
mod js;
mod registry;
mod runner;

#[cfg(feature = "page-tools")]
pub mod tools;
mod turns;
mod webmcp;
mod ws;

pub use client::Client;
pub use client_tools_core::{engine, protocol, schema, sse};
pub use registry::ToolRegistry;
pub use turns::TurnTools;
pub use webmcp::expose_to_webmcp;
pub use ws::WsTools;

/// The core's JSON text parser in the browser (the `host-json` feature, see
/// `client_tools_core::json`): `JSON.parse`, walked into a value (`js::json::json_value`, which the
/// shell's own JSON reading calls too). The core calls it by this name, resolved by the linker.
#[cfg(target_family = "wasm")]
#[no_mangle]
extern "Rust" fn client_tools_core_host_json_parse(
    text: &str,
) -> Result<serde_json::Value, String> {
    js::json::json_value(text)
}

/// The core's pattern engine in the browser (the `host-regex` feature, see
/// `client_tools_core::schema`): the page's `RegExp` (`js::regex::pattern`), so no regex engine
/// is in the .wasm. The core calls it by this name, resolved by the linker.
#[cfg(target_family = "wasm")]
#[no_mangle]
extern "Rust" fn client_tools_core_host_pattern(
    pattern: &str,
    text: Option<&str>,
) -> Result<bool, String> {
    js::regex::pattern(pattern, text)
}

/// The core's float writer in the browser (the `host-json` feature, see
/// `client_tools_core::json`): JS's number to string (`js::json::write_f64`), so serde_json's float
/// formatter is not in the .wasm. The core calls it by this name, resolved by the linker.
#[cfg(target_family = "wasm")]
#[no_mangle]
extern "Rust" fn client_tools_core_host_write_f64(value: f64, out: &mut String) {
    js::json::write_f64(value, out)
}
