//! Registration, pings, lapses, retries and fatal errors, in virtual time.

mod engine_support;

use client_tools_core::engine::{
    ClientState, Config, Engine, EngineErrorKind, Input, Method, Output, Status,
};
use client_tools_core::protocol::{ErrorKind, Lifetime};
use client_tools_core::time::Duration;
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
    assert_eq!(h.engine.expiry(), Some(at(T0 + 60_000)));
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
        let err = Engine::new(c, at(T0)).err().expect("refused");
        assert_eq!((err.field.as_str(), err.kind), (field, kind), "{err}");
    }
}

#[test]
fn ping_every_third_of_ttl_from_deadlines() {
    let mut h = Harness::registered(config());
    assert_eq!(h.next_deadline(), Some(T0 + 20_000));
    h.advance_to(T0 + 19_999);
    assert_eq!(h.count_sends(Method::Post, "/ping"), 0);
    h.advance_to(T0 + 20_000);
    let ping = h.take_send(Method::Post, "/clients/cli_1/ping");
    assert!(ping.body.is_none());
    // The next ping is a third of the TTL after this one was sent, not after its answer.
    h.now = T0 + 20_300;
    h.answer(&ping, 200, r#"{"expires_at": "2026-11-29T12:01:20Z"}"#);
    assert_eq!(h.engine.expires_at(), Some("2026-11-29T12:01:20Z"));
    assert_eq!(h.next_deadline(), Some(T0 + 40_000));
}

#[test]
fn ping_late_timer_pings_at_once() {
    let mut h = Harness::registered(config());
    // A hidden tab's timer fires 75 s late: one ping at once, not one per missed period.
    h.advance_to(T0 + 95_000);
    assert_eq!(h.count_sends(Method::Post, "/ping"), 1);
    let ping = h.take_send(Method::Post, "/ping");
    h.answer(&ping, 200, "{}");
    assert_eq!(h.next_deadline(), Some(T0 + 115_000));
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
        retry_after: Some(Duration::from_ms(12_000)),
    });
    assert!(h.next_deadline().unwrap() >= T0 + 32_000);
    h.advance_to(T0 + 31_999);
    assert_eq!(h.count_sends(Method::Post, "/ping"), 0);
}

#[test]
fn ping_404_reregisters_with_current_tools_and_tells_app() {
    let mut h = Harness::registered(config());
    let op = h
        .engine
        .set_tools(vec![tool("next_screen", None)], at(h.now))
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
    assert_eq!(h.next_deadline(), None);
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
        matches!(h.statuses().last(), Some(Status::Error { fatal: true, message, kind: Some(EngineErrorKind::Unauthorized) })
        if message.contains("unknown token"))
    );
    assert_eq!(h.next_deadline(), None);
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
        matches!(h.statuses().last(), Some(Status::Error { fatal: true, message, kind: Some(EngineErrorKind::Rejected) })
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
        matches!(h.statuses().last(), Some(Status::Error { fatal: false, message, kind: None })
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
        retry_after: Some(Duration::from_ms(86_400_000)),
    });
    assert_eq!(h.next_deadline(), Some(T0 + 20_000 + 300_000));
}

/// Answers every register request sent so far with `status` (and `body`).
fn answer_registers(h: &mut Harness, status: u16, body: &str) -> usize {
    let regs: Vec<_> = h
        .sends()
        .into_iter()
        .filter(|r| r.method == Method::Post && r.url.ends_with("/clients"))
        .cloned()
        .collect();
    h.out
        .retain(|o| !matches!(o, Output::Send(r) if r.url.ends_with("/clients")));
    for r in &regs {
        h.answer(r, status, body);
    }
    regs.len()
}

