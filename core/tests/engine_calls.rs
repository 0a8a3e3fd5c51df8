//! Calls: only this client's, each at most once, ack then result, retries, deadlines,
//! refusals answered `is_error`, and the server failing a call.

mod engine_support;

use client_tools_core::calls::Returned;
use client_tools_core::engine::{CallEvent, Input, Method, Output, Status, ToolDef, Urgency};
use client_tools_core::protocol::time::format_rfc3339;
use client_tools_core::time::Duration;
use engine_support::*;
use serde_json::json;

fn result_text(h: &mut Harness, call_id: &str) -> (String, bool) {
    let r = h.take_send(Method::Post, &format!("/calls/{call_id}/result"));
    let body = body_json(&r);
    (
        body["text"].as_str().unwrap().to_owned(),
        body["is_error"].as_bool().unwrap(),
    )
}

#[test]
fn calls_only_this_clients() {
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    h.bytes(
        s,
        &dispatched_sse(1, "cli_other", "run_1", "call_1", "noop", json!({})),
    );
    assert!(h.out.is_empty(), "{:?}", h.out);
}

#[test]
fn call_runs_at_most_once_however_often_repeated() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    h.dispatch(1, "call_1", "noop", json!({}));
    // Also when the pending list repeats it, and after it settled.
    let s = h.stream_id();
    h.bytes(s, "event: stream_reset\ndata:\n\n");
    let pending = h.take_send(Method::Get, "/calls");
    let calls = json!({"calls": [dispatched_json(CLIENT, "run_1", "call_1", "noop", json!({}))]});
    h.answer(&pending, 200, &calls.to_string());
    h.ack_ok("call_1");
    h.input(Input::HandlerDone {
        call_id: "call_1".into(),
        returned: Returned::text("ok"),
    });
    let r = h.take_send(Method::Post, "/result");
    h.answer(&r, 200, "{}");
    h.dispatch(1, "call_1", "noop", json!({}));
    assert_eq!(h.handlers_run().len(), 1);
    assert_eq!(h.count_sends(Method::Post, "/ack"), 0);
}

/// A shell that queues requests sends acks first and results last: each request says which.
#[test]
fn requests_say_how_urgent_they_are() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    let ack = h.take_send(Method::Post, "/ack");
    assert_eq!(ack.urgency, Urgency::Ack);
    h.answer(&ack, 200, "{}");
    h.input(Input::HandlerDone {
        call_id: "call_1".into(),
        returned: Returned::text("ok"),
    });
    assert_eq!(
        h.take_send(Method::Post, "/result").urgency,
        Urgency::Result
    );
    let s = h.stream_id();
    h.bytes(s, "event: stream_reset\ndata:\n\n");
    assert_eq!(h.take_send(Method::Get, "/calls").urgency, Urgency::Control);
    h.advance_to(T0 + 21_000);
    // Pings (and registering) before everything else: the registration carries every call.
    assert_eq!(
        h.take_send(Method::Post, "/ping").urgency,
        Urgency::Registration
    );
}

#[test]
fn call_acked_at_once_result_posted_only_after_ack() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "highlight_row", json!({"row_id": "42"}));
    // Dispatched and ack sent, at once; the handler waits for the ack.
    assert_eq!(h.out.len(), 2, "{:?}", h.out);
    assert!(
        matches!(&h.out[0], Output::Call(CallEvent::Dispatched { call_id, .. }) if call_id == "call_1")
    );
    assert!(
        matches!(&h.out[1], Output::Send(r) if r.url.ends_with("/clients/cli_1/calls/call_1/ack"))
    );
    let ack = h.take_send(Method::Post, "/ack");
    assert!(ack.header("Idempotency-Key").is_some());
    h.now += 150;
    let started = h.answer(
        &ack,
        200,
        &json!({"result_deadline": format_rfc3339(h.now + 300_000)}).to_string(),
    );
    // Acked, then the handler starts, by the deadline counted from the dispatch.
    assert!(
        matches!(&started[..], [Output::Call(CallEvent::Acked { elapsed, .. }), Output::RunHandler { tool, arguments, deadline, .. }]
        if elapsed.as_ms() == 150 && tool == "highlight_row" && arguments["row_id"] == "42" && deadline.as_ms() == h.now - 150 + 30_000),
        "{started:?}"
    );
    h.input(Input::HandlerDone {
        call_id: "call_1".into(),
        returned: Returned::text("Row 42 is highlighted."),
    });
    assert!(h.out.contains(&Output::Call(CallEvent::Acked {
        call_id: "call_1".into(),
        tool: "highlight_row".into(),
        elapsed: Duration::from_ms(150)
    })));
    let r = h.take_send(Method::Post, "/calls/call_1/result");
    assert_eq!(
        body_json(&r),
        json!({"text": "Row 42 is highlighted.", "is_error": false})
    );
    h.answer(&r, 200, "{}");
    assert!(h.out.iter().any(|o| matches!(
        o,
        Output::Call(CallEvent::Answered {
            is_error: false,
            ..
        })
    )));
    assert_eq!(h.engine.calls_in_progress(), 0);
}

