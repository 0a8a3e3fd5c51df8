//! What the app configures: the session, the client's name, lifetime and tools, the policies,
//! and the request paths. [`Config::validate`] checks every limit before anything is sent.

use super::auth::{sendable_token, TokenProblem};
pub use crate::calls::{ToolDef, DEFAULT_TOOL_TIMEOUT_MS};
use crate::protocol::validate::{self, ErrorKind, ValidationError};
use crate::protocol::{Lifetime, ToolSpec};
use crate::quote::Quoted;
use crate::time::Duration;

/// How long the first registration may take by default: 30 s.
pub const DEFAULT_REGISTER_TIMEOUT: Duration = Duration::from_secs(30);

/// How long the event stream may stay silent (not a byte, keep-alive comments included) before
/// the engine gives the connection up and reconnects, by default: three of the server's 15-s
/// keep-alives (`streamIdleTimeoutMs`).
pub const DEFAULT_STREAM_IDLE_TIMEOUT: Duration = Duration::from_secs(45);
/// How long a stream connection may take to send its response head, by default.
pub const DEFAULT_STREAM_CONNECT_TIMEOUT: Duration = Duration::from_secs(15);

/// What the client does while the page is hidden (`whenHidden`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WhenHidden {
    /// Go on pinging; ping at once when the page becomes visible again.
    #[default]
    Keep,
    /// Stop pinging while hidden; when visible, ping, or register again if the TTL ran out.
    Pause,
    /// Leave when hidden; register again when visible.
    Leave,
}

impl WhenHidden {
    /// Reads the JS spelling: `"keep"`, `"pause"` or `"leave"`.
    pub fn parse(s: &str) -> Result<WhenHidden, ValidationError> {
        match s {
            "keep" => Ok(WhenHidden::Keep),
            "pause" => Ok(WhenHidden::Pause),
            "leave" => Ok(WhenHidden::Leave),
            other => Err(ValidationError::new(
                "whenHidden",
                ErrorKind::OutOfRange,
                format!(
                    "{} is not one of \"keep\", \"pause\", \"leave\"",
                    Quoted(other)
                ),
            )),
        }
    }
}

/// The request paths, as templates with `{session_id}`, `{client_id}` and `{call_id}`.
/// The defaults are PROTOCOL.md's; a server that differs can be reached by changing them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paths {
    /// `POST`: register (default `/v1/sessions/{session_id}/clients`).
    pub register: String,
    /// `POST`: stay registered (`…/clients/{client_id}/ping`).
    pub ping: String,
    /// `DELETE`: leave (`…/clients/{client_id}`).
    pub leave: String,
    /// `PUT`: replace the tools (`…/clients/{client_id}/tools`).
    pub tools: String,
    /// `POST`: acknowledge a call (`…/calls/{call_id}/ack`).
    pub ack: String,
    /// `POST`: answer a call (`…/calls/{call_id}/result`).
    pub result: String,
    /// `GET`: the calls dispatched and not settled (`…/clients/{client_id}/calls`).
    pub pending: String,
    /// `GET`: the session's event stream (`/v1/sessions/{session_id}/stream`).
    pub stream: String,
}

impl Default for Paths {
    fn default() -> Self {
        // Written out: `format!` for each would be more wasm than the text.
        Paths {
            register: "/v1/sessions/{session_id}/clients".into(),
            ping: "/v1/sessions/{session_id}/clients/{client_id}/ping".into(),
            leave: "/v1/sessions/{session_id}/clients/{client_id}".into(),
            tools: "/v1/sessions/{session_id}/clients/{client_id}/tools".into(),
            ack: "/v1/sessions/{session_id}/clients/{client_id}/calls/{call_id}/ack".into(),
            result: "/v1/sessions/{session_id}/clients/{client_id}/calls/{call_id}/result".into(),
            pending: "/v1/sessions/{session_id}/clients/{client_id}/calls".into(),
            stream: "/v1/sessions/{session_id}/stream".into(),
        }
    }
}

/// Everything the engine needs to run one client.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The server's origin and any prefix, e.g. `https://agent.example.com` (no trailing `/`
    /// needed).
    pub base_url: String,
    /// The session whose agent calls the tools.
    pub session_id: String,
    /// The session token (or an API key), sent as `Authorization: Bearer <token>`.
    pub token: String,
    /// The shell can get a fresh token (the app gave a function): a `401` asks for one with
    /// [`Output::RefreshToken`](super::Output::RefreshToken) instead of stopping, and the
    /// refused request is sent again with it (the rules: the `auth` module). Default `false`.
    pub token_refresh: bool,
    /// The client name asked for; the server may append a counter (`web-2`).
    pub name: String,
    /// `never`, or a TTL of 5 to 3600 s kept alive by pings (default 60 s).
    pub lifetime: Lifetime,
    /// What to do while the page is hidden (default: keep pinging).
    pub when_hidden: WhenHidden,
    /// The tools on offer at registration (at most 64).
    pub tools: Vec<ToolDef>,
    /// A per-client random prefix of every `Idempotency-Key` (the browser passes
    /// `crypto.randomUUID()`); a counter makes each key new.
    pub key_prefix: String,
    /// Seeds the backoff jitter, so a test run is repeatable.
    pub seed: u64,
    /// The request paths (default: PROTOCOL.md's).
    pub paths: Paths,
    /// How long the first registration may take, retrying network errors and 5xx meanwhile
    /// (default 30 s, `registerTimeoutMs`). Past it the engine stops with
    /// [`EngineErrorKind::RegisterTimeout`](super::EngineErrorKind::RegisterTimeout), naming
    /// the request that failed last.
    pub register_timeout: Duration,
    /// How long the open event stream may send nothing at all (keep-alives count) before it is
    /// given up and reconnected (default 45 s, `streamIdleTimeoutMs`). Every shell keeps the
    /// default or the app's value; `None` (no deadline) is for tests of other rules.
    pub stream_idle_timeout: Option<Duration>,
    /// How long a stream connection may take to send its response head before it is given up
    /// and reconnected (default 15 s); `None` as for `stream_idle_timeout`.
    pub stream_connect_timeout: Option<Duration>,
}

