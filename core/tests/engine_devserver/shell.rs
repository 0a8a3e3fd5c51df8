//! A small native shell, for tests only: it carries out the engine's outputs with real
//! loopback I/O (a thread per request, stream and handler) and feeds back what happened,
//! the way the browser shell does with fetch, ReadableStream and timers.

use super::http::{open_stream, request, split_url, Dechunker};
use client_tools_core::engine::{Engine, Input, Output, StreamId};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::io::Read;
use std::net::{Shutdown, TcpStream};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

pub fn now_ms() -> client_tools_core::time::Instant {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as u64;
    client_tools_core::time::Instant::from_ms(ms)
}

enum Event {
    Input(Input),
    Bytes(StreamId, Vec<u8>),
}

/// How the page answers a tool: after how long, with what (`None`: never).
pub type Handler = fn(&str, &Map<String, Value>) -> (u64, Option<Result<String, String>>);

pub struct Shell {
    pub engine: Engine,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    streams: HashMap<StreamId, TcpStream>,
    handler: Handler,
    /// Everything the engine output, in order.
    pub log: Vec<Output>,
    pub handlers_started: Vec<String>,
}

impl Shell {
    pub fn new(engine: Engine, handler: Handler) -> Shell {
        let (tx, rx) = channel();
        Shell {
            engine,
            tx,
            rx,
            streams: HashMap::new(),
            handler,
            log: Vec::new(),
            handlers_started: Vec::new(),
        }
    }

    fn carry_out(&mut self) {
        while let Some(out) = self.engine.poll_output() {
            match &out {
                Output::Send(req) => {
                    let tx = self.tx.clone();
                    let req = req.clone();
                    std::thread::spawn(move || {
                        let (host, path) = split_url(&req.url);
                        let headers: Vec<(&str, &str)> =
                            req.headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
                        let input = match request(
                            &host,
                            req.method.as_str(),
                            &path,
                            &headers,
                            req.body.as_deref(),
                        ) {
                            Ok(a) => {
                                let retry_after = a
                                    .header("retry-after")
                                    .and_then(|s| s.parse::<u64>().ok())
                                    .map(client_tools_core::time::Duration::from_secs);
                                Input::Answer {
                                    request: req.id,
                                    status: a.status,
                                    body: a.body,
                                    retry_after,
                                }
                            }
                            Err(e) => Input::NetworkError {
                                request: req.id,
                                message: e.to_string(),
                            },
                        };
                        let _ = tx.send(Event::Input(input));
                    });
                }
                Output::OpenStream {
                    stream,
                    url,
                    headers,
                } => {
                    let (tx, stream) = (self.tx.clone(), *stream);
                    let (host, path) = split_url(url);
                    let headers: Vec<(&'static str, String)> = headers.clone();
                    let (conn_tx, conn_rx) = channel();
                    std::thread::spawn(move || {
                        let hs: Vec<(&str, &str)> =
                            headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
                        let (mut conn, status, chunked, first) =
                            match open_stream(&host, &path, &hs) {
                                Ok(x) => x,
                                Err(e) => {
                                    let _ = conn_tx.send(None);
                                    let _ = tx.send(Event::Input(Input::StreamClosed {
                                        stream,
                                        error: Some(e.to_string()),
                                    }));
                                    return;
                                }
                            };
                        let _ = conn_tx.send(conn.try_clone().ok());
                        let _ = tx.send(Event::Input(Input::StreamOpened { stream, status }));
                        let mut dechunk = Dechunker::default();
                        let mut forward = |bytes: &[u8]| {
                            if bytes.is_empty() {
                                return;
                            }
                            if chunked {
                                let mut out = Vec::new();
                                dechunk.feed(bytes, &mut |b| out.extend_from_slice(b));
                                let _ = tx.send(Event::Bytes(stream, out));
                            } else {
                                let _ = tx.send(Event::Bytes(stream, bytes.to_vec()));
                            }
                        };
                        forward(&first);
                        let mut buf = [0u8; 8192];
                        let error = loop {
                            match conn.read(&mut buf) {
                                Ok(0) => break None,
                                Ok(n) => forward(&buf[..n]),
                                Err(e) => break Some(e.to_string()),
                            }
                        };
                        let _ = tx.send(Event::Input(Input::StreamClosed { stream, error }));
                    });
                    if let Ok(Some(conn)) = conn_rx.recv() {
                        self.streams.insert(stream, conn);
                    }
                }
                Output::CloseStream { stream } => {
                    if let Some(conn) = self.streams.remove(stream) {
                        let _ = conn.shutdown(Shutdown::Both);
                    }
                }
                Output::RunHandler {
                    call_id,
                    tool,
                    arguments,
                    ..
                } => {
                    self.handlers_started.push(call_id.clone());
                    let (delay, outcome) = (self.handler)(tool, arguments);
                    if let Some(outcome) = outcome {
                        let (tx, call_id) = (self.tx.clone(), call_id.clone());
                        std::thread::spawn(move || {
                            std::thread::sleep(Duration::from_millis(delay));
                            let _ = tx.send(Event::Input(Input::HandlerDone {
                                call_id,
                                returned: outcome.into(),
                            }));
                        });
                    }
                }
                // The test's handlers cannot be interrupted; the engine ignores their late answers.
                Output::AbortHandler { .. } => {}
                // The devserver tests give a string token: the engine never asks for another.
                Output::HandlerDeadline { .. }
                | Output::RefreshToken
                | Output::Status(_)
                | Output::Call(_)
                | Output::OpDone { .. } => {}
            }
            self.log.push(out);
        }
    }

    /// Runs the loop until `done` holds; panics after `within`.
    pub fn run_until(&mut self, within: Duration, mut done: impl FnMut(&Shell) -> bool) {
        let end = Instant::now() + within;
        loop {
            self.carry_out();
            if done(self) {
                return;
            }
            let now = now_ms();
            if Instant::now() >= end {
                panic!("not done within {within:?}; outputs: {:#?}", self.log);
            }
            let wait = match self.engine.poll_timeout() {
                Some(at) if at <= now => {
                    self.engine.handle_timeout(now);
                    continue;
                }
                Some(at) => Duration::from_millis(at.since(now).as_ms().min(50)),
                None => Duration::from_millis(50),
            };
            match self.rx.recv_timeout(wait) {
                Ok(Event::Input(input)) => self.engine.handle(input, now_ms()),
                Ok(Event::Bytes(stream, bytes)) => {
                    self.engine.handle_stream_bytes(stream, &bytes, now_ms())
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => unreachable!("the shell holds a sender"),
            }
        }
    }

    /// Runs the loop for `d`, whatever happens.
    pub fn run_for(&mut self, d: Duration) {
        let end = Instant::now() + d;
        self.run_until(d + Duration::from_secs(1), |_| Instant::now() >= end);
    }
}
