//! A Rust worker against the reference server over loopback, as an app would run it: calls
//! answered (each result convention, a schema failure, a panic), tools replaced, bad options,
//! refused and slow registrations.

mod common;

use client_tools_native::{Client, ClientState, ErrorKind, Lifetime, Options, Tool, PANICKED_TEXT};
use common::{devserver, options, Agent, Log};
use serde_json::{json, Map, Value};
use std::time::{Duration, SystemTime};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_are_answered_by_async_handlers() {
    let server = devserver(|_| {}).await;
    let agent = Agent::new(server.addr).await;
    let seen: Log<(String, String, String, SystemTime)> = Log::new();
    let seen2 = seen.clone();
    let client = Client::register(
        options(&agent)
            .tool(
                Tool::new("echo", "Says the text back.", move |args, ctx| {
                    let seen = seen2.clone();
                    async move {
                        let c = &ctx;
                        seen.push((
                            c.call_id().into(),
                            c.run_id().into(),
                            c.tool().into(),
                            c.deadline(),
                        ));
                        format!("you said {}", args["text"].as_str().unwrap_or_default())
                    }
                })
                .parameters(json!({"type": "object", "required": ["text"],
                    "properties": {"text": {"type": "string"}}})),
            )
            .tool(Tool::new(
                "divide",
                "a / b.",
                |args: Map<String, Value>, _ctx| async move {
                    let (a, b) = (
                        args["a"].as_i64().unwrap_or(0),
                        args["b"].as_i64().unwrap_or(0),
                    );
                    if b == 0 {
                        Err("division by zero")
                    } else {
                        Ok(json!({"quotient": a / b}))
                    }
                },
            ))
            .tool(Tool::new("done", "Returns nothing.", |_args, _ctx| async {}))
            .tool(Tool::new("boom", "Panics.", |_args, _ctx| async move {
                if true {
                    panic!("internal detail the model must not read");
                }
                "never"
            })),
    )
    .await
    .expect("registers");
    assert_eq!(client.name().as_deref(), Some("worker"));
    assert_eq!(client.state(), ClientState::Registered);
    let id = client.id().unwrap();
    assert_eq!(agent.client_ids().await, vec![id]);
    // A worker is not a tab: by default it lives until it leaves.
    let listed = agent.send("GET", "/clients", None).await;
    assert_eq!(
        listed["clients"][0]["lifetime"],
        json!({"type": "never"}),
        "{listed}"
    );
    assert_eq!(listed["clients"][0]["expires_at"], Value::Null, "{listed}");
    let tools = agent.send("GET", "/tools", None).await.to_string();
    for t in ["echo", "divide", "done", "boom"] {
        assert!(tools.contains(&format!("client__worker__{t}")), "{tools}");
    }

    let cases = [
        ("echo", json!({"text": "hi"}), "you said hi", false),
        (
            "echo",
            json!({"text": 5}),
            "Invalid arguments for \"echo\": arguments.text: integer 5, needs string (type)",
            true,
        ),
        (
            "divide",
            json!({"a": 7, "b": 2}),
            r#"{"quotient":3}"#,
            false,
        ),
        ("divide", json!({"a": 7, "b": 0}), "division by zero", true),
        ("done", json!({}), "Done.", false),
        ("boom", json!({}), PANICKED_TEXT, true),
    ];
    let mut ids = Vec::new();
    for (tool, args, _, _) in &cases {
        ids.push(agent.call("worker", tool, args.clone()).await);
    }
    for (id, (tool, _, text, is_error)) in ids.iter().zip(&cases) {
        let v = agent.settled(id).await;
        assert_eq!(v["state"], "succeeded", "{tool}: {v}");
        assert_eq!(
            (v["text"].as_str(), v["is_error"].as_bool()),
            (Some(*text), Some(*is_error)),
            "{tool}"
        );
    }
    // The handler saw this call's ids and a deadline about 30 s out.
    let (call_id, run_id, tool, deadline) = seen.items()[0].clone();
    assert_eq!(
        (call_id.as_str(), run_id.as_str(), tool.as_str()),
        (ids[0].as_str(), agent.run.as_str(), "echo")
    );
    let left = deadline.duration_since(SystemTime::now()).unwrap();
    assert!(
        left > Duration::from_secs(20) && left <= Duration::from_secs(30),
        "{left:?}"
    );

    client.leave().await.expect("leaves");
    assert_eq!(client.state(), ClientState::Left);
    assert_eq!(agent.client_ids().await, Vec::<String>::new());
    client.leave().await.expect("leaving twice is fine");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_options_name_the_field() {
    let opts = || Options::new("http://127.0.0.1:9", "s", "t");
    let noop = || Tool::new("t", "A tool.", |_args, _ctx| async {});
    let cases = [
        (opts().name("Bad Name"), "name"),
        (Options::new("ftp://x", "s", "t"), "base_url"),
        (Options::new("http://x", "", "t"), "session_id"),
        (Options::new("http://x", "s", " "), "token"),
        (opts().lifetime(Lifetime::Ttl { seconds: 1 }), "lifetime"),
        (
            opts().tool(noop().timeout(Duration::ZERO)),
            "tools[0].timeout",
        ),
        (
            opts().tool(noop().max_calls_per_run(0)),
            "tools[0].max_calls_per_run",
        ),
        (
            opts().tool(noop().parameters(json!("not a schema"))),
            "tools[0].parameters",
        ),
        (opts().tool(noop()).tool(noop()), "tools[1].name"),
        (opts().register_timeout(Duration::ZERO), "register_timeout"),
    ];
    for (o, field) in cases {
        let e = Client::register(o).await.expect_err(field);
        assert_eq!(
            (e.kind(), e.field()),
            (ErrorKind::InvalidOption, Some(field)),
            "{e}"
        );
        assert!(e.to_string().starts_with(&format!("{field}: ")), "{e}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_and_timed_out_registrations_say_why() {
    let server = devserver(|_| {}).await;
    let agent = Agent::new(server.addr).await;

    let e = Client::register(Options::new(
        agent.base.clone(),
        agent.session.clone(),
        "wrong",
    ))
    .await
    .expect_err("a wrong token");
    assert_eq!(e.kind(), ErrorKind::Unauthorized, "{e}");
    assert!(e.message().contains("401"), "{e}");

    // Every register answers 503: retried until the register timeout, which names it.
    agent
        .send(
            "POST",
            "/faults",
            Some(json!({"fail_requests":
            {"path_contains": "/clients", "status": 503, "count": 1000}})),
        )
        .await;
    let e = Client::register(options(&agent).register_timeout(Duration::from_millis(1500)))
        .await
        .expect_err("no registration");
    assert_eq!(e.kind(), ErrorKind::RegisterTimeout, "{e}");
    assert!(
        e.message().starts_with("not registered within 1500 ms"),
        "{e}"
    );
    assert!(
        e.message()
            .contains("/clients answered 503 (server_error: "),
        "{e}"
    );
    // Nothing goes on registering in the background once the faults are gone.
    agent.send("DELETE", "/faults", None).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(agent.client_ids().await, Vec::<String>::new());

    // No server at all: the network error is what failed last.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let e = Client::register(Options::new(base, "s", "t").register_timeout(Duration::from_secs(1)))
        .await
        .expect_err("nothing listens");
    assert_eq!(e.kind(), ErrorKind::RegisterTimeout, "{e}");
    assert!(e.message().contains("Connection refused"), "{e}");

    // https:// speaks TLS: the plain-HTTP devserver cannot answer the handshake.
    let base = format!("https://{}", server.addr);
    let e = Client::register(Options::new(base, "s", "t").register_timeout(Duration::from_secs(1)))
        .await
        .expect_err("no TLS there");
    assert_eq!(e.kind(), ErrorKind::RegisterTimeout, "{e}");
    // rustls read the plain-HTTP answer where a TLS record belonged.
    assert!(e.message().contains("InvalidContentType"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_are_replaced_and_checked() {
    let server = devserver(|_| {}).await;
    let agent = Agent::new(server.addr).await;
    let client =
        Client::register(
            options(&agent).tool(Tool::new("old", "The old tool.", |_a, _c| async { "old" })),
        )
        .await
        .unwrap();
    client
        .set_tools(vec![Tool::new("new", "The new tool.", |_a, _c| async {
            "new"
        })])
        .await
        .expect("the server takes the new list");
    let tools = agent.send("GET", "/tools", None).await.to_string();
    assert!(
        tools.contains("client__worker__new") && !tools.contains("client__worker__old"),
        "{tools}"
    );
    let call = agent.call("worker", "new", json!({})).await;
    assert_eq!(agent.settled(&call).await["text"], "new");

    let e = client
        .set_tools(vec![Tool::new("has space", "Bad name.", |_a, _c| async {})])
        .await
        .expect_err("a bad tool name");
    assert_eq!(
        (e.kind(), e.field()),
        (ErrorKind::InvalidOption, Some("tools[0].name")),
        "{e}"
    );
    client.leave().await.unwrap();
}
