//! What the app configures: where the session is, the client's name and lifetime, the tools
//! with their handlers, time limits and the optional status and call callbacks.

use crate::handler::{erase, CallContext, Handler};
use client_tools_core::api::{typed_arguments, IntoToolResult, Settings};
use client_tools_core::engine::{CallEvent, Paths, Status, ToolDef};
use client_tools_core::protocol::{Lifetime, ToolSpec};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

pub use client_tools_core::api::{
    DEFAULT_REGISTER_TIMEOUT, DEFAULT_REQUEST_TIMEOUT, DEFAULT_STREAM_IDLE_TIMEOUT,
};

/// A callback told of the client's status or of a call's progress.
pub(crate) type Callback<T> = Arc<dyn Fn(&T) + Send + Sync>;

/// Where a fresh token comes from after a 401 ([`Options::token_source`]).
pub(crate) type TokenSource =
    Arc<dyn Fn() -> Pin<Box<dyn Future<Output = Result<String, String>> + Send>> + Send + Sync>;

/// A tool a worker serves: its declaration, its local rules and its handler.
#[derive(Clone)]
pub struct Tool {
    /// The declaration and the local rules (the core's, as in the browser SDK).
    pub(crate) def: ToolDef,
    pub(crate) handler: Handler,
}

impl Tool {
    /// A tool whose handler is an async closure of the arguments (already checked against
    /// [`Tool::parameters`]) and a [`CallContext`]; what it returns maps to the result as
    /// [`IntoToolResult`] says. Each call runs on its own tokio task; work that blocks the
    /// thread belongs in `tokio::task::spawn_blocking`.
    ///
    /// ```no_run
    /// # use client_tools_native::Tool;
    /// let tool = Tool::new("echo", "Says the text back.", |args, _ctx| async move {
    ///     args["text"].as_str().unwrap_or_default().to_owned()
    /// });
    /// ```
    pub fn new<F, Fut, R>(name: impl Into<String>, description: impl Into<String>, f: F) -> Tool
    where
        F: Fn(Map<String, Value>, CallContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: IntoToolResult + 'static,
    {
        Tool {
            def: ToolDef::new(ToolSpec {
                name: name.into(),
                description: description.into(),
                parameters: None,
            }),
            handler: erase(f),
        }
    }

    /// A tool whose handler takes its arguments as an `A`: arguments that do not deserialize
    /// are answered `is_error` naming the field (`row_id: invalid type: integer `42`, expected
    /// a string`) and the handler does not run. As the browser SDK's `Tool::typed`.
    ///
    /// ```no_run
    /// # use client_tools_native::Tool;
    /// #[derive(serde::Deserialize)]
    /// struct Sum { a: f64, b: f64 }
    /// let add = Tool::typed("add", "Adds two numbers.", |s: Sum, _ctx| async move { (s.a + s.b).to_string() });
    /// ```
    pub fn typed<A, F, Fut, R>(
        name: impl Into<String>,
        description: impl Into<String>,
        f: F,
    ) -> Tool
    where
        A: DeserializeOwned + Send + 'static,
        F: Fn(A, CallContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: IntoToolResult + 'static,
    {
        let f = Arc::new(f);
        Tool::new(name, description, move |args, ctx| {
            let read = typed_arguments::<A>(args);
            let f = f.clone();
            async move {
                match read {
                    Ok(args) => f(args, ctx).await.into_returned(),
                    Err(why) => client_tools_core::calls::Returned::Threw(why),
                }
            }
        })
    }

    /// The JSON Schema of the arguments; calls whose arguments fail it are answered
    /// `is_error` without running the handler.
    pub fn parameters(mut self, schema: Value) -> Tool {
        self.def.spec.parameters = Some(schema);
        self
    }

    /// The local deadline of one call (default 30 s): past it the call is answered
    /// "timed out after N ms" and the handler's token is cancelled.
    pub fn timeout(mut self, timeout: Duration) -> Tool {
        self.def.timeout_ms = Some(timeout.as_millis() as u64);
        self
    }

    /// At most this many calls per agent run; later ones get an `is_error` result.
    pub fn max_calls_per_run(mut self, max: u32) -> Tool {
        self.def.max_calls_per_run = Some(max);
        self
    }

    /// Asserts the arguments' `format`s (date-time, date, time, email, uri, uuid, ipv4,
    /// ipv6) instead of reading them as annotations, as JSON Schema 2020-12 does by default.
    pub fn assert_formats(mut self, on: bool) -> Tool {
        self.def.assert_formats = on;
        self
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.def.spec.name
    }
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.def.spec.name)
            .field("description", &self.def.spec.description)
            .field("parameters", &self.def.spec.parameters)
            .field("timeout_ms", &self.def.timeout_ms)
            .field("max_calls_per_run", &self.def.max_calls_per_run)
            .field("assert_formats", &self.def.assert_formats)
            .finish_non_exhaustive()
    }
}

