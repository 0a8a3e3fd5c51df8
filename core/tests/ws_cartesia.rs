//! The Cartesia dialect of the WebSocket bridge (the websocket-client-tools seed):
//! `client_tool_call` in, `client_tool_result` out only when `expects_response`, results
//! within 4,096 UTF-8 bytes cut at a character boundary, `error_type` from the documented set.

mod ws_support;

use client_tools_core::adapters::ws::cartesia::{ERROR_TYPE_MAX_BYTES, RESULT_MAX_BYTES};
use client_tools_core::adapters::ws::{Dialect, RespondAfterResult, WsBridge, WsCallEvent};
use client_tools_core::calls::Returned;
use serde_json::{json, Value};
use ws_support::{at, bridge, drain, feed};

fn cartesia() -> WsBridge {
    bridge(Dialect::Cartesia, RespondAfterResult::Auto)
}

fn call(id: &str, tool: &str, parameters: Value, expects: bool) -> Value {
    json!({"type": "client_tool_call", "tool_call_id": id, "tool_name": tool,
           "parameters": parameters, "expects_response": expects})
}

/// Runs `echo` and finishes it with `returned`; the one frame sent.
fn answer_of(returned: Returned) -> Value {
    let mut b = cartesia();
    let out = feed(
        &mut b,
        &call("c1", "echo", json!({"text": "x"}), true),
        0,
        true,
    );
    assert_eq!(out.runs.len(), 1);
    b.finish("c1", returned, at(5));
    let out = drain(&mut b);
    assert_eq!(out.sent.len(), 1, "{out:?}");
    out.sent[0].clone()
}

#[test]
fn a_call_runs_its_handler_with_the_checked_parameters_and_is_answered_once() {
    let mut b = cartesia();
    let out = feed(
        &mut b,
        &call("c1", "echo", json!({"text": "hi"}), true),
        0,
        true,
    );
    assert_eq!(
        out.runs,
        vec![("c1".into(), "echo".into(), json!({"text": "hi"}))]
    );
    assert!(out.sent.is_empty());
    b.finish("c1", Returned::text("said hi"), at(40));
    let out = drain(&mut b);
    assert_eq!(
        out.sent,
        vec![
            json!({"type": "client_tool_result", "tool_call_id": "c1", "result": "said hi", "is_error": false})
        ]
    );
    assert_eq!(
        out.events,
        vec![WsCallEvent::Answered {
            call_id: "c1".into(),
            tool: "echo".into(),
            is_error: false,
            elapsed_ms: 40,
            sent: true
        }]
    );
    b.finish("c1", Returned::text("again"), at(50));
    assert!(
        drain(&mut b).sent.is_empty(),
        "a second finish sends nothing"
    );
}

