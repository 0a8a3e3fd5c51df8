//! Calls over real HTTP: dispatch, ack, result, the long poll, pending calls, every deadline
//! and fail reason, settling exactly once, and calls of other clients.

mod common;

use common::{call_path, start, Session, SOON};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

#[tokio::test]
async fn a_call_goes_dispatched_acked_answered_and_the_agent_reads_it() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let client = s.web_client().await;
    let mut stream = s.stream(None).await;
    let run = s.run().await;
    let call = s
        .call(&run, "client__web__highlight_row", json!({"row_id": "42"}))
        .await;
    let (_, _, started) = stream.next_event(SOON).await;
    assert_eq!(started, json!({"type": "run_started", "run_id": run}));
    let (_, kind, d) = stream.next_event(SOON).await;
    assert_eq!(kind, "client_tool_dispatched");
    assert_eq!(d["type"], "client_tool_dispatched");
    assert_eq!(d["session_id"], s.id.as_str());
    assert_eq!(d["run_id"], run.as_str());
    assert_eq!(d["client_id"], client.as_str());
    assert_eq!(d["call_id"], call.as_str());
    assert_eq!(d["tool"], "highlight_row");
    assert_eq!(d["arguments"], json!({"row_id": "42"}));
    assert!(
        client_tools_core::protocol::time::parse_rfc3339(d["ack_deadline"].as_str().unwrap())
            .is_some()
    );
    // The pending list holds the same payload.
    let pending = s.get(&format!("/clients/{client}/calls")).await.json();
    let mut expected = d.clone();
    expected.as_object_mut().unwrap().remove("type");
    assert_eq!(pending, json!({"calls": [expected]}));

    assert_eq!(s.outcome(&run, &call, 0.0).await["state"], "pending");
    let ack = s.post(&call_path(&client, &call, "ack"), json!({})).await;
    assert_eq!(ack.status, 200);
    let deadline = ack.json()["result_deadline"].as_str().unwrap().to_owned();
    let again = s.post(&call_path(&client, &call, "ack"), json!({})).await;
    assert_eq!(
        (
            again.status,
            again.json()["result_deadline"].as_str().unwrap()
        ),
        (200, deadline.as_str())
    );
    let (_, kind, acked) = stream.next_event(SOON).await;
    assert_eq!(kind, "client_tool_acked");
    assert_eq!(
        acked,
        json!({"type": "client_tool_acked", "client_id": client, "call_id": call, "result_deadline": deadline})
    );

    let poll = {
        let s = s.clone();
        let (run, call) = (run.clone(), call.clone());
        tokio::spawn(async move { s.outcome(&run, &call, 5.0).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    let a = s
        .post(
            &call_path(&client, &call, "result"),
            json!({"text": "Row 42 is highlighted.", "is_error": false}),
        )
        .await;
    assert_eq!(a.status, 200);
    let outcome = poll.await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "the long poll woke on settle"
    );
    assert_eq!(outcome["state"], "succeeded");
    assert_eq!(outcome["text"], "Row 42 is highlighted.");
    assert_eq!(outcome["is_error"], false);
    assert_eq!(outcome["reason"], Value::Null);
    let (_, kind, done) = stream.next_event(SOON).await;
    assert_eq!(kind, "client_tool_succeeded");
    assert_eq!(
        done,
        json!({"type": "client_tool_succeeded", "client_id": client, "call_id": call, "is_error": false})
    );
    assert_eq!(
        s.get(&format!("/clients/{client}/calls")).await.json(),
        json!({"calls": []})
    );
    // Settled: a second answer or ack is 409 call_settled and changes nothing.
    let twice = s
        .post(
            &call_path(&client, &call, "result"),
            json!({"text": "again"}),
        )
        .await;
    assert_eq!(
        (twice.status, twice.error_type().as_str()),
        (409, "call_settled")
    );
    let late_ack = s.post(&call_path(&client, &call, "ack"), json!({})).await;
    assert_eq!(
        (late_ack.status, late_ack.error_type().as_str()),
        (409, "call_settled")
    );
    assert_eq!(
        s.outcome(&run, &call, 0.0).await["text"],
        "Row 42 is highlighted."
    );
    assert_eq!(
        stream.next(Duration::from_millis(200)).await,
        common::Sse::TimedOut
    );
}

#[tokio::test]
async fn is_error_results_still_succeed_and_text_is_limited_to_65536_chars() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let client = s.web_client().await;
    let run = s.run().await;
    let call = s.call(&run, "client__web__highlight_row", json!({})).await;
    let unacked = s
        .post(&call_path(&client, &call, "result"), json!({"text": "x"}))
        .await;
    assert_eq!(
        (unacked.status, unacked.error_type().as_str()),
        (409, "call_not_acked")
    );
    s.post(&call_path(&client, &call, "ack"), json!({})).await;
    let long = "é".repeat(65_537);
    let a = s
        .post(&call_path(&client, &call, "result"), json!({"text": long}))
        .await;
    assert_eq!(
        (a.status, a.json()["error"]["param"].clone()),
        (400, json!("text"))
    );
    let a = s
        .post(
            &call_path(&client, &call, "result"),
            json!({"is_error": true}),
        )
        .await;
    assert_eq!(
        (a.status, a.json()["error"]["param"].clone()),
        (400, json!("text"))
    );
    let a = s
        .post(&call_path(&client, &call, "result"), json!({"text": 5}))
        .await;
    assert_eq!(
        (a.status, a.json()["error"]["param"].clone()),
        (400, json!("text"))
    );
    assert_eq!(
        s.outcome(&run, &call, 0.0).await["state"],
        "pending",
        "bad answers change nothing"
    );
    let exact = "é".repeat(65_536);
    let a = s
        .post(
            &call_path(&client, &call, "result"),
            json!({"text": exact, "is_error": true}),
        )
        .await;
    assert_eq!(a.status, 200);
    let o = s.outcome(&run, &call, 0.0).await;
    assert_eq!(
        (o["state"].clone(), o["is_error"].clone()),
        (json!("succeeded"), json!(true))
    );
    assert_eq!(o["text"].as_str().unwrap().chars().count(), 65_536);
}

