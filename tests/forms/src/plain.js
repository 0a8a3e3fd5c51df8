// Plain HTML fixture: no framework; a popstate listener plays the router, and the tools are
// scoped to <main>.
import { Client, describeFormTool, fillFormTool, navigateTool, submitFormTool } from "client-tools";
import { expose, ready } from "./harness.js";

const route = document.getElementById("route");
const render = () => { route.textContent = location.pathname + location.search; };
window.addEventListener("popstate", render);
render();

await ready;
const root = document.getElementById("app");
const form = document.getElementById("contact");
const tools = {
  describe: describeFormTool({ root }),
  fill: fillFormTool({ root }),
  submit: submitFormTool({ root, confirm: (a) => window.confirmAnswer?.(a) ?? true }),
  navigate: navigateTool({ confirm: (a) => window.confirmAnswer?.(a) ?? true }),
};
// With ?base=…&session=…&token=…, the page also registers the tools with a server through the
// SDK's Client, so the agent's calls arrive the real way.
const query = new URLSearchParams(location.search);
// The page keeps its Client (window.client): a Client garbage-collected once nothing refers to
// it leaves the session (docs/sessions.md), which WebKit's and Firefox's collectors did in the
// middle of the client check when this was a local of the block. Its statuses are kept for the
// check's failure message.
window.clientStatuses = [];
if (query.get("base")) {
  window.client = await Client.register({
    baseUrl: query.get("base"),
    sessionId: query.get("session"),
    token: query.get("token"),
    name: "forms",
    tools: Object.values(tools),
    onStatus: (status) => window.clientStatuses.push(JSON.stringify(status)),
  });
  document.body.dataset.client = window.client.name;
}
expose(tools, () => Object.fromEntries(new FormData(form)));
