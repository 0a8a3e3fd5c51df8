// The agent console: what the model sees, a form to call any tool, the scripted scenario and a
// live log of every call, all through the devserver's agent routes and the session's stream.
import { readSessionParams, sessionQuery } from "../shared/params.js";
import { Agent } from "./agent.js";
import { CallLog, timingText } from "./calllog.js";
import { runScenario, scenarioSteps } from "./scenario.js";
import { followStream } from "./sse.js";

const $ = (id) => document.getElementById(id);
const TOOL_EVENTS = new Set(["client_registered", "client_tools_replaced", "client_left", "client_expired"]);
const MAX_LOG_ROWS = 200;

const log = new CallLog();
let agent;
let modelTools = [];
let manualRun = null;

function el(tag, { dataset = {}, ...props } = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  Object.assign(node.dataset, dataset);
  node.append(...children);
  return node;
}

function setBadge(node, text, kind) {
  node.textContent = text;
  node.dataset.kind = kind;
}

/** Redraws "what the model sees" and the tool pickers from `modelTools`. */
function renderModelTools() {
  const box = $("model-tools");
  if (modelTools.length === 0) {
    box.replaceChildren(el("p", { className: "muted", textContent: "No client has declared tools yet. Open the app." }));
  } else {
    box.replaceChildren(...modelTools.map((tool) => el("details", {},
      el("summary", { textContent: tool.fullName }),
      el("p", { textContent: tool.description || "(no description)" }),
      el("pre", { textContent: JSON.stringify(tool.parameters ?? { type: "object", properties: {} }, null, 2) }))));
  }
  const picker = $("call-tool");
  const chosen = picker.value;
  picker.replaceChildren(...modelTools.map((tool) => new Option(tool.fullName, tool.fullName)));
  if (modelTools.some((tool) => tool.fullName === chosen)) picker.value = chosen;

  const clients = [...new Set(modelTools.map((tool) => tool.client))];
  const clientPicker = $("scenario-client");
  const chosenClient = clientPicker.value;
  clientPicker.replaceChildren(...clients.map((name) => new Option(name, name)));
  clientPicker.value = clients.includes(chosenClient) ? chosenClient : clients.includes("web") ? "web" : (clients[0] ?? "");
  $("run-scenario").disabled = clients.length === 0 || $("scenario-steps").dataset.state === "running";
}

async function refreshModelTools() {
  try {
    modelTools = await agent.tools();
    renderModelTools();
  } catch (error) {
    $("model-tools").replaceChildren(el("p", { className: "message", textContent: error.message, dataset: { kind: "error" } }));
  }
}

function renderLog() {
  const rows = log.list().slice(-MAX_LOG_ROWS).reverse().map((entry) => {
    const result = entry.text ?? (entry.state === "failed" ? entry.reason : "");
    const row = el("tr", {},
      el("td", { textContent: entry.callId, title: entry.callId }),
      el("td", { textContent: entry.tool ?? "?", title: JSON.stringify(entry.arguments ?? {}) }),
      el("td", { textContent: entry.isError ? "answered (error)" : entry.state }),
      el("td", { textContent: timingText(entry) }),
      el("td", { textContent: result ?? "", title: result ?? "" }));
    row.dataset.state = entry.state;
    if (entry.isError) row.dataset.error = "";
    return row;
  });
  $("log-body").replaceChildren(...rows);
}

function noteSessionEvent(type, data) {
  const list = $("session-events");
  const who = data?.name ?? data?.run_id ?? "";
  list.prepend(el("li", { textContent: `${new Date().toLocaleTimeString()} ${type} ${who}` }));
  while (list.children.length > 20) list.lastChild.remove();
}

function onStreamEvent({ type, data }) {
  const at = performance.now();
  if (log.apply({ type, data }, at)) renderLog();
  else if (type === "stream_reset") noteSessionEvent(type, { name: "(events were missed)" });
  if (TOOL_EVENTS.has(type)) {
    noteSessionEvent(type, data);
    refreshModelTools();
  } else if (type.startsWith("run_")) {
    noteSessionEvent(type, data);
  }
}

