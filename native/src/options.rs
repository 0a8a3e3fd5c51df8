//! The worker's `Tool` and `Options`: the core's one builder of each
//! ([`client_tools_core::api::Tool`], [`client_tools_core::api::Options`]) over the worker
//! shell, whose handlers and callbacks are `Send` and run on tokio's threads.

use crate::handler::Worker;

pub use client_tools_core::api::{
    DEFAULT_REGISTER_TIMEOUT, DEFAULT_REQUEST_TIMEOUT, DEFAULT_STREAM_IDLE_TIMEOUT,
};

/// A tool a worker serves: its declaration, its local rules and its handler (the builders are
/// [`client_tools_core::api::Tool`]'s, the same as the browser SDK's).
///
/// ```no_run
/// use client_tools_native::Tool;
/// use serde_json::json;
///
/// #[derive(serde::Deserialize)]
/// struct Sum { a: f64, b: f64 }
///
/// let echo = Tool::new("echo", "Says the text back.", |args, _ctx| async move {
///     args["text"].as_str().unwrap_or_default().to_owned()
/// })
/// .parameters(json!({"type": "object", "properties": {"text": {"type": "string"}}}));
/// let add = Tool::typed("add", "Adds two numbers.", |s: Sum, _ctx| async move {
///     (s.a + s.b).to_string()
/// });
/// ```
///
/// A handler that holds what cannot be sent to another thread does not compile in a worker
/// (in a tab it may):
///
/// ```compile_fail,E0277
/// use client_tools_native::Tool;
/// let page_only = std::rc::Rc::new(1);
/// let _ = Tool::new("count", "Counts.", move |_args, _ctx| {
///     let n = page_only.clone();
///     async move { n.to_string() }
/// });
/// ```
pub type Tool = client_tools_core::api::Tool<Worker>;

/// Everything [`Client::register`](crate::Client::register) needs (the builders are
/// [`client_tools_core::api::Options`]'s, the same as the browser SDK's). The client is named
/// `worker` and lives until it leaves by default.
///
/// ```no_run
/// # use client_tools_native::{Options, Tool};
/// # async fn fetch_token() -> Result<String, String> { Ok("t".into()) }
/// let options = Options::new("http://127.0.0.1:8787", "demo", "first-token")
///     .tool(Tool::new("ping", "Answers pong.", |_args, _ctx| async { "pong" }))
///     .token_source(|| async { fetch_token().await });
/// ```
pub type Options = client_tools_core::api::Options<Worker>;
