//! What the app configures: where the session is, the client's name and lifetime, the tools
//! with their handlers, time limits and the optional status and call callbacks.

use crate::handler::{erase, CallContext, Handler, IntoToolResult};
use client_tools_core::engine::{CallEvent, Paths, Status};
use client_tools_core::protocol::Lifetime;
use serde_json::{Map, Value};
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// How long [`Client::register`](crate::Client::register) waits for a registration by default.
pub const DEFAULT_REGISTER_TIMEOUT: Duration = Duration::from_secs(30);
/// How long one request may take by default before it counts as a network error (and is
/// retried by the engine where the protocol allows).
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How long the event stream may stay silent by default before it counts as dropped: the
/// server sends a keep-alive every 15 s, so this is three missed in a row.
pub const DEFAULT_STREAM_IDLE_TIMEOUT: Duration = Duration::from_secs(45);

/// A callback told of the client's status or of a call's progress.
pub(crate) type Callback<T> = Arc<dyn Fn(&T) + Send + Sync>;

/// A tool a worker serves: its declaration, its local rules and its handler.
#[derive(Clone)]
pub struct Tool {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) parameters: Option<Value>,
    pub(crate) timeout: Option<Duration>,
    pub(crate) max_calls_per_run: Option<u32>,
    pub(crate) assert_formats: bool,
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
            name: name.into(),
            description: description.into(),
            parameters: None,
            timeout: None,
            max_calls_per_run: None,
            assert_formats: false,
            handler: erase(f),
        }
    }

    /// The JSON Schema of the arguments; calls whose arguments fail it are answered
    /// `is_error` without running the handler.
    pub fn parameters(mut self, schema: Value) -> Tool {
        self.parameters = Some(schema);
        self
    }

    /// The local deadline of one call (default 30 s): past it the call is answered
    /// "timed out after N ms" and the handler's token is cancelled.
    pub fn timeout(mut self, timeout: Duration) -> Tool {
        self.timeout = Some(timeout);
        self
    }

    /// At most this many calls per agent run; later ones get an `is_error` result.
    pub fn max_calls_per_run(mut self, max: u32) -> Tool {
        self.max_calls_per_run = Some(max);
        self
    }

    /// Asserts the arguments' `format`s (date-time, date, time, email, uri, uuid, ipv4,
    /// ipv6) instead of reading them as annotations, as JSON Schema 2020-12 does by default.
    pub fn assert_formats(mut self, on: bool) -> Tool {
        self.assert_formats = on;
        self
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name)
            .field("description", &self.description)
            .field("parameters", &self.parameters)
            .field("timeout", &self.timeout)
            .field("max_calls_per_run", &self.max_calls_per_run)
            .field("assert_formats", &self.assert_formats)
            .finish_non_exhaustive()
    }
}

/// Everything [`Client::register`](crate::Client::register) needs. Built with
/// [`Options::new`] and the setters; checked as a whole when registering.
#[derive(Clone)]
pub struct Options {
    pub(crate) base_url: String,
    pub(crate) session_id: String,
    pub(crate) token: String,
    pub(crate) name: String,
    pub(crate) lifetime: Lifetime,
    pub(crate) tools: Vec<Tool>,
    pub(crate) paths: Paths,
    pub(crate) register_timeout: Duration,
    pub(crate) request_timeout: Duration,
    pub(crate) stream_idle_timeout: Duration,
    pub(crate) on_status: Option<Callback<Status>>,
    pub(crate) on_call: Option<Callback<CallEvent>>,
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
            base_url: base_url.into(),
            session_id: session_id.into(),
            token: token.into(),
            name: "worker".to_owned(),
            lifetime: Lifetime::Never,
            tools: Vec::new(),
            paths: Paths::default(),
            register_timeout: DEFAULT_REGISTER_TIMEOUT,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            stream_idle_timeout: DEFAULT_STREAM_IDLE_TIMEOUT,
            on_status: None,
            on_call: None,
        }
    }

    /// The client name asked for (the server may add a counter: `worker-2`).
    pub fn name(mut self, name: impl Into<String>) -> Options {
        self.name = name.into();
        self
    }

    /// `Lifetime::Never` (the default), or a TTL kept alive by pings: the registration then
    /// lapses on its own if the process dies without leaving.
    pub fn lifetime(mut self, lifetime: Lifetime) -> Options {
        self.lifetime = lifetime;
        self
    }

    /// Adds a tool.
    pub fn tool(mut self, tool: Tool) -> Options {
        self.tools.push(tool);
        self
    }

    /// The request paths, for a server whose routes differ from PROTOCOL.md's.
    pub fn paths(mut self, paths: Paths) -> Options {
        self.paths = paths;
        self
    }

    /// How long [`Client::register`](crate::Client::register) waits (default 30 s).
    pub fn register_timeout(mut self, timeout: Duration) -> Options {
        self.register_timeout = timeout;
        self
    }

    /// How long one request may take (default 30 s).
    pub fn request_timeout(mut self, timeout: Duration) -> Options {
        self.request_timeout = timeout;
        self
    }

    /// How long the stream may stay silent before it is reconnected (default 45 s).
    pub fn stream_idle_timeout(mut self, timeout: Duration) -> Options {
        self.stream_idle_timeout = timeout;
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
            .field("base_url", &self.base_url)
            .field("session_id", &self.session_id)
            .field("name", &self.name)
            .field("lifetime", &self.lifetime)
            .field("tools", &self.tools)
            .field("register_timeout", &self.register_timeout)
            .field("request_timeout", &self.request_timeout)
            .field("stream_idle_timeout", &self.stream_idle_timeout)
            .finish_non_exhaustive()
    }
}
