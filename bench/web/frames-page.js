// scripts/bench-frames' page (frames.mjs serves it): each package (at /LABEL/) loaded, for each
// dialect a bridge of each made and one attached to an open socket; window.measure(rounds)
// times them beside JSON.parse.
const labels = new URLSearchParams(location.search).get("labels").split(",");
const DIALECTS = ["cartesia", "elevenlabs", "openai-realtime"];
const sdks = {};
try {
  for (const label of labels) {
    const m = await import("/" + label + "/client_tools.js");
    await m.init();
    sdks[label] = m;
  }
  window.ready = true;
} catch (e) {
  window.failed = String(e?.message ?? e);
}

/** Base64 of n characters (what audio frames carry). */
function base64(n) {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  let x = 12345, s = "";
  for (let i = 0; i < n; i++) { x = (x * 1103515245 + 12345) & 0x7fffffff; s += abc[(x >> 8) & 63]; }
  return s;
}

/** A dialect's audio frame of exactly kb × 1024 characters. */
function audio(dialect, kb) {
  const shape = {
    "cartesia": (a) => ({ type: "media_output", stream_id: "stream_1", context_id: "ctx_1", media: { payload: a } }),
    "elevenlabs": (a) => ({ type: "audio", audio_event: { audio_base_64: a, event_id: 42 } }),
    "openai-realtime": (a) => ({ type: "response.output_audio.delta", event_id: "event_1", response_id: "resp_1", item_id: "item_1", output_index: 0, content_index: 0, delta: a }),
  }[dialect];
  const bare = JSON.stringify(shape("")).length;
  return JSON.stringify(shape(base64(kb * 1024 - bare)));
}

function socket(session, dialect) {
  const ws = new WebSocket("ws://" + location.host + "/v1/sessions/" + session + "/ws?dialect=" + dialect + "&access_token=" + (session === "bare" ? "bare-token" : "token-" + session));
  return new Promise((ok, fail) => { ws.onopen = () => ok(ws); ws.onerror = () => fail(new Error("no socket " + session)); });
}

/** Mean µs per call of f over calls in batches of 20 for at least `ms` (the page's clock
 * ticks in steps of up to 0.1 ms: a sample is many of them). */
function time(f, ms) {
  let n = 0;
  const t0 = performance.now();
  let t;
  do {
    for (let i = 0; i < 20; i++) f();
    n += 20;
    t = performance.now();
  } while (t - t0 < ms);
  return ((t - t0) * 1000) / n;
}

/** How long each sample runs. */
const SAMPLE_MS = 10;

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

window.measure = async (rounds) => {
  const bare = await socket("bare", "cartesia");
  const rows = [];
  for (const dialect of DIALECTS) {
    const bridges = {};
    for (const label of labels) {
      const { WsTools } = sdks[label];
      const tools = [{ name: "echo", description: "Echoes.", parameters: { type: "object", properties: { text: { type: "string" } } }, handler: ({ text }) => text }];
      const ws = await socket(label + "-" + dialect, dialect);
      bridges[label] = { own: new WsTools({ dialect, send: () => {}, tools }), ws, attached: WsTools.attach(ws, { dialect, tools }) };
    }
    for (const kb of [1, 16, 64]) {
      const frame = audio(dialect, kb);
      const event = () => new MessageEvent("message", { data: frame });
      let sink = 0;
      const ways = { parse: () => { sink += JSON.parse(frame).type.length; }, bare: () => bare.dispatchEvent(event()) };
      for (const label of labels) {
        const b = bridges[label];
        ways[label + " receive"] = () => { sink += b.own.receive(frame) ? 1 : 0; };
        ways[label + " attach"] = () => b.ws.dispatchEvent(event());
      }
      const samples = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
      for (const f of Object.values(ways)) time(f, 20); // warm: the JIT's tiers
      for (let r = 0; r < rounds; r++) for (const [k, f] of Object.entries(ways)) samples[k].push(time(f, SAMPLE_MS));
      const row = { dialect, kb, parse: median(samples.parse), sdk: {} };
      for (const label of labels) {
        row.sdk[label] = {
          receive: median(samples[label + " receive"]),
          attach: median(samples[label + " attach"].map((v, i) => v - samples.bare[i])),
        };
      }
      if (sink < 0) console.log(sink);
      rows.push(row);
    }
    for (const b of Object.values(bridges)) { b.attached.detach(); b.ws.close(); }
  }
  bare.close();
  return rows;
};
