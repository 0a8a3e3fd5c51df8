//! The one `Options` builder of both shells: where the session is, the client's name and
//! lifetime, the tools, the time limits and the optional callbacks, with the callback types
//! the shell's ([`Shell`]).

use super::shell::{HoldsCallback, HoldsTokenSource, Shell, Threads};
use super::{Settings, Tool};
use crate::engine::{CallEvent, Paths, Status};
use crate::protocol::Lifetime;
use std::fmt;
use std::time::Duration;

/// A shell's callback, told of the client's status or of a call's progress.
pub type Callback<S, T> = <<S as Shell>::Threads as Threads>::Callback<T>;
/// A shell's token source.
pub type TokenSource<S> = <<S as Shell>::Threads as Threads>::TokenSource;

/// Everything a client needs to register. Built with [`Options::new`] and the setters;
/// checked as a whole when registering. The browser SDK's `client_tools::Options` and the
/// worker's `client_tools_native::Options` are this type over their shell, so they have the
/// same builders (the browser adds its own: `client_tools::BrowserOptions`).
pub struct Options<S: Shell> {
    parts: OptionsParts<S>,
}

/// What the options are made of, as the shell's client reads them.
pub struct OptionsParts<S: Shell> {
    /// What is the same in a tab and in a worker.
    pub settings: Settings,
    /// The tools offered from the start.
    pub tools: Vec<Tool<S>>,
    /// Told of every change of the registration and the stream.
    pub on_status: Option<Callback<S, Status>>,
    /// Told as each call is dispatched, acked, answered or failed.
    pub on_call: Option<Callback<S, CallEvent>>,
    /// Where fresh tokens come from after a 401.
    pub token_source: Option<TokenSource<S>>,
    /// What only this shell's options hold.
    pub extra: S::Extra,
}

impl<S: Shell> Clone for OptionsParts<S> {
    fn clone(&self) -> Self {
        OptionsParts {
            settings: self.settings.clone(),
            tools: self.tools.clone(),
            on_status: self.on_status.clone(),
            on_call: self.on_call.clone(),
            token_source: self.token_source.clone(),
            extra: self.extra.clone(),
        }
    }
}

impl<S: Shell> Clone for Options<S> {
    fn clone(&self) -> Self {
        Options {
            parts: self.parts.clone(),
        }
    }
}

impl<S: Shell> Options<S> {
    /// The server (`https://agent.example.com`, or `http://` on loopback; a page may give a
    /// path of its own origin, such as `/`), the session and its token. In a tab the client is
    /// named `web` and lives by a 60-s TTL kept alive by pings; in a worker it is named
    /// `worker` and lives until it leaves (`Lifetime::Never`: a worker has no tab to close).
    pub fn new(
        base_url: impl Into<String>,
        session_id: impl Into<String>,
        token: impl Into<String>,
    ) -> Self {
        Options {
            parts: OptionsParts {
                settings: Settings::new(base_url, session_id, token, S::NAME, S::lifetime()),
                tools: Vec::new(),
                on_status: None,
                on_call: None,
                token_source: None,
                extra: S::extra(),
            },
        }
    }

