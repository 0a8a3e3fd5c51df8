//! Browser tests of the `whenHidden` policies against a real devserver, with the page's
//! visibility simulated (`document.hidden` overridden, then `visibilitychange`): `keep` goes on
//! pinging, `pause` stops pinging and registers again when visible once the server let it
//! lapse, `leave` leaves while hidden and registers again when visible.
//! Run with `wasm-pack test --headless --chrome -- --test web_client_hidden`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[path = "web_client/support.rs"]
mod support;

use js_sys::Promise;
use support::{run, strings};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
const ttl5 = { type: "ttl", data: { seconds: 5 } };
const echo = { name: "echo", handler: (args) => `echo ${args.v}` };

async function callEcho(t, c) {
  const run = await t.a.startRun(t.base, t.s);
  const id = await t.a.callTool(t.base, t.s, run, `client__${c.name}__echo`, { v: "back" });
  const o = await t.a.waitCall(t.base, t.s, run, id, 5);
  return `${o.state} ${o.text}`;
}

// Registers with `whenHidden`, records the page's fetches, hides the page, runs `body`, and
// always shows the page again and stops recording.
async function hidden(t, whenHidden, body) {
  const { a } = t;
  const fetches = a.recordFetches();
  let shown = false;
  try {
    const w = a.watched(t.options({ name: `hide-${whenHidden}`, lifetime: ttl5, whenHidden, tools: [echo] }));
    const c = await t.register(w.options);
    const pings = () => fetches.requests.filter((r) => r.url.endsWith(`/clients/${c.id}/ping`)).length;
    const before = { id: c.id, expiresAt: c.expiresAt.getTime(), statuses: w.statuses.length };
    a.setHidden(true);
    const show = () => { shown = true; a.setHidden(false); };
    const seen = await body({ c, w, pings, before, show });
    seen.after = w.statuses.slice(before.statuses).map((s) => s.type).filter((s) => !s.startsWith("stream"));
    await c.leave();
    return seen;
  } finally {
    if (!shown) a.setHidden(false);
    fetches.restore();
  }
}

export function keep(t) {
  return hidden(t, "keep", async ({ c, pings, before, show }) => {
    await t.a.waitFor("expiresAt to move while hidden", () => c.expiresAt.getTime() !== before.expiresAt, 3500);
    const seen = { pings: pings(), moved: c.expiresAt.getTime() - before.expiresAt, state: c.state, sameId: c.id === before.id };
    show();
    seen.answer = await callEcho(t, c);
    return seen;
  });
}

export function pause(t) {
  const { a } = t;
  return hidden(t, "pause", async ({ c, w, pings, before, show }) => {
    const expired = () => a.events(t.base, t.s).then((log) =>
      log.some((e) => e.type === "client_expired" && e.data.client_id === before.id));
    await a.waitFor("the server to let the hidden client lapse", expired, 7500, 200);
    // Give a wrong re-registration (while still hidden) a moment to happen.
    await a.sleep(500);
    const log = await a.events(t.base, t.s);
    const seen = {
      pingsWhileHidden: pings(),
      expiresAtMoved: c.expiresAt.getTime() - before.expiresAt,
      registrationsWhileHidden: log.filter((e) => e.type === "client_registered").length,
      statusesWhileHidden: w.statuses.slice(before.statuses).map((s) => s.type).filter((s) => !s.startsWith("stream")),
    };
    show();
    await a.waitFor("the client to register again", () => w.statuses.some((s) => s.type === "reregistered"), 3000);
    seen.newId = c.id !== before.id;
    seen.name = c.name;
    seen.answer = await callEcho(t, c);
    return seen;
  });
}

// Hidden for less than the TTL: no ping while hidden, one at once when visible again.
export function pauseShort(t) {
  const { a } = t;
  return hidden(t, "pause", async ({ c, pings, before, show }) => {
    // A 5 s TTL pings every 1.67 s: a keep client would have pinged by now.
    await a.sleep(2200);
    const seen = { pingsWhileHidden: pings(), movedWhileHidden: c.expiresAt.getTime() - before.expiresAt };
    const shownAt = Date.now();
    show();
    await a.waitFor("a ping once visible", () => c.expiresAt.getTime() !== before.expiresAt, 1500);
    seen.pingAfterShowMs = Date.now() - shownAt;
    seen.pings = pings();
    seen.moved = c.expiresAt.getTime() - before.expiresAt;
    seen.sameId = c.id === before.id;
    return seen;
  });
}

export function leave(t) {
  const { a } = t;
  return hidden(t, "leave", async ({ c, w, before, show }) => {
    const left = () => a.events(t.base, t.s).then((log) =>
      log.some((e) => e.type === "client_left" && e.data.client_id === before.id));
    await a.waitFor("the hidden client to leave", left, 3000);
    const seen = {
      stateWhileHidden: c.state,
      liveWhileHidden: (await a.clients(t.base, t.s)).length,
      modelToolsWhileHidden: (await a.modelTools(t.base, t.s)).tools.length,
    };
    show();
    await a.waitFor("the client to register again", () => c.state === "registered" && c.id && c.id !== before.id, 3000);
    seen.live = (await a.clients(t.base, t.s)).map((x) => `${x.id === c.id ? "new" : "other"} ${x.name}`);
    seen.answer = await callEcho(t, c);
    return seen;
  });
}

