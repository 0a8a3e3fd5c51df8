//! The handle a Rust app holds: register, read the registration, replace the tools, leave.

use super::{Options, Tool};
use crate::browser::oneshot::{self, Receiver};
use crate::browser::{now, Shared};
use crate::engine::{ClientState, Engine, OpId};
use crate::js::JsRefCell;
use client_tools_core::api::{Error, ErrorKind};
use std::future::Future;
use std::rc::Rc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A registration on a session: it declares the page's tools and answers the agent's calls
/// to them until it leaves.
///
/// The protocol runs on the page's event loop: the client acks and answers calls, keeps the
/// event stream open (reconnecting with `Last-Event-ID`, reading the pending calls after
/// every reconnect), pings its TTL as the page's visibility allows, registers again if the
/// server forgot it, and leaves when the page goes away.
///
/// **Dropping** the handle without [`Client::leave`] leaves (the `DELETE` goes out on its
/// own), so that the model is never offered tools nobody answers: keep it for as long as the
/// page serves its tools (in a component's state, say).
pub struct Client {
    pub(crate) shared: Rc<Shared>,
    /// The first `leave`'s op, and its outcome once the server answered: a later `leave`
    /// waits for the same op, or has its outcome.
    leaving: JsRefCell<Option<(OpId, Pending)>>,
}

/// What an op returns once its engine part is done: the outcome, when the server answered.
pub(crate) type Pending = Receiver<Result<(), Error>>;

/// An op's outcome: the engine's answer, or "stopped" if the client went first.
pub(crate) async fn settled(pending: Pending) -> Result<(), Error> {
    pending.await.unwrap_or_else(|| {
        Err(Error::new(
            ErrorKind::NotRegistered,
            "the client has stopped",
        ))
    })
}

/// The outcome of a change of the tools (`set_tools`, a scope's `update`), errors in the Rust
/// spelling: once the server has the new list, and (with WebMCP) once every
/// `webmcp::expose` that follows the client has registered it too (the ordering rule).
pub(crate) fn declared(
    shared: Option<&Rc<Shared>>,
    started: Result<Pending, Error>,
) -> impl Future<Output = Result<(), Error>> {
    #[cfg(feature = "webmcp")]
    let key = shared.map(|shared| shared.key());
    #[cfg(not(feature = "webmcp"))]
    let _ = shared;
    async move {
        settled(started.map_err(Error::in_rust_spelling)?).await?;
        #[cfg(feature = "webmcp")]
        if let Some(key) = key {
            crate::exposure::registered(key).await;
        }
        Ok(())
    }
}

/// A per-client prefix of every `Idempotency-Key`: `crypto.randomUUID()` where there is one
/// (a window's, a worker's, or Node's; secure contexts only), else the time and a random
/// number, still unique enough per page.
fn key_prefix() -> String {
    let crypto = Some(crate::js::get(&js_sys::global(), "crypto"))
        .filter(|c| crate::js::get(c, "randomUUID").is_function());
    match crypto {
        Some(c) => crate::js::call_method(&c, "randomUUID", &[])
            .ok()
            .and_then(|u| u.as_string())
            .unwrap_or_default(),
        None => format!(
            "{:x}-{:x}",
            now().as_ms(),
            (js_sys::Math::random() * 9.0e15) as u64
        ),
    }
}

impl Client {
    /// Registers on the session and starts answering calls; returns once the server took the
    /// registration.
    ///
    /// Fails with [`ErrorKind::InvalidOption`] naming the option at fault (`tools[1].name`,
    /// `register_timeout`) before anything is sent; with [`ErrorKind::Unauthorized`] or
    /// [`ErrorKind::Rejected`] when the server refuses the token or the registration; with
    /// [`ErrorKind::RegisterTimeout`] when no registration succeeded within
    /// [`Options::register_timeout`] (30 s; network errors and 5xx answers are retried until
    /// then), saying what failed last; with [`ErrorKind::Aborted`] when
    /// [`BrowserOptions::signal`](super::BrowserOptions::signal) aborts first. A registration dropped before it completes is undone.
    ///
    /// ```no_run
    /// use client_tools::{Client, Options, Tool};
    ///
    /// # async fn run() -> Result<(), client_tools::Error> {
    /// let client = Client::register(
    ///     Options::new("https://agent.example.com", "session-id", "session-token")
    ///         .name("web")
    ///         .tool(Tool::new("list_orders", "Lists the orders on screen.", |_args, _ctx| async {
    ///             "orders 1, 2, 3"
    ///         })),
    /// )
    /// .await?;
    /// client.leave().await
    /// # }
    /// ```
    pub async fn register(options: Options) -> Result<Client, Error> {
        Client::register_js_spelled(options)
            .await
            .map_err(Error::in_rust_spelling)
    }

    /// [`Client::register`] with errors naming fields as the JS options do (`registerTimeoutMs`).
    pub(crate) async fn register_js_spelled(options: Options) -> Result<Client, Error> {
        let (client, registered) = Client::start(options)?;
        settled(registered).await?;
        Ok(client)
    }

