//! The engine against the real reference server (`devserver`) over loopback, through a small
//! native shell used only by this test: registration, calls good and bad, a local timeout,
//! injected faults (failed acks, dropped and repeated stream events), pings outliving the
//! TTL, tool replacement and leaving.
//!
//! Native only: it starts the devserver in-process, and does its own socket I/O.
#![cfg(not(target_arch = "wasm32"))]

mod http;
mod shell;

use client_tools_core::engine::{CallEvent, ClientState, Config, Engine, Output, Status, ToolDef};
use client_tools_core::protocol::{Lifetime, ToolSpec};
use http::request;
use serde_json::{json, Map, Value};
use shell::{now_ms, Shell};
use std::net::SocketAddr;
use std::time::Duration;

fn tool(name: &str, parameters: Option<Value>, timeout_ms: Option<u64>) -> ToolDef {
    ToolDef {
        spec: ToolSpec {
            name: name.into(),
            description: format!("The {name} tool."),
            parameters,
        },
        timeout_ms,
        max_calls_per_run: None,
        assert_formats: false,
    }
}

fn page(tool: &str, args: &Map<String, Value>) -> (u64, Option<Result<String, String>>) {
    match tool {
        "highlight_row" => (
            20,
            Some(Ok(format!(
                "Row {} is highlighted.",
                args["row_id"].as_str().unwrap()
            ))),
        ),
        "slow" => (0, None),
        _ => (0, Some(Err("no such tool on this page".into()))),
    }
}

/// The agent's side, over the devserver's extension routes.
struct Agent {
    host: String,
    session: String,
    token: String,
    run: String,
}

impl Agent {
    fn send(&self, method: &str, rest: &str, body: Option<Value>) -> Value {
        let auth = format!("Bearer {}", self.token);
        let body = body.map(|b| b.to_string());
        let a = request(
            &self.host,
            method,
            &format!("/v1/sessions/{}{rest}", self.session),
            &[
                ("Authorization", &auth),
                ("Content-Type", "application/json"),
            ],
            body.as_deref(),
        )
        .expect("devserver answers");
        assert!(a.status < 300, "{method} {rest}: {} {}", a.status, a.body);
        if a.body.is_empty() {
            Value::Null
        } else {
            a.json()
        }
    }

    /// The model calls `client__<client>__<tool>`; returns the call id.
    fn call(&self, client: &str, tool: &str, arguments: Value) -> String {
        let v = self.send(
            "POST",
            &format!("/runs/{}/calls", self.run),
            Some(json!({"tool": format!("client__{client}__{tool}"), "arguments": arguments})),
        );
        v["call_id"].as_str().unwrap().to_owned()
    }

    /// Waits (up to 10 s) for the call to settle and returns the server's record of it.
    fn settled(&self, call_id: &str) -> Value {
        let v = self.send(
            "GET",
            &format!("/runs/{}/calls/{call_id}?wait=10", self.run),
            None,
        );
        assert_ne!(v["state"], "pending", "{call_id} did not settle: {v}");
        v
    }
}

fn answered(shell: &Shell, call_id: &str) -> bool {
    shell
        .log
        .iter()
        .any(|o| matches!(o, Output::Call(CallEvent::Answered { call_id: c, .. }) if c == call_id))
}

