//! The server's state: a [`Hub`] of sessions, each a [`Session`] driving the sans-I/O
//! [`SessionCore`] of `client-tools-sessions` behind one lock. Every rule of PROTOCOL.md that
//! changes a session lives there; this module gives it the time, the deadline timers and a
//! watch channel that wakes the streams and long polls, and the routes only translate HTTP to
//! these calls. No lock is held across an `.await`.

use crate::cli::Config;
use crate::clock::Clock;
use crate::error::HttpError;
use crate::faults::Faults;
use crate::idempotency::IdempotencyStore;
use crate::ids::new_id;
use client_tools_core::protocol::{
    CallResult, ClientInfo, RegisterRequest, ToolDispatched, ToolSpec,
};
use client_tools_sessions::{CallView, ModelTool, RunView, SessionCore};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::watch;

/// Locks a mutex; a panic elsewhere while holding it does not make every later request fail.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// All sessions, found by id and by token.
pub struct Hub {
    pub config: Arc<Config>,
    pub clock: Clock,
    registry: Mutex<Registry>,
    /// Idempotency records of `POST /v1/sessions`, which belongs to no session yet.
    creations: Mutex<IdempotencyStore>,
}

impl crate::idempotency::Keeper for Hub {
    fn with_store<R>(&self, f: impl FnOnce(&mut IdempotencyStore) -> R) -> R {
        f(&mut lock(&self.creations))
    }
}

#[derive(Default)]
struct Registry {
    sessions: HashMap<String, Arc<Session>>,
    by_token: HashMap<String, String>,
}

/// Who a bearer token is.
pub enum Bearer {
    /// The `--api-key`: may act on every session.
    ApiKey,
    /// The token of the session with this id.
    Session(String),
}

impl Hub {
    /// A hub holding the `--session` sessions of `config`.
    pub fn new(config: Config) -> Arc<Hub> {
        let creations =
            IdempotencyStore::new(config.idempotency_ttl_ms, config.idempotency_records);
        let hub = Arc::new(Hub {
            config: Arc::new(config),
            clock: Clock::new(),
            registry: Mutex::new(Registry::default()),
            creations: Mutex::new(creations),
        });
        for (id, token) in hub.config.sessions.clone() {
            hub.insert(id, token);
        }
        hub
    }

    fn insert(&self, id: String, token: String) -> Arc<Session> {
        let session = Arc::new(Session::new(
            id.clone(),
            token.clone(),
            self.config.clone(),
            self.clock,
        ));
        let mut reg = lock(&self.registry);
        reg.by_token.insert(token, id.clone());
        reg.sessions.insert(id, session.clone());
        session
    }

    /// A new session with a fresh id and token. Fails with 429 when `--max-sessions` are held.
    pub fn create_session(&self) -> Result<Arc<Session>, HttpError> {
        if lock(&self.registry).sessions.len() >= self.config.max_sessions {
            return Err(HttpError::rate_limited(
                60,
                format!(
                    "the server holds {} sessions, its limit (--max-sessions)",
                    self.config.max_sessions
                ),
            ));
        }
        Ok(self.insert(new_id("ses"), new_id("tok")))
    }

    /// The session with this id, if it exists.
    pub fn session(&self, id: &str) -> Option<Arc<Session>> {
        lock(&self.registry).sessions.get(id).cloned()
    }

    /// Gives the session `id` a fresh token; the ones it had are refused (401) from now on.
    /// Connections already open stay open (a server checks a token when a request comes).
    pub fn rotate_token(&self, id: &str) -> String {
        let token = new_id("tok");
        let mut reg = lock(&self.registry);
        reg.by_token.retain(|_, session| session != id);
        reg.by_token.insert(token.clone(), id.to_owned());
        token
    }

    /// Who `token` is, if anyone.
    pub fn bearer(&self, token: &str) -> Option<Bearer> {
        if self.config.api_key.as_deref() == Some(token) {
            return Some(Bearer::ApiKey);
        }
        lock(&self.registry)
            .by_token
            .get(token)
            .map(|id| Bearer::Session(id.clone()))
    }
}

/// One session: its id, token, state and injected faults.
pub struct Session {
    pub id: String,
    /// The token it was created with ([`Hub::rotate_token`] gives it others).
    pub token: String,
    pub config: Arc<Config>,
    pub clock: Clock,
    core: Mutex<SessionCore>,
    pub idempotency: Mutex<IdempotencyStore>,
    pub faults: Mutex<Faults>,
    /// The id of the newest event: changes whenever the log grows.
    latest: watch::Sender<u64>,
}

impl crate::idempotency::Keeper for Session {
    fn with_store<R>(&self, f: impl FnOnce(&mut IdempotencyStore) -> R) -> R {
        f(&mut lock(&self.idempotency))
    }
}

