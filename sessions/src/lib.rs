//! The platform's side of the client-tools Sessions API (`PROTOCOL.md`) as a sans-I/O state
//! machine: one [`SessionCore`] per session holds its clients, runs, calls and event log, and
//! every rule that changes them. It never reads a clock, opens a socket or spawns a task:
//! each step takes `now` (Unix milliseconds) as an argument, answers a value or an
//! [`HttpError`], and appends what happened to the [`events::EventLog`]. Deadlines are values
//! too: [`SessionCore::next_deadline`] says when to come back, [`SessionCore::on_deadline`]
//! fails what is late and lapses what has expired.
//!
//! Two drivers, both serving the client's routes through [`SessionCore::handle`] and setting a
//! timer at [`SessionCore::next_deadline`]: the devserver (axum and tokio: the request read into
//! the router and its answer written, a deadline task, streams that wake on new events) and the
//! SDK's in-page test agent (`client_tools::testing`), so the two cannot disagree about a rule.

#![warn(missing_docs)]

pub mod body;
pub mod calls;
pub mod clients;
pub mod error;
pub mod events;
pub mod routes;
pub mod runs;

pub use calls::CallView;
pub use clients::ModelTool;
pub use error::HttpError;
pub use routes::{Answer, Route};
pub use runs::RunView;

use client_tools_core::protocol::time::format_rfc3339;
use client_tools_core::protocol::{ClientInfo, FailReason, Lifetime, ToolSpec};
use events::EventLog;
use serde_json::{Map, Value};
use std::collections::{HashMap, VecDeque};

/// The limits and deadlines a session enforces. [`Limits::default`] is the protocol's (its
/// deadlines, TTL bounds and client limit) and the devserver's defaults for the rest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// A call must be acked within this many milliseconds of its dispatch.
    pub ack_timeout_ms: u64,
    /// An acked call must be answered within this many milliseconds of its ack.
    pub result_timeout_ms: u64,
    /// The shortest TTL lifetime a registration may ask for, in seconds.
    pub ttl_min_seconds: u32,
    /// The longest TTL lifetime a registration may ask for, in seconds.
    pub ttl_max_seconds: u32,
    /// Live clients a session holds at most.
    pub max_clients: usize,
    /// Calls pending at once at most (a dispatch past it is refused with 429).
    pub max_pending_calls: usize,
    /// Runs held at most (the oldest ended ones are pruned first).
    pub max_runs: usize,
    /// Settled calls kept for the agent's reads, oldest pruned first.
    pub settled_calls: usize,
    /// Events kept for `Last-Event-ID` replay.
    pub replay_events: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            ack_timeout_ms: 60_000,
            result_timeout_ms: 300_000,
            ttl_min_seconds: 5,
            ttl_max_seconds: 3600,
            max_clients: 32,
            max_pending_calls: 10_000,
            max_runs: 1000,
            settled_calls: 1000,
            replay_events: 1000,
        }
    }
}

/// Makes a fresh id from a prefix (`cli`, `run`, `call`): the devserver's are unguessable,
/// the test agent's count.
pub type IdSource = fn(&str) -> String;

/// One session's state and rules; see the `impl SessionCore` blocks of [`clients`],
/// [`calls`] and [`runs`].
pub struct SessionCore {
    /// The session's id, written in every `client_tool_dispatched`.
    pub id: String,
    /// The limits and deadlines this session enforces.
    pub limits: Limits,
    new_id: IdSource,
    pub(crate) clients: HashMap<String, Client>,
    pub(crate) runs: HashMap<String, Run>,
    pub(crate) calls: HashMap<String, Call>,
    /// Settled call ids, oldest first, so the oldest are pruned past `settled_calls`.
    pub(crate) settled_order: VecDeque<String>,
    /// Run ids, oldest first, so ended runs are pruned past `max_runs`.
    pub(crate) run_order: VecDeque<String>,
    pub(crate) pending_count: usize,
    /// Every event of the session, the newest `replay_events` kept.
    pub log: EventLog,
    /// Increases with every registration, dispatch and run, to list them in order.
    pub(crate) seq: u64,
}

impl SessionCore {
    /// An empty session `id` with these limits, naming what it creates with `new_id`.
    pub fn new(id: String, limits: Limits, new_id: IdSource) -> SessionCore {
        SessionCore {
            id,
            log: EventLog::new(limits.replay_events),
            limits,
            new_id,
            clients: HashMap::new(),
            runs: HashMap::new(),
            calls: HashMap::new(),
            settled_order: VecDeque::new(),
            run_order: VecDeque::new(),
            pending_count: 0,
            seq: 0,
        }
    }

