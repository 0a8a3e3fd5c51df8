//! The OpenAI Realtime dialect of the WebSocket bridge: calls from
//! `response.function_call_arguments.done` (and `response.done`, never run twice), answered
//! by a `function_call_output` item, then `response.create` only while no response is active.

mod ws_support;

use client_tools_core::adapters::ws::{Dialect, RespondAfterResult, WsBridge, WsCallEvent};
use client_tools_core::calls::Returned;
use serde_json::{json, Value};
use ws_support::{at, bridge, drain, feed, Out};

fn realtime() -> WsBridge {
    bridge(Dialect::OpenAiRealtime, RespondAfterResult::Auto)
}

fn args_done(id: &str, name: &str, arguments: &str) -> Value {
    json!({"type": "response.function_call_arguments.done", "event_id": "e1", "response_id": "r1",
           "item_id": "i1", "output_index": 0, "call_id": id, "name": name, "arguments": arguments})
}

fn created() -> Value {
    json!({"type": "response.created", "response": {"id": "r1", "status": "in_progress"}})
}

fn done(calls: &[(&str, &str, &str)]) -> Value {
    let output: Vec<Value> = calls
        .iter()
        .map(|(id, name, args)| json!({"type": "function_call", "id": "i1", "call_id": id, "name": name, "arguments": args}))
        .collect();
    json!({"type": "response.done", "response": {"id": "r1", "status": "completed", "output": output}})
}

fn types(out: &Out) -> Vec<&str> {
    out.sent
        .iter()
        .map(|f| f["type"].as_str().unwrap())
        .collect()
}

