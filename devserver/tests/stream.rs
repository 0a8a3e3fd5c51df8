//! The event stream over real HTTP: the SSE wire format, keep-alive comments, Last-Event-ID
//! replay from the bounded buffer, stream_reset past it, and the event log in order.

mod common;

use common::{start, Session, Sse, SOON};
use serde_json::json;
use std::time::{Duration, Instant};

#[tokio::test]
async fn events_carry_id_event_and_json_data_with_the_type() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let mut stream = s.stream(None).await;
    assert_eq!(
        stream.headers.get("content-type").unwrap(),
        "text/event-stream"
    );
    let c = s.register("web", json!({"type": "never"}), &["t"]).await;
    let run = s.run().await;
    let (id1, kind, data) = stream.next_event(SOON).await;
    assert_eq!(kind, "client_registered");
    assert_eq!(
        data,
        json!({"type": "client_registered", "client_id": c["id"], "name": "web"})
    );
    let (id2, kind, data) = stream.next_event(SOON).await;
    assert_eq!(
        (kind.as_str(), data),
        ("run_started", json!({"type": "run_started", "run_id": run}))
    );
    assert!(id2 > id1);
    // The raw bytes: exactly id, event, one data line, blank line.
    let mut raw = common::EventReader::open(
        s.addr,
        &s.path("/stream"),
        &[
            ("authorization", &format!("Bearer {}", s.token)),
            ("last-event-id", &id1.to_string()),
        ],
    )
    .await;
    let next = raw.next(SOON).await;
    assert_eq!(
        next,
        Sse::Event {
            id: id2,
            event: "run_started".into(),
            data: json!({"type": "run_started", "run_id": run})
        }
    );
}

#[tokio::test]
async fn keep_alive_comments_come_every_heartbeat() {
    let server = start(|c| c.heartbeat_ms = 150).await;
    let s = Session::create(&server).await;
    let mut stream = s.stream(None).await;
    let started = Instant::now();
    for _ in 0..3 {
        assert_eq!(
            stream.next(Duration::from_secs(2)).await,
            Sse::Comment(" keep-alive".into())
        );
    }
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(440) && took < Duration::from_millis(900),
        "{took:?}"
    );
}

#[tokio::test]
async fn last_event_id_replays_what_came_after_it() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    for _ in 0..5 {
        s.run().await;
    }
    let mut stream = s.stream(Some(2)).await;
    for expected in 3..=5 {
        let (id, kind, _) = stream.next_event(SOON).await;
        assert_eq!((id, kind.as_str()), (expected, "run_started"));
    }
    // Then live events follow, in order.
    s.run().await;
    assert_eq!(stream.next_event(SOON).await.0, 6);
    // Caught up: nothing is sent twice.
    let mut up_to_date = s.stream(Some(6)).await;
    assert_eq!(
        up_to_date.next(Duration::from_millis(200)).await,
        Sse::TimedOut
    );
}

#[tokio::test]
async fn an_id_older_than_the_buffer_gets_stream_reset_then_live_events() {
    let server = start(|c| c.replay_events = 3).await;
    let s = Session::create(&server).await;
    for _ in 0..6 {
        s.run().await;
    }
    // Events 4..=6 are held; after 3 they can all be replayed, after 2 they cannot.
    let mut ok = s.stream(Some(3)).await;
    assert_eq!(ok.next_event(SOON).await.0, 4);
    let mut reset = s.stream(Some(2)).await;
    let (id, kind, data) = reset.next_event(SOON).await;
    assert_eq!(
        (id, kind.as_str(), data),
        (6, "stream_reset", json!({"type": "stream_reset"}))
    );
    s.run().await;
    let (id, kind, _) = reset.next_event(SOON).await;
    assert_eq!((id, kind.as_str()), (7, "run_started"));
    // An id the server never gave (from before a restart) resets too.
    let mut future = s.stream(Some(99)).await;
    assert_eq!(future.next_event(SOON).await.1, "stream_reset");
    // A bad id is a 400 naming the header.
    let a = s
        .send("GET", "/stream", &[("last-event-id", "abc")], None)
        .await;
    assert_eq!(
        (a.status, a.json()["error"]["param"].clone()),
        (400, json!("Last-Event-ID"))
    );
}

#[tokio::test]
async fn the_event_log_reads_in_order_and_is_bounded() {
    let server = start(|c| c.replay_events = 4).await;
    let s = Session::create(&server).await;
    let c = s.register("web", json!({"type": "never"}), &["t"]).await;
    let id = c["id"].as_str().unwrap();
    s.send(
        "PUT",
        &format!("/clients/{id}/tools"),
        &[],
        Some(json!({"tools": []})),
    )
    .await;
    assert_eq!(
        s.event_types(0).await,
        vec!["client_registered", "client_tools_replaced"]
    );
    assert_eq!(s.event_types(1).await, vec!["client_tools_replaced"]);
    for _ in 0..5 {
        s.run().await;
    }
    let log = s.get("/events?after=0").await.json();
    assert_eq!(
        (log["oldest_id"].clone(), log["last_id"].clone()),
        (json!(4), json!(7))
    );
    let ids: Vec<u64> = log["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, vec![4, 5, 6, 7]);
    assert_eq!(log["events"][0]["data"]["type"], "run_started");
    let page = s.get("/events?after=4&limit=2").await.json();
    assert_eq!(page["events"].as_array().unwrap().len(), 2);
    assert_eq!(s.get("/events?after=x").await.status, 400);
}

#[tokio::test]
async fn every_stream_of_the_session_gets_every_event() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let mut a = s.stream(None).await;
    let mut b = s.stream(None).await;
    let run = s.run().await;
    for stream in [&mut a, &mut b] {
        let (_, kind, data) = stream.next_event(SOON).await;
        assert_eq!(
            (kind.as_str(), data["run_id"].as_str().unwrap()),
            ("run_started", run.as_str())
        );
    }
}
