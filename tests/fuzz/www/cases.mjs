// The fuzz suite's cases, shared by Node and the browser page (www/index.html): every export and
// method of the package fed every hostile value (wrong types, Proxies whose traps throw,
// throwing getters, iterators and toJSON, revoked Proxies, BigInt, Symbol, cyclic and 100k-deep
// values, a huge string), each pair `matrixRepeat` times (10,000 by default, as issue 23 asks:
// about 16 million calls per environment); the
// 100k-deep values and the huge string `heavyRepeat` times (20: each such call takes up to
// 90 ms). Then, `repeat` times each (10,000), issue 23's reproductions (cases 1-5: a
// function as `parameters` and `lifetime`, a tool Proxy whose `ownKeys` throws, a throwing
// iterable in `filtered`, `names()` on a freed registry, 30,000 times, past the 21,845 that
// killed main's module) and scenarios (every method of freed objects, objects re-entered from
// their own getters, a promise whose `constructor` throws in the executor, a revoked Proxy in
// `setTools`, a `fetch` that throws synchronously, a token that is no header value).
//
// A case passes when every call either returned, or threw / rejected with an `Error` whose
// `code` is a ClientErrorCode and whose message is the SDK's own (no wasm-bindgen or Rust
// internals, no app error passed through raw); a function that returns a promise must never
// throw synchronously, and every promise must settle. After the cases, `after()` checks that the
// module still answers a trivial `execute` and that a client registered through the devserver
// still answers the model's call.

/** The codes of `ClientErrorCode` as the package's client_tools.d.ts lists them. */
export function declaredCodes(dts) {
  const union = /export type ClientErrorCode =([^;]*);/.exec(dts)?.[1] ?? "";
  return [...union.matchAll(/"([a-z_]+)"/g)].map((m) => m[1]);
}

/** Texts that are never the SDK's own words: wasm-bindgen's checks, Rust panics, traps. */
const FOREIGN = /unwrap_throw|expect_throw|null pointer passed to rust|recursive use of an object|RuntimeError|unreachable|memory access out of bounds|already borrowed|already mutably borrowed|Unexpected token|is not a function|Cannot read properties|Illegal invocation/;

/** What every trap of the app throws: seen raw in an SDK error, it was passed through. */
export const TRAP = "fuzz: the app's trap threw";
function trap() {
  throw new Error(TRAP);
}

const ALL_TRAPS = {
  get: trap, set: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap,
  setPrototypeOf: trap, defineProperty: trap, deleteProperty: trap, apply: trap, construct: trap,
  isExtensible: trap, preventExtensions: trap,
};

function revoked(target) {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
}

let deepArray;
let deepObject;
let hugeString;

/** The hostile values, by name: each a factory, so a value that a call changes is fresh. */
export function values() {
  deepArray ??= (() => {
    let v = [];
    for (let i = 0; i < 100_000; i++) v = [v];
    return v;
  })();
  deepObject ??= (() => {
    let v = {};
    for (let i = 0; i < 100_000; i++) v = { v };
    return v;
  })();
  hugeString ??= "x".repeat(1 << 20);
  const cyclic = {};
  cyclic.self = cyclic;
  const badPromise = Promise.resolve(1);
  Object.defineProperty(badPromise, "constructor", { get: trap });
  return {
    undefined: () => undefined,
    null: () => null,
    number: () => 42,
    NaN: () => NaN,
    boolean: () => true,
    string: () => "fuzz",
    "empty string": () => "",
    symbol: () => Symbol("fuzz"),
    BigInt: () => 10n,
    function: () => () => ({}),
    "plain object": () => ({}),
    "empty array": () => [],
    "Proxy, every trap throws": () => new Proxy({}, ALL_TRAPS),
    "Proxy of an array, every trap throws": () => new Proxy([], ALL_TRAPS),
    "Proxy, ownKeys throws": () => new Proxy({ name: "x" }, { ownKeys: trap }),
    "Proxy of an array, length throws": () =>
      new Proxy(["a"], { get: (t, k) => (k === "length" ? trap() : Reflect.get(t, k)) }),
    "revoked Proxy": () => revoked({}),
    "revoked Proxy of an array": () => revoked([]),
    "throwing getters": () =>
      new Proxy({}, { get: (t, k) => (typeof k === "string" ? trap() : undefined), ownKeys: () => [] }),
    "throwing iterator": () => ({ [Symbol.iterator]: () => ({ next: trap }) }),
    "array, throwing iterator": () => Object.assign(["a"], { [Symbol.iterator]: trap }),
    "throwing toJSON": () => ({ toJSON: trap }),
    "BigInt inside": () => ({ a: 1n, b: [2n] }),
    cyclic: () => cyclic,
    "100k-deep array": () => deepArray,
    "100k-deep object": () => deepObject,
    "huge string": () => hugeString,
    "promise, constructor throws": () => badPromise,
    "thenable, then throws": () => ({ get then() { return trap(); } }),
    "array of a throwing Proxy": () => [new Proxy({}, ALL_TRAPS)],
  };
}

