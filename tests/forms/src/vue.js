// Vue 3 fixture: the form and an order page under vue-router (history mode); the navigate tool
// is given the router, so the route change is the router's own.
import { createApp, h } from "vue";
import { RouterView, createRouter, createWebHistory } from "vue-router";
import { describeFormTool, fillFormTool, navigateTool, submitFormTool } from "client-tools";
import { expose, ready } from "./harness.js";
import VueForm from "./VueForm.vue";
import VueOrder from "./VueOrder.vue";
import { state, submitted } from "./vue-state.js";

const router = createRouter({
  history: createWebHistory(),
  routes: [
    { path: "/vue.html", component: VueForm },
    { path: "/vue/orders/:id", component: VueOrder },
  ],
});

const App = {
  setup() {
    return () => [
      h("div", { id: "route" }, router.currentRoute.value.fullPath),
      h(RouterView),
      h("pre", { id: "state" }, JSON.stringify(state)),
      h("pre", { id: "submitted" }, submitted.value ? JSON.stringify(submitted.value) : ""),
    ];
  },
};

await ready;
createApp(App).use(router).mount("#app");
await router.isReady();
const root = document.getElementById("app");
expose(
  {
    describe: describeFormTool({ root }),
    fill: fillFormTool({ root }),
    submit: submitFormTool({ root }),
    navigate: navigateTool({ router: (path) => router.push(path) }),
  },
  () => JSON.parse(document.getElementById("state").textContent),
);
window.routerPath = () => router.currentRoute.value.fullPath;