#[test]
fn a_call_in_a_response_is_answered_and_the_response_created_after_it_is_done() {
    let mut b = realtime();
    feed(&mut b, &created(), 0, false);
    let out = feed(
        &mut b,
        &args_done("call_1", "echo", r#"{"text":"hi"}"#),
        1,
        true,
    );
    assert_eq!(
        out.runs,
        vec![("call_1".into(), "echo".into(), json!({"text": "hi"}))]
    );
    b.finish("call_1", Returned::text("said hi"), at(2));
    let out = drain(&mut b);
    assert_eq!(
        out.sent,
        vec![json!({"type": "conversation.item.create",
                    "item": {"type": "function_call_output", "call_id": "call_1", "output": "said hi"}})],
        "no response.create while the response is active"
    );
    // The same call again in response.done: not run twice; now the response may be created.
    let out = feed(
        &mut b,
        &done(&[("call_1", "echo", r#"{"text":"hi"}"#)]),
        3,
        true,
    );
    assert!(out.runs.is_empty() && out.events.is_empty());
    assert_eq!(out.sent, vec![json!({"type": "response.create"})]);
}

#[test]
fn a_call_answered_after_its_response_ended_creates_a_response_at_once() {
    let mut b = realtime();
    feed(&mut b, &created(), 0, false);
    feed(
        &mut b,
        &args_done("call_1", "echo", r#"{"text":"a"}"#),
        1,
        true,
    );
    assert!(feed(
        &mut b,
        &done(&[("call_1", "echo", r#"{"text":"a"}"#)]),
        2,
        true
    )
    .sent
    .is_empty());
    b.finish("call_1", Returned::Nothing, at(3));
    assert_eq!(
        types(&drain(&mut b)),
        ["conversation.item.create", "response.create"]
    );
}

#[test]
fn parallel_calls_get_one_response_create_after_the_last_output() {
    let mut b = realtime();
    feed(&mut b, &created(), 0, false);
    feed(&mut b, &args_done("a", "echo", r#"{"text":"1"}"#), 1, true);
    feed(&mut b, &args_done("b", "echo", r#"{"text":"2"}"#), 1, true);
    feed(
        &mut b,
        &done(&[
            ("a", "echo", r#"{"text":"1"}"#),
            ("b", "echo", r#"{"text":"2"}"#),
        ]),
        2,
        true,
    );
    b.finish("b", Returned::Nothing, at(3));
    assert_eq!(types(&drain(&mut b)), ["conversation.item.create"]);
    b.finish("a", Returned::Nothing, at(4));
    assert_eq!(
        types(&drain(&mut b)),
        ["conversation.item.create", "response.create"]
    );
}

#[test]
fn no_second_response_create_before_the_first_response_has_ended() {
    let mut b = realtime();
    feed(&mut b, &args_done("a", "echo", r#"{"text":"1"}"#), 0, true);
    b.finish("a", Returned::Nothing, at(1));
    assert_eq!(
        types(&drain(&mut b)),
        ["conversation.item.create", "response.create"]
    );
    // Requested, not yet created: another output waits.
    feed(&mut b, &args_done("b", "echo", r#"{"text":"2"}"#), 2, true);
    b.finish("b", Returned::Nothing, at(3));
    assert_eq!(types(&drain(&mut b)), ["conversation.item.create"]);
    feed(&mut b, &created(), 4, false);
    let out = feed(&mut b, &done(&[]), 5, false);
    assert_eq!(types(&out), ["response.create"]);
}

#[test]
fn a_refused_response_create_is_sent_again_after_the_active_response_ends() {
    let mut b = realtime();
    feed(&mut b, &args_done("a", "echo", r#"{"text":"1"}"#), 0, true);
    b.finish("a", Returned::Nothing, at(1));
    drain(&mut b);
    let refused = json!({"type": "error", "error": {"type": "invalid_request_error",
        "code": "conversation_already_has_active_response", "message": "active"}});
    assert!(feed(&mut b, &refused, 2, false).sent.is_empty());
    assert_eq!(
        types(&feed(&mut b, &done(&[]), 3, false)),
        ["response.create"]
    );
}

#[test]
fn respond_after_result_never_sends_no_response_create() {
    let mut b = bridge(Dialect::OpenAiRealtime, RespondAfterResult::Never);
    feed(&mut b, &args_done("a", "echo", r#"{"text":"1"}"#), 0, true);
    b.finish("a", Returned::Nothing, at(1));
    assert_eq!(types(&drain(&mut b)), ["conversation.item.create"]);
    assert!(feed(&mut b, &done(&[]), 2, false).sent.is_empty());
}

#[test]
fn a_call_first_seen_in_response_done_runs_once() {
    let mut b = realtime();
    feed(&mut b, &created(), 0, false);
    let out = feed(
        &mut b,
        &done(&[("late", "echo", r#"{"text":"x"}"#)]),
        1,
        true,
    );
    assert_eq!(out.runs.len(), 1);
    assert!(out.sent.is_empty(), "the call runs: no response yet");
    assert!(feed(
        &mut b,
        &args_done("late", "echo", r#"{"text":"x"}"#),
        2,
        true
    )
    .runs
    .is_empty());
    b.finish("late", Returned::text("ok"), at(3));
    assert_eq!(
        types(&drain(&mut b)),
        ["conversation.item.create", "response.create"]
    );
}

#[test]
fn errors_say_so_in_the_output_text() {
    let mut b = realtime();
    let out = feed(&mut b, &args_done("a", "echo", "{not json"), 0, true);
    let output = out.sent[0]["item"]["output"].as_str().unwrap();
    assert!(
        output.starts_with("Error: Invalid arguments for \"echo\""),
        "{output}"
    );
    let out = feed(&mut b, &args_done("b", "echo", r#"{"text":3}"#), 1, true);
    assert!(out.sent[0]["item"]["output"]
        .as_str()
        .unwrap()
        .contains("arguments.text"));
    assert!(matches!(
        &out.events[1],
        WsCallEvent::Answered { is_error: true, .. }
    ));
}

#[test]
fn malformed_calls_are_reported_and_answered_when_the_call_id_is_readable() {
    let mut b = realtime();
    let out = feed(
        &mut b,
        &json!({"type": "response.function_call_arguments.done", "call_id": "m", "name": "echo", "arguments": {"text": "x"}}),
        0,
        true,
    );
    assert_eq!(out.event_types(), ["malformed", "answered"]);
    assert!(out.sent[0]["item"]["output"]
        .as_str()
        .unwrap()
        .contains("arguments is object, not a JSON string"));
    let out = feed(
        &mut b,
        &json!({"type": "response.function_call_arguments.done", "name": "echo"}),
        1,
        true,
    );
    assert_eq!(out.event_types(), ["malformed"]);
    assert!(out.sent.is_empty());
}

#[test]
fn closing_mid_call_aborts_drops_the_result_and_forgets_the_response() {
    let mut b = realtime();
    feed(&mut b, &created(), 0, false);
    feed(&mut b, &args_done("a", "echo", r#"{"text":"1"}"#), 1, true);
    b.closed(at(2));
    let out = drain(&mut b);
    assert_eq!(out.aborts, ["a"]);
    b.finish("a", Returned::Nothing, at(3));
    assert!(drain(&mut b).sent.is_empty());
    // The new connection has no active response.
    feed(&mut b, &args_done("b", "echo", r#"{"text":"1"}"#), 4, true);
    b.finish("b", Returned::Nothing, at(5));
    assert_eq!(
        types(&drain(&mut b)),
        ["conversation.item.create", "response.create"]
    );
}

#[test]
fn other_frames_are_ignored() {
    let mut b = realtime();
    for f in [
        json!({"type": "response.audio.delta", "delta": "AAAA"}),
        json!({"type": "response.function_call_arguments.delta", "call_id": "a", "delta": "{"}),
        json!({"type": "error", "error": {"code": "other"}}),
        json!({"type": "session.updated"}),
    ] {
        assert!(feed(&mut b, &f, 0, false).sent.is_empty());
    }
}

#[test]
fn declarations_are_functions() {
    let d = realtime().declarations();
    assert_eq!(
        d[1],
        json!({"type": "function", "name": "slow", "description": "The slow tool.",
               "parameters": {"type": "object", "properties": {}}})
    );
}
