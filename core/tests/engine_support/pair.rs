//! A `Pair`: an engine and the in-process server stepped together in one virtual clock
//! (quinn-proto's `Pair::step`), over a network with latency, jitter and an off switch.

use super::fake_server::{CallState, FakeServer};
use super::{at, T0};
use client_tools_core::engine::{Engine, Input, Output, Status, StreamId};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// How the page answers a handler: after `delay_ms`, with this outcome (`None`: never).
pub type Page =
    Box<dyn FnMut(&str, &serde_json::Map<String, Value>) -> (u64, Option<Result<String, String>>)>;

/// An engine and a server in one virtual clock, with a network of fixed latency.
pub struct Pair {
    pub engine: Engine,
    pub server: FakeServer,
    pub now: u64,
    pub latency_ms: u64,
    /// Inputs on their way to the engine, with their arrival times.
    in_flight: Vec<(u64, Input)>,
    /// The stream connection, once its 200 arrived: its id and the next event index to send.
    stream: Option<(StreamId, usize)>,
    /// A connection asked for, its open on the way: id and where it resumes.
    opening: Option<(StreamId, usize)>,
    pub page: Page,
    /// Handlers running: call id → when they finish and how.
    handlers: BTreeMap<String, (u64, Result<String, String>)>,
    /// Everything the engine output, with its time.
    pub outputs: Vec<(u64, Output)>,
    pub handlers_started: Vec<String>,
    pub online: bool,
    /// Each delivery takes `latency_ms` plus up to this much more, so answers may overtake.
    pub jitter_ms: u64,
    rng: u64,
}

impl Pair {
    pub fn new(engine: Engine, server: FakeServer, page: Page) -> Pair {
        Pair {
            engine,
            server,
            now: T0,
            latency_ms: 20,
            in_flight: Vec::new(),
            stream: None,
            opening: None,
            page,
            handlers: BTreeMap::new(),
            outputs: Vec::new(),
            handlers_started: Vec::new(),
            online: true,
            jitter_ms: 0,
            rng: 0x2545_F491_4F6C_DD1D,
        }
    }

