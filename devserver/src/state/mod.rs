//! The server's state: a [`Hub`] of sessions, each a [`Session`] driving the sans-I/O
//! [`SessionCore`] of `client-tools-sessions` behind one lock. Every rule of PROTOCOL.md that
//! changes a session lives there, the client routes' router included; this module gives it
//! the time, a deadline task per session and a watch channel that wakes the streams and long
//! polls, and the routes only translate HTTP to these calls. No lock is held across an
//! `.await`.

use crate::cli::Config;
use crate::clock::Clock;
use crate::error::HttpError;
use crate::faults::Faults;
use crate::idempotency::IdempotencyStore;
use crate::ids::new_id;
use client_tools_core::protocol::ClientInfo;
use client_tools_sessions::{Answer, CallView, ModelTool, RunView, SessionCore};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
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
        let session = Session::new(id.clone(), token.clone(), self.config.clone(), self.clock);
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
    /// The session's next deadline (Unix ms), which its deadline task sleeps towards.
    deadline: watch::Sender<Option<u64>>,
    /// Whether the deadline task runs (it starts with the first deadline).
    timer_started: AtomicBool,
    /// Itself, for the deadline task (which must not keep the session alive).
    me: Weak<Session>,
}

impl crate::idempotency::Keeper for Session {
    fn with_store<R>(&self, f: impl FnOnce(&mut IdempotencyStore) -> R) -> R {
        f(&mut lock(&self.idempotency))
    }
}

impl Session {
    fn new(id: String, token: String, config: Arc<Config>, clock: Clock) -> Arc<Session> {
        let core = SessionCore::new(id.clone(), config.limits(), new_id);
        let idempotency =
            IdempotencyStore::new(config.idempotency_ttl_ms, config.idempotency_records);
        Arc::new_cyclic(|me| Session {
            id,
            token,
            config,
            clock,
            core: Mutex::new(core),
            idempotency: Mutex::new(idempotency),
            faults: Mutex::new(Faults::default()),
            latest: watch::channel(0).0,
            deadline: watch::channel(None).0,
            timer_started: AtomicBool::new(false),
            me: me.clone(),
        })
    }

    /// The session's state, locked, to read. Never hold the guard across an `.await`.
    pub fn core(&self) -> MutexGuard<'_, SessionCore> {
        lock(&self.core)
    }

    /// A receiver that changes whenever an event is appended to the log.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.latest.subscribe()
    }

    /// Runs one step of the state machine, then wakes the streams if it emitted events and
    /// tells the deadline task ([`crate::timers`]) when the session's next deadline is.
    fn step<R>(&self, f: impl FnOnce(&mut SessionCore) -> R) -> R {
        let mut core = self.core();
        let out = f(&mut core);
        let last = core.log.last_id();
        let next = core.next_deadline();
        drop(core);
        self.after_step(last, next);
        out
    }

    /// What follows every step: the streams woken when the log grew to `last`, the deadline
    /// task told of `next` (and started with the first deadline).
    fn after_step(&self, last: u64, next: Option<u64>) {
        self.latest.send_if_modified(|seen| {
            let changed = *seen != last;
            *seen = last;
            changed
        });
        self.deadline.send_if_modified(|due| {
            let changed = *due != next;
            *due = next;
            changed
        });
        if next.is_some() && !self.timer_started.swap(true, Ordering::AcqRel) {
            let me = self.me.clone();
            crate::timers::run(self.deadline.subscribe(), self.clock, move || {
                let Some(session) = me.upgrade() else {
                    return false;
                };
                let now = session.clock.now_ms();
                session.step(|core| core.on_deadline(now));
                true
            });
        }
    }

    /// Serves one client request through the shared router ([`SessionCore::handle`]):
    /// `path` is under `/v1/sessions/{session_id}`, as it came.
    pub fn handle(&self, method: &str, path: &str, body: &[u8]) -> Answer {
        let now = self.clock.now_ms();
        self.step(|core| core.handle(method, path, body, now))
    }

    /// See [`SessionCore::clients`].
    pub fn clients(&self) -> Vec<ClientInfo> {
        self.core().clients()
    }

    /// See [`SessionCore::model_tools`].
    pub fn model_tools(&self) -> Vec<ModelTool> {
        self.core().model_tools()
    }

    /// The model calls a tool. See [`SessionCore::dispatch`].
    pub fn dispatch(
        &self,
        run_id: &str,
        tool: &str,
        arguments: Value,
    ) -> Result<String, HttpError> {
        let now = self.clock.now_ms();
        self.step(|core| core.dispatch(run_id, tool, arguments, now))
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
