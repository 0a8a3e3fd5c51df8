//! Browser test of the event stream against a real devserver: a stream the server drops is
//! reopened with `Last-Event-ID`, and no call made around the drop is missed.
//! Run with `wasm-pack test --headless --chrome -- --test web_client_stream`
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
// Every stream of the session closes after one more event while the fault is on: the
// `run_started` event closes the open stream, and the calls are made while the client is
// reconnecting. The fault is lifted once three calls are out, so the reconnects settle.
export async function droppedStream(t) {
  const { a } = t;
  const fetches = a.recordFetches();
  try {
    const runsById = {};
    const w = a.watched(t.options({
      name: "resumer",
      tools: [{ name: "echo", handler: (args, ctx) => {
        runsById[ctx.callId] = (runsById[ctx.callId] || 0) + 1;
        return `echo ${args.i}`;
      } }],
    }));
    const c = await t.register(w.options);
    await a.waitFor("the stream to open", () => w.statuses.some((s) => s.type === "streamOpen"), 3000);
    const streamUrl = `/v1/sessions/${t.s.id}/stream`;
    const streams = () => fetches.requests.filter((r) => r.url.endsWith(streamUrl));
    const opened = streams().length;
    await a.faults(t.base, t.s, { close_stream_after_events: 1 });
    const run = await a.startRun(t.base, t.s);
    await a.waitFor("the client to see the drop", () => w.statuses.some((s) => s.type === "streamReconnecting"), 3000);
    const ids = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await a.callTool(t.base, t.s, run, `client__${c.name}__echo`, { i }));
    }
    await a.clearFaults(t.base, t.s);
    const outcomes = [];
    for (const id of ids) outcomes.push(await a.waitCall(t.base, t.s, run, id, 8));
    const log = await a.events(t.base, t.s);
    const runStarted = log.find((e) => e.type === "run_started").id;
    const seen = {
      opened,
      reopened: streams().slice(opened).map((r) => r.lastEventId),
      runStarted: String(runStarted),
      lastLogId: String(log[log.length - 1].id),
      outcomes: outcomes.map((o) => `${o.state} ${o.text}`),
      runs: ids.map((id) => runsById[id] || 0),
      statuses: w.statuses.map((s) => s.type),
    };
    await c.leave();
    return seen;
  } finally {
    fetches.restore();
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = droppedStream)]
    fn dropped_stream(t: &JsValue) -> Promise;
}

#[wasm_bindgen_test]
async fn a_dropped_stream_resumes_with_last_event_id_and_misses_no_call() {
    let r = run(dropped_stream).await;
    assert_eq!(r["opened"], 1, "one stream before the drop: {r}");
    let reopened = strings(&r["reopened"], "reopened");
    assert!(!reopened.is_empty(), "the stream was not reopened: {r}");
    // The first reconnect resumes right after the event that closed the stream…
    assert_eq!(reopened[0], r["runStarted"].as_str().unwrap(), "{r}");
    // …and every later one after a later event.
    let ids: Vec<u64> = reopened
        .iter()
        .map(|id| {
            id.parse()
                .unwrap_or_else(|_| panic!("Last-Event-ID {id:?}: {r}"))
        })
        .collect();
    assert!(ids.windows(2).all(|w| w[0] <= w[1]), "{ids:?}");
    assert_eq!(
        strings(&r["outcomes"], "outcomes"),
        ["succeeded echo 0", "succeeded echo 1", "succeeded echo 2"]
    );
    assert_eq!(r["runs"], json!([1, 1, 1]), "each call ran once: {r}");
    let statuses = strings(&r["statuses"], "statuses");
    let count = |kind: &str| statuses.iter().filter(|s| *s == kind).count();
    assert!(count("streamReconnecting") >= 1, "{statuses:?}");
    // Every reopened stream opened, but perhaps the last, whose answer may still be on its way.
    assert!(count("streamOpen") >= reopened.len(), "{statuses:?}");
    assert_eq!(count("lapsed"), 0, "{statuses:?}");
}