/** A tool definition with `field` set to `v`. */
function toolWith(field, v) {
  const tool = { name: "fuzz_tool", description: "d", handler: () => "ok" };
  tool[field] = v;
  return tool;
}

const TOOL_FIELDS = ["name", "description", "parameters", "handler", "timeoutMs", "maxCallsPerRun", "assertFormats", "annotations", "expectsResponse"];
const REGISTER_KEYS = [
  "baseUrl", "sessionId", "token", "name", "lifetime", "whenHidden", "tools", "registerTimeoutMs",
  "requestTimeoutMs", "onStatus", "onCall", "signal", "shareStream", "tokn",
];

/**
 * The targets: each `{ name, async?, run(v, fx) }`, `run` calling one export or method with the
 * hostile value `v`; `async` marks those that return a promise (which must then never throw).
 * `fx` holds the fixtures (a registry, a registered client…).
 */
function targets(api, fx) {
  const t = [];
  const sync = (name, run) => t.push({ name, run, async: false });
  const later = (name, run, batch) => t.push({ name, run, async: true, batch });
  sync("new ToolRegistry(v)", (v) => new api.ToolRegistry(v));
  sync("new ToolRegistry([v])", (v) => new api.ToolRegistry([v]));
  for (const f of TOOL_FIELDS) sync(`new ToolRegistry([{ ${f}: v }])`, (v) => new api.ToolRegistry([toolWith(f, v)]));
  sync("registry.register(v)", (v) => fx.registry.register(v));
  sync("registry.has(v)", (v) => fx.registry.has(v));
  sync("registry.get(v)", (v) => fx.registry.get(v));
  sync("registry.filtered(v)", (v) => fx.registry.filtered(v));
  sync("registry.without(v)", (v) => fx.registry.without(v));
  later("registry.execute(v)", (v) => fx.registry.execute(v));
  later("registry.execute(echo, v)", (v) => fx.registry.execute("echo", v));
  later("registry.execute(echo, {}, v)", (v) => fx.registry.execute("echo", {}, v));
  later("registry.execute(echo, { runId: v })", (v) => fx.registry.execute("echo", {}, { runId: v }));
  sync("new TurnTools(v)", (v) => new api.TurnTools(v));
  sync("new TurnTools([], v)", (v) => new api.TurnTools([], v));
  sync("new TurnTools([], { onCall: v })", (v) => new api.TurnTools([], { onCall: v }));
  later("turns.answer(v)", (v) => fx.turns.answer(v));
  sync("new WsTools(v)", (v) => new api.WsTools(v));
  sync("new WsTools({ tools: v })", (v) => new api.WsTools({ dialect: "openai-realtime", send() {}, tools: v }));
  sync("new WsTools({ dialect: v })", (v) => new api.WsTools({ dialect: v, send() {} }));
  sync("new WsTools({ send: v })", (v) => new api.WsTools({ dialect: "cartesia", send: v }));
  sync("new WsTools({ onCall: v })", (v) => new api.WsTools({ dialect: "cartesia", send() {}, onCall: v }));
  sync("new WsTools({ respondAfterResult: v })", (v) => new api.WsTools({ dialect: "openai-realtime", send() {}, respondAfterResult: v }));
  sync("ws.receive(v)", (v) => fx.ws.receive(v));
  sync("ws.setTools(v)", (v) => fx.ws.setTools(v));
  sync("WsTools.attach(v, options)", (v) => api.WsTools.attach(v, { dialect: "cartesia" }));
  if (fx.fakeSocket) sync("WsTools.attach(socket, v)", (v) => api.WsTools.attach(fx.fakeSocket(), v));
  later("exposeToWebMCP(v)", (v) => api.exposeToWebMCP(v));
  later("exposeToWebMCP([], v)", (v) => api.exposeToWebMCP([], v));
  later("exposeToWebMCP([], { prefix: v })", (v) => api.exposeToWebMCP([], { prefix: v }));
  later("Client.register(v)", (v) => api.Client.register(v));
  for (const key of REGISTER_KEYS) {
    // Every other option valid, and a signal already aborted: nothing reaches the network
    // (the signal itself fuzzed: a wrong token, refused at once by the noise session).
    const fixed = key === "signal" ? { token: "wrong" } : { signal: fx.aborted };
    later(`Client.register({ ${key}: v })`, (v) => api.Client.register({ ...fx.options(), ...fixed, [key]: v }));
  }
  // A list the client takes (`undefined`, `[]`) is a PUT to the devserver each time: 200 in
  // flight at most, so that a batch's 30 s is 150 ms a PUT (2,000 did not fit on the loaded
  // machine at 1,000 repetitions: 1,000 PUTs behind the page's request slots).
  later("client.setTools(v)", (v) => fx.client.setTools(v), 200);
  for (const factory of ["describeFormTool", "fillFormTool", "submitFormTool", "navigateTool", "readPageTool", "readTableTool", "highlightTool", "clickTool"]) {
    if (api[factory]) sync(`${factory}(v)`, (v) => api[factory](v));
  }
  if (api.describeFormTool) sync("describeFormTool({ sensitive: v })", (v) => api.describeFormTool({ sensitive: v }));
  if (api.navigateTool) sync("navigateTool({ allowOrigins: v })", (v) => api.navigateTool({ allowOrigins: v }));
  if (api.highlightTool) sync("highlightTool({ highlight: v })", (v) => api.highlightTool({ highlight: v }));
  if (api.clickTool) sync("clickTool({ clickable: v })", (v) => api.clickTool({ clickable: v }));
  later("init(v)", (v) => api.init(v));
  return t;
}

