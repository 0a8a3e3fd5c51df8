//! Turn-based client function tools: reading the calls of a runSession response in each of
//! its shapes, matching by displayName else the last segment of `tool`, admitting a turn
//! through the call runtime (once per id, argument checks, unknown tools) and writing
//! `toolResponses` with `id`, `tool` and `displayName` echoed.

use client_tools_core::adapters::turns::{
    admit, read_calls, tool_response, tool_responses, Step, TurnCall,
};
use client_tools_core::calls::{Answer, CallRuntime, Content, ErrorKind, Returned, ToolDef};
use client_tools_core::protocol::ToolSpec;
use client_tools_core::time::Instant;
use serde_json::{json, Value};

fn store_call() -> Value {
    json!({"id": "exec-1", "tool": "projects/p/locations/l/tools/get_nearest_store",
           "args": {"zip_code": "92031"}, "displayName": "get_nearest_store"})
}

fn tools() -> Vec<ToolDef> {
    let zip = json!({"type": "object", "properties": {"zip_code": {"type": "string"}}, "required": ["zip_code"]});
    vec![
        ToolDef::new(ToolSpec {
            name: "get_nearest_store".into(),
            description: String::new(),
            parameters: Some(zip),
        }),
        ToolDef::new(ToolSpec {
            name: "open_settings".into(),
            description: String::new(),
            parameters: None,
        }),
    ]
}

#[test]
fn calls_are_read_from_a_response_its_outputs_one_output_or_a_tool_calls_object() {
    let want = vec![TurnCall {
        id: "exec-1".into(),
        tool: "projects/p/locations/l/tools/get_nearest_store".into(),
        display_name: Some("get_nearest_store".into()),
        args: json!({"zip_code": "92031"}),
    }];
    let output = json!({"toolCalls": {"toolCalls": [store_call()]}, "turnCompleted": true});
    let shapes = [
        json!({"outputs": [{"text": "Let me look."}, output.clone()]}),
        json!([output.clone()]),
        output,
        json!({"toolCalls": [store_call()]}),
    ];
    for shape in shapes {
        assert_eq!(read_calls(&shape).as_ref(), Ok(&want), "{shape}");
    }
    assert_eq!(
        read_calls(&json!({"outputs": [{"text": "Bye.", "turnCompleted": true}]})),
        Ok(vec![])
    );
}

#[test]
fn an_unreadable_response_is_refused_naming_the_path() {
    let cases = [
        (json!("text"), "response: must be an object or an array of outputs, got string"),
        (json!({}), "response: has neither outputs nor toolCalls; pass a runSession response, its outputs or a toolCalls object"),
        (json!({"outputs": {}}), "outputs: must be an array, got object"),
        (json!({"outputs": [1]}), "outputs[0]: must be an object, got integer"),
        (json!({"outputs": [{"toolCalls": []}]}), "outputs[0].toolCalls: must be an object, got array"),
        (json!({"outputs": [{"toolCalls": {}}]}), "outputs[0].toolCalls.toolCalls: must be an array, got nothing"),
        (json!({"toolCalls": [{"tool": "t"}]}), "toolCalls[0].id: must be a string, got nothing"),
        (json!({"toolCalls": [{"id": "", "tool": "t"}]}), "toolCalls[0].id: must not be empty"),
        (json!({"toolCalls": [{"id": "a", "tool": 3}]}), "toolCalls[0].tool: must be a string, got integer"),
        (json!({"toolCalls": [{"id": "a", "tool": "t", "displayName": []}]}), "toolCalls[0].displayName: must be a string, got array"),
    ];
    for (response, message) in cases {
        assert_eq!(read_calls(&response), Err(message.to_owned()), "{response}");
    }
}

fn call(id: &str, tool: &str, display: Option<&str>, args: Value) -> TurnCall {
    TurnCall {
        id: id.into(),
        tool: tool.into(),
        display_name: display.map(Into::into),
        args,
    }
}

