// Issue 39's burst suite (tests/web_client_burst.rs, tests/web_client_burst_10k.rs): `n` calls
// from the devserver's agent routes to one tab, then every call's outcome as the server has it.
// The agent's requests go to `localhost`, the SDK's to `127.0.0.1`: the browser's six
// connections per host are not theirs to share.
export async function burst(t, n) {
  const { a } = t;
  const agent = t.base.replace("127.0.0.1", "localhost");
  const ran = [];
  const w = a.watched(t.options({
    name: "burst", lifetime: { type: "ttl", data: { seconds: 5 } },
    tools: [{ name: "work", handler: (args, ctx) => { ran.push(ctx.callId); return `done ${args.i}`; } }],
  }));
  const client = await t.register(w.options);
  const run = await a.startRun(agent, t.s);
  const tool = `client__${client.name}__work`;
  const started = Date.now();
  let next = 0;
  const placed = [];
  await Promise.all(Array.from({ length: 48 }, async () => {
    while (next < n) {
      const i = next++;
      placed.push(await a.callTool(agent, t.s, run, tool, { i }));
    }
  }));
  const placedMs = Date.now() - started;
  // Every call settles by the server's deadlines (ack 3 s, result 6 s in scripts/test).
  let calls = [];
  await a.waitFor("every call settled", async () => {
    const runs = (await a.api(agent, "GET", `/v1/sessions/${t.s.id}/runs`, t.s.token)).runs;
    calls = runs.find((r) => r.id === run).calls;
    return calls.length === n && calls.every((c) => c.state !== "pending");
  }, 40000, 250);
  const live = (await a.clients(agent, t.s)).some((c) => c.id === client.id);
  const statuses = w.statuses.map((s) => s.type === "error" ? `error: ${s.message}` : s.type);
  await client.leave();
  const failed = calls.filter((c) => c.state === "failed");
  const reasons = {};
  for (const c of failed) reasons[c.reason] = (reasons[c.reason] || 0) + 1;
  const ranSet = new Set(ran);
  return {
    n, placed: placed.length, placedMs, settledMs: Date.now() - started, live, statuses,
    answered: calls.filter((c) => c.state === "succeeded").length,
    answeredRan: calls.filter((c) => c.state === "succeeded" && ranSet.has(c.call_id)).length,
    failed: failed.length, reasons,
    failedRan: failed.filter((c) => ranSet.has(c.call_id)).map((c) => `${c.call_id} ${c.reason}`),
    ran: ran.length, ranTwice: ran.length - ranSet.size,
    sdkFailed: w.calls.filter((e) => e.type === "failed").length,
  };
}