#[tokio::test]
async fn another_clients_call_is_404_and_stays_untouched() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let owner = s.web_client().await;
    let other = s.register("other", json!({"type": "never"}), &[]).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let run = s.run().await;
    let call = s.call(&run, "client__web__highlight_row", json!({})).await;
    for what in ["ack", "result"] {
        let a = s
            .post(&call_path(&other, &call, what), json!({"text": "x"}))
            .await;
        assert_eq!(
            (a.status, a.error_type().as_str()),
            (404, "not_found"),
            "{what}"
        );
    }
    let a = s
        .post(&call_path(&owner, "call_unknown", "ack"), json!({}))
        .await;
    assert_eq!(a.status, 404);
    let a = s
        .post(&call_path("cli_unknown", &call, "ack"), json!({}))
        .await;
    assert_eq!(a.status, 404);
    let o = s.outcome(&run, &call, 0.0).await;
    assert_eq!(
        (o["state"].clone(), o["acked"].clone()),
        (json!("pending"), json!(false))
    );
    assert_eq!(
        s.post(&call_path(&owner, &call, "ack"), json!({}))
            .await
            .status,
        200
    );
}

#[tokio::test]
async fn the_model_calling_a_tool_is_checked() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    s.web_client().await;
    let run = s.run().await;
    let cases = [
        (json!({"tool": "client__web__nope"}), 404, "tool"),
        (
            json!({"tool": "client__nobody__highlight_row"}),
            404,
            "tool",
        ),
        (json!({"tool": "highlight_row"}), 400, "tool"),
        (json!({}), 400, "tool"),
        (
            json!({"tool": "client__web__highlight_row", "arguments": [1]}),
            400,
            "arguments",
        ),
        (
            json!({"tool": "client__web__highlight_row", "arguments": "nope"}),
            400,
            "arguments",
        ),
    ];
    for (body, status, param) in cases {
        let a = s.post(&format!("/runs/{run}/calls"), body.clone()).await;
        assert_eq!(
            (a.status, a.json()["error"]["param"].clone()),
            (status, json!(param)),
            "{body}"
        );
    }
    assert_eq!(
        s.post(
            "/runs/run_unknown/calls",
            json!({"tool": "client__web__highlight_row"})
        )
        .await
        .status,
        404
    );
    // Absent arguments are an empty object; a string holding an object is read.
    let call = s
        .call(&run, "client__web__highlight_row", Value::Null)
        .await;
    assert_eq!(s.outcome(&run, &call, 0.0).await["arguments"], json!({}));
    let call = s
        .call(&run, "client__web__highlight_row", json!("{\"a\": 1}"))
        .await;
    assert_eq!(
        s.outcome(&run, &call, 0.0).await["arguments"],
        json!({"a": 1})
    );
    let a = s.get(&format!("/runs/{run}/calls/{call}?wait=abc")).await;
    assert_eq!(
        (a.status, a.json()["error"]["param"].clone()),
        (400, json!("wait"))
    );
    assert_eq!(
        s.get(&format!("/runs/{run}/calls/call_unknown"))
            .await
            .status,
        404
    );
}