    /// A deterministic random number (xorshift), for jitter and for tests' fault choices.
    pub fn random(&mut self, below: u64) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        if below == 0 {
            0
        } else {
            self.rng % below
        }
    }

    pub fn seed(&mut self, seed: u64) {
        self.rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    }

    /// Carries out the engine's outputs.
    fn drain(&mut self) {
        while let Some(out) = self.engine.poll_output() {
            let jitter = self.random(self.jitter_ms + 1);
            let arrive = self.now + self.latency_ms + jitter;
            match &out {
                Output::Send(req) => {
                    let input = if self.online {
                        let (status, body) = self.server.handle(req, self.now);
                        Input::Answer {
                            request: req.id,
                            status,
                            body,
                            retry_after: None,
                        }
                    } else {
                        Input::NetworkError {
                            request: req.id,
                            message: "offline".into(),
                        }
                    };
                    self.in_flight.push((arrive, input));
                }
                Output::OpenStream {
                    stream, headers, ..
                } => {
                    let last: Option<u64> = headers
                        .iter()
                        .find(|(n, _)| *n == "Last-Event-ID")
                        .map(|(_, v)| v.parse().unwrap());
                    let status = if self.online { 200 } else { 503 };
                    let from = match last {
                        // Resume after the last seen event, or reset if it is forgotten.
                        Some(seq) if seq + 1 >= self.server.forgotten_before => seq as usize,
                        Some(_) => {
                            self.server.emit("stream_reset", json!({}));
                            self.server.events.len() - 1
                        }
                        // A new connection starts at the live edge.
                        None => self.server.events.len(),
                    };
                    self.opening = Some((*stream, from));
                    self.in_flight.push((
                        arrive,
                        Input::StreamOpened {
                            stream: *stream,
                            status,
                        },
                    ));
                }
                Output::CloseStream { stream } => {
                    if self.stream.is_some_and(|(s, _)| s == *stream) {
                        self.stream = None;
                    }
                }
                Output::RunHandler {
                    call_id,
                    tool,
                    arguments,
                    ..
                } => {
                    self.handlers_started.push(call_id.clone());
                    let _ = tool;
                    if let (delay, Some(outcome)) = (self.page)(tool, arguments) {
                        self.handlers
                            .insert(call_id.clone(), (self.now + delay, outcome));
                    }
                }
                Output::AbortHandler { call_id, .. } => {
                    self.handlers.remove(call_id);
                }
                // The fake page's token function always has a fresh token.
                Output::RefreshToken => {
                    self.in_flight
                        .push((arrive, Input::Token(Ok("fresh".into()))));
                }
                // The engine itself answers "timed out" at the deadline; the fake page need not know.
                Output::HandlerDeadline { .. }
                | Output::Status(_)
                | Output::Call(_)
                | Output::OpDone { .. } => {}
            }
            self.outputs.push((self.now, out));
        }
    }

    /// Sends the stream's new events to the engine.
    fn pump_stream(&mut self) {
        if let Some((stream, next)) = self.stream {
            if next < self.server.events.len() {
                let text: String = self.server.events[next..].concat();
                self.stream = Some((stream, self.server.events.len()));
                self.engine
                    .handle_stream_bytes(stream, text.as_bytes(), at(self.now));
            }
        }
    }

    /// Drops the stream as a network would: the engine sees it close.
    pub fn drop_stream(&mut self) {
        if let Some((stream, _)) = self.stream.take() {
            self.engine.handle(
                Input::StreamClosed {
                    stream,
                    error: Some("reset".into()),
                },
                at(self.now),
            );
        }
    }

    /// One step: carry out outputs, deliver the stream, then move the clock to the next
    /// thing that happens (no later than `until`) and deliver it.
    pub fn step(&mut self, until: u64) {
        self.drain();
        self.pump_stream();
        self.drain();
        let next = [
            self.engine.poll_timeout().map(|t| t.as_ms()),
            self.in_flight.iter().map(|(at, _)| *at).min(),
            self.handlers.values().map(|(at, _)| *at).min(),
            self.server.next_deadline(),
        ]
        .into_iter()
        .flatten()
        .filter(|&t| t >= self.now)
        .min()
        .unwrap_or(until)
        .min(until);
        self.now = self.now.max(next);
        self.server.tick(self.now);
        let (due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut self.in_flight)
            .into_iter()
            .partition(|(at, _)| *at <= self.now);
        self.in_flight = later;
        for (_, input) in due {
            if let Input::StreamOpened {
                stream,
                status: 200,
            } = input
            {
                if let Some((s, from)) = self.opening.take().filter(|(s, _)| *s == stream) {
                    self.stream = Some((s, from));
                }
            }
            self.engine.handle(input, at(self.now));
        }
        let done: Vec<String> = self
            .handlers
            .iter()
            .filter(|(_, (at, _))| *at <= self.now)
            .map(|(id, _)| id.clone())
            .collect();
        for call_id in done {
            let (_, outcome) = self.handlers.remove(&call_id).unwrap();
            self.engine.handle(
                Input::HandlerDone {
                    call_id,
                    returned: outcome.into(),
                },
                at(self.now),
            );
        }
        if self
            .engine
            .poll_timeout()
            .is_some_and(|t| t.as_ms() <= self.now)
        {
            self.engine.handle_timeout(at(self.now));
        }
        self.drain();
        self.pump_stream();
    }

    /// Steps until `at` (virtual ms since the epoch).
    pub fn run_until(&mut self, at: u64) {
        let mut steps = 0;
        while self.now < at {
            self.step(at);
            steps += 1;
            assert!(steps < 100_000, "no progress at {}", self.now);
        }
        // Settle whatever is due at `at` itself.
        for _ in 0..10 {
            self.step(at);
        }
    }

    /// Steps until `done` holds, for at most `max_ms` of virtual time.
    pub fn run_until_cond(&mut self, max_ms: u64, mut done: impl FnMut(&Pair) -> bool) {
        let end = self.now + max_ms;
        while !done(self) {
            assert!(self.now < end, "not done by {} ms", max_ms);
            self.step(end);
        }
    }

    pub fn statuses(&self) -> Vec<&Status> {
        self.outputs
            .iter()
            .filter_map(|(_, o)| match o {
                Output::Status(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    pub fn settled(&self, call_id: &str) -> Option<&CallState> {
        self.server
            .calls
            .get(call_id)
            .map(|c| &c.state)
            .filter(|s| matches!(s, CallState::Succeeded { .. } | CallState::Failed { .. }))
    }
}
