//! Tool replacement: the `PUT`, results waiting for it, and the ops that report it.

mod engine_support;

use client_tools_core::calls::Returned;
use client_tools_core::engine::{EngineErrorKind, Input, Method, Output, Status};
use engine_support::*;
use serde_json::json;

#[test]
fn set_tools_sends_put_and_results_wait_for_it() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    h.ack_ok("call_1");
    // The handler navigated: the page declares the new screen's tools, then answers.
    let op = h
        .engine
        .set_tools(vec![tool("checkout", None)], at(h.now))
        .unwrap();
    h.drain();
    let put = h.take_send(Method::Put, "/clients/cli_1/tools");
    assert_eq!(body_json(&put)["tools"][0]["name"], "checkout");
    h.input(Input::HandlerDone {
        call_id: "call_1".into(),
        returned: Returned::text("navigated"),
    });
    assert_eq!(
        h.count_sends(Method::Post, "/result"),
        0,
        "the result waits for the PUT"
    );
    h.answer(&put, 200, &client_json(CLIENT, "web", None));
    assert!(h.out.contains(&Output::OpDone { op, result: Ok(()) }));
    let result = h.take_send(Method::Post, "/calls/call_1/result");
    assert_eq!(
        body_json(&result),
        json!({"text": "navigated", "is_error": false})
    );
    // New calls use the new list at once.
    h.dispatch(2, "call_2", "noop", json!({}));
    h.ack_ok("call_2");
    let r2 = h.take_send(Method::Post, "/calls/call_2/result");
    assert!(body_json(&r2)["text"]
        .as_str()
        .unwrap()
        .contains("checkout"));
}

#[test]
fn set_tools_twice_while_put_in_flight_sends_the_newest_after() {
    let mut h = Harness::registered(config());
    let a = h
        .engine
        .set_tools(vec![tool("a", None)], at(h.now))
        .unwrap();
    let b = h
        .engine
        .set_tools(vec![tool("b", None)], at(h.now))
        .unwrap();
    h.drain();
    let put = h.take_send(Method::Put, "/tools");
    assert_eq!(body_json(&put)["tools"][0]["name"], "a");
    h.answer(&put, 200, "{}");
    assert!(h.out.contains(&Output::OpDone {
        op: a,
        result: Ok(())
    }));
    let put2 = h.take_send(Method::Put, "/tools");
    assert_eq!(body_json(&put2)["tools"][0]["name"], "b");
    h.answer(
        &put2,
        400,
        &error_json("invalid_request", "tools[0].parameters: bad"),
    );
    assert!(h.out.iter().any(|o| matches!(o, Output::OpDone { op, result: Err(e) }
        if *op == b && e.kind == EngineErrorKind::Rejected && e.message.contains("tools[0].parameters"))));
}

#[test]
fn set_tools_invalid_is_refused_naming_the_field() {
    let mut h = Harness::registered(config());
    let err = h
        .engine
        .set_tools(vec![tool("ok", None), tool("bad name", None)], at(h.now))
        .unwrap_err();
    assert_eq!(err.field, "tools[1].name");
    assert_eq!(h.count_sends(Method::Put, "/tools"), 0);
}

#[test]
fn set_tools_put_404_reregisters_declaring_the_new_tools() {
    let mut h = Harness::registered(config());
    let op = h
        .engine
        .set_tools(vec![tool("cart", None)], at(h.now))
        .unwrap();
    h.drain();
    let put = h.take_send(Method::Put, "/tools");
    h.answer(&put, 404, &error_json("not_found", "unknown client"));
    assert_eq!(h.statuses().last(), Some(&&Status::Lapsed));
    let reg = h.take_send(Method::Post, "/clients");
    assert_eq!(body_json(&reg)["tools"][0]["name"], "cart");
    assert!(!h.out.iter().any(|o| matches!(o, Output::OpDone { .. })));
    h.answer(
        &reg,
        201,
        &client_json("cli_2", "web", Some(h.now + 60_000)),
    );
    assert!(h.out.contains(&Output::OpDone { op, result: Ok(()) }));
    assert_eq!(
        h.count_sends(Method::Put, "/tools"),
        0,
        "the registration declared them"
    );
}

