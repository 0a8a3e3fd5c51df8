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
 * Issue 22 item 9: calls of `registry.execute` on tools whose handlers never settle, with
 * `timeoutMs` from 5 to 77 ms; each must be answered (a timeout error) soon after its deadline.
 * First `n` at once (50 started a task), then `rounds` rounds of `per` calls each, a round
 * waiting for its answers (at most 77 ms + `graceMs`): a timer that fires early and is not
 * armed again loses the last calls of a burst, so many small bursts show it where one big one
 * rarely does. Resolves to the counts: never answered within `graceMs` of the deadline, late.
 */
export async function localDeadlines(lib, n, { rounds = 60, per = 5, graceMs = 1000 } = {}) {
  await lib.init();
  const defs = [];
  for (let ms = 5; ms <= 77; ms++) defs.push({ name: `never_${ms}`, timeoutMs: ms, handler: () => new Promise(() => {}) });
  const registry = new lib.ToolRegistry(defs);
  const out = { calls: 0, answered: 0, unanswered: 0, late: 0, worstOverMs: 0, burstUnanswered: 0, roundsUnanswered: 0 };
  let k = 0;
  const start = () => {
    const ms = 5 + (k % 73);
    const t = now();
    out.calls++;
    let done = false;
    const p = registry.execute(`never_${ms}`, {}, { runId: `run_${k++}` }).then(
      () => {
        done = true;
        out.answered++;
        const over = now() - t - ms;
        out.worstOverMs = Math.max(out.worstOverMs, over);
        if (over > graceMs) out.late++;
      },
      () => ((done = true), out.answered++),
    );
    return { p, answered: () => done };
  };
  const wait = async (calls) => {
    await Promise.race([Promise.all(calls.map((c) => c.p)), new Promise((done) => setTimeout(done, 77 + graceMs))]);
    return calls.filter((c) => !c.answered()).length;
  };
  const burst = [];
  for (let i = 0; i < n; i++) {
    // In slices of 50 calls a task, so that starting them does not hold the event loop past
    // the deadlines being measured.
    if (i % 50 === 0) await new Promise((done) => setTimeout(done, 0));
    burst.push(start());
  }
  out.burstUnanswered = await wait(burst);
  for (let r = 0; r < rounds; r++) {
    const round = [];
    for (let i = 0; i < per; i++) round.push(start());
    out.roundsUnanswered += await wait(round);
  }
  out.unanswered = out.burstUnanswered + out.roundsUnanswered;
  return out;
}
