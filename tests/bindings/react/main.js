// A Vite + React + React Router app under StrictMode that declares its tools per component and
// per route with client-tools/react; tests/bindings/react/check.mjs drives it.
import { Activity, createElement as h, lazy, StrictMode, startTransition, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, Outlet, RouterProvider, useLoaderData, useNavigate } from "react-router";
import { fillFormTool, navigateTool } from "client-tools";
import { z } from "zod";
import { ClientToolsProvider, useClientTools, useTools, useToolNavigate } from "client-tools/react";

// Read once: the routes change the URL.
const query = new URLSearchParams(location.search);
const options = { baseUrl: query.get("base"), sessionId: query.get("session"), token: query.get("token"), name: "react", onStatus };
// What the page saw, for the check.
const seen = (window.__seen = { statuses: [], warnings: [] });
function onStatus(status) {
  seen.statuses.push(status);
}
// A zod schema: converted to JSON Schema once, its refinements checked after the SDK's checks.
const SIGNUP = z.object({
  email: z.string().email(),
  code: z.string().refine((s) => s.startsWith("X"), "must start with X"),
  n: z.number().default(3),
});
const signup = {
  name: "signup",
  description: "Signs up.",
  parameters: SIGNUP,
  handler: ({ email, code, n }) => {
    seen.signups = (seen.signups ?? 0) + 1;
    return `signed up ${email} ${code} ${n}`;
  },
};
const warn = console.warn;
console.warn = (...args) => {
  seen.warnings.push(args.join(" "));
  warn(...args);
};

function Status() {
  const { client, state, error } = useClientTools();
  // For the check's direct client.scope checks.
  useEffect(() => {
    window.__client = client;
  }, [client]);
  return h("p", { id: "status", "data-state": state }, error ? `${state}: ${error.message}` : state);
}

function LayoutTools() {
  const navigate = useNavigate();
  const toolNavigate = useToolNavigate(navigate);
  // Made once: a page tool is compared by identity.
  const nav = useMemo(() => navigateTool({ router: toolNavigate }), [toolNavigate]);
  useTools([
    nav,
    signup,
    {
      name: "go",
      description: "Opens a screen of the app.",
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      async handler({ path }) {
        await toolNavigate(path);
        return `at ${path}`;
      },
    },
  ]);
  return null;
}

function Layout() {
  return h(ClientToolsProvider, { options }, h(Status), h(LayoutTools), h(Suspense, { fallback: h("p", { id: "route" }, "loading") }, h(Outlet)));
}

function RouteA() {
  useTools([{ name: "a_list", description: "Lists route A's rows.", handler: () => "a rows" }]);
  return h("p", { id: "route" }, "a");
}

function RouteB() {
  useTools([{ name: "b_open", description: "Opens a row of route B.", handler: () => "b opened" }]);
  return h("p", { id: "route" }, "b");
}

function Loaded() {
  const data = useLoaderData();
  useTools([{ name: "loaded_tool", description: "The tool of a route with a loader.", handler: () => data.text }]);
  return h("p", { id: "route" }, "loaded");
}

function Counter() {
  const [count, setCount] = useState(0);
  // A new closure every render, the same definition: no new PUT, and the latest count answers.
  useTools([{ name: "count", description: "How many clicks.", handler: () => `count ${count}` }]);
  return h("div", null, h("p", { id: "route" }, "counter"), h("button", { id: "click", onClick: () => setCount((c) => c + 1) }, `clicked ${count}`));
}

function Search({ who }) {
  useTools([{ name: "search", description: `Searches (${who}).`, handler: () => who }]);
  return h("p", { id: who }, who);
}

function Searches() {
  const [newer, setNewer] = useState(true);
  return h("div", null, h("p", { id: "route" }, "search"), h(Search, { who: "older" }), newer && h(Search, { who: "newer" }), h("button", { id: "drop-newer", onClick: () => setNewer(false) }, "drop newer"));
}

