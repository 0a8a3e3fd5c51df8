//! Fault injection over real HTTP: failing requests by path, delaying answers, closing and
//! repeating the stream; and that injected failures are not remembered under an idempotency key.

mod common;

use common::{assert_error, start, Session, Sse, SOON};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

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
