// Issue 39: no token reaches anything the app sees. One run of the SDK that refreshes tokens
// (valid, malformed, refused by the server) against the devserver rotating the session's token
// (`POST …/token`), collecting every status, onCall event, register error, console line and
// call result text; `leaks` lists each of them that holds a token the run used. Shared by
// tests/token_secrets.rs (Node) and tests/web_token_secrets.rs (Chromium).

const echo = { name: "echo", description: "Echo.", handler: (args) => `echo ${args.text}` };
const ttl5 = { type: "ttl", data: { seconds: 5 } };

// Text of anything the app is handed, Errors with their message and stack.
function text(v) {
  if (v instanceof Error) return `${v.name}: ${v.message}\n${v.stack ?? ""}`;
  if (typeof v === "string") return v;
  try {
    return JSON.stringify(v, (_, x) => (x instanceof Error ? text(x) : x)) ?? String(v);
  } catch {
    return String(v);
  }
}

export async function tokenSecrets(t) {
  const { a } = t;
  const seen = []; // [where, text]
  const tokens = new Set([t.s.token]);
  const record = (where, v) => seen.push([where, text(v)]);
  // What this test prints never holds a token either.
  const redact = (s) => [...tokens].reduce((r, tok) => r.split(tok).join("<TOKEN>"), s);
  const methods = ["log", "info", "warn", "error", "debug", "trace"];
  const originals = Object.fromEntries(methods.map((m) => [m, console[m]]));
  for (const m of methods) {
    console[m] = (...args) => {
      record(`console.${m}`, args.map(text).join(" "));
      return originals[m].apply(console, args);
    };
  }
  // The app's backend: hands out `give()` (the session's current token unless replaced).
  const b = { current: t.s.token, asked: 0 };
  b.give = async () => b.current;
  b.token = async () => { b.asked += 1; return b.give(); };
  b.rotate = async () => {
    const next = (await a.api(t.base, "POST", `/v1/sessions/${t.s.id}/token`, b.current, {})).token;
    tokens.add(next);
    b.current = next;
  };
  const client = async (name) => {
    const w = a.watched(t.options({ name, token: b.token, lifetime: ttl5, tools: [echo] }));
    const opts = {
      ...w.options,
      onStatus: (s) => { record(`${name} onStatus`, s); w.options.onStatus(s); },
      onCall: (e) => { record(`${name} onCall`, e); w.options.onCall(e); },
    };
    const c = await t.register(opts).catch((e) => { record(`${name} register`, e); throw e; });
    return { c, w };
  };
  const fatal = (w) => w.statuses.filter((s) => s.type === "error" && s.fatal).map((s) => ({ kind: s.kind, message: s.message }));
  const call = async (c, textArg) => {
    const agent = { ...t.s, token: b.current };
    const run = await a.startRun(t.base, agent);
    const id = await a.callTool(t.base, agent, run, `client__${c.name}__echo`, { text: textArg });
    const outcome = await a.waitCall(t.base, agent, run, id, 10);
    record("result", outcome);
    return { is_error: outcome.is_error, text: outcome.text };
  };
  const out = {};
  // Each step on its own: one that throws is recorded and the next still runs.
  const step = async (name, f) => {
    try {
      out[name] = await f();
    } catch (e) {
      record(`${name} threw`, e);
      out[name] = { threw: redact(`${e?.message ?? e}`) };
    }
  };
  try {
    // 1. A valid token with a trailing newline (`await r.text()`), then a valid refresh.
    await step("trimmed", async () => {
      b.give = async () => `${b.current}\n`;
      const { c, w } = await client("trimmed");
      const seen = { state: c.state, first: await call(c, "one") };
      await b.rotate();
      await a.waitFor("the token function asked again", () => b.asked >= 2, 8000);
      seen.refreshed = await call(c, "two");
      seen.fatal = fatal(w);
      await c.leave();
      return seen;
    });
    // 2. A refreshed token a header cannot carry: unauthorized at once, naming the problem.
    await step("malformed", async () => {
      b.give = async () => b.current;
      const { c, w } = await client("malformed");
      b.give = async () => `${b.current}\nx`;
      const asked = b.asked;
      await b.rotate();
      await a.waitFor("the token function asked again", () => b.asked > asked, 8000);
      const askedAt = Date.now();
      await a.waitFor("the client stops", () => c.state === "failed", 8000)
        .catch((e) => record("wait", e));
      const seen = { state: c.state, msAfterRefresh: Date.now() - askedAt, fatal: fatal(w) };
      await c.leave().catch((e) => record("malformed leave", e));
      return seen;
    });
    // 3. A first token a header cannot carry, as a string and from the function: refused at
    //    register, naming the problem.
    const refusal = (e) => { record("register refused", e); return { code: e.code, message: e.message }; };
    await step("firstString", () => t.register(t.options({ name: "nul", token: `${b.current}\0` }))
      .then((c) => { c.leave(); return null; }, refusal));
    await step("firstFunction", () => t.register(t.options({ name: "lf", token: async () => `${b.current}\nx` }))
      .then((c) => { c.leave(); return null; }, refusal));
    // 4. A fresh token the server refuses too (the backend lags behind a rotation).
    await step("stale", async () => {
      b.give = async () => b.current;
      const { c, w } = await client("stale");
      const stale = b.current;
      b.give = async () => stale;
      await b.rotate();
      await a.waitFor("the client stops", () => c.state === "failed", 10000)
        .catch((e) => record("wait", e));
      return { state: c.state, fatal: fatal(w) };
    });
  } finally {
    for (const m of methods) console[m] = originals[m];
  }
  // Every token of the run, and the part before a line break of each malformed one (the
  // session's token itself), must be in no text the app was handed.
  out.leaks = seen
    .filter(([, s]) => [...tokens].some((tok) => s.includes(tok)))
    .map(([where, s]) => `${where}: ${redact(s).slice(0, 300)}`);
  out.texts = seen.length;
  out.tokens = tokens.size;
  return out;
}
