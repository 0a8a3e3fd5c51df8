//! The engine's inputs and outputs: what a shell feeds in and what it must carry out.

use crate::calls::Returned;
use crate::time::{Duration, Instant};
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;

/// Names one HTTP request the engine asked for; the shell hands it back with the answer.
/// A retry of a request is a new transmission with a new id (and the same `Idempotency-Key`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct RequestId(pub u64);

/// Names one event-stream connection; bytes and closes of an old connection are ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct StreamId(pub u64);

/// Names one operation the app started (`set_tools`, `leave`); reported by [`Output::OpDone`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct OpId(pub u64);

/// An HTTP method the protocol uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Method {
    /// `GET`: the pending calls and the event stream.
    Get,
    /// `POST`: register, ping, ack and result.
    Post,
    /// `PUT`: replace the tools.
    Put,
    /// `DELETE`: leave.
    Delete,
}

impl Method {
    /// The method as `fetch` spells it: `GET`, `POST`, `PUT`, `DELETE`.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Delete => "DELETE",
        }
    }
}

/// A request for the shell to send. Answer it with [`Input::Answer`] or
/// [`Input::NetworkError`], naming `id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpRequest {
    /// Hand it back in the answer.
    pub id: RequestId,
    /// `GET`, `POST`, `PUT` or `DELETE`.
    pub method: Method,
    /// The full URL: base URL plus the path.
    pub url: String,
    /// `Authorization`, plus `Content-Type` with a body and `Idempotency-Key` on writes.
    pub headers: Vec<(&'static str, String)>,
    /// A JSON body, if the request has one.
    pub body: Option<String>,
    /// Send with `fetch(…, {keepalive: true})`: the page is going away.
    pub keepalive: bool,
    /// How soon it must reach the server, for a shell that queues requests.
    pub urgency: Urgency,
    /// Read at most this many bytes of the answer's body (the rest is not wanted: a
    /// pending-calls answer, [`MAX_PENDING_READ`](super::MAX_PENDING_READ)); a shell that
    /// cannot cut a body may hand it whole.
    pub answer_limit: Option<usize>,
}

/// How soon a request must reach the server; a shell that holds requests back (the browser's,
/// a few at a time) sends the most urgent first. Ordered: `Registration` is the most urgent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Urgency {
    /// Registering and pinging: the registration lapses by its TTL if these wait, and every
    /// call with it. Never behind an ack or a result.
    Registration = 0,
    /// A call's ack: the server fails a call not acked within 60 s.
    Ack = 1,
    /// Tool lists, pending-call reads, leaving.
    Control = 2,
    /// A call's result (due within 5 min).
    Result = 3,
}

impl HttpRequest {
    /// The value of a header, if the request has it (names compare case-insensitively).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Something that happened outside the engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// The server answered a request. `retry_after` is the `Retry-After` header.
    Answer {
        /// The request answered, as [`HttpRequest::id`] named it.
        request: RequestId,
        /// The HTTP status code (`200`, `404`, `429`, …).
        status: u16,
        /// The answer's body as text (JSON, or empty for a `204`), cut at
        /// [`HttpRequest::answer_limit`] if the shell can.
        body: String,
        /// The `Retry-After` header (sent in seconds), if the answer has one.
        retry_after: Option<Duration>,
    },
    /// A request got no answer (offline, DNS, CORS, reset…).
    NetworkError {
        /// The request that failed, as [`HttpRequest::id`] named it.
        request: RequestId,
        /// What the shell's `fetch` said, for the status and the logs.
        message: String,
    },
    /// The stream's response headers arrived: 200 means bytes will follow.
    StreamOpened {
        /// The connection, as [`Output::OpenStream`] named it.
        stream: StreamId,
        /// The HTTP status code of the stream's answer.
        status: u16,
    },
    /// The stream ended; `error` says why when it was not a clean end.
    StreamClosed {
        /// The connection that ended, as [`Output::OpenStream`] named it.
        stream: StreamId,
        /// Why it ended (a network error, an abort); `None` when the server ended it cleanly.
        error: Option<String>,
    },
    /// `visibilitychange`: the page is now hidden (or visible).
    VisibilityChanged {
        /// `true` when the page is now hidden, `false` when it is visible again.
        hidden: bool,
    },
    /// `pagehide`: the page is going away (`persisted`: maybe into the back-forward cache).
    PageHide {
        /// The event's `persisted`: the page may be kept in the back-forward cache.
        persisted: bool,
    },
    /// `pageshow`: `persisted` means the page came back from the back-forward cache.
    PageShow {
        /// The event's `persisted`: `true` when the page is restored from the back-forward
        /// cache, `false` on a first load.
        persisted: bool,
    },
    /// `freeze`: the page is frozen; no timers run until [`Input::Resume`].
    Freeze,
    /// `resume`: the page runs again after a freeze.
    Resume,
    /// A handler finished with what it returned, read by the call runtime's convention
    /// ([`Answer::from_returned`](crate::calls::Answer::from_returned)).
    HandlerDone {
        /// The call the handler ran for, as [`Output::RunHandler`] named it.
        call_id: String,
        /// What the handler returned (or threw).
        returned: Returned,
    },
    /// The answer to [`Output::RefreshToken`]: a fresh token, or why there is none (the app's
    /// function threw or rejected). Ignored when the engine did not ask.
    Token(Result<String, String>),
}

