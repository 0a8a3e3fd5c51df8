//! Issue 39, bursts: a handler starts only once its ack is taken; a lapsed registration gets
//! no ack or result; live calls are capped (past the cap a call is left unacknowledged, the
//! app told once, and taken from the pending calls when room comes); a large pending-calls
//! answer is taken a slice per turn.

mod engine_support;

use client_tools_core::calls::Returned;
use client_tools_core::engine::{CallEvent, Input, Method, Output, Status, MAX_LIVE_CALLS};
use engine_support::*;
use serde_json::json;

fn acks(out: &[Output]) -> usize {
    out.iter()
        .filter(|o| matches!(o, Output::Send(r) if r.url.ends_with("/ack")))
        .count()
}

fn dispatched(out: &[Output]) -> usize {
    out.iter()
        .filter(|o| matches!(o, Output::Call(CallEvent::Dispatched { .. })))
        .count()
}

fn errors(h: &Harness) -> Vec<String> {
    h.statuses()
        .into_iter()
        .filter_map(|s| match s {
            Status::Error { message, .. } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

/// `n` calls of `noop` for this client, as one pending-calls answer.
fn pending_body(from: usize, n: usize) -> String {
    padded_body(from, n, 0, "noop")
}

/// [`pending_body`] with a `pad` of `bytes` in each call's arguments.
fn padded_body(from: usize, n: usize, bytes: usize, tool: &str) -> String {
    let mut calls = Vec::with_capacity(n);
    let args = if bytes == 0 {
        json!({})
    } else {
        json!({ "pad": "x".repeat(bytes) })
    };
    for i in from..from + n {
        calls.push(dispatched_json(
            CLIENT,
            "run_1",
            &format!("call_{i}"),
            tool,
            args.clone(),
        ));
    }
    json!({ "calls": calls }).to_string()
}

#[test]
fn a_handler_starts_only_once_its_ack_is_taken_and_never_for_a_refused_ack() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    h.dispatch(2, "call_2", "noop", json!({}));
    assert!(
        h.handlers_run().is_empty(),
        "no handler before its ack is taken"
    );
    let ack2 = h.take_send(Method::Post, "/calls/call_2/ack");
    h.answer(
        &ack2,
        409,
        &error_json("call_settled", "ack deadline passed"),
    );
    h.ack_ok("call_1");
    let run: Vec<&str> = h.handlers_run().iter().map(|r| r.0).collect();
    assert_eq!(
        run,
        ["call_1"],
        "call_2 was reported failed: its handler never runs"
    );
    assert!(h.aborts().is_empty());
    let failed: Vec<&str> = (h.call_events().into_iter())
        .filter_map(|e| match e {
            CallEvent::Failed { call_id, .. } => Some(call_id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(failed, ["call_2"]);
}

#[test]
fn a_lapsed_registration_gets_no_ack_or_result_and_its_waiting_handlers_never_run() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_running", "noop", json!({}));
    h.ack_ok("call_running");
    h.dispatch(2, "call_waiting", "noop", json!({}));
    let ack = h.take_send(Method::Post, "/calls/call_waiting/ack");
    assert_eq!(h.handlers_run().len(), 1);
    h.advance_to(T0 + 20_000);
    let ping = h.take_send(Method::Post, "/ping");
    h.answer(&ping, 404, &error_json("not_found", "unknown client"));
    assert_eq!(h.statuses().last(), Some(&&Status::Lapsed));
    // Both calls end here: the server fails them (client_gone); the running one is aborted.
    assert_eq!(h.aborts(), [("call_running", "registration_lapsed")]);
    assert_eq!(h.engine.calls_in_progress(), 0);
    // The ack of the lapsed registration is not wanted: a shell that still holds it drops it.
    assert!(!h.engine.wants(ack.id, at(h.now)));
    h.out.clear();
    // Late answers change nothing: no handler starts, no result goes out.
    h.answer(
        &ack,
        200,
        &json!({"result_deadline": "2026-11-29T12:05:00Z"}).to_string(),
    );
    h.input(Input::HandlerDone {
        call_id: "call_running".into(),
        returned: Returned::text("done"),
    });
    assert!(h.handlers_run().is_empty());
    assert_eq!(h.count_sends(Method::Post, "/result"), 0);
    assert_eq!(h.count_sends(Method::Post, "/ack"), 0);
}

#[test]
fn past_the_live_call_cap_calls_are_left_unacked_told_once_and_read_again_when_room_comes() {
    let mut h = Harness::registered(config());
    let over = 300;
    let s = h.stream_id();
    let mut text = String::new();
    for i in 0..MAX_LIVE_CALLS + over {
        text += &dispatched_sse(
            i as u64,
            CLIENT,
            "run_1",
            &format!("call_{i}"),
            "noop",
            json!({}),
        );
    }
    h.bytes(s, &text);
    assert_eq!(acks(&h.out), MAX_LIVE_CALLS);
    assert_eq!(dispatched(&h.out), MAX_LIVE_CALLS);
    assert_eq!(h.engine.calls_in_progress(), MAX_LIVE_CALLS);
    let told = errors(&h);
    assert_eq!(told.len(), 1, "told once: {told:?}");
    assert!(
        told[0].starts_with(&format!("{MAX_LIVE_CALLS} calls are in progress"))
            && told[0].contains(&format!("call_{MAX_LIVE_CALLS} (noop)"))
            && told[0].contains("ack_timeout"),
        "{}",
        told[0]
    );
    // Calls end (the server fails them): once half have, the pending calls are read again.
    let sends: Vec<_> = h.sends().into_iter().cloned().collect();
    h.out.clear();
    for (i, ack) in sends.iter().enumerate().take(MAX_LIVE_CALLS / 2) {
        assert_eq!(h.count_sends(Method::Get, "/calls"), 0, "{i}");
        h.answer(ack, 404, &error_json("not_found", "no such call"));
    }
    let pending = h.take_send(Method::Get, "/clients/cli_1/calls");
    h.answer(&pending, 200, &pending_body(MAX_LIVE_CALLS, over));
    while h.next_deadline() == Some(h.now) {
        h.advance_to(h.now);
    }
    assert_eq!(acks(&h.out), over, "the calls left are taken now");
    assert_eq!(h.engine.calls_in_progress(), MAX_LIVE_CALLS / 2 + over);
}

#[test]
fn a_large_pending_answer_is_taken_a_slice_per_turn_up_to_the_cap() {
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    h.bytes(s, "event: stream_reset\ndata:\n\n");
    let pending = h.take_send(Method::Get, "/calls");
    // 100,000 calls, 28 MB as the issue's server sent them (each with some arguments).
    let body = pending_body(0, 100_000);
    let first = h.answer(&pending, 200, &body);
    let mut most = dispatched(&first);
    assert!(most > 0 && most <= 64, "the first turn took {most} calls");
    // The rest comes turn by turn, at once (the shell's event loop runs between).
    let mut turns = 1;
    while h.next_deadline() == Some(h.now) {
        let out = h.advance_to(h.now);
        most = most.max(dispatched(&out));
        turns += 1;
        assert!(turns < 1_000, "it ends");
    }
    assert!(most <= 64, "at most 64 calls in a turn, {most} in one");
    assert_eq!(h.engine.calls_in_progress(), MAX_LIVE_CALLS);
    assert_eq!(acks(&h.out), MAX_LIVE_CALLS);
    assert_eq!(turns, MAX_LIVE_CALLS.div_ceil(64));
    // Told once of the calls left at the cap; the rest stays on the server, not even read.
    let told = errors(&h);
    assert!(
        told.len() == 1 && told[0].contains(&format!("call_{MAX_LIVE_CALLS} (noop)")),
        "{told:?}"
    );
}

#[test]
fn a_pending_answer_cut_at_its_read_limit_is_taken_up_to_the_cut_and_read_again_when_a_call_ends() {
    use client_tools_core::engine::MAX_PENDING_READ;
    let mut c = config();
    c.tools.push(tool("big", None));
    let mut h = Harness::registered(c);
    let s = h.stream_id();
    h.bytes(s, "event: stream_reset\ndata:\n\n");
    let pending = h.take_send(Method::Get, "/calls");
    assert_eq!(pending.answer_limit, Some(MAX_PENDING_READ));
    // What a shell hands in: the first MAX_PENDING_READ bytes of a longer answer (calls of
    // 2 KB: fewer than the live-call cap fit in it).
    let body = padded_body(0, 1_000, 2_000, "big");
    // Each call's text ends with its last key (they are sorted): "type".
    let end = r#""type":"client_tool_dispatched"}"#;
    let whole = body.matches(end).count();
    let cut = &body[..MAX_PENDING_READ];
    let complete = cut.matches(end).count();
    h.answer(&pending, 200, cut);
    while h.next_deadline() == Some(h.now) {
        h.advance_to(h.now);
    }
    assert!(complete < whole && complete > 100 && complete < MAX_LIVE_CALLS);
    assert_eq!(acks(&h.out), complete, "every whole call before the cut");
    assert!(errors(&h).is_empty(), "a cut is no error: {:?}", errors(&h));
    assert_eq!(h.count_sends(Method::Get, "/calls"), 0);
    // A call ends: the rest of the list is read.
    let ack = h.take_send(Method::Post, "/calls/call_0/ack");
    h.answer(&ack, 404, &error_json("not_found", "no such call"));
    h.take_send(Method::Get, "/clients/cli_1/calls");
}
