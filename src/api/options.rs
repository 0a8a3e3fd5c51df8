//! What the app configures: where the session is, the client's name and lifetime, the tools
//! with their handlers, the policies and time limits, and the optional callbacks.

use super::Tool;
use client_tools_core::api::Settings;
use client_tools_core::engine::{CallEvent, Paths, Status, WhenHidden};
use client_tools_core::protocol::Lifetime;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::time::Duration;

/// A callback told of the client's status or of a call's progress.
pub(crate) type Callback<T> = Rc<dyn Fn(&T)>;

/// Where a fresh token comes from after the server refused the current one with a 401
/// ([`Options::token_source`]): a fresh token, or why there is none.
pub(crate) type TokenSource = Rc<dyn Fn() -> Pin<Box<dyn Future<Output = Result<String, String>>>>>;

/// Everything [`Client::register`](super::Client::register) needs. Built with
/// [`Options::new`] and the setters; checked as a whole when registering.
#[derive(Clone)]
pub struct Options {
    /// What is the same in a tab and in a worker (the core's).
    pub(crate) settings: Settings,
    pub(crate) tools: Vec<Tool>,
    pub(crate) share_stream: bool,
    pub(crate) on_status: Option<Callback<Status>>,
    pub(crate) on_call: Option<Callback<CallEvent>>,
    pub(crate) signal: Option<web_sys::AbortSignal>,
    pub(crate) token_source: Option<TokenSource>,
}

impl Options {
    /// Checks the options as registering would, without registering (errors in the JS
    /// spelling: the JS reader's order of checks).
    #[cfg(feature = "js-api")]
    pub(crate) fn check(&self) -> Result<(), client_tools_core::api::Error> {
        let defs = self.tools.iter().map(|t| t.def.clone()).collect();
        self.settings.config(defs, "check".into(), 0).map(drop)
    }

    /// The server (`https://agent.example.com`, `http://` on loopback, or a path of the page's
    /// own origin), the session and its token. The client is named `web`, lives by a 60-s TTL
    /// kept alive by pings, keeps pinging while hidden and shares the session's event stream
    /// with this origin's other tabs.
    pub fn new(
        base_url: impl Into<String>,
        session_id: impl Into<String>,
        token: impl Into<String>,
    ) -> Options {
        Options {
            settings: Settings::new(base_url, session_id, token, "web", Lifetime::default()),
            tools: Vec::new(),
            share_stream: true,
            on_status: None,
            on_call: None,
            signal: None,
            token_source: None,
        }
    }

    /// The client name asked for, 1–32 of `a-z 0-9 -` (the server may add a counter: `web-2`).
    pub fn name(mut self, name: impl Into<String>) -> Options {
        self.settings.name = name.into();
        self
    }

    /// A TTL of 5–3600 s kept alive by pings (default 60 s), or `Lifetime::Never`.
    pub fn lifetime(mut self, lifetime: Lifetime) -> Options {
        self.settings.lifetime = lifetime;
        self
    }

    /// Adds a tool offered from the start.
    pub fn tool(mut self, tool: Tool) -> Options {
        self.tools.push(tool);
        self
    }

    /// Adds tools offered from the start.
    pub fn tools(mut self, tools: impl IntoIterator<Item = Tool>) -> Options {
        self.tools.extend(tools);
        self
    }

    /// What the client does while the page is hidden (default: keep pinging).
    pub fn when_hidden(mut self, when_hidden: WhenHidden) -> Options {
        self.settings.when_hidden = when_hidden;
        self
    }

    /// Whether to share the session's one event stream with this origin's other tabs on the
    /// same session (default true, where the browser can).
    pub fn share_stream(mut self, share: bool) -> Options {
        self.share_stream = share;
        self
    }

    /// How long [`Client::register`](super::Client::register) waits for the first
    /// registration, retrying network errors and 5xx meanwhile (default 30 s).
    pub fn register_timeout(mut self, timeout: Duration) -> Options {
        self.settings.register_timeout = timeout;
        self
    }

    /// How long one request may take, its answer read whole, before it is aborted and retried
    /// like a network error (default 30 s).
    pub fn request_timeout(mut self, timeout: Duration) -> Options {
        self.settings.request_timeout = timeout;
        self
    }

    /// How long the event stream may send nothing (keep-alives count) before it is
    /// reconnected (default 45 s).
    pub fn stream_idle_timeout(mut self, timeout: Duration) -> Options {
        self.settings.stream_idle_timeout = timeout;
        self
    }

    /// The request paths, for a server whose routes differ from PROTOCOL.md's.
    pub fn paths(mut self, paths: Paths) -> Options {
        self.settings.paths = paths;
        self
    }

    /// Told of every change of the registration and the stream.
    pub fn on_status(mut self, f: impl Fn(&Status) + 'static) -> Options {
        self.on_status = Some(Rc::new(f));
        self
    }

    /// Told as each call is dispatched, acked, answered or failed.
    pub fn on_call(mut self, f: impl Fn(&CallEvent) + 'static) -> Options {
        self.on_call = Some(Rc::new(f));
        self
    }

    /// Where fresh tokens come from, for sessions that outlive their token (short-lived tokens
    /// from the app's backend): after the server refuses the current token with a `401` (not
    /// a `403`), the client calls `f` once, sends the refused request again with its token
    /// and reconnects the stream with it; requests refused meanwhile wait for the same token.
    /// A fresh token refused before the server took it once, an `Err`, an empty token or none
    /// within 30 s stop the client with [`ErrorKind::Unauthorized`](crate::ErrorKind), saying
    /// which. Without it a 401 stops the client.
    ///
    /// ```no_run
    /// # use client_tools::Options;
    /// # async fn fetch_token() -> Result<String, String> { Ok("t".into()) }
    /// let options = Options::new("https://agent.example.com", "session-id", "first-token")
    ///     .token_source(|| async { fetch_token().await });
    /// ```
    pub fn token_source<F, Fut>(mut self, f: F) -> Options
    where
        F: Fn() -> Fut + 'static,
        Fut: Future<Output = Result<String, String>> + 'static,
    {
        self.token_source = Some(Rc::new(move || Box::pin(f())));
        self
    }

    /// Aborting `signal` stops the client: a pending registration fails with
    /// [`ErrorKind::Aborted`](crate::ErrorKind::Aborted) (and is undone if the server took
    /// it), a registered client leaves.
    pub fn signal(mut self, signal: web_sys::AbortSignal) -> Options {
        self.signal = Some(signal);
        self
    }
}