    /// The client name asked for, 1–32 of `a-z 0-9 -` (the server may add a counter: `web-2`).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.parts.settings.name = name.into();
        self
    }

    /// A TTL of 5–3600 s kept alive by pings, or `Lifetime::Never` (a tab's default is a 60-s
    /// TTL, a worker's `Never`). With a TTL the registration lapses on its own if the page or
    /// the process goes away without leaving.
    pub fn lifetime(mut self, lifetime: Lifetime) -> Self {
        self.parts.settings.lifetime = lifetime;
        self
    }

    /// Adds a tool offered from the start.
    pub fn tool(mut self, tool: Tool<S>) -> Self {
        self.parts.tools.push(tool);
        self
    }

    /// Adds tools offered from the start.
    pub fn tools(mut self, tools: impl IntoIterator<Item = Tool<S>>) -> Self {
        self.parts.tools.extend(tools);
        self
    }

    /// How long registering waits for the first registration, retrying network errors and
    /// 5xx meanwhile (default 30 s).
    pub fn register_timeout(mut self, timeout: Duration) -> Self {
        self.parts.settings.register_timeout = timeout;
        self
    }

    /// How long one request may take, its answer read whole, before it is aborted and retried
    /// like a network error (default 30 s).
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.parts.settings.request_timeout = timeout;
        self
    }

    /// How long the event stream may send nothing (keep-alives count) before it is
    /// reconnected (default 45 s).
    pub fn stream_idle_timeout(mut self, timeout: Duration) -> Self {
        self.parts.settings.stream_idle_timeout = timeout;
        self
    }

    /// The request paths, for a server whose routes differ from PROTOCOL.md's.
    pub fn paths(mut self, paths: Paths) -> Self {
        self.parts.settings.paths = paths;
        self
    }

    /// Told of every change of the registration and the stream (registered, stream open,
    /// reconnecting, errors, left). Runs on the client's task: keep it quick. In a worker it
    /// must be `Send + Sync`.
    // Inlined as the shells' own builders were: a call costs more wasm than the body.
    #[inline]
    pub fn on_status<F>(mut self, f: F) -> Self
    where
        F: Fn(&Status),
        S::Threads: HoldsCallback<Status, F>,
    {
        self.parts.on_status = Some(<S::Threads as HoldsCallback<Status, F>>::callback(f));
        self
    }

    /// Told as each call is dispatched, acked, answered or failed. Runs on the client's task:
    /// keep it quick. In a worker it must be `Send + Sync`.
    // Inlined as the shells' own builders were: a call costs more wasm than the body.
    #[inline]
    pub fn on_call<F>(mut self, f: F) -> Self
    where
        F: Fn(&CallEvent),
        S::Threads: HoldsCallback<CallEvent, F>,
    {
        self.parts.on_call = Some(<S::Threads as HoldsCallback<CallEvent, F>>::callback(f));
        self
    }

    /// Where fresh tokens come from, for sessions that outlive their token (short-lived tokens
    /// from the app's backend): after the server refuses the current token with a `401` (not
    /// a `403`), the client awaits `f()` once, sends the refused request again with its token
    /// and reconnects the stream with it; requests refused meanwhile wait for the same token.
    /// A fresh token refused before the server took it once, an `Err`, an empty token or none
    /// within 30 s stop the client with [`ErrorKind::Unauthorized`](super::ErrorKind),
    /// saying which. Without it a 401 stops the client. In a worker `f` and its future must be
    /// `Send`.
    // Inlined as the shells' own builders were: a call costs more wasm than the body.
    #[inline]
    pub fn token_source<F, Fut>(mut self, f: F) -> Self
    where
        F: Fn() -> Fut,
        S::Threads: HoldsTokenSource<F, Fut>,
    {
        self.parts.token_source = Some(<S::Threads as HoldsTokenSource<F, Fut>>::token_source(f));
        self
    }

    /// What the options are made of, as the shell's client reads them.
    pub fn parts(&self) -> &OptionsParts<S> {
        &self.parts
    }

    /// What the options are made of, to set a part no builder here sets (a shell's own
    /// builders, such as the browser's `when_hidden`).
    pub fn parts_mut(&mut self) -> &mut OptionsParts<S> {
        &mut self.parts
    }

    /// What the options are made of, moved out.
    pub fn into_parts(self) -> OptionsParts<S> {
        self.parts
    }
}

impl<S: Shell> fmt::Debug for Options<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The token stays out of logs.
        let s = &self.parts.settings;
        f.debug_struct("Options")
            .field("base_url", &s.base_url)
            .field("session_id", &s.session_id)
            .field("name", &s.name)
            .field("lifetime", &s.lifetime)
            .field("tools", &self.parts.tools)
            .field("register_timeout", &s.register_timeout)
            .field("request_timeout", &s.request_timeout)
            .field("stream_idle_timeout", &s.stream_idle_timeout)
            .finish_non_exhaustive()
    }
}