/** The values whose every call is slow (a 100k-deep walk that overflows the stack, 1 MB copied). */
const HEAVY = ["100k-deep array", "100k-deep object", "huge string"];

/** The tally of one run, and what went wrong, a few examples per kind. */
class Tally {
  constructor(log, codes) {
    this.log = log;
    this.codes = codes;
    this.cases = 0;
    this.failedCases = 0;
    this.calls = 0;
    this.returned = 0;
    this.coded = 0;
    this.appReason = 0;
    this.uncoded = 0;
    this.foreign = 0;
    this.syncThrows = 0;
    this.unsettled = 0;
    this.byKind = {};
    this.failures = [];
  }

  /** One error thrown or rejected by the SDK; returns why it is wrong, or null. */
  judge(error, { expected } = {}) {
    if (expected !== undefined && error === expected) {
      this.appReason++;
      return null;
    }
    const message = error instanceof Error ? error.message : String(error);
    const code = error?.code;
    if (!this.codes.includes(code)) {
      this.uncoded++;
      return `no code (${code === undefined ? "none" : String(code)}): ${describe(error)}`;
    }
    if (FOREIGN.test(message) || message === TRAP) {
      this.foreign++;
      return `code ${code}, but not the SDK's words: ${message.slice(0, 200)}`;
    }
    this.coded++;
    return null;
  }
}

function describe(error) {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : typeof error === "symbol" ? error.toString() : String(error);
  return text.slice(0, 200);
}

