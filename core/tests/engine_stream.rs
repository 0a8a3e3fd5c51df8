//! The event stream: opening, reconnecting with backoff and `Last-Event-ID`, and reading the
//! pending calls so that no call is missed.

mod engine_support;

use client_tools_core::engine::{ClientState, Input, Method, Output, Status};
use engine_support::*;
use serde_json::json;

fn reconnecting(h: &Harness) -> Vec<(u32, u64)> {
    h.statuses()
        .iter()
        .filter_map(|s| match s {
            Status::StreamReconnecting { attempt, delay } => Some((*attempt, delay.as_ms())),
            _ => None,
        })
        .collect()
}

/// Moves to the reconnect the latest `StreamReconnecting` announced.
fn reconnect(h: &mut Harness) {
    let (_, delay) = *reconnecting(h).last().expect("a reconnect is scheduled");
    let at = h.now + delay;
    h.advance_to(at);
}

#[test]
fn stream_opens_with_accept_and_authorization() {
    let h = Harness::new(config());
    let (url, headers) = h
        .out
        .iter()
        .find_map(|o| match o {
            Output::OpenStream { url, headers, .. } => Some((url, headers)),
            _ => None,
        })
        .expect("opened at once");
    assert_eq!(url, "https://api.test/v1/sessions/ses_1/stream");
    assert!(headers.contains(&("Accept", "text/event-stream".into())));
    assert!(headers.contains(&("Authorization", "Bearer tok".into())));
    assert!(!headers.iter().any(|(n, _)| *n == "Last-Event-ID"));
}

#[test]
fn stream_reconnects_with_last_event_id_after_jittered_backoff() {
    let mut h = Harness::registered(config());
    let first = h.stream_id();
    h.bytes(
        first,
        &sse(
            41,
            "run_started",
            &json!({"type": "run_started", "run_id": "r"}),
        ),
    );
    h.input(Input::StreamClosed {
        stream: first,
        error: Some("reset".into()),
    });
    let [(attempt, delay)] = reconnecting(&h)[..] else {
        panic!("{:?}", h.out)
    };
    assert_eq!(attempt, 1);
    assert!(delay <= 1_000, "first ceiling is 1 s, got {delay}");
    assert_eq!(h.next_deadline(), Some(h.now + delay));
    reconnect(&mut h);
    let headers = h.last_open_headers();
    assert!(headers.contains(&("Last-Event-ID", "41".into())));
    assert_ne!(h.stream_id(), first);
}

#[test]
fn stream_backoff_grows_until_a_healthy_connection() {
    let mut h = Harness::registered(config());
    for _ in 0..6 {
        let s = h.stream_id();
        h.stream_closed(s);
        reconnect(&mut h);
        // Fails at once (server down): not healthy.
        let s = h.stream_id();
        h.stream_opened(s, 502);
        reconnect(&mut h);
    }
    let attempts: Vec<u32> = reconnecting(&h).iter().map(|a| a.0).collect();
    assert_eq!(attempts, (1..=12).collect::<Vec<_>>());
    // Full jitter under a doubling ceiling: every delay within its ceiling.
    for (attempt, delay) in reconnecting(&h) {
        assert!(
            delay <= (1000u64 << (attempt - 1)).min(30_000),
            "{attempt}: {delay}"
        );
    }
    // An event proves the connection healthy: the next drop starts over at attempt 1.
    let s = h.stream_id();
    h.stream_opened(s, 200);
    h.bytes(
        s,
        &sse(
            1,
            "run_started",
            &json!({"type": "run_started", "run_id": "r"}),
        ),
    );
    h.out.clear();
    h.stream_closed(s);
    assert_eq!(reconnecting(&h)[0].0, 1);
}

#[test]
fn stream_backoff_resets_after_open_for_some_seconds() {
    let mut h = Harness::registered(config());
    for _ in 0..3 {
        let s = h.stream_id();
        h.stream_closed(s);
        reconnect(&mut h);
    }
    let s = h.stream_id();
    h.stream_opened(s, 200);
    // Open 4 s with only keep-alives: not yet healthy.
    h.now += 4_000;
    h.bytes(s, ": keep-alive\n\n");
    h.out.clear();
    h.stream_closed(s);
    assert_eq!(reconnecting(&h)[0].0, 4);
    reconnect(&mut h);
    let s = h.stream_id();
    h.stream_opened(s, 200);
    h.now += 5_000;
    h.out.clear();
    h.stream_closed(s);
    assert_eq!(reconnecting(&h)[0].0, 1);
}

