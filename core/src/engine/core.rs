//! The engine's state, the routing of inputs and timers to the parts that handle them, and
//! stopping for good on a fatal error.

use super::backoff::Rng;
use super::call_table::Calls;
use super::config::{Config, ToolDef};
use super::io::{
    ClientState, EngineError, EngineErrorKind, Input, OpId, Output, RequestId, Status,
};
use super::requests::{Req, ReqKind};
use super::stream::StreamState;
use super::timers::{Timer, TimerTable};
use std::collections::{HashMap, VecDeque};

/// The registration the server gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Registration {
    pub id: String,
    pub name: String,
    pub expires_at: Option<String>,
    /// When the registration runs out by the local clock (last successful ping's send time
    /// plus the TTL); immune to a skew between the page's and the server's clocks.
    pub local_expiry: Option<u64>,
}

/// Why the client left, which decides whether it comes back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LeftBy {
    App,
    Hidden,
    PageHide,
}

pub(super) struct Core {
    pub cfg: Config,
    /// `Bearer <token>`, built once.
    pub auth: String,
    /// The base URL without a trailing `/`.
    pub base: String,
    pub tools: Vec<ToolDef>,
    /// Bumped by every `set_tools`; the server has `declared_version`.
    pub tools_version: u64,
    pub declared_version: u64,
    /// The newest version the server refused; results stop waiting for it.
    pub refused_version: u64,
    pub tool_ops: Vec<(OpId, u64)>,
    pub state: ClientState,
    pub reg: Option<Registration>,
    pub registered_once: bool,
    pub left_by: Option<LeftBy>,
    pub hidden: bool,
    /// Lapsed while hidden with `whenHidden: pause`: register again once visible.
    pub register_when_visible: bool,
    pub out: VecDeque<Output>,
    pub next_request: u64,
    pub next_key: u64,
    next_op: u64,
    pub inflight: HashMap<RequestId, Req>,
    /// Requests waiting for their retry time.
    pub retries: Vec<(u64, Req)>,
    pub rng: Rng,
    pub timers: TimerTable,
    pub stream: StreamState,
    pub calls: Calls,
    /// The latest "now" any entry point was given, for events that report elapsed time.
    pub now: u64,
    /// Why the engine stopped for good, once it has.
    pub failure: Option<EngineError>,
}

impl Core {
    pub fn new(mut cfg: Config, now: u64) -> Core {
        let tools = std::mem::take(&mut cfg.tools);
        let mut core = Core {
            auth: format!("Bearer {}", cfg.token),
            base: cfg.base_url.trim_end_matches('/').to_owned(),
            rng: Rng::new(cfg.seed),
            cfg,
            tools,
            tools_version: 0,
            declared_version: 0,
            refused_version: 0,
            tool_ops: Vec::new(),
            state: ClientState::Registering,
            reg: None,
            registered_once: false,
            left_by: None,
            hidden: false,
            register_when_visible: false,
            out: VecDeque::new(),
            next_request: 0,
            next_key: 0,
            next_op: 0,
            inflight: HashMap::new(),
            retries: Vec::new(),
            timers: TimerTable::default(),
            stream: StreamState::default(),
            calls: Calls::default(),
            now,
            failure: None,
        };
        core.register(now);
        core.open_stream();
        core
    }

    pub fn registration(&self) -> Option<&Registration> {
        self.reg.as_ref()
    }

    pub fn handle(&mut self, input: Input, now: u64) {
        self.now = now;
        if self.state == ClientState::Failed {
            return;
        }
        match input {
            Input::Answer {
                request,
                status,
                body,
                retry_after_ms,
            } => self.on_answer(request, status, body, retry_after_ms, now),
            Input::NetworkError { request, .. } => self.on_network_error(request, now),
            Input::StreamOpened { stream, status } => self.on_stream_opened(stream, status, now),
            Input::StreamClosed { stream, error } => self.on_stream_closed(stream, error, now),
            Input::VisibilityChanged { hidden } => self.on_visibility(hidden, now),
            Input::PageHide { persisted: _ } => self.leave(LeftBy::PageHide, None, true, now),
            Input::PageShow { persisted } => {
                if persisted {
                    self.come_back(LeftBy::PageHide, now);
                }
            }
            // A frozen page runs no timers: nothing to do until it resumes.
            Input::Freeze => {}
            Input::Resume => self.on_resume(now),
            Input::HandlerDone { call_id, returned } => {
                self.on_handler_done(&call_id, returned, now)
            }
        }
    }

    pub fn new_op(&mut self) -> OpId {
        self.next_op += 1;
        OpId(self.next_op)
    }

    /// Stops for good: tells the app, closes the stream, aborts handlers, fails open ops.
    pub fn fail(&mut self, kind: EngineErrorKind, message: String) {
        if self.state == ClientState::Failed {
            return;
        }
        self.state = ClientState::Failed;
        // A leave on its way will never be answered now: settle its op.
        let leave_ops: Vec<OpId> = self
            .inflight
            .values()
            .chain(self.retries.iter().map(|(_, r)| r))
            .filter_map(|r| match r.kind {
                ReqKind::Leave { op } => op,
                _ => None,
            })
            .collect();
        self.inflight.clear();
        self.retries.clear();
        self.timers = TimerTable::default();
        self.close_stream();
        self.drop_all_calls("client stopped: ".to_owned() + &message);
        let err = EngineError::new(kind, message.clone());
        self.failure = Some(err.clone());
        let tool_ops = std::mem::take(&mut self.tool_ops)
            .into_iter()
            .map(|(op, _)| op);
        for op in tool_ops.chain(leave_ops) {
            self.out.push_back(Output::OpDone {
                op,
                result: Err(err.clone()),
            });
        }
        self.out.push_back(Output::Status(Status::Error {
            message,
            fatal: true,
        }));
    }

    pub fn error(&mut self, message: String) {
        self.out.push_back(Output::Status(Status::Error {
            message,
            fatal: false,
        }));
    }

    pub fn poll_timeout(&self) -> Option<u64> {
        if self.state == ClientState::Failed {
            return None;
        }
        let timers = Timer::ALL
            .into_iter()
            .filter(|&t| !(t == Timer::Ping && self.pings_paused()))
            .filter_map(|t| self.timers.get(t));
        let retries = self.retries.iter().map(|(at, _)| *at);
        timers
            .chain(retries)
            .chain(self.calls.next_deadline())
            .min()
    }

    pub fn handle_timeout(&mut self, now: u64) {
        self.now = now;
        if self.state == ClientState::Failed {
            return;
        }
        if !self.pings_paused() && self.timers.take_expired(Timer::Ping, now) {
            self.ping(now);
        }
        if self.timers.take_expired(Timer::Reconnect, now) {
            self.open_stream();
        }
        self.fire_retries(now);
        self.expire_calls(now);
    }
}
