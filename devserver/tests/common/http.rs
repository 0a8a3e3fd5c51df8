//! A small HTTP/1.1 client on hyper's client connection, independent of the server's code and
//! of the SDK: requests with headers and a body, answers as status + headers + bytes, and an
//! SSE reader that keeps comments, ids and event names as they came on the wire.

#![allow(dead_code)]

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::client::conn::http1::{self, SendRequest};
use hyper::{HeaderMap, Request};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpStream;

/// An answer, read whole.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Answer {
    /// The body as JSON; panics with the body text when it is not.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "status {} body is not JSON ({e}): {:?}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// A header's value as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The `error.type` of an error answer.
    pub fn error_type(&self) -> String {
        self.json()["error"]["type"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    }
}

/// One kept-alive connection; requests on it go one after another.
pub struct Conn {
    sender: SendRequest<Full<Bytes>>,
    addr: SocketAddr,
}

impl Conn {
    /// Connects to `addr`.
    pub async fn open(addr: SocketAddr) -> Conn {
        let tcp = TcpStream::connect(addr).await.expect("connect");
        tcp.set_nodelay(true).expect("nodelay");
        let (sender, conn) = http1::handshake(TokioIo::new(tcp))
            .await
            .expect("handshake");
        tokio::spawn(async move {
            let _ = conn.await;
        });
        Conn { sender, addr }
    }

    /// Sends a request and reads the whole answer.
    pub async fn send(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<Vec<u8>>,
    ) -> Answer {
        let response = self.start(method, path, headers, body).await;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = response
            .into_body()
            .collect()
            .await
            .expect("read body")
            .to_bytes();
        Answer {
            status,
            headers,
            body,
        }
    }

    async fn start(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<Vec<u8>>,
    ) -> hyper::Response<Incoming> {
        self.sender.ready().await.expect("connection ready");
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header("host", self.addr.to_string());
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let body = body.map(Bytes::from).unwrap_or_default();
        let req = req.body(Full::new(body)).expect("request");
        self.sender.send_request(req).await.expect("send request")
    }
}

/// Sends one request on a fresh connection.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<Vec<u8>>,
) -> Answer {
    Conn::open(addr)
        .await
        .send(method, path, headers, body)
        .await
}

/// One item of an event stream.
#[derive(Debug, Clone, PartialEq)]
pub enum Sse {
    Event { id: u64, event: String, data: Value },
    Comment(String),
    Closed,
    TimedOut,
}

impl Sse {
    /// The event's type, or panics naming what came instead.
    pub fn event_type(&self) -> &str {
        match self {
            Sse::Event { event, .. } => event,
            other => panic!("expected an event, got {other:?}"),
        }
    }
}

/// An open `text/event-stream` answer.
pub struct EventReader {
    pub status: u16,
    pub headers: HeaderMap,
    body: Incoming,
    buf: Vec<u8>,
    /// Where the unread part of `buf` starts (compacted when a read needs room).
    start: usize,
    closed: bool,
    _conn: Conn,
}

impl EventReader {
    /// Opens a stream with `GET path`.
    pub async fn open(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> EventReader {
        let mut conn = Conn::open(addr).await;
        let response = conn.start("GET", path, headers, None).await;
        EventReader {
            status: response.status().as_u16(),
            headers: response.headers().clone(),
            body: response.into_body(),
            buf: Vec::new(),
            start: 0,
            closed: false,
            _conn: conn,
        }
    }

    /// The next event or comment, `Closed` at the end, `TimedOut` after `within`.
    pub async fn next(&mut self, within: Duration) -> Sse {
        match self.next_block(within).await {
            Ok(block) => parse_block(&block),
            Err(end) => end,
        }
    }

    /// The next event's type and raw data, without reading the JSON (for the load test);
    /// `None` at the end or after `within`.
    pub async fn next_raw(&mut self, within: Duration) -> Option<(String, String)> {
        loop {
            let block = self.next_block(within).await.ok()?;
            let (mut event, mut data) = (None, None);
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event: ") {
                    event = Some(v.to_owned());
                } else if let Some(v) = line.strip_prefix("data: ") {
                    data = Some(v.to_owned());
                }
            }
            if let (Some(e), Some(d)) = (event, data) {
                return Some((e, d));
            }
        }
    }

    async fn next_block(&mut self, within: Duration) -> Result<String, Sse> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let unread = &self.buf[self.start..];
            if let Some(pos) = unread.windows(2).position(|w| w == b"\n\n") {
                let block = String::from_utf8(unread[..pos + 2].to_vec()).expect("utf-8 stream");
                self.start += pos + 2;
                return Ok(block);
            }
            if self.closed {
                return Err(Sse::Closed);
            }
            match tokio::time::timeout_at(deadline, self.body.frame()).await {
                Err(_) => return Err(Sse::TimedOut),
                Ok(None) | Ok(Some(Err(_))) => self.closed = true,
                Ok(Some(Ok(frame))) => {
                    if let Ok(data) = frame.into_data() {
                        self.buf.drain(..self.start);
                        self.start = 0;
                        self.buf.extend_from_slice(&data);
                    }
                }
            }
        }
    }

    /// The next event, skipping comments; panics on anything else.
    pub async fn next_event(&mut self, within: Duration) -> (u64, String, Value) {
        loop {
            match self.next(within).await {
                Sse::Event { id, event, data } => return (id, event, data),
                Sse::Comment(_) => continue,
                other => panic!("expected an event, got {other:?}"),
            }
        }
    }

    /// Events until one of type `kind` arrives (returned with the ones skipped before it).
    pub async fn until(&mut self, kind: &str, within: Duration) -> (Value, Vec<String>) {
        let mut skipped = Vec::new();
        loop {
            let (_, event, data) = self.next_event(within).await;
            if event == kind {
                return (data, skipped);
            }
            skipped.push(event);
        }
    }
}

fn parse_block(block: &str) -> Sse {
    let (mut id, mut event, mut data, mut comment) = (None, None, None, None);
    for line in block.lines() {
        if let Some(c) = line.strip_prefix(':') {
            comment = Some(c.to_owned());
        } else if let Some(v) = line.strip_prefix("id: ") {
            id = Some(v.parse::<u64>().expect("numeric id"));
        } else if let Some(v) = line.strip_prefix("event: ") {
            event = Some(v.to_owned());
        } else if let Some(v) = line.strip_prefix("data: ") {
            assert!(data.is_none(), "one data line per event: {block:?}");
            data = Some(serde_json::from_str::<Value>(v).expect("data is JSON"));
        } else if !line.is_empty() {
            panic!("unexpected line {line:?} in {block:?}");
        }
    }
    match (id, event, data, comment) {
        (Some(id), Some(event), Some(data), None) => Sse::Event { id, event, data },
        (None, None, None, Some(c)) => Sse::Comment(c),
        _ => panic!("malformed SSE block {block:?}"),
    }
}
