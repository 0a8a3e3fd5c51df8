//! A whole conversation: the engine against an in-process model of the server, both stepped
//! in virtual time. Registration, calls (good, bad, slow), faults, stream drops with resume
//! and with reset, tool replacement before a navigating answer, a lapse, and leaving.

mod engine_support;

use client_tools_core::engine::{ClientState, Engine, Output, Status};
use engine_support::fake_server::{CallState, FakeClient, FakeServer};
use engine_support::pair::{Page, Pair};
use engine_support::*;
use serde_json::json;

fn page() -> Page {
    Box::new(|tool, args| match tool {
        "highlight_row" => (
            50,
            Some(Ok(format!(
                "Row {} is highlighted.",
                args["row_id"].as_str().unwrap()
            ))),
        ),
        "navigate" => (10, Some(Ok("Now on the checkout screen.".into()))),
        "slow" => (u64::MAX / 4, None),
        _ => (5, Some(Err(format!("{tool} failed")))),
    })
}

fn succeeded(pair: &Pair, call_id: &str) -> (String, bool) {
    match pair.settled(call_id) {
        Some(CallState::Succeeded { text, is_error }) => (text.clone(), *is_error),
        other => panic!("{call_id}: {other:?}"),
    }
}

#[test]
fn conversation_with_in_process_server() {
    let mut server = FakeServer::new();
    // Another tab already holds the name "web".
    server.clients.insert(
        "cli_other".into(),
        FakeClient {
            name: "web".into(),
            tools: vec![],
            ttl_ms: None,
            expires: None,
        },
    );
    let mut cfg = config();
    cfg.tools.push(tool("slow", None));
    cfg.tools[2].timeout_ms = Some(1_000);
    cfg.tools.push(tool("navigate", None));
    let engine = Engine::new(cfg, at(T0)).unwrap();
    let mut p = Pair::new(engine, server, page());

    // Registered under the name the server gave.
    p.run_until(T0 + 1_000);
    assert_eq!(p.engine.state(), ClientState::Registered);
    assert_eq!(p.engine.name(), Some("web-2"));
    let name = "web-2";

    // A good call, a call with bad arguments, an unknown tool, a slow one.
    let good = p
        .server
        .call_tool(name, "highlight_row", json!({"row_id": "42"}), p.now);
    let bad = p
        .server
        .call_tool(name, "highlight_row", json!({"row": 42}), p.now);
    let unknown = p.server.call_tool(name, "drop_table", json!({}), p.now);
    let slow = p.server.call_tool(name, "slow", json!({}), p.now);
    p.run_until(p.now + 2_000);
    assert_eq!(
        succeeded(&p, &good),
        ("Row 42 is highlighted.".into(), false)
    );
    let (text, is_error) = succeeded(&p, &bad);
    assert!(
        is_error && text.contains("\"row_id\" is required"),
        "{text}"
    );
    let (text, is_error) = succeeded(&p, &unknown);
    assert!(
        is_error && text.contains("highlight_row, noop, slow, navigate"),
        "{text}"
    );
    assert_eq!(
        succeeded(&p, &slow),
        ("timed out after 1000 ms".into(), true)
    );
    assert!(!p.handlers_started.contains(&bad) && !p.handlers_started.contains(&unknown));

    // Faults: the next two requests (the ack and its first retry) fail with 503.
    p.server.faults.extend([503, 503]);
    let flaky = p
        .server
        .call_tool(name, "highlight_row", json!({"row_id": "7"}), p.now);
    p.run_until(p.now + 10_000);
    assert_eq!(
        succeeded(&p, &flaky),
        ("Row 7 is highlighted.".into(), false)
    );
    let acks = p
        .server
        .log
        .iter()
        .filter(|l| l.ends_with(&format!("{flaky}/ack")))
        .count();
    assert_eq!(acks, 3, "two failures, then the ack: {:?}", p.server.log);

    // The stream drops; a call made meanwhile is replayed after Last-Event-ID.
    p.drop_stream();
    let during_drop = p
        .server
        .call_tool(name, "highlight_row", json!({"row_id": "8"}), p.now);
    p.run_until(p.now + 35_000);
    assert_eq!(succeeded(&p, &during_drop).0, "Row 8 is highlighted.");
    let resumed = p.outputs.iter().rev().find_map(|(_, o)| match o {
        Output::OpenStream { headers, .. } => Some(headers.clone()),
        _ => None,
    });
    assert!(resumed.unwrap().iter().any(|(n, _)| *n == "Last-Event-ID"));

    // The stream drops and the server forgot the events: stream_reset, pending calls read.
    p.drop_stream();
    let forgotten = p
        .server
        .call_tool(name, "highlight_row", json!({"row_id": "9"}), p.now);
    p.server.forgotten_before = p.server.events.len() as u64 + 1;
    p.run_until(p.now + 35_000);
    assert_eq!(succeeded(&p, &forgotten).0, "Row 9 is highlighted.");
    assert!(p
        .server
        .events
        .iter()
        .any(|e| e.contains("event: stream_reset")));

    // Ten quiet minutes: pings keep the registration alive.
    let id = p.engine.id().unwrap().to_owned();
    p.run_until(p.now + 600_000);
    assert_eq!(p.engine.id(), Some(id.as_str()));
    assert!(p.server.clients.contains_key(&id));

    // A navigating call: the page declares the new screen's tools before answering.
    let nav = p.server.call_tool(name, "navigate", json!({}), p.now);
    p.run_until_cond(1_000, |p| p.handlers_started.contains(&nav));
    let mut tools = p.engine.tools().to_vec();
    tools.retain(|t| t.spec.name != "navigate");
    tools.push(tool("pay", None));
    p.engine.set_tools(tools, at(p.now)).unwrap();
    p.run_until(p.now + 1_000);
    assert_eq!(succeeded(&p, &nav).0, "Now on the checkout screen.");
    let put = p
        .server
        .log
        .iter()
        .position(|l| l.ends_with("/tools"))
        .unwrap();
    let answer = p
        .server
        .log
        .iter()
        .position(|l| l.ends_with(&format!("{nav}/result")))
        .unwrap();
    assert!(
        put < answer,
        "the PUT went before the answer: {:?}",
        p.server.log
    );
    assert!(p.server.clients[&id].tools.contains(&"pay".to_owned()));

    // The server loses the registration: the next ping finds out, the engine registers again.
    p.server.clients.remove(&id);
    p.run_until(p.now + 25_000);
    let statuses = p.statuses();
    assert!(statuses.contains(&&Status::Lapsed));
    assert!(statuses
        .iter()
        .any(|s| matches!(s, Status::Reregistered { .. })));
    let new_id = p.engine.id().unwrap().to_owned();
    assert_ne!(new_id, id);
    assert!(p.server.clients[&new_id].tools.contains(&"pay".to_owned()));
    let after = p.server.call_tool(
        p.engine.name().unwrap(),
        "highlight_row",
        json!({"row_id": "1"}),
        p.now,
    );
    p.run_until(p.now + 1_000);
    assert_eq!(succeeded(&p, &after).0, "Row 1 is highlighted.");

    // Leaving with a call still running: the server fails it, the handler is aborted.
    let owed = p
        .server
        .call_tool(p.engine.name().unwrap(), "slow", json!({}), p.now);
    p.run_until_cond(1_000, |p| p.handlers_started.contains(&owed));
    p.engine.leave(at(p.now));
    p.run_until(p.now + 1_000);
    assert_eq!(p.engine.state(), ClientState::Left);
    assert!(!p.server.clients.contains_key(&new_id));
    assert_eq!(
        p.settled(&owed),
        Some(&CallState::Failed {
            reason: "client_gone".into()
        })
    );
    assert!(p
        .outputs
        .iter()
        .any(|(_, o)| matches!(o, Output::AbortHandler { call_id, .. } if *call_id == owed)));

    // Every handler ran at most once; every call the engine saw was answered or failed.
    let mut started = p.handlers_started.clone();
    started.sort();
    started.dedup();
    assert_eq!(started.len(), p.handlers_started.len());
    for (call_id, call) in &p.server.calls {
        assert!(
            matches!(
                call.state,
                CallState::Succeeded { .. } | CallState::Failed { .. }
            ),
            "{call_id}: {:?}",
            call.state
        );
    }
    // No result was ever posted before its ack.
    assert_eq!(p.server.not_acked_refusals, 0);
    for (i, line) in p.server.log.iter().enumerate() {
        if let Some(call) = line.strip_suffix("/result") {
            let call = call.rsplit('/').next().unwrap();
            assert!(p.server.log[..i]
                .iter()
                .any(|l| l.ends_with(&format!("{call}/ack"))));
        }
    }
}