// A name declared by a component and by one inside it: the inner one answers, whether it
// mounted with the page (React runs its effect first) or later.
function Inner() {
  useTools([{ name: "lookup", description: "Looks up (inner).", handler: () => "inner" }]);
  return h("p", { id: "inner" }, "inner");
}

function Nested() {
  const [inner, setInner] = useState(true);
  useTools([{ name: "lookup", description: "Looks up (outer).", handler: () => "outer" }]);
  return h("div", null, h("p", { id: "route" }, "nested"), inner && h(Inner), h("button", { id: "toggle-inner", onClick: () => setInner(!inner) }, "toggle inner"));
}

// Two tabs kept by <Activity>: the hidden one keeps its state and offers no tool.
function Tab({ name }) {
  const [visits] = useState(() => (seen.tabMounts = (seen.tabMounts ?? 0) + 1));
  useTools([{ name: `tab_${name}`, description: `Tab ${name}.`, handler: () => `tab ${name} (mount ${visits})` }]);
  return h("p", { id: `tab-${name}` }, name);
}

function Kept() {
  const [tab, setTab] = useState("one");
  return h(
    "div",
    null,
    h("p", { id: "route" }, `kept ${tab}`),
    h(Activity, { mode: tab === "one" ? "visible" : "hidden" }, h(Tab, { name: "one" })),
    h(Activity, { mode: tab === "two" ? "visible" : "hidden" }, h(Tab, { name: "two" })),
    h("button", { id: "switch-tab", onClick: () => setTab(tab === "one" ? "two" : "one") }, "switch tab"),
  );
}

function Grow() {
  const [n, setN] = useState(1);
  const tools = [];
  for (let i = 0; i < n; i++) tools.push({ name: `item_${i}`, description: `Item ${i}.`, handler: () => `item ${i}` });
  useTools(tools);
  return h("div", null, h("p", { id: "route" }, `grow ${n}`), h("button", { id: "grow", onClick: () => setN(n + 1) }, "grow"), h("button", { id: "shrink", onClick: () => setN(n - 1) }, "shrink"));
}

function FormRoute() {
  // The tool is made in the render where the ref is still empty: it reads the form per call.
  const mine = useRef(null);
  const fill = useMemo(() => fillFormTool({ name: "fill_mine", form: mine }), []);
  useTools([fill]);
  return h("div", null, [
    h("p", { id: "route", key: "r" }, "form"),
    h("form", { id: "other", key: "o" }, h("label", null, "Email ", h("input", { name: "email" }))),
    h("form", { id: "mine", key: "m", ref: mine }, h("label", null, "Email ", h("input", { name: "email" }))),
  ]);
}

const router = createBrowserRouter([
  {
    path: "/",
    element: h(Layout),
    children: [
      { path: "a", element: h(RouteA) },
      { path: "b", element: h(RouteB) },
      { path: "lazy", Component: lazy(() => import("./Lazy.js")) },
      {
        path: "loaded",
        loader: () => new Promise((done) => setTimeout(() => done({ text: "loaded after 200 ms" }), 200)),
        element: h(Loaded),
      },
      { path: "counter", element: h(Counter) },
      { path: "search", element: h(Searches) },
      { path: "nested", element: h(Nested) },
      { path: "kept", element: h(Kept) },
      { path: "grow", element: h(Grow) },
      { path: "form", element: h(FormRoute) },
    ],
  },
]);

function App() {
  const [on, setOn] = useState(true);
  // #remount mounts the provider again in a transition, as a route change would.
  return h(
    "div",
    null,
    h("button", { id: "unmount", onClick: () => setOn(false) }, "unmount"),
    h("button", { id: "remount", onClick: () => startTransition(() => setOn(true)) }, "remount"),
    on ? h(RouterProvider, { router }) : h("p", { id: "off" }, "off"),
  );
}

createRoot(document.getElementById("root")).render(h(StrictMode, null, h(App)));
