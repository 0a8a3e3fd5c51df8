// The hostile server's own tests (`node --test server.test.mjs`, run by run.sh before the soak):
// in honest mode it keeps the protocol (so that a soak failure is the SDK's), and each fault does
// what run.mjs assumes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { startHostileServer } from "./server.mjs";

let server;
before(async () => (server = await startHostileServer({ keepAliveMs: 100 })));
after(() => server.close());

async function call(s, method, path, { body, key, headers = {} } = {}) {
  const r = await fetch(`${server.url}/v1/sessions/${s.id}${path}`, {
    method,
    headers: { Authorization: `Bearer ${s.token}`, ...(key ? { "Idempotency-Key": key } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

const register = (s, name = "web") => call(s, "POST", "/clients", { body: { name, lifetime: { type: "ttl", data: { seconds: 60 } } } });

/** Opens the stream with raw node:http; resolves once the head arrives (or `headWithin` passes). */
function openStream(s, { lastEventId, headWithin = 2000 } = {}) {
  return new Promise((done) => {
    const u = new URL(`${server.url}/v1/sessions/${s.id}/stream`);
    const headers = { Authorization: `Bearer ${s.token}`, Accept: "text/event-stream" };
    if (lastEventId != null) headers["Last-Event-ID"] = lastEventId;
    const st = { text: "", head: null };
    const req = request(u, { headers }, (res) => {
      st.head = res.statusCode;
      res.setEncoding("utf8");
      res.on("data", (d) => (st.text += d));
      done(st);
    });
    req.on("error", () => {});
    req.end();
    st.close = () => req.destroy();
    setTimeout(() => done(st), headWithin);
  });
}
const sleep = (ms) => new Promise((d) => setTimeout(d, ms));

test("honest: register, names with a counter, 401, ping, PUT tools, leave", async () => {
  const s = server.session("t-basic");
  const a = await register(s);
  assert.equal(a.status, 201);
  assert.equal(a.body.name, "web");
  assert.equal((await register(s)).body.name, "web-2");
  assert.equal((await call({ ...s, token: "wrong" }, "POST", "/clients", { body: {} })).status, 401);
  assert.equal((await call(s, "POST", `/clients/${a.body.id}/ping`, { key: "p1" })).status, 200);
  assert.equal((await call(s, "PUT", `/clients/${a.body.id}/tools`, { body: { tools: [] } })).status, 200);
  assert.equal((await call(s, "DELETE", `/clients/${a.body.id}`)).status, 204);
  assert.equal((await call(s, "POST", `/clients/${a.body.id}/ping`, { key: "p2" })).status, 404);
  assert.equal((await register(s)).body.name, "web", "a name is freed when its client leaves");
});

test("honest: at most 32 live clients", async () => {
  const s = server.session("t-limit");
  for (let i = 0; i < 32; i++) assert.equal((await register(s)).status, 201);
  const r = await register(s);
  assert.equal(r.status, 409);
  assert.equal(r.body.error.type, "client_limit_reached");
});

test("honest: ack before result, one answer per call, a repeated key gets the stored answer", async () => {
  const s = server.session("t-calls");
  const { body: c } = await register(s);
  const call1 = s.dispatch({ tool: "echo", args: { n: 1 } });
  const pending = await call(s, "GET", `/clients/${c.id}/calls`);
  assert.deepEqual(pending.body.calls.map((x) => x.call_id), [call1.id]);
  assert.deepEqual(pending.body.calls[0].arguments, { n: 1 });
  const path = `/clients/${c.id}/calls/${call1.id}`;
  assert.equal((await call(s, "POST", `${path}/result`, { body: { text: "x" }, key: "r0" })).body.error.type, "call_not_acked");
  assert.equal((await call(s, "POST", `${path}/ack`, { key: "a1" })).status, 200);
  assert.equal((await call(s, "POST", `${path}/result`, { body: { text: "x", is_error: false }, key: "r1" })).status, 200);
  assert.equal((await call(s, "POST", `${path}/result`, { body: { text: "x" }, key: "r1" })).status, 200, "a retry with the same key");
  assert.equal((await call(s, "POST", `${path}/result`, { body: { text: "y" }, key: "r2" })).body.error.type, "call_settled");
  assert.equal(call1.accepted.text, "x");
  assert.equal(call1.results.length, 4, "every result request is recorded");
  assert.equal((await call(s, "GET", `/clients/${c.id}/calls`)).body.calls.length, 0);
});

test("honest: ids, replay after Last-Event-ID, stream_reset for an unknown id, keep-alives", async () => {
  const s = server.session("t-stream");
  await register(s);
  const first = await openStream(s);
  assert.equal(first.head, 200);
  s.dispatch({ tool: "echo", args: { n: 1 } });
  await sleep(250);
  first.close();
  // Without Last-Event-ID nothing is replayed: the registration (id 1) came before.
  assert.match(first.text, /^id: 2\nevent: client_tool_dispatched\ndata: \{"type":"client_tool_dispatched"/);
  assert.match(first.text, /: keep-alive\n\n/);
  const replay = await openStream(s, { lastEventId: "0" });
  await sleep(50);
  replay.close();
  assert.match(replay.text, /^id: 1\nevent: client_registered\n[^]*\n\nid: 2\nevent: client_tool_dispatched/);
  const reset = await openStream(s, { lastEventId: "nonsense" });
  await sleep(50);
  reset.close();
  assert.match(reset.text, /event: stream_reset/);
  assert.deepEqual(s.requests("stream").map((r) => r.lastEventId), [null, "0", "nonsense"]);
});

test("honest: deadlines fail calls with client_tool_failed", async () => {
  const s = server.session("t-deadline", { ackMs: 100 });
  await register(s);
  const c = s.dispatch({ tool: "echo" });
  await sleep(200);
  assert.equal(c.state, "failed");
  assert.equal(c.failed.reason, "ack_timeout");
  assert.equal(s.events.at(-1).type, "client_tool_failed");
});

test("faults: pending 404, acks and results 5xx, raw arguments, clock behind", async () => {
  const s = server.session("t-faults", { pendingStatus: 404, ackFail: [500, 503], clockSkewMs: 400000 });
  const { body: c } = await register(s);
  const raw = s.dispatch({ tool: "echo", rawArgs: '{"n":1e400}' });
  assert.match(s.events.at(-1).frame, /"arguments":\{"n":1e400\}/);
  const ackDeadline = JSON.parse(s.events.at(-1).frame.split("data: ")[1].replace("1e400", "0")).ack_deadline;
  assert.ok(Date.parse(ackDeadline) < Date.now(), "the ack deadline is in the past");
  assert.equal((await call(s, "GET", `/clients/${c.id}/calls`)).status, 404);
  const path = `/clients/${c.id}/calls/${raw.id}`;
  assert.equal((await call(s, "POST", `${path}/ack`)).status, 500);
  assert.equal((await call(s, "POST", `${path}/ack`)).status, 503);
  const r = server.session("t-results", { resultFail: [503] });
  const { body: rc } = await register(r);
  const x = r.dispatch({ tool: "echo" });
  await call(r, "POST", `/clients/${rc.id}/calls/${x.id}/ack`);
  assert.equal((await call(r, "POST", `/clients/${rc.id}/calls/${x.id}/result`, { body: { text: "t" } })).status, 503);
});

test("faults: results accepted and never answered, then a retry with the key is answered", async () => {
  const s = server.session("t-hang", { hangResults: 1 });
  const { body: c } = await register(s);
  const x = s.dispatch({ tool: "echo" });
  const path = `/clients/${c.id}/calls/${x.id}`;
  await call(s, "POST", `${path}/ack`);
  const ac = new AbortController();
  const hung = fetch(`${server.url}/v1/sessions/${s.id}${path}/result`, {
    method: "POST", signal: ac.signal, body: JSON.stringify({ text: "t" }),
    headers: { Authorization: `Bearer ${s.token}`, "Idempotency-Key": "k" },
  }).catch((e) => e.name);
  await sleep(200);
  assert.equal(x.state, "succeeded");
  ac.abort();
  assert.equal(await hung, "AbortError");
  assert.equal((await call(s, "POST", `${path}/result`, { body: { text: "t" }, key: "k" })).status, 200);
});

test("faults: DELETE 500 or never answered; the stream with no head, silent, dropped", async () => {
  const d = server.session("t-del", { deleteMode: "500" });
  const { body: c } = await register(d);
  assert.equal((await call(d, "DELETE", `/clients/${c.id}`)).status, 500);
  const h = server.session("t-delhang", { deleteMode: "hang" });
  const { body: hc } = await register(h);
  const r = await Promise.race([call(h, "DELETE", `/clients/${hc.id}`), sleep(300).then(() => "no answer")]);
  assert.equal(r, "no answer");
  const s = server.session("t-nohead", { streamPlan: ["nohead", "silent"], keepAliveMs: 50 });
  const nohead = await openStream(s, { headWithin: 300 });
  assert.equal(nohead.head, null);
  nohead.close();
  const silent = await openStream(s);
  assert.equal(silent.head, 200);
  await sleep(200);
  assert.equal(silent.text, "", "nothing, not even a keep-alive");
  silent.close();
  const honest = await openStream(s);
  await sleep(120);
  assert.match(honest.text, /: keep-alive/);
  assert.equal(s.dropStreams(), 1);
  await sleep(50);
  assert.ok(s.requests("stream")[2].closedAt, "the drop is recorded");
});
