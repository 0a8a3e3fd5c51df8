//! The turn-based simulator over real HTTP: a scripted conversation whose model calls client
//! function tools, blocked until `toolResponses` echo every call's `id`, `tool` and
//! `displayName`, then played on to the end.

mod common;

use common::http::request;
use common::{assert_error, start};
use serde_json::{json, Value};
use std::net::SocketAddr;

async fn post(addr: SocketAddr, path: &str, token: &str, body: Value) -> common::http::Answer {
    let auth = format!("Bearer {token}");
    let headers = [
        ("authorization", auth.as_str()),
        ("content-type", "application/json"),
    ];
    request(
        addr,
        "POST",
        path,
        &headers,
        Some(body.to_string().into_bytes()),
    )
    .await
}

#[tokio::test]
async fn a_scripted_conversation_blocks_on_tool_calls_until_every_response_echoes_them() {
    let server = start(|_| {}).await;
    let script = json!({"script": [
        {"toolCalls": [
            {"tool": "projects/p/tools/get_nearest_store", "displayName": "get_nearest_store", "args": {"zip_code": "92031"}},
            {"tool": "projects/p/tools/open_settings"},
        ]},
        {"text": "The nearest store is Alibaba."},
    ]});
    let created = post(server.addr, "/v1/turns", "", script).await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let (id, token) = (
        created.json()["id"].as_str().unwrap().to_owned(),
        created.json()["token"].as_str().unwrap().to_owned(),
    );
    let run = format!("/v1/turns/{id}:runSession");

    let first = post(
        server.addr,
        &run,
        &token,
        json!({"inputs": [{"text": "Where can I buy it?"}]}),
    )
    .await;
    assert_eq!(first.status, 200, "{:?}", first.body);
    assert_eq!(
        first.json(),
        json!({"outputs": [{"toolCalls": {"toolCalls": [
        {"id": "exec-1", "tool": "projects/p/tools/get_nearest_store", "displayName": "get_nearest_store", "args": {"zip_code": "92031"}},
        {"id": "exec-2", "tool": "projects/p/tools/open_settings", "args": {}},
    ]}, "turnCompleted": true}]})
    );

    // Blocked: no responses, half of them, a changed tool, a bad response shape.
    assert_error(
        &post(
            server.addr,
            &run,
            &token,
            json!({"inputs": [{"text": "hello?"}]}),
        )
        .await,
        409,
        "session_blocked",
    );
    let one = json!({"id": "exec-1", "tool": "projects/p/tools/get_nearest_store", "displayName": "get_nearest_store", "response": {"output": {"name": "Alibaba"}}});
    let two = json!({"id": "exec-2", "tool": "projects/p/tools/open_settings", "response": {"output": "Settings are open."}});
    let with = |list: Value| json!({"inputs": [{"toolResponses": {"toolResponses": list}}]});
    let half = post(server.addr, &run, &token, with(json!([one]))).await;
    assert_error(&half, 409, "session_blocked");
    assert!(
        half.json()["error"]["message"]
            .as_str()
            .unwrap()
            .ends_with("answer exec-2"),
        "{:?}",
        half.body
    );
    let mut renamed = two.clone();
    renamed["tool"] = json!("open_settings");
    let bad = post(server.addr, &run, &token, with(json!([one, renamed]))).await;
    assert_error(&bad, 400, "invalid_request");
    assert_eq!(
        bad.json()["error"]["param"],
        "inputs[0].toolResponses.toolResponses[1].tool"
    );
    let mut shapeless = two.clone();
    shapeless["response"] = json!({"name": "x"});
    let bad = post(server.addr, &run, &token, with(json!([one, shapeless]))).await;
    assert_eq!(
        bad.json()["error"]["param"],
        "inputs[0].toolResponses.toolResponses[1].response"
    );

    let done = post(server.addr, &run, &token, with(json!([two, one]))).await;
    assert_eq!(done.status, 200, "{:?}", done.body);
    assert_eq!(
        done.json(),
        json!({"outputs": [{"text": "The nearest store is Alibaba.", "turnCompleted": true}]})
    );
    let auth = format!("Bearer {token}");
    let seen = request(
        server.addr,
        "GET",
        &format!("/v1/turns/{id}"),
        &[("authorization", auth.as_str())],
        None,
    )
    .await;
    let seen = seen.json();
    assert_eq!(seen["state"], "ended");
    assert_eq!(
        seen["responses"],
        json!([one, two]),
        "kept in the calls' order"
    );

    // An answer for a call no longer pending; another session's token.
    let late = post(server.addr, &run, &token, with(json!([one]))).await;
    assert_eq!(
        late.json()["error"]["param"],
        "inputs[0].toolResponses.toolResponses[0].id"
    );
    assert_error(
        &post(server.addr, &run, "tok_wrong", json!({"inputs": []})).await,
        401,
        "unauthorized",
    );
    assert_error(
        &post(
            server.addr,
            &format!("/v1/turns/{id}"),
            &token,
            json!({"inputs": []}),
        )
        .await,
        404,
        "not_found",
    );
}

#[tokio::test]
async fn steps_are_appended_by_the_agent_route_and_a_bad_step_is_refused_naming_it() {
    let server = start(|_| {}).await;
    let bad = post(
        server.addr,
        "/v1/turns",
        "",
        json!({"script": [{"toolCalls": [{"displayName": "x"}]}]}),
    )
    .await;
    assert_error(&bad, 400, "invalid_request");
    assert_eq!(bad.json()["error"]["param"], "script[0].toolCalls[0]");
    let created = post(server.addr, "/v1/turns", "", json!({})).await.json();
    let (id, token) = (
        created["id"].as_str().unwrap(),
        created["token"].as_str().unwrap(),
    );
    let added = post(
        server.addr,
        &format!("/v1/turns/{id}/steps"),
        token,
        json!({"steps": [{"toolCalls": [{"tool": "t/a"}]}]}),
    )
    .await;
    assert_eq!(added.json(), json!({"steps": 1}));
    let out = post(
        server.addr,
        &format!("/v1/turns/{id}:runSession"),
        token,
        json!({"inputs": [{"text": "go"}]}),
    )
    .await
    .json();
    assert_eq!(
        out["outputs"][0]["toolCalls"]["toolCalls"][0]["tool"],
        "t/a"
    );
}
