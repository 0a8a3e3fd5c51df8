//! Parsing JSON text: every place the core reads JSON text (server answers and stream events,
//! a string holding a call's arguments, a handler's result, a voice agent's frames) calls
//! [`parse`], and nothing else in the core parses JSON text.
//!
//! [`parse`] is `serde_json::from_str`, except in a wasm build with the `host-json` feature
//! (the wasm SDK turns it on): there it calls the host's parser, a function the crate that
//! turns the feature on defines under the name `client_tools_core_host_json_parse`:
//!
//! ```text
//! #[no_mangle]
//! extern "Rust" fn client_tools_core_host_json_parse(text: &str) -> Result<Value, String>
//! ```
//!
//! The wasm SDK's is the browser's `JSON.parse`, walked into a [`Value`], so serde_json's text
//! parser (its `Deserializer`, number parsing and float tables) is not linked: the SDK's .wasm
//! is 13 KB smaller, 6.5 KB gzipped, its walker included.
//!
//! The host's parser is found by the linker, not installed at run time: no call can come
//! before it is in place (wasm-bindgen's test runner, for one, does not run a start function),
//! and a wasm build with the feature but without the function does not load (its module
//! imports the function from `env`). Being `#[no_mangle]`, it is also an export of the .wasm,
//! which the JS glue does not use.
//!
//! The host's parser must read JSON as serde_json does (a `Value` without
//! `arbitrary_precision`: integers as integers, other numbers as `f64`, a number too large for
//! `f64` an error, of repeated keys the last one) and refuse values nested deeper than
//! serde_json does (127 arrays and objects) with a message that starts "recursion limit".
//! Native builds, the core's tests among them, parse with serde_json with or without the
//! feature.

use serde_json::Value;

#[cfg(all(feature = "host-json", target_family = "wasm"))]
extern "Rust" {
    fn client_tools_core_host_json_parse(text: &str) -> Result<Value, String>;
}

/// JSON text as a value; the error says what is wrong (and, from serde_json, where).
pub fn parse(text: &str) -> Result<Value, String> {
    #[cfg(all(feature = "host-json", target_family = "wasm"))]
    // SAFETY: the host defines it with this signature, as the module docs ask; a build
    // without it does not load.
    return unsafe { client_tools_core_host_json_parse(text) };
    #[cfg(not(all(feature = "host-json", target_family = "wasm")))]
    serde_json::from_str(text).map_err(|e| e.to_string())
}
