//! The devserver and the SDK's in-page test agent serve the client routes with one router,
//! `SessionCore::handle` of `client-tools-sessions`: the same requests, in the same order, get
//! the same answers over HTTP as from the router itself (status, error type and field, the
//! fields of a success), percent-encoded ids and bad paths, methods and bodies included.

mod common;

use client_tools_sessions::SessionCore;
use common::{request, start, Session};
use serde_json::{json, Value};

/// `(method, path under the session, body)`: `{c}` and `{k}` are the client and the call,
/// `{C}` and `{K}` the same ids percent-encoded (`_` as `%5F`), as the SDK may send them.
const SCRIPT: &[(&str, &str, &str)] = &[
    ("GET", "/clients/{c}/calls", ""),
    ("POST", "/clients/{C}/ping", ""),
    (
        "POST",
        "/clients/{c}/calls/{k}/result",
        r#"{"text": "x", "is_error": false}"#,
    ),
    ("POST", "/clients/{c}/calls/{K}/ack", ""),
    ("POST", "/clients/{c}/calls/{k}/ack", ""),
    (
        "POST",
        "/clients/{c}/calls/{k}/result",
        r#"{"text": 5, "is_error": false}"#,
    ),
    ("POST", "/clients/{c}/calls/{k}/result", "not json"),
    ("POST", "/clients/{c}/calls/{k}/result", r#"[1]"#),
    (
        "POST",
        "/clients/{C}/calls/{K}/result",
        r#"{"text": "ok", "is_error": false}"#,
    ),
    (
        "POST",
        "/clients/{c}/calls/{k}/result",
        r#"{"text": "ok", "is_error": false}"#,
    ),
    ("POST", "/clients/{c}/calls/{k}/ack", ""),
    ("GET", "/clients/{c}/ping", ""),
    ("PUT", "/clients/{c}/calls", ""),
    ("POST", "/clients/%FF/ping", ""),
    ("POST", "/clients/cli%5/ping", ""),
    ("POST", "/clients/cli_nobody/ping", ""),
    ("POST", "/clients/{c}/calls/call_nothing/ack", ""),
    ("POST", "/clients/{c}/nowhere", ""),
    (
        "PUT",
        "/clients/{c}/tools",
        r#"{"tools": [{"name": "bad name"}]}"#,
    ),
    ("PUT", "/clients/{c}/tools", r#"{"tools": [{"name": "u"}]}"#),
    (
        "POST",
        "/clients",
        r#"{"name": "web", "lifetime": {"type": "never"}}"#,
    ),
    ("POST", "/clients", r#"{"name": "Web"}"#),
    (
        "POST",
        "/clients",
        r#"{"lifetime": {"type": "ttl", "data": {"seconds": 1}}}"#,
    ),
    ("DELETE", "/clients/{C}", ""),
    ("DELETE", "/clients/{c}", ""),
    ("POST", "/clients/{c}/ping", ""),
];

const REGISTER: &str =
    r#"{"name": "web", "lifetime": {"type": "never"}, "tools": [{"name": "t"}]}"#;

/// What must agree: the status, the error's type and field, or a success's field names.
fn gist(status: u16, body: &[u8]) -> Value {
    let v: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    match v.get("error") {
        Some(e) => json!([status, e["type"], e["param"]]),
        None => {
            let fields: Vec<&String> = v
                .as_object()
                .map(|o| o.keys().collect())
                .unwrap_or_default();
            json!([status, fields])
        }
    }
}

fn counting_id(prefix: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!("{prefix}_{}", N.fetch_add(1, Ordering::Relaxed) + 1)
}

fn fill(template: &str, client: &str, call: &str) -> String {
    template
        .replace("{C}", &client.replace('_', "%5F"))
        .replace("{K}", &call.replace('_', "%5F"))
        .replace("{c}", client)
        .replace("{k}", call)
}

#[tokio::test]
async fn the_devserver_answers_the_client_routes_as_the_shared_router_does() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let config = devserver::Config {
        ttl_min_seconds: 1,
        ..devserver::Config::default()
    };
    let mut core = SessionCore::new("ses_local".into(), config.limits(), counting_id);

    let auth = format!("Bearer {}", s.token);
    let headers = [
        ("authorization", auth.as_str()),
        ("content-type", "application/json"),
    ];
    let over_http = |method: &'static str, rest: String, body: &'static str| {
        let path = s.path(&rest);
        let addr = s.addr;
        async move {
            let body = (!body.is_empty()).then(|| body.as_bytes().to_vec());
            request(addr, method, &path, &headers, body).await
        }
    };

    let remote = over_http("POST", "/clients".into(), REGISTER).await;
    let local = core.handle("POST", "/clients", REGISTER.as_bytes(), 0);
    assert_eq!(
        gist(remote.status, &remote.body),
        gist(local.status, local.body.as_bytes())
    );
    let remote_client = remote.json()["id"].as_str().unwrap().to_owned();
    let local_client = serde_json::from_str::<Value>(&local.body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let run = s.run().await;
    let remote_call = s.call(&run, "client__web__t", json!({})).await;
    let local_run = core.start_run(0).unwrap();
    let local_call = core
        .dispatch(&local_run, "client__web__t", json!({}), 0)
        .unwrap();

    for (i, (method, template, body)) in SCRIPT.iter().enumerate() {
        let remote = over_http(method, fill(template, &remote_client, &remote_call), body).await;
        let path = fill(template, &local_client, &local_call);
        let local = core.handle(method, &path, body.as_bytes(), 1);
        assert_eq!(
            gist(remote.status, &remote.body),
            gist(local.status, local.body.as_bytes()),
            "step {i}: {method} {template} {body}: devserver {}, router {}",
            String::from_utf8_lossy(&remote.body),
            local.body
        );
    }
}