/** Settles `promises` within `ms`; resolves to how many did not. */
async function settled(promises, ms, onRejected) {
  let open = promises.length;
  const all = promises.map((p) =>
    Promise.resolve(p).then(
      () => { open--; },
      (e) => { open--; onRejected(e); },
    ),
  );
  let timer;
  await Promise.race([Promise.all(all), new Promise((done) => { timer = setTimeout(done, ms); })]);
  clearTimeout(timer);
  return open;
}

/**
 * Runs `fn(i)` `repeat` times as one case named `name`: counts returns, coded errors and what
 * is wrong. `async` (a promise API): a sync throw is wrong, every promise must settle within
 * `settleMs` (30 s: a request may wait behind the 4 request slots of the page, which the
 * registrations refused by the noise session fill; `requestTimeoutMs` is 30 s). `expected`: an error the app itself gave (a signal's reason), passed through as
 * documented.
 */
async function runCase(tally, name, repeat, fn, { async = false, settleMs = 30000, expected, batch = 2000 } = {}) {
  tally.cases++;
  const wrong = new Map();
  const note = (why) => {
    if (why) wrong.set(why.replace(/\d+/g, "N"), (wrong.get(why.replace(/\d+/g, "N")) ?? 0) + 1);
  };
  let pending = [];
  let unsettled = 0;
  const flush = async () => {
    unsettled += await settled(pending, settleMs, (e) => note(tally.judge(e, { expected })));
    pending = [];
  };
  for (let i = 0; i < repeat; i++) {
    tally.calls++;
    let out;
    try {
      out = fn(i);
    } catch (error) {
      if (async) {
        tally.syncThrows++;
        note(`threw synchronously instead of rejecting: ${describe(error)}`);
      } else {
        note(tally.judge(error, { expected }));
      }
      continue;
    }
    tally.returned++;
    if (async) {
      pending.push(out);
      if (pending.length >= batch) await flush();
    }
  }
  await flush();
  if (unsettled) {
    tally.unsettled += unsettled;
    note(`${unsettled} of ${repeat} promises did not settle within ${settleMs} ms`);
  }
  if (wrong.size) {
    tally.failedCases++;
    const detail = [...wrong].slice(0, 3).map(([why, n]) => `${n}× ${why}`).join(" | ");
    tally.failures.push(`${name}: ${detail}`);
    tally.log(`FAIL ${name} — ${detail}`);
    return false;
  }
  return true;
}

/** The valid options of a client that stays off the network (a signal already aborted). */
function baseOptions(env) {
  return { baseUrl: env.baseUrl, sessionId: env.noiseSession, token: env.noiseToken, name: "fuzzoff", shareStream: false };
}

/**
 * Runs every case. `env`: `{ baseUrl, session, token, noiseSession, noiseToken, repeat, log, where, fakeSocket?,
 * fakeModelContext? }`. Resolves to the tally (plain data).
 */
export async function fuzz(api, env) {
  const log = env.log ?? console.log;
  const tally = new Tally(log, env.codes);
  try {
    await fuzzInto(api, env, tally);
  } catch (error) {
    // The run itself broke (a fixture could not be made): what was counted so far stands.
    tally.cases++;
    tally.failedCases++;
    tally.failures.push(`the run stopped: ${describe(error)}`);
    log(`FAIL the run stopped: ${describe(error)}`);
  }
  return tally;
}

