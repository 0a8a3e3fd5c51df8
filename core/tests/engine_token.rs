//! A session that outlives its token (issue 29): with `token_refresh` a 401 asks the shell for a
//! fresh token, the refused request goes again with it and the stream reconnects with it; a
//! fresh token refused before the server took it once, a 403, a failed refresh or none within
//! the refresh timeout stop the engine (`unauthorized`); without `token_refresh` a 401 stops it
//! as before.

mod engine_support;

use client_tools_core::engine::Config;
use client_tools_core::engine::{
    ClientState, EngineErrorKind, Input, Method, Output, Status, TOKEN_REFRESH_TIMEOUT,
};
use engine_support::*;

fn refreshing() -> Config {
    let mut c = config();
    c.token_refresh = true;
    c
}

fn asked(out: &[Output]) -> usize {
    out.iter()
        .filter(|o| matches!(o, Output::RefreshToken))
        .count()
}

fn fatal(h: &Harness) -> Option<(EngineErrorKind, String)> {
    h.statuses().into_iter().find_map(|s| match s {
        Status::Error {
            fatal: true,
            kind: Some(kind),
            message,
        } => Some((*kind, message.clone())),
        _ => None,
    })
}

fn token(h: &mut Harness, t: &str) -> Vec<Output> {
    h.input(Input::Token(Ok(t.into())))
}

#[test]
fn without_a_token_function_a_401_stops_the_engine() {
    let mut h = Harness::registered(config());
    h.advance_to(h.now + 20_000);
    let ping = h.take_send(Method::Post, "/ping");
    h.answer(&ping, 401, &error_json("unauthorized", "token expired"));
    assert_eq!(asked(&h.out), 0);
    assert_eq!(h.engine.state(), ClientState::Failed);
    let (kind, message) = fatal(&h).expect("a fatal error");
    assert_eq!(kind, EngineErrorKind::Unauthorized);
    assert!(message.contains("refused the token"), "{message}");
}

#[test]
fn a_refused_ping_waits_for_the_fresh_token_and_goes_again_with_it() {
    let mut h = Harness::registered(refreshing());
    h.advance_to(h.now + 20_000);
    let ping = h.take_send(Method::Post, "/ping");
    assert_eq!(ping.header("Authorization"), Some("Bearer tok"));
    let out = h.answer(&ping, 401, &error_json("unauthorized", "token expired"));
    assert_eq!(asked(&out), 1, "{out:#?}");
    assert_eq!(
        h.count_sends(Method::Post, "/ping"),
        0,
        "held until the token comes"
    );
    token(&mut h, "tok2");
    let again = h.take_send(Method::Post, "/ping");
    assert_eq!(again.header("Authorization"), Some("Bearer tok2"));
    assert_eq!(
        again.header("Idempotency-Key"),
        ping.header("Idempotency-Key"),
        "the same request, sent again"
    );
    h.answer(
        &again,
        200,
        &client_json(CLIENT, "web", Some(h.now + 60_000)),
    );
    assert_eq!(h.engine.state(), ClientState::Registered);
    assert!(fatal(&h).is_none());
}

#[test]
fn what_is_refused_while_waiting_waits_too_and_is_asked_for_once() {
    let mut h = Harness::registered(refreshing());
    h.dispatch(1, "call_1", "noop", serde_json::json!({}));
    h.dispatch(2, "call_2", "noop", serde_json::json!({}));
    let a1 = h.take_send(Method::Post, "/calls/call_1/ack");
    let a2 = h.take_send(Method::Post, "/calls/call_2/ack");
    let mut out = h.answer(&a1, 401, "");
    out.extend(h.answer(&a2, 401, ""));
    assert_eq!(asked(&out), 1);
    token(&mut h, "tok2");
    for call in ["call_1", "call_2"] {
        let ack = h.take_send(Method::Post, &format!("/calls/{call}/ack"));
        assert_eq!(ack.header("Authorization"), Some("Bearer tok2"));
        h.answer(&ack, 200, "{}");
    }
    assert!(fatal(&h).is_none());
}

