//! The client routes as one step: method, path and body in, status and JSON out.

use client_tools_sessions::{Limits, SessionCore};
use serde_json::{json, Value};

fn id(prefix: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!("{prefix}_{}", N.fetch_add(1, Ordering::Relaxed))
}

fn body(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn register_ack_and_answer_through_the_routes() {
    let mut core = SessionCore::new("ses".into(), Limits::default(), id);
    let reg = r#"{"name": "web", "tools": [{"name": "highlight_row"}]}"#;
    let a = core.handle("POST", "/clients", reg, 0);
    assert_eq!(a.status, 201, "{}", a.body);
    let client = body(&a.body)["id"].as_str().unwrap().to_owned();
    let run = core.start_run(0).unwrap();
    let call = core
        .dispatch(&run, "client__web__highlight_row", json!({}), 0)
        .unwrap();
    let result = format!("/clients/{client}/calls/{call}/result");
    let early = core.handle("POST", &result, r#"{"text": "x", "is_error": false}"#, 1);
    assert_eq!(early.status, 409);
    assert_eq!(body(&early.body)["error"]["type"], "call_not_acked");
    let pending = core.handle("GET", &format!("/clients/{client}/calls"), "", 1);
    assert_eq!(body(&pending.body)["calls"][0]["call_id"], call.as_str());
    let ack = core.handle(
        "POST",
        &format!("/clients/{client}/calls/{call}/ack"),
        "",
        2,
    );
    assert_eq!(ack.status, 200, "{}", ack.body);
    let ok = core.handle(
        "POST",
        &result,
        r#"{"text": "Row 1.", "is_error": false}"#,
        3,
    );
    assert_eq!((ok.status, ok.body.as_str()), (200, "{}"));
    let gone = core.handle("DELETE", &format!("/clients/{client}"), "", 4);
    assert_eq!((gone.status, gone.body.as_str()), (204, ""));
}

#[test]
fn bad_paths_methods_and_bodies_are_named() {
    let mut core = SessionCore::new("ses".into(), Limits::default(), id);
    assert_eq!(core.handle("GET", "/nowhere", "", 0).status, 404);
    assert_eq!(core.handle("GET", "/clients", "", 0).status, 405);
    let bad = core.handle(
        "POST",
        "/clients",
        r#"{"name": "web", "tools": [{"name": 1}]}"#,
        0,
    );
    assert_eq!(bad.status, 400);
    assert_eq!(body(&bad.body)["error"]["param"], "tools[0].name");
    let long = "x".repeat(65);
    let reg = format!(r#"{{"name": "web", "tools": [{{"name": "{long}"}}]}}"#);
    let named = core.handle("POST", "/clients", &reg, 0);
    assert_eq!(
        body(&named.body)["error"]["param"],
        "tools[0].name",
        "{}",
        named.body
    );
}
