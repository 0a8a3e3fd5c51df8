//! Browser tests of registration against a real devserver: the name counter, bad options,
//! pings that extend `expiresAt`, and a lapsed registration that registers again.
//! Run with `wasm-pack test --headless --chrome -- --test web_client_registration`
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
const echo = (text) => ({ name: "echo", description: "Echo.", handler: () => text });

export async function namesCounted(t) {
  const { a } = t;
  const w = a.watched(t.options({ name: "reg", tools: [echo("one")] }));
  const c1 = await t.register(w.options);
  const c2 = await t.register(t.options({ name: "reg", tools: [echo("two")] }));
  const seen = {
    first: { id: c1.id, name: c1.name, state: c1.state, expiresInMs: c1.expiresAt.getTime() - Date.now() },
    second: { id: c2.id, name: c2.name, state: c2.state },
    statuses: w.statuses,
    server: (await a.clients(t.base, t.s)).map((c) => `${c.name} ${c.id}`).sort(),
    model: (await a.modelTools(t.base, t.s)).tools.map((x) => x.name).sort(),
  };
  await c1.leave();
  seen.firstAfterLeave = { state: c1.state, id: c1.id };
  const c3 = await t.register(t.options({ name: "reg" }));
  seen.third = { name: c3.name };
  await c2.leave();
  await c3.leave();
  seen.liveAtEnd = (await a.clients(t.base, t.s)).length;
  return seen;
}

export async function badOptions(t) {
  const { a } = t;
  const good = () => t.options({ name: "bad", tools: [{ name: "echo", handler: () => "x" }] });
  const tool = (extra) => ({ name: "echo", handler: () => "x", ...extra });
  const cases = [
    ["options", undefined],
    ["options", "http://127.0.0.1"],
    ["baseUrl", { ...good(), baseUrl: undefined }],
    ["baseUrl", { ...good(), baseUrl: "ftp://example.com" }],
    ["sessionId", { ...good(), sessionId: 42 }],
    ["token", { ...good(), token: "" }],
    ["name", { ...good(), name: 7 }],
    ["name", { ...good(), name: "Web Page!" }],
    ["name", { ...good(), name: "x".repeat(33) }],
    ["lifetime", { ...good(), lifetime: { type: "forever" } }],
    ["lifetime.data.seconds", { ...good(), lifetime: { type: "ttl", data: { seconds: 2 } } }],
    ["whenHidden", { ...good(), whenHidden: "sometimes" }],
    ["whenHidden", { ...good(), whenHidden: true }],
    ["tools", { ...good(), tools: { echo: () => "x" } }],
    ["tools[0]", { ...good(), tools: ["echo"] }],
    ["tools[0].handler", { ...good(), tools: [{ name: "echo" }] }],
    ["tools[0].handler", { ...good(), tools: [tool({ handler: "x" })] }],
    ["tools[1].name", { ...good(), tools: [tool(), tool({ name: "no spaces" })] }],
    ["tools[1].name", { ...good(), tools: [tool(), tool()] }],
    ["tools[0].name", { ...good(), tools: [tool({ name: 5 })] }],
    ["tools[0].description", { ...good(), tools: [tool({ description: "d".repeat(4097) })] }],
    ["tools[0].parameters", { ...good(), tools: [tool({ parameters: ["row_id"] })] }],
    ["tools[0].timeoutMs", { ...good(), tools: [tool({ timeoutMs: 0 })] }],
    ["tools[0].timeoutMs", { ...good(), tools: [tool({ timeoutMs: "1s" })] }],
    ["tools[0].maxCallsPerRun", { ...good(), tools: [tool({ maxCallsPerRun: 1.5 })] }],
    ["onStatus", { ...good(), onStatus: "log" }],
    ["onCall", { ...good(), onCall: 1 }],
    ["registerTimeoutMs", { ...good(), registerTimeoutMs: -5 }],
  ];
  const results = [];
  for (const [option, options] of cases) {
    try {
      const c = await t.register(options);
      results.push({ option, resolved: true, name: c.name });
      await c.leave();
    } catch (e) {
      results.push({ option, isError: e instanceof Error, message: String(e && e.message) });
    }
  }
  let refused;
  try {
    await t.register({ ...good(), token: "tok_not_a_token" });
    refused = { resolved: true };
  } catch (e) {
    refused = { isError: e instanceof Error, message: String(e && e.message) };
  }
  return { results, refused, live: (await a.clients(t.base, t.s)).length };
}