#[tokio::test]
async fn calls_already_dispatched_stay_answerable_after_their_tool_is_replaced() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let client = s.web_client().await;
    let run = s.run().await;
    let call = s.call(&run, "client__web__highlight_row", json!({})).await;
    let a = s
        .send(
            "PUT",
            &format!("/clients/{client}/tools"),
            &[],
            Some(json!({"tools": []})),
        )
        .await;
    assert_eq!(a.status, 200);
    s.post(&call_path(&client, &call, "ack"), json!({})).await;
    assert_eq!(
        s.post(&call_path(&client, &call, "result"), json!({"text": "ok"}))
            .await
            .status,
        200
    );
    let types = s.event_types(0).await;
    let replaced = types
        .iter()
        .position(|t| t == "client_tools_replaced")
        .unwrap();
    let succeeded = types
        .iter()
        .position(|t| t == "client_tool_succeeded")
        .unwrap();
    assert!(replaced < succeeded);
}

#[tokio::test]
async fn settled_calls_are_pruned_past_the_bound() {
    let server = start(|c| c.settled_calls = 3).await;
    let s = Session::create(&server).await;
    let client = s.web_client().await;
    let run = s.run().await;
    let mut calls = Vec::new();
    for _ in 0..5 {
        let call = s.call(&run, "client__web__highlight_row", json!({})).await;
        s.post(&call_path(&client, &call, "ack"), json!({})).await;
        s.post(&call_path(&client, &call, "result"), json!({"text": "ok"}))
            .await;
        calls.push(call);
    }
    assert_eq!(
        s.get(&format!("/runs/{run}/calls/{}", calls[0]))
            .await
            .status,
        404
    );
    assert_eq!(
        s.get(&format!("/runs/{run}/calls/{}", calls[4]))
            .await
            .status,
        200
    );
    assert_eq!(
        s.get("/runs").await.json()["runs"][0]["calls"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

#[tokio::test]
async fn pending_calls_runs_and_sessions_are_capped() {
    let server = start(|c| {
        c.max_pending_calls = 2;
        c.max_runs = 2;
        c.max_sessions = 1;
    })
    .await;
    let s = Session::create(&server).await;
    let again = common::request(server.addr, "POST", "/v1/sessions", &[], None).await;
    assert_eq!(
        (again.status, again.error_type().as_str()),
        (429, "rate_limited")
    );
    assert!(again.header("retry-after").is_some());
    let client = s.web_client().await;
    let run = s.run().await;
    let first = s.call(&run, "client__web__highlight_row", json!({})).await;
    s.call(&run, "client__web__highlight_row", json!({})).await;
    let a = s
        .post(
            &format!("/runs/{run}/calls"),
            json!({"tool": "client__web__highlight_row"}),
        )
        .await;
    assert_eq!((a.status, a.error_type().as_str()), (429, "rate_limited"));
    assert_eq!(a.header("retry-after"), Some("1"));
    // Settling one makes room.
    s.post(&call_path(&client, &first, "ack"), json!({})).await;
    s.post(&call_path(&client, &first, "result"), json!({"text": "ok"}))
        .await;
    s.call(&run, "client__web__highlight_row", json!({})).await;
    // Two active runs are the limit; an ended run is pruned to make room.
    let second = s.run().await;
    assert_eq!(s.send("POST", "/runs", &[], None).await.status, 429);
    s.delete(&format!("/runs/{second}")).await;
    s.run().await;
    assert_eq!(
        s.get("/runs").await.json()["runs"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}
