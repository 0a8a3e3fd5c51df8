//! client-tools for backend workers written in Rust: a worker registers as a *client* of an
//! agent session and serves tools the agent's model may call, over the Sessions API.
//!
//! The protocol is the browser SDK's, run by the same engine ([`client_tools_core::engine`],
//! a sans-I/O state machine); this crate is only its shell on tokio, with hyper for HTTP/1.1
//! and rustls for `https://`. So a worker acks at once, runs each call id once, checks the
//! arguments against the tool's JSON Schema, reconnects the event stream with
//! `Last-Event-ID`, reads the pending calls after every reconnect and registers again if the
//! server forgot it, exactly as a web page does.
//!
//! ```no_run
//! use client_tools_native::{Client, Options, Tool};
//! use serde_json::json;
//!
//! # async fn run() -> Result<(), client_tools_native::Error> {
//! let client = Client::register(
//!     Options::new("http://127.0.0.1:8787", "demo", "secret")
//!         .name("worker")
//!         .tool(
//!             Tool::new("add", "Adds two numbers.", |args, _ctx| async move {
//!                 json!(args["a"].as_f64().unwrap_or(0.0) + args["b"].as_f64().unwrap_or(0.0))
//!             })
//!             .parameters(json!({"type": "object", "required": ["a", "b"],
//!                 "properties": {"a": {"type": "number"}, "b": {"type": "number"}}})),
//!         ),
//! )
//! .await?;
//! tokio::signal::ctrl_c().await.ok();
//! client.leave().await
//! # }
//! ```
//!
//! Handlers are async closures `|arguments, ctx| async move { … }`: the arguments passed the
//! tool's schema, and [`CallContext`] carries the call id, the run id, a cancellation token
//! and the deadline. What a handler returns becomes the result as [`IntoToolResult`] says;
//! a handler that panics answers an `is_error` result (the panic's message is not sent).
//!
//! Everything a model sends is treated as hostile: arguments are checked before a handler
//! sees them, and a result says only what the handler returned.

#![warn(missing_docs)]

mod client;
mod driver;
mod handler;
mod http;
mod options;

pub use client::Client;
pub use client_tools_core::api::{Error, ErrorKind, IntoToolResult};
pub use client_tools_core::engine::{CallEvent, ClientState, Paths, Status};
pub use client_tools_core::protocol::Lifetime;
pub use handler::{CallContext, Worker, DONE_TEXT, PANICKED_TEXT};
pub use options::{
    Options, Tool, DEFAULT_REGISTER_TIMEOUT, DEFAULT_REQUEST_TIMEOUT, DEFAULT_STREAM_IDLE_TIMEOUT,
};
/// The cancellation token a handler gets in its [`CallContext`].
pub use tokio_util::sync::CancellationToken;

/// The backend worker guide's Rust examples, compiled as doctests (`cargo test --doc`).
#[cfg(doctest)]
#[doc = include_str!("../../docs/workers.md")]
pub struct GuideExamples;
