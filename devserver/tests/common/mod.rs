//! What every integration test shares: a server on a free loopback port with short deadlines,
//! and a session handle that speaks the protocol over real HTTP.

#![allow(dead_code)]

pub mod http;

use devserver::{Config, Server};
#[allow(unused_imports)]
pub use http::{request, Answer, Conn, EventReader, Sse};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

/// Long enough for anything that should happen on loopback.
pub const SOON: Duration = Duration::from_secs(5);

/// Starts a server on 127.0.0.1:0 with test deadlines, after `tweak` adjusts the config.
pub async fn start(tweak: impl FnOnce(&mut Config)) -> Server {
    let mut config = Config {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        ack_timeout_ms: 2_000,
        result_timeout_ms: 2_000,
        heartbeat_ms: 10_000,
        ttl_min_seconds: 1,
        ..Config::default()
    };
    tweak(&mut config);
    devserver::start(config).await.expect("start devserver")
}

/// A session on a running server.
#[derive(Clone)]
pub struct Session {
    pub addr: SocketAddr,
    pub id: String,
    pub token: String,
}

impl Session {
    /// Creates a session with `POST /v1/sessions`.
    pub async fn create(server: &Server) -> Session {
        let a = request(server.addr, "POST", "/v1/sessions", &[], None).await;
        assert_eq!(a.status, 201, "{:?}", a.body);
        let v = a.json();
        Session {
            addr: server.addr,
            id: v["id"].as_str().unwrap().to_owned(),
            token: v["token"].as_str().unwrap().to_owned(),
        }
    }

    /// `/v1/sessions/{id}` + `rest`.
    pub fn path(&self, rest: &str) -> String {
        format!("/v1/sessions/{}{rest}", self.id)
    }

    /// A request to `/v1/sessions/{id}{rest}` with this session's token and extra headers.
    pub async fn send(
        &self,
        method: &str,
        rest: &str,
        headers: &[(&str, &str)],
        body: Option<Value>,
    ) -> Answer {
        let auth = format!("Bearer {}", self.token);
        let mut all = vec![("authorization", auth.as_str())];
        let body = body.map(|b| {
            all.push(("content-type", "application/json"));
            serde_json::to_vec(&b).unwrap()
        });
        all.extend_from_slice(headers);
        request(self.addr, method, &self.path(rest), &all, body).await
    }

    pub async fn get(&self, rest: &str) -> Answer {
        self.send("GET", rest, &[], None).await
    }

    pub async fn post(&self, rest: &str, body: Value) -> Answer {
        self.send("POST", rest, &[], Some(body)).await
    }

    pub async fn delete(&self, rest: &str) -> Answer {
        self.send("DELETE", rest, &[], None).await
    }

    /// Registers `name` with `lifetime` and tools named `tools`; panics unless 201.
    pub async fn register(&self, name: &str, lifetime: Value, tools: &[&str]) -> Value {
        let tools: Vec<Value> = tools
            .iter()
            .map(|t| {
                json!({"name": t, "description": format!("the {t} tool"),
                            "parameters": {"type": "object", "properties": {}}})
            })
            .collect();
        let a = self
            .post(
                "/clients",
                json!({"name": name, "lifetime": lifetime, "tools": tools}),
            )
            .await;
        assert_eq!(a.status, 201, "{:?}", String::from_utf8_lossy(&a.body));
        a.json()
    }

    /// Starts a run; its id.
    pub async fn run(&self) -> String {
        let a = self.send("POST", "/runs", &[], None).await;
        assert_eq!(a.status, 201, "{:?}", a.body);
        a.json()["id"].as_str().unwrap().to_owned()
    }

    /// The model calls `tool` in `run`; the call id.
    pub async fn call(&self, run: &str, tool: &str, arguments: Value) -> String {
        let a = self
            .post(
                &format!("/runs/{run}/calls"),
                json!({"tool": tool, "arguments": arguments}),
            )
            .await;
        assert_eq!(a.status, 201, "{:?}", String::from_utf8_lossy(&a.body));
        a.json()["call_id"].as_str().unwrap().to_owned()
    }

    /// Long-polls a call for up to `wait` seconds.
    pub async fn outcome(&self, run: &str, call: &str, wait: f64) -> Value {
        let a = self
            .get(&format!("/runs/{run}/calls/{call}?wait={wait}"))
            .await;
        assert_eq!(a.status, 200, "{:?}", a.body);
        a.json()
    }

    /// Opens the stream, with `Last-Event-ID` when given.
    pub async fn stream(&self, last_event_id: Option<u64>) -> EventReader {
        let auth = format!("Bearer {}", self.token);
        let last = last_event_id.map(|n| n.to_string());
        let mut headers = vec![
            ("authorization", auth.as_str()),
            ("accept", "text/event-stream"),
        ];
        if let Some(l) = &last {
            headers.push(("last-event-id", l.as_str()));
        }
        let r = EventReader::open(self.addr, &self.path("/stream"), &headers).await;
        assert_eq!(r.status, 200);
        r
    }

    /// The types of the session's logged events after `after`, in order.
    pub async fn event_types(&self, after: u64) -> Vec<String> {
        let a = self.get(&format!("/events?after={after}")).await;
        assert_eq!(a.status, 200);
        a.json()["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["type"].as_str().unwrap().to_owned())
            .collect()
    }
}

/// Asserts an error answer: its status, its `type`, a message, a `param` key, JSON.
pub fn assert_error(a: &Answer, status: u16, kind: &str) {
    assert_eq!(a.status, status, "{:?}", String::from_utf8_lossy(&a.body));
    let v = a.json();
    assert_eq!(v["error"]["type"], kind);
    assert!(!v["error"]["message"].as_str().unwrap().is_empty());
    assert!(v["error"].as_object().unwrap().contains_key("param"));
    assert_eq!(a.header("content-type"), Some("application/json"));
}

/// The path of a call's `ack` or `result` under the session.
pub fn call_path(client: &str, call: &str, what: &str) -> String {
    format!("/clients/{client}/calls/{call}/{what}")
}

impl Session {
    /// Registers `web` for good (`never`) with `highlight_row`; returns its id.
    pub async fn web_client(&self) -> String {
        let c = self
            .register("web", json!({"type": "never"}), &["highlight_row"])
            .await;
        c["id"].as_str().unwrap().to_owned()
    }

    /// How many live clients the session holds.
    pub async fn client_count(&self) -> usize {
        self.get("/clients").await.json()["clients"]
            .as_array()
            .unwrap()
            .len()
    }
}