#[test]
fn set_tools_while_registering_is_declared_by_a_put_after() {
    let mut h = Harness::new(config());
    let reg = h.take_send(Method::Post, "/clients");
    let op = h
        .engine
        .set_tools(vec![tool("later", None)], at(h.now))
        .unwrap();
    h.drain();
    assert_eq!(h.count_sends(Method::Put, "/tools"), 0);
    h.answer(&reg, 201, &client_json(CLIENT, "web", Some(h.now + 60_000)));
    let put = h.take_send(Method::Put, "/clients/cli_1/tools");
    assert_eq!(body_json(&put)["tools"][0]["name"], "later");
    h.answer(&put, 200, "{}");
    assert!(h.out.contains(&Output::OpDone { op, result: Ok(()) }));
}

#[test]
fn fatal_error_settles_every_open_op() {
    let mut h = Harness::registered(config());
    let tools_op = h
        .engine
        .set_tools(vec![tool("a", None)], at(h.now))
        .unwrap();
    let leave_op = h.engine.leave(at(h.now));
    h.drain();
    let del = h.take_send(Method::Delete, "/clients/cli_1");
    h.answer(
        &del,
        403,
        &error_json("forbidden", "another session's token"),
    );
    for op in [tools_op, leave_op] {
        let result = h.out.iter().find_map(|o| match o {
            Output::OpDone { op: o, result } if *o == op => Some(result.clone()),
            _ => None,
        });
        assert!(matches!(result, Some(Err(_))), "{op:?}: {result:?}");
    }
}

#[test]
fn the_same_list_again_sends_no_put() {
    let mut h = Harness::registered(config());
    // The list the registration declared: settled at once, nothing sent.
    let declared = vec![highlight_row(), tool("noop", None)];
    let same = h.engine.set_tools(declared, at(h.now)).unwrap();
    h.drain();
    assert!(h.out.contains(&Output::OpDone {
        op: same,
        result: Ok(())
    }));
    assert_eq!(h.count_sends(Method::Put, "/tools"), 0);
    h.out.clear();
    // A new list, then the same one again while its PUT is on its way (StrictMode's second
    // mount): one PUT, and both ops settle with its answer.
    let a = h
        .engine
        .set_tools(vec![tool("a", None)], at(h.now))
        .unwrap();
    h.drain();
    let again = h
        .engine
        .set_tools(vec![tool("a", None)], at(h.now))
        .unwrap();
    h.drain();
    let put = h.take_send(Method::Put, "/tools");
    assert!(!h.out.iter().any(|o| matches!(o, Output::OpDone { .. })));
    h.answer(&put, 200, "{}");
    for op in [a, again] {
        assert!(h.out.contains(&Output::OpDone { op, result: Ok(()) }));
    }
    assert_eq!(
        h.count_sends(Method::Put, "/tools"),
        0,
        "one PUT for the list"
    );
}

#[test]
fn a_refused_list_is_sent_again_when_set_again() {
    let mut h = Harness::registered(config());
    h.engine
        .set_tools(vec![tool("b", None)], at(h.now))
        .unwrap();
    h.drain();
    let put = h.take_send(Method::Put, "/tools");
    h.answer(&put, 400, &error_json("invalid_request", "tools[0]: bad"));
    let op = h
        .engine
        .set_tools(vec![tool("b", None)], at(h.now))
        .unwrap();
    h.drain();
    let put = h.take_send(Method::Put, "/tools");
    h.answer(&put, 200, "{}");
    assert!(h.out.contains(&Output::OpDone { op, result: Ok(()) }));
}
