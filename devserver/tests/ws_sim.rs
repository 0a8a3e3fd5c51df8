//! The voice-agent socket simulator (`GET …/ws`, `…/ws/calls`) with a raw WebSocket client:
//! who may connect, the frames of each dialect, each documented rule, and the faults.

mod common;

use common::{start, Session, SOON};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

async fn connect(s: &Session, dialect: &str) -> Ws {
    let before = s.get("/ws/log").await.json()["connections"]
        .as_u64()
        .unwrap();
    let url = format!(
        "ws://{}{}?dialect={dialect}&access_token={}",
        s.addr,
        s.path("/ws"),
        s.token
    );
    let (ws, _) = connect_async(url).await.expect("the socket opens");
    for _ in 0..100 {
        let log = s.get("/ws/log").await.json();
        if log["connected"] == json!(true) && log["connections"].as_u64().unwrap() > before {
            return ws;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the server never held the socket");
}

/// The next text frame, parsed.
async fn next(ws: &mut Ws) -> Value {
    loop {
        match tokio::time::timeout(SOON, ws.next())
            .await
            .expect("a frame in time")
        {
            Some(Ok(Message::Text(t))) => return serde_json::from_str(t.as_str()).unwrap(),
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
            other => panic!("expected a text frame, got {other:?}"),
        }
    }
}

async fn send(ws: &mut Ws, frame: Value) {
    ws.send(Message::Text(frame.to_string().into()))
        .await
        .unwrap();
}

async fn place(s: &Session, body: Value) -> String {
    let a = s.post("/ws/calls", body).await;
    assert_eq!(a.status, 201, "{:?}", a.body);
    a.json()["call_id"].as_str().unwrap().to_owned()
}

async fn outcome(s: &Session, id: &str) -> Value {
    s.get(&format!("/ws/calls/{id}?wait=5")).await.json()
}

#[tokio::test]
async fn the_socket_needs_the_sessions_token_in_the_query_and_a_known_dialect() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let other = Session::create(&server).await;
    let get = |q: String| {
        let path = s.path(&format!("/ws{q}"));
        async move { common::request(server.addr, "GET", &path, &[], None).await }
    };
    assert_eq!(get("?dialect=cartesia".into()).await.status, 401);
    assert_eq!(
        get("?dialect=cartesia&access_token=nope".into())
            .await
            .status,
        401
    );
    let a = get(format!("?dialect=cartesia&access_token={}", other.token)).await;
    assert_eq!(a.status, 403);
    let a = get(format!("?dialect=vapi&access_token={}", s.token)).await;
    assert_eq!(
        (a.status, a.json()["error"]["param"].clone()),
        (400, json!("dialect"))
    );
    let a = get(format!("?dialect=cartesia&access_token={}", s.token)).await;
    assert_eq!(a.status, 400, "not an upgrade: {:?}", a.body);
    let a = s.post("/ws/calls", json!({"tool_name": "t"})).await;
    assert_eq!((a.status, a.error_type()), (409, "no_socket".to_owned()));
    let a = s
        .post(
            "/ws/calls",
            json!({"tool_name": "t", "response_timeout_ms": 0}),
        )
        .await;
    assert_eq!(
        (a.status, a.json()["error"]["param"].clone()),
        (400, json!("response_timeout_ms"))
    );
}

#[tokio::test]
async fn cartesia_calls_results_and_the_documented_limits() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let mut ws = connect(&s, "cartesia").await;
    let id = place(
        &s,
        json!({"tool_name": "open_cart", "parameters": {"cart_id": "7"}}),
    )
    .await;
    assert_eq!(
        next(&mut ws).await,
        json!({"type": "client_tool_call", "tool_call_id": id, "tool_name": "open_cart",
               "parameters": {"cart_id": "7"}, "expects_response": true})
    );
    let result = json!({"type": "client_tool_result", "tool_call_id": id, "result": "opened", "is_error": false});
    send(&mut ws, result.clone()).await;
    let o = outcome(&s, &id).await;
    assert_eq!(
        (o["state"].clone(), o["result"].clone()),
        (json!("answered"), json!("opened"))
    );
    send(&mut ws, result).await;
    // 4,096 bytes pass; 4,097 are replaced by result_too_large.
    let ok = place(&s, json!({"tool_name": "t"})).await;
    let big = place(&s, json!({"tool_name": "t"})).await;
    let r = |id: &str, text: String| json!({"type": "client_tool_result", "tool_call_id": id, "result": text, "is_error": false});
    send(&mut ws, r(&ok, "é".repeat(2048))).await;
    send(&mut ws, r(&big, format!("x{}", "é".repeat(2048)))).await;
    assert_eq!(outcome(&s, &ok).await["is_error"], json!(false));
    assert_eq!(
        outcome(&s, &big).await["error_type"],
        json!("result_too_large")
    );
    // expects_response false: done once sent; a result for it is a violation.
    let quiet = place(&s, json!({"tool_name": "t", "expects_response": false})).await;
    assert_eq!(outcome(&s, &quiet).await["state"], json!("dispatched"));
    // Unanswered: the platform's own words after response_timeout_ms.
    let slow = place(&s, json!({"tool_name": "t", "response_timeout_ms": 100})).await;
    let o = outcome(&s, &slow).await;
    assert_eq!(
        (o["state"].clone(), o["result"].clone()),
        (json!("timed_out"), json!("Tool call timed out"))
    );
    send(&mut ws, r(&quiet, "x".into())).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let v = s.get("/ws/log").await.json()["violations"].clone();
    let v: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(v.len(), 3, "{v:?}");
    assert!(
        v[0].starts_with(&format!("a second result for {id}")),
        "{v:?}"
    );
    assert!(v[1].contains("4097 bytes"), "{v:?}");
    assert!(v[2].contains("expects no response"), "{v:?}");
    // An object result closes the socket with 1008.
    let last = place(&s, json!({"tool_name": "t"})).await;
    let _ = next(&mut ws).await;
    send(&mut ws, json!({"type": "client_tool_result", "tool_call_id": last, "result": {"a": 1}, "is_error": false})).await;
    let close = loop {
        match ws.next().await {
            Some(Ok(Message::Close(frame))) => break frame.unwrap(),
            Some(Ok(_)) => {}
            other => panic!("expected a close frame, got {other:?}"),
        }
    };
    assert_eq!(
        (u16::from(close.code), close.reason.as_str()),
        (1008, "Invalid message received")
    );
    assert_eq!(outcome(&s, &last).await["reason"], json!("socket_closed"));
}

