//! Registration, pings, lapses, retries and fatal errors, in virtual time.

mod engine_support;

use client_tools_core::engine::{ClientState, Config, Engine, Input, Method, Output, Status};
use client_tools_core::protocol::{ErrorKind, Lifetime};
use engine_support::*;
use serde_json::json;

#[test]
fn register_sends_name_lifetime_tools_and_keeps_id_name_expiry() {
    let mut h = Harness::new(config());
    let reg = h.take_send(Method::Post, "/clients");
    assert_eq!(reg.url, "https://api.test/v1/sessions/ses_1/clients");
    assert_eq!(reg.header("Authorization"), Some("Bearer tok"));
    assert_eq!(reg.header("Content-Type"), Some("application/json"));
    assert_eq!(reg.header("Idempotency-Key"), Some("pfx-1"));
    let body = body_json(&reg);
    assert_eq!(body["name"], "web");
    assert_eq!(
        body["lifetime"],
        json!({"type": "ttl", "data": {"seconds": 60}})
    );
    assert_eq!(body["tools"][0]["name"], "highlight_row");
    assert_eq!(
        body["tools"][0]["parameters"]["required"],
        json!(["row_id"])
    );
    assert_eq!(h.engine.state(), ClientState::Registering);

    h.answer(&reg, 201, &client_json("cli_9", "web-2", Some(T0 + 60_000)));
    assert_eq!(h.engine.state(), ClientState::Registered);
    assert_eq!(h.engine.id(), Some("cli_9"));
    assert_eq!(h.engine.name(), Some("web-2"));
    assert_eq!(h.engine.expires_at(), Some("2026-11-29T12:01:00Z"));
    assert_eq!(h.engine.expires_at_ms(), Some(T0 + 60_000));
    assert_eq!(
        h.statuses(),
        [&Status::Registered {
            id: "cli_9".into(),
            name: "web-2".into(),
            expires_at: Some("2026-11-29T12:01:00Z".into())
        }]
    );
}

#[test]
fn config_invalid_is_refused_naming_the_field() {
    type Change = Box<dyn Fn(&mut Config)>;
    let cases: Vec<(Change, &str, ErrorKind)> = vec![
        (
            Box::new(|c| c.name = "Web".into()),
            "name",
            ErrorKind::BadCharacter,
        ),
        (
            Box::new(|c| c.lifetime = Lifetime::Ttl { seconds: 4 }),
            "lifetime.data.seconds",
            ErrorKind::OutOfRange,
        ),
        (
            Box::new(|c| c.tools.push(highlight_row())),
            "tools[2].name",
            ErrorKind::Duplicate,
        ),
        (
            Box::new(|c| c.tools[1].timeout_ms = Some(0)),
            "tools[1].timeoutMs",
            ErrorKind::OutOfRange,
        ),
        (
            Box::new(|c| c.tools[0].max_calls_per_run = Some(0)),
            "tools[0].maxCallsPerRun",
            ErrorKind::OutOfRange,
        ),
        (
            Box::new(|c| c.token = " ".into()),
            "token",
            ErrorKind::Empty,
        ),
        (
            Box::new(|c| c.base_url = "api.test".into()),
            "baseUrl",
            ErrorKind::BadCharacter,
        ),
        (
            Box::new(|c| c.paths.ping = "ping".into()),
            "paths.ping",
            ErrorKind::BadCharacter,
        ),
    ];
    for (change, field, kind) in cases {
        let mut c = config();
        change(&mut c);
        let err = Engine::new(c, T0).err().expect("refused");
        assert_eq!((err.field.as_str(), err.kind), (field, kind), "{err}");
    }
}

