//! The page's life: `whenHidden` keep/pause/leave, page hide and back-forward cache, freeze
//! and resume, and leaving.

mod engine_support;

use client_tools_core::calls::Returned;
use client_tools_core::engine::{ClientState, Input, LeftBy, Method, Output, Status, WhenHidden};
use engine_support::*;
use serde_json::json;

#[test]
fn hidden_keep_pings_on_and_pings_at_once_when_visible() {
    let mut h = Harness::registered(config());
    h.input(Input::VisibilityChanged { hidden: true });
    assert_eq!(h.next_deadline(), Some(T0 + 20_000));
    h.advance_to(T0 + 20_000);
    let ping = h.take_send(Method::Post, "/ping");
    h.answer(&ping, 200, "{}");
    h.now = T0 + 25_000;
    h.input(Input::VisibilityChanged { hidden: false });
    h.take_send(Method::Post, "/ping");
}

#[test]
fn hidden_pause_stops_pings_and_visible_pings_or_reregisters() {
    let mut c = config();
    c.when_hidden = WhenHidden::Pause;
    let mut h = Harness::registered(c.clone());
    h.input(Input::VisibilityChanged { hidden: true });
    assert_eq!(h.next_deadline(), None);
    h.advance_to(T0 + 50_000);
    assert_eq!(h.count_sends(Method::Post, "/ping"), 0);
    // Visible before the TTL ran out: ping at once.
    h.input(Input::VisibilityChanged { hidden: false });
    let ping = h.take_send(Method::Post, "/ping");
    h.answer(&ping, 200, "{}");

    // Hidden past the TTL: visible registers again, without a ping that would fail.
    let mut h = Harness::registered(c);
    h.input(Input::VisibilityChanged { hidden: true });
    h.now = T0 + 61_000;
    h.input(Input::VisibilityChanged { hidden: false });
    assert_eq!(h.count_sends(Method::Post, "/ping"), 0);
    assert_eq!(h.statuses().last(), Some(&&Status::Lapsed));
    h.take_send(Method::Post, "/clients");
}

#[test]
fn hidden_leave_leaves_and_visible_registers_again() {
    let mut c = config();
    c.when_hidden = WhenHidden::Leave;
    let mut h = Harness::registered(c);
    let stream = h.stream_id();
    h.input(Input::VisibilityChanged { hidden: true });
    let del = h.take_send(Method::Delete, "/clients/cli_1");
    assert!(!del.keepalive);
    assert!(del.header("Idempotency-Key").is_some());
    assert!(h.out.contains(&Output::CloseStream { stream }));
    assert_eq!(h.engine.state(), ClientState::Left);
    assert_eq!(
        h.statuses().last(),
        Some(&&Status::Left { by: LeftBy::Hidden })
    );
    assert_eq!(h.next_deadline(), None);
    h.answer(&del, 204, "");
    h.input(Input::VisibilityChanged { hidden: false });
    let reg = h.take_send(Method::Post, "/clients");
    assert_ne!(h.stream_id(), stream);
    h.answer(
        &reg,
        201,
        &client_json("cli_2", "web", Some(h.now + 60_000)),
    );
    assert!(matches!(
        h.statuses().last(),
        Some(Status::Reregistered { .. })
    ));
}

#[test]
fn pagehide_leaves_with_keepalive_delete() {
    let mut h = Harness::registered(config());
    h.input(Input::PageHide { persisted: false });
    let del = h.take_send(Method::Delete, "/clients/cli_1");
    assert!(del.keepalive);
    assert_eq!(h.engine.state(), ClientState::Left);
    assert_eq!(
        h.statuses().last(),
        Some(&&Status::Left {
            by: LeftBy::PageHide
        })
    );
    assert_eq!(h.engine.left_by(), Some(LeftBy::PageHide));
}

#[test]
fn bfcache_pageshow_registers_again() {
    let mut h = Harness::registered(config());
    h.input(Input::PageHide { persisted: true });
    h.take_send(Method::Delete, "/clients/cli_1");
    // A first load's pageshow is not a return.
    let mut fresh = Harness::registered(config());
    fresh.input(Input::PageShow { persisted: false });
    assert!(fresh.sends().is_empty());

    h.input(Input::PageShow { persisted: true });
    let reg = h.take_send(Method::Post, "/clients");
    h.answer(
        &reg,
        201,
        &client_json("cli_3", "web", Some(h.now + 60_000)),
    );
    assert_eq!(h.engine.id(), Some("cli_3"));
    assert!(matches!(
        h.statuses().last(),
        Some(Status::Reregistered { .. })
    ));
}

