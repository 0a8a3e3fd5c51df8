// Plain HTML fixture: no framework; a popstate listener plays the router, and the tools are
// scoped to <main>.
import { describeFormTool, fillFormTool, navigateTool, submitFormTool } from "client-tools";
import { expose, ready } from "./harness.js";

const route = document.getElementById("route");
const render = () => { route.textContent = location.pathname + location.search; };
window.addEventListener("popstate", render);
render();

await ready;
const root = document.getElementById("app");
const form = document.getElementById("contact");
expose(
  {
    describe: describeFormTool({ root }),
    fill: fillFormTool({ root }),
    submit: submitFormTool({ root, confirm: (a) => window.confirmAnswer?.(a) ?? true }),
    navigate: navigateTool({ confirm: (a) => window.confirmAnswer?.(a) ?? true }),
  },
  () => Object.fromEntries(new FormData(form)),
);
