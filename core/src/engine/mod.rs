//! The client engine: the whole client-tools protocol as a sans-I/O state machine.
//!
//! The engine does no I/O, reads no clock and draws no randomness of its own. A shell (the
//! browser shell in `src/browser/`, or a test) feeds it what happened and carries out what it
//! asks. "Now" is always an argument, an [`Instant`] (the shells count ms since the Unix
//! epoch); jitter comes from [`Config::seed`]. So every protocol rule runs as a fast,
//! deterministic native test.
//!
//! # Run loop
//!
//! ```text
//! let mut engine = Engine::new(config, now())?;      // queues the register and the stream,
//!                                                     // starts the register deadline
//! loop {
//!     // 1. Carry out everything the engine asks, until it has nothing more.
//!     while let Some(out) = engine.poll_output() {
//!         match out {
//!             Output::Send(req)                  => fetch(req),          // answer: Input::Answer / NetworkError
//!             Output::OpenStream { stream, .. }  => open(stream),        // bytes: handle_stream_bytes
//!             Output::CloseStream { stream }     => abort(stream),
//!             Output::RunHandler { .. }          => run(handler),        // done: Input::HandlerDone
//!             Output::HandlerDeadline { .. }     => move_deadline(..),
//!             Output::AbortHandler { .. }        => signal.abort(),
//!             Output::Status(s) | Output::Call(c)=> tell_app(..),
//!             Output::OpDone { op, result }      => settle_promise(op, result),
//!         }
//!     }
//!     // 2. Sleep until the earliest deadline, or until something happens.
//!     match wait(engine.poll_timeout()) {
//!         Timeout                 => engine.handle_timeout(now()),
//!         Happened(input)         => engine.handle(input, now()),
//!         StreamBytes(id, bytes)  => engine.handle_stream_bytes(id, &bytes, now()),
//!     }
//! }
//! ```
//!
//! A timer that fires late (hidden tabs throttle timers to once a minute) is fine: the engine
//! works from deadlines, so `handle_timeout` does at once whatever fell due meanwhile. Calling
//! `handle_timeout` early is harmless too. A fatal error ([`Status::Error`] with `fatal`,
//! e.g. [`EngineErrorKind::RegisterTimeout`]) stops the engine: `poll_timeout` is `None`
//! from then on and inputs are ignored, except that a register answered late is undone.
//!
//! # Inside
//!
//! The engine is a router over sub-states that never see the whole engine: requests in
//! flight (`requests`), the registration and its visibility policy (`registration`), the tool
//! list (`tools`), the stream connection (`stream`) and the calls in progress (`calls`, over
//! the shared [`CallRuntime`](crate::calls::CallRuntime)). Each takes what it needs as
//! arguments (another sub-state at most, e.g. the requests to send through), pushes outputs
//! to the queue it is given (`outbox`, which also keeps the latest failure for the register
//! timeout's message) and returns what should happen next as a small enum. The router
//! (`router`) matches every input, answer, stream item and timer (one table indexed by
//! `Timer`, as in quinn-proto) to the sub-state it concerns; `router::flows` carries out what
//! spans several (a lapse voids the old registration's requests and registers again; a leave
//! ends the calls, settles the tool ops and closes the stream).
//!
//! # What it does
//!
//! - **Register** on start, keep the id, the assigned name and `expires_at`; tell the app
//!   ([`Status::Registered`]). Network errors and 5xx are retried; if no registration comes
//!   within [`Config::register_timeout`] (30 s), the engine stops with
//!   [`EngineErrorKind::RegisterTimeout`], naming the request that failed last.
//! - **Ping** a TTL lifetime of N s every N/3 s, each with a new `Idempotency-Key`; a 404 means
//!   the registration lapsed: [`Status::Lapsed`], register again with the current tools,
//!   [`Status::Reregistered`]. A `never` lifetime does not ping. Only a ping's or a tool
//!   list's own 404, or a `client_expired` event for this client, mean the server forgot it;
//!   the old registration then gets a best-effort `DELETE` (never two live registrations of
//!   one client), and a lapse again within 30 s of registering backs the next registration
//!   off (1 s doubling to 30 s, in the upper half of each step). A register answer that is no
//!   client object (an empty `id`, say) is retried after a backoff.
//! - **Visibility** per [`WhenHidden`]: `keep` pings on (and at once when visible), `pause`
//!   stops pinging while hidden and registers again only once visible if it lapsed meanwhile,
//!   `leave` leaves while hidden. A page hide leaves with a keepalive `DELETE`; a
//!   back-forward-cache show registers again.
//! - **Stream**: open it, parse it with [`crate::sse::Parser`], reconnect with `Last-Event-ID`
//!   after exponential backoff with full jitter, 1 s doubling to 30 s (`retry:` is the floor,
//!   honoured up to 60 s; reset only after a connection proved healthy: an event, or 5 s
//!   open); read the pending calls after every (re)connect, a `stream_reset` or an oversized
//!   event. 401/403 are fatal (a 401 with a token function: below). A pending read that
//!   fails (any refusal, 404 included, 5xx, network) is read again after the request
//!   backoff, never taken for a lapse; the app is told once per run of refusals. The stream has two deadlines
//!   ([`Config::stream_connect_timeout`], 15 s, for the response head;
//!   [`Config::stream_idle_timeout`], 45 s, for the next byte, keep-alives included): past
//!   either the connection is given up and another opened after the backoff, whose pending
//!   read finds any call dispatched meanwhile. `Last-Event-ID` is sent only when it is
//!   printable ASCII (a header cannot carry more); otherwise the app is told once and the
//!   pending read resumes instead.
//! - **Calls** of this client only, each `call_id` at most once while the client lives (a call
//!   in progress is never forgotten, however many come after it; a redelivered one is left to
//!   finish and answered once): ack at once, run the handler once the ack is taken
//!   ([`Output::RunHandler`] comes with the ack's answer: a call failed before it is acked
//!   never runs one), post the result after it. At most [`MAX_LIVE_CALLS`] (1,000) calls are
//!   in progress: past it a call is not acked (the app is told once per overload); it stays
//!   pending on the server and is read again once half of them ended, or the server fails it
//!   by its ack deadline. A pending-calls answer is taken 64 calls (`pending::SLICE_CALLS`)
//!   per turn, `poll_timeout` being now while some remain, so that a shell's event loop runs
//!   between slices. A lapse ends the old registration's calls here (`registration_lapsed`):
//!   no ack or result goes to it ([`Engine::wants`] says so of one a shell still holds).
//!   Unknown tools, arguments failing the tool's JSON Schema ([`crate::schema`]), calls past
//!   `max_calls_per_run` and unreadable dispatches are answered `is_error` without running a
//!   handler. A local deadline per tool answers "timed out after N ms" and aborts the handler.
//!   `client_tool_failed` aborts the handler and posts nothing. An ack is not retried past the
//!   call's `ack_deadline`, a result not past its `result_deadline`: the call ends
//!   ([`CallEvent::Failed`] with `ack_timeout` / `result_timeout`, the server's words) and the
//!   app is told what failed last. Server deadlines are read by this clock within
//!   [`CLOCK_TOLERANCE`] (5 s): one outside its window from now (60 s for an ack, 5 min for a
//!   result; a result deadline in the past) means the clocks disagree, so the window from now
//!   is used, and the app is told once. A handler cut by the server's deadline says so.
//! - **Requests** are retried on network errors, 408, 429 (`Retry-After`, honoured up to
//!   5 min), 500, 502, 503, 504 with backoff (0.5 s doubling to 30 s, full jitter) and the
//!   same key; a `409 call_settled` drops a result quietly. Any other refusal is final for
//!   that request: [`Status::Error`] tells the app; a refused register stops the engine,
//!   except `409 client_limit_reached`, tried again under a new key.
//! - **Token**: with [`Config::token_refresh`] a 401 (of a request or the stream) asks the
//!   shell for a fresh token ([`Output::RefreshToken`], answered with [`Input::Token`]); what
//!   was refused is held and sent again with it, the stream reconnects with it. A fresh token
//!   refused before the server took it once, a 403, a refresh that fails or does not come
//!   within [`TOKEN_REFRESH_TIMEOUT`] (30 s) stop the engine (`unauthorized`).
//! - **Tools** replaced by [`Engine::set_tools`] (a `PUT`); results wait while it is pending.
//! - **Leave** with [`Engine::leave`] (a `DELETE`); running handlers are aborted.
//!   [`Status::Left`] says who left (`by`): only the app's leave is for good. The leave's op
//!   is done within [`LEAVE_TIMEOUT`] (5 s) whatever the server does: unconfirmed by then,
//!   the client has left locally, the app is told that the server was not (the registration
//!   lapses by its TTL), and no `DELETE` is retried past the bound.