#[tokio::test]
async fn faults_send_a_call_twice_and_drop_the_socket_mid_call() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let mut ws = connect(&s, "elevenlabs").await;
    // What ElevenLabs sends first on every conversation (its SDK waits for it).
    let meta = next(&mut ws).await;
    assert_eq!(meta["type"], json!("conversation_initiation_metadata"));
    assert!(meta["conversation_initiation_metadata_event"]["conversation_id"].is_string());
    let id = place(&s, json!({"tool_name": "t", "fault": "send_twice"})).await;
    let first = next(&mut ws).await;
    assert_eq!(first["client_tool_call"]["tool_call_id"], json!(id));
    assert_eq!(next(&mut ws).await, first);
    let id = place(&s, json!({"tool_name": "t", "fault": "drop_socket"})).await;
    let _ = next(&mut ws).await;
    // No close frame: the connection just ends.
    let end = tokio::time::timeout(SOON, ws.next()).await.unwrap();
    assert!(!matches!(end, Some(Ok(Message::Close(_)))), "{end:?}");
    let o = outcome(&s, &id).await;
    assert_eq!(
        (o["state"].clone(), o["reason"].clone()),
        (json!("failed"), json!("socket_dropped"))
    );
}

#[tokio::test]
async fn realtime_calls_come_inside_a_response_and_response_create_is_refused_during_one() {
    let server = start(|_| {}).await;
    let s = Session::create(&server).await;
    let mut ws = connect(&s, "openai-realtime").await;
    let id = place(
        &s,
        json!({"tool_name": "t", "parameters": {"a": 1}, "keep_response_open_ms": 300}),
    )
    .await;
    assert_eq!(next(&mut ws).await["type"], json!("response.created"));
    let call = next(&mut ws).await;
    assert_eq!(call["type"], json!("response.function_call_arguments.done"));
    assert_eq!(
        (call["call_id"].clone(), call["arguments"].clone()),
        (json!(id), json!(r#"{"a":1}"#))
    );
    // The finished item too, as the platform sends it (what @openai/agents-realtime reads).
    let item = next(&mut ws).await;
    assert_eq!(item["type"], json!("response.output_item.done"));
    assert_eq!(
        (
            item["item"]["type"].clone(),
            item["item"]["call_id"].clone()
        ),
        (json!("function_call"), json!(id))
    );
    send(
        &mut ws,
        json!({"type": "conversation.item.create",
        "item": {"type": "function_call_output", "call_id": id, "output": "done"}}),
    )
    .await;
    send(&mut ws, json!({"type": "response.create"})).await;
    let error = next(&mut ws).await;
    assert_eq!(
        error["error"]["code"],
        json!("conversation_already_has_active_response")
    );
    let done = next(&mut ws).await;
    assert_eq!(done["type"], json!("response.done"));
    assert_eq!(done["response"]["output"][0]["call_id"], json!(id));
    send(&mut ws, json!({"type": "response.create"})).await;
    assert_eq!(next(&mut ws).await["type"], json!("response.created"));
    assert_eq!(next(&mut ws).await["type"], json!("response.done"));
    assert_eq!(outcome(&s, &id).await["result"], json!("done"));
    let log = s.get("/ws/log").await.json();
    assert_eq!(log["responses_created"], json!(1));
    assert_eq!(
        log["violations"],
        json!(["response.create while a response is active"])
    );
}