/** Makes one call as the model would and shows its answer; `manualRun` is reused across calls. */
async function callTool(tool, args) {
  manualRun ??= await agent.startRun();
  // Taken before the POST: the dispatched event often arrives before the POST's answer.
  const requestedAt = performance.now();
  const callId = await agent.call(manualRun, tool, args);
  log.requested(callId, tool, args, requestedAt);
  renderLog();
  const result = await agent.settled(manualRun, callId);
  log.answered(callId, result);
  renderLog();
  return result;
}

function setupCallForm() {
  $("call-tool").addEventListener("change", () => {
    // A hint for the arguments: the schema's required properties, each as an empty string.
    const tool = modelTools.find((t) => t.fullName === $("call-tool").value);
    const required = tool?.parameters?.required ?? [];
    $("call-args").value = JSON.stringify(Object.fromEntries(required.map((name) => [name, ""])));
  });
  $("call-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const out = $("call-result");
    let args;
    try {
      args = JSON.parse($("call-args").value || "{}");
      if (args === null || typeof args !== "object" || Array.isArray(args)) throw new Error("the arguments must be a JSON object");
    } catch (error) {
      out.textContent = `Arguments: ${error.message}`;
      return;
    }
    out.textContent = "calling…";
    try {
      const result = await callTool($("call-tool").value, args);
      out.textContent = JSON.stringify(result, null, 2);
    } catch (error) {
      // A lapsed run is replaced on the next call.
      if (error.status === 404) manualRun = null;
      out.textContent = error.message;
    }
  });
}

function setupScenario() {
  const list = $("scenario-steps");
  const items = scenarioSteps().map((step) => el("li", { dataset: { state: "pending" } },
    el("span", { textContent: `${step.title} ` }),
    el("code", { textContent: step.tool }),
    el("span", { className: "detail" })));
  list.replaceChildren(...items);
  $("run-scenario").addEventListener("click", async () => {
    const client = $("scenario-client").value;
    if (!client) return;
    for (const item of items) {
      item.dataset.state = "pending";
      item.querySelector(".detail").textContent = "";
    }
    list.dataset.state = "running";
    delete list.dataset.newRowId;
    $("run-scenario").disabled = true;
    $("scenario-summary").textContent = "running…";
    const outcome = await runScenario({
      agent,
      client,
      onCall: (callId, tool, args, requestedAt) => {
        log.requested(callId, tool, args, requestedAt);
        renderLog();
      },
      onStep: (index, { state, text, error, ms }) => {
        const item = items[index];
        item.dataset.state = state;
        const took = ms === undefined ? "" : ` (${Math.round(ms)} ms)`;
        item.querySelector(".detail").textContent = state === "failed" ? `${error}${took}` : state === "passed" ? `${text}${took}` : "";
      },
    });
    list.dataset.state = outcome.failed === 0 ? "passed" : "failed";
    if (outcome.newRowId) list.dataset.newRowId = outcome.newRowId;
    $("scenario-summary").textContent = `${outcome.passed} passed, ${outcome.failed} failed${outcome.skipped ? `, ${outcome.skipped} skipped` : ""}`;
    $("run-scenario").disabled = false;
  });
}

function main() {
  let params;
  try {
    params = readSessionParams(location.search, location.origin);
  } catch (error) {
    setBadge($("stream-status"), error.message, "error");
    return;
  }
  agent = new Agent(params);
  $("session-label").textContent = `session ${params.sessionId} · ${params.baseUrl}`;
  if (new URLSearchParams(location.search).get("app") === "0") {
    document.body.classList.add("no-app");
  } else {
    $("app-frame").src = `index.html${sessionQuery(params, location.origin)}#/orders`;
  }
  setupCallForm();
  setupScenario();
  $("refresh-tools").addEventListener("click", refreshModelTools);
  refreshModelTools();
  followStream({
    url: `${agent.root}/stream`,
    token: params.token,
    signal: new AbortController().signal,
    onEvent: onStreamEvent,
    onState: (state, detail) => {
      setBadge($("stream-status"), detail ? `stream: ${state} (${detail})` : `stream: ${state}`, state === "open" ? "ok" : "pending");
      // Events may have been missed while the stream was down: reread what the model sees.
      if (state === "open") refreshModelTools();
    },
  });
}

main();
