//! The JS API (cargo feature `js-api`, on in the npm package's build): the `#[wasm_bindgen]`
//! classes and functions the package's JS wraps (pkg-template/wrap.js). Each converts JS values
//! to the Rust API's types and back; the behaviour is in Rust (`src/api`, and `registry`,
//! `turns`, `webmcp`, `ws`, `runner` for the other transports). A Rust app leaves the feature off, and
//! its module exports none of them.

mod client;
#[cfg(test)]
mod dts;
mod handler;
pub(crate) mod options;
// The option readers live with the shell (`crate::browser::read`), where client-tools/testing's
// TestAgent, built without `js-api`, reads its options with them too.
pub(crate) use crate::browser::read;
pub(crate) mod registry;
mod turns;
#[cfg(feature = "webmcp")]
mod webmcp;
mod ws;

pub use client::Client;
pub use registry::ToolRegistry;
pub use turns::TurnTools;
#[cfg(feature = "webmcp")]
pub use webmcp::expose_to_webmcp;
pub use ws::WsTools;

// The TypeScript declarations of the JS API, as real files: wasm-bindgen writes them into the
// glue's client_tools.d.ts, and scripts/pkg-entry.mjs makes the package's declarations of them.
// A native test (`dts.rs`) checks that each option set and event declared there has the
// fields of its Rust type, no more and no fewer.
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(typescript_custom_section)]
const CLIENT_TYPES: &str = include_str!("client.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const REGISTRY_TYPES: &str = include_str!("registry.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const WS_TYPES: &str = include_str!("ws.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TURN_TYPES: &str = include_str!("turns.d.ts");
#[cfg(feature = "webmcp")]
#[wasm_bindgen(typescript_custom_section)]
const WEBMCP_TYPES: &str = include_str!("webmcp.d.ts");
#[cfg(feature = "page-tools")]
#[wasm_bindgen(typescript_custom_section)]
const PAGE_TOOL_TYPES: &str = include_str!("page_tools.d.ts");
#[cfg(feature = "page-reading")]
#[wasm_bindgen(typescript_custom_section)]
const PAGE_READING_TYPES: &str = include_str!("page_reading.d.ts");
