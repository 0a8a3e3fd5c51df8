//! Parsing JSON text, and writing a float into it.
//!
//! Every place the core reads JSON text (server answers and stream events, a string holding a
//! call's arguments, a handler's result, a voice agent's frames) calls [`parse`], and nothing
//! else in the core parses JSON text. Every number the core writes as JSON text
//! (`protocol::json_text` and `object_text`) goes through `write_number`.
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
//! Likewise `write_number` writes a float with the host's writer in such a build, a function
//! named `client_tools_core_host_write_f64`:
//!
//! ```text
//! #[no_mangle]
//! extern "Rust" fn client_tools_core_host_write_f64(value: f64, out: &mut String)
//! ```
//!
//! The wasm SDK's is JS's number to string (`String(n)`), so serde_json's float formatter
//! (zmij, with its tables) is not linked; integers are written with Rust's own formatting
//! (the same digits as serde_json's, without its `itoa`). The host writes the float (always
//! finite: a [`Value`] holds no other) as JSON text that serde_json reads back as that same
//! `f64`, and as a float: with a `.0` where it would look like an integer, and `-0.0` for
//! negative zero. Both write the shortest digits that read back as the `f64`, in exponent
//! form with an explicit sign (`1e+21`, `5e-324`, `1.7976931348623157e+308`), but JS keeps
//! fixed notation over a wider range: from 1e16 up to 1e21 (`150000000000000000.0`,
//! `100000000000000000000.0` where serde_json writes `1.5e+17`, `1e+20`) and from 1e-6 up to
//! 1e-5 (`0.000001`, `0.0000015` where serde_json writes `1e-6`, `1.5e-6`). Both are valid
//! JSON, read back as the same `f64`.
//!
//! The host's functions are found by the linker, not installed at run time: no call can come
//! before they are in place (wasm-bindgen's test runner, for one, does not run a start
//! function), and a wasm build with the feature but without them does not load (its module
//! imports them from `env`). Being `#[no_mangle]`, they are also exports of the .wasm, which
//! the JS glue does not use.
//!
//! The host's parser must read JSON as serde_json does (a `Value` without
//! `arbitrary_precision`: integers as integers, other numbers as `f64`, a number too large for
//! `f64` an error, of repeated keys the last one) and refuse values nested deeper than
//! serde_json does (127 arrays and objects) with a message that starts "recursion limit".
//! Native builds, the core's tests among them, parse and write with serde_json with or
//! without the feature.

pub(crate) mod scan;

use serde_json::{Number, Value};

#[cfg(all(feature = "host-json", target_family = "wasm"))]
extern "Rust" {
    fn client_tools_core_host_json_parse(text: &str) -> Result<Value, String>;
    fn client_tools_core_host_write_f64(value: f64, out: &mut String);
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

/// `n` as JSON text, appended to `out`: the text of `n.to_string()` (serde_json's), except
/// for a float in a wasm build with the `host-json` feature, which the host writes (see the
/// module docs for where its text differs).
pub(crate) fn write_number(n: &Number, out: &mut String) {
    #[cfg(all(feature = "host-json", target_family = "wasm"))]
    {
        use std::fmt::Write;
        // Not `Number`'s `Display`, which links serde_json's float formatter (and `itoa`).
        let _ = if let Some(u) = n.as_u64() {
            write!(out, "{u}")
        } else if let Some(i) = n.as_i64() {
            write!(out, "{i}")
        } else {
            let f = n.as_f64().unwrap_or_default();
            // SAFETY: the host defines it with this signature, as the module docs ask; a
            // build without it does not load.
            unsafe { client_tools_core_host_write_f64(f, out) };
            Ok(())
        };
    }
    #[cfg(not(all(feature = "host-json", target_family = "wasm")))]
    out.push_str(&n.to_string());
}