async function fuzzInto(api, env, tally) {
  const repeat = env.repeat ?? 10000;
  const matrixRepeat = env.matrixRepeat ?? repeat;
  const heavyRepeat = env.heavyRepeat ?? 20;
  const log = tally.log;
  await api.init();
  const reason = new Error("fuzz: the app's own abort reason");
  const controller = new AbortController();
  controller.abort(reason);
  const fx = {
    registry: new api.ToolRegistry([{ name: "echo", handler: (a) => a }]),
    turns: new api.TurnTools([{ name: "echo", handler: (a) => a }]),
    ws: new api.WsTools({ dialect: "openai-realtime", send() {}, tools: [{ name: "echo", handler: (a) => a }] }),
    options: () => baseOptions(env),
    aborted: controller.signal,
    fakeSocket: env.fakeSocket,
  };
  fx.client = await api.Client.register({ ...baseOptions(env), sessionId: env.session, token: env.token, name: `${env.where}fixture`, lifetime: { type: "never" } });
  const vals = values();
  const t0 = Date.now();
  for (const target of targets(api, fx)) {
    const c0 = tally.failedCases;
    const s0 = Date.now();
    for (const [vname, make] of Object.entries(vals)) {
      const n = HEAVY.includes(vname) ? heavyRepeat : matrixRepeat;
      await runCase(tally, `${target.name} with ${vname}`, n, () => target.run(make(), fx), {
        async: target.async,
        batch: target.batch,
        expected: reason,
      });
    }
    log(`${tally.failedCases === c0 ? "ok  " : "FAIL"} ${target.name}: ${Object.keys(vals).length} values × ${matrixRepeat} (${HEAVY.length} of them × ${heavyRepeat}) (${Date.now() - s0} ms)`);
  }
  log(`values: ${Object.keys(vals).length} kinds; targets done in ${Date.now() - t0} ms`);
  await scenarios(api, env, fx, tally, repeat);
}