#[test]
fn ping_every_third_of_ttl_from_deadlines() {
    let mut h = Harness::registered(config());
    assert_eq!(h.engine.poll_timeout(), Some(T0 + 20_000));
    h.advance_to(T0 + 19_999);
    assert_eq!(h.count_sends(Method::Post, "/ping"), 0);
    h.advance_to(T0 + 20_000);
    let ping = h.take_send(Method::Post, "/clients/cli_1/ping");
    assert!(ping.body.is_none());
    // The next ping is a third of the TTL after this one was sent, not after its answer.
    h.now = T0 + 20_300;
    h.answer(&ping, 200, r#"{"expires_at": "2026-11-29T12:01:20Z"}"#);
    assert_eq!(h.engine.expires_at(), Some("2026-11-29T12:01:20Z"));
    assert_eq!(h.engine.poll_timeout(), Some(T0 + 40_000));
}

#[test]
fn ping_late_timer_pings_at_once() {
    let mut h = Harness::registered(config());
    // A hidden tab's timer fires 75 s late: one ping at once, not one per missed period.
    h.advance_to(T0 + 95_000);
    assert_eq!(h.count_sends(Method::Post, "/ping"), 1);
    let ping = h.take_send(Method::Post, "/ping");
    h.answer(&ping, 200, "{}");
    assert_eq!(h.engine.poll_timeout(), Some(T0 + 115_000));
}

#[test]
fn ping_each_has_new_idempotency_key_and_retry_keeps_it() {
    let mut h = Harness::registered(config());
    h.advance_to(T0 + 20_000);
    let first = h.take_send(Method::Post, "/ping");
    let key = first.header("Idempotency-Key").unwrap().to_owned();
    h.answer(&first, 503, "");
    h.fire_next();
    let retry = h.take_send(Method::Post, "/ping");
    assert_ne!(retry.id, first.id);
    assert_eq!(retry.header("Idempotency-Key"), Some(key.as_str()));
    h.input(Input::NetworkError {
        request: retry.id,
        message: "offline".into(),
    });
    h.fire_next();
    let again = h.take_send(Method::Post, "/ping");
    assert_eq!(again.header("Idempotency-Key"), Some(key.as_str()));
    h.answer(&again, 200, "{}");
    h.fire_next();
    let next = h.take_send(Method::Post, "/ping");
    assert_ne!(next.header("Idempotency-Key"), Some(key.as_str()));
}

#[test]
fn retry_after_is_the_floor_of_a_retry() {
    let mut h = Harness::registered(config());
    h.advance_to(T0 + 20_000);
    let ping = h.take_send(Method::Post, "/ping");
    h.input(Input::Answer {
        request: ping.id,
        status: 429,
        body: error_json("rate_limited", "slow down"),
        retry_after_ms: Some(12_000),
    });
    assert!(h.engine.poll_timeout().unwrap() >= T0 + 32_000);
    h.advance_to(T0 + 31_999);
    assert_eq!(h.count_sends(Method::Post, "/ping"), 0);
}

#[test]
fn ping_404_reregisters_with_current_tools_and_tells_app() {
    let mut h = Harness::registered(config());
    let op = h
        .engine
        .set_tools(vec![tool("next_screen", None)], h.now)
        .unwrap();
    h.drain();
    let put = h.take_send(Method::Put, "/clients/cli_1/tools");
    h.answer(&put, 200, &client_json(CLIENT, "web", None));
    assert!(h.out.contains(&Output::OpDone { op, result: Ok(()) }));
    h.advance_to(T0 + 20_000);
    let ping = h.take_send(Method::Post, "/ping");
    h.answer(&ping, 404, &error_json("not_found", "unknown client"));
    assert_eq!(h.statuses().last(), Some(&&Status::Lapsed));
    assert_eq!(h.engine.state(), ClientState::Registering);
    let reg = h.take_send(Method::Post, "/clients");
    assert_eq!(body_json(&reg)["tools"][0]["name"], "next_screen");
    h.answer(
        &reg,
        201,
        &client_json("cli_2", "web", Some(h.now + 60_000)),
    );
    assert!(matches!(h.statuses().last(), Some(Status::Reregistered { id, .. }) if id == "cli_2"));
    assert_eq!(h.engine.id(), Some("cli_2"));
    // The stream is open: the new registration reads its pending calls.
    h.take_send(Method::Get, "/clients/cli_2/calls");
}

#[test]
fn never_lifetime_does_not_ping() {
    let mut c = config();
    c.lifetime = Lifetime::Never;
    let mut h = Harness::registered(c);
    assert_eq!(h.engine.poll_timeout(), None);
    h.advance_to(T0 + 3_600_000);
    h.input(Input::VisibilityChanged { hidden: true });
    h.input(Input::VisibilityChanged { hidden: false });
    assert_eq!(h.count_sends(Method::Post, "/ping"), 0);
}

#[test]
fn unauthorized_401_is_fatal() {
    let mut h = Harness::new(config());
    let reg = h.take_send(Method::Post, "/clients");
    h.answer(&reg, 401, &error_json("unauthorized", "unknown token"));
    assert_eq!(h.engine.state(), ClientState::Failed);
    assert!(
        matches!(h.statuses().last(), Some(Status::Error { fatal: true, message })
        if message.contains("unknown token"))
    );
    assert_eq!(h.engine.poll_timeout(), None);
    let stream = h.stream_id();
    assert!(h.out.contains(&Output::CloseStream { stream }));
    // Nothing more happens.
    h.out.clear();
    h.advance_to(T0 + 3_600_000);
    h.input(Input::VisibilityChanged { hidden: false });
    assert!(h.out.is_empty());
}

#[test]
fn register_refused_400_is_fatal_with_the_servers_reason() {
    let mut h = Harness::new(config());
    let reg = h.take_send(Method::Post, "/clients");
    h.answer(
        &reg,
        400,
        &error_json("invalid_request", "tools[0].name: bad"),
    );
    assert!(
        matches!(h.statuses().last(), Some(Status::Error { fatal: true, message })
        if message.contains("tools[0].name: bad"))
    );
}

#[test]
fn register_client_limit_is_tried_again_under_a_new_key_not_fatal() {
    let mut h = Harness::new(config());
    let reg = h.take_send(Method::Post, "/clients");
    h.answer(
        &reg,
        409,
        &error_json("client_limit_reached", "32 live clients"),
    );
    assert!(matches!(
        h.statuses().last(),
        Some(Status::Error { fatal: false, .. })
    ));
    h.fire_next();
    // The server keeps the 409 under the old key: the same key would get it forever.
    let again = h.take_send(Method::Post, "/clients");
    assert!(again.header("Idempotency-Key").is_some());
    assert_ne!(
        again.header("Idempotency-Key"),
        reg.header("Idempotency-Key")
    );
    assert_eq!(again.body, reg.body);
}

#[test]
fn idempotency_keys_are_new_per_request_with_the_configured_prefix() {
    let mut h = Harness::registered(config());
    let mut keys = Vec::new();
    for _ in 0..3 {
        h.fire_next();
        let ping = h.take_send(Method::Post, "/ping");
        keys.push(ping.header("Idempotency-Key").unwrap().to_owned());
        h.answer(&ping, 200, "{}");
    }
    // pfx-1 was the register, pfx-2 … the pings.
    assert_eq!(keys, ["pfx-2", "pfx-3", "pfx-4"]);
}

#[test]
fn register_answer_that_is_not_a_client_is_tried_again() {
    let mut h = Harness::new(config());
    let reg = h.take_send(Method::Post, "/clients");
    // A captive portal answering for the server.
    h.answer(&reg, 200, "<html>Sign in to the Wi-Fi</html>");
    assert!(
        matches!(h.statuses().last(), Some(Status::Error { fatal: false, message })
        if message.starts_with("register: the answer is not a client object"))
    );
    assert_eq!(h.engine.state(), ClientState::Registering);
    h.fire_next();
    let again = h.take_send(Method::Post, "/clients");
    assert_eq!(
        again.header("Idempotency-Key"),
        reg.header("Idempotency-Key")
    );
    h.answer(
        &again,
        201,
        &client_json(CLIENT, "web", Some(h.now + 60_000)),
    );
    assert_eq!(h.engine.state(), ClientState::Registered);
}

#[test]
fn retry_after_is_honoured_up_to_five_minutes() {
    let mut h = Harness::registered(config());
    h.advance_to(T0 + 20_000);
    let ping = h.take_send(Method::Post, "/ping");
    h.input(Input::Answer {
        request: ping.id,
        status: 503,
        body: String::new(),
        retry_after_ms: Some(86_400_000),
    });
    assert_eq!(h.engine.poll_timeout(), Some(T0 + 20_000 + 300_000));
}
