//! A tool-call frame the JSON parser refuses whole (parameters or arguments nested more than
//! 127 levels, a number out of range such as `1e400`) still names its call: in every dialect
//! it is reported `malformed` and the call id is answered with an error saying why; it never
//! runs. Calls beside it in a Realtime `response.done` that can be read run as usual.

#[allow(dead_code)]
mod ws_support;

use client_tools_core::adapters::ws::{Dialect, RespondAfterResult, WsBridge, WsCallEvent};
use client_tools_core::calls::Returned;
use serde_json::{json, Value};
use ws_support::{at, bridge, drain, Out};

/// `n` objects, one inside the other.
fn nested(n: usize) -> String {
    "{\"a\":".repeat(n) + "1" + &"}".repeat(n)
}

/// What the parser refuses, and the words of its refusal the answer must carry.
fn refused() -> [(String, &'static str); 2] {
    [
        (nested(128), "recursion limit"),
        (
            r#"{"text":"x","n":-1e400}"#.to_owned(),
            "number out of range",
        ),
    ]
}

/// `frame` (JSON with the placeholder `"RAW"`) with `raw` in its place, fed to the bridge,
/// which must take it as a tool call.
fn feed_raw(b: &mut WsBridge, frame: Value, raw: &str, now: u64) -> Out {
    let text = frame.to_string().replace("\"RAW\"", raw);
    assert!(serde_json::from_str::<Value>(&text).is_err(), "{text}");
    assert!(ws_support::receive(b, &text, at(now)), "{text}");
    drain(b)
}

/// The one malformed event's call id and reason.
fn malformed(out: &Out) -> (Option<String>, String) {
    let found: Vec<_> = (out.events.iter())
        .filter_map(|e| match e {
            WsCallEvent::Malformed { call_id, reason } => Some((call_id.clone(), reason.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(found.len(), 1, "{out:?}");
    found[0].clone()
}

#[test]
fn cartesia_answers_a_call_whose_parameters_cannot_be_read() {
    let mut b = bridge(Dialect::Cartesia, RespondAfterResult::Auto);
    for (i, (raw, why)) in refused().into_iter().enumerate() {
        let id = format!("c{i}");
        let frame = json!({"type": "client_tool_call", "tool_call_id": id, "tool_name": "echo",
                           "parameters": "RAW", "expects_response": true});
        let out = feed_raw(&mut b, frame, &raw, i as u64);
        assert_eq!(out.event_types(), ["malformed", "answered"]);
        let (call_id, reason) = malformed(&out);
        assert_eq!(call_id.as_deref(), Some(id.as_str()));
        assert!(
            reason.starts_with("parameters: ") && reason.contains(why),
            "{reason}"
        );
        assert!(out.runs.is_empty());
        assert_eq!(out.sent.len(), 1);
        let sent = &out.sent[0];
        assert_eq!(sent["tool_call_id"], json!(id));
        assert_eq!(sent["is_error"], json!(true));
        assert_eq!(sent["error_type"], json!("invalid_arguments"));
        assert!(sent["result"].as_str().unwrap().contains(why), "{sent}");
    }
    // A call that expects no response is reported and answered, but nothing is sent.
    let frame = json!({"type": "client_tool_call", "tool_call_id": "q", "tool_name": "quiet",
                       "parameters": "RAW", "expects_response": false});
    let out = feed_raw(&mut b, frame, &nested(200), 9);
    assert_eq!(out.event_types(), ["malformed", "answered"]);
    assert!(out.sent.is_empty() && out.runs.is_empty());
    // The same frame again: answered the first time.
    let frame = json!({"type": "client_tool_call", "tool_call_id": "c0", "tool_name": "echo",
                       "parameters": "RAW"});
    let out = feed_raw(&mut b, frame, &nested(300), 10);
    assert!(out.events.is_empty() && out.sent.is_empty());
}

#[test]
fn elevenlabs_answers_a_call_whose_parameters_cannot_be_read() {
    let mut b = bridge(Dialect::ElevenLabs, RespondAfterResult::Auto);
    for (i, (raw, why)) in refused().into_iter().enumerate() {
        let id = format!("e{i}");
        let frame = json!({"type": "client_tool_call", "client_tool_call": {
            "tool_name": "echo", "tool_call_id": id, "parameters": "RAW", "event_id": 3}});
        let out = feed_raw(&mut b, frame, &raw, i as u64);
        assert_eq!(out.event_types(), ["malformed", "answered"]);
        let (call_id, reason) = malformed(&out);
        assert_eq!(call_id.as_deref(), Some(id.as_str()));
        assert!(
            reason.starts_with("client_tool_call.parameters: ") && reason.contains(why),
            "{reason}"
        );
        assert!(out.runs.is_empty());
        assert_eq!(out.sent.len(), 1);
        assert_eq!(out.sent[0]["tool_call_id"], json!(id));
        assert_eq!(out.sent[0]["is_error"], json!(true));
    }
    // What cannot be read is beside the call, which is whole: it runs.
    let frame = json!({"type": "client_tool_call", "debug": "RAW", "client_tool_call": {
        "tool_name": "echo", "tool_call_id": "e9", "parameters": {"text": "hi"}}});
    let out = feed_raw(&mut b, frame, &nested(200), 5);
    assert_eq!(
        out.runs,
        [("e9".to_owned(), "echo".to_owned(), json!({"text": "hi"}))]
    );
}

#[test]
fn openai_answers_a_call_whose_object_arguments_cannot_be_read() {
    let mut b = bridge(Dialect::OpenAiRealtime, RespondAfterResult::Auto);
    for (i, (raw, why)) in refused().into_iter().enumerate() {
        let id = format!("o{i}");
        let frame = json!({"type": "response.function_call_arguments.done", "call_id": id,
                           "name": "echo", "arguments": "RAW"});
        let out = feed_raw(&mut b, frame, &raw, i as u64);
        assert_eq!(out.event_types(), ["malformed", "answered"]);
        let (call_id, reason) = malformed(&out);
        assert_eq!(call_id.as_deref(), Some(id.as_str()));
        assert!(
            reason.starts_with("arguments: ") && reason.contains(why),
            "{reason}"
        );
        assert!(out.runs.is_empty());
        let item = &out.sent[0]["item"];
        assert_eq!(item["call_id"], json!(id));
        assert!(item["output"].as_str().unwrap().starts_with("Error: "));
    }
}

#[test]
fn openai_response_done_answers_the_unreadable_call_and_runs_the_readable_one() {
    let mut b = bridge(Dialect::OpenAiRealtime, RespondAfterResult::Auto);
    let frame = json!({"type": "response.done", "response": {"id": "r1", "status": "completed",
    "output": [
        {"type": "message", "content": []},
        {"type": "function_call", "call_id": "ok", "name": "echo", "arguments": "{\"text\":\"hi\"}"},
        {"type": "function_call", "call_id": "deep", "name": "echo", "arguments": "RAW"},
    ]}});
    let out = feed_raw(&mut b, frame, &nested(150), 0);
    assert_eq!(
        out.runs,
        [("ok".to_owned(), "echo".to_owned(), json!({"text": "hi"}))]
    );
    let (call_id, reason) = malformed(&out);
    assert_eq!(call_id.as_deref(), Some("deep"));
    assert!(
        reason.starts_with("response.output[2].arguments: ") && reason.contains("recursion limit"),
        "{reason}"
    );
    assert_eq!(out.sent.len(), 1, "no response.create while `ok` runs");
    assert_eq!(out.sent[0]["item"]["call_id"], json!("deep"));
    // The response ended: once `ok` is answered, the model is asked to speak again.
    b.finish("ok", Returned::text("said hi"), at(5));
    let out = drain(&mut b);
    let types: Vec<&str> = out
        .sent
        .iter()
        .map(|f| f["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["conversation.item.create", "response.create"]);
}
