//! The JSON shapes of what the app is told: the browser shell hands `Status`, `CallEvent` and
//! errors to JS as plain objects, so their spelling is part of the API (`src/client.rs` types).

use client_tools_core::engine::{CallEvent, EngineError, EngineErrorKind, LeftBy, Status};
use client_tools_core::time::Duration;
use serde_json::{json, to_value};

#[test]
fn status_serializes_with_a_type_tag_and_camel_case_fields() {
    let cases = [
        (
            Status::Registered {
                id: "cli_1".into(),
                name: "web-2".into(),
                expires_at: None,
            },
            json!({"type": "registered", "id": "cli_1", "name": "web-2", "expiresAt": null}),
        ),
        (
            Status::Reregistered {
                id: "cli_2".into(),
                name: "web".into(),
                expires_at: Some("2026-11-29T12:01:00Z".into()),
            },
            json!({"type": "reregistered", "id": "cli_2", "name": "web",
                   "expiresAt": "2026-11-29T12:01:00Z"}),
        ),
        (Status::Lapsed, json!({"type": "lapsed"})),
        (Status::StreamOpen, json!({"type": "streamOpen"})),
        (
            Status::StreamReconnecting {
                attempt: 2,
                delay: Duration::from_ms(1500),
            },
            json!({"type": "streamReconnecting", "attempt": 2, "delayMs": 1500}),
        ),
        (
            Status::Left { by: LeftBy::App },
            json!({"type": "left", "by": "app"}),
        ),
        (
            Status::Left { by: LeftBy::Hidden },
            json!({"type": "left", "by": "hidden"}),
        ),
        (
            Status::Left {
                by: LeftBy::PageHide,
            },
            json!({"type": "left", "by": "pageHide"}),
        ),
        (
            Status::Error {
                message: "bad token".into(),
                fatal: true,
                kind: Some(EngineErrorKind::Unauthorized),
            },
            json!({"type": "error", "message": "bad token", "fatal": true,
                   "kind": "unauthorized"}),
        ),
        (
            Status::Error {
                message: "not registered within 1500 ms: POST /x answered 503".into(),
                fatal: true,
                kind: Some(EngineErrorKind::RegisterTimeout),
            },
            json!({"type": "error", "message": "not registered within 1500 ms: POST /x answered 503",
                   "fatal": true, "kind": "register_timeout"}),
        ),
        (
            Status::Error {
                message: "ping refused (400): bad".into(),
                fatal: false,
                kind: None,
            },
            json!({"type": "error", "message": "ping refused (400): bad", "fatal": false}),
        ),
    ];
    for (status, want) in cases {
        assert_eq!(to_value(&status).unwrap(), want);
    }
}

#[test]
fn call_event_serializes_with_a_type_tag_and_camel_case_fields() {
    let cases = [
        (
            CallEvent::Dispatched {
                call_id: "c".into(),
                tool: "t".into(),
                run_id: "r".into(),
            },
            json!({"type": "dispatched", "callId": "c", "tool": "t", "runId": "r"}),
        ),
        (
            CallEvent::Acked {
                call_id: "c".into(),
                tool: "t".into(),
                elapsed: Duration::from_ms(12),
            },
            json!({"type": "acked", "callId": "c", "tool": "t", "elapsedMs": 12}),
        ),
        (
            CallEvent::Answered {
                call_id: "c".into(),
                tool: "t".into(),
                is_error: true,
                elapsed: Duration::from_ms(40),
            },
            json!({"type": "answered", "callId": "c", "tool": "t", "isError": true, "elapsedMs": 40}),
        ),
        (
            CallEvent::Failed {
                call_id: "c".into(),
                tool: "t".into(),
                reason: "run_gone".into(),
                elapsed: Duration::from_ms(9),
            },
            json!({"type": "failed", "callId": "c", "tool": "t", "reason": "run_gone", "elapsedMs": 9}),
        ),
    ];
    for (event, want) in cases {
        assert_eq!(to_value(&event).unwrap(), want);
    }
}

#[test]
fn engine_error_serializes_kind_and_message() {
    let e = EngineError {
        kind: EngineErrorKind::NotRegistered,
        message: "the client left".into(),
    };
    assert_eq!(
        to_value(&e).unwrap(),
        json!({"kind": "left", "message": "the client left"})
    );
    assert_eq!(e.to_string(), "the client left");
}