/** Issue 23's scenarios, each repeated. */
async function scenarios(api, env, fx, tally, repeat) {
  const log = tally.log;
  const ran = async (name, n, fn, opts) => log(`${(await runCase(tally, name, n, fn, opts)) ? "ok  " : "FAIL"} ${name} × ${n}`);
  // A fixture that cannot be made fails its scenario (the module may be broken by now).
  const make = (name, fn) => {
    try {
      return fn();
    } catch (error) {
      tally.cases++;
      tally.failedCases++;
      tally.failures.push(`${name}: cannot be made: ${describe(error)}`);
      log(`FAIL ${name}: cannot be made: ${describe(error)}`);
      return null;
    }
  };
  const tool = { name: "echo", handler: (a) => a };

  // Issue 23's cases 1 and 5 as filed, each repeated past the count that killed main's module.
  await ran("new ToolRegistry([{ parameters: () => ({}) }])", repeat, () =>
    new api.ToolRegistry([{ name: "t", handler() {}, parameters: () => ({}) }]));
  await ran("Client.register({ lifetime: () => ({}) })", repeat, () =>
    api.Client.register({ ...baseOptions(env), signal: fx.aborted, lifetime: () => ({}) }), { async: true });
  await ran("new ToolRegistry([Proxy whose ownKeys throws])", repeat, () =>
    new api.ToolRegistry([new Proxy({ name: "t", handler() {} }, { ownKeys: trap })]));
  await ran("registry.filtered(iterable that throws), then registry.names()", repeat, () => {
    try { fx.registry.filtered({ [Symbol.iterator]: () => ({ next: trap }) }); } catch (e) { tally.judge(e); }
    return fx.registry.names();
  });
  await ran("registry.register(Proxy whose ownKeys throws), then registry.has()", repeat, () => {
    try { fx.registry.register(new Proxy({ name: "t", handler() {} }, { ownKeys: trap })); } catch (e) { tally.judge(e); }
    return fx.registry.has("echo");
  });

  // A freed registry, TurnTools and WsTools: every method answers `freed`.
  const freedRegistry = make("a freed registry", () => { const r = new api.ToolRegistry([tool]); r.free(); return r; });
  for (const [m, args] of [["names", []], ["has", ["echo"]], ["get", ["echo"]], ["definitions", []], ["filtered", [[]]],
    ["without", [[]]], ["register", [tool]], ["toOpenAI", []], ["toOpenAIResponses", []], ["toAnthropic", []], ["toMCP", []], ["free", []]]) {
    // names() 30,000 times: main's module died after 21,845.
    const n = m === "names" ? Math.max(repeat, 30000) : repeat;
    if (freedRegistry) await ran(`freed registry.${m}()`, n, () => freedRegistry[m](...args));
  }
  if (freedRegistry) await ran("freed registry.execute()", repeat, () => freedRegistry.execute("echo", {}), { async: true });
  const freedTurns = make("a freed TurnTools", () => { const t = new api.TurnTools([tool]); t.free(); return t; });
  if (freedTurns) await ran("freed turns.answer()", repeat, () => freedTurns.answer({ outputs: [] }), { async: true });
  const freedWs = make("a freed WsTools", () => { const w = new api.WsTools({ dialect: "cartesia", send() {} }); w.free(); return w; });
  for (const [m, args] of [["receive", ["{}"]], ["closed", []], ["detach", []], ["setTools", [[]]], ["declarations", []]]) {
    if (freedWs) await ran(`freed ws.${m}()`, repeat, () => freedWs[m](...args));
  }
  if (freedWs) await ran("freed ws.dialect", repeat, () => freedWs.dialect);

  // Re-entered: a getter that calls the object it is being read by, then frees it.
  await ran("registry.register(tool whose getters re-enter and free the registry)", repeat, () => {
    const r = new api.ToolRegistry([tool]);
    const sneaky = {
      get name() {
        try { r.names(); } catch {}
        try { r.register({ name: "inner", handler() {} }); } catch {}
        try { r.free(); } catch {}
        return "sneaky";
      },
      handler() {},
    };
    try {
      r.register(sneaky);
    } finally {
      try { r.free(); } catch {}
    }
  });
  await ran("ws.setTools(tools whose getters re-enter the bridge)", repeat, () => {
    const ws = new api.WsTools({ dialect: "cartesia", send() {} });
    const sneaky = {
      get name() {
        try { ws.receive("{}"); } catch {}
        try { ws.setTools([]); } catch {}
        try { ws.free(); } catch {}
        return "sneaky";
      },
      handler() {},
    };
    try {
      ws.setTools([sneaky]);
    } finally {
      try { ws.free(); } catch {}
    }
  });
  await ran("new TurnTools(tools whose getters use a TurnTools being answered)", repeat, () => {
    const turns = new api.TurnTools([tool]);
    const sneaky = {
      get outputs() {
        try { turns.answer({ outputs: [] }); } catch {}
        try { turns.free(); } catch {}
        return [];
      },
    };
    return turns.answer(sneaky);
  }, { async: true });

  // In the browser only: in Node 20 this, late in a full run, twice ended the process in a V8
  // fatal error (Deoptimizer::DoComputeBuiltinContinuation, "unreachable code"); alone, 2,000
  // times over, it runs clean there.
  if (env.where === "web") await ran("client.setTools(tools whose getters re-enter the client)", Math.min(repeat, 2000), () => {
    const sneaky = {
      get name() {
        void fx.client.state;
        void fx.client.expiresAt;
        fx.client.setTools([]).catch(() => {});
        return "sneaky";
      },
      handler() {},
    };
    return fx.client.setTools([sneaky]);
  }, { async: true });

  // A handler returning a promise whose `constructor` throws, while another registry's call and
  // a plain call wait in the same tick: all three settle.
  const bad = make("a registry for the executor", () => new api.ToolRegistry([{ name: "bad", handler: () => fxValue("promise, constructor throws") }]));
  const good = make("a registry for the executor", () => new api.ToolRegistry([{ name: "good", handler: () => "fine" }]));
  if (bad && good) await ran("execute of a handler returning a promise whose constructor throws, beside others", repeat, () => {
    const calls = [bad.execute("bad", {}), good.execute("good", {}), fx.registry.execute("echo", { a: 1 })];
    return Promise.all(calls).then(([b, g, e]) => {
      if (b.success !== false || !g.success || !e.success) throw new Error(`wrong answers: ${JSON.stringify([b, g, e])}`);
    });
  }, { async: true });

  // setTools given a revocable Proxy's list, revoked by the last tool's handler getter.
  await ran("client.setTools({ definitions: () => Proxy revoked while read })", Math.min(repeat, 2000), () => {
    const { proxy, revoke } = Proxy.revocable([{ name: "a", handler() {} }, { name: "b", get handler() { revoke(); return () => {}; } }], {});
    return fx.client.setTools({ definitions: () => proxy });
  }, { async: true });

  if (env.fakeModelContext) {
    env.fakeModelContext.install();
    await ran("exposeToWebMCP(client) then a revoked Proxy in setTools", Math.min(repeat, 500), () => {
      const { proxy, revoke } = Proxy.revocable([{ name: "a", handler() {} }, { name: "b", get handler() { revoke(); return () => {}; } }], {});
      return api.exposeToWebMCP(fx.client, { prefix: "x_" }).then(() => fx.client.setTools({ definitions: () => proxy }));
    }, { async: true });
    await ran("exposeToWebMCP(v) with WebMCP present", repeat, (i) => api.exposeToWebMCP(Object.values(values())[i % 30]()), { async: true });
    env.fakeModelContext.remove();
  }

  // `fetch` that throws synchronously: every registration settles, with a code, by its
  // registerTimeoutMs; the page's request slots come back (after() registers a client).
  const realFetch = globalThis.fetch;
  globalThis.fetch = () => { throw new TypeError("fuzz: fetch is not available here"); };
  try {
    await ran("Client.register with a fetch that throws synchronously", repeat, () =>
      api.Client.register({ ...baseOptions(env), registerTimeoutMs: 200 }).then(
        (c) => { c.leave(); throw new Error("registered without a fetch"); },
        (e) => { throw e; },
      ), { async: true, settleMs: 5200, batch: 1000 });
  } finally {
    globalThis.fetch = realFetch;
  }
  await ran("Client.register with an HTTP-header-unsafe token", repeat, () =>
    api.Client.register({ ...baseOptions(env), token: "line\nbreak", registerTimeoutMs: 3000 }).then(
      () => { throw new Error("registered with a token that cannot be sent"); },
      (e) => { if (e?.code !== "invalid_option" || !/\btoken\b/.test(e.message)) throw Object.assign(new Error(`not invalid_option naming token: ${e?.code} ${e?.message}`), { code: undefined }); throw e; },
    ), { async: true, settleMs: 5000 });
  await ran("registry.execute of arguments that are not JSON (BigInt, throwing toJSON)", repeat, (i) =>
    fx.registry.execute("echo", i % 2 ? { n: 1n } : { toJSON: trap }).then((r) => {
      if (r.success || /Unexpected token/.test(r.error) || !/JSON|BigInt/.test(r.error)) {
        throw Object.assign(new Error(`not the SDK's words: ${JSON.stringify(r)}`), { code: undefined });
      }
    }), { async: true });
}