// A server that answers every register 503: after registerTimeoutMs the promise rejects
// saying why, and nothing goes on registering in the background.
export async function registerTimesOut(t) {
  const { a } = t;
  await a.faults(t.base, t.s, { fail_requests: { path_contains: "/clients", status: 503, count: 1000 } });
  const started = Date.now();
  let seen;
  try {
    const c = await t.register(t.options({ name: "late", registerTimeoutMs: 1500 }));
    seen = { resolved: true, name: c.name };
  } catch (e) {
    seen = { isError: e instanceof Error, message: String(e && e.message) };
  }
  seen.tookMs = Date.now() - started;
  await a.clearFaults(t.base, t.s);
  await a.sleep(2500);
  seen.live = (await a.clients(t.base, t.s)).length;
  return seen;
}

// A server that holds every answer back 3 s: with requestTimeoutMs 400 each request is
// aborted at 400 ms and retried as a network error, and register's timeout says so. The same
// option on a server that answers at once registers as usual.
export async function requestTimesOut(t) {
  const { a } = t;
  await a.faults(t.base, t.s, { delay_ms: 3000 });
  const seen = {};
  const started = Date.now();
  try {
    const c = await t.register(t.options({ name: "slow", registerTimeoutMs: 1500, requestTimeoutMs: 400 }));
    seen.slow = { resolved: true, name: c.name };
  } catch (e) {
    seen.slow = { isError: e instanceof Error, code: e && e.code, message: String(e && e.message) };
  }
  seen.tookMs = Date.now() - started;
  await a.clearFaults(t.base, t.s);
  const c = await t.register(t.options({ name: "quick", requestTimeoutMs: 400 }));
  seen.quick = { name: c.name, state: c.state };
  await c.leave();
  return seen;
}

export async function pingsExtend(t) {
  const { a } = t;
  const fetches = a.recordFetches();
  try {
    const c = await t.register(t.options({ name: "pinger", lifetime: { type: "ttl", data: { seconds: 5 } } }));
    const registeredAt = Date.now();
    const before = c.expiresAt.getTime();
    const after = await a.waitFor("a ping to move expiresAt", () => {
      const e = c.expiresAt.getTime();
      return e !== before && e;
    }, 4000);
    const movedAt = Date.now();
    const server = (await a.clients(t.base, t.s)).find((x) => x.id === c.id);
    // A second ping must carry a new Idempotency-Key, else the server answers it from
    // memory and expiresAt stays put.
    const again = await a.waitFor("a second ping to move expiresAt", () => {
      const e = c.expiresAt.getTime();
      return e !== after && e;
    }, 4000);
    const pings = fetches.requests.filter((r) => r.url.endsWith(`/clients/${c.id}/ping`));
    await c.leave();
    return {
      before, after, again, serverExpiresAt: Date.parse(server.expires_at),
      firstExpiresInMs: before - registeredAt,
      pingAfterMs: movedAt - registeredAt,
      pings: pings.map((p) => p.method),
      keys: new Set(pings.map((p) => p.idempotencyKey)).size,
      allKeyed: pings.every((p) => p.idempotencyKey),
    };
  } finally {
    fetches.restore();
  }
}

export async function neverLifetime(t) {
  const { a } = t;
  const fetches = a.recordFetches();
  try {
    const w = a.watched(t.options({ name: "forever", lifetime: { type: "never" } }));
    const c = await t.register(w.options);
    // A 5 s TTL would have pinged by now; `never` must not.
    await a.sleep(2000);
    const server = (await a.clients(t.base, t.s)).find((x) => x.id === c.id);
    const seen = {
      expiresAt: c.expiresAt, server,
      registeredStatus: w.statuses.find((s) => s.type === "registered"),
      pings: fetches.requests.filter((r) => r.url.includes("/ping")).length,
    };
    await c.leave();
    return seen;
  } finally {
    fetches.restore();
  }
}

