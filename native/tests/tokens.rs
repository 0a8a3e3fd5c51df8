//! A worker whose session outlives its token (issue 29): `Options::token_source` against the
//! devserver rotating the session's token (`POST …/token`, the old one refused with 401 from
//! then on). The worker answers a call after each of three rotations, with one registration
//! and one ask per rotation; a source that fails stops it (`unauthorized`).

mod common;

use client_tools_native::{Client, ClientState, Lifetime, Options, Status, Tool};
use common::{devserver, options, Agent, Log};
use serde_json::json;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The app's backend: hands out the session's current token, or an error once it fails.
#[derive(Clone)]
struct Backend {
    current: Arc<Mutex<Result<String, String>>>,
    asked: Arc<AtomicUsize>,
    /// While set, the token function waits before it answers: a test that rotates the token
    /// at the server and then sets what the function gives holds it across the two, so that a
    /// request refused in between cannot fetch the old value.
    held: Arc<AtomicBool>,
}

impl Backend {
    fn giving(token: Result<String, String>) -> Backend {
        Backend {
            current: Arc::new(Mutex::new(token)),
            asked: Arc::default(),
            held: Arc::default(),
        }
    }

    fn source(
        &self,
    ) -> impl Fn()
        -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<String, String>> + Send>>
           + Send
           + Sync {
        let b = self.clone();
        move || {
            b.asked.fetch_add(1, Ordering::SeqCst);
            let b = b.clone();
            Box::pin(async move {
                while b.held.load(Ordering::SeqCst) {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                b.current.lock().unwrap().clone()
            })
        }
    }

    fn asked(&self) -> usize {
        self.asked.load(Ordering::SeqCst)
    }
}

/// Rotates the session's token; the agent goes on with the fresh one.
async fn rotate(agent: &mut Agent) -> String {
    let fresh = agent.send("POST", "/token", Some(json!({}))).await["token"]
        .as_str()
        .unwrap()
        .to_owned();
    agent.token = fresh.clone();
    fresh
}

async fn until(what: &str, f: impl Fn() -> bool) {
    for _ in 0..200 {
        if f() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("not within 10 s: {what}");
}

fn echo() -> Tool {
    Tool::new("echo", "Echo.", |args, _ctx| async move {
        format!("echo {}", args["text"].as_str().unwrap_or_default())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_answers_calls_across_three_rotations() {
    let server = devserver(|_| {}).await;
    let mut agent = Agent::new(server.addr).await;
    let backend = Backend::giving(Ok(agent.token.clone()));
    let statuses: Log<Status> = Log::new();
    let told = statuses.clone();
    let client = Client::register(
        options(&agent)
            .name("rot")
            .lifetime(Lifetime::Ttl { seconds: 5 })
            .tool(echo())
            .on_status(move |s| told.push(s.clone()))
            .token_source(backend.source()),
    )
    .await
    .expect("registers");
    let id = client.id();
    for round in 1..=3 {
        // Held across the rotation, as an app's backend that rotates the token hands out the
        // fresh one from then on: the worker's next request (round 1: its first read of the
        // pending calls, right after registering; then a ping, every ~1.7 s) is refused, and
        // its source is asked and waits for the fresh token, every round. Unheld, a request
        // refused before the test sets the fresh token would get the revoked one back, which
        // the server refuses again: a fresh token refused before it was taken once stops the
        // worker (docs/sessions.md, "Tokens that expire"), and its registration lapses.
        backend.held.store(true, Ordering::SeqCst);
        let fresh = rotate(&mut agent).await;
        until("the source asked again", || backend.asked() >= round).await;
        *backend.current.lock().unwrap() = Ok(fresh);
        backend.held.store(false, Ordering::SeqCst);
        let call = agent
            .call("rot", "echo", json!({"text": format!("r{round}")}))
            .await;
        let settled = agent.settled(&call).await;
        assert_eq!(
            settled["text"],
            format!("echo r{round}"),
            "{settled}; the worker was told {:?}",
            statuses.items()
        );
        assert_eq!(settled["is_error"], false, "{settled}");
        assert_eq!(backend.asked(), round, "one ask per rotation");
        assert_eq!(client.state(), ClientState::Registered);
    }
    assert_eq!(client.id(), id, "the same registration all along");
    assert_eq!(agent.client_ids().await, vec![id.unwrap()]);
    let fatal = statuses
        .items()
        .into_iter()
        .filter(|s| matches!(s, Status::Error { fatal: true, .. }))
        .count();
    assert_eq!(fatal, 0);
    client.leave().await.expect("leaves");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_source_stops_the_worker_saying_why() {
    let server = devserver(|_| {}).await;
    let mut agent = Agent::new(server.addr).await;
    let backend = Backend::giving(Err("the backend answered 503".into()));
    let statuses: Log<Status> = Log::new();
    let told = statuses.clone();
    let client = Client::register(
        options(&agent)
            .name("fails")
            .lifetime(Lifetime::Ttl { seconds: 5 })
            .tool(echo())
            .on_status(move |s| told.push(s.clone()))
            .token_source(backend.source()),
    )
    .await
    .expect("registers with the first token");
    rotate(&mut agent).await;
    let stopped = statuses
        .wait_for(Duration::from_secs(10), "a fatal error", |s| {
            matches!(s, Status::Error { fatal: true, .. })
        })
        .await;
    let Status::Error { message, .. } = stopped else {
        unreachable!()
    };
    assert!(
        message.contains("token function failed") && message.contains("503"),
        "{message}"
    );
    assert_eq!(backend.asked(), 1);
    until("the worker stopped", || {
        client.state() == ClientState::Failed
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_token_is_trimmed_and_a_fresh_one_a_header_cannot_carry_stops_the_worker() {
    let server = devserver(|_| {}).await;
    let mut agent = Agent::new(server.addr).await;
    // As `r.text()` often gives it: the trailing newline is trimmed, as fetch trims it.
    let first = format!("{}\n", agent.token);
    let backend = Backend::giving(Ok(first.clone()));
    let statuses: Log<Status> = Log::new();
    let told = statuses.clone();
    let client = Client::register(
        Options::new(agent.base.clone(), agent.session.clone(), first)
            .name("bad")
            .lifetime(Lifetime::Ttl { seconds: 5 })
            .tool(echo())
            .on_status(move |s| told.push(s.clone()))
            .token_source(backend.source()),
    )
    .await
    .expect("registers with the trimmed first token");
    // Held across the rotation: a request refused in between waits for the malformed token
    // instead of fetching the first one again (which the server then refuses as well).
    backend.held.store(true, Ordering::SeqCst);
    let fresh = rotate(&mut agent).await;
    *backend.current.lock().unwrap() = Ok(format!("{fresh}\nx"));
    backend.held.store(false, Ordering::SeqCst);
    let stopped = statuses
        .wait_for(Duration::from_secs(10), "a fatal error", |s| {
            matches!(s, Status::Error { fatal: true, .. })
        })
        .await;
    let told = serde_json::to_value(&stopped).unwrap();
    assert_eq!(told["kind"], "unauthorized", "{told}");
    assert!(
        told["message"].as_str().unwrap().contains("a line break"),
        "{told}"
    );
    for s in statuses.items() {
        let text = format!("{s:?}");
        assert!(!text.contains(&fresh), "the token in a status: {text}");
    }
    until("the worker stopped", || {
        client.state() == ClientState::Failed
    })
    .await;
}