#[test]
fn the_stream_refused_401_reconnects_with_the_fresh_token() {
    let mut h = Harness::new(refreshing());
    let reg = h.take_send(Method::Post, "/clients");
    h.answer(&reg, 201, &client_json(CLIENT, "web", Some(h.now + 60_000)));
    let first = h.stream_id();
    let out = h.stream_opened(first, 401);
    assert!(out
        .iter()
        .any(|o| matches!(o, Output::CloseStream { stream } if *stream == first)));
    assert_eq!(asked(&out), 1);
    let out = token(&mut h, "tok2");
    let second = h.stream_id();
    assert_ne!(first, second, "{out:#?}");
    assert!(h
        .last_open_headers()
        .contains(&("Authorization", "Bearer tok2".to_owned())));
    h.stream_opened(second, 200);
    assert!(fatal(&h).is_none());
    // A later refusal of the taken token asks again: a session outlives any number of tokens.
    h.advance_to(h.now + 20_000);
    let ping = h.take_send(Method::Post, "/ping");
    assert_eq!(asked(&h.answer(&ping, 401, "")), 1);
}

#[test]
fn a_request_sent_with_the_old_token_goes_again_without_a_new_refresh() {
    let mut h = Harness::registered(refreshing());
    h.dispatch(1, "call_1", "noop", serde_json::json!({}));
    h.dispatch(2, "call_2", "noop", serde_json::json!({}));
    let a1 = h.take_send(Method::Post, "/calls/call_1/ack");
    let a2 = h.take_send(Method::Post, "/calls/call_2/ack");
    h.answer(&a1, 401, "");
    token(&mut h, "tok2");
    let again1 = h.take_send(Method::Post, "/calls/call_1/ack");
    h.answer(&again1, 200, "{}");
    // a2 went out with the first token before the refresh; its 401 comes now.
    let out = h.answer(&a2, 401, "");
    assert_eq!(asked(&out), 0);
    let again2 = h.take_send(Method::Post, "/calls/call_2/ack");
    assert_eq!(again2.header("Authorization"), Some("Bearer tok2"));
}

#[test]
fn three_rotations_each_answered_by_a_fresh_token() {
    let mut h = Harness::registered(refreshing());
    for round in 2..=4 {
        h.advance_to(h.now + 20_000);
        let ping = h.take_send(Method::Post, "/ping");
        assert_eq!(asked(&h.answer(&ping, 401, "")), 1, "round {round}");
        token(&mut h, &format!("tok{round}"));
        let again = h.take_send(Method::Post, "/ping");
        assert_eq!(
            again.header("Authorization"),
            Some(format!("Bearer tok{round}").as_str())
        );
        h.answer(
            &again,
            200,
            &client_json(CLIENT, "web", Some(h.now + 60_000)),
        );
        h.out.clear();
    }
    assert_eq!(h.engine.state(), ClientState::Registered);
    assert!(fatal(&h).is_none());
}

#[test]
fn a_fresh_token_refused_at_once_is_fatal_and_says_so() {
    let mut h = Harness::registered(refreshing());
    h.advance_to(h.now + 20_000);
    let ping = h.take_send(Method::Post, "/ping");
    h.answer(&ping, 401, "");
    token(&mut h, "still-bad");
    let again = h.take_send(Method::Post, "/ping");
    let out = h.answer(&again, 401, "");
    assert_eq!(asked(&out), 0, "no second refresh: that would loop");
    assert_eq!(h.engine.state(), ClientState::Failed);
    let (kind, message) = fatal(&h).expect("fatal");
    assert_eq!(kind, EngineErrorKind::Unauthorized);
    assert!(message.contains("just refreshed"), "{message}");
}

