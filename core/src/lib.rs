//! client-tools-core: the pure core of client-tools.
//!
//! [`calls`] (the call runtime every transport shares), [`adapters`] (the pure halves of the
//! other transports: a tool registry and its exports, turn-based answers, a voice agent's WebSocket), [`protocol`] (wire types and every limit, validation that names the field), [`sse`] (the
//! event-stream parser), [`schema`] (JSON Schema argument checks), [`engine`] (the Sessions
//! client as a sans-I/O state machine), [`json`] (where all JSON text is parsed, by a parser
//! the host may supply) and [`quote`] (names in messages, quoted without `Debug`). Nothing here
//! touches a browser, a socket or a clock:
//! the shells (the wasm SDK in the workspace root, the native worker) carry out what the engine
//! asks and feed it what happened, with "now" as an argument.

#![warn(missing_docs)]

pub mod adapters;
pub mod api;
pub mod calls;
pub mod engine;
pub mod json;
pub mod protocol;
pub mod quote;
pub mod schema;
pub mod share;
pub mod sse;
mod str_map;
pub mod text;
pub mod throttle;
pub mod time;
pub mod vec_map;