#[test]
fn conversation_offline_then_back_answers_every_call() {
    let engine = Engine::new(config(), at(T0)).unwrap();
    let mut p = Pair::new(engine, FakeServer::new(), page());
    p.run_until(T0 + 1_000);
    let first = p
        .server
        .call_tool("web", "highlight_row", json!({"row_id": "1"}), p.now);
    p.run_until_cond(1_000, |p| p.handlers_started.contains(&first));
    // Offline before the result goes out, for 20 s: requests and the stream fail, all retry.
    p.online = false;
    p.drop_stream();
    p.run_until(p.now + 20_000);
    assert!(p.settled(&first).is_none());
    p.online = true;
    p.run_until(p.now + 40_000);
    assert_eq!(succeeded(&p, &first).0, "Row 1 is highlighted.");
    assert!(
        p.statuses()
            .iter()
            .filter(|s| matches!(s, Status::StreamOpen))
            .count()
            >= 2
    );
}

/// Many seeded runs with random faults: failed requests, dropped streams, reordered answers.
/// Whatever happens, every call is answered once, each handler runs at most once, and no
/// result goes out before its ack.
#[test]
fn conversation_random_faults_keep_every_invariant() {
    for seed in 1..=40u64 {
        let mut cfg = config();
        cfg.seed = seed;
        let engine = Engine::new(cfg, at(T0)).unwrap();
        let mut p = Pair::new(engine, FakeServer::new(), page());
        p.seed(seed);
        p.jitter_ms = 200;
        p.run_until(T0 + 2_000);
        assert_eq!(p.engine.state(), ClientState::Registered, "seed {seed}");
        let mut calls = Vec::new();
        for i in 0..30 {
            match p.random(6) {
                0 => p.drop_stream(),
                1 => {
                    let status = [408, 429, 500, 502, 503, 504][p.random(6) as usize];
                    p.server.faults.push_back(status);
                }
                _ => {}
            }
            let row = format!("{i}");
            calls.push(
                p.server
                    .call_tool("web", "highlight_row", json!({"row_id": row}), p.now),
            );
            let pause = 50 + p.random(3_000);
            p.run_until(p.now + pause);
        }
        p.server.faults.clear();
        p.run_until(p.now + 60_000);
        for (i, call) in calls.iter().enumerate() {
            assert_eq!(
                succeeded(&p, call),
                (format!("Row {i} is highlighted."), false),
                "seed {seed}"
            );
            let runs = p.handlers_started.iter().filter(|c| *c == call).count();
            assert_eq!(runs, 1, "seed {seed}: {call} ran {runs} times");
        }
        assert_eq!(
            p.server.not_acked_refusals, 0,
            "seed {seed}: a result before its ack"
        );
    }
}