/// What the engine asks the shell to do, or tells the app.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// Send this HTTP request.
    Send(HttpRequest),
    /// Open the event stream (`GET`, read the body as bytes into
    /// [`Engine::handle_stream_bytes`](super::Engine::handle_stream_bytes)).
    OpenStream {
        /// Names this connection; hand it back with its bytes, [`Input::StreamOpened`] and
        /// [`Input::StreamClosed`].
        stream: StreamId,
        /// The full URL: base URL plus the stream path (`/v1/sessions/{session_id}/stream`
        /// unless configured otherwise).
        url: String,
        /// `Authorization`, `Accept: text/event-stream`, and `Last-Event-ID` on a reconnect.
        headers: Vec<(&'static str, String)>,
    },
    /// Abort this stream connection.
    CloseStream {
        /// The connection to abort.
        stream: StreamId,
    },
    /// Run the tool's handler; answer with [`Input::HandlerDone`].
    RunHandler {
        /// The call's id, as the server assigned it; hand it back in [`Input::HandlerDone`].
        call_id: String,
        /// The run (agent turn) in which the model made the call; empty if the server did
        /// not say.
        run_id: String,
        /// The tool's name as the client declared it.
        tool: String,
        /// The call's arguments, a JSON object (empty when the model sent none).
        arguments: Map<String, Value>,
        /// The engine answers "timed out" at this time if the handler has not finished; it
        /// may come earlier once the server's result deadline is known
        /// ([`Output::HandlerDeadline`]).
        deadline: Instant,
    },
    /// A running handler's deadline came earlier (the ack told the server's result deadline):
    /// the engine now answers "timed out" at `deadline`.
    HandlerDeadline {
        /// The running handler's call.
        call_id: String,
        /// The new, earlier deadline, on the shell's clock.
        deadline: Instant,
    },
    /// Signal the handler's `AbortSignal`: its answer is no longer wanted.
    AbortHandler {
        /// The running handler's call.
        call_id: String,
        /// Why its answer is no longer wanted (e.g. the server failed the call, or the client
        /// left), for the signal's `reason`.
        reason: String,
    },
    /// Tell the app how the client is doing.
    Status(Status),
    /// Tell the app how a call is doing.
    Call(CallEvent),
    /// The server refused the token with a 401 and [`Config::token_refresh`] is on: get a
    /// fresh token from the app and hand it in with [`Input::Token`]. What was refused waits
    /// for it; without one within
    /// [`TOKEN_REFRESH_TIMEOUT`](super::TOKEN_REFRESH_TIMEOUT) the engine stops
    /// (`unauthorized`).
    ///
    /// [`Config::token_refresh`]: super::Config::token_refresh
    RefreshToken,
    /// An operation the app started has finished.
    OpDone {
        /// The operation, as the engine named it when the app started it.
        op: OpId,
        /// `Ok` when it succeeded, or why it failed.
        result: Result<(), EngineError>,
    },
}

/// The client's condition, for the app. Serializes as `{"type": "registered", …}`, camelCase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Status {
    /// Registered for the first time.
    Registered {
        /// The client's id, as the server assigned it (`cli_…`).
        id: String,
        /// The name the client got: the one asked for, or with a counter appended (`web-2`).
        name: String,
        /// RFC 3339; `None` for a `never` lifetime.
        expires_at: Option<String>,
    },
    /// Registered again (after a lapse, a leave on hide, or a back-forward-cache show).
    Reregistered {
        /// The new registration's id (`cli_…`): a new one each time.
        id: String,
        /// The name the client got this time, which may differ from the last.
        name: String,
        /// RFC 3339; `None` for a `never` lifetime.
        expires_at: Option<String>,
    },
    /// The registration ran out (a ping answered 404); the engine registers again.
    Lapsed,
    /// The event stream is connected.
    StreamOpen,
    /// The event stream dropped; the engine reconnects after `delay` (`delayMs` in JS).
    StreamReconnecting {
        /// How many reconnects in a row this is, from 1; it starts over once an event arrives.
        attempt: u32,
        /// How long the engine waits before it reconnects (backoff with jitter), in ms.
        #[serde(rename = "delayMs")]
        delay: Duration,
    },
    /// The client left: `by` says who asked (the app, a hide with `whenHidden: leave`, a page
    /// hide). Only a leave by the app is for good.
    Left {
        /// Who made the client leave.
        by: LeftBy,
    },
    /// Something failed. `fatal`: the engine has stopped (a refused token or register, the
    /// register timeout), and `kind` says why (left out of the JSON when `None`, as it is for
    /// failures the engine goes on from).
    Error {
        /// What failed, for a person (never holds the token).
        message: String,
        /// Whether the engine has stopped for good.
        fatal: bool,
        /// Why the engine stopped, when `fatal`; `None` for failures it goes on from.
        #[serde(skip_serializing_if = "Option::is_none")]
        kind: Option<EngineErrorKind>,
    },
}

