//! The JSON Schema argument validator: keywords, paths, messages, the declaration check and
//! the caps. (Every keyword's meaning is proven by the official suite: schema_suite.rs.)

use client_tools_core::schema::{check, validate, validate_with, Options, MAX_DEPTH, MAX_STEPS};
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
    // patternProperties covers names too.
    let patterned = json!({"patternProperties": {"^x": {}}, "additionalProperties": false});
    ok(patterned.clone(), json!({"x1": 1}));
    assert_eq!(
        err(patterned, json!({"y": 1})),
        "arguments: the property \"y\" is not allowed; allowed: names matching ^x (additionalProperties)"
    );
}

#[test]
fn schema_items_schema_and_by_position() {
    ok(json!({"items": {"type": "integer"}}), json!([1, 2, 3]));
    assert_eq!(
        err(json!({"items": {"type": "integer"}}), json!([1, "2"])),
        "arguments[1]: string \"2\", needs integer (type)"
    );
    let tuple = json!({"prefixItems": [{"type": "string"}, {"type": "number"}], "items": false});
    ok(tuple.clone(), json!(["a", 1]));
    assert_eq!(
        err(tuple.clone(), json!([1])),
        "arguments[0]: integer 1, needs string (type)"
    );
    assert_eq!(
        err(tuple, json!(["a", 1, null])),
        "arguments: 3 items, at most 2 (items)"
    );
    // Draft-07's meanings when $schema says so: items as an array, additionalItems.
    let draft7 = json!({"$schema": "http://json-schema.org/draft-07/schema#",
        "items": [{"type": "string"}], "additionalItems": {"type": "integer"}});
    ok(draft7.clone(), json!(["a", 1, 2]));
    assert_eq!(
        err(draft7, json!(["a", "b"])),
        "arguments[1]: string \"b\", needs integer (type)"
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
fn schema_pattern_says_what_does_not_match() {
    let schema =
        json!({"type": "object", "properties": {"id": {"type": "string", "pattern": "^[0-9]+$"}}});
    ok(schema.clone(), json!({"id": "123"}));
    assert_eq!(
        err(schema, json!({"id": "1; DROP TABLE"})),
        "arguments.id: \"1; DROP TABLE\" does not match ^[0-9]+$ (pattern)"
    );
    // ECMA-262, not anchored; the u flag (a code point is one character).
    ok(json!({"pattern": "b"}), json!("abc"));
    ok(json!({"pattern": "^.$"}), json!("😀"));
    ok(json!({"pattern": "^\\p{Lu}"}), json!("Émile"));
}

#[test]
fn schema_any_of_and_one_of_say_which_alternatives_failed() {
    assert_eq!(
        err(
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
            json!(1)
        ),
        "arguments: matches none of the 2 alternatives: [0] integer 1, needs string (type); \
         [1] integer 1, needs null (type) (anyOf)"
    );
    assert_eq!(
        err(
            json!({"oneOf": [{"type": "integer"}, {"minimum": 0}]}),
            json!(3)
        ),
        "arguments: matches 2 of the alternatives ([0], [1]), needs exactly one (oneOf)"
    );
    // Bounded: four reasons at most, each cut short.
    let many: Vec<_> = (0..50)
        .map(|i| json!({"const": "x".repeat(300 + i)}))
        .collect();
    let message = err(json!({"anyOf": many}), json!("y"));
    assert!(message.ends_with("; and 46 more (anyOf)"), "{message}");
    assert!(
        message.chars().count() < 1000,
        "{} characters",
        message.len()
    );
    // A deeper failure keeps its path.
    assert_eq!(
        err(
            json!({"anyOf": [{"properties": {"a": {"type": "string"}}}, {"required": ["b"]}]}),
            json!({"a": 1})
        ),
        "arguments: matches none of the 2 alternatives: [0] arguments.a: integer 1, needs \
         string (type); [1] the property \"b\" is required but missing (required) (anyOf)"
    );
}

#[test]
fn schema_counts_written_as_decimals_and_code_points() {
    assert_eq!(
        err(json!({"minLength": 2.0}), json!("a")),
        "arguments: 1 characters, needs at least 2 (minLength)"
    );
    ok(json!({"maxLength": 1}), json!("😀"));
}

#[test]
fn schema_formats_are_annotations_unless_asserted() {
    let schema = json!({"properties": {"at": {"format": "date-time"}, "ip": {"format": "ipv4"}}});
    ok(schema.clone(), json!({"at": "yesterday"}));
    let assert = Options {
        assert_formats: true,
        ..Options::default()
    };
    let run = |v| validate_with(&schema, &v, &assert).map_err(|e| e.to_string());
    assert_eq!(
        run(json!({"at": "2026-02-29T10:00:00Z"})).unwrap_err(),
        "arguments.at: \"2026-02-29T10:00:00Z\" is not a valid date-time (format)"
    );
    assert!(run(json!({"at": "2028-02-29T10:00:00.5+01:00", "ip": "10.0.0.1"})).is_ok());
    assert_eq!(
        run(json!({"ip": "10.0.0.01"})).unwrap_err(),
        "arguments.ip: \"10.0.0.01\" is not a valid ipv4 (format)"
    );
    for (format, good, bad) in [
        ("date", "2026-12-31", "2026-13-01"),
        ("time", "23:59:60Z", "23:58:60Z"),
        ("email", "a.b@example.com", "a..b@example.com"),
        ("uri", "https://example.com/a?b#c", "//example.com"),
        (
            "uuid",
            "2eb8aa08-aa98-11ea-b4aa-73b441d16380",
            "2eb8aa08-aa98-11ea-b4aa-73b441d1638",
        ),
        ("ipv6", "::1", "12345::"),
    ] {
        let s = json!({"format": format});
        assert!(
            validate_with(&s, &json!(good), &assert).is_ok(),
            "{format} {good}"
        );
        assert!(
            validate_with(&s, &json!(bad), &assert).is_err(),
            "{format} {bad}"
        );
    }
}

#[test]
fn schema_check_refuses_what_is_not_json_schema_naming_the_path() {
    let fault = |s: Value| check(&s, &Options::default()).unwrap_err().to_string();
    assert_eq!(
        fault(json!({"type": "strin"})),
        "type: \"strin\" is not a type name"
    );
    assert_eq!(
        fault(json!({"properties": {"id": {"pattern": "^[0-9+$"}}}))
            .split_once(": not")
            .map(|p| p.0),
        Some("properties.id.pattern")
    );
    assert_eq!(
        fault(json!({"properties": {"a": {"minLength": -1}}})),
        "properties.a.minLength: must be a non-negative integer"
    );
    assert_eq!(
        fault(json!({"$ref": "#/$defs/missing"})),
        "[\"$ref\"]: \"#/$defs/missing\" points nowhere in this schema (only references inside the tool's own schema are followed)"
    );
    assert!(
        fault(json!({"items": {"$ref": "https://example.com/other.json"}}))
            .starts_with("items[\"$ref\"]: ")
    );
    assert_eq!(
        fault(json!({"anyOf": []})),
        "anyOf: must be a non-empty array of schemas"
    );
    assert_eq!(
        fault(json!({"not": 5})),
        "not: a schema must be an object or a boolean, not integer"
    );
    assert!(check(
        &json!({"$defs": {"a": {"type": "string"}}, "$ref": "#/$defs/a"}),
        &Options::default()
    )
    .is_ok());
    ok(
        json!({"$defs": {"a": {"type": "string"}}, "$ref": "#/$defs/a"}),
        json!("x"),
    );
}

#[test]
fn schema_caps_depth_and_steps() {
    // A $ref loop that never moves into the value: the depth cap answers.
    let looped = json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"});
    assert_eq!(
        err(looped, json!(1)),
        format!(
            "arguments: schemas nested more than {MAX_DEPTH} deep while checking (depth limit)"
        )
    );
    // A hostile array against uniqueItems: the step cap answers.
    let items: Vec<Value> = (0..5000).map(|i| json!(i)).collect();
    assert_eq!(
        err(json!({"uniqueItems": true}), Value::Array(items)),
        format!("arguments: checking the arguments took more than {MAX_STEPS} steps (step limit)")
    );
    // Caps are not turned into a success by not.
    let looped = json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "not": {"$ref": "#/$defs/a"}});
    assert!(err(looped, json!(1)).ends_with("(depth limit)"));
}

