//! The tool registry: the agent-tools name rule, duplicates, filtered/without, each export's
//! exact JSON, and a handler's result as the agent-tools `ToolResult`.

use client_tools_core::adapters::registry::{check_name, tool_result, Registry};
use client_tools_core::calls::{Answer, ErrorKind, Returned, ToolDef};
use client_tools_core::protocol::validate::ErrorKind as RuleKind;
use client_tools_core::protocol::ToolSpec;
use serde_json::{json, Value};

fn def(name: &str, description: &str, parameters: Option<Value>) -> ToolDef {
    ToolDef::new(ToolSpec {
        name: name.into(),
        description: description.into(),
        parameters,
    })
}

fn two() -> Registry<u32> {
    let mut r = Registry::new();
    let row = json!({"type": "object", "properties": {"row_id": {"type": "string"}}, "required": ["row_id"]});
    r.register(
        "tools[0]",
        def("highlight_row", "Highlight a row.", Some(row)),
        1,
    )
    .unwrap();
    r.register(
        "tools[1]",
        def("describe_form", "Describe the form.", None),
        2,
    )
    .unwrap();
    r
}

#[test]
fn names_follow_the_agent_tools_rule_and_at_most_64_characters() {
    for ok in [
        "a",
        "_",
        "get_weather",
        "A1_b2",
        "_private",
        &"x".repeat(64),
    ] {
        assert_eq!(check_name("tools[0].name", ok), Ok(()), "{ok}");
    }
    let bad = [
        ("", RuleKind::Empty, "tools[0].name: empty, a tool name matches ^[a-zA-Z_][a-zA-Z0-9_]*$"),
        ("1st", RuleKind::BadCharacter, "tools[0].name: \"1st\": character '1' at position 0 breaks the tool name rule ^[a-zA-Z_][a-zA-Z0-9_]*$"),
        ("get-weather", RuleKind::BadCharacter, "tools[0].name: \"get-weather\": character '-' at position 3 breaks the tool name rule ^[a-zA-Z_][a-zA-Z0-9_]*$"),
        ("météo", RuleKind::BadCharacter, "tools[0].name: \"météo\": character 'é' at position 1 breaks the tool name rule ^[a-zA-Z_][a-zA-Z0-9_]*$"),
        ("a b", RuleKind::BadCharacter, "tools[0].name: \"a b\": character ' ' at position 1 breaks the tool name rule ^[a-zA-Z_][a-zA-Z0-9_]*$"),
    ];
    for (name, kind, message) in bad {
        let e = check_name("tools[0].name", name).unwrap_err();
        assert_eq!((e.kind, e.to_string().as_str()), (kind, message));
    }
    let e = check_name("tools[0].name", &"x".repeat(65)).unwrap_err();
    assert_eq!(
        (e.kind, e.to_string()),
        (
            RuleKind::TooLong,
            "tools[0].name: 65 characters, at most 64".to_owned()
        )
    );
}

#[test]
fn register_refuses_a_bad_name_a_duplicate_and_a_bad_definition_naming_the_rule() {
    let mut r = two();
    let e = r
        .register("tools[2]", def("highlight_row", "", None), 3)
        .unwrap_err();
    assert_eq!(e.kind, RuleKind::Duplicate);
    assert_eq!(
        e.to_string(),
        "tools[2].name: \"highlight_row\" is already registered; tool names are unique in a registry"
    );
    let e = r
        .register("tool", def("open-page", "", None), 3)
        .unwrap_err();
    assert_eq!(e.field, "tool.name");
    let e = r
        .register("tool", def("long", &"d".repeat(4097), None), 3)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "tool.description: 4097 characters, at most 4096"
    );
    let e = r
        .register("tool", def("arr", "", Some(json!([]))), 3)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "tool.parameters: must be a JSON Schema object, got array"
    );
    assert_eq!(
        r.names(),
        ["highlight_row", "describe_form"],
        "nothing refused was added"
    );
}

#[test]
fn has_get_names_filtered_and_without() {
    let r = two();
    assert!(r.has("highlight_row") && !r.has("Highlight_row"));
    assert_eq!(
        r.get("describe_form")
            .map(|(d, h)| (d.spec.name.as_str(), *h)),
        Some(("describe_form", 2))
    );
    assert!(r.get("nope").is_none());
    let only = r.filtered(&["describe_form".into(), "unknown".into()]);
    assert_eq!(only.names(), ["describe_form"]);
    assert_eq!(only.handlers(), [2]);
    assert_eq!(
        r.without(&["describe_form".into()]).names(),
        ["highlight_row"]
    );
    assert_eq!(r.without(&[]).names(), r.names());
    assert_eq!(
        r.names(),
        ["highlight_row", "describe_form"],
        "the original is unchanged"
    );
    assert_eq!(
        r.unknown("nope"),
        "Unknown tool \"nope\": the registry has highlight_row, describe_form."
    );
    assert_eq!(
        Registry::<u32>::new().unknown("nope"),
        "Unknown tool \"nope\": the registry has no tools."
    );
}

