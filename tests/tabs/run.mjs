// The multi-tab suite (issue 16): eight tabs of one app in one browser context register as
// clients of one session on the devserver, over HTTP/1.1 (so 6 connections per host).
//
// Shared (the default): all 8 tabs load and register; 1,000 calls spread over them through the
// devserver's agent routes are all answered, each by its own tab, none run twice; the leader
// tab (the one reading the session's stream) is closed at 30% and another takes over; the next
// leader gets a `freeze` event at 60% and another takes over, with nothing lost; every tab's
// own request for a static file completes while the calls run. Then the same with 200 calls
// and `navigator.locks` deleted (leadership by heartbeats; the close only).
//
// Not shared (`shareStream: false`), a measurement for the README, not a check: how many tabs
// load and register, whether their registrations lapse, what becomes of calls to them.
//
//   node run.mjs --devserver BIN --sdk DIR [--no-off]
// Closes with "N passed, M failed".
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM, Checks, startDevserver } from "../demo-check/devserver.mjs";

const { values: opts } = parseArgs({
  options: { devserver: { type: "string" }, sdk: { type: "string" }, "no-off": { type: "boolean" } },
});
if (!opts.devserver || !opts.sdk) {
  console.error("run.mjs: --devserver BIN and --sdk DIR are required");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const TABS = 8;
const CALLS = 1000;
const IN_FLIGHT = 64; // calls the "model" keeps in flight
const CLOSE_LEADER_AT = 400; // from this call on, the leader tab gets no more calls, then closes
const TTL = 15; // seconds: pings every 5 s; a tab whose pings cannot get out lapses after 15
const SHARED = { id: "tabs", token: "tabs-token" };
const SOLO = { id: "solo", token: "solo-token" };
const BEATS = { id: "beats", token: "beats-token" };
const checks = new Checks();
const t0 = Date.now();

const devserver = await startDevserver(opts.devserver, [
  "--addr", "127.0.0.1:0", "--www", join(here, "www"), "--pkg", opts.sdk,
  "--session", `${SHARED.id}:${SHARED.token}`, "--session", `${SOLO.id}:${SOLO.token}`, "--session", `${BEATS.id}:${BEATS.token}`,
  "--ack-timeout-ms", "15000", "--settled-calls", "5000",
]);
const browser = await chromium.launch({ ...CHROMIUM, headless: true });

async function agent(session, method, path, body) {
  const response = await fetch(`${devserver.url}/v1/sessions/${session.id}${path}`, {
    method,
    headers: { Authorization: `Bearer ${session.token}`, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** The model calls `tool`; resolves to the settled call (or `state: "pending"` after `waitS`). */
async function modelCall(session, run, tool, n, waitS = 60) {
  const { call_id: id } = await agent(session, "POST", `/runs/${run}/calls`, { tool, arguments: { n } });
  const until = Date.now() + waitS * 1000;
  for (;;) {
    const left = Math.max(0, Math.min(5, (until - Date.now()) / 1000));
    const c = await agent(session, "GET", `/runs/${run}/calls/${id}?wait=${left.toFixed(1)}`);
    if (c.state !== "pending" || Date.now() >= until) return c;
  }
}

/** Runs `count` jobs with at most `width` at once; `job(i)` resolves to its result. */
async function pool(count, width, job) {
  const results = new Array(count);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) {
      const i = next++;
      results[i] = await job(i);
    }
  }));
  return results;
}

/** Opens one tab of the app; resolves to what became of its page load and registration. */
async function openTab(context, session, share, timeout, token = session.token) {
  const page = await context.newPage();
  const tab = { page, errors: [], loaded: false, registered: false };
  page.on("pageerror", (e) => tab.errors.push(e.message));
  // Stream requests in flight, as the browser reports them: the tab reading the stream.
  tab.streams = 0;
  const isStream = (r) => r.url().endsWith("/stream");
  page.on("request", (r) => { if (isStream(r)) tab.streams++; });
  page.on("requestfinished", (r) => { if (isStream(r)) tab.streams--; });
  page.on("requestfailed", (r) => { if (isStream(r)) tab.streams--; });
  tab.log = [];
  tab.ran = [];
  tab.statuses = [];
  tab.events = [];
  page.on("console", (m) => {
    const text = m.text();
    if (text.startsWith("ran ")) tab.ran.push(text.slice(4));
    else if (text.startsWith("status ")) tab.statuses.push(JSON.parse(text.slice(7)));
    else if (text.startsWith("event ")) tab.events.push(text.slice(6).split(" "));
    else tab.log.push(text);
  });
  const url = `${devserver.url}/tab.html?session=${session.id}&token=${encodeURIComponent(token)}&share=${share ? 1 : 0}&ttl=${TTL}&registerTimeoutMs=${timeout}`;
  const start = Date.now();
  try {
    await page.goto(url, { waitUntil: "load", timeout });
    tab.loaded = true;
    tab.loadMs = Date.now() - start;
    await page.waitForFunction(() => window.tab?.ready || window.tab?.error, null, { timeout });
    tab.registered = await page.evaluate(() => window.tab.ready);
    tab.name = await page.evaluate(() => window.tab.name);
    tab.error = await page.evaluate(() => window.tab.error);
  } catch (e) {
    tab.error = e.message.split("\n")[0];
  }
  return tab;
}

// Statuses as the tab logged them (console messages outlive a closed tab and need no
// evaluate, which a tab reading the stream answers slowly under load).
const statuses = async (tab) => tab.statuses;
/** The held and waiting requests of this suite's stream lock, as the browser sees them. */
const locks = (tab, session) => tab.page.evaluate(async (sid) => {
  const q = await navigator.locks.query();
  const mine = (l) => l.name.includes(` ${sid} `);
  return { held: q.held.filter(mine).length, pending: q.pending.filter(mine).length };
}, session.id);

// ---- Shared: the default (and again without Web Locks, as in a page that is not a secure context) ----
async function sharedRound({ session, calls, withLocks }) {
const label = withLocks ? "" : "without Web Locks: ";
// The leader is closed at 30% of the calls; with Web Locks the next leader gets a freeze event
// at 60% (and no calls until 80%).
const closeAt = Math.floor(calls * 0.3);
const freezeAt = Math.floor(calls * 0.6);
const resumeAt = Math.floor(calls * 0.8);
const context = await browser.newContext();
// Hides navigator.locks from the SDK: leadership then goes by heartbeats.
if (!withLocks) await context.addInitScript(() => { delete Navigator.prototype.locks; });
const tabs = [];
const opened = await checks.check(`${label}${TABS} tabs in one browser context load and register on one session`, async () => {
  for (let i = 0; i < TABS; i++) {
    // The second tab's token ends in a newline, as `await r.text()` often gives one: `fetch`
    // trims it, and so does the SDK, so this tab shares the same stream (issue 39).
    const tab = await openTab(context, session, true, 20000, i === 1 ? `${session.token}\n` : session.token);
    tabs.push(tab);
    if (!tab.registered) throw new Error(`tab ${i + 1} did not register: ${tab.error}`);
    // The first tab leads: the others open once its stream is up.
    if (i === 0) await tab.page.waitForFunction(() => window.tab.statuses.some((s) => s.type === "streamOpen"), null, { timeout: 10000 });
  }
  if (!withLocks && (await tabs[0].page.evaluate(() => "locks" in navigator))) throw new Error("navigator.locks is still there");
  return `page loads ${tabs.map((t) => t.loadMs).join(", ")} ms; names ${tabs.map((t) => t.name).join(", ")}`;
});
if (opened) {
  if (withLocks) await checks.check(label + "one tab holds the session's stream lock, the 7 others wait for it", async () => {
    const l = await locks(tabs[0], session);
    if (l.held !== 1 || l.pending !== TABS - 1) throw new Error(`held ${l.held}, waiting ${l.pending} (the second tab's token ends in a newline)`);
  });
  const run = (await agent(session, "POST", "/runs", {})).id;
  const assigned = new Array(calls);
  const owed = new Map(tabs.map((t) => [t, 0]));
  let excluded = null; // the tab that gets no new calls (about to be frozen or closed)
  let frozen = null;
  let closed = null;
  let frozenAt = null;
  let closedAt = null;
  const assets = [];
  let issued = 0;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const callStart = Date.now();
  /** Has `tab` dispatch a lifecycle event (sent by another tab). */
  const lifecycle = async (tab, event) => {
    // Through a tab that does not read the stream: it answers evaluate at once.
    const via = tabs.find((t) => t !== tab && t !== closed && t.streams === 0);
    await via.page.evaluate(([name, ev]) => new BroadcastChannel("tabs-suite").postMessage({ tab: name, event: ev }), [tab.name, event]);
  };
  /** When `tab` dispatched `event`, by its own clock (its console message may come late). */
  const dispatchedAt = async (tab, event) => {
    for (let k = 0; k < 750; k++) {
      const seen = tab.events.find(([e]) => e === event);
      if (seen) return Number(seen[1]);
      await sleep(20);
    }
    return null;
  };
  let maxStreams = 0;
  const sampler = setInterval(() => {
    const n = tabs.filter((t) => t !== closed && t.streams > 0).length;
    maxStreams = Math.max(maxStreams, n);
  }, 100);
  // Past closeAt, once it owes nothing, the first leader (tabs[0]: the first tab to ask for the
  // lock) is closed; the next in the lock's queue (tabs[1]; without Web Locks, the claimer
  // with the smallest id, tabs[1] too) leads. Past freezeAt, once it owes nothing, it gets a
  // `freeze` event (dispatched: CDP's Page.setWebLifecycleState fires none in headless
  // Chromium), and `resume` at resumeAt. The freeze check passes only if the frozen tab led:
  // otherwise the other tabs' streams would not open again.
  const closing = (async () => {
    while (issued <= closeAt) await sleep(20);
    const first = (excluded = tabs[0]);
    while (owed.get(first) > 0) await sleep(20);
    closedAt = Date.now();
    closed = first;
    excluded = null;
    await first.page.close();
    // Without Web Locks, which claimer wins is not known in advance: no freeze round there.
    if (!withLocks) return;
    while (issued <= freezeAt) await sleep(20);
    frozen = excluded = tabs[1];
    while (owed.get(frozen) > 0) await sleep(20);
    await lifecycle(frozen, "freeze");
    frozenAt = true;
    while (issued < resumeAt) await sleep(20);
    await lifecycle(frozen, "resume");
    excluded = null;
  })();
  const loads = async () => {
    const live = tabs.filter((t) => t !== excluded && t !== closed);
    assets.push(...(await Promise.all(live.map((t) => t.page.evaluate(() => window.loadAsset()).catch((e) => ({ ok: false, ms: -1, error: e.message }))))));
  };
  const results = await pool(calls, IN_FLIGHT, async (i) => {
    issued++;
    if (i === Math.floor(calls * 0.3) || i === Math.floor(calls * 0.7)) loads();
    const open = tabs.filter((t) => t !== excluded && t !== closed);
    const tab = open[i % open.length];
    assigned[i] = tab;
    owed.set(tab, owed.get(tab) + 1);
    const began = Date.now();
    const c = await modelCall(session, run, `client__${tab.name}__work`, i);
    c.ms = Date.now() - began;
    owed.set(tab, owed.get(tab) - 1);
    return c;
  });
  const callEnd = Date.now();
  await closing;
  clearInterval(sampler);
  const seconds = ((callEnd - callStart) / 1000).toFixed(1);
  const ms = results.map((c) => c.ms).sort((a, b) => a - b);
  const latency = `model-side latency p50 ${ms[calls >> 1]} ms, p99 ${ms[Math.floor(calls * 0.99)]} ms`;
  await checks.check(`${label}${calls} calls spread over the ${TABS} tabs are all answered, each by its own tab`, () => {
    const wrong = results.map((c, i) => [c, i]).filter(([c, i]) => c.state !== "succeeded" || c.is_error || c.text !== `${assigned[i].name} did ${i}`);
    if (wrong.length) throw new Error(`${wrong.length} not answered right, e.g. #${wrong[0][1]}: ${JSON.stringify(wrong[0][0])}`);
    return `in ${seconds} s (${IN_FLIGHT} in flight; ${latency}); at most ${maxStreams} stream request(s) open at once in the context (Playwright's request events, sampled every 100 ms)`;
  });
  await checks.check(label + "no call ran twice, and every call ran on the tab it was made to", async () => {
    // Counted from each tab's console ("ran <call id>"), which outlives the closed leader;
    // the messages come in late under load: wait for all, then a little longer for repeats.
    const total = () => tabs.reduce((n, t) => n + t.ran.length, 0);
    for (let k = 0; k < 150 && total() < calls; k++) await sleep(100);
    await sleep(1000);
    const seen = new Map();
    for (const t of tabs) for (const id of t.ran) seen.set(id, { n: (seen.get(id)?.n ?? 0) + 1, tab: t });
    const twice = [...seen].filter(([, v]) => v.n !== 1);
    if (twice.length) throw new Error(`${twice.length} calls ran more than once, e.g. ${twice[0][0]}`);
    const missing = results.map((c, i) => [c, i]).filter(([c, i]) => seen.get(c.call_id)?.tab !== assigned[i]);
    if (missing.length) throw new Error(`${missing.length} calls did not run on their tab, e.g. #${missing[0][1]}`);
    return `${seen.size} handler runs`;
  });
  if (withLocks) await checks.check(label + "the next leader got a freeze event mid-run: another took over, and the frozen tab follows it", async () => {
    frozenAt = frozenAt && (await dispatchedAt(frozen, "freeze"));
    if (!frozenAt) throw new Error("the leader got no freeze event");
    const openedAfter = async (t) => (await statuses(t)).find((s) => s.type === "streamOpen" && s.at >= frozenAt)?.at;
    const live = tabs.filter((t) => t !== closed);
    while (Date.now() < frozenAt + 10000 && (await Promise.all(live.map(openedAfter))).includes(undefined)) await sleep(200);
    const reopened = await Promise.all(live.map(openedAfter));
    if (reopened.some((at) => at === undefined || at > frozenAt + 10000)) throw new Error(`streams open again after the freeze: ${reopened.map((a) => (a === undefined ? "never" : a - frozenAt)).join(", ")} ms`);
    return `${frozen.name} frozen; streams open again ${Math.min(...reopened) - frozenAt}–${Math.max(...reopened) - frozenAt} ms after (its own ${reopened[live.indexOf(frozen)] - frozenAt} ms)`;
  });
  await checks.check(label + `the leader tab closed mid-run: another tab took the ${withLocks ? "lock" : "lead"} and every tab's stream opened again`, async () => {
    if (closedAt === null) throw new Error("the leader was not closed");
    const others = tabs.filter((t) => t !== closed);
    let l = { held: 1, pending: others.length - 1 };
    for (let k = 0; withLocks && k < 50; k++) {
      l = await locks(others[0], session);
      if (l.held === 1 && l.pending === others.length - 1) break;
      await sleep(200);
    }
    if (l.held !== 1 || l.pending !== others.length - 1) throw new Error(`after the close: held ${l.held}, waiting ${l.pending}`);
    // Reconnects wait a backoff with jitter: give every tab up to 10 s from the close.
    const reopenedBy = async (t) => (await statuses(t)).find((s) => s.type === "streamOpen" && s.at >= closedAt)?.at;
    while (Date.now() < closedAt + 10000 && (await Promise.all(others.map(reopenedBy))).includes(undefined)) await sleep(200);
    const reopened = await Promise.all(others.map(reopenedBy));
    if (reopened.some((at) => at === undefined)) throw new Error(`${reopened.filter((a) => a === undefined).length} tabs never reopened`);
    const first = Math.min(...reopened) - closedAt;
    const last = Math.max(...reopened) - closedAt;
    if (last > 10000) throw new Error(`the last tab's stream reopened ${last} ms after the close`);
    return `${closed.name} closed ${((closedAt - callStart) / 1000).toFixed(1)} s into the run (${((callEnd - closedAt) / 1000).toFixed(1)} s before its end); streams open again ${first}–${last} ms after the close`;
  });
  await checks.check(label + "every tab's own request for a static file completed while the calls ran", () => {
    if (assets.length === 0) throw new Error("no asset was requested");
    const bad = assets.filter((a) => !a.ok);
    if (bad.length) throw new Error(`${bad.length} of ${assets.length} failed: ${JSON.stringify(bad[0])}`);
    const ms = assets.map((a) => a.ms).sort((a, b) => a - b);
    return `${assets.length} loads, median ${ms[ms.length >> 1]} ms, slowest ${ms[ms.length - 1]} ms`;
  });
  await checks.check(label + "no tab lapsed or failed, and no uncaught page errors", async () => {
    const bad = [];
    for (const t of tabs) {
      for (const s of await statuses(t)) if (s.type === "lapsed" || (s.type === "error" && s.fatal)) bad.push(`${t.name}: ${JSON.stringify(s)}`);
    }
    const errors = tabs.flatMap((t) => t.errors);
    if (bad.length || errors.length) throw new Error([...bad, ...errors].slice(0, 5).join(" | "));
  });
}
await context.close();
}
await sharedRound({ session: SHARED, calls: CALLS, withLocks: true });
await sharedRound({ session: BEATS, calls: 200, withLocks: false });

// ---- Not shared: what happens instead (a figure, not a check) ----
if (!opts["no-off"]) {
  const solo = await browser.newContext();
  const start = Date.now();
  const list = [];
  for (let i = 0; i < 6; i++) list.push(await openTab(solo, SOLO, false, 8000));
  const registered = list.filter((t) => t.registered);
  const run = (await agent(SOLO, "POST", "/runs", {})).id;
  const tally = {};
  // The model calls the six while the 7th and 8th tabs load.
  const later = (async () => {
    for (let i = 6; i < TABS; i++) list.push(await openTab(solo, SOLO, false, 8000));
  })();
  const outcomes = await pool(200, IN_FLIGHT, async (i) => {
    const t = registered[i % Math.max(1, registered.length)];
    if (!t) return { state: "no tab" };
    try {
      return await modelCall(SOLO, run, `client__${t.name}__work`, i, 30);
    } catch (e) {
      return { state: "refused", reason: e.message.includes("404") ? "the tool is gone" : e.message };
    }
  });
  await later;
  const loaded = list.filter((t) => t.loaded).length;
  const registeredAll = list.filter((t) => t.registered).length;
  for (const c of outcomes) {
    const k = c.state === "succeeded" ? "answered" : c.state === "failed" ? `failed ${c.reason}` : c.state === "refused" ? `refused (${c.reason})` : "still pending after 30 s";
    tally[k] = (tally[k] ?? 0) + 1;
  }
  let lapsed = 0;
  for (const t of registered) if ((await statuses(t).catch(() => [])).some((s) => s.type === "lapsed")) lapsed++;
  const assets = await Promise.all(list.filter((t) => t.loaded).map((t) => t.page.evaluate(() => Promise.race([window.loadAsset(), new Promise((r) => setTimeout(() => r({ ok: false }), 5000))]))));
  console.log(`sharing off (${TABS} tabs, ${((Date.now() - start) / 1000).toFixed(0)} s): ${loaded} of ${TABS} pages loaded within 8 s, ` +
    `${registeredAll} registered, ${lapsed} of the first 6 lapsed; a static file fetched by each loaded tab: ${assets.filter((a) => a.ok).length} of ${assets.length} within 5 s; ` +
    `200 calls to the registered tabs: ${Object.entries(tally).map(([k, v]) => `${v} ${k}`).join(", ")}`);
  await solo.close();
}

await browser.close();
await devserver.stop();
console.log(`${((Date.now() - t0) / 1000).toFixed(0)} s in all`);
console.log(checks.summary());
process.exit(checks.failed === 0 ? 0 : 1);