#[test]
fn call_ack_retried_on_503_with_same_key() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    let first = h.take_send(Method::Post, "/ack");
    let mut ack = first.clone();
    for status in [503, 500, 502, 504, 408, 429] {
        h.answer(&ack, status, "");
        h.fire_next();
        ack = h.take_send(Method::Post, "/ack");
        assert_ne!(ack.id, first.id);
        assert_eq!(
            ack.header("Idempotency-Key"),
            first.header("Idempotency-Key"),
            "{status}"
        );
    }
    h.answer(
        &ack,
        200,
        &json!({"result_deadline": format_rfc3339(h.now + 300_000)}).to_string(),
    );
    h.input(Input::HandlerDone {
        call_id: "call_1".into(),
        returned: Returned::text("x"),
    });
    let r = h.take_send(Method::Post, "/result");
    assert_ne!(r.header("Idempotency-Key"), first.header("Idempotency-Key"));
}

#[test]
fn call_result_retried_on_network_error_with_same_key() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    h.ack_ok("call_1");
    h.input(Input::HandlerDone {
        call_id: "call_1".into(),
        returned: Returned::text("x"),
    });
    let r = h.take_send(Method::Post, "/result");
    h.input(Input::NetworkError {
        request: r.id,
        message: "offline".into(),
    });
    h.fire_next();
    let r2 = h.take_send(Method::Post, "/result");
    assert_eq!(r2.header("Idempotency-Key"), r.header("Idempotency-Key"));
    assert_eq!(r2.body, r.body);
}

#[test]
fn call_result_409_call_settled_dropped_quietly() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    h.ack_ok("call_1");
    h.input(Input::HandlerDone {
        call_id: "call_1".into(),
        returned: Returned::text("late"),
    });
    let r = h.take_send(Method::Post, "/result");
    h.answer(&r, 409, &error_json("call_settled", "already settled"));
    assert!(
        h.statuses().is_empty(),
        "no error for the app: {:?}",
        h.statuses()
    );
    assert_eq!(
        h.next_deadline(),
        Some(T0 + 20_000),
        "no retry, only the ping"
    );
    assert_eq!(h.engine.calls_in_progress(), 0);
}

#[test]
fn call_failed_event_aborts_handler_and_posts_nothing() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    h.ack_ok("call_1");
    let s = h.stream_id();
    let failed = json!({"type": "client_tool_failed", "client_id": CLIENT, "call_id": "call_1", "reason": "run_gone"});
    h.bytes(s, &sse(2, "client_tool_failed", &failed));
    assert_eq!(h.aborts(), [("call_1", "run_gone")]);
    assert!(h
        .call_events()
        .iter()
        .any(|e| matches!(e, CallEvent::Failed { reason, .. } if reason == "run_gone")));
    h.input(Input::HandlerDone {
        call_id: "call_1".into(),
        returned: Returned::text("too late"),
    });
    assert_eq!(h.count_sends(Method::Post, "/result"), 0);
}

#[test]
fn call_local_deadline_posts_timed_out_and_late_done_ignored() {
    let mut c = config();
    c.tools[1].timeout_ms = Some(5_000);
    let mut h = Harness::registered(c);
    h.dispatch(1, "call_1", "noop", json!({}));
    h.ack_ok("call_1");
    assert_eq!(h.next_deadline(), Some(T0 + 5_000));
    h.fire_next();
    assert_eq!(h.aborts(), [("call_1", "timed out after 5000 ms")]);
    assert_eq!(
        result_text(&mut h, "call_1"),
        ("timed out after 5000 ms".into(), true)
    );
    h.input(Input::HandlerDone {
        call_id: "call_1".into(),
        returned: Returned::text("late"),
    });
    assert_eq!(h.count_sends(Method::Post, "/result"), 0);
}

