//! The shared tool module served by a native worker (client-tools-native) to the devserver.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../../../native/tests/common/mod.rs"]
mod common;

use client_tools_native::Client;
use common::{devserver, options, Agent};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shared_tools_answer_from_a_worker() {
    let server = devserver(|_| {}).await;
    let agent = Agent::new(server.addr).await;
    let mut opts = options(&agent);
    for tool in shared_tools::tools() {
        opts = opts.tool(tool);
    }
    let client = Client::register(opts).await.expect("registered");
    let name = client.name().unwrap();
    for (tool, args, is_error, text) in shared_tools::expected() {
        let out = agent.settled(&agent.call(&name, tool, args).await).await;
        assert_eq!(out["is_error"], is_error, "{tool}: {out}");
        assert_eq!(
            out["text"],
            shared_tools::with_run(&text, &agent.run),
            "{tool}: {out}"
        );
    }
    let bad = agent.call(&name, "add", serde_json::json!({"a": 1})).await;
    let bad = agent.settled(&bad).await;
    assert_eq!(bad["is_error"], true, "the schema refuses it first: {bad}");
    client.leave().await.expect("left");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_builder_method_sets_what_it_says_in_a_worker() {
    let server = devserver(|_| {}).await;
    let agent = Agent::new(server.addr).await;
    let told = std::sync::Arc::new(shared_tools::Told::default());
    let opts = shared_tools::every_builder(&agent.base, &agent.session, &agent.token, told.clone());
    shared_tools::check_every_builder(&opts);
    let client = Client::register(opts).await.expect("registered");
    let name = client.name().unwrap();
    let ok = agent
        .call(&name, "every", serde_json::json!({"text": "a@b.example"}))
        .await;
    let ok = agent.settled(&ok).await;
    let bad = agent
        .call(&name, "every", serde_json::json!({"text": "no email"}))
        .await;
    let bad = agent.settled(&bad).await;
    shared_tools::check_every_builder_served(&ok, &bad, &told);
    client.leave().await.expect("left");
}
