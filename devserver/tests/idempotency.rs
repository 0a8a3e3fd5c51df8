//! Idempotency over real HTTP: the same key answers the stored status and body and changes
//! nothing; keys are per session; records expire; concurrent requests with one key run once.

mod common;

use common::{request, start, Session};
use serde_json::json;
use std::time::Duration;

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
    assert_eq!(s.client_count().await, 1);
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
    assert_eq!(s.client_count().await, 1);
}

#[tokio::test]
async fn a_key_out_of_range_is_400_naming_the_header() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let long = "k".repeat(256);
    for key in ["", long.as_str()] {
        let a = s
            .send(
                "POST",
                "/clients",
                &[("idempotency-key", key)],
                Some(json!({"name": "web"})),
            )
            .await;
        assert_eq!(a.status, 400, "{key:?}");
        assert_eq!(a.json()["error"]["param"], "Idempotency-Key");
    }
    assert!(s.get("/clients").await.json()["clients"]
        .as_array()
        .unwrap()
        .is_empty());
}