#[test]
fn call_local_deadline_never_later_than_server_result_deadline() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    let ack = h.take_send(Method::Post, "/ack");
    // A server with a 10 s result window: the default 30 s would be too late.
    h.answer(
        &ack,
        200,
        &json!({"result_deadline": format_rfc3339(h.now + 10_000)}).to_string(),
    );
    let at = h.next_deadline().unwrap();
    assert!(at < h.now + 10_000 && at >= h.now + 5_000, "{}", at - h.now);
    // The handler starts with it, so its `ctx.deadline` shows the real deadline.
    assert!(
        h.out
            .iter()
            .any(|o| matches!(o, Output::RunHandler { call_id, deadline, .. }
            if call_id == "call_1" && deadline.as_ms() == at)),
        "{:?}",
        h.out
    );
    h.fire_next();
    let (text, is_error) = result_text(&mut h, "call_1");
    assert!(is_error && text.starts_with("timed out after "), "{text}");
}

#[test]
fn call_unknown_tool_names_tools_on_offer() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "delete_everything", json!({}));
    assert!(h.handlers_run().is_empty());
    h.ack_ok("call_1");
    let (text, is_error) = result_text(&mut h, "call_1");
    assert!(is_error);
    assert_eq!(
        text,
        "Unknown tool \"delete_everything\": this client offers highlight_row, noop."
    );
}

#[test]
fn call_arguments_failing_schema_name_path_and_rule_no_handler() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "highlight_row", json!({"row_id": 42}));
    h.dispatch(2, "call_2", "highlight_row", json!({}));
    assert!(h.handlers_run().is_empty());
    h.ack_ok("call_1");
    h.ack_ok("call_2");
    let (t1, e1) = result_text(&mut h, "call_1");
    let (t2, e2) = result_text(&mut h, "call_2");
    assert!(e1 && e2);
    assert_eq!(t1, "Invalid arguments for \"highlight_row\": arguments.row_id: integer 42, needs string (type)");
    assert!(
        t2.contains("arguments: the property \"row_id\" is required but missing (required)"),
        "{t2}"
    );
}

#[test]
fn call_result_over_limit_is_cut_with_note() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    h.ack_ok("call_1");
    // 70,000 characters, many of them multi-byte: cut by characters, at a boundary.
    let text: String = "é".repeat(70_000);
    h.input(Input::HandlerDone {
        call_id: "call_1".into(),
        returned: Returned::text(text),
    });
    let (posted, is_error) = result_text(&mut h, "call_1");
    assert!(!is_error);
    assert_eq!(posted.chars().count(), 65_536);
    let kept = posted.chars().take_while(|&c| c == 'é').count();
    assert!(
        posted.ends_with(&format!(
            "[cut: {} more characters; a result holds at most 65536]",
            70_000 - kept
        )),
        "{}",
        &posted[posted.len() - 80..]
    );
    // Within the limit: untouched.
    assert_eq!(
        client_tools_core::engine::cut_result("é".repeat(65_536)),
        "é".repeat(65_536)
    );
}

#[test]
fn call_max_calls_per_run_is_error_past_limit() {
    let mut c = config();
    c.tools[1] = ToolDef {
        max_calls_per_run: Some(2),
        assert_formats: false,
        ..c.tools[1].clone()
    };
    let mut h = Harness::registered(c);
    for i in 1..=3 {
        h.dispatch(i, &format!("call_{i}"), "noop", json!({}));
        h.ack_ok(&format!("call_{i}"));
    }
    assert_eq!(h.handlers_run().len(), 2);
    let (text, is_error) = result_text(&mut h, "call_3");
    assert!(is_error);
    assert_eq!(
        text,
        "Tool \"noop\" allows at most 2 calls per run; this was call 3."
    );
    // Another run counts anew.
    let s = h.stream_id();
    h.bytes(
        s,
        &dispatched_sse(4, CLIENT, "run_2", "call_4", "noop", json!({})),
    );
    h.ack_ok("call_4");
    assert_eq!(h.handlers_run().len(), 3);
}

