//! Browser tests of what happens around a result, against a real devserver: `maxCallsPerRun`,
//! a result over the protocol's 65,536 characters, `ctx.afterResult`, a result post that
//! fails and is retried, a handler slower than the server's result deadline, a throwing
//! `onStatus`/`onCall`, and `setTools`/`leave` misuse.
//! Run with `wasm-pack test --headless --chrome -- --test web_client_results`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[path = "web_client/support.rs"]
mod support;

use js_sys::Promise;
use serde_json::json;
use support::{run, strings};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
async function setUp(t, name, tools, extra) {
  const w = t.a.watched(t.options({ name, tools, ...extra }));
  const client = await t.register(w.options);
  const newRun = () => t.a.startRun(t.base, t.s);
  const call = (run, tool, args) => t.a.callTool(t.base, t.s, run, `client__${client.name}__${tool}`, args);
  const wait = (run, id, seconds = 8) => t.a.waitCall(t.base, t.s, run, id, seconds);
  return { w, client, newRun, call, wait };
}

export async function perRunLimit(t) {
  let runs = 0;
  const u = await setUp(t, "limited", [{ name: "once_or_twice", maxCallsPerRun: 2, handler: () => `run ${++runs}` }]);
  const texts = [];
  const first = await u.newRun();
  for (let i = 0; i < 3; i++) {
    const o = await u.wait(first, await u.call(first, "once_or_twice", {}));
    texts.push(`${o.is_error} ${o.text}`);
  }
  const second = await u.newRun();
  const o = await u.wait(second, await u.call(second, "once_or_twice", {}));
  texts.push(`${o.is_error} ${o.text}`);
  await u.client.leave();
  return { texts, runs };
}

export async function longResult(t) {
  const u = await setUp(t, "long", [
    { name: "long", handler: () => "é".repeat(70000) },
    { name: "edge", handler: () => "x".repeat(65536) },
  ]);
  const run = await u.newRun();
  const long = await u.wait(run, await u.call(run, "long", {}));
  const edge = await u.wait(run, await u.call(run, "edge", {}));
  await u.client.leave();
  const chars = (s) => [...s].length;
  const kept = long.text.match(/^é*/)[0];
  return {
    long: { state: long.state, is_error: long.is_error, chars: chars(long.text), kept: chars(kept),
      note: long.text.slice(kept.length) },
    edge: { chars: chars(edge.text), same: edge.text === "x".repeat(65536) },
  };
}

// `afterResult` runs once the server has the result: it reads the call's state there.
export async function afterResult(t) {
  const { a } = t;
  const seen = { order: [] };
  let run;
  const u = await setUp(t, "after", [{
    name: "go",
    handler: (args, ctx) => {
      ctx.afterResult(async () => {
        seen.order.push("afterResult");
        seen.stateThen = (await a.waitCall(t.base, t.s, run, ctx.callId, 0)).state;
      });
      seen.order.push("handler");
      return "went";
    },
  }]);
  run = await u.newRun();
  const id = await u.call(run, "go", {});
  const outcome = await u.wait(run, id);
  await a.waitFor("afterResult to run", () => seen.stateThen, 2000);
  await u.client.leave();
  return { outcome: outcome.text, ...seen };
}

// The first two result posts fail with a retryable 503: the SDK posts again with the same
// Idempotency-Key and the call is answered once.
export async function retriedResult(t) {
  const { a } = t;
  const fetches = a.recordFetches();
  try {
    const u = await setUp(t, "retry", [{ name: "go", handler: () => "answered" }]);
    await a.faults(t.base, t.s, { fail_requests: { path_contains: "/result", status: 503, count: 2 } });
    const run = await u.newRun();
    const id = await u.call(run, "go", {});
    const outcome = await u.wait(run, id);
    await a.waitFor("the answered event", () => u.w.calls.some((e) => e.type === "answered"), 3000);
    const posts = fetches.requests.filter((r) => r.url.endsWith(`/calls/${id}/result`));
    const log = (await a.events(t.base, t.s)).filter((e) => e.data.call_id === id).map((e) => e.type);
    const faultsLeft = await a.api(t.base, "GET", `/v1/sessions/${t.s.id}/faults`, t.s.token);
    await u.client.leave();
    return { outcome, posts: posts.length, keys: new Set(posts.map((p) => p.idempotencyKey)).size,
      allKeyed: posts.every((p) => p.idempotencyKey), log,
      calls: u.w.calls.map((e) => e.type), faultsLeft };
  } finally {
    fetches.restore();
  }
}