impl Config {
    /// A config with the protocol's defaults: a 60 s TTL, `whenHidden: keep`, default paths,
    /// a 30 s register timeout.
    pub fn new(
        base_url: impl Into<String>,
        session_id: impl Into<String>,
        token: impl Into<String>,
        name: impl Into<String>,
        key_prefix: impl Into<String>,
        seed: u64,
    ) -> Config {
        Config {
            base_url: base_url.into(),
            session_id: session_id.into(),
            token: token.into(),
            token_refresh: false,
            name: name.into(),
            lifetime: Lifetime::default(),
            when_hidden: WhenHidden::Keep,
            tools: Vec::new(),
            key_prefix: key_prefix.into(),
            seed,
            paths: Paths::default(),
            register_timeout: DEFAULT_REGISTER_TIMEOUT,
            stream_idle_timeout: Some(DEFAULT_STREAM_IDLE_TIMEOUT),
            stream_connect_timeout: Some(DEFAULT_STREAM_CONNECT_TIMEOUT),
        }
    }

    /// Checks every field: the protocol's limits on name, lifetime and tools, plus non-empty
    /// base URL, session id, token and key prefix, and path templates that start with `/`.
    /// The error names the field, e.g. `tools[3].name: 65 characters, at most 64`.
    pub fn validate(&self) -> Result<(), ValidationError> {
        for (field, value) in [
            ("baseUrl", &self.base_url),
            ("sessionId", &self.session_id),
            ("keyPrefix", &self.key_prefix),
        ] {
            if value.trim().is_empty() {
                return Err(ValidationError::new(
                    field,
                    ErrorKind::Empty,
                    "empty, a value is needed",
                ));
            }
        }
        check_token(&self.token)?;
        if !(self.base_url.starts_with("http://")
            || self.base_url.starts_with("https://")
            || self.base_url.starts_with('/'))
        {
            return Err(ValidationError::new(
                "baseUrl",
                ErrorKind::BadCharacter,
                format!(
                    "{} must start with http://, https:// or /",
                    Quoted(&self.base_url)
                ),
            ));
        }
        if self.stream_idle_timeout == Some(Duration::ZERO) {
            return Err(ValidationError::new(
                "streamIdleTimeoutMs",
                ErrorKind::OutOfRange,
                "0 ms: the stream would be given up at once; at least 1",
            ));
        }
        validate::client_name(&self.name)?;
        validate::lifetime(&self.lifetime)?;
        validate_tools(&self.tools)?;
        let p = &self.paths;
        for (field, value) in [
            ("paths.register", &p.register),
            ("paths.ping", &p.ping),
            ("paths.leave", &p.leave),
            ("paths.tools", &p.tools),
            ("paths.ack", &p.ack),
            ("paths.result", &p.result),
            ("paths.pending", &p.pending),
            ("paths.stream", &p.stream),
        ] {
            if !value.starts_with('/') {
                return Err(ValidationError::new(
                    field,
                    ErrorKind::BadCharacter,
                    format!("{} must start with /", Quoted(value)),
                ));
            }
        }
        Ok(())
    }
}

/// Checks a tool list: the protocol's limits, plus `timeoutMs` and `maxCallsPerRun` above 0.
pub fn validate_tools(tools: &[ToolDef]) -> Result<(), ValidationError> {
    let refs: Vec<&ToolDef> = tools.iter().collect();
    validate_tool_refs(&refs)
}

/// [`validate_tools`] of a list held by reference (tool scopes check their union so).
pub fn validate_tool_refs(tools: &[&ToolDef]) -> Result<(), ValidationError> {
    // `validate::tools` refuses more than 64 tools first, with the same message.
    let specs: Vec<&ToolSpec> = tools.iter().map(|t| &t.spec).collect();
    validate::tool_list(&specs)?;
    for (i, t) in tools.iter().enumerate() {
        if t.timeout_ms == Some(0) {
            return Err(ValidationError::new(
                format!("tools[{i}].timeoutMs"),
                ErrorKind::OutOfRange,
                "0 ms, must be at least 1",
            ));
        }
        if t.max_calls_per_run == Some(0) {
            return Err(ValidationError::new(
                format!("tools[{i}].maxCallsPerRun"),
                ErrorKind::OutOfRange,
                "0, must be at least 1",
            ));
        }
    }
    Ok(())
}

/// Refuses a token [`sendable_token`] refuses, as the field `token` (its text names the
/// problem, never the token).
pub fn check_token(token: &str) -> Result<(), ValidationError> {
    match sendable_token(token) {
        Ok(_) => Ok(()),
        Err(problem) => {
            let kind = match problem {
                TokenProblem::Empty => ErrorKind::Empty,
                TokenProblem::Unsendable { .. } => ErrorKind::BadCharacter,
            };
            Err(ValidationError::new("token", kind, problem.to_string()))
        }
    }
}