#[test]
fn a_403_is_fatal_even_with_a_token_function() {
    let mut h = Harness::registered(refreshing());
    h.advance_to(h.now + 20_000);
    let ping = h.take_send(Method::Post, "/ping");
    let out = h.answer(&ping, 403, &error_json("forbidden", "not this session"));
    assert_eq!(asked(&out), 0);
    assert_eq!(h.engine.state(), ClientState::Failed);
}

#[test]
fn a_failed_or_empty_or_missing_refresh_is_fatal() {
    for case in ["error", "empty", "timeout"] {
        let mut h = Harness::registered(refreshing());
        h.advance_to(h.now + 20_000);
        let ping = h.take_send(Method::Post, "/ping");
        h.answer(&ping, 401, "");
        match case {
            "error" => {
                h.input(Input::Token(Err("the backend answered 500".into())));
            }
            "empty" => {
                token(&mut h, "  ");
            }
            _ => {
                let due = h.next_deadline().expect("the refresh deadline");
                assert!(due <= h.now + TOKEN_REFRESH_TIMEOUT.as_ms());
                h.advance_to(h.now + TOKEN_REFRESH_TIMEOUT.as_ms());
            }
        }
        assert_eq!(h.engine.state(), ClientState::Failed, "{case}");
        let (kind, message) = fatal(&h).expect("fatal");
        assert_eq!(kind, EngineErrorKind::Unauthorized, "{case}");
        assert!(message.contains("token function"), "{case}: {message}");
        if case == "error" {
            assert!(message.contains("the backend answered 500"), "{message}");
        }
    }
}

#[test]
fn a_token_nobody_asked_for_is_ignored() {
    let mut h = Harness::registered(refreshing());
    token(&mut h, "unasked");
    h.advance_to(h.now + 20_000);
    let ping = h.take_send(Method::Post, "/ping");
    assert_eq!(ping.header("Authorization"), Some("Bearer tok"));
}

#[test]
fn a_fresh_token_a_header_cannot_carry_stops_the_engine_at_once_naming_the_problem() {
    for (fresh, problem) in [
        ("SECRET-2\nx", "a line break"),
        ("SECRET-2\0", "a NUL"),
        ("SECRET-\u{2}2", "a control character"),
        ("SECRET-\u{20ac}", "outside Latin-1"),
    ] {
        let mut h = Harness::registered(refreshing());
        h.advance_to(h.now + 20_000);
        let ping = h.take_send(Method::Post, "/ping");
        h.answer(&ping, 401, "");
        h.out.clear();
        token(&mut h, fresh);
        // At once: nothing goes out with it, no retry, no wait for a deadline.
        assert_eq!(h.count_sends(Method::Post, "/ping"), 0, "{fresh:?}");
        assert_eq!(h.engine.state(), ClientState::Failed, "{fresh:?}");
        let (kind, message) = fatal(&h).expect("fatal");
        assert_eq!(kind, EngineErrorKind::Unauthorized);
        assert!(message.contains(problem), "{message}");
        assert!(!message.contains("SECRET"), "the token in {message}");
    }
}

#[test]
fn every_token_is_sent_trimmed_as_fetch_would() {
    let mut c = refreshing();
    c.token = "tok\n".into();
    let mut h = Harness::registered(c);
    h.advance_to(h.now + 20_000);
    let ping = h.take_send(Method::Post, "/ping");
    assert_eq!(ping.header("Authorization"), Some("Bearer tok"));
    h.answer(&ping, 401, "");
    token(&mut h, " tok2\r\n");
    let again = h.take_send(Method::Post, "/ping");
    assert_eq!(again.header("Authorization"), Some("Bearer tok2"));
}

#[test]
fn a_first_token_a_header_cannot_carry_is_refused_naming_the_problem() {
    let mut c = config();
    c.token = "SECRET-1\nx".into();
    let e = c.validate().unwrap_err();
    assert_eq!(e.field, "token");
    assert!(e.message.contains("a line break"), "{}", e.message);
    assert!(!e.message.contains("SECRET"), "{}", e.message);
}