#[test]
fn engine_against_devserver_over_loopback() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let server = rt
        .block_on(devserver::start(devserver::Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            heartbeat_ms: 1_000,
            ..devserver::Config::default()
        }))
        .expect("devserver starts");
    let host = server.addr.to_string();
    let created = request(&host, "POST", "/v1/sessions", &[], None)
        .unwrap()
        .json();
    let (session, token) = (
        created["id"].as_str().unwrap().to_owned(),
        created["token"].as_str().unwrap().to_owned(),
    );

    let mut cfg = Config::new(
        format!("http://{host}"),
        session.clone(),
        token.clone(),
        "web",
        "it-1",
        now_ms().as_ms(),
    );
    cfg.lifetime = Lifetime::Ttl { seconds: 5 };
    cfg.tools = vec![
        tool(
            "highlight_row",
            Some(
                json!({"type": "object", "properties": {"row_id": {"type": "string"}}, "required": ["row_id"]}),
            ),
            None,
        ),
        tool("slow", None, Some(300)),
    ];
    let engine = Engine::new(cfg, now_ms()).unwrap();
    let mut shell = Shell::new(engine, page);
    shell.run_until(Duration::from_secs(5), |s| {
        s.engine.state() == ClientState::Registered
            && s.log
                .iter()
                .any(|o| matches!(o, Output::Status(Status::StreamOpen)))
    });
    assert_eq!(shell.engine.name(), Some("web"));
    let mut agent = Agent {
        host: host.clone(),
        session,
        token,
        run: String::new(),
    };
    let tools = agent.send("GET", "/tools", None);
    assert!(
        tools.to_string().contains("client__web__highlight_row"),
        "{tools}"
    );
    agent.run = agent.send("POST", "/runs", Some(json!({})))["id"]
        .as_str()
        .unwrap()
        .to_owned();

    // A good call, a call failing the schema, a call past its local deadline.
    let good = agent.call("web", "highlight_row", json!({"row_id": "42"}));
    let bad = agent.call("web", "highlight_row", json!({"row_id": 42}));
    let slow = agent.call("web", "slow", json!({}));
    shell.run_until(Duration::from_secs(5), |s| {
        [&good, &bad, &slow].iter().all(|c| answered(s, c))
    });
    let v = agent.settled(&good);
    assert_eq!(
        (v["text"].as_str(), v["is_error"].as_bool()),
        (Some("Row 42 is highlighted."), Some(false))
    );
    let v = agent.settled(&bad);
    assert_eq!(v["is_error"], true);
    assert!(
        v["text"]
            .as_str()
            .unwrap()
            .contains("arguments.row_id: integer 42, needs string (type)"),
        "{v}"
    );
    let v = agent.settled(&slow);
    assert_eq!(
        (v["text"].as_str(), v["is_error"].as_bool()),
        (Some("timed out after 300 ms"), Some(true))
    );

    // Faults: the next two acks fail with 503, every stream closes after 2 events, and each
    // event comes twice. The call is still answered, its handler run once.
    agent.send(
        "POST",
        "/faults",
        Some(json!({
            "fail_requests": {"path_contains": "/ack", "status": 503, "count": 2},
            "close_stream_after_events": 2,
            "repeat_events": true,
        })),
    );
    let flaky = agent.call("web", "highlight_row", json!({"row_id": "7"}));
    shell.run_until(Duration::from_secs(15), |s| answered(s, &flaky));
    assert_eq!(agent.settled(&flaky)["text"], "Row 7 is highlighted.");
    assert_eq!(
        shell
            .handlers_started
            .iter()
            .filter(|c| **c == flaky)
            .count(),
        1
    );
    agent.send("DELETE", "/faults", None);

    // Pings keep a 5 s TTL alive well past it.
    let id = shell.engine.id().unwrap().to_owned();
    shell.run_for(Duration::from_secs(7));
    assert_eq!(shell.engine.id(), Some(id.as_str()));
    let clients = agent.send("GET", "/clients", None);
    assert!(clients.to_string().contains(&id), "{clients}");

    // Tool replacement.
    let mut tools = shell.engine.tools().to_vec();
    tools.push(tool("checkout", None, None));
    let op = shell.engine.set_tools(tools, now_ms()).unwrap();
    shell.run_until(Duration::from_secs(5), |s| {
        s.log
            .iter()
            .any(|o| matches!(o, Output::OpDone { op: o, result: Ok(()) } if *o == op))
    });
    assert!(agent
        .send("GET", "/tools", None)
        .to_string()
        .contains("client__web__checkout"));

    // Leave.
    let op = shell.engine.leave(now_ms());
    shell.run_until(Duration::from_secs(5), |s| {
        s.log
            .iter()
            .any(|o| matches!(o, Output::OpDone { op: o, result: Ok(()) } if *o == op))
    });
    let clients = agent.send("GET", "/clients", None);
    assert_eq!(clients["clients"], json!([]));
    assert!(
        !shell
            .log
            .iter()
            .any(|o| matches!(o, Output::Status(Status::Error { .. }))),
        "{:#?}",
        shell.log
    );
    drop(server);
}