// The page goes into the back-forward cache and comes back: `pagehide` leaves with a
// keepalive DELETE, a persisted `pageshow` registers again.
export async function pageHide(t) {
  const { a } = t;
  const fetches = a.recordFetches();
  try {
    const w = a.watched(t.options({ name: "bfcache", tools: [echo] }));
    const c = await t.register(w.options);
    const first = c.id;
    window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: true }));
    const left = () => a.events(t.base, t.s).then((log) =>
      log.some((e) => e.type === "client_left" && e.data.client_id === first));
    await a.waitFor("the page hide to leave", left, 3000);
    const seen = {
      stateWhileHidden: c.state,
      deletes: fetches.requests.filter((r) => r.method === "DELETE")
        .map((r) => `${r.url.endsWith(`/clients/${first}`)} ${r.keepalive}`),
    };
    window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true }));
    await a.waitFor("the client to register again", () => c.state === "registered" && c.id !== first, 3000);
    seen.answer = await callEcho(t, c);
    seen.statuses = w.statuses.map((s) => s.type).filter((s) => !s.startsWith("stream"));
    await c.leave();
    return seen;
  } finally {
    fetches.restore();
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = pageHide)]
    fn page_hide(t: &JsValue) -> Promise;
    fn keep(t: &JsValue) -> Promise;
    fn pause(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = pauseShort)]
    fn pause_short(t: &JsValue) -> Promise;
    fn leave(t: &JsValue) -> Promise;
}

#[wasm_bindgen_test]
async fn when_hidden_keep_goes_on_pinging() {
    let r = run(keep).await;
    assert!(r["pings"].as_u64().unwrap() >= 1, "{r}");
    let moved = r["moved"].as_f64().unwrap();
    assert!(moved >= 1_000.0, "expiresAt moved {moved} ms: {r}");
    assert_eq!(r["state"], "registered");
    assert_eq!(r["sameId"], true);
    assert_eq!(r["answer"], "succeeded echo back");
    assert_eq!(strings(&r["after"], "after"), Vec::<String>::new(), "{r}");
}

#[wasm_bindgen_test]
async fn when_hidden_pause_stops_pinging_and_registers_again_when_visible() {
    let r = run(pause).await;
    assert_eq!(r["pingsWhileHidden"], 0, "{r}");
    assert_eq!(r["expiresAtMoved"], 0, "{r}");
    assert_eq!(
        r["registrationsWhileHidden"], 1,
        "no registration while hidden: {r}"
    );
    assert_eq!(
        strings(&r["statusesWhileHidden"], "statusesWhileHidden"),
        Vec::<String>::new(),
        "{r}"
    );
    assert_eq!(r["newId"], true);
    // The lapse freed the name.
    assert_eq!(r["name"], "hide-pause");
    assert_eq!(r["answer"], "succeeded echo back");
    assert_eq!(
        strings(&r["after"], "after"),
        ["lapsed", "reregistered"],
        "{r}"
    );
}

#[wasm_bindgen_test]
async fn when_hidden_pause_pings_at_once_when_visible_before_the_ttl_ran_out() {
    let r = run(pause_short).await;
    assert_eq!(r["pingsWhileHidden"], 0, "{r}");
    assert_eq!(r["movedWhileHidden"], 0, "{r}");
    let after = r["pingAfterShowMs"].as_f64().unwrap();
    assert!(
        after < 1_000.0,
        "the ping came {after} ms after the page showed: {r}"
    );
    assert_eq!(r["pings"], 1, "{r}");
    assert!(r["moved"].as_f64().unwrap() >= 2_000.0, "{r}");
    assert_eq!(r["sameId"], true, "no new registration: {r}");
    assert_eq!(strings(&r["after"], "after"), Vec::<String>::new(), "{r}");
}

#[wasm_bindgen_test]
async fn when_hidden_leave_leaves_and_registers_again_when_visible() {
    let r = run(leave).await;
    assert_eq!(r["stateWhileHidden"], "left", "{r}");
    assert_eq!(r["liveWhileHidden"], 0);
    assert_eq!(r["modelToolsWhileHidden"], 0);
    // The leave freed the name, so the client gets it back.
    assert_eq!(strings(&r["live"], "live"), ["new hide-leave"], "{r}");
    assert_eq!(r["answer"], "succeeded echo back");
    assert_eq!(
        strings(&r["after"], "after"),
        ["left", "reregistered"],
        "{r}"
    );
}

#[wasm_bindgen_test]
async fn a_page_hide_leaves_with_keepalive_and_a_back_forward_show_registers_again() {
    let r = run(page_hide).await;
    assert_eq!(r["stateWhileHidden"], "left", "{r}");
    assert_eq!(strings(&r["deletes"], "deletes"), ["true true"], "{r}");
    assert_eq!(r["answer"], "succeeded echo back");
    assert_eq!(
        strings(&r["statuses"], "statuses"),
        ["registered", "left", "reregistered"],
        "{r}"
    );
}
