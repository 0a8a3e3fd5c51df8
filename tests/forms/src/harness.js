// What every fixture page shares: loads the SDK, and exposes the page's tools to the
// Playwright runner as `window.callTool(name, args)`, which calls a tool's handler exactly as
// the SDK's shell would (with a ctx whose afterResult queues work until `runDeferred()`).
import init from "client-tools";

export const ready = init();

export function expose(tools, appState) {
  window.pageTools = tools;
  window.appState = appState;
  window.deferred = [];
  window.callTool = async (name, args, { abort = false } = {}) => {
    const controller = new AbortController();
    if (abort) controller.abort();
    const before = window.deferred.length;
    const ctx = {
      callId: `call_${Math.random().toString(36).slice(2)}`,
      runId: "run_e2e",
      signal: controller.signal,
      deadline: new Date(Date.now() + 60_000),
      afterResult: (fn) => window.deferred.push(fn),
    };
    const result = await tools[name].handler(args, ctx);
    const isError = typeof result === "object" && result !== null && result.isError === true;
    const text = isError ? result.text : result;
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { isError, text, json, deferred: window.deferred.length - before };
  };
  window.runDeferred = () => {
    const fns = window.deferred.splice(0);
    for (const fn of fns) fn();
    return fns.length;
  };
  document.body.dataset.ready = "1";
}
