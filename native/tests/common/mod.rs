//! What the worker tests share: the devserver started in-process on a free loopback port,
//! the agent's side over its HTTP routes (a plain hyper client, not the crate under test),
//! and a log of what the worker's callbacks were told.
#![allow(dead_code)] // each test file uses a part

use bytes::Bytes;
use client_tools_native::{CallContext, CallEvent, Options, Tool};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::TokioExecutor;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The reference server on `127.0.0.1:0`, with `change` applied to its config.
pub async fn devserver(change: impl FnOnce(&mut devserver::Config)) -> devserver::Server {
    let mut config = devserver::Config {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        heartbeat_ms: 1_000,
        ttl_min_seconds: 1,
        ..devserver::Config::default()
    };
    change(&mut config);
    devserver::start(config).await.expect("devserver starts")
}

/// The agent's side of one session.
pub struct Agent {
    http: Client<HttpConnector, Full<Bytes>>,
    pub base: String,
    pub session: String,
    pub token: String,
    pub run: String,
}

impl Agent {
    /// Creates a session and a run on the server at `addr`.
    pub async fn new(addr: SocketAddr) -> Agent {
        let mut agent = Agent {
            http: Client::builder(TokioExecutor::new()).build_http(),
            base: format!("http://{addr}"),
            session: String::new(),
            token: String::new(),
            run: String::new(),
        };
        let (status, created) = agent.raw("POST", "/v1/sessions", None).await;
        assert_eq!(status, 201, "{created}");
        agent.session = created["id"].as_str().unwrap().to_owned();
        agent.token = created["token"].as_str().unwrap().to_owned();
        agent.run = agent.send("POST", "/runs", Some(json!({}))).await["id"]
            .as_str()
            .unwrap()
            .to_owned();
        agent
    }

    /// One request: the status and the JSON body (`null` when empty).
    pub async fn raw(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let req = hyper::Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base))
            .header("Authorization", format!("Bearer {}", self.token))
            .header("Content-Type", "application/json")
            .body(Full::new(Bytes::from(
                body.map(|b| b.to_string()).unwrap_or_default(),
            )))
            .unwrap();
        let resp = self.http.request(req).await.expect("devserver answers");
        let status = resp.status().as_u16();
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        let value = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).unwrap()
        };
        (status, value)
    }

    /// A request under the session (`rest` after `/v1/sessions/{id}`) that must succeed.
    pub async fn send(&self, method: &str, rest: &str, body: Option<Value>) -> Value {
        let path = format!("/v1/sessions/{}{rest}", self.session);
        let (status, value) = self.raw(method, &path, body).await;
        assert!(status < 300, "{method} {rest}: {status} {value}");
        value
    }

    /// The model calls `client__<client>__<tool>`; returns the call id.
    pub async fn call(&self, client: &str, tool: &str, arguments: Value) -> String {
        let v = self
            .send(
                "POST",
                &format!("/runs/{}/calls", self.run),
                Some(json!({"tool": format!("client__{client}__{tool}"), "arguments": arguments})),
            )
            .await;
        v["call_id"].as_str().unwrap().to_owned()
    }

    /// Waits (up to 10 s) for the call to settle; returns the server's record of it.
    pub async fn settled(&self, call_id: &str) -> Value {
        let v = self
            .send(
                "GET",
                &format!("/runs/{}/calls/{call_id}?wait=10", self.run),
                None,
            )
            .await;
        assert_ne!(v["state"], "pending", "{call_id} did not settle: {v}");
        v
    }

    /// The ids of the session's live clients.
    pub async fn client_ids(&self) -> Vec<String> {
        let v = self.send("GET", "/clients", None).await;
        v["clients"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_owned())
            .collect()
    }
}

/// Everything a callback was told, in order, shared with the test.
pub struct Log<T>(Arc<Mutex<Vec<T>>>);

impl<T> Clone for Log<T> {
    fn clone(&self) -> Self {
        Log(self.0.clone())
    }
}

impl<T: Clone + std::fmt::Debug> Log<T> {
    pub fn new() -> Log<T> {
        Log(Arc::new(Mutex::new(Vec::new())))
    }

    pub fn push(&self, item: T) {
        self.0.lock().unwrap().push(item);
    }

    pub fn items(&self) -> Vec<T> {
        self.0.lock().unwrap().clone()
    }

    /// Waits (up to `within`) until some item matches.
    pub async fn wait_for(&self, within: Duration, what: &str, f: impl Fn(&T) -> bool) -> T {
        let end = tokio::time::Instant::now() + within;
        loop {
            if let Some(item) = self.0.lock().unwrap().iter().find(|i| f(i)) {
                return item.clone();
            }
            assert!(
                tokio::time::Instant::now() < end,
                "no {what} within {within:?}: {:#?}",
                self.items()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// Waits (up to `within`) until `f` is true, polling every 20 ms.
pub async fn eventually<F, Fut>(within: Duration, what: &str, mut f: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let end = tokio::time::Instant::now() + within;
    while !f().await {
        assert!(
            tokio::time::Instant::now() < end,
            "not within {within:?}: {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub const WAIT: Duration = Duration::from_secs(10);

pub fn options(agent: &Agent) -> Options {
    Options::new(
        agent.base.clone(),
        agent.session.clone(),
        agent.token.clone(),
    )
}

/// A tool whose handler says it started, then waits for its cancellation and records it.
pub fn waiting_tool(name: &str, started: Log<String>, cancelled: Log<String>) -> Tool {
    Tool::new(
        name,
        "Waits until cancelled.",
        move |_args, ctx: CallContext| {
            let (started, cancelled) = (started.clone(), cancelled.clone());
            async move {
                started.push(ctx.call_id().to_owned());
                ctx.cancellation().cancelled().await;
                cancelled.push(ctx.call_id().to_owned());
                "too late"
            }
        },
    )
}

pub fn failed(log: &Log<CallEvent>, call: &str) -> Option<String> {
    log.items().iter().find_map(|e| match e {
        CallEvent::Failed {
            call_id, reason, ..
        } if call_id == call => Some(reason.clone()),
        _ => None,
    })
}