// The server lets the registration run out for real: every ping fails with a retryable 503
// until the TTL passes and the server emits `client_expired`.
export async function lapseExpired(t) {
  const { a } = t;
  const w = a.watched(t.options({
    name: "lapser", lifetime: { type: "ttl", data: { seconds: 5 } },
    tools: [{ name: "echo", handler: (args) => `echo ${args.v}` }],
  }));
  const c = await t.register(w.options);
  const first = c.id;
  await a.faults(t.base, t.s, { fail_requests: { path_contains: "/ping", status: 503, count: 1000 } });
  await a.waitFor("the client to register again", () => c.id && c.id !== first && c.state === "registered", 9000);
  await a.clearFaults(t.base, t.s);
  const log = await a.events(t.base, t.s);
  const kinds = log
    .filter((e) => ["client_registered", "client_expired", "client_left"].includes(e.type))
    .map((e) => `${e.type} ${e.data.client_id === first ? "first" : e.data.client_id === c.id ? "second" : "other"}`);
  const run = await a.startRun(t.base, t.s);
  const call = await a.callTool(t.base, t.s, run, `client__${c.name}__echo`, { v: "after" });
  const outcome = await a.waitCall(t.base, t.s, run, call, 5);
  const seen = { name: c.name, statuses: w.statuses.map((s) => s.type), kinds, outcome,
    live: (await a.clients(t.base, t.s)).map((x) => x.id === c.id) };
  await c.leave();
  return seen;
}

// The server answers one ping 404 (as for a registration it no longer holds).
export async function lapse404(t) {
  const { a } = t;
  const w = a.watched(t.options({
    name: "lapse404", lifetime: { type: "ttl", data: { seconds: 5 } },
    tools: [{ name: "echo", description: "Echo.", handler: () => "echoed" }],
  }));
  const c = await t.register(w.options);
  const first = c.id;
  await a.faults(t.base, t.s, { fail_requests: { path_contains: `/clients/${first}/ping`, status: 404, count: 1 } });
  await a.waitFor("a reregistered status", () => w.statuses.some((s) => s.type === "reregistered"), 4000);
  const re = w.statuses.find((s) => s.type === "reregistered");
  // The old registration's DELETE is best effort beside the new POST: wait for it to land.
  const gone = async () => {
    const tools = (await a.modelTools(t.base, t.s)).tools;
    return tools.some((x) => x.client_id === first) ? null : tools;
  };
  const offered = (await a.waitFor("the refused registration gone", gone, 4000).catch(() => null))
    ?? (await a.modelTools(t.base, t.s)).tools;
  const model = offered.filter((x) => x.client_id === c.id).map((x) => `${x.name} ${x.description}`);
  const old = offered.filter((x) => x.client_id === first).length;
  const seen = { first, id: c.id, name: c.name, re, statuses: w.statuses.map((s) => s.type), model, old };
  await c.leave();
  return seen;
}

// What the page's fetch, the sharing channel and the Web Lock see, in order, while a client
// that shares its stream (the default) registers; then whether its stream opened.
export async function postBeforeElection(t) {
  const log = [];
  const fetch0 = window.fetch;
  const post0 = BroadcastChannel.prototype.postMessage;
  const locks = navigator.locks;
  const request0 = locks?.request;
  window.fetch = function (input, init) {
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const path = new URL(input instanceof Request ? input.url : String(input), location.href).pathname;
    log.push(`fetch ${method} ${path.replace(/^.*\/sessions\/[^/]+/, "")}`);
    return fetch0.apply(this, arguments);
  };
  BroadcastChannel.prototype.postMessage = function (message) {
    log.push(`channel ${Array.isArray(message) ? message[0] : typeof message}`);
    return post0.apply(this, arguments);
  };
  if (request0) locks.request = function () { log.push("lock"); return request0.apply(this, arguments); };
  try {
    const w = t.a.watched(t.options({ name: "early", tools: [echo("x")] }));
    const opened = new Promise((resolve) => {
      const onStatus = w.options.onStatus;
      w.options.onStatus = (st) => { onStatus(st); if (st.type === "streamOpen") resolve(true); };
    });
    const c = await t.register(w.options);
    const streamOpen = await Promise.race([opened, new Promise((r) => setTimeout(() => r(false), 5000))]);
    await c.leave();
    return { log, locks: !!request0, streamOpen, state: c.state };
  } finally {
    window.fetch = fetch0;
    BroadcastChannel.prototype.postMessage = post0;
    if (request0) locks.request = request0;
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = postBeforeElection)]
    fn post_before_election(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = namesCounted)]
    fn names_counted(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = badOptions)]
    fn bad_options(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = registerTimesOut)]
    fn register_times_out(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = requestTimesOut)]
    fn request_times_out(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = pingsExtend)]
    fn pings_extend(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = neverLifetime)]
    fn never_lifetime(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = lapseExpired)]
    fn lapse_expired(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = lapse404)]
    fn lapse_404(t: &JsValue) -> Promise;
}

