// The client side of the soak, the same in Node (node-client.mjs) and in Chromium (index.html):
// registers one `Client` of the SDK with the tools the scenarios call, and records what the app
// can see: every handler run by call id, every onCall and onStatus event, with times. No Node or
// DOM API, so that both runners load this one file.
//
// Tools: `echo` answers `echo <args as JSON>` at once; `slow` runs until the runner releases it
// (or `slowMaxMs` pass) and answers "slow done"; `never` never settles (its `timeoutMs` is
// `neverTimeoutMs`).

const now = () => Date.now();

/** Options this build of the SDK refuses as unknown (main before the fixes): dropped, noted. */
function unknownOption(error) {
  return error?.code === "invalid_option" && /^(\w+): unknown option/.exec(error.message)?.[1];
}

export async function startClient(lib, cfg) {
  const rec = {
    t0: now(), runs: {}, aborted: {}, calls: [], statuses: [], unsupported: [], registered: null,
    error: null, slowReleased: false,
  };
  const waiting = new Map(); // callId -> release()
  const tools = [
    {
      name: "echo",
      description: "Answers with its arguments.",
      parameters: { type: "object" },
      handler: (args, ctx) => {
        rec.runs[ctx.callId] = (rec.runs[ctx.callId] ?? 0) + 1;
        return `echo ${JSON.stringify(args)}`;
      },
    },
    {
      name: "slow",
      description: "Runs until released.",
      parameters: { type: "object" },
      timeoutMs: cfg.slowMaxMs ?? 120000,
      handler: (args, ctx) => {
        rec.runs[ctx.callId] = (rec.runs[ctx.callId] ?? 0) + 1;
        ctx.signal.addEventListener("abort", () => (rec.aborted[ctx.callId] = now()));
        return new Promise((done) => {
          const release = () => done("slow done");
          if (rec.slowReleased) release();
          else waiting.set(`${ctx.callId}#${rec.runs[ctx.callId]}`, release);
        });
      },
    },
    {
      name: "never",
      description: "Never answers.",
      parameters: { type: "object" },
      timeoutMs: cfg.neverTimeoutMs ?? 1500,
      handler: (args, ctx) => {
        rec.runs[ctx.callId] = (rec.runs[ctx.callId] ?? 0) + 1;
        return new Promise(() => {});
      },
    },
  ];
  const options = {
    baseUrl: cfg.baseUrl, sessionId: cfg.sessionId, token: cfg.token, name: cfg.name ?? "web",
    lifetime: { type: "ttl", data: { seconds: cfg.ttl ?? 15 } }, tools,
    onStatus: (s) => rec.statuses.push({ t: now(), ...s }),
    onCall: (e) => rec.calls.push({ t: now(), ...e }),
    ...cfg.options,
  };
  for (;;) {
    try {
      rec.client = await lib.Client.register(options);
      break;
    } catch (error) {
      const key = unknownOption(error);
      if (key && key in options && cfg.options && key in cfg.options) {
        rec.unsupported.push(key);
        delete options[key];
        continue;
      }
      rec.error = `${error?.code ?? ""} ${error?.message ?? error}`;
      return { rec, release: () => {} };
    }
  }
  rec.registered = { t: now(), id: rec.client.id, name: rec.client.name };
  const release = () => {
    rec.slowReleased = true;
    for (const r of waiting.values()) r();
    waiting.clear();
  };
  return { rec, release };
}

/** leave(): how long it took and how it ended (never rejects: a rejection is recorded). */
export async function timedLeave(rec) {
  const t = now();
  try {
    await rec.client.leave();
    return { ms: now() - t, outcome: "resolved" };
  } catch (error) {
    return { ms: now() - t, outcome: `rejected: ${error?.code ?? ""} ${error?.message ?? error}` };
  }
}

/** What the runner gets back: the record without the client. */
export function snapshot(rec) {
  const { client, ...rest } = rec;
  return { ...rest, state: client?.state ?? null };
}

/**
 * Issue 22 item 9: `n` calls of `registry.execute` on tools whose handlers never settle, with
 * `timeoutMs` from 5 to 77 ms; each must be answered (a timeout error) soon after its deadline.
 * Resolves to the counts: answered late, never answered within `graceMs` of the last deadline.
 */
export async function localDeadlines(lib, n, graceMs = 1000) {
  await lib.init();
  const defs = [];
  for (let ms = 5; ms <= 77; ms++) defs.push({ name: `never_${ms}`, timeoutMs: ms, handler: () => new Promise(() => {}) });
  const registry = new lib.ToolRegistry(defs);
  let answered = 0;
  let late = 0;
  let worst = 0;
  const all = [];
  // In slices of 50 calls a task, so that starting them does not hold the event loop past the
  // deadlines being measured.
  for (let i = 0; i < n; i++) {
    if (i % 50 === 0) await new Promise((done) => setTimeout(done, 0));
    const ms = 5 + (i % 73);
    const t = now();
    all.push(
      registry.execute(`never_${ms}`, {}, { runId: `run_${i}` }).then(
        () => {
          answered++;
          const over = now() - t - ms;
          worst = Math.max(worst, over);
          if (over > graceMs) late++;
        },
        () => answered++,
      ),
    );
  }
  await Promise.race([Promise.all(all), new Promise((done) => setTimeout(done, 77 + graceMs))]);
  return { calls: n, answered, unanswered: n - answered, late, worstOverMs: worst };
}
