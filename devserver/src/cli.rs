//! The command line, parsed by hand: every option of the issue, with the protocol's defaults,
//! and a clear error naming a bad option or value.

use client_tools_sessions::Limits;
use std::fmt;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;

/// Everything the server can be told at start. [`Config::default`] is the protocol's numbers;
/// tests shrink the deadlines to milliseconds.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen; port 0 picks a free port.
    pub addr: SocketAddr,
    /// A call must be acked this long after its dispatch (`--ack-timeout-ms`).
    pub ack_timeout_ms: u64,
    /// An acked call must be answered this long after its ack (`--result-timeout-ms`).
    pub result_timeout_ms: u64,
    /// A `: keep-alive` comment goes down every stream this often (`--heartbeat-ms`).
    pub heartbeat_ms: u64,
    /// Live clients a session may hold (`--max-clients`).
    pub max_clients: usize,
    /// Events each session keeps for `Last-Event-ID` replay (`--replay-events`).
    pub replay_events: usize,
    /// Sessions that exist from the start, as `(id, token)` (`--session ID:TOKEN`).
    pub sessions: Vec<(String, String)>,
    /// Static files served at `/` (`--www DIR`).
    pub www: Option<PathBuf>,
    /// Static files served at `/pkg/` (`--pkg DIR`).
    pub pkg: Option<PathBuf>,
    /// Static files served at `/docs/` (`--docs DIR`: scripts/docs' target/docs).
    pub docs: Option<PathBuf>,
    /// The shortest TTL lifetime a client may ask for (`--ttl-min-seconds`).
    pub ttl_min_seconds: u32,
    /// The longest TTL lifetime a client may ask for (`--ttl-max-seconds`).
    pub ttl_max_seconds: u32,
    /// How long an idempotency record is kept (`--idempotency-ttl-ms`, 24 hours).
    pub idempotency_ttl_ms: u64,
    /// Idempotency records kept per session; the oldest go first (`--idempotency-records`).
    pub idempotency_records: usize,
    /// Settled calls kept per session for the long poll and the console (`--settled-calls`).
    pub settled_calls: usize,
    /// Calls a session may have pending at once (`--max-pending-calls`).
    pub max_pending_calls: usize,
    /// Sessions the server holds at once (`--max-sessions`).
    pub max_sessions: usize,
    /// Runs kept per session, active or ended (`--max-runs`).
    pub max_runs: usize,
    /// A token allowed to create sessions and to act on every session (`--api-key`). Without
    /// one, anyone on loopback may create a session.
    pub api_key: Option<String>,
}

impl Default for Config {
    /// The session limits default to the protocol's ([`Limits::default`]).
    fn default() -> Self {
        let limits = Limits::default();
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8787)),
            ack_timeout_ms: limits.ack_timeout_ms,
            result_timeout_ms: limits.result_timeout_ms,
            heartbeat_ms: 15_000,
            max_clients: limits.max_clients,
            replay_events: limits.replay_events,
            sessions: Vec::new(),
            www: None,
            pkg: None,
            docs: None,
            ttl_min_seconds: limits.ttl_min_seconds,
            ttl_max_seconds: limits.ttl_max_seconds,
            idempotency_ttl_ms: 24 * 3600 * 1000,
            idempotency_records: 10_000,
            settled_calls: limits.settled_calls,
            max_pending_calls: limits.max_pending_calls,
            max_sessions: 1000,
            max_runs: limits.max_runs,
            api_key: None,
        }
    }
}

impl Config {
    /// What each session enforces, from the command line.
    pub fn limits(&self) -> Limits {
        Limits {
            ack_timeout_ms: self.ack_timeout_ms,
            result_timeout_ms: self.result_timeout_ms,
            ttl_min_seconds: self.ttl_min_seconds,
            ttl_max_seconds: self.ttl_max_seconds,
            max_clients: self.max_clients,
            max_pending_calls: self.max_pending_calls,
            max_runs: self.max_runs,
            settled_calls: self.settled_calls,
            replay_events: self.replay_events,
        }
    }
}

/// What the command line asked for: run with a config, or print the usage.
#[derive(Debug)]
pub enum Command {
    Run(Box<Config>),
    Help,
}

/// A command line the server cannot run with; the message names the option and the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CliError {}

/// The text of `--help`.
pub const USAGE: &str = "\
devserver: the reference server of the client-tools protocol