#[test]
fn a_call_is_matched_by_display_name_else_by_the_last_segment_of_tool() {
    let tools = tools();
    let name = |c: &TurnCall| c.matched(&tools).map(|d| d.spec.name.clone());
    assert_eq!(
        name(&call("1", "x/y/other", Some("open_settings"), Value::Null)).as_deref(),
        Some("open_settings")
    );
    assert_eq!(
        name(&call(
            "2",
            "projects/p/tools/open_settings",
            None,
            Value::Null
        ))
        .as_deref(),
        Some("open_settings")
    );
    assert_eq!(
        name(&call(
            "3",
            "projects/p/tools/open_settings",
            Some("Open settings"),
            Value::Null
        ))
        .as_deref(),
        Some("open_settings"),
        "a display name that is no tool's name"
    );
    assert_eq!(
        name(&call("4", "open_settings", None, Value::Null)).as_deref(),
        Some("open_settings")
    );
    assert_eq!(name(&call("5", "tools/nope", None, Value::Null)), None);
}

#[test]
fn a_turn_is_admitted_in_order_each_id_once_with_argument_checks_and_unknown_tools_listed() {
    let tools = tools();
    let mut rt = CallRuntime::new();
    let now = Instant::from_ms(1_000);
    let calls = vec![
        call(
            "a",
            "t/get_nearest_store",
            Some("get_nearest_store"),
            json!({"zip_code": "92031"}),
        ),
        call("b", "t/get_nearest_store", None, json!({"zip_code": 92031})),
        call("c", "t/launch_rockets", Some("launch_rockets"), json!({})),
        call("d", "t/open_settings", None, Value::Null),
    ];
    let steps = admit(&calls, &mut rt, &tools, "conversation", now);
    let Step::Run {
        tool,
        arguments,
        deadline,
    } = &steps[0]
    else {
        panic!("{:?}", steps[0])
    };
    assert_eq!(
        (
            tool.as_str(),
            Value::Object(arguments.clone()),
            deadline.as_ms()
        ),
        ("get_nearest_store", json!({"zip_code": "92031"}), 31_000)
    );
    let Step::Answered(Answer::Err {
        kind: ErrorKind::InvalidArguments,
        message,
    }) = &steps[1]
    else {
        panic!("{:?}", steps[1])
    };
    assert!(
        message.starts_with("Invalid arguments for \"get_nearest_store\": "),
        "{message}"
    );
    assert_eq!(
        steps[2],
        Step::Answered(Answer::error(
            ErrorKind::UnknownTool,
            "Unknown tool \"launch_rockets\": this client offers get_nearest_store, open_settings."
        ))
    );
    assert!(matches!(&steps[3], Step::Run { tool, .. } if tool == "open_settings"));
    // The session repeats the turn (a retried request): nothing runs or is answered again.
    let again = admit(&calls, &mut rt, &tools, "conversation", now);
    assert_eq!(again, vec![Step::Skip; 4]);
}

#[test]
fn responses_echo_id_tool_and_display_name_with_output_or_error() {
    let with = call(
        "exec-1",
        "projects/p/tools/get_nearest_store",
        Some("get_nearest_store"),
        Value::Null,
    );
    let without = call(
        "exec-2",
        "projects/p/tools/open_settings",
        None,
        Value::Null,
    );
    let store = Answer::from_returned(Returned::Value(
        json!({"success": true, "data": {"name": "Alibaba"}}),
    ));
    let text = Answer::from_returned(Returned::text("Settings are open."));
    let failed = Answer::from_returned(Returned::Threw("no settings screen".into()));
    assert_eq!(
        store,
        Answer::Ok(Content::json(&json!({"name": "Alibaba"})))
    );
    let text = tool_responses(&[
        tool_response(&with, store),
        tool_response(&without, text),
        tool_response(&without, failed),
    ]);
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!({"toolResponses": {"toolResponses": [
            {"id": "exec-1", "tool": "projects/p/tools/get_nearest_store", "displayName": "get_nearest_store", "response": {"output": {"name": "Alibaba"}}},
            {"id": "exec-2", "tool": "projects/p/tools/open_settings", "response": {"output": "Settings are open."}},
            {"id": "exec-2", "tool": "projects/p/tools/open_settings", "response": {"error": "no settings screen"}},
        ]}})
    );
    // JSON as the handler wrote it, keys in its order.
    let ordered = Answer::from_returned(Returned::Json(r#"{"z":1,"a":2}"#.into()));
    assert_eq!(
        tool_response(&with, ordered),
        r#"{"id":"exec-1","tool":"projects/p/tools/get_nearest_store","displayName":"get_nearest_store","response":{"output":{"z":1,"a":2}}}"#
    );
}
