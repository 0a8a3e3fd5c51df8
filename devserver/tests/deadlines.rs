//! Deadlines and fail reasons over real HTTP: `ack_timeout` and `result_timeout` on time,
//! `client_gone` on leave and lapse, `run_gone` on cancel and complete; each call settles once.

mod common;

use common::{call_path, start, Session};
use serde_json::json;
use std::time::{Duration, Instant};

#[tokio::test]
async fn an_unacked_call_fails_with_ack_timeout_on_time() {
    let server = start(|c| c.ack_timeout_ms = 300).await;
    let s = Session::create(&server).await;
    let client = s.web_client().await;
    let run = s.run().await;
    let started = Instant::now();
    let call = s.call(&run, "client__web__highlight_row", json!({})).await;
    let o = s.outcome(&run, &call, 5.0).await;
    let took = started.elapsed();
    assert_eq!(
        (o["state"].clone(), o["reason"].clone()),
        (json!("failed"), json!("ack_timeout"))
    );
    assert!(
        took >= Duration::from_millis(290) && took < Duration::from_millis(500),
        "{took:?}"
    );
    let a = s.post(&call_path(&client, &call, "ack"), json!({})).await;
    assert_eq!((a.status, a.error_type().as_str()), (409, "call_settled"));
    let types = s.event_types(0).await;
    assert_eq!(
        types.iter().filter(|t| *t == "client_tool_failed").count(),
        1
    );
}

#[tokio::test]
async fn an_acked_call_fails_with_result_timeout_and_a_late_result_is_refused() {
    let server = start(|c| {
        c.ack_timeout_ms = 300;
        c.result_timeout_ms = 400;
    })
    .await;
    let s = Session::create(&server).await;
    let client = s.web_client().await;
    let run = s.run().await;
    let call = s.call(&run, "client__web__highlight_row", json!({})).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let acked = Instant::now();
    assert_eq!(
        s.post(&call_path(&client, &call, "ack"), json!({}))
            .await
            .status,
        200
    );
    let o = s.outcome(&run, &call, 5.0).await;
    let took = acked.elapsed();
    assert_eq!(
        (o["state"].clone(), o["reason"].clone()),
        (json!("failed"), json!("result_timeout"))
    );
    assert!(
        took >= Duration::from_millis(380) && took < Duration::from_millis(600),
        "{took:?}"
    );
    let late = s
        .post(
            &call_path(&client, &call, "result"),
            json!({"text": "late"}),
        )
        .await;
    assert_eq!(
        (late.status, late.error_type().as_str()),
        (409, "call_settled")
    );
    let types = s.event_types(0).await;
    assert_eq!(
        types
            .iter()
            .filter(|t| t.starts_with("client_tool_"))
            .cloned()
            .collect::<Vec<_>>(),
        vec![
            "client_tool_dispatched",
            "client_tool_acked",
            "client_tool_failed"
        ]
    );
}

#[tokio::test]
async fn leaving_fails_owed_calls_with_client_gone() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let client = s.web_client().await;
    let run = s.run().await;
    let a = s.call(&run, "client__web__highlight_row", json!({})).await;
    let b = s.call(&run, "client__web__highlight_row", json!({})).await;
    s.post(&call_path(&client, &b, "ack"), json!({})).await;
    assert_eq!(s.delete(&format!("/clients/{client}")).await.status, 204);
    for call in [&a, &b] {
        let o = s.outcome(&run, call, 0.0).await;
        assert_eq!(
            (o["state"].clone(), o["reason"].clone()),
            (json!("failed"), json!("client_gone"))
        );
    }
    let after = s
        .post(&call_path(&client, &b, "result"), json!({"text": "x"}))
        .await;
    assert_eq!(after.status, 404, "the client is gone");
    let tail: Vec<String> = s.event_types(0).await.into_iter().rev().take(3).collect();
    assert_eq!(
        tail,
        vec!["client_left", "client_tool_failed", "client_tool_failed"]
    );
}

#[tokio::test]
async fn a_lapsed_client_fails_owed_calls_with_client_gone() {
    let server = start(|c| c.ack_timeout_ms = 10_000).await;
    let s = Session::create(&server).await;
    s.register(
        "web",
        json!({"type": "ttl", "data": {"seconds": 1}}),
        &["t"],
    )
    .await;
    let run = s.run().await;
    let call = s.call(&run, "client__web__t", json!({})).await;
    let o = s.outcome(&run, &call, 3.0).await;
    assert_eq!(
        (o["state"].clone(), o["reason"].clone()),
        (json!("failed"), json!("client_gone"))
    );
    assert_eq!(s.event_types(0).await.last().unwrap(), "client_expired");
}

#[tokio::test]
async fn cancelling_a_run_fails_its_calls_with_run_gone() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let client = s.web_client().await;
    let run = s.run().await;
    let other = s.run().await;
    let call = s.call(&run, "client__web__highlight_row", json!({})).await;
    let kept = s
        .call(&other, "client__web__highlight_row", json!({}))
        .await;
    assert_eq!(s.delete(&format!("/runs/{run}")).await.status, 204);
    let o = s.outcome(&run, &call, 0.0).await;
    assert_eq!(
        (o["state"].clone(), o["reason"].clone()),
        (json!("failed"), json!("run_gone"))
    );
    assert_eq!(s.outcome(&other, &kept, 0.0).await["state"], "pending");
    let again = s.delete(&format!("/runs/{run}")).await;
    assert_eq!(again.status, 409);
    let ended = s
        .post(
            &format!("/runs/{run}/calls"),
            json!({"tool": "client__web__highlight_row"}),
        )
        .await;
    assert_eq!(ended.status, 409);
    let tail: Vec<String> = s.event_types(0).await.into_iter().rev().take(2).collect();
    assert_eq!(tail, vec!["run_cancelled", "client_tool_failed"]);
    assert_eq!(
        s.post(&format!("/runs/{other}/complete"), json!({}))
            .await
            .status,
        200
    );
    let o = s.outcome(&other, &kept, 0.0).await;
    assert_eq!(o["reason"], "run_gone");
    assert_eq!(s.event_types(0).await.last().unwrap(), "run_completed");
    let runs = s.get("/runs").await.json();
    assert_eq!(runs["runs"][0]["state"], "cancelled");
    assert_eq!(runs["runs"][1]["state"], "completed");
    assert_eq!(runs["runs"][1]["calls"][0]["call_id"], kept.as_str());
    let _ = client;
}