mod auth;
mod backoff;
mod calls;
mod config;
mod inflight;
mod io;
mod outbox;
mod pending;
mod registration;
mod requests;
mod router;
mod stream;
mod timers;
mod tools;

pub use auth::{sendable_token, TokenProblem, TOKEN_REFRESH_TIMEOUT};
pub use calls::cut_result;
pub use calls::{CLOCK_TOLERANCE, MAX_LIVE_CALLS};
pub use config::{
    check_token, validate_tool_refs, validate_tools, Config, Paths, ToolDef, WhenHidden,
    DEFAULT_REGISTER_TIMEOUT, DEFAULT_STREAM_CONNECT_TIMEOUT, DEFAULT_STREAM_IDLE_TIMEOUT,
    DEFAULT_TOOL_TIMEOUT_MS,
};
pub use io::{
    CallEvent, ClientState, EngineError, EngineErrorKind, HttpRequest, Input, LeftBy, Method, OpId,
    Output, RequestId, Status, StreamId, Urgency,
};
pub use outbox::ERROR_REPORT_INTERVAL;
pub use pending::MAX_PENDING_READ;
pub use requests::LEAVE_TIMEOUT;

use crate::protocol::ValidationError;
use crate::sse::{Parser, Sink};
use crate::time::Instant;
use router::Router;

