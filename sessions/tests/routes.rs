//! The client routes as one step: method, path and body in, status and JSON out.

use client_tools_sessions::{Answer, Limits, SessionCore};
use serde_json::{json, Value};

fn id(prefix: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!("{prefix}_{}", N.fetch_add(1, Ordering::Relaxed))
}

fn handle(core: &mut SessionCore, method: &str, path: &str, body: &str, now: u64) -> Answer {
    core.handle(method, path, body.as_bytes(), now)
}

fn body(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn register_ack_and_answer_through_the_routes() {
    let mut core = SessionCore::new("ses".into(), Limits::default(), id);
    let reg = r#"{"name": "web", "tools": [{"name": "highlight_row"}]}"#;
    let a = handle(&mut core, "POST", "/clients", reg, 0);
    assert_eq!(a.status, 201, "{}", a.body);
    let client = body(&a.body)["id"].as_str().unwrap().to_owned();
    let run = core.start_run(0).unwrap();
    let call = core
        .dispatch(&run, "client__web__highlight_row", json!({}), 0)
        .unwrap();
    let result = format!("/clients/{client}/calls/{call}/result");
    let early = handle(
        &mut core,
        "POST",
        &result,
        r#"{"text": "x", "is_error": false}"#,
        1,
    );
    assert_eq!(early.status, 409);
    assert_eq!(body(&early.body)["error"]["type"], "call_not_acked");
    let pending = handle(&mut core, "GET", &format!("/clients/{client}/calls"), "", 1);
    assert_eq!(body(&pending.body)["calls"][0]["call_id"], call.as_str());
    let ack = handle(
        &mut core,
        "POST",
        &format!("/clients/{client}/calls/{call}/ack"),
        "",
        2,
    );
    assert_eq!(ack.status, 200, "{}", ack.body);
    let ok = handle(
        &mut core,
        "POST",
        &result,
        r#"{"text": "Row 1.", "is_error": false}"#,
        3,
    );
    assert_eq!((ok.status, ok.body.as_str()), (200, "{}"));
    let gone = handle(&mut core, "DELETE", &format!("/clients/{client}"), "", 4);
    assert_eq!((gone.status, gone.body.as_str()), (204, ""));
}

#[test]
fn bad_paths_methods_and_bodies_are_named() {
    let mut core = SessionCore::new("ses".into(), Limits::default(), id);
    assert_eq!(handle(&mut core, "GET", "/nowhere", "", 0).status, 404);
    assert_eq!(handle(&mut core, "GET", "/clients", "", 0).status, 405);
    let bad = handle(
        &mut core,
        "POST",
        "/clients",
        r#"{"name": "web", "tools": [{"name": 1}]}"#,
        0,
    );
    assert_eq!(bad.status, 400);
    assert_eq!(body(&bad.body)["error"]["param"], "tools[0].name");
    let long = "x".repeat(65);
    let reg = format!(r#"{{"name": "web", "tools": [{{"name": "{long}"}}]}}"#);
    let named = handle(&mut core, "POST", "/clients", &reg, 0);
    assert_eq!(
        body(&named.body)["error"]["param"],
        "tools[0].name",
        "{}",
        named.body
    );
}

/// The SDK percent-encodes each id it puts in a path; the router decodes them, so an encoded
/// id is the same client and call, and one that is not percent-encoded UTF-8 is a 400 that
/// says so. (Before: the router compared the raw segment, so `cli%5F…` was a 404, while the
/// devserver decoded.)
#[test]
fn ids_in_the_path_are_percent_decoded() {
    let mut core = SessionCore::new("ses".into(), Limits::default(), id);
    let a = handle(
        &mut core,
        "POST",
        "/clients",
        r#"{"name": "web", "tools": [{"name": "t"}]}"#,
        0,
    );
    let client = body(&a.body)["id"].as_str().unwrap().to_owned();
    let encoded = client.replace('_', "%5F");
    let pinged = handle(
        &mut core,
        "POST",
        &format!("/clients/{encoded}/ping"),
        "",
        1,
    );
    assert_eq!(pinged.status, 200, "{}", pinged.body);
    let run = core.start_run(1).unwrap();
    let call = core.dispatch(&run, "client__web__t", json!({}), 1).unwrap();
    let path = format!("/clients/{encoded}/calls/{}/ack", call.replace('_', "%5f"));
    assert_eq!(handle(&mut core, "POST", &path, "", 2).status, 200);
    for bad in ["%FF", "cli%5", "cli%zz"] {
        let a = handle(&mut core, "POST", &format!("/clients/{bad}/ping"), "", 3);
        assert_eq!(a.status, 400, "{bad}: {}", a.body);
        let e = &body(&a.body)["error"];
        assert_eq!(e["type"], "invalid_request", "{bad}");
        assert!(
            e["message"].as_str().unwrap().contains("cannot be read"),
            "{bad}: {e}"
        );
    }
    // A known path with another method is 405 before its ids are read.
    assert_eq!(
        handle(&mut core, "GET", "/clients/%FF/ping", "", 3).status,
        405
    );
}

/// A request sees what is due by its time whatever the driver's timers did: a ping after the
/// TTL ran out is a 404 (the registration lapsed, `client_expired` emitted), not a renewal.
/// (Before: `handle` left deadlines to the driver, and a ping that came before its timer fired
/// revived the registration.)
#[test]
fn a_request_after_a_deadline_sees_it_passed() {
    let mut core = SessionCore::new("ses".into(), Limits::default(), id);
    let reg = r#"{"name": "web", "lifetime": {"type": "ttl", "data": {"seconds": 5}}}"#;
    let a = handle(&mut core, "POST", "/clients", reg, 0);
    let client = body(&a.body)["id"].as_str().unwrap().to_owned();
    let ping = format!("/clients/{client}/ping");
    assert_eq!(handle(&mut core, "POST", &ping, "", 4_999).status, 200);
    let late = handle(&mut core, "POST", &ping, "", 4_999 + 5_000);
    assert_eq!(late.status, 404, "{}", late.body);
    assert!(core.clients().is_empty());
}