impl Session {
    fn new(id: String, token: String, config: Arc<Config>, clock: Clock) -> Session {
        let core = SessionCore::new(id.clone(), config.limits(), new_id);
        let idempotency =
            IdempotencyStore::new(config.idempotency_ttl_ms, config.idempotency_records);
        Session {
            id,
            token,
            config,
            clock,
            core: Mutex::new(core),
            idempotency: Mutex::new(idempotency),
            faults: Mutex::new(Faults::default()),
            latest: watch::channel(0).0,
        }
    }

    /// The session's state, locked, to read. Never hold the guard across an `.await`.
    pub fn core(&self) -> MutexGuard<'_, SessionCore> {
        lock(&self.core)
    }

    /// A receiver that changes whenever an event is appended to the log.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.latest.subscribe()
    }

    /// Runs one step of the state machine, then wakes the streams if it emitted events.
    fn step<R>(&self, f: impl FnOnce(&mut SessionCore) -> R) -> R {
        let mut core = self.core();
        let out = f(&mut core);
        let last = core.log.last_id();
        self.latest.send_if_modified(|seen| {
            let changed = *seen != last;
            *seen = last;
            changed
        });
        out
    }

    /// Registers a client, and watches its TTL when it has one. See [`SessionCore::register`].
    pub fn register(self: &Arc<Self>, req: RegisterRequest) -> Result<ClientInfo, HttpError> {
        let now = self.clock.now_ms();
        let (info, expires) = self.step(|core| {
            let info = core.register(req, now)?;
            let expires = core.client(&info.id).and_then(|c| c.expires);
            Ok::<_, HttpError>((info, expires))
        })?;
        if let Some(at) = expires {
            let (session, client_id) = (self.clone(), info.id.clone());
            crate::timers::watch(self.clock.instant(at), move || {
                let next =
                    session.step(|core| core.lapse_if_due(&client_id, session.clock.now_ms()));
                next.map(|at| session.clock.instant(at))
            });
        }
        Ok(info)
    }

    /// See [`SessionCore::ping`].
    pub fn ping(&self, client_id: &str) -> Result<Option<String>, HttpError> {
        let now = self.clock.now_ms();
        self.step(|core| core.ping(client_id, now))
    }

    /// See [`SessionCore::leave`].
    pub fn leave(&self, client_id: &str) -> Result<(), HttpError> {
        self.step(|core| core.leave(client_id))
    }

    /// See [`SessionCore::replace_tools`].
    pub fn replace_tools(
        &self,
        client_id: &str,
        tools: Vec<ToolSpec>,
    ) -> Result<ClientInfo, HttpError> {
        self.step(|core| core.replace_tools(client_id, tools))
    }

    /// See [`SessionCore::clients`].
    pub fn clients(&self) -> Vec<ClientInfo> {
        self.core().clients()
    }

    /// See [`SessionCore::model_tools`].
    pub fn model_tools(&self) -> Vec<ModelTool> {
        self.core().model_tools()
    }

    /// The model calls a tool; its deadlines are watched. See [`SessionCore::dispatch`].
    pub fn dispatch(
        self: &Arc<Self>,
        run_id: &str,
        tool: &str,
        arguments: Value,
    ) -> Result<String, HttpError> {
        let now = self.clock.now_ms();
        let call_id = self.step(|core| core.dispatch(run_id, tool, arguments, now))?;
        let ack_deadline = now.saturating_add(self.config.ack_timeout_ms);
        let (session, id) = (self.clone(), call_id.clone());
        crate::timers::watch(self.clock.instant(ack_deadline), move || {
            let next = session.step(|core| core.fail_if_late(&id, session.clock.now_ms()));
            next.map(|at| session.clock.instant(at))
        });
        Ok(call_id)
    }

    /// See [`SessionCore::ack`].
    pub fn ack(&self, client_id: &str, call_id: &str) -> Result<String, HttpError> {
        let now = self.clock.now_ms();
        self.step(|core| core.ack(client_id, call_id, now))
    }

    /// See [`SessionCore::answer`].
    pub fn answer(
        &self,
        client_id: &str,
        call_id: &str,
        result: CallResult,
    ) -> Result<(), HttpError> {
        self.step(|core| core.answer(client_id, call_id, result))
    }

    /// See [`SessionCore::pending_calls`].
    pub fn pending_calls(&self, client_id: &str) -> Result<Vec<ToolDispatched>, HttpError> {
        self.core().pending_calls(client_id)
    }

    /// See [`SessionCore::call_view`].
    pub fn call_view(&self, run_id: &str, call_id: &str) -> Result<CallView, HttpError> {
        self.core().call_view(run_id, call_id)
    }

    /// See [`SessionCore::start_run`].
    pub fn start_run(&self) -> Result<String, HttpError> {
        let now = self.clock.now_ms();
        self.step(|core| core.start_run(now))
    }

    /// See [`SessionCore::end_run`].
    pub fn end_run(&self, run_id: &str, cancelled: bool) -> Result<(), HttpError> {
        self.step(|core| core.end_run(run_id, cancelled))
    }

    /// See [`SessionCore::runs`].
    pub fn runs(&self) -> Vec<RunView> {
        self.core().runs()
    }
}
