//! The HTTP rules over real HTTP: auth (401/403/404), the error body, 413, malformed JSON,
//! 405, CORS and preflight, static files.

mod common;

use common::{assert_error, request, start, Session};
use serde_json::Value;

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
    assert_eq!(s.client_count().await, 1);
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
