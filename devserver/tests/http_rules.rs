//! The HTTP rules over real HTTP: auth (401/403/404), the error body, 413, malformed JSON,
//! 405, CORS and preflight, idempotency, fault injection, static files.

mod common;

use common::{request, start, Session, Sse, SOON};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn assert_error(a: &common::Answer, status: u16, kind: &str) {
    assert_eq!(a.status, status, "{:?}", String::from_utf8_lossy(&a.body));
    let v = a.json();
    assert_eq!(v["error"]["type"], kind);
    assert!(!v["error"]["message"].as_str().unwrap().is_empty());
    assert!(v["error"].as_object().unwrap().contains_key("param"));
    assert_eq!(a.header("content-type"), Some("application/json"));
}

#[tokio::test]
async fn tokens_are_checked_per_session() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let other = Session::create(&server).await;
    let path = s.path("/clients");
    let body = Some(br#"{"name":"web"}"#.to_vec());
    let none = request(s.addr, "POST", &path, &[], body.clone()).await;
    assert_error(&none, 401, "unauthorized");
    let wrong = request(
        s.addr,
        "POST",
        &path,
        &[("authorization", "Bearer nope")],
        body.clone(),
    )
    .await;
    assert_error(&wrong, 401, "unauthorized");
    let basic = request(
        s.addr,
        "POST",
        &path,
        &[("authorization", "Basic abc")],
        body.clone(),
    )
    .await;
    assert_error(&basic, 401, "unauthorized");
    let auth = format!("Bearer {}", other.token);
    let foreign = request(
        s.addr,
        "POST",
        &path,
        &[("authorization", &auth)],
        body.clone(),
    )
    .await;
    assert_error(&foreign, 403, "forbidden");
    let unknown = request(
        s.addr,
        "GET",
        "/v1/sessions/ses_nope/clients",
        &[("authorization", &auth)],
        None,
    )
    .await;
    assert_error(&unknown, 404, "not_found");
    let stream = request(
        s.addr,
        "GET",
        &s.path("/stream"),
        &[("authorization", &auth)],
        None,
    )
    .await;
    assert_error(&stream, 403, "forbidden");
    assert!(s.get("/clients").await.json()["clients"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn the_api_key_guards_session_creation_and_opens_every_session() {
    let server = start(|c| c.api_key = Some("key-1".into())).await;
    let a = request(server.addr, "POST", "/v1/sessions", &[], None).await;
    assert_error(&a, 401, "unauthorized");
    let a = request(
        server.addr,
        "POST",
        "/v1/sessions",
        &[("authorization", "Bearer key-1")],
        None,
    )
    .await;
    assert_eq!(a.status, 201);
    let id = a.json()["id"].as_str().unwrap().to_owned();
    let a = request(
        server.addr,
        "GET",
        &format!("/v1/sessions/{id}/clients"),
        &[("authorization", "Bearer key-1")],
        None,
    )
    .await;
    assert_eq!(a.status, 200);
}

#[tokio::test]
async fn bad_bodies_are_400_or_413_and_change_nothing() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let auth = format!("Bearer {}", s.token);
    let h = [
        ("authorization", auth.as_str()),
        ("content-type", "application/json"),
    ];
    let path = s.path("/clients");
    for body in [&b"{"[..], b"not json", b"[]", b"", b"\"web\""] {
        let a = request(s.addr, "POST", &path, &h, Some(body.to_vec())).await;
        assert_error(&a, 400, "invalid_request");
        assert_eq!(a.json()["error"]["param"], Value::Null);
    }
    let huge = format!("{{\"name\":\"web\",\"pad\":\"{}\"}}", "x".repeat(1 << 20));
    let a = request(s.addr, "POST", &path, &h, Some(huge.into_bytes())).await;
    assert_error(&a, 413, "payload_too_large");
    // Just under 1 MiB is read (and then judged on its fields).
    let fits = format!(
        "{{\"name\":\"web\",\"pad\":\"{}\"}}",
        "x".repeat((1 << 20) - 30)
    );
    let a = request(s.addr, "POST", &path, &h, Some(fits.into_bytes())).await;
    assert_eq!(a.status, 201);
    let a = request(
        s.addr,
        "POST",
        &s.path("/runs/x/calls"),
        &h,
        Some(vec![b' '; (1 << 20) + 1]),
    )
    .await;
    assert_error(&a, 413, "payload_too_large");
    assert_eq!(
        s.get("/clients").await.json()["clients"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn unknown_paths_and_methods_answer_json_errors() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let a = request(s.addr, "GET", "/v1/nothing", &[], None).await;
    assert_error(&a, 404, "not_found");
    let a = s.send("PATCH", "/clients", &[], None).await;
    assert_eq!(a.status, 405);
    assert_eq!(a.error_type(), "invalid_request");
    let a = request(s.addr, "GET", "/v1/sessions", &[], None).await;
    assert_eq!(a.status, 405);
    let a = s.send("POST", "/clients/%FF/ping", &[], None).await;
    assert_error(&a, 400, "invalid_request");
}

#[tokio::test]
async fn cors_allows_loopback_pages_and_their_preflights() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let pre = request(
        s.addr,
        "OPTIONS",
        &s.path("/clients"),
        &[
            ("origin", "http://localhost:5173"),
            ("access-control-request-method", "POST"),
            (
                "access-control-request-headers",
                "authorization, content-type, idempotency-key",
            ),
        ],
        None,
    )
    .await;
    assert!(pre.status == 204 || pre.status == 200, "{}", pre.status);
    assert_eq!(
        pre.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    let methods = pre.header("access-control-allow-methods").unwrap();
    for m in ["GET", "POST", "PUT", "DELETE"] {
        assert!(methods.contains(m), "{methods}");
    }
    let headers = pre
        .header("access-control-allow-headers")
        .unwrap()
        .to_ascii_lowercase();
    for h in [
        "authorization",
        "content-type",
        "idempotency-key",
        "last-event-id",
    ] {
        assert!(headers.contains(h), "{headers}");
    }
    let a = s
        .send(
            "GET",
            "/clients",
            &[("origin", "http://127.0.0.1:9000")],
            None,
        )
        .await;
    assert_eq!(
        a.header("access-control-allow-origin"),
        Some("http://127.0.0.1:9000")
    );
    assert!(a
        .header("access-control-expose-headers")
        .unwrap()
        .contains("Retry-After"));
    // Errors carry CORS too, so a page can read them.
    let e = request(
        s.addr,
        "GET",
        &s.path("/clients"),
        &[("origin", "http://[::1]:8000")],
        None,
    )
    .await;
    assert_eq!(
        (e.status, e.header("access-control-allow-origin")),
        (401, Some("http://[::1]:8000"))
    );
    let foreign = request(
        s.addr,
        "OPTIONS",
        &s.path("/clients"),
        &[
            ("origin", "http://example.com"),
            ("access-control-request-method", "POST"),
        ],
        None,
    )
    .await;
    assert_eq!(foreign.header("access-control-allow-origin"), None);
}

#[tokio::test]
async fn the_same_idempotency_key_answers_the_stored_answer_and_changes_nothing() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let key = [("idempotency-key", "k-1")];
    let first = s
        .send("POST", "/clients", &key, Some(json!({"name": "web"})))
        .await;
    let again = s
        .send("POST", "/clients", &key, Some(json!({"name": "web"})))
        .await;
    assert_eq!((first.status, again.status), (201, 201));
    assert_eq!(first.body, again.body);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(
        s.get("/clients").await.json()["clients"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // A different key is a new request.
    let other = s
        .send(
            "POST",
            "/clients",
            &[("idempotency-key", "k-2")],
            Some(json!({"name": "web"})),
        )
        .await;
    assert_eq!(other.json()["name"], "web-2");
    // An error answer is kept too.
    let bad = s
        .send(
            "POST",
            "/clients",
            &[("idempotency-key", "k-3")],
            Some(json!({"name": ""})),
        )
        .await;
    let bad_again = s
        .send(
            "POST",
            "/clients",
            &[("idempotency-key", "k-3")],
            Some(json!({"name": "ok"})),
        )
        .await;
    assert_eq!(
        (bad.status, bad_again.status, bad.body.clone()),
        (400, 400, bad_again.body.clone())
    );
    // A ping with an old key is answered from memory and does not extend the registration.
    let c = s
        .register("ttl", json!({"type": "ttl", "data": {"seconds": 1}}), &[])
        .await;
    let ping = format!("/clients/{}/ping", c["id"].as_str().unwrap());
    let p1 = s
        .send("POST", &ping, &[("idempotency-key", "p-1")], None)
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let p2 = s
        .send("POST", &ping, &[("idempotency-key", "p-1")], None)
        .await;
    assert_eq!(p1.body, p2.body);
    let p3 = s
        .send("POST", &ping, &[("idempotency-key", "p-2")], None)
        .await;
    assert_ne!(p1.json()["expires_at"], p3.json()["expires_at"]);
    // Keys are per session.
    let s2 = Session::create(&server).await;
    let fresh = s2
        .send("POST", "/clients", &key, Some(json!({"name": "web"})))
        .await;
    assert_eq!(
        (fresh.status, fresh.header("idempotent-replayed")),
        (201, None)
    );
}

#[tokio::test]
async fn a_retried_session_creation_makes_one_session() {
    let server = start(|_| {}).await;
    let key = [("idempotency-key", "create-1")];
    let a = request(server.addr, "POST", "/v1/sessions", &key, None).await;
    let b = request(server.addr, "POST", "/v1/sessions", &key, None).await;
    assert_eq!((a.status, b.status), (201, 201));
    assert_eq!(a.json()["id"], b.json()["id"]);
    assert_eq!(b.header("idempotent-replayed"), Some("true"));
    let c = request(server.addr, "POST", "/v1/sessions", &[], None).await;
    assert_ne!(a.json()["id"], c.json()["id"]);
}

#[tokio::test]
async fn idempotency_records_expire() {
    let server = start(|c| c.idempotency_ttl_ms = 200).await;
    let s = Session::create(&server).await;
    let key = [("idempotency-key", "k")];
    s.send("POST", "/clients", &key, Some(json!({"name": "web"})))
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let later = s
        .send("POST", "/clients", &key, Some(json!({"name": "web"})))
        .await;
    assert_eq!(
        (later.status, later.json()["name"].clone()),
        (201, json!("web-2"))
    );
}

#[tokio::test]
async fn concurrent_requests_with_one_key_run_once() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    s.post("/faults", json!({"delay_ms": 100})).await;
    let mut tasks = Vec::new();
    for _ in 0..5 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            s.send(
                "POST",
                "/clients",
                &[("idempotency-key", "same")],
                Some(json!({"name": "web"})),
            )
            .await
        }));
    }
    let mut bodies = Vec::new();
    for t in tasks {
        bodies.push(t.await.unwrap().body);
    }
    assert!(bodies.windows(2).all(|w| w[0] == w[1]));
    s.delete("/faults").await;
    assert_eq!(
        s.get("/clients").await.json()["clients"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn injected_failures_hit_matching_paths_count_times_and_are_not_remembered() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let set = s
        .post("/faults", json!({"fail_requests": {"path_contains": "/clients", "status": 503, "count": 2, "retry_after_seconds": 1}}))
        .await;
    assert_eq!(set.status, 200);
    let key = [("idempotency-key", "r-1")];
    let a = s
        .send("POST", "/clients", &key, Some(json!({"name": "web"})))
        .await;
    assert_error(&a, 503, "server_error");
    assert_eq!(a.header("retry-after"), Some("1"));
    assert_eq!(
        s.get("/runs").await.status,
        200,
        "other paths are untouched"
    );
    assert_eq!(s.get("/faults").await.json()["fail_requests"]["count"], 1);
    assert_eq!(
        s.send("POST", "/clients", &key, Some(json!({"name": "web"})))
            .await
            .status,
        503
    );
    // The retry with the same key now runs for real.
    let ok = s
        .send("POST", "/clients", &key, Some(json!({"name": "web"})))
        .await;
    assert_eq!((ok.status, ok.header("idempotent-replayed")), (201, None));
    assert_eq!(s.get("/faults").await.json()["fail_requests"], Value::Null);
    let bad = s
        .post(
            "/faults",
            json!({"fail_requests": {"path_contains": "x", "status": 200, "count": 1}}),
        )
        .await;
    assert_eq!(
        (bad.status, bad.json()["error"]["param"].clone()),
        (400, json!("fail_requests.status"))
    );
    let typo = s.post("/faults", json!({"delay": 5})).await;
    assert_eq!(typo.status, 400);
    let rate = s.post("/faults", json!({"fail_requests": {"path_contains": "/ping", "status": 429, "count": 1, "retry_after_seconds": 2}})).await;
    assert_eq!(rate.status, 200);
    let a = s.send("POST", "/clients/x/ping", &[], None).await;
    assert_error(&a, 429, "rate_limited");
    assert_eq!(a.header("retry-after"), Some("2"));
}

#[tokio::test]
async fn injected_delay_holds_answers_back() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    s.post("/faults", json!({"delay_ms": 300})).await;
    let t = Instant::now();
    assert_eq!(s.get("/clients").await.status, 200);
    assert!(t.elapsed() >= Duration::from_millis(300));
    assert_eq!(s.delete("/faults").await.status, 204);
    let t = Instant::now();
    s.get("/clients").await;
    assert!(t.elapsed() < Duration::from_millis(200));
}

#[tokio::test]
async fn injected_stream_faults_close_and_repeat() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    s.post(
        "/faults",
        json!({"close_stream_after_events": 2, "repeat_events": true}),
    )
    .await;
    for _ in 0..3 {
        s.run().await;
    }
    let mut stream = s.stream(Some(0)).await;
    let mut ids = Vec::new();
    loop {
        match stream.next(SOON).await {
            Sse::Event { id, .. } => ids.push(id),
            Sse::Closed => break,
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(ids, vec![1, 1, 2, 2], "each event twice, closed after two");
    // The client reconnects with its last id and goes on.
    let mut next = s.stream(Some(2)).await;
    assert_eq!(next.next_event(SOON).await.0, 3);
}

#[tokio::test]
async fn static_files_are_served_with_their_types() {
    let dir = std::env::temp_dir().join(format!("devserver-static-{}", std::process::id()));
    let (www, pkg) = (dir.join("www"), dir.join("pkg"));
    std::fs::create_dir_all(www.join("app")).unwrap();
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(www.join("index.html"), "<!doctype html>hi").unwrap();
    std::fs::write(www.join("app/main.js"), "export {}").unwrap();
    std::fs::write(pkg.join("client_tools_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(dir.join("secret.txt"), "no").unwrap();
    let server = start(|c| {
        c.www = Some(www.clone());
        c.pkg = Some(pkg.clone());
    })
    .await;
    let get = |p: &'static str| request(server.addr, "GET", p, &[], None);
    let a = get("/").await;
    assert_eq!(
        (a.status, a.header("content-type")),
        (200, Some("text/html; charset=utf-8"))
    );
    assert_eq!(&a.body[..], b"<!doctype html>hi");
    let a = get("/app/main.js").await;
    assert_eq!(
        a.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    let a = get("/pkg/client_tools_bg.wasm").await;
    assert_eq!(
        (a.status, a.header("content-type")),
        (200, Some("application/wasm"))
    );
    assert_eq!(&a.body[..4], b"\0asm");
    assert_error(&get("/missing.js").await, 404, "not_found");
    assert_eq!(get("/../secret.txt").await.status, 404);
    assert_eq!(get("/app/%2e%2e/%2e%2e/secret.txt").await.status, 404);
    std::fs::remove_dir_all(&dir).ok();
}