usage: devserver [OPTIONS]

  --addr HOST:PORT            listen here (default 127.0.0.1:8787; port 0 picks a free port)
  --ack-timeout-ms MS         a call must be acked within MS of its dispatch (default 60000)
  --result-timeout-ms MS      an acked call must be answered within MS (default 300000)
  --heartbeat-ms MS           a `: keep-alive` comment on every stream each MS (default 15000)
  --max-clients N             live clients per session (default 32)
  --replay-events N           events kept per session for Last-Event-ID replay (default 1000)
  --session ID:TOKEN          a session that exists from the start (repeatable)
  --www DIR                   static files served at /
  --pkg DIR                   static files served at /pkg/
  --docs DIR                  static files served at /docs/
  --ttl-min-seconds N         shortest TTL lifetime accepted (default 5)
  --ttl-max-seconds N         longest TTL lifetime accepted (default 3600)
  --idempotency-ttl-ms MS     how long an Idempotency-Key is remembered (default 86400000)
  --idempotency-records N     idempotency records kept per session (default 10000)
  --settled-calls N           settled calls kept per session (default 1000)
  --max-pending-calls N       pending calls per session (default 10000)
  --max-sessions N            sessions held at once (default 1000)
  --max-runs N                runs kept per session (default 1000)
  --api-key KEY               a token that may create sessions and act on all of them
  --help                      print this text
";

/// Parses the arguments after the program name. Both `--opt VALUE` and `--opt=VALUE` work.
///
/// Fails on an unknown option, a missing value, or a value out of range, naming which.
pub fn parse<I, S>(args: I) -> Result<Command, CliError>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let mut config = Config::default();
    let mut args = args.into_iter().map(Into::into);
    while let Some(arg) = args.next() {
        if arg == "--help" || arg == "-h" {
            return Ok(Command::Help);
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        if !name.starts_with("--") {
            return Err(CliError(format!(
                "unexpected argument {arg:?}; options start with --, see --help"
            )));
        }
        let known = [
            "--addr",
            "--ack-timeout-ms",
            "--result-timeout-ms",
            "--heartbeat-ms",
            "--max-clients",
            "--replay-events",
            "--session",
            "--www",
            "--pkg",
            "--docs",
            "--ttl-min-seconds",
            "--ttl-max-seconds",
            "--idempotency-ttl-ms",
            "--idempotency-records",
            "--settled-calls",
            "--max-pending-calls",
            "--max-sessions",
            "--max-runs",
            "--api-key",
        ];
        if !known.contains(&name.as_str()) {
            return Err(CliError(format!("unknown option {name}; see --help")));
        }
        let value = match inline {
            Some(v) => v,
            None => args
                .next()
                .ok_or_else(|| CliError(format!("{name} needs a value")))?,
        };
        apply(&mut config, &name, &value)?;
    }
    if config.ttl_min_seconds > config.ttl_max_seconds {
        return Err(CliError(format!(
            "--ttl-min-seconds {} is above --ttl-max-seconds {}",
            config.ttl_min_seconds, config.ttl_max_seconds
        )));
    }
    Ok(Command::Run(Box::new(config)))
}

fn apply(config: &mut Config, name: &str, value: &str) -> Result<(), CliError> {
    match name {
        "--addr" => config.addr = parse_addr(value)?,
        "--ack-timeout-ms" => config.ack_timeout_ms = millis(name, value)?,
        "--result-timeout-ms" => config.result_timeout_ms = millis(name, value)?,
        "--heartbeat-ms" => config.heartbeat_ms = millis(name, value)?,
        "--max-clients" => config.max_clients = positive(name, value)? as usize,
        "--replay-events" => config.replay_events = positive(name, value)? as usize,
        "--session" => {
            let (id, token) = parse_session(value)?;
            if config.sessions.iter().any(|(i, _)| *i == id) {
                return Err(CliError(format!("--session {id}: the id is given twice")));
            }
            if config.sessions.iter().any(|(_, t)| *t == token) {
                return Err(CliError(format!(
                    "--session {id}: its token is already another session's"
                )));
            }
            config.sessions.push((id, token));
        }
        "--www" => config.www = Some(directory(name, value)?),
        "--pkg" => config.pkg = Some(directory(name, value)?),
        "--docs" => config.docs = Some(directory(name, value)?),
        "--ttl-min-seconds" => config.ttl_min_seconds = seconds(name, value)?,
        "--ttl-max-seconds" => config.ttl_max_seconds = seconds(name, value)?,
        "--idempotency-ttl-ms" => config.idempotency_ttl_ms = millis(name, value)?,
        "--idempotency-records" => config.idempotency_records = positive(name, value)? as usize,
        "--settled-calls" => config.settled_calls = positive(name, value)? as usize,
        "--max-pending-calls" => config.max_pending_calls = positive(name, value)? as usize,
        "--max-sessions" => config.max_sessions = positive(name, value)? as usize,
        "--max-runs" => config.max_runs = positive(name, value)? as usize,
        "--api-key" => {
            if value.is_empty() || value.chars().any(char::is_whitespace) {
                return Err(CliError(
                    "--api-key: must be non-empty, without spaces".to_owned(),
                ));
            }
            config.api_key = Some(value.to_owned());
        }
        _ => unreachable!("checked against the list of known options"),
    }
    Ok(())
}