#[test]
fn register_timeout_stops_the_engine_saying_which_request_failed_last() {
    let mut c = config();
    c.register_timeout = Duration::from_ms(5_000);
    let mut h = Harness::new(c);
    // The server answers every register 503: retried with backoff until the deadline.
    let mut tries = 0;
    while h.engine.state() != ClientState::Failed {
        tries += answer_registers(&mut h, 503, "");
        h.fire_next();
    }
    assert!(tries >= 3, "{tries} registers");
    assert_eq!(h.now, T0 + 5_000, "stopped at the deadline, not later");
    let url = "https://api.test/v1/sessions/ses_1/clients";
    let message = format!("not registered within 5000 ms: POST {url} answered 503");
    assert_eq!(
        h.statuses().last(),
        Some(&&Status::Error {
            message: message.clone(),
            fatal: true,
            kind: Some(EngineErrorKind::RegisterTimeout),
        })
    );
    let failure = h.engine.failure().expect("stopped");
    assert_eq!(
        (failure.kind, failure.message.as_str()),
        (EngineErrorKind::RegisterTimeout, message.as_str())
    );
    assert_eq!(h.next_deadline(), None);
    let stream = h.stream_id();
    assert!(h.out.contains(&Output::CloseStream { stream }));
}

#[test]
fn register_timeout_names_a_network_error_and_undoes_a_late_registration() {
    let mut c = config();
    c.register_timeout = Duration::from_ms(2_000);
    let mut h = Harness::new(c);
    let reg = h.take_send(Method::Post, "/clients");
    h.input(Input::NetworkError {
        request: reg.id,
        message: "Failed to fetch".into(),
    });
    // The retry goes out and hangs; the deadline passes.
    while h.count_sends(Method::Post, "/clients") == 0 {
        h.fire_next();
    }
    let late = h.take_send(Method::Post, "/clients");
    h.advance_to(T0 + 2_000);
    assert_eq!(h.engine.state(), ClientState::Failed);
    assert!(
        matches!(h.statuses().last(), Some(Status::Error { fatal: true, message, .. })
        if message == "not registered within 2000 ms: POST https://api.test/v1/sessions/ses_1/clients failed: Failed to fetch"),
        "{:?}",
        h.statuses().last()
    );
    // The register that was on its way succeeds after all: the engine deletes it, so nothing
    // stays registered behind a stopped client, and reports nothing more.
    h.out.clear();
    h.answer(&late, 201, &client_json("cli_7", "web", None));
    let del = h.take_send(Method::Delete, "/clients/cli_7");
    assert!(del.header("Idempotency-Key").is_some());
    assert!(h.statuses().is_empty());
    assert_eq!(h.engine.id(), None);
}

#[test]
fn a_registration_in_time_stops_the_register_timeout() {
    let mut c = config();
    c.register_timeout = Duration::from_ms(5_000);
    c.lifetime = Lifetime::Never;
    let mut h = Harness::new(c);
    let reg = h.take_send(Method::Post, "/clients");
    h.advance_to(T0 + 4_000);
    h.answer(&reg, 201, &client_json(CLIENT, "web", None));
    assert_eq!(h.engine.state(), ClientState::Registered);
    // `never` pings not, the stream is not closed: nothing is scheduled, nothing fails.
    assert_eq!(h.next_deadline(), None);
    h.advance_to(T0 + 60_000);
    assert_eq!(h.engine.state(), ClientState::Registered);
    assert!(!h
        .statuses()
        .iter()
        .any(|s| matches!(s, Status::Error { .. })));
}

#[test]
fn register_timeout_defaults_to_30_s() {
    assert_eq!(config().register_timeout, Duration::from_secs(30));
    let mut h = Harness::new(config());
    let reg = h.take_send(Method::Post, "/clients");
    assert_eq!(h.next_deadline(), Some(T0 + 30_000));
    h.answer(&reg, 503, "");
    h.advance_to(T0 + 29_999);
    assert_ne!(h.engine.state(), ClientState::Failed);
    h.advance_to(T0 + 30_000);
    assert_eq!(
        h.engine.failure().map(|e| e.kind),
        Some(EngineErrorKind::RegisterTimeout)
    );
}