#[test]
fn an_object_result_is_sent_as_a_json_string_never_as_an_object() {
    let frame = answer_of(Returned::Value(json!({"opened": true, "cart_id": "7"})));
    assert_eq!(frame["result"], json!(r#"{"cart_id":"7","opened":true}"#));
    let frame = answer_of(Returned::Nothing);
    assert_eq!(frame["result"], json!("Done."));
}

#[test]
fn a_result_of_exactly_4096_bytes_of_multibyte_text_is_sent_whole() {
    for unit in ["é", "日", "😀", "a"] {
        // ASCII padding in front, so the last character ends exactly at the edge.
        let pad = "a".repeat(RESULT_MAX_BYTES % unit.len());
        let text = pad + &unit.repeat(RESULT_MAX_BYTES / unit.len());
        assert_eq!(text.len(), RESULT_MAX_BYTES, "{unit}");
        let frame = answer_of(Returned::text(text.clone()));
        assert_eq!(frame["result"], json!(text), "{unit}");
        assert_eq!(frame["is_error"], json!(false));
    }
}

#[test]
fn a_result_one_byte_over_is_cut_at_a_character_boundary_with_a_note_within_4096_bytes() {
    for unit in ["é", "日", "😀"] {
        // One more ASCII byte in front than fits puts the 4,096 edge inside a character.
        let pad = "x".repeat(1 + RESULT_MAX_BYTES % unit.len());
        let text = pad + &unit.repeat(RESULT_MAX_BYTES / unit.len());
        assert_eq!(text.len(), RESULT_MAX_BYTES + 1);
        let frame = answer_of(Returned::text(text.clone()));
        let result = frame["result"].as_str().unwrap();
        assert!(
            result.len() <= RESULT_MAX_BYTES,
            "{unit}: {} bytes",
            result.len()
        );
        let (kept, note) = result.split_once("\n[cut: ").expect("a note");
        assert!(text.starts_with(kept), "{unit}: the kept part is a prefix");
        assert!(
            kept.len() > RESULT_MAX_BYTES - 80,
            "{unit}: only the note's room is cut"
        );
        assert!(
            note.ends_with("bytes; a result holds at most 4096]"),
            "{note}"
        );
        let cut: usize = note.split(' ').next().unwrap().parse().unwrap();
        assert_eq!(
            kept.len() + cut,
            text.len(),
            "the note counts the bytes cut"
        );
        assert_eq!(frame["is_error"], json!(false));
    }
}

#[test]
fn an_error_result_over_4096_bytes_is_cut_too_and_keeps_its_error_type() {
    let frame = answer_of(Returned::Threw("ü".repeat(5000)));
    assert!(frame["result"].as_str().unwrap().len() <= RESULT_MAX_BYTES);
    assert_eq!(frame["is_error"], json!(true));
    assert_eq!(frame["error_type"], json!("handler_error"));
}

#[test]
fn every_refusal_has_an_error_type_from_the_documented_set_within_256_bytes() {
    let mut b = cartesia();
    let mut frames = Vec::new();
    let mut feed_one = |b: &mut WsBridge, f: Value| frames.extend(feed(b, &f, 0, true).sent);
    feed_one(&mut b, call("u", "nope", json!({}), true));
    feed_one(&mut b, call("i", "echo", json!({"text": 5}), true));
    feed_one(&mut b, call("o1", "once", json!({}), true));
    feed_one(&mut b, call("o2", "once", json!({}), true));
    feed_one(&mut b, call("s", "slow", json!({}), true));
    b.handle_timeout(at(100));
    b.finish("o1", Returned::Threw("boom".into()), at(100));
    frames.extend(drain(&mut b).sent);
    let types: Vec<(&str, &str)> = frames
        .iter()
        .map(|f| {
            (
                f["tool_call_id"].as_str().unwrap(),
                f["error_type"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        types,
        [
            ("u", "unknown_tool"),
            ("i", "invalid_arguments"),
            ("o2", "too_many_calls"),
            ("s", "timeout"),
            ("o1", "handler_error")
        ]
    );
    for f in &frames {
        assert!(f["error_type"].as_str().unwrap().len() <= ERROR_TYPE_MAX_BYTES);
        assert_eq!(f["is_error"], json!(true));
    }
    assert!(frames[0]["result"]
        .as_str()
        .unwrap()
        .contains("echo, slow, once, quiet"));
    assert!(frames[1]["result"]
        .as_str()
        .unwrap()
        .contains("arguments.text"));
    assert_eq!(frames[3]["result"], json!("timed out after 100 ms"));
}

#[test]
fn expects_response_false_runs_the_handler_and_sends_nothing() {
    let mut b = cartesia();
    let out = feed(&mut b, &call("q", "quiet", json!({}), false), 0, true);
    assert_eq!(out.runs.len(), 1, "the handler still runs");
    b.finish("q", Returned::text("done"), at(3));
    let out = drain(&mut b);
    assert!(out.sent.is_empty(), "{:?}", out.sent);
    assert!(matches!(
        &out.events[0],
        WsCallEvent::Answered {
            sent: false,
            is_error: false,
            ..
        }
    ));
    // Refused without a handler, still nothing is sent.
    let out = feed(&mut b, &call("u", "nope", json!({}), false), 4, true);
    assert!(out.sent.is_empty());
    assert_eq!(out.event_types(), ["dispatched", "answered"]);
    // A timeout of a call that expects nothing sends nothing either.
    feed(&mut b, &call("s", "slow", json!({}), false), 10, true);
    b.handle_timeout(at(110));
    let out = drain(&mut b);
    assert_eq!(out.aborts, ["s"]);
    assert!(out.sent.is_empty());
}

#[test]
fn a_call_frame_sent_twice_runs_once_and_is_answered_once() {
    let mut b = cartesia();
    let f = call("c1", "echo", json!({"text": "a"}), true);
    assert_eq!(feed(&mut b, &f, 0, true).runs.len(), 1);
    let again = feed(&mut b, &f, 1, true);
    assert!(again.runs.is_empty() && again.sent.is_empty() && again.events.is_empty());
    b.finish("c1", Returned::text("ok"), at(2));
    assert_eq!(drain(&mut b).sent.len(), 1);
    let late = feed(&mut b, &f, 3, true);
    assert!(
        late.runs.is_empty() && late.sent.is_empty(),
        "after its answer too"
    );
    // A refused call sent twice is answered once.
    assert_eq!(
        feed(&mut b, &call("u", "nope", json!({}), true), 4, true)
            .sent
            .len(),
        1
    );
    assert!(feed(&mut b, &call("u", "nope", json!({}), true), 5, true)
        .sent
        .is_empty());
}

#[test]
fn closing_mid_call_aborts_the_handler_and_drops_its_result() {
    let mut b = cartesia();
    feed(
        &mut b,
        &call("c1", "echo", json!({"text": "a"}), true),
        0,
        true,
    );
    feed(&mut b, &call("c2", "once", json!({}), true), 1, true);
    b.closed(at(30));
    let out = drain(&mut b);
    assert_eq!(out.aborts, ["c1", "c2"]);
    assert_eq!(
        out.events[0],
        WsCallEvent::Failed {
            call_id: "c1".into(),
            tool: "echo".into(),
            reason: "closed".into(),
            elapsed_ms: 30
        }
    );
    b.finish("c1", Returned::text("late"), at(40));
    let out = drain(&mut b);
    assert!(out.sent.is_empty() && out.events.is_empty(), "{out:?}");
    assert_eq!(b.next_deadline(), None, "no timer left for an aborted call");
    // The next connection starts afresh: its `once` may run again.
    let out = feed(&mut b, &call("c3", "once", json!({}), true), 50, true);
    assert_eq!(out.runs.len(), 1);
    assert!(
        matches!(&out.events[0], WsCallEvent::Dispatched { run_id, .. } if run_id == "connection-2")
    );
}

#[test]
fn a_timed_out_call_is_answered_once_and_its_late_result_dropped() {
    let mut b = cartesia();
    feed(&mut b, &call("s", "slow", json!({}), true), 0, true);
    assert_eq!(b.next_deadline(), Some(at(100)));
    b.handle_timeout(at(99));
    assert!(drain(&mut b).sent.is_empty());
    b.handle_timeout(at(100));
    let out = drain(&mut b);
    assert_eq!(out.aborts, ["s"]);
    assert_eq!(out.sent[0]["error_type"], json!("timeout"));
    b.finish("s", Returned::text("too late"), at(150));
    assert!(drain(&mut b).sent.is_empty());
}

#[test]
fn frames_that_are_not_tool_calls_are_ignored() {
    let mut b = cartesia();
    for text in [
        "not json",
        "[1,2]",
        r#"{"type":"media_output","data":"AAAA"}"#,
        r#"{"type":"transcript","text":"client_tool_call"}"#,
        r#"{"type":"client_tool_result","tool_call_id":"x"}"#,
    ] {
        assert!(!ws_support::receive(&mut b, text, at(0)), "{text}");
        assert!(b.poll_output().is_none());
    }
}

#[test]
fn a_malformed_call_is_reported_and_answered_as_an_error_when_its_id_can_be_read() {
    let mut b = cartesia();
    let out = feed(
        &mut b,
        &json!({"type": "client_tool_call", "tool_call_id": "m1", "tool_name": 7}),
        0,
        true,
    );
    assert_eq!(out.event_types(), ["malformed", "answered"]);
    assert_eq!(
        out.events[0],
        WsCallEvent::Malformed {
            call_id: Some("m1".into()),
            reason: "tool_name is integer, not a string".into()
        }
    );
    assert_eq!(out.sent[0]["error_type"], json!("invalid_arguments"));
    assert!(out.sent[0]["result"]
        .as_str()
        .unwrap()
        .contains("tool_name is integer"));
    assert!(out.runs.is_empty());
    // Again: already answered.
    let again = feed(
        &mut b,
        &json!({"type": "client_tool_call", "tool_call_id": "m1"}),
        1,
        true,
    );
    assert!(again.sent.is_empty() && again.events.is_empty());
    // No id: reported, nothing can be answered.
    let out = feed(
        &mut b,
        &json!({"type": "client_tool_call", "tool_name": "echo"}),
        2,
        true,
    );
    assert_eq!(
        out.events,
        vec![WsCallEvent::Malformed {
            call_id: None,
            reason: "tool_call_id is missing".into()
        }]
    );
    assert!(out.sent.is_empty());
    // A flag of the wrong type: answered, since the server may be waiting.
    let out = feed(
        &mut b,
        &json!({"type": "client_tool_call", "tool_call_id": "m2", "tool_name": "echo", "expects_response": "yes"}),
        3,
        true,
    );
    assert_eq!(out.sent.len(), 1);
    // Parameters that are not an object are the runtime's invalid arguments.
    let out = feed(&mut b, &call("m3", "echo", json!([1]), true), 4, true);
    assert_eq!(out.sent[0]["error_type"], json!("invalid_arguments"));
}

#[test]
fn declarations_are_client_tools_with_expects_response() {
    let b = cartesia();
    let d = b.declarations();
    assert_eq!(
        d[0],
        json!({"type": "client", "name": "echo", "description": "The echo tool.",
               "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
               "expects_response": true})
    );
    assert_eq!(
        d[1]["parameters"],
        json!({"type": "object", "properties": {}})
    );
    assert_eq!(d[3]["expects_response"], json!(false));
    assert_eq!(d.as_array().unwrap().len(), 4);
}

#[test]
fn bad_tools_are_refused_naming_the_tool() {
    let mut b = cartesia();
    let mut t = ws_support::tool("ok", None);
    t.def.timeout_ms = Some(0);
    let e = b
        .set_tools(vec![ws_support::tool("a", None), t])
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "tools[1].timeoutMs: 0 ms, must be at least 1"
    );
    let e = b
        .set_tools(vec![
            ws_support::tool("a", None),
            ws_support::tool("a", None),
        ])
        .unwrap_err();
    assert!(e.to_string().starts_with("tools[1].name"), "{e}");
    assert_eq!(
        b.declarations().as_array().unwrap().len(),
        4,
        "the old tools stay"
    );
}