    pub(crate) fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    pub(crate) fn new_id(&self, prefix: &str) -> String {
        (self.new_id)(prefix)
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

    /// The earliest moment something is due: a TTL registration lapses, or a pending call
    /// passes its ack or result deadline. `None`: nothing is waiting on time.
    pub fn next_deadline(&self) -> Option<u64> {
        let lapses = self.clients.values().filter_map(|c| c.expires);
        let calls = self
            .calls
            .values()
            .filter(|c| c.outcome.is_none())
            .map(Call::deadline);
        lapses.chain(calls).min()
    }

    /// Everything due at `now`: late calls fail (`ack_timeout`, `result_timeout`), then
    /// expired registrations lapse. Answers the next deadline, as [`Self::next_deadline`].
    pub fn on_deadline(&mut self, now: u64) -> Option<u64> {
        let mut late: Vec<(u64, String)> = self
            .calls
            .values()
            .filter(|c| c.outcome.is_none() && c.deadline() <= now)
            .map(|c| (c.seq, c.id.clone()))
            .collect();
        late.sort();
        for (_, call_id) in late {
            self.fail_if_late(&call_id, now);
        }
        let mut lapsed: Vec<(u64, String)> = self
            .clients
            .values()
            .filter(|c| c.expires.is_some_and(|at| at <= now))
            .map(|c| (c.seq, c.id.clone()))
            .collect();
        lapsed.sort();
        for (_, client_id) in lapsed {
            self.lapse_if_due(&client_id, now);
        }
        self.next_deadline()
    }
}

/// A live registration.
pub struct Client {
    /// The client's id, as this session made it (`cli_…`).
    pub id: String,
    /// The name it got: the one asked for, or with a counter appended (`web-2`).
    pub name: String,
    /// How long it lives: for good, or a TTL renewed by each ping.
    pub lifetime: Lifetime,
    /// The tools it offers now: those of its registration or of its last replace.
    pub tools: Vec<ToolSpec>,
    /// When a TTL registration lapses (Unix ms); `None` for `never`.
    pub expires: Option<u64>,
    /// Its place in the session's order of registrations, dispatches and runs.
    pub seq: u64,
}

impl Client {
    /// The client object of the protocol.
    pub fn info(&self) -> ClientInfo {
        ClientInfo {
            id: self.id.clone(),
            name: self.name.clone(),
            lifetime: self.lifetime.clone(),
            expires_at: self.expires.map(format_rfc3339),
            tools: self.tools.clone(),
        }
    }
}

/// Where a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    /// Going on: the model may call tools in it.
    Active,
    /// Ended as completed (`run_completed`); its pending calls failed with `run_gone`.
    Completed,
    /// Ended as cancelled (`run_cancelled`); its pending calls failed with `run_gone`.
    Cancelled,
}

impl RunState {
    /// `"active"`, `"completed"` or `"cancelled"`, as [`RunView`]'s `state` says it.
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
    /// The run's id, as this session made it (`run_…`).
    pub id: String,
    /// Whether it goes on or how it ended.
    pub state: RunState,
    /// Its place in the session's order of registrations, dispatches and runs.
    pub seq: u64,
    /// Unix ms.
    pub started: u64,
}

/// How a call settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Answered by the client (whatever `is_error` says).
    Succeeded {
        /// The result's text, as the model reads it.
        text: String,
        /// Whether the result reports a failure the model should read.
        is_error: bool,
    },
    /// Failed without an answer, for this reason.
    Failed(FailReason),
}

/// One invocation of a client's tool.
pub struct Call {
    /// The call's id, as this session made it (`call_…`).
    pub id: String,
    /// Its place in the session's order of registrations, dispatches and runs.
    pub seq: u64,
    /// The run in which the model made the call.
    pub run_id: String,
    /// The client whose tool is called.
    pub client_id: String,
    /// The tool's name as the client declared it.
    pub tool: String,
    /// The arguments the model sent, a JSON object (`{}` when it sent none).
    pub arguments: Map<String, Value>,
    /// When the model made the call: Unix ms, as every time below.
    pub dispatched: u64,
    /// When the call fails with `ack_timeout` unless acked: `ack_timeout_ms` after dispatch.
    pub ack_deadline: u64,
    /// When the call fails with `result_timeout` unless answered: `result_timeout_ms` after
    /// the ack. Set by the first ack; `None` until then.
    pub result_deadline: Option<u64>,
    /// How it settled; `None` while pending. Written once, by `SessionCore::settle`.
    pub outcome: Option<Outcome>,
}

impl Call {
    /// The deadline it waits on now: the result deadline once acked, else the ack deadline.
    pub fn deadline(&self) -> u64 {
        self.result_deadline.unwrap_or(self.ack_deadline)
    }
}
