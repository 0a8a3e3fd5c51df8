//! A Rust worker when things go wrong: the stream dropped by faults and resumed, leaving
//! with calls owed, calls failed by the server, the registration forgotten, the handle
//! dropped, a silent stream.

mod common;

use client_tools_native::{CallContext, CallEvent, Client, ErrorKind, Lifetime, Status, Tool};
use common::{devserver, eventually, failed, options, waiting_tool, Agent, Log, WAIT};
use serde_json::json;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_stream_resumes_with_nothing_lost_or_run_twice() {
    let server = devserver(|_| {}).await;
    let agent = Agent::new(server.addr).await;
    let runs: Arc<Mutex<HashMap<String, u32>>> = Arc::default();
    let statuses = Log::<Status>::new();
    let status_log = statuses.clone();
    let client = Client::register(
        options(&agent)
            .on_status(move |s| status_log.push(s.clone()))
            .tool(counting_tool(runs.clone())),
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
    let deadlines: Log<Duration> = Log::new();
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
                "Watches its deadline.",
                move |_a, ctx: CallContext| {
                    let d = d.clone();
                    async move {
                        // The tool's 30 s at first; the ack's answer moves it (5 s at most).
                        for _ in 0..100 {
                            if ctx.remaining() < Duration::from_secs(10) {
                                break;
                            }
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        d.push(ctx.remaining());
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
    // 1 s after the ack: the server's 3 s less the 2 s margin.
    let left = deadlines.items()[0];
    assert!(
        left < Duration::from_secs(2),
        "{left:?} left: the deadline did not move"
    );
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_stream_is_reconnected() {
    // No keep-alive for a minute: the worker takes 400 ms of silence as a dead connection.
    let server = devserver(|c| c.heartbeat_ms = 60_000).await;
    let agent = Agent::new(server.addr).await;
    let statuses = Log::<Status>::new();
    let log = statuses.clone();
    let client = Client::register(
        options(&agent)
            .stream_idle_timeout(Duration::from_millis(400))
            .on_status(move |s| log.push(s.clone()))
            .tool(Tool::new("hi", "Says hi.", |_a, _c| async { "hi" })),
    )
    .await
    .unwrap();
    statuses
        .wait_for(WAIT, "a reconnect", |s| {
            matches!(s, Status::StreamReconnecting { .. })
        })
        .await;
    let opened = |log: &Log<Status>| {
        log.items()
            .iter()
            .filter(|s| **s == Status::StreamOpen)
            .count()
    };
    let before = opened(&statuses);
    eventually(WAIT, "the stream opened again", || {
        let n = opened(&statuses);
        async move { n > before }
    })
    .await;
    let call = agent.call("worker", "hi", json!({})).await;
    assert_eq!(agent.settled(&call).await["text"], "hi");
    client.leave().await.unwrap();
}

#[test]
fn a_runtime_shuts_down_with_a_live_client_and_a_running_handler() {
    let server_rt = tokio::runtime::Runtime::new().unwrap();
    let (server, agent) = server_rt.block_on(async {
        let server = devserver(|_| {}).await;
        let agent = Agent::new(server.addr).await;
        (server, agent)
    });
    let (started, cancelled) = (Log::new(), Log::new());
    let worker_rt = tokio::runtime::Runtime::new().unwrap();
    let client = worker_rt
        .block_on(Client::register(options(&agent).tool(waiting_tool(
            "wait",
            started.clone(),
            cancelled.clone(),
        ))))
        .unwrap();
    let owed = server_rt.block_on(agent.call("worker", "wait", json!({})));
    server_rt.block_on(started.wait_for(WAIT, "handler start", |c| *c == owed));
    // Neither leave nor drop the client: drop its runtime. That must return (a thread waits
    // for it, so a hang fails the test instead of stalling it).
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        drop(worker_rt);
        let _ = done.send(());
    });
    finished.recv_timeout(WAIT).expect("the runtime shut down");
    drop(client);
    drop(server);
}

/// A tool that answers `call <n>` and counts how often each call id ran.
fn counting_tool(runs: Arc<Mutex<HashMap<String, u32>>>) -> Tool {
    Tool::new(
        "count",
        "Counts its runs.",
        move |args, ctx: CallContext| {
            let runs = runs.clone();
            async move {
                *runs
                    .lock()
                    .unwrap()
                    .entry(ctx.call_id().to_owned())
                    .or_default() += 1;
                format!("call {}", args["n"])
            }
        },
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_dispatched_while_disconnected_are_recovered() {
    // The server keeps one event for replay: a reconnect after a gap gets `stream_reset`, and
    // the worker must read its pending calls to find what it missed.
    let server = devserver(|c| c.replay_events = 1).await;
    let agent = Agent::new(server.addr).await;
    let (statuses, runs) = (
        Log::<Status>::new(),
        Arc::<Mutex<HashMap<String, u32>>>::default(),
    );
    let log = statuses.clone();
    let client = Client::register(
        options(&agent)
            .on_status(move |s| log.push(s.clone()))
            .tool(counting_tool(runs.clone())),
    )
    .await
    .unwrap();
    statuses
        .wait_for(WAIT, "stream open", |s| *s == Status::StreamOpen)
        .await;
    // Streams end after one event, and the next two reconnects are refused.
    agent
        .send(
            "POST",
            "/faults",
            Some(json!({"close_stream_after_events": 1,
                "fail_requests": {"path_contains": "/stream", "status": 503, "count": 2}})),
        )
        .await;
    let mut calls = Vec::new();
    for n in 0..4 {
        calls.push(agent.call("worker", "count", json!({"n": n})).await);
    }
    for (n, call) in calls.iter().enumerate() {
        let v = agent.settled(call).await;
        assert_eq!(v["text"], format!("call {n}"), "{v}");
    }
    let runs = runs.lock().unwrap().clone();
    assert!(
        runs.len() == 4 && runs.values().all(|n| *n == 1),
        "{runs:?}"
    );
    agent.send("DELETE", "/faults", None).await;
    client.leave().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_past_its_timeout_is_retried_with_its_key() {
    let server = devserver(|_| {}).await;
    let agent = Agent::new(server.addr).await;
    let (calls, runs) = (
        Log::<CallEvent>::new(),
        Arc::<Mutex<HashMap<String, u32>>>::default(),
    );
    let (log, statuses) = (calls.clone(), Log::<Status>::new());
    let status_log = statuses.clone();
    let client = Client::register(
        options(&agent)
            .request_timeout(Duration::from_millis(300))
            .on_status(move |s| status_log.push(s.clone()))
            .on_call(move |e| log.push(e.clone()))
            .tool(counting_tool(runs.clone())),
    )
    .await
    .unwrap();
    // The stream opens before the delay starts: a stream request held back 1 s would time out
    // too, again and again, and the call would never reach the worker (seen under load).
    statuses
        .wait_for(WAIT, "stream open", |s| *s == Status::StreamOpen)
        .await;
    // Every answer is held back 1 s: the ack times out on the worker's side, again and
    // again, until the delay goes; the retry with the same key then gets the ack's answer.
    agent
        .send("POST", "/faults", Some(json!({"delay_ms": 1000})))
        .await;
    let call = agent.call("worker", "count", json!({"n": 1})).await;
    calls
        .wait_for(WAIT, "dispatched", |e| {
            matches!(e, CallEvent::Dispatched { .. })
        })
        .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(
        !calls
            .items()
            .iter()
            .any(|e| matches!(e, CallEvent::Acked { .. })),
        "acked through a 1 s delay with a 300 ms timeout: {:#?}",
        calls.items()
    );
    agent.send("DELETE", "/faults", None).await;
    let v = agent.settled(&call).await;
    assert_eq!(
        (v["text"].as_str(), v["is_error"].as_bool()),
        (Some("call 1"), Some(false))
    );
    assert_eq!(runs.lock().unwrap().get(&call), Some(&1));
    client.leave().await.unwrap();
}
