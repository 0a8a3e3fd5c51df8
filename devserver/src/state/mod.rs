//! The server's state: a [`Hub`] of sessions, each a [`Session`] holding its clients, runs,
//! calls, event log and idempotency records behind one lock. Every rule of PROTOCOL.md that
//! changes state lives in the `impl Session` blocks of [`clients`] and [`calls`]; the routes
//! only translate HTTP to these calls. No lock is held across an `.await`.

pub mod calls;
pub mod clients;
pub mod events;
pub mod runs;

use crate::cli::Config;
use crate::clock::Clock;
use crate::error::HttpError;
use crate::faults::Faults;
use crate::idempotency::IdempotencyStore;
use crate::ids::new_id;
use client_tools_core::protocol::{ClientInfo, Lifetime, ToolSpec};
use events::EventLog;
use serde_json::{Map, Value};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::Notify;
use tokio::task::AbortHandle;
use tokio::time::Instant;

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
    pub(crate) state: Mutex<SessionState>,
    pub faults: Mutex<Faults>,
}

/// A session's mutable state; see the `impl Session` blocks for the rules.
pub struct SessionState {
    pub(crate) clients: HashMap<String, Client>,
    pub(crate) runs: HashMap<String, Run>,
    pub(crate) calls: HashMap<String, Call>,
    /// Settled call ids, oldest first, so the oldest are pruned past `--settled-calls`.
    pub(crate) settled_order: VecDeque<String>,
    /// Run ids, oldest first, so ended runs are pruned past `--max-runs`.
    pub(crate) run_order: VecDeque<String>,
    pub(crate) pending_count: usize,
    pub(crate) log: EventLog,
    pub idempotency: IdempotencyStore,
    /// Increases with every registration, dispatch and run, to list them in order.
    pub(crate) seq: u64,
}

impl SessionState {
    pub(crate) fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// The active run `run_id`, or 404 (unknown) / 409 (ended).
    pub(crate) fn active_run(&mut self, run_id: &str) -> Result<&mut Run, HttpError> {
        match self.runs.get_mut(run_id) {
            None => Err(HttpError::not_found(format!(
                "no run {run_id} in this session"
            ))),
            Some(run) if run.state != RunState::Active => Err(HttpError::conflict(
                "run_ended",
                format!("run {run_id} is {}", run.state.as_str()),
            )),
            Some(run) => Ok(run),
        }
    }
}

impl crate::idempotency::Keeper for Session {
    fn with_store<R>(&self, f: impl FnOnce(&mut IdempotencyStore) -> R) -> R {
        f(&mut self.lock().idempotency)
    }
}

/// A live registration.
pub struct Client {
    pub id: String,
    pub name: String,
    pub lifetime: Lifetime,
    pub tools: Vec<ToolSpec>,
    /// When a TTL registration lapses; `None` for `never`.
    pub expires: Option<Instant>,
    pub seq: u64,
    pub(crate) ttl_timer: Option<AbortHandle>,
}

impl Client {
    /// The client object of the protocol.
    pub fn info(&self, clock: &Clock) -> ClientInfo {
        ClientInfo {
            id: self.id.clone(),
            name: self.name.clone(),
            lifetime: self.lifetime.clone(),
            expires_at: self.expires.map(|at| clock.rfc3339(at)),
            tools: self.tools.clone(),
        }
    }
}

/// Where a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    Active,
    Completed,
    Cancelled,
}

impl RunState {
    pub fn as_str(self) -> &'static str {
        match self {
            RunState::Active => "active",
            RunState::Completed => "completed",
            RunState::Cancelled => "cancelled",
        }
    }
}

/// One agent turn.
pub struct Run {
    pub id: String,
    pub state: RunState,
    pub seq: u64,
    pub started: Instant,
}

/// How a call settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Succeeded { text: String, is_error: bool },
    Failed(client_tools_core::protocol::FailReason),
}

/// One invocation of a client's tool.
pub struct Call {
    pub id: String,
    pub seq: u64,
    pub run_id: String,
    pub client_id: String,
    /// The tool's name as the client declared it.
    pub tool: String,
    pub arguments: Map<String, Value>,
    pub dispatched: Instant,
    pub ack_deadline: Instant,
    /// Set by the first ack.
    pub result_deadline: Option<Instant>,
    pub outcome: Option<Outcome>,
    /// Wakes the long polls when the call settles.
    pub(crate) settled: Arc<Notify>,
    pub(crate) timer: Option<AbortHandle>,
}

impl Session {
    fn new(id: String, token: String, config: Arc<Config>, clock: Clock) -> Session {
        let state = SessionState {
            clients: HashMap::new(),
            runs: HashMap::new(),
            calls: HashMap::new(),
            settled_order: VecDeque::new(),
            run_order: VecDeque::new(),
            pending_count: 0,
            log: EventLog::new(config.replay_events),
            idempotency: IdempotencyStore::new(
                config.idempotency_ttl_ms,
                config.idempotency_records,
            ),
            seq: 0,
        };
        Session {
            id,
            token,
            config,
            clock,
            state: Mutex::new(state),
            faults: Mutex::new(Faults::default()),
        }
    }

    /// The session's state, locked. Never hold the guard across an `.await`.
    pub fn lock(&self) -> MutexGuard<'_, SessionState> {
        lock(&self.state)
    }
}
