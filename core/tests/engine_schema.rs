//! The JSON Schema argument validator: each supported keyword, paths, and what it ignores.

use client_tools_core::schema::validate;
use serde_json::{json, Value};

fn err(schema: Value, value: Value) -> String {
    validate(&schema, &value)
        .expect_err("should be refused")
        .to_string()
}

fn ok(schema: Value, value: Value) {
    if let Err(e) = validate(&schema, &value) {
        panic!("{value} against {schema}: {e}");
    }
}

#[test]
fn schema_type_single_and_arrays_of_types() {
    ok(json!({"type": "string"}), json!("a"));
    ok(json!({"type": ["string", "null"]}), json!(null));
    ok(json!({"type": "number"}), json!(3));
    ok(json!({"type": "integer"}), json!(3.0));
    assert_eq!(
        err(json!({"type": "integer"}), json!(3.5)),
        "arguments: number 3.5, needs integer (type)"
    );
    assert_eq!(
        err(json!({"type": ["string", "null"]}), json!(1)),
        "arguments: integer 1, needs string or null (type)"
    );
    assert_eq!(
        err(json!({"type": "object"}), json!([1])),
        "arguments: an array, needs object (type)"
    );
    ok(json!({"type": "boolean"}), json!(false));
}

#[test]
fn schema_properties_required_and_paths() {
    let schema = json!({"type": "object",
        "properties": {"rows": {"type": "array", "items": {"type": "object",
            "properties": {"id": {"type": "string"}}, "required": ["id"]}}},
        "required": ["rows"]});
    ok(schema.clone(), json!({"rows": [{"id": "a"}]}));
    assert_eq!(
        err(schema.clone(), json!({})),
        "arguments: the property \"rows\" is required but missing (required)"
    );
    assert_eq!(
        err(
            schema.clone(),
            json!({"rows": [{"id": "a"}, {"id": "b"}, {"id": 3}]})
        ),
        "arguments.rows[2].id: integer 3, needs string (type)"
    );
    assert_eq!(
        err(schema, json!({"rows": [{}]})),
        "arguments.rows[0]: the property \"id\" is required but missing (required)"
    );
    // Odd keys are quoted in the path.
    assert_eq!(
        err(
            json!({"properties": {"a b": {"type": "string"}}}),
            json!({"a b": 1})
        ),
        "arguments[\"a b\"]: integer 1, needs string (type)"
    );
}

#[test]
fn schema_enum_and_const() {
    ok(json!({"enum": ["red", "green", 1]}), json!(1.0));
    assert_eq!(
        err(json!({"enum": ["red", "green"]}), json!("blue")),
        "arguments: \"blue\" is not one of \"red\", \"green\" (enum)"
    );
    ok(json!({"const": {"a": [1, 2]}}), json!({"a": [1.0, 2]}));
    assert_eq!(
        err(json!({"const": 5}), json!(6)),
        "arguments: 6 is not 5 (const)"
    );
}

#[test]
fn schema_additional_properties_false_or_schema() {
    let closed = json!({"properties": {"a": {}}, "additionalProperties": false});
    ok(closed.clone(), json!({"a": 1}));
    assert_eq!(
        err(closed, json!({"a": 1, "b": 2})),
        "arguments: the property \"b\" is not allowed; allowed: a (additionalProperties)"
    );
    let typed = json!({"properties": {"a": {}}, "additionalProperties": {"type": "number"}});
    ok(typed.clone(), json!({"a": "x", "b": 2}));
    assert_eq!(
        err(typed, json!({"b": "2"})),
        "arguments.b: string \"2\", needs number (type)"
    );
    // With patternProperties (not supported), extras are not judged.
    ok(
        json!({"patternProperties": {"^x": {}}, "additionalProperties": false}),
        json!({"x1": 1}),
    );
}

#[test]
fn schema_items_schema_and_by_position() {
    ok(json!({"items": {"type": "integer"}}), json!([1, 2, 3]));
    assert_eq!(
        err(json!({"items": {"type": "integer"}}), json!([1, "2"])),
        "arguments[1]: string \"2\", needs integer (type)"
    );
    let tuple = json!({"items": [{"type": "string"}, {"type": "number"}]});
    ok(tuple.clone(), json!(["a", 1, null]));
    assert_eq!(
        err(tuple, json!([1])),
        "arguments[0]: integer 1, needs string (type)"
    );
}

#[test]
fn schema_minimum_maximum_and_exclusive() {
    let s = json!({"minimum": 1, "maximum": 10});
    ok(s.clone(), json!(1));
    ok(s.clone(), json!(10.0));
    assert_eq!(
        err(s.clone(), json!(0.5)),
        "arguments: 0.5 is less than the minimum 1 (minimum)"
    );
    assert_eq!(
        err(s, json!(11)),
        "arguments: 11 is more than the maximum 10 (maximum)"
    );
    assert_eq!(
        err(json!({"exclusiveMinimum": 0}), json!(0)),
        "arguments: 0 must be more than 0 (exclusiveMinimum)"
    );
    assert_eq!(
        err(json!({"exclusiveMaximum": 1}), json!(1)),
        "arguments: 1 must be less than 1 (exclusiveMaximum)"
    );
    // Bounds apply to numbers only.
    ok(json!({"minimum": 5}), json!("3"));
}

#[test]
fn schema_string_length_counts_characters() {
    let s = json!({"minLength": 2, "maxLength": 3});
    ok(s.clone(), json!("日本語"));
    assert_eq!(
        err(s.clone(), json!("日")),
        "arguments: 1 characters, needs at least 2 (minLength)"
    );
    assert_eq!(
        err(s, json!("日本語!")),
        "arguments: 4 characters, at most 3 (maxLength)"
    );
}

#[test]
fn schema_array_item_counts() {
    let s = json!({"minItems": 1, "maxItems": 2});
    ok(s.clone(), json!([1]));
    assert_eq!(
        err(s.clone(), json!([])),
        "arguments: 0 items, needs at least 1 (minItems)"
    );
    assert_eq!(
        err(s, json!([1, 2, 3])),
        "arguments: 3 items, at most 2 (maxItems)"
    );
}

#[test]
fn schema_unsupported_and_malformed_keywords_are_ignored() {
    ok(
        json!({"pattern": "^a$", "format": "email", "oneOf": [{"type": "string"}]}),
        json!(5),
    );
    ok(
        json!({"type": 5, "required": "a", "minimum": "x", "properties": []}),
        json!({}),
    );
    ok(json!({"type": "no-such-type"}), json!(1));
    ok(json!(true), json!({"anything": 1}));
    assert_eq!(
        err(json!(false), json!(1)),
        "arguments: no value is allowed here (false)"
    );
    assert_eq!(
        err(json!({"properties": {"a": false}}), json!({"a": 1})),
        "arguments.a: no value is allowed here (false)"
    );
}

#[test]
fn schema_error_has_path_and_rule_fields() {
    let e = validate(
        &json!({"properties": {"n": {"maximum": 3}}}),
        &json!({"n": 4}),
    )
    .unwrap_err();
    assert_eq!((e.path.as_str(), e.rule), ("arguments.n", "maximum"));
}