/// Who made the client leave, which decides whether it comes back. Serializes as
/// [`LeftBy::as_str`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeftBy {
    /// The app called `leave`: for good.
    App,
    /// The page hid with `whenHidden: leave`: it registers again once visible.
    Hidden,
    /// The page went away (`pagehide`): it registers again if it comes back from the
    /// back-forward cache.
    PageHide,
}

/// A call's progress, for the app. Serializes as `{"type": "dispatched", "callId", …}`.
/// `elapsed` (`elapsedMs` in JS) is the time since the engine saw the dispatch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum CallEvent {
    /// The model called one of this client's tools.
    Dispatched {
        /// The call's id, as the server assigned it.
        call_id: String,
        /// The tool's name as the client declared it.
        tool: String,
        /// The run (agent turn) in which the model made the call; empty if the server did
        /// not say.
        run_id: String,
    },
    /// The server took the ack.
    Acked {
        /// The call's id, as the server assigned it.
        call_id: String,
        /// The tool's name as the client declared it.
        tool: String,
        /// Time from the dispatch to the ack's answer, in ms.
        #[serde(rename = "elapsedMs")]
        elapsed: Duration,
    },
    /// The server took the result.
    Answered {
        /// The call's id, as the server assigned it.
        call_id: String,
        /// The tool's name as the client declared it.
        tool: String,
        /// Whether the answer reported a failure to the model.
        is_error: bool,
        /// Time from the dispatch to the result's answer, in ms.
        #[serde(rename = "elapsedMs")]
        elapsed: Duration,
    },
    /// The call ended without this client's answer: `reason` is the server's
    /// (`client_gone`, `ack_timeout`, `result_timeout`, `run_gone`) or the engine's.
    Failed {
        /// The call's id, as the server assigned it.
        call_id: String,
        /// The tool's name as the client declared it.
        tool: String,
        /// The server's reason (`client_gone`, `ack_timeout`, …) or the engine's
        /// (`registration_lapsed`, `call_settled`, …).
        reason: String,
        /// Time from the dispatch to the failure, in ms.
        #[serde(rename = "elapsedMs")]
        elapsed: Duration,
    },
}

/// What kind of failure an [`EngineError`] is. Serializes as [`EngineErrorKind::as_str`] says:
/// the `code` of the error the app's promise rejects with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineErrorKind {
    /// The server refused the token (401/403). Fatal.
    Unauthorized,
    /// The server refused the request as invalid (400, 413, 409 other than the expected).
    Rejected,
    /// The first registration did not succeed within [`Config::register_timeout`]
    /// (`registerTimeoutMs`); the message says which request failed last. Fatal.
    ///
    /// [`Config::register_timeout`]: super::Config::register_timeout
    RegisterTimeout,
    /// The client is not registered (it left, or the engine stopped).
    NotRegistered,
}

/// A failure with a kind a program can match and a message a person can act on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineError {
    /// What went wrong, for a program.
    pub kind: EngineErrorKind,
    /// What went wrong, for a person.
    pub message: String,
}

impl EngineError {
    pub(crate) fn new(kind: EngineErrorKind, message: impl Into<String>) -> EngineError {
        EngineError {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EngineError {}

/// The client's registration state, from [`Engine::state`](super::Engine::state). Serializes
/// as [`ClientState::as_str`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientState {
    /// A register request is on its way (first time or again), or, after a lapse while the
    /// page was hidden with `whenHidden: pause`, will be once the page is visible.
    Registering,
    /// Registered: id, name and expiry are known.
    Registered,
    /// Left, by the app's wish, a hide with `whenHidden: leave`, or a page hide.
    Left,
    /// Stopped for good after a fatal error.
    Failed,
}

// One word for each fact: every shell (the browser's events and getters, the native worker,
// the JS `.d.ts`) spells these values as `as_str` does, and serde writes the same.

impl LeftBy {
    /// `"app"`, `"hidden"` or `"pageHide"`.
    pub fn as_str(self) -> &'static str {
        match self {
            LeftBy::App => "app",
            LeftBy::Hidden => "hidden",
            LeftBy::PageHide => "pageHide",
        }
    }
}

impl EngineErrorKind {
    /// `"unauthorized"`, `"rejected"`, `"register_timeout"` or `"left"` (not registered): the
    /// same codes as [`ErrorKind::code`](crate::api::ErrorKind::code), which takes them from here.
    pub fn as_str(self) -> &'static str {
        match self {
            EngineErrorKind::Unauthorized => "unauthorized",
            EngineErrorKind::Rejected => "rejected",
            EngineErrorKind::RegisterTimeout => "register_timeout",
            EngineErrorKind::NotRegistered => "left",
        }
    }
}

impl ClientState {
    /// `"registering"`, `"registered"`, `"left"` or `"failed"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ClientState::Registering => "registering",
            ClientState::Registered => "registered",
            ClientState::Left => "left",
            ClientState::Failed => "failed",
        }
    }
}

macro_rules! serialize_as_str {
    ($($t:ty),*) => {$(
        impl Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
    )*};
}
serialize_as_str!(LeftBy, EngineErrorKind, ClientState);