const fxCache = {};
function fxValue(name) {
  return (fxCache[name] ??= values()[name])();
}

/**
 * After the run: the module still answers a trivial `execute`, and a client registered now
 * through the devserver answers the model's call (`env.callTool(client name, tool, args)`
 * makes it, in Node). Resolves to `[name, ok, detail]` checks.
 */
export async function after(api, env) {
  const checks = [];
  const check = async (name, fn) => {
    try {
      checks.push([name, true, String((await fn()) ?? "")]);
    } catch (error) {
      checks.push([name, false, describe(error)]);
    }
  };
  await check("the module still answers a trivial execute", async () => {
    const r = await new api.ToolRegistry([{ name: "ping", handler: () => "pong" }]).execute("ping", {});
    if (!r.success || r.data !== "pong") throw new Error(JSON.stringify(r));
    return JSON.stringify(r);
  });
  let client;
  await check("a client registers through the devserver", async () => {
    const timeout = new Promise((_, fail) => setTimeout(() => fail(new Error("Client.register did not settle in 20 s")), 20000));
    client = await Promise.race([
      api.Client.register({
        baseUrl: env.baseUrl, sessionId: env.session, token: env.token, name: `${env.where}after`, shareStream: false,
        tools: [{ name: "add", parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } }, handler: ({ a, b }) => String(a + b) }],
      }),
      timeout,
    ]);
    return `${client.name}, ${client.state}`;
  });
  return { checks, clientName: client?.name, leave: () => client?.leave() };
}