#[test]
fn stream_retry_field_is_the_floor() {
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    h.bytes(s, "retry: 7000\n\n");
    h.stream_closed(s);
    let [(1, delay)] = reconnecting(&h)[..] else {
        panic!()
    };
    assert_eq!(delay, 7_000, "the 1 s ceiling is below the floor");
}

#[test]
fn stream_401_is_fatal() {
    let mut h = Harness::new(config());
    let s = h.stream_id();
    h.stream_opened(s, 401);
    assert_eq!(h.engine.state(), ClientState::Failed);
    assert!(matches!(
        h.statuses().last(),
        Some(Status::Error { fatal: true, .. })
    ));
    assert_eq!(h.next_deadline(), None);
}

#[test]
fn stream_reconnect_reads_pending_calls_so_none_is_missed() {
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    h.stream_closed(s);
    reconnect(&mut h);
    let s = h.stream_id();
    h.stream_opened(s, 200);
    let pending = h.take_send(Method::Get, "/clients/cli_1/calls");
    assert!(pending.header("Idempotency-Key").is_none());
    let calls = json!({"calls": [
        dispatched_json(CLIENT, "run_1", "call_missed", "noop", json!({})),
        dispatched_json("cli_other", "run_1", "call_theirs", "noop", json!({})),
    ]});
    h.answer(&pending, 200, &calls.to_string());
    assert_eq!(h.count_sends(Method::Post, "/ack"), 1);
    h.ack_ok("call_missed");
    assert_eq!(h.handlers_run().len(), 1);
    assert_eq!(h.handlers_run()[0].0, "call_missed");
}

#[test]
fn stream_reset_reads_pending_calls() {
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    h.bytes(
        s,
        "event: stream_reset\ndata: {\"type\":\"stream_reset\"}\n\n",
    );
    h.take_send(Method::Get, "/clients/cli_1/calls");
    // A second reset while that read is on its way reads again once it is answered.
    h.bytes(s, "event: stream_reset\ndata:\n\n");
    assert_eq!(h.count_sends(Method::Get, "/calls"), 0);
}

#[test]
fn stream_bytes_of_an_old_connection_are_ignored() {
    let mut h = Harness::registered(config());
    let old = h.stream_id();
    h.stream_closed(old);
    h.bytes(
        old,
        &dispatched_sse(1, CLIENT, "run_1", "call_1", "noop", json!({})),
    );
    assert!(h.handlers_run().is_empty());
}

#[test]
fn stream_event_split_across_chunks_dispatches_once() {
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    let text = dispatched_sse(1, CLIENT, "run_1", "call_1", "noop", json!({}));
    for chunk in text.as_bytes().chunks(7) {
        h.engine.handle_stream_bytes(s, chunk, at(h.now));
    }
    h.drain();
    assert_eq!(h.count_sends(Method::Post, "/ack"), 1);
    h.ack_ok("call_1");
    assert_eq!(h.handlers_run().len(), 1);
}

#[test]
fn stream_oversized_event_reads_pending_calls() {
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    let big = format!("data: {}\n\n", "x".repeat((1 << 20) + 10));
    h.bytes(s, &big);
    assert!(matches!(
        h.statuses().last(),
        Some(Status::Error { fatal: false, .. })
    ));
    h.take_send(Method::Get, "/calls");
}

#[test]
fn stream_client_expired_event_reregisters_at_once() {
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    let data = json!({"type": "client_expired", "client_id": CLIENT, "name": "web"});
    h.bytes(s, &sse(3, "client_expired", &data));
    assert_eq!(h.statuses().last(), Some(&&Status::Lapsed));
    h.take_send(Method::Post, "/clients");
}

#[test]
fn stream_retry_field_floor_is_capped_at_a_minute() {
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    h.bytes(s, "retry: 4000000000\n\n");
    h.stream_closed(s);
    let [(1, delay)] = reconnecting(&h)[..] else {
        panic!()
    };
    assert_eq!(delay, 60_000);
}
