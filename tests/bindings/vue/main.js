// A Vite + Vue 3 + vue-router app that declares its tools per component and per route with
// client-tools/vue (render functions: no compiler plugin); tests/bindings/vue/check.mjs drives it
// through the same route checks as the React app (../routes.mjs).
import { computed, createApp, defineComponent, h, KeepAlive, ref, watchEffect } from "vue";
import { createRouter, createWebHistory, RouterView } from "vue-router";
import { fillFormTool, navigateTool } from "client-tools";
import { z } from "zod";
import { provideClientTools, useClientTools, useTools, useToolNavigate } from "client-tools/vue";

const query = new URLSearchParams(location.search);
const seen = (window.__seen = { statuses: [], warnings: [] });
const options = {
  baseUrl: query.get("base"),
  sessionId: query.get("session"),
  token: query.get("token"),
  name: "vue",
  onStatus: (status) => seen.statuses.push(status),
};
// ?agent=test: the platform's side is client-tools/testing's agent in this page, not the
// devserver (../agent-routes.mjs drives it as window.__agent).
if (query.get("agent") === "test") {
  const { TestAgent } = await import("client-tools/testing");
  window.__agent = new TestAgent();
  Object.assign(options, window.__agent.options());
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

const Status = defineComponent({
  setup() {
    const { client, state, error } = useClientTools();
    // For the check's direct client.scope checks.
    watchEffect(() => (window.__client = client.value));
    return () => h("p", { id: "status", "data-state": state.value }, error.value ? `${state.value}: ${error.value.message}` : state.value);
  },
});

const RouteA = defineComponent({
  setup() {
    useTools(() => [{ name: "a_list", description: "Lists route A's rows.", handler: () => "a rows" }]);
    return () => h("p", { id: "route" }, "a");
  },
});

const RouteB = defineComponent({
  setup() {
    useTools(() => [{ name: "b_open", description: "Opens a row of route B.", handler: () => "b opened" }]);
    return () => h("p", { id: "route" }, "b");
  },
});

// The route's data, loaded by its guard before the route is entered (vue-router's loader).
const loadedData = ref(null);
const Loaded = defineComponent({
  setup() {
    useTools(() => [{ name: "loaded_tool", description: "The tool of a route with a loader.", handler: () => loadedData.value.text }]);
    return () => h("p", { id: "route" }, "loaded");
  },
});

const Counter = defineComponent({
  setup() {
    const count = ref(0);
    // Reads `count` inside the handler only: the definition does not change, so no new PUT.
    useTools(() => [{ name: "count", description: "How many clicks.", handler: () => `count ${count.value}` }]);
    return () => h("div", null, [h("p", { id: "route" }, "counter"), h("button", { id: "click", onClick: () => count.value++ }, `clicked ${count.value}`)]);
  },
});

const Search = defineComponent({
  props: { who: String },
  setup(props) {
    useTools(() => [{ name: "search", description: `Searches (${props.who}).`, handler: () => props.who }]);
    return () => h("p", { id: props.who }, props.who);
  },
});

const Searches = defineComponent({
  setup() {
    const newer = ref(true);
    return () =>
      h("div", null, [
        h("p", { id: "route" }, "search"),
        h(Search, { who: "older" }),
        newer.value ? h(Search, { who: "newer" }) : null,
        h("button", { id: "drop-newer", onClick: () => (newer.value = false) }, "drop newer"),
      ]);
  },
});

// A name declared by a component and by one inside it: the inner one answers, whether it
// mounted with the page or later.
const Inner = defineComponent({
  setup() {
    useTools(() => [{ name: "lookup", description: "Looks up (inner).", handler: () => "inner" }]);
    return () => h("p", { id: "inner" }, "inner");
  },
});

const Nested = defineComponent({
  setup() {
    const inner = ref(true);
    useTools(() => [{ name: "lookup", description: "Looks up (outer).", handler: () => "outer" }]);
    return () =>
      h("div", null, [
        h("p", { id: "route" }, "nested"),
        inner.value ? h(Inner) : null,
        h("button", { id: "toggle-inner", onClick: () => (inner.value = !inner.value) }, "toggle inner"),
      ]);
  },
});

// Two tabs kept by <KeepAlive>: the cached one keeps its state and offers no tool.
const Tab = defineComponent({
  props: { name: String },
  setup(props) {
    const visits = (seen.tabMounts = (seen.tabMounts ?? 0) + 1);
    useTools(() => [{ name: `tab_${props.name}`, description: `Tab ${props.name}.`, handler: () => `tab ${props.name} (mount ${visits})` }]);
    return () => h("p", { id: `tab-${props.name}` }, props.name);
  },
});
const TabOne = defineComponent({ setup: () => () => h(Tab, { name: "one" }) });
const TabTwo = defineComponent({ setup: () => () => h(Tab, { name: "two" }) });

const Kept = defineComponent({
  setup() {
    const tab = ref("one");
    return () =>
      h("div", null, [
        h("p", { id: "route" }, `kept ${tab.value}`),
        h(KeepAlive, null, [tab.value === "one" ? h(TabOne) : h(TabTwo)]),
        h("button", { id: "switch-tab", onClick: () => (tab.value = tab.value === "one" ? "two" : "one") }, "switch tab"),
      ]);
  },
});

const Grow = defineComponent({
  setup() {
    const n = ref(1);
    const tools = computed(() => Array.from({ length: n.value }, (_, i) => ({ name: `item_${i}`, description: `Item ${i}.`, handler: () => `item ${i}` })));
    useTools(() => tools.value);
    return () =>
      h("div", null, [
        h("p", { id: "route" }, `grow ${n.value}`),
        h("button", { id: "grow", onClick: () => n.value++ }, "grow"),
        h("button", { id: "shrink", onClick: () => n.value-- }, "shrink"),
      ]);
  },
});

const FormRoute = defineComponent({
  setup() {
    // A template ref, empty while setup runs: the tool reads the form per call.
    const mine = ref(null);
    const fill = fillFormTool({ name: "fill_mine", form: mine });
    useTools(() => [fill]);
    return () =>
      h("div", null, [
        h("p", { id: "route" }, "form"),
        h("form", { id: "other" }, h("label", null, ["Email ", h("input", { name: "email" })])),
        h("form", { id: "mine", ref: mine }, h("label", null, ["Email ", h("input", { name: "email" })])),
      ]);
  },
});

const router = createRouter({
  history: createWebHistory(),
  routes: [
    { path: "/a", component: RouteA },
    { path: "/b", component: RouteB },
    { path: "/lazy", component: () => import("./Lazy.js") },
    {
      path: "/loaded",
      component: Loaded,
      beforeEnter: async () => {
        loadedData.value = await new Promise((done) => setTimeout(() => done({ text: "loaded after 200 ms" }), 200));
      },
    },
    { path: "/counter", component: Counter },
    { path: "/search", component: Searches },
    { path: "/nested", component: Nested },
    { path: "/kept", component: Kept },
    { path: "/grow", component: Grow },
    { path: "/form", component: FormRoute },
  ],
});

const Provided = defineComponent({
  setup() {
    provideClientTools(options);
    const toolNavigate = useToolNavigate(router);
    useTools(() => [
      navigateTool({ router: toolNavigate }),
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
    return () => h("div", null, [h(Status), h(RouterView)]);
  },
});

const App = defineComponent({
  setup() {
    const on = ref(true);
    return () =>
      h("div", null, [
        h("button", { id: "unmount", onClick: () => (on.value = false) }, "unmount"),
        h("button", { id: "remount", onClick: () => (on.value = true) }, "remount"),
        on.value ? h(Provided) : h("p", { id: "off" }, "off"),
      ]);
  },
});

createApp(App).use(router).mount("#app");