fn parse_addr(value: &str) -> Result<SocketAddr, CliError> {
    let bad = |why: String| CliError(format!("--addr {value:?}: {why}; expected HOST:PORT"));
    if let Ok(addr) = value.parse::<SocketAddr>() {
        return Ok(addr);
    }
    // `localhost:8787` needs a lookup; anything that resolves to nothing is an error.
    let mut found = value.to_socket_addrs().map_err(|e| bad(e.to_string()))?;
    found
        .next()
        .ok_or_else(|| bad("resolves to no address".to_owned()))
}

fn positive(name: &str, value: &str) -> Result<u64, CliError> {
    match value.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(CliError(format!(
            "{name} {value:?}: expected a whole number above 0"
        ))),
    }
}

/// The longest duration an option takes: 30 days, far from where `Instant + Duration` overflows.
const MILLIS_MAX: u64 = 30 * 24 * 3600 * 1000;

fn millis(name: &str, value: &str) -> Result<u64, CliError> {
    let ms = positive(name, value)?;
    if ms > MILLIS_MAX {
        return Err(CliError(format!(
            "{name} {value:?}: at most {MILLIS_MAX} (30 days)"
        )));
    }
    Ok(ms)
}

fn seconds(name: &str, value: &str) -> Result<u32, CliError> {
    match value.parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(CliError(format!(
            "{name} {value:?}: expected whole seconds above 0"
        ))),
    }
}

fn directory(name: &str, value: &str) -> Result<PathBuf, CliError> {
    let path = PathBuf::from(value);
    if !path.is_dir() {
        return Err(CliError(format!("{name} {value:?}: not a directory")));
    }
    Ok(path)
}

fn parse_session(value: &str) -> Result<(String, String), CliError> {
    let (id, token) = value
        .split_once(':')
        .ok_or_else(|| CliError(format!("--session {value:?}: expected ID:TOKEN")))?;
    let id_ok = !id.is_empty()
        && id.len() <= 128
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !id_ok {
        return Err(CliError(format!(
            "--session {value:?}: the id must be 1 to 128 of A-Z a-z 0-9 _ -"
        )));
    }
    if token.is_empty() || token.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(CliError(format!(
            "--session {value:?}: the token must be non-empty, without spaces"
        )));
    }
    Ok((id.to_owned(), token.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Config, CliError> {
        match parse(args.iter().copied())? {
            Command::Run(c) => Ok(*c),
            Command::Help => panic!("unexpected help"),
        }
    }

    #[test]
    fn defaults_are_the_protocols_numbers() {
        let c = run(&[]).unwrap();
        assert_eq!(c.addr.to_string(), "127.0.0.1:8787");
        assert_eq!((c.ack_timeout_ms, c.result_timeout_ms), (60_000, 300_000));
        assert_eq!(
            (c.heartbeat_ms, c.max_clients, c.replay_events),
            (15_000, 32, 1000)
        );
    }

    #[test]
    fn reads_every_option_in_both_spellings() {
        let c = run(&[
            "--addr=127.0.0.1:0",
            "--ack-timeout-ms",
            "200",
            "--result-timeout-ms=300",
            "--heartbeat-ms",
            "50",
            "--max-clients",
            "3",
            "--replay-events",
            "5",
            "--session",
            "s1:t1",
            "--session",
            "s2:t:2",
        ])
        .unwrap();
        assert_eq!(c.addr.port(), 0);
        assert_eq!((c.ack_timeout_ms, c.result_timeout_ms), (200, 300));
        assert_eq!((c.heartbeat_ms, c.max_clients, c.replay_events), (50, 3, 5));
        assert_eq!(
            c.sessions,
            vec![
                ("s1".to_owned(), "t1".to_owned()),
                ("s2".to_owned(), "t:2".to_owned())
            ]
        );
    }

    #[test]
    fn names_what_is_wrong() {
        let e = |args: &[&str]| run(args).unwrap_err().0;
        assert!(e(&["--bogus"]).contains("unknown option --bogus"));
        assert!(e(&["--ack-timeout-ms"]).contains("--ack-timeout-ms needs a value"));
        assert!(e(&["--ack-timeout-ms", "0"]).contains("above 0"));
        assert!(e(&["--heartbeat-ms", "18446744073709551615"]).contains("30 days"));
        assert!(e(&["--max-clients", "-1"]).contains("--max-clients"));
        assert!(e(&["--addr", "nowhere"]).contains("--addr"));
        assert!(e(&["--session", "nocolon"]).contains("ID:TOKEN"));
        assert!(e(&["--session", "a:t", "--session", "b:t"]).contains("another session"));
        assert!(e(&["--www", "/definitely/not/here"]).contains("not a directory"));
        assert!(e(&["stray"]).contains("unexpected argument"));
    }
}