    /// Checks the options, builds the engine and sends the registration.
    fn start(options: Options) -> Result<(Client, Pending), Error> {
        let seed = (js_sys::Math::random() * 9.0e15) as u64;
        let options = options.into_parts();
        let settings = &options.settings;
        let mut config = settings.config(tools_defs(&options.tools), key_prefix(), seed)?;
        config.token_refresh = options.token_source.is_some();
        let config_refreshes = config.token_refresh;
        if let Some(signal) = options.extra.signal.as_ref() {
            if crate::js::bool_prop(signal, "aborted") {
                let reason = crate::js::error_text(&crate::js::get(signal, "reason"));
                return Err(Error::new(ErrorKind::Aborted, reason));
            }
        }
        let engine = Engine::new(config, now()).map_err(Error::from)?;
        // Where `setTimeout` stops counting.
        let request_timeout_ms = settings.request_timeout.as_millis().min(i32::MAX as u128) as u32;
        let shared = Shared::new(
            engine,
            options.tools,
            options.on_status,
            options.on_call,
            request_timeout_ms,
        );
        if let Some(source) = options.token_source {
            shared.refresh_tokens_with(source);
        }
        match options.extra.fetch.clone() {
            // The other tabs would read the stream with their own fetch: none is shared.
            Some(fetch) => shared.fetch_with(fetch),
            None if options.extra.share_stream => {
                let name = crate::browser::share_channel(settings, config_refreshes);
                shared.share_stream(name);
            }
            None => {}
        }
        let (waiter, registered) = oneshot::channel();
        shared.wait_registered(waiter);
        if let Some(signal) = &options.extra.signal {
            shared.stop_on(signal);
        }
        shared.drain();
        let client = Client {
            shared,
            leaving: JsRefCell::new(None),
        };
        Ok((client, registered))
    }

    /// The client id the server gave (`cli_…`): it changes if the client registers again, and
    /// stays the last one once the client left.
    pub fn id(&self) -> Option<String> {
        self.shared.id_and_name().0
    }

    /// The name the client got: the one asked for, or with a counter appended (`web-2`).
    pub fn name(&self) -> Option<String> {
        self.shared.id_and_name().1
    }

    /// When the registration runs out unless pinged; `None` for a `never` lifetime and once
    /// left.
    pub fn expires_at(&self) -> Option<SystemTime> {
        let at = self.shared.engine().expiry()?;
        Some(UNIX_EPOCH + Duration::from_millis(at.as_ms()))
    }

    /// Registering (also after a lapse), registered, left, or stopped for good after a fatal
    /// error.
    pub fn state(&self) -> ClientState {
        self.shared.engine().state()
    }

    /// Replaces the tools on offer (a `PUT`); the future completes once the server has the new
    /// list. The list is taken at once, before the future is first polled: calls that arrive
    /// from now on use the new tools, and the result of a call whose handler called
    /// `set_tools` is posted only after the new list is declared (a call that changed the
    /// screen is answered after the new screen's tools are in place). Fails naming a bad tool
    /// (`tools[1].name: …`), or when the server refuses the list.
    pub fn set_tools(&self, tools: Vec<Tool>) -> impl Future<Output = Result<(), Error>> {
        let started = self.begin_set_tools(tools);
        declared(Some(&self.shared), started)
    }

    /// The engine part of `set_tools`, errors in the JS spelling.
    pub(crate) fn begin_set_tools(&self, tools: Vec<Tool>) -> Result<Pending, Error> {
        let root = client_tools_core::api::ScopeId::ROOT;
        self.shared.scopes.borrow_mut().update(root, tools)?;
        let (waiter, pending) = oneshot::channel();
        // At once, with the other scopes' changes: the `PUT` goes out now, as it always did.
        self.shared.scopes_changed(Some(waiter));
        self.shared.flush_scopes();
        Ok(pending)
    }

    /// Leaves the session (a `DELETE`): frees the name; calls still owed fail on the server
    /// with `client_gone` and their handlers' contexts are cancelled. The client is done for
    /// good. It completes within 5 s whatever the server does (unconfirmed, the status says
    /// the server was not told). It is idempotent: a second call sends nothing and completes
    /// with the first one's outcome, when the first does; a client that stopped on an error has
    /// nothing to leave and returns `Ok(())` at once.
    pub fn leave(&self) -> impl Future<Output = Result<(), Error>> {
        settled(self.begin_leave())
    }

    /// The engine part of `leave`, done at once (the `DELETE` goes out now, whether or not the
    /// outcome is awaited): the first call leaves; each call's outcome is the first one's.
    pub(crate) fn begin_leave(&self) -> Pending {
        let (waiter, pending) = oneshot::channel();
        let first = self
            .leaving
            .borrow()
            .as_ref()
            .map(|(op, o)| (*op, o.peek()));
        match first {
            Some((op, None)) => self.shared.add_op(op, waiter),
            Some((_, Some(Some(outcome)))) => waiter.send(outcome),
            // The client stopped before the server answered: "stopped", as the first one got.
            Some((_, Some(None))) => drop(waiter),
            None if self.state() == ClientState::Failed => waiter.send(Ok(())),
            None => {
                let op = self.shared.engine.borrow_mut().leave(now());
                let (first, outcome) = oneshot::channel();
                self.shared.add_op(op, first);
                self.shared.add_op(op, waiter);
                *self.leaving.borrow_mut() = Some((op, outcome));
                self.shared.drain();
            }
        }
        pending
    }
}

/// The engine's definitions of `tools`.
fn tools_defs(tools: &[Tool]) -> Vec<client_tools_core::calls::ToolDef> {
    let mut defs = Vec::with_capacity(tools.len());
    for t in tools {
        defs.push(t.parts().def.clone());
    }
    defs
}

/// A client that is dropped (by Rust, or freed by JS) leaves, so the model is not offered
/// tools that nobody answers.
impl Drop for Client {
    fn drop(&mut self) {
        if matches!(
            self.shared.engine().state(),
            ClientState::Registering | ClientState::Registered
        ) {
            self.shared.engine.borrow_mut().leave(now());
            self.shared.drain();
        }
    }
}