// The devserver fails an acked call 6 s after the ack; a handler that never finishes is
// answered "timed out" by the SDK 2 s before that, and aborted.
export async function serverDeadline(t) {
  const seen = {};
  const u = await setUp(t, "late", [{
    name: "never", handler: (args, ctx) => new Promise(() => {
      ctx.signal.addEventListener("abort", () => {
        seen.abortedAfterMs = Date.now() - started;
        seen.deadlineAfterMs = ctx.deadline.getTime() - started;
      });
    }),
  }]);
  const run = await u.newRun();
  const started = Date.now();
  const id = await u.call(run, "never", {});
  const outcome = await u.wait(run, id, 10);
  await u.client.leave();
  return { outcome, tookMs: Date.now() - started, ...seen };
}

// A callback that throws is the app's bug: the client goes on answering.
export async function throwingCallbacks(t) {
  const { a } = t;
  let statusCalls = 0;
  let callCalls = 0;
  const c = await t.register(t.options({
    name: "clumsy",
    tools: [{ name: "go", handler: () => "still answering" }],
    onStatus: () => { statusCalls++; throw new Error("onStatus broke"); },
    onCall: () => { callCalls++; throw new Error("onCall broke"); },
  }));
  const run = await a.startRun(t.base, t.s);
  const id = await a.callTool(t.base, t.s, run, "client__clumsy__go", {});
  const outcome = await a.waitCall(t.base, t.s, run, id, 5);
  await a.waitFor("the answered event", () => callCalls >= 3, 2000);
  await c.leave();
  return { outcome: `${outcome.state} ${outcome.text}`, statusCalls, callCalls, state: c.state };
}

export async function misuse(t) {
  const { a } = t;
  const c = await t.register(t.options({ name: "misuse", tools: [{ name: "go", handler: () => "x" }] }));
  const attempt = async (f) => {
    try { await f(); return "resolved"; } catch (e) { return `${e instanceof Error} ${e.message}`; }
  };
  const seen = {
    badName: await attempt(() => c.setTools([{ name: "ok", handler: () => "" }, { name: "not ok", handler: () => "" }])),
    notArray: await attempt(() => c.setTools("go")),
    noHandler: await attempt(() => c.setTools([{ name: "go" }])),
  };
  seen.toolsAfterBad = (await a.modelTools(t.base, t.s)).tools.map((x) => x.name);
  seen.empty = await attempt(() => c.setTools([]));
  seen.toolsAfterEmpty = (await a.modelTools(t.base, t.s)).tools.length;
  seen.leave = await attempt(() => c.leave());
  seen.leaveAgain = await attempt(() => c.leave());
  seen.setToolsAfterLeave = await attempt(() => c.setTools([{ name: "go", handler: () => "x" }]));
  seen.live = (await a.clients(t.base, t.s)).length;
  return seen;
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = perRunLimit)]
    fn per_run_limit(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = longResult)]
    fn long_result(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = afterResult)]
    fn after_result(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = retriedResult)]
    fn retried_result(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = serverDeadline)]
    fn server_deadline(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = throwingCallbacks)]
    fn throwing_callbacks(t: &JsValue) -> Promise;
    fn misuse(t: &JsValue) -> Promise;
}

#[wasm_bindgen_test]
async fn max_calls_per_run_answers_later_calls_is_error_and_resets_per_run() {
    let r = run(per_run_limit).await;
    assert_eq!(
        strings(&r["texts"], "texts"),
        [
            "false run 1",
            "false run 2",
            "true Tool \"once_or_twice\" allows at most 2 calls per run; this was call 3.",
            "false run 3",
        ]
    );
    assert_eq!(r["runs"], 3);
}

#[wasm_bindgen_test]
async fn a_result_over_65536_characters_is_cut_to_fit_and_says_so() {
    let r = run(long_result).await;
    let long = &r["long"];
    assert_eq!(
        (&long["state"], &long["is_error"]),
        (&json!("succeeded"), &json!(false))
    );
    assert_eq!(long["chars"], 65_536, "characters, not bytes: {long}");
    let kept = long["kept"].as_u64().unwrap();
    let note = long["note"].as_str().unwrap();
    assert_eq!(
        note,
        format!(
            "\n[cut: {} more characters; a result holds at most 65536]",
            70_000 - kept
        )
    );
    assert_eq!(
        r["edge"],
        json!({"chars": 65_536, "same": true}),
        "exactly the limit is kept whole"
    );
}