#[test]
fn call_unreadable_dispatch_still_answered() {
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    // No `tool`: the event does not parse, but its ids can be read.
    let mut data = dispatched_json(CLIENT, "run_1", "call_1", "noop", json!({}));
    data.as_object_mut().unwrap().remove("tool");
    h.bytes(s, &sse(1, "client_tool_dispatched", &data));
    // Arguments that are not an object.
    h.dispatch(2, "call_2", "noop", json!([1, 2]));
    assert!(h.handlers_run().is_empty());
    h.ack_ok("call_1");
    h.ack_ok("call_2");
    let (t1, e1) = result_text(&mut h, "call_1");
    let (t2, e2) = result_text(&mut h, "call_2");
    assert!(
        e1 && t1.starts_with("The call could not be read:") && t1.contains("tool"),
        "{t1}"
    );
    assert!(
        e2 && t2.contains("arguments: JSON array, needs a JSON object"),
        "{t2}"
    );
}

#[test]
fn call_ack_409_call_settled_ends_the_call_and_its_handler_never_runs() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    let ack = h.take_send(Method::Post, "/ack");
    h.answer(
        &ack,
        409,
        &error_json("call_settled", "ack deadline passed"),
    );
    assert_eq!(failed_reason(&h), ("call_settled".to_owned(), false));
    assert!(h.handlers_run().is_empty() && h.aborts().is_empty());
    assert!(h.statuses().is_empty());
}

#[test]
fn call_handler_error_is_posted_as_is_error() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    h.ack_ok("call_1");
    h.input(Input::HandlerDone {
        call_id: "call_1".into(),
        returned: Returned::Threw("no such row".into()),
    });
    assert_eq!(result_text(&mut h, "call_1"), ("no such row".into(), true));
}

/// The reason of the one `Failed` call event, and whether the app was told of an error.
fn failed_reason(h: &Harness) -> (String, bool) {
    let reasons: Vec<&str> = h
        .call_events()
        .into_iter()
        .filter_map(|e| match e {
            CallEvent::Failed { reason, .. } => Some(reason.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(reasons.len(), 1, "{:?}", h.call_events());
    let told = h
        .statuses()
        .iter()
        .any(|s| matches!(s, Status::Error { fatal: false, .. }));
    (reasons[0].to_owned(), told)
}

#[test]
fn result_409_call_not_acked_acks_again_once_then_the_call_fails_by_its_type() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    h.ack_ok("call_1");
    h.input(Input::HandlerDone {
        call_id: "call_1".into(),
        returned: Returned::text("done"),
    });
    let r = h.take_send(Method::Post, "/result");
    h.answer(&r, 409, &error_json("call_not_acked", "ack first"));
    // The server lost the ack: ack again, then the result follows.
    h.ack_ok("call_1");
    let r = h.take_send(Method::Post, "/result");
    h.answer(&r, 409, &error_json("call_not_acked", "ack first"));
    assert_eq!(
        h.count_sends(Method::Post, "/ack"),
        0,
        "acked again once only"
    );
    assert_eq!(failed_reason(&h), ("call_not_acked".to_owned(), true));
    assert_eq!(h.engine.calls_in_progress(), 0);
}

#[test]
fn a_refused_ack_ends_the_call_with_the_error_type_known_or_not() {
    // A type the protocol does not list is kept as sent, and the app is told.
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    let ack = h.take_send(Method::Post, "/calls/call_1/ack");
    h.answer(&ack, 400, &error_json("quota_exceeded", "too many"));
    assert_eq!(failed_reason(&h), ("quota_exceeded".to_owned(), true));
    // Reported failed: its handler never ran.
    assert!(h.handlers_run().is_empty() && h.aborts().is_empty());

    // `not_found` is the server saying the call is over: no error for the app.
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    let ack = h.take_send(Method::Post, "/calls/call_1/ack");
    h.answer(&ack, 404, &error_json("not_found", "unknown call"));
    assert_eq!(failed_reason(&h), ("not_found".to_owned(), false));

    // An unreadable error body: the reason says the status and what came back.
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    let ack = h.take_send(Method::Post, "/calls/call_1/ack");
    h.answer(&ack, 400, "<html>bad gateway</html>");
    assert_eq!(
        failed_reason(&h),
        (
            "ack refused (400): HTTP 400: <html>bad gateway</html>".to_owned(),
            true
        )
    );
}
