//! The ElevenLabs dialect of the WebSocket bridge: the call nested under
//! `client_tool_call`, always answered with a string `result` and `is_error`.

mod ws_support;

use client_tools_core::adapters::ws::{Dialect, RespondAfterResult, WsBridge, WsCallEvent};
use client_tools_core::calls::Returned;
use serde_json::{json, Value};
use ws_support::{at, bridge, drain, feed};

fn elevenlabs() -> WsBridge {
    bridge(Dialect::ElevenLabs, RespondAfterResult::Auto)
}

fn call(id: &str, tool: &str, parameters: Value) -> Value {
    json!({"type": "client_tool_call", "client_tool_call": {
        "tool_name": tool, "tool_call_id": id, "parameters": parameters, "event_id": 3}})
}

#[test]
fn a_call_is_run_and_answered_with_a_string_result() {
    let mut b = elevenlabs();
    let out = feed(&mut b, &call("t1", "echo", json!({"text": "hi"})), 0, true);
    assert_eq!(
        out.runs,
        vec![("t1".into(), "echo".into(), json!({"text": "hi"}))]
    );
    b.finish("t1", Returned::Value(json!({"rows": [1, 2]})), at(9));
    let out = drain(&mut b);
    assert_eq!(
        out.sent,
        vec![
            json!({"type": "client_tool_result", "tool_call_id": "t1", "result": "{\"rows\":[1,2]}", "is_error": false})
        ]
    );
}

#[test]
fn errors_are_answered_with_is_error_and_no_error_type() {
    let mut b = elevenlabs();
    let out = feed(&mut b, &call("t1", "nope", json!({})), 0, true);
    let f = &out.sent[0];
    assert_eq!(f["is_error"], json!(true));
    assert!(f.get("error_type").is_none());
    assert!(f["result"]
        .as_str()
        .unwrap()
        .starts_with("Unknown tool \"nope\""));
    feed(&mut b, &call("t2", "echo", json!({"text": "a"})), 0, true);
    b.finish("t2", Returned::Threw("the cart is gone".into()), at(1));
    assert_eq!(drain(&mut b).sent[0]["result"], json!("the cart is gone"));
}

#[test]
fn every_call_is_answered_even_a_tool_declared_without_expects_response() {
    let mut b = elevenlabs();
    feed(&mut b, &call("q", "quiet", json!({})), 0, true);
    b.finish("q", Returned::Nothing, at(1));
    let out = drain(&mut b);
    assert_eq!(out.sent[0]["result"], json!("Done."));
    assert!(matches!(
        &out.events[0],
        WsCallEvent::Answered { sent: true, .. }
    ));
}

#[test]
fn a_result_over_65536_characters_is_cut_with_a_note() {
    let mut b = elevenlabs();
    feed(&mut b, &call("t1", "echo", json!({"text": "a"})), 0, true);
    b.finish("t1", Returned::text("ß".repeat(70_000)), at(1));
    let result = drain(&mut b).sent[0]["result"].as_str().unwrap().to_owned();
    assert!(result.chars().count() <= 65_536);
    assert!(
        result.contains("[cut: "),
        "{}",
        &result[result.len() - 80..]
    );
}

#[test]
fn a_call_sent_twice_runs_once() {
    let mut b = elevenlabs();
    assert_eq!(
        feed(&mut b, &call("t1", "echo", json!({"text": "a"})), 0, true)
            .runs
            .len(),
        1
    );
    let again = feed(&mut b, &call("t1", "echo", json!({"text": "a"})), 1, true);
    assert!(again.runs.is_empty() && again.events.is_empty());
    b.finish("t1", Returned::Nothing, at(2));
    assert_eq!(drain(&mut b).sent.len(), 1);
}

#[test]
fn closing_mid_call_aborts_and_nothing_is_sent_after() {
    let mut b = elevenlabs();
    feed(&mut b, &call("t1", "echo", json!({"text": "a"})), 0, true);
    b.closed(at(5));
    let out = drain(&mut b);
    assert_eq!(out.aborts, ["t1"]);
    assert_eq!(out.event_types(), ["failed"]);
    b.finish("t1", Returned::Nothing, at(6));
    assert!(drain(&mut b).sent.is_empty());
}

#[test]
fn malformed_calls_are_reported_and_answered_when_the_id_is_readable() {
    let mut b = elevenlabs();
    let out = feed(
        &mut b,
        &json!({"type": "client_tool_call", "client_tool_call": "x"}),
        0,
        true,
    );
    assert_eq!(
        out.events,
        vec![WsCallEvent::Malformed {
            call_id: None,
            reason: "client_tool_call is missing or not an object".into()
        }]
    );
    assert!(out.sent.is_empty());
    let out = feed(
        &mut b,
        &json!({"type": "client_tool_call", "client_tool_call": {"tool_call_id": "t9"}}),
        1,
        true,
    );
    assert_eq!(out.event_types(), ["malformed", "answered"]);
    assert_eq!(out.sent[0]["tool_call_id"], json!("t9"));
    assert_eq!(out.sent[0]["is_error"], json!(true));
    assert!(out.sent[0]["result"]
        .as_str()
        .unwrap()
        .contains("client_tool_call.tool_name is missing"));
}

#[test]
fn other_frames_are_ignored() {
    let mut b = elevenlabs();
    for f in [
        json!({"type": "audio", "audio_event": {"audio_base_64": "AAAA"}}),
        json!({"type": "ping", "ping_event": {"event_id": 1}}),
        json!({"type": "agent_response", "agent_response_event": {"agent_response": "client_tool_call"}}),
    ] {
        assert!(feed(&mut b, &f, 0, false).sent.is_empty());
    }
}

#[test]
fn declarations_are_client_tools() {
    let d = elevenlabs().declarations();
    assert_eq!(d[0]["type"], json!("client"));
    assert_eq!(d[0]["name"], json!("echo"));
    assert_eq!(d[3]["expects_response"], json!(false));
}