/// The registration's `POST` is the first thing the client sends: the stream sharing's
/// election (its hello on the channel, the Web Lock's request) follows it, and the stream still
/// opens (issue 45: start-up).
#[wasm_bindgen_test]
async fn the_registration_post_goes_before_the_stream_sharing_election() {
    let r = run(post_before_election).await;
    let log = strings(&r["log"], "log");
    assert_eq!(r["locks"], true, "this browser has Web Locks: {r}");
    assert_eq!(
        log.first().map(String::as_str),
        Some("fetch POST /clients"),
        "{r}"
    );
    assert!(
        log.iter().any(|l| l == "lock"),
        "the election still asks for the lock: {r}"
    );
    assert!(
        log.iter().any(|l| l.starts_with("channel ")),
        "and says hello: {r}"
    );
    assert_eq!(r["streamOpen"], true, "the stream opened: {r}");
    assert_eq!(r["state"], "left", "{r}");
}

#[wasm_bindgen_test]
async fn registers_and_a_second_client_of_the_same_name_gets_a_counter() {
    let r = run(names_counted).await;
    let (first, second) = (&r["first"], &r["second"]);
    assert_eq!(first["name"], "reg", "{r}");
    assert_eq!(second["name"], "reg-2", "{r}");
    assert_eq!(first["state"], "registered");
    assert_eq!(second["state"], "registered");
    let (id1, id2) = (
        first["id"].as_str().unwrap(),
        second["id"].as_str().unwrap(),
    );
    assert!(
        id1.starts_with("cli_") && id2.starts_with("cli_") && id1 != id2,
        "{r}"
    );
    // The default lifetime is a 60 s TTL.
    let expires_in = first["expiresInMs"].as_f64().unwrap();
    assert!((55_000.0..=60_500.0).contains(&expires_in), "{r}");
    // The stream may open before the register answer comes: its statuses are apart.
    let status = r["statuses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| !s["type"].as_str().unwrap().starts_with("stream"))
        .unwrap();
    assert_eq!(status["type"], "registered", "{r}");
    assert_eq!(
        (status["id"].as_str(), status["name"].as_str()),
        (Some(id1), Some("reg"))
    );
    assert!(status["expiresAt"].is_string(), "{r}");
    assert_eq!(
        strings(&r["server"], "server"),
        [format!("reg {id1}"), format!("reg-2 {id2}")]
    );
    assert_eq!(
        strings(&r["model"], "model"),
        ["client__reg-2__echo", "client__reg__echo"]
    );
    assert_eq!(r["firstAfterLeave"]["state"], "left");
    // The first client's leave freed its name.
    assert_eq!(r["third"]["name"], "reg", "{r}");
    assert_eq!(r["liveAtEnd"], 0);
}

#[wasm_bindgen_test]
async fn bad_options_reject_register_with_an_error_naming_the_option() {
    let r = run(bad_options).await;
    let results = r["results"].as_array().unwrap();
    assert_eq!(results.len(), 28, "{r}");
    for case in results {
        let option = case["option"].as_str().unwrap();
        assert_eq!(
            case["isError"], true,
            "{option}: not rejected with an Error: {case}"
        );
        let message = case["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("{option}:")),
            "{option}: the message does not name it: {message:?}"
        );
        assert!(
            message.len() > option.len() + 5,
            "{option}: says too little: {message:?}"
        );
    }
    // The server's refusal of a token it does not know rejects too, saying so.
    let refused = &r["refused"];
    assert_eq!(refused["isError"], true, "{r}");
    let message = refused["message"].as_str().unwrap();
    assert!(message.contains("401"), "{message}");
    assert_eq!(r["live"], 0, "no bad option may register: {r}");
}

#[wasm_bindgen_test]
async fn register_rejects_after_register_timeout_and_stops_registering() {
    let r = run(register_times_out).await;
    assert_eq!(r["isError"], true, "{r}");
    let message = r["message"].as_str().unwrap();
    assert!(
        message.starts_with("not registered within 1500 ms: ") && message.contains("503"),
        "{message}"
    );
    let took = r["tookMs"].as_f64().unwrap();
    assert!((1_400.0..=3_000.0).contains(&took), "{r}");
    assert_eq!(r["live"], 0, "a retry registered after the timeout: {r}");
}

#[wasm_bindgen_test]
async fn a_request_without_an_answer_is_given_up_after_request_timeout_ms() {
    let r = run(request_times_out).await;
    let slow = &r["slow"];
    assert_eq!(slow["isError"], true, "{r}");
    assert_eq!(slow["code"], "register_timeout", "{r}");
    let message = slow["message"].as_str().unwrap();
    assert!(
        message.starts_with("not registered within 1500 ms: ")
            && message.contains("no answer within 400 ms"),
        "{message}"
    );
    let took = r["tookMs"].as_f64().unwrap();
    assert!((1_400.0..=3_000.0).contains(&took), "{r}");
    assert_eq!(r["quick"]["name"], "quick", "{r}");
    assert_eq!(r["quick"]["state"], "registered", "{r}");
}

#[wasm_bindgen_test]
async fn pings_extend_expires_at_each_with_a_new_key() {
    let r = run(pings_extend).await;
    let num = |k: &str| r[k].as_f64().unwrap_or_else(|| panic!("{k}: {r}"));
    assert!(
        (4_500.0..=5_500.0).contains(&num("firstExpiresInMs")),
        "{r}"
    );
    // A 5 s TTL pings every third of it.
    assert!((1_000.0..=3_000.0).contains(&num("pingAfterMs")), "{r}");
    let moved = num("after") - num("before");
    assert!(
        (1_000.0..=3_000.0).contains(&moved),
        "expiresAt moved {moved} ms: {r}"
    );
    assert_eq!(num("serverExpiresAt"), num("after"), "{r}");
    let moved_again = num("again") - num("after");
    assert!(
        (1_000.0..=3_000.0).contains(&moved_again),
        "the second ping moved expiresAt {moved_again} ms: {r}"
    );
    assert_eq!(strings(&r["pings"], "pings"), ["POST", "POST"], "{r}");
    assert_eq!(r["allKeyed"], true, "{r}");
    assert_eq!(r["keys"], 2, "each ping has a new Idempotency-Key: {r}");
}

#[wasm_bindgen_test]
async fn a_never_lifetime_has_no_expiry_and_does_not_ping() {
    let r = run(never_lifetime).await;
    assert_eq!(r["expiresAt"], serde_json::Value::Null, "{r}");
    let status = r["registeredStatus"].as_object().unwrap();
    assert_eq!(
        status.get("expiresAt"),
        Some(&serde_json::Value::Null),
        "{r}"
    );
    assert_eq!(r["server"]["expires_at"], serde_json::Value::Null, "{r}");
    assert_eq!(
        r["server"]["lifetime"],
        serde_json::json!({"type": "never"})
    );
    assert_eq!(r["pings"], 0, "{r}");
}

#[wasm_bindgen_test]
async fn a_registration_the_server_let_expire_registers_again_with_its_tools() {
    let r = run(lapse_expired).await;
    let statuses = strings(&r["statuses"], "statuses");
    let lapsed = statuses.iter().position(|s| s == "lapsed");
    let again = statuses.iter().position(|s| s == "reregistered");
    assert!(
        matches!((lapsed, again), (Some(l), Some(a)) if l < a),
        "{statuses:?}"
    );
    assert_eq!(
        strings(&r["kinds"], "kinds"),
        [
            "client_registered first",
            "client_expired first",
            "client_registered second"
        ]
    );
    // The name was freed by the lapse, so the client gets it back.
    assert_eq!(r["name"], "lapser");
    assert_eq!(r["outcome"]["state"], "succeeded", "{r}");
    assert_eq!(r["outcome"]["text"], "echo after");
    assert_eq!(r["live"], serde_json::json!([true]));
}

#[wasm_bindgen_test]
async fn a_ping_answered_404_registers_again() {
    let r = run(lapse_404).await;
    let statuses = strings(&r["statuses"], "statuses");
    assert_eq!(
        statuses
            .iter()
            .filter(|s| !s.starts_with("stream"))
            .collect::<Vec<_>>(),
        ["registered", "lapsed", "reregistered"],
        "{r}"
    );
    assert_ne!(r["first"], r["id"], "a new registration has a new id: {r}");
    assert_eq!(r["re"]["id"], r["id"]);
    // The client sends the DELETE of the refused registration beside the new POST (issue 22):
    // the name gets a counter only if the new one reached the server first. Either way the
    // model is offered the new registration's tools under its name, and the old one's no more.
    let name = r["name"].as_str().unwrap_or_default();
    assert!(name == "lapse404" || name == "lapse404-2", "{r}");
    assert_eq!(
        strings(&r["model"], "model"),
        [format!("client__{name}__echo Echo.")]
    );
    assert_eq!(
        r["old"], 0,
        "the refused registration's tools are still offered: {r}"
    );
}