/// Everything [`Client::register`](crate::Client::register) needs. Built with
/// [`Options::new`] and the setters; checked as a whole when registering.
#[derive(Clone)]
pub struct Options {
    /// What is the same in a tab and in a worker (the core's).
    pub(crate) settings: Settings,
    pub(crate) tools: Vec<Tool>,
    pub(crate) on_status: Option<Callback<Status>>,
    pub(crate) on_call: Option<Callback<CallEvent>>,
    pub(crate) token_source: Option<TokenSource>,
}

impl Options {
    /// The server (`https://agent.example.com`, or `http://` on loopback), the session and
    /// its token. The client is named `worker` and lives until it leaves (`lifetime:
    /// never`): a worker has no tab to close.
    pub fn new(
        base_url: impl Into<String>,
        session_id: impl Into<String>,
        token: impl Into<String>,
    ) -> Options {
        Options {
            settings: Settings::new(base_url, session_id, token, "worker", Lifetime::Never),
            tools: Vec::new(),
            on_status: None,
            on_call: None,
            token_source: None,
        }
    }

    /// The client name asked for (the server may add a counter: `worker-2`).
    pub fn name(mut self, name: impl Into<String>) -> Options {
        self.settings.name = name.into();
        self
    }

    /// `Lifetime::Never` (the default), or a TTL kept alive by pings: the registration then
    /// lapses on its own if the process dies without leaving.
    pub fn lifetime(mut self, lifetime: Lifetime) -> Options {
        self.settings.lifetime = lifetime;
        self
    }

    /// Adds a tool.
    pub fn tool(mut self, tool: Tool) -> Options {
        self.tools.push(tool);
        self
    }

    /// The request paths, for a server whose routes differ from PROTOCOL.md's.
    pub fn paths(mut self, paths: Paths) -> Options {
        self.settings.paths = paths;
        self
    }

    /// How long [`Client::register`](crate::Client::register) waits (default 30 s).
    pub fn register_timeout(mut self, timeout: Duration) -> Options {
        self.settings.register_timeout = timeout;
        self
    }

    /// How long one request may take (default 30 s).
    pub fn request_timeout(mut self, timeout: Duration) -> Options {
        self.settings.request_timeout = timeout;
        self
    }

    /// How long the stream may stay silent before it is reconnected (default 45 s).
    pub fn stream_idle_timeout(mut self, timeout: Duration) -> Options {
        self.settings.stream_idle_timeout = timeout;
        self
    }

    /// Where fresh tokens come from, for a session that outlives its token: after the server
    /// refuses the current token with a `401` (not a `403`), the client awaits `f` once, sends
    /// the refused request again with its token and reconnects the stream with it; requests
    /// refused meanwhile wait for the same token. A fresh token refused before the server took
    /// it once, an `Err`, an empty token or none within 30 s stop the client
    /// ([`ErrorKind::Unauthorized`](crate::ErrorKind)), saying which. Without it a 401 stops the
    /// client, as the browser SDK's does.
    pub fn token_source<F, Fut>(mut self, f: F) -> Options
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<String, String>> + Send + 'static,
    {
        self.token_source = Some(Arc::new(move || Box::pin(f())));
        self
    }

    /// Told of every status change (registered, stream open, reconnecting, errors, left).
    /// Runs on the client's task: keep it quick.
    pub fn on_status(mut self, f: impl Fn(&Status) + Send + Sync + 'static) -> Options {
        self.on_status = Some(Arc::new(f));
        self
    }

    /// Told of every call's progress (dispatched, acked, answered, failed).
    /// Runs on the client's task: keep it quick.
    pub fn on_call(mut self, f: impl Fn(&CallEvent) + Send + Sync + 'static) -> Options {
        self.on_call = Some(Arc::new(f));
        self
    }
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The token stays out of logs.
        f.debug_struct("Options")
            .field("base_url", &self.settings.base_url)
            .field("session_id", &self.settings.session_id)
            .field("name", &self.settings.name)
            .field("lifetime", &self.settings.lifetime)
            .field("tools", &self.tools)
            .field("register_timeout", &self.settings.register_timeout)
            .field("request_timeout", &self.settings.request_timeout)
            .field("stream_idle_timeout", &self.settings.stream_idle_timeout)
            .finish_non_exhaustive()
    }
}