#[wasm_bindgen_test]
async fn after_result_runs_once_the_server_has_the_result() {
    let r = run(after_result).await;
    assert_eq!(r["outcome"], "went");
    assert_eq!(strings(&r["order"], "order"), ["handler", "afterResult"]);
    assert_eq!(r["stateThen"], "succeeded", "{r}");
}

#[wasm_bindgen_test]
async fn a_result_post_that_fails_is_retried_with_the_same_key() {
    let r = run(retried_result).await;
    assert_eq!(r["outcome"]["state"], "succeeded", "{r}");
    assert_eq!(r["outcome"]["text"], "answered");
    assert_eq!(
        r["posts"], 3,
        "two failed posts and the one that landed: {r}"
    );
    assert_eq!(r["allKeyed"], true, "{r}");
    assert_eq!(
        r["keys"], 1,
        "every retry carries the same Idempotency-Key: {r}"
    );
    assert_eq!(
        strings(&r["log"], "log"),
        [
            "client_tool_dispatched",
            "client_tool_acked",
            "client_tool_succeeded"
        ]
    );
    assert_eq!(
        strings(&r["calls"], "calls"),
        ["dispatched", "acked", "answered"]
    );
    assert_eq!(
        r["faultsLeft"]["fail_requests"],
        serde_json::Value::Null,
        "{r}"
    );
}

#[wasm_bindgen_test]
async fn a_handler_slower_than_the_server_deadline_is_answered_before_it() {
    let r = run(server_deadline).await;
    let outcome = &r["outcome"];
    assert_eq!(
        outcome["state"], "succeeded",
        "answered, not failed by the server: {r}"
    );
    assert_eq!(outcome["is_error"], true);
    let text = outcome["text"].as_str().unwrap();
    let ms: u64 = text
        .strip_prefix("timed out after ")
        // Cut by the server's deadline, and the answer says whose it was.
        .and_then(|t| t.strip_suffix(" ms (the server's deadline for the result)"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    // The devserver's result deadline is 6 s after the ack; the SDK keeps a 2 s margin.
    assert!((3_500..=4_200).contains(&ms), "{text}");
    let aborted = r["abortedAfterMs"].as_f64().unwrap();
    assert!((3_500.0..=5_000.0).contains(&aborted), "{r}");
    // `ctx.deadline` moved to the real deadline once the ack told it (not the 30 s default).
    let deadline = r["deadlineAfterMs"].as_f64().unwrap();
    assert!((3_500.0..=4_500.0).contains(&deadline), "{r}");
}

#[wasm_bindgen_test]
async fn throwing_callbacks_do_not_stop_the_client() {
    let r = run(throwing_callbacks).await;
    assert_eq!(r["outcome"], "succeeded still answering");
    assert!(r["statusCalls"].as_u64().unwrap() >= 1, "{r}");
    // dispatched, acked, answered
    assert!(r["callCalls"].as_u64().unwrap() >= 3, "{r}");
    assert_eq!(r["state"], "left");
}

#[wasm_bindgen_test]
async fn set_tools_and_leave_misuse_reject_with_errors_that_say_why() {
    let r = run(misuse).await;
    let s = |k: &str| r[k].as_str().unwrap_or_else(|| panic!("{k}: {r}"));
    assert!(s("badName").starts_with("true tools[1].name: "), "{r}");
    assert!(s("notArray").starts_with("true tools: "), "{r}");
    assert!(s("noHandler").starts_with("true tools[0].handler: "), "{r}");
    assert_eq!(
        strings(&r["toolsAfterBad"], "toolsAfterBad"),
        ["client__misuse__go"],
        "a refused list changes nothing"
    );
    assert_eq!(s("empty"), "resolved");
    assert_eq!(r["toolsAfterEmpty"], 0);
    assert_eq!(s("leave"), "resolved");
    assert_eq!(s("leaveAgain"), "resolved", "leaving twice is harmless");
    assert!(
        s("setToolsAfterLeave").starts_with("true ")
            && s("setToolsAfterLeave").contains("not registered"),
        "{r}"
    );
    assert_eq!(r["live"], 0);
}