#[test]
fn schema_redos_pattern_from_the_app_and_a_hostile_50_kb_string() {
    // A catastrophic-backtracking pattern (exponential on "aaaa…!") and a 50 KB string.
    let schema = json!({"properties": {"name": {"type": "string", "pattern": "^(a+)+$"}}});
    let hostile = format!("{}!", "a".repeat(50 * 1024));
    let started = std::time::Instant::now();
    let message = err(schema.clone(), json!({"name": hostile}));
    println!(
        "answered in {} ms: {message}",
        started.elapsed().as_millis()
    );
    assert_eq!(
        message,
        "arguments.name: a string of 51201 characters is more than the pattern ^(a+)+$ is run \
         on: at most 19 (it can backtrack exponentially; at most 20000000 steps for the \
         patterns of one call) (pattern limit)"
    );
    // Short strings are still run by the engine.
    ok(schema.clone(), json!({"name": "aaaa"}));
    assert!(err(schema, json!({"name": "aaaa!"})).ends_with("does not match ^(a+)+$ (pattern)"));
    // An anchored linear pattern runs on the whole 50 KB string.
    ok(
        json!({"pattern": "^[a!]+$"}),
        json!(format!("{}!", "a".repeat(50 * 1024))),
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

#[test]
fn schema_refs_into_the_documents_it_is_given_and_nothing_else() {
    let address = json!({
        "$id": "https://example.com/schemas/address",
        "type": "object",
        "required": ["city"],
        "properties": {"city": {"$ref": "#/$defs/name"}},
        "$defs": {"name": {"type": "string", "minLength": 1}}
    });
    // Known at one URI, its $id naming another: both find it, and its own refs resolve
    // against its $id.
    let documents = vec![("https://example.com/address.json".to_string(), address)];
    let options = Options {
        documents: &documents,
        ..Options::default()
    };
    for uri in [
        "https://example.com/address.json",
        "https://example.com/schemas/address",
    ] {
        let schema = json!({"properties": {"home": {"$ref": uri}}});
        check(&schema, &options).unwrap();
        assert!(validate_with(&schema, &json!({"home": {"city": "Oslo"}}), &options).is_ok());
        assert_eq!(
            validate_with(&schema, &json!({"home": {"city": ""}}), &options)
                .unwrap_err()
                .to_string(),
            "arguments.home.city: 0 characters, needs at least 1 (minLength)"
        );
    }
    // Without the document the same schema is refused when declared: nothing is fetched.
    let schema = json!({"properties": {"home": {"$ref": "https://example.com/address.json"}}});
    assert!(check(&schema, &Options::default())
        .unwrap_err()
        .to_string()
        .starts_with(
            "properties.home[\"$ref\"]: \"https://example.com/address.json\" points nowhere"
        ));
    // A document is checked too, named by its URI.
    let bad = vec![(
        "https://example.com/bad.json".to_string(),
        json!({"minLength": -1}),
    )];
    let with_bad = Options {
        documents: &bad,
        ..Options::default()
    };
    assert_eq!(
        check(&json!({}), &with_bad).unwrap_err().to_string(),
        "documents[\"https://example.com/bad.json\"].minLength: must be a non-negative integer"
    );
    // A draft-07 document is read by draft-07's meanings from a 2020-12 schema.
    let tuple = vec![(
        "https://example.com/pair.json".to_string(),
        json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "items": [{"type": "string"}], "additionalItems": false}),
    )];
    let with_tuple = Options {
        documents: &tuple,
        ..Options::default()
    };
    let schema = json!({"$ref": "https://example.com/pair.json"});
    check(&schema, &with_tuple).unwrap();
    assert!(validate_with(&schema, &json!(["a"]), &with_tuple).is_ok());
    assert_eq!(
        validate_with(&schema, &json!(["a", "b"]), &with_tuple)
            .unwrap_err()
            .to_string(),
        "arguments: 2 items, at most 1 (additionalItems)"
    );
}