#[test]
fn leave_sends_delete_aborts_handlers_closes_stream() {
    let mut h = Harness::registered(config());
    h.dispatch(1, "call_1", "noop", json!({}));
    h.ack_ok("call_1");
    let stream = h.stream_id();
    let op = h.engine.leave(at(h.now));
    h.drain();
    assert_eq!(h.aborts(), [("call_1", "client left")]);
    assert!(h.out.contains(&Output::CloseStream { stream }));
    let del = h.take_send(Method::Delete, "/clients/cli_1");
    assert!(!h.out.iter().any(|o| matches!(o, Output::OpDone { .. })));
    // The app's leave, for good: the shell asks the engine, it keeps no copy.
    assert_eq!(
        h.statuses().last(),
        Some(&&Status::Left { by: LeftBy::App })
    );
    assert_eq!(h.engine.left_by(), Some(LeftBy::App));
    h.answer(&del, 204, "");
    assert!(h.out.contains(&Output::OpDone { op, result: Ok(()) }));
    // For good: visibility does not bring it back; a late handler is ignored.
    h.input(Input::VisibilityChanged { hidden: true });
    h.input(Input::VisibilityChanged { hidden: false });
    h.input(Input::HandlerDone {
        call_id: "call_1".into(),
        returned: Returned::text("done"),
    });
    assert_eq!(h.count_sends(Method::Post, "/clients"), 0);
    assert_eq!(h.count_sends(Method::Post, "/result"), 0);
}

#[test]
fn leave_while_registering_undoes_the_registration() {
    let mut h = Harness::new(config());
    let reg = h.take_send(Method::Post, "/clients");
    let op = h.engine.leave(at(h.now));
    h.drain();
    assert!(h.out.contains(&Output::OpDone { op, result: Ok(()) }));
    h.answer(
        &reg,
        201,
        &client_json("cli_7", "web", Some(h.now + 60_000)),
    );
    h.take_send(Method::Delete, "/clients/cli_7");
    assert_eq!(h.engine.state(), ClientState::Left);
}

#[test]
fn resume_after_freeze_pings_at_once() {
    let mut h = Harness::registered(config());
    h.input(Input::Freeze);
    assert!(h.sends().is_empty());
    h.now = T0 + 7_000;
    h.input(Input::Resume);
    h.take_send(Method::Post, "/clients/cli_1/ping");
}

#[test]
fn hidden_pause_lapse_waits_for_visible_to_register() {
    let mut c = config();
    c.when_hidden = WhenHidden::Pause;
    let mut h = Harness::registered(c.clone());
    h.input(Input::VisibilityChanged { hidden: true });
    // The server lets the paused client expire: nothing happens while hidden.
    h.now = T0 + 61_000;
    let data = json!({"type": "client_expired", "client_id": CLIENT, "name": "web"});
    let s = h.stream_id();
    h.bytes(s, &sse(5, "client_expired", &data));
    h.advance_to(T0 + 300_000);
    assert!(h.out.is_empty(), "{:?}", h.out);
    // Visible: the lapse is told and the client registers again.
    h.input(Input::VisibilityChanged { hidden: false });
    assert_eq!(h.statuses(), [&Status::Lapsed]);
    h.take_send(Method::Post, "/clients");

    // A ping on its way when the page hid, answered 404: lapsed, but no register until visible.
    let mut h = Harness::registered(c);
    h.advance_to(T0 + 20_000);
    let ping = h.take_send(Method::Post, "/ping");
    h.input(Input::VisibilityChanged { hidden: true });
    h.answer(&ping, 404, &error_json("not_found", "unknown client"));
    assert_eq!(h.statuses(), [&Status::Lapsed]);
    assert_eq!(h.engine.state(), ClientState::Registering);
    h.advance_to(T0 + 300_000);
    assert_eq!(h.count_sends(Method::Post, "/clients"), 0);
    h.input(Input::VisibilityChanged { hidden: false });
    h.take_send(Method::Post, "/clients");

    // With `keep`, a lapse while hidden registers again at once.
    let mut h = Harness::registered(config());
    h.input(Input::VisibilityChanged { hidden: true });
    h.bytes(s, &sse(5, "client_expired", &data));
    assert_eq!(h.statuses(), [&Status::Lapsed]);
    h.take_send(Method::Post, "/clients");
}

#[test]
fn leave_while_lapsed_and_hidden_stays_left_when_visible() {
    let mut c = config();
    c.when_hidden = WhenHidden::Pause;
    let mut h = Harness::registered(c);
    h.advance_to(T0 + 20_000);
    let ping = h.take_send(Method::Post, "/ping");
    h.input(Input::VisibilityChanged { hidden: true });
    h.answer(&ping, 404, &error_json("not_found", "unknown client"));
    let op = h.engine.leave(at(h.now));
    h.drain();
    assert!(h.out.contains(&Output::OpDone { op, result: Ok(()) }));
    h.input(Input::VisibilityChanged { hidden: false });
    assert_eq!(h.engine.state(), ClientState::Left);
    assert_eq!(h.count_sends(Method::Post, "/clients"), 0);
}