fn row() -> Value {
    json!({"type": "object", "properties": {"row_id": {"type": "string"}}, "required": ["row_id"]})
}

/// A tool without parameters exports an empty object schema.
fn empty() -> Value {
    json!({"type": "object", "properties": {}})
}

#[test]
fn to_openai_is_chat_completions_tools_exactly() {
    assert_eq!(
        serde_json::from_str::<Value>(&two().to_openai()).unwrap(),
        json!([
            {"type": "function", "function": {"name": "highlight_row", "description": "Highlight a row.", "parameters": row()}},
            {"type": "function", "function": {"name": "describe_form", "description": "Describe the form.", "parameters": empty()}},
        ])
    );
}

#[test]
fn to_openai_responses_is_responses_tools_exactly() {
    assert_eq!(
        serde_json::from_str::<Value>(&two().to_openai_responses()).unwrap(),
        json!([
            {"type": "function", "name": "highlight_row", "description": "Highlight a row.", "parameters": row()},
            {"type": "function", "name": "describe_form", "description": "Describe the form.", "parameters": empty()},
        ])
    );
}

#[test]
fn to_anthropic_is_messages_tools_exactly() {
    assert_eq!(
        serde_json::from_str::<Value>(&two().to_anthropic()).unwrap(),
        json!([
            {"name": "highlight_row", "description": "Highlight a row.", "input_schema": row()},
            {"name": "describe_form", "description": "Describe the form.", "input_schema": empty()},
        ])
    );
}

#[test]
fn to_mcp_is_tools_list_exactly() {
    assert_eq!(
        serde_json::from_str::<Value>(&two().to_mcp()).unwrap(),
        json!([
            {"name": "highlight_row", "description": "Highlight a row.", "inputSchema": row()},
            {"name": "describe_form", "description": "Describe the form.", "inputSchema": empty()},
        ])
    );
    assert_eq!(Registry::<u32>::new().to_mcp(), "[]");
}

#[test]
fn every_handler_result_maps_to_a_tool_result() {
    let cases: Vec<(Returned, Value)> = vec![
        (
            Returned::text("Row 42 is highlighted."),
            json!({"success": true, "data": "Row 42 is highlighted."}),
        ),
        (Returned::Nothing, json!({"success": true, "data": "Done."})),
        (
            Returned::Value(json!({"rows": [1, 2]})),
            json!({"success": true, "data": {"rows": [1, 2]}}),
        ),
        (
            Returned::Value(json!(7)),
            json!({"success": true, "data": 7}),
        ),
        (
            Returned::Value(json!({"isError": true, "text": "No such row."})),
            json!({"success": false, "data": null, "error": "No such row."}),
        ),
        (
            Returned::Value(json!({"isError": false, "text": "ok"})),
            json!({"success": true, "data": "ok"}),
        ),
        (
            Returned::Value(json!({"success": true, "data": {"city": "Paris"}})),
            json!({"success": true, "data": {"city": "Paris"}}),
        ),
        (
            Returned::Value(json!({"success": false, "data": null, "error": "API returned 503"})),
            json!({"success": false, "data": null, "error": "API returned 503"}),
        ),
        (
            Returned::Threw("boom".into()),
            json!({"success": false, "data": null, "error": "boom"}),
        ),
        (
            Returned::Value(json!({"success": "yes"})),
            json!({"success": false, "data": null, "error": "the handler returned a malformed ToolResult (success must be true or false, got a string); expected { success: boolean, data?, error?: string }"}),
        ),
    ];
    for (returned, want) in cases {
        let text = tool_result(Answer::from_returned(returned.clone()));
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap(),
            want,
            "{returned:?}"
        );
    }
    let timeout = Answer::error(ErrorKind::Timeout, "timed out after 30000 ms");
    assert_eq!(
        tool_result(timeout),
        r#"{"success":false,"data":null,"error":"timed out after 30000 ms"}"#
    );
    // JSON the shell wrote keeps its keys in the handler's order.
    let ordered = Answer::from_returned(Returned::Json(r#"{"z":1,"a":{"y":2,"b":3}}"#.into()));
    assert_eq!(
        tool_result(ordered),
        r#"{"success":true,"data":{"z":1,"a":{"y":2,"b":3}}}"#
    );
}