/// One client of one session, as a state machine. See the [module docs](self) for the loop.
pub struct Engine {
    /// Kept apart from the router so that parsing can hand items to it without a copy.
    sse: Parser,
    router: Router,
}

impl Engine {
    /// Validates the config (every limit of the protocol, named by field), queues the
    /// register request and the stream, and starts the register deadline. Nothing is sent
    /// until the shell polls the outputs.
    pub fn new(config: Config, now: Instant) -> Result<Engine, ValidationError> {
        config.validate()?;
        Ok(Engine {
            sse: Parser::new(),
            router: Router::new(config, now),
        })
    }

    /// Feeds one thing that happened. Inputs naming an unknown or stale request, stream or
    /// call are ignored (they belong to something the engine already gave up on).
    pub fn handle(&mut self, input: Input, now: Instant) {
        self.router.handle(input, now);
    }

    /// Feeds bytes read from the stream connection `stream`. Bytes of any other connection
    /// are ignored. Nothing is copied per byte: the parser reads the slice in place.
    pub fn handle_stream_bytes(&mut self, stream: StreamId, bytes: &[u8], now: Instant) {
        if !self.router.reads_stream(stream) {
            return;
        }
        if self.router.take_parser_reset() {
            self.sse.reset_for_reconnect();
        }
        self.router.stream_alive(now);
        let router = &mut self.router;
        let mut out: &mut Sink = &mut |item| router.on_sse_item(item, now);
        self.sse.feed(bytes, &mut out);
        let last = self.sse.last_event_id();
        self.router.note_last_event_id(last);
    }

    /// Does whatever fell due by `now`: pings, retries, reconnects, handler deadlines, the
    /// register deadline.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.router.handle_timeout(now);
    }

    /// The next thing for the shell to do or tell, in order; `None` when there is nothing.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.router.poll_output()
    }

    /// Whether request `request` is still wanted at `now`. A shell that holds requests back
    /// (the browser's queue) asks before sending one that waited: the engine may have given
    /// it up meanwhile (an ack or result of a registration that lapsed), or its call's server
    /// deadline passed while it waited (the server has failed the call; its
    /// `client_tool_failed` ends it here). Then it is not sent and no answer is expected.
    pub fn wants(&self, request: RequestId, now: Instant) -> bool {
        self.router.wants(request, now)
    }

    /// The earliest deadline at which [`Engine::handle_timeout`] must be called; `None` when
    /// nothing is scheduled.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.router.poll_timeout()
    }

    /// Replaces the tools on offer. Validates them (the error names the field) and sends the
    /// `PUT`; new calls use the new list at once. Results of calls wait until the server has
    /// the new list. [`Output::OpDone`] with the returned id says whether the server took it.
    pub fn set_tools(
        &mut self,
        tools: Vec<ToolDef>,
        now: Instant,
    ) -> Result<OpId, ValidationError> {
        validate_tools(&tools)?;
        Ok(self.router.set_tools(tools, now))
    }

    /// Leaves: sends the `DELETE`, aborts running handlers and closes the stream. For good:
    /// the engine does not register again. [`Output::OpDone`] with the returned id says when
    /// the server took it.
    pub fn leave(&mut self, now: Instant) -> OpId {
        self.router.leave_by_app(now)
    }

    /// The client id the server gave (`cli_…`), once registered.
    pub fn id(&self) -> Option<&str> {
        self.router.registration().id()
    }

    /// The name the server gave (the one asked for, or with a counter: `web-2`), once
    /// registered.
    pub fn name(&self) -> Option<&str> {
        self.router.registration().name()
    }

    /// When the registration runs out, as the server said (RFC 3339); `None` for `never` or
    /// before registration.
    pub fn expires_at(&self) -> Option<&str> {
        self.router.registration().expires_at()
    }

    /// [`Engine::expires_at`] as an [`Instant`] (ms since the Unix epoch).
    pub fn expiry(&self) -> Option<Instant> {
        self.expires_at()
            .and_then(crate::protocol::time::parse_rfc3339)
            .map(Instant::from_ms)
    }

    /// Where the client stands: registering, registered, left, or failed for good.
    pub fn state(&self) -> ClientState {
        self.router.registration().state()
    }

    /// Who made the client leave, while it is left ([`ClientState::Left`]).
    pub fn left_by(&self) -> Option<LeftBy> {
        match self.state() {
            ClientState::Left => self.router.registration().left_by(),
            _ => None,
        }
    }

    /// Why the engine stopped for good ([`ClientState::Failed`]): the kind and the message of
    /// the fatal [`Status::Error`].
    pub fn failure(&self) -> Option<&EngineError> {
        self.router.stopped()
    }

    /// The tools on offer now.
    pub fn tools(&self) -> &[ToolDef] {
        self.router.tools()
    }

    /// How many calls are in progress (dispatched, not yet answered or failed).
    pub fn calls_in_progress(&self) -> usize {
        self.router.calls_in_progress()
    }
}
