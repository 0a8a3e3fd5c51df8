//! A Rust worker against the reference server over loopback, as an app would run it: calls
//! answered (results, errors, a panic), bad options and refused or slow registrations, the
//! stream dropped by faults and resumed, leaving, dropping, cancellation, re-registration.

mod common;

use client_tools_native::{
    CallContext, CallEvent, Client, ClientState, ErrorKind, Lifetime, Options, Status, Tool,
    PANICKED_TEXT,
};
use common::{devserver, eventually, Agent, Log};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

const WAIT: Duration = Duration::from_secs(10);

fn options(agent: &Agent) -> Options {
    Options::new(
        agent.base.clone(),
        agent.session.clone(),
        agent.token.clone(),
    )
}

/// A tool whose handler says it started, then waits for its cancellation and records it.
fn waiting_tool(name: &str, started: Log<String>, cancelled: Log<String>) -> Tool {
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

fn failed(log: &Log<CallEvent>, call: &str) -> Option<String> {
    log.items().iter().find_map(|e| match e {
        CallEvent::Failed {
            call_id, reason, ..
        } if call_id == call => Some(reason.clone()),
        _ => None,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_are_answered_by_async_handlers() {
    let server = devserver(|_| {}).await;
    let agent = Agent::new(server.addr).await;
    let seen: Log<(String, String, String, SystemTime)> = Log::new();
    let seen2 = seen.clone();
    let client = Client::register(
        options(&agent)
            .tool(
                Tool::new("echo", "Says the text back.", move |args, ctx| {
                    let seen = seen2.clone();
                    async move {
                        let c = &ctx;
                        seen.push((
                            c.call_id().into(),
                            c.run_id().into(),
                            c.tool().into(),
                            c.deadline(),
                        ));
                        format!("you said {}", args["text"].as_str().unwrap_or_default())
                    }
                })
                .parameters(json!({"type": "object", "required": ["text"],
                    "properties": {"text": {"type": "string"}}})),
            )
            .tool(Tool::new(
                "divide",
                "a / b.",
                |args: Map<String, Value>, _ctx| async move {
                    let (a, b) = (
                        args["a"].as_i64().unwrap_or(0),
                        args["b"].as_i64().unwrap_or(0),
                    );
                    if b == 0 {
                        Err("division by zero")
                    } else {
                        Ok(json!({"quotient": a / b}))
                    }
                },
            ))
            .tool(Tool::new("done", "Returns nothing.", |_args, _ctx| async {}))
            .tool(Tool::new("boom", "Panics.", |_args, _ctx| async move {
                if true {
                    panic!("internal detail the model must not read");
                }
                "never"
            })),
    )
    .await
    .expect("registers");
    assert_eq!(client.name().as_deref(), Some("worker"));
    assert_eq!(client.state(), ClientState::Registered);
    let id = client.id().unwrap();
    assert_eq!(agent.client_ids().await, vec![id]);
    let tools = agent.send("GET", "/tools", None).await.to_string();
    for t in ["echo", "divide", "done", "boom"] {
        assert!(tools.contains(&format!("client__worker__{t}")), "{tools}");
    }

    let cases = [
        ("echo", json!({"text": "hi"}), "you said hi", false),
        (
            "echo",
            json!({"text": 5}),
            "Invalid arguments for \"echo\": arguments.text: integer 5, needs string (type)",
            true,
        ),
        (
            "divide",
            json!({"a": 7, "b": 2}),
            r#"{"quotient":3}"#,
            false,
        ),
        ("divide", json!({"a": 7, "b": 0}), "division by zero", true),
        ("done", json!({}), "Done.", false),
        ("boom", json!({}), PANICKED_TEXT, true),
    ];
    let mut ids = Vec::new();
    for (tool, args, _, _) in &cases {
        ids.push(agent.call("worker", tool, args.clone()).await);
    }
    for (id, (tool, _, text, is_error)) in ids.iter().zip(&cases) {
        let v = agent.settled(id).await;
        assert_eq!(v["state"], "succeeded", "{tool}: {v}");
        assert_eq!(
            (v["text"].as_str(), v["is_error"].as_bool()),
            (Some(*text), Some(*is_error)),
            "{tool}"
        );
    }
    // The handler saw this call's ids and a deadline about 30 s out.
    let (call_id, run_id, tool, deadline) = seen.items()[0].clone();
    assert_eq!(
        (call_id.as_str(), run_id.as_str(), tool.as_str()),
        (ids[0].as_str(), agent.run.as_str(), "echo")
    );
    let left = deadline.duration_since(SystemTime::now()).unwrap();
    assert!(
        left > Duration::from_secs(20) && left <= Duration::from_secs(30),
        "{left:?}"
    );

    client.leave().await.expect("leaves");
    assert_eq!(client.state(), ClientState::Left);
    assert_eq!(agent.client_ids().await, Vec::<String>::new());
    client.leave().await.expect("leaving twice is fine");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_options_name_the_field() {
    let opts = || Options::new("http://127.0.0.1:9", "s", "t");
    let noop = || Tool::new("t", "A tool.", |_args, _ctx| async {});
    let cases = [
        (opts().name("Bad Name"), "name"),
        (Options::new("ftp://x", "s", "t"), "base_url"),
        (Options::new("http://x", "", "t"), "session_id"),
        (Options::new("http://x", "s", " "), "token"),
        (opts().lifetime(Lifetime::Ttl { seconds: 1 }), "lifetime"),
        (
            opts().tool(noop().timeout(Duration::ZERO)),
            "tools[0].timeout",
        ),
        (
            opts().tool(noop().max_calls_per_run(0)),
            "tools[0].max_calls_per_run",
        ),
        (
            opts().tool(noop().parameters(json!("not a schema"))),
            "tools[0].parameters",
        ),
        (opts().tool(noop()).tool(noop()), "tools[1].name"),
        (opts().register_timeout(Duration::ZERO), "register_timeout"),
    ];
    for (o, field) in cases {
        let e = Client::register(o).await.expect_err(field);
        assert_eq!(
            (e.kind(), e.field()),
            (ErrorKind::InvalidOption, Some(field)),
            "{e}"
        );
        assert!(e.to_string().starts_with(&format!("{field}: ")), "{e}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_and_timed_out_registrations_say_why() {
    let server = devserver(|_| {}).await;
    let agent = Agent::new(server.addr).await;

    let e = Client::register(Options::new(
        agent.base.clone(),
        agent.session.clone(),
        "wrong",
    ))
    .await
    .expect_err("a wrong token");
    assert_eq!(e.kind(), ErrorKind::Unauthorized, "{e}");
    assert!(e.message().contains("401"), "{e}");

    // Every register answers 503: retried until the register timeout, which names it.
    agent
        .send(
            "POST",
            "/faults",
            Some(json!({"fail_requests":
            {"path_contains": "/clients", "status": 503, "count": 1000}})),
        )
        .await;
    let e = Client::register(options(&agent).register_timeout(Duration::from_millis(1500)))
        .await
        .expect_err("no registration");
    assert_eq!(e.kind(), ErrorKind::RegisterTimeout, "{e}");
    assert!(
        e.message().starts_with("not registered within 1500 ms"),
        "{e}"
    );
    assert!(e.message().contains("/clients answered 503"), "{e}");
    // Nothing goes on registering in the background once the faults are gone.
    agent.send("DELETE", "/faults", None).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(agent.client_ids().await, Vec::<String>::new());

    // No server at all: the network error is what failed last.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let e = Client::register(Options::new(base, "s", "t").register_timeout(Duration::from_secs(1)))
        .await
        .expect_err("nothing listens");
    assert_eq!(e.kind(), ErrorKind::RegisterTimeout, "{e}");
    assert!(e.message().contains("failed:"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_stream_resumes_with_nothing_lost_or_run_twice() {
    let server = devserver(|_| {}).await;
    let agent = Agent::new(server.addr).await;
    let runs: Arc<Mutex<HashMap<String, u32>>> = Arc::default();
    let (statuses, runs2) = (Log::<Status>::new(), runs.clone());
    let status_log = statuses.clone();
    let client = Client::register(
        options(&agent)
            .on_status(move |s| status_log.push(s.clone()))
            .tool(Tool::new(
                "count",
                "Counts its runs.",
                move |args, ctx: CallContext| {
                    let runs = runs2.clone();
                    async move {
                        *runs
                            .lock()
                            .unwrap()
                            .entry(ctx.call_id().to_owned())
                            .or_default() += 1;
                        format!("call {}", args["n"])
                    }
                },
            )),
    )
    .await
    .unwrap();
    statuses
        .wait_for(WAIT, "stream open", |s| *s == Status::StreamOpen)
        .await;

    // Every stream ends after 2 events and sends each twice; the first acks fail with 503.
    agent
        .send(
            "POST",
            "/faults",
            Some(json!({
                "close_stream_after_events": 2,
                "repeat_events": true,
                "fail_requests": {"path_contains": "/ack", "status": 503, "count": 2},
            })),
        )
        .await;
    let mut calls = Vec::new();
    for n in 0..6 {
        calls.push(agent.call("worker", "count", json!({"n": n})).await);
    }
    for (n, call) in calls.iter().enumerate() {
        let v = agent.settled(call).await;
        assert_eq!(
            (v["state"].as_str(), v["text"].as_str()),
            (Some("succeeded"), Some(format!("call {n}").as_str())),
            "{v}"
        );
    }
    let runs = runs.lock().unwrap().clone();
    assert_eq!(runs.len(), 6, "{runs:?}");
    assert!(
        runs.values().all(|n| *n == 1),
        "a handler ran twice: {runs:?}"
    );
    let reconnects = statuses
        .items()
        .iter()
        .filter(|s| matches!(s, Status::StreamReconnecting { .. }))
        .count();
    assert!(reconnects >= 2, "{:#?}", statuses.items());
    agent.send("DELETE", "/faults", None).await;
    client.leave().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_fails_owed_calls_client_gone_and_cancels_handlers() {
    let server = devserver(|_| {}).await;
    let agent = Agent::new(server.addr).await;
    let (started, cancelled, calls) = (Log::new(), Log::new(), Log::<CallEvent>::new());
    let call_log = calls.clone();
    let client = Client::register(
        options(&agent)
            .on_call(move |e| call_log.push(e.clone()))
            .tool(waiting_tool("wait", started.clone(), cancelled.clone())),
    )
    .await
    .unwrap();
    let owed = agent.call("worker", "wait", json!({})).await;
    started
        .wait_for(WAIT, "handler start", |c| *c == owed)
        .await;

    client.leave().await.unwrap();
    let v = agent.settled(&owed).await;
    assert_eq!(
        (v["state"].as_str(), v["reason"].as_str()),
        (Some("failed"), Some("client_gone")),
        "{v}"
    );
    cancelled
        .wait_for(WAIT, "handler cancelled", |c| *c == owed)
        .await;
    assert_eq!(failed(&calls, &owed).as_deref(), Some("client left"));
    assert!(agent.client_ids().await.is_empty());
    client.stopped().await;
    let e = client.set_tools(vec![]).await.expect_err("left");
    assert_eq!(e.kind(), ErrorKind::NotRegistered);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancellation_reaches_a_handler_whose_call_failed() {
    // The server fails an acked call 3 s after its ack unless answered.
    let server = devserver(|c| c.result_timeout_ms = 3_000).await;
    let agent = Agent::new(server.addr).await;
    let (started, cancelled, calls) = (Log::new(), Log::new(), Log::<CallEvent>::new());
    let deadlines: Log<SystemTime> = Log::new();
    let (call_log, d) = (calls.clone(), deadlines.clone());
    let client = Client::register(
        options(&agent)
            .on_call(move |e| call_log.push(e.clone()))
            .tool(waiting_tool("wait", started.clone(), cancelled.clone()))
            .tool(
                waiting_tool("short", started.clone(), cancelled.clone())
                    .timeout(Duration::from_millis(300)),
            )
            .tool(Tool::new(
                "watch",
                "Reads its deadline twice.",
                move |_a, ctx: CallContext| {
                    let d = d.clone();
                    async move {
                        d.push(ctx.deadline());
                        tokio::time::sleep(Duration::from_millis(300)).await;
                        d.push(ctx.deadline());
                        ctx.cancellation().cancelled().await;
                    }
                },
            )),
    )
    .await
    .unwrap();

    // The agent's run is cancelled: the server fails the call `run_gone`.
    let call = agent.call("worker", "wait", json!({})).await;
    started
        .wait_for(WAIT, "handler start", |c| *c == call)
        .await;
    agent
        .send("DELETE", &format!("/runs/{}", agent.run), None)
        .await;
    cancelled
        .wait_for(WAIT, "cancelled on run_gone", |c| *c == call)
        .await;
    let v = agent.settled(&call).await;
    assert_eq!(v["reason"], "run_gone", "{v}");
    assert_eq!(failed(&calls, &call).as_deref(), Some("run_gone"));

    // The local deadline passes: "timed out" is the answer, and the handler is cancelled.
    let mut agent = agent;
    agent.run = agent.send("POST", "/runs", Some(json!({}))).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let call = agent.call("worker", "short", json!({})).await;
    let v = agent.settled(&call).await;
    assert_eq!(
        (v["text"].as_str(), v["is_error"].as_bool()),
        (Some("timed out after 300 ms"), Some(true))
    );
    cancelled
        .wait_for(WAIT, "cancelled at the deadline", |c| *c == call)
        .await;

    // The ack tells the server's result deadline: the handler's deadline moves earlier (to
    // 2 s before it), and the "timed out" answer beats the server's `result_timeout`.
    let call = agent.call("worker", "watch", json!({})).await;
    let v = agent.settled(&call).await;
    assert_eq!(
        (v["state"].as_str(), v["is_error"].as_bool()),
        (Some("succeeded"), Some(true)),
        "{v}"
    );
    let d = deadlines.items();
    let moved = d[0]
        .duration_since(d[1])
        .expect("the deadline moved earlier");
    assert!(moved > Duration::from_secs(20), "{moved:?}");
    client.leave().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forgotten_client_registers_again_and_serves() {
    let server = devserver(|_| {}).await;
    let agent = Agent::new(server.addr).await;
    let statuses = Log::<Status>::new();
    let log = statuses.clone();
    let client = Client::register(
        options(&agent)
            .lifetime(Lifetime::Ttl { seconds: 5 })
            .on_status(move |s| log.push(s.clone()))
            .tool(Tool::new("hi", "Says hi.", |_a, _c| async { "hi" })),
    )
    .await
    .unwrap();
    let old = client.id().unwrap();
    // Someone deletes the client on the server: the next ping answers 404.
    agent.send("DELETE", &format!("/clients/{old}"), None).await;
    statuses
        .wait_for(WAIT, "lapsed", |s| *s == Status::Lapsed)
        .await;
    statuses
        .wait_for(WAIT, "registered again", |s| {
            matches!(s, Status::Reregistered { .. })
        })
        .await;
    let new = client.id().unwrap();
    assert_ne!(new, old);
    // Pings keep the 5 s TTL alive, and the new registration serves calls.
    tokio::time::sleep(Duration::from_secs(6)).await;
    assert_eq!(agent.client_ids().await, vec![new.clone()]);
    let call = agent.call("worker", "hi", json!({})).await;
    assert_eq!(agent.settled(&call).await["text"], "hi");
    client.leave().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_client_leaves_in_the_background() {
    let server = devserver(|_| {}).await;
    let agent = Agent::new(server.addr).await;
    let (started, cancelled) = (Log::new(), Log::new());
    let client = Client::register(options(&agent).tool(waiting_tool(
        "wait",
        started.clone(),
        cancelled.clone(),
    )))
    .await
    .unwrap();
    let owed = agent.call("worker", "wait", json!({})).await;
    started
        .wait_for(WAIT, "handler start", |c| *c == owed)
        .await;
    drop(client);
    cancelled
        .wait_for(WAIT, "handler cancelled", |c| *c == owed)
        .await;
    eventually(WAIT, "the client is gone from the server", || async {
        agent.client_ids().await.is_empty()
    })
    .await;
    assert_eq!(agent.settled(&owed).await["reason"], "client_gone");
}
